"""Boards on the remaining bases and tilings: brick, quadhex, layers and the tilings T31212,
T333333_33434, T33336, T33344, T4612 and T488. The facts (counts, coordinates, the first
numbers) are worked out by hand from Ludii's generators (Brick and its helpers, Quadhex,
Layers, the Tiling* classes) and its Graph.reorder (bottom row first, then left to right;
the height plays no part)."""

from collections import Counter
from functools import lru_cache

import pytest

from ludeme.analysis.conformance import random_playout
from ludeme.boards import Board
from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description
from ludeme.language.grammar import parse
from ludeme.model.build import build_game
from ludeme.model.ludemes.graph.containers import build_board


@lru_cache(maxsize=None)
def board(text: str) -> Board:
    return build_board(parse(text, "t.lud")[0], 2)


def counts(text: str) -> tuple[int, int, int]:
    g = board(text).planar
    return len(g.vertices), len(g.edges), len(g.faces)


def sides(text: str) -> dict[int, int]:
    """How many cells have each number of sides."""
    return dict(Counter(len(f.vertices) for f in board(text).planar.faces))


def at(el) -> tuple[float, ...]:
    return tuple(round(c, 3) for c in (el.x, el.y, el.z))


# ---------------------------------------------------------------- brick

@pytest.mark.parametrize("shape,counted", [
    # 2 courses over 5 columns: 3 bricks (the last sticking out), then 2; 7 + 7 + 5 points
    ("(brick 2)", (19, 23, 5)),
    # trimmed: the bricks sticking out at either end of a course are cut to squares
    ("(brick 3 trim:True)", (28, 38, 11)),
    ("(brick Limping 2)", (25, 31, 7)),                 # 2 courses of 3 then 4 bricks
    ("(brick 2 3)", (25, 31, 7)),
    ("(brick Diamond 2)", (16, 19, 4)),
    # Ludii's DiamondOrPrismOnBrick cuts the extra rows by the side alone: a prism of side 2
    # is its diamond
    ("(brick Prism 2 1)", (16, 19, 4)),
    ("(brick Spiral 2)", (16, 20, 5)),                  # a square ringed by 4 bricks
])
def test_brick_counts(shape, counted):
    assert counts(f"(board {shape})") == counted


def test_brick_cells_are_ludiis_bricks_numbered_bottom_row_first():
    g = board("(board (brick 2))").planar
    assert [at(f)[:2] for f in g.faces] == [(1, 0.5), (3, 0.5), (5, 0.5), (2, 1.5), (4, 1.5)]
    assert sides("(board (brick 2))") == {6: 5}
    assert [at(v)[:2] for v in g.vertices[6:8]] == [(6, 0), (0, 1)]
    trimmed = board("(board (brick 3 trim:True))").planar
    assert sides("(board (brick 3 trim:True))") == {4: 4, 6: 7}
    assert at(trimmed.faces[0])[:2] == (1.5, 0.5)       # the first half brick, at x 1 to 2
    spiral = board("(board (brick Spiral 2))").planar
    square = next(f for f in spiral.faces if len(f.vertices) == 4)
    assert at(square)[:2] == (1.5, 1.5)


def test_brick_board_is_played_on_cells_by_default():
    b = board("(board (brick 2))")
    assert b.num_sites == 5
    # the middle brick of the top course touches the two below it and its neighbour
    assert sorted(b.neighbours["Orthogonal"][3]) == [0, 1, 4]


# ---------------------------------------------------------------- quadhex

@pytest.mark.parametrize("layers,counted", [
    (1, (13, 18, 6)),           # the centre, 6 side middles and 6 corners
    (2, (37, 60, 24)),
    (3, (73, 126, 54)),         # (quadhex 4) is three-player chess's 96 cells
])
def test_quadhex_is_six_kites_of_layers_x_layers_quadrilaterals(layers, counted):
    text = f"(board (quadhex {layers}))"
    assert counts(text) == counted
    assert sides(text) == {4: 6 * layers * layers}


