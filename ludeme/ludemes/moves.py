"""Moves: decisions and their effects. Each compiles to `c -> list[Move]`."""

from __future__ import annotations

from ..engine import A_ADD, A_MOVE, A_NEXT, A_PASS, A_REMOVE, A_SCORE, A_SET_SCORE, Move
from .base import (Bool, DirWord, Enum, IntFn, LitBool, LitStr, Moves, Other, P, Region,
                   RoleType, SiteType, ludeme)

_NONE = ()
WhenType = Enum("WhenType", "StartOfTurn EndOfTurn")


def _true(c):
    return True


# Site specifications -------------------------------------------------------

@ludeme("from")
class FromSpec(Other):
    """`(from <site|region> [level:] [if:<cond>])`."""

    params = (P("type", SiteType, opt=True), P("site", (IntFn, Region), opt=True),
              P("level", IntFn, opt=True, named=True), P("if", Bool, opt=True, named=True))


@ludeme("to")
class ToSpec(Other):
    """`(to [<site|region>] [level:] [if:<cond>] [(apply ...)])`."""

    params = (P("type", SiteType, opt=True), P("site", (IntFn, Region), opt=True),
              P("level", IntFn, opt=True, named=True), P("if", Bool, opt=True, named=True),
              P("apply", "Apply", opt=True))


@ludeme("apply")
class Apply(Other):
    """`(apply [if:<cond>] <effect>)`: an effect applied at the destination."""

    params = (P("if", Bool, opt=True, named=True), P("effect", Moves, opt=True))


@ludeme("then")
class Then(Other):
    """`(then <moves>)`: consequents applied after the move."""

    params = (P("moves", Moves), P("applyAfterAllMoves", LitBool, opt=True, named=True))

    def compile(self, env):
        return env.compile(self.moves)


@ludeme("directions")
class Directions(Other):
    """`(directions {N E})` or `(directions Orthogonal)`."""

    params = (P("dirs", DirWord, many=True),)


def _sites_fn(env, spec_site, default):
    """A function c -> sequence of sites from an IntFn (one site) or a Region."""
    if spec_site is None:
        return default
    f = env.compile(spec_site)
    if isinstance(spec_site, IntFn):
        return lambda c: (f(c),)
    return f


def _then(env, lud):
    return (env.compile(lud.then),) if lud.then is not None else _NONE


