"""Counts of Ludii's ints/count package not elsewhere: `(count Liberties ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits
from .base import Bool, DirWord, IntFn, P, SiteType, ludeme
from .groups import group_kernel
from .war import _check_board_type


@ludeme("count", "Liberties")
class CountLiberties(IntFn):
    """`(count Liberties [at:<site>] [<directions>] [if:<cond>])`: the empty sites next to
    the group at the site (the last destination by default), as Ludii's CountLiberties:
    the group joins sites holding the same piece kind in the directions (Adjacent by
    default), or, with if:, the sites where the condition holds with (to) on them.
    Example: `(> (count Liberties Orthogonal) 0)`."""

    params = (P("type", SiteType, opt=True), P("at", IntFn, opt=True, named=True),
              P("dirn", (DirWord, "Directions"), opt=True),
              P("if", Bool, opt=True, named=True))

    def compile(self, env):
        _check_board_type(self, env)
        dirn = self.dirn or "Adjacent"
        if not env.is_static_direction(dirn):
            raise self.fail("(count Liberties ...) in directions relative to a piece is not "
                            "supported yet")
        near = env.step_targets(dirn, self)
        at = env.compile(self.at) if self.at is not None else (lambda c: c.s.last_to)
        cond = env.compile(self.if_) if self.if_ is not None else None
        nsites = len(near)

        def liberties(c):
            frm = at(c)
            if not 0 <= frm < nsites:
                return 0
            whats = c.s.what
            saved = (c.from_, c.to)
            c.to = frm
            group = [frm] if cond is None or cond(c) else []
            what = whats[frm]
            members = set(group)
            if group:
                c.from_ = frm
                i = 0
                while i < len(group):
                    for nxt in near[group[i]]:
                        if nxt in members:
                            continue
                        c.to = nxt
                        if (cond is None and whats[nxt] == what) or (cond is not None and cond(c)):
                            members.add(nxt)
                            group.append(nxt)
                    i += 1
            c.from_, c.to = saved
            free = {lib for site in group for lib in near[site]
                    if lib not in members and whats[lib] == 0}
            return len(free)
        return liberties


@emits(CountLiberties, kind="int", refuses=("type",))
def _count_liberties(src, lud):
    return group_kernel(src, lud, "liberties")
