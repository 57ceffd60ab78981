"""The planar graph every board is built on, with Ludii's ordering rules.

A board is a set of vertices joined by edges; faces (cells) are the smallest
clockwise cycles. Ludii numbers every element by where it was created and then
by `reorder` (bottom row first, left to right), and many later decisions
(which face a walk finds first, which neighbour a tie goes to) follow list
order. This module keeps those orders exactly, so the numbers agree with
Ludii's, while the rest of the package only sees plain lists.

Coordinates are doubles, y grows upward; `f32` rounds a value the way Ludii
does when a graph is built from a vertex list of Java floats.
"""

from __future__ import annotations

import gc
import math
import struct
from contextlib import contextmanager

import numpy as np

EPSILON = 1e-7       # Ludii's MathRoutines.EPSILON
TOLERANCE = 0.001    # coincidence tolerance of Graph.findVertex (L1 distance)

VERTEX, EDGE, CELL = "Vertex", "Edge", "Cell"
SITE_TYPES = (VERTEX, EDGE, CELL)     # Ludii's SiteType order


def f32(value: float) -> float:
    """`value` rounded to a Java float and widened back to a double."""
    return struct.unpack("f", struct.pack("f", value))[0]


# ---------------------------------------------------------------- plane maths

def distance(ax: float, ay: float, bx: float, by: float) -> float:
    """Euclidean distance between two points."""
    dx, dy = bx - ax, by - ay
    return math.sqrt(dx * dx + dy * dy)


def distance_to_line(px, py, ax, ay, bx, by) -> float:
    """Distance from point p to the infinite line through a and b (to a when a == b)."""
    dx, dy = bx - ax, by - ay
    if abs(dx) + abs(dy) < EPSILON:
        return distance(px, py, ax, ay)
    a2 = (py - ay) * dx - (px - ax) * dy
    return math.sqrt(a2 * a2 / (dx * dx + dy * dy))


def clockwise(ax, ay, bx, by, cx, cy) -> bool:
    """Whether a, b, c turn clockwise (collinear counts as clockwise, as in Ludii)."""
    return (bx - ax) * (cy - ay) - (cx - ax) * (by - ay) < EPSILON


def polygon_area(points) -> float:
    """Signed area of a polygon given as (x, y) pairs; positive when counter-clockwise."""
    area = 0.0
    n = len(points)
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        area += x0 * y1 - x1 * y0
    return area / 2.0


def point_in_polygon(x: float, y: float, polygon) -> bool:
    """Even-odd test of (x, y) against a polygon of (x, y) pairs."""
    odd = False
    j = len(polygon) - 1
    for i in range(len(polygon)):
        ix, iy = polygon[i]
        jx, jy = polygon[j]
        if ((iy < y <= jy) or (jy < y <= iy)) and (ix <= x or jx <= x):
            odd ^= ix + (y - iy) / (jy - iy) * (jx - ix) < x
        j = i
    return odd


@contextmanager
def gc_paused():
    """Python's cyclic garbage collector off while a board is built: building makes
    hundreds of thousands of objects that all live on, and each full collection would
    walk them all again (a quarter of the time of a big board)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def points_in_polygon(xs, ys, polygon) -> "np.ndarray":
    """`point_in_polygon` of many points at once (numpy arrays xs, ys): the same even-odd
    test, the same floating-point operations, one pass over the polygon's edges."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    odd = np.zeros(xs.shape, dtype=bool)
    j = len(polygon) - 1
    for i in range(len(polygon)):
        ix, iy = polygon[i]
        jx, jy = polygon[j]
        j = i
        if iy == jy:            # a level edge crosses no ray: (iy < y <= jy) never holds
            continue
        crossing = (((iy < ys) & (ys <= jy)) | ((jy < ys) & (ys <= iy))) & ((ix <= xs) | (jx <= xs))
        if crossing.any():
            odd ^= crossing & (ix + (ys - iy) / (jy - iy) * (jx - ix) < xs)
    return odd


