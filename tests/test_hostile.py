"""Hostile and malformed input: each gets a clear message and exit status, quickly.

A table of (what the user hands the tool, the command, the exit status, words of the
message). Every case runs the command line's `main` in the test's process, under an alarm,
so a description that hangs the tool fails the test instead of hanging it; a sample of the
cases also runs `python -m ludeme` in a subprocess, the whole way a user runs it.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from conftest import DESCRIPTIONS, ctrl_c_reaches_it

ADZUA = str(DESCRIPTIONS / "adzua_children.lud")
GAME = ('(game "X" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
        '(rules (play (move Add (to (sites Empty)))) (end (if %s (result Mover Win)))))')


def doubling(depth: int, uses: int) -> str:
    """`"Dk"` uses `"Dk-1"` `uses` times: the expansion grows as uses**depth."""
    lines = ['(define "D0" (is Line 3))']
    for i in range(1, depth + 1):
        use = '("D%d")' % (i - 1)
        lines.append(f'(define "D{i}" (and {{{" ".join([use] * uses)}}}))')
    return "\n".join(lines) + "\n" + GAME % f'("D{depth}")' + "\n"


def define_nesting(depth: int, wrap: int) -> str:
    """Each define wraps the previous one in `wrap` more brackets."""
    lines = ['(define "N0" (is Line 3))']
    for i in range(1, depth + 1):
        lines.append(f'(define "N{i}" {"(not " * wrap}("N{i - 1}"){")" * wrap})')
    return "\n".join(lines) + "\n" + GAME % f'("N{depth}")' + "\n"


UNCLOSED = """(game "X"
    (players 2)
    (equipment {
        (board (square 3)
        (piece "Disc" Each)
    })
)
"""

# A `ludeme run` playout table, its one row's winner left to fill in.
PLAYOUTS_CSV = "game,ruleset,options,seed,players,winner,turns,utility_p1\nG,,,1,2,%s,9,1.0\n"
ADZUA_2 = ADZUA + "::Variant/Adzua (Children) (Ludii 2)"

# A description with an option whose name has a space.
BOARD_SIZE = (GAME.replace("(square 3)", "(square <Board:size>)") % "(is Line 3)" + "\n"
              '(option "Board Size" <Board> args:{<size>} '
              '{(item "3x3" <3> "small") (item "4x4" <4> "big")})\n')

# (name, files {name: text or bytes}, argv ({} = path of a file), env, exit, words, position)
CASES = [
    ("define used twice, 30 deep", {"g.lud": doubling(30, 2)}, ["expand", "{g.lud}"], {}, 2,
     ['expansion grows past its budget of 1,000,000 steps', '"D30" -> "D29" -> "D28"',
      "--max-expansion"], "g.lud:32:"),
    ("define used 8 times, 11 deep", {"g.lud": doubling(11, 8)}, ["expand", "{g.lud}"], {}, 2,
     ['"D11" -> "D10"'], "g.lud:13:"),
    ("a smaller budget from the environment", {"g.lud": doubling(12, 2)},
     ["expand", "{g.lud}"], {"LUDEME_MAX_EXPANSION": "1000"}, 2,
     ["budget of 1,000 steps"], "g.lud:14:"),
    ("the option raises the budget", {"g.lud": doubling(12, 2)},
     ["expand", "{g.lud}", "--max-expansion", "5000000"], {"LUDEME_MAX_EXPANSION": "1000"},
     0, [], None),
    ("a define expanding into itself", {"g.lud": '(define "A" (not ("A")))\n' + GAME % '("A")'},
     ["expand", "{g.lud}"], {}, 2, ['define \'A\' keeps expanding into itself',
                                    "more than 64 levels"], "g.lud:2:"),
    ("two defines expanding into each other",
     {"g.lud": '(define "A" ("B"))\n(define "B" ("A"))\n' + GAME % '("A")'},
     ["expand", "{g.lud}"], {}, 2, ['define calls nest too deep: "A" -> "B" -> "A"'],
     "g.lud:3:"),
    ("brackets 10,000 deep", {"g.lud": "(a " * 10_000 + ")" * 10_000},
     ["expand", "{g.lud}"], {}, 2, ["brackets nest deeper than 100 levels"], "g.lud:1:301:"),
    ("defines nesting 120 deep once expanded", {"g.lud": define_nesting(40, 3)},
     ["expand", "{g.lud}"], {}, 2, ["expanded description nests deeper than 100 levels"],
     "g.lud:"),
    ("a range of 100 million values", {"g.lud": GAME % "(is In 1 {1..100000000})"},
     ["expand", "{g.lud}"], {}, 2, ["bad range 1..100000000", "at most 100000"], "g.lud:1:"),
    ("an unclosed bracket found by indentation", {"g.lud": UNCLOSED},
     ["expand", "{g.lud}"], {}, 2, ["'(' is never closed", "indentation"], "g.lud:4:9:"),
    ("binary garbage", {"g.lud": b"\x00\x01(game\xff"}, ["expand", "{g.lud}"], {}, 2,
     ["not UTF-8 text", "byte 0xff at byte offset 7"], "g.lud:1:8:"),
    ("binary garbage that is UTF-8", {"g.lud": b"\x00\x01(game"}, ["expand", "{g.lud}"], {}, 2,
     ["unexpected character"], "g.lud:1:1:"),
    ("a Latin-1 file", {"g.lud": (GAME % "(is Line 3)").replace('"X"', '"Caf\xe9"')
                        .encode("latin-1")}, ["info", "{g.lud}"], {}, 2,
     ["not UTF-8 text", "byte 0xe9 at byte offset 10"], "g.lud:1:11:"),
    ("a byte-order mark", {"g.lud": b"\xef\xbb\xbf" + (GAME % "(is Line 3)").encode()},
     ["check", "{g.lud}", "--stage", "run"], {}, 0, ["1 passed, 0 failed"], None),
    ("an escape sequence in the text", {"g.lud": GAME % "(is Line 3) \x1b[2J"},
     ["info", "{g.lud}"], {}, 2, ["unexpected character '\\x1b'", "\\x1b[2J"], "g.lud:1:"),
    ("a device that never ends", {}, ["info", "/dev/zero"], {"LUDEME_MAX_FILE_BYTES": "1000"},
     2, ["/dev/zero", "larger than 1,000 bytes"], None),
    ("a board of size 0", {"g.lud": GAME.replace("(square 3)", "(square 0)") % "(is Line 3)"},
     ["run", "{g.lud}", "-n", "1", "--out", "{dir}/o"], {}, 2,
     ["this board has no cells to play on", "(in game/equipment/board/square)"], "g.lud:1:42:"),
    ("a region grown from a site past the board",
     {"g.lud": GAME.replace("(rules (play", '(rules (start (place "Disc1" (expand origin:10))) '
                            "(play") % "(is Line 3)"},
     ["run", "{g.lud}", "-n", "1", "--out", "{dir}/o"], {}, 2,
     ["(expand ...) from site 10, which is not on the board (sites 0 to 8)",
      "(in game/rules/start/place/expand)"], "g.lud:1:105:"),
    ("a board of negative size",
     {"g.lud": GAME.replace("(square 3)", "(rectangle -2 5)") % "(is Line 3)"},
     ["check", "{g.lud}", "--stage", "compile"], {}, 1, ["this board has no cells to play on"],
     "g.lud:1:42:"),
    ("a hexagon of side 61, over the board limit",
     {"g.lud": GAME.replace("(square 3)", "(hex 61)") % "(is Line 3)"}, ["board", "{g.lud}"], {},
     2, ["66,613 together", "ludeme builds boards of at most 65,536 together",
         "(in game/equipment/board/hex)"], "g.lud:1:42:"),
    ("a star of side 100, refused before its cells are found",
     {"g.lud": GAME.replace("(square 3)", "(hex Star 100)") % "(is Line 3)"},
     ["run", "{g.lud}", "-n", "1", "--out", "{dir}/o"], {}, 2,
     ["vertices and", "edges", "ludeme builds boards of at most 65,536"], "g.lud:1:42:"),
    ("a boardless table of side 100",
     {"g.lud": GAME.replace("(board (square 3))", "(boardless Hexagonal 100)") % "(is Line 3)"},
     ["board", "{g.lud}"], {}, 2, ["ludeme builds boards of at most 65,536",
                                   "(in game/equipment/boardless)"], "g.lud:1:"),
    ("the largest hexagon allowed builds, radials and all on demand",
     {"g.lud": GAME.replace("(square 3)", "(hex 60)") % "(is Line 3)"}, ["board", "{g.lud}"],
     {}, 0, ["10621 cell sites"], None),
    *[(f"a board of size {shape}", {"g.lud": GAME.replace("(square 3)", shape) % "(is Line 3)"},
       ["run", "{g.lud}", "-n", "1", "--out", "{dir}/o"], {}, 2,
       ["this board has no cells to play on", f"(in game/equipment/board/{shape[1:4]}"],
       "g.lud:1:42:") for shape in ("(square -3)", "(hex 0)")],
    ("an unterminated string", {"g.lud": '(game "X)'}, ["expand", "{g.lud}"], {}, 2,
     ["unterminated string"], "g.lud:1:7:"),
    ("a bad limit in the environment", {"g.lud": GAME % "(is Line 3)"},
     ["expand", "{g.lud}"], {"LUDEME_MAX_NESTING": "lots"}, 2,
     ["$LUDEME_MAX_NESTING must be a positive integer"], None),
    ("a missing file", {}, ["expand", "{dir}/nope.lud"], {}, 2, ["cannot read", "nope.lud"],
     None),
    ("a folder given as a file", {}, ["expand", "{dir}"], {}, 2, ["cannot read",
                                                                   "is a directory"], None),
    ("a folder with no descriptions", {"notes.txt": "x"}, ["check", "{dir}"], {}, 2,
     ["no .lud files in"], None),
    ("check counts a hostile file as failed", {"g.lud": doubling(30, 2)},
     ["check", "{g.lud}", "--stage", "expand"], {}, 1, ["g.lud:32:", '"D30" -> "D29"',
                                                         "0 passed, 1 failed"], None),
    ("a trace that is a JSON list", {"t.json": "[1, 2]"},
     ["crosscheck", "{t.json}", "--lud", ADZUA], {}, 2, ["expected a JSON object"], None),
    ("a trace without steps", {"t.json": json.dumps({"file": "Achi.lud"})},
     ["crosscheck", "{t.json}", "--lud", ADZUA], {}, 2, ["'steps'", "is missing"], None),
    ("a trace without its file", {"t.json": json.dumps({"steps": []})},
     ["crosscheck", "{t.json}", "--ludii-dir", "{dir}"], {}, 2, ["'file'", "is missing"], None),
    ("a trace step with a bad choice",
     {"t.json": json.dumps({"steps": [{"mover": 1, "chosen": 5, "legal": [], "board": {}}]})},
     ["crosscheck", "{t.json}", "--lud", ADZUA], {}, 2,
     ["steps[0]", "'chosen' is 5, not an index of its 0 legal moves"], None),
    ("a trace without steps among good ones", {"a.json": json.dumps({"steps": []}),
                                               "b.json": json.dumps({"file": "Achi.lud"}),
                                               "c.json": json.dumps({"steps": []})},
     ["crosscheck", "{a.json}", "{b.json}", "{c.json}", "--lud", ADZUA], {}, 2,
     ["/a: agreed, 0/0 steps", "/c: agreed, 0/0 steps", "/b: INVALID TRACE:",
      "'steps' (a list of decisions) is missing",
      "2 agreed, 0 disagreed, 0 unsupported, 1 invalid traces"], None),
    ("a trace of another number of players", {"t.json": json.dumps({"players": 7, "steps": []})},
     ["crosscheck", "{t.json}", "--lud", ADZUA], {}, 2,
     ["INVALID TRACE", "recorded with 'players' 7, but 'Adzua (Children)' as loaded for it has 2",
      "0 agreed, 0 disagreed, 0 unsupported, 1 invalid traces"], None),
    ("a trace naming an option the description lacks",
     {"t.json": json.dumps({"optionsRequested": ["Board/Huge"], "steps": []})},
     ["crosscheck", "{t.json}", "--lud", ADZUA], {}, 2,
     ["INVALID TRACE", "the trace's optionsRequested 'Board/Huge': unknown option",
      "known options: 'Variant'", "0 unsupported, 1 invalid traces"], None),
    ("a trace naming a ruleset the description lacks",
     {"t.json": json.dumps({"ruleset": "Ruleset/Nope", "steps": []})},
     ["crosscheck", "{t.json}", "--lud", ADZUA], {}, 2,
     ["INVALID TRACE", "unknown ruleset 'Ruleset/Nope'", "0 unsupported, 1 invalid traces"],
     None),
    ("a trace for another game", {"t.json": json.dumps({"game": "Chess", "steps": []})},
     ["crosscheck", "{t.json}", "--lud", ADZUA], {}, 2,
     ["recorded for the game 'Chess'", "'Adzua (Children)'"], None),
    ("a truncated trace", {"t.json.gz": gzip.compress(b'{"steps": [')[:12]},
     ["crosscheck", "{t.json.gz}", "--lud", ADZUA], {}, 2, ["cannot read trace"], None),
    ("--ludii-dir that does not exist", {"t.json": json.dumps({"file": "A.lud", "steps": []})},
     ["crosscheck", "{t.json}", "--ludii-dir", "{dir}/none"], {}, 2, ["no such directory"],
     None),
    ("an unknown option", {}, ["expand", ADZUA, "--option", "Nope/Nope"], {}, 2,
     ["--option 'Nope/Nope': unknown option", "known options: 'Variant'"], None),
    ("an option named with a space, without its item", {"g.lud": BOARD_SIZE},
     ["expand", "{g.lud}", "--option", "Board Size"], {}, 2,
     ["--option 'Board Size': 'Board Size' is an option, not one of its items",
      "choose one: 'Board Size/3x3', 'Board Size/4x4'"], "g.lud:2:1:"),
    ("an option without its item", {}, ["expand", ADZUA, "--option", "Variant"], {}, 2,
     ["--option 'Variant': 'Variant' is an option, not one of its items", "choose one"], None),
    ("an option that contradicts the ruleset", {},
     ["expand", ADZUA, "--ruleset", "Adzua (Children) (Ludii 5) (Reconstructed)", "--option",
      "Variant/Adzua (Children) (Ludii 9)"], {}, 2,
     ["--option 'Variant/Adzua (Children) (Ludii 9)' conflicts with the ruleset",
      "which selects 'Variant/Adzua (Children) (Ludii 5)'"], None),
    ("an option that agrees with the ruleset", {},
     ["expand", ADZUA, "--ruleset", "Adzua (Children) (Ludii 5) (Reconstructed)", "--option",
      "Variant/Adzua (Children) (Ludii 5)"], {}, 0, ['(game "Adzua (Children)"'], None),
    ("a trace naming a file outside --ludii-dir",
     {"t.json": json.dumps({"file": "../../../../etc/passwd", "steps": []}), "lud/x.lud": "x"},
     ["crosscheck", "{t.json}", "--ludii-dir", "{dir}/lud"], {}, 1,
     ["'../../../../etc/passwd' is not a .lud path inside"], None),
    ("a trace naming an absolute path",
     {"t.json": json.dumps({"file": "/etc/hostname", "steps": []}), "lud/x.lud": "x"},
     ["crosscheck", "{t.json}", "--ludii-dir", "{dir}/lud"], {}, 1,
     ["'/etc/hostname' is not a .lud path inside"], None),
    ("--jobs beyond the cores", {}, ["run", ADZUA, "-n", "4", "--jobs", "999", "--backend",
                                     "reference", "--out", "{dir}/o"], {}, 0,
     ["--jobs 999 capped at this machine's", "4 playouts"], None),
    ("an agent with a bad parameter", {},
     ["run", ADZUA, "-n", "2", "--agents", "uct:c=nan,random", "--out", "{dir}/o"], {}, 2,
     ["agent 'uct:c=nan'", "c must be finite"], None),
    ("--out that is a file", {"out": "x"}, ["run", ADZUA, "-n", "1", "--out", "{out}"], {}, 2,
     ["is a file, not a directory"], None),
    ("--out below a file", {"out": "x"}, ["run", ADZUA, "-n", "1", "--out", "{out}/sub"], {}, 2,
     ["is a file, not a directory"], None),
    ("--out with an escape sequence, below a file", {"out": "x"},
     ["run", ADZUA, "-n", "1", "--out", "{out}/\x1b[2J"], {}, 2,
     ["out/\\x1b[2J: ", "is a file, not a directory"], None),
    ("compare: an empty playouts.csv", {"r/playouts.csv": ""},
     ["compare", "{dir}/r", ADZUA, "--out", "{dir}/c"], {}, 2,
     ["r/playouts.csv: cannot read the playout table"], None),
    ("compare: a playouts.csv of a header only", {"r/playouts.csv": PLAYOUTS_CSV.split("\n")[0]},
     ["compare", "{dir}/r", ADZUA, "--out", "{dir}/c"], {}, 2,
     ["r/playouts.csv: the playout table holds no playouts"], None),
    ("compare: a corrupt parquet", {"r/playouts.parquet": b"PAR1\x00\x01garbage"},
     ["compare", "{dir}/r", ADZUA, "--out", "{dir}/c"], {}, 2,
     ["r/playouts.parquet: cannot read the playout table", "magic bytes"], None),
    ("compare: a winner that is not a player", {"r/playouts.csv": PLAYOUTS_CSV % 7},
     ["compare", "{dir}/r", ADZUA, "--out", "{dir}/c"], {}, 2,
     ["playout row 1: 'winner' is 7, expected 0 (no winner) or a player from 1 to 2"], None),
    ("compare: a winner that is a word", {"r/playouts.csv": PLAYOUTS_CSV % "banana"},
     ["compare", "{dir}/r", ADZUA, "--out", "{dir}/c"], {}, 2,
     ["playout row 1: 'winner' is 'banana', expected 0"], None),
    ("compare: --out that is a file", {"out": "x"},
     ["compare", ADZUA, ADZUA_2, "-n", "1000000", "--out", "{out}"], {}, 2,
     ["--out", "is a file, not a directory"], None),
    ("concepts: --against a missing index", {},
     ["concepts", ADZUA, "--nearest", "3", "--against", "{dir}/none.json"], {}, 2,
     ["cannot read", "none.json: No such file or directory"], None),
    ("concepts: --against an empty index", {"i.json": ""},
     ["concepts", ADZUA, "--nearest", "3", "--against", "{i.json}"], {}, 2,
     ["not an index written by `ludeme concepts --index", "the file is empty"], None),
    ("concepts: --against an index that is not JSON", {"i.json": '{"games": [}'},
     ["concepts", ADZUA, "--nearest", "3", "--against", "{i.json}"], {}, 2,
     ["not JSON (Expecting value)"], "i.json:1:12:"),
    ("concepts: --against JSON that is not an index", {"i.json": "[1]"},
     ["concepts", ADZUA, "--nearest", "3", "--against", "{i.json}"], {}, 2,
     ["expected an object whose 'games' lists"], None),
    ("concepts: --index of a missing folder", {},
     ["concepts", "--index", "{dir}/none", "--out", "{dir}/x.json"], {}, 2,
     ["--index", "none: no such folder"], None),
    ("concepts: --index of a folder without descriptions", {"d/notes.txt": "x"},
     ["concepts", "--index", "{dir}/d", "--out", "{dir}/x.json"], {}, 2,
     ["no .lud descriptions in it"], None),
    ("concepts: --nearest 0", {"i.json": "x"},
     ["concepts", ADZUA, "--nearest", "0", "--against", "{i.json}"], {}, 2,
     ["--nearest must be a positive number of games, got 0"], None),
    ("concepts: --nearest -1", {"i.json": "x"},
     ["concepts", ADZUA, "--nearest", "-1", "--against", "{i.json}"], {}, 2,
     ["--nearest must be a positive number of games, got -1"], None),
    ("moves: a position file that is not UTF-8", {"p.txt": b"mover: P1\nMarker1: A1 B2\xff\n"},
     ["moves", ADZUA, "{p.txt}"], {}, 2,
     ["the position is not UTF-8 text: byte 0xff at byte offset 24"], "p.txt:2:15:"),
    ("crosscheck: a .trl that is not a trial", {"t.trl": "hello\n"},
     ["crosscheck", "{t.trl}", "--lud", ADZUA, "-j", "1"], {}, 2,
     ["line 1: expected `key=value`"], None),
    ("crosscheck: a .trl with a bad move",
     {"t.trl": "game=Adzua (Children)\nMove=[Move:mover=x]\n"},
     ["crosscheck", "{t.trl}", "--lud", ADZUA, "-j", "1"], {}, 2,
     ["line 2", "integer `mover`"], None),
    ("crosscheck: a .trl naming no game", {"t.trl": "winner=1\n"},
     ["crosscheck", "{t.trl}", "--ludii-dir", "{dir}", "-j", "1"], {}, 2,
     ["no `game=` line"], None),
    ("record: --out in a missing folder", {},
     ["record", ADZUA, "--seed", "1", "--out", "{dir}/none/a.trl"], {}, 2,
     ["cannot write", "a.trl"], None),
    *[(f"board: --{kind} naming a folder", {"d/x": "x"},
       ["board", ADZUA, f"--{kind}", "{dir}/d"], {}, 2,
       [f"--{kind}", "d is a directory; give the name of a file to write"], None)
      for kind in ("svg", "png")],
    *[(f"board: --{kind} in a missing folder", {},
       ["board", ADZUA, f"--{kind}", f"{{dir}}/none/b.{kind}"], {}, 2,
       [f"--{kind}", "none does not exist (give a file in an existing folder)"], None)
      for kind in ("svg", "png")],
]


def _argv(tmp_path, files, argv):
    """Write the case's files; its arguments with their names filled in."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    names = {name: str(tmp_path / name) for name in files} | {"dir": str(tmp_path)}
    for key, value in names.items():
        argv = [a.replace("{" + key + "}", value) for a in argv]
    return argv


def _run(tmp_path, files, argv, env):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("LUDEME_MAX")}
    full_env.update(env)
    return subprocess.run([sys.executable, "-m", "ludeme", *_argv(tmp_path, files, argv)],
                          capture_output=True, text=True, timeout=120, env=full_env,
                          cwd=tmp_path)


