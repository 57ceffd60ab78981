"""Graph operators: rotate, shift, scale, skew, layers, dual, subdivide, merge, intersect,
union, remove, add, complete, and cutting by a polygon (hole, keep, clip).

Transformations keep the numbering of the graph they change (Ludii numbers a
board before rotating it); merge and union number the parts in order.
"""

from __future__ import annotations

from ludeme.errors import LudemeError
from ludeme.model.ludemes.base import GraphFn, LitBool, Other, P, SiteType, ludeme
from .base import INT, REAL, IndexRows, Indices, Points, Polygons, argument_node, real, size
from ludeme.boards.geometry import EPSILON, PlanarGraph, distance, f32
from ludeme.boards.polygon import contains, inflate

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True


@ludeme("rotate")
class Rotate(GraphFn):
    """Rotate a graph counter-clockwise about its centre, keeping its numbers.

    Example: `(board (rotate 90 (hex 5)))` is Yavalath's board.
    """

    params = (P("degrees", REAL), P("graph", GraphFn))

    def build(self, site_type: str) -> PlanarGraph:
        degrees = real(self, "degrees")
        g = self.graph.build(site_type)
        if g.vertices:
            g.rotate(degrees)
        return g


@ludeme("shift")
class Shift(GraphFn):
    """Translate a graph.

    Example: `(board (shift 0.5 0 (square 4)))`.
    """

    params = (P("dx", REAL), P("dy", REAL), P("dz", REAL, opt=True), P("graph", GraphFn))

    def build(self, site_type: str) -> PlanarGraph:
        dx, dy, dz = real(self, "dx"), real(self, "dy"), real(self, "dz", 0.0)
        g = self.graph.build(site_type)
        if g.vertices:
            g.translate(dx, dy, dz)
        return g


@ludeme("scale")
class Scale(GraphFn):
    """Scale a graph about the origin (one factor, or x and y factors).

    Example: `(board (scale 1 2 (square 4)))`.
    """

    params = (P("scaleX", REAL), P("scaleY", REAL, opt=True), P("scaleZ", REAL, opt=True),
              P("graph", GraphFn))

    def build(self, site_type: str) -> PlanarGraph:
        sx = real(self, "scaleX")
        sy, sz = real(self, "scaleY", sx), real(self, "scaleZ", 1.0)
        g = self.graph.build(site_type)
        if g.vertices:
            g.scale(sx, sy, sz)
        return g


@ludeme("skew")
class Skew(GraphFn):
    """Shear a graph sideways: each point moves right by `amount` times its height above
    the lowest point (numbers kept).

    Example: `(board (skew 0.5 (scale 1 0.5 (square 4))))` is Score Four's slanted board.
    """

    params = (P("amount", REAL), P("graph", GraphFn))

    def build(self, site_type: str) -> PlanarGraph:
        amount = real(self, "amount")
        g = self.graph.build(site_type)
        if g.vertices:
            low = g.bounds()[1]
            for v in g.vertices:
                v.x += (v.y - low) * amount
            g.moved()
        return g


@ludeme("layers")
class Layers(GraphFn):
    """Stack copies of a graph one unit apart upwards, for 3D games: each copy's points are
    joined to the points straight below them, and keep their cells.

    Sites are numbered as Ludii numbers them, by position on the ground (the heights play no
    part), so the copies of one point or cell take consecutive numbers, the lowest first.
    A step up is named U, a step down D.

    Example: `(board (layers 3 (square 3)) use:Vertex)` is 27 points, 3 above each of a
    3 x 3 grid's.
    """

    params = (P("layers", INT), P("graph", GraphFn))

    def build(self, site_type: str) -> PlanarGraph:
        layers = size(self, "layers", 1)
        g = self.graph.build(site_type)
        g.synchronise_ids()
        below = g.vertices[:]
        for layer in range(1, layers):
            copy = self.graph.build(site_type)
            copy.synchronise_ids()
            here = [g.add_vertex(v.x, v.y, v.z + layer) for v in copy.vertices]
            for v in copy.vertices:
                if v.pivot is not None:
                    here[v.id].pivot = here[v.pivot.id]
            for e in copy.edges:
                g.add_edge(here[e.a.id], here[e.b.id])
            for a, b in zip(below, here):
                g.add_edge(a, b)
            for f in copy.faces:
                g.add_face([here[v.id] for v in f.vertices])
            below = here
        g.reorder()
        return g


