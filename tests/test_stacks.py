"""Stacks and the ludemes Seesaw and Connect Four need, checked on small positions
(tables of snippets with the values Ludii gives), then against Ludii's traces: Seesaw
(base 4 and 5) and Connect Four (1D stacks, 2D drops) agree step by step, levels and
stacks included, with Ludii's files and, for Seesaw, with descriptions/seesaw.lud."""

import pytest

from conftest import DESCRIPTIONS
from ludeme.api import load
from ludeme.errors import LudemeError
from ludeme.analysis.crosscheck import crosscheck_files, read_trace, replay

SEESAW = str(DESCRIPTIONS / "seesaw.lud")

# A 5x5 board; pieces A1 (what 1), A2 (2), tiles T1 (3), T2 (4). Stacks, bottom first:
# 12: T1 A1 A1 | 13: A2 | 7: T2 | 0: A1 | 18: T1 A2
GAME = ('(game "t" (players 2) (equipment {{(board (square 5)) (piece "A" Each) '
        '(tile "T" Each)}}) (rules (start {{(place Stack "T1" 12) (place Stack "A1" 12 count:2) '
        '(place Stack "A2" 13) (place Stack "T2" 7) (place Stack "A1" 0) (place Stack "T1" 18) '
        '(place Stack "A2" 18)}}) (play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _state(tmp_path, play):
    f = tmp_path / "t.lud"
    f.write_text(GAME.format(play=play))
    return load(f).new_initial_state()


def _sites(tmp_path, play):
    return sorted(m.to for m in _state(tmp_path, play).legal_moves() if not m.is_pass)


def _value(tmp_path, expr):
    """The value of an integer expression: the one board site equal to it."""
    got = _sites(tmp_path, f"(move Add (piece \"A1\") (to (sites Board) if:(= (to) {expr})) "
                           "stack:True)")
    assert len(got) == 1, got
    return got[0]


INTS = [
    ("(size Stack at:12)", 3),
    ("(size Stack at:5)", 0),
    ("(size Stack in:(sites {12 13 18}))", 6),
    ("(count Stack at:12)", 3),
    ('(count Stack at:12 if:(= (what at:(to) level:(level)) (id "A" P1)))', 2),
    ('(count Stack FromTop at:12 stop:(= (what at:(to) level:(level)) (id "T" P1)))', 2),
    ('(count Stack FromBottom at:12 stop:(= (what at:(to) level:(level)) (id "A" P1)))', 1),
    ("(count Stack at:5)", 0),
    ("(topLevel at:12)", 2),
    ("(topLevel at:5)", 0),
    # A type other than the board's (cells) reads the vertices' layer, empty here (as Ludii)
    ("(size Stack Vertex at:12)", 0),
    ("(size Stack Cell at:12)", 3),
    ("(size Stack Vertex in:(sites {12 13 18}))", 0),
    ("(topLevel Vertex at:12)", 0),
    ("(topLevel Cell at:12)", 2),
    ("(if (is Empty Vertex 12) 4 6)", 4),
    ("(if (is Empty Cell 12) 4 6)", 6),
    ("(if (is Occupied Vertex 12) 4 6)", 6),
    ("(who at:18 level:0)", 1),
    ("(who at:18 level:1)", 2),
    ("(what at:12 level:0)", 3),
    ("(what at:12 level:7)", 0),
    ("(what at:12)", 1),
    ('(count Sites in:(sites Occupied by:P1 component:"T"))', 1),          # 18's top is P2's
    ('(count Sites in:(sites Occupied by:P1 component:"T" top:False))', 2),
    ('(count Sites in:(sites Occupied by:P2))', 3),                        # 13, 7, 18
    ("(count Steps (step Orthogonal (to if:(is Empty (to)))) 0 10)", 2),
    ("(count Steps (step Orthogonal (to if:(is Empty (to)))) 6 6)", 0),
    ("(count Steps Orthogonal 0 24)", 8),
    ("(if (is Odd 3) 4 6)", 4),
    ("(if (is Even 3) 4 6)", 6),
    ("(count MovesThisTurn)", 0),
    ("(+ 1 (var))", 0),                                                    # -1 before any
]


@pytest.mark.parametrize("expr,value", INTS)
def test_integer_ludemes_on_stacks(tmp_path, expr, value):
    assert _value(tmp_path, expr) == value


REGIONS = [
    # Walks through empty sites: 12's neighbours 11 and 17 (7, 13 occupied), then 6 10 16 22
    # (18 occupied).
    ("(sites Distance (step Orthogonal (to if:(is Empty (to)))) from:12 (range 1 2))",
     [6, 10, 11, 16, 17, 22]),
    # Ludii counts a ring k >= 2 once k - 1 reaches the minimum: (range 2 2) is empty
    # and (range 2 3) gives the third ring only.
    ("(sites Distance (step Orthogonal (to if:(is Empty (to)))) from:12 (range 2 2))", []),
    ("(sites Distance (step Orthogonal (to if:(is Empty (to)))) from:12 (range 2 3))",
     [1, 5, 15, 21, 23]),
    ("(sites Distance (step Orthogonal (to if:(is Empty (to)))) from:12 (range 1 1))", [11, 17]),
    ('(sites Occupied by:P1 component:"T" top:False)', [12, 18]),
    ("(if (is Odd 2) (sites {1}) (sites {2 3}))", [2, 3]),
    ("(if (is Odd 2) (sites {1}))", []),
]


@pytest.mark.parametrize("region,sites", REGIONS)
def test_region_ludemes_on_stacks(tmp_path, region, sites):
    assert _sites(tmp_path, f'(move Add (piece "A1") (to {region}) stack:True)') == sites


def test_for_each_piece_walks_levels_or_only_the_tops(tmp_path):
    step = '(forEach Piece "A" (move Step Orthogonal (to if:(is Empty (to)))){top})'
    # Site 12 holds two of P1's pieces: without top:, each level moves (Ludii's owned
    # positions); with top:True, only the top one. Site 0 adds its two steps.
    assert len(_sites(tmp_path, step.format(top=""))) == 6
    assert len(_sites(tmp_path, step.format(top=" top:True"))) == 4
    # A step in a stacking game leaves the top level (Ludii's Step).
    s = _state(tmp_path, step.format(top=" top:True"))
    assert {m.level_from for m in s.legal_moves() if m.frm == 12} == {2}


def test_sub_stack_moves_keep_order_and_report_ludiis_levels(tmp_path):
    s = _state(tmp_path, "(move (from (sites {12})) (to (sites {11 7})) count:2 stack:True)")
    moves = {m.to: m for m in s.legal_moves()}
    # levelFrom = size - count at the start, levelTo = the destination's size.
    assert {(m.level_from, m.level_to) for m in moves.values()} == {(1, 0), (1, 1)}
    assert (moves[7].level_from, moves[7].level_to) == (1, 1)
    s.apply(moves[7])
    assert [lv[0] for lv in s.stack(12)] == [3]
    assert [lv[0] for lv in s.stack(7)] == [4, 1, 1]


def test_added_pieces_land_on_top_and_report_their_level(tmp_path):
    s = _state(tmp_path, '(move Add (piece "A2") (to (sites {12 5})) stack:True)')
    assert sorted((m.to, m.level_from, m.level_to) for m in s.legal_moves()) == \
        [(5, 0, 0), (12, 3, 3)]
    s.apply(next(m for m in s.legal_moves() if m.to == 12))
    assert [lv[:2] for lv in s.stack(12)] == [(3, 1), (1, 1), (1, 1), (2, 2)]


def test_remove_takes_count_pieces_off_the_top(tmp_path):
    s = _state(tmp_path, '(move Add (piece "A2") (to (sites {5})) (then (remove 12 count:2)))')
    s.apply(s.legal_moves()[0])
    assert [lv[0] for lv in s.stack(12)] == [3]


def test_do_next_sees_the_prior_move_and_carries_its_actions(tmp_path):
    s = _state(tmp_path, '(do (set Var 9) next:(move Add (piece "A1") '
                         '(to (sites Board) if:(= (to) (var))) stack:True))')
    (m,) = s.legal_moves()
    assert m.to == 9 and s.var == -1        # generating never changes the position
    s.apply(m)
    assert s.var == 9 and s.size_stack(9) == 1


def test_do_if_afterwards_keeps_the_moves_after_which_it_holds(tmp_path):
    play = ('(do (move Add (piece "A1") (to (sites {5 6})) stack:True) '
            'ifAfterwards:(is Occupied 5))')
    assert _sites(tmp_path, play) == [5]


def test_slide_drops_exactly_and_last_to_after_consequences(tmp_path):
    # The state keeps the destination after the consequents in a game that reads it.
    s = _state(tmp_path, '(or (move Add (piece "A1") (to (sites {24})) '
                         '(then (slide (from (last To)) S (between (exact 2))))) '
                         '(if (= 99 (last To afterConsequence:True)) (move Pass)))')
    s.apply(s.legal_moves()[0])
    assert s.size_stack(24) == 0 and s.size_stack(14) == 1
    assert (s.last_to, s.last_to_after) == (24, 14)


LINE = ('(game "l" (players 2) (equipment {{(board (rectangle 1 5)) (piece "A" Each)}}) '
        '(rules (start {{{start}}}) (play (move Add (piece "A1") (to (sites {{0}}) '
        'if:(is Line 3 through:2 byLevel:True)) stack:True)) '
        '(end (if (no Moves Next) (result Mover Win)))))')

LINES = [
    ('(place Stack "A1" 2 count:3)', True),                                   # down the stack
    ('(place Stack "A1" (sites {1 2 3}))', True),                             # along level 0
    ('(place Stack "A1" 1) (place Stack "A2" 2) (place Stack "A1" 2) '
     '(place Stack "A2" 3 count:2) (place Stack "A1" 3)', True),              # climbing
    ('(place Stack "A2" 2) (place Stack "A1" 2) (place Stack "A1" (sites {1 3}))', False),
    ('(place Stack "A1" 2 count:2)', False),
]


@pytest.mark.parametrize("start,line", LINES)
def test_lines_by_level(tmp_path, start, line):
    f = tmp_path / "l.lud"
    f.write_text(LINE.format(start=start))
    moves = load(f).new_initial_state().legal_moves()
    assert (not moves[0].is_pass) == line


def test_tiles_are_components_in_declaration_order(tmp_path):
    f = tmp_path / "t.lud"
    f.write_text(GAME.format(play="(move Pass)"))
    g = load(f)
    assert [c.name for c in g.components[1:]] == ["A1", "A2", "T1", "T2"] and g.stacking


@pytest.mark.parametrize("tile, components", [
    ('(tile "T")', [("T", 3)]),                 # Ludii's Tile: Shared without a role
    ('(tile "T" Each)', [("T1", 1), ("T2", 2)]),
    ('(tile "T" P2 {F})', [("T2", 2)]),
])
def test_a_tiles_role_is_shared_unless_given(tmp_path, tile, components):
    f = tmp_path / "t.lud"
    # discs beside, so that Ludii keeps each site's piece index
    f.write_text(f'(game "t" (players 2) (equipment {{(board (square 3)) {tile} (piece "D" '
                 'Each)}) (rules (play (move Pass)) (end (if (no Moves Next) (result Mover '
                 'Win)))))')
    assert [(c.name, c.owner) for c in load(f).components[1:] if c.name[0] == "T"] \
        == components


# -- Ludii's traces ------------------------------------------------------------------

def _traces(refdata, slug):
    files = sorted((refdata / "traces" / slug).glob("*.json.gz"))
    assert files, f"no traces for {slug}"
    return [str(f) for f in files]


@pytest.mark.parametrize("slug", ["seesaw-4", "seesaw-5", "connect-four", "connect-four-2d"])
def test_stacking_games_agree_with_ludiis_files(refdata, ludii, slug):
    verdicts = crosscheck_files(_traces(refdata, slug), ludii_dir=str(ludii / "games"))
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("slug", ["seesaw-4", "seesaw-5"])
def test_seesaw_agrees_with_own_description(refdata, slug):
    verdicts = crosscheck_files(_traces(refdata, slug), lud=SEESAW)
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


def test_levels_and_stacks_are_compared(refdata):
    game = load(SEESAW, options=["Board Size/4"])
    trace = read_trace(_traces(refdata, "seesaw-4")[0])
    trace["steps"][2]["legal"][0]["levelFrom"] += 1
    v = replay(game, trace, "t")
    assert not v.ok and v.agreed == 2 and "legal moves differ" in v.detail
    trace = read_trace(_traces(refdata, "seesaw-4")[0])
    trace["steps"][0]["board"]["stackWhat"][1].reverse()
    v = replay(game, trace, "t")
    assert not v.ok and v.agreed == 0 and "stack at site 1" in v.detail


def test_seesaw_playouts_stop_at_ludiis_limits_and_say_so():
    game = load(SEESAW, options=["Board Size/5"], max_turns=15)
    import random
    ends = set()
    for seed in range(6):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_moves()))
        assert s.num_turn <= 15 * 2 + 1
        ends.add(s.end_type)
        if s.end_type == "TurnLimit":
            assert not s.winner and s.ranking[1:] == [1.5, 1.5]
    assert "TurnLimit" in ends


