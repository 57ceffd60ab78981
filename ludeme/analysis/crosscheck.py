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
import re
import signal
import threading
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ludeme.engine.state import REPLAYING
from ludeme.errors import LudemeError, printable

from .trials import (SUFFIX as TRIAL_SUFFIX, decisions, is_trial_file, pick, read_trial,
                     recorded_roll, same_dice_used)


@dataclass
class Verdict:
    """The outcome of replaying one trace: agreed, disagreed, or unsupported at a stage."""

    trace: str
    steps: int            # steps in the trace
    agreed: int           # steps that agreed before the first disagreement
    ok: bool
    detail: str = ""
    status: str = ""      # agreed | disagreed | unsupported | timeout | invalid (bad file)
    stage: str = ""       # for unsupported: expand | compile | run
    ludeme: str = ""      # for unsupported: the first ludeme refused
    family: str = ""

    def __post_init__(self):
        if not self.status:
            self.status = "agreed" if self.ok else "disagreed"

    def line(self) -> str:
        """One line for the report."""
        if self.status == "agreed":
            return f"{self.trace}: agreed, {self.agreed}/{self.steps} steps"
        if self.status == "unsupported":
            return f"{self.trace}: unsupported ({self.stage}): {self.detail}"
        if self.status == "invalid":
            return f"{self.trace}: INVALID TRACE: {self.detail}"
        if self.status == "timeout":
            return (f"{self.trace}: TIMED OUT after {self.agreed}/{self.steps} steps agreed "
                    f"(no verdict; --time-limit raises the limit): {self.detail}")
        return f"{self.trace}: DISAGREED after {self.agreed}/{self.steps} steps: {self.detail}"


def read_trace(path: str | Path) -> dict:
    """A trace file (.json or .json.gz) as a dict; a Ludii trial file (.trl) as
    `trials.read_trial` reads it."""
    p = Path(path)
    if is_trial_file(p):
        return read_trial(p)
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
    if isinstance(data, dict) and data.get("trial"):
        return                                  # checked by `read_trial`
    _require(isinstance(data, dict), where, f"expected a JSON object (a Ludii trace), found "
             f"{type(data).__name__}")
    if need_file:
        _require(isinstance(data.get("file"), str) and data["file"], where,
                 "'file' (the .lud file the trace was recorded from) is missing")
    for key, kind in (("optionsRequested", list), ("ruleset", str), ("game", str),
                      ("players", int), ("initial", dict), ("result", dict),
                      ("isStacking", bool)):
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
    """A LudemeError when the trace was recorded for another game than `game`, or for
    another number of players."""
    recorded = data.get("game")
    if recorded is not None and recorded != game.name:
        raise LudemeError(f"trace {path} was recorded for the game {recorded!r}, but the "
                          f"description loaded for it is {game.name!r}")
    players = data.get("players")
    if players is not None and players != game.num_players:
        raise LudemeError(f"trace {path} was recorded with 'players' {players}, but "
                          f"{game.name!r} as loaded for it has {game.num_players}")


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
    """Replay one trace on a compiled game; a refusal at run time is `unsupported (run)`,
    an engine crash a disagreement that names the exception."""
    progress = [0]
    n = len(decisions(trace) if trace.get("trial") else trace.get("steps", []))
    try:
        if trace.get("trial"):
            return _replay_trial(game, trace, name, progress)
        return _replay(game, trace, name, progress)
    except LudemeError as e:
        return unsupported(name, n, "run", e)
    except TimeLimit as e:
        return Verdict(name, n, progress[0], False, str(e),
                       status="timeout")
    except Exception as e:  # an engine bug: reported on its trace, the run goes on
        return Verdict(name, n, progress[0], False,
                       f"step {progress[0]}: internal error {type(e).__name__}: {e}")


