"""Compiled forms of moves made together on one position ((and ...) and (forEach Value ...)
as consequents) whose own consequents read the position as applied: hand-written games
give the same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import _refused_with
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _rows_agree
from test_compiled_sow import HANDS_SCORE, _two_rows


def _placing(name: str, then: str, win: int) -> str:
    """A game of two players placing discs on a 4x4 board, `then` the consequents of each
    placement; a score of `win` wins."""
    return f"""
(game "{name}" (players 2)
  (equipment {{(board (square 4)) (piece "Disc" Each)}})
  (rules
    (play (move Add (to (sites Empty))
            (then {then})))
    (end {{(if (>= (score Mover) {win}) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))}})))
"""


# Then, together: the enemy disc north of it goes, and the number of the next player's
# discs is noted (read before that removal, as the parts of an (and ...) are made on one
# position), the note's consequents scoring the discs removed (read after it). Three
# removals win.
NOTED_REMOVAL_GAME = _placing("Noted Removal", """(and
                    (if (is Enemy (who at:(ahead (last To) N)))
                      (remove (ahead (last To) N)))
                    (set Var "Before" (count Pieces Next)
                      (then (addScore Mover (- (var "Before") (count Pieces Next))))))""", 3)

# Then, on a corner, a note is set, whose consequents make three moves together, one per
# value: each notes the score before them all plus its value (a (forEach Value ...) reads
# the position before any of its moves), its own consequents adding that note to the score
# (read as applied). A removal's consequents count it too.
SUMMED_VALUES_GAME = _placing("Summed Values", """(if (is In (last To) (sites Corners))
                    (set Var "Corner" (last To)
                      (then (forEach Value min:1 max:3
                              (set Var "Step" (+ (value) (score Mover))
                                (then (addScore Mover (var "Step")))))))
                    (if (is Enemy (who at:(ahead (last To) E)))
                      (and (remove (ahead (last To) E) (then (addScore Mover 1)))
                           (set Var "Corner" -1))))""", 40)

# Then each group of the mover's scores its first site ((regionSite (sites) index:0):
# `(sites)` is the group visited, not a region listed once).
GROUP_FIRST_SITE_GAME = _placing("Group First Site", """(forEach Group Orthogonal
                    if:(= (mover) (who at:(to)))
                    (addScore Mover (regionSite (sites) index:0)))""", 30)

# Then, on each site diagonally next to it, an enemy disc goes, or an empty site takes one
# of the next player's (one move at most a site: a removal or a placement), each move
# made scoring one for the mover ((forEach Site ...)'s consequents, after each move).
DIAGONAL_SWAP_GAME = _placing("Diagonal Swap", """(forEach Site (sites Around (last To) Diagonal)
                    (if (is Enemy (who at:(site)))
                      (remove (site))
                      (if (is Empty (site)) (add (piece (id "Disc" Next)) (to (site)))))
                    (then (addScore Mover 1)))""", 8)

# A sowing whose last hole, when even and every other time (a note flipped between -1, its
# value unset, and 2 by an earlier part of the capture's (and ...), read before it), goes to the mover's hand; the
# capture's consequents, reading it as the last move, take the next hole too when even.
NEXT_HOLE = '(trackSite Move from:(last From) "Track" steps:1)'
CHAINED_CAPTURE_GAME = _two_rows("Chained Capture", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow apply:(and
                    (set Var "Skip" (- 1 (var "Skip")))
                    (if (and (= 2 (var "Skip")) (is Even (count at:(to))))
                      (fromTo (from (to)) (to (handSite Mover)) count:(count at:(to))
                        (then (if (is Even (count at:NEXT))
                                (fromTo (from NEXT) (to (handSite Mover))
                                        count:(count at:NEXT)))))))))))""".replace(
    "NEXT", NEXT_HOLE), HANDS_SCORE)

# Then, together: a seed from the mover's hand back into the hole sown from, and the
# sowing (its seeds counted, its holes chosen and its captures made on the position
# before that return, as the reference makes every part's moves first): an even last
# hole goes to the hand.
RETURNED_SEED_GAME = _two_rows("Returned Seed", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (and
                    (if (> (count Cell at:(handSite Mover)) 0)
                      (fromTo (from (handSite Mover)) (to (last To)) count:1))
                    (sow apply:(if (is Even (count at:(to)))
                                 (fromTo (from (to)) (to (handSite Mover))
                                         count:(count at:(to)))))))))""", HANDS_SCORE)


CASES = [
    # the removals noted win (the note read before the removal: else none would score)
    (NOTED_REMOVAL_GAME, (1, 4), lambda df: set(df["winner"]) >= {1, 2}),
    # the corners' sums win (each step reads the score before the three steps)
    (SUMMED_VALUES_GAME, (2, 5), lambda df: set(df["winner"]) >= {1, 2}),
    # the groups' first sites score
    (GROUP_FIRST_SITE_GAME, (3, 6), lambda df: set(df["winner"]) >= {1, 2}),
    # the moves made about each placement score
    (DIAGONAL_SWAP_GAME, (7, 8), lambda df: set(df["winner"]) >= {1, 2}),
    # the captures fill the hands that win
    (CHAINED_CAPTURE_GAME, (1, 9), lambda df: set(df["winner"]) >= {1, 2}),
    # the captures fill the hands that win
    (RETURNED_SEED_GAME, (2, 10), lambda df: set(df["winner"]) >= {1, 2}),
]
IDS = ["and_part_with_consequents", "for_each_value_with_consequents",
       "region_site_of_the_group", "for_each_site_placement_with_consequents",
       "sowing_capture_read_as_the_last_move", "sowing_after_a_part_changing_its_holes"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_and_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    _rows_agree(text, seeds, played, tmp_path)


@pytest.mark.parametrize("old,new,why", [
    # a remembered value worked out past the board's sites: the kernels keep sites only
    ("(remove (ahead (last To) N))", "(remember Value (+ 100 (last To)))",
     r"\(remember Value\) with a value worked out from a number past the board's sites"),
    # a move's effect that reads (site) of the loop it was made in: applied with no loop
    ("(move Add (to (sites Empty))",
     "(forEach Site (sites Empty) (move Add (to (site) (apply (set Var \"At\" (site)))))",
     r"reading \(site\) when its move is applied"),
    # a count of a player's pieces in a region, the player read at (site) of a loop around
    # it: the region's own loop binds `site` in the kernels
    ("(set Var \"Before\" (count Pieces Next)",
     "(set Var \"Before\" (count Sites in:(forEach (sites Board) if:(< 1 (count Pieces "
     "of:(who at:(site)) in:(sites Around (site) Orthogonal)))))",
     r"\(count Pieces\) with a player read at \(site\), in: a region"),
])
def test_and_refusals(old, new, why, tmp_path):
    _refused_with(NOTED_REMOVAL_GAME, old, new, why, tmp_path)
