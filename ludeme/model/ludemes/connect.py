"""Connection conditions (Ludii's `is Connected`)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import Unsupported
from .groups import flood_lines, step_tables
from .sites_moves import last_tos
from .base import Bool, DirWord, Enum, IntFn, LitBool, LitInt, P, Region, RoleType, SiteType, ludeme

RegionTypeStatic = Enum("RegionTypeStatic", "Regions Sides SidesNoCorners Corners Columns Rows "
                        "Layers Diagonals AllDirections HintRegions Touching SubGrids Vertices "
                        "AllSites")

SIDE_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def static_regions(kind: str, board, lud) -> list[frozenset]:
    """Ludii's Regions.convertStaticRegionOnLocs for `kind`, empty regions left out: each
    corner alone (Corners), each side of the board (Sides: the sites facing N, NE, ...),
    or each side without the corners (SidesNoCorners)."""
    corners = board.region("Corners")
    if kind == "Corners":
        regions = [frozenset((s,)) for s in corners]
    elif kind in ("Sides", "SidesNoCorners"):
        drop = set(corners) if kind == "SidesNoCorners" else set()
        regions = [frozenset(s for s in board.region("Side", d) if s not in drop)
                   for d in SIDE_NAMES]
    else:
        raise lud.fail(f"(is Connected ... {kind}) is not supported yet; Corners, Sides and "
                       "SidesNoCorners are")
    return [r for r in regions if r]


def regions_to_join(lud, env):
    """(c, player) -> the regions `lud` names, as Ludii's IsConnected and IsBlocked gather
    them: the regions the player owns (each region function of a `(regions P1 {...})`
    item its own region) for a role, each side or corner for a static region type, or
    the regions given."""
    given = sum(x is not None and x != [] for x in (lud.regions, lud.role, lud.regionType))
    if given != 1:
        raise lud.fail(f"({lud.keyword} {lud.kind} ...) needs one of regions, a role or a "
                       "region type")
    if lud.role is not None:
        parts = env.equipment.region_parts
        return lambda c, player: [frozenset(r) for r in parts.get(player, ())]
    if lud.regionType is not None:
        fixed = static_regions(lud.regionType, env.board, lud)
        return lambda c, player: list(fixed)
    fns = [env.compile(r) for r in lud.regions]
    return lambda c, player: [frozenset(f(c)) for f in fns]


@ludeme("is", "Connected")
class IsConnected(Bool):
    """`(is Connected [N] [at:<site>] [directions] {<regions>} | <role>)`.

    As Ludii's IsConnected: the group of pieces of the same kind as the one at
    `at:` (the last move's destination by default), grown along the directions
    (Adjacent by default), touches N of the regions (all of them by default).
    A static region type (Sides, SidesNoCorners, Corners) stands for the board's
    sides or corners, each its own region: `(is Connected 3 Sides)` in Y.
    With a role, the regions are every region that player owns, each region
    function of a `(regions P1 {...})` item counting as its own region; the
    group then only grows when the piece at `at:` is that player's. Example
    (Hex):

        (end (if (is Connected Mover) (result Mover Win)))
    """
    concepts = ("Connection", "AdjacentDirection if not dirn")

    params = (P("number", LitInt, opt=True), P("type", SiteType, opt=True),
              P("at", IntFn, opt=True, named=True), P("dirn", DirWord, opt=True),
              P("regions", Region, opt=True, many=True), P("role", RoleType, opt=True),
              P("regionType", RegionTypeStatic, opt=True))

    def compile(self, env):
        regions_of = regions_to_join(self, env)
        at = env.compile(self.at) if self.at is not None else (lambda c: c.s.last_to)
        steps = env.step_targets(self.dirn or "Adjacent", self)
        nsites = env.num_board_sites
        number = self.number
        player_fn = env.role_id(self.role, self) if self.role is not None else None

        def connected(c):
            frm = at(c)
            if not 0 <= frm < nsites:
                return False
            what = c.s.what
            kind = what[frm]
            if kind <= 0:
                return False
            player = player_fn(c) if player_fn is not None else -1
            regions = regions_of(c, player)
            need = number if number is not None else len(regions)
            grow = player == -1 or c.s.who[frm] == player
            done = 0
            for j in range(len(regions) - 1, -1, -1):
                if frm in regions[j]:
                    done += 1
                    del regions[j]
                if done == need:
                    return True
            if not grow:
                return False
            seen = {frm}
            group = [frm]
            i = 0
            while i < len(group):
                for to in steps[group[i]]:
                    if to in seen or what[to] != kind:
                        continue
                    for j in range(len(regions) - 1, -1, -1):
                        if to in regions[j]:
                            done += 1
                            del regions[j]
                        if done == need:
                            return True
                    group.append(to)
                    seen.add(to)
                i += 1
            return False
        return connected


@ludeme("is", "Blocked")
class IsBlocked(Bool):
    """`(is Blocked [N] [directions] {<regions>} | <role> | <region type>)`: no path of the
    player's pieces and empty sites joins the regions any more (Ludii's IsBlocked).

    As Ludii: from each site of the first region (a start holding the player's piece or
    nothing), the group of the player's pieces and empty sites grows along the directions
    (Adjacent by default), counting the other regions it reaches; the start's own region
    counts first, so with N = 1 nothing is ever blocked. Blocked when no start reaches N
    regions (all of them by default). With a role, the regions are those the player owns;
    the player is the role's (the mover without one). Example (three-player Hex):

        (forEach NonMover if:(is Blocked Player) (result Player Loss))
    """
    concepts = ("Connection", "AdjacentDirection if not dirn")

    params = (P("type", SiteType, opt=True), P("number", LitInt, opt=True),
              P("dirn", DirWord, opt=True), P("regions", Region, opt=True, many=True),
              P("role", RoleType, opt=True), P("regionType", RegionTypeStatic, opt=True))

    def compile(self, env):
        regions_of = regions_to_join(self, env)
        steps = env.step_targets(self.dirn or "Adjacent", self)
        number = self.number
        player_fn = env.role_id(self.role, self) if self.role is not None else (
            lambda c: c.s.mover)

        def blocked(c):
            who, what = c.s.who, c.s.what
            player = player_fn(c)
            regions = regions_of(c, player)
            need = number if number is not None else len(regions)
            if not regions:
                raise self.fail("(is Blocked ...) has no region to start from")
            for frm in sorted(regions[0]):
                others = regions[1:]
                done = 1                    # the start's own region
                if done == need:
                    return False
                if who[frm] != player and what[frm] != 0:
                    continue
                group, seen, i = [frm], {frm}, 0
                while i < len(group):
                    for to in steps[group[i]]:
                        if to in seen or (who[to] != player and what[to] != 0):
                            continue
                        seen.add(to)
                        group.append(to)
                        for k in range(len(others) - 1, -1, -1):
                            if to in others[k]:
                                done += 1
                                del others[k]
                            if done == need:
                                return False
                    i += 1
            return True
        return blocked


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

def _region_bits(src, lud) -> tuple[list[list[int]], list[int], str]:
    """The regions to join as bits per site: (rows of one bit mask per board site, each bit
    a region; the number of regions of each row; the expression choosing the row). A row
    per player for a role or for regions that depend on the mover, else one row."""
    n = src.env.num_board_sites
    if lud.role is not None:
        parts = src.env.equipment.region_parts
        per = [parts.get(p, ()) for p in range(src.game.num_players + 2)]
        pick = src.role_expr(lud.role, lud)
    elif lud.regionType is not None:
        per, pick = [static_regions(lud.regionType, src.env.board, lud)], "0"
    else:
        listed = [src.static_sites(r) for r in lud.regions]
        if not any(by_mover for _, by_mover in listed):
            per, pick = [[sites for sites, _ in listed]], "0"
        else:
            per = [[sites[p] if by_mover else sites for sites, by_mover in listed]
                   for p in range(src.game.num_players + 1)]
            pick = "mover"
    rows = []
    for regions in per:
        if len(regions) > 62:
            raise Unsupported(lud, "joining more than 62 regions")
        bits = [0] * n
        for j, region in enumerate(regions):
            for site in region:
                if 0 <= site < n:
                    bits[site] |= 1 << j
        rows.append(bits)
    return rows, [len(regions) for regions in per], pick


@emits(IsConnected, kind="bool", refuses=("type",))
def _is_connected(src, lud):
    """A flood fill from `at:` over the same piece kind, the regions reached kept as bits;
    true once as many are reached as asked (every one of the row's by default)."""
    regions_to_join(lud, src.env)              # the reference's checks of the arguments
    n, t_nb, t_len = step_tables(src, lud)
    rows, counts, pick = _region_bits(src, lud)
    t_bits, t_nreg = src.table(rows), src.table(counts)
    need = str(lud.number) if lud.number is not None else "nreg"
    at = src.int_expr(lud.at) if lud.at is not None else "last_to"
    owner = src.role_expr(lud.role, lud) if lud.role is not None else "-1"

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, at, row, owner):",
            f"    if not 0 <= at < {n} or what[at] <= 0:",
            "        return False",
            "    kind = what[at]",
            f"    nreg = {t_nreg}[row]",
            f"    need = {need}",
            "    if nreg == 0:",
            "        return False",
            "    if need <= 0:",
            "        return True",
            f"    reached = {t_bits}[row, at]",
            "    if popcount(reached) >= need:",
            "        return True",
            "    if owner != -1 and who[at] != owner:",      # the group grows from it
            "        return False",
            *flood_lines(n, t_nb, t_len, "what[to] == kind",
                         on_join=(f"reached |= {t_bits}[row, to]",
                                  "if popcount(reached) >= need:",
                                  "    return True")),
            "    return False", ""])
    return f"{src.helper(make)}(who, what, {at}, {pick}, {owner})"


