"""Compiled forms of (no Repeat ...): hand-written games give the same rows on both backends,
and the rule acts (the same game without it plays otherwise)."""

import pandas as pd
import pytest

from ludeme.api import load
from test_compiled import _same_rows

# A disc is added anywhere empty or one of the mover's is taken back; no turn may end in a
# position the game has seen ((no Repeat), Positional); three in a line win, forty moves
# draw.
UNREPEATED_GAME = """
(game "Unrepeated"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (meta (no Repeat))
    (play (or (move Add (to (sites Empty))) (move Remove (sites Occupied by:Mover))))
    (end {(if (is Line 3) (result Mover Win)) (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# Each turn steps a disc twice (the second step need not be the same disc's), and the second
# step may not bring back the position the turn began in ((no Repeat PositionalInTurn));
# a disc on the centre wins, thirty moves draw.
DOUBLESTEPPERS_GAME = """
(game "Doublesteppers"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))))})
  (rules
    (meta (no Repeat PositionalInTurn))
    (start {(place "Disc1" {0 2}) (place "Disc2" {6 8})})
    (play (if (is Pending)
              (forEach Piece)
              (forEach Piece (then (and (set Pending) (moveAgain))))))
    (end {(if (is In 4 (sites Occupied by:Mover)) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""


def _rows(text, seed, tmp_path, name, n=40):
    path = tmp_path / f"{name}.lud"
    path.write_text(text)
    game = load(path)
    from ludeme.engine.compiled.codegen import generate
    generate(game)                  # it has a compiled form
    return _same_rows(game, n, seed)


def _seeded_rows(text, tmp_path):
    """The rows of 40 playouts of seed 3 and 15 of seed 4, the same on both backends."""
    return [_rows(text, seed, tmp_path, "game", 40 if i == 0 else 15)
            for i, seed in enumerate((3, 4))]


@pytest.mark.parametrize("text,played", [
    # No playout repeats a position, though discs are taken back (without the rule some do).
    (UNREPEATED_GAME, lambda df: df["positional_repetition"].eq(0).all()),
    # Both sides win.
    (DOUBLESTEPPERS_GAME, lambda df: {1, 2} <= set(df["winner"]))],
    ids=["no-repeat-positional", "no-repeat-positional-in-turn"])
def test_no_repeat_gives_the_reference_rows(text, played, tmp_path):
    rows = [_rows(text, seed, tmp_path, "game") for seed in (3, 4)]
    assert played(rows[0])
    # the rule acts: without it, the same seeds play otherwise
    without = _rows(text.replace("(meta (no Repeat))", "").replace(
        "(meta (no Repeat PositionalInTurn))", ""), 3, tmp_path, "without")
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(rows[0].drop(columns="seconds"),
                                      without.drop(columns="seconds"))


# Go on a small board: stones enclosed are taken, and no turn may end in a position seen
# before (a stone retaking at once where one was just taken, the ko, is left out); two
# passes end the game, the most stones winning.
KO_GAME = """
(game "Kos"
  (players 2)
  (equipment {(board (square 4) use:Vertex) (piece "Marker" Each)})
  (rules
    (meta (no Repeat))
    (play (or (move Add (to (sites Empty))
                (then (enclose (from (last To)) Orthogonal
                        (between if:(is Enemy (who at:(between))) (apply (remove (between)))))))
              (move Pass)))
    (end {(if (all Passed) (byScore {(score P1 (count Pieces P1)) (score P2 (count Pieces P2))}))
          (if (>= (count Moves) 80) (result Mover Draw))})))
"""


def test_the_positions_after_moves_are_keyed_from_the_sites_they_write(tmp_path, monkeypatch):
    """The key of the position after each move tried, kept from the sites its effects and
    consequents wrote (their journal), is the one read from every site (CHECK_INCREMENTAL);
    the rows are the reference's, and some moves are left out for a position seen."""
    import os

    from ludeme.engine.compiled import build_kernels
    path = tmp_path / "game.lud"
    path.write_text(KO_GAME)
    game = load(path)
    rows = _same_rows(game, 30, 3)
    assert rows["winner"].isin([1, 2]).any()
    without = _rows(KO_GAME.replace("(meta (no Repeat))", ""), 3, tmp_path, "without", 30)
    assert not rows.drop(columns="seconds").equals(without.drop(columns="seconds"))
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        kernels = build_kernels(game, whole=False)
        m = kernels.module
        assert m.INCREMENTAL and m.REPEAT == 1
        monkeypatch.setattr(m, "CHECK_INCREMENTAL", True)
        kernels.playouts(3, 0, 10)


# A stone placed takes every enemy stone left without a liberty, each scoring one for the
# mover ((move Remove) with its own (then ...) as a consequent, inside a (forEach Site ...)
# whose conditions read the position before any removal); three captures win.
BLOOS_GAME = """
(game "Bloos"
  (players 2)
  (equipment {(board (square 4) use:Vertex) (piece "Ball" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (forEach Site (sites Occupied by:Next)
                    (if (= (count Liberties at:(site) Orthogonal) 0)
                        (move Remove (site) (then (addScore Mover 1))))))))
    (end {(if (>= (score Mover) 3) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""

# A stone placed takes the enemy stones next to it, each scoring one for the mover ((move
# Remove) of a region as a consequent: a move per site, each with its own (then ...)); four
# captures win.
GRABBERS_GAME = """
(game "Grabbers"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (move Remove (intersection (sites Around (last To) Orthogonal)
                                             (sites Occupied by:Next))
                    (then (addScore Mover 1))))))
    (end {(if (>= (score Mover) 4) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


# A disc goes on an empty site out of sight of the last one placed (past empty sites only),
# and two of the mover's discs in sight of the last one placed win ((sites LineOfSight) as
# a region tested for a site: (is In ...) and an (intersection ...)'s second region).
SIGHTERS_GAME = """
(game "Sighters"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty) if:(not (is In (to) (sites LineOfSight Empty at:(last To)))))))
    (end {(if (>= (count Sites in:(intersection (sites Occupied by:Mover)
                                                (sites LineOfSight at:(last To)))) 2)
              (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# A disc may not go on the site just after the last one placed: the last site plus
# seventeen is made pending, past the board's sixteen sites ((set Pending) of a sum, read
# by (sites Pending)); four in a line win.
SHADOWS_GAME = """
(game "Shadows"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty) if:(not (is In (+ (to) 16) (sites Pending))))
            (then (set Pending (+ (last To) 17)))))
    (end {(if (is Line 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


def test_a_pending_sum_past_the_sites_gives_the_reference_rows(tmp_path):
    """The kernels keep pending values past the sites where one is a sum; the rule acts
    (without it the same seed plays otherwise), every playout on the kernels."""
    rows = _seeded_rows(SHADOWS_GAME, tmp_path)
    assert {1, 2} <= set(rows[0]["winner"])
    from ludeme.analysis.playouts import run_playouts
    fast = run_playouts(load(tmp_path / "game.lud"), 15, 4, jobs=1, progress=False,
                        backend="compiled")
    assert fast.attrs["playouts_by_backend"] == {"reference": 0, "compiled": 15}
    without = _rows(SHADOWS_GAME.replace(" if:(not (is In (+ (to) 16) (sites Pending)))", ""),
                    3, tmp_path, "without")
    assert not rows[0].drop(columns="seconds").equals(without.drop(columns="seconds"))


# A disc placed on the site after the last one placed (that site plus twenty is pending,
# past the board's sites) lets the mover place again, a move's effect reading the pending
# values as the move was made ((sites Pending) and (value Pending) in an (apply ...)); four
# in a line win.
ECHOES_GAME = """
(game "Echoes"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
                        (apply if:(and (is In (+ (to) 20) (sites Pending)) (> (value Pending) 20))
                                  (moveAgain)))
            (then (if (not (is Prev Mover)) (set Pending (+ (last To) 21))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# A disc placed turns the enemy discs orthogonally next to it into the mover's ((add (to
# <region> (apply (remove (to))))) as a consequent: each site's removal read before any
# placement, each site's move listed twice, as the reference lists it); four in a line win.
TURNCOATS_GAME = """
(game "Turncoats"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (add (to (intersection (sites Around (last To) Orthogonal) (sites Occupied by:Next))
                           (apply (remove (to))))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# The same over every site around, the removal only where an enemy stands ((apply if:...):
# a site's move listed twice where it holds, once elsewhere, a disc added on the empty
# sites too).
SPREADERS_GAME = """
(game "Spreaders"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (if (is Even (last To))
                      (add (to (sites Around (last To) Orthogonal)
                               (apply if:(is Enemy (who at:(to))) (remove (to)))))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""


# A square of four of the mover's discs with the last one placed wins ((sites Pattern)
# counted); after the first player's disc, the two sites in a line beyond it may not be
# taken while they are empty ((sites Pattern) with whats:, tested for a site).
SQUARERS_GAME = """
(game "Squarers"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty) if:(not (is In (to) (sites Pattern {F F} whats:{1 0}))))))
    (end {(if (>= (count Sites in:(sites Pattern {F R F R F})) 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# A disc goes a knight's leap away from the last one placed where it can, else anywhere
# empty ((leap) as the moves a (sites To ...) lists); four in a line win.
KNIGHTS_GAME = """
(game "Knights"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (priority {(move Add (to (sites To (leap (from (last To)) {{F F R F} {F F L F}}
                                                 (to if:(is Empty (to)))))))
                     (move Add (to (sites Empty)))}))
    (end {(if (is Line 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


@pytest.mark.parametrize("text,played", [
    # Both sides win by captures.
    (BLOOS_GAME, lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win by captures.
    (GRABBERS_GAME, lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (SIGHTERS_GAME, lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some turns hold two placements.
    (ECHOES_GAME, lambda df: {1, 2} <= set(df["winner"]) and (df["turns"] < df["moves"]).any()),
    # Both sides win.
    (TURNCOATS_GAME, lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (SPREADERS_GAME, lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games are drawn.
    (SQUARERS_GAME, lambda df: {0, 1, 2} <= set(df["winner"])),
    # Both sides win.
    (KNIGHTS_GAME, lambda df: {1, 2} <= set(df["winner"]))],
    ids=["move-remove-with-then-in-for-each-site", "move-remove-of-a-region-as-a-consequent",
         "line-of-sight-tested-for-a-site", "effect-reading-the-pending-values",
         "add-to-a-region-with-apply", "add-to-a-region-with-apply-if", "sites-pattern",
         "leap-listed-by-sites-to"])
def test_nrep_forms_give_the_reference_rows(text, played, tmp_path):
    assert played(_seeded_rows(text, tmp_path)[0])


# One disc shuttling between two sites, the other player with no piece: the disc's way
# back repeats the start, so (no Repeat) leaves P1 no move.
SHUTTLE_GAME = """
(game "Shuttle"
  (players 2)
  (equipment {(board (rectangle 1 2)) (piece "Disc" P1 (move Step Adjacent (to if:(is Empty (to)))))})
  (rules (meta (no Repeat))
    (start (place "Disc1" 0))
    (play (forEach Piece))
    (end (if (>= (count Moves) 10) (result Mover Draw)))))
"""


def test_no_repeat_leaving_no_move_forces_a_pass_on_both_backends(tmp_path):
    """Where (no Repeat) takes every move away, the mover passes (Ludii's
    Trial.setLegalMoves adds the pass): the reference engine raised on an empty list of
    moves; both backends now pass, both players have passed, and the game ends there."""
    path = tmp_path / "shuttle.lud"
    path.write_text(SHUTTLE_GAME)
    rows = _same_rows(load(path), 4, 1)
    assert rows["moves"].eq(3).all()
