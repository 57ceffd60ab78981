"""Board queries, scores and the start: centrePoint, count Rows/Columns, (value), sites Start,
where, is Full, the start (set Score ...), set Counter/counter, Ludii's site numbering
of the hands after a board of vertices, is Flat and layer on pyramidal boards, and while."""

from __future__ import annotations

import pytest

from ludeme.model.build import build_game
from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description


def _game(start: str = "", play: str = "(move Add (to (sites Empty)))",
          board: str = "(board (square 3))", extra: str = "", end: str = ""):
    text = (f'(game "T" (players 2) (equipment {{ {board} (piece "Disc" Each) '
            f'(piece "King" Each) {extra} }}) (rules (start {{ {start} }}) (play {play}) {end}))')
    return build_game(expand(load_description("t.lud", text)))


def _sites(state, what):
    return [s for s, w in enumerate(state.what) if w == what]


@pytest.mark.parametrize("board, hand_from", [
    ("(board (square 3))", 9),                                      # 9 cells
    ("(board (square 3) use:Vertex)", 9),                           # 9 vertices > 4 cells
    ("(board (square 5 diagonals:Alternating) use:Vertex)", 32),    # 25 vertices < 32 cells
    ("(board (square 3 diagonals:Solid) use:Vertex)", 16),          # 13 vertices < 16 cells
])
def test_hands_follow_the_larger_of_cells_and_default_sites(board, hand_from):
    game = _game('(place "Disc1" (handSite P1) count:2)', board=board, extra="(hand Each)")
    assert [c.sites_from for c in game.containers[1:]] == [hand_from, hand_from + 1]
    assert game.new_initial_state(0).count[hand_from] == 2


def test_a_vertex_board_with_more_cells_than_vertices_leaves_a_gap():
    # Alquerque's lines: 25 vertices, 32 triangles -> the hands from 32, sites 25-31 unused.
    game = _game('(place "Disc1" (handSite P1) count:1)',
                 board="(board (square 5 diagonals:Alternating) use:Vertex)", extra="(hand Each)",
                 play="(move (from (handSite P1)) (to (sites Empty)))")
    board = game.board
    assert board.num_cells > board.num_sites
    assert game.containers[1].sites_from == board.num_cells
    state = game.new_initial_state(0)
    assert {m.frm for m in state.legal_moves()} == {board.num_cells}


@pytest.mark.parametrize("start, expected", [
    ('(place "Disc1" (centrePoint))', [4]),
    ('(place "Disc1" (sites Row (- (count Rows) 1)))', [6, 7, 8]),
    ('(place "Disc1" (sites Column (- (count Columns) 2)))', [1, 4, 7]),
    ('(place "King1" 0) (place "Disc1" (sites Empty))', [1, 2, 3, 4, 5, 6, 7, 8]),
])
def test_start_rules(start, expected):
    state = _game(start).new_initial_state(0)
    assert _sites(state, 1) == expected


def test_value_is_the_iterated_value():
    game = _game(play="(forEach Value min:2 max:4 (move Add (to (value))))")
    assert sorted(m.to for m in game.new_initial_state(0).legal_moves()) == [2, 3, 4]


def test_sites_start_is_where_the_kind_stood_after_the_start():
    play = '(move Remove (sites Start (piece (id "Disc" Mover))))'
    game = _game('(place "Disc1" {0 2}) (place "Disc2" 8)', play=play)
    state = game.new_initial_state(0)
    assert sorted(m.to for m in state.legal_moves()) == [0, 2]
    state.apply(next(m for m in state.legal_moves() if m.to == 0))
    assert [m.to for m in state.legal_moves()] == [8]
    state.apply(state.legal_moves()[0])
    assert [m.to for m in state.legal_moves()] == [2]     # 0 is empty now; 8 is not P1's


@pytest.mark.parametrize("play_end, winner", [
    ('(end (if (= (where "King" P1) 4) (result P1 Win)))', 1),
    ('(end (if (= (where "King" P2) -1) (result P2 Win)))', 2),
    ('(end (if (= (where (id "Disc" P1)) 0) (result P1 Win)))', 1),
])
def test_where(play_end, winner):
    # The first move adds a Disc of player 1 on site 0.
    game = _game('(place "King1" 4) (place "Disc1" {1 3})', end=play_end)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.is_terminal() and state.winner == winner