def test_quadhex_numbering_starts_on_the_bottom_side():
    g = board("(board (quadhex 2))").planar
    # the bottom side runs from (-1, -sqrt 3) to (1, -sqrt 3) in half-unit steps
    assert [at(v)[:2] for v in g.vertices[:5]] == [(-1, -1.732), (-0.5, -1.732), (0, -1.732),
                                                   (0.5, -1.732), (1, -1.732)]


def test_quadhex_thirds_joins_three_sections_round_a_triangle():
    text = "(board (quadhex 2 thirds:True))"
    # each section two mirrored 2 x 2 grids; the gaps between sections and the middle
    # triangle are cells too
    assert sides(text) == {4: 24, 6: 3, 3: 1}
    with pytest.raises(LudemeError, match="at least 2 layers"):
        board("(board (quadhex 1 thirds:True))")


# ---------------------------------------------------------------- layers

def test_layers_stacks_copies_one_unit_up_numbered_by_ground_position():
    text = "(board (layers 3 (square 3)) use:Vertex)"
    # 3 x 9 points; each copy's 12 sides and 4 squares, and 2 x 9 uprights
    assert counts(text) == (27, 54, 12)
    b = board(text)
    assert [at(v) for v in b.planar.vertices[:4]] == [(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 0)]
    assert b.step["U"][:3] == (1, 2, -1) and b.step["D"][:3] == (-1, 0, 1)
    assert b.step["E"][0] == 3 and b.step["E"][1] == 4       # along one layer
    assert set(b.directions) == {"N", "NE", "E", "SE", "S", "SW", "W", "NW", "U", "D"}


def test_layers_of_cells_keep_each_copys_cells_apart():
    b = board("(board (layers 2 (square 2)))")
    assert b.num_sites == 8
    assert [at(f) for f in b.planar.faces[:3]] == [(0.5, 0.5, 0), (0.5, 0.5, 1), (1.5, 0.5, 0)]
    # a cell and the one straight above share no side: Ludii gives no step between them
    assert 1 not in b.neighbours["All"][0]
    assert sorted(b.neighbours["Orthogonal"][0]) == [2, 4]


# ---------------------------------------------------------------- tilings

@pytest.mark.parametrize("tiling,counted,cells", [
    # dodecagons a (2 + sqrt 3) apart share sides; a triangle in each gap
    ("T31212 2", (60, 78, 19), {12: 7, 3: 12}),
    # dodecagons (3 + sqrt 3) apart: a square between two, a hexagon between three
    ("T4612 2", (84, 108, 25), {12: 7, 4: 12, 6: 6}),
    ("T33336 1", (18, 36, 19), {6: 1, 3: 18}),          # a hexagon ringed by triangles
    # T3464's motif (a hexagon and 12 points round it) at Ludii's wider spacing
    ("T333333_33434 1", (18, 30, 13), {6: 1, 4: 6, 3: 6}),
    ("T33344 2 3", (16, 27, 12), {4: 6, 3: 6}),         # 2 rows of 3 squares, triangles between
    ("T33344 2", (12, 19, 8), {4: 4, 3: 4}),
    ("T488 3", (48, 60, 13), {8: 9, 4: 4}),             # octagons sharing sides, squares between
    ("T488 2 3", (34, 41, 8), {8: 6, 4: 2}),
])
def test_tiling_counts_and_cells(tiling, counted, cells):
    text = f"(board (tiling {tiling}))"
    assert counts(text) == counted
    assert sides(text) == cells


@pytest.mark.parametrize("tiling,first", [
    ("T488 1", [(-0.5, -1.207), (0.5, -1.207)]),        # the octagon's bottom side
    ("T31212 1", [(-0.5, -1.866), (0.5, -1.866)]),      # the dodecagon's bottom side
    ("T33344 1", [(0, 0), (1, 0)]),
    ("T33336 1", [(-1, -1.732), (0, -1.732)]),
])
def test_tiling_numbering_starts_bottom_left(tiling, first):
    g = board(f"(board (tiling {tiling}) use:Vertex)").planar
    assert [at(v)[:2] for v in g.vertices[:2]] == first


def test_tilings_ludii_builds_in_one_shape_ignore_the_second_size():
    for tiling in ("T31212", "T4612", "T33336", "T333333_33434"):
        assert counts(f"(board (tiling {tiling} 1 5))") == counts(f"(board (tiling {tiling} 1))")


