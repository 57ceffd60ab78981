"""Afterleap (descriptions/afterleap.lud): the seed text's example and every rule it states."""

from __future__ import annotations

import functools

import pytest

from conftest import DESCRIPTIONS
from ludeme.api import load
from ludeme.language.expand import load_description
from ludeme.interfaces.positions import apply_named, move_names, parse_position, state_from_position
from ludeme.analysis.conformance import check_conformance

AFTERLEAP = DESCRIPTIONS / "afterleap.lud"
RULESETS = [r.name for r in load_description(str(AFTERLEAP)).rulesets]
FOUR, THREE, TWO = "Ruleset/Four players", "Ruleset/Three players", "Ruleset/Two players"


@functools.lru_cache(maxsize=None)
def _game(ruleset: str):
    return load(AFTERLEAP, (), ruleset)


def _state(ruleset: str, text: str):
    return state_from_position(_game(ruleset), parse_position(text))


_play = apply_named


def _at(state, label: str) -> int:
    """The player whose piece stands on a square (0: empty)."""
    return state.who[state.g.board.index_of(label)]


# The seed's example: black stones P1, white stones P2, black pawns P3, white pawns P4.
EXAMPLE = (DESCRIPTIONS / "positions" / "afterleap_example.txt").read_text()


def test_example_position_gives_exactly_the_moves_the_text_describes():
    state = _state(FOUR, EXAMPLE)
    assert sorted(move_names(state)) == sorted(["E5-E4", "E5-F6", "F5-F4", "B6-A6", "B6-D6"])


def test_example_e5_takes_f6_diagonally_into_the_corner():
    state = _state(FOUR, EXAMPLE)
    _play(state, "E5-F6")
    assert _at(state, "F6") == 1 and _at(state, "E5") == 0
    assert state.scores[1] == 1


def test_example_f5_cannot_capture_but_may_step_to_f4():
    state = _state(FOUR, EXAMPLE)
    assert [n for n in move_names(state) if n.startswith("F5")] == ["F5-F4"]


def test_example_b6_hops_c6_landing_on_d6():
    state = _state(FOUR, EXAMPLE)
    _play(state, "B6-D6")
    assert _at(state, "C6") == 0 and _at(state, "D6") == 1
    assert state.scores[1] == 1
    # E6 beyond is an opponent but F6 is occupied: no further hop, so the turn is over.
    assert state.mover == 2


def test_placement_never_next_to_the_same_colour():
    state = _state(FOUR, "mover: P1\nphase: Placement\nStone1: C3 Hand1*5\nStone2: D3 Hand2*5\n"
                         "Stone3: Hand3*6\nStone4: Hand4*6")
    targets = {n.split("-")[1] for n in move_names(state)}
    assert not targets & {"B3", "C2", "C4", "C3", "D3"}
    assert len(targets) == 36 - 2 - 3       # D3 is next to C3 but holds a piece already
    assert {"D4", "D2", "E3"} <= targets    # next to another colour is fine


def test_hops_go_straight_on_and_each_further_hop_is_optional():
    # P1 at A1 hops B1 to C1; D1 then lies ahead (E1 empty), C2 lies to the side.
    state = _state(FOUR, "mover: P1\nphase: Movement\nStone1: A1 F6\nStone2: B1 D1 C2\n"
                         "Stone3: A6\nStone4: F3")
    _play(state, "A1-C1")
    assert state.mover == 1 and state.scores[1] == 1
    assert sorted(move_names(state)) == ["C1-E1", "pass"]   # never C1-C3 over C2
    _play(state, "C1-E1")
    assert state.scores[1] == 2 and _at(state, "D1") == 0 and _at(state, "C2") == 2
    assert state.mover == 2


def test_stopping_after_a_hop_ends_the_turn():
    state = _state(FOUR, "mover: P1\nphase: Movement\nStone1: A1 F6\nStone2: B1 D1\n"
                         "Stone3: A6\nStone4: F3")
    _play(state, "A1-C1")
    _play(state, "pass")
    assert state.mover == 2 and _at(state, "D1") == 2


def test_never_hop_over_ones_own_colour():
    state = _state(FOUR, "mover: P1\nphase: Movement\nStone1: A1 B1\nStone2: F6\n"
                         "Stone3: A6\nStone4: F3")
    assert "A1-C1" not in move_names(state)


def test_two_players_hop_over_their_other_colour_without_capture():
    # P1 and P3 are one player's two colours.
    state = _state(TWO, "mover: P1\nphase: Movement\nStone1: A1\nStone3: B1\nStone2: F6\n"
                        "Stone4: F1")
    _play(state, "A1-C1")
    assert _at(state, "B1") == 3 and state.scores[1] == 0


