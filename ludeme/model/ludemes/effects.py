"""Effects, regions and end rules used by sowing and race games: `(fromTo ...)`, `(if ...)` as a
region, `(byScore ...)`."""

from __future__ import annotations

import itertools
import re
from contextlib import contextmanager

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import (A_ADD, A_FLIP, A_MOVE, A_MOVE_LEVEL, A_MOVE_N, A_NEXT, A_PASS,
                                 A_PLACED_FIELD, A_SET_VAR, Move, Result)
from ludeme.engine.stores import TOP
from .base import (Bool, EndRule, IntFn, LitBool, LitStr, Moves, Other, P, Region,
                   RoleType, SiteType, layer_site, lazy_moves, ludeme, name_without_number)
from ludeme.engine.compiled.emit import effect_as_consequent, emit, emits, lookup, refuse, refuse_stacks
from ludeme.engine.compiled.unsupported import Unsupported
from .moves import (COUNTERS, MoveAdd, _add_moves, _from_to_moving, _from_to_regions_effect,
                    _inserted, _moving_action, _side_effect, _then, _sites_of, added_piece,
                    moves_made, placed, typed_place, typed_site, typed_sites_fn)


@ludeme("claim")
class Claim(Moves):
    """`(claim [(piece ...)] (to [<type>] <site|region> [if:]) [(then ...)])`: add the piece
    (by default the component whose index is the mover's number, as Ludii's Claim reads
    `Mover`) to the site, or to each site of the region where the condition holds, on the
    board's sites of that type (Ludii's Claim: an ActionAdd). To one site, the consequents
    are evaluated at once, with (from) and (to) on it, and their actions join the move's own;
    to a region, they stay consequents. Example (ConHex):

        (claim (piece (id "Rectangle" Mover)) (to Cell (site)))
    """

    params = (P("piece", "PieceRef", opt=True), P("to", "ToSpec"), P("then", "Then", opt=True))

    def compile(self, env):
        self.to.refuse("level", "apply", why="in (claim ...)")
        one_site = self.to.site is not None and not isinstance(self.to.site, Region)
        tos = typed_sites_fn(env, self.to, lambda c: (c.to,), layered=True)
        store = layer_site(env, self.to.type)
        types = (self.to.type, self.to.type)
        cond = env.compile(self.to.if_) if self.to.if_ is not None else None
        then = _then(env, self)
        comp = env.compile(self.piece) if self.piece is not None else (lambda c: c.s.mover)
        state = env.compile(self.piece.state) if self.piece is not None \
            and self.piece.state is not None else None

        def claim(c):
            what = comp(c)
            saved = c.from_, c.to
            out = []
            comps = c.g.components
            if not 0 < what < len(comps):
                return out
            owner = comps[what].owner
            for to in tos(c):
                st = to if store is None else store(to) if to >= 0 else -1
                if st < 0:
                    continue
                c.to = to
                if cond is not None and not cond(c):
                    continue
                acts = [(A_ADD, st, what, owner, 1)]
                if state is not None:
                    acts.append((A_PLACED_FIELD, "state", st, TOP, state(c)))
                m = Move(to, to, 0, acts, () if one_site else then)
                if store is not None:
                    m.site_types = types
                if one_site and then:
                    # Ludii evaluates them now, on the position before the claim
                    c.from_ = c.to = to
                    for consequent in then:
                        for follow in consequent(c):
                            m.actions.extend(follow.actions)
                out.append(m)
                if one_site:
                    break
            c.from_, c.to = saved
            return out
        return claim


@emits(Claim, kind="consequent", refuses=(("then", "with (then ...) as a consequent"),))
def _claim_consequent(src, lud, lines, ind):
    """As `Claim.compile`'s moves applied at once: the piece read first (its (piece ...),
    else the component whose index is the mover's number; none off the components), with
    (to) as it was; then the sites where the condition holds with (to) on each, listed
    before any is placed (one site at most of a site given, the first of a region); the
    piece added on each, on a layer of the board the game puts pieces on at the element's
    place (`typed_place`)."""
    to = lud.to
    if lud.piece is not None and lud.piece.state is not None:
        raise Unsupported(lud, "with (piece ... state:) as a consequent")
    if src.game.stacking or src.game.large_pieces or src.game.hidden_info:
        raise Unsupported(lud, "as a consequent in a game with stacks, large or hidden pieces")
    kind = src.int_expr(lud.piece) if lud.piece is not None else "mover"
    typed, place = typed_place(src, to, "to")
    cond = typed + (f" and {src.bool_expr(to.if_)}" if to.if_ is not None else "")
    d = len(ind)
    body = [f"ck{d}_, cst{d}_ = {kind}, to", f"if 0 < ck{d}_ < {len(src.game.components)}:"]
    add = [f"cpl{d}_ = {place}", src.site_add(f"cpl{d}_", f"ck{d}_", f"OWNER[ck{d}_]", "1")]
    within = "0 <= to < TOTAL" if place == "to" else "to >= 0"
    if isinstance(to.site, IntFn) or to.site is None:
        site = src.int_expr(to.site) if to.site is not None else "to"
        body += [f"    to = {site}", f"    if {within}{cond}:",
                 *(f"        {x}" for x in add)]
    else:
        seq, flt = src.region_sites(to.site)
        ok = f" and {flt('to')}" if flt else ""
        body += [f"    cn{d}_ = 0", f"    for to in {seq}:",
                 f"        if {within}{ok}{cond}:", f"            cn{d}_ += 1",
                 f"    cbuf{d}_ = np.empty(cn{d}_, np.int64)", f"    cn{d}_ = 0",
                 f"    for to in {seq}:", f"        if {within}{ok}{cond}:",
                 f"            cbuf{d}_[cn{d}_] = to", f"            cn{d}_ += 1",
                 f"    for to in cbuf{d}_:", *(f"        {x}" for x in add)]
    body.append(f"to = cst{d}_")
    lines.extend(ind + x for x in body)


@ludeme("move", "Claim")
class MoveClaim(Claim):
    """`(move Claim [(piece ...)] (to [<type>] <site|region> [if:]) [(then ...)])`: the
    same claim as a decision of the mover (Ludii's decision (move Claim ...) builds its
    Claim effect and marks it a decision). Example: `(move Claim (to (sites Empty)))`."""


@ludeme("take", "Control")
class TakeControl(Moves):
    """`(take Control of:<role|player> by:<role|player> [at:<site> | to:<region>] [<type>]
    [(then ...)])`: the pieces of a player (of:All: of every player and the neutral ones),
    on the site or region given, become the same pieces of another (Ludii's TakeControl):
    one move per site, which replaces the piece by the component of the same name (without
    its number) owned by the new owner, its count, state, rotation and value kept; a piece
    with no such component stays. Example: `(take Control of:All by:Mover at:(last To))`."""
    concepts = ("TakeControl",)

    params = (P("of", (RoleType, IntFn), named=True), P("by", (RoleType, IntFn), named=True),
              P("at", IntFn, opt=True, named=True), P("to", Region, opt=True, named=True),
              P("type", SiteType, opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(take Control {self.type}) on a board played on "
                            f"{env.board.site_type} sites is not supported yet")
        if self.at is not None and self.to is not None:
            raise self.fail("(take Control ...) takes at: or to:, not both")
        if env.stacking:
            raise self.fail("(take Control ...) in a stacking game is not supported yet")
        every = self.of == "All"
        owner = None if every else (env.compile(self.of) if isinstance(self.of, IntFn)
                                    else env.role_id(self.of, self))
        new_owner = env.compile(self.by) if isinstance(self.by, IntFn) \
            else env.role_id(self.by, self)
        at = env.compile(self.at) if self.at is not None else None
        region = env.compile(self.to) if self.to is not None else None
        then = _then(env, self)
        n = env.total_sites
        same_kind: dict = {}        # (component, new owner) -> the new component, or 0

        def kind_for(g, what, who):
            key = (what, who)
            got = same_kind.get(key)
            if got is None:
                base = name_without_number(g.components[what].name)
                got = same_kind[key] = next(
                    (c.index for c in g.components[1:]
                     if c.owner == who and name_without_number(c.name) == base), 0)
            return got

        def take(c):
            s = c.s
            who_at, what_at = s.who, s.what
            mine = (lambda p: True) if every else (lambda p, o=owner(c): p == o)
            if at is not None:
                sites = (at(c),)
            elif region is not None:
                sites = sorted(set(region(c)))
            else:
                sites = range(n)
            to = new_owner(c)
            out = []
            for site in sites:
                if not 0 <= site < n or not what_at[site] or not mine(who_at[site]):
                    continue
                what = kind_for(c.g, what_at[site], to)
                if what:
                    out.append(Move(site, site, s.mover, [(A_FLIP, site, to, what)], then))
            return out
        return take


@emits(TakeControl, kind="consequent", refuses=(("then", "with (then ...) as a consequent"),))
def _take_control_consequent(src, lud, lines, ind):
    """`TakeControl.compile`'s moves, listed first (the sites in increasing order, each
    once), then applied: each piece of the player of:, on the site or region given (every
    site by default), becomes the component of the same name owned by the player by:, where
    there is one (a table per kind and new owner)."""
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, "on other site types")
    if lud.at is not None and lud.to is not None:
        raise Unsupported(lud, "with at: and to:")
    if src.game.stacking:
        raise Unsupported(lud, "in a stacking game")
    same, owners = _same_kind_table(src)

    def player(x):
        return src.int_expr(x) if isinstance(x, IntFn) else src.role_expr(x, lud)
    n = src.env.total_sites
    mine = "True" if lud.of == "All" else f"who[s_] == {player(lud.of)}"
    k = next(_SITE_THENS)
    out = [f"tco{k} = {player(lud.by)}", f"tcm{k} = np.zeros({n}, np.bool_)"]
    if lud.at is not None:
        out += [f"tca{k} = {src.int_expr(lud.at)}", f"if 0 <= tca{k} < {n}:",
                f"    tcm{k}[tca{k}] = True"]
    elif lud.to is not None:
        seq, flt = src.region_sites(lud.to)
        out += [f"for site in {seq}:",
                f"    if 0 <= site < {n}" + (f" and {flt('site')}:" if flt else ":"),
                f"        tcm{k}[site] = True"]
    else:
        out.append(f"tcm{k}[:] = True")
    out += [f"tcs{k} = np.empty({n}, np.int64)", f"tcw{k} = np.empty({n}, np.int64)",
            f"tcn{k} = 0",
            f"if 0 <= tco{k} < {owners}:",
            f"    for s_ in range({n}):",
            f"        if tcm{k}[s_] and what[s_] != 0 and {mine}:",
            f"            w_ = {same}[what[s_], tco{k}]",
            "            if w_ != 0:",
            f"                tcs{k}[tcn{k}] = s_",
            f"                tcw{k}[tcn{k}] = w_",
            f"                tcn{k} += 1",
            f"for i_ in range(tcn{k}):",
            f"    s_ = tcs{k}[i_]",
            "    journal(count, s_)",
            f"    who[s_] = tco{k}",
            f"    what[s_] = tcw{k}[i_]"]
    lines.extend(ind + x for x in out)


@emits(TakeControl, kind="one_move", refuses=(("then", "with (then ...) as one move"),
                                              ("to", "with to: as one move")))
def _take_control_one_move(src, lud):
    """`(take Control ... at:<site>)` makes one move where the site holds a piece of the
    player of: that has a component of the same name owned by the player by: (as the
    consequent's table), none elsewhere; without at:, every site of the board may make one."""
    if lud.at is None:
        raise Unsupported(lud, "without at: as one move")
    _take_control_consequent(src, lud, [], "")      # its refusals
    same, owners = _same_kind_table(src)
    n = src.env.total_sites
    at = src.int_expr(lud.at)
    by = src.int_expr(lud.by) if isinstance(lud.by, IntFn) else src.role_expr(lud.by, lud)
    of = src.int_expr(lud.of) if isinstance(lud.of, IntFn) else src.role_expr(lud.of, lud)
    mine = "" if lud.of == "All" else f" and who[{at}] == {of}"
    return (f"(0 <= {at} < {n} and what[{at}] != 0{mine} and 0 <= {by} < {owners} "
            f"and {same}[what[{at}], {by}] != 0)")


