"""The command line: expand, info, check; errors print file:line:col, a caret, and exit 2."""

import json
import subprocess
import sys

import pytest

from conftest import DESCRIPTIONS

ADZUA = str(DESCRIPTIONS / "adzua_children.lud")


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "ludeme", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300)


def test_expand_prints_the_game():
    r = run("expand", ADZUA, "--ruleset", "Adzua (Children) (Ludii 5) (Reconstructed)",
            "--compact")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('(game "Adzua (Children)"')
    assert "(move Step Orthogonal" in r.stdout and "addScore" in r.stdout


def test_info_json_lists_options_rulesets_and_metadata():
    r = run("info", ADZUA, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["game"] == "Adzua (Children)"
    (variant,) = d["options"]
    assert variant["category"] == "Variant" and len(variant["items"]) == 10
    assert variant["default"] == "Adzua (Children) (Ludii 1)"
    assert len(d["rulesets"]) == 10
    assert d["rulesets"][4]["options"] == ["Variant/Adzua (Children) (Ludii 5)"]
    assert d["info"]["source"] == "Meek 1931: 456."
    assert "Ruleset/Adzua (Children) (Ludii 5) (Reconstructed)" in d["info"]["useFor"]


def test_info_text():
    r = run("info", ADZUA)
    assert r.returncode == 0
    assert "* Variant/Adzua (Children) (Ludii 1)" in r.stdout


def test_check_closing_line():
    r = run("check", ADZUA, "--stage", "expand")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"


@pytest.mark.parametrize("text,where,words", [
    ('(game "g"\n  (a (b)', "bad.lud:2:3:", "never closed"),
    ('(game "g" ("Nope"))', "bad.lud:1:12:", "unknown define"),
    ('(game "g" <T>)', "bad.lud:1:11:", "unknown option tag"),
])
def test_errors_exit_2_with_position_and_caret(tmp_path, text, where, words):
    f = tmp_path / "bad.lud"
    f.write_text(text)
    r = run("expand", "bad.lud", cwd=tmp_path)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    first = r.stderr.splitlines()[0]
    assert where in first and words in first
    assert "^" in r.stderr


def test_unknown_option_and_ruleset_exit_2_listing_known_names():
    r = run("expand", ADZUA, "--option", "Variant/Ludii 11")
    assert r.returncode == 2 and "Variant/Adzua (Children) (Ludii 1)" in r.stderr
    r = run("expand", ADZUA, "--ruleset", "Nope")
    assert r.returncode == 2 and "known rulesets" in r.stderr
    assert "Traceback" not in r.stderr


def test_missing_file_exits_2(tmp_path):
    r = run("expand", str(tmp_path / "none.lud"))
    assert r.returncode == 2 and "cannot read" in r.stderr and "Traceback" not in r.stderr


def test_check_counts_failures_and_templates(tmp_path):
    (tmp_path / "good.lud").write_text('(game "g" (players 2))')
    (tmp_path / "bad.lud").write_text('(game "g" ("Nope"))')
    (tmp_path / "tmpl.lud").write_text('(game "g" (board [#]) (piece [2..4]))')
    r = run("check", str(tmp_path), "--stage", "expand")
    assert r.returncode == 1
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "1 passed, 1 failed, 1 templates"
    assert any("bad.lud:1:12:" in line and "unknown define" in line for line in lines)
    assert any("tmpl.lud: template; unknown parts at 1:18 [#], 1:30 [2..4]" in line
               for line in lines)


def test_internal_errors_are_reported_without_a_traceback(monkeypatch, capsys):
    from ludeme.cli import info
    from ludeme.cli import main as cli

    def broken(args):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(info, "run", broken)
    monkeypatch.delenv("LUDEME_DEBUG", raising=False)
    assert cli.main(["info", "x.lud"]) == 3
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError" in err and "Traceback" not in err