@ludeme("is", "Loop")
class IsLoop(Bool):
    """`(is Loop [<site type>] [surround:<role>] [<direction>] [<colour>] [<start>])`: the
    piece at the start (the last move's destination by default) closes a ring of the
    colour's pieces (the mover's by default) around sites off the board's edge (Ludii's
    IsLoop). As Ludii: from each neighbour of the start that is not on the outer edge (of
    the surrounded player's, with surround:), the region of sites holding another piece
    kind than the start's grows along orthogonal lines, stopping at that kind, and fails
    when it reaches the outer edge; the sites orthogonally around a closed region must all
    be the colour's, and a walk along the direction (Adjacent by default) over those holding
    the start's kind must visit them all. Example (Havannah):

        (end (if (is Loop) (result Mover Win)))

    With `path:True` and a tile at the start, a loop is a closed path of the colour on the
    tiles (`ludeme.model.ludemes.tiles.path_walk`): `(is Loop (mover) path:True)` (Trax).
    """
    concepts = ("Loop", "AdjacentDirection if not dirn")

    params = (P("type", SiteType, opt=True), P("surround", RoleType, opt=True, named=True),
              P("dirn", DirWord, opt=True), P("colour", IntFn, opt=True),
              P("start", IntFn, opt=True), P("path", LitBool, opt=True, named=True))

    def compile(self, env):
        ring = self._ring(env)
        if not self.path_:
            return ring
        # path:True (Ludii's evalTilePath): where the start holds a tile, a path of the
        # colour walked from each start (every site the last move went to, without a start
        # given) leads back to it; where it holds another piece, the ring above.
        from .tiles import path_walk, tile_table
        tiles = tile_table(env)
        walk = path_walk(env, self)
        start = env.compile(self.start) if self.start is not None else (lambda c: c.s.last_to)
        colour = env.compile(self.colour) if self.colour is not None else (lambda c: c.s.mover)
        starts = (lambda c: (start(c),)) if self.start is not None else last_tos(env)
        n = env.num_board_sites

        def path_loop(c):
            at = start(c)
            if not 0 <= at < n or c.s.what[at] <= 0:
                return False
            if c.s.what[at] not in tiles:
                return ring(c)
            for frm in starts(c):
                for _site, origin, nb in walk(c, frm, colour(c)):
                    if origin != nb and nb == frm:
                        return True
            return False
        return path_loop

    def _ring(self, env):
        """c -> whether the start closes a ring of pieces (Ludii's IsLoop without tiles)."""
        if self.type is not None and self.type != env.board.site_type:
            raise self.fail(f"(is Loop {self.type}) on a board played on "
                            f"{env.board.site_type} sites is not supported yet")
        start = env.compile(self.start) if self.start is not None else (lambda c: c.s.last_to)
        colour = env.compile(self.colour) if self.colour is not None else (lambda c: c.s.mover)
        enclosed = env.role_id(self.surround, self) if self.surround is not None else None
        n = env.num_board_sites
        adjacent = env.step_targets("Adjacent", self)
        orthogonal = env.step_targets("Orthogonal", self)
        walk = env.step_targets(self.dirn or "Adjacent", self)
        radials = env.board.trajectories.radials
        lines = tuple(tuple(r.sites[1:] for r in radials[s].get("Orthogonal", ()))
                      for s in range(n))
        outer = frozenset(env.board_region("Outer", self))
        limit = 4 * n * n + 16      # the walk below ends well before; a guard against a hang
        lud = self

        def ring_closed(what, who, kind, ring: list) -> bool:
            """Ludii's walk over the ring: from its first site, on to a neighbour of the
            same kind still in the ring, dropping sites it cannot go on from, until it has
            stepped from as many sites as the ring has."""
            explored: list = []
            prev = at = 0
            for _ in range(limit):
                if not ring:
                    return False
                site = ring[at]
                if what[site] != kind:
                    ring.remove(site)
                    at = prev
                    continue
                nxt = next((t for t in walk[site] if t in ring and what[t] == kind), -1)
                if nxt < 0:
                    ring.remove(site)
                    if site in explored:
                        explored.remove(site)
                    at = prev
                    continue
                explored.append(site)
                if len(explored) == len(ring):
                    return True
                prev, at = at, ring.index(nxt)
            raise lud.fail("(is Loop) walked a ring without end (not supported yet)")

        def is_loop(c):
            frm = start(c)
            if not 0 <= frm < n:
                return False
            s = c.s
            what, who = s.what, s.who
            kind = what[frm]
            if kind <= 0:
                return False
            owner = colour(c)
            owners = (enclosed(c),) if enclosed is not None else None
            around = [t for t in adjacent[frm] if t not in outer
                      and (owners is None or who[t] in owners)]
            for origin in reversed(around):
                region = [origin]
                inside = {origin}
                closed = True
                i = 0
                while closed and i < len(region):
                    for line in lines[region[i]]:
                        for to in line:
                            if to in inside:
                                continue
                            if what[to] == kind:
                                break       # the ring's border along this line
                            if owners is None or (who[to] in owners and to not in outer):
                                region.append(to)
                                inside.add(to)
                            if to in outer:
                                closed = False
                                break
                        if not closed:
                            break
                    i += 1
                if not closed:
                    continue
                ring = list(dict.fromkeys(t for r in region for t in orthogonal[r]
                                          if t not in inside))
                if any(who[t] != owner for t in ring):
                    continue
                if ring_closed(what, who, kind, ring):
                    return True
            return False
        return is_loop


