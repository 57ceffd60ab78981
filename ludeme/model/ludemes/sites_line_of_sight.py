"""`(sites LineOfSight ...)`: Ludii's region.sites.lineOfSight."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import DirWord, Enum, IntFn, P, Region, SiteType, ludeme
from .war import _check_board_type, _radials_fn

LineOfSightType = Enum("LineOfSightType", "Empty Farthest Piece")


@ludeme("sites", "LineOfSight")
class SitesLineOfSight(Region):
    """`(sites LineOfSight [Piece|Empty|Farthest] [at:<site>] [<directions>])`: along each
    radial from the site (the last destination by default) in the directions (Adjacent
    by default), as Ludii's SitesLineOfSight: the first piece met (Piece, the default),
    the empty sites before it (Empty), or the last empty site before it, or the radial's
    end when it is empty (Farthest, as Ludii 1.3.12). In increasing order.
    Example: `(to (sites LineOfSight Empty at:(from)))`."""
    concepts = ("LineOfSight",)

    params = (P("los", LineOfSightType, opt=True), P("type", SiteType, opt=True),
              P("at", IntFn, opt=True, named=True),
              P("dirn", (DirWord, "Directions"), opt=True))

    def compile(self, env):
        _check_board_type(self, env)
        kind = self.los or "Piece"
        at = env.compile(self.at) if self.at is not None else (lambda c: c.s.last_to)
        lines = _radials_fn(env, self, self.dirn)
        nsites = env.num_board_sites

        def line_of_sight(c):
            frm = at(c)
            if not 0 <= frm < nsites:
                return []
            whats = c.s.what
            got = set()
            for steps in lines(c, frm):
                prev = -1
                last = len(steps) - 1
                for i in range(1, last + 1):
                    to = steps[i]
                    what = whats[to]
                    if kind == "Empty":
                        if what == 0:
                            got.add(to)
                    elif kind == "Piece":
                        if what != 0:
                            got.add(to)
                    else:
                        if what != 0 and prev != -1:
                            got.add(prev)
                        elif i == last and what == 0:
                            got.add(to)
                    if what != 0:
                        break
                    prev = to
            return sorted(got)
        return line_of_sight
