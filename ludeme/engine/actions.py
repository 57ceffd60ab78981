"""The engine's one vocabulary of actions: what a move does, kind by kind.

A move (`ludeme.engine.state.Move`) carries a list of actions, plain tuples with
their kind first (`(A_MOVE, from, to)`), kept as tuples for speed. `ACTIONS` is the
table every part of ludeme reads about them: each kind's name, its fields, the
index of its destination site, whether it moves a piece from its origin, the Ludii
action class it stands for (Ludii's `other/action/...`: `ActionMove`, ...), and the
`State` method that applies it (`State.do_action` dispatches on this table; the three
commonest kinds are written inline there for speed, as the table says). The concepts
code reads each kind's Ludii class and the concepts of those classes (`LUDII_CONCEPTS`
below); the compiled code generator writes these codes into its kernels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .stores import TOP

# The codes (a kind's index in ACTIONS). Kept as module constants: rules build action
# tuples in their hot loops, and a constant is the cheapest thing to read.
A_MOVE = 0
A_REMOVE = 1
A_ADD = 2
A_SCORE = 3
A_NEXT = 4
A_SET_SCORE = 5
A_PASS = 6
A_COUNT = 7
A_FLIP = 8
A_MOVE_LEVEL = 9
A_MOVE_STACK = 10
A_REMOVE_LEVEL = 11
A_ADD_LEVEL = 12
A_SET_FIELD = 13
A_MOVE_N = 14
A_SWAP = 15
A_REMOVE_LATER = 16
A_SET_MOVER = 17
A_SET_VAR = 18
A_REMEMBER = 19
A_FORGET = 20
A_PENDING = 21
A_UPDATE_DIE = 22
A_USE_DIE = 23
A_DICE_EQUAL = 24
A_SET_COUNTER = 25
A_SUBMOVE = 26
A_SET_HIDDEN = 27
A_SELECT = 28
A_PLACED_FIELD = 29
A_COVER = 30
A_STORE_STATE = 31

@dataclass(frozen=True)
class ActionKind:
    """One kind of action: `fields` name the tuple's items after the kind."""

    code: int
    name: str
    fields: tuple[str, ...]
    doc: str
    ludii: str | None           # Ludii's action class (None: Ludii has no action for it)
    apply: str | None           # the State method that applies it (None: inline in do_action)
    to: int = 0                 # index of the destination site in the tuple (0: none)
    moving: bool = False        # a piece leaves the site at index 1
    # Ludii's class when it depends on the tuple or the game: (action, stacking) -> name
    ludii_of: Callable[[tuple, bool], str | None] | None = None

    def ludii_class(self, a: tuple, stacking: bool = False) -> str | None:
        """Ludii's action class for this action tuple (None: Ludii has none)."""
        return self.ludii_of(a, stacking) if self.ludii_of is not None else self.ludii

    def endpoints(self, a: tuple) -> tuple[int, int]:
        """(from, to) of the action as Ludii reports them (-1 where it has no site)."""
        if not self.to:
            return -1, -1
        return (a[1] if self.moving else a[self.to]), a[self.to]


_FIELD_CLASS = {"state": "SetState", "value": "SetValue", "rotation": "SetRotation"}

