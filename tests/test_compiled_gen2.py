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
