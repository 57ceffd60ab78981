"""The built board: per site type, plain tables of sites, neighbours, steps, rays and regions.

`Board` is what the engine uses. Everything it offers is computed once when
the board is built (the other site types on first use) and held in tuples
indexed by site, so a playout never touches the graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import networkx as nx

from ..errors import known_list
from .geometry import SITE_TYPES, PlanarGraph
from .measure import REGION_BITS, SIDES, phase_of
from .trajectories import (BIT, COMPASS, RELATIONS, Radial, Trajectories, supported_directions,
                           trajectories)


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


class Topology:
    """Every table for the sites of one type (Vertex, Edge or Cell) of a board."""

    def __init__(self, graph: PlanarGraph, site_type: str):
        self.site_type = site_type
        elements = graph.elements(site_type)
        if graph.duplicate_labels.get(site_type):
            _rows_and_columns_by_position(elements)
        self.sites: tuple[Site, ...] = tuple(
            Site(el.id, el.x, el.y, el.row, el.col, el.label, phase_of(el.props)) for el in elements)
        self.num_sites = len(self.sites)
        self._props = tuple(el.props for el in elements)
        self.trajectories: Trajectories = trajectories(graph, site_type)
        steps = self.trajectories.steps
        self.directions: tuple[str, ...] = supported_directions(steps, "All")
        self._relation_dirs = {rel: supported_directions(steps, rel) for rel in RELATIONS}
        self.neighbours: dict[str, tuple[tuple[int, ...], ...]] = {
            rel: tuple(tuple(to for to, bits in s if bits & BIT[rel]) for s in steps)
            for rel in RELATIONS}
        self.step: dict[str, tuple[int, ...]] = {
            d: tuple(next((to for to, bits in s if bits & BIT[d]), -1) for s in steps)
            for d in self.directions}
        self.rays: dict[str, tuple[tuple[int, ...], ...]] = {
            d: tuple(rs[d][0].sites[1:] if rs.get(d) else () for rs in self.trajectories.radials)
            for d in self.directions}
        self._labels = {s.label: s.index for s in self.sites}

    # -- directions
    def relation_dirs(self, relation: str) -> tuple[str, ...]:
        """Compass names that steps of `relation` use on this board (Ludii's supported directions).

        KeyError for anything but Orthogonal, Diagonal, OffDiagonal, Adjacent, All.
        """
        if relation not in self._relation_dirs:
            raise KeyError(f"unknown relation {relation!r}; expected one of {known_list(RELATIONS)}")
        return self._relation_dirs[relation]

    @cached_property
    def radials(self) -> dict[str, tuple[tuple[Radial, ...], ...]]:
        """direction (compass or relation) -> per site, Ludii's radials (sites[0] is the start)."""
        names = sorted({d for rs in self.trajectories.radials for d in rs})
        return {d: tuple(tuple(rs.get(d, ())) for rs in self.trajectories.radials) for d in names}

    @cached_property
    def distinct_radials(self) -> dict[str, tuple[tuple[Radial, ...], ...]]:
        """Like `radials`, without a radial whose opposite is already listed (for line tests)."""
        names = sorted({d for rs in self.trajectories.distinct for d in rs})
        return {d: tuple(tuple(rs.get(d, ())) for rs in self.trajectories.distinct) for d in names}

    # -- sites and regions
    def index_of(self, label: str) -> int:
        """The site labelled `label` ("A1"); KeyError when there is none."""
        return self._labels[label]

    @cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """Sites of each row, bottom first."""
        return _group(self.sites, "row")

    @cached_property
    def columns(self) -> tuple[tuple[int, ...], ...]:
        """Sites of each column, left first."""
        return _group(self.sites, "col")

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
            bit = REGION_BITS[name]
            return tuple(i for i, p in enumerate(self._props) if p & bit)
        if name in ("Row", "Column", "Side", "Phase") and len(args) != 1:
            raise ValueError(f"region {name} takes one argument")
        if name == "Row":
            return self.rows[args[0]] if 0 <= args[0] < len(self.rows) else ()
        if name == "Column":
            return self.columns[args[0]] if 0 <= args[0] < len(self.columns) else ()
        if name == "Side":
            if args[0] not in SIDES:
                raise KeyError(f"unknown side {args[0]!r}; expected one of {known_list(SIDES)}")
            return tuple(i for i, p in enumerate(self._props) if p & SIDES[args[0]])
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

    def at_distance(self, site: int, lo: int, hi: int | None = None,
                    relation: str = "Adjacent") -> tuple[int, ...]:
        """Sites whose step distance from `site` by `relation` is in [lo, hi]."""
        hi = lo if hi is None else hi
        dist = {site: 0}
        frontier = [site]
        while frontier and dist[frontier[0]] < hi:
            nxt = []
            for s in frontier:
                for t in self.neighbours[relation][s]:
                    if t not in dist:
                        dist[t] = dist[s] + 1
                        nxt.append(t)
            frontier = nxt
        return tuple(sorted(s for s, d in dist.items() if lo <= d <= hi))

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
    @cached_property
    def graph(self) -> nx.Graph:
        """networkx view: nodes are indices (with site fields), edges carry 'relation' and 'direction'."""
        g = nx.Graph(site_type=self.site_type)
        for s in self.sites:
            g.add_node(s.index, x=s.x, y=s.y, row=s.row, col=s.col, label=s.label, phase=s.phase)
        for a, steps in enumerate(self.trajectories.steps):
            for b, bits in steps:
                rel = next((r for r in ("Orthogonal", "Diagonal", "OffDiagonal") if bits & BIT[r]), None)
                if rel is None or a == b:
                    continue
                name = next((d for d in COMPASS if bits & BIT[d]), "")
                if not g.has_edge(a, b):
                    g.add_edge(a, b, relation=rel, directions={})
                g.edges[a, b]["directions"][a] = name
        for a, b, data in g.edges(data=True):
            dirs = data["directions"]
            data["direction"] = dirs.get(min(a, b)) or next(iter(dirs.values()))
        return g

    def site_json(self, site: Site) -> dict:
        """One site as plain data (the `--json` format)."""
        i = site.index
        return {"index": i, "x": round(site.x, 6), "y": round(site.y, 6), "row": site.row,
                "col": site.col, "label": site.label,
                "orthogonal": sorted(self.neighbours["Orthogonal"][i]),
                "diagonal": sorted(self.neighbours["Diagonal"][i]),
                "adjacent": sorted(self.neighbours["Adjacent"][i]),
                "offDiagonal": sorted(self.neighbours["OffDiagonal"][i])}


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
    graph           networkx.Graph of those sites (edge attrs 'relation', 'direction', 'directions')
    directions      compass names that exist, clockwise from N, e.g. ("N","NE","E",...)
    step[d]         per site: the neighbour in compass direction d, or -1
    rays[d]         per site: sites along direction d, start excluded (Ludii's first radial)
    neighbours[rel] per site: neighbours by "Orthogonal", "Diagonal", "OffDiagonal", "Adjacent", "All"
    radials[d]      per site: every Ludii radial in d (a compass name or a relation)
    distinct_radials[d]  the radials `is Line` uses (one per line through the site)
    relation_dirs(rel)   compass names that `rel` steps use on this board
    region(name, *args)  sorted site indices of a named region
    index_of(label)      "A1" -> index
    topology(type)       the same tables for another site type
    tracks          name -> site sequence (Surakarta's loops), else empty
    """

    def __init__(self, graph: PlanarGraph, site_type: str, *, players: int = 2,
                 tracks: dict | None = None, perimeters=()):
        self.site_type = site_type
        self.players = players
        self.planar = graph
        self.perimeters: tuple[tuple[int, ...], ...] = tuple(perimeters)   # outline vertex ids
        self.tracks: dict[str, tuple[int, ...]] = dict(tracks or {})
        self.track_calls: list = []      # (track ...) calls written in (board ...), unevaluated
        self._topologies: dict[str, Topology] = {}
        self.default = self.topology(site_type)

    def topology(self, site_type: str | None = None) -> Topology:
        """The tables for `site_type` (default: the board's own), built on first use."""
        site_type = site_type or self.site_type
        if site_type not in SITE_TYPES:
            raise KeyError(f"unknown site type {site_type!r}; expected Vertex, Edge or Cell")
        if site_type not in self._topologies:
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
                "numCells": self.num_cells, "directions": list(topo.directions),
                "sites": [topo.site_json(s) for s in topo.sites]}

    def to_svg(self, site_type: str | None = None, **kw) -> str:
        """An SVG picture of the board with every site's index and label."""
        from .render import board_svg
        return board_svg(self, site_type or self.site_type, **kw)