@pytest.mark.parametrize("custom,same,dy", [
    # a hexagon walked from side lengths (each one site shorter) from motif (0, 0) to the
    # right and round: the 7 motifs of size 2, two rows (2 sqrt 3) lower
    ("(tiling T3636 {2 2})", "(tiling T3636 2)", -3.464),
    # octagons (2.41 apart) centred inside 5 x 5: 3 x 3 of them, in the same order
    ("(tiling T488 (poly {{0 0} {0 5} {5 5} {5 0}}))", "(tiling T488 3)", 0),
    # Ludii builds these at a fixed size whatever the outline
    ("(tiling T4612 {2})", "(tiling T4612 3)", 0),
    ("(tiling T333333_33434 (poly {{0 0} {0 9} {9 9} {9 0}}))", "(tiling T333333_33434 2)", 0),
    ("(tiling T33434 {2})", "(tiling T33434 3)", 0),
])
def test_tiling_in_an_outline_is_ludiis_custom_board(custom, same, dy):
    assert [at(v) for v in board(f"(board {custom} use:Vertex)").planar.vertices] == \
        [(x, round(y + dy, 3), z) for x, y, z in
         map(at, board(f"(board {same} use:Vertex)").planar.vertices)]


def test_tiling_outline_quirks():
    # CustomOn488 walks side lengths in units, not octagon widths: one octagon fits
    assert counts("(board (tiling T488 {2 2 2 2}))") == (8, 8, 1)
    # CustomOn3464 reads its motif as (y, x): the hexagons stand on a corner
    g = board("(board (tiling T3464 {2 2}))").planar
    assert counts("(board (tiling T3464 {2 2}))") == counts("(board (tiling T3464 2))")
    hexagon = next(f for f in g.faces if len(f.vertices) == 6)
    assert any(abs(v.x - hexagon.x) < 1e-3 and abs(v.y - hexagon.y - 1) < 1e-3
               for v in hexagon.vertices)
    # T33434 in a polygon: Ludii's diamond of 5 kept inside it
    assert sides("(board (tiling T33434 (poly {{0 0} {0 3} {3 3} {3 0}})))") == {3: 4, 4: 4}


# ---------------------------------------------------------------- celtic

@pytest.mark.parametrize("shape,counted,cells", [
    # a diamond, and a point out beyond each corner making a triangle with its two sides
    ("(celtic 1)", (8, 12, 5), {4: 1, 3: 4}),
    # 4 diamonds and the square between them; 4 corner triangles and 4 chords across the
    # notches between diamonds
    ("(celtic 2)", (16, 28, 13), {4: 5, 3: 8}),
    ("(celtic 2 3)", (21, 38, 18), {4: 8, 3: 10}),
])
def test_celtic_rounds_off_a_grid_of_diamonds(shape, counted, cells):
    text = f"(board {shape} use:Vertex)"
    assert counts(text) == counted
    assert sides(text) == cells


def test_celtic_corner_point_lies_beyond_the_corner():
    # Ludii's Celtic: 0.9 of the side before the corner out from the middle of the side
    # after it: from the diamond's left corner (-1/sqrt 2, 0), 1.4 x (-1/sqrt 2) each way
    g = board("(board (celtic 1) use:Vertex)").planar
    corner = g.vertices[0]
    assert at(corner)[:2] == (-0.99, -0.99)
    assert sorted(at(e.other(corner))[:2] for e in corner.edges) == [(-0.707, 0), (0, -0.707)]


def test_celtic_polygon_takes_the_diamonds_inside():
    # the diamonds are 1.41 apart: 0 to 2.83 fit in a square of 4
    assert counts("(board (celtic (poly {{0 0} {0 4} {4 4} {4 0}})))") == \
        counts("(board (celtic 3))")


