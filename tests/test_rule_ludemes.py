"""Small rule ludemes that stopped corpus games with "not supported yet", each on a small
description of its own whose expected result follows from Ludii's source."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError

GAME = ('(game "g" (players 2) (equipment {{(board (square 3)) {items}}}) '
        '(rules (start {{{start}}}) (play {play}) (end (if (no Moves Next) (result Mover Win)))))')

# P1 holds sites 0 and 1, P2 site 2: six empty sites.
THREE = '(place "Disc1" {0 1}) (place "Disc2" 2)'


def _load(tmp_path, play='(move Add (to (sites Empty)))', items='(piece "Disc" Each)', start=""):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(items=items, start=start, play=play))
    return load(f)


def _holds(tmp_path, cond, start=THREE, items='(piece "Disc" Each)'):
    """Whether `cond` holds in the initial position: the mover may add a disc only if it
    does (without one, Ludii's player has one move, a pass)."""
    game = _load(tmp_path, items=items, start=start,
                 play=f'(if {cond} (move Add (to (sites Empty))))')
    return len(game.new_initial_state().legal_moves()) > 1


def _evaluates_to(tmp_path, expr, value, start=THREE):
    assert _holds(tmp_path, f"(= {value} {expr})", start)
    assert not _holds(tmp_path, f"(= {value + 7} {expr})", start)


# -- (count Pieces of:<player>) -------------------------------------------------------------

@pytest.mark.parametrize("expr,value", [
    ("(count Pieces of:1)", 2), ("(count Pieces of:2)", 1), ("(count Pieces of:(next))", 1),
    ("(count Pieces of:1 in:(sites {1 2 3}))", 1), ("(count Pieces of:(mover) \"Disc\")", 2),
    ("(count Pieces of:0)", 0), ("(count Pieces)", 3), ("(count Pieces P2)", 1)])
def test_count_pieces_of_a_player_given_as_a_number(tmp_path, expr, value):
    _evaluates_to(tmp_path, expr, value)


def test_count_pieces_takes_a_role_or_of_not_both(tmp_path):
    with pytest.raises(LudemeError, match="role or of:"):
        _holds(tmp_path, "(= 1 (count Pieces P1 of:1))")


# -- (all Groups ...) -------------------------------------------------------------------------

# P1 holds 0 1 (a row's first two sites) and 8 (the far corner), P2 holds 2.
GROUPS = '(place "Disc1" {0 1 8}) (place "Disc2" 2)'


@pytest.mark.parametrize("cond,holds", [
    # Without of:, a group is the mover's (P1's) pieces: {0 1} and {8}.
    ("(all Groups Orthogonal if:(<= (count Sites in:(sites)) 2))", True),
    ("(all Groups Orthogonal if:(< (count Sites in:(sites)) 2))", False),
    ("(all Groups Orthogonal if:(is In 8 (sites)))", False),
    ("(all Groups Orthogonal if:(not (is In 2 (sites))))", True),
    # With of:, the sites where it holds ((to) the site), whoever owns them: {0 1 2}, {8}.
    ("(all Groups Orthogonal of:(is Occupied (to)) if:(<= (count Sites in:(sites)) 2))", False),
    ("(all Groups Orthogonal of:(is Occupied (to)) if:(<= (count Sites in:(sites)) 3))", True),
    ("(all Groups Orthogonal of:(is Next (who at:(to))) if:(= 1 (count Sites in:(sites))))",
     True),
    # Diagonally, none of 0, 1 and 8 is next to another: three groups of one.
    ("(all Groups Diagonal if:(= 1 (count Sites in:(sites))))", True),
    # No group at all: holds.
    ("(all Groups of:(is Empty (to)) if:(< 0 (count Sites in:(sites))))", True),
    # A group grows only from an owned site: {1}, whatever the condition's sites.
    ("(all Groups of:(= 1 (to)) if:(= 1 (count Sites in:(sites))))", True),
    ("(all Groups of:(= 1 (to)) if:(= 9 (count Sites in:(sites))))", False),
])
def test_all_groups_tests_every_group_of_the_board(tmp_path, cond, holds):
    assert _holds(tmp_path, cond, start=GROUPS) == holds


def test_all_groups_leaves_the_region_it_was_read_in(tmp_path):
    # (sites) inside (forEach Group ...) is still the outer group after an inner (all Groups).
    game = _load(tmp_path, start=GROUPS,
                 play='(forEach Group Orthogonal (if (and (all Groups of:(is Empty (to)) '
                      'if:(< 1 (count Sites in:(sites)))) (= 2 (count Sites in:(sites)))) '
                      '(move Add (to (sites Empty)))))')
    assert len(game.new_initial_state().legal_moves()) == 5


def test_all_groups_on_another_site_type_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="not supported yet"):
        _holds(tmp_path, "(all Groups Vertex if:(= 1 (count Sites in:(sites))))")


