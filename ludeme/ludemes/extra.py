"""Ludemes that the bundled descriptions need and the other families do not have yet.

Each follows the Ludii class of the same keyword (Core/src/game/...); the
docstring names it and carries a small `.lud` example.
"""

from __future__ import annotations

from .base import IntFn, ludeme


@ludeme("count", "Turns")
class CountTurns(IntFn):
    """`(count Turns)`: the number of the current turn, 1 for the first.

    As Ludii's CountTurns (`state.numTurn()`): it starts at 1 and goes up by one
    whenever the mover changes, so a forced pass counts as a turn and a
    `(moveAgain)` does not. Example, pieces of kind "Big" on the first two turns
    of every four:

        (if (< (% (- (count Turns) 1) 4) 2) (forEach Piece "Big") (forEach Piece "Small"))
    """

    params = ()

    def compile(self, env):
        return lambda c: c.s.num_turn
