"""`ludeme expand FILE`: print the fully expanded game."""

from __future__ import annotations

import sys

from .common import add_game_args


def add_parser(sub) -> None:
    """Register `ludeme expand` on the main parser."""
    p = sub.add_parser("expand", help="print the fully expanded game")
    add_game_args(p)
    p.add_argument("--compact", action="store_true", help="one line, no indentation")
    p.set_defaults(fn=run)


def run(args) -> int:
    """Print the fully expanded game."""
    from ludeme.language.expand import expand_file
    ex = expand_file(args.file, args.option, args.ruleset)
    sys.stdout.write(ex.text(indent=None if args.compact else 4))
    return 0