@emits(IsBlocked, kind="bool", refuses=("type",))
def _is_blocked(src, lud):
    """From each site of the first region holding the player's piece or nothing, a flood
    fill over the player's pieces and empty sites, the other regions reached kept as bits
    (the first region's own bit left out, as the reference counts it once at the start);
    not blocked once a start reaches as many regions as asked (all of them by default)."""
    regions_to_join(lud, src.env)              # the reference's checks of the arguments
    n, t_nb, t_len = step_tables(src, lud)
    rows, counts, pick = _region_bits(src, lud)
    t_bits, t_nreg = src.table(rows), src.table(counts)
    need = str(lud.number) if lud.number is not None else "nreg"
    pl = src.role_expr(lud.role, lud) if lud.role is not None else "mover"

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, row, pl):",
            f"    nreg = {t_nreg}[row]",
            f"    need = {need}",
            "    if nreg == 0:",
            "        raise ValueError('(is Blocked ...) has no region to start from')",
            "    if need < 1:",                      # never reached: the count starts at 1
            "        return True",
            f"    for at in range({n}):",
            f"        if not {t_bits}[row, at] & 1:",
            "            continue",
            "        if need == 1:",                 # the start's own region is enough
            "            return False",
            "        if who[at] != pl and what[at] != 0:",
            "            continue",
            "        reached = 0",
            *("    " + x for x in flood_lines(
                n, t_nb, t_len, "(who[to] == pl or what[to] == 0)",
                on_join=(f"reached |= {t_bits}[row, to] & ~1",
                         "if 1 + popcount(reached) >= need:",   # counted one by one
                         "    return False"))),
            "    return True", ""])
    return f"{src.helper(make)}(who, what, {pick}, {pl})"


