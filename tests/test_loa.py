"""Lines of Action and its NOST variants (descriptions/lines_of_action.lud).

Positions are written as the seed's diagrams (shared/seeds/003): rank 8 first,
files a to h. Who is who: the seed says play starts with Black, and the
description makes Black P1 (placed on rows 1 and 8, as in the seed's opening
diagram), because in Ludii, and here, P1 moves first. White is therefore P2, and
"White to move" means mover 2.
"""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from conftest import DESCRIPTIONS
from ludeme.api import load
from ludeme.analysis.crosscheck import crosscheck_files

LOA = DESCRIPTIONS / "lines_of_action.lud"

BLACK, WHITE = 1, 2
# Letters of the seed's diagrams for the plain two-player variants.
DISCS = {"B": "Disc1", "W": "Disc2"}


@functools.lru_cache(maxsize=None)
def _game(ruleset: str | None = None, options: tuple = ()):
    return load(LOA, options=list(options), ruleset=ruleset)


def _diagram(text: str) -> dict[str, str]:
    """{"C2": "W", ...} from a seed diagram: one line per rank, "8 - B W ..."."""
    out = {}
    for line in text.strip().splitlines():
        rank, *cells = line.split()
        for file, cell in zip("ABCDEFGH", cells):
            if cell != "-":
                out[f"{file}{rank}"] = cell
    return out


def _position(game, pieces: dict[str, str], mover: int):
    """A fresh state holding only `pieces` ({label: component name}), `mover` to move."""
    s = game.new_initial_state()
    s.clear_sites()
    for label, name in pieces.items():
        s.set_site(game.board.index_of(label), game.component_named(name).index)
    other = mover % game.num_players + 1
    s.mover, s.next, s.prev = mover, other, mover - 1 or game.num_players
    s.history = [(s.prev, False)]    # reached by play: the previous player moved, no pass
    return s


def _label(game, site: int) -> str:
    return game.board.sites[site].label


def _moves(game, state, frm: str | None = None) -> set[tuple[str, str]]:
    """The legal moves as (from, to) labels, those starting at `frm` if given."""
    out = {(_label(game, m.frm), _label(game, m.to)) for m in state.legal_moves()
           if not m.is_pass}
    return {m for m in out if frm is None or m[0] == frm}


def _play(game, state, frm: str, to: str):
    """Apply the legal move frm-to (it must be legal)."""
    moves = [m for m in state.legal_moves() if not m.is_pass
             and (_label(game, m.frm), _label(game, m.to)) == (frm, to)]
    assert len(moves) == 1, f"{frm}-{to} is not legal here: {sorted(_moves(game, state))}"
    state.apply(moves[0])
    return state


def _board(game, state) -> dict[str, str]:
    """{label: component name} of the occupied board sites."""
    names = {c.index: c.name for c in game.components}
    return {_label(game, i): names[state.what[i]]
            for i in range(game.board.num_sites) if state.what[i]}


# --------------------------------------------------------------------- the seed's example

SEED_EXAMPLE = """
8 - - - - - - - -
7 - - - - - - - -
6 - W - W B - - -
5 - - - - - - - -
4 - B W W - - - -
3 - W W - B - - -
2 - - W - - B - -
1 - - - - - - - -
"""

AFTER_C2_C5 = """
8 - - - - - - - -
7 - - - - - - - -
6 - W - W B - - -
5 - - W - - - - -
4 - B W W - - - -
3 - W W - B - - -
2 - - - - - B - -
1 - - - - - - - -
"""

BOTH_END_RULES = ["Lines of Action", "Lines of Action (Original End Rule)"]


def _seed_example(ruleset):
    game = _game(ruleset)
    pieces = {sq: DISCS[c] for sq, c in _diagram(SEED_EXAMPLE).items()}
    return game, _position(game, pieces, mover=WHITE)


