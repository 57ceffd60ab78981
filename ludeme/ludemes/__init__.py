"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, connect, extra, game, ints, literals, moves,  # noqa: F401
               regions, sliding)

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions"]