@pytest.mark.parametrize("level, moved, left, level_from", [
    ("1", 1, [3, 1], 1),        # that level: the middle A1 of 12 leaves (T1 A1 A1 -> T1 A1)
    ("0", 3, [1, 1], 0),        # the tile at the bottom
    # a level that evaluates to Undefined (-1, no A2 at 12) is no level in Ludii's FromTo:
    # the top piece moves, and the decision reports level 0 (its action keeps Undefined)
    ('(where Level "A" P2 at:12)', 1, [3, 1], 0),
])
def test_from_level_moves_that_piece_and_an_undefined_level_moves_the_top(
        tmp_path, level, moved, left, level_from):
    s = _state(tmp_path, f"(if (is Mover P1) (move (from 12 level:{level}) (to 6)))")
    (m,) = s.legal_moves()
    assert m.level_from == level_from
    s.apply(m)
    assert s.board_view()["stacks"][6][-1][0] == moved
    assert [lv[0] for lv in s.board_view()["stacks"][12]] == left


@pytest.mark.parametrize("add, level, after", [
    # Ludii's Add with (to ... level:) inserts (ActionInsert), whatever stack: says; the
    # decision reports that level, and the pieces from there up go one higher
    ('(move Add (piece "A2") (to 12 level:0))', 0, [2, 3, 1, 1]),
    ('(move Add (piece "A2") (to 12 level:1) stack:True)', 1, [3, 2, 1, 1]),
    ('(move Add (piece "A2") (to 12 level:3))', 3, [3, 1, 1, 2]),     # the size: the top
    # the level is read with (to) on the site
    ('(move Add (piece "A2") (to 12 level:(- (size Stack at:(to)) 1)))', 2, [3, 1, 2, 1]),
    # as an effect after a move: under the piece that just landed
    ('(move (from 0) (to 12) (then (add (piece "A2") (to (last To) level:0))))', 0,
     [2, 3, 1, 1, 1]),
])
def test_add_at_a_level_inserts_the_piece_there(tmp_path, add, level, after):
    s = _state(tmp_path, f"(if (is Mover P1) {add})")
    (m,) = s.legal_moves()
    if m.frm == m.to:
        assert (m.level_from, m.level_to) == (level, level)
    s.apply(m)
    assert [lv[0] for lv in s.board_view()["stacks"][12]] == after


