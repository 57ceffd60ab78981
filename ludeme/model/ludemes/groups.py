"""The group of one site (Ludii's functions/region/sites/group and ints/size/connection):
`(sites Group at:<site> ...)` and `(size Group at:<site> ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import Unsupported
from .base import Bool, DirWord, IntFn, P, Region, RoleType, SiteType, ludeme
from .intarray import IntArrayFn

_GROUP_PARAMS = (P("type", SiteType, opt=True), P("at", IntFn, named=True),
                 P("dirn", (DirWord, "Directions"), opt=True),
                 P("if", "Bool", opt=True, named=True))


def flood(start: int, steps, joins) -> list[int]:
    """The sites reached from `start` by steps (per site, the sites one step away) through
    sites where `joins(site)` holds, `start` first, in the order found."""
    group = [start]
    seen = {start}
    i = 0
    while i < len(group):
        for to in steps[group[i]]:
            if to not in seen and joins(to):
                seen.add(to)
                group.append(to)
        i += 1
    return group


def group_of(lud, env):
    """A closure (c, [site]) -> list of the sites of the group at `at:` (or at the site
    given), in the order found.

    As Ludii's SitesGroup / SizeGroup: without `if:`, the site itself (empty or not)
    and every site reached by steps in the directions (Adjacent by default) holding
    the same component as it; with `if:`, the site when the condition holds there,
    then every site reached where it holds, evaluated with `(from)` the site and
    `(to)` the site tested."""
    at = env.compile(lud.at) if lud.at is not None else (lambda c: c.s.last_to)
    steps = env.step_targets(lud.dirn or "Adjacent", lud)
    cond = env.compile(lud.if_) if lud.if_ is not None else None
    n = env.num_board_sites

    def group(c, frm=None):
        if frm is None:
            frm = at(c)
        if not 0 <= frm < n:
            return []
        saved = (c.from_, c.to)
        what = c.s.what
        c.to = frm
        if cond is not None and not cond(c):
            c.to = saved[1]
            return []
        kind = what[frm]
        c.from_ = frm
        sites = [frm]
        seen = {frm}
        i = 0
        while i < len(sites):
            for to in steps[sites[i]]:
                if to in seen:
                    continue
                if cond is None:
                    if what[to] != kind:
                        continue
                else:
                    c.to = to
                    if not cond(c):
                        continue
                seen.add(to)
                sites.append(to)
            i += 1
        c.from_, c.to = saved
        return sites
    return group


def board_groups(lud, env):
    """A closure (c, visit) -> bool calling `visit(c)` with each group of the board as the
    region `(sites)` until a call returns False (then False; True when every group passed),
    for `lud`'s `type`, `dirn` and group condition (`if:`, or `of:` for (all Groups)).

    As Ludii's ForEachGroup and AllGroups: the groups are looked for from the sites the
    players own, with a condition every player's (Neutral's too) and without one the
    mover's. Without a condition a group is the mover's pieces joined by steps in the
    directions (Adjacent by default); with one, the sites where it holds, tested with
    `(from)` the group's first site and `(to)` the site."""
    if lud.type not in (None, env.board.site_type):
        raise lud.fail(f"({lud.keyword} {lud.kind} {lud.type} ...) on a board played on "
                       f"{env.board.site_type}s is not supported yet")
    member = lud.of if lud.kind == "Groups" else lud.if_
    cond = env.compile(member) if member is not None else None
    steps = env.step_targets(lud.dirn or "Adjacent", lud)
    n = env.num_board_sites
    owners = range(0, env.num_players + 1)

    def joins(c, site, mover):
        if cond is None:
            return c.s.who[site] == mover
        c.to = site
        return cond(c)

    def each(c, visit):
        saved = (c.from_, c.to, c.region)
        mover = c.s.mover
        who, what = c.s.who, c.s.what
        if cond is None:
            starts = [s for s in range(n) if who[s] == mover and what[s]]
        else:
            starts = [s for p in owners for s in range(n) if what[s] and who[s] == p]
        checked: set[int] = set()
        passed = True
        for frm in starts:
            if frm in checked:
                continue
            c.from_ = frm
            if not joins(c, frm, mover):
                continue
            group = flood(frm, steps, lambda site: joins(c, site, mover))
            c.region = sorted(group)      # a Ludii Region: a set, read in increasing order
            if not visit(c):
                passed = False
                break
            checked.update(group)
        c.from_, c.to, c.region = saved
        return passed
    return each


