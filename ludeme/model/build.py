"""Typed ludemes to a runnable `Game`: equipment tables, then closures for the rules.

`build_game(expanded)` builds the typed tree (`ludeme.model.ludemes`), the board
(`ludeme.boards`), the containers and components in Ludii's order, and then
compiles every rule to a closure through `Env`, which also hands ludemes the
board tables they close over (steps and rays by direction, regions, hands).
"""

from __future__ import annotations

import sys
from contextvars import ContextVar

from ludeme.engine.state import (A_ADD, A_COVER, A_SET_FIELD, FORCED_PLACES, PLACING, Component,
                                 Container, Game, Phase, UNDEFINED)
from ludeme.engine.stores import TOP
from ludeme.errors import LudemeError, Pos
from ludeme.language.expand import Expanded, metadata_heuristics
from .equipment import Equipment, NoSuchRegion
from .roles import Roles
from .tables import BoardTables
from .ludemes import base, dice as D, game as G, load_all, stacks as S
from ludeme.boards.large_pieces import large_piece
from ludeme.model.ludemes.base import Ludeme, Other, called
from ludeme.model.ludemes.builder import Builder
from ludeme.model.ludemes.captures import Promote
from ludeme.model.ludemes.meta import NoRepeat
from ludeme.model.ludemes.moves import ForEachPiece
from ludeme.model.ludemes.tiles import tile_table
from ludeme.model.ludemes.hidden import SetHiddenStart
from ludeme.model.ludemes.graph.containers import BoardContainer

load_all()      # every ludeme family registered before anything is built

MAX_TURNS_PER_PLAYER = 1250
MAX_MOVES = 10_000

# Set only while `ludeme.analysis.concepts_playout` compiles a game: (ludeme, closure) -> closure, to
# tag every move with the ludeme that generated it. Ordinary compiles never wrap anything.
MOVE_TAGGER: ContextVar = ContextVar("MOVE_TAGGER", default=None)


# Set while a (no Moves Next) generates the next player's moves (Ludii's thread-local
# NoMoves.autoFail; one evaluation at a time per process here).
_NO_MOVES_BUSY = [False]


def _no_moves_busy(value: bool | None = None) -> bool:
    """Whether a (no Moves Next) is generating the next player's moves; with `value`, set
    it. The rules' closures go through this module-level function, never the list itself
    (as `war._probe`: a worker unpickles closures by value, each with its own copy of a
    list it names, and module functions by reference)."""
    if value is not None:
        _NO_MOVES_BUSY[0] = value
    return _NO_MOVES_BUSY[0]


