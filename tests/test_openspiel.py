"""The OpenSpiel adapter: OpenSpiel's own algorithms run on a ludeme description unchanged."""

import numpy as np
import pytest

from conftest import DESCRIPTIONS

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: "
                              "pip install 'ludeme[openspiel]'")
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from ludeme.interfaces.action_ids import MAX_SAME_SITES, action_ids  # noqa: E402
from ludeme.api import load  # noqa: E402
from ludeme.engine.state import Move  # noqa: E402
from ludeme.errors import LudemeError  # noqa: E402
from ludeme.interfaces.openspiel import load_game  # noqa: E402

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_LUDII5 = "Adzua (Children) (Ludii 5) (Reconstructed)"


@pytest.fixture(scope="module")
def game():
    return load_game(ADZUA, ruleset=ADZUA_LUDII5)


def test_the_game_is_registered_and_loads_by_name(game):
    name = game.get_type().short_name
    assert name.startswith("ludeme_adzua_children_")
    again = pyspiel.load_game(name)
    assert again.num_players() == 2
    assert again.num_distinct_actions() == game.num_distinct_actions()
    state = again.new_initial_state()
    assert state.current_player() == 0 and len(state.legal_actions()) == 9
    assert state.action_to_string(state.legal_actions()[0]) == "Hand1-A1"


def test_openspiels_random_simulation_test(game):
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_states_clone_and_replay_like_the_engine(game):
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        twin = state.clone()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        assert twin.history() == state.history()[:-1]
        twin.apply_action(action)
        assert str(twin) == str(state)
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert len(state.observation_tensor(0)) == len(game.new_initial_state().observation_tensor(0))


def test_openspiels_mcts_beats_random_through_evaluate_bots(game):
    rng = np.random.RandomState(7)
    points = 0.0
    for i in range(2):
        bot = mcts.MCTSBot(game, 1.4, 25, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        seat = i % 2
        bots = [bot, uniform_random.UniformRandomBot(1, rng)] if seat == 0 else \
            [uniform_random.UniformRandomBot(0, rng), bot]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert sorted(returns) == [-1.0, 1.0]
        points += (returns[seat] + 1) / 2
    assert points >= 1.0       # a search of 25 simulations rarely loses two of two to random


def test_action_ids_number_moves_sharing_sites_and_refuse_too_many():
    g = load(ADZUA)
    width = g.total_sites + 1
    moves = [Move(3, 5, 1, []), Move(3, 5, 1, []), Move(-1, -1, 1, [])]
    assert action_ids(g, moves) == [4 * width + 6, width * width + 4 * width + 6, 0]
    with pytest.raises(LudemeError, match="more than"):
        action_ids(g, [Move(3, 5, 1, [])] * (MAX_SAME_SITES + 1))
