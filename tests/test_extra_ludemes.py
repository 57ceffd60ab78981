"""The general ludemes the seed descriptions brought: chance, the first mover, the state variable."""

from __future__ import annotations

import re

import pytest

from ludeme.model.build import build_game
from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description
from ludeme.analysis.conformance import random_playout


def _built(text: str):
    return build_game(expand(load_description("t.lud", text)))


def _game(start: str = "", play: str = "(move Add (to (sites Empty)))", players: int = 3):
    return _built(f'(game "T" (players {players}) (equipment {{(board (square 3)) '
                  f'(piece "Disc" Each)}}) (rules (start {{ {start} }}) (play {play})))')


def test_random_first_mover_is_seeded_and_recorded():
    game = _game("(set Mover (value Random (range 1 3)))")
    assert game.uses_chance
    movers = [game.new_initial_state(seed).mover for seed in range(30)]
    assert set(movers) == {1, 2, 3}
    assert movers == [game.new_initial_state(seed).mover for seed in range(30)]
    state = game.new_initial_state(4)
    assert state.draws == [state.mover] and state.next == state.mover % 3 + 1


def test_a_fixed_first_mover_needs_no_chance():
    game = _game("(set Mover 2)")
    assert not game.uses_chance
    state = game.new_initial_state(0)
    assert state.mover == 2 and state.rng is None and state.draws == []


def test_the_chance_stream_is_cloned_with_the_state():
    game = _game("(set Mover (value Random (range 1 3)))",
                 play="(move Add (to (sites Empty)) (then (set Var (value Random (range 1 100)))))")
    state = game.new_initial_state(9)
    twin = state.clone()
    state.apply(state.legal_moves()[0])
    twin.apply(twin.legal_moves()[0])
    assert state.var == twin.var and state.draws == twin.draws and len(state.draws) == 2


def test_set_var_and_var():
    game = _game(play="(if (= (var) -1) (move Add (to (sites Empty)) (then (set Var (count Turns))))"
                      " (move Add (to (sites Empty))))")
    state, _ = random_playout(game, 1, max_decisions=3)
    assert state.var == 1


@pytest.mark.parametrize("start, play, message", [
    ("(set Mover 4)", "(move Add (to (sites Empty)))", "gave player 4; players are 1 to 3"),
])
def test_refused(start, play, message):
    with pytest.raises(LudemeError, match=message):
        _game(start, play).new_initial_state(0)


def _pieces(state):
    """Site -> (piece index, value, state) of each board site holding a piece."""
    return {s: (state.what[s], state.piece_value(s), state.piece_state(s))
            for s in range(9) if state.what[s]}


@pytest.mark.parametrize("place, kinds", [
    ('(place Random {"Disc1" "Disc2"})', [1, 2]),                        # one of each
    ('(place Random {"Disc2"} count:3)', [2, 2, 2]),                     # three sites
    ('(place Random {"Disc1"} count:12)', [1] * 9),                      # as many as fit
    ('(place "Disc2" 4) (place Random {"Disc1"} count:8)', [1] * 8 + [2]),  # empty sites only
    ('(place Random (sites {0 1 2}) {"Disc1"} count:2)', [1, 1]),
])
def test_place_random_puts_each_item_on_random_empty_sites(place, kinds):
    game = _game(place, players=2)
    assert game.uses_chance and game.places_at_random
    starts = [_pieces(game.new_initial_state(seed)) for seed in range(12)]
    assert all(sorted(w for w, _, _ in p.values()) == kinds for p in starts)
    assert starts == [_pieces(game.new_initial_state(seed)) for seed in range(12)]  # seeded
    if len(kinds) < 9:
        assert len({tuple(p) for p in starts}) > 1                       # and drawn
    if "sites {0 1 2}" in place:
        assert all(set(p) <= {0, 1, 2} for p in starts)


@pytest.mark.parametrize("place, forced, expected", [
    # a replay forces the recorded sites (Game.new_initial_state's forced_places)
    ('(place Random {"Disc1" "Disc2"})', {1: [7], 2: [3]}, {7: (1, 0, 0), 3: (2, 0, 0)}),
    ('(place Random {"Disc1"} count:2 value:4 state:1)', {1: [8, 0]},
     {0: (1, 4, 1), 8: (1, 4, 1)}),
])
def test_place_random_takes_forced_sites_with_their_value_and_state(place, forced, expected):
    state = _game(place, players=2).new_initial_state(0, forced_places=forced)
    assert _pieces(state) == expected


