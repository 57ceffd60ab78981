"""Sites seen from a site and sites next to the pieces (Ludii's region/sites/lineOfSight and
sites/simple SitesPlayable): `(sites LineOfSight ...)`, `(sites Playable)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import DirWord, Enum, IntFn, P, Region, SiteType, ludeme

LineOfSightType = Enum("LineOfSightType", "Piece Empty Farthest")


@ludeme("sites", "LineOfSight")
class SitesLineOfSight(Region):
    """`(sites LineOfSight [Piece | Empty | Farthest] [at:<site>] [dirs])`: along each line
    from the site (the last move's destination by default) in the directions (Adjacent by
    default), up to the first piece: that piece (Piece, the default), the empty sites before
    it (Empty), or the last empty site before it and the line's last site (Farthest, as
    Ludii's SitesLineOfSight reads it). Example (Fission):

        (to (sites LineOfSight Farthest at:(from)))
    """
    concepts = ("LineOfSight",)

    distinct = True   # never lists a site twice
    params = (P("kind", LineOfSightType, opt=True), P("type", SiteType, opt=True),
              P("at", IntFn, opt=True, named=True), P("dirn", (DirWord, "Directions"), opt=True))

    def compile(self, env):
        kind = self.kind_ or "Piece"
        at = env.compile(self.at) if self.at is not None else (lambda c: c.s.last_to)
        keys = env.direction_keys(self.dirn or "Adjacent", self)
        radials = env.board.radials
        n = env.num_board_sites

        def line_of_sight(c):
            frm = at(c)
            if not 0 <= frm < n:
                return []
            what = c.s.what
            out = set()
            for k in keys(c, frm):
                for r in radials[k][frm] if k in radials else ():
                    steps = r.sites
                    prev = -1
                    last = len(steps) - 1
                    for i in range(1, len(steps)):
                        to = steps[i]
                        w = what[to]
                        if kind == "Empty":
                            if w == 0:
                                out.add(to)
                        elif kind == "Farthest":
                            if w != 0 and prev != -1:
                                out.add(prev)
                            if i == last:
                                out.add(to)
                        elif w != 0:
                            out.add(to)
                        if w != 0:
                            break
                        prev = to
            return sorted(out)
        return line_of_sight


@ludeme("sites", "Playable")
class SitesPlayable(Region):
    """`(sites Playable)`: as Ludii's SitesPlayable on a board, the centre before the first
    move, then the empty sites next to a piece (Adjacent). Example (Abak):

        (to (difference (sites Playable) (sites Centre)))
    """

    distinct = True   # never lists a site twice
    params = ()

    def compile(self, env):
        centre = tuple(env.board_region("Centre", self))
        adjacent = env.step_targets("Adjacent", self)
        n = env.num_board_sites

        def playable(c):
            s = c.s
            if s.num_moves == s.num_start_moves:     # Ludii's trial.moveNumber() == 0
                return centre
            what = s.what
            return sorted({to for site in range(n) if what[site]
                           for to in adjacent[site] if what[to] == 0})
        return playable


__all__ = ["SitesLineOfSight", "SitesPlayable"]
