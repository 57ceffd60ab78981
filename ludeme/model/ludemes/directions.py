"""Direction functions (Ludii's game/functions/directions): a choice of directions made
from others when a move is generated, e.g. `(difference Orthogonal OppositeDirection)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.boards.trajectories import RELATIONS
from ludeme.engine.compiled.emit import Unsupported
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


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

def chosen_directions(src, lud, dirn, every: list, d: int, loc: str, arr: str = "sdc",
                       cnt: str = "sdn", spelled: bool = False) -> list[str]:
    """Lines putting the indices (in `every`) of the directions `dirn` chooses at the site
    `loc` in `<arr>_<d>`, `<cnt>_<d>` of them, in the reference's order: a (directions ...)
    that reads nothing of the state (its own order at each site), the directions between
    two sites (`DirectionsBetween`: the All relation's with a radial from the first through
    the second), (if <cond> <dirs> <dirs>) or (difference <dirs> <dirs>) of those; any other
    is refused. `spelled`: relations (Orthogonal, ...) as the compass directions they stand
    for (as a difference of directions reads them)."""
    env = src.env
    n = env.num_board_sites
    radials = env.board.radials
    a, c = f"{arr}_{d}", f"{cnt}_{d}"
    if hasattr(dirn, "branches") and hasattr(dirn, "cond"):     # (if <cond> <dirs> <dirs>)
        ok, not_ok = (chosen_directions(src, lud, x, every, d, loc, arr, cnt, spelled)
                      for x in dirn.branches)
        return [f"if {src.bool_expr(dirn.cond)}:", *("    " + x for x in ok),
                "else:", *("    " + x for x in not_ok)]
    if hasattr(dirn, "original") and hasattr(dirn, "removed"):  # (difference <dirs> <dirs>)
        orth = set(env.board.relation_dirs("Orthogonal"))
        if any(set(env.board.relation_dirs(w)) & orth for w in ("Diagonal", "OffDiagonal")):
            raise Unsupported(lud, "with a (difference ...) of directions on a board whose "
                                   "diagonal lines are edges")
        first = chosen_directions(src, lud, dirn.original, every, d, loc, arr, cnt, True)
        less, nl = f"{arr}x", f"{cnt}x"
        second = chosen_directions(src, lud, dirn.removed, every, d, loc, less, nl, True)
        return [*first, f"{less}_{d} = np.empty({len(every)}, np.int64)", f"{nl}_{d} = 0",
                *second, f"{arr}m_{d} = 0",
                f"for {arr}i_{d} in range({c}):",
                f"    if not ({less}_{d}[:{nl}_{d}] == {a}[{arr}i_{d}]).any():",
                f"        {a}[{arr}m_{d}] = {a}[{arr}i_{d}]",
                f"        {arr}m_{d} += 1",
                f"{c} = {arr}m_{d}"]
    if hasattr(dirn, "keys_fn"):            # (directions from: to:)
        if dirn.type is not None and dirn.type != env.board.site_type:
            raise Unsupported(dirn, f"on {dirn.type} sites of a board of "
                                    f"{env.board.site_type} sites")
        index = {k: i for i, k in enumerate(every)}
        rows = [[list(r.sites[1:]) for k in every for r in radials[k][s]] for s in range(n)]
        of_row = [[index[k] for k in every for _ in radials[k][s]] for s in range(n)]
        t_rows, t_len = src.padded(rows)
        R3, RL = src.table(t_rows), src.table(t_len)
        RD, NR = src.table(src.padded(of_row)[0]), src.table([len(r) for r in rows])
        between = [x for x in env.board.relation_dirs("All") if x in radials]
        h = f"{arr}h_{d}"
        return [f"sda_{d} = {src.int_expr(dirn.from_)}",
                f"sdz_{d} = {src.int_expr(dirn.to)}",
                f"{h} = np.zeros({len(every)}, np.bool_)",
                f"if 0 <= sda_{d} < {n} and 0 <= sdz_{d} < {n}:",
                f"    for sdj_{d} in range({NR}[sda_{d}]):",
                f"        for sdp_{d} in range({RL}[sda_{d}, sdj_{d}]):",
                f"            if {R3}[sda_{d}, sdj_{d}, sdp_{d}] == sdz_{d}:",
                f"                {h}[{RD}[sda_{d}, sdj_{d}]] = True",
                f"for sdi_{d} in range({len(between)}):",
                f"    if {h}[sdi_{d}]:",
                f"        {a}[{c}] = sdi_{d}",
                f"        {c} += 1"]
    static = env.is_static_direction(dirn)
    if not static:
        # directions relative to the piece at the site (its facing, turned by its rotation):
        # a table per kind (and rotation) of piece, as `per_kind` reads them; any other
        # (the last move's) is refused
        from .moves import _refuse_unless_by_piece
        try:
            _refuse_unless_by_piece(lud, dirn)
        except Unsupported:
            raise Unsupported(lud, "with directions that read the state") from None
    keys = env.direction_keys(dirn, lud)
    index = {k: i for i, k in enumerate(every)}
    if spelled:
        expanded = {r: tuple(env.board.relation_dirs(r)) for r in RELATIONS}
        def spell(ks):
            return list(dict.fromkeys(x for k in ks for x in expanded.get(k, (k,))))
    else:
        spell = list
    if not static:
        per = src.per_kind(lambda probe, s: [index[k] for k in spell(keys(probe, s))
                                             if k in index])
        t_keys, t_len = (src.table(x) for x in src.padded(per))
        w = src.kind_at(loc)
        return [f"if 0 <= {loc} < {n}:",
                f"    for sdi_{d} in range({t_len}[{w}, {loc}]):",
                f"        {a}[{c}] = {t_keys}[{w}, {loc}, sdi_{d}]",
                f"        {c} += 1"]
    per_site = [[index[k] for k in spell(keys(None, s)) if k in index] for s in range(n)]
    t_keys, t_len = src.row_tables(per_site)
    return [f"if 0 <= {loc} < {n}:",
            f"    for sdi_{d} in range({t_len}[{loc}]):",
            f"        {a}[{c}] = {t_keys}[{loc}, sdi_{d}]",
            f"        {c} += 1"]