@ludeme("dual")
class Dual(GraphFn):
    """The dual of a graph: a point at the centre of each cell, joined across each edge
    that has a cell on both sides; the new cells are found from those edges.

    Example: `(board (dual (square 4)) use:Vertex)` is the 16 points at the centres of
    (square 4)'s cells, joined in a 4 x 4 grid with 9 cells.
    """

    params = (P("graph", GraphFn),)

    def build(self, site_type: str) -> PlanarGraph:
        source = self.graph.build(site_type)
        if not (source.vertices and source.edges and source.faces):
            return source      # as Ludii: nothing to take the dual of
        g = PlanarGraph()
        for face in source.faces:
            g.add_vertex(face.x, face.y, face.z)
        for e in source.edges:
            if e.left is not None and e.right is not None:
                g.add_edge(g.vertices[e.left.id], g.vertices[e.right.id])
        g.make_faces(False)
        g.basis, g.shape = "Dual", None
        g.reorder()
        return g


@ludeme("subdivide")
class Subdivide(GraphFn):
    """Split each cell of at least `min:` sides (default 1) about its centre: a new point
    there, joined to each of its corners (Ludii's Subdivide). Cells are taken from the
    last; the new points are numbered after the old ones in that order. On a board played
    on cells the cells are found again; played on vertices, the graph keeps no cells.

    Example: `(board (subdivide (tiling T33434 2) min:4) use:Vertex)` puts a point at the
    centre of each square of the tiling, joined to its four corners (Onyx).
    """

    params = (P("graph", GraphFn), P("min", INT, opt=True, named=True))

    def build(self, site_type: str) -> PlanarGraph:
        smallest = size(self, "min", low=0)
        smallest = 1 if smallest is None else smallest
        g = self.graph.build(site_type)
        if site_type == "Vertex":
            g.make_faces(True)       # as Ludii: no subdividing without cells
        split = []
        for face in reversed(g.faces):
            if len(face.vertices) < smallest:
                continue
            pivot = g.add_vertex(face.x, face.y, face.z)
            for v in face.vertices:
                g.find_or_add_edge(pivot, v)
            split.append(face)
        if site_type == "Cell":
            # the old cells go after the new edges are in, so no shared edge goes with them
            for face in split:
                g.remove_face(face, False)
            g.make_faces(True)
        else:
            g.clear_faces()
        g.check_size()
        g.basis = g.shape = None
        return g


@ludeme("splitCrossings")
class SplitCrossings(GraphFn):
    """Make a point where two edges cross (and where a point lies on an edge), splitting
    the edges there; the new points are numbered after the old ones, as Ludii creates them.

    Example: `(board (splitCrossings (regular Star 5)) use:Vertex)` is Kaooa's 10 points.
    """

    params = (P("graph", GraphFn),)

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        split_at_crossings(g)
        split_at_touching_points(g)
        g.make_faces(True)
        g.basis = g.shape = None
        return g


def crossing_point(a, b, c, d):
    """Where segment a-b crosses segment c-d away from their ends (Ludii's
    MathRoutines.crossingPoint, margin 0.01 along each), or None."""
    xlk, ylk = b.x - a.x, b.y - a.y
    xnm, ynm = d.x - c.x, d.y - c.y
    xmk, ymk = c.x - a.x, c.y - a.y
    det = xnm * ylk - ynm * xlk
    if abs(det) < EPSILON:
        return None
    s = (xnm * ymk - ynm * xmk) / det
    t = (xlk * ymk - ylk * xmk) / det
    if 0.01 < s < 0.99 and 0.01 < t < 0.99:
        return (a.x + s * (b.x - a.x), a.y + s * (b.y - a.y))
    return None


