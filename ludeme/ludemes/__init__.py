"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, captures, connect, dice, effects, extra, game,  # noqa: F401
               ints, literals, memory, moves, regions, sliding, sowing)
from . import sequences, stacks  # noqa: F401  (after the families they build on)
from . import foreach, intarray, intmath, sites_moves, swap, votes, was  # noqa: F401

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions", "sequences", "stacks"]
