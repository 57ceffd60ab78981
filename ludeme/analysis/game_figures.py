"""Figures of Ludii's playout metrics that a game fixes, whatever is played: the board
elements its rules use, and the StateTreeComplexity bound.

Ludii's *used* board elements (`Topology.getAllUsedGraphElements`) are every vertex, edge
or cell of the site types whose concept (Vertex, Edge, Cell) the game has: the board's
default type, and any type its ludemes name (a hand's sites are cells, so a game with hands
uses Cell). BoardCoverageUsed divides the board sites that held a piece by their number;
pieces stand on the default site type only here, so a trial's value is its
BoardCoverageDefault times (default sites / used elements), computed from the covered count
(`coverage_used`) so that both backends give the same bits.

StateTreeComplexity (Ludii's StateSpaceComplexity metric, an upper bound, not read from
playouts): used elements x log10 of the contents a site can take: the piece kinds + 1,
times 32 (Ludii's MAX_STACK_HEIGHT) in a stacking game, else times Ludii's maxCount in a game
with counts (hands, or counters on the board), times the local states in a game whose pieces
have one. Ludii's maxCount and maximal local states are figures of its game object; here
they are the game's total sites (board and hands) and (the largest state a piece flips to)
+ 1 (2 when no piece flips), which agree with Ludii on every one of the 36 reference
configurations. The rotation, piece-value and hidden-information factors are not applied
(no game here has them yet).
"""

from __future__ import annotations

import math

MAX_STACK_HEIGHT = 32           # Ludii's Constants.MAX_STACK_HEIGHT
SITE_TYPES = ("Vertex", "Edge", "Cell")


def used_site_types(game) -> set[str]:
    """The site types whose concept Ludii sets for the game: the default one and those its
    ludemes name (hands make Cell)."""
    from .concepts import ConceptWalk
    used = {game.board.site_type}
    if game.typed is not None:
        used |= set(ConceptWalk(game.typed).of(game.typed)) & set(SITE_TYPES)
    if len(game.containers) > 1:
        used.add("Cell")
    return used


def _figures(game) -> tuple[int, float]:
    """(used elements, StateTreeComplexity), worked out once per game object."""
    got = getattr(game, "_used_figures", None)
    if got is None:
        planar = getattr(getattr(game, "board", None), "planar", None)
        if planar is None:          # a stand-in game without a board graph: its board sites
            used = game.containers[0].num_sites
        else:
            used = sum(len(planar.elements(t)) for t in sorted(used_site_types(game)))
        got = game._used_figures = (used, used * math.log10(state_possibilities(game)))
    return got


def used_elements(game) -> int:
    """The vertices, edges and cells of the site types the game uses."""
    return _figures(game)[0]


def state_possibilities(game) -> int:
    """What a site can hold, as Ludii's StateSpaceComplexity counts it."""
    # The kinds, and empty (index 0); a stand-in game without components: one per player.
    m = len(getattr(game, "components", ())) or game.num_players + 1
    if getattr(game, "stacking", False):
        m *= MAX_STACK_HEIGHT
    elif getattr(game, "counting", False) or len(game.containers) > 1 and hasattr(game, "board"):
        m *= game.total_sites
    if getattr(game, "local_state", False):
        flips = [v for pair in (game.env.flips_table() if game.env else ()) if pair
                 for v in pair]
        m *= max(flips) + 1 if flips else 2
    return m


def state_tree_complexity(game) -> float:
    """Ludii's StateTreeComplexity: used elements x log10(what a site can hold)."""
    return _figures(game)[1]


def coverage_used(covered_share, board_sites: int, used: int):
    """BoardCoverageUsed from BoardCoverageDefault (a float or an array): the covered count,
    recovered exactly, over the used elements."""
    import numpy as np
    covered = np.rint(np.asarray(covered_share, dtype=float) * board_sites)
    out = covered / used
    return float(out) if out.ndim == 0 else out


def game_columns(game, board_coverage) -> dict:
    """The playout-table columns of `ludeme.engine.figures.GAME_COLUMNS` for rows with this
    BoardCoverageDefault (a float, or the kernels' array)."""
    import numpy as np
    used, complexity = _figures(game)
    covered = coverage_used(board_coverage, game.containers[0].num_sites, used)
    if isinstance(covered, float):
        return {"board_coverage_used": covered, "state_tree_complexity": complexity}
    return {"board_coverage_used": covered,
            "state_tree_complexity": np.full(len(covered), complexity)}
