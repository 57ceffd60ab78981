"""`ludeme check FILE|DIR...`: check many files; one line per failure; closing count."""

from __future__ import annotations

from ludeme.errors import LudemeError

from .common import add_limit_args


def add_parser(sub) -> None:
    """Register `ludeme check` on the main parser."""
    c = sub.add_parser("check", help="check many files; closes with 'N passed, M failed'")
    c.add_argument("files", nargs="+", help=".lud files or directories")
    c.add_argument("--stage", help="how far to go (default: the deepest stage there is)")
    c.add_argument("--all-rulesets", action="store_true",
                   help="check every ruleset (the default when a file has rulesets)")
    c.add_argument("--option", action="append", default=[], metavar='"Category/Item"')
    c.add_argument("--quiet", action="store_true", help="no lines for templates")
    add_limit_args(c)
    c.set_defaults(fn=run)


def run(args) -> int:
    """Check many files; one line per failure; closing count."""
    from ludeme.analysis.check import STAGES, check_file, deepest_stage, find_lud_files, summary_line
    stage = args.stage or deepest_stage()
    if stage not in STAGES:
        raise LudemeError(f"unknown stage {stage!r}; this version has: {', '.join(STAGES)}")
    results = []
    files = find_lud_files(args.files)
    if not files:
        raise LudemeError(f"no .lud files in {', '.join(args.files)}")
    for path in files:
        r = check_file(path, stage, True if args.all_rulesets else None, args.option)
        results.append(r)
        if r.verdict == "failed":
            for line in r.failures:
                print(line)
        elif r.verdict == "template" and not args.quiet:
            print(f"{path}: template; unknown parts at {', '.join(r.unknowns)}")
    print(summary_line(results))
    return 1 if any(r.verdict == "failed" for r in results) else 0
