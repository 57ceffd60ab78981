"""The registry of compiled forms (`ludeme.engine.compiled.emit`): lookup by class, declared
refusals, and the messages of what has no compiled form."""

from __future__ import annotations

import pytest

from ludeme.engine.compiled import emit
from ludeme.engine.compiled.unsupported import Unsupported


class Fake:
    keyword, kind, params = "fake", "Thing", ()

    def __init__(self, **given):
        self._given = {attr: (name, None) for attr, name in given.items()}


class FakeChild(Fake):
    pass


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(emit, "EMITTERS", {kind: {} for kind in emit.KINDS})
    emit.emits(Fake, kind="int", refuses=("level", ("then", "with (then ...)")))(
        lambda src, lud: "42")
    return emit.EMITTERS


def test_an_emitter_gives_the_form(registry):
    assert emit.emit("int", None, Fake()) == "42"
    assert emit.forms(Fake) == {"int": ("level", "then")}


def test_declared_arguments_are_refused_with_their_messages(registry):
    with pytest.raises(Unsupported, match=r"^\(fake Thing\) with level:$"):
        emit.emit("int", None, Fake(level="level"))
    with pytest.raises(Unsupported, match=r"^\(fake Thing\) with \(then \.\.\.\)$"):
        emit.emit("int", None, Fake(then="then"))


def test_no_emitter_is_unsupported_with_the_kind_s_message(registry):
    with pytest.raises(Unsupported, match=r"^\(fake Thing\)$"):
        emit.emit("bool", None, Fake())
    with pytest.raises(Unsupported, match=r"^\(fake Thing\) as a consequent$"):
        emit.emit("consequent", None, Fake(), [], "")


def test_lookup_is_by_the_exact_class(registry):
    assert emit.lookup("int", FakeChild()) is None


def test_unknown_kinds_are_refused():
    with pytest.raises(ValueError, match="unknown kind"):
        emit.emits(Fake, kind="nope")


NO_MOVES = ('(game "X" (players 2) (equipment {{(board (square 3)) (piece "Disc" Each)}}) '
            '(rules (play (move Add (to (sites Empty)))) (end (if (no Moves {role}) '
            '(result P1 Win)))))')


@pytest.mark.parametrize("role, code", [("Next", "no_moves("), ("P2", "sc[STALE + 2]"),
                                        ("Mover", "sc[STALE + mover]")])
def test_no_moves_of_a_player_reads_its_stalemated_flag_in_the_kernels(tmp_path, role, code):
    """Ludii's (no Moves <player>) other than Next reads the player's stalemated flag; the
    kernels once generated that player's moves instead, which ended three hunt games a move
    early on the compiled backend."""
    from ludeme.api import load
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "g.lud"
    path.write_text(NO_MOVES.format(role=role))
    assert code in generate(load(path, backend="reference"))


def test_a_board_too_large_for_the_kernels_is_refused_before_any_code_is_written(
        tmp_path, monkeypatch):
    """(square 100) with (is Line 3) made 38 MB of Python that numba could not compile in
    3.4 GB; the tables' size is bounded, and the game falls back to the reference engine."""
    from ludeme.api import load
    from ludeme.engine.compiled import codegen
    path = tmp_path / "g.lud"
    path.write_text(NO_MOVES.format(role="Next").replace("(no Moves Next)", "(is Line 3)"))
    game = load(path, backend="reference")
    assert codegen.generate(game)
    monkeypatch.setattr(codegen, "MAX_TABLE_ELEMENTS", 20)
    with pytest.raises(Unsupported, match="a board this large"):
        codegen.generate(game)


def test_a_game_whose_compiled_form_is_too_large_to_write_is_refused(monkeypatch, tmp_path):
    # Yonin Seireigi's tests of moves nest moves that test moves: writing its kernels ran for
    # over an hour; past MAX_EMITTED forms it stays on the reference engine (a count, so the
    # same on any machine).
    from ludeme.api import load
    from ludeme.engine.compiled import Unsupported, emit as emit_module
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "game.lud"
    path.write_text('(game "T" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)})'
                    ' (rules (play (move Add (to (sites Empty)))) (end (if (is Line 3) '
                    '(result Mover Win)))))')
    generate(load(path))
    monkeypatch.setattr(emit_module, "MAX_EMITTED", 3)
    with pytest.raises(Unsupported, match="over 3 forms written"):
        generate(load(path))
