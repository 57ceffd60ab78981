"""`(phase of:<site>)`: the colour class Ludii's board measure gives each site, and the
games that read it (Triad also ranks its moves with (max Captures), whose consequents read
the move as the last one played)."""

import pytest

from ludeme.api import load

from conftest import assert_corpus_trace_agrees

GAME = ('(game "g" (players 2) (equipment {{(board {board}{use}) (piece "Disc" Each)}}) '
        '(rules (start {{{start}}}) (play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _load(tmp_path, play, board="(square 3)", use="", start=""):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(board=board, use=use, play=play, start=start))
    return load(f)


def _value(tmp_path, expr, board="(square 3)", use=""):
    """The value of `expr` in the initial position: the first n in -1..5 for which
    (= n expr) lets the mover add a disc (else the mover only passes)."""
    for n in range(-1, 6):
        game = _load(tmp_path, f'(if (= {n} {expr}) (move Add (to (sites Empty))))', board, use)
        if not game.new_initial_state().legal_moves()[0].is_pass:
            return n
    raise AssertionError(f"{expr} is not in -1..5")


@pytest.mark.parametrize("board,use,site,phase", [
    # A square board is coloured as a chessboard from cell 0 (Ludii's measurePhase starts
    # at the first element, phase 0, and gives each the least phase no neighbour has).
    ("(square 3)", "", 0, 0), ("(square 3)", "", 1, 1), ("(square 3)", "", 4, 0),
    ("(square 3)", "", 5, 1),
    # Played on vertices the board is 3 x 3 vertices, alternating along their edges too.
    ("(square 3)", " use:Vertex", 0, 0), ("(square 3)", " use:Vertex", 1, 1),
    ("(square 3)", " use:Vertex", 4, 0), ("(square 3)", " use:Vertex", 5, 1),
    # A triangle's neighbours across its edges point the other way: the bottom row's
    # upward triangles (0, 1, 2) share phase 0, the downward ones above them (3, 4) 1.
    ("(tri 3)", "", 0, 0), ("(tri 3)", "", 2, 0), ("(tri 3)", "", 3, 1),
    # Off the board (below 0) the phase is -1.
    ("(square 3)", "", -1, -1),
])
def test_phase_of_a_site(tmp_path, board, use, site, phase):
    assert _value(tmp_path, f"(phase of:{site})", board, use) == phase


def test_phase_of_another_site_type(tmp_path):
    # Played on cells, (phase Vertex of:1) reads the vertices' colouring.
    assert _value(tmp_path, "(phase Vertex of:1)") == 1
    assert _value(tmp_path, "(phase Vertex of:5)") == 0


def test_hex_cells_have_three_phases_no_neighbours_share(tmp_path):
    game = _load(tmp_path, "(move Add (to (sites Empty)))", board="(hex 3)")
    board = game.board
    phases = [s.phase for s in board.sites]
    assert set(phases) == {0, 1, 2}
    for site, nbors in enumerate(board.neighbours["Orthogonal"]):
        assert all(phases[n] != phases[site] for n in nbors)


def test_a_step_kept_to_its_phase(tmp_path):
    # Bizingo's and Phase Chess's rule: a step to a cell of the same colour, on a
    # chessboard only a diagonal one.
    play = ('(forEach Piece "Disc" (move Step (to if:(and (is Empty (to)) '
            '(= (phase of:(from)) (phase of:(to)))))))')
    game = _load(tmp_path, play, start='(place "Disc1" 4)')
    assert sorted(m.to for m in game.new_initial_state().legal_moves()) == [0, 2, 6, 8]


def test_max_captures_consequents_read_the_move_as_the_last_one(tmp_path):
    # The capture is in the step's consequents, around (last To): the move to 1 takes the
    # enemy on 2, the one to 3 takes nothing, so only the first is kept.
    play = ('(max Captures (forEach Piece "Disc" (move Step Orthogonal (to if:(is Empty (to))) '
            '(then (forEach Site (sites Around (last To) Orthogonal) '
            '(if (is Enemy (who at:(site))) (remove (site))))))))')
    game = _load(tmp_path, play, start='(place "Disc1" 0) (place "Disc2" 2)')
    assert [(m.frm, m.to) for m in game.new_initial_state().legal_moves()] == [(0, 1)]


def test_triad_agrees_with_ludii(refdata, ludii):
    assert_corpus_trace_agrees(refdata, ludii, "board_war_replacement_eliminate_all_Triad")


def test_phase_gives_the_reference_rows_on_the_compiled_backend(tmp_path):
    import pandas as pd

    from ludeme.analysis.playouts import run_playouts
    from ludeme.engine.compiled.codegen import generate
    # Each side adds on its own colour of a 4 x 4 chessboard, or steps diagonally.
    play = ('(or (move Add (to (sites Empty) if:(= (phase of:(to)) (- (mover) 1)))) '
            '(forEach Piece "Disc" (move Step (to if:(and (is Empty (to)) '
            '(= (phase of:(from)) (phase of:(to))))))))')
    game = _load(tmp_path, play, board="(square 4)")
    generate(game)
    rows = [run_playouts(game, 20, 3, jobs=1, progress=False, backend=b)
            for b in ("reference", "compiled")]
    assert [r.attrs["backend"] for r in rows] == ["reference", "compiled"]
    pd.testing.assert_frame_equal(*(r.drop(columns="seconds") for r in rows))
