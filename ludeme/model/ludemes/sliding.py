"""Moves along radials: slides and shots (Ludii's Slide and Shoot effects).

Both walk the board's radials from a start site in the directions given
(Adjacent by default), in the order Ludii's trajectories list them, without
removing duplicate (from, to) pairs, as Ludii does not.
"""

from __future__ import annotations

import re

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.codegen import NO_EFFECT_ACTION
from ludeme.engine.compiled.emit import LV_GIVEN, LV_NONE, Unsupported, emit, emits, refuse
from ludeme.engine.state import A_ADD, A_MOVE, A_MOVE_LEVEL, Move
from ludeme.engine.stores import TOP
from .base import Bool, DirWord, IntFn, LitBool, LitStr, Moves, P, ludeme
from .moves import (Exact, MaxL, RangeL, _effect_actions, _moving_action, _then,
                    build_unread_sites, from_level_fn, from_site)



def _passed(move: Move) -> Move:
    """A slide's or a shot's move: Ludii records the sites it passed as the move's
    betweenNonDecision, which (last Between) reads and these moves do not keep here."""
    move.between = None
    return move

def slide_rules(slide, env, along: str):
    """The closures of a slide's rules: go (the between condition; default: the site is
    empty), stop (the to condition), to_rule (the to effect's if:), effect (the to effect)
    and the consequents; None where not given."""
    b, to = slide.between, slide.to
    if b is not None and b.if_ is not None:
        go = env.compile(b.if_)
    else:
        go = lambda c: c.s.what[c.between] == 0  # noqa: E731  (is In (between) (sites Empty))
    if to is not None:
        to.refuse("level", why=f"a slide's destinations are found along its {along}")
        build_unread_sites(env, to)
    stop = env.compile(to.if_) if to is not None and to.if_ is not None else None
    ap = to.apply if to is not None else None
    to_rule = env.compile(ap.if_) if ap is not None and ap.if_ is not None else None
    effect = env.compile(ap.effect) if ap is not None and ap.effect is not None else None
    return go, stop, to_rule, effect, _then(env, slide)


