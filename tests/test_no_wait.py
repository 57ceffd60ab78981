"""A run on "auto" never waits for numba: it plays on the reference engine while the kernels
compile in another process, then on the kernels, and its rows are those of either backend."""

import sys

import pandas as pd
import pytest

from conftest import DESCRIPTIONS
from ludeme.analysis import playouts
from ludeme.analysis.playouts import WrittenRun, load, run_playouts
from ludeme.engine import compiled

# "auto" takes the kernels here, run as Python in the default suite (conftest)
pytestmark = pytest.mark.usefixtures("auto_takes_kernels")

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_5 = "Adzua (Children) (Ludii 5) (Reconstructed)"


class ReadyAfter:
    """A compile that ends after `polls` calls of `ready()` once begun, with the game's
    real kernels."""

    def __init__(self, game, polls: int, begun: bool = True):
        self.game, self.polls = game, polls
        self.asked = 0
        self.begun = begun
        self.cancelled = False
        self.seconds = 1.5
        self.load_seconds = 0.0

    def begin(self) -> None:
        self.begun = True

    def ready(self) -> bool:
        if not self.begun:
            return False
        self.asked += 1
        return self.asked > self.polls

    def kernels(self):
        return compiled.select(self.game, "compiled")

    def cancel(self) -> None:
        self.cancelled = True


@pytest.fixture
def adzua():
    return load(ADZUA, ruleset=ADZUA_5)


def _hybrid(monkeypatch, game, polls: int, begun: bool = True):
    fake = ReadyAfter(game, polls, begun)
    monkeypatch.setattr(compiled, "start", lambda g: fake)
    return fake


@pytest.mark.parametrize("jobs,polls", [(1, 7), (2, 3)])
def test_rows_while_compiling_are_the_reference_rows(monkeypatch, adzua, jobs, polls):
    ref = run_playouts(load(ADZUA, ruleset=ADZUA_5, backend="reference"), 300, 3, jobs=1,
                       progress=False)
    fake = _hybrid(monkeypatch, adzua, polls)
    got = run_playouts(adzua, 300, 3, jobs=jobs, progress=False)
    by = got.attrs["playouts_by_backend"]
    assert by["reference"] > 0 and by["compiled"] > 0 and sum(by.values()) == 300
    if jobs == 1:
        assert by["reference"] == polls        # one playout per poll, in index order
    assert got.attrs["backend"] == "compiled" and got.attrs["compiled_in_background"]
    assert fake.cancelled                      # always stopped (a no-op once it has ended)
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), ref.drop(columns="seconds"))
    # The game keeps the kernels: the next run uses them from the start.
    again = run_playouts(adzua, 20, 3, jobs=1, progress=False)
    assert again.attrs["playouts_by_backend"] == {"reference": 0, "compiled": 20}


def test_a_partition_of_both_backends_holds_the_reference_rows(monkeypatch, adzua, tmp_path):
    _hybrid(monkeypatch, adzua, 130)           # the switch falls inside the second partition
    seen = []
    run_playouts(adzua, 250, 4, jobs=1, progress=False, partitions=tmp_path,
                 partition_size=100, keep_rows=False, on_partition=seen.append)
    assert [len(p) for p in seen] == [100, 100, 50]
    stored = pd.read_parquet(tmp_path).sort_values("index").reset_index(drop=True)
    ref = run_playouts(load(ADZUA, ruleset=ADZUA_5), 250, 4, jobs=1, progress=False,
                       backend="reference")
    pd.testing.assert_frame_equal(stored.drop(columns="seconds"), ref.drop(columns="seconds"))


def test_a_run_that_ends_before_the_compile_stops_it(monkeypatch, adzua):
    fake = _hybrid(monkeypatch, adzua, 10**9)
    got = run_playouts(adzua, 40, 1, jobs=1, progress=False)
    assert got.attrs["playouts_by_backend"] == {"reference": 40, "compiled": 0}
    assert got.attrs["backend"] == "reference" and fake.cancelled


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_short_run_does_not_compile(monkeypatch, adzua, jobs):
    fake = _hybrid(monkeypatch, adzua, 0, begun=False)
    monkeypatch.setattr(playouts, "PROBE_SECONDS", 0.0)
    got = run_playouts(adzua, 60, 1, jobs=jobs, progress=False)
    assert not fake.begun and got.attrs["compile_skipped"]
    assert got.attrs["playouts_by_backend"] == {"reference": 60, "compiled": 0}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_long_run_begins_the_compile_once_it_has_timed_the_reference_engine(
        monkeypatch, adzua, jobs):
    fake = _hybrid(monkeypatch, adzua, 0, begun=False)
    monkeypatch.setattr(playouts, "PROBE_SECONDS", 0.0)
    monkeypatch.setattr(playouts, "COMPILE_PAYS_AFTER", 0.0)
    got = run_playouts(adzua, 200, 1, jobs=jobs, progress=False)
    assert fake.begun and got.attrs["compiled_in_background"]
    by = got.attrs["playouts_by_backend"]
    assert by["reference"] > 0 and by["compiled"] > 0


