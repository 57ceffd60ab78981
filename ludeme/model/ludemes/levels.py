"""Levels of stacks: `(forEach Level ...)` (Ludii's operators/foreach/level).

In a stacking game each site holds a stack of levels (bottom = level 0); the
ludemes here iterate over them with `(level)` set, as Ludii's ForEachLevel does.
"""

from __future__ import annotations

from .base import IntFn, LitBool, Moves, P, SiteType, ludeme
from .stacks import StackDirection


@ludeme("forEach", "Level")
class ForEachLevel(Moves):
    """`(forEach Level <site> [FromBottom|FromTop] <moves> [(then ...)])`: the moves generated
    with `(level)` set to each level of the stack at the site, from the bottom (default) or
    from the top. Example, sending every piece of a stack away, top first:

        (forEach Level (to) FromTop (fromTo (from (to) level:(level)) (to (handSite Next))))
    """
    concepts = ("ControlFlowStatement",)

    params = (P("type", SiteType, opt=True), P("site", IntFn),
              P("direction", StackDirection, opt=True), P("moves", Moves),
              P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        env.stacking = True
        site = env.compile(self.site)
        gen = env.compile(self.moves)
        then = _then(env, self)
        from_top = self.direction == "FromTop"

        def for_each_level(c):
            where = site(c)
            saved = (c.to, c.site)
            out = []
            if where >= 0:
                n = c.s.size_stack(where)
                for level in (range(n - 1, -1, -1) if from_top else range(n)):
                    # As Ludii, (level) keeps the last level once the iteration is over.
                    c.level = level
                    out.extend(gen(c))
            c.to, c.site = saved
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        return for_each_level


@ludeme("last", "LevelTo")
class LastLevelTo(IntFn):
    """`(last LevelTo)`: the level the last decision reports for its destination (Ludii's
    Move.levelTo: 0 unless the decision names a level, as a stack move does)."""
    concepts = ()

    params = (P("afterConsequence", LitBool, opt=True, named=True, default=False),)

    def compile(self, env):
        if self.afterConsequence:
            raise self.fail("(last LevelTo afterConsequence:True) is not supported yet")
        return lambda c: c.s.last_level_to


__all__ = ["ForEachLevel", "LastLevelTo"]
