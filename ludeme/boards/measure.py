"""Measuring a built graph: perimeter, corners, sides, centre, phases, rows, columns, labels.

These are the facts behind Ludii's board regions (`sites Top`, `sites Side NE`,
`sites Corners`, `sites Phase 0`, ...) and coordinates ("A1"). Ludii finds
them with geometric heuristics; the same heuristics are used here, in the
same order, so regions and labels agree with Ludii's on every board.
"""

from __future__ import annotations

import math
from collections import deque

from .geometry import (CELL, EDGE, VERTEX, PlanarGraph, bounds, clockwise, distance_to_line,
                       point_in_polygon, points_in_polygon, positive_angle)

# Property bits (one int per element).
INNER, OUTER, PERIMETER, CENTRE, MAJOR, MINOR = (1 << i for i in range(6))
CORNER, CORNER_CONVEX, CORNER_CONCAVE = 1 << 10, 1 << 11, 1 << 12
PHASES = tuple(1 << (13 + i) for i in range(6))
LEFT, RIGHT, TOP, BOTTOM = (1 << i for i in range(25, 29))
SIDE_N, SIDE_E, SIDE_S, SIDE_W, SIDE_NE, SIDE_SE, SIDE_SW, SIDE_NW = (1 << i for i in range(40, 48))
SIDES = {"N": SIDE_N, "E": SIDE_E, "S": SIDE_S, "W": SIDE_W,
         "NE": SIDE_NE, "SE": SIDE_SE, "SW": SIDE_SW, "NW": SIDE_NW}
SIDE_MASK = SIDE_N | SIDE_E | SIDE_S | SIDE_W | SIDE_NE | SIDE_SE | SIDE_SW | SIDE_NW

# Region name -> property bit, for `sites <Name>`.
REGION_BITS = {
    "Inner": INNER, "Outer": OUTER, "Perimeter": PERIMETER, "Centre": CENTRE,
    "Major": MAJOR, "Minor": MINOR, "Corners": CORNER, "ConvexCorners": CORNER_CONVEX,
    "ConcaveCorners": CORNER_CONCAVE, "Left": LEFT, "Right": RIGHT, "Top": TOP, "Bottom": BOTTOM,
}


def phase_of(props: int) -> int:
    """The lowest phase bit set, or -1."""
    for i, bit in enumerate(PHASES):
        if props & bit:
            return i
    return -1


class Perimeter:
    """One closed outline of the graph: its vertices in walk order (repeats allowed)."""

    def __init__(self):
        self.elements: list = []
        self.on: set[int] = set()

    def add(self, v) -> None:
        self.elements.append(v)
        self.on.add(v.id)

    def positions(self) -> list[tuple[float, float]]:
        return [(v.x, v.y) for v in self.elements]


def measure(g: PlanarGraph) -> list[Perimeter]:
    """Set every element's property bits, rows, columns and labels; return the perimeters."""
    for kind in (VERTEX, EDGE, CELL):
        for el in g.elements(kind):
            el.props = 0
    perimeters = measure_perimeter(g)
    measure_inner_outer(g)
    measure_extremes(g)
    measure_major_minor(g)
    measure_corners(g, perimeters)
    measure_sides(g, perimeters)
    for kind in (VERTEX, EDGE, CELL):
        measure_phase(g.elements(kind))
    measure_situation(g)
    measure_centre(g)
    return perimeters


# ---------------------------------------------------------------- perimeter

def measure_perimeter(g: PlanarGraph) -> list[Perimeter]:
    """Walk the outlines clockwise from the leftmost uncovered vertex until all are covered."""
    perimeters: list[Perimeter] = []
    covered: set[int] = set()
    while True:
        start, min_x = None, 1000000.0
        for v in g.vertices:
            if v.id not in covered and v.x < min_x:
                start, min_x = v, v.x
        if start is None:
            break
        p = follow_perimeter(start, 4 * len(g.edges) + 8)
        covered.update(v.id for v in p.elements)
        rest = [v for v in g.vertices if v.id not in covered]
        inside = points_in_polygon([v.x for v in rest], [v.y for v in rest], p.positions())
        covered.update(v.id for v, hit in zip(rest, inside) if hit)
        perimeters.append(p)
    # An outline inside another one (a hole) is not a perimeter.
    for pa in range(len(perimeters) - 1, -1, -1):
        x, y = perimeters[pa].positions()[0]
        if any(pb != pa and point_in_polygon(x, y, perimeters[pb].positions())
               for pb in range(len(perimeters))):
            perimeters.pop(pa)
    for p in perimeters:
        n = len(p.elements)
        for i in range(n):
            a, b = p.elements[i], p.elements[(i + 1) % n]
            a.props |= PERIMETER
            b.props |= PERIMETER
            e = a.edge_to(b)
            if e is None:
                continue
            e.props |= PERIMETER
            face = e.left if e.left is not None else e.right
            if face is not None:
                face.props |= PERIMETER
    return perimeters


