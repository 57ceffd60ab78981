"""Compiled forms of sowing, (forEach Value ...), values and int arrays: hand-written games
give the same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import _same_rows
from ludeme.analysis.playouts import load

# A disc goes where fewer than two of the mover's discs are orthogonally next to it (the
# sum of (results ...)); a group of four wins ((max (sizes Group ...))), sixteen discs
# placed lose ((size Array (values Remembered))).
TALLIES_GAME = """
(game "Tallies"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
            if:(< (+ (results from:(to) to:(sites Around (to) Orthogonal)
                          (if (is Mover (who at:(to))) 1 0)))
                  2))
           (then (remember Value (last To)))))
    (end {(if (>= (max (sizes Group Orthogonal Mover)) 4) (result Mover Win))
          (if (>= (size Array (values Remembered)) 16) (result Mover Loss))
          (if (no Moves Next) (result Mover Loss))})))
"""

# A disc goes on the first empty site past as many as the mover holds on the first row
# ((arrayValue ...), (intersection ...)), or where the mover's neighbours are fewer than
# the least of an array made by (union ...) and (difference ...) ((count Value ...)).
FIRSTS_GAME = """
(game "Firsts"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
            if:(or (= (to) (arrayValue (array (sites Empty))
                              index:(size Array (intersection (array (sites Occupied by:Mover))
                                                              (array (sites Row 0))))))
                   (< (count Value (mover) in:(results from:(to) to:(sites Around (to))
                                                        (who at:(to))))
                      (min (difference (union (array {3 2 2})
                                              (array {(count Sites in:(sites Occupied by:Next))}))
                                       (array {2}))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win; some games end with the board blocked before any group of four.
    (TALLIES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games run past the first few placements.
    (FIRSTS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 6)],
    ids=["int-arrays-of-results-and-groups", "int-arrays-combined"])
def test_sow_area_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    path = tmp_path / "game.lud"
    path.write_text(text)
    game = load(path)
    from ludeme.engine.compiled.codegen import generate
    generate(game)                  # it has a compiled form
    rows = [_same_rows(game, 40 if i == 0 else 15, seed) for i, seed in enumerate(seeds)]
    assert played(rows[0])