@pytest.mark.parametrize("place, unrecorded", [
    ('(place Random {"Disc1"} count:2 state:1) (place Random {"Disc1"} count:2 state:2)', True),
    ('(place Random {"Disc1"} count:2 state:1) (place Random {"Disc2"} count:2 state:2)', False),
    ('(place Random {"Disc1"} count:2) (place Random {"Disc1"} count:2)', False),
])
def test_a_recorded_start_cannot_say_which_random_piece_got_which_state(place, unrecorded):
    # Ludii's traces record who and what each site holds at the start: a piece placed at
    # random by several rules giving states (Paintscape's squares) cannot be forced from
    # them, and the replay says so instead of disagreeing at the first state read
    from ludeme.analysis.crosscheck import replay
    game = _game(place, players=2)
    assert (game.unrecorded_random_start is not None) == unrecorded
    start = game.new_initial_state(0)
    init = {"who": [start.who[x] for x in range(9)], "what": [start.what[x] for x in range(9)]}
    verdict = replay(game, {"initial": init, "steps": []}, "t")
    assert verdict.status == ("unsupported" if unrecorded else "agreed"), verdict
    if unrecorded:
        assert "does not record" in verdict.detail


@pytest.mark.parametrize("place, whats, fields", [
    ('(place Random {(count "Disc1" 2) (count "Disc2" 3)} 4)', [1, 1, 2, 2, 2], (0, 0)),
    ('(place Random {"Disc1" "Disc2"} 4)', [1, 2], (0, 0)),               # one of each
    ('(place Random {"Disc1" "Disc2"} count:{3 1} value:5 state:2 4)', [1, 1, 1, 2], (2, 5)),
])
def test_place_random_on_a_site_stacks_the_pieces_in_a_random_order(place, whats, fields):
    # Chex's hands: Ludii's PlaceRandom for a stack draws each piece, bottom first, among
    # those left
    game = _game(place, players=2)
    assert game.stacking and game.uses_chance
    stacks = [game.new_initial_state(seed).stack(4) for seed in range(20)]
    assert all(sorted(lv[0] for lv in st) == whats for st in stacks)
    assert all((lv[2], lv[4]) == fields for st in stacks for lv in st)
    assert len({tuple(lv[0] for lv in st) for st in stacks}) > 1          # drawn
    assert stacks == [game.new_initial_state(seed).stack(4) for seed in range(20)]  # seeded
    assert game.new_initial_state(3).draws == [lv[0] for lv in stacks[3]]
    # a replay cannot force it (the trace records a hand's top piece only): it says so
    from ludeme.analysis.crosscheck import replay
    verdict = replay(game, {"initial": {"who": [0] * 9, "what": [0] * 9}, "steps": []}, "t")
    assert verdict.status == "unsupported" and "random order" in verdict.detail


@pytest.mark.parametrize("place, message", [
    ('(place Random {"Disc9"})', "no piece called 'Disc9'"),
    ('(place Random {(count "Disc1" 2) "Disc2"} 4)', "not both"),
    ('(place Random {(count "Disc1" 2)} value:3 4)', "takes no count:, value:"),
    ('(place Random {"Disc1" "Disc2"} count:{2} 4)', "gives 1 counts for 2 pieces"),
    ('(place Random {(count "Disc9" 2)} 4)', "no piece called 'Disc9'"),
])
def test_place_random_refuses(place, message):
    with pytest.raises(LudemeError, match=message):
        _game(place, players=2)


# -- (sites Random ...) and a value: drawn at the start ------------------------------------

