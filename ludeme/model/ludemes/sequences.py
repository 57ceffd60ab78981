"""Moves built from moves and what a turn remembers: `do ... next:` (a prior move, often
extra.py's `(set Var ...)`, seen by the next), `(count MovesThisTurn)`, `(count Steps
...)`, distances walked by a step move, the `(step ...)`, `(add ...)` and `(slide ...)`
effects, `if` as a number or a region.

Each follows the Ludii class of the same keyword; its docstring has a `.lud` example.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits, refuse

from .base import IntFn, P, Region, RelationType, SiteType, ludeme
from .moves import MoveStep, _step_moves, build_unread_sites
from .sliding import MoveSlide, _slide_consequent, _slide_moves, _slide_one_move

UNDEFINED = -1


def _true(c):
    return True


# -- steps walked ------------------------------------------------------------------

@ludeme("step")
class StepEffect(MoveStep):
    """`(step [(from ...)] [directions] (to if:... [(apply ...)]) [stack:] [(then ...)])`:
    a step as an effect; `(sites Distance ...)` and `(count Steps ...)` also use it to say
    which steps a walk may take. Example: `(step Forwards (to if:(is Empty (to))))`."""
    concepts = ("StepEffect", "IsEmpty if not to.if", "ReplacementCapture if to.apply has RemoveEffect", "AdjacentDirection if not dirn")


# The Step effect gives `(move Step ...)`'s moves (where a rule asks whether a step is
# possible, `(can Move (step ...))`): one compiled form for both.
emits(StepEffect, kind="moves")(_step_moves)


@emits(StepEffect, kind="consequent",
       refuses=("stack", ("then", "with (then ...) as a consequent")))
def _step_consequent(src, lud, lines, ind):
    """A step that makes at most one move (one site a step away from each start, whatever
    the piece there), applied where it is found: the reference generates a consequent's
    moves on the position and then applies each, which for one move is the same. A step
    that could make several is refused. As `_slide_consequent`, nothing moves out of an
    empty site, and the action still counts."""
    from ludeme.engine.compiled.codegen import NO_EFFECT_ACTION
    from ludeme.engine.compiled.emit import LV_TOP, Unsupported
    from .moves import _apply_lines, _from_condition, _moving, _step_targets, from_site
    dirn = lud.dirn or "Adjacent"
    if hasattr(dirn, "branches"):
        raise Unsupported(lud, "with (if ...) as its directions, as a consequent")
    if lud.from_ is not None and lud.from_.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, "on another site type than the board's")
    to = lud.to
    refuse(to, "level", "site", "type")
    per_kind = _step_targets(src, lud, dirn)
    if any(len(ts) > 1 for per in per_kind for ts in per):
        raise Unsupported(lud, "as a consequent that may make several moves")
    targets = src.table([[ts[0] if ts else -1 for ts in per] for per in per_kind])
    start, f_ok = from_site(src, lud), _from_condition(src, lud)
    effect: list[str] = []
    if to.apply is not None:
        _apply_lines(src, to.apply, effect)
    line = _moving(src, lud, LV_TOP)[0]
    cond = src.bool_expr(to.if_) if to.if_ is not None else "True"
    i2, i3 = ind + "    ", ind + "        "
    lines += [f"{ind}scf_, sct_ = frm, to", f"{ind}frm = {start}",
              f"{ind}if 0 <= frm < {src.env.num_board_sites}{f_ok}:",
              f"{i2}to = {targets}[{src.kind_at('frm')}, frm]",
              f"{i2}if to >= 0 and {cond}:",
              *(i3 + x for x in effect),
              f"{i3}if what[frm] != 0:", f"{i3}    {line}",
              f"{i3}else:", f"{i3}    {NO_EFFECT_ACTION}",
              f"{ind}frm, to = scf_, sct_"]


def step_walker(env, step, lud):
    """What a walk by `step` may do: (keys, ring, board sites), where keys(c, origin) gives
    the directions and ring(c, sites, dirs, seen) the sites one allowed step further.

    As Ludii's SitesDistance/CountSteps: directions are resolved once for the piece at
    the origin (its facing); a step from `a` to `b` is allowed when the step's `to if:`
    holds with `(from)` = a and `(to)` = b."""
    if step.from_ is not None or step.stack or step.then is not None:
        raise step.fail("a walk takes only the directions and (to if:...) of this step")
    step.to.refuse("level", "apply", why="a walk reads only the step's (to if:...)")
    build_unread_sites(env, step.to)
    keys = env.direction_keys(step.dirn or "Adjacent", lud)
    rule = env.compile(step.to.if_) if step.to.if_ is not None else _true
    targets = env.board.trajectories.targets
    nsites = env.num_board_sites

    def ring(c, sites, dirs, seen):
        """The sites one allowed step from `sites`, not in `seen`, in Ludii's order."""
        out = []
        for a in sites:
            c.from_ = a
            for k in dirs:
                for b in targets(a, k):
                    c.to = b
                    if b not in seen and b not in out and rule(c):
                        out.append(b)
        return out
    return keys, ring, nsites


