"""War ludemes on small boards, as tables: custodial captures, flips, leaps, promotions,
threats, capture priorities and directional captures (ludeme.model.ludemes.war, leaping)."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError
from ludeme.model.tables import relative_directions

GAME = ('(game "g" (players 2) (equipment {{(board (square {size})) {pieces}}}) '
        '(rules (start {{{start}}}) (play {play}) '
        '(end (if (no Moves Next) (result Mover Win)))))')
PIECES = '(piece "R" Each) (piece "K" Each)'


def _state(tmp_path, play, start, pieces=PIECES, size=4):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(pieces=pieces, start=start, play=play, size=size))
    game = load(f)
    return game, game.new_initial_state()


def _keys(s):
    return sorted((m.frm, m.to) for m in s.legal_moves())


# Custodial: R1 steps from 0 to 1; enemies east of 1 are taken when a friend closes the run.
CUSTODIAL = ('(forEach Piece "R" (move Step E (to if:(is Empty (to))) (then (custodial '
             '(from (last To)) E (between {limit} if:(is Enemy (who at:(between))) '
             '(apply (remove (between)))) (to if:(is Friend (who at:(to))))))))')


@pytest.mark.parametrize("limit,start,left", [
    # One enemy between the newcomer and a friend: taken.
    ("(max 1)", '(place "R1" {0 3}) (place "R2" 2)', {1: 1, 2: 0, 3: 1}),
    # Two enemies with a limit of one: nothing taken.
    ("(max 1)", '(place "R1" {0 4}) (place "R2" {2 3})', {1: 1, 2: 2, 3: 2, 4: 1}),
    # No limit given (Ludii's 1000): the whole run closed by a friend is taken.
    ("", '(place "R1" {0 4}) (place "R2" {2 3})', {1: 1, 2: 0, 3: 0, 4: 1}),
    # A run that the board's edge closes is not taken.
    ("", '(place "R1" 0) (place "R2" {2 3 4})', {2: 2, 3: 2, 4: 2}),
])
def test_custodial_takes_runs_closed_by_a_friend(tmp_path, limit, start, left):
    _, s = _state(tmp_path, CUSTODIAL.format(limit=limit), start, size=5)
    s.apply(next(m for m in s.legal_moves() if (m.frm, m.to) == (0, 1)))
    assert {k: s.who[k] for k in left} == left


REVERSI_LIKE = ('(forEach Site (sites Empty) (append (custodial (from (site)) '
                '(between if:(is Enemy (state at:(between))) (apply (allCombinations '
                '(add (piece "Disc0" state:(mover)) (to (site))) (flip (between))))) '
                '(to if:(is Friend (state at:(to))))) (then (set Score Mover '
                '(count Sites in:(sites State (mover)))))))')


def test_append_joins_flips_into_one_decision_per_site(tmp_path):
    pieces = '(piece "Disc" Neutral (flips 1 2))'
    start = '(place "Disc0" {5 10} state:1) (place "Disc0" {6 9} state:2)'
    game, s = _state(tmp_path, REVERSI_LIKE, start, pieces)
    assert _keys(s) == [(2, 2), (7, 7), (8, 8), (13, 13)]
    s.apply(next(m for m in s.legal_moves() if m.to == 7))
    # 7 is added in state 1 and 6 flips from 2 to 1; 9 stays 2.
    assert [s.sites.state[i] for i in (5, 6, 7, 9, 10)] == [1, 1, 1, 2, 1]
    assert s.scores[1] == 4


@pytest.mark.parametrize("walk,rotations,expected", [
    ("{{F F R F} {F F L F}}", "", [(0, 6), (0, 9)]),
    # Only the first orthogonal direction (N): two up, one right / left (off the board).
    ("{{F F R F} {F F L F}}", " rotations:False", [(0, 9)]),
    ("{{F}}", "", [(0, 1), (0, 4)]),
])
def test_leap_ends_of_walks(tmp_path, walk, rotations, expected):
    play = f'(forEach Piece "R" (move Leap {walk}{rotations} (to if:(is Empty (to)))))'
    _, s = _state(tmp_path, play, '(place "R1" 0) (place "R2" 15)')
    assert _keys(s) == expected


@pytest.mark.parametrize("region, expected", [
    # the sites the walks end on from R1's site 5 (a 4x4 board): north 14 and 12, east 3
    # and 11; south and west leave the board
    ("(sites (from) {{F F R F} {F F L F}})", [3, 11, 12, 14]),
    ("(sites (from) {{F F R F} {F F L F}} rotations:False)", [12, 14]),
    ("(sites (from) {{F R R F} {F}})", [1, 4, 5, 6, 9]),     # back at 5: once
    ("(sites 0 {{F F F F}})", []),                          # off the board: none
    ("(sites {{F}})", [1, 4, 6, 9]),                        # from (from)
])
def test_sites_walk_is_the_set_of_the_ends_of_the_walks(tmp_path, region, expected):
    play = f'(forEach Piece "R" (move Add (to {region})))'
    _, s = _state(tmp_path, play, '(place "R1" 5)')
    assert sorted(m.to for m in s.legal_moves() if not m.is_pass) == expected


def test_move_promote_gives_one_decision_per_piece_named(tmp_path):
    play = '(move Promote 0 (piece {"R" "K"}) Mover)'
    game, s = _state(tmp_path, play, '(place "R1" 0) (place "R2" 15)')
    moves = s.legal_moves()
    assert [(m.frm, m.to) for m in moves] == [(0, 0), (0, 0)]
    s.apply(moves[1])
    assert game.components[s.what[0]].name == "K1"


def test_is_threatened_probes_the_enemy_moves(tmp_path):
    pieces = '(piece "R" Each (move Slide Orthogonal (to if:(is Enemy (who at:(to))) ' \
             '(apply (remove (to)))))) (piece "K" Each (move Step (to if:(is Empty (to)))))'
    play = '(do (forEach Piece) ifAfterwards:(not (is Threatened (id "K" Mover))))'
    # K1 on 0, R2 on 15: K1 may not step onto column 3 or row 3.
    _, s = _state(tmp_path, play, '(place "K1" 0) (place "R2" 15) (place "K2" 14)', pieces)
    assert _keys(s) == [(0, 1), (0, 4), (0, 5)]


MAX_CAPTURES = ('(max Captures (forEach Piece "R" (move Hop Orthogonal (between '
                'if:(is Enemy (who at:(between))) (apply (remove (between)))) '
                '(to if:(is Empty (to))))))')


def test_max_captures_keeps_the_moves_taking_most(tmp_path):
    # R1 on 0 can hop over 1 (one capture); R1 on 8 too: equal, both kept.
    _, s = _state(tmp_path, MAX_CAPTURES, '(place "R1" {0 8}) (place "R2" {1 9})')
    assert _keys(s) == [(0, 2), (8, 10)]


def test_directional_takes_the_run_ahead(tmp_path):
    play = ('(forEach Piece "R" (move Step E (to if:(is Empty (to))) (then (directional '
            '(from (last To)) (directions Cell from:(last From) to:(last To)) '
            '(to if:(is Enemy (who at:(to))) (apply (remove (to))))))))')
    _, s = _state(tmp_path, play, '(place "R1" 0) (place "R2" {2 3}) (place "R2" 12)')
    s.apply(next(m for m in s.legal_moves() if (m.frm, m.to) == (0, 1)))
    assert [s.who[i] for i in (0, 1, 2, 3, 12)] == [0, 1, 0, 0, 2]


@pytest.mark.parametrize("facing,word,supported,expected", [
    # Ludii turns a sixteenth at a time to the first supported direction.
    ("N", "FL", ("N", "ENE", "ESE", "S", "WSW", "WNW"), ["WNW"]),
    ("N", "FR", ("N", "ENE", "ESE", "S", "WSW", "WNW"), ["ENE"]),
    ("N", "FL", ("N", "NE", "E", "SE", "S", "SW", "W", "NW"), ["NW"]),
    ("S", "FR", ("N", "NE", "E", "SE", "S", "SW", "W", "NW"), ["SW"]),
    ("N", "BL", ("N", "NE", "E", "SE", "S", "SW", "W", "NW"), ["SE"]),
])
def test_relative_turns_follow_ludii(facing, word, supported, expected):
    assert relative_directions(facing, word, supported) == expected


# (move Leap forward:True) and (directions <type> from: to:) in a step are supported now:
# tests/test_race.py holds their tests.
@pytest.mark.parametrize("play,message", [
    ('(max Captures withValue:True (forEach Piece))', "not supported yet"),
])
def test_unsupported_forms_are_refused_with_a_position(tmp_path, play, message):
    with pytest.raises(LudemeError) as e:
        _state(tmp_path, play, '(place "R1" 0) (place "R2" 15)')
    assert message in str(e.value) and "g.lud:" in str(e.value)


HOPS = ('(max Moves {value} (forEach Piece "R" (move Hop Orthogonal (between if:(is Enemy '
        '(who at:(between))) (apply (remove (between)))) (to if:(is Empty (to))))))')


@pytest.mark.parametrize("value,values,expected", [
    ("withValue:True", (1, 5), [(0, 8)]),           # the hop taking the piece worth 5
    ("withValue:True", (5, 1), [(0, 2)]),
    ("withValue:True", (3, 3), [(0, 2), (0, 8)]),
    ("", (1, 5), [(0, 2), (0, 8)]),                 # without it, both chains are one hop
])
def test_max_moves_with_value_keeps_the_chains_capturing_most_value(tmp_path, value, values,
                                                                   expected):
    start = (f'(place "R1" 0) (place "R2" 1 value:{values[0]}) '
             f'(place "R2" 4 value:{values[1]})')
    _, s = _state(tmp_path, HOPS.format(value=value), start)
    assert _keys(s) == expected


@pytest.mark.parametrize("count,left", [
    # Ludii's Move.apply ends the turn by removing, at each marked site, as many pieces as
    # it was marked (at most its stack), from that level - 1 down to 0: the bottom ones
    ("count:(size Stack at:(between))", []),
    ("count:2", [3]),
    ("", [2, 3]),
    ("count:5", []),
])
def test_a_removal_at_the_end_of_the_turn_takes_the_bottom_of_a_stack(tmp_path, count, left):
    play = ('(forEach Piece "R" (move Hop E (between if:(is Enemy (who at:(between))) '
            f'(apply (remove (between) at:EndOfTurn {count}))) (to if:(is Empty (to)))))')
    start = ('(place Stack "R1" 0) (place Stack "R2" 1 value:1) (place Stack "R2" 1 value:2) '
             '(place Stack "R2" 1 value:3)')
    _, s = _state(tmp_path, play, start)
    (m,) = s.legal_moves()
    s.apply(m)
    assert [lv[4] for lv in s.board_view()["stacks"][1]] == left


def test_max_moves_counts_a_chain_running_into_no_move_below_a_move_ending_the_turn(tmp_path):
    # Ludii's MaxMoves counts a move ending the turn 1 and a chain whose mover, moving
    # again, has no move 0 (Game.moves adds no forced pass there)
    play = ('(max Moves (or (forEach Piece "R" (move Step E (to if:(is Empty (to))) '
            '(then (moveAgain)))) (if (is Empty 3) (move Add (piece "R1") (to (sites {12}))))))')
    # from 2: the step to 3 leads nowhere (0), the add ends the turn (1); from 1: the step to
    # 2 then the add is a chain of two (2), beating the add alone
    for start, kept in (("2", [12]), ("1", [2])):
        f = tmp_path / "g.lud"
        f.write_text(f'(game "g" (players 2) (equipment {{(board (square 4)) (piece "R" Each)}}) '
                     f'(rules (start (place "R1" {start})) (play {play}) '
                     f'(end (if (is Occupied 15) (result Mover Win)))))')
        s = load(f).new_initial_state()
        assert sorted(m.to for m in s.legal_moves()) == kept


def test_max_moves_ranks_a_pass_of_a_dice_game_without_generating_its_position_again(tmp_path):
    # A pass the list offers (a roll with nothing to play) is applied on a copy to rank it:
    # the mover was not stalemated where the list was made, so applying it does not ask for
    # the same list again (which ranked the same pass: an endless recursion)
    play = ('(max Moves (do (roll) next:(forEach Die (forEach Piece "R" (move Step E '
            '(to if:(and (is Empty (to)) (= (pips) 9)))) (then (moveAgain))))))')
    _, s = _state(tmp_path, play, '(place "R1" 0)',
                  pieces=PIECES + ' (dice num:2)')
    for _ in range(6):
        (m,) = s.legal_moves()
        assert m.is_pass
        s.apply(m)


@pytest.mark.parametrize("values,expected", [
    # Ludii's MaxMoves withValue reads the value of each removal of the moves it ranks at the
    # level the action reports: the bottom of a stack (level 0) for the pieces removed at the
    # end of the turn, whatever lies on it
    ((1, 5, 3), [(0, 8)]),          # 1 + 1 against 3 (the tops would give 5 + 5)
    ((3, 1, 5), [(0, 2)]),          # 3 + 3 against 5 (the tops: 1 + 1)
])
def test_max_moves_with_value_reads_the_bottom_of_a_stack(tmp_path, values, expected):
    play = ('(max Moves withValue:True (forEach Piece "R" (move Hop Orthogonal (between '
            'if:(is Enemy (who at:(between))) (apply (remove (between) at:EndOfTurn '
            'count:(size Stack at:(between))))) (to if:(is Empty (to))))))')
    start = (f'(place Stack "R1" 0) (place Stack "R2" 1 value:{values[0]}) '
             f'(place Stack "R2" 1 value:{values[1]}) (place Stack "R2" 4 value:{values[2]})')
    _, s = _state(tmp_path, play, start)
    assert _keys(s) == expected


@pytest.mark.parametrize("cond,shortcut", [
    ('(not (and (is Threatened (id "K" Mover)) (is Empty 0)))', True),
    ('(not (and {(is Empty 1) (is Threatened (id "K" Mover)) (is Empty 0)}))', True),
    ("(not (and (is Empty 1) (is Empty 0)))", False),
])
def test_a_conjunction_with_a_threat_fails_at_once_while_a_threat_is_looked_for(
        tmp_path, cond, shortcut):
    from ludeme.model.ludemes import war
    from ludeme.model.ludemes.effects import Do
    play = f'(do (forEach Piece "K" (move Step (to if:(is Empty (to))))) ifAfterwards:{cond})'
    game, s = _state(tmp_path, play, '(place "K1" 5) (place "K2" 15)')
    do = next(x for x in _walk(game.typed) if isinstance(x, Do))
    auto = do.ifAfterwards.auto_succeeds()
    assert (auto is not None) == shortcut
    if shortcut:
        assert not auto()
        war._PROBING[0] += 1
        try:
            assert auto()
        finally:
            war._PROBING[0] -= 1


def _walk(lud):
    """Every typed ludeme below `lud`."""
    yield lud
    for v in vars(lud).get("_fields", {}).values():
        for x in (v if isinstance(v, (list, tuple)) else [v]):
            if hasattr(x, "_fields"):
                yield from _walk(x)


@pytest.mark.parametrize("dirn,expected", [
    ("(difference Orthogonal (directions {N}))", [(5, 4), (5, 6), (5, 1)]),
    ("(difference Adjacent Diagonal)", [(5, 1), (5, 4), (5, 6), (5, 9)]),
    ("(if (= (mover) 1) (directions {N E}) (directions {S W}))", [(5, 6), (5, 9)]),
    ("(if (= (mover) 2) (directions {N E}) (directions {S W}))", [(5, 1), (5, 4)]),
])
def test_direction_functions_choose_when_moves_are_generated(tmp_path, dirn, expected):
    play = f'(forEach Piece "R" (move Step {dirn} (to if:(is Empty (to)))))'
    _, s = _state(tmp_path, play, '(place "R1" 5) (place "R2" 15)')
    assert _keys(s) == sorted(expected)


def test_value_player_is_undefined_until_set(tmp_path):
    # Ludii's ValuePlayer reads a missing value as Undefined (-1); a value of 0 stays 0.
    play = ('(if (= Undefined (value Player Mover)) (forEach Piece "R" (move Step E (to if:'
            '(is Empty (to))) (then (set Value Mover 0)))) (if (= 0 (value Player Mover)) '
            '(forEach Piece "R" (move Step N (to if:(is Empty (to)))))))')
    _, s = _state(tmp_path, play, '(place "R1" 0) (place "R2" 12)')
    assert _keys(s) == [(0, 1)]
    s.apply(s.legal_moves()[0])
    assert _keys(s) == [(12, 13)]
    s.apply(s.legal_moves()[0])
    assert _keys(s) == [(1, 5)]
