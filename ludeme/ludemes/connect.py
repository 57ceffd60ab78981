"""Connection conditions (Ludii's `is Connected`)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import Bool, DirWord, Enum, IntFn, LitInt, P, Region, RoleType, SiteType, ludeme

RegionTypeStatic = Enum("RegionTypeStatic", "Regions Sides SidesNoCorners Corners Columns Rows "
                        "Layers Diagonals AllDirections HintRegions Touching SubGrids Vertices "
                        "AllSites")

SIDE_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def static_regions(kind: str, board, lud) -> list[frozenset]:
    """Ludii's Regions.convertStaticRegionOnLocs for `kind`, empty regions left out: each
    corner alone (Corners), each side of the board (Sides: the sites facing N, NE, ...),
    or each side without the corners (SidesNoCorners)."""
    corners = board.region("Corners")
    if kind == "Corners":
        regions = [frozenset((s,)) for s in corners]
    elif kind in ("Sides", "SidesNoCorners"):
        drop = set(corners) if kind == "SidesNoCorners" else set()
        regions = [frozenset(s for s in board.region("Side", d) if s not in drop)
                   for d in SIDE_NAMES]
    else:
        raise lud.fail(f"(is Connected ... {kind}) is not supported yet; Corners, Sides and "
                       "SidesNoCorners are")
    return [r for r in regions if r]


@ludeme("is", "Connected")
class IsConnected(Bool):
    """`(is Connected [N] [at:<site>] [directions] {<regions>} | <role>)`.

    As Ludii's IsConnected: the group of pieces of the same kind as the one at
    `at:` (the last move's destination by default), grown along the directions
    (Adjacent by default), touches N of the regions (all of them by default).
    A static region type (Sides, SidesNoCorners, Corners) stands for the board's
    sides or corners, each its own region: `(is Connected 3 Sides)` in Y.
    With a role, the regions are every region that player owns, each region
    function of a `(regions P1 {...})` item counting as its own region; the
    group then only grows when the piece at `at:` is that player's. Example
    (Hex):

        (end (if (is Connected Mover) (result Mover Win)))
    """
    concepts = ("Connection", "AdjacentDirection if not dirn")

    params = (P("number", LitInt, opt=True), P("type", SiteType, opt=True),
              P("at", IntFn, opt=True, named=True), P("dirn", DirWord, opt=True),
              P("regions", Region, opt=True, many=True), P("role", RoleType, opt=True),
              P("regionType", RegionTypeStatic, opt=True))

    def compile(self, env):
        given = sum(x is not None and x != [] for x in (self.regions, self.role, self.regionType))
        if given != 1:
            raise self.fail("(is Connected ...) needs one of regions, a role or a region type")
        at = env.compile(self.at) if self.at is not None else (lambda c: c.s.last_to)
        steps = env.step_targets(self.dirn or "Adjacent", self)
        nsites = env.num_board_sites
        number = self.number
        if self.role is not None:
            player_fn = env.role_id(self.role, self)
            parts = env.equipment.region_parts

            def regions_of(c, player):
                return [frozenset(r) for r in parts.get(player, ())]
        elif self.regionType is not None:
            player_fn = None
            fixed = static_regions(self.regionType, env.board, self)

            def regions_of(c, player):
                return list(fixed)
        else:
            player_fn = None
            fns = [env.compile(r) for r in self.regions]

            def regions_of(c, player):
                return [frozenset(f(c)) for f in fns]

        def connected(c):
            frm = at(c)
            if not 0 <= frm < nsites:
                return False
            what = c.s.what
            kind = what[frm]
            if kind <= 0:
                return False
            player = player_fn(c) if player_fn is not None else -1
            regions = regions_of(c, player)
            need = number if number is not None else len(regions)
            grow = player == -1 or c.s.who[frm] == player
            done = 0
            for j in range(len(regions) - 1, -1, -1):
                if frm in regions[j]:
                    done += 1
                    del regions[j]
                if done == need:
                    return True
            if not grow:
                return False
            seen = {frm}
            group = [frm]
            i = 0
            while i < len(group):
                for to in steps[group[i]]:
                    if to in seen or what[to] != kind:
                        continue
                    for j in range(len(regions) - 1, -1, -1):
                        if to in regions[j]:
                            done += 1
                            del regions[j]
                        if done == need:
                            return True
                    group.append(to)
                    seen.add(to)
                i += 1
            return False
        return connected
