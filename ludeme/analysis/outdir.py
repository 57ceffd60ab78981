"""The output folder of a run or a comparison: checked before anything is played, and held
by one command at a time. Only the standard library: `ludeme run` takes the folder, and
refuses a bad one, before it imports the report's pandas, scipy and matplotlib."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from pathlib import Path


def check_out_dir(out: str | Path, make: bool = True) -> Path:
    """`out` as a directory ludeme can write into (made if missing and `make`), or a LudemeError:
    a name that is not UTF-8, a link to nowhere or in a loop, a file on the way, no permission.
    What it echoes of the name is escaped (`printable`)."""
    from ludeme.errors import LudemeError, printable
    out = Path(out)
    try:
        str(out).encode("utf-8")
    except UnicodeEncodeError:      # a name of bytes that are not UTF-8 (os.fsencode's escapes)
        shown = printable(os.fsencode(out).decode("utf-8", "backslashreplace"))
        raise LudemeError(f"--out {shown}: the name is not valid UTF-8; give a directory "
                          "whose name is UTF-8 text") from None
    for p in [out, *out.parents]:
        if p.is_symlink() and not p.exists():   # a link to nowhere, or in a loop
            what = f"--out {printable(str(out))}" + ("" if p == out else f": {printable(str(p))}")
            try:
                os.stat(p)
                why = "cannot be followed"
            except OSError as e:
                why = ("is a symbolic link in a loop" if e.errno == errno.ELOOP else
                       f"is a symbolic link to {printable(os.readlink(p))}, which does not exist")
            raise LudemeError(f"{what} {why}; give a directory (made if missing) for the "
                              "tables and reports")
        if p.exists():
            if not p.is_dir():
                what = printable(f"--out {out}" if p == out else f"--out {out}: {p}")
                raise LudemeError(f"{what} is a file, not a directory; give a directory "
                                  "(made if missing) for the tables and reports")
            if not os.access(p, os.W_OK | os.X_OK):
                raise LudemeError(printable(f"--out {out}: cannot write into {p}: "
                                            "permission denied"))
            break
    if make:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise LudemeError(printable(f"--out {out}: cannot make the directory: "
                                        f"{e.strerror}")) from None
    return out


_MARKERS: dict[Path, str | None] = {}


def _read_marker(out: Path) -> str | None:
    try:
        return (out / ".run").read_text(encoding="utf-8")
    except OSError:
        return None


def _started_marker(out: Path) -> str | None:
    return _MARKERS.get(out.resolve())


def note_run_start(out: str | Path) -> None:
    """Remember which run's files `out` held when this run started (to notice another run)."""
    _MARKERS[Path(out).resolve()] = _read_marker(Path(out))


@contextlib.contextmanager
def run_lock(out: str | Path):
    """Hold `out` for one `ludeme run` from its first playout to its last file: a second run
    into the same folder meanwhile is refused at once (a LudemeError naming the process
    that holds it), instead of both playing for nothing and one's files replacing the
    other's. The lock is a POSIX flock on `out/.running`, released when the process ends
    however it ends; a folder made for a run that wrote nothing is removed again."""
    from ludeme.errors import LudemeError, printable
    out = Path(out)
    made = not out.exists()
    check_out_dir(out)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock
        yield
        return
    holder = out / ".running"
    fh = open(holder, "a+", encoding="utf-8")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.seek(0)
        who = fh.read().strip()
        fh.close()
        raise LudemeError(f"--out {printable(str(out))}: another ludeme run"
                          f"{f' (process {printable(who)})' if who else ''} is writing into "
                          "it; wait for it to finish, or give another --out") from None
    try:
        fh.truncate(0)
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        yield
    finally:
        if made and [p.name for p in out.iterdir()] == [holder.name]:
            shutil.rmtree(out, ignore_errors=True)      # nothing played: nothing left
        fh.truncate(0)
        fh.close()                                      # releases the lock


@contextlib.contextmanager
def _locked(path: Path):
    """An exclusive lock on `path` (POSIX flock; no lock where flock is missing)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: renames alone
        yield
        return
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