class _Hung(BaseException):
    """The alarm of a command that ran too long (not an Exception: `main` lets it out)."""


def _run_here(tmp_path, files, argv, env, monkeypatch, capfd):
    """As `_run`, by calling `main` in this process: the same exit status and messages
    without a Python start-up per case. Limits come from the environment as a subprocess
    would see them, and whatever the command sets there is undone afterwards."""
    import signal
    from types import SimpleNamespace

    from ludeme.cli.main import main
    argv = _argv(tmp_path, files, argv)
    for key in [k for k in os.environ if k.startswith("LUDEME_MAX")] + [
            "LUDEME_MAX_EXPANSION", "LUDEME_MAX_NESTING", "LUDEME_MAX_DEFINE_DEPTH",
            "LUDEME_MAX_FILE_BYTES"]:
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(tmp_path)

    def hung(signum, frame):
        raise _Hung(f"{argv} ran past 120 s")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    try:
        capfd.readouterr()
        status = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    out, err = capfd.readouterr()
    return SimpleNamespace(returncode=status, stdout=out, stderr=err)


@pytest.mark.parametrize("name,files,argv,env,status,words,position", CASES,
                         ids=[c[0] for c in CASES])
def test_hostile_input(tmp_path, name, files, argv, env, status, words, position,
                       monkeypatch, capfd):
    r = _run_here(tmp_path, files, argv, env, monkeypatch, capfd)
    _check(tmp_path, r, status, words, position)


