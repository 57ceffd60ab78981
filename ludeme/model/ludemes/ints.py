"""Integer functions: each compiles to `c -> int`."""

from __future__ import annotations

import re

import numpy as np

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import DirWord, IntFn, LitBool, LitStr, P, Region, RoleType, SiteType, context_variable as _var, ludeme, \
    layer_bounds, layer_of, layer_site, other_layer_end
from ludeme.engine.compiled.emit import Unsupported, emits, reads_params_only_from, refuse
from ..roles import DYNAMIC_WORDS

UNDEFINED = -1


From = _var("from", "From", "from_", "`(from)`: the site a move starts from.")
To = _var("to", "To", "to", "`(to)`: the site a move goes to.")
Site = _var("site", "Site", "site", "`(site)`: the site being iterated over.")
Level = _var("level", "Level", "level",
             "`(level)`: the level being iterated over (in `(count Stack ... if:)`, "
             "`(forEach Piece ...)`).")
PlayerVar = _var("player", "PlayerVar", "player", "`(player)`: the player being iterated over.")
ValueVar = _var("value", "ValueVar", "value", "`(value)`: the value being iterated over "
               "(by (forEach Value ...), or the seeds left to sow in (sow ...)).")


@ludeme("mover")
class MoverId(IntFn):
    """`(mover)`: the player to move."""

    params = ()

    def compile(self, env):
        return lambda c: c.s.mover


@ludeme("next")
class NextId(IntFn):
    """`(next)`: the next player."""

    params = ()

    def compile(self, env):
        return lambda c: c.s.next


@ludeme("prev")
class PrevId(IntFn):
    """`(prev)`: the previous mover."""

    params = ()

    def compile(self, env):
        return lambda c: c.s.prev


@ludeme("last", "From")
class LastFrom(IntFn):
    """`(last From)`: where the last decision started; with `afterConsequence:True`, the
    origin of the last of its actions and consequences that has a destination."""

    params = (P("afterConsequence", LitBool, opt=True, named=True),)

    def compile(self, env):
        if self.afterConsequence:
            env.reads_after = True
            return lambda c: c.s.last_from_after
        return lambda c: c.s.last_from


@ludeme("last", "Between")
class LastBetween(Region):
    """`(last Between)`: the sites the last decision hopped over (Ludii's LastBetween, the
    move's betweenNonDecision), none before the first move or after a decision that passes
    over nothing (a step, a placement). A slide's or a shot's passed sites are not kept: after
    one it is refused while playing. Example (Bashni, no piece taken
    twice in a chain): `(not (is In (between) (last Between)))`."""

    params = ()

    def compile(self, env):
        def last_between(c):
            got = c.s.last_between
            if got is None:
                raise self.fail("(last Between) after a slide or a shot is not supported yet")
            return got
        return last_between


def _last_between_sites(src) -> str:
    """A call of a helper kernel that gives the sites the last decision hopped over (as the
    kernels note them, `Source.notes_between`); after a slide or a shot, which keep none, it
    fails as the reference does."""
    src.reads_last_between = True
    return src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(sc):", "    if sc[LBN] < 0:",
        "        raise ValueError('(last Between) after a slide or a shot')",
        "    return sc[LBS:LBS + sc[LBN]]", ""])) + "(sc)"


@emits(LastBetween, kind="sites")
def _last_between(src, lud):
    return _last_between_sites(src), None


@emits(LastBetween, kind="contains")
def _last_between_contains(src, lud, site):
    return f"({site} in {_last_between_sites(src)})"


@ludeme("last", "To")
class LastTo(IntFn):
    """`(last To)`: where the last decision went; with `afterConsequence:True`, where the
    last of its actions and consequences went (a piece dropped after being placed)."""

    params = (P("afterConsequence", LitBool, opt=True, named=True, default=False),)

    def compile(self, env):
        if self.afterConsequence:
            env.reads_after = True
            return lambda c: c.s.last_to_after
        return lambda c: c.s.last_to


def read_level(array_index: int, at, level):
    """A closure reading field `array_index` (0 what, 1 who) of a site's level."""
    def read(c):
        s = at(c)
        if s < 0:
            return 0
        return c.s.level_data(s, level(c))[array_index]
    return read


def _read_at(array: str):
    """A closure builder: the value of the state's `array` at the site `at:` (0 if none, and
    0 off the board, as Ludii reads a site past the last one)."""
    def compile(self, env):
        at = env.compile(self.at)
        if getattr(self, "level", None) is not None:
            # A level of the stack (Ludii's `level:`): 0 where there is none.
            field = {"what": 0, "who": 1}.get(array)
            if field is None:
                raise self.fail("level: is not supported here")
            env.stacking = True
            if env.is_move_variable(self.at, "to") and type(self.level) is Level:
                # (what at:(to) level:(level)), as (count Stack ... if:) reads each level
                return lambda c: c.s.level_data(c.to, c.level)[field] if c.to >= 0 else 0
            return read_level(field, at, env.compile(self.level))
        site_type = getattr(self, "type", None) or ("Cell" if self.kind == "Cell" else None)
        store = layer_site(env, site_type)
        if store is not None and array in ("who", "what"):
            # a layer of the board the game puts pieces on: the element's place in the store
            def read_layer(c):
                st = store(at(c))
                return getattr(c.s, array)[st] if st >= 0 else 0
            return read_layer
        # A site type other than the board's reads, on the board, a layer that pieces never
        # reach here (Ludii's cells of a board played on vertices): 0 below `first`; a hand's
        # site reads the same whatever the type.
        first = other_layer_end(env, site_type, self)

        # One closure per array, each reading its list by name (no getattr per read); a site
        # past the last one reads 0.
        if array == "who":
            def read(c):
                s = at(c)
                try:
                    return c.s.who[s] if s >= first else 0
                except IndexError:
                    return 0
        elif array == "what":
            def read(c):
                s = at(c)
                try:
                    return c.s.what[s] if s >= first else 0
                except IndexError:
                    return 0
        else:
            def read(c):
                s = at(c)
                try:
                    return c.s.count[s] if s >= first else 0
                except IndexError:
                    return 0
        return read
    return compile