@ludeme("all", "Groups")
class AllGroups(Bool):
    """`(all Groups [<type>] [<dirs>] [of:<cond>] if:<cond>)`: the condition holds for every
    group of the board, read with the group's sites as `(sites)` (Ludii's AllGroups; what
    a group is: `board_groups`). Example (Symple: no group touches two grey stones):

        (all Groups Orthogonal of:(is Mover (who at:(to)))
            if:(> 2 (count Sites in:(intersection (sites Around (sites) Orthogonal)
                                                  (sites Occupied by:Neutral)))))
    """
    concepts = ("Group",)

    params = (P("type", SiteType, opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("of", Bool, opt=True, named=True), P("if", Bool, named=True))

    def compile(self, env):
        each = board_groups(self, env)
        cond = env.compile(self.if_)
        return lambda c: each(c, cond)


@ludeme("sites", "Group")
class SitesGroup(Region):
    """`(sites Group at:<site> | from:<region> [dirs] [if:<cond>])`: the sites of the group at
    a site (or of the groups at the sites of a region), in increasing order (Ludii's
    regions are sets). Example (the group just played into):

        (sites Group at:(last To) Orthogonal)
    """
    concepts = ("Group",)

    distinct = True   # never lists a site twice
    params = (P("type", SiteType, opt=True), P("at", IntFn, opt=True, named=True),
              P("from", Region, opt=True, named=True),
              P("dirn", (DirWord, "Directions"), opt=True),
              P("if", "Bool", opt=True, named=True))

    def compile(self, env):
        if (self.at is None) == (self.from_ is None):
            raise self.fail("(sites Group ...) takes at:<site> or from:<region>")
        if self.at is not None:
            group = group_of(self, env)
            return lambda c: sorted(group(c))
        starts = env.compile(self.from_)
        group = group_of(self, env)

        def groups(c):
            # from: the groups of every site of the region together
            out = set()
            for site in sorted(set(starts(c))):
                out.update(group(c, site))
            return sorted(out)
        return groups


@ludeme("size", "Group")
class SizeGroup(IntFn):
    """`(size Group at:<site> [dirs] [if:<cond>])`: how many sites the group at a site has.
    Example: `(< (size Group at:(last To)) 6)`."""
    concepts = ("Group",)

    params = _GROUP_PARAMS

    def compile(self, env):
        group = group_of(self, env)
        return lambda c: len(group(c))


@ludeme("sizes", "Group")
class SizesGroup(IntArrayFn):
    """`(sizes Group [dirs] [<role> | of:<player>] [min:N])`: the size of each group of a
    player's pieces (Ludii's intArray.sizes SizesGroup), groups smaller than `min` left
    out. With no player, `All` or `Shared`: the groups of all pieces, whoever owns them.
    The groups are found from the player's sites in increasing order. Example (Omega):

        (score P1 (* (sizes Group P1)))
    """
    concepts = ("Group",)

    params = (P("type", SiteType, opt=True),
              P("dirn", (DirWord, "Directions"), opt=True), P("role", RoleType, opt=True),
              P("of", IntFn, opt=True, named=True), P("if", "Bool", opt=True, named=True),
              P("min", IntFn, opt=True, named=True))

    def compile(self, env):
        self.refuse("if_", why="Ludii tests the condition at the first site of a group "
                    "with a stale (to)")
        if self.role is not None and self.of is not None:
            raise self.fail("(sizes Group ...) takes a role or of:, not both")
        all_pieces = (self.role is None and self.of is None) or self.role in ("All", "Shared")
        if self.of is not None:
            who_fn = env.compile(self.of)
        elif all_pieces:
            who_fn = lambda c: -1   # noqa: E731 - no single owner: any piece joins
        else:
            who_fn = env.role_id(self.role, self)
        min_fn = env.compile(self.min) if self.min is not None else (lambda c: 0)
        steps = env.step_targets(self.dirn or "Adjacent", self)
        n = env.num_board_sites
        players = range(1, env.num_players + 1)

        def sizes(c):
            who_at, what = c.s.who, c.s.what
            who = who_fn(c)
            least = min_fn(c)
            owners = players if all_pieces else (who,)
            starts = [s for p in owners for s in range(n) if what[s] and who_at[s] == p]

            def joins(site):
                return who_at[site] == who or (all_pieces and what[site] != 0)
            out = []
            checked = set()
            for frm in starts:
                if frm in checked or not joins(frm):
                    continue
                group = flood(frm, steps, joins)
                if len(group) >= least:
                    out.append(len(group))
                checked.update(group)
            return out
        return sizes


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

# What a group kernel returns once its members are marked (`member`, `queue[:size]`):
# its size, or the empty sites next to it (Ludii's CountLiberties).
_GROUP_RESULTS = {
    "size": ["    return size"],
    "liberties": [
        "    free = 0",
        "    for i in range(size):",
        "        s = queue[i]",
        "        for j in range({t_len}[s]):",
        "            y = {t_nb}[s, j]",
        "            if not member[y] and what[y] == 0:",
        "                member[y] = True",
        "                free += 1",
        "    return free"],
}


def step_tables(src, lud, default: str = "Adjacent") -> tuple[int, str, str]:
    """(the board's sites, the table of each site's steps in `lud`'s directions (`default`
    without), the table of their numbers)."""
    dirn = lud.dirn or default
    if not src.env.is_static_direction(dirn):
        raise Unsupported(lud, "in directions relative to a piece")
    n = src.env.num_board_sites
    nb = src.env.step_targets(dirn, lud)
    t_nb, t_len = (src.table(a) for a in src.padded([list(nb[s_]) for s_ in range(n)]))
    return n, t_nb, t_len


def flood_lines(n: int, t_nb: str, t_len: str, joins: str, on_join: tuple = ()) -> list[str]:
    """A kernel's lines that mark the group grown from `at` (`member`, `queue[:size]`) along
    the step table (`t_nb`, `t_len`) over the sites `to` where `joins` holds (`to` is left
    on the last site tested); `on_join`: lines run as each site joins (at indent 20)."""
    return [f"    member = np.zeros({n}, np.bool_)",
            f"    queue = np.empty({n}, np.int64)",
            "    member[at] = True",
            "    queue[0] = at",
            "    size = 1",
            "    i = 0",
            "    while i < size:",
            "        s = queue[i]",
            f"        for j in range({t_len}[s]):",
            f"            y = {t_nb}[s, j]",
            "            if not member[y]:",
            "                to = y",
            f"                if {joins}:",
            "                    member[to] = True",
            "                    queue[size] = to",
            "                    size += 1",
            *("                    " + x for x in on_join),
            "        i += 1"]


def group_kernel(src, lud, result: str, at: str | None = None) -> str:
    """A call of a kernel that finds the group at `lud`'s `at:` (the last destination by
    default; the site expression `at` given instead) as `group_of` does, and returns its
    `result` (see `_GROUP_RESULTS`; "mask": whether each board site is a member)."""
    n, t_nb, t_len = step_tables(src, lud)
    if at is None:
        at = src.int_expr(lud.at) if lud.at is not None else "last_to"
    joins = src.bool_expr(lud.if_) if lud.if_ is not None else "what[to] == kind"
    first = src.bool_expr(lud.if_) if lud.if_ is not None else "True"
    if result == "mask":
        tail, none = ["    return member"], f"np.zeros({n}, np.bool_)"
    else:
        tail, none = [x.format(t_nb=t_nb, t_len=t_len) for x in _GROUP_RESULTS[result]], "0"

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, at):",
            src.context(local=("btw",)),
            f"    if not 0 <= at < {n}:",
            f"        return {none}",
            "    to = at",
            f"    if not ({first}):",       # (from) is still the caller's here
            f"        return {none}",
            "    frm = at",
            "    kind = what[at]",
            *flood_lines(n, t_nb, t_len, joins), *tail, ""])
    return f"{src.helper(make)}(who, what, count, sc, phase, frm, {at})"


