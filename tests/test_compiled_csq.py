"""Compiled forms of consequents: (if ...), (and ...), (add ...), (set Score ...) and
(addScore ...) with a (then ...) of their own, (forEach Group ...), (priority ...), (pass),
(while ...), (forEach Piece <moves>), (remember Value ...) (an effect too) and (forEach
Value ...) with (then ...), (forEach Site ...) with (then ...) after a removal, (take
Control ...), (attract ...); (intersection ...) reading (site); (sites Occupied
by:(player <n>)): hand-written games give the same rows on both backends, and the rule
they exercise acts."""

import pytest

from test_compiled import test_new_compiled_forms_give_the_reference_rows as _reference_rows

# A disc on an even site scores a point, on an odd one shows a note to each player; after
# each move the (if ...) makes (the point, or each note), the mover's disc goes when the
# mover has more than four points, else the opponent scores ((if ...) with (then ...) as a
# consequent, after one move or after notes). Seven points win; forty moves end it.
TALLIES_GAME = """
(game "Tallies"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (if (is Even (last To))
                     (addScore Mover 1)
                     (note "odd")
                     (then (if (> (score Mover) 2) (remove (last To)) (addScore Next 1)))))))
    (end {(if (>= (score Mover) 7) (result Mover Win))
          (if (>= (count Moves) 40) (byScore))})))
"""

# A disc placed is remembered (once), and moves to the mirror site when it is empty; after
# each of these moves, a mover with four discs or more scores ((and ...) with (then ...) as a
# consequent, its parts counted: (remember Value ... unique:), (fromTo ...)). The most points win
# after fourteen moves.
MIRRORS_GAME = """
(game "Mirrors"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (and {(remember Value (% (last To) 5) unique:True)
                       (if (is Empty (- 24 (last To)))
                           (fromTo (from (last To)) (to (- 24 (last To)))))}
                   (then (if (>= (count Sites in:(sites Occupied by:Mover)) 4)
                             (addScore Mover 1)))))))
    (end (if (>= (count Moves) 14) (byScore)))))
"""

# A disc placed on an odd site fills the empty sites orthogonally next to it, each
# placement scoring a point ((add ...) over a region with (then ...) as a consequent). The
# most points win once the board is full.
SPREADERS_GAME = """
(game "Spreaders"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (if (is Odd (last To))
                     (add (piece (id "Disc" Mover))
                          (to (sites Around (last To) Orthogonal) if:(is Empty (to)))
                          (then (addScore Mover 1)))))))
    (end (if (no Moves Next) (byScore)))))
"""

# A disc placed on an even site lets the mover move again on one of every two moves; after
# either move the next player scores the last site's number modulo 3: after a (moveAgain),
# the mover is the next player ((next) read after an earlier consequent changed it). The
# most points win after twelve moves.
AGAIN_GAME = """
(game "Again"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (if (is Even (count Moves))
              (move Add (to (sites Empty)) (then (if (is Even (last To)) (moveAgain))))
              (move Add (to (sites Empty)))
              (then (addScore Next (% (last To) 3)))))
    (end (if (>= (count Moves) 12) (byScore)))))
"""


# A disc placed makes each group of three or more of the mover's discs (orthogonally
# joined) score a point and leave the board ((forEach Group ... if:) as a consequent, its
# group read as (sites), removals reading the position before any). Three points win;
# forty moves end it.
CLUSTERS_GAME = """
(game "Clusters"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Group Orthogonal if:(is Mover (who at:(to)))
                   (if (>= (count Sites in:(sites)) 3)
                       (and (addScore Mover 1) (remove (sites))))))))
    (end {(if (>= (score Mover) 3) (result Mover Win))
          (if (>= (count Moves) 40) (byScore))})))
"""

