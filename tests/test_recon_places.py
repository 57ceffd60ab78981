"""`ludeme reconstruct`: a hole under a keyword Ludii gives several categories (`if`, `or`,
`and`) takes the fragments the builder reads as the category its place takes there, and a
board written as a library define takes a source's tracks as the define's argument."""

import random

import pytest

from ludeme.analysis.reconstruct import (FragmentIndex, hole_options, load_template,
                                         source_scores)
from ludeme.language.expand import expand, load_description

# Written for this test: a source game whose (if ...) and (or ...) stand where directions,
# moves and conditions go.
SOURCE = """(game "Source"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each
            (or
                (move Step (if (is In (from) (sites Bottom)) Orthogonal Diagonal)
                    (to if:(is Empty (to))))
                (move Hop (to if:(is Empty (to)) (apply (if (is Mover P1) (remove (to))))))))
    })
    (rules
        (start { (place "Disc1" (sites Bottom)) (place "Disc2" (sites Top)) })
        (play (forEach Piece))
        (end (if (or (no Moves Next) (is Full)) (result Mover Win)))
    )
)
"""

TEMPLATE = """(game "Holes"
    (players 2)
    (equipment {
        (board (square 5))
        (piece "Disc" Each
            (move Step (to if:(is Empty (to)) (apply (and (remove (to)) (if (is Mover P1) [#]))))))
    })
    (rules
        (start { (place "Disc1" (sites Bottom)) (place "Disc2" (sites Top)) })
        (play (forEach Piece))
        (end (if (or [#]) (result Mover Win)))
    )
)
"""


def _options(tmp_path, template: str, sources: dict[str, str]):
    index = FragmentIndex()
    for rel, text in sources.items():
        index.add(expand(load_description(rel, text)), rel, "board")
    path = tmp_path / "t.lud"
    path.write_text(template)
    t = load_template(path)
    return t, index, hole_options(t, index, source_scores(t, index), random.Random(0))


def test_a_hole_under_an_overloaded_keyword_takes_fragments_of_its_places_category(tmp_path):
    from ludeme.analysis.reconstruct import fits_every_place, iter_plans
    template, index, options = _options(tmp_path, TEMPLATE, {"board/s.lud": SOURCE})
    effect, condition = template.holes

    def fitting(hole, opts):
        return sorted(o.text for o in opts if fits_every_place(hole, o.text))
    # among an effect's moves: the moves of the source's (if ...), not its directions
    assert fitting(effect, options[0]) == ["(remove (to))"]
    # a condition's (or ...): the source's conditions, not its moves of (or ...)
    assert fitting(condition, options[1]) == ["(no Moves Next) (is Full)"]
    # plans take only the options that fit, asked as they are made
    asked = []

    def fits(h, o):
        asked.append(o.text)
        return fits_every_place(template.holes[h], o.text)
    plans = list(iter_plans(options, [1.0], 10, random.Random(0), fits=fits))
    assert [[o.text for o in p.options] for p in plans] == [
        ["(remove (to))", "(no Moves Next) (is Full)"]]
    assert asked


@pytest.mark.parametrize("chain, types, not_types", [
    # an (if ...) among an effect's moves is moves; in a step's directions, directions; in
    # an end, an end rule
    ("(game (piece (move Step (to (apply (and (remove (to)) HERE))))))", {"Moves"},
     {"Direction", "EndRule"}),
    ("(game (piece (move Step HERE (to))))", {"Direction"}, {"Moves", "EndRule"}),
    ("(game (rules (end HERE)))", {"EndRule"}, {"Moves", "Direction"}),
])
def test_slot_types_follow_the_place_up_the_chain(chain, types, not_types):
    from ludeme.language.grammar import parse
    from ludeme.language.syntax import Call, walk
    from ludeme.model.ludemes import load_all
    from ludeme.model.ludemes.builder import slot_types
    load_all()
    root, = parse(chain.replace("HERE", "(if True Pass)"), "<t>")

    def path_to(node, target, above):
        if node is target:
            return above
        for a in getattr(node, "args", ()):
            got = path_to(a, target, above + [node])
            if got is not None:
                return got
        return None
    target = next(n for n in walk(root) if isinstance(n, Call) and n.name == "if")
    names = {getattr(t, "__name__", str(t)) for t in slot_types(path_to(root, target, []),
                                                                target)}
    assert types <= names and not names & not_types


# A board written as a library define whose #1 stands where the board's tracks go (as
# Ludii's library boards take theirs), used with tracks in the source and without in the
# template.
DEFINED_RACER = ('(game "Racer" (players 2) (equipment {{ ("BackgammonBoard"{tracks}) '
                 '(piece "Disc" Each) }}) (rules (start {{ (place "Disc1" 0) (place "Disc2" 0) }}) '
                 '(play {play}) (end (if (no Moves Next) (result Mover Win)))))')
