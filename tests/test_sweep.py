"""`ludeme run --all-options` and `--sweep CATEGORY`: one configuration per combination of
option items in one run, which `ludeme compare RUN_DIR` then compares."""

import json

import pandas as pd
import pytest

from ludeme.analysis import playouts as runner
from ludeme.analysis.playouts import option_sweep
from ludeme.cli.main import main
from ludeme.errors import LudemeError

# Written here: n-in-a-row on a square board, its size and goal two options.
SWEEP = '''(game "Sweep" (players 2) (equipment {(board (square <Size:n>)) (piece "Disc" Each)})
    (rules (play (move Add (to (sites Empty))))
        (end {(if (is Line <Goal:k>) (result Mover Win)) (if (is Full) (result Mover Draw))})))
(option "Board Size" <Size> args:{ <n> } {
    (item "3x3" <3> "A board of 3 x 3.")*
    (item "4x4" <4> "A board of 4 x 4.")
})
(option "Goal" <Goal> args:{ <k> } {
    (item "Three" <3> "Three in a row.")*
    (item "Four" <4> "Four in a row.")
})
'''
ALL = [("Board Size/3x3", "Goal/Three"), ("Board Size/3x3", "Goal/Four"),
       ("Board Size/4x4", "Goal/Three"), ("Board Size/4x4", "Goal/Four")]


@pytest.fixture
def lud(tmp_path):
    path = tmp_path / "sweep.lud"
    path.write_text(SWEEP)
    return path


@pytest.mark.parametrize("options, categories, expected", [
    ((), None, ALL),
    ((), ["Goal"], [("Goal/Three",), ("Goal/Four",)]),
    ((), ["Goal", "Board Size"], [("Goal/Three", "Board Size/3x3"),
                                  ("Goal/Three", "Board Size/4x4"),
                                  ("Goal/Four", "Board Size/3x3"),
                                  ("Goal/Four", "Board Size/4x4")]),
    (("Goal/Four",), None, [("Goal/Four", "Board Size/3x3"), ("Goal/Four", "Board Size/4x4")]),
    (("Goal/Four",), ["Board Size"], [("Goal/Four", "Board Size/3x3"),
                                      ("Goal/Four", "Board Size/4x4")]),
    (("Goal/Four",), ["Goal"], "exclude each other: sweep it or fix it"),
    ((), ["Goals"], "has no such option .did you mean 'Goal'"),
    ((), ["Board Size/3x3"], "has no such option"),
])
def test_the_configurations_of_a_sweep(lud, options, categories, expected):
    if isinstance(expected, str):
        with pytest.raises(LudemeError, match=expected):
            option_sweep(str(lud), options, categories)
    else:
        assert option_sweep(str(lud), options, categories) == expected


def test_a_sweep_over_the_cap_is_refused_saying_how_many(lud, monkeypatch):
    monkeypatch.setattr(runner, "MAX_CONFIGURATIONS", 3)
    with pytest.raises(LudemeError, match=r"makes 4 configurations \(2 x 2 items\); at most 3"):
        option_sweep(str(lud))


def run_cli(lud, out, *argv):
    return main(["run", str(lud), "--jobs", "1", "--no-progress", "--backend", "reference",
                 "--out", str(out), *argv])


def test_all_options_makes_one_summary_row_per_configuration_and_compare_tests_them(
        lud, tmp_path, capsys):
    out = tmp_path / "run"
    assert run_cli(lud, out, "--all-options", "-n", "60") == 0
    summary = pd.read_csv(out / "summary.csv", keep_default_na=False)
    assert list(summary["options"]) == ["; ".join(c) for c in ALL]
    assert list(summary["n"]) == [60] * 4
    run = json.loads((out / "run.json").read_text())
    assert [tuple(c["options"]) for c in run["configurations"]] == ALL
    assert "ludeme compare" in capsys.readouterr().out
    assert main(["compare", str(out), "--jobs", "1", "--no-progress",
                 "--out", str(tmp_path / "compare")]) == 0
    table = pd.read_csv(tmp_path / "compare" / "comparison.csv")
    turns = table[table["metric"] == "DurationTurns"].set_index(["variant_a", "variant_b"])
    assert len(turns) == 6                      # every pair of the four configurations
    # A 4 x 4 board to fill with four in a row lasts longer than tic-tac-toe: a real difference.
    assert turns.loc[("Board Size/3x3; Goal/Three", "Board Size/4x4; Goal/Four"),
                     "verdict"] == "differs"


def test_a_swept_run_with_until_ci_stops_each_configuration_on_its_own(lud, tmp_path, capsys):
    out = tmp_path / "run"
    assert run_cli(lud, out, "--sweep", "Goal", "--until-ci", "0.12", "-n", "2000") == 0
    stops = json.loads((out / "run.json").read_text())["until_ci"]["stops"]
    summary = pd.read_csv(out / "summary.csv", keep_default_na=False)
    assert [s["configuration"] for s in stops] == ["Board Size/3x3; Goal/Three",
                                                   "Board Size/3x3; Goal/Four"]
    assert [s["playouts"] for s in stops] == list(summary["n"])
    assert all(s["stopped_by"] == "width" and s["width"] < 0.12 for s in stops)


@pytest.mark.parametrize("argv, message", [
    (["--all-options", "--sweep", "Goal"], "give it or --sweep"),
    (["--sweep", "Goal", "--all-rulesets"], "--all-rulesets and an option sweep exclude"),
    (["--all-options", "--ruleset", "R"], "--ruleset and --all-options exclude each other"),
    (["--sweep", "Goal", "--option", "Goal/Four"], "sweep it or fix it"),
    (["--sweep", "Goals"], "did you mean 'Goal'"),
])
def test_the_cli_refuses_a_bad_sweep(lud, tmp_path, argv, message, capsys):
    assert run_cli(lud, tmp_path / "out", *argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
