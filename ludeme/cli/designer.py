"""`ludeme designer FILE`: Ludii's designer metrics, IdealDuration (with the turn bounds the
designer gives) and SkillTrace (UCT of growing strength against itself)
(`ludeme.analysis.designer`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ludeme.errors import LudemeError

from .common import add_game_args


def add_parser(sub) -> None:
    """`ludeme designer FILE [--ideal-turns MIN MAX] [--skill-trace] ...`."""
    from ludeme.analysis.designer import DEFAULT_MATCHES, DEFAULT_SECONDS, DEFAULT_TRIALS
    p = sub.add_parser("designer", help="Ludii's designer metrics: IdealDuration and "
                                        "SkillTrace")
    add_game_args(p)
    p.add_argument("--ideal-turns", nargs=2, type=float, metavar=("MIN", "MAX"),
                   help="IdealDuration over -n random playouts with these turn bounds "
                        "(Ludii's default 0 1000)")
    p.add_argument("-n", type=int, default=1000,
                   help="random playouts for IdealDuration (default 1000)")
    p.add_argument("--skill-trace", action="store_true",
                   help="SkillTrace: matches of UCT with 2, 4, 8, ... iterations per legal move "
                        "against twice that")
    p.add_argument("--matches", type=int, default=DEFAULT_MATCHES,
                   help=f"SkillTrace matches (default {DEFAULT_MATCHES}, Ludii's)")
    p.add_argument("--trials", type=int, default=DEFAULT_TRIALS,
                   help=f"games per SkillTrace match (default {DEFAULT_TRIALS}, Ludii's)")
    p.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                   help=f"SkillTrace time limit: no match begun after it counts (default "
                        f"{DEFAULT_SECONDS:g}, Ludii's)")
    p.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="processes for the IdealDuration playouts (default: all cores)")
    p.add_argument("--out", type=Path, default=None, metavar="FILE.json",
                   help="also write the figures as JSON")
    p.set_defaults(fn=run)


def run(args) -> int:
    """Play what the metrics asked for need; print each with its 95% interval."""
    from ludeme.analysis.designer import ideal_duration, skill_trace
    from ludeme.analysis.playouts import load, run_playouts
    if not args.ideal_turns and not args.skill_trace:
        raise LudemeError("ludeme designer: ask for --ideal-turns MIN MAX and/or --skill-trace")
    for name, value in (("-n", args.n), ("--matches", args.matches), ("--trials", args.trials)):
        if value < 1:
            raise LudemeError(f"{name} must be positive")
    if args.seed < 0:
        raise LudemeError("--seed must be non-negative")
    game = load(args.file, args.option, args.ruleset)
    out: dict = {"game": game.name, "ruleset": game.ruleset or "",
                 "options": list(game.options), "seed": args.seed}
    if args.ideal_turns:
        low, high = args.ideal_turns
        if not 0 <= low <= high or high <= 0:
            raise LudemeError("--ideal-turns needs 0 <= MIN <= MAX and MAX > 0")
        df = run_playouts(game, args.n, args.seed, args.jobs, progress=False)
        value, lo, hi = ideal_duration(df["turns"], low, high)
        out["IdealDuration"] = {"value": value, "ci_low": lo, "ci_high": hi, "n": len(df),
                                "min_turns": low, "max_turns": high}
        print(f"IdealDuration ({low:g} to {high:g} turns, {len(df)} random playouts): "
              f"{value:.3f} ({lo:.3f}-{hi:.3f})")
    if args.skill_trace:
        if game.num_players < 2:
            raise LudemeError(f"{game.name}: SkillTrace needs two or more players")

        def note(match: int, i: int) -> None:
            print(f"\rmatch {match + 1}, game {i + 1}", end="", file=sys.stderr, flush=True)
        trace = skill_trace(game, args.seed, args.matches, args.trials, args.seconds,
                            progress=note if sys.stderr.isatty() else None)
        if sys.stderr.isatty():
            print(file=sys.stderr)
        value, lo, hi = trace.interval()
        slope = trace.slope()
        out["SkillTrace"] = {"value": value, "ci_low": lo, "ci_high": hi,
                             "matches_asked": args.matches, "trials": args.trials,
                             "stopped_by_time": trace.stopped,
                             "slope": dict(zip(("value", "ci_low", "ci_high"), slope)),
                             "curve": [{"weak": w, "strong": s, "result": r, "ci_low": a,
                                        "ci_high": b, "utilities": u}
                                       for (w, s), (r, a, b), u in
                                       zip(trace.budgets, trace.curve(), trace.utilities)]}
        if not trace.utilities:
            # Not a result: the first match (the cheapest) did not end within the limit.
            print(f"SkillTrace: no match of {args.trials} games finished within the time "
                  f"limit ({args.seconds:g} s): no curve, no slope (Ludii's value of no "
                  f"match is {value:g})")
        else:
            print(f"SkillTrace ({len(trace.utilities)} matches of {args.trials} games"
                  f"{', stopped by the time limit' if trace.stopped else ''}): "
                  f"{value:.3f} ({lo:.3f}-{hi:.3f}); slope {slope[0]:.3f} "
                  f"({slope[1]:.3f}-{slope[2]:.3f}) per match")
        for (w, s), (r, a, b) in zip(trace.budgets, trace.curve()):
            print(f"  UCT {s} vs {w} iterations per legal move: strong agent's utility "
                  f"{r:.3f} ({a:.3f}-{b:.3f})")
    if args.out:
        args.out.write_text(json.dumps(out, indent=1, default=float) + "\n")
        print(f"wrote {args.out}")
    return 0
