"""The built board: per site type, a networkx graph of record and the plain tables derived from it.

`Topology.graph` is the board of one site type as a `networkx.DiGraph`: a node
per site, carrying the site's fields (index, site type, position, row,
column, label, colour phase, the named regions it belongs to), and an edge
a -> b per Ludii step from a to b, carrying its compass `direction` and its
relation kind (`relation`: Orthogonal, Diagonal or OffDiagonal; `relations`:
every relation name the step counts for, Adjacent and All included). Edges are
directed because Ludii's steps need not be symmetric, and each site's out-edges
are kept in Ludii's step order (clockwise from north).

Everything the engine reads (`step`, `neighbours`, `radials`, `regions`, rows,
columns, labels, step distances) is derived from that graph once, when the
board is built (the other site types, a relation's distances and each site's
radials, on first use), into tuples indexed by site, so a playout never touches
the graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import networkx as nx

from ludeme.errors import known_list
from .geometry import SITE_TYPES, PlanarGraph, gc_paused
from .measure import REGION_BITS, SIDES, phase_of
from .trajectories import (BIT, CIRCULAR_MASK, COMPASS_INDEX, ORDINAL, RELATIONS, STEP_NAMES, DirectionRadials,
                           Trajectories, layer_bit, site_steps, trajectories)

_KINDS = ("Orthogonal", "Diagonal", "OffDiagonal")      # an edge's relation kind, in Ludii's order
_SIDE_REGIONS = {f"Side {d}": bit for d, bit in SIDES.items()}
_NAMED_BITS = {**REGION_BITS, **_SIDE_REGIONS}


@dataclass(frozen=True)
class Site:
    """One site: Ludii index, position (y up), row, column, label ("A1") and colour phase."""

    index: int
    x: float
    y: float
    row: int
    col: int
    label: str
    phase: int = 0


def site_graph(planar: PlanarGraph, site_type: str) -> nx.DiGraph:
    """The graph of record for the sites of one type: site fields on nodes, steps as edges."""
    elements = planar.elements(site_type)
    if planar.duplicate_labels.get(site_type):
        _rows_and_columns_by_position(elements)
    g = nx.DiGraph(site_type=site_type)
    regions = {props: frozenset(name for name, bit in _NAMED_BITS.items() if props & bit)
               for props in {el.props for el in elements}}
    g.add_nodes_from((el.id, {
        "index": el.id, "site_type": site_type, "x": el.x, "y": el.y, "row": el.row,
        "col": el.col, "label": el.label, "phase": phase_of(el.props), "layer": el.layer, "z": el.z,
        "regions": regions[el.props]}) for el in elements)
    steps = site_steps(planar, site_type)       # per site, Ludii's steps clockwise from north
    fields = {bits: _edge_fields(bits) for bits in {bits for out in steps for _, bits in out}}
    g.add_edges_from((a, b, fields[bits]) for a, out in enumerate(steps) for b, bits in out)
    return g


def _edge_fields(bits: int) -> dict:
    """A step's direction bits as edge fields: compass name, relation kind, all relations."""
    return {"direction": next(d for d in STEP_NAMES if bits & BIT[d]),
            "relation": next(r for r in _KINDS if bits & BIT[r]),
            "relations": frozenset(r for r in RELATIONS if bits & BIT[r]),
            "circular": bits & CIRCULAR_MASK}


@lru_cache(maxsize=None)
def _step_bits(direction: str, relations: frozenset) -> int:
    """An edge's fields as Ludii's direction bits (what the radial walk and `targets` test)."""
    bits = BIT[direction] | layer_bit(direction)
    for r in relations:
        bits |= BIT[r]
    return bits


# A board of at most this many sites holds its radials and rays as plain tuples, walked all
# at once when first read (the playouts read them in their hot loops); a larger one walks a
# site's when that site is first read, so that it builds in seconds.
EAGER_SITES = 4096


def _by_site(tables: dict, n: int) -> dict:
    """Per-site tables as tuples when the board is small (see EAGER_SITES), else as they are."""
    return tables if n > EAGER_SITES else {d: tuple(t[:]) for d, t in tables.items()}