class Env:
    """What compiling a ludeme needs, in three parts and a few runtime helpers:

    - `roles` (ludeme.model.roles.Roles): player words to ids, sets of players, teams;
    - `equipment` (ludeme.model.equipment.Equipment): containers, components, hands,
      declared regions and maps;
    - `tables` (ludeme.model.tables.BoardTables): the board's directions, steps, rays
      and static regions as plain tuples.

    Ludemes call the short names below; each forwards to the one part that
    answers it. Env itself compiles (once per ludeme), and keeps what the game
    learns from compiling (`stacking`, `requires_visited`).
    """

    def __init__(self, roles: Roles, board, containers: list[Container],
                 components: list[Component]):
        self.roles = roles
        self.num_players = roles.n
        self.teams = roles.teams            # player -> team, from (set Team ...)
        self.equipment = Equipment(roles, containers, components)
        self.facing_of: list[str] = ["N"] * len(components)
        self.facing_declared: set[int] = set()  # kinds whose facing the game declares
        self.tables = BoardTables(board, self.facing_of)
        self._other_tables: dict[str, BoardTables] = {}     # see `tables_of`
        self.board = board
        self.containers = containers
        self.components = components
        self.num_board_sites = containers[0].num_sites
        self.total_sites = max(c.sites_from + c.num_sites for c in containers)
        for track in getattr(board, "track_info", ()):
            track.check_sites(self.total_sites)
        self.piece_items: list = []        # (component index, Piece ludeme)
        self.requires_visited = False      # a ludeme reads the sites visited this turn
        self.records_start = False         # a ludeme reads where pieces began (sites Start)
        self.stacking = False              # a ludeme needs stacks (stack:True, ...)
        self.sequence_capture = False      # a removal waits for the end of the turn
        self.hidden_info = False           # a rule hides pieces ((set Hidden ...))
        self.reads_after = False           # a ludeme reads (last To/From afterConsequence:True)
        self.reads_last_tos = False        # a ludeme reads (sites LastTo)
        self.owned_kinds: set[int] = set()  # kinds whose Ludii owned lists a rule reads
        # > 0 while moves are compiled whose order a rule reads ((forEach Piece) then walks
        # Ludii's owned lists: `Do`)
        self.ludii_piece_order = 0
        self.renames_moves = False         # a `Do` names moves after a prior decision
        self.reads_last_types = False      # a ludeme reads (is LastTo <type>), (is LastFrom ...)
        self.places_at_random = False      # a start rule places pieces at random sites
        # piece index -> the (place Random ...) rules placing it, and whether each gives a
        # state: or value: (see PlaceRandom and crosscheck's forced starts)
        self.random_places: dict[int, list] = {}
        self.random_fields = None          # a start rule giving a piece a value drawn at random
        self.random_stack = None           # a start rule placing a stack in a random order
        self._compiled: dict[int, object] = {}
        self._piece_gens: list | None = None
        self.uses_chance = False           # a ludeme draws from the state's chance stream
        self.counting = False              # a rule counts pieces per site (e.g. sow)
        self.rotated = False               # a start rule gives pieces a rotation
        self.dice: list = []               # the dice containers (ludeme.model.ludemes.dice)
        # component index -> its walks and the cells it covers (ludeme.boards.large_pieces)
        self.large_pieces: dict = {}
        # The board's layers of other site types the game puts pieces on: type -> the store
        # index of its element 0 (after every container's sites); see `Game.layers`.
        self.layers: dict[str, int] = {}

    # -- compiling ----------------------------------------------------------
    def compile(self, lud: Ludeme):
        """The closure of a typed ludeme (compiled once)."""
        key = id(lud)
        got = self._compiled.get(key)
        if got is None:
            try:
                f = lud.compile(self)
            except LudemeError:
                raise
            except (KeyError, IndexError, ValueError, TypeError) as e:  # a bug or bad table
                raise lud.fail(f"cannot compile this ludeme: {type(e).__name__}: {e}") from e
            tagger = MOVE_TAGGER.get()
            if tagger is not None and isinstance(lud, base.Moves):
                f = tagger(lud, f)
            elif hasattr(lud, "compile_lazy") and not hasattr(f, "lazy"):
                # Its moves one at a time, for a question answered by the first that fits
                # ((can Move ...), (is Threatened ...)): see `ludemes.moves.lazy_moves`.
                f.lazy = lud.compile_lazy(self)
            # The ludeme is kept with its closure: a ludeme built only to be compiled (as
            # (no Pieces ...) builds a (count Pieces ...)) must not free its id for another.
            self._compiled[key] = (lud, f)
            return f
        return got[1]

    def is_move_variable(self, lud: Ludeme, name: str) -> bool:
        """True when `lud` is the iteration variable `(to)`/`(from)` with no argument."""
        from ludeme.model.ludemes.ints import From, To
        return type(lud) is {"to": To, "from": From}[name]

    def keep_every_owned_list(self) -> None:
        """Keep Ludii's list of owned pieces of every kind a player owns (a rule walks them
        all, as Ludii's ForEachPiece does), not only those a `(where "Name" ...)` reads."""
        self.owned_kinds.update(w for w, comp in enumerate(self.components)
                                if w and 1 <= comp.owner <= self.num_players)

    def piece_generators(self) -> list:
        """For each component index, the compiled moves of its piece (or None)."""
        if self._piece_gens is None:
            gens = [None] * len(self.components)
            for idx, piece in self.piece_items:
                if piece.generator is not None:
                    gens[idx] = self.compile(piece.generator)
            self._piece_gens = gens
        return self._piece_gens

    def flips_table(self) -> list:
        """For each component index, its piece's `(flips a b)` as (a, b), or None."""
        table = [None] * len(self.components)
        for idx, piece in self.piece_items:
            if piece.flips is not None:
                table[idx] = self.compile(piece.flips)
        return table

    def site_fn(self, spec):
        """The start site of a move: `(from <site>)` if given, else the iterated `(from)`."""
        if spec is None or getattr(spec, "site", None) is None:
            return lambda c: c.from_
        if not isinstance(spec.site, base.IntFn):
            raise spec.fail("a region where this move starts from one site is not supported "
                            "yet")
        return self.compile(spec.site)

    # -- runtime helpers ------------------------------------------------------------
    def no_moves_fn(self, role: str, lud: Ludeme):
        """`(no Moves <role>)`, as Ludii's NoMoves: for Next, generate the next player's moves
        in a copy (and record the answer as that player's stalemated flag); for any other
        role, read the player's flag (set when they passed with no move)."""
        who = self.role_id(role, lud)
        if role != "Next":
            return lambda c: c.s.stalemated[who(c)]

        def no_moves(c):
            if _no_moves_busy():
                # Ludii's NoMoves.autoFail: while the next player's moves are generated for
                # a (no Moves Next), a (no Moves Next) met inside them is false (a rule like
                # (do ... ifAfterwards:(not (no Moves Next))) would otherwise never end).
                return False
            s = c.s
            p = who(c)
            probe = s.clone()
            # Ludii's setMoverAndImpliedPrevAndNext: the next player is the one after p
            # (not the mover, who may be moving again), the previous one the mover.
            n = s.g.num_players
            nxt = p % n + 1
            while not s.active[nxt] and nxt != p:
                nxt = nxt % n + 1
            probe.prev, probe.mover, probe.next = s.mover, p, nxt
            phase = probe.g.phases[probe.phase[p]]
            _no_moves_busy(True)
            try:
                # the first move found answers (Ludii's canMove): moves one at a time
                moves = base.lazy_moves(phase.play)(probe.ctx)
                s.stalemated[p] = stuck = next(moves, None) is None
            finally:
                _no_moves_busy(False)
            return stuck
        return no_moves

    # -- forwards: players -------------------------------------------------------
    def role_id(self, role, lud):
        return self.roles.id_fn(role, lud)

    def player_fn(self, who, lud):
        """The player an argument names, by a role word (`role_id`) or an integer function."""
        return self.role_id(who, lud) if isinstance(who, str) else self.compile(who)

    def role_players(self, role, lud):
        return self.roles.set_fn(role, lud)

    def team_id(self, role, lud):
        return self.roles.team_fn(role, lud)

    # -- forwards: equipment -------------------------------------------------------
    @property
    def regions(self):
        return self.equipment.regions

    @property
    def maps(self):
        return self.equipment.maps

    def component_fn(self, name, role, lud):
        return self.equipment.component_fn(name, role, lud)

    def mover_component(self):
        return self.equipment.mover_component()

    def hand_offsets(self):
        return self.equipment.hand_offsets()

    def hand_ranges(self):
        return self.equipment.hand_ranges()

    def named_region(self, name, role, lud):
        return self.equipment.named_region(name, role, lud)

    def maps_named(self, name):
        return self.equipment.maps_named(name)

    def regions_of_player(self, player_fn, name, lud):
        return self.equipment.regions_of_player(player_fn, name, lud)

    # -- forwards: board tables -----------------------------------------------------
    def tables_of(self, site_type: str | None) -> BoardTables:
        """The board tables of one site type: `tables` for the board's own (or None), else
        those of the board's topology of that type (Ludii computes the steps, radials and
        directions of vertices, edges and cells apart), built on first use."""
        if site_type in (None, self.board.site_type):
            return self.tables
        got = self._other_tables.get(site_type)
        if got is None:
            got = self._other_tables[site_type] = BoardTables(self.board.topology(site_type),
                                                              self.facing_of)
        return got

    def is_static_direction(self, dirn):
        return self.tables.is_static_direction(dirn)

    def direction_keys(self, dirn, lud, repeats=False):
        if hasattr(dirn, "direction_keys"):     # a direction function: (if ...), ...
            return dirn.direction_keys(self, lud)
        return self.tables.direction_keys(dirn, lud, repeats)

    def step_targets(self, dirn, lud):
        return self.tables.step_targets(dirn, lud)

    def step_tables(self, dirn, lud):
        return self.tables.step_tables(dirn, lud)

    def line_radials(self, dirn, lud):
        return self.tables.line_radials(dirn, lud)

    def board_region(self, kind, lud):
        return self.tables.board_region(kind, lud)

    def site_of_label(self, label, lud):
        return self.tables.site_of_label(label, lud)


