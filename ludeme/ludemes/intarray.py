"""Integer arrays (Ludii's game.functions.intArray): `(results ...)`, read by `(max ...)`
and `(min ...)`, and the players of a team, `(players TeamN ...)`, read by `(is In ...)`."""

from __future__ import annotations

from .base import CLASSES, Bool, Enum, IntFn, Ludeme, P, Region, ludeme


class IntArrayFn(Ludeme):
    """A function giving a sequence of integers."""


CLASSES["IntArrayFn"] = IntArrayFn


@ludeme("results")
class Results(IntArrayFn):
    """`(results from:<site>|<region> to:<site>|<region> <int>)`: the value of the function
    for each origin and, with (from) on it, each destination, as (from) and (to)."""

    params = (P("from", (IntFn, Region), named=True), P("to", (IntFn, Region), named=True),
              P("function", IntFn))

    def compile(self, env):
        froms, tos = (env.compile(x) for x in (self.from_, self.to))
        one_from, one_to = isinstance(self.from_, IntFn), isinstance(self.to, IntFn)
        fn = env.compile(self.function)

        def results(c):
            saved = (c.from_, c.to)
            out = []
            for frm in ((froms(c),) if one_from else froms(c)):
                c.from_ = frm
                for to in ((tos(c),) if one_to else tos(c)):
                    c.to = to
                    out.append(fn(c))
            c.from_, c.to = saved
            return out
        return results


TeamWord = Enum("PlayersTeamType", " ".join(f"Team{i}" for i in range(1, 17)))


@ludeme("players")
class PlayersTeam(IntArrayFn):
    """`(players TeamN [if:<cond>])`: the players of team N, in order, where the condition
    holds with `(player)` set to each (Ludii's PlayersTeam; without teams, player N).
    Example: `(is In (mover) (players Team1))`."""

    params = (P("team", TeamWord), P("if", Bool, opt=True, named=True))

    def compile(self, env):
        members = env.roles.team_players_fn(int(self.team[4:]))
        cond = env.compile(self.if_) if self.if_ is not None else None

        def players(c):
            found = sorted(members(c))
            if cond is None:
                return found
            saved, out = c.player, []
            for p in found:
                c.player = p
                if cond(c):
                    out.append(p)
            c.player = saved
            return out
        return players