@pytest.mark.parametrize("move, moves, moved, left", [
    # Ludii's Step and Slide move the piece at the level of (from ... level:) to the top of
    # the destination, and the decision reports that level
    ("(move Step (from 12 level:1) N (to if:(is Empty (to))))", [(17, 1)], 1, [3, 1]),
    ("(move Step (from 12 level:0) N (to if:(is Empty (to))))", [(17, 0)], 3, [1, 1]),
    ("(move Slide (from 12 level:0) N)", [(17, 0), (22, 0)], 3, [1, 1]),
    # Undefined (-1: no A2 at 12) is no level: the top piece moves
    ('(move Step (from 12 level:(where Level "A" P2 at:12)) N (to if:(is Empty (to))))',
     [(17, 2)], 1, [3, 1]),
    # below Undefined: no move at all
    ("(move Step (from 12 level:(- 1 3)) N (to if:(is Empty (to))))", [], None, None),
    ("(move Slide (from 12 level:(- 1 3)) N)", [], None, None),
    # Ludii's Hop and Leap read no level: the top piece goes
    ("(move Hop (from 12 level:0) N (between if:True) (to if:(is Empty (to))))", None, 1,
     [3, 1]),
    ("(move Leap (from 12 level:0) {{F F}} (to if:(is Empty (to))))", None, 1, [3, 1]),
])
def test_from_level_of_a_step_or_slide_moves_that_piece(tmp_path, move, moves, moved, left):
    s = _state(tmp_path, f"(if (is Mover P1) {move})")
    legal = [m for m in s.legal_moves() if not m.is_pass]
    if moves is not None:
        assert sorted((m.to, m.level_from) for m in legal) == moves
    if moved is None:
        return
    m = legal[-1]
    s.apply(m)
    assert s.board_view()["stacks"][m.to][-1][0] == moved
    assert [lv[0] for lv in s.board_view()["stacks"][12]] == left