@pytest.mark.parametrize("start, site", [
    ('(place "King1" 4) (place "King1" (handSite P1))', 4),
    ('(place "King1" (handSite P1))', -1),
    ('(place "King2" 2) (place "King1" 7)', 7),
])
def test_where_looks_at_the_board_only(start, site):
    # Ludii's Where reads the board container's sites: a king in the hand is not one.
    end = f'(end (if (= (where "King" P1) {site}) (result P2 Win)))'
    game = _game(start, extra="(hand Each)", end=end)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.is_terminal() and state.winner == 2


@pytest.mark.parametrize("board, extra, move, site", [
    # Ludii keeps a list of each kind's sites: the discs placed on 1, 3, 5 in that order.
    # A game of cells only (FlatCellOnlyOwned): a site leaves its list by a swap with the
    # last, then the disc joins at the end, [1 3 5] -> [5 3] -> [5 3 8]
    ("(board (square 3))", "", "(move (from 1) (to 8))", 5),
    # so does a disc taken by another's piece: [1 3 5] -> [5 3]
    ("(board (square 3))", "", "(move (from 7) (to 1))", 5),
    # a game of vertices and cells (a hand: FullOwned) keeps the order, [3 5 8]
    ("(board (square 3) use:Vertex)", "(hand Each)", "(move (from 1) (to 8))", 3),
    ("(board (square 3) use:Vertex)", "(hand Each)", "(move (from 7) (to 1))", 3),
])
def test_where_answers_in_the_order_of_ludiis_list_of_owned_pieces(board, extra, move, site):
    game = _game('(place "Disc1" {1 3 5}) (place "Disc2" 7)', play=move, board=board,
                 extra=extra, end=f'(end (if (= (where "Disc" P1) {site}) (result P2 Win)))')
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.is_terminal() and state.winner == 2


def test_where_with_a_piece_on_several_sites_of_a_stacking_game_is_refused_while_playing():
    # Ludii's lists of a stacking game of several site types (vertices, a hand's cells:
    # FullOwned) shift levels across the types: not kept here (tests/test_stack_owned.py
    # for the lists kept)
    game = _game('(place Stack "Disc1" 1) (place Stack "Disc1" 3)',
                 play="(move Add (to (sites Empty)) stack:True)",
                 board="(board (square 3) use:Vertex)", extra="(hand Each)",
                 end='(end (if (= (where "Disc" P1) 1) (result P1 Win)))')
    state = game.new_initial_state(0)
    with pytest.raises(LudemeError, match="several sites"):
        state.apply(state.legal_moves()[0])


@pytest.mark.parametrize("start", [
    '(place Stack "Disc2" 4) (place Stack "King1" 4)',     # the king on top
    '(place Stack "King1" 4) (place Stack "Disc2" 4)',     # the king under a disc
])
def test_where_reads_every_level_of_a_stack(start):
    game = _game(start, play="(move Add (to (sites Empty)) stack:True)",
                 end='(end (if (= (where "King" P1) 4) (result P1 Win)))')
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.is_terminal() and state.winner == 1


@pytest.mark.parametrize("start, top", [
    ('(place Stack "Disc2" 0) (place Stack "Disc1" 0)', "Disc1"),   # the mover's piece on top
    ('(place Stack "Disc1" 0) (place Stack "Disc2" 0)', "Disc2"),   # another player's on top
])
def test_a_move_out_of_a_stack_moves_the_top_piece_and_reports_no_level(start, top):
    """Ludii 1.3.12's FromTo records no level for one piece (its traces report level 0 out
    of stacks on cells, vertices and edges), whoever's piece is on top."""
    game = _game(start, play="(move (from 0) (to 1))")
    state = game.new_initial_state(0)
    moves = state.legal_moves()
    assert [(m.level_from, m.level_to) for m in moves] == [(0, 0)]
    state.apply(moves[0])
    assert game.components[state.what[1]].name == top and state.size_stack(0) == 1


