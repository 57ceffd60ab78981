"""Agreement with Ludii (slow: `python -m pytest -m slow tests/test_stats_slow.py`).

For every Adzua (Children) ruleset and Seesaw on boards of base 4 and 5 (the
project's own descriptions), and for Lines of Action (both end rules), Konane
(8x8, 10x10), Amazons, Yavalath, Connect Four, Reversi, Fanorona, English Draughts, Hex
and Surakarta from Ludii's files,
2000 uniform-random playouts agree with Ludii's recorded figures within
statistical tolerance:

* `refdata/stats/<slug>.json` (2000 playouts): mean turns (Ludii's stateNumTurn)
  and mean moves (numberRealMoves) within four combined standard errors; the
  shares of P1 wins, P2 wins and timeouts within four standard errors of the
  difference of two proportions (pooled).
* `refdata/metrics/<slug>.json` (Ludii's own metric classes over 200 trials):
  each metric of `ludeme.analysis.metrics` within four combined standard errors, where
  Ludii's standard error is ours scaled to its 200 trials, plus one trial's
  worth (1/200) for metrics made of counts, which 200 trials cannot resolve
  more finely. This checks the definitions, not only the engine: for example
  BranchingFactorAverage is a mean of per-trial means (3.50 for Ludii 5), not
  the pooled mean over all decisions (3.04).
"""

import json
import math

import pytest

from conftest import DESCRIPTIONS, ludii_dir
from ludeme.analysis.metrics import summarize
from ludeme.analysis.playouts import load, run_playouts

pytestmark = pytest.mark.slow

N = 2000
Z = 1.959963984540054
# slug -> (file, options, ruleset); "ludii:" files are read from ../shared/ludii/games.
RULESETS = {f"adzua-children-ludii-{k}": (str(DESCRIPTIONS / "adzua_children.lud"), (),
                                          f"Adzua (Children) (Ludii {k}) (Reconstructed)")
            for k in range(1, 11)}
RULESETS.update({
    "lines-of-action-draw": ("ludii:Lines of Action.lud",
                             ("End rules/Simultaneous Group = Draw",), None),
    "lines-of-action-mover-win": ("ludii:Lines of Action.lud",
                                  ("End rules/Simultaneous Group = Mover Win",), None),
    "konane-8x8": ("ludii:Konane.lud", (), "Ruleset/8x8 Konane (Suggested)"),
    "konane-10x10": ("ludii:Konane.lud", (), "Ruleset/10x10 Konane (Observed)"),
    "amazons": ("ludii:Amazons.lud", (), None),
    # Ludii's own random playouts of Yavalath (its AddToEmpty shortcut) never play the
    # swap as a move; ours choose it uniformly among the legal moves, as its traces list
    # it, so about one game in sixty has one turn fewer: far inside the tolerance.
    "yavalath": ("ludii:Yavalath.lud", (), None),
    "seesaw-4": (str(DESCRIPTIONS / "seesaw.lud"), ("Board Size/4",), None),
    "seesaw-5": (str(DESCRIPTIONS / "seesaw.lud"), ("Board Size/5",), None),
    "connect-four": ("ludii:Connect Four.lud", (), None),
    "reversi": ("ludii:Reversi.lud", (), None),
    "fanorona": ("ludii:Fanorona.lud", (), None),
    "english-draughts": ("ludii:English Draughts.lud", (), None),
    "hex": ("ludii:Hex.lud", (), None),
    "surakarta": ("ludii:Surakarta.lud", (), None),
})
COUNT_METRICS = ("Timeouts", "Completion", "Drawishness", "AdvantageP1", "Balance",
                 "OutcomeUniformity", "BoardCoverageDefault")
MEAN_METRICS = ("DurationTurns", "DurationMoves", "DurationTurnsStdDev", "DecisionMoves",
                "BranchingFactorAverage", "DecisionFactorAverage", "PieceNumberAverage",
                "BoardSitesOccupiedAverage")
