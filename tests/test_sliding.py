"""Slides and shots (Ludii's Slide and Shoot) on small boards, as tables."""

import pytest

from ludeme.api import load

GAME = ('(game "g" (players 2) (equipment {{(board (square 4)) '
        '(piece "R" Each {gen}) (piece "Dot" Neutral)}}) '
        '(rules (start {{(place "R1" {p1}) (place "R2" {p2})}}) (play {play}) '
        '(end (if (no Moves Next) (result Mover Win)))))')


def _moves(tmp_path, gen, play="(forEach Piece)", p1="0", p2="15"):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(gen=gen, play=play, p1=p1, p2=p2))
    game = load(f)
    s = game.new_initial_state()
    return game, s, sorted((m.frm, m.to) for m in s.legal_moves())


@pytest.mark.parametrize("gen,p2,expected", [
    # A rook on a1 of an empty 4x4 board: three squares up, three right.
    ("(move Slide Orthogonal)", "15", [(0, 1), (0, 2), (0, 3), (0, 4), (0, 8), (0, 12)]),
    # A piece on the path stops the slide before it.
    ("(move Slide Orthogonal)", "2", [(0, 1), (0, 4), (0, 8), (0, 12)]),
    # A stop condition makes the blocking enemy a destination too (a capture).
    ("(move Slide Orthogonal (to if:(is Enemy (who at:(to))) (apply (remove (to)))))", "2",
     [(0, 1), (0, 2), (0, 4), (0, 8), (0, 12)]),
    # A range limits how far it goes.
    ("(move Slide Orthogonal (between (exact 2)))", "15", [(0, 2), (0, 8)]),
    ("(move Slide E (between (range 2 3)))", "15", [(0, 2), (0, 3)]),
])
def test_slide_destinations(tmp_path, gen, p2, expected):
    _, _, got = _moves(tmp_path, gen, p2=p2)
    assert got == expected


def test_slide_capture_removes_the_enemy_then_moves(tmp_path):
    game, s, _ = _moves(tmp_path, "(move Slide Orthogonal (to if:(is Enemy (who at:(to))) "
                                  "(apply (remove (to)))))", p2="2")
    s.apply(next(m for m in s.legal_moves() if m.to == 2))
    assert s.who[2] == 1 and s.who[0] == 0 and sum(1 for w in s.who if w == 2) == 0


def test_trail_leaves_pieces_on_the_sites_left(tmp_path):
    game, s, _ = _moves(tmp_path, '(move Slide E (between trail:(id "Dot0")))')
    s.apply(next(m for m in s.legal_moves() if m.to == 3))
    dot = game.component_named("Dot").index
    assert [s.what[i] for i in (0, 1, 2)] == [dot, dot, dot] and s.who[3] == 1


def test_shoot_adds_along_radials_from_the_last_destination(tmp_path):
    play = ('(if (is Even (count Moves)) (forEach Piece) (move Shoot (piece "Dot0")))')
    game, s, _ = _moves(tmp_path, "(move Slide Orthogonal (then (moveAgain)))", play=play)
    s.apply(next(m for m in s.legal_moves() if m.to == 5 - 1))     # a1 -> a2 (site 4)
    shots = sorted(m.to for m in s.legal_moves())
    # From site 4: up 8, 12; right 5, 6, 7; down 0 (now empty); diagonals 1, 9, 14 (15 holds R2).
    assert shots == [0, 1, 5, 6, 7, 8, 9, 12, 14]
    s.apply(next(m for m in s.legal_moves() if m.to == 0))
    assert s.what[0] == game.component_named("Dot").index and s.who[0] == 0


def test_swap_is_offered_once_to_the_second_player_who_then_moves_again(tmp_path):
    f = tmp_path / "s.lud"
    f.write_text('(game "s" (players 2) (equipment {(board (square 3)) (piece "M" Each)}) '
                 '(rules (meta (swap)) (play (move Add (to (sites Empty)))) '
                 '(end (if (is Line 3) (result Mover Win)))))')
    game = load(f)
    s = game.new_initial_state()
    assert all(m.frm >= 0 for m in s.legal_moves())            # P1: no swap
    s.apply(s.legal_moves()[0])
    moves = s.legal_moves()
    swap = [m for m in moves if m.frm == -1]
    assert len(moves) == 9 and len(swap) == 1                   # 8 empty sites and the swap
    s.apply(swap[0])
    assert s.mover == 2 and s.player_order == [0, 2, 1]
    s.apply(s.legal_moves()[0])
    assert all(m.frm >= 0 for m in s.legal_moves())             # offered once only


