"""Boards: build a Ludii board from its ludeme, numbered exactly as Ludii numbers it.

    from ludeme.model.ludemes.graph.containers import build_board, find_board_call
    board = build_board(find_board_call(expanded.game), players=2)   # the game model builds it

    board.graph                the graph of record: networkx.DiGraph, a node per site with its
                               fields (index, site_type, x, y, row, col, label, phase, regions),
                               an edge per Ludii step (direction, relation, relations)
    board.site_type            "Vertex" | "Edge" | "Cell" (`use:`; Ludii's default is Cell)
    board.num_sites, board.sites   Site(index, x, y, row, col, label, phase) per site
    board.index_of("A1")       -> 0
    board.directions           compass names on this board, clockwise from N
    board.step[d][site]        neighbour in compass direction d, or -1
    board.rays[d][site]        sites along d, start excluded (Ludii's radial)
    board.radials[d][site]     all radials in d (compass or relation); Radial.sites, .opposite
    board.distinct_radials[d]  the radials Ludii's line tests walk (one per line)
    board.neighbours[rel]      rel in Orthogonal, Diagonal, OffDiagonal, Adjacent, All
    board.relation_dirs(rel)   compass names of rel's steps (hex cells: 6 orthogonal ones)
    board.region(name, *args)  Top, Bottom, Left, Right, Corners, Centre, Perimeter, Inner,
                               Outer, Major, Minor, Board, Row r, Column c, Side d, Phase p
    board.distance_rings(rel)  per site, the sites 0, 1, 2, ... steps away (networkx BFS)
    board.around(...), board.in_direction(...), board.at_distance(...), board.expand(...)
    board.topology(type)       the same for another site type
    board.tracks               Surakarta's loops; board.to_json(), board.to_svg()

Directions follow Ludii: each step is named by bearing with 16 names when 8
would collide, which on hex cells gives E, NNE, NNW, W, SSW, SSE for the six
neighbours; hex "diagonals" are the cells straight across a corner.

This package is geometry only: it knows no ludeme. The board ludemes are typed
ludemes of the game model (`ludeme.model.ludemes.graph`): a container (`board`,
`mancalaBoard`, `surakartaBoard`) holds a graph function (`generators`,
`operators`; category GraphFn) whose sizes may be constant arithmetic (`base`).

Stages: a graph function builds the planar geometry
(`geometry`: vertices, edges and faces in Ludii's creation order); `measure`
finds perimeter, corners, sides, centre, phases, rows, columns and labels with
Ludii's geometric rules; `trajectories` finds each site's steps and walks
its radials when first read; `board` records sites and steps as the networkx graph and derives
every plain per-site table from it; `render` draws SVG (`ludeme board`).
Region ludemes (`sites Top`, `expand`, `union`, ...) are evaluated by the
engine's ludemes (`ludeme.model.ludemes.regions`) over these tables.
"""

from .board import Board, Site, Topology, sites_at_distance

__all__ = ["Board", "Site", "Topology", "sites_at_distance"]