# -- remembered values -----------------------------------------------------------------

@ludeme("count", "MovesThisTurn")
class CountMovesThisTurn(IntFn):
    """`(count MovesThisTurn)`: decisions the mover already made this turn (0 on the first
    move of a turn; each `(moveAgain)` adds one). Example:
    `(if (= 0 (count MovesThisTurn)) (set Var 3))`."""
    concepts = ()

    params = ()

    def compile(self, env):
        return lambda c: c.s.num_turn_same


emits(CountMovesThisTurn, kind="int")(lambda src, lud: "sc[NUM_TURN_SAME]")


# -- distances walked ------------------------------------------------------------------

@ludeme("count", "Steps")
class CountSteps(IntFn):
    """`(count Steps [relation] [(step ...)] <site> <site>)`: the steps from the first
    site to the second, by the relation (Adjacent) or by the step move's allowed steps
    (its `to if:` read at each step). 0 from a site to itself. Example:

        (count Steps (step (to if:(is Empty (to)))) (last From) (last To))
    """
    concepts = ("Distance",)

    params = (P("type", SiteType, opt=True), P("relation", RelationType, opt=True),
              P("step", StepEffect, opt=True), P("site1", IntFn), P("site2", (IntFn, Region)))

    def compile(self, env):
        site1, site2 = env.compile(self.site1), env.compile(self.site2)
        if isinstance(self.site2, Region):
            return self._to_region(env, site1, site2)
        if self.step is None:
            table = env.step_targets(self.relation or "Adjacent", self)
            known: dict[tuple[int, int], int] = {}     # the board's steps do not change

            def distance(c):
                a, b = site1(c), site2(c)
                if a < 0 or b < 0:
                    return 0
                d = known.get((a, b))
                if d is None:
                    d = known[(a, b)] = _rings_to(table, a, {b})
                return d
            return distance
        self._step_over_relation()
        keys, ring, nsites = step_walker(env, self.step, self)

        def count_steps(c):
            a, b = site1(c), site2(c)
            if a < 0 or b < 0:
                return 0
            if a == b:
                return 0
            if a >= nsites:
                return 0
            return _walk_to(c, ring, keys(c, a), a, {b})[0]
        return count_steps

    def _step_over_relation(self) -> None:
        """With a (step ...), Ludii's CountSteps walks by the step alone: a relation given
        beside it is never read (kept as Ludii does)."""
        _ = self.relation

    def _to_region(self, env, site1, region):
        """To the nearest site of a region, as Ludii's CountSteps: 0 with no site (or the
        first site off the board); with a (step ...), Infinity when no walk reaches it."""
        if self.step is None:
            table = env.step_targets(self.relation or "Adjacent", self)

            def distance(c):
                a, targets = site1(c), {x for x in region(c) if x >= 0}
                if a < 0 or not targets:
                    return 0
                return _rings_to(table, a, targets)
            return distance
        self._step_over_relation()
        keys, ring, nsites = step_walker(env, self.step, self)
        infinity = 1_000_000_000

        def count_steps(c):
            a = site1(c)
            given = {x for x in region(c) if x >= 0}
            if a < 0 or not given:
                return 0            # Ludii: no site to reach, 0 before any walk
            targets = {x for x in given if x < nsites}
            if a >= nsites or not targets:
                return infinity
            if a in targets:
                return 0
            n, reached = _walk_to(c, ring, keys(c, a), a, targets)
            return n if reached else infinity
        return count_steps


