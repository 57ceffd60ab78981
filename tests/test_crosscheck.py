"""Replaying Ludii's recorded traces: Adzua agrees in all ten rulesets, with Ludii's file
and with the project's own description; a wrong rule set is caught at the right step."""

import subprocess
import sys

import pytest

from conftest import DESCRIPTIONS
from ludeme.analysis.crosscheck import crosscheck_files, read_trace, replay
from ludeme.api import load

ADZUA = str(DESCRIPTIONS / "adzua_children.lud")


def _traces(refdata, slug):
    files = sorted((refdata / "traces" / slug).glob("*.json.gz"))
    assert files, f"no traces for {slug}"
    return [str(f) for f in files]


@pytest.mark.parametrize("n", range(1, 11))
def test_adzua_agrees_with_ludii_file(refdata, ludii, n):
    verdicts = crosscheck_files(_traces(refdata, f"adzua-children-ludii-{n}"),
                                ludii_dir=str(ludii / "games"))
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("slug", ["lines-of-action-draw", "lines-of-action-mover-win",
                                  "konane-8x8", "konane-10x10", "achi", "tic-tac-toe",
                                  "breakthrough", "gomoku", "chinese-checkers-2p-a",
                                  "chinese-checkers-2p-b", "chinese-checkers-3p",
                                  "chinese-checkers-4p", "chinese-checkers-5p",
                                  "chinese-checkers-6p", "hex", "english-draughts"])
def test_other_reference_games_agree(refdata, ludii, slug):
    verdicts = crosscheck_files(_traces(refdata, slug), ludii_dir=str(ludii / "games"))
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("n", range(1, 11))
def test_adzua_agrees_with_own_description(refdata, n):
    verdicts = crosscheck_files(_traces(refdata, f"adzua-children-ludii-{n}"), lud=ADZUA)
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


def test_wrong_rules_are_caught_with_the_step(refdata):
    # Ludii 1 (steps to any adjacent point, plain line check) against a Ludii 5 trace:
    # the two agree until a line is made in the movement phase, then the scores differ.
    game = load(ADZUA, ruleset="Adzua (Children) (Ludii 1) (Reconstructed)")
    results = [replay(game, read_trace(t), t) for t in _traces(refdata, "adzua-children-ludii-5")]
    assert not all(v.ok for v in results)
    bad = next(v for v in results if not v.ok)
    assert bad.agreed < bad.steps and "step" in bad.detail


def test_tampered_trace_is_caught(refdata):
    trace = read_trace(_traces(refdata, "adzua-children-ludii-5")[0])
    trace["steps"][3]["legal"].pop()
    v = replay(load(ADZUA, ruleset="Adzua (Children) (Ludii 5) (Reconstructed)"), trace, "t")
    assert not v.ok and v.agreed == 3 and "legal moves differ" in v.detail


