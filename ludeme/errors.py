"""One exception family for everything a user can get wrong, with positions."""

from __future__ import annotations

import difflib
import os
import unicodedata
from dataclasses import dataclass

# The largest file ludeme reads as a description or a position (Ludii's largest corpus
# file is under 0.5 MB); $LUDEME_MAX_FILE_BYTES raises it.
DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024
# An excerpt shows at most this many characters of a source line, around the fault.
EXCERPT_WIDTH = 100


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
                    line, col = excerpt_line(src[self.pos.line - 1], self.pos.col)
                    lines.append(f"  {self.pos.line:>4} | {line}")
                    lines.append("       | " + " " * (col - 1) + "^")
        for p in self.via:
            lines.append(f"  used at {p}")
        return "\n".join(printable(x) for x in lines)


def printable(text: str) -> str:
    """`text` with every control character (ANSI escapes included) shown as an escape,
    so that echoing what a user wrote cannot drive the terminal."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else _escape(c) for c in text)


def _escape(c: str) -> str:
    if unicodedata.category(c) == "Zs":
        return " "
    return repr(c)[1:-1] if ord(c) < 0x10000 else f"\\U{ord(c):08x}"


def excerpt_line(line: str, col: int, width: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """A source line as an excerpt shows it: tabs as one space, control characters
    escaped, cut to `width` characters around column `col`; and the caret's column."""
    line = line.expandtabs(1)
    start = 0
    if len(line) > width:
        start = max(0, min(col - 1 - width // 2, len(line) - width))
        cut = line[start:start + width]
        line = ("..." if start else "") + cut + ("..." if start + width < len(line) else "")
        col = col - start + (3 if start else 0)
    head = line[:col - 1]
    shown = printable(head)
    return printable(line), len(shown) + 1


def read_source(path: str | os.PathLike, what: str = "file") -> str:
    """The text of a file the user named: UTF-8, a byte-order mark allowed; refused with a
    clear error when it cannot be read, is not UTF-8 (at the first bad byte's line and
    column), or is larger than $LUDEME_MAX_FILE_BYTES (16 MiB by default)."""
    path = os.fspath(path)
    limit = max_file_bytes()
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except IsADirectoryError:
        raise LudemeError(f"cannot read {path}: it is a directory, not a {what}") from None
    except OSError as e:
        raise LudemeError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise LudemeError(f"{path}: the {what} is larger than {limit:,} bytes (set "
                          "$LUDEME_MAX_FILE_BYTES to read larger files)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        before = data[start:e.start].decode("utf-8")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        raise LudemeError(f"the {what} is not UTF-8 text: byte 0x{data[e.start]:02x} at byte "
                          f"offset {e.start} cannot be decoded (save it as UTF-8)",
                          Pos(path, line, col),
                          source=data[start:].decode("utf-8", errors="replace")) from None


def max_file_bytes() -> int:
    """The size limit of files read (`read_source`)."""
    try:
        return max(1, int(os.environ.get("LUDEME_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES)))
    except ValueError:
        return DEFAULT_MAX_FILE_BYTES


def _read(path: str) -> str | None:
    try:
        return read_source(path)
    except LudemeError:
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