def touches(v, a, b) -> bool:
    """Whether point v lies on segment a-b away from its ends (Ludii's touchingPoint)."""
    margin = 0.001
    return (distance3(v, a) >= margin and distance3(v, b) >= margin
            and distance_to_segment3(v, a, b) <= margin)


def distance3(p, q) -> float:
    """Distance between two elements in space."""
    return ((p.x - q.x) ** 2 + (p.y - q.y) ** 2 + (p.z - q.z) ** 2) ** 0.5


def distance_to_segment3(p, a, b) -> float:
    """Distance from p to segment a-b in space (Bowyer and Woodwark, as Ludii)."""
    if abs(a.x - b.x) + abs(a.y - b.y) + abs(a.z - b.z) < EPSILON:
        return distance3(p, a)
    kj = (a.x - p.x, a.y - p.y, a.z - p.z)
    lk = (b.x - a.x, b.y - a.y, b.z - a.z)
    denom = sum(c * c for c in lk)
    t = -sum(u * w for u, w in zip(kj, lk)) / denom
    if t <= 0.0:
        return distance3(p, a)
    if t >= 1.0:
        return distance3(p, b)
    return sum((u + t * w) ** 2 for u, w in zip(kj, lk)) ** 0.5


def split_at_crossings(g: PlanarGraph) -> None:
    """Split the first pair of crossing edges (in edge order) at a new point, again and
    again until no two edges cross (Ludii's splitAtCrossingPoints)."""
    split = True
    while split:
        split = False
        for ea, edge_a in enumerate(g.edges):
            for edge_b in g.edges[ea + 1:]:
                x = crossing_point(edge_a.a, edge_a.b, edge_b.a, edge_b.b)
                if x is None:
                    continue
                mid = g.add_vertex(x[0], x[1])
                g.remove_edge(edge_b)
                g.remove_edge(edge_a)
                for end_a, end_b in ((edge_a.a, mid), (mid, edge_a.b),
                                     (edge_b.a, mid), (mid, edge_b.b)):
                    g.find_or_add_edge(end_a, end_b)
                split = True
                break
            if split:
                break


def split_at_touching_points(g: PlanarGraph) -> None:
    """Split an edge at each point lying on it (Ludii's splitAtTouchingPoints). As in
    Ludii, once an edge is split the other points are still tested against the old edge,
    and a further touching point removes whichever edge then holds its index."""
    split = True
    while split:
        split = False
        ea = 0
        while ea < len(g.edges) and not split:
            edge_a = g.edges[ea]
            for v in list(g.vertices):
                if v is edge_a.a or v is edge_a.b or not touches(v, edge_a.a, edge_a.b):
                    continue
                if ea < len(g.edges):
                    g.remove_edge(g.edges[ea])
                g.find_or_add_edge(edge_a.a, v)
                g.find_or_add_edge(v, edge_a.b)
                split = True
            ea += 1


def connect_close_vertices(g: PlanarGraph, new_vertices=None) -> None:
    """Join vertices closer than 1.1 average edge lengths (the `connect:True` option)."""
    threshold = 1.1 * g.average_edge_length()
    for a in (new_vertices if new_vertices is not None else g.vertices):
        for b in g.vertices:
            if a is not b and distance(a.x, a.y, b.x, b.y) < threshold:
                g.find_or_add_edge(a, b)


class Combined(GraphFn):
    """`(op a b [connect:])` or `(op {a b ...} [connect:])`."""

    params = (P("graphs", GraphFn, many=True), P("graphB", GraphFn, opt=True),
              P("connect", LitBool, opt=True, named=True, default=False))

    def parts(self) -> list:
        """The graphs combined, in order."""
        return list(self.graphs) + ([self.graphB] if self.graphB is not None else [])


