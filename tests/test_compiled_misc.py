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

# (sites Group ...) at a site, with if:, and from: a region (the groups of its sites
# together), counted, removed and tested.
GROUP_GAME = """
(game "Group Grab"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each)
    })
    (rules
        (play
            (move Add (to (sites Empty))
                (then
                    (if (< 2 (count Sites in:(sites Group at:(last To) Orthogonal if:(is Mover (who at:(to))))))
                        (remove (sites Group from:(sites Around (last To) Enemy Orthogonal) Orthogonal))
                    )
                )
            )
        )
        (end (if (is In 12 (sites Group at:(last To) Orthogonal)) (result Mover Win)))
    )
)
"""

# (sites Around ...) with if: (read with (from) the centre, (to) the site) around a region
# and a site, with includeSelf:; (sites Occupied by:Shared component:...).
AROUND_GAME = """
(game "Round About"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each)
        (piece "Marker" Shared)
    })
    (rules
        (start (place "Marker" 12))
        (play
            (if (= 0 (count Sites in:(sites Occupied by:Mover)))
                (move Add (to (sites Empty)))
                (move Add
                    (to (sites Around (sites Occupied by:Mover) Orthogonal if:(is Empty (to))))
                    (then
                        (if (<= 2 (count Sites in:(sites Around (last To) Own includeSelf:True)))
                            (remove (sites Around (last To) NotOwn if:(!= (from) (to)) includeSelf:False))
                        )
                    )
                )
            )
        )
        (end (if (= 0 (count Sites in:(sites Occupied by:Shared component:"Marker"))) (result Mover Win)))
    )
)
"""

# (union ...) of regions that read the position, listed: each part in turn, a site once.
UNION_GAME = """
(game "Spread Out"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each)
    })
    (rules
        (start {(place "Disc1" 0) (place "Disc2" 24)})
        (play
            (move Add
                (to (union
                        (sites Around (sites Occupied by:Mover) Empty Orthogonal)
                        (sites Around (sites Occupied by:Next) Empty Diagonal)))
            )
        )
        (end (if (is Line 4) (result Mover Win)))
    )
)
"""

# (move Set NextPlayer ...): a decision naming the next mover (here the mover again).
SET_NEXT_GAME = """
(game "Skip Ahead"
    (players 3)
    (equipment {
        (board (square 4))
        (piece "Disc" Each)
    })
    (rules
        (play
            (or
                (move Add (to (sites Empty)))
                (move Set NextPlayer (player (mover)))
            )
        )
        (end (if (is Line 3) (result Mover Win)))
    )
)
"""

# (push ...) as a consequent: the run of pieces moved on, the last one falling off.
PUSH_GAME = """
(game "Shove Row"
    (players 2)
    (equipment {
        (board (square 4))
        (piece "Disc" Each)
    })
    (rules
        (play
            (move Add (to (sites Empty))
                (then (if (!= 1 (% (last To) 4)) (push (from (last To)) E)))
            )
        )
        (end (if (<= 6 (count Sites in:(sites Occupied by:Mover))) (result Mover Win)))
    )
)
"""

# (is Line ...) with whats:, what: and who:, and throughAny: (sites LastTo): the sites
# each move (its pushes too) went to.
LINE_GAME = """
(game "Slide Lines"
    (players 2)
    (equipment {(board (square 5)) (piece "Disc" Each) (piece "Marker" Shared)})
    (rules
        (start (place "Marker" 12))
        (play
            (move Add (to (sites Empty))
                (then (if (!= 0 (% (last To) 5)) (push (from (last To)) W)))
            )
        )
        (end {
            (if (is Line 4 throughAny:(sites LastTo) whats:{(next) 3}) (result Next Win))
            (if (is Line 3 Orthogonal throughAny:(sites LastTo) what:(mover)) (result Mover Win))
            (if (is Line 4 Diagonal who:(mover)) (result Mover Win))
        })
    )
)
"""

# (is Pattern ...): walks from the last destination (and from:, with whats: and what:).
PATTERN_GAME = """
(game "Square Hunt"
    (players 2)
    (equipment {(board (square 4)) (piece "Disc" Each)})
    (rules
        (play (move Add (to (sites Empty) if:(not (is Pattern {F L F} from:(to) whats:{(next) (next) (mover)})))))
        (end {
            (if (is Pattern {F R F R F}) (result Mover Win))
            (if (is Pattern {F F L F} what:(mover)) (result Mover Loss))
        })
    )
)
"""