# A sample of the cases (limits from the environment, a positioned error, an unreadable
# file, each command family), the whole way: `python -m ludeme` in a process of its own.
WHOLE_WAY = [c for c in CASES if c[0] in {
    "a smaller budget from the environment", "an unclosed bracket found by indentation",
    "a device that never ends", "a bad limit in the environment",
    "--ludii-dir that does not exist", "compare: an empty playouts.csv",
    "moves: a position file that is not UTF-8", "crosscheck: a .trl naming no game"}]


@pytest.mark.parametrize("name,files,argv,env,status,words,position", WHOLE_WAY,
                         ids=[c[0] for c in WHOLE_WAY])
def test_hostile_input_in_a_process_of_its_own(tmp_path, name, files, argv, env, status,
                                               words, position):
    _check(tmp_path, _run(tmp_path, files, argv, env), status, words, position)


def _check(tmp_path, r, status, words, position):
    out = r.stdout + r.stderr
    assert r.returncode == status, out
    assert "Traceback" not in out and "internal error" not in out, out
    for w in words:
        assert w in out, out
    if position is not None:
        # the message is positioned: `file:line:col:` then a caret under the place
        first = next(line for line in out.splitlines() if position in line)
        assert first.split(position, 1)[0].endswith(str(tmp_path) + os.sep)
        if status == 2:
            assert "^" in r.stderr