@pytest.mark.parametrize("move, levels, at12, at18", [
    # Ludii's FromTo with (to ... level:) inserts the piece at that level of the destination,
    # the pieces from there up one higher, and reports the level as the destination's
    ("(move (from 13) (to 12 level:0))", (0, 0), [2, 3, 1, 1], [3, 2]),
    ("(move (from 13) (to 12 level:1))", (0, 1), [3, 2, 1, 1], [3, 2]),
    # with (from ... level:) too: that piece goes there
    ("(move (from 12 level:0) (to 18 level:1))", (0, 1), [1, 1], [3, 3, 2]),
    ("(move (from 12 level:1) (to 18 level:0))", (1, 0), [3, 1], [1, 3, 2]),
    # a level that evaluates to Undefined (-1: no A2 at 12) is no level: the top
    ('(move (from 13) (to 12 level:(where Level "A" P2 at:12)))', (0, 0), [3, 1, 1, 2], [3, 2]),
])
def test_to_level_inserts_the_piece_at_that_level(tmp_path, move, levels, at12, at18):
    s = _state(tmp_path, f"(if (is Mover P1) {move})")
    (m,) = s.legal_moves()
    assert (m.level_from, m.level_to) == levels
    s.apply(m)
    stacks = s.board_view()["stacks"]
    assert [lv[0] for lv in stacks[12]] == at12 and [lv[0] for lv in stacks[18]] == at18


