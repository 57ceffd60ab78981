"""Typed ludemes to a runnable `Game`: equipment tables, then closures for the rules.

`compile_game(expanded)` builds the typed tree (`ludeme.ludemes`), the board
(`ludeme.boards`), the containers and components in Ludii's order, and then
compiles every rule to a closure through `Env`, which also hands ludemes the
board tables they close over (steps and rays by direction, regions, hands).
"""

from __future__ import annotations

from .engine import (A_ADD, Component, Container, Game, Phase, UNDEFINED)
from .errors import LudemeError, Pos
from .expand import Expanded
from .ludemes import base, dice as D, game as G  # importing the package registers every family
from .ludemes.base import Builder, Ludeme, Other

MAX_TURNS_PER_PLAYER = 1250
MAX_MOVES = 10_000

_PLAYER_WORDS = {f"P{i}": i for i in range(1, 17)}


class Env:
    """What compiling a ludeme needs: players, board tables, containers, components."""

    def __init__(self, num_players: int, board, containers: list[Container],
                 components: list[Component], regions: dict, facing: dict[int, str]):
        self.num_players = num_players
        self.board = board
        self.containers = containers
        self.components = components
        self.regions = regions
        self.facing = facing
        self.num_board_sites = containers[0].num_sites
        self.total_sites = sum(c.num_sites for c in containers)
        self._compiled: dict[int, object] = {}
        self._piece_gens: list | None = None
        self.piece_items: list = []        # (component index, Piece ludeme)
        self.facing_of: list[str] = ["N"] * len(components)
        self.maps: dict[str | None, dict[int, int]] = {}
        self.requires_visited = False
        self.counting = False              # a rule counts pieces per site (e.g. sow)
        self.teams: dict[int, int] = {}     # player -> team, from (set Team ...)

    # -- compiling ----------------------------------------------------------
    def compile(self, lud: Ludeme):
        """The closure of a typed ludeme (compiled once)."""
        key = id(lud)
        f = self._compiled.get(key)
        if f is None:
            try:
                f = lud.compile(self)
            except LudemeError:
                raise
            except (KeyError, IndexError, ValueError, TypeError) as e:  # a bug or bad table
                raise lud.fail(f"cannot compile this ludeme: {type(e).__name__}: {e}") from e
            self._compiled[key] = f
        return f

    def is_move_variable(self, lud: Ludeme, name: str) -> bool:
        """True when `lud` is the iteration variable `(to)`/`(from)` with no argument."""
        from .ludemes.ints import From, To
        return type(lud) is {"to": To, "from": From}[name]

    # -- players --------------------------------------------------------------
    def role_id(self, role: str, lud: Ludeme):
        """A closure giving the player id that a role word names now."""
        n = self.num_players
        if role in _PLAYER_WORDS:
            p = _PLAYER_WORDS[role]
            if p > n:
                raise lud.fail(f"{role} does not exist in a {n}-player game")
            return lambda c: p
        if role == "Mover":
            return lambda c: c.s.mover
        if role == "Next":
            return lambda c: c.s.next
        if role == "Prev":
            return lambda c: c.s.prev
        if role == "Player":
            return lambda c: c.player
        if role == "Neutral":
            return lambda c: 0
        if role in ("Shared", "All", "Each"):
            return lambda c: n + 1
        raise lud.fail(f"the role {role} names several players where one is expected")

    def role_players(self, role: str, lud: Ludeme):
        """A closure giving the set of player ids a role word covers now."""
        n = self.num_players
        everyone = frozenset(range(1, n + 1))
        if role in ("All", "Each", "Any"):
            allp = frozenset(range(0, n + 2))
            return lambda c: allp if role == "Any" else everyone
        if role == "Shared":
            return lambda c: frozenset((n + 1,))
        if role == "Enemy" and self.teams:
            teams = self.teams
            return lambda c: frozenset(p for p in everyone if teams.get(p) != teams.get(c.s.mover))
        if role in ("Enemy", "NonMover"):
            return lambda c: everyone - {c.s.mover}
        if role in ("Friend", "Ally", "MoverTeam", "TeamMover"):
            if self.teams:
                teams = self.teams
                return lambda c: frozenset(p for p in everyone
                                           if teams.get(p) == teams.get(c.s.mover))
            return lambda c: frozenset((c.s.mover,))
        one = self.role_id(role, lud)
        return lambda c: frozenset((one(c),))

    # -- components -------------------------------------------------------------
    def team_id(self, role: str, lud: Ludeme):
        """A closure giving the team a role names: TeamMover, NextTeam, Team1..."""
        teams = self.teams
        if role in ("TeamMover", "MoverTeam"):
            return lambda c: teams.get(c.s.mover, 0)
        if role == "NextTeam":
            return lambda c: teams.get(c.s.next, 0)
        if role == "PrevTeam":
            return lambda c: teams.get(c.s.prev, 0)
        if role.startswith("Team") and role[4:].isdigit():
            t = int(role[4:])
            return lambda c: t
        raise lud.fail(f"{role} is not a team")

    def component_fn(self, name: str, role: str | None, lud: Ludeme):
        """A closure giving the index of component `name` (of `role`'s player if given)."""
        by_name = {comp.name: comp.index for comp in self.components[1:]}
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
        return lambda c: by_name.get(f"{name}{who(c)}", by_name.get(name, 0))

    def mover_component(self):
        """A closure giving the mover's first piece kind (for `(move Add ...)` without a piece)."""
        first = {}
        for comp in self.components[1:]:
            first.setdefault(comp.owner, comp.index)
        return lambda c: first.get(c.s.mover, first.get(0, 0))

    def piece_generators(self) -> list:
        """For each component index, the compiled moves of its piece (or None)."""
        if self._piece_gens is None:
            gens = [None] * len(self.components)
            for idx, piece in self.piece_items:
                if piece.generator is not None:
                    gens[idx] = self.compile(piece.generator)
            self._piece_gens = gens
        return self._piece_gens

    # -- containers ---------------------------------------------------------------
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

    # -- the board ---------------------------------------------------------------
    def _dirs(self, dirn, lud: Ludeme) -> list[str]:
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        out: list[str] = []
        for w in words:
            if w in self.board.directions:
                out.append(w)
                continue
            try:
                got = self.board.relation_dirs(w)
            except (KeyError, ValueError):
                got = None
            if got is None:
                raise lud.fail(f"the direction {w} is not supported on this board "
                               f"(board directions: {', '.join(self.board.directions)})")
            out.extend(got)
        seen = []
        for d in out:
            if d not in seen:
                seen.append(d)
        return seen

    # -- directions ------------------------------------------------------------
    def is_static_direction(self, dirn) -> bool:
        """True when `dirn` names no direction relative to a piece or to the last move."""
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        return not any(w in RELATIVE_ANGLES or w in ("SameDirection", "OppositeDirection")
                       for w in words)

    def direction_keys(self, dirn, lud: Ludeme):
        """A closure (c, site) -> direction names usable as keys of the board's radials.

        Compass names and relations (Orthogonal, Adjacent, ...) are fixed; directions
        relative to the piece's facing (Forward, FL, ...) or to the last move
        (SameDirection, OppositeDirection) are resolved when the move is generated.
        """
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        radial_keys = set(self.board.radials)
        static, dynamic = [], []
        for w in words:
            if w in self.board.directions or w in radial_keys or w in RELATIONS:
                static.append(w)
            elif w in RELATIVE_ANGLES or w in ("SameDirection", "OppositeDirection"):
                dynamic.append(w)
            else:
                raise lud.fail(f"the direction {w} is not supported on this board "
                               f"(board directions: {', '.join(self.board.directions)})")
        fixed = tuple(dict.fromkeys(static))
        if not dynamic:
            return lambda c, frm: fixed
        supported = self.board.directions
        radials = self.board.radials
        facing_of = self.facing_of

        def along(a, b):
            for d in supported:
                for r in radials.get(d, ((),) * (a + 1))[a] if a >= 0 else ():
                    if b in r.sites[1:]:
                        return d
            return None

        def keys(c, frm):
            out = list(fixed)
            for w in dynamic:
                if w == "SameDirection":
                    d = along(c.s.last_from, c.s.last_to)
                    if d:
                        out.append(d)
                elif w == "OppositeDirection":
                    d = along(c.s.last_to, c.s.last_from)
                    if d:
                        out.append(d)
                else:
                    facing = facing_of[c.s.what[frm]] if 0 <= frm < len(c.s.what) else "N"
                    out.extend(relative_directions(facing, w, supported))
            return tuple(dict.fromkeys(out))
        return keys

    def step_targets(self, dirn, lud: Ludeme) -> tuple:
        """Per site, the distinct sites one step away in the direction choice `dirn`.

        A relation word (Adjacent, Orthogonal, ...) takes the board's neighbours in that
        relation, as Ludii's steps do on any tiling; absolute directions take the step
        tables. Duplicates are dropped, as Ludii drops a repeated (from, to).
        """
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        n = self.num_board_sites
        per_site: list[list[int]] = [[] for _ in range(n)]
        for w in words:
            if w in self.board.directions:
                tab = self.board.step[w]
                for s in range(n):
                    if tab[s] >= 0:
                        per_site[s].append(tab[s])
            elif w in ("Adjacent", "Orthogonal", "Diagonal", "OffDiagonal", "All"):
                try:
                    table = self.board.neighbours[w]
                except KeyError:
                    raise lud.fail(f"{w} neighbours are not available on this board") from None
                for s in range(n):
                    per_site[s].extend(table[s])
            else:
                for tab in self.step_tables(w, lud):
                    for s in range(n):
                        if tab[s] >= 0:
                            per_site[s].append(tab[s])
        return tuple(tuple(dict.fromkeys(p)) for p in per_site)

    def step_tables(self, dirn, lud: Ludeme) -> list[tuple]:
        """Neighbour tables (site -> site or -1), one per absolute direction in `dirn`."""
        return [self.board.step[d] for d in self._dirs(dirn, lud)]

    def line_radials(self, dirn, lud: Ludeme) -> tuple:
        """Per site, the (sites after the start, sites of its opposite or None) of each
        distinct radial in the direction choice, as Ludii's `is Line` walks them."""
        words = [dirn] if isinstance(dirn, str) else list(getattr(dirn, "dirs", []))
        n = self.num_board_sites
        per_site: list[list] = [[] for _ in range(n)]
        for w in words:
            table = self.board.distinct_radials.get(w)
            if table is None:
                raise lud.fail(f"the direction {w} is not supported on this board "
                               f"(board directions: {', '.join(self.board.directions)})")
            for s in range(n):
                for r in table[s]:
                    opp = r.opposite.sites[1:] if r.opposite is not None else None
                    per_site[s].append((r.sites[1:], opp))
        return tuple(tuple(p) for p in per_site)

    def site_fn(self, spec):
        """The start site of a move: `(from <site>)` if given, else the iterated `(from)`."""
        if spec is None or getattr(spec, "site", None) is None:
            return lambda c: c.from_
        if not isinstance(spec.site, base.IntFn):
            raise spec.fail("a single site is expected here")
        return self.compile(spec.site)

    def board_region(self, kind: str, lud: Ludeme) -> tuple:
        """A static region of the board (Top, Bottom, Corners, ...)."""
        try:
            return tuple(sorted(self.board.region(kind)))
        except (KeyError, ValueError, NotImplementedError) as e:
            raise lud.fail(f"(sites {kind}) is not available on this board: {e}") from None

    def site_of_label(self, label: str, lud: Ludeme) -> int:
        try:
            return self.board.index_of(label)
        except (KeyError, ValueError):
            raise lud.fail(f"no site labelled {label!r} on this board") from None

    def named_region(self, name: str | None, role: str | None, lud: Ludeme):
        """A region declared with (regions ...): by name, by owner, or both."""
        if name is None:
            # (sites Mover): the union of the regions that player owns.
            owned: dict[int, tuple] = {}
            for entries in self.regions.values():
                for owner, sites in entries.items():
                    owned[owner] = tuple(dict.fromkeys(owned.get(owner, ()) + sites))
            who = self.role_id(role, lud)
            return lambda c: owned.get(who(c), ())
        entries = self.regions.get(name)
        if not entries:
            raise lud.fail(f"no region called {name!r}; regions: "
                           f"{', '.join(sorted(self.regions)) or 'none'}")
        if role is None and len(entries) == 1:
            sites = next(iter(entries.values()))
            return lambda c: sites
        who = self.role_id(role or "Mover", lud)
        return lambda c: entries.get(who(c), entries.get(0, ()))

    def map_named(self, name: str | None, lud: Ludeme) -> dict[int, int]:
        """The table of a (map ...) item (the only one when no name is given)."""
        if name in self.maps:
            return self.maps[name]
        if name is None and len(self.maps) == 1:
            return next(iter(self.maps.values()))
        raise lud.fail(f"no (map {name or ''}...) in the equipment")

    def regions_of_player(self, player_fn, name: str | None, lud: Ludeme):
        """`(sites (player X))`: the regions owned by player X (named `name` if given)."""
        owned: dict[int, tuple] = {}
        for rname, entries in self.regions.items():
            if name is not None and rname != name:
                continue
            for owner, sites in entries.items():
                owned[owner] = tuple(dict.fromkeys(owned.get(owner, ()) + sites))
        return lambda c: owned.get(player_fn(c), ())

    def no_moves_fn(self, role: str, lud: Ludeme):
        """`(no Moves <role>)`, as Ludii's NoMoves: for Next, generate the next player's moves
        in a copy (and record the answer as that player's stalemated flag); for any other
        role, read the player's flag (set when they passed with no move)."""
        who = self.role_id(role, lud)
        if role != "Next":
            return lambda c: c.s.stalemated[who(c)]

        def no_moves(c):
            s = c.s
            p = who(c)
            probe = s.clone()
            probe.prev, probe.mover, probe.next = s.mover, p, s.mover
            phase = probe.g.phases[probe.phase[p]]
            s.stalemated[p] = stuck = not phase.play(probe.ctx)
            return stuck
        return no_moves


