"""Benchmarks (never timed tests): `python -m ludeme.bench frontend|playouts`.

`frontend [DIR]` expands every .lud file below DIR (default ../shared/ludii/corpus)
for its default options and every ruleset, on one core, and prints the time taken.

`playouts [FILE...] [--targets] [--backend B] [--seconds S] [--jobs J]` plays
uniform-random playouts as `ludeme run` does (rows and metrics bookkeeping
included) of every bundled description (descriptions/*.lud, each ruleset), or of
the speed target (`--targets`: every configuration of Ludii's SPEED.md, from
../shared/refdata/configs.json and Ludii's own files; `--only SLUG...` some of them),
for S seconds of CPU time on
one process, and prints the rate next to Ludii's warmed single-thread rate
(../shared/refdata/speed.tsv, the figures of SPEED.md) as a ratio, then the rate
of J processes (default: all cores) playing at once. Rates are per second of CPU
time: the machines are shared, and the wall-clock rate (printed beside it) moves
with the other load. The backend's compile time is printed apart.

`agents [FILE...] [--targets] [--seconds S] [--iterations N]` measures UCT's
iterations (one rollout each) per second of CPU time on both backends: searches
from the positions of a seeded random game, reference engine then compiled
states (their rollouts in the kernels), and the ratio.

`playouts --end-to-end` times `ludeme run --jobs 1` itself (rows, metrics,
summary and the files it writes), in a fresh process, at two run sizes, so that
start-up and compiling cancel: rate = (n2 - n1) / (cpu2 - cpu1), CPU time of the
child process, the sizes set from the rate of a one-second run in this process so that
the difference timed is about 2 S seconds of CPU. Both sizes are above `ludeme.analysis.playouts.PARTITION_SIZE` when the larger
one is (the run is then written partition by partition, a different cost per row).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path
from typing import NamedTuple


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


class Config(NamedTuple):
    """One configuration to time: a file, its ruleset and options, and Ludii's slug for it
    (None when it is not one of Ludii's reference configurations)."""

    path: Path
    ruleset: str | None = None
    options: tuple[str, ...] = ()
    slug: str | None = None

    @property
    def run_args(self) -> list[str]:
        """The arguments of `ludeme run` that select it."""
        args = [str(self.path)] + (["--ruleset", self.ruleset] if self.ruleset else [])
        for o in self.options:
            args += ["--option", o]
        return args

    @property
    def name(self) -> str:
        return self.slug or (self.ruleset or "").split("/", 1)[-1] or self.path.stem


def target_configs(refdata: Path) -> list[Config]:
    """The speed target: every configuration of `SPEED.md` (refdata/configs.json, the
    files under ../shared/ludii/games) whose file is here."""
    path = refdata / "configs.json"
    if not path.exists():
        return []
    games = refdata.parent / "ludii" / "games"
    return [Config(games / c["lud"], c.get("ruleset"), tuple(c.get("options") or ()), c["slug"])
            for c in json.loads(path.read_text(encoding="utf-8"))["configs"]
            if (games / c["lud"]).exists()]


def reference_slug(game, path: str | Path, refdata: Path | None = None) -> str | None:
    """The slug of Ludii's reference configuration that is exactly this game's option items.

    A reference matches when, in this description, its options (or ruleset) on
    top of the defaults select the same items as the game was loaded with
    (as recorded in stats/<slug>.json).
    """
    from .errors import LudemeError
    from ludeme.language.expand import choose_items, load_description
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
            return stats.stem
    return None


def warmed_ludii(refdata: Path | None = None) -> dict[str, float]:
    """Ludii's warmed single-thread playouts/s per slug (speed.tsv, the figures of SPEED.md)."""
    path = (refdata or default_refdata()) / "speed.tsv"
    if not path.exists():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    i_slug, i_rate = header.index("slug"), header.index("playouts_per_sec")
    return {f[i_slug]: float(f[i_rate]) for f in (ln.split("\t") for ln in lines[1:] if ln)}


def playout_rate(game, seconds: float, seed: int = 0,
                 backend: str = "auto") -> tuple[float, float, int]:
    """(CPU-time rate, wall-clock rate, playouts) of `ludeme run`'s playouts for `seconds`
    of CPU time, by batches as `run_playouts` plays them (compiling excluded)."""
    from ludeme.analysis.playouts import run_playouts
    run_playouts(game, 1, seed, jobs=1, progress=False, backend=backend)     # compile, warm
    # Only the playing is timed: the CPU time of this thread, which plays (jobs=1), not of
    # the process's other threads (a long-lived process's, a test worker's), and after a
    # full collection of what the process held before, so that none falls in a window of a
    # fraction of a second. In two full test runs Adzua's first ruleset read 2 playouts/s
    # instead of 500; the cause was not pinned down, and these are the two candidates.
    gc.collect()
    count, batch = 0, 1
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    while time.thread_time() - cpu0 < seconds:
        run_playouts(game, batch, seed + count, jobs=1, progress=False, backend=backend)
        count += batch
        batch = min(batch * 2, 100_000)
    wall, cpu = time.perf_counter() - wall0, time.thread_time() - cpu0
    return count / cpu if cpu else float("nan"), count / wall, count


def _rate_in_worker(source, seconds: float, seed: int) -> tuple[float, float, int]:
    """`playout_rate` in a worker process, the game built from its source."""
    from ludeme.analysis.playouts import worker_game
    return playout_rate(worker_game(source), seconds, seed)


def parallel_rate(game, seconds: float, jobs: int) -> float:
    """Playouts per second of `jobs` processes playing at once (each measures its own S seconds)."""
    from joblib import Parallel, delayed

    from ludeme.analysis.playouts import game_source
    source = game_source(game)
    rates = Parallel(n_jobs=jobs, backend="loky")(
        delayed(_rate_in_worker)(source, seconds, k + 1) for k in range(jobs))
    return sum(r[1] for r in rates)


def _ratio_text(rate: float, ludii: float | None) -> tuple[str, str]:
    if not ludii:
        return "-", "-"
    return f"{ludii:,.0f}", f"{rate / ludii:.3f}"


def _print_header(header: str) -> None:
    print(header)
    print("-" * len(header))


def _configurations(files: list[Path], targets: bool, refdata: Path,
                    only: list[str] | None = None) -> list[Config]:
    """The speed target's configurations, else each ruleset of each file; `only` keeps those
    whose slug (or ruleset, or file name) is listed."""
    from ludeme.analysis.playouts import ruleset_names
    if targets:
        out = target_configs(refdata)
        if not out:
            raise SystemExit(f"no speed targets: {refdata / 'configs.json'} or the Ludii files "
                             f"it names are not here (set LUDEME_SHARED_DIR to the folder "
                             f"holding refdata/ and ludii/)")
    else:
        out = [Config(path, ruleset) for path in files for ruleset in ruleset_names(path)]
    kept = [c for c in out if not only or c.name in only or c.path.stem in only]
    if not kept:
        raise SystemExit(f"no configuration is named {', '.join(only or ())}: the names are "
                         f"{', '.join(c.name for c in out)}")
    return kept


def _load(config: Config, backend: str = "auto"):
    """The configuration's game, or None (said on stderr) when it does not play here."""
    from ludeme.analysis.playouts import load
    from ludeme.errors import LudemeError
    try:
        return load(config.path, ruleset=config.ruleset, options=list(config.options),
                    backend=backend)
    except LudemeError as e:
        print(f"{config.name}: does not play here: {str(e).splitlines()[0]}", file=sys.stderr)
        return None


def bench_playouts(files: list[Path], seconds: float, jobs: int | None, backend: str = "auto",
                   targets: bool = False, only: list[str] | None = None) -> int:
    """One line per game/ruleset: rates on one process and on all cores, and the ratio to Ludii."""
    from ludeme.analysis.playouts import compiled_of, cpu_jobs
    jobs = cpu_jobs(jobs)
    refdata = default_refdata()
    ludii_rates = warmed_ludii(refdata)
    print(f"{seconds:g} s of CPU per configuration; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores; Ludii: warmed single-thread p/s from {refdata / 'speed.tsv'}")
    _print_header(f"{'game / ruleset':<40} {'backend':>9} {'compile s':>9} {'p/s (cpu)':>10} "
                  f"{'(wall)':>9} {'Ludii p/s':>10} {'ratio':>6} {f'{jobs} procs p/s':>13}")
    for config in _configurations(files, targets, refdata, only):
        game = _load(config, backend)
        if game is None:
            continue
        t0 = time.perf_counter()
        kernels = compiled_of(game)
        compile_s = time.perf_counter() - t0
        cpu_rate, wall_rate, _ = playout_rate(game, seconds, backend=backend)
        slug = config.slug or reference_slug(game, config.path, refdata)
        ludii_text, ratio_text = _ratio_text(cpu_rate, ludii_rates.get(slug or ""))
        all_rate = parallel_rate(game, seconds, jobs) if jobs > 1 else wall_rate
        print(f"{config.name[:40]:<40} {'compiled' if kernels else 'reference':>9} "
              f"{compile_s if kernels else 0:>9.2f} {cpu_rate:>10,.0f} {wall_rate:>9,.0f} "
              f"{ludii_text:>10} {ratio_text:>6} {all_rate:>13,.0f}", flush=True)
    return 0


def _run_cpu_seconds(args: list[str]) -> float:
    """CPU seconds (user + system) of `python -m ludeme run ARGS` in a child process."""
    import resource
    import subprocess
    import tempfile
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sys.executable, "-m", "ludeme", "run", *args, "--jobs", "1",
                        "--no-progress", "--out", out], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def bench_end_to_end(files: list[Path], seconds: float, backend: str, targets: bool,
                     only: list[str] | None = None, repeat: int = 1) -> int:
    """`ludeme run --jobs 1` at two sizes per configuration: the rate with start-up cancelled.

    The sizes come from the rate of this process's own playouts over one second of CPU
    (after compiling, which also fills the compile cache the runs then read): the smaller
    run takes about `seconds` of CPU, the larger three times as many playouts, so the
    difference timed is about twice `seconds`, whatever the game's speed. With `repeat` R,
    R pairs of the two runs, one after the other, and the median of their rates (the CPU
    times of a shared machine drift by a fifth within minutes: one pair can land on a
    slow and a fast moment); the row shows the median pair's times and the lowest and
    highest pair's ratio."""
    from ludeme.analysis.playouts import PARTITION_SIZE, compiled_of
    refdata = default_refdata()
    ludii_rates = warmed_ludii(refdata)
    print(f"ludeme run --jobs 1 --backend {backend}, end to end, CPU time of the child process; "
          f"two run sizes (about {seconds:g} s of CPU and three times as many playouts); load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    _print_header(f"{'configuration':<40} {'backend':>9} {'n1':>8} {'n2':>8} {'cpu1 s':>7} "
                  f"{'cpu2 s':>7} {'p/s':>10} {'Ludii p/s':>10} {'ratio':>6}")
    ratios, unrated = [], []
    for config in _configurations(files, targets, refdata, only):
        game = _load(config, backend)
        if game is None:
            continue
        played = "reference" if backend == "reference" or compiled_of(game) is None \
            else "compiled"
        estimate, _, _ = playout_rate(game, min(1.0, seconds), backend=backend)
        ludii = ludii_rates.get(config.slug or reference_slug(game, config.path, refdata) or "")
        n1 = max(20, int(estimate * seconds))
        if n1 <= PARTITION_SIZE < 3 * n1:
            # Both sizes partitioned: a run of up to PARTITION_SIZE playouts writes whole
            # tables (and CSV) instead, a different cost per playout that would not cancel.
            n1 = PARTITION_SIZE + 1
        n2 = 3 * n1
        args = config.run_args + ["--backend", backend]
        pairs = []
        for _ in range(repeat):
            cpu1 = _run_cpu_seconds(args + ["-n", str(n1)])
            cpu2 = _run_cpu_seconds(args + ["-n", str(n2)])
            pairs.append(((n2 - n1) / (cpu2 - cpu1) if cpu2 > cpu1 else float("nan"),
                          cpu1, cpu2))
        # the median pair (NaN, a pair whose larger run was no dearer, counts as the lowest)
        pairs.sort(key=lambda p: -1.0 if p[0] != p[0] else p[0])
        rate, cpu1, cpu2 = pairs[(len(pairs) - 1) // 2]
        ludii_text, ratio_text = _ratio_text(rate, ludii)
        if repeat > 1 and ludii:
            ratio_text += (f" ({_ratio_text(pairs[0][0], ludii)[1].strip()} to "
                           f"{_ratio_text(pairs[-1][0], ludii)[1].strip()} over {repeat})")
        if ludii and rate == rate:
            ratios.append(rate / ludii)
        elif rate != rate:
            unrated.append(config.name)
        print(f"{config.name[:40]:<40} {played:>9} {n1:>8} {n2:>8} {cpu1:>7.2f} {cpu2:>7.2f} "
              f"{rate:>10,.0f} {ludii_text:>10} {ratio_text:>6}", flush=True)
    if ratios:
        ratios.sort()
        median = (ratios[(len(ratios) - 1) // 2] + ratios[len(ratios) // 2]) / 2
        print(f"{len(ratios)} configurations beside Ludii's warmed rate: median ratio "
              f"{median:.2f}, lowest {ratios[0]:.2f}, "
              f"{sum(r >= 1.0 for r in ratios)} at least 1.0")
    if unrated:
        print(f"{len(unrated)} configurations without a rate: the larger run took no more CPU "
              f"than the smaller, so their difference is noise; raise --seconds: "
              f"{', '.join(unrated)}")
    return 0


def uct_rate(game, backend: str, seconds: float, iterations: int, seed: int = 0
             ) -> tuple[float, int, str]:
    """(UCT iterations (each one rollout) per CPU second, iterations, the backend played):
    searches of `iterations` from the positions of a seeded random game, for `seconds`."""
    import random

    from ludeme.ai.agents import UCTAgent
    from ludeme.analysis.playouts import compiled_of, new_state
    agent = UCTAgent(iterations=iterations)
    rng = random.Random(seed)
    played = "compiled" if compiled_of(game, backend) is not None else "reference"
    agent.search(new_state(game, seed, backend), rng)         # warm up
    count, state = 0, new_state(game, seed, backend)
    cpu0 = time.process_time()
    while time.process_time() - cpu0 < seconds:
        agent.search(state, rng)
        count += iterations
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
        if state.is_terminal():
            state = new_state(game, seed, backend)
    return count / (time.process_time() - cpu0), count, played


def bench_agents(files: list[Path], seconds: float, iterations: int, targets: bool) -> int:
    """UCT iterations per second on both backends, per configuration, and their ratio."""
    refdata = default_refdata()
    print(f"UCT (iterations={iterations} per search, random rollouts of 200 moves), "
          f"{seconds:g} s of CPU per configuration and backend; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    _print_header(f"{'game / ruleset':<40} {'reference it/s':>15} {'compiled it/s':>14} "
                  f"{'ratio':>6}")
    for config in _configurations(files, targets, refdata):
        game = _load(config)
        if game is None:
            continue
        ref, _, _ = uct_rate(game, "reference", seconds, iterations)
        fast, _, played = uct_rate(game, "auto", seconds, iterations)
        name = config.name
        fast_text = f"{fast:>14,.0f}" if played == "compiled" else f"{'(no form)':>14}"
        ratio = f"{fast / ref:>6.1f}" if played == "compiled" else f"{'-':>6}"
        print(f"{name[:40]:<40} {ref:>15,.0f} {fast_text} {ratio}", flush=True)
    return 0


def bench_frontend(root: Path) -> int:
    """Expand the corpus; print files, rulesets, seconds and MB/s."""
    from ludeme.analysis.check import check_file, find_lud_files, summary_line
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

    from ludeme.analysis.metrics import summarize
    from ludeme.analysis.playouts import load, run_playouts
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
    pl.add_argument("--targets", action="store_true",
                    help="every configuration of Ludii's SPEED.md instead of FILEs")
    pl.add_argument("--only", nargs="+", metavar="NAME",
                    help="only these configurations (Ludii's slug, ruleset or file name)")
    pl.add_argument("--backend", choices=("auto", "compiled", "reference"), default="auto")
    pl.add_argument("--end-to-end", action="store_true",
                    help="time `ludeme run --jobs 1` at two run sizes instead")
    pl.add_argument("--seconds", type=float, default=3.0, help="per configuration (default 3)")
    pl.add_argument("--repeat", type=int, default=1, metavar="R",
                    help="with --end-to-end: R pairs of runs, their median rate (default 1)")
    pl.add_argument("--jobs", type=int, default=None, help="processes for the all-cores rate")
    ag = sub.add_parser("agents", help="UCT iterations (rollouts) per second on both backends")
    ag.add_argument("files", nargs="*", type=Path, help="default: descriptions/*.lud")
    ag.add_argument("--targets", action="store_true",
                    help="every configuration of Ludii's SPEED.md instead of FILEs")
    ag.add_argument("--seconds", type=float, default=3.0,
                    help="per configuration and backend (default 3)")
    ag.add_argument("--iterations", type=int, default=200, help="per search (default 200)")
    sm = sub.add_parser("summary", help="seconds and memory to summarise many playouts")
    sm.add_argument("--rows", type=int, default=1_000_000)
    sm.add_argument("--file", type=Path, default=bundled_descriptions()[0])
    args = p.parse_args(argv)
    if getattr(args, "repeat", 1) < 1:
        p.error("--repeat must be at least 1")
    if args.what == "summary":
        return bench_summary(args.rows, args.file)
    if args.what == "agents":
        return bench_agents(args.files or bundled_descriptions(), args.seconds, args.iterations,
                            args.targets)
    if args.what == "frontend":
        return bench_frontend(args.dir or default_corpus())
    if args.what == "playouts":
        files = args.files or bundled_descriptions()
        if args.end_to_end:
            return bench_end_to_end(files, args.seconds, args.backend, args.targets, args.only,
                                    args.repeat)
        return bench_playouts(files, args.seconds, args.jobs, args.backend, args.targets,
                              args.only)
    return 2


if __name__ == "__main__":
    sys.exit(main())
