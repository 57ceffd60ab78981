"""Agents: specs, reproducibility, strength (UCT clearly beats random), and `ludeme run --agents`."""

import random

import pandas as pd
import pytest

from conftest import DESCRIPTIONS, ludii_dir
from fake_game import FakeGame
from ludeme.ai.agents import GreedyAgent, RandomAgent, UCTAgent, agent_from_spec, agents_from_specs, play_match
from ludeme.api import load
from ludeme.cli.main import main
from ludeme.errors import LudemeError
from ludeme.analysis.metrics import summarize
from ludeme.analysis.playouts import play_one, run_playouts
from ludeme.analysis.conformance import random_playout

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_LUDII5 = "Adzua (Children) (Ludii 5) (Reconstructed)"


def tic_tac_toe():
    d = ludii_dir()
    if d is None or not (d / "games" / "Tic-Tac-Toe.lud").exists():
        pytest.skip("Ludii's Tic-Tac-Toe.lud not found: put shared/ beside the checkout")
    return load(d / "games" / "Tic-Tac-Toe.lud")


@pytest.mark.parametrize("spec, name", [
    ("random", "random"),
    ("greedy", "greedy"),
    ("uct", "uct:iterations=1000,c=1.41421,rollout=200"),
    ("UCT:iterations=50, c=0.5", "uct:iterations=50,c=0.5,rollout=200"),
    ("uct:seconds=0.25,rollout=10", "uct:seconds=0.25,c=1.41421,rollout=10"),
])
def test_specs_name_every_parameter(spec, name):
    assert agent_from_spec(spec).name == name


@pytest.mark.parametrize("spec, message", [
    ("alphabeta", "unknown agent"),
    ("uct:depth=3", "bad parameter"),
    ("random:iterations=3", "bad parameter"),
    ("uct:iterations=many", "must be a number"),
    ("uct:iterations=0", "must be positive"),
    ("uct:c", "bad parameter"),
    ("uct:c=nan", "c must be finite"),
    ("uct:seconds=nan", "must be positive and finite"),
    ("uct:seconds=inf", "must be positive and finite"),
    ("uct:nodes=0", "nodes >= 1"),
])
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(LudemeError, match=message):
        agent_from_spec(spec)


def test_a_comma_list_gives_one_agent_per_seat():
    a, b = agents_from_specs("uct:iterations=20,c=1,random", 2)
    assert a.name == "uct:iterations=20,c=1,rollout=200" and b.name == "random"
    with pytest.raises(LudemeError, match="one per player"):
        agents_from_specs("uct,random,random", 2)


def test_random_agents_make_the_conformance_playouts_choices():
    game = load(ADZUA)
    for seed in range(5):
        expected, _ = random_playout(game, seed)
        got = play_match(game, [RandomAgent(), RandomAgent()], seed, backend="reference")
        assert got.key() == expected.key()


def test_the_same_seed_gives_the_same_game_with_search_agents():
    game = load(ADZUA, ruleset=ADZUA_LUDII5)
    agents = [UCTAgent(iterations=30), GreedyAgent()]
    a, b = play_match(game, agents, 11), play_match(game, agents, 11)
    assert a.key() == b.key()


def test_uct_and_greedy_take_a_win_in_one():
    game = tic_tac_toe()
    state = game.new_initial_state()
    # Player 1 holds two of the bottom row (sites 0 and 1); player 2 elsewhere; P1 to move.
    for site in (0, 4, 1, 8):
        state.apply(next(m for m in state.legal_moves() if m.to == site))
    for agent in (GreedyAgent(), UCTAgent(iterations=200)):
        move = state.legal_moves()[agent.choose(state, random.Random(1))]
        assert move.to == 2, agent.name


def strength(game, strong, weak, games: int, seed: int = 0) -> float:
    """The strong agent's mean points (win 1, draw 1/2) over games with seats alternating."""
    points = 0.0
    for i in range(games):
        seat = 1 + i % 2
        agents = [strong, weak] if seat == 1 else [weak, strong]
        final = play_match(game, agents, seed + i)
        points += (final.returns()[seat] + 1) / 2
    return points / games


def test_uct_beats_random_on_tic_tac_toe():
    assert strength(tic_tac_toe(), UCTAgent(iterations=100), RandomAgent(), 20) >= 0.85


def test_uct_beats_random_on_adzua_ludii_5():
    game = load(ADZUA, ruleset=ADZUA_LUDII5)
    assert strength(game, UCTAgent(iterations=40), RandomAgent(), 10) >= 0.8


@pytest.mark.slow
@pytest.mark.parametrize("which", ["tic-tac-toe", "adzua"])
def test_uct_beats_random_over_many_games(which):
    game = tic_tac_toe() if which == "tic-tac-toe" else load(ADZUA, ruleset=ADZUA_LUDII5)
    score = strength(game, UCTAgent(iterations=300), RandomAgent(), 200)
    print(f"{which}: UCT(300) scores {score:.3f} against random over 200 games")
    assert score >= 0.9


