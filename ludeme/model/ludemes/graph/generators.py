"""Board shapes on a basis: square, rectangle, hex, tri, concentric, and explicit graphs.

Each class builds the same vertices, in the same order, as the Ludii
generator of the same name, so faces and numbers come out the same.
"""

from __future__ import annotations

import math

from ludeme.errors import LudemeError
from ludeme.model.ludemes.base import Enum, GraphFn, LitBool, P, ludeme
from .base import INT, MAX_DIM, IndexRows, Points, argument_node, number, size
from ludeme.boards.geometry import CELL, TOLERANCE, VERTEX, PlanarGraph, graph_from_points
from ludeme.boards.polygon import contains, inflate, lattice_inside, outline_from_sides, \
    sides_outline

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True

SQRT3 = math.sqrt(3)
Diagonals = Enum("DiagonalsType", "Implied Solid SolidNoSplit Alternating Concentric Radiating")


# ---------------------------------------------------------------- square basis

def square_diagonals(g: PlanarGraph, rows: int, cols: int, kind: str | None,
                     from_row: int = 0, from_col: int = 0) -> None:
    """Add Ludii's extra diagonal edges to the squares of an integer grid, rows `from_row`
    to `rows` and columns `from_col` to `cols` (Ludii's Square.handleDiagonals)."""
    if kind is None or kind == "Implied":
        return

    def corners(r, c):
        quad = (g.find_vertex(c, r), g.find_vertex(c, r + 1),
                g.find_vertex(c + 1, r + 1), g.find_vertex(c + 1, r))
        return None if None in quad else quad

    # Java's int division, toward zero
    mid_r, mid_c = int((rows + from_row) / 2), int((cols + from_col) / 2)
    if kind == "Radiating":
        for n in range(max(int((rows - from_row) / 2), int((cols - from_col) / 2)) + 1):
            for dr, dc in ((1, 1), (1, -1), (-1, -1), (-1, 1)):
                a = g.find_vertex(mid_r + n * dr, mid_c + n * dc)
                b = g.find_vertex(mid_r + (n + 1) * dr, mid_c + (n + 1) * dc)
                if a and b:
                    g.find_or_add_edge(a, b)
        return
    for r in range(from_row, rows + 1):
        for c in range(from_col, cols + 1):
            quad = corners(r, c)
            if quad is None:
                continue
            a, b, cc, d = quad
            if kind == "Alternating":
                g.find_or_add_edge(*((a, cc) if (r + c) % 2 == 0 else (b, d)))
            elif kind == "Solid":
                x = g.find_or_add_vertex(c + 0.5, r + 0.5)
                for corner in quad:
                    g.find_or_add_edge(corner, x)
            elif kind == "SolidNoSplit":
                g.find_or_add_edge(a, cc)
                g.find_or_add_edge(b, d)
            elif kind == "Concentric":
                if (r < mid_r and c < mid_c) or (r >= mid_r and c >= mid_c):
                    g.find_or_add_edge(b, d)
                else:
                    g.find_or_add_edge(a, cc)


def rectangle_on_square(rows: int, cols: int, diagonals: str | None, site_type: str,
                        pyramidal: bool = False) -> PlanarGraph:
    """A rows x cols grid of squares (of points when played on vertices).

    Pyramidal, Ludii stacks rows - 1 layers of points on it, each centred over the squares
    of the one below at the height of an equilateral square pyramid, and joins every two
    points a unit apart (so each upper point to the four it rests on)."""
    extra = 1 if site_type == CELL else 0
    rows, cols = rows + extra, cols + extra
    g = PlanarGraph()
    for r in range(rows):
        for c in range(cols):
            g.add_vertex(float(c), float(r))
    for r in range(rows):
        for c in range(cols):
            a = g.vertices[r * cols + c]
            if r + 1 < rows:
                g.find_or_add_edge(a, g.vertices[(r + 1) * cols + c])
            if c + 1 < cols:
                g.find_or_add_edge(a, g.vertices[r * cols + c + 1])
    if pyramidal:
        pyramid_layers(g, rows, cols)
    square_diagonals(g, rows, cols, diagonals)
    g.make_faces(False)
    g.basis, g.shape = "Square", "Square" if rows == cols else "Rectangle"
    g.reorder()
    return g


def pyramid_layers(g: PlanarGraph, rows: int, cols: int) -> None:
    """Ludii's pyramidal layers over a rows x cols grid of points, and their unit edges."""
    dz = 1.0 / math.sqrt(2)
    for layer in range(1, rows):
        for r in range(rows - layer):
            for c in range(cols - layer):
                g.find_or_add_vertex(c + layer * 0.5, r + layer * 0.5, layer * dz)
    vs = g.vertices
    for i, a in enumerate(vs):
        for b in vs[i + 1:]:
            if abs(math.dist((a.x, a.y, a.z), (b.x, b.y, b.z)) - 1.0) < TOLERANCE:
                g.find_or_add_edge(a, b)


