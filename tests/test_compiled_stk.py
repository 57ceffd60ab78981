"""Compiled forms of stacks and levels: each hand-written game has a compiled form, and its
rows are the same on both backends for a few seeds (the rule shown at work)."""

import pytest

# (imported under another name, so that it is not collected here a second time)
from test_compiled import test_new_compiled_forms_give_the_reference_rows as \
    gives_the_reference_rows

# Levels: a piece of any level of a stack steps ((move Step (from ... level:(level))) under
# (forEach Piece)), taking the enemy pieces of the stack it lands on ((forEach Level) as the
# destination's effect, (remove ... level:)), or jumps to an empty site, the mover's pieces
# of the stack left following it ((forEach Level) as a consequent, (fromTo (from ...
# level:))); the second level of one's own stack may be given up ((move Remove ... level:)).
LEVELS_GAME = """
(game "Levels"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (or
      (move Step (from (from) level:(level)) Orthogonal
        (to if:(< (size Stack at:(to)) 3)
          (apply (forEach Level (to) FromTop
            (if (= (who at:(to) level:(level)) (next)) (remove (to) level:(level)))))))
      (move (from (from) level:(level)) (to (sites Empty))
        (then (forEach Level (last From) FromTop
          (if (= (who at:(last From) level:(level)) (mover))
            (fromTo (from (last From) level:(level)) (to (last To)))))))))})
  (rules
    (start {(place Stack "Disc1" (sites Bottom) count:2) (place Stack "Disc2" (sites Top) count:2)})
    (play (or (forEach Piece)
              (move Remove (sites Occupied by:Mover) level:1)))
    (end {(if (= 0 (count Pieces Next)) (result Mover Win))})))
"""

# Selections on stacks: a stack is selected with a neighbour ((move Select) in a stacking
# game), its top piece moved there ((fromTo ... count: stack:True) as a consequent) and a
# piece of the mover's pushed back on it ((add (to ...) stack:True) without a piece).
SELECT_GAME = """
(game "Select Towers"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (start {(place Stack "Disc1" 0 count:2) (place Stack "Disc2" 15 count:2)})
    (play (move Select (from (sites Occupied by:Mover))
            (to (sites Around (from) Orthogonal) if:(< (size Stack at:(to)) 4))
            (then (and (fromTo (from (last From)) (to (last To)) count:1 stack:True)
                       (add (to (last From)) stack:True)))))
    (end {(if (= 0 (count Pieces Next)) (result Mover Win))
          (if (<= 6 (count Sites in:(sites Occupied by:Mover))) (result Mover Win))})))
"""

# Hands of stacks on a board of vertices: a hand's cells named with their type ((from Cell
# ... level:(topLevel Cell ...)), (to Cell ...) of a consequent's (fromTo ...), (size Stack
# Cell ...)); an enemy stack is taken whole where the mover has no piece in it ((where
# Level ...)); a side wins when the other has none left on the board at any level ((where
# <what>) in a stacking game).
HAND_STACKS_GAME = """
(game "Hand Stacks"
  (players 2)
  (equipment {(board (square 3) use:Vertex) (hand Each) (piece "Disc" Each)})
  (rules
    (start {(place Stack "Disc1" (handSite P1) count:4) (place Stack "Disc2" (handSite P2) count:4)})
    (play (or {
      (move (from Cell (handSite Mover) level:(topLevel Cell at:(handSite Mover)))
            (to (sites Empty)))
      (forEach Piece (move Step (to if:(and (is Friend (who at:(to))) (< (size Stack at:(to)) 3)))))
      (move Select (from (sites Occupied by:Mover))
        (to (sites Around (from)) if:(and (is Enemy (who at:(to)))
                                          (= -1 (where Level (id "Disc" Mover) at:(to)))))
        (then (fromTo (from (last To)) (to Cell (handSite Mover)) stack:True)))}))
    (end {(if (and (= -1 (where (id "Disc" Next))) (> 4 (size Stack Cell at:(handSite Next))))
              (result Mover Win))})))
"""

# States on stacks: each level keeps its piece's state ((set State ... level:), (state ...
# level:)); a piece moved from a level keeps its own, a top piece stepping takes the one
# its new level was left with (Ludii's ChunkStack); an enemy piece goes on its third hit.
STATES_GAME = """
(game "Stack States"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (or
      (move (from (from) level:(level))
        (to (sites Around (from) Orthogonal) if:(< (size Stack at:(to)) 3))
        (then (set State at:(last To) (% (+ 1 (state at:(last To))) 3))))
      (move Step Orthogonal (to if:(is Enemy (who at:(to))))
        (then (forEach Level (last To) FromTop
          (if (is Enemy (who at:(last To) level:(level)))
            (if (= 2 (state at:(last To) level:(level)))
              (remove (last To) level:(level))
              (set State at:(last To) level:(level) (+ 1 (state at:(last To) level:(level)))))))))))})
  (rules
    (start {(place Stack "Disc1" (sites Bottom) count:2) (place Stack "Disc2" (sites Top) count:2)})
    (play (forEach Piece))
    (end {(if (= 0 (count Pieces Next)) (result Mover Win))})))
"""

