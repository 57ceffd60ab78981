"""How close `ludeme concepts` is to Ludii: `python -m ludeme.analysis.concepts_accuracy [SHARED_DIR]`.

Compares the compile-time boolean concepts with Ludii's recorded ones: the 36
reference configurations (`refdata/concepts`, exact equality wanted) and the
corpus development games (`refdata/corpus-concepts`, mean Jaccard similarity).
Games that do not compile are counted apart, never scored.
"""

from __future__ import annotations

import csv
import json
import signal
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .concepts import compile_time, jaccard
from ludeme.errors import LudemeError

COMPILE_SECONDS = 20

# Ludii's own records disagree on one reference game: English Draughts' record was made
# where Ludii's piece images were not listed (`ImageUtil.getImageFullPath` found no SVG
# for "Counter"), while Ludii 1.3.12's corpus record of the same file names the image's
# family (CheckersComponent, with its parents). The reference is then the corpus record,
# once it is checked that the two records differ by exactly those concepts.
RECORD_ERRATA = {"english-draughts": ("board_war_leaping_diagonal_English_Draughts",
                                      {"CheckersComponent", "ComponentStyle", "Style", "Visual"})}


def reference_expected(ref: Path, slug: str) -> set[str]:
    """Ludii's boolean concepts of a reference configuration, the erratum above applied."""
    expected = set(json.loads((ref / "concepts" / f"{slug}.json").read_text())["booleanConcepts"])
    if slug in RECORD_ERRATA:
        corpus_name, image_concepts = RECORD_ERRATA[slug]
        other = set(json.loads((ref / "corpus-concepts" / f"{corpus_name}.json").read_text())
                    ["booleanConcepts"])
        if other - expected != image_concepts or expected - other:
            raise ValueError(f"{slug}: Ludii's two records no longer differ by {image_concepts}")
        expected = other
    return expected


@dataclass
class Scored:
    """One configuration compared with Ludii's record."""

    name: str
    error: str | None = None
    jaccard: float = float("nan")
    missing: list[str] = field(default_factory=list)    # Ludii has them, we do not
    extra: list[str] = field(default_factory=list)      # we have them, Ludii does not
    undeclared: list[str] = field(default_factory=list)  # ludemes met that declare no concepts


class _Slow(Exception):
    pass


def _alarm(*_):
    raise _Slow()


def score(name: str, path: Path, options, ruleset, expected: set[str]) -> Scored:
    """Compile one configuration (within COMPILE_SECONDS) and compare its concepts."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(COMPILE_SECONDS)
    try:
        gc = compile_time(str(path), options, ruleset)
    except (LudemeError, _Slow, RecursionError) as e:
        return Scored(name, error=f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    got = gc.boolean
    return Scored(name, None, jaccard(got, expected), sorted(expected - got),
                  sorted(got - expected), sorted(gc.undeclared))


def reference(shared: Path) -> list[Scored]:
    """The 36 reference configurations."""
    ref = shared / "refdata"
    out = []
    for c in json.loads((ref / "configs.json").read_text())["configs"]:
        expected = reference_expected(ref, c["slug"])
        out.append(score(c["slug"], shared / "ludii" / "games" / c["lud"], c["options"],
                         c["ruleset"], expected))
    return out


def corpus(shared: Path) -> list[Scored]:
    """The corpus development games that have Ludii's concepts."""
    ref = shared / "refdata"
    out = []
    with open(ref / "corpus-index.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            record = ref / "corpus-concepts" / f"{row['name']}.json"
            if row["trace_here"] != "yes" or not record.is_file():
                continue
            expected = set(json.loads(record.read_text())["booleanConcepts"])
            out.append(score(row["name"], shared / "ludii" / "corpus" / row["path"], (), None,
                             expected))
    return out


def summary(results: list[Scored], title: str) -> list[str]:
    """Lines: compiled count, exact matches, mean Jaccard, the concepts most often wrong."""
    scored = [r for r in results if r.error is None]
    exact = sum(1 for r in scored if not r.missing and not r.extra)
    mean = sum(r.jaccard for r in scored) / len(scored) if scored else float("nan")
    missing = Counter(c for r in scored for c in r.missing)
    extra = Counter(c for r in scored for c in r.extra)
    undeclared = Counter(u for r in scored for u in r.undeclared)
    return [f"{title}: {len(results)} configurations, {len(scored)} compile "
            f"({len(results) - len(scored)} do not, not scored); {exact} exactly equal; "
            f"mean Jaccard {mean:.4f}",
            "  most often missing: " + ", ".join(f"{c} ({k})" for c, k in missing.most_common(12)),
            "  most often extra:   " + ", ".join(f"{c} ({k})" for c, k in extra.most_common(12)),
            "  ludemes that declare no concepts: "
            + (", ".join(f"{u} ({k})" for u, k in undeclared.most_common()) or "none")]


def write_tsv(results: list[Scored], path: Path) -> None:
    """One row per configuration: name, Jaccard (empty when it does not compile), what differs."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t")
        w.writerow(["name", "jaccard", "missing", "extra", "error"])
        for r in results:
            w.writerow([r.name, "" if r.error else f"{r.jaccard:.4f}", " ".join(r.missing),
                        " ".join(r.extra), r.error or ""])


def main(argv: list[str]) -> int:
    """`[SHARED_DIR] [--corpus] [--tsv FILE]`: the reference configurations, then (with
    --corpus, or with no argument) the corpus games; --tsv writes the corpus rows."""
    tsv = Path(argv[argv.index("--tsv") + 1]) if "--tsv" in argv else None
    args = [a for i, a in enumerate(argv) if not a.startswith("--")
            and (i == 0 or argv[i - 1] != "--tsv")]
    shared = Path(args[0]) if args else Path(__file__).resolve().parents[3] / "shared"
    if not (shared / "refdata").is_dir():
        print(f"no reference data under {shared}", file=sys.stderr)
        return 2
    refs = reference(shared)
    for r in refs:
        if r.error:
            print(f"{r.name}: does not compile ({r.error[:100]})")
        elif r.missing or r.extra:
            print(f"{r.name}: missing {r.missing} extra {r.extra}")
    print("\n".join(summary(refs, "reference")))
    if "--corpus" in argv or not argv:
        rows = corpus(shared)
        print("\n".join(summary(rows, "corpus")))
        if tsv:
            write_tsv(rows, tsv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
