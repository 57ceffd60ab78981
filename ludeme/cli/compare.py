"""`ludeme compare INPUT...`: test which differences between rule variants are real
(`ludeme.analysis.compare`, written by `ludeme.analysis.compare_report`)."""

from __future__ import annotations

from pathlib import Path

from ludeme.analysis.compare_defaults import ALPHA, CORRECTIONS, DEFAULT_IDENTITY_SEEDS, DEFAULT_PLAYOUTS
from ludeme.errors import LudemeError


def add_parser(sub) -> None:
    """`ludeme compare INPUT... [--all-rulesets] [-n N] [--seed S] [--correction holm|bh] --out DIR`."""
    p = sub.add_parser("compare", help="test which differences between rule variants are real")
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="FILE[::ruleset or option[::option...]] or a `ludeme run` output folder")
    p.add_argument("--all-rulesets", action="store_true",
                   help="every ruleset of each description given without one")
    p.add_argument("-n", type=int, default=DEFAULT_PLAYOUTS,
                   help=f"playouts per variant (default {DEFAULT_PLAYOUTS})")
    p.add_argument("--seed", type=int, default=0,
                   help="the run seed, shared by all variants (default 0)")
    p.add_argument("--jobs", "-j", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--correction", choices=sorted(CORRECTIONS), default="holm",
                   help="multiple-comparison correction (default holm; bh: Benjamini-Hochberg)")
    p.add_argument("--alpha", type=float, default=ALPHA, help=f"level (default {ALPHA})")
    p.add_argument("--identity-seeds", type=int, default=DEFAULT_IDENTITY_SEEDS, metavar="K",
                   help="seeds played in every variant to find identical play "
                        f"(default {DEFAULT_IDENTITY_SEEDS}; 0: compare playout rows only)")
    p.add_argument("--source", metavar="FILE",
                   help="the description of run folders, to find identical play by legal moves")
    p.add_argument("--max-turns", type=int, default=None, metavar="T")
    p.add_argument("--max-moves", type=int, default=None, metavar="M")
    p.add_argument("--out", type=Path, default=Path("reports/compare"), metavar="DIR",
                   help="where to write (default reports/compare)")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--backend", choices=("auto", "compiled", "reference"), default="auto",
                   help="compiled numba kernels or the reference engine (default auto: "
                        "compiled where the game's ludemes all have a compiled form); the "
                        "rows do not depend on it")
    p.set_defaults(fn=run)


def run(args) -> int:
    """Gather, group, test, write; one closing line."""
    from ludeme.analysis.compare import compare_inputs
    from ludeme.analysis.compare_report import write_comparison
    from ludeme.analysis.report import check_out_dir, run_lock
    if args.n < 2 or args.identity_seeds < 0 or not 0 < args.alpha < 1:
        raise LudemeError("-n must be at least 2, --identity-seeds non-negative, "
                          "--alpha between 0 and 1")
    check_out_dir(args.out, make=False)      # before playing, not after
    with run_lock(args.out):                 # and not while another command writes there
        result = compare_inputs(args.inputs, args.all_rulesets, args.n, args.seed, args.jobs,
                                identity_seeds=args.identity_seeds, source=args.source,
                                correction=args.correction, alpha=args.alpha,
                                max_turns=args.max_turns, max_moves=args.max_moves,
                                progress=False if args.no_progress else None,
                                backend=args.backend)
        written = write_comparison(result, args.out)
    t = result.table
    distinct = t.drop_duplicates("test_id")
    print(f"{len(result.variants)} variants in {result.groups['group'].nunique()} groups of "
          f"identical play; {(distinct['verdict'] == 'differs').sum()} of "
          f"{t['family_size'].iloc[0]} distinct tests differ after {args.correction} "
          f"correction; wrote {', '.join(str(p) for p in written)}")
    return 0
