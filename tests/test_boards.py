"""Boards: Ludii's numbering and neighbours on every reference game, regions, directions,
rays, the graph of record and the tables derived from it, errors with positions, the
documented examples, and `ludeme board` on the command line."""

import gzip
import json
import re
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import networkx as nx
import pytest

from conftest import DESCRIPTIONS, refdata_dir
from ludeme.boards import Board
from ludeme.model.ludemes.graph.containers import build_board, find_board_call
from ludeme.api import load
from ludeme.model.ludemes.graph.containers import equipment_items
from ludeme.model.ludemes.graph.containers import BoardContainer
from ludeme.model.ludemes.base import REGISTRY, Dim, GraphFn
from ludeme.errors import LudemeError
from ludeme.language.expand import expand_file
from ludeme.language.grammar import parse
from ludeme.language.syntax import Call, Str, to_lud, walk


def board_of(text: str, players: int = 2) -> Board:
    return build_board(parse(text, "t.lud")[0], players)


# ---------------------------------------------------------------- the 36 reference configurations

def _configs():
    d = refdata_dir()
    if d is None:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason="Ludii reference data not found: put shared/ beside the checkout "
                   "or set LUDEME_SHARED_DIR"))]
    return [c["slug"] for c in json.loads((d / "configs.json").read_text())["configs"]]


@lru_cache(maxsize=None)
def reference(slug):
    """(expanded game, Ludii's info) for a reference configuration."""
    d = refdata_dir()
    if d is None:
        pytest.skip("Ludii reference data not found: put shared/ beside the checkout "
                    "or set LUDEME_SHARED_DIR")
    cfg = next(c for c in json.loads((d / "configs.json").read_text())["configs"] if c["slug"] == slug)
    info = json.loads((d / "info" / f"{slug}.json").read_text())
    # optionsEffective pins every option, so the check does not depend on default-item rules.
    options = cfg["options"] if cfg["ruleset"] else info["optionsEffective"]
    ex = expand_file(str(d.parent / "ludii" / "games" / cfg["lud"]), options, cfg["ruleset"])
    return ex, info


@lru_cache(maxsize=None)
def _built(text: str, players: int) -> Board:
    return board_of(text, players)


def reference_board(slug) -> Board:
    ex, _ = reference(slug)
    return _built(to_lud(find_board_call(ex.game)), 2)   # the player count does not shape a board


def normalised(points):
    """Points shifted to their mean and scaled to unit mean distance (Ludii's scale is arbitrary)."""
    n = len(points)
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    shifted = [(x - mx, y - my) for x, y in points]
    scale = sum((x * x + y * y) ** 0.5 for x, y in shifted) / n or 1.0
    return [(x / scale, y / scale) for x, y in shifted]


@pytest.mark.parametrize("slug", _configs())
def test_board_matches_ludii(slug):
    ex, info = reference(slug)
    board = reference_board(slug)
    assert board.site_type == info["siteType"]
    assert board.num_sites == info["numSites"]
    assert (board.num_vertices, board.num_edges, board.num_cells) == \
        (info["numVertices"], info["numEdges"], info["numCells"])
    mine = board.to_json()["sites"]
    for got, want in zip(mine, info["sites"]):
        assert got["index"] == want["index"]
        assert (got["row"], got["col"], got["label"]) == (want["row"], want["col"], want["label"]), got
        for rel in ("orthogonal", "diagonal", "adjacent"):
            assert sorted(got[rel]) == sorted(want[rel]), (got["index"], rel)
    ours = normalised([(s.x, s.y) for s in board.sites])
    theirs = normalised([(s["x"], s["y"]) for s in info["sites"]])
    assert max(abs(a - c) + abs(b - d) for (a, b), (c, d) in zip(ours, theirs)) < 1e-4


# A game that places one piece on every site of a region at the start: the engine's own
# region ludemes (the one evaluator there is) then tell which sites the region holds.
SITES_GAME = ('(game "Sites" (players {players}) (equipment {{{board} (piece "X" Each) {regions}}}) '
              '(rules (start (place "X1" {region})) (play (move Add (to (sites Empty)))) '
              '(end (if False (result Mover Win)))))')


@lru_cache(maxsize=None)
def engine_sites(board: str, region: str, regions: str = "", players: int = 2) -> tuple:
    """The sites of `region` on `board` as the engine evaluates it (with `regions` declared)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "sites.lud"
        path.write_text(SITES_GAME.format(players=players, board=board, regions=regions,
                                          region=region))
        state = load(path).new_initial_state()
    return tuple(s for s, who in enumerate(state.board_view()["who"]) if who)


def _equipment(ex):
    return next(a for a in ex.game.args if isinstance(a, Call) and a.name == "equipment")


def declared_regions(ex) -> str:
    """The `(regions ...)` items of a game's equipment, as text."""
    return " ".join(to_lud(it) for it in equipment_items(_equipment(ex))
                    if isinstance(it, Call) and it.name == "regions")


def _players(ex) -> int:
    from ludeme.cli.board import _players
    return _players(ex.game)


def engine_board(ex) -> str:
    """The game's board call as text for `SITES_GAME` (the engine's equipment has no
    `surakartaBoard`; its sites are those of `(board <graph> use:Vertex)`, tracks aside)."""
    call = find_board_call(ex.game)
    if call.name == "surakartaBoard":
        return f"(board {to_lud(call.positional()[0])} use:Vertex)"
    return to_lud(call)


def _region_placements(ex):
    """The `(place "Piece" <region>)` items of a game, as (piece name, region node)."""
    for node in walk(ex.game):
        if isinstance(node, Call) and node.name == "place":
            args = node.positional()
            if len(args) == 2 and isinstance(args[0], Str) and not isinstance(args[1], Str):
                yield args[0].value, args[1]


def start_placements(slug):
    """{piece index: sites} from the `(place "Piece" <region>)` items of the start rules."""
    ex, info = reference(slug)
    board = engine_board(ex)
    regions = declared_regions(ex)
    index = {c["name"]: c["index"] for c in info["components"]}
    placed: dict[int, set] = {}
    for name, region in _region_placements(ex):
        placed.setdefault(index[name], set()).update(
            engine_sites(board, to_lud(region), regions, _players(ex)))
    return placed


