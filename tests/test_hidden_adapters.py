"""Hidden information through the adapters: each player's observation (OpenSpiel's
observer, PettingZoo's observe) reads -1 wherever (set Hidden ...) hides a datum from that
player, and the real value where it does not."""

import numpy as np
import pytest

# P1's disc at 0 is invisible to P2; of P2's disc at 3, P1 does not see the kind (What).
HIDDEN_GAME = """(game "Hidden Corners" (players 2)
  (equipment { (board (square 2)) (piece "Disc" Each) })
  (rules (start { (place "Disc1" 0) (place "Disc2" 3)
                  (set Hidden at:0 to:P2) (set Hidden What at:3 to:P1) })
         (play (move Add (to (sites Empty))))
         (end (if (is Full) (result Mover Win)))))"""

# Per player (1-based): who, what and count of the four sites, then the two scores.
SEEN = {
    1: [1, 0, 0, 2] + [1, 0, 0, -1] + [1, 0, 0, 1] + [0, 0],
    2: [-1, 0, 0, 2] + [-1, 0, 0, 2] + [-1, 0, 0, 1] + [0, 0],
}


def _openspiel(path, player):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    import pyspiel
    from ludeme.interfaces.openspiel import load_game
    game = load_game(path)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    state = game.new_initial_state()
    assert "-1" in state.observation_string(player - 1)
    return state.observation_tensor(player - 1)


def _pettingzoo(path, player):
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed")
    from ludeme.interfaces.pettingzoo import env
    e = env(path)
    e.reset(seed=0)
    return e.observe(f"player_{player}")["observation"]


@pytest.mark.parametrize("adapter", [_openspiel, _pettingzoo])
@pytest.mark.parametrize("player", [1, 2])
def test_each_players_observation_hides_what_is_hidden_from_them(tmp_path, adapter, player):
    path = tmp_path / "hidden.lud"
    path.write_text(HIDDEN_GAME)
    assert np.asarray(adapter(path, player)).tolist() == SEEN[player]


def test_a_game_without_hidden_information_shows_every_player_the_whole_position(tmp_path):
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed")
    from ludeme.interfaces.pettingzoo import env
    path = tmp_path / "open.lud"
    path.write_text(HIDDEN_GAME.replace("(set Hidden at:0 to:P2) (set Hidden What at:3 to:P1)",
                                        ""))
    e = env(path)
    e.reset(seed=0)
    whole = [1, 0, 0, 2] * 2 + [1, 0, 0, 1] + [0, 0]
    assert [e.observe(a)["observation"].tolist() for a in e.possible_agents] == [whole] * 2