def test_cli_closing_line_and_exit_code(refdata):
    traces = _traces(refdata, "adzua-children-ludii-5")[:3]
    r = subprocess.run([sys.executable, "-m", "ludeme", "crosscheck", *traces, "--lud", ADZUA],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "3 agreed, 0 disagreed, 0 unsupported"


def test_order_and_chaos_shared_items_agree_with_ludii(refdata, ludii):
    # Shared pieces and the shared hand belong to player n + 1, as Ludii resolves
    # Shared; (handSite Shared) and copy:True follow from that.
    trace = refdata / "corpus-traces" / "board_space_line_Order_and_Chaos.json.gz"
    lud = ludii / "corpus" / "board" / "space" / "line" / "Order and Chaos.lud"
    verdicts = crosscheck_files([trace], lud=lud)
    assert [v.ok for v in verdicts] == [True], verdicts[0].line()


def _corpus_trace(refdata, name):
    path = refdata / "corpus-traces" / f"{name}.json.gz"
    if not path.exists():
        pytest.skip(f"{path} is not in this copy of the reference data")
    return str(path)


def test_corpus_trace_found_by_index_and_unsupported_is_its_own_verdict(refdata, ludii,
                                                                          tmp_path):
    # A game whose board this engine refuses gives `unsupported (compile)`, names the ludeme,
    # and does not stop the run: the next trace is still replayed.
    lud = tmp_path / "refused.lud"
    lud.write_text('(game "R" (players 2) (equipment {(board (mesh 30))}) '
                   '(rules (play (move Pass)) (end (if (no Moves Mover) (result Mover Loss)))))')
    traces = _traces(refdata, "tic-tac-toe")[:1]
    bad = crosscheck_files(traces, lud=str(lud))
    assert bad[0].status == "unsupported" and bad[0].stage == "compile"
    assert bad[0].ludeme == "mesh" and bad[0].line().startswith(
        "tic-tac-toe/seed-1: unsupported (compile): ")
    corpus = _corpus_trace(refdata, "board_space_line_Tic-Tac-Toe")
    both = crosscheck_files([corpus] + traces, ludii_dir=str(ludii), jobs=2)
    assert [v.status for v in both] == ["agreed", "agreed"]
    assert both[0].family == "board/space"


def test_cli_summary_tables_and_time_limit(refdata, ludii):
    corpus = _corpus_trace(refdata, "board_space_line_Tic-Tac-Toe")
    r = subprocess.run([sys.executable, "-m", "ludeme", "crosscheck", corpus, "--ludii-dir",
                        str(ludii), "--summary", "--time-limit", "60", "-j", "1"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert out[-1] == "1 agreed, 0 disagreed, 0 unsupported"
    assert any(line.split()[:2] == ["board/space", "1"] for line in out)
    r = subprocess.run([sys.executable, "-m", "ludeme", "crosscheck", corpus, "--ludii-dir",
                        str(ludii), "--time-limit", "0.001", "-j", "1"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "time limit of 0.001s reached" in r.stdout, r.stdout + r.stderr
    # a trace past its limit has no verdict: reported as timed out, never as a disagreement
    lines = r.stdout.splitlines()
    assert "TIMED OUT" in lines[0] and "DISAGREED" not in r.stdout, r.stdout
    assert lines[-1] == "0 agreed, 0 disagreed, 0 unsupported, 1 timed out"


def test_a_draw_from_sites_random_during_play_is_refused_in_a_replay(tmp_path, ludeme_here):
    """A recorded game does not give a play-time (sites Random ...) draw in a form that is
    forced yet: its replay stops at the ludeme with "not supported yet", never a verdict
    drawn from another draw. A draw in the start rules is still forced as recorded."""
    lud = tmp_path / "g.lud"
    lud.write_text('(game "G" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
                   '(rules (play (move Add (to (sites Random (sites Empty))))) '
                   '(end (if (is Full) (result Mover Draw)))))')
    trl = tmp_path / "g.trl"
    assert ludeme_here("record", lud, "--seed", "1", "--out", trl).returncode == 0
    [v] = crosscheck_files([str(trl)], lud=str(lud), seconds=None)
    assert v.status == "unsupported" and v.stage == "run", v.line()
    assert "g.lud:1:" in v.detail and "(sites Random ...) drawn during play" in v.detail


def test_no_jit_replays_on_the_kernels_run_as_python_without_compiling(refdata, ludii, tmp_path):
    """`--backend compiled --no-jit` checks the generated kernels without numba compiling
    them: Tic-Tac-Toe's traces agree and numba's cache stays empty (with the JIT on, numba
    compiles and caches the game's kernels). Refused without `--backend compiled`."""
    import os
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["LUDEME_CACHE_DIR"] = str(tmp_path)
    base = [sys.executable, "-m", "ludeme", "crosscheck", *_traces(refdata, "tic-tac-toe"),
            "--ludii-dir", str(ludii / "games"), "-j", "1"]
    got = subprocess.run(base + ["--backend", "compiled", "--no-jit"], env=env,
                         capture_output=True, text=True, timeout=600)
    assert got.returncode == 0, got.stderr[-2000:]
    assert "agreed" in got.stdout and "run as Python" in got.stderr
    assert list(tmp_path.rglob("*.py")) and not list(tmp_path.rglob("*.nb[ic]"))
    refused = subprocess.run(base + ["--no-jit"], env=env, capture_output=True, text=True,
                             timeout=600)
    assert refused.returncode != 0 and "--backend compiled" in refused.stderr
    assert "Traceback" not in refused.stderr
