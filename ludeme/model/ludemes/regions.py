"""Regions (sets of sites): each compiles to `c -> sequence of site indices`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True


from itertools import compress

from ludeme.boards.board import sites_at_distance
from ludeme.boards.trajectories import COMPASS
from ludeme.engine.state import FORCED_PLACES, PLACING, REPLAYING
from ludeme.language.syntax import Int, Str
from .base import DirWord, Enum, IntFn, LitBool, LitInt, LitStr, P, Region, RelationType, RoleType, SiteType, layer_bounds, layer_of, layer_site, ludeme, name_without_number, other_layer_size
from ludeme.engine.compiled.emit import Unsupported, always, emit, emits, reads_params_only_from
from .leaping import StepWord


@ludeme("sites", "Pattern")
class SitesPattern(Region):
    """`(sites Pattern {<F|L|R> ...} [<type>] [from:<site>] [what:<int> | whats:{<int>}])`:
    the sites of a pattern walked from a site ((last To) by default), as Ludii's
    SitesPattern: from each orthogonal direction of the board in turn, F steps one site
    (its piece must be the next of `whats`, cycling; the piece at the start when none is
    given), R and L turn to the next orthogonal direction clockwise or anticlockwise. The
    sites of every direction whose walk matches, the start included (a site may come
    more than once); nothing when the start's piece is not the first of `whats`. Example:
    `(sites Pattern {F R F R F R F} whats:{1 0})`."""
    concepts = ("Pattern",)

    params = (P("walk", StepWord, many=True), P("type", SiteType, opt=True),
              P("from", IntFn, opt=True, named=True), P("what", IntFn, opt=True, named=True),
              P("whats", IntFn, opt=True, named=True, many=True))

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(sites Pattern {self.type} ...) on a board played on "
                            f"{env.board.site_type} sites is not supported yet")
        if self.what is not None and self.whats:
            raise self.fail("(sites Pattern ...) takes what: or whats:, not both")
        start = env.compile(self.from_) if self.from_ is not None else (lambda c: c.s.last_to)
        given = [env.compile(w) for w in ([self.what] if self.what is not None else self.whats)]
        walk = tuple(self.walk)
        board = env.board
        orth = tuple(board.relation_dirs("Orthogonal"))
        steps = {d: board.step[d] for d in orth}
        n = env.num_board_sites
        # the next orthogonal direction turning right (clockwise) or left, as
        # DirectionFacing.right()/left() turn until one is supported
        ring = [d for d in COMPASS if d in orth]
        right = {d: ring[(i + 1) % len(ring)] for i, d in enumerate(ring)}
        left = {d: ring[i - 1] for i, d in enumerate(ring)}

        def pattern(c):
            frm = start(c)
            if not 0 <= frm < n:
                return []
            what = c.s.what
            whats = [w(c) for w in given] or [what[frm]]
            if what[frm] != whats[0]:
                return []
            out = []
            for facing in orth:
                at, k, sites = frm, 1 % len(whats), [frm]
                for step in walk:
                    if step == "F":
                        at = steps[facing][at]
                        if at < 0 or what[at] != whats[k]:
                            break
                        sites.append(at)
                        k = (k + 1) % len(whats)
                    elif step == "R":
                        facing = right[facing]
                    else:
                        facing = left[facing]
                else:
                    out.extend(sites)
            return out
        return pattern


@emits(SitesPattern, kind="sites", refuses=("type",))
def _pattern_sites(src, lud):
    """As `SitesPattern.compile`: the directions of the forward steps are fixed by the walk
    and the direction faced first, so a table holds, per first direction and forward step,
    the site each site steps to; a helper kernel walks them and lists the sites of each
    walk that matches (the start first, repeats kept)."""
    if lud.what is not None and lud.whats:
        raise lud.fail("(sites Pattern ...) takes what: or whats:, not both")
    board = src.env.board
    orth = tuple(board.relation_dirs("Orthogonal"))
    ring = [d for d in COMPASS if d in orth]
    turn = {"R": {d: ring[(i + 1) % len(ring)] for i, d in enumerate(ring)},
            "L": {d: ring[i - 1] for i, d in enumerate(ring)}}
    n = src.env.num_board_sites
    rows = []
    for facing in orth:
        row = []
        for s in lud.walk:
            if s == "F":
                row.append([board.step[facing][x] for x in range(n)])
            else:
                facing = turn[s][facing]
        rows.append(row)
    n_f = len(rows[0]) if rows else 0
    steps = src.table(rows if n_f else [[[-1] * n]] * max(1, len(orth)))
    kinds = [src.int_expr(lud.what)] if lud.what is not None else \
        [src.int_expr(w) for w in lud.whats]
    nw = max(1, len(kinds))
    start = src.int_expr(lud.from_) if lud.from_ is not None else "last_to"
    fill = [f"    ws[{i}] = {k}" for i, k in enumerate(kinds)] if kinds else \
        ["    ws[0] = what[pf]"]
    return src.context_kernel([
        f"    pf = {start}", f"    got = np.empty({len(orth) * (n_f + 1)}, np.int64)",
        f"    if not 0 <= pf < {n}:", "        return got[:0]",
        f"    ws = np.empty({nw}, np.int64)", *fill,
        "    if what[pf] != ws[0]:", "        return got[:0]",
        "    m = 0",
        f"    for i in range({len(orth)}):",
        f"        loc, k, m0 = pf, {1 % nw}, m",
        "        got[m] = pf", "        m += 1",
        f"        for j in range({n_f}):",
        f"            loc = {steps}[i, j, loc]",
        "            if loc < 0 or what[loc] != ws[k]:",
        "                m = m0", "                break",
        "            got[m] = loc", "            m += 1",
        f"            k = (k + 1) % {nw}",
        "    return got[:m]"]), None


@emits(SitesPattern, kind="contains", refuses=("type",))
def _pattern_contains(src, lud, site):
    """A site is in it when the sites it lists (`_pattern_sites`) hold it."""
    seq, _ = _pattern_sites(src, lud)
    return f"({seq} == {site}).any()"


@ludeme("sites", "Empty")
class SitesEmpty(Region):
    """`(sites Empty [<type>])`: the empty board sites (of that type: the board's layer of
    another type, whose elements are all empty unless the game puts pieces there). Example
    (Quoridor): `(to Edge (difference (sites Empty Edge) (sites Outer Edge)))`."""

    distinct = True   # never lists a site twice

    params = (P("type", SiteType, opt=True), P("container", (LitStr, IntFn), opt=True))

    def _other_type(self, env):
        """The elements of another site type than the board's, as (store index of the
        first, count) when pieces go there, else (None, count); None for the board's type."""
        if self.type in (None, env.board.site_type):
            return None
        if self.container is not None:
            raise self.fail(f"(sites Empty {self.type} ...) of a container is not supported yet")
        layer = layer_of(env, self.type)
        return layer if layer is not None else (None, other_layer_size(env, self.type))

    def compile(self, env):
        other = self._other_type(env)
        if other is not None:
            base_, size = other
            if base_ is None:
                every = tuple(range(size))
                return lambda c: every
            return lambda c: [i for i in range(size) if not c.s.what[base_ + i]]
        if self.container is not None:
            sites_of = _container_sites(env, self)
            return lambda c: [s for s in sites_of(c) if c.s.what[s] == 0]
        rng = range(env.num_board_sites)
        if env.large_pieces:        # and no large piece covers
            return lambda c: [s for s in rng if c.s.is_empty(s)]

        def empty(c):       # the board's sites whose `what` is 0
            what = c.s.what
            return [s for s in rng if not what[s]]
        return empty

    def predicate(self, env):
        other = self._other_type(env)
        if other is not None:
            base_, size = other
            if base_ is None:
                return lambda c, site: 0 <= site < size
            return lambda c, site: 0 <= site < size and c.s.what[base_ + site] == 0
        if self.container is not None:
            sites_of = _container_sites(env, self)
            return lambda c, site: site in sites_of(c) and c.s.what[site] == 0
        n = env.num_board_sites
        if env.large_pieces:
            return lambda c, site: 0 <= site < n and c.s.is_empty(site)
        return lambda c, site: 0 <= site < n and c.s.what[site] == 0


def _ludii_coordinate(text: str) -> bool:
    """Ludii's StringRoutines.isCoordinate: digits, after at most three letters (three only
    when the first two are the same)."""
    i = len(text)
    while i > 0 and text[i - 1].isdigit():
        i -= 1
    if i == len(text):
        return False
    letters = text[:i]
    if len(letters) > 3 or (len(letters) == 3 and letters[0] != letters[1]):
        return False
    return all(ch.isalpha() for ch in letters)


def _container_sites(env, lud):
    """A closure c -> the sites of the container `lud.container` names: its number in
    declaration order (the board 0) or its name, as Ludii's ContainerId."""
    ranges = _container_ranges(env)
    if isinstance(lud.container, str):
        fixed = ranges[_named_container(env, lud)]
        return lambda c: fixed
    cid = env.compile(lud.container)
    return lambda c: ranges[i] if 0 <= (i := cid(c)) < len(ranges) else ()


def _container_ranges(env) -> list[range]:
    """The sites of each container in declaration order: the board's own, then the others'."""
    return [range(env.num_board_sites)] + [range(k.sites_from, k.sites_from + k.num_sites)
                                           for k in env.equipment.containers[1:]]


def _named_container(env, lud) -> int:
    """The number of the container `lud.container` names (Ludii's ContainerId of a name)."""
    cids = [i for i, k in enumerate(env.equipment.containers) if k.name == lud.container]
    if not cids:
        raise lud.fail(f"no container named {lud.container!r}")
    return cids[0]


@ludeme("sites", "Random")
class SitesRandom(Region):
    """`(sites Random [<region>] [num:<n>])`: `num` different sites (1 by default; all of
    them when the region has fewer) drawn at random from the region, the empty cells of the
    board by default (Ludii's SitesRandom). The draws come from the state's chance stream
    (`State.rng`, seeded from the playout's seed) and are recorded in `State.draws`; as
    Ludii's Region, the sites come out in increasing order. In a replay of Ludii's trace, a
    start rule placing a piece on the sites drawn takes those where the recorded start has
    it (Game.new_initial_state's forced_places). Example, a rook on a random square of the
    first row:

        (place "Rook1" (sites Random (sites Bottom)) state:1)
    """
    concepts = ("Stochastic",)
    draws_chance = True
    distinct = True

    params = (P("region", Region, opt=True), P("num", IntFn, opt=True, named=True))

    def compile(self, env):
        if self.region is None:
            # Ludii's default is the empty cells of the board, whatever it is played on
            if env.board.site_type != "Cell":
                raise self.fail("(sites Random) with no region on a board played on "
                                f"{env.board.site_type} sites is not supported yet")
            n = env.num_board_sites
            region = lambda c: [s for s in range(n) if c.s.is_empty(s)]
        else:
            region = env.compile(self.region)
        num = env.compile(self.num) if self.num is not None else (lambda c: 1)
        env.uses_chance = True

        def random_sites(c):
            sites = sorted(set(region(c)))
            k = min(max(num(c), 0), len(sites))
            s = c.s
            # a replay's start: the sites the recorded start has the piece placed on
            forced = s.notes.get(FORCED_PLACES, {}).get(s.notes.get(PLACING), ())
            if k and not forced and REPLAYING in s.notes:
                # Ludii draws during play where it generates the moves; its trace gives the
                # draw only inside the recorded moves, and forcing it is not written.
                raise self.fail("(sites Random ...) drawn during play, in a replay of a "
                                "recorded game, is not supported yet: the recorded draw is "
                                "not forced")
            chosen = []
            for _ in range(k):      # one draw a site, each among those not drawn yet
                site = next((x for x in forced if x in sites), None)
                if site is not None:
                    forced.remove(site)
                    sites.remove(site)
                else:
                    site = sites.pop(s.rng.randrange(len(sites)))
                    s.draws.append(site)
                chosen.append(site)
            return sorted(chosen)
        return random_sites


