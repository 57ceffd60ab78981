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

# Two rows of pieces stepping to an empty neighbour: the equipment and start of the games
# below.
STEPPERS = """    (equipment {
        (board (square 5))
        (piece "Disc" Each (move Step Adjacent (to if:(is Empty (to)))))
    })
    (rules
        (start {(place "Disc1" {0 1 2 3 4}) (place "Disc2" {20 21 22 23 24})})
"""

# (ahead ...) in the direction between two sites (of the last move, two steps on), and in
# the directions an (if ...) chooses.
AHEAD_GAME = """
(game "Follow Through"
    (players 2)
""" + STEPPERS + """        (play
            (forEach Piece
                (then
                    (if (is Enemy (who at:(ahead (last To) (directions Cell from:(last From) to:(last To)))))
                        (remove (ahead (last To) (directions Cell from:(last From) to:(last To))))
                        (if (is Empty (ahead (last To) steps:2 (directions Cell from:(last From) to:(last To))))
                            (add (piece (id "Disc" Mover))
                                (to (ahead (last To) steps:2 (directions Cell from:(last From) to:(last To)))))
                        )
                    )
                )
            )
        )
        (end {
            (if (is Enemy (who at:(ahead (last To) (if (is Mover P1) N S)))) (result Mover Loss))
            (if (no Pieces Next) (result Mover Win))
        })
    )
)
"""

# (do <effects> next:(move Pass)): the pass carries the first moves' effects.
PASS_AFTER_DO_GAME = """
(game "Bank It"
    (players 2)
    (equipment {(board (square 4)) (piece "Disc" Each)})
    (rules
        (play
            (or
                (move Add (to (sites Empty)))
                (do (set Score Mover (+ (score Mover) 1)) next:(move Pass))
            )
        )
        (end {
            (if (<= 4 (score Mover)) (result Mover Win))
            (if (is Line 3) (result Mover Win))
        })
    )
)
"""

# (sites Direction ...) in the direction between two sites (of the last move) and in the
# direction an (if ...) chooses.
DIRECTION_GAME = """
(game "Push Through"
    (players 2)
""" + STEPPERS + """        (play
            (or
                (forEach Piece
                    (then
                        (forEach Site
                            (sites Direction from:(last To)
                                (directions Cell from:(last From) to:(last To))
                                stop:(not (is Next (who at:(to)))))
                            (remove (site))
                        )
                    )
                )
                (move Add
                    (to (sites Direction from:(sites Occupied by:Mover) (if (is Mover P1) N S) distance:1)
                        if:(is Empty (to)))
                )
            )
        )
        (end {
            (if (no Pieces Next) (result Mover Win))
            (if (<= 8 (count Pieces Mover)) (result Mover Win))
        })
    )
)
"""

# (intersection ...) and (difference ...) listed inside a loop, a region after the first
# reading the (site) of that loop.
SITE_SETS_GAME = """
(game "Lonely Spots"
    (players 2)
    (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (play
            (move Add (to (sites Empty))
                (then
                    (forEach Site (sites Occupied by:Next)
                        (if (or
                                (= 0 (count Sites in:(intersection (sites Empty) (sites Around (site) Orthogonal))))
                                (<= 3 (count Sites in:(difference (sites Around (site) Orthogonal)
                                                                   (sites Around (site) Empty Orthogonal))))
                            )
                            (remove (site))
                        )
                    )
                )
            )
        )
        (end (if (<= 8 (count Pieces Mover)) (result Mover Win)))
    )
)
"""

# (sites Incident ...): the cells around a vertex, and a cell's vertices holding the
# mover's pieces; (forEach of:<region> <region>) listed.
INCIDENT_GAME = """
(game "Box Corners"
    (players 2)
    (equipment {(board (square 5) use:Vertex) (piece "Disc" Each)})
    (rules
        (play
            (or
                (move Add (to (sites Empty)))
                (move Add
                    (to (forEach of:(sites Occupied by:Next) (sites Around (site) Orthogonal))
                        if:(is Empty (to)))
                )
                (then
                    (forEach Site (sites Incident Cell of:Vertex at:(last To))
                        (if (<= 3 (count Sites in:(sites Incident Vertex of:Cell at:(site) Mover)))
                            (addScore Mover 1)
                        )
                    )
                )
            )
        )
        (end (if (<= 2 (score Mover)) (result Mover Win)))
    )
)
"""