@ludeme("merge")
class Merge(Combined):
    """Merge graphs, fusing coincident vertices; numbered in the order of the parts.

    Example: `(board (merge (square 2) (shift 2 0 (square 2))) use:Vertex)`.
    """

    def build(self, site_type: str) -> PlanarGraph:
        points: list[list[float]] = []
        pairs: list[list[int]] = []
        for part in self.parts():
            sub = part.build(site_type)
            offset = len(points)
            points.extend([v.x, v.y, v.z] for v in sub.vertices)
            pairs.extend([e.a.id + offset, e.b.id + offset] for e in sub.edges)
        # Fuse coincident vertices: later duplicates fold into the earliest one.
        alive = list(range(len(points)))    # original indices still present, in order
        v = 0
        while v < len(alive):
            base = points[alive[v]]
            for vv in range(len(alive) - 1, v, -1):
                other = points[alive[vv]]
                if abs(base[0] - other[0]) + abs(base[1] - other[1]) + abs(base[2] - other[2]) < 0.01:
                    gone = alive.pop(vv)
                    for pair in pairs:
                        pair[:] = [alive[v] if p == gone else p for p in pair]
            v += 1
        position = {orig: i for i, orig in enumerate(alive)}
        g = PlanarGraph()
        for orig in alive:
            g.add_vertex(*points[orig])
        for a, b in pairs:
            va, vb = g.vertices[position[a]], g.vertices[position[b]]
            if va is not vb:
                g.find_or_add_edge(va, vb)
        g.assemble()
        if self.connect:
            connect_close_vertices(g)
            g.make_faces(True)
        return g


@ludeme("intersect")
class Intersect(Combined):
    """Keep the points and edges of the first graph that every other graph also has (within
    0.01); the cells are found again from what is left, numbered as found.

    Example: `(board (intersect {(hex 7) (shift -5.20 0 (hex Rectangle 7 14))}))` is
    Pentalath's half hexagon.
    """

    def validate(self):
        self.refuse("connect", why="connect: on (intersect ...)")

    def build(self, site_type: str) -> PlanarGraph:
        graphs = [p.build(site_type) for p in self.parts()]
        first = graphs[0]
        if len(graphs) == 1:
            return first

        def near(p, q) -> bool:
            return abs(p.x - q.x) + abs(p.y - q.y) + abs(p.z - q.z) < 0.01

        def same_edge(e, f) -> bool:
            return (near(e.a, f.a) and near(e.b, f.b)) or (near(e.a, f.b) and near(e.b, f.a))

        vertices = [v for v in first.vertices
                    if all(any(near(v, w) for w in other.vertices) for other in graphs[1:])]
        edges = [e for e in first.edges
                 if all(any(same_edge(e, f) for f in other.edges) for other in graphs[1:])]
        g = PlanarGraph()
        index = {}
        for v in vertices:
            index[v.id] = g.add_vertex(v.x, v.y, v.z)
        for e in edges:
            if e.a.id in index and e.b.id in index:
                g.find_or_add_edge(index[e.a.id], index[e.b.id])
        g.assemble()
        return g


@ludeme("union")
class Union(Combined):
    """Put graphs side by side without fusing anything (faces kept).

    Example: `(board (union (square 2) (shift 3 0 (square 2))))`.
    """

    def build(self, site_type: str) -> PlanarGraph:
        parts = [p.build(site_type) for p in self.parts()]
        g = parts[0]
        for other in parts[1:]:
            g.vertices.extend(other.vertices)
            g.edges.extend(other.edges)
            g.faces.extend(other.faces)
            g.synchronise_ids()
        g.moved()
        if self.connect:
            connect_close_vertices(g)
            g.make_faces(True)
        return g


