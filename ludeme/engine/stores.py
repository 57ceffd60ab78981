"""What a position holds per site, and the only code that touches it.

A site holds a stack of levels, bottom first (level 0), each with Ludii's
per-level data: `what` (component index, 0 for none), `who` (owner id),
`state`, `rotation` and `value`; a site also has a `count` (pieces of one kind
counted at a site: seeds in a pit, pieces in a hand).

Two stores share one interface, chosen once per game as Ludii chooses between
`ContainerFlatState` and `ContainerStateStacks`:

- `FlatSites`: at most one level per site and a count (every non-stacking
  game). Its top-level lists *are* the storage.
- `StackSites`: any number of levels per site (stacking games). It keeps the
  same top-level lists as views of each stack's top, updated on every write,
  so a rule reading the top piece costs the same in both.

Readers use the read-only top-level lists `who`, `what`, `count`, `state`,
`rotation`, `value` (index: site) and the level accessors (`size_stack`,
`what_level`, ...). Every write goes through the primitives below, called by
`State.do_action` alone: nothing outside this module writes a list of a store,
and nothing outside `State` uses a store's methods
(tests/test_state_boundary.py reads every module's source to hold this).
"""

from __future__ import annotations

TOP = -1    # the level argument meaning "the top of the stack"


class FlatSites:
    """One level per site, with a count (Ludii's ContainerFlatState)."""

    __slots__ = ("who", "what", "count", "state", "rotation", "value", "hand_from", "count_from",
                 "count_to", "owner_of", "plain")
    stacking = False

    def __init__(self, total_sites: int, hand_from: int):
        self.who = [0] * total_sites
        self.what = [0] * total_sites
        self.count = [0] * total_sites
        self.state = [0] * total_sites
        self.rotation = [0] * total_sites
        self.value = [0] * total_sites
        self.hand_from = hand_from          # sites from here on are in hands
        # Sites from here on gather pieces of one kind as a count: the hands, or every site
        # in a game that counts (seeds).
        self.count_from = hand_from
        # ... up to here: the board's layers of other site types after the containers (see
        # `ludeme.engine.state.Game.layers`) hold one piece per site, as the board does.
        self.count_to = total_sites
        # Per piece kind, the owner Ludii gives a piece moved onto an empty site (its
        # component's owner); None keeps the owner it had where it came from.
        self.owner_of: list[int] | None = None
        # True while every site's state, rotation and value are 0, as they stay in most
        # games: the writes below then leave those three lists alone.
        self.plain = True

    def copy(self) -> "FlatSites":
        s = type(self).__new__(type(self))
        s.who, s.what, s.count = self.who[:], self.what[:], self.count[:]
        s.state, s.rotation, s.value = self.state[:], self.rotation[:], self.value[:]
        s.hand_from = self.hand_from
        s.count_from = self.count_from
        s.count_to = self.count_to
        s.owner_of = self.owner_of
        s.plain = self.plain
        return s

    # -- reading levels ------------------------------------------------------
    def size_stack(self, site: int) -> int:
        """Levels at a site: 1 when occupied, else 0."""
        return 1 if self.what[site] else 0

    def level(self, site: int, level: int = TOP) -> tuple:
        """(what, who, state, rotation, value) at a level; zeros where there is none."""
        if level not in (0, TOP) or not self.what[site]:
            return (0, 0, 0, 0, 0)
        return (self.what[site], self.who[site], self.state[site], self.rotation[site],
                self.value[site])

    def stack(self, site: int) -> tuple:
        """Every level at a site, bottom first."""
        return (self.level(site),) if self.what[site] else ()

    def holds(self, site: int, players, whats=None) -> bool:
        """Some level at the site holds a piece of one of `players` (of kinds `whats`)."""
        return self.who[site] in players and (whats is None or self.what[site] in whats)

    def key(self) -> tuple:
        return (tuple(self.who), tuple(self.what), tuple(self.count), tuple(self.state),
                tuple(self.rotation), tuple(self.value))

    # -- writing ---------------------------------------------------------------
    def clear(self, site: int) -> None:
        self.who[site] = self.what[site] = self.count[site] = 0
        if not self.plain:
            self.state[site] = self.rotation[site] = self.value[site] = 0

    def add(self, site: int, what: int, who: int, count: int, state: int = 0,
            rotation: int = 0, value: int = 0, level: int = TOP) -> None:
        """Put `count` pieces at a site. An occupied site keeps its piece, whatever was
        added (Ludii's ActionAdd sets only the count of an occupied site): the count grows
        in a hand or when the game counts, else it is one."""
        if self.what[site]:
            self.count[site] = self.count[site] + count \
                if self.count_from <= site < self.count_to else 1
            return
        self.what[site] = what
        self.who[site] = who
        self.count[site] = count
        if self.plain:
            if not (state or rotation or value):
                return
            self.plain = False
        # Ludii's ActionAdd leaves a value not given as the site had it: a value set on
        # the empty site stays with the piece added there.
        self.state[site], self.rotation[site] = state, rotation
        if value:
            self.value[site] = value

    def remove(self, site: int, level: int = TOP) -> None:
        """Empty a site, whatever its count, a hand's too (Ludii's ContainerFlatState.remove)."""
        self.clear(site)

    def move(self, frm: int, to: int, level_from: int = TOP, level_to: int = TOP) -> None:
        """Move one piece from `frm` to `to` (a count at `frm` goes down by one); nothing when
        `frm` is empty (a capture collected before an earlier one emptied the site)."""
        what_ = self.what
        what = what_[frm]
        if not what:
            return
        who_, count_ = self.who, self.count
        who = who_[frm]
        if self.plain:                  # no state, rotation or value to carry
            if count_[frm] > 1:
                count_[frm] -= 1
            else:
                who_[frm] = what_[frm] = count_[frm] = 0
            if what_[to] == what and self.count_from <= to < self.count_to:
                count_[to] += 1
                return
            owner_of = self.owner_of
            if owner_of is not None:
                who = owner_of[what]
            what_[to] = what
            who_[to] = who
            count_[to] = 1
            return
        state_, rotation_, value_ = self.state, self.rotation, self.value
        st, rot, val = state_[frm], rotation_[frm], value_[frm]
        if count_[frm] > 1:
            count_[frm] -= 1
        else:
            who_[frm] = what_[frm] = count_[frm] = state_[frm] = rotation_[frm] = \
                value_[frm] = 0
        if self.count_from <= to < self.count_to and what_[to] == what:
            count_[to] += 1
        else:
            if self.owner_of is not None:
                who = self.owner_of[what]
            what_[to], who_[to], count_[to] = what, who, 1
            state_[to], rotation_[to], value_[to] = st, rot, val

    def move_stack(self, frm: int, to: int) -> None:
        """Move everything at `frm` to `to` (one level: the same as a move with its count)."""
        if not self.what[frm]:
            return
        data = (self.what[frm], self.who[frm], self.count[frm], self.state[frm],
                self.rotation[frm], self.value[frm])
        self.clear(frm)
        (self.what[to], self.who[to], self.count[to], self.state[to], self.rotation[to],
         self.value[to]) = data

    def move_n(self, frm: int, to: int, n: int) -> None:
        """Move `n` pieces of a counted site (Ludii's ActionMoveN): the destination takes
        them when empty or holding the same kind; the start keeps what is left."""
        what = self.what[frm]
        who = self.who[frm] if self.owner_of is None or not what else self.owner_of[what]
        if self.count[frm] - n <= 0:
            self.clear(frm)
        else:
            self.count[frm] -= n
        if self.count[to] == 0:
            self.clear(to)
            self.what[to], self.who[to], self.count[to] = what, who, n
        elif self.what[to] == what:
            self.count[to] += n

    def set_count(self, site: int, count: int) -> None:
        if count <= 0:
            self.clear(site)
        else:
            self.count[site] = count

    def set_piece(self, site: int, who: int, what: int, level: int = TOP) -> None:
        self.who[site], self.what[site] = who, what

    def set_field(self, field: str, site: int, value: int, level: int = TOP) -> None:
        """Set `state`, `rotation` or `value` of the piece at a site."""
        if value:
            self.plain = False
        getattr(self, field)[site] = value


