"""Whether a walk from a site meets given pieces (Ludii's booleans/is/pattern): `(is Pattern ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.boards.trajectories import COMPASS
from ludeme.engine.compiled.emit import emits
from .base import Bool, Enum, IntFn, P, SiteType, ludeme

WalkStep = Enum("StepType", "F L R")


def _orthogonal_turns(lud, board):
    """(the board's orthogonal directions, turn(direction, 1 | -1): the next one clockwise
    or anticlockwise)."""
    orthogonal = tuple(board.relation_dirs("Orthogonal"))
    if not orthogonal:
        raise lud.fail("(is Pattern ...) needs orthogonal directions on the board")

    def turn(d, by):
        i = COMPASS.index(d)
        while True:
            i = (i + by) % len(COMPASS)
            if COMPASS[i] in orthogonal:
                return COMPASS[i]
    return orthogonal, turn


@ludeme("is", "Pattern")
class IsPattern(Bool):
    """`(is Pattern {F R F ...} [from:<site>] [what:<int> | whats:{<int> ...}])`: as Ludii's
    IsPattern, starting from the site (the last move's destination by default) facing each
    orthogonal direction of the board in turn, every forward step lands on the next kind
    of piece in `whats` (cycling; by default the kind at the start), L and R turning to the
    next orthogonal direction. Example (Teeko, a square of four):

        (is Pattern {F R F R F})
    """
    concepts = ("Pattern",)

    params = (P("walk", WalkStep, many=True), P("type", SiteType, opt=True),
              P("from", IntFn, opt=True, named=True), P("what", IntFn, opt=True, named=True),
              P("whats", IntFn, opt=True, named=True, many=True))

    def compile(self, env):
        if self.what is not None and self.whats:
            raise self.fail("(is Pattern ...) takes what: or whats:, not both")
        start = env.compile(self.from_) if self.from_ is not None else (lambda c: c.s.last_to)
        kinds = [env.compile(self.what)] if self.what is not None else \
            [env.compile(w) for w in self.whats]
        board = env.board
        orthogonal, turn = _orthogonal_turns(self, board)
        right = {d: turn(d, 1) for d in orthogonal}
        left = {d: turn(d, -1) for d in orthogonal}
        step = {d: board.step[d] for d in orthogonal}
        walk = tuple(self.walk)
        n = env.num_board_sites

        def pattern(c):
            frm = start(c)
            if not 0 <= frm < n:
                return False
            what = c.s.what
            whats = [f(c) for f in kinds] if kinds else [what[frm]]
            if not kinds and whats[0] == 0:
                return False
            if what[frm] != whats[0]:
                return False
            for facing in orthogonal:
                loc, k, found = frm, 1 % len(whats), True
                for s in walk:
                    if s == "F":
                        loc = step[facing][loc]
                        if loc < 0 or what[loc] != whats[k]:
                            found = False
                            break
                        k = (k + 1) % len(whats)
                    elif s == "R":
                        facing = right[facing]
                    else:
                        facing = left[facing]
                if found:
                    return True
            return False
        return pattern


__all__ = ["IsPattern"]


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(IsPattern, kind="bool", refuses=("type",))
def _is_pattern(src, lud):
    """As `IsPattern.compile`: the directions of the forward steps are fixed by the walk and
    the direction faced first, so a table holds, per first direction and forward step, the
    site each site steps to; a helper kernel walks them."""
    if lud.what is not None and lud.whats:
        raise lud.fail("(is Pattern ...) takes what: or whats:, not both")
    board = src.env.board
    orthogonal, turn = _orthogonal_turns(lud, board)
    n = src.env.num_board_sites
    rows = []
    for first in orthogonal:
        facing, row = first, []
        for s in lud.walk:
            if s == "F":
                row.append([board.step[facing][x] for x in range(n)])
            else:
                facing = turn(facing, 1 if s == "R" else -1)
        rows.append(row)
    n_f = len(rows[0])
    steps = src.table(rows if n_f else [[[-1] * n]] * len(orthogonal))
    kinds = [src.int_expr(lud.what)] if lud.what is not None else \
        [src.int_expr(w) for w in lud.whats]
    start = src.int_expr(lud.from_) if lud.from_ is not None else "last_to"
    fill = [f"    ws[{i}] = {k}" for i, k in enumerate(kinds)] if kinds else \
        ["    ws[0] = what[pf]", "    if ws[0] == 0:", "        return False"]
    return src.context_kernel([
        f"    pf = {start}", f"    if not 0 <= pf < {n}:", "        return False",
        f"    ws = np.empty({max(1, len(kinds))}, np.int64)", *fill,
        "    if what[pf] != ws[0]:", "        return False",
        f"    for i in range({len(orthogonal)}):",
        f"        loc, k, ok = pf, {1 % max(1, len(kinds))}, True",
        f"        for j in range({n_f}):",
        f"            loc = {steps}[i, j, loc]",
        "            if loc < 0 or what[loc] != ws[k]:",
        "                ok = False", "                break",
        f"            k = (k + 1) % {max(1, len(kinds))}",
        "        if ok:", "            return True",
        "    return False"])
