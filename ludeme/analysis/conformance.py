"""One conformance check for every game (see STYLE.md): run it over every bundled description.

`check_conformance(game)` plays seeded random playouts and asserts what any correct
game must satisfy: playouts end (naturally or at Ludii's limits); a position
that is not over has legal moves (a forced pass at least); `clone` gives an
independent equal state; replaying the move list from the start gives the same
states; the same seed gives the same game.
"""

from __future__ import annotations

import random

from ludeme.engine.state import Game, State


def random_playout(game: Game, seed: int, max_decisions: int | None = None
                   ) -> tuple[State, list[int]]:
    """Play uniformly at random from the start; return the final state and the choices."""
    return seeded_playout(game, seed, None, max_decisions)


def seeded_playout(game: Game, seed: int, agents: list | None = None,
                   max_decisions: int | None = None) -> tuple[State, list[int]]:
    """Play from the start with one agent per seat (`ludeme.ai.agents`; None: uniform random)
    drawing from `random.Random(seed)`, as `ludeme.analysis.playouts.play_one` plays a row;
    return the final state and the choices."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    choices: list[int] = []
    while not state.is_terminal():
        if max_decisions is not None and len(choices) >= max_decisions:
            break
        legal = state.legal_moves()
        if agents is None:
            i = rng.randrange(len(legal))
        else:
            i = agents[state.current_player() - 1].choose(state, rng)
        choices.append(i)
        state.apply(legal[i])
    return state, choices


def replay(game: Game, choices: list[int], seed: int | None = None) -> State:
    """The state reached by applying these legal-move indices from the start (`seed`: the
    chance stream's, as in `random_playout`)."""
    state = game.new_initial_state(seed)
    for i in choices:
        state.apply(state.legal_moves()[i])
    return state


def check_conformance(game: Game, seeds=(1, 2, 3), max_decisions: int | None = None) -> None:
    """Raise AssertionError with a reason if the game breaks a conformance rule."""
    for seed in seeds:
        end, choices = random_playout(game, seed, max_decisions)
        limit_hit = max_decisions is not None and len(choices) >= max_decisions
        assert end.is_terminal() or limit_hit, f"seed {seed}: playout did not end"
        if end.is_terminal():
            assert end.end_type in ("NaturalEnd", "TurnLimit", "MoveLimit"), end.end_type
            assert end.legal_moves() == [], "a finished game has no legal moves"
            if end.winner:
                assert end.ranking[end.winner] == 1.0
        again, choices2 = random_playout(game, seed, max_decisions)
        assert choices == choices2 and again.key() == end.key(), \
            f"seed {seed}: the same seed gave a different game"
        assert replay(game, choices, seed).key() == end.key(), \
            f"seed {seed}: replaying the move list gave a different state"
        # Walk again, checking legal moves and clones along the way.
        state = game.new_initial_state(seed)
        for step, i in enumerate(choices):
            legal = state.legal_moves()
            assert legal, f"seed {seed} step {step}: no legal move in a live position"
            before = state.key()
            twin = state.clone()
            assert twin.key() == before, f"seed {seed} step {step}: clone differs"
            state.apply(legal[i])
            assert twin.key() == before, \
                f"seed {seed} step {step}: applying a move changed a clone"
            twin.apply(twin.legal_moves()[i])
            assert twin.key() == state.key(), \
                f"seed {seed} step {step}: a clone played the same move differently"