@ludeme("move", "Slide")
class MoveSlide(Moves):
    """`(move Slide [(from ...)] [directions] [(between ...)] [(to ...)] [(then ...)])`.

    As Ludii's Slide: along each radial, sites are passed while the between
    condition holds (default: the site is empty), within the between range
    (default 1 to 1000 steps); each site passed is a destination if the
    destination's effect condition allows it. A site where the to condition
    holds stops the slide there, as a destination that also carries the `to`
    effect. `trail:` leaves a piece on every site the slide leaves, start
    included; `(between (apply <effect>))` applies the effect at every site passed
    over. Example (a chess rook):

        (piece "Rook" Each (move Slide Orthogonal))

    With a track name (or "AllTracks") it follows the board's tracks instead, as
    Surakarta's pieces go round its loops (see "Slides along tracks" below), e.g.
    `(move Slide "AllTracks" (to if:(is Enemy (who at:(to))) (apply (remove (to)))))`.
    `stack:True` slides the whole stack, as a step with `stack:True` moves it.
    """
    concepts = ("SlideDecision", "LineOfSight", "Contains if not to.if", "AdjacentDirection if not dirn",
                # As Ludii's Slide: the sites passed (between if:) classify the decision, and
                # a removal at the destination is a replacement capture.
                "SlideDecisionToEmpty if between.if has IsEmpty",
                "SlideDecisionToFriend if between.if has IsFriend",
                "SlideDecisionToEnemy if between.if has IsEnemy",
                "ReplacementCapture if to.apply has RemoveEffect")

    params = (P("from_", "FromSpec", opt=True), P("track", LitStr, opt=True),
              P("dirn", (DirWord, "Directions"), opt=True),
              P("between", "BetweenSpec", opt=True), P("to", "ToSpec", opt=True),
              P("stack", LitBool, opt=True, named=True, default=False),
              P("then", "Then", opt=True))

    def compile(self, env):
        if self.track is not None:
            if self.stack:
                raise self.fail("(move Slide <track> ... stack:True) is not supported yet")
            return compile_track_slide(self, env)
        kind = _moving_action(env, self, self.stack)
        level_fn = from_level_fn(env, self, self.from_)
        # Ludii's Slide tests (from if:...) once, with (from) on the start site
        from_cond = env.compile(self.from_.if_) if self.from_ is not None \
            and self.from_.if_ is not None else None
        from_fn = env.site_fn(self.from_)
        dirn = self.dirn or "Adjacent"
        # Ludii's Slide walks every direction of its list, one given twice twice
        dirs = env.direction_keys(dirn, self, repeats=True)
        radials = env.board.radials
        nsites = env.num_board_sites
        b = self.between
        if b is not None:
            b.refuse("before", "after", why="Ludii's Slide reads only if:, trail:, (apply ...) "
                     "and the range of (between ...)")
        passed = env.compile(b.apply.effect) if b is not None and b.apply is not None \
            and b.apply.effect is not None else None
        # Ludii evaluates the (apply ...) at each site passed over: its effect where its
        # condition holds there, nothing elsewhere
        passed_if = env.compile(b.apply.if_) if passed is not None \
            and b.apply.if_ is not None else None
        if b is not None and b.range is not None:
            min_fn, max_fn = b.range.bounds(env)
        else:
            min_fn, max_fn = (lambda c: -1), (lambda c: 1000)
        trail = env.compile(b.trail) if b is not None and b.trail is not None else None
        go, stop, to_rule, effect, then = slide_rules(self, env, "radials")

        def trail_actions(c, steps, k):
            piece = trail(c)
            return [(A_ADD, steps[i], piece, c.g.components[piece].owner if piece > 0 else 0, 1)
                    for i in range(k)]

        def passed_actions(c, steps, k, acts):
            """Ludii chains the between effect at each site passed over (steps 1..k-1),
            each in front of what the move holds so far."""
            for i in range(1, k):
                c.between = steps[i]
                if passed_if is None or passed_if(c):
                    acts[:0] = _effect_actions(passed, c)
            return acts         # (between) stays on the last of them, as in Ludii

        def slide(c):
            frm = from_fn(c)
            if frm < 0 or frm >= nsites:
                return []
            lo, hi = min_fn(c), max_fn(c)
            saved = (c.from_, c.to, c.between)
            c.from_ = frm
            out = []
            # Ludii's Slide reads (from ... level:) with (from) on the start, before if:.
            level = level_fn(c) if level_fn is not None else -1
            if level < -1 or from_cond is not None and not from_cond(c):
                c.from_ = saved[0]
                return out
            # a level given moves the piece there (a flat game has no levels to read)
            at_level = level >= 0 and c.stacking
            lf = level if at_level else 0
            for key in dirs(c, frm):
                for radial in radials[key][frm] if key in radials else ():
                    steps = radial.sites
                    c.between = saved[2]
                    k = 1
                    while k < len(steps) and k <= hi:
                        to_site = steps[k]
                        c.to = to_site
                        if stop is not None and stop(c) and lo <= k:
                            acts = []
                            if effect is not None:
                                acts.extend(_effect_actions(effect, c))
                            acts.append((A_MOVE_LEVEL, frm, level, to_site, TOP) if at_level
                                        else (kind, frm, to_site))
                            if trail is not None:
                                acts.extend(trail_actions(c, steps, k))
                            if passed is not None:
                                acts = passed_actions(c, steps, k, acts)
                            c.to = to_site
                            if to_rule is None or to_rule(c):
                                out.append(_passed(Move(frm, to_site, 0, acts, then, False, lf)))
                            break
                        c.between = to_site
                        if not go(c):
                            break
                        if lo <= k:
                            acts = [(A_MOVE_LEVEL, frm, level, to_site, TOP) if at_level
                                    else (kind, frm, to_site)]
                            if trail is not None:
                                acts.extend(trail_actions(c, steps, k))
                            if passed is not None:
                                acts = passed_actions(c, steps, k, acts)
                            c.to = to_site
                            if to_rule is None or to_rule(c):
                                out.append(_passed(Move(frm, to_site, 0, acts, then, False, lf)))
                        k += 1
            c.from_, c.to, c.between = saved
            return out
        return slide


