"""Compiled forms of regions that other regions are made of: (sites <int array>),
(sites <region>), (sites Occupied by:(player ...)), a difference whose second region reads
(to) or (site). Each hand-written game has a compiled form, and both backends give the
same rows."""

import pytest

import test_compiled

# (sites <int array>) listed and tested (each site once, increasing); (sites <region>) of
# a region read in play; (sites Occupied by:(player ...)) counted and listed.
ARRAY_SITES_GAME = """
(game "Reach Out"
    (players 2)
    (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (start {(place "Disc1" 6) (place "Disc2" 18)})
        (play
            (or
                (move Add
                    (to (sites (results from:(sites Occupied by:(player (mover)))
                                        to:(sites Around (from) Empty Orthogonal) (to))))
                )
                (move Add
                    (to (sites (if (is Mover P1) (sites Row 0) (sites Row 4))) if:(is Empty (to)))
                )
            )
        )
        (end {
            (if (is In 4 (sites (results from:(sites Occupied by:(player (next)))
                                          to:(sites Around (from) Diagonal) (to))))
                (result Next Win))
            (if (<= 7 (count Sites in:(sites Occupied by:(player (mover))))) (result Mover Win))
        })
    )
)
"""

# (difference ...) whose second region reads (site) (of its own forEach): listed before
# the loop over the first rebinds (to) and (site).
DIFFERENCE_GAME = """
(game "Keep Apart"
    (players 2)
    (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (play
            (move Add
                (to (difference
                        (sites Empty)
                        (sites Around
                            (forEach (sites Occupied by:Next)
                                if:(!= 0 (count Sites in:(sites Around (site) Own Orthogonal))))
                            Orthogonal)))
            )
        )
        (end {
            (if (no Moves Next) (result Mover Win))
            (if (is Line 4) (result Mover Win))
        })
    )
)
"""

CASES = [
    (ARRAY_SITES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].gt(8).any()),
    (DIFFERENCE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
]
IDS = ["sites-of-an-array-and-of-a-region-occupied-by-a-player",
       "difference-less-a-region-reading-site"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_reg_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)
