"""(forEach Direction ...): moves generated at the sites reached along directions, relative
directions turned from the step just taken (the Xiangqi horse), (between ...) ranges; and
`of:` on (directions ...)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludeme.model.build import build_game
from ludeme.analysis.crosscheck import crosscheck_files
from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description

HORSE = ("(forEach Direction Orthogonal (to if:(is Empty (to)) (apply (forEach Direction "
         "(from (to)) (directions {FR FL} of:All) (move (from) (to))))))")


def _game(piece_moves: str, start: str, board: str = "(board (square 5))", players: str = "2"):
    text = (f'(game "T" (players {players}) (equipment {{ {board} '
            f'(piece "Horse" Each {piece_moves}) '
            f'(piece "Disc" Each) }}) (rules (start {{ {start} }}) (play (forEach Piece)) '
            f'(end (if (no Moves Next) (result Mover Win)))))')
    return build_game(expand(load_description("t.lud", text)))


def _targets(game):
    return sorted(m.to for m in game.new_initial_state(0).legal_moves())


def test_the_horse_turns_from_the_orthogonal_step():
    # From the centre (2,2): the eight knight's squares.
    assert _targets(_game(HORSE, '(place "Horse1" 12)')) == [1, 3, 5, 9, 15, 19, 21, 23]


def test_a_blocked_first_step_stops_that_leg():
    # A disc on 17 (one step north) blocks the two jumps through it; the disc cannot move.
    assert _targets(_game(HORSE, '(place "Horse1" 12) (place "Disc1" 17)')) == \
        [1, 3, 5, 9, 15, 19]


def test_between_range_checks_the_sites_before_the_minimum():
    moves = ("(forEach Direction Orthogonal (between (exact 2) if:(is Empty (between))) "
             "(move (from) (to)))")
    assert _targets(_game(moves, '(place "Horse1" 12)')) == [2, 10, 14, 22]
    # The site hopped over must be empty: a disc on 13 takes 14 away.
    assert _targets(_game(moves, '(place "Horse1" 12) (place "Disc1" 13)')) == [2, 10, 22]


def test_then_is_added_to_each_move():
    moves = "(forEach Direction N (move (from) (to)) (then (remove 0)))"
    game = _game(moves, '(place "Horse1" 12) (place "Disc2" 0)')
    state = game.new_initial_state(0)
    assert [m.to for m in state.legal_moves()] == [17]
    state.apply(state.legal_moves()[0])
    assert state.what[0] == 0 and state.what[17] != 0


def test_of_picks_the_relation_relative_directions_turn_among():
    # Facing north: FR among all directions is NE, among the orthogonal ones E.
    step = "(move Step (directions {FR} {of}) (to if:(is Empty (to))))"
    assert _targets(_game(step.replace("{of}", "of:All"), '(place "Horse1" 12)')) == [18]
    assert _targets(_game(step.replace("{of}", "of:Orthogonal"), '(place "Horse1" 12)')) == [13]
    with pytest.raises(LudemeError, match="of:N"):
        _game(step.replace("{of}", "of:N"), '(place "Horse1" 12)')


@pytest.mark.parametrize("moves, message", [
    ("(forEach Direction Orthogonal)", "needs either (to ...) or moves"),
    ("(forEach Direction Orthogonal (to if:(is Empty (to)) (apply if:True (move (from) (to)))))",
     "not supported yet"),
    ("(forEach Direction Orthogonal (between before:2) (move (from) (to)))", "not supported yet"),
])
def test_unsupported_forms_are_refused_with_a_position(moves, message):
    with pytest.raises(LudemeError) as err:
        _game(moves, '(place "Horse1" 12)')
    assert message in str(err.value) and "t.lud:1:" in str(err.value)


CORPUS = ("board_war_replacement_checkmate_xiangqi_MiniXiangqi",
          "board_war_replacement_checkmate_xiangqi_Janggi",
          "board_war_replacement_checkmate_shogi_Tenjiku_Shogi")


def test_corpus_traces_with_horses_and_knights_agree_with_ludii(refdata, ludii):
    traces = [refdata / "corpus-traces" / f"{name}.json.gz" for name in CORPUS]
    present = [str(t) for t in traces if t.is_file()]
    if not present:
        pytest.skip("none of the corpus traces is in the reference data")
    verdicts = crosscheck_files(present, ludii_dir=str(Path(ludii)),
                                index=str(refdata / "corpus-index.tsv"))
    assert [v.line() for v in verdicts if not v.ok] == []
    assert len(verdicts) == len(present)

def test_where_looks_at_every_vertex_of_a_board_of_vertices():
    # Ludii's Container.numSites counts the board's own site type: 9 vertices, not 4 cells,
    # so a piece on vertex 8 is found (the Xiangqi generals' file test relies on it).
    text = ('(game "T" (players 2) (equipment { (board (square 3) use:Vertex) '
            '(piece "Horse" Each) }) (rules (start { (place "Horse1" 8) }) '
            '(play (move Remove (where "Horse" P1))) (end (if (no Moves Next) (result Mover Win)))))')
    game = build_game(expand(load_description("t.lud", text)))
    assert [m.to for m in game.new_initial_state(0).legal_moves()] == [8]


def test_relative_directions_follow_each_pieces_facing_in_one_game():
    # The directions worked out for one facing are not another's: in one game, the
    # northern player's piece goes north, then the southern player's goes south.
    game = _game("(forEach Direction Forward (move (from) (to)))",
                 '(place "Horse1" 12) (place "Horse2" 7)', players="{(player N) (player S)}")
    state = game.new_initial_state(0)
    assert [m.to for m in state.legal_moves()] == [17]
    state.apply(state.legal_moves()[0])
    assert [m.to for m in state.legal_moves()] == [2]
