"""`(forEach Direction ...)` in play (Ludii's game.rules.play.moves.nonDecision.operators
.foreach.direction.ForEachDirection): moves generated at each site reached along the
chosen directions, e.g. a Xiangqi horse: one orthogonal step to an empty site, then a
diagonal step turned from that direction."""

from __future__ import annotations

# Every ludeme here declares its concepts (Ludii's ForEachDirection: ControlFlowStatement).
CONCEPTS_REVIEWED = True

from ludeme.boards.trajectories import RELATIONS
from ludeme.model.tables import _TURNS, RELATIVE_ANGLES, relative_directions
from .base import DirWord, Moves, P, ludeme


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

        def direction_to(frm, to):
            """Ludii's direction from (from) to (to): the last supported one whose step
            from (from) reaches (to)."""
            found = None
            if not (0 <= frm < nsites):
                return None
            for d in supported:
                for r in radials[d][frm]:
                    if len(r.sites) > 1 and r.sites[1] == to:
                        found = d
                        break
            return found

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

        def keys(c, frm, piece, facing):
            face = facing or facing_of[piece]
            out = list(fixed)
            for w in relative:
                out.extend(relative_directions(face, w, turn_among))
            return tuple(dict.fromkeys(out))
        return keys