@pytest.mark.parametrize("board, sites", [
    ("(board (square 3))", 9),
    ("(board (square 3) use:Vertex)", 9),       # Ludii reads the empty vertices there
    ("(board (square 2) use:Edge)", 4),
])
def test_is_full_ends_a_filled_board(board, sites):
    game = _game(end="(end (if (is Full) (result Mover Draw)))", board=board)
    state = game.new_initial_state(0)
    for _ in range(sites):
        assert not state.is_terminal()
        state.apply(state.legal_moves()[0])
    assert state.is_terminal()


def test_start_scores_and_the_counter():
    game = _game("(set Score Each 3) (set Score P2 (count Rows))",
                 play="(move Add (to (sites Empty)) (then (if (= (counter) 1) (set Counter))))")
    state = game.new_initial_state(0)
    assert state.scores[1:] == [3, 3] and state.num_start_moves == 3   # Each: one per player
    assert state.counter == -1
    counters = []
    for _ in range(4):
        state.apply(state.legal_moves()[0])
        counters.append(state.counter)
    assert counters == [0, 1, 0, 1]     # reset to -1 after reaching 1, then +1


@pytest.mark.parametrize("by_score, ranking, winner", [
    ("(byScore)", [2.5, 1.0, 2.5], 2),                  # highest first, ties share ranks
    ("(byScore misere:True)", [1.5, 3.0, 1.5], 0),      # lowest first: no rank 1, no winner
    ("(byScore {(score P2 1)} misere:True)", [2.5, 1.0, 2.5], 2),
])
def test_by_score_ranks_the_scores(by_score, ranking, winner):
    text = ('(game "T" (players 3) (equipment { (board (square 3)) (piece "Disc" Each) }) '
            '(rules (start { (set Score P1 2) (set Score P2 5) (set Score P3 2) }) '
            f'(play (move Pass)) (end (if (= 1 1) {by_score}))))')
    state = build_game(expand(load_description("t.lud", text))).new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.is_terminal()
    assert (state.ranking[1:], state.winner) == (ranking, winner)


@pytest.mark.parametrize("start, play, board, message", [
    ("", "(move Add (to (sites Direction N)))", "(board (square 3))", "needs from:"),
    ('(place "Disc1" (where "King"))', "(move Add (to (sites Empty)))", "(board (square 3))",
     "needs the player"),
])
def test_refused(start, play, board, message):
    with pytest.raises(LudemeError, match=message):
        _game(start, play, board=board)


def test_a_centre_point_of_another_site_type_is_an_index_like_any_other():
    # (centrePoint Vertex) of a 3x3 board of cells is the first of the four vertices nearest
    # the centre, 5 of 16; a place on the board's cells takes that number as a cell.
    state = _game('(place "Disc1" (centrePoint Vertex))').new_initial_state(0)
    assert state.board_view()["what"][5] == 1 and sum(map(bool, state.board_view()["what"])) == 1


def test_place_state_sets_the_pieces_local_state():
    state = _game('(place "Disc1" {0 1} state:2)').new_initial_state(0)
    assert [state.piece_state(s) for s in (0, 1, 2)] == [2, 2, 0]


@pytest.mark.parametrize("regions, sites, expected", [
    # a region may name one declared after it
    ('(regions "Outer" P1 (difference (sites Board) (sites P1 "Inner"))) '
     '(regions "Inner" P1 (sites Centre))', '(sites P1 "Outer")', [0, 1, 2, 3, 5, 6, 7, 8]),
    # with a player: that player's regions whose name contains the name
    ('(regions "Left1" P1 (sites {0 3})) (regions "Left2" P2 (sites {2 5}))', '(sites P2 "Left")',
     [2, 5]),
    # without one: every region of that name, whoever owns it
    ('(regions "Home" P1 (sites {0})) (regions "Home" P2 (sites {8}))', '(sites "Home")', [0, 8]),
])
def test_named_regions(regions, sites, expected):
    game = _game(extra=regions, play=f"(move Add (to {sites}))")
    assert sorted(m.to for m in game.new_initial_state(0).legal_moves()) == expected


def test_is_line_whats_counts_any_of_the_kinds():
    end = '(end (if (is Line 3 whats:{(id "Disc" P1) (id "King" P1)}) (result P1 Win)))'
    game = _game('(place "Disc1" 0) (place "King1" 1)', end=end,
                 play="(move Add (to 2))")
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.is_terminal() and state.winner == 1