class IndexWhoSites(FlatSites):
    """Ludii's ContainerFlatState without its `what` chunks (no count, no item indices, no
    local state): a piece written on a board site writes its index into `who` after its
    owner (ContainerFlatState.setSite: `what` falls back on `who`), so the board's `who` is
    the piece's index, and `what` reads it back. A neutral or shared piece then has a
    player's number as its `who`; rules that read Ludii's owned-pieces lists read the
    component's owner instead (see `ludeme.engine.state.Game.who_is_index`). Hands keep
    their own `what` in Ludii: their sites keep the owner."""

    __slots__ = ()

    def _index_who(self, site: int) -> None:
        if site < self.hand_from:
            self.who[site] = self.what[site]

    def add(self, site, what, who, count, state=0, rotation=0, value=0, level=TOP):
        super().add(site, what, who, count, state, rotation, value, level)
        self._index_who(site)

    def move(self, frm, to, level_from=TOP, level_to=TOP):
        super().move(frm, to, level_from, level_to)
        self._index_who(to)

    def move_stack(self, frm, to):
        super().move_stack(frm, to)
        self._index_who(to)

    def move_n(self, frm, to, n):
        super().move_n(frm, to, n)
        self._index_who(to)

    def set_piece(self, site, who, what, level=TOP):
        super().set_piece(site, who, what, level)
        self._index_who(site)