@pytest.mark.parametrize("start, kinds, within", [
    ('(place "Disc1" (sites Random (sites {0 1 2 3}) num:2))', [1, 1], {0, 1, 2, 3}),
    ('(place "Disc1" (sites Random (sites {5 5 6})))', [1], {5, 6}),       # one by default
    ('(place "Disc1" (sites Random (sites {0 1}) num:5))', [1, 1], {0, 1}),  # all there are
    # no region: the board's empty cells, read when the rule is played
    ('(place "Disc2" 4) (place "Disc1" (sites Random num:8))', [1] * 8 + [2], set(range(9))),
])
def test_sites_random_draws_different_sites_of_the_region(start, kinds, within):
    game = _game(start, players=2)
    assert game.uses_chance and game.places_at_random
    starts = [game.new_initial_state(seed) for seed in range(12)]
    pieces = [_pieces(s) for s in starts]
    assert all(sorted(w for w, _, _ in p.values()) == kinds and set(p) <= within
               for p in pieces)
    assert pieces == [_pieces(game.new_initial_state(seed)) for seed in range(12)]  # seeded
    # every site drawn is recorded
    assert all(sorted(s.draws) == [x for x, (w, _, _) in sorted(p.items()) if w == 1]
               for s, p in zip(starts, pieces))
    if len(kinds) < len(within):
        assert len({tuple(p) for p in pieces}) > 1                            # and drawn


def test_sites_random_in_play_draws_afresh_from_the_chance_stream():
    game = _game(play="(move Add (to (sites Random (sites Empty) num:1)))", players=2)
    assert game.uses_chance and not game.places_at_random
    state = game.new_initial_state(3)
    moves = state.legal_moves()
    assert len(moves) == 1 and state.draws == [moves[0].to]


def test_sites_random_at_the_start_takes_the_recorded_sites_in_a_replay():
    # Fischer Random Chess's start: a replay forces the sites the recorded start has the
    # piece on, as for (place Random ...), with no draw
    game = _game('(place "Disc1" (sites Random (sites {0 1 2 3}) num:2) state:1)', players=2)
    state = game.new_initial_state(0, forced_places={1: [3, 1]})
    assert _pieces(state) == {1: (1, 0, 1), 3: (1, 0, 1)} and state.draws == []


@pytest.mark.parametrize("value, values, unrecorded", [
    ("(value Random (range 1 4))", {1, 2, 3, 4}, True),
    ("(+ 1 2)", {3}, False),       # an int function known before play
    ("3", {3}, False),
])
def test_a_place_value_is_read_when_the_rule_is_played(value, values, unrecorded):
    # Shogun: each piece's value drawn at the start; Ludii's PlaceItem reads it once a rule
    game = _game(f'(place "Disc1" 4 value:{value}) (place "Disc2" {{0 8}} value:{value})',
                 players=2)
    starts = [game.new_initial_state(seed) for seed in range(30)]
    assert {s.piece_value(x) for s in starts for x in (0, 4, 8)} == values
    assert all(s.piece_value(0) == s.piece_value(8) for s in starts)
    assert [s.draws for s in starts] == [game.new_initial_state(i).draws for i in range(30)]
    assert (game.unrecorded_random_start is not None) == unrecorded
    if unrecorded:      # no replay: Ludii's traces record no value
        from ludeme.analysis.crosscheck import replay
        init = {"who": [starts[0].who[x] for x in range(9)],
                "what": [starts[0].what[x] for x in range(9)]}
        verdict = replay(game, {"initial": init, "steps": []}, "t")
        assert verdict.status == "unsupported" and "does not record" in verdict.detail


@pytest.mark.parametrize("start", [
    '(place "Disc1" (sites Random (sites {0 1 2 3})))',
    '(place "Disc1" 4 value:(value Random (range 1 4)))',
])
def test_a_random_start_plays_on_the_reference_engine(start):
    from ludeme.engine.compiled import Unsupported
    from ludeme.engine.compiled.codegen import generate
    game = _game(start, players=2)
    with pytest.raises(Unsupported):
        generate(game)
    state, _ = random_playout(game, 1, max_decisions=4)
    assert state.num_moves >= 4


def test_a_start_rule_reading_the_position_before_play_is_refused_at_its_place():
    # Chex: (forEach Value max:(topLevel at:...)) was an internal error
    with pytest.raises(LudemeError, match=r"\(forEach Value \.\.\.\) reading the position"):
        _game("(forEach Value min:0 max:(count Sites in:(sites Empty)) "
              "(set RememberValue (value)))")


@pytest.mark.parametrize("start, sites", [
    ("(forEach Value min:2 max:4 (set RememberValue (value)))", [2, 3, 4]),
    ("(forEach Value {7 1} (set RememberValue (value)))", [1, 7]),
    ("(forEach Value min:3 max:2 (set RememberValue (value)))", []),   # no value at all
])
def test_a_start_rule_for_each_value_applies_it_with_each_value(start, sites):
    game = _game(start, play="(move Add (to (sites Board) if:(is In (to) (values Remembered))))")
    state = game.new_initial_state(0)
    assert sorted(m.to for m in state.legal_moves() if m.to >= 0) == sites


