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

import math
from dataclasses import dataclass, field

from .geometry import (CELL, VERTEX, PlanarGraph, abs_tan_turn, clockwise_score, distance,
                       distance_to_line, positive_angle)

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

_NEAR = BIT["Orthogonal"] | BIT["Adjacent"] | BIT["All"]
_DIAG_ADJ = BIT["Diagonal"] | BIT["Adjacent"] | BIT["All"]
_OFF = BIT["OffDiagonal"] | BIT["Adjacent"] | BIT["All"]
_DIAG_FAR = BIT["Diagonal"] | BIT["All"]
_SPECIFIC_FROM = ORDINAL["N"]          # every direction from N on names one bearing
_STRAIGHT = math.tan(0.25)             # most a radial may bend at one site
_OPPOSED = math.tan(0.1)               # most two radials may differ from opposite


def compass_name(fx, fy, tx, ty, sixteen: bool) -> str:
    """Bearing of t from f as one of 8 (or 16) compass names."""
    angle = positive_angle(math.atan2(ty - fy, tx - fx))
    if not sixteen:
        off = 2 * math.pi / 16
        names = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
        for k, name in enumerate(names):
            if angle < off + (2 * k) * math.pi / 8:
                return name
        return "E"
    off = 2 * math.pi / 32
    names = ("E", "ENE", "NE", "NNE", "N", "NNW", "NW", "WNW",
             "W", "WSW", "SW", "SSW", "S", "SSE", "SE", "ESE")
    for k, name in enumerate(names):
        if angle < off + (2 * k) * math.pi / 16:
            return name
    return "E"


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
                if (dv + dov) / distance(el.x, el.y, other.x, other.y) > 0.1:
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


def named_steps(el) -> list[tuple[int, int]]:
    """Same-type steps of `el` as (target id, direction bits), clockwise from north."""
    steps = raw_steps(el)
    names8 = [compass_name(el.x, el.y, t.x, t.y, False) for t, _ in steps]
    sixteen = len(set(names8)) < len(names8)
    for s in steps:
        s[1] |= BIT[compass_name(el.x, el.y, s[0].x, s[0].y, sixteen)] | BIT["SameLayer"]
    steps.sort(key=lambda s: clockwise_score(el.x, el.y, s[0].x, s[0].y))
    return [(t.id, bits) for t, bits in steps if t.kind == el.kind]


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


@dataclass
class Trajectories:
    """Steps and radials of every element of one site type."""

    steps: list[list[tuple[int, int]]]              # site -> [(to, bits)] clockwise from N
    radials: list[dict[str, list[Radial]]]         # site -> direction -> radials, clockwise
    distinct: list[dict[str, list[Radial]]]        # site -> direction -> radials without opposites

    def targets(self, site: int, direction: str) -> list[int]:
        """Same-type sites one step from `site` in `direction` (a compass name or a relation)."""
        bit = BIT[direction]
        return [to for to, bits in self.steps[site] if bits & bit]


def site_steps(g: PlanarGraph, kind: str) -> list[list[tuple[int, int]]]:
    """Ludii's same-type steps of every element of one site type (what the site graph records)."""
    return [named_steps(el) for el in g.elements(kind)]


def trajectories(steps: list[list[tuple[int, int]]], pts: list[tuple[float, float]]) -> Trajectories:
    """Ludii's radials, walked over `steps` (site -> [(to, bits)]) at positions `pts`."""
    by_dir: list[dict[int, list[int]]] = []
    for site_steps in steps:
        table: dict[int, list[int]] = {}
        for to, bits in site_steps:
            b, n = bits, 0
            while b:
                if b & 1:
                    table.setdefault(n, []).append(to)
                b >>= 1
                n += 1
        by_dir.append(table)

    radials, distinct = [], []
    walker = RadialWalker(by_dir, pts)
    for site in range(len(steps)):
        specific: list[Radial] = []
        seen: set[tuple] = set()
        in_dir: dict[str, list[Radial]] = {}
        for ordinal in sorted(by_dir[site]):
            name = ABSOLUTE[ordinal]
            for first in by_dir[site][ordinal]:
                line = (site, first) + walker.rest(ordinal, site, first)
                add_radial(specific, in_dir, seen, Radial(name, line), pts)
        distinct_dir = {d: distinct_radials(rs) for d, rs in in_dir.items()}

        def key(r):
            (fx, fy), (tx, ty) = pts[r.sites[0]], pts[r.sites[1]]
            return clockwise_score(fx, fy, tx, ty)
        radials.append({d: sorted(rs, key=key) for d, rs in in_dir.items()})
        distinct.append({d: sorted(rs, key=key) for d, rs in distinct_dir.items()})
    return Trajectories(steps, radials, distinct)


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
        """The straightest step on from c (coming from p) in direction `ordinal`, or None."""
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
    for ex in (specific if radial.specific else in_dir.get(radial.direction, ())):
        if opposed(radial, ex, pts):
            radial.add_opposite(ex)
            ex.add_opposite(radial)
    if radial.specific:
        specific.append(radial)
    in_dir.setdefault(radial.direction, []).append(radial)


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
