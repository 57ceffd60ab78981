"""Stacks and the ludemes Seesaw and Connect Four need, checked on small positions
(tables of snippets with the values Ludii gives), then against Ludii's traces: Seesaw
(base 4 and 5) and Connect Four (1D stacks, 2D drops) agree step by step, levels and
stacks included, with Ludii's files and, for Seesaw, with descriptions/seesaw.lud."""

import pytest

from conftest import DESCRIPTIONS
from ludeme.api import load
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
    # the top piece moves, and the decision reports the top level
    ('(where Level "A" P2 at:12)', 1, [3, 1], 2),
])
def test_from_level_moves_that_piece_and_an_undefined_level_moves_the_top(
        tmp_path, level, moved, left, level_from):
    s = _state(tmp_path, f"(if (is Mover P1) (move (from 12 level:{level}) (to 6)))")
    (m,) = s.legal_moves()
    assert m.level_from == level_from
    s.apply(m)
    assert s.board_view()["stacks"][6][-1][0] == moved
    assert [lv[0] for lv in s.board_view()["stacks"][12]] == left
