"""Boards cut or drawn by a polygon.

`(clip <graph> <poly>)`: the points inside the (inflated) polygon go with their edges, the
rest keep their order and the cells are found again (Ludii's Clip). Fractal's board is a
clipped hexagon joined to other boards by cells given by vertex index, so its numbering is
checked against the indices its designer read off Ludii's board.

`(square <poly>)` and `(square {<sides>})`: the grid points inside an outline (Ludii's
CustomOnSquare); Make Muster's options say how many cells each of its boards has."""

import math

import pytest

from ludeme.cli.board import load_board
from ludeme.errors import LudemeError
from ludeme.language.grammar import parse
from ludeme.language.syntax import Array, Call, Int
from ludeme.model.ludemes.graph.containers import build_board


def board(text):
    return build_board(parse(text, "t.lud")[0], 2)


@pytest.mark.parametrize("text,vertices,edges,cells", [
    # The middle point of (square 4)'s 5 x 5 grid goes: its 4 cells become one.
    ("(board (clip (square 4) (poly {{1.5 1.5} {1.5 2.5} {2.5 2.5} {2.5 1.5}})))",
     24, 36, 13),
    # The polygon is inflated by 0.1 (outwards, its corners given clockwise): the 9 points
    # on and inside {1..3} x {1..3} go, leaving the outline of 16 points round one cell.
    ("(board (clip (square 4) (poly {{1 1} {1 3} {3 3} {3 1}})))", 16, 16, 1),
    # Given anticlockwise it shrinks instead: only the middle point is inside.
    ("(board (clip (square 4) (poly {{1 1} {3 1} {3 3} {1 3}})))", 24, 36, 13),
    # A polygon missing the board clips nothing.
    ("(board (clip (square 2) (poly {{5 5} {5 6} {6 6}})))", 9, 12, 4),
])
def test_clip_counts(text, vertices, edges, cells):
    b = board(text)
    assert (b.num_vertices, b.num_edges, b.num_cells) == (vertices, edges, cells)


def test_clip_keeps_the_order_of_the_points_left():
    whole = board("(board (square 2) use:Vertex)")
    clipped = board("(board (clip (square 2) (poly {{0.5 0.5} {0.5 1.5} {1.5 1.5} "
                    "{1.5 0.5}})) use:Vertex)")
    # vertex 4, (1, 1), goes; the others follow in their order, so 5 becomes 4
    assert [(s.x, s.y) for s in clipped.sites] == \
        [(s.x, s.y) for s in whole.sites if (s.x, s.y) != (1.0, 1.0)]


def test_clip_with_too_few_corners_is_refused():
    with pytest.raises(LudemeError, match="at least 3 corners"):
        board("(board (clip (square 2) (poly {{0 0} {1 1}})))")


def _added_cells(call):
    """The vertex index lists of the `cells:` of the board's outermost (add ...)."""
    add = call.positional()[0]
    assert isinstance(add, Call) and add.name == "add"
    return [[i.value for i in row.items if isinstance(i, Int)] for row in add.named("cells").items
            if isinstance(row, Array)]


def test_fractal_cells_join_its_boards_at_the_designers_indices(ludii):
    # Fractal joins a clipped hexagon (scaled by 3), a middle board and an inner one (scaled
    # by 1/3) with cells given by vertex index: with Ludii's numbering every side of those
    # cells is as long as one of the three boards' edges (3, 1, 1/3) or a joint between
    # two boards (2/3 or 2), never a jump across the board.
    _, call, b = load_board(str(ludii / "corpus/board/space/connection/Fractal.lud"))
    cells = _added_cells(call)
    assert len(cells) == 24
    points = b.planar.vertices
    for cell in cells:
        for i, a in enumerate(cell):
            c = cell[(i + 1) % len(cell)]
            side = math.dist((points[a].x, points[a].y), (points[c].x, points[c].y))
            assert min(abs(side - u) for u in (3, 2, 1, 2 / 3, 1 / 3)) < 0.02, (cell, a, c)


# ---------------------------------------------------------------- custom square boards

