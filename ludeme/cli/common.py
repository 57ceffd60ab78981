"""What the commands share: their exit codes and the game and limit arguments."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ludeme.errors import LudemeError, printable

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


def add_game_args(p: argparse.ArgumentParser) -> None:
    """FILE, --option (repeatable), --ruleset and --max-expansion."""
    p.add_argument("file", help="a .lud description")
    p.add_argument("--option", action="append", default=[], metavar='"Category/Item"',
                   help="select an option item (repeatable)")
    p.add_argument("--ruleset", metavar="NAME", help="select a ruleset (with or without 'Ruleset/')")
    add_limit_args(p)


def add_limit_args(p: argparse.ArgumentParser) -> None:
    """--max-expansion."""
    p.add_argument("--max-expansion", type=int, metavar="STEPS", help=
                   "expansion budget (default 1,000,000 steps, or $LUDEME_MAX_EXPANSION)")


def apply_limits(args) -> None:
    """--max-expansion goes to the environment, so worker processes see it too."""
    n = getattr(args, "max_expansion", None)
    if n is not None:
        if n < 1:
            raise LudemeError("--max-expansion must be a positive number of steps")
        os.environ["LUDEME_MAX_EXPANSION"] = str(n)


def cap_jobs(args) -> None:
    """--jobs beyond the machine's cores would only start processes that wait: it is capped
    at the cores, by the library's own rule (`cpu_jobs`), and the cap is said once."""
    jobs = getattr(args, "jobs", None)
    if jobs is None or jobs <= 0:
        return
    from ludeme.analysis.playouts import cpu_jobs
    cores = cpu_jobs(jobs)
    if cores < jobs:
        print(f"ludeme: --jobs {jobs} capped at this machine's {cores} cores", file=sys.stderr)
        args.jobs = cores


def check_out_file(flag: str, path: str) -> None:
    """A file a command is to write (`--svg OUT`): refused, before any work, when it names a
    directory or lies in a folder that does not exist."""
    p, shown = Path(path), printable(path)
    if p.is_dir():
        raise LudemeError(f"{flag} {shown} is a directory; give the name of a file to write")
    if not p.parent.is_dir():
        raise LudemeError(f"{flag} {shown}: the folder {printable(str(p.parent))} does not exist "
                          "(give a file in an existing folder)")