def test_an_unknown_option_points_at_no_unrelated_place(tmp_path):
    """An option the file lacks has no place in it: no caret under some define at 1:1."""
    r = _run(tmp_path, {}, ["expand", ADZUA, "--option", "Nope/Nope"], {})
    assert r.returncode == 2 and "unknown option 'Nope/Nope'" in r.stderr
    assert "^" not in r.stderr and ":1:1:" not in r.stderr, r.stderr


def test_one_playout_reports_its_rate_and_no_warning(tmp_path):
    """A run of one playout: the console rate is not rounded to "0/s" (people's numbers,
    `report.number_text`), and the undefined variance of one value warns nobody."""
    r = _run(tmp_path, {}, ["run", ADZUA, "-n", "1", "-j", "1", "--backend", "reference",
                            "--no-progress", "--out", "{dir}/o"], {})
    assert r.returncode == 0, r.stderr
    assert "(0/s" not in r.stdout and "Warning" not in r.stderr, r.stdout + r.stderr


# Adzua (Ludii 1): a mover who leaves the opponent two markers wins.
FINISHED = "mover: P2\nphase: Movement\nMarker1: A1 B2 C3 A3\nMarker2: C1 B1\n"


@pytest.mark.parametrize("position, said, listed", [
    (FINISHED, "the game is over in this position: player 1 wins (NaturalEnd)", False),
    (FINISHED.replace("P2", "P1", 1), "player 1 to move (Movement)", True),
], ids=["P1 has just won", "P2 has just moved: P1 plays on"])
def test_moves_of_a_finished_position_say_the_game_is_over(tmp_path, position, said, listed):
    """A position is the board after the previous mover's move: where the end rules end the
    game there, no moves are listed and the winner is named."""
    r = _run(tmp_path, {"p.txt": position}, ["moves", ADZUA, "{p.txt}"], {})
    assert r.returncode == 0 and said in r.stdout, r.stdout + r.stderr
    assert ("  1. " in r.stdout) == listed, r.stdout


