"""`ludeme concepts`: declarations, the walk, Ludii's reference concepts, diff, index, nearest."""

import json

import pytest

from conftest import DESCRIPTIONS, refdata_dir, shared_dir
from ludeme.cli.main import main
from ludeme.analysis.concepts_accuracy import RECORD_ERRATA, reference_expected
from ludeme.analysis.concepts import catalog, compile_time, diff, jaccard, nearest, parse_entry, with_parents
from ludeme.model.ludemes.base import REGISTRY

ADZUA = DESCRIPTIONS / "adzua_children.lud"


def adzua(k: int) -> str:
    return f"Ruleset/Adzua (Children) (Ludii {k}) (Reconstructed)"


def test_catalogue_has_ludiis_809_concepts():
    cat = catalog()
    assert len(cat) == 809
    assert sum(c.computation == "Compilation" for c in cat.values()) == 511
    assert cat["StepDecisionToEmpty"].parent == "StepDecision"


DECLARED = sorted({(cls.__name__, e) for classes in REGISTRY.values() for cls in classes
                   for e in getattr(cls, "concepts", ())})


@pytest.mark.parametrize("cls, entry", DECLARED)
def test_every_declaration_names_catalogued_concepts(cls, entry):
    name, terms = parse_entry(entry)        # raises on an unknown concept or condition
    assert name


@pytest.mark.parametrize("entry, expected", [
    ("RemoveDecision", ("RemoveDecision", ())),
    ("IsEmpty if not to.if", ("IsEmpty", ((True, "to.if", None, None),))),
    ("StepDecisionToEnemy if to.if has IsEnemy",
     ("StepDecisionToEnemy", ((False, "to.if", "has", "IsEnemy"),))),
    ("DiscComponent if name == Disc", ("DiscComponent", ((False, "name", "==", "Disc"),))),
    ("PieceCount if not count == 1", ("PieceCount", ((True, "count", "==", "1"),))),
    ("-IsFriend if cond has IsFriend", ("-IsFriend", ((False, "cond", "has", "IsFriend"),))),
    ("-to.apply", ("-to.apply", ())),
    ("@end cond result", ("@end", ("cond", "result"))),
    ("NoSuchConcept", ValueError),
    ("IsEmpty if to has NoSuchConcept", ValueError),
    ("IsEmpty if to ?? x", ValueError),
])
def test_declaration_language(entry, expected):
    if expected is ValueError:
        with pytest.raises(ValueError):
            parse_entry(entry)
    else:
        assert parse_entry(entry) == expected


@pytest.mark.parametrize("names, expected", [
    ({"Equal"}, {"Equal", "Comparison", "Arithmetic", "Math"}),
    ({"TwoPlayer"}, {"TwoPlayer", "Players", "Properties"}),         # through NumPlayers
    ({"ChessStyle"}, {"ChessStyle"}),                                 # a metadata style alone
    ({"GraphStyle"}, {"GraphStyle", "BoardStyle", "Style", "Visual"}),
])
def test_parents_are_set(names, expected):
    assert with_parents(names) == expected


def test_rulesets_differ_where_their_rules_do():
    one, five = compile_time(ADZUA, (), adzua(1)), compile_time(ADZUA, (), adzua(5))
    d = diff(one, five)
    assert "AdjacentDirection" in d["only_a"]
    assert {"Scoring", "NotEqual", "Union"} <= set(d["only_b"])
    assert 0.8 < d["jaccard"] < 1.0
    assert one.non_boolean["NumPlayers"] == "2" and one.non_boolean["NumRows"] == "3"


def test_nearest_ranks_the_same_game_first():
    target = compile_time(ADZUA, (), adzua(5))
    index = [{"name": n, "path": n, "booleanConcepts": sorted(gc.boolean),
              "nonBooleanConcepts": gc.non_boolean}
             for n, gc in (("five", target), ("one", compile_time(ADZUA, (), adzua(1))),
                           ("loa", compile_time(DESCRIPTIONS / "lines_of_action.lud")))]
    ranked = nearest(target, index, 3)
    assert [r["name"] for r in ranked] == ["five", "one", "loa"]
    assert ranked[0]["jaccard_distance"] == 0.0 and ranked[0]["cosine_distance"] < 1e-9
    assert jaccard(set(), set()) == 1.0