# -- (all Different ...) ----------------------------------------------------------------------

SHAPES = '(piece "Disc" Each) (piece "Square" Each)'
# Disc1 at 0, Square1 at 1, Disc2 at 2: three components.
DIFFERENT = '(place "Disc1" 0) (place "Square1" 1) (place "Disc2" 2)'


@pytest.mark.parametrize("cond,holds", [
    ("(all Different (sites {0 1 2}) if:(is Occupied (site)))", True),
    ("(all Different (sites {0 1 2 3}) if:(is Occupied (site)))", False),
    ("(all Different (sites {0 1 3}) if:(>= (site) 0))", True),     # one empty site
    ("(all Different (sites {0 3 4}) if:(>= (site) 0))", False),    # two empty sites
    ("(all Different (sites {0 1 2}) if:(!= (site) 1))", False),    # the condition fails
    ("(all Different (sites {}) if:(is Occupied (site)))", True),
])
def test_all_different_compares_the_components_of_the_sites(tmp_path, cond, holds):
    assert _holds(tmp_path, cond, start=DIFFERENT, items=SHAPES) == holds


# -- (swap Pieces ...) ------------------------------------------------------------------------

SELECT = ('(move Select (from (sites Occupied by:Mover)) (to (sites Occupied by:Next)) '
          '(then {swap}))')


@pytest.mark.parametrize("swap,after", [
    # {site: owner} after P1 selects 0 then 1: the pieces at the two sites change places.
    ("(swap Pieces (last From) (last To))", {0: 2, 1: 1, 2: 0}),
    ("(swap Pieces)", {0: 2, 1: 1, 2: 0}),                      # the same by default
    ("(swap Pieces 0 2)", {0: 0, 1: 2, 2: 1}),                  # onto an empty site
    ("(swap Pieces 0 1 (then (remove 1)))", {0: 2, 1: 0, 2: 0}),
])
def test_swap_pieces_exchanges_the_pieces_of_two_sites(tmp_path, swap, after):
    game = _load(tmp_path, start='(place "Disc1" 0) (place "Disc2" 1)',
                 play=SELECT.format(swap=swap))
    s = game.new_initial_state()
    [move] = s.legal_moves()
    s.apply(move)
    assert {site: s.who[site] for site in after} == after


def test_swap_pieces_takes_two_sites_or_none(tmp_path):
    with pytest.raises(LudemeError, match="two sites or none"):
        _load(tmp_path, play=SELECT.format(swap="(swap Pieces 0)"))


# -- betting: (move Bet ...), (bet ...), (amount ...), (set Pot ...), (pot) ------------------

def _after_first_move(tmp_path, play, start=""):
    game = _load(tmp_path, play=play, start=start)
    s = game.new_initial_state()
    s.apply(s.legal_moves()[0])
    return s


@pytest.mark.parametrize("play,moves", [
    ("(move Bet Mover (range 0 3))", 4), ("(move Bet P2 (range 2 2))", 1),
    ("(move Bet (player 1) (range 1 5))", 5), ("(bet Mover (range 0 1))", 2)])
