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

# Pieces placed at random by the start rules, drawn by the kernels from the chance stream
# as the reference draws them: on the empty sites of a region, two of each item; then on
# the board's empty sites, a count given by a function, with a state and a value read in
# play.
RANDOM_START_GAME = """
(game "Scattered Start"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each)
        (piece "Rock" Shared)
    })
    (rules
        (start {
            (place "Rock" 12)
            (place Random (sites Bottom) {"Disc1" "Disc2"} count:2)
            (place Random {"Rock"} count:(+ 1 2) state:2 value:5)
        })
        (play
            (or
                (move Add (to (sites Around (sites Occupied by:Mover) Orthogonal if:(is Empty (to)))))
                (move Remove (forEach (sites Occupied by:Shared)
                    if:(and (= 5 (value Piece at:(site))) (= 2 (state at:(site))))))
            )
        )
        (end (if (no Moves Next) (result Mover Win)))
    )
)
"""

# (ahead ...) in the direction of the last move ((directions Cell from: to:)): a step to
# the edge in the direction moved wins (ahead is the site itself there); after a
# placement, from and to are one site, no direction leads between them, and ahead is -1.
AHEAD_BETWEEN_GAME = """
(game "Runaway"
    (players 2)
    (equipment {
        (board (square 6))
        (piece "Disc" Each (move Step Adjacent (to if:(is Empty (to)))))
    })
    (rules
        (start {(place "Disc1" 14) (place "Disc2" 21)})
        (play
            (if (is Even (count Turns))
                (move Add (to (sites Empty) if:(not (is In (to) (sites Outer)))))
                (forEach Piece)
            )
        )
        (end {
            (if (= (last To) (ahead (last To) (directions Cell from:(last From) to:(last To))))
                (result Mover Win))
            (if (and (> (count Turns) 10) (= -1 (ahead (last To) steps:2 (directions Cell from:(last From) to:(last To)))))
                (result Mover Loss))
        })
    )
)
"""

# Large pieces (a piece given as a walk) added in every rotation where each cell they cover
# is empty; a cell covered is not empty to (is Empty ...) and (sites Empty); a small
# piece added beside them.
LARGE_ADD_GAME = """
(game "Tile Jam"
    (players 2)
    (equipment {
        (board (square 5))
        (tile "Hook" P1 {F R F} numSides:4)
        (tile "Bar" P2 {F} numSides:4)
        (piece "Marker" Neutral)
    })
    (rules
        (play
            (or
                (move Add (piece (mover)) (to (sites Empty)))
                (if (< (count Turns) 4) (move Add (piece "Marker0") (to (sites Empty))))
            )
        )
        (end {
            (if (and (> (count Turns) 5) (is Empty 12)) (result Next Win))
            (if (no Moves Next) (result Mover Win))
        })
    )
)
"""

# Large pieces moved, out of hands (a shared one too) and on the board: to each empty
# site or a cell it covers, in every rotation, leaving the cells it covered; where the game
# keeps counts (hands), a covered cell counts 1.
LARGE_MOVE_GAME = """
(game "Tile Shift"
    (players 2)
    (equipment {
        (board (square 4))
        (tile "Bar" Each {F} numSides:4)
        (tile "Hook" Shared {F R F} numSides:4)
        (hand Each size:2)
        (hand Shared size:1)
    })
    (rules
        (start {
            (place "Bar1" (handSite P1 0)) (place "Bar1" (handSite P1 1))
            (place "Bar2" (handSite P2 0)) (place "Bar2" (handSite P2 1))
            (place "Hook" (handSite Shared 0))
        })
        (play
            (or {
                (move (from (sites Hand Mover)) (to (sites Empty)))
                (move (from (sites Hand Shared)) (to (sites Empty)))
                (move (from (sites Occupied by:Mover container:"Board")) (to (sites Empty)))
            })
        )
        (end {
            (if (and (> (count Turns) 8) (is Empty 5)) (result Mover Win))
            (if (no Moves Next) (result Mover Win))
        })
    )
)
"""

# The same with a shared hand: a piece moved into the hand takes its owner (3) as its
# `who` there (a draw), one moved out of it onto the board its index (1).
INDEX_WHO_HAND_GAME = """
(game "Stone Keeper"
    (players 2)
    (equipment {
        (board (square 3))
        (piece "Stone" Shared)
        (hand Shared size:2)
    })
    (rules
        (start {(place "Stone" (sites {0 4 8})) (place "Stone" (handSite Shared 1))})
        (play
            (or {
                (move (from (sites Occupied by:Shared container:"Board")) (to (handSite Shared 0) if:(is Empty (to))))
                (move (from (sites Hand Shared)) (to (sites Empty)))
                (move (from (sites Occupied by:Shared container:"Board")) (to (sites Around (from) Orthogonal if:(is Empty (to)))))
            })
        )
        (end {
            (if (and (= 1 (who at:(last To))) (is In (last To) (sites Corners))) (result Mover Win))
            (if (= 3 (who at:(last To))) (result Mover Draw))
            (if (= 1 (who at:(last To))) (result Mover Loss))
        })
    )
)
"""

