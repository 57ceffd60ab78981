"""Players for any game: uniform random, greedy one-ply, and UCT (Monte Carlo tree search).

An agent picks one of a state's legal moves: `agent.choose(state, rng)` returns
an index into `state.legal_moves()`. All randomness comes from `rng`, the
`random.Random` of the playout (seeded by the playout's seed), so the same seed
gives the same game on any machine and any number of workers; only a UCT agent
with a time budget (`seconds=`) depends on the machine's speed.

Agents are named by a short spec, the form `ludeme run --agents` and
`ludeme play --opponent` take:

| spec | agent |
| --- | --- |
| `random` | uniform over the legal moves (`rng.randrange`, the choices of `ludeme.analysis.conformance.random_playout`) |
| `greedy` | one ply: a move that wins at once, else any move that does not lose at once (Ludii's "One-Ply (No Heuristic)") |
| `uct` | UCT: `iterations=1000` per move (or `seconds=S`), exploration `c=1.41421` (sqrt 2), random rollouts cut after `rollout=200` moves (Ludii's UCT: UCB1, random playouts of 200, the most visited move); at most `nodes=100000` nodes per search (each holds a state: the bound on its memory), where the search stops and says so once |

Parameters follow a colon: `uct:iterations=200,c=1.0`, `uct:seconds=0.5`.
An agent's `name` is its spec with every parameter spelled out, as stored in
the playout table (`agent_p1`, `agent_p2`, ...).

Only the public state API is used (`legal_moves`, `apply`, `clone`,
`current_player`, `is_terminal`, `returns`), so the agents work on any game
without chance, on either backend (`ludeme.engine.state.State` or the compiled
`ludeme.engine.compiled.CompiledState`, whose legal moves come in the same order, so
the same seed gives the same game); a state with its own `random_rollout` (the
compiled one) plays UCT's rollouts in machine code, with the same draws. Games with chance (dice, random draws) are refused to the
search agents for now (`check_agents`): a clone continues the state's chance
stream, so their look-ahead would see the dice the real game will roll.
"""

from __future__ import annotations

import math
import random
import sys
import time

from ludeme.errors import LudemeError

DEFAULT_ITERATIONS = 1000
DEFAULT_EXPLORATION = math.sqrt(2.0)
DEFAULT_ROLLOUT = 200
# Each node of a UCT tree holds a copy of a state: the budget bounds the search's memory.
DEFAULT_NODES = 100_000


class RandomAgent:
    """Uniformly random legal moves."""

    name = "random"
    looks_ahead = False

    def choose(self, state, rng: random.Random) -> int:
        """A uniformly random legal move."""
        return rng.randrange(len(state.legal_moves()))


class GreedyAgent:
    """One ply: win at once if possible, never lose at once if avoidable, else random."""

    name = "greedy"
    looks_ahead = True

    def choose(self, state, rng: random.Random) -> int:
        """The index of a best move by its immediate outcome for the mover; ties at random."""
        legal = state.legal_moves()
        if len(legal) == 1:
            return 0
        mover = state.current_player()
        values = []
        for move in legal:
            after = state.clone()
            after.apply(move)
            # A game that goes on is worth 0: between a loss (-1) and a win (+1).
            values.append(after.returns()[mover] if after.is_terminal() else 0.0)
        best = max(values)
        ties = [i for i, v in enumerate(values) if v == best]
        return ties[rng.randrange(len(ties))]


class _Node:
    """A position in the UCT tree: its state, its moves, and the returns seen below it."""

    __slots__ = ("state", "mover", "moves", "untried", "children", "visits", "totals")

    def __init__(self, state, num_players: int):
        self.state = state
        self.mover = state.current_player()
        self.moves = state.legal_moves()
        self.untried = list(range(len(self.moves)))
        self.children: list[tuple[int, _Node]] = []
        self.visits = 0
        self.totals = [0.0] * (num_players + 1)    # summed returns per player (index 0 unused)


