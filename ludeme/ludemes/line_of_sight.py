"""Sites seen from a site, next to the pieces, or incident to a site (Ludii's region/sites
lineOfSight, simple SitesPlayable and incidents): `(sites LineOfSight ...)`, `(sites Playable)`,
`(sites Incident ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import DirWord, Enum, IntFn, P, Region, RoleType, SiteType, ludeme

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




@ludeme("sites", "Incident")
class SitesIncident(Region):
    """`(sites Incident <type> of:<type> at:<site> [<role> | owner:])`: the elements of a type
    incident to one element of the board (Ludii's SitesIncident): for cells of a cell, the
    cells across each of its edges; for edges of an edge, the edges sharing an end; and the
    edges, vertices or cells an element is made of or lies on. Read from the board's planar
    graph. Only sites of the board's own type are supported yet. Example (Hex Amazons):

        (sites Incident Cell of:Cell at:(to))
    """

    distinct = True   # never lists a site twice
    params = (P("result", SiteType), P("of", SiteType, named=True), P("at", IntFn, named=True),
              P("owner", IntFn, opt=True, named=True), P("role", RoleType, opt=True))

    def compile(self, env):
        own = env.board.site_type
        if self.result != own or self.of != own or own == "Vertex":
            raise self.fail(f"(sites Incident {self.result} of:{self.of} ...) on a board of "
                            f"{own}s is not supported yet: only the board's own sites")
        if self.owner is not None and self.role is not None:
            raise self.fail("(sites Incident ...) takes owner: or a role, not both")
        planar = env.board.planar
        table = tuple(tuple(sorted(incident(planar, own, el))) for el in planar.elements(own))
        at = env.compile(self.at)
        owner = env.compile(self.owner) if self.owner is not None else \
            env.role_id(self.role, self) if self.role is not None else None
        anyone = env.num_players + 1      # Ludii: the id of All, any player's piece

        def sites_incident(c):
            i = at(c)
            if not 0 <= i < len(table):
                return ()
            if owner is None:
                return table[i]
            who, o = c.s.who, owner(c)
            return [s for s in table[i] if (who[s] != 0 and o == anyone) or who[s] == o]
        return sites_incident


def incident(planar, kind: str, el) -> set[int]:
    """The ids of the elements of `kind` incident to the element `el` of the same kind."""
    if kind == "Cell":
        return {f.id for e in el.edges for f in (e.left, e.right) if f is not None and f is not el}
    if kind == "Edge":
        return {e.id for e in el.neighbours()}
    raise ValueError("vertices of a vertex")   # Ludii reads cells as vertices there


__all__ = ["SitesLineOfSight", "SitesPlayable", "SitesIncident"]
