"""Compiled forms of the glob branch's ludemes ((set NextPlayer) as a move, (move Swap
Players ...), (is Blocked ...), (size Territory ...)): each hand-written game has a
compiled form, and both backends give the same rows."""

import pytest

import test_compiled

# (set NextPlayer ...) as a move inside (can Move (do ... ifAfterwards:...)): the mover
# loses when no move of the next player (on the turn given to them) would leave the
# centre empty.
NEXT_PLAYER_GAME = """(game "Centre Guard" (players 3)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))))
    (end {(if (is Line 3) (result Mover Win))
          (if (not (can Move (do (and (move Add (to (sites Empty))) (set NextPlayer (player 3)))
                                 ifAfterwards:(is Empty 5))))
              (result Mover Loss))})))
"""

# (move Swap Players ...) as a decision, taken on the second move only (a pie rule).
SWAP_GAME = """(game "Seat Trade" (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (or (move Add (to (sites Empty)))
              (if (= (count Moves) 1) (move Swap Players P1 P2))))
    (end (if (is Line 3) (result Mover Win)))))
"""

# (is Blocked ...) of a role's regions and of regions given with a number: a player loses
# when no path of their discs and empty sites joins their two sides any more.
BLOCKED_GAME = """(game "Side Walls" (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)
              (regions P1 {(sites Side N) (sites Side S)})
              (regions P2 {(sites Side W) (sites Side E)})})
  (rules
    (play (move Add (to (sites Empty))))
    (end {(if (is Connected Mover) (result Mover Win))
          (if (is Blocked Next) (result Next Loss))
          (if (is Blocked 3 Orthogonal {(sites Side N) (sites Side S) (sites {5 6})})
              (result Mover Draw))})))
"""

# (size Territory ...): the score of each player at the end is the empty sites walled in
# by their discs.
TERRITORY_GAME = """(game "Walled Fields" (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))))
    (end (if (>= (count Moves) 20)
             (byScore {(score P1 (size Territory P1)) (score P2 (size Territory P2 Adjacent))})))))
"""

# (is Loop ...): a ring of the mover's discs around sites off the edge wins; with
# surround:, the ring must close around the next player's discs.
LOOP_GAME = """(game "Ring Maker" (players 2)
  (equipment {(board (hex 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))))
    (end (if (is Loop) (result Mover Win)))))
"""
LOOP_SURROUND_GAME = """(game "Ring Trap" (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))))
    (end (if (is Loop surround:Next Orthogonal) (result Mover Win)))))
"""

# (byScore ... misere:True): the lowest score ranks first, so P2, a disc behind, wins.
MISERE_GAME = """(game "Fewest Wins" (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))))
    (end (if (>= (count Moves) 5)
             (byScore {(score P1 (count Pieces P1)) (score P2 (count Pieces P2))} misere:True)))))
"""

# (move Step ... (to <sites> if:...)): as Ludii's Step, the sites written are never read
# (the destinations are the steps in the directions), only the condition.
STEP_TO_SITES_GAME = """(game "Centre Dash" (players 2)
  (equipment {(board (square 3))
              (piece "Disc" Each (move Step Orthogonal (to (sites {4}) if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" 0) (place "Disc2" 8)})
    (play (forEach Piece))
    (end (if (is In (last To) (sites {4})) (result Mover Win)))))
"""

# (enclose ... numException:1): a group with one empty site of its own is enclosed too,
# that site scoring with the others.
ENCLOSE_SPARE_GAME = """(game "Spare Room" (players 2)
  (equipment {(board (square 5)) (piece "Stone" Each)})
  (rules
    (play (move Add (to (sites Empty))
      (then (enclose (from (last To)) Orthogonal
              (between if:(is Enemy (who at:(between)))
                       (apply (and (addScore Mover 1) (remove (between)))))
              numException:1))))
    (end {(if (>= (score Mover) 4) (result Mover Win))
          (if (>= (count Moves) 50) (result Mover Draw))})))
"""

# (enclose ...) whose targets are read by (is Empty ...): enemies and empty corners with no
# target around them, the sites around forming one chain, score for the mover.
ENCLOSE_EMPTY_GAME = """(game "Walled Yard" (players 2)
  (equipment {(board (square 5)) (piece "Stone" Each)})
  (rules
    (play (move Add (to (sites Empty))
      (then (enclose (from (last To)) Orthogonal
              (between if:(or (and (is Empty (between)) (is In (between) (sites Corners)))
                               (is Enemy (who at:(between))))
                       (apply (and (addScore Mover 1) (remove (between)))))))))
    (end {(if (>= (score Mover) 3) (result Mover Win))
          (if (>= (count Moves) 50) (result Mover Draw))})))
"""

CASES = [
    (NEXT_PLAYER_GAME, (3, 4), lambda df: {1, 2, 3} <= set(df["winner"])),
    (SWAP_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (BLOCKED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (TERRITORY_GAME, (3, 4), lambda df: df["winner"].gt(0).any()),
    (LOOP_GAME, (3, 4), lambda df: df["winner"].gt(0).any()),
    (LOOP_SURROUND_GAME, (3, 4), lambda df: df["winner"].gt(0).any()),
    (MISERE_GAME, (3, 4), lambda df: df["winner"].eq(2).all()),
    (STEP_TO_SITES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].gt(2).any()),
    (ENCLOSE_SPARE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (ENCLOSE_EMPTY_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
]
IDS = ["set-next-player-as-a-move", "move-swap-players", "is-blocked", "size-territory",
       "is-loop", "is-loop-surround", "by-score-misere",
       "step-to-sites-unread",
       "enclose-num-exception", "enclose-empty-targets"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_glob_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)