@ludeme("move", "Shoot")
class MoveShoot(Moves):
    """`(move Shoot (piece "Name") [(from ...)] [dirn] [(to ...)] [(then ...)])`.

    As Ludii's Shoot: from the last move's destination (or the start given),
    along each radial, adds the piece at every site while the to condition
    holds (default: the site is empty). Example (Amazons' arrow):

        (move Shoot (piece "Dot0"))
    """
    concepts = ("ShootDecision", "AddDecision", "LineOfSight", "AdjacentDirection if not dirn")

    params = (P("piece", "PieceRef"), P("from_", "FromSpec", opt=True),
              P("dirn", DirWord, opt=True), P("between", "BetweenSpec", opt=True),
              P("to", "ToSpec", opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        if self.between is not None:
            # Ludii's Shoot keeps (between if:...) as its go-rule but never evaluates it (a
            # quirk kept): the condition is compiled, never applied; the rest is refused.
            self.between.refuse("before", "range", "after", "trail", "apply",
                                why="Ludii's Shoot reads only (between if:...)")
            if self.between.if_ is not None:
                env.compile(self.between.if_)
        if self.from_ is not None:
            self.from_.refuse("level", "if_", why="Ludii's Shoot reads only the start site")
            if self.from_.site is None:
                raise self.from_.fail("(from ...) needs a site here")
            from_fn = env.compile(self.from_.site)
        else:
            from_fn = lambda c: c.s.last_to  # noqa: E731
        piece_fn = env.compile(self.piece)
        dirs = env.direction_keys(self.dirn or "Adjacent", self)
        radials = env.board.radials
        nsites = env.num_board_sites
        if self.to is not None:
            self.to.refuse("site", "level", "apply", why="Ludii's Shoot reads only if:")
        ok = env.compile(self.to.if_) if self.to is not None and self.to.if_ is not None \
            else (lambda c: c.s.what[c.to] == 0)
        then = _then(env, self)

        def shoot(c):
            frm = from_fn(c)
            if frm < 0 or frm >= nsites:
                return []
            piece = piece_fn(c)
            if piece < 0:
                return []
            owner = c.g.components[piece].owner if piece > 0 else 0
            saved = (c.from_, c.to, c.between)
            out = []
            for key in dirs(c, frm):
                for radial in radials[key][frm] if key in radials else ():
                    c.between = saved[2]
                    for to_site in radial.sites[1:]:
                        c.to = to_site
                        if not ok(c):
                            break
                        c.between = to_site
                        out.append(_passed(Move(to_site, to_site, 0,
                                                [(A_ADD, to_site, piece, owner, 1)], then)))
            c.from_, c.to, c.between = saved
            return out
        return shoot


@ludeme("count", "Moves")
class CountMoves(IntFn):
    """`(count Moves)`: decisions played so far, start placements excluded (Ludii's
    `Trial.moveNumber()`). Example: `(if (is Even (count Moves)) (forEach Piece) ...)`."""

    params = ()

    def compile(self, env):
        return lambda c: c.s.num_moves - c.s.num_start_moves


@ludeme("is", "Even")
class IsEven(Bool):
    """`(is Even <int>)`."""
    concepts = ("Even",)

    params = (P("value", IntFn),)

    def compile(self, env):
        v = env.compile(self.value)
        return lambda c: v(c) % 2 == 0


@ludeme("is", "Odd")
class IsOdd(Bool):
    """`(is Odd <int>)`."""
    concepts = ("Odd",)

    params = (P("value", IntFn),)

    def compile(self, env):
        v = env.compile(self.value)
        return lambda c: v(c) % 2 == 1


# -- Slides along tracks ------------------------------------------------------------
#
# `(move Slide "Track" ...)` and `(move Slide "AllTracks" ...)`: slides along the board's
# tracks (Ludii's Slide.slideByTrack), as Surakarta's pieces travel round its corner loops.
#
# A track's elements carry a bump count: how many times the walk goes round a loop on
# leaving that element (a site written twice in a row, see `graph.tracks.build_track`).
# From every place the start site has on every track chosen (a crossing site has two on one
# circuit), the walk follows the track's next elements, at most one lap. Ludii's rules:
#
# * Along "AllTracks", nothing is a destination before the walk has gone round at least one
#   loop; along a named track, every site reached may be (Daldosa's traces show it).
# * The between range bounds the steps: the k-th site reached is a destination only for a
#   minimum <= k, and the walk stops past the maximum (Daldosa: `(between (exact (pips)))`).
# * After a loop, a site where the to condition holds is a destination that carries the
#   to effect (`(apply ...)`, whose `if:` is not read there), and the walk stops.
# * After a loop, any other site is a destination when the effect's `if:` holds (always
#   when there is none), without the effect.
# * The walk goes on while the between condition holds at the site reached (default: it is
#   empty), so it may pass back over its own start site when that condition allows it.
#
# Unlike a slide along radials, a track slide does not set `(from)` (it keeps the value the
# caller set, e.g. `(forEach Piece)`'s site), does not reset `(between)` per track, and reads
# no trail: one is refused.


def compile_track_slide(slide, env):
    """The closure of a `(move Slide "<track>"|"AllTracks" ...)` (a typed MoveSlide)."""
    slide.refuse("dirn", why="Ludii's slide along a track reads no directions")
    b = slide.between
    if b is not None:
        b.refuse("before", "after", "apply", "trail",
                 why="Ludii's slide along a track reads only the between condition and range")
    if slide.from_ is not None:
        slide.from_.refuse("level", "if_", why="Ludii's Slide reads only the start site")
    from_fn = env.site_fn(slide.from_)
    name = slide.track
    tracks = [t for t in getattr(env.board, "track_info", ())
              if name == "AllTracks" or t.name == name]
    go, stop, to_rule, effect, then = slide_rules(slide, env, "track")
    if b is not None and b.range is not None:
        min_fn, max_fn = b.range.bounds(env)
    else:
        min_fn, max_fn = (lambda c: -1), (lambda c: 1000)
    all_tracks = name == "AllTracks"
    # Per track: (elements, next index of each element, bumps of each element).
    walks = [(t.sites, tuple(_next_index(t, k) for k in range(len(t.sites))), t.bumps)
             for t in tracks if len(t.sites) > 1]

    def slide_by_track(c):
        frm = from_fn(c)
        if frm < 0:
            return []
        saved_to, saved_between = c.to, c.between
        lo, hi = min_fn(c), max_fn(c)
        out = []
        for sites, nxt, bumps in walks:
            length = len(sites)
            for i in range(length):
                if sites[i] != frm:
                    continue
                index, loops, taken = i, bumps[i], 1
                while nxt[index] >= 0 and taken < length and taken <= hi:
                    to_site = sites[nxt[index]]
                    taken += 1
                    c.to = to_site
                    # Ludii: along "AllTracks" a site counts only once a loop is passed
                    # (Surakarta); along a named track, every site
                    if (loops > 0 or not all_tracks) and lo <= taken - 1:
                        if stop is not None and stop(c):
                            acts = _effect_actions(effect, c) if effect is not None else []
                            acts.append((A_MOVE, frm, to_site))
                            out.append(_passed(Move(frm, to_site, 0, acts, then)))
                            break
                        if to_rule is None or to_rule(c):
                            out.append(_passed(Move(frm, to_site, 0, [(A_MOVE, frm, to_site)], then)))
                    c.between = to_site
                    if not go(c):
                        break
                    index = nxt[index]
                    loops += bumps[index]
        c.to, c.between = saved_to, saved_between
        return out
    return slide_by_track


def _next_index(track, k: int) -> int:
    """Index of the element after element k on a track, -1 past the end of an open one."""
    if k + 1 < len(track.sites):
        return k + 1
    return 0 if track.loop else -1


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(CountMoves, kind="int")
def _count_moves(src, lud):
    return "(sc[NUM_MOVES] - sc[NUM_START_MOVES])"


@emits(IsEven, IsOdd, kind="bool")
def _parity(src, lud):
    return f"({src.int_expr(lud.value)} % 2 == {0 if type(lud) is IsEven else 1})"


def radial_table(src, lud, dirn, per_kind: bool, repeats: bool) -> tuple[str, int, int, str]:
    """The table of the sites along each radial in these directions (its start left out)
    from each board site, `[site, radial, k]`, or with `per_kind` `[slot of the kind of the
    piece on the site, site, radial, k]` (directions relative to the piece's facing; kinds
    that face alike share a slot), padded with -1; its width (radials) and depth; the table
    of each kind's slot (`Source.kind_slots`), or "" without `per_kind`. `repeats`: a
    direction the list gives twice comes twice."""
    dirs = src.env.direction_keys(dirn, lud, repeats=repeats)
    radials = src.env.board.radials
    made: dict = {}         # (keys, site) -> its row: most kinds' pieces face alike

    def row(probe, s):
        keys = tuple(dirs(probe, s))
        got = made.get((keys, s))
        if got is None:
            got = made[keys, s] = [r.sites[1:] for k in keys
                                   for r in (radials[k][s] if k in radials else ())]
        return list(got)
    rows = src.per_kind(row, per_kind)
    slots = ""
    if per_kind:
        rows, slots = src.kind_slots(rows)
    steps, width, depth = radials_array(rows)
    return src.table(steps if per_kind else steps[0]), width, depth, slots


def radials_array(rows):
    """Rows `[i][site][radial]` of the sites along radials as one array `[i, site, radial,
    k]` padded with -1, its width (radials) and depth."""
    import numpy as np
    width = max((len(x) for per in rows for x in per), default=0) or 1
    depth = max((len(r) for per in rows for x in per for r in x), default=0) or 1
    steps = np.full((len(rows), len(rows[0]), width, depth), -1)
    for w, per in enumerate(rows):
        for s, rs in enumerate(per):
            for r, sites in enumerate(rs):
                steps[w, s, r, :len(sites)] = sites
    return steps, width, depth


class _SlideForm:
    """What both compiled forms of a slide read: the table of the sites along each radial
    from each start site (`t_steps[at, r, k]`), its width (radials) and depth, the between
    range's bounds (None without one), the between, stop and to-effect conditions and the
    lines of the effect where the slide stops."""

    def __init__(self, src, lud, passed_ok: bool = False, level_ok: bool = False):
        env = src.env
        n = self.n = env.num_board_sites
        dirn = lud.dirn or "Adjacent"
        static = env.is_static_direction(dirn)
        self.chosen = None
        if not static:
            # Directions relative to the piece's facing: a table per kind of piece (the kind
            # at the start site, as the reference reads it); those that read the last move
            # or the position are chosen at the start (`chosen_directions`), or refused.
            from .moves import _refuse_unless_by_piece
            try:
                _refuse_unless_by_piece(lud, dirn)
            except Unsupported:
                self.chosen = self._chosen(src, lud, dirn)
        self.frm_expr = from_site(src, lud, level=level_ok)
        # (from ... level:): read with (from) on the start site, before if: (below -1, no
        # move); the caller moves the piece at that level (`level_ok`)
        self.level = src.int_expr(lud.from_.level) \
            if level_ok and lud.from_ is not None and lud.from_.level is not None else None
        # (from ... if:): read with (from) on the start site, before any site along
        self.from_ok = src.bool_expr(lud.from_.if_) \
            if lud.from_ is not None and lud.from_.if_ is not None else None
        b, to = lud.between, lud.to
        if b is not None:
            # (between (apply ...)): the moves' own form (`_slide_moves`) reads it
            refuse(b, "before", "after", *(() if passed_ok else ("apply", "trail")))
        # the between range: its bounds read before the slide sets (from); the k-th site
        # along is a destination only from the least on, and the most ends the slide
        self.lo = self.hi = None
        if b is not None and b.range is not None:
            self.lo, self.hi = emit("range", src, b.range)
        self.go = src.bool_expr(b.if_) if b is not None and b.if_ is not None \
            else "what[btw] == 0"
        if to is not None:
            # the sites a (to ...) writes are never read: the destinations are along the
            # radials, as the reference (and Ludii's Slide) finds them (`build_unread_sites`)
            refuse(to, "level", "type")
        self.stop = src.bool_expr(to.if_) if to is not None and to.if_ is not None else None
        ap = to.apply if to is not None else None
        self.rule = src.bool_expr(ap.if_) if ap is not None and ap.if_ is not None else "True"
        # The radials of every direction of the list (one given twice, twice), per start site.
        if self.chosen is None:
            self.t_steps, self.width, self.depth, slots = radial_table(src, lud, dirn,
                                                                       not static, True)
        self.at = "frm" if static or self.chosen is not None \
            else f"{slots}[{src.kind_at('frm')}], frm"
        self.effect: list[str] = []
        if self.stop is not None and ap is not None and ap.effect is not None:
            src.between = "x"           # `effects` is given the last site passed as x
            try:
                src.effect_body(ap.effect, self.effect)
            finally:
                src.between = "btw"

    def _chosen(self, src, lud, dirn) -> list[str]:
        """Directions chosen in play (of the last move, an (if ...) or a difference of
        them): the radials of every direction from each site (those of the All relation
        first, as `SitesDirection` lists them) and which direction each is, and the lines
        listing the directions chosen at the start (`sdc_sl`, `sdn_sl` of them)."""
        from .directions import chosen_directions
        env = src.env
        radials = env.board.radials
        every = [k for k in env.board.relation_dirs("All") if k in radials]
        every += [k for k in radials if k not in every]
        n = env.num_board_sites
        rows = [[list(r.sites[1:]) for k in every for r in radials[k][s]] for s in range(n)]
        t_rows, _ = src.padded(rows)
        self.t_steps = src.table(t_rows)
        self.width, self.depth = t_rows.shape[1], t_rows.shape[2]
        self.of_row = src.table(src.padded([[i for i, k in enumerate(every)
                                             for _ in radials[k][s]] for s in range(n)])[0])
        return [f"sdc_sl = np.empty({len(every)}, np.int64)", "sdn_sl = 0",
                *chosen_directions(src, lud, dirn, every, "sl", "frm")]

    def walk(self, out, ind, at_stop, at_site) -> None:
        """The loop along the radials from (from): `at_stop(out, ind)` writes the lines for
        a destination where the slide stops (the to condition), `at_site(out, ind)` those
        for a site passed; each may end its radial (`break`) itself."""
        n, lo = self.n, self.lo
        top = ind
        out.append(f"{ind}sf_, st_, sb_ = frm, to, btw")
        if lo is not None and lo == self.hi:    # (exact N): N read once
            out.append(f"{ind}slo_ = {lo}")
            out.append(f"{ind}shi_ = slo_")
        elif lo is not None:
            out.append(f"{ind}slo_, shi_ = {lo}, {self.hi}")
        out.append(f"{ind}frm = {self.frm_expr}")
        ok = f" and ({self.from_ok})" if self.from_ok is not None else ""
        if self.level is not None:
            out.append(f"{ind}slv_ = {self.level} if 0 <= frm < {n} else -1")
            ok = " and slv_ >= -1" + ok
        out.append(f"{ind}if 0 <= frm < {n}{ok}:")
        if self.chosen is not None:
            # each direction chosen in turn, its radials in the table's order
            out.extend(f"{ind}    {x}" for x in self.chosen)
            out.append(f"{ind}    for sci_ in range(sdn_sl):")
            ind += "    "
        out.append(f"{ind}    for r in range({self.width}):")
        if self.chosen is not None:
            out.append(f"{ind}        if {self.of_row}[frm, r] != sdc_sl[sci_] or "
                       f"{self.t_steps}[frm, r, 0] < 0:")
            out.append(f"{ind}            continue")
        out.append(f"{ind}        btw = sb_")
        out.append(f"{ind}        for kk in range({self.depth}):")
        out.append(f"{ind}            to = {self.t_steps}[{self.at}, r, kk]")
        out.append(f"{ind}            if to < 0{' or kk + 1 > shi_' if lo is not None else ''}:")
        out.append(f"{ind}                break")
        reached = " and slo_ <= kk + 1" if lo is not None else ""
        if self.stop is not None:
            out.append(f"{ind}            if ({self.stop}){reached}:" if reached else
                       f"{ind}            if {self.stop}:")
            out.append(f"{ind}                if {self.rule}:")
            at_stop(out, ind + "                    ")
            out.append(f"{ind}                break")
        out.append(f"{ind}            btw = to")
        out.append(f"{ind}            if not ({self.go}):")
        out.append(f"{ind}                break")
        out.append(f"{ind}            if ({self.rule}){reached}:" if reached else
                   f"{ind}            if {self.rule}:")
        at_site(out, ind + "                ")
        out.append(f"{top}frm, to, btw = sf_, st_, sb_")


@emits(MoveSlide, kind="moves")
def _slide_moves(src, lud, out, ind):
    """Along each radial of a direction that reads nothing of the state: sites passed while
    the between condition holds, each a destination; a site where the to condition holds
    ends the radial as a destination that also takes the to effect (as `compile`). Along
    tracks, `_track_slide_moves`."""
    from .moves import _moving
    if lud.track is not None:
        refuse(lud, "stack")
        _track_slide_moves(src, lud, out, ind)
        return
    form = _SlideForm(src, lud, passed_ok=True, level_ok=True)
    passed = _passed_lines(src, lud, form)
    before, trail = _trail_lines(src, lud, form)
    # the piece, or with stack:True the whole stack (no level reported, as `compile`)
    line, kind, levels = _moving(src, lud, LV_NONE)
    moving, x = [line], None
    if form.level is not None and src.game.stacking:
        # as `compile`: the piece at the level given (the top for -1) moves to the
        # destination's top, the level reported; the move keeps it (its extra)
        if passed or trail or _READS_X.search("\n".join(form.effect)):
            raise Unsupported(lud, "with (from ... level:) beside an effect that reads "
                                   "(between), or a trail")
        moving = ["if x >= 0:",
                  "    " + src.stack_write("stack_move_level(who, what, count, frm, x, to, -1)"),
                  "else:", "    " + src.site_move()]
        from .ints import Level
        if isinstance(lud.from_.level, Level):   # the move applied reads (level) as made
            moving.insert(0, "lvl = x")
        kind, levels, x = A_MOVE_LEVEL, LV_GIVEN, "slv_"
    plain = src.new_generator(before + passed + moving + trail, lud=lud, kind=kind,
                              levels=levels)
    stopping = src.new_generator(before + passed + form.effect + moving + trail, lud=lud,
                                 kind=kind, levels=levels) if form.stop else plain
    # the radial's index, where the sites passed are read back (else the last one passed)
    back = passed or trail
    form.walk(out, ind,
              lambda o, i: src.push(o, i, "frm", "to", stopping, x or ("r" if back else "btw")),
              lambda o, i: src.push(o, i, "frm", "to", plain, x or ("r" if back else "-1")))


def _trail_lines(src, lud, form) -> tuple[list[str], list[str]]:
    """A slide's `(between trail:<piece>)` as `compile`'s trail_actions: after the move, the
    piece added on the start and on each site passed before the destination, in that order
    (read back along the radial, the move's extra, before the piece leaves its start, whose
    kind may choose the table). The lines before the move and after it; none without."""
    import re
    b = lud.between
    if b is None or b.trail is None:
        return [], []
    piece = src.int_expr(b.trail)
    if re.search(r"\b(btw|x)\b", piece):
        raise Unsupported(lud, "with a trail: that reads (between)")
    seq = f"{form.t_steps}[{form.at}, x]"
    before = ["tk_ = 0", f"while {seq}[tk_] != to:", "    tk_ += 1",
              f"tsq_ = {seq}[:tk_].copy()"]
    after = [f"tp_ = {piece}", "tsf_ = frm", "for ti_ in range(tk_ + 1):",
             "    ts_ = tsf_ if ti_ == 0 else tsq_[ti_ - 1]",
             f"    {src.site_add('ts_', 'tp_', 'OWNER[tp_] if tp_ > 0 else 0', '1')}"]
    return before, after


# A line reading the move's extra (`x`).
_READS_X = re.compile(r"\bx\b")


def _passed_lines(src, lud, form) -> list[str]:
    """A slide's `(between (apply ...))` as `compile`'s passed_actions chains it: the effect
    at each site passed over (its if: read there, with (between) on it), from the one before
    the destination back to the first, before the move. The move keeps the radial (its
    extra), along which the sites before the destination are read back."""
    from .moves import _apply_lines
    b = lud.between
    if b is None or b.apply is None:
        return []
    if form.effect:
        raise Unsupported(lud, "with (between (apply ...)) and a (to (apply ...)) effect")
    body: list[str] = []
    _apply_lines(src, b.apply, body)
    seq = f"{form.t_steps}[{form.at}, x]"
    return ["sbp_ = btw", "pk_ = 0", f"while {seq}[pk_] != to:", "    pk_ += 1",
            "for pj_ in range(pk_ - 1, -1, -1):", f"    btw = {seq}[pj_]",
            *("    " + x for x in body), "btw = sbp_"]


def _track_tables(src, lud) -> tuple[str, str, str, str, str, str, int]:
    """The tracks a slide follows (`compile_track_slide`'s walks) as tables: per track its
    elements, the index of the next of each (-1 past the end of an open track), the bumps
    of each and its length; per board site, where it stands on them (track * width +
    index, in the reference's order) and how many times. Their width too."""
    import numpy as np
    name = lud.track
    tracks = [t for t in getattr(src.env.board, "track_info", ())
              if (name == "AllTracks" or t.name == name) and len(t.sites) > 1]
    width = max((len(t.sites) for t in tracks), default=1)
    sites = np.full((max(1, len(tracks)), width), -1)
    nxt, bumps = sites.copy(), np.zeros_like(sites)
    for j, t in enumerate(tracks):
        sites[j, :len(t.sites)] = t.sites
        nxt[j, :len(t.sites)] = [_next_index(t, k) for k in range(len(t.sites))]
        bumps[j, :len(t.sites)] = t.bumps
    places = [[j * width + i for j, t in enumerate(tracks) for i, x in enumerate(t.sites)
               if x == s] for s in range(src.env.num_board_sites)]
    t_places, n_places = src.row_tables(places)
    return (src.table(sites), src.table(nxt), src.table(bumps),
            src.table([len(t.sites) for t in tracks] or [0]), t_places, n_places, width)


def _track_slide_moves(src, lud, out, ind):
    """`compile_track_slide`'s walk (see "Slides along tracks" above) from the start site:
    from each place it has on each track chosen, along the track's next elements, at most
    one lap; a destination (along "AllTracks" once a loop is passed) where the effect's
    if: holds, or, where the to condition holds, one that takes the to effect and ends
    the walk; on while the between condition holds. (between) is not reset per track."""
    b, to = lud.between, lud.to
    if b is not None:
        refuse(b, "before", "after", "apply", "trail")
    if lud.from_ is not None:
        refuse(lud.from_, "level", "if_")
    start = from_site(src, lud)
    lo, hi = emit("range", src, b.range) if b is not None and b.range is not None \
        else ("-1", "1000")
    go = src.bool_expr(b.if_) if b is not None and b.if_ is not None else "what[btw] == 0"
    if to is not None:
        refuse(to, "level", "site", "type")
    stop = src.bool_expr(to.if_) if to is not None and to.if_ is not None else None
    ap = to.apply if to is not None else None
    rule = src.bool_expr(ap.if_) if ap is not None and ap.if_ is not None else "True"
    effect: list[str] = []
    if stop is not None and ap is not None and ap.effect is not None:
        src.between = "x"           # `effects` is given (between) as x
        try:
            src.effect_body(ap.effect, effect)
        finally:
            src.between = "btw"
    plain = src.new_generator([src.site_move()], lud=lud, levels=LV_NONE)
    stopping = src.new_generator(effect + [src.site_move()], lud=lud,
                                 levels=LV_NONE)
    t_sites, t_next, t_bumps, t_len, t_places, n_places, width = _track_tables(src, lud)
    counted = "" if lud.track != "AllTracks" else "tlp_ > 0 and "
    out += [f"{ind}tst_, tsb_ = to, btw",
            f"{ind}tfr_ = {start}",
            f"{ind}tlo_, thi_ = {lo}, {hi}",
            f"{ind}if 0 <= tfr_ < {src.env.num_board_sites}:",
            f"{ind}    for tj_ in range({n_places}[tfr_]):",
            f"{ind}        tt_ = {t_places}[tfr_, tj_] // {width}",
            f"{ind}        ti_ = {t_places}[tfr_, tj_] % {width}",
            f"{ind}        tlp_ = {t_bumps}[tt_, ti_]",
            f"{ind}        tk_ = 1",
            f"{ind}        while {t_next}[tt_, ti_] >= 0 and tk_ < {t_len}[tt_] and tk_ <= thi_:",
            f"{ind}            to = {t_sites}[tt_, {t_next}[tt_, ti_]]",
            f"{ind}            tk_ += 1",
            f"{ind}            if {counted}tlo_ <= tk_ - 1:"]
    inner = ind + "                "
    if stop is not None:
        out.append(f"{inner}if {stop}:")
        src.push(out, inner + "    ", "tfr_", "to", stopping, "btw")
        out.append(f"{inner}    break")
    out.append(f"{inner}if {rule}:")
    src.push(out, inner + "    ", "tfr_", "to", plain)
    out += [f"{ind}            btw = to",
            f"{ind}            if not ({go}):",
            f"{ind}                break",
            f"{ind}            ti_ = {t_next}[tt_, ti_]",
            f"{ind}            tlp_ += {t_bumps}[tt_, ti_]",
            f"{ind}to, btw = tst_, tsb_"]


@emits(MoveSlide, kind="consequent",
       refuses=("track", "stack", ("then", "with (then ...) as a consequent")))
def _slide_consequent(src, lud, lines, ind):
    """A slide that makes at most one move (one radial from each site, an exact number of
    sites), applied where it is found: the reference generates a consequent's moves on the
    position and then applies each, which for one move is the same. A slide that could make
    several is refused."""
    form = _one_move_form(src, lud, "as a consequent that may make several moves")
    # The reference moves nothing out of an empty site (a consequent's start may be one),
    # and still counts the action.
    move = ["if what[frm] != 0:", "    " + src.site_move(), "else:",
            f"    {NO_EFFECT_ACTION}"]

    def apply(o, i, effect=True):
        o.append(f"{i}x = btw")
        o.extend(i + x for x in ([*form.effect, *move] if effect else move))
    form.walk(lines, ind, apply, lambda o, i: apply(o, i, effect=False))


def _slide_one_move(src, lud):
    """A slide as `_slide_consequent` makes it (one radial, an exact number of sites): one
    move where it finds a destination, none elsewhere, walked in a kernel of its own that
    counts them (the consequent's refusals kept)."""
    form = _one_move_form(src, lud, "as an effect that may make several moves")
    walk = ["    sn_ = 0"]
    form.walk(walk, "    ", lambda o, i: o.append(f"{i}sn_ += 1"),
              lambda o, i: o.append(f"{i}sn_ += 1"))
    found = src.helper(lambda name: "\n".join([
        "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw):",
        src.context(local=()), *walk, "    return sn_ > 0", ""]))
    return f"{found}(who, what, count, sc, phase, frm, to, btw)"


def _one_move_form(src, lud, why: str) -> "_SlideForm":
    """The form of a slide that makes one move at most (one radial, one number of sites
    between), else Unsupported (`why`)."""
    form = _SlideForm(src, lud)
    if form.width != 1 or not _one_count(lud.between.range if lud.between else None):
        raise Unsupported(lud, why)
    return form


def _one_count(rng) -> bool:
    """True when a between range admits one number of sites only: (exact N), N read when
    the slide begins (Connect Four's drop: the empty sites of the column), or a number the
    rules fix, (range N N) or (range N), (max 1)."""
    from .literals import IntConst
    if isinstance(rng, Exact):
        return True
    if isinstance(rng, RangeL):
        ends = (rng.lo, rng.hi if rng.hi is not None else rng.lo)
    elif isinstance(rng, MaxL):
        return type(rng.n) is IntConst and rng.n.value == 1
    else:
        return False
    return all(type(e) is IntConst for e in ends) and ends[0].value == ends[1].value


@emits(MoveShoot, kind="moves")
def _shoot_moves(src, lud, out, ind):
    """From the start site along each radial of a fixed direction: the piece added at
    each site while the to condition holds (the site is empty by default), as `compile`
    walks them; `(from)` and `(to)` of the rules read inside stay the outer ones, as there."""
    from ludeme.engine.compiled.emit import LV_ADD
    env = src.env
    n = env.num_board_sites
    dirn = lud.dirn or "Adjacent"
    if not env.is_static_direction(dirn):
        raise Unsupported(lud, "with directions that read the state")
    if lud.between is not None:     # compiled by the reference, never applied (its quirk)
        refuse(lud.between, "before", "range", "after", "trail", "apply")
    if lud.from_ is not None:
        refuse(lud.from_, "level", "if_", "type")
    start = src.int_expr(lud.from_.site) if lud.from_ is not None and \
        lud.from_.site is not None else "last_to"
    if lud.to is not None:
        refuse(lud.to, "site", "level", "apply", "type")
    ok = src.bool_expr(lud.to.if_) if lud.to is not None and lud.to.if_ is not None \
        else "what[to] == 0"
    refuse(lud.piece, "state")
    kind = src.int_expr(lud.piece)
    t_steps, width, depth, _ = radial_table(src, lud, dirn, False, False)
    g = src.new_generator([src.site_add("to", kind, f"OWNER[{kind}]", "1")], lud=lud,
                          kind=A_ADD, levels=LV_ADD)
    # (between) is the last site the shot passed along its radial (the one around it
    # before the first), as the reference reads it in the to condition
    out.append(f"{ind}st_, sh_, sb_ = to, {start}, {src.between}")
    out.append(f"{ind}if 0 <= sh_ < {n} and {kind} >= 0:")
    out.append(f"{ind}    for r in range({width}):")
    out.append(f"{ind}        {src.between} = sb_")
    out.append(f"{ind}        for kk in range({depth}):")
    out.append(f"{ind}            to = {t_steps}[sh_, r, kk]")
    out.append(f"{ind}            if to < 0 or not ({ok}):")
    out.append(f"{ind}                break")
    out.append(f"{ind}            {src.between} = to")
    src.push(out, ind + "            ", "to", "to", g)
    out.append(f"{ind}to, {src.between} = st_, sb_")
