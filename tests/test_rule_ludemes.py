"""Small rule ludemes that stopped corpus games with "not supported yet", each on a small
description of its own whose expected result follows from Ludii's source."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError

GAME = ('(game "g" (players 2) (equipment {{(board (square 3)) {items}}}) '
        '(rules (start {{{start}}}) (play {play}) (end (if (no Moves Next) (result Mover Win)))))')

# P1 holds sites 0 and 1, P2 site 2: six empty sites.
THREE = '(place "Disc1" {0 1}) (place "Disc2" 2)'


def _load(tmp_path, play='(move Add (to (sites Empty)))', items='(piece "Disc" Each)', start=""):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(items=items, start=start, play=play))
    return load(f)


def _holds(tmp_path, cond, start=THREE, items='(piece "Disc" Each)'):
    """Whether `cond` holds in the initial position: the mover may add a disc only if it
    does (without one, Ludii's player has one move, a pass)."""
    game = _load(tmp_path, items=items, start=start,
                 play=f'(if {cond} (move Add (to (sites Empty))))')
    return len(game.new_initial_state().legal_moves()) > 1


def _evaluates_to(tmp_path, expr, value, start=THREE):
    assert _holds(tmp_path, f"(= {value} {expr})", start)
    assert not _holds(tmp_path, f"(= {value + 7} {expr})", start)


# -- (count Pieces of:<player>) -------------------------------------------------------------

@pytest.mark.parametrize("expr,value", [
    ("(count Pieces of:1)", 2), ("(count Pieces of:2)", 1), ("(count Pieces of:(next))", 1),
    ("(count Pieces of:1 in:(sites {1 2 3}))", 1), ("(count Pieces of:(mover) \"Disc\")", 2),
    ("(count Pieces of:0)", 0), ("(count Pieces)", 3), ("(count Pieces P2)", 1)])
def test_count_pieces_of_a_player_given_as_a_number(tmp_path, expr, value):
    _evaluates_to(tmp_path, expr, value)


def test_count_pieces_takes_a_role_or_of_not_both(tmp_path):
    with pytest.raises(LudemeError, match="role or of:"):
        _holds(tmp_path, "(= 1 (count Pieces P1 of:1))")
