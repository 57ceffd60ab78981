"""Race games: Ludii's dice bookkeeping on small games (which die a move uses up, doubles
played twice, (all DiceUsed), (pips), (is AnyDie)), then Ludii's traces of race games that
exercise each mechanic agree step by step (forEach Die, forEach Level, levels on moves,
firstMoveOnTrack, max Distance, counts on board sites, remembered values)."""

from pathlib import Path

import pytest

from ludeme.api import load
from ludeme.analysis.crosscheck import crosscheck_files
from ludeme.engine.state import A_SET_VAR, A_USE_DIE, DICE_USED

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


def _initial(tmp_path, text):
    """The initial state of a game described by `text`."""
    f = tmp_path / "t.lud"
    f.write_text(text)
    return load(f).new_initial_state()


# A track that comes back along itself: 0 1 2 3 4 3 2 1 0 (sites 1, 2, 3 twice).
THERE_AND_BACK = ('(game "t" (players 1) (equipment {{(board (rectangle 1 5) {{(track "Track" '
                  '"0,E,W" directed:True)}}) (piece "Disc" P1)}}) (rules (start (place "Disc1" '
                  '0)) (play (forEach Piece (move (from) (to (trackSite Move steps:{steps}) '
                  'if:(is Empty (to)))))) (end (if (no Moves Mover) (result Mover Win)))))')


def test_track_site_move_counts_from_where_the_piece_is_along_a_crossing_track(tmp_path):
    s = _initial(tmp_path, THERE_AND_BACK.format(steps=1))
    assert s.on_track is not None
    path = []
    while not s.is_terminal() and len(path) < 8:
        (m,) = s.legal_moves()
        s.apply(m)
        path.append(m.to)
    # Back from 4, a piece on 3 goes on to 2 (its index 5), not to 4 (the first index of 3).
    assert path == [1, 2, 3, 4, 3, 2, 1, 0]


def test_track_indices_follow_adds_moves_and_removals(tmp_path):
    from ludeme.engine.state import A_ADD, A_MOVE, A_REMOVE
    s = _initial(tmp_path, THERE_AND_BACK.format(steps=1))
    disc = s.what[0]
    on = s.on_track
    assert on.count(0, disc, 0) == 1
    s.do_action((A_MOVE, 0, 4))
    s.do_action((A_MOVE, 4, 3))                    # the first index of 3 after index 4: 5
    assert [on.count(0, disc, i) for i in range(9)] == [0, 0, 0, 0, 0, 1, 0, 0, 0]
    s.do_action((A_REMOVE, 3))                     # Ludii takes one off every index of 3
    assert (on.count(0, disc, 3), on.count(0, disc, 5)) == (-1, 0)
    s.do_action((A_ADD, 2, disc, 1, 1))            # an added piece stands at the first index
    assert on.count(0, disc, 2) == 1
    copy = s.clone()
    copy.do_action((A_MOVE, 2, 1))
    assert on.count(0, disc, 2) == 1 and copy.on_track.count(0, disc, 2) == 0


def test_a_track_without_repeated_sites_keeps_no_indices(tmp_path):
    s = _state(tmp_path)
    assert s.on_track is None


