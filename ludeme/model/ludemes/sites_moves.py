"""`(sites From <moves>)` and `(sites To <moves>)`: where generated moves start or end
(Ludii's game.functions.region.sites.moves)."""

from __future__ import annotations

from .base import Moves, P, Region, ludeme


def _ends(attr: str):
    def compile(self, env):
        gen = env.compile(self.moves)
        return lambda c: tuple(dict.fromkeys(getattr(m, attr) for m in gen(c)))
    return compile


@ludeme("sites", "From")
class SitesFrom(Region):
    """`(sites From <moves>)`: the sites the moves start from."""
    concepts = ()

    params = (P("moves", Moves),)
    compile = _ends("frm")


@ludeme("sites", "To")
class SitesTo(Region):
    """`(sites To <moves>)`: the sites the moves go to."""
    concepts = ()

    params = (P("moves", Moves),)
    compile = _ends("to")
