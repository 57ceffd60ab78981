"""Captures around a piece (surround, intervene, enclose), triggers, (is Within),
(set Value at:) and (count Liberties) on small boards, as tables; then a few corpus games
that use them replayed against Ludii's traces."""

from pathlib import Path

import pytest

from ludeme.api import load
from ludeme.analysis.crosscheck import crosscheck_files
from ludeme.errors import LudemeError

GAME = ('(game "g" (players 2) (equipment {{(board (square {size})) (piece "R" Each) '
        '(piece "K" Each)}}) (rules (start {{{start}}}) (play {play}) (end {{{end} '
        '(if (no Moves Next) (result Mover Win))}})))')


def _state(tmp_path, play, start, size=5, end=""):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(size=size, start=start, play=play, end=end))
    game = load(f)
    return game.new_initial_state()


def _play(s, frm, to):
    s.apply(next(m for m in s.legal_moves() if (m.frm, m.to) == (frm, to)))


def _step(then):
    return f'(forEach Piece (move Step (to if:(is Empty (to))) (then {then})))'


# A 5x5 board: site = 5 * row + column. R1 steps from 3 to 8, next to the enemy at 13.
# Ludii's default conditions read the site ids as player ids: the tests give their own.
FRIEND = '(to if:(is Friend (who at:(to))))'
SURROUND = _step('(surround (from (last To)) Orthogonal {args} ' + FRIEND + ')')
ENEMY = '(between if:(is Enemy (who at:(between))) (apply (remove (between))))'



@pytest.mark.parametrize("args,start,taken", [
    # 13's other orthogonal neighbours 12, 14 and 18 are friends: taken.
    (ENEMY, '(place "R1" {3 12 14 18}) (place "R2" 13)', True),
    # One side (18) empty: not taken ...
    (ENEMY, '(place "R1" {3 12 14}) (place "R2" 13)', False),
    # ... unless one exception is allowed.
    (ENEMY + " except:1", '(place "R1" {3 12 14}) (place "R2" 13)', True),
    # The target condition decides which neighbours may be captured.
    ('(between if:(is In (between) (sites {0})) (apply (remove (between))))',
     '(place "R1" {3 12 14 18}) (place "R2" 13)', False),
    # with: one of the neighbours must hold that piece (Bizingo's Jarl) ...
    (ENEMY + ' with:(piece (id "K" Mover))', '(place "R1" {3 12 14}) (place "K1" 18) '
     '(place "R2" 13)', True),
    (ENEMY + ' with:(piece (id "K" Mover))', '(place "R1" {3 12 14 18}) (place "R2" 13)',
     False),
    # ... friend or not: Ludii looks at the piece on every neighbour it checks.
    (ENEMY + ' except:1 with:(piece (id "K" Next))', '(place "R1" {3 12 14}) '
     '(place "K2" 18) (place "R2" 13)', True),
])
def test_surround_takes_a_piece_closed_in_on_all_sides(tmp_path, args, start, taken):
    s = _state(tmp_path, SURROUND.format(args=args), start)
    _play(s, 3, 8)
    assert s.what[13] == (0 if taken else 2)


def test_surround_edge_needs_only_the_board_sides(tmp_path):
    # 20 is a corner: its neighbours are 15 and 21; R1 steps 10 -> 15 with 21 a friend.
    s = _state(tmp_path, SURROUND.format(args=ENEMY), '(place "R1" {10 21}) (place "R2" 20)')
    _play(s, 10, 15)
    assert s.what[20] == 0


# Intervene: R1 steps between two enemies in a line and takes both (Ludii's default
# target is an enemy, the effect a removal).
INTERVENE = _step('(intervene (from (last To)) Orthogonal {args} (to if:(is Enemy '
                  '(who at:(to))) (apply (remove (to)))))')


