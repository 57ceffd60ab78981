"""Compiled forms of captures: a sowing's capture with consequents, ...: hand-written games
give the same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import LONGEST_GAME, _refused_with
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _rows_agree
from test_compiled_sow import _two_rows

# A sowing whose capture (the last seed making two or three) takes the hole's seeds into
# the mover's hand, its consequents counting the mover's captures in the mover's value;
# the third capture wins.
TALLY_SOW_GAME = _two_rows("Tally Sow", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow if:(or (= (count at:(to)) 2) (= (count at:(to)) 3))
                       apply:(fromTo (from (to)) (to (handSite Mover)) count:(count at:(to))
                               (then (if (< (value Player Mover) 1)
                                       (set Value Mover 1)
                                       (set Value Mover (+ 1 (value Player Mover))))))))))""",
    "(if (>= (value Player Mover) 3) (result Mover Win))\n          " + """\
(if (>= (count Moves) 60)
            (byScore {(score P1 (count Cell at:(handSite P1)))
                      (score P2 (count Cell at:(handSite P2)))}))""")


# A disc from the hand, then, when the hand holds an even number above four, one more from
# it on each empty site orthogonally next to it ((fromTo ...) to a region, as a
# consequent, its own (then ...) scoring each): six such discs win, as does a line of four.
SPILL_GAME = """
(game "Spill" (players 2)
  (equipment {(board (square 5)) (hand Each) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (handSite P1) count:14) (place "Disc2" (handSite P2) count:14)})
    (play (move (from (handSite Mover)) (to (sites Empty))
            (then (if (and (is Even (count Cell at:(handSite Mover)))
                           (< 4 (count Cell at:(handSite Mover))))
                    (fromTo (from Cell (handSite Mover))
                            (to (sites Around (last To) Orthogonal) if:(is Empty (to)))
                            (then (addScore Mover 1)))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (>= (score Mover) 6) (result Mover Win))
          (if (no Moves Next) (result Mover Win))})))
"""

