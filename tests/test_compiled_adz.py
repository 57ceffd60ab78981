"""The writes of a counted game's sites on the playout's path (hands counting their markers,
a marker moved from a hand or a site to another, a marker removed): the kernels read each
kind's owner from a module table (`Source.owners_table`), and rt's site writes are inlined
into the playout loop; the rows stay the reference engine's."""

import pytest

from ludeme.analysis.playouts import load
from ludeme.engine.compiled.codegen import generate
from test_compiled import _same_rows

# Markers placed from a counted hand, then stepped; a line of three lets the mover remove
# one of the other's markers from the board.
MARKERS = """
(game "Markers"
  (players 2)
  (equipment {{
    (board (square {size}) use:Vertex)
    (piece "Marker" Each (move Step {dirs} (to if:(is Empty (to)))
                           (then (if (is Line 3 Orthogonal) (moveAgain)))))
    (hand Each)}})
  (rules
    (start (place "Marker" "Hand" count:{markers}))
    phases:{{
      (phase "Placement"
        (play (if (is Prev Mover)
                  (move Remove (sites Occupied by:Next container:"Board"))
                  (move (from (handSite Mover)) (to (sites Empty))
                        (then (if (is Line 3 Orthogonal) (moveAgain))))))
        (nextPhase Mover (= 0 (count Cell at:(handSite Mover))) "Movement"))
      (phase "Movement"
        (play (if (is Prev Mover)
                  (move Remove (sites Occupied by:Next container:"Board"))
                  (forEach Piece))))}}
    (end (if (<= (count Pieces Next) {lose_at}) (result Mover Win)))))
"""


def _markers(tmp_path, size=3, dirs="", markers=4, lose_at=2):
    path = tmp_path / "markers.lud"
    path.write_text(MARKERS.format(size=size, dirs=dirs, markers=markers, lose_at=lose_at))
    return load(path)


def test_a_counted_move_reads_its_owners_from_a_table(tmp_path):
    module = generate(_markers(tmp_path))
    assert "site_move_counted(who, what, count, 0, T" in module
    assert "np.array([0, 1, 2]" not in module.split("def effects(")[1]


@pytest.mark.parametrize("size,dirs,markers,lose_at", [
    (3, "", 4, 2),
    (3, "Orthogonal", 4, 2),
    (4, "Orthogonal", 5, 2),
    (3, "", 3, 1),
])
def test_markers_give_the_reference_rows(tmp_path, size, dirs, markers, lose_at):
    game = _markers(tmp_path, size, dirs, markers, lose_at)
    rows = None
    for seed in (1, 2, 3):
        rows = _same_rows(game, 40, seed)
    # lines were made (a removal is one decision more than the moves of a turn each) and
    # both players won some
    assert rows["winner"].nunique() > 1
