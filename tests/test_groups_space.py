"""Groups, int arrays and board regions of the space family (Ludii's sites/size/sizes Group,
count Liberties, array, intArray difference, Mul, Pow, is Line <role>, is Connected with a
static region type, expand origin:, the end (if ...) with inner rules, no Repeat)."""

from __future__ import annotations

import pytest

from ludeme.model.build import build_game
from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description

# A 4x4 board (sites 0..15, row 0 at the bottom):
#   12 13 14 15
#    8  9 10 11
#    4  5  6  7
#    0  1  2  3
START = '(place "Disc1" {0 1 5 10}) (place "Disc2" {2 3 15})'


def _game(play: str, start: str = START, board: str = "(board (square 4))", end: str = "",
          meta: str = ""):
    text = (f'(game "T" (players 2) (equipment {{ {board} (piece "Disc" Each) }}) '
            f'(rules {meta} (start {{ {start} }}) (play {play}) {end}))')
    return build_game(expand(load_description("t.lud", text)))


def _value(intfn: str, start: str = START, board: str = "(board (square 4))") -> int:
    """The integer function evaluated after the start (through P1's score)."""
    game = _game(f"(move Pass (then (set Score P1 {intfn})))", start=start, board=board)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    return state.scores[1]


def _removable(region: str, start: str = START) -> list[int]:
    state = _game(f"(move Remove {region})", start=start).new_initial_state(0)
    return sorted(m.to for m in state.legal_moves())


@pytest.mark.parametrize("intfn, expected", [
    ("(size Group at:0)", 4),                       # Adjacent on squares: 0 1 5 10
    ("(size Group at:0 Orthogonal)", 3),            # 0 1 5
    ("(size Group at:2)", 2),                       # P2's 2 3
    ("(size Group at:4)", 9),                       # an empty site: the empty sites around it
    ("(size Group at:0 if:(is Occupied (to)))", 7),  # the condition, not the kind, decides
    ("(size Group at:4 if:(is Occupied (to)))", 0),  # the site itself fails the condition
    ("(size Group at:-1)", 0),
    ("(count Liberties at:0 Orthogonal)", 3),        # 4, 9, 6 next to 0 1 5 (2 is P2's)
    ("(count Liberties at:15)", 2),                  # 11 and 14 (10 is P1's)
])
def test_group_sizes_and_liberties(intfn, expected):
    assert _value(intfn) == expected


def test_sites_group_lists_the_group_in_increasing_order():
    assert _removable("(sites Group at:5 All)") == [0, 1, 5, 10]
    assert _removable("(sites Group at:3)") == [2, 3]
    # from: the groups at each site of a region, together
    assert _removable("(sites Group from:(sites {10 15}) Orthogonal)") == [10, 15]
    assert _removable("(sites Group from:(sites {0 3}) Orthogonal)") == [0, 1, 2, 3, 5]