TRACK_PLAY = ('(forEach Piece (move (from (from)) (to (trackSite Move from:(from) steps:1) '
              'if:(is Empty (to)))))')
TRACK = '(track "Track" {0 1 2 3 4 5 6 7 8 9 10 11 12 25 24 23 22 21 20 19 18 17 16 15 14 13})'


def test_a_board_written_as_a_library_define_takes_the_sources_tracks_as_its_argument(
        tmp_path):
    from ludeme.analysis.reconstruct import Plan, candidate_text, track_gap
    from ludeme.api import load
    source = DEFINED_RACER.format(tracks=" { " + TRACK + " }", play=TRACK_PLAY)
    template = DEFINED_RACER.format(tracks="", play="[#]")
    t, index, options = _options(tmp_path, template, {"board/race/s.lud": source})
    text = candidate_text(t, Plan([options[0][0]], "one source", 0), index, 1, 0)
    assert '("BackgammonBoard" { ' + TRACK + ' } )' in text
    (tmp_path / "c.lud").write_text(text)
    game = load(tmp_path / "c.lud", backend="reference")
    assert [tr.name for tr in game.board.track_info] == ["Track"] and not track_gap(game)


@pytest.mark.parametrize("text, theirs, mine, resized", [
    # P2's track of four rows of 16 starts at row 2, column 0: site 8 on four rows of 4
    ('(track "T2" "32,E,N1,W" loop:True P2)', (4, 16), (4, 4),
     '(track "T2" "8,E,N1,W" loop:True P2)'),
    # the last column stays the last
    ('(track "T" "15,W,N1,E" loop:True)', (4, 16), (4, 4), '(track "T" "3,W,N1,E" loop:True)'),
    # steps that count columns, a start past the template's columns, another number of rows,
    # a list of sites: as written
    ('(track "T" "0,E3,N1,W" loop:True)', (4, 16), (4, 4), '(track "T" "0,E3,N1,W" loop:True)'),
    ('(track "T" "6,E,N1,W" loop:True)', (4, 16), (4, 4), '(track "T" "6,E,N1,W" loop:True)'),
    ('(track "T" "16,E,N1,W" loop:True)', (2, 16), (4, 4), '(track "T" "16,E,N1,W" loop:True)'),
    ('(track "T" {0 1 2 3} loop:True)', (4, 16), (4, 4), '(track "T" {0 1 2 3} loop:True)'),
])
def test_a_mancala_fills_tracks_start_on_the_templates_grid(text, theirs, mine, resized):
    from ludeme.analysis.reconstruct import resized_tracks
    assert resized_tracks(text, theirs, mine) == resized


def test_a_mancala_board_hole_takes_tracks_started_on_its_grid(tmp_path):
    game = ('(game "{name}" (players 2) (equipment {{ (mancalaBoard 4 {cols} store:None {tracks}) '
            '(piece "Seed" Shared) }}) (rules (start (set Count 2 to:(sites Track))) '
            '(play (move Select (from (sites Mover) if:(> (count at:(from)) 0)) (then (sow)))) '
            '(end (if (no Moves Mover) (result Next Win)))))')
    tracks = ('{ (track "Track1" "0,E,N1,W" loop:True P1) (track "Track2" "16,E,N1,W" '
              'loop:True P2) }')
    source = game.format(name="S", cols=8, tracks=tracks)
    template = game.format(name="T", cols=4, tracks="[#]")
    _, _, (options,) = _options(tmp_path, template, {"board/sow/s.lud": source})
    assert [" ".join(o.text.split()) for o in options] == [tracks.replace('"16,', '"8,')]


def test_a_plan_from_one_source_takes_the_choice_that_source_makes_there(tmp_path):
    """A template's `(players [2..5])` takes, in a plan from one source, the count the
    source itself plays with (its fragments name its players); a source whose count is not
    among the choices leaves it to the seeded draw."""
    import random
    from ludeme.analysis.reconstruct import (FragmentIndex, hole_options, iter_plans,
                                             load_template, source_scores)
    from ludeme.language.expand import expand, load_description
    index = FragmentIndex()
    for n in (4, 3, 7):
        text = (f'(game "S{n}" (players {n}) (equipment {{ (board (square 3)) '
                '(piece "Disc" Each) }) (rules (play (forEach Piece)) '
                '(end (if (no Moves Next) (result Mover Win)))))')
        index.add(expand(load_description(f"s{n}.lud", text)), f"board/race/s{n}.lud",
                  "board/race")
    path = tmp_path / "t.lud"
    path.write_text('(game "T" (players [2..5]) (equipment { (board (square 3)) '
                    '(piece "Disc" Each) }) (rules (play (forEach Piece)) (end [#])))')
    template = load_template(path)
    scores = source_scores(template, index)
    options = hole_options(template, index, scores, random.Random(0))
    made = list(iter_plans(options, scores, 6, random.Random(0)))
    players = {index.sources[p.source].path: p.options[0].text for p in made
               if p.source is not None}
    assert players["board/race/s4.lud"] == "4"
    assert players["board/race/s3.lud"] == "3"
    assert players["board/race/s7.lud"] in {"2", "3", "4", "5"}