def test_a_link_out_of_the_ludii_dir_is_not_followed(tmp_path):
    """A trace's file is looked for under --ludii-dir only, links resolved: a link to a
    file elsewhere is not opened, and nothing of that file is echoed."""
    secret = tmp_path / "secret.lud"
    secret.write_text("(topsecret)")
    (tmp_path / "lud").mkdir()
    (tmp_path / "lud" / "link.lud").symlink_to(secret)
    r = _run(tmp_path, {"t.json": json.dumps({"file": "link.lud", "steps": []})},
             ["crosscheck", "{t.json}", "--ludii-dir", "{dir}/lud"], {})
    assert "topsecret" not in r.stdout + r.stderr
    assert "no link.lud under" in r.stdout + r.stderr


def test_an_excerpt_of_a_huge_line_stays_short_and_escaped(tmp_path):
    """A fault on a 10 MB line shows a window of the line around it, control characters
    escaped: the terminal gets a few hundred characters, not the line."""
    text = GAME.replace("(players 2)", "(players 2)" + " " * 10_000_000 + "\x1b[31m") \
        % "(is Line 3)"
    r = _run(tmp_path, {"g.lud": text}, ["expand", "{g.lud}"], {})
    out = r.stdout + r.stderr
    assert r.returncode == 2, out[:2000]
    assert len(out) < 1000, len(out)
    assert "unexpected character '\\x1b'" in out and "^" in out and "\x1b" not in out


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_out_that_is_not_writable(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    r = _run(tmp_path, {}, ["run", ADZUA, "-n", "1", "--out", str(locked / "o")], {})
    assert r.returncode == 2 and "permission denied" in r.stderr, r.stderr


@pytest.mark.parametrize("make, words", [
    (lambda d: (d / "o").symlink_to(d / "nowhere" / "o"),
     ["--out", "is a symbolic link to", "which does not exist"]),
    (lambda d: ((d / "o").symlink_to(d / "p"), (d / "p").symlink_to(d / "o")),
     ["--out", "is a symbolic link in a loop"]),
], ids=["a dangling link", "a link loop"])
@pytest.mark.parametrize("below", ["", "/sub"], ids=["out", "below"])
def test_out_that_is_a_broken_link_is_refused_before_playing(tmp_path, make, words, below):
    """Refused before the first playout: a million playouts would outlast the timeout."""
    make(tmp_path)
    r = _run(tmp_path, {}, ["run", ADZUA, "-n", "1000000", "--backend", "reference",
                            "--no-progress", "--out", str(tmp_path / "o") + below], {})
    out = r.stdout + r.stderr
    assert r.returncode == 2 and "Traceback" not in out and "internal error" not in out, out
    for w in words:
        assert w in r.stderr, out


def test_out_whose_name_is_not_utf8_is_refused_before_playing(tmp_path):
    name = os.fsencode(tmp_path) + b"/out\xff"
    r = subprocess.run([sys.executable, "-m", "ludeme", "run", ADZUA, "-n", "1000000",
                        "--no-progress", "--out", name], capture_output=True, timeout=120)
    err = r.stderr.decode("utf-8")          # what is echoed is UTF-8, the byte escaped
    assert r.returncode == 2 and "Traceback" not in err, err
    assert "out\\xff: the name is not valid UTF-8" in err, err
    assert not os.path.exists(name)


def _table():
    return pd.DataFrame({"game": ["G"], "x": [1]})


def test_a_full_disk_leaves_out_as_it_was(tmp_path, monkeypatch):
    from ludeme.analysis import report
    from ludeme.errors import LudemeError
    (tmp_path / "summary.csv").write_text("old")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "x.tmp"))

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    with pytest.raises(LudemeError, match="No space left on device .is the disk full"):
        report.write_run(_table(), _table(), tmp_path)
    assert (tmp_path / "summary.csv").read_text() == "old"
    assert not list(tmp_path.glob(".*.tmp"))