class Rays(Sequence):
    """Per site, the sites along one direction, start excluded (the first radial's), on demand."""

    def __init__(self, radials: DirectionRadials):
        self._radials = radials

    def __len__(self) -> int:
        return len(self._radials)

    def __getitem__(self, site):
        if isinstance(site, slice):
            return tuple(self[s] for s in range(len(self))[site])
        rs = self._radials[site]
        return rs[0].sites[1:] if rs else ()


class Topology:
    """The graph of record and every table derived from it, for the sites of one type."""

    def __init__(self, planar: PlanarGraph, site_type: str):
        self.site_type = site_type
        self.graph: nx.DiGraph = site_graph(planar, site_type)
        g = self.graph
        nodes = g.nodes
        self.num_sites = g.number_of_nodes()
        self.sites: tuple[Site, ...] = tuple(
            Site(i, n["x"], n["y"], n["row"], n["col"], n["label"], n["phase"])
            for i, n in nodes(data=True))
        n = self.num_sites
        neighbours: dict[str, list[list[int]]] = {rel: [[] for _ in range(n)] for rel in RELATIONS}
        step: dict[str, list[int]] = {}
        used: dict[str, set[str]] = {rel: set() for rel in RELATIONS}   # directions per relation
        for a, out in g.adjacency():            # each site's steps in Ludii's order
            for b, e in out.items():
                for rel in e["relations"]:
                    neighbours[rel][a].append(b)
                    used[rel].add(e["direction"])
                first = step.setdefault(e["direction"], [-1] * n)
                if first[a] < 0:
                    first[a] = b
        self.neighbours: dict[str, tuple[tuple[int, ...], ...]] = {
            rel: tuple(map(tuple, sites)) for rel, sites in neighbours.items()}
        # Ludii's supported directions are compass ones: a step up or down (pyramidal
        # boards) is walked by its own name only, never by turning from another.
        self._relation_dirs = {rel: _ordered(d for d in used[rel] if d in COMPASS_INDEX)
                               for rel in RELATIONS}
        self.directions: tuple[str, ...] = _ordered(used["All"])
        self.step: dict[str, tuple[int, ...]] = {d: tuple(step[d]) for d in self.directions}
        self.trajectories: Trajectories = trajectories(
            [[(b, _step_bits(e["direction"], e["relations"]) | e["circular"]) for b, e in out.items()]
             for _, out in g.adjacency()],
            [(s.x, s.y) for s in self.sites])
        self.rays: dict[str, Rays | tuple] = _by_site(
            {d: Rays(self.radials[d]) for d in self.directions if d in self.radials}, n)
        self.regions: dict[str, tuple[int, ...]] = {
            name: tuple(i for i, inside in nodes(data="regions") if name in inside)
            for name in _NAMED_BITS}
        self._labels = {label: i for i, label in nodes(data="label")}
        self.layers: tuple[int, ...] = tuple(layer for _, layer in nodes(data="layer"))
        self._distance_rings: dict[str, tuple] = {}

    # -- directions
    def relation_dirs(self, relation: str) -> tuple[str, ...]:
        """Compass names that steps of `relation` use on this board (Ludii's supported directions).

        KeyError for anything but Orthogonal, Diagonal, OffDiagonal, Adjacent, All.
        """
        if relation not in self._relation_dirs:
            raise KeyError(f"unknown relation {relation!r}; expected one of {known_list(RELATIONS)}")
        return self._relation_dirs[relation]

    @cached_property
    def radials(self) -> dict[str, DirectionRadials | tuple]:
        """direction (compass or relation) -> per site, Ludii's radials (sites[0] is the start).

        Each site's radials are walked when first read (`trajectories.Trajectories`)."""
        per_site = self.trajectories.radials
        return _by_site({d: DirectionRadials(per_site, d)
                         for d in sorted(self.trajectories.directions)}, self.num_sites)

    @cached_property
    def distinct_radials(self) -> dict[str, DirectionRadials | tuple]:
        """Like `radials`, without a radial whose opposite is already listed (for line tests)."""
        per_site = self.trajectories.distinct
        return _by_site({d: DirectionRadials(per_site, d)
                         for d in sorted(self.trajectories.directions)}, self.num_sites)

    # -- sites and regions
    def index_of(self, label: str) -> int:
        """The site labelled `label` ("A1"); KeyError when there is none."""
        return self._labels[label]

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Sites of each row, bottom first."""
        if any(self.layers):
            return self._ground_lines("y")
        return _group(self.sites, "row")

    @cached_property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        """Sites of each column, left first."""
        if any(self.layers):
            return self._ground_lines("x")
        return _group(self.sites, "col")

    def _ground_lines(self, axis: str) -> tuple[tuple[int, ...], ...]:
        """Rows (axis y) or columns (axis x) of a board with layers, as Ludii's Topology makes
        them on a 3D board: one per distinct coordinate of the sites on the ground (height 0),
        bottom (left) first, each holding every site at that coordinate whatever its layer
        (so a pyramid's 4 x 4 base gives 4 rows, and the sites between them are in none)."""
        nodes = self.graph.nodes
        ground: list[float] = []
        for i in range(self.num_sites):
            v = nodes[i][axis]
            if nodes[i]["z"] == 0 and all(abs(v - g) >= 0.001 for g in ground):
                ground.append(v)
        return tuple(tuple(i for i in range(self.num_sites) if abs(nodes[i][axis] - g) < 0.001)
                     for g in sorted(ground))

    def region(self, name: str, *args) -> tuple[int, ...]:
        """A named board region, as sorted site indices.

        `Board`, `Top`, `Bottom`, `Left`, `Right`, `Corners`, `ConvexCorners`,
        `ConcaveCorners`, `Centre`, `Perimeter`, `Inner`, `Outer`, `Major`,
        `Minor`; `Row` r; `Column` c; `Side` d (N, NE, E, SE, S, SW, W, NW);
        `Phase` p. KeyError for an unknown name or side, ValueError for missing arguments.
        """
        if name == "Board":
            return tuple(range(self.num_sites))
        if name in REGION_BITS:
            return self.regions[name]
        if name in ("Row", "Column", "Side", "Phase") and len(args) != 1:
            raise ValueError(f"region {name} takes one argument")
        if name == "Row":
            return self.rows[args[0]] if 0 <= args[0] < len(self.rows) else ()
        if name == "Column":
            return self.columns[args[0]] if 0 <= args[0] < len(self.columns) else ()
        if name == "Side":
            if args[0] not in SIDES:
                raise KeyError(f"unknown side {args[0]!r}; expected one of {known_list(SIDES)}")
            return self.regions[f"Side {args[0]}"]
        if name == "Phase":
            return tuple(s.index for s in self.sites if s.phase == args[0])
        raise KeyError(f"unknown region {name!r}; expected one of "
                          f"{known_list(['Board', 'Row', 'Column', 'Side', 'Phase', *REGION_BITS])}")

    def around(self, sites, direction: str = "Adjacent", distance: int = 1,
               include_self: bool = False) -> tuple[int, ...]:
        """Ludii's `sites Around`: the site `distance` along each radial of `direction`."""
        sites = (sites,) if isinstance(sites, int) else tuple(sites)
        out = set()
        for s in sites:
            for r in self.trajectories.radials[s].get(direction, ()):
                if distance < len(r.sites):
                    out.add(r.sites[distance])
        out = out | set(sites) if include_self else out - set(sites)
        return tuple(sorted(out))

    def in_direction(self, site: int, directions, distance: int | None = None,
                     included: bool = False) -> tuple[int, ...]:
        """Ludii's `sites Direction from:site`: the sites along each radial, in order."""
        directions = (directions,) if isinstance(directions, str) else tuple(directions)
        out = [site] if included else []
        for d in directions:
            for r in self.trajectories.radials[site].get(d, ()):
                out.extend(r.sites[1:None if distance is None else distance + 1])
        return tuple(out)

    def steps(self, relation: str = "Adjacent") -> list[tuple[int, int]]:
        """The (from, to) pairs one step of `relation` joins, as the graph's edges list them."""
        return [(a, b) for a, b, rels in self.graph.edges(data="relations") if relation in rels]

    def distance_rings(self, relation: str = "Adjacent") -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per site: the sites 0, 1, 2, ... steps of `relation` away (sorted), to the farthest.

        networkx's breadth-first `all_pairs_shortest_path_length` over the relation's edges
        of the graph, worked out once per relation (on first use, at compile time).
        """
        rings = self._distance_rings.get(relation)
        if rings is None:
            if relation not in RELATIONS:
                raise KeyError(f"unknown relation {relation!r}; "
                               f"expected one of {known_list(RELATIONS)}")
            steps = nx.DiGraph()
            steps.add_nodes_from(self.graph)
            steps.add_edges_from(self.steps(relation))
            table = []
            for _, dist in sorted(nx.all_pairs_shortest_path_length(steps)):
                by_step: list[list[int]] = [[] for _ in range(max(dist.values()) + 1)]
                for t, k in dist.items():
                    by_step[k].append(t)
                table.append(tuple(tuple(sorted(ring)) for ring in by_step))
            rings = self._distance_rings[relation] = tuple(table)
        return rings

    @cached_property
    def components(self) -> tuple[tuple[int, ...], ...]:
        """The board's connected parts (sites joined by steps), from networkx, smallest site first."""
        return tuple(sorted(tuple(sorted(c)) for c in nx.weakly_connected_components(self.graph)))

    def at_distance(self, site: int, lo: int, hi: int | None = None,
                    relation: str = "Adjacent") -> tuple[int, ...]:
        """Sites whose step distance from `site` by `relation` is in [lo, hi]."""
        return sites_at_distance(self.distance_rings(relation)[site], lo, hi)

    def expand(self, sites, steps: int = 1, direction: str | None = None) -> tuple[int, ...]:
        """Ludii's `expand`: grow a region by adjacent sites (or steps in `direction`)."""
        region = set((sites,) if isinstance(sites, int) else sites)
        rel = direction or "Adjacent"
        for _ in range(steps):
            grown = set()
            for s in region:
                grown.update(self.neighbours[rel][s] if rel in self.neighbours
                             else self.trajectories.targets(s, rel))
            region |= grown
        return tuple(sorted(region))

    def coord(self, row: int, col: int) -> int:
        """The site at (row, column), or -1."""
        return next((s.index for s in self.sites if s.row == row and s.col == col), -1)

    # -- views
    def site_json(self, site: Site) -> dict:
        """One site as plain data (the `--json` format)."""
        i = site.index
        return {"index": i, "x": round(site.x, 6), "y": round(site.y, 6), "row": site.row,
                "col": site.col, "label": site.label,
                "orthogonal": sorted(self.neighbours["Orthogonal"][i]),
                "diagonal": sorted(self.neighbours["Diagonal"][i]),
                "adjacent": sorted(self.neighbours["Adjacent"][i]),
                "offDiagonal": sorted(self.neighbours["OffDiagonal"][i])}


def sites_at_distance(rings: tuple[tuple[int, ...], ...], lo: int,
                      hi: int | None = None) -> tuple[int, ...]:
    """Sorted sites of `rings` (one site's `distance_rings`) from `lo` to `hi` steps away."""
    hi = lo if hi is None else hi
    picked = rings[max(lo, 0):max(hi + 1, 0)]
    if len(picked) == 1:
        return picked[0]
    return tuple(sorted(s for ring in picked for s in ring))


def _ordered(directions) -> tuple[str, ...]:
    """Compass names clockwise from north (Ludii's order of supported directions), then the
    steps up and down in Ludii's order (pyramidal boards)."""
    return tuple(sorted(directions, key=lambda d: COMPASS_INDEX.get(d, len(COMPASS_INDEX) + ORDINAL[d])))


def _group(sites, attr: str) -> tuple[tuple[int, ...], ...]:
    size = max((getattr(s, attr) for s in sites), default=-1) + 1
    groups: list[list[int]] = [[] for _ in range(size)]
    for s in sites:
        groups[getattr(s, attr)].append(s.index)
    return tuple(tuple(g) for g in groups)


def _rows_and_columns_by_position(elements) -> None:
    """Ludii's fallback when two labels coincide: rows by exact y, columns by exact x."""
    for attr, coord in (("row", "y"), ("col", "x")):
        values: list[float] = []
        for el in elements:
            v = getattr(el, coord)
            if not any(abs(v - u) < 0.001 for u in values):
                values.append(v)
        values.sort()
        for i, u in enumerate(values):
            for el in elements:
                if abs(getattr(el, coord) - u) < 0.001:
                    setattr(el, attr, i)
    for el in elements:
        prefix = chr(ord("A") + el.col // 26 - 1) if el.col >= 26 else ""
        el.label = prefix + chr(ord("A") + el.col % 26) + str(el.row + 1)


class Board:
    """A built board. Attributes not listed here come from the default site type's `Topology`.

    site_type       "Vertex" | "Edge" | "Cell": the default site type (Ludii's `use:`, Cell by default)
    num_sites       number of sites of that type
    sites           tuple of `Site(index, x, y, row, col, label, phase)`
    graph           the graph of record: networkx.DiGraph, a node per site (fields index, site_type,
                    x, y, row, col, label, phase, regions), an edge per step (direction, relation,
                    relations)
    directions      compass names that exist, clockwise from N, e.g. ("N","NE","E",...)
    step[d]         per site: the neighbour in compass direction d, or -1
    rays[d]         per site: sites along direction d, start excluded (Ludii's first radial)
    neighbours[rel] per site: neighbours by "Orthogonal", "Diagonal", "OffDiagonal", "Adjacent", "All"
    radials[d]      per site: every Ludii radial in d (a compass name or a relation)
    distinct_radials[d]  the radials `is Line` uses (one per line through the site)
    relation_dirs(rel)   compass names that `rel` steps use on this board
    region(name, *args)  sorted site indices of a named region
    regions[name]   the same for the regions marked on the graph's nodes (Top, Corners, Side NE, ...)
    distance_rings(rel)  per site: sites 0, 1, 2, ... steps of rel away (networkx BFS, once per rel)
    components      the connected parts of the graph (networkx), as sorted site tuples
    index_of(label)      "A1" -> index
    topology(type)       the same tables for another site type
    tracks          name -> site sequence (Surakarta's loops), else empty
    boardless       True for a `(boardless ...)` table (Ludii's isBoardless)
    """

    boardless = False

    def __init__(self, graph: PlanarGraph, site_type: str, *, players: int = 2,
                 tracks: dict | None = None, perimeters=(),
                 topologies: dict[str, Topology] | None = None):
        self.site_type = site_type
        self.players = players
        self.planar = graph
        self.perimeters: tuple[tuple[int, ...], ...] = tuple(perimeters)   # outline vertex ids
        self.tracks: dict[str, tuple[int, ...]] = dict(tracks or {})
        # A topology depends on the planar graph and its site type only: boards of one graph
        # may share them (`ludeme.model.ludemes.graph.containers.shared_board`).
        self._topologies: dict[str, Topology] = {} if topologies is None else topologies
        self.default = self.topology(site_type)

    def num_elements(self) -> int:
        """Vertices, edges and cells of the board's graph together (Ludii's BoardCoverageFull
        divides by them)."""
        return sum(len(self.planar.elements(kind)) for kind in ("Vertex", "Edge", "Cell"))

    def topology(self, site_type: str | None = None) -> Topology:
        """The tables for `site_type` (default: the board's own), built on first use."""
        site_type = site_type or self.site_type
        if site_type not in SITE_TYPES:
            raise KeyError(f"unknown site type {site_type!r}; expected Vertex, Edge or Cell")
        if site_type not in self._topologies:
            with gc_paused():
                self._topologies[site_type] = Topology(self.planar, site_type)
        return self._topologies[site_type]

    def __getattr__(self, name):
        # Only reached for attributes Board itself lacks: delegate to the default topology.
        if name.startswith("_") or name == "default":
            raise AttributeError(name)
        return getattr(self.default, name)

    @property
    def num_vertices(self) -> int:
        return len(self.planar.vertices)

    @property
    def num_edges(self) -> int:
        return len(self.planar.edges)

    @property
    def num_cells(self) -> int:
        return len(self.planar.faces)

    def to_json(self, site_type: str | None = None) -> dict:
        """Sites and neighbour sets as plain data (what `ludeme board --json` prints)."""
        topo = self.topology(site_type)
        return {"siteType": topo.site_type, "numSites": topo.num_sites,
                "numVertices": self.num_vertices, "numEdges": self.num_edges,
                "numCells": self.num_cells, "numSteps": topo.graph.number_of_edges(),
                "components": len(topo.components), "directions": list(topo.directions),
                "sites": [topo.site_json(s) for s in topo.sites]}

    def to_svg(self, site_type: str | None = None, **kw) -> str:
        """An SVG picture of the board with every site's index and label."""
        from .render import board_svg
        return board_svg(self, site_type or self.site_type, **kw)