def _group_mask(src, lud) -> str:
    """An array over the board's sites: whether each is in `(sites Group ...)`, the group at
    a site or the groups at the sites of a region together (each found on its own)."""
    if lud.at is not None:
        return group_kernel(src, lud, "mask")
    n = src.env.num_board_sites
    one = group_kernel(src, lud, "mask", at="site")
    return src._loop_kernel(lud.from_, [f"    total = np.zeros({n}, np.bool_)"],
                            [f"if 0 <= site < {n}:", f"    total |= {one}"], "total")


def _refuse_group_args(lud) -> None:
    if (lud.at is None) == (lud.from_ is None):
        raise lud.fail("(sites Group ...) takes at:<site> or from:<region>")


@emits(SitesGroup, kind="sites", refuses=("type",))
def _sites_group(src, lud):
    """The group's sites in increasing order, as the reference sorts them."""
    _refuse_group_args(lud)
    return f"np.nonzero({_group_mask(src, lud)})[0]", None


@emits(SitesGroup, kind="contains", refuses=("type",))
def _sites_group_contains(src, lud, site):
    _refuse_group_args(lud)
    n = src.env.num_board_sites
    return f"(0 <= {site} < {n} and {_group_mask(src, lud)}[{site}])"


@emits(SizeGroup, kind="int", refuses=("type",))
def _size_group(src, lud):
    return group_kernel(src, lud, "size")


