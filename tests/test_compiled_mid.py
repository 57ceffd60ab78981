"""Leaner kernels for the mid-speed games, each checked on a hand-written game that takes the
path sped up: the rows stay the reference engine's, and the generated module shows the path
taken (a copy of the state made only of the arrays read through it, a (no Moves Next)
probe inlined into the turn, the sandwiches of an (append (custodial ...)) tried as they
are found, a first move's buffer made once)."""

import re

import pytest

from ludeme.analysis.playouts import load
from ludeme.engine.compiled.codegen import generate
from test_compiled import _same_rows

# Discs placed where they flank enemy discs, which turn over; the scores are the discs of
# each state, counted after every placement.
FLIP_GAME = """
(game "Flip Squares"
  (players 2)
  (equipment {{
    (board (square 4))
    (piece "Disc" Neutral (flips 1 2))
  }})
  (rules
    (start {{
      (place "Disc0" (sites {{5 10}}) state:1)
      (place "Disc0" (sites {{6 9}}) state:2)
    }})
    (play (forEach Site (sites Empty)
      (append
        (custodial (from (site))
          (between if:(is Enemy (state at:(between)))
            (apply (allCombinations (add (piece "Disc0" state:(mover)) (to (site)))
                                    (flip (between)))))
          (to if:(is Friend (state at:(to)))))
        (then (and
          (set Score P1 (count Sites in:(sites State 1)))
          (set Score P2 {second}))))))
    (end {{(if (all Passed) (byScore)) {end}}})))
"""

# P2's score counted on the position the (and ...) starts from: it reads P1's score, which
# the first part writes (the parts of an (and ...) are made on one position).
READS_FIRST = "(count Sites in:(sites State (- (score P1) 3)))"

_FULL_COPY = "who_0, what_0, count_0, sc_0, phase_0 = who.copy()"


def _kernel(module: str, name: str) -> str:
    """The text of one kernel of a generated module."""
    return re.search(rf"^def {name}\(.*?(?=^@njit|\Z)", module, re.M | re.S).group(0)


def _flip_game(tmp_path, second="(count Sites in:(sites State 2))", end=""):
    path = tmp_path / "flip.lud"
    path.write_text(FLIP_GAME.format(second=second, end=end))
    return load(path)


def test_scores_counted_together_read_the_position_without_a_copy(tmp_path):
    game = _flip_game(tmp_path)
    module = generate(game)
    # the second count's kernel reads the piece states, which the first part does not write
    assert ".copy()" not in _kernel(module, "consequents")
    # the flips read the board and the states before the placement: those two copied only
    assert "what_0, sc_0 = what.copy(), sc.copy()" in _kernel(module, "effects")
    assert _FULL_COPY not in module
    # the flips are tried as the scan finds them, in a list made nowhere; the buffer of the
    # first move made once per listing, not at each empty site
    assert "cbuf" not in _kernel(module, "first_move_0")
    legal = _kernel(module, "legal")
    assert legal.count("np.empty(2, np.int64)") == 1
    assert legal.splitlines()[1].strip().endswith("= np.empty(2, np.int64)")
    for seed in (0, 3):
        df = _same_rows(game, 40, seed)
    assert df["winner"].nunique() > 1


def test_a_count_reading_what_the_first_part_wrote_reads_a_copy(tmp_path):
    game = _flip_game(tmp_path, second=READS_FIRST)
    assert _FULL_COPY in _kernel(generate(game), "consequents")
    for seed in (0, 3):
        _same_rows(game, 40, seed)


# A flip only where the next player would still have a move: the kernel that finds the
# first flip calls `no_moves`, which calls it in turn.
_ASKS_NO_MOVES = ("(between if:(is Enemy (state at:(between)))",
                  "(between if:(and (is Enemy (state at:(between))) (not (no Moves Next)))")


@pytest.mark.parametrize("end,asks,inlined", [
    ("(if (no Moves Next) (result Mover Win))", False, True),
    ("(if (no Moves Next) (result Mover Win))", True, False),
])
def test_no_moves_is_inlined_where_no_kernel_it_calls_calls_it(tmp_path, end, asks, inlined):
    text = FLIP_GAME.format(second="(count Sites in:(sites State 2))", end=end)
    if asks:
        text = text.replace(*_ASKS_NO_MOVES)
    path = tmp_path / "flip.lud"
    path.write_text(text)
    game = load(path)
    module = generate(game)
    assert ('inline="always")\ndef no_moves(' in module) == inlined
    assert ('inline="always")\ndef legal_any(' in module) == inlined
    _same_rows(game, 40, 1)
