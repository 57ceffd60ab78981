"""`ludeme run FILE`: play playouts and report Ludii's metrics
(`ludeme.analysis.playouts.run_and_write`)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from ludeme.analysis.playouts import DEFAULT_PLAYOUTS
from ludeme.errors import LudemeError

from .common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, add_game_args


def add_parser(sub) -> None:
    """`ludeme run FILE [--option ...] [--ruleset NAME | --all-rulesets] -n N --seed S ...`."""
    p = sub.add_parser("run", help="play playouts (random or with agents) and report Ludii's "
                                   "metrics")
    add_game_args(p)
    p.add_argument("--all-rulesets", action="store_true", help="run every ruleset of the file")
    p.add_argument("-n", type=int, default=DEFAULT_PLAYOUTS,
                   help=f"playouts per game/ruleset (default {DEFAULT_PLAYOUTS})")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="processes (default: all cores; -1 all, -2 all but one)")
    p.add_argument("--agents", metavar="A,B,...", default=None,
                   help="one agent per player, in order: random, greedy, uct or "
                        "uct:iterations=N,c=C,rollout=R (or seconds=S); default all random")
    p.add_argument("--rotate-seats", action="store_true",
                   help="playout i turns the agents by i seats, so each plays every seat")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run on a Dask cluster: a scheduler's address (tcp://host:8786), or "
                        "'local' for a LocalCluster of --jobs workers")
    p.add_argument("--max-turns", type=int, default=None, metavar="T",
                   help="turn limit per player (Ludii's default 1250)")
    p.add_argument("--max-moves", type=int, default=None, metavar="M",
                   help="decision limit (Ludii's default 10000)")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="where to write (default reports/<game>[-<ruleset>])")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--backend", choices=("auto", "compiled", "reference"), default="auto",
                   help="compiled numba kernels or the reference engine (default auto: "
                        "compiled where the game's ludemes all have a compiled form)")
    p.add_argument("--evaluation-metrics", action="store_true",
                   help="also Ludii's state-evaluation metrics (Narrowness, Variance, "
                        "Decisiveness*, LeadChange, Stability, Drama*, MoveEvaluation*, "
                        "StateEvaluationDifference*): every legal move of every state "
                        "evaluated, on the reference engine, so much slower")
    p.set_defaults(fn=run)


def run(args) -> int:
    """Play, summarize, write; one line per configuration; exit 130 after Ctrl-C (what
    finished is written)."""
    from ludeme.analysis.playouts import cpu_jobs, default_out_dir, ruleset_names, run_and_write
    from ludeme.analysis.report import number_text
    if args.all_rulesets and args.ruleset:
        raise LudemeError("--ruleset and --all-rulesets exclude each other")
    for name, value in (("-n", args.n), ("--seed", args.seed), ("--max-turns", args.max_turns),
                        ("--max-moves", args.max_moves)):
        if value is not None and value < (0 if name == "--seed" else 1):
            raise LudemeError(f"{name} must be {'non-negative' if name == '--seed' else 'positive'}")
    rulesets = ruleset_names(args.file) if args.all_rulesets else [args.ruleset]
    out = args.out or default_out_dir(args.file, args.ruleset, args.option, args.all_rulesets)
    r = run_and_write(args.file, out, rulesets, args.option, args.n, args.seed, args.jobs,
                      agents=args.agents, rotate=args.rotate_seats, scheduler=args.scheduler,
                      max_turns=args.max_turns, max_moves=args.max_moves,
                      progress=False if args.no_progress else None, backend=args.backend,
                      command=shlex.join(["ludeme", *sys.argv[1:]]),
                      evaluation=args.evaluation_metrics)
    for ruleset, error in r.failed:
        print(f"ludeme: error: {ruleset}: not played: {error.render()}", file=sys.stderr)
    if not r.written:
        if r.failed:
            return EXIT_BAD_INPUT
        print("interrupted before any playout finished: nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    where = f"{args.scheduler} (Dask)" if args.scheduler else f"{cpu_jobs(args.jobs)} process(es)"
    done, wall = r.playouts, r.seconds
    # One rate, the summary's playouts_per_sec (per configuration, below); here the wall time.
    print(f"{done} playouts in {wall:.1f} s wall ({where}; "
          f"{r.backend_line()}); wrote {', '.join(str(p) for p in r.written)}")
    for _, row in r.summary.iterrows():
        name = (row["ruleset"] or row["options"] or row["game"]).split("/", 1)[-1]
        agents = "" if row["agents"] == "random" else f" [{row['agents']}]"
        scores = "".join(f", {row[f'agent{j}']} scores {row[f'AgentScore{j}']:.3f}"
                         for j in range(1, 10) if f"agent{j}" in row and isinstance(
                             row[f"agent{j}"], str))
        print(f"  {name}{agents}: n={row['n']}, turns {row['DurationTurns']:.1f}, moves "
              f"{row['DurationMoves']:.1f}, timeouts {row['Timeouts']:.3f}, "
              f"P1 advantage {row['AdvantageP1']:.3f}{scores}, "
              f"{number_text(row['playouts_per_sec'])} playouts/s per process "
              "(playouts_per_sec)")
    if r.interrupted:
        print(f"interrupted: kept the {done} playouts that had finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    if r.failed:
        print(f"kept the {len(r.summary)} ruleset(s) that played; {len(r.failed)} failed "
              "(above)", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0
