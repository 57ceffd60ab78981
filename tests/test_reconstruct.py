"""`ludeme reconstruct`: holes and their contexts, fragments, expected concepts, and a small
hand-written incomplete description completed end to end from a hand-written corpus."""

import csv
from pathlib import Path

import pytest

from ludeme.analysis.reconstruct import (Expected, Source, expected_concepts, find_holes,
                                         piece_map)
from ludeme.cli.main import main
from ludeme.language.expand import expand, load_description
from ludeme.language.grammar import parse

def race_game(name: str, piece: str, moves: str, end: str) -> str:
    """A two-player game on a 3x3 board, each side's pieces on its first row."""
    return f"""(game "{name}"
    (players 2)
    (equipment {{ (board (square 3)) (piece "{piece}" Each {moves}) }})
    (rules
        (start {{ (place "{piece}1" (sites Bottom)) (place "{piece}2" (sites Top)) }})
        (play (forEach Piece))
        (end {end})
    )
)
"""


# A tiny corpus, written for this test: three games on a 3x3 board.
CORPUS = {
    "board/race/stepper.lud": race_game(
        "Stepper", "Pawn", "(move Step Forward (to if:(is Empty (to))))",
        "(if (no Moves Next) (result Next Loss))"),
    "board/race/jumper.lud": race_game(
        "Jumper", "Frog", """(or
                (move Step (to if:(is Empty (to))))
                (move Hop (between if:(is Enemy (who at:(between))) (apply (remove (between))))
                          (to if:(is Empty (to)))))""",
        "(if (no Pieces Next) (result Next Loss))"),
    "board/race/leaper.lud": race_game(
        "Leaper", "Toad", """(move Hop (between if:(is Enemy (who at:(between)))
                                (apply (remove (between)))) (to if:(is Empty (to))))""",
        "(if (no Pieces Next) (result Next Loss))"),
    "board/space/filler.lud": """
(game "Filler"
    (players 2)
    (equipment { (board (square 3)) (piece "Ball" Each) })
    (rules
        (play (move Add (to (sites Empty))))
        (end (if (is Line 3) (result Mover Win)))
    )
)
""",
}

# The incomplete description: how a disc moves and how the game ends are unknown; the
# answer must start with six pieces and have step moves.
LITTLE = """(game "Little Race"
    (players 2)
    (equipment {
        (board (square 3))
        (piece "Disc" Each (move [#]))
    })
    (rules
        (start { (place "Disc1" (sites Bottom)) (place "Disc2" (sites Top)) })
        (play (forEach Piece))
        (end [#])
    )
)

(metadata
    (info { (classification "board/race/reconstruction/pending") })
    (recon {
        (concept "NumStartComponents" 6)
        (concept "StepDecision" True)
    })
)
"""

# No game of the corpus gives a (board ...) a second argument.
NO_FIT = """(game "Odd Board"
    (players 2)
    (equipment { (board (square 3) [#]) (piece "Disc" Each) })
    (rules (play (move Add (to (sites Empty)))) (end (if (is Line 3) (result Mover Win))))
)
"""


@pytest.fixture
def corpus(tmp_path) -> Path:
    for rel, text in CORPUS.items():
        p = tmp_path / "corpus" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path / "corpus"


def _expanded(tmp_path, text):
    p = tmp_path / "t.lud"
    p.write_text(text)
    return expand(load_description(p))


# ---------------------------------------------------------------- holes

@pytest.mark.parametrize("game, contexts, choices", [
    ('(game "G" (players 2) (rules [#]))', ["(rules [#])"], [0]),
    ('(game "G" (equipment { (piece "Disc" Each (move [#])) }))', ["(move [#])"], [0]),
    ('(game "G" (equipment { (board (square 3)) [#] }))', ["(equipment {... [#]})"], [0]),
    ('(game "G" (equipment { (piece "Disc" P1 [#]) }))', ["(piece ... ... [#])"], [0]),
    ('(game "G" (players [2..4]) (rules (end [?])))', ["(players [#])", "(end [#])"], [3, 0]),
    ('(game "G" (players [2 | 4]))', ["(players [#])"], [2]),
    ('(game "G" (rules (play (or [#] [#]))))', ["(or [#] ...)", "(or ... [#])"], [0, 0]),
])
def test_holes_and_their_contexts(tmp_path, game, contexts, choices):
    holes = find_holes(_expanded(tmp_path, game))
    assert [str(h.context) for h in holes] == contexts
    assert [len(h.choices) for h in holes] == choices


@pytest.mark.parametrize("start, known", [
    # the template places a player's pieces: the hole takes what other starts list besides
    ('(place "Disc1" 0)', ("place",)),
    # it places only the neutral piece ("King0"): the hole takes whole starts, places too
    ('(place "King0" 4)', ()),
])
def test_a_start_hole_beside_places_takes_what_they_leave(tmp_path, start, known):
    from ludeme.analysis.reconstruct import FragmentIndex
    holes = find_holes(_expanded(tmp_path, f'(game "G" (rules (start {{ {start} [#] }})))'))
    assert holes[0].context.known == known
    index = FragmentIndex()
    index.add(_expanded(tmp_path, '(game "S" (rules (start {(place "Disc1" 0) '
                                  '(set Score Each 1)})))'), "s.lud", "")
    runs = [run for _, run in index.runs(holes[0].context)]
    assert runs == ([("(set Score Each 1)",)] if known else
                    [('(place "Disc1" 0)', "(set Score Each 1)")])


@pytest.mark.parametrize("metadata, expected", [
    ('(metadata (recon { (concept "Sow" True) (concept "NumStartComponents" 20) }))',
     ["Sow=True", "NumStartComponents=20"]),
    ('(metadata (recon { (concept "NumStartComponents" minValue:5 maxValue:8) }))',
     ["NumStartComponents in [5, 8]"]),
    ('(metadata (info { (rules "none") }))', []),
])
def test_expected_concepts_are_read_from_the_tree(metadata, expected):
    assert [str(e) for e in expected_concepts(parse(metadata)[0])] == expected


@pytest.mark.parametrize("expected, got, holds", [
    (Expected("Sow", True), True, True),
    (Expected("Sow", True), False, False),
    (Expected("TerritoryEnd", False), False, True),
    (Expected("NumStartComponents", 20), 20, True),
    (Expected("NumStartComponents", 20), "20", True),
    (Expected("NumStartComponents", 20), 19, False),
    (Expected("NumStartComponents", None, 5, 8), 8, True),
    (Expected("NumStartComponents", None, 5, 8), 9, False),
])
def test_an_expected_concept_holds(expected, got, holds):
    assert expected.holds(got) is holds


@pytest.mark.parametrize("source, template, mapping", [
    ([("Pawn", "Each")], [("Disc", "Each")], {"Pawn": "Disc"}),
    ([("Tiger", "P1"), ("Goat", "P2")], [("Wolf", "P1"), ("Sheep", "P2")],
     {"Tiger": "Wolf", "Goat": "Sheep"}),
    ([("Goat", "P2"), ("Tiger", "P1")], [("Counter", "P1"), ("Counter", "P2")],
     {"Goat": "Counter", "Tiger": "Counter"}),
    ([("Disc", "Each")], [("Disc", "Each")], {}),
    ([("Pawn", "Each")], [], {}),
    # one name for both players' pieces: the second player's to a template piece of its own
    ([("Marker", "P1"), ("Marker", "P2")], [("Fox", ""), ("Geese", "")],
     {"Marker": "Fox", "Marker2": "Geese2"}),
    ([("Marker", "P1"), ("Marker", "P2")], [("Fox", "P1"), ("Geese", "P2")],
     {"Marker": "Fox", "Marker2": "Geese2"}),
    # a template with one name for both keeps it
    ([("Marker", "P1"), ("Marker", "P2")], [("Disc", "Each")], {"Marker": "Disc"}),
])
def test_piece_names_map_by_owner(source, template, mapping):
    assert piece_map(Source("x.lud", "X", "board", frozenset(), source), template) == mapping


@pytest.mark.parametrize("pieces, read, mapped", [
    ('(piece "Fox" P1) (piece "Geese" P2)', [("Fox", "P1"), ("Geese", "P2")],
     {"Hare": "Fox", "Dog": "Geese"}),
    # no owner written: Each's, as Ludii's default role (and the builder's Fox1, Fox2)
    ('(piece "Fox" (move Step (to if:(is Empty (to))))) (piece "Geese")',
     [("Fox", "Each"), ("Geese", "Each")], {"Hare": "Fox", "Dog": "Geese"}),
    # the owner unknown: it matches any, in the order declared
    ('(piece "Fox" [#]) (piece "Geese" [#])', [("Fox", ""), ("Geese", "")],
     {"Hare": "Fox", "Dog": "Geese"}),
])
def test_a_templates_pieces_are_read_whatever_their_owner(tmp_path, pieces, read, mapped):
    from ludeme.analysis.reconstruct import pieces_of
    ex = _expanded(tmp_path, f'(game "G" (players 2) (equipment {{ {pieces} }}) (rules [#]))')
    assert pieces_of(ex.game) == read
    hunt = Source("x.lud", "X", "board", frozenset(), [("Hare", "P1"), ("Dog", "P2")])
    assert piece_map(hunt, read) == mapped


# ---------------------------------------------------------------- end to end

def _run(tmp_path, corpus, out, *extra):
    (tmp_path / "little.lud").write_text(LITTLE)
    return main(["reconstruct", str(tmp_path / "little.lud"), "--corpus", str(corpus),
                 "-n", "20", "--seed", "3", "--enough", "5", "--out", str(out), *extra])


