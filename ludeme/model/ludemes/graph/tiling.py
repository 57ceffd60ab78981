"""Semi-regular tilings (Ludii's generators/basis/tiling package): `(tiling T3464 2)`,
`(tiling T3636 5)`.

Each tiling places a motif of points around the centres of a hexagon of motifs, fuses
points closer than 0.1, joins points one unit apart and finds the cells, as Ludii's
createGraphFromVertexList does, then numbers bottom row first.
"""

from __future__ import annotations

import math

from ludeme.model.ludemes.base import Enum, GraphFn, P, ludeme
from .base import INT, size
from ludeme.boards.geometry import PlanarGraph, graph_from_points

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


@ludeme("tiling")
class Tiling(GraphFn):
    """A semi-regular tiling in a hexagon of `a` motifs a side: T3464 (hexagons, squares
    and triangles; with `b`, a parallelogram of a rows of b motifs), T3636 (hexagons and
    triangles; with `b`, a rhombus a x b); T33434
    (squares and pairs of triangles) in a diamond of a x a motifs, the only shape Ludii
    builds: its `b` changes nothing there (Tiling.construct passes only `a`).

    Example: `(board (tiling T3464 2) use:Vertex)` is Kensington's 72 points.
    """

    params = (P("tiling", Enum("TilingType", TILINGS)), P("a", INT), P("b", INT, opt=True))

    def validate(self):
        if self.tiling not in ("T3464", "T3636", "T33434"):
            raise self.fail(f"(tiling {self.tiling} ...) is not supported yet")

    def build(self, site_type: str) -> PlanarGraph:
        a = size(self, "a", 1)
        b = size(self, "b", 1)
        rows = 2 * a - 1
        if self.tiling == "T33434":
            h = (1 + SQRT3) / 2                          # Ludii's Tiling33434.xy
            g = motif_graph([(h * (c - r), h * (r + c)) for r in range(a) for c in range(a)],
                            MOTIF_33434)
            g.basis, g.shape = "T33434", "Diamond"
            return g
        if self.tiling == "T3464":
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
        g = motif_graph([(2 * (c - 0.5 * r), SQRT3 * r) for r, c in cells], MOTIF_3636)
        g.basis, g.shape = "T3636", "Hexagon" if b is None else "Rhombus"
        return g
