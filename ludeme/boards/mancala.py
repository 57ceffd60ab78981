"""`(mancalaBoard rows columns [store:] [numStores:] [track | {tracks}])` and `(track ...)`.

Ludii builds a mancala board on vertices: rows of `columns` holes one unit
apart, bottom row first, with a store at each end unless `store:None`. The
vertices are numbered in the order Ludii unites the parts: left store, the
rows bottom to top (each left to right), right store; so on a 2 x 6 board
with stores 0 is the left store, 1-6 the bottom row, 7-12 the top row and 13
the right store. The parts are then joined by an edge wherever two vertices
are closer than 1.1 times the average edge length, which links each store to
the holes beside it (a store sits about one unit from them).

A track is a named sequence of sites, written as site numbers or as a start
site followed by compass steps ("1,E,N,W": from 1 go east to the edge, then
north, then west), following Ludii's Track.buildTrack.

Example: `(mancalaBoard 2 6 (track "Track" "1,E,N,W" loop:True))`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import LudemeError
from ..syntax import Array, Call, Int, Str, Word, to_lud
from .base import Args
from .board import Board
from .containers import BoardLudeme
from .geometry import VERTEX, graph_from_points
from .measure import measure

STORE_TYPES = ("Outer", "Inner", "None")
END = -2     # Ludii's End: the site past the last one of a track

# Where Ludii puts the stores, per number of rows: (left store, x shift of the right store).
_STORES = {2: ((-0.85, 0.5), -0.15, 0.5), 3: ((-1.0, 1.0), 0.0, 1.0),
           4: ((-0.9, 1.5), -0.1, 1.5)}


@dataclass(frozen=True)
class TrackSpec:
    """A `(track ...)` as written: name, steps (a string or site numbers), options."""

    name: str
    steps: str | tuple[int, ...]
    loop: bool
    owner: int
    directed: bool
    node: Call


@dataclass
class Track:
    """A built track: its sites in order (repeats of one site folded) and its options."""

    name: str
    sites: tuple[int, ...]
    loop: bool
    owner: int                  # 0: everyone's
    directed: bool
    bumps: tuple[int, ...] = field(default=())   # per element, how often its site repeats
    internal_loop: bool = False   # a site comes back on a track with no repeats


def parse_track(node, path: str) -> TrackSpec:
    """The `(track "Name" "steps"|{sites} [loop:] [owner|role] [directed:])` written at `node`."""
    if not isinstance(node, Call) or node.name != "track":
        raise LudemeError(f"expected (track ...), found {to_lud(node)!r}", node.pos, path=path,
                          via=node.via)
    args = Args(node, f"{path}/track")
    name_node = args.take()
    if not isinstance(name_node, Str):
        raise args.error("a track starts with its name, e.g. \"Track\"", name_node)
    steps_node = args.take()
    if isinstance(steps_node, Str):
        steps: str | tuple[int, ...] = steps_node.value
    elif isinstance(steps_node, Array) and all(
            isinstance(i, Int) or (isinstance(i, Word) and i.value == "End")
            for i in steps_node.items):
        steps = tuple(i.value if isinstance(i, Int) else END for i in steps_node.items)
    else:
        raise args.error("a track's steps are a string (\"0,E,N\") or site numbers ({0 1 2})",
                         steps_node)
    owner = 0
    nxt = args.peek()
    if isinstance(nxt, Int):
        owner = args.take().value
    elif isinstance(nxt, Word):
        word = args.take()
        if word.value.startswith("P") and word.value[1:].isdigit():
            owner = int(word.value[1:])
        elif word.value not in ("Shared", "Neutral", "All"):
            raise args.error(f"a track's owner is a player (P1, P2, ...) or a number, "
                             f"found {word.value}", word)
    loop = bool(args.named_bool("loop", False))
    directed = bool(args.named_bool("directed", False))
    args.finish()
    return TrackSpec(name_node.value, steps, loop, owner, directed, node)


def build_track(spec: TrackSpec, board: Board) -> Track:
    """Ludii's Track.buildTrack on the board's default site type."""
    if isinstance(spec.steps, tuple):
        sites = list(spec.steps)
    else:
        sites = _walk(spec, board)
    elems: list[int] = []
    bumps: list[int] = []
    count = 0
    for i, s in enumerate(sites):
        if i == len(sites) - 1 or s != sites[i + 1]:
            elems.append(s)
            bumps.append(count)
            count = 0
        else:
            count += 1
    has_bump = any(bumps)
    internal = not has_bump and len(set(elems)) != len(elems)
    for s in elems:
        # Sites past the board are allowed: a track may start in a hand (Ludii's numbering
        # continues there).
        if s != END and s < 0:
            raise LudemeError(f"track {spec.name!r}: site {s} is not a site", spec.node.pos,
                              via=spec.node.via)
    return Track(spec.name, tuple(elems), spec.loop, spec.owner, spec.directed, tuple(bumps),
                 internal)


def _walk(spec: TrackSpec, board: Board) -> list[int]:
    parts = spec.steps.split(",")

    def bad(msg):
        return LudemeError(f"track {spec.name!r}: {msg}", spec.node.pos, via=spec.node.via)
    if not parts[0].isdigit():
        raise bad(f"the first step must be a site number, found {parts[0]!r}")
    current = int(parts[0])
    out = [current]
    n = board.num_sites
    for step in parts[1:]:
        if step.isdigit():
            current = int(step)
            out.append(current)
            continue
        if step == "End":
            out.append(END)
            continue
        if not 0 <= current < n:
            raise bad(f"the step {step!r} needs a board site to start from")
        if board.site_type not in ("Cell", "Vertex"):
            raise bad("tracks by direction on edges are not supported yet")
        direction = "".join(ch for ch in step if not ch.isdigit())
        size = int(step[len(direction):]) if len(direction) != len(step) else None
        if direction not in board.directions:
            raise bad(f"the step {step!r}: no direction {direction!r} on this board "
                      f"(it has {', '.join(board.directions)})")
        for radial in board.radials[direction][current]:
            run = radial.sites[1:] if size is None else radial.sites[1:size + 1]
            for s in run:
                current = s
                out.append(s)
    return out


@dataclass
class MancalaBoard(BoardLudeme, keyword="mancalaBoard"):
    """Ludii's mancala board (2 to 4 rows, outer stores by default), played on vertices.

    Examples: `(mancalaBoard 2 6 (track "Track" "1,E,N,W" loop:True))` has 14 sites;
    `(mancalaBoard 4 8 store:None)` has 32.
    """

    rows: int
    columns: int
    store: str = "Outer"
    num_stores: int = 2
    tracks: list = field(default_factory=list)

    @classmethod
    def parse(cls, args: Args) -> "MancalaBoard":
        rows = args.dim()
        columns = args.dim()
        store = args.named_word("store", STORE_TYPES, "Outer")
        num_stores = args.named_dim("numStores", 2)
        # largeStack: only how Ludii stores tall stacks; sites here hold any count.
        args.named_bool("largeStack")
        tracks = []
        while args.peek() is not None:
            node = args.take()
            items = node.items if isinstance(node, Array) else [node]
            tracks.extend(parse_track(t, args.path) for t in items)
        if not 2 <= rows <= 4:
            raise args.error(f"a mancala board has 2 to 4 rows, not {rows}")
        if columns < 1:
            raise args.error(f"a mancala board needs at least one column, not {columns}")
        if store == "Inner" or num_stores != 2:
            # Ludii then falls back to a plain square grid of `rows`: refuse it for now.
            raise args.error("mancala boards with inner stores or other than two stores are "
                             "not supported yet", args.named("store") or args.named("numStores"))
        return cls(rows, columns, store, num_stores, tracks)

    def points(self) -> list[tuple[float, float]]:
        """Vertex coordinates in Ludii's order: left store, rows bottom-up, right store."""
        holes = [(float(c), float(r)) for r in range(self.rows) for c in range(self.columns)]
        if self.store == "None":
            return holes
        left, shift, y = _STORES[self.rows]
        return [left] + holes + [(self.columns + shift, y)]

    def build(self, players: int) -> Board:
        pts = self.points()
        # Ludii unites the rows (edges of length 1 along each row) and joins every pair of
        # vertices closer than 1.1 x the average edge length.
        row_edges = self.rows * (self.columns - 1)
        threshold = 1.1 * (1.0 if row_edges else 0.0)
        edges = [(i, j) for i in range(len(pts)) for j in range(i + 1, len(pts))
                 if ((pts[i][0] - pts[j][0]) ** 2 + (pts[i][1] - pts[j][1]) ** 2) ** 0.5
                 < threshold]
        g = graph_from_points(pts, edges=edges)
        perimeters = tuple(tuple(v.id for v in p.elements) for p in measure(g))
        board = Board(g, VERTEX, players=players, perimeters=perimeters)
        board.track_info = []     # every track in declaration order (names may repeat per owner)
        for spec in self.tracks:
            track = build_track(spec, board)
            board.track_info.append(track)
            board.tracks.setdefault(track.name, track.sites)
        return board
