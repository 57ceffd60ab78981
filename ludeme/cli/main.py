"""The `ludeme` command line."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ludeme.version import __version__
from ludeme.errors import LudemeError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .lud description")
    p.add_argument("--option", action="append", default=[], metavar='"Category/Item"',
                   help="select an option item (repeatable)")
    p.add_argument("--ruleset", metavar="NAME", help="select a ruleset (with or without 'Ruleset/')")
    _add_limit_args(p)


def _add_limit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-expansion", type=int, metavar="STEPS", help=
                   "expansion budget (default 1,000,000 steps, or $LUDEME_MAX_EXPANSION)")


def _apply_limits(args) -> None:
    """--max-expansion goes to the environment, so worker processes see it too."""
    n = getattr(args, "max_expansion", None)
    if n is not None:
        if n < 1:
            raise LudemeError("--max-expansion must be a positive number of steps")
        os.environ["LUDEME_MAX_EXPANSION"] = str(n)


def cmd_expand(args) -> int:
    """Print the fully expanded game."""
    from ludeme.language.expand import expand_file
    ex = expand_file(args.file, args.option, args.ruleset)
    sys.stdout.write(ex.text(indent=None if args.compact else 4))
    return 0


def describe(path: str) -> dict:
    """Name, options, rulesets and metadata info of a description, as plain data."""
    from ludeme.language.expand import expand, load_description
    desc = load_description(path)
    ex = expand(desc)
    return {
        "file": path,
        "game": ex.name,
        "options": [{"category": o.category, "tag": o.tag, "args": o.args,
                     "default": o.default.name,
                     "items": [{"name": i.name, "help": i.help} for i in o.items]}
                    for o in desc.options],
        "rulesets": [{"name": r.name, "options": r.selections, "default": r.default}
                     for r in desc.rulesets],
        "info": ex.info(),
    }


def cmd_info(args) -> int:
    """List the game name, options, rulesets and metadata info."""
    d = describe(args.file)
    if args.json:
        print(json.dumps(d, indent=2, ensure_ascii=False))
        return 0
    print(f"game: {d['game']}")
    print(f"file: {d['file']}")
    if d["options"]:
        print("options:")
        for o in d["options"]:
            print(f"  {o['category']} <{o['tag']}>")
            for it in o["items"]:
                mark = "*" if it["name"] == o["default"] else " "
                helptext = f"  -- {it['help']}" if it["help"] else ""
                print(f"    {mark} {o['category']}/{it['name']}{helptext}")
    if d["rulesets"]:
        print("rulesets:")
        for r in d["rulesets"]:
            mark = "*" if r["default"] else " "
            print(f"  {mark} {r['name']}: {', '.join(r['options'])}")
    info = {k: v for k, v in d["info"].items() if k != "useFor"}
    if info:
        print("info:")
        for k, v in info.items():
            text = " ".join(str(v).split())
            print(f"  {k}: {text[:300]}{'...' if len(text) > 300 else ''}")
    if "useFor" in d["info"]:
        print(f"  useFor: entries for {len(d['info']['useFor'])} rulesets (see --json)")
    return 0


def cmd_check(args) -> int:
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    p = argparse.ArgumentParser(prog="ludeme", description=
                                "Read, expand, check and play Ludii .lud game descriptions.")
    p.add_argument("--version", action="version", version=f"ludeme {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    e = sub.add_parser("expand", help="print the fully expanded game")
    _add_game_args(e)
    e.add_argument("--compact", action="store_true", help="one line, no indentation")
    e.set_defaults(fn=cmd_expand)

    i = sub.add_parser("info", help="game name, options, rulesets and metadata")
    i.add_argument("file")
    i.add_argument("--json", action="store_true")
    i.set_defaults(fn=cmd_info)

    c = sub.add_parser("check", help="check many files; closes with 'N passed, M failed'")
    c.add_argument("files", nargs="+", help=".lud files or directories")
    c.add_argument("--stage", help="how far to go (default: the deepest stage there is)")
    c.add_argument("--all-rulesets", action="store_true",
                   help="check every ruleset (the default when a file has rulesets)")
    c.add_argument("--option", action="append", default=[], metavar='"Category/Item"')
    c.add_argument("--quiet", action="store_true", help="no lines for templates")
    _add_limit_args(c)
    c.set_defaults(fn=cmd_check)

    from ludeme.cli import commands  # later commands register themselves here
    commands.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point: run a subcommand; user errors print `file:line:col: message` and exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _apply_limits(args)
        return args.fn(args)
    except LudemeError as e:
        sys.stdout.flush()
        print(f"ludeme: error: {e.render()}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("ludeme: interrupted", file=sys.stderr)
        return 130
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
