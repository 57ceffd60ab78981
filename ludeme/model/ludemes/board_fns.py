"""Functions of the board and its start: Ludii's `game.functions.ints.board` (centrePoint,
where), `ints.board.where` (where Level), `ints.count.simple` (count Rows, count Columns), `ints.value.iterated` (value),
`region.sites.piece` (sites Start) and `booleans.is.simple` (is Full)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import RUN_REFUSAL, Unsupported

from .base import Bool, IntFn, LitStr, P, Region, RoleType, SiteType, ludeme

STARTING_POS = "startingPos"     # State.notes key: what stood on each board site after the start


@ludeme("centrePoint")
class CentrePoint(IntFn):
    """`(centrePoint [<type>])`: the board's first centre site (of that type: among those
    elements), e.g. `(place "Fox1" (centrePoint))` or `(who Vertex at:(centrePoint Vertex))`.

    Ludii's `CentrePoint` reads `topology.centre(type).get(0)`: the centre sites are listed
    in index order, so it is the lowest-numbered one."""

    concepts = ()
    params = (P("type", SiteType, opt=True),)

    def compile(self, env):
        centre = env.board.topology(self.type).region("Centre")
        if not centre:
            raise self.fail("this board has no centre site")
        site = centre[0]
        return lambda c: site


@emits(CentrePoint, kind="int")
def _centre_point(src, lud):
    """The centre's index, a number of its type (the ludeme reading it at a site says on
    which layer: `(who Vertex at:(centrePoint Vertex))`), as the reference gives it."""
    return str(src.env.compile(lud)(src.probe()))


def _count_lines(lines_of):
    def compile(self, env):
        n = len(lines_of(env.board))
        return lambda c: n
    return compile


@ludeme("count", "Rows")
class CountRows(IntFn):
    """`(count Rows)`: how many rows the board has, e.g. `(- (count Rows) 1)`."""

    concepts = ()
    params = (P("type", SiteType, opt=True),)
    compile = _count_lines(lambda board: board.rows)


@ludeme("count", "Columns")
class CountColumns(IntFn):
    """`(count Columns)`: how many columns the board has, e.g. `(/ (count Columns) 2)`."""

    concepts = ()
    params = (P("type", SiteType, opt=True),)
    compile = _count_lines(lambda board: board.columns)


@emits(CountRows, CountColumns, kind="int")
def _count_lines_expr(src, lud):
    """A number of the board's: a constant."""
    return str(src.env.compile(lud)(src.probe()))


@ludeme("sites", "Start")
class SitesStart(Region):
    """`(sites Start (piece (what at:(from))))`: the board sites where that kind of piece
    stood once the start rules were applied (Ludii's `trial.startingPos`); empty for a
    component index out of range."""

    concepts = ()
    params = (P("piece", "PieceRef"),)

    def compile(self, env):
        env.records_start = True
        index = env.compile(self.piece)
        n = len(env.components)

        def sites(c):
            what = index(c)
            if not 1 <= what < n:
                return ()
            return tuple(s for s, w in enumerate(c.s.notes[STARTING_POS]) if w == what)
        return sites


def _started(src, lud, site: str) -> str:
    # The kernels refuse chance, so the start position is INIT_WHAT, the same every playout.
    what = src.int_expr(lud.piece)
    return f"({what} >= 1 and INIT_WHAT[{site}] == {what})"


@emits(SitesStart, kind="contains")
def _start_contains(src, lud, site):
    return f"(0 <= {site} < {src.env.num_board_sites} and {_started(src, lud, site)})"


@emits(SitesStart, kind="sites")
def _start_sites(src, lud):
    return f"range({src.env.num_board_sites})", lambda v: _started(src, lud, v)


@emits(SitesStart, kind="for_region")
def _start_loop(src, lud, out, ind, body):
    out.append(f"{ind}for site in range({src.env.num_board_sites}):")
    out.append(f"{ind}    if {_started(src, lud, 'site')}:")
    out.extend(f"{ind}        {x}" for x in body)


def _holds(s, site: int, what: int, state: int, stacking: bool) -> bool:
    """The site holds that piece (with that local state, unless -1): at its top, or, in a
    stacking game, at any level (Ludii's Where reads every level of a stack)."""
    if not stacking:
        return s.what[site] == what and (state == -1 or s.piece_state(site) == state)
    return any(lv[0] == what and (state == -1 or lv[2] == state) for lv in s.stack(site))


def first_named(components, name: str) -> dict[int, int]:
    """Per owner, the first component (in index order) whose name contains `name`: the
    piece Ludii's Where names for that player."""
    first: dict[int, int] = {}
    for comp in components[1:]:
        if name in comp.name:
            first.setdefault(comp.owner, comp.index)
    return first


