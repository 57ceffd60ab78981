"""The Python API: load a description into a playable game, and choose how it plays.

    game = load("descriptions/adzua_children.lud", ruleset="Adzua (Children) (Ludii 5) ...")
    state = new_state(game, seed=1)      # the compiled kernels' state where the game has them
    kernels = compiled_of(game)          # the kernels, or None for the reference engine

`load` is the one way in: it reads, expands and builds the game (`ludeme.model.build`)
and records on it how to build it again (`GameSource`), so that worker processes
rebuild the same game from its file; a game without a source travels to them pickled
by value (`PickledGame`). The game's kernels (`ludeme.engine.compiled`) are built on
first use and kept by the game itself (`Game.kernels_for`).
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass
from pathlib import Path

from ludeme.engine.compiled import BACKENDS


@dataclass(frozen=True)
class GameSource:
    """How to build a game again in another process: its file, options, ruleset, limits
    and backend."""

    path: str
    options: tuple[str, ...] = ()
    ruleset: str | None = None
    max_turns: int | None = None
    max_moves: int | None = None
    backend: str = "auto"

    def load(self):
        """Read, expand and build the game."""
        from ludeme.language.expand import expand_file
        from ludeme.model.build import MAX_MOVES, MAX_TURNS_PER_PLAYER, build_game
        ex = expand_file(self.path, list(self.options), self.ruleset)
        game = build_game(ex, max_turns=self.max_turns or MAX_TURNS_PER_PLAYER,
                          max_moves=self.max_moves or MAX_MOVES)
        game.loaded_from(self, self.backend)
        return game


@dataclass(frozen=True)
class PickledGame:
    """A built game sent by value (cloudpickle), for games whose source is unknown."""

    data: bytes

    @classmethod
    def of(cls, game) -> "PickledGame":
        """The game, pickled with its closures (not its kernels: `Game.__getstate__` leaves
        them out, and a worker loads them again from numba's cache)."""
        import cloudpickle
        return cls(cloudpickle.dumps(game))

    def load(self):
        """The game again."""
        import pickle
        return pickle.loads(self.data)


@dataclass(frozen=True)
class GameFile:
    """A built game pickled once into a file, for the worker processes of this machine: each
    reads it in milliseconds instead of parsing and building the game again."""

    path: str

    @classmethod
    def write(cls, game, folder: str | os.PathLike):
        """The game pickled into `folder` (its kernels left out, as `PickledGame`); its
        `game_source` when it cannot be pickled."""
        import pickle

        import cloudpickle
        path = Path(folder) / "game.pickle"
        try:
            with open(path, "wb") as f:
                cloudpickle.dump(game, f, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            return game_source(game)
        return cls(str(path))

    def load(self):
        """The game again."""
        import pickle
        with open(self.path, "rb") as f:
            return pickle.load(f)


def game_source(game):
    """What a worker process builds the game from: its recorded source, else the game pickled."""
    return game.source or PickledGame.of(game)


def load(path: str | os.PathLike, options=(), ruleset: str | None = None, *,
         max_turns: int | None = None, max_moves: int | None = None, backend: str = "auto"):
    """Read, expand and build a .lud file into a `ludeme.engine.state.Game`.

    `backend` is how `ludeme.analysis.playouts.run_playouts` plays it: "auto" (numba
    kernels when every ludeme of the game has a compiled form, else the reference engine,
    said once on stderr), "compiled" or "reference" (see `ludeme.engine.compiled`). The
    kernels are built on first use. `game.new_initial_state()` is always the reference
    engine's; `new_state(game)` gives the state of the game's backend (what the agents
    and the OpenSpiel and PettingZoo adapters play on).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    options = check_options(options)
    if ruleset is not None and not isinstance(ruleset, str):
        raise TypeError(f"ruleset must be a string or None, not {type(ruleset).__name__}")
    for name, value in (("max_turns", max_turns), ("max_moves", max_moves)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or value < 1):
            raise ValueError(f"{name} must be a positive integer or None, not {value!r}")
    return GameSource(str(Path(path).resolve()), tuple(options), ruleset, max_turns, max_moves,
                      backend).load()


def check_options(options) -> tuple[str, ...]:
    """Options as a tuple of "Category/Item" strings; a single string is refused (it would
    be read letter by letter)."""
    if isinstance(options, str):
        raise TypeError(f"options must be a list of 'Category/Item' strings, not the string "
                        f"{options!r} (write [{options!r}])")
    try:
        options = tuple(options)
    except TypeError:
        raise TypeError(f"options must be a list of 'Category/Item' strings, not "
                        f"{type(options).__name__}") from None
    bad = [o for o in options if not isinstance(o, str)]
    if bad:
        raise TypeError(f"options must be 'Category/Item' strings, not {bad[0]!r}")
    return options


def check_seed(seed) -> int:
    """A seed: a non-negative integer (numpy's SeedSequence and Python's Random take any)."""
    try:
        if isinstance(seed, bool):
            raise TypeError
        seed = operator.index(seed)       # numpy's integers too
    except TypeError:
        raise TypeError(f"a seed must be an integer, not {type(seed).__name__} {seed!r}") from None
    if seed < 0:
        raise ValueError(f"a seed must be >= 0, not {seed}")
    return seed


def compiled_of(game, backend: str | None = None):
    """The game's compiled kernels for `backend` (default: the one it was loaded with), or None
    for the reference engine. Built once per game and backend, on first use."""
    from ludeme.engine.compiled import select
    backend = backend or game.backend
    return game.kernels_for(backend, select)


def new_state(game, seed: int | None = None, backend: str | None = None):
    """The start position on `backend` (None: the game's): the compiled kernels' state where
    the game has them (`compiled_of`), else the reference engine's."""
    kernels = compiled_of(game, backend)
    return kernels.new_initial_state(seed) if kernels is not None else game.new_initial_state(seed)