@ludeme("sites", "Board")
class SitesBoard(Region):
    """`(sites Board [Vertex|Edge|Cell])`: every board site, or every site of that type
    (as Ludii's SitesBoard: the indices of the board's vertices, edges or cells, whichever
    the board is played on). Example: `(regions "AllSites" (sites Board Vertex))`."""

    distinct = True   # never lists a site twice

    params = (P("type", SiteType, opt=True),)

    def compile(self, env):
        if self.type in (None, env.board.site_type):
            allsites = tuple(range(env.num_board_sites))
        else:
            allsites = tuple(range({"Vertex": env.board.num_vertices, "Edge": env.board.num_edges,
                                    "Cell": env.board.num_cells}[self.type]))
        return lambda c: allsites


@ludeme("sites", "LargePiece")
class SitesLargePiece(Region):
    """`(sites LargePiece at:<site>)`: the cells the piece at a board site covers: a large
    piece's walk in its state (ludeme.boards.large_pieces), another piece's own site, none
    when the site is empty or off the board (Ludii's SitesLargePiece). Example:

        (forEach Site (sites LargePiece at:(last To)) (remember Value (site)))
    """

    distinct = True

    params = (P("type", SiteType, opt=True), P("at", IntFn, named=True))

    def compile(self, env):
        if self.type not in (None, "Cell") or env.board.site_type != "Cell":
            raise self.fail("(sites LargePiece ...) off a board of cells is not supported yet")
        at = env.compile(self.at)
        n = env.num_board_sites
        large = env.large_pieces

        def covered(c):
            site = at(c)
            what = c.s.what[site] if 0 <= site < n else 0     # off the board: none
            if not what:
                return ()
            piece = large.get(what)
            return piece.covered(site, c.s.piece_state(site)) if piece else (site,)
        return covered


@ludeme("sites", "Occupied")
class SitesOccupied(Region):
    """`(sites Occupied by:<role> [container:] [component:|components:{...}])`: sites holding
    those players' pieces (of the named kinds: a kind is a piece's name without its number).
    Example: `(sites Occupied by:Mover components:{"Pawn" "Rook"})`."""

    distinct = True   # never lists a site twice

    params = (P("type", SiteType, opt=True), P("by", (RoleType, "PlayerFn"), named=True),
              P("container", (LitStr, IntFn), opt=True, named=True),
              P("component", (LitStr, IntFn), opt=True, named=True),
              P("components", LitStr, many=True, opt=True, named=True),
              P("top", LitBool, opt=True, named=True), P("on", SiteType, opt=True, named=True))

    def _selected(self, env):
        """c -> (sites to scan, player ids, component indices or None for any), as Ludii's
        SitesOccupied: the sites of the board's type in every container (or in the one
        named: the board, or a hand of the by: player), holding pieces of those players;
        with component(s), only pieces of those kinds (a kind is a piece's name without its
        player number) that those players own."""
        players = _by_players(env, self)
        # on: the type of the pieces' locations (Ludii's default: the board's type). On the
        # board another type names a layer that pieces never reach here: none there; a
        # hand's pieces stand on cells.
        board_type = env.board.site_type
        on = self.on or board_type
        if self.container is None and on != "Cell":
            # Ludii reads the sites of that type: on a board of vertices or edges the
            # hands' sites (cells) are never among them.
            rng = range(env.num_board_sites) if on == board_type else ()
        elif self.container is None:    # cells: every container's, of a board of vertices
            # or edges only the hands' (its layer of cells holds nothing here)
            rng = range(0 if board_type == "Cell" else env.num_board_sites, env.total_sites)
        elif self.container in ("Board", 0):
            rng = range(env.num_board_sites) if on == board_type else ()
        elif isinstance(self.container, str) and "Hand" in self.container:
            rng = None      # a hand: Ludii reads its cells whatever on: says
        else:
            rng = _container_sites(env, self)   # by number or name: c -> sites
            if on != board_type:
                # Ludii reads a hand's cells whatever on: says, the board's other layer
                # (the container's first site is 0) holds nothing here
                by_container = rng
                rng = lambda c: r if (r := by_container(c)) and r[0] else ()  # noqa: E731
        if callable(rng):
            sites_fn = rng
        elif rng is None:
            hands_of = self._hands(env)
            pid = env.role_id(self.by, self) if isinstance(self.by, str) else \
                env.compile(self.by)
            sites_fn = lambda c: hands_of.get(pid(c), ())  # noqa: E731
        else:
            sites_fn = lambda c: rng  # noqa: E731
        kinds_fn = self._kinds(env)
        if kinds_fn is None:
            return lambda c: (sites_fn(c), players(c), None)

        def selected(c):
            ids = players(c)
            return sites_fn(c), ids, kinds_fn(c, ids)
        return selected

    def _hands(self, env):
        """Player -> the sites of their hand named by container: (Ludii's ContainerId of a
        hand name with the by: role: the player's hand whose name contains it)."""
        if isinstance(self.by, str) and (
                self.by in ("All", "Shared", "Any", "Enemy", "NonMover", "Each")
                or self.by.startswith("Team")):
            raise self.fail(f"(sites Occupied by:{self.by} container:{self.container!r}) "
                            "is not supported yet")
        hands = {}
        for cont in env.containers[1:]:
            if cont.name.startswith("Hand") and self.container in cont.name:
                hands.setdefault(cont.owner, range(cont.sites_from,
                                                   cont.sites_from + cont.num_sites))
        return hands

    def _kinds(self, env):
        """None (any piece), or (c, player ids) -> the component indices to keep."""
        comps = env.components[1:]
        names = set(self.components or ()) or \
            ({self.component} if isinstance(self.component, str) else set())
        if names:
            matching = [k for k in comps if name_without_number(k.name) in names]
            cache: dict = {}        # player ids -> their pieces of these kinds

            def of_kinds(c, ids):
                got = cache.get(ids)
                if got is None:
                    got = cache[ids] = frozenset(k.index for k in matching if k.owner in ids)
                return got
            return of_kinds
        if self.component is not None:
            index = env.compile(self.component)
            owner = {k.index: k.owner for k in comps}

            def of_index(c, ids):
                i = index(c)
                return frozenset((i,)) if owner.get(i, -1) in ids else frozenset()
            return of_index
        return None

    def _on_layer(self, env):
        """`on:<type>` a layer of the board the game puts pieces on (`layer_of`): the
        elements of that type holding those players' pieces (of the kinds), by their own
        indices; None for any other `on:`."""
        layer = layer_of(env, self.on) if self.on is not None else None
        if layer is None:
            return None
        if self.container is not None:
            raise self.fail(f"(sites Occupied ... container: on:{self.on}) is not supported yet")
        self.refuse("top", why=f"on:{self.on}")
        base_, size = layer
        players = _by_players(env, self)
        kinds_fn = self._kinds(env)

        def occupied_on_layer(c):
            ids = players(c)
            comps = kinds_fn(c, ids) if kinds_fn is not None else None
            what, who = c.s.what, c.s.who
            # the occupied sites picked out by compress (in C), then only they are read
            return [i for i in compress(range(size), what[base_:base_ + size])
                    if who[base_ + i] in ids and (comps is None or what[base_ + i] in comps)]
        return occupied_on_layer

    def compile(self, env):
        on_layer = self._on_layer(env)
        if on_layer is not None:
            return on_layer
        selected = self._selected(env)
        top = self.top is not False     # Ludii: top:True unless said otherwise

        def occupied_stacks(c):
            """Ludii on stacks: sites where one of the players owns a piece (of the
            components) at any level; with top:, only those whose top piece they own."""
            rng, ids, comps = selected(c)
            s = c.s
            what, who = s.what, s.who
            out = []
            for site in rng:
                w = what[site]
                if w == 0:
                    continue
                if who[site] in ids and (comps is None or w in comps):
                    out.append(site)        # the top piece itself is one of theirs
                elif (not top or who[site] in ids) and s.holds(site, ids, comps):
                    out.append(site)
            return out

        def occupied(c):
            if c.stacking:
                return occupied_stacks(c)
            rng, ids, comps = selected(c)
            # Worked out once per position: a check test asks it of every candidate
            # position many times (kept on the state until a site is written).
            state = c.s
            memo = state.memo
            if memo is None:
                memo = state.memo = {}
            key = ("occupied", rng, ids, comps)
            got = memo.get(key)
            if got is None:
                what = state.what
                who = _owners(c)
                # an empty site has owner 0 too: by:Neutral lists the neutral pieces only
                if comps is None:
                    got = [s for s in rng if who[s] in ids and what[s]]
                else:
                    got = [s for s in rng if who[s] in ids and what[s] in comps]
                memo[key] = got
            return list(got)
        return occupied

    def predicate(self, env):
        occupied = env.compile(self)
        if self._on_layer(env) is not None:
            return None
        selected = self._selected(env)

        if self.top is False:
            return None     # any level counts: no shortcut through the top pieces

        def member(c, site):
            if c.stacking:
                return site in occupied(c)
            rng, ids, comps = selected(c)
            if site not in rng:
                return False
            w = c.s.what[site]
            if not w:
                return False
            if (c.g.ludii_owners[w] if c.g.who_is_index else c.s.who[site]) not in ids:
                return False
            return comps is None or w in comps
        return member


def _owners(c):
    """Per site, the owner Ludii's owned-pieces lists give its piece (what `(sites Occupied
    by:...)` reads): the `who` of the site, except where Ludii stores a piece's index as its
    `who` (Game.who_is_index), where it is the component's owner."""
    s = c.s
    if not c.g.who_is_index:
        return s.who
    owner = c.g.ludii_owners
    return [owner[w] for w in s.what]


def _by_players(env, lud):
    """A closure c -> the players `by:` names: a role, or (player <n>) (Ludii's Player).
    As Ludii's PlayersIndices for a region of occupied sites, `All` is every owner, the
    neutral one (0) and the shared one (players + 1) too."""
    if lud.by == "All":
        owners = frozenset(range(env.num_players + 2))
        return lambda c: owners
    if isinstance(lud.by, str):
        return env.role_players(lud.by, lud)
    who = env.compile(lud.by)
    return lambda c: frozenset((who(c),))


@ludeme("sites", "Hand")
class SitesHand(Region):
    """`(sites Hand <role>)`: the sites of a player's hand. As Ludii's SitesHand: with
    neither a role nor a player, no sites; with `Shared`, the first hand declared."""

    params = (P("role", RoleType, opt=True), P("player", IntFn, opt=True))

    def compile(self, env):
        hands = env.hand_ranges()
        if self.player is None and self.role is None:
            return lambda c: ()
        if self.role == "Shared":
            first = next(iter(hands.values()), ())
            return lambda c: first
        who = env.compile(self.player) if self.player is not None else env.role_id(self.role, self)
        return lambda c: hands.get(who(c), ())


@ludeme("sites")
class SitesLiteralL(Region):
    """`(sites {1 2 "A1"})`, `(sites "Name")` for a named region, `(sites <int array>)`, or
    `(sites)`, the group iterated by `(forEach Group ...)`."""

    params = (P("items", Region, opt=True), P("player", "PlayerFn", opt=True),
              P("role", RoleType, opt=True), P("name", LitStr, opt=True),
              P("sites", IntFn, opt=True, many=True), P("array", "IntArrayFn", opt=True))

    def compile(self, env):
        # (sites <int array>): Ludii's SitesCustom, a set; (values ...) is typed a region here
        # but is Ludii's int array (a value remembered twice is one site)
        values = self.array if self.array is not None else \
            self.items if getattr(self.items, "keyword", None) == "values" else None
        if values is not None:
            array = env.compile(values)
            return lambda c: sorted({s for s in array(c) if s >= 0})
        items = getattr(self.items, "items", None)
        if items is not None and len(items) == 1 and isinstance(items[0], Str) \
                and items[0].value in env.regions:
            # (sites "Name"): a declared region, which Ludii prefers to a site label
            return env.named_region(items[0].value, self.role, self)
        if items is not None and len(items) == 1 and isinstance(items[0], Str) \
                and not _ludii_coordinate(items[0].value):
            # Ludii reads a name that is no coordinate as a region's (SitesEquipmentRegion):
            # with no region of that exact name, the region is empty.
            return lambda c: ()
        if items is not None and all(isinstance(i, Str) for i in items):
            # Ludii's SitesCoords: the sites of the labels, a label no site has left out
            sites = []
            for i in items:
                try:
                    sites.append(env.board.index_of(i.value))
                except (KeyError, ValueError):
                    pass
            sites = tuple(sites)
            return lambda c: sites
        if self.items is not None:
            return env.compile(self.items)
        if self.sites:   # (sites {(last To) ...}): sites computed in play
            fns = [env.compile(f) for f in self.sites]
            return lambda c: tuple(s for f in fns if (s := f(c)) >= 0)
        if self.player is not None:
            return env.regions_of_player(env.compile(self.player), self.name, self)
        if self.name is not None or self.role is not None:
            return env.named_region(self.name, self.role, self)
        if self.items is None:
            # (sites): the region the context holds (Ludii's SitesContext), a group's sites
            # inside (forEach Group ...), none elsewhere
            return lambda c: c.region
        raise self.fail("expected (sites {...}), (sites \"Region\") or (sites <player>)")


