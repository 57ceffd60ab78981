"""`Unsupported`: what the compiled backend refuses (a module of its own, so that the
package, the code generator and the emitters all import it without a cycle)."""

from __future__ import annotations


class Unsupported(Exception):
    """A ludeme (or an argument of one) with no compiled form yet."""

    def __init__(self, lud, what: str = ""):
        name = f"({lud.keyword}{' ' + lud.kind if lud.kind else ''})" if lud is not None else ""
        super().__init__(f"{name} {what}".strip())
        # Where the ludeme is written, and its path in the game, when there is one.
        node = getattr(lud, "node", None)
        self.pos = getattr(node, "pos", None)
        self.path = getattr(lud, "path", None)


# The start of the message of a ValueError a kernel raises where the reference engine
# refuses a position at run time (a `LudemeError`, "... is not supported yet"): the
# compiled state raises the reference's refusal in its place (`CompiledState.apply`).
RUN_REFUSAL = "not supported yet: "


def run_refused(e: Exception) -> str | None:
    """What a kernel's ValueError says the kernels refused at run time (`RUN_REFUSAL`), or
    None for any other error."""
    text = str(e)
    return text[len(RUN_REFUSAL):] if isinstance(e, ValueError) and \
        text.startswith(RUN_REFUSAL) else None
