"""A position as a picture: the board as `ludeme.boards.render.board_svg` draws it, with the
pieces on it. What a notebook shows of a `Game` (its start) or a state (`_repr_svg_`)."""

from __future__ import annotations


def piece_kinds(game) -> list[int]:
    """Per component, the index of its kind (its name without the owner's number), which
    chooses the shape drawn: Disc1 and Disc2 are one kind, Hex1 another."""
    kinds: dict[str, int] = {}
    out = [0]
    for c in game.components[1:]:
        out.append(kinds.setdefault(c.name.rstrip("0123456789"), len(kinds)))
    return out


def board_pieces(state) -> list[tuple[int, int, int, str, str]]:
    """The pieces on the board as `board_svg` draws them: (site, owner, kind, text, name),
    the top piece of a stack with its height, a site's piece with its count."""
    game = state.g
    kinds = piece_kinds(game)
    view = state.board_view()
    stacks = view["stacks"]
    out = []
    for site in range(len(view["what"])):
        if stacks is not None and stacks[site]:
            level = stacks[site][-1]
            what, who, n, text = int(level[0]), int(level[1]), len(stacks[site]), "{}"
        else:
            what, who, n = int(view["what"][site]), int(view["who"][site]), \
                int(view["count"][site])
            text = "\u00d7{}"
        if what:
            out.append((site, who, kinds[what], text.format(n) if n > 1 else "",
                        game.components[what].name))
    return out


def state_svg(state, size: float = 420.0) -> str:
    """The board with the state's pieces, as SVG text."""
    board = state.g.board
    return board.to_svg(size=size, pieces=board_pieces(state))
