"""`ludeme moves FILE POSITION`: print the legal moves of a position file
(`ludeme.interfaces.positions`)."""

from __future__ import annotations

from .common import add_game_args


def add_parser(sub) -> None:
    """`ludeme moves FILE POSITION [--option ...] [--ruleset NAME]`."""
    p = sub.add_parser("moves", help="print the legal moves of a position file")
    add_game_args(p)
    p.add_argument("position", help="a position file (see ludeme/position.py or the README)")
    p.set_defaults(fn=run)


def run(args) -> int:
    """Print the position, who is to move, and the numbered legal moves; or, when the
    game's end rules end it there, that the game is over and who won."""
    from ludeme.api import load
    from ludeme.interfaces.positions import ended, move_names, read_position, state_from_position
    from ludeme.interfaces.terminal import render
    game = load(args.file, args.option, args.ruleset)
    state = state_from_position(game, read_position(args.position))
    print(render(state))
    over = ended(state)
    if over is not None:        # no moves to list: say so, and who won
        who = f"player {over.winner} wins" if over.winner else "no winner"
        print(f"the game is over in this position: {who} ({over.end_type})")
        return 0
    phase = game.phases[state.phase[state.mover]].name
    print(f"player {state.mover} to move ({phase})")
    for i, name in enumerate(move_names(state), 1):
        print(f"  {i:>3}. {name}")
    return 0
