"""BoardCoverageUsed and StateTreeComplexity (`ludeme.analysis.game_figures`) on small
hand-written games, worked out by hand, on both backends."""

import math

import pytest

from test_evaluation import TWO_CELLS      # each player in turn fills one of two cells


# 2x2 vertices (Ludii's (square 2) played on its vertices: 4 vertices, 1 cell); each player
# drops the 2 discs of its hand, so every playout covers the 4 vertices.
HAND_DROP = """
(game "Hand Drop"
    (players 2)
    (equipment {
        (board (square 2) use:Vertex)
        (piece "Disc" Each)
        (hand Each)
    })
    (rules
        (start {
            (place "Disc1" (handSite P1) count:2)
            (place "Disc2" (handSite P2) count:2)
        })
        (play (move (from (handSite Mover)) (to (sites Empty))))
        (end (if (no Moves Next) (result Mover Win)))
    )
)
"""


@pytest.mark.parametrize("text, types, used, contents, coverage, coverage_used", [
    # 2 cells; empty or one of 2 kinds: 3 contents; both cells covered
    (TWO_CELLS, {"Cell"}, 2, 3, 1.0, 1.0),
    # hands are cells, so Cell is used: 4 vertices + 1 cell; hands make counts, Ludii's
    # maxCount is the 6 sites (4 + 2 hands): 3 x 6 contents; 4 of 5 used elements covered
    (HAND_DROP, {"Cell", "Vertex"}, 5, 18, 1.0, 0.8),
])
def test_used_elements_and_complexity(tmp_path, text, types, used, contents, coverage,
                                      coverage_used):
    from ludeme.analysis.game_figures import (state_possibilities, state_tree_complexity,
                                              used_elements, used_site_types)
    from ludeme.analysis.metrics import summarize
    from ludeme.analysis.playouts import load, run_playouts
    path = tmp_path / "g.lud"
    path.write_text(text)
    game = load(path, backend="reference")
    assert used_site_types(game) == types
    assert used_elements(game) == used
    assert state_possibilities(game) == contents
    assert state_tree_complexity(game) == pytest.approx(used * math.log10(contents))
    row = summarize(run_playouts(game, 4, seed=2, jobs=1, progress=False)).iloc[0]
    assert row["BoardCoverageDefault"] == coverage
    assert row["BoardCoverageUsed"] == pytest.approx(coverage_used)
    assert row["StateTreeComplexity"] == pytest.approx(used * math.log10(contents))


def test_both_backends_give_the_same_columns(ludii):
    from ludeme.analysis.playouts import load, run_playouts
    game = load(ludii / "games" / "Tic-Tac-Toe.lud")
    fast = run_playouts(game, 40, seed=3, jobs=1, backend="compiled", progress=False)
    slow = run_playouts(game, 40, seed=3, jobs=1, backend="reference", progress=False)
    assert fast.attrs["backend"] == "compiled" and slow.attrs["backend"] == "reference"
    for column in ("board_coverage_used", "state_tree_complexity"):
        assert fast[column].tolist() == slow[column].tolist()
    # 9 cells, 3 contents each; coverage over the 9 cells, the default ones too
    assert set(fast["state_tree_complexity"]) == {9 * math.log10(3)}
    assert fast["board_coverage_used"].tolist() == fast["board_coverage"].tolist()
