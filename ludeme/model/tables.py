"""Board tables for compiling rules: directions normalised once, steps, rays, regions.

`BoardTables` wraps a built board (`ludeme.boards`) with what rules ask of it
while compiling: which directions a direction word names on this board (compass
names, relations such as Orthogonal, directions relative to a piece's facing or
to the last move), the sites one step away, the radials `is Line` walks, static
regions and labels. Each answer is a plain tuple a closure can index; nothing
here runs during a playout except the closures built for relative directions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:       # only for annotations: importing the ludemes here would be circular
    from ludeme.model.ludemes.base import Ludeme


_CIRCULAR_WORDS = ("Rotational", "CW", "CCW", "In", "Out")


class BoardTables:
    """A board's tables, as rules use them."""

    def __init__(self, board, facing_of: list[str]):
        self.board = board
        self.num_board_sites = board.num_sites
        self.facing_of = facing_of          # per component index: the direction it faces
        self.rotated = False                # a start rule gives pieces a rotation (set by
                                            # the builder; read while playing)

    def _dirs(self, dirn, lud: Ludeme) -> list[str]:
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        out: list[str] = []
        for w in words:
            if w in self.board.directions:
                out.append(w)
                continue
            try:
                got = self.board.relation_dirs(w)
            except (KeyError, ValueError):
                got = None
            if got is None:
                raise lud.fail(f"the direction {w} is not supported on this board "
                               f"(board directions: {', '.join(self.board.directions)})")
            out.extend(got)
        seen = []
        for d in out:
            if d not in seen:
                seen.append(d)
        return seen


    def is_static_direction(self, dirn) -> bool:
        """True when `dirn` names no direction relative to a piece or to the last move."""
        if hasattr(dirn, "direction_keys"):     # a direction function: (if ...), ...
            return False
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        return not any(w in RELATIVE_ANGLES or w in _TURNS
                       or w in ("SameDirection", "OppositeDirection") for w in words)


    def direction_keys(self, dirn, lud: Ludeme, repeats: bool = False):
        """A closure (c, site) -> direction names usable as keys of the board's radials.

        Compass names and relations (Orthogonal, Adjacent, ...) are fixed; directions
        relative to the piece's facing (Forward, FL, ...) or to the last move
        (SameDirection, OppositeDirection) are resolved when the move is generated.
        Each name comes once, unless `repeats`: then the list is Ludii's
        Directions.convertToAbsolute, where a direction two words give comes twice
        (Forwards and Leftwards both hold the forward-left diagonal).
        """
        distinct = (lambda names: tuple(names)) if repeats else \
            (lambda names: tuple(dict.fromkeys(names)))
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        radial_keys = set(self.board.radials)
        static, dynamic = [], []
        for w in words:
            if w in self.board.directions or w in radial_keys or w in RELATIONS:
                static.append(w)
            elif w in RELATIVE_ANGLES or w in _TURNS or w in ("SameDirection", "OppositeDirection"):
                dynamic.append(w)
            else:
                raise lud.fail(f"the direction {w} is not supported on this board "
                               f"(board directions: {', '.join(self.board.directions)})")
        fixed = distinct(static)
        by_site = getattr(dirn, "bySite", False)
        if by_site and not dynamic:
            raise lud.fail("(directions ... bySite:True) takes directions relative to a "
                           "piece (Forwards, FR, ...)")
        if not dynamic:
            return lambda c, frm: fixed
        # Ludii turns relative directions into those of the Adjacent relation (`of:`
        # defaults to Adjacent): on a hexagonal board, the six neighbours' directions.
        of = getattr(dirn, "of", None) or "Adjacent"
        if of not in RELATIONS:
            raise lud.fail(f"(directions of:{of}) is not supported yet: of: takes one of "
                           f"{', '.join(RELATIONS)}")
        try:
            relative_to = tuple(self.board.relation_dirs(of)) or self.board.directions
        except (KeyError, ValueError):
            relative_to = self.board.directions
        radials = self.board.radials
        facing_of = self.facing_of
        tables = self
        # bySite: Ludii turns among the directions of the relation that the site itself
        # has a step in (its element's supported directions), not the whole board's.
        site_dirs = self.site_relation_dirs(of) if by_site else ()

        def supported(frm):
            return site_dirs[frm] if 0 <= frm < len(site_dirs) else relative_to

        def along(a, b, turn_among):
            """The first supported direction with a radial from a passing through b."""
            if a < 0:
                return None
            for d in turn_among:
                table = radials.get(d)
                if table is None or a >= len(table):
                    continue
                for r in table[a]:
                    if b in r.sites[1:]:
                        return d
            return None

        def facing_at(s, frm, what):
            """Ludii's facing of the piece at a site: its own, turned right (to the first
            supported direction, FR) once per step of the piece's rotation."""
            facing = facing_of[what]
            if not tables.rotated:      # no rotation anywhere: nothing to read
                return facing
            for _ in range(s.piece_rotation(frm)):
                turned = relative_directions(facing, "FR", supported(frm))
                facing = turned[0] if turned else facing
            return facing

        def keys(c, frm):
            # Ludii's Directions.convertToAbsolute: nothing when no piece stands at the
            # site; else the piece's facing, turned by its rotation.
            s = c.s
            what = s.what[frm] if 0 <= frm < len(s.what) else 0
            if what < 1:
                return fixed
            out = list(fixed)
            facing = None
            turn_among = supported(frm)
            for w in dynamic:
                if w == "SameDirection":
                    d = along(s.last_from, s.last_to, turn_among)
                    if d:
                        out.append(d)
                elif w == "OppositeDirection":
                    d = along(s.last_to, s.last_from, turn_among)
                    if d:
                        out.append(d)
                else:
                    if facing is None:
                        facing = facing_at(s, frm, what)
                    out.extend(relative_directions(facing, w, turn_among))
            return distinct(out)
        if by_site or any(w in ("SameDirection", "OppositeDirection") for w in dynamic):
            return keys
        # Directions relative to the piece's facing only: the same keys for the same
        # facing, worked out once per facing (the facings of pieces are fixed).
        by_facing: dict[str, tuple] = {}

        def facing_keys(c, frm):
            s = c.s
            piece = s.what[frm] if 0 <= frm < len(s.what) else 0
            if piece < 1:
                return fixed        # no piece at the site: no facing (as keys says)
            facing = facing_at(s, frm, piece)
            got = by_facing.get(facing)
            if got is None:
                got = by_facing[facing] = keys(c, frm)
            return got
        return facing_keys


    def site_relation_dirs(self, relation: str) -> tuple[tuple[str, ...], ...]:
        """Per board site, the compass names of the steps of `relation` leaving it, clockwise
        from N (Ludii's TopologyElement.supportedDirections)."""
        order = {d: i for i, d in enumerate(COMPASS_ANGLE)}
        adj = self.board.graph.adj
        return tuple(
            tuple(sorted({e["direction"] for e in adj[site].values()
                          if relation in e["relations"] and e["direction"] in order},
                         key=order.get))
            for site in range(self.board.num_sites))

    def step_targets(self, dirn, lud: Ludeme) -> tuple:
        """Per site, the distinct sites one step away in the direction choice `dirn`.

        A relation word (Adjacent, Orthogonal, ...) takes the board's neighbours in that
        relation, as Ludii's steps do on any tiling; absolute directions take the step
        tables. Duplicates are dropped, as Ludii drops a repeated (from, to).
        """
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        n = self.num_board_sites
        per_site: list[list[int]] = [[] for _ in range(n)]
        for w in words:
            if w in self.board.directions:
                tab = self.board.step[w]
                for s in range(n):
                    if tab[s] >= 0:
                        per_site[s].append(tab[s])
            elif w in ("Adjacent", "Orthogonal", "Diagonal", "OffDiagonal", "All"):
                try:
                    table = self.board.neighbours[w]
                except KeyError:
                    raise lud.fail(f"{w} neighbours are not available on this board") from None
                for s in range(n):
                    per_site[s].extend(table[s])
            elif w in _CIRCULAR_WORDS and w in self.board.radials:
                # Ludii's steps in a circular direction (or Rotational, any of them).
                traj = self.board.trajectories
                for s in range(n):
                    per_site[s].extend(traj.targets(s, w))
            else:
                for tab in self.step_tables(w, lud):
                    for s in range(n):
                        if tab[s] >= 0:
                            per_site[s].append(tab[s])
        return tuple(tuple(dict.fromkeys(p)) for p in per_site)


    def step_tables(self, dirn, lud: Ludeme) -> list[tuple]:
        """Neighbour tables (site -> site or -1), one per absolute direction in `dirn`."""
        return [self.board.step[d] for d in self._dirs(dirn, lud)]


    def line_radials(self, dirn, lud: Ludeme) -> tuple:
        """Per site, the (sites after the start, sites of its opposite or None) of each
        distinct radial in the direction choice, as Ludii's `is Line` walks them."""
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        n = self.num_board_sites
        per_site: list[list] = [[] for _ in range(n)]
        for w in words:
            table = self.board.distinct_radials.get(w)
            if table is None:
                raise lud.fail(f"the direction {w} is not supported on this board "
                               f"(board directions: {', '.join(self.board.directions)})")
            for s in range(n):
                for r in table[s]:
                    opp = r.opposite.sites[1:] if r.opposite is not None else None
                    per_site[s].append((r.sites[1:], opp))
        return tuple(tuple(p) for p in per_site)


    def board_region(self, kind: str, lud: Ludeme) -> tuple:
        """A static region of the board (Top, Bottom, Corners, ...)."""
        try:
            return tuple(sorted(self.board.region(kind)))
        except (KeyError, ValueError, NotImplementedError) as e:
            raise lud.fail(f"(sites {kind}) is not available on this board: {e}") from None


    def site_of_label(self, label: str, lud: Ludeme) -> int:
        try:
            return self.board.index_of(label)
        except (KeyError, ValueError):
            raise lud.fail(f"no site labelled {label!r} on this board") from None