RELATIONS = ("Adjacent", "Orthogonal", "Diagonal", "OffDiagonal", "All")

COMPASS_ANGLE = {"N": 0.0, "NNE": 22.5, "NE": 45.0, "ENE": 67.5, "E": 90.0, "ESE": 112.5,
                 "SE": 135.0, "SSE": 157.5, "S": 180.0, "SSW": 202.5, "SW": 225.0,
                 "WSW": 247.5, "W": 270.0, "WNW": 292.5, "NW": 315.0, "NNW": 337.5}

# Offsets (degrees, clockwise) from a piece's facing; plural forms take every
# supported direction strictly within 90 degrees of their base.
RELATIVE_ANGLES = {"Forward": 0, "Backward": 180, "Rightward": 90, "Leftward": 270,
                   "FR": 45, "FL": 315, "BR": 135, "BL": 225, "FRR": 67.5, "FLL": 292.5,
                   "BRR": 112.5, "BLL": 247.5, "Forwards": 0, "Backwards": 180,
                   "Rightwards": 90, "Leftwards": 270}


def relative_directions(facing: str, word: str, supported) -> list[str]:
    """Compass names for a direction relative to `facing` among the supported ones."""
    base = (COMPASS_ANGLE.get(facing, 0.0) + RELATIVE_ANGLES[word]) % 360
    if word.endswith("s") and word not in ("FRR", "FLL", "BRR", "BLL"):
        return [d for d in supported
                if min(abs(COMPASS_ANGLE[d] - base), 360 - abs(COMPASS_ANGLE[d] - base)) < 90]
    return [d for d in supported if abs(COMPASS_ANGLE.get(d, -1) - base) < 1e-6]



