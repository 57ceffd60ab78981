"""`(move Swap ...)` (Ludii's game.rules.play.moves.decision MoveSwapType)."""

from __future__ import annotations

from ..engine import A_NEXT, A_SWAP, Move
from .base import Enum, IntFn, Moves, P, RoleType, ludeme

SwapType = Enum("SwapType", "Players Pieces")


@ludeme("move", "Swap")
class MoveSwap(Moves):
    """`(move Swap Players <player> <player> [(then ...)])`: a decision (from = to = -1) that
    swaps the two players' seats; the mover moves again (Ludii's SwapPlayers)."""
    concepts = ("SwapPlayersDecision",)

    params = (P("what", SwapType), P("player1", (RoleType, IntFn)),
              P("player2", (RoleType, IntFn)), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        if self.what != "Players":
            raise self.fail(f"(move Swap {self.what} ...) is not supported yet")
        p1, p2 = (env.role_id(p, self) if isinstance(p, str) else env.compile(p)
                  for p in (self.player1, self.player2))
        then = _then(env, self)

        def swap(c):
            mover = c.s.mover
            return [Move(-1, -1, mover, [(A_SWAP, p1(c), p2(c)), (A_NEXT, mover)], then)]
        return swap
