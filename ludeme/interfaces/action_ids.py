"""Fixed action ids for any game, shared by the OpenSpiel and PettingZoo adapters.

Frameworks such as OpenSpiel and PettingZoo want a fixed number of distinct actions, and the same id
for the same move wherever it occurs, so an id is built from the move itself,
not from its place in the legal list: with `T` the number of sites (board and
hands, and the board's layers of other site types a game puts pieces on, see
`Game.store_ends`) and `f`, `t` the move's from and to sites shifted by one (so a pass,
from = to = -1, is 0),

    id = k * (T + 1)**2 + f * (T + 1) + t

where `k` is 0 for the first legal move with that (from, to) and 1, 2, ... for
the next ones in legal-move order (moves that differ only in what they do at
the same sites: a promotion to one piece or another, a capture choice). A
position with more than MAX_SAME_SITES moves sharing one (from, to) is refused
with a clear error. So `num_distinct_actions = MAX_SAME_SITES * (T + 1)**2`.

The observation vector is the state's `board_view()` flattened: owner, piece
kind and count per board site, then hand counts and scores; a player's observation of a
game with hidden information reads -1 wherever a datum is hidden from that player.
"""

from __future__ import annotations

import numpy as np

from ludeme.errors import LudemeError

MAX_SAME_SITES = 4


def action_ids(game, moves) -> list[int]:
    """The action id of each move of one position (see the module's docstring)."""
    width = game.store_sites + 1
    seen: dict[tuple[int, int], int] = {}
    ids = []
    for m in moves:
        key = game.store_ends(m)        # a site of another type's layer: its place
        k = seen.get(key, 0)
        if k >= MAX_SAME_SITES:
            raise LudemeError(f"{game.name}: more than {MAX_SAME_SITES} legal moves from site "
                              f"{m.frm} to site {m.to} in one position; fixed action ids "
                              f"number at most {MAX_SAME_SITES}")
        seen[key] = k + 1
        ids.append(k * width * width + (key[0] + 1) * width + (key[1] + 1))
    return ids


def legal_by_id(game, state) -> dict[int, object]:
    """Action id -> legal move of a position of `game`."""
    moves = state.legal_moves()
    return dict(zip(action_ids(game, moves), moves))


def num_distinct_actions(game) -> int:
    """How many action ids there are."""
    return MAX_SAME_SITES * (game.store_sites + 1) ** 2


def observation_vector(state, player: int | None = None) -> np.ndarray:
    """`board_view()` flattened: who, what, count per board site, then hand counts and scores,
    as `player_view` gives it."""
    view = player_view(state, player)
    parts = [view["who"], view["what"], view["count"], *view["hands"], view["scores"]]
    return np.array([x for part in parts for x in part], dtype=np.float32)


def player_view(state, player: int | None = None) -> dict:
    """The state's `board_view()` as `player` (1-based) sees it: in a game with hidden
    information, what is hidden from them reads -1 (`engine.state.HIDDEN_VALUE`). None: the
    whole position. (Only the reference engine plays such games: the hidden-information
    ludemes have no compiled form.)"""
    if player is not None and getattr(getattr(state, "g", None), "hidden_info", False):
        return state.board_view(player)
    return state.board_view()


def view_string(view: dict) -> str:
    """A `board_view()` as text."""
    return (f"who {view['who']}\nwhat {view['what']}\ncount {view['count']}\n"
            f"hands {view['hands']}\nscores {view['scores']}")