def test_an_applied_effect_keeps_its_consequents():
    # Ludii applies the effect in (apply ...) as a move of its own: its (then ...) runs
    # right after it, before the step itself.
    play = ("(move Step (to if:True (apply (remove (to) (then (addScore Mover 1))))))")
    game = _game('(place "Disc1" 0) (place "Disc2" 1)', play=f"(forEach Piece {play})")
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if (m.frm, m.to) == (0, 1)))
    assert state.scores[1] == 1 and state.who[1] == 1


@pytest.mark.parametrize("pairs, expected", [
    ('(pair P1 (coord "C1")) (pair P2 (+ 3 3))', {1: 2, 2: 6}),
    ('(pair "A1" "C3") (pair "B2" P2)', {0: 8, 4: 2}),
    ('(pair 1 -1) (pair 2 5)', {2: 5}),                 # Ludii's computeMap drops a -1
])
def test_map_pairs(pairs, expected):
    game = _game(extra=f'(map "M" {{{pairs}}})')
    assert game.env.maps_named("M") == [expected]


@pytest.mark.parametrize("pairs, part", [
    ('(pair 1 (id "Disc" Mover))', "value"),
    ('(pair (id "Disc" Mover) 1)', "key"),
])
def test_a_map_entry_read_from_the_position_is_refused_where_written(pairs, part):
    """Ludii's Map.computeMap evaluates its pairs before play; one that reads the position
    (here the mover) is refused at its place, not an internal error."""
    with pytest.raises(LudemeError, match=f"a map's {part} read from the position") as e:
        _game(extra=f'(map "M" {{{pairs}}})')
    assert e.value.pos is not None and e.value.pos.line > 0


def test_a_map_names_a_neutral_piece_with_its_owner_number():
    """Ludii names (piece "Dot" Neutral) "Dot0", and a map's value may name it so."""
    game = _game(extra='(piece "Dot" Neutral) (map "M" {(pair 1 "Dot0") (pair 2 "Disc1")})')
    index = {comp.name: comp.index for comp in game.components[1:]}
    assert game.env.maps_named("M") == [{1: index["Dot"], 2: index["Disc1"]}]


def test_is_occupied_cell_reads_a_hand_on_a_vertex_board():
    play = ("(if (is Occupied Cell (handSite Mover)) (move (from (handSite Mover)) "
            "(to (sites Empty))) (move Pass))")
    game = _game('(place "Disc1" (handSite P1) count:1)', play=play,
                 board="(board (square 3) use:Vertex)", extra="(hand Each)")
    state = game.new_initial_state(0)
    assert len(state.legal_moves()) == 9
    state.apply(state.legal_moves()[0])
    assert [m.is_pass for m in state.legal_moves()] == [True]


def test_count_moves_in_a_consequent_counts_the_decision():
    # Ludii's Move.apply adds the decision to the trial before its consequents: the
    # second decision sees (count Moves) = 2 and the mover plays again.
    game = _game(play="(move Add (to (sites Empty)) (then (if (is Even (count Moves)) "
                      "(moveAgain))))")
    state = game.new_initial_state(0)
    movers = []
    for _ in range(5):
        movers.append(state.mover)
        state.apply(state.legal_moves()[0])
    assert movers == [1, 2, 2, 1, 1]


def test_sites_occupied_by_neutral_lists_no_empty_site():
    # Two neutral kinds, so that Ludii keeps pieces' indices (one neutral kind alone
    # would have its index read as its owner, which is refused).
    text = ('(game "T" (players 2) (equipment { (board (square 3)) (piece "Dot" Neutral) '
            '(piece "Ring" Neutral) }) (rules (start (place "Dot0" 4)) (play (move Add '
            '(piece "Dot0") (to (sites Empty) if:(= 1 (count Sites in:(sites Occupied '
            'by:Neutral)))))) ))')
    game = build_game(expand(load_description("t.lud", text)))
    assert len(game.new_initial_state(0).legal_moves()) == 8     # the one Dot, not 9 sites