# The compile in another process, then numba's cache: tests/test_compiled.py's
# test_numba_compiles_the_main_jobs_kernels (numba's JIT is on there).


def test_a_stopped_compile_leaves_no_process(monkeypatch, tmp_path):
    monkeypatch.setenv("LUDEME_CACHE_DIR", str(tmp_path))
    job = compiled.start(load(ADZUA, ruleset=ADZUA_5))
    job.cancel()                               # not begun: nothing to stop
    assert not job.begun
    job.begin()
    job.cancel()
    assert job.proc.poll() is not None
    assert not compiled.ready_mark(job.path).exists()


def test_a_failed_compile_lets_the_reference_engine_play_on(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("LUDEME_CACHE_DIR", str(tmp_path))
    path, _ = compiled.module_file("raise RuntimeError('no machine code today')\n")
    job = compiled.Compiling(None, path)
    assert job.kernels() is None
    job.cancel()
    assert "no machine code today" in capsys.readouterr().err


def test_the_console_says_which_backend_played_how_many():
    def line(ref, fast, background=(), compile_seconds=0.0):
        return WrittenRun(None, None, [], ref + fast, 1.0, set(), compile_seconds, False, [],
                          {"reference": ref, "compiled": fast}, list(background)).backend_line()
    assert line(0, 50, compile_seconds=20.5) == "compiled backend, compiling 20.50 s of it"
    assert line(50, 0) == "reference backend"
    assert "not ready before the end" in line(50, 0, [0.0])
    skipped = WrittenRun(None, None, [], 50, 1.0, set(), 0.0, False, [],
                         {"reference": 50, "compiled": 0}, [], True).backend_line()
    assert skipped == "reference backend; too short a run to compile the kernels"
    assert line(30, 70, [12.25]) == ("30 on the reference engine while the kernels compiled "
                                     "(12.2 s), 70 compiled")


def test_the_warm_up_command_says_how_to_use_it(capsys):
    from ludeme.engine.compiled.warm import main
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err


def test_workers_read_the_built_game_and_its_kernels_without_building_again(
        monkeypatch, tmp_path):
    from ludeme.api import GameFile
    from ludeme.engine.compiled import codegen
    from ludeme.language import expand
    game = load(ADZUA, ruleset=ADZUA_5)
    kernels = compiled.select(game, "compiled")
    shipped = GameFile.write(game, tmp_path)
    assert isinstance(shipped, GameFile)

    def refuse(*args, **kwargs):
        raise AssertionError("a worker parsed or generated again")
    monkeypatch.setattr(expand, "expand_file", refuse)
    monkeypatch.setattr(codegen, "generate", refuse)
    monkeypatch.setattr(playouts, "_WORKER_GAMES", {})
    table = playouts._kernel_in_worker(shipped, 5, 0, 30, str(kernels.path))
    ref = run_playouts(game, 30, 5, jobs=1, progress=False, backend="reference")
    got = playouts.as_frame(table)
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), ref.drop(columns="seconds"))
    rows = playouts._play_in_worker(shipped, 5, [3, 4])
    assert [r["index"] for r in rows] == [3, 4]
    assert rows[0]["turns"] == ref["turns"][3]


def test_a_worker_keeps_a_bounded_number_of_games(monkeypatch, tmp_path):
    from ludeme.api import GameFile
    monkeypatch.setattr(playouts, "_WORKER_GAMES", {})
    game = load(ADZUA, ruleset=ADZUA_5)
    for k in range(playouts.WORKER_GAMES_KEPT + 3):
        folder = tmp_path / str(k)
        folder.mkdir()
        playouts.worker_game(GameFile.write(game, folder))
    assert len(playouts._WORKER_GAMES) == playouts.WORKER_GAMES_KEPT


def test_the_random_streams_are_checked_by_the_compile_not_before_a_short_run(
        monkeypatch, adzua, tmp_path):
    """The check that the kernels draw as Python's random module runs numba kernels of its
    own: `start` leaves it to the compiling process (or to kernels already compiled), and
    that process never marks kernels ready when the check fails."""
    from ludeme.engine.compiled import warm
    from ludeme.engine.compiled.unsupported import Unsupported
    monkeypatch.setenv("LUDEME_CACHE_DIR", str(tmp_path))

    def checked():
        raise AssertionError("the random streams were checked before the compile")
    monkeypatch.setattr(compiled, "_same_random", checked)
    got = compiled.start(adzua)
    assert isinstance(got, compiled.Compiling) and not got.begun
    monkeypatch.setattr(compiled, "_same_random", lambda: False)
    with pytest.raises(Unsupported, match="random module"):
        warm.main([str(got.path)])
    assert not compiled.ready_mark(got.path).exists()
