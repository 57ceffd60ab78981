"""A hexagon tiled by quadrilaterals (Ludii's generators/basis/quadhex package), the board of
three-player chess: `(quadhex 4)`, `(quadhex 4 thirds:True)`."""

from __future__ import annotations

import math

from ludeme.model.ludemes.base import GraphFn, LitBool, P, ludeme
from .base import INT, size
from ludeme.boards.geometry import PlanarGraph

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True


def lerp(t: float, a, b) -> tuple[float, float]:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def rotated(theta: float, p) -> tuple[float, float]:
    """`p` turned counterclockwise by `theta` about the origin."""
    c, s = math.cos(theta), math.sin(theta)
    return (p[0] * c - p[1] * s, p[1] * c + p[0] * s)


def six_sections(g: PlanarGraph, layers: int) -> None:
    """Six kites about the centre, each a layers x layers grid of quadrilaterals between the
    centre A, the corner C of the hexagon and the middles B and D of the sides beside it."""
    h = layers * math.sqrt(3) / 2
    a, b, c, e = (0.0, 0.0), (0.0, h), (layers / 2.0, h), (float(layers), 0.0)
    d = ((c[0] + e[0]) / 2, (c[1] + e[1]) / 2)
    for rotn in range(6):
        theta = rotn * math.pi / 3
        for row in range(layers):
            r0, r1 = row / layers, (row + 1) / layers
            ad0, ad1 = rotated(theta, lerp(r0, a, d)), rotated(theta, lerp(r1, a, d))
            bc0, bc1 = rotated(theta, lerp(r0, b, c)), rotated(theta, lerp(r1, b, c))
            for col in range(layers):
                c0, c1 = col / layers, (col + 1) / layers
                va = g.find_or_add_vertex(*lerp(c0, ad0, bc0))
                vb = g.find_or_add_vertex(*lerp(c1, ad0, bc0))
                vc = g.find_or_add_vertex(*lerp(c1, ad1, bc1))
                g.find_or_add_edge(va, vb)
                g.find_or_add_edge(vb, vc)
                if row == layers - 1:
                    g.find_or_add_edge(vc, g.find_or_add_vertex(*lerp(c0, ad1, bc1)))


def three_sections(g: PlanarGraph, layers: int) -> None:
    """Three sections, each two mirrored grids of quadrilaterals under one side pair of the
    hexagon, copied at 120 degree turns, their corners joined and a triangle in the middle."""
    h = layers * math.sqrt(3) / 2
    o, a, c, e = (0.0, 0.0), (-layers / 2.0, -h), (-float(layers), 0.0), (0.0, -h)
    ratio = layers / (layers + 0.5)
    f, gg = lerp(ratio, e, o), lerp(ratio / 2, a, c)
    section = PlanarGraph()
    for row in range(layers):
        r0, r1 = row / layers, (row + 1) / layers
        ae0, ae1 = lerp(r0, a, e), lerp(r1, a, e)
        gf0, gf1 = lerp(r0, gg, f), lerp(r1, gg, f)
        for col in range(layers):
            c0, c1 = col / layers, (col + 1) / layers
            quad = (lerp(c0, ae0, gf0), lerp(c1, ae0, gf0), lerp(c0, ae1, gf1),
                    lerp(c1, ae1, gf1))
            for mirror in (1, -1):
                va, vb, vc, vd = (section.find_or_add_vertex(mirror * x, y) for x, y in quad)
                section.find_or_add_edge(va, vb)
                section.find_or_add_edge(vc, vd)
                section.find_or_add_edge(va, vc)
                section.find_or_add_edge(vb, vd)
    per = len(section.vertices)
    saved = []
    for rotn in range(3):
        for v in section.vertices:
            g.add_vertex(v.x, v.y)
        for e_ in section.edges:
            g.add_edge(g.vertices[e_.a.id + rotn * per], g.vertices[e_.b.id + rotn * per])
        for v in section.vertices:
            v.x, v.y = rotated(2 * math.pi / 3, (v.x, v.y))
        base = rotn * per
        saved.append([g.vertices[base + 4 * layers], g.vertices[base + 4 * layers + 2],
                      g.vertices[base + layers * (2 * layers + 3)]])
    for n in range(3):                      # the triangle in the middle
        g.find_or_add_edge(saved[n][2], saved[(n + 1) % 3][2])
    for n in range(3):                      # each section's corner to the next one's
        g.find_or_add_edge(saved[n][1], saved[(n + 1) % 3][0])


@ludeme("quadhex")
class Quadhex(GraphFn):
    """A hexagon of quadrilaterals, `layers` rings of them about the centre, so 2 x layers
    cells a side: `(quadhex 4)` is the three-player chess board of 96 cells;
    `thirds:True` splits it into three sections of two mirrored grids instead of six.

    Example: `(board (quadhex 2))` has 24 cells.
    """

    params = (P("layers", INT), P("thirds", LitBool, opt=True, named=True, default=False))

    def build(self, site_type: str) -> PlanarGraph:
        layers = size(self, "layers", 1)
        if self.thirds and layers < 2:
            # Ludii's three sections look for corners a one-layer section does not have
            raise self.fail("(quadhex ... thirds:True) needs at least 2 layers")
        g = PlanarGraph()
        (three_sections if self.thirds else six_sections)(g, layers)
        g.make_faces(True)
        g.basis, g.shape = "QuadHex", "Hexagon"
        g.reorder()
        return g
