"""`ludeme record FILE --seed S --out GAME.trl`: a seeded random playout written as a Ludii
trial file and/or a list of named moves (`ludeme.analysis.record`)."""

from __future__ import annotations

from pathlib import Path

from ludeme.errors import LudemeError

from .common import add_game_args

SUFFIXES = (".trl", ".txt")


def add_parser(sub) -> None:
    """`ludeme record FILE [--option ...] [--ruleset R] (--seed S | --run DIR --row K)
    --out PATH [--out PATH]`."""
    p = sub.add_parser("record", help="write a seeded random playout as a Ludii trial file "
                                      "(.trl) or a list of named moves (.txt)")
    add_game_args(p)
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--seed", type=int, help="the playout's seed (as `ludeme run` seeds a row)")
    g.add_argument("--run", metavar="RUN_DIR", help="a `ludeme run` output folder: record its "
                   "playout --row (its game options, ruleset and seed)")
    p.add_argument("--row", type=int, metavar="K", help="with --run: the playout's index")
    p.add_argument("--max-decisions", type=int, metavar="N", help="stop after N decisions")
    p.add_argument("--out", action="append", required=True, metavar="PATH",
                   help="GAME.trl (Ludii's trial syntax) or GAME.txt (named moves); repeatable")
    p.set_defaults(fn=run)


def run(args) -> int:
    """Play the playout, then write each --out."""
    from ludeme.analysis.conformance import random_playout
    from ludeme.analysis.record import run_row, write_move_list, write_trial
    from ludeme.api import load
    for out in args.out:
        if Path(out).suffix not in SUFFIXES:
            raise LudemeError(f"--out {out}: expected a .trl (Ludii trial) or .txt (named "
                              f"moves) file")
    if (args.run is None) != (args.row is None):
        raise LudemeError("--row goes with --run (the playout of a run folder to record)")
    if args.max_decisions is not None and args.max_decisions < 0:
        raise LudemeError(f"--max-decisions must be at least 0, got {args.max_decisions}")
    seed, options, ruleset = args.seed, args.option, args.ruleset
    if args.run is not None:
        if options or ruleset:
            raise LudemeError("--option and --ruleset come from the run's row with --run")
        row = run_row(args.run, args.row)
        seed, ruleset = row["seed"], row["ruleset"]
        options = [] if ruleset else row["options"]
    game = load(args.file, options, ruleset)
    if args.run is not None and (game.name, list(game.options)) != (row["game"],
                                                                      row["options"]):
        raise LudemeError(f"{args.file} loads as {game.name!r} with options "
                          f"{list(game.options)}, but playout {args.row} of {args.run} was "
                          f"{row['game']!r} with {row['options']}")
    _, choices = random_playout(game, seed, args.max_decisions)
    if args.run is not None and args.max_decisions is None and row["moves"] is not None \
            and row["moves"] != len(choices):
        raise LudemeError(f"playout {args.row} of {args.run} had {row['moves']} moves, its "
                          f"replay here {len(choices)}: the run used other limits "
                          f"(--max-turns/--max-moves) or another version of ludeme")
    for out in args.out:
        write = write_trial if out.endswith(".trl") else write_move_list
        try:
            Path(out).write_text(write(game, seed, choices), encoding="utf-8")
        except OSError as e:
            raise LudemeError(f"cannot write {out}: {e.strerror}") from None
        print(f"wrote {out} ({len(choices)} decisions, seed {seed})")
    return 0
