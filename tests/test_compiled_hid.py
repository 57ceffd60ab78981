"""Compiled forms of the hid branch's ludemes (arithmetic, board counts, ranges, pyramids,
hidden information): each hand-written game has a compiled form, and both backends give
the same rows."""

import pytest

import test_compiled

# (is Flat): a ball rests on the bottom layer, or on four balls; the apex (site 7) is
# reached only once every other site is filled.
FLAT_GAME = """
(game "Little Pyramid"
    (players 2)
    (equipment {
        (board (square 3 pyramidal:True) use:Vertex)
        (piece "Ball" Each)
    })
    (rules
        (play (move Add (to (sites Empty) if:(is Flat))))
        (end (if (is Occupied 7) (result Mover Win)))
    )
)"""

# (abs ...) and (count Vertices) (25 of a 4x4 board of cells): a placement near the last.
ABS_GAME = """
(game "Near Enough"
    (players 2)
    (equipment {
        (board (square 4))
        (piece "Disc" Each)
    })
    (rules
        (play (move Add (to (sites Empty) if:(or (< (last To) 0) (< (abs (- (to) (last To))) (- (count Vertices) 20))))))
        (end (if (no Moves Next) (result Mover Win)))
    )
)"""

# (* <int array>) and (mul ...) of the groups' sizes as scores; (move Add (piece ...)) of a
# kind read from (count Moves): the kind the move was listed with, as the counters tick
# before the placement is applied.
PRODUCT_GAME = """
(game "Two Colours"
    (players 2)
    (equipment {
        (board (hex 3))
        (piece "Disc" Each)
    })
    (rules
        (play
            (move Add (piece (+ 1 (% (count Moves) 2))) (to (sites Empty))
                (then (if (= (count MovesThisTurn) 0) (moveAgain)))
            )
        )
        (end (if (and (is Next P1) (> 5 (count Sites in:(sites Empty))))
            (byScore {(score P1 (* (sizes Group P1))) (score P2 (mul (sizes Group P2)))})))
    )
)"""

# (between (min 2)) of a slide: two sites away at least.
MIN_RANGE_GAME = """
(game "Long Rooks"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Rook" Each
            (move Slide Orthogonal (between (min 2))
                (to if:(is Enemy (who at:(to))) (apply (remove (to))))
            )
        )
    })
    (rules
        (start {(place "Rook1" {0 1 2 3 4}) (place "Rook2" {20 21 22 23 24})})
        (play (forEach Piece))
        (end {
            (if (no Moves Next) (result Mover Win))
            (if (= 0 (count Pieces Next)) (result Mover Win))
        })
    )
)"""

CASES = [
    (FLAT_GAME, (3, 4), lambda df: df["moves"].eq(14).all()),
    (ABS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(16).any()),
    (PRODUCT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # the kind alone, without products
    (PRODUCT_GAME.replace("(* (sizes Group P1))", "(max (sizes Group P1))")
     .replace("(mul (sizes Group P2))", "(max (sizes Group P2))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    (MIN_RANGE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
]
IDS = ["is-flat", "abs-and-count-vertices", "product-and-add-of-a-counted-kind",
       "add-of-a-counted-kind", "min-range"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_hid_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)