@pytest.mark.parametrize("region, froms", [
    ("(sites Hand)", set()),             # Ludii's SitesHand without a player: no sites
    ("(sites Hand Mover)", {9}),
    ("(sites Hand P2)", {10}),
    ("(sites Hand Shared)", {9}),        # Shared: the first hand declared
])
def test_sites_hand_reads_its_player_as_ludii_does(region, froms):
    game = _game('(place "Disc1" (handSite P1) count:2) (place "Disc2" (handSite P2) count:2)',
                 play=f"(move (from {region}) (to (sites Empty)))", extra="(hand Each)")
    state = game.new_initial_state(0)
    legal = state.legal_moves()
    got = {m.frm for m in legal if not m.is_pass}
    assert got == froms                  # (move (from) (to)) checks no owner


def test_no_moves_next_inside_the_next_players_moves_is_false():
    # Ludii's NoMoves.autoFail: the rule below looks at the next player's moves, which
    # look at the next player's again... Ludii answers the inner question False.
    game = _game(play="(do (move Add (to (sites Empty))) ifAfterwards:(not (no Moves Next)))")
    state = game.new_initial_state(0)
    assert len(state.legal_moves()) == 9
    for _ in range(8):
        state.apply(state.legal_moves()[0])
    # one empty site left: after filling it the next player has no move, so it is refused
    # and the mover passes
    assert [m.is_pass for m in state.legal_moves()] == [True]


def _neutral_game(play: str):
    text = ('(game "T" (players 2) (equipment { (board (square 3)) (piece "Marker" Neutral) '
            '(piece "Disc" P1) }) (rules (start { (place "Marker0" 0) (place "Disc1" 1) }) '
            f'(play {play}) (end (if (is Full) (result Mover Win)))))')
    return build_game(expand(load_description("t.lud", text)))


@pytest.mark.parametrize("region, froms", [
    # Ludii's owned-pieces lists keep the component's owner: the marker is neutral...
    ("(sites Occupied by:Neutral)", {0}),
    ("(sites Occupied by:P1)", {1}),
    ("(sites Around 4 if:(is In (to) (sites Occupied by:Neutral)))", {0}),
    # ...while the site's `who` holds the marker's index, 1, as a player 1 piece would.
    ("(forEach (sites Board) if:(= (who at:(site)) 1))", {0}),
    ("(forEach (sites Board) if:(= (who at:(site)) 0))", set(range(2, 9))),
])
def test_a_board_without_item_indices_stores_the_index_as_who(region, froms):
    # Ludii's flat board without a `what` layer (no count, no state, no more kinds than
    # players) writes a piece's index into `who`: the neutral marker (index 1) reads 1
    # there, the disc (index 2, owner 1) reads 2; sites Occupied reads the owners.
    state = _neutral_game(f"(move Select (from {region}))").new_initial_state(0)
    assert state.who[:3] == [1, 2, 0] and state.what[:3] == [1, 2, 0]
    assert {m.frm for m in state.legal_moves() if not m.is_pass} == froms


@pytest.mark.parametrize("play", [
    "(if (= 0 (count Pieces P1)) (move Pass) (move Add (piece \"Marker0\") (to (sites Empty))))",
    "(if (no Pieces P1) (move Pass) (move Add (piece \"Marker0\") (to (sites Empty))))",
    "(forEach Piece)",
])
def test_readers_of_owners_and_who_together_are_refused_where_who_is_the_index(play):
    # Ludii's CountPieces crosses the owned lists with the sites' `who`; ForEachPiece gives
    # a piece of no player's (the marker) the site's.
    with pytest.raises(LudemeError, match="stores a piece's index as its owner"):
        _neutral_game(play)


def test_pieces_move_by_their_owner_where_who_is_the_index_and_hands_keep_the_owner():
    # Wolf und Schaaf: the sheep (index 1, P2's) and the wolf (index 2, P1's) on a board
    # that stores the index as `who`; the wolf leaves P1's hand, where Ludii's ActionMove
    # wrote its owner. ForEachPiece walks Ludii's owned lists (by the component's owner):
    # P2 moves the sheep, never the wolf whose `who` on the board reads 2.
    text = ('(game "T" (players 2) (equipment { (board (square 3)) (piece "Sheep" P2 (move '
            'Step N (to if:(is Empty (to))))) (piece "Wolf" P1 (move Step Diagonal (to if:(is '
            'Empty (to))))) (hand P1) }) (rules (start { (place "Wolf1" (handSite P1)) '
            '(place "Sheep2" {0 2}) }) (play (or (move (from (handSite P1)) (to (sites '
            'Empty))) (forEach Piece))) (end (if (no Moves Next) (result Mover Win)))))')
    game = build_game(expand(load_description("t.lud", text)))
    assert game.who_is_index
    state = game.new_initial_state(0)
    assert (state.who[0], state.who[9], state.what[9]) == (1, 1, 2)
    assert {m.frm for m in state.legal_moves()} == {9} and len(state.legal_moves()) == 7
    state.apply(next(m for m in state.legal_moves() if m.to == 4))
    assert (state.who[4], state.what[4], state.what[9]) == (2, 2, 0)
    assert sorted((m.frm, m.to) for m in state.legal_moves()) == [(0, 3), (2, 5)]


