"""Race games: Ludii's dice bookkeeping on small games (which die a move uses up, doubles
played twice, (all DiceUsed), (pips), (is AnyDie)), then Ludii's traces of race games that
exercise each mechanic agree step by step (forEach Die, forEach Level, levels on moves,
firstMoveOnTrack, max Distance, counts on board sites, remembered values)."""

from pathlib import Path

import pytest

from ludeme.api import load
from ludeme.crosscheck import crosscheck_files
from ludeme.engine import A_SET_VAR, A_USE_DIE, DICE_USED

# A 1x12 line, two dice of 1..6; each die moves one piece of the mover that many steps.
GAME = ('(game "t" (players 2) (equipment {{(board (rectangle 1 12) {{(track "Track" "0,E" '
        'directed:True)}}) (dice num:2) (piece "Disc" Each)}}) (rules (start {{(place "Disc1" 0) '
        '(place "Disc2" 11)}}) (play (do (if (or (!= (mover) (prev)) (all DiceUsed)) (roll)) '
        'next:{play})) (end (if (no Moves Next) (result Mover Win)))))')

MOVE = ('(forEach Die {extra} if:(!= (pips) 0) (forEach Piece (move (from) (to (trackSite Move '
        'steps:(pips)) if:(is Empty (to))))) {then})')


def _state(tmp_path, extra="", then="(then (if (not (all DiceUsed)) (moveAgain)))",
           play=None):
    f = tmp_path / "t.lud"
    f.write_text(GAME.format(play=play or MOVE.format(extra=extra, then=then)))
    return load(f).new_initial_state()


def _roll(state, *faces):
    """Fix the next roll: die k shows face index faces[k] (value faces[k] + 1)."""
    first = state.g.containers[-1].sites_from
    state.force_roll = {first + k: f for k, f in enumerate(faces)}


def test_each_move_uses_the_die_it_moved_by(tmp_path):
    s = _state(tmp_path)
    _roll(s, 2, 4)                                 # dice show 3 and 5
    moves = s.legal_moves()
    assert sorted(m.to for m in moves) == [3, 5]
    die_of = {m.to: [a[1] for a in m.actions if a[0] == A_USE_DIE] for m in moves}
    first = s.g.containers[-1].sites_from
    assert die_of == {3: [first], 5: [first + 1]}
    s.apply(next(m for m in moves if m.to == 3))
    assert s.notes[DICE_USED] == {first}
    assert s.mover == 1                            # a die is left: the mover plays again
    assert [m.to for m in s.legal_moves()] == [8]  # only the 5 is left, from site 3
    s.apply(s.legal_moves()[0])
    assert s.mover == 2                            # both dice used


def test_a_double_is_played_twice_with_replay_double(tmp_path):
    s = _state(tmp_path, extra="replayDouble:True")
    _roll(s, 1, 1)                                 # a double of 2
    played = 0
    while s.mover == 1:
        moves = s.legal_moves()
        assert moves and all(m.to == m.frm + 2 for m in moves)
        s.apply(moves[0])
        played += 1
    assert played == 4


def test_without_replay_double_a_double_is_played_once_per_die(tmp_path):
    s = _state(tmp_path)
    _roll(s, 1, 1)
    played = 0
    while s.mover == 1:
        s.apply(s.legal_moves()[0])
        played += 1
    assert played == 2


def test_replay_double_remembers_the_double_in_ludiis_temporary_variable(tmp_path):
    s = _state(tmp_path, extra="replayDouble:True")
    _roll(s, 3, 3)
    m = s.legal_moves()[0]
    assert (A_SET_VAR, None, 4) in m.actions


def test_combined_adds_the_sum_of_both_dice(tmp_path):
    s = _state(tmp_path, extra="combined:True")
    _roll(s, 0, 2)                                 # 1 and 3: moves of 1, 3 and 4
    assert sorted(m.to for m in s.legal_moves()) == [1, 3, 4]


@pytest.mark.parametrize("cond, moves", [("(is AnyDie 3)", [3, 5]), ("(is AnyDie 4)", []),
                                         ("(all DiceEqual)", [])])
def test_dice_conditions(tmp_path, cond, moves):
    s = _state(tmp_path, play=f"(if {cond} {MOVE.format(extra='', then='')})")
    _roll(s, 2, 4)
    assert sorted(m.to for m in s.legal_moves() if not m.is_pass) == moves


def test_pips_outside_for_each_die_is_refused_without_dice(tmp_path):
    f = tmp_path / "t.lud"
    f.write_text('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" Each)}) '
                 '(rules (play (move Add (to (sites Empty) if:(= (pips) 1)))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    from ludeme.errors import LudemeError
    with pytest.raises(LudemeError, match=r"\(pips \.\.\.\) needs \(dice \.\.\.\)"):
        load(f)


# One trace per mechanic: the games Ludii's corpus plays them in.
RACE_TRACES = [
    "board_race_escape_Backgammon",        # replayDouble, firstMoveOnTrack, max Distance
    "board_race_escape_Laquet",            # dice left to the next player (is Pending)
    "board_race_escape_Kotra",             # count Pieces counts stacked levels
    "board_race_escape_Pancha_Keliya",     # place count:3 makes board sites count
    "board_race_escape_Lange_Puff",        # remembered values, repeats kept; size Array
    "board_race_escape_Cab_e_Quinal",      # players' values start Undefined
    "board_race_escape_Emperador",         # forEach Piece container: on stacks
    "board_race_escape_Uturu_Uturu_Kaida",  # level: on from and move Remove
    "board_race_escape_Dubblets",          # move Select reports stack levels
    "board_race_escape_Tables_Rabbatuees",  # forEach Level; no hand cells on a vertex board
    "board_race_escape_Nard",              # (no Pieces ...) twice in one rule
    "board_race_reach_Main_Pacheh",        # dice numbered before the pieces
]


@pytest.mark.parametrize("name", RACE_TRACES)
def test_race_traces_agree_with_ludii(refdata, ludii, name):
    trace = refdata / "corpus-traces" / f"{name}.json.gz"
    if not trace.is_file():
        pytest.skip(f"{trace} not found")
    verdicts = crosscheck_files([str(trace)], ludii_dir=str(Path(ludii)),
                                index=str(refdata / "corpus-index.tsv"))
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


def test_levels_on_from_and_remove_take_that_level(tmp_path):
    f = tmp_path / "t.lud"
    f.write_text('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" Each)}) '
                 '(rules (start {(place Stack "D1" 0) (place Stack "D2" 0) (place Stack "D1" 0)}) '
                 '(play (or (move (from 0 level:1) (to 1)) (move Remove 0 level:0))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    s = load(f).new_initial_state()
    moves = {(m.frm, m.to): m for m in s.legal_moves()}
    assert (moves[(0, 1)].level_from, moves[(0, 0)].level_from) == (1, 0)
    s.apply(moves[(0, 1)])
    assert [lv[1] for lv in s.stack(0)] == [1, 1] and [lv[1] for lv in s.stack(1)] == [2]