@pytest.mark.parametrize("intfn, expected", [
    ("(* (sizes Group Orthogonal P1))", 3),         # groups 0-1-5 and 10: 3 * 1
    ("(* (sizes Group P1))", 4),                    # Adjacent: 0-1-5-10
    ("(* (sizes Group Orthogonal P2))", 2),         # 2-3 and 15: 2 * 1
    ("(* (sizes Group))", 7),                       # every piece, any owner: one group
    ("(* (sizes Group Orthogonal))", 5),            # 0-1-5-2-3, 10, 15
    ("(* (sizes Group Orthogonal P1 min:2))", 3),
    ("(* (sizes Group P1 min:5))", 0),              # Ludii's Mul of no values is 0
    ("(+ (sizes Group Orthogonal P2))", 3),
    ("(max (sizes Group Orthogonal P1))", 3),
    ("(max (difference (sizes Group Orthogonal P1) 3))", 1),  # one occurrence of 3 less
    ("(max (difference (array {3 1 3}) 3))", 3),
    ("(max (difference (array {3 1 3}) (array {3})))", 3),       # one 3 for each 3 removed
    ("(max (difference (array {3 1 3}) (array {3 3})))", 1),
    ("(size Array (difference (array {1 1 2}) (array {1 5})))", 2),
    ("(max (difference (sizes Group P2) (sizes Group P2)))", -1),
    ("(^ 2 10)", 1024),
    ("(pow 3 (size Group at:0 Orthogonal))", 27),
    ("(^ 2 40)", 2 ** 31 - 1),                       # (int) of a double saturates
    ("(^ 2 -1)", 0),
    ("(* {65536 65536})", 0),                        # 32-bit ints wrap
    ("(max (array {4 9 2}))", 9),
    ("(min (array (sites Occupied by:P2)))", 2),
    ("(size Array (array (sites Group at:0)))", 4),
    ("(size Array (array {3 1 3}))", 3),
    ("(+ (array {1 2 3}))", 6),
    # Ludii's intArray Intersection: of two, the second's values the first holds, in the
    # second's order; of a list, the first's values every other holds
    ("(arrayValue (intersection (array {1 2 3}) (array {3 5 2})) index:0)", 3),
    ("(arrayValue (intersection (array {1 2 3}) (array {3 5 2})) index:1)", 2),
    ("(size Array (intersection (array {1 2 3}) (array {2 2 9})))", 2),
    ("(arrayValue (intersection {(array {4 2 3}) (array {3 2}) (array {2 3 9})}) index:0)", 2),
    ("(size Array (intersection {(array {4 2 3}) (array {3 2}) (array {9})}))", 0),
    ("(arrayValue (array {7 8}) index:2)", -1),          # past the end: Ludii's Off
    ("(arrayValue (array {7 8}) index:-1)", -1),
    ("(arrayValue (array (sites Occupied by:P2)) index:0)", 2),
])
def test_group_sizes_and_int_arrays(intfn, expected):
    assert _value(intfn) == expected


def test_sizes_group_of_all_pieces_counts_mixed_groups():
    # every piece joins any orthogonal neighbour that holds a piece: 0 1 5 2 3
    assert _value("(max (sizes Group Orthogonal))") == 5
    assert _value("(max (sizes Group Orthogonal All))") == 5


def test_forEach_value_and_is_in_read_an_array():
    state = _game("(forEach Value (array {6 4}) (move Add (to (value))))").new_initial_state(0)
    assert sorted(m.to for m in state.legal_moves()) == [4, 6]
    play = "(move Add (to (sites Empty) if:(is In (to) (array {4 7}))))"
    assert sorted(m.to for m in _game(play).new_initial_state(0).legal_moves()) == [4, 7]


@pytest.mark.parametrize("play, message", [
    ("(move Pass (then (set Score P1 (* (sizes Group if:(is Occupied (to)))))))", "'if'"),
    ("(move Pass (then (set Score P1 (* (sizes Group P1 of:1)))))", "role or of:"),
    ("(move Pass (then (set Score P1 (max (array)))))", "a region or an array"),
])
def test_refused(play, message):
    with pytest.raises(LudemeError, match=message):
        _game(play)


@pytest.mark.parametrize("role, line", [("P1", True), ("P2", False), ("Mover", True)])
def test_is_line_with_a_role(role, line):
    end = f"(end (if (is Line 3 {role}) (result P1 Win)))"
    game = _game("(move Add (to (sites Empty)))", start='(place "Disc1" {0 1})', end=end)
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 2))
    assert state.over is line


def test_is_connected_sides_on_a_hex_triangle():
    board = "(board (hex Triangle 4))"
    game = _game("(move Add (to (sites Empty)))", start="", board=board,
                 end="(end (if (is Connected 3 Sides) (result Mover Win)))")
    b = game.board
    sides = [set(b.region("Side", d)) for d in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")]
    assert sum(bool(s) for s in sides) == 3        # a triangle has three sides
    state = game.new_initial_state(0)
    assert not state.over
    corner = next(iter(set.intersection(*(s for s in sides if s)) or {None}), None)
    assert corner is None                          # no one site touches all three sides


def test_is_connected_refuses_other_static_regions():
    with pytest.raises(LudemeError, match="Rows"):
        _game("(move Add (to (sites Empty)))", end="(end (if (is Connected Rows) "
              "(result Mover Win)))")


def test_expand_origin_with_a_direction():
    game = _game("(move Add (to (sites \"Ring\")))", start="",
                 board='(board (square 4)) (regions "Ring" (expand origin:5 All))')
    assert sorted(m.to for m in game.new_initial_state(0).legal_moves()) == \
        [0, 1, 2, 4, 5, 6, 8, 9, 10]


def test_end_if_with_inner_rules_takes_the_first_that_applies():
    end = ("(end (if (is Occupied 8) {(if (is Occupied 9) (result P2 Win)) "
           "(if (is Occupied 8) (result P1 Win))} (result Mover Draw)))")
    game = _game("(move Add (to (sites Empty)))", start='(place "Disc1" 9)', end=end)
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 8))
    assert state.over and state.winner == 2


