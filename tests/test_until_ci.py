"""`ludeme run --until-ci WIDTH`: batches that are prefixes of one seed sequence, stopped once
the chosen intervals are narrow enough or at the cap (`ludeme.analysis.precision`)."""

import json
import math

import pandas as pd
import pytest

from conftest import DESCRIPTIONS
from fake_game import FakeGame
from ludeme.analysis import playouts as runner
from ludeme.analysis.precision import FIRST_BATCH, Target, UntilCI, parse_targets
from ludeme.analysis.playouts import run_playouts
from ludeme.cli.common import EXIT_INTERRUPTED
from ludeme.cli.main import main
from ludeme.errors import LudemeError

# "auto" takes the kernels here, run as Python in the default suite (conftest)
pytestmark = pytest.mark.usefixtures("auto_takes_kernels")


@pytest.mark.parametrize("width, metrics, expected", [
    ("0.05", None, [Target("win_shares", 0.05), Target("Drawishness", 0.05),
                    Target("Balance", 0.05)]),
    ("5%", "DurationTurns", [Target("DurationTurns", 0.05, True)]),
    ("0.1", "Balance=0.02, DurationTurns=10%,win_share_p3",
     [Target("Balance", 0.02), Target("DurationTurns", 0.1, True), Target("win_share_p3", 0.1)]),
    ("0", None, "expected a positive width"),
    ("-0.1", None, "expected a positive width"),
    ("wide", None, "expected a positive width"),
    ("nan", None, "expected a positive width"),
    ("0.1", "Balanse", "did you mean 'Balance'"),
    ("0.1", "win_share_p0", "unknown metric 'win_share_p0'"),
    ("0.1", "Balance=x", "--metrics Balance= 'x'"),
])
def test_targets_are_parsed_or_refused(width, metrics, expected):
    if isinstance(expected, str):
        with pytest.raises(LudemeError, match=expected.replace("(", r"\(")):
            parse_targets(width, metrics)
    else:
        assert parse_targets(width, metrics) == expected


@pytest.mark.parametrize("played, ratio, cap, expected", [
    (100, 1.05, 10_000, 200),            # at least one first batch more
    (100, 3.0, 10_000, 400),             # at most four times the playouts so far
    (400, 1.5, 10_000, 1000),            # 400 x 1.5^2 x 1.1 = 990, rounded up to 100s
    (100, math.inf, 10_000, 200),        # an undefined interval: doubled
    (100, 3.0, 250, 250),                # never past the cap
    (200_000, 3.0, 10**6, 250_000),      # a batch holds at most MAX_BATCH playouts
])
def test_the_next_batch_end(played, ratio, cap, expected):
    tracker = UntilCI([Target("Balance", 0.05)], cap, played=played)
    assert tracker.plan(ratio) == expected


def until_run(game, width, cap, metrics=None, jobs=1, **kw):
    tracker = UntilCI(parse_targets(width, metrics), cap)
    return run_playouts(game, cap, seed=5, jobs=jobs, until=tracker, **kw), tracker


def widths(summary: pd.DataFrame, columns) -> dict:
    return {c: float(summary[f"{c}_ci_high"].iloc[0] - summary[f"{c}_ci_low"].iloc[0])
            for c in columns}


# One site: the first player fills the board at once, every playout the same.
@pytest.mark.parametrize("width, metrics", [("0.05", None), ("1%", "DurationTurns,Balance")])
def test_a_deterministic_game_stops_after_the_first_batch(width, metrics):
    df, tracker = until_run(FakeGame(sites=1), width, 10_000, metrics)
    assert (tracker.stopped_by, tracker.played, len(df)) == ("width", FIRST_BATCH, FIRST_BATCH)


