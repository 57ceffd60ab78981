"""Tiles with paths (ludeme.model.ludemes.tiles): the rotations a tile is placed with, its
sides matching its neighbours', loops and extents of coloured paths, and the automove meta
rule that plays the moves a placement forces. Each case is a small description written
here; Trax is checked against Ludii's traces where they are present."""

from __future__ import annotations

import pytest

from ludeme.api import load
from ludeme.engine.state import A_SET_FIELD
from ludeme.errors import LudemeError

# Square cells: side 0 faces N, then E, S, W. "Straight" joins N-S in colour 1 and E-W in
# colour 2; "Curve" joins N-E in colour 1 and S-W in colour 2. A rotation r turns a tile
# r / 2 sides clockwise on a square board.
TILES = ('(tile "Straight" numSides:4 {(path from:0 to:2 colour:1) (path from:1 to:3 colour:2)}) '
         '(tile "Curve" numSides:4 {(path from:0 to:1 colour:1) (path from:2 to:3 colour:2)})')


def game(tmp_path, board: str, start: str, play: str, end: str = "", meta: str = "") -> object:
    f = tmp_path / "tiles.lud"
    f.write_text(f'(game "Tiles" (players 2) (equipment {{{board} (hand Shared size:2) {TILES}}}) '
                 f'(rules {meta} (start {{(place "Straight" (handSite Shared)) '
                 f'(place "Curve" (handSite Shared 1)) {start}}}) (play {play}) '
                 f'(end {end or "(if (no Moves Next) (result Mover Win))"})))')
    return load(f)


def rotation_of(move) -> int:
    return next(a[4] for a in move.actions if a[0] == A_SET_FIELD and a[1] == "rotation")


@pytest.mark.parametrize("rotations, expected", [
    ("(rotations {N E})", [0, 2]),
    ("(rotations {E N E})", [2, 0]),          # each once, in the order given
    ("(rotations Orthogonal)", [0, 2, 4, 6]),
    ("(rotations Diagonal)", [1, 3, 5, 7]),
])
def test_rotations_are_direction_indices_per_side(tmp_path, rotations, expected):
    g = game(tmp_path, "(board (square 3))", "",
             f"(move (from (handSite Shared)) (to 4 {rotations}) copy:True)")
    moves = g.new_initial_state(1).legal_moves()
    assert [(m.frm, m.to) for m in moves] == [(9, 4)] * len(expected)
    assert [rotation_of(m) for m in moves] == expected


def test_moves_that_differ_only_by_rotation_are_named_by_it(tmp_path):
    g = game(tmp_path, "(board (square 3))", "",
             "(move (from (handSite Shared)) (to 4 (rotations {N E})) copy:True)")
    names = [str(m) for m in g.new_initial_state(1).legal_moves()]
    assert [n[-12:] for n in names] == ["(rotation 0)", "(rotation 2)"]


def test_a_copy_with_a_rotation_leaves_the_hand_and_turns_the_tile(tmp_path):
    g = game(tmp_path, "(board (square 3))", "",
             "(move (from (handSite Shared 1)) (to 4 (rotations {E})) copy:True)")
    s = g.new_initial_state(1)
    s.apply(s.legal_moves()[0])
    assert (s.what[4], s.what[10], s.sites.rotation[4]) == (2, 2, 2)


# The Straight at the centre (4) shows colour 1 north and south, colour 2 east and west.
# A Curve turned k sides has colour 1 on sides k and k + 1: to face the centre with the
# centre's colour, north of it (7) k is 1 or 2, east (5) 0 or 1, south (1) 0 or 3, west (3)
# 2 or 3 (a tile turned the other way round would give other rotations).
@pytest.mark.parametrize("site, rotations", [(7, [2, 4]), (5, [0, 2]), (1, [0, 6]), (3, [4, 6])])
def test_sides_match_the_colours_of_the_neighbours(tmp_path, site, rotations):
    g = game(tmp_path, "(board (square 3))", '(place "Straight" 4)',
             f"(do (move (from (handSite Shared 1)) (to {site} (rotations Orthogonal)) "
             "copy:True) ifAfterwards:(is SidesMatch))")
    moves = g.new_initial_state(1).legal_moves()
    assert sorted(rotation_of(m) for m in moves) == rotations