# --------------------------------------------------------------------------------

def build_game(ex: Expanded, max_turns: int = MAX_TURNS_PER_PLAYER,
                 max_moves: int = MAX_MOVES) -> Game:
    """Build and compile an expanded description into a `Game`."""
    builder = Builder()
    # Ludii's (match ...), a series of games, is no ludeme the builder knows: say so at once
    # rather than "unknown ludeme".
    if getattr(ex.game, "name", None) != "game":
        e = LudemeError(f"only (game ...) descriptions can be played; "
                        f"({getattr(ex.game, 'name', '?')} ...) is not supported yet",
                        ex.game.pos, path=getattr(ex.game, "name", ""))
        _attach_source(e, ex)
        raise e
    try:
        typed = builder.build(ex.game, Other, "")
    except LudemeError as e:
        _attach_source(e, ex)
        raise
    try:
        game = _assemble(ex, typed, max_turns, max_moves, builder.built)
        builder.check_all_read(game.board.site_type)
        # The recursion limit reading the description needed (`grammar.ensure_stack`): its
        # rules recurse as deep while they play, so a worker process that unpickles the
        # game, and parses nothing, raises its own limit to it (`playouts.worker_game`).
        game.recursion_limit = sys.getrecursionlimit()
        return game
    except LudemeError as e:
        _attach_source(e, ex)
        raise


def _layers(board, total_sites: int, built: list) -> dict[str, int]:
    """The board's layers of other site types that pieces are moved or added to (a `(to
    <type> ...)` naming another type than the board's): per type, the store index of its
    element 0, after every container's sites, so that a game on one site type keeps its
    store as it is. Ludii keeps such a game's sites per type (its ContainerGraphState)."""
    from .ludemes.moves import ToSpec
    from .ludemes.ints import HandSite
    from .ludemes.regions import SitesHand
    # A cell of a hand ((handSite ...), (sites Hand ...)) is the hand's, never the board's.
    types = sorted({lud.type for lud in built if isinstance(lud, ToSpec)
                    and lud.type not in (None, board.site_type)
                    and not (lud.type == "Cell" and isinstance(lud.site, (HandSite, SitesHand)))}
                   | {lud.type for lud in built if isinstance(lud, G.Place)
                      and lud.type not in (None, board.site_type) and lud.container is None})
    layers, base_ = {}, total_sites
    for t in types:
        layers[t] = base_
        base_ += len(board.planar.elements(t))
    return layers


def _attach_source(e: LudemeError, ex: Expanded) -> None:
    if e.source is None and e.pos is not None and e.pos.file == ex.description.path:
        e.source = ex.description.text


