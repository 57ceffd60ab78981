"""A tiny game with the engine's API, for testing the runner without the real engine.

"Fill": two players (or more) on a board of `sites` points. A decision places
one of the mover's pieces on an empty point, or removes any piece. Placing on
point 0 earns a follow-up decision by the same player (a moveAgain chain: one
turn, two decisions) whose only legal move is a pass. The game ends when the
board is full: the player with most pieces ranks first, ties share ranks. The
turn counter and limits follow Ludii (a cut game ranks everyone undecided at the
shared draw rank, with no winner).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Container:
    num_sites: int


@dataclass
class Move:
    frm: int
    to: int
    kind: str            # "place", "remove", "pass"

    @property
    def is_pass(self) -> bool:
        return self.kind == "pass"


class FakeGame:
    """The game; `source` lets worker processes rebuild it."""

    def __init__(self, sites: int = 4, players: int = 2, max_turns: int = 1250,
                 max_moves: int = 10000, interrupt_after: int | None = None):
        self.name = "Fill"
        self.num_players = players
        self.options = (f"Board/{sites}",)
        self.ruleset = None
        self.containers = [Container(sites), Container(1), Container(1)]
        self.max_turns = max_turns
        self.max_moves = max_moves
        self.interrupt_after = interrupt_after   # raise KeyboardInterrupt at this playout
        self.uses_chance = False                 # no chance stream, as Game.uses_chance
        self.started = 0
        self.source = FakeSource(sites, players, max_turns, max_moves)
        self.backend = "auto"

    def kernels_for(self, backend: str, build):
        """As `Game.kernels_for`: this game has no compiled form."""
        return None

    def has_kernels(self, backend: str) -> bool:
        """As `Game.has_kernels`: known already (it has none)."""
        return True

    def __getstate__(self) -> dict:
        # A worker process gets the game as its source builds it (no interruption planned).
        return dict(self.__dict__, interrupt_after=None, started=0)

    def new_initial_state(self, seed: int | None = None) -> "FakeState":
        self.started += 1
        if self.interrupt_after is not None and self.started > self.interrupt_after:
            raise KeyboardInterrupt
        return FakeState(self)


@dataclass(frozen=True)
class FakeSource:
    sites: int
    players: int
    max_turns: int
    max_moves: int

    def load(self) -> FakeGame:
        return FakeGame(self.sites, self.players, self.max_turns, self.max_moves)


class FakeState:
    def __init__(self, game: FakeGame):
        self.g = game
        total = sum(c.num_sites for c in game.containers)
        self.who = [0] * total
        self.what = [0] * total
        self.count = [0] * total
        self.mover = 1
        self.num_turn = 1
        self.num_decisions = 0
        self.chain = False
        self.end_type = None
        self.winner = None
        self.ranking = [0.0] * (game.num_players + 1)
        self.scores = [0] * (game.num_players + 1)

    def is_terminal(self) -> bool:
        return self.end_type is not None

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.mover

    def returns(self) -> list[float]:
        n = self.g.num_players
        if not self.is_terminal():
            return [0.0] * (n + 1)
        return [0.0] + [1.0 - 2.0 * (self.ranking[p] - 1.0) / (n - 1) for p in range(1, n + 1)]

    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        if self.chain:
            return [Move(-1, -1, "pass")]
        n = self.g.containers[0].num_sites
        moves = [Move(s, s, "place") for s in range(n) if self.what[s] == 0]
        moves += [Move(s, s, "remove") for s in range(n) if self.what[s] != 0]
        return moves

    def board_occupancy(self):
        n = self.g.containers[0].num_sites
        return self.what[:n], sum(self.count[:n])

    def position_key(self) -> tuple:
        return (tuple(self.who), tuple(self.what), tuple(self.count))

    def situation_key(self, position: tuple | None = None) -> tuple:
        return (self.position_key() if position is None else position, self.mover,
                self.chain, self.end_type, tuple(self.scores))

    @property
    def num_actions(self) -> int:
        """Every fake decision is one action (DurationActions)."""
        return self.num_decisions

    def clone(self) -> "FakeState":
        s = FakeState.__new__(FakeState)
        s.__dict__.update(self.__dict__)
        for k in ("who", "what", "count", "ranking", "scores"):
            setattr(s, k, list(getattr(self, k)))
        return s

    def apply(self, move: Move) -> None:
        g = self.g
        n = g.containers[0].num_sites
        players = g.num_players
        again = False
        if move.kind == "place":
            self.who[move.to] = self.mover
            self.what[move.to] = self.mover
            self.count[move.to] = 1
            again = move.to == 0
        elif move.kind == "remove":
            self.who[move.to] = self.what[move.to] = self.count[move.to] = 0
        self.chain = again
        self.num_decisions += 1
        if all(self.what[s] for s in range(n)):
            pieces = [sum(1 for s in range(n) if self.who[s] == p) for p in range(players + 1)]
            for p in range(1, players + 1):
                better = sum(1 for q in range(1, players + 1) if pieces[q] > pieces[p])
                same = sum(1 for q in range(1, players + 1) if pieces[q] == pieces[p])
                self.ranking[p] = better + 1 + (same - 1) / 2
            firsts = [p for p in range(1, players + 1) if self.ranking[p] == 1.0]
            self.winner = firsts[0] if firsts else 0
            self.end_type = "NaturalEnd"
            return
        if self.num_turn >= g.max_turns * players or self.num_decisions >= g.max_moves:
            self.end_type = "TurnLimit" if self.num_turn >= g.max_turns * players else "MoveLimit"
            self.ranking = [0.0] + [(players + 1) / 2] * players
            self.winner = 0
            return
        if not again:
            self.mover = self.mover % players + 1
            self.num_turn += 1
