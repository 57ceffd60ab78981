"""Boards of 1 x 2 bricks (Ludii's generators/basis/brick package): `(brick 4)`,
`(brick Diamond 3 trim:True)`, `(brick Spiral 3)`.

Each brick is a cell of six corners: its long sides have a middle point, where the bricks of
the rows above and below meet it. The cells are Ludii's own, made brick by brick (no search
for faces), then numbered bottom row first.
"""

from __future__ import annotations

from ludeme.model.ludemes.base import Enum, GraphFn, LitBool, P, ludeme
from .base import INT, size
from ludeme.boards.geometry import PlanarGraph

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True


def _cell(g: PlanarGraph, corners) -> None:
    """The cell with these (x, y) corners, clockwise, with its sides (Ludii's findOrAdd...)."""
    vs = [g.find_or_add_vertex(float(x), float(y)) for x, y in corners]
    for a, b in zip(vs, vs[1:] + vs[:1]):
        g.find_or_add_edge(a, b)
    g.add_face(vs)


def brick(g: PlanarGraph, row: int, col: int) -> None:
    """A horizontal brick, two units wide, its lower left corner at (col, row)."""
    _cell(g, ((col, row), (col, row + 1), (col + 1, row + 1), (col + 2, row + 1),
              (col + 2, row), (col + 1, row)))


def half_brick(g: PlanarGraph, row: int, col: int) -> None:
    """A unit square, its lower left corner at (col, row)."""
    _cell(g, ((col, row), (col, row + 1), (col + 1, row + 1), (col + 1, row)))


def vertical_brick(g: PlanarGraph, row: int, col: int) -> None:
    """An upright brick, two units high, its lower left corner at (col, row)."""
    _cell(g, ((col, row), (col, row + 1), (col, row + 2), (col + 1, row + 2),
              (col + 1, row + 1), (col + 1, row)))


def _lay(g: PlanarGraph, row: int, col: int, cols: int, trim: bool) -> None:
    """A brick, or a square where trimming cuts a brick that sticks out at either end."""
    if trim and col == 0:
        half_brick(g, row, col + 1)
    elif trim and col >= cols - 1:
        half_brick(g, row, col)
    else:
        brick(g, row, col)


def rectangle_on_brick(rows: int, cols: int, trim: bool) -> PlanarGraph:
    """`rows` courses of `cols` bricks, every other course shifted by half a brick."""
    g = PlanarGraph()
    width = 2 * cols + 1
    for r in range(rows):
        for c in range(r % 2, width, 2):
            _lay(g, r, c, width, trim)
    return g


def diamond_on_brick(side: int, mid: int, trim: bool) -> PlanarGraph:
    """A diamond of bricks `side` a side; a prism when `mid` rows are added in the middle."""
    g = PlanarGraph()
    rows, cols = 2 * side + 2 * mid, 2 * side
    for r in range(rows):
        for c in range((r + 1) % 2, cols, 2):
            if r + c < side - 1 or c - r >= side or r + c >= 3 * side - 1 or r - c > side:
                continue
            _lay(g, r, c, cols, trim)
    return g


def spiral_on_brick(rings: int) -> PlanarGraph:
    """A square in the middle and `rings - 1` rings of bricks around it, each ring's four
    sides laid in turn (left upright, top, right upright, bottom)."""
    g = PlanarGraph()
    for ring in range(rings):
        if ring == 0:
            half_brick(g, rings - 1, rings - 1)
            continue
        for n in range(0, 2 * ring, 2):
            vertical_brick(g, rings - ring + n, rings - ring - 1)
            brick(g, rings + ring - 1, rings - ring + n)
            vertical_brick(g, rings - ring - 1 + n, rings + ring - 1)
            brick(g, rings - ring - 1, rings - ring - 1 + n)
    return g


@ludeme("brick")
class Brick(GraphFn):
    """A brick wall: `(brick 4)` is 4 courses of bricks two units long, every other one
    shifted by half a brick, so that courses of 5 and 4 bricks alternate, the longer
    sticking out half a brick at both ends (Square; Rectangle with a second size;
    Limping, one brick more); `(brick Diamond 3)` a diamond of bricks, `(brick Prism 3 2)`
    the same (Ludii cuts the rows a prism adds by the side alone); `(brick Spiral 3)`
    rings of bricks round a square. `trim:True` cuts the bricks that stick out down to
    squares (Ludii builds a spiral without reading it).

    Example: `(board (brick 2))` has 5 cells: 3 bricks in the bottom course, 2 above.
    """

    params = (P("shape", Enum("BrickShapeType", "Square Rectangle Diamond Prism Spiral Limping"),
                opt=True),
              P("a", INT), P("b", INT, opt=True),
              P("trim", LitBool, opt=True, named=True, default=False))

    def build(self, site_type: str) -> PlanarGraph:
        a = size(self, "a", 1)
        b = size(self, "b", 1)
        shape = self.shape or ("Square" if b is None or b == a else "Rectangle")
        trim = bool(self.trim)
        if shape in ("Square", "Rectangle", "Limping"):
            cols = a + 1 if shape == "Limping" else a if b is None else b
            g = rectangle_on_brick(a, cols, trim)
            # Ludii compares the two sizes as objects: Square only when one was written
            g.shape = "Square" if shape != "Limping" and b is None else "Rectangle"
        elif shape in ("Diamond", "Prism"):
            g = diamond_on_brick(a, 0 if shape == "Diamond" else a if b is None else b, trim)
            g.shape = shape
        else:
            g = spiral_on_brick(a)
            g.shape = "Spiral"
        g.basis = "Brick"
        g.reorder()
        return g