class UCTAgent:
    """UCT with random rollouts; every player maximises its own return (any number of players).

    Each iteration descends by UCB1 (`mean return of the mover + c sqrt(ln N / n)`)
    while every move of a node has been tried, tries one new move (chosen at
    random), plays randomly from there for at most `rollout` moves (a cut
    rollout is worth 0 to everyone, as an unfinished `returns()`), and adds the
    returns of every player to the nodes on the path. The move played is the
    most visited (ties: the better mean, then the first).
    """

    looks_ahead = True

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS, seconds: float | None = None,
                 c: float = DEFAULT_EXPLORATION, rollout: int = DEFAULT_ROLLOUT,
                 nodes: int = DEFAULT_NODES):
        if seconds is not None:
            iterations = None
        if (iterations is None) == (seconds is None):
            raise ValueError("UCT needs iterations or seconds")
        # `not x > 0` also refuses NaN
        if iterations is not None and not iterations >= 1 \
                or seconds is not None and not 0 < seconds < math.inf:
            raise ValueError("UCT: iterations and seconds must be positive and finite")
        if not 0 <= c < math.inf or not rollout >= 0 or not nodes >= 1:
            raise ValueError("UCT: c must be finite and >= 0, rollout >= 0 and nodes >= 1")
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self.nodes = nodes
        self.full = False           # a search reached the node budget (said once)
        budget = f"seconds={seconds:g}" if seconds is not None else f"iterations={iterations}"
        self.name = f"uct:{budget},c={c:g},rollout={rollout}" + \
            (f",nodes={nodes}" if nodes != DEFAULT_NODES else "")

    def choose(self, state, rng: random.Random) -> int:
        """The most visited move after the search."""
        if len(state.legal_moves()) == 1:
            return 0
        root = self.search(state, rng)
        best = max(root.children, key=lambda ic: (ic[1].visits,
                                                  ic[1].totals[root.mover] / ic[1].visits, -ic[0]))
        return best[0]

    def search(self, state, rng: random.Random) -> _Node:
        """The tree grown from `state` within the budget."""
        n = len(state.returns()) - 1
        root = _Node(state.clone(), n)
        # A compiled state draws in machine code: the stream moves there for the search.
        draws = state.kernel_random(rng) if hasattr(state, "kernel_random") else rng
        size = 1
        try:
            if self.seconds is not None:
                deadline = time.perf_counter() + self.seconds
                while size < self.nodes:
                    size += self._iterate(root, n, draws)
                    if time.perf_counter() >= deadline:
                        break
            else:
                for _ in range(self.iterations):
                    if size >= self.nodes:
                        break
                    size += self._iterate(root, n, draws)
        finally:
            if draws is not rng:
                draws.close()
        if size >= self.nodes and not self.full:
            self.full = True
            print(f"ludeme: {self.name}: a search reached its budget of {self.nodes:,} nodes "
                  "and stopped there (raise nodes= for deeper searches)", file=sys.stderr)
        return root

    def _iterate(self, root: _Node, n: int, rng: random.Random) -> int:
        """One selection, expansion, rollout and backup; the number of nodes added (0 or 1)."""
        node = root
        path = [root]
        c = self.c
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            p = node.mover
            best = -math.inf
            for _, child in node.children:
                v = child.totals[p] / child.visits + c * math.sqrt(log_n / child.visits)
                if v > best:
                    best, chosen = v, child
            node = chosen
            path.append(node)
        if node.untried:
            k = rng.randrange(len(node.untried))
            node.untried[k], node.untried[-1] = node.untried[-1], node.untried[k]
            i = node.untried.pop()
            after = node.state.clone()
            after.apply(node.moves[i])
            child = _Node(after, n)
            node.children.append((i, child))
            node = child
            path.append(node)
            added = 1
        else:
            added = 0
        state = node.state
        if not state.is_terminal():
            state = state.clone()
            random_rollout(state, rng, self.rollout)
        returns = state.returns()
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for p in range(1, n + 1):
                totals[p] += returns[p]
        return added