def test_no_repeat_forbids_a_move_back_to_a_position_seen():
    text = ('(game "Rep" (players 2) (equipment {(board (rectangle 1 4)) '
            '(piece "Disc" Each (move Step (to if:(is Empty (to)))))}) '
            '(rules (meta (no Repeat)) (start {(place "Disc1" 0) (place "Disc2" 3)}) '
            '(play (forEach Piece)) (end (if (= (count Moves) 30) (result Mover Draw)))))')
    state = build_game(expand(load_description("t.lud", text))).new_initial_state(0)
    for frm, to in [(0, 1), (3, 2), (1, 0)]:
        state.apply(next(m for m in state.legal_moves() if (m.frm, m.to) == (frm, to)))
    # 2 -> 3 would give back the start position
    assert [(m.frm, m.to) for m in state.legal_moves()] == [(2, 1)]
    with pytest.raises(LudemeError, match="Situational"):
        build_game(expand(load_description("t.lud", text.replace(
            "(no Repeat)", "(no Repeat Situational)"))))


def _selectable(region: str, start: str = START, board: str = "(board (square 4))",
                play_first: str | None = None) -> list[int]:
    """The sites of a region, read as the origins of (move Select ...) (a pass: [-1])."""
    state = _game(f"(move Select (from {region}))", start=start, board=board).new_initial_state(0)
    return sorted(m.frm for m in state.legal_moves())


# From site 4 (row 1, column 0) of the 4x4 board above: P1 at 0 1 5 10, P2 at 2 3 15.
@pytest.mark.parametrize("region, expected", [
    ("(sites LineOfSight at:4 Orthogonal)", [0, 5]),                # the first piece each way
    ("(sites LineOfSight Piece at:4 Diagonal)", [1]),
    ("(sites LineOfSight Empty at:4 Orthogonal)", [8, 12]),         # the empty sites before
    # Farthest: the last empty site before a piece, and a line's last site when it is
    # empty (Ludii 1.3.12's SitesLineOfSight; Fission's trace shows it)
    ("(sites LineOfSight Farthest at:4 Orthogonal)", [12]),
    ("(sites LineOfSight Farthest at:12 E)", [14]),
    ("(sites LineOfSight Farthest at:4 E)", [-1]),                  # none: a pass
    ("(sites Incident Cell of:Cell at:5)", [1, 4, 6, 9]),           # across each edge
    ("(sites Incident Cell of:Cell at:5 P1)", [1]),
    ("(sites Incident Cell of:Cell at:5 All)", [1]),                # any player's piece
    ("(sites Playable)", [5, 6, 9, 10]),                            # the centre at first
    ("(forEach (sites Board) if:(is Related Adjacent (site) 15))", [10, 11, 14]),
    ("(forEach (sites Board) if:(is Related Orthogonal (site) (sites {0 15})))", [1, 4, 11, 14]),
    ("(sites {(regionSite (sites Occupied by:P2) index:1)})", [3]),
    ("(sites {(regionSite (sites Occupied by:P2) index:3)})", [-1]),
    ("(intersection (sites Around (sites {0 2})) (sites Empty))", [4, 6, 7]),
    ("(sites Occupied by:(player 2))", [2, 3, 15]),
    ("(sites (array {7 3 7}))", [3, 7]),                            # an int array as a set
    ("(forEach of:(sites {2 15}) (sites Around (site) Orthogonal))", [1, 3, 6, 11, 14]),
    ("(sites (results from:(sites {0 1}) to:(from) (+ (from) 4)))", [4, 5]),
    ("(sites Occupied by:(player (- 3 (mover))))", [2, 3, 15]),
    ("(sites Between from:0 to:15)", [5, 10]),                      # along the diagonal
    ("(sites Between from:0 fromIncluded:True to:3)", [0, 1, 2]),
    ("(sites Between from:0 to:3 toIncluded:True cond:(is Empty (between)))", [3]),
    ("(sites Between from:0 to:6)", [-1]),                          # on no radial from 0
    ("(sites Between Orthogonal from:0 to:15)", [-1]),
])
def test_sites(region, expected):
    assert _selectable(region) == expected


