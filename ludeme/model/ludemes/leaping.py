"""Leaps by turtle walks (Ludii's Leap and the walks of SitesWalk)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.boards.trajectories import COMPASS
from ludeme.engine.state import A_MOVE, Move
from .base import ArrayOf, Enum, IntFn, LitBool, Moves, P, Region, SiteType, ludeme
from .moves import _apply_lines, _side_effect, _then, build_unread_level
from ludeme.engine.compiled.emit import LV_TOP, emits, refuse
from ludeme.engine.compiled.unsupported import Unsupported

StepWord = Enum("StepType", "F L R")


def walk_fn(env, lud, walks, rotations: bool):
    """c, site -> the sites each walk ends on, as Ludii's SitesWalk: from every orthogonal
    direction the board supports (only the first without rotations), F steps one site
    forward (the last same-type step in that direction), R and L turn to the next
    orthogonal direction clockwise or anticlockwise; a walk leaving the board ends nowhere."""
    orth = env.board.relation_dirs("Orthogonal")
    if not orth:
        raise lud.fail("a walk needs a board with orthogonal directions")
    starts = orth if rotations else orth[:1]
    ring = len(COMPASS)
    turn = {}
    for d in orth:
        for word, delta in (("R", 1), ("L", -1)):
            i = (COMPASS.index(d) + delta) % ring
            while COMPASS[i] not in orth:
                i = (i + delta) % ring
            turn[d, word] = COMPASS[i]
    targets = env.board.trajectories.targets
    nsites = env.num_board_sites

    def ends(frm):
        out = []
        for start in starts:
            for walk in walks:
                loc, facing = frm, start
                for word in walk:
                    if word == "F":
                        nxt = targets(loc, facing)
                        loc = nxt[-1] if nxt else -1
                        if loc < 0:
                            break
                    else:
                        facing = turn[facing, word]
                if loc >= 0:
                    out.append(loc)
        return tuple(out)
    table = tuple(ends(s) for s in range(nsites))
    return lambda c, frm: table[frm] if 0 <= frm < nsites else ()


@ludeme("sites")
class SitesWalk(Region):
    """`(sites [<site>] <walks> [rotations:False])`: the sites the walks end on from the site
    ((from) by default), as a set (Ludii's SitesWalk); with rotations:False, only the walks
    starting north. Example, the sites a knight's jump reaches:

        (sites (from) {{F F R F} {F F L F}})
    """
    concepts = ()

    params = (P("type", SiteType, opt=True), P("start", IntFn, opt=True),
              P("walks", ArrayOf(StepWord), many=True),
              P("rotations", LitBool, opt=True, named=True, default=True))

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(sites {self.type} <walks>) on a board of "
                            f"{env.board.site_type.lower()}s is not supported yet")
        start = env.compile(self.start) if self.start is not None else (lambda c: c.from_)
        ends = walk_fn(env, self, self.walks, self.rotations)
        return lambda c: sorted(set(ends(c, start(c))))


@ludeme("move", "Leap")
class MoveLeap(Moves):
    """`(move Leap [(from ...)] <walks> [forward:True] [rotations:False] (to if:<cond>
    [(apply ...)]) [(then ...)])`: a move to each site a walk ends on where the condition
    holds, as Ludii's Leap (the destination's effect applies first); with `forward:True`,
    only to sites ahead of the piece's facing (rows and columns). Example, a knight:

        (move Leap {{F F R F} {F F L F}} (to if:(not (is Friend (who at:(to))))
            (apply (remove (to)))))
    """
    concepts = ("LeapDecision", "LeapDecisionToEmpty if to.if has IsEmpty",
                "LeapDecisionToFriend if to.if has IsFriend",
                "LeapDecisionToEnemy if to.if has IsEnemy",
                "ReplacementCapture if to.apply has RemoveEffect")

    params = (P("from_", "FromSpec", opt=True), P("walk", ArrayOf(StepWord), many=True),
              P("forward", LitBool, opt=True, named=True, default=False),
              P("rotations", LitBool, opt=True, named=True, default=True),
              P("to", "ToSpec"), P("then", "Then", opt=True))

    def compile(self, env):
        if self.from_ is not None:
            self.from_.refuse("if_", why="Ludii's Leap reads only the start site")
            build_unread_level(env, self.from_)     # Ludii's Leap moves the top piece
            if self.from_.type not in (None, env.board.site_type):
                raise self.from_.fail("a leap on another site type is not supported yet")
        self.to.refuse("site", "level", why="a leap's destinations are its walks' ends")
        start = env.site_fn(self.from_)
        ends = walk_fn(env, self, self.walk, self.rotations)
        go = env.compile(self.to.if_) if self.to.if_ is not None else None
        if go is None:
            raise self.to.fail("(move Leap ...) needs (to if:<condition>)")
        side = _side_effect(env, self.to)
        then = _then(env, self)
        ahead = _ahead_fn(env) if self.forward else None

        def leap(c):
            frm = start(c)
            if frm < 0:
                return []
            out = []
            saved = c.to
            # Ludii's Leap leaves (from) as it is; one piece leaves the top of a stack.
            lf = c.s.size_stack(frm) - 1 if c.stacking else 0
            for to in ends(c, frm):
                if ahead is not None and not ahead(c.s.what[frm], frm, to):
                    continue
                c.to = to
                if go(c):
                    acts = [(A_MOVE, frm, to)] if side is None else [*side(c), (A_MOVE, frm, to)]
                    out.append(Move(frm, to, 0, acts, then, False, lf))
            c.to = saved
            return out
        return leap


# Ludii's Leap.checkForward: (row change sign, column change sign) a facing allows; the
# other facings allow nothing.
_AHEAD = {"N": (1, 0), "NE": (1, 1), "E": (0, 1), "SE": (-1, 1), "S": (-1, 0),
          "SW": (-1, -1), "W": (0, -1), "NW": (1, -1)}


def _ahead_fn(env):
    """(what, from, to) -> whether `to` lies ahead of the piece's facing, as Ludii's Leap
    with forward:True; a piece with no declared facing (or no piece) may leap anywhere."""
    sites = env.board.sites
    facing_of, declared = env.facing_of, env.facing_declared

    def ahead(what, frm, to):
        if not what or what not in declared:
            return True
        dr, dc = _AHEAD.get(facing_of[what], (None, None))
        if dr is None:
            return False
        a, b = sites[frm], sites[to]
        rows = dr == 0 or (b.row - a.row) * dr > 0
        cols = dc == 0 or (b.col - a.col) * dc > 0
        return rows and cols
    return ahead


@ludeme("leap")
class LeapEffect(MoveLeap):
    """`(leap [(from ...)] <walks> [forward:] [rotations:] (to if:... [(apply ...)])
    [(then ...)])`: a leap as an effect (Ludii's Leap), e.g. the sites a knight's leap
    reaches: `(sites To (leap (from (last To)) {{F F R F}} (to if:(is Empty (to)))))`."""
    concepts = ("LeapEffect", "ReplacementCapture if to.apply has RemoveEffect")


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(MoveLeap, LeapEffect, kind="moves")
def _leap_moves(src, lud, out, ind):
    """From the start (its (from ...) site, else `frm`, the piece's), each end of the walks
    in turn (a table per site, as the reference lists them), where the condition holds;
    (from) stays the caller's, as Ludii's Leap leaves it. With forward:True, only the ends
    ahead of the piece at the start (a table per kind of piece, as `_ahead_fn`)."""
    import numpy as np
    from .moves import from_site
    if lud.from_ is not None:
        refuse(lud.from_, "if_")
    to = lud.to
    refuse(to, "type")
    n = src.env.num_board_sites
    ends = walk_fn(src.env, lud, lud.walk, lud.rotations)
    rows = [list(ends(None, f)) for f in range(n)]
    t_sites, t_len = (src.table(a) for a in src.padded(rows))
    effect: list[str] = []
    if to.apply is not None:
        _apply_lines(src, to.apply, effect)
    effect.append(src.site_move())
    # in a stacking game the top piece leaves, its level reported (`MoveLeap.compile`)
    g = src.new_generator(effect, lud=lud, levels=LV_TOP)
    cond = src.bool_expr(to.if_)
    d = len(ind)        # the start's local, one per depth of nesting
    if lud.forward:
        ahead = _ahead_fn(src.env)
        width = max((len(r) for r in rows), default=0) or 1
        ok = np.zeros((len(src.game.components), n, width), dtype=bool)
        for w in range(len(src.game.components)):
            for f, row in enumerate(rows):
                ok[w, f, :len(row)] = [ahead(w, f, t) for t in row]
        cond = f"{src.table(ok, 'bool_')}[what[lf_{d}], lf_{d}, j] and {cond}"
    # (from ... level:) is never read: Ludii's Leap moves the top piece
    out.append(f"{ind}lf_{d} = {from_site(src, lud, level=True)}")
    out.append(f"{ind}if 0 <= lf_{d} < {n}:")
    out.append(f"{ind}    for j in range({t_len}[lf_{d}]):")
    out.append(f"{ind}        to = {t_sites}[lf_{d}, j]")
    out.append(f"{ind}        if {cond}:")
    src.push(out, ind + "            ", f"lf_{d}", "to", g)


def _walk_rows(src, lud) -> list[list[int]]:
    """Per board site, the sites `(sites <walks>)` gives from it, as the reference lists
    them (each once, in increasing order)."""
    ends = walk_fn(src.env, lud, lud.walks, lud.rotations)
    return [sorted(set(ends(None, f))) for f in range(src.env.num_board_sites)]


def _walk_start(src, lud) -> str:
    return src.int_expr(lud.start) if lud.start is not None else "frm"


@emits(SitesWalk, kind="sites")
def _walk_sites(src, lud):
    """The row of a table per start site (none off the board)."""
    n = src.env.num_board_sites
    t_sites, t_len = (src.table(a) for a in src.padded(_walk_rows(src, lud)))
    at = _walk_start(src, lud)
    return f"({t_sites}[{at}, :{t_len}[{at}]] if 0 <= {at} < {n} else {t_sites}[0, :0])", None


@emits(SitesWalk, kind="contains")
def _walk_contains(src, lud, site):
    """A mask per start site (`(sites {})` is read so: no walk, no site)."""
    import numpy as np
    n = src.env.num_board_sites
    mask = np.zeros((n, n), dtype=bool)
    for f, row in enumerate(_walk_rows(src, lud)):
        mask[f, row] = True
    at = _walk_start(src, lud)
    return (f"(0 <= {at} < {n} and 0 <= {site} < {n} and "
            f"{src.table(mask, 'bool_')}[{at}, {site}])")