def abs_tan_turn(ax, ay, bx, by, cx, cy) -> float:
    """|tan| of the turn a->b->c, or infinity when c does not lie ahead of b."""
    vx, vy = bx - ax, by - ay
    ux, uy = cx - bx, cy - by
    dot = ux * vx + uy * vy
    if dot <= 0.0:
        return math.inf
    return abs((ux * -vy + uy * vx) / dot)


def positive_angle(angle: float) -> float:
    """`angle` brought into [0, 2 pi] (Ludii's loop, not a modulo: 2 pi stays 2 pi)."""
    while angle < 0:
        angle += 2 * math.pi
    while angle > 2 * math.pi:
        angle -= 2 * math.pi
    return angle


def clockwise_score(fx, fy, tx, ty) -> float:
    """Sort key of Ludii's step and radial lists: clockwise angle from north."""
    score = math.pi / 2 - math.atan2(ty - fy, tx - fx) + 0.0001
    while score < 0:
        score += 2 * math.pi
    return score


# ---------------------------------------------------------------- elements

class Element:
    """A vertex, edge or face: id, position, property bits and grid situation."""

    __slots__ = ("id", "x", "y", "z", "props", "row", "col", "layer", "label")
    kind = ""

    def __init__(self, id_: int, x: float = 0.0, y: float = 0.0, z: float = 0.0):
        self.id = id_
        self.x, self.y, self.z = x, y, z
        self.props = 0
        self.row = self.col = -1
        self.layer = 0
        self.label = "?"

    def __repr__(self) -> str:
        return f"{self.kind}{self.id}({self.x:.3f},{self.y:.3f})"


class Vertex(Element):
    """A point; `edges` are kept sorted by angle around it, as Ludii does."""

    __slots__ = ("edges", "faces", "pivot")
    kind = VERTEX

    def __init__(self, id_, x, y, z=0.0):
        super().__init__(id_, x, y, z)
        self.edges: list[Edge] = []
        self.faces: list[Face] = []
        self.pivot: Vertex | None = None    # Ludii's pivot: the centre of a circular board

    def sort_edges(self) -> None:
        """Order incident edges counter-clockwise from -pi (stable on ties)."""
        self.edges.sort(key=lambda e: math.atan2(e.other(self).y - self.y, e.other(self).x - self.x))

    def sort_faces(self) -> None:
        """Order incident faces counter-clockwise from -pi (stable on ties)."""
        self.faces.sort(key=lambda f: math.atan2(f.y - self.y, f.x - self.x))

    def edges_after(self, edge: "Edge") -> list["Edge"]:
        """The other edges in counter-clockwise order, starting after `edge` (a walk's turns)."""
        n = self.edges.index(edge)
        num = len(self.edges)
        return [self.edges[(n + m) % num] for m in range(1, num)]

    def edge_to(self, other: "Vertex") -> "Edge | None":
        """The edge joining this vertex to `other`, if any."""
        for e in self.edges:
            if e.other(self) is other:
                return e
        return None

    def neighbours(self) -> list:
        """Vertices joined by an edge, in edge order (Ludii's `nbors`)."""
        return [e.other(self) for e in self.edges]


class Edge(Element):
    """A segment between two vertices; `left`/`right` are the faces on each side."""

    __slots__ = ("a", "b", "left", "right", "curved")
    kind = EDGE

    def __init__(self, id_, a: Vertex, b: Vertex):
        super().__init__(id_)
        self.a, self.b = a, b
        self.left: Face | None = None
        self.right: Face | None = None
        self.curved = False     # Ludii's edge with tangents (an arc of a circular board)
        self.set_midpoint()

    def set_midpoint(self) -> None:
        """Place the edge at the midpoint of its ends."""
        a, b = self.a, self.b
        self.x, self.y, self.z = (a.x + b.x) * 0.5, (a.y + b.y) * 0.5, (a.z + b.z) * 0.5

    def other(self, v: Vertex) -> Vertex:
        """The end that is not `v`."""
        return self.b if self.a is v else self.a

    def other_face(self, f: "Face") -> "Face | None":
        """The face on the other side from `f`."""
        if self.left is f:
            return self.right
        if self.right is f:
            return self.left
        return None

    def neighbours(self) -> list:
        """Edges sharing an end, end A first (Ludii's `nbors`)."""
        return [e for e in self.a.edges if e is not self] + [e for e in self.b.edges if e is not self]


