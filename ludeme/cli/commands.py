"""Subcommands beyond the front end register here, one line each, so modules stay apart.

Each module listed has `add_subcommand(subparsers)`.
"""

from __future__ import annotations

import importlib

MODULES = [
    "analysis.crosscheck",     # ludeme crosscheck
    "interfaces.terminal",     # ludeme play
    "interfaces.positions",    # ludeme moves
    "analysis.playouts",       # ludeme run
    "cli.board",               # ludeme board
    "analysis.compare",        # ludeme compare
    "analysis.concepts",       # ludeme concepts
]


def register(sub) -> None:
    """Add every optional subcommand to the `ludeme` argument parser."""
    for modname in MODULES:
        importlib.import_module(f"ludeme.{modname}").add_subcommand(sub)