@ludeme("where")
class Where(IntFn):
    """`(where "King" Mover [state:<int>])` or `(where <what>)`: the board site of a piece,
    -1 if there is none, e.g. `(is Threatened (id "King" Mover) at:(where "King" Mover))`.

    As Ludii's `Where`: the name picks the first component (in index order) owned by the
    player whose name contains it; only sites below the board container's `numSites` are
    looked at (Container.numSites: the sites of the board's own type, so the vertices of
    a board of vertices), every level of a stack in a stacking game; `(where <what>)` gives the
    lowest such site. The named form takes Ludii's first site in its list of the player's
    pieces, whose order follows the play: the store keeps those lists
    (`ludeme.engine.stores.OwnedOrder`, with levels in a stacking game `OwnedStackSites`);
    in a stacking game of several site types, whose lists it does not keep, several sites
    holding the piece are refused while playing rather than guessed."""

    concepts = ()
    params = (P("name", (LitStr, IntFn)), P("role", (RoleType, IntFn), opt=True),
              P("state", IntFn, opt=True, named=True), P("type", SiteType, opt=True))

    def compile(self, env):
        limit = env.num_board_sites
        local = env.compile(self.state) if self.state is not None else None
        if not isinstance(self.name, str):
            if self.role is not None:
                raise self.fail("(where <what> ...) takes no player; Ludii's form with a "
                                "player names the piece: (where \"Name\" <player>)")
            what_fn = env.compile(self.name)

            def where_what(c):
                what = what_fn(c)
                if what <= 0:
                    return -1
                s = c.s
                state = local(c) if local is not None else -1
                for site in range(limit):
                    if _holds(s, site, what, state, c.stacking):
                        return site
                return -1
            return where_what
        if self.role is None:
            raise self.fail("(where \"Name\" ...) needs the player whose piece it is")
        player = (env.role_id(self.role, self) if isinstance(self.role, str)
                  else env.compile(self.role))
        name = self.name
        first = first_named(env.components, name)
        env.owned_kinds.update(first.values())     # the store keeps their Ludii lists

        def where_named(c):
            what = first.get(player(c), -1)
            if what == -1:
                return -1
            s = c.s
            state = local(c) if local is not None else -1
            owned = s.owned_sites(what)
            if owned is not None:
                # Ludii's answer: the first site of the list on the board holding the piece
                # (at any level of a stack)
                stacking = c.stacking
                for site in owned:
                    if site < limit and _holds(s, site, what, state, stacking):
                        return site
                return -1
            # a stacking game of several site types keeps no such lists
            found = [site for site in range(limit) if _holds(s, site, what, state, c.stacking)]
            if len(found) > 1:
                raise self.fail(f"(where {name!r} ...) with the piece on several sites "
                                f"({found[:4]}) of a stacking game of several site types "
                                "is not supported yet: Ludii answers in the order of its "
                                "lists of owned pieces, whose levels it shifts across site "
                                "types there")
            return found[0] if found else -1
        return where_named


@ludeme("where", "Level")
class WhereLevel(IntFn):
    """`(where Level "Name" <player> [state:] at:<site> [fromTop:])` or `(where Level <what>
    at:<site> [fromTop:])`: the level of the site holding that piece, searched from the top
    (or the bottom with fromTop:False); -1 when none does or the site is off the board.
    Example: `(from (where "Ghoula" Neutral) level:(where Level "Ghoula" Neutral at:(where
    "Ghoula" Neutral)))`."""

    concepts = ()
    params = (P("name", (LitStr, IntFn)), P("role", (RoleType, IntFn), opt=True),
              P("state", IntFn, opt=True, named=True), P("type", SiteType, opt=True),
              P("at", IntFn, named=True), P("fromTop", Bool, opt=True, named=True))

    def compile(self, env):
        env.stacking = True         # Ludii: the ludeme makes the game a stacking one
        limit = env.num_board_sites
        at = env.compile(self.at)
        from_top = env.compile(self.fromTop) if self.fromTop is not None else (lambda c: True)
        local = env.compile(self.state) if self.state is not None else None
        if isinstance(self.name, str):
            if self.role is None:
                raise self.fail("(where Level \"Name\" ...) needs the player whose piece it is")
            player = (env.role_id(self.role, self) if isinstance(self.role, str)
                      else env.compile(self.role))
            first = {}
            for comp in env.components[1:]:
                if self.name in comp.name:
                    first.setdefault(comp.owner, comp.index)
            what_fn = lambda c: first.get(player(c), -1)  # noqa: E731
        else:
            if self.role is not None or local is not None:
                raise self.fail("(where Level <what> ...) takes no player and no state:")
            what_fn = env.compile(self.name)

        def where_level(c):
            site = at(c)
            if site < 0 or site >= limit:
                return -1
            what = what_fn(c)
            if what <= 0:
                return -1
            state = local(c) if local is not None else -1
            s = c.s
            size = s.size_stack(site)
            levels = range(size - 1, -1, -1) if from_top(c) else range(size)
            for level in levels:
                lv = s.level_data(site, level)
                if lv[0] == what and (state == -1 or lv[2] == state):
                    return level
            return -1
        return where_level


@ludeme("is", "Full")
class IsFull(Bool):
    """`(is Full)`: no board site is empty, e.g. `(if (is Full) (result Mover Draw))`.

    Ludii reads the board container's empty region of the board's default site type
    (ContainerFlatVertexState and ContainerFlatEdgeState keep only their vertices' or
    edges' emptiness; ContainerGraphState keeps each kind's): the board's own sites."""

    concepts = ()
    params = ()

    def compile(self, env):
        n = env.num_board_sites
        return lambda c: 0 not in c.s.what[:n]


