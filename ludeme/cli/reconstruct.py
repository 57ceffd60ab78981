"""`ludeme reconstruct FILE`: complete the unknown parts (`[#]`) of an incomplete description
with fragments of a corpus, keep the candidates that build, end and have the expected
concepts, and rank them (`ludeme.analysis.reconstruct`).

Exit status: 0 when at least one candidate is kept (fewer than K is said on stderr), 1 when
none is (tried.csv says why each was dropped), 2 for a bad input, among them a hole that no
fragment of the corpus fits (its file:line:col and context are named).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ludeme.errors import LudemeError, printable

EXIT_NONE_KEPT = 1


def add_parser(sub) -> None:
    """`ludeme reconstruct FILE [-k K] [--out DIR] [--corpus DIR]... [--seed S] [-n N]`."""
    p = sub.add_parser("reconstruct", help="complete an incomplete description ([#]) with "
                                           "fragments of other games, ranked with reasons")
    p.add_argument("file", nargs="?", help=
                   "a .lud description with unknown parts ([#], [?], [a | b]), or a folder of "
                   "them (each in its own folder under --out, one line per file in "
                   "reconstructions.csv)")
    p.add_argument("-k", type=int, default=5, metavar="K",
                   help="how many candidates to write (default 5)")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="where to write (default reports/reconstruct-<game>)")
    p.add_argument("--corpus", type=Path, action="append", metavar="DIR",
                   help="a folder of descriptions to take fragments from (repeatable; default "
                        "Ludii's corpus and games beside the checkout, without "
                        "reconstruction/pending)")
    p.add_argument("--ruleset", metavar="NAME",
                   help="the ruleset with the unknown parts (default: the first that has any)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("-n", "--playouts", type=int, default=200, metavar="N",
                   help="random playouts per candidate (default 200)")
    # (the analysis' DEFAULT_TRIES and ORDER_TRIES, not imported here: every command
    # would pay for it)
    p.add_argument("--tries", type=int, default=60, metavar="T",
                   help="at most T candidates played (of at most 5T built and checked for "
                        "their concepts; default 60; up to 40, T also shapes the order they "
                        "are made in; beyond, more only go further along the same order)")
    p.add_argument("--enough", type=int, default=None, metavar="M",
                   help="stop trying once M candidates are kept (default 2K: more to rank)")
    p.add_argument("--min-ending", type=float, default=0.95, metavar="SHARE",
                   help="the share of playouts that must end (default 0.95)")
    p.add_argument("--budget", type=int, default=150_000, metavar="TURNS",
                   help="turns a candidate's playouts may take together (default 150000; a "
                        "candidate over it, or whose first 20 playouts' mean length would take "
                        "it over, is dropped as too long to check). A count, so the same "
                        "command keeps the same candidates on any machine")
    p.add_argument("--max-seconds", type=float, default=None, metavar="SECONDS",
                   help="safety limit: playing time per candidate (default none; a candidate "
                        "stopped by it is reported so, and the result depends on the machine)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="safety limit: stop trying new candidates after this long (per file; "
                        "default none; the tries made then depend on the machine)")
    p.add_argument("--against", type=Path, metavar="INDEX",
                   help="a concept index (`ludeme concepts --index DIR --out INDEX`): sources "
                        "with the expected concepts first, and each candidate's nearest game")
    p.add_argument("--compare", type=int, default=100, metavar="N",
                   help="compare the top K candidates over N playouts each (0: no comparison; "
                        "default 100)")
    p.add_argument("--recovery", type=Path, metavar="DIR",
                   help="measure instead: cut a rule block out of each finished description "
                        "under DIR, ask for it back (its own file left out of the fragments), "
                        "and report how often the original, or a candidate that plays as it "
                        "does, is ranked first and among the top K")
    p.add_argument("--cut", choices=("play", "end", "start"), default="end",
                   help="with --recovery: the block of (rules ...) cut out (default end)")
    p.add_argument("--limit", type=int, default=None, metavar="N",
                   help="with --recovery: at most N descriptions (those that have the block, "
                        "in the order of their paths)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="J",
                   help="with a folder or --recovery: descriptions reconstructed at once, each "
                        "in its own process (default: the cores); the files written are the "
                        "same for any J, and each description's log of tries is its folder's "
                        "log.txt")
    p.set_defaults(fn=run)


def corpus_folders(given: list[Path] | None):
    """The folders fragments come from, and what is left out of them."""
    from ludeme.analysis.reconstruct import default_corpus
    if not given:
        return default_corpus()
    for f in given:
        if not f.is_dir():
            raise LudemeError(f"--corpus {printable(str(f))}: no such folder")
    return list(given), ()


def run(args) -> int:
    """Reconstruct FILE and write the candidates, tables and report."""
    from ludeme.analysis.concepts import read_index
    from ludeme.analysis.playouts import slug
    from ludeme.analysis.reconstruct import cached_index, reconstruct, write_reconstruction
    from ludeme.analysis.report import check_out_dir
    for name, value, low in (("-k", args.k, 1), ("--playouts", args.playouts, 1),
                             ("--budget", args.budget, 1),
                             ("--tries", args.tries, 1), ("--compare", args.compare, 0)):
        if value < low:
            raise LudemeError(f"{name} must be at least {low}, got {value}")
    if not 0 < args.min_ending <= 1:
        raise LudemeError(f"--min-ending must be a share in (0, 1], got {args.min_ending}")
    folders, exclude = corpus_folders(args.corpus)
    many = args.recovery or (args.file and Path(args.file).is_dir())
    if args.jobs is not None and not many:
        raise LudemeError("--jobs applies to a folder of descriptions or --recovery: one "
                          "description's candidates are tried in order, in one process")
    if args.jobs is not None and args.jobs < 1:
        raise LudemeError(f"--jobs must be at least 1, got {args.jobs}")
    against = read_index(args.against) if args.against else None
    index = cached_index(folders, exclude)
    if args.recovery:
        return run_recovery(args, index, folders, exclude)
    if not args.file:
        raise LudemeError("give an incomplete .lud FILE (or a folder of them), or --recovery DIR")
    if Path(args.file).is_dir():
        return run_folder(args, index, folders, exclude, against)
    from ludeme.language.expand import load_description
    name = load_description(args.file).game_name or Path(args.file).stem
    out = check_out_dir(args.out or Path("reports") / f"reconstruct-{slug(name)}")
    rec = one_file(args, args.file, index, folders, against, out)
    kept = len(rec.kept)
    print(f"{len(rec.tried)} candidates tried, {kept} kept; "
          f"{min(kept, args.k)} written to {out}")
    for rank, t in enumerate(rec.kept[:args.k], 1):
        print(f"  {rank}. score {t.score:.3f}  {t.plan.formed}: {'; '.join(t.sources)}")
    if kept < args.k:
        print(f"ludeme: only {kept} of the {args.k} candidates asked for were kept "
              f"(see {out / 'tried.csv'})", file=sys.stderr)
    return 0 if kept else EXIT_NONE_KEPT


def budget_of(args):
    """A candidate's budget: --budget turns, --max-seconds as a safety limit."""
    from ludeme.analysis.reconstruct import Budget
    return Budget(args.budget, args.max_seconds)


