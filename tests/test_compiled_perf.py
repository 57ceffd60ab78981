"""The playout loop's placements drawn from the empty sites (codegen `_fast_add`): a phase
whose moves are only (move Add (to (sites Empty))) draws the c-th empty site without listing
the moves, and gives the reference engine's rows; a phase whose moves are anything more is
listed as before, and gives them too."""

import pytest

from ludeme.analysis.playouts import load
from ludeme.engine.compiled.codegen import generate
from test_compiled import _same_rows, ludii_game

LINE_GAME = """
(game "Lines"
  (players 2)
  (equipment {{(board (square 4)) (piece "Disc" Each)}})
  (rules
    {meta}
    (play {play})
    (end {{(if (is Line 3) (result Mover Win)) {end}}})))
"""

ADD = "(move Add (to (sites Empty)))"


def _game(tmp_path, play=ADD, end="", meta="", name="lines.lud"):
    path = tmp_path / name
    path.write_text(LINE_GAME.format(play=play, end=end, meta=meta))
    return load(path)


def _fast(game) -> bool:
    """The game's playout loop draws its placements from the empty sites."""
    return "FAST_ADD = True" in generate(game)


@pytest.mark.parametrize("name,n", [("Tic-Tac-Toe.lud", 300), ("Yavalath.lud", 40),
                                    ("Gomoku.lud", 6)])
def test_placement_games_take_the_fast_path_and_give_the_reference_rows(name, n):
    game = ludii_game(name)
    assert _fast(game)
    for seed in (0, 7):
        _same_rows(game, n, seed)


@pytest.mark.parametrize("end,meta", [
    ("", ""),
    # sites of no symmetry of the board: a site drawn in another order than `legal` lists
    # them (the board turned half round, say) gives other rows
    ("(if (is In (last To) (sites {1 6})) (result Mover Loss))", ""),
    # a rule reading the moves the next player would have
    ("(if (no Moves Next) (result Mover Loss))", ""),
    # the swap is offered with the placements on the second decision (listed then)
    ("", "(meta (swap))"),
])
def test_a_placement_game_of_our_own_takes_the_fast_path(tmp_path, end, meta):
    game = _game(tmp_path, end=end, meta=meta)
    assert _fast(game)
    for seed in (1, 2, 3):
        df = _same_rows(game, 60, seed)
    assert df["winner"].nunique() > 1


@pytest.mark.parametrize("play", [
    # moves other than placements in the same phase, a pass among them
    f"(or {ADD} (move Remove (sites Occupied by:Enemy)))",
    f"(or {ADD} (move Pass))",
    # a consequent, a condition on the site, a piece named
    "(move Add (to (sites Empty)) (then (if (is Even (count Moves)) (moveAgain))))",
    "(move Add (to (sites Empty) if:(not (is In (to) (sites Corners)))))",
    '(move Add (piece "Disc1") (to (sites Empty)))',
    # a region other than the empty sites
    "(move Add (to (difference (sites Empty) (sites Centre))))",
])
def test_other_moves_are_listed_and_give_the_reference_rows(tmp_path, play):
    game = _game(tmp_path, play=play)
    assert not _fast(game)
    for seed in (1, 2):
        _same_rows(game, 40, seed)


PHASES_GAME = """
(game "Phases"
  (players 2)
  (equipment {(board (square 4)) (hand Each) (piece "Disc" Each (move Step (to if:(is Empty (to)))))})
  (rules
    (start (place "Disc" "Hand" count:3))
    phases:{
      (phase "Placement" (play (move Add (to (sites Empty))))
        (nextPhase Mover (= 0 (count Cell at:(handSite Mover))) "Movement"))
      (phase "Movement" (play (forEach Piece)))}
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""


def test_a_phase_of_placements_beside_a_phase_of_steps(tmp_path):
    path = tmp_path / "phases.lud"
    path.write_text(PHASES_GAME)
    game = load(path)
    generate(game)
    for seed in (1, 2):
        _same_rows(game, 30, seed)


@pytest.mark.parametrize("n", [0, 1, 16, 17, 100, 255, 256, 257, 700])
def test_repeats_finds_a_key_met_twice(n):
    import numpy as np
    from ludeme.engine.compiled import rt
    rng = np.random.default_rng(n)
    keys = rng.integers(-2**62, 2**62, size=max(n, 1), dtype=np.int64)
    scratch = np.empty(512, np.int64)
    assert not rt.repeats(keys, n, scratch)
    for i, j in ((n - 1, 0), (n // 2, n // 3), (n - 1, n - 2)):
        if 0 <= j < i:
            twice = keys.copy()
            twice[i] = twice[j]
            assert rt.repeats(twice, n, scratch)
            assert not rt.repeats(twice, i, scratch)     # the second is past the n looked at
    close = np.arange(n, dtype=np.int64) << 40           # keys the table's hash shares bits of
    assert not rt.repeats(close, n, scratch)
    if n > 1:
        close[n - 1] = close[0]
        assert rt.repeats(close, n, scratch)