# ---------------------------------------------------------------- Ludii's reference concepts

def _expected_concepts(refdata, slug) -> set[str]:
    """Ludii's recorded boolean concepts, with a checked erratum applied (`RECORD_ERRATA`)."""
    if slug in RECORD_ERRATA and not (refdata / "corpus-concepts"
                                      / f"{RECORD_ERRATA[slug][0]}.json").is_file():
        pytest.skip(f"{slug}: Ludii's corpus record {RECORD_ERRATA[slug][0]} not found")
    return reference_expected(refdata, slug)


def _reference_configs():
    ref = refdata_dir()
    if ref is None:
        return []
    return json.loads((ref / "configs.json").read_text())["configs"]


@pytest.mark.parametrize("config", _reference_configs(), ids=lambda c: c["slug"])
def test_compile_time_concepts_equal_ludiis(config, refdata):
    from ludeme.errors import LudemeError
    expected = json.loads((refdata / "concepts" / f"{config['slug']}.json").read_text())
    path = shared_dir() / "ludii" / "games" / config["lud"]
    try:
        got = compile_time(path, config["options"], config["ruleset"])
    except LudemeError as e:
        pytest.skip(f"{config['slug']} does not compile yet: {str(e).splitlines()[0][:120]}")
    if got.undeclared:
        pytest.skip(f"{config['slug']}: no concepts declared yet for "
                    f"{', '.join(sorted(got.undeclared))}")
    assert sorted(got.boolean) == sorted(_expected_concepts(refdata, config["slug"]))
    for name, value in got.non_boolean.items():
        if name in expected["nonBooleanConcepts"]:
            assert value == expected["nonBooleanConcepts"][name], name


def test_reference_configurations_are_listed():
    if refdata_dir() is None:
        pytest.skip("Ludii reference data not found: put shared/ beside the checkout")
    assert len(_reference_configs()) == 36


# ---------------------------------------------------------------- the command