@ludeme("remove")
class Remove(GraphFn):
    """Remove cells, edges or vertices, by index or by position.

    Example: `(board (remove (square 3) cells:{4}))` is a 3x3 board with a hole.
    """

    params = (P("graph", GraphFn),
              P("cells", (Indices, Polygons), opt=True, named=True),
              P("edges", (IndexRows, Polygons), opt=True, named=True),
              P("vertices", (Indices, Points), opt=True, named=True),
              P("trimEdges", LitBool, opt=True, named=True, default=True))

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        trim_edges = self.trimEdges
        if self.cells:
            items = self.cells
            if not isinstance(items[0], int):
                for pts in items:
                    vs = [g.find_vertex(p[0], p[1], p[2] if len(p) > 2 else 0.0) for p in pts]
                    ids = [v.id if v else -1 for v in vs]
                    face = next((f for f in g.faces if f.matches(ids)), None)
                    if face is not None:
                        g.remove_face(face, trim_edges)
            else:
                for i in sorted(items, reverse=True):
                    if 0 <= i < len(g.faces):
                        g.remove_face(g.faces[i], trim_edges)
        if self.edges:
            items = self.edges
            for pair in items:
                if not isinstance(pair[0], int):
                    a = g.find_vertex(*pair[0][:2])
                    b = g.find_vertex(*pair[1][:2])
                else:
                    if len(pair) != 2:
                        raise self.fail(f"an edge to remove is {{a b}}, not {pair}")
                    a = g.vertices[pair[0]] if 0 <= pair[0] < len(g.vertices) else None
                    b = g.vertices[pair[1]] if 0 <= pair[1] < len(g.vertices) else None
                e = a.edge_to(b) if a and b else None
                if e is not None:
                    g.remove_edge(e)
        if self.vertices:
            items = self.vertices
            if not isinstance(items[0], int):
                for p in items:
                    v = g.find_vertex(p[0], p[1], p[2] if len(p) > 2 else 0.0)
                    if v is not None:
                        g.remove_vertex(v)
            else:
                for i in sorted(items, reverse=True):
                    if 0 <= i < len(g.vertices):
                        g.remove_vertex(g.vertices[i])
        return g


@ludeme("add")
class Add(GraphFn):
    """Add vertices, edges and cells, by position or by vertex index.

    Example: `(board (add (square 2) vertices:{{0.5 2.5}}) use:Vertex)`.
    """

    params = (P("graph", GraphFn, opt=True),
              P("vertices", Points, opt=True, named=True),
              P("edges", (IndexRows, Polygons), opt=True, named=True),
              P("edgesCurved", Polygons, opt=True, named=True),
              P("cells", (IndexRows, Polygons), opt=True, named=True),
              P("connect", LitBool, opt=True, named=True, default=False))

    def validate(self):
        self.refuse("edgesCurved", why="curved edges")

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type) if self.graph is not None else PlanarGraph()
        new = []
        for p in self.vertices or ():
            z = p[2] if len(p) > 2 else 0.0
            if g.find_vertex(p[0], p[1], z) is None:
                new.append(g.add_vertex(float(p[0]), float(p[1]), float(z)))

        def at(p):
            z = p[2] if len(p) > 2 else 0.0
            return g.find_vertex(p[0], p[1], z) or g.add_vertex(float(p[0]), float(p[1]), float(z))

        index_edges = []
        if self.edges:
            items = self.edges
            if not isinstance(items[0][0], int):
                for segment in items:
                    if len(segment) != 2:
                        raise self.fail("an edge to add is {{x y} {x y}}")
                    g.find_or_add_edge(at(segment[0]), at(segment[1]))
            else:
                index_edges = items
        index_cells = []
        if self.cells:
            items = self.cells
            if not isinstance(items[0][0], int):
                for pts in items:
                    vs = [at(p) for p in pts]
                    for i, v in enumerate(vs):
                        g.find_or_add_edge(v, vs[(i + 1) % len(vs)])
                    if not any(f.matches([v.id for v in vs]) for f in g.faces):
                        g.add_face(vs)
            else:
                index_cells = items
        for pair in index_edges:
            if len(pair) != 2:
                raise self.fail(f"an edge to add is {{a b}}, not {pair}")
            a, b = pair
            if a < len(g.vertices) and b < len(g.vertices):
                g.find_or_add_edge(g.vertices[a], g.vertices[b])
        for ids in index_cells:
            if len(ids) >= 3 and all(i < len(g.vertices) for i in ids) \
                    and not any(f.matches(ids) for f in g.faces):
                self.joined(g, ids)
                g.add_face([g.vertices[i] for i in ids])
        if self.connect:
            connect_close_vertices(g, new)
        return g

    def joined(self, g: PlanarGraph, ids) -> None:
        """Refuse a cell given by its vertices' indices whose vertices are not joined by an
        edge each to the next. Ludii warns and does not add it, but the edges met before
        the gap are left bordering it, a cell the board does not have (the site tables
        then meet a cell with no place: `(add (square 3) cells:{{0 1 2}})`)."""
        for i, a in enumerate(ids):
            b = ids[(i + 1) % len(ids)]
            if g.vertices[a].edge_to(g.vertices[b]) is None:
                node = argument_node(self, "cells")
                raise LudemeError(
                    f"the cell {{{' '.join(map(str, ids))}}} to add has no edge from vertex "
                    f"{a} to vertex {b}: a cell's vertices are each joined to the next",
                    node.pos, path=self.path, via=node.via)


