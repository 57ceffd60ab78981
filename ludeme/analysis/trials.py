"""Ludii's trial files (.trl), as `Trial.saveTrialToTextFile` writes them, read and replayed.

A trial file holds a header (`game=`, the options between `START GAME OPTIONS` and
`END GAME OPTIONS`, the `RNG internal state`), one `Move=` line per move in Ludii's move
syntax (`[Move:mover=..,from=..,to=..,actions=[...],[...]]`), the first
`numInitialPlacementMoves` of them being the start rules' placements, then the end:
`winner`, `endtype`, `rankings` (index 0 unused). Unlike a trace (`crosscheck`), it has no
legal moves nor boards: a replay matches each recorded move to one of ours at that step and
checks the mover, the move's existence and, when the trial ran to its end, the result.
"""

from __future__ import annotations

import re
from pathlib import Path

from ludeme.engine.actions import A_REMOVE, A_REMOVE_LATER, A_REMOVE_LEVEL, A_USE_DIE, ACTIONS
from ludeme.errors import LudemeError, printable

SUFFIX = ".trl"

_FIELD = re.compile(r"(\w+)=([^,\]\[]*)")
_ACTION = re.compile(r"\[(\w+):([^\[\]]*)\]")


def is_trial_file(path: str | Path) -> bool:
    """Whether `path` names a Ludii trial file (by its suffix)."""
    return str(path).endswith(SUFFIX)


def parse_move(line: str, where: str) -> dict:
    """One `[Move:...]` in Ludii's trial syntax: mover, from, to (-1 when absent: a pass) and
    its actions as (class, fields) pairs, in order."""
    text = line.strip()
    if not (text.startswith("[Move:") and text.endswith("]")):
        raise LudemeError(f"{where}: expected a move `[Move:mover=..,from=..,to=..,actions=[...]]`"
                          f", found {printable(text[:60])!r}")
    head, sep, acts = text[len("[Move:"):-1].partition("actions=")
    fields = dict(_FIELD.findall(head))
    try:
        mover = int(fields["mover"])
        frm, to = int(fields.get("from", -1)), int(fields.get("to", -1))
    except (KeyError, ValueError):
        raise LudemeError(f"{where}: the move needs an integer `mover` (and integer `from`, "
                          f"`to` when given)") from None
    actions = [(kind, dict(_FIELD.findall(body))) for kind, body in _ACTION.findall(acts)]
    if not sep or not actions:
        raise LudemeError(f"{where}: the move has no `actions=[...]`")
    return {"mover": mover, "from": frm, "to": to, "actions": actions, "str": text}


def read_trial(path: str | Path) -> dict:
    """A .trl file as a dict: game, optionsRequested, moves (parsed), placements (the number
    of initial placement moves), winner / endtype / rankings when the file has them."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise LudemeError(f"cannot read trial {p}: {e}") from None
    out: dict = {"trial": True, "optionsRequested": [], "moves": [], "placements": 0}
    in_options = False
    for n, ln in enumerate(lines, 1):
        where = f"trial {p}, line {n}"
        if ln == "START GAME OPTIONS":
            in_options = True
            continue
        if ln == "END GAME OPTIONS":
            in_options = False
            continue
        if in_options:
            out["optionsRequested"].append(ln.strip())
            continue
        key, sep, value = ln.partition("=")
        if not sep:
            if ln.strip():
                raise LudemeError(f"{where}: expected `key=value`, found {printable(ln[:60])!r}")
            continue
        try:
            if key == "game":
                out["game"] = value
            elif key == "Move":
                out["moves"].append(parse_move(value, where))
            elif key == "numInitialPlacementMoves":
                out["placements"] = int(value)
            elif key == "winner":
                out["winner"] = int(value)
            elif key == "endtype":
                out["endtype"] = value
            elif key == "rankings":
                out["rankings"] = [float(x) for x in value.split(",")]
            # RNG internal state, SANDBOX, LUDII_VERSION, ... : not needed for a replay
        except ValueError:
            raise LudemeError(f"{where}: `{key}` expects a number, found "
                              f"{printable(value[:40])!r}") from None
    if "game" not in out:
        raise LudemeError(f"trial {p}: no `game=` line (the name of the game it was played on)")
    if not 0 <= out["placements"] <= len(out["moves"]):
        raise LudemeError(f"trial {p}: numInitialPlacementMoves is {out['placements']}, but the "
                          f"file has {len(out['moves'])} moves")
    return out


def decisions(trial: dict) -> list[dict]:
    """The moves after the start rules' placements (which a new state has applied already)."""
    return trial["moves"][trial["placements"]:]


_ROLL = re.compile(r"SetStateAndUpdateDice:site=(\d+),state=(\d+)")


def recorded_roll(legal: list) -> dict | None:
    """Chance replay: the die faces Ludii rolled while generating this step's legal moves
    (the same at the front of every legal move), as site -> face index."""
    if not legal:
        return None
    found: dict = {}
    for site, face in _ROLL.findall(legal[0].get("str", "")):
        # The roll comes first; a later one restores a die after a double (replayDouble).
        found.setdefault(int(site), int(face))
    return found or None


_USE_DIE = re.compile(r"UseDie:[^\]]*site=(\d+)")


def same_dice_used(candidates: list, chosen_str: str) -> list:
    """The candidate moves that use the dice Ludii's chosen move used (moves between the
    same sites may differ only in the die they use up); all of them when none does."""
    wanted = sorted(int(x) for x in _USE_DIE.findall(chosen_str))
    # (a compiled move lists no actions: the kernels play no dice)
    same = [m for m in candidates
            if sorted(a[1] for a in getattr(m, "actions", ()) if a[0] == A_USE_DIE) == wanted]
    return same or candidates


_REMOVES = {A_REMOVE, A_REMOVE_LATER, A_REMOVE_LEVEL}


def _removed(move) -> list[int]:
    """Sites our move removes a piece from (its captures), sorted (a compiled move lists no
    actions: none)."""
    return sorted(a[ACTIONS[a[0]].to] for a in getattr(move, "actions", ()) if a[0] in _REMOVES)


def _ludii_removed(rec: dict) -> list[int]:
    return sorted(int(f["to"]) for kind, f in rec["actions"] if kind == "Remove" and "to" in f)


def pick(legal: list, rec: dict) -> list:
    """Our legal moves that may be the recorded move: same (from, to) (a pass when Ludii's has
    none), narrowed by the die used and the pieces removed when several remain, best first."""
    if rec["from"] < 0 and rec["to"] < 0:
        return [m for m in legal if m.is_pass or (m.frm, m.to) == (-1, -1)]
    cands = [m for m in legal if (m.frm, m.to) == (rec["from"], rec["to"])]
    if len(cands) > 1:
        cands = same_dice_used(cands, rec["str"])
    if len(cands) > 1:
        want = _ludii_removed(rec)
        cands.sort(key=lambda m: _removed(m) != want)
    return cands
