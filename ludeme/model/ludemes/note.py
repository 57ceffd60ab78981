"""`(note ...)`: Ludii's Note effect, a message shown to players that changes nothing in
the game (its moves hold no action here)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import effect_as_consequent, emits
from ludeme.engine.state import Move
from .base import Bool, IntFn, LitStr, Moves, P, Region, RoleType, ludeme


@ludeme("note")
class Note(Moves):
    """`(note [[player:]<player>|<role>] <message> [to:<player>|<role>])`: one move per player told
    (every player by default, as Ludii's Note: `to:All`), each changing nothing. The
    player whose name starts the message is read only for the text, which is not kept; a
    message may be a number, a condition or a region as in Ludii (its value is only shown,
    so it is not worked out here). Example: `(then (note "Player 1 is now Black." to:All))`."""

    params = (P("about", RoleType, opt=True), P("player", (RoleType, IntFn), opt=True, named=True),
              P("message", (LitStr, IntFn, Bool, Region)),
              P("to", (RoleType, IntFn), opt=True, named=True))

    def compile(self, env):
        # the message's text only, Ludii's player:, nothing in the game; a message that is
        # a function is compiled (so what it names is checked) and never evaluated
        _ = (self.about, self.player, self.message)
        if not isinstance(self.message, str):
            env.compile(self.message)
        n = env.num_players
        if self.to is None or self.to == "All":
            return lambda c: [Move(-1, -1, 0, []) for _ in range(n)]
        who = env.player_fn(self.to, self)

        def note(c):
            return [Move(-1, -1, 0, [])] if 1 <= who(c) <= n else []
        return note


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(Note, kind="effect")
def _note_effect(src, lud, body):
    """Nothing in the game: its moves hold no action (a message is never evaluated)."""
    body.append("pass")


emits(Note, kind="consequent")(effect_as_consequent(_note_effect))
