"""Steps and radials: which site lies in which direction, and the straight lines from each site.

Every element steps to its neighbours with relation flags (Orthogonal,
Diagonal, OffDiagonal, Adjacent, All), exactly as Ludii's `stepsTo` does;
each step is then named by compass bearing. Ludii uses eight names unless two
steps of an element would share one, and then sixteen (N, NNE, NE, ENE, ...);
because an element also steps to the edges and faces around it, that is
nearly always the case, so hex cells step E, NNE, NNW, W, SSW, SSE. A radial
is a straight line of same-type sites: first step in a direction, then the
straightest next step in the same direction each time (within 0.25 rad).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .geometry import CELL, VERTEX, PlanarGraph, abs_tan_turn, clockwise_score, distance, distance_to_line, positive_angle

# Ludii's AbsoluteDirection, in declaration order (bit n of a step = ABSOLUTE[n]).
ABSOLUTE = (
    "All", "Angled", "Adjacent", "Axial", "Orthogonal", "Diagonal", "OffDiagonal", "SameLayer",
    "Upward", "Downward", "Rotational", "Base", "Support",
    "N", "E", "S", "W", "NE", "SE", "NW", "SW", "NNW", "WNW", "WSW", "SSW", "SSE", "ESE", "ENE", "NNE",
    "CW", "CCW", "In", "Out",
    "U", "UN", "UNE", "UE", "USE", "US", "USW", "UW", "UNW",
    "D", "DN", "DNE", "DE", "DSE", "DS", "DSW", "DW", "DNW",
)
BIT = {name: 1 << i for i, name in enumerate(ABSOLUTE)}
ORDINAL = {name: i for i, name in enumerate(ABSOLUTE)}
# Ludii's CompassDirection, clockwise from north: the order of "supported directions".
COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
           "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
COMPASS_INDEX = {d: i for i, d in enumerate(COMPASS)}
RELATIONS = ("Orthogonal", "Diagonal", "OffDiagonal", "Adjacent", "All")
OPPOSITE = {d: COMPASS[(i + 8) % 16] for i, d in enumerate(COMPASS)}
# A step to a site above (below) is named by its bearing on eight names only, prefixed U
# (D); one straight above (below) is U (D). Ludii's mapAngleToAbsoluteDirection.
ELEVATED = {"N": "N", "NNE": "NE", "NE": "NE", "ENE": "NE", "E": "E", "ESE": "SE", "SE": "SE",
            "SSE": "SE", "S": "S", "SSW": "SW", "SW": "SW", "WSW": "SW", "W": "W", "WNW": "NW",
            "NW": "NW", "NNW": "NW"}
LAYER_BIT = {"": BIT["SameLayer"], "U": BIT["Upward"], "D": BIT["Downward"]}
# Every direction naming one step, in Ludii's order: the compass, then up, then down.
STEP_NAMES = ABSOLUTE[ORDINAL["N"]:ORDINAL["NNE"] + 1] + ABSOLUTE[ORDINAL["U"]:]

_NEAR = BIT["Orthogonal"] | BIT["Adjacent"] | BIT["All"]
_DIAG_ADJ = BIT["Diagonal"] | BIT["Adjacent"] | BIT["All"]
_OFF = BIT["OffDiagonal"] | BIT["Adjacent"] | BIT["All"]
_DIAG_FAR = BIT["Diagonal"] | BIT["All"]
_SPECIFIC_FROM = ORDINAL["N"]          # every direction from N on names one bearing
_STRAIGHT = math.tan(0.25)             # most a radial may bend at one site
_OPPOSED = math.tan(0.1)               # most two radials may differ from opposite


_COMPASS = {
    False: (("E", "NE", "N", "NW", "W", "SW", "S", "SE"),
            [2 * math.pi / 16 + (2 * k) * math.pi / 8 for k in range(8)]),
    True: (("E", "ENE", "NE", "NNE", "N", "NNW", "NW", "WNW",
            "W", "WSW", "SW", "SSW", "S", "SSE", "SE", "ESE"),
           [2 * math.pi / 32 + (2 * k) * math.pi / 16 for k in range(16)]),
}


def compass_name(fx, fy, tx, ty, sixteen: bool) -> str:
    """Bearing of t from f as one of 8 (or 16) compass names: the first sector whose upper
    bound the angle is below (bounds computed once, as the sectors' loop computed them)."""
    angle = positive_angle(math.atan2(ty - fy, tx - fx))
    names, bounds = _COMPASS[sixteen]
    k = bisect.bisect_right(bounds, angle)
    return names[k] if k < len(names) else "E"


# ---------------------------------------------------------------- steps

def raw_steps(el) -> list[list]:
    """Ludii's stepsTo: [target, bits] in creation order, repeated targets merged."""
    out: list[list] = []
    index: dict[tuple[str, int], list] = {}

    def add(target, bits):
        key = (target.kind, target.id)
        if key in index:
            index[key][1] |= bits
        else:
            index[key] = [target, bits]
            out.append(index[key])

    if el.kind == VERTEX:
        for e in el.edges:
            add(e.other(el), _NEAR)
        for f in el.faces:
            if len(f.vertices) < 4:
                continue
            best, best_d = None, 1000000.0
            for to in f.vertices:
                if to is el:
                    continue
                d = distance_to_line(f.x, f.y, el.x, el.y, to.x, to.y)
                if d < best_d:
                    best, best_d = to, d
            add(best, _DIAG_FAR)
        for e in el.edges:
            add(e, _NEAR)
        for f in el.faces:
            add(f, _NEAR)
    elif el.kind == CELL:
        used = {el.id}
        for e in el.edges:
            other = e.other_face(el)
            if other is not None:
                used.add(other.id)
                add(other, _NEAR)
        for v in el.vertices:
            best, best_d = None, 1000000.0
            for other in v.faces:
                if other.id in used:
                    continue
                d = distance_to_line(v.x, v.y, el.x, el.y, other.x, other.y)
                if d < best_d:
                    best, best_d = other, d
            if best is not None:
                used.add(best.id)
                add(best, _DIAG_ADJ)
        for v in el.vertices:
            for other in v.faces:
                if other.id not in used:
                    used.add(other.id)
                    add(other, _OFF)
        for v in el.vertices:   # across a three-way vertex: the cell straight beyond it
            if len(v.edges) != 3:
                continue
            away = next((e for e in v.edges if e not in el.edges), None)
            if away is None:
                continue
            ov = away.other(v)
            for other in ov.faces:
                if other.id in used:
                    continue
                dv = distance_to_line(v.x, v.y, el.x, el.y, other.x, other.y)
                dov = distance_to_line(ov.x, ov.y, el.x, el.y, other.x, other.y)
                apart = distance(el.x, el.y, other.x, other.y)
                # a cell straight above (layered boards) is 0 apart: Java's x / 0 is
                # infinite, too far off the line
                if apart == 0 and dv + dov > 0 or apart and (dv + dov) / apart > 0.1:
                    continue
                used.add(other.id)
                add(other, _DIAG_FAR)
        for v in el.vertices:
            add(v, _NEAR)
        for e in el.edges:
            add(e, _NEAR)
    else:  # EDGE
        for v in (el.a, el.b):
            for other in v.edges:
                if other is not el:
                    add(other, _NEAR)
        for v in (el.a, el.b):
            add(v, _NEAR)
        used = set()
        for f in (el.left, el.right):
            if f is not None:
                used.add(f.id)
                add(f, _NEAR)
        for v in (el.a, el.b):
            for f in v.faces:
                if f.id not in used:
                    used.add(f.id)
                    add(f, _NEAR)
    return out


def step_name(el, to, sixteen: bool, unit: float) -> str:
    """Ludii's name of the step el -> to: a compass bearing when both are (nearly) at one
    height, else U or D and the bearing on eight names (U or D alone straight above or below).
    Heights and distances are measured against a tenth of the average edge length `unit`."""
    dz = to.z - el.z
    prefix = "U" if dz > 0.1 * unit else "D" if dz < -0.1 * unit else ""
    if not prefix:
        return compass_name(el.x, el.y, to.x, to.y, sixteen)
    if distance(el.x, el.y, to.x, to.y) < 0.1 * unit:
        return prefix
    return prefix + ELEVATED[compass_name(el.x, el.y, to.x, to.y, sixteen)]


def layer_bit(name: str) -> int:
    """SameLayer for a compass step, Upward for U..., Downward for D..."""
    return LAYER_BIT[name[0] if name[0] in "UD" else ""]


def named_steps(el, g: PlanarGraph | None = None, pivots: frozenset = frozenset(),
                unit: float = 1.0) -> list[tuple[int, int]]:
    """Same-type steps of `el` as (target id, direction bits), clockwise from north.

    Given the graph `g` and its pivot vertices, steps also get the circular bits; on a
    graph with heights (pyramidal boards), steps up and down are named as Ludii names them,
    against `unit`, the graph's average edge length.
    """
    steps = raw_steps(el)
    names8 = [step_name(el, t, False, unit) for t, _ in steps]
    sixteen = len(set(names8)) < len(names8)
    for s in steps:
        name = step_name(el, s[0], sixteen, unit)
        s[1] |= BIT[name] | layer_bit(name)
    if g is not None and pivots:
        for s in steps:
            s[1] |= circular_bits(g, el, s[0], s[1], pivots)
    steps.sort(key=lambda s: clockwise_score(el.x, el.y, s[0].x, s[0].y))
    return [(t.id, bits) for t, bits in steps if t.kind == el.kind]


# ---------------------------------------------------------------- circular directions

CIRCULAR = ("CW", "CCW", "In", "Out")
CIRCULAR_MASK = BIT["CW"] | BIT["CCW"] | BIT["In"] | BIT["Out"] | BIT["Rotational"]
_CIRCULAR_ORDINALS = frozenset(ORDINAL[d] for d in CIRCULAR)
_PAIRED = {"CW": "CCW", "CCW": "CW", "In": "Out", "Out": "In"}


def pivot_of(el):
    """Ludii's pivot of an element: a vertex's own; an edge's from its first end that has
    one; a face's from its first vertex that has one; None off circular boards."""
    if el.kind == VERTEX:
        return el.pivot
    ends = (el.a, el.b) if el.kind != CELL else el.vertices
    return next((v.pivot for v in ends if v.pivot is not None), None)


def pivot_vertices(g: PlanarGraph) -> frozenset:
    """Ids of the vertices that are some vertex's pivot."""
    return frozenset(v.pivot.id for v in g.vertices if v.pivot is not None)


def circular_bits(g: PlanarGraph, el, to, bits: int, pivots: frozenset) -> int:
    """Ludii's circular directions of the step el -> to (Trajectories.setCircularDirections).

    Every step from a pivot vertex goes Out. Otherwise, from an element with a pivot, a
    step that is not Diagonal goes In when it heads within about 25 degrees of the pivot
    (unit vectors' dot product above 0.9), Out when it heads as much away from it, and
    else CW or CCW, by the side of the line through the pivot it lands on, but only when
    a curved edge joins the vertices numbered as the two elements are (Ludii looks the
    edge up by the elements' own numbers, whatever their site type).
    """
    if el.kind == VERTEX and el.id in pivots:
        return BIT["Out"] | BIT["Rotational"]
    pivot = pivot_of(el)
    if pivot is None or bits & BIT["Diagonal"]:
        return 0
    abx, aby = to.x - el.x, to.y - el.y
    apx, apy = pivot.x - el.x, pivot.y - el.y
    lab, lap = math.hypot(abx, aby), math.hypot(apx, apy)
    dot = 0.0
    if lab > 0 and lap > 0:
        dot = (abx * apx + aby * apy) / (lab * lap)
    if dot > 0.9:
        return BIT["In"] | BIT["Rotational"]
    if dot < -0.9:
        return BIT["Out"] | BIT["Rotational"]
    if not curved_between(g, el.id, to.id):
        return 0
    side = (to.x - pivot.x) * (el.y - pivot.y) - (to.y - pivot.y) * (el.x - pivot.x)
    return (BIT["CW"] if side > 1e-7 else BIT["CCW"]) | BIT["Rotational"]


def curved_between(g: PlanarGraph, a: int, b: int) -> bool:
    """Whether a curved edge joins vertices a and b (ids)."""
    if not (0 <= a < len(g.vertices) and 0 <= b < len(g.vertices)):
        return False
    e = g.vertices[a].edge_to(g.vertices[b])
    return e is not None and e.curved


# ---------------------------------------------------------------- radials

@dataclass(eq=False)
class Radial:
    """A straight line of sites from `sites[0]` in `direction`; `opposite` runs the other way."""

    direction: str
    sites: tuple[int, ...]
    opposite: "Radial | None" = field(default=None, repr=False)

    @property
    def specific(self) -> bool:
        return ORDINAL[self.direction] >= _SPECIFIC_FROM

    def add_opposite(self, other: "Radial") -> None:
        # Ludii keeps only the first opposite for every direction a radial can have.
        if self.opposite is None:
            self.opposite = other


class Trajectories:
    """Steps and radials of every element of one site type.

    A site's radials are walked when first asked for (and kept): a big board that
    no rule walks in lines costs only its steps (a hex board of 100 a side has
    30,000 cells and 1.6 million radials). `radials[site]` and `distinct[site]`
    read them; `directions` names every key any site's radials can have.
    """

    def __init__(self, steps: list[list[tuple[int, int]]], pts: list[tuple[float, float]]):
        self.steps = steps                  # site -> [(to, bits)] clockwise from N
        self.pts = pts
        self.by_dir: list[dict[int, list[int]]] = [_by_ordinal(out) for out in steps]
        self._walker = RadialWalker(self.by_dir, pts)
        self._sites: list[tuple[dict, dict] | None] = [None] * len(steps)
        self.radials = _SiteRadials(self, 0)      # site -> direction -> radials, clockwise
        self.distinct = _SiteRadials(self, 1)     # site -> direction -> radials without opposites

    @property
    def directions(self) -> frozenset[str]:
        """Every direction (compass or relation) some site has radials in."""
        names = {ABSOLUTE[o] for table in self.by_dir for o in table}
        if names & {"Rotational", *CIRCULAR}:
            names.add("Rotational")
        return frozenset(names)

    def targets(self, site: int, direction: str) -> list[int]:
        """Same-type sites one step from `site` in `direction` (a compass name or a relation)."""
        bit = BIT[direction]
        return [to for to, bits in self.steps[site] if bits & bit]

    def site(self, site: int) -> tuple[dict[str, list[Radial]], dict[str, list[Radial]]]:
        """(radials, distinct radials) of one site, by direction, walked on first use."""
        done = self._sites[site]
        if done is None:
            done = self._sites[site] = self._walk_site(site)
        return done

    def _walk_site(self, site: int):
        pts, table = self.pts, self.by_dir[site]
        specific: list[Radial] = []
        seen: set[tuple] = set()
        in_dir: dict[str, list[Radial]] = {}
        for ordinal in sorted(table):
            name = ABSOLUTE[ordinal]
            for first in table[ordinal]:
                line = (site, first) + self._walker.rest(ordinal, site, first)
                add_radial(specific, in_dir, seen, Radial(name, line), pts)
        merge_rotational(in_dir)
        distinct_dir = {d: distinct_radials(rs) for d, rs in in_dir.items()}

        def key(r):
            (fx, fy), (tx, ty) = pts[r.sites[0]], pts[r.sites[1]]
            return clockwise_score(fx, fy, tx, ty)
        return ({d: sorted(rs, key=key) for d, rs in in_dir.items()},
                {d: sorted(rs, key=key) for d, rs in distinct_dir.items()})


class _SiteRadials(Sequence):
    """A per-site list of a `Trajectories`' radials (or distinct radials), walked on demand."""

    def __init__(self, owner: Trajectories, which: int):
        self._owner, self._which = owner, which

    def __len__(self) -> int:
        return len(self._owner.steps)

    def __getitem__(self, site):
        if isinstance(site, slice):
            return [self[s] for s in range(len(self))[site]]
        n = len(self)
        if not -n <= site < n:
            raise IndexError(f"site {site} is not on the board (0 to {n - 1})")
        return self._owner.site(site % n)[self._which]


class DirectionRadials(Sequence):
    """Per site, the radials of one direction as a tuple: `radials[direction][site]`."""

    def __init__(self, per_site: _SiteRadials, direction: str):
        self._per_site, self.direction = per_site, direction

    def __len__(self) -> int:
        return len(self._per_site)

    def __getitem__(self, site):
        if isinstance(site, slice):
            return tuple(self[s] for s in range(len(self))[site])
        return tuple(self._per_site[site].get(self.direction, ()))


def _by_ordinal(out: list[tuple[int, int]]) -> dict[int, list[int]]:
    """One site's step targets per direction ordinal, in step order."""
    table: dict[int, list[int]] = {}
    for to, bits in out:
        while bits:
            low = bits & -bits
            table.setdefault(low.bit_length() - 1, []).append(to)
            bits ^= low
    return table


def site_steps(g: PlanarGraph, kind: str) -> list[list[tuple[int, int]]]:
    """Ludii's same-type steps of every element of one site type (what the site graph records)."""
    pivots = pivot_vertices(g)
    unit = g.average_edge_length() if any(v.z for v in g.vertices) else 1.0
    return [named_steps(el, g, pivots, unit) for el in g.elements(kind)]


def trajectories(steps: list[list[tuple[int, int]]], pts: list[tuple[float, float]]) -> Trajectories:
    """Ludii's radials, walked over `steps` (site -> [(to, bits)]) at positions `pts`."""
    return Trajectories(steps, pts)


class RadialWalker:
    """Follows radials, remembering the continuation after each (previous, current) pair.

    The walk from [p, c] picks the straightest next step n and carries on;
    it stops at a site already on the line. The continuation after [p, c] is
    therefore n followed by the continuation after [c, n], cut where it
    would come back to p, which lets every radial share the work.
    """

    def __init__(self, by_dir, pts):
        self.by_dir, self.pts = by_dir, pts
        self.memo: dict[tuple[int, int, int], tuple[int, ...]] = {}

    def best(self, ordinal: int, p: int, c: int) -> int | None:
        """The straightest step on from c (coming from p) in direction `ordinal`, or None.

        A circular direction (CW, CCW, In, Out) takes the first step in it instead.
        """
        if ordinal in _CIRCULAR_ORDINALS:
            return next(iter(self.by_dir[c].get(ordinal, ())), None)
        (ax, ay), (bx, by) = self.pts[p], self.pts[c]
        best, best_tan = None, _STRAIGHT
        for nxt in self.by_dir[c].get(ordinal, ()):
            t = abs_tan_turn(ax, ay, bx, by, *self.pts[nxt])
            if t < best_tan:
                best, best_tan = nxt, t
                if t == 0.0:
                    break
        return best

    def walk(self, ordinal: int, p: int, c: int) -> tuple[int, ...]:
        """The continuation after [p, c], step by step (no sharing)."""
        line = [p, c]
        while True:
            n = self.best(ordinal, line[-2], line[-1])
            if n is None or n in line:
                return tuple(line[2:])
            line.append(n)

    def rest(self, ordinal: int, p: int, c: int) -> tuple[int, ...]:
        """The sites after [p, c] on its radial."""
        if ordinal in _CIRCULAR_ORDINALS:     # round a ring: no straight-line sharing
            return self.walk(ordinal, p, c)
        memo = self.memo
        stack: list[tuple[int, int, int]] = []
        on_stack: set[tuple[int, int]] = set()
        while (ordinal, p, c) not in memo:
            if (p, c) in on_stack:        # the line loops: walk this pair out in full
                memo[(ordinal, p, c)] = self.walk(ordinal, p, c)
                break
            n = self.best(ordinal, p, c)
            if n is None or n == p or n == c:
                memo[(ordinal, p, c)] = ()
                break
            stack.append((p, c, n))
            on_stack.add((p, c))
            p, c = c, n
        while stack:
            p, c, n = stack.pop()
            after = memo[(ordinal, c, n)]
            if p in after:
                after = after[:after.index(p)]
            memo[(ordinal, p, c)] = (n,) + after
        return memo[(ordinal, p, c)]


def add_radial(specific: list[Radial], in_dir: dict, seen: set, radial: Radial, pts) -> None:
    """Ludii's Radials.addSafe: skip duplicates, pair opposites, record."""
    key = (radial.direction, radial.sites)
    if key in seen:
        return
    seen.add(key)
    # Opposites pair two compass radials, or two radials of the same relation.
    # CW and CCW, In and Out, are each other's opposites whatever their angles.
    paired = _PAIRED.get(radial.direction)
    for ex in (specific if radial.specific else in_dir.get(radial.direction, ())):
        if ex.direction == paired or opposed(radial, ex, pts):
            radial.add_opposite(ex)
            ex.add_opposite(radial)
    if radial.specific:
        specific.append(radial)
    in_dir.setdefault(radial.direction, []).append(radial)


def merge_rotational(in_dir: dict[str, list[Radial]]) -> None:
    """Ludii's Rotational radials: those walked in it, then the In, Out, CW and CCW ones,
    each dropped when it begins another one of the list (last first)."""
    rot = list(in_dir.get("Rotational", ()))
    for d in ("In", "Out", "CW", "CCW"):
        rot.extend(in_dir.get(d, ()))
    if not rot:
        return
    n = len(rot) - 1
    while n >= 0:
        r = rot[n]
        if any(m != n and len(r.sites) <= len(o.sites) and o.sites[:len(r.sites)] == r.sites
               for m, o in enumerate(rot)):
            del rot[n]
        n -= 1
    in_dir["Rotational"] = rot


def opposed(a: Radial, b: Radial, pts) -> bool:
    """Whether b leaves the common start almost exactly opposite to a."""
    (ax, ay), (ox, oy), (bx, by) = pts[a.sites[1]], pts[a.sites[0]], pts[b.sites[1]]
    return abs_tan_turn(ax, ay, ox, oy, bx, by) < _OPPOSED


def distinct_radials(radials: list[Radial]) -> list[Radial]:
    """Radials that are not the opposite of an earlier distinct one (one per line through a site)."""
    out: list[Radial] = []
    for r in radials:
        if not any(ex is not r and ex.opposite is not None and ex.opposite.sites == r.sites
                   for ex in out):
            out.append(r)
    return out


def supported_directions(steps: list[list[tuple[int, int]]], relation: str) -> tuple[str, ...]:
    """Compass names used by steps of `relation` anywhere on the board, clockwise from N."""
    rel_bit = BIT[relation]
    mask = 0
    for site_steps in steps:
        for _, bits in site_steps:
            if bits & rel_bit:
                mask |= bits
    return tuple(d for d in COMPASS if mask & BIT[d])
