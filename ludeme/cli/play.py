"""`ludeme play FILE`: play in the terminal against an agent (`ludeme.interfaces.terminal`)."""

from __future__ import annotations

from ludeme.errors import LudemeError


def add_parser(sub) -> None:
    """`ludeme play FILE [--option ...] [--ruleset ...] [--auto] [--seed S] [--as P]`."""
    p = sub.add_parser("play", help="play in the terminal against an agent (random by default)")
    p.add_argument("file")
    p.add_argument("--option", action="append", default=[], metavar='"Category/Item"')
    p.add_argument("--ruleset")
    p.add_argument("--auto", action="store_true", help="watch the opponent play every seat")
    p.add_argument("--opponent", default="random", metavar="AGENT",
                   help="random, greedy, uct or uct:iterations=N,c=C,rollout=R (or seconds=S)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--as", dest="player", type=int, default=1, help="the player you are")
    p.add_argument("--max-decisions", type=int, default=None)
    p.set_defaults(fn=run)


def run(args) -> int:
    """Load the game and the opponent, then play."""
    from ludeme.ai.agents import agent_from_spec
    from ludeme.api import load
    from ludeme.interfaces.terminal import play
    opponent = agent_from_spec(args.opponent)
    game = load(args.file, args.option, args.ruleset)
    if not args.auto and not 1 <= args.player <= game.num_players:
        raise LudemeError(f"--as must be a player from 1 to {game.num_players}")
    play(game, None if args.auto else args.player, args.seed,
         max_decisions=args.max_decisions, opponent=opponent)
    return 0
