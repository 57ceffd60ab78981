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

# (set Hidden ...) at the start (the pawns of the bottom row hidden from P2), and as a
# consequent (a capturer hidden from the next player, shown again); (is Hidden ...) lets a
# pawn take a hidden enemy straight ahead. The flags move with the pieces.
HIDDEN_GAME = """
(define "PawnMoves"
    (or {
        (move Step Forward (to if:(is Empty (to))))
        (move Step Forward
            (to if:(and (is Enemy (who at:(to))) (is Hidden at:(to) to:Mover))
                (apply (remove (to))))
            (then (set Hidden at:(last To) False to:Next)))
        (move Step (directions {FR FL})
            (to if:(is Enemy (who at:(to))) (apply (remove (to))))
            (then (set Hidden at:(last To) to:Next)))
    })
)

(game "Blind Pawns"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Pawn" P1 N "PawnMoves")
        (piece "Pawn" P2 S "PawnMoves")
    })
    (rules
        (start {
            (place "Pawn1" (sites Bottom))
            (place "Pawn2" (sites Top))
            (set Hidden (sites Bottom) to:P2)
        })
        (play (forEach Piece))
        (end {
            (if (is In (last To) (union (sites Top) (sites Bottom))) (result Mover Win))
            (if (no Moves Next) (result Mover Win))
        })
    )
)"""

# (remove Cell <region>) of hands' cells on a board of vertices, (set Hidden Cell ...) of a
# hand's cell.
REMOVE_CELL_GAME = """
(game "Pocket Chips"
    (players 2)
    (equipment {
        (board (square 3) use:Vertex)
        (piece "Disc" Each)
        (hand Each size:2)
    })
    (rules
        (start {(place "Disc1" (handSite P1 0) count:3) (place "Disc2" (handSite P2 0) count:3)})
        (play
            (or
                (move (from Cell (sites Hand Mover) if:(is Occupied (from))) (to (sites Empty))
                    (then (set Hidden Cell at:(handSite Mover 0) to:Next)))
                (move Add (to (sites Empty)) (then (remove Cell (sites Hand Next))))
            )
        )
        (end {
            (if (is Line 3) (result Mover Win))
            (if (no Moves Next) (result Mover Draw))
        })
    )
)"""

# (is Line <computed length> SameLayer) with (layer of:...): a line as long as its layer's
# side on a pyramid.
LAYER_LINE_GAME = """
(game "Layer Lines"
    (players 2)
    (equipment {
        (board (square 4 pyramidal:True) use:Vertex)
        (piece "Ball" Each)
    })
    (rules
        (play (move Add (to (sites Empty) if:(is Flat))))
        (end {
            (if (is Line (- 4 (layer of:(last To))) SameLayer) (result Mover Win))
            (if (= (layer of:(last To)) 3) (result Mover Draw))
        })
    )
)"""

# (where "Name" <player by a number>).
WHERE_BY_NUMBER_GAME = """
(game "Corner Kings"
    (players 2)
    (equipment {
        (board (square 4))
        (piece "King" Each (move Step (to if:(is Empty (to)))))
    })
    (rules
        (start {(place "King1" 0) (place "King2" 15)})
        (play (forEach Piece))
        (end {
            (if (= (where "King" 1) 15) (result P1 Win))
            (if (= (where "King" (- 3 (mover))) 0) (result Mover Loss))
        })
    )
)"""

# (intervene ...) as moves looked for ((can Move ...) after a step): no step between two
# enemies.
INTERVENE_GAME = """
(game "No Stepping Between"
    (players 2)
    (equipment {
        (board (square 4))
        (piece "Disc" Each
            (move Step Orthogonal (to if:(is Empty (to)))
                (then
                    (custodial (from (last To)) Orthogonal
                        (between (max 1) if:(is Enemy (who at:(between))) (apply (remove (between))))
                        (to if:(is Friend (who at:(to))))
                    )
                )
            )
        )
    })
    (rules
        (start {(place "Disc1" (sites Bottom)) (place "Disc2" (sites Top))})
        (play
            (do (forEach Piece)
                ifAfterwards:(not (can Move
                    (intervene (from (last To)) Orthogonal
                        (to if:(is Enemy (who at:(to))) (apply (remove (to))))
                    )
                ))
            )
        )
        (end {
            (if (no Moves Next) (result Mover Win))
            (if (> 3 (count Pieces Next)) (result Mover Win))
        })
    )
)"""

