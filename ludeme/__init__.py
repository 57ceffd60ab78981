"""ludeme: read, expand, play and analyse Ludii .lud game descriptions in Python."""

__version__ = "0.1.0"

from .errors import LudemeError, Pos  # noqa: E402
from .expand import Expanded, expand, expand_file, load_description  # noqa: E402

__all__ = ["LudemeError", "Pos", "Expanded", "expand", "expand_file", "load_description",
           "__version__"]
