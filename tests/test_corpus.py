"""Every loadable file of Ludii's corpus expands for every ruleset; templates are recognised.

Reads Ludii's files from ../shared/ludii (or $LUDEME_LUDII_DIR) at run time; nothing
of them is copied into the project.
"""

from pathlib import Path

import pytest

from ludeme.analysis.check import check_file, find_lud_files, summary_line


def test_whole_corpus_expands(ludii: Path):
    corpus = ludii / "corpus"
    files = find_lud_files([str(corpus / "board"), str(corpus / "reconstruction")])
    assert len(files) == 1319
    results = [check_file(f, "expand") for f in files]
    failed = [line for r in results if r.verdict == "failed" for line in r.failures]
    assert failed == [], "\n".join(failed[:20])
    pending = {r.path for r in results if "/pending/" in r.path}
    templates = {r.path for r in results if r.verdict == "template"}
    assert templates == pending, sorted(templates ^ pending)[:10]
    assert all(r.unknowns for r in results if r.verdict == "template")
    assert summary_line(results) == "1173 passed, 0 failed, 146 templates"


@pytest.mark.parametrize("name", ["Adzua (Children).lud", "Lines of Action.lud", "Konane.lud",
                                  "Chinese Checkers.lud", "Seesaw.lud"])
def test_seed_games_expand_in_every_ruleset(ludii: Path, name):
    r = check_file(str(ludii / "games" / name), "expand", all_rulesets=True)
    assert r.verdict == "passed", r.failures
