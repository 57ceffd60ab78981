"""`ludeme compare`: the tests per metric, corrections, identical-play groups, outputs."""

import numpy as np
import pandas as pd
import pytest

from conftest import DESCRIPTIONS
from ludeme.cli.main import main
from ludeme.analysis.compare import Variant, compare, compare_means, compare_outcomes, compare_player_statistic, compare_shares, compare_spread, identity_groups, parse_spec, reversed_result
from ludeme.analysis.metrics import METRICS, OPTIONAL, balance
from ludeme.analysis.playouts import GameSource, load, playout_seed, run_playouts

ADZUA = DESCRIPTIONS / "adzua_children.lud"
RNG = np.random.default_rng(7)
NORMAL = RNG.normal(10.0, 2.0, 300)
SHIFTED = NORMAL + RNG.normal(1.0, 2.0, 300)          # paired with NORMAL, mean +1
OTHER = RNG.normal(10.0, 2.0, 300)                    # same distribution, independent


def ruleset(k: int) -> str:
    return f"Ruleset/Adzua (Children) (Ludii {k}) (Reconstructed)"


# ---------------------------------------------------------------- one test per metric kind

@pytest.mark.parametrize("a, b, paired, test, differs", [
    (SHIFTED, NORMAL, True, "paired t (shared seeds)", True),
    (SHIFTED, NORMAL, False, "Welch's t", True),
    (OTHER, NORMAL, False, "Welch's t", False),
    (NORMAL, NORMAL, True, "exact (no variation)", False),      # identical playouts
    (np.full(50, 3.0), np.full(60, 3.0), False, "exact (no variation)", False),
    (np.full(50, 4.0), np.full(60, 3.0), False, "exact (no variation)", True),
])
def test_means(a, b, paired, test, differs):
    r = compare_means(a, b, paired)
    assert r["test"] == test
    assert (r["p_value"] < 0.001) == differs
    assert r["ci_low"] <= r["estimate"] <= r["ci_high"]
    assert r["estimate"] == pytest.approx(np.mean(a) - np.mean(b))
    if differs and test != "exact (no variation)":
        assert r["ci_low"] > 0 and r["effect_size"] > 0 and r["prob_superiority"] > 0.5
        assert r["rank_p_value"] < 0.001


@pytest.mark.parametrize("x1, n1, x2, n2, low, high, differs", [
    (56, 70, 48, 80, 0.0524, 0.3339, True),     # Newcomb (1998), method 10: the published interval
    (50, 100, 50, 100, None, None, False),
    (0, 200, 0, 200, None, None, False),
    (199, 200, 0, 200, None, None, True),
])
def test_shares(x1, n1, x2, n2, low, high, differs):
    r = compare_shares(x1, n1, x2, n2)
    assert r["test"] == "Fisher's exact" and r["effect_name"] == "Cohen's h"
    assert r["estimate"] == pytest.approx(x1 / n1 - x2 / n2)
    assert r["ci_low"] <= r["estimate"] <= r["ci_high"]
    if low is not None:
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((low, high), abs=5e-5)
    assert (r["p_value"] < 0.05) == differs


@pytest.mark.parametrize("wa, wb, test, differs", [
    ([1] * 60 + [2] * 40, [1] * 40 + [2] * 60, "Fisher's exact", True),
    ([1] * 50 + [2] * 50, [1] * 50 + [2] * 50, "Fisher's exact", False),
    ([1] * 50 + [2] * 40 + [0] * 10, [1] * 50 + [2] * 40 + [0] * 10, "chi-square", False),
    ([1] * 90 + [2] * 8 + [0] * 2, [1] * 30 + [2] * 68 + [0] * 2, "chi-square (permutation)",
     True),
    ([0] * 30, [0] * 40, "exact (one outcome)", False),
])
def test_outcomes(wa, wb, test, differs):
    r = compare_outcomes(wa, wb)
    assert r["test"] == test
    assert (r["p_value"] < 0.01) == differs
    assert 0.0 <= r["estimate"] <= 1.0 and r["effect_name"] == "Cramér's V"


def test_spread_and_balance():
    wide = np.concatenate([NORMAL, NORMAL * 3])
    r = compare_spread(wide, np.concatenate([NORMAL, NORMAL]))
    assert r["test"] == "Brown-Forsythe" and r["p_value"] < 0.001 and r["ci_low"] > 0
    assert compare_spread(NORMAL, NORMAL)["p_value"] > 0.5
    fair = np.array([[1.0, -1.0] * 100, [-1.0, 1.0] * 100])
    biased = np.array([[1.0] * 170 + [-1.0] * 30, [-1.0] * 170 + [1.0] * 30])
    r = compare_player_statistic(balance, fair, biased)
    assert r["estimate"] == pytest.approx(1.0 - 0.3)
    assert r["p_value"] < 0.001 and r["ci_low"] <= r["estimate"] <= r["ci_high"]
    assert compare_player_statistic(balance, fair, fair)["p_value"] == 1.0