def test_reconstruct_end_to_end(tmp_path, corpus, capsys):
    out = tmp_path / "out"
    assert _run(tmp_path, corpus, out, "--compare", "20") == 0
    with open(out / "candidates.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows, "no candidate kept"
    scores = [float(r["score"]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    for r in rows:
        assert r["expected_concepts_met"] == "NumStartComponents=6; StepDecision=True"
        assert float(r["ending"]) >= 0.95
    first = (out / "candidate-01.lud").read_text()
    body = [line for line in first.splitlines() if not line.startswith("//")]
    assert not any("[#]" in line for line in body)       # every hole filled
    assert "(piece \"Disc\" Each (move " in first          # the piece keeps its name
    assert "Pawn" not in first and "Frog" not in first     # the sources' pieces are renamed
    sources = rows[0]["sources"].split("; ")
    assert all(f"from {s}" in first for s in sources)      # provenance in a comment
    tried = list(csv.DictReader(open(out / "tried.csv", newline="")))
    # the placement game's moves are no steps: a candidate taking them misses StepDecision
    assert any(r["reason"] == "misses expected concepts: StepDecision=True" for r in tried)
    assert (out / "report.html").is_file() and list((out / "games").glob("*.html"))
    assert (out / "comparison" / "groups.csv").is_file()
    assert "candidates tried" in capsys.readouterr().out


def test_reconstruct_is_reproducible(tmp_path, corpus):
    a, b = tmp_path / "a", tmp_path / "b"
    assert _run(tmp_path, corpus, a, "--compare", "0") == 0
    assert _run(tmp_path, corpus, b, "--compare", "0") == 0
    for name in ("candidates.csv", "tried.csv", "candidate-01.lud"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_a_hole_no_fragment_fits_is_named(tmp_path, corpus, capsys):
    path = tmp_path / "odd.lud"
    path.write_text(NO_FIT)
    assert main(["reconstruct", str(path), "--corpus", str(corpus), "-n", "5",
                 "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{path}:3:36: no fragment fits the hole (board ... [#])" in err


def test_a_complete_description_is_refused(tmp_path, corpus, capsys):
    path = tmp_path / "whole.lud"
    path.write_text(CORPUS["board/space/filler.lud"])
    assert main(["reconstruct", str(path), "--corpus", str(corpus)]) == 2
    assert "no unknown part" in capsys.readouterr().err


def test_recovery_finds_a_cut_block_again(tmp_path, corpus, capsys):
    """Jumper's end rule, cut out, comes back from Leaper, which ends the same way (Jumper's
    own file is left out of the fragments)."""
    out = tmp_path / "rec"
    assert main(["reconstruct", "--recovery", str(corpus / "board" / "race"), "--cut", "end",
                 "--corpus", str(corpus), "-n", "20", "--out", str(out)]) == 0
    rows = {r["file"]: r for r in csv.DictReader(open(out / "recovery.csv", newline=""))}
    assert set(rows) == {"jumper.lud", "leaper.lud", "stepper.lud"}
    jumper = rows["jumper.lud"]
    assert jumper["reachable"] == "True" and jumper["rank"] == "1"
    assert jumper["how"] in ("same text", "plays identically")
    assert "recovery of the cut (end ...) over 3 descriptions: top-1" in capsys.readouterr().out


@pytest.mark.parametrize("start, words", [
    ('(place "Disc1" coord:"C3")', "no site labelled 'C3' on this board"),
    ('(place "Disc1" coord:"A1")', None),
])
def test_a_fragment_naming_a_site_the_board_lacks_does_not_fit(tmp_path, start, words):
    """The builder is the type checker: a start taken from a larger board is a LudemeError
    (once a KeyError, which made such a candidate a crash, not a misfit)."""
    from ludeme.api import load
    from ludeme.errors import LudemeError
    path = tmp_path / "g.lud"
    path.write_text(f'(game "G" (players 2) (equipment {{ (board (square 2)) (piece "Disc" Each) }})'
                    f' (rules (start {start}) (play (move Add (to (sites Empty))))'
                    f' (end (if (is Full) (result Mover Win)))))')
    if words is None:
        load(path, backend="reference")
    else:
        with pytest.raises(LudemeError, match=words):
            load(path, backend="reference")


def _options(*holes):
    """Options per hole from (text, sources) pairs, scored by their first source."""
    from ludeme.analysis.reconstruct import Option
    return [[Option(text, (), list(srcs), -min(srcs)) for text, srcs in hole] for hole in holes]


@pytest.mark.parametrize("holes, tries, formed, first", [
    # source 0 gives both holes: its plan comes first, then source 1's, then mixes
    ([[("a0", [0]), ("a1", [1])], [("b0", [0]), ("b1", [1])]], 4,
     ["one source", "one source", "mix", "mix"], ("a0", "b0")),
    # no source gives both holes: only mixes, best ranks first
    ([[("a0", [0]), ("a1", [1])], [("b2", [2]), ("b3", [3])]], 3,
     ["mix", "mix", "mix"], ("a0", "b2")),
    # the cap holds whatever the number of combinations
    ([[(f"a{i}", [i]) for i in range(9)], [(f"b{i}", [i]) for i in range(9)]], 5,
     ["one source"] * 3 + ["mix"] * 2, ("a0", "b0")),
])
def test_plans_take_one_source_first_then_mix_within_the_cap(holes, tries, formed, first):
    import random

    from ludeme.analysis.reconstruct import plans
    scores = [-i for i in range(10)]
    made = plans(_options(*holes), scores, tries, random.Random(0))
    assert [p.formed for p in made] == formed
    assert tuple(o.text for o in made[0].options) == first
    keys = [tuple(o.text for o in p.options) for p in made]
    assert len(set(keys)) == len(keys)                       # no candidate twice


def test_more_tries_make_the_same_plans_first_then_more():
    """Up to ORDER_TRIES, --tries shapes the order (fewer tries: mixes sooner); beyond it,
    the plans of ORDER_TRIES come first, in the same order, then the other sources whole
    and wider mixes: raising --tries never takes back a candidate."""
    import random

    from ludeme.analysis.reconstruct import CHEAP_FACTOR, ORDER_TRIES, plans
    # 300 sources, each filling the three holes its own way (10, 10 and 3 options): 300
    # candidates in all
    digit = [lambda s: s % 10, lambda s: s // 10 % 10, lambda s: s // 100]
    holes = [[(f"{h}{i}", [s for s in range(300) if d(s) == i]) for i in range(n)]
             for h, d, n in zip("abc", digit, (10, 10, 3))]
    scores = [-i for i in range(300)]
    default = CHEAP_FACTOR * ORDER_TRIES

    def keys(n):
        return [(tuple(o.text for o in p.options), p.formed)
                for p in plans(_options(*holes), scores, n, random.Random(0))]
    base, more = keys(default), keys(default + 300)
    assert len(base) == default and more[:default] == base
    assert len(more) == 300 and len({k for k, _ in more}) == 300     # every one, once
    assert {f for _, f in more[default:]} == {"one source", "mix"}
    # below the default, the order is the smaller budget's own: mixes come sooner
    assert [f for _, f in keys(30)].count("mix") == 10


def test_a_long_fragment_is_laid_out_under_its_hole(tmp_path):
    from ludeme.analysis.reconstruct import fill_text, load_template
    path = tmp_path / "t.lud"
    path.write_text('(game "G"\n    (players 2)\n    (rules [#])\n)\n')
    template = load_template(path)
    text = fill_text(template, ["(start\n    (x))"], ["made here"])
    assert text == '// made here\n\n(game "G"\n    (players 2)\n    (rules (start\n' \
                   '            (x)))\n)\n'


def test_holes_of_one_context_take_a_sources_fragments_in_order():
    """Two `(track [#])` from one source get its first and its second track."""
    import random

    from ludeme.analysis.reconstruct import Context, Option, Options, plans
    first, second = Option('"Track1" 0', (), [0], 0.0), Option('"Track2" 1', (), [0], 0.0)
    holes = [Options([first, second], {0: [first, second]}),
             Options([first, second], {0: [first, second]})]
    track = Context("track", "args")
    made = plans(holes, [0.0], 1, random.Random(0), [track, track])
    assert [o.text for o in made[0].options] == ['"Track1" 0', '"Track2" 1']


# ---------------------------------------------------------------- generated starts

def _e(name, value):
    return Expected(name, value)


@pytest.mark.parametrize("expected, players, targets, dice", [
    ([_e("NumStartComponents", 8)], 2, [(8, 0), (0, 8)], 0),
    ([_e("NumStartComponents", 8), _e("NumStartComponentsHand", 8)], 2, [(0, 8)], 0),
    ([_e("NumStartComponents", 8), _e("NumStartComponentsBoard", 6)], 2, [(6, 2)], 0),
    ([_e("NumStartComponentsPerPlayer", 3)], 2, [(6, 0), (0, 6)], 0),
    ([_e("NumStartComponentsBoardPerPlayer", 2), _e("NumStartComponents", 4)], 2, [(4, 0)], 0),
    ([_e("NumStartComponents", 8), _e("NumStartComponentsBoard", 9)], 2, [], 0),
    ([_e("Sow", True)], 2, [], 0),
    # Ludii counts three dice in their container among the pieces in hand
    ([_e("NumStartComponents", 8)], 2, [(5, 0), (0, 5)], 3),
    ([_e("NumStartComponentsHand", 2)], 2, [], 3),
    # a count between bounds is fixed at the lower one (Treble Fox and Geese's 53 to 64)
    ([Expected("NumStartComponents", None, 53, 64)], 2, [(53, 0), (0, 53)], 0),
    ([Expected("NumStartComponents", None, 5.5, 8)], 2, [(6, 0), (0, 6)], 0),
])
def test_start_targets_meet_every_fixed_count(expected, players, targets, dice):
    from ludeme.analysis.reconstruct import start_targets
    assert start_targets(expected, players, dice) == targets


def _game(tmp_path, equipment, start="", players=2):
    from ludeme.api import load
    path = tmp_path / "g.lud"
    path.write_text(f'(game "G" (players {players}) (equipment {{ {equipment} }}) (rules '
                    + (f"(start {start}) " if start else "")
                    + '(play (move Pass)) (end (if (is Full) (result Mover Win)))))')
    return load(path, backend="reference")


@pytest.mark.parametrize("equipment, expected, players, first", [
    # even shares on each side's rows: the first player's at the bottom
    ('(board (square 4)) (piece "Disc" Each)', [_e("NumStartComponents", 8)], 2,
     '{ (place "Disc1" (sites {0 1 2 3})) (place "Disc2" (sites {12 13 14 15})) }'),
    # an odd count: one piece for one side, the rest on the other side's rows
    ('(board (square 3)) (piece "Tiger" P1) (piece "Goat" P2)',
     [_e("NumStartComponents", 7)], 2,
     '{ (place "Tiger1" (sites {0})) (place "Goat2" (sites {3 4 5 6 7 8})) }'),
    # in hand when the expectations say so
    ('(board (square 3)) (piece "Disc" Each) (hand Each)',
     [_e("NumStartComponentsHand", 6)], 2,
     '{ (place "Disc1" (handSite P1) count:3) (place "Disc2" (handSite P2) count:3) }'),
    # shared seeds: equal counts on every site
    ('(board (square 2)) (piece "Seed" Shared)', [_e("NumStartComponents", 12)], 2,
     "(set Count 3 to:(sites {0 1 2 3}))"),
    # three players around the board, as evenly as can be
    ('(board (square 3)) (piece "Disc" Each)', [_e("NumStartComponents", 3)], 3, None),
    ('(board (square 3)) (piece "Disc" Each)', [_e("NumStartComponents", 4)], 3, None),
    # the dice count: two of the seven pieces are dice
    ('(board (square 4)) (piece "Disc" Each) (dice num:2)', [_e("NumStartComponents", 7)], 2,
     '{ (place "Disc1" (sites {0})) (place "Disc2" (sites {12 13 14 15})) }'),
])
def test_generated_starts_place_exactly_the_expected_pieces(tmp_path, equipment, expected,
                                                           players, first):
    from ludeme.analysis.reconstruct import generated_starts, start_counts
    # seeds need a count on the board to build: the probe starts with one
    probe = "(set Count 1 to:(sites {0}))" if "Seed" in equipment else ""
    starts = generated_starts(_game(tmp_path, equipment, probe, players), expected)
    assert starts
    if first is not None:
        assert starts[0] == first
    if "Tiger" in equipment:        # the lone piece on the centre is offered too
        assert '{ (place "Tiger1" (sites {4})) (place "Goat2" (sites {2 3 5 6 7 8})) }' \
            in starts
    for start in starts:
        counts = start_counts(_game(tmp_path, equipment, start, players), 0)
        assert all(e.holds(counts[e.name]) for e in expected), start


def test_no_start_is_generated_without_a_fixed_count(tmp_path):
    from ludeme.analysis.reconstruct import generated_starts
    game = _game(tmp_path, '(board (square 3)) (piece "Disc" Each)')
    assert generated_starts(game, [_e("NumStartComponents", None)]) == []
    assert generated_starts(game, [_e("StepDecision", True)]) == []


# The start is unknown, and no game of the corpus starts with four pieces on a 3x3 board.
NO_START = LITTLE.replace('(start { (place "Disc1" (sites Bottom)) (place "Disc2" (sites Top)) })',
                          "(start [#])").replace('"NumStartComponents" 6', '"NumStartComponents" 4')


def _generated(tmp_path, corpus, text, formed="start generated", enough=5):
    """The ranked rows and the first candidate of a reconstruction of `text`, every one
    of them `formed` so."""
    (tmp_path / "little.lud").write_text(text)
    out = tmp_path / "out"
    assert main(["reconstruct", str(tmp_path / "little.lud"), "--corpus", str(corpus),
                 "-n", "20", "--seed", "3", "--enough", str(enough), "--out", str(out),
                 "--compare", "0"]) == 0
    rows = list(csv.DictReader(open(out / "candidates.csv", newline="")))
    assert rows and all(formed in r["formed"] for r in rows)
    return rows, (out / "candidate-01.lud").read_text()


def test_a_start_is_generated_for_the_expected_counts(tmp_path, corpus):
    assert NO_START != LITTLE
    rows, first = _generated(tmp_path, corpus, NO_START)
    assert all("NumStartComponents=4" in r["expected_concepts_met"] for r in rows)
    assert "a start generated for the counts" in first


# ---------------------------------------------------------------- boards sized for the counts

@pytest.mark.parametrize("board, slots", [
    ("(rectangle 5 5 diagonals:Alternating)", [5, 5]),
    # site lists and points are no sizes, nor are signed numbers, decimals and names
    ("(add (remove (rectangle 8 6) cells:{1 3 5}) edges:{ {1 2} })", [8, 6]),
    ('(merge (shift -1 0.5 (square 4)) (rectangle 2 3 diagonals:Solid))', [4, 2, 3]),
    ("(concentric {1 8})", []),
    ("(merge { (square 4) (rectangle 2 3) })", []),
    ("(shift +2 1.0 (hex 4))", [4]),
    # digits in a string, a named argument's value, a define's parameter and a range
    ('("Board 12" 6 (hex 3) 2..5 steps:7 (tri #1))', [6, 3]),
    # a define's call: its numbers are arguments too
    ('("CrossBoard" 3 7 diagonals:Alternating)', [3, 7]),
    # laid out on several lines
    ("(merge\n    (rectangle 3 7)\n    (shift 2\n        0 (square 5)))", [3, 7, 2, 5]),
    # with more than three, one value is one size: a cross of two rectangles stays a cross
    ("(merge (shift 0 (/ (- 7 3) 2) (rectangle 3 7)) (shift (/ (- 7 3) 2) 0 (rectangle 7 3)))",
     [7, 3, 2]),
])
def test_the_sizes_of_a_board_that_can_be_resized(board, slots):
    from ludeme.analysis.reconstruct import size_slots
    from ludeme.language.grammar import parse
    got = size_slots(parse(board))
    assert [s[0].value for s in got] == slots
    assert all(len({n.value for n in s}) == 1 for s in got)


@pytest.mark.parametrize("board, values, text", [
    ("(rectangle 5 5 diagonals:Alternating)", {1: 11}, "(rectangle 5 11 diagonals:Alternating)"),
    # one size is every place of its value; the others are left as they are
    ("(merge (shift 0 (/ (- 7 3) 2) (rectangle 3 7)) (shift (/ (- 7 3) 2) 0 (rectangle 7 3)))",
     {0: 9}, "(merge (shift 0 (/ (- 9 3) 2) (rectangle 3 9)) (shift (/ (- 9 3) 2) 0 "
             "(rectangle 9 3)))"),
    ('(add (remove (square 4) cells:{1 3}) edges:{{0 1}})', {0: 10},
     "(add (remove (square 10) cells:{1 3}) edges:{{0 1}})"),
    # a board on several lines stays on several lines
    ("(merge\n    (rectangle 3 7)\n    (shift 2 0 (square 5)))", {3: 6},
     "(merge\n    (rectangle 3 7)\n    (shift 2 0\n        (square 6)))"),
])
def test_a_board_is_written_with_its_sizes_changed(board, values, text):
    from ludeme.analysis.reconstruct import resized, size_slots
    from ludeme.language.grammar import parse
    nodes = parse(board)
    assert resized(nodes, board, size_slots(nodes), values) == text


@pytest.mark.parametrize("board, expected, use, others, first", [
    # no rectangle of five by five vertices has 66: six by eleven has, the closest to it
    ("(rectangle 5 5 diagonals:Alternating)", [_e("NumPlayableSites", 66)], "Vertex", 0,
     "(rectangle 6 11 diagonals:Alternating)"),
    # a hand's site counts among the playable ones: 65 on the board (one size changed, the
    # first one first)
    ("(rectangle 5 5 diagonals:Alternating)", [_e("NumPlayableSites", 66)], "Vertex", 1,
     "(rectangle 13 5 diagonals:Alternating)"),
    # on cells: four by three cells
    ("(rectangle 3 3)", [_e("NumPlayableSites", 12)], "Cell", 0, "(rectangle 4 3)"),
    # a square stays a square: none has 12 cells
    ("(square 3)", [_e("NumPlayableSites", 12)], "Cell", 0, None),
    ("(square 3)", [_e("NumPlayableSites", 16)], "Cell", 0, "(square 4)"),
    # already right: nothing to resize
    ("(square 3)", [_e("NumPlayableSites", 9)], "Cell", 0, None),
])
def test_a_board_is_resized_for_the_expected_site_counts(board, expected, use, others, first):
    from ludeme.analysis.reconstruct import board_sizes, sized_boards, site_counts
    got = sized_boards(board, expected, {use}, others, use)
    assert (got[0] if got else None) == first
    for text in got:
        counts = site_counts(board_sizes(text, use), {use}, others)
        assert all(e.holds(counts[e.name]) for e in expected), text


def test_a_board_that_does_not_build_has_no_sizes_and_a_bug_is_not_hidden(monkeypatch):
    """A size the builder refuses gives no sizes; any other exception is a bug, raised."""
    from ludeme.analysis.reconstruct import board_sizes
    import ludeme.model.build
    assert board_sizes("(rectangle 3 4)") == {"Vertex": 20, "Cell": 12, "Edge": 31}
    assert board_sizes("(square 0)") is None
    assert board_sizes("(hex 1000)") is None
    assert board_sizes("(add (square 3) cells:{{0 1 2}})") is None

    def broken(_):
        raise KeyError("x")
    monkeypatch.setattr(ludeme.model.build, "build_game", broken)
    with pytest.raises(KeyError):
        board_sizes("(square 3)")


# The board is unknown, and it has twelve cells: no board of the corpus has as many
UNSIZED = LITTLE.replace("(board (square 3))", "(board [#])").replace(
    '(concept "StepDecision" True)', '(concept "StepDecision" True) '
    '(concept "NumPlayableSites" 12)')


def test_a_board_is_resized_for_the_expected_site_counts_end_to_end(tmp_path):
    """The corpus's boards are three by three cells; the template asks for twelve: the
    candidates' boards are resized (four rows of three, so that the template's own start on
    the bottom and top rows still places six), and the candidate says so."""
    assert UNSIZED != LITTLE
    corpus = tmp_path / "corpus"
    for rel, text in CORPUS.items():
        p = corpus / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text.replace("(square 3)", "(rectangle 3 3)"))
    rows, first = _generated(tmp_path, corpus, UNSIZED, "board sized", enough=2)
    assert all("NumPlayableSites=12" in r["expected_concepts_met"] for r in rows)
    assert "resized for the expected site counts: (rectangle 4 3)" in first
    assert "(board (rectangle 4 3))" in first


# ---------------------------------------------------------------- playing within a budget

@pytest.mark.parametrize("rules, n, turns, reason", [
    # the first player's first piece leaves the second with none: over after one turn
    ("(play (move Add (to (sites Empty)))) (end (if (no Pieces Next) (result Mover Win)))",
     50, 10_000, "ends at once: the first playout ends after 1 turn(s)"),
    # a full board ends it after nine turns: the budget of 20 turns stops at the third
    ("(play (move Add (to (sites Empty)))) (end (if (is Full) (result Mover Win)))",
     50, 20, "too long to check: 27 turns in 3 playouts, over the budget of 20"),
    ("(play (move Add (to (sites Empty)))) (end (if (is Full) (result Mover Win)))",
     50, 10_000, ""),
    # nine turns each: 50 would take 450, over the budget of 440, which the first 20 (180
    # turns) show: stopped there, not at the 49th
    ("(play (move Add (to (sites Empty)))) (end (if (is Full) (result Mover Win)))",
     50, 440, "too long to check: 180 turns in 20 playouts, 50 would take over the budget of "
     "440"),
    # ... and 450 fit a budget of 450: all 50 played
    ("(play (move Add (to (sites Empty)))) (end (if (is Full) (result Mover Win)))",
     50, 450, ""),
    # no end: the first two playouts time out, and the third is not played
    ("(play (move Pass))", 50, 10_000_000, "2 of the first 2 playouts timed out"),
])
def test_playouts_stop_early_by_counts(tmp_path, rules, n, turns, reason):
    from ludeme.analysis.reconstruct import play_until
    from ludeme.api import load
    path = tmp_path / "g.lud"
    path.write_text('(game "G" (players 2) (equipment { (board (square 3)) (piece "Disc" Each) })'
                    f" (rules {rules}))")
    rows, why = play_until(load(path, backend="reference"), n, 0, 2, turns)
    assert why == reason
    assert len(rows) == (n if not reason else len(rows))


@pytest.mark.parametrize("fill, whole, replaced", [
    # a (start [#]) hole: the generated start is the fill
    ('(place "Disc1" 0)', False, '(set Count 2 to:(sites {0 1}))'),
    # a (rules [#]) hole: its start replaced, the rest kept
    ('(start (place "Disc1" 0)) (play (move Pass)) (end (if (is Full) (result Mover Win)))', True,
     '(start (set Count 2 to:(sites {0 1})))\n(play (move Pass))\n'
     '(end (if (is Full) (result Mover Win)))'),
    # ... or added first when it has none
    ('(play (move Pass))', True, '(start (set Count 2 to:(sites {0 1})))\n(play (move Pass))'),
    # the start rules that set the players' teams are kept (the fill's end may read them)
    ('{ (set Team 1 {P1 P3}) (place "Disc1" 0) (set Team 2 {P2 P4}) }', False,
     '{ (set Team 1 {P1 P3}) (set Team 2 {P2 P4}) (set Count 2 to:(sites {0 1})) }'),
    ('(start { (place "Disc1" 0) (set Team 1 {P1}) }) (play (move Pass))', True,
     '(start { (set Team 1 {P1}) (set Count 2 to:(sites {0 1})) })\n(play (move Pass))'),
])
def test_a_generated_start_replaces_the_fragments_start(fill, whole, replaced):
    from ludeme.analysis.reconstruct import replace_start
    got = replace_start(fill, "(set Count 2 to:(sites {0 1}))", whole)
    assert " ".join(got.split()) == " ".join(replaced.split())


@pytest.mark.parametrize("text, places", [
    ('(game "G" (equipment { (board (square 3) { (track "Track1" "0,E" P1 directed:True) '
     '(track "Track2" "8,W" P2) }) (regions "Home" P1 (sites Bottom)) (regions P2 (sites Top)) }))',
     [("Track1", "P1"), ("Track2", "P2"), ("Home", "P1")]),
    ('(game "G" (equipment { (mancalaBoard 2 6 (track "Track" "1,E,N,W" loop:True)) }))',
     [("Track", "")]),
])
def test_tracks_and_named_regions_are_read_with_their_owners(text, places):
    from ludeme.analysis.reconstruct import places_of
    assert places_of(parse(text)[0]) == places


@pytest.mark.parametrize("fragment, places, renamed", [
    # a source's tracks by owner: the template's own names
    ('(move (from (from)) (to (trackSite Move steps:1 name:"TrackCW1")))',
     {"TrackCW1": "Track1"}, '"Track1"'),
    ('(is In (to) (sites "Home"))', {"Home": "Inner"}, '"Inner"'),
    # a fragment declaring a track keeps its name, and its own references to it
    ('(track "Track" "0,E" loop:True) (move (trackSite Move name:"Track"))',
     {"Track": "Loop"}, '(track "Track"'),
])
def test_a_fragments_tracks_and_regions_take_the_templates_names(fragment, places, renamed):
    from ludeme.analysis.reconstruct import fragment_text
    text = fragment_text((fragment,), {}, places)
    assert renamed in text
    assert not any(f'"{old}"' in text for old, new in places.items() if new in renamed)


def test_the_default_budgets_are_counts():
    """No clock by default: the same command keeps the same candidates on any machine."""
    import argparse

    from ludeme.cli import reconstruct as cli
    parser = argparse.ArgumentParser()
    cli.add_parser(parser.add_subparsers())
    args = parser.parse_args(["reconstruct", "x.lud"])
    from ludeme.analysis.reconstruct import DEFAULT_TRIES
    assert (args.budget, args.tries) == (150_000, DEFAULT_TRIES)
    assert args.max_seconds is None and args.time_limit is None
    assert cli.budget_of(args).seconds is None


# ---------------------------------------------------------------- refusals by the builder

@pytest.mark.parametrize("unfit, first_texts", [
    # nothing refused: the best of each hole, then the next sums of ranks
    ((), [("a0", "b0"), ("a0", "b1"), ("a1", "b0")]),
    # a0 refused: every later plan takes the next fitting option of that hole
    (("a0",), [("a1", "b0"), ("a1", "b1"), ("a2", "b0")]),
    (("a0", "b0"), [("a1", "b1"), ("a1", "b2"), ("a2", "b1")]),
])
def test_plans_leave_out_the_options_refused(unfit, first_texts):
    import random

    from ludeme.analysis.reconstruct import iter_plans
    holes = _options([(f"a{i}", [i]) for i in range(4)], [(f"b{i}", [i + 4]) for i in range(4)])
    refused = {id(o) for hole in holes for o in hole if o.text in unfit}
    made = [tuple(o.text for o in p.options)
            for p in iter_plans(holes, [-i for i in range(8)], 3, random.Random(0), None,
                                refused)]
    assert made == first_texts


def test_options_refused_as_plans_are_made_are_left_out_of_the_next():
    import random

    from ludeme.analysis.reconstruct import iter_plans
    holes = _options([(f"a{i}", [i]) for i in range(4)], [(f"b{i}", [i + 4]) for i in range(4)])
    refused: set[int] = set()
    made = []
    for plan in iter_plans(holes, [-i for i in range(8)], 6, random.Random(0), None, refused):
        made.append(tuple(o.text for o in plan.options))
        refused.add(id(plan.options[0]))          # each plan's first fill turns out unfit
    assert [m[0] for m in made] == ["a0", "a1", "a2", "a3"]   # then none is left to try


@pytest.mark.parametrize("where, blamed", [
    ("first fill", 0), ("second fill", 1), ("own text", -1), ("elsewhere", None),
])
def test_a_refusal_is_blamed_on_the_fill_that_holds_it(tmp_path, where, blamed):
    from ludeme.analysis.reconstruct import blame, fill_text, load_template, template_offset
    from ludeme.errors import LudemeError, Pos
    path = tmp_path / "t.lud"
    path.write_text('(game "G"\n    (players [#])\n    (rules (play [#]))\n)\n')
    template = load_template(path)
    spans: list = []
    text = fill_text(template, ["2", "(move Pass)"], ["a header"], spans)
    at = {"first fill": text.index("2)"), "second fill": text.index("Pass"),
          "own text": text.index("rules"), "elsewhere": 0}[where]
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    file = "cand.lud" if where != "elsewhere" else "stdlib.lud"
    got, offset = blame(LudemeError("no", Pos(file, line, col)), "cand.lud", text, spans)
    assert got == blamed
    if blamed == -1:         # the place in the template's own text
        own = template_offset(offset, spans, spans[0][0] - spans[0][2])
        assert template.description.text[own:].startswith("rules")


# The template's own start names a site its board lacks: no fill can help.
OWN_FAULT = LITTLE.replace('(place "Disc1" (sites Bottom))', '(place "Disc1" coord:"Z9")')


def test_a_template_refused_in_its_own_text_says_where(tmp_path, corpus, capsys):
    assert OWN_FAULT != LITTLE
    path = tmp_path / "fault.lud"
    path.write_text(OWN_FAULT)
    assert main(["reconstruct", str(path), "--corpus", str(corpus), "-n", "5",
                 "--out", str(tmp_path / "out"), "--compare", "0"]) == 2
    err = capsys.readouterr().err
    line = OWN_FAULT.splitlines().index(next(x for x in OWN_FAULT.splitlines() if "Z9" in x)) + 1
    assert f"{path}:{line}:" in err and "the template's own text is refused here" in err
    assert "no site labelled 'Z9'" in err


@pytest.mark.parametrize("equipment, start, board, hand", [
    # cells: the board's pieces and the hands' (the dice's container among them) count
    ('(board (square 3)) (piece "Disc" Each) (hand Each) (dice num:2)',
     '{ (place "Disc1" (sites {0 1})) (place "Disc2" (handSite P2) count:3) }', 2, 5),
    # vertices, no cell used: Ludii reads no hand, so neither the hands nor the dice count
    ('(board (square 3) use:Vertex) (piece "Disc" Each) (hand Each) (dice num:2)',
     '{ (place "Disc1" (sites {0 1})) (place "Disc2" (handSite P2) count:3) }', 2, 0),
    ('(board (square 3) use:Vertex) (piece "Disc" Each) (dice num:2)',
     '{ (place "Disc1" (sites {0 1 2})) (place "Disc2" (sites {6 7 8})) }', 6, 0),
])
def test_start_counts_are_read_as_ludii_reads_them(tmp_path, equipment, start, board, hand):
    from ludeme.analysis.concepts import compile_time
    from ludeme.analysis.reconstruct import start_counts
    from ludeme.api import load
    path = _start_game(tmp_path, equipment, start)
    counts = start_counts(load(path, backend="reference"), 0, compile_time(str(path)))
    assert (counts["NumStartComponentsBoard"], counts["NumStartComponentsHand"]) == (board, hand)
    assert counts["NumStartComponents"] == board + hand


def _start_game(tmp_path, equipment, start):
    path = tmp_path / "g.lud"
    path.write_text(f'(game "G" (players 2) (equipment {{ {equipment} }}) (rules (start {start})'
                    ' (play (move Pass)) (end (if (no Moves Next) (result Mover Win)))))')
    return path


@pytest.mark.parametrize("equipment, start, ludii, pieces", [
    # vertices: Ludii reads no hand; the pieces are 2 on the board and 3 in hand, dice aside
    ('(board (square 3) use:Vertex) (piece "Disc" Each) (hand Each) (dice num:2)',
     '{ (place "Disc1" (sites {0 1})) (place "Disc2" (handSite P2) count:3) }', 2, 5),
    # a stacking game counts every level, in hand too (Ludii's sizeStack)
    ('(board (square 3)) (piece "Disc" Each) (hand Each)',
     '{ (place Stack "Disc1" 0 count:4) (place Stack "Disc2" (handSite P2) count:15) }', 19, 19),
])
def test_an_expected_start_count_is_met_by_ludiis_reading_or_by_the_pieces(
        tmp_path, equipment, start, ludii, pieces):
    from ludeme.analysis.concepts import compile_time
    from ludeme.analysis.reconstruct import Expected, both_readings, check_expected
    from ludeme.api import load
    path = _start_game(tmp_path, equipment, start)
    concepts = compile_time(str(path))
    counts = both_readings(load(path, backend="reference"), 0, concepts)
    assert counts["NumStartComponents"] == tuple(dict.fromkeys((ludii, pieces)))
    for n in (ludii, pieces):
        assert check_expected([Expected("NumStartComponents", n)], concepts, counts)[1] == []
    assert check_expected([Expected("NumStartComponents", pieces + 1)], concepts,
                          counts)[1] == [Expected("NumStartComponents", pieces + 1)]


@pytest.mark.parametrize("start, placing", [
    ('(start { (place "Tiger1" (sites [#])) (place "Goat2" [#]) })', ["Tiger1", "Goat2"]),
    ('(start (place "Tiger1" (forEach (sites [#]) if:(is Even (site)))))', [""]),
    ('(start [#])', [""]),
    ('(play (move Add (to (sites [#]))))', [""]),         # no start rule
])
def test_holes_that_place_a_named_piece_are_read(tmp_path, start, placing):
    game = f'(game "G" (players 2) (equipment {{ (board (square 3)) }}) (rules {start}))'
    assert [h.placing for h in find_holes(_expanded(tmp_path, game))] == placing


# The start rules are written, but not where they place the pieces: no game of the corpus
# places two discs on a 3x3 board.
NO_SITES = LITTLE.replace('(place "Disc1" (sites Bottom)) (place "Disc2" (sites Top))',
                          '(place "Disc1" (sites [#])) (place "Disc2" (sites [#]))'
                          ).replace('"NumStartComponents" 6', '"NumStartComponents" 2')


def test_the_sites_of_a_start_rule_are_generated_for_the_expected_counts(tmp_path, corpus):
    assert NO_SITES.count("[#]") == 4
    rows, first = _generated(tmp_path, corpus, NO_SITES)
    assert all("NumStartComponents=2" in r["expected_concepts_met"] for r in rows)
    # one disc each, the first player's on the bottom row, the second's on the top row
    assert '(place "Disc1" (sites {0}))' in first and '(place "Disc2" (sites {8}))' in first


@pytest.mark.parametrize("mine, theirs, closeness", [
    ("board/hunt", "board/hunt", 1.0),
    # a template classified only by its family takes the games of its sub-families as its own
    ("board/race", "board/race/escape", 1.0),
    ("board/race/escape", "board/race", 1.0),
    ("board/war/replacement/checkmate/shogi", "board/war/replacement/checkmate/chess", 0.75),
    ("board/sow/two rows", "board/sow/four rows", 0.5),
    ("board/race", "board/hunt", 0.0),
    ("", "board/hunt", 0.0),
])
def test_family_closeness_reads_the_classification_tree(mine, theirs, closeness):
    from ludeme.analysis.reconstruct import family_closeness
    assert family_closeness(mine, theirs) == closeness


@pytest.mark.parametrize("classification, folder, family", [
    ('(classification "board/sow/two rows/reconstruction/done")', "x", "board/sow/two rows"),
    ("", "board/sow/two_rows", "board/sow/two rows"),
    ("", "reconstruction/done/board/race/escape", "board/race/escape"),
    ("", ".", ""),
])
def test_a_sources_family_is_its_classification_else_its_folder(classification, folder, family):
    from ludeme.analysis.reconstruct import family_of
    text = (f'(game "G" (players 2) (equipment {{ (board (square 3)) (piece "Disc" Each) }}) '
            f'(rules (play (move Pass)) (end (if (no Moves Next) (result Mover Win))))) '
            f'(metadata (info {{ {classification} }}))')
    assert family_of(expand(load_description("g.lud", text)), folder) == family


def test_a_folder_gives_the_same_files_on_any_number_of_jobs(tmp_path, corpus, capsys):
    folder = tmp_path / "templates"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "little.lud").write_text(LITTLE)
    (folder / "fault.lud").write_text(OWN_FAULT)
    outs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        assert main(["reconstruct", str(folder), "--corpus", str(corpus), "-n", "10", "-k", "1",
                     "--compare", "0", "-j", jobs, "--out", str(out)]) == 0
        outs[jobs] = out
        assert "1 of 2 descriptions gave at least 1 candidates" in capsys.readouterr().out
    rows = [(outs[j] / "reconstructions.csv").read_text() for j in outs]
    assert rows[0] == rows[1] and "no site labelled 'Z9'" in rows[0]
    files = [sorted(p.relative_to(outs[j]).as_posix() for p in outs[j].rglob("*.lud"))
             for j in outs]
    assert files[0] == files[1] and "a-little/candidate-01.lud" in files[0]
    for name in files[0]:
        assert (outs["1"] / name).read_text() == (outs["2"] / name).read_text()
    # with several jobs each description's tries are logged in its own folder
    assert "try 1:" in (outs["2"] / "a-little" / "log.txt").read_text()


def test_jobs_are_refused_for_one_description(tmp_path, corpus, capsys):
    assert _run(tmp_path, corpus, tmp_path / "out", "-j", "2") == 2
    assert "--jobs applies to a folder of descriptions or --recovery" in capsys.readouterr().err


SOWER = ('(game "Sower" (players 2) (equipment {{ (mancalaBoard 2 6 store:None {{ (track "Track" '
         '"0,E,N,W" loop:True) }}) {regions} (piece "Seed" Shared) }}) (rules (start (set Count 4 '
         'to:(sites Track))) (play (move Select (from {frm} if:(> (count at:(from)) 0)) '
         '(then (sow)))) (end (if (no Moves Mover) (result Mover Loss)))))')


def sower_candidate(tmp_path, source_regions: str, frm: str, regions: str):
    """The first candidate of a SOWER template whose `(from [#])` is unknown and that declares
    `regions`, from a SOWER source that declares `source_regions` and sows from `frm`: its
    text, and its initial state."""
    from ludeme.api import load
    text = first_candidate(tmp_path, SOWER.format(regions=source_regions, frm=frm),
                           "board/sow/sower.lud", SOWER.format(regions=regions, frm="[#]"))
    return text, load(tmp_path / "c.lud", backend="reference").new_initial_state(0)


def first_candidate(tmp_path, source: str, source_path: str, template_text: str) -> str:
    """The text of the first candidate of `template_text` from the one `source` (filed as
    `source_path`, its folder the family), also written to c.lud."""
    import random
    from ludeme.analysis.reconstruct import (FragmentIndex, Plan, candidate_text, hole_options,
                                             load_template, source_scores)
    index = FragmentIndex()
    index.add(expand(load_description("s.lud", source)), source_path,
              source_path.rsplit("/", 1)[0])
    path = tmp_path / "t.lud"
    path.write_text(template_text)
    template = load_template(path)
    options = hole_options(template, index, source_scores(template, index), random.Random(0))
    text = candidate_text(template, Plan([options[0][0]], "one source", 0), index, 1, 0)
    (tmp_path / "c.lud").write_text(text)
    return text


@pytest.mark.parametrize("regions, added", [
    ("", True),
    # a template that declares its players' regions keeps its own
    ("(regions P1 (sites Top)) (regions P2 (sites Bottom))", False),
])
def test_a_fill_reading_the_players_regions_brings_its_sources_regions(
        tmp_path, regions, added):
    text, state = sower_candidate(tmp_path, "(regions P1 (sites Bottom)) (regions P2 (sites Top))",
                                  "(sites Mover)", regions)
    assert "(from (sites Mover) if:" in text
    assert ("(regions P1 (sites Bottom)) (regions P2 (sites Top))" in text) == added
    assert ("the players' regions of board/sow/sower.lud added to the equipment: the fill of "
            "line 1:" in text) == added
    # P1 sows from the bottom row: its source's region, or the template's own top row
    assert {m.frm for m in state.legal_moves()} == (set(range(6)) if added else
                                                    set(range(6, 12)))


RACER = ('(game "Racer" (players 2) (equipment {{ (board (rectangle {rows} 5){tracks}) '
         '(piece "Disc" Each) }}) (rules (start {{ (place "Disc1" 0) (place "Disc2" 0) }}) '
         '(play {play}) (end (if (no Moves Next) (result Mover Win)))))')
RACE_PLAY = "(forEach Piece (move Step E (to if:(is Empty (to)))))"


@pytest.mark.parametrize("track, rows, gap, checked", [
    ('(track "Track" {0 1 2 3 4})', 3, "", True),
    # site numbers of another board (three rows): 0 and 2 do not touch on two rows of five
    ('(track "Track" {0 2 1 3 4})', 3,
     "are no walks on this board: track 'Track' goes from 0 to 2", True),
    # ... but on the source's own board, the same as the template's, the track is as its
    # game wrote it, jumps and all (Chaupar's "8,54" on the Pachisi board): not checked
    ('(track "Track" {0 2 1 3 4})', 2,
     "are no walks on this board: track 'Track' goes from 0 to 2", False),
])
def test_a_fill_reading_a_track_brings_its_sources_tracks_when_they_walk_this_board(
        tmp_path, track, rows, gap, checked):
    import random
    from ludeme.analysis.reconstruct import (FragmentIndex, Plan, candidate_text, hole_options,
                                             load_template, new_tried, place_inserts,
                                             source_scores, track_gap)
    from ludeme.api import load
    index = FragmentIndex()
    play = ('(forEach Piece (move (from (from)) (to (trackSite Move from:(from) steps:1) '
            'if:(is Empty (to)))))')
    source = RACER.format(rows=rows, tracks=" {" + track + "}", play=play)
    index.add(expand(load_description("s.lud", source)), "board/race/racer.lud", "board/race")
    path = tmp_path / "t.lud"
    path.write_text(RACER.format(rows=2, tracks="", play="[#]"))
    template = load_template(path)
    options = hole_options(template, index, source_scores(template, index), random.Random(0))
    plan = Plan([options[0][0]], "one source", 0)
    assert place_inserts(template, plan, index).notes == [
        "the tracks of board/race/racer.lud added to the board: the fill of line 1:"
        f"{RACER.format(rows=2, tracks='', play='[#]').index('[#]') + 1} reads them"]
    text = candidate_text(template, plan, index, 1, 0)
    assert "(board (rectangle 2 5) { " + track + " } )" in text
    (tmp_path / "c.lud").write_text(text)
    assert track_gap(load(tmp_path / "c.lud", backend="reference")) == gap
    assert new_tried(template, plan, index, 1, 0).brought_tracks == checked
    # a fill that reads no track brings none
    path.write_text(RACER.format(rows=2, tracks="", play=RACE_PLAY).replace(RACE_PLAY, "[#]"))
    index2 = FragmentIndex()
    index2.add(expand(load_description("s.lud", RACER.format(
        rows=2, tracks=" {" + track + "}", play=RACE_PLAY))),
               "board/race/racer.lud", "board/race")
    template = load_template(path)
    options = hole_options(template, index2, source_scores(template, index2), random.Random(0))
    placed = place_inserts(template, Plan([options[0][0]], "one source", 0), index2)
    assert (placed.inserts, placed.notes, placed.kinds) == ([], [], set())


@pytest.mark.parametrize("track, laid", [
    # site numbers of another board, directions on a board of edges: laid along the line
    ('(track "Track" {0 2 1 3 4 End} P1 directed:True)',
     '(track "Track" {0 1 2 3 4 End} P1 directed:True)'),
    ('(track "Track" "0,E,N,W" loop:True)', '(track "Track" {0 1 2 3 4})'),
])
def test_a_board_of_one_line_takes_the_sources_tracks_laid_along_it(tmp_path, track, laid):
    """On a board whose sites make one line, the only walk over all of them is the line:
    the tracks a fill brings keep their names, owners and ends, and follow it."""
    import random
    from ludeme.analysis.reconstruct import (FragmentIndex, Plan, candidate_text, hole_options,
                                             load_template, source_scores, track_gap)
    from ludeme.api import load
    play = ('(forEach Piece (move (from (from)) (to (trackSite Move from:(from) steps:1) '
            'if:(is Empty (to)))))')
    index = FragmentIndex()
    index.add(expand(load_description("s.lud", RACER.format(
        rows=3, tracks=" {" + track + "}", play=play))), "board/race/racer.lud", "board/race")
    path = tmp_path / "t.lud"
    path.write_text(RACER.format(rows=1, tracks="", play="[#]"))
    template = load_template(path)
    assert template.board_line == ([0, 1, 2, 3, 4], False)
    options = hole_options(template, index, source_scores(template, index), random.Random(0))
    text = candidate_text(template, Plan([options[0][0]], "one source", 0), index, 1, 0)
    assert "(board (rectangle 1 5) { " + laid + " } )" in text
    assert "laid along its one line of sites" in text
    (tmp_path / "c.lud").write_text(text)
    assert track_gap(load(tmp_path / "c.lud", backend="reference")) == ""


def test_a_hole_for_the_tracks_of_a_board_of_one_line_takes_tracks_laid_along_it(tmp_path):
    """`(board <one line> { [#] })`: the tracks of the sources' boards, laid along it."""
    import random
    from ludeme.analysis.reconstruct import FragmentIndex, hole_options, load_template
    index = FragmentIndex()
    index.add(expand(load_description("s.lud", RACER.format(
        rows=3, tracks=' { (track "Track1" {0 1 2 5 8 7} P1 directed:True) }',
        play=RACE_PLAY))), "board/race/racer.lud", "board/race")
    path = tmp_path / "t.lud"
    path.write_text(RACER.format(rows=1, tracks=" { [#] }", play=RACE_PLAY))
    template = load_template(path)
    assert template.board_line == ([0, 1, 2, 3, 4], False)
    options = hole_options(template, index, [1.0], random.Random(0))
    assert [o.raw for o in options[0]] == ['(track "Track1" {0 1 2 3 4} P1 directed:True)']


@pytest.mark.parametrize("board, line", [
    ("(board (concentric {8}) use:Vertex)", True),      # a ring: a closed line
    ("(board (square 3))", None),
])
def test_the_line_of_a_board(board, line):
    from ludeme.analysis.reconstruct import line_of_board
    got = line_of_board(board)
    assert (got if got is None else got[1]) == line
    if got:
        assert sorted(got[0]) == list(range(8)) and got[0][0] == 0


def test_a_mancala_board_written_without_tracks_takes_the_sowing_fills_tracks(tmp_path):
    import random
    from ludeme.analysis.reconstruct import (FragmentIndex, Plan, candidate_text, hole_options,
                                             load_template, source_scores)
    from ludeme.api import load
    regions = "(regions P1 (sites Bottom)) (regions P2 (sites Top))"
    index = FragmentIndex()
    index.add(expand(load_description("s.lud", SOWER.format(regions=regions,
                                                             frm="(sites Mover)"))),
              "board/sow/sower.lud", "board/sow")
    path = tmp_path / "t.lud"
    # the template's board declares no track; its play is unknown
    path.write_text(SOWER.format(regions=regions, frm="(sites Mover)")
                    .replace(' {{ (track "Track" "0,E,N,W" loop:True) }}'.replace("{{", "{")
                             .replace("}}", "}"), "")
                    .replace("(move Select (from (sites Mover) if:(> (count at:(from)) 0)) "
                             "(then (sow)))", "[#]"))
    template = load_template(path)
    assert "track" not in path.read_text()
    options = hole_options(template, index, source_scores(template, index), random.Random(0))
    text = candidate_text(template, Plan([options[0][0]], "one source", 0), index, 1, 0)
    assert '(mancalaBoard 2 6 store:None { (track "Track" "0,E,N,W" loop:True) } )' in text
    (tmp_path / "c.lud").write_text(text)
    state = load(tmp_path / "c.lud", backend="reference").new_initial_state(0)
    assert {m.frm for m in state.legal_moves()} == set(range(6))


HOMES = ('(regions "Home" P1 (sites Bottom)) (regions "Home" P2 (sites Top)) '
         '(regions "Inner" P1 (difference (sites P1 "Home") (sites {0}))) '
         '(regions "Inner" P2 (difference (sites P2 "Home") (sites {11})))')


@pytest.mark.parametrize("regions, frm, added", [
    # the fill reads "Inner", whose declaration reads "Home": both are brought
    ("", {0: set(range(1, 6))}, ['"Inner"', '"Home"']),
    # a template that declares the region keeps its own (P1's "Inner" is its top row)
    ('(regions "Inner" P1 (sites Top)) (regions "Inner" P2 (sites Bottom))',
     {0: set(range(6, 12))}, []),
])
def test_a_fill_reading_a_named_region_brings_its_sources_declaration(
        tmp_path, regions, frm, added):
    text, state = sower_candidate(tmp_path, HOMES, '(sites Mover "Inner")', regions)
    assert '(from (sites Mover "Inner") if:' in text
    assert (HOMES.split(" (regions \"Inner\"")[0] in text) == bool(added)
    note = (f"the regions {', '.join(added)} of board/sow/sower.lud added to the equipment: "
            "the fill of line 1:")
    assert (note in text) == bool(added)
    # without the declaration Ludii reads the region as empty, and the game has no move
    assert {m.frm for m in state.legal_moves()} == frm[0]


@pytest.mark.parametrize("tracks, regions, mapped", [
    # a template with a track and no named region: the track is mapped, the region not (its
    # declaration is brought), never to the track's name
    ([("Track", "")], [], {"Track1": "Track"}),
    ([("Track", "")], [("Inner", "P1")], {"Track1": "Track", "Home": "Inner"}),
])
def test_tracks_map_to_tracks_and_regions_to_regions(tracks, regions, mapped):
    from ludeme.analysis.reconstruct import place_map
    source = Source("s.lud", "S", "board/sow", frozenset(), [],
                    places=[("Track1", "P1"), ("Home", "P1")], regions=[("Home", "P1")])
    assert place_map(source, tracks, regions) == mapped


@pytest.mark.parametrize("hands, added", [
    ("", True),
    # a template that declares its hands keeps its own
    ("(hand P1) (hand P2)", False),
])
def test_a_fill_reading_the_hands_brings_its_sources_hands(tmp_path, hands, added):
    # a capture into (handSite Mover) with no hand goes to no site (Ludii's HandSite is -1)
    text, state = sower_candidate(tmp_path, "(hand Each)",
                                  "(difference (sites Bottom) (sites {(handSite Mover)}))",
                                  hands)
    assert ("(hand Each)" in text) == added
    assert ("the hands of board/sow/sower.lud added to the equipment: the fill of line 1:"
            in text) == added
    from ludeme.api import load
    assert len(load(tmp_path / "c.lud", backend="reference").containers) == 3
    assert {m.frm for m in state.legal_moves()} == set(range(6))


@pytest.mark.parametrize("template, runs", [
    # the argument before the hole is a player: a named region's run would put its player
    # where the region goes, `(regions P1 P1 (sites Bottom))`
    ('(game "G" (equipment { (regions P1 [#]) }))', [("(sites Top)",)]),
    ('(game "G" (equipment { (regions "Home" [#]) }))', [("P1", "(sites Bottom)")]),
    ('(game "G" (equipment { (regions [#] (sites Left)) }))', [('"Home"', "P1"), ("P2",)]),
    # a named argument after the hole: the source's run ends before the same name
    ('(game "G" (equipment { (track [#] loop:True) }))', [('"T"', '"0,E"')]),
])
def test_a_run_fits_where_the_arguments_around_it_are_of_the_templates_kinds(
        tmp_path, template, runs):
    from ludeme.analysis.reconstruct import FragmentIndex
    index = FragmentIndex()
    source = ('(game "S" (equipment { (regions "Home" P1 (sites Bottom)) '
              '(regions P2 (sites Top)) (track "T" "0,E" loop:True) '
              '(track "U" "0,E" loop:True P1) }))')
    index.add(expand(load_description("s.lud", source)), "s.lud", "board")
    hole = find_holes(_expanded(tmp_path, template))[0]
    assert [run for _, run in index.runs(hole.context)] == runs


def test_an_expected_total_is_offered_on_the_board_and_in_hand_before_lopsided_shares(
        tmp_path):
    """A total alone may be met on the board or in hand: each part's likeliest start (even
    shares) comes before the next of either (one piece against five), so a game with hands
    gets a start in hand among the few played."""
    from ludeme.analysis.reconstruct import generated_starts
    game = _game(tmp_path, '(board (square 3)) (piece "Disc" Each) (hand Each)')
    starts = generated_starts(game, [_e("NumStartComponents", 6)])
    assert starts[:3] == [
        '{ (place "Disc1" (sites {0 1 2})) (place "Disc2" (sites {6 7 8})) }',
        '{ (place "Disc1" (handSite P1) count:3) (place "Disc2" (handSite P2) count:3) }',
        '{ (place "Disc1" (sites {0})) (place "Disc2" (sites {4 5 6 7 8})) }']


ROLLER = ('(game "R" (players 2) (equipment {{ (board (rectangle 1 8)) '
          '(piece "Disc" Each (move Step E (to if:(is Empty (to))))) {dice} }}) (rules (start {{ (place "Disc1" 0) '
          '(place "Disc2" 1) }}) (play {play}) (end (if (is In (last To) (sites {{7}})) '
          '(result Mover Win)))))')


@pytest.mark.parametrize("dice, added", [
    ("", True),
    # a template that declares its dice keeps its own
    ("(dice d:6 num:1)", False),
])
def test_a_fill_reading_the_dice_brings_its_sources_dice(tmp_path, dice, added):
    # a (roll) with no dice in the equipment rolls nothing: the fill would not build
    from ludeme.api import load
    text = first_candidate(tmp_path, ROLLER.format(dice="(dice d:2 from:0 num:4)",
                                                   play="(do (roll) next:(forEach Piece))"),
                           "board/race/roller.lud", ROLLER.format(dice=dice, play="[#]"))
    assert ("(dice d:2 from:0 num:4)" in text) == added
    assert ("the dice of board/race/roller.lud added to the equipment: the fill of line 1:"
            in text) == added
    game = load(tmp_path / "c.lud", backend="reference")
    assert len(game.containers) == 2
    assert game.new_initial_state(0).legal_moves()


@pytest.mark.parametrize("hands, added", [
    ("", True),
    ("(hand Each)", False),
])
def test_a_fill_placing_in_a_hand_by_its_name_brings_its_sources_hands(tmp_path, hands, added):
    # `(place "Disc" "Hand")` puts each player's Disc in their hand: without one, the
    # fill would not build
    from ludeme.api import load
    game = ('(game "H" (players 2) (equipment {{ (board (rectangle 1 6)) '
            '(piece "Disc" Each (move Step E (to if:(is Empty (to))))) {hands} }}) '
            '(rules (start {start}) (play (forEach Piece)) (end (if (no Moves Next) '
            '(result Mover Win)))))')
    text = first_candidate(tmp_path, game.format(hands="(hand Each)",
                                                 start='(place "Disc" "Hand")'),
                           "board/race/hander.lud", game.format(hands=hands, start="[#]"))
    assert ('(place "Disc" "Hand")' in text)
    assert ("the hands of board/race/hander.lud added to the equipment: the fill of line 1:"
            in text) == added
    assert len(load(tmp_path / "c.lud", backend="reference").containers) == 3


# a hole in a define the game uses in two places of different contexts: a size, and a
# number taken one from
TWO_USES = ('(define "Size" [#]) (game "G" (players 2) (equipment {{ (board (merge {{ '
            '(rectangle 1 ("Size")) (shift 0 (- "Size" 1) (rectangle 1 1)) }})) '
            '(piece "Disc" Each) }}) (rules (play (move Add (to (sites Empty)))) '
            '(end (if (is Full) (result Mover Draw)))))')


def test_a_hole_in_a_define_used_in_several_places_has_each_uses_context(tmp_path):
    hole, = find_holes(_expanded(tmp_path, TWO_USES.format()))
    assert [str(c) for c in hole.contexts] == ["(rectangle ... [#])", "(- [#] ...)"]


def test_a_define_holes_fill_fits_every_use(tmp_path):
    """A fill of the first use only (`8 diagonals:Alternating` after a rectangle's first
    size) would be written into `(- "Size" 1)` too; the fills are the runs that fit both,
    from either use's runs in the corpus."""
    import random
    from ludeme.api import load
    from ludeme.analysis.reconstruct import (FragmentIndex, Plan, candidate_text, hole_options,
                                             load_template, source_scores)
    index = FragmentIndex()
    for name, board in (("a", "(rectangle 1 8 diagonals:Alternating)"),
                        ("b", "(rectangle 2 5)"), ("c", "(shift (- 4 1) 0 (square 2))")):
        source = f'(game "{name}" (players 2) (equipment {{ (board {board}) }}))'
        index.add(expand(load_description(f"{name}.lud", source)), f"board/{name}.lud",
                  "board")
    path = tmp_path / "t.lud"
    path.write_text(TWO_USES.format())
    template = load_template(path)
    options, = hole_options(template, index, source_scores(template, index),
                            random.Random(0))
    assert sorted(o.raw for o in options) == ["4", "5"]
    for o in options:
        (tmp_path / "c.lud").write_text(candidate_text(template, Plan([o], "mix"), index, 1, 0))
        assert load(tmp_path / "c.lud", backend="reference").num_players == 2


def test_without_a_concept_index_sources_of_the_family_with_the_expected_concepts_come_first(
        tmp_path, monkeypatch):
    """A template that expects dice takes its own family's games with dice first, read from
    their compile-time concepts (no `--against` index given); those of the same family
    without them after, whatever else they share with it."""
    from ludeme.analysis.reconstruct import FragmentIndex, load_template, source_scores
    monkeypatch.setenv("LUDEME_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "corpus" / "board" / "war"
    folder.mkdir(parents=True)
    moves = "(move Step (to if:(is Empty (to))))"
    (folder / "plain.lud").write_text(
        f'(game "Plain" (players 2) (equipment {{ (board (square 3)) (piece "Disc" Each '
        f'{moves}) }}) (rules (play (forEach Piece)) (end (if (no Moves Next) '
        f'(result Mover Win)))))')
    (folder / "thrown.lud").write_text(
        f'(game "Thrown" (players 2) (equipment {{ (board (square 3)) (dice d:6 num:1) '
        f'(piece "Disc" Each {moves}) }}) (rules (play (do (roll) next:(forEach Piece))) '
        f'(end (if (no Moves Next) (result Mover Win)))))')
    index = FragmentIndex.of_folders([tmp_path / "corpus"])
    path = tmp_path / "t.lud"
    path.write_text('(game "T" (players 2) (equipment { (board (square 3)) (piece "Disc" Each) '
                    '}) (rules (play (forEach Piece)) (end [#]))) (metadata (info { '
                    '(classification "board/war/reconstruction/pending") }) (recon { '
                    '(concept "Dice" True) }))')
    template = load_template(path, family="board/war")
    scores = dict(zip((s.name for s in index.sources), source_scores(template, index)))
    assert scores["Thrown"] > scores["Plain"] + 0.5
    assert list((tmp_path / "cache" / "reconstruct").glob("source-concepts-*.pickle"))


@pytest.mark.parametrize("family_has_dice", [0, 1, 5])
def test_sources_of_other_families_with_every_expected_concept_rank_with_the_family(
        tmp_path, monkeypatch, family_has_dice):
    """When fewer than five games of the template's family have every expected concept
    (dice, for a war template), the other families' games are read too, and one that has
    them all ranks with the family's; when five of the family have them, the others stay
    behind."""
    from ludeme.analysis.reconstruct import FragmentIndex, load_template, source_scores
    monkeypatch.setenv("LUDEME_CACHE_DIR", str(tmp_path / "cache"))
    moves = "(move Step (to if:(is Empty (to))))"
    end = "(end (if (no Moves Next) (result Mover Win)))"
    plain = (f'(equipment {{ (board (square 3)) (piece "Disc" Each {moves}) }}) '
             f'(rules (play (forEach Piece)) {end})')
    thrown = (f'(equipment {{ (board (square 3)) (dice d:6 num:1) (piece "Disc" Each '
              f'{moves}) }}) (rules (play (do (roll) next:(forEach Piece))) {end})')
    games = {"war": {"Plain": plain}, "race": {"Thrown": thrown}}
    for i in range(family_has_dice):
        games["war"][f"Rolled{i}"] = thrown
    for family, texts in games.items():
        folder = tmp_path / "corpus" / "board" / family
        folder.mkdir(parents=True)
        for name, text in texts.items():
            (folder / f"{name.lower()}.lud").write_text(f'(game "{name}" (players 2) {text})')
    index = FragmentIndex.of_folders([tmp_path / "corpus"])
    path = tmp_path / "t.lud"
    path.write_text('(game "T" (players 2) (equipment [#]) (rules [#])) (metadata (info { '
                    '(classification "board/war/reconstruction/pending") }) (recon { '
                    '(concept "Dice" True) }))')
    template = load_template(path, family="board/war")
    scores = dict(zip((s.name for s in index.sources), source_scores(template, index)))
    if family_has_dice >= 5:
        assert scores["Rolled0"] > scores["Thrown"] + 0.5
    else:
        assert scores["Thrown"] > scores["Plain"] + 0.5
    if family_has_dice == 1:
        assert abs(scores["Rolled0"] - scores["Thrown"]) < 0.5


def _equipment_and_rules(tmp_path, sources: dict[str, str]):
    """A template whose equipment and rules are holes, an index of the race games
    `sources` (name -> text), and the options of its two holes."""
    import random
    from ludeme.analysis.reconstruct import (FragmentIndex, hole_options, load_template,
                                             source_scores)
    index = FragmentIndex()
    for name, source in sources.items():
        index.add(expand(load_description(f"{name}.lud", source)), f"board/race/{name}.lud",
                  "board/race")
    path = tmp_path / "t.lud"
    path.write_text('(game "T" (players 2) (equipment [#]) (rules [#]))')
    template = load_template(path)
    equipment, rules = hole_options(template, index, source_scores(template, index),
                                    random.Random(0))
    return template, index, equipment, rules


def test_a_mix_names_the_pieces_its_equipment_fill_declares(tmp_path):
    """A template whose equipment is a hole declares no pieces: a mix of one game's
    equipment and another's rules must move the pieces that equipment declares."""
    from ludeme.api import load
    from ludeme.analysis.reconstruct import Plan, new_tried
    template, index, equipment, rules = _equipment_and_rules(tmp_path, {
        name: race_game(name, piece, "(move Step Forward (to if:(is Empty (to))))",
                        "(if (no Moves Next) (result Next Loss))")
        for name, piece in (("a", "Marker"), ("b", "Counter"))})
    from_a = next(o for o in equipment if o.sources == [0])
    from_b = next(o for o in rules if o.sources == [1])
    tried = new_tried(template, Plan([from_a, from_b], "mix"), index, 1, 0)
    assert '"Counter' not in tried.text and '(place "Marker1"' in tried.text
    (tmp_path / "c.lud").write_text(tried.text)
    assert load(tmp_path / "c.lud", backend="reference").new_initial_state(0).legal_moves()
    # from one game, the plan is as it was
    same = Plan([from_a, next(o for o in rules if o.sources == [0])], "one source", 0)
    assert new_tried(template, same, index, 2, 0).plan is same


def test_a_fill_naming_a_player_the_template_lacks_does_not_fit(tmp_path):
    """A four-player source's fragments that name P3 or P4 are no fills of a two-player
    template (the builder refuses them: P3 does not exist in a 2-player game); a player's
    name inside a string is no player."""
    import random
    from ludeme.analysis.reconstruct import FragmentIndex, hole_options, load_template
    index = FragmentIndex()
    source = ('(game "Four" (players 4) (equipment { (board (square 4)) (piece "Disc" Each) '
              '(regions "P3 home" P1 (sites Bottom)) (regions P3 (sites Top)) '
              '(regions P2 (sites Left)) }))')
    index.add(expand(load_description("s.lud", source)), "board/s.lud", "board")
    path = tmp_path / "t.lud"
    path.write_text('(game "T" (players 2) (equipment { (board (square 4)) '
                    '(piece "Disc" Each) (regions [#] (sites Top)) }))')
    template = load_template(path)
    options, = hole_options(template, index, [1.0], random.Random(0))
    assert sorted(o.raw for o in options) == ['"P3 home" P1', "P2"]


def test_a_board_with_an_unknown_size_is_one_line_or_not_as_the_plan_fills_it(tmp_path):
    """`(rectangle 1 ("Size"))` with `(define "Size" [#])`: once filled, a row, so the
    tracks a fill brings are laid along it."""
    from ludeme.analysis.reconstruct import (FragmentIndex, Option, Plan, candidate_text,
                                             load_template)
    play = ('(forEach Piece (move (from (from)) (to (trackSite Move from:(from) steps:1) '
            'if:(is Empty (to)))))')
    index = FragmentIndex()
    index.add(expand(load_description("s.lud", RACER.format(
        rows=3, tracks=' { (track "Track" {0 1 2 5 8 7}) }', play=play))),
        "board/race/racer.lud", "board/race")
    path = tmp_path / "t.lud"
    path.write_text('(define "Size" [#])\n' + RACER.format(rows=1, tracks="", play="[#]")
                    .replace("(rectangle 1 5)", '(rectangle 1 ("Size"))'))
    template = load_template(path)
    assert template.board_line is None
    size, moves = (Option(text, (), [0], 1.0) for text in ("4", play))
    text = candidate_text(template, Plan([size, moves], "one source", 0), index, 1, 0)
    assert '(track "Track" {0 1 2 3})' in text
    assert template.line_for(Plan([Option("(square 2)", (), [0], 1.0), moves], "mix")) is None


def test_a_mix_brings_the_hands_and_dice_its_rules_read_into_its_equipment_fill(tmp_path):
    """A template whose whole equipment is a hole: a mix of one game's equipment and
    another's rules that place pieces in hands and roll dice gets that game's hands and
    dice in its equipment fill, and says so; a fill that reads none gets nothing."""
    from ludeme.api import load
    from ludeme.analysis.reconstruct import Plan, new_tried
    plain = race_game("a", "Disc", "(move Step Forward (to if:(is Empty (to))))",
                      "(if (no Moves Next) (result Next Loss))")
    handed = """(game "b" (players 2)
    (equipment { (board (square 3)) (piece "Marker" Each) (hand Each)
                 (dice d:2 from:0 num:2) })
    (rules
        (start { (place "Marker1" (handSite P1) count:2)
                 (place "Marker2" (handSite P2) count:2) })
        (play (if (!= 0 (count Pips)) (move (from (handSite Mover)) (to (sites Empty)))))
        (end (if (no Moves Next) (result Next Loss)))))"""
    template, index, equipment, rules = _equipment_and_rules(tmp_path, {"a": plain,
                                                                        "b": handed})
    from_a = next(o for o in equipment if o.sources == [0])
    tried = new_tried(template, Plan([from_a, next(o for o in rules if o.sources == [1])],
                                     "mix"), index, 1, 0)
    assert "(hand Each)" in tried.text and "(dice d:2 from:0 num:2)" in tried.text
    assert "// the hands of board/race/b.lud added to the equipment" in tried.text
    (tmp_path / "c.lud").write_text(tried.text)
    assert load(tmp_path / "c.lud", backend="reference").new_initial_state(0).legal_moves()
    # rules that read neither: the plan is as it was
    same = Plan([from_a, next(o for o in rules if o.sources == [0])], "mix")
    assert new_tried(template, same, index, 2, 0).plan is same