@pytest.mark.parametrize("role, scores", [
    ("All", [7, 7, 7]),
    ("NonMover", [0, 7, 7]),          # the mover is P1
    ("Mover", [7, 0, 0]),
    ("P3", [0, 0, 7]),
])
def test_set_score_of_a_role_sets_every_player_it_covers(role, scores):
    game = _game(play=f"(move Pass (then (set Score {role} 7)))")
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.scores[1:4] == scores


@pytest.mark.parametrize("fn, score", [
    ("(max (values Remembered))", 9),
    ("(min (values Remembered))", 3),
])
def test_max_and_min_of_the_values_remembered(fn, score):
    game = _game("(forEach Value {3 9 4} (set RememberValue (value)))",
                 play=f"(move Pass (then (set Score P1 {fn})))")
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.scores[1] == score


# A board of cells: P1's discs on 0 and 4, P2's on 8. Another site type names the board's
# other layer, where no piece stands here.
SITE_TYPES_START = '(place "Disc1" (sites {0 4})) (place "Disc2" 8)'


@pytest.mark.parametrize("play, froms", [
    ("(move Select (from (sites Occupied by:P1)))", [0, 4]),
    ("(move Select (from (sites Occupied by:P1 on:Cell)))", [0, 4]),
    ("(move Select (from (sites Occupied by:P1 on:Vertex)))", []),
    ('(move Select (from (sites Occupied by:P1 container:"Board" on:Edge)))', []),
    ('(move Select (from (sites Occupied by:P1 container:"Board" on:Cell)))', [0, 4]),
    ("(forEach Piece on:Cell (move Select (from (from))))", [0, 4]),
    ("(forEach Piece on:Vertex (move Select (from (from))))", []),
])
def test_on_reads_the_pieces_standing_on_that_site_type(play, froms):
    state = _game(SITE_TYPES_START, play, players=2).new_initial_state(0)
    assert sorted(m.frm for m in state.legal_moves() if not m.is_pass) == froms


@pytest.mark.parametrize("start, play, message", [
    ('(place "Disc1" Vertex (sites Empty))', "(move Pass)",
     r"\(place ... Vertex ...\) on sites read from the position is not supported yet"),
    ("", "(forEach Piece on:Edge container:0 (move Pass))",
     r"\(forEach Piece on:Edge\) with hands or container: .* is not supported yet"),
])
def test_other_site_types_not_kept_here_are_refused(start, play, message):
    with pytest.raises(LudemeError, match=message):
        _game(start, play, players=2)


@pytest.mark.parametrize("expr", ["(mul 3 4)", "(mul {3 2 2})", "(* 3 4)"])
def test_mul_is_ludiis_name_for_the_product(expr):
    # Ludii's Mul class answers to (mul ...), `*` being its alias: both forms of each
    game = _game(play=f"(move Add (to (sites Empty)) (then (set Var {expr})))", players=2)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.notes[("var", None)] == 12


@pytest.mark.parametrize("start,site,level,expected", [
    ('(place "Disc1" 4 rotation:2)', "4", "", 2),
    ('(place "Disc1" 4 rotation:2)', "5", "", 0),          # an empty site
    ('(place "Disc1" 4 rotation:2)', "-1", "", 0),         # off the board: 0, as Ludii
    ('(place "Disc1" 4 rotation:3)', "4", "level:0", 3),  # no stacks: the level is not read
])
def test_rotation_reads_the_rotation_of_the_piece_at_a_site(start, site, level, expected):
    game = _game(start, play=f"(move Add (to (sites Empty)) (then (set Var (rotation at:{site} "
                 f"{level}))))", players=2)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.notes[("var", None)] == expected


@pytest.mark.parametrize("ludeme,board", [
    ("(mesh ...)", "(mesh 30)"),
])
def test_ludemes_ludii_has_and_ludeme_lacks_are_refused_as_not_supported_yet(ludeme, board):
    # Never "unknown": the files of Ludii's corpus that use them are valid
    with pytest.raises(LudemeError) as e:
        _built(f'(game "T" (players 2) (equipment {{(board {board}) (piece "Disc" Each)}}) '
               '(rules (play (move Add (to (sites Empty))))))')
    assert f"{ludeme} is not supported yet" in str(e.value) and "t.lud:1:" in str(e.value)