# Rings over discs: a disc of any level moves under a lone ring, or a new one is slid under
# it ((to ... level:0) of a move and of (move Add ...); (sites Occupied by:All component:)
# in a stacking game); three of the mover's discs under rings win.
RINGS_GAME = """
(game "Rings Over"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (move (from (from) level:(level))
      (to (sites Occupied by:All component:"Ring") level:0 if:(= 1 (size Stack at:(to))))))
    (piece "Ring" Each (move Step Orthogonal (to if:(is Empty (to)))))})
  (rules
    (start {(place "Ring1" (sites {0 5 10})) (place "Ring2" (sites {15 6 9}))
            (place "Disc1" 3) (place "Disc2" 12)})
    (play (or (forEach Piece)
              (move Add (piece (id "Disc" Mover))
                (to (sites Occupied by:All component:"Ring") level:0
                    if:(= 1 (size Stack at:(to)))) stack:True)))
    (end {(if (<= 3 (count Sites in:(sites Occupied by:Mover component:"Disc" top:False)))
              (result Mover Win))})))
"""

# Towers crowned: a tower of pawns reaching the far row is crowned, its top piece a king
# ((promote ...) as a consequent in a stacking game). A pawn crowned alone on its site stays
# in Ludii's list of owned pieces and goes on moving: such a game's (forEach Piece) walks
# those lists, which the kernels do not keep (`test_a_stacking_game_that_promotes_...`).
KINGS_GAME = """
(game "Tower Kings"
  (players {(player N) (player S)})
  (equipment {(board (square 4))
    (piece "Pawn" Each (move Step Forwards
      (to if:(not (is Friend (who at:(to))))
        (apply (if (is Enemy (who at:(to))) (remove (to) count:(size Stack at:(to))))))
      stack:True
      (then (if (is In (last To) (sites Mover "Far")) (promote (last To) (piece "King") Mover)))))
    (piece "King" Each (move Step
      (to if:(not (is Friend (who at:(to))))
        (apply (if (is Enemy (who at:(to))) (remove (to) count:(size Stack at:(to))))))
      stack:True))
    (regions "Far" P1 (sites Top)) (regions "Far" P2 (sites Bottom))})
  (rules
    (start {(place Stack "Pawn1" (sites Bottom) count:2) (place Stack "Pawn2" (sites Top) count:2)})
    (play (forEach Piece top:True))
    (end {(if (= 0 (count Pieces Next)) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# Lines through stacks: a line of three stacks holding the mover's discs at any level ((is
# Line ...) in a stacking game).
LINES_GAME = """
(game "Stacked Lines"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Board) if:(< (size Stack at:(to)) 3)) stack:True))
    (end {(if (is Line 3 Orthogonal) (result Mover Win))})))
"""

# Near lines: each disc goes at most two steps from the last one ((count Steps Cell ...) on
# a board of cells: the board's own type named).
NEAR_GAME = """
(game "Near Lines"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty) if:(>= 2 (count Steps Cell Orthogonal (last To) (to))))))
    (end {(if (is Line 3) (result Mover Win))})))
"""

# Dice towers: a piece of any level of a stack moves by a die ((from ... level:) inside
# (forEach Die ...): the move's extra keeps the die's tag and the level).
DICE_TOWERS_GAME = """
(game "Dice Towers"
  (players 2)
  (equipment {(board (rectangle 1 10) {(track "Track1" "0,E" directed:True P1)
                                       (track "Track2" "9,W" directed:True P2)})
    (dice num:2) (piece "Disc" Each)
    (regions "Home" P1 (sites {7 8 9})) (regions "Home" P2 (sites {0 1 2}))})
  (rules
    (start {(place Stack "Disc1" 0 count:3) (place Stack "Disc2" 9 count:3)})
    (play (do (if (or (!= (mover) (prev)) (all DiceUsed)) (roll))
            next:(forEach Die if:(!= (pips) 0)
                   (forEach Piece (move (from (from) level:(level))
                                        (to (trackSite Move steps:(pips))
                                            if:(not (is Enemy (who at:(to)))))))
                   (then (if (not (all DiceUsed)) (moveAgain))))))
    (end {(if (= 3 (count Pieces Mover in:(sites Mover "Home"))) (result Mover Win))})))
"""

# Marked levels: a piece of any level is selected to raise its state ((move Select (from ...
# level:)), (last LevelTo)); a stack of three on a twice-marked bottom piece wins.
MARKED_GAME = STATES_GAME.replace("""(move Step Orthogonal (to if:(is Enemy (who at:(to))))
        (then (forEach Level (last To) FromTop
          (if (is Enemy (who at:(last To) level:(level)))
            (if (= 2 (state at:(last To) level:(level)))
              (remove (last To) level:(level))
              (set State at:(last To) level:(level) (+ 1 (state at:(last To) level:(level)))))))))""",
                                  """(if (< (state at:(from) level:(level)) 2)
        (move Select (from (from) level:(level))
          (then (set State at:(last To) level:(last LevelTo)
                  (+ 1 (state at:(last To) level:(last LevelTo)))))))""").replace(
    "(end {(if (= 0 (count Pieces Next)) (result Mover Win))})",
    "(end {(if (and (= 3 (size Stack at:(last To))) (= 2 (state at:(last To) level:0)))\n"
    "              (result Mover Win))})")

# Answer a pass: after a pass the next player must place ((was Pass) in the moves and in an
# end rule).
PASS_GAME = """
(game "Answer a Pass"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (if (was Pass)
            (move Add (to (sites Empty)))
            (or (move Add (to (sites Empty))) (move Pass))))
    (end {(if (is Line 3) (result Mover Win))
          (if (and (was Pass) (= 2 (count Sites in:(sites Empty)))) (result Mover Loss))})))
