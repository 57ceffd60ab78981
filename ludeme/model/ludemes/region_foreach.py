"""A region computed at each site of another (Ludii's region/foreach/sites):
`(forEach of:<region> <region>)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import P, Region, ludeme
from ludeme.engine.compiled.emit import emits


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


@emits(ForEachSiteInRegion, kind="for_region")
def _for_each_loop(src, lud, out, ind, body):
    """The second region listed at each site of the first (`(site)` on it: a helper kernel
    handed the site), its sites marked; then the marked sites in increasing order."""
    d = len(ind)
    mark = f"fem_{d}"
    out.append(f"{ind}{mark} = np.zeros(TOTAL, np.bool_)")
    src.for_region(lud.of, out, ind, [
        f"for fes_{d} in {src.listed_by_loop(lud.region)}:",
        f"    if 0 <= fes_{d} < TOTAL:",
        f"        {mark}[fes_{d}] = True"])
    out.append(f"{ind}for site in range(TOTAL):")
    out.append(f"{ind}    if {mark}[site]:")
    out.extend(f"{ind}        {x}" for x in body)


__all__ = ["ForEachSiteInRegion"]
