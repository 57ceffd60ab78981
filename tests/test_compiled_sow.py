"""Compiled forms of sowing, (forEach Value ...), values and int arrays: hand-written games
give the same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import _same_rows
from ludeme.analysis.playouts import load, run_playouts


def _two_rows(name: str, seeds: int, play: str, last: str, hands: bool = True) -> str:
    """A game on two rows of five holes along one loop (the bottom row the first player's),
    `seeds` in each hole, with a hand each (`hands`); a player with an empty row loses, and
    `last` is the end rule after that."""
    return ('(game "' + name + '"\n  (players 2)\n'
            '  (equipment {(mancalaBoard 2 5 store:None (track "Track" "0,E,N,W" loop:True))\n'
            '    (regions P1 (sites Bottom)) (regions P2 (sites Top))\n'
            '    (piece "Seed" Shared)' + (' (hand Each)' if hands else '') + '})\n'
            '  (rules\n'
            f'    (start (set Count {seeds} to:(sites Track)))\n'
            + play +
            '\n    (end {(if (all Sites (sites P1) if:(= 0 (count at:(site)))) (result P2 Win))\n'
            '          (if (all Sites (sites P2) if:(= 0 (count at:(site)))) (result P1 Win))\n'
            '          ' + last + '})))\n')


# The end rules of a game of `_two_rows` at a move limit: the most seeds in hand win, or in
# the own row.
HANDS_SCORE = ("(if (>= (count Moves) 60)\n"
               "            (byScore {(score P1 (count Cell at:(handSite P1))) "
               "(score P2 (count Cell at:(handSite P2)))}))")
ROWS_SCORE = ("(if (>= (count Moves) 60)\n"
              "            (byScore {(score P1 (count in:(sites P1))) "
              "(score P2 (count in:(sites P2)))}))")

# A disc goes where fewer than two of the mover's discs are orthogonally next to it (the
# sum of (results ...)); a group of four wins ((max (sizes Group ...))), sixteen discs
# placed lose ((size Array (values Remembered))).
TALLIES_GAME = """
(game "Tallies"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
            if:(< (+ (results from:(to) to:(sites Around (to) Orthogonal)
                          (if (is Mover (who at:(to))) 1 0)))
                  2))
           (then (remember Value (last To)))))
    (end {(if (>= (max (sizes Group Orthogonal Mover)) 4) (result Mover Win))
          (if (>= (size Array (values Remembered)) 16) (result Mover Loss))
          (if (no Moves Next) (result Mover Loss))})))
"""

# A disc goes on the first empty site past as many as the mover holds on the first row
# ((arrayValue ...), (intersection ...)), or where the mover's neighbours are fewer than
# the least of an array made by (union ...) and (difference ...) ((count Value ...)).
FIRSTS_GAME = """
(game "Firsts"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
            if:(or (= (to) (arrayValue (array (sites Empty))
                              index:(size Array (intersection (array (sites Occupied by:Mover))
                                                              (array (sites Row 0))))))
                   (< (count Value (mover) in:(results from:(to) to:(sites Around (to))
                                                        (who at:(to))))
                      (min (difference (union (array {3 2 2})
                                              (array {(count Sites in:(sites Occupied by:Next))}))
                                       (array {2}))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# A sowing whose capture, where the last seed lands on a loaded hole of the mover's with an
# occupied hole opposite, takes the opposite seeds into it and sows them all again from
# there ((sow ...) inside another's captures), skipping the opponent's empty holes (read
# on the position before the capture's first part emptied the opposite hole).
RESOW_GAME = _two_rows("Resow", 2, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow apply:(if (and {(is In (to) (sites Mover)) (> (count at:(to)) 1)
                                       (is Occupied (if (is In (to) (sites Bottom)) (+ (to) 5) (- (to) 5)))})
                               (and (fromTo (from (if (is In (to) (sites Bottom)) (+ (to) 5) (- (to) 5)))
                                            (to (to))
                                            count:(count at:(if (is In (to) (sites Bottom)) (+ (to) 5) (- (to) 5))))
                                    (sow (to)
                                         count:(+ (count at:(to))
                                                  (count at:(if (is In (to) (sites Bottom)) (+ (to) 5) (- (to) 5))))
                                         skipIf:(and (is In (to) (sites Next)) (is Empty (to))))))))))""",
    ROWS_SCORE, hands=False)

# The same game whose capture takes the opposite seeds and moves them onto the hole itself.
TAKE_ONLY_GAME = RESOW_GAME.replace("(sow (to)\n", "(fromTo (from (to)) (to (to))\n").replace(
    "skipIf:(and (is In (to) (sites Next)) (is Empty (to)))", "")

# From a hole of the mover's, one to three seeds (as many as it holds at most, a bound read
# in play) go to an occupied hole of the opponent's (count:(value)), or are sown from it
# (the value set as a variable before the sowing reads it: (value) read when the move is
# applied).
HANDFULS_GAME = _two_rows("Handfuls", 3, """\
    (play (forEach Site (sites Mover)
            (forEach Value min:1 max:(min 3 (count at:(site)))
              (or (move (from (site)) (to (sites Next) if:(is Occupied (to))) count:(value))
                  (do (set Var (value)) next:(move Select (from (site)) (then (sow count:(var)))))))))""",
    '(if (>= (count Moves) 80) (result Mover Draw))', hands=False)

# A pass opens a phase of corner placements, a placement ends it ((was Pass) read by the
# phases); a pass from the tenth move on loses ((was Pass) read by an end rule).
PASSERS_GAME = """
(game "Passers"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    phases:{
      (phase "Open" (play (or (move Add (to (sites Empty))) (move Pass)))
        (nextPhase Mover (was Pass) "Corners"))
      (phase "Corners" (play (or (move Add (to (sites Empty) if:(is In (to) (sites Corners))))
                                 (move Pass)))
        (nextPhase Mover (not (was Pass)) "Open"))}
    (end {(if (is Line 3) (result Mover Win))
          (if (and (was Pass) (>= (count Moves) 10)) (result Mover Loss))})))
