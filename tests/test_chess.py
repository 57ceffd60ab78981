"""The chess family's mechanics on small boards: directions relative to a piece's facing
(Ludii's RelativeDirection), (ahead ...) along them, (sites Occupied components:) and
hands, (is Active), (count Active), directions between two sites; then a few corpus
traces of the family replayed against Ludii's."""

import pytest

from ludeme.api import load
from ludeme.analysis.crosscheck import crosscheck_files
from ludeme.model.tables import relative_directions

EIGHT = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
HEX = ("N", "ENE", "ESE", "S", "WSW", "WNW")


@pytest.mark.parametrize("facing,word,supported,expected", [
    # One direction, or none where the board has no such direction.
    ("N", "Forward", EIGHT, ["N"]),
    ("S", "Backward", EIGHT, ["N"]),
    ("E", "Leftward", EIGHT, ["N"]),
    ("N", "Rightward", HEX, []),
    # Within 90 degrees, listed from the left to the right of the facing.
    ("N", "Forwards", EIGHT, ["NW", "N", "NE"]),
    ("S", "Forwards", EIGHT, ["SE", "S", "SW"]),
    ("N", "Backwards", EIGHT, ["SE", "S", "SW"]),
    # Sideways: clockwise for Rightwards, anticlockwise for Leftwards.
    ("N", "Rightwards", EIGHT, ["NE", "E", "SE"]),
    ("N", "Leftwards", EIGHT, ["NW", "W", "SW"]),
    ("N", "Forwards", HEX, ["WNW", "N", "ENE"]),
    # Turns stop at the first supported direction; FLL is FL in Ludii.
    ("N", "FLL", EIGHT, ["NW"]),
    ("N", "BRRR", HEX, ["WSW"]),
    ("W", "FR", HEX, ["WNW"]),
])
def test_relative_directions_follow_ludii(facing, word, supported, expected):
    assert relative_directions(facing, word, supported) == expected


GAME = ('(game "g" (players {{(player N) (player S)}}) (equipment {{(board (square 5)) '
        '{pieces}}}) (rules (start {{{start}}}) (play {play}) '
        '(end (if (no Moves Next) (result Mover Win)))))')


def _state(tmp_path, play, start, pieces):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(pieces=pieces, start=start, play=play))
    game = load(f)
    return game, game.new_initial_state()


def _keys(s):
    return sorted((m.frm, m.to) for m in s.legal_moves())


def _play(s, frm, to):
    s.apply(next(m for m in s.legal_moves() if (m.frm, m.to) == (frm, to)))


def test_forward_follows_the_players_direction_over_the_pieces_own(tmp_path):
    # The piece says E, but (player S) turns player 2's pieces south, as Ludii's Game does.
    pieces = '(piece "P" Each E (move Step Forward (to if:(is Empty (to)))))'
    _, s = _state(tmp_path, "(forEach Piece)", '(place "P1" 12) (place "P2" 22)', pieces)
    assert _keys(s) == [(12, 17)]
    _play(s, 12, 17)
    assert s.is_terminal()      # P2 faces south: 22 -> 17 is taken, so it cannot move
    _, s = _state(tmp_path, "(forEach Piece)", '(place "P1" 2) (place "P2" 22)', pieces)
    _play(s, 2, 7)
    assert _keys(s) == [(22, 17)]


def test_forwards_and_sideways_sets(tmp_path):
    pieces = '(piece "P" Each (move Step (directions {Forwards Leftward}) (to if:(is Empty (to)))))'
    _, s = _state(tmp_path, "(forEach Piece)", '(place "P1" 12) (place "P2" 24)', pieces)
    assert _keys(s) == [(12, 11), (12, 16), (12, 17), (12, 18)]
    _play(s, 12, 17)
    # Player 2 faces south: its forwards are SE, S, SW and its left is east (none there).
    assert _keys(s) == [(24, 18), (24, 19)]


def test_ahead_backward_reads_the_piece_at_the_site(tmp_path):
    # (ahead (last To) Backward): behind the piece that has just moved; -1 on an empty site.
    pieces = ('(piece "P" Each (move Step Forward (to if:(is Empty (to))) '
              '(then (set Pending (ahead (last To) Backward)))))')
    play = ('(if (is Pending) (move Add (piece (id "P" Mover)) (to (sites Pending))) '
            '(forEach Piece))')
    _, s = _state(tmp_path, play, '(place "P1" 7) (place "P2" 17)', pieces)
    _play(s, 7, 12)
    assert _keys(s) == [(7, 7)]     # player 2 must add on the site behind player 1's piece


def test_sites_occupied_components_and_hands(tmp_path):
    pieces = '(piece "P" Each) (piece "Q" Each) (hand Each)'
    play = ('(move (from (sites Occupied by:Mover container:"Hand" components:{"Q"})) '
            '(to (sites Occupied by:Next components:{"P" "X"})))')
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(pieces=pieces, play=play,
                             start='(place "Q1" (handSite P1)) (place "P1" (handSite P1 1)) '
                                   '(place "P2" {3 4}) (place "Q2" 5)').replace(
        "(end (if (no Moves Next) (result Mover Win)))",
        "(end (if (is Empty 3) (result Mover Win)))"))
    s = load(f).new_initial_state()
    hand = 25       # player 1's hand: its first site after the board's 25
    assert _keys(s) == [(hand, 3), (hand, 4)]


def test_is_active_and_count_active(tmp_path):
    pieces = '(piece "P" Each (move Step Forward (to if:(is Empty (to)))))'
    play = ('(if (and (is Active P2) (= (count Active) 2)) (forEach Piece) (move Pass))')
    _, s = _state(tmp_path, play, '(place "P1" 7) (place "P2" 17)', pieces)
    assert _keys(s) == [(7, 12)]


def test_step_in_the_direction_between_two_sites(tmp_path):
    # The direction from site 0 to site 12 (NE, along the diagonal) steers every piece.
    pieces = '(piece "P" Each)'
    play = ('(forEach Piece "P" (move Step (directions Cell from:0 to:12) '
            '(to if:(is Empty (to)))))')
    _, s = _state(tmp_path, play, '(place "P1" {1 10}) (place "P2" 24)', pieces)
    assert _keys(s) == [(1, 7), (10, 16)]


FAMILY = ["board_war_replacement_checkmate_chess_Chess",
          "board_war_replacement_checkmate_chess_Glinski_Chess",
          "board_war_replacement_checkmate_shogi_Minishogi",
          "board_race_fill_Tandems"]


@pytest.mark.parametrize("name", FAMILY)
def test_corpus_traces_agree(refdata, ludii, name):
    trace = refdata / "corpus-traces" / f"{name}.json.gz"
    if not trace.is_file():
        pytest.skip(f"no corpus trace {trace.name} in the reference data")
    [verdict] = crosscheck_files([str(trace)], ludii_dir=str(ludii),
                                 index=str(refdata / "corpus-index.tsv"), seconds=None)
    assert verdict.ok, verdict.detail


def test_union_of_directions(tmp_path):
    pieces = '(piece "P" Each (move Step (union N (union Diagonal W)) (to if:(is Empty (to)))))'
    _, s = _state(tmp_path, "(forEach Piece)", '(place "P1" 12) (place "P2" 24)', pieces)
    assert _keys(s) == [(12, 6), (12, 8), (12, 11), (12, 16), (12, 17), (12, 18)]
