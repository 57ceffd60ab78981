"""What the previous decision was: `(was Pass)` (Ludii's functions/booleans/was)."""

from __future__ import annotations

from ludeme.engine.compiled.emit import emits
from .base import Bool, ludeme


@ludeme("was", "Pass")
class WasPass(Bool):
    """`(was Pass)`: the last decision was a pass. Example, playing again unless one passed:
    `(then (if (not (was Pass)) (moveAgain)))`."""
    concepts = ()

    params = ()

    def compile(self, env):
        return lambda c: bool(c.s.history) and c.s.history[-1][1]

__all__ = ["WasPass"]


# Compiled form (`ludeme.engine.compiled.emit`): each decision notes whether it is a pass.
@emits(WasPass, kind="bool")
def _was_pass(src, lud):
    return src.was_pass()
