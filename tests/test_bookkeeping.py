"""The run's bookkeeping shortcuts give what the plain ways give: counts, summaries, reports."""

import re

import numpy as np
import pandas as pd
import pytest

from conftest import DESCRIPTIONS
from fake_game import FakeGame
from ludeme.analysis import metrics, report, playouts as runner
from ludeme.cli.main import main
from ludeme.analysis.metrics import Summary, summarize
from ludeme.analysis.playouts import run_playouts

ADZUA = DESCRIPTIONS / "adzua_children.lud"


def value_counts_the_plain_way(values) -> dict:
    counts = pd.DataFrame(values).value_counts(sort=False)
    return {tuple(float(v) for v in key) if np.ndim(values) == 2 else float(key[0]): int(c)
            for key, c in counts.items()}


@pytest.mark.parametrize("seed", range(40))
def test_value_counts_by_codes_are_pandas_value_counts(seed):
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 300)), int(rng.integers(1, 5)))
    values = rng.choice([-1.0, 0.0, 0.5, 1.0, np.nan, 3.25], size=shape)
    if seed % 2:
        values = values[:, 0]
    got: dict = {}
    metrics._add_counts(got, values)
    assert got == value_counts_the_plain_way(values)


def fake_rows():
    a = run_playouts(FakeGame(sites=4, max_turns=6), 120, seed=3, jobs=1)
    b = run_playouts(FakeGame(sites=5, max_turns=4), 80, seed=4, jobs=1)
    b["ruleset"] = "other"
    return a, b


def test_one_configuration_is_summarised_without_grouping_as_with_it():
    a, b = fake_rows()
    assert metrics.single_config(a) == (a["game"][0], "", a["options"][0], "random")
    assert metrics.single_config(pd.concat([a, b], ignore_index=True)) is None
    # Batch by batch (each one configuration) = all at once (grouped).
    batched = Summary().add(a.iloc[:50]).add(b).add(a.iloc[50:]).table()
    whole = summarize(pd.concat([a, b], ignore_index=True))
    pd.testing.assert_frame_equal(batched.drop(columns="playouts_per_sec"),
                                  whole.drop(columns="playouts_per_sec"))



@pytest.mark.parametrize("dtype", ["str", object, "string[pyarrow]"])
def test_a_column_of_one_value_is_found_so_whatever_its_strings_are_kept_in(dtype):
    """metrics.constant: the same answer for Arrow-backed strings (compared by Arrow) as for
    Python ones; a missing value or another value anywhere is not constant."""
    same = pd.Series(["Tic-Tac-Toe"] * 5, dtype=dtype)
    assert metrics.constant(same, "Tic-Tac-Toe") and not metrics.constant(same, "Hex")
    assert not metrics.constant(pd.Series(["a", "a", "b"], dtype=dtype), "a")
    assert not metrics.constant(pd.Series(["a", None, "a"], dtype=dtype), "a")
    assert metrics.constant(pd.Series([], dtype=dtype), "a")
    assert metrics.constant(pd.Series([2, 2]), 2) and not metrics.constant(pd.Series([2, 3]), 2)

def test_a_tally_stands_for_its_rows_in_the_reports():
    a, b = fake_rows()
    rows = pd.concat([a, b], ignore_index=True)
    counted = report.tally(pd.concat([report.tally(rows.iloc[:77]), report.tally(rows.iloc[77:])],
                                     ignore_index=True))
    assert len(counted) < len(rows) and counted["count"].sum() == len(rows)
    summary = summarize(rows)
    assert report.summary_markdown(counted, summary) == report.summary_markdown(rows, summary)
    for (label, mine), (label2, theirs) in zip(report._groups(counted), report._groups(rows)):
        assert label == label2
        assert report.outcome_shares(mine) == report.outcome_shares(theirs)
    heights = [[p.get_height() for p in fig.axes[0].patches]
               for fig in (report.plot_lengths(counted), report.plot_lengths(rows))]
    assert heights[0] == heights[1] and sum(heights[0]) > 0