def _placing_configs():
    """The configurations whose start places pieces on regions, read from their trees at
    collection (the engine evaluates the regions in the test itself)."""
    slugs = _configs()
    if slugs and slugs[0] is not None and not isinstance(slugs[0], str):
        return slugs          # the skip marker
    return [s for s in slugs if any(_region_placements(reference(s)[0]))]


@pytest.mark.parametrize("slug", _placing_configs())
def test_start_regions_match_ludii(slug):
    """Every `(place "Piece" <region>)` of the start rules covers exactly the sites Ludii fills.

    This checks Top, Bottom, Left, Right, Corners, Centre, Phase, expand, union,
    difference, labels, coordinates and declared player regions against Ludii, as
    the engine's region ludemes evaluate them on the board's tables.
    """
    _, info = reference(slug)
    expected: dict[int, set] = {}
    for site, what in enumerate(info["initialState"]["what"][:reference_board(slug).num_sites]):
        if what:
            expected.setdefault(what, set()).add(site)
    assert start_placements(slug) == expected


# ---------------------------------------------------------------- Ludii's rays, checked on its own games

def _traces(slug, limit):
    d = refdata_dir()
    if d is None:
        pytest.skip("Ludii reference data not found")
    files = sorted((d / "traces" / slug).glob("seed-*.json.gz"))[:limit]
    if not files:
        pytest.skip(f"no traces for {slug}")
    return [json.loads(gzip.open(f).read()) for f in files]


def lines_of_action_moves(board, who, mover):
    """LOA: move exactly as far as there are pieces on the line, over friends, onto non-friends."""
    out = set()
    for f in range(board.num_sites):
        if who[f] != mover:
            continue
        s = board.sites[f]
        for dirs, line in ((("N", "S"), board.region("Column", s.col)),
                           (("W", "E"), board.region("Row", s.row)),
                           (("NE", "SW"), board.in_direction(f, ("NE", "SW"), included=True)),
                           (("NW", "SE"), board.in_direction(f, ("NW", "SE"), included=True))):
            n = sum(1 for t in set(line) if who[t])
            for d in dirs:
                ray = board.rays[d][f]
                if n <= len(ray) and all(who[t] in (0, mover) for t in ray[:n - 1]) \
                        and who[ray[n - 1]] != mover:
                    out.add((f, ray[n - 1]))
    return out


@pytest.mark.parametrize("limit", [pytest.param(2), pytest.param(20, marks=pytest.mark.slow)])
def test_rays_and_lines_reproduce_lines_of_action(limit):
    board = reference_board("lines-of-action-draw")
    for trace in _traces("lines-of-action-draw", limit):
        who = trace["initial"]["who"]
        for step in trace["steps"]:
            legal = {(m["from"], m["to"]) for m in step["legal"]}
            assert lines_of_action_moves(board, who, step["mover"]) == legal, step["step"]
            who = step["board"]["who"]


@pytest.mark.parametrize("limit", [pytest.param(2), pytest.param(20, marks=pytest.mark.slow)])
def test_hex_radials_reproduce_chinese_checkers(limit):
    """Steps to adjacent cells and hops along Adjacent radials, on the star board."""
    slug = "chinese-checkers-2p-a"
    ex, _ = reference(slug)
    board = reference_board(slug)
    home = {p: set(engine_sites(to_lud(find_board_call(ex.game)), f"(sites P{p})",
                                declared_regions(ex))) for p in (1, 2)}
    for trace in _traces(slug, limit):
        who, last = trace["initial"]["who"], None
        for step in trace["steps"]:
            m = step["mover"]
            if m != last:   # a fresh turn (hop chains continue with follow-up decisions)
                target = home[3 - m]
                mine = set()
                for f in (s for s in range(board.num_sites) if who[s] == m):
                    for r in board.radials["Adjacent"][f]:
                        if len(r.sites) > 2 and who[r.sites[1]] and not who[r.sites[2]]:
                            mine.add((f, r.sites[2]))
                    mine.update((f, t) for t in board.neighbours["Adjacent"][f] if not who[t])
                mine = {(f, t) for f, t in mine if f not in target or t in target}
                assert mine == {(x["from"], x["to"]) for x in step["legal"]}, step["step"]
            last, who = m, step["board"]["who"]


def test_hex_sides_are_the_goals_ludii_plays_to():
    """In Ludii's Hex games the winner's last stone first joins its two sides (Side NE/SW or NW/SE)."""
    ex, _ = reference("hex")
    board = reference_board("hex")
    text, regions = to_lud(find_board_call(ex.game)), declared_regions(ex)
    goals = {1: (board.region("Side", "NE"), board.region("Side", "SW")),
             2: (board.region("Side", "NW"), board.region("Side", "SE"))}
    for p, (a, b) in goals.items():   # the goals the game declares are these two sides
        assert engine_sites(text, f"(sites P{p})", regions) == tuple(sorted({*a, *b}))

    def joined(who, player):
        a, b = goals[player]
        seen, todo = set(a) & {s for s, w in enumerate(who) if w == player}, []
        todo.extend(seen)
        while todo:
            s = todo.pop()
            for t in board.neighbours["Adjacent"][s]:
                if who[t] == player and t not in seen:
                    seen.add(t)
                    todo.append(t)
        return bool(seen & set(b))

    for trace in _traces("hex", 10):
        winner = trace["result"]["winner"]
        final, before = trace["steps"][-1]["board"]["who"], trace["steps"][-2]["board"]["who"]
        assert joined(final, winner) and not joined(before, winner)


# ---------------------------------------------------------------- regions, table-driven