def _assemble(ex: Expanded, g: "G.GameLudeme", max_turns, max_moves, built: list) -> Game:
    # built: every typed ludeme of the description (the Builder's list)
    if g.name != ex.name:      # the expander names the game from the same argument
        raise LudemeError(f"the game is called {g.name!r}, its file says {ex.name!r}",
                          ex.game.pos, path="game")
    if g.players is None:
        raise LudemeError("(players ...) is missing", ex.game.pos, path="game")
    n = g.players.n
    facing = {}
    if g.players.players:
        for i, pl in enumerate(g.players.players, 1):
            if isinstance(pl, G.Player) and pl.dirn:
                facing[i] = pl.dirn
    items = g.equipment.items if g.equipment is not None else []
    boards = [it for it in items if isinstance(it, BoardContainer)]
    if len(boards) != 1:
        raise LudemeError("the equipment needs exactly one (board ...)",
                          (g.equipment.node.pos if g.equipment else ex.game.pos),
                          path="game/equipment")
    board_lud = boards[0]
    board_lud.largeStack   # stacks above 32 (Ludii's largeStack): ours have no height limit
    board = board_lud.playable_board(n)
    roles = Roles(n)
    containers = [Container(0, "Board", 0, 0, board.num_sites)]
    components = [Component(0, "", 0)]
    piece_items = []
    dice_items = []
    # Ludii numbers the other containers after max(cells, default-type sites) of the board
    # (Equipment.sitesFrom), so a vertex board with more faces than vertices leaves a gap.
    next_site = max(board.num_sites, board.num_cells)
    for it in items:
        if getattr(it, "is_dice", False):
            # Dice are pieces too, numbered before every other piece (Ludii creates the
            # containers' items first); their container comes after the hands (see
            # ludeme.model.ludemes.dice).
            faces = it.die_faces()
            dice_items.append((len(components), faces))
            for k in range(len(faces)):
                components.append(Component(len(components), f"Die{len(components)}", n + 1))
    for it in items:
        if isinstance(it, G.Hand):
            for p in roles.owners(it.role, it):
                containers.append(Container(len(containers), f"Hand{p}", p, next_site, it.size))
                next_site += it.size
        elif isinstance(it, G.Piece):
            for p in roles.owners(it.role, it):
                name = f"{it.name}{p}" if 0 < p <= n else it.name
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
    env = Env(roles, board, containers, components)
    env.layers = _layers(board, env.total_sites, built)
    env.dice = dice_sets
    env.piece_items = piece_items
    for idx, piece in piece_items:
        owner = components[idx].owner
        # Ludii's Game: a player's direction, when given, overrides its pieces' own.
        env.facing_of[idx] = facing.get(owner) or piece.dirn or "N"
        if piece.dirn or owner in facing:
            env.facing_declared.add(idx)
        # Ludii's maxState/maxCount/maxValue only widen the bits its per-site storage keeps
        # for a level's state, count and value (Game.maximalLocalStates and friends, which
        # size ContainerState's chunks and Add's action cache); our stores hold whole
        # ints, so every value up to any such bound is kept exactly, as Ludii keeps it.
        for bound in ("maxState", "maxCount", "maxValue"):
            if (limit := getattr(piece, bound)) is not None and limit < 0:
                raise piece.fail(f"'{bound}:' must be 0 or more, found {limit}")
    env.large_pieces = _large_pieces(board, piece_items)
    tile_table(env)     # the tiles' paths and slots: data the rules walk on
    if env.large_pieces:
        _refuse_beside_large_pieces(built)
    _static_regions(env, items)
    for it in items:
        if isinstance(it, G.MapL):
            table = {}
            for k, v, at in it.entries():
                key, value = _map_key(env, k, at), _map_value(env, board, roles, v, at)
                if key != UNDEFINED and value != UNDEFINED:   # Ludii's computeMap drops them
                    table[key] = value
            env.maps.append((it.name or "Map", table))

    rules = g.rules
    if rules.start is not None:
        for rule in rules.start.rules:
            if isinstance(rule, G.SetTeam):
                for role in rule.roles:
                    env.teams[roles.owner(role, rule)] = rule.team
    requires_all_pass = True
    swap_rule = False
    automove = None
    repetition = None
    if rules.meta is not None:
        for m in rules.meta.rules:
            if isinstance(m, G.PassEnd):
                requires_all_pass = m.kind_ != "NoEnd"
            elif isinstance(m, G.Swap):
                swap_rule = True
            elif isinstance(m, G.Automove):
                automove = m
            elif isinstance(m, NoRepeat):
                repetition = m.repetition
            else:
                raise m.fail(f"the meta rule ({m.keyword} ...) is not supported yet")
    if any((lud.keyword, lud.kind) == ("all", "Passed") for lud in built):
        requires_all_pass = False   # Ludii: (all Passed) sets NotAllPass; the rules decide
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
        # A phase of Shared, Each, All (or of no role) is everyone's: owner 0.
        owner = roles.owner(ph.role, ph) if ph.role not in (None, "Shared", "Each", "All") else 0
        compiled_phases.append(Phase(ph.name, play, end, nexts, owner))
    end_rules = [env.compile(r) for r in rules.end.rules] if rules.end is not None else []
    env.piece_generators()
    env.flips_table()          # a piece's flips are part of its declaration, read or not
    game = Game(ex.name, n, board, containers, components, start_moves, compiled_phases,
                end_rules, max_turns=max_turns, max_moves=max_moves,
                requires_all_pass=requires_all_pass,
                options=tuple(ex.option_specs), ruleset=ex.ruleset.name if ex.ruleset else None)
    game.requires_visited = env.requires_visited
    game.set_layers(env.layers)
    game.reads_last_types = env.reads_last_types
    game.heuristics = metadata_heuristics(ex.metadata)     # read by ludeme.ai.evaluator
    game.records_start = env.records_start
    game.stacking = env.stacking
    game.swap_rule = swap_rule
    game.automove = automove
    game.repetition = repetition
    game.sequence_capture = env.sequence_capture
    game.hidden_info = env.hidden_info
    game.reads_after = env.reads_after
    game.reads_last_tos = env.reads_last_tos
    game.places_at_random = env.places_at_random
    # A piece placed at random by several rules of which one sets a state or value: a
    # recorded start (who and what per site) does not say which piece got which.
    # Or a value drawn at random: Ludii's traces record no value.
    game.unrecorded_random_start = next(
        (rules[1][0] for rules in env.random_places.values()
         if len(rules) > 1 and any(fields for _, fields in rules)), env.random_fields)
    game.unrecorded_random_why = ("gives pieces states or values at random", "the trace does "
                                  "not record them (only who, what and how many are on each site)")
    if game.unrecorded_random_start is None and env.random_stack is not None:
        game.unrecorded_random_start = env.random_stack
        game.unrecorded_random_why = ("stacks pieces in a random order", "the trace records a "
                                      "hand's top piece only, and forcing a stack is not written")
    game.counting = env.counting
    game.large_pieces = env.large_pieces
    # Ludii's requiresCount: no stacks, and a hand or counted pieces
    game.covers_count = not env.stacking and (env.counting or any(
        c.name.startswith("Hand") for c in containers))
    game.uses_chance = env.uses_chance or bool(dice_sets)
    if dice_sets:
        game.requires_all_pass = False   # Ludii: a game with dice never ends on passes alone
    game.ludii_owners = [comp.owner for comp in components]
    game.teams = dict(env.teams)
    # The typed rules and their tables, for backends that generate code (ludeme.engine.compiled).
    game.typed, game.env = g, env
    game.who_is_index = _who_is_index(game, components, n, built)
    # A stacking game that promotes: Ludii's lists of owned pieces can differ from the
    # stacks there (a piece promoted alone on its site stays listed), and its (forEach
    # Piece) walks the lists: every kind of a player's is kept and walked.
    promotes = env.stacking and any(isinstance(lud, Promote) for lud in built)
    if promotes:
        env.keep_every_owned_list()
    # (the site types are worked out only for a game that keeps lists: every ludeme read)
    types = _site_types_used(board, containers, built) if env.owned_kinds else set()
    # Ludii's FullOwned of a stacking game of several site types shifts levels across
    # types by a quirk not followed here: no lists, a (where "Name" ...) with the piece on
    # several sites is refused where it is read.
    game.owned_kinds = frozenset() if env.stacking and len(types) > 1 \
        else frozenset(env.owned_kinds)
    game.owned_swap = not game.owned_kinds or len(types) == 1
    game.walks_stack_lists = promotes and bool(game.owned_kinds)
    game.renames_moves = env.renames_moves
    if game.walks_stack_lists:
        for lud in built:
            if isinstance(lud, ForEachPiece):
                lud.ludii_order = True      # the kernels keep no lists: they refuse it
    game.owned_shift_neutral = types == {"Cell"}
    if game.who_is_index:
        _refuse_owned_and_who(built, components)
    game.local_state = _uses_local_state(built)
    game.initial_phase = [0] + [next((i for i, p in enumerate(compiled_phases)
                                      if p.owner in (0, pid)), 0) for pid in range(1, n + 1)]
    return game