_AT_PARAMS = (P("type", SiteType, opt=True), P("at", IntFn, named=True),
              P("level", IntFn, opt=True, named=True))


@ludeme("who")
class Who(IntFn):
    """`(who at:<site>)`: the owner of the piece at a site (0 if empty)."""

    params = _AT_PARAMS
    compile = _read_at("who")


@ludeme("what")
class What(IntFn):
    """`(what at:<site>)`: the kind (component index) of the piece at a site."""

    params = _AT_PARAMS
    compile = _read_at("what")


@ludeme("id")
class Id(IntFn):
    """`(id "Name" [role])` a component index, or `(id <role>)` a player id."""

    params = (P("name", LitStr, opt=True), P("role", RoleType, opt=True))

    def compile(self, env):
        # Ludii's Id: with a role, the first component whose name contains the name and
        # that player owns; a name no component answers to is -1, never an error (a
        # branch naming a piece the game lacks may never run, and (promote ...) of -1
        # adds no move). (id "Name" Player) is the piece of (player), as Ludii 1.3.12's
        # traces read it.
        if self.name is None:
            return env.role_id(self.role or "Mover", self)
        if self.role is None:
            names = env.equipment.component_names()
            if self.name in names or f"{self.name}1" in names:
                return env.component_fn(self.name, None, self)
            return lambda c: -1
        if self.role not in _ID_OWNERS:
            return lambda c: -1                     # Ludii's Id knows no other owner here
        table = self.by_owner(env)
        who = env.role_id(self.role, self)
        if self.role not in DYNAMIC_WORDS:
            p = who(None)
            idx = table[p] if 0 <= p < len(table) else -1
            return lambda c: idx
        return lambda c: table[p] if 0 <= (p := who(c)) < len(table) else -1


    def by_owner(self, env) -> tuple:
        """Per player id, the first component whose name contains the name and that player
        owns, else -1 (Ludii names a neutral piece with its owner's number, "Disc0")."""
        names = [(comp, (comp.name, f"{comp.name}0") if comp.owner == 0 else (comp.name,))
                 for comp in env.components[1:]]
        return tuple(next((comp.index for comp, ns in names
                           if comp.owner == p and any(self.name in n for n in ns)), -1)
                     for p in range(env.num_players + 2))


# The owners Ludii's Id reads beside a name (Id.eval); any other gives -1.
_ID_OWNERS = frozenset(("Neutral", "Shared", "Mover", "Next", "Prev", "Player")
                       + tuple(f"P{i}" for i in range(1, 9)))


@ludeme("ahead")
class Ahead(IntFn):
    """`(ahead <site> [steps:N] <direction>)`: the site N steps away (the site itself if none)."""

    params = (P("type", SiteType, opt=True), P("site", IntFn), P("steps", IntFn, opt=True,
                                                                  named=True),
              P("dirn", (DirWord, "Directions"), opt=True))

    def compile(self, env):
        site = env.compile(self.site)
        steps = env.compile(self.steps) if self.steps is not None else (lambda c: 1)
        if self.dirn in ("SameDirection", "OppositeDirection"):
            return _ahead_along_move(env, site, steps, self.dirn == "OppositeDirection")
        dirn = self.dirn or "Forward"       # Ludii's default: the piece's forward
        if not env.is_static_direction(dirn) or dirn in ("CW", "CCW", "In", "Out", "Rotational"):
            # Relative directions, and the circular ones (which have radials, not one
            # step table): the first radial of the direction, as Ludii's Ahead walks.
            return _ahead_relative(env, site, steps, env.direction_keys(dirn, self))
        tables = env.step_tables(dirn, self)
        tab = tables[0] if tables else None
        nsites = env.num_board_sites
        if tab is not None and (self.steps is None or getattr(self.steps, "value", None) == 1):
            # The common case, one step: a single lookup of the board site one step away
            # (the site itself where there is none).
            step = {s: t if t >= 0 else s for s, t in enumerate(tab[:nsites])}.get
            return _ahead_one(step, site, site_source(self.site))

        def ahead(c):
            s = site(c)
            if tab is None or s < 0 or s >= nsites:
                return s
            cur = s
            for _ in range(steps(c)):
                nxt = tab[cur]
                if nxt < 0:
                    return s
                cur = nxt
            return cur
        return ahead


def _ahead_one(step, site, source: str | None):
    """(ahead <site> <direction>) one step along a static direction: `step(s, s)`, the site
    one step from s, s itself where there is none (a hand's site, an undefined one). The
    usual sites are read in place (`site_source`), without a call."""
    if source == "last_to":
        return lambda c: step(s := c.s.last_to, s)
    if source == "last_from":
        return lambda c: step(s := c.s.last_from, s)
    if source == "from":
        return lambda c: step(s := c.from_, s)
    if source == "to":
        return lambda c: step(s := c.to, s)
    return lambda c: step(s := site(c), s)


def site_source(lud) -> str | None:
    """Where a site ludeme reads its value when it is one of the usual plain reads: "from",
    "to" (the context's iteration variables), "last_to", "last_from" (the state's last
    decision); None for anything else. Hot closures read those in place instead of calling
    them."""
    t = type(lud)
    if t is From:
        return "from"
    if t is To:
        return "to"
    if t is LastTo and not lud.afterConsequence:
        return "last_to"
    if t is LastFrom and not lud.afterConsequence:
        return "last_from"
    return None