RELATIONS = ("Adjacent", "Orthogonal", "Diagonal", "OffDiagonal", "All")

COMPASS_ANGLE = {"N": 0.0, "NNE": 22.5, "NE": 45.0, "ENE": 67.5, "E": 90.0, "ESE": 112.5,
                 "SE": 135.0, "SSE": 157.5, "S": 180.0, "SSW": 202.5, "SW": 225.0,
                 "WSW": 247.5, "W": 270.0, "WNW": 292.5, "NW": 315.0, "NNW": 337.5}

# Directions relative to a facing (Ludii's RelativeDirection), as turns on the ring of
# sixteen compass names: the word's start (in sixteenths, clockwise from the facing),
# the turn taken from there (+1 clockwise, -1 anticlockwise) and how many names it takes
# (one: a single direction if supported; "first": the first supported one met; or a
# count of ring positions to collect in order).
_RING = tuple(COMPASS_ANGLE)
_RELATIVE = {"Forward": (0, 1, 1), "Backward": (8, 1, 1), "Rightward": (4, 1, 1),
             "Leftward": (-4, 1, 1),
             "Forwards": (-3, 1, 7), "Backwards": (5, 1, 7), "Rightwards": (1, 1, 7),
             "Leftwards": (-1, -1, 7)}
for _fb, _base in (("F", 0), ("B", 8)):
    for _lr, _turn in (("L", -1), ("R", 1)):
        for _n in (1, 2, 3):
            _RELATIVE[f"{_fb}{_lr * _n}"] = (_base + _turn, _turn, "first")
_TURNS = frozenset(f"{fb}{lr * n}" for fb in "FB" for lr in "LR" for n in (1, 2, 3))
RELATIVE_ANGLES = frozenset(w for w in _RELATIVE if w not in _TURNS)   # Forward, ...


def relative_directions(facing: str, word: str, supported) -> list[str]:
    """Compass names for a direction relative to `facing` among the supported ones, in
    Ludii's order (RelativeDirection.directions).

    Forward, Backward, Rightward and Leftward name one direction (none if unsupported);
    Forwards and Backwards the supported ones strictly within 90 degrees, from left to
    right; Rightwards (Leftwards) those strictly between front and back turning clockwise
    (anticlockwise). FL, FR, BL, BR turn from the facing (F) or its back (B) one sixteenth
    at a time to the first supported direction; Ludii's FLL, FLLL, ... stop there too."""
    if facing not in COMPASS_ANGLE:
        return []
    start, turn, count = _RELATIVE[word]
    i = _RING.index(facing) + start
    if count == "first":
        for k in range(16):
            d = _RING[(i + turn * k) % 16]
            if d in supported:
                return [d]
        return []
    return [d for d in (_RING[(i + turn * k) % 16] for k in range(count)) if d in supported]

