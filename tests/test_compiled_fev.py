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


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win, and some games run past the sixteen placements a full board allows
    # (discs were removed).
    (SWEEPERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 16)],
    ids=["for-each-value-as-a-consequent"])
def test_fev_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _reference_rows(text, seeds, played, tmp_path)