def test_a_bet_is_one_move_per_amount_of_its_range(tmp_path, play, moves):
    assert len(_load(tmp_path, play=play).new_initial_state().legal_moves()) == moves


@pytest.mark.parametrize("cond,holds", [
    # Before any bet: every amount 0, the pot 0; (amount) of no player is -1.
    ("(= 0 (amount Mover))", True), ("(= 0 (pot))", True), ("(= -1 (amount (player 3)))", True),
])
def test_amounts_and_the_pot_start_at_zero(tmp_path, cond, holds):
    assert _holds(tmp_path, cond) == holds


def test_a_bet_sets_the_players_amount_and_set_pot_the_pot(tmp_path):
    # P1 bets 3 (the last amount of the range), then pays its amount and 10 into the pot.
    play = ('(if (= 0 (amount P1)) (move Bet P1 (range 3 3) (then (set Pot (+ (pot) '
            '(+ 10 (amount P1)))))) (if (= 13 (pot)) (move Add (to (sites Empty)))))')
    s = _after_first_move(tmp_path, play)
    assert len(s.legal_moves()) == 9     # P2's turn: (pot) is 13, so it may add a disc


def test_set_pot_without_a_value_makes_it_undefined(tmp_path):
    s = _after_first_move(tmp_path, '(or (if (= 0 (pot)) (move Bet P1 (range 3 3) (then '
                                    '(set Pot)))) (if (= -1 (pot)) (move Add (to (sites Empty)))))')
    assert len(s.legal_moves()) == 9


# -- (is Threatened ...) without a piece ------------------------------------------------------

# P1 at 0 and 8, P2 at 1; a threat is an orthogonal step onto an enemy.
THREATS = '(place "Disc1" {0 8}) (place "Disc2" 1)'
STEPPERS = '(piece "Disc" Each (move Step Orthogonal (to if:(is Enemy (who at:(to))))))'
STEP = "(forEach Piece)"


@pytest.mark.parametrize("cond,holds", [
    (f"(is Threatened at:0 {STEP})", True),       # P1's piece, P2 next to it
    (f"(is Threatened at:1 {STEP})", True),       # P2's piece: P1 is its enemy
    (f"(is Threatened at:8 {STEP})", False),
    (f"(is Threatened at:4 {STEP})", False),      # no piece there
    (f"(is Threatened {STEP})", True),            # some occupied site
    (f"(is Threatened (sites {{8 4}}) {STEP})", False),
    (f"(is Threatened in:(sites {{8 0}}) {STEP})", True),
])
def test_is_threatened_without_a_piece_asks_of_the_piece_on_each_site(tmp_path, cond, holds):
    assert _holds(tmp_path, cond, start=THREATS, items=STEPPERS) == holds


# -- (directions ... bySite:True) -------------------------------------------------------------

@pytest.mark.parametrize("dirs,destinations", [
    # P1's disc faces N at site 5 (the right edge's middle): FR turns clockwise from N to
    # the first direction supported; the board has NE, site 5 has no step there but has S.
    ("(directions FR)", []),
    ("(directions FR bySite:True)", [2]),
    ("(directions FL bySite:True)", [7]),              # NW: site 5 has it too
    ("(directions {Forwards Rightward Leftward} bySite:True)", [4, 7, 8]),
])
def test_directions_by_site_turn_among_the_sites_own_directions(tmp_path, dirs, destinations):
    items = f'(piece "Disc" Each (move Step {dirs} (to if:(is Empty (to)))))'
    game = _load(tmp_path, items=items, start='(place "Disc1" 5)', play="(forEach Piece)")
    moves = [m for m in game.new_initial_state().legal_moves() if not m.is_pass]
    assert sorted(m.to for m in moves) == destinations