def _ahead_relative(env, site, steps, keys):
    """Ludii's Ahead with a direction relative to the piece at the site: the first of
    its directions, -1 when there is none (an empty site); the site itself when that
    direction's radial is too short."""
    radials = env.board.radials
    nsites = env.num_board_sites

    def ahead(c):
        s = site(c)
        if not 0 <= s < nsites:
            return -1 if s < 0 else s
        dirs = keys(c, s)
        if not dirs:
            return -1
        n = steps(c)
        table = radials.get(dirs[0])
        line = table[s][0].sites if table is not None and table[s] else ()
        return line[n] if len(line) >= n + 1 else s
    return ahead


def _ahead_along_move(env, site, steps, opposite: bool):
    """Ludii's Ahead with SameDirection (OppositeDirection): the direction of the step from
    (from) to (to) (from (to) to (from)), the first of the board's directions that has it;
    the site itself when there is none or the radial is too short."""
    board = env.board
    dirs = board.directions
    targets = board.trajectories.targets
    radials = board.radials
    nsites = env.num_board_sites

    def ahead(c):
        s = site(c)
        a, b = (c.to, c.from_) if opposite else (c.from_, c.to)
        if not (0 <= s < nsites and 0 <= a < nsites):
            return s if s >= 0 else -1
        d = next((d for d in dirs if b in targets(a, d)), None)
        if d is None:
            return s
        rs = radials[d][s] if d in radials else ()
        k = steps(c)
        if not rs or len(rs[0].sites) < k + 1:
            return s
        return rs[0].sites[k]
    return ahead


@ludeme("handSite")
class HandSite(IntFn):
    """`(handSite <player> [index])`: a site of a player's hand, in Ludii's global numbering."""

    params = (P("player", IntFn), P("index", IntFn, opt=True))

    def compile(self, env):
        player = env.compile(self.player)
        index = env.compile(self.index) if self.index is not None else (lambda c: 0)
        hand_from = env.hand_offsets()

        def hand_site(c):
            start = hand_from.get(player(c))
            return start + index(c) if start is not None else UNDEFINED
        return hand_site


@ludeme("score")
class Score(IntFn):
    """`(score <player>)`."""
    concepts = ("Scoring",)

    params = (P("player", IntFn),)

    def compile(self, env):
        p = env.compile(self.player)
        return lambda c: c.s.scores[p(c)]


@ludeme("count", "Pieces")
class CountPieces(IntFn):
    """`(count Pieces [<role>|<player>|of:<player>] ["Name"] [in:<region>])`: pieces of a
    player (with no player, of every owner) in all containers, e.g.
    `(count Pieces of:(who at:(last To)) in:(sites Around (last To)))`."""

    params = (P("type", SiteType, opt=True), P("role", RoleType, opt=True, default="All"),
              P("who", IntFn, opt=True), P("of", IntFn, opt=True, named=True),
              P("name", LitStr, opt=True), P("in", Region, opt=True, named=True))

    @property
    def player(self):
        """The player function given, positionally or as of: (Ludii's whoFn when given)."""
        if self.who is not None and self.of is not None:
            raise self.fail("(count Pieces ...) takes a player or of:, not both")
        if self.of is not None and "role" in self._given:
            raise self.fail("(count Pieces ...) takes a role or of:, not both")
        return self.who if self.who is not None else self.of

    def _typed_region(self, env):
        """The closure of the places in the store counted, or None for every place (no
        type given). As Ludii's CountPieces, a site type counts the pieces located on the
        board's sites of that type only (its layer, or none when the game puts no pieces
        on it; hands hold cells of their own), `in:` naming sites of that type."""
        where = env.compile(self.in_) if self.in_ is not None else None
        if self.type is None:
            return where
        if self.type == env.board.site_type:
            base_, size = 0, env.num_board_sites
        else:
            base_, size = layer_of(env, self.type) or (0, 0)
        places = range(base_, base_ + size)
        if where is None:
            return lambda c: places
        return lambda c: [base_ + site for site in where(c) if 0 <= site < size]

    def compile(self, env):
        player = self.player
        players = env.role_players(self.role, self) if player is None else None
        if player is None and self.role == "All":
            # Ludii's getIdPlayers: All also covers neutral (0) and shared (n + 1) pieces.
            everything = frozenset(range(0, env.num_players + 2))
            players = lambda c: everything  # noqa: E731
        who_fn = env.compile(player) if player is not None else None
        where = self._typed_region(env)
        name = self.name
        names = {comp.index for comp in env.components[1:] if name and name in comp.name}

        # Every owner (0 to n + 1) with no name: every site counts, whoever holds it.
        anyone = who_fn is None and self.role == "All" and not name

        def stacked(s, ids, sites):
            # Every level of a stack is a piece (Ludii counts the levels of stacks).
            total = 0
            for site in sites:
                if site >= 0 and s.what[site]:
                    total += sum(1 for lv in s.stack(site) if lv[1] in ids
                                 and (not name or lv[0] in names))
            return total

        one = who_fn or (env.roles.single_fn(self.role, self) if player is None else None)
        if not name and one is not None:
            # The usual case, one player's pieces of any kind (everywhere, or in a region).
            def count_player(c):
                s = c.s
                p = one(c)
                who = s.who
                sites = where(c) if where is not None else range(len(who))
                if c.stacking:
                    return stacked(s, {p}, sites)
                count = s.count
                total = 0
                for site in sites:
                    if who[site] == p:
                        total += count[site]
                return total
            return count_player

        def count_pieces(c):
            s = c.s
            ids = {who_fn(c)} if who_fn else players(c)
            sites = where(c) if where is not None else range(len(s.who))
            if c.stacking:
                return stacked(s, ids, sites)
            count = s.count
            total = 0
            if anyone:
                if where is None:
                    return sum(count)
                for site in sites:
                    total += count[site]
                return total
            who, what = s.who, s.what
            for site in sites:
                if who[site] in ids and (not name or what[site] in names):
                    total += count[site]
            return total
        return count_pieces


