"""Ludemes that were the first blockers of corpus games (issue #15), each on a small
description of its own, then the corpus games they unlocked replayed against Ludii's traces."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError
from ludeme.engine.stores import FlatSites, StackSites

from conftest import assert_corpus_trace_agrees

GAME = ('(game "g" (players 2) (equipment {{(board (square 3)) {items}}}) '
        '(rules (start {{{start}}}) (play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _load(tmp_path, play='(move Add (to (sites Empty)))', items='(piece "Disc" Each)', start=""):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(items=items, start=start, play=play))
    return load(f)


def _evaluates_to(tmp_path, expr, value, items='(piece "Disc" Each)'):
    """`expr` is `value` in the initial position: the game adds a disc only while
    (= <n> expr) holds, for n the value and for another (a player without a move passes)."""
    for n, holds in ((value, True), (value + 7, False)):
        game = _load(tmp_path, items=items,
                     play=f'(if (= {n} {expr}) (move Add (to (sites Empty))))')
        assert (len(game.new_initial_state().legal_moves()) == 9) == holds


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


# -- (sites Board <SiteType>) -----------------------------------------------------------

@pytest.mark.parametrize("region,size", [("(sites Board)", 9), ("(sites Board Cell)", 9),
                                         ("(sites Board Vertex)", 16),
                                         ("(sites Board Edge)", 24)])
def test_sites_board_of_a_site_type_lists_that_types_indices(tmp_path, region, size):
    # A 3x3 board of cells has 16 vertices and 24 edges; Ludii's region holds their indices.
    for n, playable in ((size, True), (size + 1, False)):
        game = _load(tmp_path, play=f'(if (= {n} (count Sites in:{region})) '
                                    '(move Add (to (sites Empty))))')
        # Without a move, Ludii's player passes.
        assert (len(game.new_initial_state().legal_moves()) == 9) == playable


# -- a stack level's data outlives its piece (Ludii's ChunkStack) -------------------------

def test_a_level_keeps_the_data_of_the_piece_removed_from_it_by_level():
    s = StackSites(9, 9)
    s.add(0, 1, 1, 1)
    s.add(0, 2, 2, 1)
    s.set_field("state", 0, 2, 0)           # the bottom piece's state is 2
    s.move(0, 4, 1)                         # the top piece, taken by level, keeps its own
    s.move(0, 5, 0)                         # the bottom one too: level 0 is left with 2
    assert s.level(4)[2] == 0 and s.level(5)[2] == 2
    s.add(0, 1, 1, 1)                       # pushed without data: takes what level 0 kept
    assert s.level(0)[2] == 2


def test_a_top_piece_moved_or_removed_takes_or_leaves_no_data_of_its_own():
    s = StackSites(9, 9)
    s.add(0, 1, 1, 1, state=3)
    s.move(0, 1)                            # Ludii re-adds a moved top piece by what/owner
    assert s.level(1)[2] == 0
    s.set_field("state", 1, 3)
    s.remove(1)                             # removing the top piece clears its level
    s.add(1, 1, 1, 1)
    assert s.level(1)[2] == 0
    s.add(2, 1, 1, 1, state=3)              # data given is data kept
    assert s.level(2)[2] == 3


# -- a piece added to an occupied site: the site keeps its piece (Ludii's ActionAdd) -------

@pytest.mark.parametrize("second,who,count", [
    ('(place "Disc2" 4)', 1, 1),                # no counts kept: the count stays one
    ('(place "Disc2" 4 count:2)', 1, 3),        # a game that counts: the counts add up
    ('(place "Disc1" 4 count:2)', 1, 3)])
def test_a_piece_placed_on_an_occupied_site_leaves_its_piece_and_adds_to_its_count(
        tmp_path, second, who, count):
    s = _load(tmp_path, start=f'(place "Disc1" 4) {second}').new_initial_state()
    assert (s.who[4], s.what[4], s.count[4]) == (who, 1, count)


@pytest.mark.parametrize("count_from,count", [(1, 1), (0, 3)])
def test_the_compiled_add_keeps_an_occupied_sites_piece(count_from, count):
    import numpy as np
    from ludeme.engine.compiled import rt
    # count ends with the journal of the sites written (rt.JOURNAL_TAIL)
    who, what, counts = np.array([1, 0]), np.array([1, 0]), np.array([1, 0] + [0] * rt.JOURNAL_TAIL)
    rt.site_add(who, what, counts, count_from, 0, 2, 2, 2)     # two of piece 2 at site 0
    assert (who[0], what[0], counts[0]) == (1, 1, count)


# -- a slide walks each direction of its list, one two relative directions hold twice ----

@pytest.mark.parametrize("dirs,twice", [("(directions {Forwards Leftwards})", True),
                                        ("(directions {Forwards Rightwards})", False),
                                        ("(directions {N NW})", False)])
def test_a_slide_walks_a_direction_twice_when_two_relative_directions_hold_it(
        tmp_path, dirs, twice):
    game = _load(tmp_path, play="(forEach Piece)", start='(place "Disc1" 4)',
                 items=f'(piece "Disc" Each (move Slide {dirs}))')
    to_corner = [m for m in game.new_initial_state().legal_moves() if m.to == 6]
    assert len(to_corner) == (2 if twice else 1)       # 6 is north-west of the centre


# -- a question one move answers stops at that move (Ludii's movesIterator) --------------

STEPPER = '(piece "Disc" Each (move Step (to if:(is Empty (to)))))'


@pytest.mark.parametrize("play", [
    "(forEach Piece)", "(or (forEach Piece) (move Pass))", "(if (is Mover P1) (forEach Piece))",
    "(do (forEach Piece) ifAfterwards:(is Empty 7))",
    "(or {(forEach Piece Next) (forEach Piece) (move Pass)})"])
def test_moves_one_at_a_time_are_the_moves_in_their_order(tmp_path, play):
    from ludeme.model.ludemes.base import lazy_moves
    game = _load(tmp_path, play=play, items=STEPPER, start='(place "Disc1" 4) (place "Disc2" 0)')
    state = game.new_initial_state()
    gen = game.phases[0].play
    pairs = [(m.frm, m.to) for m in gen(state.ctx)]
    assert [(m.frm, m.to) for m in lazy_moves(gen)(state.ctx)] == pairs and pairs


def _copies_made(state, monkeypatch) -> int:
    """How many copies of the position making the legal moves takes."""
    from ludeme.engine.state import State
    made = []
    clone = State.clone
    monkeypatch.setattr(State, "clone", lambda s: made.append(1) or clone(s))
    state.legal_moves()
    return len(made)


@pytest.mark.parametrize("cond,copies", [("(is Empty 4)", 1), ("(is Occupied 4)", 8)])
def test_can_move_tests_moves_until_one_passes(tmp_path, monkeypatch, cond, copies):
    game = _load(tmp_path, items=STEPPER, start='(place "Disc1" 4)',
                 play=f"(if (can Move (do (forEach Piece) ifAfterwards:{cond})) (move Pass))")
    assert _copies_made(game.new_initial_state(), monkeypatch) == copies


@pytest.mark.parametrize("next_start,copies", [
    # the copy (no Moves Next) makes, P2's first step from 0 (of two), P1's 7 steps
    ('(place "Disc2" 0)', 1 + 1 + 7),
    # P2 is blocked: no candidate to copy, and P1 passes
    ('(place "Disc2" 0) (place "Disc1" {1 3})', 1),
])
def test_no_moves_next_tests_the_next_moves_until_one_passes(tmp_path, monkeypatch,
                                                              next_start, copies):
    # (no Moves Next) copies the position once, then P2's candidate moves are copied to
    # test ifAfterwards until one passes (Ludii's canMove), not all of them.
    play = "(if (no Moves Next) (move Pass) (do (forEach Piece) ifAfterwards:(is Empty 7)))"
    game = _load(tmp_path, items=STEPPER, start=f'(place "Disc1" 4) {next_start}', play=play)
    assert _copies_made(game.new_initial_state(), monkeypatch) == copies


# -- a removal empties a site whatever its count, a hand's too (ContainerFlatState.remove) --

@pytest.mark.parametrize("then,left", [("(remove (handSite P1))", 0),
                                       ("(remove (handSite P1) count:2)", 0), ("", 3)])
def test_a_removal_empties_a_hand(tmp_path, then, left):
    play = f"(move Add (to (sites Empty)) (then {then}))" if then else "(move Add (to (sites Empty)))"
    game = _load(tmp_path, play=play, items='(piece "Disc" Each) (hand Each)',
                 start='(place "Disc1" (handSite P1) count:3)')
    state = game.new_initial_state()
    state.apply(state.legal_moves()[0])
    assert state.count[9] == left           # P1's hand: the site after the board's nine


# -- a site past the last container reads as empty (Ludii's ChunkSet reads 0 there) -------

@pytest.mark.parametrize("play,moves", [
    ('(move (from 30) (to (sites Empty)))', 0),
    ('(or (move (from 30) (to (sites Empty))) (move Add (to (sites Empty))))', 9),
    ('(move Add (to (sites Empty)) (then (fromTo (from 30) (to 0))))', 9)])
def test_no_move_from_a_site_past_the_last_container(tmp_path, play, moves):
    state = _load(tmp_path, play=play).new_initial_state()
    legal = [m for m in state.legal_moves() if m.frm >= 0]
    assert len(legal) == moves
    for m in legal:
        after = state.clone()
        after.apply(m)
        assert sum(after.count[:9]) == 1


# -- (size Territory <role>) -------------------------------------------------------------

@pytest.mark.parametrize("start,p1,p2", [
    ("", 9, 9),                                             # one empty area, seeing no one
    ('(place "Disc1" (sites {0 1 2 3 5 6 7 8}))', 1, 0),    # the centre is P1's eye
    ('(place "Disc1" 0) (place "Disc2" 8)', 0, 0),          # the area sees both players
])
def test_size_territory_counts_empty_areas_bordered_by_the_player(tmp_path, start, p1, p2):
    for role, size in (("P1", p1), ("P2", p2)):
        for n, holds in ((size, True), (size + 1, False)):
            game = _load(tmp_path, start=start, play=f'(if (= {n} (size Territory {role})) '
                                                     '(move Add (to (sites Empty))))')
            moves = game.new_initial_state().legal_moves()
            assert (not moves[0].is_pass) == holds, (role, n)


def test_size_territory_refuses_another_site_type(tmp_path):
    with pytest.raises(LudemeError, match="not supported yet"):
        _load(tmp_path, play='(if (= 0 (size Territory Vertex P1)) (move Pass))')


# -- (fromTo ... stack:True) ----------------------------------------------------------------

@pytest.mark.parametrize("count,left,moved", [("", 0, 3), ("count:2", 1, 2), ("count:1", 2, 1)])
def test_from_to_stack_moves_the_stack_or_its_top_levels(tmp_path, count, left, moved):
    game = _load(tmp_path, start='(place Stack "Disc1" 0 count:2) (place Stack "Disc2" 0)',
                 play='(move Select (from 0) (then (fromTo (from (last To)) (to 4) '
                      f'{count} stack:True)))')
    s = game.new_initial_state()
    s.apply(s.legal_moves()[0])
    assert (s.size_stack(0), s.size_stack(4)) == (left, moved)
    assert s.who[4] == 2                        # the top piece stays on top


# -- (move Slide ... stack:True) ------------------------------------------------------------

@pytest.mark.parametrize("stack,left,moved", [("stack:True", 0, 3), ("", 2, 1)])
def test_slide_with_stack_moves_the_whole_stack(tmp_path, stack, left, moved):
    game = _load(tmp_path, start='(place Stack "Disc1" 0 count:3)',
                 play=f'(move Slide (from 0) E {stack})')
    s = game.new_initial_state()
    s.apply(next(m for m in s.legal_moves() if m.to == 2))
    assert (s.size_stack(0), s.size_stack(2)) == (left, moved)


def test_slide_along_a_track_with_stack_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="stack:True"):
        _load(tmp_path, play='(move Slide (from 0) "AllTracks" stack:True)')


# -- (is Blocked ...) ---------------------------------------------------------------------

@pytest.mark.parametrize("middle,blocked", [("3 4 5", True), ("3 4", False), ("", False)])
def test_is_blocked_when_no_path_of_own_or_empty_sites_joins_the_regions(
        tmp_path, middle, blocked):
    # P1 owns the top and bottom rows; P2's pieces across the middle row cut every path.
    items = '(piece "Disc" Each) (regions P1 {(sites Top) (sites Bottom)})'
    start = f'(place "Disc2" (sites {{{middle}}}))' if middle else ""
    for condition, holds in (("(is Blocked P1)", blocked), ("(is Blocked 1 P1)", False),
                             ("(is Blocked {(sites {0}) (sites {8})})", blocked)):
        game = _load(tmp_path, items=items, start=start,
                     play=f'(if {condition} (move Add (to (sites Empty))))')
        moves = game.new_initial_state().legal_moves()
        assert (not moves[0].is_pass) == holds, condition


# -- (leap ...) as an effect --------------------------------------------------------------

@pytest.mark.parametrize("start,reached", [("", 2), ('(place "Disc2" 5)', 1)])
def test_leap_effect_gives_the_sites_a_knight_reaches(tmp_path, start, reached):
    # From a corner of a 3x3 board a knight reaches two sites; an occupied one is not empty.
    sites = '(sites To (leap (from 0) {{F F R F} {F F L F}} (to if:(is Empty (to)))))'
    for n, holds in ((reached, True), (reached + 1, False)):
        game = _load(tmp_path, start=start, play=f'(if (= {n} (count Sites in:{sites})) '
                                                 '(move Add (to (sites Empty))))')
        moves = game.new_initial_state().legal_moves()
        assert (not moves[0].is_pass) == holds, n


# -- (id "Name" <role>) as Ludii's Id: by owner and part of the name, -1 when none -----

@pytest.mark.parametrize("expr,value", [
    ('(id "Disc" P2)', 2), ('(id "Disc" Mover)', 1), ('(id "isc" Next)', 2),
    ('(id "Disc2")', 2), ('(id "Ghost")', -1), ('(id "Ghost" Mover)', -1),
    ('(id "Ghost" P1)', -1), ('(id "Disc" Each)', -1), ('(id "Disc" P9)', -1)])
def test_id_of_a_piece_and_of_a_name_no_piece_has(tmp_path, expr, value):
    # A description may name a piece it lacks in a branch that never runs: Ludii loads it.
    _evaluates_to(tmp_path, expr, value)


@pytest.mark.parametrize("expr,value", [('(id "Dot0" Neutral)', 3), ('(id "Dot" Neutral)', 3),
                                        ('(id "Dot" P1)', -1)])
def test_id_of_a_neutral_piece_answers_to_its_name_with_0(tmp_path, expr, value):
    _evaluates_to(tmp_path, expr, value, items='(piece "Disc" Each) (piece "Dot" Neutral)')


@pytest.mark.parametrize("queen,what", [('(piece "Queen" Each)', 3), ("", 1)])
def test_promote_to_an_id_no_piece_has_adds_no_move_and_a_map_drops_the_pair(
        tmp_path, queen, what):
    game = _load(tmp_path, items=f'(piece "Disc" Each) {queen} (map "M" {{(pair (id "Ghost" P1) 4) '
                                 '(pair 1 (id "Ghost" P2)) (pair 2 5)})',
                 play='(if (= 5 (mapEntry "M" 2)) (move Add (to (sites Empty)) (then '
                      '(promote (last To) (piece (id "Queen" Mover))))))')
    s = game.new_initial_state()
    s.apply(s.legal_moves()[0])
    assert [st[0][0] for st in (s.stack(site) for site in range(9)) if st] == [what]


# -- (map ["Name"] {keys} {values}), Ludii's second Map constructor, and (mapEntry ...) ---

@pytest.mark.parametrize("items,expr,value", [
    ('(map "M" {0..2} {5 6 7})', '(mapEntry "M" 1)', 6),
    ('(map {0..2} {5 6 7})', '(mapEntry 2)', 7),
    ('(map "M" {3 4} {(+ 1 1) 8})', '(mapEntry "M" 3)', 2),
    ('(map "M" {0..2} {5 6 7})', '(mapEntry "M" 8)', 8),      # a key not in it: itself
    ('(map "M" {(pair 1 0)})', '(mapEntry "M" 1)', 0),
    # Ludii's MapEntry: a name no map has gives the key, as does a game without maps;
    # without a name every map is asked in turn; a map without a name is "Map"
    ('(map "M" {(pair 1 6)})', '(mapEntry "Other" 1)', 1),
    ('', '(mapEntry "M" 3)', 3),
    ('(map "A" {(pair 1 6)}) (map "B" {(pair 2 7)})', '(mapEntry 2)', 7),
    ('(map {(pair 1 6)})', '(mapEntry "Map" 1)', 6)])
def test_map_and_map_entry(tmp_path, items, expr, value):
    _evaluates_to(tmp_path, expr, value, items=f'(piece "Disc" Each) {items}')


def test_map_with_more_keys_than_values_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="as many keys as values, found 3 keys and 2"):
        _load(tmp_path, items='(piece "Disc" Each) (map {0..2} {5 6})')


# -- (move Hop (from <region>)) starts from (from), as Ludii's Hop --------------------------

@pytest.mark.parametrize("frm", ["(from (sites {4}))", "(from (sites Occupied by:Mover))",
                                 "(from)", ""])
def test_hop_from_a_region_starts_from_the_iterated_site(tmp_path, frm):
    game = _load(tmp_path, start='(place "Disc1" 0) (place "Disc2" 1)',
                 play=f'(forEach Piece (move Hop {frm} Orthogonal (between if:(is Enemy '
                      '(who at:(between)))) (to if:(is Empty (to)))))')
    assert [(m.frm, m.to) for m in game.new_initial_state().legal_moves()] == [(0, 2)]


# -- a region no (regions ...) declares has no sites, as Ludii's SitesEquipmentRegion ----

@pytest.mark.parametrize("regions,region,size", [
    ('', '(sites "Ghost")', 0), ('(regions P1 {1 2})', '(sites Mover "Ghost")', 0),
    ('(regions "Home" P1 {1 2})', '(sites Mover "Ho")', 2),
    ('(regions "A" (sites "Ghost"))', '(sites "A")', 0),
    ('(regions "C" (sites "A")) (regions "A" (sites "Ghost"))', '(sites "C")', 0)])
def test_a_region_named_but_never_declared_has_no_sites(tmp_path, regions, region, size):
    _evaluates_to(tmp_path, f"(count Sites in:{region})", size,
                  items=f'(piece "Disc" Each) {regions}')


# -- a player word beyond the player count, where a number is read, is that number -------

@pytest.mark.parametrize("cond,holds", [("(is Mover P3)", False), ("(= 5 P5)", True),
                                        ("(is Mover P1)", True), ("(= 16 P16)", True)])
def test_a_player_the_game_lacks_reads_as_its_number(tmp_path, cond, holds):
    # Ludii's RoleType.toIntFunction: Pi is i in a game of any number of players.
    game = _load(tmp_path, play=f'(if {cond} (move Add (to (sites Empty))))')
    assert (len(game.new_initial_state().legal_moves()) == 9) == holds


def test_a_piece_for_a_player_the_game_lacks_is_still_refused(tmp_path):
    with pytest.raises(LudemeError, match="P3 does not exist in a 2-player game"):
        _load(tmp_path, items='(piece "Disc" P3)')


# -- (promote ... (piece "Name")) of a piece the game lacks loads, and stops if it happens --

@pytest.mark.parametrize("role", ["Mover", ""])
def test_promote_to_a_name_no_piece_has_stops_only_when_it_happens(tmp_path, role):
    promote = f'(promote (last To) (piece "Ghost") {role})'
    game = _load(tmp_path, play=f'(move Add (to (sites Empty)) (then (if (= 0 (last To)) '
                                f'{promote})))')
    s = game.new_initial_state()
    s.apply(next(m for m in s.legal_moves() if m.to == 1))      # the branch not taken
    with pytest.raises(LudemeError, match="no piece called 'Ghost' to promote to"):
        s.apply(next(m for m in s.legal_moves() if m.to == 0))


# -- a label no site has: left out of (sites {...}), Off for (coord ...), as in Ludii ------

@pytest.mark.parametrize("expr,value", [
    ('(count Sites in:(sites {"A1" "Z9" "C3"}))', 2), ('(count Sites in:(sites {"Z9"}))', 0),
    ('(coord "Z9")', -1), ('(coord "B1")', 1)])
def test_a_label_no_site_has(tmp_path, expr, value):
    _evaluates_to(tmp_path, expr, value)


# -- (board ... largeStack:True) -----------------------------------------------------------

@pytest.mark.parametrize("large", ["largeStack:True", "largeStack:False", ""])
def test_a_stack_grows_past_32_levels(tmp_path, large):
    # Ludii needs largeStack:True for stacks above 32; ours have no height limit either way.
    f = tmp_path / "g.lud"
    f.write_text(f'(game "g" (players 2) (equipment {{(board (square 3) {large}) '
                 '(piece "Disc" Each)}) (rules (play (move Add (to 4) stack:True)) '
                 '(end (if (= 40 (size Stack at:4)) (result Mover Win)))))')
    state = load(f).new_initial_state()
    for _ in range(40):
        state.apply(state.legal_moves()[0])
    assert state.is_terminal() and state.size_stack(4) == 40


# -- corpus games these ludemes unlocked --------------------------------------------------

CORPUS = ["board_race_reach_Es-Sig", "board_race_reach_Sig_wa_Duqqan_(Houmt_al-Arbah)",
          "board_space_connection_Bipartisan_Y",
          "board_war_replacement_checkmate_chaturanga_Persian_Chess_with_a_Queen",
          "board_war_replacement_eliminate_all_Tank_Tactics",
          # (sites Board Vertex) on boards played on edges, and Puluc's stack levels
          "board_race_reach_Tasholiwe", "board_war_replacement_eliminate_all_A_Kaakil",
          "board_war_replacement_eliminate_all_Aj_Sakakil",
          "board_war_replacement_eliminate_all_Aj_Sayil",
          "board_war_replacement_eliminate_all_Aj_Tiwil",
          "board_war_replacement_eliminate_all_Boolik",
          "board_war_replacement_eliminate_all_Puluc",
          # (size Territory ...)
          "board_space_territory_Mig_Mang", "board_space_territory_Weiqi",
          "reconstruction_done_board_space_territory_Yi",
          # (fromTo ... stack:True)
          "board_race_escape_Thaayam", "board_space_territory_Lava",
          # (is Blocked ...)
          "board_space_connection_Three-Player_Hex",
          # (leap ...) as an effect
          "board_race_reach_Football_Chess",
          # (id ...) of a piece the game lacks; a define named as the game
          "board_war_replacement_checkmate_chaturanga_Hindustani_Chess",
          "board_war_replacement_checkmate_shogi_Tai_Shogi",
          # (map {keys} {values})
          "board_space_line_Ultimate_Tic-Tac-Toe",
          # (move Hop (from <region>)); (mapEntry ...) of a map the game lacks
          "board_war_replacement_eliminate_all_Tibetan_Jiuqi",
          "board_war_replacement_eliminate_all_Udat_Pagada",
          # labels no site has
          "board_war_leaping_lines_Terhuchu",
          "reconstruction_done_board_war_leaping_lines_Smasandyutakankarikrida_(Allahabad)",
          "board_war_replacement_eliminate_all_Tab",
          # merge of shifted boards within a float's 0.01; a piece placed on another
          "reconstruction_done_board_hunt_Ijil_Buga", "reconstruction_done_board_hunt_Ikh_Buga",
          # (forEach Group ...) and (sites); with (count Value ...) and (forget Value All)
          "board_space_group_Elea", "board_space_group_Meridians", "board_space_group_Brood",
          "board_space_group_Manifold",
          # hidden information; (note player:...)
          "board_race_reach_Sneakthrough", "board_war_replacement_checkmate_chess_Beirut_Chess",
          "board_space_territory_Phantom_Go", "board_war_replacement_eliminate_target_Lattaque",
          # count Steps once per site; (no Moves Next) stopping at a first move
          "board_war_replacement_checkmate_chaturanga_Qatranj",
          # (move Set Rotation): pieces turned, their relative directions with them
          "board_war_replacement_eliminate_target_Ploy",
          # (take Control ...); a copy carries the piece's state and value
          "board_war_replacement_eliminate_target_Mini_Wars",
          # (sites Pattern); a define's parameter inside a string; (hex a b)
          "board_space_territory_Stargazers",
          # (difference <dirs> Diagonal) on a board drawn as lines
          "board_war_leaping_lines_Crand"]


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_games_agree_with_ludii(refdata, ludii, name):
    assert_corpus_trace_agrees(refdata, ludii, name)


# -- (count Steps <relation> (step ...) ...): the step alone walks (Ludii's CountSteps) -----

@pytest.mark.parametrize("expr,value", [
    # Adjacent steps on a square board go diagonally: the relation beside a step is unread.
    ("(count Steps Orthogonal (step (to if:(is Empty (to)))) 0 8)", 2),
    ("(count Steps (step Orthogonal (to if:(is Empty (to)))) 0 8)", 4),
    # No site to reach: 0 before any walk (Infinity only when the sites are out of reach).
    ("(count Steps (step (to if:True)) 0 (sites Occupied by:P1))", 0),
    ("(count Steps (step (to if:False)) 0 (sites {8}))", 1_000_000_000),
])
def test_count_steps_by_a_step(tmp_path, expr, value):
    _evaluates_to(tmp_path, expr, value)


# -- (value Piece ...) reads a flat site's value, a piece there or not ---------------------

@pytest.mark.parametrize("expr,value", [("(value Piece at:4)", 0), ("(value Piece at:Off)", 0)])
def test_value_piece_of_an_empty_site_or_off_is_0(tmp_path, expr, value):
    _evaluates_to(tmp_path, expr, value)


@pytest.mark.parametrize("added_value,kept", [(0, 5), (3, 3)])
def test_a_piece_added_keeps_the_value_set_on_its_empty_site(added_value, kept):
    s = FlatSites(9, 9)
    s.set_field("value", 4, 5)             # Ludii's (set Value at:4 5) on an empty site
    s.add(4, 1, 1, 1, value=added_value)   # a value not given (0) leaves the site's
    assert s.value[4] == kept


# -- (move Slide ... (to <sites>)): Ludii's Slide never reads the sites of its (to) -------

@pytest.mark.parametrize("to", ["", "(to (sites {1}))", "(to (sites Empty))"])
def test_a_slide_ignores_the_sites_of_its_to(tmp_path, to):
    game = _load(tmp_path, play=f'(move Slide (from 0) Orthogonal {to})')
    assert sorted(m.to for m in game.new_initial_state().legal_moves()) == [1, 2, 3, 6]


# -- (move Step ... (to <sites>)) and a walk's (step (to <sites>)): the sites are never read --

@pytest.mark.parametrize("to", ["(to if:(is Empty (to)))", "(to (sites {1}) if:(is Empty (to)))"])
def test_a_step_ignores_the_sites_of_its_to(tmp_path, to):
    game = _load(tmp_path, play=f'(move Step (from 0) Orthogonal {to})')
    assert sorted(m.to for m in game.new_initial_state().legal_moves()) == [1, 3]


@pytest.mark.parametrize("step", ["(step Orthogonal (to if:True))",
                                  "(step Orthogonal (to (sites {1}) if:True))"])
def test_a_walk_ignores_the_sites_of_its_steps_to(tmp_path, step):
    _evaluates_to(tmp_path, f"(count Sites in:(sites Distance {step} from:0 (range 1 2)))", 5)


# -- (sites (values Remembered)): Ludii's int array made a set, each site once -------------

@pytest.mark.parametrize("remembered,adds", [("(remember Value 4) (remember Value 4)", 1),
                                             ("(remember Value 4) (remember Value 5)", 2)])
def test_sites_of_remembered_values_hold_each_site_once(tmp_path, remembered, adds):
    game = _load(tmp_path, play='(or (move Add (to (intersection (sites {0}) (sites Empty))) '
                                f'(then (and {remembered}))) '
                                '(move Add (to (sites (values Remembered)))))')
    s = game.new_initial_state()
    s.apply(s.legal_moves()[0])                 # the first add remembers the values
    assert len(s.legal_moves()) == adds


# -- (move Slide (from ... if:...)): tested once, with (from) on the start site ------------

@pytest.mark.parametrize("cond,moves", [("(is Empty 4)", 4), ("(is Occupied 4)", 0),
                                        ("(= (from) 0)", 4), ("(= (from) 1)", 0)])
def test_a_slide_from_a_site_that_fails_its_from_condition_has_no_move(tmp_path, cond, moves):
    game = _load(tmp_path, play=f'(move Slide (from 0 if:{cond}) Orthogonal)')
    # without a slide the player passes
    assert len([m for m in game.new_initial_state().legal_moves() if m.to >= 0]) == moves


# -- (sites Occupied ...) follows the position, move after move ---------------------------

@pytest.mark.parametrize("kinds", ['', 'component:"Disc"', 'components:{"Disc" "Other"}'])
def test_sites_occupied_follows_the_position_move_after_move(tmp_path, kinds):
    # Each add sees the previous one.
    game = _load(tmp_path, items='(piece "Disc" Each) (piece "Other" Each)',
                 play=f'(if (= (count Sites in:(sites Occupied by:All {kinds})) (count Moves)) '
                      '(move Add (piece (id "Disc" Mover)) (to (sites Empty))))')
    s = game.new_initial_state()
    for _ in range(4):
        moves = s.legal_moves()
        assert len(moves) == 9 - s.num_moves
        s.apply(moves[0])


@pytest.mark.parametrize("by, count", [("All", 3), ("Each", 1), ("Shared", 1), ("Neutral", 1)])
def test_sites_occupied_by_all_counts_every_owner(tmp_path, by, count):
    # As Ludii's PlayersIndices: All is the players, the neutral owner and the shared one.
    for n, holds in ((count, True), (count + 7, False)):
        game = _load(tmp_path, items='(piece "Disc" Each) (piece "Marker" Shared) '
                                     '(piece "Stone" Neutral)',
                     start='(place "Disc1" 0) (place "Marker" 1) (place "Stone" 2)',
                     play=f'(if (= {n} (count Sites in:(sites Occupied by:{by}))) '
                          '(move Add (to (sites Empty))))')
        assert (len(game.new_initial_state().legal_moves()) == 6) == holds


# -- (place "Item" {<int function> ...}): the sites of their values, read before play -------

@pytest.mark.parametrize("sites,occupied", [("{0 (+ 1 1)}", [0, 2]),
                                            ("{(- 9 1) (* 2 2) 8}", [4, 8])])
def test_place_on_sites_given_by_int_functions(tmp_path, sites, occupied):
    s = _load(tmp_path, start=f'(place "Disc1" {sites})').new_initial_state()
    assert [site for site in range(9) if s.what[site]] == occupied
