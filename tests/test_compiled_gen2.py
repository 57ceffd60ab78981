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


def _table(src, name):
    """The array of a table `src.table` wrote, by its name."""
    import numpy as np
    (dtype, shape, data), = [k for k, v in src.tables.items() if v == name]
    return np.frombuffer(data, dtype=dtype).reshape(shape)


@pytest.mark.parametrize("name", ["Breakthrough.lud", "English Draughts.lud"])
def test_tables_per_kind_are_those_made_for_every_kind(name):
    """The radials and step targets of directions relative to the piece, made once per
    direction keys and site (and the kinds' rows compared, not written out), are those
    made for every kind and site as before."""
    import numpy as np
    from ludeme.engine.compiled.codegen import Source
    from ludeme.model.ludemes.moves import MoveStep, _step_targets
    from ludeme.model.ludemes.sliding import radial_table, radials_array
    from test_compiled import ludii_game
    game = ludii_game(name)
    steps = [n for n in _nodes(game.typed) if type(n) is MoveStep and n.dirn is not None
             and not game.env.is_static_direction(n.dirn)]
    assert steps
    for step in steps:
        src = Source(game)
        keys = game.env.direction_keys(step.dirn, step)
        assert _step_targets(src, step, step.dirn) == src.per_kind(
            lambda probe, f: tuple(dict.fromkeys(
                t for k in keys(probe, f) for t in game.env.board.trajectories.targets(f, k))))
        got, width, depth, slots = radial_table(src, step, step.dirn, True, False)
        radials = game.env.board.radials
        rows = src.per_kind(lambda probe, s: [r.sites[1:] for k in keys(probe, s)
                                              for r in (radials[k][s] if k in radials else ())])
        texts = [repr(v) for v in rows]
        index: dict = {}
        was_slots = [index.setdefault(t, len(index)) for t in texts]
        was, was_width, was_depth = radials_array(list(dict(zip(texts, rows)).values()))
        assert (width, depth) == (was_width, was_depth)
        assert np.array_equal(_table(src, got), was)
        assert list(_table(src, slots)) == was_slots


@pytest.mark.parametrize("rows, slots", [
    ([[1, 2], [1, 2], [3], [1, 2]], [0, 0, 1, 0]),
    ([[[1], [2]], [[1], [2, 3]], [[1], [2]]], [0, 1, 0]),
    ([(1,), [1], (1,)], [0, 1, 0]),
    ([], [])])
def test_kind_slots_share_a_slot_among_equal_values(rows, slots):
    from ludeme.engine.compiled.codegen import Source
    from test_compiled import ludii_game
    src = Source(ludii_game("Tic-Tac-Toe.lud"))
    distinct, name = src.kind_slots(rows)
    assert [distinct.index(r) for r in rows] == slots
    assert list(_table(src, name)) == slots


@pytest.fixture
def sources(monkeypatch):
    """The `Source`s made while generating, kept."""
    from ludeme.engine.compiled import codegen
    made = []
    init = codegen.Source.__init__

    def keep(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)
    monkeypatch.setattr(codegen.Source, "__init__", keep)
    return made


@pytest.mark.parametrize("name", ["Seesaw.lud", "Fanorona.lud"])
def test_memo_keyed_by_then_kernels_calls_writes_the_same(name, sources, monkeypatch):
    """The memo reads the (then ...) kernels kept so far by their calls alone
    (`Source._BY_KEYS`): the same module, and the same forms met again, as keyed by their
    lines too; each call names a kernel that holds its lines."""
    from ludeme.engine.compiled import codegen
    from test_compiled import ludii_game
    game = ludii_game(name)
    text = codegen.generate(game)
    src = sources[-1]
    memo = len(src.memo)
    for call, body in src.then_bodies.items():
        kernel = next(h for h in src.helpers if f"def {call.partition('(')[0]}(" in h)
        assert all(line in kernel for line in body)
    monkeypatch.setattr(codegen.Source, "_BY_KEYS", frozenset())
    assert codegen.generate(game) == text
    assert len(sources[-1].memo) == memo
