"""Ludii's heuristic state evaluation (`ludeme.ai.evaluator`) and the state-evaluation metrics
(`ludeme.analysis.evaluation`), worked out by hand on a two-cell game: each player in turn
puts a disc on an empty cell, and a full board is a draw.

s0: P1 to move with 2 moves, no pieces: H(1) = 0.001 * 2, H(2) = 0, so E(1) = tanh(0.002),
E(2) = -tanh(0.002). Either move leads to s1: P1 has 1 piece, P2 is to move with 1 move, so
a move from s0 is worth tanh(1 - 0.001) = tanh(0.999) to P1, and at s1 E(1) = tanh(0.999),
E(2) = -tanh(0.999). The one move from s1 ends the game drawn: every value 0.
"""

import math

import pytest

from ludeme.ai.evaluator import evaluate_all, evaluate_move, evaluate_state, heuristic, material

TWO_CELLS = """
(game "Two Cells"
    (players 2)
    (equipment { (board (rectangle 1 2)) (piece "Disc" Each) })
    (rules
        (play (move Add (to (sites Empty))))
        (end (if (is Full) (result Mover Draw)))
    )
)
"""

A, B = math.tanh(0.002), math.tanh(0.999)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    from ludeme.api import load
    path = tmp_path_factory.mktemp("lud") / "two_cells.lud"
    path.write_text(TWO_CELLS)
    return load(path, backend="reference")


def _state(game, moves: int):
    state = game.new_initial_state(0)
    for _ in range(moves):
        state.apply(state.legal_moves()[0])
    return state


@pytest.mark.parametrize("moves, material1, h1, h2, e1, e2", [
    (0, 0, 0.002, 0.0, A, -A),
    (1, 1, 1.0, 0.001, B, -B),
    (2, 1, None, None, 0.0, 0.0),           # over: the draw's utilities
])
def test_state_evaluation(game, moves, material1, h1, h2, e1, e2):
    state = _state(game, moves)
    assert material(state, 1) == material1
    if h1 is not None:
        assert heuristic(state, 1) == pytest.approx(h1, rel=1e-6)
        assert heuristic(state, 2) == pytest.approx(h2, rel=1e-6, abs=1e-12)
    assert evaluate_state(state, 1) == pytest.approx(e1, rel=1e-6, abs=1e-12)
    assert evaluate_state(state, 2) == pytest.approx(e2, rel=1e-6, abs=1e-12)
    assert evaluate_all(state)[0] == -1.0


@pytest.mark.parametrize("moves, value", [(0, B), (1, 0.0)])
def test_move_evaluation(game, moves, value):
    state = _state(game, moves)
    for m in state.legal_moves():
        assert evaluate_move(state, m) == pytest.approx(value, rel=1e-6, abs=1e-12)


EXPECTED = {
    "Narrowness": 0.0,                  # Ludii's integer division
    "Variance": 0.0,                    # every move of a state is worth the same
    "DecisivenessThreshold": -1.0,      # every player is "highest ranked" at s0
    "DecisivenessMoves": 0.0,           # E(1) > -1 at s0: 0 // 2
    "LeadChange": 0.5,                  # leaders {1}, {1}: one change (s0's) in 2 decisions
    "Stability": 2 * ((B - A) / 2) ** 2,
    "DramaAverage": (A + B) / 2,        # mean over both players of max - E(p)
    "DramaMaximum": B,
    "MoveEvaluationAverage": B / 2,     # the moves played: tanh(0.999), then the draw's 0
    "MoveEvaluationChangeAverage": -B,
    "StateEvaluationDifferenceAverage": (2 * A + 2 * B + 0) / 3,   # s0, s1, s2
    "StateEvaluationDifferenceMaximum": 2 * B,
    "StateEvaluationDifferenceMedian": 2 * A,                      # sorted [0, 2A, 2B][1]
}


