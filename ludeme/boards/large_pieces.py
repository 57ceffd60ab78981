"""The cells a large piece covers: a turtle walk over a board's cells (Ludii's Component.locs).

A large piece (`(tile "Domino" Each {R F})`) stands on one cell, its anchor, and covers
the cells its walk reaches from there. Its local state is its rotation: the walk starts
facing the board's `state % n`-th orthogonal direction (clockwise from north, n of them)
and uses the `state // n`-th walk; `F` steps one cell ahead, `R` and `L` turn to the next
orthogonal direction clockwise or anticlockwise.
"""

from __future__ import annotations

from typing import NamedTuple

# Ludii's Add tries this many rotations per walk, whatever the board's orthogonal
# directions (Add.evalLargePiece: walks x 4; a hexagonal board's last two are never tried).
ROTATIONS_PER_WALK = 4


def walk_cells(topology, walks: tuple[tuple[str, ...], ...], site: int,
               state: int) -> tuple[int, ...]:
    """The cells (anchor first, each once) the piece covers from `site` in `state`, or ()
    where a step leaves the board. `topology` is the board's cells'."""
    if not 0 <= site < topology.num_sites:
        return ()
    dirs = topology.relation_dirs("Orthogonal")
    n = len(dirs)
    state = max(state, 0)
    if not n or state // n >= len(walks):
        return ()
    facing = state % n
    cells = [site]
    at = site
    for word in walks[state // n]:
        if word == "F":     # the last step that way, as Ludii's walks take
            ahead = topology.trajectories.targets(at, dirs[facing])
            if not ahead:
                return ()
            at = ahead[-1]
            if at not in cells:
                cells.append(at)
        elif word == "R":
            facing = (facing + 1) % n
        else:
            facing = (facing - 1) % n
    return tuple(cells)


class LargePiece(NamedTuple):
    """A large piece on one board: `cells[state][anchor]`, the cells it covers (() where it
    does not fit), for every state that names a walk and a direction and every state Ludii's
    Add tries; a state past them covers nothing."""

    walks: tuple[tuple[str, ...], ...]
    cells: tuple[tuple[tuple[int, ...], ...], ...]

    def covered(self, site: int, state: int) -> tuple[int, ...]:
        """The cells covered from `site` in `state` (a negative state is 0, as in Ludii)."""
        state = max(state, 0)
        if state >= len(self.cells) or not 0 <= site < len(self.cells[0]):
            return ()
        return self.cells[state][site]

    def add_states(self) -> range:
        """The states Ludii's Add tries."""
        return range(ROTATIONS_PER_WALK * len(self.walks))


def large_piece(topology, walks: tuple[tuple[str, ...], ...]) -> LargePiece:
    """The large piece of these walks on the board whose cells' tables are `topology`."""
    n = max(len(topology.relation_dirs("Orthogonal")), ROTATIONS_PER_WALK)
    return LargePiece(walks, tuple(tuple(walk_cells(topology, walks, site, state)
                                         for site in range(topology.num_sites))
                                   for state in range(n * len(walks))))
