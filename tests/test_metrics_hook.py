"""Metrics read from states go through one hook: a figure registered with `@per_state`
reaches the playout rows, the summary, `ludeme compare` and the backend selection."""

import pandas as pd
import pytest

from fake_game import FakeGame
from ludeme.analysis import compare
from ludeme.engine import figures
from ludeme.engine.compiled import KERNEL_FIGURES, Unsupported
from ludeme.engine.figures import SHARE, StateFigures, per_state, per_state_columns
from ludeme.analysis.metrics import summarize
from ludeme.analysis.playouts import play_one


@pytest.fixture
def full_board_figure():
    """A metric registered for the test: the share of states whose board is full."""

    class FullBoardFigures(StateFigures):
        columns = {"full_board": ("FullBoardShare", SHARE)}

        def __init__(self, game, state):
            self.full = self.states = 0

        def observe(self, state):
            what, _ = state.board_occupancy()
            self.states += 1
            self.full += 0 not in what

        def row(self, legal):
            return {"full_board": self.full / self.states}

    before = (list(figures.PER_STATE), list(figures.METRICS), dict(figures.MEAN_METRICS))
    per_state(FullBoardFigures)
    yield FullBoardFigures
    figures.PER_STATE[:] = before[0]
    figures.METRICS[:] = before[1]
    figures.MEAN_METRICS.clear()
    figures.MEAN_METRICS.update(before[2])


def full_board_share(game, seed):
    """The same figure the obvious way: replay the playout and look at every state."""
    import random
    rng = random.Random(seed)
    state = game.new_initial_state()
    full = [0 not in state.board_occupancy()[0]]
    while not state.is_terminal():
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
        full.append(0 not in state.board_occupancy()[0])
    return sum(full) / len(full)


def test_a_registered_figure_reaches_rows_summary_and_compare(full_board_figure):
    rows = [play_one(FakeGame(sites=3), seed, index=seed) for seed in range(40)]
    for seed, row in enumerate(rows):
        assert row["full_board"] == pytest.approx(full_board_share(FakeGame(sites=3), seed))
    assert "full_board" in per_state_columns()
    df = pd.DataFrame(rows)
    summary = summarize(df).iloc[0]
    assert summary["FullBoardShare"] == pytest.approx(df["full_board"].mean())
    assert 0.0 <= summary["FullBoardShare_ci_low"] <= summary["FullBoardShare_ci_high"] <= 1.0
    assert "FullBoardShare" in compare.metric_names([compare.Variant("a", df)])
    other = pd.DataFrame([play_one(FakeGame(sites=4), s, index=s) for s in range(40)])
    result = compare.compare_metric("FullBoardShare", df, other)
    assert result["estimate"] == pytest.approx(df["full_board"].mean()       # a - b
                                               - other["full_board"].mean())


def test_the_kernels_refuse_a_figure_they_do_not_compute(full_board_figure, ludii):
    from ludeme.api import load
    from ludeme.engine.compiled import select
    game = load(ludii / "games" / "Tic-Tac-Toe.lud")
    with pytest.raises(Unsupported, match="full_board"):
        select(game, "compiled")
    assert select(game, "auto") is None       # the reference engine plays it


def test_the_kernels_compute_every_registered_figure():
    assert set(per_state_columns()) <= set(KERNEL_FIGURES)
    assert [name for name, _ in figures.MEAN_METRICS.items()][:2] == ["DurationTurns",
                                                                      "DurationMoves"]


def occupancy_the_obvious_way(game, seed):
    """Board coverage, piece number and occupied share, replaying a playout state by state."""
    import random
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    n = game.containers[0].num_sites
    covered, pieces, occupied, states = set(), 0, 0, 0
    while True:
        what, on_board = state.board_occupancy()
        covered |= {s for s in range(n) if what[s]}
        pieces += on_board
        occupied += sum(1 for w in what if w)
        states += 1
        if state.is_terminal():
            break
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    return {"board_coverage": len(covered) / n, "piece_number": pieces / states,
            "board_sites_occupied": occupied / states / n}


@pytest.mark.parametrize("path,ruleset", [
    ("descriptions/adzua_children.lud", "Adzua (Children) (Ludii 5) (Reconstructed)"),  # hands
    ("descriptions/lines_of_action.lud", None),                                          # none
    ("descriptions/seesaw.lud", None),                                                  # stacks
])
def test_occupancy_figures_are_those_of_every_state(path, ruleset):
    from pathlib import Path
    from ludeme.analysis.playouts import load
    game = load(Path(__file__).resolve().parent.parent / path, (), ruleset)
    for seed in range(3):
        row = play_one(game, seed, index=seed)
        for column, value in occupancy_the_obvious_way(game, seed).items():
            assert row[column] == pytest.approx(value), (path, seed, column)


def test_occupancy_figures_read_kinds_numbered_past_255():
    class Game:
        containers = [type("Board", (), {"num_sites": 4})()]

    class State:
        what = [0, 300, 0, 256]
        count = [0, 1, 0, 1]

        def flat_board(self):
            return True

    fig = figures.OccupancyFigures(Game(), State())
    fig.observe(State())
    State.what = [0, 0, 7, 256]
    fig.observe(State())
    assert fig.row([1]) == {"board_coverage": 0.75, "board_coverage_full": 0.75, "piece_number": 2.0,
                            "board_sites_occupied": 0.5}