@ludeme("complete")
class Complete(GraphFn):
    """Join every two points of a graph (its edges and cells are made again, edges crossing
    others not followed), or with `eachCell:True` every two corners of each cell (its cells
    kept; the new edges come after the old ones, cell by cell, corner pairs in the cell's
    order). The result has no basis (Ludii's Complete).

    Example: `(board (complete (hex 1)) use:Vertex)` is 6 points joined by 15 edges;
    `(board (complete (hex 3) eachCell:True))` adds each hexagon's 9 diagonals to its 72
    edges, so 243.
    """

    params = (P("graph", GraphFn), P("eachCell", LitBool, opt=True, named=True, default=False))

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        if self.eachCell:
            for face in list(g.faces):
                corners = face.vertices
                for i, a in enumerate(corners):
                    for b in corners[i + 1:]:
                        g.find_or_add_edge(a, b)
        else:
            g.clear_faces()
            g.edges.clear()
            for v in g.vertices:
                v.edges.clear()
            for i, a in enumerate(g.vertices):
                for b in g.vertices[i + 1:]:
                    g.find_or_add_edge(a, b)
            g.make_faces(True)
        g.basis = None
        return g


# ---------------------------------------------------------------- cutting by a polygon

@ludeme("poly")
class Poly(Other):
    """A polygon given by its corners, for cutting a graph: `(poly {{0 0} {4 0} {4 4}})`.

    Example: `(board (hole (square 4) (poly {{1 1} {1 3} {3 3} {3 1}})))` is a 4x4 board
    without its 4 middle cells.
    """

    params = (P("points", Points),)

    def outline(self) -> list[tuple[float, float]]:
        """The corners as Ludii holds them (Java floats), at least three."""
        if len(self.points) < 3:
            raise self.fail(f"a polygon needs at least 3 corners, not {len(self.points)}")
        return [(f32(p[0]), f32(p[1])) for p in self.points]


@ludeme("hole")
class Hole(GraphFn):
    """Cut the cells whose centres lie inside a polygon (and edges and points left bare).

    Example: `(board (hole (rectangle 3 8) (poly {{4 0} {4 1} {6 1} {6 0}})))` has 22 cells.
    """

    params = (P("graph", GraphFn), P("poly", "Poly"))

    def build(self, site_type: str) -> PlanarGraph:
        outline = inflate(self.poly.outline(), 0.1)
        g = self.graph.build(site_type)
        for face in list(reversed(g.faces)):
            if contains(outline, face.x, face.y):
                g.remove_face(face, True)
        return g


@ludeme("keep")
class Keep(GraphFn):
    """Keep the points inside a polygon and the edges between them; cells are found again.

    Example: `(board (keep (square 4) (poly {{1 1} {1 3} {3 3} {3 1}})))` keeps the 9
    middle points of the 5x5 grid, so the 4 middle cells. As in Ludii, the polygon is
    "inflated" by 0.1 along its corners' bisectors: outwards when its corners are given
    clockwise, inwards when anticlockwise.
    """

    params = (P("graph", GraphFn), P("poly", "Poly"))

    def build(self, site_type: str) -> PlanarGraph:
        source = self.graph.build(site_type)
        g = cut_by_polygon(source, self.poly, inside=True)
        g.basis, g.shape = source.basis, None
        return g


