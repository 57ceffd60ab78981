"""Whether a walk from a site meets given pieces (Ludii's booleans/is/pattern): `(is Pattern ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.boards.trajectories import COMPASS
from .base import Bool, Enum, IntFn, P, SiteType, ludeme

WalkStep = Enum("StepType", "F L R")


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
        orthogonal = tuple(board.relation_dirs("Orthogonal"))
        if not orthogonal:
            raise self.fail("(is Pattern ...) needs orthogonal directions on the board")

        def turn(d, by):
            i = COMPASS.index(d)
            while True:
                i = (i + by) % len(COMPASS)
                if COMPASS[i] in orthogonal:
                    return COMPASS[i]
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
