"""DurationActions: Ludii's actions per trial (`Move.actions().size()` summed over the moves
it stores), counted alike by the reference engine (`State.num_actions`) and the kernels.

Counted by hand on small games, and against the action lists of Ludii's own trial files.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ludeme.analysis.playouts import run_playouts
from ludeme.analysis.trials import decisions, pick, read_trial, recorded_roll
from ludeme.api import load


def two_players(board: str, play: str, end: str) -> str:
    """A two-player game with one piece each on `board`."""
    return f"""
(game "Counted"
  (players 2)
  (equipment {{(board {board}) (piece "Disc" Each)}})
  (rules (play {play}) (end {end})))
"""


# Nine placements fill the board whatever the order: nine Adds, and a SetNextPlayer after
# each of the four in a corner (the last one's too: consequents come before the end).
CORNERS = two_players("(square 3)",
                      "(move Add (to (sites Empty)) "
                      "(then (if (is In (last To) (sites Corners)) (moveAgain))))",
                      "(if (no Moves Next) (result Mover Draw))")

# Each placement also adds to the mover's score: an Add and a SetScore per decision, and
# five placements fill the 1x5 board.
SCORED = two_players("(rectangle 1 5)", "(move Add (to (sites Empty)) (then (addScore Mover 1)))",
                     "(if (no Moves Next) (result Mover Draw))")

# P2's only site is taken from the start: it passes (a forced pass: one Pass action) between
# P1's placements, and once both P1 sites are full P1 passes too before the end rule sees it
# stuck: Add, Pass, Add, Pass, Pass, five decisions and five actions.
PASSES = """
(game "Passes"
  (players 2)
  (equipment {(board (rectangle 1 3)) (piece "Disc" Each)
              (regions P1 (sites {0 1})) (regions P2 (sites {2}))})
  (rules
    (start (place "Disc2" 2))
    (play (move Add (to (sites Empty) if:(is In (to) (sites Mover)))))
    (end (if (no Moves P1) (result P1 Win)))))
"""

# Ludii's (move Select) is one action (ActionSelect) besides its consequents': a Select and
# a SetScore per decision; P1 reaches 3 on the fifth decision (P1, P2, P1, P2, P1).
SELECTS = two_players("(rectangle 1 3)",
                      "(move Select (from (sites Board)) (then (addScore Mover 1)))",
                      "(if (>= (score Mover) 3) (result Mover Win))")


@pytest.mark.parametrize("text,actions,moves", [
    (CORNERS, 13, 9),
    (SCORED, 10, 5),
    (PASSES, 5, 5),
    (SELECTS, 10, 5),
], ids=["corners", "scored", "passes", "selects"])
@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_actions_counted_by_hand(tmp_path, text, actions, moves, backend):
    path = tmp_path / "game.lud"
    path.write_text(text)
    df = run_playouts(load(path), 6, seed=3, jobs=1, progress=False, backend=backend)
    assert df.attrs["backend"] == backend
    assert df["moves"].tolist() == [moves] * 6
    assert df["actions"].tolist() == [actions] * 6


# Reversi's move on a 1x4 line: P1 places at 3 and flanks 2 and 1 against its disc at 0.
# Ludii's custodial evaluates (allCombinations (add ...) (flip ...)) once per flanked disc and
# (append ...) joins the results: an Add (carrying the state: one ActionAdd) and a flip per
# flanked disc, 4 actions; then each player has no move and passes (a forced pass each): 6
# actions in 3 decisions.
FLANKS = """
(game "Flanks"
  (players 2)
  (equipment {(board (rectangle 1 4)) (piece "Disc" Neutral (flips 1 2))})
  (rules
    (start {(place "Disc0" 0 state:1) (place "Disc0" {1 2} state:2)})
    (play (forEach Site (sites Empty)
            (append (custodial (from (site))
                      (between if:(is Enemy (state at:(between)))
                        (apply (allCombinations (add (piece "Disc0" state:(mover)) (to (site)))
                                                (flip (between)))))
                      (to if:(is Friend (state at:(to))))))))
    (end (if (all Passed) (result Mover Draw)))))
"""


def test_a_piece_added_with_its_state_is_one_action(tmp_path):
    """Ludii's ActionAdd sets the state of the piece it adds: one action, not an Add and a
    SetState (the reference only: the kernels refuse (piece ... state:) yet)."""
    path = tmp_path / "game.lud"
    path.write_text(FLANKS)
    df = run_playouts(load(path), 3, seed=3, jobs=1, progress=False, backend="reference")
    assert df["moves"].tolist() == [3] * 3
    assert df["actions"].tolist() == [6] * 3


def test_both_backends_count_the_same_actions_where_they_vary(tmp_path):
    """Captures by replacement: a Remove with the Move when the step lands on an enemy."""
    path = tmp_path / "game.lud"
    path.write_text("""
(game "Takes"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (move Step (to if:(not (is Friend (who at:(to))))
                                      (apply (if (is Enemy (who at:(to))) (remove (to)))))))})
  (rules
    (start {(place "Disc1" {0 1 2 3}) (place "Disc2" {12 13 14 15})})
    (play (forEach Piece))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Turns) 60) (result Mover Draw))})))
""")
    game = load(path)
    rows = {b: run_playouts(game, 30, seed=5, jobs=1, progress=False, backend=b)
            for b in ("reference", "compiled")}
    pd.testing.assert_series_equal(rows["reference"]["actions"], rows["compiled"]["actions"])
    extra = rows["reference"]["actions"] - rows["reference"]["moves"]
    assert extra.gt(0).any()            # some decisions captured: more actions than moves


TRIALS = ["adzua-children-ludii-5-1", "chinese-checkers-3p-1", "english-draughts-1",
          "english-draughts-2", "lines-of-action-1", "seesaw-2", "senet-1", "tic-tac-toe-1"]


@pytest.mark.parametrize("stem", TRIALS)
def test_the_count_is_the_actions_ludii_stored(refdata, ludii, stem):
    """Replaying a Ludii trial, the reference engine's count is the number of actions of the
    moves Ludii stored (its consequents, captures at the end of a sequence, dice rolls)."""
    from ludeme.analysis.crosscheck import Locator
    path = refdata / "trials" / f"{stem}.trl"
    trial = read_trial(path)
    lud, _, why = Locator(str(ludii)).find(str(path), trial)
    assert lud, why
    game = load(lud, options=trial["optionsRequested"])
    state = game.new_initial_state()
    stored = 0
    for rec in decisions(trial):
        if game.uses_chance:
            state.force_roll = recorded_roll([rec])
        state.apply(pick(state.legal_moves(), rec)[0])
        stored += len(rec["actions"])
    assert state.num_actions == stored