@pytest.mark.parametrize("ruleset", BOTH_END_RULES)
def test_seed_example_c2_c5_wins_at_once(ruleset):
    game, s = _seed_example(ruleset)
    assert ("C2", "C5") in _moves(game, s)   # three pieces on file c: c2 c3 c4
    _play(game, s, "C2", "C5")
    assert _board(game, s) == {sq: DISCS[c] for sq, c in _diagram(AFTER_C2_C5).items()}
    assert s.is_terminal() and s.winner == WHITE and s.ranking[1:] == [2.0, 1.0]


@pytest.mark.parametrize("ruleset", BOTH_END_RULES)
def test_seed_example_moves_of_b6(ruleset):
    # Rank 6 holds b6 d6 e6: three squares east passes the friendly d6 and captures e6.
    # The a7-g1 diagonal holds b6 d4 e3 f2: four squares south-east would pass the enemy
    # e3 (the seed: "b6xf2 is illegal"). File b holds b6 b4 b3: three squares south would
    # pass the enemy b4. The a5-c7 diagonal holds b6 alone: one square either way.
    # North, west and north-west run off the board.
    game, s = _seed_example(ruleset)
    assert _moves(game, s, "B6") == {("B6", "E6"), ("B6", "A5"), ("B6", "C7")}
    _play(game, s, "B6", "E6")
    assert _board(game, s)["E6"] == "Disc2" and sum(w == BLACK for w in s.who) == 3
    assert not s.is_terminal()


@pytest.mark.parametrize("ruleset,winner,ranking", [
    ("Lines of Action", WHITE, [2.0, 1.0]),
    ("Lines of Action (Original End Rule)", 0, [1.5, 1.5]),
])
def test_completing_both_groups_at_once(ruleset, winner, ranking):
    # File d holds d2 and d4: White's d2xd4 joins e5 and leaves Black's a1-b1 as one group.
    game = _game(ruleset)
    pieces = {"A1": "Disc1", "B1": "Disc1", "D4": "Disc1", "D2": "Disc2", "E5": "Disc2"}
    s = _play(game, _position(game, pieces, mover=WHITE), "D2", "D4")
    assert s.is_terminal() and s.winner == winner and s.ranking[1:] == ranking


def test_a_wrong_colour_to_move_is_noticed():
    # The same position with Black to move: c2-c5 is not Black's move, and Black's e6
    # has its own moves (the test above would fail if the roles were swapped).
    game = _game("Lines of Action")
    pieces = {sq: DISCS[c] for sq, c in _diagram(SEED_EXAMPLE).items()}
    s = _position(game, pieces, mover=BLACK)
    assert ("C2", "C5") not in _moves(game, s) and _moves(game, s, "E6")


# ---------------------------------------------------------------- Ludii's traces

@pytest.mark.parametrize("slug", ["lines-of-action-draw", "lines-of-action-mover-win"])
def test_standard_game_agrees_with_ludii_traces(refdata, slug):
    traces = sorted(str(f) for f in (refdata / "traces" / slug).glob("*.json.gz"))
    assert traces
    verdicts = crosscheck_files(traces, lud=str(LOA))
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


# ------------------------------------------------------------------ starting positions

STARTS = {
    "Lines of Action": """
8 - B B B B B B -
7 W - - - - - - W
6 W - - - - - - W
5 W - - - - - - W
4 W - - - - - - W
3 W - - - - - - W
2 W - - - - - - W
1 - B B B B B B -
""",
    "Scrambled Eggs": """
8 - B W B W B W -
7 W - - - - - - B
6 B - - - - - - W
5 W - - - - - - B
4 B - - - - - - W
3 W - - - - - - B
2 B - - - - - - W
1 - W B W B W B -
""",
    "Parachute": """
8 - - - - - - - -
7 W - - - - - - B
6 B - - - - - - W
5 W - - - - - - B
4 B - - - - - - W
3 W - - - - - - B
2 B - - - - - - W
1 - - - - - - - -
""",
    "Neighbours": """
8 - B B B W W W -
7 W - - - - - - B
6 W - - - - - - B
5 W - - - - - - B
4 B - - - - - - W
3 B - - - - - - W
2 B - - - - - - W
1 - W W W B B B -
""",
}

