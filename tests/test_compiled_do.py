"""Compiled forms of `(do ...)` (Ludii's Do): the rows of hand-written games on both
backends are the same, and each game shows its rule at work."""

import pytest

from ludeme.analysis.playouts import load
from ludeme.engine.compiled import Unsupported
import test_compiled


def _discs(name: str, side: int, rules: str) -> str:
    """A game of two players' discs on a square board of `side` sites a side."""
    return (f'(game "{name}" (players 2)\n  (equipment {{(board (square {side})) '
            f'(piece "Disc" Each)}})\n  (rules {rules}))')


def _holes(name: str, rules: str) -> str:
    """A sowing game of two players on two rows of five holes, one track round them."""
    return (f'(game "{name}" (players 2)\n'
            '  (equipment {(mancalaBoard 2 5 store:None (track "Track" "0,E,N,W" loop:True))\n'
            '    (regions P1 (sites Bottom)) (regions P2 (sites Top)) (piece "Seed" Shared)})\n'
            f'  (rules {rules}))')


# As a consequent, after a setting of a variable: the next move (a sowing) and the
# (do ...)'s (then ...), which reads the variable set before the sowing.
DO_SOW_GAME = _holes("Counted Sowing", """
    (start (set Count 3 to:(sites Track)))
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (do (set Var "Taken" (count at:(last To)))
                      next:(sow apply:(if (= (count at:(to)) 4) (remove (to))))
                      (then (if (is Even (var "Taken")) (addScore Mover (var "Taken"))))))))
    (end {(if (no Moves Next) (byScore))
          (if (>= (count Moves) 80) (result Mover Draw))})
""")

# As a consequent, after a setting of a variable, with several next moves (the parts of
# an (and ...)): each of them carries the setting (an action each time).
DO_SHIFT_GAME = _discs("Shifting Row", 3, """
    (play (move Add (to (sites Empty))
            (then (do (set Var "Corner" (what at:6))
                      next:(and {(remove 6)
                                 (if (is Occupied 7) (move (from 7) (to 6)))
                                 (if (is Occupied 8) (move (from 8) (to 7)))
                                 (if (!= 0 (var "Corner")) (add (piece (var "Corner")) (to 8)))})))))
    (end {(if (is Full) (result Mover Draw))
          (if (and {(= (who at:0) (mover)) (= (who at:4) (mover)) (= (who at:8) (mover))})
              (result Mover Win))})
""")

# As a consequent, after a removal, with a next move or none: where there is none, the
# removal is not made either.
DO_CENTRE_GAME = _discs("Centre Clearing", 3, """
    (play (move Add (to (sites Empty))
            (then (do (remove 4)
                      next:(if (is Even (count Sites in:(sites Empty))) (moveAgain))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})
""")

# As moves, after pending values set from the origins of hops (`(sites From ...)`): the
# next moves are generated with them pending, and each move sets them again.
DO_PENDING_GAME = """
(game "Pending Hops"
  (players 2)
  (equipment {(board (square 5))
    (piece "Stone" Each
      (or (move Step Orthogonal (to if:(is Empty (to))))
          (move Hop Orthogonal (between if:(is Enemy (who at:(between))) (apply (remove (between))))
                (to if:(is Empty (to))))))})
  (rules
    (start {(place "Stone1" (sites Bottom)) (place "Stone2" (sites Top))})
    (play (do (set Pending (sites From (forEach Piece (move Hop Orthogonal
                                                       (between if:(is Enemy (who at:(between))))
                                                       (to if:(is Empty (to)))))))
              next:(forEach Piece)
              (then (if (is In (last From) (sites Pending)) (addScore Mover 1)))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (byScore))})))
"""

# As moves, after a removal: the next moves are generated on the position without the
# piece (its site may be taken again), which is restored afterwards.
DO_LIFT_GAME = _discs("Lifted Stones", 4, """
    (play (do (if (is Even (last To)) (remove (last To)))
              next:(move Add (to (sites Empty)))))
    (end {(if (is Line 3) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})
""")

