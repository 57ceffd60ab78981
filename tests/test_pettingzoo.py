"""The PettingZoo adapter passes PettingZoo's own api_test, with action masks."""

import numpy as np
import pytest

from conftest import DESCRIPTIONS, ludii_dir

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: "
                    "pip install 'ludeme[pettingzoo]'")
from pettingzoo.test import api_test  # noqa: E402

from ludeme.interfaces.pettingzoo import env  # noqa: E402

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_LUDII5 = "Adzua (Children) (Ludii 5) (Reconstructed)"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test_on_adzua():
    api_test(env(ADZUA, ruleset=ADZUA_LUDII5), num_cycles=300, verbose_progress=False)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test_on_tic_tac_toe():
    d = ludii_dir()
    if d is None:
        pytest.skip("Ludii's .lud files not found: put shared/ beside the checkout")
    api_test(env(d / "games" / "Tic-Tac-Toe.lud"), num_cycles=300, verbose_progress=False)


def test_a_masked_random_game_ends_with_rewards_that_sum_to_zero():
    e = env(ADZUA, ruleset=ADZUA_LUDII5)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() >= 1
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert sorted(totals.values()) == [-1.0, 1.0]


def test_an_illegal_action_is_refused():
    e = env(ADZUA)
    e.reset()
    with pytest.raises(ValueError, match="not legal"):
        e.step(0)
