"""Compiled forms added for the games whose first lacking form was a (do ...) as a consequent
whose next moves were not counted: the rows of hand-written games on both backends are the
same, and each game shows its rule at work."""

import pytest

# (imported under a name pytest does not collect: its own list stays in its module)
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _reference_rows


def _discs(name: str, side: int, rules: str, pieces: str = '(piece "Disc" Each)') -> str:
    """A game of two players' discs on a square board of `side` sites a side."""
    return (f'(game "{name}" (players 2)\n  (equipment {{(board (square {side})) '
            f'{pieces}}})\n  (rules {rules}))')


# A (do ...) as a consequent whose next moves are a (forEach Site ...) of removals, counted
# site by site once the variable is set: with none, the setting is not made either.
DO_SITES_COUNTED_GAME = _discs("Counted Removals", 4, """
    (play (move Add (to (sites Empty))
            (then (do (set Var "Taken" (+ 1 (var "Taken")))
                      next:(forEach Site (sites Around (last To) Orthogonal)
                             (if (and (is Enemy (who at:(site))) (is Even (var "Taken")))
                                 (remove (site))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (result Mover Draw))})
""")

# A (do ...) whose next moves are another (do ...): those are counted on a copy of the
# position after both first moves (one where a value is remembered), and the score made
# before them counts once.
DO_NESTED_COUNTED_GAME = _discs("Remembered Scores", 4, """
    (play (move Add (to (sites Empty))
            (then (do (addScore Mover 1)
                      next:(do (if (is In (last To) (sites Outer)) (remember Value (last To)))
                               next:(forget Value All))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (byScore))})
""")

# A (do ...) as a consequent whose next move, a step, has no count of its own: generated
# on the position after the setting, and counted (with none, the setting is not made).
DO_STEP_COUNTED_GAME = _discs("Counted Steps North", 4, """
    (play (move Add (to (sites Empty))
            (then (do (set Var "Stepped" (+ 1 (var "Stepped")))
                      next:(step (from (last To)) N (to if:(is Empty (to))))))))
    (end {(if (>= (var "Stepped") 4) (result Mover Win))
          (if (is Full) (result Mover Draw))})
""")

# (take Control ... at:) as a (do ...)'s next move: one move where the site ahead holds an
# enemy's disc, and the (do ...)'s (then ...) scores after it.
DO_TAKE_CONTROL_GAME = _discs("Turned Neighbours", 4, """
    (play (move Add (to (sites Empty))
            (then (do (set Var "Last" (last To))
                      next:(take Control of:Next by:Mover at:(ahead (last To) N))
                      (then (addScore Mover 1))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (byScore))})
""")

# A slide as a (do ...)'s next move: one move where the disc added can drop a site south,
# and the (do ...)'s (then ...) scores after it.
DO_SLIDE_GAME = _discs("Dropped Discs", 4, """
    (play (move Add (to (sites Empty))
            (then (do (set Var "Last" (last To))
                      next:(slide (from (last To)) S (between (exact 1)))
                      (then (addScore Mover 1))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (byScore))})
""")
# A (do <moves> ifAfterwards:) as a consequent whose moves are added discs (each with its
# own (then ...)), each kept where the mover has few discs once it is added, and counted in
# a (priority ...): with none kept, the second list scores.
DO_TESTED_ADDS_GAME = _discs("Tested Neighbours", 4, """
    (play (move Add (to (sites Empty))
            (then (priority {
                (do (add (piece (id "Disc" Mover))
                         (to (intersection (sites Empty) (sites Around (last To) Orthogonal)))
                         (then (addScore Mover 1)))
                    ifAfterwards:(< (count Sites in:(sites Occupied by:Mover)) 5))
                (addScore Mover 3)}))))
    (end {(if (is Line 4) (result Mover Win))
          (if (is Full) (byScore))})
""")


def _guards(name: str, play: str, ends: str, dice: str = "") -> str:
    """A game of a king and a rook each on a board of 5 by 5, both capturing; the play and
    the end rules beside the capture of a king and a draw at 60 moves."""
    return f"""
(game "{name}"
  (players 2)
  (equipment {{(board (square 5)) {dice}
    (piece "King" Each (move Step Orthogonal (to if:(not (is Friend (who at:(to))))
                                                 (apply (remove (to))))))
    (piece "Rook" Each (move Slide Orthogonal (to if:(is Enemy (who at:(to)))
                                                  (apply (remove (to))))))}})
  (rules
    (start {{(place "King1" 2) (place "Rook1" 0) (place "King2" 22) (place "Rook2" 24)}})
    (play {play})
    (end {{(if (no Pieces Next "King") (result Mover Win)) {ends}
          (if (>= (count Moves) 60) (result Mover Draw))}})))
"""


# A roll's (do ...) as the first moves of a (do ... ifAfterwards:): the moves the roll gives
# are tested, and where the next player's moves are only looked for (a threat to the king,
# whether there is a move) the roll is made on a copy of the position.
ROLL_TESTED_GAME = _guards("Rolled Guards", """(do (do (roll)
                  next:(if (= (count Pips) 1) (forEach Piece "King") (forEach Piece "Rook")))
              ifAfterwards:(not (is Threatened (id "King" Mover))))""",
                           "(if (no Moves Next) (result Mover Win))",
                           dice="(dice d:2 from:1 num:1)")

# A (do <effects> next:<moves>) among the moves a (do ... ifAfterwards:) tests, and one inside
# a (can Move ...) (looked for on a copy with the score made).
DO_TESTED_AT_TOP_GAME = _guards("Scored Kings", """(do (or (forEach Piece "Rook")
                  (do (addScore Mover 1) next:(forEach Piece "King")))
              ifAfterwards:(not (is Threatened (id "King" Mover))))""",
                                """(if (not (can Move (do (addScore Next 1)
                                                  next:(forEach Piece Next))))
              (result Mover Win))""")


@pytest.mark.parametrize("text, seeds, played", [
    # Removals are made beside the additions.
    (DO_SITES_COUNTED_GAME, (3, 7), lambda df: df["actions"].gt(df["moves"]).any()),
    # The fourth step wins.
    (DO_STEP_COUNTED_GAME, (3, 7), lambda df: df["winner"].gt(0).any()),
    # Every addition scores.
    (DO_NESTED_COUNTED_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Discs taken score.
    (DO_TAKE_CONTROL_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Drops score.
    (DO_SLIDE_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Some games end before the draw.
    (ROLL_TESTED_GAME, (3, 7), lambda df: df["moves"].lt(60).any()),
    # Discs are added beside the moves (each with its score: more than two actions a move).
    (DO_TESTED_ADDS_GAME, (3, 7), lambda df: df["actions"].gt(df["moves"] * 2).any()),
    # Kings' steps score.
    (DO_TESTED_AT_TOP_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
], ids=["do-next-sites-counted", "do-next-step-generated-and-counted",
        "do-next-do-counted-after-its-first-moves", "do-next-take-control", "do-next-slide", "roll-tested-afterwards",
        "do-tested-adds-counted", "do-after-effects-tested-and-looked-for"])
def test_dox_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _reference_rows(text, seeds, played, tmp_path)