def follow_perimeter(start, limit: int) -> Perimeter:
    """The outline through `start`, leaving by its most north-westerly edge, always turning left."""
    p = Perimeter()
    if not start.edges:
        p.add(start)
        return p
    best, best_angle = None, 1000000.0
    for e in start.edges:
        to = e.other(start)
        angle = math.atan2(to.x - start.x, -(to.y - start.y))
        if angle < best_angle:
            best, best_angle = e, angle
    vertex, edge = start, best
    for _ in range(limit):
        p.add(vertex)
        prev = vertex
        vertex = edge.other(vertex)
        edge = next((e for e in vertex.edges_after(edge) if e.other(vertex) is not prev), edge)
        if vertex is start:
            break
    return p


def measure_inner_outer(g: PlanarGraph) -> None:
    """Perimeter elements (and faces or edges touching them) are outer; the rest inner."""
    for kind in (VERTEX, EDGE, CELL):
        for el in g.elements(kind):
            if el.props & PERIMETER:
                el.props |= OUTER
    for f in g.faces:
        if any(v.props & PERIMETER for v in f.vertices):
            f.props |= OUTER | PERIMETER
    for e in g.edges:
        if e.a.props & PERIMETER and e.b.props & PERIMETER and (e.left is None or e.right is None):
            e.props |= OUTER | PERIMETER
    for kind in (VERTEX, EDGE, CELL):
        for el in g.elements(kind):
            if not el.props & OUTER:
                el.props |= INNER


def measure_extremes(g: PlanarGraph) -> None:
    """Left, right, top and bottom: within 0.01 of the extreme coordinate, per site type."""
    tol = 0.01
    for kind in (VERTEX, EDGE, CELL):
        items = g.elements(kind)
        if not items:
            continue
        min_x = min(el.x for el in items)
        max_x = max(el.x for el in items)
        min_y = min(el.y for el in items)
        max_y = max(el.y for el in items)
        for el in items:
            if el.x - min_x < tol:
                el.props |= LEFT
            if el.y - min_y < tol:
                el.props |= BOTTOM
            if max_x - el.x < tol:
                el.props |= RIGHT
            if max_y - el.y < tol:
                el.props |= TOP


def measure_major_minor(g: PlanarGraph) -> None:
    """Faces with the most sides are major, the others minor."""
    most = max((len(f.vertices) for f in g.faces), default=0)
    for f in g.faces:
        f.props |= MAJOR if len(f.vertices) == most else MINOR


# ---------------------------------------------------------------- corners

def measure_corners(g: PlanarGraph, perimeters: list[Perimeter]) -> None:
    """Mark corner vertices from the outline's turning, then the edges and faces at them."""
    for p in perimeters:
        corners_from_perimeter(p)
    for v in g.vertices:
        if not v.props & CORNER:
            continue
        kind = CORNER_CONCAVE if v.props & CORNER_CONCAVE else CORNER_CONVEX
        single = False
        for e in v.edges:
            if e.other(v).props & CORNER:
                e.props |= CORNER | kind
                face = e.left if e.left is not None else e.right
                if face is not None:
                    face.props |= CORNER | kind
                single = True
        if single:
            continue
        for e in v.edges:
            if not e.props & PERIMETER:
                continue
            e.props |= CORNER | kind
            if kind == CORNER_CONCAVE:
                for f in v.faces:
                    if sum(1 for fv in f.vertices if fv.props & PERIMETER) == 1:
                        f.props |= CORNER | CORNER_CONCAVE
            else:
                face = e.left if e.left is not None else e.right
                if face is not None:
                    face.props |= CORNER | CORNER_CONVEX


