"""Whether two sites are related on the board (Ludii's booleans/is/related): `(is Related ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import Unsupported, emits
from .base import Bool, IntFn, P, Region, RelationType, SiteType, ludeme



@ludeme("is", "Related")
class IsRelated(Bool):
    """`(is Related <relation> <site> <site> | <region>)`: some site of the region (or the
    second site) is a neighbour of the first in the relation, as Ludii's IsRelated on a
    board of cells or vertices. Example (Mu Torere):

        (is Related Adjacent (from) (sites Occupied by:Next))
    """

    params = (P("relation", RelationType), P("type", SiteType, opt=True), P("site", IntFn),
              P("other", (IntFn, Region)))

    def compile(self, env):
        if env.board.site_type == "Edge":
            raise self.fail("(is Related ...) on a board of edges is not supported yet")
        try:
            table = env.board.neighbours[self.relation]
        except KeyError:
            raise self.fail(f"{self.relation} neighbours are not available on this board") \
                from None
        near = tuple(frozenset(t) for t in table)
        site = env.compile(self.site)
        other = env.compile(self.other)
        single = isinstance(self.other, IntFn)
        n = env.num_board_sites

        def related(c):
            a = site(c)
            if not 0 <= a < n:
                return False
            around = near[a]
            return any(b in around for b in ((other(c),) if single else other(c)))
        return related


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(IsRelated, kind="bool", refuses=("type",))
def _is_related(src, lud):
    """Of two sites: a helper kernel looks for the second among the first's neighbours in
    the relation (a table per board site), false when the first is not a board site."""
    board = src.env.board
    if board.site_type == "Edge" or lud.relation not in board.neighbours:
        raise Unsupported(lud, f"of {lud.relation} on this board")
    n = src.env.num_board_sites
    if not isinstance(lud.other, IntFn):
        return _related_to_region(src, lud, n)
    t_near, t_len = (src.table(a) for a in src.padded(
        [list(dict.fromkeys(t)) for t in board.neighbours[lud.relation]]))

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(a, b):",
                          f"    if not 0 <= a < {n}:", "        return False",
                          f"    for j in range({t_len}[a]):",
                          f"        if {t_near}[a, j] == b:", "            return True",
                          "    return False", ""])
    return f"{src.helper(make)}({src.int_expr(lud.site)}, {src.int_expr(lud.other)})"



def _related_to_region(src, lud, n) -> str:
    """Of a site and a region: a kernel walks the region's sites as listed, true at the first
    that is a neighbour of the site in the relation (a mask per board site)."""
    import numpy as np
    near = np.zeros((n, n), dtype=bool)
    for a, targets in enumerate(src.env.board.neighbours[lud.relation][:n]):
        near[a, [t for t in targets if 0 <= t < n]] = True
    t_near = src.table(near, "bool_")
    seq, flt = src.region_sites(lud.other)
    ok = f" and {flt('b_')}" if flt else ""
    return src.context_kernel([
        f"    a_ = {src.int_expr(lud.site)}", f"    if not 0 <= a_ < {n}:", "        return False",
        f"    for b_ in {seq}:", f"        if 0 <= b_ < {n}{ok} and {t_near}[a_, b_]:",
        "            return True", "    return False"])


__all__ = ["IsRelated"]