def _same_kind_table(src) -> tuple[str, int]:
    """The table of the component of the same name (without its number) each owner has for
    each component (0: none), and the number of owners it covers ((take Control ...))."""
    comps = src.game.components
    owners = range(src.game.num_players + 2)
    same = src.table([[0] * len(owners)] + [[next(
        (c.index for c in comps[1:] if c.owner == p and
         name_without_number(c.name) == name_without_number(comp.name)), 0)
        for p in owners] for comp in comps[1:]])
    return same, len(owners)


@ludeme("fromTo")
class FromTo(Moves):
    """`(fromTo (from <site|region>) (to <site|region> [if:] [(apply ...)]) [count:] [copy:]
    [stack:] [mover:] [(then ...)])`: move pieces as an effect, one move per occupied origin
    and destination (Ludii's FromTo); `count:` moves that many from the origin; the
    destination's effect applies first.

    Example: `(fromTo (from (to)) (to (mapEntry Mover)) count:(count at:(to)))`."""
    concepts = ("FromToEffect", "ReplacementCapture if to.apply has RemoveEffect")

    params = (P("from_", "FromSpec"), P("to", "ToSpec"), P("count", IntFn, opt=True, named=True),
              P("copy", LitBool, opt=True, named=True, default=False),
              P("stack", LitBool, opt=True, named=True, default=False),
              P("mover", RoleType, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        if self.copy:
            raise self.fail("(fromTo ... copy:True) is not supported yet")
        # stack:True moves the whole stack, or with count: its top `count` levels in
        # order (Ludii's ActionStackMove), as (move ... stack:True) does; it makes the game
        # a stacking one.
        stack_kind = _moving_action(env, self, True) if self.stack else None
        if self.mover is not None:
            raise self.fail("(fromTo ... mover:) is not supported yet")
        if self.to.level is not None:
            raise self.to.fail("(to ... level:) in (fromTo ...) is not supported yet")
        # (from ... level:) moves the piece at that level to the destination's top; as in
        # Ludii, a level makes the game a stacking one.
        level = env.compile(self.from_.level) if self.from_.level is not None else None
        if level is not None:
            env.stacking = True
        if self.from_.if_ is not None:
            raise self.from_.fail("(from ... if:) in (fromTo ...) is not supported yet")
        # (to ... (apply ...)): its actions go in front of the move's, as in (move ...), the
        # same FromTo in Ludii
        side = _side_effect(env, self.to)
        froms = typed_sites_fn(env, self.from_, lambda c: (c.from_,))
        tos = typed_sites_fn(env, self.to, lambda c: (c.to,))
        to_cond = env.compile(self.to.if_) if self.to.if_ is not None else None
        count = env.compile(self.count) if self.count is not None else None
        then = _then(env, self)

        def from_to(c):
            s = c.s
            out = []
            saved = (c.from_, c.to)
            for frm in froms(c):
                # Ludii reads a site past the last container as empty: no move from it
                if not 0 <= frm < len(s.what) or (s.what[frm] <= 0 and s.count[frm] <= 0):
                    continue
                c.from_ = frm
                targets = tuple(tos(c))
                c.from_ = saved[0]
                for to in targets:
                    if to < 0:
                        continue
                    n = count(c) if count is not None else 1
                    c.from_, c.to = frm, to
                    if to_cond is None or to_cond(c):
                        if level is not None:    # with a level, that one piece moves
                            moving = [(A_MOVE_LEVEL, frm, level(c), to, TOP)] * n
                        elif stack_kind is None:
                            moving = [(A_MOVE, frm, to)] * n
                        elif count is None:
                            moving = [(stack_kind, frm, to)]
                        else:
                            moving = [(A_MOVE_N, frm, to, n)]
                        acts = moving if side is None else [*side(c), *moving]
                        out.append(Move(frm, to, 0, acts, then))
                    c.from_ = saved[0]
            c.from_, c.to = saved
            return out
        return from_to


@ludeme("if")
class RegionIf(Region):
    """`(if <cond> <region> [<region>])`: the first region when the condition holds, else the
    second (empty when there is none)."""
    concepts = ("ConditionalStatement",)

    params = (P("cond", Bool), P("then_", Region), P("else_", Region, opt=True))

    def compile(self, env):
        cond = env.compile(self.cond)
        a = env.compile(self.then_)
        b = env.compile(self.else_) if self.else_ is not None else (lambda c: ())
        return lambda c: a(c) if cond(c) else b(c)


@ludeme("score")
class FinalScore(Other):
    """`(score <role> <int>)` inside (byScore {...}): the score a player ends with."""
    concepts = ("Scoring",)

    params = (P("role", RoleType), P("score", IntFn))


@ludeme("byScore")
class ByScore(EndRule):
    """`(byScore [{(score P1 ...) ...}] [misere:])`: set the final scores if given, then end the
    game ranking everyone by score, highest first, or lowest first with misere:True (Ludii's
    ByScore)."""
    concepts = ("Scoring", "ScoringEnd", "ScoringWin")

    params = (P("scores", "FinalScore", opt=True, many=True),
              P("misere", LitBool, opt=True, named=True, default=False))
    always_results = True       # as an inner rule of (if ...), it always gives its result

    def compile(self, env):
        finals = [(env.role_id(s.role, s), env.compile(s.score)) for s in self.scores or ()]
        result = Result(0, "ByScore", misere=bool(self.misere))

        def by_score(c):
            for who, value in finals:
                # Ludii sets each score in turn, so a later value may read an earlier one.
                c.s.scores[who(c)] = value(c)
            return [result]
        return by_score


@ludeme("if")
class IntIf(IntFn):
    """`(if <cond> <int> [<int>])`: the first value when the condition holds, else the second
    (-1 when there is none, Ludii's Undefined)."""
    concepts = ("ConditionalStatement",)

    params = (P("cond", Bool), P("then_", IntFn), P("else_", IntFn, opt=True))

    def compile(self, env):
        cond = env.compile(self.cond)
        a = env.compile(self.then_)
        b = env.compile(self.else_) if self.else_ is not None else (lambda c: -1)
        return lambda c: a(c) if cond(c) else b(c)


@ludeme("if")
class BoolIf(Bool):
    """`(if <cond> <cond> [<cond>])`: the second condition when the first holds, else the third
    (false when there is none)."""
    concepts = ("ConditionalStatement",)

    params = (P("cond", Bool), P("then_", Bool), P("else_", Bool, opt=True))

    def compile(self, env):
        cond = env.compile(self.cond)
        a = env.compile(self.then_)
        b = env.compile(self.else_) if self.else_ is not None else (lambda c: False)
        return lambda c: a(c) if cond(c) else b(c)


@ludeme("count")
class CountIn(IntFn):
    """`(count in:<region>)`: the pieces on the sites of a region, counts added up (levels in
    a stacking game)."""
    concepts = ()

    params = (P("type", SiteType, opt=True), P("in", Region, named=True))

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(count {self.type} in:...) is not supported yet")
        region = env.compile(self.in_)

        def count_in(c):
            s = c.s
            if s.g.stacking:
                return sum(s.size_stack(site) for site in region(c) if site >= 0)
            counts = s.count
            return sum(counts[site] for site in region(c) if site >= 0)
        return count_in


@ludeme("is", "Next")
class IsNext(Bool):
    """`(is Next <player>)`: the player is the next to move."""
    concepts = ()

    params = (P("role", RoleType, opt=True), P("player", IntFn, opt=True))

    def compile(self, env):
        if (self.role is None) == (self.player is None):
            raise self.fail("(is Next ...) takes one player")
        who = env.role_id(self.role, self) if self.role is not None else env.compile(self.player)
        return lambda c: c.s.next == who(c)


@ludeme("forEach", "Site")
class ForEachSite(Moves):
    """`(forEach Site <region> <moves> [noMoveYet:<moves>] [(then ...)])`: the moves generated
    with each site of the region (in increasing order) as `(site)` and `(to)` (Ludii 1.3.12
    leaves `(from)` as it was); the `noMoveYet:` moves when there are none."""
    concepts = ("ControlFlowStatement",)

    params = (P("region", Region), P("generator", Moves),
              P("noMoveYet", Moves, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        region = env.compile(self.region)
        gen = env.compile(self.generator)
        otherwise = env.compile(self.noMoveYet) if self.noMoveYet is not None else None
        then = _then(env, self)

        def for_each(c):
            saved = (c.to, c.site)
            out = []
            for site in sorted(set(region(c))):
                if site < 0:
                    continue
                c.to = c.site = site
                out.extend(gen(c))
            c.to, c.site = saved
            if not out and otherwise is not None:
                return otherwise(c)
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        return for_each


@ludeme("apply")
class ApplyMoves(Moves):
    """`(apply [if:<cond>] <moves>)` where moves are expected: the moves when the condition
    holds (or is absent), else none (Ludii's Apply is itself a list of moves; within a
    (to ...) it is the destination's effect, `moves.Apply`). Example:

        (forEach Site (sites Board) (apply if:(is Next (who at:(site))) (remove (site))))
    """
    concepts = ()

    params = (P("if", Bool, opt=True, named=True), P("effect", Moves, opt=True))

    def compile(self, env):
        if self.effect is None:
            raise self.fail("(apply ...) as moves needs its moves")
        effect = env.compile(self.effect)
        if self.if_ is None:
            return effect
        cond = env.compile(self.if_)
        return lambda c: effect(c) if cond(c) else []


def applied_actions(state, move, as_last_move: bool = False) -> list:
    """Apply a move's actions and consequents to `state`, as the engine applies them;
    every action applied, in order. `as_last_move`: the move is stored as the last one
    played first, so its consequents read it as (last From/To)."""
    done: list = []
    state._apply_move_effects(move, as_last_move, done)
    return done


def decides(lud) -> bool:
    """Whether moves generate decisions, as Ludii marks them: a `(move ...)` ludeme, or the
    pieces' own moves through `(forEach Piece)`, anywhere in the tree but in consequents
    (an effect such as `(add ...)` or `(set Var ...)` decides nothing)."""
    if not isinstance(lud, Moves):
        return False
    if lud.keyword == "move" or (lud.keyword == "forEach" and lud.kind == "Piece"):
        return True
    return any(decides(x) for name, v in lud._fields.items() if name != "then"
               for x in (v if isinstance(v, (list, tuple)) else (v,)))


def prepended(pre_actions: list[list], actions) -> list:
    """A next move's actions with the prior moves' put before them as Ludii's Do does
    (prependPreMoves): the first prior move's at the start, each later one's inserted at
    the index that is the number of actions of the one before it (not their sum: with three
    or more prior moves of different lengths, a later one lands among an earlier one's
    actions, and the move applies them in that order)."""
    out = list(actions)
    at = 0
    for acts in pre_actions:
        out[at:at] = acts
        at = len(acts)
    return out


@ludeme("do")
class Do(Moves):
    """`(do <moves> [next:<moves>] [ifAfterwards:<cond>] [(then ...)])` (Ludii's Do): with
    `ifAfterwards:`, the moves after which the condition holds (checked on a copy with the move
    and its consequents applied); with `next:`, the next moves generated after the first ones
    were applied, each carrying their actions first."""
    concepts = ("DoLudeme", "CopyContext")

    params = (P("prior", Moves), P("next", Moves, opt=True, named=True),
              P("ifAfterwards", Bool, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        prior_decides = decides(self.prior)
        # A next move that decides nothing is named after the first of the prior decisions
        # (below): their order is then Ludii's, (forEach Piece) walking its owned lists.
        named_after_prior = (self.next is not None and self.ifAfterwards is None
                             and prior_decides and not decides(self.next))
        env.ludii_piece_order += named_after_prior
        env.renames_moves |= named_after_prior
        try:
            prior = env.compile(self.prior)
        finally:
            env.ludii_piece_order -= named_after_prior
        nxt = env.compile(self.next) if self.next is not None else None
        cond = env.compile(self.ifAfterwards) if self.ifAfterwards is not None else None
        then = _then(env, self)
        if nxt is None and cond is None:
            raise self.fail("(do ...) needs next: or ifAfterwards:")
        has_dice = bool(getattr(env, "dice", None))

        def passes(c, m):
            probe = c.s.clone()
            probe._apply_move_effects(m, True)   # the move and its consequents, as Move.apply
            if probe.mover == probe.next:
                probe.next = probe.prev
            held = cond(probe.ctx)
            probe.ctx = None    # the copy and its context refer to each other: freed now
            return held

        auto = getattr(self.ifAfterwards, "auto_succeeds", None)
        auto = auto() if auto is not None else None

        def do(c):
            if cond is not None:   # Ludii then ignores next: (it computes it and drops it)
                out = prior(c)
                if auto is None or not auto():      # Ludii's autoSucceeds skips the check
                    out = [m for m in out if passes(c, m)]
            else:
                s = c.s
                pre_moves = prior(c)
                if pre_moves and all(not m.then and all(a[0] == A_SET_VAR for a in m.actions)
                                     for m in pre_moves):
                    # Only variables change: set them here, generate, restore (no copy).
                    pre_actions = [list(m.actions) for m in pre_moves]
                    saved = dict(s.notes)
                    for a in (a for acts in pre_actions for a in acts):
                        s.do_action(a)
                    out = nxt(c)
                    s.notes = saved
                else:
                    probe = s.clone()
                    pc = probe.ctx      # the next moves see the same iteration variables
                    pc.from_, pc.to, pc.site, pc.player = c.from_, c.to, c.site, c.player
                    pc.level, pc.between, pc.pips = c.level, c.between, c.pips
                    pre_actions = [applied_actions(probe, m) for m in pre_moves]
                    out = nxt(pc)
                decided = [m for m in pre_moves if m.frm >= 0 or m.to >= 0] \
                    if prior_decides else ()
                for m in out:
                    m.actions = prepended(pre_actions, m.actions)
                    if decided and m.frm < 0 and m.to < 0:
                        # Ludii names a move by its first decision action: the actions
                        # put before a next move that decides nothing (a score, a
                        # variable) name it after the first prior decision, the first in
                        # Ludii's order (the prior was compiled to keep it). The move's own
                        # ends stay the next move's, undefined: (last To) reads -1.
                        first = decided[0]
                        m.ends = (m.frm, m.to)
                        m.frm, m.to, m.is_pass = first.frm, first.to, False
                        m.level_from, m.level_to = first.level_from, first.level_to
                if not out and has_dice:
                    # Ludii: with dice, a turn with nothing to play still shows the roll,
                    # each prior move's actions put first in turn (the last ends first).
                    out = [Move(-1, -1, 0, [a for acts in reversed(pre_actions) for a in acts]
                                + [(A_PASS,)], (), True)]
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        if cond is not None:
            prior_moves = lazy_moves(prior)

            def lazy_do(c):
                """The same moves, each tested when it is asked for (Ludii's movesIterator)."""
                passing = auto is not None and auto()
                for m in prior_moves(c):
                    if passing or passes(c, m):
                        if then:
                            m.then = tuple(m.then) + then
                        yield m
            do.lazy = lazy_do
        return do


@ludeme("while")
class While(Moves):
    """`(while <cond> <moves> [(then ...)])` (Ludii's While): on a copy of the position, as
    long as the condition holds, every move the moves generate is applied (with its
    consequents) and kept; the moves kept, in that order, are the result. In a consequent,
    `(then (while (< (count Sites in:(sites Occupied by:P1)) 3) (add (to (sites Empty)))))`
    fills empty sites until P1 has three. A condition that never fails stops the game, as
    Ludii's does after a bounded number of rounds."""
    concepts = ("CopyContext",)

    params = (P("condition", Bool), P("moves", Moves), P("then", "Then", opt=True))

    # Ludii's Constants.MAX_NUM_ITERATION: more rounds than this and While gives up.
    MAX_ROUNDS = 10000

    def compile(self, env):
        cond = env.compile(self.condition)
        gen = env.compile(self.moves)
        then = _then(env, self)
        lud = self

        def while_(c):
            probe = c.s.clone()
            pc = probe.ctx      # the moves see the same iteration variables
            pc.from_, pc.to, pc.site, pc.player = c.from_, c.to, c.site, c.player
            pc.level, pc.between, pc.pips = c.level, c.between, c.pips
            out = []
            rounds = 0
            while cond(pc):
                for m in gen(pc):
                    applied_actions(probe, m)
                    out.append(m)
                rounds += 1
                if rounds > lud.MAX_ROUNDS:
                    raise lud.fail("(while ...) never ends: its condition stays true")
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        return while_


@emits(While, kind="consequent", refuses=(("then", "with (then ...) as a consequent"),))
def _while_consequent(src, lud, lines, ind):
    """`While.compile` applied: while the condition holds, the moves made (each round's on
    the position before any of them is applied, as any consequent's) applied in turn. The
    reference applies them on a copy, then each again, with its consequents, on the
    position itself: the same writes in the same order. More rounds than the reference
    allows stop the game as it does."""
    k = len(lines)
    lines += [f"{ind}wr{k} = 0", f"{ind}while {src.bool_expr(lud.condition)}:"]
    src.consequent(lud.moves, lines, ind + "    ")
    lines += [f"{ind}    wr{k} += 1", f"{ind}    if wr{k} > {While.MAX_ROUNDS}:",
              f"{ind}        raise ValueError('(while ...) never ends: its condition stays "
              "true')"]


@emits(Do, kind="moves")
def _do_moves(src, lud, out, ind):
    """`(do <moves> ifAfterwards:<cond>)`: the moves after which the condition holds, each
    tested when it is pushed on a copy of the position (its (then ...) included, the
    (do ...)'s own and those enclosing it not, as the reference checks it). With `next:`,
    after a roll (`ludemes.dice.roll_then_moves`) or after settings of variables
    (`_do_next_moves`)."""
    if lud.next is not None and lud.ifAfterwards is None:
        from .dice import rolls
        if rolls(lud):
            from .dice import roll_then_moves
            roll_then_moves(src, lud, out, ind)
            return
        nested = _roll_then_effects(lud)
        if nested is not None:
            from .dice import roll_then_moves
            roll_then_moves(src, nested, out, ind, play=lud)
            return
        return _do_next_moves(src, lud, out, ind)
    refuse(lud, ("next", "with next: beside ifAfterwards:"))
    auto = getattr(lud.ifAfterwards, "auto_succeeds", None)
    if src.threat_probe and auto is not None and auto() is not None:
        # While a threat is looked for, a condition that holds by Ludii's autoFail flag
        # (whatever part of it is known, `auto_succeeds`, reads that flag) is not checked.
        with src.enclosing_then(lud):
            src.moves(lud.prior, out, ind)
        return
    with src.enclosing_then(lud):
        # The (then ...)s enclosing the moves from here outwards follow a move that passed.
        src.push_tests.append(src.holds_after(lud.ifAfterwards, depth=len(src.outer_thens)))
        try:
            src.moves(lud.prior, out, ind)
        finally:
            src.push_tests.pop()


def _holds(lud, test) -> bool:
    """Whether a ludeme or one of its arguments, at any depth, passes the test."""
    if isinstance(lud, (list, tuple)):
        return any(_holds(x, test) for x in lud)
    fields = getattr(lud, "_fields", None)
    if fields is None:
        return False
    return test(lud) or any(_holds(v, test) for v in fields.values())


def _reads_dice(lud) -> bool:
    """Whether ludemes hold one of the dice's (`ludemes.dice`: pips, faces, dice used...)."""
    from . import dice
    return _holds(lud, lambda x: type(x).__module__ == dice.__name__)


def _sets_variables(lud, names: set) -> bool:
    """Whether moves set one of these variables (a (set Var ...) anywhere in them)."""
    from .memory import SetVar
    return _holds(lud, lambda x: type(x) is SetVar and x.name in names)


def _roll_then_effects(lud):
    """`(do (and (roll) <effects>...) next:<moves>)` as `(do (roll) next:(do (and
    <effects>...) next:<moves>))`, the same moves (the roll's actions, the effects' then
    each next move's; with dice, a pass that makes them where no next move is) where the
    effects read no die (the reference makes them before the roll is applied, the nested
    form after), or None for other first moves."""
    from .dice import Roll
    from .moves import MovesAnd
    prior = lud.prior
    if type(prior) is not MovesAnd or prior.then is not None:
        return None
    parts = list(prior.moves) + list(prior.more or [])
    if len(parts) < 2 or type(parts[0]) is not Roll:
        return None
    if _reads_dice(parts[1:]):
        return None     # the reference makes them all before the roll is applied
    rest = parts[1] if len(parts) == 2 else \
        MovesAnd(prior.node, prior.path, moves=parts[1:], more=None, then=None)
    inner = Do(lud.node, lud.path, prior=rest, next=lud.next, ifAfterwards=None, then=None)
    return Do(lud.node, lud.path, prior=parts[0], next=inner, ifAfterwards=None,
              then=lud.then)


def _do_next_moves(src, lud, out, ind):
    """`(do <sets of variables> next:<moves>)`: the variables set (as the reference does
    without a copy), the next moves generated, the variables restored; each next move
    carries the settings before its own actions. While moves are only looked for, the
    next moves are looked for in a kernel of their own, so the variables are restored.
    After other first moves, `_do_after_effects`."""
    names = _variables_set(lud.prior)
    if names is None:
        return _do_after_effects(src, lud, out, ind)
    if src.reaching:
        return _do_next_looked_for(src, lud, out, ind)
    if src.first_mode:      # its any-mode answer says that there is a move, not which
        raise Unsupported(lud, "with next: where the first move is looked for")
    prior: list[str] = []
    src.effect_body(lud.prior, prior)
    text = src.with_helpers(prior)
    if _STEP_WRITES.search(text) or "_AFTER]" in text:
        # the settings are made again where a move is applied, once the turn has counted
        # it, noted its destination and emptied the pending values
        raise Unsupported(lud, "with next: after settings of variables that read what a move "
                               "applied changes before its effects (the moves counted, the "
                               "last destination after consequents, pending values)")
    d = len(ind)
    saved = [f"dv{d}_{i}" for i in range(len(names))]
    out.extend(f"{ind}{v} = {src.variable(name)}" for v, name in zip(saved, names))
    out.extend(ind + x for x in prior)
    _next_moves(src, lud, out, ind, prior, (A_SET_VAR,))
    out.extend(f"{ind}{src.variable(name)} = {v}" for v, name in zip(saved, names))
    _found_next(src, out, ind)


def _do_next_looked_for(src, lud, out, ind) -> None:
    """`(do <moves> next:<moves>)` while a threat is looked for (moves that are only asked
    whether one reaches a site, or whether there is one): the first moves' effects applied
    to a copy of the position, made the kernel's own while the next moves are looked for in
    it, the kernel's own arrays given back after them whatever the answer (no move is
    applied, so no next move carries the effects)."""
    from ludeme.engine.compiled.codegen import _draws
    if _draws(lud.prior) or _draws(lud.next):
        raise Unsupported(lud, "with next: drawing from the chance stream, while a threat "
                               "is looked for")
    if src.any_mode and getattr(src.env, "dice", None):
        out.append(f"{ind}return True")     # a pass at least (`_next_moves`)
        return
    prior: list[str] = []
    src.effect_body(lud.prior, prior)
    d = len(ind)
    arrays = ("who", "what", "count", "sc")
    out += [f"{ind}{', '.join(f'dl{a}{d}' for a in arrays)} = {', '.join(arrays)}",
            f"{ind}{', '.join(arrays)} = {', '.join(f'{a}.copy()' for a in arrays)}",
            *(ind + x for x in prior)]
    with src.enclosing_then(lud):
        src.moves(lud.next, out, ind)
    out.append(f"{ind}{', '.join(arrays)} = {', '.join(f'dl{a}{d}' for a in arrays)}")


def _next_moves(src, lud, out, ind, prefix: list, codes: tuple, here: bool = False) -> None:
    """The next moves of a (do ...), on the position after its first moves, each carrying
    `prefix` (the first moves' effect lines, of these action kinds) before its own, and in a
    game with dice, where there is none, a pass that makes them; while moves are only
    looked for, whether there is one, in `found_<indent>`, or with `here` (and no dice),
    looked for in the kernel itself (the first found answers; its tests apply the prefix)."""
    outer = src.effect_prefix
    lines, kinds = outer if outer is not None else ([], ())
    # where a move is applied, the last move is still the one before it (as here)
    last = ["last_from, last_to = sc[LAST_FROM], sc[LAST_TO]"]
    # Ludii: with dice, no next move is a pass that makes the first moves' effects
    dice = bool(getattr(src.env, "dice", None))
    if src.any_mode and not (here and not dice):
        found = "True" if dice else src.any_move_kernel(lud.next)
        out.append(f"{ind}found_{len(ind)} = {found}")
        return
    if dice:
        out.append(f"{ind}dk{len(ind)} = k")
    src.effect_prefix = (lines + last + prefix, (*kinds, *codes))
    try:
        with src.enclosing_then(lud):
            src.moves(lud.next, out, ind)
    finally:
        src.effect_prefix = outer
    if dice:
        g = src.new_generator(lines + last + prefix, is_pass=True, lud=lud)
        out.append(f"{ind}if k == dk{len(ind)}:")
        src.push(out, ind + "    ", "-1", "-1", g)


def _found_next(src, out, ind) -> None:
    """In any-mode, the answer of `_next_moves` once the position is restored."""
    if src.any_mode:
        out.append(f"{ind}if found_{len(ind)}:")
        out.append(f"{ind}    return True")


def _do_after_effects(src, lud, out, ind):
    """`(do <effects> next:<moves>)` after first moves that change more than variables (the
    reference applies them to a copy): the position saved, the first moves' effects
    applied (in a kernel of their own), the next moves generated, the position restored;
    each next move carries those effects before its own. The (do ...) must begin where
    (from) and (to) are undefined (a phase's moves, or moves joined at their top), as the
    effects read them, here and where a move is applied."""
    why = "with next: after moves other than (set Var ...)"
    if src.reaching or src.threat_probe and src.any_mode:
        return _do_next_looked_for(src, lud, out, ind)
    if src.threat_probe:
        raise Unsupported(lud, f"{why} while a threat is looked for")
    if src.first_mode:
        raise Unsupported(lud, f"{why} where the first move is looked for")
    from ludeme.engine.compiled.codegen import _draws
    if _draws(lud.prior) or _draws(lud.next):
        # the position is restored after the moves are generated: its chance stream too
        raise Unsupported(lud, f"{why} drawing from the chance stream")
    if not any(_at_top(m, lud) for m in src.phase_moves()):
        if _siteless(lud.prior):
            return _do_after_settings(src, lud, out, ind, f"{why} inside other moves")
        if src.any_mode:
            # only whether there is a move is asked ((can Move ...)): no move is applied,
            # so none carries the first moves' effects (as while a threat is looked for)
            return _do_next_looked_for(src, lud, out, ind)
        raise Unsupported(lud, f"{why} inside other moves")
    prior: list[str] = []
    src.effect_body(lud.prior, prior)
    text = src.with_helpers(prior)
    if _STEP_WRITES.search(text):
        # the effects are made again where a move is applied, after the turn has counted
        # it and emptied the pending values
        raise Unsupported(lud, f"{why} that read what a move applied changes before its "
                               "effects (the moves counted, pending values)")
    tag = None
    if "_AFTER]" in text:
        # (last To afterConsequence:True) is the move's own destination once it is applied:
        # each next move carries the one read here as its extra, which its effects read
        top = "\n".join(prior)
        if "LAST_FROM_AFTER" in text or text.count("LAST_TO_AFTER") != top.count(
                "sc[LAST_TO_AFTER]") or src.move_tag is not None:
            raise Unsupported(lud, f"{why} that read (last From afterConsequence:True), or "
                                   "(last To afterConsequence:True) in a kernel of their own")
        tag = "sc[LAST_TO_AFTER]"
    d = len(ind)

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(who, what, count, sc, phase):",
                          src.context(), *("    " + x for x in prior), "    return 0", ""])
    arrays = ("who", "what", "count", "sc")
    out.extend(f"{ind}ds{a}{d} = {a}.copy()" for a in arrays)
    out.append(f"{ind}{src.helper(make)}(who, what, count, sc, phase)")
    if tag is not None:
        prior = [x.replace(tag, "x") for x in prior]
    prefix = [f"dpf{d}, dpt{d} = frm, to", "frm = -1", "to = -1", *prior,
              f"frm, to = dpf{d}, dpt{d}"]
    saved = src.move_tag, src.move_tag_packed, src.test_position
    src.move_tag, src.move_tag_packed = tag, False
    if not src.any_mode:
        # a test of a next move (its (do ... ifAfterwards:), or one around this) applies its
        # effects, the first moves' among them, to the position before they were applied
        # (in any-mode, the next moves carry none: the position they are looked for in)
        src.test_position = ", ".join(f"ds{a}{d}" for a in arrays)
    siteless = src.siteless_pushes
    try:
        _next_moves(src, lud, out, ind, prefix, src.action_codes(prior))
    finally:
        src.move_tag, src.move_tag_packed, src.test_position = saved
    if src.siteless_pushes != siteless and decides(lud.prior) and not _siteless(lud.prior):
        raise Unsupported(lud, f"{why} that may decide, before a next move without sites "
                               "(it would take their sites)")
    out.extend(f"{ind}restore({a}, ds{a}{d})" for a in arrays)
    _found_next(src, out, ind)


def _do_after_settings(src, lud, out, ind, why: str) -> None:
    """`(do <settings> next:<moves>)` where the next moves read nothing the settings (of
    values, without sites) change: the next moves generated on the position as it is, each
    carrying the settings before its own actions (as the reference makes them on a copy
    with the settings applied). Refused (`why`) where they read what the settings write."""
    from .moves import _reads, _writes
    prior: list[str] = []
    src.effect_body(lud.prior, prior)
    text = src.with_helpers(prior)
    if _STEP_WRITES.search(text) or "_AFTER]" in text or _READS_SITES.search(text):
        # made again where a move is applied: after the turn counted it, and with (from),
        # (to) the next move's
        raise Unsupported(lud, why)
    nxt: list[str] = []
    here = src.any_mode and not getattr(src.env, "dice", None)
    saved, src.prefix_unapplied = src.prefix_unapplied, True
    try:
        _next_moves(src, lud, nxt, ind, prior, src.action_codes(prior), here=here)
    finally:
        src.prefix_unapplied = saved
    # the tests of the moves pushed apply the settings the moves carry: not a read here
    generated = [x for x in nxt]
    for test in src.test_calls:
        generated = [x.replace(test, "True") for x in generated]
    if _reads(generated) & _writes(prior):
        raise Unsupported(lud, why)
    out.extend(nxt)
    if not here:
        _found_next(src, out, ind)


# The locals of the moves being generated around a (do ...): its (from), (to), (between),
# (site).
_READS_SITES = re.compile(r"\b(frm|to|btw|site)\b")


# What the kernels' `step` changes before a move's effects are made.
_STEP_WRITES = re.compile(r"NUM_MOVES|NUM_DECISIONS|\bALLP\b|PENDN|PENDING|pending_one"
                          r"|\bSTALE\b|REPLAYED")


def _at_top(moves, lud) -> bool:
    """Whether `lud` is `moves`, or one of the moves joined at its top ((or ...), (and ...),
    (if ...), (priority ...), a (do ...)'s next moves or the moves its ifAfterwards: tests),
    where (from) and (to) are as they are at the top."""
    from .moves import MovesAnd, MovesIf, MovesOr
    if moves is lud or type(moves) is Do and type(lud) is Do and moves.node is lud.node:
        return True         # (or one written as (do ...)s of its parts: `_roll_then_effects`)
    if type(moves) in (MovesAnd, MovesOr):
        parts = list(moves.moves) + list(moves.more or [])
    elif type(moves) is MovesIf:
        parts = [moves.then_, moves.else_]
    elif type(moves) is Priority:
        parts = list(moves.lists) + [moves.second]
    elif type(moves) is Do:
        # its next moves, or the moves a (do ... ifAfterwards:) tests
        parts = [moves.next if moves.ifAfterwards is None else moves.prior]
    else:
        return False
    return any(_at_top(m, lud) for m in parts if m is not None)


def _siteless(lud) -> bool:
    """Whether moves make only moves without sites (settings of values, remembered or
    pending values, as the reference's moves at (-1, -1)), whatever they read."""
    from .memory import ForgetValue, RememberValue, SetPending, SetPlayerValue, SetVar
    from .moves import MovesAnd, MovesIf
    if type(lud) in (SetVar, SetPending, SetPlayerValue, RememberValue, ForgetValue):
        return lud.then is None
    if type(lud) is MovesAnd and lud.then is None:
        return all(_siteless(m) for m in list(lud.moves) + list(lud.more or []))
    if type(lud) is MovesIf and lud.then is None:
        return _siteless(lud.then_) and (lud.else_ is None or _siteless(lud.else_))
    return False


def _variables_set(lud) -> list | None:
    """The names of the variables that moves which can only set variables set (`(if)`s and
    `(and)`s over `(set Var ...)`s, no (then ...)), or None for other moves."""
    from .memory import SetVar
    from .moves import MovesAnd, MovesIf
    if type(lud) is SetVar and lud.then is None:
        return [lud.name]
    if type(lud) is MovesAnd and lud.then is None:
        parts = [_variables_set(m) for m in list(lud.moves) + list(lud.more or [])]
        if any(p is None for p in parts):
            return None
        return list(dict.fromkeys(n for p in parts for n in p))
    if type(lud) is MovesIf and lud.then is None:
        parts = [_variables_set(lud.then_)] + \
            ([_variables_set(lud.else_)] if lud.else_ is not None else [])
        if any(p is None for p in parts):
            return None
        return list(dict.fromkeys(n for p in parts for n in p))
    return None


@emits(Do, kind="consequent")
def _do_consequent(src, lud, lines, ind):
    """`(do <moves> next:<moves>)` as a consequent: each next move (generated once the first
    moves are applied) is applied with the first moves' actions before its own, then its
    consequents and the (do ...)'s (then ...); with no next move, nothing is applied. The
    next moves are counted on the position after the first ones (`moves.moves_made`): where
    there may be several, the first moves must only set variables (the settings, made once,
    count as actions once per next move, as the reference applies them again)."""
    if lud.ifAfterwards is not None:
        return _do_tested(src, lud, lines, ind, "as a consequent",
                          lambda m, out: src.consequent(m, out, ""))
    _do_applied(src, lud, lines, ind, "as a consequent",
                lambda m, out: src.consequent(m, out, ""))


@emits(Do, kind="effect")
def _do_effect(src, lud, body):
    """`(do <moves> next:<moves>)` as an effect of another move (its `(apply ...)`): as a
    consequent (`_do_consequent`), each part as an effect."""
    if lud.ifAfterwards is not None:
        return _do_tested(src, lud, body, "", "as an effect",
                          lambda m, out: src.effect_body(m, out))
    _do_applied(src, lud, body, "", "as an effect", lambda m, out: src.effect_body(m, out))


def _do_tested(src, lud, lines, ind, where: str, part) -> None:
    """`(do <moves> ifAfterwards:<cond>)` applied where it is made (`where`: as a consequent,
    as an effect): its move is applied where the condition holds once it is, on a copy of
    the position (the move stored as the last one, the mover not moving again), as the
    reference tests each move it makes; then the (do ...)'s (then ...). The first moves
    must make one move at most, without sites or consequents of their own (the settings of
    values: the move stored is then at (-1, -1), by no player)."""
    if lud.next is not None:
        raise Unsupported(lud, f"with next: beside ifAfterwards: {where}")
    if not _siteless(lud.prior) or not _one_setting(lud.prior):
        if where != "as a consequent":
            # (its kernel applies moves by `effects`, which would then call it)
            raise Unsupported(lud, f"with ifAfterwards: {where} after moves other than one "
                                   "setting of a value (a variable, a remembered or pending "
                                   "value)")
        lines.append(f"{ind}{_tested_kernel(src, lud, apply=True)}")
        return
    prior: list[str] = []
    part(lud.prior, prior)
    test = src.bool_expr(lud.ifAfterwards)
    after = ["sc[LAST_TO_AFTER] = sc[LAST_FROM_AFTER] = -1"] if src.reads_after else []
    probe = ["    who, what, count = who.copy(), what.copy(), count.copy()",
             "    sc, phase = sc.copy(), phase.copy()", src.context(local=()),
             *("    " + x for x in prior),
             "    sc[LAST_FROM], sc[LAST_TO], sc[LAST_MOVER] = -1, -1, 0",
             *("    " + x for x in after),
             "    if sc[MOVER] == sc[NEXT]:", "        sc[NEXT] = sc[PREV]",
             src.context(), f"    return {test}"]
    held = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        *probe, ""]))
    then: list[str] = []
    if lud.then is not None:
        then = ["frm = -1", "to = -1"]
        emit("then", src, lud.then, then)
    lines.append(f"{ind}if {held}(who, what, count, sc, phase, frm, to, btw):")
    lines.extend(f"{ind}    {x}" for x in prior + then)


def _tested_kernel(src, lud, apply: bool) -> str:
    """A call of a kernel that generates the first moves of a `(do <moves> ifAfterwards:
    <cond>)` made as a consequent (into buffers of its own, as a phase's moves), each kept
    where the condition holds once it is applied to a copy of the position (its actions
    and its own consequents, the move stored as the last one, the mover not moving again:
    `Source.holds_after`), and returns how many are kept; with `apply`, it applies each
    kept move in turn before (its actions, its consequents, then the (do ...)'s (then
    ...)), as the reference applies a consequent's moves."""
    from ludeme.engine.compiled.codegen import counted_actions
    first = len(src.generators)
    body: list[str] = []
    with _generated_apart(src):
        src.push_tests = [src.holds_after(lud.ifAfterwards, depth=0)]
        src.moves(lud.prior, body, "    ")
    loop: list[str] = []
    if apply:
        # each generator's effect and consequents written here, as `effects` and
        # `consequents` hold them (calling those could call this kernel again)
        loop = ["for i_ in range(k):",
                "    frm, to, x = mf[i_], mt[i_], mx[i_]",
                "    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]", "    btw = -1"]
        for g in range(first, len(src.generators)):
            effect, _, then = src.generators[g]
            loop += [f"    {'if' if g == first else 'elif'} mg[i_] == {g}:",
                     *("        " + y for y in counted_actions(effect, src.reads_after)),
                     "        mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]",
                     "        btw = -1",
                     *("        " + y for y in counted_actions(then, src.reads_after))]
        if lud.then is not None:
            then = ["frm = -1", "to = -1"]
            emit("then", src, lud.then, then)
            loop += ["    " + x for x in counted_actions(then, src.reads_after)]
    kernel = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        src.context(local=()), "    k = 0",
        *(f"    {b} = np.empty(MAX_BUFFER, np.int64)" for b in ("mf", "mt", "mg", "mx")),
        *body, *("    " + x for x in loop), "    return k", ""]))
    return f"{kernel}(who, what, count, sc, phase, frm, to, btw)"