def corners_from_perimeter(p: Perimeter) -> None:
    """Score how sharply the outline turns at each vertex; peaks are corners."""
    tol = 0.001
    els = p.elements
    num = len(els)
    if num < 6:
        for v in els:
            v.props |= CORNER | CORNER_CONVEX
        return
    pts = p.positions()
    scores = []
    for n in range(num):
        x, y = pts[n]
        score = 0.0
        for k in range(1, 4):
            ax, ay = pts[(n - k + num) % num]
            bx, by = pts[(n + k) % num]
            dist = distance_to_line(x, y, ax, ay, bx, by)
            if clockwise(ax, ay, x, y, bx, by):
                dist = -dist
            score += dist / k
        scores.append(score)
    scores = [(4 * scores[n] + scores[(n + 1) % num] + scores[(n - 1 + num) % num]) / 6
              for n in range(num)]

    def prev_(n):
        return scores[(n - 1 + num) % num]

    def next_(n):
        return scores[(n + 1) % num]

    keep = [not (scores[n] < 0.320 or scores[n] < prev_(n) - tol or scores[n] < next_(n) - tol)
            for n in range(num)]
    n = 0
    while n < num:  # spread to near-equal neighbours; a newly kept neighbour ahead spreads too
        if keep[n]:
            if prev_(n) >= 0.95 * scores[n]:
                keep[(n - 1 + num) % num] = True
            if next_(n) >= 0.95 * scores[n]:
                keep[(n + 1) % num] = True
        n += 1
    for n in range(num):
        if keep[n]:
            els[n].props |= CORNER | CORNER_CONVEX
    for n in range(num):
        if not (scores[n] > -0.25 or scores[n] > prev_(n) + tol or scores[n] > next_(n) + tol):
            els[n].props |= CORNER | CORNER_CONCAVE


# ---------------------------------------------------------------- sides

def discrete_direction(angle: float, num: int) -> int:
    """The nearest of `num` equal sectors to `angle` (0 = east, counter-clockwise)."""
    arc = 2 * math.pi / num
    return (int((positive_angle(angle) + arc / 2) / arc) + num) % num


def measure_sides(g: PlanarGraph, perimeters: list[Perimeter]) -> None:
    """Each run of outline between corners is a side, named by its compass bearing from the centre."""
    mx, my = g.centroid()
    for p in perimeters:
        els = p.elements
        num = len(els)
        for start in range(num):
            if not els[start].props & CORNER:
                continue
            to = start
            while True:
                to += 1
                if els[to % num].props & CORNER:
                    break
            run = to - start
            ax, ay = els[start].x, els[start].y
            for r in range(run):
                el = els[(start + 1 + r) % num]
                ax += el.x
                ay += el.y
            ax /= run + 1
            ay /= run + 1
            d = discrete_direction(math.atan2(ay - my, ax - mx), 16)
            if d == 0:
                bit = SIDE_E
            elif d == 4:
                bit = SIDE_N
            elif d == 8:
                bit = SIDE_W
            elif d == 12:
                bit = SIDE_S
            elif 0 < d < 4:
                bit = SIDE_NE
            elif d < 8:
                bit = SIDE_NW
            elif d < 12:
                bit = SIDE_SW
            else:
                bit = SIDE_SE
            for r in range(run + 1):
                els[(start + r) % num].props |= bit
    for v in g.vertices:
        if v.props & CORNER:
            for e in v.edges:
                e.props |= v.props & e.other(v).props & SIDE_MASK
    for v in g.vertices:
        for e in v.edges:
            e.props |= v.props & SIDE_MASK
        for f in v.faces:
            f.props |= v.props & SIDE_MASK


# ---------------------------------------------------------------- phases

def measure_phase(items: list) -> None:
    """Colour each connected part greedily, breadth first, favouring crowded neighbours."""
    if not items:
        return
    while True:
        start = next((el for el in items if phase_of(el.props) < 0), None)
        if start is None:
            break
        start.props |= PHASES[0]
        queue = deque([start])
        visited: set[int] = set()
        while queue:
            el = queue.popleft()
            if el.id in visited:
                continue
            nbors = el.neighbours()
            used = {phase_of(n.props) for n in nbors}
            phase = next(p for p in range(5) if p == 4 or p not in used)
            el.props |= PHASES[phase]
            visited.add(el.id)
            for n in nbors:
                if n.id in visited:
                    continue
                if len({phase_of(nn.props) for nn in n.neighbours()} - {-1}) > 1:
                    queue.appendleft(n)
                else:
                    queue.append(n)


# ---------------------------------------------------------------- rows, columns, labels

def measure_situation(g: PlanarGraph) -> None:
    """Rows, columns and labels ("A1") by clustering positions along the best-fitting axes."""
    best_thetas = [0.0, 0.5]
    for kind in (VERTEX, EDGE, CELL):
        items = g.elements(kind)
        if not items:
            continue
        _, _, w, h = bounds(items)
        unit = (w + h) / 2 / math.sqrt(len(items))
        cluster_rows_and_columns(items, unit, best_thetas, kind == EDGE)
        set_layers(items, unit)
        g.duplicate_labels[kind] = set_labels(items)


