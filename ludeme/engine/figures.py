"""Per-state figures: the one place a metric read from the states of a playout is added.

A metric whose per-trial value is read from the states of a playout is one
`StateFigures` class registered with `@per_state` (in `PER_STATE`): the playout
loop (`ludeme.analysis.playouts.play_one`) calls `observe(state)` on every state s0..sL
(a class that reads only the legal-move counts sets `observe = None` and is not
called per state), and the class's `row(legal)`, given the number of legal moves
in each of s0..s(L-1), gives its columns of the playout table. `columns` names
each column's summary metric (Ludii's name; the summary averages the per-trial
values with a t interval, kept within `bounds`), or None for a column the summary
does not average. Registering a class extends the playout rows, `METRICS` and
`MEAN_METRICS`, which the summary (`ludeme.analysis.metrics`), `ludeme compare`, `ludeme
concepts` and the reports read. The compiled backend computes the same columns in its
whole-playout kernel (`ludeme.engine.compiled.KERNEL_FIGURES` names them); a game whose
registered columns the kernels do not provide is played by the reference engine
(`ludeme.engine.compiled.build_kernels` says which). Move by move (agents), the compiled
states (`CompiledState`) have the state API the figures read.

This module imports nothing heavy: worker processes play with it alone.
"""

from __future__ import annotations

SHARE = (0.0, 1.0)          # the range of metrics that are shares: their intervals stay inside

# Ludii's metric names, in the order of the summary table (the per-state ones are
# appended as their classes register).
METRICS = [
    "DurationTurns", "DurationTurnsStdDev", "DurationTurnsNotTimeouts", "DurationMoves",
    "DurationActions", "Timeouts", "Completion", "Drawishness", "AdvantageP1", "Balance", "OutcomeUniformity",
]

# Columns that identify one configuration (game, ruleset, options) in the playout table;
# the summary adds the matchup of agents, `agents`.
CONFIG_COLUMNS = ("game", "ruleset", "options")
SUMMARY_KEYS = (*CONFIG_COLUMNS, "agents")

# Means of per-trial values: metric -> (column, bounds of its interval).
MEAN_METRICS = {
    "DurationTurns": ("turns", None),
    "DurationMoves": ("moves", None),
    "DurationActions": ("actions", None),
}


class StateFigures:
    """Per-trial values taken from every state of one playout."""

    columns: dict[str, tuple[str | None, tuple | None]] = {}
    __slots__ = ("game",)

    def __init__(self, game, state):
        self.game = game

    def observe(self, state) -> None:
        """Take in a state (each of s0..sL, in order); None for a class that reads none."""
        raise NotImplementedError

    def row(self, legal: list[int]) -> dict:
        """This playout's columns; `legal`: the number of legal moves in each of s0..s(L-1)."""
        raise NotImplementedError

    # `played(game, move)`, in a class that reads the decisions: called after each is applied.
    played = None


PER_STATE: list[type[StateFigures]] = []


def per_state(cls: type[StateFigures]) -> type[StateFigures]:
    """Class decorator: register per-state figures, and their columns' summary metrics."""
    PER_STATE.append(cls)
    for column, (name, bounds) in cls.columns.items():
        if name:
            METRICS.append(name)
            MEAN_METRICS[name] = (column, bounds)
    return cls


# Metrics computed only when asked for (`ludeme run --evaluation-metrics`): a summary has
# them when its rows have their columns, and leaves them out otherwise.
OPTIONAL: set[str] = set()


def optional_metrics(columns: dict[str, tuple[str | None, tuple | None]]) -> None:
    """Register the columns of figures computed on request (not in PER_STATE, so not in
    every playout nor in the kernels) and their summary metrics, as `per_state` does."""
    for column, (name, bounds) in columns.items():
        if name and name not in MEAN_METRICS:
            METRICS.append(name)
            MEAN_METRICS[name] = (column, bounds)
            OPTIONAL.add(name)


def per_state_columns() -> tuple[str, ...]:
    """The playout-table columns of every registered per-state figure."""
    return tuple(c for cls in PER_STATE for c in cls.columns)