def _one_setting(lud) -> bool:
    """Whether moves without sites (`_siteless`) make one move at most: one setting, or an
    (if ...) of such."""
    from .moves import MovesAnd, MovesIf
    if type(lud) is MovesIf:
        return _one_setting(lud.then_) and (lud.else_ is None or _one_setting(lud.else_))
    return _siteless(lud) and type(lud) is not MovesAnd


def _after_first_moves(src, prior: list[str], count: str) -> str:
    """The call of a helper kernel that reads `count` (an integer expression) on a copy of
    the position after a (do ...)'s first moves (their lines `prior`), where the reference
    makes its next moves."""
    probe = ["    who, what, count = who.copy(), what.copy(), count.copy()",
             "    sc, phase = sc.copy(), phase.copy()", src.context(local=()),
             *("    " + x for x in prior), f"    return {count}"]
    after = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        *probe, ""]))
    return f"{after}(who, what, count, sc, phase, frm, to, btw)"


def _do_applied(src, lud, lines, ind, where: str, part) -> None:
    """The lines of a (do ...) whose moves are applied where they are made, `where` (as a
    consequent, as an effect); `part(moves, out)` gives the lines of its moves there. They
    make a kernel of their own (its actions counted there), called as one statement that
    may write anything: moves around it that must read the position before it see so."""
    from ludeme.engine.compiled.codegen import counted_actions
    if lud.next is None:
        raise Unsupported(lud, f"without next: {where}")
    made = moves_made(src, lud.next)
    if made is None:
        # counted by generating them on the position after the first moves
        made = generated_count(src, lud.next), 2, False
    count, most, always = made
    names = _variables_set(lud.prior)
    then: list[str] = []
    if lud.then is not None:
        if most > 1:
            raise Unsupported(lud, f"with (then ...) {where} whose next: may make several "
                                   "moves")
        then = ["frm = -1", "to = -1"]
        emit("then", src, lud.then, then)
    prior: list[str] = []
    part(lud.prior, prior)
    nxt: list[str] = []
    part(lud.next, nxt)
    if always and most == 1:
        body = prior + nxt + then
    elif names is not None:
        if _sets_variables(lud.next, set(names)):
            raise Unsupported(lud, f"{where} whose next: moves set the variables the first "
                                   "moves set")
        saved = [f"dcv_{i}" for i in range(len(names))]
        body = [*(f"{v} = {src.variable(name)}" for v, name in zip(saved, names)),
                "dca = sc[NUM_ACTIONS]", *prior, f"dck = {count}", "if dck == 0:",
                *(f"    {src.variable(name)} = {v}" for v, name in zip(saved, names)),
                "    sc[NUM_ACTIONS] = dca", "else:",
                # the settings count once per next move
                "    sc[NUM_ACTIONS] += (dck - 1) * (sc[NUM_ACTIONS] - dca)",
                *("    " + x for x in nxt + then)]
    elif most > 1:
        body = _each_after_removals(src, lud, where, prior, part)
    else:
        # Whether the next move is made is asked of a copy of the position after the
        # first moves.
        body = [f"if {_after_first_moves(src, prior, count)} > 0:",
                *("    " + x for x in prior + nxt + then)]
    body = counted_actions(body, src.reads_after)
    kernel = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        src.context(local=()), *("    " + x for x in body), "    return", ""]))
    lines.append(f"{ind}{kernel}(who, what, count, sc, phase, frm, to, btw)")