# As an effect of a step (its (apply ...)), after a score: the score only where the
# removal is made (an enemy on the destination).
DO_CAPTURE_GAME = """
(game "Counted Captures"
  (players 2)
  (equipment {(board (square 4))
    (piece "Stone" Each
      (move Step Adjacent
        (to if:(not (is Friend (who at:(to))))
            (apply (do (addScore Mover 1) next:(remove (to)))))))})
  (rules
    (start {(place "Stone1" (sites Bottom)) (place "Stone2" (sites Top))})
    (play (forEach Piece))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 50) (byScore))})))
"""

# As consequents: a (do ...) whose next moves are another's (counted by that one's: always
# one score), and next moves that are a score or the remembered values forgotten (none
# when there are none).
DO_NESTED_GAME = _discs("Nested Counts", 3, """
    (play (or (move Add (to (intersection (sites Empty) (sites {0 2 4 6 8})))
                (then (do (remember Value (last To))
                          next:(do (set Var "N" (count Sites in:(sites Empty)))
                                   next:(addScore Mover (% (var "N") 3))))))
              (move Add (to (intersection (sites Empty) (sites {1 3 5 7})))
                (then (do (set Var "M" (count Sites in:(sites Occupied by:Mover)))
                          next:(if (is Even (var "M")) (addScore Mover 1) (forget Value All)))))))
    (end (if (is Full) (byScore)))
""")

# As moves, after a removal at (last To afterConsequence:True) (the mirrored stone of the
# last move, where it was added): each next move removes that stone, not its own.
DO_MIRROR_GAME = _discs("Mirrored Stones", 4, """
    (play (do (if (is Even (last To afterConsequence:True)) (remove (last To afterConsequence:True)))
              next:(move Add (to (sites Empty))
                     (then (if (is Empty (- 15 (last To)))
                               (add (piece (id "Disc" Mover)) (to (- 15 (last To)))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})
""")

# (site) read where no loop binds it (a (from if:...) of the phase's moves): undefined, as
# the reference reads it (no site, no seed), not a name the kernels lack.
UNBOUND_SITE_GAME = _holes("Unbound Site", """
    (start (set Count 2 to:(sites Track)))
    (play (move Select (from (sites Mover) if:(and (> (count at:(from)) 0) (< (count at:(site)) 1)))
            (then (sow))))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})
""")

# As moves after a roll, after a score (in a game with dice): the next moves with the score
# made first, and where there is none (the pieces at their track's end), a pass that makes
# it.
DO_DICE_GAME = """
(game "Dice Toll"
  (players 2)
  (equipment {(board (rectangle 1 12) {(track "Track1" "0,E" directed:True P1)
                                       (track "Track2" "11,W" directed:True P2)})
    (dice num:1) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 1})) (place "Disc2" (sites {10 11}))})
    (play (do (roll)
            next:(do (addScore Mover (count Pips))
                   next:(forEach Die if:(!= (pips) 0)
                          (forEach Piece (move (from) (to (trackSite Move steps:(pips))
                                                          if:(is Empty (to)))))))))
    (end {(if (>= (count Moves) 60) (byScore))})))
"""

# The same after a setting of a variable, which the (do ...)'s (then ...) scores: the pass
# of a turn with no move sets it and scores too.
DO_DICE_VAR_GAME = DO_DICE_GAME.replace("(do (addScore Mover (count Pips))", "(do (set Var \"R\" (count Pips))").replace(
    "if:(is Empty (to)))))))))", "if:(is Empty (to))))))\n                   (then (addScore Mover (var \"R\"))))))")

# The roll and a score as the first moves of one (do ...) (the score reads no die: the
# reference makes it before the roll is applied).
DO_ROLL_AND_GAME = DO_DICE_GAME.replace(
    "(do (roll)\n            next:(do (addScore Mover (count Pips))\n                   next:",
    "(do (and (roll) (addScore Mover (count Sites in:(sites Occupied by:Mover))))\n                   next:").replace(
    "if:(is Empty (to)))))))))", "if:(is Empty (to))))))))")