REGIONS = [
    # (board, region name, args, expected sites)
    ("(board (square 3))", "Corners", (), (0, 2, 6, 8)),
    ("(board (square 3))", "Centre", (), (4,)),
    ("(board (square 3))", "Top", (), (6, 7, 8)),
    ("(board (square 3))", "Bottom", (), (0, 1, 2)),
    ("(board (square 3))", "Left", (), (0, 3, 6)),
    ("(board (square 3))", "Right", (), (2, 5, 8)),
    ("(board (square 3))", "Perimeter", (), (0, 1, 2, 3, 5, 6, 7, 8)),
    ("(board (square 3))", "Inner", (), (4,)),
    ("(board (square 3))", "Outer", (), (0, 1, 2, 3, 5, 6, 7, 8)),
    ("(board (square 3))", "Row", (1,), (3, 4, 5)),
    ("(board (square 3))", "Column", (2,), (2, 5, 8)),
    ("(board (square 3))", "Row", (7,), ()),
    ("(board (square 3))", "Phase", (0,), (0, 2, 4, 6, 8)),
    ("(board (square 3))", "Side", ("N",), (6, 7, 8)),
    ("(board (square 3))", "Side", ("W",), (0, 3, 6)),
    ("(board (square 3))", "Board", (), tuple(range(9))),
    ("(board (square 8))", "Centre", (), (27, 28, 35, 36)),
    ("(board (square 3) use:Vertex)", "Corners", (), (0, 2, 6, 8)),
    ("(board (square 3) use:Vertex)", "Centre", (), (4,)),
    ("(board (hex Diamond 11))", "Corners", (), (0, 55, 65, 120)),
    ("(board (hex Diamond 11))", "Side", ("SW",), (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55)),
    ("(board (hex Diamond 11))", "Side", ("NE",), (65, 75, 84, 92, 99, 105, 110, 114, 117, 119, 120)),
    ("(board (hex Diamond 11))", "Centre", (), (60,)),
    ("(board (rotate 30 (hex 4)))", "Corners", (), (0, 3, 15, 21, 33, 36)),
    ("(board (concentric Square rings:3) use:Vertex)", "Corners", (), (0, 2, 21, 23)),
]


@pytest.mark.parametrize("text,name,args,expected", REGIONS)
def test_region(text, name, args, expected):
    assert _built(text, 2).region(name, *args) == expected


SITES = [
    # (board, region ludeme, expected sites)
    ("(board (square 3))", '(sites {"A1" "C3" 4})', (0, 4, 8)),
    ("(board (square 3))", "(expand (sites Bottom))", (0, 1, 2, 3, 4, 5)),
    ("(board (square 3))", "(expand (sites Bottom) steps:2 Orthogonal)", tuple(range(9))),
    ("(board (square 3))", "(difference (sites Board) (sites Perimeter))", (4,)),
    ("(board (square 3))", "(intersection (sites Top) (sites Right))", (8,)),
    ("(board (square 3))", "(union {(sites Top) (sites Bottom)})", (0, 1, 2, 6, 7, 8)),
    ("(board (square 3))", "(sites Around 4)", (0, 1, 2, 3, 5, 6, 7, 8)),
    ("(board (square 3))", "(sites Around 4 Orthogonal)", (1, 3, 5, 7)),
    ("(board (square 3))", "(sites Direction from:0 NE)", (4, 8)),
    ("(board (square 3))", "(sites Distance from:0 (exact 2))", (2, 5, 6, 7, 8)),   # Adjacent
    ("(board (square 3))", "(sites Distance Orthogonal from:0 (exact 2))", (2, 4, 6)),
    ("(board (square 3))", "(sites Distance Diagonal from:0 (range 1 5))", (2, 4, 6, 8)),
    ("(board (hex 3))", "(sites Distance from:0 (range 3 4))", (6, *range(10, 19))),
    ("(board (square 5))", "(expand origin:(coord row:2 column:2) steps:1 Orthogonal)", (7, 11, 12, 13, 17)),
    ("(board (hex 2))", "(sites Around 3)", (0, 1, 2, 4, 5, 6)),
    # Ludii's SitesCoords leaves out a label no site has
    ("(board (square 3))", '(sites {"Z9" "A1"})', (0,)),
]


@pytest.mark.parametrize("text,spec,expected", SITES)
def test_region_ludemes_on_the_board_tables(text, spec, expected):
    assert engine_sites(text, spec) == expected


REGION_ERRORS = [
    ("(sites Side Q)", "argument 'side' of (sites Side ...) must be one of"),
    ("(sites Row)", "(sites Row ...) needs its argument 'index'"),
    ("(expand steps:2)", "needs a region or origin:"),
]


@pytest.mark.parametrize("spec,message", REGION_ERRORS)
def test_region_errors(spec, message):
    with pytest.raises(LudemeError) as e:
        engine_sites("(board (square 3))", spec)
    assert message in str(e.value)
    assert e.value.pos is not None and e.value.pos.line == 1


@pytest.mark.parametrize("call,error", [
    (lambda b: b.region("Middle"), KeyError),
    (lambda b: b.region("Side", "Up"), KeyError),
    (lambda b: b.region("Row"), ValueError),
    (lambda b: b.relation_dirs("Forward"), KeyError),
    (lambda b: b.topology("Face"), KeyError),
    (lambda b: b.index_of("Z9"), KeyError),
])
def test_api_lookups_fail_like_lookups(call, error):
    with pytest.raises(error):
        call(_built("(board (square 3))", 2))


def test_declared_player_regions():
    regions = ('(regions P1 {(sites Side NE) (sites Side SW)}) '
               '(regions "Home" P2 (sites {"A1"}))')
    board = "(board (hex Diamond 3))"
    sides = {*_built(board, 2).region("Side", "NE"), *_built(board, 2).region("Side", "SW")}
    assert engine_sites(board, "(sites P1)", regions) == tuple(sorted(sides))
    assert engine_sites(board, "(sites P2)", regions) == (0,)


# ---------------------------------------------------------------- directions, steps, rays

def test_square_cells_step_and_rays():
    b = _built("(board (square 8))", 2)
    assert b.directions == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert b.relation_dirs("Orthogonal") == ("N", "E", "S", "W")
    assert b.relation_dirs("Diagonal") == ("NE", "SE", "SW", "NW")
    assert (b.step["N"][0], b.step["E"][0], b.step["NE"][0], b.step["S"][0]) == (8, 1, 9, -1)
    assert b.rays["E"][0] == (1, 2, 3, 4, 5, 6, 7)
    assert b.rays["NE"][0] == (9, 18, 27, 36, 45, 54, 63)
    assert b.rays["W"][0] == ()
    assert b.neighbours["Orthogonal"][9] == (17, 10, 1, 8)     # clockwise from north
    assert b.index_of("A1") == 0 and b.index_of("H8") == 63
    assert [r.sites[1:] for r in b.radials["Orthogonal"][0]] == [tuple(range(8, 64, 8)), tuple(range(1, 8))]
    # a line test walks one distinct radial and its opposite
    (line,) = [r for r in b.distinct_radials["E"][3]]
    assert line.sites == (3, 4, 5, 6, 7) and line.opposite.sites == (3, 2, 1, 0)


