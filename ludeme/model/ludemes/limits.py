"""The game's own limits (Ludii's functions/ints/value/simple): `(value MoveLimit)` and
`(value TurnLimit)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits

from .base import IntFn, ludeme


@ludeme("value", "MoveLimit")
class ValueMoveLimit(IntFn):
    """`(value MoveLimit)`: the number of moves after which the game stops (Ludii's
    getMaxMoveLimit, 10000 unless the run sets another). Example (Ludus Coriovalli):
    `(>= (count Moves) (- (value MoveLimit) 10))`."""
    concepts = ()
    params = ()

    def compile(self, env):
        return lambda c: c.g.max_moves


@ludeme("value", "TurnLimit")
class ValueTurnLimit(IntFn):
    """`(value TurnLimit)`: the number of turns per player after which the game stops
    (Ludii's getMaxTurnLimit, 1250 unless the run sets another)."""
    concepts = ()
    params = ()

    def compile(self, env):
        return lambda c: c.g.max_turns


# Compiled forms (`ludeme.engine.compiled.emit`): the generated module's limits.

@emits(ValueMoveLimit, kind="int")
def _move_limit(src, lud):
    return "MAX_MOVES"


@emits(ValueTurnLimit, kind="int")
def _turn_limit(src, lud):
    return "MAX_TURNS"


__all__ = ["ValueMoveLimit", "ValueTurnLimit"]