@pytest.mark.parametrize("board", ["(morris 3)", "(circle 3)", "(shape 3)"])
def test_board_words_ludii_lacks_are_unknown_ludemes(board):
    # Ludii has no graph function by these names (its morris boards are (concentric ...),
    # its circles (concentric {...}) or (regular ...)): misspellings like any other
    with pytest.raises(LudemeError) as e:
        _built(f'(game "T" (players 2) (equipment {{(board {board}) (piece "Disc" Each)}}) '
               '(rules (play (move Add (to (sites Empty))))))')
    assert f"unknown ludeme {board[:board.index(' ')]} ...)" in str(e.value)


def _rotations(state) -> list[tuple[int, int, int]]:
    """(from, to, rotation set) of each legal move that sets a rotation, in order."""
    return [(m.frm, m.to, m.actions[0][4]) for m in state.legal_moves()
            if m.actions and m.actions[0][:2] == (13, "rotation")]


@pytest.mark.parametrize("rule,rotations", [
    # the previous rotation, then the next, wrapping around the board's eight directions
    ("(move Set Rotation (to 4))", [7, 1]),
    ("(move Set Rotation (to 4) previous:False)", [1]),
    ("(move Set Rotation (to 4) {0 2 4 6} previous:False next:False)", [0, 2, 4, 6]),
    ("(move Set Rotation (to 4) 5)", [5, 7, 1]),        # the rotations given come first
    ("(move Set Rotation (to 9))", []),                  # off the board: no move
])
def test_move_set_rotation_offers_each_rotation_in_ludiis_order(rule, rotations):
    game = _game('(place "Disc1" 4)', play=rule, players=2)
    state = game.new_initial_state(0)
    got = _rotations(state)
    assert [r for _, _, r in got] == rotations
    assert all(f == t == 4 for f, t, _ in got)      # a move from the site to itself


def test_a_rotation_turns_the_pieces_relative_directions():
    # A piece stepping Forward steps north when its rotation is 0 and east after turning
    # right twice (each rotation a step of the square board's eight directions).
    state = _built('(game "T" (players 2) (equipment {(board (square 3)) (piece "Disc" Each '
                   '(or (move Step Forward (to if:(is Empty (to)))) (move Set Rotation {2} '
                   'previous:False next:False)))}) (rules (start (place "Disc1" 4)) '
                   '(play (forEach Piece))))').new_initial_state(0)
    steps = lambda: sorted(m.to for m in state.legal_moves() if m.to != m.frm)  # noqa: E731
    assert steps() == [7]                               # north of the centre
    state.apply(next(m for m in state.legal_moves() if m.to == m.frm))
    state.apply(state.legal_moves()[0])                 # the second player passes
    assert state.piece_rotation(4) == 2 and steps() == [5]     # east of the centre


def test_set_rotation_as_an_effect():
    game = _game('(place "Disc1" 4)', play='(move Add (to (sites Empty)) (then (set Rotation '
                 '(to 4) {3} previous:False next:False)))', players=2)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.piece_rotation(4) == 3


def _two_kinds(start: str, play: str):
    """A game whose pieces come in two kinds per player, a Disc and a Ring (none for P2)."""
    return _built('(game "T" (players 2) (equipment {(board (square 3)) (piece "Disc" Each) '
                  '(piece "Ring" P1) (piece "Disc" Neutral)}) '
                  f'(rules (start {{ {start} }}) (play {play})))')