@pytest.mark.parametrize("shape, site, direction, line", [
    ("(board (square 8))", 3, "E", (3, 4, 5, 6, 7)),
    ("(board (hex 4))", 0, "E", (0, 1, 2, 3)),
    ("(board (square 5) use:Vertex)", 0, "N", (0, 5, 10, 15, 20)),
])
def test_radials_are_walked_for_the_sites_read(shape, site, direction, line, monkeypatch):
    """Building a large board walks no radial (a hexagon of side 60 has 600,000 of them);
    reading one site's walks that site's only, and its rays come from the same walk. (These
    small boards are read as a large one is: see the next test for theirs.)"""
    from ludeme.boards import board as board_module
    from ludeme.model.ludemes.graph import containers
    monkeypatch.setattr(board_module, "EAGER_SITES", 0)
    monkeypatch.setattr(containers, "_GRAPHS", {})   # built afresh, not shared
    b = board_of(shape)
    walked = b.trajectories._sites
    assert walked.count(None) == len(walked) == b.num_sites
    assert b.radials[direction][site][0].sites == line
    assert [i for i, w in enumerate(walked) if w is not None] == [site]
    assert b.rays[direction][site] == line[1:]
    assert len(b.radials[direction]) == b.num_sites
    assert b.radials[direction][-b.num_sites] == b.radials[direction][0]
    with pytest.raises(IndexError, match="is not on the board"):
        b.radials[direction][b.num_sites]


def test_a_small_board_holds_its_radials_and_rays_as_tuples(monkeypatch):
    """What playouts read in their hot loops is a plain tuple indexed by site on a board of
    a usual size, walked once; the same radials as a large board's walked on demand."""
    from ludeme.model.ludemes.graph import containers
    monkeypatch.setattr(containers, "_GRAPHS", {})   # built afresh, not shared
    b = board_of("(board (square 8))")
    assert all(type(t) is tuple and len(t) == 64 for t in
               [*b.radials.values(), *b.distinct_radials.values(), *b.rays.values()])
    assert b.trajectories._sites.count(None) == 0
    assert b.radials["E"][3][0].sites == (3, 4, 5, 6, 7) and b.rays["E"][3] == (4, 5, 6, 7)


def test_hex_cells_use_sixteen_point_names():
    b = _built("(board (hex 3))", 2)
    assert b.relation_dirs("Orthogonal") == ("NNE", "E", "SSE", "SSW", "W", "NNW")
    assert b.relation_dirs("Diagonal") == ("N", "ENE", "ESE", "S", "WSW", "WNW")
    centre = b.region("Centre")[0]
    assert len(b.neighbours["Orthogonal"][centre]) == 6
    assert b.neighbours["Adjacent"][centre] == b.neighbours["Orthogonal"][centre]
    assert b.rays["E"][centre] == (centre + 1, centre + 2)
    rotated = _built("(board (rotate 90 (hex 3)))", 2)
    assert rotated.relation_dirs("Orthogonal") == ("N", "ENE", "ESE", "S", "WSW", "WNW")


def test_vertex_board_diagonals_follow_faces():
    alquerque = _built("(board (square 5 diagonals:Alternating) use:Vertex)", 2)
    assert alquerque.relation_dirs("Diagonal") == ()               # triangles: no diagonals
    assert set(alquerque.neighbours["Orthogonal"][12]) == {6, 7, 8, 11, 13, 16, 17, 18}
    plain = _built("(board (square 3) use:Vertex)", 2)
    assert plain.neighbours["Diagonal"][4] == (8, 2, 0, 6)   # NE, SE, SW, NW


def test_graph_of_record_carries_sites_and_steps():
    b = _built("(board (square 3))", 2)
    g = b.graph
    assert isinstance(g, nx.DiGraph) and g.graph["site_type"] == "Cell"
    assert g.number_of_nodes() == 9
    assert g.nodes[0] == {"index": 0, "site_type": "Cell", "x": g.nodes[0]["x"],
                          "y": g.nodes[0]["y"], "row": 0, "col": 0, "label": "A1", "phase": 0,
                          "layer": 0, "z": 0.0,
                          "regions": frozenset({"Bottom", "Left", "Corners", "ConvexCorners",
                                                "Perimeter", "Outer", "Major", "Side S",
                                                "Side W"})}
    assert g.edges[0, 1] == {"direction": "E", "relation": "Orthogonal",
                             "relations": frozenset({"Orthogonal", "Adjacent", "All"}),
                             "circular": 0}     # no pivot: no In, Out, CW, CCW bits
    assert g.edges[0, 4]["direction"] == "NE" and g.edges[4, 0]["direction"] == "SW"
    assert g.edges[0, 4]["relation"] == "Diagonal"
    assert list(g.succ[4]) == [7, 8, 5, 2, 1, 0, 3, 6]      # Ludii's step order: clockwise from N


# ---------------------------------------------------------------- pyramidal (3D) square boards

# Ludii's numbering (the first legal moves of Spline, Spava and Pylos on the 4 x 4 pyramid
# are the sites of its bottom layer; Upper Hand's 5 x 5 pyramid has 55 sites).
PYRAMIDS = [
    # (size, number of sites, sites per layer, bottom layer)
    (3, 14, (9, 4, 1), (0, 1, 2, 5, 6, 8, 11, 12, 13)),
    (4, 30, (16, 9, 4, 1), (0, 1, 2, 3, 7, 8, 10, 12, 17, 18, 20, 22, 26, 27, 28, 29)),
    (5, 55, (25, 16, 9, 4, 1), None),
]


