"""Both engines follow the one statement of a turn (`ludeme.engine.turns.TURN`)."""

from __future__ import annotations

import inspect
import re

from ludeme.engine import turns
from ludeme.engine.state import State

STEP = re.compile(re.escape(turns.MARKER) + r"([a-z -]+?)(?: \(|$)", re.M)


def markers(text: str) -> list[str]:
    return [m.strip() for m in STEP.findall(text)]


def test_the_reference_engine_marks_every_step_in_order():
    assert markers(inspect.getsource(State.apply)) == list(turns.STEP_NAMES)


def test_the_compiled_turn_loop_marks_its_steps_in_the_same_order():
    from ludeme.engine.compiled import codegen
    step = codegen.LOOP[codegen.LOOP.index("def step("):]
    step = step[:step.index("\n@njit")]
    assert markers(step) == [s.name for s in turns.TURN if s.compiled is True]


def test_every_step_the_compiled_loop_leaves_out_is_refused_by_name():
    """A step the kernels do not write names a feature `check_game` refuses."""
    from ludeme.engine.compiled import codegen
    refused = {what for what, _ in codegen.GAME_REFUSALS}
    for s in turns.TURN:
        if s.compiled is not True:
            assert s.compiled in refused, s.name