@ludeme("clip")
class Clip(GraphFn):
    """Clip a polygon out of a graph: the points inside it go, with their edges; the points
    left keep their order and the cells are found again (Ludii's Clip, Keep's converse,
    with the polygon inflated the same way). The result has no basis or shape.

    Example: `(board (clip (square 4) (poly {{1.5 1.5} {1.5 2.5} {2.5 2.5} {2.5 1.5}})))`
    takes the middle point of the 5x5 grid away: its 4 cells become one of 8 sides, so 24
    points and 13 cells are left.
    """

    params = (P("graph", GraphFn), P("poly", "Poly"))

    def build(self, site_type: str) -> PlanarGraph:
        g = cut_by_polygon(self.graph.build(site_type), self.poly, inside=False)
        g.basis, g.shape = None, None
        return g


def cut_by_polygon(source: PlanarGraph, poly: Poly, inside: bool) -> PlanarGraph:
    """A new graph of the points of `source` inside the polygon (or outside, not `inside`)
    inflated by 0.1, in their order, and the edges between them; the cells found again, as
    Ludii's Graph(vertices, edges) constructor finds them."""
    outline = inflate(poly.outline(), 0.1)
    g = PlanarGraph()
    kept = {}
    for v in source.vertices:
        if contains(outline, v.x, v.y) == inside:
            kept[v.id] = g.add_vertex(v.x, v.y, v.z)
    for e in source.edges:
        if e.a.id in kept and e.b.id in kept:
            g.add_edge(kept[e.a.id], kept[e.b.id])
    g.assemble()
    return g


# ---------------------------------------------------------------- renumbering and tidying

@ludeme("renumber")
class Renumber(GraphFn):
    """Number a graph's sites again, bottom row first (all site types, or those given).

    Example: `(board (renumber (rotate 90 (square 3))))` numbers the rotated board's cells
    from the bottom left again.
    """

    params = (P("siteTypeA", SiteType, opt=True), P("siteTypeB", SiteType, opt=True),
              P("siteTypeC", SiteType, opt=True), P("graph", GraphFn))

    def build(self, site_type: str) -> PlanarGraph:
        kinds = [k for k in (self.siteTypeA, self.siteTypeB, self.siteTypeC) if k is not None]
        g = self.graph.build(site_type)
        g.reorder([k for k in ("Vertex", "Edge", "Cell") if k in kinds] if kinds
                  else ("Vertex", "Edge", "Cell"))
        return g


@ludeme("recoordinate")
class Recoordinate(GraphFn):
    """The graph as it is: Ludii's Recoordinate reads its site types but changes nothing
    (its body is commented out in Ludii 1.3), so the coordinates stay those the board's
    measure gives.

    Example: `(board (recoordinate Vertex (merge (rectangle 2 5) (square 5))))` is the
    same board as `(board (merge (rectangle 2 5) (square 5)))`.
    """

    params = (P("siteTypeA", SiteType, opt=True), P("siteTypeB", SiteType, opt=True),
              P("siteTypeC", SiteType, opt=True), P("graph", GraphFn))

    def build(self, site_type: str) -> PlanarGraph:
        # read, as Ludii reads them, to no effect
        _ = (self.siteTypeA, self.siteTypeB, self.siteTypeC)
        return self.graph.build(site_type)


@ludeme("makeFaces")
class MakeFaces(GraphFn):
    """Find a graph's cells again from its edges (edges crossing others are not followed).

    Example: `(board (makeFaces (graph vertices:{{0 0} {1 0} {1 1} {0 1}}
    edges:{{0 1} {1 2} {2 3} {3 0}})))` has 1 cell.
    """

    params = (P("graph", GraphFn),)

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        g.make_faces(True)
        return g


@ludeme("trim")
class Trim(GraphFn):
    """Remove dangling edges (an end with no other edge) and then points with no edge.

    Example: `(board (trim (add (square 2) edges:{{{2 2} {3 3}}})) use:Vertex)` is the 4
    points of `(square 2)` again.
    """

    params = (P("graph", GraphFn),)

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        for e in list(reversed(g.edges)):
            if len(e.a.edges) == 1 or len(e.b.edges) == 1:
                g.remove_edge(e)
        for v in list(reversed(g.vertices)):
            if not v.edges:
                g.remove_vertex(v)
        return g