@ludeme("count", "Vertices")
class CountVertices(IntFn):
    """`(count Vertices)`: the number of vertices of the board's graph, whatever sites the
    game plays on (Ludii's CountVertices). Example: `(<= (site) (- (count Vertices) 1))`."""
    concepts = ()

    params = ()

    def compile(self, env):
        n = env.board.num_vertices
        return lambda c: n


@ludeme("count", "Cell")
class CountCell(IntFn):
    """`(count Cell at:<site>)`: how many pieces stand on a site; `(count Cell in:<region>)`:
    on the sites of the region together (Ludii's CountNumber; stack sizes when stacking)."""
    concepts = ("Cell", "PieceCount")

    params = (P("at", IntFn, opt=True, named=True), P("in", Region, opt=True, named=True))
    _count_at = _read_at("count")

    def compile(self, env):
        if (self.at is None) == (self.in_ is None):
            raise self.fail("(count Cell ...) takes at:<site> or in:<region>")
        if self.at is not None:
            return self._count_at(env)
        region = env.compile(self.in_)

        def count_in(c):
            s = c.s
            if c.stacking:
                return sum(s.size_stack(x) for x in set(region(c)) if x >= 0)
            count = s.count
            return sum(count[x] for x in set(region(c)) if 0 <= x < len(count))
        return count_in


@ludeme("count")
class CountAt(IntFn):
    """`(count at:<site>)`: how many pieces stand on a site."""
    concepts = ("PieceCount",)

    params = _AT_PARAMS
    compile = _read_at("count")


@ludeme("count", "Sites")
class CountSites(IntFn):
    """`(count Sites in:<region>)`."""

    params = (P("in", Region, named=True),)

    def compile(self, env):
        region = env.compile(self.in_)
        if getattr(self.in_, "distinct", False):
            return lambda c: len(region(c))
        return lambda c: len(set(region(c)))


def _arith(word, fn, doc):
    class Arith(IntFn):
        concepts = ({"+": "Addition", "-": "Subtraction", "*": "Multiplication", "mul": "Multiplication",
                     "/": "Division", "%": "Modulo"}[word],)
        params = (P("a", IntFn), P("b", IntFn, opt=True))

        def compile(self, env):
            a = env.compile(self.a)
            if self.b is None:
                if word == "-":
                    return lambda c: -a(c)
                return a
            b = env.compile(self.b)
            return lambda c: fn(a(c), b(c))
    Arith.__name__ = f"Arith{len(word)}{ord(word[0])}"
    Arith.__doc__ = doc
    return ludeme(word)(Arith)


_arith("+", lambda x, y: x + y, "`(+ a b)`.")
_arith("-", lambda x, y: x - y, "`(- a b)`.")
_arith("*", lambda x, y: x * y, "`(* a b)`.")
_arith("/", lambda x, y: int(x / y) if y else 0, "`(/ a b)`: integer division toward zero.")
_arith("%", lambda x, y: x % y if y else 0, "`(% a b)`.")
_arith("mul", lambda x, y: x * y, "`(mul a b)`: Ludii's name for `(* a b)` (its Mul class).")


Between = _var("between", "Between", "between", "`(between)`: the site being hopped over.")


def _site_attribute(attr: str):
    """A closure builder: the board site's `attr` (row or column) of the site `of:`."""
    def compile(self, env):
        of = env.compile(self.of)
        values = tuple(getattr(s, attr) for s in env.board.sites)
        return lambda c: values[of(c)]
    return compile


_OF_PARAMS = (P("type", SiteType, opt=True), P("of", IntFn, named=True))


@ludeme("row")
class RowOf(IntFn):
    """`(row of:<site>)`: the row of a board site."""

    params = _OF_PARAMS
    compile = _site_attribute("row")


@ludeme("column")
class ColumnOf(IntFn):
    """`(column of:<site>)`: the column of a board site."""

    params = _OF_PARAMS
    compile = _site_attribute("col")


@ludeme("layer")
class LayerOf(IntFn):
    """`(layer of:<site>)`: the layer of a board site, 0 at the bottom (Ludii's Layer), -1 off
    the board (a hand's site). Only a pyramidal board has layers above 0:
    `(layer of:(last To))` on `(square 4 pyramidal:True)` is 3 at its apex."""

    concepts = ()

    params = _OF_PARAMS

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            self.refuse("type", why="the layer of a site type the board is not played on")
        of = env.compile(self.of)
        layers = env.board.layers
        n = len(layers)

        def layer(c):
            s = of(c)
            return layers[s] if 0 <= s < n else -1
        return layer


@ludeme("phase")
class PhaseOf(IntFn):
    """`(phase [<siteType>] of:<site>)`: the colour class Ludii's board measure gave the site
    (`ludeme.boards.measure.measure_phase`: no two neighbours share one), -1 for an index
    below 0 or off the board. On `(square 8)` the phases alternate as a chessboard's colours:
    `(= (phase of:(from)) (phase of:(to)))` holds for a diagonal step, not an orthogonal one."""

    concepts = ()

    params = _OF_PARAMS

    def compile(self, env):
        of = env.compile(self.of)
        phases = tuple(s.phase for s in env.board.topology(self.type).sites)
        n = len(phases)

        def phase(c):
            s = of(c)
            return phases[s] if 0 <= s < n else -1
        return phase


