"""What report.html shows: numbers formatted for people, the metrics table without pandas'
index-name row, and the sample games (the shortest, the longest, a draw, a timeout) chosen
from a whole table or from its partitions as they pass by, and written as viewer pages."""

import json
import re

import numpy as np
import pandas as pd
import pytest

from conftest import DESCRIPTIONS
from ludeme.analysis.report import number_text, html_table, with_interval
from ludeme.analysis.samples import SamplePicker, sample_pages
from ludeme.api import load

ADZUA = DESCRIPTIONS / "adzua_children.lud"


@pytest.mark.parametrize("value, text", [
    (13180.4, "13,180"), (13180, "13,180"), (np.int64(2500), "2,500"), (1234567.0, "1,234,567"),
    (0.53, "0.53"), (0.5312, "0.531"), (32.14, "32.1"), (1.0, "1"), (0.0, "0"),
    (-0.0412, "-0.0412"),
    (0.000123456, "0.000123"), (1.5e-9, "0.0000000015"), (999.96, "1,000"), (float("nan"), "n/a"),
    (None, "n/a"), (-2.5, "-2.5"), (float("inf"), "∞"), ("uct", "uct"),
])
def test_numbers_for_people(value, text):
    assert number_text(value) == text
    assert "e+" not in number_text(value) and "e-" not in number_text(value)


def test_an_interval_reads_as_value_and_range():
    assert with_interval(0.5301, 0.5099, 0.55) == "0.53 (0.51–0.55)"


def test_the_table_has_no_row_for_the_index_name():
    table = pd.DataFrame({"A <b>": ["0.53 (0.51–0.55)", "n/a"]},
                         index=pd.Index(["Balance", "n"], name="metric"))
    out = html_table(table)
    assert out.count("<tr>") == 3                  # the header and two metrics
    assert "A &lt;b&gt;" in out and '<td class="num">0.53 (0.51–0.55)</td>' in out
    assert "<td>n/a</td>" in out


def rows(spec):
    """A hand-made playout table: (index, moves, winner, timeout) per row, two players."""
    df = pd.DataFrame(spec, columns=["index", "moves", "winner", "timeout"])
    df["turns"] = df["moves"]
    df["seed"] = df["index"] + 100
    df["rank_p1"] = np.where(df["winner"] == 1, 1.0, np.where(df["winner"] == 2, 2.0, 1.5))
    df["rank_p2"] = np.where(df["winner"] == 2, 1.0, np.where(df["winner"] == 1, 2.0, 1.5))
    df["agent_p1"] = df["agent_p2"] = "random"
    return df


TABLE = [(0, 30, 1, False), (1, 12, 2, False), (2, 90, 0, True), (3, 12, 1, False),
         (4, 40, 0, False), (5, 90, 2, False), (6, 50, 0, False), (7, 90, 0, True)]


def test_the_samples_of_a_table():
    picker = SamplePicker()
    picker.add(rows(TABLE))
    chosen = {r: row["index"] for r, row in picker.rows.items()}
    # ties go to the lowest index; index 2 is both the longest and the first timeout
    assert chosen == {"shortest": 1, "longest": 2, "draw": 4, "timeout": 2}
    assert [(roles, row["index"]) for roles, row in picker.chosen()] == [
        (["shortest"], 1), (["longest", "timeout"], 2), (["draw"], 4)]


def test_a_table_without_draws_or_timeouts_has_no_such_samples():
    picker = SamplePicker()
    picker.add(rows([(0, 5, 1, False), (1, 7, 2, False)]))
    assert set(picker.rows) == {"shortest", "longest"}


@pytest.mark.parametrize("size", [1, 3, 5])
def test_partitions_in_any_order_choose_as_the_whole_table(size):
    df = rows(TABLE)
    whole = SamplePicker()
    whole.add(df)
    parts = [df.iloc[i:i + size] for i in range(0, len(df), size)]
    picker = SamplePicker()
    for part in reversed(parts):                # partitions finish in any order
        picker.add(part)
    assert picker.rows == whole.rows
    assert sum(len(v) for v in picker.rows.values()) <= 4 * len(df.columns)   # rows, not tables