@emits(IsFull, kind="bool")
def _is_full(src, lud):
    """No board site is empty (the board's own sites, their top pieces)."""
    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(what):",
                          f"    for s in range({src.env.num_board_sites}):",
                          "        if what[s] == 0:", "            return False",
                          "    return True", ""])
    return f"{src.helper(make)}(what)"


@ludeme("regionSite")
class RegionSite(IntFn):
    """`(regionSite <region> index:<int>)`: the site at that index of the region, its sites
    in increasing order as Ludii's Region holds them; Off (-1) past the end or for a
    negative index. Example: `(regionSite (sites P1 "Home") index:0)`."""

    params = (P("region", Region), P("index", IntFn, named=True))

    def compile(self, env):
        region = env.compile(self.region)
        index = env.compile(self.index)

        def region_site(c):
            i = index(c)
            if i < 0:
                return -1
            sites = sorted(set(region(c)))
            return sites[i] if i < len(sites) else -1
        return region_site


@emits(RegionSite, kind="int")
def _region_site(src, lud):
    """A region listed now (once, or per mover): its sites in increasing order, a table
    row per mover; -1 for an index off the row. A region read in play: the sites its own
    loop lists (a helper kernel), sorted once each."""
    try:
        sites, by_mover = src.static_sites(lud.region)
    except Unsupported:
        listed = src.listed_by_loop(lud.region)

        def pick(name):
            return "\n".join(["@njit(cache=True)", f"def {name}(listed, i):",
                              "    u = np.unique(listed)",
                              "    return u[i] if 0 <= i < u.shape[0] else -1", ""])
        return f"{src.helper(pick)}({listed}, {src.int_expr(lud.index)})"
    rows = [sorted({s for s in row if s >= 0}) for row in (sites if by_mover else [sites])]
    table, lens = src.padded(rows)
    t_sites, t_lens = src.table(table), src.table(lens)

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(row, i):",
                          f"    if not 0 <= row < {len(rows)} or not 0 <= i < {t_lens}[row]:",
                          "        return -1",
                          f"    return {t_sites}[row, i]", ""])
    return f"{src.helper(make)}({'mover' if by_mover else '0'}, {src.int_expr(lud.index)})"


@emits(Where, kind="int", refuses=("type",))
def _where(src, lud):
    """The first board site holding the piece (at any level of a stack, with the local
    state given if any, which a stacking game's levels do not keep); the named form stops
    when the piece stands on several sites (a kernel raises, and the reference engine, which
    keeps Ludii's lists of owned pieces, plays the chunk: Ludii's answer follows them)."""
    limit = src.env.num_board_sites
    what, once = _where_piece(src, lud)
    state = "-1"
    if lud.state is not None:
        if src.game.stacking:
            raise Unsupported(lud, "with state: in a stacking game (no state per level)")
        state = src.int_expr(lud.state)

    # The named form looks on past the first site, to refuse a second one.
    found = ["            if found >= 0:",
             f"                raise ValueError('{RUN_REFUSAL}(where ...) with the piece on "
             "several sites (Ludii answers in the order of its lists of owned pieces, which "
             "the kernels do not keep)')",
             "            found = site"] if once else ["            return site"]
    if src.game.stacking:
        holds = "stack_holds(what, count, site, w)"
    elif lud.state is None:
        holds = "what[site] == w"
    else:
        holds = f"what[site] == w and (st == -1 or {src.piece_state('site')} == st)"

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(what, count, sc, w, st):",
            "    found = -1",
            "    if w <= 0:",
            "        return -1",
            f"    for site in range({limit}):",
            f"        if {holds}:",
            *found,
            "    return found", ""])
    return f"{src.helper(make)}(what, count, sc, {what}, {state})"


def _where_piece(src, lud) -> tuple[str, bool]:
    """The kind of piece a (where ...) or (where Level ...) looks for, as an expression, and
    whether it is named (the first component of the player whose name contains it)."""
    if not isinstance(lud.name, str):
        return src.int_expr(lud.name), False
    first = first_named(src.game.components, lud.name)
    per = [first.get(p, -1) for p in range(src.game.num_players + 2)]
    # a player by a role, or by a number (none of a number past the players')
    pid = src.player_expr(lud.role, lud) if isinstance(lud.role, str) else \
        src.int_expr(lud.role)
    return f"({src.table(per)}[{pid}] if 0 <= {pid} < {len(per)} else -1)", True


@emits(WhereLevel, kind="int", refuses=("state", "type"))
def _where_level(src, lud):
    """The level of the site holding the piece, searched from the top (or from the bottom
    when fromTop: is false), -1 when none does or the site is off the board."""
    if not src.game.stacking:
        raise Unsupported(lud, "in a game without stacks")
    what = _where_piece(src, lud)[0]
    top = src.bool_expr(lud.fromTop) if lud.fromTop is not None else "True"
    return (f"stack_level_of(what, count, {src.int_expr(lud.at)}, {what}, {top}, "
            f"{src.env.num_board_sites})")