@ludeme("square")
class Square(GraphFn):
    """A square tiling: `(square 8)`, `(square Limping 5)`, `(square Diamond 4)`.

    Example: `(board (square 8))` is a chess board of 64 cells;
    `(board (square 3) use:Vertex)` is the 9 points of a 3x3 grid.
    """

    params = (P("shape", Enum("SquareShapeType", "Square Limping Diamond"), opt=True,
                default="Square"),
              P("dim", INT),
              P("diagonals", Diagonals, opt=True, named=True),
              P("pyramidal", LitBool, opt=True, named=True, default=False))

    def validate(self):
        if self.pyramidal and self.shape != "Square":
            self.refuse("pyramidal", why=f"pyramidal boards of shape {self.shape}")

    def build(self, site_type: str) -> PlanarGraph:
        n = size(self, "dim")
        if self.shape == "Diamond":
            return diamond_on_square(n, self.diagonals)
        cols = n + (1 if self.shape == "Limping" else 0)
        if self.pyramidal and site_type != VERTEX:   # only points are checked against Ludii
            self.refuse("pyramidal", why=f"pyramidal boards played on {site_type} sites")
        return rectangle_on_square(n, cols, self.diagonals, site_type, self.pyramidal)


def diamond_on_square(d: int, diagonals: str | None) -> PlanarGraph:
    """A square grid cut to a diamond (Ludii's DiamondOnSquare)."""
    rows = cols = 2 * d
    pts = [(float(c), float(r)) for r in range(rows) for c in range(cols)
           if not (r + c < d - 1 or c - r > d or r - c > d or r + c >= 3 * d)]
    g = graph_from_points(pts)
    square_diagonals(g, rows, cols, diagonals)
    g.make_faces(False)
    g.basis, g.shape = "Square", "Diamond"
    g.reorder()
    return g


@ludeme("square")
class SquarePoly(GraphFn):
    """Squares whose corners are the grid points inside a polygon: `(square (poly {...}))`.

    Example: `(board (square (poly {{0 0} {0 2} {3 2} {3 0}})))` is a 3 x 2 board of 6
    cells (the polygon is inflated a little, so the points on its outline are in).
    """

    params = (P("poly", "Poly"), P("diagonals", Diagonals, opt=True, named=True))

    def build(self, site_type: str) -> PlanarGraph:
        return custom_on_square(self.poly.outline(), self.diagonals)


@ludeme("square")
class SquareSides(GraphFn):
    """Squares inside an outline walked from its side lengths: up the first, then turning
    right at each corner (left for a negative length, which also walks backwards):
    `(square {4 3 -1 2 3})`.

    Example: `(board (square {2 2 2 2}))` is a 2 x 2 board of 4 cells.
    """

    params = (P("sides", INT, many=True), P("diagonals", Diagonals, opt=True, named=True))

    def build(self, site_type: str) -> PlanarGraph:
        return custom_on_square(outline_from_sides(side_lengths(self), SQUARE_STEPS),
                                self.diagonals)


# Ludii's Square.steps, as (row, column) steps.
SQUARE_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def custom_on_square(outline, diagonals: str | None) -> PlanarGraph:
    """The grid points inside the outline inflated by 0.1, searched row by row over its
    bounds widened by 2 and joined a unit apart, with the diagonals asked for (Ludii's
    CustomOnSquare, whatever the site type)."""
    outline = inflate(outline, 0.1)
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    from_col, to_col = int(min(xs)) - 2, int(max(xs)) + 2
    from_row, to_row = int(min(ys)) - 2, int(max(ys)) + 2
    g = graph_from_points([(float(c), float(r)) for r in range(from_row, to_row + 1)
                           for c in range(from_col, to_col + 1) if contains(outline, c, r)])
    square_diagonals(g, to_row, to_col, diagonals, from_row, from_col)
    g.make_faces(False)
    g.basis, g.shape = "Square", "Custom"
    g.reorder()
    return g


@ludeme("rectangle")
class Rectangle(GraphFn):
    """A rows x columns square grid: `(rectangle 6 7)`, `(rectangle 5 9 diagonals:Alternating)`.

    Example: `(board (rectangle 1 7))` is a single row of 7 cells (Connect Four's 1D board).
    """

    params = (P("rows", INT), P("columns", INT, opt=True),
              P("diagonals", Diagonals, opt=True, named=True))

    def build(self, site_type: str) -> PlanarGraph:
        rows = size(self, "rows")
        cols = size(self, "columns")
        return rectangle_on_square(rows, rows if cols is None else cols, self.diagonals,
                                   site_type)


# ---------------------------------------------------------------- hex basis

HEX_UX = SQRT3 / 2
# Corners of a pointy-top unit hexagon, from the top, clockwise (Ludii's Hex.ref).
HEX_REF = ((0.0, 1.0), (HEX_UX, 0.5), (HEX_UX, -0.5), (0.0, -1.0), (-HEX_UX, -0.5), (-HEX_UX, 0.5))


def hex_xy(row: int, col: int) -> tuple[float, float]:
    """Centre of hex cell (row, col) on Ludii's skewed hex axes."""
    hx, hy = math.sqrt(3), 3 / 2
    return (hx * (col - 0.5 * row), hy * row)