# (move Shoot ...) whose to condition reads (between): the last site the shot passed.
SHOOT_GAME = """
(game "Long Shot"
    (players 2)
    (equipment {(board (square 5)) (piece "Disc" Each) (piece "Dot" Neutral)})
    (rules
        (play
            (or
                (move Add (to (sites Empty)))
                (move Shoot (piece "Dot0") (to if:(and (is Empty (to)) (not (is In (between) (sites Centre))))))
            )
        )
        (end (if (is Line 3) (result Mover Win)))
    )
)
"""

# (sites Between ...): the sites between two, with fromIncluded:, toIncluded: and cond:
# (read with (between) on each), counted and tested.
BETWEEN_GAME = """
(game "Squeeze"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each
            (move Slide
                (to if:(is Enemy (who at:(to)))
                    (apply
                        (if (< 1 (count Sites in:(sites Between from:(from) to:(to) toIncluded:True)))
                            (remove (to))
                        )
                    )
                )
            )
        )
    })
    (rules
        (start {(place "Disc1" {0 2 4 6}) (place "Disc2" {18 20 22 24})})
        (play
            (or
                (forEach Piece)
                (move Add
                    (to (sites Empty)
                        if:(is In (to) (sites Between from:(to) to:(last To) fromIncluded:True
                                           cond:(is Empty (between))))
                    )
                )
            )
        )
        (end {
            (if (no Pieces Next) (result Mover Win))
            (if (<= 8 (count Pieces Mover)) (result Mover Win))
        })
    )
)
"""

# (sites Direction ...) in a (difference ...) of directions: the orthogonal neighbours of
# the last destination but the one ahead of the last move.
SIDE_STEP_GAME = """
(game "Side Step"
    (players 2)
""" + STEPPERS + """        (play
            (forEach Piece
                (then
                    (forEach Site
                        (sites Direction from:(last To)
                            (difference Orthogonal (directions Cell from:(last From) to:(last To)))
                            distance:1)
                        (if (is Next (who at:(site))) (remove (site)))
                    )
                )
            )
        )
        (end (if (no Pieces Next) (result Mover Win)))
    )
)
"""

# (abs ...), and the role Player outside forEach Player (no player there: (handSite
# Player) is -1).
ABS_GAME = """
(game "Near The Middle"
    (players 2)
    (equipment {(board (square 4)) (piece "Disc" Each) (hand Each)})
    (rules
        (play
            (move Add (to (sites Empty))
                (then (if (>= 1 (abs (- (last To) 8))) (addScore Mover 1)))
            )
        )
        (end {
            (if (and (is Line 3) (= -1 (handSite Player))) (result Mover Win))
            (if (<= 2 (score Mover)) (result Mover Loss))
        })
    )
)
"""

# (expand ...) of a region read in play, tested.
EXPAND_GAME = """
(game "Grow Out"
    (players 2)
    (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (start {(place "Disc1" 0) (place "Disc2" 24)})
        (play
            (move Add
                (to (sites Empty)
                    if:(is In (to) (expand (sites Occupied by:Mover) steps:2 Orthogonal)))
            )
        )
        (end (if (is Line 3) (result Mover Win)))
    )
)
"""

# (add ... (to <site> (apply ...))) as a consequent: its effect, read with (from) on the
# site, before the placement; a slide's (to <region>), never read.
ADD_APPLY_GAME = """
(game "Seed Row"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each (move Slide Orthogonal (to (sites Empty))))
    })
    (rules
        (start {(place "Disc1" {0 4}) (place "Disc2" {20 24})})
        (play
            (or
                (forEach Piece)
                (move Add (to (sites Empty))
                    (then
                        (add (piece (id "Disc" Mover))
                            (to (ahead (last To) N) if:(is Empty (to))
                                (apply if:(is Even (from)) (addScore Mover 1)))
                        )
                    )
                )
            )
        )
        (end {
            (if (<= 3 (score Mover)) (result Mover Win))
            (if (is Line 4) (result Mover Win))
        })
    )
)
"""

# (move Hop (from <region>) ...): the hop starts from (from), the piece's site (the region
# is never read, as Ludii's Hop reads a site only).
HOP_GAME = """
(game "Leap Over"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each
            (or
                (move Step Orthogonal (to if:(is Empty (to))))
                (move Hop (from (sites Occupied by:Mover)) Orthogonal
                    (between if:(is Enemy (who at:(between))) (apply (remove (between))))
                    (to if:(is Empty (to)))
                )
            )
        )
    })
    (rules
        (start {(place "Disc1" {0 1 2 3 4}) (place "Disc2" {20 21 22 23 24})})
        (play (forEach Piece))
        (end (if (no Pieces Next) (result Mover Win)))
    )
)
"""