# A roll under (if ...)s with an else: P2 stops rolling after 40 moves (its dice then show
# the last faces rolled).
DO_ROLL_IF_GAME = DO_DICE_GAME.replace(
    "(do (roll)", "(do (if (= (mover) 1) (roll) (if (< (count Moves) 40) (roll)))")

# The roll's (do ...) as a branch of an (if ...): for 8 moves in 16 the players pass, and
# no roll is drawn (nor when a pass is applied).
DO_ROLL_BRANCH_GAME = DO_DICE_GAME.replace(
    "(play (do (roll)", "(play (if (= 1 (% (/ (count Moves) 8) 2)) (move Pass) (do (roll)").replace(
    "if:(is Empty (to)))))))))", "if:(is Empty (to))))))))))")


@pytest.mark.parametrize("text, seeds, played", [
    # Even counts taken score: both sides score.
    (DO_SOW_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # The row shifts (several actions a move) once its first site is taken.
    (DO_SHIFT_GAME, (3, 7), lambda df: df["actions"].gt(4 * df["moves"]).any()),
    # The centre is cleared and the mover goes on in some games.
    (DO_CENTRE_GAME, (3, 7), lambda df: df["moves"].gt(df["turns"]).any()),
    # Moves from a site that could hop score: both sides score.
    (DO_PENDING_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Stones are lifted (fewer actions than two a move) and lines still win.
    (DO_LIFT_GAME, (3, 7), lambda df: df["actions"].gt(df["moves"]).any()
     and df["winner"].gt(0).any()),
    # Captures score, for both sides.
    (DO_CAPTURE_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Scores differ (and every game fills the board).
    (DO_NESTED_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    # Lines win for both sides, some after a dozen moves (stones were removed).
    (DO_MIRROR_GAME, (3, 7), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(12).any()),
    # Sowings are played to the limit.
    (UNBOUND_SITE_GAME, (3, 7), lambda df: df["moves"].eq(60).any()),
    # Both sides win on points.
    (DO_DICE_GAME, (3, 7), lambda df: {1, 2} <= set(df["winner"])),
    (DO_DICE_VAR_GAME, (3, 7), lambda df: {1, 2} <= set(df["winner"])),
    (DO_ROLL_AND_GAME, (3, 7), lambda df: df["score_difference_maximum"].gt(0).any()),
    (DO_ROLL_IF_GAME, (3, 7), lambda df: {1, 2} <= set(df["winner"])),
    (DO_ROLL_BRANCH_GAME, (3, 7), lambda df: {1, 2} <= set(df["winner"])),
], ids=["do-set-var-then-sow-as-a-consequent", "do-set-var-then-several-moves-as-a-consequent",
        "do-removal-then-a-move-or-none-as-a-consequent", "do-set-pending-from-moves-then-moves",
        "do-removal-then-moves", "do-score-then-a-removal-as-an-effect",
        "do-nested-and-forget-as-consequents", "do-removal-after-consequences-then-moves",
        "site-read-outside-its-loops", "do-score-then-moves-or-a-pass-with-dice",
        "do-set-var-then-moves-or-a-pass-with-dice", "do-roll-and-score-then-moves",
        "do-rolls-under-ifs-then-moves", "do-roll-as-a-branch-of-an-if"])
def test_compiled_do_gives_the_reference_rows(text, seeds, played, tmp_path):
    # as test_compiled's new forms: a compiled form, the same rows, the rule at work
    test_compiled.test_new_compiled_forms_give_the_reference_rows(text, seeds, played,
                                                                   tmp_path)


def test_settings_read_again_where_a_move_is_applied_are_refused(tmp_path):
    """A (do (set Var ...) next:...) whose setting reads what the turn changes before a
    move's effects (here the moves counted) would set another value when the move is
    applied: refused, not compiled wrong."""
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "game.lud"
    path.write_text(DO_LIFT_GAME.replace("(do (if (is Even (last To)) (remove (last To)))",
                                         "(do (set Var \"N\" (count Moves))"))
    with pytest.raises(Unsupported, match="settings of variables that read what a move"):
        generate(load(path))
