"""A game's own `(ai ... (heuristics ...))` metadata replaces Ludii's default heuristics in the
state evaluation (`ludeme.ai.evaluator.heuristic_terms`); a term not supported yet is refused
at its place, when the evaluation is asked for, and the game still plays.

The game (test_duration_actions' SCORED): each player in turn puts a disc on an empty cell of
five and scores 1 for it. After P1's first placement, P2 is to move with four moves: P1 has
1 piece and score 1, P2 none.
"""

import pytest

from ludeme.ai.evaluator import heuristic
from ludeme.errors import LudemeError
from test_duration_actions import SCORED as GAME


def _game(tmp_path, metadata: str):
    from ludeme.api import load
    path = tmp_path / "g.lud"
    path.write_text(GAME + metadata)
    return load(path, backend="reference")


@pytest.mark.parametrize("metadata, h1, h2", [
    ("", 1.0, 0.004),                                          # Ludii's defaults
    ('(metadata (ai "Scored_ai"))', 1.0, 0.004),                # a def_ai name: defaults
    ("(metadata (ai (heuristics (score))))", 1.0, 0.0),
    ("(metadata (ai (heuristics {(score weight:0.5) (material weight:3)})))", 3.5, 0.0),
    ("(metadata (ai (alphaBeta (heuristics (mobilitySimple weight:1)))))", 0.0, 4.0),
    ("(metadata (ai (heuristics {(material) (score weight:0.0001)})))", 1.0, 0.0),  # < 0.001
], ids=["none", "def-ai-name", "score", "weighted", "inside-an-agent", "below-threshold"])
def test_metadata_heuristics_replace_the_defaults(tmp_path, metadata, h1, h2):
    game = _game(tmp_path, metadata)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert heuristic(state, 1) == pytest.approx(h1, rel=1e-6)
    assert heuristic(state, 2) == pytest.approx(h2, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize("metadata, column, message", [
    ("(metadata (ai (heuristics (centreProximity))))", 27, "centreProximity"),
    ("(metadata (ai (heuristics (material pieceWeights:{(pair \"Disc1\" 2)}))))", 37,
     "not supported yet"),
], ids=["term", "argument"])
def test_unsupported_heuristics_are_refused_where_written(tmp_path, metadata, column, message):
    from ludeme.analysis.playouts import run_playouts
    game = _game(tmp_path, metadata)
    assert len(run_playouts(game, 2, seed=1, jobs=1, progress=False)) == 2   # it plays
    with pytest.raises(LudemeError, match=message) as e:
        run_playouts(game, 2, seed=1, jobs=1, progress=False, evaluation=True)
    assert e.value.pos.line == GAME.count("\n") + 1 and e.value.pos.col == column