# --------------------------------------------------------------------------------

def compile_game(ex: Expanded, max_turns: int = MAX_TURNS_PER_PLAYER,
                 max_moves: int = MAX_MOVES) -> Game:
    """Build and compile an expanded description into a `Game`."""
    from .boards import build_board
    try:
        typed = Builder().build(ex.game, Other, "")
    except LudemeError as e:
        _attach_source(e, ex)
        raise
    if not isinstance(typed, G.Game):
        raise LudemeError("only (game ...) descriptions can be played; (match ...) is not "
                          "supported yet", ex.game.pos)
    try:
        return _assemble(ex, typed, build_board, max_turns, max_moves)
    except LudemeError as e:
        _attach_source(e, ex)
        raise


def _attach_source(e: LudemeError, ex: Expanded) -> None:
    if e.source is None and e.pos is not None and e.pos.file == ex.description.path:
        e.source = ex.description.text


def _assemble(ex: Expanded, g: "G.Game", build_board, max_turns, max_moves) -> Game:
    if g.players is None:
        raise LudemeError("(players ...) is missing", ex.game.pos, path="game")
    n = g.players.n
    facing = {}
    if g.players.players:
        for i, pl in enumerate(g.players.players, 1):
            if isinstance(pl, G.Player) and pl.dirn:
                facing[i] = pl.dirn
    items = g.equipment.items if g.equipment is not None else []
    boards = [it for it in items if isinstance(it, G.Board)]
    if len(boards) != 1:
        raise LudemeError("the equipment needs exactly one (board ...)",
                          (g.equipment.node.pos if g.equipment else ex.game.pos),
                          path="game/equipment")
    board_lud = boards[0]
    board = build_board(board_lud.node, players=n)
    containers = [Container(0, "Board", 0, 0, board.num_sites)]
    components = [Component(0, "", 0)]
    piece_items = []
    dice_items = []
    next_site = board.num_sites
    for it in items:
        if isinstance(it, G.Hand):
            owners = range(1, n + 1) if it.role == "Each" else [_owner(it.role, n, it)]
            for p in owners:
                containers.append(Container(len(containers), f"Hand{p}", p, next_site, it.size))
                next_site += it.size
        elif getattr(it, "is_dice", False):
            # Dice are pieces too, numbered where they are declared; their container comes
            # after the hands (see ludeme.ludemes.dice).
            faces = it.die_faces()
            dice_items.append((len(components), faces))
            for k in range(len(faces)):
                components.append(Component(len(components), f"Die{len(components)}", n + 1))
        elif isinstance(it, G.Piece):
            owners = range(1, n + 1) if it.role == "Each" else [_owner(it.role, n, it)]
            for p in owners:
                name = f"{it.name}{p}" if p > 0 and it.role not in ("Shared", "Neutral") \
                    else it.name
                components.append(Component(len(components), name, p))
                piece_items.append((len(components) - 1, it))
    dice_start = []
    dice_sets = []
    for first_comp, faces in dice_items:
        containers.append(Container(len(containers), "Dice", n + 1, next_site, len(faces)))
        dice_sets.append(D.DiceSet(next_site, faces))
        dice_start.append([(A_ADD, next_site + k, first_comp + k, n + 1, 1)
                           for k in range(len(faces))])
        next_site += len(faces)
    env = Env(n, board, containers, components, {}, facing)
    env.dice = dice_sets
    env.piece_items = piece_items
    for idx, piece in piece_items:
        owner = components[idx].owner
        env.facing_of[idx] = piece.dirn or facing.get(owner, "N")
    env.regions = _static_regions(env, items)
    for it in items:
        if isinstance(it, G.MapL):
            env.maps[it.name] = {_map_key(p.key, n): _landmark(board, p.value)
                                 if p.value in _LANDMARKS else _map_key(p.value, n)
                                 for p in it.pairs}

    rules = g.rules
    if rules.start is not None:
        for rule in rules.start.rules:
            if isinstance(rule, G.SetTeam):
                for role in rule.roles:
                    env.teams[_owner(role, n, rule)] = rule.team
    requires_all_pass = True
    if rules.meta is not None:
        for m in rules.meta.rules:
            if isinstance(m, G.PassEnd):
                requires_all_pass = m.kind != "NoEnd"
            else:
                raise m.fail(f"the meta rule ({m.keyword} ...) is not supported yet")
    start_moves = dice_start + (_start_moves(env, rules.start) if rules.start is not None
                                else [])
    phases = []
    if rules.phases:
        for ph in rules.phases:
            if not isinstance(ph, G.Phase):
                raise ph.fail("phases:{...} holds (phase ...) entries")
            phases.append(ph)
    elif rules.play is not None:
        phases = [None]
    else:
        raise rules.fail("the rules need (play ...) or phases:{...}")

    compiled_phases = []
    names = [p.name if p is not None else "Default Phase" for p in phases]
    for i, ph in enumerate(phases):
        if ph is None:
            compiled_phases.append(Phase("Default Phase", env.compile(rules.play.moves)))
            continue
        play = env.compile(ph.play.moves) if isinstance(ph.play, G.Play) else None
        if play is None:
            raise ph.fail("a phase needs (play ...)")
        end = [env.compile(r) for r in ph.end.rules] if ph.end is not None else []
        nexts = []
        for nx in ph.next or []:
            if not isinstance(nx, G.NextPhase):
                raise nx.fail("expected (nextPhase ...)")
            who = env.role_id(nx.role, nx)
            cond = env.compile(nx.cond) if nx.cond is not None else (lambda c: True)
            if nx.phase is None:
                target = i + 1 if i + 1 < len(phases) else UNDEFINED
            elif nx.phase in names:
                target = names.index(nx.phase)
            else:
                raise nx.fail(f"no phase called {nx.phase!r}; phases: {', '.join(names)}")
            if target != UNDEFINED:
                nexts.append((who, cond, target))
        owner = _owner(ph.role, n, ph) if ph.role not in (None, "Shared", "Each", "All") else 0
        compiled_phases.append(Phase(ph.name, play, end, nexts, owner))
    end_rules = [env.compile(r) for r in rules.end.rules] if rules.end is not None else []
    env.piece_generators()
    game = Game(ex.name, n, board, containers, components, start_moves, compiled_phases,
                end_rules, max_turns=max_turns, max_moves=max_moves,
                requires_all_pass=requires_all_pass,
                options=tuple(ex.option_specs), ruleset=ex.ruleset.name if ex.ruleset else None)
    game.requires_visited = env.requires_visited
    game.counting = env.counting
    game.uses_chance = game.uses_chance or bool(dice_sets)
    if dice_sets:
        game.requires_all_pass = False   # Ludii: a game with dice never ends on passes alone
    shared = {idx for idx, piece in piece_items if piece.role == "Shared"}
    game.ludii_owners = [n + 1 if comp.index in shared else comp.owner for comp in components]
    game.teams = dict(env.teams)
    game.initial_phase = [0] + [next((i for i, p in enumerate(compiled_phases)
                                      if p.owner in (0, pid)), 0) for pid in range(1, n + 1)]
    return game