class OwnedOrder:
    """Ludii's lists of owned pieces (`other.state.owned`) beside a flat store, in Ludii's
    order: per piece kind, the sites holding it, as the actions wrote them. A rule that
    takes the first of a kind's pieces reads this order ((where "King" Mover) in a game
    with several kings), which no position shows.

    Ludii's actions keep the lists (a move: the piece leaves its list when its site empties,
    the piece it replaces leaves its own, and it joins at the end when it lands alone; an
    add joins an empty site; a removal leaves; a promotion leaves and joins the end). How a
    site leaves a list is the store's kind (OwnedFactory): a game of cells only, or of
    vertices only, swaps the list's last site into its place (FlatCellOnlyOwned,
    FlatVertexOnlyOwned); any other (FullOwned) drops every entry of the site and keeps the
    order. Flat stores: a stacking game's lists keep levels (`OwnedStackSites`). Only the
    kinds a rule asks after are kept (`owned` has a list for each), since each of Ludii's
    lists is of one player's kind: a clone copies those few."""

    __slots__ = ()

    def _leave(self, what: int, site: int) -> None:
        sites = self.owned.get(what)
        if not sites:                   # empty, or a kind no rule asks after
            return
        if self.owned_swap:
            try:
                i = sites.index(site)
            except ValueError:
                return
            sites[i] = sites[-1]
            sites.pop()
        else:
            sites[:] = [s for s in sites if s != site]

    def _join(self, what: int, site: int) -> None:
        sites = self.owned.get(what)
        if sites is not None:
            sites.append(site)

    def copy(self):
        s = super().copy()
        s.owned = {what: sites[:] for what, sites in self.owned.items()}
        s.owned_swap, s.owners = self.owned_swap, self.owners
        return s

    def clear(self, site: int) -> None:         # remove, set_count and move_stack use it
        what = self.what[site]
        super().clear(site)
        if what:
            self._leave(what, site)

    def add(self, site, what, who, count, state=0, rotation=0, value=0, level=TOP):
        was = self.what[site]
        super().add(site, what, who, count, state, rotation, value, level)
        if not was and what:
            self._join(what, site)

    def move(self, frm, to, level_from=TOP, level_to=TOP):
        what = self.what[frm]
        if not what:
            return super().move(frm, to, level_from, level_to)
        last = self.count[frm] <= 1
        held = self.what[to] if to != frm else 0
        counted = held == what and self.count_from <= to < self.count_to
        super().move(frm, to, level_from, level_to)
        if last:
            self._leave(what, frm)
        if held and not counted:
            self._leave(held, to)
        if self.count[to] == 1:
            self._join(what, to)

    def move_stack(self, frm, to):
        what = self.what[frm]
        held = self.what[to] if to != frm else 0
        super().move_stack(frm, to)             # the origin leaves by `clear`
        if what:
            if held:
                self._leave(held, to)
            self._join(what, to)

    def move_n(self, frm, to, n):
        """Ludii's ActionMoveN: the origin's entry leaves and the destination joins, whatever
        the counts."""
        what = self.what[frm]
        emptied = self.count[frm] - n <= 0
        super().move_n(frm, to, n)              # an emptied origin leaves by `clear`
        if what:
            if not emptied:
                self._leave(what, frm)
            self._join(what, to)

    def set_piece(self, site, who, what, level=TOP):
        """Ludii's ActionPromote: the old piece leaves, the new one joins at the end (a
        piece of no player's is in no list there)."""
        old = self.what[site]
        super().set_piece(site, who, what, level)
        if old and self.owners[old]:
            self._leave(old, site)
        if what and self.owners[what]:
            self._join(what, site)


