"""Ludemes that the bundled descriptions need and the other families do not have yet.

Each follows the Ludii class of the same keyword (Core/src/game/...); the
docstring names it and carries a small `.lud` example.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import Unsupported, emit, emits
from ludeme.engine.state import A_ADD, A_SET_FIELD, A_SET_MOVER, FORCED_PLACES
from ludeme.engine.stores import TOP
from ludeme.language.syntax import Str
from .base import IntFn, LitStr, Other, P, Region, SiteType, ludeme
from .literals import SitesLiteral


@ludeme("count", "Turns")
class CountTurns(IntFn):
    """`(count Turns)`: the number of the current turn, 1 for the first.

    As Ludii's CountTurns (`state.numTurn()`): it starts at 1 and goes up by one
    whenever the mover changes, so a forced pass counts as a turn and a
    `(moveAgain)` does not. Example, pieces of kind "Big" on the first two turns
    of every four:

        (if (< (% (- (count Turns) 1) 4) 2) (forEach Piece "Big") (forEach Piece "Small"))
    """
    concepts = ()

    params = ()

    def compile(self, env):
        return lambda c: c.s.num_turn


# Chance ------------------------------------------------------------------------

@ludeme("value", "Random")
class ValueRandom(IntFn):
    """`(value Random (range <lo> <hi>))`: an integer drawn uniformly from lo..hi.

    As Ludii's ValueRandom (later Ludii versions; `context.rng()` there): the
    draw comes from the state's chance stream (`State.rng`, seeded from the
    playout's seed), so the same seed gives the same draw, and every value drawn
    is appended to `State.draws`, which playout rows record. A game using it has
    `Game.uses_chance` set. Example, a random first player of four:

        (start (set Mover (value Random (range 1 4))))
    """
    concepts = ("Stochastic",)
    draws_chance = True

    params = (P("range", "RangeL"),)

    def compile(self, env):
        lo, hi = self.range.bounds(env)
        env.uses_chance = True

        def draw(c):
            s = c.s
            value = s.rng.randint(lo(c), hi(c))
            s.draws.append(value)
            return value
        return draw


@ludeme("place", "Random")
class PlaceRandom(Other):
    """`(place Random [<region>] {"Item" ...} [count:<n>] [state:<n>] [value:<n>] [<type>])`,
    a start rule: each item in turn goes to `count` sites drawn at random among the sites of
    the region (the board by default) empty when that item's turn comes, one piece a site
    (Ludii's PlaceRandom; its random stacks are PlaceRandomStack). The draws come from the
    state's chance stream; a replay of Ludii's trace forces them to the recorded start
    (Game.new_initial_state's forced_places). Example:

        (start (place Random {"Triangle1" "Triangle2" "Triangle0"}))
    """
    concepts = ("InitialRandomPlacement", "Stochastic", "PieceValue if value",
                "SiteState if state")
    draws_chance = True

    params = (P("region", Region, opt=True), P("items", LitStr, many=True, opt=True),
              P("count", IntFn, opt=True, named=True), P("value", IntFn, opt=True, named=True),
              P("state", IntFn, opt=True, named=True), P("type", SiteType, opt=True))

    def validate(self):
        # Read in order, the items' array {"A" "B"} also fits the optional region before
        # them (a region of labelled sites): without a second array, it is the items.
        if not self.items and isinstance(self.region, SitesLiteral) and \
                all(isinstance(n, Str) for n in self.region.items):
            self.items = [n.value for n in self.region.items]
            self.region = None
        if not self.items:
            raise self.fail("(place Random ...) needs the items to place: {\"Item\" ...}")

    def start_actions(self, env, ctx) -> list:
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(place Random ... {self.type}) on a board played on "
                            f"{env.board.site_type} sites is not supported yet")
        names = env.equipment.component_names()
        missing = [it for it in self.items if it not in names]
        if missing:
            raise self.fail(f"no piece called {missing[0]!r}; pieces: {', '.join(names)}")
        env.uses_chance = True
        env.places_at_random = True
        for it in self.items:
            env.random_places.setdefault(names[it], []).append(
                (self, self.state is not None or self.value is not None))
        region = env.compile(self.region) if self.region is not None else None
        count = env.compile(self.count) if self.count is not None else (lambda c: 1)
        fields = [(name, env.compile(fn)) for name in ("state", "value")
                  if (fn := getattr(self, name)) is not None]
        n = env.num_board_sites

        def draw(s, what: int, sites: list[int]) -> int:
            forced = s.notes.get(FORCED_PLACES)
            if forced is not None:
                site = next((x for x in forced.get(what, ()) if x in sites), None)
                if site is not None:
                    forced[what].remove(site)
                    return site
            site = sites[s.rng.randrange(len(sites))]
            s.draws.append(site)
            return site

        def place(what: int):
            comp = env.components[what]

            def actions(c) -> list:
                s = c.s
                sites = [x for x in (region(c) if region else range(n)) if not s.what[x]]
                given = [(name, fn(c)) for name, fn in fields]     # once an item, as Ludii
                acts = []
                for _ in range(count(c)):
                    if not sites:
                        break
                    site = draw(s, what, sites)
                    sites.remove(site)
                    acts.append((A_ADD, site, what, comp.owner, 1))
                    acts.extend((A_SET_FIELD, name, site, TOP, v) for name, v in given)
                return acts
            actions.places_at_random = self     # (the kernels draw it: `_place_random_start`)
            return actions
        # One start move per item: each item's empty sites are read after the last one's.
        return [place(names[it]) for it in self.items]


@emits(PlaceRandom, kind="start", refuses=("type",))
def _place_random_start(src, lud, out, ind):
    """Each item in turn, as `PlaceRandom.start_actions`: the empty sites of the region in
    its order, then `count` times a site drawn among them from the chance stream (recorded
    as drawn, as the reference's `State.draws`), taken out of them and given the piece (its
    state: and value: as given, read once for the item)."""
    names = src.env.equipment.component_names()
    comps = src.game.components
    cap = src.env.num_board_sites
    for it in lud.items:
        w = names[it]
        out.append(f"{ind}pr_sites = np.empty({cap}, np.int64)")
        out.append(f"{ind}pr_n = 0")
        body = [f"if 0 <= site < {cap} and what[site] == 0:",
                "    pr_sites[pr_n] = site", "    pr_n += 1"]
        if lud.region is not None:
            src.for_region(lud.region, out, ind, body)
        else:
            out.append(f"{ind}for site in range({cap}):")
            out.extend(f"{ind}    {x}" for x in body)
        placed = [src.site_add("pr_site", str(w), str(comps[w].owner), "1")]
        for name in ("state", "value"):         # (the reference's `fields`, in order)
            fn = getattr(lud, name)
            if fn is None:
                continue
            out.append(f"{ind}pr_{name} = {src.int_expr(fn)}")
            placed.append(src.set_piece_state("pr_site", "pr_state") if name == "state"
                          else f"{src.piece_value('pr_site')} = pr_value")
        count = src.int_expr(lud.count) if lud.count is not None else "1"
        out += [f"{ind}for _ in range({count}):",
                f"{ind}    if pr_n == 0:",
                f"{ind}        break",
                f"{ind}    pr_site = pr_sites[rand_below(sc[CHANCE:CHANCE + N_CHANCE], pr_n)]",
                f"{ind}    if sc[NDRAWS] >= DRAW_CAP:",
                f"{ind}        raise KernelFull('more chance draws at the start than the "
                f"kernels keep')",
                f"{ind}    sc[DRAWS + sc[NDRAWS]] = pr_site",
                f"{ind}    sc[NDRAWS] += 1",
                # the first site of that number leaves the list, as list.remove
                f"{ind}    j = 0",
                f"{ind}    while pr_sites[j] != pr_site:",
                f"{ind}        j += 1",
                f"{ind}    pr_sites[j:pr_n - 1] = pr_sites[j + 1:pr_n].copy()",
                f"{ind}    pr_n -= 1",
                *(f"{ind}    {x}" for x in placed)]


@ludeme("count")
class CountItem(Other):
    """`(count "Item" <n>)`: so many of a piece, in a list of pieces to place (Ludii's
    game.util.math.Count). Example: `(place Random {(count "Pawn1" 8) (count "King1" 1)}
    (handSite 1))`."""
    concepts = ()

    params = (P("item", LitStr), P("count", IntFn))


@ludeme("place", "Random")
class PlaceRandomStack(Other):
    """`(place Random {(count "Item" <n>) ...} <site> [<type>])` or `(place Random {"Item" ...}
    [count:{<n> ...}] [value:<n>] [state:<n>] <site> [<type>])`, a start rule: a stack of
    those pieces (each item `count` times, once without counts) on the site, in an order
    drawn at random: each piece in turn, bottom first, drawn among those left (Ludii's
    PlaceRandom for a stack). The game keeps stacks. A replay of Ludii's trace cannot force
    it: the trace records a hand's top piece only, and a replay says so. Example:

        (start (place Random {(count "Pawn1" 8) (count "King1" 1)} (handSite 1)))
    """
    concepts = ("InitialRandomPlacement", "Stochastic", "PieceValue if value",
                "SiteState if state")
    draws_chance = True     # (no compiled form: the kernels refuse it, `_start_lines`)

    params = (P("items", (CountItem, LitStr), many=True),
              P("count", IntFn, opt=True, named=True, many=True),
              P("value", IntFn, opt=True, named=True), P("state", IntFn, opt=True, named=True),
              P("where", IntFn), P("type", SiteType, opt=True))

    def validate(self):
        counted = [isinstance(it, CountItem) for it in self.items]
        if any(counted) and not all(counted):
            raise self.fail("(place Random {...} <site>) takes piece names or (count ...) "
                            "items, not both")
        if any(counted) and (self.count or self.value is not None or self.state is not None):
            raise self.fail("(place Random {(count ...) ...} <site>) takes no count:, value: "
                            "or state: (Ludii's constructor has none)")

    def start_actions(self, env, ctx) -> list:
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(place Random ... {self.type}) on a board played on "
                            f"{env.board.site_type} sites is not supported yet")
        names = env.equipment.component_names()
        pairs = [(it.item, it.count) if isinstance(it, CountItem) else (it, None)
                 for it in self.items]
        if self.count:
            if len(self.count) < len(pairs):
                raise self.fail(f"count:{{...}} gives {len(self.count)} counts for "
                                f"{len(pairs)} pieces")
            pairs = [(name, n) for (name, _), n in zip(pairs, self.count)]
        missing = [name for name, _ in pairs if name not in names]
        if missing:
            raise self.fail(f"no piece called {missing[0]!r}; pieces: {', '.join(names)}")
        env.uses_chance = True
        env.stacking = True
        env.random_stack = env.random_stack or self
        kinds = [(names[name], env.compile(n) if n is not None else (lambda c: 1))
                 for name, n in pairs]
        where = env.compile(self.where)
        fields = [(name, env.compile(fn)) for name in ("state", "value")
                  if (fn := getattr(self, name)) is not None]

        def stack(c) -> list:
            s = c.s
            site = where(c)
            pieces = [what for what, n in kinds for _ in range(n(c))]
            given = [(name, fn(c)) for name, fn in fields]
            acts = []
            while pieces:
                what = pieces.pop(s.rng.randrange(len(pieces)))
                s.draws.append(what)
                acts.append((A_ADD, site, what, env.components[what].owner, 1))
                acts.extend((A_SET_FIELD, name, site, TOP, v) for name, v in given)
            return acts
        return [stack]


@ludeme("set", "Mover")
class SetMover(Other):
    """`(set Mover <player>)`, a start rule: the player who makes the first move.

    Ludii's games always start with P1 and its start rules have no way to name
    another first player; this project's start rule does, so that a first
    player drawn at random is part of the rules. The player is evaluated once
    for every new state (so `(value Random ...)` draws afresh each game). Example:

        (start { (place "Stone" "Hand" count:6) (set Mover (value Random (range 1 4))) })
    """
    concepts = ()

    params = (P("player", IntFn),)

    def start_actions(self, env, ctx) -> list:
        """The start moves: one closure c -> actions, evaluated on each new state."""
        player = env.compile(self.player)
        n = env.num_players

        def first_mover(c):
            p = player(c)
            if not 1 <= p <= n:
                raise self.fail(f"(set Mover ...) gave player {p}; players are 1 to {n}")
            return [(A_SET_MOVER, p)]
        return [first_mover]


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(ValueRandom, kind="int")
def _value_random(src, lud):
    """A draw from the kernels' chance stream (`draw_int`, recorded for the row); only in
    the start rules, where the reference draws once per game, and in a move's consequents,
    which both engines evaluate as the move is applied: a draw while moves are generated
    would follow the kernels' order of generation, not the reference's."""
    if not (src.in_start or src.in_then):
        raise Unsupported(lud, "while moves are generated (only in the start rules and "
                               "consequents)")
    lo, hi = emit("range", src, lud.range)
    return f"draw_int(sc, {lo}, {hi})"


@emits(SetMover, kind="start")
def _set_mover_start(src, lud, out, ind):
    out.append(f"{ind}p = {src.int_expr(lud.player)}")
    out.append(f"{ind}if not 1 <= p <= NP:")
    out.append(f"{ind}    raise ValueError('(set Mover ...) gave a player out of range')")
    out.append(f"{ind}sc[MOVER] = p")
    out.append(f"{ind}sc[NEXT] = p % NP + 1")

@emits(CountTurns, kind="int")
def _count_turns(src, lud):
    return "sc[NUM_TURN]"