@contextmanager
def _generated_apart(src):
    """While moves are generated in a kernel of their own, as a phase's moves (into its own
    buffers, none of the moves around them pushing or testing them, (to) undefined)."""
    saved = (src.any_mode, src.first_mode, src.reaching, src.threat_probe, src.outer_thens,
             src.push_tests, src.direction_to, src.test_position, src.effect_prefix,
             src.move_tag, src.move_tag_packed)
    src.any_mode = src.first_mode = src.reaching = src.threat_probe = False
    src.outer_thens, src.push_tests = [], []
    src.direction_to = src.test_position = src.effect_prefix = src.move_tag = None
    src.move_tag_packed = False
    try:
        yield
    finally:
        (src.any_mode, src.first_mode, src.reaching, src.threat_probe, src.outer_thens,
         src.push_tests, src.direction_to, src.test_position, src.effect_prefix,
         src.move_tag, src.move_tag_packed) = saved


def generated_count(src, moves) -> str:
    """How many moves `moves` makes as a consequent on the position now, as an integer
    expression: a kernel of its own generates them (as a phase's moves, into buffers of its
    own, nothing applied) and counts them. Their consequents and those around them play no
    part (nothing is applied); moves a (do ... ifAfterwards:) tests are tested."""
    body: list[str] = []
    with _generated_apart(src):
        src.moves(moves, body, "    ")
    counted = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        src.context(local=()), "    k = 0",
        *(f"    {b} = np.empty(MAX_BUFFER, np.int64)" for b in ("mf", "mt", "mg", "mx")),
        *body, "    return k", ""]))
    return f"{counted}(who, what, count, sc, phase, frm, to, btw)"


