"""Move names (`ludeme.engine.notation`): one naming for every interface, unique among a
state's legal moves so a person can type them; and `ludeme play` driven through a terminal."""

from __future__ import annotations

import os
import random
import sys

import pytest

from conftest import DESCRIPTIONS, ROOT
from ludeme.api import load
from ludeme.engine.notation import describe_move, move_name, move_names
from ludeme.engine.state import A_ADD, A_MOVE, A_REMOVE, Move
from ludeme.interfaces.terminal import choose

GAMES = [("adzua_children.lud", None), ("seesaw.lud", None), ("lines_of_action.lud", None),
         ("chinese_checkers_piecepack.lud", None), ("afterleap.lud", None)]


@pytest.mark.parametrize("file, ruleset", GAMES)
def test_names_are_unique_among_legal_moves_over_playouts(file, ruleset):
    game = load(DESCRIPTIONS / file, ruleset=ruleset)
    steps = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal() and steps < 400:
            legal = state.legal_moves()
            names = move_names(game, legal)
            assert len(set(names)) == len(names), (file, names)
            assert len({n.lower() for n in names}) == len(names)
            # The names are the ones `describe_move` and `choose` know.
            for i, m in enumerate(legal):
                assert names[i].startswith(describe_move(game, m))
                assert str(m) == names[i] and names[i] in repr(m)   # Python prints the same
                assert choose(game, legal, names, names[i].upper()) == i
            state.apply(legal[rng.randrange(len(legal))])
            steps += 1
    assert steps > 20


def test_compiled_moves_have_the_same_names():
    from ludeme.analysis.playouts import compiled_of
    game = load(DESCRIPTIONS / "lines_of_action.lud")
    fast = compiled_of(game, "compiled")
    if fast is None:
        pytest.skip("no compiled form for Lines of Action here")
    a, b = game.new_initial_state(0), fast.new_initial_state()
    assert move_names(game, a.legal_moves()) == move_names(game, b.legal_moves())
    rng = random.Random(4)
    for _ in range(30):         # str(move) on either backend: the name `play` prints
        names = move_names(game, a.legal_moves())
        assert [str(m) for m in a.legal_moves()] == names == [str(m) for m in b.legal_moves()]
        i = rng.randrange(len(names))
        a.apply(a.legal_moves()[i])
        b.apply(b.legal_moves()[i])


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_move_keeps_the_name_of_its_own_position(backend, tmp_path):
    # Tic-tac-toe's moves are all `place X`: a move object kept from one position prints
    # its own name after another position's moves were generated.
    from ludeme.analysis.playouts import compiled_of
    lud = tmp_path / "ttt.lud"
    lud.write_text('(game "Noughts" (players 2) (equipment {(board (square 3)) '
                   '(piece "Disc" Each)}) (rules (play (move Add (to (sites Empty)))) '
                   '(end (if (is Line 3) (result Mover Win)))))')
    game = load(lud)
    fast = compiled_of(game, "compiled") if backend == "compiled" else game
    if fast is None:
        pytest.skip("no compiled form here")
    state = fast.new_initial_state()
    first = list(state.legal_moves())
    names = [str(m) for m in first]
    assert names == move_names(game, first) and names[0].startswith("place ")
    state.apply(first[4])
    later = state.legal_moves()
    assert len(later) == 8 and [str(m) for m in first] == names
    assert str(later[0]) == names[0] and str(later[4]) == names[5]
    # A move made by hand names its sites as Ludii numbers them.
    assert str(Move(3, 5, 1, [(A_MOVE, 3, 5)])) == "3-5"


def test_same_name_is_told_apart():
    game = load(DESCRIPTIONS / "lines_of_action.lud")
    # Two moves between the same sites, one capturing on the way, one placing a piece.
    plain = Move(0, 2, 1, [(A_MOVE, 0, 2)])
    capture = Move(0, 2, 1, [(A_REMOVE, 1), (A_MOVE, 0, 2)])
    twin = Move(0, 2, 1, [(A_MOVE, 0, 2)])
    names = move_names(game, [plain, capture, twin])
    assert len(set(names)) == 3 and all(n.startswith(move_name(game, plain)) for n in names)
    assert move_name(game, Move(5, 5, 1, [(A_ADD, 5, 1, 1, 1)])).startswith("place ")
    assert move_name(game, Move(5, 5, 1, [(A_REMOVE, 5)])).startswith("remove ")


def test_a_site_picks_the_one_move_that_ends_there():
    game = load(DESCRIPTIONS / "lines_of_action.lud")
    state = game.new_initial_state(0)
    legal = state.legal_moves()
    names = move_names(game, legal)
    ends: dict = {}
    for i, n in enumerate(names):
        ends.setdefault(n.split("-")[-1], []).append(i)
    unique = next(s for s, idx in ends.items() if len(idx) == 1)
    shared = next(s for s, idx in ends.items() if len(idx) > 1)
    assert choose(game, legal, names, unique.lower()) == ends[unique][0]
    msg = choose(game, legal, names, shared)
    assert isinstance(msg, str) and f"moves ends at {shared}" in msg
    assert "not a legal move" in choose(game, legal, names, "Z99")
    assert "no move 0" in choose(game, legal, names, "0")


def test_play_in_a_pseudo_terminal():
    pexpect = pytest.importorskip("pexpect", reason="pexpect drives the pseudo-terminal")
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120")
    child = pexpect.spawn(sys.executable, ["-m", "ludeme", "play",
                                           str(DESCRIPTIONS / "adzua_children.lud"),
                                           "--seed", "4"], env=env, encoding="utf-8",
                          timeout=60)
    try:
        child.expect(r"your move \(1-(\d+)")
        child.sendline("help")
        child.expect("take back your last move")
        child.expect("your move")
        child.sendline("undo")
        child.expect("nothing to undo")
        child.expect("your move")
        child.sendline("hand1-a1")                 # a name, in another case
        child.expect(r"P1: Hand1-A1")
        child.expect(r"P2: \S+")
        child.expect("your move")
        child.sendline("undo")
        child.expect(r"took back your last move \(0 decisions kept\)")
        child.expect("player 1 to move")
        child.expect("your move")
        child.sendline("b1")                       # a site: the one move that ends there
        child.expect(r"P1: Hand1-B1")
        child.expect("your move")
        child.sendline("nonsense")
        child.expect("'nonsense' is not a legal move here")
        child.sendline("moves")
        child.expect(r"  1\. ")
        child.sendline("q")
        child.expect("bye")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
