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

# Nine placements fill the board whatever the order: nine Adds, and a SetNextPlayer after
# each of the four in a corner (the last one's too: consequents come before the end).
CORNERS = """
(game "Corners"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
                    (then (if (is In (last To) (sites Corners)) (moveAgain)))))
    (end (if (no Moves Next) (result Mover Draw)))))
"""

# Each placement also adds to the mover's score: an Add and a SetScore per decision, and
# five placements fill the 1x5 board.
SCORED = """
(game "Scored"
  (players 2)
  (equipment {(board (rectangle 1 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)) (then (addScore Mover 1))))
    (end (if (no Moves Next) (result Mover Draw)))))
"""

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


@pytest.mark.parametrize("text,actions,moves", [
    (CORNERS, 13, 9),
    (SCORED, 10, 5),
    (PASSES, 5, 5),
], ids=["corners", "scored", "passes"])
@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_actions_counted_by_hand(tmp_path, text, actions, moves, backend):
    path = tmp_path / "game.lud"
    path.write_text(text)
    df = run_playouts(load(path), 6, seed=3, jobs=1, progress=False, backend=backend)
    assert df.attrs["backend"] == backend
    assert df["moves"].tolist() == [moves] * 6
    assert df["actions"].tolist() == [actions] * 6


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