def test_sides_match_without_a_tile_next_to_it_and_not_on_an_empty_site(tmp_path):
    g = game(tmp_path, "(board (square 3))", "",
             "(or (do (move (from (handSite Shared 1)) (to 4 (rotations {N})) copy:True) "
             "ifAfterwards:(is SidesMatch)) (do (move Pass) ifAfterwards:(is SidesMatch 0)))")
    moves = g.new_initial_state(1).legal_moves()
    assert [(m.frm, m.to) for m in moves] == [(10, 4)]


# Curves round a 2 x 2 square of a 4 x 4 board (5, 6, 9, 10) close a loop of colour 1 when
# the last one, at 10, is turned 2 sides (rotation 4).
LOOP_START = ('(place "Curve" 5 rotation:0) (place "Curve" 6 rotation:6) '
              '(place "Curve" 9 rotation:2)')


@pytest.mark.parametrize("rotation, colour, over", [
    (4, "(mover)", True), (0, "(mover)", False), (4, "(next)", False)])
def test_a_loop_is_a_closed_path_of_the_colour(tmp_path, rotation, colour, over):
    g = game(tmp_path, "(board (square 4))", LOOP_START,
             "(move (from (handSite Shared 1)) (to 10 (rotations Orthogonal)) copy:True)",
             f"(if (is Loop {colour} path:True) (result Mover Win))")
    s = g.new_initial_state(1)
    s.apply(next(m for m in s.legal_moves() if rotation_of(m) == rotation))
    assert s.over == over


# Straights across row 1 of a 4 x 4 board at 4 and 6; one placed at 5 turned a side makes a
# line of colour 1 from the edge (4) to 6, whose path ends on the empty site 7: Ludii
# counts it, so the extent from 5 is 2 columns.
@pytest.mark.parametrize("extent, rotation, over", [(2, 2, True), (1, 2, False), (1, 0, True)])
def test_path_extent_counts_the_sites_a_path_ends_on(tmp_path, extent, rotation, over):
    g = game(tmp_path, "(board (square 4))",
             '(place "Straight" 4 rotation:2) (place "Straight" 6 rotation:2)',
             "(move (from (handSite Shared)) (to 5 (rotations Orthogonal)) copy:True)",
             f"(if (= {extent} (pathExtent (mover))) (result Mover Win))")
    s = g.new_initial_state(1)
    s.apply(next(m for m in s.legal_moves() if rotation_of(m) == rotation))
    assert s.over == over


def test_path_extent_round_a_closed_path_is_refused(tmp_path):
    g = game(tmp_path, "(board (square 4))", LOOP_START,
             "(move (from (handSite Shared 1)) (to 10 (rotations Orthogonal)) copy:True)",
             "(if (< 10 (pathExtent (mover))) (result Mover Win))")
    s = g.new_initial_state(1)
    with pytest.raises(LudemeError, match="closed path"):
        s.apply(next(m for m in s.legal_moves() if rotation_of(m) == 4))


# (automove): the moves the phase then gives, each to a site no other goes to, are played
# with the move, again until none is left.
@pytest.mark.parametrize("play, after", [
    # one kind of piece: after the first, each empty site takes one move, so all are forced
    ('(move Add (to (sites Empty)))', [1, 1, 1]),
    # two kinds: two moves to each site, none forced
    ('(or (move Add (piece "A") (to (sites Empty))) (move Add (piece "B") (to (sites Empty))))',
     [1, 0, 0]),
])
def test_automove_plays_the_moves_to_a_single_site(tmp_path, play, after):
    f = tmp_path / "auto.lud"
    f.write_text(f'(game "Auto" (players 2) (equipment {{(board (rectangle 1 3)) '
                 f'(piece "A" Shared) (piece "B" Shared)}}) (rules (meta (automove)) '
                 f'(play {play}) (end (if (is Full) (result Mover Win)))))')
    s = load(f).new_initial_state(1)
    s.apply(next(m for m in s.legal_moves() if m.to == 0))
    assert [int(s.what[i] > 0) for i in range(3)] == after
    assert s.over == all(after)


