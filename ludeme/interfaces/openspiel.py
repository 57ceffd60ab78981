"""Any description as an OpenSpiel game: `load_game(path, options, ruleset)` -> `pyspiel.Game`.

OpenSpiel's own algorithms (MCTS, evaluate_bots, ...) then run on it unchanged:

    from ludeme.interfaces.openspiel import load_game
    game = load_game("descriptions/adzua_children.lud")
    state = game.new_initial_state()     # a pyspiel.State; players are 0-based

Needs the optional extra: `pip install 'ludeme[openspiel]'`.

Action ids are `ludeme.interfaces.action_ids.action_ids` (fixed per game, built from each
move's from and to sites; see there), so OpenSpiel's fixed
`num_distinct_actions` holds and the same move keeps its id everywhere.

The state is the fastest backend's (`backend`, as `ludeme.api.load`: "auto" plays
the compiled kernels' `CompiledState` where the game compiles, and says once why
not otherwise); observations, legal actions and returns do not depend on it.

The observation (string and tensor) of a player is the state's `board_view()`: owner, piece
kind and count per board site, hand counts and scores; a game with hidden information
((set Hidden ...)) is registered as IMPERFECT_INFORMATION and each player's observation
reads -1 wherever a datum is hidden from them.

A game with chance (dice, random draws) is registered as SAMPLED_STOCHASTIC:
the dice are rolled inside the state, from a chance stream whose seed each new
state draws from the game's generator (parameter `rng_seed`, default 0).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("ludeme.interfaces.openspiel needs OpenSpiel: pip install 'ludeme[openspiel]'") from e

from .action_ids import legal_by_id, num_distinct_actions, observation_vector, player_view, \
    view_string

# short name -> the LudemeGame subclass registered for it. pyspiel keeps the class until the
# interpreter exits; a class (not a closure) is what it can release safely then.
_REGISTERED: dict[str, type] = {}


# ---------------------------------------------------------------- the game

class _Box:
    """Holds the ludeme state; OpenSpiel deep-copies a state's attributes, and this makes
    that a `clone()` (sharing the compiled game) instead of a copy of everything."""

    __slots__ = ("game", "state")

    def __init__(self, game, state):
        self.game = game
        self.state = state

    def __deepcopy__(self, memo):
        return _Box(self.game, self.state.clone())


class LudemeState(pyspiel.State):
    """A ludeme `State` seen through OpenSpiel's Python game API (players 0-based)."""

    def __init__(self, game: "LudemeGame", chance_seed: int | None = None):
        super().__init__(game)
        from ludeme.analysis.playouts import new_state
        self._box = _Box(game.ludeme_game, new_state(game.ludeme_game, chance_seed))

    @property
    def ludeme_state(self):
        """The wrapped state (`ludeme.engine.state.State`, or `ludeme.engine.compiled.CompiledState`)."""
        return self._box.state

    def _moves(self) -> dict[int, object]:
        """Action id -> move of this position."""
        return legal_by_id(self._box.game, self._box.state)

    def current_player(self) -> int:
        """The player to move (0-based), or TERMINAL."""
        s = self._box.state
        return pyspiel.PlayerId.TERMINAL if s.is_terminal() else s.current_player() - 1

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action ids, ascending."""
        if self._box.state.is_terminal() or player != self.current_player():
            return []
        return sorted(self._moves())

    def _apply_action(self, action: int) -> None:
        """Apply the move with this id."""
        moves = self._moves()
        if action not in moves:
            raise ValueError(f"action {action} is not legal here")
        self._box.state.apply(moves[action])

    def _action_to_string(self, player: int, action: int) -> str:
        """The move as `ludeme play` names it (`str(move)`: board labels, unique among the
        legal moves); an action not legal here by its sites as Ludii numbers them."""
        width = self._box.game.total_sites + 1
        k, rest = divmod(action, width * width)
        frm, to = divmod(rest, width)
        move = self._moves().get(action)
        if move is not None:
            return str(move)
        return f"{frm - 1}-{to - 1}" + (f"#{k}" if k else "")

    def is_terminal(self) -> bool:
        """The game is over."""
        return self._box.state.is_terminal()

    def returns(self) -> list[float]:
        """Each player's return (Ludii's rank utility): +1 win, -1 loss, 0 draw or unfinished."""
        return list(self._box.state.returns()[1:])

    def __str__(self) -> str:
        return view_string(self._box.state.board_view())


class BoardObserver:
    """OpenSpiel's PyObserver for a ludeme state: the position as the player sees it (all of
    it, but for what a game with hidden information hides from them: -1 there)."""

    def __init__(self, game: "LudemeGame", params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        size = len(observation_vector(game.ludeme_game.new_initial_state()))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: LudemeState, player: int) -> None:
        """Fill the tensor from the position as `player` (0-based) sees it."""
        self.tensor[:] = observation_vector(state.ludeme_state, player + 1)

    def string_from(self, state: LudemeState, player: int) -> str:
        """The position as text, as `player` (0-based) sees it."""
        return view_string(player_view(state.ludeme_state, player + 1))


class LudemeGame(pyspiel.Game):
    """A compiled ludeme game as a `pyspiel.Game`; `register` makes one subclass per game."""

    ludeme_game = None
    game_type = None
    game_info = None

    def __init__(self, params=None):
        super().__init__(self.game_type, self.game_info, params or {})
        # The game (and backend) registered when this object was made, kept by it: a new
        # registration of the name changes later games only.
        self.ludeme_game = type(self).ludeme_game
        # A game with chance is SAMPLED_STOCHASTIC: each new state draws the seed of its
        # chance stream from the game's own generator, seeded by the `rng_seed` parameter.
        seed = self.get_parameters().get("rng_seed", 0) if self.ludeme_game.uses_chance else 0
        self._seeds = random.Random(seed)

    def new_initial_state(self) -> LudemeState:
        """The start position (with a fresh chance stream in a game with chance)."""
        if not self.ludeme_game.uses_chance:
            return LudemeState(self)
        return LudemeState(self, self._seeds.getrandbits(63))

    def make_py_observer(self, iig_obs_type=None, params=None) -> BoardObserver:
        """The observer of the position as each player sees it."""
        return BoardObserver(self, params)


def short_name(game) -> str:
    """The name a game is registered under: `ludeme_<game>[_<ruleset> | _<options>]`."""
    from ludeme.analysis.playouts import slug
    parts = [game.name, *([game.ruleset.split("/", 1)[-1]] if game.ruleset else game.options)]
    return "ludeme_" + "_".join(slug(p).replace("-", "_") for p in parts if p)


def load_game(path: str | os.PathLike, options=(), ruleset: str | None = None, *,
              max_turns: int | None = None, max_moves: int | None = None,
              backend: str = "auto") -> "pyspiel.Game":
    """Compile a description (with options or a ruleset), register it with OpenSpiel, and
    return it as a `pyspiel.Game` (also loadable by `pyspiel.load_game(short_name)`).
    `backend`: "auto", "compiled" or "reference" (see the module's docstring)."""
    from ludeme.api import load
    game = load(Path(path), options, ruleset, max_turns=max_turns, max_moves=max_moves,
                backend=backend)
    return register(game)


def register(game) -> "pyspiel.Game":
    """Register a compiled ludeme game with OpenSpiel; the `pyspiel.Game`. Its states are
    those of the backend the game was loaded with (`ludeme.api.load`)."""
    from ludeme.analysis.playouts import compiled_of
    compiled_of(game)      # compile now (or say once why not), not in the first state
    name = short_name(game)
    n = game.num_players
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{game.name} (ludeme)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if game.uses_chance
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION if game.hidden_info
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rng_seed": 0} if game.uses_chance else {})
    info = pyspiel.GameInfo(
        num_distinct_actions=num_distinct_actions(game),
        max_chance_outcomes=0,
        num_players=n,
        min_utility=-1.0,
        max_utility=1.0,
        max_game_length=game.max_moves)
    cls = _REGISTERED.get(name)
    if cls is None:
        cls = _REGISTERED[name] = type(f"LudemeGame_{name}", (LudemeGame,), {})
        pyspiel.register_game(game_type, cls)
    # Registering again (the file may have changed) updates what the name plays.
    cls.ludeme_game, cls.game_type, cls.game_info = game, game_type, info
    return cls()