_STATIC = "Top Bottom Left Right Corners Centre Perimeter Inner Outer Major Minor"


def _board_region(kind):
    class BoardRegion(Region):
        params = (P("type", SiteType, opt=True),)

        def compile(self, env):
            if self.type in (None, env.board.site_type):
                sites = env.board_region(kind, self)
            else:       # the region among the elements of that type
                try:
                    sites = tuple(sorted(env.board.topology(self.type).region(kind)))
                except (KeyError, ValueError) as e:
                    raise self.fail(f"(sites {kind} {self.type}) is not available on this "
                                    f"board: {e}") from None
            return lambda c: sites
    BoardRegion.__name__ = f"Sites{kind}"
    BoardRegion.__doc__ = f"`(sites {kind})`: from the board's geometry."
    return ludeme("sites", kind)(BoardRegion)


for _k in _STATIC.split():
    _board_region(_k)


def _line_of_sites(self, env):
    """The board's row (or column: the class's `lines`) numbered by `index`, () if none."""
    idx = env.compile(self.index)
    lines = getattr(env.board, self.lines)
    return lambda c: lines[i] if 0 <= (i := idx(c)) < len(lines) else ()


_LINE_PARAMS = (P("type", SiteType, opt=True), P("index", IntFn))


@ludeme("sites", "Row")
class SitesRow(Region):
    """`(sites Row <n>)`."""

    distinct = True   # never lists a site twice
    params = _LINE_PARAMS
    lines = "rows"   # the board's lines it numbers
    compile = _line_of_sites


@ludeme("sites", "Column")
class SitesColumn(Region):
    """`(sites Column <n>)`."""

    distinct = True   # never lists a site twice
    params = _LINE_PARAMS
    lines = "columns"   # the board's lines it numbers
    compile = _line_of_sites


@ludeme("sites", "Cell")
class SitesCell(Region):
    """`(sites Cell "<label>" ...)`: the cells with these labels, whatever the board is played
    on (Ludii's SitesCoords of type Cell: the first cell with each label, a label no cell has
    left out); `(sites Cell <index>)`: the vertices of the cell with that index (Ludii's
    SitesCell), none off the board. Example (Kensington): `(regions "HexA" P1 (sites Cell "E4"))`."""
    concepts = ("Cell if coords",)

    distinct = True   # never lists a site twice
    params = (P("type", SiteType, opt=True), P("index", IntFn, opt=True),
              P("coords", LitStr, opt=True, many=True))

    def compile(self, env):
        cells = env.board.planar.elements("Cell")
        if self.coords:
            self.refuse("type", why="a site type after (sites Cell ...) with labels")
            if self.index is not None:
                raise self.fail("(sites Cell ...) takes labels or an index, not both")
            found = []
            for label in self.coords:
                i = next((f.id for f in cells if f.label == label), None)
                if i is not None and i not in found:
                    found.append(i)
            sites = tuple(sorted(found))
            return lambda c: sites
        # Ludii's SitesCell reads no element type: one written is not read there either.
        self.refuse("type", why="a site type with (sites Cell <index>)")
        if self.index is None:
            return lambda c: ()
        index = env.compile(self.index)
        vertices = tuple(tuple(sorted({v.id for v in f.vertices})) for f in cells)
        return lambda c: vertices[i] if 0 <= (i := index(c)) < len(vertices) else ()


class _SetOp(Region):
    params = (P("regions", Region, many=True), P("more", Region, opt=True, many=True))

    def _memberships(self, env) -> list:
        """A test (c, site) -> bool per region: its own predicate, else membership of the
        sites it lists (what asking `site in` of the whole set operation would build)."""
        tests = []
        for r in self.regions + (self.more or []):
            test = r.predicate(env)
            if test is None:
                f = env.compile(r)
                test = lambda c, site, f=f: site in f(c)    # noqa: E731
            tests.append(test)
        return tests


@ludeme("union")
class Union(_SetOp):
    """`(union a b)` or `(union {a b c})`."""
    concepts = ("Union",)

    def compile(self, env):
        fs = [env.compile(r) for r in self.regions + (self.more or [])]

        def union(c):
            out = []
            seen = set()
            for f in fs:
                for s in f(c):
                    if s not in seen:
                        seen.add(s)
                        out.append(s)
            return out
        return union

    def predicate(self, env):
        tests = self._memberships(env)
        return lambda c, site: any(t(c, site) for t in tests)


@ludeme("intersection")
class Intersection(_SetOp):
    """`(intersection a b)`: the sites of a (each once, as in Ludii's Region) in every other."""
    concepts = ("Intersection",)
    distinct = True

    def compile(self, env):
        fs = [env.compile(r) for r in self.regions + (self.more or [])]

        def intersection(c):
            # A Ludii Region lists a site once, however often the first region gave it.
            first, *rest = fs
            keep = set.intersection(*(set(f(c)) for f in rest)) if rest else None
            return list(dict.fromkeys(s for s in first(c) if keep is None or s in keep))
        return intersection

    def predicate(self, env):
        # In every region: no set built per question (Quoridor asks it of two cells' edges
        # for every wall, at every step of every path it walks).
        tests = self._memberships(env)
        return lambda c, site: all(t(c, site) for t in tests)


@ludeme("difference")
class Difference(Region):
    """`(difference a b)`: sites of a not in b."""
    concepts = ("Complement",)

    @property
    def distinct(self) -> bool:
        """Duplicate-free when its first region is."""
        return getattr(self.a, "distinct", False)

    params = (P("a", Region), P("b", (Region, IntFn)))

    def compile(self, env):
        a = env.compile(self.a)
        b = env.compile(self.b)
        if isinstance(self.b, IntFn):
            return lambda c: [s for s in a(c) if s != b(c)]
        if type(self.b) is SitesEmpty and self.b.container is None and \
                self.b.type in (None, env.board.site_type):
            # (difference X (sites Empty)): the occupied sites of X, read off the board.
            n = env.num_board_sites
            return lambda c: [s for s in a(c) if s >= n or c.s.what[s] != 0]
        inside = self.b.predicate(env)
        if inside is not None:
            return lambda c: [s for s in a(c) if not inside(c, s)]

        def difference(c):
            drop = set(b(c))
            return [s for s in a(c) if s not in drop]
        return difference


_ = Enum


@ludeme("sites", "Phase")
class SitesPhase(Region):
    """`(sites Phase <n>)`: the sites of one colour of a checkered board."""

    params = (P("type", SiteType, opt=True), P("index", LitInt))

    def compile(self, env):
        sites = tuple(env.board.region("Phase", self.index))
        return lambda c: sites


RegionTypeDynamic = Enum("RegionTypeDynamic", "Empty NotEmpty Own NotOwn Enemy NotEnemy")


@ludeme("sites", "Around")
class SitesAround(Region):
    """`(sites Around <site|region> [Own|Empty|...] [distance:N] [dirn] [if:] [includeSelf:])`.

    As Ludii: the site `distance` along each radial in the direction (Adjacent by
    default), each site once (Ludii's regions are sets). A site type other than the
    board's walks that type's radials (Ludii's per-type trajectories) and reads the
    pieces of its layer (none when the game puts no piece on it)."""
    concepts = ("AdjacentDirection if not dirn",)

    params = (P("type", SiteType, opt=True), P("where", (IntFn, Region)),
              P("kind", RegionTypeDynamic, opt=True), P("distance", IntFn, opt=True, named=True),
              P("dirn", DirWord, opt=True), P("if", "Bool", opt=True, named=True),
              P("includeSelf", LitBool, opt=True, named=True, default=False))

    def compile(self, env):
        where = env.compile(self.where)
        single = isinstance(self.where, IntFn)
        dist_fn = env.compile(self.distance) if self.distance is not None else (lambda c: 1)
        key = self.dirn or "Adjacent"
        topology = env.tables_of(self.type).board
        radials = topology.radials.get(key)
        if radials is None:
            raise self.fail(f"no radials in direction {key} on this board")
        cond = env.compile(self.if_) if self.if_ is not None else None
        kind = self.kind_
        owner_whats = env.components
        n = topology.num_sites
        include_self = self.includeSelf
        # the place in the store of a site of another type's layer (None: the board's own)
        other = self.type not in (None, env.board.site_type)
        store = layer_site(env, self.type) if other else None

        def kind_ok(c, site):
            if kind is None:
                return True
            if other:
                w = c.s.what[store(site)] if store is not None else 0
            else:
                w = c.s.what[site]
            if kind == "Empty":
                return w == 0
            if kind == "NotEmpty":
                return w != 0
            own = w != 0 and owner_whats[w].owner == c.s.mover
            if kind == "Own":
                return own
            if kind == "NotOwn":
                return not own
            enemy = w != 0 and owner_whats[w].owner not in (0, c.s.mover)
            return enemy if kind == "Enemy" else not enemy

        if single and cond is None and self.distance is None:
            # one centre, one step, no condition: each site's neighbours are fixed
            def near(site):
                out = []
                for r in radials[site]:
                    if len(r.sites) > 1 and r.sites[1] not in out:
                        out.append(r.sites[1])
                return out
            fixed = [near(site) for site in range(n)]

            def close(out, site):
                if include_self:
                    return out if site in out else out + [site]
                return [s for s in out if s != site]
            if kind is None:
                fixed = [close(out, site) for site, out in enumerate(fixed)]

            def around_one(c):
                site = where(c)
                if not 0 <= site < n:
                    return [site] if include_self and site >= n else []
                if kind is None:
                    return list(fixed[site])     # the caller may change it
                return close([to for to in fixed[site] if kind_ok(c, to)], site)
            return around_one

        def around(c):
            centres = (where(c),) if single else tuple(where(c))
            if not centres or centres[0] < 0:
                return []
            dist = dist_fn(c)
            out = []
            saved = (c.from_, c.to)
            for site in centres:
                if site >= n:
                    continue
                c.from_ = site
                for r in radials[site]:
                    steps = r.sites
                    if dist >= len(steps):
                        continue
                    to = steps[dist]
                    c.to = to
                    if (cond is None or cond(c)) and kind_ok(c, to) and to not in out:
                        out.append(to)
            c.from_, c.to = saved
            if include_self:
                for site in centres:
                    if site not in out:
                        out.append(site)
            else:
                out = [s for s in out if s not in centres]
            return out
        return around


@ludeme("sites", "Between")
class SitesBetween(Region):
    """`(sites Between [dirs] from:<site> [fromIncluded:] to:<site> [toIncluded:] [cond:])`:
    the sites strictly between two sites on one radial from `from` (in the directions,
    Adjacent by default), as Ludii's SitesBetween: `from` and `to` first when included,
    then the sites between, from the one next to `to` back towards `from`, each kept when
    `cond:` holds with `(between)` on it; none when no radial from `from` reaches `to`.
    Example: `(sites Between from:(from) to:(to))`."""

    params = (P("dirn", (DirWord, "Directions"), opt=True), P("type", SiteType, opt=True),
              P("from", IntFn, named=True), P("fromIncluded", "Bool", opt=True, named=True),
              P("to", IntFn, named=True), P("toIncluded", "Bool", opt=True, named=True),
              P("cond", "Bool", opt=True, named=True))

    def compile(self, env):
        if self.type is not None and self.type != env.board.site_type:
            raise self.fail(f"(sites Between {self.type} ...) on a board played on "
                            f"{env.board.site_type} sites is not supported yet")
        frm_fn, to_fn = env.compile(self.from_), env.compile(self.to)
        with_from = env.compile(self.fromIncluded) if self.fromIncluded is not None else None
        with_to = env.compile(self.toIncluded) if self.toIncluded is not None else None
        cond = env.compile(self.cond) if self.cond is not None else None
        from .war import _radials_fn        # (war imports the move ludemes: not at the top)
        lines = _radials_fn(env, self, self.dirn)
        n = env.num_board_sites

        def between(c):
            frm, to = frm_fn(c), to_fn(c)
            if not (0 <= frm < n and 0 <= to < n):
                return ()
            saved = c.from_, c.to, c.between
            c.from_, c.to = frm, to
            out = []
            try:
                if with_from is not None and with_from(c):
                    out.append(frm)
                if with_to is not None and with_to(c):
                    out.append(to)
                for sites in lines(c, frm):
                    if to not in sites[1:]:
                        continue
                    for b in reversed(sites[1:sites.index(to, 1)]):
                        c.between = b
                        if cond is None or cond(c):
                            out.append(b)
                    return tuple(out)
                return tuple(out)
            finally:
                c.from_, c.to, c.between = saved
        return between


