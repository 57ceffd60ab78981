"""The game runtime: state, moves and Ludii's turn mechanics.

`Game` is built by `ludeme.model.build` from typed ludemes; `State` is one
position with the OpenSpiel-style API (`legal_actions`, `apply_action`,
`current_player`, `is_terminal`, `returns`, `clone`). The turn loop follows
Ludii's `Game.applyInternal`: apply the move and its consequents, evaluate the
phase's and the game's end rules, check all-pass and the turn/move limits,
update phases, then switch the mover (a `moveAgain` keeps it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

from .compiled.unsupported import Unsupported
from .notation import Siblings, move_text
from .repetition import position_key, record_position, without_repeats
from .stores import TOP, TrackIndices, new_sites

from .actions import (ACTION_TO as _ACTION_TO, ACTIONS, MOVING_ACTIONS as _MOVING_ACTIONS,  # noqa: F401
                      NO_SITE_ACTIONS as _NO_SITE_ACTIONS, A_ADD, A_ADD_LEVEL, A_COUNT,
                      A_DICE_EQUAL, A_FLIP, A_FORGET, A_MOVE, A_MOVE_LEVEL, A_MOVE_N,
                      A_MOVE_STACK, A_NEXT, A_PASS, A_PENDING, A_REMEMBER, A_REMOVE,
                      A_REMOVE_LATER, A_REMOVE_LEVEL, A_SCORE, A_SET_COUNTER, A_SET_FIELD,
                      A_SET_HIDDEN, A_SET_MOVER, A_SET_SCORE, A_SET_VAR, A_SUBMOVE, A_SWAP,
                      A_UPDATE_DIE, A_USE_DIE, A_SELECT, A_PLACED_FIELD, A_COVER,
                      A_STORE_STATE)

UNDEFINED = -1
# What a player's view of the position (State.board_view) reads for a datum hidden from them:
# no owner, kind or count is negative, so it cannot be mistaken for an empty site.
HIDDEN_VALUE = -1
# Keys of State.notes for Ludii's dice bookkeeping: the die sites whose value was used
# (Ludii's currentDice set to 0) and whether the last roll's faces were all equal.
DICE_USED = ("dice", "used")
DICE_EQUAL = ("dice", "equal")
# Key of State.notes for the sites the last decision and its consequents went to (Ludii's
# SitesLastTo), kept only in a game that reads them (Game.reads_last_tos).
LAST_TOS = ("last", "tos")
# Key of State.notes, while the start rules are played: piece index -> the sites a random
# placement must choose (Game.new_initial_state's forced_places).
FORCED_PLACES = ("forced", "places")
# Key of State.notes, while a start rule places a piece on a region it draws at random and
# FORCED_PLACES is there: the piece's index (the draw takes its recorded sites).
PLACING = ("forced", "placing")
# Key of State.notes while a recorded game is replayed (crosscheck): a draw the record does
# not give (a play-time (sites Random ...)) is refused there, not guessed.
REPLAYING = ("replay", "recorded")
# Key of State.notes for the board cells a large piece covers: not empty, though no piece
# stands there (Ludii removes them from its container's empty sites).
COVERED = ("large", "covered")
# Key of State.notes for the position (repetition.position_key) that (remember State)
# stored last (Ludii's State.storedState).
STORED_STATE = ("stored", "state")


def _undefined(a: tuple):
    raise InternalError(f"an action on an undefined site: {a} (a rule produced site -1)")


class InternalError(RuntimeError):
    """A rule broke an invariant of the state (a bug, never the user's input)."""


_NO_ACTION = (None,)          # what a move without actions ends with


def chance_seed(seed: int) -> int:
    """The seed of a state's chance stream, kept apart from the choices seeded by `seed`."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF


class Move:
    """A legal move: a decision (from, to) with its actions and pending consequents.

    Rules build moves in their hot loops: they pass every argument by position, as a
    keyword argument makes each call to the class build a dict (half the cost again)."""

    # `named`: the position's legal moves (`notation.Siblings`), set by `legal_moves()` only.
    # `between`: the sites a hop passed over (Ludii's betweenNonDecision), set by the hop
    # only; read with getattr(move, "between", ()).
    # `site_types`: (from type, to type) of a move to a layer of another site type than the
    # board's (`Game.layers`), set by that move only; read with `Game.site_types`.
    # `ends`: (from, to) that (last From) and (last To) read after the move, where they are
    # not its name: a `Do`'s next move named after the first prior decision (-1, -1).
    __slots__ = ("frm", "to", "mover", "actions", "then", "is_pass", "level_from", "level_to",
                 "named", "between", "site_types", "ends")

    def __init__(self, frm: int, to: int, mover: int, actions: list, then: tuple = (),
                 is_pass: bool = False, level_from: int = 0, level_to: int = 0):
        self.frm = frm
        self.to = to
        self.mover = mover
        self.actions = actions
        self.then = then
        self.is_pass = is_pass
        self.level_from = level_from
        self.level_to = level_to

    def key(self) -> tuple[int, int]:
        """(from, to) as Ludii numbers them; -1 for a pass."""
        return (self.frm, self.to)

    def __str__(self) -> str:
        """Its name among the position's legal moves (`place A1`, `A1-B2`, `pass`), the
        name `ludeme play`, `moves`, the viewer and the adapters print."""
        return move_text(self)

    def __repr__(self) -> str:
        return f"<Move {move_text(self)} ({self.frm}-{self.to})>"


def pass_move(mover: int) -> Move:
    """A forced pass (from = to = -1)."""
    return Move(-1, -1, mover, [(A_PASS,)], (), True)


class Ctx:
    """Evaluation context: the state plus Ludii's iteration variables."""

    __slots__ = ("s", "g", "stacking", "from_", "to", "site", "player", "level", "value",
                 "between", "pips", "region")

    def __init__(self, game: "Game", state: "State"):
        self.g = game
        self.s = state
        self.stacking = game.stacking       # read by every move generator: one attribute
        self.from_ = UNDEFINED
        self.to = UNDEFINED
        self.site = UNDEFINED
        self.player = UNDEFINED
        self.level = UNDEFINED
        self.value = UNDEFINED
        self.between = UNDEFINED
        self.pips = UNDEFINED       # the die value inside (forEach Die ...): (pips)
        self.region = ()            # the group inside (forEach Group ...): (sites)


@dataclass
class Phase:
    """A compiled phase: its play, its own end rules, and its nextPhase conditions."""

    name: str
    play: Callable                      # c -> list[Move]
    end: list = field(default_factory=list)     # [c -> Result | None]
    next_phases: list = field(default_factory=list)  # [(who_fn(c)->int, cond(c)->bool, index)]
    owner: int = 0                      # 0: everyone


@dataclass
class Result:
    """An end rule's verdict: `who` (player id, or 0 for all) and Win/Loss/Draw."""

    who: int
    kind: str
    team: bool = False    # `who` is a team id (TeamMover, Team1, ...)
    misere: bool = False  # ByScore: the lowest score ranks first


@dataclass
class Container:
    """Board (index 0) or a hand: its global site range and its owner."""

    index: int
    name: str
    owner: int
    sites_from: int
    num_sites: int


@dataclass
class Component:
    """A piece kind: its `what` index, name, owner."""

    index: int
    name: str
    owner: int


class Game:
    """A compiled game: equipment tables, start actions, phases and end rules."""

    def __init__(self, name: str, num_players: int, board, containers: list[Container],
                 components: list[Component], start: list, phases: list[Phase], end: list,
                 max_turns: int = 1250, max_moves: int = 10000, options: tuple = (),
                 ruleset: str | None = None, requires_all_pass: bool = True,
                 uses_score: bool = False):
        self.name = name
        self.num_players = num_players
        self.board = board
        self.containers = containers
        self.components = components
        self.start = start                      # list of action tuples, one list per start move
        self.records_start = False              # keep what stood where after the start
        self.phases = phases
        self.end = end
        self.max_turns = max_turns
        self.max_moves = max_moves
        self.turn_limit = max_turns * num_players      # the turn that ends a playout
        self.options = options
        self.ruleset = ruleset
        self.requires_all_pass = requires_all_pass
        self.uses_score = uses_score
        # Ludii's global numbering may leave unused sites after the board (see ludeme.model.build._assemble)
        self.total_sites = max(c.sites_from + c.num_sites for c in containers)
        self.container_of = [0] * self.total_sites
        for c in containers:
            self.container_of[c.sites_from:c.sites_from + c.num_sites] = [c.index] * c.num_sites
        self.phase_index = {p.name: i for i, p in enumerate(phases)}
        self.phased = len(phases) > 1
        self.initial_phase = [0] * (num_players + 1)
        self.requires_visited = False
        self.teams: dict[int, int] = {}
        self.stacking = False           # sites hold stacks (ludeme.engine.stores.StackSites)
        self.uses_chance = False        # rules draw from the state's chance stream
        self.swap_rule = False          # (meta (swap)): the second player may swap seats
        self.automove = None            # (meta (automove)): its ludeme, else None
        self.repetition: str | None = None  # (meta (no Repeat ...)): ludemes.meta
        self.sequence_capture = False   # removals wait for the end of the turn (at:EndOfTurn)
        self.reads_after = False        # a rule reads (last To/From afterConsequence:True)
        self.reads_last_tos = False     # a rule reads (sites LastTo): State._note_last_tos
        self.reads_last_types = False   # a rule reads the site types of the last move
        # The board's layers of other site types the game puts pieces on: type -> the store
        # index of its element 0. They follow every container's sites in the store
        # (`store_sites` in all), so a game on its board's type alone keeps the store as is;
        # a move to one says so in `Move.site_types`.
        self.layers: dict[str, int] = {}
        self.store_sites = self.total_sites
        self.places_at_random = False   # a start rule places pieces at random sites
        self.unrecorded_random_start = None   # the (place Random ...) a recorded start misses
        self.unrecorded_random_why = ("", "")  # what it does, what the trace misses
        self.counting = False           # board sites hold counts of one piece (seeds)
        self.local_state = False        # pieces have a local state (Ludii's requiresLocalState)
        self.ludii_owners: list[int] = []   # per component, Ludii's owner (Shared: players + 1)
        # Ludii keeps no `what` on the board and stores a piece's index as its `who` there
        # (ludeme.engine.stores.IndexWhoSites), where an index differs from its owner.
        self.who_is_index = False
        # The piece kinds whose Ludii lists of owned pieces a rule reads in their order
        # ((where "Name" <player>)): flat stores keep them (ludeme.engine.stores.OwnedOrder),
        # a site leaving its list by a swap with the last (Ludii's flat owned lists of one
        # site type) or not (FullOwned); stacks keep them with levels
        # (ludeme.engine.stores.OwnedStackSites), where a removal from a level shifts the
        # levels above in the lists of pieces without an owner too only in a game of cells
        # alone (CellOnlyOwned, not FullOwned).
        self.owned_kinds: frozenset[int] = frozenset()
        self.owned_swap = True
        self.owned_shift_neutral = False
        # (forEach Piece) of a stacking game walks those lists, as Ludii's does, where they
        # can differ from the stacks: a game that promotes pieces (build).
        self.walks_stack_lists = False
        # Python's recursion limit reading the description needed (`build_game`); a worker
        # process that unpickles the game raises its own to it.
        self.recursion_limit = 0
        # A `Do` names some moves after a prior decision: their own ends are `Move.ends`.
        self.renames_moves = False
        # A track passes a site twice: states keep Ludii's OnTrackIndices (State.on_track).
        self.hidden_info = False        # rules hide pieces from players ((set Hidden ...))
        # Large pieces (a piece given as a walk): component index -> its walks and the cells
        # it covers (ludeme.boards.large_pieces.LargePiece); the cells covered are in
        # State.notes[COVERED].
        self.large_pieces: dict = {}
        self.covers_count = False       # covered cells count 1 (Ludii's requiresCount)
        self.track_indexed = any(t.internal_loop for t in getattr(board, "track_info", ()))
        # The game's typed rules and its build environment, kept by the builder
        # (`ludeme.model.build`) for the code generator and the concepts.
        self.typed = None
        self.env = None
        # Recorded by the loader (`ludeme.api.load`): how to build this game again in another
        # process (None: it travels pickled) and the backend its playouts use by default.
        self.source = None
        self.backend = "auto"
        self._kernels: dict[str, object] = {}   # per backend: its kernels, or None
        self._refused: dict[str, Exception] = {}   # per backend: why it has no kernels

    def set_layers(self, layers: dict[str, int]) -> None:
        """Keep the board's layers of other site types (see `layers`) after the containers."""
        self.layers = dict(layers)
        self.store_sites = self.total_sites + sum(
            len(self.board.planar.elements(t)) for t in layers)

    def site_types(self, move) -> tuple[str, str]:
        """The site types of a move's origin and destination, as Ludii's Move.fromType and
        toType give them: those of a move to another layer; the board's for any other move;
        Cell for a move with no site (a pass: Ludii's default when no action has a type)."""
        typed = getattr(move, "site_types", None)
        if typed is not None:
            return typed
        if move.frm < 0 and move.to < 0:
            return ("Cell", "Cell")
        own = self.board.site_type
        return (own, own)

    def store_ends(self, move) -> tuple[int, int]:
        """A move's origin and destination as places in the store (-1 for none): an end on
        a layer of another site type (`layers`) at the layer's place; a cell numbered as a
        hand's site, and every other end, as it is."""
        typed = getattr(move, "site_types", None)
        if typed is None:
            return move.frm, move.to
        hands_from = self.containers[1].sites_from if len(self.containers) > 1 else \
            self.total_sites

        def place(site, site_type):
            base = self.layers.get(site_type)
            if base is None or site < 0 or (site_type == "Cell" and site >= hands_from):
                return site
            return base + site
        return place(move.frm, typed[0]), place(move.to, typed[1])

    def loaded_from(self, source, backend: str) -> None:
        """Record where the game was loaded from and the backend it plays on."""
        self.source = source
        self.backend = backend

    def kernels_for(self, backend: str, build):
        """The kernels for `backend` (None: the reference engine), `build(self, backend)` the
        first time they are asked for. A refusal (`Unsupported`) is kept and raised again
        when they are asked for again: writing the kernels until a large game is refused may
        take a minute, and a crosscheck asks twice (before its clock starts, then to replay)."""
        if backend in self._refused:
            raise self._refused[backend]
        if backend not in self._kernels:
            try:
                self._kernels[backend] = build(self, backend)
            except Unsupported as e:
                self._refused[backend] = e
                raise
        return self._kernels[backend]

    def has_kernels(self, backend: str) -> bool:
        """Whether the kernels (or None) for `backend` were asked for already."""
        return backend in self._kernels

    def keep_kernels(self, backend: str, kernels):
        """Keep `kernels` (built elsewhere: in the background during a run) for `backend`."""
        self._kernels[backend] = kernels
        return kernels

    def __getstate__(self) -> dict:
        # Kernels are machine code of this process: a copy builds its own (from numba's cache).
        state = dict(self.__dict__)
        state["_kernels"] = {}
        state["_refused"] = {}
        return state

    # ------------------------------------------------------------------
    def _repr_svg_(self) -> str:
        """The board with the pieces the game starts with (a notebook shows a game so)."""
        from ludeme.engine.picture import state_svg
        return state_svg(self.new_initial_state(0))

    def new_initial_state(self, seed: int | None = None,
                          forced_places: dict[int, list[int]] | None = None) -> "State":
        """The position after the start rules, player 1 to move.

        `seed` seeds the state's chance stream (`State.rng`: dice, random draws),
        separate from any player's choices; None gives a fixed seed of 0.
        `forced_places` (piece index -> sites) fixes where a random placement at the start
        ((place Random ...)) puts each piece, as a recorded start had it (a replay of
        Ludii's trace forces it as it forces recorded dice rolls).
        """
        s = State(self, seed)
        if forced_places:
            s.notes[FORCED_PLACES] = {w: list(sites) for w, sites in forced_places.items()}
        for actions in self.start:
            if callable(actions):       # a start rule drawn now, e.g. from the chance stream
                actions = actions(s.ctx)
            for a in actions:
                s.do_action(a)
            s.num_moves += 1
        s.notes.pop(FORCED_PLACES, None)
        s.num_start_moves = s.num_moves
        if self.records_start:          # Ludii's trial.startingPos, read by (sites Start ...)
            s.notes["startingPos"] = tuple(s.sites.what[:self.containers[0].num_sites])
        if self.repetition:
            record_position(s)
        return s

    def component_named(self, name: str) -> Component | None:
        """The component called `name` (e.g. "Marker1")."""
        for comp in self.components[1:]:
            if comp.name == name:
                return comp
        return None


class State:
    """One position of a game and everything Ludii keeps with it."""

    __slots__ = ("g", "sites", "who", "what", "count", "rng", "player_order", "scores", "mover", "next", "prev", "phase",
                 "num_turn", "num_turn_same", "num_moves", "num_start_moves", "num_decisions",
                 "num_actions",
                 "counter", "active", "ranking", "winner", "end_type", "over", "last_from",
                 "last_to", "last_types", "last_to_after", "last_level_to", "last_from_after", "last_mover", "last_between", "history", "ctx", "_legal", "pending",
                 "winners", "losers", "_losses_decided", "visited", "stalemated", "notes",
                 "force_roll", "to_clear", "_replayed", "draws", "on_track",
                 "repeats", "_stuck", "_depths", "memo")

    def __init__(self, game: Game, seed: int | None = None):
        n = game.num_players
        self.g = game
        self.sites = new_sites(game.store_sites, game.containers[0].num_sites, game.stacking,
                               game.who_is_index,
                               (game.owned_kinds, game.owned_shift_neutral
                                if game.stacking else game.owned_swap, game.ludii_owners)
                               if game.owned_kinds else None)
        if game.layers and not game.stacking:
            self.sites.count_to = game.total_sites     # the layers hold one piece a site
        if game.counting and not game.stacking:
            # Every site gathers pieces of one kind as a count, as hands do.
            self.sites.count_from = 0
            self.sites.owner_of = game.ludii_owners
        elif game.who_is_index:
            # Ludii's ActionMove writes the piece's owner as the destination's `who` (a
            # hand keeps it; the board writes the index over it)
            self.sites.owner_of = game.ludii_owners
        self._alias_sites()
        # The chance stream (dice, random draws): only games with chance rules have one.
        self.rng = random.Random(chance_seed(seed or 0)) if game.uses_chance else None
        # player_order[p]: the seat (agent) playing as player p; a swap exchanges two.
        self.player_order = list(range(n + 1))
        self.scores = [0] * (n + 1)
        self.mover = 1
        self.next = 2 if n > 1 else 1
        self.prev = 0
        self.phase = list(game.initial_phase)
        self.num_turn = 1
        self.num_turn_same = 0
        self.num_moves = 0
        self.num_start_moves = 0
        self.num_decisions = 0
        # Ludii's actions of the decisions played (DurationActions): each decision's own,
        # a nested move's and its consequents' (never the nested move itself), and the
        # end-of-turn removals, as the move Ludii stores in its trial lists them.
        self.num_actions = 0
        self.counter = UNDEFINED
        self.active = [False] + [True] * n
        self.ranking = [0.0] * (n + 1)
        self.winner = None
        self.winners: list[int] = []
        self.losers: list[int] = []
        self.end_type = None
        self.over = False
        self.last_from = UNDEFINED
        self.last_to = UNDEFINED
        self.last_types = ("Cell", "Cell")  # the last decision's site types (when read)
        self.last_to_after = UNDEFINED     # the last destination after the consequents
        self.last_level_to = 0             # the level the last decision reported landing on
        self.last_from_after = UNDEFINED   # and the origin of that last action
        self.last_between = ()             # the sites the last decision hopped over (None:
                                           # a slide's, not kept)
        self.last_mover = 0
        self.history: list[tuple[int, bool]] = []   # (mover, was a pass) per decision
        self.pending: set[int] = set()
        self.visited: set[int] = set()
        # Ludii's sitesToRemove, (sites ToClear): each site with the times it was marked
        self.to_clear: dict[int, int] = {}
        self._replayed = False
        self.draws: list[int] = []     # the chance outcomes drawn so far, in order
        self._losses_decided = 0
        # Ludii's per-player "stalemated" flag, which (no Moves <player>) reads: cleared when
        # the player's moves are generated, set when the player passes with no move.
        self.stalemated = [False] * (n + 1)
        # Named variables and remembered values ((set Var ...), (remember Value ...)): keys
        # ("var", name) -> int and ("remembered", name) -> tuple, so a copy can share values.
        self.notes: dict = {}
        # Die site -> face index for the next roll (replaying a recorded game), else None.
        self.force_roll: dict | None = None
        # Ludii's OnTrackIndices: how far along each track the pieces are, kept only in a
        # game with a track that passes a site twice (see ludeme.engine.stores.TrackIndices).
        self.on_track = TrackIndices(game.board.track_info) if game.track_indexed else None
        # (no Repeat ...): the positions recorded in the game and in this turn (frozensets)
        self.repeats: tuple | None = None
        self.ctx = Ctx(game, self)
        self._legal = None
        self._stuck = False     # the phase gave no move when `_legal` was generated
        self._depths = None     # what a (max Moves) found of the moves it kept here
        self.memo = None        # regions worked out in this position (None: none yet); every
                                # write to the sites drops it (`do_action`, `set_site`)

    # -- the OpenSpiel-style API -----------------------------------------
    def current_player(self) -> int:
        """The player to move (1-based), or -1 when the game is over."""
        return -1 if self.over else self.mover

    def is_terminal(self) -> bool:
        """True when the game has ended (naturally or by a limit)."""
        return self.over

    def legal_moves(self) -> list[Move]:
        """The legal moves; a forced pass when the mover has none (Ludii's rule)."""
        if self.over:
            return []
        if self._legal is None:
            c = self.ctx
            c.from_ = c.to = c.site = c.player = UNDEFINED
            g, mover = self.g, self.mover
            moves = g.phases[self.phase[mover]].play(c)
            self.stalemated[mover] = False
            self._stuck = not moves
            if g.swap_rule and self.num_moves - self.num_start_moves == g.num_players - 1:
                # Ludii's Game.moves: the swap is offered beside the phase's moves on the
                # last player's first decision; the swapper moves again.
                moves = list(moves)
                moves.append(Move(-1, -1, mover, [(A_SWAP, mover, 1), (A_NEXT, mover)]))
            if not moves:
                moves = [pass_move(mover)]
            if g.repetition is not None:
                moves = without_repeats(self, moves)
                if not moves:
                    # every move would repeat a position: a forced pass, as Ludii's
                    # Trial.setLegalMoves adds (the mover has no move, as the kernels mark)
                    self._stuck = True
                    moves = [pass_move(mover)]
            Siblings(g, moves).tag()
            self._legal = moves
        return self._legal

    def _add_forced_moves(self, move: Move) -> None:
        """Ludii's Automove: on a copy, the move is applied (with what it carries), the
        mover's phase's moves are generated, and those to a site no other of them goes to
        are added to the move as one more consequent; again until none is left. Ludii adds
        them to every legal move when it lists them; they change neither the list nor
        the moves' actions, only what a move does when applied, so they are added when the
        move is applied, in the position it was listed in (a move that has them already
        gains none)."""
        g = self.g
        for _ in range(len(self.what) + 1):     # a forced move fills a site each round
            probe = self.clone()
            probe._apply_move_effects(move, True)
            c = probe.ctx
            c.from_ = c.to = c.site = c.player = UNDEFINED
            later = g.phases[probe.phase[probe.mover]].play(c)
            probe.ctx = c.s = None      # the copy and its context refer to each other
            times: dict[int, int] = {}
            for m in later:
                times[m.to] = times.get(m.to, 0) + 1
            forced = [m for m in later if times[m.to] == 1]
            if not forced:
                return
            move.then = tuple(move.then) + ((lambda c, f=tuple(forced): f),)
        raise g.automove.fail("(automove) forces moves without end: not supported yet")

    def legal_actions(self) -> list[int]:
        """Indices into `legal_moves()`."""
        return list(range(len(self.legal_moves())))

    def apply_action(self, action: int) -> None:
        """Apply the legal move with this index."""
        self.apply(self.legal_moves()[action])

    def returns(self) -> list[float]:
        """Per player (index 0 unused): +1 win, -1 loss, 0 draw or unfinished, from the ranking."""
        n = self.g.num_players
        if not self.over:
            return [0.0] * (n + 1)
        if n == 1:
            return [0.0, 1.0 if self.ranking[1] == 1.0 else -1.0]
        out = [0.0]
        for p in range(1, n + 1):
            r = self.ranking[p]
            out.append(0.0 if r == 0 else 1.0 - 2.0 * (r - 1.0) / (n - 1))
        return out

    def sites_key(self) -> tuple:
        """The contents of every container's sites, hashable (what Ludii's state hash reads
        of them)."""
        return self.sites.key()

    def position_key(self) -> tuple:
        """The position as Ludii's stateHash reads it (sites, player order; not phases)."""
        return position_key(self)

    def situation_key(self, position: tuple | None = None) -> tuple:
        """The position (`position_key`, given when already known) and what Ludii's
        fullHash adds to it that this engine keeps: the mover, next and previous players,
        active players, whether the game is over, scores and the moves of the mover's turn
        so far."""
        return (position_key(self) if position is None else position, self.mover, self.next, self.prev, tuple(self.active),
                self.over, tuple(self.scores), self.num_turn_same)

    def clone(self) -> "State":
        """An independent copy (its chance stream continues where this one's is)."""
        s = State.__new__(State)
        _copy_plain_slots(s, self)
        s.sites = self.sites.copy()
        s._alias_sites()
        s.player_order = self.player_order[:]
        if self.rng is not None:
            s.rng = random.Random()
            s.rng.setstate(self.rng.getstate())
        s.scores = self.scores[:]
        s.phase = self.phase[:]
        s.active = self.active[:]
        s.ranking = self.ranking[:]
        s.winners = self.winners[:]
        s.losers = self.losers[:]
        s.history = self.history[:]
        s.pending = set(self.pending)
        s.visited = set(self.visited)
        s.to_clear = dict(self.to_clear)
        s.draws = self.draws[:]
        s.stalemated = self.stalemated[:]
        s.notes = dict(self.notes)
        if self.on_track is not None:
            s.on_track = self.on_track.copy()
        s.ctx = Ctx(self.g, s)
        s._legal = s._depths = s.memo = None
        s._stuck = False
        return s

    # -- reading sites (the accessor API; see ludeme.engine.stores) ---------------
    def _alias_sites(self) -> None:
        # Read-only views of the top level, kept by the store: rules read these
        # in their hot loops; every write goes through `do_action`.
        self.who, self.what, self.count = self.sites.who, self.sites.what, self.sites.count

    def owned_sites(self, what: int) -> list[int] | None:
        """The sites of a piece kind in the order of Ludii's list of owned pieces (to read,
        not to change), or None where the store keeps no list of it (`Game.owned_kinds`)."""
        owned = getattr(self.sites, "owned", None)
        if owned is None:
            return None
        locs = owned.get(what)
        if locs is None or not self.g.stacking:
            return locs
        return [site for site, _ in locs]       # a stacking game's lists keep levels

    def size_stack(self, site: int) -> int:
        """How many levels stand at a site (0 when empty)."""
        return self.sites.size_stack(site)

    def level_data(self, site: int, level: int = TOP) -> tuple:
        """(what, who, state, rotation, value) at a level of a site (TOP: the top)."""
        return self.sites.level(site, level)

    def stack(self, site: int) -> tuple:
        """Every level at a site, bottom first, as (what, who, state, rotation, value)."""
        return self.sites.stack(site)

    def holds(self, site: int, players, whats=None) -> bool:
        """Some level at a site holds a piece of one of `players` (of kinds `whats`)."""
        return self.sites.holds(site, players, whats)

    def piece_state(self, site: int, level: int = TOP) -> int:
        """The `state` of the piece at a site's level (Ludii's (state at:...))."""
        return self.sites.state[site] if level == TOP else self.sites.level(site, level)[2]

    def piece_value(self, site: int, level: int = TOP) -> int:
        """The `value` of the piece at a site's level."""
        return self.sites.value[site] if level == TOP else self.sites.level(site, level)[4]

    def piece_rotation(self, site: int, level: int = TOP) -> int:
        """The `rotation` of the piece at a site's level."""
        return self.sites.rotation[site] if level == TOP else self.sites.level(site, level)[3]

    def hand_counts(self) -> list[list[int]]:
        """Per hand container (in order), the count at each of its sites."""
        return [self.count[c.sites_from:c.sites_from + c.num_sites]
                for c in self.g.containers[1:]]

    def flat_board(self) -> bool:
        """True when the pieces on the board are the counts of the top-level lists (a game
        without stacks): a reader may then take the board from the first sites of `what`
        and `count` (`figures.OccupancyFigures` does, once per state)."""
        return not self.g.stacking

    def board_occupancy(self) -> tuple[list[int], int]:
        """The board's top-level `what` per site and the pieces on the board: counts summed,
        or in a stacking game every level of every stack (Ludii's PieceNumber)."""
        g = self.g
        n = g.containers[0].num_sites
        if g.stacking:
            return self.what[:n], self._stacked_pieces(n)
        return self.what[:n], sum(self.count[:n])

    def _stacked_pieces(self, n: int) -> int:
        size = self.sites.size_stack
        return sum(size(s) for s in range(n))

    # -- writing sites: positions for tests, puzzles and position files ---------
    def set_site(self, site: int, what: int, who: int | None = None, count: int = 1,
                 state: int = 0, rotation: int = 0, value: int = 0) -> None:
        """Put exactly this at a site (what 0 empties it); `who` defaults to the owner."""
        self._legal = self.memo = None
        self.sites.clear(site)
        if what:
            owner = self.g.components[what].owner if who is None else who
            self.sites.add(site, what, owner, count, state, rotation, value)

    def clear_sites(self) -> None:
        """Empty every site, board and hands."""
        for site in range(self.g.store_sites):
            self.sites.clear(site)
        self._legal = self.memo = None

    # -- actions ---------------------------------------------------------
    def do_action(self, a: tuple) -> None:
        """Apply one action tuple (the only writer of the sites), as its kind's entry in
        `ludeme.engine.actions.ACTIONS` says: the three commonest kinds inline, here, the
        others by their `_do_*` method."""
        kind = a[0]
        sites = self.sites
        self.memo = None            # the position changes: what was worked out in it goes
        # The common kinds first, each checking its own sites; the rest check through
        # their entry of ACTIONS. A negative site is a rule's bug: never let it index from
        # the end.
        if kind == A_MOVE:
            _, frm, to = a
            if frm < 0 or to < 0:
                _undefined(a)
            if self.on_track is not None:
                self._track_piece(a)
            sites.move(frm, to)
            if self.g.hidden_info:
                self._move_hidden(frm, to)
            return
        if kind == A_REMOVE:
            if a[1] < 0:
                _undefined(a)
            if self.on_track is not None:
                self.on_track.removed(a[1], sites.what[a[1]])
            if self.g.large_pieces:
                self._uncover_removed(a[1])
            sites.remove(a[1])
            return
        if kind == A_ADD:
            _, site, what, who, count = a
            if site < 0:
                _undefined(a)
            if self.on_track is not None:
                self.on_track.added(site, what, count)
            sites.add(site, what, who, count)
            return
        if kind not in _NO_SITE_ACTIONS and min(ACTIONS[kind].endpoints(a)) < 0:
            _undefined(a)
        if self.on_track is not None:
            self._track_piece(a)
        _APPLY[kind](self, a)

    # Each kind's application, as `ludeme.engine.actions.ACTIONS` names it.
    def _do_score(self, a):
        self.scores[a[1]] += a[2]

    def _do_set_score(self, a):
        self.scores[a[1]] = a[2]

    def _do_next(self, a):
        self.next = a[1]
        self._replayed = True

    def _do_set_hidden(self, a):
        _, site, data, player, hidden = a
        key = ("hidden", data)
        flags = self.notes.get(key, frozenset())
        self.notes[key] = flags | {(site, player)} if hidden else flags - {(site, player)}

    def _move_hidden(self, frm: int, to: int) -> None:
        """Ludii's ActionMove in a game with hidden information: the destination takes the
        origin's hidden flags, for every player and datum; an origin left empty loses them."""
        emptied = self.sites.what[frm] == 0
        for key, flags in list(self.notes.items()):
            if key[0] != "hidden":
                continue
            kept = {f for f in flags if f[0] != to and (f[0] != frm or not emptied)}
            kept |= {(to, p) for site, p in flags if site == frm}
            self.notes[key] = frozenset(kept)

    def _do_remove_later(self, a):
        self.to_clear[a[1]] = self.to_clear.get(a[1], 0) + 1

    def end_of_turn_removals(self) -> list[tuple]:
        """The removals of the sites marked `at:EndOfTurn`, as Ludii's Move.apply makes them
        when a turn ends: on a flat board each marked site's piece; in a stacking game, at
        each site (in order) as many pieces as it was marked (at most its stack), taken from
        level that number - 1 down to level 0, the bottom of the stack."""
        if not self.g.stacking:
            return [(A_REMOVE, site) for site in sorted(self.to_clear)]
        size = self.sites.size_stack
        return [(A_REMOVE_LEVEL, site, level) for site in sorted(self.to_clear)
                for level in range(min(self.to_clear[site], size(site)) - 1, -1, -1)]

    def _do_count(self, a):
        self.sites.set_count(a[1], a[2])

    def _do_flip(self, a):
        _, site, who, what = a
        self.sites.set_piece(site, who, what)

    def _do_pass(self, a):
        pass

    def _do_swap(self, a):
        order = self.player_order
        i, j = order.index(a[1]), order.index(a[2])
        order[i], order[j] = order[j], order[i]

    def _do_move_level(self, a):
        _, frm, level_from, to, level_to = a
        self.sites.move(frm, to, level_from, level_to)

    def _do_move_stack(self, a):
        self.sites.move_stack(a[1], a[2])

    def _do_move_n(self, a):
        self.sites.move_n(a[1], a[2], a[3])

    def _do_remove_level(self, a):
        self.sites.remove(a[1], a[2])

    def _do_add_level(self, a):
        _, site, what, who, count, level = a
        self.sites.add(site, what, who, count, level=level)

    def _do_set_field(self, a):
        _, name, site, level, value = a
        self.sites.set_field(name, site, value, level)

    def _do_placed_field(self, a):
        self.num_actions -= 1       # Ludii's ActionAdd (ActionMove) sets it: one action with it
        self._do_set_field(a)

    def _do_cover(self, a):
        self.num_actions -= 1       # Ludii's ActionAdd (or Move) does it: one action with it
        _, _, cells, cover = a
        covered = self.notes.get(COVERED, frozenset())
        self.notes[COVERED] = covered | frozenset(cells) if cover else covered - frozenset(cells)
        if self.g.covers_count:
            # Ludii keeps a count per site where the game needs counts (a hand, or counted
            # pieces): a covered cell's is 1, though no piece stands there. A cell where a
            # piece stands keeps that piece's.
            what, count = self.sites.what, self.sites.count
            for x in cells:
                if not what[x]:
                    count[x] = 1 if cover else 0

    def _uncover_removed(self, site: int) -> None:
        """Ludii's removal empties the site of the piece removed: a large piece's anchor is
        empty again, the other cells it covered stay covered (ActionRemoveTopPiece frees
        the site only; Ludii's Remove never removes where no piece stands)."""
        covered = self.notes.get(COVERED)
        if covered and site in covered and self.sites.what[site]:
            self.notes[COVERED] = covered - {site}

    def is_empty(self, site: int) -> bool:
        """Nothing stands on the site and no large piece covers it (Ludii's isEmpty)."""
        return self.sites.what[site] == 0 and site not in self.notes.get(COVERED, ())

    def _do_select(self, a):
        pass

    def _do_set_var(self, a):
        self.notes[("var", a[1])] = a[2]

    def _do_remember(self, a):
        key = ("remembered", a[1])
        self.notes[key] = self.notes.get(key, ()) + (a[2],)

    def _do_forget(self, a):
        key = ("remembered", a[1])
        kept = self.notes.get(key, ())
        if a[2] is None:
            kept = ()
        elif a[2] in kept:
            i = kept.index(a[2])
            kept = kept[:i] + kept[i + 1:]
        self.notes[key] = kept

    def _do_pending(self, a):
        self.pending.add(a[1])

    def _do_update_die(self, a):
        self.sites.set_field("state", a[1], a[2], TOP)
        used = self.notes.get(DICE_USED, frozenset())
        if a[1] in used:
            self.notes[DICE_USED] = used - {a[1]}

    def _do_use_die(self, a):
        self.notes[DICE_USED] = self.notes.get(DICE_USED, frozenset()) | {a[1]}

    def _do_dice_equal(self, a):
        self.notes[DICE_EQUAL] = a[1]

    def _do_store_state(self, a):
        self.notes[STORED_STATE] = position_key(self)

    def _do_set_counter(self, a):
        self.counter = a[1]

    def _do_submove(self, a):
        self.num_actions -= 1       # Ludii stores a nested move's actions, not the move
        self._apply_move_effects(a[1], False)

    def _do_set_mover(self, a):
        n = self.g.num_players
        self.mover, self.next = a[1], a[1] % n + 1

    def _track_piece(self, a: tuple) -> None:
        """Update Ludii's OnTrackIndices for an action about to be applied, as the matching
        Ludii action does (a whole-stack move, a promotion or a count changes nothing)."""
        kind, tracks, sites = a[0], self.on_track, self.sites
        if kind == A_MOVE or kind == A_MOVE_LEVEL:
            frm, to = (a[1], a[2]) if kind == A_MOVE else (a[1], a[3])
            if self.g.stacking and frm == to:
                return          # Ludii's stacking ActionMove does nothing then
            level = TOP if kind == A_MOVE else a[2]
            tracks.moved(frm, to, sites.level(frm, level)[0])
        elif kind == A_MOVE_N:
            tracks.moved(a[1], a[2], sites.what[a[1]], a[3])
        elif kind == A_REMOVE_LEVEL:
            tracks.removed(a[1], sites.level(a[1], a[2])[0])
        elif kind == A_ADD_LEVEL:
            tracks.added(a[1], a[2], a[4])

    def _note_after(self, move: Move, actions: list, store: bool) -> None:
        """Ludii's toAfterSubsequents (fromAfterSubsequents): the last action of the move
        (consequents included) that has a destination, and its origin (the destination of
        an action that moves nothing); a decision without one, its own (from, to). Kept
        only in a game that reads them (`(last To afterConsequence:True)`)."""
        last = actions[-1] if actions else _NO_ACTION
        kind = last[0]
        if kind == A_MOVE:          # the common cases, without the scan
            self.last_to_after, self.last_from_after = last[2], last[1]
        elif kind == A_ADD:
            self.last_to_after = self.last_from_after = last[1]
        else:
            for a in reversed(actions):
                to = _ACTION_TO[a[0]]
                if to:
                    self.last_to_after = a[to]
                    self.last_from_after = a[1] if a[0] in _MOVING_ACTIONS else a[to]
                    break
            else:
                if store:
                    self.last_from_after, self.last_to_after = move.frm, move.to

    def _note_last_tos(self, move: Move, done: list) -> None:
        """Ludii's SitesLastTo, kept in the notes (LAST_TOS): the decision's destination,
        then each board site an action of the move or its consequents went to, once."""
        n = self.g.containers[0].num_sites
        tos = [move.to] if move.to >= 0 else []
        for a in done:
            to = _ACTION_TO[a[0]]
            if to and 0 <= a[to] < n and a[to] not in tos:
                tos.append(a[to])
        self.notes[LAST_TOS] = tuple(tos)

    def _apply_move_effects(self, move: Move, store: bool, done: list | None = None,
                            nested: bool = False) -> None:
        """Apply a move's actions, then its consequents (each evaluated now); `done`, if
        given, receives every action applied, in order (with `nested`, a nested move's own
        actions and consequents' instead of the nested move)."""
        actions = move.actions
        self.num_actions += len(actions)
        do_action = self.do_action
        if done is None:
            for a in actions:
                do_action(a)
        else:
            for a in actions:
                if nested and a[0] == A_SUBMOVE:    # its actions and consequents, each recorded
                    self._apply_move_effects(a[1], False, done, True)
                else:
                    done.append(a)
                    do_action(a)
        if store:
            self.last_from, self.last_to, self.last_mover = move.frm, move.to, move.mover
            if self.g.renames_moves and getattr(move, "ends", None):
                self.last_from, self.last_to = move.ends
            self.last_level_to = move.level_to
            self.last_between = getattr(move, "between", ())
            if self.g.reads_last_types:
                self.last_types = self.g.site_types(move)
        if self.g.reads_after:
            self._note_after(move, actions, store)
        if not move.then:
            return
        c = self.ctx
        if store and done is None:
            # A decision as `apply` plays it (or on a copy): what the context held is not
            # read afterwards (`apply` resets it), so it is not kept.
            for consequent in move.then:
                c.from_ = c.to = c.site = c.player = UNDEFINED
                for m in consequent(c):
                    self._apply_move_effects(m, False)
            return
        for consequent in move.then:
            saved = (c.from_, c.to, c.site, c.player)
            c.from_ = c.to = c.site = c.player = UNDEFINED
            for m in consequent(c):
                self._apply_move_effects(m, False, done, nested)
            c.from_, c.to, c.site, c.player = saved

    def apply(self, move: Move, listed: bool = False) -> None:
        """Apply a legal move with Ludii's turn mechanics: the steps of
        `ludeme.engine.turns.TURN`, each marked below. `listed`: the move comes from a list
        of moves generated in this very position (as the moves a (max Moves) ranks), so the
        mover was not stalemated there (Ludii sets the flag when it generates the list)."""
        g = self.g
        # turn: record
        mover = self.mover
        move.mover = mover
        if g.automove is not None:
            self._add_forced_moves(move)
        self.force_roll = None
        if self.pending:
            self.pending.clear()   # Ludii reboots the pending values before each move
        if move.is_pass and not self.stalemated[mover] and not listed:
            if self._legal is not None and not g.uses_chance:
                # The phase's moves were generated in this very position (`legal_moves`):
                # whether it gave none is known. (Generating again could draw from the
                # chance stream, so a game with chance rules does.)
                self.stalemated[mover] = self._stuck
            else:
                c = self.ctx
                c.from_ = c.to = c.site = c.player = UNDEFINED
                self.stalemated[mover] = not g.phases[self.phase[mover]].play(c)
        self._legal = None
        self._replayed = False
        # Ludii's Move.apply stores the move in the trial before its consequents are
        # evaluated: they see it among the moves played (e.g. (all Passed)).
        self.num_moves += 1
        self.num_decisions += 1
        self.history.append((mover, move.is_pass))
        if move.is_pass and all(a[0] != A_PASS for a in move.actions):
            self.num_actions += 1   # a pass no (pass) made: Ludii's forced pass, one action
        # turn: actions
        # turn: consequents (both inside _apply_move_effects: actions, then `then`)
        if g.reads_last_tos:
            done: list = []
            self._apply_move_effects(move, True, done)
            self._note_last_tos(move, done)
        else:
            self._apply_move_effects(move, True)
        # turn: end-of-turn removals
        if g.sequence_capture and not self._replayed and self.to_clear:
            # Ludii's Move.apply: a decision that does not replay ends the sequence, and
            # every piece marked for removal on the way goes now.
            removals = self.end_of_turn_removals()
            self.num_actions += len(removals)
            for a in removals:
                self.do_action(a)
            self.to_clear.clear()
        # turn: end rules
        phase = self.evaluate_end_rules()
        c = self.ctx
        # turn: all pass
        # Ludii checks the all-pass draw inside End.eval: after a phase's end rules too.
        if not self.over and move.is_pass and g.requires_all_pass and (phase.end or g.end) \
                and self._all_passed():
            self._apply_result(Result(0, "Draw"))
        # turn: limits
        if not self.over and (self.num_turn >= g.turn_limit
                              or self.num_moves - self.num_start_moves >= g.max_moves):
            self._timeout()
        # turn: phases
        if self.over:
            self.prev = mover
        elif g.phased:              # with one phase, a phase change changes nothing
            n = g.num_players
            for pid in range(1, n + 1):
                ph = g.phases[self.phase[pid]]
                for who_fn, cond, target in ph.next_phases:
                    who = who_fn(c)
                    if who == n + 1 or who == pid:
                        if cond(c):
                            self.phase[pid] = target
                            break
        # turn: next mover
        self.counter += 1
        if not self.over:
            if g.requires_visited:
                # Ludii: sites a turn has passed through, kept while the mover moves again.
                if self.mover != self.next:
                    self.visited.clear()
                else:
                    self.visited.add(move.frm)
                    self.visited.add(move.to)
            self.prev = mover
            self.mover = self.next
            if self.prev == self.mover:
                self.num_turn_same += 1
            else:
                self.num_turn_same = 0
                self.num_turn += 1
            n = g.num_players
            nxt = self.mover % n + 1
            while not self.active[nxt]:
                nxt = nxt % n + 1
            self.next = nxt
        # turn: repetition
        if g.repetition is not None:
            record_position(self)

    # -- end of game -------------------------------------------------------
    def _all_passed(self) -> bool:
        """Every player's last turn was a single pass (Ludii's Context.allPass)."""
        n = self.g.num_players
        h = self.history
        if not h or not h[-1][1]:
            return False
        i = len(h) - 1
        turns = 0
        while turns < n:
            if i < 0:
                # Nothing earlier to look back on counts as passed (Ludii's allPass), but
                # start placements are moves of Ludii's trial, and none is a pass.
                return self.num_start_moves == 0
            p, was_pass = h[i]
            j = i
            while j - 1 >= 0 and h[j - 1][0] == p:
                j -= 1
            if i != j or not was_pass:
                return False
            turns += 1
            i = j - 1
        return True

    def evaluate_end_rules(self) -> "Phase":
        """The turn's "end rules" step (`ludeme.engine.turns`), which `apply` takes after a
        move: the mover's phase's end rules, then (unless the game ended) the game's. Also
        the step alone, for a position read from a file (with the player who moved last
        as the mover). The mover's phase is returned."""
        c = self.ctx
        c.from_ = c.to = c.site = c.player = UNDEFINED
        g = self.g
        phase = g.phases[self.phase[self.mover]]
        if phase.end:
            self._eval_end(phase.end)
        if not self.over and g.end:
            self._eval_end(g.end)
        return phase

    def _eval_end(self, rules: list) -> None:
        c = self.ctx
        n = self.g.num_players
        self._losses_decided = 0
        for rule in rules:
            for res in rule(c):
                if res is None:
                    continue
                if res.who not in (0, n + 1) and not self.active[res.who]:
                    continue
                self._apply_result(res)

    def _active_players(self) -> list[int]:
        return [p for p in range(1, self.g.num_players + 1) if self.active[p]]

    def _end_with_rank_one(self, end_type: str = "NaturalEnd") -> None:
        """All inactive: the game is over; the winner is the player ranked 1, else nobody."""
        n = self.g.num_players
        self.active = [False] * (n + 1)
        self.over = True
        self.end_type = end_type
        self.winner = next((p for p in range(1, n + 1) if self.ranking[p] == 1.0), 0)

    def _apply_result(self, res: Result) -> None:
        """Ludii's End.applyResult: Win, Loss and Draw with ranks for any number of players."""
        n = self.g.num_players
        who, kind = res.who, res.kind
        rk = self.ranking
        if res.team:
            self._apply_team_result(res)
            return
        if kind == "ByScore":
            self._rank_by_score(res.misere)
            return
        if kind == "Win":
            if who == 0:  # All win
                for p in range(1, n + 1):
                    if rk[p] == 0.0:
                        self.winners.append(p)
                        rk[p] = 1.0
                self.active = [False] * (n + 1)
                self.over, self.end_type, self.winner = True, "NaturalEnd", 0
                return
            self.active[who] = False
            rank = float(len(self.winners) + 1)
            self.winners.append(who)
            rk[who] = rank
            rest = self._active_players()
            if len(rest) == 1:
                rk[rest[0]] = rank + 1.0
                self.losers.append(rest[0])
                self._end_with_rank_one()
            elif not rest:
                self._end_with_rank_one()
        elif kind == "Loss":
            if who == 0:  # All lose
                for p in range(1, n + 1):
                    if rk[p] == 0.0:
                        rk[p] = float(n)
                self.active = [False] * (n + 1)
                self.over, self.end_type, self.winner = True, "NaturalEnd", 0
                return
            if not self.active[who]:
                return
            self.active[who] = False
            if self.next == who and n != 1 and any(self.active):
                nxt = who
                while not self.active[nxt]:
                    nxt = nxt % n + 1
                self.next = nxt
            if n > 1:
                rank = float(n - len(self.losers))
                prev_loss_rank = rank + 1.0 + 0.5 * (self._losses_decided - 1.0)
                rank = prev_loss_rank - 0.5
                rk[who] = rank
                self.losers.append(who)
                for p in range(n + 1):
                    if rk[p] == prev_loss_rank:
                        rk[p] = rank
                rest = self._active_players()
                if not rest:
                    self._end_with_rank_one()
                elif len(rest) == 1:
                    rk[rest[0]] = float(len(self.winners) + 1)
                    low = min(rk[1:])
                    self.winners.append(next(p for p in range(1, n + 1) if rk[p] == low))
                    self.active[rest[0]] = False
                    self.over, self.end_type = True, "NaturalEnd"
                    self.winner = next(p for p in range(1, n + 1) if rk[p] == low)
            else:
                self.active = [False] * (n + 1)
                self.over, self.end_type, self.winner = True, "NaturalEnd", 0
            self._losses_decided += 1
        else:  # Draw
            if n > 1:
                score = self.next_draw_rank()
                for p in range(1, n + 1):
                    if rk[p] == 0.0:
                        rk[p] = score
            self._end_with_rank_one()

    def _rank_by_score(self, misere: bool = False) -> None:
        """Ludii's ByScore: everyone stops; ranks go by score, highest first (lowest first when
        misere), ties sharing the average of the ranks they span."""
        n = self.g.num_players
        self.active = [False] * (n + 1)
        left = {p: self.scores[p] for p in range(1, n + 1)}
        first = min if misere else max
        while left:
            best = first(left.values())
            tied = [p for p, v in left.items() if v == best]
            rank = (self._next_win_rank() * 2.0 + len(tied) - 1.0) / 2.0
            for p in tied:
                self.ranking[p] = rank
                del left[p]
        self.over, self.end_type = True, "NaturalEnd"
        self.winner = next((p for p in range(1, n + 1) if self.ranking[p] == 1.0), 0)

    def _next_win_rank(self) -> float:
        """Ludii's Context.computeNextWinRank: the best rank no player holds yet."""
        rk = self.ranking[1:]
        low = 0.0
        while True:
            assigned = [r for r in rk if r > low]
            if not assigned:
                return low + 1.0
            m = min(assigned)
            k = rk.count(m)
            if int(m - (k - 1) * 0.5) > low + 1.0:
                return low + 1.0
            low += k

    def _apply_team_result(self, res: Result) -> None:
        """Ludii's End.applyTeamResult: a team's Win ranks its members together at the first
        free rank; if one team is left, its members rank after them. (Ludii has no team
        Loss or Draw: those end nothing, as there.)"""
        if res.kind != "Win":
            return
        n = self.g.num_players
        teams = self.g.teams
        rk = self.ranking
        members = [p for p in range(1, n + 1) if teams.get(p) == res.who]
        for p in members:
            self.active[p] = False
            self.winners.append(p)
        rank = 1
        while rank < n + 1 and any(rk[p] == rank for p in range(1, n + 1)):
            rank += 1
        for p in members:
            rk[p] = float(rank)
        left = {teams.get(p) for p in self._active_players()}
        if len(left) == 1:
            for p in range(1, n + 1):
                if teams.get(p) in left:
                    rk[p] = float(rank + len(members))
                    self.active[p] = False
            self._end_with_rank_one()
        elif not left:
            self._end_with_rank_one()

    def resign(self, player: int) -> None:
        """`player` resigns: a Loss for them (their pieces stay on the board), and if it
        was their turn, the next active player moves. Not a move: never in random play."""
        if self.over or not self.active[player]:
            return
        self._legal = None
        self._losses_decided = 0
        n, teams = self.g.num_players, self.g.teams
        # In a team game the person resigns their whole team (every colour they play).
        for p in ([q for q in range(1, n + 1) if teams.get(q) == teams[player]]
                  if player in teams else [player]):
            self._apply_result(Result(p, "Loss"))
        left = {teams.get(p) for p in self._active_players()}
        if not self.over and teams and len(left) == 1:
            self._apply_team_result(Result(left.pop(), "Win", team=True))
        if not self.over and not self.active[self.mover]:
            nxt = self.mover % n + 1
            while not self.active[nxt]:
                nxt = nxt % n + 1
            self.prev, self.mover = self.mover, nxt
            self.num_turn += 1
            self.num_turn_same = 0
            self.visited.clear()
            nxt = self.mover % n + 1
            while not self.active[nxt]:
                nxt = nxt % n + 1
            self.next = nxt

    def next_draw_rank(self) -> float:
        """The rank the players not ranked yet would share as a draw (Ludii's
        computeNextDrawRank)."""
        return (len(self._active_players()) + 1) / 2.0 + len(self.winners)

    def _timeout(self) -> None:
        """The turn or move limit: undecided players share the remaining ranks.

        As in Ludii, a player already ranked first (possible with more than two
        players) is reported as the winner; otherwise nobody wins.
        """
        g = self.g
        winner = 0
        if g.num_players > 1:
            score = self.next_draw_rank()
            for p in range(1, g.num_players + 1):
                if self.ranking[p] == 0.0:
                    self.ranking[p] = score
                elif self.ranking[p] == 1.0:
                    winner = p
        self.active = [False] * (g.num_players + 1)
        self.over = True
        self.end_type = "TurnLimit" if self.num_turn >= g.turn_limit \
            else "MoveLimit"
        self.winner = winner

    # -- helpers -------------------------------------------------------------
    @property
    def var(self) -> int:
        """Ludii's unnamed state variable ((set Var v), (var)): -1 until set."""
        return self.notes.get(("var", None), -1)

    def key(self) -> tuple:
        """Everything that decides the future of the game, for equality checks."""
        return (self.sites.key(), tuple(self.scores),
                self.mover, self.next, self.prev, tuple(self.phase), self.num_turn,
                self.num_moves, self.over, self.winner, tuple(self.ranking),
                tuple(self.active), self.last_from, self.last_to, tuple(sorted(self.to_clear.items())),
                tuple(self.player_order), tuple(sorted(self.notes.items(), key=repr)),
                tuple(self.draws))

    def turns(self) -> int:
        """Ludii's turn counter (starts at 1, +1 whenever the mover changes)."""
        return self.num_turn

    def _repr_svg_(self) -> str:
        """The board with this state's pieces (a notebook shows a state so)."""
        from ludeme.engine.picture import state_svg
        return state_svg(self)

    def board_view(self, player: int | None = None) -> dict:
        """who/what/count on board sites, hand counts and scores (for cross-checks). Seen by
        `player` (1-based), a datum hidden from them ((set Hidden ...)) reads HIDDEN_VALUE."""
        n = self.g.containers[0].num_sites
        view = {"who": self.who[:n], "what": self.what[:n], "count": self.count[:n],
                "hands": self.hand_counts(), "scores": self.scores[1:],
                "stacks": [self.sites.stack(i) for i in range(n)] if self.g.stacking else None}
        if player is not None and self.g.hidden_info:
            self._mask_hidden(view, player)
        return view

    def _mask_hidden(self, view: dict, player: int) -> None:
        """Blank in `view` what is hidden from `player`: the whole piece (Ludii's invisible:
        owner, kind and count), or only the datum named (What, Who, Count); State, Rotation
        and Value are not in the view."""
        fields = {None: ("who", "what", "count"), "What": ("what",), "Who": ("who",),
                  "Count": ("count",)}
        n = self.g.containers[0].num_sites
        view["who"], view["what"], view["count"] = (list(view[k]) for k in ("who", "what",
                                                                             "count"))
        view["hands"] = [list(h) for h in view["hands"]]
        hands = self.g.containers[1:]
        for key, flags in self.notes.items():
            if key[0] != "hidden" or key[1] not in fields:
                continue
            for site, p in flags:
                if p != player:
                    continue
                if site < n:
                    for f in fields[key[1]]:
                        view[f][site] = HIDDEN_VALUE
                    if view["stacks"] is not None:
                        view["stacks"][site] = None
                elif "count" in fields[key[1]]:
                    for i, c in enumerate(hands):
                        if c.sites_from <= site < c.sites_from + c.num_sites:
                            view["hands"][i][site - c.sites_from] = HIDDEN_VALUE


# Per action code, the State method that applies it (None: inline in `State.do_action`).
_APPLY = tuple(getattr(State, k.apply) if k.apply else None for k in ACTIONS)


def _slot_copier(names: tuple[str, ...]):
    """A function copying these slots from one object to another by plain assignments,
    made once: a clone copies some fifty slots, and a chess-like game's check test clones
    the state for every candidate move (a loop of getattr/setattr took a third of
    Shatranj al-Kabir's playouts)."""
    body = "".join(f"    s.{n} = o.{n}\n" for n in names) or "    pass\n"
    scope: dict = {}
    exec(f"def copy_slots(s, o):\n{body}", scope)
    return scope["copy_slots"]


# The slots `State.clone` copies as they are; the others it makes anew or sets after (rng
# and on_track are copied too, then replaced by copies of their own when there are any).
_copy_plain_slots = _slot_copier(tuple(
    n for n in State.__slots__
    if n not in ("ctx", "_legal", "_stuck", "_depths", "memo", "sites", "who", "what", "count",
                 "player_order", "scores", "phase", "active", "ranking", "winners",
                 "losers", "history", "pending", "visited", "to_clear", "draws", "stalemated",
                 "notes")))
