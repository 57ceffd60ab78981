"""Strict ludemes: every declared argument is read by compiling or refused at its position,
and one role model resolves player words."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError
from ludeme.model.ludemes.base import CLASSES, REGISTRY, Ludeme
from ludeme.model.ludemes.builder import Builder
from ludeme.language.syntax import Int
from ludeme.errors import Pos


def _every_param():
    for keyword, classes in sorted(REGISTRY.items()):
        for cls in classes:
            for p in cls.params:
                yield pytest.param(cls, p, id=f"({keyword}{' ' + cls.kind if cls.kind else ''})"
                                              f" {p.name}")


@pytest.mark.parametrize("cls,param", list(_every_param()))
def test_every_declared_argument_is_read_or_refused(cls, param):
    """Walk the registry: for every parameter of every ludeme, a value the source gave is
    either read (through the tracked attribute, never shadowed by a class attribute or a
    method of the same name) or, when nothing reads it, refused at its position."""
    node = Int(7, Pos("t.lud", 3, 5))
    fields = {p.attr: None for p in cls.params}
    fields[param.attr] = "given"
    lud = cls(node, "game/x", given={param.attr: (param.name, node)}, **fields)
    builder = Builder()
    builder.built.append(lud)
    # Unread: refused, at the argument's own position, naming it.
    with pytest.raises(LudemeError) as e:
        builder.check_all_read()
    assert f"'{param.name}'" in str(e.value) and "not supported yet" in str(e.value)
    assert (e.value.pos.line, e.value.pos.col) == (3, 5)
    # Read: accepted, and the value read is the argument's.
    assert param.attr not in vars(lud)
    assert getattr(lud, param.attr) == "given"
    builder.check_all_read()


def test_the_registry_is_not_empty_and_classes_are_registered_once():
    assert sum(len(c) for c in REGISTRY.values()) > 100   # keywords x kinds
    assert all(issubclass(c, Ludeme) for c in CLASSES.values())


GAME = ('(game "g" (players 2) (equipment {{(board (square 3)) (piece "X" Each) {extra}}}) '
        '(rules {start} (play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _load(tmp_path, play, start="", extra=""):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(play=play, start=start, extra=extra))
    return load(f), f


# Each argument that is declared but not implemented yet stops compilation at its own
# position with "not supported yet" (table: snippet of the play rule, the argument).
UNSUPPORTED = [
    ("(move (from (sites Occupied by:Mover)) (to (sites Empty)) mover:Next)", "mover"),
    ("(move (from (sites Occupied by:Mover)) (to (sites Empty) level:0) count:2)", "level"),
    ("(forEach Piece (move Step (to if:(is Empty (to))) (then (moveAgain) "
     "applyAfterAllMoves:True)))", "applyAfterAllMoves"),
    ("(forEach Piece (move Hop (between if:(is Enemy (who at:(between))) trail:1) "
     "(to if:(is Empty (to)))))", "trail"),
    ("(forEach Piece (move Step (from level:1) (to if:(is Empty (to))) stack:True))", "level"),
    ("(forEach Piece (move Step (to if:(is Empty (to))) (then (intervene (from (last To)) "
     "(between if:(is Empty (between)))))))", "if"),
]


@pytest.mark.parametrize("play,arg", UNSUPPORTED)
def test_unsupported_arguments_stop_at_their_position(tmp_path, play, arg):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(play=play, start='(start {(place "X1" 0) (place "X2" 8)})',
                             extra=""))
    with pytest.raises(LudemeError) as e:
        load(f)
    msg = str(e.value)
    assert "not supported yet" in msg and (f"'{arg}'" in msg or arg + ":" in msg), msg
    assert e.value.pos.file == str(f) and e.value.pos.line == 1
    assert e.value.path.startswith("game/rules/play")


def test_copy_leaves_the_piece_where_it_was(tmp_path):
    game, _ = _load(tmp_path, '(move (from (sites Hand Shared)) (to (sites Empty)) copy:True)',
                    start='(start (place "Y" (handSite Shared)))',
                    extra='(piece "Y" Shared) (hand Shared)')
    s = game.new_initial_state()
    hand = game.containers[-1].sites_from
    y = game.component_named("Y")
    assert game.containers[-1].owner == 3 and y.owner == 3   # Shared is player n + 1
    moves = s.legal_moves()
    assert {m.frm for m in moves} == {hand} and len(moves) == 9
    s.apply(moves[4])
    assert s.what[hand] == y.index and s.count[hand] == 1       # still there
    assert s.what[moves[4].to] == y.index and s.who[moves[4].to] == 3


def test_count_on_a_move_moves_that_many(tmp_path):
    game, _ = _load(tmp_path, '(move (from (sites Hand Mover)) (to (sites Empty)) count:2)',
                    start='(start (place "X1" (handSite P1) count:3))',
                    extra='(hand Each)')
    s = game.new_initial_state()
    hand = game.containers[1].sites_from
    m = s.legal_moves()[0]
    s.apply(m)
    assert s.count[hand] == 1 and s.count[m.to] == 2


def test_stack_true_moves_the_whole_stack_and_makes_the_game_stacking(tmp_path):
    from ludeme.engine.state import A_ADD_LEVEL
    from ludeme.engine.stores import TOP
    game, _ = _load(tmp_path, '(or (move Add (to (sites {0})) stack:True) '
                              '(forEach Piece (move Step E (to if:True) stack:True)))',
                    start='')
    assert game.stacking
    s = game.new_initial_state()
    add = next(m for m in s.legal_moves() if m.frm == m.to == 0)
    s.apply(add)                       # P1 adds at 0
    add2 = next(m for m in s.legal_moves() if m.frm == m.to == 0)
    s.apply(add2)                      # P2 adds on top
    assert s.size_stack(0) == 2 and s.who[0] == 2 and s.level_data(0, 0)[1] == 1
    x1 = game.component_named("X1").index
    s.do_action((A_ADD_LEVEL, 0, x1, 1, 1, TOP))   # P1's piece on top: [P1, P2, P1]
    step = next(m for m in s.legal_moves() if m.frm == 0 and m.to == 1)
    s.apply(step)
    assert s.size_stack(0) == 0 and [lv[1] for lv in s.stack(1)] == [1, 2, 1]


def test_step_applies_its_destination_effect_first(tmp_path):
    game, _ = _load(tmp_path, '(forEach Piece (move Step E (to if:(not (is Friend (who at:(to)))) '
                              '(apply if:(is Enemy (who at:(to))) (addScore Mover 1)))))',
                    start='(start {(place "X1" 0) (place "X2" 1)})')
    s = game.new_initial_state()
    s.apply(next(m for m in s.legal_moves() if (m.frm, m.to) == (0, 1)))
    assert s.scores[1] == 1 and s.who[1] == 1


def test_an_undefined_site_in_start_rules_places_nothing(tmp_path):
    """(handSite P1) without hands is Off: Ludii's ActionAdd does nothing below site 0."""
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(play="(move Pass)", start='(start (place "X1" (handSite P1)))',
                             extra=""))
    assert not any(load(f).new_initial_state().what)


