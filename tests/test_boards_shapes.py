"""Board ludemes added for corpus games: skew, repeat, dual, regular, splitCrossings,
intersect, spiral, tiling, boardless tables and circle boards played on cells. Facts are derived
from Ludii's algorithms (ConcentricCircle, Repeat, Dual, Regular, SplitCrossings,
Intersect, Spiral, the T3464 and T3636 tilings, Graph.skew, Boardless) and from the corpus traces
that now agree."""

from functools import lru_cache

import pytest

from conftest import assert_corpus_trace_agrees
from ludeme.boards import Board
from ludeme.model.ludemes.graph.containers import build_board
from ludeme.errors import LudemeError
from ludeme.language.grammar import parse


@lru_cache(maxsize=None)
def board(text: str) -> Board:
    return build_board(parse(text, "t.lud")[0], 2)


def xy(b: Board, site: int) -> tuple[float, float]:
    s = b.sites[site]
    return (round(s.x, 4), round(s.y, 4))


# ---------------------------------------------------------------- skew

def test_skew_shears_by_height_and_keeps_numbers():
    flat, slanted = board("(board (scale 1 0.5 (square 4)))"), \
        board("(board (skew 0.5 (scale 1 0.5 (square 4))))")
    assert slanted.num_sites == 16
    for site in range(16):
        (x, y), (sx, sy) = xy(flat, site), xy(slanted, site)
        # a cell's centre is the mean of its corners, each moved by 0.5 * its height
        assert (sx, sy) == (round(x + 0.5 * y, 4), y)
    assert slanted.neighbours["Orthogonal"] == flat.neighbours["Orthogonal"]
    # the square's N step leans right: N is gone, NNE is the cell above
    assert "N" not in slanted.directions and slanted.step["NNE"][0] == 4


# ---------------------------------------------------------------- repeat

def test_repeat_draws_each_polygon_on_the_lattice_and_fuses_points():
    b = board("(board (repeat 2 3 step:{{1 0} {0 1}} (poly {{0 0} {1 0} {1 1} {0 1}})))")
    assert b.num_sites == 6                     # 2 rows of 3 squares
    assert [xy(b, s) for s in (0, 2, 3)] == [(0.5, 0.5), (2.5, 0.5), (0.5, 1.5)]
    assert sorted(b.neighbours["Orthogonal"][4]) == [1, 3, 5]
    v = board("(board (repeat 1 3 step:{{0.5 0} {1 0}} (poly {{0.5 0} {0 0.5} {1 0.5}})) "
              "use:Vertex)")
    # triangles half a unit apart share corners: 3 bottom points, 2 + 3 new top ones
    assert v.num_sites == 8
    assert [xy(v, s) for s in range(4)] == [(0.5, 0.0), (1.0, 0.0), (1.5, 0.0), (0.0, 0.5)]
    # only the outlines are drawn: the bottom points are not joined to each other
    assert sorted(v.neighbours["Orthogonal"][0]) == [3, 5]


def test_repeat_takes_several_polygons():
    b = board("(board (repeat 1 2 step:{{1 0} {0 1}} {(poly {{0 0} {1 0} {1 1} {0 1}}) "
              "(poly {{0 1} {1 1} {0.5 2}})}))")
    assert b.num_sites == 4                     # 2 squares and 2 triangles on them


# ---------------------------------------------------------------- dual

def test_dual_puts_a_point_in_each_cell_joined_across_inner_edges():
    # the graph is built for the board's site type, as Ludii does: (square 4) played on
    # vertices is 4 x 4 points, so 9 cells, whose centres are those of (square 3)'s cells
    square = board("(board (square 3))")
    dual = board("(board (dual (square 4)) use:Vertex)")
    assert dual.num_sites == 9 and (dual.num_edges, dual.num_cells) == (12, 4)
    assert [xy(dual, s) for s in range(9)] == [xy(square, s) for s in range(9)]
    assert [sorted(n) for n in dual.neighbours["Orthogonal"]] == \
        [sorted(n) for n in square.neighbours["Orthogonal"]]
    assert board("(board (dual (square 4)))").num_sites == 9    # played on the dual's cells


