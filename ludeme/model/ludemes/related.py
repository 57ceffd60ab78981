"""Whether two sites are related on the board (Ludii's booleans/is/related): `(is Related ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

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


__all__ = ["IsRelated"]
