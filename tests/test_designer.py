"""Ludii's designer metrics (`ludeme.analysis.designer`, `ludeme designer`): IdealDuration and
SkillTrace, worked out by hand."""

import json
import math

import pytest

from ludeme.analysis.designer import ideal_duration, ideal_duration_scores, skill_trace_value


@pytest.mark.parametrize("turns, bounds, scores", [
    # below min: T / min; above max: 1 - min(1, (T - max) / max); else 1
    ([2, 5, 8, 10, 16, 20, 40], (4, 10), [0.5, 1, 1, 1, 0.4, 0, 0]),
    ([0, 3, 1000], (0, 1000), [1, 1, 1]),            # Ludii's defaults: min 0 divides nothing
    ([1500], (0, 1000), [0.5]),
])
def test_ideal_duration_scores(turns, bounds, scores):
    assert ideal_duration_scores(turns, *bounds).tolist() == pytest.approx(scores)


def test_ideal_duration_interval():
    value, low, high = ideal_duration([2, 5, 16, 20], 4, 10)
    assert value == pytest.approx((0.5 + 1 + 0.4 + 0) / 4)
    assert 0.0 <= low < value < high <= 1.0


@pytest.mark.parametrize("bounds", [(5, 2), (-1, 3), (0, 0)])
def test_ideal_duration_refuses_bad_bounds(bounds):
    with pytest.raises(ValueError):
        ideal_duration_scores([3], *bounds)


@pytest.mark.parametrize("results, matches, expected", [
    ([], 8, 0.0),
    ([1.0, 1.0, 1.0], 8, 1.0),
    # line through (0, -0.5), (1, 0.25), (2, 0): slope 0.25, intercept -1/3, at x = 4: 2/3;
    # area 0.25: 2/3 + 1/3 * 0.25 / 3 = 25/36
    ([-0.5, 0.25, 0.0], 3, 25 / 36),
    ([0.2], 8, 0.2 + 0.8 * 0.2),              # one match: a flat line
    ([-1.0, -1.0], 8, 0.0),                   # the prediction kept at 0, no area
    # slope -0.5 from 1.0: at x = 3 (2 matches asked) -0.5, kept at 0; area 1.5 / 2
    ([1.0, 0.5], 2, 0.75),
])
def test_skill_trace_value(results, matches, expected):
    assert skill_trace_value(results, matches) == pytest.approx(expected)


def test_designer_command(tmp_path, ludii):
    """Tic-Tac-Toe: the curve has one result per match, each the mean of its games, and the
    same seed gives the same curve."""
    from ludeme.cli.main import main
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in out:
        assert main(["designer", str(ludii / "games" / "Tic-Tac-Toe.lud"), "--ideal-turns",
                     "5", "8", "-n", "30", "-j", "1", "--skill-trace", "--matches", "2",
                     "--trials", "3", "--seed", "4", "--out", str(path)]) == 0
    a, b = (json.loads(p.read_text()) for p in out)
    assert a["SkillTrace"]["curve"] == b["SkillTrace"]["curve"]
    curve = a["SkillTrace"]["curve"]
    assert [(c["weak"], c["strong"]) for c in curve] == [(2, 4), (4, 8)]
    for c in curve:
        assert len(c["utilities"]) == 3
        assert c["result"] == pytest.approx(sum(c["utilities"]) / 3)
    assert a["SkillTrace"]["value"] == pytest.approx(
        skill_trace_value([c["result"] for c in curve], 2))
    assert 0.0 <= a["IdealDuration"]["value"] <= 1.0 and a["IdealDuration"]["n"] == 30


def test_a_skill_trace_without_a_finished_match_says_so(tmp_path, ludii, capsys):
    """A time limit no match ends within gives no curve, and the printout says so rather
    than show Ludii's value of no match as if it were a result."""
    from ludeme.cli.main import main
    path = tmp_path / "a.json"
    assert main(["designer", str(ludii / "games" / "Tic-Tac-Toe.lud"), "--skill-trace",
                 "--matches", "2", "--trials", "3", "--seconds", "0.000001",
                 "--out", str(path)]) == 0
    assert "no match of 3 games finished within the time limit" in capsys.readouterr().out
    trace = json.loads(path.read_text())["SkillTrace"]
    assert trace["curve"] == [] and trace["stopped_by_time"]


@pytest.mark.parametrize("argv, message", [
    ([], "--ideal-turns MIN MAX and/or --skill-trace"),
    (["--ideal-turns", "9", "3"], "0 <= MIN <= MAX"),
    (["--skill-trace", "--matches", "0"], "--matches must be positive"),
])
def test_designer_user_errors(ludii, capsys, argv, message):
    from ludeme.cli.main import main
    assert main(["designer", str(ludii / "games" / "Tic-Tac-Toe.lud"), *argv]) == 2
    assert message in capsys.readouterr().err


def test_skill_trace_plays_the_same_games_on_both_backends(ludii):
    """SkillTrace's UCT agents choose the same moves on the compiled kernels' states as on
    the reference engine's, so the curve is the same, only sooner."""
    from ludeme.analysis.designer import skill_trace
    from ludeme.api import load, new_state
    from ludeme.engine.compiled import CompiledState
    traces = {}
    for backend in ("reference", "compiled"):
        game = load(ludii / "games" / "Tic-Tac-Toe.lud", backend=backend)
        assert isinstance(new_state(game), CompiledState) == (backend == "compiled")
        traces[backend] = skill_trace(game, seed=3, matches=2, trials=4, seconds=None)
    assert traces["reference"].utilities == traces["compiled"].utilities
    assert len(traces["compiled"].utilities) == 2
