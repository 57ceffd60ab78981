"""Slides along tracks (Surakarta's loops), votes as effects, and another player's pieces
generated as on that player's turn, as tables; and the corpus games they brought to
agreement with Ludii's traces."""

import pytest

from conftest import ludii_dir, refdata_dir
from ludeme.api import load
from ludeme.analysis.crosscheck import crosscheck_files
from ludeme.errors import LudemeError

# Loop 1 of (surakartaBoard (square 6)), forward: row 1 left to right (6..11), round the
# bottom-right loop to column 4 going up (4..34), round the top-right loop to row 4 going
# left (29..24), round the top-left loop to column 1 going down (31..1), round the
# bottom-left loop back to 6. Loop 2 uses row 2 and columns 3 and 2.
SURAKARTA = ('(game "s" (players 2) (equipment {{(surakartaBoard (square 6)) '
             '(piece "M" Each {gen})}}) '
             '(rules (start {{(place "M1" {p1}) (place "M2" {p2})}}) (play (forEach Piece)) '
             '(end (if (no Moves Next) (result Mover Win)))))')
BETWEEN_SELF = "(between if:(or (= (between) (from)) (is Empty (between))))"
CAPTURE = "(to if:(is Enemy (who at:(to))) (apply if:False (remove (to))))"
MOVE_OR_CAPTURE = "(to if:(is Enemy (who at:(to))) (apply if:(is Empty (to)) (remove (to))))"


def _surakarta(tmp_path, gen, p1, p2):
    f = tmp_path / "s.lud"
    f.write_text(SURAKARTA.format(gen=gen, p1=p1, p2=p2))
    game = load(f)
    return game, game.new_initial_state()


@pytest.mark.parametrize("gen,p1,p2,expected", [
    # Site 0 is a corner: on no loop, so no track moves.
    (f'(move Slide "AllTracks" {BETWEEN_SELF} {CAPTURE})', "0", "4", []),
    # 6 -> 4: forward along row 1 and round the bottom-right loop; backward round the
    # bottom-left loop and all the way round the circuit. Both are listed, as in Ludii.
    (f'(move Slide "AllTracks" {BETWEEN_SELF} {CAPTURE})', "6", "4", [(6, 4), (6, 4)]),
    # Only the named track.
    (f'(move Slide "Track1F" {BETWEEN_SELF} {CAPTURE})', "6", "4", [(6, 4)]),
    (f'(move Slide "Track2F" {BETWEEN_SELF} {CAPTURE})', "6", "4", []),
    # An enemy next along the row is no capture (no loop passed): from 7, the walks that
    # reach 8 after a loop: backward from 7 (as column 1) up and round, and, when the
    # walk may pass its own start, forward from 7 (as column 1) down round the
    # bottom-left loop and along row 1, and backward from 7 (as row 1) likewise.
    (f'(move Slide "AllTracks" {BETWEEN_SELF} {CAPTURE})', "7", "8", [(7, 8)] * 3),
    (f'(move Slide "AllTracks" {CAPTURE})', "7", "8", [(7, 8)]),
    # A friend ends the walk: nothing past it.
    (f'(move Slide "Track1F" {BETWEEN_SELF} {CAPTURE})', "{6 11}", "4", []),
    # With the effect's if: met, empty sites after a loop are destinations too.
    (f'(move Slide "Track1F" {BETWEEN_SELF} {MOVE_OR_CAPTURE})', "11", "16",
     [(11, 4), (11, 10), (11, 16)]),
])
def test_track_slide_destinations(tmp_path, gen, p1, p2, expected):
    _, s = _surakarta(tmp_path, gen, p1, p2)
    got = sorted(m.key() for m in s.legal_moves() if m.frm == int(p1.strip("{}").split()[0]))
    assert got == expected


@pytest.mark.parametrize("between,expected", [
    # Along a named track every site reached is a destination, loop or not (Daldosa),
    # the k-th only from the range's minimum on and none past its maximum.
    ("(between (range 1 5))", [7, 8, 9, 10, 11]),
    ("(between (exact 2))", [8]),
    ("(between (range 2 3))", [8, 9]),
])
def test_named_track_slide_reads_its_range(tmp_path, between, expected):
    _, s = _surakarta(tmp_path, f'(move Slide "Track1F" {between} (to if:False))', "6", "0")
    got = [m.to for m in s.legal_moves() if m.frm == 6 and m.to in range(6, 12)]
    assert sorted(got) == expected