# -- large pieces: a tile given as a walk (Ludii's Component.locs and Add.evalLargePiece) ----

# A 3x3 board of cells (0 1 2 on the bottom row), P1's tile a walk, P2's a single cell.
LARGE = ('(game "l" (players 2) (equipment {{(board {board}) (tile "D" P1 {walk}) '
         '(tile "S" P2 {{F}} numSides:4)}}) (rules (start {{{start}}}) (play {play}) '
         '(end (if (no Moves Next) (result Mover Win)))))')


def _large(tmp_path, walk="{F}", board="(square 3)", start="", play=None):
    f = tmp_path / "l.lud"
    f.write_text(LARGE.format(board=board, walk=walk, start=start,
                              play=play or "(move Add (to (sites Empty)))"))
    return load(f)


@pytest.mark.parametrize("board, walk, site, state, cells", [
    ("(square 3)", "{F}", 0, 0, (0, 3)),            # state 0 faces N
    ("(square 3)", "{F}", 0, 1, (0, 1)),            # 1: E (orthogonal, clockwise from N)
    ("(square 3)", "{F}", 0, 2, ()),                # S leaves the board: no cells
    ("(square 3)", "{F}", 4, 3, (4, 3)),            # 3: W
    ("(square 3)", "{R F}", 4, 0, (4, 5)),          # turned right of N: E
    ("(square 3)", "{L F}", 4, 0, (4, 3)),          # left of N: W
    ("(square 3)", "{F R F}", 0, 0, (0, 3, 4)),     # an L: up, then right
    ("(square 3)", "{F R R F}", 0, 0, (0, 3)),      # back on its anchor: each cell once
    ("(square 3)", "{F F F}", 0, 0, ()),
    ("(square 3)", "{F}", 4, -1, (4, 7)),           # a negative state is 0
    ("(square 3)", "{{F} {F F}}", 0, 4, (0, 3, 6)),  # states 4 to 7: the second walk
    ("(square 3)", "{{F} {F F}}", 0, 8, ()),        # past the walks
    # hexagonal cells: orthogonal NNE E SSE SSW W NNW, from the centre cell 3
    ("(hex 2)", "{F}", 3, 0, (3, 6)),
    ("(hex 2)", "{F}", 3, 1, (3, 4)),
    ("(hex 2)", "{F}", 3, 5, (3, 5)),
    ("(hex 2)", "{R F}", 3, 5, (3, 6)),             # right of NNW: NNE
])
def test_a_walk_covers_the_cells_it_reaches_in_its_state(tmp_path, board, walk, site,
                                                         state, cells):
    game = _large(tmp_path, walk=walk, board=board)
    assert game.large_pieces[1].covered(site, state) == cells