def test_json_is_shaped_like_ludiis_records(capsys):
    assert main(["concepts", str(ADZUA), "--ruleset", adzua(5), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"booleanConcepts", "nonBooleanConcepts", "numTrue", "byType"} <= set(data)
    assert "RemoveDecision" in data["booleanConcepts"]
    assert data["nonBooleanConcepts"]["NumPlayableSites"] == "15"


def test_csv_and_playout_concepts(capsys):
    assert main(["concepts", str(ADZUA), "--ruleset", adzua(1), "--csv", "--playouts", "20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "game,ruleset,options,concept,id,type,computation,value,agents,playouts"
    assert any(",DurationTurns," in line and ",Playout," in line for line in lines)
    playout_rows = [line for line in lines if ",Playout," in line]
    assert playout_rows and all(line.endswith(",random random,20") for line in playout_rows)


def test_all_rulesets_text(capsys):
    assert main(["concepts", str(ADZUA), "--all-rulesets"]) == 0
    out = capsys.readouterr().out
    assert out.count("Adzua (Children) / Ruleset/") == 10


def test_diff_command(capsys):
    assert main(["concepts", "--diff", f"{ADZUA}::{adzua(1)}", f"{ADZUA}::{adzua(3)}"]) == 0
    out = capsys.readouterr().out
    assert "Jaccard similarity" in out and "Scoring" in out


def test_index_and_nearest(tmp_path, capsys):
    index = tmp_path / "index.json"
    assert main(["concepts", "--index", str(DESCRIPTIONS), "--out", str(index)]) == 0
    data = json.loads(index.read_text())
    assert {"Adzua (Children)", "Lines of Action"} <= {g["name"] for g in data["games"]}
    assert len(data["games"]) + len(data["failures"]) == len(list(DESCRIPTIONS.glob("*.lud")))
    capsys.readouterr()
    assert main(["concepts", str(ADZUA), "--nearest", "1", "--against", str(index)]) == 0
    assert "Adzua (Children)" in capsys.readouterr().out.splitlines()[1]


@pytest.mark.parametrize("argv, message", [
    (["--index", str(DESCRIPTIONS)], "needs --out"),
    ([str(ADZUA), "--nearest", "2"], "needs --against"),
    ([], "give a .lud FILE"),
    ([str(ADZUA), "--ruleset", "X", "--all-rulesets"], "exclude each other"),
])
def test_bad_input(argv, message, capsys):
    assert main(["concepts", *argv]) == 2
    assert message in capsys.readouterr().err


# ---------------------------------------------------------------- playout concepts

def test_playout_concepts_of_breakthrough():
    """Every Breakthrough move is a step to an empty or an enemy site, a capture exactly when
    to an enemy; every playout ends by reaching the far row (Ludii's frequencies are shares
    of legal moves per state, averaged over states, then over playouts)."""
    from ludeme.analysis.concepts_playout import playout_concepts
    path = shared_dir() / "ludii" / "games" / "Breakthrough.lud" if shared_dir() else None
    if path is None or not path.is_file():
        pytest.skip("Ludii's Breakthrough.lud not found: put shared/ beside the checkout")
    got = playout_concepts(path, playouts=4, seed=1)
    assert got["StepDecisionFrequency"] == pytest.approx(1.0)
    assert got["StepDecisionToEmptyFrequency"] + got["StepDecisionToEnemyFrequency"] \
        == pytest.approx(1.0)
    assert got["ReplacementCaptureFrequency"] == pytest.approx(got["StepDecisionToEnemyFrequency"])
    assert 0 < got["StepDecisionToEnemyFrequency"] < 0.5
    assert got["ReachEndFrequency"] == got["ReachWinFrequency"] == 1.0
    assert "HopDecisionFrequency" not in got


def test_playout_concepts_of_tic_tac_toe_end_shares():
    from ludeme.analysis.concepts_playout import playout_concepts
    path = shared_dir() / "ludii" / "games" / "Tic-Tac-Toe.lud" if shared_dir() else None
    if path is None or not path.is_file():
        pytest.skip("Ludii's Tic-Tac-Toe.lud not found: put shared/ beside the checkout")
    got = playout_concepts(path, playouts=20, seed=3)
    assert got["AddDecisionFrequency"] > 0.9
    assert got["LineEndFrequency"] + got.get("DrawFrequency", 0.0) == pytest.approx(1.0)


def test_tic_tac_toe_forced_passes_count_as_pass_decisions():
    """Ludii's trial of a drawn Tic-Tac-Toe ends with two forced passes (`[Pass:decision=true,
    forced=true]`, the reference traces show them), and `frequencyConcepts` visits every
    state before a move: each pass state has one legal move, a PassDecision. So a draw has
    11 states with moves, 9 adds and 2 passes, and a win only adds."""
    from ludeme.analysis.concepts_playout import playout_concepts
    path = shared_dir() / "ludii" / "games" / "Tic-Tac-Toe.lud" if shared_dir() else None
    if path is None or not path.is_file():
        pytest.skip("Ludii's Tic-Tac-Toe.lud not found: put shared/ beside the checkout")
    got = playout_concepts(path, playouts=30, seed=0)
    draws = got.get("DrawFrequency", 0.0)
    assert 0 < draws < 1
    assert got["PassDecisionFrequency"] == pytest.approx(draws * 2 / 11)
    assert got["AddDecisionFrequency"] + got["PassDecisionFrequency"] == pytest.approx(1.0)


def test_playout_concepts_name_their_agents(capsys):
    """`--agents` chooses who plays the playouts; the output says which and how many."""
    argv = ["concepts", str(ADZUA), "--ruleset", adzua(1), "--json", "--playouts", "3",
            "--agents", "greedy,random"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["playoutAgents"] == ["greedy", "random"] and data["playoutCount"] == 3
    assert "P1 greedy, P2 random" in data["playoutSource"]
    assert main(["concepts", str(ADZUA), "--ruleset", adzua(1), "--playouts", "2",
                 "--agents", "random,random"]) == 0
    assert "2 playouts (P1 random, P2 random)" in capsys.readouterr().out


def test_agents_change_the_playouts_not_the_definition():
    """A greedy first player wins Tic-Tac-Toe more often than a random one; every share
    stays a share of all legal moves (the decisions still sum to one per state)."""
    from ludeme.analysis.concepts_playout import playout_concepts
    path = shared_dir() / "ludii" / "games" / "Tic-Tac-Toe.lud" if shared_dir() else None
    if path is None or not path.is_file():
        pytest.skip("Ludii's Tic-Tac-Toe.lud not found: put shared/ beside the checkout")
    rand = playout_concepts(path, playouts=30, seed=2)
    greedy = playout_concepts(path, playouts=30, seed=2, agents="greedy,greedy")
    assert greedy != rand
    assert greedy["AddDecisionFrequency"] + greedy.get("PassDecisionFrequency", 0) \
        == pytest.approx(1.0)


@pytest.mark.parametrize("argv, message", [
    ([str(ADZUA), "--agents", "random,random"], "needs --playouts"),
    ([str(ADZUA), "--playouts", "1", "--agents", "random"], "give one per player"),
    ([str(ADZUA), "--playouts", "1", "--agents", "minimax,random"], "unknown agent"),
])
def test_bad_agents(argv, message, capsys):
    assert main(["concepts", *argv]) == 2
    assert message in capsys.readouterr().err


def test_every_registered_ludeme_declares_its_concepts():
    """Each ludeme class says which concepts it contributes (`concepts = ()` when none, as
    Ludii's class sets none): a new ludeme without a declaration is listed here."""
    import sys
    undeclared = sorted(f"{cls.__module__}.{cls.__name__}" for classes in REGISTRY.values()
                        for cls in classes if "concepts" not in vars(cls) and (
                            hasattr(cls, "concepts") or not getattr(
                                sys.modules[cls.__module__], "CONCEPTS_REVIEWED", False)))
    assert undeclared == []


def test_end_shares_and_move_again_read_the_moves_effects():
    """Adzua (Ludii 5) always ends by reducing the opponent to two markers (no draws or
    timeouts): every playout is an EliminatePieces end, judged with the players still
    active as Ludii's prevContext has them. A step gives another turn only when it makes
    a line beside the vacated point, so MoveAgain is a small share of the moves (counting
    every step whose `then` could move again gave 0.87)."""
    from ludeme.analysis.concepts_playout import playout_concepts
    got = playout_concepts(ADZUA, (), adzua(5), playouts=10, seed=0)
    assert got["EliminatePiecesEndFrequency"] == 1.0 and "DrawFrequency" not in got
    assert 0 < got["MoveAgainFrequency"] < 0.3


@pytest.mark.parametrize("tile, expected, absent", [
    # a large piece's state is its rotation: Ludii's computeBooleanConcepts sets SiteState
    # (with its parents) for LargePiece, as its records of Cram, Domineering, Pentomino show
    ('(tile "D" Each {R F})', {"Tile", "LargePiece", "SiteState", "PieceState", "State"}, set()),
    ('(tile "D" Each)', {"Tile"}, {"LargePiece", "SiteState"}),
])
def test_a_large_piece_is_a_large_piece_with_site_states(tmp_path, tile, expected, absent):
    f = tmp_path / "t.lud"
    f.write_text(f'(game "t" (players 2) (equipment {{(board (square 3)) {tile}}}) (rules '
                 '(play (move Add (to (sites Empty)))) (end (if (no Moves Next) (result Mover '
                 'Win)))))')
    found = compile_time(str(f)).boolean
    assert expected <= found and not absent & found


@pytest.mark.parametrize("dice, count", [("", "0"), ("(dice d:6 num:2)", "2"),
                                         ("(dice d:2 from:0 num:4)", "4")])
def test_num_dice_counts_the_dice(tmp_path, dice, count):
    # Ludii's NumDice is the number of dice among the components (Backgammon's two: 2)
    path = tmp_path / "d.lud"
    path.write_text(f'(game "D" (players 2) (equipment {{ (board (square 3)) {dice} '
                    f'(piece "Disc" Each) }}) (rules (play (move Add (to (sites Empty)))) '
                    f'(end (if (is Full) (result Mover Draw)))))')
    assert compile_time(path).non_boolean["NumDice"] == count
