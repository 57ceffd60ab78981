"""`(was ...)`: what the last move was (Ludii's game.functions.booleans.was)."""

from __future__ import annotations

from .base import Bool, P, ludeme


@ludeme("was", "Pass")
class WasPass(Bool):
    """`(was Pass)`: the last move played was a pass (its consequents may have done more)."""

    params = ()

    def compile(self, env):
        return lambda c: bool(c.s.history) and c.s.history[-1][1]
