"""Ludemes that the bundled descriptions need and the other families do not have yet.

Each follows the Ludii class of the same keyword (Core/src/game/...); the
docstring names it and carries a small `.lud` example.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import Unsupported, emit, emits
from ludeme.engine.state import A_SET_MOVER
from .base import IntFn, Other, P, ludeme


@ludeme("count", "Turns")
class CountTurns(IntFn):
    """`(count Turns)`: the number of the current turn, 1 for the first.

    As Ludii's CountTurns (`state.numTurn()`): it starts at 1 and goes up by one
    whenever the mover changes, so a forced pass counts as a turn and a
    `(moveAgain)` does not. Example, pieces of kind "Big" on the first two turns
    of every four:

        (if (< (% (- (count Turns) 1) 4) 2) (forEach Piece "Big") (forEach Piece "Small"))
    """
    concepts = ()

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
    concepts = ("Stochastic",)

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
    concepts = ()

    params = (P("player", IntFn),)

    def start_actions(self, env, ctx) -> list:
        """The start moves: one closure c -> actions, evaluated on each new state."""
        player = env.compile(self.player)
        n = env.num_players

        def first_mover(c):
            p = player(c)
            if not 1 <= p <= n:
                raise self.fail(f"(set Mover ...) gave player {p}; players are 1 to {n}")
            return [(A_SET_MOVER, p)]
        return [first_mover]


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(ValueRandom, kind="int")
def _value_random(src, lud):
    """A draw from the kernels' chance stream (`draw_int`, recorded for the row); only in
    the start rules, where the reference draws once per game: a draw while moves are
    generated would follow the kernels' order of generation, not the reference's."""
    if not src.in_start:
        raise Unsupported(lud, "during play (only in the start rules)")
    lo, hi = emit("range", src, lud.range)
    return f"draw_int(sc, {lo}, {hi})"


@emits(SetMover, kind="start")
def _set_mover_start(src, lud, out, ind):
    out.append(f"{ind}p = {src.int_expr(lud.player)}")
    out.append(f"{ind}if not 1 <= p <= NP:")
    out.append(f"{ind}    raise ValueError('(set Mover ...) gave a player out of range')")
    out.append(f"{ind}sc[MOVER] = p")
    out.append(f"{ind}sc[NEXT] = p % NP + 1")

@emits(CountTurns, kind="int")
def _count_turns(src, lud):
    return "sc[NUM_TURN]"
