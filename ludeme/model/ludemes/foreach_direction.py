"""`(forEach Direction ...)` in play (Ludii's game.rules.play.moves.nonDecision.operators
.foreach.direction.ForEachDirection): moves generated at each site reached along the
chosen directions, e.g. a Xiangqi horse: one orthogonal step to an empty site, then a
diagonal step turned from that direction."""

from __future__ import annotations

# Every ludeme here declares its concepts (Ludii's ForEachDirection: ControlFlowStatement).
CONCEPTS_REVIEWED = True

from ludeme.boards.trajectories import RELATIONS
from ludeme.engine.compiled.emit import Unsupported, emit, emits, refuse
from ludeme.model.tables import _TURNS, RELATIVE_ANGLES, relative_directions
from .base import DirWord, IntFn, Moves, P, ludeme


@ludeme("forEach", "Direction")
class ForEachDirection(Moves):
    """`(forEach Direction [(from <site>)] [<directions>] [(between [(range ...)] [if:...])]
    (to if:<cond> (apply <moves>)) | <moves> [(then ...)])`.

    From the start site (default `(from)`), along each radial of each direction, the
    sites 1 to the range's maximum (default 1) are visited in order: before the minimum,
    each must pass the between condition (as `(between)`); every one must pass the to
    condition (as `(to)`), the radial stopping at the first that fails; from the minimum
    on, the moves are generated there with `(to)` set. Relative directions (FL, FR, ...)
    turn from the direction leading from `(from)` to the current `(to)` when there is one,
    else from the moving piece's facing, as Ludii's ForEachDirection; nothing is generated
    when `(from)` holds no piece.
    """
    concepts = ("ControlFlowStatement",)

    params = (P("from_", "FromSpec", opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("between", "BetweenSpec", opt=True), P("to", "ToSpec", opt=True),
              P("moves", Moves, opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        if (self.to is None) == (self.moves is None):
            raise self.fail("(forEach Direction ...) needs either (to ...) or moves")
        start = self._start(env)
        lo_fn, hi_fn, between_cond = self._range(env)
        to_cond, gen = self._to(env)
        dirs = self._directions(env)
        then = _then(env, self)
        board = env.board
        radials = board.radials
        supported = board.directions
        nsites = env.num_board_sites

        steps_from: dict[int, dict[int, str]] = {}      # per site: its first steps

        def direction_to(frm, to):
            """Ludii's direction from (from) to (to): the last supported one whose step
            from (from) reaches (to). The board's, so each site's first steps are worked
            out once (at most a direction each: memory of the board's size, never of the
            pairs of sites met)."""
            if not (0 <= frm < nsites):
                return None
            steps = steps_from.get(frm)
            if steps is None:
                steps = steps_from[frm] = first_steps(radials, supported, frm)
            return steps.get(to)

        def for_each_direction(c):
            out = []
            frm = start(c)
            piece_site = c.from_
            if not (0 <= piece_site < len(c.s.what)) or c.s.what[piece_site] == 0:
                return out
            if not (0 <= frm < nsites):
                return out
            facing = direction_to(piece_site, c.to) if c.to >= 0 else None
            lo, hi = lo_fn(c), hi_fn(c)
            saved = (c.to, c.between)
            for d in dirs(c, frm, c.s.what[piece_site], facing):
                for r in (radials[d][frm] if d in radials else ()):
                    sites = r.sites
                    for k in range(1, min(len(sites) - 1, hi) + 1):
                        to = sites[k]
                        if between_cond is not None and lo > 1 and k < lo:
                            c.between = to
                            if not between_cond(c):
                                break
                            c.between = saved[1]
                        c.to = to
                        if to_cond is not None and not to_cond(c):
                            break
                        if k >= lo:
                            out.extend(gen(c))
            c.to, c.between = saved
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        return for_each_direction

    def _start(self, env):
        f = self.from_
        if f is None:
            return lambda c: c.from_
        f.refuse("level", "if_", why="Ludii's ForEachDirection reads only the start site")
        if f.type not in (None, env.board.site_type):
            f.refuse("type", why="a site type other than the board's")
        if f.site is None:
            return lambda c: c.from_
        from .base import IntFn
        if not isinstance(f.site, IntFn):
            raise f.fail("(forEach Direction (from ...)) takes one site, not a region")
        return env.compile(f.site)

    def _range(self, env):
        b = self.between
        one = (lambda c: 1)
        if b is None:
            return one, one, None
        b.refuse("before", "after", "trail", "apply",
                 why="Ludii's ForEachDirection reads only the range and if: of (between ...)")
        lo, hi = b.range.bounds(env) if b.range is not None else (one, one)
        cond = env.compile(b.if_) if b.if_ is not None else None
        return lo, hi, cond

    def _to(self, env):
        if self.to is None:
            return None, env.compile(self.moves)
        t = self.to
        t.refuse("type", "site", "level",
                 why="Ludii's ForEachDirection reads only if: and the applied moves")
        ap = t.apply
        if ap is None or ap.effect is None:
            raise t.fail("(forEach Direction (to ...)) needs (apply <moves>)")
        ap.refuse("if_", why="Ludii's ForEachDirection applies the moves unconditioned")
        cond = env.compile(t.if_) if t.if_ is not None else None
        return cond, env.compile(ap.effect)

    def _directions(self, env):
        """(c, from, piece, facing) -> direction keys of the board's radials."""
        dirn = self.dirn if self.dirn is not None else "Adjacent"
        if hasattr(dirn, "direction_keys"):
            raise self.fail(f"({dirn.keyword} ...) as the directions of (forEach Direction "
                            "...) is not supported yet")
        words = [dirn] if isinstance(dirn, str) else list(dirn.dirs)
        of = getattr(dirn, "of", None) or "Adjacent"
        if of not in RELATIONS:
            raise self.fail(f"(directions of:{of}) is not supported yet")
        board = env.board
        static, relative = [], []
        for w in words:
            if w in board.directions or w in board.radials or w in RELATIONS:
                static.append(w)
            elif w in _TURNS or w in RELATIVE_ANGLES:
                relative.append(w)
            else:
                raise self.fail(f"the direction {w} in (forEach Direction ...) is not "
                                f"supported yet (board directions: "
                                f"{', '.join(board.directions)})")
        fixed = tuple(dict.fromkeys(static))
        if not relative:
            return lambda c, frm, piece, facing: fixed
        try:
            turn_among = tuple(board.relation_dirs(of)) or board.directions
        except (KeyError, ValueError):
            turn_among = board.directions
        facing_of = env.facing_of
        by_face: dict[str, tuple] = {}      # the keys depend on the facing alone

        def keys(c, frm, piece, facing):
            face = facing or facing_of[piece]
            got = by_face.get(face)
            if got is None:
                out = list(fixed)
                for w in relative:
                    out.extend(relative_directions(face, w, turn_among))
                got = by_face[face] = tuple(dict.fromkeys(out))
            return got
        return keys


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(ForEachDirection, kind="moves")
def _for_each_direction_moves(src, lud, out, ind):
    """As `compile`: from the start site, along each radial of each direction, the sites
    1 to the range's most, each passing the between condition (before the least) and the
    to condition (the radial ends at the first that fails), the moves generated from the
    least on with `to` on the site; every move takes the (then ...) after its own.

    The radials are a table per facing (`_radials_by_facing`): relative directions turn
    from the direction leading from the piece's site (`frm`) to the current `to` (a table
    of each site's neighbours and the facing each is reached in), else from the piece's
    facing (a table per kind)."""
    env = src.env
    n = env.num_board_sites
    if (lud.to is None) == (lud.moves is None):
        raise Unsupported(lud, "without either (to ...) or moves")
    start = "frm"
    f = lud.from_
    if f is not None:
        refuse(f, "level", "if_")
        if f.type not in (None, env.board.site_type):
            raise Unsupported(f, "on another site type than the board's")
        if f.site is not None:
            if not isinstance(f.site, IntFn):
                raise Unsupported(f, "from a region")
            start = src.int_expr(f.site)
    b = lud.between
    lo = hi = "1"
    go = None
    if b is not None:
        refuse(b, "before", "after", "trail", "apply")
        if b.range is not None:
            lo, hi = emit("range", src, b.range)
        go = src.bool_expr(b.if_) if b.if_ is not None else None
    if lud.to is not None:
        t = lud.to
        refuse(t, "type", "site", "level")
        ap = t.apply
        if ap is None or ap.effect is None:
            raise Unsupported(t, "without (apply <moves>)")
        refuse(ap, "if_")
        stop = src.bool_expr(t.if_) if t.if_ is not None else None
        moves = ap.effect
    else:
        stop, moves = None, lud.moves
    # a most the rules fix bounds the table's depth
    most = int(hi) if hi.isdigit() else None
    steps, slot_of_step, slot_of_kind, width, depth = _radials_by_facing(src, lud, most)
    v = f"_{len(ind)}"          # the locals of this loop (these loops may nest)
    out.append(f"{ind}fds{v} = {start}")
    out.append(f"{ind}if 0 <= frm < TOTAL and what[frm] != 0 and 0 <= fds{v} < {n}:")
    i2 = ind + "    "
    if slot_of_kind is None:
        at = f"fds{v}"
    else:
        # the facing: the direction from the piece's site to the reference's (to) where it
        # is defined (`Source.direction_to`; the kernels' `to` may hold a site other moves
        # left there), else the piece's own
        out.append(f"{i2}fdf{v} = -1")
        if src.direction_to is not None:
            nb, nb_len, nb_slot = slot_of_step
            out.append(f"{i2}if {src.direction_to} >= 0 and frm < {n}:")
            out.append(f"{i2}    for fdj{v} in range({nb_len}[frm]):")
            out.append(f"{i2}        if {nb}[frm, fdj{v}] == {src.direction_to}:")
            out.append(f"{i2}            fdf{v} = {nb_slot}[frm, fdj{v}]")
            out.append(f"{i2}            break")
        out.append(f"{i2}if fdf{v} < 0:")
        out.append(f"{i2}    fdf{v} = {slot_of_kind}[what[frm]]")
        at = f"fdf{v}, fds{v}"
    out.append(f"{i2}fdlo{v} = {lo}")
    out.append(f"{i2}fdhi{v} = {hi}")
    out.append(f"{i2}fdt{v}, fdb{v} = to, btw")
    out.append(f"{i2}for fdr{v} in range({width}):")
    out.append(f"{i2}    for fdk{v} in range({depth}):")
    i4 = i2 + "        "
    out.append(f"{i4}fdx{v} = {steps}[{at}, fdr{v}, fdk{v}]")
    out.append(f"{i4}if fdx{v} < 0 or fdk{v} + 1 > fdhi{v}:")
    out.append(f"{i4}    break")
    if go is not None:
        # read with (between) on the site (and `to` where it was), before the least only;
        # a site that fails leaves (between) on it, as the reference
        out.append(f"{i4}if fdlo{v} > 1 and fdk{v} + 1 < fdlo{v}:")
        out.append(f"{i4}    btw = fdx{v}")
        out.append(f"{i4}    if not ({go}):")
        out.append(f"{i4}        break")
        out.append(f"{i4}    btw = fdb{v}")
    out.append(f"{i4}to = fdx{v}")
    if stop is not None:
        out.append(f"{i4}if not ({stop}):")
        out.append(f"{i4}    break")
    out.append(f"{i4}if fdk{v} + 1 >= fdlo{v}:")
    saved, src.direction_to = src.direction_to, f"fdx{v}"
    try:
        with src.enclosing_then(lud):
            src.moves(moves, out, i4 + "    ")
    finally:
        src.direction_to = saved
    out.append(f"{i4}    pass")
    out.append(f"{i2}to, btw = fdt{v}, fdb{v}")


def first_steps(radials, directions, site: int) -> dict:
    """The sites one step from `site` along the board's radials, each with the last of
    `directions` whose step reaches it (Ludii's direction between two neighbours)."""
    steps = {}
    for d in directions:
        for r in radials[d][site]:
            if len(r.sites) > 1:
                steps[r.sites[1]] = d       # a later direction wins, as in Ludii
    return steps


def _radials_by_facing(src, lud, most: int | None):
    """The sites along the radials of the directions from each site (its start left out),
    `[slot, site, radial, k]` padded with -1 (k below `most`), a slot per distinct list of directions (one
    only, `[site, radial, k]`, when none is relative); and for relative directions, each
    site's neighbours one step away with the slot of the direction reaching each (the last
    of the board's directions that does, as `direction_to`: a table of sites, of their
    numbers and of slots), and the slot of each kind of piece's own facing (else None)."""
    from .sliding import radials_array
    env = src.env
    board = env.board
    n = env.num_board_sites
    radials = board.radials
    try:
        keys = lud._directions(env)
    except Exception as e:      # the reference refuses it too
        raise Unsupported(lud, str(e)) from e
    kinds = range(len(src.game.components))
    facing_of = env.facing_of
    supported = board.directions
    # the directions for each facing from (from) to (to), then for each kind's own facing
    lists = [keys(None, 0, 0, d) for d in supported] + \
        [keys(None, 0, w, None) if w < len(facing_of) else () for w in kinds]
    slots: list = list(dict.fromkeys(lists))
    relative = len(slots) > 1       # else every facing gives the same directions
    rows = [[[r.sites[1:][:most] for d in ks for r in (radials[d][s] if d in radials else ())]
             for s in range(n)] for ks in slots]
    steps, width, depth = radials_array(rows)
    if not relative:
        return src.table(steps[0]), None, None, width, depth
    slot = {ks: i for i, ks in enumerate(slots)}
    slot_of = {d: slot[lists[i]] for i, d in enumerate(supported)}
    nbs, nb_slots = [], []
    for s in range(n):
        reached = first_steps(radials, supported, s)
        nbs.append(list(reached))
        nb_slots.append([slot_of[d] for d in reached.values()])
    nb, nb_len = src.padded(nbs)
    nb_slot, _ = src.padded(nb_slots)
    of_kind = [slot[lists[len(supported) + w]] for w in kinds]
    return (src.table(steps), (src.table(nb), src.table(nb_len), src.table(nb_slot)),
            src.table(of_kind), width, depth)

