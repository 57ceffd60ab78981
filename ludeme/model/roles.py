"""Ludii's roles, resolved in one place.

A role word names players. Ludii resolves it to one id (its `Id` function and
`Item.create` for owners) or, where a rule iterates or tests membership, to a
set of ids. The ids are:

    0            Neutral (nobody's)
    1 .. n       P1 .. Pn
    n + 1        Shared, All and Any as one id (items owned by everyone: a shared
                 hand, shared pieces; Ludii's `players().count() + 1`)

`Roles(n, teams)` answers, for one game: `owner` (the fixed id of an item's or
a rule's owner), `owners` (`Each` expands to 1..n), `id_fn` (a closure giving
the one id a role names now: Mover, Next, Prev, the iterated Player), `set_fn`
(the players a role covers now: All, Enemy, Friend, ...), and `team_fn`.
An unknown or ill-placed role is a positioned LudemeError.
"""

from __future__ import annotations

PLAYER_WORDS = {f"P{i}": i for i in range(1, 17)}
SHARED_WORDS = ("Shared", "All", "Any")
DYNAMIC_WORDS = ("Mover", "Next", "Prev", "Player")
TEAM_ROLE_WORDS = ("TeamMover", "MoverTeam", "NextTeam", "PrevTeam")
# Roles that cover a set of players (`Roles.set_fn`), besides TeamN.
SET_WORDS = ("All", "Each", "Any", "Shared", "Enemy", "NonMover", "Friend", "Ally", "MoverTeam",
             "TeamMover")


def _names_a_set(role: str) -> bool:
    """The role covers a set of players, not always one player (`Roles.set_fn`)."""
    return role in SET_WORDS or (role.startswith("Team") and role[4:].isdigit())


class Roles:
    """How the role words of one game resolve to player ids."""

    def __init__(self, num_players: int, teams: dict[int, int] | None = None):
        self.n = num_players
        self.shared = num_players + 1
        self.teams = teams if teams is not None else {}     # player -> team (filled by set Team)

    # -- fixed ids -----------------------------------------------------------------
    def owner(self, role: str | None, lud, allow_missing: bool = False) -> int:
        """The fixed id a role names: 0 for Neutral or no role, i for Pi, n+1 for Shared/All.

        `allow_missing` lets Pi name a player the game does not have (Ludii keeps
        regions declared for up to six players whatever the count)."""
        if role is None or role == "Neutral":
            return 0
        if role in PLAYER_WORDS:
            p = PLAYER_WORDS[role]
            if p > self.n and not allow_missing:
                raise lud.fail(f"{role} does not exist in a {self.n}-player game")
            return p
        if role in SHARED_WORDS:
            return self.shared
        raise lud.fail(f"expected Neutral, Shared or a player (P1...) here, not {role}")

    def owners(self, role: str | None, lud) -> list[int]:
        """The owners of an item declared for `role`: `Each` is every player."""
        if role == "Each":
            return list(range(1, self.n + 1))
        return [self.owner(role, lud)]

    # -- ids now -------------------------------------------------------------------
    def id_fn(self, role: str, lud):
        """A closure c -> the one player id `role` names now (Ludii's `Id`)."""
        if role in DYNAMIC_WORDS:
            if role == "Mover":
                return lambda c: c.s.mover
            if role == "Next":
                return lambda c: c.s.next
            if role == "Prev":
                return lambda c: c.s.prev
            return lambda c: c.player
        if role in ("Each",):
            raise lud.fail("Each names every player in turn; one player is expected here")
        if role in PLAYER_WORDS or role in SHARED_WORDS or role == "Neutral":
            pid = self.owner(role, lud)
            return lambda c: pid
        if role.startswith("Team") and role[4:].isdigit():
            pid = int(role[4:])         # Ludii's Id reads TeamN as the number N
            return lambda c: pid
        raise lud.fail(f"the role {role} names several players where one is expected")

    def set_fn(self, role: str, lud):
        """A closure c -> the frozenset of player ids `role` covers now (the one player of
        `id_fn` for a role that does not `_names_a_set`)."""
        if not _names_a_set(role):
            one = self.id_fn(role, lud)
            return lambda c: frozenset((one(c),))
        n = self.n
        everyone = frozenset(range(1, n + 1))
        teams = self.teams
        if role in ("All", "Each"):
            return lambda c: everyone
        if role == "Any":
            anyone = frozenset(range(0, n + 2))
            return lambda c: anyone
        if role == "Shared":
            shared = frozenset((self.shared,))
            return lambda c: shared
        if role in ("Enemy", "NonMover"):
            if role == "Enemy" and teams:
                return lambda c: frozenset(p for p in everyone
                                           if teams.get(p) != teams.get(c.s.mover))
            return lambda c: everyone - {c.s.mover}
        if role in ("Friend", "Ally", "MoverTeam", "TeamMover"):
            if teams:
                return lambda c: frozenset(p for p in everyone
                                           if teams.get(p) == teams.get(c.s.mover))
            return lambda c: frozenset((c.s.mover,))
        return self.team_players_fn(int(role[4:]))     # TeamN

    def single_fn(self, role: str, lud):
        """`id_fn(role)` when the set `role` covers is always that one player (`set_fn`
        gives the singleton), else None."""
        return None if _names_a_set(role) else self.id_fn(role, lud)

    def team_players_fn(self, team: int):
        """c -> the players of a team (Ludii's PlayersTeam): those set in it, or without
        teams, the player of that number if there is one."""
        teams = self.teams
        members = frozenset(range(1, self.n + 1))

        def players(c):
            if teams:
                return frozenset(p for p in members if teams.get(p) == team)
            return frozenset((team,)) if team in members else frozenset()
        return players

    def team_fn(self, role: str, lud):
        """A closure c -> the team a role names: TeamMover, NextTeam, PrevTeam, Team1..."""
        teams = self.teams
        if role in ("TeamMover", "MoverTeam"):
            return lambda c: teams.get(c.s.mover, 0)
        if role == "NextTeam":
            return lambda c: teams.get(c.s.next, 0)
        if role == "PrevTeam":
            return lambda c: teams.get(c.s.prev, 0)
        if role.startswith("Team") and role[4:].isdigit():
            t = int(role[4:])
            return lambda c: t
        raise lud.fail(f"{role} is not a team")

    def value(self, word):
        """A table entry (`(pair P1 "A1")`): a player word as its id, anything else as is."""
        if isinstance(word, str):
            if word in PLAYER_WORDS:
                return PLAYER_WORDS[word]
            if word in SHARED_WORDS:
                return self.shared
            if word == "Neutral":
                return 0
        return word