@pytest.mark.parametrize("metric, value", sorted(EXPECTED.items()))
def test_metrics_of_a_playout(game, metric, value):
    from ludeme.analysis.metrics import summarize
    from ludeme.analysis.playouts import run_playouts
    df = run_playouts(game, 3, seed=5, jobs=1, evaluation=True, progress=False)
    row = summarize(df).iloc[0]
    assert row[metric] == pytest.approx(value, rel=1e-6, abs=1e-9)
    assert row[f"{metric}_ci_low"] <= row[metric] <= row[f"{metric}_ci_high"]


def test_every_evaluation_metric_is_in_the_definitions_table():
    from ludeme.analysis.evaluation import COLUMNS
    from ludeme.analysis.report import defined
    assert all(defined(name) for name, _ in COLUMNS.values())


def test_rows_carry_the_seed_and_agree_on_any_number_of_workers(ludii):
    from ludeme.analysis.evaluation import COLUMNS
    from ludeme.analysis.playouts import load, run_playouts
    game = load(ludii / "games" / "Tic-Tac-Toe.lud")
    one = run_playouts(game, 6, seed=11, jobs=1, evaluation=True, progress=False)
    two = run_playouts(game, 6, seed=11, jobs=2, evaluation=True, progress=False)
    assert set(COLUMNS) <= set(one.columns)
    assert one.drop(columns="seconds").equals(two.drop(columns="seconds"))
    plain = run_playouts(game, 6, seed=11, jobs=1, backend="compiled", progress=False)
    assert list(one["seed"]) == list(plain["seed"])
    # The playouts are the same ones: the evaluation adds columns and changes none.
    assert one[plain.columns].drop(columns="seconds").equals(plain.drop(columns="seconds"))


def test_summary_leaves_them_out_unless_asked(ludii):
    from ludeme.analysis.metrics import summarize
    from ludeme.analysis.playouts import load, run_playouts
    game = load(ludii / "games" / "Tic-Tac-Toe.lud")
    plain = summarize(run_playouts(game, 4, seed=1, jobs=1, progress=False))
    assert "Stability" not in plain.columns and "DramaAverage" not in plain.columns


def test_compare_tests_them_when_both_variants_have_them(game):
    from ludeme.analysis.compare import Variant, compare_metric, metric_names
    from ludeme.analysis.playouts import run_playouts
    with_them = run_playouts(game, 4, seed=1, jobs=1, evaluation=True, progress=False)
    again = run_playouts(game, 4, seed=2, jobs=1, evaluation=True, progress=False)
    without = run_playouts(game, 4, seed=1, jobs=1, progress=False)
    names = metric_names([Variant("a", with_them), Variant("b", again)])
    assert "Stability" in names and "DramaAverage" in names
    assert "Stability" not in metric_names([Variant("a", with_them), Variant("b", without)])
    # Every playout of the two-cell game is the same: equal values, no difference.
    got = compare_metric("LeadChange", with_them, again)
    assert got["estimate"] == 0.0 and got["ci_low"] <= 0.0 <= got["ci_high"]


def test_heuristic_agent_takes_the_win(ludii):
    """Tic-Tac-Toe, P1 on 0 and 1, P2 on 3 and 4, P1 to move: only 2 wins at once (utility 1;
    every other move is worth less than tanh of its material lead)."""
    import random

    from ludeme.ai.evaluator import HeuristicAgent
    from ludeme.analysis.playouts import load
    game = load(ludii / "games" / "Tic-Tac-Toe.lud", backend="reference")
    state = game.new_initial_state(0)
    for site in (0, 3, 1, 4):
        state.apply(next(m for m in state.legal_moves() if m.to == site))
    legal = state.legal_moves()
    assert legal[HeuristicAgent().choose(state, random.Random(0))].to == 2
    assert evaluate_move(state, next(m for m in legal if m.to == 2)) == 1.0
    assert all(evaluate_move(state, m) < 1.0 for m in legal if m.to != 2)
