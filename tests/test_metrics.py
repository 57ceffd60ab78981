"""Ludii's metric definitions on small hand-made playout tables whose answers are worked out by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from ludeme.analysis.metrics import METRICS, Summary, bootstrap, mean_t, population_std, std_interval, summarize, summarize_parquet, wilson
from ludeme.analysis.playouts import rank_utility
from ludeme.engine.figures import GAME_COLUMNS, OPTIONAL, per_state_columns


def table(outcomes, turns=None, players=2, **columns) -> pd.DataFrame:
    """A playout table: `outcomes` holds (winner, end_type, rank_p1, ..., rank_pP) per playout."""
    n = len(outcomes)
    rows = []
    for i, (winner, end_type, *ranks) in enumerate(outcomes):
        row = {"game": "G", "ruleset": "", "options": "", "index": i, "seed": i,
               "players": players, "winner": winner, "end_type": end_type,
               "timeout": end_type in ("TurnLimit", "MoveLimit"),
               "turns": turns[i] if turns else 10, "moves": 12, "actions": 15,
               "turn_limit": 2500,
               "branching_factor": 3.0, "decisions_multi": 6, "decision_moves": 0.5,
               "decision_factor": 4.0, "board_coverage": 1.0, "piece_number": 5.0,
               "board_sites_occupied": 0.5, "seconds": 0.01}
        for column in per_state_columns():      # the multi-metric aggregates
            row.setdefault(column, 1.0)
        for column in GAME_COLUMNS:             # BoardCoverageUsed, StateTreeComplexity
            row.setdefault(column, 0.5)
        for p, r in enumerate(ranks, 1):
            row[f"rank_p{p}"] = r
            row[f"utility_p{p}"] = rank_utility(r, players)
        rows.append(row)
    df = pd.DataFrame(rows)
    for k, v in columns.items():
        df[k] = v
    assert len(df) == n
    return df


WIN1, WIN2 = (1, "NaturalEnd", 1.0, 2.0), (2, "NaturalEnd", 2.0, 1.0)
DRAW, CUT = (0, "NaturalEnd", 1.5, 1.5), (0, "TurnLimit", 1.5, 1.5)


@pytest.mark.parametrize("rank, players, expected", [
    (1.0, 2, 1.0), (2.0, 2, -1.0), (1.5, 2, 0.0),
    (1.0, 3, 1.0), (2.0, 3, 0.0), (3.0, 3, -1.0), (2.5, 4, 0.0), (1.5, 4, 2 / 3),
    (1.0, 1, 1.0), (0.0, 1, -1.0), (0.5, 1, 0.0),
])
def test_rank_utility(rank, players, expected):
    assert rank_utility(rank, players) == pytest.approx(expected)


def test_outcome_metrics_two_players():
    s = summarize(table([WIN1, WIN1, WIN2, CUT])).iloc[0]
    assert s["n"] == 4
    assert s["Completion"] == 0.75 and s["Timeouts"] == 0.25
    assert s["Drawishness"] == 0.25                       # the timeout counts as a draw (Ludii)
    assert s["AdvantageP1"] == pytest.approx((1 + 1 + 0 + 0.5) / 4)
    assert s["Balance"] == pytest.approx(1 - abs(2 / 4 - 1 / 4))
    # u1 = [1, 1, -1, 0]: mean 1/4, sum of squared deviations 2.75, sample variance 2.75/3;
    # u2 = -u1 has the same variance.
    assert s["OutcomeUniformity"] == pytest.approx(1 - 2.75 / 3)
    assert s["win_share_p1"] == 0.5 and s["win_share_p2"] == 0.25


def test_balance_counts_only_outright_wins_with_three_players():
    # P1 first twice; P2 first once and second twice; P3 never first.
    three = [(1, "NaturalEnd", 1.0, 2.0, 3.0), (1, "NaturalEnd", 1.0, 2.0, 3.0),
             (2, "NaturalEnd", 3.0, 1.0, 2.0)]
    s = summarize(table(three, players=3)).iloc[0]
    assert s["Balance"] == pytest.approx(1 - (2 / 3 - 0))
    assert s["AdvantageP1"] == pytest.approx((1 + 1 + 0) / 3)
    assert s["Drawishness"] == 0 and s["Completion"] == 1


def test_durations():
    df = table([WIN1, WIN2, CUT, CUT], turns=[10, 20, 2500, 2500])
    s = summarize(df).iloc[0]
    assert s["DurationTurns"] == pytest.approx((10 + 20 + 5000) / 4)
    assert s["DurationTurnsStdDev"] == pytest.approx(np.std([10, 20, 2500, 2500]))  # divides by n
    assert s["DurationTurnsNotTimeouts"] == pytest.approx(15)
    assert s["DurationMoves"] == 12


def test_all_timeouts_give_the_turn_limit():
    s = summarize(table([CUT, CUT], turns=[2500, 2500])).iloc[0]
    assert s["DurationTurnsNotTimeouts"] == 2500
    assert math.isnan(s["DurationTurnsNotTimeouts_ci_low"])
    assert s["Timeouts"] == 1 and s["Completion"] == 0 and s["Drawishness"] == 1


def test_every_metric_has_an_interval_around_it():
    rng = np.random.default_rng(3)
    outcomes = [WIN1 if x < 0.5 else WIN2 if x < 0.9 else DRAW for x in rng.random(200)]
    df = table(outcomes, turns=list(rng.integers(5, 60, 200)),
               branching_factor=rng.uniform(2, 5, 200))
    s = summarize(df).iloc[0]
    for name in METRICS:
        if name in OPTIONAL:        # computed on request only: not in these rows
            assert name not in s
            continue
        assert s[f"{name}_ci_low"] <= s[name] <= s[f"{name}_ci_high"], name
    assert s["DurationTurns_ci_low"] < s["DurationTurns"] < s["DurationTurns_ci_high"]
    assert s["Balance_ci_low"] < s["Balance_ci_high"]


def test_one_row_per_configuration():
    a, b = table([WIN1, WIN2]), table([WIN1, WIN1, CUT])
    b["ruleset"] = "Ruleset/Other"
    s = summarize(pd.concat([a, b], ignore_index=True))
    assert list(s["ruleset"]) == ["", "Ruleset/Other"] and list(s["n"]) == [2, 3]
    assert list(s["AdvantageP1"]) == [0.5, pytest.approx(2.5 / 3)]


def test_an_empty_table_is_refused():
    with pytest.raises(ValueError):
        summarize(pd.DataFrame())


def test_wilson_matches_the_closed_form():
    k, n, z = 5, 20, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    share, lo, hi = wilson(k, n)
    assert share == 0.25
    assert (lo, hi) == (pytest.approx(centre - half), pytest.approx(centre + half))
    assert wilson(0, 10)[1] == 0 and wilson(0, 10)[2] > 0      # never a zero-width interval


@pytest.mark.parametrize("values, expected", [
    ([2.0, 2.0, 2.0], (2.0, 2.0, 2.0)),
    ([1.0], (1.0, math.nan, math.nan)),
    ([0.0, 2.0], (1.0, 1 - 12.706204736 * 1, 1 + 12.706204736 * 1)),   # sem 1, t(1) = 12.706
])
def test_mean_t(values, expected):
    got = mean_t(values)
    for a, b in zip(got, expected):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b)


def test_bootstrap_is_reproducible_and_brackets_the_value():
    x = np.arange(50.0)
    a, b = bootstrap(population_std, x), bootstrap(population_std, x)
    assert a == b and a[1] < a[0] < a[2] and a[0] == pytest.approx(np.std(x))


def test_counts_bootstrap_agrees_with_resampling_the_rows():
    # Drawing multinomial counts over distinct values is resampling the rows: the two
    # percentile intervals agree to Monte Carlo error.
    rng = np.random.default_rng(5)
    x = rng.integers(5, 40, 400).astype(float)
    value, low, high = bootstrap(population_std, x)
    resampled = np.std(x[rng.integers(0, len(x), (4000, len(x)))], axis=1)
    ref_low, ref_high = np.quantile(resampled, [0.025, 0.975])
    assert value == pytest.approx(np.std(x))
    assert low == pytest.approx(ref_low, abs=0.15) and high == pytest.approx(ref_high, abs=0.15)


def test_the_asymptotic_std_interval_agrees_with_the_bootstrap():
    rng = np.random.default_rng(6)
    x = rng.normal(100, 15, 20_000).round(1)
    values, counts = np.unique(x, return_counts=True)
    asymptotic = std_interval(dict(zip(values, counts)), max_distinct=10)
    boot = std_interval(dict(zip(values, counts)))
    assert asymptotic[0] == pytest.approx(boot[0])
    assert asymptotic[1] == pytest.approx(boot[1], rel=0.01)
    assert asymptotic[2] == pytest.approx(boot[2], rel=0.01)


def test_a_summary_built_by_batches_in_any_order_equals_the_whole(tmp_path):
    rng = np.random.default_rng(4)
    outcomes = [WIN1 if x < 0.5 else WIN2 if x < 0.9 else CUT for x in rng.random(300)]
    df = table(outcomes, turns=list(rng.integers(5, 60, 300)),
               branching_factor=rng.uniform(2, 5, 300))
    whole = summarize(df)
    batches = Summary()
    for part in (df.iloc[200:], df.iloc[:70], df.iloc[70:200]):
        batches.add(part)
    pd.testing.assert_frame_equal(batches.table(), whole, check_exact=False, rtol=1e-12)
    for i, start in enumerate(range(0, 300, 100)):
        df.iloc[start:start + 100].to_parquet(tmp_path / f"part-{i}.parquet")
    pd.testing.assert_frame_equal(summarize_parquet(tmp_path), whole, check_exact=False,
                                  rtol=1e-12)


def test_agent_figures_count_each_agents_points_whatever_its_seat():
    df = table([WIN1, WIN2, WIN1, DRAW])
    df["agent_p1"] = ["uct", "random", "uct", "random"]
    df["agent_p2"] = ["random", "uct", "random", "uct"]
    s = summarize(df).iloc[0]
    assert s["agents"] == "random vs uct" and (s["agent1"], s["agent2"]) == ("random", "uct")
    assert s["AgentScore2"] == pytest.approx((1 + 1 + 1 + 0.5) / 4)
    assert s["AgentScore1"] == pytest.approx(0.5 / 4)
    assert s["AgentWins2"] == 0.75 and s["AgentWins1"] == 0
    assert summarize(table([WIN1, WIN2])).iloc[0]["agents"] == "random"


def test_intervals_of_shares_stay_within_0_and_1():
    mean, lo, hi = mean_t([1.0] * 30 + [0.9], bounds=(0.0, 1.0))
    assert lo < mean < hi == 1.0
    assert mean_t([1.0] * 30 + [0.9])[2] > 1.0