@pytest.mark.parametrize("size,num_sites,per_layer,bottom", PYRAMIDS)
def test_pyramidal_square_numbering_and_layers(size, num_sites, per_layer, bottom):
    b = _built(f"(board (square {size} pyramidal:True) use:Vertex)", 2)
    assert b.num_sites == num_sites
    assert tuple(b.layers.count(n) for n in range(size)) == per_layer
    if bottom is not None:
        assert tuple(s for s in range(num_sites) if b.layers[s] == 0) == bottom


PYRAMID_STEPS = [
    # (site of the 4 x 4 pyramid, its steps in Ludii's order with their directions)
    (0, [(7, "N"), (4, "UNE"), (8, "NE"), (1, "E")]),
    (15, [(21, "DNE"), (11, "DSE"), (9, "DSW"), (19, "DNW")]),     # the apex rests on four
    (5, [(14, "N"), (10, "DNE"), (11, "UNE"), (16, "NE"), (6, "E"), (2, "DSE"), (1, "DSW"),
         (4, "W"), (8, "DNW"), (9, "UNW"), (13, "NW")]),
]


@pytest.mark.parametrize("site,steps", PYRAMID_STEPS)
def test_pyramidal_steps_go_up_and_down(site, steps):
    b = _built("(board (square 4 pyramidal:True) use:Vertex)", 2)
    assert [(t, e["direction"]) for t, e in b.graph[site].items()] == steps
    assert b.relation_dirs("Orthogonal") == ("N", "E", "S", "W")    # turns stay in a layer
    assert b.step["UNE"][0] == 4 and b.step["DSW"][4] == 0
    assert set(b.trajectories.targets(15, "Downward")) == {9, 11, 19, 21}
    assert b.trajectories.targets(15, "SameLayer") == []


def test_pyramidal_rows_are_those_of_the_ground():
    # Ludii's Topology on a 3D board: a row per y of the bottom layer, holding every site at
    # that y whatever its layer; the sites between two such rows are in none.
    b = _built("(board (square 3 pyramidal:True) use:Vertex)", 2)
    assert b.rows == ((0, 1, 2), (5, 6, 7, 8), (11, 12, 13))
    assert b.columns == ((0, 5, 11), (1, 6, 7, 12), (2, 8, 13))
    assert [b.sites[s].label for s in (0, 3, 7)] == ["A1/0", "B2/1", "C3/2"]


@pytest.mark.parametrize("text,message", [
    ("(board (square Limping 4 pyramidal:True) use:Vertex)", "pyramidal boards of shape Limping"),
    ("(board (square 4 pyramidal:True))", "pyramidal boards played on Cell sites"),
    ("(board (square 4 pyramidal:True) use:Edge)", "pyramidal boards played on Edge sites"),
])
def test_pyramidal_refusals(text, message):
    with pytest.raises(LudemeError, match=message):
        _built(text, 2)


GRAPH_BOARDS = ["(board (square 8))", "(board (hex 4))", "(board (hex Star 3))",
                "(board (square 5 diagonals:Alternating) use:Vertex)", "(board (tri 4))",
                "(board (concentric Square rings:3) use:Vertex)", "(board (rotate 30 (hex 3)))"]


@pytest.mark.parametrize("text", GRAPH_BOARDS)
def test_tables_are_the_graph(text):
    """Every table the engine reads says what the graph of record says, site for site."""
    b = _built(text, 2)
    g = b.graph
    assert list(g.nodes) == list(range(b.num_sites))
    for site in b.sites:
        node = g.nodes[site.index]
        assert (node["index"], node["x"], node["y"], node["row"], node["col"], node["label"],
                node["phase"]) == (site.index, site.x, site.y, site.row, site.col, site.label,
                                   site.phase)
        assert b.index_of(site.label) in range(b.num_sites)
    for rel in ("Orthogonal", "Diagonal", "OffDiagonal", "Adjacent", "All"):
        for a in range(b.num_sites):
            assert b.neighbours[rel][a] == tuple(t for t in g.succ[a]
                                                 if rel in g.edges[a, t]["relations"])
        assert set(b.relation_dirs(rel)) == {e["direction"] for _, _, e in g.edges(data=True)
                                             if rel in e["relations"]}
    for d in b.directions:
        for a in range(b.num_sites):
            there = [t for t in g.succ[a] if g.edges[a, t]["direction"] == d]
            assert b.step[d][a] == (there[0] if there else -1)
            ray = b.rays[d][a]
            assert all(g.has_edge(x, y) for x, y in zip((a,) + ray, ray))
    for name in ("Top", "Corners", "Perimeter", "Centre", "Side N"):
        assert b.regions[name] == tuple(i for i, r in g.nodes(data="regions") if name in r)
    assert sum(map(len, b.rows)) == sum(map(len, b.columns)) == b.num_sites
    assert all(g.nodes[s]["row"] == r for r, row in enumerate(b.rows) for s in row)


@pytest.mark.parametrize("text", GRAPH_BOARDS)
@pytest.mark.parametrize("relation", ["Adjacent", "Orthogonal", "Diagonal"])
def test_distance_rings_are_shortest_paths(text, relation):
    """The step-distance table agrees with networkx's shortest paths over the relation's edges,
    and with a breadth-first walk over the engine's own neighbour table."""
    b = _built(text, 2)
    steps = nx.DiGraph([(a, t) for a in range(b.num_sites) for t in b.neighbours[relation][a]])
    steps.add_nodes_from(range(b.num_sites))
    rings = b.distance_rings(relation)
    for site in range(0, b.num_sites, 3):
        lengths = nx.single_source_shortest_path_length(steps, site)
        for k, ring in enumerate(rings[site]):
            assert ring == tuple(sorted(t for t, d in lengths.items() if d == k))
        seen, frontier, k = {site}, [site], 0
        while frontier:
            assert tuple(sorted(frontier)) == rings[site][k]
            frontier = [t for s in frontier for t in b.neighbours[relation][s] if t not in seen]
            frontier = list(dict.fromkeys(frontier))
            seen.update(frontier)
            k += 1
        assert b.at_distance(site, 1, 2, relation) == tuple(sorted(
            t for t, d in lengths.items() if 1 <= d <= 2))


