"""Benchmarks (never timed tests): `python -m ludeme.bench frontend [DIR]`.

`frontend` expands every .lud file below DIR (default ../shared/ludii/corpus) for
its default options and every ruleset, on one core, and prints the time taken.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


def default_corpus() -> Path:
    """Ludii's corpus beside the checkout, or under $LUDEME_LUDII_DIR."""
    env = os.environ.get("LUDEME_LUDII_DIR")
    base = Path(env) if env else Path(__file__).resolve().parent.parent.parent / "shared" / "ludii"
    return base / "corpus"


def bench_frontend(root: Path) -> int:
    """Expand the corpus; print files, rulesets, seconds and MB/s."""
    from .check import check_file, find_lud_files, summary_line
    files = find_lud_files([str(root)])
    if not files:
        print(f"no .lud files under {root}", file=sys.stderr)
        return 2
    size = sum(os.path.getsize(f) for f in files)
    t0 = time.perf_counter()
    results = [check_file(f, "expand") for f in files]
    secs = time.perf_counter() - t0
    expansions = sum(1 + r.rulesets for r in results)
    print(f"expanded {len(files)} files ({size / 1e6:.1f} MB), {expansions} option/ruleset "
          f"expansions, in {secs:.1f} s on one core ({size / 1e6 / secs:.2f} MB/s)")
    print(summary_line(results))
    return 0


def main(argv=None) -> int:
    """Command-line entry of the benchmarks."""
    p = argparse.ArgumentParser(prog="python -m ludeme.bench")
    sub = p.add_subparsers(dest="what", required=True)
    f = sub.add_parser("frontend", help="time expanding the whole corpus")
    f.add_argument("dir", nargs="?", type=Path, default=None)
    args = p.parse_args(argv)
    if args.what == "frontend":
        return bench_frontend(args.dir or default_corpus())
    return 2


if __name__ == "__main__":
    sys.exit(main())