CASES = [
    (INDEX_WHO_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].gt(6).any()),
    (INDEX_WHO_HAND_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    (RANDOM_START_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # odd: a step reached the edge; even: a placement's ahead was -1
    (AHEAD_BETWEEN_GAME, (3, 4), lambda df: df["moves"].mod(2).eq(1).any()
     and df["moves"].mod(2).eq(0).any()),
    (LARGE_ADD_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(8).any()),
    # more moves than the pieces in hands: pieces moved on the board
    (LARGE_MOVE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(8).any()),
]
IDS = ["index-stored-as-owner", "index-stored-as-owner-and-a-hand",
       "place-random-at-the-start", "ahead-between-two-sites", "add-large-pieces",
       "move-large-pieces"]


@pytest.mark.parametrize("text,seeds,played", CASES, ids=IDS)
def test_cmp_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    # as the forms of tests/test_compiled.py: it compiles, the same rows, the rule acted
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path)


def test_kernels_draw_the_random_start_of_the_reference(tmp_path):
    """The kernels' start position of a seed is the reference's (the same draws), and a
    start forced to a recorded one (a replay's) is the forced one."""
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled import build_kernels
    path = tmp_path / "game.lud"
    path.write_text(RANDOM_START_GAME)
    game = load(path)
    kernels = build_kernels(game)
    starts = set()
    for seed in (0, 1, 2, 7):
        ref, fast = game.new_initial_state(seed), kernels.new_initial_state(seed)
        n = len(ref.what)
        assert list(fast.what[:n]) == list(ref.what) and list(fast.who[:n]) == list(ref.who)
        assert fast.draws == ref.draws
        starts.add(tuple(ref.what))
    assert len(starts) > 1
    forced = {1: [0, 1], 2: [2, 3], 3: [12, 10, 11, 13]}    # (12: not empty)
    ref = game.new_initial_state(5, forced_places=forced)
    fast = kernels.new_initial_state(5, forced_places=forced)
    assert list(fast.what[:len(ref.what)]) == list(ref.what)
    assert [s for s in range(25) if fast.what[s] == 3] == [10, 11, 12, 13]
    assert [fast.what[s] for s in range(4)] == [1, 1, 2, 2]
    m = kernels.module         # the rocks drawn keep their state and value
    assert [int(fast.sc[m.STATE + s]) for s in (10, 11, 12, 13)] == [2, 2, 0, 2]
    assert [int(fast.sc[m.STATE + m.TOTAL + s]) for s in (10, 11, 12, 13)] == [5, 5, 0, 5]


@pytest.mark.parametrize("start,why", [
    # a random stack before a random placement: its draws would be built into every game
    ('(place Random {"Disc1" "Disc2"} count:{2 2} (handSite P1)) (place Random {"Disc1"})',
     "drawing from the chance stream"),
    # a fixed placement after a random one: the kernels draw after the fixed position
    ('(place Random {"Disc1"}) (place "Disc2" 4)', "after one placing pieces at random"),
])
def test_random_starts_the_kernels_cannot_draw_are_refused(start, why, tmp_path):
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled import Unsupported
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "game.lud"
    path.write_text(f"""(game "Pile" (players 2)
  (equipment {{(board (square 3)) (piece "Disc" Each) (hand Each size:1)}})
  (rules (start {{{start}}})
    (play (move Add (to (sites Empty))))
    (end (if (no Moves Next) (result Mover Win)))))""")
    with pytest.raises(Unsupported, match=why):
        generate(load(path))


def test_a_removal_in_a_game_with_large_pieces_is_refused(tmp_path):
    """The reference frees a large piece's anchor as it removes it; the kernels do not
    model that: refused, not played with the anchor still covered."""
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled import Unsupported
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "game.lud"
    path.write_text(LARGE_ADD_GAME.replace(
        '(move Add (piece (mover)) (to (sites Empty)))',
        '(or (move Add (piece (mover)) (to (sites Empty))) '
        '(move Select (from (sites Occupied by:Mover)) (then (remove (last To)))))'))
    with pytest.raises(Unsupported, match="removed in a game with large pieces"):
        generate(load(path))
