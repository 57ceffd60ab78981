"""Every Ludii playout metric the summary has, against Ludii's own values on the 36
reference configurations (slow: `python -m pytest -m slow tests/test_multi_metrics_slow.py`).

Ludii's values (`refdata/metrics/<slug>.json`) come from its own 200 random trials (50 for
Chinese Checkers) on seed 4242; ours from 2,000 of our random playouts on seed 4242 (the
compiled backend where the game compiles: `run_playouts` picks it, and the rows are the
reference engine's), which are other games. So the test is statistical, as the issue's "Done
when" asks: the difference must lie within four standard errors of the difference,
sqrt(SE_ours^2 + SE_Ludii^2), our standard error read from our 95% interval and Ludii's
estimated from our per-playout spread scaled to its number of trials; where our value is
exact (every playout gives the same value: its interval is a point) the difference may be
2% of Ludii's value instead. With some 80 metrics on 36 configurations a failure at four
standard errors is not expected by chance (about 1 in 16,000 per metric). A metric of
Ludii's missing from the summary fails.
"""

import json
import math

import pytest

from conftest import refdata_dir, shared_dir
from ludeme.analysis.metrics import summarize
from ludeme.analysis.playouts import load, run_playouts

Z95 = 1.959963984540054
SEED = 4242
PLAYOUTS = 2000
STANDARD_ERRORS = 4
EXACT_RELATIVE = 0.02


# (Adzua Ludii 10's rare early end, 2 in Ludii's 2,000 recorded playouts and one among its
# 200 metric trials, is covered by 2,000 of ours: no xfail since the run of 2026-11-27.)
# Chinese Checkers 2 (b) ends before the turn limit in 4 of Ludii's 200 recorded playouts
# (refdata/stats) and in 1 of its 50 metric trials; 50 of ours see none at all with
# probability 0.98^50 = 36%, and then their point intervals cannot cover Ludii's mean.
RARE = {"chinese-checkers-2p-b": "one rare early end among Ludii's 50 trials"}


def _configs():
    ref = refdata_dir()
    configs = json.loads((ref / "configs.json").read_text())["configs"] if ref else []
    return [pytest.param(c, id=c["slug"], marks=pytest.mark.xfail(reason=RARE[c["slug"]],
                                                                 strict=False))
            if c["slug"] in RARE else pytest.param(c, id=c["slug"]) for c in configs]


def agrees(ours: float, low: float, high: float, theirs: float, n: int) -> bool:
    """Our value from PLAYOUTS playouts with its 95% interval [low, high], against Ludii's
    from n trials: within STANDARD_ERRORS standard errors of the difference, or, where ours
    is exact (a point interval, or none: a value set by Ludii's rule, as
    DurationTurnsNotTimeouts when every playout reached the turn limit), within
    EXACT_RELATIVE of Ludii's value."""
    if math.isnan(low) or math.isnan(high):
        return abs(ours - theirs) <= EXACT_RELATIVE * abs(theirs) + 1e-9
    se_ours = (high - low) / 2 / Z95
    se_difference = se_ours * math.sqrt(1 + PLAYOUTS / n)   # Ludii's SE: ours scaled to its n
    tolerance = STANDARD_ERRORS * se_difference
    if low == high:
        tolerance = max(tolerance, EXACT_RELATIVE * abs(theirs))
    return abs(ours - theirs) <= tolerance + 1e-9


@pytest.mark.parametrize("ours, low, high, theirs, n, expected", [
    (10.0, 9.0, 11.0, 10.0, 200, True),
    # SE ours 0.51, Ludii's 1.61, of the difference 1.69: four of them 6.77
    (10.0, 9.0, 11.0, 16.7, 200, True),
    (10.0, 9.0, 11.0, 16.8, 200, False),
    (10.0, 10.0, 10.0, 10.19, 200, True),       # exact: 2% of Ludii's value
    (10.0, 10.0, 10.0, 10.25, 200, False),
    (0.0, 0.0, 0.0, 0.01, 200, False),          # exact 0 against a value: no tolerance
    # no interval: every playout timed out and the value is Ludii's rule (turn limit x P)
    (3750.0, math.nan, math.nan, 3750.0, 50, True),
    (3750.0, math.nan, math.nan, 3000.0, 50, False),
])
def test_agrees_within_four_standard_errors_of_the_difference(ours, low, high, theirs, n,
                                                              expected):
    assert agrees(ours, low, high, theirs, n) is expected


@pytest.mark.slow
@pytest.mark.parametrize("config", _configs())
def test_every_metric_agrees_with_ludiis_own(config, refdata):
    from ludeme.errors import LudemeError
    ref = json.loads((refdata / "metrics" / f"{config['slug']}.json").read_text())
    n = ref["n"]
    try:
        game = load(shared_dir() / "ludii" / "games" / config["lud"],
                    options=config["options"], ruleset=config["ruleset"])
    except LudemeError as e:
        pytest.skip(f"{config['slug']} does not load yet: {str(e).splitlines()[0][:120]}")
    s = summarize(run_playouts(game, PLAYOUTS, seed=SEED, progress=False)).iloc[0]
    failures = [f"{name}: not in the summary" for name in ref["metrics"] if name not in s]
    for name, theirs in ref["metrics"].items():
        if name not in s or theirs is None or math.isnan(s[name]):
            continue
        if not agrees(s[name], s[f"{name}_ci_low"], s[f"{name}_ci_high"], theirs, n):
            failures.append(f"{name}: ours {s[name]:.4f} [{s[name + '_ci_low']:.4f}, "
                            f"{s[name + '_ci_high']:.4f}], Ludii {theirs:.4f}")
    assert not failures, f"{config['slug']}:\n" + "\n".join(failures)