class OwnedFlatSites(OwnedOrder, FlatSites):
    """A flat store keeping Ludii's lists of owned pieces (`OwnedOrder`)."""

    __slots__ = ("owned", "owned_swap", "owners")


class OwnedIndexWhoSites(OwnedOrder, IndexWhoSites):
    """`IndexWhoSites` keeping Ludii's lists of owned pieces (`OwnedOrder`)."""

    __slots__ = ("owned", "owned_swap", "owners")


_WHAT, _WHO, _STATE, _ROT, _VALUE = range(5)
_FIELD_INDEX = {"state": _STATE, "rotation": _ROT, "value": _VALUE}


class StackSites:
    """Stacks of levels per site (Ludii's ContainerStateStacks), with top-level views.

    Like Ludii's ChunkStack, a level's state, rotation and value outlive the piece in some
    cases: removing a piece from a given level (not the top piece) shifts the levels above
    down and leaves the old top's data one place above the new top, and a piece pushed
    without data of its own (an add, or a top piece moved, which Ludii re-adds by what
    and owner alone) takes whatever data its level was left with. `residue` keeps that
    data per site: level index -> (state, rotation, value), read only above the stack."""

    __slots__ = ("stacks", "who", "what", "count", "state", "rotation", "value", "hand_from",
                 "residue")
    stacking = True

    def __init__(self, total_sites: int, hand_from: int):
        self.stacks: list[list[list[int]]] = [[] for _ in range(total_sites)]
        self.who = [0] * total_sites
        self.what = [0] * total_sites
        self.count = [0] * total_sites       # 1 where a player's piece tops a stack (countCell)
        self.state = [0] * total_sites
        self.rotation = [0] * total_sites
        self.value = [0] * total_sites
        self.hand_from = hand_from
        self.residue: dict[int, list[tuple[int, int, int]]] = {}

    def copy(self) -> "StackSites":
        s = type(self).__new__(type(self))
        s.stacks = [[lv[:] for lv in st] for st in self.stacks]
        s.who, s.what, s.count = self.who[:], self.what[:], self.count[:]
        s.state, s.rotation, s.value = self.state[:], self.rotation[:], self.value[:]
        s.hand_from = self.hand_from
        s.residue = {site: left[:] for site, left in self.residue.items()}
        return s

    def _leave(self, site: int, index: int, data: tuple[int, int, int]) -> None:
        """Keep `data` as what level `index` of a site was left with."""
        left = self.residue.setdefault(site, [])
        if len(left) <= index:
            left.extend([(0, 0, 0)] * (index + 1 - len(left)))
        left[index] = data

    def _left(self, site: int, index: int) -> list[int]:
        """The state, rotation and value level `index` of a site was left with."""
        left = self.residue.get(site)
        return list(left[index]) if left is not None and index < len(left) else [0, 0, 0]

    def _pop_level(self, site: int, i: int) -> list[int]:
        """Take out level i as Ludii's remove(site, level): the top index keeps the old
        top's data (a removal from the top of the stack by level keeps the piece's own)."""
        st = self.stacks[site]
        top = st[-1]
        piece = st.pop(i)
        self._leave(site, len(st), (top[_STATE], top[_ROT], top[_VALUE]))
        return piece

    def _pop_top(self, site: int) -> list[int]:
        """Take the top piece as Ludii's remove(site): its level is left with no data."""
        piece = self.stacks[site].pop()
        if site in self.residue:
            self._leave(site, len(self.stacks[site]), (0, 0, 0))
        return piece

    def _sync(self, site: int) -> None:
        st = self.stacks[site]
        if st:
            top = st[-1]
            self.what[site], self.who[site] = top[_WHAT], top[_WHO]
            self.state[site], self.rotation[site], self.value[site] = \
                top[_STATE], top[_ROT], top[_VALUE]
            # Ludii 1.3.12's countCell on stacks: 1 when the top piece has an owner, else 0
            self.count[site] = 1 if top[_WHO] else 0
        else:
            self.what[site] = self.who[site] = self.count[site] = 0
            self.state[site] = self.rotation[site] = self.value[site] = 0

    def _index(self, site: int, level: int) -> int | None:
        n = len(self.stacks[site])
        i = n - 1 if level == TOP else level
        return i if 0 <= i < n else None

    # -- reading levels ------------------------------------------------------
    def size_stack(self, site: int) -> int:
        return len(self.stacks[site])

    def level(self, site: int, level: int = TOP) -> tuple:
        i = self._index(site, level)
        return tuple(self.stacks[site][i]) if i is not None else (0, 0, 0, 0, 0)

    def stack(self, site: int) -> tuple:
        return tuple(tuple(lv) for lv in self.stacks[site])

    def holds(self, site: int, players, whats=None) -> bool:
        """Some level at the site holds a piece of one of `players` (of kinds `whats`)."""
        for lv in self.stacks[site]:
            if lv[_WHO] in players and (whats is None or lv[_WHAT] in whats):
                return True
        return False

    def key(self) -> tuple:
        return tuple([tuple(map(tuple, st)) for st in self.stacks])

    # -- writing ---------------------------------------------------------------
    def clear(self, site: int) -> None:
        self.stacks[site] = []
        self.residue.pop(site, None)        # Ludii's removeStack drops the whole stack
        self._sync(site)

    def add(self, site: int, what: int, who: int, count: int, state: int | None = None,
            rotation: int = 0, value: int = 0, level: int = TOP) -> None:
        """Push `count` pieces on the stack (or insert them at `level`). Pushed without
        a state (None), a piece takes the data its level was left with (Ludii's addItem
        by what and owner); inserted, it has the data given (or none)."""
        st = self.stacks[site]
        if level == TOP or level >= len(st):
            for _ in range(count):
                data = self._left(site, len(st)) if state is None else [state, rotation, value]
                st.append([what, who, *data])
        else:
            at = max(0, level)
            for _ in range(count):
                st.insert(at, [what, who, state or 0, rotation, value])
        self._sync(site)

    def remove(self, site: int, level: int = TOP) -> None:
        """Take the top piece (TOP), or the piece at `level` (Ludii's remove by level)."""
        i = self._index(site, level)
        if i is not None:
            if level == TOP:
                self._pop_top(site)
            else:
                self._pop_level(site, i)
            self._sync(site)

    def move(self, frm: int, to: int, level_from: int = TOP, level_to: int = TOP) -> None:
        """Move one level from `frm` to the top of `to` (or to `level_to`). The top piece
        moves as Ludii's ActionMoveTopPiece: re-added by what and owner, it takes the data
        its new level was left with; a piece taken from a level keeps its own."""
        i = self._index(frm, level_from)
        if i is None:
            return
        if level_from == TOP:
            piece = self._pop_top(frm)
        else:
            piece = self._pop_level(frm, i)
        self._sync(frm)
        st = self.stacks[to]
        if level_to == TOP or level_to > len(st):
            if level_from == TOP:
                piece[_STATE:] = self._left(to, len(st))
            st.append(piece)
        else:
            st.insert(max(0, level_to), piece)
        self._sync(to)

    def move_stack(self, frm: int, to: int) -> None:
        """Put the whole stack at `frm` on top of the one at `to`."""
        moving = self.stacks[frm]
        self.stacks[frm] = []
        self.stacks[to].extend(moving)
        self._sync(frm)
        self._sync(to)

    def move_n(self, frm: int, to: int, n: int) -> None:
        """Move the top `n` levels of `frm` onto `to`, keeping their order."""
        st = self.stacks[frm]
        n = min(n, len(st))
        if n <= 0:
            return
        moving = st[len(st) - n:]
        del st[len(st) - n:]
        self.stacks[to].extend(moving)
        self._sync(frm)
        self._sync(to)

    def set_count(self, site: int, count: int) -> None:
        """Ludii's stacks have no counts: a count sets the stack's height with its top piece."""
        st = self.stacks[site]
        if count <= 0:
            st.clear()
        elif st:
            while len(st) < count:
                st.append(st[-1][:])
            del st[count:]
        self._sync(site)

    def set_piece(self, site: int, who: int, what: int, level: int = TOP) -> None:
        i = self._index(site, level)
        if i is not None:
            self.stacks[site][i][_WHO] = who
            self.stacks[site][i][_WHAT] = what
            self._sync(site)

    def set_field(self, field: str, site: int, value: int, level: int = TOP) -> None:
        i = self._index(site, level)
        if i is not None:
            self.stacks[site][i][_FIELD_INDEX[field]] = value
            self._sync(site)