def _rings_to(table, a, targets) -> int:
    """Breadth-first rings of `table` steps out from `a` until one holds a target (or none
    is left): how many rings that took."""
    seen, ring, d = {a}, [a], 0
    while ring and targets.isdisjoint(ring):
        nxt = []
        for s in ring:
            for t in table[s]:
                if t not in seen:       # each site once: a ring is a set of sites
                    seen.add(t)
                    nxt.append(t)
        ring = nxt
        d += 1
    return d


def _walk_to(c, ring, dirs, a, targets) -> tuple[int, bool]:
    """Rings of allowed steps out from `a` (see step_walker) until one holds a target:
    (how many rings, whether a target was reached)."""
    saved = (c.from_, c.to)
    current = ring(c, (a,), dirs, {a})
    seen = {a, *current}
    n = 1
    while current and targets.isdisjoint(current):
        nxt = ring(c, current, dirs, seen)
        seen.update(nxt)
        current = nxt
        n += 1
    c.from_, c.to = saved
    return n, bool(current)


def walk_region(env, lud, step, origin, lo_fn, hi_fn):
    """`(sites Distance (step ...) from:<site> (range a b))` as Ludii walks it: rings of
    allowed steps out from the site, up to the range's maximum; the sites of the rings
    from the minimum on, once each (a site is reached by its shortest walk). As in
    Ludii's code, a ring k >= 2 is kept once k - 1 reaches the minimum: the first ring
    counts for a minimum of 0 or 1, and `(range 2 2)` gives no site."""
    keys, ring, nsites = step_walker(env, step, lud)

    def walk(c):
        start = origin(c)
        if not 0 <= start < nsites:
            return []
        lo, hi = lo_fn(c), hi_fn(c)
        if lo < 0:
            return []
        saved = (c.from_, c.to)
        dirs = keys(c, start)
        current = ring(c, (start,), dirs, {start})
        seen = {start, *current}
        out = list(current) if lo <= 1 else []
        n = 1
        while current and n < hi:
            nxt = ring(c, current, dirs, seen)
            seen.update(nxt)
            current = nxt
            if n >= lo:
                out.extend(s for s in nxt if s not in out)
            n += 1
        c.from_, c.to = saved
        return out
    return walk


# -- moves made of moves -----------------------------------------------------------------

@ludeme("slide")
class SlideEffect(MoveSlide):
    """`(slide [(from ...)] [directions] [(between ...)] [(to ...)] [(then ...)])`: a slide
    as an effect (Ludii's Slide), e.g. a piece dropped exactly two sites down after it
    is placed: `(then (slide (from (last To)) S (between (exact 2))))`."""
    concepts = ("SlideEffect", "LineOfSight", "Contains if not to.if", "AdjacentDirection if not dirn")


# The compiled forms of (move Slide): its moves (read by (can Move ...)), and as a
# consequent (castling's rook).
emits(SlideEffect, kind="moves", refuses=("track", "stack"))(_slide_moves)
emits(SlideEffect, kind="consequent",
      refuses=("track", "stack", ("then", "with (then ...) as a consequent")))(_slide_consequent)
emits(SlideEffect, kind="one_move",
      refuses=("track", "stack", ("then", "with (then ...) as one move")))(_slide_one_move)




# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