"""

# Hand picks: a disc comes from the mover's hand, the sites of the hand less its empty ones
# ((sites Hand ...) and (sites Empty <container>) as regions read by (difference ...)).
HAND_PICKS_GAME = """
(game "Hand Picks"
  (players 2)
  (equipment {(board (square 3)) (hand Each size:3)
    (piece "Disc" Each (move Step (to if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" (sites Hand P1)) (place "Disc2" (sites Hand P2))})
    (play (or (move (from (difference (sites Hand Mover) (sites Empty (mover))))
                    (to (sites Empty)))
              (forEach Piece)))
    (end {(if (is Line 3) (result Mover Win))})))
"""


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win by taking every enemy piece, some levels taken at once.
    (LEVELS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(-1).any()),
    # The same, the mover's own pieces given up from any level of its stacks ((forEach
    # Level) listing the moves of each level, (move Remove ... level:(level))).
    (LEVELS_GAME.replace("(move Remove (sites Occupied by:Mover) level:1)",
                         "(forEach Site (sites Occupied by:Mover) (forEach Level (site) "
                         "(if (and (< 0 (level)) (= (who at:(site) level:(level)) (mover))) "
                         "(move Remove (site) level:(level)))))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, on boards of more than the four pieces they start with.
    (SELECT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number"].gt(8).all()),
    # The same, the whole stack moved ((fromTo ... stack:True) without count:).
    (SELECT_GAME.replace(" count:1 stack:True", " stack:True"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (HAND_STACKS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (STATES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # The piece pushed back goes under the stack, or second from the bottom ((add (to ...
    # level:)) as a consequent).
    (SELECT_GAME.replace("(add (to (last From)) stack:True)",
                         "(add (to (last From) level:(% (count Moves) 2)))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    # A piece may be slid under an enemy stack instead ((move Add (to ... level:0))).
    (SELECT_GAME.replace("(play (move Select", "(play (or (move Add (to (sites Occupied "
                         "by:Next) if:(< (size Stack at:(to)) 3) level:0)) (move Select")
     .replace("stack:True)))))", "stack:True))))))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, some after discs moved from ring to ring.
    (RINGS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(6).any()),
    # Both sides win; some games go on past the 24 steps the pawns alone can make.
    # Both sides win.
    (LINES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Stacks of three do not count past the pivot (if:), at any level or the top's alone.
    (LINES_GAME.replace("(is Line 3 Orthogonal)",
                        "(is Line 3 Orthogonal if:(> 3 (size Stack at:(to))))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    (LINES_GAME.replace("(is Line 3 Orthogonal)",
                        "(is Line 3 Orthogonal top:True if:(> 3 (size Stack at:(to))))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (NEAR_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (DICE_TOWERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (MARKED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, some games are drawn.
    (PASS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Both sides win, some after every disc left its hand (more than six moves).
    (HAND_PICKS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].gt(6).any()),
], ids=["pieces-taken-from-levels", "levels-listed-as-moves", "stacks-selected",
        "whole-stacks-moved", "hands-of-stacks", "states-of-levels", "pieces-put-under",
        "pieces-slid-under", "levels-to-land-on", "lines-of-stacks",
        "lines-of-stacks-with-a-condition", "lines-of-tops-with-a-condition",
        "steps-of-the-boards-type", "levels-moved-by-dice", "levels-selected",
        "passes-answered", "hands-picked-from"])
def test_stack_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    gives_the_reference_rows(text, seeds, played, tmp_path)


def test_a_stacking_game_that_promotes_has_no_compiled_form_and_plays(tmp_path):
    """Its (forEach Piece) walks Ludii's lists of owned pieces, where a piece crowned alone
    on its site stays listed (`Game.walks_stack_lists`): the kernels keep no lists and say
    so, and the reference engine plays every playout through such crownings."""
    from ludeme.analysis.playouts import run_playouts
    from ludeme.api import load
    from ludeme.engine.compiled.codegen import generate
    from ludeme.engine.compiled.unsupported import Unsupported
    path = tmp_path / "game.lud"
    path.write_text(KINGS_GAME)
    game = load(path, backend="reference")
    assert game.walks_stack_lists
    with pytest.raises(Unsupported, match="lists of owned pieces"):
        generate(game)
    rows = run_playouts(game, 40, 3, jobs=1, progress=False, backend="reference")
    assert {1, 2} <= set(rows["winner"]) and rows["moves"].gt(30).any()
