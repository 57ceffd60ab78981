"""The playout kernel's per-state figures (the position's key, empty sites, pieces, sites
covered) kept from the sites written since the last state (rt.JOURNAL) are those read from
every site: the kernels check both at every state (CHECK_INCREMENTAL), run as Python."""

import os

import pytest

from ludeme.api import compiled_of
from ludeme.engine.compiled import rt
from ludeme.engine.compiled.codegen import _journaled
from test_compiled import STATES_GAME, THREATS_GAME, ludii_game

# The check is a global the kernels read as Python; compiled, numba fixes it at compile time.
as_python = pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") != "1",
                               reason="the kernels run as Python (tests/conftest.py)")

# captures by hops, promotion in place, hands and a count, stacks (two kinds)
GAMES = [("Konane.lud:8x8 Konane (Suggested)", 4), ("English Draughts.lud", 4),
         ("Adzua (Children).lud@Variant/Adzua (Children) (Ludii 1)", 6),
         ("Seesaw.lud", 2), ("Connect Four.lud", 6), ("Tic-Tac-Toe.lud", 20)]


def _checked_playouts(name, n, monkeypatch):
    kernels = compiled_of(ludii_game(name, backend="compiled"))
    m = kernels.module
    assert m.INCREMENTAL
    monkeypatch.setattr(m, "CHECK_INCREMENTAL", True)
    return kernels.playouts(7, 0, n)


@as_python
@pytest.mark.parametrize("name,n", GAMES)
def test_the_figures_kept_from_the_writes_are_those_of_every_site(name, n, monkeypatch):
    _checked_playouts(name, n, monkeypatch)


@as_python
@pytest.mark.parametrize("text", [STATES_GAME, THREATS_GAME], ids=["piece-states", "threats"])
def test_piece_states_and_moves_tried_on_copies_keep_the_figures(text, tmp_path, monkeypatch):
    path = tmp_path / "game.lud"
    path.write_text(text)
    _checked_playouts(str(path), 10, monkeypatch)


@as_python
@pytest.mark.parametrize("name,n", GAMES[:2] + GAMES[3:4])
def test_a_write_left_out_of_the_journal_is_caught(name, n, monkeypatch):
    monkeypatch.setattr(rt, "journal", lambda count, site: None)
    with pytest.raises(AssertionError, match="incremental figures"):
        _checked_playouts(name, n, monkeypatch)


@pytest.mark.parametrize("lines,journaled", [
    (["    site_add(who, what, count, HAND_FROM, to, 1, 1, 1)"], True),
    (["    journal(count, ps)", "    who[ps] = 1", "    what[ps] = 2"], True),
    (["    who[ps] = 1"], False),
    (["    journal(count, to)", "    who[ps] = 1"], False),
    (["    journal(count, ps)", "    x = 1", "    who[ps] = 1"], False),
    (["    journal(count, ps)", "    what[a], who[ps] = 1, 2"], False),
    (["    count[to] += 1"], False),
    (["    who.fill(0)"], False)])
def test_only_writes_noted_in_the_journal_keep_the_figures_from_the_writes(lines, journaled):
    assert _journaled("\n".join(lines)) is journaled
