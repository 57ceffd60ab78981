"""Semi-regular tilings (Ludii's generators/basis/tiling package): `(tiling T3464 2)`,
`(tiling T3636 5)`, `(tiling T488 3)`.

Each tiling places a motif of points around the centres of a hexagon of motifs, fuses
points closer than 0.1, joins points one unit apart and finds the cells, as Ludii's
createGraphFromVertexList does, then numbers bottom row first.
"""

from __future__ import annotations

import math

from ludeme.model.ludemes.base import Enum, GraphFn, P, ludeme
from .base import INT, size
from .generators import side_lengths
from .operators import cut_by_polygon
from ludeme.boards.geometry import PlanarGraph, graph_from_points
from ludeme.boards.polygon import inflate, lattice_inside, outline_from_sides, sides_outline

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True

TILINGS = "T31212 T333333_33434 T33336 T33344 T33434 T3464 T3636 T4612 T488"

SQRT3 = math.sqrt(3)


def _motif_3464() -> tuple[tuple[float, float], ...]:
    """A hexagon of unit sides and the 12 points of the squares and triangles around it."""
    uy = SQRT3 / 2
    hexagon = ((-0.5, uy), (0.5, uy), (1.0, 0.0), (0.5, -uy), (-0.5, -uy), (-1.0, 0.0))
    h = (1 + SQRT3 / 2) / math.cos(math.radians(15))
    ring = tuple((h * math.cos(math.radians(15 + n * 30)), h * math.sin(math.radians(15 + n * 30)))
                 for n in range(12))
    return hexagon + ring


MOTIF_3464 = _motif_3464()
# The 14 points of Ludii's Tiling33434.ref: a square's corners and the triangles around it,
# in (u2, u3) = (1/2, sqrt(3)/2) steps.
_U2, _U3 = 0.5, SQRT3 / 2
MOTIF_33434 = tuple((a * _U2 + b * _U3, c * _U2 + d * _U3) for a, b, c, d in (
    (-1, 0, -1, -1), (1, 0, -1, -1), (-1, -1, 0, -1), (1, 1, 0, -1), (0, 0, -1, 0),
    (-2, -1, 0, 0), (0, -1, 0, 0), (0, 1, 0, 0), (2, 1, 0, 0), (0, 0, 1, 0),
    (-1, -1, 0, 1), (1, 1, 0, 1), (-1, 0, 1, 1), (1, 0, 1, 1)))
# A pointy-top hexagon of unit sides (Ludii's Tiling3636.ref read as (y, x)).
MOTIF_3636 = tuple((x, y) for y, x in ((0.0, 1.0), (SQRT3 / 2, 0.5), (SQRT3 / 2, -0.5),
                                       (0.0, -1.0), (-SQRT3 / 2, -0.5), (-SQRT3 / 2, 0.5)))


# Ludii's Tiling333333_33434.ref: the motif of T3464 (a hexagon and the 12 points around it)
MOTIF_333333_33434 = MOTIF_3464
# A unit square from its lower left corner, anticlockwise (Ludii's Tiling33344.ref, read (y, x)).
MOTIF_33344 = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
# A hexagon of unit sides and the 12 points of the triangles around it (Tiling33336.ref).
MOTIF_33336 = tuple((a * 0.5, b * (SQRT3 / 2)) for a, b in (
    (-1, 1), (1, 1), (2, 0), (1, -1), (-1, -1), (-2, 0), (-2, 2), (0, 2), (2, 2), (3, 1),
    (4, 0), (3, -1), (2, -2), (0, -2), (-2, -2), (-3, -1), (-4, 0), (-3, 1)))
# An octagon of unit sides, from the top right corner clockwise (Tiling488.ref).
_U, _V = 1.0, 1.0 + 2 / math.sqrt(2)
MOTIF_488 = ((_U / 2, _V / 2), (_V / 2, _U / 2), (_V / 2, -_U / 2), (_U / 2, -_V / 2),
             (-_U / 2, -_V / 2), (-_V / 2, -_U / 2), (-_V / 2, _U / 2), (-_U / 2, _V / 2))


def _dodecagon() -> tuple[tuple[float, float], ...]:
    """The corners of a dodecagon of unit sides, from 15 degrees anticlockwise (the ref of
    Ludii's Tiling4612 and Tiling31212)."""
    r = 1 / math.sqrt(2 - SQRT3)
    return tuple((r * math.cos(math.pi / 12 + s / 12.0 * 2 * math.pi),
                  r * math.sin(math.pi / 12 + s / 12.0 * 2 * math.pi)) for s in range(12))


MOTIF_DODECAGON = _dodecagon()


def motif_graph(centres, motif) -> PlanarGraph:
    """The points of `motif` around each centre (fused within 0.1, in creation order),
    joined one unit apart, numbered bottom row first."""
    points: list[tuple[float, float]] = []
    for cx, cy in centres:
        for dx, dy in motif:
            x, y = cx + dx, cy + dy
            if all(math.hypot(px - x, py - y) >= 0.1 for px, py in points):
                points.append((x, y))
    g = graph_from_points(points)
    g.reorder()
    return g