class Face(Element):
    """A cell: its vertices and edges in walk order; placed at the mean of its vertices."""

    __slots__ = ("vertices", "edges")
    kind = CELL

    def __init__(self, id_):
        super().__init__(id_)
        self.vertices: list[Vertex] = []
        self.edges: list[Edge] = []

    def set_midpoint(self) -> None:
        """Place the face at the mean of its vertices."""
        n = len(self.vertices)
        if not n:
            self.x = self.y = self.z = 0.0
            return
        xx = yy = zz = 0.0
        for v in self.vertices:
            xx += v.x
            yy += v.y
            zz += v.z
        self.x, self.y, self.z = xx / n, yy / n, zz / n

    def neighbours(self) -> list:
        """Faces across each edge, in edge order (Ludii's `nbors`)."""
        return [o for o in (e.other_face(self) for e in self.edges) if o is not None]

    def matches(self, vids) -> bool:
        """Whether this face has the vertex ids `vids` in cyclic order, either way round."""
        ids = [v.id for v in self.vertices]
        n = len(ids)
        if len(vids) != n or vids[0] not in ids:
            return False
        s = ids.index(vids[0])
        return (all(ids[(s + k) % n] == vids[k] for k in range(n))
                or all(ids[(s - k) % n] == vids[k] for k in range(n)))


def cycle_key(ids) -> tuple:
    """A key equal for the same cycle of ids read from any start, either way round."""
    n = len(ids)
    s = ids.index(min(ids))
    fwd = tuple(ids[(s + k) % n] for k in range(n))
    back = tuple(ids[(s - k) % n] for k in range(n))
    return min(fwd, back)


# ---------------------------------------------------------------- the graph

# Largest board graph built, in vertices, edges and cells together: a hexagon of side 60
# (64,441) builds in about five seconds; a hexagon of side 100 (179,401) would take half a
# minute, and a star of side 100 (366,013) a minute before its first step.
MAX_ELEMENTS = 65_536


class BoardTooLarge(ValueError):
    """A board graph over MAX_ELEMENTS (the board ludeme turns it into a positioned error)."""

    def __init__(self, vertices: int, edges: int, faces: int):
        counts = f"{vertices:,} vertices and {edges:,} edges"
        if faces:
            counts = f"{vertices:,} vertices, {edges:,} edges and {faces:,} cells"
        super().__init__(f"this board has {counts} ({vertices + edges + faces:,} together); "
                         f"ludeme builds boards of at most {MAX_ELEMENTS:,} together "
                         "(a hexagon of side 60, a 100 x 100 square)")


