"""Moves and sites in words, as the terminal, the viewer pages and the adapters name them."""

from __future__ import annotations

from ludeme.engine.state import Game, Move


def site_name(game: Game, site: int) -> str:
    """A board label ("A1"), or `HandP[i]` for a hand site."""
    if site < 0:
        return "-"
    board = game.board
    if site < game.containers[0].num_sites:
        return board.sites[site].label
    for c in game.containers[1:]:
        if c.sites_from <= site < c.sites_from + c.num_sites:
            i = site - c.sites_from
            return f"Hand{c.owner}" + (f"[{i}]" if c.num_sites > 1 else "")
    return str(site)


def describe_move(game: Game, m: Move) -> str:
    """A short human description of a move."""
    if m.is_pass:
        return "pass"
    if m.frm == m.to:
        from ludeme.engine.state import A_ADD, A_REMOVE
        # A compiled move names its action's kind; a reference move lists its actions.
        kinds = m.kinds if hasattr(m, "kinds") else {a[0] for a in m.actions}
        if A_REMOVE in kinds:
            return f"remove {site_name(game, m.to)}"
        if A_ADD in kinds:
            return f"place {site_name(game, m.to)}"
    return f"{site_name(game, m.frm)}-{site_name(game, m.to)}"