def _large_pieces(board, piece_items) -> dict:
    """Component index -> the cells it covers per rotation and anchor (a piece given as a
    walk: ludeme.boards.large_pieces)."""
    out = {}
    for idx, piece in piece_items:
        walks = piece.walk_steps() if isinstance(piece, S.Tile) else ()
        if not walks:
            continue
        if board.site_type != "Cell":
            raise piece.fail("a large piece on a board played on its "
                             f"{'vertices' if board.site_type == 'Vertex' else 'edges'} is not "
                             "supported yet")
        out[idx] = large_piece(board.topology("Cell"), walks)
    return out


# The rules a game with large pieces may use here: those that see the cells a large piece
# covers as Ludii does (not empty, though no piece stands there). A rule reading emptiness
# otherwise, or moving or removing pieces, would see them wrongly: refused.
LARGE_PIECE_RULES = frozenset({
    ("move", "Add"), ("sites", "Empty"), ("is", "Empty"), ("piece", None), ("mover", None),
    ("next", None), ("or", None), ("and", None), ("not", None), ("if", None),
    ("no", "Moves"), ("result", None), ("to", None), ("play", None), ("end", None),
    ("move", "Pass"), ("sites", "LargePiece"), ("count", "Sites"), ("move", None),
    ("sites", "Hand"), ("handSite", None), ("is", "Prev"), ("is", "Mover"),
    ("sites", "Occupied"), ("union", None), ("moveAgain", None), ("from", None), ("is", "In"),
    ("intersection", None),
    # reading no emptiness and moving nothing
    ("count", "Turns"), ("do", None), ("expand", None), ("forEach", "Site"),
    ("forEach", "Value"), ("forget", "Value"), ("id", None), ("last", "From"), ("last", "To"),
    ("remember", "Value"), ("set", "Hidden"), ("set", "Var"), ("site", None), ("var", None),
    ("sites", "Board"), ("sites", "Hidden"), ("sites", "Left"), ("sites", "Right"),
    ("sites", None), ("value", None), ("values", "Remembered"), ("move", "Select"),
    # Ludii's state, left as set: a large piece keeps the cells it covered (ActionSetState)
    ("set", "State"),
    # Ludii's ActionRemoveTopPiece: the anchor is freed, the cells covered stay covered
    ("remove", None),
    # an Add of a small piece (a large one: MoveAdd), the pieces' own moves
    ("add", None), ("forEach", "Piece"),
    *((op, None) for op in ("=", "!=", "<", "<=", ">", ">=", "+", "-"))})


def _refuse_beside_large_pieces(built: list) -> None:
    for lud in built:
        if isinstance(lud, (base.Moves, base.Region, base.Bool, base.IntFn)) \
                and (lud.keyword, lud.kind) not in LARGE_PIECE_RULES:
            kind = f" {lud.kind}" if lud.kind else ""
            raise lud.fail(f"({lud.keyword}{kind} ...) in a game with large pieces (a piece "
                           "given as a walk) is not supported yet")


def _who_is_index(game, components, n: int, built: list) -> bool:
    """Whether Ludii keeps no `what` per site on this board and stores a piece's index as its
    `who` there (ContainerStateFactory: a flat board of cells with no count, no stacks, no
    local state, and no item indices: at most one piece kind per owner and no more kinds
    than players), where some piece's index differs from its owner (a neutral or shared
    piece): its `who` is then the index (ludeme.engine.stores.IndexWhoSites), while the
    owned-pieces lists (sites Occupied by:...) keep the component's owner."""
    if game.stacking or game.counting or game.board.site_type != "Cell" \
            or _uses_local_state(built):
        return False
    kinds = components[1:]
    if n + 1 < len(components):
        return False                            # Ludii keeps item indices
    owners = [c.owner for c in kinds]
    if any(owners.count(o) > 1 for o in owners):
        return False
    return any(c.owner != c.index for c in kinds)


# Ludeme readers that cross Ludii's owned-pieces lists (by owner) with the sites' `who`:
# where `who` is the piece's index the two disagree, in ways not modelled here. (forEach
# Piece) reads a kind's owner by the site's `what`, as Ludii's owned lists are kept: only a
# piece of no player's, which it gives the site's `who`, is refused.
_OWNED_AND_WHO = {("count", "Pieces"), ("no", "Pieces")}


def _refuse_owned_and_who(built: list, components) -> None:
    unowned = any(comp.owner == 0 for comp in components[1:])
    for lud in built:
        if (lud.keyword, lud.kind) in _OWNED_AND_WHO or \
                (unowned and (lud.keyword, lud.kind) == ("forEach", "Piece")):
            raise lud.fail(f"({lud.keyword} {lud.kind} ...) on a board where Ludii stores a "
                           "piece's index as its owner is not supported yet")


def _site_types_used(board, containers, built: list) -> set[str]:
    """The site types Ludii's game flags name (Game.computeGameFlags): the board's, cells
    when there is any other container (a hand, dice), and each type a ludeme is given."""
    used = {board.site_type}
    if len(containers) > 1:
        used.add("Cell")
    for lud in built:
        for p in type(lud).params:
            # read from the fields: an argument read here is not one its ludeme reads, which
            # `check_all_read` would no longer see unread
            value = lud._fields.get(p.attr)
            if base.takes_site_type(p.type) and value in base.SITE_TYPES:
                used.add(value)
    return used


