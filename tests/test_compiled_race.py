"""Compiled forms of race ludemes (tracks, dice, chance): each hand-written game has a
compiled form and gives the reference engine's rows on the kernels."""

import pytest

# The check of test_compiled's new forms (a name pytest does not collect again here)
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _same_rows_as_reference

# Tracks that go out and come back along the same row, so each passes most sites twice:
# (trackSite Move ...) walks on from where the piece stands *along* its track (Ludii's
# OnTrackIndices, kept by every move and removal), not from the site's first index.
OUT_AND_HOME_GAME = """
(game "Out And Home"
  (players 2)
  (equipment {(board (rectangle 1 7) {(track "Track1" "0,E,W" P1 directed:True)
                                      (track "Track2" "6,W,E" P2 directed:True)})
    (dice num:1 d:3) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 1})) (place "Disc2" (sites {5 6}))})
    (play (do (roll)
            next:(forEach Piece (move (from)
                                  (to (trackSite Move steps:(count Pips))
                                      if:(not (is Friend (who at:(to))))
                                      (apply (if (is Enemy (who at:(to))) (remove (to)))))))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# Draws in a move's consequents, which both engines make as the move is applied.
COIN_PLACEMENT_GAME = """
(game "Coin Placement"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (if (< 50 (value Random (range 1 100)))
                      (addScore Mover 1)
                      (if (= 1 (value Random (range 1 3))) (moveAgain))))))
    (end (if (is Full) (byScore)))))
