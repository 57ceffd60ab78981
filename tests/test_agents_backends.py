"""Agents, adapters and `run --agents` on the compiled backend give the reference engine's answers.

The compiled states (`ludeme.engine.compiled.CompiledState`) list the legal moves in the
reference engine's order, so the same seeded choices play the same game: these
tests walk both backends side by side and compare every position, every row of
agent playouts, and what OpenSpiel and PettingZoo see.
"""

import functools
import random

import numpy as np
import pandas as pd
import pytest

import conftest
from conftest import DESCRIPTIONS, NO_COMPILED_FORM, ludii_dir
from ludeme.engine import compiled
from ludeme.ai.agents import GreedyAgent, RandomAgent, UCTAgent, play_match
from ludeme.cli.main import main
from ludeme.engine.compiled import CompiledState, Unsupported
from ludeme.engine.compiled.codegen import generate
from ludeme.analysis.playouts import compiled_of, load, new_state, ruleset_names, run_playouts

NOT_COMPILED = NO_COMPILED_FORM


# A few of them for the default suite (each compiles its kernels); all of them when slow.
QUICK = {None, "Ruleset/Adzua (Children) (Ludii 5) (Reconstructed)"}


@functools.lru_cache(maxsize=None)
def bundled(slow: bool):
    """(file, ruleset) of the bundled configurations the compiled backend supports: every
    one when slow, else those of QUICK (only these are generated at collection). The slow
    list is not worked out in a run that deselects the slow tests."""
    out = []
    if slow and conftest.SLOW_DESELECTED:
        return out
    for path in sorted(DESCRIPTIONS.glob("*.lud")):
        for ruleset in ruleset_names(path):
            if not slow and ruleset not in QUICK:
                continue
            try:
                generate(load(path, ruleset=ruleset))
            except Unsupported:
                continue
            out.append((path, ruleset))
    return out


def _ids(x):
    return x.name if hasattr(x, "name") else (x or "").split("/", 1)[-1] or "default"


def ludii_game(file: str, ruleset: str | None = None):
    d = ludii_dir()
    if d is None:
        pytest.skip("Ludii's .lud files not found: put shared/ beside the checkout")
    return load(d / "games" / file, ruleset=ruleset)


def position(state) -> tuple:
    """What both backends' states tell of a position, in one form."""
    view = state.board_view()
    return (list(view["who"]), list(view["what"]), list(view["count"]),
            [list(h) for h in view["hands"]], list(view["scores"]), state.current_player(),
            state.is_terminal(), state.returns(), list(state.ranking)[1:], state.num_turn,
            state.num_decisions, state.end_type, int(state.winner or 0))


def walk_both(game, seed: int, limit: int = 400) -> int:
    """A random game played on both backends at once, compared move by move; its length."""
    rng = random.Random(seed)
    ref, fast = game.new_initial_state(seed), compiled_of(game, "compiled").new_initial_state()
    assert isinstance(fast, CompiledState)
    for step in range(limit):
        assert position(ref) == position(fast), step
        if ref.is_terminal():
            return step
        a, b = ref.legal_moves(), fast.legal_moves()
        assert [(m.frm, m.to, m.is_pass) for m in a] == [(m.frm, m.to, m.is_pass) for m in b]
        k = rng.randrange(len(a))
        twin = fast.clone()                 # a clone plays on alone
        ref.apply(a[k])
        fast.apply(b[k])
        assert position(twin) != position(fast) or a[k].is_pass
    return limit


# ---------------------------------------------------------------- states, move by move

@pytest.mark.parametrize("path,ruleset", bundled(slow=False), ids=_ids)
def test_compiled_states_walk_with_the_reference_engine(path, ruleset):
    game = load(path, ruleset=ruleset)
    for seed in range(3):
        walk_both(game, seed, limit=150)