def test_is_connected_joins_the_regions_a_player_owns(tmp_path):
    f = tmp_path / "c.lud"
    f.write_text('(game "c" (players 2) (equipment {(board (square 3)) (piece "M" Each) '
                 '(regions P1 {(sites Left) (sites Right)}) (regions P2 {(sites Top)})}) '
                 '(rules (play (move Add (to (sites Empty)))) '
                 '(end (if (is Connected Mover) (result Mover Win)))))')
    game = load(f)
    s = game.new_initial_state()
    m1 = game.component_named("M1").index
    for site in (3, 4):
        s.set_site(site, m1)
    s.apply(next(m for m in s.legal_moves() if m.to == 5))       # 3-4-5 joins left and right
    assert s.is_terminal() and s.winner == 1


def test_removal_at_end_of_turn_waits_for_the_sequence_to_end(tmp_path):
    # A hop captures at:EndOfTurn and the mover hops again while it can: the jumped
    # piece stays (and is in (sites ToClear)) until a decision without a replay.
    f = tmp_path / "d.lud"
    f.write_text("""
(define "Jumpable" (and (is Enemy (who at:(between))) (not (is In (between) (sites ToClear)))))
(define "Again" (then (if (can Move (hop (from (last To)) E (between if:"Jumpable")
                                         (to if:(is Empty (to))))) (moveAgain))))
(define "Jump" (move Hop #1 E (between if:"Jumpable" (apply (remove (between) at:EndOfTurn)))
                     (to if:(is Empty (to))) "Again"))
(game "d" (players 2) (equipment {(board (rectangle 1 6)) (piece "C" Each)})
  (rules (start {(place "C1" 0) (place "C2" {1 3})})
    (play (if (is Prev Mover) ("Jump" (from (last To))) (forEach Piece ("Jump"))))
    (end (if (= 1 0) (result Mover Win)))))
""")
    game = load(f)
    s = game.new_initial_state()
    s.apply(next(m for m in s.legal_moves() if m.to == 2))
    assert s.mover == 1 and s.who[1] == 2 and s.to_clear == {1: 1}  # still there, marked
    s.apply(next(m for m in s.legal_moves() if m.to == 4))
    assert s.who[1] == 0 and s.who[3] == 0 and not s.to_clear        # cleared at the end


def test_promote_turns_the_piece_into_the_named_one(tmp_path):
    f = tmp_path / "p.lud"
    f.write_text('(game "p" (players 2) (equipment {(board (rectangle 1 3)) (piece "C" Each) '
                 '(piece "K" Each)}) (rules (start (place "C1" 0)) (play (forEach Piece '
                 '(move Step E (to if:(is Empty (to))) (then (if (= (last To) 2) '
                 '(promote (last To) (piece "K") Mover)))))) '
                 '(end (if (= 1 0) (result Mover Win)))))')
    game = load(f)
    s = game.new_initial_state()
    s.apply(s.legal_moves()[0])          # 0 -> 1
    s.apply(s.legal_moves()[0])          # P2 passes
    s.apply(s.legal_moves()[0])          # 1 -> 2, promoted
    assert s.what[2] == game.component_named("K1").index and s.who[2] == 1


@pytest.mark.parametrize("between, shots", [
    ("", [0, 1, 5, 6, 7, 8, 9, 12, 14]),
    # Ludii's Shoot keeps (between if:...) but never evaluates it: the same shots, even
    # with a condition no site meets.
    ("(between if:(is Occupied (between)))", [0, 1, 5, 6, 7, 8, 9, 12, 14]),
    ("(between trail:1)", "'trail' of (between"),
])
def test_shoot_never_applies_its_between_condition(tmp_path, between, shots):
    from ludeme.errors import LudemeError
    play = f'(if (is Even (count Moves)) (forEach Piece) (move Shoot (piece "Dot0") {between}))'
    if isinstance(shots, str):
        with pytest.raises(LudemeError, match=shots.replace("(", r"\(")):
            _moves(tmp_path, "(move Slide Orthogonal (then (moveAgain)))", play=play)
        return
    game, s, _ = _moves(tmp_path, "(move Slide Orthogonal (then (moveAgain)))", play=play)
    s.apply(next(m for m in s.legal_moves() if m.to == 4))
    assert sorted(m.to for m in s.legal_moves()) == shots