def test_region_facts_from_the_graph():
    """Region facts on the nodes agree with the graph's shape: on a square board the
    perimeter is the sites with fewer than four orthogonal steps, the inner sites the
    rest, and Ludii's centre is networkx's centre (least eccentricity) of the steps."""
    b = _built("(board (square 7))", 2)
    g = b.graph
    ortho = {a: sum(1 for t in g.succ[a] if "Orthogonal" in g.edges[a, t]["relations"])
             for a in g}
    assert b.region("Perimeter") == tuple(a for a, n in ortho.items() if n < 4)
    assert b.region("Inner") == tuple(a for a, n in ortho.items() if n == 4)
    assert b.region("Centre") == tuple(sorted(nx.center(g.to_undirected(as_view=True)))) == (24,)


@pytest.mark.parametrize("text,parts", [
    ("(board (square 3))", ((0, 1, 2, 3, 4, 5, 6, 7, 8),)),
    ("(board (union (square 1) (shift 3 0 (square 1))))", ((0,), (1,))),
    ("(board (union (square 2) (shift 3 0 (square 1))) use:Vertex)", ((0, 1, 2, 3), (4,))),
])
def test_connected_parts(text, parts):
    assert _built(text, 2).components == parts


def test_other_site_types_on_demand():
    b = _built("(board (square 2))", 2)
    assert (b.topology("Vertex").num_sites, b.topology("Edge").num_sites) == (9, 12)
    assert b.topology("Vertex").region("Centre") == (4,)
    assert b.to_json("Vertex")["siteType"] == "Vertex"


def test_board_pickles_for_worker_processes():
    import pickle
    b = board_of("(board (hex 3))")
    copy = pickle.loads(pickle.dumps(b))
    assert copy.to_json() == b.to_json() and copy.tracks == b.tracks
    assert copy.to_json("Vertex") == b.to_json("Vertex")


def test_surakarta_tracks():
    b = _built("(surakartaBoard (square 6))", 2)
    assert b.site_type == "Vertex" and b.num_sites == 36
    assert sorted(b.tracks) == ["Track1B", "Track1F", "Track2B", "Track2F"]
    inner = b.tracks["Track1F"]
    assert inner[:9] == (6, 7, 8, 9, 10, 11, 11, 4, 10) and len(inner) == 28   # arc ends repeat
    assert b.tracks["Track1B"][:8] == (1, 7, 13, 19, 25, 31, 31, 24) and len(b.tracks["Track1B"]) == 28
    tri = _built("(surakartaBoard (tri 4))", 2)
    assert tri.tracks["Track1F"] == (4, 5, 6, 6, 2, 5, 7, 7, 8, 5, 1, 1)


@pytest.mark.parametrize("text,count", [
    ("(board (rectangle 5 9 diagonals:Alternating) use:Vertex)", 45),
    ("(board (hex Star 4))", 121),
    ("(board (hex Triangle 4))", 10),
    ("(board (hex Rectangle 3 4))", 11),         # rows of 4, 3, 4
    ("(board (hex Prism 2 3))", 10),
    ("(board (tri 4))", 16),
    ("(board (tri 4) use:Vertex)", 10),
    ("(board (tri Hexagon 2) use:Vertex)", 7),
    ("(board (square Diamond 2))", 5),
    ("(board (square Limping 2))", 6),
    ("(board (concentric Triangle rings:2) use:Vertex)", 12),
    ("(board (remove (square 3) cells:{4}))", 8),
    ("(board (remove (square 3) vertices:{0}))", 8),
    ("(board (merge (square 2) (shift 1 0 (square 2))) use:Vertex)", 6),
    # shifts are Java floats: -1.99f and -1.98f lie within merge's 0.01, their doubles not
    ("(board (merge (shift -1.99 0 (square 1)) (shift -1.98 0 (square 1))) use:Vertex)", 1),
    ("(board (merge (shift -1.9 0 (square 1)) (shift -1.8 0 (square 1))) use:Vertex)", 2),
    ("(board (union (square 1) (shift 3 0 (square 1))))", 2),
    ("(board (add (square 2) vertices:{{0.5 2}}) use:Vertex)", 5),
    ("(board (scale 2 (shift 1 1 (square 2))))", 4),
    ("(board (graph vertices:{{0 0} {1 0} {0 1}} edges:{{0 1} {0 2}}) use:Vertex)", 3),
    ("(board (wedge 3) use:Vertex)", 7),
    # sizes given by constant arithmetic, evaluated when the board is built
    ("(board (rectangle (+ 4 1) 6))", 30),
    ("(board (square (/ 9 2)))", 16),
    ("(board (square (max 3 (min 4 7))))", 16),
    ("(board (hex (- 5 1)))", 37),
    ("(board (square (+ {1 1 1})))", 9),
    ("(board (rotate (/ 90 2) (square 3)))", 9),
    # custom outlines: limping hexagons (3 a^2 cells) and shapes given by side lengths
    ("(board (hex Limping 2))", 12),
    ("(board (hex Limping 3))", 27),
    ("(board (hex {2 3}))", 12),
    ("(board (hex {3 4 3 4 3}))", 27),
    # a hexagon of two sizes alternates them, as Ludii 1.3's Hex (the counts of SupplyChains'
    # options: "Hex 3,4 (27)", "Hex 3,5 (36)", "Hex 4,5 (48)", "Hex 6,7 (108)")
    ("(board (hex 3 4))", 27),
    ("(board (hex 3 5))", 36),
    ("(board (hex 4 5))", 48),
    ("(board (hex 6 7))", 108),
    ("(board (tri Limping 2) use:Vertex)", 12),
    ("(board (tri {2 3}) use:Vertex)", 12),
    ("(board (tri Limping 4 5) use:Vertex)", 48),
    # circle boards given by points per ring: a centre (1) or none (0 or a first ring of more)
    ("(board (concentric {1 8}) use:Vertex)", 9),
    ("(board (concentric {8}) use:Vertex)", 8),
    ("(board (concentric {0 8 8}) use:Vertex)", 16),
    ("(board (concentric {1 -4 -4 20}) use:Vertex)", 29),
    ("(board (concentric {1 4 8} stagger:True) use:Vertex)", 13),
    # cut by a polygon: hole drops the cells inside, keep keeps the points inside
    ("(board (hole (square 4) (poly {{1 1} {1 3} {3 3} {3 1}})))", 12),
    ("(board (hole (rectangle 3 8) (poly {{4 0} {4 1} {6 1} {6 0}})))", 22),
    ("(board (keep (square 4) (poly {{0 0} {0 3} {3 3} {3 0}})) use:Vertex)", 16),
    ("(board (keep (square 4) (poly {{0 0} {3 0} {3 3} {0 3}})) use:Vertex)", 4),
    ("(board (keep (square 4) (poly {{1 1} {1 3} {3 3} {3 1}})))", 4),
    ("(board (renumber (rotate 90 (square 3))))", 9),
    ("(board (renumber Vertex (square 2)) use:Vertex)", 4),
    ("(board (makeFaces (graph vertices:{{0 0} {1 0} {1 1} {0 1}} "
     "edges:{{0 1} {1 2} {2 3} {3 0}})))", 1),
    ("(board (trim (add (square 2) edges:{{{2 2} {3 3}}})) use:Vertex)", 4),
])