def _uses_local_state(built: list) -> bool:
    """Whether the description's ludemes read or write pieces' local state (Ludii's
    requiresLocalState): a `state:` argument given, a (... State ...) ludeme, flips."""
    return any(lud.kind == "State" or "state" in lud._given
               or lud.keyword in ("flips", "flip", "state") for lud in built)


_LANDMARKS = {"CentreSite": "Centre", "LeftSite": "Left", "RightSite": "Right",
              "Topsite": "Top", "BottomSite": "Bottom", "FirstSite": None, "LastSite": None}


def _map_int(env: Env, fn, at, part: str) -> int:
    """A map's integer function, evaluated before play as Ludii's Map.computeMap does; one
    reading the position (the mover, a site's piece) is refused where it is written."""
    try:
        return env.compile(fn)(_StaticCtx())
    except _NeedsState:
        where = fn if hasattr(fn, "fail") else at
        raise where.fail(f"a map's {part} read from the position (Ludii reads it in a "
                         "fresh context before play) is not supported yet") from None


def _map_key(env: Env, k, at) -> int:
    """A map's key as Ludii's Map.computeMap reads it: an integer (a function evaluated
    before play), a player, or a site written as a coordinate ("B1")."""
    if not isinstance(k, (int, str)):
        return _map_int(env, k, at, "key")
    k = env.roles.value(k)
    if not isinstance(k, str):
        return k
    try:
        return env.board.index_of(k)
    except (KeyError, ValueError):
        raise at.fail(f"{k!r} is not a site of this board") from None


def _map_value(env: Env, board, roles, v, at) -> int:
    """A map's value as Ludii's Map.computeMap reads it: a player, a landmark, a site
    written as a coordinate ("D1"), a piece by name, or an integer function."""
    if not isinstance(v, (int, str)):
        return _map_int(env, v, at, "value")
    if v in _LANDMARKS:
        return _landmark(board, v)
    v = roles.value(v)
    if not isinstance(v, str):
        return v
    names = env.equipment.component_names()     # a neutral piece answers to "Name0" too
    if v in names:
        return names[v]
    try:
        return board.index_of(v)
    except (KeyError, ValueError):
        raise at.fail(f"{v!r} as a site or a piece is not supported yet: it is neither a site "
                      "of this board nor a piece") from None


def _landmark(board, word: str) -> int:
    """The site a map's landmark names: the first site of a board region, or the first/last."""
    if word == "FirstSite":
        return 0
    if word == "LastSite":
        return board.num_sites - 1
    return board.region(_LANDMARKS[word])[0]


def _static_regions(env: Env, items) -> None:
    """The (regions ...) items, into env.equipment.regions. A region may name another one
    declared after it (Ludii preprocesses a named region when it is first read), so an item
    naming a region not built yet waits until the others are."""
    waiting = [it for it in items if isinstance(it, G.Regions)]
    names: dict[int, str] = {}
    for it in waiting:
        names[id(it)] = it.name or f"Region{len(set(names.values()))}"
    while waiting:
        later = []
        for it in waiting:
            try:
                _static_region(env, it, names[id(it)])
            except NoSuchRegion:
                later.append(it)
        if len(later) == len(waiting):
            # Each waits for a region no item declares: Ludii reads it as no sites. The
            # first is built so, and the others wait on.
            env.equipment.regions_complete = True
            _static_region(env, later[0], names[id(later[0])])
            env.equipment.regions_complete = False
            later = later[1:]
        waiting = later
    env.equipment.regions_complete = True


def _static_region(env: Env, it, name: str) -> None:
    # Ludii keeps regions declared for players the game does not have (Chinese
    # Checkers declares six homes whatever the number of players).
    owner = env.roles.owner(it.role, it, allow_missing=True) if it.role != "Each" else 0
    sites: list[int] = []
    parts: list[tuple] = []
    probe = _StaticCtx()
    for r in it.region or []:
        part = env.compile(r)(probe)
        part = (part,) if isinstance(part, int) else tuple(part)
        parts.append(part)
        sites.extend(part)
    owners = range(1, env.num_players + 1) if it.role == "Each" else (owner,)
    for p in owners:
        env.equipment.regions.setdefault(name, {})[p] = tuple(sites)
        # Each region function of the item is its own region where Ludii keeps them
        # apart (is Connected joins the sides a player owns).
        env.equipment.region_parts.setdefault(p, []).extend(parts)


class _NeedsState(Exception):
    """Raised by `_StaticCtx` when a function reads the position."""


class _StaticCtx:
    """A context for regions that do not depend on the state."""

    from_ = to = site = player = UNDEFINED
    region = ()

    @property
    def s(self):
        raise _NeedsState

    def __getattr__(self, name):
        # whatever else a compiled ludeme reads of its context (the game's stacking,
        # the mover, ...) belongs to a state
        raise _NeedsState


def _start_moves(env: Env, start: "G.Start") -> list[list[tuple]]:
    moves = []
    by_name = {name: env.components[i] for name, i in env.equipment.component_names().items()}
    for rule in start.rules:
        if isinstance(rule, G.SetTeam):
            continue  # read before compiling (Env.teams)
        if hasattr(rule, "start_actions"):   # start rules that build their own actions
            if env.large_pieces and not isinstance(rule, SetHiddenStart):   # flags only
                raise rule.fail(f"({called(rule)} ...) "
                                "in a game with large pieces is not supported yet")
            try:
                moves.extend(rule.start_actions(env, _StaticCtx()))
            except _NeedsState:     # read before play where it would be read in the position
                raise rule.fail(f"({called(rule)} ...) "
                                "reading the position before play is not supported "
                                "yet") from None
            continue
        if not isinstance(rule, G.Place):
            raise rule.fail("only (place ...), (set Team ...) and (set Mover ...) start rules "
                            "are supported so far")
        if rule.rotation is not None:
            try:
                rule.rotation_given = env.compile(rule.rotation)(_StaticCtx())
            except _NeedsState:
                raise rule.fail("a rotation: read from the position is not supported "
                                "yet") from None
            if rule.rotation_given:
                env.rotated = True      # the compiled turn loop reads no rotation
                env.tables.rotated = True   # relative directions read the rotation
        if getattr(rule, "stacking", False):
            env.stacking = True         # (place Stack ...) pushes on stacks
        elif rule.count > 1 or any(k > 1 for k in rule.counts or ()):
            env.counting = True         # Ludii's Count flag: every site keeps a count
        late = _late_value(env, rule)
        # (place Stack items:{...}): each item in turn, bottom first (Ludii's PlaceCustomStack)
        for item in getattr(rule, "items", None) or [rule.item]:
            placed = _place_item(env, rule, item, by_name)
            moves.extend(placed if late is None else [late(m) for m in placed])
    return moves