TWO_TYPES_START = """
8 - b b b b b b -
7 w - - - - - - W
6 w - - - - - - W
5 w - - - - - - W
4 w - - - - - - W
3 w - - - - - - W
2 w - - - - - - W
1 - B B B B B B -
"""
TWO_TYPES = {"B": "Big1", "W": "Big2", "b": "Small1", "w": "Small2"}
PARTNERS = {"B": "Disc1", "W": "Disc2", "b": "Disc3", "w": "Disc4"}

NUMBERS = "One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve".split()
# The seed's numbered diagram; [n] (White) is written here as n+ for one token per square.
NUMBERED_START = """
8 8 7 6 5 - - - -
7 - - - - 12 11 10 9
6 4 3 2 1 - - - -
5 - - - - - - - -
4 - - - - - - - -
3 - - - - 1+ 2+ 3+ 4+
2 9+ 10+ 11+ 12+ - - - -
1 - - - - 5+ 6+ 7+ 8+
"""


def _numbered(token: str) -> str:
    white = token.endswith("+")
    return f"{NUMBERS[int(token.rstrip('+')) - 1]}{WHITE if white else BLACK}"


@pytest.mark.parametrize("ruleset", list(STARTS))
def test_start_is_the_seed_diagram(ruleset):
    game = _game(ruleset)
    expected = {sq: DISCS[c] for sq, c in _diagram(STARTS[ruleset]).items()}
    assert _board(game, game.new_initial_state()) == expected


@pytest.mark.parametrize("ruleset,diagram,names", [
    ("Two Piece Types", TWO_TYPES_START, TWO_TYPES),
    ("Two Piece Types (Partnership)", TWO_TYPES_START, PARTNERS),
])
def test_two_type_starts(ruleset, diagram, names):
    game = _game(ruleset)
    expected = {sq: names[c] for sq, c in _diagram(diagram).items()}
    assert _board(game, game.new_initial_state()) == expected


def test_numbered_start():
    game = _game("Numbered Pieces")
    expected = {sq: _numbered(t) for sq, t in _diagram(NUMBERED_START).items()}
    assert len(expected) == 24
    assert _board(game, game.new_initial_state()) == expected


# -------------------------------------------------------------------------- Parachute

def _hand(game, player: int) -> int:
    return next(c.sites_from for c in game.containers[1:] if c.owner == player)


def test_parachute_turn_is_a_move_then_a_drop_of_an_enemy_piece():
    game = _game("Parachute")
    s = game.new_initial_state()
    assert s.count[_hand(game, BLACK)] == s.count[_hand(game, WHITE)] == 6
    first = s.legal_moves()
    assert all(m.frm < 64 for m in first)          # a normal move first
    s.apply(first[0])
    assert s.mover == BLACK                          # then Black again, to drop
    drops = s.legal_moves()
    empty = {i for i in range(64) if s.what[i] == 0}
    assert {m.frm for m in drops} == {_hand(game, WHITE)} and {m.to for m in drops} == empty
    s.apply(drops[0])
    assert s.who[drops[0].to] == WHITE and s.count[_hand(game, WHITE)] == 5
    assert s.mover == WHITE


def test_parachute_drops_stop_after_six_turns_each():
    game = _game("Parachute")
    rng = random.Random(7)
    s = game.new_initial_state()
    decisions_per_turn = []
    while not s.is_terminal() and len(decisions_per_turn) < 16:
        turn, n = s.num_turn, 0
        while not s.is_terminal() and s.num_turn == turn:
            moves = s.legal_moves()
            s.apply(moves[rng.randrange(len(moves))])
            n += 1
        decisions_per_turn.append(n)
    assert decisions_per_turn[:12] == [2] * 12 and set(decisions_per_turn[12:]) == {1}


