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
        p1, p2 = (env.player_fn(p, self) for p in (self.player1, self.player2))

        def swap(c):
            mover = c.s.mover
            return [Move(-1, -1, mover, [(A_SWAP, p1(c), p2(c)), (A_NEXT, mover)], then)]
        return swap

    def _pieces(self, env, then):
        """Ludii's SwapPieces as a decision."""
        for loc in (self.player1, self.player2):
            if isinstance(loc, str):
                raise self.fail(f"(move Swap Pieces ...) takes sites, not the role {loc}")
        return swap_pieces(env, self.player1, self.player2, then)


def swap_pieces(env, loc_a, loc_b, then):
    """Ludii's SwapPieces: one move from A (the last origin by default) to B (the last
    destination by default) that moves the piece at A onto B and puts a new piece of B's
    kind at A (a move and an add, so the state and value of B's piece are not kept)."""
    site_a = env.compile(loc_a) if loc_a is not None else (lambda c: c.s.last_from)
    site_b = env.compile(loc_b) if loc_b is not None else (lambda c: c.s.last_to)
    owners = [comp.owner for comp in env.components]
    n = env.total_sites

    def swap(c):
        a, b = site_a(c), site_b(c)
        if not (0 <= a < n and 0 <= b < n):
            return []
        what_b = c.s.what[b]
        acts = [(A_MOVE, a, b)]
        if what_b > 0:      # Ludii's add of nothing leaves the site empty
            acts.append((A_ADD, a, what_b, owners[what_b], 1))
        return [Move(a, b, c.s.mover, acts, then)]
    return swap


@ludeme("swap", "Pieces")
class SwapPieces(Moves):
    """`(swap Pieces [<site A> <site B>] [(then ...)])`: the effect of swapping the pieces
    at two sites, the last origin and destination by default (Ludii's SwapPieces, as
    `(move Swap Pieces ...)` but not a decision). Example:

        (move Select (from (sites Occupied by:Mover)) (to (sites Occupied by:Next))
            (then (swap Pieces (last From) (last To))))
    """
    concepts = ()

    params = (P("loc_a", IntFn, opt=True), P("loc_b", IntFn, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        if (self.loc_a is None) != (self.loc_b is None):
            raise self.fail("(swap Pieces ...) takes two sites or none")
        return swap_pieces(env, self.loc_a, self.loc_b, _then(env, self))


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
        p1, p2 = (env.player_fn(p, self) for p in (self.player1, self.player2))

        def swap(c):
            mover = c.s.mover
            return [Move(-1, -1, mover, [(A_SWAP, p1(c), p2(c)), (A_NEXT, mover)])]
        return swap


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

from ludeme.engine.compiled.emit import emits  # noqa: E402
from ludeme.engine.compiled.unsupported import Unsupported  # noqa: E402


@emits(SwapPlayers, kind="consequent")
def _swap_players_consequent(src, lud, lines, ind):
    """The two players' seats swapped in the order (`State._do_swap`), then the mover moves
    again (its A_NEXT); a (then ...) of notes changes nothing, any other is refused."""
    from .note import Note
    if lud.then is not None and not isinstance(lud.then.moves, Note):
        raise Unsupported(lud, "with (then ...)")
    lines += _swap_seats(src, lud, ind)


def _swap_seats(src, lud, ind):
    """The lines that swap the seats of the ludeme's two players in the order
    (`State._do_swap`), then let the mover move again (its A_NEXT)."""
    a, b = (src.role_expr(p, lud) if isinstance(p, str) else src.int_expr(p)
            for p in (lud.player1, lud.player2))
    src.swaps_players = True        # the order is part of the position's key
    return [f"{ind}sw1, sw2 = {a}, {b}",
              f"{ind}i = 0",
              f"{ind}while i <= NP and sc[ORDER + i] != sw1:",
              f"{ind}    i += 1",
              f"{ind}j = 0",
              f"{ind}while j <= NP and sc[ORDER + j] != sw2:",
              f"{ind}    j += 1",
              f"{ind}if i > NP or j > NP:",
              f"{ind}    raise ValueError('(swap Players ...) of an id not in the order')",
              f"{ind}sc[ORDER + i], sc[ORDER + j] = sc[ORDER + j], sc[ORDER + i]",
              f"{ind}sc[NEXT] = mover",
              f"{ind}sc[REPLAYED] = 1"]


@emits(MoveSwap, kind="moves")
def _swap_pieces_moves(src, lud, out, ind):
    """`(move Swap Pieces ...)`: one decision from A to B where both are sites, whose
    effect moves A's piece onto B and adds a new piece of B's kind (read as it is applied,
    in the position it was generated in) at A, as `swap_pieces`."""
    from ludeme.engine.state import A_ADD as ADD, A_MOVE as MOVE
    if lud.what != "Pieces":
        # `(move Swap Players ...)`: one decision (from = to = -1) swapping the seats, the
        # players read as it is applied (in the position it was generated in)
        if lud.player1 is None or lud.player2 is None:
            raise Unsupported(lud, "without its two players")
        g = src.new_generator(_swap_seats(src, lud, ""), lud=lud, kind=(A_SWAP, A_NEXT))
        src.push(out, ind, "-1", "-1", g)
        return
    a = src.int_expr(lud.player1) if lud.player1 is not None else "sc[LAST_FROM]"
    b = src.int_expr(lud.player2) if lud.player2 is not None else "sc[LAST_TO]"
    effect = ["swb = what[to]", src.site_move("frm", "to"),
              "if swb > 0:", "    " + src.site_add("frm", "swb", "OWNER[swb]", "1")]
    g = src.new_generator(effect, lud=lud, kind=(MOVE, ADD))
    d = len(ind)
    out += [f"{ind}swa_{d}, swb_{d} = {a}, {b}",
            f"{ind}if 0 <= swa_{d} < TOTAL and 0 <= swb_{d} < TOTAL:"]
    src.push(out, ind + "    ", f"swa_{d}", f"swb_{d}", g)


@emits(SwapPlayers, kind="one_move")
def _swap_players_one_move(src, lud):
    """`(swap Players ...)` is always one move."""
    return "True"