def test_sample_pages_replay_the_rows_and_cap_long_games():
    game = load(ADZUA, backend="reference")
    from ludeme.analysis.playouts import play_one, playout_seed
    table = pd.DataFrame([play_one(game, playout_seed(3, i), i) for i in range(6)])
    picker = SamplePicker()
    picker.add(table)
    described, pages = sample_pages(game, picker, "adzua")
    assert {d["file"] for d in described} == set(pages) and len(pages) == len(described) >= 2
    shortest = next(d for d in described if "shortest" in d["roles"])
    assert shortest["moves"] == table["moves"].min() and not shortest["note"]
    steps = json.loads(re.search(r'id="data">(.*?)</script>', pages[shortest["file"]],
                                 re.S).group(1))["steps"]
    assert len(steps) == shortest["moves"] + 1
    # a cap below the longest game: its page shows the first moves, and says so
    described, pages = sample_pages(game, picker, "adzua", max_moves=5)
    longest = next(d for d in described if "longest" in d["roles"])
    assert "first 5 moves" in longest["note"]
    data = json.loads(re.search(r'id="data">(.*?)</script>', pages[longest["file"]],
                                re.S).group(1))
    assert len(data["steps"]) == 6 and "first 5 of its" in data["caption"]
    # rows played by agents are not replayed here
    picker.rows = {k: dict(v, agent_p1="uct") for k, v in picker.rows.items()}
    described, pages = sample_pages(game, picker, "adzua")
    assert not pages and all("played by agents" in d["note"] for d in described)


def test_the_showcase_of_a_configuration():
    from ludeme.analysis.samples import showcase
    game = load(ADZUA, backend="reference")
    picker = SamplePicker()
    shown = showcase(game, ADZUA, [], None, picker, "Adzua", "adzua")
    assert shown["concepts"].startswith("properties: ") and "; board: " in shown["concepts"]
    assert shown["board"].startswith("<svg") and shown["samples"] == [] and shown["pages"] == {}
    # a description that cannot be read again costs the report its concepts line only
    gone = showcase(game, ADZUA.with_name("gone.lud"), [], None, picker, "Adzua", "adzua")
    assert gone["concepts"].startswith("(not computed: ") and gone["board"] == shown["board"]


def test_a_run_without_samples_or_record_leaves_none_of_an_earlier_runs(tmp_path):
    from fake_game import FakeGame
    from ludeme.analysis.metrics import summarize
    from ludeme.analysis.playouts import run_playouts
    from ludeme.analysis.report import write_run
    df = run_playouts(FakeGame(sites=4, max_turns=5), 10, seed=2, jobs=1)
    shown = {"label": "Fake", "board": "<svg></svg>", "concepts": "play: Fake",
             "samples": [{"roles": ["shortest"], "index": 0, "moves": 3, "turns": 3,
                          "result": "P1 wins", "file": "fake-shortest.html", "note": ""}],
             "pages": {"fake-shortest.html": "<html>a page</html>"}}
    written = write_run(df, summarize(df), tmp_path, run={"description": "/x.lud",
                                                          "configurations": []},
                        showcases=[shown])
    assert {p.name for p in written} >= {"games", "run.json"}
    assert (tmp_path / "games" / "fake-shortest.html").read_text() == "<html>a page</html>"
    report = (tmp_path / "report.html").read_text()
    assert 'href="games/fake-shortest.html"' in report and "play: Fake" in report
    write_run(df, summarize(df), tmp_path)
    assert not (tmp_path / "games").exists() and not (tmp_path / "run.json").exists()
    assert not list(tmp_path.glob(".*.tmp"))
