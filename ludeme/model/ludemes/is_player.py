"""Conditions on a player (Ludii's game/functions/booleans/is/player)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits
from .base import Bool, IntFn, P, RoleType, ludeme


@ludeme("is", "Active")
class IsActive(Bool):
    """`(is Active <player>)`: the player is still in the game (not yet out by a win, a
    loss or a draw), as Ludii's IsActive; a player id out of range is never active.
    Example: `(if (is Active P2) (moveAgain))`."""

    params = (P("who", (RoleType, IntFn)),)

    def compile(self, env):
        who = env.role_id(self.who, self) if isinstance(self.who, str) \
            else env.compile(self.who)
        n = env.num_players

        def is_active(c):
            p = who(c)
            return 0 < p <= n and c.s.active[p]
        return is_active


@emits(IsActive, kind="bool")
def _is_active(src, lud):
    """The kernels' copy of who is still active (`Source.active_players`)."""
    who = src.player_expr(lud.who, lud) if isinstance(lud.who, str) else src.int_expr(lud.who)
    base = src.active_players()
    # the player's id read twice: a plain expression of the position
    return f"(0 < {who} <= NP and sc[{base} + {who}] != 0)"