@ludeme("sites", "Direction")
class SitesDirection(Region):
    """`(sites Direction from:<site> [dirs] [included:] [stop:] [stopIncluded:] [distance:])`."""

    params = (P("from", (IntFn, Region), named=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("included", LitBool, opt=True, named=True, default=False),
              P("stop", "Bool", opt=True, named=True),
              P("stopIncluded", LitBool, opt=True, named=True, default=False),
              P("distance", IntFn, opt=True, named=True), P("type", SiteType, opt=True))

    def compile(self, env):
        if self.from_ is None:
            raise self.fail("(sites Direction ...) needs from:<site> or from:<region>, as in Ludii")
        origin = env.compile(self.from_)
        single = isinstance(self.from_, IntFn)
        dirn = self.dirn or "Adjacent"
        keys = env.direction_keys(dirn, self)
        radials = env.board.radials
        stop = env.compile(self.stop) if self.stop is not None else None
        dist_fn = env.compile(self.distance) if self.distance is not None else None
        included, stop_included = self.included, self.stopIncluded
        if single and stop is None and dist_fn is None and env.is_static_direction(dirn):
            # Only the origin matters: one precomputed tuple per site.
            table = []
            for loc in range(env.num_board_sites):
                sites = [loc] if included else []
                for k in keys(None, loc):
                    for r in radials[k][loc] if k in radials else ():
                        sites.extend(r.sites[1:])
                table.append(tuple(sites))
            table = tuple(table)

            def direction_static(c):
                loc = origin(c)
                return table[loc] if 0 <= loc < len(table) else ()
            return direction_static

        def direction(c):
            locs = (origin(c),) if single else tuple(origin(c))
            out = []
            saved = c.to
            limit_all = dist_fn(c) if dist_fn is not None else 10 ** 9
            for loc in locs:
                if loc < 0:
                    break
                if included:
                    out.append(loc)
                for k in keys(c, loc):
                    for r in radials.get(k, ())[loc] if k in radials else ():
                        steps = r.sites
                        limit = min(len(steps), limit_all + 1)
                        for i in range(1, limit):
                            to = steps[i]
                            c.to = to
                            if stop is not None and stop(c):
                                if stop_included:
                                    out.append(to)
                                break
                            out.append(to)
            c.to = saved
            return out
        return direction


@ludeme("expand")
class Expand(Region):
    """`(expand <region> [steps:N] [dirn])`: the region grown by N steps (Adjacent by default)."""

    params = (P("type", SiteType, opt=True), P("region", (Region, IntFn), opt=True),
              P("origin", IntFn, opt=True, named=True),
              P("steps", IntFn, opt=True, named=True), P("dirn", DirWord, opt=True))

    def compile(self, env):
        from .literals import RoleId
        dirn = self.dirn
        region_arg = self.region
        if isinstance(region_arg, RoleId) and region_arg.role in DirWord.words and dirn is None:
            # A bare word such as All read as the region (a player) is Ludii's direction:
            # its region is never a player.
            region_arg, dirn = None, region_arg.role
        if (region_arg is None) == (self.origin is None):
            raise self.fail("(expand ...) needs a region or origin:")
        source = region_arg if region_arg is not None else self.origin
        region = env.compile(source)
        single = isinstance(source, IntFn)
        steps = env.compile(self.steps) if self.steps is not None else (lambda c: 1)
        board = env.board

        size = len(board.sites)

        def expand(c):
            r = region(c)
            sites = (r,) if single else r
            n = steps(c)
            if n > 0 and any(s >= size for s in sites):
                # Ludii's Region.expand reads each site's element: one past the board fails
                # (an index out of bounds), at the load for a static region
                raise self.fail(f"(expand ...) from site {max(sites)}, which is not on the "
                                f"board (sites 0 to {size - 1})")
            return board.expand(sites, n, dirn)
        return expand


@ludeme("sites", "Side")
class SitesSide(Region):
    """`(sites Side <direction>)` or `(sites Side <player>)`: a side of the board."""

    params = (P("type", SiteType, opt=True), P("side", (DirWord, RoleType)))

    def compile(self, env):
        if self.side in RoleType.words:
            raise self.fail("(sites Side <player>) is not supported yet; name a direction")
        sites = tuple(env.board.region("Side", self.side))
        return lambda c: sites


@ludeme("forEach")
class RegionFilter(Region):
    """`(forEach <region> if:<cond>)`: the sites of the region where the condition holds
    (evaluated with `(site)` at each)."""
    concepts = ("ControlFlowStatement",)

    params = (P("region", Region), P("if", "Bool", named=True))

    def compile(self, env):
        region = env.compile(self.region)
        cond = env.compile(self.if_)

        def keep(c):
            saved = c.site
            out = []
            for s in region(c):
                c.site = s
                if cond(c):
                    out.append(s)
            c.site = saved
            return out
        return keep


@ludeme("sites", "Distance")
class SitesDistance(Region):
    """`(sites Distance [relation] [(step ...)] from:<site> (exact N)|(range a b)|(max N))`:
    the sites whose number of steps from the site (by the relation, Adjacent by default,
    or by the steps a `(step ...)` move allows) is in range."""
    concepts = ("Distance",)

    params = (P("type", SiteType, opt=True), P("relation", RelationType, opt=True),
              P("step", "StepEffect", opt=True), P("from", IntFn, named=True),
              P("range", "RangeSpec"))

    def compile(self, env):
        origin = env.compile(self.from_)
        lo, hi = self.range.bounds(env)
        if self.step is not None:
            from .sequences import walk_region
            if self.relation is not None:
                raise self.fail("(sites Distance ...) takes a relation or a (step ...), not both")
            return walk_region(env, self, self.step, origin, lo, hi)
        # Every site's distances, from networkx on the board's graph, once, before play.
        rings = env.board.distance_rings(self.relation or "Adjacent")
        n = env.num_board_sites

        def distance(c):
            s = origin(c)
            if not 0 <= s < n:
                return []
            return list(sites_at_distance(rings[s], lo(c), hi(c)))
        return distance


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

def _static_board_regions():
    """`(sites Top)`, `(sites Corners)`, ...: the regions `_board_region` made above."""
    from .base import REGISTRY
    return [c for c in REGISTRY["sites"] if c.__module__ == __name__ and c.kind in _STATIC.split()]


_BOARD_REGIONS = _static_board_regions()
emits(SitesPhase, kind="static")(always)
emits(SitesRow, SitesColumn, Union, Intersection, Difference,
      kind="from_only")(reads_params_only_from)


@emits(SitesPhase, kind="static_sites")
def _phase_sites(src, lud):
    """The sites of one colour, listed as `SitesPhase.compile` lists them."""
    return list(src.env.compile(lud)(src.probe())), False


@emits(*_BOARD_REGIONS, kind="static_sites")
def _board_region_sites(src, lud):
    _board_sites_static(src, lud)
    return list(src.env.compile(lud)(src.probe())), False


def _board_sites_static(src, lud) -> bool:
    """`(sites Board)`, `(sites Top)`, ... of the board's own site type: board sites (another
    type's indices are not the kernels' sites)."""
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, f"of the type {lud.type} on a board of {src.env.board.site_type}s")
    return True


emits(SitesBoard, SitesSide, *_BOARD_REGIONS, kind="static")(_board_sites_static)
emits(SitesBoard, SitesSide, *_BOARD_REGIONS, kind="from_only")(_board_sites_static)
# (sites Side <direction>): a side of the board, listed now as the others
emits(SitesSide, kind="static_sites")(_board_region_sites)


@emits(SitesBoard, kind="static_sites")
def _board_sites(src, lud):
    _board_sites_static(src, lud)
    return list(range(src.env.num_board_sites)), False


def _fixed_player(role: str) -> bool:
    """P1, P2, ...: a role that names one player whoever moves (not Player, Prev, ...)."""
    return role[:1] == "P" and role[1:].isdigit()


def _group_bound(src, lud) -> bool:
    """`(sites)` inside a (forEach Group ...): the group it visits, which the kernels keep
    in `sc` (`Source.group_block`)."""
    return src.group_bound and lud.items is None and lud.player is None and \
        lud.role is None and lud.name is None and not lud.sites and lud.array is None


@emits(SitesLiteralL, kind="static")
def _literal_static(src, lud):
    """Sites written as numbers or labels, or a declared region of no player or of a fixed
    one: nothing of the state is read."""
    from .literals import IntConst
    if _group_bound(src, lud):
        return False
    if lud.array is not None or lud.player is not None or \
            lud.role is not None and not _fixed_player(lud.role):
        return False
    if lud.items is not None:
        items = getattr(lud.items, "items", None)
        if items is not None:
            return all(isinstance(i, (Str, Int)) or type(i) is IntConst for i in items)
        return src.is_static_region(lud.items)
    return all(type(x) is IntConst for x in lud.sites or ())


@emits(SitesLiteralL, kind="static_sites")
def _literal_sites(src, lud):
    """A named region, or a player's: one list, or one per mover. Not `(sites)` inside a
    (forEach Group ...): the group it visits."""
    if _group_bound(src, lud):
        raise Unsupported(lud)
    if not (lud.items is None and lud.player is None and lud.role in (None, "Mover")
            and not lud.sites and lud.array is None or (lud.role and _fixed_player(lud.role))
            or _literal_static(src, lud) or _player_of_mover(lud)):
        raise Unsupported(lud)
    sites, by_mover = src.sites_by_mover(src.env.compile(lud))
    if lud.role == "Mover" and not by_mover:        # the mover's own, kept per mover
        return [sites] * (src.game.num_players + 1), True
    return sites, by_mover


