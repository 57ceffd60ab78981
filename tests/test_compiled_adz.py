"""The playout loop of a counted game (hands counting their markers, a marker moved from a
hand or a site to another, a marker removed): the kernels read each kind's owner from a
module table (`Source.owners_table`), rt's site writes are inlined into the loop, and the
loop's state arrays are used borrowed (`rt.borrowed`: no references counted); the rows
stay the reference engine's."""

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


JIT_ROWS = """
import pandas as pd
from ludeme.analysis.playouts import compiled_of, load, run_playouts
game = load({path!r})
kernels = compiled_of(game, "compiled")
kernels.warm()
for seed in (1, 2):
    ref = run_playouts(game, 60, seed, jobs=1, progress=False, backend="reference")
    fast = run_playouts(game, 60, seed, jobs=1, progress=False, backend="compiled")
    pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
print("kernel:", type(kernels.module.playouts).__module__)
"""


def test_markers_compiled_by_numba_give_the_reference_rows(tmp_path):
    """The default suite runs the kernels as Python, where `rt.borrowed` is the array itself:
    here numba compiles them, and the playout loop runs on views that count no references
    (and the inlined site writes) and gives the reference rows."""
    import os
    import subprocess
    import sys
    _markers(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["LUDEME_CACHE_DIR"] = str(tmp_path / "cache")
    code = JIT_ROWS.format(path=str(tmp_path / "markers.lud"))
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=1200)
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.stdout.split("kernel:")[-1].strip().startswith("numba"), got.stdout