@pytest.mark.slow
@pytest.mark.parametrize("path,ruleset", bundled(slow=True), ids=_ids)
def test_compiled_states_walk_with_the_reference_engine_many_seeds(path, ruleset):
    game = load(path, ruleset=ruleset)
    for seed in range(3, 40):
        walk_both(game, seed, limit=10_000)


@pytest.mark.parametrize("file,ruleset", [("Tic-Tac-Toe.lud", None), ("Breakthrough.lud", None),
                                          ("Konane.lud", "8x8 Konane (Suggested)")])
def test_compiled_states_walk_on_ludiis_files(file, ruleset):
    game = ludii_game(file, ruleset)
    for seed in range(4):
        walk_both(game, seed, limit=10_000)


def test_a_rollout_in_the_kernels_draws_as_the_python_loop():
    game = load(DESCRIPTIONS / "adzua_children.lud",
                ruleset="Adzua (Children) (Ludii 5) (Reconstructed)")
    for seed, limit in ((1, 0), (2, 5), (3, 200), (4, 10_000)):
        slow_rng, fast_rng = random.Random(seed), random.Random(seed)
        slow, fast = game.new_initial_state(), compiled_of(game, "compiled").new_initial_state()
        for _ in range(limit):
            legal = slow.legal_moves()
            slow.apply(legal[slow_rng.randrange(len(legal))])
            if slow.is_terminal():
                break
        fast.random_rollout(fast_rng, limit)
        assert position(slow) == position(fast)
        assert slow_rng.getstate() == fast_rng.getstate()


# ---------------------------------------------------------------- agents and rows

AGENT_SETS = [
    lambda: [RandomAgent(), GreedyAgent()],
    lambda: [UCTAgent(iterations=12, rollout=30), RandomAgent()],
    lambda: [GreedyAgent(), UCTAgent(iterations=8, c=0.7, rollout=10)],
]


def same_rows(game, agents, n, seed, rotate=True):
    rows = {b: run_playouts(game, n, seed, jobs=1, agents=agents, rotate=rotate, progress=False,
                            backend=b) for b in ("reference", "compiled")}
    assert rows["reference"].attrs["backend"] == "reference"
    assert rows["compiled"].attrs["backend"] == "compiled"
    pd.testing.assert_frame_equal(rows["reference"].drop(columns="seconds"),
                                  rows["compiled"].drop(columns="seconds"))


