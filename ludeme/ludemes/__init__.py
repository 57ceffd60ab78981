"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import base, booleans, extra, game, ints, literals, moves, regions, sliding  # noqa: F401

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions"]
