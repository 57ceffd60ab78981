"""`ludeme run` of the short placement games (Tic-Tac-Toe, Yavalath) made cheaper end to end:
what a large run writes and summarises is what it was before. The bookkeeping of a large run
(`playouts._Bookkeeper`) takes the kernels' Arrow tables batch by batch; its summary and
tallies are those of the reference engine's rows taken in the same batches, to the bit."""

import numpy as np
import pandas as pd
import pytest

from ludeme.analysis import playouts
from ludeme.analysis.metrics import Moments, Summary
from ludeme.analysis.playouts import run_and_write, run_playouts
from ludeme.analysis.report import tally
from test_compiled import ludii_game

TIMED = ("seconds", "playouts_per_sec")      # the columns of a run's time, not of its rows


def _untimed(df: pd.DataFrame) -> pd.DataFrame:
    return df[[c for c in df.columns if not any(t in c for t in TIMED)]]


@pytest.mark.parametrize("name,n,size,batch", [("Tic-Tac-Toe.lud", 1000, 100, 250),
                                               ("Yavalath.lud", 180, 40, 100)])
def test_a_large_run_summarises_the_reference_rows_batch_by_batch(tmp_path, monkeypatch, name,
                                                                   n, size, batch):
    """A run of several partitions and summary batches (sizes made small here): its
    partitions read back as the reference engine's rows, its summary.csv is the summary of
    those rows taken in the same batches, and its tallies theirs."""
    game = ludii_game(name)
    seed = 7
    monkeypatch.setattr(playouts, "PARTITION_SIZE", size)
    monkeypatch.setattr(playouts, "KERNEL_PARTITION_SIZE", size)
    monkeypatch.setattr(playouts, "SUMMARY_BATCH", batch)
    monkeypatch.setattr(playouts, "MAX_CHUNK", 64)     # partitions of several kernel chunks
    r = run_and_write(str(game.source.path), tmp_path / "run", n=n, seed=seed, jobs=1,
                      progress=False, backend="compiled")
    assert r.playouts == n and r.by_backend["compiled"] == n
    ref = run_playouts(game, n, seed, jobs=1, progress=False, backend="reference")
    back = pd.read_parquet(tmp_path / "run" / "playouts")
    back = back.sort_values("index", kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(back.drop(columns="seconds"), ref.drop(columns="seconds"))
    # the batches the bookkeeping took: whole partitions, at least SUMMARY_BATCH rows each
    summary, tallies, taken = Summary(), [], 0
    per_batch = -(-batch // size) * size
    while taken < n:
        rows = ref.iloc[taken:taken + per_batch].reset_index(drop=True)
        taken += len(rows)
        summary.add(rows)
        tallies.append(tally(rows))
    written = pd.read_csv(tmp_path / "run" / "summary.csv")
    expected = summary.table()
    expected.to_csv(tmp_path / "expected.csv", index=False)
    expected = pd.read_csv(tmp_path / "expected.csv")
    assert list(written.columns) == list(expected.columns)
    pd.testing.assert_frame_equal(_untimed(written), _untimed(expected))
    pd.testing.assert_frame_equal(_untimed(r.df).reset_index(drop=True),
                                  _untimed(tally(pd.concat(tallies, ignore_index=True))))


@pytest.mark.parametrize("values", [[0.5, 1.25, 3.0, -2.0], list(np.linspace(-1, 7, 1001)),
                                    [1e16, 1.0, -1e16, 3.0]])
def test_moments_give_the_sums_numpy_gives(values):
    """The squared deviations summed in place are numpy's sum of `(x - mean) ** 2`."""
    x = np.asarray(values, dtype=float)
    m = Moments().add(x)
    mean = float(x.mean())
    assert m.mean == mean and m.m2 == float(((x - mean) ** 2).sum())
    assert (m.lo, m.hi) == (x.min(), x.max())


@pytest.mark.parametrize("values", [[0, 1, 2, 3, 4, 5, 6, 7, 8], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
                                    [0, 0, 1, 1, 1, 2, 5], [4, 4, 3, 3, 0], [0, 0, 0, 0],
                                    [3, 1, 4, 1, 5, 9, 2, 6], [1, 3, 2], [2, 5], [7],
                                    [0.0, 1 / 9, 2 / 9, 2 / 9, 4 / 9], [],
                                    [0] * 9, [0, 0, 0, 2, 2, 0, 0], [-3, 0, 0], [0, 0, -0.5]])
def test_the_kernels_aggregates_are_ludiis_rising_falling_or_turning(values):
    """rt's aggregates of a series (its median taken without selection where the series
    never turns, its second pass skipped where it is zero throughout) are
    `figures.aggregates`' eleven, in their order, bit for bit, as Python and compiled."""
    from ludeme.engine import figures
    from ludeme.engine.compiled import rt
    x = np.asarray(values, dtype=float)
    expected = figures.aggregates([float(v) for v in x])
    expected = np.array([expected[name] for name in figures.AGGREGATES])
    for aggregates_into in {getattr(rt.aggregates_into, "py_func", rt.aggregates_into),
                            rt.aggregates_into}:
        out = np.full((1, rt.N_AGGREGATES), np.nan)
        aggregates_into(x, len(x), out, 0, 0, np.empty(len(x)))
        assert out[0].view(np.int64).tolist() == expected.view(np.int64).tolist()
