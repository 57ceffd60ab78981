"""Games that name several site types of one board (Ludii's vertices, edges and cells of the
same graph): the ludemes that map between them, each on a small description, then the
corpus games they unlocked replayed against Ludii's traces."""

import pytest

from ludeme.api import load
from ludeme.errors import LudemeError

from conftest import assert_corpus_trace_agrees

# A 3x3 board of points: 9 vertices, 12 edges, 4 cells (0 and 1 at the bottom, then 2 and 3;
# cell 3 has the vertices 4, 5, 7, 8).
GAME = ('(game "g" (players 2) (equipment {{(board (square 3) use:Vertex) '
        '(piece "Disc" Each)}}) '
        '(rules (play {play}) (end (if (no Moves Next) (result Mover Win)))))')


def _load(tmp_path, play):
    f = tmp_path / "g.lud"
    f.write_text(GAME.format(play=play))
    return load(f)


def _holds(tmp_path, cond) -> bool:
    """Whether `cond` holds in the initial position: the mover adds a disc only if it does
    (a player without a move passes)."""
    game = _load(tmp_path, f'(if {cond} (move Add (to (sites Empty))))')
    return len(game.new_initial_state().legal_moves()) == 9


# -- (sites Incident <type> of:<type> at:) ---------------------------------------------

@pytest.mark.parametrize("region,sites", [
    ("(sites Incident Cell of:Vertex at:4)", "{0 1 2 3}"),
    ("(sites Incident Cell of:Vertex at:2)", "{1}"),
    ("(sites Incident Vertex of:Cell at:3)", "{4 5 7 8}"),
    ("(sites Incident Cell of:Cell at:0)", "{1 2}"),
    # Ludii's quirk: the vertices of a vertex are the cells beside its edges, without the
    # one numbered as the vertex (vertex 0 touches cell 0 alone: none is left).
    ("(sites Incident Vertex of:Vertex at:4)", "{0 1 2 3}"),
    ("(sites Incident Vertex of:Vertex at:1)", "{0}"),
])
def test_sites_incident_maps_between_site_types(tmp_path, region, sites):
    assert _holds(tmp_path, f"(= {region} (sites {sites}))")
    assert not _holds(tmp_path, f"(= {region} (sites {{5}}))")


@pytest.mark.parametrize("region,size", [
    ("(sites Incident Edge of:Cell at:0)", 4), ("(sites Incident Edge of:Vertex at:4)", 4),
    ("(sites Incident Edge of:Vertex at:0)", 2), ("(sites Incident Vertex of:Edge at:0)", 2),
    ("(sites Incident Cell of:Edge at:0)", 1), ("(sites Incident Vertex of:Vertex at:0)", 0),
    ("(sites Incident Vertex of:Cell at:4)", 0),     # no cell 4: nothing
    # Pieces stand on vertices only: every cell is empty, no one's (Neutral, id 0).
    ("(sites Incident Cell of:Vertex at:4 Mover)", 0),
    ("(sites Incident Cell of:Vertex at:4 Neutral)", 4),
])
def test_sites_incident_sizes(tmp_path, region, size):
    assert _holds(tmp_path, f"(= {size} (count Sites in:{region}))")
    assert not _holds(tmp_path, f"(= {size + 1} (count Sites in:{region}))")


def test_sites_incident_owner_and_role_together_are_refused(tmp_path):
    with pytest.raises(LudemeError, match="owner: or a role"):
        _load(tmp_path, "(move Add (to (sites Incident Vertex of:Cell at:0 Mover owner:1)))")


# -- (sites Cell ...) --------------------------------------------------------------------

@pytest.mark.parametrize("region,sites", [
    ('(sites Cell "B2")', "{3}"),            # a cell by its label, on a board of points
    ('(sites Cell {"A1" "B1" "Z9"})', "{0 1}"),     # a label no cell has is left out
    ("(sites Cell 3)", "{4 5 7 8}"),         # by index: the cell's vertices
])
def test_sites_cell(tmp_path, region, sites):
    assert _holds(tmp_path, f"(= {region} (sites {sites}))")


def test_sites_cell_off_the_board_is_empty(tmp_path):
    assert _holds(tmp_path, "(= 0 (count Sites in:(sites Cell 9)))")


def test_sites_cell_with_a_site_type_is_refused(tmp_path):
    with pytest.raises(LudemeError, match="not supported yet"):
        _load(tmp_path, '(move Add (to (sites Cell Vertex 3)))')


# -- (is Empty <type> <site>) past the containers' sites -------------------------------------

@pytest.mark.parametrize("cond,holds", [
    ("(is Empty Edge 10)", True),      # an edge past the 9 points: the (empty) edge layer
    ("(is Empty Edge 11)", True),
    ("(is Empty Edge 12)", False),     # no edge 12
    ("(is Empty 10)", False),          # no point 10
    ("(is Empty Cell 3)", True),
])
def test_is_empty_of_another_type_reads_its_whole_layer(tmp_path, cond, holds):
    assert _holds(tmp_path, cond) == holds


# -- corpus games --------------------------------------------------------------------------

def _agrees_on_seed3(refdata, ludii, name):
    from ludeme.analysis.crosscheck import crosscheck_files
    trace = refdata / "corpus-traces-seed3" / f"{name}.json.gz"
    if not trace.is_file():
        pytest.skip(f"{trace} not found")
    verdicts = crosscheck_files([str(trace)], ludii_dir=str(ludii),
                                index=str(refdata / "corpus-index.tsv"))
    assert all(v.ok for v in verdicts), "\n".join(v.line() for v in verdicts)


@pytest.mark.parametrize("name", ["board_space_pattern_Kensington"])
def test_corpus_games_on_several_site_types_agree(refdata, ludii, name):
    assert_corpus_trace_agrees(refdata, ludii, name)
    _agrees_on_seed3(refdata, ludii, name)