def test_parachute_win_needs_every_piece_on_the_board():
    game = _game("Parachute")
    pieces = {"C3": "Disc1", "D4": "Disc1", "A8": "Disc2", "H8": "Disc2"}
    for in_hand, over in ((1, False), (0, True)):
        s = _position(game, pieces, mover=WHITE)
        if in_hand:
            hand = _hand(game, BLACK)
            s.set_site(hand, game.component_named("Disc1").index, BLACK, count=in_hand)
        _play(game, s, "A8", "A7")      # White's move leaves Black's c3-d4 group as it is
        assert s.is_terminal() == over and (s.winner == BLACK) == over


# ------------------------------------------------------------------- two piece types

def test_kinds_move_in_strict_rotation():
    game = _game("Two Piece Types")
    s = game.new_initial_state()
    moved = []
    for _ in range(6):
        m = s.legal_moves()[0]
        moved.append(game.components[s.what[m.frm]].name)
        s.apply(m)
    assert moved == ["Big1", "Big2", "Small1", "Small2", "Big1", "Big2"]


def test_no_piece_of_the_kind_due_loses_the_turn():
    game = _game("Two Piece Types")
    s = _position(game, {"C3": "Small1", "F6": "Small1", "H1": "Big2", "A8": "Small2"}, BLACK)
    assert [m.is_pass for m in s.legal_moves()] == [True]      # turn 1 wants a B
    s.apply(s.legal_moves()[0])
    assert s.mover == WHITE and {game.components[s.what[m.frm]].name
                                 for m in s.legal_moves()} == {"Big2"}
    s.apply(s.legal_moves()[0])
    assert s.mover == BLACK and {game.components[s.what[m.frm]].name
                                 for m in s.legal_moves()} == {"Small1"}


def test_partners_pass_over_each_other_and_never_capture_each_other():
    game = _game("Two Piece Types (Partnership)")
    # Rank 1: a1 (P1) b1 (P3, partner) d1 (P2): three squares east passes b1, takes d1.
    # File a: a1 a3 (P3): two squares north would land on the partner.
    # Diagonal a1-h8: a1 b2 (P4): two squares would pass an opponent.
    pieces = {"A1": "Disc1", "B1": "Disc3", "D1": "Disc2", "A3": "Disc3", "B2": "Disc4",
              "H8": "Disc2", "H6": "Disc4", "F8": "Disc3"}
    s = _position(game, pieces, mover=1)
    assert _moves(game, s, "A1") == {("A1", "D1")}


# Team results follow Ludii's End.applyTeamResult: the winning team's members share rank 1,
# the other team's members rank 1 + (size of the winning team) = 3.
@pytest.mark.parametrize("end_rule,ranking", [
    ("End rules/Simultaneous Group = Mover Win", [1.0, 3.0, 1.0, 3.0]),
    ("End rules/Simultaneous Group = Draw", [2.5, 2.5, 2.5, 2.5]),
])
def test_partnership_results(end_rule, ranking):
    game = _game(None, ("Variant/Two Piece Types (Partnership)", end_rule))
    # P1's a1-b1 joins c2 (P3): Black's side is one group; White's h8-g7 already is.
    pieces = {"A1": "Disc1", "C2": "Disc3", "H8": "Disc2", "G7": "Disc4"}
    s = _play(game, _position(game, pieces, mover=1), "A1", "B1")
    assert s.is_terminal() and s.ranking[1:] == ranking
    # Only Black's side grouped: the partners win together, whatever the end rule.
    pieces = {"A1": "Disc1", "C2": "Disc3", "H8": "Disc2", "F6": "Disc4"}
    s = _play(game, _position(game, pieces, mover=1), "A1", "B1")
    assert s.is_terminal() and s.ranking[1:] == [1.0, 3.0, 1.0, 3.0] and s.winner == 1


# ------------------------------------------------------------------------- neighbours