def test_sites_playable_after_the_first_move_is_next_to_the_pieces():
    state = _game("(move Add (to (sites Playable)))", start="").new_initial_state(0)
    assert sorted(m.to for m in state.legal_moves()) == [5, 6, 9, 10]
    state.apply(next(m for m in state.legal_moves() if m.to == 5))
    assert sorted(m.to for m in state.legal_moves()) == [0, 1, 2, 4, 6, 8, 9, 10]


def test_intersection_lists_a_site_once():
    # 5 is next to both 0 and 10: (sites Around {0 10}) would give it twice
    state = _game("(move Add (to (intersection (sites Around (sites {0 10}) Diagonal) "
                  "(sites Empty))))", start="").new_initial_state(0)
    assert sorted(m.to for m in state.legal_moves()) == [5, 7, 13, 15]


# After P1 adds a disc at 4: P1 at 0 1 4 5 10, P2 at 2 3 15.
@pytest.mark.parametrize("cond, expected", [
    ("(is Pattern {F R F R F} from:0)", True),                       # N 4, E 5, S 1
    ("(is Pattern {F F} from:0)", False),                            # 4 then 8 (empty)
    ("(is Pattern {F} from:2)", True),                               # E: 3 is P2's too
    ("(is Pattern {F F} from:2)", False),
    ('(is Pattern {F R F} from:0 whats:{(id "Disc" P1)})', True),    # N 4, E 5
    ('(is Pattern {F L F} from:0 whats:{(id "Disc" P1)})', True),    # E 1, N 5
    ('(is Pattern {F F} from:0 whats:{(id "Disc" P1) (id "Disc" P2)})', False),  # 1 is P1's
    ('(is Pattern {F F} from:1 whats:{(id "Disc" P1) (id "Disc" P2) (id "Disc" P1)})', False),
    ('(is Pattern {F} from:1 whats:{(id "Disc" P1) (id "Disc" P2)})', True),     # E: 2
    ("(is Pattern {F} from:6)", False),                              # an empty start
])
def test_is_pattern(cond, expected):
    game = _game("(move Add (to (sites Empty)))", end=f"(end (if {cond} (result P1 Win)))")
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 4))
    assert state.over is expected


def test_count_cell_in_a_region_and_occupied_sites_of_a_hand():
    text = ('(game "T" (players 2) (equipment {(board (square 3)) (hand Each size:2) '
            '(piece "A" Each) (piece "B" Each)}) (rules (start {(place "A" "Hand") '
            '(place "B" "Hand")}) (play (move (from (sites Occupied by:Mover '
            'container:(mover))) (to (sites Empty)))) (end (if (= 0 (count Cell in:'
            '(sites Hand P1))) (result P1 Win)))))')
    game = build_game(expand(load_description("t.lud", text)))
    state = game.new_initial_state(0)
    h1 = game.containers[1].sites_from
    assert [state.what[h1], state.what[h1 + 1]] == [1, 3]    # A1 then B1: first empty sites
    assert sorted({m.frm for m in state.legal_moves()}) == [h1, h1 + 1]


@pytest.mark.parametrize("intfn, expected", [
    ("(size Array (union (array {2 2 5}) (array {5 7 7})))", 4),   # 2 2 5 7: the first kept
    ("(max (union {(array {1}) (array {9 1}) (array {4})}))", 9),
    ("(size Array (union {(array {1}) (array {9 1}) (array {4})}))", 3),
])
def test_int_array_union(intfn, expected):
    assert _value(intfn) == expected