# (difference ...) and (union ...) of directions: relative to the piece (steps, a slide,
# read per kind of piece) and following the last move (a hop).
DIRECTIONS_GAME = """
(game "Forward March"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Pawn" Each
            (or {
                (move Step (difference Forwards Diagonal) (to if:(is Empty (to))))
                (move Step (union Backward (union W E)) (to if:(is Enemy (who at:(to))) (apply (remove (to)))))
                (move Hop (difference Orthogonal OppositeDirection)
                    (between if:(is Enemy (who at:(between))) (apply (remove (between))))
                    (to if:(is Empty (to))))
            })
        )
        (piece "Rook" Each (move Slide (difference Adjacent (directions {Forward}))))
    })
    (rules
        (start {
            (place "Pawn1" (sites Row 0)) (place "Rook1" 12)
            (place "Pawn2" (sites Row 4))
        })
        (play (forEach Piece))
        (end (if (= 0 (count Pieces Next)) (result Mover Win)))
    )
)
"""

# (is Active ...) and (count Active): once P1 is out, the movers may move again.
ACTIVE_GAME = """
(game "Last Standing" (players 3) (equipment {(board (square 4)) (piece "Disc" Each)})
    (rules
        (play
            (move Add (to (sites Empty))
                (then
                    (if (and (not (is Active P1)) (= 2 (count Active)))
                        (if (is Even (count Moves)) (moveAgain))
                    )
                )
            )
        )
        (end (if (is Line 3) (result Mover Loss)))
    )
)
"""

# (sites LineOfSight ...) listed (Empty, Farthest, Piece); (count Steps ...) to a region,
# by a relation and by a (step ...).
SIGHT_GAME = """
(game "Sight Lines" (players 2) (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (start {(place "Disc1" 0) (place "Disc2" 24)})
        (play
            (or
                (forEach Site (sites Occupied by:Mover)
                    (move Add
                        (to (sites LineOfSight Empty at:(site))
                            if:(<= (count Steps Orthogonal (to) (sites Occupied by:Next)) 2))))
                (move Add
                    (to (sites LineOfSight Farthest at:(last To) Diagonal) if:(is Empty (to)))
                    (then (remove (sites LineOfSight Piece at:(last To) Orthogonal))))
            )
        )
        (end (if (= 2 (count Steps (step Orthogonal (to if:(is Empty (to)))) (last To) (sites Corners)))
                (result Mover Win)))
    )
)
"""

# A helper kernel reading (site) of a loop around it before it sets its own `site`
# ((sites Around (site)) counted inside a (forEach ...)'s if:).
CROWD_GAME = """
(game "Crowd Shy" (players 2) (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (play
            (move Add
                (to (sites Empty)
                    if:(>= 1 (count Sites in:(forEach (sites Around (to))
                        if:(< 1 (count Pieces All in:(sites Around (site) Orthogonal)))))))
            )
        )
        (end (if (is Line 3) (result Mover Win)))
    )
)
"""

# (move Leap ...) with forward:True (ahead of the piece's facing) and from (from ...).
LEAP_GAME = """
(game "Knight Rush"
    (players {(player N) (player S)})
    (equipment {
        (board (square 6))
        (piece "Knight" Each
            (move Leap {{F F R F}} forward:True
                (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
        (regions "Goal" P1 (sites Top))
        (regions "Goal" P2 (sites Bottom))
    })
    (rules
        (start {(place "Knight1" (sites Row 0)) (place "Knight2" (sites Row 5))})
        (play
            (or
                (forEach Piece)
                (move Leap (from (last To)) {{F F}} rotations:False (to if:(is Empty (to))))
            )
        )
        (end (if (is In (last To) (sites Mover "Goal")) (result Mover Win)))
    )
)
"""

# (add (to ...)) without a piece, as a consequent: the mover's first kind of piece.
TRAIL_GAME = """
(game "Trail Layers"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each
            (move Step Orthogonal (to if:(is Empty (to)))
                (then (if (is Even (count Moves)) (add (to (last From)))))))
    })
    (rules
        (start {(place "Disc1" 0) (place "Disc2" 24)})
        (play (forEach Piece))
        (end (if (no Moves Next) (result Mover Win)))
    )
)
"""

