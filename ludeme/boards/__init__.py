"""Boards: build a Ludii board from its ludeme, numbered exactly as Ludii numbers it.

    from ludeme.boards import build_board
    board = build_board(board_call, players=2)   # board_call: the (board ...) Call
    board.num_sites, board.sites[0].label, board.step["N"][0], board.rays["E"][0]

Stages: a graph ludeme (`generators`, `operators`) builds a planar graph
(`geometry`); `measure` finds perimeter, corners, sides, centre, phases, rows,
columns and labels; `trajectories` finds steps and radials; `board` turns it
all into plain per-site tables; `regions` evaluates static region ludemes;
`render` draws SVG.
"""

from . import generators, operators  # noqa: F401  (register the graph ludemes)
from .base import GraphLudeme
from .board import Board, Site, Topology
from .containers import BoardLudeme, build_board, find_board_call, parse_board

__all__ = ["Board", "Site", "Topology", "GraphLudeme", "BoardLudeme", "build_board",
           "find_board_call", "parse_board"]
