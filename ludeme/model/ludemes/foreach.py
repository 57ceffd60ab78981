"""`(forEach Player <moves>)` in play (Ludii's game.rules.play.moves.nonDecision.operators
.foreach.player.ForEachPlayer); the end-rule form is in `game`."""

from __future__ import annotations

from .base import Moves, P, ludeme


@ludeme("forEach", "Player")
class ForEachPlayerMoves(Moves):
    """`(forEach Player <moves> [(then ...)])`: the moves generated with each player in turn
    (1 to n) as `(player)`."""
    concepts = ("ControlFlowStatement",)

    params = (P("moves", Moves), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        gen = env.compile(self.moves)
        then = _then(env, self)
        n = env.num_players

        players = range(1, n + 1)
        return lambda c: gather(c, "player", players, gen, then)


def gather(c, var: str, values, gen, then) -> list:
    """The moves `gen` generates with the context variable `var` on each value in turn (put
    back afterwards), each followed by the consequents `then`."""
    saved = getattr(c, var)
    out = []
    for v in values:
        setattr(c, var, v)
        out.extend(gen(c))
    setattr(c, var, saved)
    if then:
        for m in out:
            m.then = tuple(m.then) + then
    return out
