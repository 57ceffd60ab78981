"""The equipment as rules see it while compiling: containers, components, regions, maps.

`Equipment` answers the look-ups of piece names (per player), hands (their
sites in Ludii's global numbering), regions declared with `(regions ...)` and
`(map ...)` tables. Player words resolve through `ludeme.model.roles`.
"""

from __future__ import annotations

from ludeme.engine.state import Component, Container
from ludeme.errors import LudemeError
from ludeme.model.ludemes.base import Ludeme
from .roles import DYNAMIC_WORDS, PLAYER_WORDS, Roles


class Equipment:
    """Containers (board first, then hands), components (index 0 is none), regions, maps."""

    def __init__(self, roles: Roles, containers: list[Container], components: list[Component]):
        self.roles = roles
        self.num_players = roles.n
        self.containers = containers
        self.components = components
        self.regions: dict[str, dict[int, tuple]] = {}
        self.maps: list[tuple[str, dict[int, int]]] = []   # (Ludii's name, table), in order
        self.region_parts: dict[int, list[tuple]] = {}   # owner -> each declared region's sites
        # Until every (regions ...) item is built, a name not found may be a region still
        # to come; then it is none, and Ludii's SitesEquipmentRegion gives it no sites.
        self.regions_complete = False

    def role_id(self, role: str, lud: Ludeme):
        return self.roles.id_fn(role, lud)

    def component_names(self) -> dict[str, int]:
        """Every name a component answers to: its own, and for a neutral piece also its
        name with its owner's number (Ludii names `(piece "Dot" Neutral)` "Dot0")."""
        names = {comp.name: comp.index for comp in self.components[1:]}
        for comp in self.components[1:]:
            if comp.owner == 0:
                names.setdefault(f"{comp.name}0", comp.index)
        return names

    def component_fn(self, name: str, role: str | None, lud: Ludeme):
        """A closure giving the index of component `name` (of `role`'s player if given)."""
        by_name = self.component_names()
        if role is None:
            if name in by_name:
                idx = by_name[name]
                return lambda c: idx
            if f"{name}1" in by_name:
                return lambda c: by_name.get(f"{name}{c.s.mover}", 0)
            raise lud.fail(f"no piece called {name!r}; pieces: "
                           f"{', '.join(sorted(by_name)) or 'none'}")
        who = self.role_id(role, lud)
        if not any(k.startswith(name) for k in by_name):
            raise lud.fail(f"no piece called {name!r}")
        fallback = by_name.get(name, 0)
        # One entry per player id (and the shared player), looked up without a string.
        table = tuple(by_name.get(f"{name}{p}", fallback) for p in range(self.roles.n + 2))
        if role not in DYNAMIC_WORDS:           # a fixed player (P1, Shared...): a constant
            p = who(None)
            idx = table[p] if 0 <= p < len(table) else by_name.get(f"{name}{p}", fallback)
            return lambda c: idx

        def component(c):
            p = who(c)
            return table[p] if 0 <= p < len(table) else by_name.get(f"{name}{p}", fallback)
        return component


    def mover_component(self):
        """A closure giving the mover's first piece kind (for `(move Add ...)` without a piece)."""
        first = {}
        for comp in self.components[1:]:
            first.setdefault(comp.owner, comp.index)
        fallback = first.get(0, first.get(self.num_players + 1, 0))   # neutral, else shared
        return lambda c: first.get(c.s.mover, fallback)


    def hand_offsets(self) -> dict[int, int]:
        """Player -> the first site of their hand."""
        return {c.owner: c.sites_from for c in reversed(self.containers[1:])}


    def hand_ranges(self) -> dict[int, tuple]:
        """Player -> the sites of their hands."""
        out: dict[int, tuple] = {}
        for c in self.containers[1:]:
            out[c.owner] = out.get(c.owner, ()) + tuple(range(c.sites_from,
                                                              c.sites_from + c.num_sites))
        return out


    def named_region(self, name: str | None, role: str | None, lud: Ludeme):
        """A region declared with (regions ...), as Ludii's SitesEquipmentRegion reads it:
        without a player, every region called `name`, whoever owns it; with one, the
        regions of that player whose name contains `name` (all of them without a name)."""
        if role is None:
            entries = self.regions.get(name)
            if not entries:
                if self.regions_complete:
                    return lambda c: ()
                raise _no_region(name, self.regions, lud)
            if len(entries) == 1:
                sites = next(iter(entries.values()))
            else:
                sites = tuple(sorted({s for part in entries.values() for s in part}))
            return lambda c: sites
        owned: dict[int, tuple] = {}
        for rname, entries in self.regions.items():
            if name is None or name in rname:
                for owner, sites in entries.items():
                    owned[owner] = tuple(dict.fromkeys(owned.get(owner, ()) + sites))
        if name is not None and not owned and not self.regions_complete:
            raise _no_region(name, self.regions, lud)
        if role in PLAYER_WORDS:
            # a player the game lacks keeps the regions declared for it, as in Ludii
            # ((sites P3) in the two-player rulesets of There and Back)
            pid = self.roles.owner(role, lud, allow_missing=True)
            sites = owned.get(pid, ())
            return lambda c: sites
        who = self.role_id(role, lud)
        return lambda c: owned.get(who(c), ())


    def maps_named(self, name: str | None) -> list[dict[int, int]]:
        """The tables of the (map ...) items called `name` (every one when None), in order;
        a map without a name is Ludii's "Map"."""
        return [table for n, table in self.maps if name is None or n == name]


    def regions_of_player(self, player_fn, name: str | None, lud: Ludeme):
        """`(sites (player X))`: the regions owned by player X (named `name` if given)."""
        owned: dict[int, tuple] = {}
        for rname, entries in self.regions.items():
            if name is not None and rname != name:
                continue
            for owner, sites in entries.items():
                owned[owner] = tuple(dict.fromkeys(owned.get(owner, ()) + sites))
        return lambda c: owned.get(player_fn(c), ())


class NoSuchRegion(LudemeError):
    """A (sites "Name") naming no region yet, while regions are built (they may name later
    ones)."""


def _no_region(name: str, regions: dict, lud: Ludeme) -> NoSuchRegion:
    return NoSuchRegion(f"no region called {name!r}; regions: "
                        f"{', '.join(sorted(regions)) or 'none'}",
                        lud.node.pos, path=lud.path, via=lud.node.via)