def _phase_game(end: str):
    text = ('(game "T" (players 2) (equipment { (board (square 1)) (piece "Disc" Each) }) '
            '(rules (start (place "Disc1" 0)) phases:{ (phase "Only" (play (move Add '
            f'(to (sites Empty)))) (end {end})) }} ))')
    return build_game(expand(load_description("t.lud", text)))


def test_the_all_pass_draw_follows_a_phases_end_rules():
    # Ludii checks it in End.eval, which a phase's (end ...) runs too.
    state = _phase_game("(if (= 1 2) (result Mover Win))").new_initial_state(0)
    for _ in range(2):
        state.apply(state.legal_moves()[0])          # a forced pass each
    assert state.is_terminal() and not state.winner and state.num_decisions == 2
    assert state.end_type not in ("TurnLimit", "MoveLimit")


def test_all_passed_in_the_rules_turns_the_all_pass_draw_off():
    # Ludii: (all Passed) sets NotAllPass, so the rules say what passing leads to.
    game = _phase_game("(if (all Passed) (result P2 Win))")
    assert game.requires_all_pass is False
    state = game.new_initial_state(0)
    for _ in range(2):
        state.apply(state.legal_moves()[0])
    assert state.winner == 2


@pytest.mark.parametrize("then, last_tos", [
    ("", [0]),                                                   # the decision's destination
    ("(then (add (to 4)))", [0, 4]),                             # and its consequents'
    ("(then (fromTo (from 0) (to 8)))", [0, 8]),
    ("(then (and (remove 0) (add (to 2))))", [0, 2]),            # each site once
    ('(then (fromTo (from 0) (to (handSite P1))))', [0]),        # board sites only
])
def test_sites_last_to_is_where_the_last_move_and_its_consequents_went(then, last_tos):
    play = (f"(if (is Mover P1) (move Add (to 0) {then}) "
            "(move Select (from (sites LastTo)) (then (remove (last To)))))")
    state = _game(play=play, extra="(hand Each)").new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert sorted(m.frm for m in state.legal_moves()) == last_tos


@pytest.mark.parametrize("to, moves, left", [
    # the effect goes in front of the placement, found with (to) on the site; over a region,
    # Ludii lists such a move twice (its Add adds it in chainRuleCrossProduct and again)
    ("(to (sites {0 1}) (apply (remove (+ (to) 3))))", [0, 0, 1, 1], [4]),
    ("(to 0 (apply (remove (+ (to) 3))))", [0], [4]),                  # a site: once
    ("(to (sites {0 1}) (apply if:(= (to) 1) (remove (+ (to) 3))))", [0, 1, 1], [3, 4]),
    ("(to (sites {0 1}))", [0, 1], [3, 4]),
])
def test_add_applies_its_to_effect_first(to, moves, left):
    state = _game('(place "Disc2" {3 4})', play=f"(move Add {to})").new_initial_state(0)
    legal = state.legal_moves()
    assert sorted(m.to for m in legal) == moves
    state.apply(legal[0])
    assert _sites(state, 2) == left and state.what[0] == 1


def test_add_with_a_to_effect_in_a_stacking_game_applies_it():
    # the effect comes with the added piece (Ludii's Add prepends it), as on a flat board
    game = _game('(place "Disc2" {3 4})',
                 play="(move Add (to (sites {0 1}) (apply (remove 3))) stack:True)")
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 0))
    assert (state.what[0], state.what[3], state.what[4]) == (1, 0, 2)