def test_neighbours_move_as_far_as_the_piece_has_neighbours():
    game = _game("Neighbours")
    # d4 has two neighbours (c5 White, e4 Black); d6 is two squares away, not a neighbour.
    pieces = {"D4": "Disc1", "E4": "Disc1", "C5": "Disc2", "D6": "Disc2", "H8": "Disc1"}
    s = _position(game, pieces, mover=BLACK)
    assert _moves(game, s, "D4") == {("D4", t) for t in
                                     ("D6", "D2", "F4", "B4", "F6", "B6", "F2", "B2")}
    assert _moves(game, s, "H8") == set()          # no neighbours: no move
    _play(game, s, "D4", "B6")                     # over the enemy c5, unlike in LOA
    assert _board(game, s)["C5"] == "Disc2"


# ---------------------------------------------------------------------- numbered pieces

def test_isolated_numbered_piece_goes_next_to_two_pieces():
    game = _game("Numbered Pieces")
    # a1 has no neighbours. On its lines, b2 touches c1 and c3, d4 touches c3 and c4.
    # b1 touches c1 and a1 itself, which is not counted; c3 is occupied.
    pieces = {"A1": "One1", "C1": "One2", "C3": "Two2", "C4": "Three2", "H8": "Two1"}
    s = _position(game, pieces, mover=BLACK)
    assert _moves(game, s, "A1") == {("A1", "B2"), ("A1", "D4")}


OTHERS_FAR = {"A8": "One2", "C1": "Seven2", "D1": "Eight2", "E1": "Nine2", "F1": "Ten2",
              "G1": "Eleven2", "H1": "Twelve2", "H4": "Ten1"}


@pytest.mark.parametrize("white_left,wins", [
    ((), True),                       # 2, 3, 4, 5 gone; taking 6 makes five in sequence
    (("B8", "Two2"), False),          # 3, 4, 5, 6 gone: only four
])
def test_five_captured_in_sequence_win(white_left, wins):
    game = _game("Numbered Pieces")
    pieces = {"D4": "Five1", "D5": "Six2", **OTHERS_FAR, **dict([white_left] if white_left
                                                                    else [])}
    s = _play(game, _position(game, pieces, mover=BLACK), "D4", "D5")
    assert s.is_terminal() == wins and (s.winner == BLACK) == wins


def test_leaving_the_opponent_without_a_move_wins():
    game = _game("Numbered Pieces")
    # After d5xd6 no two pieces are within two squares of each other, so White's
    # isolated 5 and 10 have nowhere to land; both sides still hold a 5 and a 10,
    # so neither has lost five in sequence.
    pieces = {"D5": "Five1", "G2": "Ten1", "D6": "Three2", "A1": "Five2", "H8": "Ten2"}
    s = _play(game, _position(game, pieces, mover=BLACK), "D5", "D6")
    assert s.is_terminal() and s.winner == BLACK


# ------------------------------------------------------------------ (count Turns)

def test_count_turns_docstring_example_compiles_and_counts(tmp_path):
    from ludeme.model.ludemes.extra import CountTurns
    example = re.search(r"^\s+(\(if .*\))$", CountTurns.__doc__, re.M).group(1)
    path = tmp_path / "turns.lud"
    path.write_text(f"""(game "Turns" (players 2)
        (equipment {{ (board (square 4))
            (piece "Big" Each (move Step (to if:(is Empty (to)))))
            (piece "Small" Each (move Step (to if:(is Empty (to))))) }})
        (rules (start {{ (place "Big1" {{0}}) (place "Small1" {{3}})
                        (place "Big2" {{12}}) (place "Small2" {{15}}) }})
            (play {example}) (end (if False (result Mover Win)))))""")
    game = load(Path(path))
    s = game.new_initial_state()
    kinds = []
    for _ in range(8):
        m = s.legal_moves()[0]
        kinds.append(game.components[s.what[m.frm]].name)
        s.apply(m)
    assert kinds == ["Big1", "Big2", "Small1", "Small2"] * 2 and s.num_turn == 9