ACTIONS: tuple[ActionKind, ...] = (
    ActionKind(A_MOVE, "move", ("from", "to"), "move the top piece (a hand's count decrements)",
               "Move", None, to=2, moving=True),
    ActionKind(A_REMOVE, "remove", ("site",), "remove the piece (the top level) at a site",
               "Remove", None, to=1),
    ActionKind(A_ADD, "add", ("site", "what", "who", "count"), "add a piece to a site",
               "Add", None, to=1),
    ActionKind(A_SCORE, "add score", ("player", "delta"), "add to a player's score",
               "SetScore", "_do_score"),
    ActionKind(A_NEXT, "next player", ("player",), "set the next mover (moveAgain)",
               "SetNextPlayer", "_do_next"),
    ActionKind(A_SET_SCORE, "set score", ("player", "value"), "set a player's score",
               "SetScore", "_do_set_score"),
    ActionKind(A_PASS, "pass", (), "nothing: a pass", "Pass", "_do_pass"),
    ActionKind(A_COUNT, "set count", ("site", "count"), "set the count at a site",
               "SetCount", "_do_count", to=1),
    ActionKind(A_FLIP, "promote", ("site", "who", "what"), "change the owner and kind of the "
               "piece at a site", "Promote", "_do_flip", to=1),
    ActionKind(A_MOVE_LEVEL, "move level", ("from", "level from", "to", "level to"),
               "move one level of a stack (TOP = -1)", "Move", "_do_move_level", to=3,
               moving=True),
    ActionKind(A_MOVE_STACK, "move stack", ("from", "to"), "the whole stack onto the "
               "destination", "Move", "_do_move_stack", to=2, moving=True),
    ActionKind(A_REMOVE_LEVEL, "remove level", ("site", "level"), "remove one level of a stack",
               "Remove", "_do_remove_level", to=1),
    ActionKind(A_ADD_LEVEL, "add level", ("site", "what", "who", "count", "level"),
               "push a piece on a stack (TOP) or insert it at a level", "Add", "_do_add_level",
               to=1, ludii_of=lambda a, stacking: "Add" if a[5] == TOP else "Insert"),
    ActionKind(A_SET_FIELD, "set field", ("field", "site", "level", "value"),
               "set the state, rotation or value of a piece", None, "_do_set_field", to=2,
               ludii_of=lambda a, stacking: _FIELD_CLASS.get(a[1])),
    ActionKind(A_MOVE_N, "move n", ("from", "to", "n"), "n pieces of a counted site (Ludii's "
               "ActionMoveN)", "Move", "_do_move_n", to=2, moving=True,
               ludii_of=lambda a, stacking: "StackMove" if stacking else "Move"),
    ActionKind(A_SWAP, "swap", ("player", "player"), "swap two players' seats", "Swap",
               "_do_swap"),
    ActionKind(A_REMOVE_LATER, "remove later", ("site",), "mark a site for removal at the end "
               "of the turn", "RemoveNonApplied", "_do_remove_later", to=1),
    ActionKind(A_SET_MOVER, "set mover", ("player",), "who moves first (a start action)", None,
               "_do_set_mover"),
    ActionKind(A_SET_VAR, "set var", ("name", "value"), "a named variable (name None: Ludii's "
               "temp)", "SetVar", "_do_set_var", ludii_of=lambda a, stacking: _var_class(a)),
    ActionKind(A_REMEMBER, "remember", ("name", "value"), "add to the remembered values (name "
               "may be None)", "RememberValue", "_do_remember"),
    ActionKind(A_FORGET, "forget", ("name", "value"), "forget one value (value None: all of "
               "them)", "ForgetValue", "_do_forget"),
    ActionKind(A_PENDING, "pending", ("value",), "mark a value pending until the next move",
               "SetPending", "_do_pending"),
    ActionKind(A_UPDATE_DIE, "update die", ("site", "face"), "a die shows this face index, "
               "unused again", "SetStateAndUpdateDice", "_do_update_die", to=1),
    ActionKind(A_USE_DIE, "use die", ("site",), "a die's value was used", "UseDie",
               "_do_use_die", to=1),
    ActionKind(A_DICE_EQUAL, "dice equal", ("flag",), "whether the last roll gave equal faces",
               "SetDiceAllEqual", "_do_dice_equal"),
    ActionKind(A_SET_COUNTER, "set counter", ("value",), "Ludii's state counter", "SetCounter",
               "_do_set_counter"),
    ActionKind(A_SUBMOVE, "submove", ("move",), "a move nested in another: its actions, then "
               "its consequents, applied in place (Ludii's Move holding Moves as actions)",
               None, "_do_submove"),
    ActionKind(A_SET_HIDDEN, "set hidden", ("site", "data", "player", "hidden"), "hide from a "
               "player (or show) the piece at a site, or one of its data (What, Who, ...)",
               "SetHidden", "_do_set_hidden", to=1,
               ludii_of=lambda a, stacking: "SetHidden" + (a[2] or "")),
    ActionKind(A_SELECT, "select", ("from", "to"), "nothing: a decision that only picks its "
               "sites, its effect in its consequents (Ludii's ActionSelect, one action)",
               "Select", "_do_select"),
    ActionKind(A_PLACED_FIELD, "placed field", ("field", "site", "level", "value"), "the "
               "state, rotation or value a piece is added (or moved) with: part of the Add (or Move) "
               "before it, as Ludii's ActionAdd (ActionMove) carries them (not an action of "
               "its own)", None,
               "_do_placed_field", to=2),
    ActionKind(A_COVER, "cover", ("site", "cells", "covered"), "the cells a large piece at "
               "the site covers, no longer empty (covered True) or empty again as it leaves: "
               "part of the Add or Move beside it, as Ludii's ActionAdd and ActionMove do it "
               "(not an action of its own)", None, "_do_cover", to=1),
    ActionKind(A_STORE_STATE, "store state", (), "remember the position as it is when "
               "applied (Ludii's stored state, compared by (avoidStoredState ...))",
               "StoreStateInContext", "_do_store_state"),
)