def _step_table(src, steps, n) -> tuple[str, str]:
    """The tables of each board site's steps (padded with -1) and of their numbers."""
    return tuple(src.table(a) for a in src.padded([list(steps[s]) for s in range(n)]))


# Ludii's walk over a ring (`IsLoop._ring`'s ring_closed): from its first site on to the
# first neighbour along the walk of the start's kind still in the ring, dropping a site it
# cannot go on from (and stepping back to the index it came from), until it has stepped
# from as many sites as the ring has; the ring and the sites stepped from kept as lists.
_RING_WALK = [
    "    explored = np.empty({limit}, np.int64)",
    "    ne = 0",
    "    prev = 0",
    "    at = 0",
    "    for _ in range({limit}):",
    "        if nr == 0:",
    "            return False",
    "        if at >= nr:",
    "            raise IndexError('(is Loop) stepped past the end of its ring')",
    "        cur = ring[at]",
    "        nxt = -1",
    "        if what[cur] == kind:",
    "            for j in range({t_wlen}[cur]):",
    "                t = {t_walk}[cur, j]",
    "                if inring[t] and what[t] == kind:",
    "                    nxt = t",
    "                    break",
    "        if nxt < 0:",
    "            for j in range(at, nr - 1):",
    "                ring[j] = ring[j + 1]",
    "            nr -= 1",
    "            inring[cur] = False",
    "            if what[cur] == kind:",
    "                for j in range(ne):",
    "                    if explored[j] == cur:",
    "                        for m in range(j, ne - 1):",
    "                            explored[m] = explored[m + 1]",
    "                        ne -= 1",
    "                        break",
    "            at = prev",
    "            continue",
    "        explored[ne] = cur",
    "        ne += 1",
    "        if ne == nr:",
    "            return True",
    "        prev = at",
    "        at = 0",
    "        while ring[at] != nxt:",
    "            at += 1",
    "    raise ValueError('(is Loop) walked a ring without end')",
]