def set_layers(items, unit: float) -> None:
    """Each element's layer, as Ludii clusters heights: lowest first, a new layer whenever a
    height is more than 0.6 units from the mean of the current one (0 on flat boards)."""
    margin = 0.6 * unit
    layer, total, count = -1, 0.0, 0
    for el in sorted(items, key=lambda el: el.z):
        if count == 0 or abs(el.z - total / count) > margin:
            layer, total, count = layer + 1, 0.0, 0
        total, count = total + el.z, count + 1
        el.layer = layer


def cluster_rows_and_columns(items, unit: float, best: list, reuse: bool) -> None:
    """Choose row and column axes (0-60 and +90-120 degrees) that cluster positions best."""
    if reuse:
        cluster(items, "row", unit, best[0])
        cluster(items, "col", unit, best[1])
        return
    best_error = 1000.0
    best[0] = 0.0
    for angle in range(0, 61, 15):
        theta = angle / 180.0 * math.pi
        error = cluster(items, "row", unit, theta)
        if error < best_error:
            best_error, best[0] = error, theta
            if error < 0.01:
                break
    cluster(items, "row", unit, best[0])
    best_error = 1000.0
    best[1] = 0.0
    for angle in range(90, 121, 15):
        theta = best[0] + angle / 180.0 * math.pi
        error = cluster(items, "col", unit, theta)
        if error < best_error:
            best_error, best[1] = error, theta
            if error < 0.01:
                break
    cluster(items, "col", unit, best[1])


def cluster(items, attr: str, unit: float, theta: float) -> float:
    """Bucket items by distance from a reference line at angle `theta`; set `attr`; return the fit error."""
    bx, by, bw, bh = bounds(items)
    if attr == "row":
        ax, ay = bx + bw / 2, by - bh
    else:
        ax, ay = bx - bw, by + bh / 2
    cx, cy = ax + bw * math.cos(theta), ay + bw * math.sin(theta)
    rank = sorted(((distance_to_line(el.x, el.y, ax, ay, cx, cy), n) for n, el in enumerate(items)),
                  key=lambda t: t[0])
    margin = 0.6 * unit
    buckets: list[list[float]] = []   # [total, count, scores...]
    members: list[list[int]] = []
    for score, n in rank:
        if not buckets or abs(score - buckets[-1][0] / buckets[-1][1]) > margin:
            buckets.append([0.0, 0])
            members.append([])
        buckets[-1][0] += score
        buckets[-1][1] += 1
        buckets[-1].append(score)
        members[-1].append(n)
    for b, ns in enumerate(members):
        for n in ns:
            setattr(items[n], attr, b)
    error = 0.0
    for bucket in buckets:
        mean = bucket[0] / bucket[1]
        last = bucket[-1]
        error += (mean - last) * (mean - last) / bucket[1]   # Ludii keeps only the last item's term
    return error + 0.01 * len(buckets)


def column_letters(col: int) -> str:
    """Column 0 -> "A", 25 -> "Z", 26 -> "BA" (Ludii's own scheme)."""
    label = chr(ord("A") + col % 26)
    while col >= 26:
        col //= 26
        label = chr(ord("A") + col % 26 - 1) + label
    return label


def set_labels(items) -> bool:
    """Label items column letters + row number (+ "/layer" when they are on several layers,
    as Ludii labels them); return whether two labels coincide."""
    seen: set[str] = set()
    duplicate = False
    layered = any(el.layer != items[0].layer for el in items)
    for el in items:
        label = column_letters(el.col) + str(el.row + 1) + (f"/{el.layer}" if layered else "")
        duplicate |= label in seen
        seen.add(label)
        el.label = label
    return duplicate


# ---------------------------------------------------------------- centre

def measure_centre(g: PlanarGraph) -> None:
    """The centre: least summed squared distance to the perimeter (small boards) and corners."""
    tol = 0.0001
    for kind in (VERTEX, EDGE, CELL):
        items = g.elements(kind)
        if not items:
            continue
        refs = [el for el in items if el.props & PERIMETER] if len(items) < 100 else []
        refs += [el for el in items if el.props & CORNER]
        totals = []
        for a in items:
            acc = 0.0
            for b in refs:
                dx, dy = b.x - a.x, b.y - a.y
                acc += dx * dx + dy * dy
            totals.append(acc)
        least = min(totals)
        for el, t in zip(items, totals):
            if abs(t - least) < tol:
                el.props |= CENTRE
