"""The engine on the bundled descriptions: conformance, Ludii's groups, limits, errors."""

from pathlib import Path

import pytest

from conftest import DESCRIPTIONS
from ludeme.api import load
from ludeme.errors import LudemeError
from ludeme.language.expand import load_description
from ludeme.analysis.conformance import check_conformance, random_playout

BUNDLED = sorted(DESCRIPTIONS.glob("*.lud"))


def _configs():
    for path in BUNDLED:
        desc = load_description(path)
        for rs in [r.name for r in desc.rulesets] or [None]:
            yield pytest.param(path, rs, id=f"{path.stem}:{rs or 'default'}")


@pytest.mark.parametrize("path,ruleset", list(_configs()))
def test_conformance(path: Path, ruleset):
    game = load(path, ruleset=ruleset)
    check_conformance(game, seeds=(1, 2), max_decisions=400)


ADZUA = DESCRIPTIONS / "adzua_children.lud"


def _adzua(n):
    return load(ADZUA, ruleset=f"Adzua (Children) (Ludii {n}) (Reconstructed)")


def _game_record(game, seed):
    state, choices = random_playout(game, seed)
    return tuple(choices), state.winner, state.num_turn, state.num_decisions


@pytest.mark.parametrize("group", [(1, 2, 4, 6, 8, 9), (3, 5, 7)])
def test_adzua_groups_play_identically(group):
    # On the 3x3 vertex board Adjacent equals Orthogonal and the goals are equivalent,
    # so these reconstructions give the same games for the same seeds (as in Ludii).
    games = [_adzua(n) for n in group]
    for seed in range(5):
        records = {_game_record(g, seed) for g in games}
        assert len(records) == 1, (seed, records)


def test_adzua_groups_differ_from_each_other():
    a, b = _adzua(1), _adzua(5)
    assert any(_game_record(a, s) != _game_record(b, s) for s in range(10))


def test_adzua_5_keeps_scores_and_ends_naturally():
    game = _adzua(5)
    ended = [random_playout(game, s)[0] for s in range(10)]
    assert all(s.end_type == "NaturalEnd" and s.winner in (1, 2) for s in ended)
    assert any(sum(s.scores[1:]) > 0 for s in ended)


def test_adzua_10_runs_into_the_turn_limit():
    game = _adzua(10)
    state, _ = random_playout(game, 3)
    assert state.end_type == "TurnLimit" and state.winner == 0
    assert state.num_turn == 1250 * 2


def test_turn_limit_is_configurable_and_is_a_timeout():
    game = load(ADZUA, ruleset="Adzua (Children) (Ludii 10) (Reconstructed)", max_turns=10)
    state, _ = random_playout(game, 1)
    assert state.end_type == "TurnLimit" and state.num_turn == 20
    assert state.ranking[1:] == [1.5, 1.5]  # undecided players share the ranks, nobody wins


def test_initial_position_matches_ludii_numbering():
    s = _adzua(5).new_initial_state()
    assert s.count[9] == 4 and s.who[9] == 1 and s.count[10] == 4 and s.who[10] == 2
    assert sorted((m.frm, m.to) for m in s.legal_moves()) == [(9, t) for t in range(9)]


@pytest.mark.parametrize("snippet,words", [
    ('(game "g" (players 2) (equipment {(board (square 3))}) (rules (play (move Jump))))',
     "unknown (move Jump"),
    ('(game "g" (players 2) (equipment {(board (square 3))}) (rules (play (mvoe Add))))',
     "unknown ludeme (mvoe"),
    ('(game "g" (players 2) (equipment {(board (square 3))}) (rules (play (move Add (to 1.5)))))',
     "unexpected argument '1.5' for (to ...)"),
    ('(game "g" (players 2) (equipment {(board (square 3)) (piece "X" Each)}) '
     '(rules (play (move Add (to (sites Empty)) bogus:1))))', "no argument 'bogus:'"),
    ('(game "g" (players 2) (equipment {(board (square 3))}) (rules (play (move Add '
     '(to (sites Empty)) (then (moveAgin))))))', "did you mean 'moveAgain'"),
    ('(game "g" (players 0) (equipment {(board (square 3))}) (rules (play (move Pass))))',
     "1 to 16 players"),
])
def test_compile_errors_name_position_and_path(tmp_path, snippet, words):
    f = tmp_path / "bad.lud"
    f.write_text(snippet)
    with pytest.raises(LudemeError) as e:
        load(f)
    assert words in str(e.value)
    assert e.value.pos is not None and e.value.pos.file == str(f)
    assert e.value.path.startswith("game")