def test_shapes_and_operators(text, count):
    assert _built(text, 2).num_sites == count


def test_renumber_numbers_a_rotated_board_from_the_bottom_left_again():
    turned = _built("(board (rotate 90 (square 3)))", 2)
    again = _built("(board (renumber (rotate 90 (square 3))))", 2)
    lowest = min(range(9), key=lambda s: (turned.sites[s].y, turned.sites[s].x))
    assert lowest != 0 and min(range(9), key=lambda s: (again.sites[s].y, again.sites[s].x)) == 0


def test_circle_board_numbering_and_links():
    """Ludii numbers a circle board as it creates the points: the centre, then each ring
    anticlockwise from the point left of the top one; rings are joined around and outwards."""
    b = _built("(board (concentric {1 8}) use:Vertex)", 2)
    xy = [(round(s.x, 3), round(s.y, 3)) for s in b.sites]
    assert xy[:4] == [(0.0, 0.0), (-0.707, 0.707), (-1.0, 0.0), (-0.707, -0.707)]
    assert xy[8] == (0.0, 1.0)
    assert sorted(b.neighbours["Orthogonal"][0]) == list(range(1, 9))
    assert sorted(b.neighbours["Orthogonal"][1]) == [0, 2, 8]
    # the centre is every point's pivot: In, Out, CW and CCW radials (see test_rotational)
    assert {"In", "Out", "CW", "CCW", "Rotational"} <= set(b.radials)
    assert b.radials["CW"][1][0].sites == (1, 8, 7, 6, 5, 4, 3, 2)
    # counts below 0: points on the ring, not joined around it
    b = _built("(board (concentric {1 -4 20}) use:Vertex)", 2)
    inner = b.neighbours["Orthogonal"][1]
    assert len(inner) == 2 and 0 in inner and b.sites[max(inner)].x == pytest.approx(-2.0)


@pytest.mark.parametrize("text,category,module", [
    ("(remove (square 3) cells:{4})", "GraphFn", "ludeme.model.ludemes.graph.operators"),
    ("(remove (sites {4}))", "Moves", "ludeme.model.ludemes"),
    ("(+ 4 1)", "Dim", "ludeme.model.ludemes.graph.base"),
    ("(+ 4 1)", "IntFn", "ludeme.model.ludemes"),
])
def test_one_keyword_per_category(text, category, module):
    """Board and rule ludemes share keywords; the category the argument expects picks one."""
    from ludeme.model.ludemes.base import CLASSES
    from ludeme.model.ludemes.builder import Builder
    lud = Builder().build(parse(text, "t.lud")[0], CLASSES[category], "x")
    assert type(lud).__module__.startswith(module) and isinstance(lud, CLASSES[category])


# ---------------------------------------------------------------- the documented examples

def board_ludemes():
    """Every registered board ludeme: containers, graph functions, constant arithmetic."""
    return [c for classes in REGISTRY.values() for c in classes
            if issubclass(c, (BoardContainer, GraphFn, Dim))]


def _doc_examples():
    classes = board_ludemes()
    out = []
    for cls in classes:
        for snippet in re.findall(r"`(\((?:board|surakartaBoard|mancalaBoard) .*?\))`", cls.__doc__ or ""):
            out.append(pytest.param(snippet, id=f"{cls.keyword}:{snippet[:40]}"))
    return out


@pytest.mark.parametrize("snippet", _doc_examples())
def test_docstring_examples_build(snippet):
    assert _built(snippet, 2).num_sites > 0


def test_every_ludeme_has_an_example():
    assert len(board_ludemes()) >= 24
    for cls in board_ludemes():
        assert re.search(r"`\((board|surakartaBoard|mancalaBoard) ", cls.__doc__ or ""), cls.keyword


# ---------------------------------------------------------------- errors