def _compile_drawing(env: Env, lud):
    """`lud` compiled, and whether compiling it found a draw from the chance stream (a
    ludeme sets `env.uses_chance` as it compiles; the flag keeps what was there before)."""
    chance, env.uses_chance = env.uses_chance, False
    fn = env.compile(lud)
    drawn = env.uses_chance
    env.uses_chance = drawn or chance
    return fn, drawn


class _Late:
    """The value a (place ...) rule gives, in its actions until the rule is played."""


def _late_value(env: Env, rule):
    """None when the rule's value: is absent or known before play (`rule.value_given`, as
    `_fields` reads it); else a wrapper of its start moves into closures reading it in the
    position the rule is played in, once per move (Ludii's PlaceItem reads it so)."""
    value = rule.value_given = getattr(rule, "value", None)
    if value is None or isinstance(value, int):
        return None
    fn, drawn = _compile_drawing(env, value)
    if drawn and env.random_fields is None:
        env.random_fields = rule
    try:
        rule.value_given = fn(_StaticCtx())
        return None
    except _NeedsState:
        pass
    marker = rule.value_given = _Late()

    def late(move):
        def actions(ctx):
            v = fn(ctx)
            acts = move(ctx) if callable(move) else move
            return [a[:4] + (v,) if a[0] == A_SET_FIELD and a[4] is marker else a
                    for a in acts]
        return actions
    return late


def _place_item(env: Env, rule, item: str, by_name: dict) -> list:
    """The start moves placing `item` as a (place ...) rule says: action lists, or
    closures giving them in the position they are played in."""
    out: list = []
    if rule.type not in (None, env.board.site_type):
        if rule.type in env.layers and rule.container is None:
            return _place_on_layer(env, rule, item, by_name)
        # a hand's cell named by type is not kept
        raise rule.fail(f"(place ... {rule.type} ...) on a board played on "
                        f"{env.board.site_type} sites is not supported yet")
    per_player = [comp for comp in env.components[1:] if comp.name == f"{item}{comp.owner}"]
    # Ludii's PlaceItem: a name without a number placed in "Hand" is each player's piece of
    # that name, unless the piece of that very name is Shared (Diamond's neutral Disc
    # beside each player's: the players' go to their hands).
    named = by_name.get(item)
    each_players = named is not None and rule.container == "Hand" and per_player and \
        not any(ch.isdigit() for ch in item) and named.owner != env.num_players + 1
    targets = [named] if named is not None and not each_players else per_player
    if not targets:
        raise rule.fail(f"no piece called {item!r}; pieces: {', '.join(by_name)}")
    if rule.container is not None and rule.container != "Hand":
        return [_place_in_named_hand(env, rule, item, by_name)]
    if rule.container is not None:
        hands = env.hand_ranges()
        for comp in targets:
            sites = hands.get(comp.owner)
            if not sites:
                raise rule.fail(f"player {comp.owner} has no hand for {comp.name}")
            if item in by_name:
                out.append(_place_actions(sites[0], comp, rule.count, _fields(rule)))
            else:
                # Ludii's PlaceItem: each player's piece goes to the first empty site of
                # their hand, as the position stands when the rule is played.
                out.append(_place_in_hand(sites, comp, rule.count, _fields(rule)))
        return out
    if rule.where is None and rule.coord is None and not rule.locs:
        # Ludii's PlaceItem with no site, coord or container places nothing; its state,
        # rotation, value and count still declare what the game keeps (gameFlags: a
        # state of 7 makes the sites keep states), which the stores here always do
        # (Throngs: `(place "Ball1" state:7)` beside the real placements).
        _fields(rule)
        return []
    if len(targets) != 1:
        raise rule.fail(f"(place {item!r} ...) names {len(targets)} pieces; name one")
    comp = targets[0]
    # Ludii's PlaceItem puts counts[0] on every site when counts: is given.
    count = rule.counts[0] if rule.counts else rule.count
    stack = getattr(rule, "stacking", False)
    if rule.coord is not None:
        try:
            sites = [env.board.index_of(rule.coord)]
        except KeyError:
            raise rule.fail(f"no site labelled {rule.coord!r} on this board") from None
    elif rule.locs:
        sites = [x for x in _static_locs(env, rule) if x >= 0]
    else:
        f, drawn = _compile_drawing(env, rule.where)
        try:
            got = f(_StaticCtx())
        except _NeedsState:
            if comp.index in env.large_pieces:
                raise rule.fail("(place ...) of a large piece on sites read from the "
                                "position is not supported yet") from None
            if drawn:       # e.g. (sites Random ...): a replay forces the recorded sites
                env.places_at_random = True
            # A region of the position so far, e.g. (sites Empty): Ludii applies the
            # start rules in order, so it is read when this rule is played.
            out.append(_place_on_region(f, comp, count, _fields(rule), stack))
            return out
        sites = [got] if isinstance(got, int) else list(got)
        # Ludii's ActionAdd does nothing on a site below 0 (a label no site has is Off)
        sites = [x for x in sites if x >= 0]
        base.check_start_sites(env, rule, sites, f"(place {item!r} ...)")
    fields = _fields(rule)      # read even when no site is named (its arguments checked)
    out.append([a for s in sites for a in _place_actions(s, comp, count, fields, stack)
                + _covers(env, s, comp, rule)])
    return out