def hex_corner_points(centres, swap: bool = False) -> list[tuple[float, float]]:
    """The distinct corners of the hexagons at `centres`, in creation order."""
    pts: list[tuple[float, float]] = []
    near: dict[tuple[int, int], list[tuple[float, float]]] = {}   # 0.1-wide buckets
    for cx, cy in centres:
        for rx, ry in HEX_REF:
            x, y = (cx + ry, cy + rx) if swap else (cx + rx, cy + ry)
            bx, by = math.floor(x * 10), math.floor(y * 10)
            if any(math.sqrt((px - x) ** 2 + (py - y) ** 2) < 0.1
                   for i in (bx - 1, bx, bx + 1) for j in (by - 1, by, by + 1)
                   for px, py in near.get((i, j), ())):
                continue
            pts.append((x, y))
            near.setdefault((bx, by), []).append((x, y))
    return pts


def hex_cells(centres, swap: bool = False) -> PlanarGraph:
    """The graph of hexagons at `centres` (flat-topped when `swap`), numbered bottom up."""
    g = graph_from_points(hex_corner_points(centres, swap))
    g.reorder()
    return g


def hexagon_on_hex(d: int) -> PlanarGraph:
    """A hexagon of hexagons with `d` cells a side (Ludii's HexagonOnHex)."""
    rows = cols = 2 * d - 1
    g = PlanarGraph()

    def inside(r, c):
        return not (c > cols // 2 + r or r - c > cols // 2)

    for r in range(rows // 2 + 1):            # lower half: bottom-left, bottom (+ bottom-right)
        for c in range(cols):
            if inside(r, c):
                x, y = hex_xy(r, c)
                for n in (4, 3) + ((2,) if c + 1 > cols // 2 + r else ()):
                    g.add_vertex(x + HEX_REF[n][0], y + HEX_REF[n][1])
    for r in range(rows // 2, rows):          # upper half: top-left, top (+ top-right)
        for c in range(cols):
            if inside(r, c):
                x, y = hex_xy(r, c)
                for n in (5, 0) + ((1,) if c == cols - 1 else ()):
                    g.add_vertex(x + HEX_REF[n][0], y + HEX_REF[n][1])
    join_at_distance(g, 1.0)
    g.make_faces(False)
    g.reorder()
    return g


def join_at_distance(g: PlanarGraph, unit: float) -> None:
    """Add an edge between every pair of vertices `unit` apart, pairs in the order of
    their indices (as a scan of every pair would): vertices are bucketed on a grid of
    cells `unit` wide, so only the nine cells around a vertex are searched."""
    vs = g.vertices
    cells: dict[tuple[int, int], list[int]] = {}
    for i, a in enumerate(vs):
        cells.setdefault((math.floor(a.x / unit), math.floor(a.y / unit)), []).append(i)
    for i, a in enumerate(vs):
        cx, cy = math.floor(a.x / unit), math.floor(a.y / unit)
        near = sorted(j for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                      for j in cells.get((cx + dx, cy + dy), ()) if j > i)
        for j in near:
            b = vs[j]
            if abs(math.hypot(b.x - a.x, b.y - a.y) - unit) < 0.01:
                g.add_edge(a, b)


def diamond_on_hex(rows: int, cols: int | None) -> PlanarGraph:
    """A rhombus of hexagons (Ludii's DiamondOnHex); with `cols`, a prism."""
    prism = cols is not None
    cols = cols if prism else rows
    max_r = rows + cols - 1 if prism else rows
    max_c = rows + cols - 1 if prism else cols
    hx, hy = math.sqrt(3), 3 / 2
    return hex_cells([(hy * (c - r), hx * (r + c) * 0.5) for r in range(max_r) for c in range(max_c)
                      if not (prism and abs(r - c) >= rows)], swap=True)


def star_lattice(d: int) -> list[tuple[int, int]]:
    """(row, col) of the six-pointed star `d` rows to a point that Ludii's StarOnHex and
    StarOnTri take from a 4d + 1 square of lattice points, row by row: each quarter of the
    rows cuts its corners away."""
    n = 4 * d + 1

    def outside(r: int, c: int) -> bool:
        if r < d:
            return c < d or c - r > d
        if r <= 2 * d:
            return r - c > d or c >= n - d
        if r <= 3 * d:
            return c < d or c - r > d
        return c > 3 * d or r - c > d
    return [(r, c) for r in range(n) for c in range(n) if not outside(r, c)]


def star_on_hex(d: int) -> PlanarGraph:
    """A six-pointed star of hexagons (Chinese Checkers; Ludii's StarOnHex)."""
    return hex_cells([hex_xy(r, c) for r, c in star_lattice(d)])


def triangle_on_hex(d: int) -> PlanarGraph:
    """A triangle of hexagons (Ludii's TriangleOnHex)."""
    return hex_cells([hex_xy(r, c) for r in range(d) for c in range(d) if r <= c])


def rectangle_on_hex(rows: int, cols: int) -> PlanarGraph:
    """A rectangle of hexagons with staggered rows (Ludii's RectangleOnHex)."""
    return hex_cells([hex_xy(r, c) for r in range(rows) for c in range(cols + rows)
                      if not (c < (r + 1) // 2 or c >= cols + r // 2)])


class ShapedTiling(GraphFn):
    """`(<basis> [Shape] a [b])`: a shape of size a (by b) cut from a tiling.

    A subclass says which shapes it does not build yet (`NOT_YET`). Prisms and rectangles
    have a second size, and so do hexagons of hexagons (`(hex 5 6)`: sides 5, 6, 5, 6, 5,
    6, Ludii 1.3's Hex); Ludii's constructors pass over `b` for the other shapes (`(tri
    Limping 4 5)` is `(tri Limping 4)`), so it is checked as a size and then has no effect
    there, as in Ludii."""

    TWO_SIZES: frozenset = frozenset({"Prism", "Rectangle"})
    NOT_YET: frozenset = frozenset()

    def validate(self):
        if self.shape in self.NOT_YET:
            raise self.fail(f"({self.keyword} {self.shape} ...) boards are not supported yet")

    def sizes(self) -> tuple[int, int | None]:
        """The first size, and the second where the shape takes one (else None)."""
        a, b = size(self, "a"), size(self, "b")
        return a, (b if self.shape in self.TWO_SIZES else None)


def _shaped(keyword: str, shapes: str) -> tuple:
    return (P("shape", Enum(f"{keyword.capitalize()}ShapeType", shapes), opt=True,
              default=shapes.split()[0]),
            P("a", INT), P("b", INT, opt=True))


@ludeme("hex")
class Hex(ShapedTiling):
    """A hexagonal tiling: `(hex 5)`, `(hex Diamond 11)`, `(hex Star 4)`, `(hex Rectangle 4 6)`.

    Example: `(board (hex Diamond 11))` is the 121-cell Hex board;
    `(board (rotate 30 (hex 4)))` is Seesaw's 37-cell hexagon.
    """

    params = _shaped("hex", "Hexagon Triangle Diamond Prism Star Limping Square Rectangle")
    # Ludii 1.3's Hex: a second size makes the hexagon of sides a, b, a, b, a, b
    TWO_SIZES = ShapedTiling.TWO_SIZES | {"Hexagon"}

    def build(self, site_type: str) -> PlanarGraph:
        shape = self.shape
        a, b = self.sizes()
        if shape == "Hexagon":
            g = hexagon_on_hex(a) if b is None else custom_on_hex([a, b])
        elif shape == "Triangle":
            g = triangle_on_hex(a)
        elif shape == "Diamond":
            g = diamond_on_hex(a, None)
        elif shape == "Prism":
            g = diamond_on_hex(a, b if b is not None else a)
        elif shape == "Star":
            g = star_on_hex(a)
        elif shape == "Limping":
            g = custom_on_hex([a, a + 1])
        else:  # Square, Rectangle
            g = rectangle_on_hex(a, b if b is not None else a)
        g.basis, g.shape = "Hexagonal", shape
        return g


def is_limping(sides: list[int]) -> bool:
    """Two sides, the second one longer by one: Ludii's limping shape."""
    return len(sides) == 2 and sides[0] == sides[1] - 1


def custom_on_hex(sides: list[int]) -> PlanarGraph:
    """Hexagons whose centres lie inside the outline walked from `sides` (Ludii's
    CustomOnHex); `[a, a + 1]` is the limping hexagon."""
    return hex_inside(sides_outline(sides, hex_xy), "Limping" if is_limping(sides) else "Custom")


def hex_inside(outline, shape: str) -> PlanarGraph:
    """Hexagons whose centres lie inside the outline inflated by 0.1, searched over its
    bounds widened by 3 (Ludii's CustomOnHex)."""
    g = hex_cells(lattice_inside(inflate(outline, 0.1), hex_xy, margin=3))
    g.basis, g.shape = "Hexagonal", shape
    return g


@ludeme("hex")
class HexSides(GraphFn):
    """Hexagons inside an outline given by its side lengths, in cells, walked from the
    first cell and turning at each corner (a negative length turns the other way):
    `(hex {3 4 3 4 3})`.

    Example: `(board (hex {2 3}))` is the limping hexagon of sides 2 and 3 (12 cells),
    as `(board (hex Limping 2))`.
    """

    params = (P("sides", INT, many=True),)

    def build(self, site_type: str) -> PlanarGraph:
        return custom_on_hex(side_lengths(self))


@ludeme("hex")
class HexPoly(GraphFn):
    """Hexagons whose centres lie inside a polygon: `(hex (poly {...}))` (Ludii's
    CustomOnHex, the polygon inflated a little). The centre of hexagon (row, col) is at
    x = sqrt(3) (col - row / 2), y = 1.5 row.

    Example: `(board (hex (poly {{0 0} {0 1.5} {3.5 1.5} {3.5 0}})))` is 5 hexagons, three
    on the bottom row and two nestled above them.
    """

    params = (P("poly", "Poly"),)

    def build(self, site_type: str) -> PlanarGraph:
        return hex_inside(self.poly.outline(), "Custom")


def side_lengths(lud) -> list[int]:
    """The `sides` of a custom shape, each a whole number, at least one."""
    sides = [number(x, False, lud) for x in lud.sides]
    if not sides or any(abs(n) > MAX_DIM for n in sides):
        raise lud.fail(f"the sides of ({lud.keyword} {{...}}) are 1 to {MAX_DIM} numbers of "
                       f"at most {MAX_DIM} sites")
    return sides


# ---------------------------------------------------------------- triangular basis

def tri_xy(row: int, col: int) -> tuple[float, float]:
    """Point (row, col) of Ludii's triangular lattice."""
    return (1.0 * (col - 0.5 * row), math.sqrt(3) / 2.0 * row)


@ludeme("tri")
class Tri(ShapedTiling):
    """A triangular tiling: `(tri 5)`, `(tri Hexagon 3)`, `(tri Diamond 4)`, `(tri Square 4)`.

    Example: `(board (tri 4) use:Vertex)` is a triangle of 10 points.
    """

    params = _shaped("tri", "Triangle Hexagon Diamond Prism Square Rectangle Star Limping")

    def build(self, site_type: str) -> PlanarGraph:
        extra = 1 if site_type == CELL else 0
        shape = self.shape
        a, b = self.sizes()
        if shape == "Limping":
            return custom_on_tri([a, a + 1])
        if shape == "Star":
            return star_on_tri(a)
        if shape == "Triangle":
            return triangle_on_tri(a, site_type)
        if shape == "Hexagon":
            d = a + extra
            rows = cols = 2 * d - 1
            g = PlanarGraph()
            for r in range(rows):
                for c in range(cols):
                    if not (c > cols // 2 + r or r - c > cols // 2):
                        g.add_vertex(*tri_xy(r, c))
            join_at_distance(g, 1.0)
            g.make_faces(False)
            g.reorder()
            g.basis, g.shape = "Triangular", shape
            return g
        if shape in ("Diamond", "Prism"):
            rows = a + extra
            cols = (b if b is not None else a) + extra if shape == "Prism" else rows
            hx, hy = 1.0, math.sqrt(3) / 2.0

            def xy(r, c):
                return (hy * (c - r), hx * (r + c) * 0.5)
            if shape == "Prism":
                pts = [xy(r, c) for r in range(rows + cols - 1) for c in range(cols + rows - 1)
                       if abs(r - c) < rows]
            else:
                pts = [xy(r, c) for r in range(rows) for c in range(cols)]
        else:  # Square, Rectangle
            rows = a + extra
            cols = (b if b is not None else a) + extra
            pts = [tri_xy(r, c) for r in range(rows) for c in range(cols + rows)
                   if not (c < (r + 1) // 2 or c >= cols + r // 2)]
        g = graph_from_points(pts)
        g.reorder()
        g.basis, g.shape = "Triangular", shape
        return g


def star_on_tri(d: int) -> PlanarGraph:
    """A six-pointed star of points on the triangular lattice, `d` rows to each point (Ludii's
    StarOnTri, whatever the site type), joined a unit apart."""
    g = graph_from_points([tri_xy(r, c) for r, c in star_lattice(d)])
    g.reorder()
    g.basis, g.shape = "Triangular", "Star"
    return g


def triangle_on_tri(d: int, site_type: str) -> PlanarGraph:
    """A triangle of triangles with `d` on a side (`d` points played on vertices; Ludii's
    TriangleOnTri)."""
    n = d + (1 if site_type == CELL else 0)
    g = graph_from_points([tri_xy(r, c) for r in range(n) for c in range(n) if r <= c])
    g.reorder()
    g.basis, g.shape = "Triangular", "Triangle"
    return g


def custom_on_tri(sides: list[int]) -> PlanarGraph:
    """The triangular lattice points inside the outline walked from `sides` (Ludii's
    CustomOnTri, whatever the site type); `[a, a + 1]` is the limping hexagon."""
    limping = is_limping(sides)
    return tri_inside(sides_outline(sides, tri_xy), sides[0] if limping else 2,
                      "Limping" if limping else "Custom")


def tri_inside(outline, margin: int, shape: str) -> PlanarGraph:
    """The triangular lattice points inside the outline inflated by 0.1, searched over its
    bounds widened by `margin` (Ludii's CustomOnTri), joined a unit apart."""
    g = graph_from_points(lattice_inside(inflate(outline, 0.1), tri_xy, margin=margin))
    g.reorder()
    g.basis, g.shape = "Triangular", shape
    return g


@ludeme("tri")
class TriSides(GraphFn):
    """Triangles inside an outline given by its side lengths, in points, walked from the
    first point and turning at each corner (a negative length turns the other way):
    `(tri {4 6 4 7 4})`.

    Example: `(board (tri {2 3}) use:Vertex)` is the 12 points of the limping hexagon of
    sides 2 and 3, as `(board (tri Limping 2) use:Vertex)`.
    """

    params = (P("sides", INT, many=True),)

    def build(self, site_type: str) -> PlanarGraph:
        return custom_on_tri(side_lengths(self))


@ludeme("tri")
class TriPoly(GraphFn):
    """The points of the triangular lattice inside a polygon: `(tri (poly {...}))` (Ludii's
    CustomOnTri, the polygon inflated a little, whatever the site type). A lattice point
    (row, col) is at x = col - row / 2, y = row * sqrt(3) / 2.

    Example: `(board (tri (poly {{0 0} {0.5 0.87} {2.5 0.87} {2 0}})))` is a parallelogram
    of 6 points in two rows of 3 and the 4 triangles between them.
    """

    params = (P("poly", "Poly"),)

    def build(self, site_type: str) -> PlanarGraph:
        return tri_inside(self.poly.outline(), 2, "Custom")


# ---------------------------------------------------------------- concentric

@ludeme("concentric")
class Concentric(GraphFn):
    """Concentric polygons joined at their midpoints (the Morris boards), or circles of
    points given by their number per ring.

    Example: `(board (concentric Square rings:3) use:Vertex)` is the 24 points
    of Nine Men's Morris; `(concentric Square rings:2)` is Achi's 16;
    `(board (concentric {1 8}) use:Vertex)` is a centre and a ring of 8 points (Mu Torere).
    """

    params = (P("shape", Enum("ConcentricShapeType", "Square Triangle Hexagon Target"), opt=True),
              P("cells", INT, opt=True, many=True),
              P("sides", INT, opt=True, named=True),
              P("rings", INT, opt=True, named=True),
              P("steps", INT, opt=True, named=True),
              P("midpoints", LitBool, opt=True, named=True, default=True),
              P("joinMidpoints", LitBool, opt=True, named=True, default=True),
              P("joinCorners", LitBool, opt=True, named=True, default=False),
              P("stagger", LitBool, opt=True, named=True, default=False))

    SIDES = {"Triangle": 3, "Square": 4, "Hexagon": 6}

    def validate(self):
        given = [name for name in ("shape", "sides", "cells") if name in self._given]
        if len(given) != 1:
            raise self.fail("(concentric ...) needs one of a shape, sides: or cells per ring"
                            f"{', not ' + ' and '.join(given) if given else ''}")
        if self.cells:
            return            # rings:, steps:, midpoints: ... mean nothing here: left unread
        if self.rings is None:
            raise self.fail("(concentric ...) with a shape or sides: needs rings:")

    def build(self, site_type: str) -> PlanarGraph:
        if self.shape == "Target":
            rings = size(self, "rings")
            if self.steps is not None:
                # Ludii's wheel: `steps` cells on each of the rings
                self.cells = [size(self, "steps")] * rings
            else:
                self.refuse("stagger", why="staggered rings on target boards")
                if site_type != CELL:
                    raise self.fail("a (concentric Target ...) board without steps: is played "
                                    "on its cells only (as in Ludii)")
                return concentric_target(rings)
        if self.cells:
            cells = [number(x, False, self) for x in self.cells]
            if any(abs(n) > 4 * MAX_DIM for n in cells) or len(cells) > MAX_DIM:
                raise self.fail(f"at most {MAX_DIM} rings of at most {4 * MAX_DIM} cells")
            if site_type == CELL:
                return concentric_circle_cells(cells, self.stagger)
            if len(cells) == 1 and cells[0] < 3:
                raise self.fail("a circle board of one ring needs at least 3 points")
            return concentric_circle(cells, self.stagger)
        self.refuse("stagger", why="staggered rings on polygon boards")
        n = self.SIDES[self.shape] if self.shape is not None else size(self, "sides")
        rings = size(self, "rings")
        midpoints, join_midpoints, join_corners = \
            self.midpoints, self.joinMidpoints, self.joinCorners
        g = PlanarGraph()
        if n < 3 or rings < 1:
            return g
        arc = 2 * math.pi / n
        ref = math.pi / 2 + (arc / 2 if n % 2 == 0 else 0)
        base = 0
        for ring in range(rings):
            radius = 1 + ring * (2 if n == 3 else 1)
            for side in range(n):
                xa, ya = radius * math.cos(ref + arc * side), radius * math.sin(ref + arc * side)
                xc, yc = radius * math.cos(ref + arc * (side + 1)), radius * math.sin(ref + arc * (side + 1))
                g.find_or_add_vertex(xa, ya)
                if midpoints:
                    g.find_or_add_vertex((xa + xc) / 2.0, (ya + yc) / 2.0)
            last = len(g.vertices) - 1
            for v in range(base, last + 1):
                g.add_edge(g.vertices[v], g.vertices[v + 1 if v < last else base])
            base = len(g.vertices)
        if (midpoints and join_midpoints) or join_corners:
            per_side = 2 if midpoints else 1
            per_ring = n * per_side
            for ring in range(rings - 1):
                for side in range(n):
                    v = ring * per_ring + side * per_side
                    if join_corners:
                        g.add_edge(g.vertices[v], g.vertices[v + per_ring])
                    if join_midpoints:
                        g.add_edge(g.vertices[v + 1], g.vertices[v + 1 + per_ring])
        g.basis, g.shape = "Concentric", {3: "Triangle", 4: "Square", 6: "Hexagon"}.get(n, "Regular")
        g.reorder()
        if site_type == CELL:
            g.make_faces(True)
        return g


def concentric_target(rings: int) -> PlanarGraph:
    """Ludii's ConcentricTarget: rings of 8 points at radius 1, 2, ... from the top, each
    joined around by arcs; its cells are the rings' discs, found in ring order and placed
    one under the other (the first at the centre, cell f at y = -f - 0.5) so that their
    positions differ. Not numbered again."""
    g = PlanarGraph()
    arc = 2 * math.pi / 8
    for ring in range(rings):
        base = len(g.vertices)
        for step in range(8):
            g.find_or_add_vertex((ring + 1) * math.cos(math.pi / 2 + arc * step),
                                 (ring + 1) * math.sin(math.pi / 2 + arc * step))
        last = len(g.vertices) - 1
        for v in range(base, last + 1):
            g.add_edge(g.vertices[v], g.vertices[v + 1 if v < last else base]).curved = True
    g.make_faces(True)
    for f, face in enumerate(g.faces):
        face.x, face.y, face.z = 0.0, (0.0 if f == 0 else -f - 0.5), 0.0
    g.basis, g.shape = None, None
    return g


def fuse_ring(samples: list[tuple[float, float, float]], tolerance: float) -> None:
    """Sort a ring's (x, y, angle) samples by angle (stably, as Java's sort) and drop each
    one that lies within `tolerance` of the one before."""
    samples.sort(key=lambda sample: sample[2])
    for n in range(len(samples) - 1, 0, -1):
        (ax, ay, _), (bx, by, _) = samples[n], samples[n - 1]
        if math.hypot(ax - bx, ay - by) < tolerance:
            del samples[n]


def join_ring(g: PlanarGraph, samples: list[tuple[float, float, float]]) -> None:
    """Join a ring's samples in a loop (Ludii's curved edges: drawn straight here, but
    marked curved, which its CW and CCW directions look for)."""
    if len(samples) < 2:
        return
    for n, (x, y, _) in enumerate(samples):
        a = g.find_or_add_vertex(x, y)
        b = g.find_or_add_vertex(*samples[(n + 1) % len(samples)][:2])
        if a is not b and a.edge_to(b) is None:
            g.add_edge(a, b).curved = True


def set_pivot(g: PlanarGraph, pivot) -> None:
    """Make `pivot` the pivot of every vertex (Ludii's centre of a circular board, for
    its In, Out, CW and CCW directions)."""
    for v in g.vertices:
        v.pivot = pivot


def concentric_circle(cells: list[int], stagger: bool) -> PlanarGraph:
    """Rings of points, `cells[r]` on ring r, joined around each ring and radially
    (Ludii's ConcentricCircle played on vertices or edges). A first count above 1 means
    no centre point; a negative count puts points on a ring without joining them around.
    Ludii numbers the points as it creates them, ring by ring, each ring anticlockwise
    from the point before the top one; a single ring is a plain polygon, renumbered.

    Ludii also makes the centre the pivot of every point, for its In, Out, CW and CCW
    directions; so does this, when there is a centre point (without one, those
    directions are refused: `BoardTables` finds no radials for them).
    """
    if len(cells) == 1:
        return circle_polygon(cells[0])
    counts = [0] + cells if abs(cells[0]) > 1 else list(cells)
    samples: list[list[tuple[float, float, float]]] = []
    for ring, count in enumerate(counts):
        n = abs(count)
        offset = math.pi / n if stagger and ring % 2 == 1 else 0.0
        thetas = [math.pi / 2 + offset - 2 * math.pi * step / n for step in range(n)]
        samples.append([(ring * math.cos(t), ring * math.sin(t), t) for t in thetas])
    for ring in range(1, len(counts)):
        fuse_ring(samples[ring], 0.1)
    g = PlanarGraph()
    for ring_samples in samples:
        for x, y, _ in ring_samples:
            g.find_or_add_vertex(x, y)
    for ring in range(1, len(counts)):                      # around each ring
        if counts[ring] >= 2:
            join_ring(g, samples[ring])
    for ring in range(len(counts) - 1):                     # out from each ring
        for x, y, _ in samples[ring]:
            a = g.find_vertex(x, y)
            if a is None:
                continue
            if ring == 0:
                outer = [g.find_vertex(bx, by) for bx, by, _ in samples[1]]
            else:
                ratio = (ring + 1) / ring
                outer = [g.find_vertex(x * ratio, y * ratio)]
            for b in outer:
                if b is not None:
                    g.find_or_add_edge(a, b)
    centre = g.find_vertex(0.0, 0.0)
    if centre is not None:
        set_pivot(g, centre)
    g.basis, g.shape = "Concentric", "Circle"
    return g


def concentric_circle_cells(cells: list[int], stagger: bool) -> PlanarGraph:
    """Rings of cells, `abs(cells[r])` on ring r (ring r between radii r - 1/2 and r + 1/2;
    a ring of fewer than 2 cells is left out), as Ludii's ConcentricCircle builds them to
    play on cells: a point at the centre first, then the points of each ring boundary in
    angle order, joined around each boundary and radially between cells; the cells are the
    faces found from those edges. Ludii makes the boundaries curved; the cells and their
    order are the same with straight ones.
    """
    g = PlanarGraph()
    g.add_vertex(0.0, 0.0)          # Ludii's pivot, before any ring point
    boundaries: list[list[tuple[float, float, float]]] = [[] for _ in range(len(cells) + 1)]
    spokes: list[tuple[float, float, float, float]] = []
    for ring, count in enumerate(cells):
        n = abs(count)
        if n < 2:
            continue
        inner, outer = max(0.0, ring - 0.5), ring + 0.5
        offset = math.pi / n if stagger and ring % 2 == 1 else 0.0
        for step in range(n):
            t = math.pi / 2 + offset - 2 * math.pi * step / n
            spokes.append((inner * math.cos(t), inner * math.sin(t),
                           outer * math.cos(t), outer * math.sin(t)))
            while t < -math.pi:
                t += 2 * math.pi
            while t > math.pi:
                t -= 2 * math.pi
            boundaries[ring].append((inner * math.cos(t), inner * math.sin(t), t))
            boundaries[ring + 1].append((outer * math.cos(t), outer * math.sin(t), t))
    for samples in boundaries:
        fuse_ring(samples, TOLERANCE)
    for samples in boundaries:
        for x, y, _ in samples:
            g.find_or_add_vertex(x, y)
    for samples in boundaries:                               # around each boundary
        join_ring(g, samples)
    for ix, iy, ox, oy in spokes:                            # between the cells of a ring
        a, b = g.find_or_add_vertex(ix, iy), g.find_or_add_vertex(ox, oy)
        if a is not b:
            g.find_or_add_edge(a, b)
    set_pivot(g, g.vertices[0])
    g.make_faces(True)
    g.basis, g.shape = "Concentric", "Circle"
    return g


def regular_polygon(n: int, jump: int = 1) -> PlanarGraph:
    """`n` points round a circle of radius n / 2 pi, anticlockwise from the top (from the
    upper right for 4), each joined to the one `jump` further round (Ludii's Regular and
    its simple polygon); not numbered yet."""
    r = n / (2 * math.pi)
    offset = math.pi / 4 if n == 4 else math.pi / 2
    g = PlanarGraph()
    for k in range(n):
        theta = offset + k / n * 2 * math.pi
        g.add_vertex(r * math.cos(theta), r * math.sin(theta))
    for k in range(n):
        g.add_edge(g.vertices[k], g.vertices[(k + jump) % n])
    return g


def circle_polygon(n: int) -> PlanarGraph:
    """One ring of `n` points joined in a loop (Ludii's simple polygon of a one-ring
    circle board), numbered bottom row first."""
    g = regular_polygon(n)
    g.reorder()
    g.basis, g.shape = "Concentric", "Circle"
    return g


# ---------------------------------------------------------------- explicit graph

@ludeme("graph")
class Graph(GraphFn):
    """A graph given by its vertices and edges.

    Example: `(board (graph vertices:{{0 0} {1 0} {0 1}} edges:{{0 1} {0 2}}) use:Vertex)`.
    """

    params = (P("vertices", Points, named=True), P("edges", IndexRows, opt=True, named=True))

    def validate(self):
        if self.vertices is None:
            raise self.fail("(graph ...) needs vertices:{{x y} ...}")
        n = len(self.vertices)
        for row in self.edges or ():
            if len(row) != 2 or not all(0 <= v < n for v in row):
                node = argument_node(self, "edges")
                raise LudemeError(f"an edge is {{a b}} with vertex indices below {n}, "
                                  f"not {{{' '.join(map(str, row))}}}", node.pos,
                                  path=self.path, via=node.via)

    def build(self, site_type: str) -> PlanarGraph:
        from ludeme.boards.geometry import f32
        g = PlanarGraph()
        for row in self.vertices:
            g.add_vertex(f32(row[0]), f32(row[1]), f32(row[2]) if len(row) > 2 else 0.0)
        for a, b in self.edges or ():
            g.find_or_add_edge(g.vertices[a], g.vertices[b])
        g.assemble()
        return g


# ---------------------------------------------------------------- wedge

@ludeme("wedge")
class Wedge(GraphFn):
    """A triangle of lines fanning down from an apex, for the arms of hunt-game boards.

    Example: `(board (merge (shift 0 2 (square 5 diagonals:Alternating)) (wedge 3)) use:Vertex)`
    is Adugo's board.
    """

    params = (P("rows", INT), P("columns", INT, opt=True))

    def build(self, site_type: str) -> PlanarGraph:
        rows, cols = size(self, "rows"), size(self, "columns")
        cols = 3 if cols is None else cols
        if rows < 2 or cols < 2:
            raise self.fail("(wedge rows columns) needs at least 2 rows and 2 columns")
        g = PlanarGraph()
        mid = rows - 1
        g.add_vertex(float(mid), float(mid))
        for r in range(1, rows):
            left, right = mid - r, mid + r
            for c in range(cols):
                t = c / (cols - 1)
                g.add_vertex(left + t * (right - left), float(mid - r))
        for c in range(cols):
            g.add_edge(g.vertices[0], g.vertices[c + 1])
        for r in range(1, rows):
            first = r * cols - cols + 1
            for c in range(cols - 1):
                g.add_edge(g.vertices[first + c], g.vertices[first + c + 1])
            if r < rows - 1:
                for c in range(cols):
                    g.add_edge(g.vertices[first + c], g.vertices[first + cols + c])
        g.basis, g.shape = None, "Wedge"
        return g