# (move Slide ... (between ... (apply ...))): the effect at each site passed over (here the
# sites a pawn's first move passes become pending, which a diagonal step may take).
SLIDE_PASSED_GAME = """
(game "Pass Marks" (players {(player N) (player S)})
    (equipment {
        (board (square 6)) (piece "Pawn" Each
            (or
                (forEach Value min:1 max:3
                    (move Slide Forward
                        (between (exact (value)) if:(is Empty (between)) (apply (set Pending (between))))
                        (to if:(is Empty (to)))))
                (move Step (directions {FR FL}) (to if:(is In (to) (sites Pending))))
            )
        )
    })
    (rules
        (start {(place "Pawn1" (sites Row 0)) (place "Pawn2" (sites Row 5))})
        (play (forEach Piece))
        (end (if (no Moves Next) (result Mover Win)))
    )
)
"""

# (is Threatened <piece> in:<region>): each site of the region in turn (two kings).
TWIN_KINGS_GAME = """
(game "Twin Kings"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "King" Each (move Step (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
        (piece "Rook" Each (move Slide Orthogonal (to if:(is Enemy (who at:(to))) (apply (remove (to))))))
    })
    (rules
        (start {
            (place "King1" {0 4}) (place "Rook1" 1)
            (place "King2" {20 24}) (place "Rook2" 23)
        })
        (play
            (do (forEach Piece)
                ifAfterwards:(not (is Threatened (id "King" Mover)
                    in:(sites Occupied by:Mover component:"King"))))
        )
        (end {(if (no Moves Next) (result Mover Win)) (if (> 3 (count Pieces Next)) (result Mover Win))})
    )
)
"""

# (pow ...) and (^ ...): Java's (int) Math.pow (a negative power of 2 is 0).
POW_GAME = """
(game "Square Crowd" (players 2) (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (play
            (move Add
                (to (sites Empty)
                    if:(< (pow (count Sites in:(sites Around (to) Own)) 2) (^ 2 (+ 1 (pow 2 -1))))))
        )
        (end {
            (if (is Line 3) (result Mover Win))
            (if (< 48 (^ (count Sites in:(sites Occupied by:Mover)) 2)) (result Mover Draw))
        })
    )
)
"""

# (sites Side <direction>): a side of the board, listed now.
SIDE_GAME = """
(game "Side To Side" (players 2) (equipment {(board (square 4)) (piece "Disc" Each)})
    (rules
        (play (move Add (to (sites Empty))))
        (end {
            (if (is Connected Orthogonal {(sites Side N) (sites Side S)}) (result Mover Win))
            (if (is In (last To) (intersection (sites Side W) (sites Side E))) (result Mover Loss))
        })
    )
)
"""

# (note ...) as a consequent: nothing changes.
NOTE_GAME = """
(game "Told You" (players 2) (equipment {(board (square 4)) (piece "Disc" Each)})
    (rules
        (play
            (move Add (to (sites Empty))
                (then (if (is Line 2) (note "A pair!" to:Mover) (note (count Moves))))
            )
        )
        (end (if (is Line 3) (result Mover Win)))
    )
)
"""

# (sites Distance <relation> from: (range ...)) without a (step ...): by the board's steps.
DISTANCE_GAME = """
(game "Far Jumps" (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each
            (move (from) (to (sites Distance Orthogonal from:(from) (range 2 3)) if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    })
    (rules
        (start {(place "Disc1" {0 1 2}) (place "Disc2" {22 23 24})})
        (play (forEach Piece))
        (end (if (no Pieces Next) (result Mover Win)))
    )
)
"""

# (is Related <relation> <site> <region>): a neighbour of the site among the region's.
RELATED_GAME = """
(game "Close Contact" (players 2) (equipment {(board (square 5)) (piece "Disc" Each)})
    (rules
        (start {(place "Disc1" 0) (place "Disc2" 24)})
        (play
            (move Add
                (to (sites Empty)
                    if:(or (is Related Orthogonal (to) (sites Occupied by:Next))
                        (is Related Diagonal (to) (sites {0 24 12})))))
        )
        (end (if (is Line 3) (result Mover Win)))
    )
)
"""

# (sites Playable): the centre first, then the empty sites next to a piece.
PLAYABLE_GAME = """
(game "Grow Out" (players 2) (equipment {(board (hex 3)) (piece "Disc" Each)})
    (rules
        (play (move Add (to (sites Playable))))
        (end (if (is Line 3) (result Mover Win)))
    )
)
"""