def test_rows_say_which_agent_held_each_seat():
    game = FakeGame(sites=4)
    uct = UCTAgent(iterations=10)
    row = play_one(game, 5, 0, [uct, RandomAgent()])
    assert row["agent_p1"] == uct.name and row["agent_p2"] == "random"
    assert play_one(game, 5, 0)["agent_p1"] == "random"
    # All-random agents make the rows of a run without agents.
    plain, agents = play_one(game, 5, 3), play_one(game, 5, 3, [RandomAgent(), RandomAgent()])
    assert {k: v for k, v in plain.items() if k != "seconds"} == \
        {k: v for k, v in agents.items() if k != "seconds"}


def test_rotated_seats_and_the_agent_figures_of_the_summary():
    game = load(ADZUA, ruleset=ADZUA_LUDII5)
    agents = [UCTAgent(iterations=20), RandomAgent()]
    one = run_playouts(game, 8, seed=2, jobs=1, agents=agents, rotate=True)
    two = run_playouts(game, 8, seed=2, jobs=2, agents=agents, rotate=True)
    pd.testing.assert_frame_equal(one.drop(columns="seconds"), two.drop(columns="seconds"))
    assert list(one["agent_p1"]) == [agents[0].name, "random"] * 4
    s = summarize(one).iloc[0]
    assert s["agents"] == f"random vs {agents[0].name}"
    assert (s["agent1"], s["agent2"]) == ("random", agents[0].name)
    assert s["AgentScore2"] == pytest.approx(1 - s["AgentScore1"])     # no draws in Adzua
    assert s["AgentScore2"] >= 0.75


def test_cli_run_with_agents(tmp_path, capsys):
    out = tmp_path / "r"
    code = main(["run", str(ADZUA), "--ruleset", ADZUA_LUDII5, "-n", "4", "-j", "1",
                 "--agents", "uct:iterations=10,greedy", "--out", str(out), "--no-progress"])
    assert code == 0
    df = pd.read_parquet(out / "playouts.parquet")
    assert set(df["agent_p1"]) == {"uct:iterations=10,c=1.41421,rollout=200"}
    assert set(df["agent_p2"]) == {"greedy"}
    assert "greedy scores" in capsys.readouterr().out
    assert "AgentScore1" in (out / "summary.md").read_text()


@pytest.mark.parametrize("agents, message", [
    ("uct", "one per player"), ("random,minimax", "unknown agent")])
def test_cli_refuses_bad_agents(agents, message, tmp_path, capsys):
    code = main(["run", str(ADZUA), "-n", "2", "--agents", agents, "--out", str(tmp_path)])
    assert code == 2 and message in capsys.readouterr().err


def test_search_agents_are_refused_on_a_game_with_chance():
    game = FakeGame(sites=4)
    game.uses_chance = True
    with pytest.raises(LudemeError, match="chance"):
        run_playouts(game, 2, seed=1, jobs=1, agents=[UCTAgent(iterations=5), RandomAgent()])
    with pytest.raises(LudemeError, match="chance"):
        play_match(game, [RandomAgent(), GreedyAgent()], 1)
    assert play_match(game, [RandomAgent(), RandomAgent()], 1).is_terminal()


def test_uct_plays_for_its_own_return_among_three_players():
    game = FakeGame(sites=5, players=3)
    points = {}
    for first in ("uct", "random"):
        agents = [UCTAgent(iterations=40) if first == "uct" else RandomAgent(),
                  RandomAgent(), RandomAgent()]
        points[first] = sum((play_match(game, agents, s).returns()[1] + 1) / 2
                            for s in range(16)) / 16
    assert points["uct"] >= points["random"] + 0.15


def test_a_time_budget_searches_at_least_once():
    game = load(ADZUA, ruleset=ADZUA_LUDII5)
    state = game.new_initial_state(1)
    agent = UCTAgent(seconds=0.01)
    assert 0 <= agent.choose(state, random.Random(1)) < len(state.legal_moves())
    assert agent.search(state, random.Random(1)).visits >= 1


def test_the_search_tree_stops_at_its_node_budget_and_says_so(capsys):
    """Memory is bounded: a search of a day stops when its tree holds `nodes` nodes."""
    game = load(ADZUA, ruleset=ADZUA_LUDII5)
    state = game.new_initial_state(1)
    agent = agent_from_spec("uct:seconds=86400,nodes=50")
    root = agent.search(state, random.Random(1))

    def size(node):
        return 1 + sum(size(child) for _, child in node.children)
    assert size(root) == 50
    assert "reached its budget of 50 nodes" in capsys.readouterr().err
    agent.search(state, random.Random(2))
    assert capsys.readouterr().err == ""          # said once per agent