def test_a_random_game_stops_when_the_summary_intervals_are_narrower_than_asked():
    from ludeme.analysis.metrics import summarize
    df, tracker = until_run(FakeGame(sites=4, max_turns=6), "0.06", 20_000)
    assert tracker.stopped_by == "width" and FIRST_BATCH < len(df) < 20_000
    got = widths(summarize(df), ["win_share_p1", "win_share_p2", "Drawishness", "Balance"])
    assert max(got.values()) < 0.06, got
    assert tracker.widest[0] in got and tracker.widest[1] == pytest.approx(max(got.values()))
    # The batch before was not enough: it had a wider interval.
    assert tracker.ends[-1] == len(df) and len(tracker.ends) > 1
    before = summarize(df[df["index"] < tracker.ends[-2]])
    assert max(widths(before, got).values()) >= 0.06


def test_the_rows_are_a_fixed_runs_prefix_on_any_number_of_processes():
    game = FakeGame(sites=4, max_turns=6)
    one, t1 = until_run(game, "0.1", 5_000, jobs=1)
    two, t2 = until_run(game, "0.1", 5_000, jobs=2)
    fixed = run_playouts(game, len(one), seed=5, jobs=1)
    assert t1.played == t2.played == len(one)
    for other in (two, fixed):
        pd.testing.assert_frame_equal(one.drop(columns="seconds"),
                                      other.drop(columns="seconds"))


def test_the_cap_stops_a_run_and_says_the_widest_interval():
    df, tracker = until_run(FakeGame(sites=4, max_turns=6), "0.001", 250)
    assert (tracker.stopped_by, len(df)) == ("cap", 250)
    column, width, target = tracker.widest
    assert width > 0.001 and target.metric in ("win_shares", "Drawishness", "Balance")


# Tic-tac-toe, written here: three in a row on a 3 x 3 board.
TTT = ('(game "Tac" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
       '(rules (play (move Add (to (sites Empty)))) (end {(if (is Line 3) (result Mover Win)) '
       '(if (is Full) (result Mover Draw))})))\n')


def cli_run(monkeypatch, tmp_path, argv, game=None, partition=None):
    """`ludeme run` of tic-tac-toe on the reference engine (or of a fake `game`), with
    partitions of `partition` playouts."""
    lud = tmp_path / "tac.lud"
    lud.write_text(TTT)
    if game is not None:
        monkeypatch.setattr(runner, "load", lambda *a, **k: game)
    if partition:
        monkeypatch.setattr(runner, "PARTITION_SIZE", partition)
    out = tmp_path / "out"
    code = main(["run", str(lud), "--jobs", "1", "--no-progress", "--backend", "reference",
                 "--out", str(out), *argv])
    return code, out


def folder_rows(out):
    table = out / "playouts" if (out / "playouts").is_dir() else out / "playouts.parquet"
    return pd.read_parquet(table)


@pytest.mark.parametrize("partition", [None, 150])
def test_the_folder_says_what_stopped_the_run(monkeypatch, tmp_path, capsys, partition):
    code, out = cli_run(monkeypatch, tmp_path, ["--until-ci", "0.08", "-n", "3000"],
                         partition=partition)
    assert code == 0
    rows = folder_rows(out)
    n = len(rows)
    assert sorted(rows["index"]) == list(range(n)) and FIRST_BATCH < n < 3000
    assert (out / "playouts").is_dir() == (partition is not None)
    assert int(pd.read_csv(out / "summary.csv")["n"].sum()) == n
    record = json.loads((out / "run.json").read_text())["until_ci"]
    assert record["cap"] == 3000 and record["targets"] == {
        "win_shares": "0.08", "Drawishness": "0.08", "Balance": "0.08"}
    [stop] = record["stops"]
    assert stop["stopped_by"] == "width" and stop["playouts"] == n and stop["width"] < 0.08
    said = f"stopped after {n:,} playouts, every interval narrow enough"
    assert said in capsys.readouterr().out
    assert said in (out / "summary.md").read_text()
    assert said in (out / "report.html").read_text()


