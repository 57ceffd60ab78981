"""Compiled forms of (forEach Value ...): hand-written games give the same rows on both
backends, and the rule they exercise acts."""

import pytest

from test_compiled import test_new_compiled_forms_give_the_reference_rows as _reference_rows

# A disc placed removes the opponent's discs as many sites past it as the opponent has
# discs, or fewer ((forEach Value) as a consequent, over bounds read in play, its removals
# reading the position before any); four in a line win, thirty moves draw.
SWEEPERS_GAME = """
(game "Sweepers"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Value min:1 max:(count Pieces Next)
                   (if (and (< (+ (last To) (value)) 16) (is Enemy (who at:(+ (last To) (value)))))
                       (remove (+ (last To) (value))))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""

# A disc goes on the first empty sites of a list of them, some twice ((forEach Value) over
# an int array: the moves in its order, repeats kept); three in a line win.
ORDERLIES_GAME = """
(game "Orderlies"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (forEach Value (array {5 2 9 5 0 15 1 14 3 12 4 11 6 10 7 8 13})
            (if (is Empty (value)) (move Add (to (value))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# A disc placed removes the opponent's discs orthogonally next to it at a lower site
# ((forEach Value) over an int array as a consequent); four in a line win.
NEIGHBOURS_GAME = """
(game "Neighbours"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Value (array (sites Around (last To) Orthogonal))
                   (if (and (is Enemy (who at:(value))) (< (value) (last To)))
                       (remove (value)))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""

# A disc goes on an empty site remembered earlier, the list's first such sites first (one
# remembered twice, twice), the value then forgotten once; or anywhere empty, remembering
# two sites reckoned from it ((forEach Value) over remembered values, in their order).
RECALLERS_GAME = """
(game "Recallers"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (or (forEach Value (values Remembered)
                (if (is Empty (value)) (move Add (to (value)) (then (forget Value (last To))))))
              (move Add (to (sites Empty))
                (then (and (remember Value (% (+ (last To) 5) 16))
                           (remember Value (% (* (last To) 3) 16)))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# A disc goes on an empty site among a few from the mover's count of discs, where fewer than
# two enemies are next to it ((value) over computed bounds read by a helper kernel), or on a
# site the opponent's placements had the mover remember ((forEach Value) over an (if ...) of
# two remembered lists), or anywhere empty.
TALLYMEN_GAME = """
(game "Tallymen"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (or {(forEach Value min:(count Pieces Mover) max:(+ 6 (count Pieces Mover))
                 (if (and (is Empty (value))
                          (< (count Sites in:(intersection (sites Occupied by:Enemy)
                                                           (sites Around (value) Orthogonal))) 2))
                     (move Add (to (value)))))
               (forEach Value (if (is Mover P1) (values Remembered "A") (values Remembered "B"))
                 (if (is Empty (value)) (move Add (to (value)))))
               (move Add (to (sites Empty))
                 (then (if (is Mover P1) (remember Value "B" (% (* 7 (last To)) 25))
                                         (remember Value "A" (% (* 3 (last To)) 25)))))}))
    (end {(if (is Line 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# Three discs of either player on four sites of a corner (one listed twice, counted once)
# win for the mover ((count Cell in:<region>)).
CORNER_COUNTS_GAME = """
(game "Corner Counts"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))))
    (end {(if (>= (count Cell in:(sites {0 0 1 4 5})) 3) (result Mover Win))
          (if (is Line 4) (result Mover Loss))
          (if (no Moves Next) (result Mover Draw))})))
"""


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win, and some games run past the sixteen placements a full board allows
    # (discs were removed).
    (SWEEPERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 16),
    # Both sides win.
    (ORDERLIES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games run past the sixteen placements (discs were removed).
    (NEIGHBOURS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 16),
    # Both sides win (the order of the moves from remembered sites matters to the rows).
    (RECALLERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games are drawn.
    (TALLYMEN_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Both sides win, every game before the board is full (the corner's count ends it).
    (CORNER_COUNTS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(16).all())],
    ids=["for-each-value-as-a-consequent", "for-each-value-over-an-int-array",
         "for-each-value-over-an-int-array-as-a-consequent",
         "for-each-value-over-remembered-values",
         "for-each-value-read-by-a-helper-and-over-an-if-of-arrays", "count-cell-in-a-region"])
def test_fev_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _reference_rows(text, seeds, played, tmp_path)


# Every move remembers a site, and a rule reads the remembered values in their order, so the
# kernels keep that order in a table of 4 x 4 + 16 values; the game ends after LIMIT moves.
HOARDERS_GAME = """
(game "Hoarders"
  (players 2)
  (equipment {(board (square 2)) (piece "Disc" Each)})
  (rules
    (play (or {(forEach Value (values Remembered)
                 (if (and (is Empty (value)) (> (count Moves) 40)) (move Add (to (value)))))
               (move Add (to (sites Empty)) (then (remember Value (last To))))
               (move Remove (sites Occupied by:Mover) (then (remember Value (last From))))}))
    (end (if (>= (count Moves) LIMIT) (result Mover Win)))))
"""


@pytest.mark.parametrize("limit,by_reference", [(20, 0), (60, 30)])
def test_a_playout_outgrowing_the_kernels_tables_is_played_by_the_reference_engine(
        limit, by_reference, tmp_path, capsys):
    """Past the 32 values the kernels keep in order, a playout's chunk is played by the
    reference engine (said once on stderr, by the run), with the same rows; short of it, by the kernels."""
    import pandas as pd

    from ludeme.api import load
    from ludeme.analysis.playouts import run_playouts
    path = tmp_path / "game.lud"
    path.write_text(HOARDERS_GAME.replace("LIMIT", str(limit)))
    game = load(path)
    ref = run_playouts(game, 30, 3, jobs=1, progress=False, backend="reference")
    fast = run_playouts(game, 30, 3, jobs=1, progress=False, backend="compiled")
    pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
    assert ref["moves"].eq(limit).all()
    assert fast.attrs["playouts_by_backend"] == {"reference": by_reference,
                                                 "compiled": 30 - by_reference}
    assert ("outgrew the kernels' tables" in capsys.readouterr().err) == bool(by_reference)


CROWDED = """
(game "Crowded"
  (players 2)
  (equipment {(board (square 2)) (piece "Disc" Each)})
  (rules
    (play (forEach Value min:1 max:100 (move Add (to (sites Empty)))))
    (end (if (is Full) (result Mover Draw)))))
"""


def test_a_state_lists_more_moves_than_the_kernels_buffers_hold(tmp_path):
    """A compiled state whose moves outgrow its move buffers (64 per site) lists them again
    into longer ones: the same moves as the reference (Lifeline lists 15,318 at its start)."""
    from ludeme.api import load, new_state
    path = tmp_path / "game.lud"
    path.write_text(CROWDED)
    game = load(path)
    ref, fast = (new_state(game, 0, backend=b) for b in ("reference", "compiled"))
    assert type(fast).__name__ == "CompiledState"
    moves = [str(m) for m in ref.legal_moves()]
    assert len(moves) == 400 and [str(m) for m in fast.legal_moves()] == moves


def test_a_rollout_through_more_moves_than_the_buffers_hold_goes_on(tmp_path):
    """A search's rollout (`random_rollout`) that meets a state with more moves than the
    buffers hold grows them and plays on: the same moves and draws as the reference's loop."""
    import random

    from ludeme.api import load, new_state
    path = tmp_path / "game.lud"
    path.write_text(CROWDED)
    game = load(path)
    for seed in range(3):
        ref, fast = (new_state(game, 0, backend=b) for b in ("reference", "compiled"))
        fast.kernels.buffers = [b[:8].copy() for b in fast.kernels.buffers]   # as at start
        r1, r2 = random.Random(seed), random.Random(seed)
        played = 0
        while not ref.is_terminal():
            legal = ref.legal_moves()
            ref.apply(legal[r1.randrange(len(legal))])
            played += 1
        assert fast.random_rollout(r2, 100) == played == 4
        assert len(fast.kernels.buffers[0]) >= 400
        assert fast.returns() == ref.returns() and r1.random() == r2.random()


def test_a_rollout_that_raises_leaves_the_generator_after_its_draws(tmp_path, monkeypatch):
    """A rollout raising part way (here a position refused at run time after three draws)
    still puts the kernels' generator back into the caller's `random.Random`: the caller goes
    on after the draws made, as a loop in Python would."""
    import random

    from ludeme.api import load, new_state
    from ludeme.engine.compiled import rt
    from ludeme.engine.compiled.unsupported import RUN_REFUSAL
    from ludeme.errors import LudemeError
    path = tmp_path / "game.lud"
    path.write_text(CROWDED)
    fast = new_state(load(path), 0, backend="compiled")

    def rollout(*args):
        mt = args[9]
        for _ in range(3):
            rt.rand_below(mt, 10)
        raise ValueError(RUN_REFUSAL + "a test's position")

    monkeypatch.setattr(fast.m, "rollout", rollout)
    drawn, expected = random.Random(5), random.Random(5)
    with pytest.raises(LudemeError, match="a test's position is not supported yet"):
        fast.random_rollout(drawn, 100)
    for _ in range(3):
        expected.randrange(10)
    assert drawn.random() == expected.random()
