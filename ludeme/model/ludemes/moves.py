"""Moves: decisions and their effects. Each compiles to `c -> list[Move]`."""

from __future__ import annotations

import itertools
import re

import numpy as np

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_ADD, A_ADD_LEVEL, A_COVER, A_PLACED_FIELD, A_MOVE, A_MOVE_LEVEL, A_MOVE_N, A_MOVE_STACK, A_NEXT, A_PASS, A_REMOVE, A_REMOVE_LATER, A_REMOVE_LEVEL, A_SCORE, A_SET_FIELD, A_SET_SCORE, A_SUBMOVE, Move
from ludeme.engine.stores import TOP
from .base import CLASSES, Bool, DirWord, Enum, IntFn, LitBool, LitStr, Moves, Other, P, Region, RoleType, SiteType, layer_bounds, layer_of, layer_site, lazy_moves, ludeme
from ludeme.engine.compiled.unsupported import RUN_REFUSAL
from ludeme.engine.compiled.emit import (LEVEL_PAIR, LV_ADD, LV_AT, LV_GIVEN, LV_NONE, LV_PAIR,
                                         LV_SUB, LV_TOP, Unsupported, effect_as_consequent, emit,
                                         emits, lookup, part_of,
                                         reads_params_only_from, refuse)
from ..roles import DYNAMIC_WORDS
from .literals import IntConst

_NONE = ()
WhenType = Enum("WhenType", "StartOfTurn EndOfTurn")


def _true(c):
    return True


def _false(c):
    return False


# Site specifications -------------------------------------------------------

@ludeme("from")
class FromSpec(Other):
    """`(from <site|region> [level:] [if:<cond>])`."""

    params = (P("type", SiteType, opt=True), P("site", (IntFn, Region), opt=True),
              P("level", IntFn, opt=True, named=True), P("if", Bool, opt=True, named=True))


@ludeme("to")
class ToSpec(Other):
    """`(to [<site|region>] [level:] [(rotations ...)] [if:<cond>] [(apply ...)])`."""

    params = (P("type", SiteType, opt=True), P("site", (IntFn, Region), opt=True),
              P("level", IntFn, opt=True, named=True),
              P("rotations", "Rotations", opt=True), P("if", Bool, opt=True, named=True),
              P("apply", "Apply", opt=True))


@ludeme("apply")
class Apply(Other):
    """`(apply [if:<cond>] <effect>)`: an effect applied at the destination."""

    params = (P("if", Bool, opt=True, named=True), P("effect", Moves, opt=True))


@ludeme("then")
class Then(Other):
    """`(then <moves>)`: consequents applied after the move."""
    concepts = ("Then",)

    params = (P("moves", Moves), P("applyAfterAllMoves", LitBool, opt=True, named=True))

    def compile(self, env):
        return env.compile(self.moves)


@ludeme("directions")
class Directions(Other):
    """`(directions {N E})` or `(directions Orthogonal)`; `of:` names the relation whose
    directions relative ones (FL, FR, ...) turn among (Ludii's default: Adjacent), and
    `bySite:True` takes those the site has steps in rather than those of the whole board
    (e.g. `(directions {Forwards Rightward Leftward} bySite:True)`)."""

    params = (P("dirs", DirWord, many=True), P("of", DirWord, opt=True, named=True),
              P("bySite", LitBool, opt=True, named=True, default=False))


def _sites_fn(env, spec_site, default):
    """A function c -> sequence of sites from an IntFn (one site) or a Region."""
    if spec_site is None:
        return default
    f = env.compile(spec_site)
    if isinstance(spec_site, IntFn):
        return lambda c: (f(c),)
    return f


def typed_sites_fn(env, spec, default, layered: bool = False):
    """`_sites_fn` for a (from ...) or (to ...) that may name a site type (see typed_sites)."""
    return typed_sites(env, spec, spec.site, spec.type, default, layered)


def typed_sites(env, lud, site_spec, site_type, default, layered: bool = False):
    """`_sites_fn` for a ludeme that may name a site type: the board's own type (or none)
    reads the board; a hand's site is the same whatever the type (Ludii reads containers
    other than the board by cell); a board site on another type's layer is refused when
    reached. On a layer the game puts pieces on (`layer_of`), the elements' own indices,
    for a caller that reads them on the layer (`layered`); refused for any other."""
    fn = _sites_fn(env, site_spec, default)
    if site_type in (None, env.board.site_type):
        return fn
    if layer_of(env, site_type) is not None:
        if not layered:
            name = f"{lud.keyword} {lud.kind}" if lud.kind else lud.keyword
            raise lud.fail(f"({name} {site_type} ...) on a layer of the board the game puts "
                           "pieces on is not supported yet")
        return fn
    first = env.num_board_sites

    def sites(c):
        got = fn(c)
        for site in got:
            if 0 <= site < first:
                name = f"{lud.keyword} {lud.kind}" if lud.kind else lud.keyword
                raise lud.fail(f"({name} {site_type} ...) on the board's sites is "
                               "not supported yet")
        return got
    return sites


def build_unread_sites(env, to) -> None:
    """The sites written in a (to ...) that Ludii's Step, Slide and walks never evaluate
    (their destinations come from the directions; only the to's condition and effect are
    read): built, so their own arguments are checked, and kept out of play."""
    if to is not None and to.site is not None:
        env.compile(to.site)


def from_level_fn(env, lud, spec):
    """The level of a `(from ... level:)` that Ludii's Step and Slide read (None: none). A
    level below Undefined (-1) gives no move, Undefined is no level (the top piece moves),
    a level moves the piece there to the destination's top; stack:True moves the whole
    stack whatever the level says."""
    if spec is None or spec.level is None:
        return None
    if getattr(lud, "stack", False):
        spec.refuse("level", why="a level of a move with stack:True")
    return env.compile(spec.level)


def build_unread_level(env, spec) -> None:
    """The level of a `(from ...)` that Ludii's Hop and Leap never evaluate (they move the
    top piece): built, so its own arguments are checked, and kept out of play."""
    if spec is not None and spec.level is not None:
        env.compile(spec.level)


def _then(env, lud):
    return (env.compile(lud.then),) if lud.then is not None else _NONE


def _with_then(moves, then):
    """`moves`, each with the consequents `then` added after its own, one at a time."""
    for m in moves:
        if then:
            m.then = tuple(m.then) + then
        yield m


def _side_effect(env, to_spec):
    """Ludii's `(to ... (apply [if:<cond>] <effect>))` on a move: a closure c -> the
    effect's actions, to go in front of the move's own (MoveUtilities.chainRuleWithAction
    with prepend), or None. The effect applies only where its condition holds; an effect
    with consequents of its own stays one nested move (`moves_as_actions`), its
    consequents applied right after its actions, as Ludii applies it as a whole move."""
    ap = to_spec.apply if to_spec is not None else None
    if ap is None or ap.effect is None:
        if ap is not None and ap.if_ is not None:
            raise ap.fail("(apply if:...) needs an effect")
        return None
    rule = env.compile(ap.if_) if ap.if_ is not None else None
    effect = env.compile(ap.effect)

    def actions(c):
        if rule is not None and not rule(c):
            return ()
        # Ludii nests each effect move in the decision (chainRuleWithAction), and a nested
        # move brings its consequents when applied: found here on a copy of the position
        acts = []
        for m in effect(c):
            if m.then:
                c.s.clone()._apply_move_effects(m, False, acts)
            else:
                acts.extend(m.actions)
        return acts
    actions.rule = rule         # the condition alone (None: always), for Add's quirk below
    return actions


def _moving_action(env, lud, frm_to_stack: bool):
    """The action kind moving a piece (`stack:False`) or a whole stack (`stack:True`).

    `stack:True` makes the game a stacking one, as it does in Ludii."""
    if frm_to_stack:
        env.stacking = True
        return A_MOVE_STACK
    return A_MOVE


@ludeme("move", "Step")
class MoveStep(Moves):
    """`(move Step [(from [<site>] [level:] [if:]) ] [directions] (to if:...) [stack:]
    [(then ...)])`: a step from the start site (when its `if:` holds) to each neighbour in the
    directions where the destination's condition holds; in a stacking game the top piece
    moves, or the piece at `level:`, e.g. a piece of a stack as (forEach Piece) gives it:

        (piece "King" Each (move Step (from (from) level:(level)) (to if:(is Empty (to)))))
    """
    concepts = ("StepDecision", "StepDecisionToEmpty if to.if has IsEmpty", "StepDecisionToEmpty if not to.if", "IsEmpty if not to.if", "StepDecisionToFriend if to.if has IsFriend", "StepDecisionToEnemy if to.if has IsEnemy", "ReplacementCapture if to.apply has RemoveEffect", "AdjacentDirection if not dirn")

    params = (P("from_", "FromSpec", opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("to", "ToSpec"), P("stack", LitBool, opt=True, named=True, default=False),
              P("then", "Then", opt=True))

    def compile(self, env):
        from_fn = env.site_fn(self.from_)
        from_cond = None
        level_fn = from_level_fn(env, self, self.from_)
        if self.from_ is not None and self.from_.if_ is not None:
            from_cond = env.compile(self.from_.if_)
        self.to.refuse("level", why="a step's destination is found along its directions")
        build_unread_sites(env, self.to)
        to_cond = env.compile(self.to.if_) if self.to.if_ is not None else None
        side = _side_effect(env, self.to)
        region_to = isinstance(self.to.site, Region)
        kind = _moving_action(env, self, self.stack)
        then = _then(env, self)
        # Ludii's Step steps on the site type its (from ...) names (the board's by default),
        # with that type's own steps; the (to ...)'s type is never read.
        site_type = self.from_.type if self.from_ is not None else None
        _ = self.to.type        # Ludii's Step never reads the destination's type
        tables = env.tables_of(site_type)
        store = self._layer_store(env, site_type, tables)
        types = (site_type, site_type)
        nsites = tables.num_board_sites
        dirn = self.dirn or "Adjacent"
        table = targets = None      # the targets of a static direction: read in the loop
        if env.is_static_direction(dirn):
            table = tables.step_targets(dirn, self)
        else:
            keys = env.direction_keys(dirn, self)
            step_to = env.board.trajectories.targets
            known: dict[tuple, tuple] = {}      # (site, direction keys) -> targets

            def targets(c, frm):
                ks = keys(c, frm)
                got = known.get((frm, ks))
                if got is None:
                    got = known[(frm, ks)] = tuple(dict.fromkeys(
                        t for k in ks for t in step_to(frm, k)))
                return got

        iterated = self.from_ is None or self.from_.site is None    # the start is (from)
        moving_top = kind == A_MOVE

        if table is not None and from_cond is None and side is None and level_fn is None \
                and store is None:
            # The common step (a static direction, no start condition, no side effect):
            # the same moves as `step` below, with fewer tests per destination.
            def step_static(c):
                frm = c.from_ if iterated else from_fn(c)
                if frm < 0 or frm >= nsites:
                    return []
                out = []
                saved_from, saved_to = c.from_, c.to
                c.from_ = frm
                lf = c.s.size_stack(frm) - 1 if moving_top and c.stacking else 0
                if to_cond is None:
                    for to in table[frm]:
                        out.append(Move(frm, to, 0, [(kind, frm, to)], then, False, lf))
                else:
                    for to in table[frm]:
                        c.to = to
                        if to_cond(c):
                            out.append(Move(frm, to, 0, [(kind, frm, to)], then, False, lf))
                c.from_, c.to = saved_from, saved_to
                return out
            return step_static

        def step(c):
            frm = from_fn(c)
            if frm < 0 or frm >= nsites:
                return []
            out = []
            saved = (c.from_, c.to)
            # Ludii's Step turns its directions into absolute ones before it sets (from) to
            # the start site: a direction function reads the enclosing (from); so does the
            # level of (from ... level:).
            sites_to = table[frm] if table is not None else targets(c, frm)
            level = level_fn(c) if level_fn is not None else -1
            if level < -1:
                return out
            c.from_ = frm
            # Ludii's Step: (from if:) is read with (from) set to the start site.
            if from_cond is not None and not from_cond(c):
                c.from_, c.to = saved
                return out
            # On a layer, the piece stands at the element's place in the store.
            sf = frm if store is None else store(frm)
            # Ludii's Step: in a stacking game a single piece leaves the top level, or the
            # level given (a flat game has no levels to read).
            lf = c.s.size_stack(sf) - 1 if moving_top and c.stacking else 0
            at_level = level >= 0 and c.stacking
            if at_level:
                lf = level
            for to in sites_to:
                c.to = to
                if to_cond is None or to_cond(c):
                    st = to if store is None else store(to)
                    act = (A_MOVE_LEVEL, sf, level, st, TOP) if at_level else (kind, sf, st)
                    m = Move(frm, to, 0, [act] if side is None else [*side(c), act], then,
                             False, lf)
                    if store is not None:
                        m.site_types = types
                    out.append(m)
            c.from_, c.to = saved
            return out
        return step

    def _layer_store(self, env, site_type, tables):
        """For a step on another site type than the board's: `layer_site` of that type's
        layer (an element's place in the store), else None. Only a layer the game puts
        pieces on holds a piece to step; directions relative to a piece (its facing, the
        last move) are read on the board's own sites, so refused on a layer."""
        if tables is env.tables:
            return None
        store = layer_site(env, site_type)
        if store is None:
            raise self.from_.fail(f"(move Step (from {site_type} ...)) on a layer the game "
                                  "puts no pieces on is not supported yet")
        if not env.is_static_direction(self.dirn or "Adjacent"):
            raise self.fail(f"a step on the {site_type.lower()}s of a board of "
                            f"{env.board.site_type.lower()}s in directions relative to the "
                            "piece or the last move is not supported yet")
        return store


_REMOVE_PARAMS = (P("type", SiteType, opt=True), P("where", (IntFn, Region)),
                  P("level", IntFn, opt=True, named=True),
                  P("at", WhenType, opt=True, named=True),
                  P("count", IntFn, opt=True, named=True), P("then", "Then", opt=True))


@ludeme("move", "Remove")
class MoveRemove(Moves):
    """`(move Remove <site|region> [at:EndOfTurn] [(then ...)])`: one decision per occupied site."""
    concepts = ("RemoveDecision", "CaptureSequence if at")

    params = _REMOVE_PARAMS

    def compile(self, env):
        layered = _layer_removal(env, self, decision=True)
        if layered is not None:
            return layered
        sites = typed_sites(env, self, self.where, self.type, None)
        then = _then(env, self)
        count = env.compile(self.count) if self.count is not None else (lambda c: 1)

        kind = _removal_kind(env, self)
        level = _removal_level(env, self)

        def remove(c):
            what = c.s.what
            out = []
            k = count(c)
            for site in sites(c):
                if site < 0 or what[site] <= 0:
                    continue
                if level is not None:
                    acts, lv = _level_removals(c, site, level(c), k)
                    out.append(Move(site, site, 0, acts, then, level_from=lv, level_to=lv))
                    continue
                out.append(Move(site, site, 0, [(kind, site)] * max(1, k), then))
            return out
        return remove


@ludeme("move")
class MoveFromTo(Moves):
    """`(move (from ...) (to ...) [count:] [copy:] [stack:] [(then ...)])`."""
    # As Ludii 1.3.12's FromTo: the destination condition (to if:) only classifies the
    # decision (to empty, friend or enemy); its own concepts stay out. (Ludii's records set
    # none of the three for a move without the condition.)
    concepts = ("FromToDecision", "-to.if",
                "FromToDecisionEmpty if to.if has IsEmpty",
                "FromToDecisionFriend if to.if has IsFriend",
                "FromToDecisionEnemy if to.if has IsEnemy",
                "ReplacementCapture if to.apply has RemoveEffect",
                "ReplacementCapture if to.apply has FromToEffect")

    params = (P("from_", "FromSpec"), P("to", "ToSpec"), P("count", IntFn, opt=True, named=True),
              P("copy", LitBool, opt=True, named=True, default=False),
              P("stack", LitBool, opt=True, named=True, default=False),
              P("mover", RoleType, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        froms = typed_sites_fn(env, self.from_, lambda c: (c.from_,), layered=True)
        from_cond = env.compile(self.from_.if_) if self.from_.if_ is not None else None
        tos = typed_sites_fn(env, self.to, lambda c: (c.to,), layered=True)
        self._check_constant_destination(env)
        # (from|to <type> ...) of a layer of the board the game puts pieces on: the end's
        # index is the element's, its place in the store another (`layer_site`), and the
        # decision says its types (Ludii's ActionMove typeFrom and typeTo).
        store = layer_site(env, self.to.type)
        from_store = layer_site(env, self.from_.type)
        layered = store is not None or from_store is not None
        types = (self.from_.type or env.board.site_type, self.to.type or env.board.site_type)
        to_cond = env.compile(self.to.if_) if self.to.if_ is not None else None
        side = _side_effect(env, self.to)
        region_to = isinstance(self.to.site, Region)
        then = _then(env, self)
        count = env.compile(self.count) if self.count is not None else None
        copy = self.copy
        if self.stack and copy:
            raise self.fail("stack:True with copy: is not supported yet")
        sub_stack = bool(self.stack) and count is not None
        kind = _moving_action(env, self, self.stack)
        # (from ... level:): the piece at that level moves to the destination's top, and the
        # decision reports that level (Ludii: a level makes the game a stacking one).
        level_from = env.compile(self.from_.level) if self.from_.level is not None else None
        if level_from is not None:
            # With a level, Ludii's FromTo moves that one piece even with stack:True.
            if copy or count is not None:
                raise self.from_.fail("(from ... level:) with copy: or count: is not "
                                      "supported yet")
            env.stacking = True
        # (to ... level:): Ludii's FromTo inserts the piece at that level of the destination
        # (read with (from) and (to) on the sites), the pieces from there up one higher, and
        # the decision reports that level as its destination's.
        level_to = env.compile(self.to.level) if self.to.level is not None else None
        if level_to is not None and (copy or count is not None or self.stack):
            self.to.refuse("level", why="a level to land on with copy:, count: or stack:")

        # Ludii's FromTo: a copy adds the piece without leaving the start (ActionCopy);
        # count: moves that many pieces (ActionMoveN); else the top piece or the stack.
        plain = not copy and count is None and level_from is None and level_to is None
        # (to ... (rotations ...)): Ludii's FromTo makes one move per rotation, each setting
        # the piece's rotation at the destination after it lands; it then applies no effect
        # of the destination.
        rotations = None
        if self.to.rotations is not None:
            self.to.refuse("apply", why="with (rotations ...), which Ludii's FromTo drops it "
                           "for")
            rotations = env.compile(self.to.rotations)
            env.rotated = True

        def actions(c, frm, to, n):
            if level_from is not None or level_to is not None:
                # Ludii's FromTo: a level evaluating to Undefined (-1) is no level at all
                # (the top piece moves; it lands on the top).
                level = level_from(c) if level_from is not None else TOP
                land = level_to(c) if level_to is not None else TOP
                if level >= 0 or land >= 0:
                    return [(A_MOVE_LEVEL, frm, max(level, TOP), to, max(land, TOP))]
                return [(kind, frm, to)]
            if copy:
                # Ludii's ActionCopy moves the piece, its state, rotation and value with it,
                # then puts it back where it was: the copy carries the piece's data.
                s = c.s
                acts = [(A_ADD, to, s.what[frm], s.who[frm], 1)]
                if not s.what[to]:
                    sites = s.sites
                    acts.extend((A_PLACED_FIELD, f, to, TOP, v) for f, v in
                                (("state", sites.state[frm]), ("rotation", sites.rotation[frm]),
                                 ("value", sites.value[frm])) if v)
                return acts
            # In a stacking game, the top `count` levels move together, in order (Ludii's
            # ActionStackMove); else `count` pieces of a counted site (ActionMoveN).
            return [(A_MOVE_N, frm, to, n)]

        def levels(c, frm, to, acts):
            """Ludii's levels of the decision: a level given is reported; a sub-stack starts
            at size - count and lands on the destination's top. One piece moved by Ludii
            1.3.12's FromTo records no level (reported 0), though the top piece leaves:
            its traces show it on boards of cells, vertices and edges, out of hands, under
            the mover's or another player's top piece alike."""
            s = c.s
            if acts[-1][0] == A_MOVE_LEVEL:
                return max(acts[-1][2], 0), max(acts[-1][4], 0)
            if sub_stack:
                return s.size_stack(frm) - acts[-1][3], s.size_stack(to)
            return 0, 0

        # plain and without a side effect: one action, built in the loop below
        simple = plain and side is None and not layered and rotations is None
        large = env.large_pieces
        if large:
            self._refuse_for_large_pieces()

        def from_to(c):
            what = c.s.what
            out = []
            saved = (c.from_, c.to)
            stacking = c.stacking
            flat = simple and not stacking      # the common move: one action, no levels
            for frm in froms(c):
                sf = frm if from_store is None or frm < 0 else from_store(frm)
                # Ludii reads a site past the last container as empty: no move from it
                if not 0 <= sf < len(what) or what[sf] <= 0:
                    continue
                c.from_, c.to = frm, saved[1]
                if from_cond is not None and not from_cond(c):
                    continue
                if large and what[sf] in large:
                    out.extend(_move_large(c, frm, large[what[sf]], tos(c), then))
                    continue
                # Ludii evaluates count: once per origin, with (from) on it and (to) as given
                n = count(c) if count is not None else 1
                if flat and to_cond is None:    # every destination, one action each
                    for to in tos(c):
                        if 0 <= to < len(what):
                            out.append(Move(frm, to, 0, [(kind, frm, to)], then))
                    continue
                for to in tos(c):
                    if to < 0:
                        continue
                    st = to if store is None else store(to)
                    if not 0 <= st < len(what):     # no site, as for the origin
                        continue
                    c.to = to
                    if to_cond is None or to_cond(c):
                        if flat:
                            out.append(Move(frm, to, 0, [(kind, frm, to)], then))
                            continue
                        acts = [(kind, sf, st)] if plain else actions(c, sf, st, n)
                        lf, lt = levels(c, sf, st, acts) if stacking else (0, 0)
                        if rotations is not None:
                            for r in rotations(c):
                                m = Move(frm, to, 0, acts + [(A_SET_FIELD, "rotation", st,
                                                              TOP, r)], then, False, lf, lt)
                                if layered:
                                    m.site_types = types
                                out.append(m)
                            continue
                        if side is not None:
                            acts[:0] = side(c)
                        m = Move(frm, to, 0, acts, then, False, lf, lt)
                        if layered:
                            m.site_types = types
                        out.append(m)
                c.from_ = frm
            c.from_, c.to = saved
            return out
        return from_to


    def _check_constant_destination(self, env) -> None:
        """A destination written as a number past every container's sites is a fault of
        the description: Ludii makes the move and fails when it is applied. Refused here,
        where it is written; a destination computed in play that passes them gives no move
        (as an origin there holds no piece), on both backends."""
        site = self.to.site
        if isinstance(site, IntConst) and self.to.type in (None, env.board.site_type) \
                and site.value >= env.total_sites:
            raise self.to.fail(f"(to {site.value}) is not a site of this game (its sites "
                               f"are 0 to {env.total_sites - 1})")

    def _refuse_for_large_pieces(self):
        # Ludii's FromTo of a large piece (FromTo.evalLargePiece) reads only the sites and
        # the piece: what else this move says would be lost for it.
        for arg in ("count", "mover"):
            if getattr(self, arg) is not None:
                raise self.fail(f"(move ... {arg}...) in a game with large pieces is not "
                                "supported yet")
        if self.copy or self.stack:
            raise self.fail("(move ... copy: or stack:) in a game with large pieces is not "
                            "supported yet")
        self.from_.refuse("level", why="in a game with large pieces")
        self.to.refuse("if_", "apply", "type", "rotations", why="in a game with large "
                       "pieces, Ludii's "
                       "move of a large piece reads only the sites")


def _move_large(c, frm, piece, sites, then=()) -> list:
    """Ludii's FromTo of a large piece: to each destination, or to a cell it covers now, in
    each rotation Add would try, where every cell it would cover is among those or its
    origin; not to where it stands in the state it has. It leaves the cells it covered.
    The move's consequents follow (Ludii's FromTo gives its then to every move it made,
    a large piece's too: MoveUtilities.setGeneratedMovesData)."""
    s = c.s
    now = s.piece_state(frm)
    covered = piece.covered(frm, now)
    dests = [to for to in sites if to >= 0] + list(covered[1:])
    allowed = set(dests)
    allowed.add(frm)
    leave = [(A_COVER, frm, covered, False)] if covered else []
    out = []
    for to in dests:
        for state in piece.add_states():
            cells = piece.covered(to, state)
            if cells and (frm != to or state != now) and all(x in allowed for x in cells):
                out.append(Move(frm, to, 0, [*leave, (A_MOVE, frm, to),
                                             (A_PLACED_FIELD, "state", to, TOP, state),
                                             (A_COVER, to, cells, True)], then))
    return out


@ludeme("move", "Add")
class MoveAdd(Moves):
    """`(move Add [(piece ...)] (to ...) [count:] [stack:] [(then ...)])`: place a new piece."""
    concepts = ("AddDecision",)

    params = (P("piece", "PieceRef", opt=True), P("to", "ToSpec"),
              P("count", IntFn, opt=True, named=True), P("stack", LitBool, opt=True, named=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        tos = typed_sites_fn(env, self.to, lambda c: (c.to,), layered=True)
        # (to <type> ...) of a layer of the board the game puts pieces on (as MoveFromTo)
        store = layer_site(env, self.to.type)
        types = (self.to.type, self.to.type)
        to_cond = env.compile(self.to.if_) if self.to.if_ is not None else None
        then = _then(env, self)
        what_fn = env.compile(self.piece) if self.piece is not None else env.mover_component()
        count = env.compile(self.count) if self.count is not None else None
        if self.stack:
            env.stacking = True     # as in Ludii, stack:True makes the game a stacking one
        on_stack = bool(self.stack)
        # (to ... level:): Ludii's Add inserts the piece at that level of the stack (an
        # ActionInsert, whatever stack: says), the level read with (to) on the site; the
        # decision reports that level, and a level makes the game a stacking one.
        level_fn = env.compile(self.to.level) if self.to.level is not None else None
        if level_fn is not None:
            env.stacking = True
        # (piece ... state:<int>): the new piece starts in that state (Ludii's ActionAdd).
        state = env.compile(self.piece.state) if self.piece is not None \
            and self.piece.state is not None else None

        # (to ... (apply ...)): Ludii's Add chains the effect, found with (from) and (to) on
        # the site, in front of the placement.
        side = _side_effect(env, self.to)
        region_to = isinstance(self.to.site, Region)
        # one action, no state, no level
        simple = not on_stack and state is None and side is None and level_fn is None \
            and store is None
        large = env.large_pieces
        unread = None
        if large:
            unread = self._refuse_for_large_pieces(env)
            rotations = state

        def add(c):
            stacking = c.stacking
            flat = simple and not stacking      # the common placement: no levels either
            out = []
            saved = c.to, c.from_
            what = what_fn(c)
            if what <= 0:
                return out
            if large and what in large:
                if unread:      # what the Add says beside the sites, lost for a large piece
                    raise self.fail(f"(move Add ... {unread}...) of a large piece is not "
                                    "supported yet")
                return _add_large(c, what, large[what], tos(c), rotations)
            owner = c.g.components[what].owner
            k = count(c) if count is not None else 1
            if flat and to_cond is None:        # every destination, one action each
                for to in tos(c):
                    if to >= 0:
                        out.append(Move(to, to, 0, [(A_ADD, to, what, owner, k)], then))
                return out
            for to in tos(c):
                if to < 0:
                    continue
                st = to if store is None else store(to)     # its place in the store
                if st < 0:
                    continue
                c.to = to
                if to_cond is None or to_cond(c):
                    if flat:
                        out.append(Move(to, to, 0, [(A_ADD, to, what, owner, k)], then))
                        continue
                    if level_fn is not None:
                        level = level_fn(c)
                        if level < 0:
                            raise self.to.fail("(to ... level:) below 0 is not supported yet")
                        act = (A_ADD_LEVEL, st, what, owner, k, level)
                    else:
                        act = (A_ADD_LEVEL, st, what, owner, k, TOP) if on_stack else \
                            (A_ADD, st, what, owner, k)
                        # Ludii's ActionAdd reports the level the piece lands on.
                        level = c.s.size_stack(st) if stacking else 0
                    # Ludii's ActionAdd sets the state itself: one action with the Add.
                    acts = [act] if state is None else \
                        [act, (A_PLACED_FIELD, "state", st, TOP, state(c))]
                    twice = False
                    if side is not None:
                        # Ludii's Add over a region lists a move whose effect applies twice
                        # (chainRuleCrossProduct adds it, then the loop again): kept.
                        twice = region_to and (side.rule is None or side.rule(c))
                        c.from_ = to
                        acts[:0] = side(c)
                    m = Move(to, to, 0, acts, then, False, level, level)
                    if store is not None:
                        m.site_types = types
                    out.append(m)
                    if twice:
                        m2 = Move(to, to, 0, list(acts), then, False, level, level)
                        if store is not None:
                            m2.site_types = types
                        out.append(m2)
            c.to, c.from_ = saved
            return out
        return add


    def _refuse_for_large_pieces(self, env):
        """Ludii's Add of a large piece (Add.evalLargePiece) reads only the piece, its state
        and the sites: the first of count:, stack: or then this Add gives, refused when it
        adds a large piece (a small one takes them as anywhere), else None."""
        unread = next((arg for arg in ("count", "stack", "then")
                       if getattr(self, arg) is not None), None)
        self.to.refuse("if_", "apply", "level", "type",
                       why="in a game with large pieces, Ludii's Add reads only the sites")
        return unread


def _add_large(c, what, piece, sites, rotations) -> list:
    """Ludii's Add of a large piece: a move per site and rotation (the piece's state:
    every rotation Add tries, or the one `rotations(c)` gives) where every cell it covers
    is empty."""
    s = c.s
    owner = c.g.components[what].owner
    only = rotations(c) if rotations is not None else None
    out = []
    for to in sites:
        for state in piece.add_states():
            if only is not None and only != state:
                continue
            # a hand's site covers nothing: no walk from it (Component.locs)
            cells = piece.covered(to, state)
            if cells and all(s.is_empty(x) for x in cells):
                out.append(Move(to, to, 0, [(A_ADD, to, what, owner, 1),
                                            (A_PLACED_FIELD, "state", to, TOP, state),
                                            (A_COVER, to, cells, True)]))
    return out


@ludeme("piece")
class PieceRef(IntFn):
    """`(piece "Name"|<id>|{"Name" ...} [role] [state:<int>])` inside `(move Add ...)`: the
    component index to add (its state is read by the ludeme adding it)."""

    params = (P("name", (LitStr, IntFn), many=True), P("role", RoleType, opt=True),
              P("state", IntFn, opt=True, named=True))

    def compile(self, env):
        if len(self.name) != 1:
            raise self.fail("several pieces {...} are read only by (move Promote ...) here")
        name = self.name[0]
        if isinstance(name, str):
            return env.component_fn(name, self.role, self)
        return env.compile(name)


@emits(PieceRef, kind="int")
def _piece_index(src, lud):
    """The component index: a constant, or a table by the mover for a name each player has
    (`"Disc"` as Disc1, Disc2, ...) or a dynamic role."""
    if len(lud.name) != 1:
        raise Unsupported(lud, "several pieces {...}")
    name = lud.name[0]
    if not isinstance(name, str):
        return src.int_expr(name)
    f = src.env.compile(lud)            # the reference's checks of the name and the role
    if lud.role not in (None, "Mover") and lud.role in DYNAMIC_WORDS:
        raise Unsupported(lud, f"of the role {lud.role}")
    return src.by_mover(f)      # a constant, or (a name each player has) by mover


@ludeme("move", "Pass")
class MovePass(Moves):
    """`(move Pass [(then ...)])`."""
    concepts = ("PassDecision",)

    params = (P("then", "Then", opt=True),)

    def compile(self, env):
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_PASS,)], then, True)]


@ludeme("pass")
class PassEffect(Moves):
    """`(pass [(then ...)])`: a pass as an effect, which changes nothing (its move is no pass
    decision)."""

    params = (P("then", "Then", opt=True),)

    def compile(self, env):
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_PASS,)], then)]