def test_reversed_result_is_the_mirror_image():
    r = compare_means(SHIFTED, NORMAL, True)
    back = reversed_result(r)
    again = compare_means(NORMAL, SHIFTED, True)
    for key in ("estimate", "ci_low", "ci_high", "p_value", "effect_size", "prob_superiority"):
        assert back[key] == pytest.approx(again[key])


# ---------------------------------------------------------------- the family of tests

def fake_variant(label: str, turns, winners) -> Variant:
    n = len(turns)
    winners = np.asarray(winners)
    rows = pd.DataFrame({
        "game": "Fake", "ruleset": label, "options": "", "index": range(n),
        "seed": [playout_seed(0, i) for i in range(n)], "players": 2, "winner": winners,
        "end_type": "NaturalEnd", "timeout": False, "turns": turns, "moves": turns,
        "actions": turns,
        "turn_limit": 2500, "branching_factor": 3.0, "decisions_multi": 1, "decision_moves": 1.0,
        "decision_factor": 3.0, "board_coverage": 0.5, "piece_number": 4.0,
        "board_sites_occupied": 0.4, "seconds": 0.001,
        "utility_p1": np.where(winners == 1, 1.0, -1.0),
        "utility_p2": np.where(winners == 2, 1.0, -1.0)})
    rows["rank_p1"] = np.where(winners == 1, 1.0, 2.0)
    rows["rank_p2"] = np.where(winners == 2, 1.0, 2.0)
    return Variant(label, rows)


@pytest.fixture(scope="module")
def three_variants():
    rng = np.random.default_rng(3)
    n = 200                                             # enough for these differences
    turns = rng.integers(20, 40, n)
    winners = rng.choice([1, 2], n)
    a = fake_variant("A", turns, winners)
    a2 = fake_variant("A again", turns, winners)        # plays identically to A
    b = fake_variant("B", turns + 3, rng.choice([1, 2], n, p=[0.75, 0.25]))
    return [a, a2, b]


@pytest.mark.parametrize("correction", ["holm", "bh"])
def test_family_groups_and_verdicts(three_variants, correction):
    groups = identity_groups(three_variants, seeds=[])
    assert list(groups["group"]) == ["G1", "G1", "G2"]
    assert set(groups["method"]) == {"playout rows"}
    c = compare(three_variants, groups, correction)
    t = c.table
    same = t[(t["variant_a"] == "A") & (t["variant_b"] == "A again")]
    assert set(same["verdict"]) == {"plays identically"} and same["p_adjusted"].isna().all()
    ab = t[(t["variant_a"] == "A") & (t["variant_b"] == "B")].set_index("metric")
    assert ab.loc["DurationTurns", "verdict"] == "differs"
    assert ab.loc["DurationTurns", "estimate"] == pytest.approx(-3.0)
    assert ab.loc["AdvantageP1", "verdict"] == "differs"
    assert ab.loc["BranchingFactorAverage", "verdict"] == "no evidence of a difference"
    # A vs B and A-again vs B are one hypothesis with one adjusted p-value.
    a2b = t[(t["variant_a"] == "A again") & (t["variant_b"] == "B")].set_index("metric")
    assert (ab["p_adjusted"] == a2b["p_adjusted"]).all()
    family = t.drop_duplicates("test_id")
    family = family[family["p_adjusted"].notna()]
    assert t["family_size"].iloc[0] == len(family)
    # The correction only raises p-values; Holm is never below Benjamini-Hochberg.
    assert (family["p_adjusted"] >= family["p_value"] - 1e-15).all()
    assert (family["p_adjusted"] > family["p_value"]).any()
    other = compare(three_variants, groups, "bh" if correction == "holm" else "holm").table
    holm, bh = (t, other) if correction == "holm" else (other, t)
    assert (holm["p_adjusted"].fillna(0) >= bh["p_adjusted"].fillna(0) - 1e-15).all()


def test_identical_play_is_found_by_legal_moves():
    sources = [GameSource(str(ADZUA), (), ruleset(k)) for k in (1, 2, 3, 10)]
    variants = [Variant(f"L{k}", pd.DataFrame({"seed": []}), s)
                for k, s in zip((1, 2, 3, 10), sources)]
    seeds = [playout_seed(1, i) for i in range(4)]
    groups = identity_groups(variants, seeds, jobs=1)
    assert list(groups["group"]) == ["G1", "G1", "G2", "G3"]
    assert set(groups["method"]) == {"legal moves"}