# The variables (A_SET_VAR names) that hold Ludii's proposals and votes: Ludii has
# actions of their own for them.
PROPOSITIONS = ("vote", "propositions")
VOTES = ("vote", "votes")
# The variables that hold Ludii's betting state: the pot, and each player's amount (the
# name ("amount", player)), set by Ludii's ActionSetPot and ActionBet.
POT = ("bet", "pot")
AMOUNT = "amount"


def _var_class(a: tuple) -> str:
    if isinstance(a[1], tuple) and a[1][:1] == ("player",):
        return "SetValueOfPlayer"
    if isinstance(a[1], tuple) and a[1][:1] == (AMOUNT,):
        return "Bet"
    if a[1] == POT:
        return "SetPot"
    if a[1] == PROPOSITIONS:
        return "Propose"
    if a[1] == VOTES:
        return "Vote"
    return "SetVar"


assert [k.code for k in ACTIONS] == list(range(len(ACTIONS))), "codes are ACTIONS' indices"

# Per code: the destination's index (0: none), and the kinds with no site.
ACTION_TO = tuple(k.to for k in ACTIONS)
NO_SITE_ACTIONS = frozenset(k.code for k in ACTIONS if not k.to)
MOVING_ACTIONS = frozenset(k.code for k in ACTIONS if k.moving)


# ---------------------------------------------------------------- Ludii's action classes

# What Ludii's action classes say of themselves as concepts (their `concepts(context,
# movesLudeme)`), for the concepts code: by the class name Ludii's records give them.
LUDII_MOVING = frozenset({"Move", "MoveN", "SubStackMove", "Copy"})   # StackMove has none
LUDII_REMOVING = frozenset({"Remove", "RemoveNonApplied"})
# Classes whose records name their sites (from, to).
LUDII_SITED = frozenset({"Move", "StackMove", "Remove", "RemoveNonApplied", "Add", "Insert",
                         "Promote", "SetCount", "SetState", "SetValue", "SetRotation"})
# Capture concepts an occupied site removed takes from the moves ludeme (the applied
# removals also SowRemove and PushEffect).
REMOVE_CAPTURES = ("ReplacementCapture", "HopCapture", "DirectionCapture", "EncloseCapture",
                   "CustodialCapture", "InterveneCapture", "SurroundCapture",
                   "CaptureSequence", "SowCapture")
# Concepts a moved piece takes from the moves ludeme as they are (`ActionMove.concepts`).
MOVE_COPIED = ("HopEffect", "StepEffect", "LeapEffect", "SlideEffect", "FromToEffect",
               "SwapPiecesEffect", "SwapPiecesDecision", "SowCapture", "Sow", "SowRemove",
               "SowBacktracking")
# Classes whose concept names them only as a decision or an effect.
DECISION_OR_EFFECT = {"Pass": ("PassDecision", "PassEffect"),
           "Promote": ("PromotionDecision", "PromotionEffect"),
           "SetRotation": ("RotationDecision", "SetRotation"),
           "Vote": ("VoteDecision", "VoteEffect"), "Propose": ("ProposeDecision", "ProposeEffect"),
           "Bet": ("BetDecision", "BetEffect"),
           "SetTrumpSuit": ("ChooseTrumpSuitDecision", "SetTrumpSuit")}
# Classes with one concept whatever the ludeme.
PLAIN = {"SetCount": "SetCount", "SetValue": "SetValue", "SetStateAndUpdateDice": "Roll",
         "UseDie": "ByDieMove", "SetVar": "SetVar", "SetTemp": "SetVar",
         "RememberValue": "RememberValues", "ForgetValue": "ForgetValues",
         "SetPending": "SetPending", "SetCounter": "SetInternalCounter", "Trigger": "Trigger",
         "SetPhase": "SetPhase", "SetCost": "SetCost", "AddPlayerToTeam": "Coalition"}