def test_track_capture_removes_the_enemy_and_moves_there(tmp_path):
    _, s = _surakarta(tmp_path, f'(move Slide "Track1F" {BETWEEN_SELF} {CAPTURE})', "6", "4")
    s.apply(next(m for m in s.legal_moves() if m.key() == (6, 4)))
    assert (s.who[4], s.who[6]) == (1, 0) and 2 not in s.who


@pytest.mark.parametrize("between", [
    "(between trail:(id \"M1\"))",
    "(between if:(is Empty (between)) (apply (remove (between))))"])
def test_track_slide_refuses_what_ludii_would_ignore(tmp_path, between):
    with pytest.raises(LudemeError, match="not supported yet"):
        _surakarta(tmp_path, f'(move Slide "AllTracks" {between} {CAPTURE})', "6", "4")


def test_track_slide_refuses_directions(tmp_path):
    with pytest.raises(LudemeError, match="not supported yet"):
        _surakarta(tmp_path, f'(move Slide "AllTracks" Orthogonal {CAPTURE})', "6", "4")


VOTES = ('(game "v" (players 2) (equipment {(board (square 3)) (piece "M" Each)}) '
         '(rules (play (if (is Proposed "End") (or (move Vote "End") (move Vote "No")) '
         '(move Propose "End" (then (vote "End"))))) '
         '(end (if (is Decided "End") (result Mover Win)))))')


@pytest.mark.parametrize("answer,over", [(0, True), (1, False)])
def test_proposer_votes_by_effect_and_the_answer_decides(tmp_path, answer, over):
    f = tmp_path / "v.lud"
    f.write_text(VOTES)
    s = load(f).new_initial_state()
    s.apply(s.legal_moves()[0])                 # P1 proposes "End" and votes for it
    assert s.mover == 2 and len(s.legal_moves()) == 2
    s.apply(s.legal_moves()[answer])            # P2: "End" (a majority) or "No"
    assert s.is_terminal() == over
    assert (s.winner == 2) if over else (s.mover == 1 and len(s.legal_moves()) == 1)


def test_another_players_pieces_move_as_on_their_turn(tmp_path):
    # Ludii's ForEachPiece generates Next's pieces with Next as the mover: P2's piece on
    # 10 steps south, as on P2's turn, not north as P1's would.
    f = tmp_path / "n.lud"
    f.write_text('(game "n" (players 2) (equipment {(board (square 4)) (piece "M" Each '
                 '(if (is Mover P1) (move Step N (to if:(is Empty (to)))) '
                 '(move Step S (to if:(is Empty (to))))))}) '
                 '(rules (start {(place "M1" 5) (place "M2" 10)}) '
                 '(play (or (forEach Piece) (forEach Piece Next))) '
                 '(end (if (no Moves Next) (result Mover Win)))))')
    s = load(f).new_initial_state()
    assert sorted(m.key() for m in s.legal_moves()) == [(5, 9), (10, 6)]
    assert (s.mover, s.next, s.prev) == (1, 2, 0)


@pytest.mark.parametrize("name", [
    "board_war_replacement_eliminate_all_Surakarta",
    # Its checkmate test generates the checked player's moves (forEach Piece Next).
    "board_war_replacement_checkmate_chaturanga_Shatranj_Diwana_Shah"])
def test_corpus_traces_agree(name):
    refdata, ludii = refdata_dir(), ludii_dir()
    if refdata is None or ludii is None:
        pytest.skip("Ludii's reference data or .lud files not found (../shared)")
    trace = refdata / "corpus-traces" / f"{name}.json.gz"
    if not trace.exists():
        pytest.skip(f"{trace} is not in this copy of the reference data")
    verdicts = crosscheck_files([str(trace)], ludii_dir=str(ludii))
    assert [v.status for v in verdicts] == ["agreed"], verdicts[0].line()
