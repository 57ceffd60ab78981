"""Compiled forms added for the games whose first lacking form was a (do ...) or an (and ...)
reading what an earlier part changed: the rows of hand-written games on both backends are
the same, and each game shows its rule at work."""

import pytest

# (imported under a name pytest does not collect: its own list stays in its module)
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _reference_rows


def _discs(name: str, side: int, rules: str, pieces: str = '(piece "Disc" Each)') -> str:
    """A game of two players' discs on a square board of `side` sites a side."""
    return (f'(game "{name}" (players 2)\n  (equipment {{(board (square {side})) '
            f'{pieces}}})\n  (rules {rules}))')


# An (and ...) whose second part looks for a move (with consequents of its own, never
# applied) on the position before the first part added a disc where that move would go.
AND_CAN_MOVE_GAME = _discs("Blocked Steps", 5, """
    (start {(place "Disc1" (sites Bottom)) (place "Disc2" (sites Top))})
    (play (forEach Piece))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 50) (result Mover Draw))})
""", pieces='''(piece "Disc" Each
      (move Step Orthogonal (to if:(is Empty (to)))
        (then (and (if (and (is Even (count Moves)) (is Empty (ahead (last To) N)))
                       (add (piece (id "Disc" Next)) (to (ahead (last To) N))))
                   (if (and (< (count MovesThisTurn) 2)
                            (can Move (move Step (from (last To)) N (to if:(is Empty (to)))
                                        (then (addScore Mover 1)))))
                       (moveAgain))))))''')

# A (do ...) with ifAfterwards: as a consequent: the setting is made where the variable it
# gives is odd, and its (then ...) scores then.
DO_TESTED_GAME = _discs("Odd Sums", 4, """
    (play (move Add (to (sites Empty))
            (then (do (set Var "Sum" (+ (var "Sum") (last To)))
                      ifAfterwards:(is Odd (var "Sum"))
                      (then (addScore Mover (% (var "Sum") 5)))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (byScore))})
""")

# The same with a remembered value, tested on the mover moving again: (moveAgain) made
# before it does not count in the test (the mover is taken as not moving again).
DO_TESTED_AGAIN_GAME = _discs("Remembered Corners", 4, """
    (play (move Add (to (sites Empty))
            (then (and {(if (is In (last To) (sites Corners)) (moveAgain))
                       (do (remember Value (last To))
                           ifAfterwards:(and (!= (mover) (next))
                                             (< (count Sites in:(sites (values Remembered))) 4)))
                       (addScore Mover (count Sites in:(sites (values Remembered))))}))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (byScore))})
""")

# An (and ...) whose score reads the values remembered before its first part remembered
# one more (the value a score adds reads the position before any part, as its target does
# not).
AND_SCORE_READS_GAME = _discs("Remembered Count", 4, """
    (play (move Add (to (sites Empty))
            (then (and (remember Value (last To))
                       (addScore Mover (count Sites in:(sites (values Remembered))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (byScore))})
""")

# A (forEach Site ...) as a consequent whose moves (promotions) each read and write their
# own site: on a copy of the position before any, as the reference reads it.
FOR_EACH_PROMOTE_GAME = _discs("Crowned Rows", 4, """
    (start {(place "Disc1" (sites Bottom)) (place "Disc2" (sites Top))})
    (play (forEach Piece))
    (end {(if (no Moves Next) (result Mover Loss))
          (if (>= (count Moves) 40) (result Mover Draw))})
""", pieces='''(piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))
      (then (forEach Site (union (sites Top) (sites Bottom))
              (if (= (what at:(site)) (id "Disc" Mover))
                  (promote (site) (piece "King") Mover))))))
    (piece "King" Each (move Step Diagonal (to if:(is Empty (to)))))''')

# A (do ...) inside a piece's moves, after a setting of the mover's value that its next
# moves do not read: each step carries the setting.
DO_COUNTED_STEPS_GAME = _discs("Counted Steps", 4, """
    (start {(place "Disc1" (sites Bottom)) (place "Disc2" (sites Top))})
    (play (forEach Piece))
    (end {(if (>= (value Player Mover) 12) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})
""", pieces='''(piece "Disc" Each
      (do (set Value Mover (+ 1 (value Player Mover)))
          next:(move Step Orthogonal (to if:(is Empty (to))))))''')