def _player_of_mover(lud) -> bool:
    """`(sites (player <int>))` whose player reads only the mover (and the game's maps),
    such as `(player (mapEntry (mover)))`: listed per mover (a probe refuses a state read)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import Between, From, LastFrom, LastTo, PlayerVar, Site, To, ValueVar
    return (lud.player is not None and lud.items is None and lud.role is None
            and not lud.sites and lud.array is None
            and not mentions(lud.player, (From, To, Site, PlayerVar, ValueVar, Between,
                                          LastTo, LastFrom)))


def _remembered_set(lud):
    """The `(values Remembered ...)` of `(sites (values Remembered ...))`, else None."""
    from .memory import ValuesRemembered
    if type(lud.items) is ValuesRemembered and lud.player is None and lud.role is None \
            and lud.name is None and not lud.sites and lud.array is None:
        return lud.items
    return None


def _region_within(lud):
    """The region of `(sites <region>)` (the region itself, as the reference reads it), for
    a region that is no list of sites or labels and no remembered values; else None."""
    if lud.items is None or hasattr(lud.items, "items") or \
            getattr(lud.items, "keyword", None) == "values":
        return None
    return lud.items


def _array_sites(src, lud, site=None) -> str:
    """`(sites <int array>)`, Ludii's SitesCustom: the array's sites, each once, in
    increasing order, a negative one left out (as the reference); with `site`, a test
    that it is one of them."""
    from .intarray import array_expr
    arr = array_expr(src, lud.array)
    if site is not None:
        held = src.helper(lambda name: "\n".join([
            "@njit(cache=True)", f"def {name}(a, s):",
            "    if s < 0:", "        return False",
            "    for v in a:", "        if v == s:", "            return True",
            "    return False", ""]))
        return f"{held}({arr}, {site})"
    listed = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(a):",
        "    u = np.unique(a)", "    return u[u >= 0]", ""]))
    return f"{listed}({arr})"


@emits(SitesLiteralL, kind="sites")
def _literal_listed(src, lud):
    """Remembered values as sites; an int array's sites; the region given; any other
    literal region listed now."""
    from .memory import remembered_sites
    if _group_bound(src, lud):      # the group's sites, in increasing order
        return "sc[GRP:GRP + sc[GRPN]]", None
    values = _remembered_set(lud)
    if values is not None:
        return remembered_sites(src, values)
    if lud.array is not None:
        return _array_sites(src, lud), None
    within = _region_within(lud)
    if within is not None and not src.is_static_region(lud):
        return src.region_sites(within)
    computed = _computed_sites(src, lud)
    if computed is not None:       # in the order given, a negative one left out
        return ("(" + "".join(f"{x}, " for x in computed) + ")",
                lambda v: f"0 <= {v} < TOTAL")
    of_player = _region_of_a_player(src, lud)
    if of_player is not None:      # the player's row, in the order the reference lists it
        rows, player = of_player
        t_sites, t_len = src.row_tables(rows)
        return (f"({t_sites}[{player}, :{t_len}[{player}]] if 0 <= {player} < {len(rows)} "
                f"else {t_sites}[0, :0])"), None
    return src.listed_sites(lud)


# Where the kernels hold the player a role names in play: the next and previous players as
# the state holds them now (a (moveAgain) before the region is read makes the mover next).
_HELD_PLAYERS = {"Next": "sc[NEXT]", "Prev": "sc[PREV]"}


def _region_of_a_player(src, lud):
    """`(sites <role> ["Name"])` of a role naming one player who changes in play (Next, Prev,
    or (player) of forEach Player/NonMover): (the region of each player id, 0 to the
    last player + 1, as the reference lists it; the expression of the id now), else None."""
    if lud.role not in ("Next", "Prev", "Player") or lud.items is not None \
            or lud.player is not None or lud.sites or lud.array is not None:
        return None
    f = src.env.compile(lud)
    probe = src.probe()
    rows = []
    for p in range(src.game.num_players + 2):
        probe.s.mover = probe.s.next = probe.s.prev = probe.player = p
        rows.append(list(f(probe)))
    return rows, _HELD_PLAYERS.get(lud.role) or src.player_expr(lud.role, lud)


def _computed_sites(src, lud):
    """The expressions of `(sites {<int> ...})` when some are computed in play, else None."""
    from .literals import IntConst
    if lud.sites and lud.items is None and lud.player is None and lud.role is None \
            and lud.array is None and not all(type(x) is IntConst for x in lud.sites):
        return [src.int_expr(x) for x in lud.sites]
    return None


@emits(SitesLiteralL, kind="contains")
def _literal_contains(src, lud, site):
    """A region of the next or the previous player: a table of each player's region, read
    with the player the state holds now (a (moveAgain) before it makes the mover next);
    remembered values, as the state keeps them; the group a (forEach Group ...) visits."""
    if _group_bound(src, lud):
        return f"(0 <= {site} < N_GRP and sc[GRPM + {site}] != 0)"
    values = _remembered_set(lud)
    if values is not None:
        return src.region_contains(values, site)
    if lud.array is not None:
        return _array_sites(src, lud, site)
    within = _region_within(lud)
    if within is not None and not src.is_static_region(lud):
        return src.region_contains(within, site)
    computed = _computed_sites(src, lud)
    if computed is not None:
        return "(" + " or ".join(f"({site} >= 0 and {site} == {x})" for x in computed) + ")"
    of_player = _region_of_a_player(src, lud)
    if of_player is None:
        return src.static_contains(lud, site)
    import numpy as np
    rows, player = of_player
    total = src.env.total_sites
    mask = np.zeros((len(rows), total), dtype=bool)
    for p, sites in enumerate(rows):
        mask[p, [x for x in sites if 0 <= x < total]] = True
    return (f"(0 <= {site} < {total} and 0 <= {player} < {len(rows)} and "
            f"{src.table(mask, 'bool_')}[{player}, {site}])")


@emits(Union, Intersection, Difference, kind="static")
def _static_set_op(src, lud):
    from .literals import IntConst
    if isinstance(lud, Difference):
        return src.is_static_region(lud.a) and (type(lud.b) is IntConst if isinstance(
            lud.b, IntFn) else src.is_static_region(lud.b))
    return all(src.is_static_region(r) for r in list(lud.regions) + list(lud.more or []))


@emits(Union, Intersection, Difference, kind="contains")
def _set_op_contains(src, lud, site):
    """Listed now when it reads nothing of the state; else each part's test, joined."""
    if _static_set_op(src, lud):
        return src.static_contains(lud, site)
    if type(lud) is Difference:
        return f"({src.region_contains(lud.a, site)} and {_not_in_second(src, lud, site)})"
    word = " or " if type(lud) is Union else " and "
    return "(" + word.join(src.region_contains(r, site)
                           for r in list(lud.regions) + list(lud.more or [])) + ")"


@emits(Union, Intersection, Difference, kind="static_sites")
def _set_op_sites(src, lud):
    """A union, intersection or difference of regions that read nothing of the state (or
    only the mover, as (sites Hand Mover)): listed now, once or per mover."""
    if not _static_set_op(src, lud) and _listed_before_play(src, lud) is None:
        raise Unsupported(lud, "of regions that read the state")
    return src.sites_by_mover(src.env.compile(lud))


@emits(Union, kind="sites")
def _union_sites(src, lud):
    """A union listed now (once, per mover or per (from)) as a table; else each part as
    its own loop lists it, in turn, a site listed where it first comes (as the reference)."""
    try:
        return src.listed_sites(lud)
    except Unsupported:
        return src.listed_by_loop(list(lud.regions) + list(lud.more or []), once=True), None


def _expand_type_ok(src, lud) -> bool:
    """An expansion of the board's own site type (another type's indices are not the
    kernels' sites)."""
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, f"of the type {lud.type} on a board of {src.env.board.site_type}s")
    return True


@emits(Expand, kind="static")
def _expand_static(src, lud):
    """Grown from a region listed now (or from a site and by a number that read nothing):
    listed now, as the reference grows it (`Board.expand`)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import From
    _expand_type_ok(src, lud)
    for part in (lud.region, lud.origin, lud.steps):
        if isinstance(part, Region):
            if not (src.is_static_region(part) or _fixed_before_play(src, part)):
                return False
        elif part is not None and (not src.reads_only_from(part) or mentions(part, (From,))) \
                and not _fixed_before_play(src, part):
            return False
    return True


def _fixed_before_play(src, lud) -> bool:
    """Whether a part of a rule has one value before play, whoever moves (see
    `_listed_before_play`): (centrePoint), a number computed from a define's numbers, an
    intersection of board regions."""
    got = _listed_before_play(src, lud)
    return got is not None and all(x == got[0] for x in got)


def _listed_before_play(src, lud) -> list | None:
    """A part of a rule evaluated now for each mover (a list indexed by the mover), or None
    where it reads a variable of the context ((from), (to), (site), ...) or anything of the
    state (a probe refuses any read)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import Between, From, LastFrom, LastTo, PlayerVar, Site, To, ValueVar
    if mentions(lud, (From, To, Site, PlayerVar, ValueVar, Between, LastTo, LastFrom)):
        return None
    try:
        got = src.per_mover(src.env.compile(lud))
    except (Unsupported, AttributeError, LookupError, TypeError, ValueError):
        return None         # it reads what only play gives (a probe lacks it)
    return [tuple(x) if isinstance(x, (list, tuple, range)) else x for x in got]


@emits(Expand, kind="from_only")
def _expand_from_only(src, lud):
    """Grown from what reads only (from) and the board: tabulated per (from)."""
    return _expand_type_ok(src, lud) and reads_params_only_from(src, lud)


@emits(Expand, kind="sites")
def _expand_listed(src, lud):
    """An expansion listed now (once, per mover or per (from)) as a table; else, of a region
    or origin that reads the position, grown where it is read by a helper kernel: each step
    adds the neighbours (in the relation, Adjacent by default) of every site so far, the
    result in increasing order, as `Board.expand`."""
    from .literals import RoleId
    try:
        return src.listed_sites(lud)
    except Unsupported:
        pass
    _expand_type_ok(src, lud)
    if isinstance(lud.region, RoleId) or (lud.region is None) == (lud.origin is None):
        raise Unsupported(lud, "of a region that reads the state, given as a word")
    board, n = src.env.board, src.env.num_board_sites
    rel = lud.dirn or "Adjacent"
    near = [list(board.neighbours[rel][s_]) if rel in board.neighbours
            else list(board.trajectories.targets(s_, rel)) for s_ in range(n)]
    t_nb, t_len = (src.table(a) for a in src.padded(near))
    source = lud.origin if lud.origin is not None else lud.region
    start = f"np.full(1, {src.int_expr(source)}, np.int64)" if isinstance(source, IntFn) \
        else src.listed_by_loop(source)
    steps = src.int_expr(lud.steps) if lud.steps is not None else "1"
    return src.context_kernel([
        f"    src_ = {start}", f"    k_ = {steps}", f"    mask = np.zeros({n}, np.bool_)",
        "    extra = np.empty(src_.shape[0], np.int64)", "    ne = 0",
        "    for s_ in src_:", f"        if 0 <= s_ < {n}:", "            mask[s_] = True",
        "        else:", "            extra[ne] = s_", "            ne += 1",
        "    for _ in range(k_):", "        grown = mask.copy()",
        f"        for s_ in range({n}):", "            if mask[s_]:",
        f"                for j in range({t_len}[s_]):",
        f"                    grown[{t_nb}[s_, j]] = True",
        "        mask = grown",
        "    return np.unique(np.concatenate((extra[:ne], np.nonzero(mask)[0])))"]), None


@emits(Expand, kind="contains")
def _expand_contains(src, lud, site):
    """An expansion listed now, looked up in its table; else as it is listed (`_expand_listed`)
    when it is read."""
    if _expand_static(src, lud):
        return src.static_contains(lud, site)
    return f"({_expand_listed(src, lud)[0]} == {site}).any()"


@emits(Expand, kind="static_sites")
def _expand_sites(src, lud):
    if not _expand_static(src, lud):
        raise Unsupported(lud, "of a region that reads the state")
    return src.sites_by_mover(src.env.compile(lud))


@emits(SitesDistance, kind="sites", refuses=("type",))
def _distance_sites(src, lud):
    """With a (step ...): the rings of its walk from the minimum to the maximum (as
    `walk_region`), listed by a helper kernel."""
    from .sequences import walk_kernel
    if lud.step is None:
        return _distance_by_relation(src, lud), None
    lo, hi = emit("range", src, lud.range)
    call = walk_kernel(
        src, lud, lud.step, "a, lo, hi", "a",
        f"not 0 <= start < {src.env.num_board_sites} or lo < 0",
        "ncur > 0 and n < hi",
        ["if (n == 1 and lo <= 1) or (n >= 2 and n - 1 >= lo):",
         "    for i in range(ncur):", "        out[no] = cur[i]", "        no += 1"],
        "out[:no]")
    return f"{call}{src.int_expr(lud.from_)}, {lo}, {hi})", None


def _distance_by_relation(src, lud) -> str:
    """By the relation's steps (Adjacent by default): a table of the board's distances
    (`distance_rings`, -1 where none), the sites from the minimum (0 at least) to the
    maximum listed in increasing order, as `sites_at_distance`; none off the board."""
    import numpy as np
    rings = src.env.board.distance_rings(lud.relation or "Adjacent")
    n = src.env.num_board_sites
    dist = np.full((n, n), -1)
    for a in range(n):
        for d, ring in enumerate(rings[a]):
            dist[a, list(ring)] = d
    lo, hi = emit("range", src, lud.range)
    return src.context_kernel([
        f"    s_, lo_, hi_ = {src.int_expr(lud.from_)}, {lo}, {hi}",
        f"    out = np.empty({n}, np.int64)", "    k = 0",
        f"    if 0 <= s_ < {n}:",
        "        lo_ = max(lo_, 0)",
        f"        for t in range({n}):",
        f"            d = {src.table(dist)}[s_, t]",
        "            if lo_ <= d <= hi_:", "                out[k] = t", "                k += 1",
        "    return out[:k]"])