"""

# Two seeds in the last hole sown go to the mover's hand ((fromTo ... (to Cell ...)) on a
# board of vertices), from which a seed may go back to an empty hole of the mover's
# ((move (from Cell ...) ...)).
SOWERS_GAME = _two_rows("Sowers", 2, """\
    (play (or (move Select (from (sites Mover) if:(> (count at:(from)) 1))
                (then (sow apply:(if (= 2 (count at:(to)))
                                   (fromTo (from (to)) (to Cell (handSite Mover)) count:2)))))
              (move (from Cell (handSite Mover)) (to (sites Mover) if:(is Empty (to))) count:1)))""",
    HANDS_SCORE)

# A disc never goes next to two of the mover's: the sites of the board where the mover has
# more than one neighbour ((forEach <region> if:...) as a region tested, its condition
# counting a region around (site) in a kernel handed the site).
CROWDED_GAME = """
(game "Crowded"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
            if:(not (is In (to) (forEach (sites Board)
                                  if:(< 1 (count Sites in:(forEach (sites Around (site))
                                                           if:(is Mover (who at:(site))))))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# As each hole of the opponent's is sown, one that held three seeds before the sowing gives
# them to the mover's hand (sowEffect:, read on the position before the sowing), one or
# two seeds dropped in each hole by its count (numPerHole:).
GLEANERS_GAME = _two_rows("Gleaners", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow numPerHole:(if (is Even (count at:(to))) 1 2)
                       sowEffect:(if (and (is In (to) (sites Next)) (= 3 (count at:(to))))
                                   (fromTo (from (to)) (to (handSite Mover)) count:(count at:(to))))))))""",
    HANDS_SCORE)

# A sowing ending on four seeds in the opponent's row takes them, and then every hole of
# that row holding four ((fromTo ... (then ...)) as the one capture of a sowing: its
# consequents read the position it left), or ends on a loaded hole and sows again.
FOURS_GAME = _two_rows("Fours", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow apply:(if (and (is In (to) (sites Next)) (= 4 (count at:(to))))
                               (fromTo (from (to)) (to (handSite Mover)) count:(count at:(to))
                                 (then (forEach Site (sites Next)
                                         (if (= 4 (count at:(site)))
                                           (fromTo (from (site)) (to (handSite Mover))
                                                   count:(count at:(site)))))))
                               (if (< 3 (count at:(to))) (moveAgain)))))))""",
    HANDS_SCORE)

# The hole chosen takes the seeds of the hole opposite, then sows as many seeds as it held
# before ((sow ...) after another part of an (and ...): it reads the position before any).
FEEDERS_GAME = _two_rows("Feeders", 2, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (and (fromTo (from (if (is In (last To) (sites Bottom)) (+ (last To) 5) (- (last To) 5)))
                               (to (last To))
                               count:(count at:(if (is In (last To) (sites Bottom))
                                                  (+ (last To) 5) (- (last To) 5))))
                       (sow)))))""",
    ROWS_SCORE, hands=False)

# A sowing passes over the opponent's holes holding three seeds but with its last seed
# ((value) in skipIf:, the seeds left to sow), and takes four seeds where it ends.
LAST_SEED_GAME = _two_rows("Last Seed", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow apply:(if (= 4 (count at:(to)))
                               (fromTo (from (to)) (to (handSite Mover)) count:4))
                       skipIf:(and {(is In (to) (sites Next)) (= 3 (count at:(to)))
                                    (!= 1 (value))})))))""",
    HANDS_SCORE)

