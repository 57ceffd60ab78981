"""Conditions on where a piece stands (Ludii's booleans/is/component): `(is Within ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import Bool, IntFn, P, Region, SiteType, ludeme
from ludeme.engine.compiled.emit import Unsupported, emits
from .war import _check_board_type


@ludeme("is", "Within")
class IsWithin(Bool):
    """`(is Within <piece id> [at:<site> | in:<region>])`: a piece of that kind, owned by
    its component's owner, stands on the site or in the region (the last destination by
    default), at any level, as Ludii's IsWithin. Example:
    `(is Within (id "King" P2) in:(sites Outer))`."""

    params = (P("piece", IntFn), P("type", SiteType, opt=True),
              P("at", IntFn, opt=True, named=True), P("in", Region, opt=True, named=True))

    def compile(self, env):
        _check_board_type(self, env)
        if self.at is not None and self.in_ is not None:
            raise self.fail("(is Within ...) takes at: or in:, not both")
        piece = env.compile(self.piece)
        if self.in_ is not None:
            region = env.compile(self.in_)
        elif self.at is not None:
            at = env.compile(self.at)
            region = lambda c: (at(c),)  # noqa: E731
        else:
            region = lambda c: (c.s.last_to,)  # noqa: E731
        components = env.components
        n = env.total_sites

        def within(c):
            pid = piece(c)
            if not 0 < pid < len(components):
                return False
            owner, kinds = (components[pid].owner,), (pid,)
            holds = c.s.holds
            return any(0 <= site < n and holds(site, owner, kinds) for site in region(c))
        return within


@emits(IsWithin, kind="bool", refuses=("type",))
def _is_within(src, lud):
    """As `IsWithin.compile`: a piece of that kind stands on one of the sites (the region's
    as listed, the site at:, else the last destination). A kind's owner is its component's,
    so outside stacks the kind alone decides."""
    if src.game.stacking:
        raise Unsupported(lud, "in a stacking game (a piece at any level)")
    pid = src.int_expr(lud.piece)
    n = len(src.game.components)
    if lud.in_ is None:
        site = src.int_expr(lud.at) if lud.at is not None else "last_to"
        # the kind and the site are read twice: plain expressions of the position
        return f"(0 < {pid} < {n} and 0 <= {site} < TOTAL and what[{site}] == {pid})"
    seq, flt = src.region_sites(lud.in_)
    ok = f" and {flt('site')}" if flt else ""
    return src.context_kernel([f"    pw = {pid}", f"    if not 0 < pw < {n}:",
                               "        return False", f"    for site in {seq}:",
                               f"        if 0 <= site < TOTAL{ok} and what[site] == pw:",
                               "            return True", "    return False"])