def _static_locs(env: Env, rule) -> list[int]:
    """The sites of a (place ... {<int> <int function> ...}): Ludii reads them as the region
    of their values, before play."""
    try:
        return sorted({env.compile(f)(_StaticCtx()) for f in rule.locs})
    except _NeedsState:
        raise rule.fail("(place ... {...}) of sites read from the position is not "
                        "supported yet") from None


def _place_on_layer(env: Env, rule, item: str, by_name: dict) -> list:
    """(place "Item" <type> ...) on the board's layer of another site type than its own
    (`Env.layers`): the elements of that type named by index or label (Ludii's SiteFinder
    looks labels up among that type's elements), each put in its place in the store."""
    from .ludemes.literals import SitesLiteral
    from ludeme.language.syntax import Str
    comp = by_name.get(item)
    if comp is None:
        raise rule.fail(f"no piece called {item!r}; pieces: {', '.join(by_name)}")
    if comp.index in env.large_pieces:
        raise rule.fail(f"(place ... {rule.type} ...) of a large piece is not supported yet")
    topo = env.board.topology(rule.type)
    labels: dict[str, int] = {}
    for site in topo.sites:
        labels.setdefault(site.label, site.index)
    if rule.coord is not None:
        sites = [labels.get(rule.coord, -1)]
    elif rule.locs:
        sites = _static_locs(env, rule)
    elif isinstance(rule.where, SitesLiteral) and all(isinstance(i, Str) for i in rule.where.items):
        sites = [labels.get(i.value, -1) for i in rule.where.items]
    elif rule.where is not None:
        try:
            got = env.compile(rule.where)(_StaticCtx())
        except _NeedsState:
            raise rule.fail(f"(place ... {rule.type} ...) on sites read from the position is "
                            "not supported yet") from None
        sites = [got] if isinstance(got, int) else list(got)
    else:
        sites = []
    store = base.layer_site(env, rule.type)
    fields = _fields(rule)
    stack = getattr(rule, "stacking", False)
    count = rule.counts[0] if rule.counts else rule.count
    return [[a for s in sites if s >= 0 and store(s) >= 0
             for a in _place_actions(store(s), comp, count, fields, stack)]]


def _covers(env: Env, site: int, comp, rule) -> list[tuple]:
    """A large piece placed on the board covers its cells in the state placed (Ludii's
    ActionAdd, which its PlaceItem plays too)."""
    piece = env.large_pieces.get(comp.index)
    if piece is None or site >= env.num_board_sites:
        return []
    if rule.count != 1 or getattr(rule, "stacking", False):
        raise rule.fail("(place ...) of a large piece with a count or on a stack is not "
                        "supported yet")
    state = getattr(rule, "state", None)
    return [(A_COVER, site, piece.covered(site, -1 if state is None else state), True)]


def _fields(rule) -> tuple:
    """The (field, value) pairs a (place ...) rule gives its pieces: state:, rotation:
    (evaluated in `_start_moves`), value:."""
    return tuple((name, v) for name, v in (("state", getattr(rule, "state", None)),
                                           ("rotation", getattr(rule, "rotation_given", None)),
                                           ("value", getattr(rule, "value_given",
                                                             getattr(rule, "value", None))))
                 if v is not None)


def _place_actions(site, comp, count, fields=(), stack=False) -> list[tuple]:
    """Ludii's placePieces: add the piece; with `state:` or `value:`, every piece placed
    gets them (each level of a stack in turn)."""
    if not fields:
        return [(A_ADD, site, comp.index, comp.owner, count)]
    acts = []
    for n in ([1] * count if stack else [count]):
        acts.append((A_ADD, site, comp.index, comp.owner, n))
        acts.extend((A_SET_FIELD, name, site, TOP, v) for name, v in fields)
    return acts


def _place_in_named_hand(env: Env, rule, item: str, by_name: dict) -> list:
    """(place "Item1" "Hand1" ...): as Ludii's PlaceItem, on the first site of that hand, the
    component whose index is the hand's container index (whatever the item named)."""
    hands = {c.name: c for c in env.equipment.containers[1:]}
    hand = hands.get(rule.container)
    if hand is None or "Hand" not in rule.container:
        raise rule.fail(f"unknown container {rule.container!r} (expected \"Hand\" or one "
                        f"of {', '.join(hands) or 'no hands'})")
    if item not in by_name:
        raise rule.fail(f"no piece called {item!r}; pieces: {', '.join(by_name)}")
    if hand.index >= len(env.components):
        raise rule.fail(f"Ludii places component {hand.index} (the hand's number) here, "
                        "and there is none")
    comp = env.components[hand.index]
    return _place_actions(hand.sites_from, comp, rule.count, _fields(rule))


def _place_in_hand(sites, comp, count, fields):
    """A start move placing `comp` on the first empty site of a hand."""
    def actions(ctx):
        what = ctx.s.what
        site = next((x for x in sites if what[x] == 0), None)
        return [] if site is None else _place_actions(site, comp, count, fields)
    return actions


def _place_on_region(region, comp, count, fields, stack=False):
    """A start move placing `comp` on the sites `region` gives in the position it is played in
    (a region drawn at random in a replay takes the sites where the recorded start has
    `comp`: the state's PLACING note names it)."""
    def actions(ctx):
        notes = ctx.s.notes
        if FORCED_PLACES in notes:
            notes[PLACING] = comp.index
        try:
            got = region(ctx)
        finally:
            notes.pop(PLACING, None)
        sites = [got] if isinstance(got, int) else got
        return [a for s in sites for a in _place_actions(s, comp, count, fields, stack)]
    return actions


__all__ = ["build_game", "Env", "Pos", "MAX_MOVES", "MAX_TURNS_PER_PLAYER"]