class ScaledUCTAgent:
    """UCT whose budget grows with the choice: `per_move` iterations for each legal move of the
    state (Ludii's SkillTrace gives its agents `iterations x the number of legal moves`)."""

    looks_ahead = True

    def __init__(self, per_move: int, c: float = DEFAULT_EXPLORATION,
                 rollout: int = DEFAULT_ROLLOUT, nodes: int = DEFAULT_NODES):
        if not per_move >= 1:
            raise ValueError("UCT: per_move must be at least 1")
        self.per_move, self.c, self.rollout, self.nodes = per_move, c, rollout, nodes
        self.name = f"uct:per_move={per_move},c={c:g},rollout={rollout}"

    def choose(self, state, rng: random.Random) -> int:
        """UCT's choice with `per_move` x (legal moves) iterations."""
        k = len(state.legal_moves())
        return UCTAgent(self.per_move * k, c=self.c, rollout=self.rollout,
                        nodes=self.nodes).choose(state, rng)


def random_rollout(state, rng: random.Random, limit: int) -> None:
    """Uniformly random moves until the end or `limit` moves: in the state's own kernel where
    it has one (the compiled backend's, with the same draws from `rng`), else move by move."""
    fast = getattr(state, "random_rollout", None)
    if fast is not None:
        fast(rng, limit)
        return
    for _ in range(limit):
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
        if state.is_terminal():
            break


# ---------------------------------------------------------------- specs

_KINDS = {"random": RandomAgent, "greedy": GreedyAgent, "uct": UCTAgent}
_UCT_PARAMS = {"iterations": int, "seconds": float, "c": float, "rollout": int,
               "nodes": int}


def agent_from_spec(spec: str):
    """The agent a spec names (`random`, `greedy`, `uct`, `uct:iterations=200,c=1`)."""
    kind, _, params = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in _KINDS:
        raise LudemeError(f"unknown agent {spec!r}: expected one of {', '.join(_KINDS)}")
    kwargs = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if kind != "uct" or not eq or key not in _UCT_PARAMS:
            expected = ", ".join(f"{k}=" for k in _UCT_PARAMS) if kind == "uct" else "none"
            raise LudemeError(f"agent {spec!r}: bad parameter {item!r} (parameters: {expected})")
        try:
            kwargs[key] = _UCT_PARAMS[key](value)
        except ValueError:
            raise LudemeError(f"agent {spec!r}: {key} must be a number, not {value!r}") from None
    try:
        return _KINDS[kind](**kwargs)
    except ValueError as e:
        raise LudemeError(f"agent {spec!r}: {e}") from None


def agents_from_specs(specs: str, num_players: int) -> list:
    """One agent per seat from a comma list of specs; parameters are the items with '='.

    "uct:iterations=200,c=1,random" gives UCT for player 1 and random for player 2.
    """
    parts: list[str] = []
    for item in specs.split(","):
        if "=" in item and ":" not in item and parts:     # a parameter of the agent before
            parts[-1] += "," + item
        else:
            parts.append(item)
    agents = [agent_from_spec(p) for p in parts]
    if len(agents) != num_players:
        raise LudemeError(f"--agents names {len(agents)} agent(s) for a game of "
                          f"{num_players} players: give one per player, in order")
    return agents


def check_agents(game, agents: list | None) -> None:
    """Refuse agents that cannot play this game: search agents on a game with chance."""
    if getattr(game, "uses_chance", False):
        for agent in agents or ():
            if agent.looks_ahead:
                raise LudemeError(f"{game.name}: agent {agent.name} does not support games with "
                                  "chance yet (its look-ahead would see the dice of the real "
                                  "game); use random")


def play_match(game, agents: list, seed: int, backend: str | None = None):
    """Play one game with these agents (one per seat, in order); the final state.

    The seed seeds both the agents' choices and the game's chance stream, as a
    playout of `ludeme run` does. `backend`: as `ludeme.api.new_state` (None: the
    one the game was loaded with); the game played does not depend on it.
    """
    from ludeme.api import new_state
    check_agents(game, agents)
    rng = random.Random(seed)
    state = new_state(game, seed, backend)
    while not state.is_terminal():
        agent = agents[state.current_player() - 1]
        state.apply(state.legal_moves()[agent.choose(state, rng)])
    return state
