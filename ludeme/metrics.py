"""Playout metrics under Ludii's names and definitions, each with a 95% interval.

`summarize(df)` turns the tidy playout table of `ludeme.runner` (one row per
playout) into one row per game/ruleset/options. The definitions follow Ludii's
own metric classes (Evaluation module, `metrics` package) as recorded in
`../shared/refdata/metrics/README.md`; a *trial* is one playout, `P` the number
of players, `L` its number of decisions, `s0` the state after the start rules
and `st` the state after the t-th decision. Unless said otherwise a metric is
the mean over trials of a per-trial value (every trial weighs the same).

Per-player outcome (the `utility_pk` columns, `ludeme.runner.rank_utility`):
Ludii's `u_p = 1 - (rank_p - 1) * 2 / (P - 1)` from its ranking (tied players
share the mean rank, so a two-player draw or timeout gives 0 to both); with one
player, `2 rank - 1` (rank 1 for a win, 0 for a loss).

| name | definition | interval |
| --- | --- | --- |
| DurationTurns | turns per trial: Ludii's `Trial.numTurns()`, which is the state's turn counter at the end (it starts at 1 and grows by one each time the mover changes, so a moveAgain chain is one turn) | t |
| DurationTurnsStdDev | population standard deviation (divide by n) of the turns | bootstrap |
| DurationTurnsNotTimeouts | mean turns over the trials that did not time out; turn limit x P when all did (Ludii's rule) | t |
| DurationMoves | decisions per trial (Ludii's `numberRealMoves`: every decision of a moveAgain chain, forced passes included; start-rule placements excluded) | t |
| Timeouts | share of trials cut by the turn or move limit (end type TurnLimit or MoveLimit) | Wilson |
| Completion | share of trials with a winner (`Status.winner() != 0`) | Wilson |
| Drawishness | share of trials where every `u_p` is exactly 0; Ludii's quirk: a two-player timeout counts as a draw | Wilson |
| AdvantageP1 | mean of `(u_1 + 1) / 2`: a win 1, a draw or timeout 0.5, middle ranks partial credit | t |
| Balance | `1 - max_{a,b} |w_a - w_b|` where `w_p` is player p's share of trials with `u_p = 1` exactly (Ludii sums `(u_p+1)/2` into an int, so only outright first places count) | bootstrap |
| OutcomeUniformity | `1 - mean_p var(u_p)` with the sample variance (divide by n - 1); can dip below 0 | bootstrap |
| DecisionMoves | per trial, the share of the pre-move states s0..s(L-1) with more than one legal move (0 if L = 0) | t |
| BranchingFactorAverage | per trial, the mean number of legal moves over s0..s(L-1) (a forced pass counts as one move; 0 if L = 0); then the mean over trials, so it differs from the pooled mean over all decisions | t |
| DecisionFactorAverage | as BranchingFactorAverage keeping only states with more than one legal move (0 if none) | t |
| BoardCoverageDefault | per trial, the share of board sites (the board's default site type) that held a piece in any of s0..sL | t |
| PieceNumberAverage | per trial, the mean over s0..sL of the pieces on the board (the sum of `count` over board sites; hands excluded) | t |
| BoardSitesOccupiedAverage | per trial, the mean over s0..sL of the share of board sites holding a piece (`what != 0`) | t |

Intervals are 95%: *Wilson* score intervals for shares of trials; *t*, the
Student-t interval of the mean of the per-trial values (a single point when all
values are equal; kept within [0, 1] for metrics that are shares); *bootstrap*, the percentile interval of 2,000 resamples of
the trials with a fixed seed, for statistics that are not means. With fewer
than two trials an interval is NaN.

Besides Ludii's metrics the summary has `n`, `playouts_per_sec` (n divided by
the summed time spent inside playouts: the rate of one process) and, per player
k, `win_share_pk`, the share of trials whose winner is k (Wilson interval).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats

CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20240601
SHARE = (0.0, 1.0)          # the range of metrics that are shares: their intervals stay inside

# Ludii's metric names, in the order of the summary table.
METRICS = (
    "DurationTurns", "DurationTurnsStdDev", "DurationTurnsNotTimeouts", "DurationMoves",
    "Timeouts", "Completion", "Drawishness", "AdvantageP1", "Balance", "OutcomeUniformity",
    "DecisionMoves", "BranchingFactorAverage", "DecisionFactorAverage", "BoardCoverageDefault",
    "PieceNumberAverage", "BoardSitesOccupiedAverage",
)

# Columns that identify one configuration (game, ruleset, options) in the playout table.
CONFIG_COLUMNS = ("game", "ruleset", "options")


# ---------------------------------------------------------------- intervals

def wilson(successes: int, n: int) -> tuple[float, float, float]:
    """The share and its 95% Wilson score interval."""
    if n == 0:
        return (np.nan, np.nan, np.nan)
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(CONFIDENCE, method="wilson")
    return (successes / n, float(ci.low), float(ci.high))


def mean_t(values, bounds: tuple[float, float] = (-np.inf, np.inf)) -> tuple[float, float, float]:
    """The mean and its 95% Student-t interval (a point when all values agree), clipped to `bounds`."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return (np.nan, np.nan, np.nan)
    mean = float(x.mean())
    if len(x) < 2:
        return (mean, np.nan, np.nan)
    sem = float(x.std(ddof=1)) / np.sqrt(len(x))
    if sem == 0.0:
        return (mean, mean, mean)
    lo, hi = stats.t.interval(CONFIDENCE, len(x) - 1, loc=mean, scale=sem)
    return (mean, float(max(lo, bounds[0])), float(min(hi, bounds[1])))