def test_directions_by_site_needs_relative_directions(tmp_path):
    items = '(piece "Disc" Each (move Step (directions {N E} bySite:True) (to if:True)))'
    with pytest.raises(LudemeError, match="bySite"):
        _load(tmp_path, items=items, start='(place "Disc1" 5)', play="(forEach Piece)")


# -- (apply ...) where moves are expected (e.g. as (forEach Site ...)'s generator) -----------

def test_apply_as_the_generator_of_for_each_site(tmp_path):
    # P1 adds a disc, then every piece of the next player (P2) is removed.
    play = ('(move Add (to (sites Empty)) (then (forEach Site (sites Board) '
            '(apply if:(is Next (who at:(site))) (remove (site))))))')
    s = _after_first_move(tmp_path, play, start='(place "Disc2" {0 4}) (place "Disc1" 8)')
    assert [s.who[x] for x in (0, 4, 8)] == [0, 0, 1]


@pytest.mark.parametrize("play,moves", [
    ("(apply (move Add (to (sites Empty))))", 9),
    ("(apply if:(is Mover P1) (move Add (to (sites Empty))))", 9),
    ("(apply if:(is Mover P2) (move Add (to (sites Empty))))", 1),     # none: a pass
])
def test_apply_as_moves_gives_its_moves_when_its_condition_holds(tmp_path, play, moves):
    assert len(_load(tmp_path, play=play).new_initial_state().legal_moves()) == moves


def test_apply_as_moves_needs_its_moves(tmp_path):
    with pytest.raises(LudemeError, match="needs its moves"):
        _load(tmp_path, play="(apply if:(is Mover P1))")


# -- (remember State) and (avoidStoredState ...) ----------------------------------------------

@pytest.mark.parametrize("then,moves", [
    # After 0 -> 1 the mover plays again: three steps from 1, and the pass unless the
    # position it leaves unchanged was stored.
    ("(and (remember State) (moveAgain))", 3),
    ("(moveAgain)", 4),
])
def test_avoid_stored_state_drops_the_moves_back_to_the_stored_position(tmp_path, then, moves):
    items = ('(piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to))) '
             f'(then {then})))')
    game = _load(tmp_path, items=items, start='(place "Disc1" 0)',
                 play="(avoidStoredState (or (forEach Piece) (move Pass)))")
    s = game.new_initial_state()
    assert len(s.legal_moves()) == 3            # nothing stored yet: 1, 3 and the pass
    s.apply(next(m for m in s.legal_moves() if m.to == 1))
    assert len(s.legal_moves()) == moves


def test_avoid_stored_state_refuses_a_then_ludii_never_applies(tmp_path):
    with pytest.raises(LudemeError, match="not supported yet"):
        _load(tmp_path, play="(avoidStoredState (move Add (to (sites Empty))) "
                             "(then (remember State)))")


# -- (name: ...): Ludii's tokenizer ends the ludeme's name at the colon -----------------------

@pytest.mark.parametrize("text,read", [
    ('(game "g" (move (from: (value)) (to: (last To))))',
     '(game "g" (move (from (value)) (to (last To))))'),
    ('(game "g" (= (a) (coord:"A1")))', '(game "g" (= (a) (coord "A1")))'),
    ('(game "g" (f (x: 1 2)))', '(game "g" (f (x 1 2)))'),
    ('(game "g" (place "A" coord:"A1"))', '(game "g" (place "A" coord:"A1"))'),   # unchanged
])
def test_a_name_with_a_colon_heads_its_parentheses(text, read):
    from ludeme.language.grammar import parse
    from ludeme.language.syntax import to_lud
    assert to_lud(parse(text)[0]) == read


def test_a_from_to_move_written_with_colons(tmp_path):
    # (move (from: 0) (to: 1)) is (move (from 0) (to 1)): one move, 0 -> 1.
    game = _load(tmp_path, start='(place "Disc1" 0)', play="(move (from: 0) (to: 1))")
    assert [(m.frm, m.to) for m in game.new_initial_state().legal_moves()] == [(0, 1)]


