"""Benchmarks (never timed tests): `python -m ludeme.bench frontend|playouts`.

`frontend [DIR]` expands every .lud file below DIR (default ../shared/ludii/corpus)
for its default options and every ruleset, on one core, and prints the time taken.

`playouts [FILE...] [--seconds S] [--jobs J]` plays uniform-random playouts (as
`ludeme run` does, metrics bookkeeping included) of every bundled description
(descriptions/*.lud, each ruleset) for S seconds on one process, and prints the
rate next to Ludii's single-thread rate recorded in ../shared/refdata/stats as a
ratio, then the rate of J processes (default: all cores) playing at once. Rates
are wall-clock; the CPU-time rate beside it shows how much other load on the
machine slowed the wall-clock one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


def default_corpus() -> Path:
    """Ludii's corpus beside the checkout, or under $LUDEME_LUDII_DIR."""
    env = os.environ.get("LUDEME_LUDII_DIR")
    base = Path(env) if env else Path(__file__).resolve().parent.parent.parent / "shared" / "ludii"
    return base / "corpus"


def default_refdata() -> Path:
    """Ludii's reference data: ../shared/refdata beside the checkout, or under $LUDEME_SHARED_DIR."""
    env = os.environ.get("LUDEME_SHARED_DIR")
    base = Path(env) if env else Path(__file__).resolve().parent.parent.parent / "shared"
    return base / "refdata"


def bundled_descriptions() -> list[Path]:
    """descriptions/*.lud of the checkout."""
    return sorted((Path(__file__).resolve().parent.parent / "descriptions").glob("*.lud"))


def reference_stats(game, path: str | Path, refdata: Path | None = None) -> dict | None:
    """Ludii's recorded stats/<slug>.json for exactly this game's option items, if any.

    A reference matches when, in this description, its options (or ruleset) on
    top of the defaults select the same items as the game was loaded with.
    """
    from .errors import LudemeError
    from .expand import choose_items, load_description
    refdata = refdata or default_refdata()
    desc = load_description(path)
    ours = set(game.options)
    for stats in sorted((refdata / "stats").glob("*.json")):
        ref = json.loads(stats.read_text(encoding="utf-8"))
        if ref.get("game") != game.name:
            continue
        try:
            chosen, _ = choose_items(desc, ref.get("optionsEffective") or [], ref.get("ruleset"))
        except LudemeError:              # an option or ruleset this description lacks
            continue
        if {f"{c}/{item.name}" for c, item in chosen.items()} == ours:
            return {**ref, "slug": stats.stem}
    return None


def playout_rate(game, seconds: float, seed: int = 0) -> tuple[float, float, int]:
    """(wall-clock rate, CPU-time rate, playouts) of `ludeme run`'s playouts for `seconds`."""
    from .runner import play_one, playout_seed
    play_one(game, playout_seed(seed, 0))                # warm the caches
    count = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        play_one(game, playout_seed(seed, count), count)
        count += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return count / wall, count / cpu if cpu else float("nan"), count


def _rate_in_worker(source, seconds: float, seed: int) -> tuple[float, float, int]:
    """`playout_rate` in a worker process, the game built from its source."""
    from .runner import worker_game
    return playout_rate(worker_game(source), seconds, seed)


def parallel_rate(game, seconds: float, jobs: int) -> float:
    """Playouts per second of `jobs` processes playing at once (each measures its own S seconds)."""
    from joblib import Parallel, delayed

    from .runner import game_source
    source = game_source(game)
    rates = Parallel(n_jobs=jobs, backend="loky")(
        delayed(_rate_in_worker)(source, seconds, k + 1) for k in range(jobs))
    return sum(r[0] for r in rates)


def bench_playouts(files: list[Path], seconds: float, jobs: int | None) -> int:
    """One line per game/ruleset: rates on one process and on all cores, and the ratio to Ludii."""
    from .runner import cpu_jobs, load, ruleset_names
    jobs = cpu_jobs(jobs)
    refdata = default_refdata()
    print(f"{seconds:g} s per configuration; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores; Ludii: single-thread p/s from {refdata / 'stats'}")
    header = (f"{'game / ruleset':<46} {'1 proc p/s':>10} {'(cpu)':>8} {'Ludii p/s':>10} "
              f"{'ratio':>14} {f'{jobs} procs p/s':>13}")
    print(header)
    print("-" * len(header))
    for path in files:
        for ruleset in ruleset_names(path):
            game = load(path, ruleset=ruleset)
            wall_rate, cpu_rate, _ = playout_rate(game, seconds)
            ref = reference_stats(game, path, refdata)
            if ref:
                ludii = ref["throughput"]["playoutsPerSec"]
                ratio = wall_rate / ludii
                ludii_text, ratio_text = f"{ludii:,.0f}", f"{ratio:.3f} (1/{1 / ratio:.1f})"
            else:
                ludii_text, ratio_text = "-", "-"
            all_rate = parallel_rate(game, seconds, jobs) if jobs > 1 else wall_rate
            name = (ruleset or "").split("/", 1)[-1] or game.name
            print(f"{name[:46]:<46} {wall_rate:>10,.0f} {cpu_rate:>8,.0f} {ludii_text:>10} "
                  f"{ratio_text:>14} {all_rate:>13,.0f}", flush=True)
    return 0


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


def bench_summary(rows: int, path: Path) -> int:
    """Time and peak memory of summarising `rows` playouts: 2,000 real ones of `path`, repeated."""
    import resource

    import pandas as pd

    from .metrics import summarize
    from .runner import load, run_playouts
    sample = run_playouts(load(path), 2000, seed=1, jobs=1, progress=False)
    table = pd.concat([sample] * max(1, rows // len(sample)), ignore_index=True)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    summarize(table)
    secs = time.perf_counter() - t0
    grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    print(f"summary of {len(table):,} playouts of {path.name}: {secs:.1f} s, peak memory "
          f"+{grew:.0f} MB beyond the table ({table.memory_usage(deep=True).sum() / 1e6:.0f} MB)")
    return 0


def main(argv=None) -> int:
    """Command-line entry of the benchmarks."""
    p = argparse.ArgumentParser(prog="python -m ludeme.bench")
    sub = p.add_subparsers(dest="what", required=True)
    f = sub.add_parser("frontend", help="time expanding the whole corpus")
    f.add_argument("dir", nargs="?", type=Path, default=None)
    pl = sub.add_parser("playouts", help="playouts per second, beside Ludii's")
    pl.add_argument("files", nargs="*", type=Path, help="default: descriptions/*.lud")
    pl.add_argument("--seconds", type=float, default=3.0, help="per configuration (default 3)")
    pl.add_argument("--jobs", type=int, default=None, help="processes for the all-cores rate")
    sm = sub.add_parser("summary", help="seconds and memory to summarise many playouts")
    sm.add_argument("--rows", type=int, default=1_000_000)
    sm.add_argument("--file", type=Path, default=bundled_descriptions()[0])
    args = p.parse_args(argv)
    if args.what == "summary":
        return bench_summary(args.rows, args.file)
    if args.what == "frontend":
        return bench_frontend(args.dir or default_corpus())
    if args.what == "playouts":
        return bench_playouts(args.files or bundled_descriptions(), args.seconds, args.jobs)
    return 2


if __name__ == "__main__":
    sys.exit(main())