@pytest.mark.parametrize("board, walk, play, moves", [
    # every rotation Add tries where the cells fit: (to, state)
    ("(square 3)", "{F}", None, [(0, 0), (0, 1), (1, 0), (1, 1), (1, 3), (2, 0), (2, 3),
                                 (3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (4, 3),
                                 (5, 0), (5, 2), (5, 3), (6, 1), (6, 2), (7, 1), (7, 2),
                                 (7, 3), (8, 2), (8, 3)]),
    # an L (ahead, then right): N-E from 0 1 3 4, E-S from 3 4 6 7, S-W from 4 5 7 8,
    # W-N from 1 2 4 5
    ("(square 3)", "{F R F}", None, [(s, k) for k, sites in enumerate(
        [(0, 1, 3, 4), (3, 4, 6, 7), (4, 5, 7, 8), (1, 2, 4, 5)]) for s in sites]),
    # (piece ... state:) fixes the rotation
    ("(square 3)", "{F}", "(move Add (piece \"D1\" state:1) (to (sites Empty)))",
     [(0, 1), (1, 1), (3, 1), (4, 1), (6, 1), (7, 1)]),
    # a hexagonal board: Ludii's Add tries 4 rotations per walk, of 6 (never W, NNW)
    ("(hex 2)", "{F}", None, [(0, 0), (0, 1), (1, 0), (2, 0), (2, 1), (2, 2), (3, 0),
                              (3, 1), (3, 2), (3, 3), (4, 3), (5, 1), (5, 2), (5, 3),
                              (6, 2), (6, 3)]),
])
def test_add_lists_a_large_piece_in_each_rotation_that_fits(tmp_path, board, walk, play,
                                                            moves):
    s = _large(tmp_path, walk=walk, board=board, play=play).new_initial_state()
    got = [(m.to, m.actions[1][4]) for m in s.legal_moves()]
    assert sorted(got) == sorted(moves)


def test_cells_a_large_piece_covers_are_not_empty_though_no_piece_stands_there(tmp_path):
    # P1 adds the walk {F R F} at 0 in state 0: it stands on 0 and covers 3 and 4
    game = _large(tmp_path, walk="{F R F}",
                  play="(or (move Add (to (sites Empty))) (move Pass))")
    s = game.new_initial_state()
    s.apply(next(m for m in s.legal_moves() if (m.to, m.actions[1][4]) == (0, 0)))
    assert (s.what[0], s.who[0], s.what[3], s.what[4]) == (1, 1, 0, 0)
    empty = sorted({m.to for m in s.legal_moves() if not m.is_pass})   # P2's single cells
    assert 0 not in empty and 3 not in empty and 4 not in empty
    # P2's {F} tile from 1 faces N onto 4: covered, so only E from 1
    assert [m.actions[1][4] for m in s.legal_moves() if m.to == 1] == [1]
    assert s.is_empty(5) and not s.is_empty(3)


@pytest.mark.parametrize("cond, moves", [
    ("(is Empty 3)", False), ("(is Empty 5)", True), ("(is Empty 0)", False),
    ("(= 6 (count Sites in:(sites Empty)))", True),
    ("(= 3 (count Sites in:(sites LargePiece at:0)))", True),
    ("(= 0 (count Sites in:(sites LargePiece at:3)))", True),     # no piece stands there
])
def test_is_empty_and_the_sites_see_the_cells_a_placed_large_piece_covers(tmp_path, cond,
                                                                         moves):
    # a start placement covers too (Ludii's PlaceItem plays an ActionAdd): 0, 3 and 4
    game = _large(tmp_path, walk="{F R F}", start='(place "D1" 0 state:0)',
                  play=f"(if {cond} (move Add (piece \"S2\") (to (sites Empty))))")
    s = game.new_initial_state()
    assert bool([m for m in s.legal_moves() if not m.is_pass]) == moves


def test_a_large_pieces_trial_writes_its_add_with_the_state_and_no_cover_of_its_own(tmp_path):
    from ludeme.analysis.record import write_trial
    text = write_trial(_large(tmp_path, walk="{F R F}"), 1, [0])
    (move,) = [line for line in text.splitlines() if line.startswith("Move=")]
    assert "[Add:type=Cell,to=0,what=1,decision=true]" in move and "cover" not in move


@pytest.mark.parametrize("board, tile, play, message", [
    ("(square 3) use:Vertex", '(tile "T" Each {F})', None, "board played on its vertices"),
    ("(square 3)", '(tile "T" Each {F})', "(move Add (to (sites Empty)) (then (moveAgain)))",
     "then"),
    ("(square 3)", '(tile "T" Each {F})', "(move Add (to (sites Empty) if:(is Empty (to))))",
     "'if'"),
    ("(square 3)", '(tile "T" Each {F})', "(move Step Orthogonal (to if:(is Empty (to))))",
     "move Step"),
    ("(square 3)", '(tile "T" Each {F})',
     "(move Add (to (sites Around 4)))", "sites Around"),
    ("(square 3)", '(tile "T" Each {F}) (piece "P" Each)',
     "(move Add (to (sites Empty)))) (start (place Random {\"P1\"})", "place Random"),
])
def test_what_large_pieces_do_not_support_yet_is_refused(tmp_path, board, tile, play,
                                                         message):
    f = tmp_path / "r.lud"
    f.write_text(f'(game "r" (players 2) (equipment {{(board {board}) {tile}}}) (rules '
                 f'(play {play or "(move Add (to (sites Empty)))"}) (end (if (no Moves Next) '
                 '(result Mover Win)))))')
    with pytest.raises(LudemeError, match=message) as err:
        load(f).new_initial_state().legal_moves()   # an Add's then: when it adds a large piece
    assert "not supported yet" in str(err.value)


# A domino {F} on a 3x3 board, in a hand (site 9) or placed at 0 facing N (covering 0, 3);
# discs only so that Ludii keeps each site's piece index.
LARGE_MOVE = ('(game "m" (players 2) (equipment {{(board (square 3)) (tile "D" Shared {{F}}) '
              '(piece "Disc" Each) (hand Shared size:1)}}) (rules (start {start}) (play {play}) '
              '(end (if (no Moves Next) (result Mover Win)))))')


def _large_move(tmp_path, start, play):
    f = tmp_path / "m.lud"
    f.write_text(LARGE_MOVE.format(start=start, play=play))
    return load(f).new_initial_state()


@pytest.mark.parametrize("start, play, moves", [
    # out of the hand: every placement that fits on the empty cells (24, as Add)
    ('(place "D" (handSite Shared 0))', "(move (from (sites Hand Shared)) (to (sites Empty)))",
     24),
    # on the board: to an empty cell or the cell it covers (3), in any rotation whose cells
    # are among those or its origin; every placement but those anchored at 0
    ('(place "D" 0 state:0)', "(move (from 0) (to (sites Empty)))", 22),
])
def test_a_large_piece_moves_to_every_rotation_that_fits_its_destinations(tmp_path, start,
                                                                          play, moves):
    s = _large_move(tmp_path, start, play)
    assert len(s.legal_moves()) == moves


@pytest.mark.parametrize("start, play, move, covered, counts", [
    # into a hand's game (Ludii's requiresCount): covered cells count 1
    ('(place "D" (handSite Shared 0))', "(move (from (sites Hand Shared)) (to (sites Empty)))",
     (9, 4, 1), {4, 5}, {4: 1, 5: 1, 9: 0}),
    # from the board: the cells it covered are empty again
    ('(place "D" 0 state:0)', "(move (from 0) (to (sites Empty)))", (0, 1, 1), {1, 2},
     {0: 0, 1: 1, 2: 1, 3: 0}),
])
def test_a_moved_large_piece_covers_its_new_cells_and_frees_the_old(tmp_path, start, play,
                                                                    move, covered, counts):
    s = _large_move(tmp_path, start, play)
    frm, to, state = move
    s.apply(next(m for m in s.legal_moves() if (m.frm, m.to) == (frm, to)
                 and m.actions[-2][4] == state))
    assert {x for x in range(9) if not s.is_empty(x)} == covered
    assert {x: s.count[x] for x in counts} == counts


def test_a_moved_large_piece_keeps_its_consequents_and_the_turn_reads_is_prev(tmp_path):
    # L Game: the L moves, then (moveAgain); the same player, now (is Prev Mover), moves a
    # dot or passes (Ludii's FromTo gives its then to a large piece's moves too)
    s = _large_move(tmp_path, '{(place "D" 0 state:0) (place "Disc1" 8)}',
                    "(if (is Prev Mover) (or (move Pass) (move (from (sites Occupied "
                    "by:Mover)) (to (sites Empty)))) (move (from 0) (to (sites Empty)) "
                    "(then (moveAgain))))")
    moves = s.legal_moves()
    # the 22 of the domino alone, less the 4 covering the disc's cell 8
    assert len(moves) == 18 and all(m.frm == 0 for m in moves)
    s.apply(next(m for m in moves if (m.to, m.actions[-2][4]) == (4, 1)))    # covers 4, 5
    assert s.mover == 1
    # then the disc at 8 to the empty cells (0 to 3, 6, 7: not 4 or 5), or a pass
    assert sorted(m.to for m in s.legal_moves() if not m.is_pass) == [0, 1, 2, 3, 6, 7]


def test_a_large_piece_from_a_hand_becomes_small_pieces_where_it_lay(tmp_path):
    # Battleships: the ship leaves the hand (from if:), its cells are remembered, the ship
    # removed and a small piece added on each
    play = ("(move (from (sites Hand Shared) if:(is In (from) (sites Hand Shared))) "
            "(to (sites Empty)) (then (do (forEach Site (sites LargePiece at:(last To)) "
            "(remember Value (site)) (then (remove (last To)))) next:(forEach Value "
            "(values Remembered) (add (piece \"Disc1\") (to (value)))))))")
    s = _large_move(tmp_path, '(place "D" (handSite Shared 0))', play)
    assert len(s.legal_moves()) == 24
    s.apply(next(m for m in s.legal_moves() if (m.to, m.actions[-2][4]) == (4, 1)))  # 4, 5
    # the consequents of the forEach (the removal at (last To), the anchor) come after the
    # adds of its next: (Ludii's order, which Battleships' traces show): a disc on 5 only
    assert {x: s.what[x] for x in range(10) if s.what[x]} == {5: 2}
    assert s.is_empty(4) and s.count[5] == 1
    assert set(s.notes.get(("remembered", None), ())) == {4, 5}


@pytest.mark.parametrize("hand", ["(hand Shared size:1)", ""])
def test_removing_a_large_piece_frees_its_anchor_and_leaves_its_cells_covered(tmp_path, hand):
    # Ludii's ActionRemoveTopPiece empties the site (ContainerFlatState: its count goes to
    # 0) and nothing else, with counts kept (a hand) or not
    f = tmp_path / "r.lud"
    f.write_text('(game "r" (players 2) (equipment {(board (square 3)) (tile "D" Shared {F}) '
                 f'(piece "Disc" Each) {hand}}}) (rules (start (place "D" 0 state:0)) (play '
                 '(move Select (from (sites {0 3})) (then (remove (last From))))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    s = load(f).new_initial_state()
    s.apply(next(m for m in s.legal_moves() if m.frm == 0))
    assert s.is_empty(0) and not s.is_empty(3) and s.what[0] == 0


def test_an_add_of_a_large_piece_with_a_then_is_refused_when_it_adds_one(tmp_path):
    # the same Add of a small piece takes it (Battleships' (add ... (then (set State ...))))
    play = ("(move Add (piece (if (is Mover P1) (id \"D\" Shared) (id \"Disc2\"))) "
            "(to (sites Empty)) (then (moveAgain)))")
    s = _large_move(tmp_path, "{}", f"(if (is Mover P1) (move Pass) {play})")
    s.apply(s.legal_moves()[0])
    assert all(m.to >= 0 for m in s.legal_moves())          # P2 adds a disc, then again
    s = _large_move(tmp_path, "{}", play)
    with pytest.raises(LudemeError, match="then...\\) of a large piece is not supported"):
        s.legal_moves()


def test_an_add_applies_its_effect_at_the_site_before_landing_on_the_stack(tmp_path):
    # Ludii's Add: the (apply ...) effects at the site come first (chainRuleWithAction
    # prepends them), then the piece lands on what is left, at the level the stack had
    # (Bide: `(add ... (to <site> (apply (remove (to)))))` replaces the top piece)
    s = _state(tmp_path, '(move Add (piece "A1") (to (sites {13 18}) (apply (remove (to)))) '
                         'stack:True)')
    moves = {m.to: m for m in s.legal_moves()}
    assert (moves[18].level_to, moves[13].level_to) == (2, 1)
    s.apply(moves[18])
    assert [lv[0] for lv in s.stack(18)] == [3, 1]       # T1, then A1 where A2 was
