"""`(forEach Player <moves>)` in play (Ludii's game.rules.play.moves.nonDecision.operators
.foreach.player.ForEachPlayer); the end-rule form is in `game`."""

from __future__ import annotations

from .base import Moves, P, ludeme


@ludeme("forEach", "Player")
class ForEachPlayerMoves(Moves):
    """`(forEach Player <moves> [(then ...)])`: the moves generated with each player in turn
    (1 to n) as `(player)`."""

    params = (P("moves", Moves), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        gen = env.compile(self.moves)
        then = _then(env, self)
        n = env.num_players

        def for_each(c):
            saved = c.player
            out = []
            for p in range(1, n + 1):
                c.player = p
                out.extend(gen(c))
            c.player = saved
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        return for_each
