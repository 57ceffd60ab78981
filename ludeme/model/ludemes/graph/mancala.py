"""`(mancalaBoard rows columns [store:] [numStores:] [track | {tracks}])` and `(track ...)`.

Ludii builds a mancala board on vertices: 2 to 6 rows of `columns` holes one unit
apart, bottom row first, with a store at each end unless `store:None`. The
vertices are numbered in the order Ludii unites the parts: left store, the
rows bottom to top (each left to right), right store; so on a 2 x 6 board
with stores 0 is the left store, 1-6 the bottom row, 7-12 the top row and 13
the right store. The parts are then joined by an edge wherever two vertices
are closer than 1.1 times the average edge length, which links each store to
the holes beside it (a store sits about one unit from them).

Its tracks are built by `graph.tracks`.

Example: `(mancalaBoard 2 6 (track "Track" "1,E,N,W" loop:True))`.
"""

from __future__ import annotations

from ludeme.model.ludemes.base import Enum, LitBool, LitInt, P, ludeme
from .base import INT, size
from .containers import BoardContainer, shared_board
from .tracks import add_tracks
from ludeme.boards.board import Board
from ludeme.boards.geometry import VERTEX, graph_from_points

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

StoreType = Enum("StoreType", "Outer Inner None")

# Where Ludii puts the stores, per number of rows: (left store, x shift of the right store).
_STORES = {2: ((-0.85, 0.5), -0.15, 0.5), 3: ((-1.0, 1.0), 0.0, 1.0),
           4: ((-0.9, 1.5), -0.1, 1.5), 5: ((-1.0, 2.0), 0.0, 2.0),
           6: ((-0.9, 2.5), -0.1, 2.5)}


@ludeme("mancalaBoard")
class MancalaBoard(BoardContainer):
    """Ludii's mancala board (2 to 6 rows, outer stores by default), played on vertices.

    Examples: `(mancalaBoard 2 6 (track "Track" "1,E,N,W" loop:True))` has 14 sites;
    `(mancalaBoard 4 8 store:None)` has 32.
    """

    concepts = ()

    params = (P("rows", INT), P("columns", INT),
              P("store", StoreType, opt=True, named=True, default="Outer"),
              P("numStores", LitInt, opt=True, named=True, default=2),
              P("tracks", "Track", opt=True, many=True),
              P("largeStack", LitBool, opt=True, named=True, default=False))

    def validate(self):
        # Ludii then falls back to a plain square grid of `rows`: refuse it for now.
        self.refuse("numStores", why="mancala boards with other than two stores")
        if self.store == "Inner":
            self.refuse("store", why="mancala boards with inner stores")

    def build_board(self, players: int) -> Board:
        rows, columns = size(self, "rows", low=1), size(self, "columns", low=1)
        if not 2 <= rows <= 6:
            # as Ludii's MancalaBoard, which refuses the game
            raise self.fail(f"a mancala board has 2 to 6 rows, not {rows}")
        board = shared_board(("mancala", rows, columns, self.store),
                             lambda: self.graph(rows, columns), VERTEX, players)
        add_tracks(board, self.tracks)
        return board

    def graph(self, rows: int, columns: int):
        """The board's planar graph: Ludii unites the rows (edges of length 1 along each
        row) and joins every pair of vertices closer than 1.1 x the average edge length."""
        pts = self.points(rows, columns)
        row_edges = rows * (columns - 1)
        threshold = 1.1 * (1.0 if row_edges else 0.0)
        edges = [(i, j) for i in range(len(pts)) for j in range(i + 1, len(pts))
                 if ((pts[i][0] - pts[j][0]) ** 2 + (pts[i][1] - pts[j][1]) ** 2) ** 0.5
                 < threshold]
        return graph_from_points(pts, edges=edges)

    def points(self, rows: int, columns: int) -> list[tuple[float, float]]:
        """Vertex coordinates in Ludii's order: left store, rows bottom-up, right store."""
        holes = [(float(c), float(r)) for r in range(rows) for c in range(columns)]
        if self.store == "None":
            return holes
        left, shift, y = _STORES[rows]
        return [left] + holes + [(columns + shift, y)]

