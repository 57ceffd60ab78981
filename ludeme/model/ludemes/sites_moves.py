"""`(sites From <moves>)` and `(sites To <moves>)`: where generated moves start or end
(Ludii's game.functions.region.sites.moves); `(sites LastTo)`: where the last move went."""

from __future__ import annotations

from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import Unsupported
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


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(SitesLastTo, kind="sites")
def _sites_last_to(src, lud):
    """The sites the kernels noted as the last move went to (`last_to_add`)."""
    return "sc[LTS:LTS + sc[LTN]]", None


@emits(SitesTo, kind="sites")
def _sites_to(src, lud):
    """A helper kernel, given the evaluation context, generates the moves into buffers of
    its own and lists their destinations once each, in the order of the moves (as
    `_ends`). The moves are the ludeme's alone: no test of an enclosing
    `(do ... ifAfterwards:)` or (then ...) is theirs, nor are they counted as a probe's."""
    return _listed_ends(src, lud, "mt")


@emits(SitesFrom, kind="sites")
def _sites_from(src, lud):
    """As `_sites_to`, the origins of the moves."""
    return _listed_ends(src, lud, "mf")


def _listed_ends(src, lud, buffer: str):
    """The ends of the moves kept in `buffer` (mf: origins, mt: destinations), once each."""
    saved = (src.any_mode, src.first_mode, src.reaching, src.push_tests, src.outer_thens,
             src.move_tag, src.move_tag_packed, src.effect_prefix, src.direction_to)
    src.any_mode = src.first_mode = src.reaching = src.move_tag_packed = False
    src.push_tests, src.outer_thens, src.move_tag, src.effect_prefix = [], [], None, None
    # the (to) a (forEach Direction ...) inside turns from: the caller's, given
    src.direction_to = "dto" if saved[-1] is not None else None
    body: list[str] = []
    try:
        src.moves(lud.moves, body, "    ")
    finally:
        (src.any_mode, src.first_mode, src.reaching, src.push_tests, src.outer_thens,
         src.move_tag, src.move_tag_packed, src.effect_prefix, src.direction_to) = saved
    history = []
    if "hist_mover" in src.with_helpers(body):
        # A (max Moves) ranks them: the positions it searches note their decisions in the
        # history, which the all-pass draw and (all Passed) read, and which the kernel is not
        # handed. In a game without passes, they read no more than the decision just made
        # (a pass or not): a blank history of the same length serves.
        from ludeme.engine.compiled.codegen import mentions
        from .moves import MovePass
        if mentions(src.game.typed, (MovePass,)):
            raise Unsupported(lud, "with moves a (max Moves) ranks, in a game with passes "
                                   "(the decisions' history decides)")
        history = ["    hist_mover = np.zeros(HISTORY, np.int64)",
                   "    hist_pass = np.zeros(HISTORY, np.bool_)"]
    bound = ", player" if src.player_bound else ""
    dto = ", dto" if saved[-1] is not None else ""

    def make(name):
        return "\n".join([
            "@njit(cache=True)",
            f"def {name}(who, what, count, sc, phase, frm, to, btw{dto}{bound}):",
            src.context(local=()), *history,
            *(f"    {b} = np.empty(MAX_BUFFER, np.int64)" for b in ("mf", "mt", "mg", "mx")),
            "    k = 0", *body,
            "    ends = np.empty(k, np.int64)", "    n = 0",
            "    for i in range(k):",
            f"        e = {buffer}[i]",
            "        new = True",
            "        for j in range(n):",
            "            if ends[j] == e:",
            "                new = False",
            "                break",
            "        if new:",
            "            ends[n] = e",
            "            n += 1",
            "    return ends[:n]", ""])
    return (f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}"
            f"{', ' + saved[-1] if saved[-1] is not None else ''}{bound})"), None