@pytest.mark.parametrize("take,owners", [
    # every player's pieces on the site given: the neutral disc on 2 becomes the mover's
    ("(take Control of:All by:Mover at:2)", {0: 1, 1: 2, 2: 1, 3: 1}),
    ("(take Control of:Next by:Mover)", {0: 1, 1: 1, 2: 0, 3: 1}),
    ("(take Control of:Next by:Mover to:(sites {0 2}))", {0: 1, 1: 2, 2: 0, 3: 1}),
    # P2 has no Ring: the ring stays P1's
    ("(take Control of:Mover by:Next)", {0: 1, 1: 2, 2: 0, 3: 2}),
])
def test_take_control_gives_the_pieces_to_the_same_kind_of_the_new_owner(take, owners):
    game = _two_kinds('(place "Ring1" 0 state:2 value:5) (place "Disc2" 1) (place "Disc0" 2) '
                      '(place "Disc1" 3)', f"(move Add (to (sites Empty)) (then {take}))")
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 4))
    assert {site: state.who[site] for site in owners} == owners
    names = [game.components[state.what[site]].name for site in range(4)]
    assert names[:2] == ["Ring1", "Disc" + str(owners[1])]
    assert (state.piece_state(0), state.piece_value(0)) == (2, 5)       # its data kept


def test_a_copy_carries_the_pieces_state_rotation_and_value():
    # Ludii's ActionCopy moves the piece with its data and puts it back: the copy has them
    game = _game('(place "Disc1" 0 state:3 rotation:2 value:7)',
                 play="(move (from 0) (to 8) copy:True)", players=2)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert [(state.what[s], state.piece_state(s), state.piece_rotation(s), state.piece_value(s))
            for s in (0, 8)] == [(state.what[0], 3, 2, 7)] * 2


# A 3 x 3 board: 0 1 2 along the bottom row, 6 7 8 the top.
@pytest.mark.parametrize("pattern,sites", [
    # a line of two: north from the corner only (east ends on an empty site)
    ("(sites Pattern {F} from:0)", [0, 3]),
    # the whats cycle: the start's piece, then an empty site, then a disc again
    ("(sites Pattern {F F} from:0 whats:{1 0})", []),
    ("(sites Pattern {F F} from:0 whats:{1 1})", [0, 3, 6]),
    # R turns right (north to east): two discs up, then one across
    ("(sites Pattern {F F R F} from:0 whats:{1})", [0, 3, 6, 7]),
    # the start's piece must be the first of whats
    ("(sites Pattern {F} from:0 whats:{0})", []),
    # a walk off the board matches nothing
    ("(sites Pattern {F F F} from:0)", []),
])
def test_sites_pattern_walks_from_each_orthogonal_direction(pattern, sites):
    game = _game('(place "Disc1" {0 3 6 7})', play="(move Add (to (sites Empty)) (then "
                 f"(forEach Site {pattern} (remember Value (site)))))", players=2)
    state = game.new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 8))
    assert list(state.notes.get(("remembered", None), ())) == sites


@pytest.mark.parametrize("start,targets", [
    (0, [1, 3, 4]),     # the drawn diagonal 0-4 is an edge: orthogonal there, kept
    (1, [0, 2, 4]),
    (3, [0, 4, 6]),
])
def test_a_difference_spells_a_relation_as_the_site_supports_it(start, targets):
    # 3 x 3 points with the diagonal 0-4-8 drawn, as boards drawn as lines have them:
    # Ludii removes a site's diagonal directions, and a diagonal along an edge is not one
    game = _built('(game "T" (players 2) (equipment {(board (add (square 3) edges:{{0 4} '
                  '{4 8}}) use:Vertex) (piece "Disc" Each (move Step (difference Adjacent '
                  'Diagonal) (to if:(is Empty (to)))))}) (rules (start (place "Disc1" '
                  f'{start})) (play (forEach Piece))))')
    state = game.new_initial_state(0)
    assert sorted(m.to for m in state.legal_moves()) == targets


def test_a_slides_between_effect_applies_where_its_condition_holds():
    # Sliding east over the discs on 1 and 2, the effect applies only at the site where
    # its condition holds (Ludii evaluates the (apply ...) at each site passed over)
    state = _built('(game "T" (players 2) (equipment {(board (rectangle 1 5)) (piece "Disc" '
                   'Each (move Slide E (between if:True (apply if:(= (between) 1) (remove '
                   '(between))))))}) (rules (start {(place "Disc1" 0) (place "Disc2" {1 2})}) '
                   '(play (forEach Piece))))').new_initial_state(0)
    state.apply(next(m for m in state.legal_moves() if m.to == 3))
    assert [state.who[s] for s in range(5)] == [0, 0, 2, 1, 0]