def test_place_in_a_numbered_hand_places_the_component_of_that_number():
    # Ludii's PlaceItem with "Hand2": component 2 (the hand's container index), whatever the
    # item named, on the first site of that hand
    text = ('(game "T" (players 2) (equipment {(board (square 3)) (hand Each) '
            '(piece "A" P1) (piece "B" P2) (piece "C" Each)}) (rules (start {(place "A1" "Hand1" '
            'count:2) (place "C2" "Hand2" count:3)}) (play (move Pass)) (end (if (no Moves Next) '
            '(result Mover Win)))))')
    game = build_game(expand(load_description("t.lud", text)))
    state = game.new_initial_state(0)
    h1, h2 = game.containers[1].sites_from, game.containers[2].sites_from
    assert (state.what[h1], state.count[h1]) == (1, 2)
    assert (state.what[h2], state.count[h2]) == (2, 3)     # B2, not C2
    with pytest.raises(LudemeError, match="Hand3"):
        build_game(expand(load_description("t.lud", text.replace('"Hand2"', '"Hand3"'))))


def test_the_games_limits():
    assert _value("(value MoveLimit)") == 10000
    assert _value("(value TurnLimit)") == 1250


# After P1 adds a disc at 9: P1 at 0 1 5 9 10, P2 at 2 3 15.
@pytest.mark.parametrize("cond, expected", [
    # an empty pivot makes lines of empty sites, as Ludii reads it: 12 13 14
    ("(is Line 3 Orthogonal throughAny:(sites {12 13}))", True),
    ("(is Line 3 Orthogonal throughAny:(sites {0 9}))", True),       # 9: 1 5 9
    ("(is Line 3 Orthogonal throughAny:(sites {0 2 3}))", False),
    ('(is Line 3 Orthogonal throughAny:(sites {1 8}) what:(id "Disc" P2))', False),  # no pivot
    ('(is Line 2 throughAny:(sites {1 3}) what:(id "Disc" P2))', True),   # 3: 2 3
    ("(is Line 3 Orthogonal throughAny:(sites {0 9}) if:(!= (to) 0))", False),  # 0 stops it
])
def test_is_line_through_any(cond, expected):
    game = _game("(move Add (to (sites Empty)))", end=f"(end (if {cond} (result P1 Win)))")
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 9))
    assert state.over is expected


@pytest.mark.parametrize("intfn, expected", [
    ("(count Steps 12 (sites {15 3}))", 3),                         # the nearest: 15 (row 3)
    ("(count Steps Orthogonal 12 (sites {3 15}))", 3),
    ("(count Steps 5 (sites {5 15}))", 0),
    ("(count Steps 5 (sites {-1}))", 0),                             # no site: 0
    ("(count Steps (step Orthogonal (to if:(is Empty (to)))) 4 (sites {14 11}))", 4),  # 8 9 13 14
    ("(count Steps (step Orthogonal (to if:(is Empty (to)))) 4 (sites {11}))", 1000000000),  # walled in
    ("(count Steps (step Orthogonal (to if:(is Empty (to)))) 4 (sites {4 1}))", 0),
])
def test_count_steps_to_a_region(intfn, expected):
    assert _value(intfn) == expected


def test_place_value_and_the_empty_sites_of_a_container():
    text = ('(game "T" (players 2) (equipment {(board (square 2)) (piece "A" Each) '
            '(hand Shared size:3)}) (rules (start {(place "A1" (handSite Shared 0) value:1) '
            '(place "A2" (handSite Shared 2) state:1 value:2)}) (play (move Select (from '
            '(sites Empty 1)))) (end (if (no Moves Next) (result Mover Win)))))')
    game = build_game(expand(load_description("t.lud", text)))
    state = game.new_initial_state(0)
    h = game.containers[1].sites_from
    assert [state.sites.value[h + i] for i in range(3)] == [1, 0, 2]
    assert state.sites.state[h + 2] == 1
    assert [m.frm for m in state.legal_moves()] == [h + 1]     # the hand's one empty site