# The mover's score is the size of the group (of the mover's discs, joined in any
# direction) the last disc joined ((forEach Group) without if: as a consequent, (sites)
# tested for a site). Six win; a full board is a draw.
CLUMPS_GAME = """
(game "Clumps"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Group
                   (if (is In (last To) (sites))
                       (set Score Mover (count Sites in:(sites))))))))
    (end {(if (>= (score Mover) 6) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# After each disc placed, every group of the opponent's discs (orthogonally joined) of a
# single disc leaves the board, any other passes, and each of these moves scores the last
# site's number modulo 4 for the mover ((forEach Group ...) with (then ...) as a consequent, after a removal of
# its region or a (pass)). The most points win after thirty moves.
PICKERS_GAME = """
(game "Pickers"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Group Orthogonal if:(is Next (who at:(to)))
                   (if (= 1 (count Sites in:(sites))) (remove (sites)) (pass))
                   (then (addScore Mover (% (last To) 4)))))))
    (end (if (>= (count Moves) 30) (byScore)))))
"""

# After each disc placed, the first of three rules that makes a move acts: two points on
# an even site, else the removal of an enemy disc on the mirror site, else a point for the
# opponent ((priority ...) as a consequent, its lists counted). Eight points win; forty
# moves end it.
FIRSTS_GAME = """
(game "Firsts"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (priority {(if (is Even (last To)) (addScore Mover 2))
                            (if (is Enemy (who at:(- 15 (last To)))) (remove (- 15 (last To))))
                            (addScore Next 1)}))))
    (end {(if (>= (score Mover) 8) (result Mover Win))
          (if (>= (count Moves) 40) (byScore))})))
"""

# The mover's score is set to the mover's number of discs, then, on an even site, the
# opponent scores a point and so does the mover after it ((set Score ...) and (addScore
# ...) with (then ...) as consequents). The most points win after fourteen moves.
RESCORE_GAME = """
(game "Rescore"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (set Score Mover (count Sites in:(sites Occupied by:Mover))
                   (then (if (is Even (last To))
                             (addScore Next 1 (then (addScore Mover (% (last To) 3))))))))))
    (end (if (>= (count Moves) 14) (byScore)))))
"""


# After each disc placed, the mover scores 0, 1, 2, ... for as many rounds as the last
# site's number modulo 4 ((while ...) as a consequent, its rounds counted in a variable).
# The most points win once the board is full.
ROUNDS_GAME = """
(game "Rounds"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (set Var "n" 0
                   (then (while (< (var "n") (% (last To) 4))
                           (and (set Var "n" (+ (var "n") 1)) (addScore Mover (var "n")))))))))
    (end (if (no Moves Next) (byScore)))))
"""

# After each disc placed, the mover scores a point for each of the mover's discs with two
# of the opponent's orthogonally next to it ((intersection ...) whose second region reads
# the (site) of the loop around it). The most points win once the board is full.
FLANKED_GAME = """
(game "Flanked"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Site (sites Occupied by:Mover)
                   (if (= 2 (count Sites in:(intersection (sites Occupied by:Next)
                                                          (sites Around (site) Orthogonal))))
                       (addScore Mover 1))))))
    (end (if (no Moves Next) (byScore)))))
