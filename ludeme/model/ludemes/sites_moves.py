"""`(sites From <moves>)` and `(sites To <moves>)`: where generated moves start or end
(Ludii's game.functions.region.sites.moves); `(sites LastTo)`: where the last move went."""

from __future__ import annotations

from ludeme.engine.state import LAST_TOS

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


@ludeme("sites", "LastTo")
class SitesLastTo(Region):
    """`(sites LastTo)`: the sites the last move went to: its decision's destination, then
    every board site one of its actions or its consequents' actions went to (Ludii's
    SitesLastTo; Ludii also evaluates the move's consequents again in the present position,
    which adds their destinations, already among these when the consequents were applied).
    Example: `(is Line 5 throughAny:(sites LastTo))`."""
    concepts = ()

    params = ()

    def compile(self, env):
        return last_tos(env)


def last_tos(env):
    """c -> Ludii's SitesLastTo of the last move (kept by the state once a rule reads it)."""
    env.reads_last_tos = True
    return lambda c: c.s.notes.get(LAST_TOS, ())
