"""Ludemes that were the first blockers of corpus games (issue #15), each on a small
description of its own, then the corpus games they unlocked replayed against Ludii's traces."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError

from conftest import assert_corpus_trace_agrees

GAME = ('(game "g" (players 2) (equipment {{(board (square 3)) {items}}}) '
        '(rules (start {{{start}}}) (play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _load(tmp_path, play='(move Add (to (sites Empty)))', items='(piece "Disc" Each)', start=""):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(items=items, start=start, play=play))
    return load(f)


# -- (piece ... maxState: maxCount: maxValue:) ---------------------------------------------

@pytest.mark.parametrize("bounds", ["maxState:2", "maxCount:4", "maxValue:9",
                                    "maxState:1 maxCount:1 maxValue:1"])
def test_piece_storage_bounds_keep_every_value(tmp_path, bounds):
    # The bounds only widen Ludii's storage: a state set above them is still read back.
    game = _load(tmp_path, items=f'(piece "Disc" Each {bounds})',
                 play='(move Add (to (sites Empty)) (then (set State at:(last To) 7)))')
    s = game.new_initial_state()
    s.apply(s.legal_moves()[0])
    assert 7 in [s.piece_state(site) for site in range(9)]


def test_piece_storage_bound_below_zero_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="'maxState:' must be 0 or more"):
        _load(tmp_path, items='(piece "Disc" Each maxState:-1)')


# -- corpus games these ludemes unlocked --------------------------------------------------

CORPUS = ["board_race_reach_Es-Sig", "board_race_reach_Sig_wa_Duqqan_(Houmt_al-Arbah)",
          "board_space_connection_Bipartisan_Y",
          "board_war_replacement_checkmate_chaturanga_Persian_Chess_with_a_Queen",
          "board_war_replacement_eliminate_all_Tank_Tactics"]


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_games_agree_with_ludii(refdata, ludii, name):
    assert_corpus_trace_agrees(refdata, ludii, name)
