"""Compiled forms of ranked moves ((max Moves ...), (max Captures ...)) where the moves
ranked are tested or extended by the moves around them: hand-written games give the same
rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import NEXT_HOPS_GAME
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _rows_agree

# The hops of NEXT_HOPS_GAME over any enemy piece; a side's first decision of a turn is one
# of the moves beginning the longest chain of hops, a step, or, late, a pass (PLAY below).
_RANKED = NEXT_HOPS_GAME.replace('"Next Hops"', '"Ranked"').replace(
    "(= (who at:(between)) (next))", "(is Enemy (who at:(between)))").replace(
    '("HopOn" (last To))\n              (forEach Piece)))',
    '(max Moves ("HopOn" (last To)))\n              PLAY))').replace(
    "(no Moves Next)", "(no Pieces Next)")


def _ranked(play: str, end: str = "") -> str:
    assert "PLAY" in _RANKED
    text = _RANKED.replace("PLAY", play)
    return text.replace("(end {", "(end {" + end) if end else text


# The (then ...) of the moves around those ranked follows each of them: a side scoring
# twelve first decisions ends the game in a draw.
AROUND_THEN_GAME = _ranked(
    "(or {(max Moves (forEach Piece)) (if (< 30 (count Moves)) (move Pass))}\n"
    "                  (then (addScore Mover 1)))",
    "(if (<= 12 (score Mover)) (result Mover Draw))\n          ")

# The moves ranked are tested afterwards ((do ... ifAfterwards:)): none may end in a corner.
TESTED_AFTER_GAME = _ranked(
    "(do (max Moves (forEach Piece))\n"
    "                  ifAfterwards:(not (is In (last To) (sites Corners))))")

# The moves ranked are the next moves of a (do ...) after a setting of a variable, which
# each carries (the turns counted in it: the twenty-fourth turn ends the game in a draw).
AFTER_SETTING_GAME = _ranked(
    '(do (set Var "turns" (+ 1 (var "turns"))) next:(max Moves (forEach Piece)))',
    '(if (<= 24 (var "turns")) (result Mover Draw))\n          ')


def _chains(df) -> bool:
    """Some turns hold several decisions."""
    return (df["moves"] > df["turns"]).any()


def _early_draws(df) -> bool:
    """Some turns hold several decisions, some games end in a draw before the move limit."""
    return _chains(df) and (df["moves"].lt(40) & df["winner"].eq(0)).any()


@pytest.mark.parametrize("text,seeds,played", [
    (AROUND_THEN_GAME, (3, 4), _early_draws),
    # Both sides win.
    (TESTED_AFTER_GAME, (3, 4), lambda df: _chains(df) and {1, 2} <= set(df["winner"])),
    (AFTER_SETTING_GAME, (3, 4), _early_draws)],
    ids=["max-moves-inside-a-then", "max-moves-tested-afterwards",
         "max-moves-after-a-setting"])
def test_moves_ranked_inside_other_moves_give_the_reference_rows(text, seeds, played,
                                                                 tmp_path):
    _rows_agree(text, seeds, played, tmp_path)
