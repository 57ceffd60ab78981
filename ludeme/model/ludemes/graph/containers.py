"""Board containers: `(board <graph> [tracks] use:...)`, `(surakartaBoard <graph>)`, and
`build_board`.

The containers are typed ludemes of the equipment (`BoardContainer` below
and its subclasses here and in `mancala`); `build_board(players)` runs Ludii's
pipeline: the graph function makes a planar graph for the default site type,
`measure` finds its regions and coordinates, and the `Board` computes steps,
radials and tables from it.
"""

from __future__ import annotations

from contextlib import contextmanager

from ludeme.errors import LudemeError
from ludeme.model.ludemes.base import (REGISTRY, Enum, GraphFn, Item, LitBool, Ludeme, P,
                                       SiteType, ludeme)
from ludeme.model.ludemes.builder import Builder
from ludeme.language.syntax import Array, Call, Node, to_lud
from .base import INT, size
from ludeme.boards.board import Board
from ludeme.boards.geometry import CELL, VERTEX, BoardTooLarge, gc_paused
from ludeme.boards.measure import measure

# Every ludeme here declares its concepts.
CONCEPTS_REVIEWED = True


@ludeme("board")
class BoardContainer(Item):
    """The board: a shape (a graph function, `ludeme.boards`) played on its cells (the
    default), vertices or edges (`use:`), with its tracks; other containers
    (`mancalaBoard`, `surakartaBoard`) subclass this.

    Example: `(board (square 3) use:Vertex)` is 9 points."""
    concepts = ("Board",)

    params = (P("shape", GraphFn), P("tracks", "Track", opt=True, many=True),
              P("use", SiteType, opt=True, named=True, default="Cell"),
              P("largeStack", LitBool, opt=True, named=True, default=False))

    def build_board(self, players: int):
        """The board, numbered as Ludii numbers it (`ludeme.boards.Board`)."""
        return board_on_graph(self.shape, self.use, players, self.tracks)

    def playable_board(self, players: int):
        """`build_board`, refused at the shape's position when it has no site to play on."""
        board = self.build_board(players)
        if board.num_sites == 0:
            # e.g. (square 0) or (rectangle -2 5): Ludii's graph functions give an empty graph.
            shape = getattr(self, "shape", None) or self
            raise shape.fail(f"this board has no {board.site_type.lower()}s to play on: "
                             "its sizes must be at least 1")
        return board


@ludeme("boardless")
class Boardless(BoardContainer):
    """A table with no drawn board: Ludii plays it on a large board of cells of one
    tiling, a 41 x 41 square, a hexagon of side 21 or a triangle of side 41 unless a
    size is given, and `(sites Playable)` is the empty cells next to a piece.

    Example: `(boardless Hexagonal 3)` is the 19 cells of `(board (hex 3))`;
    `(boardless Square)` has 1681 cells.
    """

    concepts = ("Board", "Boardless")

    params = (P("tiling", Enum("TilingBoardlessType", "Square Hexagonal Triangle")),
              P("dimension", INT, opt=True),
              P("largeStack", LitBool, opt=True, named=True, default=False))

    SIZES = {"Square": 41, "Hexagonal": 21, "Triangle": 41}     # Ludii's SIZE_*BOARDLESS

    def build_board(self, players: int) -> Board:
        from .generators import hexagon_on_hex, rectangle_on_square, triangle_on_tri
        n = size(self, "dimension", 1)
        n = self.SIZES[self.tiling] if n is None else n

        def graph():
            if self.tiling == "Square":
                return rectangle_on_square(n, n, None, CELL)
            if self.tiling == "Hexagonal":
                g = hexagon_on_hex(n)
                g.basis, g.shape = "Hexagonal", "Hexagon"
                return g
            return triangle_on_tri(n, CELL)
        with within_limit(self):
            board = shared_board(("boardless", self.tiling, n), graph, CELL, players)
        board.boardless = True
        return board