@pytest.mark.parametrize("text,count", [
    # Ludii's traces of Meridians ("6 7", i.e. Prism 7 6) and Lifeline (size 7) record these
    ("(board (dual (hex Prism 7 6)) use:Vertex)", 114),
    ("(board (dual (tri Hexagon 7)))", 127),
])
def test_dual_site_counts_of_corpus_boards(text, count):
    assert board(text).num_sites == count


def test_dual_of_hexagons_is_triangles():
    b = board("(board (dual (hex 3)) use:Vertex)")
    assert b.num_sites == 19 and b.num_cells == 24
    assert max(len(n) for n in b.neighbours["Orthogonal"]) == 6


# ---------------------------------------------------------------- boardless tables

@pytest.mark.parametrize("text,same", [
    ("(boardless Hexagonal 3)", "(board (hex 3))"),
    ("(boardless Square 5)", "(board (square 5))"),
    ("(boardless Triangle 4)", "(board (tri 4))"),
])
def test_boardless_is_a_board_of_cells_of_its_tiling(text, same):
    table, b = board(text), board(same)
    assert table.boardless and not b.boardless
    assert table.site_type == "Cell" and table.num_sites == b.num_sites
    assert [xy(table, s) for s in range(b.num_sites)] == [xy(b, s) for s in range(b.num_sites)]
    assert table.neighbours["Adjacent"] == b.neighbours["Adjacent"]


def test_boardless_default_sizes_are_ludiis():
    # Ludii's SIZE_HEX_BOARDLESS = 21: a hexagon of 3 * 21 * 20 + 1 cells
    assert board("(boardless Hexagonal)").num_sites == 1261


