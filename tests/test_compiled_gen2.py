"""Checking the corpus on the kernels costs less, and checks the same: a game's refusal is
kept with the game (`Game.kernels_for`), so a crosscheck that asks for the kernels before
its clock starts and again to replay writes them once, and gives the same refusal."""

import pytest

from conftest import NO_COMPILED_FORM
from ludeme.analysis.playouts import load
from ludeme.api import PickledGame, compiled_of
from ludeme.engine import compiled
from ludeme.engine.compiled import Unsupported


@pytest.fixture
def counted_select(monkeypatch):
    """`compiled.select` (what `compiled_of` builds the kernels with), its calls counted."""
    calls = []
    select = compiled.select

    def counting(game, backend="auto"):
        calls.append(backend)
        return select(game, backend)
    monkeypatch.setattr(compiled, "select", counting)
    return calls


def test_a_refusal_is_kept_and_raised_again(counted_select):
    game = load(NO_COMPILED_FORM)
    with pytest.raises(Unsupported) as first:
        compiled_of(game, "compiled")
    with pytest.raises(Unsupported) as again:
        compiled_of(game, "compiled")
    assert str(again.value) == str(first.value) and str(first.value)
    assert counted_select == ["compiled"]


def test_a_refusal_is_kept_per_backend_and_not_pickled(counted_select):
    game = load(NO_COMPILED_FORM)
    with pytest.raises(Unsupported):
        compiled_of(game, "compiled")
    assert compiled_of(game, "reference") is None
    copy = PickledGame.of(game).load()
    with pytest.raises(Unsupported):
        compiled_of(copy, "compiled")      # a copy (another process) asks again
    assert counted_select == ["compiled", "reference", "compiled"]


def _mentions_by_walk(lud, classes) -> bool:
    """`codegen.mentions` as it was written: a walk of the tree at every call."""
    if isinstance(lud, (list, tuple)):
        return any(_mentions_by_walk(x, classes) for x in lud)
    fields = getattr(lud, "_fields", None)
    if fields is None:
        return False
    return isinstance(lud, classes) or any(_mentions_by_walk(v, classes)
                                           for v in fields.values())


def _nodes(lud):
    """Every ludeme of a tree (and the lists among its arguments)."""
    if isinstance(lud, (list, tuple)):
        yield lud
        for x in lud:
            yield from _nodes(x)
    elif "_fields" in getattr(lud, "__dict__", {}):
        yield lud
        for v in lud._fields.values():
            yield from _nodes(v)


@pytest.mark.parametrize("name", ["English Draughts.lud", "Surakarta.lud", "Fanorona.lud",
                                  "Nine Men's Morris.lud"])
def test_mentions_answers_as_a_walk_of_the_tree(name):
    from ludeme.engine.compiled.codegen import classes_held, mentions
    from ludeme.model.ludemes.base import CLASSES, Bool, IntFn, Moves
    from test_compiled import ludii_game
    game = ludii_game(name)
    nodes = list(_nodes(game.typed))
    held = classes_held(game.typed)
    assert len(held) > 10 and classes_held(game.typed) is held      # kept, not walked again
    asked = [(c,) for c in sorted(held, key=lambda c: c.__name__)] + [
        (Moves,), (Bool, IntFn), (CLASSES["MovePass"], CLASSES["LastBetween"]), (int,)]
    for classes in asked:
        for node in nodes:
            assert mentions(node, classes) == _mentions_by_walk(node, classes), (node, classes)