def _replay(game, trace: dict, name: str, progress: list) -> Verdict:
    # Ludii records stacks (and levels of moves) for stacking games only.
    stacking = bool(trace.get("isStacking")) or "stackWho" in (trace.get("initial") or {})
    steps = trace.get("steps", [])
    init = trace.get("initial")
    rules = getattr(game, "game", game)     # (the kernels' game: its reference game)
    places = _recorded_places(rules, init)
    if init is not None and getattr(rules, "unrecorded_random_start", None) is not None:
        # Ludii's traces record who and what is on each site at the start, not its state
        # or value: with one piece placed at random by several rules that set them, the
        # recorded start cannot say which rule placed which (Paintscape's 60 squares), and
        # a value drawn at random (Shogun's) is not recorded at all.
        # So is the order of a stack placed at random in a hand (Chex's): a hand's site
        # is recorded by its top piece.
        what, why = rules.unrecorded_random_why
        raise rules.unrecorded_random_start.fail(
            f"replaying a trace of a start that {what} is not supported yet: {why}")
    # (The kernels take the reference's start with the places forced: CompiledState.start_as.)
    state = game.new_initial_state() if places is None else \
        game.new_initial_state(forced_places=places)
    _replaying(state)
    if init is not None:
        d = _board_diff(state, init)
        if d:
            return Verdict(name, len(steps), 0, False, f"initial position: {d}")
    for i, step in enumerate(steps):
        progress[0] = i
        d = _before_step(state, step["mover"], step["legal"])
        if d:
            return Verdict(name, len(steps), i, False, f"step {step.get('step', i)}: {d}")
        where = f"step {step.get('step', i)}"
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
        # Several moves may share (from, to) and lead to the same board (a sow along either
        # of two tracks that ends where it began): try first the one at the chosen move's
        # rank among Ludii's legal moves with that pair (both list them in rule order).
        rank = sum(1 for e in step["legal"][:step["chosen"]] if (e["from"], e["to"]) == key
                   and (not stacking or (e.get("levelFrom", 0), e.get("levelTo", 0))
                        == (chosen.get("levelFrom", 0), chosen.get("levelTo", 0))))
        if rank < len(candidates):
            candidates.insert(0, candidates.pop(rank))
        if len(candidates) > 1:
            candidates = same_dice_used(candidates, chosen.get("str", ""))
        after = None
        for m in candidates:
            trial = state.clone()
            trial.apply(m)
            if len(candidates) == 1 or _board_diff(trial, step["board"]) is None:
                after, played = trial, m
                break
        if after is None:
            played = candidates[0]
            after = state.clone()
            after.apply(played)
        d = _board_diff(after, step["board"])
        if d:
            return Verdict(name, len(steps), i, False,
                           f"{where} after {key[0]}-{key[1]} ({played}): {d}")
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
        d = _result_diff(state, result.get("winner", 0), result.get("ranking"), "trace")
        if d:
            return Verdict(name, len(steps), len(steps), False, d)
    return Verdict(name, len(steps), len(steps), True)


def _replaying(state) -> None:
    """Mark a reference state as replaying a record (the kernels' states draw nothing they
    would have to refuse: a game drawing sites at random has no compiled form)."""
    notes = getattr(state, "notes", None)
    if notes is not None:
        notes[REPLAYING] = True


def _recorded_places(game, init: dict | None) -> dict[int, list[int]] | None:
    """Piece index -> the board sites holding it in Ludii's recorded start, for a game whose
    start places pieces at random (forced as recorded dice rolls are), else None."""
    if not getattr(game, "places_at_random", False) or not init or "what" not in init:
        return None
    places: dict[int, list[int]] = {}
    for site, what in enumerate(init["what"]):
        if what:
            places.setdefault(what, []).append(site)
    return places


def _before_step(state, mover: int, recorded_moves: list) -> str | None:
    """What is wrong before replaying a recorded step (the game over, another mover), else
    None; on a game with dice, the recorded roll (in `recorded_moves`' text) is forced."""
    if state.is_terminal():
        return "the game is already over here"
    if state.mover != mover:
        return f"mover expected {mover}, produced {state.mover}"
    if state.g.uses_chance:
        state.force_roll = recorded_roll(recorded_moves)
    return None


def _result_diff(state, winner: int, ranking: list | None, what: str) -> str | None:
    """How the end of a replay differs from the recorded end (the game over, winner and
    ranking, players 1..n), else None."""
    if not state.is_terminal():
        return f"the {what} ended the game, this engine did not"
    if winner != (state.winner or 0):
        return f"winner expected {winner}, produced {state.winner}"
    if ranking is not None and [float(r) for r in ranking] != state.ranking[1:]:
        return f"ranking expected {ranking}, produced {state.ranking[1:]}"
    return None