@ludeme("count", "Groups")
class CountGroups(IntFn):
    """`(count Groups [dirs] [if:<cond>] [min:N])`: connected groups of sites satisfying the
    condition (evaluated with `(to)` at each site), connected by steps in the directions
    (Adjacent by default); groups smaller than `min` are not counted."""
    concepts = ("Group", "AdjacentDirection if not dirn")

    params = (P("type", SiteType, opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("if", "Bool", opt=True, named=True), P("min", IntFn, opt=True, named=True))

    def compile(self, env):
        cond = env.compile(self.if_) if self.if_ is not None else (lambda c: c.s.what[c.to] != 0)
        neighbours = env.step_targets(self.dirn or "Adjacent", self)
        min_fn = env.compile(self.min) if self.min is not None else (lambda c: 0)
        n = env.num_board_sites

        def count_groups(c):
            saved = c.to
            members = []
            for s in range(n):
                c.to = s
                members.append(cond(c))
            c.to = saved
            seen = [False] * n
            groups = 0
            least = min_fn(c)
            for s in range(n):
                if not members[s] or seen[s]:
                    continue
                seen[s] = True
                stack = [s]
                size = 0
                while stack:
                    x = stack.pop()
                    size += 1
                    for y in neighbours[x]:
                        if members[y] and not seen[y]:
                            seen[y] = True
                            stack.append(y)
                if size >= least:
                    groups += 1
            return groups
        return count_groups


@ludeme("coord")
class Coord(IntFn):
    """`(coord row:R column:C)` or `(coord "A1")`: a board site by position or label."""

    params = (P("type", SiteType, opt=True), P("label", LitStr, opt=True),
              P("row", IntFn, opt=True, named=True), P("column", IntFn, opt=True, named=True))

    def compile(self, env):
        if self.label is not None:
            try:
                site = env.board.index_of(self.label)
            except (KeyError, ValueError):
                site = -1       # Ludii's Coord: Off for a label no site has
            return lambda c: site
        if self.row is None or self.column is None:
            raise self.fail('(coord ...) needs a label or row: and column:')
        row, col = env.compile(self.row), env.compile(self.column)
        at = {(s.row, s.col): s.index for s in env.board.sites}
        return lambda c: at.get((row(c), col(c)), -1)


@ludeme("mapEntry")
class MapEntry(IntFn):
    """`(mapEntry ["Map"] <key>)`: the value a (map ...) gives the key (the key itself if none)."""

    params = (P("name", LitStr, opt=True), P("key", IntFn))

    def compile(self, env):
        # Ludii's MapEntry: the first map of that name (any map when no name is given)
        # that has the key; the key itself when none has, or when no map has that name.
        key = env.compile(self.key)
        tables = env.maps_named(self.name)
        if not tables:
            return key
        if len(tables) == 1:
            get = tables[0].get
            return lambda c: get(k := key(c), k)

        def entry(c):
            k = key(c)
            for t in tables:
                if (v := t.get(k)) is not None:
                    return v
            return k
        return entry


@ludeme("player")
class PlayerFn(IntFn):
    """`(player <int>)`: a player given by number (as in `(sites (player 2))`)."""

    params = (P("index", IntFn),)

    def compile(self, env):
        return env.compile(self.index)


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

_CONTEXT_NAMES = {To: "to", From: "frm", LastTo: "last_to", LastFrom: "last_from",
                  MoverId: "mover", NextId: "nxt", PrevId: "prev", Site: "site"}


@emits(ValueVar, kind="int")
def _value_var(src, lud):
    """`(value)` while a `(forEach Value ...)` generates its moves for one value
    (`ludemes.effects._for_each_value_moves`): that number, or the local holding it."""
    if src.value_written is None:
        raise Unsupported(lud, "outside (forEach Value ...)")
    return str(src.value_written)


@emits(PlayerVar, kind="int")
def _player_var(src, lud):
    """`(player)` inside a loop over the players (`Source.player_bound`)."""
    if not src.player_bound:
        raise Unsupported(lud, "outside a loop over the players")
    return "player"


@emits(To, From, MoverId, NextId, PrevId, Site, kind="int")
def _context_name(src, lud):
    return _CONTEXT_NAMES[type(lud)]


@emits(Coord, kind="int")
def _coord(src, lud):
    """A label's site, a constant; by row and column, a table of the board's sites (-1 where
    no site has them, as the reference)."""
    if lud.label is not None:
        return str(src.env.compile(lud)(src.probe()))
    sites = src.env.board.sites
    rows = max((s.row for s in sites), default=0) + 1
    cols = max((s.col for s in sites), default=0) + 1
    if any(s.row < 0 or s.col < 0 for s in sites):
        raise Unsupported(lud, "on a board with negative rows or columns")
    at = [[-1] * cols for _ in range(rows)]
    for s in sites:             # the last site at a position, as the reference's table
        at[s.row][s.col] = s.index
    r, c = src.int_expr(lud.row), src.int_expr(lud.column)
    return f"({src.table(at)}[{r}, {c}] if 0 <= {r} < {rows} and 0 <= {c} < {cols} else -1)"


@emits(RowOf, ColumnOf, kind="int")
def _row_or_column(src, lud):
    """A table of each board site's row (column), indexed as the reference's tuple (a
    negative site counts from the end)."""
    attr = "row" if type(lud) is RowOf else "col"
    values = src.table([getattr(s, attr) for s in src.env.board.sites])
    return f"{values}[{src.int_expr(lud.of)}]"


@emits(PlayerFn, kind="int")
def _player_number(src, lud):
    """`(player <int>)`: the number itself, as the reference reads it."""
    return src.int_expr(lud.index)


@emits(LastTo, LastFrom, kind="int")
def _last_site(src, lud):
    if lud.afterConsequence:    # noted by every action with a site (`counted_actions`)
        return "sc[LAST_TO_AFTER]" if type(lud) is LastTo else "sc[LAST_FROM_AFTER]"
    return _CONTEXT_NAMES[type(lud)]


@emits(Between, kind="int")
def _between(src, lud):
    return src.between


@emits(Who, What, kind="int")
def _who_what(src, lud):
    at = src.int_expr(lud.at)
    arr = "who" if type(lud) is Who else "what"
    if lud.type not in (None, src.env.board.site_type):
        # another site type than the board's, as `_read_at`: on a layer the game puts
        # pieces on, the element's place (`layer_bounds`); else its indices on the board
        # read nothing, a hand's site the same whatever the type
        if lud.level is not None:
            raise Unsupported(lud, f"of {lud.type} sites with level:")
        bounds = layer_bounds(src.env, lud.type)
        if bounds is not None:
            return f"layer_at({arr}, {at}, {', '.join(map(str, bounds))})"
        first = other_layer_end(src.env, lud.type, lud)
        return f"({arr}[{at}] if {first} <= {at} < TOTAL else 0)"
    if lud.level is not None:       # a stacking game's (`_read_at`)
        return f"stack_at({arr}, count, {at}, {src.int_expr(lud.level)})"
    return f"({arr}[{at}] if {at} >= 0 else 0)"


@emits(Score, kind="int")
def _score(src, lud):
    p = src.int_expr(lud.player)
    return f"(sc[SCORE + {p}] if 0 <= {p} <= NP else 0)"


@emits(Id, kind="int")
def _id(src, lud):
    if lud.name is None:
        return src.player_expr(lud.role or "Mover", lud)
    f = src.env.compile(lud)
    if lud.role in DYNAMIC_WORDS:
        table = lud.by_owner(src.env)
        p = src.player_expr(lud.role, lud)
        return f"({src.table(table)}[{p}] if 0 <= {p} < {len(table)} else -1)"
    return src.by_mover(f)      # a constant, or (a name each player has) by mover


def _arith_classes(words=("+", "-", "*", "mul")):
    """The classes of these words (`(+ ...)`, ...) made by `_arith` above."""
    from .base import REGISTRY
    return [c for w in words for c in REGISTRY[w] if c.__module__ == __name__]


@emits(*_arith_classes(("/", "%")), kind="int")
def _division(src, lud):
    """As the reference: 0 for a divisor 0; `/` toward zero, `%` as Python's (numba's too)."""
    a = src.int_expr(lud.a)
    if lud.b is None:
        return a
    b = src.int_expr(lud.b)
    value = f"int({a} / {b})" if type(lud).keyword == "/" else f"({a} % {b})"
    return f"({value} if {b} != 0 else 0)"


@emits(*_arith_classes(), kind="int")
def _arith_expr(src, lud):
    op = {"mul": "*"}.get(type(lud).keyword, type(lud).keyword)
    a = src.int_expr(lud.a)
    if lud.b is None:
        return f"(-{a})" if op == "-" else a
    return f"({a} {op} {src.int_expr(lud.b)})"


@emits(CountVertices, kind="int")
def _count_vertices(src, lud):
    """The number of the board graph's vertices: a constant."""
    return str(src.env.board.num_vertices)


@emits(CountSites, kind="int")
def _count_sites(src, lud):
    return src.count_in(lud, lud.in_, per_site="1", distinct=False)


@emits(CountPieces, kind="int")
def _count_pieces(src, lud):
    if src.game.stacking:
        refuse(lud, "type")
        return _count_stacked_pieces(src, lud)
    if lud.role != "All" and lud.in_ is None and lud.player is None and not lud.name \
            and not src.names_several(lud.role) and lud.type is None:
        return _count_pieces_of(src, lud)
    # As the reference: the pieces on the region's sites as listed (every site without
    # in:), of the player given (All: every owner, neutral and shared pieces too) and,
    # with a name, of the kinds whose name holds it.
    tests = []
    if lud.player is not None:
        player = src.int_expr(lud.player)
        if lud.in_ is not None and re.search(r"\bsite\b", player):
            # the loop over the region binds `site`: the player's (site) is another's
            raise Unsupported(lud, "with a player read at (site), in: a region")
        tests.append(f"who[site] == {player}")
    elif lud.role != "All":
        tests.append(src.owner_test(lud.role, lud, "who[site]"))
    if lud.name:
        named = [bool(i and lud.name in c.name) for i, c in enumerate(src.env.components)]
        tests.append(f"{src.table(named, 'bool_')}[what[site]]")
    per_site = f"(count[site] if {' and '.join(tests)} else 0)" if tests else "count[site]"
    if lud.type is not None:
        # the pieces on the board's sites of that type only (`CountPieces._typed_region`):
        # its layer's places (none where the game puts none), in: naming sites of the type
        env = src.env
        base_, size = (0, env.num_board_sites) if lud.type == env.board.site_type else \
            layer_of(env, lud.type) or (0, 0)
        if lud.in_ is None:
            return src.count_all(per_site, over=f"range({base_}, {base_ + size})")
        per_site = f"({per_site.replace('[site]', f'[{base_} + site]')} " \
                   f"if 0 <= site < {size} else 0)"
        return src.count_in(lud, lud.in_, per_site=per_site, distinct=True, context_free=False)
    if lud.in_ is None:
        return src.count_all(per_site)
    return src.count_in(lud, lud.in_, per_site=per_site, distinct=True,
                        context_free=lud.player is None and lud.role == "All")


def _count_stacked_pieces(src, lud) -> str:
    """`(count Pieces ...)` in a stacking game: as the reference's `stacked`, every level of
    every stack listed (every site without in:) holding a piece of the player (All: any)
    of a kind whose name holds the name given."""
    named = [bool(i and lud.name in c.name) for i, c in enumerate(src.env.components)] \
        if lud.name else []
    if lud.player is None and lud.role != "All" and src.names_several(lud.role):
        per_site = _stacked_pieces_of_set(src, lud, src.table(named, 'bool_'))
    else:
        if lud.player is not None:
            p = src.int_expr(lud.player)
        else:
            p = "-1" if lud.role == "All" else src.player_expr(lud.role, lud)
        per_site = f"stack_pieces(who, what, count, site, {p}, {src.table(named, 'bool_')})"
    if lud.in_ is None:
        return src.count_all(per_site)
    return src.count_in(lud, lud.in_, per_site=per_site, distinct=True,
                        context_free=lud.player is None and lud.role == "All")


def _stacked_pieces_of_set(src, lud, named: str) -> str:
    """The levels of the stack at `site` holding a piece of a player the role covers now (a
    set of players: a team, Enemy, ...), of a kind `named` marks (any if it is empty), as
    the reference counts them (none where the top is empty)."""
    test = src.owner_test(lud.role, lud, "who[i]")

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, site, mover):",
            "    if what[site] == 0:", "        return 0",
            "    n = 0",
            "    for i in range(TOTAL + site * DEPTH, TOTAL + site * DEPTH + count[TOTAL + site]):",
            f"        if {test} and ({named}.shape[0] == 0 or {named}[what[i]]):",
            "            n += 1",
            "    return n", ""])
    return f"{src.helper(make)}(who, what, count, site, mover)"