class EdgeCrossings:
    """Which segments between vertices cross a list of edges (that does not change while
    asked): Ludii's Graph.isEdgeCrossing, with the edges' ends held in arrays and each
    answer kept, since the face walk asks again for every edge of every face."""

    TOLERANCE = 0.001

    def __init__(self, edges) -> None:
        self.ends = np.array([(e.a.x, e.a.y, e.b.x, e.b.y) for e in edges],
                             dtype=np.float64).reshape(-1, 4)
        self.first: dict[tuple[int, int], int] = {}     # the first edge joining two vertices
        for i, e in enumerate(edges):
            self.first.setdefault((id(e.a), id(e.b)), i)
            self.first.setdefault((id(e.b), id(e.a)), i)
        self.known: dict[tuple[int, int], bool] = {}

    def crosses(self, a: Vertex, b: Vertex) -> bool:
        """Whether a-b crosses, away from its ends, an edge listed before the first edge
        joining a and b (every edge when none does)."""
        key = (id(a), id(b))
        answer = self.known.get(key)
        if answer is None:
            answer = self.known[key] = self._crosses(a, b, self.first.get(key, len(self.ends)))
        return answer

    def _crosses(self, a: Vertex, b: Vertex, before: int) -> bool:
        if before == 0:
            return False
        e = self.ends[:before]
        eax, eay, ebx, eby = e[:, 0], e[:, 1], e[:, 2], e[:, 3]
        tol = self.TOLERANCE
        # the same operations, in the same order, as `distance`; then Ludii's segment
        # intersection: parallel segments (|det| < EPSILON) never meet
        near = ((np.sqrt((eax - a.x) ** 2 + (eay - a.y) ** 2) < tol)
                | (np.sqrt((ebx - a.x) ** 2 + (eby - a.y) ** 2) < tol)
                | (np.sqrt((eax - b.x) ** 2 + (eay - b.y) ** 2) < tol)
                | (np.sqrt((ebx - b.x) ** 2 + (eby - b.y) ** 2) < tol))
        xlk, ylk = b.x - a.x, b.y - a.y
        xnm, ynm = ebx - eax, eby - eay
        xmk, ymk = eax - a.x, eay - a.y
        det = xnm * ylk - ynm * xlk
        with np.errstate(divide="ignore", invalid="ignore"):
            inv = 1.0 / det
            s = (xnm * ymk - ynm * xmk) * inv
            t = (xlk * ymk - ylk * xmk) * inv
        hit = ((np.abs(det) >= EPSILON) & (-EPSILON <= s) & (s <= 1 + EPSILON)
               & (-EPSILON <= t) & (t <= 1 + EPSILON) & ~near)
        return bool(hit.any())


