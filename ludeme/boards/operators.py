"""Graph operators: rotate, shift, scale, merge, union, remove, add.

Transformations keep the numbering of the graph they change (Ludii numbers a
board before rotating it); merge and union number the parts in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..syntax import Array
from .base import Args, GraphLudeme, int_list, number_rows
from .geometry import PlanarGraph, distance


@dataclass
class Rotate(GraphLudeme, keyword="rotate"):
    """Rotate a graph counter-clockwise about its centre, keeping its numbers.

    Example: `(board (rotate 90 (hex 5)))` is Yavalath's board.
    """

    degrees: float
    graph: GraphLudeme

    @classmethod
    def parse(cls, args: Args) -> "Rotate":
        return cls(args.number(), args.graph())

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        if g.vertices:
            g.rotate(self.degrees)
        return g


@dataclass
class Shift(GraphLudeme, keyword="shift"):
    """Translate a graph.

    Example: `(board (shift 0.5 0 (square 4)))`.
    """

    dx: float
    dy: float
    dz: float
    graph: GraphLudeme

    @classmethod
    def parse(cls, args: Args) -> "Shift":
        dx, dy = args.number(), args.number()
        dz = args.number(optional=True) or 0.0
        return cls(dx, dy, dz, args.graph())

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        if g.vertices:
            g.translate(self.dx, self.dy, self.dz)
        return g


@dataclass
class Scale(GraphLudeme, keyword="scale"):
    """Scale a graph about the origin (one factor, or x and y factors).

    Example: `(board (scale 1 2 (square 4)))`.
    """

    sx: float
    sy: float | None
    sz: float | None
    graph: GraphLudeme

    @classmethod
    def parse(cls, args: Args) -> "Scale":
        sx = args.number()
        sy = args.number(optional=True)
        sz = args.number(optional=True)
        return cls(sx, sy, sz, args.graph())

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        if g.vertices:
            g.scale(self.sx, self.sx if self.sy is None else self.sy, 1.0 if self.sz is None else self.sz)
        return g


def connect_close_vertices(g: PlanarGraph, new_vertices=None) -> None:
    """Join vertices closer than 1.1 average edge lengths (the `connect:True` option)."""
    threshold = 1.1 * g.average_edge_length()
    for a in (new_vertices if new_vertices is not None else g.vertices):
        for b in g.vertices:
            if a is not b and distance(a.x, a.y, b.x, b.y) < threshold:
                g.find_or_add_edge(a, b)


@dataclass
class Merge(GraphLudeme, keyword="merge"):
    """Merge graphs, fusing coincident vertices; numbered in the order of the parts.

    Example: `(board (merge (square 2) (shift 2 0 (square 2))) use:Vertex)`.
    """

    graphs: list
    connect: bool = False

    @classmethod
    def parse(cls, args: Args) -> "Merge":
        return cls(args.graphs(), bool(args.named_bool("connect", False)))

    def build(self, site_type: str) -> PlanarGraph:
        points: list[list[float]] = []
        pairs: list[list[int]] = []
        for part in self.graphs:
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


@dataclass
class Union(GraphLudeme, keyword="union"):
    """Put graphs side by side without fusing anything (faces kept).

    Example: `(board (union (square 2) (shift 3 0 (square 2))))`.
    """

    graphs: list
    connect: bool = False

    @classmethod
    def parse(cls, args: Args) -> "Union":
        return cls(args.graphs(), bool(args.named_bool("connect", False)))

    def build(self, site_type: str) -> PlanarGraph:
        parts = [p.build(site_type) for p in self.graphs]
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


def _depth(node) -> int:
    """How deeply `{...}` arrays nest at the start of `node`."""
    d = 0
    while isinstance(node, Array) and node.items:
        d += 1
        node = node.items[0]
    return d


@dataclass
class Remove(GraphLudeme, keyword="remove"):
    """Remove cells, edges or vertices, by index or by position.

    Example: `(board (remove (square 3) cells:{4}))` is a 3x3 board with a hole.
    """

    graph: GraphLudeme
    cells: list = field(default_factory=list)         # indices, or lists of corner points
    edges: list = field(default_factory=list)         # vertex index pairs, or point pairs
    vertices: list = field(default_factory=list)      # indices, or points
    trim_edges: bool = True

    @classmethod
    def parse(cls, args: Args) -> "Remove":
        g = args.graph()
        out = cls(g, trim_edges=bool(args.named_bool("trimEdges", True)))
        for key, index_depth in (("cells", 1), ("edges", 2), ("vertices", 1)):
            node = args.named(key)
            if node is None:
                continue
            if _depth(node) == index_depth:
                value = int_list(node, args.path) if index_depth == 1 else number_rows(node, args.path)
                setattr(out, key, ("indices", value))
            elif key == "vertices":
                setattr(out, key, ("positions", number_rows(node, args.path)))
            else:
                setattr(out, key, ("positions", [number_rows(n, args.path) for n in node.items]))
        return out

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type)
        if self.cells:
            how, items = self.cells
            if how == "positions":
                for pts in items:
                    vs = [g.find_vertex(p[0], p[1], p[2] if len(p) > 2 else 0.0) for p in pts]
                    ids = [v.id if v else -1 for v in vs]
                    face = next((f for f in g.faces if f.matches(ids)), None)
                    if face is not None:
                        g.remove_face(face, self.trim_edges)
            else:
                for i in sorted(items, reverse=True):
                    if 0 <= i < len(g.faces):
                        g.remove_face(g.faces[i], self.trim_edges)
        if self.edges:
            how, items = self.edges
            for pair in items:
                if how == "positions":
                    a = g.find_vertex(*pair[0][:2])
                    b = g.find_vertex(*pair[1][:2])
                else:
                    a = g.vertices[pair[0]] if 0 <= pair[0] < len(g.vertices) else None
                    b = g.vertices[pair[1]] if 0 <= pair[1] < len(g.vertices) else None
                e = a.edge_to(b) if a and b else None
                if e is not None:
                    g.remove_edge(e)
        if self.vertices:
            how, items = self.vertices
            if how == "positions":
                for p in items:
                    v = g.find_vertex(p[0], p[1], p[2] if len(p) > 2 else 0.0)
                    if v is not None:
                        g.remove_vertex(v)
            else:
                for i in sorted(items, reverse=True):
                    if 0 <= i < len(g.vertices):
                        g.remove_vertex(g.vertices[i])
        return g


@dataclass
class Add(GraphLudeme, keyword="add"):
    """Add vertices, edges and cells, by position or by vertex index.

    Example: `(board (add (square 2) vertices:{{0.5 2.5}}) use:Vertex)`.
    """

    graph: GraphLudeme | None
    vertices: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    cells: list = field(default_factory=list)
    connect: bool = False

    @classmethod
    def parse(cls, args: Args) -> "Add":
        g = args.graph() if args.peek() is not None else None
        out = cls(g, connect=bool(args.named_bool("connect", False)))
        if args.named("edgesCurved") is not None:
            raise args.error("curved edges are not supported yet", args.named("edgesCurved"))
        node = args.named("vertices")
        if node is not None:
            out.vertices = number_rows(node, args.path)
        for key in ("edges", "cells"):
            node = args.named(key)
            if node is None:
                continue
            if _depth(node) == 3:
                setattr(out, key, ("positions", [number_rows(n, args.path) for n in node.items]))
            else:
                setattr(out, key, ("indices", number_rows(node, args.path)))
        return out

    def build(self, site_type: str) -> PlanarGraph:
        g = self.graph.build(site_type) if self.graph is not None else PlanarGraph()
        new = []
        for p in self.vertices:
            z = p[2] if len(p) > 2 else 0.0
            if g.find_vertex(p[0], p[1], z) is None:
                new.append(g.add_vertex(float(p[0]), float(p[1]), float(z)))

        def at(p):
            z = p[2] if len(p) > 2 else 0.0
            return g.find_vertex(p[0], p[1], z) or g.add_vertex(float(p[0]), float(p[1]), float(z))

        index_edges = []
        if self.edges:
            how, items = self.edges
            if how == "positions":
                for a, b in items:
                    g.find_or_add_edge(at(a), at(b))
            else:
                index_edges = items
        index_cells = []
        if self.cells:
            how, items = self.cells
            if how == "positions":
                for pts in items:
                    vs = [at(p) for p in pts]
                    for i, v in enumerate(vs):
                        g.find_or_add_edge(v, vs[(i + 1) % len(vs)])
                    if not any(f.matches([v.id for v in vs]) for f in g.faces):
                        g.add_face(vs)
            else:
                index_cells = items
        for a, b in index_edges:
            if a < len(g.vertices) and b < len(g.vertices):
                g.find_or_add_edge(g.vertices[a], g.vertices[b])
        for ids in index_cells:
            if len(ids) >= 3 and all(i < len(g.vertices) for i in ids) \
                    and not any(f.matches(ids) for f in g.faces):
                g.add_face([g.vertices[i] for i in ids])
        if self.connect:
            connect_close_vertices(g, new)
        return g
