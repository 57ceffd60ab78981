"""`(move Swap ...)` (Ludii's game.rules.play.moves.decision MoveSwapType)."""

from __future__ import annotations

from ludeme.engine.state import A_ADD, A_MOVE, A_NEXT, A_SWAP, Move
from .base import Enum, IntFn, Moves, P, RoleType, ludeme

SwapType = Enum("SwapType", "Players Pieces")


@ludeme("move", "Swap")
class MoveSwap(Moves):
    """`(move Swap Players <player> <player> [(then ...)])`: a decision (from = to = -1) that
    swaps the two players' seats; the mover moves again (Ludii's SwapPlayers).
    `(move Swap Pieces [<site A>] [<site B>] [(then ...)])`: a decision from A (the last
    origin by default) to B (the last destination by default) that moves the piece at A
    onto B and puts a new piece of B's kind at A (Ludii's SwapPieces: a move and an add,
    so the state and value of B's piece are not kept)."""
    concepts = ("SwapPlayersDecision if what == Players", "SwapPiecesDecision if what == Pieces")

    params = (P("what", SwapType), P("player1", (RoleType, IntFn), opt=True),
              P("player2", (RoleType, IntFn), opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        then = _then(env, self)
        if self.what == "Pieces":
            return self._pieces(env, then)
        if self.player1 is None or self.player2 is None:
            raise self.fail("(move Swap Players ...) needs two players")
        p1, p2 = (env.role_id(p, self) if isinstance(p, str) else env.compile(p)
                  for p in (self.player1, self.player2))

        def swap(c):
            mover = c.s.mover
            return [Move(-1, -1, mover, [(A_SWAP, p1(c), p2(c)), (A_NEXT, mover)], then)]
        return swap

    def _pieces(self, env, then):
        """Ludii's SwapPieces as a decision."""
        sites = []
        for loc, default in ((self.player1, lambda c: c.s.last_from),
                             (self.player2, lambda c: c.s.last_to)):
            if isinstance(loc, str):
                raise self.fail(f"(move Swap Pieces ...) takes sites, not the role {loc}")
            sites.append(env.compile(loc) if loc is not None else default)
        site_a, site_b = sites
        owners = [comp.owner for comp in env.components]
        n = env.total_sites

        def swap_pieces(c):
            a, b = site_a(c), site_b(c)
            if not (0 <= a < n and 0 <= b < n):
                return []
            what_b = c.s.what[b]
            acts = [(A_MOVE, a, b)]
            if what_b > 0:      # Ludii's add of nothing leaves the site empty
                acts.append((A_ADD, a, what_b, owners[what_b], 1))
            return [Move(a, b, c.s.mover, acts, then)]
        return swap_pieces


@ludeme("swap", "Players")
class SwapPlayers(Moves):
    """`(swap Players <player> <player> [(then (note ...))])`: the effect of swapping the two
    players' seats, the mover moving again (Ludii's SwapPlayers). Ludii keeps its then on
    the list of moves, which a consequent never applies: a then that only shows notes
    (changing nothing either way) is read, any other is refused.
    Example: `(then (swap Players P1 P2))`."""
    concepts = ("SwapPlayersEffect",)

    params = (P("player1", (RoleType, IntFn)), P("player2", (RoleType, IntFn)),
              P("then", "Then", opt=True))

    def compile(self, env):
        from .note import Note
        if self.then is not None:
            if not isinstance(self.then.moves, Note):
                self.refuse("then", why="Ludii keeps it on the list of moves, not on the swap")
            env.compile(self.then)      # a note: it changes nothing in the game
        p1, p2 = (env.role_id(p, self) if isinstance(p, str) else env.compile(p)
                  for p in (self.player1, self.player2))

        def swap(c):
            mover = c.s.mover
            return [Move(-1, -1, mover, [(A_SWAP, p1(c), p2(c)), (A_NEXT, mover)])]
        return swap