def _replay_trial(game, trial: dict, name: str, progress: list) -> Verdict:
    """A Ludii trial has no legal moves nor boards: each recorded move must be one of ours at
    its step (`trials.pick`), by the same mover, and the end the recorded one."""
    steps = decisions(trial)
    state = game.new_initial_state()
    _replaying(state)
    for i, rec in enumerate(steps):
        progress[0] = i
        where = f"step {i} (Move line {trial['placements'] + i + 1})"
        d = _before_step(state, rec["mover"], [rec])
        if d:
            return Verdict(name, len(steps), i, False, f"{where}: {d}")
        legal = state.legal_moves()
        cands = pick(legal, rec)
        if not cands:
            ours = ", ".join(sorted({f"{m.frm}-{m.to} ({m})" for m in legal})[:12])
            return Verdict(name, len(steps), i, False,
                           f"{where} (mover {state.mover}): Ludii's move {rec['from']}-"
                           f"{rec['to']} is not among ours: {ours or 'none'}")
        state = state.clone()
        state.apply(cands[0])
    if "winner" in trial or "endtype" in trial:
        ranking = trial.get("rankings")
        d = _result_diff(state, trial.get("winner", 0), ranking and ranking[1:], "trial")
        if d:
            return Verdict(name, len(steps), len(steps), False, d)
    return Verdict(name, len(steps), len(steps), True)


class TimeLimit(Exception):
    """A trace ran past its time limit."""


def unsupported(name: str, steps: int, stage: str, e: LudemeError) -> Verdict:
    """The verdict for a game this engine refuses, naming the first ludeme refused."""
    text = " ".join(e.render(excerpt=False).split())
    return Verdict(name, steps, 0, False, text, status="unsupported", stage=stage,
                   ludeme=refused_ludeme(e))


def refused_ludeme(e: LudemeError) -> str:
    """The ludeme an error names: `(keyword ...)` in its message, else its ludeme path's tail."""
    m = re.search(r"\(([A-Za-z][\w:]*)(?: ([A-Z]\w*))?", e.message)
    if m:
        return " ".join(g for g in m.groups() if g)
    if e.path:
        return e.path.rstrip("/").rsplit("/", 1)[-1]
    return "?"


# --- finding Ludii's file for a trace -------------------------------------------------------

INDEX_NAME = "corpus-index.tsv"


@dataclass(frozen=True)
class Job:
    """One trace to replay and where its description is (or why it cannot be found)."""

    trace: str
    name: str
    lud: str | None
    family: str
    error: str = ""
    invalid: bool = False    # the trace itself is bad (`error` says why): no replay


