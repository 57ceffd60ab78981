"""Compiled forms of the pieces' values (`(value Piece at:...)`, `(set Value at:...)`):
each hand-written game has a compiled form, and both backends give the same rows."""

import pytest

import test_compiled

# Values placed with the pieces, on the board and in the hands, carried by a step and from
# a hand to the board, raised by a consequent (set Value at:) and read by both ends (a
# value read at an emptied site, (last From), is 0).
VALUE_GAME = """
(game "Weighed Steps"
    (players 2)
    (equipment {
        (board (square 4))
        (piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))
            (then (set Value at:(last To) (+ 1 (value Piece at:(last To)))))))
        (hand Each)
    })
    (rules
        (start {
            (place "Disc1" 0 value:1)
            (place "Disc2" 15 value:2)
            (place "Disc1" (handSite P1) value:3)
            (place "Disc2" (handSite P2) value:1)
        })
        (play (or
            (forEach Piece)
            (move (from (handSite Mover)) (to (sites Empty)))
        ))
        (end {
            (if (<= 6 (value Piece at:(last To))) (result Mover Win))
            (if (= 4 (+ (value Piece at:(last To)) (value Piece at:(last From)))) (result Next Win))
        })
    )
)
"""

CASES = [
    # every game ends by a value read, each end reached in some
    (VALUE_GAME, (1, 2), lambda df: set(df["winner"]) == {1, 2} and df["moves"].max() > 3),
]
IDS = ["value_piece_and_set_value"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_value_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)


def test_a_piece_value_in_a_stacking_game_gives_the_reference_rows(tmp_path):
    """The kernels keep a value per level of a stack (with its state, as Ludii's
    ChunkStack): the stacking form of the game compiles and keeps its values."""
    text = VALUE_GAME.replace("(move Step Orthogonal (to", "(move Step Orthogonal stack:True (to")
    test_compiled.test_new_compiled_forms_give_the_reference_rows(
        text, (1, 2), lambda df: set(df["winner"]) == {1, 2}, tmp_path)
