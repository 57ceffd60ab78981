"""Compiled forms of the long tail of space and war games' ludemes: each hand-written game
has a compiled form, and both backends give the same rows."""

import pytest

import test_compiled

# A helper kernel (here (all Sites ...)'s) reading (site) of the (forEach ...) around it:
# the helper is handed the site.
SITE_IN_HELPER_GAME = """
(game "Corner Claim"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each)
    })
    (rules
        (play (move Add (to (sites Empty))))
        (end {
            (if (!= 0 (count Sites in:(forEach (sites Board)
                    if:(all Sites (sites {(site) (ahead (site) N) (ahead (site) E)})
                        if:(= (mover) (who at:(site)))))))
                (result Mover Win))
        })
    )
)
"""

CASES = [
    (SITE_IN_HELPER_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].gt(5).any()),
]
IDS = ["site-of-an-enclosing-loop-in-a-helper"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_misc_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)
