"""`ludeme view`: watch a seeded playout, or a row of a `ludeme run` folder, as a
self-contained HTML page (`ludeme.analysis.viewer`); or play against an agent in the
browser (`--play`, `ludeme.interfaces.webplay`)."""

from __future__ import annotations

import sys
from pathlib import Path

from ludeme.errors import LudemeError, printable

from .common import add_limit_args, check_out_file


def add_parser(sub) -> None:
    """`ludeme view FILE --seed S --out PAGE`, `ludeme view RUN_DIR --row K [--lud FILE] --out
    PAGE`, `ludeme view FILE --play [--opponent A] [--as P] [--port N]`."""
    p = sub.add_parser("view", help="watch a playout in the browser (an HTML page), or play "
                                    "against an agent there (--play)")
    p.add_argument("target", metavar="FILE|RUN_DIR",
                   help="a .lud description, or a folder written by `ludeme run`")
    p.add_argument("--option", action="append", default=[], metavar='"Category/Item"',
                   help="select an option item (repeatable; with a description)")
    p.add_argument("--ruleset", metavar="NAME", help="select a ruleset (with a run folder: the "
                                                     "configuration the row belongs to)")
    p.add_argument("--seed", type=int, default=None,
                   help="the playout's seed (a row's `seed`); with --play, the opponent's")
    p.add_argument("--row", type=int, default=None, metavar="K",
                   help="with a run folder: the playout whose `index` is K")
    p.add_argument("--lud", metavar="FILE",
                   help="with a run folder: the description to replay the row with (default: the "
                        "one the run recorded in run.json)")
    p.add_argument("--out", metavar="PAGE.html", help="the page to write")
    p.add_argument("--play", action="store_true", help="play against an agent in the browser")
    p.add_argument("--opponent", default=None, metavar="AGENT",
                   help="with --play: random (default), greedy, uct or uct:iterations=N,...")
    p.add_argument("--as", dest="player", type=int, default=None,
                   help="with --play: the player you are (default 1)")
    p.add_argument("--port", type=int, default=None,
                   help="with --play: the port on 127.0.0.1 (default 8000; 0 any free one)")
    add_limit_args(p)
    p.set_defaults(fn=run)


def _refuse(args, names: tuple[str, ...], why: str) -> None:
    given = {"--option": args.option, "--ruleset": args.ruleset, "--seed": args.seed,
             "--row": args.row, "--lud": args.lud, "--out": args.out,
             "--opponent": args.opponent, "--as": args.player, "--port": args.port}
    for name in names:
        if given[name] not in (None, []):
            raise LudemeError(f"{name} {why}")


def run(args) -> int:
    """Write the page, or serve the game."""
    if args.seed is not None and args.seed < 0:
        raise LudemeError("--seed must be non-negative")
    if args.play:
        return _play(args)
    _refuse(args, ("--opponent", "--as", "--port"), "goes with --play")
    if args.out is None:
        raise LudemeError("--out PAGE.html is needed: the page to write")
    check_out_file("--out", args.out)
    if Path(args.target).is_dir():
        html, final = _row(args)
    else:
        _refuse(args, ("--row", "--lud"), "goes with a run folder (FILE is a description)")
        if args.seed is None:
            raise LudemeError("--seed S is needed: the seed of the playout to show")
        from ludeme.api import load
        from ludeme.analysis.viewer import playout_page
        game = load(args.target, args.option, args.ruleset, backend="reference")
        html, final = playout_page(game, args.seed)
    try:
        Path(args.out).write_text(html, encoding="utf-8")
    except OSError as e:
        raise LudemeError(f"--out {printable(args.out)}: cannot write: {e.strerror}") from None
    from ludeme.analysis.viewer import result_text
    print(f"wrote {args.out}: {final.num_decisions} moves, {result_text(final)}", file=sys.stderr)
    return 0


def _row(args):
    """The page of a row of a run folder."""
    from ludeme.analysis.viewer import read_run_row, recorded_run, row_page
    _refuse(args, ("--option", "--seed"), "is read from the run folder's row, not given")
    if args.row is None:
        raise LudemeError("--row K is needed with a run folder: the index of the playout to show")
    row = read_run_row(args.target, args.row, args.ruleset)
    if args.lud is not None:        # the file given overrides the one the run recorded
        return row_page(args.lud, row)
    path, config = recorded_run(args.target, row)
    return row_page(path, row, config.get("max_moves"))


def _play(args) -> int:
    """Serve the game on 127.0.0.1 until the page quits or nobody asks for a while."""
    from ludeme.ai.agents import agent_from_spec
    from ludeme.api import load
    from ludeme.interfaces.webplay import PlaySession, make_server, serve
    _refuse(args, ("--out", "--row", "--lud"), "does not go with --play")
    if Path(args.target).is_dir():
        raise LudemeError("--play needs a .lud description, not a folder")
    port = 8000 if args.port is None else args.port
    if not 0 <= port <= 65535:
        raise LudemeError("--port must be from 0 to 65535")
    opponent = agent_from_spec(args.opponent or "random")
    game = load(args.target, args.option, args.ruleset, backend="reference")
    human = 1 if args.player is None else args.player
    if not 1 <= human <= game.num_players:
        raise LudemeError(f"--as must be a player from 1 to {game.num_players}")
    session = PlaySession(game, human, opponent, args.seed or 0)
    try:
        server = make_server(session, port)
    except OSError as e:
        raise LudemeError(f"--port {port}: cannot listen on 127.0.0.1: {e.strerror}") from None
    print(f"open http://127.0.0.1:{server.server_address[1]}/ in a browser "
          "(Ctrl-C stops; the server stops by itself after 30 minutes without a request)",
          file=sys.stderr, flush=True)
    serve(server)
    return 0