def bootstrap(statistic, *columns) -> tuple[float, float, float]:
    """`statistic(*columns)` and its percentile bootstrap interval over the trials (rows).

    `statistic` takes arrays whose last axis is the trials and reduces it, so
    scipy can evaluate all resamples at once.
    """
    cols = [np.asarray(c, dtype=float) for c in columns]
    value = float(statistic(*cols, axis=-1))
    if len(cols[0]) < 2:
        return (value, np.nan, np.nan)
    if all(np.all(c == c[0]) for c in cols):
        return (value, value, value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap(cols, statistic, n_resamples=BOOTSTRAP_RESAMPLES,
                              vectorized=True, paired=True, confidence_level=CONFIDENCE,
                              method="percentile", rng=np.random.default_rng(BOOTSTRAP_SEED))
    return (value, float(res.confidence_interval.low), float(res.confidence_interval.high))


# ---------------------------------------------------------------- statistics that are not means

def population_std(turns, axis=-1):
    """DurationTurnsStdDev: the standard deviation dividing by n."""
    return np.std(turns, axis=axis)


def balance(*utilities, axis=-1):
    """Balance: 1 - the largest gap between two players' shares of outright wins."""
    wins = np.stack([np.mean(u == 1.0, axis=axis) for u in utilities])
    return 1.0 - (wins.max(axis=0) - wins.min(axis=0))


def outcome_uniformity(*utilities, axis=-1):
    """OutcomeUniformity: 1 - the mean over players of the sample variance of u_p."""
    return 1.0 - np.mean([np.var(u, axis=axis, ddof=1) for u in utilities], axis=0)


# ---------------------------------------------------------------- one configuration

def utility_columns(num_players: int) -> list[str]:
    """The playout table's per-player utility columns."""
    return [f"utility_p{p}" for p in range(1, num_players + 1)]


def config_metrics(rows: pd.DataFrame) -> dict:
    """Every metric, its interval and the extra columns for one configuration's playouts."""
    n = len(rows)
    num_players = int(rows["players"].iloc[0])
    turns = rows["turns"].to_numpy(float)
    timeout = rows["timeout"].to_numpy(bool)
    utilities = [rows[c].to_numpy(float) for c in utility_columns(num_players)]
    all_zero = np.all(np.stack(utilities) == 0.0, axis=0)

    not_timeouts = turns[~timeout]
    if len(not_timeouts):
        turns_not_timeouts = mean_t(not_timeouts)
    else:
        limit = float(rows["turn_limit"].iloc[0])
        turns_not_timeouts = (limit, np.nan, np.nan)

    values = {
        "DurationTurns": mean_t(turns),
        "DurationTurnsStdDev": bootstrap(population_std, turns),
        "DurationTurnsNotTimeouts": turns_not_timeouts,
        "DurationMoves": mean_t(rows["moves"]),
        "Timeouts": wilson(timeout.sum(), n),
        "Completion": wilson((rows["winner"] != 0).sum(), n),
        "Drawishness": wilson(all_zero.sum(), n),
        "AdvantageP1": mean_t((utilities[0] + 1.0) / 2.0, SHARE),
        "Balance": bootstrap(balance, *utilities),
        "OutcomeUniformity": bootstrap(outcome_uniformity, *utilities),
        "DecisionMoves": mean_t(rows["decision_moves"], SHARE),
        "BranchingFactorAverage": mean_t(rows["branching_factor"]),
        "DecisionFactorAverage": mean_t(rows["decision_factor"]),
        "BoardCoverageDefault": mean_t(rows["board_coverage"], SHARE),
        "PieceNumberAverage": mean_t(rows["piece_number"]),
        "BoardSitesOccupiedAverage": mean_t(rows["board_sites_occupied"], SHARE),
    }
    for p in range(1, num_players + 1):
        values[f"win_share_p{p}"] = wilson((rows["winner"] == p).sum(), n)

    seconds = float(rows["seconds"].sum())
    out = {"players": num_players, "n": n,
           "playouts_per_sec": n / seconds if seconds > 0 else np.nan}
    for name, (value, low, high) in values.items():
        out[name] = value
        out[f"{name}_ci_low"] = low
        out[f"{name}_ci_high"] = high
    return out


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game/ruleset/options of a playout table: n, rate and every metric with its interval."""
    if df.empty:
        raise ValueError("no playouts to summarize")
    keys = list(CONFIG_COLUMNS)
    records = []
    for config, rows in df.groupby(keys, sort=False, dropna=False):
        records.append({**dict(zip(keys, config)), **config_metrics(rows)})
    return pd.DataFrame.from_records(records)