@pytest.mark.parametrize("args,start,left", [
    ("", '(place "R1" 7) (place "R2" {11 13})', {11: 0, 13: 0}),
    # Only one side holds an enemy: nothing taken.
    ("", '(place "R1" 7) (place "R2" 11)', {11: 2}),
    # A friend on the far side does not count.
    ("", '(place "R1" {7 13}) (place "R2" 11)', {11: 2, 13: 1}),
    # Runs of two on each side with (range 1 2).
    ("(between (range 1 2))", '(place "R1" 7) (place "R2" {10 11 13 14})',
     {10: 0, 11: 0, 13: 0, 14: 0}),
    # With the default length 1 only the two next to the site are taken.
    ("", '(place "R1" 7) (place "R2" {10 11 13 14})', {10: 2, 11: 0, 13: 0, 14: 2}),
])
def test_intervene_takes_targets_on_both_sides(tmp_path, args, start, left):
    s = _state(tmp_path, INTERVENE.format(args=args), start)
    _play(s, 7, 12)
    assert {k: s.who[k] for k in left} == left


ENCLOSE = ('(move Add (to (sites Empty)) (then (enclose (from (last To)) Orthogonal '
           '(between if:(is Enemy (who at:(between))) (apply (remove (between)))))))')


@pytest.mark.parametrize("start,add,left", [
    # A group of two enemies (6, 7) with its last liberty (8) filled: taken.
    ('(place "R1" {1 2 5 11 12}) (place "R2" {6 7})', 8, {6: 0, 7: 0}),
    # With 12 empty the group keeps a liberty.
    ('(place "R1" {1 2 5 11}) (place "R2" {6 7})', 8, {6: 2, 7: 2}),
])
def test_enclose_takes_groups_without_liberties(tmp_path, start, add, left):
    s = _state(tmp_path, ENCLOSE, start)
    s.apply(next(m for m in s.legal_moves() if m.to == add))
    assert {k: s.who[k] for k in left} == left


# numException: a group may keep that many empty sites (Ludii's Enclose walks into them);
# a target condition reading (is Empty ...) takes an area whose surrounding pieces form one
# chain (Mig Mang's territories). The score counts the effect, applied on every site of
# the group, empty ones included.
ENCLOSE_WITH = ('(move Add (to (sites Empty)) (then (enclose (from (last To)) Orthogonal '
                '(between if:{cond} (apply (and (addScore Mover 1) (remove (between))))) '
                '{extra})))')
WALLED = '(place "R1" {1 2 3 5 9 11 13}) (place "R2" {6 7})'   # 8 empty, 12 to play


@pytest.mark.parametrize("cond, extra, left, score", [
    ("(is Enemy (who at:(between)))", "", {6: 2, 7: 2}, 0),            # 8 is a liberty
    ("(is Enemy (who at:(between)))", "numException:1", {6: 0, 7: 0}, 3),
    ("(is Enemy (who at:(between)))", "numException:2", {6: 0, 7: 0}, 3),
    # empty sites are targets: 6 7 8 are walled in by one chain of R1 pieces
    ("(or (is Enemy (who at:(between))) (is Empty (between)))", "", {6: 0, 7: 0}, 3),
])
def test_enclose_with_empty_sites_inside(tmp_path, cond, extra, left, score):
    s = _state(tmp_path, ENCLOSE_WITH.format(cond=cond, extra=extra), WALLED)
    s.apply(next(m for m in s.legal_moves() if m.to == 12))
    assert {k: s.who[k] for k in left} == left and s.scores[1] == score


def test_trigger_marks_a_player_read_by_is_triggered(tmp_path):
    play = ('(forEach Piece (move Step (to if:(is Empty (to))) (then (if (= (last To) 12) '
            '(trigger "Reached" Mover)))))')
    end = '(if (is Triggered "AnyName" P1) (result P1 Win))'
    s = _state(tmp_path, play, '(place "R1" 7) (place "R2" 0)', end=end)
    _play(s, 7, 8)
    assert not s.is_terminal()
    _play(s, 0, 1)
    _play(s, 8, 13)
    _play(s, 1, 2)
    assert not s.is_terminal()
    _play(s, 13, 12)
    assert s.is_terminal() and s.returns()[1] == 1.0


