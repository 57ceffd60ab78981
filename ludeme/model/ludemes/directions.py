"""Direction functions (Ludii's game/functions/directions): a choice of directions made
from others when a move is generated, e.g. `(difference Orthogonal OppositeDirection)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.boards.trajectories import RELATIONS
from .base import Bool, DirWord, P, ludeme
from .moves import Directions

_CHOICE = (DirWord, "Directions")


def keys_of(env, dirn, lud):
    """(c, site) -> direction names of a word, a (directions ...) or a direction function."""
    return env.direction_keys(dirn, lud)


class _DirectionFunction(Directions):
    """A direction choice computed from others; read only through `direction_keys`."""

    @property
    def dirs(self):
        raise self.fail(f"({self.keyword} ...) as directions is not supported here yet")


@ludeme("difference")
class DirectionsDifference(_DirectionFunction):
    """`(difference <directions> <directions>)`: the first directions without the second,
    relations (Orthogonal, ...) counted as the compass directions they stand for on this
    board, as Ludii's Difference. Example: `(difference Orthogonal OppositeDirection)`."""
    concepts = ()

    params = (P("original", _CHOICE), P("removed", _CHOICE))

    def direction_parts(self):
        """The two sets of directions it is made of (read by the compiled forms)."""
        return self.original, self.removed

    def direction_keys(self, env, lud):
        first = keys_of(env, self.original, lud)
        second = keys_of(env, self.removed, lud)
        board = env.board
        expanded = {r: tuple(board.relation_dirs(r)) for r in RELATIONS}
        orth = set(expanded["Orthogonal"])
        if any(set(expanded[w]) & orth for w in ("Diagonal", "OffDiagonal")):
            # A board drawn as lines, where a diagonal line is also an edge: Ludii spells a
            # relation as the directions the site itself supports in it
            # (TopologyElement.supportedDirections): a diagonal step along an edge is
            # orthogonal there, not diagonal.
            near = board.neighbours
            at_site: dict = {}

            def relation_at(r, frm):
                got = at_site.get((r, frm))
                if got is None and not 0 <= frm < board.num_sites:
                    return expanded[r]      # off the board: the board's own spelling
                if got is None:
                    sites = set(near[r][frm]) if r in near else set()
                    if r in ("Diagonal", "OffDiagonal"):
                        sites -= set(near["Orthogonal"][frm])
                    got = at_site[(r, frm)] = tuple(
                        d for d in expanded[r] if d in board.step and board.step[d][frm] in sites)
                return got
        else:
            def relation_at(r, frm):
                return expanded[r]

        def spell(keys, frm):
            out = []
            for k in keys:
                for d in (relation_at(k, frm) if k in expanded else (k,)):
                    if d not in out:
                        out.append(d)
            return out

        def keys(c, frm):
            removed = spell(second(c, frm), frm)
            return tuple(d for d in spell(first(c, frm), frm) if d not in removed)
        return keys


@ludeme("if")
class DirectionsIf(_DirectionFunction):
    """`(if <cond> <directions> <directions>)`: the first directions when the condition
    holds, else the second (Ludii's If of directions).
    Example: `(if (= (mover) 1) (directions {N NE}) (directions {S SW}))`."""
    concepts = ()

    params = (P("cond", Bool), P("ok", _CHOICE), P("not_ok", _CHOICE))

    @property
    def branches(self) -> tuple:
        """The directions when `cond` holds, and when it does not (a compiled step reads
        a table per branch)."""
        return (self.ok, self.not_ok)

    def direction_keys(self, env, lud):
        cond = env.compile(self.cond)
        ok = keys_of(env, self.ok, lud)
        not_ok = keys_of(env, self.not_ok, lud)
        return lambda c, frm: ok(c, frm) if cond(c) else not_ok(c, frm)


@ludeme("union")
class DirectionsUnion(_DirectionFunction):
    """`(union <directions> <directions>)`: the first directions, then those of the second
    not already there, relations (Orthogonal, ...) counted as the compass directions they
    stand for on this board, as Ludii's Union of directions. Example: `(union N (union NE NW))`."""

    params = (P("first", _CHOICE), P("second", _CHOICE))

    def direction_parts(self):
        """The two sets of directions it is made of (read by the compiled forms)."""
        return self.first, self.second

    def direction_keys(self, env, lud):
        first = keys_of(env, self.first, lud)
        second = keys_of(env, self.second, lud)
        expanded = {r: tuple(env.board.relation_dirs(r)) for r in RELATIONS}
        # Where a compass direction holds steps of two relations (boards drawn as lines),
        # a relation is not the sum of its compass directions here.
        shared = set(expanded["Orthogonal"]) & (set(expanded["Diagonal"])
                                                | set(expanded["OffDiagonal"]))
        for part in (self.first, self.second):
            if hasattr(part, "direction_keys"):
                continue        # a direction function checks its own parts
            words = [part] if isinstance(part, str) else list(part.dirs)
            if shared and any(w in RELATIONS for w in words):
                raise self.fail("the union of relations on a board whose steps of two "
                                "relations share a direction is not supported yet")

        def keys(c, frm):
            out = []
            for k in (*first(c, frm), *second(c, frm)):
                for d in expanded.get(k, (k,)):
                    if d not in out:
                        out.append(d)
            return tuple(out)
        return keys