def test_two_players_capture_the_other_teams_colours():
    state = _state(TWO, "mover: P1\nphase: Movement\nStone1: A1\nStone3: E6\nStone2: F6\n"
                        "Stone4: B1")
    _play(state, "A1-C1")
    assert _at(state, "B1") == 0 and state.scores[1] == 1


def test_corner_capture_only_of_an_opponent_and_only_into_a_corner():
    state = _state(TWO, "mover: P1\nphase: Movement\nStone1: E5 B5\nStone3: F6\n"
                        "Stone2: A6\nStone4: C6")
    names = move_names(state)
    assert "E5-F6" not in names          # the partner colour's corner
    assert "B5-A6" in names              # an opponent's corner
    assert "B5-C6" not in names          # not a corner


def test_four_in_a_line_wins_and_the_others_lose_together():
    state = _state(FOUR, "mover: P1\nphase: Movement\nStone1: A1 A2 A3 B4\nStone2: F6\n"
                         "Stone3: F1\nStone4: D6")
    _play(state, "B4-A4")
    assert state.is_terminal() and state.winner == 1
    assert state.ranking[1:] == [1.0, 3.0, 3.0, 3.0]


def test_two_players_eight_captures_together_win_for_the_team():
    state = _state(TWO, "mover: P3\nphase: Movement\nscore: P1=5 P3=2\nStone1: A6\n"
                        "Stone3: A1\nStone2: B1 E5\nStone4: F6")
    _play(state, "A1-C1")
    assert state.is_terminal()
    assert state.ranking[1:] == [1.0, 3.0, 1.0, 3.0]


def test_final_moves_then_a_draw():
    # Every colour but P2 has 3 pieces; P1 takes one of P2's 4: each colour then has
    # one final turn (P2, P3, P4, then P1), and nobody can reach 4 captures.
    state = _state(FOUR, "mover: P1\nphase: Movement\nStone1: A1 A3 A5\n"
                         "Stone2: B1 C3 C5 E3\nStone3: F1 F3 F5\nStone4: D6 F6 B6")
    _play(state, "A1-C1")
    assert state.var == 1                    # the turn that started the final moves
    for colour in (2, 3, 4, 1):
        assert not state.is_terminal() and state.mover == colour
        _play(state, move_names(state)[0])
        if not state.is_terminal() and state.mover == colour:   # a hop may go on: stop it
            _play(state, "pass")
    assert state.is_terminal() and state.winner == 0
    assert len(set(state.ranking[1:])) == 1


def test_the_first_colour_is_drawn_from_the_chance_stream():
    game = _game(FOUR)
    assert game.uses_chance
    firsts = {game.new_initial_state(seed).mover for seed in range(40)}
    assert firsts == {1, 2, 3, 4}
    a, b = game.new_initial_state(7), game.new_initial_state(7)
    assert a.mover == b.mover and a.draws == b.draws == [a.mover]


def test_playout_rows_record_the_draw():
    from ludeme.analysis.playouts import play_one
    row = play_one(_game(THREE), 5)
    assert row["chance"] == str(_game(THREE).new_initial_state(5).mover)


def test_resignation_leaves_the_pieces_and_passes_the_turn():
    state = _state(FOUR, EXAMPLE)
    state.resign(1)
    assert not state.active[1] and state.mover == 2 and not state.is_terminal()
    assert _at(state, "B6") == 1
    assert state.ranking[1] == 4.0


def test_two_players_resigning_gives_the_other_team_the_win():
    state = _state(TWO, "mover: P2\nphase: Movement\nStone1: A1\nStone3: B3\nStone2: F6\n"
                        "Stone4: F1")
    state.resign(2)
    assert state.is_terminal()
    assert state.ranking[1] == state.ranking[3] == 1.0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_conformance(ruleset):
    check_conformance(_game(ruleset), seeds=(1, 2))


def test_bad_position_files_are_positioned_errors():
    from ludeme.errors import LudemeError
    with pytest.raises(LudemeError, match="<position>:2:1: no site called 'Z9'"):
        _state(FOUR, "mover: P1\nStone1: Z9")
    with pytest.raises(LudemeError, match="no piece called 'Pawn1'"):
        _state(FOUR, "Pawn1: A1")
    with pytest.raises(LudemeError, match="no phase called 'Moving'"):
        _state(FOUR, "phase: Moving")
    with pytest.raises(LudemeError, match="expected 'key: value'"):
        _state(FOUR, "mover P1")


def test_cli_moves_prints_the_legal_moves_of_a_position_file():
    import re
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "ludeme", "moves", str(AFTERLEAP),
                        str(DESCRIPTIONS / "positions" / "afterleap_example.txt")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "player 1 to move (Movement)" in r.stdout
    listed = re.findall(r"^ +\d+\. (\S+)$", r.stdout, re.M)
    assert listed == ["E5-E4", "E5-F6", "F5-F4", "B6-A6", "B6-D6"]
