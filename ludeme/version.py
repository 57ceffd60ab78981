"""The version of ludeme (one place: the package, the CLI and every run folder read it)."""

__version__ = "0.1.0"
