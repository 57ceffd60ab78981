"""A game and its states show as their board with the pieces on it in a notebook
(`_repr_svg_`): valid SVG with a piece over each occupied site, the top piece's owner, and
a stack's height; on the reference engine and the compiled one alike."""

import xml.etree.ElementTree as ET

import pytest

from conftest import DESCRIPTIONS
from ludeme.analysis.conformance import random_playout
from ludeme.api import compiled_of, load

SVG = "{http://www.w3.org/2000/svg}"


def pieces(svg: str) -> dict[int, tuple[int, str]]:
    """Per site drawn with a piece: its owner and the text on it."""
    root = ET.fromstring(svg)                  # well-formed XML, or this raises
    assert root.tag == SVG + "svg"
    out = {}
    for g in root.iter(SVG + "g"):
        if g.get("class") == "piece":
            text = g.find(SVG + "text")
            out[int(g.get("data-site"))] = (int(g.get("data-who")),
                                            text.text if text is not None else "")
    return out


def occupied(state) -> dict[int, tuple[int, int]]:
    """Per occupied board site: the top piece's owner and the height of its stack."""
    return {site: (state.level_data(site)[1], state.size_stack(site))
            for site in range(state.g.containers[0].num_sites) if state.size_stack(site)}


@pytest.mark.parametrize("name, seed, moves", [("adzua_children.lud", 1, 8),
                                               ("seesaw.lud", 3, 40), ("seesaw.lud", 5, 0)])
def test_a_state_shows_each_occupied_site(name, seed, moves):
    game = load(DESCRIPTIONS / name, backend="reference")
    state, _ = random_playout(game, seed, moves)
    shown = pieces(state._repr_svg_())
    want = occupied(state)
    assert want and set(shown) == set(want)
    for site, (who, height) in want.items():
        assert shown[site][0] == who
        assert shown[site][1] == (str(height) if height > 1 else "") or state.count[site] > 1


def test_a_game_shows_its_start():
    game = load(DESCRIPTIONS / "seesaw.lud", backend="reference")
    assert set(pieces(game._repr_svg_())) == set(occupied(game.new_initial_state(0)))


def test_a_compiled_state_shows_what_the_reference_state_shows():
    game = load(DESCRIPTIONS / "adzua_children.lud")
    kernels = compiled_of(game, "compiled")
    ref, choices = random_playout(game, 2, 10)
    state = kernels.new_initial_state()
    for i in choices:
        state.apply(state.legal_moves()[i])
    assert pieces(state._repr_svg_()) == pieces(ref._repr_svg_()) != {}