__all__ = ["AllGroups", "SitesGroup", "SizeGroup", "SizesGroup", "board_groups", "flood",
           "flood_lines", "step_tables",
           "group_of", "group_kernel"]


@emits(SizesGroup, kind="array", refuses=("type",))
def _sizes_group(src, lud):
    """As the reference: the groups grown from the owners' sites in increasing order (every
    player's, in turn, for all pieces), each site once; their sizes, those under min: left
    out."""
    if lud.role is not None and lud.of is not None:
        raise Unsupported(lud, "with a role and of:")
    all_pieces = (lud.role is None and lud.of is None) or lud.role in ("All", "Shared")
    if lud.of is not None:
        wp = src.int_expr(lud.of)
    elif all_pieces:
        wp = "-1"
    else:
        wp = src.role_expr(lud.role, lud)
    least = src.int_expr(lud.min) if lud.min is not None else "0"
    n, t_nb, t_len = step_tables(src, lud)
    joins = "(who[to] == wp or (ALL_P and what[to] != 0))"
    owners = "range(1, NP + 1)" if all_pieces else "(wp,)"

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, wp, least):",
            f"    ALL_P = {all_pieces}",
            f"    checked = np.zeros({n}, np.bool_)",
            f"    out = np.empty({n}, np.int64)",
            "    k = 0",
            f"    for p in {owners}:",
            f"        for at in range({n}):",
            "            if not what[at] or who[at] != p or checked[at]:",
            "                continue",
            "            to = at",
            f"            if not {joins}:",
            "                continue",
            *("        " + x for x in flood_lines(n, t_nb, t_len, joins)),
            "            if size >= least:",
            "                out[k] = size",
            "                k += 1",
            "            for i in range(size):",
            "                checked[queue[i]] = True",
            "    return out[:k]", ""])
    return f"{src.helper(make)}(who, what, {wp}, {least})"