def counted_after(src, lud) -> tuple | None:
    """`moves_made` of a `(do <moves> next:<moves>)` as a consequent: its next moves counted
    on a copy of the position with its first moves applied (by their count where known, else
    generated, `generated_count`); the most they may make (2 for several), never always."""
    if lud.ifAfterwards is not None and lud.next is None:
        # its first moves that pass the test, counted where they are tested (as many as
        # they make at most; several where that is not known)
        try:
            made = moves_made(src, lud.prior)
        except Unsupported:
            made = None
        return _tested_kernel(src, lud, apply=False), 2 if made is None else made[1], False
    if lud.next is None or lud.ifAfterwards is not None:
        return None
    made = moves_made(src, lud.next)
    if made is not None and made[2]:
        return made         # always as many, whatever the first moves did
    count, most = (made[0], made[1]) if made is not None else (generated_count(src, lud.next), 2)
    prior: list[str] = []
    src.consequent(lud.prior, prior, "")
    return _after_first_moves(src, prior, count), most, False


def counted_per_site(src, lud) -> tuple | None:
    """`moves_made` of a `(forEach Site <region> <moves>)` as a consequent: its moves at each
    site counted (by their count there, on the position before any is applied, as the
    reference makes them all first), added up in a kernel of its own; None where a site's
    are not counted, or with noMoveYet:."""
    if lud.noMoveYet is not None:
        return None
    inner = moves_made(src, lud.generator)
    if inner is None:
        return None
    body = ["if site >= 0:", "    to = site", f"    total += {inner[0]}"]
    loop: list[str] = []
    _each_site(src, lud.region, loop, "    ", body)
    total = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        src.context(local=()), "    total = 0", *loop, "    return total", ""]))
    return f"{total}(who, what, count, sc, phase, frm, to, btw)", 2, False


COUNTERS[Do] = counted_after
COUNTERS[ForEachSite] = counted_per_site


def _each_after_removals(src, lud, where: str, prior: list[str], part) -> list[str]:
    """The lines of a (do <removals> next:(and <parts>)) applied where it is made, whose
    parts make one move at most each: the reference makes the next moves on a copy after
    the first moves, then applies each, the first moves' actions before its own. Each part
    that makes a move on such a copy is applied after the removals are made again on the
    position as it then is (a site they emptied stays empty, as the reference's actions
    repeated leave it; a piece put back there goes again, as there), their actions counted
    as the reference's: as often as the first time. First moves other than removals made
    at once, an (and ...) with a (then ...) of its own, or a part that may make several
    moves, refused."""
    from ludeme.engine.state import A_REMOVE
    from .moves import MovesAnd
    why = f"{where} after moves other than (set Var ...), where next: may make several moves"
    nxt = lud.next
    if type(nxt) is not MovesAnd or nxt.then is not None:
        raise Unsupported(lud, why)
    if set(src.action_codes(prior)) != {A_REMOVE} or "CLEAR +" in src.with_helpers(prior):
        raise Unsupported(lud, why + " (first moves other than removals made at once)")
    tests, applied = ["dcn = 0", "dca = 0"], []
    for i, m in enumerate(list(nxt.moves) + list(nxt.more or [])):
        made = moves_made(src, m)
        if made is None or made[1] > 1:
            raise Unsupported(lud, why)
        if made[2]:
            test = "True"
        else:
            # whether the part makes its move, asked of a copy after the first moves (as
            # the reference makes them all there, before any is applied)
            test = f"{_after_first_moves(src, prior, made[0])} > 0"
        tests.append(f"dcm_{i} = {test}")
        lines: list[str] = []
        part(m, lines)
        # the first moves made again before each, their actions counted as the first time
        applied += [f"if dcm_{i}:", "    dcb = sc[NUM_ACTIONS]", *("    " + x for x in prior),
                    "    if dcn == 0:", "        dca = sc[NUM_ACTIONS] - dcb",
                    "    else:", "        sc[NUM_ACTIONS] = dcb + dca",
                    "    dcn += 1", *("    " + x for x in lines)]
    out = tests + applied
    return out


@ludeme("all", "Passed")
class AllPassed(Bool):
    """`(all Passed)`: every player's last turn was a pass (Ludii's AllPassed)."""
    concepts = ()

    params = ()

    def compile(self, env):
        n = env.num_players
        return lambda c: c.s.num_moves >= n and c.s._all_passed()