# -- (forEach Group ...) and (sites), the group it iterates ------------------------------

def _score_after_pass(then: str, start: str = START) -> int:
    """P1's score after P1 passes with these consequents."""
    state = _game(f"(move Pass (then {then}))", start=start).new_initial_state(0)
    state.apply(state.legal_moves()[0])
    return state.scores[1]


@pytest.mark.parametrize("group, each, expected", [
    ("", "1", 1),                                   # the mover's pieces, Adjacent: 0 1 5 10
    ("Orthogonal", "1", 2),                         # 0 1 5 and 10
    ("Orthogonal", "(* (count Sites in:(sites)) (count Sites in:(sites)))", 10),   # 9 + 1
    # with if:, the sites where it holds, whoever owns them: 0 1 2 3 5, 10, 15
    ("Orthogonal if:(is Occupied (to))", "(* (count Sites in:(sites)) (count Sites in:(sites)))",
     27),
    ("if:(= (who at:(to)) P2)", "(* (count Sites in:(sites)) (count Sites in:(sites)))", 5),
    ("Orthogonal", "(regionSite (sites) index:0)", 10),   # each group's lowest site: 0 + 10
    ("if:(is Empty (to))", "1", 0),                 # groups start from owned sites only
])
def test_for_each_group_gives_each_group_as_the_region(group, each, expected):
    assert _score_after_pass(f"(forEach Group {group} (addScore P1 {each}))") == expected


def test_sites_outside_for_each_group_is_empty():
    assert _value("(count Sites in:(sites))") == 0


@pytest.mark.parametrize("forget, expected", [
    ("(forget Value All", 0),            # Ludii's ForgetValueAll: the named lists too
    ('(forget Value "A" All', 1),        # only that name: the unnamed 4 stays
    ("(forget Value 4", 1),              # one value of the unnamed list: "A"'s 3 stays
])
def test_forget_value_all_forgets_every_list(forget, expected):
    size = '(+ (size Array (values Remembered "A")) (size Array (values Remembered)))'
    then = (f'(remember Value "A" 3 (then (remember Value 4 (then {forget} '
            f'(then (set Score P1 {size})))))))')
    assert _score_after_pass(then) == expected


def test_forget_value_all_with_nothing_remembered_makes_no_move():
    assert _score_after_pass("(forget Value All (then (set Score P1 5)))") == 0


@pytest.mark.parametrize("value, expected", [(1, 2), (2, 1), (0, 0)])
def test_count_value_counts_the_entries_equal_to_it(value, expected):
    # the owners of sites 0 1 2: P1 P1 P2
    owners = "(results from:(sites {0 1 2}) to:(from) (who at:(from)))"
    assert _value(f"(count Value {value} in:{owners})") == expected


class _CountingTable(list):
    """A step table that counts the sites whose steps are read."""

    reads = 0

    def __getitem__(self, site):
        type(self).reads += 1
        return super().__getitem__(site)


@pytest.mark.parametrize("size, target, distance", [(4, 15, 6), (6, 35, 10), (6, 0, 0)])
def test_count_steps_reads_each_site_once(size, target, distance):
    from ludeme.model.ludemes.sequences import _rings_to
    # orthogonal steps on a size x size grid, from corner 0: every site is reached by
    # two routes, and a ring must not list it twice (the rings would double each time)
    steps = [[s + d for d, ok in ((1, s % size < size - 1), (-1, s % size > 0),
                                  (size, s + size < size * size), (-size, s >= size)) if ok]
             for s in range(size * size)]
    table = _CountingTable(steps)
    _CountingTable.reads = 0
    assert _rings_to(table, 0, {target}) == distance
    assert _CountingTable.reads <= size * size


@pytest.mark.parametrize("expr, value", [("(count Steps 0 15)", 3), ("(count Steps 0 3)", 3),
                                         ("(count Steps Orthogonal 0 15)", 6)])
def test_count_steps_between_two_sites(expr, value):
    assert _value(expr) == value


