"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, connect, dice, effects, extra, game, ints,  # noqa: F401
               literals, memory, moves, regions, sliding, sowing)

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions"]
