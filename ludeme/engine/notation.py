"""Moves and sites in words: the one naming every interface uses (`ludeme play`, `moves`,
the viewer pages, the adapters, Python).

A move's name comes from its sites' labels: `place A1`, `remove C3`, `A1-B2`, `pass`, a
hand site `Hand1` (`Hand1[2]` when the hand has several sites). Names are computed on
request, never during playouts. `move_names` names a state's legal moves so that each name
is unique, and so can be typed: when two moves would print the same, each gets what tells
them apart (the stack levels, the pieces it removes or adds, the state, rotation or value it
sets, its kind of action, at last its rank).
"""

from __future__ import annotations

from .actions import (A_ADD, A_ADD_LEVEL, A_REMOVE, A_REMOVE_LATER, A_REMOVE_LEVEL,
                      A_SET_FIELD, ACTIONS)

_REMOVES = (A_REMOVE, A_REMOVE_LEVEL, A_REMOVE_LATER)
_ADDS = (A_ADD, A_ADD_LEVEL)


def site_name(game, site: int) -> str:
    """A board label ("A1"), or `HandP` / `HandP[i]` for a hand site; "-" for none."""
    if site < 0:
        return "-"
    if site < game.containers[0].num_sites:
        return game.board.sites[site].label
    for c in game.containers[1:]:
        if c.sites_from <= site < c.sites_from + c.num_sites:
            i = site - c.sites_from
            return f"Hand{c.owner}" + (f"[{i}]" if c.num_sites > 1 else "")
    return str(site)


def typed_site_name(game, site: int, site_type: str | None) -> str:
    """A site of a move to another site type than the board's (`Move.site_types`): its type
    and its index among those elements (`Edge12`), else as `site_name` names it."""
    if site_type is None or site_type == game.board.site_type or site < 0:
        return site_name(game, site)
    return f"{site_type}{site}"


def _ends(game, m) -> tuple[str, str]:
    """The names of a move's origin and destination."""
    types = getattr(m, "site_types", None) or (None, None)
    return typed_site_name(game, m.frm, types[0]), typed_site_name(game, m.to, types[1])


def _kinds(m) -> set:
    # A compiled move names its generator's action kinds; a reference move lists its actions.
    return set(m.kinds) if hasattr(m, "kinds") else {a[0] for a in m.actions}


def move_name(game, m) -> str:
    """A move's short name (not necessarily unique among the legal moves: see
    `move_names`)."""
    if m.is_pass:
        return "pass"
    frm, to = _ends(game, m)
    if m.frm == m.to and frm == to:
        kinds = _kinds(m)
        if kinds & set(_REMOVES) and not kinds & set(_ADDS):
            return f"remove {to}"
        if kinds & set(_ADDS):
            return f"place {to}"
    return f"{frm}-{to}"


def _piece(game, what: int) -> str:
    """A piece's name ("Disc1"), by its component index."""
    comps = getattr(game, "components", None)
    return comps[what].name if comps and 0 <= what < len(comps) and comps[what] else \
        f"piece {what}"


def _details(game, m) -> list[str]:
    """What may tell a move apart from others of the same name, most telling first."""
    out = []
    if m.level_from or m.level_to:
        out.append(f"level {m.level_from}-{m.level_to}")
    acts = getattr(m, "actions", None) or []
    removed = [site_name(game, a[ACTIONS[a[0]].to]) for a in acts if a[0] in _REMOVES
               and a[ACTIONS[a[0]].to] != m.to]
    if removed:
        out.append("x" + ",".join(removed))
    added = [_piece(game, a[2]) for a in acts if a[0] in _ADDS]
    if added:
        out.append(",".join(added))
    fields = [f"{a[1]} {a[4]}" for a in acts if a[0] == A_SET_FIELD]
    if fields:          # e.g. the rotation a tile is placed with
        out.append(",".join(fields))
    out.append("/".join(sorted(ACTIONS[k].name for k in _kinds(m))))
    return out


def move_names(game, moves: list) -> list[str]:
    """The moves' names, unique among them (in order): a name shared by several moves gets
    the first detail that separates them, else the move's rank among them (`#2`)."""
    names = [move_name(game, m) for m in moves]
    groups: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        groups.setdefault(n, []).append(i)
    for base, idx in groups.items():
        if len(idx) == 1:
            continue
        details = [_details(game, moves[i]) for i in idx]
        for d in range(max(len(x) for x in details)):
            tags = [x[d] if d < len(x) else "" for x in details]
            if len(set(tags)) == len(tags):
                for i, t in zip(idx, tags):
                    names[i] = f"{base} ({t})"
                break
        else:
            for rank, i in enumerate(idx, 1):
                names[i] = f"{base} #{rank}"
    if len(set(names)) < len(names):       # a detail made a name equal to another's
        seen: dict[str, int] = {}
        for i, n in enumerate(names):
            seen[n] = seen.get(n, 0) + 1
            if seen[n] > 1:
                names[i] = f"{n} #{seen[n]}"
    return names


def describe_move(game, m) -> str:
    """A move's name alone (`move_name`); a list of legal moves is named by `move_names`,
    unique among them."""
    return move_name(game, m)


class Siblings:
    """The legal moves of one position, as `str(move)` names them: `legal_moves()` gives
    each of its moves this one object, and the names (unique among them, `move_names`) are
    computed the first time one is asked for, so playouts never pay for them."""

    __slots__ = ("game", "moves", "names")

    def __init__(self, game, moves: list):
        self.game, self.moves, self.names = game, moves, None

    def tag(self) -> None:
        for m in self.moves:
            m.named = self

    def name(self, move) -> str:
        if self.names is None:      # by object: two moves may be equal, never the same
            self.names = {id(m): n for m, n in zip(self.moves,
                                                  move_names(self.game, self.moves))}
        return self.names.get(id(move)) or move_name(self.game, move)


def move_text(m) -> str:
    """`str(move)`: its name among the legal moves it was generated with (as `ludeme play`,
    `moves` and the viewer print it), else, for a move not from `legal_moves()`, its sites
    as Ludii numbers them."""
    named = getattr(m, "named", None)
    if named is not None:
        return named.name(m)
    return "pass" if m.is_pass else f"{m.frm}-{m.to}"