def _snippet_game(tmp_path, text, **kw):
    f = tmp_path / "g.lud"
    f.write_text(text)
    return load(f, **kw)


STUCK = ('(game "g" (players 2) (equipment {{(board (square 2)) (piece "X" Each)}}) '
         '(rules {meta} (play (move Add (to (sites Empty) if:False))) '
         '(end (if False (result Mover Win)))))')


def test_a_round_of_passes_is_a_draw_unless_pass_end_says_no(tmp_path):
    # As Ludii's Context.allPass: with no earlier move to look back on, the first pass
    # already counts as everyone having passed.
    state, choices = random_playout(_snippet_game(tmp_path, STUCK.format(meta="")), 1)
    assert state.end_type == "NaturalEnd" and state.winner == 0 and len(choices) == 1
    game = _snippet_game(tmp_path, STUCK.format(meta="(meta (passEnd NoEnd))"), max_turns=5)
    state, choices = random_playout(game, 1)
    assert state.end_type == "TurnLimit" and len(choices) == 10 and state.num_turn == 10


HOP = ('(game "g" (players 2) (equipment {{(board (rectangle 1 4)) '
       '(piece "X" Each (move Hop {between} (to if:(is Empty (to)))))}}) '
       '(rules (start {{(place "X1" 0) (place "X2" 1)}}) (play (forEach Piece)) '
       '(end (if False (result Mover Win)))))')


@pytest.mark.parametrize("between,expected", [
    ("", [(0, 2)]),                                   # no (between): any site is a hurdle
    ("(between if:(is Occupied (between)))", [(0, 2)]),
    ("(between)", [(-1, -1)]),    # (between) without if: nothing to hop, so a forced pass
])
def test_hop_hurdles_follow_ludii(tmp_path, between, expected):
    game = _snippet_game(tmp_path, HOP.format(between=between))
    assert sorted(m.key() for m in game.new_initial_state().legal_moves()) == expected


REGION = ('(game "g" (players 2) (equipment {{(board (square 5)) (piece "X" Each)}}) '
          '(rules (play (move Add (to {region}))) (end (if False (result Mover Win)))))')


@pytest.mark.parametrize("region,labels", [
    # Adjacent (the default) on square cells includes diagonals: two king steps from C3
    # is the outer ring.
    ('(sites Distance from:(coord "C3") (exact 2))',
     "A1 B1 C1 D1 E1 A2 E2 A3 E3 A4 E4 A5 B5 C5 D5 E5"),
    ('(sites Distance Orthogonal from:(coord "C3") (exact 2))', "A3 B2 B4 C1 C5 D2 D4 E3"),
    ('(sites Distance Orthogonal from:(coord "A1") (range 0 1))', "A1 A2 B1"),
    ('(sites Around (coord "A1") Orthogonal)', "A2 B1"),
    ('(sites Direction from:(coord "B2") E)', "C2 D2 E2"),
    ("(sites Perimeter)", "A1 B1 C1 D1 E1 A5 B5 C5 D5 E5 A2 A3 A4 E2 E3 E4"),
    ("(sites Corners)", "A1 E1 A5 E5"),
    ("(sites Centre)", "C3"),
    ("(sites Row 1)", "A2 B2 C2 D2 E2"),
    ("(sites Column 4)", "E1 E2 E3 E4 E5"),
    ("(difference (sites Board) (expand (sites Centre)))",
     "A1 B1 C1 D1 E1 A2 E2 A3 E3 A4 E4 A5 B5 C5 D5 E5"),
])
def test_region_ludemes_on_a_square_board(tmp_path, region, labels):
    game = _snippet_game(tmp_path, REGION.format(region=region))
    board = game.board
    got = {board.sites[m.to].label for m in game.new_initial_state().legal_moves()}
    assert got == set(labels.split())