# -- (set Hidden ...)'s concepts, as a start rule and as an effect ---------------------------

@pytest.mark.parametrize("start,play,present,absent", [
    # Ludii's start form: the piece is invisible, no SetInvisible; the effect names both.
    ('(set Hidden (sites Board) to:P2)', '(move Add (to (sites Empty)))',
     {"HiddenInformation", "InvisiblePiece"}, {"SetInvisible", "SetHidden"}),
    ("", '(move Add (to (sites Empty)) (then (set Hidden at:(last To) to:Next)))',
     {"InvisiblePiece", "SetInvisible"}, {"HidePieceType"}),
    # With data, one concept per datum (and SetHidden<datum> for the effect).
    ('(set Hidden {What Value} (sites Board) to:P2)', '(move Add (to (sites Empty)))',
     {"HidePieceType", "HidePieceValue"}, {"InvisiblePiece", "SetHiddenWhat", "HidePieceOwner"}),
    ("", '(move Add (to (sites Empty)) (then (set Hidden Who at:(last To) to:Next)))',
     {"HidePieceOwner", "SetHiddenWho", "SetHidden"}, {"InvisiblePiece", "HidePieceType"}),
])
def test_set_hidden_concepts_follow_ludiis_start_and_effect_forms(tmp_path, start, play,
                                                                   present, absent):
    from ludeme.analysis.concepts import compile_time
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(items='(piece "Disc" Each)', start=start, play=play))
    got = set(compile_time(f).boolean)
    assert present <= got and not absent & got


# -- (count Pieces of:) on the compiled backend -------------------------------------------

OF_GAME = """
(game "Of"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each (move Step (to if:(not (is Friend
      (who at:(to)))) (apply (remove (to))))))})
  (rules
    (start {(place "Disc1" {0 1 2}) (place "Disc2" {13 14 15})})
    (play (forEach Piece))
    (end {(if (= 0 (count Pieces of:(next))) (result Mover Win))
          (if (= 2 (count Pieces of:(mover) in:(sites Top))) (result Mover Win))})))
"""


def test_count_pieces_of_gives_the_reference_rows_on_the_compiled_backend(tmp_path):
    import pandas as pd
    from ludeme.analysis.playouts import run_playouts
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "of.lud"
    path.write_text(OF_GAME)
    game = load(path)
    generate(game)                  # it has a compiled form
    ref = run_playouts(game, 30, 5, jobs=1, progress=False, backend="reference")
    fast = run_playouts(game, 30, 5, jobs=1, progress=False, backend="compiled")
    pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
    assert ref["winner"].gt(0).any()


# -- (do <moves> next:...): the move named after the prior decision ---------------------------

STEPPER = '(piece "Disc" Each (move Step Forward (to if:(is Empty (to)))))'


@pytest.mark.parametrize("start,play,named", [
    # One piece, one step: the score added next decides nothing, so the move is the step.
    ('(place "Disc1" 0)', '(do (forEach Piece) next:(addScore Mover 1))', [(0, 3)]),
    # An effect before decides nothing either: the next move keeps its own name (a pass).
    ('(place "Disc1" 0)', '(do (add (piece "Disc1") (to 4)) next:(move Pass))', [(-1, -1)]),
    # The next move decides: it keeps its own name after the prior decision's actions.
    ('(place "Disc1" 0)', '(do (forEach Piece) next:(move Add (piece "Disc1") (to 8)))',
     [(8, 8)]),
])
def test_do_next_is_named_after_its_first_decision(tmp_path, start, play, named):
    # Ludii's Move reports (from, to) of its first decision action; Do puts the prior
    # moves' actions first.
    game = _load(tmp_path, items=STEPPER, start=start, play=play)
    assert [m.key() for m in game.new_initial_state().legal_moves()] == named


