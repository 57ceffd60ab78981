"""Replay a reference trial recorded by Ludii and report the first disagreement.

A trace (see ../shared/refdata/README.md) holds, per decision: the mover, the
legal moves as (from, to) pairs, the index chosen, and the board afterwards.
"Agree" means, at every step: same mover; the same multiset of (from, to)
(with levelFrom, levelTo for stacking games); after applying the chosen move,
the same who and count on every board site (and, for stacking games, the same
stack at every site, bottom to top: owners and kinds), hand counts and scores,
the same `over` and next mover; and at the end the same winner and ranking.
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


def _require(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise LudemeError(f"{where}: {message}")


def validate_trace(data, path: str, need_file: bool = True) -> None:
    """Check a trace's shape before replaying it: a LudemeError naming the field, else None."""
    where = f"trace {path}"
    _require(isinstance(data, dict), where, f"expected a JSON object (a Ludii trace), found "
             f"{type(data).__name__}")
    if need_file:
        _require(isinstance(data.get("file"), str) and data["file"], where,
                 "'file' (the .lud file the trace was recorded from) is missing")
    for key, kind in (("optionsRequested", list), ("ruleset", str), ("game", str),
                      ("initial", dict), ("result", dict), ("isStacking", bool)):
        _require(data.get(key) is None or isinstance(data[key], kind), where,
                 f"'{key}' must be {kind.__name__}, found {type(data.get(key)).__name__}")
    steps = data.get("steps")
    _require(isinstance(steps, list), where, "'steps' (a list of decisions) is missing")
    for i, step in enumerate(steps):
        at = f"{where}: steps[{i}]"
        _require(isinstance(step, dict), at, "expected an object")
        for key in ("mover", "chosen"):
            _require(type(step.get(key)) is int, at, f"'{key}' (an integer) is missing")
        legal = step.get("legal")
        _require(isinstance(legal, list), at, "'legal' (the list of legal moves) is missing")
        for j, m in enumerate(legal):
            _require(isinstance(m, dict) and type(m.get("from")) is int
                     and type(m.get("to")) is int, f"{at}.legal[{j}]",
                     "expected an object with integer 'from' and 'to'")
        _require(0 <= step["chosen"] < len(legal), at,
                 f"'chosen' is {step['chosen']}, not an index of its {len(legal)} legal moves")
        board = step.get("board")
        _require(isinstance(board, dict), at, "'board' (the position after the move) is missing")
        for key in ("who", "count"):
            _require(board.get(key) is None or isinstance(board[key], list), f"{at}.board",
                     f"'{key}' must be a list")


def check_trace_game(data: dict, game, path: str) -> None:
    """A LudemeError when the trace was recorded for another game than `game`."""
    recorded = data.get("game")
    if recorded is not None and recorded != game.name:
        raise LudemeError(f"trace {path} was recorded for the game {recorded!r}, but the "
                          f"description loaded for it is {game.name!r}")


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


def _stack_diff(view: dict, snap: dict) -> str | None:
    """The first site whose stack (bottom to top: size, who, what) differs, or None."""
    stacks = view.get("stacks")
    if stacks is None or "stackWho" not in snap:
        return None
    for key, field in (("stackWho", 1), ("stackWhat", 0)):
        theirs = snap.get(key)
        if theirs is None:
            continue
        for site, (ours, want) in enumerate(zip(stacks, theirs)):
            got = [lv[field] for lv in ours]
            if got != list(want):
                return (f"stack at site {site} ({key}, bottom to top): expected {want}, "
                        f"produced {got}")
    return None


def _board_diff(state, snap: dict) -> str | None:
    """The first difference between our state and a trace snapshot, or None."""
    view = state.board_view()
    d = _stack_diff(view, snap)
    if d:
        return d
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
    # Ludii records stacks (and levels of moves) for stacking games only.
    stacking = bool(trace.get("isStacking")) or "stackWho" in (trace.get("initial") or {})
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
    if ludii_dir is not None and not Path(ludii_dir).is_dir():
        raise LudemeError(f"--ludii-dir {ludii_dir}: no such directory")
    for t in traces:
        data = read_trace(t)
        validate_trace(data, t, need_file=lud is None)
        name = f"{Path(t).parent.name}/{Path(t).name.split('.')[0]}"
        if lud is not None:
            path = lud
        else:
            base = Path(ludii_dir)
            path = str(base / data["file"]) if (base / data["file"]).exists() \
                else str(base / "games" / data["file"])
            if not Path(path).is_file():
                raise LudemeError(f"trace {t}: its file {data['file']!r} is not in {base} "
                                  f"nor in {base / 'games'}")
        options = tuple(data.get("optionsRequested") or ())
        ruleset = data.get("ruleset")
        key = (path, options, ruleset)
        if key not in cache:
            cache[key] = load(path, options=list(options), ruleset=ruleset)
        check_trace_game(data, cache[key], t)
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