@pytest.mark.parametrize("cond,over", [
    ('(is Within (id "K" P1) in:(sites {12}))', True),
    ('(is Within (id "K" P1) at:13)', False),
    ('(is Within (id "R" P1) in:(sites {12}))', False),   # another kind of piece
    ('(is Within (id "K" P1))', True),                      # the last destination
])
def test_is_within_finds_a_piece_kind(tmp_path, cond, over):
    play = '(forEach Piece (move Step (to if:(is Empty (to)))))'
    s = _state(tmp_path, play, '(place "K1" 7) (place "R1" 0) (place "R2" 24)',
               end=f'(if {cond} (result P1 Win))')
    _play(s, 7, 12)
    assert s.is_terminal() == over


def test_set_value_at_a_site_is_read_by_value_piece(tmp_path):
    play = ('(forEach Piece (move Step (to if:(is Empty (to))) (then (set Value at:(last To) '
            '(+ 3 (value Piece at:(last To)))))))')
    s = _state(tmp_path, play, '(place "R1" 7) (place "R2" 0)')
    _play(s, 7, 12)
    assert s.piece_value(12) == 3
    _play(s, 0, 1)
    _play(s, 12, 17)
    assert s.piece_value(17) == 6


@pytest.mark.parametrize("at,count", [
    ("at:6", 5),        # the group 2-6-7 of R2: 1, 3, 8, 11 and 12 are empty
    ("at:0", 3),        # the group 0-5-10 of R1: 1, 11 and 15
])
def test_count_liberties_of_a_group(tmp_path, at, count):
    play = f'(if (= (count Liberties {at} Orthogonal) {count}) (move Pass) (move Add (to 24)))'
    s = _state(tmp_path, play, '(place "R1" {0 5 10}) (place "R2" {6 7 2})')
    assert [m.is_pass for m in s.legal_moves()] == [True]


@pytest.mark.parametrize("start,left", [
    # The added piece pushes the run east; the run stops at the first empty site.
    ('(place "R2" {1 2})', {0: 0, 1: 1, 2: 2, 3: 2, 4: 0}),
    # A full row: the last piece falls off the board.
    ('(place "R2" {1 2 3 4})', {0: 0, 1: 1, 2: 2, 3: 2, 4: 2}),
])
def test_push_moves_the_run_on(tmp_path, start, left):
    play = '(move Add (to (sites {0})) (then (push (from (last To)) E)))'
    s = _state(tmp_path, play, start)
    s.apply(s.legal_moves()[0])
    assert {k: s.who[k] for k in left} == left


def test_swap_pieces_exchanges_two_sites(tmp_path):
    s = _state(tmp_path, '(move Swap Pieces 0 1)', '(place "R1" 0) (place "K2" 1)')
    (m,) = s.legal_moves()
    assert (m.frm, m.to) == (0, 1)
    s.apply(m)
    assert (s.who[0], s.who[1]) == (2, 1) and s.what[0] != s.what[1]


def test_move_set_next_player_keeps_the_mover(tmp_path):
    s = _state(tmp_path, '(or (move Add (to (sites {24}))) (move Set NextPlayer (mover)))',
               '(place "R1" 0)')
    s.apply(next(m for m in s.legal_moves() if m.frm == -1))
    assert s.mover == 1


def test_a_start_placement_keeps_a_piece_already_there(tmp_path):
    # Ludii's ActionAdd on an occupied site changes only its count.
    s = _state(tmp_path, '(move Pass)', '(place "R2" 3) (place "R1" (sites {3 4}))')
    assert (s.who[3], s.who[4]) == (2, 1)