def test_removing_the_top_level_is_ludiis_level_free_removal(tmp_path):
    text = ('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" Each)}) '
            '(rules (start {(place Stack "D1" 0 count:3)}) '
            '(play (forEach Level 0 (move Remove 0 level:(level)))) '
            '(end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    # levels 0 and 1 are reported as such; the top one (2) as level 0, as Ludii does
    assert sorted(m.level_from for m in s.legal_moves()) == [0, 0, 1]


@pytest.mark.parametrize("dice, roll, moves", [
    ("(dice d:2 faces:{1 3 4 6} num:2)", (1, 0), [1, 3]),     # faces 3 and 1
    ("(dice faces:{1 3 4 6} num:2)", (3, 2), [4, 6]),          # faces 6 and 4
    ("(dice d:2 facesByDie:{{2 4} {5 6}} num:2)", (1, 0), [4, 5])])
def test_dice_roll_among_their_first_d_faces(tmp_path, dice, roll, moves):
    s = _initial(tmp_path,
                 GAME.format(play=MOVE.format(extra="", then="")).replace("(dice num:2)", dice))
    _roll(s, *roll)
    assert sorted(m.to for m in s.legal_moves()) == moves


def test_dice_with_more_faces_than_given_are_refused(tmp_path):
    from ludeme.errors import LudemeError
    with pytest.raises(LudemeError, match="d:5"):
        _initial(tmp_path, GAME.format(play=MOVE.format(extra="", then=""))
                 .replace("(dice num:2)", "(dice d:5 faces:{1 3 4 6} num:2)"))


def test_a_trailing_comma_in_a_track_is_dropped(tmp_path):
    s = _initial(tmp_path, THERE_AND_BACK.format(steps=1).replace('"0,E,W"', '"0,E,W,"'))
    assert s.g.board.track_info[0].sites == (0, 1, 2, 3, 4, 3, 2, 1, 0)


KNIGHTS = ('(game "t" ("TwoPlayersNorthSouth") (equipment {{(board (square 5)) (piece "Knight" '
           'Each (move Leap {{{{F F R F}} {{F F L F}}}} {forward} (to if:(is Empty (to)))))}}) '
           '(rules (start {{(place "Knight1" 12)}}) (play (forEach Piece)) '
           '(end (if (no Moves Next) (result Mover Win)))))')


@pytest.mark.parametrize("forward, targets", [("forward:True", [15, 19, 21, 23]),
                                              ("", [1, 3, 5, 9, 15, 19, 21, 23])])
def test_leap_forward_keeps_the_sites_ahead_of_the_piece(tmp_path, forward, targets):
    s = _initial(tmp_path, KNIGHTS.format(forward=forward))   # P1 faces north, in the centre
    assert sorted(m.to for m in s.legal_moves()) == targets


@pytest.mark.parametrize("kind, expected", [("Empty", [0, 1, 3]), ("Farthest", [0, 3])])
def test_sites_line_of_sight(tmp_path, kind, expected):
    # from site 2 of a 5x5 board, orthogonally: 7 (north) is taken, 3 then 4 (taken) east,
    # 1 then 0 (the edge) west. Ludii 1.3.12's Farthest keeps a radial's last site only when
    # it is empty (0, not 4; the older 1.0.8 kept it either way).
    text = ('(game "t" (players 2) (equipment {(board (square 5)) (piece "D" Each)}) '
            '(rules (start {(place "D1" {2 4 7})}) '
            f'(play (move Add (to (sites LineOfSight {kind} at:2 Orthogonal)))) '
            '(end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    assert sorted(m.to for m in s.legal_moves()) == expected


def test_swap_pieces_moves_a_onto_b_and_puts_bs_kind_on_a(tmp_path):
    text = ('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" Each)}) '
            '(rules (start {(place "D1" 0) (place "D2" 4)}) '
            '(play (move Swap Pieces 0 4)) (end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    (m,) = s.legal_moves()
    assert (m.frm, m.to) == (0, 4)
    s.apply(m)
    assert (s.who[0], s.who[4]) == (2, 1)


def test_for_each_site_leaves_from_as_it_was(tmp_path):
    # Ludii 1.3.12's ForEachSite sets (site) and (to) only: (from) is still the piece's site
    text = ('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" Each '
            '(forEach Site (sites {7 8}) (move (from (from)) (to (site)))))}) '
            '(rules (start {(place "D1" 0)}) (play (forEach Piece)) '
            '(end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    assert sorted((m.frm, m.to) for m in s.legal_moves()) == [(0, 7), (0, 8)]


def test_directions_between_two_sites_at_any_distance(tmp_path):
    # (directions Cell from: to:) takes the directions whose radials from `from` reach `to`,
    # however far: from 0 to 2 on a 3x3 board is east, so the piece on 4 steps to 5
    text = ('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" Each)}) '
            '(rules (start {(place "D1" 4)}) '
            '(play (forEach Site (sites Occupied by:Mover) (move Step (from (site)) '
            '(directions Cell from:0 to:2) (to if:(is Empty (to)))))) '
            '(end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    assert [(m.frm, m.to) for m in s.legal_moves()] == [(4, 5)]


def test_a_stack_under_a_neutral_piece_counts_zero(tmp_path):
    text = ('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" Each) '
            '(piece "D" Neutral)}) (rules (start {(place Stack "D0" 4 count:2) '
            '(place Stack "D1" 0)}) (play (forEach Piece)) '
            '(end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    assert (s.size_stack(4), s.count[4], s.count[0]) == (2, 0, 1)


def test_for_each_piece_of_another_player_moves_as_that_player(tmp_path):
    text = ('(game "t" (players 2) (equipment {(board (square 3)) (piece "D" P1 (move Step '
            '(to if:(and (is Empty (to)) (= (mover) 1)))))}) (rules (start {(place "D1" 0)}) '
            '(play (if (is Mover P1) (move Pass) (forEach Piece P1))) '
            '(end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    s.apply(s.legal_moves()[0])                    # P1 passes; P2 moves P1's piece
    assert s.mover == 2 and sorted(m.to for m in s.legal_moves()) == [1, 3, 4]


@pytest.mark.parametrize("teams, expected", [("(set Team 1 {P1 P3}) (set Team 2 {P2})", True),
                                             ("(set Team 1 {P3}) (set Team 2 {P1 P2})", False)])
def test_players_of_a_team(tmp_path, teams, expected):
    text = ('(game "t" (players 3) (equipment {(board (square 3)) (piece "D" Each)}) '
            f'(rules (start {{{teams}}}) (play (move Add (to (sites Empty) '
            'if:(is In (mover) (players Team1))))) (end (if (no Moves Next) (result Mover Win)))))')
    s = _initial(tmp_path, text)
    assert (not s.legal_moves()[0].is_pass) == expected


# -- (count StepsOnTrack ...) ------------------------------------------------------------------

# A line track over a row of 5 (its sites 0 to 4): P1's disc on 0 may move to site 4 only when
# the count named says `expect` (a player without a move passes, and the game ends).
STEPS_ON_TRACK = ('(game "t" (players 1) (equipment {{(board (rectangle 1 5) {{(track "Track" '
                  '"0,E" {owner})}}) (piece "Disc" P1)}}) (rules (start (place "Disc1" 0)) '
                  '(play (if (= {expect} {count}) (move Add (to 4)))) '
                  '(end (if (no Moves Mover) (result Mover Win)))))')


@pytest.mark.parametrize("count,expect", [
    ("(count StepsOnTrack 1 3)", 2),
    ("(count StepsOnTrack 3 3)", 0),
    ("(count StepsOnTrack 3 1)", 3),       # on, past the line's end, from its start (Ludii)
    ("(count StepsOnTrack 7 2)", 2),       # from a site off the track: the index of the second
    ("(count StepsOnTrack 1 7)", -1),      # the second off the track
    ('(count StepsOnTrack "Track" 0 4)', 4),
    ("(count StepsOnTrack P1 0 4)", 4),
])
@pytest.mark.parametrize("owner", ["", "P1"])
def test_count_steps_on_track(tmp_path, count, expect, owner):
    s = _initial(tmp_path, STEPS_ON_TRACK.format(owner=owner, count=count, expect=expect))
    assert [m.to for m in s.legal_moves()] == [4]


def test_count_steps_on_track_of_a_player_without_a_track_is_minus_one(tmp_path):
    # P1 owns the only track; P2 has none of its own and nobody's track to fall back on
    text = STEPS_ON_TRACK.format(owner="P1", count="(count StepsOnTrack P2 0 4)", expect=-1)
    s = _initial(tmp_path, text.replace("(players 1)", "(players 2)"))
    assert [m.to for m in s.legal_moves()] == [4]


def test_count_steps_on_a_track_passing_a_site_twice_counts_on_from_the_piece(tmp_path):
    # 0 1 2 3 4 3 2 1 0: from the disc on 0 (index 0), site 3 is 3 steps on; the end never
    # wraps round to the start on such a track
    for count, expect in (("(count StepsOnTrack 0 3)", 3), ("(count StepsOnTrack 2 2)", 0)):
        text = THERE_AND_BACK.format(steps=1).replace(
            "(play (forEach Piece", f"(play (if (= {expect} {count}) (forEach Piece").replace(
            "(to)))))) (end", "(to))))))) (end")
        s = _initial(tmp_path, text)
        assert [m.to for m in s.legal_moves()] == [1]