@emits(AllPassed, kind="bool")
def _all_passed(src, lud):
    """Kept by the turn loop after each decision (`sc[ALLP]`), from the decisions' history."""
    src.reads_all_passed = True
    return "(sc[NUM_MOVES] >= NP and sc[ALLP] != 0)"


@ludeme("no", "Pieces")
class NoPieces(Bool):
    """`(no Pieces [<role>|<player>|of:<player>] ["Name"] [in:<region>])`: (count Pieces
    ...) with the same arguments is 0."""
    concepts = ("NoPiece", "NoPieceMover if role == Mover", "NoPieceNext if role == Next")

    params = (P("type", SiteType, opt=True), P("role", RoleType, opt=True, default="All"),
              P("who", IntFn, opt=True), P("of", IntFn, opt=True, named=True),
              P("name", LitStr, opt=True), P("in", Region, opt=True, named=True))

    def compile(self, env):
        from .ints import CountPieces
        if self.who is not None and self.of is not None:
            raise self.fail("(no Pieces ...) takes a player or of:, not both")
        who = self.who if self.who is not None else self.of
        count = CountPieces(self.node, self.path, type=self.type, role=self.role, who=who,
                            of=None, name=self.name, in_=self.in_)
        # compiled here, not through env.compile: its cache is keyed by id(), which this
        # short-lived ludeme would hand on to the next one made at the same address
        f = count.compile(env)
        return lambda c: f(c) == 0


@ludeme("priority")
class Priority(Moves):
    """`(priority {<moves> ...} [(then ...)])` or `(priority <moves> <moves>)`: the first list of
    moves that is not empty."""
    concepts = ("Priority",)

    params = (P("lists", Moves, many=True), P("second", Moves, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        lists = self.lists + ([self.second] if self.second is not None else [])
        gens = [env.compile(m) for m in lists]
        then = _then(env, self)

        def priority(c):
            for g in gens:
                out = g(c)
                if out:
                    if then:
                        for m in out:
                            m.then = tuple(m.then) + then
                    return out
            return []
        return priority


@ludeme("set", "NextPlayer")
class SetNextPlayer(Moves):
    """`(set NextPlayer <player>)`: who moves after this turn."""
    concepts = ()      # Ludii's SetNextPlayer names the concept only as a decision

    params = (P("player", IntFn), P("then", "Then", opt=True))

    def compile(self, env):
        who = env.compile(self.player)
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_NEXT, who(c))], then)]


@emits(SetNextPlayer, kind="consequent", refuses=(("then", "as a consequent"),))
def _set_next_player_consequent(src, lud, lines, ind):
    """Who moves after this turn (one action; the turn counts as replayed, as the
    reference's (moveAgain) does)."""
    lines.append(f"{ind}sc[NEXT] = {src.int_expr(lud.player)}")
    lines.append(f"{ind}sc[REPLAYED] = 1")


emits(SetNextPlayer, kind="effect", refuses=(("then", "as an effect"),))(
    lambda src, lud, body: _set_next_player_consequent(src, lud, body, ""))
emits(SetNextPlayer, kind="one_move", refuses=(("then", "as an effect"),))(
    lambda src, lud: "True")     # one setting, always


@emits(SetNextPlayer, kind="moves")
def _set_next_player_moves(src, lud, out, ind):
    """One move (from = to = -1), always made, whose action names the player the next mover
    (worked out when it is applied, in the state it was made in; the turn counts as
    replayed, as the reference's A_NEXT)."""
    body: list[str] = []
    _set_next_player_consequent(src, lud, body, "")
    src.push(out, ind, "-1", "-1", src.new_generator(body, lud=lud, kind=A_NEXT))


@ludeme("forEach", "Value")
class ForEachValue(Moves):
    """`(forEach Value min:<int> max:<int> <moves>)` or `(forEach Value <values> <moves>)`:
    the moves generated with each value as `(value)`."""
    concepts = ("ControlFlowStatement",)

    params = (P("values", (Region, "IntArrayFn"), opt=True),
              P("min", IntFn, opt=True, named=True),
              P("max", IntFn, opt=True, named=True), P("generator", Moves),
              P("then", "Then", opt=True))

    def compile(self, env):
        if self.values is None and (self.min is None or self.max is None):
            raise self.fail("(forEach Value ...) needs values or min: and max:")
        if self.values is not None and (self.min is not None or self.max is not None):
            raise self.fail("(forEach Value ...) takes values or min: and max:, not both")
        if self.values is not None:
            values = env.compile(self.values)
        else:
            lo, hi = env.compile(self.min), env.compile(self.max)
            values = lambda c: range(lo(c), hi(c) + 1)  # noqa: E731
        gen = env.compile(self.generator)
        then = _then(env, self)

        from .foreach import gather
        return lambda c: gather(c, "value", values(c), gen, then)


@emits(ForEachValue, kind="moves")
def _for_each_value_moves(src, lud, out, ind):
    """The moves generated once per value, lowest first, `(value)` the value in them (as
    `gather` sets it while they are generated). Over min: to max: written as numbers, the
    number is written into them; over computed bounds, a loop's local holds it while they
    are generated, and each move carries it as its extra, read back when it is applied. A
    consequent that reads `(value)` is refused (the reference reads it when the move is
    applied, after the iteration)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import ValueVar
    from .literals import fixed_int
    if _then_reads(lud, ValueVar, mentions):
        raise Unsupported(lud, "with a consequent that reads (value)")
    if lud.values is not None:
        _for_computed_values(src, lud, out, ind)
        return
    try:
        lo, hi = fixed_int(lud, "min", 0), fixed_int(lud, "max", 0)
    except Unsupported:
        _for_computed_values(src, lud, out, ind)
        return
    outer = src.value_written
    try:
        with src.enclosing_then(lud):
            for v in range(lo, hi + 1):
                src.value_written = v
                src.moves(lud.generator, out, ind)
    finally:
        src.value_written = outer


# The local holding `(value)` in a (forEach Value ...) over computed bounds, and its moves'
# effects (which read it from the move's extra, `x`).
_VALUE_LOCAL = "value_v"


def _for_computed_values(src, lud, out, ind):
    """`_for_each_value_moves` over bounds read in play or an int array's values (in the
    reference's order): a loop over the values, each move made inside carrying its value
    beside its own extra (packed as a die's tag is, `TAGGED`: the value plus
    `_VALUE_OFFSET`, below it; refused inside another such loop or (forEach Die)); a helper
    kernel reading it is handed it (`Source.helper`)."""
    if src.value_written is not None or src.move_tag is not None:
        raise Unsupported(lud, "over computed bounds inside another loop that tags its moves")
    first = len(src.generators)
    out.append(f"{ind}for {_VALUE_LOCAL} in {_values_sequence(src, lud)}:")
    out.append(f"{ind}    if not -{_VALUE_OFFSET} <= {_VALUE_LOCAL} < {_VALUE_OFFSET}:")
    out.append(f"{ind}        raise ValueError('a value of (forEach Value) out of 32 bits')")
    packed = src.move_tag_packed
    src.value_written, src.move_tag, src.move_tag_packed = \
        _VALUE_LOCAL, f"({_VALUE_LOCAL} + {_VALUE_OFFSET})", True
    try:
        with src.enclosing_then(lud):
            src.moves(lud.generator, out, ind + "    ")
    finally:
        src.value_written = src.move_tag = None
        src.move_tag_packed = packed
    out.append(f"{ind}    pass")
    for g in range(first, len(src.generators)):
        effect, is_pass, then = src.generators[g]
        if any(src.reads_value_local(x, _VALUE_LOCAL) for x in then):
            raise Unsupported(lud, "with a consequent that reads (value)")
        if any(src.reads_value_local(x, _VALUE_LOCAL) for x in effect):
            # a pass's extra is the tag alone; a move's is split first (`Source.new_generator`,
            # `xdie_` the tag)
            effect.insert(0 if is_pass else 2, f"{_VALUE_LOCAL} = "
                          f"{'x' if is_pass else 'xdie_'} - {_VALUE_OFFSET}")


# A (forEach Value ...)'s value kept in a move's extra, beside the move's own, as a die's
# tag is (`emit.TAGGED`): offset to be at least 0.
_VALUE_OFFSET = 1 << 31


# The local holding `(value)` in a (forEach Value ...) made as a consequent.
_VALUE_CONSEQUENT = "value_c"


@emits(ForEachValue, kind="consequent")
def _for_each_value_consequent(src, lud, lines, ind):
    """Every move made with each value (from min: to max:, lowest first, or an int
    array's in the reference's order), applied in that order. The reference makes them all
    (the bounds too) on the position before any is applied: where one writes what the loop
    reads, the loop reads a copy of it (`moves.made_before_applied`). Its (then ...)
    follows each move made (`moves._counted_part`: one at most for a value), read with no
    (value) bound (another (forEach Value ...) there reads its own). Refused inside
    another (forEach Value ...)."""
    from .ints import ValueVar
    from .moves import each_move_then, made_before_applied, then_after_move
    if src.value_written is not None:
        raise Unsupported(lud, "as a consequent inside another (forEach Value ...)")
    after = None
    if lud.then is not None:
        if _reads_unbound(lud.then, ValueVar):
            raise Unsupported(lud, "with (then ...) that reads (value), as a consequent")
        after = then_after_move(src, lud)
    loop = [f"for {_VALUE_CONSEQUENT} in {_values_sequence(src, lud)}:"]
    thens: dict[str, list[str]] = {}
    src.value_written = _VALUE_CONSEQUENT
    try:
        loop += each_move_then(src, lud, lud.generator, after, thens)
    finally:
        src.value_written = None
    loop.append("    pass")
    loop = made_before_applied(lud, lud.generator, loop, thens, "whose moves read what an "
                               "earlier value's changed (the reference reads the position "
                               "before any)", src)
    lines.extend(ind + x for x in loop)


def _reads_unbound(lud, cls) -> bool:
    """Whether ludemes read `cls` ((value)) where no (forEach Value ...) inside them binds it:
    one's moves read its own value; its bounds, values and (then ...) do not."""
    if isinstance(lud, (list, tuple)):
        return any(_reads_unbound(x, cls) for x in lud)
    fields = getattr(lud, "_fields", None)
    if fields is None:
        return False
    if isinstance(lud, cls):
        return True
    skip = "generator" if type(lud) is ForEachValue else None
    return any(_reads_unbound(v, cls) for k, v in fields.items() if k != skip)


def _values_sequence(src, lud) -> str:
    """What a (forEach Value ...) iterates over, as a compiled expression: the range from
    min: to max:, or the int array of its values (in the reference's order, repeats kept;
    remembered values in the order they were remembered)."""
    if lud.values is None:
        if lud.min is None or lud.max is None:
            raise Unsupported(lud, "with min: or max: alone")
        return f"range({src.int_expr(lud.min)}, {src.int_expr(lud.max)} + 1)"
    from .intarray import array_expr
    return array_expr(src, lud.values)


def _then_reads(lud, cls, mentions) -> bool:
    """Whether a `(then ...)` of the ludeme or of one inside it mentions `cls`."""
    if isinstance(lud, (list, tuple)):
        return any(_then_reads(x, cls, mentions) for x in lud)
    fields = getattr(lud, "_fields", None)
    if fields is None:
        return False
    then = fields.get("then")
    if then is not None and mentions(then, (cls,)):
        return True
    return any(_then_reads(v, cls, mentions) for k, v in fields.items() if k != "then")


class _Extreme(IntFn):
    # the array: an int array, or values read as a region ((values Remembered))
    params = (P("a", IntFn, opt=True), P("b", IntFn, opt=True),
              P("values", IntFn, opt=True, many=True),
              P("array", ("IntArrayFn", Region), opt=True))
    pick = min

    def compile(self, env):
        if self.array is not None:
            if self.a is not None or self.values:
                raise self.fail(f"({self.keyword} ...) takes two values or an array")
            # Ludii's Max/Min of an int array: -1 when it is empty
            array, pick = env.compile(self.array), type(self).pick
            return lambda c: pick(got) if (got := array(c)) else -1
        if self.values:
            if self.a is not None or self.b is not None:
                raise self.fail(f"({self.keyword} ...) takes two values or an array")
            fns = [env.compile(v) for v in self.values]
        elif self.a is not None and self.b is not None:
            fns = [env.compile(self.a), env.compile(self.b)]
        else:
            raise self.fail(f"({self.keyword} ...) takes two values or an array of values")
        pick = type(self).pick
        return lambda c: pick(f(c) for f in fns)


