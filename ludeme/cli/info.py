"""`ludeme info FILE`: the game name, options, rulesets and metadata info."""

from __future__ import annotations

import json


def add_parser(sub) -> None:
    """Register `ludeme info` on the main parser."""
    p = sub.add_parser("info", help="game name, options, rulesets and metadata")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(fn=run)


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


def run(args) -> int:
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
