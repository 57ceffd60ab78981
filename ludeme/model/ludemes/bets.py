"""Betting: `(move Bet ...)` / `(bet ...)`, `(amount ...)`, `(set Pot ...)` and `(pot)`
(Ludii's Bet, Amount, SetPot and Pot). Each player's amount and the pot are state
variables (`ludeme.engine.actions.AMOUNT`, `POT`), 0 until set as in Ludii's state."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.actions import AMOUNT, POT
from ludeme.engine.state import A_SET_VAR, Move
from .base import IntFn, Moves, P, RoleType, ludeme



class _Bet(Moves):
    params = (P("who", (RoleType, "PlayerFn")), P("range", "RangeSpec"),
              P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        who = env.player_fn(self.who, self)
        lo, hi = self.range.bounds(env)
        then = _then(env, self)

        def bet(c):
            # One move per amount of the range, the mover's (Ludii's Bet in alternating
            # play), each setting the player's amount.
            p, mover = who(c), c.s.mover
            return [Move(-1, -1, mover, [(A_SET_VAR, (AMOUNT, p), i)], then)
                    for i in range(lo(c), hi(c) + 1)]
        return bet


@ludeme("move", "Bet")
class MoveBet(_Bet):
    """`(move Bet <player> <range> [(then ...)])`: a decision per amount of the range, which
    becomes the player's amount. Example: `(move Bet Mover (range 0 100))`."""
    concepts = ("BetDecision",)


@ludeme("bet")
class BetEffect(_Bet):
    """`(bet <player> <range> [(then ...)])`: as (move Bet ...), as an effect.
    Example: `(bet P1 (range 0 5))`."""
    concepts = ("BetEffect",)


@ludeme("amount")
class Amount(IntFn):
    """`(amount <player>)`: the player's amount (0 until a bet), -1 for no player.
    Example: `(set Pot (+ (pot) (amount Next)))`."""
    concepts = ()

    params = (P("who", (RoleType, "PlayerFn")),)

    def compile(self, env):
        who = env.player_fn(self.who, self)
        n = env.num_players

        def amount(c):
            p = who(c)
            return c.s.notes.get(("var", (AMOUNT, p)), 0) if 0 < p <= n else -1
        return amount


@ludeme("set", "Pot")
class SetPot(Moves):
    """`(set Pot [<int>] [(then ...)])`: the pot becomes the value (-1 when none is given).
    Example: `(set Pot (+ (pot) (amount Next)))`."""
    concepts = ()

    params = (P("value", IntFn, opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        value = env.compile(self.value) if self.value is not None else (lambda c: -1)
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_SET_VAR, POT, value(c))], then)]


@ludeme("pot")
class Pot(IntFn):
    """`(pot)`: the pot, 0 until set. Example: `(set Pot (+ (pot) 5))`."""
    concepts = ()

    params = ()

    def compile(self, env):
        key = ("var", POT)
        return lambda c: c.s.notes.get(key, 0)
