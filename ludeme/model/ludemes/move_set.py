"""`(move Set ...)`: Ludii's set effects as decisions (game.rules.play.moves.decision,
MoveSetType)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_NEXT, Move
from .base import Enum, IntFn, Moves, P, ludeme
from .moves import _then

MoveSetType = Enum("MoveSetType", "NextPlayer Rotation")


@ludeme("move", "Set")
class MoveSet(Moves):
    """`(move Set NextPlayer <player> [(then ...)])`: a decision (from = to = -1) naming who
    moves after this turn, as Ludii's SetNextPlayer (no move for an id that is not a
    player's). Example: `(or (move Add (to (sites Empty))) (move Set NextPlayer
    (player (next))))`."""
    concepts = ("SetNextPlayer",)

    params = (P("what", MoveSetType), P("player", IntFn, opt=True),
              P("then", "Then", opt=True))

    def validate(self):
        if self.what != "NextPlayer":
            raise self.fail(f"(move Set {self.what} ...) is not supported yet")
        if self.player is None:
            raise self.fail("(move Set NextPlayer ...) needs the player")

    def compile(self, env):
        who = env.compile(self.player)
        then = _then(env, self)
        n = env.num_players

        def set_next(c):
            p = who(c)
            if not 1 <= p <= n:
                return []
            return [Move(-1, -1, c.s.mover, [(A_NEXT, p)], then)]
        return set_next
