"""Static regions: evaluate region ludemes that depend only on the board.

`(sites Top)`, `(sites Side NE)`, `(sites {"A1" "B2"})`, `(expand (sites Bottom) steps:2)`,
`(union ...)`, `(regions "Home" P1 ...)` and the like are fixed once the board is
built, so they are evaluated here to sorted tuples of site indices (Ludii keeps
regions as bit sets: sorted, without repeats). Anything that needs a game
state (`sites Empty`, `sites Occupied`, ...) is a LudemeError here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LudemeError, known_list
from ..syntax import Array, Call, Node, Range, Str, Word, to_lud
from .base import is_number, number
from .board import Board
from .containers import equipment_items
from .geometry import SITE_TYPES
from .measure import REGION_BITS, SIDES
from .trajectories import ABSOLUTE, RELATIONS

PATH = "game/equipment/regions"
PLAYERS = tuple(f"P{i}" for i in range(1, 17))


@dataclass(frozen=True)
class PlayerRegion:
    """A region declared with `(regions ...)`: optional name, optional owner ("P1"...), sites.

    `parts` keeps each region function of `{...}` apart (connection goals use them separately).
    """

    name: str | None
    owner: str | None
    sites: tuple[int, ...]
    parts: tuple[tuple[int, ...], ...] = ()


class RegionContext:
    """The board and the regions declared so far, for evaluating region ludemes."""

    def __init__(self, board: Board, declared=()):
        self.board = board
        self.declared: list[PlayerRegion] = list(declared)

    def error(self, message: str, node: Node) -> LudemeError:
        return LudemeError(message, node.pos, path=PATH, via=node.via)

    # -- sites
    def site(self, node: Node, site_type: str | None = None) -> int:
        """A single site: an int expression, a label such as "A1", or (coord ...)."""
        topo = self.board.topology(site_type)
        if is_number(node):
            value = number(node, PATH)
            if not isinstance(value, int):
                raise self.error("a site is a whole number", node)
            return value
        if isinstance(node, Str):
            try:
                return topo.index_of(node.value)
            except KeyError:
                raise self.error(f"no site labelled {node.value!r} on this board", node) from None
        if isinstance(node, Call) and node.name == "coord":
            return self.coord(node, site_type)
        raise self.error(f"expected a site, found {to_lud(node)!r}", node)

    def coord(self, node: Call, site_type: str | None) -> int:
        pos = node.positional()
        kind = pos[0].value if pos and isinstance(pos[0], Word) and pos[0].value in SITE_TYPES else site_type
        labels = [p for p in pos if isinstance(p, Str)]
        if labels:
            return self.site(labels[0], kind)
        row, col = node.named("row"), node.named("column")
        if row is None or col is None:
            raise self.error('(coord ...) needs a label ("A1") or row: and column:', node)
        return self.board.topology(kind).coord(number(row, PATH), number(col, PATH))

    # -- regions
    def region(self, node: Node, site_type: str | None = None) -> tuple[int, ...]:
        """A region as sorted site indices."""
        if isinstance(node, Array):
            out: set[int] = set()
            for it in node.items:
                if isinstance(it, Range):
                    out.update(range(self.site(it.lo, site_type), self.site(it.hi, site_type) + 1))
                elif isinstance(it, (Call, Array)) and not is_number(it) and it_is_region(it):
                    out.update(self.region(it, site_type))
                else:
                    out.add(self.site(it, site_type))
            return tuple(sorted(out))
        if isinstance(node, Call):
            handler = _REGION_LUDEMES.get(node.name)
            if handler is not None:
                return tuple(sorted(set(handler(self, node, site_type))))
        if is_number(node) or isinstance(node, Str):
            return (self.site(node, site_type),)
        raise self.error(f"{to_lud(node)[:60]!r} is not a region known before play", node)

    def sites(self, node: Call, site_type):
        pos = node.positional()
        if pos and isinstance(pos[0], Word) and pos[0].value in SITE_TYPES:
            site_type, pos = pos[0].value, pos[1:]
        topo = self.board.topology(site_type)
        if not pos:
            raise self.error("(sites ...) needs an argument", node)
        head = pos[0]
        if isinstance(head, Array):
            return self.region(head, site_type)
        if isinstance(head, Str):                     # a named region
            found = [r for r in self.declared if r.name == head.value
                     and (len(pos) < 2 or r.owner == _word(pos[1]))]
            if not found:
                raise self.error(f"no region named {head.value!r} declared before", head)
            return [s for r in found for s in r.sites]
        if not isinstance(head, Word):
            raise self.error(f"unexpected {to_lud(head)!r} in (sites ...)", head)
        name = head.value
        if name in ("Row", "Column", "Phase", "Side", "Around") and len(pos) < 2:
            raise self.error(f"(sites {name} ...) needs an argument", node)
        if name in ("Direction", "Distance") and node.named("from") is None:
            raise self.error(f"(sites {name} ...) needs from:", node)
        if name in PLAYERS:
            return [s for r in self.declared if r.owner == name for s in r.sites]
        if name == "Board" or name in REGION_BITS:
            return topo.region(name)
        if name in ("Row", "Column", "Phase"):
            return topo.region(name, number(pos[1], PATH))
        if name == "Side":
            side = _word(pos[1]) if len(pos) > 1 else None
            if side not in SIDES:
                raise self.error(f"(sites Side ...) takes one of {known_list(SIDES)}", node)
            return topo.region("Side", side)
        if name == "Around":
            where = self.region(pos[1], site_type)
            direction = _word(pos[2]) if len(pos) > 2 and _word(pos[2]) in ABSOLUTE else "Adjacent"
            dist = node.named("distance")
            incl = node.named("includeSelf")
            return topo.around(where, direction, 1 if dist is None else number(dist, PATH),
                               bool(incl.value) if incl is not None else False)
        if name == "Direction":
            src = node.named("from")
            dirs = [_word(p) for p in pos[1:]]
            dirs = [d for d in dirs if d in ABSOLUTE] or ["Adjacent"]
            dist = node.named("distance")
            incl = node.named("included")
            return topo.in_direction(self.site(src, site_type), dirs,
                                     None if dist is None else number(dist, PATH),
                                     bool(incl.value) if incl is not None else False)
        if name == "Distance":
            src = node.named("from")
            rng = pos[-1]
            lo, hi = (self.site(rng.lo), self.site(rng.hi)) if isinstance(rng, Range) else \
                ((number(rng.args[0], PATH), number(rng.args[1], PATH)) if isinstance(rng, Call)
                 and rng.name == "range" else (number(rng, PATH),) * 2)
            relation = next((_word(p) for p in pos[1:] if _word(p) in RELATIONS), "Adjacent")
            return topo.at_distance(self.site(src, site_type), lo, hi, relation)
        raise self.error(f"(sites {name} ...) is not a region known before play", node)

    def combine(self, node: Call, site_type):
        parts = []
        for a in node.positional():
            if isinstance(a, Array) and all(isinstance(i, (Call, Array)) for i in a.items):
                parts.extend(self.region(i, site_type) for i in a.items)
            else:
                parts.append(self.region(a, site_type))
        if not parts:
            raise self.error(f"({node.name} ...) needs regions", node)
        out = set(parts[0])
        for p in parts[1:]:
            if node.name == "union":
                out |= set(p)
            elif node.name == "intersection":
                out &= set(p)
            else:
                out -= set(p)
        return out

    def expand(self, node: Call, site_type):
        pos = node.positional()
        kind = next((p.value for p in pos if isinstance(p, Word) and p.value in SITE_TYPES), site_type)
        direction = next((p.value for p in pos if isinstance(p, Word) and p.value in ABSOLUTE), None)
        origin = node.named("origin")
        base = [p for p in pos if not isinstance(p, Word)]
        if origin is not None:
            start: tuple[int, ...] = (self.site(origin, kind),)
        elif base:
            start = self.region(base[0], kind)
        else:
            raise self.error("(expand ...) needs a region or origin:", node)
        steps = node.named("steps")
        n = 1 if steps is None else number(steps, PATH)
        return self.board.topology(kind).expand(start, n, direction) if n > 0 else start


def it_is_region(node: Node) -> bool:
    """Whether an array item is itself a region (rather than a single site)."""
    if isinstance(node, Array):
        return True
    return isinstance(node, Call) and node.name in _REGION_LUDEMES


def _word(node: Node) -> str | None:
    return node.value if isinstance(node, Word) else None


_REGION_LUDEMES = {
    "sites": RegionContext.sites,
    "union": RegionContext.combine,
    "intersection": RegionContext.combine,
    "difference": RegionContext.combine,
    "expand": RegionContext.expand,
}


def region(node: Node, board: Board, declared=(), site_type: str | None = None) -> tuple[int, ...]:
    """Evaluate a static region ludeme on `board` to sorted site indices."""
    return RegionContext(board, declared).region(node, site_type)


def static_regions(equipment: Call, board: Board) -> list[PlayerRegion]:
    """Every `(regions ...)` item of an `(equipment {...})` call, evaluated in order."""
    ctx = RegionContext(board)
    for it in equipment_items(equipment):
        if not (isinstance(it, Call) and it.name == "regions"):
            continue
        pos = it.positional()
        name = pos[0].value if pos and isinstance(pos[0], Str) else None
        pos = pos[1:] if name is not None else pos
        owner = None
        if pos and isinstance(pos[0], Word) and pos[0].value in PLAYERS + ("Shared", "Neutral", "All"):
            owner, pos = pos[0].value, pos[1:]
        if not pos:
            raise ctx.error("(regions ...) needs sites", it)
        specs = []
        for spec in pos:
            if isinstance(spec, Array) and spec.items and all(it_is_region(i) for i in spec.items):
                specs.extend(spec.items)
            else:
                specs.append(spec)
        parts = tuple(ctx.region(spec) for spec in specs)
        sites = tuple(sorted({s for part in parts for s in part}))
        ctx.declared.append(PlayerRegion(name, owner, sites, parts))
    return ctx.declared