# (expand ...) of a region and of an origin that read the position, listed.
EXPAND_GAME = """
(game "Spread Zone" (players 2) (equipment {(board (square 6)) (piece "Disc" Each)})
    (rules (start {(place "Disc1" 0) (place "Disc2" 35)})
        (play (move Add
                (to (difference (expand (sites Occupied by:Mover) Orthogonal) (sites Occupied by:All)))
                (then
                    (if (is Even (count Moves))
                        (forEach Site (expand origin:(last To) steps:2 Diagonal)
                            (if (is Enemy (who at:(site))) (remove (site))))))
            )
        )
        (end (if (>= (count Sites in:(sites Occupied by:Mover)) 8) (result Mover Win)))
    )
)
"""

CASES = [
    (SITE_IN_HELPER_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].gt(5).any()),
    (GROUP_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(-1).any()),
    (AROUND_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (UNION_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (SET_NEXT_GAME, (3, 4), lambda df: {1, 2, 3} <= set(df["winner"])
     and (df["moves"] > df["piece_number"] + 2).any()),
    # each move adds a piece: fewer on the board than moves made, some fell off
    (PUSH_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and (df["piece_number_maximum"] < df["moves"]).any()),
    (LINE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(12).any()),
    (PATTERN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(16).any()),
    (DIRECTIONS_GAME, (3, 4), lambda df: df["winner"].gt(0).all()
     and df["piece_number_max_decrease"].lt(0).all()),
    (ACTIVE_GAME, (3, 4), lambda df: (df["turns"] < df["moves"]).any()),
    (SIGHT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any() and df["moves"].gt(4).any()),
    (CROWD_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (LEAP_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (TRAIL_GAME, (3, 4), lambda df: df["winner"].gt(0).all()
     and df["piece_number_maximum"].gt(6).any()),
    (SLIDE_PASSED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(8).all()),
    (TWIN_KINGS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (POW_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (SIDE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (NOTE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (DISTANCE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).all()),
    (RELATED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    (PLAYABLE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # on a boardless table: the centre while no piece stands next to it
    (PLAYABLE_GAME.replace("(board (hex 3))", "(boardless Hexagonal)"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    (EXPAND_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
]
IDS = ["site-of-an-enclosing-loop-in-a-helper", "sites-group", "sites-around-if-include-self",
       "union-listed", "move-set-next-player",
       "push-as-a-consequent", "line-through-any-last-tos-with-whats",
       "is-pattern", "difference-and-union-of-directions",
       "is-active-and-count-active", "line-of-sight-and-count-steps-to-a-region",
       "site-read-before-a-helper-sets-its-own", "leap-forward-and-from",
       "add-without-a-piece-as-an-effect", "slide-between-apply", "threatened-in-a-region",
       "pow", "sites-side", "note-as-a-consequent",
       "sites-distance-by-a-relation", "is-related-of-a-region",
       "sites-playable", "sites-playable-boardless",
       "expand-of-what-reads-the-position"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_misc_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)


def test_a_pending_value_past_those_the_kernels_keep_falls_back(tmp_path):
    """The kernels keep pending values up to four times the sites where one is computed by
    arithmetic: a sum past them sends the playouts to the reference engine (rt.KernelFull),
    with the same rows."""
    import pandas as pd

    from ludeme.analysis.playouts import load, run_playouts
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "game.lud"
    path.write_text(PLAYABLE_GAME.replace("(move Add (to (sites Playable)))",
                                          "(move Add (to (sites Playable)) (then (set Pending "
                                          "(+ (last To) 100))))"))
    game = load(path)
    generate(game)
    ref = run_playouts(game, 4, 3, jobs=1, progress=False, backend="reference")
    fast = run_playouts(game, 4, 3, jobs=1, progress=False, backend="compiled")
    pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
    assert fast.attrs["playouts_by_backend"]["reference"] == 4


# A placement allowed only where every site around it still reaches another site of the
# edge through empty sites: `(difference (sites Outer) (site))` takes away the site of the
# (all Sites ...) around it, which the difference's own loop over the sites must not hide.
EDGE_GAME = """(game "Edges" (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
      if:(all Sites (sites Around (to) Orthogonal includeSelf:True)
           if:(!= Infinity (count Steps (step Orthogonal (to if:(is Empty (to)))) (site)
                                        (difference (sites Outer) (site))))))))
    (end (if (no Moves Next) (result Mover Win)))))"""


def test_a_site_taken_from_a_region_listed_in_a_loop_is_the_outer_loops(tmp_path):
    """Fails when the difference's loop reads its own `site` as the site taken away: every
    edge site is then 0 steps from the edge and the rows differ from the reference's."""
    test_compiled.test_new_compiled_forms_give_the_reference_rows(
        EDGE_GAME, (1, 2), lambda df: df["moves"].min() < 25, tmp_path)
