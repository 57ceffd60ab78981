"""Replay a reference trial recorded by Ludii and report the first disagreement.

A trace (see ../shared/refdata/README.md) holds, per decision: the mover, the
legal moves as (from, to) pairs, the index chosen, and the board afterwards.
"Agree" means, at every step: same mover; the same multiset of (from, to)
(levels too for stacking games); after applying the chosen move, the same
who and count on every board site, hand counts and scores, the same
`over` and next mover; and at the end the same winner and ranking.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .errors import LudemeError


@dataclass
class Verdict:
    """The outcome of replaying one trace."""

    trace: str
    steps: int            # steps in the trace
    agreed: int           # steps that agreed before the first disagreement
    ok: bool
    detail: str = ""

    def line(self) -> str:
        """One line for the report."""
        if self.ok:
            return f"{self.trace}: agreed, {self.agreed}/{self.steps} steps"
        return f"{self.trace}: DISAGREED after {self.agreed}/{self.steps} steps: {self.detail}"


def read_trace(path: str | Path) -> dict:
    """A trace file (.json or .json.gz) as a dict."""
    p = Path(path)
    try:
        opener = gzip.open if p.suffix == ".gz" else open
        with opener(p, "rt", encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError, EOFError) as e:
        raise LudemeError(f"cannot read trace {p}: {e}") from None


def _pairs(legal: list, stacking: bool) -> Counter:
    if stacking:
        return Counter((m["from"], m["to"], m.get("levelFrom", 0), m.get("levelTo", 0))
                       for m in legal)
    return Counter((m["from"], m["to"]) for m in legal)


def _our_pairs(moves, stacking: bool) -> Counter:
    if stacking:
        return Counter((m.frm, m.to, m.level_from, m.level_to) for m in moves)
    return Counter((m.frm, m.to) for m in moves)


def _fmt(counter: Counter, limit: int = 12) -> str:
    items = sorted(counter.elements())
    shown = ", ".join(f"{a}-{b}" if len(t) == 2 else "-".join(map(str, t))
                      for t in items[:limit] for a, b in [t[:2]])
    return f"[{shown}{', ...' if len(items) > limit else ''}] ({len(items)})"


def _board_diff(state, snap: dict) -> str | None:
    """The first difference between our state and a trace snapshot, or None."""
    view = state.board_view()
    for key in ("who", "count"):
        ours, theirs = view[key], snap.get(key)
        if theirs is None:
            continue
        if ours != theirs:
            diff = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
            if len(ours) != len(theirs):
                return f"{key}: {len(ours)} board sites here, {len(theirs)} in the trace"
            return (f"{key} differs at sites {diff[:8]}: expected "
                    f"{[theirs[i] for i in diff[:8]]}, produced {[ours[i] for i in diff[:8]]}")
    hands = snap.get("hands") or []
    for h, ours in zip(hands, view["hands"]):
        if list(h.get("count", [])) != list(ours):
            return f"hand {h.get('container')} counts: expected {h.get('count')}, produced {ours}"
    if "scores" in snap and list(snap["scores"]) != list(view["scores"]):
        return f"scores: expected {snap['scores']}, produced {view['scores']}"
    return None


def replay(game, trace: dict, name: str = "") -> Verdict:
    """Replay one trace on a compiled game."""
    stacking = bool(trace.get("isStacking", False))
    steps = trace.get("steps", [])
    state = game.new_initial_state()
    init = trace.get("initial")
    if init is not None:
        d = _board_diff(state, init)
        if d:
            return Verdict(name, len(steps), 0, False, f"initial position: {d}")
    for i, step in enumerate(steps):
        where = f"step {step.get('step', i)}"
        if state.is_terminal():
            return Verdict(name, len(steps), i, False, f"{where}: the game is already over here")
        if state.mover != step["mover"]:
            return Verdict(name, len(steps), i, False,
                           f"{where}: mover expected {step['mover']}, produced {state.mover}")
        legal = state.legal_moves()
        expected, produced = _pairs(step["legal"], stacking), _our_pairs(legal, stacking)
        if expected != produced:
            missing, extra = expected - produced, produced - expected
            return Verdict(name, len(steps), i, False,
                           f"{where} (mover {state.mover}): legal moves differ; expected "
                           f"{_fmt(expected)}, produced {_fmt(produced)}; missing "
                           f"{_fmt(missing)}, extra {_fmt(extra)}")
        chosen = step["legal"][step["chosen"]]
        key = (chosen["from"], chosen["to"])
        candidates = [m for m in legal if (m.frm, m.to) == key
                      and (not stacking or (m.level_from, m.level_to)
                           == (chosen.get("levelFrom", 0), chosen.get("levelTo", 0)))]
        after = None
        for m in candidates:
            trial = state.clone()
            trial.apply(m)
            if len(candidates) == 1 or _board_diff(trial, step["board"]) is None:
                after = trial
                break
        if after is None:
            trial = state.clone()
            trial.apply(candidates[0])
            after = trial
        d = _board_diff(after, step["board"])
        if d:
            return Verdict(name, len(steps), i, False, f"{where} after {key[0]}-{key[1]}: {d}")
        if bool(step.get("over")) != after.is_terminal():
            return Verdict(name, len(steps), i, False,
                           f"{where}: over expected {step.get('over')}, produced "
                           f"{after.is_terminal()}")
        if not after.is_terminal() and "nextMover" in step and after.mover != step["nextMover"]:
            return Verdict(name, len(steps), i, False,
                           f"{where}: next mover expected {step['nextMover']}, produced "
                           f"{after.mover}")
        state = after
    result = trace.get("result") or {}
    if result.get("over"):
        if not state.is_terminal():
            return Verdict(name, len(steps), len(steps), False, "the trace ended the game, "
                           "this engine did not")
        if result.get("winner", 0) != (state.winner or 0):
            return Verdict(name, len(steps), len(steps), False,
                           f"winner expected {result.get('winner')}, produced {state.winner}")
        ranking = result.get("ranking")
        if ranking is not None and [float(r) for r in ranking] != state.ranking[1:]:
            return Verdict(name, len(steps), len(steps), False,
                           f"ranking expected {ranking}, produced {state.ranking[1:]}")
    return Verdict(name, len(steps), len(steps), True)


def crosscheck_files(traces: list[str], ludii_dir: str | None = None,
                     lud: str | None = None) -> list[Verdict]:
    """Replay each trace against Ludii's file (found in `ludii_dir`) or against `lud`."""
    from .api import load
    cache: dict = {}
    out = []
    for t in traces:
        data = read_trace(t)
        name = f"{Path(t).parent.name}/{Path(t).name.split('.')[0]}"
        if lud is not None:
            path = lud
        else:
            base = Path(ludii_dir)
            path = str(base / data["file"]) if (base / data["file"]).exists() \
                else str(base / "games" / data["file"])
        options = tuple(data.get("optionsRequested") or ())
        ruleset = data.get("ruleset")
        key = (path, options, ruleset)
        if key not in cache:
            cache[key] = load(path, options=list(options), ruleset=ruleset)
        out.append(replay(cache[key], data, name))
    return out


def add_subcommand(sub) -> None:
    """`ludeme crosscheck TRACE... (--ludii-dir DIR | --lud FILE)`."""
    p = sub.add_parser("crosscheck", help="replay Ludii reference traces and report the first "
                                          "disagreement")
    p.add_argument("traces", nargs="+", help="trace files (.json.gz) or directories of them")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--ludii-dir", help="where Ludii's .lud files are (the trace's `file`)")
    g.add_argument("--lud", help="replay against this description instead")
    p.set_defaults(fn=_run)


def _run(args) -> int:
    files: list[str] = []
    for t in args.traces:
        p = Path(t)
        if p.is_dir():
            files.extend(sorted(str(f) for f in p.rglob("*.json.gz")))
        else:
            files.append(t)
    if not files:
        raise LudemeError(f"no traces found in {', '.join(args.traces)}")
    verdicts = crosscheck_files(files, args.ludii_dir, args.lud)
    for v in verdicts:
        print(v.line())
    agreed = sum(v.ok for v in verdicts)
    print(f"{agreed} agreed, {len(verdicts) - agreed} disagreed")
    return 0 if agreed == len(verdicts) else 1
