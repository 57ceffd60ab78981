"""`(sites LineOfSight ...)`: Ludii's region.sites.lineOfSight."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits
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


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(SitesLineOfSight, kind="sites", refuses=("type",))
def _line_of_sight_sites(src, lud):
    """As `compile`, in fixed directions: a helper kernel walks a table of the radials from
    the site and marks what the kind keeps; the marks listed in increasing order."""
    from ludeme.engine.compiled.emit import Unsupported
    from .sliding import radials_array
    env = src.env
    if not env.is_static_direction(lud.dirn or "Adjacent"):
        raise Unsupported(lud, "in directions that read the state")
    n = env.num_board_sites
    lines = _radials_fn(env, lud, lud.dirn)
    rays, width, depth = radials_array([[lines(None, s) for s in range(n)]])
    t_rays = src.table(rays[0])
    keep = {"Empty": ["if w == 0:", "    got[t] = True"],
            "Piece": ["if w != 0:", "    got[t] = True"],
            "Farthest": ["if w != 0 and prev != -1:", "    got[prev] = True",
                         "elif (i + 1 == " + str(depth) + " or " + t_rays + "[at, r, i + 1] < 0)"
                         " and w == 0:", "    got[t] = True"]}[lud.los or "Piece"]
    at = src.int_expr(lud.at) if lud.at is not None else "last_to"
    return src.context_kernel([
        f"    at = {at}", f"    got = np.zeros({n}, np.bool_)",
        f"    if 0 <= at < {n}:",
        f"        for r in range({width}):",
        "            prev = -1",
        f"            for i in range(1, {depth}):",
        f"                t = {t_rays}[at, r, i]",
        "                if t < 0:", "                    break",
        "                w = what[t]",
        *("                " + x for x in keep),
        "                if w != 0:", "                    break",
        "                prev = t",
        "    return np.nonzero(got)[0]"]), None


@emits(SitesLineOfSight, kind="contains", refuses=("type",))
def _line_of_sight_contains(src, lud, site):
    """A site is in it when the sites it lists (`_line_of_sight_sites`) hold it."""
    seq, _ = _line_of_sight_sites(src, lud)
    return f"({seq} == {site}).any()"