@pytest.mark.parametrize("centre, last, loop, expected", [
    ("", "ring", "(is Loop)", True),                           # a ring around an empty cell
    ('(place "Disc2" {c})', "ring", "(is Loop)", True),        # around the other's piece
    ("", "elsewhere", "(is Loop)", False),                     # the ring left open
    ("", "ring", "(is Loop surround:P2)", False),              # nothing of P2's inside
    ('(place "Disc2" {c})', "ring", "(is Loop surround:P2)", True),
    ("", "ring", "(is Loop Mover (last To))", True),           # colour and start given
    ("", "ring", "(is Loop P2)", False),                       # the ring is not P2's
])
def test_is_loop_finds_a_ring_closed_around_inner_sites(centre, last, loop, expected):
    """Ludii's IsLoop on a hexagon of side 3: P1 holds five of the six cells around the
    centre and places a sixth piece (closing the ring, or on the edge); the region inside
    must not reach the board's edge and its ring must be all the colour's."""
    board = "(board (hex 3))"
    probe = _game("(move Pass)", start="", board=board)
    c = probe.board.region("Centre")[0]
    ring = sorted(set(_adjacent(probe, c)))
    assert len(ring) == 6 and not set(ring) & set(probe.board.region("Outer"))
    start = f'(place "Disc1" {{{" ".join(map(str, ring[:5]))}}}) ' + centre.format(c=c)
    to = ring[5] if last == "ring" else probe.board.region("Outer")[0]
    game = _game(f"(move Add (to {to}))", start=start, board=board,
                 end=f"(end (if {loop} (result Mover Win)))")
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert (state.winner == 1) is expected


def _adjacent(game, site: int) -> list[int]:
    return [b for a, b in game.board.steps("Adjacent") if a == site] + \
           [a for a, b in game.board.steps("Adjacent") if b == site]


# A stacking game: P1 adds a disc on top of site 9; lines through 9 run 1 5 9 13 upwards.
@pytest.mark.parametrize("start, cond, expected", [
    # any level of a site counts (Ludii's evalStack, top:False): P1's disc under P2's at 5
    ('(place Stack "Disc1" {1 5}) (place Stack "Disc2" 5)', "(is Line 3 Orthogonal)", True),
    ('(place Stack "Disc1" 1) (place Stack "Disc2" 5)', "(is Line 3 Orthogonal)", False),
    # if: is read at the sites after the pivot (5 holds two pieces)...
    ('(place Stack "Disc1" {1 5}) (place Stack "Disc2" 5)',
     "(is Line 3 Orthogonal if:(= 1 (size Stack at:(to))))", False),
    # ...never at the pivot (9 holds P2's disc and P1's)
    ('(place Stack "Disc1" {1 5}) (place Stack "Disc2" 9)',
     "(is Line 3 Orthogonal if:(= 1 (size Stack at:(to))))", True),
])
def test_is_line_on_stacks(start, cond, expected):
    game = _game("(move Add (to 9) stack:True)", start=start,
                 end=f"(end (if {cond} (result P1 Win)))")
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.over is expected


def test_values_remembered_is_an_int_array_where_one_is_read():
    # Ludii's (values Remembered) is an int array: an int-array union takes it beside
    # (results ...), and (forEach Value ...) iterates the union (Throngs): the sites
    # north of the remembered 0 and 1 (4, 5), then the remembered 1 not already in
    play = ('(forEach Value (union (results from:(sites (values Remembered "R")) '
            'to:(sites To (step (from (from)) N (to if:(is Empty (to))))) (to)) '
            '(values Remembered "R")) (move Add (to (value))))')
    game = _game(play, start="")
    s = game.new_initial_state(0)
    s.notes[("remembered", "R")] = (0, 1)        # as (remember Value "R" ...) leaves them
    assert [m.to for m in s.legal_moves()] == [4, 5, 0, 1]


def test_a_place_with_no_site_places_nothing():
    # Ludii's PlaceItem with no site, coord or container places nothing; its state: still
    # declares that the sites keep states (Throngs' `(place "Ball1" state:7)`)
    state = _game("(move Add (to (sites Empty)))",
                  start='(place "Disc1" 5) (place "Disc1" state:7)').new_initial_state(0)
    assert [s for s in range(16) if state.what[s]] == [5]
