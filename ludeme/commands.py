"""Subcommands beyond the front end register here, one line each, so modules stay apart.

Each module listed has `add_subcommand(subparsers)`.
"""

from __future__ import annotations

import importlib

MODULES = [
    "crosscheck",         # ludeme crosscheck
    "play",               # ludeme play
    "position",           # ludeme moves
    "runner",
    "boards.cli",
    "compare",            # ludeme compare
    "concepts",           # ludeme concepts
]


def register(sub) -> None:
    """Add every optional subcommand to the `ludeme` argument parser."""
    for modname in MODULES:
        importlib.import_module(f"ludeme.{modname}").add_subcommand(sub)