def board_on_graph(graph: GraphFn, site_type: str, players: int, tracks=()) -> Board:
    """The board of `graph` played on `site_type`, with its tracks built on it."""
    from .tracks import add_tracks
    with within_limit(graph):
        board = shared_board(("graph", to_lud(graph.node), site_type),
                             lambda: graph.build(site_type), site_type, players, graph)
    add_tracks(board, tracks)
    return board


# The planar graphs built in this process, with their perimeters and topologies, by what
# built them (a graph ludeme's text and its site type; a mancala board's sizes): the
# candidates of a reconstruction, the variants of a comparison and a suite's games build
# the same board again and again, and its tables (the radials above all) are most of a
# game's build. Only what depends on the graph alone is shared, and nothing writes to it
# once built; each game still gets a Board of its own (its tracks, its flags).
_GRAPHS: dict[tuple, tuple] = {}
GRAPHS_KEPT = 8             # the most recently used
# Larger graphs are not kept: their tables take tens of megabytes, and a folder of such
# boards must not hold eight of them at once (Taikyoku Shogi's is 5,329 elements).
GRAPH_KEPT_ELEMENTS = 20_000


def shared_board(key: tuple, build, site_type: str, players: int, lud=None) -> Board:
    """A Board on the planar graph `build()` makes, built and measured once per `key` (see
    _GRAPHS), its topologies shared with the other boards of that graph. `lud`, the graph
    ludeme `build` reads, is marked read as the first build read it: the builder's check
    that no argument is ignored (`Builder.check_all_read`) holds on a shared graph too."""
    hit = _GRAPHS.pop(key, None)
    if hit is None:
        with gc_paused():
            g = build()
            g.check_size()
            hit = (g, tuple(tuple(v.id for v in p.elements) for p in measure(g)), {},
                   [set(x._read) for x in ludemes_under(lud)])
    else:
        for x, read in zip(ludemes_under(lud), hit[3]):
            x._read |= read
    g, perimeters, topologies, _ = hit
    board = Board(g, site_type, players=players, perimeters=perimeters, topologies=topologies)
    if board.num_elements() <= GRAPH_KEPT_ELEMENTS:    # kept as the latest, the oldest given up
        while len(_GRAPHS) >= GRAPHS_KEPT:
            _GRAPHS.pop(next(iter(_GRAPHS)))
        _GRAPHS[key] = hit
    return board


def ludemes_under(lud) -> list:
    """`lud` and every ludeme among its arguments, depth first in the order declared: the
    same list for any two ludemes built from the same text."""
    if lud is None:
        return []
    out, todo = [], [lud]
    while todo:
        x = todo.pop()
        if isinstance(x, Ludeme):
            out.append(x)
            todo.extend(reversed(list(x._fields.values())))
        elif isinstance(x, (list, tuple)):
            todo.extend(reversed(x))
    return out


@contextmanager
def within_limit(lud):
    """Build a board graph under `lud`, refused at its position when it is over
    MAX_ELEMENTS: measuring and tabling it would take minutes."""
    try:
        yield
    except BoardTooLarge as e:
        raise lud.fail(str(e)) from None


@ludeme("surakartaBoard")
class SurakartaBoard(BoardContainer):
    """A board played on vertices with Surakarta's circuits as tracks.

    Example: `(surakartaBoard (square 6))` has 36 points and two loops, each
    as a forward and a backward track ("Track1F", "Track1B", ...);
    `(surakartaBoard (tri 4))` is the triangular version.
    """

    concepts = ("Board", "Track", "TrackLoop")     # its tracks are the corner loops

    params = (P("shape", GraphFn), P("loops", INT, opt=True, named=True),
              P("from", INT, opt=True, named=True),
              P("largeStack", LitBool, opt=True, named=True, default=False))

    def build_board(self, players: int) -> Board:
        board = board_on_graph(self.shape, VERTEX, players)
        rows, cols = len(board.rows), len(board.columns)
        basis = board.planar.basis
        loops, start = size(self, "loops"), size(self, "from_")
        start = 1 if start is None else start
        if basis == "Square":
            loops = (min(rows - 1, cols - 1) - 1) // 2 if loops is None else loops
            runs = [square_loop(rows, cols, start + i) for i in range(loops)]
        elif basis == "Triangular":
            loops = (rows - 1) // 2 if loops is None else loops
            runs = [triangular_loop(rows, start + i) for i in range(loops)]
        else:
            raise self.fail("(surakartaBoard ...) is supported on square and triangular grids "
                            "only")
        from .tracks import TrackSpec, build_track
        board.track_info = []
        for i, track in enumerate(runs):
            loop = start + i
            for name, sites in ((f"Track{loop}F", circuit(track)),
                                (f"Track{loop}B", circuit(track[::-1]))):
                board.tracks[name] = sites
                # looped and directed, as Ludii builds them
                board.track_info.append(build_track(TrackSpec(name, sites, True, 0, True,
                                                              self.node), board))
        return board


