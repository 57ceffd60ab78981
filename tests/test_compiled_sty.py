"""Compiled forms on a board whose pieces stand on several site types (Ludii's vertices,
edges and cells of one graph): the kernels keep each layer the game puts pieces on after
the containers, as the reference's store does (`Game.layers`). Hand-written games give the
same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import _refused_with
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _rows_agree

# Pieces on the points of the board; a piece stepping onto an enemy takes it, and the mover
# gains one of its own in hand, added to a cell numbered as the mover's hand site ((to Cell
# <a number>) names the layer of cells, and a hand's cell there), then dropped again. The
# game keeps a layer of cells that stays empty.
CAPTIVES_GAME = """
(game "Captives" (players 2)
  (equipment {(board (square 4) use:Vertex) (hand Each size:1)
    (piece "Disc" Each
      (move Step Orthogonal
        (to if:(not (is Friend (who at:(to))))
            (apply (if (is Enemy (who at:(to)))
                     (add (piece (id "Disc" Mover)) (to Cell (+ 15 (mover)))))))))})
  (rules
    (start {(place "Disc1" (sites {0 1 2 3})) (place "Disc2" (sites {12 13 14 15}))})
    (play (or (forEach Piece) (move (from (handSite Mover)) (to (sites Empty)))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 80) (result Mover Draw))})))
