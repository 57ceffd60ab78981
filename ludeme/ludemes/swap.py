"""`(move Swap ...)` (Ludii's game.rules.play.moves.decision MoveSwapType) and the effect
`(swap Players ...)` (nonDecision/effect/state/swap/players)."""

from __future__ import annotations

from ..engine import A_ADD, A_MOVE, A_NEXT, A_SWAP, Move
from .base import Enum, IntFn, Moves, P, RoleType, ludeme

SwapType = Enum("SwapType", "Players Pieces")


@ludeme("move", "Swap")
class MoveSwap(Moves):
    """`(move Swap Players <player> <player> [(then ...)])`: a decision (from = to = -1) that
    swaps the two players' seats; the mover moves again (Ludii's SwapPlayers).
    `(move Swap Pieces [<siteA> <siteB>] [(then ...)])`: a decision from A to B that moves
    the piece at A onto B and puts a piece of the kind B held at A (Ludii's SwapPieces; A
    and B are (last From) and (last To) by default)."""

    params = (P("what", SwapType), P("player1", (RoleType, IntFn), opt=True),
              P("player2", (RoleType, IntFn), opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        if self.what == "Pieces":
            return swap_pieces(env, self, _then(env, self))
        if self.player1 is None or self.player2 is None:
            raise self.fail("(move Swap Players ...) needs the two players")
        return swap_players(env, self, _then(env, self))


def swap_pieces(env, lud, then):
    """Ludii's SwapPieces: ActionMove A -> B, then ActionAdd at A of what B held."""
    sites = []
    for arg, default in ((lud.player1, lambda c: c.s.last_from), (lud.player2,
                                                                     lambda c: c.s.last_to)):
        if isinstance(arg, str):
            raise lud.fail("(move Swap Pieces ...) takes two sites")
        sites.append(env.compile(arg) if arg is not None else default)
    loc_a, loc_b = sites

    def swap(c):
        a, b = loc_a(c), loc_b(c)
        if a < 0 or b < 0:
            return []
        what_b = c.s.what[b]
        acts = [(A_MOVE, a, b)]
        if what_b:
            acts.append((A_ADD, a, what_b, c.g.components[what_b].owner, 1))
        return [Move(a, b, c.s.mover, acts, then)]
    return swap


@ludeme("swap", "Players")
class SwapPlayers(Moves):
    """`(swap Players <player> <player> [(then ...)])`: the same swap of two players' seats
    as an effect, e.g. `(if (is Mover P2) (swap Players P1 P2))`."""

    params = (P("player1", (RoleType, IntFn)), P("player2", (RoleType, IntFn)),
              P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        return swap_players(env, self, _then(env, self))


def swap_players(env, lud, then):
    """Ludii's SwapPlayers: one move (from = to = -1) swapping the seats of the two
    players; the mover is set to move next."""
    p1, p2 = (env.role_id(p, lud) if isinstance(p, str) else env.compile(p)
              for p in (lud.player1, lud.player2))

    def swap(c):
        mover = c.s.mover
        return [Move(-1, -1, mover, [(A_SWAP, p1(c), p2(c)), (A_NEXT, mover)], then)]
    return swap