"""

# A die's move goes on when another move with a die left can follow: a (forEach Die) in a
# (can Move ...) of the consequents of the moves an outer (forEach Die) makes.
DIE_LEFT_GAME = """
(game "Die Left"
  (players 2)
  (equipment {(board (rectangle 1 12) {(track "Track1" "0,E" directed:True P1)
                                       (track "Track2" "11,W" directed:True P2)})
    (dice num:2 d:4) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 1})) (place "Disc2" (sites {10 11}))})
    (play (do (if (or (!= (mover) (prev)) (all DiceUsed)) (roll))
            next:(forEach Die if:(!= (pips) 0)
                   (forEach Piece (move (from) (to (trackSite Move steps:(pips))
                                                   if:(not (is Friend (who at:(to))))
                                                   (apply (if (is Enemy (who at:(to)))
                                                              (remove (to)))))))
                   (then (if (can Move (forEach Die if:(!= (pips) 0)
                                         (forEach Piece (move (from)
                                                          (to (trackSite Move steps:(pips))
                                                              if:(is Empty (to)))))))
                             (moveAgain))))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# Both players move the first player's runners ((forEach Piece P1)); a step's actions are
# made as on the first player's turn, Mover and Next read so.
BORROWED_RUNNERS_GAME = """
(game "Borrowed Runners"
  (players 2)
  (equipment {(board (square 5))
    (piece "Disc" P1 (move Step (directions {N NE E}) (to if:(is Empty (to))
                        (apply (if (is Even (to)) (addScore Mover 1) (addScore Next 1))))))
    (piece "Disc" P2)})
  (rules
    (start {(place "Disc1" (sites {0 1 5})) (place "Disc2" 24)})
    (play (forEach Piece P1))
    (end (if (no Moves Next) (byScore)))))
"""

# Two teams of two: pieces counted by team roles (TeamMover, Team2, Enemy with teams).
TEAM_TAKERS_GAME = """
(game "Team Takers"
  (players 4)
  (equipment {(board (square 4))
    (piece "Disc" Each (move Step Orthogonal
                         (to if:(or (is Empty (to)) (is Enemy (who at:(to))))
                             (apply (if (is Enemy (who at:(to))) (remove (to)))))))})
  (rules
    (start {(set Team 1 {P1 P3}) (set Team 2 {P2 P4})
            (place "Disc1" (sites {0 5})) (place "Disc2" (sites {3 6}))
            (place "Disc3" (sites {12 9})) (place "Disc4" (sites {15 10}))})
    (play (forEach Piece))
    (end {(if (= (count Pieces Enemy) 0) (result TeamMover Win))
          (if (< (count Pieces TeamMover) (count Pieces Team2)) (result Mover Loss))
          (if (>= (count Moves) 50) (result Mover Draw))})))
"""

# Sites picked by their index in a region listed per mover, or once ((regionSite ...)).
HOME_ROWS_GAME = """
(game "Home Rows"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)
    (regions "Home" P1 (sites Bottom)) (regions "Home" P2 (sites Top))})
  (rules
    (play (or (move Add (to (regionSite (sites Mover "Home") index:(count Pieces Mover))
                            if:(is Empty (to))))
              (move Add (to (sites Empty) if:(!= (to) (regionSite (sites Board) index:5))))))
    (end {(if (= (count Pieces Mover in:(sites Mover "Home")) 4) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""

# Runners that swap places with an enemy ahead ((move Swap Pieces ...)); a throw of 3
# swaps the players' seats ((swap Players ...) as a consequent, the mover going on).
SWAP_RUNNERS_GAME = """
(game "Swap Runners"
  (players 2)
  (equipment {(board (rectangle 1 10) {(track "Track" "0,E" directed:True)})
    (dice num:1 d:3) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 2})) (place "Disc2" (sites {1 3}))})
    (play (do (roll)
            next:(forEach Piece
                   (if (!= -1 (trackSite Move steps:(count Pips)))
                       (or (move (from) (to (trackSite Move steps:(count Pips)) if:(is Empty (to))))
                           (if (is Enemy (who at:(trackSite Move steps:(count Pips))))
                               (move Swap Pieces (from) (trackSite Move steps:(count Pips)))))))
            (then (if (= (count Pips) 3) (swap Players P1 P2)))))
    (end {(if (= (last To) 9) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# Heaps of seeds made smaller by a count set after each pick ((set Count ...) as a
# consequent; none left empties the site).
DWINDLING_HEAPS_GAME = """
(game "Dwindling Heaps"
  (players 2)
  (equipment {(board (square 3)) (piece "Seed" Shared)})
  (rules
    (start (set Count 3 to:(sites Board)))
    (play (move Select (from (sites Board) if:(is Occupied (from)))
            (then (set Count at:(last To)
                    (- (count at:(last To)) (if (is Mover P1) 1 2))))))
    (end (if (= (count Sites in:(sites Empty)) 9) (result Mover Win)))))
"""

# Each disc has a number (its state): the die picks the one that steps ((where ...
# state:)); a corner more is a win ((count Value ...)), the move limit grows with the
# mover's discs ((size Array ...)).
NUMBERED_DISCS_GAME = """
(game "Numbered Discs"
  (players 2)
  (equipment {(board (square 5)) (dice num:1 d:3) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" 0 state:1) (place "Disc1" 1 state:2) (place "Disc1" 2 state:3)
            (place "Disc2" 24 state:1) (place "Disc2" 23 state:2) (place "Disc2" 22 state:3)})
    (play (do (roll)
            next:(or (move Step (from (where "Disc" Mover state:(count Pips))) Orthogonal
                               (to if:(is Empty (to))))
                     (move Pass))))
    (end {(if (= (count Value (mover) in:(array {(who at:0) (who at:4) (who at:20) (who at:24)})) 2)
              (result Mover Win))
          (if (>= (count Moves) (+ 40 (size Array (array (sites Occupied by:Mover)))))
              (result Mover Draw))})))
"""

# Discs riding on one another: each is found at any level of a stack ((where ...) in a
# stacking game).
RIDERS_GAME = """
(game "Riders"
  (players 2)
  (equipment {(board (rectangle 1 6)) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" 0) (place "Disc2" 1)})
    (play (move Step (from (where "Disc" Mover)) (directions {E W}) (to) stack:True))
    (end {(if (= (where "Disc" Mover) 5) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""

# Each throw scores its pips ((roll (then ...))); the moves after it read the new score.
SCORED_THROWS_GAME = """
(game "Scored Throws" (players 2)
  (equipment {(dice num:2 d:3) (piece "Disc" Each)
    (board (rectangle 1 10) {(track "Track1" "0,E" directed:True P1) (track "Track2" "9,W" directed:True P2)})})
  (rules (start {(place "Disc1" 0) (place "Disc2" 9)})
    (play (do (roll (then (addScore Mover (count Pips))))
            next:(if (>= (score Mover) 12)
                   (forEach Piece (if (!= -1 (trackSite Move steps:1))
                                      (move (from) (to (trackSite Move steps:1) if:(is Empty (to))))))
                   (move Pass))))
    (end {(if (>= (score Mover) 40) (result Mover Win))
          (if (= (last To) 5) (result Mover Loss))})))
"""

# The same race on tracks one way.
ONE_WAY_GAME = OUT_AND_HOME_GAME.replace('"0,E,W"', '"0,E"').replace('"6,W,E"', '"6,W"')

GAMES = [
    # Both sides win by taking the other's discs; some games last until every disc is
    # home again, stuck at its track's end (a draw at the move limit).
    pytest.param(OUT_AND_HOME_GAME, (3, 4),
                 lambda df: {0, 1, 2} <= set(df["winner"]) and df["moves"].eq(40).any(),
                 id="track-site-move-on-a-track-passing-sites-twice"),
    # Both sides win on points drawn; some turns go on ((moveAgain) on a draw).
    pytest.param(COIN_PLACEMENT_GAME, (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]) and df["turns"].lt(df["moves"]).any()
                 and df["chance"].str.len().gt(0).all(),
                 id="value-random-in-a-consequent"),
    # Both sides win; some turns use both dice.
    pytest.param(DIE_LEFT_GAME, (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]) and df["turns"].lt(df["moves"]).any(),
                 id="for-each-die-tested-in-the-consequents-of-another"),
    # Both sides win on points, some games draw.
    pytest.param(BORROWED_RUNNERS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="for-each-piece-of-another-player-played"),
    # Both teams win before the move limit in some games.
    pytest.param(TEAM_TAKERS_GAME, (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(50).any(),
                 id="pieces-counted-by-team-roles"),
    # The same, a player's team tested by (is In (mover) (players TeamN)).
    pytest.param(TEAM_TAKERS_GAME.replace(
        "(if (< (count Pieces TeamMover) (count Pieces Team2))",
        "(if (and (is In (mover) (players Team2))\n"
        "                   (< (count Pieces TeamMover) (count Pieces Team1)))"), (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(50).any(),
                 id="mover-in-the-players-of-a-team"),
    # Both sides fill their home row first in some games; site 5 is never played.
    pytest.param(HOME_ROWS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]),
                 id="region-site-by-index"),
    # The same, never on the lowest empty site: a region read in play ((regionSite (sites
    # Empty) ...)). The second player wins some games (the first's home row is the lowest).
    pytest.param(HOME_ROWS_GAME.replace("(regionSite (sites Board) index:5)",
                                        "(regionSite (sites Empty) index:0)"), (3, 4),
                 lambda df: {0, 2} <= set(df["winner"]), id="region-site-read-in-play"),
    # Both sides win; some turns go on after a swap of seats.
    pytest.param(SWAP_RUNNERS_GAME, (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]) and df["turns"].lt(df["moves"]).any(),
                 id="swap-pieces-and-swap-players-as-a-consequent"),
    # Both sides take the last seed in some games; heaps lose one or two seeds a pick.
    pytest.param(DWINDLING_HEAPS_GAME, (3, 4),
                 lambda df: {1, 2} <= set(df["winner"])
                 and df["piece_number_max_decrease"].eq(-2).all(),
                 id="set-count-as-a-consequent"),
    # The one-way race won on the mover's track's last site ((trackSite EndSite Mover));
    # the first track's last site without a player. Both sides win.
    pytest.param(ONE_WAY_GAME.replace(
        "(end {(if (no Pieces Next) (result Mover Win))",
        "(end {(if (= (last To) (trackSite EndSite Mover)) (result Mover Win))\n"
        "          (if (= (last To) (trackSite EndSite)) (result Mover Draw))"), (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]), id="track-end-site-per-player"),
    # No friend may be passed: the track's sites from the origin to the destination, read
    # in play ((sites Track ... from: to:) in an (intersection ...) counted).
    pytest.param(ONE_WAY_GAME.replace(
        "if:(not (is Friend (who at:(to))))",
        "if:(= 1 (count Sites in:(intersection (sites Occupied by:Mover)\n"
        "                                         (sites Track Mover from:(from) to:(to)))))"),
                 (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="track-sites-from-and-to-tested"),
    # Both sides win, some games draw.
    pytest.param(NUMBERED_DISCS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="where-with-state-count-value-and-size-array"),
    # The same, passing on some throws only ((is In ... (array {...}))).
    pytest.param(NUMBERED_DISCS_GAME.replace(
        "(move Pass)", "(if (is In (count Pips) (array {1 (mover)})) (move Pass))"), (3, 4),
                 lambda df: {0, 1, 2} <= set(df["winner"]), id="value-in-an-array"),
    # Both sides win on points.
    pytest.param(SCORED_THROWS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]),
                 id="roll-with-its-then"),
    # The first player wins some games, some draw.
    pytest.param(RIDERS_GAME, (3, 4), lambda df: {0, 1} <= set(df["winner"]),
                 id="where-in-a-stacking-game"),
    # The same, the second player winning at the first site: a piece named with TeamN, as
    # Ludii's Id reads it (player N).
    pytest.param(RIDERS_GAME.replace(
        '(end {(if (= (where "Disc" Mover) 5) (result Mover Win))',
        '(end {(if (= (where "Disc" Team2) 0) (result P2 Win))\n'
        '          (if (= (where "Disc" Mover) 5) (result Mover Win))'), (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]), id="where-a-piece-of-team-n"),
]


@pytest.mark.parametrize("text,seeds,played", GAMES)
def test_race_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _same_rows_as_reference(text, seeds, played, tmp_path)


@pytest.mark.parametrize("rel", ["board/race/reach/Pasit.lud",
                                 "board/race/escape/Tugi-Epfe.lud"])
def test_level_writes_on_tracks_passing_a_site_twice_are_recorded(rel):
    """OnTrackIndices records the writes of one piece or a count, and those of a stack's
    levels: a piece moved from a level (these games' (from ... level:)) is recorded before
    it moves, as the reference's `State._track_piece`, so its index on the track stays
    right (without the record the kernels listed moves Ludii does not)."""
    import re
    from conftest import ludii_dir
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled.codegen import generate
    root = ludii_dir()
    if root is None or not (root / "corpus" / rel).is_file():
        pytest.skip("Ludii's corpus not found: put shared/ beside the checkout")
    lines = generate(load(root / "corpus" / rel)).split("\n")
    moves = [i for i, line in enumerate(lines)
             if re.match(r"\s*stack_move_level(_st)?\(", line)]
    assert moves and all("trk_moved(" in lines[i - 1] for i in moves)