# A disc goes on an empty site diagonally next to one of the mover's ((sites To (fromTo
# ...)) from a region, its destinations read with (from) on each origin).
GRAFT_GAME = """
(game "Graft" (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" 0) (place "Disc2" 24)})
    (play (move Add (to (sites To (fromTo (from (sites Occupied by:Mover))
                                          (to (sites Around (from) Diagonal)
                                              if:(is Empty (to))))))))
    (end {(if (is Line 3 Orthogonal) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""


# Stacks of two of a player's pieces: a piece moves from its own level ((from ...
# level:(level)): a slide and a step move that piece, a hop and a leap the top one, as
# Ludii's do), capturing the top enemy piece; a leap in a stacking game reports the top
# level. From the tenth move, a mover that leaves a site where its king would stand threatened loses ((is
# Threatened ...) on a site holding another piece: the top one changed in place).
TOWERS_GAME = """
(game "Towers" (players 2)
  (equipment {(board (square 5))
    (piece "King" Each (move Step (from (from) level:(level))
                         (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (piece "Rook" Each (move Slide (from (from) level:(level)) Orthogonal
                         (to if:(is Enemy (who at:(to))) (apply (remove (to))))))
    (piece "Knight" Each (move Leap (from (from) level:(level)) {{F F R F} {F F L F}}
                           (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (piece "Frog" Each (move Hop (from (from) level:(level)) Diagonal (between if:True)
                         (to if:(is Empty (to)))))})
  (rules
    (start {(place Stack "Knight1" (sites {1 3})) (place Stack "Rook1" (sites {1 3}))
            (place Stack "Frog1" 2) (place Stack "King1" 2)
            (place Stack "Knight2" (sites {21 23})) (place Stack "Rook2" (sites {21 23}))
            (place Stack "Frog2" 22) (place Stack "King2" 22)})
    (play (forEach Piece))
    (end {(if (and (<= 10 (count Moves)) (is Threatened (id "King" Mover) at:(last From)))
            (result Mover Loss))
          (if (= 0 (count Pieces Next)) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# A move may neither leave the mover's king threatened nor the next player without a move
# ((no Moves Next) inside the moves (is Threatened ...) looks at); a check wins.
CHECKS_GAME = """
(game "Checks" (players 2)
  (equipment {(board (square 4))
    (piece "King" Each (move Step (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (piece "Rook" Each (move Slide Orthogonal
                         (to if:(is Enemy (who at:(to))) (apply (remove (to))))))})
  (rules
    (start {(place "King1" 0) (place "Rook1" 5) (place "King2" 15) (place "Rook2" 10)})
    (play (do (forEach Piece)
              ifAfterwards:(and (not (no Moves Next)) (not (is Threatened (id "King" Mover))))))
    (end {(if (is Threatened (id "King" Next)) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""


# Of the mover's moves, only those removing the most pieces ((max Captures ...)): a step
# takes the enemy pieces orthogonally next to where it lands (its consequents), a slide
# the enemy piece it lands on, one at the end of the turn (a removal marked).
SWEEP_GAME = """
(game "Sweep" (players 2)
  (equipment {(board (square 5))
    (piece "Disc" Each
      (or (move Step Orthogonal (to if:(is Empty (to)))
            (then (forEach Site (sites Around (last To) Orthogonal)
                    (if (is Enemy (who at:(site))) (remove (site))))))
          (move Slide Diagonal
            (to if:(is Enemy (who at:(to))) (apply (remove (to) at:EndOfTurn))))))})
  (rules
    (start {(place "Disc1" (sites {0 2 4 6 8})) (place "Disc2" (sites {16 18 20 22 24}))})
    (play (max Captures (forEach Piece)))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


# Stacks slide whole (stack:True), taking the top enemy piece they land on; a top piece
# steps diagonally onto a friendly stack; two pieces taken win.
STACK_SLIDE_GAME = """
(game "Stack Slide" (players 2)
  (equipment {(board (square 5))
    (piece "Disc" Each
      (or (move Slide Orthogonal stack:True
            (to if:(is Enemy (who at:(to))) (apply (remove (to)))))
          (move Step Diagonal (to if:(is Friend (who at:(to)))))))})
  (rules
    (start {(place Stack "Disc1" (sites {0 2 4}) count:2)
            (place Stack "Disc2" (sites {20 22 24}) count:2)})
    (play (forEach Piece))
    (end {(if (< (count Pieces Next) 5) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


def _hopper(name: str, then: str) -> str:
    """A piece of each player that steps orthogonally to an empty site or hops an enemy
    piece, taken at the end of the turn; `then`: the hop's consequents."""
    return (f'    (piece "{name}" Each\n'
            '      (or (move Step Orthogonal (to if:(is Empty (to))))\n'
            '          (move Hop Orthogonal (between if:(is Enemy (who at:(between)))\n'
            '                                        (apply (remove (between) at:EndOfTurn)))\n'
            f'                (to if:(is Empty (to))){then})))')


# A hop lets its mover hop again from where it landed, over an enemy piece it did not jump
# last ((last Between)), or pass: a frog's hop over one piece (taken at the end of the
# turn), a toad's over one with up to two empty sites before and after it; a toad may
# also slide (its decision keeps no sites jumped). A piece taken wins.
LEAPFROG_GAME = ("""
(define "Fresh" (and (is Enemy (who at:(between))) (not (is In (between) (last Between)))))
(game "Leapfrog" (players 2)
  (equipment {(board (square 5))
""" + _hopper("Frog", " (then (moveAgain))") + """
    (piece "Toad" Each
      (or (move Slide Orthogonal)
          (move Hop Orthogonal (between before:2 after:2 if:(is Enemy (who at:(between))))
                (to if:(is Empty (to))) (then (moveAgain)))))})
  (rules
    (start {(place "Frog1" {0 1 2}) (place "Toad1" 3) (place "Frog2" {22 23 24})
            (place "Toad2" 21)})
    (play (if (is Prev Mover)
              (or (move Hop (from (last To)) Orthogonal
                    (between before:1 after:1 if:("Fresh")) (to if:(is Empty (to))))
                  (move Pass))
              (forEach Piece)))
    (end {(if (< (count Pieces Next) 4) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
""")


# Stacks whose hurdles are taken at the end of the turn (remove at:EndOfTurn): a disc's hop
# takes one piece of the stack it jumps, a pawn's two (count:), from the bottom up, as the
# reference's marks do; the top piece of the centre decides.
BOTTOMS_GAME = ("""
(game "Bottoms" (players 2)
  (equipment {(board (square 5))
""" + _hopper("Disc", "") + """
    (piece "Pawn" Each
      (move Hop Diagonal (between if:(is Enemy (who at:(between)))
                                  (apply (remove (between) at:EndOfTurn count:2)))
            (to if:(is Empty (to)))))})
  (rules
    (start {(place Stack items:{"Disc1" "Disc2" "Disc1"} 12) (place "Disc1" 11)
            (place "Pawn2" 18) (place "Disc2" 13)})
    (play (forEach Piece))
    (end {(if (and (< 2 (count Moves)) (= 1 (who at:12))) (result P1 Win))
          (if (and (< 2 (count Moves)) (= 2 (who at:12))) (result P2 Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
""")


# The longest chains of hops, without passes; from the twentieth move, a mover may instead
# remove one of its pieces that starts a longest chain ((sites From (max Moves ...)), its
# positions searched in a helper kernel).
ONE_START_GAME = LONGEST_GAME.replace(
    "(or (max Moves (forEach Piece)) (if (< 24 (count Moves)) (move Pass)))",
    "(or (max Moves (forEach Piece))\n"
    "                  (if (< 20 (count Moves))\n"
    "                      (move Remove (sites From (max Moves (forEach Piece))))))")


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win, some games by the third capture before the move limit.
    (TALLY_SOW_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).any()),
    # Both sides win, some games by the score (six discs spilt) before any line of four
    # could be made.
    (SPILL_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(7).any()),
    # Both sides win.
    (GRAFT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win (a threatened site left), some games after a dozen moves.
    (TOWERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(12).any()),
    # Both sides win, some games after a few moves.
    (CHECKS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(4).any()),
    # Both sides win before the move limit.
    (SWEEP_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(40).any()),
    # Both sides win before the move limit.
    (STACK_SLIDE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(40).any()),
    # Both sides win; some turns hold several decisions.
    (LEAPFROG_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and (df["moves"] > df["turns"]).any()),
    # Both sides win.
    (BOTTOMS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, some games after the twentieth move.
    (ONE_START_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(20).any())],
    ids=["sow-capture-with-consequents", "from-to-a-region-as-a-consequent",
         "sites-to-of-from-to-from-a-region", "moves-from-a-level-in-stacks",
         "no-moves-inside-a-threat", "max-captures",
         "slide-of-a-whole-stack", "last-between",
         "removed-at-the-end-of-the-turn-from-stacks", "sites-from-of-moves-ranked"])
def test_capture_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _rows_agree(text, seeds, played, tmp_path)


@pytest.mark.parametrize("text,old,new", [
    # every move kept, not only those removing most
    (SWEEP_GAME, "(max Captures (forEach Piece))", "(forEach Piece)"),
    # the piece jumped last may be jumped again
    (LEAPFROG_GAME, "(not (is In (between) (last Between)))", "True")],
    ids=["max-captures", "last-between"])
def test_the_rule_acts(text, old, new, tmp_path):
    """Without the rule, other games are played."""
    from ludeme.analysis.playouts import load, run_playouts
    assert old in text
    rows = []
    for i, t in enumerate((text, text.replace(old, new))):
        path = tmp_path / f"game{i}.lud"
        path.write_text(t)
        rows.append(run_playouts(load(path), 10, 3, jobs=1, progress=False,
                                 backend="compiled"))
    assert list(rows[0]["actions"]) != list(rows[1]["actions"])


def test_sites_from_of_moves_ranked_is_refused_in_a_game_with_passes(tmp_path):
    """The all-pass draw reads the decisions' history, which a helper kernel is not handed."""
    _refused_with(ONE_START_GAME, "(move Remove (sites From",
                  "(move Pass) (move Remove (sites From", "in a game with passes", tmp_path)
