"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, captures, connect, extra, game, ints, literals,  # noqa: F401
               moves, regions, sliding)
from . import stacks, sequences  # noqa: F401  (after the families they build on)

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions", "sequences", "stacks"]
