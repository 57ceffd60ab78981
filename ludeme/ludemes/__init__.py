"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, effects, extra, game, ints, literals, memory,  # noqa: F401
               moves, regions, sowing)

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions"]
