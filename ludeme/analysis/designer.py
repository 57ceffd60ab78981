"""Ludii's two designer metrics (Evaluation module, `metrics.designer`): IdealDuration, with
turn bounds the designer gives, and SkillTrace, which plays matches of UCT agents of
growing strength (`ludeme designer`).

**IdealDuration** (Ludii's default bounds 0 and 1000 turns): per trial, with T its turns
(Ludii's `numTurns`, the row's `turns`), 1 when min <= T <= max, T / min below min and
1 - min(1, (T - max) / max) above max; the mean over trials, with a t interval.

**SkillTrace**: match k = 1..K (Ludii: K = 8) plays `trials` games (Ludii: 10) between UCT
with `2^k` iterations per legal move (the weak agent) and UCT with twice that (the strong
one), the strong agent taking seat 1, 2, ..., P in turn. A match's result is the mean of
the strong agent's utility (1 a win, -1 a loss, 0 a draw); the *curve* is the results of
the matches in order. The least-squares line through (k - 1, result) is extended to
x = K + 1 (Ludii's quirk: one step past the match after the last, whatever K is) and the
prediction y kept within [0, 1]; with A the sum over matches of max(result, 0),
SkillTrace = y + (1 - y) A / K (one match: a flat line through its result, where Ludii's
regression of one point gives NaN). Ludii stops adding matches after a time limit (300 s): so
does `seconds` here, and K is then the matches played. Intervals: each match's result a t
interval over its trials; the slope a t interval from the regression (K - 2 degrees of
freedom); SkillTrace a percentile bootstrap, resampling the trials within each match.

Every game is seeded from the run's seed and its index (`playout_seed`), so the curve is
the same on any machine with the same budgets (only `seconds` depends on its speed).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

DEFAULT_MATCHES = 8         # Ludii's numMatches
DEFAULT_TRIALS = 10         # Ludii's numTrialsPerMatch
DEFAULT_SECONDS = 300.0     # Ludii's hardTimeLimit
WEAK_START = 2              # Ludii's first weak budget: iterations per legal move


def ideal_duration_scores(turns, min_turns: float, max_turns: float) -> np.ndarray:
    """Ludii's IdealDuration score of each trial from its turns."""
    if not 0 <= min_turns <= max_turns or max_turns <= 0:
        raise ValueError("IdealDuration needs 0 <= min <= max and max > 0 turns")
    t = np.asarray(turns, dtype=float)
    score = np.ones_like(t)
    if min_turns > 0:
        below = t < min_turns
        score[below] = t[below] / min_turns
    above = t > max_turns
    score[above] = 1.0 - np.minimum(1.0, (t[above] - max_turns) / max_turns)
    return score


def ideal_duration(turns, min_turns: float, max_turns: float) -> tuple[float, float, float]:
    """IdealDuration: the mean score and its 95% t interval (kept within [0, 1])."""
    from .metrics import SHARE, mean_t
    return mean_t(ideal_duration_scores(turns, min_turns, max_turns), SHARE)


def skill_trace_value(results, num_matches: int) -> float:
    """Ludii's SkillTrace from the matches' results (the strong agent's mean utility each),
    `num_matches` being the matches asked for (the regression is extended to it + 1)."""
    results = [float(r) for r in results]
    m = len(results)
    if m == 0:
        return 0.0
    x = np.arange(m, dtype=float)
    if m > 1:
        slope, intercept = np.polyfit(x, results, 1)
    else:                       # one point: Ludii's regression gives a flat line through it
        slope, intercept = 0.0, results[0]
    y = min(max(intercept + slope * (num_matches + 1), 0.0), 1.0)
    area = sum(max(r, 0.0) for r in results)
    return y + (1.0 - y) * area / m