def test_two_runs_on_one_out_leave_one_whole_set_and_the_last_says_so(tmp_path, monkeypatch,
                                                                      capsys):
    from ludeme.analysis import report
    monkeypatch.setattr(report, "plot_lengths", lambda df: _blank())
    monkeypatch.setattr(report, "plot_outcomes", lambda df: _blank())
    monkeypatch.setattr(report, "summary_markdown", lambda df, s, *_: f"rows {len(df)}")
    monkeypatch.setattr(report, "report_html", lambda df, s, plots, *_, **__: f"rows {len(df)}")
    first, second = _table(), pd.concat([_table()] * 2)
    report.note_run_start(tmp_path)     # both runs start before either has written
    report.note_run_start(tmp_path)
    report.write_run(first, first, tmp_path)
    assert "another run" not in capsys.readouterr().err
    report.write_run(second, second, tmp_path)
    assert "another run also wrote" in capsys.readouterr().err
    assert (tmp_path / "summary.md").read_text() == "rows 2"
    assert len(pd.read_csv(tmp_path / "playouts.csv")) == 2
    assert not list(tmp_path.glob(".*.tmp"))


def _blank():
    from matplotlib.figure import Figure
    return Figure(figsize=(1, 1))


def test_a_run_holds_its_out_and_leaves_no_folder_when_it_wrote_nothing(tmp_path):
    from ludeme.analysis.report import run_lock
    from ludeme.errors import LudemeError
    out = tmp_path / "new"
    with run_lock(out):
        assert (out / ".running").read_text() == f"{os.getpid()}\n"
        with pytest.raises(LudemeError, match=f"another ludeme run .process {os.getpid()}. is "
                                              "writing into it; wait for it to finish"):
            with run_lock(out):
                pass
    assert not out.exists()          # made for a run that wrote nothing: removed
    out.mkdir()
    with run_lock(out):
        pass
    assert out.is_dir()              # the user's own folder stays


