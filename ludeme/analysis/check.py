"""`ludeme check`: run many descriptions through the front end (and later stages) and count."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ludeme.errors import LudemeError
from ludeme.language.expand import Description, Expanded, expand, load_description
from ludeme.language.grammar import tokenize
from ludeme.language.syntax import Template

def _compile(ex: Expanded, carry: dict) -> None:
    from ludeme.model.build import build_game
    carry["game"] = build_game(ex)


def _run(ex: Expanded, carry: dict) -> None:
    """A few seeded random playouts, cut after some decisions; a crash becomes a failure."""
    from .conformance import random_playout
    game = carry["game"]
    for seed in (1, 2):
        try:
            random_playout(game, seed, max_decisions=RUN_STAGE_DECISIONS)
        except LudemeError:
            raise
        except Exception as e:  # an engine bug must be reported, not crash the whole check
            raise LudemeError(f"runtime error in a random playout (seed {seed}): "
                              f"{type(e).__name__}: {e}", ex.game.pos) from None


RUN_STAGE_DECISIONS = 300

# Stages run in order: name -> function(expanded, carry) raising LudemeError on failure.
STAGES: dict[str, Callable[[Expanded, dict], None] | None] = {
    "expand": None, "compile": _compile, "run": _run}


def deepest_stage() -> str:
    """The last stage the program has."""
    return list(STAGES)[-1]


@dataclass
class FileResult:
    """What checking one file found."""

    path: str
    verdict: str = "passed"                 # passed | failed | template
    failures: list[str] = field(default_factory=list)   # one line each
    unknowns: list[str] = field(default_factory=list)   # "line:col [#]" for templates
    rulesets: int = 0


def template_parts(templates: list[Template]) -> list[str]:
    """`line:col [text]` for each unknown part, in source order."""
    seen = sorted({(t.pos.line, t.pos.col, t.text) for t in templates})
    return [f"{line}:{col} [{text}]" for line, col, text in seen]


def _token_templates(path: str, text: str) -> list[str]:
    """Template marks found by the scanner alone, for a template the parser cannot read."""
    try:
        toks = tokenize(text, path)
    except LudemeError:
        return []
    from ludeme.language.grammar import _LineIndex
    lines = _LineIndex(text, path)
    out = []
    for i, t in enumerate(toks):
        if t.kind == "lbracket":
            j = i + 1
            while j < len(toks) and toks[j].kind != "rbracket":
                j += 1
            end = toks[j].offset if j < len(toks) else t.offset + 1
            p = lines.pos(t.offset)
            out.append(f"{p.line}:{p.col} [{text[t.offset + 1:end].strip()}]")
    return out


def _run_stages(ex: Expanded, stage: str, backend: str = "reference") -> None:
    carry: dict = {}
    for name, fn in STAGES.items():
        if fn is not None:
            fn(ex, carry)
        if name == stage:
            break
    if backend == "compiled":
        _compiled_form(ex, carry)


def _compiled_form(ex: Expanded, carry: dict) -> None:
    """The compiled backend's verdict on the game (the code generator's, numba not run)."""
    from ludeme.engine.compiled import missing_form
    game = carry.get("game")
    if game is None:
        _compile(ex, carry)
        game = carry["game"]
    lacks = missing_form(game)
    if lacks is not None:
        raise LudemeError(f"no compiled form: the compiled backend lacks {lacks}",
                          lacks.pos or ex.game.pos, path=lacks.path or "")


CHECK_BACKENDS = ("reference", "compiled")


def _line(e: LudemeError, path: str, ruleset: str | None) -> str:
    where = str(e.pos) if e.pos else path
    rs = f" [{ruleset}]" if ruleset else ""
    via = f" (used at {e.via[0]})" if e.via else ""
    ctx = f" (in {e.path})" if e.path else ""
    if e.pos and not e.via and not _same_file(e.pos.file, path):
        # a define's text (a library's .def) is where it stopped: say which game used it
        via = f" (checking {path})"
    return f"{where}:{rs} {e.message}{ctx}{via}"


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a == b


def check_file(path: str, stage: str | None = None, all_rulesets: bool | None = None,
               options: list[str] = (), backend: str = "reference") -> FileResult:
    """Check one file through `stage` for its default options and (by default) every ruleset;
    with `backend` "compiled", also whether the game has a compiled form (a failure naming
    what it lacks when not)."""
    if backend not in CHECK_BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(CHECK_BACKENDS)}, not {backend!r}")
    stage = stage or deepest_stage()
    res = FileResult(path)
    try:
        desc: Description = load_description(path)
    except LudemeError as e:
        text = Path(path).read_text(encoding="utf-8", errors="replace") \
            if os.path.exists(path) else ""
        marks = _token_templates(path, text)
        if marks:
            res.verdict, res.unknowns = "template", marks
            res.failures.append(_line(e, path, None))
        else:
            res.verdict = "failed"
            res.failures.append(_line(e, path, None))
        return res
    runs: list[str | None] = [None]
    if desc.rulesets and (all_rulesets is None or all_rulesets):
        runs += [r.name for r in desc.rulesets]
    res.rulesets = len(runs) - 1
    default_templates: list[Template] = []
    for rs in runs:
        try:
            ex = expand(desc, options, rs)
        except LudemeError as e:
            res.failures.append(_line(e, path, rs))
            continue
        if ex.templates:
            if rs is None:
                default_templates = ex.templates
            continue  # a template ruleset is neither passed nor failed
        try:
            _run_stages(ex, stage, backend)
        except LudemeError as e:
            res.failures.append(_line(e, path, rs))
    if default_templates:
        res.verdict = "template"
        res.unknowns = template_parts(default_templates)
    elif res.failures:
        res.verdict = "failed"
    return res


def find_lud_files(paths: list[str]) -> list[str]:
    """Files named, and .lud files below named directories, sorted."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            out.extend(sorted(str(f) for f in Path(p).rglob("*.lud")))
        else:
            out.append(p)
    return out


def summary_line(results: list[FileResult]) -> str:
    """`N passed, M failed` (then `, T templates` when there were any)."""
    passed = sum(r.verdict == "passed" for r in results)
    failed = sum(r.verdict == "failed" for r in results)
    templates = sum(r.verdict == "template" for r in results)
    line = f"{passed} passed, {failed} failed"
    return line + (f", {templates} templates" if templates else "")


__all__ = ["check_file", "find_lud_files", "summary_line", "STAGES", "CHECK_BACKENDS",
           "deepest_stage"]
