"""Hidden information (ludeme.model.ludemes.hidden): (set Hidden ...) as a start rule and
an effect, (is Hidden ...), and the flags a moved piece takes along (Ludii's ActionMove)."""

from __future__ import annotations

import re

import pytest

from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description
from ludeme.model.build import build_game


def _state(start: str, play: str, stack: str = ""):
    text = ('(game "T" (players 2) (equipment { (board (square 3)) (piece "Disc" Each) }) '
            f'(rules (start {{ (place {stack}"Disc1" 0) {start} }}) (play {play}) '
            '(end (if (no Moves Next) (result Mover Win)))))')
    return build_game(expand(load_description("t.lud", text))).new_initial_state(0)


def _tos(state):
    return sorted(m.to for m in state.legal_moves())


@pytest.mark.parametrize("start, cond, hidden", [
    ("(set Hidden at:0 to:P1)", "(is Hidden at:0 to:Mover)", True),
    ("(set Hidden at:0 to:P2)", "(is Hidden at:0 to:Mover)", False),
    ("(set Hidden What at:0 to:P1)", "(is Hidden at:0 to:Mover)", False),   # only What
    ("(set Hidden What at:0 to:P1)", "(is Hidden What at:0 to:Mover)", True),
    ("(set Hidden {What Who} at:0 to:P1)", "(is Hidden Who at:0 to:P1)", True),
    ("(set Hidden (sites {0 1}) to:All)", "(is Hidden at:1 to:P2)", True),
    ("(set Hidden at:0 to:P1) (set Hidden at:0 False to:P1)", "(is Hidden at:0 to:P1)", False),
    ("", "(is Hidden at:0 to:P1)", False),
])
def test_set_hidden_at_the_start_and_is_hidden(start, cond, hidden):
    state = _state(start, f"(if {cond} (move Add (to 8)) (move Add (to 7)))")
    assert _tos(state) == ([8] if hidden else [7])


@pytest.mark.parametrize("start, region, expected", [
    ("(set Hidden (sites {0 3}) to:P1)", "(sites Hidden to:P1)", [0, 3]),
    ("(set Hidden (sites {0 3}) to:P1)", "(sites Hidden to:P2)", [-1]),     # none: a pass
    ("(set Hidden What (sites {0 3}) to:P1)", "(sites Hidden to:P1)", [-1]),
    ("(set Hidden What (sites {0 3}) to:P1)", "(sites Hidden What to:Mover)", [0, 3]),
])
def test_sites_hidden_lists_the_sites_hidden_from_the_player(start, region, expected):
    state = _state(start, f"(move Select (from {region}))")
    assert _tos(state) == expected


def test_a_moved_piece_takes_its_flags_along():
    # P1's disc, hidden from P2 at 0, moves to 1: P2 then finds 1 hidden and 0 not.
    play = ("(if (is Hidden at:1 to:P2) (if (is Hidden at:0 to:P2) (move Add (to 6)) "
            "(move Add (to 8))) (move (from 0) (to 1)))")
    state = _state("(set Hidden at:0 to:P2)", play)
    assert [(m.frm, m.to) for m in state.legal_moves()] == [(0, 1)]
    state.apply(state.legal_moves()[0])
    assert _tos(state) == [8]


def test_set_hidden_as_an_effect_hides_the_piece_just_placed():
    play = ("(if (is Hidden at:4 to:Mover) (move Add (to 8)) (move Add (to 4) (then "
            "(set Hidden at:(last To) to:Next))))")
    state = _state("", play)
    assert _tos(state) == [4]
    state.apply(state.legal_moves()[0])
    assert _tos(state) == [8]


@pytest.mark.parametrize("start, play, message", [
    ("(set Hidden at:0 level:1 to:P1)", "(move Add (to 8))", "'level' of (set Hidden"),
    ("", "(if (is Hidden at:0 level:0 to:P1) (move Add (to 8)))", "'level' of (is Hidden"),
    ("(set Hidden Vertex at:0 to:P1)", "(move Add (to 8))", "Hidden Vertex ...) on a board "
     "played on Cell sites is not supported yet"),
])
def test_levels_and_other_site_types_are_refused(start, play, message):
    with pytest.raises(LudemeError, match=re.escape(message)):
        _state(start, play)


def test_hidden_information_in_a_stacking_game_is_refused():
    with pytest.raises(LudemeError, match="stacking game"):
        _state("(set Hidden at:0 to:P1)", "(move Add (to 8) stack:True)", stack="Stack ")


def _vertex_state(start: str, play: str):
    # 9 vertices (0-8); the hands' sites are cells, after the board: P1's 9, P2's 10.
    text = ('(game "T" (players 2) (equipment { (board (square 3) use:Vertex) (hand Each) '
            '(piece "Disc" Each) }) (rules (start { (place "Disc1" (handSite P1)) '
            f'{start} }}) (play {play}) (end (if (no Moves Next) (result Mover Win)))))')
    return build_game(expand(load_description("t.lud", text))).new_initial_state(0)


@pytest.mark.parametrize("start, play, tos", [
    # Cell names the hands' sites on a board of vertices, as in Ludii
    ("(set Hidden Cell at:9 to:P1)",
     "(if (is Hidden Cell at:9 to:Mover) (move Add (to 8)) (move Add (to 7)))", [8]),
    ("(set Hidden Cell at:10 to:P1)",
     "(if (is Hidden Cell at:9 to:Mover) (move Add (to 8)) (move Add (to 7)))", [7]),
    ("(set Hidden Cell (sites Hand P1) to:P1)",
     "(if (is Hidden at:9 to:P1) (move Add (to 8)) (move Add (to 7)))", [8]),
    ("", "(move Remove Cell (sites Hand P1))", [9]),
])
def test_hidden_cells_of_the_hands_on_a_board_of_vertices(start, play, tos):
    assert _tos(_vertex_state(start, play)) == tos


@pytest.mark.parametrize("start, play, message", [
    ("(set Hidden Cell at:0 to:P1)", "(move Add (to 8))", "(set Hidden Cell ...) on the board"),
    ("", "(if (is Hidden Cell at:0 to:P1) (move Add (to 8)))", "(is Hidden Cell ...) on the board"),
    ("", "(move Remove Cell (sites {0 9}))", "(move Remove Cell ...) on the board"),
])
def test_cells_of_a_board_of_vertices_are_refused_where_reached(start, play, message):
    with pytest.raises(LudemeError, match=re.escape(message)):
        _tos(_vertex_state(start, play))
