"""Typed ludemes: one class per ludeme, one module per family (Ludii's packages).

Importing this package registers nothing. `load_all()` imports every family module
below it (found by `pkgutil`, the board ludemes of `graph/` included), after which
`base.REGISTRY` holds every ludeme by keyword. Each module imports what it builds
on, and the registry keeps each keyword's classes in a fixed order (see
`base.ludeme`), so the order in which modules load changes nothing.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import mark_loaded


def family_modules() -> list[str]:
    """The dotted names of every module that defines ludemes, in name order."""
    return sorted(m.name for m in pkgutil.walk_packages(__path__, prefix=f"{__name__}.")
                  if not m.ispkg)


def load_all() -> None:
    """Import every family module, so that every ludeme is registered."""
    for name in family_modules():
        importlib.import_module(name)
    mark_loaded()