@pytest.mark.parametrize("partition, kept", [(None, 250), (100, 200)])
def test_ctrl_c_leaves_one_consistent_folder(monkeypatch, tmp_path, capsys, partition, kept):
    code, out = cli_run(monkeypatch, tmp_path, ["--until-ci", "0.001", "-n", "5000"],
                         game=FakeGame(sites=4, interrupt_after=250), partition=partition)
    assert code == EXIT_INTERRUPTED
    rows = folder_rows(out)
    assert sorted(rows["index"]) == list(range(kept))      # whole partitions when partitioned
    assert int(pd.read_csv(out / "summary.csv")["n"].sum()) == kept
    run = json.loads((out / "run.json").read_text())
    assert run["interrupted"] is True
    [stop] = run["until_ci"]["stops"]
    assert (stop["stopped_by"], stop["playouts"], stop["checked_at"]) == ("interrupted", kept,
                                                                          FIRST_BATCH)
    assert f"at the last check, after {FIRST_BATCH} playouts" in (out / "summary.md").read_text()
    assert f"kept the {kept} playouts" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--metrics", "Balance"], "give --until-ci WIDTH too"),
    (["--until-ci", "0"], "expected a positive width"),
    (["--until-ci", "0.1", "--metrics", "Balanse"], "did you mean 'Balance'"),
])
def test_the_cli_refuses_bad_until_ci_arguments(argv, message, capsys):
    assert main(["run", str(DESCRIPTIONS / "adzua_children.lud"), *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_both_backends_stop_at_the_same_playout_with_the_same_rows(tmp_path, capsys):
    """The compiled kernels (compiled here if numba's cache lacks them) and the reference
    engine play the same rows, so an until-ci run stops at the same playout on either."""
    rows = {}
    for backend in ("reference", "compiled"):
        out = tmp_path / backend
        assert main(["run", str(DESCRIPTIONS / "adzua_children.lud"), "--until-ci", "0.15",
                     "-n", "3000", "--jobs", "2", "--backend", backend, "--no-progress",
                     "--out", str(out)]) == 0
        rows[backend] = pd.read_parquet(out / "playouts.parquet").drop(columns="seconds")
        assert json.loads((out / "run.json").read_text())["playouts_by_backend"][backend] \
            == len(rows[backend])
    assert FIRST_BATCH < len(rows["compiled"]) < 3000
    pd.testing.assert_frame_equal(rows["reference"], rows["compiled"])


class LateCompile:
    """A background compile (`ludeme.engine.compiled.Compiling`) that ends once the first
    batch has been checked; its kernels are the game's real ones."""

    begun = True
    seconds = load_seconds = 0.0

    def __init__(self, kernels, tracker):
        self.compiled, self.tracker, self.cancelled = kernels, tracker, False

    def begin(self):
        pass

    def ready(self):
        return self.tracker.played >= FIRST_BATCH

    def kernels(self):
        return self.compiled

    def cancel(self):
        self.cancelled = True


@pytest.mark.parametrize("jobs", [1, 2])
def test_kernels_compiled_during_a_batch_play_the_next_ones_with_the_same_rows(monkeypatch,
                                                                               jobs):
    """On "auto" the reference engine plays while the kernels compile; a compile that ends
    between batches is not stopped with the batch, and the kernels play the batches after."""
    from ludeme.api import load
    from ludeme.engine import compiled
    game = load(DESCRIPTIONS / "adzua_children.lud", backend="auto")
    tracker = UntilCI(parse_targets("0.15", None), 3000)       # two or three batches
    late = LateCompile(compiled.select(game, "compiled"), tracker)
    monkeypatch.setattr(compiled, "start", lambda g: late)
    df = run_playouts(game, 3000, seed=5, jobs=jobs, until=tracker)
    by_backend = df.attrs["playouts_by_backend"]
    assert by_backend == {"reference": FIRST_BATCH, "compiled": len(df) - FIRST_BATCH}
    assert by_backend["compiled"] > 0 and late.cancelled
    fixed = run_playouts(load(DESCRIPTIONS / "adzua_children.lud", backend="reference"),
                         len(df), seed=5, jobs=1)
    pd.testing.assert_frame_equal(df.drop(columns="seconds"), fixed.drop(columns="seconds"))