@pytest.mark.parametrize("spec, expected", [
    (f"{ADZUA}::Adzua (Children) (Ludii 3) (Reconstructed)", ((), ruleset(3))),
    (f"{ADZUA}::{ruleset(3)}", ((), ruleset(3))),
    (f"{ADZUA}::Variant/Adzua (Children) (Ludii 4)", (("Variant/Adzua (Children) (Ludii 4)",),
                                                      None)),
    (f"{ADZUA}", ((), None)),
    (f"{ADZUA}::Ludii 3", "neither a ruleset"),
    (f"{ADZUA}::{ruleset(3)}::{ruleset(4)}", "two rulesets"),
    ("nowhere.lud::X/Y", "no such description"),
])
def test_parse_spec(spec, expected):
    from ludeme.errors import LudemeError
    if isinstance(expected, str):
        with pytest.raises(LudemeError, match=expected):
            parse_spec(spec)
    else:
        assert parse_spec(spec)[1:] == expected


# ---------------------------------------------------------------- the command

def test_command_writes_tidy_outputs(tmp_path, capsys):
    out = tmp_path / "cmp"
    code = main(["compare", f"{ADZUA}::{ruleset(1)}", f"{ADZUA}::{ruleset(2)}",
                 f"{ADZUA}::{ruleset(10)}", "-n", "20", "--jobs", "1", "--identity-seeds", "3",
                 "--no-progress", "--out", str(out)])
    assert code == 0
    t = pd.read_csv(out / "comparison.csv")
    for col in ("variant_a", "variant_b", "metric", "estimate", "ci_low", "ci_high", "p_value",
                "p_adjusted", "verdict"):
        assert col in t.columns
    computed = [m for m in METRICS if m not in OPTIONAL]     # no evaluation metrics asked for
    assert len(t) == 3 * (len(computed) + 3)  # 3 pairs x (the metrics + Outcomes + 2 win shares)
    groups = pd.read_csv(out / "groups.csv")
    assert list(groups["group"]) == ["G1", "G1", "G2"]
    long = t[(t["metric"] == "DurationTurns") & t["variant_b"].str.contains("10")]
    assert set(long["verdict"]) == {"differs"}
    md = (out / "comparison.md").read_text()
    assert "common random numbers" in md and "Holm" in md
    html = (out / "report.html").read_text()
    assert html.count("<img") == t["metric"].nunique()
    assert "3 variants in 2 groups" in capsys.readouterr().out


def test_command_reads_run_folders(tmp_path):
    run_dir = tmp_path / "run"
    assert main(["run", str(ADZUA), "--all-rulesets", "-n", "8", "--jobs", "1",
                 "--no-progress", "--out", str(run_dir)]) == 0
    out = tmp_path / "cmp"
    assert main(["compare", str(run_dir), "--no-progress", "--out", str(out)]) == 0
    groups = pd.read_csv(out / "groups.csv")
    assert len(groups) == 10 and set(groups["method"]) == {"playout rows"}
    assert groups["group"].nunique() == 3
    assert main(["compare", str(run_dir), "--source", str(ADZUA), "--identity-seeds", "2",
                 "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    assert set(pd.read_csv(out / "groups.csv")["method"]) == {"legal moves"}


@pytest.mark.parametrize("argv, message", [
    ([f"{ADZUA}::{ruleset(1)}"], "at least two variants"),
    ([f"{ADZUA}::Nope"], "neither a ruleset"),
    ([str(DESCRIPTIONS / "lines_of_action.lud"), str(ADZUA), "-n", "1"], "-n must be"),
])
def test_command_refuses_bad_input(argv, message, capsys, tmp_path):
    assert main(["compare", *argv, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_runs_share_seeds_across_variants():
    """Common random numbers: playout i of two variants has the same seed."""
    a = run_playouts(load(ADZUA, (), ruleset(1)), 5, 4, 1, progress=False)
    b = run_playouts(load(ADZUA, (), ruleset(3)), 5, 4, 1, progress=False)
    assert list(a["seed"]) == list(b["seed"])


def test_identity_seeds_zero_groups_by_playout_rows(tmp_path):
    # no seeds played for identity: variants are grouped by their playout rows (shared seeds)
    out = tmp_path / "cmp"
    assert main(["compare", f"{ADZUA}::{ruleset(1)}", f"{ADZUA}::{ruleset(2)}",
                 f"{ADZUA}::{ruleset(10)}", "-n", "20", "--jobs", "1", "--identity-seeds", "0",
                 "--no-progress", "--out", str(out)]) == 0
    groups = pd.read_csv(out / "groups.csv")
    assert set(groups["method"]) == {"playout rows"}
    assert list(groups["group"]) == ["G1", "G1", "G2"]