class OwnedStackSites(StackSites):
    """`StackSites` keeping Ludii's lists of owned pieces of a stacking game (CellOnlyOwned,
    FullOwned of one site type): per piece kind, the locations (site, level) in the order
    the actions wrote them. Only the kinds a rule asks after are kept (`owned`).

    Ludii's two removals: by site (every entry of the site: a whole stack moved, a count
    set to 0) and by level (`_drop_level`: the entries at that level, then every kept
    list's entries above it at that site move down a level; FullOwned leaves the lists of
    pieces without an owner alone there, `shift_neutral` False). Each write below follows
    its Ludii action's updates, quirks included: an entry keeps the level Ludii wrote even
    where the piece stands elsewhere in the stack, and an entry Ludii forgets stays
    (a promotion of a piece alone on its site, a neutral stack moved)."""

    __slots__ = ("owned", "owners", "shift_neutral")

    def copy(self):
        s = super().copy()
        s.owned = {what: locs[:] for what, locs in self.owned.items()}  # entries are tuples
        s.owners, s.shift_neutral = self.owners, self.shift_neutral
        return s

    def _join(self, what: int, site: int, level: int) -> None:
        locs = self.owned.get(what)
        if locs is not None:
            locs.append((site, level))

    def _drop_site(self, what: int, site: int) -> None:
        locs = self.owned.get(what)
        if locs:
            locs[:] = [loc for loc in locs if loc[0] != site]

    def _drop_exact(self, what: int, site: int, level: int) -> None:
        """Ludii's removeNoUpdate: the entries at that level only."""
        locs = self.owned.get(what)
        if locs:
            locs[:] = [loc for loc in locs if loc != (site, level)]

    def _drop_level(self, what: int, site: int, level: int) -> None:
        self._drop_exact(what, site, level)
        owners, neutral = self.owners, self.shift_neutral
        for kind, locs in self.owned.items():
            if (neutral or owners[kind]) and any(s == site and lv > level for s, lv in locs):
                locs[:] = [(s, lv - 1) if s == site and lv > level else (s, lv)
                           for s, lv in locs]

    def _kinds_at(self, site: int) -> list[int]:
        return [lv[_WHAT] for lv in self.stacks[site]]

    def clear(self, site: int) -> None:
        """Ludii's removal of a whole stack: each kind leaves the site's entries."""
        kinds = self._kinds_at(site)
        super().clear(site)
        for what in kinds:
            if what:
                self._drop_site(what, site)

    def add(self, site, what, who, count, state=None, rotation=0, value=0, level=TOP):
        """Ludii's ActionAdd (a push: the new top joins) or ActionInsert (below the top:
        each piece above the level moves up an entry, then the new one joins at it)."""
        for _ in range(count):
            st = self.stacks[site]
            if level == TOP or level >= len(st):
                super().add(site, what, who, 1, state, rotation, value, level)
                if what:
                    self._join(what, site, len(st) - 1)
                continue
            at = max(0, level)
            for i in range(len(st) - 1, at - 1, -1):
                kind = st[i][_WHAT]
                self._drop_exact(kind, site, i)
                self._join(kind, site, i + 1)
            super().add(site, what, who, 1, state, rotation, value, level)
            self._join(what, site, at)

    def remove(self, site, level=TOP):
        """Ludii's ActionRemove: the piece leaves by its level (the top's when none)."""
        i = self._index(site, level)
        if i is None:
            return
        what = self.stacks[site][i][_WHAT]
        super().remove(site, level)
        if what:
            self._drop_level(what, site, i)

    def move(self, frm, to, level_from=TOP, level_to=TOP):
        """Ludii's ActionMove on stacks: nothing when `frm` is `to`; the piece joins at the
        top of `to` (an inserted one: every piece above it re-joins a level up, each one's
        removal shifting the others, then it joins at its level; a top piece inserted
        joins at the top's level all the same), then leaves `frm` by its level (an
        inserted one only when it has an owner)."""
        i = self._index(frm, level_from)
        if i is None or frm == to:
            return super().move(frm, to, level_from, level_to)
        what = self.stacks[frm][i][_WHAT]
        dest = self.stacks[to]
        inserted = level_to != TOP and level_to <= len(dest)
        if inserted and level_from != TOP:
            for j in range(len(dest) - 1, level_to - 1, -1):
                kind = dest[j][_WHAT]
                self._drop_level(kind, to, j)
                self._join(kind, to, j + 1)
        super().move(frm, to, level_from, level_to)
        if not what:
            return
        if inserted and level_from != TOP:
            self._join(what, to, level_to)
            if self.owners[what]:
                self._drop_level(what, frm, i)
            return
        self._join(what, to, len(dest) - 1)
        self._drop_level(what, frm, i)

    def move_stack(self, frm, to):
        """Ludii's ActionMove of a whole stack: each owned kind of `frm` leaves the site's
        entries, then each owned piece joins at its new level, bottom first."""
        if frm == to:
            return super().move_stack(frm, to)
        kinds = self._kinds_at(frm)
        base = len(self.stacks[to])
        super().move_stack(frm, to)
        owners = self.owners
        for what in kinds:
            if what and owners[what]:
                self._drop_site(what, frm)
        for k, what in enumerate(kinds):
            if what and owners[what]:
                self._join(what, to, base + k)

    def move_n(self, frm, to, n):
        """Ludii's ActionStackMove: the top pieces leave one by one by their level, then
        join at `to` bottom first."""
        st = self.stacks[frm]
        n = min(n, len(st))
        moving = [lv[_WHAT] for lv in st[len(st) - n:]]
        for k in range(len(st) - 1, len(st) - n - 1, -1):
            self._drop_level(st[k][_WHAT], frm, k)
        base = len(self.stacks[to]) - (n if frm == to else 0)
        super().move_n(frm, to, n)
        for k, what in enumerate(moving):
            self._join(what, to, base + k)

    def set_count(self, site, count):
        """Ludii's ActionSetCount: a count of 0 takes the site out of the kind's entries
        (here the whole stack goes). A count set elsewhere leaves the lists as they are,
        where Ludii's would join a site it counts as empty: only sowing sets counts, and
        no stacking game of Ludii's corpus sows."""
        kinds = self._kinds_at(site) if count <= 0 else ()
        super().set_count(site, count)
        for what in kinds:
            if what:
                self._drop_site(what, site)

    def set_piece(self, site, who, what, level=TOP):
        """Ludii's ActionPromote on stacks: the old piece leaves by its level only when
        other pieces stay on the site and it has an owner; the new one, with an owner,
        joins at that level."""
        i = self._index(site, level)
        if i is None:
            return super().set_piece(site, who, what, level)
        old = self.stacks[site][i][_WHAT]
        others = len(self.stacks[site]) > 1
        super().set_piece(site, who, what, level)
        owners = self.owners
        if old and others and owners[old]:
            self._drop_level(old, site, i)
        if what and owners[what]:
            self._join(what, site, i)