_RUNS: dict = {}


def run(slug: str):
    """2000 playouts of one ruleset and their summary (once per session)."""
    if slug not in _RUNS:
        path, options, ruleset = RULESETS[slug]
        if path.startswith("ludii:"):
            base = ludii_dir()
            if base is None:
                pytest.skip("Ludii's .lud files not found (../shared/ludii or LUDEME_LUDII_DIR)")
            path = str(base / "games" / path[len("ludii:"):])
        game = load(path, options=list(options), ruleset=ruleset)
        seed = sum(map(ord, slug))
        df = run_playouts(game, N, seed=seed, progress=False)
        _RUNS[slug] = (df, summarize(df).iloc[0])
    return _RUNS[slug]


def reference(refdata, kind: str, slug: str) -> dict:
    return json.loads((refdata / kind / f"{slug}.json").read_text())


def two_proportions_within(k1: int, n1: int, k2: int, n2: int, sds: float = 4.0) -> bool:
    """The two shares differ by at most `sds` standard errors of their difference (pooled)."""
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return abs(k1 / n1 - k2 / n2) <= sds * se + 1e-12


@pytest.mark.parametrize("slug", RULESETS)
def test_lengths_and_outcomes_agree_with_ludii(slug, refdata):
    df, _ = run(slug)
    ref = reference(refdata, "stats", slug)
    n_ref = ref["n"]
    for ours, theirs in ((df["turns"], ref["turns"]), (df["moves"], ref["moves"])):
        se = math.sqrt(ours.std(ddof=1) ** 2 / len(ours) + theirs["std"] ** 2 / n_ref)
        assert abs(ours.mean() - theirs["mean"]) <= 4 * se + 1e-9, \
            f"{slug}: mean {ours.name} {ours.mean():.2f}, Ludii {theirs['mean']:.2f} (se {se:.2f})"
    for p in (1, 2):
        k = int((df["winner"] == p).sum())
        k_ref = ref["winsByStatusWinner"][f"P{p}"]
        assert two_proportions_within(k, N, k_ref, n_ref), \
            f"{slug}: P{p} wins {k}/{N}, Ludii {k_ref}/{n_ref}"
    cut_ref = ref["cutByTurnLimit"] + ref["cutByMoveLimit"]
    assert two_proportions_within(int(df["timeout"].sum()), N, cut_ref, n_ref)


@pytest.mark.parametrize("slug", RULESETS)
def test_metrics_agree_with_ludiis_own(slug, refdata):
    df, s = run(slug)
    ref = reference(refdata, "metrics", slug)
    n_ref = ref["n"]
    failures = []
    for name in COUNT_METRICS + MEAN_METRICS:
        ours, theirs = s[name], ref["metrics"][name]
        se_ours = (s[f"{name}_ci_high"] - s[f"{name}_ci_low"]) / (2 * Z)
        se = se_ours * math.sqrt(1 + N / n_ref)
        slack = 1 / n_ref if name in COUNT_METRICS else 0.0
        if abs(ours - theirs) > 4 * se + slack + 1e-9:
            failures.append(f"{name}: ours {ours:.4f} [{s[name + '_ci_low']:.4f}, "
                            f"{s[name + '_ci_high']:.4f}], Ludii {theirs:.4f}")
    timeouts = df["timeout"]
    ludii_not_timeouts = n_ref - ref["trialSummary"]["timeouts"]
    if (~timeouts).sum() >= 30 and ludii_not_timeouts >= 30:
        name = "DurationTurnsNotTimeouts"
        se = (s[f"{name}_ci_high"] - s[f"{name}_ci_low"]) / (2 * Z) * math.sqrt(1 + N / n_ref)
        if abs(s[name] - ref["metrics"][name]) > 4 * se:
            failures.append(f"{name}: ours {s[name]:.3f}, Ludii {ref['metrics'][name]:.3f}")
    assert not failures, f"{slug}:\n" + "\n".join(failures)
