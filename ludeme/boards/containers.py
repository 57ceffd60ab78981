"""Board containers: `(board <graph> use:...)` and `(surakartaBoard <graph>)`, and `build_board`.

Building runs Ludii's pipeline: the graph ludeme makes a planar graph for the
default site type, `measure` finds its regions and coordinates, and the
`Board` computes steps, radials and tables from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..errors import LudemeError, known_list, suggest
from ..syntax import Array, Call, Node, to_lud
from .base import BOARD_PATH, LUDII_ONLY, Args, GraphLudeme
from .board import Board
from .geometry import CELL, SITE_TYPES, VERTEX
from .measure import measure


class BoardLudeme:
    """A container ludeme that holds a board graph."""

    keyword: ClassVar[str] = ""
    registry: ClassVar[dict[str, type["BoardLudeme"]]] = {}

    def __init_subclass__(cls, keyword: str = "", **kw):
        super().__init_subclass__(**kw)
        if keyword:
            cls.keyword = keyword
            BoardLudeme.registry[keyword] = cls

    @classmethod
    def parse(cls, args: Args) -> "BoardLudeme":
        raise NotImplementedError

    def build(self, players: int) -> Board:
        raise NotImplementedError


def _built(graph: GraphLudeme, site_type: str, players: int, **kw) -> Board:
    g = graph.build(site_type)
    perimeters = measure(g)
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
        board = _built(self.graph, self.use, players)
        board.track_calls = list(self.track_calls)
        return board


@dataclass
class SurakartaBoard(BoardLudeme, keyword="surakartaBoard"):
    """A board played on vertices with Surakarta's circuits as tracks.

    Example: `(surakartaBoard (square 6))` has 36 points and two loops, each
    as a forward and a backward track ("Track1F", "Track1B", ...).
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
        if board.planar.basis != "Square":
            raise LudemeError("surakartaBoard is supported on square grids only")
        rows, cols = len(board.rows), len(board.columns)
        loops = (min(rows - 1, cols - 1) - 1) // 2 if self.loops is None else self.loops
        board.tracks.update(surakarta_tracks(rows, cols, loops, self.start_row))
        return board


def surakarta_tracks(rows: int, cols: int, loops: int, start_row: int) -> dict[str, tuple[int, ...]]:
    """Each loop's circuit, forward and backward; a corner arc repeats its end site."""
    tracks = {}
    for lid in range(loops):
        loop = start_row + lid
        track: list[int] = []      # negative = at an end of a straight run
        for c in range(cols):
            s = loop * cols + c
            track.append(-s if c in (0, cols - 1) else s)
        for r in range(rows):
            s = cols - 1 - loop + r * cols
            track.append(-s if r in (0, rows - 1) else s)
        for c in range(cols):
            s = rows * cols - 1 - loop * cols - c
            track.append(-s if c in (0, cols - 1) else s)
        for r in range(rows):
            s = rows * cols - cols + loop - r * cols
            track.append(-s if r in (0, rows - 1) else s)
        for name, seq in ((f"Track{loop}F", track), (f"Track{loop}B", track[::-1])):
            out = []
            for n, a in enumerate(seq):
                b = seq[(n + 1) % len(seq)]
                out.append(abs(a))
                if a < 0 and b < 0:     # ends of two runs meet: the loop passes the site twice
                    out.append(abs(a))
            tracks[name] = tuple(out)
    return tracks


def parse_board(board_call: Node, path: str = "game/equipment") -> BoardLudeme:
    """The board container written at `board_call`."""
    if not isinstance(board_call, Call):
        raise LudemeError(f"expected (board ...), found {to_lud(board_call)!r}", board_call.pos,
                          path=path, via=board_call.via)
    name = board_call.name
    cls = BoardLudeme.registry.get(name)
    if cls is None:
        if name in LUDII_ONLY:
            raise LudemeError(f"({name} ...) boards are not supported yet", board_call.pos,
                              path=f"{path}/{name}", via=board_call.via)
        raise LudemeError(f"unknown board container {name!r}{suggest(name, BoardLudeme.registry)}; "
                          f"known: {known_list(BoardLudeme.registry)}", board_call.pos, path=path,
                          via=board_call.via)
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


def find_board_call(game: Call) -> Call:
    """The board container inside `(equipment {...})` of an expanded game."""
    equipment = next((a for a in game.args if isinstance(a, Call) and a.name == "equipment"), None)
    if equipment is None:
        raise LudemeError("the game has no (equipment ...)", game.pos, path="game", via=game.via)
    items = []
    for a in equipment.args:
        items.extend(a.items if isinstance(a, Array) else [a])
    for it in items:
        if isinstance(it, Call) and (it.name in BoardLudeme.registry or it.name in LUDII_ONLY
                                     or it.name.endswith("Board") or it.name == "boardless"):
            return it
    raise LudemeError("no board in (equipment ...)", equipment.pos, path="game/equipment",
                      via=equipment.via)