@emits(SitesRow, SitesColumn, kind="sites", refuses=("type",))
def _line_sites(src, lud):
    """The board's row (or column) numbered by the index, in the reference's order: a row of
    a table of the board's lines; no site for an index without a line."""
    lines = getattr(src.env.board, lud.lines)
    t_sites, t_len = src.row_tables([list(line) for line in lines] or [[]])
    i = src.int_expr(lud.index)
    return (f"({t_sites}[{i}, :{t_len}[{i}]] if 0 <= {i} < {len(lines)} "
            f"else {t_sites}[0, :0])", None)


@emits(SitesRow, SitesColumn, kind="contains", refuses=("type",))
def _line_contains(src, lud, site):
    """A mask per line of the board's sites: a site is in the row (column) numbered by the
    index when that line holds it."""
    lines = getattr(src.env.board, lud.lines)
    mask = src.site_masks(lines)
    m = src.table(mask, "bool_")
    i = src.int_expr(lud.index)
    return f"(0 <= {i} < {len(lines)} and 0 <= {site} < {mask.shape[1]} and {m}[{i}, {site}])"


@emits(SitesDistance, kind="contains", refuses=("type",))
def _distance_contains(src, lud, site):
    seq, _ = _distance_sites(src, lud)
    return f"({seq} == {site}).any()"


@emits(Intersection, kind="for_region")
def _intersection_loop(src, lud, out, ind, body):
    """The first region's loop, each site once, the body run at the sites every other
    region holds (their tests read `site` as the site tried: one that reads `(site)` of a
    loop around is listed before the loop, `_held_before`)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import Site
    first, *rest = list(lud.regions) + list(lud.more or [])
    tests = [_held_before(src, r, out, ind, f"isx_{len(ind)}_{i}") if mentions(r, (Site,))
             else src.region_contains(r, "site") for i, r in enumerate(rest)]
    inner = list(body)
    if not getattr(first, "distinct", False):
        seen = f"once_{len(ind)}"       # one per depth of nested loops
        out.append(f"{ind}{seen} = np.zeros(TOTAL, np.bool_)")
        inner = [f"if not {seen}[site]:", f"    {seen}[site] = True", *("    " + x for x in inner)]
    if tests:
        inner = [f"if {' and '.join(tests)}:", *("    " + x for x in inner)]
    src.for_region(first, out, ind, inner)


def _held_before(src, region, out, ind, name: str) -> str:
    """A test that `site` is in a region that reads `(site)` of a loop around it: the region
    listed before the loop (as the reference reads it, in the context around), in `name`."""
    out.append(f"{ind}{name} = {src.listed_by_loop(region)}")
    return f"({name} == site).any()"


@emits(SitesDirection, kind="from_only")
def _direction_from_only(src, lud):
    if not src.env.is_static_direction(lud.dirn or "Adjacent") or lud.stop is not None:
        return False
    return reads_params_only_from(src, lud)


@emits(SitesDirection, kind="for_region", refuses=(("type", "on another site type"),))
def _direction_loop(src, lud, out, ind, body):
    """The sites along each radial from the origin (each site of a region in turn), listed
    first as the reference lists them: the origin itself with `included:`, then in each
    direction up to `distance:` sites, ending at a site where `stop:` holds (read with
    (to) on it), that site kept with `stopIncluded:`; the body runs at each, in that order.
    Directions that read the state are refused; a region that reads nothing but `(from)`
    is its row of a table per `(from)`, as before it had a loop of its own."""
    import numpy as np
    if src.reads_only_from(lud):
        src.for_region_by_from(lud, out, ind, body)
        return
    env = src.env
    dirn = lud.dirn or "Adjacent"
    n = env.num_board_sites
    radials = env.board.radials
    d = len(ind)
    if env.is_static_direction(dirn):
        keys = env.direction_keys(dirn, lud)
        rows = [[r.sites[1:] for k in keys(None, s) for r in (radials[k][s] if k in radials
                                                             else ())] for s in range(n)]
        chosen = None
    else:
        # every radial of the board, by direction (those of the All relation first, in its
        # order), and the directions chosen at each origin listed in `sdn_<d>` (their order)
        every = [k for k in env.board.relation_dirs("All") if k in radials]
        every += [k for k in radials if k not in every]
        rows = [[r.sites[1:] for k in every for r in radials[k][s]] for s in range(n)]
        of_row = src.table(src.padded([[i for i, k in enumerate(every) for _ in radials[k][s]]
                                       for s in range(n)])[0])
        from .directions import chosen_directions
        chosen = [f"sdn_{d} = 0", *chosen_directions(src, lud, dirn, every, d, f"sdl_{d}")]
    width = max((len(rs) for rs in rows), default=0) or 1
    depth = max((len(r) for rs in rows for r in rs), default=0) or 1
    steps = np.full((n, width, depth), -1)
    for s, rs in enumerate(rows):
        for r, sites in enumerate(rs):
            steps[s, r, :len(sites)] = sites
    t_steps = src.table(steps)
    buf, k, loc = f"sdb_{d}", f"sdk_{d}", f"sdl_{d}"
    stop = src.bool_expr(lud.stop) if lud.stop is not None else None
    single = isinstance(lud.from_, IntFn)
    origins = 1 if single else src.env.total_sites
    out.append(f"{ind}{buf} = np.empty({origins * (1 + width * depth)}, np.int64)")
    out.append(f"{ind}{k} = 0")
    out.append(f"{ind}sdt_{d} = to")
    limit = src.int_expr(lud.distance) if lud.distance is not None else None
    if limit is not None:
        out.append(f"{ind}sdm_{d} = {limit}")
    walk = []
    if lud.included:
        walk += [f"{buf}[{k}] = {loc}", f"{k} += 1"]
    along = [f"for sdq_{d} in range({depth}):"]
    if limit is not None:
        along += [f"    if sdq_{d} >= sdm_{d}:", "        break"]
    along += [f"    to = {t_steps}[{loc}, sdr_{d}, sdq_{d}]", "    if to < 0:", "        break"]
    if stop is not None:
        along += [f"    if {stop}:"]
        if lud.stopIncluded:
            along += [f"        {buf}[{k}] = to", f"        {k} += 1"]
        along += ["        break"]
    along += [f"    {buf}[{k}] = to", f"    {k} += 1"]
    if chosen is None:
        walk += [f"for sdr_{d} in range({width}):", *("    " + x for x in along)]
    else:
        # the radials of each direction chosen in turn (a row of another direction is -1
        # all along where the site has fewer radials)
        out.append(f"{ind}sdc_{d} = np.empty({len(every)}, np.int64)")
        walk += [*chosen, f"for sdi_{d} in range(sdn_{d}):",
                 f"    for sdr_{d} in range({width}):",
                 f"        if {of_row}[{loc}, sdr_{d}] != sdc_{d}[sdi_{d}] or "
                 f"{t_steps}[{loc}, sdr_{d}, 0] < 0:",
                 "            continue",
                 *("        " + x for x in along)]
    if single:
        out.append(f"{ind}{loc} = {src.int_expr(lud.from_)}")
        out.append(f"{ind}if 0 <= {loc} < {n}:")
        out.extend(f"{ind}    {x}" for x in walk)
    else:
        seq, flt = src.region_sites(lud.from_)
        out.append(f"{ind}for {loc} in {seq}:")
        inner = ind + "    "
        if flt is not None:
            out.append(f"{inner}if not ({flt(loc)}):")
            out.append(f"{inner}    continue")
        out.append(f"{inner}if {loc} < 0:")
        out.append(f"{inner}    break")
        out.append(f"{inner}if {loc} >= {n}:")
        out.append(f"{inner}    continue")
        out.extend(f"{inner}{x}" for x in walk)
    out.append(f"{ind}to = sdt_{d}")
    out.append(f"{ind}for sdj_{d} in range({k}):")
    out.append(f"{ind}    site = {buf}[sdj_{d}]")
    out.extend(f"{ind}    {x}" for x in body)


@emits(SitesDirection, kind="contains", refuses=(("type", "on another site type"),))
def _direction_contains(src, lud, site):
    """A site is along the radials: the region listed as its loop lists it (a helper kernel
    given the evaluation context: `from:` may read (to)), then looked up."""
    return f"({src.listed_by_loop(lud)} == {site}).any()"


@emits(Difference, kind="sites")
def _difference_sites(src, lud):
    """The first region's sites in its order, less those the second holds, tested at each
    site as it is reached (the reference lists the difference first: the second region
    must not read the site being tried)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import Site, To
    if _static_set_op(src, lud) or src.reads_only_from(lud):
        return src.listed_sites(lud)
    if mentions(lud.b, (To, Site)):
        if isinstance(lud.b, IntFn):
            raise Unsupported(lud, "less a site that reads (to) or (site)")
        # the second region listed first, by a helper kernel given the context the
        # difference is read in (the loop over its sites may rebind (to) and (site))
        return src.listed_by_loop(lud.a, less=lud.b), None
    seq, flt = src.region_sites(lud.a)

    def test(v):
        less = _not_in_second(src, lud, v)
        return f"{flt(v)} and {less}" if flt else less
    return seq, test


def _not_in_second(src, lud, site: str) -> str:
    """A difference's test that `site` is not in its second region (or not its site)."""
    if isinstance(lud.b, IntFn):
        return f"{site} != {src.int_expr(lud.b)}"
    return f"not {src.region_contains(lud.b, site)}"


@emits(Difference, kind="filtered")
def _less_empty(src, lud):
    """The occupied sites of a board region, as its sites and a filter."""
    if type(lud.b) is SitesEmpty and lud.b.container is None and \
            lud.b.type in (None, src.env.board.site_type):
        return lud.a, "what[site] != 0"     # sites off the board never: a board region here
    return None


@emits(Difference, kind="for_region")
def _difference_loop(src, lud, out, ind, body):
    """The first region's loop, the body run at the sites the second does not hold. A site
    taken away is read once before the loop, where the loop's `site` cannot hide a `(site)`
    of a loop around it (as the reference reads both regions before the difference); so is
    a second region reading `(site)` (`_held_before`)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import Site
    if isinstance(lud.b, IntFn):
        d = len(ind)
        out.append(f"{ind}dsb_{d} = {src.int_expr(lud.b)}")
        test = f"site != dsb_{d}"
    elif mentions(lud.b, (Site,)):
        test = f"not {_held_before(src, lud.b, out, ind, f'dsl_{len(ind)}')}"
    else:
        test = _not_in_second(src, lud, "site")
    src.for_region(lud.a, out, ind, [f"if {test}:", *("    " + x for x in body)])


@emits(RegionFilter, kind="for_region")
def _filter_loop(src, lud, out, ind, body):
    """The region's own loop, the body run where the condition holds at `(site)`."""
    src.for_region(lud.region, out, ind, [f"if {src.bool_expr(lud.if_)}:",
                                          *("    " + x for x in body)])


@emits(SitesBetween, kind="sites", refuses=(("type", "on another site type"),))
def _between_sites(src, lud):
    """`SitesBetween.compile` in a helper kernel given the evaluation context: with (from)
    and (to) on the two sites, `from` and `to` when included, then on the first radial
    from `from` (in the directions, which must read nothing of the state) that reaches
    `to`, the sites before it from the nearest back, each where `cond:` holds with
    (between) on it."""
    env = src.env
    dirn = lud.dirn or "Adjacent"
    if not env.is_static_direction(dirn):
        raise Unsupported(lud, "in directions that read the state")
    keys = env.direction_keys(dirn, lud)
    radials = env.board.radials
    n = env.num_board_sites
    rows = [[list(r.sites[1:]) for k in keys(None, s) for r in (radials[k][s] if k in radials
                                                                   else ())] for s in range(n)]
    t_rows, t_len = src.padded(rows)
    R3, RL, NR = src.table(t_rows), src.table(t_len), src.table([len(r) for r in rows])
    depth = t_rows.shape[-1] if t_rows.ndim == 3 else 1
    bound = ", player" if src.player_bound else ""
    saved, src.between = src.between, "btw"
    try:
        a, b = src.int_expr(lud.from_), src.int_expr(lud.to)
        with_from, with_to, cond = (src.bool_expr(x) if x is not None else None
                                    for x in (lud.fromIncluded, lud.toIncluded, lud.cond))
    finally:
        src.between = saved
    keep = ["            buf[nb] = btw", "            nb += 1"]
    body = [f"    a, b = {a}, {b}", f"    buf = np.empty({depth + 2}, np.int64)", "    nb = 0",
            f"    if not (0 <= a < {n} and 0 <= b < {n}):", "        return buf[:0]",
            "    frm, to = a, b"]
    for test, site in ((with_from, "a"), (with_to, "b")):
        if test is not None:
            body += [f"    if {test}:", f"        buf[nb] = {site}", "        nb += 1"]
    body += [f"    for j in range({NR}[a]):", f"        for p in range({RL}[a, j]):",
             f"            if {R3}[a, j, p] == b:",
             "                for q in range(p - 1, -1, -1):",
             f"                    btw = {R3}[a, j, q]",
             *(["                    if " + cond + ":", *("            " + x for x in keep)]
               if cond is not None else ["        " + x for x in keep]),
             "                return buf[:nb]", "    return buf[:nb]"]

    def make(name):
        return "\n".join(["@njit(cache=True)",
                          f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}):",
                          src.context(local=()), *body, ""])
    return (f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}{bound})",
            None)