class PlanarGraph:
    """Vertices, edges and faces with Ludii's creation and ordering rules."""

    def __init__(self):
        self.vertices: list[Vertex] = []
        self.edges: list[Edge] = []
        self.faces: list[Face] = []
        self.basis: str | None = None     # "Square", "Hexagonal", ... (informative)
        self.shape: str | None = None
        self._grid: dict | None = None    # spatial hash for find_vertex
        self.duplicate_labels: dict[str, bool] = {}   # site type -> two elements share a label

    # -- pickling: flat lists of ids, since the element web is too deep for pickle's recursion
    def __getstate__(self) -> dict:
        def common(el):
            return (el.x, el.y, el.z, el.props, el.row, el.col, el.layer, el.label)

        def fid(f):
            return -1 if f is None else f.id
        return {
            "vertices": [common(v) + ([e.id for e in v.edges], [f.id for f in v.faces])
                         for v in self.vertices],
            "edges": [common(e) + (e.a.id, e.b.id, fid(e.left), fid(e.right)) for e in self.edges],
            "faces": [common(f) + ([v.id for v in f.vertices], [e.id for e in f.edges])
                      for f in self.faces],
            "basis": self.basis, "shape": self.shape, "duplicate_labels": self.duplicate_labels,
        }

    def __setstate__(self, state: dict) -> None:
        def restore(el, row):
            el.x, el.y, el.z, el.props, el.row, el.col, el.layer, el.label = row[:8]
            return el
        self.__init__()
        self.basis, self.shape = state["basis"], state["shape"]
        self.duplicate_labels = state["duplicate_labels"]
        self.vertices = [restore(Vertex(i, 0.0, 0.0), row) for i, row in enumerate(state["vertices"])]
        self.faces = [restore(Face(i), row) for i, row in enumerate(state["faces"])]
        for i, row in enumerate(state["edges"]):
            e = Edge(i, self.vertices[row[8]], self.vertices[row[9]])
            restore(e, row)
            e.left = self.faces[row[10]] if row[10] >= 0 else None
            e.right = self.faces[row[11]] if row[11] >= 0 else None
            self.edges.append(e)
        for v, row in zip(self.vertices, state["vertices"]):
            v.edges = [self.edges[i] for i in row[8]]
            v.faces = [self.faces[i] for i in row[9]]
        for f, row in zip(self.faces, state["faces"]):
            f.vertices = [self.vertices[i] for i in row[8]]
            f.edges = [self.edges[i] for i in row[9]]

    def elements(self, kind: str) -> list:
        """The vertices, edges or faces."""
        return {VERTEX: self.vertices, EDGE: self.edges, CELL: self.faces}[kind]

    # -- vertices
    def add_vertex(self, x: float, y: float, z: float = 0.0) -> Vertex:
        """Append a vertex (no coincidence check)."""
        v = Vertex(len(self.vertices), x, y, z)
        self.vertices.append(v)
        if self._grid is not None:
            self._grid.setdefault(self._cell(x, y), []).append(v)
        return v

    @staticmethod
    def _cell(x: float, y: float) -> tuple[int, int]:
        return (math.floor(x * 100), math.floor(y * 100))

    def find_vertex(self, x: float, y: float, z: float = 0.0, tol: float = TOLERANCE):
        """The first vertex within L1 distance `tol` of (x, y, z), or None."""
        if self._grid is None:
            self._grid = {}
            for v in self.vertices:
                self._grid.setdefault(self._cell(v.x, v.y), []).append(v)
        cx, cy = self._cell(x, y)
        best = None
        for gx in (cx - 1, cx, cx + 1):
            for gy in (cy - 1, cy, cy + 1):
                for v in self._grid.get((gx, gy), ()):
                    if abs(x - v.x) + abs(y - v.y) + abs(z - v.z) < tol and (best is None or v.id < best.id):
                        best = v
        return best

    def find_or_add_vertex(self, x: float, y: float, z: float = 0.0) -> Vertex:
        """The vertex at (x, y, z), created when there is none."""
        return self.find_vertex(x, y, z) or self.add_vertex(x, y, z)

    def moved(self) -> None:
        """Call after changing vertex positions: re-place edges and faces, drop the hash."""
        self._grid = None
        for e in self.edges:
            e.set_midpoint()
        for f in self.faces:
            f.set_midpoint()

    # -- edges
    def add_edge(self, a: Vertex, b: Vertex) -> Edge:
        """Append an edge a-b and keep both ends' edge lists sorted."""
        e = Edge(len(self.edges), a, b)
        self.edges.append(e)
        a.edges.append(e)
        a.sort_edges()
        b.edges.append(e)
        b.sort_edges()
        return e

    def find_or_add_edge(self, a: Vertex, b: Vertex) -> Edge:
        """The edge a-b, created when there is none."""
        return a.edge_to(b) or self.add_edge(a, b)

    def link_edges_to_vertices(self) -> None:
        """Rebuild every vertex's edge list from the edge list, sorted by angle."""
        for v in self.vertices:
            v.edges.clear()
        for e in self.edges:
            e.a.edges.append(e)
            e.b.edges.append(e)
        for v in self.vertices:
            v.sort_edges()

    # -- faces
    def clear_faces(self) -> None:
        """Forget every face."""
        for e in self.edges:
            e.left = e.right = None
        for v in self.vertices:
            v.faces.clear()
        self.faces.clear()

    def add_face(self, verts: list[Vertex]) -> Face | None:
        """Append the face bounded by `verts` (clockwise); None if an edge is missing."""
        face = Face(len(self.faces))
        for i, v in enumerate(verts):
            nxt = verts[(i + 1) % len(verts)]
            e = v.edge_to(nxt)
            if e is None:
                return None
            if e.a is v:
                e.right = face
            else:
                e.left = face
            face.vertices.append(v)
            face.edges.append(e)
        face.set_midpoint()
        for v in face.vertices:
            v.faces.append(face)
        self.faces.append(face)
        return face

    def check_size(self) -> None:
        """BoardTooLarge when the graph has more than MAX_ELEMENTS vertices, edges and faces."""
        if len(self.vertices) + len(self.edges) + len(self.faces) > MAX_ELEMENTS:
            raise BoardTooLarge(len(self.vertices), len(self.edges), len(self.faces))

    def make_faces(self, check_crossings: bool) -> None:
        """Find every clockwise minimal cycle by walking each edge, turning to the next edge."""
        self.check_size()           # before the walk: finding faces is the slowest step
        max_sides = 32
        if self.faces:
            self.clear_faces()
        seen: set[tuple] = set()
        crossings = EdgeCrossings(self.edges) if check_crossings else None
        for start in self.vertices:
            for first in list(start.edges):
                walk = [start]
                vert, edge, closed = start, first, False
                while len(walk) <= max_sides:
                    prev = vert
                    for edge in vert.edges_after(edge):
                        if abs(edge.other(vert).z - start.z) < 0.0001:
                            vert = edge.other(vert)
                            break
                    else:
                        break
                    if vert is start:
                        closed = True
                        break
                    if vert in walk:
                        break
                    walk.append(vert)
                    if crossings is not None and crossings.crosses(prev, vert):
                        break
                if closed and len(walk) >= 3 and polygon_area([(v.x, v.y) for v in walk]) < 0:
                    key = cycle_key([v.id for v in walk])
                    if key not in seen:
                        seen.add(key)
                        self.add_face(walk)

    def link_faces_to_vertices(self) -> None:
        """Rebuild every vertex's face list, sorted by angle."""
        for v in self.vertices:
            v.faces.clear()
        for f in self.faces:
            for v in f.vertices:
                v.faces.append(f)
        for v in self.vertices:
            v.sort_faces()

    def assemble(self) -> None:
        """Ludii's Graph(vertices, edges) constructor: link edges, make faces, link faces."""
        self.link_edges_to_vertices()
        self.make_faces(False)
        self.link_faces_to_vertices()

    # -- numbering
    def reorder(self, kinds=(VERTEX, EDGE, CELL)) -> None:
        """Renumber vertices, edges and faces (or those of `kinds`) bottom row first, left to
        right (score y*100+x)."""
        for kind in kinds:
            items = self.elements(kind)
            items.sort(key=lambda el: el.y * 100 + el.x)
            for i, el in enumerate(items):
                el.id = i

    def synchronise_ids(self) -> None:
        """Make every id equal its list position."""
        for items in (self.vertices, self.edges, self.faces):
            for i, el in enumerate(items):
                el.id = i

    # -- transformations
    def bounds(self, items=None) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the given elements (vertices by default)."""
        items = self.vertices if items is None else items
        return bounds(items)

    def rotate(self, degrees: float) -> None:
        """Rotate counter-clockwise about the centre of the vertices' bounding box."""
        theta = math.radians(degrees)
        bx, by, bw, bh = self.bounds()
        px, py = bx + bw / 2.0, by + bh / 2.0
        c, s = math.cos(theta), math.sin(theta)
        for v in self.vertices:
            dx, dy = v.x - px, v.y - py
            v.x, v.y = px + dx * c - dy * s, py + dy * c + dx * s
        self.moved()

    def translate(self, dx: float, dy: float, dz: float = 0.0) -> None:
        """Shift every vertex."""
        for v in self.vertices:
            v.x, v.y, v.z = v.x + dx, v.y + dy, v.z + dz
        self.moved()

    def scale(self, sx: float, sy: float, sz: float = 1.0) -> None:
        """Scale every vertex about the origin."""
        for v in self.vertices:
            v.x, v.y, v.z = v.x * sx, v.y * sy, v.z * sz
        self.moved()

    # -- removal (Ludii's Graph.remove*)
    def remove_face(self, face: Face, remove_orphans: bool) -> None:
        """Drop a face; with `remove_orphans`, also the edges left with no face."""
        orphans = []
        for e in face.edges:
            if e.left is face:
                e.left = None
                if remove_orphans and e.right is None:
                    orphans.append(e)
            if e.right is face:
                e.right = None
                if remove_orphans and e.left is None:
                    orphans.append(e)
        for v in face.vertices:
            v.faces[:] = [f for f in v.faces if f is not face]
        self.faces.remove(face)
        self.synchronise_ids()
        for e in sorted(orphans, key=lambda e: -e.id):
            if e in self.edges:
                self.remove_edge(e)

    def remove_edge(self, edge: Edge) -> None:
        """Drop an edge and the faces it bounds."""
        for f in [f for f in self.faces if edge in f.edges][::-1]:
            self.remove_face(f, False)
        for v in (edge.a, edge.b):
            v.edges[:] = [e for e in v.edges if e is not edge]
        self.edges.remove(edge)
        self.synchronise_ids()

    def remove_vertex(self, vertex: Vertex) -> None:
        """Drop a vertex with its edges and faces."""
        doomed = {id(f) for f in self.faces if vertex in f.vertices}
        for e in self.edges:
            if e.left is not None and id(e.left) in doomed:
                e.left = None
            if e.right is not None and id(e.right) in doomed:
                e.right = None
        for v in self.vertices:
            v.faces[:] = [f for f in v.faces if id(f) not in doomed]
        self.faces[:] = [f for f in self.faces if id(f) not in doomed]
        gone = {id(e) for e in vertex.edges}
        for v in self.vertices:
            v.edges[:] = [e for e in v.edges if id(e) not in gone]
        self.edges[:] = [e for e in self.edges if id(e) not in gone]
        self.vertices.remove(vertex)
        self._grid = None
        self.synchronise_ids()

    def average_edge_length(self) -> float:
        """Mean length of the edges (0 without edges)."""
        if not self.edges:
            return 0.0
        total = 0.0
        for e in self.edges:
            total += distance(e.a.x, e.a.y, e.b.x, e.b.y)
        return total / len(self.edges)

    def centroid(self) -> tuple[float, float]:
        """Mean position of the vertices."""
        if not self.vertices:
            return (0.0, 0.0)
        mx = my = 0.0
        for v in self.vertices:
            mx += v.x
            my += v.y
        n = len(self.vertices)
        return (mx / n, my / n)