ERRORS = [
    # (board text, message fragment, column of the fault)
    ("(board (squar 3))", "unknown ludeme (squar ...) (did you mean 'square'?)", 8),
    ("(board (mesh 30))", "(mesh ...) is not supported yet", 8),
    ("(board (shift 0 1 (mesh 30)))", "(mesh ...) is not supported yet", 19),
    ("(board (square))", "(square ...) needs its argument 'dim'", 8),
    ("(board (square Octagon 3))", "found 'Octagon'", 16),
    ("(board (square 3) use:Face)", "'use:' must be one of SiteType", 23),
    ("(board (square 3) size:4)", "(board) has no argument 'size:'", 19),
    ("(board (square 3 4))", "unexpected argument '4' for (square ...)", 18),
    ("(board (square 3 pyramidal:True))", "'pyramidal' of (square ...) is not supported yet", 18),
    ("(board (hex Square 4 (* 6 100)))", "board dimension 600 is out of range", 22),
    ("(board (square 2.5))", "must be an integer or constant arithmetic", 16),
    ("(board (square (+ 1.5 2)))", "expected a whole number", 16),
    ("(board (square (/ 3 0)))", "division by zero", 16),
    ("(board (square (+ 3 (squar 1))))", "unknown ludeme (squar ...)", 21),
    ("(board 3)", "must be a board shape", 8),
    ("(boardz (square 3))", "unknown ludeme (boardz ...)", 1),
    ("(boardless Octagonal)", "found 'Octagonal'", 12),
    ("(board (repeat 2 2 (poly {{0 0} {1 0} {1 1}})))", "needs step:", 8),
    ("(board (graph vertices:{{0 0}} edges:{{0 5}}))", "vertex indices below 1", 32),
    ("(board (graph vertices:{{0 0} {1}}))", "'vertices:' must be points", 24),
    ("(board (rotate (square 3)))", "argument 'degrees' of (rotate ...) must be", 16),
    ("(board (wedge 1))", "at least 2 rows", 8),
    ("(board (hole (square 4) (poly {{1 1} {1 3}})))", "at least 3 corners", 25),
    ("(board (hole (square 4) {{1 1} {1 3} {3 3}}))", "must be (poly ...)", 25),
    ("(board (concentric {1 8} rings:3) use:Vertex)", "'rings' of (concentric ...)", 26),
    ("(board (concentric Square sides:4 rings:2))", "one of a shape, sides: or cells", 8),
    ("(board (concentric Square))", "needs rings:", 8),
    ("(board (concentric {2}) use:Vertex)", "at least 3 points", 8),
    ("(board (concentric Square rings:2 stagger:True))", "'stagger' of (concentric", 35),
    ("(board (remove (square 3) cells:{(square 2)}))", "'cells:' must be", 33),
    ("(board (add (square 3) edgesCurved:{{{0 0} {1 1} {1 0}}}))", "'edgesCurved'", 24),
    # a cell by vertex indices follows edges: along the bottom row there is none back to 0
    # (it crashed once the first two edges were marked as bordering it), nor across a cell
    ("(board (add (square 3) cells:{{0 1 2}}))", "no edge from vertex 2 to vertex 0", 24),
    ("(board (add (square 3) cells:{{0 2 10 8}}))", "no edge from vertex 0 to vertex 2", 24),
    # no first turn: the division by its points failed
    ("(board (spiral turns:1 sites:30) use:Vertex)", "no number of points on its first", 8),
    ("(board (spiral turns:12 sites:30) use:Vertex)", "no number of points on its first", 8),
    ("(board (square 3) (track \"T\" \"0,E\" Mover))", "a track's owner is a player", 19),
    ("(mancalaBoard 7 6)", "2 to 6 rows, not 7", 1),
    ("(mancalaBoard 2 6 numStores:1)", "'numStores' of (mancalaBoard ...) is not supported", 19),
]


@pytest.mark.parametrize("text,message,col", ERRORS)
def test_errors_name_the_position(text, message, col):
    # Twice: a board built once is shared by the next game of the same graph
    # (`containers.shared_board`), which must still refuse what the first refused.
    for _ in range(2):
        with pytest.raises(LudemeError) as e:
            board_of(text)
        assert message in str(e.value)
        assert (e.value.pos.file, e.value.pos.line, e.value.pos.col) == ("t.lud", 1, col)
        assert e.value.path.startswith("game/equipment")


def test_games_of_one_graph_share_its_tables_and_its_unread_arguments():
    """A graph built once (its text and site type) is shared by the next board of the same
    graph: the same tables, a Board of its own (tracks are a game's), and the arguments the
    first build read marked read on the second ludeme, those it left unread left unread, so
    `check_all_read` refuses an ignored argument on a shared graph as on a new one."""
    from ludeme.model.ludemes.builder import Builder
    from ludeme.model.ludemes.graph.containers import ludemes_under, shared_board
    text = "(concentric {1 8} rings:3)"
    built = []
    for _ in range(2):
        lud = Builder().build(parse(text, "t.lud")[0], GraphFn, "game/equipment/board")
        board = shared_board(("test", text), lambda: lud.build("Vertex"), "Vertex", 2, lud)
        built.append((lud, board))
    (first, a), (second, b) = built
    assert a is not b and a.default is b.default and a.planar is b.planar
    assert [x._read for x in ludemes_under(first)] == [x._read for x in ludemes_under(second)]
    assert first.unread_arguments() and \
        [p for p, _ in first.unread_arguments()] == [p for p, _ in second.unread_arguments()]
    a.tracks["T"] = (0, 1)
    assert "T" not in b.tracks


# ---------------------------------------------------------------- the command line

def run(*args):
    return subprocess.run([sys.executable, "-m", "ludeme", *args], capture_output=True,
                          text=True, timeout=300)


ADZUA = str(DESCRIPTIONS / "adzua_children.lud")


def test_cli_board_json():
    r = run("board", ADZUA, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["siteType"] == "Vertex" and len(d["sites"]) == 9
    first = d["sites"][0]
    assert {k: first[k] for k in ("index", "row", "col", "label", "orthogonal", "diagonal")} == \
        {"index": 0, "row": 0, "col": 0, "label": "A1", "orthogonal": [1, 3], "diagonal": [4]}


def test_cli_board_svg_and_text(tmp_path, capsys):
    from ludeme.cli.main import main
    out = tmp_path / "adzua.svg"
    assert main(["board", ADZUA, "--svg", str(out)]) == 0
    svg = out.read_text()
    assert svg.startswith("<svg") and svg.count("<circle") == 9 and ">A1<" in svg
    assert main(["board", ADZUA]) == 0
    assert "9 vertex sites" in capsys.readouterr().out


def test_cli_board_reports_errors(tmp_path, capsys):
    from ludeme.cli.main import main
    bad = tmp_path / "bad.lud"
    bad.write_text('(game "G" (players 2) (equipment {(board (squar 3))}) (rules (end)))')
    assert main(["board", str(bad)]) == 2
    assert f"{bad}:1:42: unknown ludeme (squar ...)" in capsys.readouterr().err


def test_cli_board_png(tmp_path):
    from ludeme.cli.main import main
    out = tmp_path / "adzua.png"
    assert main(["board", ADZUA, "--png", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


@pytest.mark.parametrize("text", ["(board (square 3000))", "(board (rectangle 5 101))",
                                  "(board (hex 1000))"])
def test_huge_boards_are_refused_not_built(text):
    # A typo in a size must give an error at once, never a build that takes hours.
    with pytest.raises(LudemeError, match="out of range"):
        board_of(text)