def square_loop(rows: int, cols: int, loop: int) -> list[int]:
    """One loop of a square Surakarta board as four straight runs; run ends are negated."""
    track: list[int] = []

    def run(sites):
        n = len(sites)
        track.extend(-s if k in (0, n - 1) else s for k, s in enumerate(sites))
    run([loop * cols + c for c in range(cols)])
    run([cols - 1 - loop + r * cols for r in range(rows)])
    run([rows * cols - 1 - loop * cols - c for c in range(cols)])
    run([rows * cols - cols + loop - r * cols for r in range(rows)])
    return track


def triangular_loop(rows: int, loop: int) -> list[int]:
    """One loop of a triangular Surakarta board as three straight runs; run ends are negated."""
    length = rows - loop
    track: list[int] = []

    def run(sites):
        track.extend(-s if k == 0 or k >= length - 1 else s for k, s in enumerate(sites))
    v, dec = 0, rows
    for _ in range(loop):
        v += dec
        dec -= 1
    sites = []
    for _ in range(length):
        sites.append(v)
        v += 1
    run(sites)
    v, dec, sites = rows - 1 - loop, rows - 1, []
    for _ in range(length):
        sites.append(v)
        v += dec
        dec -= 1
    run(sites)
    dec += 3
    sites = []
    for _ in range(length):
        sites.append(v)
        v -= dec
        dec += 1
    run(sites)
    return track


def circuit(track: list[int]) -> tuple[int, ...]:
    """Sites of a loop in order; where two runs meet (an arc), the site is passed twice."""
    out = []
    for n, a in enumerate(track):
        out.append(abs(a))
        if a < 0 and track[(n + 1) % len(track)] < 0:
            out.append(abs(a))
    return tuple(out)


def build_board(board_call: Node, players: int = 2) -> Board:
    """Build the board described by a `(board ...)` (or another container's) call.

    Raises LudemeError, with the position of the offending argument, for an
    unknown or unsupported ludeme, a malformed argument, or an argument that
    building the board does not use.
    """
    from ludeme.model.ludemes import load_all
    load_all()
    builder = Builder()
    container = builder.build(board_call, BoardContainer, "game/equipment")
    board = container.playable_board(players)
    builder.check_all_read(board.site_type)
    return board


def equipment_items(equipment: Call) -> list[Node]:
    """The items of `(equipment {...})`, arrays flattened."""
    items: list[Node] = []
    for a in equipment.args:
        items.extend(a.items if isinstance(a, Array) else [a])
    return items


def is_container(name: str) -> bool:
    """Whether `name` is a board container's keyword (or looks like one Ludii has)."""
    return any(issubclass(c, BoardContainer) for c in REGISTRY.get(name, ())) \
        or name.endswith("Board")


def find_board_call(game: Call) -> Call:
    """The board container inside `(equipment {...})` of an expanded game."""
    equipment = next((a for a in game.args if isinstance(a, Call) and a.name == "equipment"), None)
    if equipment is None:
        raise LudemeError("the game has no (equipment ...)", game.pos, path="game", via=game.via)
    for it in equipment_items(equipment):
        if isinstance(it, Call) and is_container(it.name):
            return it
    raise LudemeError("no board in (equipment ...)", equipment.pos, path="game/equipment",
                      via=equipment.via)