def bounds(items) -> tuple[float, float, float, float]:
    """(x, y, width, height) of a list of elements; zeros when empty."""
    limit = 1000000.0
    x0 = y0 = limit
    x1 = y1 = -limit
    for el in items:
        x0, x1 = min(x0, el.x), max(x1, el.x)
        y0, y1 = min(y0, el.y), max(y1, el.y)
    if x0 == limit or y0 == limit:
        return (0.0, 0.0, 0.0, 0.0)
    return (x0, y0, x1 - x0, y1 - y0)


def graph_from_points(points, unit: float = 1.0, edges=None, as_float32: bool = True) -> PlanarGraph:
    """Ludii's createGraphFromVertexList: join points `unit` apart, then make faces.

    The points become Java floats (Ludii goes through a Float[][] array); the
    edges are found on the original doubles, in pair order.
    """
    if edges is None:
        edges = []
        cells: dict[tuple[int, int], list[int]] = {}     # unit-wide buckets of point indices
        for i, (x, y) in enumerate(points):
            cells.setdefault((math.floor(x / unit), math.floor(y / unit)), []).append(i)
        for i, (ax, ay) in enumerate(points):
            cx, cy = math.floor(ax / unit), math.floor(ay / unit)
            for j in sorted(j for gx in (cx - 1, cx, cx + 1) for gy in (cy - 1, cy, cy + 1)
                            for j in cells.get((gx, gy), ()) if j > i):
                bx, by = points[j]
                if abs(distance(bx, by, ax, ay) - unit) < 0.01:
                    edges.append((i, j))
    g = PlanarGraph()
    for x, y in points:
        g.add_vertex(f32(x) if as_float32 else x, f32(y) if as_float32 else y)
    for i, j in edges:
        g.find_or_add_edge(g.vertices[i], g.vertices[j])
    g.assemble()
    return g
