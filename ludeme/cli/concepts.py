"""`ludeme concepts FILE`: Ludii's concepts of a game; diff, index, nearest games
(`ludeme.analysis.concepts`, `ludeme.analysis.concepts_playout`)."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from ludeme.errors import LudemeError


def add_parser(sub) -> None:
    """`ludeme concepts FILE [--option|--ruleset|--all-rulesets] [--playouts N] [--json|--csv]` and more."""
    p = sub.add_parser("concepts", help="Ludii's concepts of a game; diff, index, nearest games")
    p.add_argument("file", nargs="?", help="a .lud description")
    p.add_argument("--option", action="append", default=[], metavar='"Category/Item"')
    p.add_argument("--ruleset", metavar="NAME")
    p.add_argument("--all-rulesets", action="store_true", help="every ruleset of the file")
    p.add_argument("--playouts", type=int, default=0, metavar="N",
                   help="also measure playout concepts over N playouts (uniform random "
                        "unless --agents)")
    p.add_argument("--agents", "--agent", metavar="A,B,...", default=None,
                   help="with --playouts: one agent per player, in order, as `ludeme run "
                        "--agents` (random, greedy, uct or uct:iterations=N,...)")
    p.add_argument("--seed", type=int, default=0, help="the playouts' run seed (default 0)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="JSON as Ludii's concept records")
    fmt.add_argument("--csv", action="store_true", help="one row per configuration and concept")
    p.add_argument("--diff", nargs=2, metavar="CONFIG",
                   help="which concepts differ between two FILE[::ruleset or option] configurations")
    p.add_argument("--index", type=Path, metavar="DIR",
                   help="index the compile-time concepts of every .lud under DIR (with --out)")
    p.add_argument("--out", type=Path, metavar="INDEX", help="where --index writes (JSON)")
    p.add_argument("--nearest", type=int, metavar="K",
                   help="the K games of --against INDEX nearest to FILE")
    p.add_argument("--against", type=Path, metavar="INDEX", help="an index written by --index")
    p.set_defaults(fn=run)


def _configs(args) -> list[tuple[str, tuple, str | None]]:
    from ludeme.analysis.playouts import ruleset_names
    if args.all_rulesets and args.ruleset:
        raise LudemeError("--ruleset and --all-rulesets exclude each other")
    rulesets = ruleset_names(args.file) if args.all_rulesets else [args.ruleset]
    return [(args.file, tuple(args.option), r) for r in rulesets]


def run(args) -> int:
    """Dispatch: --index, --diff, --nearest, or the concepts of FILE."""
    from ludeme.analysis.concepts import compile_time, diff, nearest, read_index, write_index
    if args.nearest is not None and args.nearest < 1:
        raise LudemeError(f"--nearest must be a positive number of games, got {args.nearest}")
    if args.index:
        if not args.out:
            raise LudemeError("--index DIR needs --out INDEX")
        entries, failures = write_index(args.index, args.out)
        print(f"indexed {len(entries)} games into {args.out}; {len(failures)} did not compile "
              f"(listed in the index under 'failures')")
        return 0
    if args.diff:
        from ludeme.analysis.compare import parse_spec
        a, b = (compile_time(*parse_spec(spec)) for spec in args.diff)
        d = diff(a, b)
        if args.json:
            print(json.dumps(d, indent=2))
        else:
            print(f"Jaccard similarity {d['jaccard']:.3f}")
            print(f"only in {args.diff[0]}: {', '.join(d['only_a']) or '(none)'}")
            print(f"only in {args.diff[1]}: {', '.join(d['only_b']) or '(none)'}")
            for k, (x, y) in d["non_boolean"].items():
                print(f"  {k}: {x} vs {y}")
        return 0
    if not args.file:
        raise LudemeError("give a .lud FILE (or --diff A B, or --index DIR --out INDEX)")
    if args.playouts < 0:
        raise LudemeError("--playouts must be positive")
    if args.agents and not args.playouts:
        raise LudemeError("--agents needs --playouts N (the agents play the playouts)")
    results = []
    for path, options, ruleset in _configs(args):
        gc = compile_time(path, options, ruleset)
        if args.playouts:
            from ludeme.analysis.concepts_playout import add_playout_concepts
            add_playout_concepts(gc, args.playouts, args.seed, agents=args.agents)
        results.append(gc)
    if args.nearest is not None:
        if not args.against:
            raise LudemeError("--nearest K needs --against INDEX (written by --index DIR --out)")
        index = read_index(args.against)
        for gc in results:
            print(f"{gc.game} {gc.ruleset or ''}".strip())
            for r in nearest(gc, index, args.nearest):
                print(f"  {r['jaccard_distance']:.3f}  {r['cosine_distance']:.3f}  {r['name']}  "
                      f"({r['path']})")
        return 0
    if args.json:
        data = [gc.to_json() for gc in results]
        print(json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False))
    elif args.csv:
        _write_csv(results)
    else:
        _print_text(results)
    return 0


def _write_csv(results) -> None:
    """Tidy: game, ruleset, concept, type, computation, value; a playout concept's row also
    names the agents (one per player) and the number of playouts that measured it."""
    from ludeme.analysis.concepts import catalog
    cat = catalog()
    w = csv.writer(sys.stdout)
    w.writerow(["game", "ruleset", "options", "concept", "id", "type", "computation", "value",
                "agents", "playouts"])
    for gc in results:
        base = [gc.game, gc.ruleset or "", "; ".join(gc.options)]
        for name in sorted(gc.boolean, key=lambda c: cat[c].id):
            c = cat[name]
            w.writerow([*base, name, c.id, c.type, c.computation, "true"])
        for name, value in gc.non_boolean.items():
            c = cat[name]
            w.writerow([*base, name, c.id, c.type, c.computation, value])
        for name, value in gc.playout.items():     # with the agents and playouts behind them
            w.writerow([*base, name, cat[name].id, cat[name].type, "Playout", f"{value:.6g}",
                        " ".join(gc.playout_agents), gc.playout_count])


def _print_text(results) -> None:
    """Grouped as the catalogue groups them."""
    from ludeme.analysis.concepts import catalog
    cat = catalog()
    for gc in results:
        print(f"{gc.game}{' / ' + gc.ruleset if gc.ruleset else ''}: {len(gc.boolean)} concepts")
        by_type: dict[str, list[str]] = {}
        for name in sorted(gc.boolean, key=lambda c: cat[c].id):
            if cat[name].leaf:
                by_type.setdefault(cat[name].type, []).append(name)
        for t, names in by_type.items():
            print(f"  {t}: {', '.join(names)}")
        print("  numbers: " + ", ".join(f"{k}={v}" for k, v in gc.non_boolean.items()))
        if gc.playout:
            print(f"  playouts ({gc.playout_source}): "
                  + ", ".join(f"{k}={v:.4g}" for k, v in gc.playout.items()))