def walk_kernel(src, lud, step, args: str, start: str, guard: str, go_on: str,
                 after_ring: list[str], result: str, prelude: tuple = ()) -> str:
    """A helper kernel walking rings of allowed steps out from `start` as `step_walker`
    does (directions read once for the piece on the start site, the step's `to if:` read
    with `(from)` on each site of a ring and `(to)` on the next): `guard` returns early,
    `go_on` says whether to walk another ring after the first (n rings walked, `ncur`
    sites in the last one, `cur`), `after_ring` runs after each; `prelude`: lines run
    first, once `start` is set. Gives its call's name."""
    import numpy as np
    from ludeme.engine.compiled.emit import Unsupported
    from ludeme.engine.compiled.codegen import mentions
    from .ints import Site
    if step.from_ is not None or step.stack or step.then is not None:
        raise Unsupported(lud, "with a step other than directions and (to if:...)")
    refuse(step.to, "level", "apply", "site", "type")
    if mentions(step.to.if_, (Site,)):
        raise Unsupported(lud, "with a step reading (site)")
    env = src.env
    dirn = step.dirn or "Adjacent"
    keys = env.direction_keys(dirn, lud)
    if hasattr(dirn, "direction_keys") or isinstance(dirn, str) and dirn in (
            "SameDirection", "OppositeDirection"):
        raise Unsupported(lud, "with directions that read the state")
    static = env.is_static_direction(dirn)
    n = env.num_board_sites
    targets = env.board.trajectories.targets
    names: dict[str, int] = {}
    per_kind = src.per_kind(lambda probe, s: [names.setdefault(k, len(names))
                                              for k in keys(probe, s)], not static)
    key_of = {i: k for k, i in names.items()}
    dk, dkn = src.padded([row for per in per_kind for row in per])
    tg, tgn = src.padded([targets(a, key_of[i]) for a in range(n) for i in range(len(names))])
    rule = src.bool_expr(step.to.if_) if step.to.if_ is not None else "True"
    row = "start" if static else f"{src.kind_at('start')} * {n} + start"
    k = max(len(names), 1)
    ring = ["        nn = 0", "        for i in range(ncur):", "            frm = cur[i]",
            f"            for d in range({src.table(dkn)}[{row}]):",
            f"                kd = frm * {k} + {src.table(dk)}[{row}, d]",
            f"                for j in range({src.table(tgn)}[kd]):",
            f"                    to = {src.table(tg)}[kd, j]",
            f"                    if not seen[to] and not mark[to] and {rule}:",
            "                        mark[to] = True", "                        nxt[nn] = to",
            "                        nn += 1",
            "        for i in range(nn):", "            mark[nxt[i]] = False",
            "            seen[nxt[i]] = True",
            "        cur, nxt = nxt, cur", "        ncur = nn", "        n += 1"]
    bound = ", player" if src.player_bound else ""

    def make(name):
        return "\n".join([
            "@njit(cache=True)",
            f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}, {args}):",
            src.context(local=()), f"    start = {start}", *("    " + x for x in prelude),
            "    n = 0",
            "    out = np.empty(TOTAL, np.int64)", "    no = 0", f"    if {guard}:",
            f"        return {result}",
            "    seen = np.zeros(TOTAL, np.bool_)", "    mark = np.zeros(TOTAL, np.bool_)",
            "    seen[start] = True", "    cur = np.empty(TOTAL, np.int64)",
            "    nxt = np.empty(TOTAL, np.int64)", "    cur[0] = start", "    ncur = 1",
            "    while True:", f"        if n > 0 and not ({go_on}):",
            "            break", *ring, *("        " + x for x in after_ring),
            f"    return {result}", ""])
    return f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}{bound}, "


@emits(CountSteps, kind="int")
def _count_steps(src, lud):
    """Between two sites, by the relation: a table (`_count_steps_by_relation`). With a
    (step ...) between two sites: the rings walked until one holds the second
    site (as `compile`), by a helper kernel. A type: given is the board's own (another is
    refused: the reference walks the board's sites whatever it names)."""
    from ludeme.engine.compiled.emit import Unsupported
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, f"of the type {lud.type} on a board of "
                               f"{src.env.board.site_type}s")
    if isinstance(lud.site2, Region):
        return _count_steps_to_region(src, lud)
    if lud.step is None:
        return _count_steps_by_relation(src, lud)
    n = src.env.num_board_sites
    call = walk_kernel(
        src, lud, lud.step, "a, b", "a", f"a < 0 or b < 0 or a == b or a >= {n}",
        "ncur > 0 and (b >= TOTAL or not seen[b])", [], "n")
    return f"{call}{src.int_expr(lud.site1)}, {src.int_expr(lud.site2)})"