@pytest.mark.parametrize("board, vertices", [
    ("(board (square 3))", 16),                 # 9 cells, 16 vertices
    ("(board (square 3) use:Vertex)", 9),      # Ludii's vertex square: 3 x 3 vertices
    ("(board (hex 2))", 24),                    # 7 hexagons, 24 corners
])
def test_count_vertices_counts_the_boards_vertices_whatever_it_plays_on(board, vertices):
    play = f"(if (= (count Vertices) {vertices}) (move Add (to (sites Empty))))"
    assert len(_game(play=play, board=board).new_initial_state(0).legal_moves()) > 1
    play = f"(if (= (count Vertices) {vertices + 1}) (move Add (to (sites Empty))))"
    assert [m.is_pass for m in _game(play=play, board=board).new_initial_state(0)
            .legal_moves()] == [True]


@pytest.mark.parametrize("start, listed", [
    ('(place Stack "Disc1" 0)', [(1, 0)]),                     # lands alone on 1: still listed
    ('(place Stack "Disc1" 0) (place Stack "Disc2" 1)', []),  # lands on a piece at 1: leaves
])
def test_promoting_a_piece_in_a_stacking_game_keeps_ludiis_lists(start, listed):
    """Ludii's ActionPromote in a stacking game drops the old piece from its owner's list
    only when other pieces stay on its site: a piece promoted alone stays listed (and the
    game's (forEach Piece), walking the lists, goes on moving it)."""
    game = _game(start, play='(move (from 0) (to 1) (then (promote (last To) (piece "King") '
                             'Mover)))')
    assert game.walks_stack_lists
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert game.components[state.what[1]].name == "King1"
    disc1 = next(w for w, c in enumerate(game.components) if c.name == "Disc1")
    assert state.sites.owned[disc1] == listed


def test_promoting_a_piece_alone_in_a_stacking_game_of_several_site_types_is_refused():
    """A stacking game of vertices with hands (cells) keeps no lists (Ludii's FullOwned
    shifts levels across site types there): a piece promoted alone is refused."""
    game = _game('(place Stack "Disc1" 0)',
                 play='(move (from 0) (to 1) (then (promote (last To) (piece "King") Mover)))',
                 board="(board (square 3) use:Vertex)", extra="(hand Each)")
    assert not game.walks_stack_lists
    state = game.new_initial_state(0)
    with pytest.raises(LudemeError, match="alone on its site in a stacking game"):
        state.apply(state.legal_moves()[0])


@pytest.mark.parametrize("line, expected", [
    ("(is Line 3)", True),                   # 0 and 2 hold Disc1 under Disc2: any level counts
    ("(is Line 3 top:True)", False),         # their tops are Disc2
    ("(is Line 3 Mover top:True)", False),
    ("(is Line 1 top:True)", True),          # a line of one is always there
    ('(is Line 3 what:(id "Disc2"))', False),  # 1 holds no Disc2
])
def test_a_line_through_stacks_reads_every_level_unless_top(line, expected):
    """Ludii's IsLine in a stacking game: a site is on the line when one of its levels
    holds the pivot's top kind (only its top piece with top:True)."""
    start = ('(place Stack "Disc1" 0) (place Stack "Disc2" 0) '
             '(place Stack "Disc1" 2) (place Stack "Disc2" 2)')
    game = _game(start, play="(move Add (to 1) stack:True)",
                 end=f"(end (if {line} (result Mover Win)))")
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert (state.winner == 1) is expected


@pytest.mark.parametrize("rotation, to", [
    ("", 7),                # facing N: forward is up a row
    ("rotation:1", 8),      # turned right once (to the first direction right of N): NE
    ("rotation:2", 5),      # twice: E
])
def test_a_placed_rotation_turns_the_pieces_relative_directions(rotation, to):
    """Ludii turns a piece's facing right (FR, among the Adjacent directions) once per
    step of its rotation before reading relative directions."""
    game = _game(f'(place "Disc1" 4 {rotation})',
                 play="(forEach Piece (move Step Forward (to if:(is Empty (to)))))")
    assert [m.to for m in game.new_initial_state(0).legal_moves()] == [to]