def new_sites(total_sites: int, hand_from: int, stacking: bool, who_is_index: bool = False,
              owned: tuple[frozenset[int], bool, list[int]] | None = None):
    """The store a game needs: stacks for a stacking game, flat otherwise (with the
    piece's index as its `who` on the board where Ludii stores it so). `owned`: keep
    Ludii's lists of owned pieces of these kinds (`OwnedOrder`, `OwnedStackSites`), given
    whether a site leaves its list by a swap (flat) or a removal from a level shifts the
    neutral pieces' levels too (stacks), and each component's owner."""
    if stacking:
        if owned is None:
            return StackSites(total_sites, hand_from)
        stacks = OwnedStackSites(total_sites, hand_from)
        kinds, stacks.shift_neutral, stacks.owners = owned
        stacks.owned = {what: [] for what in kinds}
        return stacks
    if owned is None:
        return (IndexWhoSites if who_is_index else FlatSites)(total_sites, hand_from)
    store = (OwnedIndexWhoSites if who_is_index else OwnedFlatSites)(total_sites, hand_from)
    kinds, store.owned_swap, store.owners = owned
    store.owned = {what: [] for what in kinds}
    return store


class TrackIndices:
    """Where each piece kind stands *along* each track, as Ludii's OnTrackIndices keeps it.

    On a track that passes a site more than once, the site alone does not say how far a
    piece has gone: per track, per piece kind (`what`), per index along the track, this
    counts the pieces recorded there. Ludii keeps it in every game with a track that crosses
    itself, updated by the actions that add, move and remove pieces (see the methods), and
    `(trackSite Move ...)` reads it. Its quirks are Ludii's: a removal takes one piece off
    *every* index of the site (counts may go negative), a whole-stack move updates nothing.
    """

    __slots__ = ("at_site", "lengths", "counts")

    def __init__(self, tracks):
        # Per track: site -> its indices along the track, in order (shared by copies).
        self.at_site = [_indices_by_site(t.sites) for t in tracks]
        self.lengths = [len(t.sites) for t in tracks]
        # Per track: what -> count per index, made when a kind first comes on the track.
        self.counts: list[dict[int, list[int]]] = [{} for _ in tracks]

    def copy(self) -> "TrackIndices":
        other = TrackIndices.__new__(TrackIndices)
        other.at_site, other.lengths = self.at_site, self.lengths
        other.counts = [{w: c[:] for w, c in per.items()} for per in self.counts]
        return other

    def _row(self, track: int, what: int) -> list[int]:
        row = self.counts[track].get(what)
        if row is None:
            row = self.counts[track][what] = [0] * self.lengths[track]
        return row

    def indices(self, track: int, site: int) -> tuple[int, ...]:
        """The indices of a site along a track, first first (empty when it is not on it)."""
        return self.at_site[track].get(site, ())

    def count(self, track: int, what: int, index: int) -> int:
        row = self.counts[track].get(what)
        return row[index] if row is not None else 0

    def added(self, site: int, what: int, count: int) -> None:
        """Pieces put at a site (Ludii's ActionAdd, ActionInsert): at its first index."""
        if not what:
            return
        for t, by_site in enumerate(self.at_site):
            idx = by_site.get(site)
            if idx:
                self._row(t, what)[idx[0]] += count

    def removed(self, site: int, what: int) -> None:
        """One piece taken from a site (Ludii's ActionRemove): off every index of the site."""
        if not what:
            return
        for t, by_site in enumerate(self.at_site):
            idx = by_site.get(site)
            if idx:
                row = self._row(t, what)
                for i in idx:
                    row[i] -= 1

    def moved(self, frm: int, to: int, what: int, count: int = 1) -> None:
        """Pieces moved (Ludii's ActionMove, ActionMoveN): from the first index of `frm`
        holding that kind to the first index of `to` after it, else the first of `to`; a
        piece coming from off the track enters at the first index of `to` (one piece, as
        Ludii counts it whatever the number moved)."""
        if not what:
            return
        for t, by_site in enumerate(self.at_site):
            idx_from = by_site.get(frm, ())
            idx_to = by_site.get(to, ())
            if not idx_from:
                if idx_to:
                    self._row(t, what)[idx_to[0]] += 1
                continue
            row = self._row(t, what)
            for i in idx_from:
                if row[i] > 0:
                    row[i] -= count
                    after = [j for j in idx_to if j > i]
                    if after:
                        row[after[0]] += count
                    elif idx_to:
                        row[idx_to[0]] += count
                    break


def _indices_by_site(sites) -> dict[int, tuple[int, ...]]:
    out: dict[int, list[int]] = {}
    for i, s in enumerate(sites):
        out.setdefault(s, []).append(i)
    return {s: tuple(i) for s, i in out.items()}