@per_state
class LegalMoveFigures(StateFigures):
    """Ludii's branching and decision metrics, from the legal moves of s0..s(L-1)."""

    columns = {
        "branching_factor": ("BranchingFactorAverage", None),
        "decisions_multi": (None, None),
        "decision_moves": ("DecisionMoves", SHARE),
        "decision_factor": ("DecisionFactorAverage", None),
    }

    observe = None          # the legal-move counts are all it reads
    __slots__ = ()

    def row(self, legal):
        d = len(legal)
        total, ones = sum(legal), legal.count(1)
        m = d - ones - legal.count(0)           # decisions with more than one legal move
        return {"branching_factor": total / d if d else 0.0,
                "decisions_multi": m,
                "decision_moves": m / d if d else 0.0,
                "decision_factor": (total - ones) / m if m else 0.0}


@per_state
class OccupancyFigures(StateFigures):
    """Ludii's board coverage, piece number and occupied sites, from every state s0..sL."""

    columns = {
        "board_coverage": ("BoardCoverageDefault", SHARE),
        "piece_number": ("PieceNumberAverage", None),
        "board_sites_occupied": ("BoardSitesOccupiedAverage", SHARE),
        "board_coverage_full": ("BoardCoverageFull", SHARE),
    }

    # Where pieces have stood is kept as an integer, one byte per site (little-endian): each
    # state's `what` list, read as bytes, is OR-ed into it, so a site's byte is non-zero once
    # a piece has stood on it. (A kind numbered past 255 is read as 1.)
    __slots__ = ("board_sites", "elements", "pieces", "empty", "covered", "observe")

    def __init__(self, game, state):
        n = self.board_sites = game.containers[0].num_sites
        # Pieces stand on the default site type only, so Full counts those sites' coverage
        # over every vertex, edge and cell.
        # (A stand-in game without a board graph: its sites.)
        board = getattr(game, "board", None)
        self.elements = board.num_elements() if hasattr(board, "num_elements") else n
        self.pieces = 0                      # pieces on the board, summed over the states
        self.empty = 0                       # empty board sites, summed over the states
        self.covered = 0                     # per site, a non-zero byte where a piece has been
        # A state whose top-level lists hold the board's pieces as counts (the reference
        # engine's, in a game without stacks) is read in place, without copies.
        flat = getattr(state, "flat_board", None)
        if flat is None or not flat():
            self.observe = self._observe_occupancy
        elif len(state.what) == n:
            self.observe = self._observe_board
        else:
            self.observe = self._observe_lists

    def _observe_occupancy(self, state):
        what, pieces = state.board_occupancy()
        self.pieces += pieces
        self.empty += what.count(0)
        self.covered |= _as_int(what)

    def _observe_board(self, state):
        """`observe` for a state whose lists are the board's sites alone."""
        what = state.what
        self.pieces += sum(state.count)
        self.empty += what.count(0)
        try:                # _as_int, without the call
            self.covered |= int.from_bytes(bytes(what), "little")
        except ValueError:
            self.covered |= _as_int(what)

    def _observe_lists(self, state):
        """`observe` for a state whose lists hold the board's sites, then others (hands)."""
        what, n = state.what, self.board_sites
        self.pieces += sum(state.count[:n])
        self.empty += what.count(0) - what[n:].count(0)
        try:                # _as_int, without the call
            self.covered |= int.from_bytes(bytes(what), "little")
        except ValueError:
            self.covered |= _as_int(what)

    def row(self, legal):
        n, states = self.board_sites, len(legal) + 1       # s0..sL
        size = max(n, (self.covered.bit_length() + 7) // 8)
        uncovered = self.covered.to_bytes(size, "little")[:n].count(0)
        return {"board_coverage": (n - uncovered) / n,
                "piece_number": self.pieces / states,
                "board_sites_occupied": 1.0 - self.empty / states / n,
                "board_coverage_full": (n - uncovered) / self.elements}


def _as_int(what: list) -> int:
    """The list as an integer of one byte per item, little-endian (non-zero items stay
    non-zero)."""
    try:
        return int.from_bytes(bytes(what), "little")
    except ValueError:      # an item past 255
        return int.from_bytes(bytes(map(bool, what)), "little")


# ---------------------------------------------------------------- Ludii's multi-metrics
# Ludii's MultiMetricFramework turns a list per trial into one of eleven aggregates, then
# averages over trials. The names below are Ludii's Concept names; BranchingFactor keeps
# Ludii's spelling of three of them.

AGGREGATES = ("Average", "Median", "Maximum", "Minimum", "Variance", "ChangeAverage",
              "ChangeSign", "ChangeLineBestFit", "ChangeNumTimes", "MaxIncrease", "MaxDecrease")
_SPELLING = {("BranchingFactor", "ChangeNumTimes"): "BranchingFactorChangeNumTimesn",
             ("BranchingFactor", "MaxIncrease"): "BranchingFactorChangeMaxIncrease",
             ("BranchingFactor", "MaxDecrease"): "BranchingFactorChangeMaxDecrease"}


def aggregate_name(series: str, aggregate: str) -> str:
    """Ludii's concept name of one aggregate of one series ("PieceNumberMedian")."""
    return _SPELLING.get((series, aggregate), series + aggregate)


def aggregates(values: list) -> dict[str, float]:
    """Ludii's eleven aggregates of one trial's list, with Ludii 1.3.12's quirks: Median is
    the sorted element at len // 2 (0 when len <= 1); Maximum and Minimum run from 0, so
    Minimum of a non-negative list is 0; Variance divides by len; the Change* aggregates,
    MaxIncrease and MaxDecrease are 0 when len <= 1; ChangeNumTimes adds 1 / (len - 1) in
    integer arithmetic per change of direction, so it is 0 unless len is 2."""
    n = len(values)
    out = dict.fromkeys(AGGREGATES, 0.0)
    if n == 0:
        return out
    mean = sum(values) / n
    out["Average"] = mean
    out["Maximum"] = max(0.0, max(values))
    out["Minimum"] = min(0.0, min(values))
    if n <= 1:
        return {k: float(v) for k, v in out.items()}
    out["Median"] = float(sorted(values)[n // 2])
    out["Variance"] = sum((v - mean) ** 2 for v in values) / n
    out["ChangeAverage"] = (values[-1] - values[0]) / (n - 1)
    steps = [b - a for a, b in zip(values, values[1:])]
    out["ChangeSign"] = sum((s > 0) - (s < 0) for s in steps) / (n - 1)
    xbar = (n - 1) / 2
    sxx = sum((i - xbar) ** 2 for i in range(n))
    out["ChangeLineBestFit"] = sum((i - xbar) * (v - mean) for i, v in enumerate(values)) / sxx
    changes, direction = 0, 0
    for s in steps:
        d = (s > 0) - (s < 0)
        if d != 0 and d != direction:
            changes += 1
        direction = d
    out["ChangeNumTimes"] = float(changes * (1 // (n - 1)))
    out["MaxIncrease"] = max(0.0, max(steps))
    out["MaxDecrease"] = min(0.0, min(steps))
    return {k: float(v) for k, v in out.items()}    # floats whatever the list held


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


# The series of Ludii's multi-metrics read here, and the Average columns registered before
# (LegalMoveFigures, OccupancyFigures), which keep their columns.
SERIES = ("PieceNumber", "BoardSitesOccupied", "BranchingFactor", "DecisionFactor",
          "MoveDistance", "ScoreDifference")
_AVERAGE_COLUMNS = {"PieceNumber": "piece_number", "BoardSitesOccupied": "board_sites_occupied",
                    "BranchingFactor": "branching_factor", "DecisionFactor": "decision_factor"}


def series_column(series: str, aggregate: str) -> str:
    """The playout column of one aggregate of one series ("piece_number_median"), or the
    column registered before for an Average (`piece_number`)."""
    if aggregate == "Average" and series in _AVERAGE_COLUMNS:
        return _AVERAGE_COLUMNS[series]
    return f"{_snake(series)}_{_snake(aggregate)}"


def series_columns() -> dict[str, tuple[str, None]]:
    """Column -> (metric, bounds) of every aggregate not registered before."""
    return {series_column(s, a): (aggregate_name(s, a), None)
            for s in SERIES for a in AGGREGATES
            if not (a == "Average" and s in _AVERAGE_COLUMNS)}


@per_state
class SeriesFigures(StateFigures):
    """The lists of Ludii's multi-metrics, and their aggregates per trial.

    PieceNumber (s0..sL): pieces on the board (State.board_occupancy). BoardSitesOccupied
    (s0..sL): the share of board sites holding a piece. BranchingFactor (s0..s(L-1)): the
    legal moves; DecisionFactor: those entries above 1. MoveDistance: per decision from a
    board site to another board site, the number of Adjacent steps between them (0 when
    none joins them; Ludii skips placements, from == to, and moves into or out of hands).
    ScoreDifference (s0..sL): the largest gap between two players' scores.
    """

    columns = series_columns()
    __slots__ = ("n", "pieces", "occupied", "scores", "distances", "rings", "observe")

    def __init__(self, game, state):
        self.n = game.containers[0].num_sites
        self.pieces: list[int] = []
        self.occupied: list[float] = []
        self.scores: list[int] = []
        self.distances: list[int] = []
        self.rings = None
        self.observe = self._observe

    def _observe(self, state):
        what, pieces = state.board_occupancy()
        self.pieces.append(pieces)
        self.occupied.append((self.n - list(what).count(0)) / self.n)
        scores = list(state.scores)[1:]
        self.scores.append(max(scores) - min(scores) if len(scores) > 1 else 0)

    def played(self, game, move) -> None:
        """Take in a decision just applied (its from and to)."""
        frm, to, n = move.frm, move.to, self.n
        if 0 <= frm < n and 0 <= to < n and frm != to:
            if self.rings is None:
                self.rings = game.board.default.distance_rings("Adjacent")
            for k, ring in enumerate(self.rings[frm]):
                if to in ring:
                    self.distances.append(k)
                    break
            else:
                self.distances.append(0)

    def row(self, legal):
        lists = {"PieceNumber": self.pieces, "BoardSitesOccupied": self.occupied,
                 "BranchingFactor": legal, "DecisionFactor": [k for k in legal if k > 1],
                 "MoveDistance": self.distances, "ScoreDifference": self.scores}
        out = {}
        for series, values in lists.items():
            for a, v in aggregates(values).items():
                column = series_column(series, a)
                if column in self.columns:
                    out[column] = v
        return out


@per_state
class RepetitionFigures(StateFigures):
    """Ludii's PositionalRepetition and SituationalRepetition. Ludii means 1 - distinct /
    total over the hashes of s0..sL but divides integers, so a trial gives 1 when any
    position repeats and 0 otherwise: the metric is the share of trials with a repeat."""

    columns = {"positional_repetition": ("PositionalRepetition", SHARE),
               "situational_repetition": ("SituationalRepetition", SHARE)}
    __slots__ = ("positions", "situations", "states")

    def __init__(self, game, state):
        self.positions, self.situations, self.states = set(), set(), 0

    def observe(self, state):
        self.states += 1
        position = state.position_key()
        self.positions.add(hash(position))
        self.situations.add(hash(state.situation_key(position)))

    def row(self, legal):
        return {"positional_repetition": float(len(self.positions) < self.states),
                "situational_repetition": float(len(self.situations) < self.states)}


# ---------------------------------------------------------------- figures a game fixes
# Columns every row has, from the game and the per-state figures above rather than from the
# states (`ludeme.analysis.game_figures` computes them, for both backends' rows alike).
GAME_COLUMNS = {"board_coverage_used": ("BoardCoverageUsed", SHARE),
                "state_tree_complexity": ("StateTreeComplexity", None)}
for _column, (_name, _bounds) in GAME_COLUMNS.items():
    METRICS.append(_name)
    MEAN_METRICS[_name] = (_column, _bounds)