def _map_key(v, n: int):
    if isinstance(v, int):
        return v
    return _PLAYER_WORDS.get(v, v)


_LANDMARKS = {"CentreSite": "Centre", "LeftSite": "Left", "RightSite": "Right",
              "Topsite": "Top", "BottomSite": "Bottom", "FirstSite": None, "LastSite": None}


def _landmark(board, word: str) -> int:
    """The site a map's landmark names: the first site of a board region, or the first/last."""
    if word == "FirstSite":
        return 0
    if word == "LastSite":
        return board.num_sites - 1
    return board.region(_LANDMARKS[word])[0]


def _owner(role: str, n: int, lud) -> int:
    if role in _PLAYER_WORDS:
        p = _PLAYER_WORDS[role]
        if p > n:
            raise lud.fail(f"{role} does not exist in a {n}-player game")
        return p
    if role in ("Shared", "Neutral", None):
        return 0
    raise lud.fail(f"expected Each, Shared or a player (P1...), not {role}")


def _static_regions(env: Env, items) -> dict:
    out: dict[str, dict[int, tuple]] = {}
    for it in items:
        if not isinstance(it, G.Regions):
            continue
        name = it.name or f"Region{len(out)}"
        # Ludii keeps regions declared for players the game does not have (Chinese
        # Checkers declares six homes whatever the number of players).
        owner = _owner(it.role, 16, it) if it.role not in (None, "Each") else 0
        sites: list[int] = []
        probe = _StaticCtx()
        for r in it.region or []:
            sites.extend(env.compile(r)(probe))
        if it.role == "Each":
            for p in range(1, env.num_players + 1):
                out.setdefault(name, {})[p] = tuple(sites)
        else:
            out.setdefault(name, {})[owner] = tuple(sites)
    return out