@pytest.mark.parametrize("path,ruleset", bundled(slow=False), ids=_ids)
def test_agents_give_the_same_rows_on_both_backends(path, ruleset):
    game = load(path, ruleset=ruleset, max_turns=15)
    same_rows(game, AGENT_SETS[1](), 2, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("path,ruleset", bundled(slow=True), ids=_ids)
def test_agents_give_the_same_rows_on_both_backends_many_seeds(path, ruleset):
    game = load(path, ruleset=ruleset, max_turns=100)
    for k, make in enumerate(AGENT_SETS):
        for seed in (10 + k, 2**40 + k):
            same_rows(game, make(), 6, seed)


@pytest.mark.parametrize("file,ruleset", [("Tic-Tac-Toe.lud", None), ("Breakthrough.lud", None)])
def test_agents_give_the_same_rows_on_ludiis_files(file, ruleset):
    game = ludii_game(file, ruleset)
    for k, make in enumerate(AGENT_SETS):
        same_rows(game, make(), 3, seed=20 + k)


def test_play_match_plays_the_same_moves_on_both_backends():
    game = ludii_game("Breakthrough.lud")
    agents = [UCTAgent(iterations=40, rollout=50), GreedyAgent()]
    for seed in (1,):       # a whole match of a few hundred searched moves
        ref = play_match(game, agents, seed, backend="reference")
        fast = play_match(game, agents, seed, backend="compiled")
        assert isinstance(fast, CompiledState)
        assert position(ref) == position(fast)


def test_run_with_agents_uses_the_compiled_backend(tmp_path, capsys, auto_takes_kernels):
    game = ludii_game("Tic-Tac-Toe.lud")
    df = run_playouts(game, 3, 1, jobs=1, agents=[UCTAgent(iterations=5), RandomAgent()],
                      progress=False)
    assert df.attrs["backend"] == "compiled"
    assert main(["run", str(ludii_dir() / "games" / "Tic-Tac-Toe.lud"), "-n", "4", "--jobs", "1",
                 "--agents", "greedy,uct:iterations=5", "--backend", "compiled", "--out",
                 str(tmp_path), "--no-progress"]) == 0
    assert "compiled backend" in capsys.readouterr().out


def test_agents_on_a_game_without_a_compiled_form_fall_back_and_say_so_once(capsys,
                                                                          auto_takes_kernels):
    compiled._REPORTED.clear()
    game = load(NOT_COMPILED)
    agents = [RandomAgent()] * game.num_players
    for _ in range(2):
        df = run_playouts(game, 1, 0, jobs=1, agents=agents, progress=False)
        assert df.attrs["backend"] == "reference"
    assert capsys.readouterr().err.count("no compiled form") == 1
    with pytest.raises(compiled.Unsupported):
        run_playouts(game, 1, 0, jobs=1, agents=agents, progress=False, backend="compiled")
    assert not isinstance(new_state(game), CompiledState)


# ---------------------------------------------------------------- adapters

def test_openspiel_sees_the_same_game_on_both_backends():
    pytest.importorskip("pyspiel")
    from ludeme.interfaces.openspiel import load_game
    path = DESCRIPTIONS / "adzua_children.lud"
    rs = "Adzua (Children) (Ludii 5) (Reconstructed)"
    ref = load_game(path, ruleset=rs, backend="reference")
    fast = load_game(path, ruleset=rs, backend="compiled")
    # Both register under one name: each game object keeps its own states' backend.
    for seed in range(3):
        rng = random.Random(seed)
        a = ref.new_initial_state()
        b = fast.new_initial_state()
        assert not isinstance(a.ludeme_state, CompiledState)
        assert isinstance(b.ludeme_state, CompiledState)
        while True:
            assert a.current_player() == b.current_player()
            assert a.is_terminal() == b.is_terminal()
            assert a.returns() == b.returns()
            assert str(a) == str(b)
            if a.is_terminal():
                break
            assert a.observation_tensor(a.current_player()) == \
                b.observation_tensor(b.current_player())
            legal = a.legal_actions()
            assert legal == b.legal_actions()
            action = legal[rng.randrange(len(legal))]
            assert a.action_to_string(a.current_player(), action) == \
                b.action_to_string(b.current_player(), action)
            a.apply_action(action)
            b.apply_action(action)


def test_pettingzoo_sees_the_same_game_on_both_backends():
    pytest.importorskip("pettingzoo")
    from ludeme.interfaces.pettingzoo import env
    path = DESCRIPTIONS / "adzua_children.lud"
    rs = "Adzua (Children) (Ludii 1) (Reconstructed)"
    envs = [env(path, ruleset=rs, backend=b) for b in ("reference", "compiled")]
    for seed in range(3):
        for e in envs:
            e.reset(seed=seed)
        assert isinstance(envs[1].state, CompiledState)
        rng = random.Random(seed)
        for agent in envs[0].agent_iter():
            assert agent == envs[1].agent_selection
            got = [e.last() for e in envs]
            (obs0, r0, t0, u0, _), (obs1, r1, t1, u1, _) = got
            assert np.array_equal(obs0["observation"], obs1["observation"])
            assert np.array_equal(obs0["action_mask"], obs1["action_mask"])
            assert (r0, t0, u0) == (r1, t1, u1)
            if t0 or u0:
                action = None
            else:
                legal = np.flatnonzero(obs0["action_mask"]).tolist()
                action = legal[rng.randrange(len(legal))]
            for e in envs:
                e.step(action)
        assert envs[1].agents == []
