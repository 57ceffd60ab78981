"""Compiled forms of race ludemes, second round (level writes on tracks passing a site
twice, pieces of a team counted on stacks, stack sizes summed over a region, rolls as
consequents, piece values on stacks, moves keeping an extra in (forEach Value), (add)
with its (then ...) as a consequent, (fromTo ...) as moves, (forEach Die ...) as a
consequent, slides from a level, (pips) read by a move's effect, passes of a (do ...),
shared pieces): each hand-written game has a compiled form and gives the reference
engine's rows on the kernels."""

import pytest

# The check of test_compiled's new forms (a name pytest does not collect again here)
from test_compiled import test_new_compiled_forms_give_the_reference_rows as _same_rows_as_reference

# Stacks riding along tracks that go out and come back (each passes most sites twice): a
# piece moved from any level of its stack ((from ... level:)) and an enemy taken from the
# bottom level ((remove ... level:)) keep Ludii's OnTrackIndices, which (trackSite Move)
# reads to walk on from where a piece stands along its track.
STACK_RIDERS_GAME = """
(game "Stack Riders Out And Home"
  (players 2)
  (equipment {(board (rectangle 1 7) {(track "Track1" "0,E,W" P1 directed:True)
                                      (track "Track2" "6,W,E" P2 directed:True)})
    (dice num:1 d:3)
    (piece "Disc" Each (move (from (from) level:(level))
                         (to (trackSite Move steps:(count Pips))
                             (apply (if (is Enemy (who at:(to))) (remove (to) level:0))))))})
  (rules
    (start {(place Stack "Disc1" 0 count:3) (place Stack "Disc2" 6 count:3)})
    (play (do (roll) next:(forEach Piece)))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# Two teams of two whose pieces climb on one another: every level of a stack counted by
# team roles (TeamMover, Enemy with teams, Team2) in a region.
TEAM_STACKERS_GAME = """
(game "Team Stackers"
  (players 4)
  (equipment {(board (square 4))
    (piece "Disc" Each (move Step Orthogonal (to) stack:True))})
  (rules
    (start {(set Team 1 {P1 P3}) (set Team 2 {P2 P4})
            (place "Disc1" (sites {0 5})) (place "Disc2" (sites {3 6}))
            (place "Disc3" (sites {12 9})) (place "Disc4" (sites {15 10}))})
    (play (forEach Piece))
    (end {(if (>= (count Pieces TeamMover in:(sites Top)) 3) (result TeamMover Win))
          (if (>= (count Pieces Enemy in:(sites Bottom)) 3) (result Mover Loss))
          (if (> (count Pieces Team2 in:(sites Left)) 3) (result Mover Loss))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# Stacks grown on the other side's home row: their levels summed over a region.
TALL_ROWS_GAME = """
(game "Tall Rows"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (move Step Orthogonal (to) stack:True))})
  (rules
    (start {(place "Disc1" (sites {0 1 2 3})) (place "Disc2" (sites {12 13 14 15}))})
    (play (forEach Piece))
    (end {(if (>= (size Stack in:(sites Top)) 6) (result P1 Win))
          (if (>= (size Stack in:(sites Bottom)) 6) (result P2 Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# Equal dice roll again as the move's consequent, and the mover plays on with them: a
# (roll) made when a move is applied.
REROLL_RUNNERS_GAME = """
(game "Reroll Runners"
  (players 2)
  (equipment {(board (rectangle 1 12) {(track "Track1" "0,E" directed:True P1)
                                       (track "Track2" "11,W" directed:True P2)})
    (dice num:2 d:3) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 1})) (place "Disc2" (sites {10 11}))})
    (play (do (if (!= (mover) (prev)) (roll))
            next:(forEach Piece (move (from) (to (trackSite Move steps:(count Pips))
                                                  if:(not (is Friend (who at:(to))))
                                                  (apply (if (is Enemy (who at:(to)))
                                                             (remove (to)))))
                                  (then (if (all DiceEqual) (and (roll) (moveAgain))))))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# Values of pieces on stacks: placed with the start's stacks, set on the top piece after a
# move, moved with their pieces and left behind with the levels as the reference's.
WEIGHED_TOWERS_GAME = """
(game "Weighed Towers"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (move Step Orthogonal (to) stack:True
                         (then (set Value at:(last To)
                                 (+ (size Stack at:(last To)) (value Piece at:(last From)))))))})
  (rules
    (start {(place Stack "Disc1" 0 count:2 value:1) (place "Disc1" (sites {1 2}))
            (place Stack "Disc2" 15 count:2 value:1) (place "Disc2" (sites {13 14}))})
    (play (forEach Piece))
    (end {(if (>= (value Piece at:(last To)) 5) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# Moves from a level of a stack (their extra keeps the level) made for each value of a
# (forEach Value ...) over bounds read in play, whose effect reads the value when applied.
LEVEL_LEAPERS_GAME = """
(game "Level Leapers"
  (players 2)
  (equipment {(board (rectangle 1 9) {(track "Track1" "0,E" P1 directed:True)
                                      (track "Track2" "8,W" P2 directed:True)})
    (piece "Disc" Each (move (from (from) level:(level))
                         (to (trackSite Move steps:(value))
                             (apply (if (and (= (value) 1) (is Enemy (who at:(to))))
                                        (remove (to) level:0))))))})
  (rules
    (start {(place Stack "Disc1" 0 count:3) (place Stack "Disc2" 8 count:3)})
    (play (forEach Value min:1 max:(count Pieces Mover) (forEach Piece)))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""

# A placement echoed as the move's consequent, its own consequent scoring after it.
ECHO_PLACERS_GAME = """
(game "Echo Placers"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (add (piece (id "Disc" Mover)) (to (% (+ (last To) 5) 16) if:(is Empty (to)))
                    (then (addScore Mover (+ 1 (count Pieces Mover))))))))
    (end (if (is Full) (byScore)))))
"""

# Pieces dropped from the hand by (fromTo ...) as the play's moves (its consequent
# scoring), beside steps on the board.
HAND_DROPPERS_GAME = """
(game "Hand Droppers"
  (players 2)
  (equipment {(board (square 3)) (hand Each)
    (piece "Disc" Each (move Step (to if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" (handSite P1) count:3) (place "Disc2" (handSite P2) count:3)})
    (play (or (fromTo (from (handSite Mover)) (to (sites Empty)) (then (addScore Mover 1)))
              (forEach Piece)))
    (end {(if (is Line 3) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# Each die's value kept after a placement by a (forEach Die ...) as its consequent, which
# uses the dice it keeps.
DIE_KEEPERS_GAME = """
(game "Die Keepers"
  (players 2)
  (equipment {(board (square 3)) (dice num:2 d:4) (piece "Disc" Each)})
  (rules
    (play (do (roll)
            next:(move Add (to (sites Empty))
                   (then (forEach Die (if (> (pips) 2) (remember Value "Kept" (pips) unique:True)))))))
    (end {(if (all DiceUsed) (result Mover Win))
          (if (>= (size Array (values Remembered "Kept")) 2) (result Next Win))
          (if (is Full) (result Mover Draw))})))
"""

# Slides of the piece at any level of its stack ((from ... level:)).
LEVEL_SLIDERS_GAME = """
(game "Level Sliders"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (move Slide (from (from) level:(level)) Orthogonal))})
  (rules
    (start {(place Stack "Disc1" 0 count:2) (place Stack "Disc2" 15 count:2)
            (place Stack "Disc1" 3) (place Stack "Disc2" 12)})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites {5 6 9 10})) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# A die's value read by its move's effect when the move is applied (a score of its pips).
PIP_SCORERS_GAME = """
(game "Pip Scorers"
  (players 2)
  (equipment {(board (rectangle 2 6) {(track "LoopA" "0,E,N,W" P1 directed:True)
                                      (track "LoopB" "11,W,S,E" P2 directed:True)})
    (dice num:2 d:3) (piece "Runner" Each)})
  (rules
    (start {(place "Runner1" (sites {0 1})) (place "Runner2" (sites {10 11}))})
    (play (do (if (or (all DiceUsed) (!= (prev) (mover))) (roll))
            next:(forEach Die if:(> (pips) 0)
                   (forEach Piece (move (from)
                                        (to (trackSite Move steps:(pips)) if:(is Empty (to))
                                            (apply (addScore Mover (* 2 (pips)))))))
                   (then (if (not (all DiceUsed)) (moveAgain))))))
    (end {(if (<= 15 (score Mover)) (result Mover Win))
          (if (<= 30 (count Moves)) (result Mover Draw))})))
"""

# A (do ...) whose next moves include a (move Pass): the pass carries the first moves'
# effects (a score) as the other next moves do.
SCORED_PASSES_GAME = """
(game "Scored Passes"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (do (addScore Mover (+ 1 (count Pieces Mover)))
            next:(or (move Pass) (move Add (to (sites Empty))))))
    (end {(if (is Full) (byScore))
          (if (>= (count Moves) 21) (byScore))})))
"""

# A shared piece moved by each player ((forEach Piece Shared)), its effect reading the
# mover in a helper kernel (a count scored).
SHARED_BALL_GAME = """
(game "Shared Ball"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each)
    (piece "Ball" Shared (move Step Orthogonal
                           (to if:(is Empty (to))
                               (apply (addScore Mover (count Pieces Mover in:(sites Around (to))))))))})
  (rules
    (start {(place "Ball" 5) (place "Disc1" (sites {0 3})) (place "Disc2" (sites {12 15}))})
    (play (forEach Piece Shared))
    (end {(if (>= (score Mover) 5) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

GAMES = [
    # Both sides win, some games draw at the move limit.
    pytest.param(STACK_RIDERS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="level-writes-on-tracks-passing-a-site-twice"),
    # Both teams win before the move limit.
    pytest.param(TEAM_STACKERS_GAME, (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).any(),
                 id="stacked-pieces-counted-by-team-roles"),
    # Both sides win, some games draw at the move limit.
    pytest.param(TALL_ROWS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="stack-sizes-summed-over-a-region"),
    # Both sides win in some games; some turns go on after a roll made by a move.
    pytest.param(REROLL_RUNNERS_GAME, (3, 4),
                 lambda df: {1, 2} <= set(df["winner"]) and df["turns"].lt(df["moves"]).any(),
                 id="roll-as-a-consequent"),
    # Both sides win, some games draw at the move limit.
    pytest.param(WEIGHED_TOWERS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="piece-values-on-stacks"),
    # Some moves of value 1 take an enemy (an action more than the moves).
    pytest.param(LEVEL_LEAPERS_GAME, (3, 4), lambda df: df["actions"].gt(df["moves"]).any(),
                 id="moves-keeping-an-extra-inside-for-each-value"),
    # Both sides win on points, some games draw.
    pytest.param(ECHO_PLACERS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="add-with-its-then-as-a-consequent"),
    # Both sides win by a line.
    pytest.param(HAND_DROPPERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]),
                 id="from-to-as-moves"),
    # Both ends reached: every die used (the mover wins), two values kept (the next wins).
    pytest.param(DIE_KEEPERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]),
                 id="for-each-die-as-a-consequent"),
    # Both sides reach the centre first in some games.
    pytest.param(LEVEL_SLIDERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]),
                 id="slide-from-a-level"),
    # Both sides win on the pips they scored.
    pytest.param(PIP_SCORERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]),
                 id="pips-read-by-a-moves-effect"),
    # Both sides win on points, some games draw (all passed, or full).
    pytest.param(SCORED_PASSES_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]),
                 id="pass-after-the-first-moves-of-a-do"),
    # Both sides score five first in some games.
    pytest.param(SHARED_BALL_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]),
                 id="shared-pieces-whose-effects-read-the-mover"),
]


@pytest.mark.parametrize("text,seeds,played", GAMES)
def test_race2_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _same_rows_as_reference(text, seeds, played, tmp_path)



@pytest.mark.parametrize("start,refused", [
    ('(place Stack "Disc1" 0)', True),                           # lands alone on 1
    ('(place Stack "Disc1" 0) (place Stack "Disc2" 1)', False),  # lands on a piece at 1
])
def test_a_position_the_reference_refuses_is_refused_on_the_kernels(start, refused, tmp_path):
    """A kernel's refusal at run time (a promotion of a piece alone on its site in a
    stacking game, which the reference refuses) is the reference's `LudemeError`, not a
    crash: a replay says "unsupported (run)" on both backends."""
    from ludeme.analysis.playouts import load
    from ludeme.api import compiled_of
    from ludeme.errors import LudemeError
    path = tmp_path / "game.lud"
    path.write_text(f"""(game "Lone King" (players 2)
        (equipment {{(board (square 3)) (piece "Disc" Each) (piece "King" Each)}})
        (rules (start {{{start}}})
          (play (move (from 0) (to 1) (then (promote (last To) (piece "King") Mover))))
          (end (if (is Mover P1) (result Mover Win)))))""")
    game = load(path)
    state = compiled_of(game, "compiled").new_initial_state(0)
    try:
        state.apply(state.legal_moves()[0])
    except LudemeError as e:
        assert refused and "alone on its site in a stacking game" in str(e)
    else:
        assert not refused and state.is_terminal()


# A piece moved from a level, whose consequent looks for a step of another kind of move.
CLIMBERS_GAME = """
(game "Climbers Again"
  (players 2)
  (equipment {(board (rectangle 1 6))
    (piece "Disc" Each (move (from (from) level:(level)) (to (+ (from) 1) if:(< (from) 5))
                         (then (if (can Move (move Step (from (last To)) E (to) stack:True))
                                   (moveAgain)))))})
  (rules
    (start {(place Stack "Disc1" 0 count:2) (place Stack "Disc2" 0 count:2)})
    (play (forEach Piece))
    (end (if (no Moves Next) (result Mover Win)))))
"""


def test_moves_made_in_a_consequent_leave_the_levels_of_the_move_in_place(tmp_path):
    """The moves a consequent makes ((can Move ...)) have generators of their own, made
    while the move's generator is: each keeps its own rule for the levels its moves report
    (the kernels listed level 0 for a move from level 1 here)."""
    import random
    from ludeme.analysis.playouts import load
    from ludeme.api import compiled_of
    path = tmp_path / "game.lud"
    path.write_text(CLIMBERS_GAME)
    game = load(path)
    states = [game.new_initial_state(0), compiled_of(game, "compiled").new_initial_state(0)]
    pick = random.Random(1)
    for _ in range(12):
        listed = [sorted((m.frm, m.to, m.level_from, m.level_to) for m in s.legal_moves())
                  for s in states]
        assert listed[0] == listed[1]
        if states[0].is_terminal():
            break
        key = pick.choice(listed[0])
        for s in states:
            s.apply(next(m for m in s.legal_moves()
                         if (m.frm, m.to, m.level_from, m.level_to) == key))


def test_a_level_read_from_level_beside_a_loop_over_levels_is_refused(tmp_path):
    # The reference (as Ludii) reports a move's level as (level) holds once the destination's
    # effect was made while the move was listed: after a (forEach Level ...) there, its
    # loop's last level. The kernels follow a loop that always runs (tests/test_compiled_rot.py),
    # and refuse one under a condition inside a (forEach Value ...) (Aj T'iwil disagreed with
    # Ludii's trace on the kernels before they followed it).
    from ludeme.api import load
    from ludeme.engine.compiled import Unsupported
    from ludeme.engine.compiled.codegen import generate
    text = LEVEL_LEAPERS_GAME.replace(
        "(apply (if (and (= (value) 1) (is Enemy (who at:(to))))\n"
        "                                        (remove (to) level:0))))",
        "(apply if:(= (value) 1) (forEach Level (to) FromTop (if (is Enemy (who at:(to) level:(level)))\n"
        "                                        (remove (to) level:(level))))))")
    assert text != LEVEL_LEAPERS_GAME
    looping, plain = tmp_path / "looping.lud", tmp_path / "plain.lud"
    looping.write_text(text)
    plain.write_text(LEVEL_LEAPERS_GAME)
    with pytest.raises(Unsupported, match="effect that may loop over levels, inside .forEach Value"):
        generate(load(looping))
    generate(load(plain))       # without the loop: compiled
