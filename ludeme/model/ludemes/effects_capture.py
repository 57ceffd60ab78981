"""Capture effects around a piece (Ludii's Surround, Intervene, Enclose) and triggers
(Ludii's Trigger and IsTriggered).

As the line captures of `war`, each effect is evaluated when its move is generated or
when a consequent runs: it returns the moves of its inner effect (by default a removal),
one per captured site, so a consequent applies all of them.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_ADD, A_REMOVE, A_SET_VAR, Move
from .base import Bool, DirWord, IntFn, LitStr, Moves, P, RelationType, RoleType, SiteType, ludeme
from .moves import MaxL, _then
from .booleans import IsEmpty, ray_pair_tables
from ludeme.engine.compiled.emit import effect_as_consequent, emits, refuse
from ludeme.engine.compiled.unsupported import Unsupported
from .war import _check_board_type, _is_player_fn, _radials_fn, _remove_at, _target_friend, add_then, capture_lines, start_site, static_dirn


def _radial_table(env, relation: str):
    """Per board site, the radials (tuples of sites, the start first) of one relation."""
    radials = env.board.radials.get(relation, ())
    return tuple(tuple(r.sites for r in per_site) for per_site in radials) or \
        tuple(() for _ in range(env.num_board_sites))


def _between_parts(lud, env, default_target, default_effect):
    """(target condition, effect) of a `(between if:<cond> (apply <effect>))` that reads only
    those two, with Ludii's defaults when they are left out."""
    b = lud.between
    if b is None:
        return default_target, default_effect
    b.refuse("before", "after", "trail", "range",
             why=f"Ludii's {type(lud).__name__} reads only a condition and an effect")
    if b.apply is not None and b.apply.if_ is not None:
        raise b.apply.fail(f"(apply if:...) in ({lud.keyword} ...) is not supported yet")
    target = env.compile(b.if_) if b.if_ is not None else default_target
    effect = env.compile(b.apply.effect) if b.apply is not None and \
        b.apply.effect is not None else default_effect
    return target, effect