@pytest.mark.parametrize("play,arg", [
    (_step('(surround (from (last To)) (then (moveAgain)))'), "then"),
    (_step('(surround (from (last To)) (between (max 2)))'), "range"),
    (_step('(trigger "E" Mover (then (moveAgain)))'), "then"),
])
def test_refused_arguments_stop_at_their_position(tmp_path, play, arg):
    with pytest.raises(LudemeError) as e:
        _state(tmp_path, play, '(place "R1" 7) (place "R2" 0)')
    assert "not supported yet" in str(e.value) and f"'{arg}'" in str(e.value), str(e.value)


# Corpus games whose first blocker was one of these ludemes, replayed step by step.
CORPUS = ["board_war_custodial_Hnefatafl", "board_war_custodial_Brandub",
          "board_hunt_Gala_(Buginese)", "board_war_custodial_Maak_Yek",
          "board_space_territory_Atari_Go", "reconstruction_done_board_hunt_Cumi",
          "board_war_replacement_checkmate_chess_Alice_Chess"]


def test_corpus_games_agree_with_ludii(refdata, ludii):
    traces = [refdata / "corpus-traces" / f"{name}.json.gz" for name in CORPUS]
    present = [str(t) for t in traces if t.is_file()]
    if not present:
        pytest.skip("none of these corpus traces is in the reference data")
    verdicts = crosscheck_files(present, ludii_dir=str(Path(ludii)),
                                index=str(refdata / "corpus-index.tsv"))
    assert [v.line() for v in verdicts if not v.ok] == []
    assert len(verdicts) == len(present)


@pytest.mark.parametrize("end,winner", [
    # The first inner rule with a result decides ...
    ('(if (= (last To) 12) (if (= 1 1) (result P2 Win)) (result P1 Win))', 2),
    # ... and without one the outer result does.
    ('(if (= (last To) 12) (if (= 1 0) (result P2 Win)) (result P1 Win))', 1),
])
def test_end_if_with_inner_rules_and_a_result(tmp_path, end, winner):
    s = _state(tmp_path, '(forEach Piece (move Step (to if:(is Empty (to)))))',
               '(place "R1" 7) (place "R2" 0)', end=end)
    _play(s, 7, 12)
    assert s.is_terminal() and s.returns()[winner] == 1.0


@pytest.mark.parametrize("index,site", [(0, 3), (2, 9), (3, -1), (-1, -1)])
def test_region_site_reads_the_region_in_increasing_order(tmp_path, index, site):
    play = (f'(if (= (regionSite (sites {{9 3 5}}) index:{index}) {site}) (move Pass) '
            '(move Add (to 24)))')
    s = _state(tmp_path, play, '(place "R1" 0)')
    assert [m.is_pass for m in s.legal_moves()] == [True]


def test_slide_with_a_minimum_distance(tmp_path):
    play = '(forEach Piece (move Slide E (between (min 3))))'
    s = _state(tmp_path, play, '(place "R1" 0)')
    assert sorted(m.to for m in s.legal_moves()) == [3, 4]


def test_start_placement_with_a_value(tmp_path):
    s = _state(tmp_path, '(move Pass)', '(place "R1" 7 value:4) (place "R2" (sites {0 1}) '
               'value:2)')
    assert (s.piece_value(7), s.piece_value(0), s.piece_value(1)) == (4, 2, 2)


def test_swap_players_effect_with_a_note(tmp_path):
    play = ('(move Add (to (sites Empty)) (then (swap Players P1 P2 (then (note "Swapped" '
            'to:All)))))')
    s = _state(tmp_path, play, '(place "R1" 0)')
    s.apply(s.legal_moves()[0])
    # The seats are swapped and the mover moves again.
    assert s.player_order[1:] == [2, 1] and s.mover == 1


@pytest.mark.parametrize("note", ['(note "moved")', '(note P1 "moved")',
                                  '(note player:Mover "moved")',
                                  '(note player:Mover "moved" to:Next)',
                                  # a message that is a number or a region, as in Ludii
                                  '(note player:Mover (count Sites in:(sites Empty)))',
                                  '(note (sites Occupied by:Mover) to:Mover)'])
