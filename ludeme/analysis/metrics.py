"""Playout metrics under Ludii's names and definitions, each with a 95% interval.

`summarize(df)` turns the tidy playout table of `ludeme.analysis.playouts` (one row per
playout) into one row per game/ruleset/options. The definitions follow Ludii's
own metric classes (Evaluation module, `metrics` package) as recorded in
`../shared/refdata/metrics/README.md`; a *trial* is one playout, `P` the number
of players, `L` its number of decisions, `s0` the state after the start rules
and `st` the state after the t-th decision. Unless said otherwise a metric is
the mean over trials of a per-trial value (every trial weighs the same).

Per-player outcome (the `utility_pk` columns, `ludeme.analysis.playouts.rank_utility`):
Ludii's `u_p = 1 - (rank_p - 1) * 2 / (P - 1)` from its ranking (tied players
share the mean rank, so a two-player draw or timeout gives 0 to both); with one
player, `2 rank - 1` (rank 1 for a win, 0 for a loss).

| name | definition | interval |
| --- | --- | --- |
| DurationTurns | turns per trial: Ludii's `Trial.numTurns()`, which is the state's turn counter at the end (it starts at 1 and grows by one each time the mover changes, so a moveAgain chain is one turn) | t |
| DurationTurnsStdDev | population standard deviation (divide by n) of the turns | bootstrap |
| DurationTurnsNotTimeouts | mean turns over the trials that did not time out; turn limit x P when all did (Ludii's rule) | t |
| DurationMoves | decisions per trial (Ludii's `numberRealMoves`: every decision of a moveAgain chain, forced passes included; start-rule placements excluded) | t |
| DurationActions | Ludii's actions per trial: the sum over the decisions of the actions of the move Ludii stores (`Move.actions().size()`): the decision's own action (a forced pass is one Pass, a (move Select) its ActionSelect, a piece added with its state one ActionAdd), the actions of the moves nested in it (an (append ...) of a custodial's flanks: an Add and a flip per flanked piece) and of its consequents (`then`), and the pieces a capture sequence removes at the end of the turn; dice rolled for it and a moveAgain's SetNextPlayer count too. Start-rule placements excluded | t |
| Timeouts | share of trials cut by the turn or move limit (end type TurnLimit or MoveLimit) | Wilson |
| Completion | share of trials with a winner (`Status.winner() != 0`) | Wilson |
| Drawishness | share of trials where every `u_p` is exactly 0; Ludii's quirk: a two-player timeout counts as a draw | Wilson |
| AdvantageP1 | mean of `(u_1 + 1) / 2`: a win 1, a draw or timeout 0.5, middle ranks partial credit | t |
| Balance | `1 - max_{a,b} abs(w_a - w_b)` where `w_p` is player p's share of trials with `u_p = 1` exactly (Ludii sums `(u_p+1)/2` into an int, so only outright first places count) | bootstrap |
| OutcomeUniformity | `1 - mean_p var(u_p)` with the sample variance (divide by n - 1); can dip below 0 | bootstrap |
| DecisionMoves | per trial, the share of the pre-move states s0..s(L-1) with more than one legal move (0 if L = 0) | t |
| BranchingFactorAverage | per trial, the mean number of legal moves over s0..s(L-1) (a forced pass counts as one move; 0 if L = 0); then the mean over trials, so it differs from the pooled mean over all decisions | t |
| DecisionFactorAverage | as BranchingFactorAverage keeping only states with more than one legal move (0 if none) | t |
| BoardCoverageDefault | per trial, the share of board sites (the board's default site type) that held a piece in any of s0..sL | t |
| PieceNumberAverage | per trial, the mean over s0..sL of the pieces on the board (the sum of `count` over board sites, or of stack sizes in a stacking game; hands excluded) | t |
| BoardSitesOccupiedAverage | per trial, the mean over s0..sL of the share of board sites holding a piece (`what != 0`) | t |
| BoardCoverageFull | per trial, the board sites that held a piece in any of s0..sL divided by all the vertices, edges and cells of the board's graph (pieces stand on the default site type only) | t |
| BoardCoverageUsed | per trial, the board sites that held a piece in any of s0..sL divided by every vertex, edge and cell of the site types the game uses (its default type, those its ludemes name, Cell with hands; `ludeme.analysis.game_figures`) | t |
| StateTreeComplexity | not from playouts: the used board elements times log10 of the contents a site can take (piece kinds + 1, times 32 in a stacking game, the total sites in a game with counts, the local states where pieces have them); the same for every trial, so its interval is a point | t |
| PositionalRepetition | share of trials in which a position (the sites of every container, phases, player order: what Ludii's `stateHash` reads) occurs twice among s0..sL; Ludii's quirk: it means 1 - distinct/total but divides integers, so a trial counts 1 or 0 (a pass that leaves the board as it was repeats it) | t |
| SituationalRepetition | as PositionalRepetition with the situation (Ludii's `fullHash`): the position and the mover, next and previous players, active players, game over, scores and the moves of the mover's turn so far | t |
| PieceNumber* | the list: pieces on the board in each of s0..sL (as PieceNumberAverage) | t |
| BoardSitesOccupied* | the list: the share of board sites holding a piece in each of s0..sL | t |
| BranchingFactor* | the list: the legal moves in each of s0..s(L-1); Ludii spells three of its aggregates BranchingFactorChangeNumTimesn, BranchingFactorChangeMaxIncrease and BranchingFactorChangeMaxDecrease | t |
| DecisionFactor* | the list: the entries of BranchingFactor's above 1 | t |
| MoveDistance* | the list: for each decision from a board site to another (placements, from = to, and moves into or out of hands are skipped), the number of Adjacent steps between them (0 when none joins them) | t |
| ScoreDifference* | the list: in each of s0..sL, the largest gap between two players' scores (0 without scores) | t |
| *Average | per trial, the mean of the list (0 when empty); then the mean over trials, as every aggregate | t |
| *Median | the sorted list's element at len // 2, the upper median; Ludii 1.3.12 gives 0 when len <= 1 | t |
| *Maximum | the largest entry, but a running maximum that starts at 0 (Ludii's) | t |
| *Minimum | the smallest entry, but a running minimum that starts at 0, so 0 for a list of non-negative values (Ludii's) | t |
| *Variance | the population variance (divide by len; 0 when len <= 1) | t |
| *ChangeAverage | (last - first) / (len - 1) (0 when len <= 1) | t |
| *ChangeSign | the sum of the signs (+1, 0, -1) of the steps, divided by len - 1 | t |
| *ChangeLineBestFit | the least-squares slope of the list against 0..len-1 | t |
| *ChangeNumTimes | the changes of direction (a step up after none or a step down, and so on), times 1 // (len - 1) in integers (Ludii 1.3.12's quirk): 0 unless len = 2 | t |
| *MaxIncrease | the largest step up, at least 0 | t |
| *MaxDecrease | the largest step down as a number <= 0, at most 0 | t |
| Narrowness | (`--evaluation-metrics`, as the rows below to StateEvaluationDifference*) Ludii's ClarityNarrowness: per trial, the mean over s0..s(L-1) of the legal moves whose evaluation exceeds mean + 0.75 (max - mean) of the state's move evaluations, divided by their number; Ludii divides integers, so a state counts 1 only if every move exceeds the threshold, which none can: 0 | t |
| Variance | Ludii's ClarityVariance: per trial, the mean over s0..s(L-1) of the population variance of the evaluations of the state's legal moves | t |
| DecisivenessThreshold | per trial, the largest evaluation of a player not among the highest ranked, over s0..s(L-1), -1 when there is none; Ludii reads the highest ranked at s0, where nobody is ranked, so every player is, and the value is -1 | t |
| DecisivenessMoves | per trial, i // L (integers) for the first state s_i where a highest-ranked player's evaluation exceeds the threshold (i = L when none does): 1 when none does, else 0 | t |
| LeadChange | per trial, the states among s0..s(L-1) whose leaders (the players with the largest evaluation) differ from the previous state's (s0 counts as a change), divided by L | t |
| Stability | per trial, the sum over players (an average in Ludii's description, a sum in its code) of the population variance of the player's evaluations over s0..s(L-1) | t |
| Drama* | the list: for each of s0..s(L-1), the mean over the highest-ranked players (every player, as above) of the largest evaluation (at least -1) minus theirs | t |
| MoveEvaluation* | the list: the evaluation of each decision played (of the state after it, for its mover) | t |
| StateEvaluationDifference* | the list: for each of s0..sL, the largest gap between two players' evaluations | t |
| n | the playouts of the configuration and matchup | - |
| playouts_per_sec | n divided by the time summed over its playouts (the rate of one process, not the wall time of the run) | - |
| win_share_pk | the share of trials player k won: ranked first outright (u_k = 1), so in a team game every member of the winning team | Wilson |

The evaluation of a state for a player (`ludeme.ai.evaluator`) is Ludii's: over, or the
player no longer active, the utility of its rank; otherwise tanh of the default heuristics
(Material + 0.001 MobilitySimple) of the player minus those of the other active players.
A move's evaluation is that of the state after it, for its mover. A trial without a
decision gives 0 for Narrowness, Variance, DecisivenessMoves and LeadChange (Ludii divides
by zero there).

Intervals are 95%: *Wilson* score intervals for shares of trials; *t*, the
Student-t interval of the mean of the per-trial values (a single point when all
values are equal, but Wilson's interval when they are all 0 or all 1 in a metric that is
a share; kept within [0, 1] for metrics that are shares); *bootstrap*, the percentile interval of 2,000 resamples of
the trials with a fixed seed, for statistics that are not means. With fewer
than two trials an interval is NaN.

Summaries scale to millions of playouts in bounded memory: a summary is built
from per-configuration accumulators (`ConfigStats`) that keep only counts, sums
and moments (merged with Chan's formulas), and the value counts of the few
columns a bootstrap needs (turns; the vector of utilities). A bootstrap
resample of n trials is then a multinomial draw of counts over the distinct
values, which has exactly the distribution of resampling the rows, in batches
of resamples (memory: batch x distinct values, whatever n). Only when the turns
take more than MAX_DISTINCT distinct values does DurationTurnsStdDev use the
asymptotic normal interval of a standard deviation instead. Tables stored as
partitioned parquet are summarised partition by partition (`summarize_parquet`).

Besides Ludii's metrics the summary has `n`, `playouts_per_sec` (n divided by
the summed time spent inside playouts: the rate of one process) and, per player
k, `win_share_pk`, the share of trials k won, ranked first outright (every member of a
winning team; Wilson interval).

Agents (`ludeme.ai.agents`): rows say which agent held each seat (`agent_pk`); the
summary has one row per game/ruleset/options *and* matchup, `agents`, the
distinct agents' names sorted and joined by " vs " ("random" for uniform random
playouts). When a matchup has two or more agents, for each agent j (in that
order) `agentj` is its name, `AgentScorej` the mean over trials of its points
(`(u + 1) / 2` of its seats: a win 1, a draw 0.5, a loss 0; averaged over its
seats when it holds several; t interval) -- with two agents, the win rate of
one over the other as Ludii's agent evaluations count it -- and
`AgentWinsj` the share of trials it won outright (Wilson interval).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import special

CONFIDENCE = 0.95
# The normal quantile of a two-sided interval at CONFIDENCE (scipy.stats' norm.ppf).
Z = float(special.ndtri(0.5 + CONFIDENCE / 2))
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20240601
BOOTSTRAP_BATCH_CELLS = 4_000_000   # resamples x distinct values drawn at once (32 MB of counts)
MAX_DISTINCT = 20_000               # more distinct turn counts: the asymptotic std interval

from ludeme.engine.figures import CONFIG_COLUMNS, MEAN_METRICS, METRICS, OPTIONAL, PER_STATE, SHARE, SUMMARY_KEYS, StateFigures, per_state, per_state_columns
from . import evaluation  # noqa: F401,E402  (registers the optional state-evaluation metrics)


# ---------------------------------------------------------------- intervals

def wilson(successes: int, n: int) -> tuple[float, float, float]:
    """The share and its 95% Wilson score interval."""
    if n == 0:
        return (np.nan, np.nan, np.nan)
    # The score interval in closed form, as scipy's binomtest(...).proportion_ci(method=
    # "wilson") gives it, without importing scipy.stats (a second of every run's start).
    p, z2 = successes / n, Z * Z / n
    centre = (p + z2 / 2) / (1 + z2)
    half = Z * np.sqrt(p * (1 - p) / n + z2 / (4 * n)) / (1 + z2)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)     # the ends exact, as scipy's
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (p, float(lo), float(hi))


class Moments:
    """Count, mean, sum of squared deviations, min and max of a stream of values (Chan's merge)."""

    __slots__ = ("n", "mean", "m2", "lo", "hi")

    def __init__(self):
        self.n, self.mean, self.m2, self.lo, self.hi = 0, 0.0, 0.0, np.inf, -np.inf

    def add(self, values) -> "Moments":
        """Take in a batch of values."""
        x = np.asarray(values, dtype=float)
        if len(x) == 0:
            return self
        nb, lo, hi = len(x), float(x.min()), float(x.max())
        if lo == hi and lo.is_integer() and abs(lo) * nb < 2.0 ** 52:
            # every value the same whole number (half of a run's columns, often): the sums
            # below are exact, so the mean is that number and no value deviates from it
            mb, m2b = lo, 0.0
        else:
            mb = float(x.mean())
            d = x - mb              # squared in place: the same sum, one array fewer
            m2b = float(np.multiply(d, d, out=d).sum())
        n = self.n + nb
        delta = mb - self.mean
        self.mean += delta * nb / n
        self.m2 += m2b + delta * delta * self.n * nb / n
        self.n = n
        self.lo, self.hi = min(self.lo, lo), max(self.hi, hi)
        return self

    def interval(self, bounds: tuple[float, float] | None = None) -> tuple[float, float, float]:
        """The mean and its 95% Student-t interval (a point when all values agree)."""
        if self.n == 0:
            return (np.nan, np.nan, np.nan)
        mean = self.mean
        if self.n < 2:
            return (mean, np.nan, np.nan)
        if self.lo == self.hi:
            if bounds == SHARE and self.lo in (0.0, 1.0):
                # Per-trial 0/1 values that all agree (every trial repeated a position):
                # Wilson's interval of 0 or n out of n, not a point.
                return wilson(int(self.lo) * self.n, self.n)
            return (self.lo, self.lo, self.lo)
        sem = np.sqrt(self.m2 / (self.n - 1)) / np.sqrt(self.n)
        t = float(special.stdtrit(self.n - 1, 0.5 + CONFIDENCE / 2))   # as t.interval's
        lo, hi = mean - t * sem, mean + t * sem
        bounds = bounds or (-np.inf, np.inf)
        return (mean, float(max(lo, bounds[0])), float(min(hi, bounds[1])))


def mean_t(values, bounds: tuple[float, float] = (-np.inf, np.inf)) -> tuple[float, float, float]:
    """The mean and its 95% Student-t interval (a point when all values agree), clipped to `bounds`."""
    return Moments().add(values).interval(bounds)


def bootstrap_counts(statistic, values: np.ndarray, counts: np.ndarray
                     ) -> tuple[float, float, float]:
    """`statistic` of trials given as distinct rows `values` (K x d) seen `counts` times, and
    its percentile bootstrap interval.

    `statistic(values, weights)` takes weights of shape (B, K), one resample per
    row, and returns B values. A resample of the n trials has multinomial counts
    over the K distinct rows, so drawing those counts is the ordinary bootstrap,
    in memory that does not grow with n.
    """
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    value = float(statistic(values, counts[None, :].astype(float))[0])
    if n < 2:
        return (value, np.nan, np.nan)
    if len(counts) == 1:
        return (value, value, value)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    batch = max(1, min(BOOTSTRAP_RESAMPLES, BOOTSTRAP_BATCH_CELLS // len(counts)))
    p = counts / n
    draws = []
    for start in range(0, BOOTSTRAP_RESAMPLES, batch):
        size = min(batch, BOOTSTRAP_RESAMPLES - start)
        draws.append(statistic(values, rng.multinomial(n, p, size=size).astype(float)))
    alpha = (1.0 - CONFIDENCE) / 2.0
    low, high = np.quantile(np.concatenate(draws), [alpha, 1.0 - alpha])
    return (value, float(low), float(high))


def bootstrap(statistic, *columns) -> tuple[float, float, float]:
    """`statistic(values, weights)` of paired per-trial columns, with its bootstrap interval."""
    rows = np.column_stack([np.asarray(c, dtype=float) for c in columns])
    values, counts = np.unique(rows, axis=0, return_counts=True)
    return bootstrap_counts(statistic, values, counts)


# ---------------------------------------------------------------- statistics that are not means
# Each takes distinct rows (K x d) and weights (B x K), and gives B values.

def _weighted_moments(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, mean, sum of squared deviations) of the column x under each row of weights."""
    n = w.sum(axis=1)
    mean = w @ x / n
    ss = w @ (x * x) - n * mean * mean
    return n, mean, np.maximum(ss, 0.0)


def population_std(values, weights):
    """DurationTurnsStdDev: the standard deviation dividing by n."""
    n, _, ss = _weighted_moments(values[:, 0], weights)
    return np.sqrt(ss / n)


def balance(values, weights):
    """Balance: 1 - the largest gap between two players' shares of outright wins."""
    n = weights.sum(axis=1)
    wins = np.stack([weights @ (values[:, p] == 1.0) / n for p in range(values.shape[1])])
    return 1.0 - (wins.max(axis=0) - wins.min(axis=0))


def outcome_uniformity(values, weights):
    """OutcomeUniformity: 1 - the mean over players of the sample variance of u_p."""
    variances = []
    for p in range(values.shape[1]):
        n, _, ss = _weighted_moments(values[:, p], weights)
        with np.errstate(invalid="ignore", divide="ignore"):   # one playout: no variance
            variances.append(ss / (n - 1))
    return 1.0 - np.mean(variances, axis=0)


def std_interval(counts: dict, max_distinct: int = MAX_DISTINCT) -> tuple[float, float, float]:
    """DurationTurnsStdDev from turn value counts: bootstrap, or asymptotic for many values."""
    values = np.array(sorted(counts), dtype=float)
    weights = np.array([counts[v] for v in sorted(counts)], dtype=np.int64)
    if len(values) <= max_distinct:
        return bootstrap_counts(population_std, values[:, None], weights)
    # Var(s^2) ~ (m4 - s^4) / n, and s = sqrt(s^2) by the delta method.
    n = weights.sum()
    mean = weights @ values / n
    d = values - mean
    var = weights @ d ** 2 / n
    m4 = weights @ d ** 4 / n
    std = float(np.sqrt(var))
    se = float(np.sqrt(max(m4 - var * var, 0.0) / n) / (2 * std)) if std else 0.0
    return (std, max(0.0, std - Z * se), std + Z * se)


# ---------------------------------------------------------------- one configuration

def utility_columns(num_players: int) -> list[str]:
    """The playout table's per-player utility columns."""
    return [f"utility_p{p}" for p in range(1, num_players + 1)]


def agent_columns(num_players: int) -> list[str]:
    """The playout table's per-seat agent columns."""
    return [f"agent_p{p}" for p in range(1, num_players + 1)]


def _add_counts(into: dict, values) -> None:
    """Add the value counts of a column (1-D) or of rows (2-D, keyed by tuples) into a dict
    (rows holding NaN are left out). Each column is factorised by hashing (O(n), no sort)
    and a row is the mixed-radix number of its columns' codes."""
    values = np.asarray(values, dtype=float)
    columns = values[:, None] if values.ndim == 1 else values
    key = np.zeros(len(columns), dtype=np.int64)
    keep = np.ones(len(columns), dtype=bool)
    uniques = []
    for j in range(columns.shape[1]):
        codes, distinct = pd.factorize(columns[:, j])
        keep &= codes >= 0
        key = key * max(1, len(distinct)) + codes
        uniques.append(np.asarray(distinct, dtype=float))
    key = key[keep]
    if len(key) and int(key.max()) < 4 * len(key):     # few keys: counted, not sorted
        counts = np.bincount(key)
        keys = np.flatnonzero(counts)
        counts = counts[keys]
    else:
        keys, counts = np.unique(key, return_counts=True)
    for code, c in zip(keys.tolist(), counts.tolist()):
        parts = []
        for distinct in reversed(uniques):
            code, k = divmod(code, max(1, len(distinct)))
            parts.append(float(distinct[k]))
        k = tuple(reversed(parts)) if values.ndim == 2 else parts[0]
        into[k] = into.get(k, 0) + c


class ConfigStats:
    """What the summary of one configuration and matchup needs, accumulated batch by batch."""

    def __init__(self):
        self.n = 0
        self.players = 0
        self.seconds = 0.0
        self.turn_limit = np.nan
        self.means = {name: Moments() for name in MEAN_METRICS}
        self.not_timeouts = Moments()
        self.advantage = Moments()
        self.counts = {"Timeouts": 0, "Completion": 0, "Drawishness": 0}
        self.wins: dict[int, int] = {}
        self.turns: dict[float, int] = {}
        self.outcomes: dict[tuple, int] = {}
        self.agent_points: dict[str, Moments] = {}
        self.agent_wins: dict[str, int] = {}

    def add(self, rows: pd.DataFrame) -> "ConfigStats":
        """Take in a batch of this configuration's playout rows."""
        if rows.empty:
            return self
        self.n += len(rows)
        self.players = num_players = int(rows["players"].iloc[0])
        self.turn_limit = float(rows["turn_limit"].iloc[0])
        self.seconds += float(rows["seconds"].sum())
        for name, (column, _) in MEAN_METRICS.items():
            if column in rows:      # a table written before the column was: NaN, not an error
                self.means[name].add(rows[column].to_numpy(float))
        turns = rows["turns"].to_numpy(float)
        timeout = rows["timeout"].to_numpy(bool)
        self.not_timeouts.add(turns[~timeout])
        _add_counts(self.turns, turns)
        utilities = np.column_stack([rows[c].to_numpy(float)
                                     for c in utility_columns(num_players)])
        self.advantage.add((utilities[:, 0] + 1.0) / 2.0)
        _add_counts(self.outcomes, utilities)
        winner = rows["winner"].to_numpy(int)
        self.counts["Timeouts"] += int(timeout.sum())
        self.counts["Completion"] += int((winner != 0).sum())
        self.counts["Drawishness"] += int(np.all(utilities == 0.0, axis=1).sum())
        # A win is a first rank outright (u_p = 1): the winner, or every member of the team
        # that won (the engine ranks a winning team's members first together).
        for p, c in enumerate((utilities == 1.0).sum(axis=0), 1):
            self.wins[p] = self.wins.get(p, 0) + int(c)
        self._add_agents(*seat_codes(rows), utilities, winner)
        return self

    def _add_agents(self, seats: np.ndarray, names: list[str], utilities: np.ndarray,
                    winner: np.ndarray) -> None:
        """Points and outright wins of each agent of the matchup (`seats`: codes into `names`)."""
        if len(names) < 2 and not self.agent_points:
            return
        points = (utilities + 1.0) / 2.0
        for code, name in enumerate(names):
            held = seats == code
            share = (points * held).sum(axis=1) / np.maximum(held.sum(axis=1), 1)
            self.agent_points.setdefault(name, Moments()).add(share[held.any(axis=1)])
            won = np.zeros(len(winner), dtype=bool)
            for p in range(seats.shape[1]):
                won |= held[:, p] & (winner == p + 1)
            self.agent_wins[name] = self.agent_wins.get(name, 0) + int(won.sum())

    def metrics(self) -> dict:
        """Every metric with its interval, and the extra columns."""
        n = self.n
        if self.not_timeouts.n:
            turns_not_timeouts = self.not_timeouts.interval()
        else:
            turns_not_timeouts = (self.turn_limit, np.nan, np.nan)
        outcomes = sorted(self.outcomes)
        outcome_values = np.array(outcomes, dtype=float)
        outcome_counts = np.array([self.outcomes[k] for k in outcomes])
        values = {name: self.means[name].interval(MEAN_METRICS[name][1])
                  for name in MEAN_METRICS
                  if name not in OPTIONAL or self.means[name].n}
        values.update({
            "DurationTurnsStdDev": std_interval(self.turns),
            "DurationTurnsNotTimeouts": turns_not_timeouts,
            "Timeouts": wilson(self.counts["Timeouts"], n),
            "Completion": wilson(self.counts["Completion"], n),
            "Drawishness": wilson(self.counts["Drawishness"], n),
            "AdvantageP1": self.advantage.interval(SHARE),
            "Balance": bootstrap_counts(balance, outcome_values, outcome_counts),
            "OutcomeUniformity": bootstrap_counts(outcome_uniformity, outcome_values,
                                                  outcome_counts),
        })
        values = {name: values[name] for name in METRICS if name in values}
        for p in range(1, self.players + 1):
            values[f"win_share_p{p}"] = wilson(self.wins.get(p, 0), n)
        out = {"players": self.players, "n": n,
               "playouts_per_sec": n / self.seconds if self.seconds > 0 else np.nan}
        names = sorted(self.agent_points)
        for j, name in enumerate(names if len(names) > 1 else [], 1):
            out[f"agent{j}"] = name
            values[f"AgentScore{j}"] = self.agent_points[name].interval(SHARE)
            values[f"AgentWins{j}"] = wilson(self.agent_wins[name], n)
        for name, (value, low, high) in values.items():
            out[name] = value
            out[f"{name}_ci_low"] = low
            out[f"{name}_ci_high"] = high
        return out


def seat_codes(rows: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """The agent of each seat of each row (n x players) as codes into a list of names;
    "random" for tables without agent columns. All rows have the same number of players."""
    num_players = int(rows["players"].iloc[0])
    columns = agent_columns(num_players)
    if not all(c in rows.columns for c in columns):
        return np.zeros((len(rows), num_players), dtype=np.int64), ["random"]
    first = str(rows[columns[0]].iloc[0])
    if all(constant(rows[c], first) for c in columns):     # one agent in every seat
        return np.zeros((len(rows), num_players), dtype=np.int64), [first]
    codes, names = pd.factorize(pd.concat([rows[c].astype(str) for c in columns],
                                          ignore_index=True))
    return codes.reshape(num_players, len(rows)).T, list(names)


def constant(column: pd.Series, value) -> bool:
    """Every value of the column is `value` (a vectorised comparison, no hashing; a column of
    Arrow-backed strings, as pandas reads them, compared by Arrow itself in half of pandas'
    time: a batch of a large run checks a dozen such columns)."""
    if isinstance(value, str) and hasattr(column.array, "__arrow_array__"):
        import pyarrow as pa
        import pyarrow.compute as pc
        values = column.array.__arrow_array__()
        if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
            return values.null_count == 0 and pc.all(pc.equal(values, value)).as_py() is not False
    return bool((column == value).all())


def matchups(rows: pd.DataFrame) -> pd.Series:
    """Each row's matchup: its distinct agents, sorted, joined by " vs "."""
    out = pd.Series("", index=rows.index, dtype=object)
    for _, part in rows.groupby("players", sort=False):
        seats, names = seat_codes(part)
        masks = np.bitwise_or.reduce(np.left_shift(1, seats), axis=1)  # the set of agents
        distinct, inverse = np.unique(masks, return_inverse=True)
        labels = np.array([" vs ".join(sorted(n for k, n in enumerate(names) if m >> k & 1))
                           for m in distinct], dtype=object)
        out.loc[part.index] = labels[inverse]
    return out


def single_config(df: pd.DataFrame) -> tuple | None:
    """The key (game, ruleset, options, matchup) of a non-empty table whose rows are all one
    configuration and one matchup (a run's usual batch: found by comparing, not grouping),
    else None."""
    first = [df[c].iloc[0] for c in CONFIG_COLUMNS]
    if any(not isinstance(v, str) or not constant(df[c], v)
           for c, v in zip(CONFIG_COLUMNS, first)):
        return None
    if not constant(df["players"], df["players"].iloc[0]):
        return None
    _, names = seat_codes(df)
    return (*first, names[0]) if len(names) == 1 else None


def config_metrics(rows: pd.DataFrame) -> dict:
    """Every metric, its interval and the extra columns for one configuration's playouts."""
    return ConfigStats().add(rows).metrics()


# ---------------------------------------------------------------- whole tables

class Summary:
    """A summary built batch by batch: `add` playout rows in any order, then `table()`."""

    def __init__(self):
        self.configs: dict[tuple, ConfigStats] = {}

    def add(self, df: pd.DataFrame) -> "Summary":
        """Take in a batch of playout rows (any configurations)."""
        if df.empty:
            return self
        key = single_config(df)
        if key is not None:              # one configuration, one matchup: no grouping
            self.configs.setdefault(key, ConfigStats()).add(df)
            return self
        keys = [df[c] for c in CONFIG_COLUMNS] + [matchups(df)]
        for config, rows in df.groupby(keys, sort=False, dropna=False):
            self.configs.setdefault(tuple(config), ConfigStats()).add(rows)
        return self

    def table(self) -> pd.DataFrame:
        """One row per game/ruleset/options and matchup."""
        if not self.configs:
            raise ValueError("no playouts to summarize")
        records = [{**dict(zip(SUMMARY_KEYS, config)), **stats_.metrics()}
                   for config, stats_ in self.configs.items()]
        return pd.DataFrame.from_records(records)


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """One row per game/ruleset/options/matchup of a playout table: n, rate and every metric
    with its interval."""
    if df.empty:
        raise ValueError("no playouts to summarize")
    return Summary().add(df).table()


def check_run_count(folder: Path, rows: int) -> None:
    """Refuse a `ludeme run` folder whose playouts are not those its summary counts (a folder
    written by hand, or by two runs of an older ludeme): a LudemeError."""
    from ludeme.errors import LudemeError
    summary = Path(folder) / "summary.csv"
    if not summary.is_file():
        return
    try:
        counted = int(pd.read_csv(summary)["n"].sum())
    except Exception:
        return                                   # an unreadable summary is not the table
    if counted != rows:
        raise LudemeError(f"{folder}: its summary counts {counted:,} playouts but the folder "
                          f"holds {rows:,}: not one run's output")


def summarize_parquet(path: str | os.PathLike) -> pd.DataFrame:
    """The summary of a playout table stored as parquet (a file, or a directory of
    partitions), read one record batch at a time."""
    import pyarrow.dataset as ds
    path = Path(path)
    dataset = ds.dataset(str(path), format="parquet")
    if path.name in ("playouts", "playouts.parquet"):      # a `ludeme run` folder's table
        check_run_count(path.parent, dataset.count_rows())
    summary = Summary()
    for batch in dataset.to_batches(batch_size=100_000):
        summary.add(batch.to_pandas())
    return summary.table()