@emits(SitesBetween, kind="contains", refuses=(("type", "on another site type"),))
def _between_contains(src, lud, site):
    return f"({_between_sites(src, lud)[0]} == {site}).any()"


@emits(RegionFilter, kind="contains")
def _filter_contains(src, lud, site):
    """The site is in the region and the condition holds with `(site)` on it: a helper
    kernel given the evaluation context and the site."""
    bound = ", player" if src.player_bound else ""
    saved, src.between = src.between, "btw"
    try:
        test = f"{src.region_contains(lud.region, 'site')} and {src.bool_expr(lud.if_)}"
    finally:
        src.between = saved

    def make(name):
        return "\n".join(["@njit(cache=True)",
                          f"def {name}(who, what, count, sc, phase, frm, to, btw, site{bound}):",
                          src.context(local=()), f"    return {test}", ""])
    return (f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}, {site}"
            f"{bound})")


@emits(SitesEmpty, kind="contains")
def _empty_contains(src, lud, site):
    lo, hi = _empty_span(src, lud)
    return f"({lo} <= {site} < {hi} and {_empty_test(src, lud, site)})"


@emits(SitesEmpty, kind="sites")
def _empty_sites(src, lud):
    lo, hi = _empty_span(src, lud)
    return f"range({lo}, {hi})", lambda v: _empty_test(src, lud, v)


@emits(SitesEmpty, kind="for_region")
def _empty_loop(src, lud, out, ind, body):
    lo, hi = _empty_span(src, lud)
    out.append(f"{ind}for site in range({lo}, {hi}):")
    out.append(f"{ind}    if {_empty_test(src, lud, 'site')}:")
    out.extend(f"{ind}        {x}" for x in body)


def _empty_test(src, lud, site: str) -> str:
    """A site of the span is empty: no piece, and on the board (no container named) in a
    game with large pieces, no large piece covering it (as `SitesEmpty.compile`). Of
    another site type than the board's, an element of its layer (`_empty_other_type`)."""
    other = _empty_other_type(src, lud)
    if other is not None:
        base_ = other[0]
        return "True" if base_ is None else f"what[{base_} + {site}] == 0"
    if src.game.large_pieces and lud.container is None:
        return f"(what[{site}] == 0 and sc[COV + {site}] == 0)"
    return f"what[{site}] == 0"


def _empty_span(src, lud) -> tuple[str, str]:
    """The sites `(sites Empty)` looks at, as expressions of the first and the one past the
    last: the board's, or those of the container named or numbered (`_container_sites`;
    none past the last); of another site type than the board's, the indices of its
    elements (`_empty_other_type`)."""
    other = _empty_other_type(src, lud)
    if other is not None:
        return "0", str(other[1])
    if lud.container is None:
        return "0", str(src.env.num_board_sites)
    ranges = _container_ranges(src.env)
    if isinstance(lud.container, str):
        named = ranges[_named_container(src.env, lud)]
        return str(named.start), str(named.stop)
    cid = src.int_expr(lud.container)
    ok = f"0 <= {cid} < {len(ranges)}"
    return (f"({src.table([r.start for r in ranges])}[{cid}] if {ok} else 0)",
            f"({src.table([r.stop for r in ranges])}[{cid}] if {ok} else 0)")


def _empty_other_type(src, lud) -> tuple | None:
    """`(sites Empty <type>)` of another site type than the board's, as `SitesEmpty.compile`
    reads it: (the kernels' place of its element 0, its number of elements) for a layer of
    the board the game puts pieces on (`layer_of`), each element empty where its place is;
    (None, its number of elements) for a layer that stays empty, every element empty. None
    for the board's own type."""
    if lud.type in (None, src.env.board.site_type):
        return None
    if lud.container is not None:
        raise Unsupported(lud, f"of the type {lud.type} in a container")
    return layer_of(src.env, lud.type) or (None, other_layer_size(src.env, lud.type))


def _occupied(src, lud) -> tuple[tuple[object, object], "Callable"]:
    """((the first site to look at, the site past the last), a test of a site's variable)
    for `(sites Occupied)`; `on:` a layer of the board the game puts pieces on
    (`layer_of`), the indices of its elements, each read at its place (as
    `SitesOccupied._on_layer`)."""
    layer = None
    if lud.on not in (None, src.env.board.site_type):
        layer = layer_of(src.env, lud.on)
        if layer is None:
            raise Unsupported(lud, f"on:{lud.on}, a site type the game puts no pieces on")
        if lud.container is not None or lud.top is not None:
            raise Unsupported(lud, f"on:{lud.on} with container: or top:")
    in_hand = isinstance(lud.container, str) and "Hand" in lud.container
    by_index = isinstance(lud.container, IntFn)
    if lud.container not in (None, "Board", 0) and not in_hand and not by_index:
        raise Unsupported(lud, f"in the container {lud.container}")
    if not isinstance(lud.by, str):
        if in_hand or lud.component is not None or lud.components or lud.top is False:
            raise Unsupported(lud, "by (player ...) in a hand, or with component: or top:")
    # the owner Ludii's owned-pieces lists give a site's piece (`_owners`): its `who`, or
    # where `who` is the piece's index, its kind's owner (OWNER[0] is 0: an empty site)
    owner = "OWNER[what[{s}]]" if src.game.who_is_index else "who[{s}]"
    if not isinstance(lud.by, str):
        # one player's pieces (an empty site has owner 0 too: never listed, as the reference)
        who = src.int_expr(lud.by).replace("{", "{{").replace("}", "}}")
        test = f"(what[{{s}}] != 0 and {owner} == {who})"
    elif lud.by == "All":
        # Every owner, the neutral and shared ones too (as the reference): any piece (on
        # stacks, any top piece: every level's owner is one of them).
        test = "what[{s}] != 0"
    elif src.owner_role(lud.by):
        test = src.owner_test(lud.by, lud, owner)
        if lud.by == "Prev":
            # no player is the previous one before the first move: owner 0, whose empty
            # sites are not listed (as the reference)
            test = f"(what[{{s}}] != 0 and {test})"
    elif lud.by == "Shared" and not src.game.stacking:
        # the shared owner's pieces (no empty site has that owner)
        test = f"{owner} == {src.env.role_id('Shared', lud)(None)}"
    elif lud.by == "Neutral" and not src.game.stacking:
        # an empty site has owner 0 too: the neutral pieces only (as the reference)
        test = f"(what[{{s}}] != 0 and {owner} == 0)"
    else:
        raise Unsupported(lud, f"by {lud.by}")
    # As the reference: the board alone when named, or when its sites are not cells (the
    # hands' sites are cells); every container's sites otherwise.
    env = src.env
    board_only = lud.container is not None or env.board.site_type != "Cell"
    if lud.component is not None or lud.components or lud.top is False:
        test = _occupied_by_kind(src, lud, test)
    if in_hand:
        # the by: player's hand whose name holds the container's (`SitesOccupied._hands`)
        if not isinstance(lud.by, str) or lud.on is not None:
            raise Unsupported(lud, "in a hand, by (player ...) or on:")
        hands = lud._hands(env)
        ids = range(src.game.num_players + 2)
        first = src.table([hands[p].start if p in hands else 0 for p in ids])
        past = src.table([hands[p].stop if p in hands else 0 for p in ids])
        who = src.player_expr(lud.by, lud)
        span = (f"{first}[{who}]", f"{past}[{who}]")
    elif by_index:
        # the container of that index (the board 0, then the others in their order), as
        # `_container_sites`; none past the last
        ranges = [range(env.num_board_sites)] + [range(k.sites_from, k.sites_from + k.num_sites)
                                                 for k in env.equipment.containers[1:]]
        first = src.table([r.start for r in ranges])
        past = src.table([r.stop for r in ranges])
        cid = src.int_expr(lud.container)
        inside = f"0 <= {cid} < {len(ranges)}"
        span = (f"({first}[{cid}] if {inside} else 0)", f"({past}[{cid}] if {inside} else 0)")
    elif layer is not None:
        base_, size = layer
        return (0, size), lambda v: test.format(s=f"{base_} + {v}")
    else:
        span = (0, env.num_board_sites if board_only else "TOTAL")
    return span, lambda v: test.format(s=v)


def _occupied_by_kind(src, lud, test: str) -> str:
    """The test of `(sites Occupied by:<one player> [component:"Name"|components:{...}]
    [top:False])`: the top piece theirs (of the kinds), or, on stacks, a level below it (any level with
    top:False), as `SitesOccupied.compile` reads them."""
    by = lud.by
    if by in ("Enemy", "NonMover") and src.game.num_players == 2:
        by = "Next"                 # the one other player (no teams compile)
    several = False                 # players a role covers now (Enemy, Friend, ...)
    if by not in ("Mover", "Next", "Prev", "Player", "All") and \
            not (by[:1] == "P" and by[1:].isdigit()) and \
            not (by in ("Shared", "Neutral") and not src.game.stacking):    # one owner too
        if by == "Shared" or not src.owner_role(by):
            raise Unsupported(lud, f"with component: or top: by {lud.by}")
        several = True
    if lud.component is not None and not isinstance(lud.component, str):
        raise Unsupported(lud, "with a component given by its index")
    comps = src.game.components
    names = set(lud.components or ()) or ({lud.component} if lud.component else set())
    named = [False] + [not names or name_without_number(k.name) in names for k in comps[1:]]
    kind = f"{src.table(named, 'bool_')}[what[{{s}}]]"
    if not src.game.stacking:
        return f"({test} and {kind})"
    levels = src.table(named if names else [], "bool_")
    if several:
        # the levels of the players the role covers now: a mask of them by id
        covers = src.owner_test(by, lud, "w_")

        def make(name):
            return "\n".join(["@njit(cache=True)", f"def {name}(mover):",
                              "    m = np.zeros(NP + 2, np.bool_)",
                              "    for w_ in range(NP + 2):", f"        m[w_] = {covers}",
                              "    return m", ""])
        below = (f"stack_pieces_of(who, what, count, {{s}}, {src.helper(make)}(mover), "
                 f"{levels}) > 0")
    else:
        player = "-1" if by == "All" else src.player_expr(by, lud)     # (All: any owner)
        below = f"stack_pieces(who, what, count, {{s}}, {player}, {levels}) > 0"
    if lud.top is False:
        return f"(({test} and {kind}) or {below})"
    return f"({test} and ({kind} or {below}))"


_OCCUPIED_REFUSES = ("type",)


@emits(SitesOccupied, kind="for_region", refuses=_OCCUPIED_REFUSES)
def _occupied_loop(src, lud, out, ind, body):
    (lo, hi), test = _occupied(src, lud)
    out.append(f"{ind}for site in range({lo}, {hi}):")
    out.append(f"{ind}    if {test('site')}:")
    out.extend(f"{ind}        {x}" for x in body)


@emits(SitesOccupied, kind="contains", refuses=_OCCUPIED_REFUSES)
def _occupied_contains(src, lud, site):
    (lo, hi), test = _occupied(src, lud)
    return f"({lo} <= {site} < {hi} and {test(site)})"


