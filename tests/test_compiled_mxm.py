"""Compiled forms of ranked moves ((max Moves ...) inside moves that test or extend them,
(max Moves withValue:True ...)), (promote ...) as an effect, (add ... stack:True) as one
move, (do <removals> next:<several moves>) as a consequent: hand-written games give the
same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import NEXT_HOPS_GAME, _refused_with
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _rows_agree

# The hops of NEXT_HOPS_GAME over any enemy piece; a side's first decision of a turn is one
# of the moves beginning the longest chain of hops, a step, or, late, a pass (PLAY below).
_RANKED = NEXT_HOPS_GAME.replace('"Next Hops"', '"Ranked"').replace(
    "(= (who at:(between)) (next))", "(is Enemy (who at:(between)))").replace(
    '("HopOn" (last To))\n              (forEach Piece)))',
    '(max Moves ("HopOn" (last To)))\n              PLAY))').replace(
    "(no Moves Next)", "(no Pieces Next)")


def _ranked(play: str, end: str = "") -> str:
    assert "PLAY" in _RANKED
    text = _RANKED.replace("PLAY", play)
    return text.replace("(end {", "(end {" + end) if end else text


# The (then ...) of the moves around those ranked follows each of them: a side scoring
# twelve first decisions ends the game in a draw.
AROUND_THEN_GAME = _ranked(
    "(or {(max Moves (forEach Piece)) (if (< 30 (count Moves)) (move Pass))}\n"
    "                  (then (addScore Mover 1)))",
    "(if (<= 12 (score Mover)) (result Mover Draw))\n          ")

# The moves ranked are tested afterwards ((do ... ifAfterwards:)): none may end in a corner.
TESTED_AFTER_GAME = _ranked(
    "(do (max Moves (forEach Piece))\n"
    "                  ifAfterwards:(not (is In (last To) (sites Corners))))")

# The moves ranked are the next moves of a (do ...) after a setting of a variable, which
# each carries (the turns counted in it: the twenty-fourth turn ends the game in a draw).
AFTER_SETTING_GAME = _ranked(
    '(do (set Var "turns" (+ 1 (var "turns"))) next:(max Moves (forEach Piece)))',
    '(if (<= 24 (var "turns")) (result Mover Draw))\n          ')


def _chains(df) -> bool:
    """Some turns hold several decisions."""
    return (df["moves"] > df["turns"]).any()


def _early_draws(df) -> bool:
    """Some turns hold several decisions, some games end in a draw before the move limit."""
    return _chains(df) and (df["moves"].lt(40) & df["winner"].eq(0)).any()


@pytest.mark.parametrize("text,seeds,played", [
    (AROUND_THEN_GAME, (3, 4), _early_draws),
    # Both sides win.
    (TESTED_AFTER_GAME, (3, 4), lambda df: _chains(df) and {1, 2} <= set(df["winner"])),
    (AFTER_SETTING_GAME, (3, 4), _early_draws)],
    ids=["max-moves-inside-a-then", "max-moves-tested-afterwards",
         "max-moves-after-a-setting"])
def test_moves_ranked_inside_other_moves_give_the_reference_rows(text, seeds, played,
                                                                 tmp_path):
    _rows_agree(text, seeds, played, tmp_path)


# A pawn taking an enemy piece is crowned as it goes ((promote ...) inside the (apply ...)
# of its step, on its start, before it moves); three crowns win.
CROWNING_GAME = """
(game "Crowning" (players 2)
  (equipment {(board (square 5))
    (piece "Pawn" Each
      (move Step Orthogonal
        (to if:(not (is Friend (who at:(to))))
            (apply (if (is Enemy (who at:(to)))
                       (and (remove (to)) (promote (from) (piece "King") Mover)))))))
    (piece "King" Each
      (move Step (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))})
  (rules
    (start {(place "Pawn1" (sites Bottom)) (place "Pawn2" (sites Top))})
    (play (forEach Piece))
    (end {(if (<= 3 (count Pieces Mover "King")) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


def test_promotion_as_an_effect_gives_the_reference_rows(tmp_path):
    # Both sides win (three crowns) before the move limit.
    _rows_agree(CROWNING_GAME, (3, 4),
                lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).any(), tmp_path)


# Every other step (the turns counted in a variable), the mover's piece is added on the
# stack the step made ((add ... stack:True) as the next move of a (do ...) consequent); a
# stack of four wins.
BUILDERS_GAME = """
(game "Builders" (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 1 2})) (place "Disc2" (sites {13 14 15}))})
    (play (forEach Piece
            (move Step (to if:(or (is Empty (to)) (is Friend (who at:(to))))) stack:True
              (then (do (set Var "steps" (+ 1 (var "steps")))
                        next:(if (is Even (var "steps")) (add (to (last To)) stack:True)))))
            top:True))
    (end {(if (<= 4 (size Stack at:(last To))) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


def test_an_addition_to_a_stack_as_one_move_gives_the_reference_rows(tmp_path):
    # Some games are won: a side has three pieces, a stack of four holds one added.
    _rows_agree(BUILDERS_GAME, (3, 4), lambda df: df["winner"].gt(0).any(), tmp_path)


# A step takes the enemy pieces orthogonally next to where it lands, then scores (a (do
# ...) consequent whose next moves are two, each made after the removals again: two points
# on the centre, one while the enemy has fewer than five pieces, read after the removals).
PURGE_GAME = """
(game "Purge" (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 2 4 6 8})) (place "Disc2" (sites {16 18 20 22 24}))})
    (play (forEach Piece
            (move Step (to if:(is Empty (to)))
              (then (do (forEach Site (sites Around (last To) Orthogonal)
                          (if (is Enemy (who at:(site))) (remove (site))))
                        next:(and (if (is In (last To) (sites Centre)) (addScore Mover 2))
                                  (if (< (count Pieces Next) 5) (addScore Mover 1))))))))
    (end {(if (<= 8 (score Mover)) (result Mover Win))
          (if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


def test_next_moves_after_removals_as_a_consequent_give_the_reference_rows(tmp_path):
    # Both sides win, some games by the score (the scores apart at some point).
    _rows_agree(PURGE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
                and df["score_difference_maximum"].gt(0).any(), tmp_path)


# A piece hops enemy pieces (taken at the end of the turn) while it can, or takes the
# enemy pieces orthogonally next to where it steps; of a side's first moves, only those
# beginning the chain that takes the most value ((max Moves withValue:True ...), every
# piece worth VALUE). (Ranked after the first hop of a turn too, the reference's search
# would take minutes.)
HOARD_GAME = """
(define "Taken" (between if:(and (not (is In (between) (sites ToClear)))
                                 (is Enemy (who at:(between))))))
(define "HopOn"
  (move Hop (from #1) Orthogonal ("Taken" (apply (remove (between) at:EndOfTurn)))
    (to if:(is Empty (to)))
    (then (if (can Move (hop (from (last To)) Orthogonal ("Taken") (to if:(is Empty (to)))))
              (moveAgain)))))
(game "Hoard" (players 2)
  (equipment {(board (square 5))
    (piece "Disc" Each (or ("HopOn" (from))
                           (move Step Orthogonal (to if:(is Empty (to)))
                             (then (forEach Site (sites Around (last To) Orthogonal)
                                     (if (is Enemy (who at:(site))) (remove (site))))))))})
  (rules
    (start {(place "Disc1" (sites {1 2 3 6 8}) value:VALUE)
            (place "Disc2" (sites {16 18 21 22 23}) value:VALUE)})
    (play (if (is Prev Mover)
              ("HopOn" (last To))
              (max Moves withValue:True (forEach Piece))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


@pytest.mark.parametrize("value", ["1", "3"])
def test_moves_ranked_by_the_value_they_capture_give_the_reference_rows(value, tmp_path):
    # Some games are won before the move limit, pieces taken.
    _rows_agree(HOARD_GAME.replace("VALUE", value), (3, 4),
                lambda df: df["winner"].gt(0).any() and df["moves"].lt(40).any(), tmp_path)


@pytest.mark.parametrize("old,new,why", [
    ('(place "Disc2" (sites {16 18 21 22 23}) value:1)',
     '(place "Disc2" (sites {16 18 21 22 23}) value:2)', "of pieces of several values"),
    # a piece added holds no value
    ('(or ("HopOn" (from))', '(or (or ("HopOn" (from)) (move Add (to (sites Empty))))',
     "whose rules add pieces or set values")],
    ids=["several-values", "pieces-added"])
def test_moves_ranked_by_value_where_pieces_may_differ_in_value_are_refused(old, new, why,
                                                                          tmp_path):
    """Ludii reads the value of a stack's bottom piece for the moves ranked, the top one's
    along the chain after them, and ranks the moves of each position the chain passes:
    the kernels count the pieces removed, in a game whose pieces are worth one value."""
    _refused_with(HOARD_GAME.replace("VALUE", "1"), old, new, why, tmp_path)


# A disc added scores for its mover each value from one to the pieces around it, and after
# each, the next player each value from one to two ((forEach Value ...) as a consequent
# whose (then ...) is another, reading its own (value)); a score of 60 wins.
ECHO_GAME = """
(game "Echo" (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (forEach Value min:1 max:(count Sites in:(sites Around (last To) NotEmpty))
                    (addScore Mover (value))
                    (then (forEach Value min:1 max:2 (addScore Next (value))))))))
    (end {(if (<= 60 (score Mover)) (result Mover Win))
          (if (<= 60 (score Next)) (result Next Win))
          (if (is Full) (result Mover Draw))})))
"""


def test_values_iterated_after_values_as_consequents_give_the_reference_rows(tmp_path):
    # Both sides win before the board is full.
    _rows_agree(ECHO_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]), tmp_path)
