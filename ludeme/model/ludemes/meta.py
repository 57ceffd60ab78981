"""Meta rules beyond swap and passEnd (Ludii's game.rules.meta): `(no Repeat ...)`; the engine
keeps its position records (ludeme.engine.repetition)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import Enum, Other, P, ludeme

RepetitionType = Enum("RepetitionType", "Positional Situational PositionalInTurn "
                      "SituationalInTurn")


@ludeme("no", "Repeat")
class NoRepeat(Other):
    """`(no Repeat [Positional | PositionalInTurn])`: a move may not lead to a position seen
    before, in the whole game (Positional, the default) or in the mover's current turn
    (PositionalInTurn). As Ludii's NoRepeat with Game.satisfiesStateComparison: a position
    is what its state hash reads (every container's sites, the players' phases and order),
    a pass is always allowed, and a position is recorded after each move that ends a turn
    (PositionalInTurn: after every move, the record starting again with each new turn).
    Example (Go): `(meta (no Repeat))`."""
    concepts = ("PositionalSuperko",)

    params = (P("kind", RepetitionType, opt=True),)

    def validate(self):
        if self.kind_ in ("Situational", "SituationalInTurn"):
            raise self.fail(f"(no Repeat {self.kind_}) is not supported yet: situational "
                            "repetition also reads the player to move, scores and more")

    @property
    def repetition(self) -> str:
        return self.kind_ or "Positional"


__all__ = ["NoRepeat"]
