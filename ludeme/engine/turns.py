"""The turn, stated once: what happens when a decision is applied, in Ludii's order.

Ludii's `Game.apply` / `applyInternal` (with `Move.apply` and `End.eval`) make a turn
a fixed sequence of steps. Both engines follow this statement: the reference
engine's `State.apply` and the compiled turn loop (`ludeme.engine.compiled.codegen`,
its `step` kernel) mark each step with a comment `# turn: <name>`, in this order, and
`tests/test_turns.py` checks that they do. A step the compiled loop does not write
is one whose games it refuses (`check_game` says so, naming the feature); the
statement says which.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TurnStep:
    """One step of a turn: its name (the marker), what it does, and whether the compiled
    loop writes it (else: the feature it needs, which `check_game` refuses)."""

    name: str
    does: str
    compiled: bool | str = True


TURN: tuple[TurnStep, ...] = (
    TurnStep("record", "the decision is counted and stored among the moves played, before "
             "its consequents run (Ludii's Move.apply stores it in the trial first: (all "
             "Passed) sees it); pending values are cleared and a pass notes a stalemate"),
    TurnStep("actions", "the decision's actions, in order (`ludeme.engine.actions`); the "
             "last from/to/mover are set"),
    TurnStep("consequents", "its consequents (`then`), each evaluated now, with their own "
             "consequents; with (automove), the moves then forced join them (Ludii's "
             "Automove, `State._add_forced_moves`; the compiled loop refuses it)"),
    TurnStep("end-of-turn removals", "pieces marked for removal on a capture sequence go "
             "when the decision does not continue it"),
    TurnStep("end rules", "the mover's phase's end rules, then the game's"),
    TurnStep("all pass", "a pass by every player in turn is a draw where end rules are "
             "evaluated"),
    TurnStep("limits", "the turn and move limits end the game as a timeout"),
    TurnStep("phases", "each player's phase changes where its next-phase rules hold"),
    TurnStep("next mover", "the counter ticks; unless the game is over the next player moves "
             "(a moveAgain keeps the mover), skipping players no longer active; turn "
             "counters follow"),
    TurnStep("repetition", "the position is recorded for (no Repeat ...)"),
)

STEP_NAMES = tuple(s.name for s in TURN)
MARKER = "# turn: "
