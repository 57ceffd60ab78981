"""Typed ludemes, one module per family: game frame, moves, booleans, ints, regions."""

from . import (base, booleans, captures, connect, dice, effects, extra, game,  # noqa: F401
               ints, literals, memory, moves, regions, sliding, sowing)
from . import (history, levels, maths, pieces, race, sequences,  # noqa: F401
               sizes, stacks)  # after the families they build on
from . import board_fns, scores  # noqa: F401
from . import directions, leaping, war  # noqa: F401
from . import foreach, intarray, sites_moves, swap, votes  # noqa: F401
from . import foreach_direction, is_player  # noqa: F401
from . import effects_capture, ints_count, is_component, move_set, note, set_site  # noqa: F401
from . import sites_line_of_sight, territory  # noqa: F401
from . import groups, limits, line_of_sight, meta, pattern, region_foreach, related  # noqa: F401
# Board ludemes are typed ludemes too (graph functions, constant arithmetic, containers):
# importing their modules registers them.
import importlib as _importlib  # noqa: E402

for _module in ("base", "generators", "operators", "shapes", "tiling", "containers", "mancala"):
    _importlib.import_module(f"ludeme.boards.{_module}")

__all__ = ["base", "booleans", "game", "ints", "literals", "moves", "regions", "sequences", "stacks"]