"""

# A disc on a point, and after it, as its consequent, a disc of the mover on a cell (the
# layer of cells, after the containers): a cell taken again keeps one piece, as the board's
# sites do.
SHADOWS_GAME = """
(game "Shadows" (players 2)
  (equipment {(board (square 4) use:Vertex) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (add (piece (id "Disc" Mover)) (to Cell (% (last To) 9))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# Discs go on the points of a board of squares ((move Add (to Vertex ...)): a decision to a
# layer's site, (sites Empty Vertex)); after each, every square beside the point is
# claimed ((claim ...) as a consequent, in a (forEach Site ...) with its (then ...)) where
# three of its corners are the mover's ((sites Occupied by:Mover on:Vertex)), or where the
# mover holds the centre point ((who Vertex at:(centrePoint Vertex))); four squares win.
CORNERS_GAME = """
(game "Corners" (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each) (piece "Square" Each)})
  (rules
    (play (move Add (piece (id "Disc" Mover)) (to Vertex (sites Empty Vertex))
            (then (forEach Site (sites Incident Cell of:Vertex at:(last To))
                    (if (or (<= 3 (count Sites in:(intersection
                                                    (sites Incident Vertex of:Cell at:(site))
                                                    (sites Occupied by:Mover on:Vertex))))
                            (and (= (mover) (who Vertex at:(centrePoint Vertex)))
                                 (is Empty (site))))
                        (claim (piece (id "Square" Mover)) (to Cell (site))))
                    (then (addScore Mover 1))))))
    (end {(if (<= 4 (count Sites in:(sites Occupied by:Mover))) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# Discs on the points, or on the cells ((move Add (to Cell (sites Empty Cell)))); a disc on a
# cell moves to another empty cell ((move (from Cell ...) (to Cell ...)): a decision between
# two sites of the layer, (sites Occupied ... on:Cell), (is Empty Cell ...)), and takes the
# disc on the cell numbered after its own ((is Occupied Cell ...), (remove Cell ...)).
TOKENS_GAME = """
(game "Tokens" (players 2)
  (equipment {(board (square 3) use:Vertex) (piece "Disc" Each)})
  (rules
    (play (or {(move Add (to (sites Empty)))
               (move Add (piece (id "Disc" Mover)) (to Cell (sites Empty Cell)))
               (move (from Cell (sites Occupied by:Mover on:Cell))
                     (to Cell (sites Empty Cell) if:(is Empty Cell (- (to) 1)))
                     (then (if (is Occupied Cell (+ (last To) 1))
                             (remove Cell (+ (last To) 1)))))}))
    (end {(if (= 3 (count Sites in:(sites Occupied by:Mover on:Cell))) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""

# Each player places discs only on empty sites hidden from them ((sites Hidden to:Mover)),
# the site shown again to the other after (a player with none left loses).
VEIL_GAME = """
(game "Veil" (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (start {(set Hidden (sites {0 2 4 6 8}) to:P1) (set Hidden (sites {1 3 4 5 7}) to:P2)})
    (play (move Add (to (intersection (sites Empty) (sites Hidden to:Mover)))
            (then (set Hidden at:(last To) False to:Next))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# Tokens on the cells of a board of points step on the cells ((move Step (from Cell) ...):
# the cells' own steps, from a (forEach Piece) that walks the layer of cells after the
# board); the enemies diagonally beside the cell reached ((sites Around Cell ...)) are
# taken, each removal's consequent ((moveAgain) while cell 4 is held) applied as it goes
# ((forEach Site ...) whose moves have consequents of their own); no token left loses
# ((count Pieces Cell ...)).
CROSSINGS_GAME = """
(game "Crossings" (players 2)
  (equipment {(board (square 4) use:Vertex)
    (piece "Token" Each
      (move Step (from Cell) Orthogonal (to Cell if:(is Empty Cell (to)))
        (then (forEach Site (sites Around Cell (last To) Diagonal)
                (if (is Enemy (who Cell at:(site)))
                  (remove Cell (site) (then (if (is Occupied Cell 4) (moveAgain)))))))))})
  (rules
    (start {(place "Token1" Cell (sites {0 1 3})) (place "Token2" Cell (sites {5 7 8}))})
    (play (forEach Piece))
    (end {(if (= 0 (count Pieces Cell Next)) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# Discs on cells (and one on a point each) move with the moves given to a (forEach Piece
# on:Cell ...): a step on the cells, or a move to a diagonal cell holding an enemy
# ((sites Around Cell ... NotEmpty Diagonal)), which its destination's effect takes first
# ((apply (remove Cell (to)))); a disc of P1 on cell 6 wins ((count Pieces Cell P1 in:...)).
DRIFT_GAME = """
(game "Drift" (players 2)
  (equipment {(board (square 4) use:Vertex) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" Cell (sites {0 1})) (place "Disc2" Cell (sites {7 8}))
            (place "Disc1" 0) (place "Disc2" 15)})
    (play (forEach Piece on:Cell
            (or (move Step (from Cell) Orthogonal (to Cell if:(is Empty Cell (to))))
                (move (from Cell)
                      (to Cell (sites Around Cell (from) NotEmpty Diagonal)
                          if:(is Enemy (who Cell at:(to)))
                          (apply (remove Cell (to))))))))
    (end {(if (= 0 (count Pieces Cell Next)) (result Mover Win))
          (if (< 0 (count Pieces Cell P1 in:(sites {6}))) (result P1 Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""

# Discs placed at random, then every site hidden from P1 ((set Hidden ...) of sites fixed
# before play, after a start rule placing pieces at random); P1 may show one of them again.
SHUFFLE_GAME = """
(game "Shuffle" (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (start {(place Random {"Disc1"} count:2) (place Random {"Disc2"} count:2)
            (set Hidden (sites Board) to:P1)})
    (play (or (move Select (from (intersection (sites Occupied by:All) (sites Hidden to:Mover)))
                (then (set Hidden at:(last To) False to:Mover)))
              (move Add (to (sites Empty)))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


@pytest.mark.parametrize("text,seeds,played", [
    (CAPTIVES_GAME, (1, 4), lambda df: df["piece_number_max_decrease"].lt(0).any()
     and df["piece_number_max_increase"].gt(0).any()),
    (SHADOWS_GAME, (1, 4), lambda df: (df["actions"] == 2 * df["moves"]).all()),
    (CORNERS_GAME, (1, 4), lambda df: (df["actions"] > df["moves"]).all()
     and df["winner"].isin([1, 2]).any()),
    (TOKENS_GAME, (1, 4), lambda df: (df["actions"] > df["moves"]).any()
     and df["winner"].isin([1, 2]).any()),
    (VEIL_GAME, (1, 4), lambda df: {1, 2} <= set(df["winner"]) and (df["moves"] <= 8).all()),
    (CROSSINGS_GAME, (1, 4), lambda df: (df["moves"] > df["turns"]).any()
     and {1, 2} <= set(df["winner"])),
    (DRIFT_GAME, (1, 4), lambda df: (df["actions"] > df["moves"]).any()
     and {1, 2} <= set(df["winner"])),
    (SHUFFLE_GAME, (1, 4), lambda df: (df["actions"] > df["moves"]).any()
     and {1, 2} <= set(df["winner"])),
], ids=["add-to-a-hand-cell-of-a-layered-board", "add-to-a-layer-of-cells",
        "move-add-and-claim-on-two-layers", "move-and-remove-on-a-layer", "sites-hidden",
        "step-on-a-layer-with-removals-going-on", "moves-given-on-a-layer",
        "hidden-start-after-random-placements"])
def test_layered_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _rows_agree(text, seeds, played, tmp_path)


@pytest.mark.parametrize("old,new,why", [
    # a placement on a layer with an effect of its own
    ("(play (move Add (to (sites Empty))",
     "(play (move Add (to Cell (sites {0 1}) (apply (addScore Mover 1)))",
     "to Cell sites, a layer of the board the game puts pieces on, with an effect"),
    # several pieces moved between sites of a layer
    ("(play (move Add (to (sites Empty))",
     "(play (or (move (from Cell 0) (to Cell 1) count:2) (move Add (to (sites Empty)))",
     "on a layer of the board the game puts pieces on, with copy:, count:"),
    # a removal from a layer at the end of the turn
    ("(remove Cell (+ (last To) 1))", "(remove Cell (+ (last To) 1) at:EndOfTurn)",
     "with level: or at:EndOfTurn"),
])
def test_layered_forms_refused(old, new, why, tmp_path):
    _refused_with(TOKENS_GAME if "remove" in new else SHADOWS_GAME, old, new, why, tmp_path)


def test_a_hidden_start_reading_the_position_after_random_placements_is_refused(tmp_path):
    _refused_with(SHUFFLE_GAME, "(set Hidden (sites Board) to:P1)",
                  "(set Hidden (sites Occupied by:P1) to:P1)",
                  "a start rule read in the position after one placing pieces at random",
                  tmp_path)


def _drift_with_board_moves(tmp_path):
    """DRIFT_GAME whose discs also step on the board: a (forEach Piece) then meets a disc on
    the layer, whose kind's moves are the board's (refused by the kernels at run time)."""
    path = tmp_path / "g.lud"
    path.write_text(DRIFT_GAME.replace(
        '(piece "Disc" Each)', '(piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))))')
        .replace("(play (forEach Piece on:Cell", "(play (or (forEach Piece) (forEach Piece on:Cell")
        .replace("(apply (remove Cell (to))))))))", "(apply (remove Cell (to)))))))))"))
    return path


def test_a_piece_on_a_layer_without_moves_of_its_type_is_refused_in_play(tmp_path):
    """A (forEach Piece) finding a piece on a layer whose kind's moves are the board's: the
    kernels refuse the position at run time, as the reference's refusals read."""
    from ludeme.api import load, new_state
    from ludeme.errors import LudemeError
    path = _drift_with_board_moves(tmp_path)
    state = new_state(load(path), 0, backend="compiled")
    with pytest.raises(LudemeError, match="forEach Piece.*of a piece on a layer"):
        state.legal_moves()


def test_a_run_reaching_a_position_the_kernels_refuse_goes_to_the_reference(tmp_path, capsys):
    """The same refusal met in a whole run's kernels: the chunk is played by the reference
    engine (said on stderr, counted as its playouts), the same rows as a reference run."""
    import pandas as pd

    from ludeme.analysis.playouts import load, run_playouts
    path = _drift_with_board_moves(tmp_path)
    game = load(path)
    ref = run_playouts(game, 6, 1, jobs=1, progress=False, backend="reference")
    fast = run_playouts(game, 6, 1, jobs=1, progress=False, backend="compiled")
    pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
    assert fast.attrs["playouts_by_backend"]["reference"] > 0
    assert "reached a position the kernels refuse" in capsys.readouterr().err


WHERE_ORDER_GAME = """
(game "Where Order"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each (move Step (to if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" {0 1 2 3}) (place "Disc2" {12 13 14 15})})
    (play (forEach Piece))
    (end (if (= (where "Disc" Mover) 5) (result Mover Win)))))
"""


def test_a_run_where_a_named_piece_stands_on_several_sites_plays_ludiis_order(tmp_path, capsys):
    """(where "Disc" Mover) with four discs a player: Ludii's answer follows its lists of
    owned pieces, which the reference engine keeps and the kernels do not, so they refuse
    the position and the reference plays those playouts: the same rows as a reference run,
    with games that end (the end rule reads the lists' first sites)."""
    import pandas as pd

    from ludeme.analysis.playouts import load, run_playouts
    path = tmp_path / "where.lud"
    path.write_text(WHERE_ORDER_GAME)
    game = load(path)
    ref = run_playouts(game, 6, 1, jobs=1, progress=False, backend="reference")
    fast = run_playouts(game, 6, 1, jobs=1, progress=False, backend="compiled")
    pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
    assert fast.attrs["playouts_by_backend"]["reference"] == 6
    assert "reached a position the kernels refuse ((where ...) with the piece on several" \
        in capsys.readouterr().err
    assert set(ref["winner"]) <= {1, 2} and not ref["timeout"].any()


def test_a_rollout_reaching_a_position_the_kernels_refuse_raises_the_refusal(tmp_path):
    """A search's rollout (`random_rollout`) meeting the same refusal raises the reference's
    refusal (a LudemeError naming it), not the kernels' ValueError."""
    import random

    from ludeme.api import load, new_state
    from ludeme.errors import LudemeError
    path = _drift_with_board_moves(tmp_path)
    state = new_state(load(path), 0, backend="compiled")
    with pytest.raises(LudemeError, match="forEach Piece.*of a piece on a layer"):
        state.random_rollout(random.Random(0), 100)
