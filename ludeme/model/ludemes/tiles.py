"""Tiles with paths: the paths drawn on a tile, the rotations a tile is placed with, whether
a placed tile's sides match its neighbours', and the walks along coloured paths (Ludii's
game.equipment.component.tile, game.functions.intArray.state.Rotations,
game.functions.booleans.is.integer.IsSidesMatch, game.functions.ints.tile.PathExtent, and
the path part of IsLoop).

A tile's sides are numbered from the first orthogonal direction of the board's cells (N on
a square board), clockwise. A tile's rotation is a step among the board's directions; each
ludeme turns it into a number of sides as Ludii does (the formulas differ between them,
and are kept: they agree on the square tiling).
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from dataclasses import dataclass

from ludeme.boards.trajectories import COMPASS_INDEX
from .base import Bool, DirWord, IntFn, LitInt, Other, P, Region, called, ludeme
from .intarray import IntArrayFn
from .sites_moves import last_tos

# Ludii's regular tilings (Graph.isRegular): a tile's number of sides is that of the
# board's first cell only on these.
REGULAR_BASES = ("Square", "Triangular", "Hexagonal")

RELATION_WORDS = ("Adjacent", "Orthogonal", "Diagonal", "OffDiagonal", "All")


@ludeme("path")
class Path(Other):
    """`(path from:<side> [slotsFrom:<slot>] to:<side> [slotsTo:<slot>] colour:<colour>)`:
    a path drawn on a tile between two of its sides (Ludii's Path; side 0 is the first
    direction of the tiling, N on a square board, the slots 0 by default). Example:
    `(tile "Curve" numSides:4 {(path from:0 to:1 colour:1) (path from:2 to:3 colour:2)})`."""

    params = (P("from", LitInt, named=True), P("slotsFrom", LitInt, opt=True, named=True),
              P("to", LitInt, named=True), P("slotsTo", LitInt, opt=True, named=True),
              P("colour", LitInt, named=True))

    def ends(self) -> tuple[int, int, int, int, int]:
        """(side 1, slot 1, side 2, slot 2, colour)."""
        return (self.from_, self.slotsFrom or 0, self.to, self.slotsTo or 0, self.colour)


@dataclass(frozen=True)
class TileInfo:
    """What the rules read of one tile kind: its paths and the slots of its sides (None
    per side: `slots_per_side` on every side)."""

    paths: tuple[tuple[int, int, int, int, int], ...] | None
    slots: tuple[int, ...] | None
    slots_per_side: int | None


def tile_table(env) -> dict[int, TileInfo]:
    """Component index -> TileInfo, for every tile of the equipment (Ludii's Tile: a tile
    without slots has one slot per side). Built once; building it reads every tile's paths
    and slots, the data the rules below walk on."""
    table = getattr(env, "_tile_table", None)
    if table is None:
        from .stacks import Tile
        table = {}
        for idx, piece in env.piece_items:
            if isinstance(piece, Tile):
                paths = tuple(p.ends() for p in piece.paths) if piece.paths else None
                slots = tuple(piece.slots) if piece.slots else None
                per_side = None if slots else (piece.slotsPerSide or 1)
                table[idx] = TileInfo(paths, slots, per_side)
        env._tile_table = table
    return table


def num_edges(env, lud) -> int:
    """Ludii's Topology.numEdges: the sides of the board's first cell on a regular tiling;
    refused elsewhere (Ludii leaves it undefined there)."""
    board = env.board
    faces = board.planar.faces
    if board.planar.basis not in REGULAR_BASES or not faces:
        raise lud.fail(f"({called(lud)} ...) on a board "
                       "that is not a regular tiling of cells is not supported yet")
    return len(faces[0].edges)


def cell_board(env, lud) -> None:
    """Tiles with paths lie on cells: refused on a board played on vertices or edges."""
    if env.board.site_type != "Cell":
        raise lud.fail(f"({called(lud)} ...) on a board "
                       "played on its vertices or edges is not supported yet")


def side_directions(env, lud) -> tuple[str, ...]:
    """The board's orthogonal directions of cells, clockwise from N: side k of a tile faces
    the k-th (Ludii turns a piece facing N right k times among them, FR)."""
    dirs = env.board.relation_dirs("Orthogonal")
    if not dirs or dirs[0] != "N":
        raise lud.fail(f"({called(lud)} ...) on a board "
                       "whose cells have no side facing N is not supported yet")
    return dirs


@ludeme("rotations")
class Rotations(IntArrayFn):
    """`(rotations <direction> | {<direction> ...})`: the rotations a piece may be placed
    with, one per direction (Ludii's Rotations): a compass direction's index (of sixteen)
    divided by the board's directions per side of a cell, and for a relation (Orthogonal,
    Diagonal, ...) each of its directions on the board, each rotation once. On a square
    board `(rotations {N E})` is {0 2} and `(rotations Orthogonal)` is {0 2 4 6}."""
    concepts = ()

    params = (P("dirs", DirWord, many=True),)

    def validate(self):
        for d in self.dirs:
            if d not in COMPASS_INDEX and d not in RELATION_WORDS:
                raise self.fail(f"(rotations {d}) is not supported yet: a compass direction "
                                f"or one of {', '.join(RELATION_WORDS)} is")

    def compile(self, env):
        board = env.board
        ratio = len(board.directions) // num_edges(env, self)
        out: list[int] = []
        for d in self.dirs:
            for facing in (board.relation_dirs(d) if d in RELATION_WORDS else (d,)):
                r = COMPASS_INDEX[facing] // ratio
                if r not in out:
                    out.append(r)
        rotations = tuple(out)
        return lambda c: rotations


def coloured_sides(info: TileInfo, edges: int, rotation: int, lud) -> list[list[int]]:
    """Ludii's coloured terminus of a tile (IsSidesMatch): per side, the colour at each of
    its slots (0 where no path ends), turned `rotation` sides clockwise."""
    if info.paths is None:
        raise lud.fail(f"({lud.keyword} {lud.kind} ...) met a tile without paths: Ludii "
                       "stops there (not supported yet)")
    if info.slots is not None and len(info.slots) < edges:
        raise lud.fail(f"({lud.keyword} {lud.kind} ...) met a tile with slots for fewer "
                       "sides than its cells have: Ludii stops there (not supported yet)")
    sides = [[0] * (info.slots[i] if info.slots else info.slots_per_side)
             for i in range(edges)]
    for s1, t1, s2, t2, colour in info.paths:
        for side, slot in ((s1, t1), (s2, t2)):
            if not (0 <= side < edges and 0 <= slot < len(sides[side])):
                raise lud.fail(f"({lud.keyword} {lud.kind} ...) met a path from side {side} "
                               f"slot {slot}, which the tile's cells do not have: Ludii stops "
                               "there (not supported yet)")
            sides[side][slot] = colour
    rotation %= edges
    return sides[edges - rotation:] + sides[:edges - rotation] if rotation else sides


@ludeme("is", "SidesMatch")
class IsSidesMatch(Bool):
    """`(is SidesMatch [<site>])`: the tile at the site (the last move's destination by
    default) matches every tile orthogonally next to it: the colours at the slots of each
    side it shares with one are those of the facing side, slot for slot in the opposite
    order (Ludii's IsSidesMatch). No piece there: false; a piece that is not a tile, or a
    neighbour that is not one: nothing to match. Example (Trax):

        (do (move (from (handSite Shared)) (to (sites Empty) (rotations Orthogonal))
            copy:True) ifAfterwards:(is SidesMatch))
    """
    concepts = ()

    params = (P("to", IntFn, opt=True),)

    def compile(self, env):
        cell_board(env, self)
        at = env.compile(self.to) if self.to is not None else (lambda c: c.s.last_to)
        tiles = tile_table(env)
        edges = num_edges(env, self)
        board = env.board
        dirs = side_directions(env, self)
        # Ludii turns a rotation into sides by the adjacent directions per orthogonal one.
        ratio = len(board.relation_dirs("Adjacent")) // len(dirs)
        steps = [board.step[d] for d in dirs]
        orthogonal = board.neighbours["Orthogonal"]
        n = env.num_board_sites
        lud = self
        turned: dict = {}       # (piece, sides turned) -> its coloured sides

        def sides_at(s, site, info):
            key = (s.what[site], s.piece_rotation(site) // ratio)
            got = turned.get(key)
            if got is None:
                got = turned[key] = coloured_sides(info, edges, key[1], lud)
            return got

        def sides_match(c):
            to = at(c)
            if to < 0:
                return False
            s = c.s
            what = s.what
            if to >= n:
                if to < len(what):
                    raise lud.fail("(is SidesMatch) of a site in a hand is not supported yet")
                return False
            info = tiles.get(what[to])
            if what[to] == 0:
                return False
            if info is None:
                return True
            mine = None
            for nb in orthogonal[to]:
                other = tiles.get(what[nb])
                if other is None:
                    continue
                if mine is None:
                    mine = sides_at(s, to, info)
                side = next((k for k, step in enumerate(steps) if step[to] == nb), None)
                if side is None:
                    raise lud.fail("(is SidesMatch) met a neighbour in no side's direction: "
                                   "Ludii stops there (not supported yet)")
                facing = sides_at(s, nb, other)[(side + edges // 2) % edges]
                colours = mine[side]
                if len(colours) > len(facing):
                    raise lud.fail("(is SidesMatch) met a side with more slots than the side "
                                   "facing it: Ludii stops there (not supported yet)")
                if any(colours[i] != facing[len(facing) - 1 - i] for i in range(len(colours))):
                    return False
            return True
        return sides_match


def path_walk(env, lud):
    """(c, start, colour) -> an iterator over Ludii's walk along a colour's paths from the
    tile at `start` (IsLoop's evalTilePath, PathExtent): (tile, the tile it was reached
    from, neighbour) for each side a path of the colour ends on, of every tile reached, in
    Ludii's order; a neighbour holding a tile (other than the one the tile was reached
    from) is reached in its turn. Ludii keeps no record of the tiles walked: a closed path
    is walked round again, as Ludii does, until a bound stops it here."""
    cell_board(env, lud)
    tiles = tile_table(env)
    edges = num_edges(env, lud)
    board = env.board
    steps = [board.step[d] for d in side_directions(env, lud)]
    n = env.num_board_sites
    limit = 4 * n + 64

    def walk(c, start, colour):
        s = c.s
        what, rotation = s.what, s.piece_rotation
        reached, origins = [start], [start]
        i = 0
        while i < len(reached):
            site, origin = reached[i], origins[i]
            info = tiles.get(what[site]) if 0 <= site < n else None
            if info is None or info.paths is None:
                raise lud.fail(f"({called(lud)} ...) "
                               "walked from a site without a tile with paths: Ludii stops "
                               "there (not supported yet)")
            turn = (rotation(site) * 2) // edges     # Ludii's formula here
            for s1, _t1, s2, _t2, col in info.paths:
                if col != colour:
                    continue
                for side in (s1, s2):
                    nb = steps[(side + turn) % edges][site]
                    if nb < 0:
                        continue
                    yield site, origin, nb
                    if origin != nb and what[nb] in tiles:
                        reached.append(nb)
                        origins.append(site)
            i += 1
            if len(reached) > limit:
                raise lud.fail(f"({called(lud)} ...) "
                               "walks round a closed path without end, as Ludii does (not "
                               "supported yet)")
    return walk


@ludeme("pathExtent")
class PathExtent(IntFn):
    """`(pathExtent [<colour>] [<start> | <region>])`: how far the paths of the colour (the
    mover's by default) reach from a tile, in rows or columns: from each start (every
    board site the last move went to by default, (sites LastTo)), the largest difference
    of row or column between the start and a site a path of its walk ends on (Ludii's
    PathExtent; a start without a tile ends the count there). Example (Trax):

        (if (<= 8 (pathExtent (mover))) (result Mover Win))
    """
    concepts = ("PathExtent",)

    params = (P("colour", IntFn, opt=True), P("start", IntFn, opt=True),
              P("regionStart", Region, opt=True))

    def validate(self):
        if self.start is not None and self.regionStart is not None:
            raise self.fail("(pathExtent ...) takes a start or a region to start from, "
                            "not both")

    def compile(self, env):
        colour = env.compile(self.colour) if self.colour is not None else (lambda c: c.s.mover)
        if self.start is not None:
            one = env.compile(self.start)
            starts = lambda c: (one(c),)  # noqa: E731
        elif self.regionStart is not None:
            starts = env.compile(self.regionStart)
        else:
            starts = last_tos(env)
        walk = path_walk(env, self)
        tiles = tile_table(env)
        sites = env.board.sites
        n = env.num_board_sites
        lud = self

        def extent(c):
            best = 0
            what = c.s.what
            for start in starts(c):
                if start < 0:
                    return best
                if start >= n:
                    raise lud.fail("(pathExtent ...) from a site off the board is not "
                                   "supported yet")
                if what[start] not in tiles:
                    return best
                row, col = sites[start].row, sites[start].col
                for _site, _origin, nb in walk(c, start, colour(c)):
                    best = max(best, abs(sites[nb].row - row), abs(sites[nb].col - col))
            return best
        return extent


__all__ = ["Path", "PathExtent", "IsSidesMatch", "Rotations", "TileInfo", "path_walk",
           "tile_table"]