def one_file(args, path, index, folders, against, out: Path, log=None):
    """Reconstruct one description into `out`; each try's line to `log` (default stderr)."""
    from ludeme.analysis.reconstruct import reconstruct, write_reconstruction
    rec = reconstruct(path, index, out / "tried", ruleset=args.ruleset, k=args.k,
                      tries=args.tries, playouts=args.playouts, seed=args.seed,
                      min_ending=args.min_ending, budget=budget_of(args), concept_index=against,
                      source_folders=folders, time_limit=args.time_limit, enough=args.enough,
                      log=log or (lambda line: print(line, file=sys.stderr)))
    write_reconstruction(rec, out, args.k, compare_n=min(args.compare, args.playouts))
    return rec


def jobs_of(args) -> int:
    import os
    return args.jobs if args.jobs is not None else (os.cpu_count() or 1)


def each_file(work, items: list, args, index):
    """`work(item, index)` for each item, in order, as each is ready: in this process with
    the fragment `index` given (and the log on stderr) when one job is asked for, else in
    worker processes, given None: a worker reads the index from the cache once, and logs
    each item to a file of its own (the index is too large to send with every item)."""
    if jobs_of(args) <= 1 or len(items) <= 1:
        for item in items:
            yield work(item, index)
        return
    from joblib import Parallel, delayed
    yield from Parallel(n_jobs=jobs_of(args), backend="loky", return_as="generator")(
        delayed(work)(item, None) for item in items)


_WORKER_INDEX: dict = {}


def worker_index(folders, exclude):
    """The fragment index in a worker process, read once per process (from the cache the
    parent wrote)."""
    from ludeme.analysis.reconstruct import cached_index
    key = (tuple(map(str, folders)), tuple(map(str, exclude)))
    if key not in _WORKER_INDEX:
        _WORKER_INDEX[key] = cached_index(folders, exclude)
    return _WORKER_INDEX[key]


