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
concepts` and the reports read. The compiled backend computes the same columns
in its kernels; a game whose registered columns the kernels do not provide is
played by the reference engine (`ludeme.engine.compiled.build_kernels` says which).

This module imports nothing heavy: worker processes play with it alone.
"""

from __future__ import annotations

SHARE = (0.0, 1.0)          # the range of metrics that are shares: their intervals stay inside

# Ludii's metric names, in the order of the summary table (the per-state ones are
# appended as their classes register).
METRICS = [
    "DurationTurns", "DurationTurnsStdDev", "DurationTurnsNotTimeouts", "DurationMoves",
    "Timeouts", "Completion", "Drawishness", "AdvantageP1", "Balance", "OutcomeUniformity",
]

# Columns that identify one configuration (game, ruleset, options) in the playout table;
# the summary adds the matchup of agents, `agents`.
CONFIG_COLUMNS = ("game", "ruleset", "options")
SUMMARY_KEYS = (*CONFIG_COLUMNS, "agents")

# Means of per-trial values: metric -> (column, bounds of its interval).
MEAN_METRICS = {
    "DurationTurns": ("turns", None),
    "DurationMoves": ("moves", None),
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


PER_STATE: list[type[StateFigures]] = []


def per_state(cls: type[StateFigures]) -> type[StateFigures]:
    """Class decorator: register per-state figures, and their columns' summary metrics."""
    PER_STATE.append(cls)
    for column, (name, bounds) in cls.columns.items():
        if name:
            METRICS.append(name)
            MEAN_METRICS[name] = (column, bounds)
    return cls


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
    }

    # Where pieces have stood is kept as an integer, one byte per site (little-endian): each
    # state's `what` list, read as bytes, is OR-ed into it, so a site's byte is non-zero once
    # a piece has stood on it. (A kind numbered past 255 is read as 1.)
    __slots__ = ("board_sites", "pieces", "empty", "covered", "observe")

    def __init__(self, game, state):
        n = self.board_sites = game.containers[0].num_sites
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
                "board_sites_occupied": 1.0 - self.empty / states / n}


def _as_int(what: list) -> int:
    """The list as an integer of one byte per item, little-endian (non-zero items stay
    non-zero)."""
    try:
        return int.from_bytes(bytes(what), "little")
    except ValueError:      # an item past 255
        return int.from_bytes(bytes(map(bool, what)), "little")
