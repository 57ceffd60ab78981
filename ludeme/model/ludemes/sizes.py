"""Sizes and counts of collections: `(size Array ...)`, `(count Players)` (Ludii's
functions/ints/size and functions/ints/count)."""

from __future__ import annotations

from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import Unsupported

from .base import IntFn, P, Region, ludeme


@ludeme("size", "Array")
class SizeArray(IntFn):
    """`(size Array <array>)`: how many values an array holds. Example, whether any value is
    remembered: `(= 0 (size Array (values Remembered)))`."""
    concepts = ()

    params = (P("array", ("IntArrayFn", Region)),)   # an int array, or values read as a region

    def compile(self, env):
        array = env.compile(self.array)
        return lambda c: len(array(c))


@emits(SizeArray, kind="int")
def _size_array(src, lud):
    from .intarray import array_size
    return array_size(src, lud.array)


@ludeme("count", "Players")
class CountPlayers(IntFn):
    """`(count Players)`: how many players the game has."""
    concepts = ()

    params = ()

    def compile(self, env):
        n = env.num_players
        return lambda c: n


emits(CountPlayers, kind="int")(lambda src, lud: "NP")


@ludeme("count", "Active")
class CountActive(IntFn):
    """`(count Active)`: how many players are still in the game (Ludii's CountActive).
    Example: `(if (= (count Active) 2) (result Mover Win))`."""
    concepts = ()

    params = ()

    def compile(self, env):
        n = env.num_players
        return lambda c: sum(1 for p in range(1, n + 1) if c.s.active[p])


@emits(CountActive, kind="int")
def _count_active(src, lud):
    """The kernels' copy of who is still active (`Source.active_players`), summed."""
    base = src.active_players()
    return f"(sc[{base} + 1:{base} + NP + 1] != 0).sum()"


__all__ = ["SizeArray", "CountPlayers", "CountActive"]

