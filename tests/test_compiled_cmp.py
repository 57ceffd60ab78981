"""Compiled forms of the game-wide features the turn loop refused (a piece's index stored
as its owner, ...): each hand-written game has a compiled form, and both backends give
the same rows."""

import pytest

import test_compiled

# A shared piece on a flat board of cells: Ludii stores its index (1) as its `who` there,
# not its owner (3). Added, moved (the destination takes the index), listed by its owner
# ((sites Occupied by:Shared)) and read by its index ((who at:)).
INDEX_WHO_GAME = """
(game "Shared Stones"
    (players 2)
    (equipment {
        (board (square 4))
        (piece "Stone" Shared)
    })
    (rules
        (start (place "Stone" (sites {5 10})))
        (play
            (or
                (move Add (piece "Stone") (to (sites Empty) if:(is In (to) (sites Outer))))
                (move (from (sites Occupied by:Shared))
                    (to (sites Around (from) Orthogonal if:(is Empty (to)))))
            )
        )
        (end {
            (if (and (= 1 (who at:(last To))) (is In (last To) (sites Corners)))
                (result Mover Win))
            (if (= 3 (who at:(last To))) (result Next Win))
        })
    )
)
"""

CASES = [
    (INDEX_WHO_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].gt(6).any()),
]
IDS = ["index-stored-as-owner"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_cmp_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)