@pytest.mark.parametrize("text,vertices,cells", [
    ("(board (square (poly {{0 0} {0 2} {3 2} {3 0}})))", 12, 6),
    # Anticlockwise the outline shrinks by 0.1 and the points on it are out: the middle
    # row's 2 inner points are left, joined by one edge and no cell.
    ("(board (square (poly {{0 0} {3 0} {3 2} {0 2}})) use:Vertex)", 2, 0),
    # Up 4, right 3, down 1 (a negative length turns left and walks back), right 2, down 3:
    # an L of 4 x 3 and 3 x 2 squares (Ludii's documented example).
    ("(board (square {4 3 -1 2 3}))", 28, 18),
    ("(board (square {2 2 2 2}))", 9, 4),
])
def test_custom_square_counts(text, vertices, cells):
    b = board(text)
    assert (b.num_vertices, b.num_cells) == (vertices, cells)


def test_custom_square_is_numbered_bottom_row_first():
    b = board("(board (square {2 2 2 2}) use:Vertex)")
    assert [(s.x, s.y) for s in b.sites] == [(float(x), float(y)) for y in range(3)
                                               for x in range(3)]


def test_custom_square_takes_the_diagonals():
    plain = board("(board (square {2 2 2 2}))")
    crossed = board("(board (square {2 2 2 2} diagonals:Alternating))")
    # an alternating diagonal splits each of the 4 squares in two
    assert (plain.num_edges, crossed.num_edges, crossed.num_cells) == (12, 16, 8)


@pytest.mark.parametrize("item,cells", [("Muster 2", 20), ("Muster 3", 45), ("Muster 4", 80),
                                        ("Muster 5", 125), ("Muster 6", 180)])
@pytest.mark.parametrize("orientation", ["Orthogonal", "Angled"])
def test_make_muster_boards_have_the_cells_their_options_name(ludii, item, cells, orientation):
    _, _, b = load_board(str(ludii / "corpus/board/space/group/Make Muster.lud"),
                         [f"Board Size/{item}", f"Orientation/{orientation}"])
    assert b.num_cells == cells


# ---------------------------------------------------------------- custom triangular boards

@pytest.mark.parametrize("use,vertices,cells", [("", 6, 4), (" use:Vertex", 6, 4)])
def test_tri_poly_takes_the_lattice_points_inside(use, vertices, cells):
    # Ludii's CustomOnTri, the same on cells and vertices: a parallelogram of two rows of 3
    b = board(f"(board (tri (poly {{{{0 0}} {{0.5 0.87}} {{2.5 0.87}} {{2 0}}}})){use})")
    assert (b.num_vertices, b.num_cells) == (vertices, cells)
    assert [round(s.y, 2) for s in b.planar.vertices] == [0.0] * 3 + [0.87] * 3


def test_hex_poly_takes_the_hexagons_whose_centres_are_inside():
    b = board("(board (hex (poly {{0 0} {0 1.5} {3.5 1.5} {3.5 0}})))")
    assert [(round(f.x, 2), round(f.y, 2)) for f in b.planar.faces] == \
        [(0.0, 0.0), (1.73, 0.0), (3.46, 0.0), (0.87, 1.5), (2.6, 1.5)]


@pytest.mark.parametrize("path,slug", [
    # CustomOnTri and CustomOnHex set TriangleTiling or HexTiling and PolygonShape only:
    # these games' default boards are limping hexagons, as Ludii's records of them say.
    ("board/space/blocking/Claustro.lud", "board_space_blocking_Claustro"),
    ("board/space/group/Abrobad.lud", "board_space_group_Abrobad"),
    ("board/space/group/Brain Coral.lud", "board_space_group_Brain_Coral"),
    # HexagonOn3464 sets SemiRegularTiling, HexShape and PolygonShape (Lotus's board).
    ("board/space/territory/Lotus.lud", "board_space_territory_Lotus"),
])
def test_boards_have_ludiis_shape_concepts(ludii, refdata, path, slug):
    import json

    from ludeme.analysis.concepts import compile_time
    got = compile_time(ludii / "corpus" / path)
    record = json.loads((refdata / f"corpus-concepts/{slug}.json").read_text())["booleanConcepts"]
    shapes = {c for c in got.boolean if c.endswith(("Shape", "Tiling"))}
    assert shapes == {c for c in record if c.endswith(("Shape", "Tiling"))}
