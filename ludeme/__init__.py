"""ludeme: read, expand, play and analyse Ludii .lud game descriptions in Python.

    import ludeme
    game = ludeme.load("descriptions/adzua_children.lud",
                       ruleset="Adzua (Children) (Ludii 5) (Reconstructed)")
    df = ludeme.run_playouts(game, n=1000, seed=1)   # one row per playout
    ludeme.summarize(df)                              # Ludii's metrics with 95% intervals
"""

__version__ = "0.1.0"

from .errors import LudemeError, Pos  # noqa: E402
from .expand import Expanded, expand, expand_file, load_description  # noqa: E402

# The runner and the statistics pull in scipy, pandas and joblib: load them on first use
# so that every `ludeme` command does not pay for them.
_LAZY = {"load": ("runner", "load"), "run_playouts": ("runner", "run_playouts"),
         "summarize": ("metrics", "summarize")}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(f"ludeme.{module}"), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ludeme' has no attribute {name!r}")


__all__ = ["LudemeError", "Pos", "Expanded", "expand", "expand_file", "load_description",
           "load", "run_playouts", "summarize", "__version__"]