@emits(SitesOccupied, kind="sites", refuses=_OCCUPIED_REFUSES)
def _occupied_sites(src, lud):
    (lo, hi), test = _occupied(src, lud)
    return f"range({lo}, {hi})", test


def _hand_span(src, lud) -> tuple[str, str]:
    """The first site of the hand and the site past it, as expressions (an empty range for
    no hand), as `SitesHand.compile` finds it."""
    if lud.player is None and lud.role in (None, "Shared"):
        hand = next(iter(src.env.hand_ranges().values()), ()) if lud.role else ()
        return (str(hand[0]), str(hand[0] + len(hand))) if len(hand) else ("0", "0")
    who = src.int_expr(lud.player) if lud.player is not None else \
        src.player_expr(lud.role, lud)
    ranges = src.env.hand_ranges()
    np_ = src.game.num_players
    first = src.table([ranges[p][0] if ranges.get(p) else 0 for p in range(np_ + 2)])
    past = src.table([ranges[p][0] + len(ranges[p]) if ranges.get(p) else 0
                      for p in range(np_ + 2)])
    ok = f"0 <= {who} < {np_ + 2}"
    return f"({first}[{who}] if {ok} else 0)", f"({past}[{who}] if {ok} else 0)"


@emits(SitesHand, kind="sites")
def _hand_sites(src, lud):
    lo, hi = _hand_span(src, lud)
    return f"range({lo}, {hi})", None


@emits(SitesHand, kind="contains")
def _hand_contains(src, lud, site):
    lo, hi = _hand_span(src, lud)
    return f"({lo} <= {site} < {hi})"


@emits(SitesHand, kind="for_region")
def _hand_loop(src, lud, out, ind, body):
    if lud.player is None and lud.role in (None, "Shared"):
        # as `SitesHand.compile`: no sites without a player, the first hand for Shared
        hand = next(iter(src.env.hand_ranges().values()), ()) if lud.role else ()
        if len(hand):
            out.append(f"{ind}for site in range({hand[0]}, {hand[0] + len(hand)}):")
            out.extend(f"{ind}    {x}" for x in body)
        return
    who = src.int_expr(lud.player) if lud.player is not None else \
        src.player_expr(lud.role, lud)
    ranges = src.env.hand_ranges()
    np_ = src.game.num_players
    first = src.table([ranges[p][0] if ranges.get(p) else 0 for p in range(np_ + 2)])
    size = src.table([len(ranges.get(p, ())) for p in range(np_ + 2)])
    out.append(f"{ind}hand_of = {who}")
    out.append(f"{ind}if 0 <= hand_of < {np_ + 2}:")
    out.append(f"{ind}    for site in range({first}[hand_of], {first}[hand_of] + "
               f"{size}[hand_of]):")
    out.extend(f"{ind}        {x}" for x in body)


def _around_region_loop(src, lud, out, ind, body):
    """`(sites Around <region>)`: around each centre in the region's order, each site once,
    the centres themselves left out, none when the first centre is off the board."""
    around, width, kind = _around_table(src, lud)
    n = _around_n(src, lud)
    tab = src.table(around)
    seq, flt = src.region_sites(lud.where)
    d = len(ind)            # the names of this loop's locals, one per depth of nesting
    ok = f" and {flt(f'ctr_{d}')}" if flt else ""
    out += [f"{ind}ctrs_{d} = {seq}", f"{ind}centre_{d} = np.zeros(MARKS, np.bool_)",
            f"{ind}nc_{d} = 0", f"{ind}first_{d} = -1",
            f"{ind}for ctr_{d} in ctrs_{d}:",
            f"{ind}    if True{ok}:",
            f"{ind}        if nc_{d} == 0:",
            f"{ind}            first_{d} = ctr_{d}",
            f"{ind}        nc_{d} += 1",
            f"{ind}        if 0 <= ctr_{d} < MARKS:",
            f"{ind}            centre_{d}[ctr_{d}] = True",
            f"{ind}if first_{d} >= 0:",
            f"{ind}    seen_{d} = np.zeros(MARKS, np.bool_)",
            f"{ind}    for ctr_{d} in ctrs_{d}:",
            f"{ind}        if 0 <= ctr_{d} < {n}{ok}:",
            f"{ind}            for r_{d} in range({width}):",
            f"{ind}                site = {tab}[ctr_{d}, r_{d}]",
            f"{ind}                if site >= 0 and not seen_{d}[site] and {kind('site')}:",
            f"{ind}                    seen_{d}[site] = True",
            f"{ind}                    if not centre_{d}[site]:"]
    out.extend(f"{ind}                        {x}" for x in body)


def _around_radials(src, lud):
    """(each site's radials in `lud`'s directions, the number of sites, the most radials a
    site has): of its site type's topology (the board's own by default), as `SitesAround`."""
    key = lud.dirn or "Adjacent"
    topology = src.env.tables_of(lud.type).board
    radials = topology.radials.get(key)
    if radials is None:
        raise lud.fail(f"no radials in direction {key} on this board")
    n = topology.num_sites
    return radials, n, max((len(radials[s]) for s in range(n)), default=0) or 1


def _around_table(src, lud):
    """(the table of each board site's sites at the distance, one per radial, -1 past the
    board; its width; the kind's test of a site's name) of `(sites Around <site>)` (of
    each site of a region as the centre)."""
    import numpy as np
    from .literals import fixed_int
    dist = fixed_int(lud, "distance", 1)
    radials, n, width = _around_radials(src, lud)
    around = np.full((n, width), -1)
    for s in range(n):
        for r, rad in enumerate(radials[s]):
            if dist < len(rad.sites):
                around[s, r] = rad.sites[dist]
    return around, width, _around_kind(src, lud)


# The test of a site's name `{v}` for each kind of `(sites Around ...)`.
_AROUND_KINDS = {None: "True", "Empty": "what[{v}] == 0", "NotEmpty": "what[{v}] != 0",
                 "Own": "(what[{v}] != 0 and OWNER[what[{v}]] == mover)",
                 "NotOwn": "not (what[{v}] != 0 and OWNER[what[{v}]] == mover)",
                 "Enemy": "(what[{v}] != 0 and OWNER[what[{v}]] != 0 and "
                          "OWNER[what[{v}]] != mover)",
                 "NotEnemy": "not (what[{v}] != 0 and OWNER[what[{v}]] != 0 and "
                             "OWNER[what[{v}]] != mover)"}


def _around_kind(src, lud):
    """The kind's test of a site's name; of another site type than the board's, the piece
    read at its layer's place (`layer_bounds`), none where the game puts none there."""
    kind = _AROUND_KINDS[lud.kind_]
    if lud.type not in (None, src.env.board.site_type) and lud.kind_ is not None:
        bounds = layer_bounds(src.env, lud.type)
        at = f"layer_at(what, {{v}}, {', '.join(map(str, bounds))})" if bounds else "0"
        kind = kind.replace("what[{v}]", at)
    return lambda v: kind.format(v=v)


def _around_n(src, lud) -> int:
    """The number of sites of `(sites Around ...)`'s site type (the board's own by default)."""
    return src.env.tables_of(lud.type).board.num_sites


def _around_listed(src, lud) -> str | None:
    """`(sites Around ...)` with if: or includeSelf:, as the reference's general form lists
    it (None for the others): a kernel walks each centre's radials to the distance (read
    now), keeps each site once where the condition holds (with `(from)` the centre and
    `(to)` the site) and the kind fits, then adds the centres (includeSelf:) or leaves them
    out; nothing when the first centre is off the board."""
    if lud.if_ is None and not lud.includeSelf:
        return None
    from .sliding import radials_array
    radials, n, _ = _around_radials(src, lud)
    rays, width, depth = radials_array([[[r.sites for r in radials[s]] for s in range(n)]])
    tab = src.table(rays[0])
    kind = _around_kind(src, lud)
    cond = src.bool_expr(lud.if_) if lud.if_ is not None else "True"
    dist = src.int_expr(lud.distance) if lud.distance is not None else "1"
    if isinstance(lud.where, IntFn):
        centres = [f"    ctrs = np.full(1, {src.int_expr(lud.where)}, np.int64)"]
    else:
        centres = [f"    ctrs = {src.listed_by_loop(lud.where)}"]
    if lud.includeSelf:     # the centres not listed yet, after the sites around
        last = ["    for ctr in ctrs:", "        if not (buf[:k] == ctr).any():",
                "            buf[k] = ctr", "            k += 1", "    return buf[:k]"]
    else:
        last = ["    j = 0", "    for i in range(k):", "        if not (ctrs == buf[i]).any():",
                "            buf[j] = buf[i]", "            j += 1", "    return buf[:j]"]
    bound = ", player" if src.player_bound else ""

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}):",
            src.context(local=()), *centres,
            "    buf = np.empty(MARKS + ctrs.shape[0], np.int64)", "    k = 0",
            "    if ctrs.shape[0] == 0 or ctrs[0] < 0:", "        return buf[:0]",
            f"    dist = {dist}",
            f"    seen = np.zeros({n}, np.bool_)",
            "    for ctr in ctrs:",
            f"        if not 0 <= ctr < {n} or not 0 <= dist < {depth}:",
            "            continue",
            "        frm = ctr",
            f"        for r in range({width}):",
            f"            to = {tab}[ctr, r, dist]",
            f"            if to >= 0 and not seen[to] and ({cond}) and {kind('to')}:",
            "                seen[to] = True", "                buf[k] = to", "                k += 1",
            *last, ""])
    return (f"{src.helper(make)}(who, what, count, sc, phase, frm, to, "
            f"{src.between}{bound})")


@emits(SitesAround, kind="for_region")
def _around_loop(src, lud, out, ind, body):
    if (listed := _around_listed(src, lud)) is not None:
        out.append(f"{ind}for site in {listed}:")
        out.extend(f"{ind}    {x}" for x in body)
        return
    if not isinstance(lud.where, IntFn):
        return _around_region_loop(src, lud, out, ind, body)
    around, width, kind = _around_table(src, lud)
    n = _around_n(src, lud)
    tab = src.table(around)
    out.append(f"{ind}ctr = {src.int_expr(lud.where)}")
    out.append(f"{ind}if 0 <= ctr < {n}:")
    out.append(f"{ind}    seen = np.zeros(MARKS, np.bool_)")
    out.append(f"{ind}    for r in range({width}):")
    out.append(f"{ind}        site = {tab}[ctr, r]")
    out.append(f"{ind}        if site >= 0 and site != ctr and not seen[site] and {kind('site')}:")
    out.append(f"{ind}            seen[site] = True")
    out.extend(f"{ind}            {x}" for x in body)


@emits(SitesAround, kind="contains")
def _around_contains(src, lud, site):
    """A site is around the centre: a table of the board's sites around each site."""
    if (listed := _around_listed(src, lud)) is not None:
        return f"({listed} == {site}).any()"
    import numpy as np
    if not isinstance(lud.where, IntFn):       # around a region: listed, then looked up
        return f"({src.listed_by_loop(lud)} == {site}).any()"
    around, _, kind = _around_table(src, lud)
    n = _around_n(src, lud)
    mask = np.zeros((n, n), dtype=bool)
    for s in range(n):
        mask[s, [t for t in around[s] if 0 <= t < n and t != s]] = True
    ctr = src.int_expr(lud.where)
    return (f"(0 <= {ctr} < {n} and 0 <= {site} < {n} and {src.table(mask, 'bool_')}"
            f"[{ctr}, {site}] and {kind(site)})")


@emits(SitesAround, kind="sites")
def _around_sites(src, lud):
    """The sites around the centre in the radials' order, each once (a table row)."""
    if (listed := _around_listed(src, lud)) is not None:
        return listed, None
    if not isinstance(lud.where, IntFn):       # around a region: as its loop lists them
        return src.listed_by_loop(lud), None
    around, _, kind = _around_table(src, lud)
    n = _around_n(src, lud)
    rows = [list(dict.fromkeys(t for t in around[s] if 0 <= t < n and t != s))
            for s in range(n)]
    t_sites, t_len = src.row_tables(rows)
    ctr = src.int_expr(lud.where)
    return (f"({t_sites}[{ctr}, :{t_len}[{ctr}]] if 0 <= {ctr} < {n} else {t_sites}[0, :0])",
            kind if lud.kind_ is not None else None)
