"""`Unsupported`: what the compiled backend refuses (a module of its own, so that the
package, the code generator and the emitters all import it without a cycle)."""

from __future__ import annotations


class Unsupported(Exception):
    """A ludeme (or an argument of one) with no compiled form yet."""

    def __init__(self, lud, what: str = ""):
        name = f"({lud.keyword}{' ' + lud.kind if lud.kind else ''})" if lud is not None else ""
        super().__init__(f"{name} {what}".strip())
