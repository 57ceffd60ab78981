"""The Python API: load a description into a playable game."""

from __future__ import annotations

import os

from .expand import expand_file


def load(path: str | os.PathLike, options=(), ruleset: str | None = None, *,
         max_turns: int | None = None, max_moves: int | None = None):
    """Read, expand and compile a .lud file into a `ludeme.engine.Game`."""
    from .compiler import MAX_MOVES, MAX_TURNS_PER_PLAYER, compile_game
    ex = expand_file(path, list(options), ruleset)
    return compile_game(ex, max_turns=max_turns or MAX_TURNS_PER_PLAYER,
                        max_moves=max_moves or MAX_MOVES)