def test_regions_worked_out_in_a_position_are_dropped_when_a_site_changes():
    # (sites Occupied ...) is kept on the state for its position: every write (a move's
    # actions, set_site) drops it, and a clone starts without it
    game = _game(play='(if (< (count Sites in:(sites Occupied by:P1)) 2) '
                      '(move Add (to (sites Empty))) (move Pass))', players=2)
    disc1 = game.component_named("Disc1").index
    state = game.new_initial_state(0)
    assert len(state.legal_moves()) == 9
    twin = state.clone()
    state.set_site(0, disc1)
    state.set_site(1, disc1)
    assert [m.is_pass for m in state.legal_moves()] == [True]
    assert len(twin.legal_moves()) == 9
    twin.apply(next(m for m in twin.legal_moves() if m.to == 4))    # P1 adds one
    twin.apply(twin.legal_moves()[0])                                # P2 adds one
    assert len(twin.legal_moves()) == 7                              # P1 has one: adds
    twin.apply(next(m for m in twin.legal_moves() if not m.is_pass))
    twin.apply(twin.legal_moves()[0])
    assert [m.is_pass for m in twin.legal_moves()] == [True]         # P1 has two


@pytest.mark.parametrize("pieces, hand_whats", [
    # each player's Disc to their hand, though a neutral piece is named "Disc" (Diamond)
    ('(piece "Disc" Each) (piece "Disc" Neutral)', [1, 2]),
    ('(piece "Disc" Each)', [1, 2]),
    ('(piece "Disc" Shared)', None),        # the Shared piece itself: no player's hand
])
def test_placing_a_name_in_hand_gives_each_player_their_piece(pieces, hand_whats):
    # Ludii's PlaceItem: "Disc" placed in "Hand" is each player's Disc, unless the piece
    # named "Disc" is Shared
    text = (f'(game "T" (players 2) (equipment {{(board (square 3)) {pieces} (hand Each)}}) '
            '(rules (start (place "Disc" "Hand" count:4)) (play (move Pass))))')
    if hand_whats is None:
        with pytest.raises(LudemeError, match="has no hand"):
            _built(text)
        return
    state = _built(text).new_initial_state(0)
    assert [(state.what[s], state.count[s]) for s in (9, 10)] == [(w, 4) for w in hand_whats]


@pytest.mark.parametrize("region", [
    "(difference (sites Board) (sites Occupied by:P1))",
    "(forEach (sites Board) if:(not (is In (site) (sites Occupied by:P1))))",
])
def test_a_start_rule_reads_the_pieces_the_rules_before_it_placed(region):
    # Ludii applies the start rules in order, so a region of the position is read when its
    # rule is played: here the sites P1's discs do not stand on
    state = _game(f'(place "Disc1" (sites {{0 4}})) (place "Disc2" {region})',
                  "(move Pass)", players=2).new_initial_state(0)
    assert [s for s in range(9) if state.sites.who[s] == 2] == [1, 2, 3, 5, 6, 7, 8]


@pytest.mark.parametrize("start, what", [
    ('(place "Disc1" (sites {0 39}))', "(place 'Disc1' ...)"),
    ("(set Count 2 to:(sites {0 39}))", "(set Count ...)"),
])
def test_a_start_rule_naming_a_site_the_game_lacks_is_refused_there(start, what):
    # 39 is a site of a larger board: Ludii's start actions index their arrays by it
    with pytest.raises(LudemeError, match=re.escape(f"{what} names no site here (site 39: "
                                                    "the game has sites 0 to 8)")):
        _game(start, "(move Pass)", players=2)


def test_a_track_through_a_site_the_game_lacks_is_refused_at_the_track():
    # site 12 is past the 3x3 board and the two hands (sites 9 to 10): a move along the track
    # would index the state beyond its end, where Ludii's arrays stop
    with pytest.raises(LudemeError, match=r"track 'T': site 12 is not a site of this game "
                                          r"\(it has sites 0 to 10\)"):
        _built('(game "T" (players 2) (equipment {(board (square 3) {(track "T" {0 1 2 12})}) '
               '(piece "Disc" Each) (hand Each)}) (rules (play (move Pass))))')
    # a track may go on into a hand, whose sites follow the board's
    _built('(game "T" (players 2) (equipment {(board (square 3) {(track "T" {9 0 1 2})}) '
           '(piece "Disc" Each) (hand Each)}) (rules (play (move Pass))))')
