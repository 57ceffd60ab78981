"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, effects, extra, game, ints, literals, moves,  # noqa: F401
               regions, sowing)

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions"]