_SHARED = object()      # (forEach Piece): a kind whose pieces belong to whoever holds them


@ludeme("forEach", "Piece")
class ForEachPiece(Moves):
    """`(forEach Piece [on:<type>] ["Name"|{names}] [moves] [player] [(then ...)])`: moves of
    the mover's pieces, with `(from)` on each one's site. As Ludii's ForEachPiece, which
    walks the pieces' locations of every site type: without on:, those on the board and on
    its layers of other types (`layers`) whose index is below the number of the board's
    own sites; with on:, those standing on sites of that type (none on a layer the game
    puts no pieces on)."""
    concepts = ("ForEachPiece", "ControlFlowStatement", "@pieces if not moves")

    params = (P("on", SiteType, opt=True, named=True), P("names", LitStr, opt=True, many=True),
              P("moves", Moves, opt=True), P("role", RoleType, opt=True),
              P("top", LitBool, opt=True, named=True, default=False),
              P("container", IntFn, opt=True, named=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        specific = env.compile(self.moves) if self.moves is not None else None
        then = _then(env, self)
        generators = env.piece_generators()            # what -> moves fn (or None)
        components = env.components
        names = set(self.names or ())
        nsites = env.num_board_sites
        # container: the pieces in that container (its index: 0 the board, k the k-th hand)
        container = env.compile(self.container) if self.container is not None else None
        ranges = [range(ct.sites_from, ct.sites_from + ct.num_sites) for ct in env.containers]
        role_fn = env.role_id(self.role, self) if self.role else None
        top = self.top
        nplayers = env.num_players
        board, frm_of = self._places(env, nsites)
        if not board:
            return lambda c: []     # on a layer the game puts no pieces on: none
        # A rule that reads which of these moves comes first (`Do`'s naming of a move after
        # its first decision) asks for Ludii's order: kind by kind, each kind's pieces in
        # the order of its list of owned pieces (reversed when on: is given, as Ludii
        # filters that list from its end), which the flat store then keeps.
        ordered = env.ludii_piece_order > 0
        if ordered:
            if frm_of is not None or self.container is not None:
                raise self.fail("(forEach Piece ...) whose moves are read in Ludii's order, "
                                "with layers or container:, is not supported yet")
            env.keep_every_owned_list()
            board_end = len(board)
            backwards = self.on is not None
        self.ludii_order = ordered      # the kernels keep no lists: they refuse it

        def container_sites(c):
            if container is None:
                return board
            k = container(c)
            return ranges[k] if 0 <= k < len(ranges) else ()

        def moves_at(c, gen, frm, level, out):
            """A piece's moves from `frm` at `level`, each taking the (then ...) after its
            own."""
            c.from_, c.level = frm, level
            moves = gen(c)
            if then:
                for m in moves:
                    m.then = m.then + then
            out.extend(moves)

        def listed(c, player, out):
            """Ludii's ForEachPiece on stacks as it walks its lists of owned pieces (a game
            where they differ from the stacks: `Game.walks_stack_lists`): kind by kind (the
            player's own kinds, `movers_of`; Ludii walks no kind without an owner), each
            listed (site, level) on the container, the kind's moves generated there whatever
            stands there now (Ludii leaves a piece promoted alone on its site listed, and
            goes on moving it), only the top level's with top:True."""
            s = c.s
            if frm_of is not None:
                raise self.fail("(forEach Piece ...) over layers of other site types in a "
                                "stacking game that promotes pieces is not supported yet")
            own = movers(player)
            lists = s.sites.owned
            places = container_sites(c)
            saved = (c.from_, c.level)
            for w, gen in enumerate(own):
                if gen is None or gen is _SHARED:
                    continue
                for site, level in tuple(lists.get(w, ())):
                    if site not in places or top and s.size_stack(site) != level + 1:
                        continue
                    moves_at(c, gen, site, level, out)
            c.from_, c.level = saved
            return out

        def stacked(c, player, out):
            """Ludii's ForEachPiece on stacks: each level holding one of the player's
            pieces (only the top level with top:True), with `(level)` set."""
            s = c.s
            if c.g.walks_stack_lists:
                return listed(c, player, out)
            top_what, top_who = s.what, s.who
            saved = (c.from_, c.level)
            for site in container_sites(c):
                if top_what[site] == 0:
                    continue
                n = s.size_stack(site)
                for level in ((n - 1,) if top else range(n)):
                    if level == n - 1:      # the top level, read off the top views
                        w, who = top_what[site], top_who[site]
                    else:
                        w, who = s.level_data(site, level)[:2]
                    if w == 0:
                        continue
                    comp = components[w]
                    if comp.owner != player and not (comp.owner == 0 and who == player):
                        continue
                    if names and comp.name.rstrip("0123456789") not in names:
                        continue            # the exact name, as on flat boards below
                    gen = specific or generators[w]
                    if gen is None:
                        continue
                    moves_at(c, gen, site if frm_of is None else frm_of[site], level, out)
            c.from_, c.level = saved
            return out

        def for_each_piece(c, player=None):
            s = c.s
            if player is None:
                player = role_fn(c) if role_fn else s.mover
                if player != s.mover and 0 < player <= nplayers:
                    # Ludii generates another player's moves in a copy of the context where
                    # that player is the mover and the mover is next and previous
                    # (ForEachPiece), so that (is Mover ...), Mover, Next, friends and
                    # enemies read as on that player's turn.
                    roles = s.mover, s.next, s.prev
                    s.prev, s.mover, s.next = s.mover, player, s.mover
                    try:
                        return for_each_piece(c, player)
                    finally:
                        s.mover, s.next, s.prev = roles
            out = []
            if c.stacking:
                if ordered:
                    raise self.fail("(forEach Piece ...) whose moves are read in Ludii's "
                                    "order, in a stacking game, is not supported yet: "
                                    "Ludii's lists of owned pieces keep levels there")
                return stacked(c, player, out)
            own = movers(player)
            what = s.what
            saved = c.from_
            for site in (in_ludii_order(s, own) if ordered else
                         board if container is None else container_sites(c)):
                gen = own[what[site]]
                if gen is None:
                    continue
                if gen is _SHARED:          # a piece without an owner: the one at the site's
                    if s.who[site] != player:
                        continue
                    gen = specific or generators[what[site]]
                c.from_ = site if frm_of is None else frm_of[site]
                moves = gen(c)
                if then:
                    for m in moves:
                        m.then = m.then + then
                out.extend(moves)
            c.from_ = saved
            return out

        owned: dict = {}        # player -> movers_of(player), made on the player's first turn

        def movers(player):
            """`movers_of(player)`, made once."""
            own = owned.get(player)
            if own is None:
                own = owned[player] = movers_of(player)
            return own

        def in_ludii_order(s, own):
            """The sites of the player's pieces as Ludii's ForEachPiece walks them: kind by
            kind (component order), each kind's list of owned pieces in order."""
            for w, gen in enumerate(own):
                if gen is None:
                    continue
                if gen is _SHARED:
                    raise self.fail("(forEach Piece ...) whose moves are read in Ludii's "
                                    "order, with pieces that have no owner, is not "
                                    "supported yet")
                sites = s.owned_sites(w)
                for site in (reversed(sites) if backwards else sites):
                    if site < board_end and s.what[site] == w:
                        yield site

        def movers_of(player):
            """Per component index, the moves of the player's pieces of that kind: the
            generator; _SHARED for a kind without an owner (the site's owner decides); None
            for a kind the player does not move (not theirs, another name, no moves)."""
            table = [None] * len(components)
            for w, comp in enumerate(components):
                if w == 0 or comp.owner not in (player, 0):
                    continue
                if names and comp.name.rstrip("0123456789") not in names:
                    # Ludii compares the name without its trailing number, exactly:
                    # "Counter" is not "DoubleCounter".
                    continue
                gen = specific or generators[w]
                if gen is not None:
                    table[w] = gen if comp.owner == player else _SHARED
            return table

        def lazy_for_each_piece(c):
            """The same moves, one site's at a time (stacks: all at once)."""
            s = c.s
            if c.stacking:
                yield from for_each_piece(c)
                return
            player = role_fn(c) if role_fn else s.mover
            other = player != s.mover and 0 < player <= nplayers
            own = movers(player)
            for site in board if container is None else container_sites(c):
                w = s.what[site]
                gen = own[w]
                if gen is None:
                    continue
                if gen is _SHARED:
                    if s.who[site] != player:
                        continue
                    gen = specific or generators[w]
                saved, roles = c.from_, (s.mover, s.next, s.prev)
                if other:       # as for_each_piece: that player's turn while generating
                    s.prev, s.mover, s.next = s.mover, player, s.mover
                c.from_ = site if frm_of is None else frm_of[site]
                try:
                    moves = gen(c)
                finally:
                    c.from_ = saved
                    s.mover, s.next, s.prev = roles
                yield from _with_then(moves, then)
        for_each_piece.lazy = lazy_for_each_piece
        return for_each_piece

    def _places(self, env, nsites: int):
        """The places in the store this loop reads pieces at (a container's are given
        apart), and a map from each to the index `(from)` takes there (None: the place
        itself, the board's own sites only)."""
        own = env.board.site_type
        on = self.on
        if on in (None, own):
            walks = [] if on is not None else \
                [(base_, min(size, nsites)) for base_, size in
                 (layer_of(env, t) for t in sorted(env.layers))]
        else:
            layer = layer_of(env, on)
            walks = [layer] if layer is not None else []
        other = on not in (None, own)
        if (walks or other) and self.container is not None \
                or other and on == "Cell" and len(env.containers) > 1:
            # Ludii bounds the locations by the container's sites, and a layer's cells by
            # their number, which may reach a hand's sites
            raise self.fail(f"(forEach Piece{' on:' + on if on else ''}) with hands or "
                            f"container: on a board played on {own} sites with pieces on "
                            "other site types is not supported yet")
        board = range(0) if other else range(nsites)
        if not walks:
            return board, None
        frm_of = {site: site for site in board}
        for base_, size in walks:
            frm_of.update((base_ + i, i) for i in range(size))
        return tuple(frm_of), frm_of


@ludeme("if")
class MovesIf(Moves):
    """`(if <cond> <moves> [<else moves>])`."""
    concepts = ("ConditionalStatement",)

    params = (P("cond", Bool), P("then_", Moves), P("else_", Moves, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        cond = env.compile(self.cond)
        a = env.compile(self.then_)
        b = env.compile(self.else_) if self.else_ is not None else (lambda c: [])
        then = _then(env, self)
        if not then:
            return lambda c: a(c) if cond(c) else b(c)

        def if_then(c):
            out = a(c) if cond(c) else b(c)
            for m in out:
                m.then = tuple(m.then) + then
            return out
        return if_then

    def compile_lazy(self, env):
        cond = env.compile(self.cond)
        a = lazy_moves(env.compile(self.then_))
        b = lazy_moves(env.compile(self.else_)) if self.else_ is not None else (lambda c: iter(()))
        then = _then(env, self)
        return lambda c: _with_then(a(c) if cond(c) else b(c), then)


class _Union(Moves):
    params = (P("moves", Moves, many=True), P("more", Moves, opt=True, many=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        gens = [env.compile(m) for m in self.moves + (self.more or [])]
        then = _then(env, self)

        def union(c):
            out = []
            for g in gens:
                out.extend(g(c))
            if then:
                for m in out:
                    m.then = m.then + then
            return out
        return union

    def compile_lazy(self, env):
        gens = [lazy_moves(env.compile(m)) for m in self.moves + (self.more or [])]
        then = _then(env, self)

        def union(c):
            for g in gens:
                yield from _with_then(g(c), then)
        return union


@ludeme("and")
class MovesAnd(_Union):
    """`(and <moves> <moves>)` or `(and {moves})`: all of them (effects apply in order)."""
    concepts = ("Union",)


@ludeme("or")
class MovesOr(_Union):
    """`(or <moves> <moves>)` or `(or {moves})`: the union of the legal moves."""
    concepts = ("Union",)


@ludeme("moveAgain")
class MoveAgain(Moves):
    """`(moveAgain)`: the mover moves again (the next player is the mover)."""
    concepts = ("MoveAgain",)

    params = ()

    def compile(self, env):
        return lambda c: [Move(-1, -1, 0, [(A_NEXT, c.s.mover)])]


@ludeme("addScore")
class AddScore(Moves):
    """`(addScore <player> <value>)` or `(addScore {players} {values})`."""
    concepts = ("Scoring",)

    params = (P("players", IntFn, many=True), P("values", IntFn, many=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        pairs = [(env.compile(p), env.compile(v)) for p, v in zip(self.players, self.values)]
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_SCORE, p(c), v(c)) for p, v in pairs], then)]


@ludeme("set", "Score")
class SetScore(Moves):
    """`(set Score <player> <value>)`."""
    concepts = ("Scoring",)

    params = (P("player", IntFn), P("value", IntFn), P("then", "Then", opt=True))

    def compile(self, env):
        from ludeme.model.roles import _names_a_set
        v = env.compile(self.value)
        then = _then(env, self)
        role = getattr(self.player, "role", None)
        if role is not None and _names_a_set(role):
            # Ludii's SetScore with a role: one move per real player the role covers, in
            # increasing order (`(set Score All 0)` in Bide)
            players = env.role_players(role, self)
            n = env.num_players

            def set_scores(c):
                score = v(c)
                return [Move(-1, -1, 0, [(A_SET_SCORE, pid, score)], then)
                        for pid in sorted(players(c)) if 1 <= pid <= n]
            return set_scores
        p = env.compile(self.player)
        return lambda c: [Move(-1, -1, 0, [(A_SET_SCORE, p(c), v(c))], then)]


@ludeme("remove")
class RemoveEffect(Moves):
    """`(remove <site|region> [at:EndOfTurn] [(then ...)])`: remove pieces as an effect."""
    concepts = ("RemoveEffect", "CaptureSequence if at")

    params = _REMOVE_PARAMS

    def compile(self, env):
        layered = _layer_removal(env, self)
        if layered is not None:
            return layered
        sites = typed_sites(env, self, self.where, self.type, None)
        then = _then(env, self)
        # count: Ludii removes that many times at each site (a flat site empties at once)
        count = env.compile(self.count) if self.count is not None else (lambda c: 1)
        kind = _removal_kind(env, self)
        level = _removal_level(env, self)
        if level is None and self.count is None and isinstance(self.where, IntFn) \
                and self.type in (None, env.board.site_type):
            # The common (remove <site>): one piece at one site, without the loops below.
            site = env.compile(self.where)

            def remove_at(c):
                s = site(c)
                if s >= 0 and c.s.what[s] > 0:
                    return [Move(s, s, 0, [(kind, s)], then)]
                return []
            return remove_at

        def remove(c):
            what = c.s.what
            k = max(1, count(c))
            if level is not None:
                lv = level(c)
                acts = [a for s in sites(c) if s >= 0 and what[s] > 0
                        for a in _level_removals(c, s, lv, k)[0]]
            else:
                acts = [(kind, s) for s in sites(c) if s >= 0 and what[s] > 0
                        for _ in range(k)]
            if not acts:
                return []
            return [Move(acts[0][1], acts[0][1], 0, acts, then)]
        return remove


def _layer_removal(env, lud, decision: bool = False):
    """The moves of a (remove <type> ...) or (move Remove <type> ...) whose type names a
    layer of the board the game puts pieces on (`layer_site`), else None. As Ludii's
    Remove: each occupied site given (an element's index, or a hand's cell) loses its top
    piece, `count` times; the move names the element and says its site type. The decision
    gives a move per site, the effect one move removing at them all."""
    store = layer_site(env, lud.type)
    if store is None:
        return None
    lud.refuse("level", why=f"(remove {lud.type} ...) on a layer of the board the game "
                            "puts pieces on")
    sites = typed_sites(env, lud, lud.where, lud.type, None, layered=True)
    then = _then(env, lud)
    count = env.compile(lud.count) if lud.count is not None else (lambda c: 1)
    kind = _removal_kind(env, lud)
    types = (lud.type, lud.type)

    def remove(c):
        what = c.s.what
        k = max(1, count(c))
        out = []
        for site in sites(c):
            place = store(site) if site >= 0 else -1
            if place < 0 or what[place] <= 0:
                continue
            if decision or not out:
                m = Move(site, site, 0, [], then)
                m.site_types = types
                out.append(m)
            out[-1].actions.extend([(kind, place)] * k)
        return out
    return remove


def _removal_level(env, lud):
    """The closure of a removal's `level:` (the piece at that level goes), or None; as in
    Ludii, a level makes the game a stacking one."""
    if lud.level is None:
        return None
    if lud.at == "EndOfTurn":
        raise lud.fail("level: with at:EndOfTurn is not supported yet")
    env.stacking = True
    return env.compile(lud.level)


def _level_removals(c, site, level, k):
    """(actions, level reported) removing `k` times the piece at `level` of a site: as in
    Ludii's Remove, a negative level is 0, and the top level is no level at all (the top
    piece goes each time, the move reports level 0)."""
    level = max(0, level)
    if c.s.size_stack(site) == level + 1:
        return [(A_REMOVE, site)] * max(1, k), 0
    return [(A_REMOVE_LEVEL, site, level)] * max(1, k), level


def _removal_kind(env, lud):
    """A_REMOVE now, or A_REMOVE_LATER for `at:EndOfTurn`: Ludii marks the site and clears
    every marked site once the turn ends (a decision with no replay), as in sequence
    captures where a jumped piece stays until the whole sequence is over."""
    if lud.at == "EndOfTurn":
        env.sequence_capture = True
        return A_REMOVE_LATER
    return A_REMOVE


# Hops --------------------------------------------------------------------------

@ludeme("between")
class BetweenSpec(Other):
    """`(between [before:N] [(exact N)|(range a b)|(max N)] [after:N] [if:<cond>] [(apply ...)])`."""

    params = (P("before", IntFn, opt=True, named=True), P("range", "RangeSpec", opt=True),
              P("after", IntFn, opt=True, named=True), P("if", Bool, opt=True, named=True),
              P("trail", IntFn, opt=True, named=True), P("apply", "Apply", opt=True))


class RangeSpec(Other):
    """A length range for hurdles: `(exact N)`, `(range a b)`, `(min N)`, `(max N)`."""


CLASSES["RangeSpec"] = RangeSpec


@ludeme("exact")
class Exact(RangeSpec):
    """`(exact N)`."""

    params = (P("n", IntFn),)

    def bounds(self, env):
        f = env.compile(self.n)
        return f, f


@ludeme("range")
class RangeL(RangeSpec):
    """`(range a b)`."""

    params = (P("lo", IntFn), P("hi", IntFn, opt=True))

    def bounds(self, env):
        lo = env.compile(self.lo)
        return lo, env.compile(self.hi) if self.hi is not None else lo


@ludeme("max")
class MaxL(RangeSpec):
    """`(max N)`: from one up to N."""

    params = (P("n", IntFn),)

    def bounds(self, env):
        return (lambda c: 1), env.compile(self.n)


@ludeme("min")
class MinL(RangeSpec):
    """`(min N)`: N or more (Ludii's Min range: up to 1000000000)."""

    params = (P("n", IntFn),)

    def bounds(self, env):
        return env.compile(self.n), (lambda c: 1000000000)


def _effect_actions(gen, c) -> list:
    """The actions of an effect evaluated now (Ludii chains effects into the decision)."""
    return moves_as_actions(gen(c))


def moves_as_actions(moves) -> list:
    """Moves folded into another move's actions, as Ludii nests them: a move with
    consequents stays one nested action (its consequents run right after its actions)."""
    acts = []
    for m in moves:
        if m.then:
            acts.append((A_SUBMOVE, m))
        else:
            acts.extend(m.actions)
    return acts


@ludeme("move", "Hop")
class MoveHop(Moves):
    """`(move Hop [(from ...)] [directions] [(between ...)] (to if:... [(apply ...)]) [(then ...)])`.

    Follows Ludii's Hop: along each radial from the start, a run of hurdles
    (sites satisfying the between condition, as long as the between range
    allows) must begin within `before` steps; the landing sites follow it
    within `after` steps and must satisfy the to condition. Between and to
    effects are evaluated when the move is generated and become its actions.
    """
    concepts = ("HopDecision", "-to.apply", "HopDecisionMoreThanOne if between.range", "HopDecisionMoreThanOne if between.before and not between.before == 0|1", "HopDecisionMoreThanOne if between.after and not between.after == 0|1", "HopCaptureMoreThanOne if between.range and between.apply has RemoveEffect", "HopCaptureMoreThanOne if then has HopDecisionMoreThanOne and between.apply has RemoveEffect", "HopCaptureMoreThanOne if then has HopDecisionMoreThanOne and then has HopCapture", "HopCaptureMoreThanOne if between.range and then has HopCapture", "HopCapture if between.apply has RemoveEffect", "ReplacementCapture if to.apply has RemoveEffect", "HopDecisionEnemyToEmpty if between.if has IsEnemy and to.if has IsEmpty", "HopDecisionFriendToEmpty if between.if has IsFriend and to.if has IsEmpty", "HopDecisionEnemyToEnemy if between.if has IsEnemy and to.if has IsEnemy", "HopDecisionFriendToEnemy if between.if has IsFriend and to.if has IsEnemy", "HopDecisionEnemyToFriend if between.if has IsEnemy and to.if has IsFriend", "HopDecisionFriendToFriend if between.if has IsFriend and to.if has IsFriend", "AdjacentDirection if not dirn")

    params = (P("from_", "FromSpec", opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("between", "BetweenSpec", opt=True), P("to", "ToSpec"),
              P("stack", LitBool, opt=True, named=True, default=False),
              P("then", "Then", opt=True))

    def compile(self, env):
        if self.from_ is not None and self.from_.site is not None \
                and not isinstance(self.from_.site, IntFn):
            # Ludii's Hop starts from (from) when its (from ...) gives a region, not a site
            # (it reads only From.loc(), null for a region): the region is built, as
            # Ludii builds it, and never evaluated.
            env.compile(self.from_.site)
            from_fn = env.site_fn(None)
        else:
            from_fn = env.site_fn(self.from_)
        from_cond = env.compile(self.from_.if_) if self.from_ is not None \
            and self.from_.if_ is not None else None
        build_unread_level(env, self.from_)     # Ludii's Hop moves the top piece
        dirn = self.dirn or "Adjacent"
        dirs = env.direction_keys(dirn, self)
        radials = env.board.radials
        nsites = env.num_board_sites
        # For a fixed direction choice, each site's radials as plain tuples of sites.
        flat = tuple(tuple(r.sites for k in dirs(None, s) for r in radials.get(k, ((),) * nsites)[s])
                     for s in range(nsites)) if env.is_static_direction(dirn) else None

        def lines(c, frm):
            if flat is not None:
                return flat[frm]
            return [r.sites for k in dirs(c, frm) for r in (radials[k][frm] if k in radials else ())]
        b = self.between
        one = lambda c: 1  # noqa: E731
        zero = lambda c: 0  # noqa: E731
        if b is not None and b.range is not None:
            min_fn, max_fn = b.range.bounds(env)
        else:
            min_fn = max_fn = one
        before_fn = env.compile(b.before) if b is not None and b.before is not None else zero
        after_fn = env.compile(b.after) if b is not None and b.after is not None else zero
        # As Ludii: no (between ...) means any site is a hurdle; a (between ...) without
        # if: has no hurdle condition, and then nothing can be hopped.
        if b is None:
            hurdle = _true
        elif b.if_ is not None:
            hurdle = env.compile(b.if_)
        else:
            hurdle = _false
        between_effect = env.compile(b.apply.effect) if b is not None and b.apply is not None \
            and b.apply.effect is not None else None
        go = env.compile(self.to.if_) if self.to.if_ is not None else _true
        to_apply = self.to.apply
        stop_rule = env.compile(to_apply.if_) if to_apply is not None and to_apply.if_ is not None \
            else None
        stop_effect = env.compile(to_apply.effect) if to_apply is not None \
            and to_apply.effect is not None else None
        then = _then(env, self)
        step_targets = env.board.trajectories.targets
        kind = _moving_action(env, self, self.stack)

        def make(c, frm, to, hurdles):
            acts = []
            if stop_effect is not None:
                c.to = to
                acts.extend(moves_as_actions(stop_effect(c)))
            if between_effect is not None:
                for h in hurdles:
                    c.between = h
                    acts.extend(moves_as_actions(between_effect(c)))
                c.to = to
            acts.append((kind, frm, to))
            m = Move(frm, to, 0, acts, then)
            m.between = tuple(hurdles)      # Ludii's betweenNonDecision, read by (last Between)
            return m

        def hop(c):
            frm = from_fn(c)
            if frm < 0 or frm >= nsites:
                return []
            saved = (c.from_, c.to, c.between)
            c.from_ = frm
            out = []
            if from_cond is not None and not from_cond(c):
                c.from_, c.to, c.between = saved
                return out
            min_len, max_len = min_fn(c), max_fn(c)
            before, after = before_fn(c), after_fn(c)
            if min_len == 0:
                seen = set()
                for key in dirs(c, frm):
                    for to in step_targets(frm, key):
                        c.to = to
                        if to not in seen and go(c):
                            seen.add(to)
                            out.append(make(c, frm, to, ()))
            if max_len > 0:
                for steps in lines(c, frm):
                    n = len(steps)
                    for to_idx in range(1, n):
                        first = steps[to_idx]
                        c.between = first
                        if hurdle(c):
                            hurdles = [first]
                            length, h, wrong = 1, to_idx + 1, False
                            while h < n and length < max_len:
                                c.between = steps[h]
                                if not hurdle(c):
                                    wrong = True
                                    break
                                hurdles.append(steps[h])
                                length += 1
                                h += 1
                            if length < min_len or (wrong and length == max_len):
                                break
                            for from_min in range(length - min_len, -1, -1):
                                a = h - from_min
                                while a < n:
                                    to = steps[a]
                                    c.to = to
                                    if not go(c):
                                        if stop_rule is not None and stop_rule(c):
                                            out.append(make(c, frm, to, ()))
                                        break
                                    if stop_rule is None:
                                        out.append(make(c, frm, to,
                                                        hurdles[:length - from_min]))
                                    if (a - h + 1) > (after - from_min):
                                        break
                                    a += 1
                            break
                        c.to = first
                        if to_idx > before or not go(c):
                            break
            c.from_, c.to, c.between = saved
            return out
        return hop


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

_THEN = ("then", "with (then ...)")
part_of(FromSpec, ToSpec, BetweenSpec, parent="the move that holds it")


@emits(MovesOr, MovesAnd, kind="moves")
def _or_moves(src, lud, out, ind):
    """The union of the moves (`(and ...)` as moves is the same union, `_Union`)."""
    with src.enclosing_then(lud):
        for m in list(lud.moves) + list(lud.more or []):
            src.moves(m, out, ind)


@emits(MovesIf, kind="moves")
def _if_moves(src, lud, out, ind):
    """Each branch's moves, each taking the (if ...)'s (then ...) after its own."""
    out.append(f"{ind}if {src.bool_expr(lud.cond)}:")     # (then ...) is not the test's
    with src.enclosing_then(lud):
        src.moves(lud.then_, out, ind + "    ")
        out.append(f"{ind}    pass")
        if lud.else_ is not None:
            out.append(f"{ind}else:")
            src.moves(lud.else_, out, ind + "    ")
            out.append(f"{ind}    pass")


@emits(MovePass, kind="moves")
def _pass_moves(src, lud, out, ind):
    """One pass; as a (do ...)'s next move, it carries the first moves' effects before it
    as every next move does (`Source.new_generator` adds them to the moves, not to the
    passes, which the (do ...)'s own pass makes itself)."""
    prefix = list(src.effect_prefix[0]) if src.effect_prefix else []
    g = src.new_generator(prefix, is_pass=True, lud=lud)
    src.push(out, ind, "-1", "-1", g)


@emits(MoveAdd, kind="adds_to_empty")
def _adds_to_empty(src, moves) -> bool:
    """One placement on the empty board sites and nothing else: no piece named, count,
    stack, level, rotation, condition, effect or consequent (nothing that reads the moves
    listed or the move being made), so that a random playout may draw the c-th empty site
    as the c-th move listed (`codegen._fast_add`)."""
    if moves.then is not None or any(getattr(moves, f, None) is not None
                                     for f in ("piece", "count", "stack")):
        return False
    to = moves.to
    if to is None or type(to.site) is not CLASSES["SitesEmpty"] or any(
            getattr(to, f, None) is not None
            for f in ("type", "level", "rotations", "if_", "apply")):
        return False
    return to.site.type is None and to.site.container is None


@emits(MoveAdd, kind="moves", refuses=("count",))
def _add_moves(src, lud, out, ind):
    """One placement per destination. A destination's effect ((to ... (apply ...))) goes
    before the placement, read with (from) on the destination (as Ludii's Add chains it);
    over a region, Ludii lists such a move twice where the effect's condition holds
    (chainRuleCrossProduct adds it, then its loop again), as the reference keeps it."""
    to = lud.to
    kind, owner = added_piece(src, lud)
    listed = placed_kind = kind
    if _TICKED.search(kind) and to.level is None:
        # a kind read from what the turn changes before a move's effect runs (e.g. (count
        # Moves)) is the one the move was listed with, as the reference reads it: kept in
        # the move's extra
        listed, placed_kind, owner = "ak_", "x", "OWNER[x]"
    effect: list[str] = []
    seq, conds, place = _to_sites(src, to, layered=True)
    if place != "to":
        # (to <type> ...) of a layer of the board the game puts pieces on: the move goes to
        # the element's index (its destination's type the layer's), the piece to its place
        if to.apply is not None or to.level is not None or lud.stack or src.game.hidden_info \
                or src.game.large_pieces:
            raise Unsupported(lud, f"to {to.type} sites, a layer of the board the game puts "
                                   "pieces on, with an effect, a level, stack: or hidden or "
                                   "large pieces")
        effect.append(f"apl_ = {place}")
        place = "apl_"
    if to.apply is not None:
        _apply_lines(src, to.apply, effect)
    # stack:True pushes the piece as any add does in a stacking game (StackSites.add)
    add, code, levels = src.site_add(place, placed_kind, owner, "1"), A_ADD, LV_ADD
    if lud.stack:
        code = A_ADD_LEVEL
    if to.level is not None:
        # (to ... level:): the piece inserted at that level (read with (to) on the site, kept
        # in the move's extra slot and reported), whatever stack: says
        add, code, levels = _inserted(src, lud, kind, owner, "x"), A_ADD_LEVEL, LV_AT
    g = src.new_generator(effect + placed(src, lud, [add]), lud=lud, kind=code, levels=levels)
    if place != "to":
        src.generator_types[g] = (to.type, to.type)
    inner = ind + "            "
    if src.game.large_pieces:
        if listed != kind:
            raise Unsupported(lud, "with a piece read from what the turn changes before the "
                                   "move, in a game with large pieces")
        _add_maybe_large(src, lud, kind, owner, seq, conds, g, out, ind)
        return
    x = "-1"
    if listed != kind:
        out.append(f"{ind}{listed} = {kind}")
        kind = x = listed
    if to.apply is None or not isinstance(to.site, Region):
        out.append(f"{ind}if {kind} > 0:")
        out.append(f"{ind}    for to in {seq}:")
        out.append(f"{ind}        if to >= 0{conds}:")
        if to.level is not None:
            out += [f"{inner}alv = {src.int_expr(to.level)}", f"{inner}if alv < 0:",
                    f"{inner}    raise ValueError('(to ... level:) below 0')"]
            x = "alv"
        src.push(out, inner, "to", "to", g, x)
        return
    if to.level is not None:
        raise Unsupported(lud, "with (to ... level:) over a region with an effect")
    # (from) is the destination once one is listed, for the sites after it too (the
    # reference's context keeps it until the loop ends)
    rule = to.apply.if_
    d = len(ind)
    out.append(f"{ind}sfa_{d} = frm")
    out.append(f"{ind}if {kind} > 0:")
    out.append(f"{ind}    for to in {seq}:")
    out.append(f"{ind}        if to >= 0{conds}:")
    out.append(f"{inner}frm = to")
    out.append(f"{inner}twice_{d} = {src.bool_expr(rule) if rule is not None else 'True'}")
    src.push(out, inner, "to", "to", g, x)
    out.append(f"{inner}if twice_{d}:")
    src.push(out, inner + "    ", "to", "to", g, x)
    out.append(f"{ind}frm = sfa_{d}")


# What the kernels' `step` changes before a decision's effect runs (its counters, the
# pending values it clears, the last sites after consequents, ...).
_TICKED = re.compile(r"sc\[(NUM_MOVES|NUM_DECISIONS|NUM_ACTIONS|REPLAYED|PENDN|PENDING|STALE|ALLP"
                     r"|LAST_TO_AFTER|LAST_FROM_AFTER|LTN|LTS)\b")


def _inserted(src, lud, kind: str, owner: str, level: str, n: str = "1") -> str:
    """The line inserting `n` pieces of `kind` at a level of the stack at `to` (Ludii's
    Add with a level, one action: on the top at its height or above)."""
    if not src.game.stacking:
        raise Unsupported(lud, "with (to ... level:) in a game without stacks")
    return src.stack_write(f"stack_insert_n(who, what, count, to, {level}, {kind}, {owner}, "
                           f"{n})")


def added_piece(src, lud) -> tuple[str, str]:
    """The kind of piece an Add places and its owner, as expressions: its (piece ...), or
    without one the mover's first piece kind (`mover_component`)."""
    if lud.piece is not None:
        kind = src.int_expr(lud.piece)
        return kind, f"OWNER[{kind}]"
    game = src.game
    first = {}
    for comp in game.components[1:]:
        first.setdefault(comp.owner, comp.index)
    n = game.num_players
    fallback = first.get(0, first.get(n + 1, 0))
    kinds = [first.get(p, fallback) for p in range(n + 1)]
    owners = [game.components[w].owner if w > 0 else 0 for w in kinds]
    return f"{src.table(kinds)}[mover]", f"{src.table(owners)}[mover]"


def _add_maybe_large(src, lud, kind, owner, seq, conds, g, out, ind) -> None:
    """`(move Add ...)` in a game with large pieces, as `MoveAdd.compile` reads it: a small
    piece as anywhere (generator `g`); a large one as `_add_large`, a move per destination
    and state (the piece's state:, or each state Ludii's Add tries) where every cell it
    covers is empty (no piece, not covered: sc[COV + cell]), the state kept in the move's
    extra slot; its effect places the piece in that state and covers the cells, one
    action."""
    is_large, n_states, cells, n_cells = _large_tables(src)
    k_ = f"lk_{len(ind)}"
    effect = [f"{k_} = {kind}", src.site_add("to", k_, f"OWNER[{k_}]", "1"),
              src.set_piece_state("to", "x"), "sc[NUM_ACTIONS] -= 1",
              *_cover_lines(src, cells, n_cells, f"{k_}, x, to", True)]
    big = src.new_generator(effect, lud=lud, kind=A_ADD, levels=LV_ADD)
    rot = src.int_expr(lud.piece.state) if lud.piece is not None \
        and lud.piece.state is not None else None
    i2, i3 = ind + "        ", ind + "            "
    out += [f"{ind}{k_} = {kind}",
            f"{ind}if {k_} > 0:"]
    if rot is not None:         # read once, before the sites (`_add_large`)
        out.append(f"{ind}    lrot_ = {rot}")
    out += [f"{ind}    for to in {seq}:",
            f"{ind}        if not {is_large}[{k_}]:",
            f"{ind}            if to >= 0{conds}:"]
    src.push(out, i3 + "    ", "to", "to", g)
    out += [f"{i2}elif 0 <= to < N_SITES{conds}:"]
    out += [f"{i3}for lst in range({n_states}[{k_}]):"]
    body = i3 + "    "
    if rot is not None:
        out += [f"{body}if lst != lrot_:", f"{body}    continue"]
    out += [f"{body}nc_ = {n_cells}[{k_}, lst, to]",
            f"{body}fits_ = nc_ > 0",
            f"{body}for i in range(nc_):",
            f"{body}    cl_ = {cells}[{k_}, lst, to, i]",
            f"{body}    if what[cl_] != 0 or sc[COV + cl_] != 0:",
            f"{body}        fits_ = False",
            f"{body}        break",
            f"{body}if fits_:"]
    src.push(out, body + "    ", "to", "to", big, "lst")


def _cover_lines(src, cells: str, n_cells: str, at: str, cover: bool) -> list[str]:
    """The lines that cover (or uncover) the cells of a large piece (`at`: its kind, state
    and anchor), as `State._do_cover`: where the game keeps counts (Ludii's requiresCount),
    a covered cell where no piece stands counts 1, an uncovered one 0."""
    lines = [f"for i in range({n_cells}[{at}]):",
             f"    cl_ = {cells}[{at}, i]",
             f"    sc[COV + cl_] = {int(cover)}"]
    if src.game.covers_count:
        lines += ["    if what[cl_] == 0:", "        journal(count, cl_)",
                  f"        count[cl_] = {int(cover)}"]
    return lines


def _large_tables(src) -> tuple[str, str, str, str]:
    """The tables of the large pieces (`Game.large_pieces`): per kind whether it is one, its
    states Add tries, and per kind, state (each that covers cells, `LargePiece.cells`;
    `Source.large_states` of them) and anchor the cells covered and their number."""
    game = src.game
    kinds = len(game.components)
    n = src.env.num_board_sites
    large = game.large_pieces
    states = max([len(p.cells) for p in large.values()] + [1])
    width = max([len(p.covered(a, st)) for p in large.values() for st in range(len(p.cells))
                 for a in range(n)] + [1])
    cells = np.full((kinds, states, n, width), -1, np.int64)
    n_cells = np.zeros((kinds, states, n), np.int64)
    for w, p in large.items():
        for st in range(len(p.cells)):
            for a in range(n):
                got = p.covered(a, st)
                n_cells[w, st, a] = len(got)
                cells[w, st, a, :len(got)] = got
    src.large_states = states
    return (src.table([w in large for w in range(kinds)], "bool_"),
            src.table([len(large[w].add_states()) if w in large else 0 for w in range(kinds)]),
            src.table(cells), src.table(n_cells))


def placed(src, lud, add: list[str]) -> list[str]:
    """The lines `add` placing the piece of an Add at `to`, and, with (piece ... state:), the
    state it starts in: read before the placement, written as a part of the same action
    (Ludii's ActionAdd, the reference's A_PLACED_FIELD: the action counter ticks once)."""
    if lud.piece is None or lud.piece.state is None:
        return add
    return [f"pst_ = {src.int_expr(lud.piece.state)}", *add,
            src.set_piece_state("to", "pst_"), "sc[NUM_ACTIONS] -= 1"]


@emits(MoveFromTo, kind="moves", refuses=("mover",))
def _from_to_moves(src, lud, out, ind, occupied: str = "what[frm] > 0"):
    """`(move (from ...) (to ...) [count:] [copy:])`: one piece from a site (with one) to
    another; with count:, that many (read once per origin, with (from) on it and (to) as
    it was, and kept in the move's extra slot); with copy:True, a piece of the same kind
    and owner added there, the origin's left as it was (Ludii's ActionCopy). `occupied`:
    the test of an origin (`frm`) that gives moves."""
    fr, to = lud.from_, lud.to
    # (to ... (rotations ...)): a move per rotation, each turning the piece landed (Trax's
    # tiles), has no compiled form (the kernels kept no rotation when it was written)
    refuse(to, ("rotations", "with (to ... (rotations ...))"))
    if layer_of(src.env, fr.type) is not None or layer_of(src.env, to.type) is not None:
        _layered_from_to_moves(src, lud, out, ind, occupied)
        return
    effect = []
    if lud.copy:
        if lud.stack or lud.count is not None:
            raise Unsupported(lud, "with copy: beside stack: or count:")
        if src.piece_states:    # the copy would carry the piece's state with it
            raise Unsupported(lud, "with copy: in a game with piece states")
        # the piece read as the move is made, before the destination's effect (the
        # reference reads it when it lists the move)
        effect.append("cw_, co_ = what[frm], who[frm]")
    if to.apply is not None:
        _apply_lines(src, to.apply, effect)
    # The levels as `MoveFromTo.compile`'s `levels`: with stack:True and count:, the
    # sub-stack's; else none (Ludii 1.3.12's FromTo records no level for one piece).
    levels = LV_NONE
    level_loops: list = []      # the destination's loops over levels run as a move is listed
    if fr.level is not None or to.level is not None:
        from ludeme.engine.compiled.codegen import mentions
        from .ints import Level
        if to.apply is not None and mentions(to.apply, (CLASSES["ForEachLevel"],)) and any(
                x is not None and mentions(x, (Level,)) for x in (fr.level, to.level)):
            # The reference (as Ludii) makes the destination's effect as it lists the move,
            # after reading its levels: a (forEach Level ...) there leaves (level) on its
            # last level, which the moves listed after it read (Aj T'iwil's next throw).
            level_loops = _listed_level_loops(to.apply)
            if level_loops is None and src.value_written is not None:
                # under a condition, inside a (forEach Value ...) whose moves keep their value
                # beside their level: not followed (elsewhere a (level) loop binds it again
                # for each move, and the race games so written agree with Ludii)
                raise Unsupported(lud, "with a level read from (level) beside a destination's "
                                       "effect that may loop over levels, inside (forEach "
                                       "Value)")
            if src.level_var is None:
                level_loops = None
        kind, levels = _level_effect(src, lud, effect)
    elif lud.copy:
        effect.append(src.site_add("to", "cw_", "co_", "1"))
        kind = A_ADD
    elif lud.count is None and lud.stack:
        effect.append(src.stack_write("stack_move_stack(who, what, count, frm, to)"))
        kind, levels = A_MOVE_STACK, LV_NONE
    elif lud.count is None:
        effect.append(src.site_move())
        kind = A_MOVE
    else:
        # (read only in a game that counts: empty in the others)
        table = src.owners_table() if src.counting else src.table([])
        effect.append(src.site_move_n(table, "frm", "to", "x"))
        kind, levels = A_MOVE_N, (LV_SUB if lud.stack else levels)
    g = src.new_generator(effect, lud=lud, kind=kind, levels=levels)
    f_seq, f_flt = ("(frm,)", None) if fr.site is None else _sites_of(src, fr.site)
    t_seq, conds = _to_sites(src, to)
    out.append(f"{ind}sf, st = frm, to")
    out.append(f"{ind}for ff in {f_seq}:")
    out.append(f"{ind}    frm = ff")
    f_ok = (f" and {f_flt('frm')}" if f_flt else "") + typed_site(src, fr, "frm")
    if fr.if_ is not None:      # read with (from) on the site and (to) as it was
        f_ok += f" and {src.bool_expr(fr.if_)}"
    out.append(f"{ind}    if 0 <= frm < TOTAL and {occupied}{f_ok}:")
    small_from = len(out)       # (a large piece's moves go before, `_move_large_lines`)
    n = "-1"
    if lud.count is not None:
        n_moved = src.int_expr(lud.count)
        out.append(f"{ind}        n_moved = {n_moved}")
        # a count that is the value a loop tags its moves with (`(value)` of a (forEach
        # Value ...) over computed bounds) is that tag
        n = n_moved if n_moved == src.move_tag else "n_moved"
    out.append(f"{ind}        for to in {t_seq}:")
    # a destination past every container gives no move (`MoveFromTo.compile`)
    out.append(f"{ind}            if 0 <= to < TOTAL{conds}:")
    if fr.level is not None or to.level is not None:
        lf, lt = (f"max({src.int_expr(x.level)}, -1)" if x.level is not None else "-1"
                  for x in (fr, to))
        out.append(f"{ind}                lvf = ({lf} + 1) * {LEVEL_PAIR} + {lt} + 1")
        n = "lvf"
    src.push(out, ind + "                ", "frm", "to", g, n)
    for loop in level_loops or ():
        # (level) as the loop leaves it once the move is listed: its last level, where the
        # stack holds one
        i4 = ind + "                "
        out += [f"{i4}lls_ = {src.int_expr(loop.site)}",
                f"{i4}if 0 <= lls_ < TOTAL and count[TOTAL + lls_] > 0:",
                f"{i4}    {src.level_var} = "
                + ("0" if loop.direction == "FromTop" else "count[TOTAL + lls_] - 1")]
    if src.game.large_pieces:
        small = out[small_from:]
        del out[small_from:]
        _move_large_lines(src, lud, t_seq, conds, out, ind + "        ")
        out.append(f"{ind}        else:")
        out.extend("    " + x for x in small)
    out.append(f"{ind}frm, to = sf, st")


def _listed_level_loops(apply) -> list | None:
    """The (forEach Level ...)s a destination's `(apply ...)` runs whenever its move is
    listed, in order: the effect itself, or parts of an (and ...) of it; None where one may
    not run (under a condition: its apply's if:, an (if ...), ...)."""
    loop = CLASSES["ForEachLevel"]
    if apply.if_ is not None:
        return None
    eff = apply.effect
    parts = list(eff.moves) + list(eff.more or []) if type(eff) is MovesAnd else [eff]
    from ludeme.engine.compiled.codegen import mentions
    if any(type(p) is not loop and mentions(p, (loop,)) for p in parts):
        return None
    return [p for p in parts if type(p) is loop]


def _layered_from_to_moves(src, lud, out, ind, occupied: str) -> None:
    """`(move (from <type> ...) (to <type> ...))` whose origin or destination is on a layer
    of the board the game puts pieces on (`Game.layers`), as `MoveFromTo.compile` makes it:
    the move goes between the sites' own indices, the decision says their types (the
    generator's, `Source.generator_types`), the piece between their places
    (`typed_place`), after the destination's effect. One piece."""
    fr, to = lud.from_, lud.to
    if lud.copy or lud.count is not None or lud.stack or fr.level is not None \
            or to.level is not None or src.game.large_pieces \
            or src.game.hidden_info or occupied != "what[frm] > 0":
        raise Unsupported(lud, "on a layer of the board the game puts pieces on, with copy:, "
                               "count:, stack:, a level, or large or hidden pieces")
    f_typed, f_place = typed_place(src, fr, "frm")
    t_seq, conds, t_place = _to_sites(src, to, layered=True)
    effect: list[str] = []
    if to.apply is not None:        # the destination's effect first, read with its indices
        _apply_lines(src, to.apply, effect)
    effect += [f"mpf_ = {f_place}", f"mpt_ = {t_place}", src.site_move("mpf_", "mpt_")]
    g = src.new_generator(effect, lud=lud, kind=A_MOVE, levels=LV_NONE)
    board = src.env.board.site_type
    src.generator_types[g] = (fr.type or board, to.type or board)
    f_seq, f_flt = ("(frm,)", None) if fr.site is None else _sites_of(src, fr.site)
    # the origin holds a piece at its place; a site of the board's type is one of the
    # containers' (none past them)
    f_ok = (f"frm >= 0{f_typed} and what[{f_place}] > 0" if f_place != "frm"
            else f"0 <= frm < TOTAL and what[frm] > 0{f_typed}")
    f_ok += f" and {f_flt('frm')}" if f_flt else ""
    if fr.if_ is not None:      # read with (from) on the site and (to) as it was
        f_ok += f" and {src.bool_expr(fr.if_)}"
    t_ok = "to >= 0" if t_place != "to" else "0 <= to < TOTAL"
    out += [f"{ind}sf, st = frm, to", f"{ind}for ff in {f_seq}:", f"{ind}    frm = ff",
            f"{ind}    if {f_ok}:", f"{ind}        for to in {t_seq}:",
            f"{ind}            if {t_ok}{conds}:"]
    src.push(out, ind + "                ", "frm", "to", g, "-1")
    out.append(f"{ind}frm, to = sf, st")


def _move_large_lines(src, lud, t_seq, conds, out, ind) -> None:
    """The moves of a large piece at `frm` (`_move_large`): to each destination or a cell
    it covers now, in each state Add tries, where every cell it would cover is one of
    those or its origin, not where it stands in its state now; the move uncovers the cells
    it covered, moves it, sets its state (the move's extra) and covers the new cells, one
    action. Opens `if <a large piece>:` at `ind`, which the caller's `else:` follows."""
    is_large, n_states, cells, n_cells = _large_tables(src)
    s_ = src.large_states
    now = src.piece_state("frm")
    uncover = (f"if 0 <= frm < N_SITES and 0 <= lnow_ < {s_}:",
               f"    for i in range({n_cells}[lk_, lnow_, frm]):")
    effect = ["lk_ = what[frm]", f"lnow_ = {now}", uncover[0],
              *("    " + x for x in _cover_lines(src, cells, n_cells, "lk_, lnow_, frm", False)),
              src.site_move(), src.set_piece_state("to", "x"), "sc[NUM_ACTIONS] -= 1",
              *_cover_lines(src, cells, n_cells, "lk_, x, to", True)]
    g = src.new_generator(effect, lud=lud, kind=A_MOVE, levels=LV_NONE)
    b = ind + "    "
    out += [f"{ind}if {is_large}[what[frm]]:",
            f"{b}lk_ = what[frm]",
            f"{b}lnow_ = {now}",
            f"{b}ld_ = np.empty(TOTAL + N_SITES, np.int64)",
            f"{b}lal_ = np.zeros(TOTAL, np.bool_)",
            f"{b}ln_ = 0",
            f"{b}for to in {t_seq}:",
            f"{b}    if to >= 0{conds}:",
            f"{b}        if ln_ == ld_.shape[0]:",
            f"{b}            ld_ = grown(ld_, ln_)",
            f"{b}        ld_[ln_] = to",
            f"{b}        ln_ += 1",
            f"{b}        if to < TOTAL:",
            f"{b}            lal_[to] = True",
            *(b + x for x in uncover),
            f"{b}        if i > 0:",
            f"{b}            if ln_ == ld_.shape[0]:",
            f"{b}                ld_ = grown(ld_, ln_)",
            f"{b}            ld_[ln_] = {cells}[lk_, lnow_, frm, i]",
            f"{b}            ln_ += 1",
            f"{b}            lal_[{cells}[lk_, lnow_, frm, i]] = True",
            f"{b}lal_[frm] = True",
            f"{b}for di_ in range(ln_):",
            f"{b}    to = ld_[di_]",
            f"{b}    if 0 <= to < N_SITES:",
            f"{b}        for lst in range({n_states}[lk_]):",
            f"{b}            nc_ = {n_cells}[lk_, lst, to]",
            f"{b}            if nc_ > 0 and (frm != to or lst != lnow_):",
            f"{b}                fits_ = True",
            f"{b}                for i in range(nc_):",
            f"{b}                    if not lal_[{cells}[lk_, lst, to, i]]:",
            f"{b}                        fits_ = False",
            f"{b}                        break",
            f"{b}                if fits_:"]
    src.push(out, b + "                    ", "frm", "to", g, "lst")


def _level_effect(src, lud, effect: list[str]) -> tuple[int, int]:
    """`(move (from ... level:) (to ... level:))`'s own action (the action's code and the
    levels its moves report): as `MoveFromTo.compile`, the piece at the level of the origin
    (read with (from) and (to) on their sites; below 0, the top piece) moves to the level of
    the destination (its top for none or below 0), whatever stack: says; both levels are
    the move's extra (`LEVEL_PAIR`) and are reported. Both below 0, the move is the one
    without levels (the whole stack with stack:True)."""
    from .ints import Level
    if lud.copy or lud.count is not None:
        raise Unsupported(lud, "with a level beside copy: or count:")
    if not src.game.stacking:
        raise Unsupported(lud, "with a level in a game without stacks")
    moved = src.stack_write(f"stack_move_level(who, what, count, frm, x // {LEVEL_PAIR} - 1, "
                            f"to, x % {LEVEL_PAIR} - 1)")
    if lud.stack:
        effect += [f"if x == {LEVEL_PAIR + 1}:",
                   "    " + src.stack_write("stack_move_stack(who, what, count, frm, to)"),
                   "else:", "    " + moved]
    else:
        effect.append(moved)
    if isinstance(lud.from_.level, Level):  # the move applied reads (level) as it was made
        effect.insert(0, f"lvl = x // {LEVEL_PAIR} - 1")
    return A_MOVE_LEVEL, LV_PAIR


@emits(MoveFromTo, kind="effect", refuses=("copy", "mover", "stack"))
def _from_to_effect(src, lud, body, then_kernel=False):
    """`(move (from <site>) (to <site>) [count:])` applied at once, as an effect or a
    consequent (Ludii's FromTo, a move generated then applied): `MoveFromTo.compile`'s one
    move, from a site holding a piece to a site of the game. `count:` is read with (from) on
    the origin and (to) as it was, the destination's condition with both on their sites, and
    the destination's effect goes first; its own (then ...) follows, with (from) and (to)
    undefined (as the reference applies a nested move): with `then_kernel` (as a
    consequent), in a kernel of its own (`then_after_move`)."""
    fr, to = lud.from_, lud.to
    refuse(fr, "if_")
    refuse(to, "rotations")
    if not all(isinstance(x.site, (IntFn, type(None))) for x in (fr, to)):
        _from_to_regions_effect(src, lud, body, decision=True)
        return
    levels = fr.level is not None or to.level is not None
    if levels and (lud.count is not None or not src.game.stacking):
        raise Unsupported(lud, "with a level, beside count: or in a game without stacks")
    body += ["sf, st = frm, to",
             f"frm = {src.int_expr(fr.site) if fr.site is not None else 'frm'}",
             f"if 0 <= frm < TOTAL and what[frm] > 0{typed_site(src, fr, 'frm')}:"]
    inner = [f"n_moved = {src.int_expr(lud.count)}"] if lud.count is not None else []
    inner.append(f"to = {src.int_expr(to.site) if to.site is not None else 'st'}")
    moved: list[str] = []
    if to.apply is not None:
        _apply_lines(src, to.apply, moved)
    if levels:
        # As `MoveFromTo.compile`'s actions: the piece at the level (the top for none, or
        # below 0) inserted at the level of the destination (its top for none, below 0 or
        # past it), both read with (from) and (to) on their sites
        lf, lt = (f"max({src.int_expr(x.level)}, -1)" if x.level is not None else "-1"
                  for x in (fr, to))
        moved.append(src.stack_write(f"stack_move_level(who, what, count, frm, {lf}, to, {lt})"))
    elif lud.count is None:
        moved.append(src.site_move())
    else:
        # (read only in a game that counts: empty in the others)
        table = src.owners_table() if src.counting else src.table([])
        moved.append(src.site_move_n(table, "frm", "to", "n_moved"))
    if lud.then is not None and then_kernel:
        moved += then_after_move(src, lud)
    elif lud.then is not None:
        moved += ["frm = -1", "to = -1"]
        emit("then", src, lud.then, moved)
    cond = typed_site(src, to, "to") + (f" and {src.bool_expr(to.if_)}" if to.if_ is not None
                                        else "")
    inner.append(f"if 0 <= to < TOTAL{cond}:")
    inner += ["    " + x for x in moved]
    body += ["    " + x for x in inner]
    body.append("frm, to = sf, st")


emits(MoveFromTo, kind="consequent", refuses=("copy", "mover", "stack"))(
    effect_as_consequent(lambda src, lud, body: _from_to_effect(src, lud, body, True)))


@emits(MoveFromTo, kind="one_move", refuses=("copy", "mover", "stack", "count"))
def _from_to_one_move(src, lud):
    """From one site to one site, without conditions: one move where the origin holds a
    piece and the destination is a site (`MoveFromTo.compile`)."""
    fr, to = lud.from_, lud.to
    refuse(fr, "type", "level", ("if_", "with (from if:...)"))
    refuse(to, "type", "level", "rotations", ("if_", "with (to if:...)"))
    if not isinstance(fr.site, IntFn) or not isinstance(to.site, IntFn):
        raise Unsupported(lud, "with a region, as one move")
    f, t = src.int_expr(fr.site), src.int_expr(to.site)
    return f"(0 <= {f} < TOTAL and what[{f}] > 0 and 0 <= {t} < TOTAL)"


def _to_sites(src, to, layered: bool = False) -> tuple:
    """A `(to ...)`'s sites to iterate as `to`, and " and <its tests>" (or ""); `layered`
    (a caller that writes the destination at its place: `typed_place`), its place too."""
    seq, flt = ("(to,)", None) if to.site is None else _sites_of(src, to.site)
    cond = src.bool_expr(to.if_) if to.if_ is not None else None
    conds = " and ".join(c for c in (flt and flt("to"), cond) if c)
    typed, place = typed_place(src, to, "to") if layered else (typed_site(src, to, "to"), "to")
    tests = typed + (f" and {conds}" if conds else "")
    return (seq, tests, place) if layered else (seq, tests)


def typed_site(src, spec, var: str) -> str:
    """" and <test>" for a (from ...) or (to ...) naming a site type other than the board's
    (its sites are hands' cells, whatever the type: `typed_sites`): the kernel fails on a
    board site as the reference does; "" for the board's own type. A layer of the board the
    game puts pieces on is refused: its sites are read at their own places (`typed_place`)."""
    if spec is None or spec.type in (None, src.env.board.site_type):
        return ""
    if layer_of(src.env, spec.type) is not None:
        raise Unsupported(spec, f"of {spec.type} sites, a layer of the board the game puts "
                                "pieces on")
    return f" and not_board_site({var}, {src.env.num_board_sites})"


def typed_place(src, spec, var: str) -> tuple[str, str]:
    """(" and <test>", the site's place in the kernels' sites) for a (from ...) or (to ...)
    whose site `var` holds as its type numbers it: the board's own type, or another's
    (`typed_site`), at the site itself; a layer of the board the game puts pieces on
    (`layer_of`), at the layer's place (as `layer_site`: a cell numbered as a hand's site
    is the hand's; off the layer, none: the test fails)."""
    bounds = layer_bounds(src.env, spec.type) if spec is not None else None
    if bounds is None:
        return typed_site(src, spec, var), var
    place = f"layer_place({var}, {', '.join(map(str, bounds))})"
    return f" and {place} >= 0", place


def _sites_of(src, site_lud):
    """A site or a region: a sequence to iterate and a filter (see `Source.region_sites`)."""
    if isinstance(site_lud, IntFn):
        return f"({src.int_expr(site_lud)},)", None
    return src.region_sites(site_lud)


def _from_to_moving(src, lud, inner: list[str], moving: str, whole: bool) -> None:
    """A (fromTo ...)'s move of `n_moved` pieces from `frm` to `to` (`moving`: one piece's
    line), then its own (then ...) with (from) and (to) undefined. `whole`: with stack:True,
    `FromTo.compile`'s stack_kind, one action: the whole stack or its top `count:` levels."""
    if whole:
        if not src.game.stacking:
            raise Unsupported(lud, "with stack: in a game without stacks")
        inner.append(src.stack_write("stack_move_stack(who, what, count, frm, to)")
                     if lud.count is None
                     else src.site_move_n("what[:0]", "frm", "to", "n_moved"))
    else:
        inner += ["for _ in range(n_moved):", "    " + moving]
    if lud.then is None:
        return
    # A sowing's capture (`sowing._sow_consequent`): its consequents read it as the last
    # move, as the reference applies it on a copy of the sown position; the last move is
    # the decision's again after them.
    # Its consequents then make a kernel of their own (`then_after_move`: as a part of an
    # (and ...), they read the position as applied, `_parts_in_turn`).
    if not src.then_as_last_move:
        inner += ["frm = -1", "to = -1"]
        emit("then", src, lud.then, inner)
        return
    src.then_as_last_move = False
    try:
        call = then_after_move(src, lud)
    finally:
        src.then_as_last_move = True
    src.last_move_thens.update(call)
    inner += ["lmvf_ = sc[LAST_FROM]", "lmvt_ = sc[LAST_TO]", "sc[LAST_FROM] = frm",
              "sc[LAST_TO] = to", *call, "sc[LAST_FROM] = lmvf_", "sc[LAST_TO] = lmvt_"]


def _from_to_regions_effect(src, lud, body, decision: bool = False):
    """`_from_to_effect` from or to a region: as `FromTo.compile`, every move is made on the
    position before any is applied (each occupied origin in turn, its destinations listed
    with (from) on it; `count:` read with (from) as it was and (to) on the destination
    before), then each is applied in order, its own (then ...) after it. With `decision`,
    `(move (from ...) (to ...))`'s moves, as `MoveFromTo.compile` makes them: an origin
    holding a piece (not only a count), `count:` read once per origin with (from) on it and
    (to) as it was, destinations among the sites."""
    fr, to = lud.from_, lud.to
    if decision:
        refuse(lud, ("count", "with count: from or to a region, as an effect"))
        if src.game.large_pieces:
            raise Unsupported(lud, "from or to a region, as an effect, in a game with large "
                                   "pieces")
    refuse(fr, ("level", "with (from ... level:) from or to a region"))
    refuse(to, ("apply", "with (to ... (apply ...)) from or to a region"))
    k = src.fresh_name("ft")
    f_seq, f_flt = _sites_of(src, fr.site) if fr.site is not None else ("(frm,)", None)
    t_seq, t_flt = _sites_of(src, to.site) if to.site is not None else ("(to,)", None)
    f_ok = f" and {f_flt('fs')}" if f_flt else ""
    t_ok = f" and {t_flt('ts')}" if t_flt else ""
    n = src.int_expr(lud.count) if lud.count else "1"
    cond = src.bool_expr(to.if_) if to.if_ is not None else "True"
    occupied = "what[fs] > 0" if decision else "(what[fs] > 0 or count[fs] > 0)"
    # count: once per origin (a decision's), else per destination with (from) as it was
    per_origin = [f"        n_moved = {n}"] if decision else []
    per_to = [] if decision else [f"                frm = {k}_f", f"                n_moved = {n}"]
    t_ok += " and ts < TOTAL" if decision else ""
    # (fs, ts, n) of each move, grown as needed
    body += [f"{k}_f, {k}_t = frm, to",
             f"{k} = np.empty(3 * TOTAL, np.int64)",
             f"{k}_n = 0",
             f"for fs in {f_seq}:",
             f"    if 0 <= fs < TOTAL{f_ok} and {occupied}"
             f"{typed_site(src, fr, 'fs')}:",
             "        frm = fs",
             *per_origin,
             f"        for ts in {t_seq}:",
             f"            if ts >= 0{t_ok}{typed_site(src, to, 'ts')}:",
             *per_to,
             "                frm, to = fs, ts",
             f"                if {cond}:",
             f"                    if 3 * {k}_n + 3 > {k}.shape[0]:",
             f"                        {k} = np.concatenate(({k}, np.empty({k}.shape[0], np.int64)))",
             f"                    {k}[3 * {k}_n], {k}[3 * {k}_n + 1] = fs, ts",
             f"                    {k}[3 * {k}_n + 2] = n_moved",
             f"                    {k}_n += 1",
             "                frm = fs",
             f"frm = {k}_f"]
    inner: list[str] = []
    _from_to_moving(src, lud, inner, src.site_move("frm", "to"), lud.stack)
    body += [f"for {k}_i in range({k}_n):",
             f"    frm, to = {k}[3 * {k}_i], {k}[3 * {k}_i + 1]",
             f"    n_moved = {k}[3 * {k}_i + 2]",
             *("    " + x for x in inner),
             f"frm, to = {k}_f, {k}_t"]


def _moving(src, lud, levels: int) -> tuple[str, int, int]:
    """A move's own action as its ludeme's `stack:` says (`_moving_action`): the effect
    line, the action's code and the levels its moves report (`levels` for the top piece's
    move; a whole stack's reports none)."""
    if lud.stack:
        return (src.stack_write("stack_move_stack(who, what, count, frm, to)"), A_MOVE_STACK,
                LV_NONE)
    return src.site_move(), A_MOVE, levels


@emits(MoveStep, kind="moves")
def _step_moves(src, lud, out, ind):
    from .ints import Level
    if lud.from_ is not None and lud.from_.type not in (None, src.env.board.site_type):
        _layered_step_moves(src, lud, out, ind)
        return
    if type(lud.dirn).__name__ == "DirectionsBetween":
        _step_between_moves(src, lud, out, ind)
        return
    # (from ... level:): read with the enclosing (from), before the start is set (as
    # `MoveStep.compile`); below -1 no move
    level = lud.from_.level if lud.from_ is not None else None
    if level is not None:
        if lud.stack:
            raise Unsupported(lud, "with (from ... level:) and stack:True")
        if not src.game.stacking:
            raise Unsupported(lud, "with (from ... level:) in a game without stacks")
        lvs = f"slv_{len(ind)}"
        out.append(f"{ind}{lvs} = {src.int_expr(level)}")
    # (from <site>): the start read before the step sets (from) to it, restored after
    given = from_site(src, lud, level=True) \
        if lud.from_ is not None and lud.from_.site is not None else None
    if given is not None:
        kept = f"ssf_{len(ind)}"
        out.append(f"{ind}{kept} = frm")
        out.append(f"{ind}frm = {given}")
    f_ok = _from_condition(src, lud, level=True)
    to = lud.to
    # (to <sites> ...): Ludii's Step never reads them (its destinations are the steps in its
    # directions), as the reference builds them and leaves them out of play
    refuse(to, "level", "type")
    dirn = lud.dirn or "Adjacent"
    env = src.env
    n = env.num_board_sites
    # (if <cond> <directions> <directions>): a table per branch, the condition read as the
    # reference reads it, once for each start site
    import numpy as np
    branches = list(dirn.branches) if hasattr(dirn, "branches") else [dirn]
    # kinds whose steps are the same in every branch share a slot of the tables
    per_kind, slots = src.kind_slots(list(zip(*(_step_targets(src, lud, d) for d in branches))))
    parts = [src.padded([[list(ts) for ts in tab] for tab in kinds])
             for kinds in zip(*per_kind)]
    width = max(t.shape[2] for t, _ in parts)
    targets = np.full((len(parts), *parts[0][0].shape[:2], width), -1)
    lens = np.zeros((len(parts), *parts[0][1].shape), dtype=np.int64)
    for b, (t, ln) in enumerate(parts):
        targets[b, :, :, :t.shape[2]] = t
        lens[b] = ln
    ttab, ltab = src.table(targets), src.table(lens)
    effect = []
    if to.apply is not None:
        _apply_lines(src, to.apply, effect)
    line, kind, levels = _moving(src, lud, LV_TOP)      # the levels as MoveStep.compile
    x = "-1"
    if level is not None:
        # the piece at the level (the top for -1: its level kept) moves, the level reported
        line = src.stack_write("stack_move_level(who, what, count, frm, x, to, -1)")
        kind, levels = A_MOVE_LEVEL, LV_GIVEN
        if isinstance(level, Level):    # the move applied reads (level) as it was made
            effect.insert(0, "lvl = x")
        f_ok += f" and {lvs} >= -1"
        x = f"({lvs} if {lvs} >= 0 else count[TOTAL + frm] - 1)"
    g = src.new_generator(effect + [line], lud=lud, kind=kind, levels=levels)
    cond = src.bool_expr(to.if_) if to.if_ is not None else "True"
    out.append(f"{ind}if 0 <= frm < {n}{f_ok}:")
    out.append(f"{ind}    w = {slots}[{src.kind_at('frm')}]")
    branch = f"(0 if {src.bool_expr(dirn.cond)} else 1)" if len(branches) > 1 else "0"
    out.append(f"{ind}    sbr = {branch}")
    out.append(f"{ind}    for j in range({ltab}[sbr, w, frm]):")
    out.append(f"{ind}        to = {ttab}[sbr, w, frm, j]")
    out.append(f"{ind}        if {cond}:")
    src.push(out, ind + "            ", "frm", "to", g, x)
    if given is not None:
        out.append(f"{ind}frm = {kept}")


def _layered_step_moves(src, lud, out, ind):
    """`(move Step (from <type> ...) ...)` on a layer of the board the game puts pieces on
    (`Game.layers`), as `MoveStep.compile` makes it: the steps of that type's own tables from
    `(from)` (an element's index), the piece moved between the elements' places
    (`typed_place`), the decision of that type (`Source.generator_types`). No level, stack,
    effect of the destination, nor directions that read the position."""
    fr, to = lud.from_, lud.to
    t = fr.type
    if layer_of(src.env, t) is None:
        raise Unsupported(lud, f"on {t} sites, a layer the game puts no pieces on")
    dirn = lud.dirn or "Adjacent"
    tables = src.env.tables_of(t)
    if fr.level is not None or lud.stack or to.apply is not None or src.game.large_pieces \
            or src.game.hidden_info or type(dirn).__name__ == "DirectionsBetween" \
            or not tables.is_static_direction(dirn):
        raise Unsupported(lud, f"on {t} sites, with a level, stack:, an effect of the "
                               "destination, large or hidden pieces, or directions read in play")
    refuse(to, "level")       # (its type: never read by Ludii's Step)
    import numpy as np
    rows = [list(ts) for ts in tables.step_targets(dirn, lud)]
    width = max((len(r) for r in rows), default=0) or 1
    targets = np.full((max(1, len(rows)), width), -1)
    lens = np.zeros(max(1, len(rows)), dtype=np.int64)
    for i, r in enumerate(rows):
        targets[i, :len(r)] = r
        lens[i] = len(r)
    ttab, ltab = src.table(targets), src.table(lens)
    spec_place = typed_place(src, fr, "frm")[1]
    effect = [f"mpf_ = {spec_place}", f"mpt_ = {typed_place(src, fr, 'to')[1]}",
              src.site_move("mpf_", "mpt_")]
    g = src.new_generator(effect, lud=lud, kind=A_MOVE, levels=LV_NONE)
    src.generator_types[g] = (t, t)
    given = src.int_expr(fr.site) if fr.site is not None else None
    if given is not None:       # (from <site>): read before the step sets (from) to it
        kept = f"ssf_{len(ind)}"
        out += [f"{ind}{kept} = frm", f"{ind}frm = {given}"]
    f_ok = f" and {src.bool_expr(fr.if_)}" if fr.if_ is not None else ""
    cond = src.bool_expr(to.if_) if to.if_ is not None else "True"
    out += [f"{ind}if 0 <= frm < {len(rows)}{f_ok}:",
            f"{ind}    for j in range({ltab}[frm]):",
            f"{ind}        to = {ttab}[frm, j]",
            f"{ind}        if {cond}:"]
    src.push(out, ind + "            ", "frm", "to", g, "-1")
    if given is not None:
        out.append(f"{ind}frm = {kept}")


def _step_between_moves(src, lud, out, ind):
    """A step in the directions between two sites ((directions from:<a> to:<b>), read with
    the enclosing (from) before the step sets it, as `MoveStep.compile`'s `targets`): the
    board's directions (of the All relation) with a radial from a through b, by a table per
    pair of sites, the sites one step away in each from the start, each once, in turn."""
    import numpy as np
    dirn = lud.dirn
    if dirn.type not in (None, src.env.board.site_type):
        raise Unsupported(dirn, f"of {dirn.type} sites on a board of "
                                f"{src.env.board.site_type} sites")
    if lud.from_ is not None and lud.from_.level is not None:
        raise Unsupported(lud, "with (from ... level:) beside (directions from: to:)")
    board, n = src.env.board, src.env.num_board_sites
    names = [d for d in board.relation_dirs("All") if d in board.radials]
    between = [[[] for _ in range(n)] for _ in range(n)]
    for i, d in enumerate(names):
        for a in range(n):
            for b in sorted({b for r in board.radials[d][a] for b in r.sites[1:]}):
                between[a][b].append(i)
    width = max((len(x) for row in between for x in row), default=0) or 1
    t_between = np.full((n, n, width), -1)
    for a in range(n):
        for b in range(n):
            t_between[a, b, :len(between[a][b])] = between[a][b]
    steps = [[list(board.trajectories.targets(s_, d)) for s_ in range(n)] for d in names] \
        or [[[] for _ in range(n)]]
    depth = max((len(t) for per in steps for t in per), default=0) or 1
    t_steps = np.full((len(steps), n, depth), -1)
    t_nsteps = np.zeros((len(steps), n), dtype=np.int64)
    for i, per in enumerate(steps):
        for s_, t in enumerate(per):
            t_steps[i, s_, :len(t)] = t
            t_nsteps[i, s_] = len(t)
    DB, ST, SN = src.table(t_between), src.table(t_steps), src.table(t_nsteps)
    d = len(ind)
    # the two sites read with the enclosing (from)
    out.append(f"{ind}dba_{d}, dbb_{d} = {src.int_expr(dirn.from_)}, {src.int_expr(dirn.to)}")
    given = from_site(src, lud) if lud.from_ is not None and lud.from_.site is not None \
        else None
    if given is not None:
        out.append(f"{ind}ssf_{d} = frm")
        out.append(f"{ind}frm = {given}")
    f_ok = _from_condition(src, lud)
    to = lud.to
    refuse(to, "level", "site", "type")
    effect = []
    if to.apply is not None:
        _apply_lines(src, to.apply, effect)
    line, kind, levels = _moving(src, lud, LV_TOP)
    g = src.new_generator(effect + [line], lud=lud, kind=kind, levels=levels)
    cond = src.bool_expr(to.if_) if to.if_ is not None else "True"
    i4 = ind + "            "
    out += [f"{ind}if 0 <= frm < {n}{f_ok} and 0 <= dba_{d} < {n} and 0 <= dbb_{d} < {n}:",
            f"{ind}    for dk_ in range({width}):",
            f"{ind}        dd_ = {DB}[dba_{d}, dbb_{d}, dk_]",
            f"{ind}        if dd_ < 0:",
            f"{ind}            break",
            f"{ind}        for j in range({SN}[dd_, frm]):",
            f"{i4}to = {ST}[dd_, frm, j]",
            f"{i4}seen_ = False",        # a site an earlier direction reached: once
            f"{i4}for dk2_ in range(dk_):",
            f"{i4}    dd2_ = {DB}[dba_{d}, dbb_{d}, dk2_]",
            f"{i4}    for j2 in range({SN}[dd2_, frm]):",
            f"{i4}        if {ST}[dd2_, frm, j2] == to:",
            f"{i4}            seen_ = True",
            f"{i4}if not seen_ and {cond}:"]
    src.push(out, i4 + "    ", "frm", "to", g)
    if given is not None:
        out.append(f"{ind}frm = ssf_{d}")


def _step_targets(src, lud, dirn) -> list:
    """Per kind of piece, per start site: the sites one step away in these directions (the
    same for every kind unless the directions are the piece's own)."""
    env = src.env
    if env.is_static_direction(dirn):
        return [env.step_targets(dirn, lud)] * src.kind_rows
    _refuse_unless_by_piece(lud, dirn)
    keys = env.direction_keys(dirn, lud)
    step_to = env.board.trajectories.targets
    made: dict = {}         # (keys, site) -> its targets: most kinds' pieces face alike

    def targets(probe, f):
        at = (tuple(keys(probe, f)), f)
        got = made.get(at)
        if got is None:
            got = made[at] = tuple(dict.fromkeys(t for key in at[0] for t in step_to(f, key)))
        return got
    # (the same for every copy of the step: made once)
    return src.once(("step targets", lud, dirn), lambda: src.per_kind(targets))


def _refuse_unless_by_piece(lud, dirn) -> None:
    """Refuse (Unsupported) directions that read more than the board and the piece at the
    site (its owner and facing): those of the last move, or an (if ...) inside a
    (difference ...) or (union ...) of directions (read with `direction_keys` per kind of
    piece, as tabulated by `per_kind`)."""
    parts = getattr(dirn, "direction_parts", None)     # (difference ...), (union ...)
    if parts is not None:
        for part in parts():
            _refuse_unless_by_piece(lud, part)
        return
    if hasattr(dirn, "direction_keys"):
        raise Unsupported(lud, f"with ({dirn.keyword} ...) as its directions")
    words = [dirn] if isinstance(dirn, str) else list(dirn.dirs)
    if any(w in ("SameDirection", "OppositeDirection") for w in words):
        raise Unsupported(lud, "with SameDirection/OppositeDirection")


@emits(Apply, kind="apply")
def _apply_lines(src, ap, lines: list[str]) -> None:
    """An `(apply [if:] <effect>)` evaluated before the move's own action."""
    if ap.effect is None:
        raise Unsupported(ap, "without an effect")
    body = []
    src.effect_body(ap.effect, body)
    if ap.if_ is not None:
        lines.append(f"if {src.bool_expr(ap.if_)}:")
        lines.extend("    " + x for x in body)
    else:
        lines.extend(body)


@emits(MovesIf, kind="effect", refuses=(("then", "with (then ...) as an effect"),))
def _if_effect(src, eff, body):
    body.append(f"if {src.bool_expr(eff.cond)}:")
    inner: list[str] = []
    src.effect_body(eff.then_, inner)
    body.extend("    " + x for x in inner or ["pass"])
    if eff.else_ is not None:
        body.append("else:")
        inner = []
        src.effect_body(eff.else_, inner)
        body.extend("    " + x for x in inner or ["pass"])


@emits(RemoveEffect, kind="effect")
def _remove_effect(src, eff, body, then_kernel=False, each: bool = False):
    """The piece goes now, or, at:EndOfTurn, its site is marked (cleared when the turn
    ends, `step`); count: removes that many times (read before the first, as the
    reference's actions); its own (then ...) follows at once, with (from) and (to)
    undefined (as the reference applies a nested move): with `then_kernel` (as a
    consequent), in a kernel of its own (`then_after_move`). Of a region, its sites holding a
    piece are listed first (in the reference's order, a site listed twice kept twice), then
    each loses its piece: the reference lists them all before the first goes; with `each`
    (a (move Remove ...)'s moves applied one by one), its (then ...) follows each. A type
    other than the board's names hands' cells (`typed_sites`): a board site fails, as in the
    reference; on a layer of the board the game puts pieces on, each site read at its place
    (`typed_place`)."""
    clear = src.site_clear("rs")
    typed = ""
    place = None        # of a layer: the place of a site of its type (`rw`) in the sites
    if eff.type not in (None, src.env.board.site_type):
        if layer_site(src.env, eff.type) is not None:
            if eff.level is not None or eff.at == "EndOfTurn":
                raise Unsupported(eff, f"of {eff.type} sites, a layer of the board the game "
                                       "puts pieces on, with level: or at:EndOfTurn")
            place = typed_place(src, eff, "rw")[1]
        else:
            typed = f"not_board_site(rs, {src.env.num_board_sites}) and "
    if eff.level is not None:
        # the piece at the level (read once, below 0 the bottom) goes, each time; the top
        # level is no level, the top piece goes each time (Ludii's Remove,
        # `_level_removals`, read before the first); a level past the stack leaves it
        refuse(eff, ("at", "with level: and at:"))
        if not src.game.stacking or not isinstance(eff.where, IntFn):
            raise Unsupported(eff, "with level: over a region or in a game without stacks")
        body.append(f"rlv = max(0, {src.int_expr(eff.level)})")
        clear = src.stack_write("stack_take(who, what, count, rs, rlx)")
    if eff.at == "EndOfTurn":
        # each removal marks the site once more (the reference's to_clear counts them: in a
        # stacking game as many pieces go, `step`)
        removal = ["for _ in range(rn):", "    sc[CLEAR + rs] += 1"] if eff.count is not None \
            else ["sc[CLEAR + rs] += 1"]
    elif eff.count is not None:
        removal = ["for _ in range(rn):", f"    {clear}"]
    else:
        removal = [clear]
    if isinstance(eff.where, IntFn):
        if place is not None:
            body += [f"rw = {src.int_expr(eff.where)}", f"rs = {place}"]
        else:
            body.append(f"rs = {src.int_expr(eff.where)}")
        body.append(f"if {typed}rs >= 0 and what[rs] > 0:")
        if eff.count is not None:
            body.append(f"    rn = max(1, {src.int_expr(eff.count)})")
        if eff.level is not None:
            body.append("    rlx = -1 if count[TOTAL + rs] == rlv + 1 else rlv")
    else:
        seq, flt = src.region_sites(eff.where)
        if place is not None:
            # the sites of the layer's type (`rw`), each listed at its place
            ok = f" and {flt('rw')}" if flt else ""
            listing = [f"for rw in {seq}:", f"    rs = {place}",
                       f"    if rs >= 0{ok} and what[rs] > 0:"]
        else:
            ok = f" and {flt('rs')}" if flt else ""
            listing = [f"for rs in {seq}:",
                       f"    if {typed}0 <= rs < TOTAL{ok} and what[rs] > 0:"]
        body += ["nrs = 0", *listing, "        nrs += 1", "rbuf = np.empty(nrs, np.int64)",
                 "nrs = 0", *listing, "        rbuf[nrs] = rs", "        nrs += 1"]
        if eff.count is not None:
            body.append(f"rn = max(1, {src.int_expr(eff.count)})")
        body.append("for rs in rbuf:")
        body += ["    " + x for x in removal]
        removal = []
        if each:
            body.extend("    " + x for x in _removal_then(src, eff, len(body), True))
            return
        body.append("if nrs > 0:")
    body += ["    " + x for x in removal]
    body.extend("    " + x for x in _removal_then(src, eff, len(body), then_kernel or each))


def _removal_then(src, eff, n: int, in_kernel: bool) -> list[str]:
    """A removal's own (then ...), with (from) and (to) undefined (as the reference applies
    a nested move), or `pass`; with `in_kernel`, a kernel's call reading the position as
    applied (`then_after_move`)."""
    if eff.then is None:
        return ["pass"]
    if in_kernel:
        return then_after_move(src, eff)
    saved = f"rft{n}"
    then = [f"{saved} = frm, to", "frm = -1", "to = -1"]
    emit("then", src, eff.then, then)
    then.append(f"frm, to = {saved}")
    return then


emits(RemoveEffect, kind="consequent")(
    effect_as_consequent(lambda src, eff, body: _remove_effect(src, eff, body, True)))


@emits(MoveRemove, kind="consequent")
def _move_remove_consequent(src, lud, lines, ind):
    """As a consequent, its moves (one per occupied site, all listed first) are applied one
    after the other, each followed by its own (then ...) (`MoveRemove.compile`): the
    removal effect's lines, its (then ...) after each site."""
    body: list[str] = []
    _remove_effect(src, lud, body, each=True)
    lines.extend(ind + x for x in body)


@emits(RemoveEffect, kind="one_move", refuses=("level", "type"))
def _remove_one_move(src, eff):
    """A removal at one site is one move where the site holds a piece; of a region, one
    move where one of its sites does (`RemoveEffect.compile`: its removals together)."""
    if not isinstance(eff.where, IntFn):
        return src._loop_kernel(eff.where, ["    hit = False"],
                                ["if 0 <= site < TOTAL and what[site] > 0:", "    hit = True"],
                                "hit")
    rs = src.int_expr(eff.where)
    return f"({rs} >= 0 and what[{rs}] > 0)"


@emits(Then, kind="then", refuses=("applyAfterAllMoves",))
def _then_lines(src, then, lines):
    """The consequents, applied with the move: no (forEach Die) that generated it binds
    (pips) there (the moves a consequent tests are its own, inner (forEach Die) too)."""
    saved = src.in_then, src.pips_bound, src.move_tag, src.move_tag_packed
    src.in_then, src.pips_bound, src.move_tag, src.move_tag_packed = True, False, None, False
    if src.then_kernel_depth == 0:      # written into the lines around (`thens_apart`)
        src.inline_thens.add(id(then))
    try:
        src.consequent(then.moves, lines, "")
    finally:
        src.in_then, src.pips_bound, src.move_tag, src.move_tag_packed = saved


@emits(PassEffect, kind="consequent")
def _pass_consequent(src, lud, lines, ind):
    """Its one action, which changes nothing (`PassEffect.compile`), then its (then ...)."""
    lines.append(f"{ind}sc[NUM_ACTIONS] += 1")
    if lud.then is not None:
        lines.extend(ind + x for x in then_after_move(src, lud))


@emits(PassEffect, kind="one_move")
def _pass_one_move(src, lud):
    """`(pass)` as an effect is always one move."""
    return "True"


@emits(MoveAgain, kind="consequent")
def _again_consequent(src, lud, lines, ind):
    lines.append(f"{ind}sc[NEXT] = mover")
    lines.append(f"{ind}sc[REPLAYED] = 1")


@emits(MoveAgain, kind="effect")
def _again_effect(src, lud, body):
    _again_consequent(src, lud, body, "")


@emits(MoveAgain, kind="one_move")
def _again_one_move(src, lud):
    """`(moveAgain)` is always one move."""
    return "True"


emits(PassEffect, kind="effect", refuses=(("then", "with (then ...) as an effect"),))(
    lambda src, lud, body: _pass_consequent(src, lud, body, ""))


@emits(MovesIf, kind="consequent")
def _if_consequent(src, lud, lines, ind):
    """The moves of the branch the condition chooses applied; a (then ...) follows each
    of them (`then_after_each`), none where the branch makes none."""
    after = then_after_move(src, lud) if lud.then is not None else None
    lines.append(f"{ind}if {src.bool_expr(lud.cond)}:")
    then_after_each(src, lud, lud.then_, after, lines, ind + "    ")
    if lud.else_ is not None:
        lines.append(f"{ind}else:")
        then_after_each(src, lud, lud.else_, after, lines, ind + "    ")


@emits(MovesIf, kind="one_move", refuses=(("then", "with (then ...) as one move"),))
def _if_one_move(src, lud):
    """One move where the branch the condition picks makes one (none without an else)."""
    cond = src.bool_expr(lud.cond)
    then = emit("one_move", src, lud.then_)
    other = emit("one_move", src, lud.else_) if lud.else_ is not None else "False"
    return f"(({then}) if {cond} else ({other}))"


# A number for the locals of each consequent whose moves a (then ...) follows: nested ones
# keep theirs apart.
_AFTER_NAMES = itertools.count()


def then_after_move(src, lud) -> list[str]:
    """The lines of `lud`'s (then ...), applied after one of the moves `lud` makes as a
    consequent: read with (from) and (to) undefined, and no (player) or group bound, as the
    reference evaluates each consequent. They make a helper kernel of their own (its
    actions counted there), so that their locals (loops, copies of the position) are not
    those of the lines around them."""
    from ludeme.engine.compiled.codegen import counted_actions
    body = ["frm = -1", "to = -1"]
    saved = src.player_bound, src.group_bound
    src.player_bound = src.group_bound = False
    src.then_kernel_depth += 1
    try:
        emit("then", src, lud.then, body)
    finally:
        src.player_bound, src.group_bound = saved
        src.then_kernel_depth -= 1
    body = counted_actions(body, src.reads_after)
    kernel = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        src.context(local=()), *("    " + x for x in body), "    return", ""]))
    call = f"{kernel}(who, what, count, sc, phase, frm, to, btw)"
    src.kernel_thens.add(id(lud.then))
    src.then_calls.add(call)
    src.then_bodies[call] = body
    return [call]


def then_after_each(src, lud, part, after, lines: list[str], ind: str) -> None:
    """The lines of the consequent `part`, with `after` (a (then ...)'s lines, or None)
    applied after each move it makes, as the reference appends them to each
    (`_counted_part`)."""
    if after is None:
        src.consequent(part, lines, ind)
        return
    own, then = _counted_part(src, lud, part, after, ind)
    lines += own + then


# The ludemes whose moves `moves_made` counts by a function of their own module, (src, lud)
# -> its answer ((do ... next:) after its first moves, (forEach Site ...) site by site).
COUNTERS: dict = {}


def moves_made(src, lud):
    """How many moves `lud` makes as a consequent on the position now: (an integer
    expression, the most it can make, whether it always makes that many), or None where
    unknown. (and ...), (or ...) and (if ...) add up or choose among their parts' counts
    (their own (then ...) changes no count); another ludeme needs its `one_move` form (a
    condition for one move, else none)."""
    if type(lud) in (MovesAnd, MovesOr):
        parts = [moves_made(src, m) for m in list(lud.moves) + list(lud.more or [])]
        if any(p is None for p in parts):
            return None
        return ("(" + " + ".join(p[0] for p in parts) + ")", sum(p[1] for p in parts),
                all(p[2] for p in parts))
    if type(lud) is MovesIf:
        a = moves_made(src, lud.then_)
        b = moves_made(src, lud.else_) if lud.else_ is not None else ("0", 0, False)
        if a is None or b is None:
            return None
        same = a[2] and b[2] and a[1] == b[1]
        return f"({a[0]} if {src.bool_expr(lud.cond)} else {b[0]})", max(a[1], b[1]), same
    counter = COUNTERS.get(type(lud))
    if counter is not None:
        return counter(src, lud)
    from .note import Note
    if type(lud) is Note and lud.to in (None, "All"):
        return "NP", src.game.num_players, True       # one move per player, each told
    if lookup("one_move", lud) is None:
        return None
    cond = emit("one_move", src, lud)
    return ("1", 1, True) if cond == "True" else (f"(1 if {cond} else 0)", 1, False)


def _counted_part(src, lud, part, after, ind: str) -> tuple[list[str], list[str]]:
    """(the lines of the consequent `part`, those of `after` applied after each move it
    makes). The moves it makes are counted on the position before it
    (`moves_made`), as the reference makes them all before applying any: it must
    make one at most, or moves that hold no action (notes: `after` is applied once for
    each, in turn)."""
    from .note import Note
    made = moves_made(src, part)
    if made is None:
        raise Unsupported(lud, "with (then ...) as a consequent, after moves not counted")
    count, most, always = made
    k = next(_AFTER_NAMES)
    own: list[str] = []
    if not (always and most == 1):
        own.append(f"{ind}mk{k} = {count}")
    src.consequent(part, own, ind)
    if always and most == 1:
        then = [ind + x for x in after]
    elif most == 1:
        then = [f"{ind}if mk{k} > 0:", *(ind + "    " + x for x in after)]
    elif type(part) is Note:            # its moves hold no action: (then ...) after each
        then = [f"{ind}for _mi{k} in range(mk{k}):", *(ind + "    " + x for x in after)]
    else:
        raise Unsupported(lud, "with (then ...) as a consequent, after a part that may "
                               "make several moves")
    return own, then


@emits(MovesAnd, MovesOr, kind="consequent")
def _and_consequent(src, lud, lines, ind):
    """Every move of each part applied (`(or ...)` as a consequent is the same union); a
    (then ...) follows each move made (`then_after_each`)."""
    # Ludii evaluates them all, then applies them; the kernels apply each part in turn, so
    # a capture (which scans the board for its targets) after another part would see that
    # part's captures, and make other (or fewer) removals than the reference lists.
    parts = list(lud.moves) + list(lud.more or [])
    if lud.then is None:
        lines += _parts_in_turn(src, lud, parts, lambda m, out: src.consequent(m, out, ind))
        return
    after = then_after_move(src, lud)
    lines += _parts_in_turn(src, lud, parts, None,
                            split=lambda m: _counted_part(src, lud, m, after, ind))


@emits(MovesAnd, kind="effect", refuses=(("then", "as an effect"),))
def _and_effect(src, lud, body):
    """Each part's effect in turn (as `_and_consequent`)."""
    body += _parts_in_turn(src, lud, list(lud.moves) + list(lud.more or []),
                           lambda m, out: src.effect_body(m, out))


# A helper kernel that reads one copy of the state and writes another (a sowing made inside
# another move's effect, `sowing._sow_effect`) is called with the written one first.
# (The copy it reads may already be a snapshot's, `who_0`, ...: see `_on_snapshot`.)
_STATE_ARGS = ("who", "what", "count", "sc", "phase")
_RW_CALL = (r"|\s*\w+\(who, what, count, sc, phase, "
            + ", ".join(rf"{a}(?:_0)?" for a in _STATE_ARGS) + r"\b")

# What the lines of a compiled part write and read: the board's arrays, or a block of the
# scalars. A write is one of Ludii's actions (`codegen.counted_actions` knows them).
_WRITES = {"board": re.compile(r"\s*(site_\w+|stack_\w+)\(|\s*what\[[^\]]+\] = " + _RW_CALL),
           "vars": re.compile(r"\s*sc\[VARS"), "values": re.compile(r"\s*sc\[PVAL"),
           "scores": re.compile(r"\s*sc\[SCORE"),
           "states": re.compile(r"\s*sc\[STATE" + _RW_CALL),
           "pending": re.compile(r"\s*pend_add\("), "remembered": re.compile(r"\s*rem_\w+\("),
           "next player": re.compile(r"\s*sc\[NEXT\]"),
           "hidden flags": re.compile(r"\s*sc\[HID|.*\bhidden_move\(")}
# (a helper kernel handed the board reads it: `helper_3(who, what, count`, `helper_3(what, `,
# `helper_3(who, count, `)
_READS = {"board": re.compile(r"\b(who|what|count)\[|\(who, what, count\b"
                              r"|\bhelper_\d+\((who|what|count)\b|LAST_(TO|FROM)_AFTER"),
          "vars": re.compile(r"sc\[VARS|\(who, what, count, sc\b"),
          "values": re.compile(r"sc\[PVAL|\(who, what, count, sc\b"),
          "scores": re.compile(r"sc\[SCORE|\(who, what, count, sc\b"),
          "states": re.compile(r"sc\[STATE|\(who, what, count, sc\b"),
          "pending": re.compile(r"PENDN|PENDING|pending_one|\(who, what, count, sc\b"),
          "remembered": re.compile(r"\bREM\b|\(who, what, count, sc\b"),
          "next player": re.compile(r"sc\[NEXT\]|\(who, what, count, sc\b"),
          "hidden flags": re.compile(r"\bHID\b")}


def _parts_in_turn(src, lud, parts, emit_part, split=None) -> list[str]:
    """The parts' lines, one part after another. The reference makes every part's moves on
    the position before any is applied; the kernels apply each part in turn, so a part that
    reads what an earlier part wrote reads a copy of the position taken before the first
    (`_on_snapshot`), or is refused where its lines cannot. `split(part)`, given instead of
    `emit_part(part, out)`, gives (the part's lines, the lines of the consequents that
    follow its moves): these read the position itself, as applied, as do the calls of the
    kernels that apply a part's own consequents (`thens_apart`)."""
    out: list[str] = []
    written: set[str] = set()
    snapshot = False
    for m in parts:
        lines: list[str] = []
        then: list[str] = []
        if split is not None:
            lines, then = split(m)
        else:
            emit_part(m, lines)
        for line in lines:
            # a sowing's capture's consequents read the sown position, with the capture
            # only (`effects._from_to_moving`): not what an earlier part changed
            if line.strip() in src.last_move_thens and \
                    _reads(src.then_bodies[line.strip()]) & written:
                raise Unsupported(lud, "with a capture whose consequents read what an earlier "
                                       "part changed (the reference reads the sown position)")
        read = _reads(lines, src.then_calls, _helper_sources(src)) & written
        if read:
            why = (f"with a part that reads the {min(read)} after an earlier part "
                   "changed them (the reference reads them before any part)")
            if _has_then(m) and not thens_apart(src, m):
                # its consequents, written into its lines, read the position once applied
                raise Unsupported(lud, why)
            try:
                lines = _on_snapshot(lud, lines, why, src.then_calls)
            except Unsupported:
                if split is not None:
                    raise
                # made again where it can read a copy it is handed (a sowing with captures)
                lines = []
                src.sow_read_copy = frozenset(written)
                try:
                    emit_part(m, lines)
                finally:
                    src.sow_read_copy = None
                lines = _on_snapshot(lud, lines, why, src.then_calls)
            snapshot = True
        written |= _writes(lines) | _writes(then)
        out += lines + then
    if not snapshot:
        return out
    ind = out[0][:len(out[0]) - len(out[0].lstrip())]   # the parts' own indentation
    return [ind + SNAPSHOT] + out


# The copy of the state that `_on_snapshot`'s lines read.
SNAPSHOT = ("who_0, what_0, count_0, sc_0, phase_0 = who.copy(), what.copy(), count.copy(), "
            "sc.copy(), phase.copy()")


# The names of the copy a part's own loop reads (`SNAPSHOT`): reading it is reading the state.
_SNAPSHOT_NAME = re.compile(r"\b(who|what|count|sc|phase)_0\b")


def _reads(lines: list[str], applied=(), helpers=None) -> set[str]:
    """What of the state the lines read, through a copy taken inside them too: of an action
    statement, what its value and the subscript it writes read (`sc[SCORE + p] += <value>`),
    not its target; of an action made by a call, nothing; of a line in `applied` (the call
    of a kernel applying consequents, `thens_apart`), nothing: it reads the position as
    applied, as the reference's consequents do. A helper kernel handed the whole state reads
    what its lines read, where `helpers` (`_helper_sources`) holds them; else all of it."""
    from ludeme.engine.compiled.codegen import _ACTION_STATEMENT
    read = []
    for line in lines:
        body = line.lstrip()
        if body in applied:
            continue
        if _ACTION_STATEMENT.match(body):
            w = _SUBSCRIPT_WRITE.match(body)
            if w is None or "," in w.group(1):
                continue
            target = w.group(1)
            body = target[target.index("[") + 1:-1] + " " + body[w.end():]
        if helpers:
            body = _HANDED_STATE.sub(lambda m: helpers.get(m.group(1), m.group(0)), body)
        read.append(_SNAPSHOT_NAME.sub(r"\1", body))
    return {k for line in read for k, r in _READS.items() if r.search(line)}


# The call of a kernel handed the whole state (or the copy of it a part reads), up to it.
_HANDED_STATE = re.compile(r"\b(\w+)\(who(?:_0)?, what(?:_0)?, count(?:_0)?, sc(?:_0)?, "
                           r"phase(?:_0)?\b")


def _helper_sources(src) -> dict[str, str]:
    """Each helper kernel made so far (`Source.helpers`) by name: the lines of its body (not
    its signature, which names the whole state), as `_reads` reads them; a body that names
    the board's arrays at all (handing them to a function of `rt`, say) reads the board."""
    out = {}
    for h in src.helpers:
        m = re.search(r"^def (\w+)\(.*$", h, re.M)
        if m is not None:
            body = h[m.end():]
            board = " (who, what, count)" if re.search(r"\b(who|what|count)\b", body) else ""
            out[m.group(1)] = "(" + body + board
    return out


# A helper kernel called as a statement acts (a sowing, ...): it may write any of the state.
_HELPER_STATEMENT = re.compile(r"\s*helper_\d+\(")


def _writes(lines: list[str]) -> set[str]:
    if any(_HELPER_STATEMENT.match(line) for line in lines):
        return set(_WRITES)
    return {k for k, w in _WRITES.items() for line in lines if w.match(line)}


def on_position_before(lud, inner, lines: list[str], why: str, src) -> list[str]:
    """A loop's lines that make moves and apply each in turn, made to read the position
    before any is applied (as the reference makes them all first) where they write what
    they read; refused (`why`) where the moves have consequents of their own, but where
    each is applied by a kernel of its own (`thens_apart`: those read the position as
    applied)."""
    applied = src.then_calls
    if not _reads(lines, applied) & _writes(lines):
        return lines
    if _has_then(inner) and not thens_apart(src, inner):
        raise Unsupported(lud, why)
    return [SNAPSHOT] + _on_snapshot(lud, lines, why, applied)


def each_move_then(src, lud, moves, after, thens: dict[str, list[str]]) -> list[str]:
    """The body (at indent 4) of a loop that makes `moves` as a consequent each time; with
    `after` (a (then ...)'s lines), a marker line where they go after each move made
    (`_counted_part`), their lines put in `thens` (for `made_before_applied`)."""
    if after is None:
        body: list[str] = []
        src.consequent(moves, body, "    ")
        return body
    body, then = _counted_part(src, lud, moves, after, "    ")
    marker = f"AFTER_MOVE_{next(_AFTER_NAMES)}"
    thens[marker] = [x[4:] for x in then]
    return body + ["    " + marker]


def made_before_applied(lud, inner, lines: list[str], thens: dict[str, list[str]],
                        why: str, src) -> list[str]:
    """As `on_position_before`, for a loop whose moves are each followed by consequents
    that read the position as applied: `lines` hold a marker line (its text a key of
    `thens`) where those consequents' lines go. The loop reads a copy of the position
    where its moves read what its moves or their consequents write; the consequents read
    the position itself, as do the moves' own consequents where each is applied by a
    kernel of its own (`thens_apart`)."""
    applied = src.then_calls
    own = [x for x in lines if x.strip() not in thens]
    after = [y for t in thens.values() for y in t]
    if _reads(own, applied) & (_writes(own) | _writes(after)):
        if _has_then(inner) and not thens_apart(src, inner):
            raise Unsupported(lud, why)
        lines = [SNAPSHOT] + _on_snapshot(lud, lines, why, applied)
    out = []
    for line in lines:
        then = thens.get(line.strip())
        if then is None:
            out.append(line)
            continue
        pad = line[:len(line) - len(line.lstrip())]
        out += [pad + x for x in then]
    return out


# The state a compiled line reads (`_on_snapshot` renames it), the state arrays a write
# statement starts with (its target, kept), and a line that writes a subscript of the state.
_STATE_NAME = re.compile(r"\b(who|what|count|sc|phase)\b")
_TARGET_ARGS = {"pend_add": 1, "rem_add": 1, "rem_forget": 1, "rem_clear": 1, "journal": 1}
_SUBSCRIPT_WRITE = re.compile(r"((?:who|what|count|sc)\[[^\]]*\](?:, sc\[[^\]]*\])*)"
                              r"(\s*[-+]?=(?!=)\s*)")
_CALL_STATEMENT = re.compile(r"\w+\(")


def _on_snapshot(lud, lines: list[str], why: str, applied=()) -> list[str]:
    """A part's lines reading the copy of the state taken before the first part (`who_0`,
    `what_0`, `count_0`, `sc_0`, `phase_0`) and writing the state itself, as the reference
    makes the part's moves before applying them. Refused (Unsupported, `why`) where a line
    cannot be split so: a call that may write (a helper kernel that acts, e.g. a sowing),
    a write at a site read from the state. A line in `applied` (a call of a kernel that
    applies a move's consequents) reads the state itself."""
    from ludeme.engine.compiled.codegen import _bracketed
    out = []
    for line in lines:
        body = line.lstrip()
        ind = line[:len(line) - len(body)]
        w = _SUBSCRIPT_WRITE.match(body)
        if body == SNAPSHOT:            # an inner copy: the same position as this one
            continue
        if body in applied:
            out.append(line)
            continue
        if w is not None:
            target = w.group(1)
            if _STATE_NAME.search(target[target.index("[") + 1:]):
                raise Unsupported(lud, why)
            out.append(ind + target + w.group(2) + _snap(body[w.end():]))
        elif _CALL_STATEMENT.match(body):
            name = body[:body.index("(")]
            keep = _TARGET_ARGS.get(name)
            if keep is None and name.startswith(("site_", "stack_")):
                keep = 4 if name.endswith("_st") else 3
            args = _bracketed(body, len(name))
            if keep is None and [a.removesuffix("_0") for a in args[:10]] == [*_STATE_ARGS] * 2:
                keep = 5                # the state it writes; the copy it reads is renamed
            if keep is None:
                raise Unsupported(lud, why)
            # a statement after it on the line (`Source.site_move`'s flags moved with the
            # piece, reading the position written) kept as it is
            rest = body[_closing(body, len(name)) + 1:]
            out.append(f"{ind}{name}({', '.join(args[:keep] + [_snap(a) for a in args[keep:]])})"
                       f"{rest}")
        elif _STATE_NAME.match(body):     # a write this does not split
            raise Unsupported(lud, why)
        else:
            out.append(ind + _snap(body))
    return out


def _closing(text: str, start: int) -> int:
    """The index of the bracket closing the one opening at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unclosed bracket in {text!r}")


def _snap(expr: str) -> str:
    return _STATE_NAME.sub(r"\1_0", expr)


def thens_apart(src, lud) -> bool:
    """Whether every (then ...) that `_has_then` finds in `lud` is applied by a kernel of
    its own (`then_after_move`), none written into the lines around it: the lines calling
    those kernels (`src.then_calls`) then read the position as applied, as the reference
    evaluates consequents, while the rest reads a copy of it (`_on_snapshot`)."""
    return all(id(then) in src.kernel_thens and id(then) not in src.inline_thens
               for then in _applied_thens(lud))


def _has_then(lud) -> bool:
    """Whether a ludeme or one inside it has a (then ...) that may be applied."""
    return next(_applied_thens(lud), None) is not None


def _applied_thens(lud):
    """The (then ...) consequents in a ludeme or one inside it that may be applied, outer
    first: the moves a condition or a number only looks for (`(can Move ...)`, `(count
    Moves ...)`) are never applied, and a consequent's own consequents are its kernel's."""
    fields = lud.__dict__.get("_fields", {})
    then = fields.get("then")
    if then is not None:
        yield then
    for k, v in fields.items():
        if k == "then":
            continue
        for x in (v if isinstance(v, (list, tuple)) else (v,)):
            if not isinstance(x, (Bool, IntFn)) and hasattr(x, "__dict__") \
                    and "_fields" in x.__dict__:
                yield from _applied_thens(x)



@emits(AddScore, kind="one_move")
def _add_score_one_move(src, lud):
    """`(addScore ...)` is always one move (of one action per player)."""
    return "True"


@emits(AddScore, kind="consequent")
def _add_score_consequent(src, lud, lines, ind):
    """One move adding to each player's score; its (then ...) after it."""
    for p, v in zip(lud.players, lud.values):
        lines.append(f"{ind}sc[SCORE + {src.int_expr(p)}] += {src.int_expr(v)}")
    if lud.then is not None:
        lines.extend(ind + x for x in then_after_move(src, lud))


emits(AddScore, kind="effect", refuses=(("then", "as an effect"),))(
    lambda src, lud, body: _add_score_consequent(src, lud, body, ""))


@emits(SetScore, kind="consequent")
def _set_score_consequent(src, lud, lines, ind):
    """The player's score set; with a role naming several players, each real player it
    covers in increasing order, the score worked out once before (as the reference's one
    move per player). Its (then ...) follows each move."""
    from ludeme.model.roles import _names_a_set
    role = getattr(lud.player, "role", None)
    after = then_after_move(src, lud) if lud.then is not None else []
    if role is None or not _names_a_set(role):
        lines.append(f"{ind}sc[SCORE + {src.int_expr(lud.player)}] = {src.int_expr(lud.value)}")
        lines.extend(ind + x for x in after)
        return
    score, p = f"ssv{len(lines)}", f"ssp{len(lines)}"
    lines.append(f"{ind}{score} = {src.int_expr(lud.value)}")
    lines.append(f"{ind}for {p} in range(1, NP + 1):")
    lines.append(f"{ind}    if {src.owner_test(role, lud.player, p)}:")
    lines.append(f"{ind}        sc[SCORE + {p}] = {score}")
    lines.extend(ind + "        " + x for x in after)


emits(SetScore, kind="effect", refuses=(("then", "as an effect"),))(
    lambda src, lud, body: _set_score_consequent(src, lud, body, ""))


def _named(name: str, names: set) -> bool:
    """forEach Piece's name filter, as the reference: the name without its trailing number."""
    return not names or name.rstrip("0123456789") in names


@emits(ForEachPiece, kind="moves")
def _for_each_piece_moves(src, lud, out, ind):
    """Each piece's moves, each taking the (forEach Piece ...)'s (then ...) after its own."""
    if getattr(lud, "ludii_order", False):
        raise Unsupported(lud, "read in the order of Ludii's lists of owned pieces (the "
                               "kernels keep no such lists)")
    with src.enclosing_then(lud):
        if lud.role is None or lud.role == "Mover":
            _each_piece(src, lud, out, ind)
        else:
            _each_piece_of(src, lud, out, ind)


@emits(ForEachPiece, kind="consequent", refuses=("on", "container", "top",
                                               ("then", "with (then ...) as a consequent")))
def _for_each_piece_consequent(src, lud, lines, ind):
    """The moves given, made with `(from)` on each site of the board holding one of the
    mover's pieces (of the names given), in increasing order, and applied in that order
    (`ForEachPiece.compile`). The reference makes them all on the position before any is
    applied: where one writes what the loop reads, the loop reads a copy of it
    (`on_position_before`)."""
    if lud.moves is None:
        raise Unsupported(lud, "without moves of its own, as a consequent")
    if lud.role not in (None, "Mover"):
        raise Unsupported(lud, f"with the role {lud.role}, as a consequent")
    if src.game.stacking:
        raise Unsupported(lud, "in a stacking game, as a consequent")
    comps = src.game.components
    names = set(lud.names or ())
    allowed = src.table([w > 0 and _named(comps[w].name, names) for w in range(len(comps))],
                        "bool_")
    k = next(_AFTER_NAMES)
    if _piece_layers(src, lud):
        raise Unsupported(lud, "as a consequent, in a game with pieces on layers of the board "
                               "of other site types")
    loop = [f"fps{k} = frm",
            f"for frm in range({src.env.num_board_sites}):",
            "    wf, wo = what[frm], who[frm]",
            "    if wf == 0 or not (OWNER[wf] == mover or (OWNER[wf] == 0 and wo == mover)):",
            "        continue",
            f"    if {allowed}[wf]:"]
    src.consequent(lud.moves, loop, "        ")
    loop += ["        pass", f"frm = fps{k}"]
    loop = on_position_before(lud, lud.moves, loop, "whose moves read what an earlier "
                              "piece's changed (the reference reads the position before any)", src)
    lines.extend(ind + x for x in loop)


def _each_piece_of(src, lud, out, ind):
    """The pieces of the player a role names, generated as on that player's turn (mover,
    next and previous: that player, the mover, the mover), as the reference. Only where
    the moves are looked at, not played ((can Move ...), a threat): a move played would
    apply its actions on the mover's turn, where the reference made them on that player's.
    A scalars' copy holds the swapped roles (a move found may return at once)."""
    if src.real_roles is not None:
        raise Unsupported(lud, "with role: inside another")
    played = not (src.any_mode or src.reaching)
    first = len(src.generators)
    out += [f"{ind}fpo_ = sc",
            f"{ind}fpp_ = {src.role_expr(lud.role, lud)}",
            f"{ind}rm_, rn_, rp_ = mover, nxt, prev",
            f"{ind}if fpp_ != mover and 0 < fpp_ <= NP:",
            f"{ind}    sc = sc.copy()",
            f"{ind}    prev, mover, nxt = mover, fpp_, mover",
            f"{ind}    sc[PREV], sc[MOVER], sc[NEXT] = prev, mover, nxt"]
    src.real_roles = "rm_, rn_, rp_"
    try:
        _each_piece(src, lud, out, ind, owner="fpp_")
    finally:
        src.real_roles = None
    out += [f"{ind}sc = fpo_", f"{ind}mover, nxt, prev = rm_, rn_, rp_"]
    if played:
        _actions_as_theirs(src, lud, first)


_ROLE_READS = re.compile(r"\bsc\[(MOVER|NEXT|PREV)\]|\bhelper_\d+\(")


def _actions_as_theirs(src, lud, first):
    """The moves of another player's pieces played: the reference makes their actions as
    it generates them, on that player's turn (`_each_piece_of`); the kernels apply them
    with the same roles (locals, after the actions carried before them). An action that
    reads the roles other than through the locals (the scalars, a helper kernel) is
    refused. The pieces of no player (Shared, Neutral) are moved on the mover's turn:
    nothing is swapped, nothing refused."""
    if lud.role in ("Shared", "Neutral"):
        return
    prefix = len(src.effect_prefix[0]) if src.effect_prefix else 0
    swap = [f"fpp_ = {src.role_expr(lud.role, lud)}",
            "if fpp_ != mover and 0 < fpp_ <= NP:",
            "    prev, mover, nxt = mover, fpp_, mover"]
    for g in range(first, len(src.generators)):
        effect, is_pass, _ = src.generators[g]
        if is_pass:
            continue
        if any(_ROLE_READS.search(x) for x in effect[prefix:]):
            raise Unsupported(lud, f"with role:{lud.role} in the moves played, whose actions "
                                   "read the roles in the scalars or a helper kernel")
        effect[prefix:prefix] = swap


# A (forEach Piece ...) that finds a piece on a layer whose moves the kernels do not make
# there (`_each_piece_on_layer`): refused at run time, as the reference's moves of it are
# read from its element's index.
_LAYER_PIECE_REFUSED = (f"raise ValueError('{RUN_REFUSAL}(forEach Piece) of a piece on a "
                        "layer of the board of another site type, without a step of that "
                        "type')")


def _piece_layers(src, lud) -> list[tuple]:
    """The layers of the board of other site types a (forEach Piece ...) walks after the
    board's sites, as `ForEachPiece._places`: (type, place of element 0, elements walked)
    of each the game puts pieces on (`Game.layers`), or of the one on: names."""
    env = src.env
    own = env.board.site_type
    if lud.on in (None, own):
        if lud.on is not None or lud.container is not None:
            return []
        return [(t, *layer_of(env, t)[:1], min(layer_of(env, t)[1], env.num_board_sites))
                for t in sorted(env.layers)]
    layer = layer_of(env, lud.on)
    if layer is None or lud.container is not None:
        raise Unsupported(lud, f"on:{lud.on}, a site type the game puts no pieces on, or "
                               "with container:")
    return [(lud.on, *layer)]


def _each_piece_on_layer(src, lud, out, ind, owner, names, comps, layer) -> None:
    """The moves of the player's pieces on a layer (`_piece_layers`): `(from)` the element's
    index, the piece read at its place; a kind whose moves are a step on the layer's type
    (`_layered_step_moves`) makes them, any other found there is refused at run time."""
    t, base_, walked = layer
    out += [f"{ind}for frm in range({walked}):", f"{ind}    wf, wo = what[{base_} + frm], "
            f"who[{base_} + frm]",
            f"{ind}    if wf == 0 or not (OWNER[wf] == {owner} or (OWNER[wf] == 0 and "
            f"wo == {owner})):", f"{ind}        continue"]
    if lud.moves is not None and _moves_from_layer(lud.moves, t):
        # the moves given, each from a site of this layer's type
        out.append(f"{ind}    if {src.table([w > 0 and _named(comps[w].name, names) for w in range(len(comps))], 'bool_')}[wf]:")
        src.moves(lud.moves, out, ind + "        ")
        out.append(f"{ind}        pass")
        return
    stepping: dict[int, list] = {}
    if lud.moves is None:
        for idx, piece in src.env.piece_items:
            gen = piece.generator
            if gen is not None and _named(comps[idx].name, names) and type(gen) is MoveStep \
                    and gen.from_ is not None and gen.from_.type == t:
                stepping.setdefault(id(gen), [gen]).append(idx)
    made = set()
    for gen, *whats in stepping.values():
        made.update(whats)
        out.append(f"{ind}    if {' or '.join(f'wf == {w}' for w in whats)}:")
        src.moves(gen, out, ind + "        ")
        out.append(f"{ind}        continue")
    # a piece of a kind with moves elsewhere, or any with the moves given
    moving = [w for w in range(1, len(comps)) if _named(comps[w].name, names) and w not in made
              and (lud.moves is not None or any(
                  idx == w and piece.generator is not None
                  for idx, piece in src.env.piece_items))]
    if moving:
        out += [f"{ind}    if {src.table([w in moving for w in range(len(comps))], 'bool_')}"
                f"[wf]:", f"{ind}        {_LAYER_PIECE_REFUSED}"]


def _moves_from_layer(moves, t: str) -> bool:
    """Whether moves are made from a site of the type `t` only: (or ...) of steps and moves
    whose (from ...) names that type (their forms read it on its layer)."""
    if isinstance(moves, _Union):
        return moves.then is None and all(_moves_from_layer(m, t)
                                          for m in moves.moves + (moves.more or []))
    return type(moves) in (MoveStep, MoveFromTo) and moves.from_ is not None \
        and moves.from_.type == t


def _each_piece(src, lud, out, ind, owner: str = "mover"):
    comps = src.game.components
    names = set(lud.names or ())
    n = src.env.num_board_sites
    layers = _piece_layers(src, lud)
    if layers and src.game.stacking:
        raise Unsupported(lud, "on layers of the board, in a stacking game")
    if lud.on in (None, src.env.board.site_type):       # else that layer alone
        _each_board_piece(src, lud, out, ind, owner, names, comps, n)
    if layers:
        # after the board's sites, each layer's (`ForEachPiece._places`)
        kept = f"fpl{len(out)}_"
        out.append(f"{ind}{kept} = frm")
        for layer in layers:
            _each_piece_on_layer(src, lud, out, ind, owner, names, comps, layer)
        out.append(f"{ind}frm = {kept}")


def _each_board_piece(src, lud, out, ind, owner, names, comps, n):
    """`_each_piece` on the board's sites (or those of the container given)."""
    if lud.container is None:
        out.append(f"{ind}for frm in range({n}):")
    else:
        # container: the sites of that container (0 the board, k the k-th hand), if any
        firsts = src.table([ct.sites_from for ct in src.env.containers])
        ends = src.table([ct.sites_from + ct.num_sites for ct in src.env.containers])
        k = f"ct{len(out)}"
        out.append(f"{ind}{k} = {src.int_expr(lud.container)}")
        out.append(f"{ind}for frm in range({firsts}[{k}] if 0 <= {k} < {len(src.env.containers)} "
                   f"else 0, {ends}[{k}] if 0 <= {k} < {len(src.env.containers)} else 0):")
    if src.game.stacking and not lud.top:
        # As ForEachPiece.compile's `stacked`: each level of a stack holding one of the
        # player's pieces gives that piece's moves (the top level alone with top:True).
        out.append(f"{ind}    if what[frm] == 0:")
        out.append(f"{ind}        continue")
        out.append(f"{ind}    for lv in range(TOTAL + frm * DEPTH, TOTAL + frm * DEPTH "
                   f"+ count[TOTAL + frm]):")
        ind += "    "
        out.append(f"{ind}    wf, wo = what[lv], who[lv]")
        out.append(f"{ind}    lvl = lv - TOTAL - frm * DEPTH")
    else:
        out.append(f"{ind}    wf, wo = what[frm], who[frm]")
        if src.game.stacking:       # top:True: the top level's
            out.append(f"{ind}    lvl = count[TOTAL + frm] - 1")
    with src.binding_level("lvl" if src.game.stacking else src.level_var):
        _each_piece_moves(src, lud, out, ind, owner, names, comps)


def _each_piece_moves(src, lud, out, ind, owner, names, comps):
    """`_each_piece`'s moves of the piece `wf` (owned as the mover's) at `frm`."""
    out.append(f"{ind}    if wf == 0 or not (OWNER[wf] == {owner} or (OWNER[wf] == 0 and "
               f"wo == {owner})):")
    out.append(f"{ind}        continue")
    if lud.moves is not None:
        allowed = [w for w in range(1, len(comps)) if _named(comps[w].name, names)]
        out.append(f"{ind}    if {src.table([w in allowed for w in range(len(comps))], 'bool_')}"
                   f"[wf]:")
        src.moves(lud.moves, out, ind + "        ")
        out.append(f"{ind}        pass")
        return
    by_generator: dict[int, list] = {}
    for idx, piece in src.env.piece_items:
        if piece.generator is None:
            continue
        if not _named(comps[idx].name, names):
            continue
        by_generator.setdefault(id(piece.generator), [piece.generator]).append(idx)
    for gen, *whats in by_generator.values():
        test = " or ".join(f"wf == {w}" for w in whats)
        out.append(f"{ind}    if {test}:")
        src.moves(gen, out, ind + "        ")
        out.append(f"{ind}        pass")


@emits(MoveRemove, kind="moves", refuses=("at", "type"))
def _remove_moves(src, lud, out, ind):
    """A decision per occupied site; with count:, read once before the sites (as the
    reference), the site loses that many pieces (at least one), kept in the move's extra
    slot. With level:, the piece at that level (below 0 the bottom) goes, the level kept
    in the extra slot and reported, as the reference's `_level_removals`: the top level is
    no level (-1 kept, 0 reported)."""
    if lud.level is not None:
        _remove_level_moves(src, lud, out, ind)
        return
    effect = [src.site_clear("frm")]
    k = "-1"
    if lud.count is not None:
        effect = ["for _ in range(max(1, x)):", "    " + effect[0]]
        k = f"rk{len(ind)}"
        out.append(f"{ind}{k} = {src.int_expr(lud.count)}")
    g = src.new_generator(effect, lud=lud, kind=A_REMOVE, levels=LV_NONE)
    if isinstance(lud.where, IntFn):
        out.append(f"{ind}site = {src.int_expr(lud.where)}")
        out.append(f"{ind}if site >= 0 and what[site] > 0:")
        src.push(out, ind + "    ", "site", "site", g, k)
        return
    body = []
    src.push(body, "", "site", "site", g, k)
    src.for_region(lud.where, out, ind, ["if site >= 0 and what[site] > 0:"]
                   + ["    " + x for x in body])


def _remove_level_moves(src, lud, out, ind):
    """`_remove_moves` with level: (see there)."""
    if lud.count is not None or not src.game.stacking:
        raise Unsupported(lud, "with level:, beside count: or in a game without stacks")
    g = src.new_generator([src.stack_write("stack_take(who, what, count, frm, x)")],
                          lud=lud, kind=A_REMOVE_LEVEL, levels=LV_AT)
    body = [f"rlv = max(0, {src.int_expr(lud.level)})",
            "if count[TOTAL + site] == rlv + 1:",
            "    rlv = -1"]
    src.push(body, "", "site", "site", g, "rlv")
    if isinstance(lud.where, IntFn):
        out.append(f"{ind}site = {src.int_expr(lud.where)}")
        out.append(f"{ind}if 0 <= site < TOTAL and what[site] > 0:")
        out.extend(f"{ind}    {x}" for x in body)
        return
    src.for_region(lud.where, out, ind, ["if 0 <= site < TOTAL and what[site] > 0:"]
                   + ["    " + x for x in body])


def _from_condition(src, lud, level: bool = False) -> str:
    """" and <the (from ... if:) condition>", or "": read with `frm` on the start (as the
    reference's Step and Hop read it with (from) set). `level`: the caller reads level:."""
    if lud.from_ is None:
        return ""
    if lud.from_.type not in (None, src.env.board.site_type):     # the board's own: as none
        refuse(lud.from_, "type")
    if not level:
        refuse(lud.from_, "level")
    return f" and {src.bool_expr(lud.from_.if_)}" if lud.from_.if_ is not None else ""


def from_site(src, lud, level: bool = False) -> str:
    """The start of a move that reads one site of its `(from ...)`: `frm` (the piece's
    site, as forEach Piece gives it) when none is given. Its `if:` is `_from_condition`'s.
    `level`: the caller reads level:."""
    if lud.from_ is None:
        return "frm"
    refuse(lud.from_, "type")
    if not level:
        refuse(lud.from_, "level")
    if lud.from_.site is None:
        return "frm"
    if not isinstance(lud.from_.site, IntFn):
        raise Unsupported(lud, "from a region")
    return src.int_expr(lud.from_.site)


@emits(MoveHop, kind="moves")
def _hop_moves(src, lud, out, ind):
    """`(move Hop ...)` over one hurdle to the site just beyond (no range, before, after)."""
    import numpy as np
    env = src.env
    n = env.num_board_sites
    if lud.from_ is not None and lud.from_.site is not None \
            and not isinstance(lud.from_.site, IntFn):
        # from a region: Ludii's Hop reads only a site, none here: it starts from (from),
        # the region never read (as `MoveHop.compile`)
        refuse(lud.from_, "type", "level")
        frm_expr = "frm"
    else:
        # (from ... level:) is never read: Ludii's Hop moves the top piece (`MoveHop.compile`)
        frm_expr = from_site(src, lud, level=True)
    f_ok = _from_condition(src, lud, level=True)
    b = lud.between
    if b is not None and any(x in b._given for x in ("before", "range", "after")):
        return _hop_range_moves(src, lud, frm_expr, out, ind)
    hurdle = "True"
    between_effect: list[str] = []
    if b is not None:
        refuse(b, "before", "range", "after", "trail")
        hurdle = src.bool_expr(b.if_) if b.if_ is not None else "False"
        if b.apply is not None:
            src.between = "x"           # `effects` is given the hurdle as x
            try:
                _apply_lines(src, b.apply, between_effect)
            finally:
                src.between = "btw"
    to = lud.to
    refuse(to, "level", "site", "type")
    if to.apply is not None and to.apply.if_ is not None:
        raise Unsupported(to.apply, "with if:")
    go = src.bool_expr(to.if_) if to.if_ is not None else "True"
    dirn = lud.dirn or "Adjacent"
    dirs = env.direction_keys(dirn, lud)
    radials = env.board.radials
    probe = src.probe()

    def lines_of(keys, s):
        return [r.sites for k in keys for r in (radials[k][s] if k in radials else ())]
    effect = []
    if to.apply is not None:       # the landing's effect, then the hurdle's, as MoveHop's
        src.between = "x"          # (between) there is the hurdle, as the reference leaves it
        try:
            _apply_lines(src, to.apply, effect)
        finally:
            src.between = "btw"
    line, kind, levels = _moving(src, lud, LV_NONE)
    # where (last Between) is read, the hurdle jumped (the move's extra) is noted
    notes = ["sc[LBN] = 1", "sc[LBS] = x"] if _notes_between(src) else []
    g = src.new_generator(effect + between_effect + [line] + notes, lud=lud, kind=kind,
                          levels=levels)
    if env.is_static_direction(dirn):
        per = [lines_of(dirs(probe, s), s) for s in range(n)]
        width = max((len(x) for x in per), default=0) or 1
        over, land = np.full((n, width), -1), np.full((n, width), -1)
        for s, ls in enumerate(per):
            for r, steps in enumerate(ls):
                if len(steps) >= 2:
                    over[s, r] = steps[1]
                    land[s, r] = steps[2] if len(steps) >= 3 else -1
        t_over, t_land = src.table(over), src.table(land)
        out.append(f"{ind}hf = {frm_expr}")
        out.append(f"{ind}sf, st, sb = frm, to, btw")
        out.append(f"{ind}frm = hf")
        out.append(f"{ind}if 0 <= hf < {n}{f_ok}:")
        out.append(f"{ind}    frm = hf")
        out.append(f"{ind}    for r in range({width}):")
        out.append(f"{ind}        btw = {t_over}[hf, r]")
        out.append(f"{ind}        if btw >= 0 and {hurdle}:")
        out.append(f"{ind}            to = {t_land}[hf, r]")
        out.append(f"{ind}            if to >= 0 and {go}:")
        src.push(out, ind + "                ", "hf", "to", g, "btw")
        out.append(f"{ind}frm, to, btw = sf, st, sb")
        return
    try:
        _refuse_unless_by_piece(lud, dirn)
        by_piece = True
    except Unsupported:
        by_piece = False
    words = [] if hasattr(dirn, "direction_keys") else \
        [dirn] if isinstance(dirn, str) else list(dirn.dirs)
    if not by_piece and words not in (["SameDirection"], ["OppositeDirection"]):
        return _hop_last_move_moves(src, lud, dirn, frm_expr, f_ok, hurdle, go, g, out, ind)
    if by_piece:
        # Directions relative to the piece's facing (FR, FL, Forwards, ...): a table per
        # kind of piece at (from), as `(move Step)` has.
        per = src.per_kind(lambda probe, s: lines_of(dirs(probe, s), s))
        width, t_over, t_land = _hop_tables(src, per)
        _hop_lines(src, out, ind, frm_expr, width, t_over, t_land,
                   hurdle, go, g, src.kind_at("hf") if src.rotations else "hw",
                   f"hw = what[hf] if 0 <= hf < {n}{f_ok} else 0",
                   "hw > 0")
        return
    if words not in (["SameDirection"], ["OppositeDirection"]):
        raise Unsupported(lud, f"with the directions {' '.join(words)}")
    # The direction depends only on the last move: a table over (last from, last to).
    keys = list(env.board.directions)
    key_of = np.full((n + 1, n + 1), -1)
    probe.fill(1, n)      # a piece at the start (an empty one has no directions)
    for a in range(-1, n):
        for bb in range(-1, n):
            probe.s.last_from, probe.s.last_to = a, bb
            got = dirs(probe, 0)
            if got:
                key_of[a + 1, bb + 1] = keys.index(got[0])
    width = max((len(lines_of([k], s)) for k in keys for s in range(n)), default=0) or 1
    over = np.full((len(keys), n, width), -1)
    land = np.full((len(keys), n, width), -1)
    for d, k in enumerate(keys):
        for s in range(n):
            for r, steps in enumerate(lines_of([k], s)):
                if len(steps) >= 2:
                    over[d, s, r] = steps[1]
                    land[d, s, r] = steps[2] if len(steps) >= 3 else -1
    t_key = src.table(key_of)
    _hop_lines(src, out, ind, frm_expr, width, src.table(over), src.table(land), hurdle,
               go, g, "hd", f"hd = {t_key}[last_from + 1, last_to + 1] if 0 <= hf < {n} "
               f"and what[hf] != 0{f_ok} else -1", "hd >= 0")


def _notes_between(src) -> bool:
    """Whether a rule of the game reads (last Between): a hop's decision then notes the
    sites it jumped (`Source.notes_between`)."""
    from ludeme.engine.compiled.codegen import mentions
    from .ints import LastBetween
    if not mentions(src.game.typed, (LastBetween,)):
        return False
    src.notes_between = True
    return True


def _hop_tables(src, per) -> tuple[int, str, str]:
    """The tables of a hop's hurdle and landing `[row, site, line]` (-1: none), given the
    lines from each site per row (a kind of piece, a direction); their width (lines)."""
    import numpy as np
    rows, n = len(per), len(per[0]) if per else 0
    width = max((len(x) for r_ in per for x in r_), default=0) or 1
    over, land = np.full((rows, n, width), -1), np.full((rows, n, width), -1)
    for d, r_ in enumerate(per):
        for s_, ls in enumerate(r_):
            for r, steps in enumerate(ls):
                if len(steps) >= 2:
                    over[d, s_, r] = steps[1]
                    land[d, s_, r] = steps[2] if len(steps) >= 3 else -1
    return width, src.table(over), src.table(land)


def _hop_last_move_moves(src, lud, dirn, frm_expr, f_ok, hurdle, go, g, out, ind) -> None:
    """A hop over one hurdle in directions that follow the last move beside others (a
    (difference ...), (union ...) or (if ...) of them): the row of directions read where the
    hop is generated (`_last_move_keys`), each direction's lines from the start in turn."""
    n = src.env.num_board_sites
    radials = src.env.board.radials
    index: dict = {}
    row = _last_move_keys(src, lud, dirn, index)
    keys = list(index) or [None]
    per = [[[r.sites for r in (radials[k][s_] if k in radials else ())] for s_ in range(n)]
           for k in keys]
    width, t_over, t_land = _hop_tables(src, per)
    i4 = ind + "            "
    out += [f"{ind}hf = {frm_expr}", f"{ind}sf, st, sb = frm, to, btw", f"{ind}frm = hf",
            f"{ind}if 0 <= hf < {n}{f_ok}:",
            f"{ind}    hrow = {row}",
            f"{ind}    for hj in range(hrow.shape[0]):",
            f"{ind}        hd = hrow[hj]",
            f"{ind}        if hd >= 0:",
            f"{i4}for r in range({width}):",
            f"{i4}    btw = {t_over}[hd, hf, r]",
            f"{i4}    if btw >= 0 and {hurdle}:",
            f"{i4}        to = {t_land}[hd, hf, r]",
            f"{i4}        if to >= 0 and {go}:"]
    src.push(out, i4 + "            ", "hf", "to", g, "btw")
    out.append(f"{ind}frm, to, btw = sf, st, sb")


def _hop_lines(src, out, ind, frm_expr, width, t_over, t_land, hurdle, go, g, row,
               row_line, row_ok) -> None:
    """A hop's loop over the radials from (from), read from tables of (row, site, radial):
    the hurdle (between) and the landing (to); `row_line` sets the row (the piece's kind,
    the last move's direction), with (from) on the site for its condition."""
    out.append(f"{ind}hf = {frm_expr}")
    out.append(f"{ind}sf, st, sb = frm, to, btw")
    out.append(f"{ind}frm = hf")
    out.append(f"{ind}{row_line}")
    out.append(f"{ind}if {row_ok}:")
    out.append(f"{ind}    frm = hf")
    out.append(f"{ind}    for r in range({width}):")
    out.append(f"{ind}        btw = {t_over}[{row}, hf, r]")
    out.append(f"{ind}        if btw >= 0 and {hurdle}:")
    out.append(f"{ind}            to = {t_land}[{row}, hf, r]")
    out.append(f"{ind}            if to >= 0 and {go}:")
    src.push(out, ind + "                ", "hf", "to", g, "btw")
    out.append(f"{ind}frm, to, btw = sf, st, sb")


@emits(Exact, kind="range")
def _exact_range(src, rng):
    n = src.int_expr(rng.n)
    return n, n


@emits(RangeL, kind="range")
def _range_range(src, rng):
    lo = src.int_expr(rng.lo)
    return lo, src.int_expr(rng.hi) if rng.hi is not None else lo


@emits(MaxL, kind="range")
def _max_range(src, rng):
    return "1", src.int_expr(rng.n)


@emits(MinL, kind="range")
def _min_range(src, rng):
    """N or more: up to 1000000000, as `MinL.bounds`."""
    return src.int_expr(rng.n), "1000000000"


# A bound on a board's lines and the sites along one (the code of a hop's hurdles).
_HURDLES = 4096


def _last_move_keys(src, lud, dirn, index: dict) -> str:
    """The directions a hop reads from its start `hf`, where they follow the last move
    (SameDirection, OppositeDirection, a direction function of them): an expression of
    their row, indices into `index` (a direction's name -> its index, added to here)
    padded with -1, in the reference's order. Each choice of static directions and last-move
    words is tabulated over (a piece at `hf` or not, last from, last to), as the reference's
    keys work it out on a probe; an `(if ...)` is tested where the hop is generated, (from)
    on `hf`. Directions relative to the piece (its facing), none following the last move,
    are tabulated over (the kind of piece at `hf`, `hf`) instead. Refused where the
    directions read more of the site: relative to a piece's facing beside last-move words,
    by site, or a difference on a board whose lines are also diagonal edges."""
    from ludeme.model.tables import RELATIVE_ANGLES, _TURNS
    from ludeme.boards.trajectories import RELATIONS
    import numpy as np
    # The direction functions (`directions`, which imports this module) by their keywords.
    if isinstance(dirn, Directions) and dirn.keyword == "if":
        ok = _last_move_keys(src, lud, dirn.ok, index)
        not_ok = _last_move_keys(src, lud, dirn.not_ok, index)
        return f"({ok} if {src.bool_expr(dirn.cond)} else {not_ok})"
    env, board = src.env, src.env.board
    words = _direction_words(dirn)
    by_piece = any(w in RELATIVE_ANGLES or w in _TURNS for w in words) and \
        not any(w in ("SameDirection", "OppositeDirection") for w in words)

    def check(d):
        if isinstance(d, Directions) and d.keyword == "difference":
            expanded = {r: set(board.relation_dirs(r)) for r in RELATIONS}
            if any(expanded[w] & expanded["Orthogonal"] for w in ("Diagonal", "OffDiagonal")):
                raise Unsupported(lud, "with (difference ...) as its directions on a board "
                                       "whose diagonal lines are edges")
            check(d.original)
            check(d.removed)
            return
        if hasattr(d, "direction_keys") or getattr(d, "bySite", False):
            raise Unsupported(lud, "with directions that read the site")
        words = [d] if isinstance(d, str) else list(d.dirs)
        if not by_piece and any(w in RELATIVE_ANGLES or w in _TURNS for w in words):
            raise Unsupported(lud, "with directions relative to the piece beside ones that "
                                   "follow the last move")
    check(dirn)
    keys = env.direction_keys(dirn, lud)
    n = env.num_board_sites
    if by_piece:
        # per kind of piece at the start (0: none) and start site, as the reference reads
        # the piece's facing there
        per = src.per_kind(lambda probe, s_: [index.setdefault(k, len(index))
                                              for k in keys(probe, s_)])
        width = max((len(r) for rows_ in per for r in rows_), default=0) or 1
        table = np.full((len(per), n, width), -1)
        for w, rows_ in enumerate(per):
            for s_, r in enumerate(rows_):
                table[w, s_, :len(r)] = r
        return f"{src.table(table)}[{src.kind_at('hf')}, hf]"
    rows = []
    probe = src.probe()
    for present in (0, 1):
        probe.fill(present, n)      # the start holds a piece or not (Ludii's convertToAbsolute)
        per = []
        for a in range(-1, n):
            for b in range(-1, n):
                probe.s.last_from, probe.s.last_to = a, b
                per.append([index.setdefault(k, len(index)) for k in keys(probe, 0)])
        rows.append(per)
    width = max((len(r) for per in rows for r in per), default=0) or 1
    table = np.full((2, n + 1, n + 1, width), -1)
    for p, per in enumerate(rows):
        for i, r in enumerate(per):
            table[p, i // (n + 1), i % (n + 1), :len(r)] = r
    # a last move off the board follows no direction, as one before the first move
    return (f"{src.table(table)}[1 if what[hf] > 0 else 0, last_from + 1 if last_from < {n} "
            f"else 0, last_to + 1 if last_to < {n} else 0]")


def _direction_words(d) -> list[str]:
    """The direction words of directions, those of a (difference ...) or (union ...) of
    them included (none for a direction function that reads the site)."""
    if isinstance(d, str):
        return [d]
    parts = getattr(d, "direction_parts", None)
    if parts is not None:
        return [w for p in parts() for w in _direction_words(p)]
    if isinstance(d, Directions) and d.keyword == "if":
        return _direction_words(d.ok) + _direction_words(d.not_ok)
    if hasattr(d, "direction_keys"):
        return []
    return list(getattr(d, "dirs", ()))


def _hop_range_moves(src, lud, frm_expr, out, ind):
    """`(move Hop ...)` with a range of hurdles, before: or after: (MoveHop.compile's walk).
    The lines walked are in groups, each site's in a group read from tables: one group in
    static directions, else one per direction, the row of groups read where the hop is
    generated (`_last_move_keys`)."""
    from ludeme.engine.compiled.emit import emit
    env = src.env
    n = env.num_board_sites
    b = lud.between
    refuse(b, "trail")
    if n >= _HURDLES:
        raise Unsupported(lud, f"with a range of hurdles on a board of {_HURDLES} sites or more")
    dirn = lud.dirn or "Adjacent"
    to = lud.to
    refuse(to, "level", "site", "type")
    # (apply if:<stop> ...): the hop lands only where the to condition first fails and the
    # stop condition holds, with no hurdle given to the between effect (MoveHop's
    # stop_rule); the landing's effect is made there unconditioned
    stop = to.apply.if_ if to.apply is not None else None
    radials = env.board.radials
    step_to = env.board.trajectories.targets
    if env.is_static_direction(dirn):
        keys = env.direction_keys(dirn, lud)
        groups = [[keys(None, s_) for s_ in range(n)]]
        row = src.table([0])
    else:
        index: dict = {}
        row = _last_move_keys(src, lud, dirn, index)
        groups = [[(k,)] * n for k in index]
    line_of: dict = {}
    ids, steps = [], []
    for group in groups:
        ids.append([])
        steps.append([])
        for s_, keys_ in enumerate(group):
            here = [r.sites for k in keys_ for r in (radials[k][s_] if k in radials else ())]
            ids[-1].append([line_of.setdefault(r, len(line_of)) for r in here])
            steps[-1].append(list(dict.fromkeys(t for k in keys_ for t in step_to(s_, k))))
    lines = list(line_of)
    t_lines, t_len = src.padded([list(r) for r in lines])
    L2, LL = src.table(t_lines), src.table(t_len)
    t_ids, t_nids = _padded_groups(ids)
    t_steps, t_nsteps = _padded_groups(steps)
    LI, NL, ST, NS = (src.table(a) for a in (t_ids, t_nids, t_steps, t_nsteps))
    lo, hi = ("1", "1") if b.range is None else emit("range", src, b.range)
    before = src.int_expr(b.before) if b.before is not None else "0"
    after = src.int_expr(b.after) if b.after is not None else "0"
    hurdle = src.bool_expr(b.if_) if b.if_ is not None else "False"
    go = src.bool_expr(to.if_) if to.if_ is not None else "True"
    effect = []
    if stop is not None:
        src.effect_body(to.apply.effect, effect)
    elif to.apply is not None:
        _apply_lines(src, to.apply, effect)
    if b.apply is not None:
        # The hurdles jumped, each given to the between effect: x holds the line, the
        # index of the first hurdle on it and their number (`_HURDLES`).
        effect += [f"hr, hi, hn = x // {_HURDLES * _HURDLES}, x // {_HURDLES} % {_HURDLES}, "
                   f"x % {_HURDLES}",
                   "for hk in range(hn):",
                   f"    xb = {L2}[hr, hi + hk]"]
        src.between = "xb"
        try:
            _apply_lines(src, b.apply, body := [])
        finally:
            src.between = "btw"
        effect += ["    " + x for x in body]
    line, kind, levels = _moving(src, lud, LV_NONE)
    # where (last Between) is read, the hurdles jumped (kept in the move's extra) are noted
    notes = _notes_between(src)
    noted = [f"hr, hi, hn = x // {_HURDLES * _HURDLES}, x // {_HURDLES} % {_HURDLES}, "
             f"x % {_HURDLES}", "sc[LBN] = hn", "for hk in range(hn):",
             f"    sc[LBS + hk] = {L2}[hr, hi + hk]"] if notes else []
    g = src.new_generator(effect + [line] + noted, lud=lud, kind=kind, levels=levels)
    jumped, none_jumped = (f"(lid * {_HURDLES} + to_idx) * {_HURDLES} + length - from_min",
                           f"(lid * {_HURDLES} + to_idx) * {_HURDLES}") \
        if b.apply is not None or notes else ("-1", "-1")
    i2, i3, i4, i5 = ind + "    ", ind + "        ", ind + "            ", ind + "                "
    out += [f"{ind}hf = {frm_expr}", f"{ind}sf, st, sb = frm, to, btw", f"{ind}frm = hf",
            f"{ind}if 0 <= hf < {n}{_from_condition(src, lud)}:",
            f"{i2}frm = hf",
            f"{i2}hrow = {row}",
            f"{i2}min_len = {lo}", f"{i2}max_len = {hi}",
            f"{i2}before = {before}", f"{i2}after = {after}",
            f"{i2}if min_len == 0:",
            f"{i3}for hj in range(hrow.shape[0]):",
            f"{i4}hgr = hrow[hj]",
            f"{i4}if hgr < 0:",
            f"{i5}break",
            f"{i4}for j in range({NS}[hgr, hf]):",
            f"{i5}to = {ST}[hgr, hf, j]",
            # a site an earlier direction steps to was tried there (the reference's seen)
            f"{i5}seen = False",
            f"{i5}for hj2 in range(hj):",
            f"{i5}    for j2 in range({NS}[hrow[hj2], hf]):",
            f"{i5}        if {ST}[hrow[hj2], hf, j2] == to:",
            f"{i5}            seen = True",
            f"{i5}if not seen and {go}:"]
    src.push(out, i5 + "    ", "hf", "to", g, "0")
    out += [f"{i2}if max_len > 0:",
            f"{i3}for hj in range(hrow.shape[0]):",
            f"{i4}hgr = hrow[hj]",
            f"{i4}if hgr < 0:",
            f"{i5}break",
            f"{i4}for r in range({NL}[hgr, hf]):",
            f"{i5}lid = {LI}[hgr, hf, r]",
            f"{i5}ln = {LL}[lid]",
            f"{i5}for to_idx in range(1, ln):"]
    i6 = i5 + "    "
    i7, i8, i9, i10 = i6 + "    ", i6 + "        ", i6 + "            ", i6 + "                "
    out += [f"{i6}btw = {L2}[lid, to_idx]",
            f"{i6}if {hurdle}:",
            f"{i7}length = 1", f"{i7}h = to_idx + 1", f"{i7}wrong = False",
            f"{i7}while h < ln and length < max_len:",
            f"{i8}btw = {L2}[lid, h]",
            f"{i8}if not {hurdle}:",
            f"{i9}wrong = True", f"{i9}break",
            f"{i8}length += 1", f"{i8}h += 1",
            f"{i7}if length < min_len or (wrong and length == max_len):",
            f"{i8}break",
            f"{i7}for from_min in range(length - min_len, -1, -1):",
            f"{i8}a = h - from_min",
            f"{i8}while a < ln:",
            f"{i9}to = {L2}[lid, a]",
            f"{i9}if not {go}:"]
    if stop is not None:
        out.append(f"{i10}if {src.bool_expr(stop)}:")
        src.push(out, i10 + "    ", "hf", "to", g, none_jumped)
    out.append(f"{i10}break")
    if stop is None:
        src.push(out, i9, "hf", "to", g, jumped)
    out += [f"{i9}if (a - h + 1) > (after - from_min):",
            f"{i10}break",
            f"{i9}a += 1",
            f"{i7}break",
            f"{i6}to = {L2}[lid, to_idx]",
            f"{i6}if to_idx > before or not {go}:",
            f"{i7}break",
            f"{ind}frm, to, btw = sf, st, sb"]


def _padded_groups(rows) -> tuple:
    """Per group and site, a list of numbers: a 3-D table padded with -1 and the lengths."""
    import numpy as np
    n_groups, n = len(rows), len(rows[0]) if rows else 0
    width = max((len(x) for group in rows for x in group), default=0) or 1
    table = np.full((n_groups, n, width), -1)
    lengths = np.zeros((n_groups, n), dtype=np.int64)
    for gi, group in enumerate(rows):
        for s_, x in enumerate(group):
            table[gi, s_, :len(x)] = x
            lengths[gi, s_] = len(x)
    return table, lengths


@emits(Directions, kind="from_only")
def _directions_from_only(src, lud):
    return src.env.is_static_direction(lud) and reads_params_only_from(src, lud)
