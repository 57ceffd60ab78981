"""`(forEach Player <moves>)` and `(forEach Group <moves>)` in play (Ludii's
game.rules.play.moves.nonDecision.operators.foreach: ForEachPlayer, ForEachGroup); the
end-rule form of forEach Player is in `game`."""

from __future__ import annotations

from .base import DirWord, IntFn, Moves, Other, P, Region, SiteType, ludeme
from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import Unsupported


@ludeme("forEach", "Player")
class ForEachPlayerMoves(Moves):
    """`(forEach Player <moves> [(then ...)])`: the moves generated with each player in turn
    (1 to n) as `(player)`."""
    concepts = ("ControlFlowStatement",)

    params = (P("moves", Moves), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        gen = env.compile(self.moves)
        then = _then(env, self)
        n = env.num_players

        players = range(1, n + 1)
        return lambda c: gather(c, "player", players, gen, then)


@ludeme("forEach", "Group")
class ForEachGroup(Moves):
    """`(forEach Group [<dirs>] [if:<cond>] <moves> [(then ...)])`: the moves generated for
    each group, with the group's sites as the region `(sites)` (Ludii's ForEachGroup).
    Without `if:`, a group is the mover's pieces joined by steps in the directions (Adjacent
    by default); with it, the sites where the condition holds, tested with `(from)` the
    group's first site and `(to)` the site. Example (Elea, an odd group loses a point):

        (forEach Group Orthogonal if:(is Mover (who at:(to)))
            (if (is Odd (count Sites in:(sites))) (addScore Mover -1)))
    """
    concepts = ("Group", "ControlFlowStatement")

    params = (P("type", SiteType, opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("if", "Bool", opt=True, named=True), P("moves", Moves),
              P("then", "Then", opt=True))

    def compile(self, env):
        from .groups import board_groups
        from .moves import _then
        each = board_groups(self, env)
        gen = env.compile(self.moves)
        then = _then(env, self)

        def for_each_group(c):
            out = []
            each(c, lambda c: out.extend(gen(c)) or True)
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        return for_each_group


def gather(c, var: str, values, gen, then) -> list:
    """The moves `gen` generates with the context variable `var` on each value in turn (put
    back afterwards), each followed by the consequents `then`."""
    saved = getattr(c, var)
    out = []
    for v in values:
        setattr(c, var, v)
        out.extend(gen(c))
    setattr(c, var, saved)
    if then:
        for m in out:
            m.then = tuple(m.then) + then
    return out


@ludeme("forEach", "Value")
class StartForEachValue(Other):
    """`(forEach Value min:<int> max:<int> <start rule>)` (or over `<values>`) as a start
    rule: the start rule applied with each value in turn as `(value)`, lowest first (Ludii's
    start ForEach Value). Example (Galatjang): `(forEach Value min:1 max:12 (set
    RememberValue (value)))`."""
    concepts = ("ControlFlowStatement",)

    params = (P("values", (Region, "IntArrayFn"), opt=True),
              P("min", IntFn, opt=True, named=True),
              P("max", IntFn, opt=True, named=True), P("rule", Other))

    def start_actions(self, env, ctx) -> list:
        if (self.values is None) == (self.min is None or self.max is None):
            raise self.fail("(forEach Value ...) takes values or min: and max:")
        if not hasattr(self.rule, "start_actions"):
            raise self.rule.fail(f"({self.rule.keyword} ...) in a (forEach Value ...) start "
                                 "rule is not supported yet")
        if self.values is not None:
            values = list(env.compile(self.values)(ctx))
        else:
            values = range(env.compile(self.min)(ctx), env.compile(self.max)(ctx) + 1)
        out: list = []
        for v in values:
            out.extend(self.rule.start_actions(env, _WithValue(ctx, v)))
        if not values:
            # no value: nothing is applied, but the rule is compiled all the same (its
            # arguments are checked as in any game)
            self.rule.start_actions(env, _WithValue(ctx, 0))
        return out


class _WithValue:
    """A start rule's context with `(value)` set (the rest read from the context given)."""

    def __init__(self, ctx, value: int):
        self._ctx, self.value = ctx, value

    def __getattr__(self, name):
        return getattr(self._ctx, name)


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(ForEachPlayerMoves, kind="consequent", refuses=(("then", "as a consequent"),))
def _for_each_player_consequent(src, lud, lines, ind):
    """Every move made with each player in turn (1 to n) as `(player)`, applied in that
    order. The reference makes them all on the position before any is applied: where one
    writes what the loop reads, the loop reads a copy of it (`moves.on_position_before`)."""
    from .moves import on_position_before
    if src.player_bound:
        raise Unsupported(lud, "inside another loop over the players")
    body: list[str] = []
    src.player_bound = True
    try:
        src.consequent(lud.moves, body, "    ")
    finally:
        src.player_bound = False
    loop = on_position_before(lud, lud.moves, ["for player in range(1, NP + 1):", *body,
                                               "    pass"],
                              "whose moves read what an earlier player's changed (the "
                              "reference reads the position before any)", src)
    lines.extend(ind + x for x in loop)


# The lines of a (forEach Group ...) that keep the group it visits in `sc` (`Source.group_block`).
_GROUP_SET = ["sc[GRPN] = len(gb_)", "sc[GRP:GRP + len(gb_)] = gb_",
              "sc[GRPM:GRPM + N_GRP] = 0", "sc[GRPM + gb_] = 1"]


@emits(ForEachGroup, kind="consequent")
def _for_each_group_consequent(src, lud, lines, ind):
    """`ForEachGroup.compile` (what a group is: `groups.board_groups`): the groups of the
    position listed first, each one's sites in increasing order, with the site it was found
    from and the last site its condition was tested at (the reference's (from) and (to) as it
    visits it); then each group's moves made with it as `(sites)`, applied in that order. The
    reference makes them all on the position before any is applied: where one writes what
    the loop reads, the loop reads a copy of it (`moves.on_position_before`). Its (then ...)
    follows each move made (`moves._counted_part`: one at most for a group), read with
    (from) and (to) undefined and no group as (sites)."""
    from .groups import flood_lines, step_tables
    from .moves import SNAPSHOT, each_move_then, made_before_applied, then_after_move
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, "on other site types")
    if src.group_bound:
        raise Unsupported(lud, "inside another (forEach Group ...)")
    n, t_nb, t_len = step_tables(src, lud)
    cond = src.bool_expr(lud.if_) if lud.if_ is not None else None
    joins = cond if cond is not None else "who[to] == mover"
    owners = "range(0, NP + 1)" if cond is not None else "(mover,)"

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to):",
            src.context(local=("btw",)),
            "    to0 = to",
            f"    gs = np.empty({n * n}, np.int64)",
            f"    go = np.zeros({n + 1}, np.int64)",
            f"    gf = np.empty({n}, np.int64)",
            f"    gt = np.empty({n}, np.int64)",
            f"    checked = np.zeros({n}, np.bool_)",
            "    ng = 0",
            "    k = 0",
            f"    for p in {owners}:",
            f"        for at in range({n}):",
            "            if what[at] == 0 or who[at] != p or checked[at]:",
            "                continue",
            "            frm = at",
            *(["            to = at", f"            if not ({joins}):", "                continue"]
              if cond is not None else []),
            *("        " + x for x in flood_lines(n, t_nb, t_len, joins)),
            "            gs[k:k + size] = np.sort(queue[:size])",
            "            k += size",
            "            go[ng + 1] = k",
            "            gf[ng] = at",
            f"            gt[ng] = {'to' if cond is not None else 'to0'}",
            "            ng += 1",
            "            for i in range(size):",
            "                checked[queue[i]] = True",
            "    return gs, go[:ng + 1], gf[:ng], gt[:ng]", ""])
    src.group_block()
    after = then_after_move(src, lud) if lud.then is not None else None
    thens: dict[str, list[str]] = {}
    src.group_bound = True
    try:
        body = each_move_then(src, lud, lud.moves, after, thens)
    finally:
        src.group_bound = False
    loop = [f"gs_, go_, gf_, gt_ = {src.helper(make)}(who, what, count, sc, phase, frm, to)",
            "sgf_, sgt_ = frm, to",
            "for gi_ in range(len(gf_)):",
            "    gb_ = gs_[go_[gi_]:go_[gi_ + 1]]",
            *("    " + x for x in _GROUP_SET),
            "    frm = gf_[gi_]",
            "    to = gt_[gi_]",
            *body,
            "    pass",
            "frm, to = sgf_, sgt_",
            "sc[GRPN:GRPM + N_GRP] = 0"]
    loop = made_before_applied(lud, lud.moves, loop, thens,
                               "whose moves read what an earlier group's changed (the "
                               "reference reads the position before any)", src=src)
    if loop[0] == SNAPSHOT:         # the moves read the copy: the group is kept there too
        out = []
        for line in loop:
            out.append(line)
            if line.strip() in _GROUP_SET or line.strip() == "sc[GRPN:GRPM + N_GRP] = 0":
                out.append(line.replace("sc[", "sc_0[", 1))
        loop = out
    lines.extend(ind + x for x in loop)
