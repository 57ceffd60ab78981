"""Ludii's trial files (.trl): read, the game found by its name, replayed move by move."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ludeme.analysis.crosscheck import crosscheck_files, trace_files
from ludeme.analysis.trials import parse_move, read_trial
from ludeme.errors import LudemeError

TRIALS = ["adzua-children-ludii-5-1", "adzua-children-ludii-5-2", "chinese-checkers-3p-1",
          "chinese-checkers-3p-2", "english-draughts-1", "english-draughts-2",
          "lines-of-action-1", "lines-of-action-2", "seesaw-1", "seesaw-2", "senet-1",
          "senet-2", "tic-tac-toe-1", "tic-tac-toe-2"]


def _trial(refdata, stem):
    p = refdata / "trials" / f"{stem}.trl"
    if not p.is_file():
        pytest.skip(f"{p} not found")
    return p


@pytest.mark.parametrize("stem", TRIALS)
def test_ludii_trial_agrees(refdata, ludii, stem):
    p = _trial(refdata, stem)
    [v] = crosscheck_files([str(p)], str(ludii), seconds=None)
    assert v.status == "agreed", v.line()
    t = read_trial(p)
    assert v.steps == len(t["moves"]) - t["placements"] > 0


def test_header_and_end_are_read(refdata):
    t = read_trial(_trial(refdata, "chinese-checkers-3p-1"))
    assert t["game"] == "Chinese Checkers"
    assert t["optionsRequested"] == ["Players/3"]
    assert t["placements"] == 30 and len(t["moves"]) == 180
    t = read_trial(_trial(refdata, "tic-tac-toe-1"))
    assert (t["winner"], t["endtype"], t["rankings"]) == (1, "NaturalEnd", [0.0, 1.0, 2.0])


@pytest.mark.parametrize("text, expected", [
    ("[Move:mover=1,from=6,to=6,actions=[Add:type=Cell,to=6,what=1,decision=true]]",
     (1, 6, 6, [("Add", {"type": "Cell", "to": "6", "what": "1", "decision": "true"})])),
    ("[Move:mover=2,actions=[Pass:decision=true,forced=true]]",
     (2, -1, -1, [("Pass", {"decision": "true", "forced": "true"})])),
    ("[Move:mover=2,from=16,to=34,actions=[Remove:type=Cell,to=25],[Move:typeFrom=Cell,"
     "from=16,typeTo=Cell,to=34,decision=true]]",
     (2, 16, 34, [("Remove", {"type": "Cell", "to": "25"}),
                  ("Move", {"typeFrom": "Cell", "from": "16", "typeTo": "Cell", "to": "34",
                            "decision": "true"})])),
])
def test_parse_move(text, expected):
    m = parse_move(text, "here")
    assert (m["mover"], m["from"], m["to"], m["actions"]) == expected


@pytest.mark.parametrize("text, message", [
    ("Move:mover=1", "expected a move"),
    ("[Move:from=1,to=2,actions=[Pass:]]", "integer `mover`"),
    ("[Move:mover=1,from=1,to=2]", "no `actions="),
])
def test_bad_move_is_named(text, message):
    with pytest.raises(LudemeError, match=message):
        parse_move(text, "here")


def _edit(src, dst, old, new, count=1):
    text = src.read_text(encoding="utf-8")
    assert old in text
    dst.write_text(text.replace(old, new, count), encoding="utf-8")
    return dst


def test_tampered_trial_disagrees_at_its_step(refdata, ludii, tmp_path):
    src = _trial(refdata, "tic-tac-toe-1")
    # The second move played onto the first move's cell: not legal there.
    bad = _edit(src, tmp_path / "t.trl", "from=0,to=0,actions=[Add:type=Cell,to=0",
                "from=6,to=6,actions=[Add:type=Cell,to=6")
    [v] = crosscheck_files([str(bad)], str(ludii), seconds=None)
    assert v.status == "disagreed" and v.agreed == 1 and "step 1" in v.detail, v.line()
    wrong = _edit(src, tmp_path / "w.trl", "winner=1", "winner=2")
    [v] = crosscheck_files([str(wrong)], str(ludii), seconds=None)
    assert v.status == "disagreed" and "winner expected 2" in v.detail, v.line()


def test_bad_trial_is_invalid_with_its_line(refdata, ludii, tmp_path):
    src = _trial(refdata, "tic-tac-toe-1")
    bad = _edit(src, tmp_path / "b.trl", "winner=1", "winner=one")
    [v] = crosscheck_files([str(bad)], str(ludii), seconds=None)
    assert v.status == "invalid" and "line" in v.detail and "winner" in v.detail, v.line()
    nogame = _edit(src, tmp_path / "n.trl", "game=Tic-Tac-Toe", "game=No Such Game Here")
    [v] = crosscheck_files([str(nogame)], str(ludii), seconds=None)
    assert v.status != "agreed" and "No Such Game Here.lud" in v.detail, v.line()


def test_cli_takes_a_folder_of_trials(refdata, ludii):
    folder = refdata / "trials"
    if not folder.is_dir():
        pytest.skip(f"{folder} not found")
    assert len([f for f in trace_files([str(folder)]) if f.endswith(".trl")]) >= 14
    r = subprocess.run([sys.executable, "-m", "ludeme", "crosscheck", str(folder / "senet-1.trl"),
                        str(folder / "seesaw-1.trl"), "--ludii-dir", str(ludii), "-j", "1"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("2 agreed, 0 disagreed")


# --- writing trials ------------------------------------------------------------------------

def _shapes(text: str) -> set[str]:
    """The shapes of the Move lines' heads and actions: classes and field names, values
    dropped."""
    import re
    out = set()
    for ln in text.splitlines():
        if ln.startswith("Move="):
            shape = re.sub(r"=[^,\]\[]*", "=", ln)
            out.add(shape.split("actions=")[0])
            out.update(re.findall(r"\[\w+:[^\[\]]*\]", shape))
    return out


@pytest.mark.parametrize("stem, lud, options", [
    ("tic-tac-toe-1", "games/Tic-Tac-Toe.lud", []),
    ("adzua-children-ludii-5-1", "games/Adzua (Children).lud",
     ["Variant/Adzua (Children) (Ludii 5)"]),
    ("english-draughts-2", "games/English Draughts.lud", []),
])
def test_written_trial_reads_back_agrees_and_has_ludii_shapes(refdata, ludii, tmp_path, stem,
                                                             lud, options):
    from ludeme.analysis.conformance import random_playout
    from ludeme.analysis.record import write_trial
    from ludeme.api import load
    recorded = _trial(refdata, stem)
    game = load(ludii / lud, options)
    for seed in range(4):
        _, choices = random_playout(game, seed)
        path = tmp_path / f"{seed}.trl"
        path.write_text(write_trial(game, seed, choices), encoding="utf-8")
        t = read_trial(path)
        assert t["game"] == game.name and t["optionsRequested"] == options
        assert len(t["moves"]) - t["placements"] == len(choices)
        [v] = crosscheck_files([str(path)], str(ludii), seconds=None)
        assert v.status == "agreed" and v.steps == len(choices), v.line()
        # Every shape of Move line ludeme writes is one Ludii wrote for this game.
        ours = _shapes(path.read_text())
        theirs = set().union(*(_shapes(f.read_text()) for f in
                               recorded.parent.glob(stem[:-1] + "*.trl")))
        assert ours <= theirs, sorted(ours - theirs)[:3]


def test_written_senet_trial_replays_its_dice(ludii, tmp_path):
    from ludeme.analysis.conformance import random_playout
    from ludeme.analysis.record import write_trial
    from ludeme.api import load
    path = ludii / "corpus/board/race/escape/Senet.lud"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    game = load(path)
    _, choices = random_playout(game, 11, 120)
    out = tmp_path / "senet.trl"
    out.write_text(write_trial(game, 11, choices), encoding="utf-8")
    assert "SetStateAndUpdateDice:site=" in out.read_text()
    [v] = crosscheck_files([str(out)], str(ludii), seconds=None)
    assert v.status == "agreed" and v.steps == 120, v.line()


def test_cli_records_a_run_row_and_refuses_what_it_cannot(tmp_path, ludeme_here):
    _ludeme = ludeme_here
    from conftest import DESCRIPTIONS
    adzua = DESCRIPTIONS / "adzua_children.lud"
    run = tmp_path / "run"
    r = _ludeme("run", adzua, "-n", "3", "--seed", "9", "--out", run, "--no-progress", "-j", "1")
    assert r.returncode == 0, r.stderr
    trl, txt = tmp_path / "row2.trl", tmp_path / "row2.txt"
    r = _ludeme("record", adzua, "--run", run, "--row", "2", "--out", trl, "--out", txt)
    assert r.returncode == 0, r.stderr
    import csv
    row = [x for x in csv.DictReader((run / "playouts.csv").open()) if x["index"] == "2"][0]
    t = read_trial(trl)
    assert len(t["moves"]) - t["placements"] == int(row["moves"])
    assert t["winner"] == int(row["winner"])
    lines = txt.read_text().splitlines()
    assert lines[1].startswith("1. P1: Hand1-") and len(lines) == int(row["moves"]) + 2
    [v] = crosscheck_files([str(trl)], lud=str(adzua), seconds=None)
    assert v.status == "agreed", v.line()
    # The same seed given directly writes the same trial.
    again = tmp_path / "again.trl"
    r = _ludeme("record", adzua, "--seed", row["seed"], "--out", again)
    assert r.returncode == 0 and again.read_text() == trl.read_text()

    agents = tmp_path / "agents"
    r = _ludeme("run", adzua, "-n", "2", "--agents", "random,greedy", "--out", agents,
                "--no-progress", "-j", "1")
    assert r.returncode == 0, r.stderr
    for args, message in [
        (["--run", agents, "--row", "1"], "not uniform random seats"),
        (["--run", run, "--row", "7"], "no playout with index 7"),
        (["--run", tmp_path, "--row", "0"], "no playouts.csv"),
        (["--seed", "1", "--row", "1"], "--row goes with --run"),
    ]:
        r = _ludeme("record", adzua, *args, "--out", tmp_path / "x.trl")
        assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, \
            r.stderr
    r = _ludeme("record", adzua, "--seed", "1", "--out", tmp_path / "x.pgn")
    assert r.returncode == 2 and "expected a .trl" in r.stderr


def test_trial_replays_on_the_compiled_kernels(refdata, ludii):
    p = _trial(refdata, "tic-tac-toe-2")
    [v] = crosscheck_files([str(p)], str(ludii), seconds=None, backend="compiled")
    assert v.status == "agreed" and v.steps == 7, v.line()
