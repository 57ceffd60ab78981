"""ludeme: read, expand, play and analyse Ludii .lud game descriptions in Python.

    import ludeme
    game = ludeme.load("descriptions/adzua_children.lud",
                       ruleset="Adzua (Children) (Ludii 5) (Reconstructed)")
    df = ludeme.run_playouts(game, n=1000, seed=1)   # one row per playout
    ludeme.summarize(df)                              # Ludii's metrics with 95% intervals
"""

from .version import __version__  # noqa: E402

from .errors import LudemeError, Pos  # noqa: E402
from ludeme.language.expand import Expanded, expand, expand_file, load_description  # noqa: E402

# The playouts and the statistics pull in scipy, pandas and joblib: load them on first use
# so that every `ludeme` command does not pay for them.
_LAZY = {"load": ("api", "load"), "run_playouts": ("analysis.playouts", "run_playouts"),
         "summarize": ("analysis.metrics", "summarize"), "api": ("api", None)}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        mod = importlib.import_module(f"ludeme.{module}")
        value = mod if attr is None else getattr(mod, attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ludeme' has no attribute {name!r}")


__all__ = ["LudemeError", "Pos", "Expanded", "expand", "expand_file", "load_description",
           "load", "run_playouts", "summarize", "__version__"]
