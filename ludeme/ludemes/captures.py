"""Capture sequences and promotion: what draughts-like games add to the moves."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ..engine import A_FLIP, Move
from .base import IntFn, Moves, P, Region, RoleType, SiteType, ludeme
from .moves import MoveHop, _then


@ludeme("sites", "ToClear")
class SitesToClear(Region):
    """`(sites ToClear)`: the sites marked for removal at the end of the turn (Ludii's
    `piecesToRemove`), in increasing order. Example, a capture sequence that may not
    jump a piece twice: `(between if:(and (not (is In (between) (sites ToClear)))
    ("IsEnemyAt" (between))) (apply (remove (between) at:EndOfTurn)))`."""

    params = (P("type", SiteType, opt=True),)

    def compile(self, env):
        return lambda c: sorted(c.s.to_clear)

    def predicate(self, env):
        return lambda c, site: site in c.s.to_clear


@ludeme("promote")
class Promote(Moves):
    """`(promote [<site>] (piece "Name") [<role>] [(then ...)])`: the piece at the site
    (the destination by default) becomes the named piece, as Ludii's Promote: with a
    role, the piece of that name owned by that player; the new owner is the new piece's.
    Example: `(promote (last To) (piece "DoubleCounter") Mover)`."""
    concepts = ("PromotionEffect",)

    params = (P("type", SiteType, opt=True), P("where", IntFn, opt=True),
              P("piece", "PieceRef"), P("role", RoleType, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        where = env.compile(self.where) if self.where is not None else (lambda c: c.to)
        piece = self.piece
        if not isinstance(piece.name, str):
            raise piece.fail("(promote ...) takes a piece by name here")
        if piece.role is not None:
            raise piece.fail("give the owner to (promote ...), not to (piece ...)")
        name = piece.name
        components = env.components
        if self.role is not None:
            owner = env.role_id(self.role, self)
            if not any(name in comp.name for comp in components[1:]):
                raise piece.fail(f"no piece called {name!r}")

            def target(c):
                pid = owner(c)
                return next((comp.index for comp in components[1:]
                             if name in comp.name and comp.owner == pid), 0)
        else:
            idx = env.equipment.component_names().get(name)
            if idx is None:
                raise piece.fail(f"no piece called {name!r}")
            target = lambda c: idx  # noqa: E731
        then = _then(env, self)

        def promote(c):
            site = where(c)
            if site < 0:
                return []
            what = target(c)
            if what <= 0:
                return []
            who = components[what].owner if c.s.what[site] > 0 else 0
            return [Move(site, site, 0, [(A_FLIP, site, who, what)], then)]
        return promote


@ludeme("hop")
class Hop(MoveHop):
    """`(hop ...)`: Ludii's Hop effect, the same moves as `(move Hop ...)` where a rule
    asks whether a hop is possible, e.g. `(can Move (hop (from (last To)) ...))`."""
    concepts = ("HopEffect", "-to.apply", "HopCapture if between.apply has RemoveEffect", "ReplacementCapture if to.apply has RemoveEffect", "AdjacentDirection if not dirn")
