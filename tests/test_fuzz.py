"""Damaged descriptions raise LudemeError and nothing else (property-based)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DESCRIPTIONS
from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description

SOURCE = (DESCRIPTIONS / "adzua_children.lud").read_text()
ALPHABET = '()[]{}<>"#~:*.|/ \n0123456789abcXYZ-'


@st.composite
def damaged(draw):
    text = SOURCE
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "duplicate", "insert"]))
        n = draw(st.integers(1, 40))
        if op == "delete":
            text = text[:i] + text[i + n:]
        elif op == "duplicate":
            text = text[:i] + text[i:i + n] + text[i:]
        else:
            text = text[:i] + draw(st.text(ALPHABET, min_size=1, max_size=5)) + text[i:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damage_gives_only_ludeme_errors(text):
    try:
        desc = load_description("damaged.lud", text)
        for rs in [None] + [r.name for r in desc.rulesets]:
            expand(desc, [], rs)
    except LudemeError as e:
        assert e.pos is None or e.pos.line >= 1
        e.render()  # rendering the caret excerpt must not fail either