@ludeme("move", "Step")
class MoveStep(Moves):
    """`(move Step [(from ...)] [directions] (to if:...) [stack:] [(then ...)])`."""

    params = (P("from_", "FromSpec", opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("to", "ToSpec"), P("stack", LitBool, opt=True, named=True, default=False),
              P("then", "Then", opt=True))

    def compile(self, env):
        from_fn = env.site_fn(self.from_)
        targets = env.step_targets(self.dirn or "Adjacent", self)
        to_cond = env.compile(self.to.if_) if self.to.if_ is not None else _true
        then = _then(env, self)
        nsites = env.num_board_sites

        def step(c):
            frm = from_fn(c)
            if frm < 0 or frm >= nsites:
                return []
            out = []
            saved = (c.from_, c.to)
            c.from_ = frm
            for to in targets[frm]:
                c.to = to
                if to_cond(c):
                    out.append(Move(frm, to, 0, [(A_MOVE, frm, to)], then))
            c.from_, c.to = saved
            return out
        return step


_REMOVE_PARAMS = (P("type", SiteType, opt=True), P("where", (IntFn, Region)),
                  P("level", IntFn, opt=True, named=True),
                  P("at", WhenType, opt=True, named=True),
                  P("count", IntFn, opt=True, named=True), P("then", "Then", opt=True))


@ludeme("move", "Remove")
class MoveRemove(Moves):
    """`(move Remove <site|region> [at:EndOfTurn] [(then ...)])`: one decision per occupied site."""

    params = _REMOVE_PARAMS

    def compile(self, env):
        sites = _sites_fn(env, self.where, None)
        then = _then(env, self)
        count = env.compile(self.count) if self.count is not None else (lambda c: 1)

        def remove(c):
            what = c.s.what
            out = []
            k = count(c)
            for site in sites(c):
                if site < 0 or what[site] <= 0:
                    continue
                out.append(Move(site, site, 0, [(A_REMOVE, site)] * max(1, k), then))
            return out
        return remove


@ludeme("move")
class MoveFromTo(Moves):
    """`(move (from ...) (to ...) [count:] [copy:] [stack:] [(then ...)])`."""

    params = (P("from_", "FromSpec"), P("to", "ToSpec"), P("count", IntFn, opt=True, named=True),
              P("copy", LitBool, opt=True, named=True, default=False),
              P("stack", LitBool, opt=True, named=True, default=False),
              P("mover", RoleType, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        froms = _sites_fn(env, self.from_.site, lambda c: (c.from_,))
        from_cond = env.compile(self.from_.if_) if self.from_.if_ is not None else None
        tos = _sites_fn(env, self.to.site, lambda c: (c.to,))
        to_cond = env.compile(self.to.if_) if self.to.if_ is not None else _true
        then = _then(env, self)

        def from_to(c):
            what = c.s.what
            out = []
            saved = (c.from_, c.to)
            for frm in froms(c):
                if frm < 0 or what[frm] <= 0:
                    continue
                c.from_ = frm
                if from_cond is not None and not from_cond(c):
                    continue
                for to in tos(c):
                    if to < 0:
                        continue
                    c.to = to
                    if to_cond(c):
                        out.append(Move(frm, to, 0, [(A_MOVE, frm, to)], then))
                c.from_ = frm
            c.from_, c.to = saved
            return out
        return from_to


@ludeme("move", "Add")
class MoveAdd(Moves):
    """`(move Add [(piece ...)] (to ...) [count:] [stack:] [(then ...)])`: place a new piece."""

    params = (P("piece", "PieceRef", opt=True), P("to", "ToSpec"),
              P("count", IntFn, opt=True, named=True), P("stack", LitBool, opt=True, named=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        tos = _sites_fn(env, self.to.site, lambda c: (c.to,))
        to_cond = env.compile(self.to.if_) if self.to.if_ is not None else _true
        then = _then(env, self)
        what_fn = env.compile(self.piece) if self.piece is not None else env.mover_component()
        count = env.compile(self.count) if self.count is not None else (lambda c: 1)

        def add(c):
            out = []
            saved = c.to
            what = what_fn(c)
            if what <= 0:
                return out
            owner = c.g.components[what].owner
            k = count(c)
            for to in tos(c):
                if to < 0:
                    continue
                c.to = to
                if to_cond(c):
                    out.append(Move(to, to, 0, [(A_ADD, to, what, owner, k)], then))
            c.to = saved
            return out
        return add


@ludeme("piece")
class PieceRef(IntFn):
    """`(piece "Name" [role])` inside `(move Add ...)`: the component index to add."""

    params = (P("name", (LitStr, IntFn)), P("role", RoleType, opt=True))

    def compile(self, env):
        if isinstance(self.name, str):
            return env.component_fn(self.name, self.role, self)
        return env.compile(self.name)


@ludeme("move", "Pass")
class MovePass(Moves):
    """`(move Pass [(then ...)])`."""

    params = (P("then", "Then", opt=True),)

    def compile(self, env):
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_PASS,)], then, is_pass=True)]


@ludeme("forEach", "Piece")
class ForEachPiece(Moves):
    """`(forEach Piece ["Name"|{names}] [moves] [player] [(then ...)])`: moves of the mover's pieces."""

    params = (P("on", SiteType, opt=True), P("names", LitStr, opt=True, many=True),
              P("moves", Moves, opt=True), P("role", RoleType, opt=True),
              P("top", LitBool, opt=True, named=True, default=False),
              P("then", "Then", opt=True))

    def compile(self, env):
        specific = env.compile(self.moves) if self.moves is not None else None
        then = _then(env, self)
        generators = env.piece_generators()            # what -> moves fn (or None)
        components = env.components
        names = set(self.names or ())
        nsites = env.num_board_sites
        role_fn = env.role_id(self.role, self) if self.role else None

        def for_each_piece(c):
            s = c.s
            player = role_fn(c) if role_fn else s.mover
            who, what = s.who, s.what
            out = []
            saved = c.from_
            for site in range(nsites):
                w = what[site]
                if w == 0:
                    continue
                comp = components[w]
                if comp.owner != player and not (comp.owner == 0 and who[site] == player):
                    continue
                if names and not any(n in comp.name for n in names):
                    continue
                gen = specific or generators[w]
                if gen is None:
                    continue
                c.from_ = site
                moves = gen(c)
                if then:
                    for m in moves:
                        m.then = m.then + then
                out.extend(moves)
            c.from_ = saved
            return out
        return for_each_piece


@ludeme("if")
class MovesIf(Moves):
    """`(if <cond> <moves> [<else moves>])`."""

    params = (P("cond", Bool), P("then_", Moves), P("else_", Moves, opt=True))

    def compile(self, env):
        cond = env.compile(self.cond)
        a = env.compile(self.then_)
        b = env.compile(self.else_) if self.else_ is not None else (lambda c: [])
        return lambda c: a(c) if cond(c) else b(c)


class _Union(Moves):
    params = (P("moves", Moves, many=True), P("more", Moves, opt=True, many=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        gens = [env.compile(m) for m in self.moves + (self.more or [])]
        then = _then(env, self)

        def union(c):
            out = []
            for g in gens:
                out.extend(g(c))
            if then:
                for m in out:
                    m.then = m.then + then
            return out
        return union


@ludeme("and")
class MovesAnd(_Union):
    """`(and <moves> <moves>)` or `(and {moves})`: all of them (effects apply in order)."""


@ludeme("or")
class MovesOr(_Union):
    """`(or <moves> <moves>)` or `(or {moves})`: the union of the legal moves."""


@ludeme("moveAgain")
class MoveAgain(Moves):
    """`(moveAgain)`: the mover moves again (the next player is the mover)."""

    params = ()

    def compile(self, env):
        return lambda c: [Move(-1, -1, 0, [(A_NEXT, c.s.mover)])]


@ludeme("addScore")
class AddScore(Moves):
    """`(addScore <player> <value>)` or `(addScore {players} {values})`."""

    params = (P("players", IntFn, many=True), P("values", IntFn, many=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        pairs = [(env.compile(p), env.compile(v)) for p, v in zip(self.players, self.values)]
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_SCORE, p(c), v(c)) for p, v in pairs], then)]


@ludeme("set", "Score")
class SetScore(Moves):
    """`(set Score <player> <value>)`."""

    params = (P("player", IntFn), P("value", IntFn), P("then", "Then", opt=True))

    def compile(self, env):
        p, v = env.compile(self.player), env.compile(self.value)
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_SET_SCORE, p(c), v(c))], then)]


@ludeme("remove")
class RemoveEffect(Moves):
    """`(remove <site|region> [at:EndOfTurn] [(then ...)])`: remove pieces as an effect."""

    params = _REMOVE_PARAMS

    def compile(self, env):
        sites = _sites_fn(env, self.where, None)
        then = _then(env, self)

        def remove(c):
            what = c.s.what
            acts = [(A_REMOVE, s) for s in sites(c) if s >= 0 and what[s] > 0]
            if not acts:
                return []
            return [Move(acts[0][1], acts[0][1], 0, acts, then)]
        return remove