def test_a_move_applied_twice_gains_its_forced_moves_once(tmp_path):
    f = tmp_path / "auto.lud"
    f.write_text('(game "Auto" (players 2) (equipment {(board (rectangle 1 4)) '
                 '(piece "A" Shared)}) (rules (meta (automove)) '
                 '(play (move Add (to (sites Empty)))) (end (if (is Full) (result Mover Win)))))')
    s = load(f).new_initial_state(1)
    move = s.legal_moves()[0]
    first, second = s.clone(), s.clone()
    first.apply(move)
    second.apply(move)
    assert len(move.then) == 1 and first.what == second.what == [1, 1, 1, 1]


# Tiles with two slots a side: a side's slots meet the facing side's in the opposite order
# (Ludii's IsSidesMatch). "Two" shows colours 1, 2 on its north side and 2, 1 on its south
# side: one north of another matches it unturned, not turned two sides.
TWO_SLOTS = ('(tile "Two" numSides:4 slotsPerSide:2 {(path from:0 slotsFrom:0 to:2 slotsTo:1 '
             'colour:1) (path from:0 slotsFrom:1 to:2 slotsTo:0 colour:2)})')


def test_slots_meet_the_facing_sides_slots_in_the_opposite_order(tmp_path):
    f = tmp_path / "slots.lud"
    f.write_text(f'(game "Slots" (players 2) (equipment {{(board (square 3)) '
                 f'(hand Shared size:1) {TWO_SLOTS}}}) (rules (start {{(place "Two" '
                 '(handSite Shared)) (place "Two" 4)}) (play (do (move (from (handSite Shared)) '
                 '(to 7 (rotations Orthogonal)) copy:True) ifAfterwards:(is SidesMatch))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    moves = load(f).new_initial_state(1).legal_moves()
    assert [rotation_of(m) for m in moves] == [0]


@pytest.mark.parametrize("text, message", [
    ('(tile "T" slots:{1 1 1 1} slotsPerSide:1)', "not both"),
    ('(tile "T" numSides:4 {(path from:0 to:2 colour:1)})', None),
])
def test_tile_declarations(tmp_path, text, message):
    f = tmp_path / "t.lud"
    f.write_text(f'(game "T" (players 2) (equipment {{(board (square 3)) {text}}}) '
                 '(rules (play (move Pass)) (end (if (no Moves Next) (result Mover Win)))))')
    if message is None:
        load(f)
    else:
        with pytest.raises(LudemeError, match=message):
            load(f)


def test_rotations_of_an_added_piece_are_refused(tmp_path):
    f = tmp_path / "t.lud"
    f.write_text('(game "T" (players 2) (equipment {(board (square 3)) (piece "D" Each)}) '
                 '(rules (play (move Add (to (sites Empty) (rotations Orthogonal)))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    with pytest.raises(LudemeError, match="rotations"):
        load(f)


@pytest.mark.slow
@pytest.mark.parametrize("folder", ["corpus-traces", "corpus-traces-seed3"])
def test_trax_agrees_with_ludii(refdata, ludii, folder):
    from ludeme.analysis.crosscheck import crosscheck_files
    trace = refdata / folder / "board_space_connection_Trax.json.gz"
    if not trace.is_file():
        pytest.skip(f"{trace} not found")
    verdicts = crosscheck_files([str(trace)], ludii_dir=str(ludii),
                                index=str(refdata / "corpus-index.tsv"))
    assert all(v.ok for v in verdicts), "\n".join(v.line() for v in verdicts)


@pytest.mark.parametrize("tiling, shape", [("Square", "SquareShape"), ("Hexagonal", "HexShape")])
def test_a_boardless_table_has_the_shape_of_its_tiling(tmp_path, tiling, shape):
    from ludeme.analysis.concepts import compile_time
    f = tmp_path / "boardless.lud"
    f.write_text(f'(game "B" (players 2) (equipment {{(boardless {tiling} 3) (piece "D" Each)}}) '
                 '(rules (play (move Add (to (sites Empty)))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    got = compile_time(str(f))
    assert {shape, "RegularShape", "PolygonShape", "Boardless"} <= got.boolean
    assert got.non_boolean["NumLayers"] == "0"
