"""`ludeme board FILE`: build a game's board; print it, its JSON, or an SVG picture."""

from __future__ import annotations

import json
import sys

from ludeme.errors import LudemeError, printable
from ludeme.language.syntax import to_lud

from .common import add_game_args, check_out_file


def add_parser(sub) -> None:
    """Register `ludeme board` on the main parser."""
    p = sub.add_parser("board", help="build the board: sites, neighbours, regions; --json, --svg")
    add_game_args(p)
    p.add_argument("--json", action="store_true",
                   help="print the sites with their neighbour sets as JSON")
    p.add_argument("--svg", metavar="OUT.svg", help="draw the board with site indices and labels")
    p.add_argument("--png", metavar="OUT.png", help="the same picture as a PNG (matplotlib)")
    p.add_argument("--type", choices=("Vertex", "Edge", "Cell"),
                   help="site type to show (default: the board's own)")
    p.set_defaults(fn=run)


def load_board(path: str, options=(), ruleset=None):
    """(expanded game, board call, board) for a description file."""
    from ludeme.language.expand import expand_file
    from ludeme.model.ludemes.graph.containers import build_board, find_board_call
    ex = expand_file(path, list(options), ruleset)
    call = find_board_call(ex.game)
    players = _players(ex.game)
    return ex, call, build_board(call, players)


def _players(game) -> int:
    from ludeme.language.syntax import Call, Int
    for a in game.args:
        if isinstance(a, Call) and a.name == "players":
            first = a.positional()[0] if a.positional() else None
            if isinstance(first, Int):
                return first.value
            return len(first.items) if first is not None and hasattr(first, "items") else 2
    return 2


def run(args) -> int:
    """Print the board (or its JSON); write an SVG when asked."""
    for flag, out in (("--svg", args.svg), ("--png", args.png)):
        if out is not None:
            check_out_file(flag, out)
    ex, call, board = load_board(args.file, args.option, args.ruleset)
    kind = args.type or board.site_type
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as fh:
                fh.write(board.to_svg(kind, title=f"{ex.name}: {to_lud(call)}"))
        except OSError as e:
            raise LudemeError(f"--svg {printable(args.svg)}: cannot write: {e.strerror}") from None
        if not args.json:
            print(f"wrote {args.svg}", file=sys.stderr)
    if args.png:
        from ludeme.boards.render import board_png
        try:
            board_png(board, kind, args.png, title=f"{ex.name}: {to_lud(call)}")
        except OSError as e:
            raise LudemeError(f"--png {printable(args.png)}: cannot write: {e.strerror}") from None
        if not args.json:
            print(f"wrote {args.png}", file=sys.stderr)
    if args.json:
        print(json.dumps(board.to_json(kind), indent=1))
        return 0
    if args.svg or args.png:
        return 0
    topo = board.topology(kind)
    print(f"{ex.name}: {to_lud(call)}")
    print(f"{topo.num_sites} {kind.lower()} sites (board: {board.num_vertices} vertices, "
          f"{board.num_edges} edges, {board.num_cells} cells)")
    parts = len(topo.components)
    print(f"{topo.graph.number_of_edges()} steps between them; "
          f"{parts} connected part{'s' if parts != 1 else ''}")
    print(f"directions: {' '.join(topo.directions)}")
    for rel in ("Orthogonal", "Diagonal", "OffDiagonal"):
        print(f"  {rel}: {' '.join(topo.relation_dirs(rel)) or '-'}")
    for name in ("Corners", "Centre"):
        print(f"{name.lower()}: {' '.join(topo.sites[i].label for i in topo.region(name))}")
    print("index label  row col        x        y  orthogonal | diagonal")
    for s in topo.sites:
        orth = " ".join(map(str, sorted(topo.neighbours["Orthogonal"][s.index])))
        diag = " ".join(map(str, sorted(topo.neighbours["Diagonal"][s.index])))
        print(f"{s.index:5d} {s.label:5s} {s.row:4d} {s.col:3d} {s.x:8.3f} {s.y:8.3f}  {orth} | {diag}")
    return 0
