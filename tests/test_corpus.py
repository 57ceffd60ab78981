"""Every loadable file of Ludii's corpus expands for every ruleset; templates are recognised.

Reads Ludii's files from ../shared/ludii (or $LUDEME_LUDII_DIR) at run time; nothing
of them is copied into the project.
"""

import csv
import re
from pathlib import Path

import pytest

from ludeme.analysis.check import check_file, find_lud_files, summary_line
from ludeme.api import load
from ludeme.errors import LudemeError

# What an error may say of a file Ludii loads: that a ludeme or an argument is not
# supported yet (never that a ludeme Ludii has is unknown).
HONEST = re.compile(r"not supported yet")


@pytest.mark.slow
def test_whole_corpus_expands(ludii: Path):
    """Every one of the 1,319 files expands (about 100 s: a long corpus run, behind the slow
    marker; the seed games' files below expand in every run)."""
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


@pytest.mark.slow
def test_every_corpus_game_ludii_loads_builds_or_says_what_is_not_supported(ludii, refdata):
    """Each corpus file Ludii loads (refdata/corpus-index.tsv) builds here, or stops with a
    positioned error saying what is not supported yet; never a misleading error (a site, a
    player, a region or a piece said not to exist) nor an internal one. About 3 minutes."""
    with open(refdata / "corpus-index.tsv") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    misleading = []
    for row in rows:
        try:
            load(ludii / "corpus" / row["path"])
        except LudemeError as e:
            if e.pos is None or not HONEST.search(e.message):
                misleading.append(f"{row['path']}: {e.message}")
        except Exception as e:      # an engine bug
            misleading.append(f"{row['path']}: internal {type(e).__name__}: {e}")
    assert misleading == [], "\n".join(misleading[:20])