# A (do ...) whose next moves are tested afterwards, after a score: each move is tested on
# the position the score was made on, the score made again with the move (a move ending
# on a site that, with the score, is a multiple of 3 is left out).
DO_SCORE_TESTED_GAME = _discs("Scored Steps", 4, """
    (start {(place "Disc1" (sites Bottom)) (place "Disc2" (sites Top))})
    (play (do (addScore Mover 1)
              next:(do (forEach Piece)
                       ifAfterwards:(!= 0 (% (+ (score Mover) (last To)) 3)))))
    (end {(if (>= (score Mover) 12) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})
""", pieces='''(piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))))''')

# (do ...)s among the moves a threat is looked for in (the enemy's, for (is Threatened ...)):
# a rook's slide after a setting of a variable, a bishop's step after a setting of the
# mover's value; the next moves looked for with the settings made on a copy.
DO_THREAT_GAME = """
(game "Guarded Kings"
  (players 2)
  (equipment {(board (square 5))
    (piece "King" Each (move Step Orthogonal (to if:(not (is Friend (who at:(to))))
                                                 (apply (remove (to))))))
    (piece "Rook" Each (do (set Var "Slid" (+ 1 (var "Slid")))
                           next:(move Slide Orthogonal (to if:(is Enemy (who at:(to)))
                                                           (apply (remove (to)))))))
    (piece "Bishop" Each (do (set Value Mover (+ 1 (value Player Mover)))
                             next:(move Step Diagonal (to if:(not (is Friend (who at:(to))))
                                                          (apply (remove (to)))))))})
  (rules
    (start {(place "King1" 2) (place "Rook1" 0) (place "Bishop1" 4)
            (place "King2" 22) (place "Rook2" 24) (place "Bishop2" 20)})
    (play (do (forEach Piece) ifAfterwards:(not (is Threatened (id "King" Mover)))))
    (end {(if (no Pieces Next "King") (result Mover Win))
          (if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# A (do ...) as a consequent whose next move names the next player, and a (pass) as the
# other branch (one action that changes nothing).
DO_NEXT_PLAYER_GAME = _discs("Named Turns", 4, """
    (play (move Add (to (sites Empty))
            (then (if (is In (last To) (sites Outer))
                      (do (addScore Mover 1) next:(set NextPlayer (player 1)))
                      (pass)))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (byScore))})
""")


@pytest.mark.parametrize("text, seeds, played", [
    # Turns go on (the step north looked for before the disc was added).
    (AND_CAN_MOVE_GAME, (3, 7), lambda df: df["moves"].gt(df["turns"]).any()),
    # Odd sums score.
    (DO_TESTED_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Corners replay, and the values remembered (three at most) score.
    (DO_TESTED_AGAIN_GAME, (3, 7), lambda df: df["moves"].gt(df["turns"]).any()
     and df["score_difference_maximum"].gt(0).any()),
    # P1 moves after the outer sites taken (P2 more rarely moves), and passes count.
    (DO_NEXT_PLAYER_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Scores grow with the values remembered.
    (AND_SCORE_READS_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(2).any()),
    # Discs are crowned in every game (actions beside the steps).
    (FOR_EACH_PROMOTE_GAME, (3, 7), lambda df: df["actions"].gt(df["moves"]).all()),
    # The twelfth step wins.
    (DO_COUNTED_STEPS_GAME, (3, 7), lambda df: df["winner"].gt(0).all()),
    # Twelve steps win.
    (DO_SCORE_TESTED_GAME, (3, 7), lambda df: df["winner"].gt(0).any()),
    # Some games end before the draw.
    (DO_THREAT_GAME, (3, 7), lambda df: df["moves"].lt(60).any()),
], ids=["and-can-move-before-an-add", "do-tested-as-a-consequent",
        "do-tested-after-move-again", "do-next-player-and-pass",
        "and-score-reads-before-a-remembered-value", "for-each-site-promotes",
        "do-inside-a-piece-after-a-setting",
        "do-next-moves-tested-after-a-score",
        "do-among-the-moves-a-threat-is-looked-for"])
def test_do2_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _reference_rows(text, seeds, played, tmp_path)
