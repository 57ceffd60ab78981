"""Chinese Checkers for the piecepack (descriptions/chinese_checkers_piecepack.lud)."""

from __future__ import annotations

import functools

import pytest

from conftest import DESCRIPTIONS
from ludeme.api import load
from ludeme.interfaces.positions import apply_named, move_names, parse_position, state_from_position

CC = DESCRIPTIONS / "chinese_checkers_piecepack.lud"
FOUR, TWO, STRIP = "Ruleset/Four players", "Ruleset/Two players", \
    "Ruleset/Two players (strip board)"


@functools.lru_cache(maxsize=None)
def _game(ruleset: str):
    return load(CC, (), ruleset)


def _state(ruleset: str, text: str):
    return state_from_position(_game(ruleset), parse_position(text))


_play = apply_named


def _occupied(state, player: int) -> set[str]:
    g = state.g
    return {g.board.sites[i].label for i in range(g.containers[0].num_sites)
            if state.who[i] == player}


@pytest.mark.parametrize("ruleset, corner, far", [
    (FOUR, {"A1", "B1", "C1", "A2", "B2", "A3"}, {"H8", "G8", "F8", "H7", "G7", "H6"}),
    (TWO, {"A1", "B1", "C1", "A2", "B2", "A3"}, {"H8", "G8", "F8", "H7", "G7", "H6"}),
    (STRIP, {"A1", "B1", "C1", "A2", "B2", "A3"}, {"J4", "I4", "H4", "J3", "I3", "J2"}),
])
def test_start_is_a_3_2_1_triangle_in_opposite_corners(ruleset, corner, far):
    state = _game(ruleset).new_initial_state(0)
    assert _occupied(state, 1) == corner
    assert _occupied(state, 2 if ruleset != FOUR else 3) == far


def test_four_players_sit_in_the_four_corners():
    state = _game(FOUR).new_initial_state(0)
    assert "A8" in _occupied(state, 2) and "H1" in _occupied(state, 4)


def test_steps_in_eight_directions_never_off_the_diagonal_band():
    state = _state(TWO, "mover: P1\nCoin1: D2\nCoin2: H8")
    assert sorted(move_names(state)) == sorted(
        ["D2-C1", "D2-D1", "D2-C2", "D2-C3", "D2-D3", "D2-E3"])   # E1 and E2 are off it


def test_jumps_chain_in_any_direction_and_may_stop():
    state = _state(FOUR, "mover: P1\nCoin1: A1\nCoin2: B2 C4\nCoin3: H8")
    _play(state, "A1-C3")                       # over P2's coin, diagonally
    assert state.mover == 1
    assert sorted(move_names(state)) == ["C3-C5", "pass"]   # never back to A1
    _play(state, "C3-C5")                       # then north
    assert state.mover == 2                     # nowhere new to go: the turn ends
    assert _occupied(state, 2) == {"B2", "C4"}  # jumped coins stay


def test_a_jump_over_ones_own_coin_and_stopping_after_it():
    state = _state(FOUR, "mover: P1\nCoin1: A1 A2 B4\nCoin2: H8\nCoin3: H1")
    _play(state, "A1-A3")
    assert state.mover == 1
    _play(state, "pass")
    assert state.mover == 2


def test_no_pass_at_the_start_of_a_turn():
    state = _game(TWO).new_initial_state(0)
    assert "pass" not in move_names(state)


@pytest.mark.parametrize("ruleset, ranking", [
    (TWO, [1.0, 2.0]),
    (FOUR, [1.0, 3.0, 3.0, 3.0]),
])
def test_filling_the_opposite_corner_wins(ruleset, ranking):
    others = "Coin2: A1" if ruleset == TWO else "Coin2: A8\nCoin3: A1\nCoin4: H1"
    state = _state(ruleset, f"mover: P1\nCoin1: H8 G8 F8 H7 G7 G6\n{others}")
    _play(state, "G6-H6")
    assert state.is_terminal() and state.winner == 1
    assert state.ranking[1:] == ranking


def test_coins_in_the_goal_are_not_enough_with_one_outside():
    state = _state(TWO, "mover: P1\nCoin1: H8 G8 F8 H7 G7 E5\nCoin2: A1")
    _play(state, "E5-E6")
    assert not state.is_terminal()


# The conformance check runs over every ruleset in tests/test_engine.py (all bundled
# descriptions); random play almost never finishes this game (see the README).