def test_a_note_names_a_player_before_its_message_and_changes_nothing(tmp_path, note):
    s = _state(tmp_path, f'(move Add (to (sites Empty)) (then {note}))', '(place "R1" 0)')
    s.apply(s.legal_moves()[0])
    assert s.mover == 2 and sum(1 for w in s.who if w) == 2


def test_swap_players_refuses_a_then_that_changes_the_game(tmp_path):
    play = '(move Add (to (sites Empty)) (then (swap Players P1 P2 (then (moveAgain)))))'
    with pytest.raises(LudemeError) as e:
        _state(tmp_path, play, '(place "R1" 0)')
    assert "'then'" in str(e.value) and "not supported yet" in str(e.value)


@pytest.mark.parametrize("kind,expected", [
    # From 12 eastwards: 13 empty, 14 held; north: 17 empty, 22 empty (the end).
    ("Piece", [14]),
    ("Empty", [13, 17, 22]),
    # 13 before the piece at 14, and 22, the empty end of its radial; Ludii 1.3.12 does not
    # list a radial's end when a piece stands there (14).
    ("Farthest", [13, 22]),
])
def test_sites_line_of_sight(tmp_path, kind, expected):
    play = (f'(if (= (count Sites in:(sites LineOfSight {kind} at:12 (directions {{E N}}))) {len(expected)}) '
            f'(move Select (from (sites LineOfSight {kind} at:12 (directions {{E N}})))) (move Pass))')
    s = _state(tmp_path, play, '(place "R1" 12) (place "R2" 14)')
    assert sorted(m.frm for m in s.legal_moves()) == expected


# Attract: R1 placed at 0 (the corner of the 5x5 board) pulls the pieces of each line from
# it to its side, in their order: along the bottom row (1 2 3 4), the left column (5 10
# 15 20) and the diagonal (6 12 18 24).
@pytest.mark.parametrize("dirn, start, after", [
    ("", '(place "R2" 2) (place "R1" 4) (place "K2" 20) (place "K1" 18)',
     {1: "R2", 2: "R1", 4: None, 5: "K2", 20: None, 6: "K1", 18: None}),
    ("E", '(place "R2" 2) (place "R1" 4) (place "K2" 20)',
     {1: "R2", 2: "R1", 4: None, 20: "K2", 5: None}),       # only along the row
])
def test_attract_closes_the_gaps_towards_the_site(tmp_path, dirn, start, after):
    s = _state(tmp_path, f"(move Add (to 0) (then (attract (from (last To)) {dirn})))", start)
    s.apply(s.legal_moves()[0])
    names = {w: comp.name for w, comp in enumerate(s.g.components) if w}
    assert {site: names.get(s.what[site]) for site in after} == after


@pytest.mark.parametrize("play, frm, to, between", [
    # a hop over the enemy at 8: the sites passed over, as Ludii's betweenNonDecision
    ("(forEach Piece (move Hop (between if:(is Enemy (who at:(between)))) "
     "(to if:(is Empty (to)))))", 3, 13, [8]),
    ("(forEach Piece (move Step (to if:(is Empty (to)))))", 3, 4, []),     # passes nothing
])
def test_last_between_reads_the_sites_the_last_move_hopped_over(tmp_path, play, frm, to,
                                                                between):
    s = _state(tmp_path, play, '(place "R1" 3) (place "R2" 8)',
               end="(if (is In 8 (last Between)) (result P1 Win))")
    _play(s, frm, to)
    assert s.last_between == tuple(between) and (s.winner == 1) is bool(between)


def test_last_between_after_a_slide_is_refused(tmp_path):
    s = _state(tmp_path, "(forEach Piece (move Slide N))", '(place "R1" 3) (place "R2" 24)',
               end="(if (is In 8 (last Between)) (result P1 Win))")
    with pytest.raises(LudemeError, match=r"\(last Between\) after a slide"):
        _play(s, 3, 18)
