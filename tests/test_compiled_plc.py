"""`ludeme run` of the placement games, made cheaper end to end: what it writes reads back as
the reference engine's rows. A large run's partitions are written with settings of their own
(`playouts.parquet_settings`); read back, as `ludeme report` and `compare` read them, they
hold the same columns, types and values as the reference engine's rows of the same seeds."""

import pandas as pd
import pyarrow.parquet as pq
import pytest

from ludeme.analysis import playouts
from ludeme.analysis.playouts import run_and_write, run_playouts
from test_compiled import ludii_game


def _reference(game, n, seed):
    rows = run_playouts(game, n, seed, jobs=1, progress=False, backend="reference")
    return rows.drop(columns="seconds")


@pytest.mark.parametrize("name,n", [("Tic-Tac-Toe.lud", 230), ("Yavalath.lud", 47)])
def test_partitions_read_back_as_the_reference_rows(tmp_path, name, n):
    game = ludii_game(name)
    seed = 3
    kept = []
    run_playouts(game, n, seed, jobs=1, progress=False, backend="compiled", partitions=tmp_path,
                 keep_rows=False, partition_size=n // 3, on_partition=kept.append)
    parts = sorted(tmp_path.glob("part-*.parquet"))
    assert len(parts) == 4 and sum(len(p) for p in kept) == n
    back = pd.read_parquet(tmp_path).sort_values("index", kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(back.drop(columns="seconds"), _reference(game, n, seed))
    # a playout is found by its index without reading every partition (their statistics)
    stats = pq.ParquetFile(parts[1]).metadata.row_group(0).column(
        back.columns.get_loc("index")).statistics
    assert (stats.min, stats.max) == (n // 3, 2 * (n // 3) - 1)


def test_a_large_run_folder_reads_back_as_the_reference_rows(tmp_path, monkeypatch):
    """A run of more than PARTITION_SIZE playouts (made small here) writes out/playouts/;
    what the report's readers get from it is the reference engine's rows, and its summary
    counts them."""
    from ludeme.analysis.metrics import summarize_parquet
    game = ludii_game("Tic-Tac-Toe.lud")
    monkeypatch.setattr(playouts, "PARTITION_SIZE", 100)
    monkeypatch.setattr(playouts, "KERNEL_PARTITION_SIZE", 100)
    n, seed = 250, 11
    r = run_and_write(str(game.source.path), tmp_path / "run", n=n, seed=seed, jobs=1,
                      progress=False, backend="compiled")
    assert r.playouts == n and r.by_backend["compiled"] == n
    back = pd.read_parquet(tmp_path / "run" / "playouts")
    back = back.sort_values("index", kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(back.drop(columns="seconds"), _reference(game, n, seed))
    summary = summarize_parquet(tmp_path / "run" / "playouts")
    assert int(summary["n"].sum()) == n
    written = pd.read_csv(tmp_path / "run" / "summary.csv")
    pd.testing.assert_series_equal(written["DurationTurns"], summary["DurationTurns"])



def test_the_kernels_partitions_are_larger_and_each_one_chunk_once_chunks_have_grown(
        tmp_path, monkeypatch):
    """A run the kernels play writes partitions of KERNEL_PARTITION_SIZE (the reference
    engine's: PARTITION_SIZE), and the kernels' chunks end at partition boundaries, so that
    a partition after the first ones is one chunk: written and summarised as it is."""
    game = ludii_game("Tic-Tac-Toe.lud")
    monkeypatch.setattr(playouts, "KERNEL_PARTITION_SIZE", 300)
    monkeypatch.setattr(playouts, "PARTITION_SIZE", 200)
    monkeypatch.setattr(playouts, "CHUNK_SECONDS", 1e9)     # chunks grow, however slow
    kept = []
    run_playouts(game, 1500, 5, jobs=1, progress=False, backend="compiled",
                 partitions=tmp_path / "k", keep_rows=False, on_partition=kept.append)
    assert [p.name for p in sorted((tmp_path / "k").iterdir())] == \
        [f"part-{i:09d}.parquet" for i in range(0, 1500, 300)]
    # chunks of 256, then 512 cut at 600, 900, ...: every partition but the first is one
    assert [t["index"].num_chunks for t in kept] == [2, 1, 1, 1, 1]
    run_playouts(game, 450, 5, jobs=1, progress=False, backend="reference",
                 partitions=tmp_path / "r", keep_rows=False)
    assert len(list((tmp_path / "r").iterdir())) == 3


def test_a_float_column_of_one_value_is_written_plain_and_reads_back(tmp_path):
    """parquet_settings: a float column whose every value is the same (over every chunk)
    is written without a dictionary, LZ4-compressed; one that differs anywhere, one of NaN
    and the other columns keep their dictionary; every value reads back."""
    import numpy as np
    import pyarrow as pa
    from ludeme.analysis.playouts import parquet_settings
    table = pa.concat_tables([
        pa.table({"index": np.arange(3), "same": np.full(3, 2.5), "late": np.zeros(3),
                  "nan": np.full(3, np.nan), "ints": np.ones(3, np.int64)}),
        pa.table({"index": np.arange(3, 6), "same": np.full(3, 2.5), "late": [0.0, 0.0, 1.0],
                  "nan": np.full(3, np.nan), "ints": np.ones(3, np.int64)})])
    settings = parquet_settings(table)
    assert settings["use_dictionary"] == ["late", "nan", "ints"]
    assert settings["compression"] == {"index": "snappy", "same": "lz4", "late": "snappy",
                                       "nan": "snappy", "ints": "snappy"}
    pq.write_table(table, tmp_path / "t.parquet", **settings)
    meta = pq.ParquetFile(tmp_path / "t.parquet").metadata.row_group(0)
    columns = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}
    assert "RLE_DICTIONARY" not in columns["same"].encodings
    assert columns["same"].compression.startswith("LZ4")
    assert "RLE_DICTIONARY" in columns["late"].encodings
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), table.to_pandas())


BORROWED_CHECK = """
import numpy as np
from numba import njit
from ludeme.engine.compiled.rt import borrowed, keep_alive

@njit
def fill(n):
    a = np.zeros(n, np.int64)
    kept = (a,)
    b = borrowed(a)
    for i in range(n):
        b[i] = i * i
    keep_alive(kept)
    return a

@njit
def total_of(a):
    b = borrowed(a)
    return b.sum()

a = fill(1000)
assert a.tolist() == [i * i for i in range(1000)]
assert total_of(a) == sum(i * i for i in range(1000))
print("ok")
"""


def test_a_borrowed_array_is_the_array_under_numba():
    """`rt.borrowed` (the playout kernel's working arrays without counts of references):
    compiled by numba, in a process of its own (the default suite runs kernels as Python),
    what is written through it is in the array kept alive."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    got = subprocess.run([sys.executable, "-c", BORROWED_CHECK], env=env, capture_output=True,
                         text=True, timeout=600)
    assert got.returncode == 0 and got.stdout.strip() == "ok", got.stderr[-3000:]


@pytest.mark.parametrize("values", [[3.0] * 7, [0.0] * 5, [-2.0] * 4, [0.1] * 9, [2.0 ** 60] * 3,
                                    [1.0, 2.0, 2.0], [5.0]])
def test_moments_of_equal_values_are_those_the_sums_give(values):
    """`Moments.add` takes a batch of one whole number without summing it; its mean and
    spread are, to the bit, those of the sums it skips (and of any other batch)."""
    import numpy as np
    from ludeme.analysis.metrics import Moments
    x = np.array(values)
    mean = float(x.mean())
    got = Moments().add(x).add(x[:2])
    want_m2 = float(((x - mean) ** 2).sum())
    n, delta = len(x) + 2, float(x[:2].mean()) - mean
    want_mean = mean + delta * 2 / n
    want_m2 += float(((x[:2] - x[:2].mean()) ** 2).sum()) + delta * delta * len(x) * 2 / n
    assert (got.mean, got.m2, got.lo, got.hi) == (want_mean, want_m2, min(values), max(values))


def test_samples_are_the_first_of_the_shortest_and_longest():
    from ludeme.analysis.samples import SamplePicker
    df = pd.DataFrame({"index": [4, 1, 2, 3, 0, 5], "moves": [3, 3, 9, 9, 5, 9],
                       "winner": [1, 2, 0, 0, 1, 0], "timeout": [False] * 5 + [True],
                       "rank_p1": [1.0, 2.0, 1.5, 1.5, 1.0, 1.5],
                       "rank_p2": [2.0, 1.0, 1.5, 1.5, 2.0, 1.5]})
    picker = SamplePicker()
    picker.add(df.iloc[:3])
    picker.add(df.iloc[3:])
    chosen = {tuple(roles): row["index"] for roles, row in picker.chosen()}
    assert chosen == {("shortest",): 1, ("longest", "draw"): 2, ("timeout",): 5}