def test_a_placed_rotation_is_compiled_but_in_a_stacking_game():
    """The kernels keep rotations (tests/test_compiled_rot.py plays them); in a stacking
    game, whose levels keep none, the compiled form still refuses them."""
    from ludeme.engine.compiled import Unsupported
    from ludeme.engine.compiled.codegen import check_game
    check_game(_game('(place "Disc1" 4 rotation:1)', play="(move Pass)"))
    stacked = _game('(place Stack "Disc1" 4 rotation:1)', play="(move Pass)")
    assert stacked.stacking
    with pytest.raises(Unsupported, match="rotation.*stacking"):
        check_game(stacked)


def test_the_regions_of_a_player_the_game_lacks_are_kept():
    """Ludii keeps (regions P3 ...) in a two-player game, and (sites P3) reads it."""
    game = _game('(place "Disc2" (sites P3))', play="(move Pass)",
                 extra="(regions P3 {2 6})")
    state = game.new_initial_state(0)
    assert [s for s in range(9) if state.what[s]] == [2, 6]


# ---------------------------------------------------------------- pyramidal boards: is Flat, layer

PYRAMID = "(board (square 3 pyramidal:True) use:Vertex)"   # 9 + 4 + 1 sites; 7 is the apex


@pytest.mark.parametrize("start, play, expected", [
    # a bottom site is always flat; one above, once the four below it are occupied
    ("", "(move Add (to (sites Empty) if:(is Flat)))", [0, 1, 2, 5, 6, 8, 11, 12, 13]),
    ('(place "Disc1" {0 1 5})', "(move Add (to (sites Empty) if:(is Flat)))",
     [2, 6, 8, 11, 12, 13]),
    ('(place "Disc1" {0 1 5 6})', "(move Add (to (sites Empty) if:(is Flat)))",
     [2, 3, 8, 11, 12, 13]),
    ('(place "Disc1" {0 1 5 6})', "(move Add (to (sites Empty) if:(is Flat 4)))",
     [-1]),                                # site 4 rests on 1 2 6 8: only a pass
    ("", "(move Add (to (sites Empty) if:(= (layer of:(to)) 1)))", [3, 4, 9, 10]),
    ("", "(move Add (to (sites Empty) if:(= (layer of:(to)) 2)))", [7]),
    ("", "(move Add (to (sites Empty) if:(= (layer of:(handSite P1)) -1)))",
     list(range(14))),                                      # off the board: -1
    # rows of a 3D board: the ground's, each with every site at its height on the plan
    ('(place "Disc1" (sites Row (- (count Rows) 1)))', "(move Add (to (sites Empty)))",
     [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
    ('(place "Disc1" (sites Row 1))', "(move Add (to (sites Empty)))",
     [0, 1, 2, 3, 4, 9, 10, 11, 12, 13]),
])
def test_pyramidal_flat_and_layers(start, play, expected):
    game = _game(start, play=play, board=PYRAMID, extra="(hand Each)")
    state = game.new_initial_state(0)
    assert sorted(m.to for m in state.legal_moves()) == expected


def test_layer_of_another_site_type_is_refused():
    with pytest.raises(LudemeError, match="the argument 'type' of \\(layer ...\\) is not supported yet"):
        _game(play="(move Add (to (sites Empty) if:(= (layer of:(to) Cell) 0)))", board=PYRAMID)


# ---------------------------------------------------------------- while

def _after_first_move(play: str, to: int = 0):
    state = _game(play=play).new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == to))
    return state


@pytest.mark.parametrize("repeated, expected", [
    # each round applies every move it generates: one round fills the board
    ('(add (piece "Disc1") (to (sites Empty)))', list(range(9))),
    # rounds go on, each on the position the last one left, until the condition fails
    ('(if (is Empty 1) (add (piece "Disc1") (to 1)) (add (piece "Disc1") (to 2)))', [0, 1, 2]),
])
def test_while_applies_rounds_of_moves_until_the_condition_fails(repeated, expected):
    play = ("(move Add (to (sites Empty)) (then (while (< (count Sites in:(sites Occupied by:P1)) 3) "
            f"{repeated})))")
    assert _sites(_after_first_move(play), 1) == expected


def test_a_while_that_never_ends_stops_with_its_position():
    play = ('(move Add (to (sites Empty)) (then (while (is Empty 8) '
            '(add (piece "Disc1") (to (sites Empty) if:False)))))')
    with pytest.raises(LudemeError, match="never ends"):
        _after_first_move(play)