def test_do_next_after_several_prior_decisions_is_named_after_the_first_in_ludii_order(
        tmp_path):
    # Ludii applies every prior move, puts their actions before the next move's, and names
    # the move after the first decision: the first of (forEach Piece)'s moves, which walks
    # the kind's list of owned pieces in its order (not the sites' order). The move's own
    # ends stay undefined: (last To) reads -1 after it.
    game = _load(tmp_path, items=STEPPER, start='(place "Disc1" {0 1})',
                 play='(do (forEach Piece) next:(addScore Mover 1))')
    s = game.new_initial_state()
    assert [m.key() for m in s.legal_moves()] == [(0, 3)]
    s.apply(s.legal_moves()[0])
    assert [s.who[i] for i in range(9)] == [0, 0, 0, 1, 1, 0, 0, 0, 0]     # both stepped
    assert (s.last_from, s.last_to) == (-1, -1)
    # the same position with the list in the other order (as Ludii's swaps leave it after
    # some moves): the piece at 1 comes first
    s = game.new_initial_state()
    disc1 = next(w for w, c in enumerate(game.components) if c.name == "Disc1")
    assert s.owned_sites(disc1) == [0, 1]
    s.sites.owned[disc1] = [1, 0]
    assert [m.key() for m in s.legal_moves()] == [(1, 4)]


def test_do_next_puts_each_prior_move_where_ludii_inserts_it():
    # Do.prependPreMoves: each prior move's actions are inserted at the index that is the
    # number of actions of the one before it, not their sum.
    from ludeme.model.ludemes.effects import prepended
    assert prepended([["a1", "a2"], ["b1"], ["c1", "c2", "c3"]], ["n"]) == \
        ["a1", "c1", "c2", "c3", "a2", "b1", "n"]
    assert prepended([], ["n"]) == ["n"]


# -- (is In <site> (intersection|union ...)): membership asked of each region ------------------

@pytest.mark.parametrize("site,region,holds", [
    # sites 0 1 2 are the bottom row, 0 3 6 the left column; P1 holds 0 and 1 (THREE)
    (0, "(intersection (sites Bottom) (sites Left))", True),
    (1, "(intersection (sites Bottom) (sites Left))", False),
    (3, "(intersection (sites Bottom) (sites Left))", False),
    (1, "(intersection {(sites Bottom) (sites Occupied by:P1) (sites {1 5})})", True),
    (0, "(intersection {(sites Bottom) (sites Occupied by:P1) (sites {1 5})})", False),
    (3, "(union (sites Bottom) (sites Left))", True),
    (2, "(union (sites Bottom) (sites Left))", True),
    (4, "(union (sites Bottom) (sites Left))", False),
    (5, "(union {(sites Occupied by:P2) (sites {5}) (sites Empty)})", True),
    (1, "(union {(sites Occupied by:P2) (sites {5}) (sites Empty)})", False),
    (0, "(intersection (union (sites Bottom) (sites {4})) (sites Left))", True),
])
def test_is_in_a_set_operation_is_membership_of_its_regions(tmp_path, site, region, holds):
    """`(is In s (intersection ...))` holds when s is in every region, `(union ...)` in any:
    what the listed set gives, asked of each region without building it."""
    assert _holds(tmp_path, f"(is In {site} {region})") == holds
    assert _holds(tmp_path, f"(not (is In {site} {region}))") != holds


def test_a_team_result_without_teams_is_not_supported_yet(tmp_path):
    """Ludii loads (result TeamMover Win) in a game that sets no teams: not a fault of the
    file, so it is refused as not supported yet, at its place."""
    f = tmp_path / "g.lud"
    f.write_text('(game "g" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
                 '(rules (play (move Add (to (sites Empty)))) '
                 '(end (if (is Line 3) (result TeamMover Win)))))')
    with pytest.raises(LudemeError, match=r"\(result TeamMover \.\.\.\) in a game without "
                                          r"teams .* is not supported yet") as e:
        load(f)
    assert (e.value.pos.line, e.value.pos.col) == (1, 141)     # at (result ...