"""


# After each disc placed, each of the mover's discs removes an enemy disc on its mirror
# site ((forEach Piece <moves>) as a consequent, its removals reading the position before
# any). Four in a line win; thirty moves are a draw.
MIRRORED_GAME = """
(game "Mirrored"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Piece "Disc"
                   (if (is Enemy (who at:(- 15 (from)))) (remove (- 15 (from))))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""

# A disc placed remembers its site's number modulo 5, once; a value remembered anew scores
# a point ((remember Value ... unique:) with (then ...) as a consequent). The most points
# win after twelve moves.
RECALL_GAME = """
(game "Recall"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (remember Value (% (last To) 5) unique:True (then (addScore Mover 1))))))
    (end (if (>= (count Moves) 12) (byScore)))))
"""

# A disc placed removes the enemy discs orthogonally next to it; after each removal, the
# opponent gets a disc on each empty even site next to the placed one ((forEach Site ...)
# with (then ...) after a removal at one site, its consequents a loop over sites of their
# own, reading a copy of their own). Four in a line win; thirty moves are a draw.
CHAINS_GAME = """
(game "Chains"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Site (sites Around (last To) Orthogonal)
                   (if (is Enemy (who at:(site))) (remove (site)))
                   (then (forEach Site (sites Around (last To) Orthogonal)
                           (if (and (is Empty (site)) (is Even (site)))
                               (add (piece (id "Disc" Next)) (to (site))))))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (>= (count Moves) 30) (result Mover Draw))})))
"""


# A disc placed scores the number of discs of player 1 or 2 (by the parity of its site),
# modulo 3 ((sites Occupied by:(player <n>)), of a player given by number). The most points
# win after twelve moves.
PARITY_GAME = """
(game "Parity"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (addScore Mover (% (count Sites in:(sites Occupied
                                                      by:(player (+ 1 (% (last To) 2)))))
                                    3)))))
    (end (if (>= (count Moves) 12) (byScore)))))
"""


# A disc placed on an even site takes control of the opponent's discs orthogonally next
# to it; on a site divisible by 5, of every disc on the site mirrored ((take Control ...)
# as a consequent, over a region and at a site). Four in a line win.
CONVERTS_GAME = """
(game "Converts"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (and (if (is Even (last To))
                          (take Control of:Next by:Mover to:(sites Around (last To) Orthogonal)))
                      (if (= 0 (% (last To) 5))
                          (take Control of:All by:Mover at:(- 15 (last To))))))))
    (end (if (is Line 4) (result Mover Win)))))
"""


# A disc placed draws the discs along each line from it (orthogonal or diagonal) up next
# to it, closing the gaps ((attract ...) as a consequent). Four in a line win; a full
# board is a draw.
MAGNETS_GAME = """
(game "Magnets"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)) (then (attract (from (last To))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# After each disc placed, for each value from 0 to the last site's number modulo 4, a
# disc of the opponent's on the site that many places further goes; after each removal
# the mover scores a point ((forEach Value ...) with (then ...) as a consequent). The most
# points win after sixteen moves.
SWEEPS_GAME = """
(game "Sweeps"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
           (then (forEach Value min:1 max:(+ 1 (% (last To) 4))
                   (if (and (< (+ (last To) (value)) 25) (is Enemy (who at:(+ (last To) (value)))))
                       (remove (+ (last To) (value))))
                   (then (addScore Mover 1))))))
    (end (if (>= (count Moves) 16) (byScore)))))
"""

# A disc placed remembers its site's number modulo 5, once, as a part of the placement;
# a value remembered anew scores a point ((remember Value ... unique:) with (then ...) as
# an effect). The most points win after twelve moves.
NOTED_GAME = """
(game "Noted"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
                        (apply (remember Value (% (to) 5) unique:True
                                 (then (addScore Mover 1)))))))
    (end (if (>= (count Moves) 12) (byScore)))))
"""


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win, and some games run past the sixteen placements (discs were removed).
    (TALLIES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 16),
    # Both sides win, and some games are drawn.
    (MIRRORS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Both sides win, and every game ends before 25 placements (discs were added).
    (SPREADERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(25).all()),
    # Both sides win, and some games are drawn.
    (AGAIN_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Both sides win, and some games run past the 25 placements (groups were removed).
    (CLUSTERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 25),
    # Both sides win.
    (CLUMPS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games run past the 25 placements (discs were removed).
    (PICKERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 25),
    # Both sides win.
    (FIRSTS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (RESCORE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (ROUNDS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (FLANKED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games run past the sixteen placements (discs were removed).
    (MIRRORED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() > 16),
    # Both sides win.
    (RECALL_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win, and some games are drawn.
    (CHAINS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Both sides win.
    (PARITY_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (CONVERTS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (MAGNETS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (SWEEPS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win.
    (NOTED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]))],
    ids=["if-with-then-as-a-consequent", "and-with-then-as-a-consequent",
         "add-with-then-as-a-consequent", "next-after-move-again-in-a-consequent",
         "for-each-group-with-if-as-a-consequent", "for-each-group-as-a-consequent",
         "for-each-group-with-then-as-a-consequent", "priority-as-a-consequent",
         "set-score-and-add-score-with-then-as-consequents", "while-as-a-consequent",
         "intersection-with-a-region-reading-site", "for-each-piece-as-a-consequent",
         "remember-value-with-then-as-a-consequent",
         "for-each-site-with-then-after-a-removal", "sites-occupied-by-a-player-number",
         "take-control-as-a-consequent", "attract-as-a-consequent",
         "for-each-value-with-then-as-a-consequent", "remember-value-with-then-as-an-effect"])
def test_csq_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _reference_rows(text, seeds, played, tmp_path)
