"""One exception family for everything a user can get wrong, with positions."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pos:
    """A place in a source file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class LudemeError(Exception):
    """A bad description or bad request: carries a position, a ludeme path and a hint."""

    def __init__(self, message: str, pos: Pos | None = None, *, path: str = "",
                 via: tuple[Pos, ...] = (), source: str | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.path = path
        self.via = via
        self.source = source  # full text of pos.file, for the caret excerpt

    def __str__(self) -> str:
        return self.render(excerpt=False)

    def render(self, excerpt: bool = True) -> str:
        """`file:line:col: message`, then the source line with a caret, then where it was used."""
        head = f"{self.pos}: " if self.pos else ""
        where = f" (in {self.path})" if self.path else ""
        lines = [f"{head}{self.message}{where}"]
        if excerpt and self.pos:
            text = self.source if self.source is not None else _read(self.pos.file)
            if text is not None:
                src = text.splitlines()
                if 0 < self.pos.line <= len(src):
                    line = src[self.pos.line - 1].expandtabs(1)
                    lines.append(f"  {self.pos.line:>4} | {line}")
                    lines.append("       | " + " " * (self.pos.col - 1) + "^")
        for p in self.via:
            lines.append(f"  used at {p}")
        return "\n".join(lines)


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return None


def suggest(name: str, known) -> str:
    """A ' (did you mean X?)' hint when a known name is close to `name`."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def known_list(known, limit: int = 12) -> str:
    """Render a short list of known names for an error message."""
    names = sorted(known)
    shown = ", ".join(repr(n) for n in names[:limit])
    more = f", ... ({len(names) - limit} more)" if len(names) > limit else ""
    return shown + more
