"""Move concepts from the actions a move performs (Ludii 1.3.12's `Move.moveConcepts`)."""

import pytest

from conftest import refdata_dir, shared_dir
from ludeme.analysis.concepts_playout import NO_LUDEME, Action, action_agreement, action_concepts, load_tagged, ludii_actions, moves_ludeme


class _Board:
    """No board is read by the actions below (no hop)."""


def _state(what, who, mover=1):
    """A stand-in for the state before a move: what and who per site, the mover."""
    class G:
        teams: dict = {}

        class _C:
            num_sites = len(what)
        containers = [_C]

    class S:
        pass
    s = S()
    s.what, s.who, s.g, s.mover = list(what), list(who), G, mover
    s.current_player = lambda: mover
    return s


def test_a_removal_counts_only_where_a_piece_stood():
    """ActionRemove: an occupied site is a RemoveEffect with the capture concepts of the
    moves ludeme; an empty one gives nothing, whatever the ludeme declares."""
    state = _state([1, 0], [2, 0])
    ludeme = frozenset({"ReplacementCapture", "HopDecision"})
    assert action_concepts(state, _Board(), Action("Remove", 0, 0), ludeme, 1) \
        == {"RemoveEffect", "ReplacementCapture"}
    assert action_concepts(state, _Board(), Action("Remove", 1, 1), ludeme, 1) == set()
    assert action_concepts(state, _Board(), Action("Remove", 0, 0, decision=True),
                           frozenset(), 1) == {"RemoveDecision"}


def test_decisions_effects_and_move_again():
    state = _state([0, 0], [0, 0])
    none = frozenset()
    assert action_concepts(state, _Board(), Action("Add", 0, 0, decision=True), none, 1) \
        == {"AddDecision"}
    assert action_concepts(state, _Board(), Action("Add", 0, 0), none, 1) == {"AddEffect"}
    assert action_concepts(state, _Board(), Action("SetNextPlayer", player=1), none, 1) \
        == {"SetNextPlayer", "MoveAgain"}
    assert action_concepts(state, _Board(), Action("SetNextPlayer", player=2), none, 1) \
        == {"SetNextPlayer"}
    assert action_concepts(state, _Board(), Action("SetState", 0, 0), frozenset({"Flip"}), 1) \
        == {"SetSiteState", "Flip"}


def test_a_step_is_to_empty_friend_or_enemy_by_what_stood_there():
    state = _state([1, 0, 1, 1], [1, 0, 1, 2])
    step = frozenset({"StepDecision", "Sow"})
    assert action_concepts(state, _Board(), Action("Move", 0, 1), step, 1) \
        == {"StepDecision", "StepDecisionToEmpty", "Sow"}
    assert "StepDecisionToFriend" in action_concepts(state, _Board(), Action("Move", 0, 2), step, 1)
    assert "StepDecisionToEnemy" in action_concepts(state, _Board(), Action("Move", 0, 3), step, 1)
    # a move with no moves ludeme (Ludii's hop decisions) carries no ludeme concept
    assert action_concepts(state, _Board(), Action("Move", 0, 1), frozenset(), 1) == set()


def test_ludii_records_are_read_as_actions():
    got = ludii_actions("[Move:mover=2,from=43,to=34,actions=[Remove:type=Cell,to=34],"
                        "[Move:typeFrom=Cell,from=43,typeTo=Cell,to=34,decision=true],"
                        "[SetNextPlayer:player=2]]")
    assert [(a.name, a.frm, a.to, a.player, a.decision) for a in got] == [
        ("Remove", 34, 34, 0, False), ("Move", 43, 34, 0, True),
        ("SetNextPlayer", -1, -1, 2, False)]


def test_the_moves_ludeme_is_the_outermost_that_records_one():
    """Effects record themselves, (priority ...) its entry, (max ...) no ludeme, operators
    and hop nothing."""
    from ludeme.model.ludemes.base import REGISTRY

    def node(keyword, kind=None):
        cls = next(c for c in REGISTRY[keyword] if c.kind == kind)
        return cls.__new__(cls)
    step, hop, foreach = node("move", "Step"), node("move", "Hop"), node("forEach", "Piece")
    assert moves_ludeme([step, foreach]) is step
    assert moves_ludeme([hop, foreach]) is None
    assert moves_ludeme([hop, foreach, node("max", "Captures")]) is NO_LUDEME
    entry = node("max", "Captures")
    assert moves_ludeme([hop, entry, node("priority")]) is entry


def test_load_tagged_records_every_ludeme_that_returned_a_move():
    path = shared_dir() / "ludii" / "games" / "Breakthrough.lud" if shared_dir() else None
    if path is None or not path.is_file():
        pytest.skip("Ludii's Breakthrough.lud not found: put shared/ beside the checkout")
    game, tags, _typed, _walk, _rec = load_tagged(path)
    state = game.new_initial_state()
    legal = state.legal_moves()
    chain = tags[id(legal[0])][1]
    assert type(chain[0]).keyword == "move" and type(chain[-1]).keyword == "forEach"


@pytest.mark.parametrize("slug", ["breakthrough", "reversi", "english-draughts",
                                  "adzua-children-ludii-5", "chinese-checkers-3p", "hex"])
def test_recorded_moves_have_ludiis_concepts(slug):
    """The concepts of every move of a reference trace, read from the actions applied
    here, equal those read from the actions Ludii applied (its `applied` record)."""
    ref = refdata_dir()
    trace = ref / "traces" / slug / "seed-1.json.gz" if ref else None
    if trace is None or not trace.is_file():
        pytest.skip("reference traces not found: put shared/ beside the checkout")
    got = action_agreement([trace], shared_dir() / "ludii")
    assert got["traces"] == 1 and got["moves"] > 10
    assert got["agree"] == got["moves"], got["wrong"].most_common(5)


def test_english_draughts_is_the_only_reference_game_with_piece_images():
    """The English Draughts erratum (its reference record was made without Ludii's image
    list) can touch no other reference game: no other one has a piece whose name finds an
    image family."""
    import json

    from ludeme.analysis.concepts import image_family
    ref = refdata_dir()
    if ref is None:
        pytest.skip("reference data not found: put shared/ beside the checkout")
    with_images = set()
    for info in sorted((ref / "info").glob("*.json")):
        names = [c.get("name") or "" for c in json.loads(info.read_text()).get("components", [])]
        if any(image_family(n.rstrip("0123456789")) for n in names if n):
            with_images.add(info.stem)
    assert with_images == {"english-draughts"}
    assert image_family("Counter") == "CheckersComponent"
    assert image_family("Ferz_noCross") == "FairyChessComponent"
    assert image_family("King") is None      # the Piece ludeme names it (KingComponent)