class _StaticCtx:
    """A context for regions that do not depend on the state."""

    s = None
    from_ = to = site = player = UNDEFINED


def _start_moves(env: Env, start: "G.Start") -> list[list[tuple]]:
    moves = []
    by_name = {comp.name: comp for comp in env.components[1:]}
    for rule in start.rules:
        if isinstance(rule, G.SetTeam):
            continue  # read before compiling (Env.teams)
        if hasattr(rule, "start_actions"):   # start rules that build their own actions
            moves.extend(rule.start_actions(env, _StaticCtx()))
            continue
        if not isinstance(rule, G.Place):
            raise rule.fail("only (place ...) and (set Team ...) start rules are supported so far")
        targets = [by_name[rule.item]] if rule.item in by_name else \
            [comp for comp in env.components[1:]
             if comp.name == f"{rule.item}{comp.owner}"]
        if not targets:
            raise rule.fail(f"no piece called {rule.item!r}; pieces: {', '.join(by_name)}")
        if rule.container is not None:
            if rule.container != "Hand":
                raise rule.fail(f"unknown container {rule.container!r} (expected \"Hand\")")
            hands = env.hand_offsets()
            for comp in targets:
                site = hands.get(comp.owner)
                if site is None:
                    raise rule.fail(f"player {comp.owner} has no hand for {comp.name}")
                moves.append([(A_ADD, site, comp.index, comp.owner, rule.count)])
            continue
        if rule.where is None and rule.coord is None:
            raise rule.fail("(place ...) needs sites, a coord: or \"Hand\"")
        if len(targets) != 1:
            raise rule.fail(f"(place {rule.item!r} ...) names {len(targets)} pieces; name one")
        comp = targets[0]
        if rule.coord is not None:
            sites = [env.board.index_of(rule.coord)]
        else:
            f = env.compile(rule.where)
            got = f(_StaticCtx())
            sites = [got] if isinstance(got, int) else list(got)
        # Ludii's PlaceItem puts counts[0] on every site when counts: is given.
        count = rule.counts[0] if rule.counts else rule.count
        moves.append([(A_ADD, s, comp.index, comp.owner, count) for s in sites])
    return moves


__all__ = ["compile_game", "Env", "Pos", "MAX_MOVES", "MAX_TURNS_PER_PLAYER"]