@emits(IsLoop, kind="bool", refuses=(("path", "with path:"),))
def _is_loop(src, lud):
    """The reference's ring (`IsLoop._ring`) in a helper kernel: from each neighbour of the
    start off the outer edge (reversed), the region of other kinds grown along orthogonal
    lines, given up once it reaches the edge; the sites orthogonally around a closed
    region, all of the colour, then walked over as the reference does."""
    env = src.env
    if lud.type is not None and lud.type != env.board.site_type:
        raise Unsupported(lud, f"with {lud.type} sites on a board of {env.board.site_type}")
    n = env.num_board_sites
    if not src.env.is_static_direction(lud.dirn or "Adjacent"):
        raise Unsupported(lud, "in directions relative to a piece")
    t_adj, t_alen = _step_table(src, env.step_targets("Adjacent", lud), n)
    t_orth, t_olen = _step_table(src, env.step_targets("Orthogonal", lud), n)
    t_walk, t_wlen = _step_table(src, env.step_targets(lud.dirn or "Adjacent", lud), n)
    radials = env.board.trajectories.radials
    t_lines, t_llen = (src.table(a) for a in src.padded(
        [[list(r.sites[1:]) for r in radials[s].get("Orthogonal", ())] or [[]]
         for s in range(n)]))
    outer = set(env.board_region("Outer", lud))
    t_outer = src.table([int(s in outer) for s in range(n)])
    start = src.int_expr(lud.start) if lud.start is not None else "last_to"
    colour = src.int_expr(lud.colour) if lud.colour is not None else "mover"
    enc = src.role_expr(lud.surround, lud) if lud.surround is not None else "0"
    has_enc = lud.surround is not None
    limit = 4 * n * n + 16
    walk = [x.format(limit=limit, t_walk=t_walk, t_wlen=t_wlen) for x in _RING_WALK]

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(what, who, frm, owner, enc, has_enc):",
            f"    if not 0 <= frm < {n}:",
            "        return False",
            "    kind = what[frm]",
            "    if kind <= 0:",
            "        return False",
            f"    for ai in range({t_alen}[frm] - 1, -1, -1):",
            f"        origin = {t_adj}[frm, ai]",
            f"        if {t_outer}[origin] or (has_enc and who[origin] != enc):",
            "            continue",
            f"        if {name}_ring(what, who, kind, owner, enc, has_enc, origin):",
            "            return True",
            "    return False",
            "",
            "@njit(cache=True)",
            f"def {name}_ring(what, who, kind, owner, enc, has_enc, origin):",
            f"    inside = np.zeros({n}, np.bool_)",
            f"    region = np.empty({n}, np.int64)",
            "    region[0] = origin",
            "    inside[origin] = True",
            "    size = 1",
            "    i = 0",
            "    while i < size:",
            "        r = region[i]",
            f"        for li in range({t_lines}.shape[1]):",
            f"            for j in range({t_llen}[r, li]):",
            f"                to = {t_lines}[r, li, j]",
            "                if inside[to]:",
            "                    continue",
            "                if what[to] == kind:",
            "                    break",             # the ring's border along this line
            f"                if not has_enc or (who[to] == enc and not {t_outer}[to]):",
            "                    region[size] = to",
            "                    inside[to] = True",
            "                    size += 1",
            f"                if {t_outer}[to]:",
            "                    return False",      # the region reaches the edge
            "        i += 1",
            f"    ring = np.empty({n}, np.int64)",
            f"    inring = np.zeros({n}, np.bool_)",
            "    nr = 0",
            "    for ri in range(size):",
            "        r = region[ri]",
            f"        for j in range({t_olen}[r]):",
            f"            t = {t_orth}[r, j]",
            "            if not inside[t] and not inring[t]:",
            "                if who[t] != owner:",
            "                    return False",
            "                ring[nr] = t",
            "                inring[t] = True",
            "                nr += 1",
            *walk, ""])
    return f"{src.helper(make)}(what, who, {start}, {colour}, {enc}, {has_enc})"
