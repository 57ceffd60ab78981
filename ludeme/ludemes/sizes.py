"""Sizes of collections: `(size Array ...)` (Ludii's functions/ints/size/array)."""

from __future__ import annotations

from .base import IntFn, P, Region, ludeme


@ludeme("size", "Array")
class SizeArray(IntFn):
    """`(size Array <array>)`: how many values an array holds. Example, whether any value is
    remembered: `(= 0 (size Array (values Remembered)))`."""

    params = (P("array", Region),)

    def compile(self, env):
        array = env.compile(self.array)
        return lambda c: len(array(c))


__all__ = ["SizeArray"]