# Written for this test: a race whose moves read its throws' values from a map by name.
THROWER = """(game "Thrower"
    (players 2)
    (equipment {
        (board (rectangle 1 8) (track "Track" "0,E,End" directed:True))
        (dice d:2 from:0 num:3)
        (map "Throw" {(pair 0 4) (pair 1 1) (pair 2 2) (pair 3 3)})
        (piece "Disc" Each
            (if (!= (trackSite Move steps:(mapEntry "Throw" (count Pips))) Off)
                (move (from) (to (trackSite Move steps:(mapEntry "Throw" (count Pips)))))))
    })
    (rules
        (start {(place "Disc1" 0) (place "Disc2" 1)})
        (play (do (roll) next:(forEach Piece)))
        (end (if (is Occupied 7) (result Mover Win)))))
"""


THROWER_TEMPLATE = """(game "Thrown"
    (players 2)
    (equipment {
        (board (rectangle 1 8) (track "Track" "0,E,End" directed:True))
        (dice d:2 from:0 num:3)
        OWN_MAP
        (piece "Disc" Each [#])
    })
    (rules
        (start {(place "Disc1" 0) (place "Disc2" 1)})
        (play (do (roll) next:(forEach Piece)))
        (end (if (is Occupied 7) (result Mover Win)))))
"""


@pytest.mark.parametrize("own_map, brought", [
    ("", True),
    # a template that declares the map keeps its own
    ('(map "Throw" {(pair 0 2) (pair 1 1) (pair 2 1) (pair 3 2)})', False),
])
def test_a_fill_reading_a_map_by_name_brings_its_sources_map(tmp_path, own_map, brought):
    """Ludii's (mapEntry "Throw" ...) of a map no item declares gives the key itself: the
    source's map comes with the fill that reads it, unless the template declares one."""
    from ludeme.analysis.reconstruct import Plan, candidate_text
    from ludeme.api import load
    t, index, options = _options(tmp_path, THROWER_TEMPLATE.replace("OWN_MAP", own_map),
                                 {"board/race/thrower.lud": THROWER})
    text = candidate_text(t, Plan([options[0][0]], "one source", 0), index, 1, 0)
    assert text.count("(map ") == 1
    assert ("(pair 0 4)" in text) == brought
    assert ('the maps "Throw" of board/race/thrower.lud added to the equipment' in text) \
        == brought
    (tmp_path / "c.lud").write_text(text)
    load(tmp_path / "c.lud").new_initial_state(0)        # it builds


def test_the_moves_after_a_roll_take_the_moves_a_game_plays(tmp_path):
    """`(do (roll) next:[#])` takes the moves a game's `(play ...)` holds, as well as those
    of another `(do ... next:...)`; a place of another type does not take them."""
    source = SOURCE.replace("(play (forEach Piece))", "(play (forEach Piece Mover))")
    template = TEMPLATE.replace('(piece "Disc" Each\n            (move Step (to if:(is Empty '
                                '(to)) (apply (and (remove (to)) (if (is Mover P1) [#]))))))',
                                '(piece "Disc" Each (move Step (to if:(is Empty (to)))))'
                                ' (dice d:2 num:2)').replace(
        "(play (forEach Piece))", "(play (do (roll) next:[#]))").replace(
        "(end (if (or [#]) (result Mover Win)))", "(end (if (no Moves Next) (result Mover Win)))")
    t, index, options = _options(tmp_path, template, {"board/source.lud": source})
    assert [str(h.context) for h in t.holes] == ["(do next: [#])"]
    assert "(forEach Piece Mover)" in [o.text for o in options[0]]
    # an (end [#]) takes no moves
    t, index, options = _options(tmp_path, TEMPLATE.replace("(or [#])", "[#]"),
                                 {"board/source.lud": source})
    assert all("forEach Piece" not in o.text for o in options[-1])