# (move Hop ...) over a range of hurdles in directions relative to the piece: its facing
# read per kind of piece and start.
RELATIVE_HOP_GAME = """
(define "LeapOrStep"
    (or
        (move Step Forward (to if:(is Empty (to))))
        (move Hop (difference Orthogonal Backward)
            (between (range 1 2) if:(is Occupied (between)))
            (to if:(not (is Mover (who at:(to)))) (apply (remove (to))))
        )
    )
)

(game "Leaping Pawns"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Pawn" P1 N "LeapOrStep")
        (piece "Pawn" P2 S "LeapOrStep")
    })
    (rules
        (start {(place "Pawn1" (expand (sites Bottom))) (place "Pawn2" (expand (sites Top)))})
        (play (forEach Piece))
        (end {
            (if (is In (last To) (union (sites Top) (sites Bottom))) (result Mover Win))
            (if (no Moves Next) (result Mover Win))
        })
    )
)"""

# (move Step ...) in (directions Cell from:(last From) to:(last To)): a second piece steps
# the way the first went.
STEP_BETWEEN_GAME = """
(game "Echo Steps"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each (move Step (to if:(is Empty (to))) (then (moveAgain))))
    })
    (rules
        (start {(place "Disc1" (sites Bottom)) (place "Disc2" (sites Top))})
        (play
            (if (is Prev Mover)
                (or
                    (forEach Site (difference (sites Occupied by:Mover) (last To))
                        (move Step (from (site)) (directions Cell from:(last From) to:(last To))
                            (to if:(is Empty (to)))
                        )
                    )
                    (move Pass)
                )
                (forEach Piece)
            )
        )
        (end {
            (if (and (is Mover P1) (is In (last To) (sites Top))) (result P1 Win))
            (if (and (is Mover P2) (is In (last To) (sites Bottom))) (result P2 Win))
        })
    )
)"""

# (priority ...) as a consequent: the first list that makes a move (a removal east, else
# west, else maybe another turn).
PRIORITY_THEN_GAME = """
(game "Push Aside"
    (players 2)
    (equipment {(board (square 4)) (piece "Disc" Each)})
    (rules
        (play
            (move Add (to (sites Empty))
                (then
                    (priority {
                        (if (is Enemy (who at:(ahead (last To) E))) (remove (ahead (last To) E)))
                        (if (is Enemy (who at:(ahead (last To) W))) (remove (ahead (last To) W)))
                        (if (= 0 (% (count Moves) 5)) (moveAgain))
                    })
                )
            )
        )
        (end (if (is Line 3) (result Mover Win)))
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
    (HIDDEN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (REMOVE_CELL_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    (LAYER_LINE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (WHERE_BY_NUMBER_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (INTERVENE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (RELATIVE_HOP_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (STEP_BETWEEN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (PRIORITY_THEN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and (df["moves"] > df["piece_number_maximum"]).any()),
    (MIN_RANGE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
]
IDS = ["is-flat", "abs-and-count-vertices", "product-and-add-of-a-counted-kind",
       "add-of-a-counted-kind", "set-and-is-hidden", "remove-cells-of-hands",
       "line-of-a-computed-length-and-layer-of", "where-for-a-player-by-number",
       "intervene-as-moves-looked-for", "hop-over-a-range-in-relative-directions",
       "step-in-the-directions-between-two-sites", "priority-as-a-consequent", "min-range"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_hid_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)


def test_a_compiled_state_shows_each_player_what_is_hidden_from_them_as_the_reference(tmp_path):
    """The players' views (`board_view(player)`) of both backends along a playout of the
    hidden pawns: the same, some sites hidden."""
    import random
    from ludeme.analysis.playouts import load
    from ludeme.api import new_state
    path = tmp_path / "game.lud"
    path.write_text(HIDDEN_GAME)
    game = load(path)
    states = [new_state(game, 0, backend=b) for b in ("reference", "compiled")]
    assert type(states[0]) is not type(states[1])
    rng, hidden = random.Random(3), 0
    while not states[0].is_terminal():
        for p in (1, 2):
            views = [s.board_view(p) for s in states]
            assert views[0] == views[1]
            hidden += views[0]["who"].count(-1)
        assert states[0].board_view() == states[1].board_view()
        i = rng.randrange(len(states[0].legal_moves()))
        for s in states:
            s.apply(s.legal_moves()[i])
    assert hidden > 0
