"""Playouts on a Dask cluster give the rows of a local run; large runs write partitions as they go."""

import pandas as pd
import pytest

from conftest import DESCRIPTIONS
from fake_game import FakeGame
from ludeme.ai.agents import RandomAgent, UCTAgent
from ludeme.cli.main import main
from ludeme.analysis.metrics import summarize, summarize_parquet
from ludeme.analysis.playouts import PartitionWriter, load, run_playouts

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_LUDII5 = "Adzua (Children) (Ludii 5) (Reconstructed)"


def without_timing(df):
    return df.drop(columns="seconds")


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed", reason="Dask is not installed: "
                                      "pip install 'ludeme[dask]'")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as c:
        yield c


def test_a_dask_cluster_gives_the_rows_of_a_local_run(cluster):
    game = load(ADZUA, ruleset=ADZUA_LUDII5)
    local = run_playouts(game, 40, seed=5, jobs=1)
    remote = run_playouts(game, 40, seed=5, scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(without_timing(local), without_timing(remote))


def test_agents_on_a_dask_cluster_give_the_rows_of_a_local_run(cluster):
    game = load(ADZUA, ruleset=ADZUA_LUDII5)
    agents = [UCTAgent(iterations=10), RandomAgent()]
    local = run_playouts(game, 6, seed=1, jobs=1, agents=agents, rotate=True)
    remote = run_playouts(game, 6, seed=1, agents=agents, rotate=True,
                          scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(without_timing(local), without_timing(remote))


def test_cli_run_on_a_scheduler(cluster, tmp_path):
    for name, extra in (("local", ["-j", "1"]), ("dask", ["--scheduler",
                                                          cluster.scheduler_address])):
        assert main(["run", str(ADZUA), "-n", "30", "--seed", "2", "--out",
                     str(tmp_path / name), "--no-progress", *extra]) == 0
    a, b = (pd.read_parquet(tmp_path / n / "playouts.parquet") for n in ("local", "dask"))
    pd.testing.assert_frame_equal(without_timing(a), without_timing(b))


def test_cli_run_on_a_local_cluster_it_starts(tmp_path):
    pytest.importorskip("distributed", reason="Dask is not installed")
    assert main(["run", str(ADZUA), "-n", "12", "--seed", "2", "--scheduler", "local", "-j", "1",
                 "--out", str(tmp_path), "--no-progress"]) == 0
    local = run_playouts(load(ADZUA), 12, seed=2, jobs=1)
    pd.testing.assert_frame_equal(without_timing(pd.read_parquet(tmp_path / "playouts.parquet")),
                                  without_timing(local))


def test_an_unreachable_scheduler_is_a_clear_error(capsys, monkeypatch):
    pytest.importorskip("distributed", reason="Dask is not installed")
    from ludeme.analysis import playouts as runner
    monkeypatch.setattr(runner, "SCHEDULER_TIMEOUT", "1s")
    code = main(["run", str(ADZUA), "-n", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert code == 2 and "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_partitions_are_written_as_they_complete(tmp_path):
    game = FakeGame(sites=4, max_turns=6)
    seen = []
    df = run_playouts(game, 95, seed=3, jobs=2, partitions=tmp_path, partition_size=20,
                      keep_rows=False, on_partition=seen.append)
    assert df.empty and len(seen) == 5 and sum(len(p) for p in seen) == 95
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"part-{i:09d}.parquet" for i in (0, 20, 40, 60, 80)]
    whole = run_playouts(game, 95, seed=3, jobs=1)
    stored = pd.read_parquet(tmp_path).sort_values("index").reset_index(drop=True)
    pd.testing.assert_frame_equal(without_timing(stored), without_timing(whole),
                                  check_dtype=False)
    pd.testing.assert_frame_equal(summarize_parquet(tmp_path).drop(columns="playouts_per_sec"),
                                  summarize(whole).drop(columns="playouts_per_sec"),
                                  check_exact=False, rtol=1e-12)


def test_an_interrupted_run_keeps_its_finished_partitions(tmp_path):
    (tmp_path / "part-000000080.parquet").write_bytes(b"from an earlier run")
    df = run_playouts(FakeGame(sites=4, interrupt_after=47), 100, seed=1, jobs=1,
                      partitions=tmp_path, partition_size=20)
    assert df.attrs["interrupted"] and len(df) == 47
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["part-000000000.parquet", "part-000000020.parquet"]
    assert list(pd.read_parquet(tmp_path)["index"]) == list(range(40))


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("where", ["writing", "counting"])
def test_a_stop_while_a_partition_is_kept_counts_the_partition(tmp_path, monkeypatch, where,
                                                                signum):
    """Ctrl-C (or SIGTERM, which the CLI handles alike) as the second partition is written
    or counted: it stops the run after both, so the partitions on disk are the ones the
    summary saw (not one more on disk than counted)."""
    import os
    import signal
    from ludeme.analysis import playouts as runner

    def stop():
        os.kill(os.getpid(), getattr(signal, signum))

    original = runner.PartitionWriter._write
    writes = []

    def write(self, part):
        rows = original(self, part)
        writes.append(part)
        if where == "writing" and len(writes) == 2:
            stop()
        return rows
    seen = []

    def count(rows):
        if where == "counting" and len(seen) == 1:
            stop()
        seen.append(len(rows))
    monkeypatch.setattr(runner.PartitionWriter, "_write", write)

    def as_ctrl_c(signum, frame):       # what `ludeme` installs for SIGTERM
        raise KeyboardInterrupt
    # SIGINT as Python answers it when not ignored (a shell without job control ignores it
    # for the tests it starts in the background).
    previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, as_ctrl_c),
                signal.SIGINT: signal.signal(signal.SIGINT, signal.default_int_handler)}
    try:
        df = run_playouts(FakeGame(sites=4), 100, seed=1, jobs=1, partitions=tmp_path,
                          partition_size=20, keep_rows=False, on_partition=count)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    assert df.attrs["interrupted"]
    assert seen == [20, 20] and len(list(tmp_path.glob("*.parquet"))) == 2
    assert len(pd.read_parquet(tmp_path)) == sum(seen)


def test_a_partition_writer_writes_nothing_half_done(tmp_path):
    writer = PartitionWriter(tmp_path, n=5, size=3)
    assert writer.add([{"index": 4, "x": 1}, {"index": 0, "x": 2}]) == []
    assert [r["index"] for r in writer.add([{"index": 3, "x": 3}])[0]] == [3, 4]
    assert [p.name for p in tmp_path.iterdir()] == ["part-000000003.parquet"]


def test_cli_large_run_writes_partitions_and_reports(tmp_path, monkeypatch):
    from ludeme.analysis import playouts as runner
    monkeypatch.setattr(runner, "PARTITION_SIZE", 25)
    monkeypatch.setattr(runner, "KERNEL_PARTITION_SIZE", 25)
    out = tmp_path / "big"
    assert main(["run", str(ADZUA), "-n", "60", "-j", "1", "--out", str(out),
                 "--no-progress"]) == 0
    parts = sorted((out / "playouts").rglob("*.parquet"))
    assert len(parts) == 3 and not (out / "playouts.csv").exists()
    summary = pd.read_csv(out / "summary.csv")
    assert summary["n"].sum() == 60 and (out / "report.html").exists()
