"""Compiled forms of the rot branch: pieces that turn (a rotation given by the start rules,
`(move Set Rotation ...)`, `(set Rotation ...)` as a consequent, `(rotation at:)`), their
relative directions with them, directions relative to the piece chosen in play; and two
forms that a game of pieces turning needed: `(sites <walks>)` and `(sites Occupied
by:Prev)` before the first move. Each hand-written game has a compiled form, and both
backends give the same rows."""

import pytest

import test_compiled

# Pieces placed turned, stepping in directions relative to their facing turned by their
# rotation; a decision turns a piece to the previous or next rotation; the mover loses
# where the piece last moved or turned faces rotation 4.
TURNING_GAME = """(game "Turning Guards" (players {(player N) (player S)})
  (equipment {(board (square 5)) (piece "Guard" Each)})
  (rules
    (start {(place "Guard1" {0 1 2} rotation:2) (place "Guard2" {22 23 24} rotation:6)})
    (play (forEach Piece (or (move Step (directions {Forward FR})
                                (to if:(not (is Friend (who at:(to)))) (apply (remove (to)))))
                             (move Set Rotation))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (= (rotation at:(last To)) 4) (result Mover Loss))})))
"""

# A slide whose directions an (if ...) chooses among directions relative to the piece; its
# consequent turns the piece by a rotation read from the position (and by the next one
# where its state says so), past the board's eight rotation states too.
SPINNING_GAME = """(game "Spinning Lances" (players {(player N) (player S)})
  (equipment {(board (square 5)) (piece "Lance" Each)})
  (rules
    (start {(place "Lance1" {0 4} rotation:1) (place "Lance2" {20 24} rotation:3)})
    (play (forEach Piece
             (move Slide (if (= 0 (state at:(from))) (directions {Forwards}) (directions {Rightward}))
                (to if:(is Enemy (who at:(to))) (apply (remove (to))))
                (then (and (set State at:(last To) (- 1 (state at:(last To))))
                           (set Rotation (to (last To)) {(+ 2 (rotation at:(last To)))}
                                previous:False next:(= 0 (state at:(last To)))))))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (rotation at:(last To)) 9) (result Mover Loss))})))
"""

# (sites Occupied by:Prev) read on the first move, when no player is the previous one (no
# empty site is listed), and (sites <walks>) (an empty one, `(sites {})`, read as walks).
PREV_GAME = """(game "Prev Hunt" (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" 0) (place "Disc2" 3)})
    (play (or (forEach Piece (move Step (to if:(is In (to) (sites Occupied by:Prev))
                                            (apply (remove (to))))))
              (move Add (to (sites Empty)))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (is In (last To) (union (sites {}) (sites 5 {{F F R F}}))) (result Mover Loss))
          (if (>= (count Moves) 12) (result Mover Draw))})))
"""

CASES = [
    # games ended in a few turns: by the rotation read, before three captures
    (TURNING_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["turns"].lt(6).any()),
    (SPINNING_GAME, (3, 4), lambda df: {0, 1} <= set(df["winner"])),
    (PREV_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
]
IDS = ["rotation-placed-set-and-read", "rotation-consequent-and-chosen-directions",
       "occupied-by-prev-and-sites-walk"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_rot_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)