def _table_game(tmp_path, start="", tile=""):
    from ludeme.api import load
    f = tmp_path / "t.lud"
    f.write_text('(game "t" (players 2) (equipment {(boardless Hexagonal 3) (piece "D" Each) '
                 f'{tile}}}) (rules {start} (play (move Add (to (sites Playable)))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    return load(f)


def test_sites_playable_on_a_boardless_table_starts_at_the_centre(tmp_path):
    # Ludii's boardless playable set (ContainerFlatState.setSite): the centre before any
    # piece, then each change sets its site and neighbours to "empty next to a piece"
    table = board("(boardless Hexagonal 3)")
    adjacent = table.neighbours["Adjacent"]
    state = _table_game(tmp_path).new_initial_state(0)
    assert [m.to for m in state.legal_moves()] == [9]            # the centre of 19 cells
    state.apply(state.legal_moves()[0])
    assert sorted(m.to for m in state.legal_moves()) == sorted(adjacent[9])
    nxt = min(adjacent[9])
    state.apply(next(m for m in state.legal_moves() if m.to == nxt))
    expected = (set(adjacent[9]) | set(adjacent[nxt])) - {9, nxt}
    assert sorted(m.to for m in state.legal_moves()) == sorted(expected)


def test_sites_playable_on_a_boardless_table_after_start_pieces(tmp_path):
    # pieces placed by the start rules are changes too: the centre is taken, its
    # neighbours and the placed piece's are playable, nothing else is
    table = board("(boardless Hexagonal 3)")
    adjacent = table.neighbours["Adjacent"]
    game = _table_game(tmp_path, start='(start {(place "D1" 9) (place "D2" 0)})')
    got = sorted(m.to for m in game.new_initial_state(0).legal_moves())
    assert got == sorted((set(adjacent[9]) | set(adjacent[0])) - {9, 0})


@pytest.mark.parametrize("sides,ok", [(4, True), (16, True), (17, False), (-1, False)])
def test_tile_sides_are_checked_and_change_no_move(tmp_path, sides, ok):
    # Ludii reads numSides: only for a tile's paths and its drawing; its constructor
    # refuses a count outside 0..16 (Constants.MAX_SIDES_TILE)
    tile = f'(tile "T" Each numSides:{sides})'
    if not ok:
        with pytest.raises(LudemeError, match="'numSides:' of a tile must be 0 to 16"):
            _table_game(tmp_path, tile=tile)
        return
    with_tile = _table_game(tmp_path, tile=tile).new_initial_state(0)
    assert [m.to for m in with_tile.legal_moves()] == [9]


# ---------------------------------------------------------------- circle boards on cells

def test_circle_board_on_cells_numbers_faces_as_found():
    b = board("(board (concentric {0 0 12 12 12 24}))")
    # 12 + 12 + 12 + 24 ring cells and the empty middle, a 12-sided cell
    assert b.num_sites == 61
    middle = b.sites[1]
    assert (round(middle.x, 4), round(middle.y, 4)) == (0.0, 0.0)
    assert len(b.neighbours["Orthogonal"][1]) == 12
    # the last ring of 12 meets the ring of 24: its cells have 5 corners and touch 2
    # outer cells, 1 inner one and 2 beside them
    last = [f.id for f in b.planar.faces if len(f.vertices) == 5]
    assert len(last) == 12
    assert all(len(b.neighbours["Orthogonal"][s]) == 5 for s in last)
    # the outer ring's 24 cells have 3 neighbours: 2 beside and 1 inside
    edge = [s for s in range(61) if len(b.neighbours["Orthogonal"][s]) == 3]
    assert len(edge) == 24 and all(b.sites[s].x ** 2 + b.sites[s].y ** 2 > 4.4 ** 2 for s in edge)


@pytest.mark.parametrize("text,count", [
    ("(board (concentric {1 4}))", 5),          # the middle square cell and a ring of 4
    ("(board (concentric {4 8} stagger:True))", 12),
    ("(board (remove (concentric {0 0 8 8 8 8}) cells:{1}))", 32),   # Azteka: Ludii's 32
])
def test_circle_board_cell_counts(text, count):
    assert board(text).num_sites == count


# ---------------------------------------------------------------- regular and splitCrossings

def test_regular_polygons_and_stars():
    assert board("(board (regular 6))").num_sites == 1
    square = board("(board (regular 4) use:Vertex)")
    r = 4 / (2 * 3.141592653589793)       # the points lie on a circle of sides / 2 pi
    assert xy(square, 0) == (round(-r * 0.5 ** 0.5, 4), round(-r * 0.5 ** 0.5, 4))
    star = board("(board (regular Star 5) use:Vertex)")
    # each point joined to the one 2 further round: no point joined to its neighbour
    assert all(len(n) == 2 for n in star.neighbours["Orthogonal"])
    assert star.num_edges == 5


def test_split_crossings_makes_the_pentagram_points():
    b = board("(board (splitCrossings (regular Star 5)) use:Vertex)")
    assert b.num_sites == 10 and b.num_edges == 15
    # the star's 5 tips keep their numbers; the 5 crossings come after them
    assert [len(b.neighbours["Orthogonal"][s]) for s in range(10)] == [2] * 5 + [4] * 5
    assert all(b.sites[s].x ** 2 + b.sites[s].y ** 2 < 0.7 ** 2 for s in range(5, 10))


def test_split_crossings_splits_at_points_on_edges():
    # three lines through one point (Game of Solomon's board): the first two cross at a
    # new point, then the third, passing through it, is split there
    b = board("(board (splitCrossings (graph vertices:{{0 0} {2 2} {0 2} {2 0} {1 0} {1 2}} "
              "edges:{{0 1} {2 3} {4 5}})) use:Vertex)")
    assert b.num_sites == 7 and xy(b, 6) == (1.0, 1.0)
    assert sorted(b.neighbours["Orthogonal"][6]) == [0, 1, 2, 3, 4, 5]


def test_conhex_board_has_ludiis_cell_count():
    b = board("(board (add (keep (splitCrossings (merge (rotate 45 (dual (square 12 "
              "diagonals:Concentric))) (shift 3 3 (scale 6 (square 1))))) "
              "(poly {{3 3} {3 9} {9 9} {9 3}})) vertices:{{6 6}}))")
    assert b.num_sites == 41                    # as Ludii's ConHex trace records


# ---------------------------------------------------------------- intersect

def test_intersect_keeps_what_every_graph_has():
    b = board("(board (intersect (square 3) (shift 1 0 (square 3))) use:Vertex)")
    # columns 1 and 2 of the 3 x 3 points, numbered in the first graph's order
    assert b.num_sites == 6 and xy(b, 0) == (1.0, 0.0) and xy(b, 2) == (1.0, 1.0)
    assert sorted(b.neighbours["Orthogonal"][0]) == [1, 2]
    assert board("(board (intersect (square 3) (shift 1 0 (square 3))))").num_sites == 6
    # Pentalath's half hexagon: Ludii's trace records 70 cells
    assert board("(board (intersect {(hex 7) (shift -5.20 0 (hex Rectangle 7 14))}))"
                 ).num_sites == 70


# ---------------------------------------------------------------- spiral

def test_spiral_is_a_path_out_from_the_centre():
    from ludeme.model.ludemes.graph.shapes import spiral_base
    b = board("(board (spiral turns:5 sites:86) use:Vertex)")     # Ishighan: Ludii's 86
    assert b.num_sites == 86 and xy(b, 0) == (0.0, 0.0)
    assert [sorted(n) for n in b.neighbours["Adjacent"][:3]] == [[1], [0, 2], [1, 3]]
    assert b.neighbours["Adjacent"][85] == (84,)
    radius = [(s.x ** 2 + s.y ** 2) ** 0.5 for s in b.sites]
    assert all(r0 < r1 for r0, r1 in zip(radius[1:], radius[2:]))       # always outwards
    # first-turn points: one less than the first base whose centre and 4 turns (base,
    # 2 base, 4 base, 4 base) pass the sites: 1 + 8 + 16 + 32 + 32 = 89 > 86, so 7
    assert spiral_base(5, 86) == 7
    anticlockwise = board("(board (spiral turns:5 sites:86 clockwise:False) use:Vertex)")
    assert all(xy(anticlockwise, s) == (round(-b.sites[s].x, 4) + 0.0, xy(b, s)[1])
               for s in range(1, 86))


# ---------------------------------------------------------------- semi-regular tilings

@pytest.mark.parametrize("text,count", [
    # Ludii's traces of Triple Tangle and Kensington record these point counts
    ("(board (tiling T3464 1) use:Vertex)", 18),     # a hexagon and its 12 outer points
    ("(board (rotate 90 (tiling T3464 2)) use:Vertex)", 72),
    ("(board (tiling T3464 1))", 13),                # 1 hexagon, 6 squares, 6 triangles
    ("(board (tiling T3636 2))", 19),                # 7 hexagons and 12 triangles
    ("(board (tiling T3636 1) use:Vertex)", 6),
])
def test_tiling_counts(text, count):
    assert board(text).num_sites == count


def test_tiling_3464_cells_are_hexagons_squares_and_triangles():
    b = board("(board (tiling T3464 1))")
    sides = sorted(len(f.vertices) for f in b.planar.faces)
    assert sides == [3] * 6 + [4] * 6 + [6]
    middle = next(f.id for f in b.planar.faces if len(f.vertices) == 6)
    assert len(b.neighbours["Orthogonal"][middle]) == 6     # the 6 squares around it


@pytest.mark.parametrize("text,cells,points", [
    ("(board (subdivide (square 2)))", 16, 13),           # each square into 4 triangles
    ("(board (subdivide (square 2) min:5))", 4, 9),       # no cell has 5 sides: unchanged
    ("(board (subdivide (tiling T3464 1) min:6))", 18, 19),   # the hexagon only, into 6
])
def test_subdivide_splits_cells_of_at_least_min_sides_about_their_centres(text, cells, points):
    b = board(text)
    assert (len(b.planar.faces), len(b.planar.vertices)) == (cells, points)
    assert all(len(f.vertices) in (3, 4) for f in b.planar.faces)


def test_subdivide_on_vertices_joins_each_new_point_to_the_corners():
    # (square 3) on vertices: 9 points, 4 squares
    b = board("(board (subdivide (square 3)) use:Vertex)")
    assert b.num_sites == 13 and not b.planar.faces
    # Ludii takes the cells from the last: the top right square's centre is point 9
    centre = b.planar.vertices[9]
    assert (centre.x, centre.y) == (1.5, 1.5)
    assert sorted(v.id for v in centre.neighbours()) == [4, 5, 7, 8]


def test_tiling_33434_is_ludiis_diamond_of_motifs():
    # Ludii's Tiling33434: 14 points a motif, shared where motifs meet; the second size
    # changes nothing (Tiling.construct builds the diamond of the first)
    one = board("(board (tiling T33434 1) use:Vertex)")
    assert one.num_sites == 14
    sides = sorted(len(f.vertices) for f in board("(board (tiling T33434 2))").planar.faces)
    assert set(sides) == {3, 4}
    assert board("(board (tiling T33434 3 5) use:Vertex)").num_sites == \
        board("(board (tiling T33434 3) use:Vertex)").num_sites


# ---------------------------------------------------------------- T3464 parallelogram

def test_t3464_parallelogram_is_a_rows_of_b_motifs():
    # Ludii's ParallelogramOn3464: the hexagon's motif around each of a x b centres
    assert board("(board (tiling T3464 1 1) use:Vertex)").num_sites == \
        board("(board (tiling T3464 1) use:Vertex)").num_sites == 18
    sides = [len(f.vertices) for f in board("(board (tiling T3464 2 3))").planar.faces]
    assert sides.count(6) == 6 and set(sides) == {3, 4, 6}



# ---------------------------------------------------------------- tri Star

@pytest.mark.parametrize("d,rows", [(1, [1, 4, 3, 4, 1]), (2, [1, 2, 7, 6, 5, 6, 7, 2, 1])])
def test_tri_star_is_a_six_pointed_star_of_points(d, rows):
    # Ludii's StarOnTri: the same points played on cells or vertices; the rows, bottom up,
    # are the tips, the hexagon's rows widened by the side points, the tips again.
    for use in ("", " use:Vertex"):
        b = board(f"(board (tri Star {d}){use})")
        heights = sorted({round(s.y, 4) for s in b.planar.vertices})
        assert [sum(1 for v in b.planar.vertices if round(v.y, 4) == h) for h in heights] == rows
    # its cells: the middle hexagon's 6 d^2 triangles and d^2 in each of the 6 points
    assert board(f"(board (tri Star {d}))").num_cells == 12 * d * d


# ---------------------------------------------------------------- concentric Target

def test_concentric_target_cells_are_nested_discs_placed_apart():
    # Ludii's ConcentricTarget: 8 points a ring, each ring one cell, cell f moved to
    # (0, -f - 0.5) but the first, at the centre; no two cells share an edge
    b = board("(board (concentric Target rings:4))")
    assert (b.num_vertices, b.num_edges, b.num_cells) == (32, 32, 4)
    assert [(s.x, s.y) for s in b.sites] == [(0.0, 0.0), (0.0, -1.5), (0.0, -2.5), (0.0, -3.5)]
    assert all(not n for n in b.neighbours["Adjacent"])
    assert all(e.curved for e in b.planar.edges)


def test_concentric_target_with_steps_is_a_wheel():
    # with steps:, Ludii builds the circle board of `steps` cells on each ring
    for use in ("", " use:Vertex"):
        wheel = board(f"(board (concentric Target rings:3 steps:8){use})")
        same = board(f"(board (concentric {{8 8 8}}){use})")
        assert [(s.x, s.y) for s in wheel.sites] == [(s.x, s.y) for s in same.sites]


def test_concentric_target_without_steps_is_played_on_cells_only():
    with pytest.raises(LudemeError, match="on its cells only"):
        board("(board (concentric Target rings:3) use:Vertex)")


# ---------------------------------------------------------------- recoordinate

@pytest.mark.parametrize("types", ["", "Vertex ", "Vertex Edge Cell "])
def test_recoordinate_changes_nothing_as_in_ludii(types):
    plain = board("(board (merge (rectangle 2 5) (square 5)))")
    again = board(f"(board (recoordinate {types}(merge (rectangle 2 5) (square 5))))")
    assert [(s.x, s.y, s.label) for s in again.sites] == [(s.x, s.y, s.label) for s in plain.sites]


# ---------------------------------------------------------------- complete

@pytest.mark.parametrize("text,vertices,edges,cells", [
    # Every two of a hexagon's 6 corners (Ludii's example): 15 edges.
    ("(board (complete (hex 1)) use:Vertex)", 6, 15, None),
    # Each of the 19 hexagons gains its 9 diagonals; the cells stay as they were.
    ("(board (complete (hex 3) eachCell:True))", 54, 72 + 19 * 9, 19),
    # A square's two diagonals: the walk round each corner stops where they cross.
    ("(board (complete (square 2)) use:Vertex)", 4, 6, None),
])
def test_complete_joins_every_pair(text, vertices, edges, cells):
    b = board(text)
    assert (b.num_vertices, b.num_edges) == (vertices, edges)
    if cells is not None:
        assert b.num_cells == cells


def test_complete_each_cell_adds_the_new_edges_after_the_old_cell_by_cell():
    plain, complete = board("(board (square 2))"), board("(board (complete (square 2) "
                                                         "eachCell:True))")
    old = [(e.a.id, e.b.id) for e in plain.planar.edges]
    assert [(e.a.id, e.b.id) for e in complete.planar.edges][:len(old)] == old
    # cell 0's corners in its order: its two diagonals come first
    corners = [v.id for v in complete.planar.faces[0].vertices]
    new = [{e.a.id, e.b.id} for e in complete.planar.edges[len(old):]]
    assert new[:2] == [{corners[0], corners[2]}, {corners[1], corners[3]}]


# ---------------------------------------------------------------- corpus traces

AGREEING = [
    "board_space_line_Score_Four",                        # skew
    "board_space_line_Agilidade",                         # skew of merged wedges
    "board_war_leaping_lines_Awithlaknan_Mosona",         # repeat
    "board_war_leaping_lines_Kolowis_Awithlaknannai",     # repeat
    "board_race_fill_Gadis",                              # circle board on cells
    "board_space_pattern_Azteka",                         # circle board on cells
    "board_race_score_Los_Escaques",                      # circle board on cells, tracks
    "board_hunt_Kaooa",                                   # splitCrossings of a regular star
    "board_space_territory_Residuel",                     # dual of a T3636 tiling, cut
    "board_space_line_Pentalath",                         # intersect
    "board_space_connection_Onyx",                        # subdivide of a T33434 tiling
    "board_space_line_Andantino",                         # a boardless table's playable
    "board_hunt_To_Kinegi_tou_Lagou",                     # merge of shifted circle boards
]


@pytest.mark.parametrize("name", AGREEING)
def test_corpus_traces_on_these_boards_agree_with_ludii(refdata, ludii, name):
    assert_corpus_trace_agrees(refdata, ludii, name)