# (move Slide (between ... trail:<piece>)): the piece left on the start and on each site
# passed.
TRAIL_GAME = """
(game "Wake"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each (move Slide Orthogonal (between (max 2) trail:(id "Dot0"))))
        (piece "Dot" Neutral)
    })
    (rules
        (start {(place "Disc1" {0 4}) (place "Disc2" {20 24})})
        (play (forEach Piece))
        (end (if (no Moves Next) (result Mover Win)))
    )
)
"""

# (move Slide ...) in the direction of the last move and in directions an (if ...) chooses;
# a move's effect reading (last From): the move before it.
DRIFT_GAME = """
(game "Drift"
    (players 2)
""" + STEPPERS + """        (play
            (or {
                (forEach Piece)
                (move Slide (from (last To)) (directions Cell from:(last From) to:(last To)))
                (move Slide (from (last To)) (if (is Mover P1) N S)
                    (to if:(is Enemy (who at:(to)))
                        (apply (if (is Even (last From)) (remove (to)))))
                )
            })
        )
        (end (if (>= 3 (count Pieces Next)) (result Mover Win)))
    )
)
"""

# (sites Occupied by:Enemy top:False|component:) on stacks, of three players: any level of
# any enemy's, or their top pieces of that kind.
ENEMY_STACKS_GAME = """
(game "Pile Up"
    (players 3)
    (equipment {(board (square 4)) (piece "Disc" Each) (piece "Cap" Each)})
    (rules
        (play
            (or
                (move Add (piece (id "Disc" Mover)) (to (sites Board)) stack:True)
                (move Add (piece (id "Cap" Mover)) (to (sites Corners)) stack:True)
            )
        )
        (end {
            (if (<= 9 (count Sites in:(sites Occupied by:Enemy top:False))) (result Mover Loss))
            (if (<= 3 (count Sites in:(sites Occupied by:Enemy component:"Cap"))) (result Mover Win))
        })
    )
)
"""

CASES = [
    (ARRAY_SITES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].gt(8).any()),
    (DIFFERENCE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (AHEAD_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any() and (df["piece_number_maximum"] > 10).any()),
    (PASS_AFTER_DO_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and (df["moves"] < 7).any()),
    (DIRECTION_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (SITE_SETS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (INCIDENT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # a shot adds a neutral dot: more pieces than the players placed
    (SHOOT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (BETWEEN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (SIDE_STEP_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (ABS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (EXPAND_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (ADD_APPLY_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (HOP_GAME, (3, 4), lambda df: df["piece_number_max_decrease"].lt(0).any()),
    # the dots left behind fill the board
    (TRAIL_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and (df["piece_number_maximum"] > 10).all()),
    (DRIFT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (ENEMY_STACKS_GAME, (3, 4), lambda df: len(set(df["winner"])) >= 2),
]
IDS = ["sites-of-an-array-and-of-a-region-occupied-by-a-player",
       "difference-less-a-region-reading-site",
       "ahead-between-two-sites-and-by-if", "pass-after-do-carries-its-effects",
       "sites-direction-between-two-sites-and-by-if", "set-operations-reading-an-outer-site",
       "sites-incident-and-for-each-of-a-region", "shoot-reading-between",
       "sites-between", "sites-direction-in-a-difference-of-directions",
       "abs-and-player-outside-for-each-player", "expand-tested",
       "add-with-apply-as-a-consequent-and-slide-to-a-region", "hop-from-a-region",
       "slide-with-a-trail", "slide-in-directions-chosen-in-play",
       "sites-occupied-by-enemy-on-stacks"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_reg_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)


def test_an_effect_reading_the_pending_values_reads_them_as_the_move_was_made(tmp_path):
    """The kernels empty the pending values before a move's effects, where the reference
    made them with the move: the effect reads them as they were (`sc[PWAS]`), and the rows
    are the reference's (a move after an even site is made again)."""
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "game.lud"
    path.write_text("""
(game "Twice"
    (players 2)
    (equipment {(board (square 4)) (piece "Disc" Each)})
    (rules
        (play
            (move Add
                (to (sites Empty) (apply if:(is Pending) (moveAgain)))
                (then (if (is Even (last To)) (set Pending)))
            )
        )
        (end (if (is Line 3) (result Mover Win)))
    )
)
""")
    game = load(path)
    assert "sc[PWAS]" in generate(game)
    rows = test_compiled._same_rows(game, 30, 3)
    assert {1, 2} <= set(rows["winner"]) and (rows["turns"] < rows["moves"]).any()
