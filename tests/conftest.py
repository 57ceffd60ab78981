"""Shared fixtures: where Ludii's reference material is, and the project's descriptions."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from ludeme.model.ludemes import load_all

# Tests read the registry of ludemes directly (every family, every parameter).
load_all()


def pytest_configure(config):
    """The default suite runs the compiled backend's generated kernels as plain Python
    (numba's NUMBA_DISABLE_JIT, set before numba is imported, for this process and the
    workers and commands it starts): their rows are checked against the reference engine's
    in seconds, where compiling each game's kernels with numba takes half a minute. A run
    that selects the slow tests (`-m slow`), or sets LUDEME_TEST_JIT=1, compiles them with
    numba; tests/test_compiled.py's `test_numba_compiles_the_main_jobs_kernels` compiles
    one game's in every run."""
    global SLOW_DESELECTED
    SLOW_DESELECTED = (config.getoption("markexpr") or "").strip() == "not slow"
    if os.environ.get("LUDEME_TEST_JIT") == "1" or "NUMBA_DISABLE_JIT" in os.environ:
        return
    if SLOW_DESELECTED:
        os.environ["NUMBA_DISABLE_JIT"] = "1"


# True when the run deselects the slow tests (the default suite): parameter lists that
# only slow tests use, and that cost seconds to work out, are then left empty.
SLOW_DESELECTED = False

ROOT = Path(__file__).resolve().parent.parent
DESCRIPTIONS = ROOT / "descriptions"
# A game with no compiled form (every bundled description has one): the fall-back's tests.
NO_COMPILED_FORM = ROOT / "tests" / "no_compiled_form.lud"


@pytest.fixture
def auto_takes_kernels(monkeypatch):
    """`--backend auto` takes the compiled kernels, as with numba's JIT on: in the default
    suite they run as Python, where "auto" would otherwise play on the reference engine
    (`ludeme.engine.compiled.jit_off`)."""
    from ludeme.engine import compiled
    monkeypatch.setattr(compiled, "jit_off", lambda: False)


def ctrl_c_reaches_it() -> None:
    """`preexec_fn` of a child a test stops with SIGINT, as a terminal's Ctrl-C would: a
    shell that starts the tests in the background without job control (a CI runner may)
    makes SIGINT ignored, and every child inherits that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def shared_dir() -> Path | None:
    """`../shared` beside the checkout, or $LUDEME_SHARED_DIR."""
    env = os.environ.get("LUDEME_SHARED_DIR")
    p = Path(env) if env else ROOT.parent / "shared"
    return p if p.is_dir() else None


def ludii_dir() -> Path | None:
    """Ludii's .lud files: $LUDEME_LUDII_DIR, or ../shared/ludii."""
    env = os.environ.get("LUDEME_LUDII_DIR")
    if env:
        return Path(env) if Path(env).is_dir() else None
    s = shared_dir()
    return s / "ludii" if s and (s / "ludii").is_dir() else None


def refdata_dir() -> Path | None:
    """Ludii's recorded reference data: ../shared/refdata."""
    s = shared_dir()
    return s / "refdata" if s and (s / "refdata").is_dir() else None


@pytest.fixture
def ludii() -> Path:
    d = ludii_dir()
    if d is None:
        pytest.skip("Ludii's .lud files not found: put shared/ beside the checkout "
                    "or set LUDEME_LUDII_DIR")
    return d


@pytest.fixture
def refdata() -> Path:
    d = refdata_dir()
    if d is None:
        pytest.skip("Ludii reference data not found: put shared/ beside the checkout "
                    "or set LUDEME_SHARED_DIR")
    return d


def assert_corpus_trace_agrees(refdata: Path, ludii: Path, name: str) -> None:
    """Replay the corpus trace `name` (a file stem under refdata/corpus-traces) against its
    game; skip when the trace is not there."""
    from ludeme.analysis.crosscheck import crosscheck_files
    trace = refdata / "corpus-traces" / f"{name}.json.gz"
    if not trace.is_file():
        pytest.skip(f"{trace} not found")
    verdicts = crosscheck_files([str(trace)], ludii_dir=str(ludii),
                                index=str(refdata / "corpus-index.tsv"))
    bad = [v.line() for v in verdicts if not v.ok]
    assert not bad, "\n".join(bad)


@pytest.fixture
def ludeme_here(capfd):
    """`python -m ludeme ARGS` run by calling `main` in this process: the exit status and
    the output a subprocess would give, without a Python start-up (two to four seconds of
    imports) per call. Tests of what only a process of its own shows (signals, the
    start-up itself) keep the subprocess."""
    from types import SimpleNamespace

    from ludeme.cli.main import main

    def call(*args):
        capfd.readouterr()
        try:
            status = main([str(a) for a in args])
        except SystemExit as e:             # argparse's refusals
            status = e.code
        out, err = capfd.readouterr()
        return SimpleNamespace(returncode=status, stdout=out, stderr=err)
    return call
