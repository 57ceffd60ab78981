"""The group of one site (Ludii's functions/region/sites/group and ints/size/connection):
`(sites Group at:<site> ...)` and `(size Group at:<site> ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import DirWord, IntFn, P, Region, SiteType, ludeme

_GROUP_PARAMS = (P("type", SiteType, opt=True), P("at", IntFn, named=True),
                 P("dirn", (DirWord, "Directions"), opt=True),
                 P("if", "Bool", opt=True, named=True))


def group_of(lud, env):
    """A closure c -> list of the sites of the group at `at:`, in the order found.

    As Ludii's SitesGroup / SizeGroup: without `if:`, the site itself (empty or not)
    and every site reached by steps in the directions (Adjacent by default) holding
    the same component as it; with `if:`, the site when the condition holds there,
    then every site reached where it holds, evaluated with `(from)` the site and
    `(to)` the site tested."""
    at = env.compile(lud.at)
    steps = env.step_targets(lud.dirn or "Adjacent", lud)
    cond = env.compile(lud.if_) if lud.if_ is not None else None
    n = env.num_board_sites

    def group(c):
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


@ludeme("sites", "Group")
class SitesGroup(Region):
    """`(sites Group at:<site> [dirs] [if:<cond>])`: the sites of the group at a site, in
    increasing order (Ludii's regions are sets). Example (the group just played into):

        (sites Group at:(last To) Orthogonal)
    """
    concepts = ("Group",)

    distinct = True   # never lists a site twice
    params = _GROUP_PARAMS

    def compile(self, env):
        group = group_of(self, env)
        return lambda c: sorted(group(c))


@ludeme("size", "Group")
class SizeGroup(IntFn):
    """`(size Group at:<site> [dirs] [if:<cond>])`: how many sites the group at a site has.
    Example: `(< (size Group at:(last To)) 6)`."""
    concepts = ("Group",)

    params = _GROUP_PARAMS

    def compile(self, env):
        group = group_of(self, env)
        return lambda c: len(group(c))


__all__ = ["SitesGroup", "SizeGroup", "group_of"]