def _count_steps_to_region(src, lud) -> str:
    """To the nearest site of a region, as `CountSteps._to_region`: the region listed where
    it is read, then the rings walked out from the first site (by the relation's steps, or
    the (step ...)'s) until one holds a site of it. 0 with no site of the region or the first
    site negative; with a (step ...), Infinity when the walk never reaches one (or either
    is off the board)."""
    from .literals import SITE_CONSTANTS
    n = src.env.num_board_sites
    inf = SITE_CONSTANTS["Infinity"]
    targets = ["tg = np.zeros(TOTAL, np.bool_)", "gany = False", "tany = False",
               "for i in range(tl.shape[0]):", "    if tl[i] >= 0:", "        gany = True",
               "        if tl[i] < TOTAL:", "            tg[tl[i]] = True",
               f"        if tl[i] < {n}:", "            tany = True"]
    a, listed = src.int_expr(lud.site1), src.listed_by_loop(lud.site2)
    if lud.step is not None:
        call = walk_kernel(
            src, lud, lud.step, "a, tl", "a", f"a < 0 or not gany or a >= {n} or not tany "
            "or tg[a]", "ncur > 0 and not hit",
            ["hit = False", "for i in range(ncur):", "    if tg[cur[i]]:", "        hit = True"],
            f"(0 if a < 0 or not gany else {inf} if a >= {n} or not tany else 0 if tg[a] "
            f"else n if ncur > 0 else {inf})", prelude=(*targets, "hit = False"))
        return f"{call}{a}, {listed})"
    table = src.env.step_targets(lud.relation or "Adjacent", lud)
    t_nb, t_len = (src.table(x) for x in src.padded([list(table[s_]) for s_ in range(n)]))
    body = [*("    " + x for x in targets),
            "    if a < 0 or not gany:", "        return 0",
            "    seen = np.zeros(TOTAL, np.bool_)", "    ring = np.empty(TOTAL, np.int64)",
            "    nxt = np.empty(TOTAL, np.int64)", "    ring[0] = a", "    nr = 1",
            "    if 0 <= a < TOTAL:", "        seen[a] = True", "    d = 0",
            "    while nr > 0:",
            "        for i in range(nr):",
            "            if 0 <= ring[i] < TOTAL and tg[ring[i]]:", "                return d",
            "        nn = 0",
            "        for i in range(nr):",
            f"            if 0 <= ring[i] < {n}:",
            f"                for j in range({t_len}[ring[i]]):",
            f"                    t = {t_nb}[ring[i], j]",
            "                    if not seen[t]:",
            "                        seen[t] = True", "                        nxt[nn] = t",
            "                        nn += 1",
            "        ring, nxt = nxt, ring", "        nr = nn", "        d += 1",
            "    return d"]
    bound = ", player" if src.player_bound else ""

    def make(name):
        return "\n".join(["@njit(cache=True)",
                          f"def {name}(who, what, count, sc, phase, a, tl{bound}):",
                          src.context(local=()), *body, ""])
    return f"{src.helper(make)}(who, what, count, sc, phase, {a}, {listed}{bound})"


def _count_steps_by_relation(src, lud):
    """Between two sites by the relation's steps, which read nothing of the state: a table
    of `_rings_to` per pair of board sites, from one breadth-first walk per first site (a
    second site never reached: the rings walked until none was left, as `_rings_to`; off the
    board, the same). 0 where either site is negative, or the first is off the board."""
    table = src.env.step_targets(lud.relation or "Adjacent", lud)
    n = len(table)
    dist = []
    for a in range(n):
        ring_of = {a: 0}
        ring, d = [a], 0
        while ring:
            nxt = []
            for s in ring:
                for t in table[s]:
                    if t not in ring_of:
                        ring_of[t] = d + 1
                        nxt.append(t)
            ring = nxt
            d += 1
        # `d` is now the rings walked until none was left
        dist.append([ring_of.get(b, d) for b in range(n)] + [d])
    t = src.table(dist)
    a, b = src.int_expr(lud.site1), src.int_expr(lud.site2)
    return (f"({t}[{a}, min({b}, {n})] if 0 <= {a} < {n} and {b} >= 0 else 0)")