def _count_pieces_of(src, lud) -> str:
    """`(count Pieces <player>)`: the player's pieces in every container."""
    p = src.player_expr(lud.role, lud)

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(who, count, p):",
                          "    total = 0", "    for site in range(STORE):",
                          "        if who[site] == p:", "            total += count[site]",
                          "    return total", ""])
    return f"{src.helper(make)}(who, count, {p})"


@emits(CountGroups, kind="int", refuses=("type",))
def _count_groups(src, lud):
    """`(count Groups [dirs] [if:] [min:])`: a flood fill over the members."""
    from .literals import fixed_int
    least = fixed_int(lud, "min", 0)
    n = src.env.num_board_sites
    nb = src.env.step_targets(lud.dirn or "Adjacent", lud)
    t_nb, t_len = (src.table(a) for a in src.padded([list(nb[s_]) for s_ in range(n)]))
    cond = src.bool_expr(lud.if_) if lud.if_ is not None else "what[to] != 0"

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm):",
            src.context(local=("to", "btw")),
            f"    member = np.zeros({n}, np.bool_)",
            f"    for to in range({n}):",
            f"        member[to] = {cond}",
            f"    stack = np.empty({n}, np.int64)",
            "    groups = 0",
            f"    for s0 in range({n}):",
            "        if not member[s0]:",
            "            continue",
            "        member[s0] = False",
            "        stack[0] = s0",
            "        top = 1",
            "        size = 0",
            "        while top:",
            "            top -= 1",
            "            x = stack[top]",
            "            size += 1",
            f"            for j in range({t_len}[x]):",
            f"                y = {t_nb}[x, j]",
            "                if member[y]:",
            "                    member[y] = False",
            "                    stack[top] = y",
            "                    top += 1",
            f"        if size >= {least}:",
            "            groups += 1",
            "    return groups", ""])
    return f"{src.helper(make)}(who, what, count, sc, phase, frm)"