def test_out_without_permission_is_refused_before_playing(tmp_path, monkeypatch):
    from ludeme.analysis import report
    from ludeme.errors import LudemeError
    monkeypatch.setattr(report.os, "access", lambda path, mode: False)
    with pytest.raises(LudemeError, match="cannot write into .*: permission denied"):
        report.check_out_dir(tmp_path / "new" / "out", make=False)


WRITER = """
import sys
sys.path.insert(0, sys.argv[3])
from fake_game import FakeGame
from ludeme.analysis import report
from ludeme.analysis.metrics import summarize
from ludeme.analysis.playouts import run_playouts
df = run_playouts(FakeGame(sites=4, max_turns=5), int(sys.argv[2]), seed=2, jobs=1)
report.note_run_start(sys.argv[1])
report.write_run(df, summarize(df), sys.argv[1])
"""


def test_two_processes_on_one_out_leave_one_complete_set(tmp_path):
    out = tmp_path / "out"
    tests = os.path.dirname(__file__)
    runs = [subprocess.Popen([sys.executable, "-c", WRITER, str(out), str(rows), tests],
                             stderr=subprocess.PIPE, text=True) for rows in (3, 5)]
    errs = [r.communicate(timeout=300)[1] for r in runs]
    assert [r.returncode for r in runs] == [0, 0], errs
    rows = len(pd.read_csv(out / "playouts.csv"))
    assert rows in (3, 5)
    assert len(pd.read_parquet(out / "playouts.parquet")) == rows   # the same run's files
    assert pd.read_csv(out / "summary.csv")["n"].tolist() == [rows]
    assert not list(out.glob(".*.tmp"))