class Locator:
    """Finds the .lud of a trace: the corpus index's path when the trace is listed there,
    else the trace's `file` directly under the Ludii folder or its `games/`, else the one
    file of that name anywhere under the Ludii folder."""

    def __init__(self, ludii_dir: str, index: str | None = None):
        self.base = Path(ludii_dir)
        if not self.base.is_dir():
            raise LudemeError(f"--ludii-dir {ludii_dir}: no such directory")
        self.index: dict[str, tuple[str, str]] = {}
        if index is not None:
            self._read_index(Path(index))
        self._by_name: dict[str, list[Path]] | None = None

    def _read_index(self, path: Path) -> None:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as e:
            raise LudemeError(f"cannot read the corpus index {path}: {e}") from None
        head = lines[0].split("\t") if lines else []
        if not {"name", "path", "family"} <= set(head):
            raise LudemeError(f"{path}: expected a header with name, path and family columns")
        col = {h: i for i, h in enumerate(head)}
        for ln in lines[1:]:
            f = ln.split("\t")
            if len(f) >= len(head):
                self.index[f[col["name"]]] = (f[col["path"]], f[col["family"]])

    def find(self, trace_path: str, data: dict) -> tuple[str | None, str, str]:
        """(path or None, family, why not found)."""
        stem = Path(trace_path).name.split(".")[0]
        if stem in self.index:
            rel, family = self.index[stem]
            for cand in (self.base / "corpus" / rel, self.base / rel):
                if self._inside(cand) and cand.is_file():
                    return str(cand), family, ""
            return None, family, f"{rel} (from the corpus index) is not under {self.base}"
        family = Path(trace_path).parent.name
        if data.get("trial"):
            return self._by_game(data["game"], family)
        file = data.get("file")
        if not file:
            return None, family, "the trace names no `file`"
        if not file.endswith(".lud") or Path(file).is_absolute() or ".." in Path(file).parts:
            # A trace is data: it may name a description under --ludii-dir, nothing else.
            return None, family, (f"the trace's file {printable(file)!r} is not a .lud path "
                                  f"inside {self.base}")
        for cand in (self.base / file, self.base / "games" / file):
            if self._inside(cand) and cand.is_file():
                return str(cand), family, ""
        hits = self._names().get(Path(file).name, [])
        if len(hits) == 1:
            return str(hits[0]), family, ""
        if not hits:
            return None, family, f"no {Path(file).name} under {self.base}"
        return None, family, (f"{Path(file).name} is ambiguous under {self.base}: "
                              + ", ".join(str(h.relative_to(self.base)) for h in hits))

    def _by_game(self, game: str, family: str) -> tuple[str | None, str, str]:
        """A trial names its game, not its file: Ludii's file of that name under `games/`,
        else the one file of that name under the Ludii folder whose `(game "...")` is it."""
        file = f"{game}.lud"
        if "/" in game or game.startswith("."):
            return None, family, f"the trial's game {printable(game)!r} is not a game name"
        cand = self.base / "games" / file
        if self._inside(cand) and cand.is_file():
            return str(cand), family, ""
        hits = []
        for h in self._names().get(file, []):
            try:
                if f'(game "{game}"' in h.read_text(encoding="utf-8", errors="replace"):
                    hits.append(h)
            except OSError:
                continue
        if len({h.resolve() for h in hits}) == 1:
            return str(hits[0]), family, ""
        if not hits:
            return None, family, f"no {file} defining (game {game!r}) under {self.base}"
        return None, family, (f"{file} is ambiguous under {self.base}: "
                              + ", ".join(str(h.relative_to(self.base)) for h in hits))

    def _inside(self, path: Path) -> bool:
        """Whether `path`, links resolved, lies under --ludii-dir."""
        try:
            return path.resolve().is_relative_to(self.base.resolve())
        except OSError:
            return False

    def _names(self) -> dict[str, list[Path]]:
        if self._by_name is None:
            self._by_name = {}
            for f in sorted(self.base.rglob("*.lud")):
                if self._inside(f):             # a link out of --ludii-dir is not followed
                    self._by_name.setdefault(f.name, []).append(f)
        return self._by_name


def find_index(traces: list[str]) -> str | None:
    """A corpus index beside the traces' folder or in it, if there is one."""
    for t in traces:
        for d in (Path(t).parent, Path(t).parent.parent):
            if (d / INDEX_NAME).is_file():
                return str(d / INDEX_NAME)
    return None


# --- replaying, one group of traces per game, in worker processes ---------------------------

DEFAULT_TIME_LIMIT = 60.0
WORKER_MEMORY = 4 << 30      # bytes of address space per worker: a game that explodes fails alone