@emits(CountCell, kind="int")
def _count_cell(src, lud):
    """At a site, its count; in a region, each site's once (as the reference reads the
    region as a set): its count, or its stack's size in a stacking game."""
    if lud.in_ is not None:
        per_site = "count[TOTAL + site]" if src.game.stacking else "count[site]"
        return src.count_in(lud, lud.in_, per_site=per_site, distinct=False)
    at = src.int_expr(lud.at)
    return f"(count[{at}] if 0 <= {at} < TOTAL else 0)"


@emits(HandSite, kind="int")
def _hand_site(src, lud):
    n = src.game.num_players
    offsets = src.env.hand_offsets()
    tab = src.table([offsets.get(p, -1) for p in range(n + 2)])
    p = src.int_expr(lud.player)
    idx = src.int_expr(lud.index) if lud.index is not None else "0"
    return f"({tab}[{p}] + {idx} if 0 <= {p} < {n + 2} and {tab}[{p}] >= 0 else -1)"


@emits(Ahead, kind="int", refuses=("type",))
def _ahead(src, lud):
    """A table of the site `steps` away from each board site (a number of steps the rules
    fix), as the reference walks: along the first absolute direction's step table; or, for
    a direction relative to the piece at the site (Forward, Backward, ...) and the circular
    ones, along the first radial of its directions, one table per kind of piece there (-1
    where no piece stands). The site itself where the walk leaves the board."""
    from .literals import fixed_int
    steps = fixed_int(lud, "steps", 1)
    return _ahead_in(src, lud, lud.dirn or "Forward", src.int_expr(lud.site), steps)


def _ahead_in(src, lud, dirn, at: str, steps: int) -> str:
    """`_ahead` in the directions `dirn`: a word, (directions ...), or (if ...) of them (each
    branch's site, as the reference reads the branch's first direction), or the directions
    between two sites."""
    if hasattr(dirn, "branches") and hasattr(dirn, "cond"):        # (if <cond> <dirs> <dirs>)
        ok, not_ok = (_ahead_in(src, lud, d, at, steps) for d in dirn.branches)
        return f"({ok} if {src.bool_expr(dirn.cond)} else {not_ok})"
    if hasattr(dirn, "keys_fn"):            # (directions from: to:)
        return _ahead_between(src, dirn, at, steps)
    if hasattr(dirn, "direction_keys"):
        raise Unsupported(lud, "in a direction set by a function")
    env = src.env
    n = env.num_board_sites
    if dirn in ("SameDirection", "OppositeDirection"):
        return _ahead_along_move_expr(src, lud, at, steps, dirn == "OppositeDirection")
    if not env.is_static_direction(dirn) or dirn in ("CW", "CCW", "In", "Out", "Rotational"):
        keys = env.direction_keys(dirn, lud)
        radials = env.board.radials

        def ahead(probe, s):
            dirs = keys(probe, s)
            if not dirs:
                return -1
            rads = radials.get(dirs[0])
            line = rads[s][0].sites if rads is not None and rads[s] else ()
            return line[steps] if len(line) >= steps + 1 else s
        tab = src.table(src.per_kind(ahead))
        return (f"({tab}[{src.kind_at(at)}, {at}] if 0 <= {at} < {n} "
                f"else (-1 if {at} < 0 else {at}))")
    tables = env.step_tables(dirn, lud)
    if not tables:
        return at
    step = tables[0]
    walk = []
    for s in range(n):
        cur = s
        for _ in range(steps):
            cur = step[cur]
            if cur < 0:
                cur = s
                break
        walk.append(cur)
    return f"({src.table(walk)}[{at}] if 0 <= {at} < {n} else {at})"


