"""Sites next to the pieces, or incident to a site (Ludii's simple SitesPlayable and
incidents): `(sites Playable)`, `(sites Incident ...)`. `(sites LineOfSight ...)` is in
sites_line_of_sight.py."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import IntFn, P, Region, RoleType, SiteType, layer_site, ludeme
from ludeme.engine.compiled.emit import emits

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
        if getattr(env.board, "boardless", False):
            return self._boardless(centre, adjacent, n)

        def playable(c):
            s = c.s
            if s.num_moves == s.num_start_moves:     # Ludii's trial.moveNumber() == 0
                return centre
            return sorted(_empty_next_to_pieces(s.what, adjacent, n))
        return playable

    @staticmethod
    def _boardless(centre, adjacent, n):
        # Ludii keeps a playable bit per cell of a boardless table (ContainerFlatState's
        # playable set): each change of a site sets it, for the site and its neighbours, to
        # "empty with an occupied neighbour"; the centre's bit is set before play begins.
        # Every site a change has reached therefore reads as the rule; only the centre can
        # differ, playable while no piece has touched it or its neighbours, which on a table
        # whose first pieces go next to each other is before the first move.
        def playable(c):
            s = c.s
            what = s.what
            sites = _empty_next_to_pieces(what, adjacent, n)
            if s.num_moves == 0:
                sites.update(site for site in centre
                             if what[site] == 0 and not any(what[t] for t in adjacent[site]))
            return sorted(sites)
        return playable


@emits(SitesPlayable, kind="sites")
def _playable_sites(src, lud):
    """As `compile`: the centre before the first move (on a boardless table, the centre's
    empty sites with no piece next to them, with the others), else the empty sites next to
    a piece, in increasing order, by a helper kernel."""
    env = src.env
    centre = list(env.board_region("Centre", lud))
    n = env.num_board_sites
    t_nb, t_len = (src.table(a) for a in src.padded(
        [list(t) for t in env.step_targets("Adjacent", lud)[:n]]))
    t_centre = src.table(centre or [-1])
    near = [f"    mask = np.zeros({n}, np.bool_)", f"    for s_ in range({n}):",
            "        if what[s_] != 0:", f"            for j in range({t_len}[s_]):",
            f"                if what[{t_nb}[s_, j]] == 0:",
            f"                    mask[{t_nb}[s_, j]] = True"]
    if getattr(env.board, "boardless", False):
        first = ["    if sc[NUM_MOVES] == 0:", f"        for c_ in {t_centre}[:{len(centre)}]:",
                 "            free = what[c_] == 0", f"            for j in range({t_len}[c_]):",
                 f"                if what[{t_nb}[c_, j]] != 0:", "                    free = False",
                 "            if free:", "                mask[c_] = True"]
        body = [*near, *first]
    else:
        body = ["    if sc[NUM_MOVES] == sc[NUM_START_MOVES]:",
                f"        return {t_centre}[:{len(centre)}]", *near]
    return src.context_kernel([*body, "    return np.nonzero(mask)[0]"]), None


def _empty_next_to_pieces(what, adjacent, n) -> set[int]:
    """The empty sites next to a piece on the first `n` sites."""
    return {to for site in range(n) if what[site] for to in adjacent[site] if what[to] == 0}


@ludeme("sites", "Incident")
class SitesIncident(Region):
    """`(sites Incident <type> of:<type> at:<site> [<role> | owner:])`: the elements of a type
    incident to one element of the board (Ludii's SitesIncident), read from the board's
    planar graph: the cells across each edge of a cell, the edges sharing an end with an
    edge, and the edges, vertices or cells an element is made of or lies on; with a role or
    owner:, those holding a piece of that player (any player's for All). Each is a site of
    the result's type, whatever the board is played on. Example (Kensington):

        (forEach Site (sites Incident Cell of:Vertex at:(last To))
            (if (= 6 (count Sites in:(sites Incident Vertex of:Cell at:(site)))) (moveAgain)))
    """

    distinct = True   # never lists a site twice
    params = (P("result", SiteType), P("of", SiteType, named=True), P("at", IntFn, named=True),
              P("owner", IntFn, opt=True, named=True), P("role", RoleType, opt=True))

    def compile(self, env):
        if self.owner is not None and self.role is not None:
            raise self.fail("(sites Incident ...) takes owner: or a role, not both")
        planar = env.board.planar
        table = tuple(tuple(sorted(incident(el, self.result)))
                      for el in planar.elements(self.of))
        at = env.compile(self.at)
        owner = env.compile(self.owner) if self.owner is not None else \
            env.role_id(self.role, self) if self.role is not None else None
        anyone = env.num_players + 1      # Ludii: the id of All, any player's piece
        store = layer_site(env, self.result)
        if owner is not None and store is not None:
            # a layer of the board the game puts pieces on: each element's place in the store
            def owned_on_layer(c):
                i = at(c)
                if not 0 <= i < len(table):
                    return ()
                who, o = c.s.who, owner(c)
                return [s for s in table[i]
                        if (who[store(s)] != 0 and o == anyone) or who[store(s)] == o]
            return owned_on_layer
        if owner is not None and self.result != env.board.site_type:
            # A layer the game puts no piece on: every site is empty, and only owner 0 (no
            # one) holds it, as Ludii's who reads 0 on an empty site.
            def owned_elsewhere(c):
                i = at(c)
                return table[i] if 0 <= i < len(table) and owner(c) == 0 else ()
            return owned_elsewhere

        def sites_incident(c):
            i = at(c)
            if not 0 <= i < len(table):
                return ()
            if owner is None:
                return table[i]
            who, o = c.s.who, owner(c)
            return [s for s in table[i] if (who[s] != 0 and o == anyone) or who[s] == o]
        return sites_incident


def _incident(src, lud):
    """`SitesIncident.compile` as (the sequence of the sites incident to the element `at:`,
    a test of a site's owner or None): a table of each element's, in increasing order."""
    from ludeme.engine.compiled.emit import Unsupported
    env = src.env
    if lud.owner is not None and lud.role is not None:
        raise Unsupported(lud, "with both owner: and a role")
    table = [sorted(incident(el, lud.result)) for el in env.board.planar.elements(lud.of)]
    t_sites, t_len = src.row_tables(table)
    at = src.int_expr(lud.at)
    seq = (f"({t_sites}[{at}, :{t_len}[{at}]] if 0 <= {at} < {len(table)} "
           f"else {t_sites}[0, :0])")
    if lud.owner is None and lud.role is None:
        return seq, None
    if layer_site(env, lud.result) is not None:
        raise Unsupported(lud, "of an owner, on a layer of the board the game puts pieces on")
    owner = src.int_expr(lud.owner) if lud.owner is not None else \
        src.player_expr(lud.role, lud)
    if lud.result != env.board.site_type:
        # no piece stands on that layer: only owner 0 (no one) holds its sites
        return seq, lambda v: f"{owner} == 0"
    anyone = env.num_players + 1        # Ludii: the id of All, any player's piece
    return seq, lambda v: f"((who[{v}] != 0 and {owner} == {anyone}) or who[{v}] == {owner})"


emits(SitesIncident, kind="sites")(_incident)


@emits(SitesIncident, kind="contains")
def _incident_contains(src, lud, site):
    seq, test = _incident(src, lud)
    held = f"({seq} == {site}).any()"
    return f"({held} and {test(site)})" if test is not None else held


def incident(el, kind: str) -> set[int]:
    """The ids of the elements of `kind` incident to the vertex, edge or cell `el`, as Ludii's
    SitesIncident lists them (a set: Ludii's Region keeps each index once, sorted)."""
    if el.kind == "Cell":
        if kind == "Cell":
            return {f.id for e in el.edges for f in (e.left, e.right)
                    if f is not None and f is not el}
        return {x.id for x in (el.edges if kind == "Edge" else el.vertices)}
    if el.kind == "Edge":
        if kind == "Vertex":
            return {el.a.id, el.b.id}
        if kind == "Edge":
            return {e.id for e in el.neighbours()}
        return {f.id for f in (el.left, el.right) if f is not None}
    if kind == "Cell":
        return {f.id for f in el.faces}
    if kind == "Edge":
        return {e.id for e in el.edges}
    # Ludii's quirk for the vertices of a vertex: it lists the cells on each side of the
    # vertex's edges (their indices), but the one whose index is the vertex's own.
    return {f.id for e in el.edges for f in (e.left, e.right)
            if f is not None and f.id != el.id}


__all__ = ["SitesPlayable", "SitesIncident"]
