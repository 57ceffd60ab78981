"""Board shapes with no basis (Ludii's generators/shape package): repeat, regular, spiral.

Each class builds the same vertices, in the same order, as the Ludii generator of the
same name, so faces and numbers come out the same.
"""

from __future__ import annotations

import math

from ludeme.model.ludemes.base import Enum, GraphFn, LitBool, P, ludeme
from .base import INT, Points, argument_node, size
from .generators import regular_polygon
from ludeme.boards.geometry import CELL, PlanarGraph, f32
from ludeme.errors import LudemeError

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True


@ludeme("repeat")
class Repeat(GraphFn):
    """Polygons drawn again and again on a rows x columns lattice: the outline of each
    polygon at `col * step[0] + row * step[1]`, coincident points fused.

    Example: `(board (repeat 2 3 step:{{1 0} {0 1}} (poly {{0 0} {1 0} {1 1} {0 1}})))`
    is a 2 x 3 grid of 6 squares.
    """

    params = (P("rows", INT), P("columns", INT),
              P("step", Points, named=True),
              P("polys", "Poly", many=True))

    def validate(self):
        if self.step is None or len(self.step) != 2:
            node = argument_node(self, "step")
            raise LudemeError("(repeat ...) needs step:{{dx dy} {dx dy}}: a column's step, "
                              "then a row's", node.pos, path=self.path, via=node.via)

    def build(self, site_type: str) -> PlanarGraph:
        rows, columns = size(self, "rows", 0), size(self, "columns", 0)
        (cx, cy, *_), (rx, ry, *_) = [(f32(p[0]), f32(p[1])) for p in self.step]
        outlines = [poly.outline() for poly in self.polys]
        g = PlanarGraph()
        for row in range(rows):
            for col in range(columns):
                x0, y0 = col * cx + row * rx, col * cy + row * ry
                for outline in outlines:
                    for n, (ax, ay) in enumerate(outline):
                        bx, by = outline[(n + 1) % len(outline)]
                        a = g.find_or_add_vertex(x0 + ax, y0 + ay)
                        b = g.find_or_add_vertex(x0 + bx, y0 + by)
                        g.find_or_add_edge(a, b)
        g.make_faces(False)
        g.reorder()
        return g


@ludeme("regular")
class Regular(GraphFn):
    """A regular polygon of `sides` points on a circle, or a star joining each point to
    the one (sides - 1) / 2 further round.

    Example: `(board (regular 6))` is one hexagonal cell; `(board (regular Star 5)
    use:Vertex)` is a pentagram's 5 points.
    """

    params = (P("star", Enum("ShapeStarType", "Star"), opt=True), P("sides", INT))

    def build(self, site_type: str) -> PlanarGraph:
        n = size(self, "sides", 0)
        g = regular_polygon(n, (n - 1) // 2 if self.star else 1)
        if site_type == CELL:
            g.make_faces(True)
        g.reorder()
        g.basis, g.shape = None, "Star" if self.star else "Polygon"
        return g


@ludeme("spiral")
class Spiral(GraphFn):
    """A path of points winding out from a centre point along an Archimedean spiral,
    numbered from the centre (Ludii's Spiral: the points are spaced so that each turn has
    twice, then four times, the points of the first).

    Example: `(board (spiral turns:5 sites:86) use:Vertex)` is Ishighan's 86 points.
    """

    params = (P("turns", INT, named=True), P("sites", INT, named=True),
              P("clockwise", LitBool, opt=True, named=True, default=True))

    def build(self, site_type: str) -> PlanarGraph:
        turns, sites = size(self, "turns", 1), size(self, "sites", 1)
        if sites > 1000:
            raise self.fail(f"{sites} sites in a spiral is over Ludii's limit of 1000")
        steps = spiral_base(turns, sites)
        if steps == 0:      # Ludii divides a turn by no points and piles them up
            raise self.fail(f"(spiral turns:{turns} sites:{sites}) has no number of points "
                            "on its first turn that its turns, doubling twice, can hold")
        thetas = [0.0] * (4 * sites)
        index = 1
        for ring in range(1, turns + 2):
            d_theta = math.pi * 2 / steps
            theta = math.pi * 2 * ring
            if ring <= 2 or ring % 2 == 1:
                theta -= d_theta / 2       # so that lines do not coincide between rings
            for _ in range(steps):
                if index >= len(thetas):
                    raise self.fail(f"(spiral turns:{turns} sites:{sites}) has more points "
                                    "on its turns than Ludii can place")
                thetas[index] = theta
                index += 1
                theta += d_theta
            if ring <= 2:
                steps *= 2
        for _ in range(2):                 # Ludii smooths the angles twice
            for vid in range(2, sites):
                thetas[vid] = (thetas[vid - 1] + thetas[vid + 1]) / 2.0
        thetas[1] -= 0.5 * (thetas[2] - thetas[1])
        g = PlanarGraph()
        g.add_vertex(0.0, 0.0)
        for vid in range(1, sites):
            theta = thetas[vid]
            x = theta * math.cos(theta)
            g.add_vertex(-x if self.clockwise else x, theta * math.sin(theta))
        for vid in range(len(g.vertices) - 1):
            g.add_edge(g.vertices[vid], g.vertices[vid + 1])
        g.basis, g.shape = "Spiral", "Spiral"
        return g


def spiral_base(turns: int, sites: int) -> int:
    """Points on a spiral's first turn (Ludii's Spiral.baseNumber): one less than the
    first count whose turns, doubling twice, pass `sites`; 0 when none does."""
    for base in range(1, sites):
        steps, total = base, 1
        for ring in range(1, turns):
            total += steps
            if total > sites:
                return base - 1
            if ring <= 2:
                steps *= 2
    return 0
