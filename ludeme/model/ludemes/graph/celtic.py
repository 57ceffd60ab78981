"""Boards after Celtic knotwork (Ludii's generators/basis/celtic package): `(celtic 3)`,
`(celtic 3 4)`, `(celtic (poly {...}))`, `(celtic {4 3 -1 2 3})`.

A grid of diamonds, their corners shared, joined one unit apart; then the outline is
rounded off as Ludii does it: a point out beyond each convex corner and every other flat
step (a triangle cell there), or a chord across a double step.
"""

from __future__ import annotations

import math

from ludeme.model.ludemes.base import GraphFn, P, ludeme
from .base import INT, size
from .generators import join_at_distance, side_lengths
from ludeme.boards.geometry import PlanarGraph
from ludeme.boards.measure import measure_perimeter
from ludeme.boards.polygon import contains, inflate, outline_from_sides

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True

UU = 1 / math.sqrt(2)
UU2 = 2 * UU
# Ludii's Celtic steps, a diamond's width right, up, left, down, written as the (row,
# column) steps outline_from_sides reads (Ludii's Polygon.fromSides reads real steps as
# (x, y), whole ones as (row, column)).
CELTIC_STEPS = ((0.0, UU2), (UU2, 0.0), (0.0, -UU2), (-UU2, 0.0))


def angle_difference(a, b, c) -> float:
    """How far the walk a -> b -> c turns at b, anticlockwise positive (Ludii's
    MathRoutines.angleDifference)."""
    vx, vy = b.x - a.x, b.y - a.y
    ux, uy = c.x - b.x, c.y - b.y
    return math.atan2(ux * -vy + uy * vx, ux * vx + uy * vy)


def celtic(lud, rows: int, cols: int, outline) -> PlanarGraph:
    """Diamonds at the lattice points (a diamond's width apart) of rows x cols, or of the
    outline inflated by 0.1 (its bounds, widened by 1, taken as lattice indices as Ludii
    does), then the rounded outline."""
    if outline is None:
        from_row = from_col = 0
        to_row, to_col = rows - 1, cols - 1
    else:
        outline = inflate(outline, 0.1)
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        from_col, from_row = int(min(xs)) - 1, int(min(ys)) - 1
        to_col, to_row = int(max(xs)) + 1, int(max(ys)) + 1
    g = PlanarGraph()
    for row in range(from_row, to_row + 1):
        for col in range(from_col, to_col + 1):
            x, y = col * UU2, row * UU2
            if outline is not None and not contains(outline, x, y):
                continue
            for dx, dy in ((UU, 0.0), (0.0, UU), (-UU, 0.0), (0.0, -UU)):
                g.find_or_add_vertex(x + dx, y + dy)
    if not g.vertices:
        # Ludii fails here too: it rounds off the outline of an empty board
        raise lud.fail(f"({lud.keyword} ...) holds no diamond")
    join_at_distance(g, 1.0)
    g.make_faces(True)
    rim = measure_perimeter(g)[0].elements
    num = len(rim)

    def around(n: int, k: int):
        return rim[(n + k) % num]

    keys, flat_run = [], 0
    for n in range(num):
        diff = angle_difference(around(n, -1), around(n, 0), around(n, 1))
        if diff > 0.25 * math.pi:                   # a convex corner
            keys.append(n)
            flat_run = 0
        elif abs(diff) < 0.1 * math.pi:             # every other flat step
            flat_run += 1
            if flat_run % 2 == 0:
                keys.append(n)
    for n in keys:
        vb, vc, vd, ve = (around(n, k) for k in (-1, 0, 1, 2))
        if angle_difference(vc, vd, ve) < -0.25 * math.pi:
            g.add_edge(vc, ve)                      # a double step: a chord across it
            g.add_face([vd, vc, ve])
            continue
        if abs(angle_difference(vb, vc, vd)) < 0.1 * math.pi:
            tx, ty = vd.y - vc.y, vc.x - vd.x       # a flat step: out at right angles
        else:
            tx, ty = vc.x - vb.x, vc.y - vb.y       # a corner: on along the side before
        mx, my = (vc.x + vd.x) / 2, (vc.y + vd.y) / 2
        vx = g.add_vertex(mx + 0.9 * tx, my + 0.9 * ty)
        g.add_edge(vc, vx)
        g.add_edge(vx, vd)
        g.add_face([vc, vx, vd])
    g.basis = "Celtic"
    g.reorder()
    return g


@ludeme("celtic")
class Celtic(GraphFn):
    """A Celtic knotwork board of rows x columns diamonds (columns = rows when not given),
    its outline rounded off by triangles, for path games.

    Example: `(board (celtic 3) use:Vertex)`.
    """

    params = (P("rows", INT), P("columns", INT, opt=True))

    def build(self, site_type: str) -> PlanarGraph:
        rows = size(self, "rows", 1)
        cols = size(self, "columns", 1)
        g = celtic(self, rows, rows if cols is None else cols, None)
        # Ludii compares the two sizes as objects: Square only when one was written
        g.shape = "Square" if cols is None else "Rectangle"
        return g


@ludeme("celtic")
class CelticPoly(GraphFn):
    """A Celtic knotwork board of the diamonds whose centres are inside a polygon:
    `(celtic (poly {{1 2} {1 6} {3 6} {3 4} {4 4} {4 2}}))`.

    Example: `(board (celtic (poly {{0 0} {0 3} {3 3} {3 0}})))`.
    """

    params = (P("poly", "Poly"),)

    def build(self, site_type: str) -> PlanarGraph:
        return celtic(self, 0, 0, self.poly.outline())


@ludeme("celtic")
class CelticSides(GraphFn):
    """A Celtic knotwork board inside an outline walked from its side lengths, in diamond
    widths, right along the first and turning left at each corner (right for a negative
    length): `(celtic {4 3 -1 2 3})`. Walked that way round, the outline is shrunk, not
    grown, by Ludii's inflation, so the diamonds on it are left out.

    Example: `(board (celtic {2 3 2 3}))` is 2 diamonds, one above the other: those
    strictly inside a rectangle 2 widths by 3.
    """

    params = (P("sides", INT, many=True),)

    def build(self, site_type: str) -> PlanarGraph:
        return celtic(self, 0, 0, outline_from_sides(side_lengths(self), CELTIC_STEPS))