@pytest.mark.parametrize("backend", ["compiled", "reference"])
def test_a_partitioned_run_reports_what_a_whole_run_reports(tmp_path, monkeypatch, backend):
    whole, parts = tmp_path / "whole", tmp_path / "parts"
    argv = ["run", str(ADZUA), "-n", "60", "-j", "1", "--no-progress", "--ruleset",
            "Ruleset/Adzua (Children) (Ludii 5) (Reconstructed)", "--backend", backend]
    assert main([*argv, "--out", str(whole)]) == 0
    monkeypatch.setattr(runner, "PARTITION_SIZE", 25)
    monkeypatch.setattr(runner, "KERNEL_PARTITION_SIZE", 25)
    monkeypatch.setattr(runner, "SUMMARY_BATCH", 25)    # samples picked batch by batch
    assert main([*argv, "--out", str(parts)]) == 0
    assert len(list((parts / "playouts").rglob("*.parquet"))) == 3
    games = [sorted((d / "games").iterdir()) for d in (whole, parts)]
    assert [p.name for p in games[0]] == [p.name for p in games[1]] and games[0]
    assert [p.read_text() for p in games[0]] == [p.read_text() for p in games[1]]
    drop = ["playouts_per_sec"]
    pd.testing.assert_frame_equal(pd.read_csv(parts / "summary.csv").drop(columns=drop),
                                  pd.read_csv(whole / "summary.csv").drop(columns=drop))
    # The same head, but for the time each run was written (its provenance).
    heads = [re.sub(r"written: \S+", "written: T", (d / "summary.md").read_text()
                    .split("| metric |")[0]) for d in (parts, whole)]
    assert heads[0] == heads[1] and "60 playouts" in heads[0]
    stored = pd.read_parquet(parts / "playouts").sort_values("index").reset_index(drop=True)
    pd.testing.assert_frame_equal(stored.drop(columns="seconds"),
                                  pd.read_parquet(whole / "playouts.parquet")
                                  .drop(columns="seconds"))


def test_a_run_replaces_everything_of_the_run_before_it(tmp_path, monkeypatch):
    """A small run into a folder that held a large run's partitions (and the reverse) leaves
    only its own files: no stale table or partitions, no staging folder."""
    out = tmp_path / "out"
    argv = ["run", str(ADZUA), "-n", "60", "-j", "1", "--no-progress", "--backend",
            "reference", "--out", str(out)]
    assert main(argv) == 0
    monkeypatch.setattr(runner, "PARTITION_SIZE", 25)
    assert main(argv) == 0                        # large: partitions
    assert (out / "playouts").is_dir() and not (out / "playouts.parquet").exists()
    monkeypatch.setattr(runner, "PARTITION_SIZE", 10_000)
    assert main([*argv[:3], "40", *argv[4:]]) == 0  # small again
    assert not (out / "playouts").exists()
    assert len(pd.read_parquet(out / "playouts.parquet")) == 40
    assert not [p for p in out.iterdir() if p.name.startswith(".playouts")]


def test_all_rulesets_keeps_those_that_played_when_one_fails(tmp_path, capsys):
    """A ruleset that cannot be played is reported; the others are written."""
    lud = tmp_path / "g.lud"
    lud.write_text(ADZUA.read_text().replace(
        '(ruleset "Ruleset/Adzua (Children) (Ludii 2) (Reconstructed)" {',
        '(ruleset "Ruleset/Broken" { "Variant/Nope" })\n'
        '    (ruleset "Ruleset/Adzua (Children) (Ludii 2) (Reconstructed)" {'))
    out = tmp_path / "out"
    code = main(["run", str(lud), "--all-rulesets", "-n", "4", "-j", "1", "--no-progress",
                 "--backend", "reference", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert "Ruleset/Broken: not played" in err and "Variant/Nope" in err
    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 10 and "Ruleset/Broken" not in set(summary["ruleset"])


def test_compare_and_summarize_parquet_read_a_partitioned_run_and_refuse_a_lossy_one(
        tmp_path, monkeypatch):
    from ludeme.analysis.compare import read_run_folder
    from ludeme.analysis.metrics import summarize_parquet
    from ludeme.errors import LudemeError
    out = tmp_path / "out"
    monkeypatch.setattr(runner, "PARTITION_SIZE", 25)
    assert main(["run", str(ADZUA), "-n", "60", "-j", "1", "--no-progress", "--backend",
                 "reference", "--out", str(out)]) == 0
    [variant] = read_run_folder(out)
    assert len(variant.rows) == 60
    assert int(summarize_parquet(out / "playouts")["n"].sum()) == 60
    next((out / "playouts").rglob("*.parquet")).unlink()
    for read in (read_run_folder, lambda out: summarize_parquet(out / "playouts")):
        with pytest.raises(LudemeError, match="summary counts 60 playouts but the folder holds"):
            read(out)
