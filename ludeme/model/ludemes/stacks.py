"""Stacks: tiles, stacked start positions and what a site's levels hold.

A stacking game keeps a stack of levels per site (ludeme.engine.stores.StackSites, bottom =
level 0). The ludemes here read it through the state's accessors; any ludeme that
needs stacks sets `env.stacking`, as Ludii's `GameType.Stacking` flag does.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import Unsupported, emits
from .base import (ArrayOf, Bool, DirWord, Enum, IntFn, LitInt, LitStr, Moves, P, Region, RoleType,
                   SiteType, context_variable as _var, ludeme, other_layer_end)
from .leaping import StepWord
from .game import Piece, Place
from .ints import Level, read_level


MAX_SIDES_TILE = 16     # Ludii's Constants.MAX_SIDES_TILE


@ludeme("tile")
class Tile(Piece):
    """`(tile "Name" [Each|P1|...] [numSides:N] [slots:{...}|slotsPerSide:N] [{(path ...)}])`:
    a tile, a component like a piece (Ludii's Tile, whose role is Shared when none is
    given). Its paths join its sides in colours (`ludeme.model.ludemes.tiles`), e.g.
    `(tile "Curve" numSides:4 {(path from:0 to:1 colour:1) (path from:2 to:3 colour:2)})`.

    Tiles take their `what` index in declaration order with the pieces. A tile under
    pieces is one level of the stack: Seesaw's promotion cells are tiles, as in

        (equipment {(board (hex 4)) (piece "Disc" Each) (tile "Hex" Each)})
    """
    concepts = ("Tile", "LargePiece if walk", "LargePiece if walks")

    # Ludii's Tile: a walk (or walks) makes it a large piece (ludeme.boards.large_pieces).
    # numSides: is read by Ludii only to draw a tile: its rotations come from the board's
    # directions (Game.maximalRotationStates) and its paths' sides are counted on the
    # board's cells (ludeme.model.ludemes.tiles), whatever its sides; so the sides are
    # checked, as Ludii's constructor checks them, and change no move. Paths and slots are
    # the data (is SidesMatch), (is Loop ... path:True) and (pathExtent ...) read: the
    # game reads them when it is built (`tiles.tile_table`).
    params = (P("name", LitStr), P("role", RoleType, opt=True, default="Shared"),
              P("dirn", DirWord, opt=True),
              P("walk", StepWord, opt=True, many=True),
              P("walks", ArrayOf(StepWord), opt=True, many=True),
              P("numSides", LitInt, opt=True, named=True),
              P("slots", LitInt, opt=True, named=True, many=True),
              P("slotsPerSide", LitInt, opt=True, named=True),
              P("paths", "Path", opt=True, many=True),
              P("flips", "Flips", opt=True), P("generator", Moves, opt=True),
              P("maxState", LitInt, opt=True, named=True),
              P("maxCount", LitInt, opt=True, named=True),
              P("maxValue", LitInt, opt=True, named=True))

    def validate(self):
        if self.walk and self.walks:
            raise self.fail("(tile ...) takes a walk {...} or walks {{...} ...}, not both")
        if self.slots and self.slotsPerSide is not None:
            raise self.fail("(tile ...) takes slots:{...} or slotsPerSide:, not both")
        if self.numSides is not None and not 0 <= self.numSides <= MAX_SIDES_TILE:
            raise self.fail(f"'numSides:' of a tile must be 0 to {MAX_SIDES_TILE}, "
                            f"found {self.numSides}")

    def walk_steps(self) -> tuple[tuple[str, ...], ...]:
        """The walks of a large piece ({F R F} as one walk), () for a tile of one cell.
        numSides: changes nothing here: a large piece turns by the board's orthogonal
        directions (Ludii's Component.locs), whatever its sides."""
        if self.walk:
            return (tuple(self.walk),)
        return tuple(tuple(w) for w in self.walks or ())


@ludeme("place", "Stack")
class PlaceStack(Place):
    """`(place Stack "Item"|items:{"Item" ...} <site|region> [count:N])`: push pieces on the
    stacks of sites at the start, each item in turn (bottom first); the game keeps stacks.
    Example: `(place Stack "Disc1" 0 count:2)`, `(place Stack items:{"Stick2" "Stick1"} 5)`."""
    # As Ludii's PlaceCustomStack: where the pieces go, and a count above one, a state or a
    # value set.
    concepts = ("PiecesPlacedOutsideBoard if container",
                "PiecesPlacedOutsideBoard if where is handSite",
                "PiecesPlacedOnBoard if not container and not where is handSite",
                "PieceCount if not count == 1", "SiteState if state", "PieceValue if value")

    params = (P("item", LitStr, opt=True), P("items", LitStr, opt=True, named=True, many=True),
              *Place.params[1:])
    stacking = True

    def validate(self):
        if (self.item is None) == (not self.items):
            raise self.fail("(place Stack ...) takes an item or items:{...}, one of them")


@ludeme("size", "Stack")
class SizeStack(IntFn):
    """`(size Stack [in:<region>|at:<site>])`: the levels at a site (summed over a region);
    the last move's destination by default (Ludii's SizeStack)."""
    concepts = ()

    params = (P("type", SiteType, opt=True), P("in", Region, opt=True, named=True),
              P("at", IntFn, opt=True, named=True))

    def compile(self, env):
        env.stacking = True
        if self.in_ is not None and self.at is not None:
            raise self.fail("(size Stack ...) takes in: or at:, not both")
        first = other_layer_end(env, self.type, self)
        if self.in_ is not None:
            region = env.compile(self.in_)
            return lambda c: sum(c.s.size_stack(s) for s in region(c) if s >= first)
        at = env.compile(self.at) if self.at is not None else (lambda c: c.s.last_to)

        def size_stack(c):
            s = at(c)
            return c.s.size_stack(s) if s >= first else 0
        return size_stack


StackDirection = Enum("StackDirection", "FromBottom FromTop")


@ludeme("count", "Stack")
class CountStack(IntFn):
    """`(count Stack [FromBottom|FromTop] at:<site>|in:<region> [if:<cond>] [stop:<cond>])`:
    the levels of the stacks where the condition holds, read with `(to)` = the site and
    `(level)` = the level, from the bottom (or top) until `stop` holds (Ludii's
    CountStack; empty sites count nothing). Example, the discs in a stack:

        (count Stack at:(from) if:(= (what at:(to) level:(level)) (id "Disc" Mover)))
    """
    concepts = ()

    params = (P("direction", StackDirection, opt=True), P("type", SiteType, opt=True),
              P("at", IntFn, opt=True, named=True), P("in", Region, opt=True, named=True),
              P("if", Bool, opt=True, named=True), P("stop", Bool, opt=True, named=True))

    def compile(self, env):
        env.stacking = True
        if (self.at is None) == (self.in_ is None):
            raise self.fail("(count Stack ...) needs at:<site> or in:<region>")
        if self.at is not None:
            at = env.compile(self.at)
            sites = lambda c: (at(c),)  # noqa: E731
        else:
            sites = env.compile(self.in_)
        cond = env.compile(self.if_) if self.if_ is not None else None
        stop = env.compile(self.stop) if self.stop is not None else None
        from_top = self.direction == "FromTop"

        def count_stack(c):
            s = c.s
            saved = (c.to, c.level)
            total = 0
            for site in sites(c):
                if site < 0 or s.what[site] == 0:
                    continue
                n = s.size_stack(site)
                for level in (range(n - 1, -1, -1) if from_top else range(n)):
                    c.to, c.level = site, level
                    if stop is not None and stop(c):
                        break
                    if cond is None or cond(c):
                        total += 1
            c.to, c.level = saved
            return total
        return count_stack


@ludeme("topLevel")
class TopLevel(IntFn):
    """`(topLevel at:<site>)`: the level of the top of the stack at a site, its size
    minus one (0 for an empty site or a game without stacks, as Ludii's TopLevel)."""
    concepts = ()

    params = (P("type", SiteType, opt=True), P("at", IntFn, named=True))

    def compile(self, env):
        at = env.compile(self.at)
        first = other_layer_end(env, self.type, self)

        def top_level(c):
            s = at(c)
            return max(c.s.size_stack(s) - 1, 0) if s >= first else 0
        return top_level


def line_by_level(s, pivot: int, length: int, whats, exact: bool, radials) -> bool:
    """Ludii's `(is Line ... byLevel:True)`: a line of pieces of `whats` through the top of
    the pivot's stack, down the stack itself, along a level across sites, or climbing
    and descending one level a site (the two diagonals of a vertical board).

    `radials` are the pivot's (sites after it, opposite sites or None) pairs.
    """
    size = s.size_stack
    level_data = s.level_data
    n = size(pivot)
    if length == 1:
        return True

    def what_at(site, level):
        return level_data(site, level)[0] if 0 <= level < size(site) else 0

    if n >= length:
        count = 1
        for i in range(length - 1):
            if what_at(pivot, n - 2 - i) not in whats:
                break
            count += 1
            if not exact and count == length:
                return True
        if count == length:
            return True
    origin = n - 1
    for ray, opposite in radials:
        # The same level across sites, then a line that descends (or climbs) one level
        # a site along the ray and climbs (or descends) along the opposite one.
        for shift in (0, -1, 1):
            count = 1
            for k, site in enumerate(ray, 1):
                lv = origin + shift * k
                if lv < 0 or size(site) <= lv or what_at(site, lv) not in whats:
                    break
                count += 1
                if not exact and count == length:
                    return True
            if opposite is not None:
                total = count
                for k, site in enumerate(opposite, 1):
                    lv = origin - shift * k
                    if lv < 0 or size(site) <= lv or what_at(site, lv) not in whats:
                        break
                    total += 1
                    if not exact and total == length:
                        return True
                # As Ludii: the descending line checks only its own side here.
                if (count if shift == -1 else total) == length:
                    return True
            elif count == length:
                return True
    return False


__all__ = ["Level", "Tile", "PlaceStack", "SizeStack", "CountStack", "TopLevel",
           "read_level", "line_by_level"]


# Compiled forms (`ludeme.engine.compiled.emit`): the levels are the kernels' arrays past the
# top-level views (`ludeme.engine.compiled.rt`, "sites (StackSites)").

@emits(Level, kind="int")
def _level(src, lud):
    if src.level_var is None:
        raise Unsupported(lud, "outside (count Stack ...), (forEach Level ...) or (forEach "
                               "Piece ...) in a stacking game")
    return src.level_var


@emits(SizeStack, kind="int")
def _size_stack(src, lud):
    """Of another site type than the board's, only a hand's cell holds a stack
    (`other_layer_end`). With in:, the sizes summed over the region's sites as listed (a
    site listed twice counted twice, as the reference)."""
    first = other_layer_end(src.env, lud.type, lud)
    if lud.in_ is not None:
        if lud.at is not None:
            raise Unsupported(lud, "with both in: and at:")
        return src.count_in(lud, lud.in_, per_site=f"(count[TOTAL + site] if site >= {first} "
                                                   "else 0)", distinct=True)
    at = src.int_expr(lud.at) if lud.at is not None else "last_to"
    return f"(count[TOTAL + {at}] if {at} >= {first} else 0)"


@emits(TopLevel, kind="int")
def _top_level(src, lud):
    """As `_size_stack`, less one."""
    if not src.game.stacking:
        return "0"
    at = src.int_expr(lud.at)
    first = other_layer_end(src.env, lud.type, lud)
    return f"(max(count[TOTAL + {at}] - 1, 0) if {at} >= {first} else 0)"


@emits(CountStack, kind="int", refuses=("type", "in"))
def _count_stack(src, lud):
    """A helper kernel given the evaluation context and the site: its levels, from the
    bottom or the top, with `(to)` on the site and `(level)` on each, until `stop:`."""
    with src.binding_level("lvl"):      # (level) inside is the count's own
        cond = src.bool_expr(lud.if_) if lud.if_ is not None else "True"
        stop = src.bool_expr(lud.stop) if lud.stop is not None else "False"
    at = src.int_expr(lud.at)
    level = "n - 1 - k" if lud.direction == "FromTop" else "k"
    bound = ", player" if src.player_bound else ""

    def make(name):
        return "\n".join([
            "@njit(cache=True)",
            f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}, site):",
            src.context(local=()), "    total = 0",
            "    if site >= 0 and what[site] != 0:",
            "        to = site",
            "        n = count[TOTAL + site]",
            "        for k in range(n):",
            f"            lvl = {level}",
            f"            if {stop}:",
            "                break",
            f"            if {cond}:",
            "                total += 1",
            "    return total", ""])
    return (f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}"
            f"{bound}, {at})")
