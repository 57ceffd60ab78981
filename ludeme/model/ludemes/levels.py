"""Levels of stacks: `(forEach Level ...)` (Ludii's operators/foreach/level).

In a stacking game each site holds a stack of levels (bottom = level 0); the
ludemes here iterate over them with `(level)` set, as Ludii's ForEachLevel does.
"""

from __future__ import annotations

from ludeme.engine.compiled.emit import Unsupported, emits
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


# Compiled forms (`ludeme.engine.compiled.emit`): a site's levels are the kernels' arrays
# past the top-level views (`ludeme.engine.compiled.rt`, "sites (StackSites)").

def _level_loop(src, lud, out, ind) -> tuple[str, str]:
    """The lines that open the loop over the levels of `lud`'s site (from the bottom, or
    from the top, its height read once): the local holding `(level)`, the body's indent."""
    if not src.game.stacking:
        raise Unsupported(lud, "in a game without stacks")
    var = src.level_loop_var()
    site = f"s{var}"
    out.append(f"{ind}{site} = {src.int_expr(lud.site)}")
    out.append(f"{ind}if 0 <= {site} < TOTAL:")
    levels = (f"range(count[TOTAL + {site}] - 1, -1, -1)" if lud.direction == "FromTop"
              else f"range(count[TOTAL + {site}])")
    out.append(f"{ind}    for {var} in {levels}:")
    return var, ind + "        "


@emits(ForEachLevel, kind="moves", refuses=("type",))
def _for_each_level_moves(src, lud, out, ind):
    """The moves made with `(level)` on each level of the site's stack, each taking the
    loop's (then ...) after its own."""
    var, body = _level_loop(src, lud, out, ind)
    with src.enclosing_then(lud), src.binding_level(var):
        src.moves(lud.moves, out, body)
    out.append(f"{body}pass")


@emits(ForEachLevel, kind="consequent", refuses=("type", ("then", "as a consequent")))
def _for_each_level_consequent(src, lud, lines, ind):
    """Every move made with `(level)` on each level, applied in that order; as the
    reference makes them all on the position before any is applied, the loop reads a copy
    of it where they write what it reads (`moves.on_position_before`)."""
    from .moves import on_position_before
    loop: list[str] = []
    var, body = _level_loop(src, lud, loop, "")
    with src.binding_level(var):
        src.consequent(lud.moves, loop, body)
    loop.append(f"{body}pass")
    loop = on_position_before(lud, lud.moves, loop, "whose moves read what an earlier "
                              "level's changed (the reference reads the position before any)", src)
    lines.extend(ind + x for x in loop)


emits(ForEachLevel, kind="effect", refuses=("type", ("then", "as an effect")))(
    lambda src, lud, body: _for_each_level_consequent(src, lud, body, ""))


@emits(LastLevelTo, kind="int", refuses=("afterConsequence",))
def _last_level_to(src, lud):
    return src.last_level_to()
