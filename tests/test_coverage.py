"""COVERAGE.md (which ludemes have a compiled form) is generated: the committed file must be
what `python -m ludeme.model.coverage` writes now, and list every registered ludeme."""

from __future__ import annotations

from ludeme.model import coverage
from ludeme.model.ludemes import base, load_all


def committed() -> str:
    assert coverage.OUT.exists(), "COVERAGE.md is missing: run python -m ludeme.model.coverage"
    return coverage.OUT.read_text(encoding="utf-8")


def test_committed_coverage_is_current():
    assert committed() == coverage.render(), \
        "COVERAGE.md is out of date: run python -m ludeme.model.coverage and commit it"


def test_every_registered_ludeme_is_listed():
    load_all()
    text = committed()
    missing = [f"{cls.__module__}.{cls.__name__} ({keyword})"
               for keyword, classes in base.REGISTRY.items() for cls in classes
               if f"| `{cls.__name__}` | `{cls.__module__.removeprefix(coverage.PACKAGE)}` |"
               not in text]
    assert missing == [], "not in COVERAGE.md: " + ", ".join(missing)


def test_the_summary_counts_the_rows():
    rows = coverage.rows()
    first = committed().splitlines()[2]
    assert first == f"{sum(r[-1] for r in rows)} of {len(rows)} ludemes have a compiled form."