@ludeme("min")
class Min(_Extreme):
    """`(min <int> <int>)` or `(min {<int> ...})`: the smallest."""
    concepts = ("Minimum",)


@ludeme("max")
class Max(_Extreme):
    """`(max <int> <int>)` or `(max {<int> ...})`: the largest."""
    concepts = ("Maximum",)

    pick = max


@ludeme("+")
class Sum(IntFn):
    """`(+ {<int> ...})` or `(+ <int array>)`: the sum of the values."""
    concepts = ("Addition",)

    params = (P("values", IntFn, many=True, opt=True), P("array", "IntArrayFn", opt=True))

    def compile(self, env):
        if (self.array is None) == (not self.values):
            raise self.fail("(+ ...) takes two values, an array {...} or an int array")
        if self.array is not None:
            array = env.compile(self.array)
            return lambda c: sum(array(c))
        fns = [env.compile(v) for v in self.values]
        return lambda c: sum(f(c) for f in fns)


@emits(IsNext, kind="bool")
def _is_next(src, lud):
    """The state's next player now (a (moveAgain) before it makes the mover next)."""
    who = src.role_expr(lud.role, lud) if lud.role is not None else src.int_expr(lud.player)
    return f"(sc[NEXT] == {who})"


@emits(ForEachSite, kind="moves")
def _for_each_site_moves(src, lud, out, ind):
    """The moves with each site of the region, in increasing order, as (site) and (to)
    (the regions' loops list their sites in that order; a static region is sorted here);
    the noMoveYet: moves when they gave none."""
    body: list[str] = ["if site >= 0:", "    to = site"]
    with src.enclosing_then(lud):
        src.moves(lud.generator, body, "    ")
    body.append("    pass")
    mark = f"fk{len(out)}"
    out.append(f"{ind}{mark}, sv = k, to" if not src.any_mode else f"{ind}sv = to")
    _each_site(src, lud.region, out, ind, body)
    out.append(f"{ind}to = sv")
    if lud.noMoveYet is not None:
        if not src.any_mode:
            out.append(f"{ind}if k == {mark}:")
            ind += "    "
        src.moves(lud.noMoveYet, out, ind)
        out.append(f"{ind}pass")


def _each_site(src, region, out, ind, body):
    """The lines of `body` for each site of the region as `site` (a static region sorted
    here, the regions' loops listing theirs in increasing order)."""
    if src.is_static_region(region):
        sites = sorted(set(src.env.compile(region)(src.probe())))
        if sites:
            out.append(f"{ind}for site in {src.table(sites)}:")
            out.extend(f"{ind}    {x}" for x in body)
    else:
        src.for_region(region, out, ind, body)


@emits(ForEachSite, kind="consequent", refuses=("noMoveYet",))
def _for_each_site_consequent(src, lud, lines, ind):
    """Every move made with each site of the region, applied in that order. The reference
    makes them all (the region too) on the position before any is applied: where one
    writes what the loop reads, the loop reads a copy of it (`moves.on_position_before`)."""
    from .moves import SNAPSHOT, _has_then, _on_snapshot, on_position_before, then_after_move
    why = "whose moves read what an earlier site's changed (the reference reads the " \
          "position before any)"
    body: list[str] = ["if site >= 0:", "    to = site"]
    if lud.then is not None:
        body.append("    " + _BEFORE_MOVE)
    src.consequent(lud.generator, body, "    ")
    body.append("    " + (_AFTER_MOVE if lud.then is not None else "pass"))
    loop = ["sv = to"]
    _each_site(src, lud.region, loop, "", body)
    loop.append("to = sv")
    if lud.then is None:
        loop = on_position_before(lud, lud.generator, loop, why, src)
        lines.extend(ind + x for x in loop)
        return
    # Its (then ...) follows each move made, applied at once (as the reference appends it
    # to each move's own): the moves are made on a copy of the position before any, the
    # consequents read the position itself. A site's move is known made by its actions.
    if not at_most_one_move(lud.generator) or _has_then(lud.generator):
        raise Unsupported(lud, "with (then ...) after moves that may be several at a site")
    then = then_after_move(src, lud)    # a kernel of its own: its locals kept apart
    k = next(_SITE_THENS)
    out = [SNAPSHOT]
    for line in _on_snapshot(lud, loop, why):
        body = line.lstrip()
        pad = line[:len(line) - len(body)]
        if body == _BEFORE_MOVE:
            out.append(pad + f"na_site{k} = sc[NUM_ACTIONS]")
        elif body == _AFTER_MOVE:
            out += [pad + f"if sc[NUM_ACTIONS] != na_site{k}:",
                    *(pad + "    " + x for x in then), pad + "    to = site"]
        else:
            out.append(line)
    lines.extend(ind + x for x in out)


# A number for each (forEach Site ...) with consequents: their locals kept apart.
_SITE_THENS = itertools.count()

# The places of a (forEach Site ...)'s consequents' lines in its loop (`_on_snapshot` keeps
# them as they are).
_BEFORE_MOVE, _AFTER_MOVE = "BEFORE_SITE_MOVE", "AFTER_SITE_MOVE"


def at_most_one_move(m) -> bool:
    """Whether a ludeme makes one move at most, whose consequents read neither (last From)
    nor (last To): (moveAgain), (fromTo ...) between two sites, a (remove ...) of one
    site, an (add ...) on one site (one placement, `_add_one_move`), an (if ...) of them."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import LastFrom, LastTo
    from .moves import MoveAgain, MovesIf, RemoveEffect
    if m is None or type(m) is MoveAgain:
        return True
    if type(m) is MovesIf:
        return m.then is None and at_most_one_move(m.then_) and at_most_one_move(m.else_)
    if type(m) is FromTo:
        return not isinstance(m.from_.site, Region) and not isinstance(m.to.site, Region) \
            and (m.then is None or not mentions(m.then, (LastFrom, LastTo)))
    if type(m) is Claim:            # a claim of one site: one move where it may go
        return (m.to.site is None or isinstance(m.to.site, IntFn)) and m.then is None
    if type(m) is RemoveEffect:     # one move where the site holds a piece
        return isinstance(m.where, IntFn) and \
            (m.then is None or not mentions(m.then, (LastFrom, LastTo)))
    if type(m) is AddEffect:        # one placement where the piece has a kind
        return isinstance(m.to.site, IntFn) and m.to.level is None and \
            (m.then is None or not mentions(m.then, (LastFrom, LastTo)))
    return False


# As an effect (inside an (apply ...) of a move or a sowing) its moves are made and applied
# the same way.
emits(ForEachSite, kind="effect", refuses=("noMoveYet", ("then", "as an effect")))(
    lambda src, lud, body: _for_each_site_consequent(src, lud, body, ""))


@emits(IntIf, kind="int")
def _int_if(src, lud):
    b = src.int_expr(lud.else_) if lud.else_ is not None else "-1"
    return f"({src.int_expr(lud.then_)} if {src.bool_expr(lud.cond)} else {b})"


@emits(BoolIf, kind="bool")
def _bool_if(src, lud):
    b = src.bool_expr(lud.else_) if lud.else_ is not None else "False"
    return f"({src.bool_expr(lud.then_)} if {src.bool_expr(lud.cond)} else {b})"


@emits(Priority, kind="moves")
def _priority_moves(src, lud, out, ind):
    """Each list of moves while none before it gave a move (in any-mode, the first move
    found answers, whichever list it is in)."""
    lists = list(lud.lists) + ([lud.second] if lud.second is not None else [])
    with src.enclosing_then(lud):
        for i, moves in enumerate(lists):
            if src.any_mode:
                src.moves(moves, out, ind)
                continue
            mark = f"pk{len(out)}"
            out.append(f"{ind}{mark} = k")
            src.moves(moves, out, ind)
            if i + 1 < len(lists):
                out.append(f"{ind}if k == {mark}:")
                ind += "    "
                out.append(f"{ind}pass")


@emits(Priority, kind="consequent")
def _priority_consequent(src, lud, lines, ind):
    """The moves of the first list that makes some, applied (`Priority.compile`): each
    list's moves counted on the position before any is applied (`moves.moves_made`), the
    last one's not needed; a (then ...) follows each move made (`moves._counted_part`)."""
    from .moves import _counted_part, then_after_move
    lists = list(lud.lists) + ([lud.second] if lud.second is not None else [])
    after = then_after_move(src, lud) if lud.then is not None else None
    for i, moves in enumerate(lists):
        last = i + 1 == len(lists)
        if after is not None:
            own, then = _counted_part(src, lud, moves, after, ind + ("" if last else "    "))
            body = own + then
        else:
            body = []
            src.consequent(moves, body, ind + ("" if last else "    "))
        if last:
            lines += body
            break
        made = moves_made(src, moves)
        if made is None:
            raise Unsupported(lud, "as a consequent, with a list whose moves are not counted")
        lines.append(f"{ind}if {made[0]} > 0:")
        lines += body
        lines.append(f"{ind}else:")
        ind += "    "
        lines.append(f"{ind}pass")


@emits(Min, Max, kind="int")
def _extreme_expr(src, lud):
    if lud.array is not None:
        from .intarray import array_extreme
        return array_extreme(src, lud.array, type(lud).pick.__name__)
    parts = list(lud.values) if lud.values else [lud.a, lud.b]
    if any(p is None for p in parts):
        raise Unsupported(lud, "without two values")
    return f"{type(lud).pick.__name__}({', '.join(src.int_expr(p) for p in parts)})"


@emits(Sum, kind="int")
def _sum_expr(src, lud):
    if lud.array is not None:
        from .intarray import array_sum
        return array_sum(src, lud.array)
    return f"({' + '.join(src.int_expr(v) for v in lud.values)})"


@ludeme("add")
class AddEffect(MoveAdd):
    """`(add [(piece ...)] (to ...) [count:] [stack:] [(then ...)])`: (move Add ...) as an
    effect (Ludii's Add is one class for both)."""
    concepts = ("AddEffect",)


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(NoPieces, kind="bool", refuses=("type",))
def _no_pieces(src, lud):
    """As the reference: (count Pieces ...) of the same role or player, name and region
    is 0."""
    from .ints import CountPieces
    count = CountPieces(lud.node, lud.path, type=None, role=lud.role,
                        who=lud.who if lud.who is not None else lud.of, of=None,
                        name=lud.name, in_=lud.in_)
    return f"({src.int_expr(count)} == 0)"


@emits(CountIn, kind="int", refuses=("type",))
def _count_in(src, lud):
    """Each listed site's count (a site listed twice counts twice, as the reference); a
    region listed now (once or per mover) is a table of its sites."""
    refuse_stacks(src, lud)     # the reference sums the stacks' sizes
    if not src.is_static_region(lud.in_):
        if lookup("contains", lud.in_) and not src.reads_only_from(lud.in_):
            return _count_where(src, src.region_contains(lud.in_, "s_in"))
        return src.count_in(lud, lud.in_, per_site="count[site]", distinct=True)
    sites, by_player = src.static_sites(lud.in_)
    rows = [[x for x in ss if x >= 0] for ss in (sites if by_player else [sites])]
    t_sites, t_len = (src.table(a) for a in src.padded(rows))

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(count, row):",
                          "    total = 0", f"    for j in range({t_len}[row]):",
                          f"        total += count[{t_sites}[row, j]]",
                          "    return total", ""])
    return f"{src.helper(make)}(count, {'mover' if by_player else '0'})"


def _count_where(src, test: str) -> str:
    """The counts of the sites `s_in` where `test` holds (a region that lists no site
    twice, read as a test of each site)."""
    bound = ", player" if src.player_bound else ""     # (player) of forEach Player/NonMover

    def make(name):
        return "\n".join(["@njit(cache=True)",
                          f"def {name}(who, what, count, sc, phase, frm, to{bound}):",
                          src.context(local=("btw",)), "    total = 0",
                          "    for s_in in range(TOTAL):", f"        if {test}:",
                          "            total += count[s_in]", "    return total", ""])
    return f"{src.helper(make)}(who, what, count, sc, phase, frm, to{bound})"


