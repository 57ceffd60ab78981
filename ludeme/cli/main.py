"""The `ludeme` command line: one module of this package per command, each with its
`add_parser(subparsers)` and the `run(args)` that the parser calls.

The commands import what they run inside `run`, so that building the parser (and
`ludeme --help`) loads no pandas, numba or scipy.
"""

from __future__ import annotations

import argparse
import os
import sys

from ludeme.errors import LudemeError
from ludeme.version import __version__

from . import (board, check, compare, concepts, crosscheck, designer, expand, info, moves,
               play, reconstruct, record, run, view)
from .common import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, apply_limits, cap_jobs

COMMANDS = (expand, info, check, crosscheck, play, record, moves, run, board, compare, concepts,
            view, reconstruct, designer)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    p = argparse.ArgumentParser(prog="ludeme", description=
                                "Read, expand, check and play Ludii .lud game descriptions.")
    p.add_argument("--version", action="version", version=f"ludeme {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return p


EXIT_TERMINATED = 128 + 15


class _Terminated(list):
    """Truthy once SIGTERM arrived."""


def _stop_on_sigterm() -> _Terminated:
    """SIGTERM (what `timeout`, `kill` and schedulers send) stops a command as Ctrl-C does:
    workers stopped, temporary files removed, what finished written."""
    import signal
    import threading
    flag = _Terminated()
    if threading.current_thread() is not threading.main_thread():
        return flag

    def handler(signum, frame):
        flag.append(signum)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)   # a second SIGTERM ends it at once
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)
    return flag


def main(argv: list[str] | None = None) -> int:
    """Entry point: run a subcommand; user errors print `file:line:col: message` and exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    terminated = _stop_on_sigterm()
    try:
        apply_limits(args)
        cap_jobs(args)
        status = args.fn(args)
        # a command that stopped on SIGTERM and kept what finished says so as the shell does
        return EXIT_TERMINATED if terminated and status == EXIT_INTERRUPTED else status
    except LudemeError as e:
        sys.stdout.flush()
        print(f"ludeme: error: {e.render()}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("ludeme: interrupted", file=sys.stderr)
        return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug in ludeme, not in the input: say so plainly
        if os.environ.get("LUDEME_DEBUG"):
            raise
        print(f"ludeme: internal error: {type(e).__name__}: {e}\n"
              "This is a bug in ludeme, not in your description; run again with "
              "LUDEME_DEBUG=1 for the traceback and report it.", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