def hexagon_cells(rows: int, cols: int):
    """(row, col) of a hexagon of rows x cols motifs on skewed axes."""
    return [(r, c) for r in range(rows) for c in range(cols)
            if not (c > cols // 2 + r or r - c > cols // 2)]


# Tilings Ludii builds only as a hexagon of motifs `a` a side: where the motif (row, col) is
# centred, and the motif (Ludii's Tiling31212, Tiling4612 and Tiling33336 and
# Tiling333333_33434 .xy and .ref; the first two use Ludii's rounded 2 + sqrt 3 and 3 + sqrt 3).
_UY = SQRT3 / 2
_DX31212, _DX4612 = 3.7320508, 4.7320508
HEXAGONS_OF_MOTIFS = {
    "T31212": (lambda r, c: ((c - 0.5 * r) * _DX31212, r * (_DX31212 * SQRT3 / 2)),
               MOTIF_DODECAGON),
    "T4612": (lambda r, c: ((c - 0.5 * r) * _DX4612, r * (_DX4612 * SQRT3 / 2)),
              MOTIF_DODECAGON),
    "T33336": (lambda r, c: (c * 5 * 0.5 - r * 4 * 0.5, r * 2 * _UY + c * _UY), MOTIF_33336),
    "T333333_33434": (lambda r, c: ((1.5 + SQRT3) * (c - r), (2 + SQRT3) * (r + c) * 0.5),
                      MOTIF_333333_33434),
}


@ludeme("tiling")
class Tiling(GraphFn):
    """A semi-regular tiling in a hexagon of `a` motifs a side: T3464 (hexagons, squares
    and triangles; with `b`, a parallelogram of a rows of b motifs), T3636 (hexagons and
    triangles; with `b`, a rhombus a x b), T333333_33434 (hexagons ringed by squares and
    triangles), T33336 (hexagons ringed by triangles), T31212 (dodecagons and triangles),
    T4612 (dodecagons, hexagons and squares); T33434 (squares and pairs of triangles) in a
    diamond of a x a motifs; T33344 (rows of squares between rows of triangles), a rows of
    b squares (a with one size); T488 (octagons and squares), a rows of b octagons.
    Where Ludii builds only one shape (T333333_33434, T33336, T31212, T4612, T33434) the
    `b` changes nothing (Tiling.construct passes only `a`).

    Example: `(board (tiling T3464 2) use:Vertex)` is Kensington's 72 points;
    `(board (tiling T488 3))` is 9 octagons and the 4 squares between them.
    """

    params = (P("tiling", Enum("TilingType", TILINGS)), P("a", INT), P("b", INT, opt=True))

    def build(self, site_type: str) -> PlanarGraph:
        return tiling_graph(self.tiling, size(self, "a", 1), size(self, "b", 1))


def tiling_graph(tiling: str, a: int, b: int | None) -> PlanarGraph:
    """Ludii's board of the tiling `a` (by `b`) motifs, as Tiling.construct chooses it."""
    rows = 2 * a - 1
    if tiling in HEXAGONS_OF_MOTIFS:
        g = motif_graph([HEXAGONS_OF_MOTIFS[tiling][0](r, c) for r, c in hexagon_cells(rows, rows)],
                        HEXAGONS_OF_MOTIFS[tiling][1])
        g.basis, g.shape = tiling, "Hexagon"
        return g
    if tiling == "T33344":                          # Ludii's Tiling33344
        g = motif_graph([xy_33344(r, c) for r in range(a) for c in range(a if b is None else b)],
                        MOTIF_33344)
        g.basis, g.shape = "T33344", "Rhombus"
        return g
    if tiling == "T488":                            # Ludii's SquareOrRectangleOn488
        g = motif_graph([xy_488(r, c) for r in range(a) for c in range(a if b is None else b)],
                        MOTIF_488)
        # Ludii compares the two sizes as objects: Square only when one was written
        g.basis, g.shape = "T488", "Square" if b is None else "Rectangle"
        return g
    if tiling == "T33434":
        h = (1 + SQRT3) / 2                          # Ludii's Tiling33434.xy
        g = motif_graph([(h * (c - r), h * (r + c)) for r in range(a) for c in range(a)],
                        MOTIF_33434)
        g.basis, g.shape = "T33434", "Diamond"
        return g
    if tiling == "T3464":
        hx, hy = 1 + SQRT3, (3 + SQRT3) / 2          # Ludii's HexagonOn3464.xy
        # with b, Ludii's ParallelogramOn3464: a rows of b motifs on the same axes
        cells = hexagon_cells(rows, rows) if b is None else \
            [(r, c) for r in range(a) for c in range(b)]
        g = motif_graph([(hy * (c - r), hx * (r + c) * 0.5) for r, c in cells], MOTIF_3464)
        g.basis, g.shape = "T3464", "Hexagon" if b is None else "Quadrilateral"
        return g
    cols = 2 * (a if b is None else b) - 1
    cells = hexagon_cells(rows, cols) if b is None else \
        [(r, c) for r in range(rows) for c in range(cols)]
    g = motif_graph([xy_3636(r, c) for r, c in cells], MOTIF_3636)
    g.basis, g.shape = "T3636", "Hexagon" if b is None else "Rhombus"
    return g


def xy_33344(r: int, c: int) -> tuple[float, float]:
    return (c + 0.5 * r, r * (1 + SQRT3 / 2))


def xy_488(r: int, c: int) -> tuple[float, float]:
    return (c * _V, r * _V)


def xy_3636(r: int, c: int) -> tuple[float, float]:
    return (2 * (c - 0.5 * r), SQRT3 * r)


def xy_custom_3464(r: int, c: int) -> tuple[float, float]:
    return ((1 + SQRT3) * (c - 0.5 * r), (3 + SQRT3) / 2 * r)


# Ludii's CustomOn* classes: where motif (row, col) is centred, the motif (CustomOn3464 reads
# its motif as (y, x), turning it a quarter), whether side lengths walk the six-sided
# lattice (else CustomOn488's four unit steps, (row, col) up, right, down, left)
CUSTOM = {
    "T3636": (xy_3636, MOTIF_3636, True),
    "T3464": (xy_custom_3464, tuple((y, x) for x, y in MOTIF_3464), True),
    "T33344": (xy_33344, MOTIF_33344, True),
    "T488": (xy_488, MOTIF_488, False),
}
# Tilings Ludii builds at a fixed size whatever the polygon or sides (Tiling.construct).
FIXED = {"T333333_33434": 2, "T4612": 3, "T31212": 3, "T33336": 3}
STEPS_488 = ((0, 1), (1, 0), (0, -1), (-1, 0))


def custom_tiling(lud, poly, sides) -> PlanarGraph:
    """Ludii's board of a tiling given a polygon or side lengths (Tiling.construct's second
    form): the motifs centred inside the outline inflated by 0.1, searched over its bounds
    widened by 2; the tilings Ludii builds in one shape only at their fixed size (T33434
    of 5 kept inside the polygon, else of 3), whatever the outline."""
    tiling = lud.tiling
    if poly is not None:
        poly.outline()      # a polygon Ludii then ignores must still be one
    if tiling in FIXED:
        return tiling_graph(tiling, FIXED[tiling], None)
    if tiling == "T33434":
        whole = tiling_graph(tiling, 5 if poly is not None else 3, None)
        if poly is None:
            return whole
        g = cut_by_polygon(whole, poly, inside=True)
        g.basis, g.shape = whole.basis, None
        return g
    xy, motif, six = CUSTOM[tiling]
    if poly is not None:
        outline = poly.outline()
    elif six:
        outline = sides_outline(sides, xy)
    else:
        outline = outline_from_sides(sides, STEPS_488)
    g = motif_graph(lattice_inside(inflate(outline, 0.1), xy, margin=2), motif)
    limping = sides is not None and six and len(sides) == 2 and sides[0] == sides[1] - 1
    g.basis = "Hexagonal" if tiling == "T3636" else tiling      # as CustomOn3636 names it
    g.shape = "Limping" if limping else "Custom"
    return g


@ludeme("tiling")
class TilingPoly(GraphFn):
    """A semi-regular tiling's motifs centred inside a polygon:
    `(tiling T488 (poly {{0 0} {0 8} {8 8} {8 0}}))`. T333333_33434, T4612, T31212 and
    T33336 are built at Ludii's fixed size whatever the polygon; T33434 as a diamond of 5
    cut to the polygon.

    Example: `(board (tiling T3636 (poly {{0 0} {0 4} {6 4} {6 0}})))`.
    """

    params = (P("tiling", Enum("TilingType", TILINGS)), P("poly", "Poly"))

    def build(self, site_type: str) -> PlanarGraph:
        return custom_tiling(self, self.poly, None)


@ludeme("tiling")
class TilingSides(GraphFn):
    """A semi-regular tiling's motifs inside an outline walked from its side lengths, in
    motifs, as Ludii's CustomOn* classes walk it: `(tiling T3636 {3 4 3 4 3})`.
    T333333_33434, T4612, T31212, T33336 and T33434 are built at Ludii's fixed size
    whatever the sides.

    Example: `(board (tiling T3636 {2 3}))` is a limping hexagon of sides 2 and 3.
    """

    params = (P("tiling", Enum("TilingType", TILINGS)), P("sides", INT, many=True))

    def build(self, site_type: str) -> PlanarGraph:
        return custom_tiling(self, None, side_lengths(self))
