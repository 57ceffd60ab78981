"""`ludeme crosscheck TRACE... (--ludii-dir DIR | --lud FILE)`: replay Ludii's reference traces
(`ludeme.analysis.crosscheck`)."""

from __future__ import annotations

import os
import sys

from ludeme.analysis.crosscheck import DEFAULT_TIME_LIMIT, INDEX_NAME
from ludeme.errors import LudemeError, printable

from .common import EXIT_BAD_INPUT


def add_parser(sub) -> None:
    """`ludeme crosscheck TRACE... (--ludii-dir DIR | --lud FILE)`."""
    p = sub.add_parser("crosscheck", help="replay Ludii reference traces and report the first "
                                          "disagreement")
    p.add_argument("traces", nargs="+", help="trace files (.json.gz), Ludii trial files (.trl), "
                                             "or directories of them")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--ludii-dir", help="Ludii's folder: each trace's .lud is found under it "
                                       "(by the corpus index when there is one, else by name)")
    g.add_argument("--lud", help="replay against this description instead")
    p.add_argument("--index", help=f"the corpus index (default: {INDEX_NAME} beside the traces)")
    p.add_argument("--summary", action="store_true",
                   help="add tables by family and by the first unsupported ludeme")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                   help="worker processes (default: one per core)")
    p.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                   help="per trace (and per game load); 0 for none")
    p.add_argument("--backend", choices=("reference", "compiled", "auto"), default="reference",
                   help="replay on the reference engine (default), the compiled kernels, or "
                        "the kernels where the game has them (auto)")
    p.add_argument("--no-jit", action="store_true",
                   help="with --backend compiled: run the generated kernels as Python, numba's "
                        "JIT off (the code numba would compile, checked without compiling "
                        "each game for seconds to minutes; slower per move)")
    p.set_defaults(fn=run)


def run(args) -> int:
    """One line per trace as its verdict comes; the closing count; exit 0 when all agreed,
    1 when one did not, 2 when a trace is invalid."""
    from ludeme.analysis.crosscheck import closing_line, iter_crosscheck, summary_tables, trace_files
    files = trace_files(args.traces)
    if args.jobs < 1:
        raise LudemeError(f"--jobs must be at least 1, got {args.jobs}")
    if args.no_jit:
        if args.backend != "compiled":
            raise LudemeError("--no-jit runs the compiled kernels as Python: give it with "
                              f"--backend compiled (not {args.backend})")
        from ludeme.engine.compiled import turn_jit_off
        turn_jit_off()
        print("ludeme: the compiled kernels run as Python (--no-jit)", file=sys.stderr)
    verdicts = []
    for vs in iter_crosscheck(files, args.ludii_dir, args.lud, index=args.index,
                              jobs=args.jobs, seconds=args.time_limit or None,
                              backend=args.backend):
        for v in vs:
            print(printable(v.line()), flush=True)   # a trace's text echoed
        verdicts.extend(vs)
    if args.summary:
        print(summary_tables(verdicts))
    print(closing_line(verdicts))
    if any(v.status == "invalid" for v in verdicts):
        return EXIT_BAD_INPUT
    return 0 if all(v.status == "agreed" for v in verdicts) else 1