def _ahead_between(src, dirn, at: str, steps: int) -> str:
    """`(ahead <site> steps:N (directions from:<a> to:<b>))`, as the reference walks: the
    first of the board's directions (of the All relation) with a radial from a through b,
    the site N steps along that direction's first radial from the site (the site itself
    where it is too short); -1 where there is none or the site is below 0, the site itself
    past the board's."""
    env = src.env
    if dirn.type is not None and dirn.type != env.board.site_type:
        raise Unsupported(dirn, f"on {dirn.type} sites of a board of {env.board.site_type} "
                                "sites")
    radials = env.board.radials
    tables = [radials[d] for d in env.board.relation_dirs("All") if d in radials]
    n = env.num_board_sites
    # the radials from each site (their sites, the start first), of each direction in turn
    rows = [[list(r.sites) for t in tables for r in t[s]] for s in range(n)]
    dir_of = [[i for i, t in enumerate(tables) for _ in t[s]] for s in range(n)]
    firsts = [[t[s][0].sites if t[s] else () for s in range(n)] for t in tables]
    walk = [[line[steps] if len(line) >= steps + 1 else s for s, line in enumerate(f)]
            for f in firsts] or [[-1] * n]
    t_lines, t_len = src.padded(rows)
    L3, LL = src.table(t_lines), src.table(t_len)
    LD, NL = src.table(src.padded(dir_of)[0]), src.table([len(r) for r in rows])
    W = src.table(walk)

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(at, a, b):",
            "    if at < 0:", "        return -1",
            f"    if at >= {n}:", "        return at",
            f"    if not (0 <= a < {n} and 0 <= b < {n}):", "        return -1",
            f"    for j in range({NL}[a]):",
            f"        for pos in range(1, {LL}[a, j]):",
            f"            if {L3}[a, j, pos] == b:",
            f"                return {W}[{LD}[a, j], at]",
            "    return -1", ""])
    return f"{src.helper(make)}({at}, {src.int_expr(dirn.from_)}, {src.int_expr(dirn.to)})"


def _ahead_along_move_expr(src, lud, at: str, steps: int, opposite: bool) -> str:
    """`_ahead_along_move` as two tables: the first of the board's directions in which a
    step leads from a site to another (-1 for none), and each site's site `steps` along
    the first radial of each direction (the site itself where it is too short)."""
    board = src.env.board
    n = src.env.num_board_sites
    if n > 2048:
        raise Unsupported(lud, "along the last move on a board of over 2,048 sites")
    dirs = list(board.directions)
    targets = board.trajectories.targets
    radials = board.radials
    first = np.full((n, n), -1, np.int64)
    for a in range(n):
        for i, d in enumerate(dirs):
            for b in targets(a, d):
                if 0 <= b < n and first[a, b] < 0:
                    first[a, b] = i
    along = np.empty((max(1, len(dirs)), n), np.int64)
    for i, d in enumerate(dirs):
        for s in range(n):
            rs = radials[d][s] if d in radials else ()
            along[i, s] = rs[0].sites[steps] if rs and len(rs[0].sites) >= steps + 1 else s
    F, A = src.table(first), src.table(along)
    a, b = ("to", "frm") if opposite else ("frm", "to")
    return (f"({A}[{F}[{a}, {b}], {at}] if 0 <= {at} < {n} and 0 <= {a} < {n} and 0 <= {b} < {n}"
            f" and {F}[{a}, {b}] >= 0 else ({at} if {at} >= 0 else -1))")


emits(From, RowOf, ColumnOf, kind="from_only")(reads_params_only_from)


@emits(PhaseOf, kind="int")
def _phase_of(src, lud):
    """A table of the phases of the sites of its type, -1 off them (as the reference)."""
    phases = [s.phase for s in src.env.board.topology(lud.type).sites]
    at = src.int_expr(lud.of)
    return f"({src.table(phases)}[{at}] if 0 <= {at} < {len(phases)} else -1)"


@emits(LayerOf, kind="int")
def _layer_of(src, lud):
    """As `LayerOf.compile`: a table of the board sites' layers, -1 off the board."""
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, "of a site type the board is not played on")
    layers = list(src.env.board.layers)
    at = src.int_expr(lud.of)
    return f"({src.table(layers)}[{at}] if 0 <= {at} < {len(layers)} else -1)"


@emits(CountAt, kind="int", refuses=("level",))
def _count_at(src, lud):
    """As the reference: 0 off the containers (and, of another site type, on the board)."""
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, f"of {lud.type}")
    at = src.int_expr(lud.at)
    return f"(count[{at}] if 0 <= {at} < TOTAL else 0)"


@emits(MapEntry, kind="int")
def _map_entry(src, lud):
    """A table over the keys the maps name (the key itself where none has it)."""
    key = src.int_expr(lud.key)
    tables = src.env.maps_named(lud.name)
    keys = [k for t in tables for k in t if isinstance(k, int)]
    if not keys:
        return key
    if any(not isinstance(k, int) for t in tables for k in t):
        raise Unsupported(lud, "with keys that are not numbers")
    lo, hi = min(keys), max(keys)
    values = []
    for k in range(lo, hi + 1):
        v = next((t[k] for t in tables if t.get(k) is not None), k)
        if not isinstance(v, int):
            raise Unsupported(lud, "with values that are not numbers")
        values.append(v)
    return f"({src.table(values)}[{key} - {lo}] if {lo} <= {key} <= {hi} else {key})"
