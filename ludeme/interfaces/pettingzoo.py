"""Any description as a PettingZoo AEC environment with action masks.

    from ludeme.interfaces.pettingzoo import env
    e = env("descriptions/adzua_children.lud")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        mask = obs["action_mask"]
        e.step(None if termination or truncation else e.action_space(agent).sample(mask))

Needs the optional extra: `pip install 'ludeme[pettingzoo]'`.

Agents are "player_1" .. "player_P". Actions are `ludeme.interfaces.action_ids` ids (fixed
per game); the observation is a dict of `observation` (the flattened
`board_view()`: owner, piece kind and count per board site, hand counts,
scores, as the agent sees it: -1 where a game's (set Hidden ...) hides a datum from them) and `action_mask` (1 for each legal id of the agent to move, all 0 for
the others). Rewards come at the end: each player's return (Ludii's rank
utility: +1 win, -1 loss, 0 draw). A game cut by Ludii's turn or move limit
ends in truncation, a natural end in termination. The states are the fastest
backend's (`backend`, as `ludeme.api.load`); nothing observable depends on it.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("ludeme.interfaces.pettingzoo needs PettingZoo: pip install 'ludeme[pettingzoo]'") \
        from e

from .action_ids import legal_by_id, num_distinct_actions, observation_vector, view_string

TIMEOUT_END_TYPES = ("TurnLimit", "MoveLimit")


class LudemeEnv(AECEnv):
    """A compiled ludeme game as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi"], "name": "ludeme", "is_parallelizable": False}

    def __init__(self, game, render_mode: str | None = None, backend: str | None = None):
        super().__init__()
        from ludeme.analysis.playouts import compiled_of
        self.backend = backend or getattr(game, "backend", "auto")
        compiled_of(game, self.backend)     # compile now (or say once why not)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"ludeme_{game.name}"}
        self.possible_agents = [f"player_{p}" for p in range(1, game.num_players + 1)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents, 1)}
        size = len(observation_vector(game.new_initial_state()))
        actions = num_distinct_actions(game)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }) for a in self.possible_agents}
        self.state = None

    def observation_space(self, agent):
        """The observation space of an agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of an agent."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """The start position; `seed` seeds the game's chance stream (dice, random draws)."""
        from ludeme.analysis.playouts import new_state
        self.state = new_state(self.game, seed, self.backend)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_move()

    def _agent_to_move(self) -> str:
        """The agent whose turn it is (the last mover once the game is over)."""
        player = self.state.current_player()
        if player < 1:
            return self.agent_selection
        return self.possible_agents[player - 1]

    def observe(self, agent: str) -> dict:
        """The position as this agent sees it (-1 where a datum is hidden from them), and the
        mask of this agent's legal actions."""
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if not self.state.is_terminal() and agent == self._agent_to_move():
            mask[list(legal_by_id(self.game, self.state))] = 1
        seen = observation_vector(self.state, self.agent_name_mapping[agent])
        return {"observation": seen, "action_mask": mask}

    def step(self, action) -> None:
        """Play the selected agent's action (None for an agent already done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        moves = legal_by_id(self.game, self.state)
        if action is None or int(action) not in moves:
            raise ValueError(f"{agent}: action {action} is not legal here")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(moves[int(action)])
        if self.state.is_terminal():
            returns = self.state.returns()
            cut = self.state.end_type in TIMEOUT_END_TYPES
            for a in self.agents:
                self.rewards[a] = float(returns[self.agent_name_mapping[a]])
                self.terminations[a] = not cut
                self.truncations[a] = cut
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        """The position as text (render_mode "ansi")."""
        if self.render_mode is None:
            return None
        return view_string(self.state.board_view())

    def close(self) -> None:
        """Nothing to release."""


def env(path: str | os.PathLike, options=(), ruleset: str | None = None, *,
        render_mode: str | None = None, max_turns: int | None = None,
        max_moves: int | None = None, backend: str = "auto") -> LudemeEnv:
    """Compile a description (with options or a ruleset) into a PettingZoo AEC environment;
    `backend`: "auto", "compiled" or "reference" (as `ludeme.api.load`)."""
    from ludeme.api import load
    game = load(Path(path), options, ruleset, max_turns=max_turns, max_moves=max_moves,
                backend=backend)
    return LudemeEnv(game, render_mode=render_mode, backend=backend)