def test_celtic_sides_keep_ludiis_shrunk_outline():
    # Side lengths in diamond widths, the first to the right (Polygon.fromSides reads
    # Celtic's real steps as x, y), so the outline runs anticlockwise and Polygon.inflate
    # shrinks it: of the 3 x 4 diamonds on or inside it, only (1, 1) and (1, 2) stay
    # inside, and (0, 0), where the walk's start and end (both kept) are pushed apart;
    # the square between (0, 0) and (1, 1), its sides a unit long, is a cell too
    squares = [at(f)[:2] for f in board("(board (celtic {2 3 2 3}))").planar.faces
               if len(f.vertices) == 4]
    assert sorted(squares) == [(0, 0), (0.707, 0.707), (1.414, 1.414), (1.414, 2.828)]


# ---------------------------------------------------------------- playable

@pytest.mark.parametrize("shape,use", [
    ("(brick 3)", ""),
    ("(brick Spiral 3)", ""),
    ("(quadhex 2)", ""),
    ("(quadhex 2 thirds:True)", "use:Vertex"),
    ("(layers 2 (square 3))", "use:Vertex"),
    ("(tiling T488 2)", ""),
    ("(tiling T4612 1)", "use:Vertex"),
    ("(tiling T33344 2)", ""),
    ("(celtic 2)", "use:Vertex"),
])
def test_a_game_on_each_new_board_plays_to_an_end(shape, use):
    # place a disc, or step one to an empty neighbour; a line of 3 wins, a full board draws
    game = build_game(expand(load_description("t.lud", (
        f'(game "T" (players 2) (equipment {{(board {shape} {use}) (piece "Disc" Each '
        '(move Step (to if:(is Empty (to)))))}) (rules (play (or (move Add (to (sites Empty))) '
        '(forEach Piece))) (end {(if (is Line 3) (result Mover Win)) '
        '(if (no Moves Next) (result Mover Draw))})))'))))
    for seed in (1, 2):
        state, choices = random_playout(game, seed, max_decisions=400)
        assert state.is_terminal() and choices
        assert random_playout(game, seed, max_decisions=400)[1] == choices


# ---------------------------------------------------------------- concepts

@pytest.mark.parametrize("shape,expected", [
    # the shape and tiling concepts each Ludii class declares
    ("(brick 3)", {"BrickTiling", "SquareShape", "PolygonShape"}),
    ("(brick 3 3)", {"BrickTiling", "RectangleShape", "PolygonShape"}),   # two sizes written
    ("(brick Limping 3)", {"BrickTiling", "RectangleShape", "PolygonShape"}),
    ("(brick Prism 3 2)", {"BrickTiling", "PrismShape", "PolygonShape"}),
    ("(brick Spiral 3)", {"BrickTiling", "SpiralShape", "PolygonShape"}),
    ("(quadhex 2)", {"QuadHexTiling", "HexShape", "PolygonShape"}),
    ("(layers 2 (quadhex 2))", {"QuadHexTiling", "HexShape", "PolygonShape"}),
    ("(tiling T488 2 3)", {"SemiRegularTiling", "RectangleShape", "RegularShape", "PolygonShape"}),
    ("(tiling T4612 2)", {"SemiRegularTiling", "PolygonShape"}),
    ("(tiling T488 {6 6 6 6})", {"SemiRegularTiling", "PolygonShape"}),
    ("(tiling T3464 (poly {{0 0} {0 9} {9 9} {9 0}}))", {"SemiRegularTiling", "PolygonShape"}),
    ("(celtic 3)", {"CelticTiling", "SquareShape", "PolygonShape"}),
    ("(celtic {2 3 2 3})", {"CelticTiling", "RectangleShape", "PolygonShape"}),
])
def test_new_boards_have_ludiis_shape_concepts(tmp_path, shape, expected):
    from ludeme.analysis.concepts import compile_time
    lud = tmp_path / "t.lud"
    lud.write_text(f'(game "T" (players 2) (equipment {{(board {shape}) (piece "Disc" Each)}}) '
                   '(rules (play (move Add (to (sites Empty)))) (end (if (is Line 3) '
                   '(result Mover Win)))))')
    got = compile_time(str(lud)).boolean
    # with the two parents, Shape and Tiling
    assert {c for c in got if c.endswith(("Shape", "Tiling"))} == expected | {"Shape", "Tiling"}
