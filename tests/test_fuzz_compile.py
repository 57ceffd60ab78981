"""Damaged descriptions compiled and played: nothing but LudemeError escapes (property-based).

The front-end fuzz test stops at expansion; this one goes on through typed ludemes,
compilation and a short random playout, where a bug would show as some other exception.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DESCRIPTIONS
from ludeme.model.build import build_game
from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description
from ludeme.analysis.conformance import random_playout

SOURCES = {p.name: p.read_text() for p in sorted(DESCRIPTIONS.glob("*.lud"))}
WORDS = ["Orthogonal", "Diagonal", "Mover", "Next", "P1", "P3", "(to)", "(from)", "0", "-1",
         "99", "(sites Empty)", "(last To)", "True", "False", "Each", "Shared", "(mover)",
         "(is Empty (to))", "(moveAgain)", "(count Pieces Mover)", "Cell", "Vertex"]


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[name]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text) - 1))
        # Replace one token-sized run with a plausible word: the text stays readable,
        # so the damage reaches the later stages instead of stopping the parser.
        j = i
        while j < len(text) and (text[j].isalnum() or text[j] in "_\""):
            j += 1
        text = text[:i] + draw(st.sampled_from(WORDS)) + text[max(j, i + 1):]
    return name, text


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_damage_through_compile_and_play_gives_only_ludeme_errors(case):
    name, text = case
    try:
        desc = load_description(name, text)
        for rs in [r.name for r in desc.rulesets][:2] or [None]:
            game = build_game(expand(desc, [], rs))
            random_playout(game, 1, max_decisions=60)
    except LudemeError as e:
        e.render()
