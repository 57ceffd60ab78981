"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, dice, effects, extra, game, ints, literals,  # noqa: F401
               memory, moves, regions, sowing)

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions"]
