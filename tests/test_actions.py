"""The one action vocabulary (`ludeme.engine.actions.ACTIONS`) is what the engines read."""

from __future__ import annotations

import pytest

from ludeme.analysis.concepts_playout import engine_action
from ludeme.engine import actions as A
from ludeme.engine.state import State


def test_codes_are_the_indices_of_the_table_and_the_constants_name_them():
    assert [k.code for k in A.ACTIONS] == list(range(len(A.ACTIONS)))
    constants = {v: n for n, v in vars(A).items() if n.startswith("A_") and isinstance(v, int)}
    assert sorted(constants) == list(range(len(A.ACTIONS)))


@pytest.mark.parametrize("kind", A.ACTIONS, ids=lambda k: k.name)
def test_every_kind_is_applied_by_the_method_the_table_names(kind):
    """The three commonest kinds are written inline in `State.do_action`; every other
    kind names a `State` method, which the dispatch table holds."""
    from ludeme.engine import state
    if kind.apply is None:
        assert kind.code in (A.A_MOVE, A.A_REMOVE, A.A_ADD)
    else:
        assert state._APPLY[kind.code] is getattr(State, kind.apply)


@pytest.mark.parametrize("a, stacking, name, sites", [
    ((A.A_MOVE, 3, 5), False, "Move", (3, 5)),
    ((A.A_MOVE_LEVEL, 3, 0, 5, -1), False, "Move", (3, 5)),
    ((A.A_MOVE_N, 3, 5, 2), True, "StackMove", (3, 5)),
    ((A.A_MOVE_N, 3, 5, 2), False, "Move", (3, 5)),
    ((A.A_REMOVE_LEVEL, 4, 1), False, "Remove", (4, 4)),
    ((A.A_ADD_LEVEL, 4, 1, 1, 1, -1), True, "Add", (4, 4)),
    ((A.A_ADD_LEVEL, 4, 1, 1, 1, 0), True, "Insert", (4, 4)),
    ((A.A_SET_FIELD, "rotation", 7, -1, 2), False, "SetRotation", (7, 7)),
    ((A.A_SET_VAR, ("player", 2), 1), False, "SetValueOfPlayer", (-1, -1)),
    ((A.A_SET_VAR, A.VOTES, 1), False, "Vote", (-1, -1)),
    ((A.A_UPDATE_DIE, 9, 3), False, "SetStateAndUpdateDice", (-1, -1)),
])
def test_ludiis_class_of_an_action_comes_from_the_table(a, stacking, name, sites):
    act = engine_action(a, decision=True, stacking=stacking)
    assert (act.name, act.frm, act.to) == (name, *sites)


def test_actions_ludii_has_no_class_for_are_left_out():
    assert engine_action((A.A_SET_MOVER, 1)) is None
    assert engine_action((A.A_SET_FIELD, "unknown", 1, -1, 0)) is None