@pytest.mark.parametrize("name, shown", [
    ("A|B", "A\\|B"),
    ("<script>x</script>", "&lt;script&gt;x&lt;/script&gt;"),
    ("*bold* _it_ `code`", "\\*bold\\* \\_it\\_ \\`code\\`"),
    ("two\nlines", "two lines"),
    ("\x1b[2J", "\\x1b[2J"),
])
def test_a_game_name_is_literal_in_summary_md(name, shown):
    """Nothing in a name can break summary.md's tables, pass HTML or drive a terminal."""
    from ludeme.analysis.report import md
    assert md(name) == shown


@pytest.mark.parametrize("signum, status", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_stopped_run_stops_cleanly_and_writes_what_finished(tmp_path, signum, status):
    """SIGTERM (what `timeout` and schedulers send) is handled as Ctrl-C (SIGINT): the
    workers stop, no process, shared-memory segment or temporary file outlives the run,
    and the playouts that finished are written, the console, summary.md, summary.csv and
    the partitions on disk giving one count. A run of 10^8 playouts starts at once:
    nothing is made per playout before it is played. The game is tic-tac-toe, with
    partitions of 1,000 playouts (as in tests/test_soak.py), so one is written at once."""
    import re
    import signal
    import time
    out, temp = tmp_path / "o", tmp_path / "temp"
    temp.mkdir()                           # the run's temporary files go here, to be counted
    lud = tmp_path / "ttt.lud"
    lud.write_text(GAME % "(is Line 3)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LUDEME_MAX")}
    env["TMPDIR"] = str(temp)
    run = ("import sys; from ludeme.analysis import playouts; playouts.PARTITION_SIZE = 1000; "
           "from ludeme.cli.main import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", run, "run", str(lud), "-n", "100000000",
                             "--backend", "reference", "-j", "2", "--no-progress", "--out",
                             str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, preexec_fn=ctrl_c_reaches_it)
    deadline = time.time() + 180           # generous: the suite's workers load the cores
    while time.time() < deadline and not (out.exists() and any(out.rglob("*.parquet"))):
        time.sleep(0.2)                    # until a partition of finished playouts is written
    assert out.exists() and any(out.rglob("*.parquet")), "no partition written in 180 s"
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                              text=True).stdout.split()
    proc.send_signal(getattr(signal, signum))
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == status, stderr
    assert "kept the" in stderr, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    def alive():
        return [c for c in children if Path(f"/proc/{c}").exists()
                and "Z" not in Path(f"/proc/{c}/stat").read_text().split()[2:3]]
    def shared():
        return [n for n in os.listdir("/dev/shm") if str(proc.pid) in n]
    # Workers notice their parent is gone, and joblib's resource tracker removes the
    # run's memory-mapping folder, each within moments of the run's end: nothing is left.
    for _ in range(300):                   # within 30 s, however loaded the machine
        if not alive() and not shared():
            break
        time.sleep(0.1)
    assert alive() == []
    assert shared() == []
    left = [p.name for p in out.rglob("*") if p.name.endswith(".tmp") or
            p.name.startswith(".playouts")]
    assert left == []
    assert list(temp.iterdir()) == []      # the game file shipped to workers, joblib's folders
    on_disk = len(pd.read_parquet(out / "playouts"))
    assert on_disk > 0 and on_disk % 1000 == 0            # whole partitions only
    assert int(pd.read_csv(out / "summary.csv")["n"].sum()) == on_disk
    said = re.search(r"kept the (\d+) playouts", stderr).group(1)
    assert int(said) == on_disk and stdout.startswith(f"{on_disk} playouts in"), stdout
    assert f"| n | {on_disk:,} |" in (out / "summary.md").read_text()
