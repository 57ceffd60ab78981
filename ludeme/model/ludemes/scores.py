"""Scores and the state counter: Ludii's start rule `(set Score ...)`
(`game.rules.start.set.player.SetScore`), the effect `(set Counter ...)` and the function
`(counter)` (`ints.state.Counter`)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_SET_COUNTER, A_SET_SCORE
from .base import IntFn, Moves, Other, P, RoleType, ludeme
from .memory import _AS_PART, _effect
from ludeme.engine.compiled.emit import emits
from .moves import _then


@ludeme("set", "Score")
class StartSetScore(Other):
    """`(start (set Score Each 0))` or `(set Score P1 <int>)`: a start rule setting scores.

    As in Ludii, `Each` gives every player the score in one start move apiece, and the score
    is evaluated in the position the earlier start rules left."""

    concepts = ("Scoring", "InitialScore")
    params = (P("role", RoleType), P("score", IntFn))

    def start_actions(self, env, ctx) -> list:
        """One start move (a closure c -> actions) per player whose score is set."""
        score = env.compile(self.score)
        if self.role == "Each":
            players = range(1, env.num_players + 1)
            return [(lambda c, p=p: [(A_SET_SCORE, p, score(c))]) for p in players]
        who = env.role_id(self.role, self)
        return [lambda c: [(A_SET_SCORE, who(c), score(c))]]


@ludeme("set", "Counter")
class SetCounter(Moves):
    """`(set Counter [<int>])`: set the state's counter (-1 without a value), which then
    counts the moves applied since, e.g. `(then (set Counter))`."""

    concepts = ("InternalCounter", "SetInternalCounter")
    params = (P("value", IntFn, opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        value = env.compile(self.value) if self.value is not None else (lambda c: -1)
        return _effect(lambda c: [(A_SET_COUNTER, value(c))], _then(env, self))


@ludeme("counter")
class Counter(IntFn):
    """`(counter)`: the state's counter: -1 at the start, +1 after every move (Ludii's
    `incrCounter`), reset by `(set Counter ...)`, e.g. `(= (counter) 0)`."""

    concepts = ("InternalCounter",)
    params = ()

    def compile(self, env):
        return lambda c: c.s.counter


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

def _set_counter_lines(src, lud, lines, ind):
    value = src.int_expr(lud.value) if lud.value is not None else "-1"
    lines.append(f"{ind}sc[COUNTER] = {value}")


emits(SetCounter, kind="consequent", refuses=_AS_PART)(_set_counter_lines)
emits(SetCounter, kind="effect", refuses=_AS_PART)(
    lambda src, lud, body: _set_counter_lines(src, lud, body, ""))


@emits(Counter, kind="int")
def _counter(src, lud):
    return "sc[COUNTER]"