@dataclass
class SkillTrace:
    """A SkillTrace: per match, the budgets and the strong agent's utility in each game."""

    num_matches: int
    budgets: list[tuple[int, int]] = field(default_factory=list)   # (weak, strong) per match
    utilities: list[list[float]] = field(default_factory=list)     # per match, per game
    stopped: bool = False          # the time limit ended it before `num_matches`

    def results(self) -> list[float]:
        return [float(np.mean(u)) for u in self.utilities]

    def value(self) -> float:
        return skill_trace_value(self.results(), self.num_matches)

    def curve(self) -> list[tuple[float, float, float]]:
        """Each match's result with its 95% t interval."""
        from .metrics import mean_t
        return [mean_t(u, (-1.0, 1.0)) for u in self.utilities]

    def slope(self) -> tuple[float, float, float]:
        """The slope of the results against the match index, with its 95% t interval."""
        from scipy import stats
        results = self.results()
        if len(results) < 2:
            return (np.nan, np.nan, np.nan)
        fit = stats.linregress(np.arange(len(results)), results)
        if len(results) < 3:
            return (float(fit.slope), np.nan, np.nan)
        half = stats.t.ppf(0.975, len(results) - 2) * fit.stderr
        return (float(fit.slope), float(fit.slope - half), float(fit.slope + half))

    def interval(self, resamples: int = 2000, seed: int = 20240603) -> tuple[float, float, float]:
        """SkillTrace and its percentile bootstrap interval (the games of each match
        resampled)."""
        from .metrics import CONFIDENCE
        value = self.value()
        if not self.utilities or min(len(u) for u in self.utilities) < 2:
            return (value, np.nan, np.nan)
        rng = np.random.default_rng(seed)
        draws = []
        for _ in range(resamples):
            results = [float(np.mean(rng.choice(u, size=len(u)))) for u in self.utilities]
            draws.append(skill_trace_value(results, self.num_matches))
        alpha = (1.0 - CONFIDENCE) / 2.0
        low, high = np.quantile(draws, [alpha, 1.0 - alpha])
        return (value, float(low), float(high))


def skill_trace(game, seed: int = 0, matches: int = DEFAULT_MATCHES,
                trials: int = DEFAULT_TRIALS, seconds: float | None = DEFAULT_SECONDS,
                rollout: int | None = None, progress=None) -> SkillTrace:
    """Play Ludii's SkillTrace matches on `game`, move by move, on the game's backend (the
    compiled kernels' states where it has them: the agents choose the same moves on both,
    so the curve is the same, sooner). `progress(match, game)`, if given, is called after
    each game."""
    from ludeme.ai.agents import DEFAULT_ROLLOUT, ScaledUCTAgent, check_agents
    from ludeme.ai.evaluator import utilities as seat_utilities
    from ludeme.api import new_state
    from .playouts import playout_seed
    n = game.num_players
    if matches < 1 or trials < 1:
        raise ValueError("SkillTrace needs at least one match of at least one game")
    check_agents(game, [ScaledUCTAgent(1)])
    rollout = DEFAULT_ROLLOUT if rollout is None else rollout
    trace = SkillTrace(matches)
    start = time.perf_counter()
    weak = WEAK_START
    for k in range(matches):
        agents = {False: ScaledUCTAgent(weak, rollout=rollout),
                  True: ScaledUCTAgent(2 * weak, rollout=rollout)}
        strong_seat = 1
        utilities = []
        for i in range(trials):
            game_seed = playout_seed(seed, k * trials + i)
            rng = random.Random(game_seed)
            state = new_state(game, game_seed)
            while not state.is_terminal():
                agent = agents[state.player_order[state.mover] == strong_seat]
                state.apply(state.legal_moves()[agent.choose(state, rng)])
            # The strong agent's utility: its seat's rank (a cut game: the draw rank).
            utilities.append(seat_utilities(state)[strong_seat])
            strong_seat = strong_seat % n + 1
            if progress is not None:
                progress(k, i)
            if seconds is not None and time.perf_counter() - start > seconds:
                break
        if seconds is not None and time.perf_counter() - start > seconds:
            trace.stopped = True      # Ludii drops the unfinished match
            break
        trace.budgets.append((weak, 2 * weak))
        trace.utilities.append(utilities)
        weak *= 2
    return trace