@ludeme("surround")
class Surround(Moves):
    """`(surround [(from <site>)] [<relation>] [(between if:<cond> (apply <effect>))]
    [(to if:<cond>)] [except:<int>] [with:(piece ...)] [(then ...)])`: as Ludii's
    Surround, each neighbour of the site (in the relation, Adjacent by default) that is a
    target (between if:, by default an enemy) is captured when each of its own
    neighbours is the site itself or a friend (to if:) but at most `except` of them
    (default 0); a side off the board needs nothing; with `with:`, one of its neighbours
    must hold that piece. The effect (by default a removal) applies with (between) on the
    captured site. Example:

        (surround (from (last To)) Orthogonal
            (between if:("IsPieceAt" "King" Next (between)) (apply (remove (between))))
            (to if:("IsFriendAt" (to))))
    """
    concepts = ("SurroundCapture if between.apply has RemoveEffect",
                "SurroundCapture if not between.apply")


    params = (P("from_", "FromSpec", opt=True), P("relation", RelationType, opt=True),
              P("between", "BetweenSpec", opt=True), P("to", "ToSpec", opt=True),
              P("except", IntFn, opt=True, named=True),
              P("with", "PieceRef", opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        self.refuse("then", why="Ludii keeps it on the list of moves, not on each capture")
        start = start_site(env, self)
        table = _radial_table(env, self.relation or "Adjacent")
        target, effect = _between_parts(
            self, env, lambda c: _is_player_fn(c, c.between, False), _remove_at("between"))
        if self.to is not None:
            self.to.refuse("site", "level", "apply", why="Ludii's Surround reads only the "
                           "to condition")
        friend = env.compile(self.to.if_) if self.to is not None and self.to.if_ is not None \
            else (lambda c: _is_player_fn(c, c.to, True))
        n_except = getattr(self, "except")
        allowed = env.compile(n_except) if n_except is not None else (lambda c: 0)
        # with: the piece one of the target's neighbours must hold, friend or not, the start
        # included (Ludii's Surround looks at each neighbour it checks)
        with_fn = env.compile(self.with_) if self.with_ is not None else None
        nsites = len(table)

        def surround(c):
            frm = start(c)
            if not 0 <= frm < nsites:
                return []
            saved = (c.from_, c.to, c.between)
            n_except = allowed(c)
            with_piece = with_fn(c) if with_fn is not None else None
            out = []
            for radial in table[frm]:
                threatened = radial[1]
                c.between = threatened
                if not target(c):
                    continue
                missing = 0
                for around in table[threatened]:
                    side = around[1]
                    if side != frm:
                        c.to = side
                        if not friend(c):
                            missing += 1
                            if missing > n_except:
                                break
                if missing > n_except:
                    continue
                if with_piece is not None and all(c.s.what[around[1]] != with_piece
                                                  for around in table[threatened]):
                    continue
                c.between = threatened
                out.extend(effect(c))
            c.from_, c.to, c.between = saved
            return out
        return surround


@emits(Surround, kind="consequent", refuses=("with_",))
def _surround_consequent(src, lud, lines, ind):
    """`Surround.compile`'s test of each neighbour of the start (see `war.capture_lines`);
    its (then ...), which the reference refuses, is refused by its ludeme."""
    b = lud.between
    if b is not None:
        refuse(b, "before", "after", "trail", "range")
    target, friend = _target_friend(src, lud)
    table = _radial_table(src.env, lud.relation or "Adjacent")
    t_nb, t_len = src.padded([[r[1] for r in per if len(r) > 1] for per in table])
    NB, NN = src.table(t_nb), src.table(t_len)
    allowed = getattr(lud, "except")
    scan = [
        f"    nex = {src.int_expr(allowed) if allowed is not None else '0'}",
        f"    for j in range({NN}[cf]):",
        f"        btw = {NB}[cf, j]",
        f"        if not {target}:",
        "            continue",
        "        missing = 0",
        f"        for k in range({NN}[btw]):",
        f"            to = {NB}[btw, k]",
        f"            if to != cf and not {friend}:",
        "                missing += 1",
        "                if missing > nex:",
        "                    break",
        "        if missing > nex:",
        "            continue",
        "        cbuf[cn] = btw",
        "        cn += 1"]
    lines.extend(ind + x for x in capture_lines(src, lud, scan))


@ludeme("intervene")
class Intervene(Moves):
    """`(intervene [(from <site>)] [<direction>] [(between (range a b)|(max N)|(exact N))]
    [(to if:<cond> (apply <effect>))] [(then ...)])`: as Ludii's Intervene, the site
    taken between targets: along each line through the site (in the direction, Adjacent
    by default) a run of targets (to if:, by default enemies) of a length in the range
    (1 by default) on one side and such a run on the opposite side; the effect (by
    default a removal) applies, with (to) on each site of both runs. Example:

        (intervene (from (to)) (to if:("IsEnemyAt" (to)) (apply (remove (to)))))
    """
    concepts = ("InterveneCapture if to.apply has RemoveEffect",
                "InterveneCapture if not to.apply")

    params = (P("from_", "FromSpec", opt=True), P("dirn", RelationType, opt=True),
              P("between", "BetweenSpec", opt=True), P("to", "ToSpec", opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        start = start_site(env, self)
        b = self.between
        if b is not None:
            b.refuse("before", "after", "trail", "if_", "apply",
                     why="Ludii's Intervene reads only a range")
        lo, hi = b.range.bounds(env) if b is not None and b.range is not None \
            else ((lambda c: 1), (lambda c: 1))
        if b is not None and isinstance(b.range, MaxL):
            lo = lambda c: -1  # noqa: E731  (Ludii's Max range starts at -1: one side may be empty)
        to = self.to
        if to is not None:
            to.refuse("site", "level", why="Ludii's Intervene reads the condition and effect")
            if to.apply is not None and to.apply.if_ is not None:
                raise to.apply.fail("(apply if:...) in (intervene ...) is not supported yet")
        target = env.compile(to.if_) if to is not None and to.if_ is not None else \
            (lambda c: _is_player_fn(c, c.to, False))
        effect = env.compile(to.apply.effect) if to is not None and to.apply is not None \
            and to.apply.effect is not None else _remove_at("to")
        relation = self.dirn or "Adjacent"
        distinct = env.board.distinct_radials.get(relation, ())
        # Per site: (radial, opposite radial or None) along each line through it.
        table = tuple(tuple((r.sites, r.opposite.sites if r.opposite is not None else None)
                            for r in per_site) for per_site in distinct)
        nsites = len(table)
        then = _then(env, self)

        def run(c, sites, longest):
            got = []
            for site in sites[1:longest + 1]:
                c.to = site
                if not target(c):
                    break
                got.append(site)
            return got

        def intervene(c):
            frm = start(c)
            if not 0 <= frm < nsites:
                return []
            saved = (c.from_, c.to)
            n_min, n_max = lo(c), hi(c)
            out = []
            for sites, opposite in table[frm]:
                if n_min == 1 and n_max == 1:       # Ludii's shortSandwich
                    if len(sites) < 2:
                        continue
                    c.to = sites[1]
                    if not target(c) or opposite is None:
                        continue
                    if len(opposite) >= 2:
                        c.to = opposite[1]
                        if target(c):
                            out.extend(effect(c))
                            c.to = sites[1]
                            out.extend(effect(c))
                    continue
                ours = run(c, sites, n_max)        # Ludii's longSandwich
                if len(ours) < n_min or opposite is None:
                    continue
                theirs = run(c, opposite, n_max)
                if len(theirs) < n_min:
                    continue
                for site in theirs + ours:
                    c.to = site
                    out.extend(effect(c))
            c.from_, c.to = saved
            return add_then(out, then)
        return intervene



@ludeme("trigger")
class Trigger(Moves):
    """`(trigger "<event>" <player>|<role>)`: mark the player as triggered, as
    Ludii's Trigger: one flag per player, kept for the rest of the game, whatever the
    event's name (Ludii's State.triggers ignores it). Example:
    `(apply (trigger "Surrounded" P2))`."""
    concepts = ("Trigger",)

    params = (P("event", LitStr), P("who", (RoleType, IntFn)), P("then", "Then", opt=True))

    def compile(self, env):
        self.refuse("then", why="Ludii keeps it on the list of moves, not on the trigger")
        who = env.player_fn(self.who, self)
        _ = self.event          # Ludii's State.triggers ignores the event's name
        return lambda c: [Move(-1, -1, 0, [(A_SET_VAR, ("triggered", who(c)), 1)])]


@ludeme("is", "Triggered")
class IsTriggered(Bool):
    """`(is Triggered "<event>" <player>|<role>)`: the player is still active and was
    triggered (by any event: Ludii keeps one flag per player). Example:
    `(if (is Triggered "Surrounded" P2) (result P1 Win))`."""
    concepts = ("Trigger",)

    params = (P("event", LitStr), P("who", (RoleType, IntFn)))

    def compile(self, env):
        who = env.player_fn(self.who, self)
        _ = self.event          # Ludii's IsTriggered reads only the player
        n = env.num_players

        def triggered(c):
            p = who(c)
            return 1 <= p <= n and c.s.active[p] and \
                c.s.notes.get(("var", ("triggered", p)), 0) == 1
        return triggered


def _mentions(lud, cls) -> bool:
    """Whether the ludeme or one of its arguments, at any depth, is a `cls`."""
    if isinstance(lud, cls):
        return True
    fields = getattr(lud, "__dict__", {}).get("_fields")
    if not fields:
        return False
    for v in fields.values():
        for part in (v if isinstance(v, (list, tuple)) else (v,)):
            if _mentions(part, cls):
                return True
    return False


@ludeme("enclose")
class Enclose(Moves):
    """`(enclose [(from <site>)] [<directions>] [(between if:<cond> (apply <effect>))]
    [(then ...)])`: as Ludii's Enclose (Go's capture), each group of targets (between if:,
    by default enemies) next to the site, connected in the directions (Adjacent by
    default), that has no empty site next to it is captured: the effect (by default a
    removal) applies with (between) on each of its sites. Example:

        (enclose (from (last To)) Orthogonal
            (between if:("IsEnemyAt" (between)) (apply (remove (between)))))
    """
    concepts = ("EncloseCapture if between.apply has RemoveEffect",
                "EncloseCapture if not between.apply")

    params = (P("type", SiteType, opt=True), P("from_", "FromSpec", opt=True),
              P("dirn", (DirWord, "Directions"), opt=True),
              P("between", "BetweenSpec", opt=True),
              P("numException", IntFn, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        _check_board_type(self, env)
        dirn = self.dirn or "Adjacent"
        if not env.is_static_direction(dirn):
            raise self.fail("(enclose ...) in directions relative to a piece is not "
                            "supported yet")
        start = start_site(env, self)
        near = env.step_targets(dirn, self)
        target, effect = _between_parts(
            self, env, lambda c: _is_player_fn(c, c.between, False), _remove_at("between"))
        exceptions = env.compile(self.numException) if self.numException is not None \
            else (lambda c: 0)
        then = _then(env, self)
        nsites = len(near)
        # Ludii's atLeastAnEmpty: a target condition that reads (is Empty ...) (Mig Mang's
        # territories) makes the group enclosed when no site around it is a target and the
        # pieces around it form one chain (in All directions)
        b = self.between
        empty_targets = b is not None and b.if_ is not None and _mentions(b.if_, IsEmpty)
        chain = env.step_targets("All", self) if empty_targets else None

        def one_chain(ring: list) -> bool:
            """Ludii's walk over the sites around a group: from the first, on to a
            neighbour still in the list, dropping the site left, until one remains."""
            if not ring:
                return False
            at = ring[0]
            while len(ring) != 1:
                nxt = next((t for t in chain[at] if t in ring), None)
                if nxt is None:
                    return False
                ring.remove(at)
                at = nxt
            return True

        def is_target(c, site):
            c.between = site
            return target(c)

        def enclosed(c, whats, first, spare):
            """The group grown from `first` over targets (and up to `spare` empty sites,
            Ludii's numException), or None when it reaches one more empty site or has an
            empty site around it: Ludii's walk, in its order."""
            if spare > 0 and whats[first] == 0:
                spare -= 1
            group, inside = [first], {first}
            i = 0
            while i < len(group):
                for nxt in near[group[i]]:
                    if nxt in inside:
                        continue
                    if is_target(c, nxt):
                        inside.add(nxt)
                        group.append(nxt)
                    elif whats[nxt] == 0:
                        if spare <= 0:
                            return None, inside       # a liberty
                        spare -= 1
                        inside.add(nxt)
                        group.append(nxt)
                i += 1
            ring: list = []
            for site in group:
                for lib in near[site]:
                    if lib in inside or lib in ring:
                        continue
                    if is_target(c, lib) if empty_targets else whats[lib] == 0:
                        return None, inside         # a liberty
                    ring.append(lib)
            if empty_targets and not one_chain(ring):
                return None, inside
            return group, inside

        def enclose(c):
            frm = start(c)
            whats = c.s.what
            if not 0 <= frm < nsites or whats[frm] <= 0:
                return []
            spare = exceptions(c)
            saved = (c.to, c.between)
            around = []
            for site in near[frm]:
                if site not in around and (is_target(c, site)
                                           or (spare > 0 and whats[site] == 0)):
                    around.append(site)
            checked = set()
            out = []
            for first in around:
                if first in checked:
                    continue
                group, seen = enclosed(c, whats, first, spare)
                if group is None:
                    continue
                checked |= seen
                for site in group:      # the effect on each site, empty ones included
                    c.between = site
                    out.extend(effect(c))
            c.to, c.between = saved
            return add_then(out, then)
        return enclose


@ludeme("attract")
class Attract(Moves):
    """`(attract [(from <site>)] [<direction>] [(then ...)])`: as Ludii's Attract, along
    each radial from the site (the last move's destination by default) in the direction
    (Adjacent by default), the pieces are lifted and put back side by side from the site
    outwards, keeping their order: the gaps between them close. Each removal and each
    placement is a move of its own, as in Ludii. Example (Feed the Ducks): `(then
    (attract (from (last To))))`."""
    concepts = ()

    params = (P("from_", "FromSpec", opt=True), P("dirn", DirWord, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        start = start_site(env, self)
        lines = _radials_fn(env, self, self.dirn)
        owners = [comp.owner for comp in env.components]
        then = _then(env, self)
        nsites = env.num_board_sites

        def attract(c):
            frm = start(c)
            if not 0 <= frm < nsites:
                return []
            whats = c.s.what
            out = []
            for line in lines(c, frm):
                kinds = [whats[to] for to in line[1:] if whats[to] != 0]
                out.extend(Move(-1, -1, 0, [(A_REMOVE, to)])
                           for to in line[1:] if whats[to] != 0)
                out.extend(Move(-1, -1, 0, [(A_ADD, line[i], w, owners[w], 1)])
                           for i, w in enumerate(kinds, start=1))
            return add_then(out, then)
        return attract


@emits(Attract, kind="consequent", refuses=(("then", "as a consequent (each move it "
                                                     "makes carries it)"),))
def _attract_consequent(src, lud, lines, ind):
    """`Attract.compile`'s moves, applied in turn: along each radial from the start (the
    directions fixed by the board), the pieces after it, as the position before any move
    holds them, each removed, then put back side by side from the site next to the start
    outwards, in their order."""
    from ludeme.engine.compiled.emit import refuse_stacks
    refuse_stacks(src, lud)
    if lud.from_ is not None:
        refuse(lud.from_, "level", "if_", "type")
    dirn = static_dirn(src.env, lud)
    radials = _radials_fn(src.env, lud, dirn)
    n = src.env.num_board_sites
    t_lines, t_len = src.padded([[list(r) for r in radials(None, s)] for s in range(n)])
    rays, lens = src.table(t_lines), src.table(t_len)
    t_num = src.table([len(radials(None, s)) for s in range(n)])
    start = src.int_expr(lud.from_.site) if lud.from_ is not None and \
        lud.from_.site is not None else "frm"
    d = len(ind)        # the locals of this attraction, one set per depth of nesting
    body = [f"af_{d} = {start}",
            f"if 0 <= af_{d} < {n}:",
            f"    aw0_{d} = what.copy()",
            f"    for ar_{d} in range({t_num}[af_{d}]):",
            f"        for aj_{d} in range(1, {lens}[af_{d}, ar_{d}]):",
            f"            at_{d} = {rays}[af_{d}, ar_{d}, aj_{d}]",
            f"            if aw0_{d}[at_{d}] != 0:",
            f"                {src.site_clear(f'at_{d}')}",
            f"        ai_{d} = 1",
            f"        for aj_{d} in range(1, {lens}[af_{d}, ar_{d}]):",
            f"            aw_{d} = aw0_{d}[{rays}[af_{d}, ar_{d}, aj_{d}]]",
            f"            if aw_{d} != 0:",
            f"                ap_{d} = {rays}[af_{d}, ar_{d}, ai_{d}]",
            f"                {src.site_add(f'ap_{d}', f'aw_{d}', f'OWNER[aw_{d}]', '1')}",
            f"                ai_{d} += 1"]
    lines.extend(ind + x for x in body)


@ludeme("push")
class Push(Moves):
    """`(push [(from <site>)] <direction> [(then ...)])`: as Ludii's Push, the piece at the
    site and the run of pieces after it along each radial in the direction move one step
    on: the piece at the end of a full radial falls off the board. Pieces are put back
    as new ones of the same kind (their state and value are not kept, as in Ludii), and
    each of the resulting moves carries the consequents. Example:
    `(then (push (from (last To)) E))`."""
    concepts = ("PushEffect",)

    params = (P("from_", "FromSpec", opt=True), P("dirn", DirWord),
              P("then", "Then", opt=True))

    def compile(self, env):
        start = start_site(env, self)
        radials = env.board.radials.get(self.dirn)
        if radials is None:
            raise self.fail(f"the direction {self.dirn} is not supported on this board")
        table = tuple(tuple(r.sites for r in per_site) for per_site in radials)
        owners = [comp.owner for comp in env.components]
        then = _then(env, self)
        nsites = len(table)

        def add(site, what):
            # Ludii's add of nothing (an empty site pushed on) leaves the site as it is.
            return Move(-1, -1, 0, [(A_ADD, site, what, owners[what], 1)] if what > 0 else [])

        def push(c):
            frm = start(c)
            if not 0 <= frm < nsites:
                return []
            whats = c.s.what
            out = []
            for sites in table[frm]:
                current = whats[sites[0]]
                out.append(Move(-1, -1, 0, [(A_REMOVE, frm)]))
                for to in sites[1:]:
                    what = whats[to]
                    if what == 0:
                        out.append(add(to, current))
                        break
                    out.append(Move(-1, -1, 0, [(A_REMOVE, to)]))
                    out.append(add(to, current))
                    current = what
            return add_then(out, then)
        return push


def _triggered_slot(src, lud) -> str:
    """The scalar of the kernels that holds the player's trigger flag (the reference's
    variable ("triggered", player)): one variable per player id, allocated together. Read
    only in games of two players, where a player is active as long as the game goes on (the
    kernels' expressions do not see who is still active)."""
    if src.game.num_players > 2:
        raise Unsupported(lud, "with more than two players")
    n = src.game.num_players + 2
    if ("triggered", 0) not in src.variables:
        for p in range(n):
            src.variable(("triggered", p))
    base = src.variables[("triggered", 0)]
    who = src.player_expr(lud.who, lud) if isinstance(lud.who, str) else src.int_expr(lud.who)
    return base, who, n


@emits(Trigger, kind="effect")
def _trigger_effect(src, lud, body):
    base, who, n = _triggered_slot(src, lud)
    body += [f"tp_ = {who}", f"if 0 <= tp_ < {n}:", f"    sc[VARS + {base} + tp_] = 1"]


emits(Trigger, kind="consequent")(effect_as_consequent(_trigger_effect))


@emits(IsTriggered, kind="bool")
def _is_triggered(src, lud):
    base, who, n = _triggered_slot(src, lud)
    # who is read twice: a role or a plain expression of the position
    return f"(1 <= {who} < {n - 1} and sc[VARS + {base} + {who}] == 1)"


@emits(Enclose, kind="consequent", refuses=("type",))
def _enclose_consequent(src, lud, lines, ind):
    """`Enclose.compile`'s groups (see `war.capture_lines`): from each target next to the
    start (in the order of its neighbours; an empty site too while numException: spares
    one), the group of targets connected to it is walked breadth first, each site's
    neighbours in order, taking in up to numException: empty sites; a group that meets one
    more empty site, or has one around it, is free; the sites of each enclosed group are
    captured in the order walked, a site of a group found before never starting another.
    With targets read by (is Empty ...), a group is free where a site around it is a
    target, or where the sites around it do not form one chain (Ludii's walk over them in
    All directions). Every group is found before the first capture, as the reference lists
    its moves before applying them."""
    env = src.env
    dirn = static_dirn(env, lud)
    b = lud.between
    empty_targets = False
    if b is not None:
        refuse(b, "before", "after", "trail", "range")
        if b.apply is not None and b.apply.if_ is not None:
            raise Unsupported(b.apply, "with if:")
        # Ludii's atLeastAnEmpty walk around the group (Mig Mang's territories)
        empty_targets = b.if_ is not None and _mentions(b.if_, IsEmpty)
    if env.teams and (b is None or b.if_ is None):
        raise Unsupported(lud, "with teams and Ludii's default targets")
    target = src.bool_expr(b.if_) if b is not None and b.if_ is not None else \
        "(btw != 0 and btw != mover)"
    near, n_near = (src.table(t) for t in src.padded([list(x) for x in
                                                      env.step_targets(dirn, lud)]))
    exc = src.int_expr(lud.numException) if lud.numException is not None else "0"
    n = env.num_board_sites
    if empty_targets:       # a site around the group: a target frees it; listed once
        around = ["                    if inside[nx] or einr_[nx]:",
                  "                        continue",
                  "                    btw = nx",
                  f"                    if {target}:",
                  "                        free = True",
                  "                        break",
                  "                    ering_[enr_] = nx",
                  "                    einr_[nx] = True",
                  "                    enr_ += 1"]
        all_nb, n_all = (src.table(t) for t in src.padded([list(x) for x in
                                                           env.step_targets("All", lud)]))
        chain = ["            if not free:",     # one chain: walked from its first site
                 "                if enr_ == 0:",
                 "                    free = True",
                 "                else:",
                 "                    eat_ = ering_[0]",
                 "                    ern_ = enr_",
                 "                    while ern_ != 1:",
                 "                        enx_ = -1",
                 f"                        for k in range({n_all}[eat_]):",
                 f"                            if einr_[{all_nb}[eat_, k]]:",
                 f"                                enx_ = {all_nb}[eat_, k]",
                 "                                break",
                 "                        if enx_ < 0:",
                 "                            free = True",
                 "                            break",
                 "                        einr_[eat_] = False",
                 "                        ern_ -= 1",
                 "                        eat_ = enx_",
                 "            for i in range(enr_):",
                 "                einr_[ering_[i]] = False"]
    else:
        around = ["                    if not inside[nx] and what[nx] == 0:",
                  "                        free = True",
                  "                        break"]
        chain = []
    scan = [
        "    if what[cf] > 0:",
        f"        exc_ = {exc}",
        f"        inside = np.zeros({n}, np.bool_)",
        f"        done = np.zeros({n}, np.bool_)",
        f"        grp = np.empty({n}, np.int64)",
        *([f"        einr_ = np.zeros({n}, np.bool_)",
           f"        ering_ = np.empty({n}, np.int64)"] if empty_targets else []),
        f"        for j in range({n_near}[cf]):",
        f"            btw = {near}[cf, j]",
        f"            if done[btw] or not ({target} or (exc_ > 0 and what[btw] == 0)):",
        "                continue",
        "            esp_ = exc_",
        "            if esp_ > 0 and what[btw] == 0:",
        "                esp_ -= 1",
        "            inside[:] = False",
        "            grp[0] = btw",
        "            inside[btw] = True",
        "            ng = 1",
        "            free = False",
        "            i = 0",
        "            while i < ng and not free:",
        "                gs = grp[i]",
        f"                for k in range({n_near}[gs]):",
        f"                    nx = {near}[gs, k]",
        "                    if inside[nx]:",
        "                        continue",
        "                    btw = nx",
        f"                    if {target}:",
        "                        inside[nx] = True",
        "                        grp[ng] = nx",
        "                        ng += 1",
        "                    elif what[nx] == 0:",
        "                        if esp_ <= 0:",
        "                            free = True",
        "                            break",
        "                        esp_ -= 1",
        "                        inside[nx] = True",
        "                        grp[ng] = nx",
        "                        ng += 1",
        "                i += 1",
        "            enr_ = 0",
        "            for i in range(ng):",
        "                if free:",
        "                    break",
        "                gs = grp[i]",
        f"                for k in range({n_near}[gs]):",
        f"                    nx = {near}[gs, k]",
        *around,
        *chain,
        "            if not free:",
        "                for i in range(ng):",
        "                    done[grp[i]] = True",
        "                    cbuf[cn] = grp[i]",
        "                    cn += 1"]
    lines.extend(ind + x for x in capture_lines(src, lud, scan))


@emits(Intervene, kind="consequent")
def _intervene_consequent(src, lud, lines, ind):
    """`Intervene.compile`'s runs along each line through the start: with a range of
    exactly 1, the targets next to it on both sides (the far one captured first); else a run
    of targets on each side, each at least the least and at most the most long (the
    opposite run captured first). Every capture is found before the first is made; each
    gets the effect (by default a removal) with (to) on its site, then the capture's own
    (then ...), as each move made carries it."""
    from ludeme.engine.compiled.emit import emit
    from .moves import _apply_lines
    to = lud.to
    effect: list[str] = []
    if to is not None and to.apply is not None:
        _apply_lines(src, to.apply, effect)
    else:
        effect = ["if what[to] > 0:", f"    {src.site_clear('to')}"]
    then = lud.__dict__.get("_fields", {}).get("then")
    if then is not None:        # after each capture made
        effect += ["to = -1"]
        emit("then", src, then, effect)
    body = [*_intervene_scan(src, lud),
            "    for i in range(cn):",
            "        to = cbuf[i]",
            *("        " + x for x in effect),
            "    to = -1"]
    lines.extend(ind + x for x in body)


@emits(Intervene, kind="moves")
def _intervene_moves(src, lud, out, ind):
    """Where moves are only looked for (is there one: (can Move ...)), `Intervene.compile`'s
    moves: the effect's (by default a removal: a move where a piece stands) at each site
    captured, with (to) on it. As moves played they are refused: a move of the kernels
    carries no site captured for its effect to read."""
    if not src.any_mode:
        raise Unsupported(lud, "as moves played (only where moves are looked for, as "
                          "inside (can Move ...))")
    if lud.then is not None:
        raise Unsupported(lud, "with (then ...) as moves")
    from ludeme.engine.compiled.emit import emit, lookup
    to = lud.to
    moves: list[str] = []
    if to is not None and to.apply is not None:
        eff = to.apply.effect
        if eff is None:
            raise Unsupported(to.apply, "without an effect")
        if lookup("moves", eff) is None and lookup("one_move", eff) is not None:
            # an effect making one move at most (a removal: where a piece stands)
            body: list[str] = []
            src.effect_body(eff, body)
            g = src.new_generator(body, lud=lud)
            moves.append(f"        if {emit('one_move', src, eff)}:")
            src.push(moves, "            ", "to", "to", g)
        else:
            src.moves(eff, moves, "        ")
    else:
        g = src.new_generator([src.site_clear("to")], lud=lud, kind=A_REMOVE)
        moves.append("        if what[to] > 0:")
        src.push(moves, "            ", "to", "to", g)
    out.extend(ind + x for x in ["ivs_ = to", *_intervene_scan(src, lud),
                                 "    for i in range(cn):", "        to = cbuf[i]", *moves,
                                 "to = ivs_"])


def _intervene_scan(src, lud) -> list[str]:
    """The lines finding the sites an (intervene ...) captures, from its start `cf`, into
    `cbuf[:cn]` (in the reference's order), under `if 0 <= cf < <sites>:`."""
    from ludeme.engine.compiled.emit import emit
    b, to = lud.between, lud.to
    if b is not None:
        refuse(b, "before", "after", "trail", "if_", "apply")
    if to is not None:
        refuse(to, "site", "level")
        if to.apply is not None and to.apply.if_ is not None:
            raise Unsupported(to.apply, "with if:")
    if src.env.teams and (to is None or to.if_ is None):
        raise Unsupported(lud, "with teams and Ludii's default targets")
    target = src.bool_expr(to.if_) if to is not None and to.if_ is not None else \
        "(to != 0 and to != mover)"
    if b is not None and b.range is not None:
        lo, hi = emit("range", src, b.range)
        if isinstance(b.range, MaxL):
            lo = "-1"       # Ludii's Max range starts at -1: one side may be empty
    else:
        lo = hi = "1"
    env = src.env
    n = env.num_board_sites
    distinct = env.board.distinct_radials.get(lud.dirn or "Adjacent", ())
    per_site = [[(list(r.sites), list(r.opposite.sites) if r.opposite is not None else None)
                 for r in (distinct[s] if s < len(distinct) else ())] for s in range(n)]
    R, RL, O, OL, NR, width, depth = ray_pair_tables(src, per_site)
    start = src.int_expr(lud.from_.site) if lud.from_ is not None and \
        lud.from_.site is not None else "frm"
    if lud.from_ is not None:
        refuse(lud.from_, "level", "if_", "type")
    return [f"cf = {start}",
            f"if 0 <= cf < {n}:",
            f"    cbuf = np.empty({2 * width * depth + 2}, np.int64)",
            f"    ours = np.empty({depth}, np.int64)",
            f"    theirs = np.empty({depth}, np.int64)",
            "    cn = 0",
            f"    nlo, nhi = {lo}, {hi}",
            f"    for r in range({NR}[cf]):",
            f"        ln, ol = {RL}[cf, r], {OL}[cf, r]",
            "        if nlo == 1 and nhi == 1:",
            "            if ln < 2:",
            "                continue",
            f"            to = {R}[cf, r, 1]",
            f"            if not {target} or ol < 0:",
            "                continue",
            "            if ol >= 2:",
            f"                to = {O}[cf, r, 1]",
            f"                if {target}:",
            "                    cbuf[cn] = to",
            f"                    cbuf[cn + 1] = {R}[cf, r, 1]",
            "                    cn += 2",
            "            continue",
            "        no = 0",
            "        for j in range(1, min(ln, nhi + 1)):",
            f"            to = {R}[cf, r, j]",
            f"            if not {target}:",
            "                break",
            "            ours[no] = to",
            "            no += 1",
            "        if no < nlo or ol < 0:",
            "            continue",
            "        nt = 0",
            "        for j in range(1, min(ol, nhi + 1)):",
            f"            to = {O}[cf, r, j]",
            f"            if not {target}:",
            "                break",
            "            theirs[nt] = to",
            "            nt += 1",
            "        if nt < nlo:",
            "            continue",
            "        for j in range(nt):",
            "            cbuf[cn] = theirs[j]",
            "            cn += 1",
            "        for j in range(no):",
            "            cbuf[cn] = ours[j]",
            "            cn += 1"]


@emits(Push, kind="consequent", refuses=(("then", "as a consequent (each move it makes "
                                                  "carries it)"),))
def _push_consequent(src, lud, lines, ind):
    """`Push.compile`'s moves, applied in turn: along each radial from the start, as the
    position before any of them holds it, the start emptied, then each site of the run of
    pieces after it emptied and given the piece before it (a new one of that kind), until
    the first empty site, which takes the last piece; the piece at the end of a full radial
    falls off. An empty site pushed on stays empty (Ludii adds nothing)."""
    from ludeme.engine.compiled.emit import refuse_stacks
    from .sliding import radials_array
    refuse_stacks(src, lud)
    if lud.from_ is not None:
        refuse(lud.from_, "level", "if_", "type")
    radials = src.env.board.radials.get(lud.dirn)
    if radials is None:
        raise lud.fail(f"the direction {lud.dirn} is not supported on this board")
    n = src.env.num_board_sites
    rays, _, _ = radials_array([[[r.sites for r in radials[s]] for s in range(n)]])
    t_rays, t_lens = src.table(rays[0]), src.table((rays[0] >= 0).sum(axis=-1))
    t_num = src.table([len(radials[s]) for s in range(n)])
    start = src.int_expr(lud.from_.site) if lud.from_ is not None and \
        lud.from_.site is not None else "frm"
    d = len(ind)        # the locals of this push, one set per depth of nesting
    put = [f"if cur_{d} > 0:",
           f"    {src.site_add(f'pt_{d}', f'cur_{d}', f'OWNER[cur_{d}]', '1')}"]
    body = [f"pf_{d} = {start}",
            f"if 0 <= pf_{d} < {n}:",
            f"    pw0_{d} = what.copy()",
            f"    for pr_{d} in range({t_num}[pf_{d}]):",
            f"        cur_{d} = pw0_{d}[pf_{d}]",
            f"        {src.site_clear(f'pf_{d}')}",
            f"        for pj_{d} in range(1, {t_lens}[pf_{d}, pr_{d}]):",
            f"            pt_{d} = {t_rays}[pf_{d}, pr_{d}, pj_{d}]",
            f"            nw_{d} = pw0_{d}[pt_{d}]",
            f"            if nw_{d} == 0:",
            *("                " + x for x in put),
            "                break",
            f"            {src.site_clear(f'pt_{d}')}",
            *("            " + x for x in put),
            f"            cur_{d} = nw_{d}"]
    lines.extend(ind + x for x in body)