@emits(RegionIf, kind="contains")
def _region_if_contains(src, lud, site):
    other = src.region_contains(lud.else_, site) if lud.else_ is not None else "False"
    return (f"({src.region_contains(lud.then_, site)} if {src.bool_expr(lud.cond)} "
            f"else {other})")


@emits(RegionIf, kind="for_region")
def _region_if_loop(src, lud, out, ind, body):
    """The first region's loop when the condition holds (read once, before it), else the
    second's."""
    out.append(f"{ind}if {src.bool_expr(lud.cond)}:")
    src.for_region(lud.then_, out, ind + "    ", body)
    out.append(f"{ind}    pass")
    if lud.else_ is not None:
        out.append(f"{ind}else:")
        src.for_region(lud.else_, out, ind + "    ", body)
        out.append(f"{ind}    pass")


@emits(RegionIf, kind="array")
def _region_if_array(src, lud):
    """As an int array ((forEach Value (if ... (values Remembered "A") ...))): the first
    array when the condition holds, else the second (empty when there is none); refused
    where a branch has no array form."""
    from .intarray import array_expr
    other = array_expr(src, lud.else_) if lud.else_ is not None else "np.empty(0, np.int64)"
    return f"({array_expr(src, lud.then_)} if {src.bool_expr(lud.cond)} else {other})"


@emits(FromTo, kind="effect", refuses=("copy", "mover"))
def _from_to_effect(src, lud, body):
    """One site to one site, `count:` pieces (read before any moves, with (from) and (to)
    as they were), the destination's effect first; nothing from an empty site. With
    stack:True (a stacking game), the whole stack, or the top `count:` levels in order,
    moves at once. Its own (then ...) follows the move, with (from) and (to) undefined (as
    the reference applies a nested move)."""
    fr, to = lud.from_, lud.to
    refuse(fr, "if_")
    refuse(to, "level")
    # no site: (from) and (to) themselves (the reference's `typed_sites_fn` default)
    if not isinstance(fr.site, (IntFn, type(None))) or not isinstance(to.site, (IntFn, type(None))):
        _from_to_regions_effect(src, lud, body)
        return
    f_site = src.int_expr(fr.site) if fr.site is not None else "frm"
    n = src.int_expr(lud.count) if lud.count else "1"
    body += ["sf, st = frm, to",
             f"fs = {f_site}",
             f"if 0 <= fs < TOTAL and (what[fs] > 0 or count[fs] > 0){typed_site(src, fr, 'fs')}:",
             "    frm = fs",
             f"    ts = {src.int_expr(to.site) if to.site is not None else 'to'}",
             "    frm = sf",
             f"    if ts >= 0{typed_site(src, to, 'ts')}:",
             f"        n_moved = {n}",
             "        frm, to = fs, ts"]
    inner: list[str] = []
    moving = src.site_move("frm", "to")
    if fr.level is not None:
        # the piece at that level (read with (from) and (to) on their sites, before the
        # destination's effect; -1 the top, none past the stack) to the destination's top
        if not src.game.stacking:
            raise Unsupported(lud, "with (from ... level:) in a game without stacks")
        inner.append(f"flv = {src.int_expr(fr.level)}")
        moving = src.stack_write("stack_move_level(who, what, count, frm, flv, to, -1)")
    if to.apply is not None:
        from .moves import _apply_lines
        _apply_lines(src, to.apply, inner)
    _from_to_moving(src, lud, inner, moving, lud.stack and fr.level is None)
    cond = src.bool_expr(to.if_) if to.if_ is not None else None
    if cond is not None:
        inner = [f"if {cond}:", *("    " + x for x in inner)]
    body += ["        " + x for x in inner]
    body.append("frm, to = sf, st")


emits(FromTo, kind="consequent", refuses=("copy", "mover"))(
    effect_as_consequent(_from_to_effect))


@emits(FromTo, kind="moves", refuses=("copy", "mover", ("count", "with count: as moves")))
def _from_to_as_moves(src, lud, out, ind):
    """`FromTo.compile`'s moves: one per origin holding a piece (or a count) and destination
    (with (from) on the origin and (to) as it was when the destinations are read, both on
    their sites for `(to if:)`), the destination's effect first, then the top piece (or
    with stack:True the whole stack) moving; its (then ...) after. As (move (from) (to))
    makes them, but for the origin's test."""
    from .moves import _from_to_moves
    refuse(lud.from_, "level", "if_")
    refuse(lud.to, "level")
    _from_to_moves(src, lud, out, ind, occupied="(what[frm] > 0 or count[frm] > 0)")


@emits(FromTo, kind="one_move", refuses=("copy", "mover"))
def _from_to_one_move(src, lud):
    """One site to one site, without a condition: one move where the origin holds a piece
    (a count of them) and the destination is a site (`FromTo.compile`)."""
    fr, to = lud.from_, lud.to
    refuse(fr, "if_")
    refuse(to, "level", ("if_", "with (to if:...)"))
    if not isinstance(fr.site, (IntFn, type(None))) or not isinstance(to.site, (IntFn, type(None))):
        raise Unsupported(lud, "from or to a region, as one move")
    f = src.int_expr(fr.site) if fr.site is not None else "frm"
    t = src.int_expr(to.site) if to.site is not None else "to"
    return (f"(0 <= {f} < TOTAL and (what[{f}] > 0 or count[{f}] > 0)"
            f"{typed_site(src, fr, f)} and {t} >= 0{typed_site(src, to, t)})")


@emits(ByScore, kind="end")
def _by_score_end(src, lud, out, ind):
    """Each final score set in turn (a later one may read an earlier one), then the ranks
    (the lowest score first with misere:True)."""
    for fs in lud.scores or ():
        out.append(f"{ind}sc[SCORE + {src.player_expr(fs.role, fs)}] = {src.int_expr(fs.score)}")
    out.append(f"{ind}rank_by_score(sc, rk, active, NP, SCORE, {bool(lud.misere)})")
    out.append(f"{ind}mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]")


@emits(AddEffect, kind="effect", refuses=(("then", "with (then ...) as an effect"),))
def _add_effect(src, lud, body, after=()):
    """`(add (piece ...) (to <site|region> [if:]) [count:])` applied at once: as the
    reference generates the placements, then applies them, the piece and `count:` are read
    first (with (to) as it was), then the sites where the condition holds with `(to)` on
    each are listed, then the piece is placed on each of them (a kind of 0 or less places
    nothing). `after`: lines applied after each placement (its (then ...), as a
    consequent: `_add_consequent`)."""
    to = lud.to
    n = src.int_expr(lud.count) if lud.count is not None else "1"
    kind, owner = added_piece(src, lud)
    body += [f"ak_, ao_, an_, sa_, saf_ = {kind}, {owner}, {n}, to, frm", "if ak_ > 0:"]
    # (to <type> ...) of a layer of the board the game puts pieces on: `(to)` the element's
    # index, the piece placed at the element's place in the sites (`typed_place`)
    typed, place = typed_place(src, to, "to")
    cond = typed + (f" and {src.bool_expr(to.if_)}" if to.if_ is not None else "")
    if place != "to":
        if to.level is not None or to.apply is not None or after or src.game.hidden_info:
            raise Unsupported(lud, f"to {to.type} sites, a layer of the board the game puts "
                                   "pieces on, with a level, an effect, consequents or hidden "
                                   "pieces")
        add = ["apl_ = " + place, *placed(src, lud, [src.site_add("apl_", "ak_", "ao_", "an_")])]
    else:
        add = placed(src, lud, [src.site_add("to", "ak_", "ao_", "an_")]) + list(after)
    if to.level is not None:
        # (to ... level:): the pieces inserted at that level, read with (to) on the site
        if not isinstance(to.site, IntFn):
            raise Unsupported(lud, "with (to ... level:) over a region, as an effect")
        add = ["alv = " + src.int_expr(to.level), "if alv < 0:",
               "    raise ValueError('(to ... level:) below 0')",
               *placed(src, lud, [_inserted(src, lud, "ak_", "ao_", "alv", "an_")])]
    listed = []
    if to.apply is not None:
        # (to <site> (apply ...)): its effect before the placement, read with (from) on the
        # site too, as the reference chains it
        from .moves import _apply_lines
        side: list[str] = []
        _apply_lines(src, to.apply, side)
        if not isinstance(to.site, IntFn):
            side, add, listed = _placed_twice(src, lud, side, add)
        add = ["asf_ = frm", "frm = to", *side, "frm = asf_", *add]
    # a site of the kernels' (a layer's element: its place is, `typed_place`)
    within = "0 <= to < TOTAL" if place == "to" else "to >= 0"
    if isinstance(to.site, IntFn):
        body += [f"    to = {src.int_expr(to.site)}",
                 f"    if {within}{cond}:", *(f"        {x}" for x in add)]
    else:
        seq, flt = src.region_sites(to.site)
        ok = f" and {flt('to')}" if flt else ""
        listing = [f"    for to in {seq}:", f"        if {within}{ok}{cond}:"]
        body += ["    nad_ = 0", *listing, "            nad_ += 1",
                 "    abuf_ = np.empty(nad_, np.int64)", "    nad_ = 0", *listing,
                 "            abuf_[nad_] = to", "            nad_ += 1",
                 *(f"    {x}" for x in listed),
                 "    for to in abuf_:", *(f"        {x}" for x in add)]
    body.append("frm, to = saf_, sa_")


def _placed_twice(src, lud, side: list[str], add: list[str]):
    """(side, add, lines before the placements) of an (add (to <region> (apply ...))) as an
    effect: as the reference lists its moves, each site's effect is read on the position
    before any placement (a copy of it, `moves._on_snapshot`), and where the effect's
    condition holds (or it has none) the site's move is listed twice, its effect and
    placement applied twice (Ludii's chainRuleCrossProduct), the condition read with (from)
    as it was."""
    from .moves import SNAPSHOT, _has_then, _on_snapshot
    ap = lud.to.apply
    why = "with (to <region> (apply ...)) whose effect cannot read the position before the " \
          "placements, as an effect"
    if _has_then(ap.effect):
        raise Unsupported(lud, why)
    rule = _on_snapshot(lud, [src.bool_expr(ap.if_)], why)[0] if ap.if_ is not None else "True"
    side = _on_snapshot(lud, side, why)
    add = [f"for _atw in range(2 if {rule} else 1):",
           *("    " + x for x in ["asf_ = frm", "frm = to", *side, "frm = asf_", *add])]
    return [], add, [SNAPSHOT]


@emits(AddEffect, kind="one_move", refuses=("count",))
def _add_one_move(src, lud):
    """`MoveAdd.compile`'s one placement on one site: a kind of piece, on one of the sites."""
    to = lud.to
    # an (apply ...) adds actions to the one placement (its if: decides those only)
    refuse(to, "level", "type", ("if_", "with (to if:...)"))
    if not isinstance(to.site, IntFn):
        raise Unsupported(lud, "on a region, as one move")
    return f"({added_piece(src, lud)[0]} > 0 and 0 <= {src.int_expr(to.site)} < TOTAL)"


# Ludii's Add is one class: as moves, (add ...) is (move Add ...).
emits(AddEffect, kind="moves", refuses=("count",))(_add_moves)


@emits(AddEffect, kind="consequent")
def _add_consequent(src, lud, lines, ind):
    """As its effect (`_add_effect`), its (then ...) applied after each placement, as the
    reference appends it to each move (read with (from) and (to) undefined)."""
    from ludeme.engine.compiled.codegen import mentions
    from .moves import then_after_move
    after: list[str] = []
    if lud.then is not None:
        if mentions(lud.then, (AddEffect,)):    # its locals are the placement's own
            raise Unsupported(lud, "with (then ...) that adds pieces, as a consequent")
        after = then_after_move(src, lud)
    body: list[str] = []
    _add_effect(src, lud, body, after)
    lines.extend(ind + x for x in body)
