"""Arithmetic on integers beyond `+` and friends: `(abs ...)` (Ludii's functions/ints/math)."""

from __future__ import annotations

from .base import IntFn, P, ludeme


@ludeme("abs")
class Abs(IntFn):
    """`(abs <int>)`: the absolute value. Example: `(= 1 (abs (- (to) (from))))`."""
    concepts = ("Absolute",)

    params = (P("value", IntFn),)

    def compile(self, env):
        value = env.compile(self.value)
        return lambda c: abs(value(c))


__all__ = ["Abs"]
