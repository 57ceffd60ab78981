"""`ludeme play`: a person plays against random; bad input is refused, never a crash."""

import io
import subprocess
import sys

from conftest import DESCRIPTIONS
from ludeme.api import load
from ludeme.interfaces.terminal import play

ADZUA = DESCRIPTIONS / "adzua_children.lud"


def test_bad_input_is_refused_and_q_quits():
    game = load(ADZUA)
    out = io.StringIO()
    play(game, human=1, seed=1, out=out, inp=io.StringIO("x\n0\n99\n\n1\nq\n"))
    text = out.getvalue()
    assert "'x' is not a legal move here" in text
    assert "there is no move 0: type 1 to 9" in text and "there is no move 99" in text
    assert "P1: Hand1-A1" in text and "bye" in text


def test_auto_play_is_reproducible():
    game = load(ADZUA, ruleset="Adzua (Children) (Ludii 5) (Reconstructed)")
    a, b = io.StringIO(), io.StringIO()
    play(game, None, seed=7, out=a)
    play(game, None, seed=7, out=b)
    assert a.getvalue() == b.getvalue() and "wins" in a.getvalue()


def test_cli_play_auto():
    r = subprocess.run([sys.executable, "-m", "ludeme", "play", str(ADZUA), "--auto",
                        "--seed", "3"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "player 1 to move" in r.stdout and ("wins" in r.stdout or "no winner" in r.stdout)


def test_cli_play_survives_closed_input():
    r = subprocess.run([sys.executable, "-m", "ludeme", "play", str(ADZUA)],
                       input="", capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr


def test_r_resigns_and_the_game_goes_on_without_the_resigner():
    game = load(ADZUA)
    out = io.StringIO()
    state = play(game, human=1, seed=1, out=out, inp=io.StringIO("r\n"))
    text = out.getvalue()
    assert "P1 resigns" in text and "player 2 wins" in text
    assert state.is_terminal() and state.ranking[1:] == [2.0, 1.0]


def test_an_agent_opponent_plays_the_other_seat():
    from ludeme.ai.agents import UCTAgent
    game = load(ADZUA, ruleset="Adzua (Children) (Ludii 5) (Reconstructed)")
    out = io.StringIO()
    # The person always types 1; UCT plays player 2 and wins this game.
    final = play(game, human=1, seed=2, out=out, inp=io.StringIO("1\n" * 200),
                 opponent=UCTAgent(iterations=200))
    assert final.is_terminal() and final.winner == 2


def test_cli_play_with_an_opponent():
    r = subprocess.run([sys.executable, "-m", "ludeme", "play", str(ADZUA), "--auto",
                        "--opponent", "uct:iterations=20", "--seed", "1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "wins" in r.stdout or "no winner" in r.stdout
    bad = subprocess.run([sys.executable, "-m", "ludeme", "play", str(ADZUA), "--opponent",
                          "deepblue"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "unknown agent" in bad.stderr
