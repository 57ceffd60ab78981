"""`ludeme run FILE`: play playouts and report Ludii's metrics
(`ludeme.analysis.playouts.run_and_write`)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from ludeme.analysis.playouts import DEFAULT_PLAYOUTS, MAX_CONFIGURATIONS
from ludeme.analysis.precision import DEFAULT_CAP, DEFAULT_METRICS
from ludeme.errors import LudemeError

from .common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, add_game_args


def add_parser(sub) -> None:
    """`ludeme run FILE [--option ...] [--ruleset NAME | --all-rulesets] -n N --seed S ...`."""
    p = sub.add_parser("run", help="play playouts (random or with agents) and report Ludii's "
                                   "metrics")
    add_game_args(p)
    p.add_argument("--all-rulesets", action="store_true", help="run every ruleset of the file")
    p.add_argument("-n", type=int, default=None,
                   help=f"playouts per configuration (default {DEFAULT_PLAYOUTS}); with "
                        f"--until-ci the cap (default {DEFAULT_CAP:,})")
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
    p.add_argument("--until-ci", metavar="WIDTH", default=None,
                   help="play in batches until every chosen metric's 95%% interval is "
                        "narrower than WIDTH (0.05: in the metric's unit; 5%%: of its value) "
                        "in every configuration, or -n is reached")
    p.add_argument("--metrics", metavar="M1,M2=W,...", default=None,
                   help="the metrics --until-ci watches, each at WIDTH or its own "
                        f"(default {','.join(DEFAULT_METRICS)}; win_shares: every player's)")
    p.add_argument("--all-options", action="store_true",
                   help="one configuration per combination of the game's options")
    p.add_argument("--sweep", action="append", default=[], metavar='"Category"',
                   help="one configuration per item of this option (repeatable: every "
                        f"combination; at most {MAX_CONFIGURATIONS} configurations)")
    p.set_defaults(fn=run)


def run(args) -> int:
    """Play, summarize, write; one line per configuration; exit 130 after Ctrl-C (what
    finished is written)."""
    from ludeme.analysis.playouts import (cpu_jobs, default_out_dir, option_sweep, ruleset_names,
                                          run_and_write)
    from ludeme.analysis.precision import parse_targets, stop_text
    if args.all_rulesets and args.ruleset:
        raise LudemeError("--ruleset and --all-rulesets exclude each other")
    for name, value in (("-n", args.n), ("--seed", args.seed), ("--max-turns", args.max_turns),
                        ("--max-moves", args.max_moves)):
        if value is not None and value < (0 if name == "--seed" else 1):
            raise LudemeError(f"{name} must be {'non-negative' if name == '--seed' else 'positive'}")
    if args.metrics and not args.until_ci:
        raise LudemeError("--metrics names what --until-ci watches: give --until-ci WIDTH too")
    until = parse_targets(args.until_ci, args.metrics) if args.until_ci else None
    n = args.n or (DEFAULT_CAP if until else DEFAULT_PLAYOUTS)
    sweep = ["*"] if args.all_options else args.sweep
    if args.all_options and args.sweep:
        raise LudemeError("--all-options sweeps every option already: give it or --sweep")
    if sweep and args.all_rulesets or args.all_options and args.ruleset:
        raise LudemeError(f"{'--all-rulesets' if args.all_rulesets else '--ruleset'} and "
                          f"{'--all-options' if args.all_options else 'an option sweep'} "
                          "exclude each other (a ruleset fixes options): sweep the options a "
                          "ruleset leaves free with --sweep")
    option_sets = option_sweep(args.file, args.option, None if sweep == ["*"] else sweep) \
        if sweep else None
    rulesets = ruleset_names(args.file) if args.all_rulesets else [args.ruleset]
    out = args.out or default_out_dir(args.file, args.ruleset, args.option, args.all_rulesets,
                                      sweep)
    r = run_and_write(args.file, out, rulesets, args.option, n, args.seed, args.jobs,
                      agents=args.agents, rotate=args.rotate_seats, scheduler=args.scheduler,
                      max_turns=args.max_turns, max_moves=args.max_moves,
                      progress=False if args.no_progress else None, backend=args.backend,
                      command=shlex.join(["ludeme", *sys.argv[1:]]), until=until,
                      option_sets=option_sets, evaluation=args.evaluation_metrics)
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
        if row["options"] and not row["ruleset"] and len(r.summary) > 1:
            name = row["options"]           # a sweep's: every option it chose
        # the report's module (pandas, scipy, matplotlib) once there is something to
        # report: a file refused while loading is said at once
        from ludeme.analysis.report import number_text
        agents = "" if row["agents"] == "random" else f" [{row['agents']}]"
        scores = "".join(f", {row[f'agent{j}']} scores {row[f'AgentScore{j}']:.3f}"
                         for j in range(1, 10) if f"agent{j}" in row and isinstance(
                             row[f"agent{j}"], str))
        print(f"  {name}{agents}: n={row['n']}, turns {row['DurationTurns']:.1f}, moves "
              f"{row['DurationMoves']:.1f}, timeouts {row['Timeouts']:.3f}, "
              f"P1 advantage {row['AdvantageP1']:.3f}{scores}, "
              f"{number_text(row['playouts_per_sec'])} playouts/s per process "
              "(playouts_per_sec)")
    for stop in r.stops:
        print(f"  until-ci: {stop_text(stop)}")
    if len(r.summary) > 1:
        print(f"  which differences are real: ludeme compare {shlex.quote(str(out))}")
    if r.interrupted:
        print(f"interrupted: kept the {done} playouts that had finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    if r.failed:
        print(f"kept the {len(r.summary)} ruleset(s) that played; {len(r.failed)} failed "
              "(above)", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0
