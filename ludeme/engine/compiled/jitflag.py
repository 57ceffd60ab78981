"""Whether numba's JIT is off, read as numba reads it. A module of its own, importing
neither numba nor the package, so that the package (which loads numba only when kernels
run) and `rt` (which the package imports) read the one flag the same way."""

from __future__ import annotations

import os


def jit_off() -> bool:
    """numba's JIT is turned off (NUMBA_DISABLE_JIT, as numba reads it): the kernels would
    run as Python, two to three times slower than the reference engine, so "auto" does not
    take them ("compiled" still does: the tests read the generated code that way)."""
    try:
        return int(os.environ.get("NUMBA_DISABLE_JIT") or 0) != 0
    except ValueError:
        return False
