"""Random nestings of defines: `check` succeeds or reports a LudemeError, within a time budget.

Each example is a chain of defines where each uses earlier ones some number of
times, wrapped in brackets, with parameters and self-uses mixed in: the shapes
that expand exponentially, recurse, or nest deep. `ludeme check` runs in a
subprocess with a timeout, so an expansion that runs away fails the test.
"""

import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

GAME = ('(game "X" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
        '(rules (play (move Add (to (sites Empty)))) (end (if %s (result Mover Win)))))')
TIME_BUDGET = 60  # seconds for one `check`, on a loaded machine; a runaway takes minutes


@st.composite
def define_nestings(draw):
    count = draw(st.integers(1, 35))
    lines = ['(define "D0" (is Line #1))']
    for i in range(1, count):
        uses = []
        for _ in range(draw(st.integers(1, 8))):
            callee = draw(st.integers(0, i))          # i itself: a define using itself
            arg = draw(st.sampled_from(["3", "#1", "~", '("D0" 3)', ""]))
            uses.append(f'("D{callee}" {arg})' if arg else f'("D{callee}")')
        body = f'(and {{{" ".join(uses)}}})' if len(uses) > 1 else uses[0]
        wrap = draw(st.integers(0, 6))
        lines.append(f'(define "D{i}" {"(not " * wrap}{body}{")" * wrap})')
    return "\n".join(lines) + "\n" + GAME % f'("D{count - 1}" 3)' + "\n"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(define_nestings())
def test_check_ends_with_a_verdict_in_time(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("defines") / "g.lud"
    path.write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LUDEME_MAX")}
    r = subprocess.run([sys.executable, "-m", "ludeme", "check", str(path), "--stage", "compile"],
                       capture_output=True, text=True, timeout=TIME_BUDGET, env=env)
    out = r.stdout + r.stderr
    assert r.returncode in (0, 1), out          # passed, or failed with a LudemeError line
    assert "internal error" not in out and "Traceback" not in out, out
    assert out.rstrip().endswith(("1 passed, 0 failed", "0 passed, 1 failed")), out
    if r.returncode == 1:
        assert f"{path}:" in out, out           # the failure is positioned
