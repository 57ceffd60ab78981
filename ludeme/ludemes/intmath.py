"""Integer arithmetic not covered elsewhere (Ludii's game.functions.ints.math)."""

from __future__ import annotations

from .base import IntFn, P, ludeme


@ludeme("abs")
class Abs(IntFn):
    """`(abs <int>)`: the absolute value."""

    params = (P("value", IntFn),)

    def compile(self, env):
        value = env.compile(self.value)
        return lambda c: abs(value(c))
