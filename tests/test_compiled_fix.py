"""Faults of the compiled backend found after the forms were written: hand-written games give
the same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import test_new_compiled_forms_give_the_reference_rows as _rows_agree

# Stacks of two pieces, each placed with a value no rule reads; a top piece stepping alone
# takes the value its new level was left with (none), a hop takes the enemy piece jumped,
# and a side's moves are those taking most ((max Captures)). Positions of one layout of
# pieces differ by their values: the position's key reads them (`StackSites.key`).
VALUED_STACKS_GAME = """
(game "Valued Stacks" (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each
      (or (move Step Orthogonal (to if:(not (is Enemy (who at:(to))))))
          (move Hop Orthogonal (between if:(is Enemy (who at:(between))) (apply (remove (between))))
            (to if:(is Empty (to))))))})
  (rules
    (start {(place Stack "Disc1" (sites {0 1 2}) count:2 value:1)
            (place Stack "Disc2" (sites {13 14 15}) count:2 value:2)})
    (play (max Captures (forEach Piece top:True)))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# Without stacks: two pieces of a kind and owner told apart by their values alone (which
# move with them), so that swapping their places gives another position.
VALUED_PIECES_GAME = """
(game "Valued Pieces" (players 2)
  (equipment {(board (square 3))
    (piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" 0 value:1) (place "Disc1" 1 value:2)
            (place "Disc2" 8 value:3) (place "Disc2" 7)})
    (play (forEach Piece))
    (end {(if (>= (count Moves) 10) (result Mover Draw))})))
"""


def _some_repeat(df) -> bool:
    """Some playouts repeat a position, others not."""
    return 0 < df["positional_repetition"].mean() < 1


@pytest.mark.parametrize("text,seeds", [(VALUED_STACKS_GAME, (3, 4)),
                                        (VALUED_PIECES_GAME, (4, 3))],
                         ids=["stacks", "flat"])
def test_values_given_at_the_start_key_the_positions_on_both_backends(text, seeds, tmp_path):
    """The kernels keep the values the start gives the pieces (at any level of a stack),
    which the position's key reads, though no rule reads them."""
    _rows_agree(text, seeds, _some_repeat, tmp_path)


# From the seventeenth move a side may instead remove one of its pieces that begins a longest
# chain of hops ((sites From (max Moves ...))); a side whose opponent has no move wins. The
# end rule of each position the ranking searches is a (no Moves Next) met while the moves of
# another are generated: false, as the reference's (Ludii's autoFail), not a search of its
# own (which searched its ranking again, without end on the kernels).
SACRIFICE_GAME = """
(define "Jumped" (between if:(and (not (is In (between) (sites ToClear)))
                                  (is Enemy (who at:(between))))
                   (apply (remove (between) at:EndOfTurn))))
(define "HopOn" (move Hop (from #1) Orthogonal ("Jumped") (to if:(is Empty (to)))
                  (then (if (can Move (hop (from (last To)) Orthogonal ("Jumped")
                                           (to if:(is Empty (to)))))
                            (moveAgain)))))
(game "Sacrifice" (players 2)
  (equipment {(board (square 5))
    (piece "Counter" Each (or (move Step Orthogonal (to if:(is Empty (to)))) ("HopOn" (from))))})
  (rules
    (start {(place "Counter1" {1 2 3 6 8}) (place "Counter2" {21 22 23 16 18})})
    (play (if (is Prev Mover)
              (max Moves ("HopOn" (last To)))
              (or (if (< 16 (count Moves)) (move Remove (sites From (max Moves (forEach Piece)))))
                  (max Moves (forEach Piece)))))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


def test_no_moves_met_while_moves_are_ranked_gives_the_reference_rows(tmp_path):
    # Both sides win before the move limit.
    _rows_agree(SACRIFICE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
                and df["moves"].lt(40).any(), tmp_path)