# After a sowing, each hole of the opponent's holding two or four seeds gives them to the
# mover's hand, and after each such gift, while the hand holds more than six, the mover
# moves again ((forEach Site ...) as a consequent with its (then ...), which reads the
# position each gift left).
GIFTS_AGAIN_GAME = _two_rows("Gifts Again", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow (then (forEach Site (sites Next)
                               (if (is Even (count at:(site)))
                                 (fromTo (from (site)) (to (handSite Mover))
                                         count:(count at:(site))))
                               (then (if (< 6 (count Cell at:(handSite Mover)))
                                       (moveAgain)))))))))""",
    HANDS_SCORE)

# No disc goes on a corner ((is In <region>): (to) in it); a disc placed on the bottom row
# next to the previous site there wins ((is In {<site> <site>} <region>)).
EDGES_GAME = """
(game "Edges"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty) if:(not (is In (sites Corners))))))
    (end {(if (and (is In {(last To) (- (last To) 1)} (sites Bottom)) (is Mover (who at:(- (last To) 1))))
            (result Mover Win))
          (if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win; some games end with the board blocked before any group of four.
    (TALLIES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games run past the first few placements.
    (FIRSTS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 6),
    # Both sides win on points (the second sowing acts: `test_the_sowing_in_a_capture_acts`).
    (RESOW_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, some games by emptying the opponent's row before 80 moves.
    (HANDFULS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, some games at the tenth move or later.
    (PASSERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].ge(10).any()),
    # Both sides win, some games by emptying the opponent's row.
    (SOWERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).any()),
    # Both sides win.
    (CROWDED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, some games by emptying the opponent's row, others on points.
    (GLEANERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).any()
     and df["moves"].eq(60).any()),
    # Both sides win, some games by emptying the opponent's row.
    (FOURS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).any()),
    # Both sides win.
    (FEEDERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (LAST_SEED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win; some turns hold several decisions.
    (GIFTS_AGAIN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and (df["moves"] > df["turns"]).any()),
    # Both sides win, no game fills the board (its corners stay empty).
    (EDGES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() <= 12)],
    ids=["int-arrays-of-results-and-groups", "int-arrays-combined", "sow-in-a-capture",
         "for-each-value-over-computed-bounds", "was-pass", "from-and-to-a-hand-by-cell",
         "region-filter-tested-around-its-site", "sow-effect",
         "sow-capturing-once-with-consequents", "sow-after-another-part-of-an-and",
         "sow-skipping-by-the-seeds-left", "for-each-site-as-a-consequent-with-its-then",
         "is-in-of-to-and-of-several-sites"])
def test_sow_area_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    path = tmp_path / "game.lud"
    path.write_text(text)
    game = load(path)
    from ludeme.engine.compiled.codegen import generate
    generate(game)                  # it has a compiled form
    rows = [_same_rows(game, 40 if i == 0 else 15, seed) for i, seed in enumerate(seeds)]
    assert played(rows[0])


def test_the_sowing_in_a_capture_acts(tmp_path):
    """Without the second sowing (the seeds taken stay in the hole), other games are played."""
    rows = []
    for i, text in enumerate((RESOW_GAME, TAKE_ONLY_GAME)):
        path = tmp_path / f"game{i}.lud"
        path.write_text(text)
        rows.append(run_playouts(load(path), 10, 3, jobs=1, progress=False,
                                 backend="reference"))
    assert list(rows[0]["actions"]) != list(rows[1]["actions"])


# Site 0 is off the track "1,E,N,W" of a board without stores (Ludii's track runs from site
# 1 to the row's end, up, and back along the top row).
OFF_TRACK_SELECT = _two_rows("Off Track Select", 3, (
    "    (play (move Select (from (sites Mover) if:(< 0 (count at:(from)))) (then (sow))))"),
    HANDS_SCORE).replace('"0,E,N,W"', '"1,E,N,W"').replace(
    "to:(sites Track)", "to:(sites Board)")
OFF_TRACK_DECISION = _two_rows("Off Track Decision", 3, (
    "    (play (forEach Site (sites Mover) (if (< 0 (count at:(site))) (sow (site)))))"),
    HANDS_SCORE).replace('"0,E,N,W"', '"1,E,N,W"').replace(
    "to:(sites Track)", "to:(sites Board)")


def test_a_sowing_from_a_site_off_the_track_sows_nothing(tmp_path):
    """Ludii's sowing from a site its track leaves off makes no move: as the move itself,
    the site is not offered; as a selection's consequent, the selection keeps its seeds and
    both backends play on, alike."""
    path = tmp_path / "decision.lud"
    path.write_text(OFF_TRACK_DECISION)
    state = load(path).new_initial_state()
    assert len(state.legal_actions()) == 4           # sites 1-4 of the first player's five
    path = tmp_path / "select.lud"
    path.write_text(OFF_TRACK_SELECT)
    rows = _same_rows(load(path), 20, 3)
    assert rows["moves"].gt(2).all()