@pytest.mark.parametrize("role,expected", [
    ("Neutral", 0), ("P1", 1), ("P2", 2), ("Shared", 3), ("All", 3), ("Any", 3)])
def test_one_role_model_for_fixed_roles(role, expected):
    from ludeme.model.roles import Roles
    roles = Roles(2)
    assert roles.owner(role, None) == expected


def test_roles_refuse_missing_players_and_plural_roles_where_one_is_expected():
    from ludeme.model.roles import Roles

    class L:
        def fail(self, msg):
            return LudemeError(msg)
    roles = Roles(2)
    with pytest.raises(LudemeError, match="does not exist"):
        roles.owner("P3", L())
    with pytest.raises(LudemeError, match="several players"):
        roles.id_fn("Enemy", L())
    assert roles.owners("Each", L()) == [1, 2]


def test_a_match_of_several_games_is_not_supported_yet_at_its_place(tmp_path):
    # Ludii's (match ...) plays a series of (game ...)s: refused where it is written
    f = tmp_path / "m.lud"
    f.write_text('(match "M" (players 2) (games {(subgame "Hex")}))')
    with pytest.raises(LudemeError, match=r"\(match \.\.\.\) is not supported yet") as e:
        load(f)
    assert e.value.pos is not None and e.value.pos.line == 1
