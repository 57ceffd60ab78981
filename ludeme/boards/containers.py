"""Board containers: `(board <graph> use:...)` and `(surakartaBoard <graph>)`, and `build_board`.

Building runs Ludii's pipeline: the graph ludeme makes a planar graph for the
default site type, `measure` finds its regions and coordinates, and the
`Board` computes steps, radials and tables from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..errors import LudemeError
from ..syntax import Array, Call, Node, to_lud
from .base import BOARD_PATH, LUDII_ONLY, Args, GraphLudeme, Registered, lookup
from .board import Board
from .geometry import CELL, SITE_TYPES, VERTEX
from .measure import measure


class BoardLudeme(Registered):
    """A container ludeme that holds a board graph."""

    registry: ClassVar[dict[str, type["BoardLudeme"]]] = {}

    @classmethod
    def parse(cls, args: Args) -> "BoardLudeme":
        raise NotImplementedError

    def build(self, players: int) -> Board:
        raise NotImplementedError


def _built(graph: GraphLudeme, site_type: str, players: int, **kw) -> Board:
    g = graph.build(site_type)
    perimeters = tuple(tuple(v.id for v in p.elements) for p in measure(g))
    return Board(g, site_type, players=players, perimeters=perimeters, **kw)


@dataclass
class BoardContainer(BoardLudeme, keyword="board"):
    """The board: a graph played on its cells (default), vertices or edges.

    Example: `(board (square 8))`; `(board (concentric Square rings:3) use:Vertex)`.
    Tracks given inside the call are kept, unevaluated, in `track_calls`.
    """

    graph: GraphLudeme
    use: str = CELL
    track_calls: list = field(default_factory=list)

    @classmethod
    def parse(cls, args: Args) -> "BoardContainer":
        graph = args.graph()
        tracks = []
        while args.peek() is not None:
            node = args.take()
            items = node.items if isinstance(node, Array) else [node]
            if not all(isinstance(n, Call) and n.name == "track" for n in items):
                raise args.error(f"unexpected argument {to_lud(node)!r} in (board ...): "
                                 f"expected tracks", node)
            tracks.extend(items)
        for unsupported in ("values",):
            if args.named(unsupported) is not None:
                raise args.error("deduction-puzzle boards (values:) are not supported yet",
                                 args.named(unsupported))
        args.named_bool("largeStack")
        use = args.named_word("use", SITE_TYPES, CELL)
        return cls(graph, use, tracks)

    def build(self, players: int) -> Board:
        from .mancala import build_track, parse_track
        board = _built(self.graph, self.use, players)
        board.track_calls = list(self.track_calls)
        board.track_info = []     # every track in declaration order (names may repeat per owner)
        for call in self.track_calls:
            track = build_track(parse_track(call, BOARD_PATH), board)
            board.track_info.append(track)
            board.tracks.setdefault(track.name, track.sites)
        return board


@dataclass
class SurakartaBoard(BoardLudeme, keyword="surakartaBoard"):
    """A board played on vertices with Surakarta's circuits as tracks.

    Example: `(surakartaBoard (square 6))` has 36 points and two loops, each
    as a forward and a backward track ("Track1F", "Track1B", ...);
    `(surakartaBoard (tri 4))` is the triangular version.
    """

    graph: GraphLudeme
    loops: int | None = None
    start_row: int = 1

    @classmethod
    def parse(cls, args: Args) -> "SurakartaBoard":
        graph = args.graph()
        loops = args.named_dim("loops")
        start = args.named_dim("from", 1)
        args.named_bool("largeStack")
        return cls(graph, loops, start)

    def build(self, players: int) -> Board:
        board = _built(self.graph, VERTEX, players)
        rows, cols = len(board.rows), len(board.columns)
        basis = board.planar.basis
        if basis == "Square":
            loops = (min(rows - 1, cols - 1) - 1) // 2 if self.loops is None else self.loops
            runs = [square_loop(rows, cols, self.start_row + i) for i in range(loops)]
        elif basis == "Triangular":
            loops = (rows - 1) // 2 if self.loops is None else self.loops
            runs = [triangular_loop(rows, self.start_row + i) for i in range(loops)]
        else:
            raise LudemeError("surakartaBoard is supported on square and triangular grids only")
        for i, track in enumerate(runs):
            loop = self.start_row + i
            board.tracks[f"Track{loop}F"] = circuit(track)
            board.tracks[f"Track{loop}B"] = circuit(track[::-1])
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


def parse_board(board_call: Node, path: str = "game/equipment") -> BoardLudeme:
    """The board container written at `board_call`."""
    if not isinstance(board_call, Call):
        raise LudemeError(f"expected (board ...), found {to_lud(board_call)!r}", board_call.pos,
                          path=path, via=board_call.via)
    name = board_call.name
    cls = lookup(BoardLudeme.registry, board_call, path, "board container")
    args = Args(board_call, BOARD_PATH if name == "board" else f"{path}/{name}")
    ludeme = cls.parse(args)
    args.finish()
    return ludeme


def build_board(board_call: Node, players: int = 2) -> Board:
    """Build the board described by a `(board ...)` (or `(surakartaBoard ...)`) call.

    Raises LudemeError, with the position of the offending argument, for an
    unknown or unsupported ludeme or a malformed argument.
    """
    return parse_board(board_call).build(players)


def equipment_items(equipment: Call) -> list[Node]:
    """The items of `(equipment {...})`, arrays flattened."""
    items: list[Node] = []
    for a in equipment.args:
        items.extend(a.items if isinstance(a, Array) else [a])
    return items


def find_board_call(game: Call) -> Call:
    """The board container inside `(equipment {...})` of an expanded game."""
    equipment = next((a for a in game.args if isinstance(a, Call) and a.name == "equipment"), None)
    if equipment is None:
        raise LudemeError("the game has no (equipment ...)", game.pos, path="game", via=game.via)
    for it in equipment_items(equipment):
        if isinstance(it, Call) and (it.name in BoardLudeme.registry or it.name in LUDII_ONLY
                                     or it.name.endswith("Board") or it.name == "boardless"):
            return it
    raise LudemeError("no board in (equipment ...)", equipment.pos, path="game/equipment",
                      via=equipment.via)
