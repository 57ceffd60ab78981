"""Games that name several site types of one board (Ludii's vertices, edges and cells of the
same graph): the ludemes that map between them, each on a small description, then the
corpus games they unlocked replayed against Ludii's traces."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError

from conftest import assert_corpus_trace_agrees

# A 3x3 board of points: 9 vertices, 12 edges, 4 cells (0 and 1 at the bottom, then 2 and 3;
# cell 3 has the vertices 4, 5, 7, 8).
GAME = ('(game "g" (players 2) (equipment {{(board (square 3) use:Vertex) '
        '(piece "Disc" Each)}}) '
        '(rules (play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _load(tmp_path, play):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(play=play))
    return load(f)


def _holds(tmp_path, cond) -> bool:
    """Whether `cond` holds in the initial position: the mover adds a disc only if it does
    (a player without a move passes)."""
    game = _load(tmp_path, f'(if {cond} (move Add (to (sites Empty))))')
    return len(game.new_initial_state().legal_moves()) == 9


# -- (sites Incident <type> of:<type> at:) ---------------------------------------------

@pytest.mark.parametrize("region,sites", [
    ("(sites Incident Cell of:Vertex at:4)", "{0 1 2 3}"),
    ("(sites Incident Cell of:Vertex at:2)", "{1}"),
    ("(sites Incident Vertex of:Cell at:3)", "{4 5 7 8}"),
    ("(sites Incident Cell of:Cell at:0)", "{1 2}"),
    # Ludii's quirk: the vertices of a vertex are the cells beside its edges, without the
    # one numbered as the vertex (vertex 0 touches cell 0 alone: none is left).
    ("(sites Incident Vertex of:Vertex at:4)", "{0 1 2 3}"),
    ("(sites Incident Vertex of:Vertex at:1)", "{0}"),
])
def test_sites_incident_maps_between_site_types(tmp_path, region, sites):
    assert _holds(tmp_path, f"(= {region} (sites {sites}))")
    assert not _holds(tmp_path, f"(= {region} (sites {{5}}))")


@pytest.mark.parametrize("region,size", [
    ("(sites Incident Edge of:Cell at:0)", 4), ("(sites Incident Edge of:Vertex at:4)", 4),
    ("(sites Incident Edge of:Vertex at:0)", 2), ("(sites Incident Vertex of:Edge at:0)", 2),
    ("(sites Incident Cell of:Edge at:0)", 1), ("(sites Incident Vertex of:Vertex at:0)", 0),
    ("(sites Incident Vertex of:Cell at:4)", 0),     # no cell 4: nothing
    # Pieces stand on vertices only: every cell is empty, no one's (Neutral, id 0).
    ("(sites Incident Cell of:Vertex at:4 Mover)", 0),
    ("(sites Incident Cell of:Vertex at:4 Neutral)", 4),
])
def test_sites_incident_sizes(tmp_path, region, size):
    assert _holds(tmp_path, f"(= {size} (count Sites in:{region}))")
    assert not _holds(tmp_path, f"(= {size + 1} (count Sites in:{region}))")


def test_sites_incident_owner_and_role_together_are_refused(tmp_path):
    with pytest.raises(LudemeError, match="owner: or a role"):
        _load(tmp_path, "(move Add (to (sites Incident Vertex of:Cell at:0 Mover owner:1)))")


# -- (sites Cell ...) --------------------------------------------------------------------

@pytest.mark.parametrize("region,sites", [
    ('(sites Cell "B2")', "{3}"),            # a cell by its label, on a board of points
    ('(sites Cell {"A1" "B1" "Z9"})', "{0 1}"),     # a label no cell has is left out
    ("(sites Cell 3)", "{4 5 7 8}"),         # by index: the cell's vertices
])
def test_sites_cell(tmp_path, region, sites):
    assert _holds(tmp_path, f"(= {region} (sites {sites}))")


def test_sites_cell_off_the_board_is_empty(tmp_path):
    assert _holds(tmp_path, "(= 0 (count Sites in:(sites Cell 9)))")


def test_sites_cell_with_a_site_type_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="not supported yet"):
        _load(tmp_path, '(move Add (to (sites Cell Vertex 3)))')


# -- (is Empty <type> <site>) past the containers' sites -------------------------------------

@pytest.mark.parametrize("cond,holds", [
    ("(is Empty Edge 10)", True),      # an edge past the 9 points: the (empty) edge layer
    ("(is Empty Edge 11)", True),
    ("(is Empty Edge 12)", False),     # no edge 12
    ("(is Empty 10)", False),          # no point 10
    ("(is Empty Cell 3)", True),
])
def test_is_empty_of_another_type_reads_its_whole_layer(tmp_path, cond, holds):
    assert _holds(tmp_path, cond) == holds


# -- corpus games --------------------------------------------------------------------------

def _agrees_on_seed3(refdata, ludii, name, seconds=None):
    _agrees(refdata, ludii, name, "corpus-traces-seed3", seconds)


def _agrees(refdata, ludii, name, folder, seconds=None):
    from ludeme.analysis.crosscheck import DEFAULT_TIME_LIMIT, crosscheck_files
    trace = refdata / folder / f"{name}.json.gz"
    if not trace.is_file():
        pytest.skip(f"{trace} not found")
    verdicts = crosscheck_files([str(trace)], ludii_dir=str(ludii),
                                index=str(refdata / "corpus-index.tsv"),
                                seconds=seconds or DEFAULT_TIME_LIMIT)
    assert all(v.ok for v in verdicts), "\n".join(v.line() for v in verdicts)


@pytest.mark.parametrize("name", ["board_space_pattern_Kensington"])
def test_corpus_games_on_several_site_types_agree(refdata, ludii, name):
    assert_corpus_trace_agrees(refdata, ludii, name)
    _agrees_on_seed3(refdata, ludii, name)


# -- pieces on another site type than the board's (the board's layers) ---------------------

WALLS = ('(game "g" (players 2) (equipment {{(board (square 3)) (hand Each) '
         '(piece "Wall" Each) (piece "Disc" Each)}}) '
         '(rules (start {{(place "Wall1" (handSite P1) count:3) '
         '(place "Wall2" (handSite P2) count:3)}}) '
         '(play (or (move (from (handSite Mover)) (to Edge (sites Empty Edge))) '
         '(move Add (to (sites Empty)) {then}))) '
         '(end (if {end} (result Mover Win)))))')


def _walls(tmp_path, then="", end="(no Moves Next)"):
    f = tmp_path / "w.lud"
    f.write_text(WALLS.format(then=then, end=end))
    return load(f)


def _play(s, name):
    s.apply(next(m for m in s.legal_moves() if str(m) == name))


def test_a_piece_moved_to_an_edge_of_a_board_of_cells(tmp_path):
    game = _walls(tmp_path)
    s = game.new_initial_state()
    walls = [m for m in s.legal_moves() if str(m).startswith("Hand1-Edge")]
    assert len(walls) == 24 and {m.to for m in walls} == set(range(24))   # Ludii's edge indices
    _play(s, "Hand1-Edge5")
    assert s.board_view()["who"] == [0] * 9          # the cells hold nothing
    assert s.hand_counts()[0] == [2]
    # P2's walls may go to the 23 edges left; the disc to the 9 cells
    names = [str(m) for m in s.legal_moves()]
    assert len([n for n in names if n.startswith("Hand2-Edge")]) == 23 and "Hand2-Edge5" not in names
    assert len([n for n in names if n.startswith("place")]) == 9


def test_reading_the_layer_a_piece_went_to(tmp_path):
    # P1's wall on edge 5: occupied, not empty, the only P1 piece on:Edge; edge 6 empty
    game = _walls(tmp_path, then="(then (if (and {(is Occupied Edge 5) (not (is Empty Edge 5)) "
                  "(is Empty Edge 6) (= 1 (count Sites in:(sites Occupied by:P1 on:Edge)))}) "
                  "(addScore P1 1)))")
    s = game.new_initial_state()
    _play(s, "Hand1-Edge5")
    _play(s, "place A1")
    assert s.scores[1] == 1


@pytest.mark.parametrize("end,first,over", [
    ("(is LastTo Edge)", "Hand1-Edge5", True), ("(is LastTo Edge)", "place A1", False),
    ("(is LastTo Cell)", "place A1", True), ("(is LastFrom Cell)", "Hand1-Edge5", True),
    ("(is LastFrom Edge)", "Hand1-Edge5", False),
])
def test_is_last_to_and_from_read_the_last_decisions_site_types(tmp_path, end, first, over):
    game = _walls(tmp_path, end=end)
    s = game.new_initial_state()
    _play(s, first)
    assert s.is_terminal() == over


@pytest.mark.parametrize("region,size", [
    ("(sites Empty Edge)", 24), ("(sites Outer Edge)", 12), ("(sites Corners Vertex)", 4),
    ("(sites Empty Vertex)", 16),
])
def test_regions_of_another_site_type(tmp_path, region, size):
    # On a 3x3 board of cells: 16 vertices, 24 edges (12 of them on the outside).
    f = tmp_path / "g.lud"
    f.write_text(GAME.replace("(square 3) use:Vertex", "(square 3)").format(
        play=f'(if (= {size} (count Sites in:{region})) (move Add (to (sites Empty))))'))
    assert len(load(f).new_initial_state().legal_moves()) == 9


def test_a_ludeme_not_reading_a_layer_the_game_uses_is_refused(tmp_path):
    f = tmp_path / "w.lud"
    f.write_text(WALLS.format(then="(then (if (= 1 (size Stack Edge at:5)) (moveAgain)))",
                              end="(no Moves Next)"))
    with pytest.raises(LudemeError, match="layer of the board the game puts pieces on"):
        load(f)


def test_a_move_to_a_layer_the_game_puts_pieces_on_gives_the_reference_rows(tmp_path):
    # the kernels keep the layers after the containers, as the reference's store
    from test_compiled import _same_rows
    from ludeme.engine.compiled.codegen import generate
    game = _walls(tmp_path)
    generate(game)
    rows = _same_rows(game, 10, 3)
    assert (rows["moves"] > 0).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["board_race_reach_Quoridor"])
@pytest.mark.parametrize("folder", ["corpus-traces", "corpus-traces-seed3"])
def test_corpus_games_with_pieces_on_several_site_types_agree(refdata, ludii, name, folder):
    # Slow: each of Quoridor's ~140 wall moves is tried on a copy (its path rule, as Ludii's
    # (do ... ifAfterwards:) does), two path searches each, a minute or more per trace.
    _agrees(refdata, ludii, name, folder, seconds=1200)


def test_a_hand_cell_named_as_a_cell_keeps_the_store_as_it_is(tmp_path):
    # (to Cell (handSite ...)) names a hand's cell: no layer of cells on a board of points.
    f = tmp_path / "h.lud"
    f.write_text('(game "g" (players 2) (equipment {(board (square 3) use:Vertex) (hand Each) '
                 '(piece "Disc" Each)}) (rules (start (place "Disc1" 0)) '
                 '(play (move (from (sites Occupied by:Mover)) (to Cell (handSite Mover)))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    game = load(f)
    assert game.layers == {} and game.store_sites == game.total_sites


def test_pieces_moved_to_the_cells_of_a_board_of_points(tmp_path):
    f = tmp_path / "c.lud"
    f.write_text('(game "g" (players 2) (equipment {(board (square 3) use:Vertex) (hand Each) '
                 '(piece "Disc" Each)}) (rules (start (place "Disc1" (handSite P1) count:2)) '
                 '(play (move (from (handSite P1)) (to Cell (sites Empty Cell)))) '
                 '(end (if (is Occupied Cell 3) (result Mover Win)))))')
    game = load(f)
    assert set(game.layers) == {"Cell"}
    s = game.new_initial_state()
    assert sorted(m.to for m in s.legal_moves()) == [0, 1, 2, 3]      # the 4 cells
    _play(s, "Hand1-Cell3")
    assert s.is_terminal() and s.winner == 1 and s.board_view()["who"] == [0] * 9


# -- (claim ...), and adding to another site type ----------------------------------------------

POINTS = ('(game "g" (players 2) (equipment {{(board (square 2)) (piece "Disc" Each) '
          '(piece "Mark" Each)}}) (rules (play {play}) '
          '(end (if {end} (result Mover Win)))))')


def _points(tmp_path, play, end="(no Moves Next)"):
    f = tmp_path / "p.lud"
    f.write_text(POINTS.format(play=play, end=end))
    return load(f)


def test_a_piece_added_to_a_vertex_of_a_board_of_cells_then_a_cell_claimed(tmp_path):
    # A 2x2 board of cells has 9 vertices; a disc on the centre vertex (4) claims every cell
    # around it for the mover (the Mark of the mover), its consequent joining the claim.
    game = _points(tmp_path, '(move Add (to Vertex (sites Empty Vertex)) (then (if (= 4 '
                             '(last To)) (forEach Site (sites Incident Cell of:Vertex at:(last To)) '
                             '(claim (piece (id "Mark" Mover)) (to Cell (site)) '
                             '(then (addScore Mover 1)))))))',
                   end="(= (mover) (who Vertex at:(centrePoint Vertex)))")
    s = game.new_initial_state()
    moves = s.legal_moves()
    assert sorted(m.to for m in moves) == list(range(9)) and str(moves[4]) == "place Vertex4"
    _play(s, "place Vertex0")
    assert s.board_view()["who"] == [0] * 4 and not s.is_terminal()
    _play(s, "place Vertex4")
    mark2 = game.component_named("Mark2").index
    assert s.board_view()["what"] == [mark2] * 4 and s.scores[2] == 4
    assert s.is_terminal() and s.winner == 2


@pytest.mark.parametrize("claim,claimed", [
    ('(claim (to (sites Empty)))', 4),                           # the mover's number as piece
    ('(claim (to (sites Empty) if:(!= (to) 2)))', 3),
    ('(claim (piece "Disc1") (to 3))', 1),
    ('(move Claim (to (sites Empty) if:(!= (to) 2)))', 3),      # the decision form
])
def test_claim_offers_a_move_per_site(tmp_path, claim, claimed):
    game = _points(tmp_path, claim)
    moves = game.new_initial_state().legal_moves()
    assert len(moves) == claimed and all(m.frm == m.to for m in moves)


@pytest.mark.parametrize("name", [
    "board_space_connection_ConHex",
    # its two traces replay in about 50 s: behind the slow marker with the other corpus runs
    pytest.param("board_war_replacement_checkmate_xiangqi_Loop_Xiangqi", marks=pytest.mark.slow)])
def test_corpus_games_adding_to_another_site_type_agree(refdata, ludii, name):
    assert_corpus_trace_agrees(refdata, ludii, name)
    _agrees_on_seed3(refdata, ludii, name)


# -- (place ... <type> ...) at the start -------------------------------------------------------

@pytest.mark.parametrize("place,cells", [
    ('(place "Disc2" Cell {"A1" "B2"})', [0, 3]),     # cell labels on a board of points
    ('(place "Disc2" Cell (sites {1 2}))', [1, 2]),
    ('(place "Disc2" Cell coord:"B1")', [1]),
])
def test_pieces_placed_on_the_cells_of_a_board_of_points(tmp_path, place, cells):
    f = tmp_path / "s.lud"
    f.write_text('(game "g" (players 2) (equipment {(board (square 3) use:Vertex) '
                 '(piece "Disc" Each)}) (rules (start ' + place + ') '
                 '(play (move Add (to (sites Empty)))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    game = load(f)
    s = game.new_initial_state()
    assert s.board_view()["who"] == [0] * 9
    # the cells holding P2's discs, as (sites Incident Cell of:Vertex at:4 P2) reads them
    f.write_text(f.read_text().replace(
        "(move Add (to (sites Empty)))",
        f"(if (= (sites Incident Cell of:Vertex at:4 P2) (sites {{{' '.join(map(str, cells))}}})) "
        "(move Add (to (sites Empty))))"))
    assert len(load(f).new_initial_state().legal_moves()) == 9


def test_action_ids_tell_a_layers_sites_from_the_boards(tmp_path):
    from ludeme.interfaces.action_ids import action_ids, num_distinct_actions
    game = _walls(tmp_path)
    s = game.new_initial_state()
    moves = s.legal_moves()       # Hand1 to 24 edges and 9 cells: edge 3 and cell 3 apart
    ids = action_ids(game, moves)
    assert len(set(ids)) == len(moves) == 33 and max(ids) < num_distinct_actions(game)


# -- moves from, and removals on, another site type's layer ------------------------------------

CELLS = ('(game "g" (players 2) (equipment {{(board (square 3) use:Vertex) (piece "Disc" Each)}}) '
         '(rules (start {{(place "Disc1" Cell 0) (place "Disc2" Cell 3)}}) (play {play}) '
         '(end (if (or (is Occupied Cell 1) (no Moves Next)) (result Mover Win)))))')
FROM_CELL = '(move (from Cell (sites Occupied by:Mover on:Cell)) (to Cell (sites Empty Cell)))'


def _cells(tmp_path, play):
    f = tmp_path / "c.lud"
    f.write_text(CELLS.format(play=play))
    return load(f)


@pytest.mark.parametrize("play,tos,over", [
    (FROM_CELL, [1, 2], {1: True, 2: False}),
    # a removal on the cells (the decision's site is the cell's index)
    (f'(or {FROM_CELL} (move Remove Cell (sites Occupied by:Next on:Cell)))', [1, 2, 3],
     {1: True, 2: False, 3: False}),
])
def test_pieces_moved_from_and_removed_on_the_cells_of_a_board_of_points(tmp_path, play, tos,
                                                                         over):
    game = _cells(tmp_path, play)
    for to in tos:
        s = game.new_initial_state()
        moves = s.legal_moves()
        assert sorted(m.to for m in moves) == tos
        m = next(m for m in moves if m.to == to)
        assert game.site_types(m) == ("Cell", "Cell")
        s.apply(m)
        assert s.board_view()["who"] == [0] * 9 and s.is_terminal() == over[to]
        cells = game.layers["Cell"]
        expected = {1: [0, 1, 0, 2], 2: [0, 0, 1, 2], 3: [1, 0, 0, 0]}[to]
        assert [s.who[cells + i] for i in range(4)] == expected


@pytest.mark.parametrize("then,left", [("(remove Cell 3)", [1, 0]), ("(remove Cell 2)", [1, 2]),
                                       ("(remove Cell (sites {0 3}))", [0, 0])])
def test_a_removal_effect_on_the_cells_of_a_board_of_points(tmp_path, then, left):
    # a disc added on a point, then the cells given emptied; the point keeps its disc
    game = _cells(tmp_path, f'(or {FROM_CELL} (move Add (to (sites Empty)) (then {then})))')
    s = game.new_initial_state()
    s.apply(next(m for m in s.legal_moves() if str(m) == "place A1"))
    cells = game.layers["Cell"]
    assert [s.who[cells], s.who[cells + 3]] == left and s.board_view()["who"][0] == 1


# -- steps on another site type's layer ------------------------------------------------------
# Ludii's Step steps on the site type its (from ...) names, with that type's own steps
# (Topology's per-type trajectories): on a 3x3 board of points, cell 0 (bottom left) has
# cell 1 to its east, cell 2 to its north and cell 3 on its diagonal; the centre point 4
# has the points 1, 3, 5 and 7 orthogonally and 0, 2, 6 and 8 diagonally.

STEPS = ('(game "g" (players 2) (equipment {{(board (square {size}) use:{use}) '
         '(piece "Disc" Each {moves})}}) '
         '(rules (start {{(place "Disc1" {type} {at}) (place "Disc2" {type} {other})}}) '
         '(play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _steps(tmp_path, moves="", play="(forEach Piece)", *, size=3, use="Vertex", type="Cell",
           at=0, other=3):
    f = tmp_path / "s.lud"
    f.write_text(STEPS.format(size=size, use=use, type=type, at=at, other=other, moves=moves,
                              play=play))
    return load(f)


def _step(dirn, type="Cell", to="(to if:(is Empty Cell (to)))"):
    return f"(move Step (from {type}) {dirn} {to})"


@pytest.mark.parametrize("dirn,tos", [
    # clockwise from north, as Ludii lists an element's steps in a direction
    ("Orthogonal", [2, 1]), ("Diagonal", []),    # cell 3, the diagonal, is the enemy's
    ("Adjacent", [2, 1]), ("N", [2]), ("E", [1]), ("(directions {E NE N})", [1, 2]),
])
def test_a_step_on_the_cells_of_a_board_of_points(tmp_path, dirn, tos):
    game = _steps(tmp_path, _step(dirn))
    s = game.new_initial_state()
    moves = [m for m in s.legal_moves() if not m.is_pass]
    assert [(m.frm, m.to) for m in moves] == [(0, t) for t in tos]
    assert all(game.site_types(m) == ("Cell", "Cell") for m in moves)
    if tos:
        s.apply(moves[0])
        cells = game.layers["Cell"]
        assert s.who[cells] == 0 and s.who[cells + tos[0]] == 1
        assert s.board_view()["who"] == [0] * 9       # the points stay empty


def test_a_step_on_the_cells_reads_the_destination_there(tmp_path):
    # (to if:) reads (to) as a cell: the enemy's cell 3 is no empty cell, point 3 is empty
    game = _steps(tmp_path, _step("Diagonal", to="(to if:(is Empty (to)))"))
    assert [m.to for m in game.new_initial_state().legal_moves()] == [3]
    game = _steps(tmp_path, _step("Diagonal", to="(to if:(is Enemy (who Cell at:(to))))"))
    assert [m.to for m in game.new_initial_state().legal_moves()] == [3]


@pytest.mark.parametrize("dirn,tos", [
    ("Orthogonal", [7, 5, 1, 3]), ("Diagonal", [8, 2, 0]), ("N", [7]), ("SW", [0]),
])
def test_a_step_on_the_points_of_a_board_of_cells(tmp_path, dirn, tos):
    # Disc1 on the centre point 4 of a 2x2 board of cells; Disc2 on point 6 (top left).
    game = _steps(tmp_path, _step(dirn, "Vertex", "(to if:(is Empty Vertex (to)))"),
                  "(forEach Piece on:Vertex)", size=2, use="Cell", type="Vertex", at=4, other=6)
    moves = [m for m in game.new_initial_state().legal_moves() if not m.is_pass]
    assert [(m.frm, m.to) for m in moves] == [(4, t) for t in tos]
    assert all(game.site_types(m) == ("Vertex", "Vertex") for m in moves)


def test_a_step_on_the_edges_goes_to_the_edges_sharing_an_end(tmp_path):
    # Ludii's steps of an edge: the other edges at either end (a square's two neighbours)
    game = _steps(tmp_path, _step("Adjacent", "Edge", "(to if:(is Empty Edge (to)))"),
                  size=2, use="Vertex", type="Edge", at=0, other=2)
    planar = game.board.planar
    start = planar.edges[0]
    sharing = {e.id for e in planar.edges if e is not start
               and {e.a.id, e.b.id} & {start.a.id, start.b.id}} - {2}
    moves = [m for m in game.new_initial_state().legal_moves() if not m.is_pass]
    assert len(sharing) == 1 and [m.to for m in moves] == list(sharing)


@pytest.mark.parametrize("play,froms", [
    ("(forEach Piece on:Cell)", [0]), ("(forEach Piece on:Vertex)", []),
    ("(forEach Piece)", [0]),           # every site type: the cell's piece moves
])
def test_for_each_piece_walks_the_layers_the_pieces_stand_on(tmp_path, play, froms):
    game = _steps(tmp_path, _step("Orthogonal"), play)
    assert {m.frm for m in game.new_initial_state().legal_moves() if not m.is_pass} == \
        set(froms)


@pytest.mark.parametrize("play,moves", [("(forEach Piece on:Vertex)", 4), ("(forEach Piece)", 0)])
def test_for_each_piece_reads_no_layer_site_past_the_boards_own(tmp_path, play, moves):
    # Ludii's ForEachPiece bounds the locations by the number of sites of the type it
    # walks: the board's own (4 cells) without on:, so a piece on point 4 is not reached
    game = _steps(tmp_path, _step("Orthogonal", "Vertex", "(to if:(is Empty Vertex (to)))"),
                  play, size=2, use="Cell", type="Vertex", at=4, other=6)
    assert sum(not m.is_pass for m in game.new_initial_state().legal_moves()) == moves


def _steps_holds(tmp_path, cond) -> bool:
    """Whether `cond` holds in the initial position (the mover adds a disc only if it does)."""
    game = _steps(tmp_path, play=f"(if {cond} (move Add (to (sites Empty))))")
    return any(not m.is_pass for m in game.new_initial_state().legal_moves())


@pytest.mark.parametrize("region,sites", [
    ("(sites Around Cell 0)", "{1 2 3}"), ("(sites Around Cell 0 Diagonal)", "{3}"),
    ("(sites Around Cell 0 Empty)", "{1 2}"), ("(sites Around Cell 0 Enemy)", "{3}"),
    ("(sites Around 0)", "{1 3}"),     # the board's own points (a diagonal is not adjacent)
])
def test_sites_around_of_another_site_type(tmp_path, region, sites):
    # Disc1 on cell 0, Disc2 on cell 3; the mover is P1
    assert _steps_holds(tmp_path, f"(= {region} (sites {sites}))")
    assert not _steps_holds(tmp_path, f"(= {region} (sites {{1}}))")


@pytest.mark.parametrize("count,n", [
    ("(count Pieces Cell P1)", 1), ("(count Pieces Vertex P1)", 0), ("(count Pieces P1)", 1),
    ("(count Pieces Cell All)", 2), ("(count Pieces Edge All)", 0),
    ("(count Pieces Cell All in:(sites {0 1}))", 1),
])
def test_count_pieces_of_a_site_type(tmp_path, count, n):
    assert _steps_holds(tmp_path, f"(= {count} {n})")
    assert not _steps_holds(tmp_path, f"(= {count} {n + 1})")


def test_a_step_from_a_layer_without_pieces_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="puts no pieces on"):
        _steps(tmp_path, _step("Orthogonal", "Edge"))


def test_a_step_on_a_layer_in_directions_relative_to_the_piece_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="relative to the piece"):
        _steps(tmp_path, _step("Forward"))


def test_the_kernels_step_on_another_site_type_as_the_reference(tmp_path):
    from test_compiled import _same_rows
    from ludeme.engine.compiled import codegen
    game = _steps(tmp_path, _step("Orthogonal"))
    codegen.generate(game)          # the kernels keep the layers, the step reads its own
    assert (_same_rows(game, 5, 2)["moves"] > 0).all()


@pytest.mark.parametrize("name", ["board_war_leaping_diagonal_Guerrilla_Checkers",
                                  "board_war_replacement_eliminate_all_Triple_Tangle"])
@pytest.mark.parametrize("folder", ["corpus-traces", "corpus-traces-seed3"])
def test_corpus_games_stepping_on_another_site_type_agree(refdata, ludii, name, folder):
    _agrees(refdata, ludii, name, folder)
