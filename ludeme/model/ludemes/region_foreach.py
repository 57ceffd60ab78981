"""A region computed at each site of another (Ludii's region/foreach/sites):
`(forEach of:<region> <region>)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import P, Region, ludeme


@ludeme("forEach")
class ForEachSiteInRegion(Region):
    """`(forEach of:<region> <region>)`: the second region evaluated with `(site)` at each
    site of the first, together, in increasing order (Ludii's ForEachSiteInRegion).
    Example: `(forEach of:(sites Occupied by:Mover) (sites Around (site) Orthogonal))`."""

    precedence = 1     # tried after the region filter `(forEach <region> if:...)`
    concepts = ("ControlFlowStatement",)

    distinct = True   # never lists a site twice
    params = (P("of", Region, named=True), P("region", Region))

    def compile(self, env):
        of, region = env.compile(self.of), env.compile(self.region)

        def for_each(c):
            saved = c.site
            out = set()
            for site in sorted(set(of(c))):
                c.site = site
                out.update(region(c))
            c.site = saved
            return sorted(out)
        return for_each


__all__ = ["ForEachSiteInRegion"]
