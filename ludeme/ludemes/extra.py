"""Ludemes that the bundled descriptions need and the other families do not have yet.

Each follows the Ludii class of the same keyword (Core/src/game/...); the
docstring names it and carries a small `.lud` example.
"""

from __future__ import annotations

from ..engine import A_SET_MOVER, A_SET_VAR, Move
from .base import IntFn, LitStr, Moves, Other, P, ludeme


@ludeme("count", "Turns")
class CountTurns(IntFn):
    """`(count Turns)`: the number of the current turn, 1 for the first.

    As Ludii's CountTurns (`state.numTurn()`): it starts at 1 and goes up by one
    whenever the mover changes, so a forced pass counts as a turn and a
    `(moveAgain)` does not. Example, pieces of kind "Big" on the first two turns
    of every four:

        (if (< (% (- (count Turns) 1) 4) 2) (forEach Piece "Big") (forEach Piece "Small"))
    """

    params = ()

    def compile(self, env):
        return lambda c: c.s.num_turn


# Chance ------------------------------------------------------------------------

@ludeme("value", "Random")
class ValueRandom(IntFn):
    """`(value Random (range <lo> <hi>))`: an integer drawn uniformly from lo..hi.

    As Ludii's ValueRandom (later Ludii versions; `context.rng()` there): the
    draw comes from the state's chance stream (`State.rng`, seeded from the
    playout's seed), so the same seed gives the same draw, and every value drawn
    is appended to `State.draws`, which playout rows record. A game using it has
    `Game.uses_chance` set. Example, a random first player of four:

        (start (set Mover (value Random (range 1 4))))
    """

    params = (P("range", "RangeL"),)

    def compile(self, env):
        lo, hi = self.range.bounds(env)
        env.uses_chance = True

        def draw(c):
            s = c.s
            value = s.rng.randint(lo(c), hi(c))
            s.draws.append(value)
            return value
        return draw


@ludeme("set", "Mover")
class SetMover(Other):
    """`(set Mover <player>)`, a start rule: the player who makes the first move.

    Ludii's games always start with P1 and its start rules have no way to name
    another first player; this project's start rule does, so that a first
    player drawn at random is part of the rules. The player is evaluated once
    for every new state (so `(value Random ...)` draws afresh each game). Example:

        (start { (place "Stone" "Hand" count:6) (set Mover (value Random (range 1 4))) })
    """

    params = (P("player", IntFn),)

    def start_actions(self, env):
        """A closure c -> the start actions of a new state (the compiler calls it)."""
        player = env.compile(self.player)
        n = env.num_players

        def first_mover(c):
            p = player(c)
            if not 1 <= p <= n:
                raise self.fail(f"(set Mover ...) gave player {p}; players are 1 to {n}")
            return [(A_SET_MOVER, p)]
        return first_mover


# The state's variable -------------------------------------------------------------

@ludeme("set", "Var")
class SetVar(Moves):
    """`(set Var [<value>] [(then ...)])`: set the state's variable (Ludii's SetVar, -1 by default).

    Ludii keeps one such value in the state (its "temp"), read back with `(var)`.
    Example, remember the turn on which something first happened:

        (if (= (var) -1) (set Var (count Turns)))
    """

    params = (P("value", IntFn, opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        value = env.compile(self.value) if self.value is not None else (lambda c: -1)
        then = (env.compile(self.then),) if self.then is not None else ()
        return lambda c: [Move(-1, -1, 0, [(A_SET_VAR, value(c))], then)]


@ludeme("var")
class Var(IntFn):
    """`(var)`: the state's variable set by `(set Var ...)`, -1 until then (Ludii's Var).

    Ludii's `(var "key")` reads a named value that this version of Ludii's
    grammar cannot set; it is refused.
    """

    params = (P("key", LitStr, opt=True),)

    def compile(self, env):
        if self.key is not None:
            raise self.fail('(var "key"): named variables are not supported yet; use (var)')
        return lambda c: c.s.var