class _FileLog:
    """A description's log of tries, in its output folder (parallel runs)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.f = open(path, "w", encoding="utf-8")

    def __call__(self, line: str) -> None:
        self.f.write(line + "\n")
        self.f.flush()

    def close(self) -> None:
        self.f.close()


def _folder_item(args, folders, exclude, against, item, index):
    """One description of a folder (its path, its path in the folder, its output folder):
    its reconstructions.csv row (`each_file`: index None in a worker)."""
    path, rel, out = item
    sink = _FileLog(out / "log.txt") if index is None else None
    index = worker_index(folders, exclude) if index is None else index
    row = {"file": str(rel), "holes": "", "tried": 0, "kept": 0, "enough": False, "why": ""}
    try:
        rec = one_file(args, path, index, folders, against, out, log=sink)
        row.update(holes=len(rec.template.holes), tried=len(rec.tried), kept=len(rec.kept),
                   enough=len(rec.kept) >= args.k)
        if not row["enough"]:
            reasons = [t.reason.split(":")[0] for t in rec.tried if not t.kept]
            common = max(set(reasons), key=reasons.count) if reasons else ""
            row["why"] = (f"only {len(rec.kept)} kept of {len(rec.tried)} tried; "
                          f"most often dropped: {common}")
    except LudemeError as e:
        row["why"] = e.render(excerpt=False).splitlines()[0]
    finally:
        if sink:
            sink.close()
    return row


def run_folder(args, index, folders, exclude, against) -> int:
    """Every description of a folder, each in its own folder; reconstructions.csv says for
    each how many candidates were kept, or why none could be (the hole no fragment fits)."""
    import csv

    from ludeme.analysis.check import find_lud_files
    from ludeme.analysis.playouts import slug
    from ludeme.analysis.report import check_out_dir
    from functools import partial
    out = check_out_dir(args.out or Path("reports") / "reconstruct")
    paths = find_lud_files([str(args.file)])
    table = out / "reconstructions.csv"
    fields = ["file", "holes", "tried", "kept", "enough", "why"]
    done = 0
    items = []
    for path in paths:
        rel = Path(path).relative_to(args.file)
        items.append((path, rel, out / slug(str(rel.with_suffix("")))))
    work = partial(_folder_item, args, folders, exclude, against)
    with open(table, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        for row in each_file(work, items, args, index):
            done += row["enough"]
            w.writerow(row)
            f.flush()
            print(f"{row['file']}: {row['kept']} kept"
                  + (f" ({row['why']})" if row["why"] else ""), flush=True)
    print(f"{done} of {len(paths)} descriptions gave at least {args.k} candidates; "
          f"one line per file in {table}")
    return 0 if done else EXIT_NONE_KEPT


def _recovery_item(args, folders, exclude, item, index):
    """One finished description (its path, its path in the folder, its output folder): its
    recovery.csv row, as a `Recovered` (`each_file`: index None in a worker)."""
    from ludeme.analysis.reconstruct import recover
    path, rel, out = item
    index = worker_index(folders, exclude) if index is None else index
    r = recover(Path(path), args.cut, index, out, args.k, tries=args.tries,
                playouts=args.playouts, seed=args.seed, min_ending=args.min_ending,
                budget=budget_of(args), source_folders=folders, time_limit=args.time_limit,
                enough=args.enough)
    r.file = str(rel)
    return r


def run_recovery(args, index, folders, exclude) -> int:
    """`--recovery DIR`: recovery.csv (one line per description) and the top-1 and top-K
    shares."""
    import csv
    from dataclasses import asdict
    from functools import partial

    from ludeme.analysis.check import find_lud_files
    from ludeme.analysis.playouts import slug
    from ludeme.analysis.reconstruct import cut_out
    from ludeme.analysis.report import check_out_dir
    if not args.recovery.is_dir():
        raise LudemeError(f"--recovery {printable(str(args.recovery))}: no such folder")
    out = check_out_dir(args.out or Path("reports") / f"recovery-{args.cut}")
    table = out / "recovery.csv"
    items = []
    for path in find_lud_files([str(args.recovery)]):
        if args.limit is not None and len(items) >= args.limit:
            break
        if cut_out(path, args.cut) is None:
            continue            # no such block to cut
        rel = Path(path).relative_to(args.recovery)
        items.append((path, rel, out / slug(str(rel.with_suffix("")))))
    results = []
    with open(table, "w", newline="", encoding="utf-8") as f:
        w = None
        for r in each_file(partial(_recovery_item, args, folders, exclude), items, args,
                           index):
            results.append(r)
            row = asdict(r)
            if w is None:
                w = csv.DictWriter(f, list(row))
                w.writeheader()
            w.writerow(row)
            f.flush()
            print(f"{r.file}: " + (f"rank {r.rank} ({r.how})" if r.rank else
                                   f"not in the top {args.k}") + f"; {r.kept} kept of "
                  f"{r.tried} tried, {r.fragments} fragments, original among them: "
                  f"{r.reachable}" + (f"; {r.why}" if r.why else ""), flush=True)
    n = len(results)
    top1 = sum(r.rank == 1 for r in results)
    topk = sum(r.rank is not None for r in results)
    reach = sum(r.reachable for r in results)
    line = (f"recovery of the cut ({args.cut} ...) over {n} descriptions: top-1 {top1}/{n}"
            f" ({top1 / max(1, n):.0%}), top-{args.k} {topk}/{n} ({topk / max(1, n):.0%}); "
            f"the original was among the fragments that fit in {reach}/{n}")
    (out / "recovery.md").write_text(line + "\n", encoding="utf-8")
    print(line)
    return 0
