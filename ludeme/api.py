"""The Python API: load a description into a playable game."""

from __future__ import annotations

import os

from ludeme.language.expand import expand_file


def load(path: str | os.PathLike, options=(), ruleset: str | None = None, *,
         max_turns: int | None = None, max_moves: int | None = None, backend: str = "auto"):
    """Read, expand and compile a .lud file into a `ludeme.engine.state.Game`.

    `backend` is how `ludeme.analysis.playouts.run_playouts` plays it: "auto" (numba kernels
    when every ludeme of the game has a compiled form, else the reference engine,
    said once on stderr), "compiled" or "reference" (see `ludeme.engine.compiled`). The
    kernels are built on first use. `game.new_initial_state()` is always the reference
    engine's; `ludeme.analysis.playouts.new_state(game)` gives the state of the game's backend
    (what the agents and the OpenSpiel and PettingZoo adapters play on).
    """
    from ludeme.engine.compiled import BACKENDS
    from ludeme.model.build import MAX_MOVES, MAX_TURNS_PER_PLAYER, compile_game
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    ex = expand_file(path, list(options), ruleset)
    game = compile_game(ex, max_turns=max_turns or MAX_TURNS_PER_PLAYER,
                        max_moves=max_moves or MAX_MOVES)
    game.backend = backend
    return game