@contextmanager
def time_limit(seconds: float | None, what: str):
    """Raise TimeLimit inside the block after `seconds` (main thread of a process only)."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return

    def _ring(signum, frame):
        raise TimeLimit(f"time limit of {seconds:g}s reached {what}")
    old = signal.signal(signal.SIGALRM, _ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _limit_memory() -> None:
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft > WORKER_MEMORY:
            resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, hard))
    except (ImportError, ValueError, OSError):
        pass


def _load_stage(path: str, options: list, ruleset, seconds):
    """Expand then compile; a refusal says at which stage ("request": the trace asks for an
    option or ruleset the description does not have, the trace's fault)."""
    from ludeme.model.build import build_game
    from ludeme.language.expand import expand, load_description
    stage = "expand"
    try:
        with time_limit(seconds, "while loading"):
            desc = load_description(path)
            stage = "request"
            for spec in options:
                desc.resolve_option(spec, given="the trace's optionsRequested")
            if ruleset:
                desc.find_ruleset(ruleset)
            stage = "expand"
            ex = expand(desc, options, ruleset)
            stage = "compile"
            return build_game(ex), None, stage
    except LudemeError as e:
        return None, e, stage


def run_group(jobs: list[Job], seconds: float | None, in_worker: bool = True,
              backend: str = "reference") -> list[Verdict]:
    """Replay the traces of one game (same file, options and ruleset): load once, replay each,
    on the reference engine or the compiled kernels (`backend`, see `ludeme.engine.compiled`)."""
    from ludeme.engine.compiled import Unsupported
    from .playouts import compiled_of
    if in_worker:
        _limit_memory()
    out: list[Verdict] = []
    game = err = None
    stage = ""
    loaded = False
    for job in jobs:
        if job.invalid:
            out.append(Verdict(job.name, 0, 0, False, job.error, status="invalid",
                               family=job.family))
            continue
        try:
            data = read_trace(job.trace)      # checked by `plan`; read again in the worker
        except LudemeError as e:
            out.append(Verdict(job.name, 0, 0, False, str(e), status="invalid",
                               family=job.family))
            continue
        n = len(decisions(data) if data.get("trial") else data.get("steps", []))
        if job.lud is None:
            v = Verdict(job.name, n, 0, False, f"cannot find the description: {job.error}")
        else:
            if not loaded:
                loaded = True
                try:
                    game, err, stage = _load_stage(job.lud, list(data.get("optionsRequested")
                                                                 or ()), data.get("ruleset"),
                                                   seconds)
                except TimeLimit as e:
                    err, stage = e, "load"
                except Exception as e:  # an engine bug while building: reported, run goes on
                    err, stage = e, "load"
            if isinstance(err, LudemeError) and stage == "request":
                v = Verdict(job.name, n, 0, False, f"trace {job.trace}: {err}",
                            status="invalid")
            elif isinstance(err, LudemeError):
                v = unsupported(job.name, n, stage, err)
            elif isinstance(err, TimeLimit):
                v = Verdict(job.name, n, 0, False, str(err), status="timeout")
            elif err is not None:
                v = Verdict(job.name, n, 0, False, f"internal error while loading: "
                            f"{type(err).__name__}: {err}")
            else:
                try:      # compile before the clock starts: the limit is for replaying
                    compiled_of(game, backend)
                except Unsupported:
                    pass                         # said in the verdict below
                with time_limit(seconds, "while replaying"):
                    try:
                        check_trace_game(data, game, job.trace)
                        v = replay(compiled_of(game, backend) or game, data, job.name)
                    except LudemeError as e:     # a trace recorded for another game
                        v = Verdict(job.name, n, 0, False, str(e), status="invalid")
                    except Unsupported as e:     # --backend compiled on a game it cannot compile
                        v = Verdict(job.name, n, 0, False, f"no compiled form for {e} yet",
                                    status="unsupported", stage="compile", ludeme=str(e))
                    except TimeLimit as e:
                        v = Verdict(job.name, n, 0, False, str(e), status="timeout")
        v.family = job.family
        out.append(v)
    return out


def plan(traces: list[str], ludii_dir: str | None = None, lud: str | None = None,
         index: str | None = None) -> list[list[Job]]:
    """The traces as groups sharing one compiled game, in the order given."""
    locator = None
    if lud is None:
        locator = Locator(ludii_dir, index if index is not None else find_index(traces))
    groups: dict[tuple, list[Job]] = {}
    for t in traces:
        name = f"{Path(t).parent.name}/{Path(t).name.split('.')[0]}"
        # A trace that cannot be read or is not a trace is that trace's invalid verdict; the
        # others are still replayed.
        try:
            data = read_trace(t)
            validate_trace(data, t, need_file=lud is None)
        except LudemeError as e:
            groups[(t, "invalid")] = [Job(t, name, None, Path(t).parent.name, str(e), True)]
            continue
        if lud is not None:
            path, family, why = lud, Path(t).parent.name, ""
        else:
            path, family, why = locator.find(t, data)
        key = (path or t, tuple(data.get("optionsRequested") or ()), data.get("ruleset"))
        groups.setdefault(key, []).append(Job(t, name, path, family, why))
    return list(groups.values())


def crosscheck_files(traces: list[str], ludii_dir: str | None = None, lud: str | None = None,
                     *, index: str | None = None, jobs: int = 1,
                     seconds: float | None = DEFAULT_TIME_LIMIT,
                     backend: str = "reference") -> list[Verdict]:
    """Replay each trace against Ludii's file (found under `ludii_dir`) or against `lud`."""
    return [v for vs in iter_crosscheck(traces, ludii_dir, lud, index=index, jobs=jobs,
                                        seconds=seconds, backend=backend) for v in vs]


def iter_crosscheck(traces, ludii_dir=None, lud=None, *, index=None, jobs=1,
                    seconds=DEFAULT_TIME_LIMIT, backend="reference"):
    """Verdicts group by group, in order, as they are ready. With several jobs the groups run in
    worker processes; a worker that dies takes only its own game with it."""
    groups = plan(traces, ludii_dir, lud, index)
    if jobs <= 1 or len(groups) <= 1:
        for g in groups:
            yield run_group(g, seconds, in_worker=False, backend=backend)
        return
    from joblib import Parallel, delayed
    from joblib.externals.loky.process_executor import TerminatedWorkerError
    done = 0
    try:
        for vs in Parallel(n_jobs=jobs, return_as="generator")(
                delayed(run_group)(g, seconds, True, backend) for g in groups):
            done += 1
            yield vs
    except TerminatedWorkerError:
        # Re-run what is left one game at a time, so the game that kills a worker is named.
        for g in groups[done:]:
            try:
                yield Parallel(n_jobs=1, backend="loky")(
                    [delayed(run_group)(g, seconds, True, backend)])[0]
            except TerminatedWorkerError as e:
                yield [Verdict(j.name, 0, 0, False, f"the worker process died: {e}",
                               family=j.family) for j in g]


def trace_files(paths: list[str]) -> list[str]:
    """The trace files given: files as they are, directories by every `*.json.gz` and Ludii
    trial file (`*.trl`) under them."""
    files: list[str] = []
    for t in paths:
        p = Path(t)
        if p.is_dir():
            files.extend(sorted(str(f) for pat in ("*.json.gz", "*" + TRIAL_SUFFIX)
                                for f in p.rglob(pat)))
        elif p.is_file():
            files.append(t)
        else:
            raise LudemeError(f"no such trace file or directory: {t}")
    if not files:
        raise LudemeError(f"no traces found in {', '.join(paths)}")
    return files


def closing_line(verdicts: list[Verdict]) -> str:
    """`N agreed, M disagreed, U unsupported`."""
    c = Counter(v.status for v in verdicts)
    line = f"{c['agreed']} agreed, {c['disagreed']} disagreed, {c['unsupported']} unsupported"
    if c["timeout"]:
        line += f", {c['timeout']} timed out"
    return line + (f", {c['invalid']} invalid traces" if c["invalid"] else "")


def summary_tables(verdicts: list[Verdict]) -> str:
    """A table by family (counts and share agreed) and one by the first unsupported ludeme."""
    fam: dict[str, Counter] = {}
    for v in verdicts:
        fam.setdefault(v.family or "?", Counter())[v.status] += 1
    rows = [("family", "traces", "agreed", "disagreed", "unsupported", "timed out", "% agreed")]
    total = Counter()
    for f in sorted(fam):
        c = fam[f]
        total.update(c)
        rows.append(_fam_row(f, c))
    rows.append(_fam_row("all", total))
    out = [_table(rows)]
    refused = Counter((v.ludeme or "?", v.stage) for v in verdicts if v.status == "unsupported")
    if refused:
        urows = [("first unsupported ludeme", "stage", "traces")]
        urows += [(lud, st, str(n)) for (lud, st), n in
                  sorted(refused.items(), key=lambda kv: (-kv[1], kv[0]))]
        out.append(_table(urows))
    return "\n\n".join(out) + "\n"


def _fam_row(name: str, c: Counter) -> tuple:
    n = sum(c.values())
    pct = f"{100 * c['agreed'] / n:.1f}" if n else "-"
    return (name, str(n), str(c["agreed"]), str(c["disagreed"]), str(c["unsupported"]),
            str(c["timeout"]), pct)


def _table(rows: list[tuple]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for k, r in enumerate(rows):
        cells = [r[0].ljust(widths[0])] + [x.rjust(w) for x, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
