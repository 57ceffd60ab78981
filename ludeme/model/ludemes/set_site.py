"""Per-site effects of Ludii's set/site package not in `memory`: `(set Value at: ...)`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import ludeme
from .memory import SetState, register_set_field


@ludeme("set", "Value")
class SetSiteValue(SetState):
    """`(set Value at:<site> [level:<level>] <int> [(then ...)])`: set the value of the
    piece at a site (the top one, or the level given), as Ludii's SetValue on a site;
    read back by `(value Piece at:...)`. Example: `(set Value at:(last To) 3)`."""
    concepts = ("SetValue", "PieceValue")
    field = "value"


# Compiled forms: SetState's, setting the value (`Source.piece_value`).
register_set_field(SetSiteValue)
