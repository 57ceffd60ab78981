"""Ludii's state-evaluation metrics (Evaluation module, `metrics.single.stateEvaluation` and
three multi-metrics), computed per playout on request (`ludeme run --evaluation-metrics`).

Each reads Ludii's heuristic evaluation of states and moves (`ludeme.ai.evaluator`: the
default heuristics, Material + 0.001 MobilitySimple, through tanh). A trial is one
playout with decisions m1..mL from s0; `E_i(p)` is player p's evaluation of the state
before decision i+1 (s0..s(L-1)), `M_i` the evaluations of every legal move there (each the
state after the move, for its mover). The *highest ranked players* are read, as Ludii reads
them, from the utilities of the state the replay starts from, s0, where nobody is ranked:
so they are every player (Ludii's quirk; it reads them before replaying the trial).

Their definitions, with Ludii's quirks, are rows of the table in `ludeme.analysis.metrics`
(Narrowness to StateEvaluationDifference*), the one the reports print.

The lists get Ludii's eleven aggregates (`ludeme.engine.figures.aggregates`). The metrics
cost the evaluation of every legal move of every state: each playout with them is played on
the reference engine, move by move.
"""

from __future__ import annotations

from ludeme.ai.evaluator import evaluate_all, evaluate_move, utilities
from ludeme.engine.figures import (AGGREGATES, SHARE, aggregate_name, aggregates,
                                  optional_metrics, series_column)

EVALUATION_SERIES = ("Drama", "MoveEvaluation", "StateEvaluationDifference")


def evaluation_columns() -> dict[str, tuple[str, tuple | None]]:
    """Column -> (Ludii's metric name, bounds of its interval) of every evaluation metric."""
    columns = {"narrowness": ("Narrowness", SHARE), "clarity_variance": ("Variance", None),
               "decisiveness_threshold": ("DecisivenessThreshold", None),
               "decisiveness_moves": ("DecisivenessMoves", SHARE),
               "lead_change": ("LeadChange", SHARE), "stability": ("Stability", None)}
    for series in EVALUATION_SERIES:
        for a in AGGREGATES:
            columns[series_column(series, a)] = (aggregate_name(series, a), None)
    return columns


COLUMNS = evaluation_columns()
optional_metrics(COLUMNS)


def _variance(values: list[float]) -> float:
    """Population variance (0 for an empty list)."""
    if not values:
        return 0.0
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


class EvaluationFigures:
    """The state-evaluation metrics of one playout, from the states as they are played
    (`observe` each of s0..sL, `played` after each decision): the per-playout lists only,
    nothing kept across playouts."""

    columns = COLUMNS

    def __init__(self, game, state):
        self.n = game.num_players
        start = utilities(state)
        best = max(start[1:])
        self.highest = [p for p in range(1, self.n + 1) if start[p] == best]
        self.decisions = 0
        self.narrow: list[float] = []
        self.variance: list[float] = []
        self.evaluations: list[list[float]] = []     # E_i, s0..s(L-1)
        self.differences: list[float] = []           # s0..sL
        self.drama: list[float] = []
        self.moves: list[float] = []
        self.leaders_changed = 0
        self.leaders: set | None = None
        self._legal: list = []
        self._move_values: list[float] = []

    def observe(self, state) -> None:
        """Take in a state: its players' evaluations and, before a decision, its moves'."""
        values = evaluate_all(state)
        self.differences.append(max((abs(values[a] - values[b])
                                     for a in range(1, self.n + 1)
                                     for b in range(a + 1, self.n + 1)), default=0.0))
        if state.is_terminal():
            return
        self.evaluations.append(values)
        top = max(values)
        self.drama.append(sum((top - values[p]) / len(self.highest) for p in self.highest))
        leaders = {p for p in range(1, self.n + 1) if values[p] == top}
        if leaders != self.leaders:
            self.leaders_changed += 1
        self.leaders = leaders
        legal = self._legal = state.legal_moves()
        moves = self._move_values = [evaluate_move(state, m) for m in legal]
        mean = sum(moves) / len(moves)
        threshold = mean + 0.75 * (max(moves) - mean)
        above = sum(1 for v in moves if v > threshold)
        self.narrow.append(float(above // len(moves)))     # Ludii's integer division
        self.variance.append(_variance(moves))

    def played(self, game, move) -> None:
        """Take in the decision just played (one of the legal moves observed last)."""
        self.decisions += 1
        for m, v in zip(self._legal, self._move_values):
            if m is move:
                self.moves.append(v)
                return
        raise ValueError("the decision played is not among the legal moves observed")

    def row(self, legal=None) -> dict:
        """This playout's columns."""
        L = self.decisions
        threshold = -1.0
        for values in self.evaluations:
            for p in range(1, self.n + 1):
                if values[p] > threshold and p not in self.highest:
                    threshold = values[p]
        first = L
        for i, values in enumerate(self.evaluations):
            if any(values[p] > threshold for p in self.highest):
                first = i
                break
        out = {
            "narrowness": sum(self.narrow) / L if L else 0.0,
            "clarity_variance": sum(self.variance) / L if L else 0.0,
            "decisiveness_threshold": threshold,
            "decisiveness_moves": float(first // L) if L else 0.0,
            "lead_change": self.leaders_changed / L if L else 0.0,
            "stability": sum(_variance([v[p] for v in self.evaluations])
                             for p in range(1, self.n + 1)),
        }
        for series, values in (("Drama", self.drama), ("MoveEvaluation", self.moves),
                               ("StateEvaluationDifference", self.differences)):
            for a, v in aggregates(values).items():
                out[series_column(series, a)] = v
        return out
