"""Typed ludemes to Python source for numba, specialised to one game.

`generate(game)` walks the game's typed rules (`game.typed`, with the compiler's
`game.env` for board tables) and writes one module: the game's tables as array
literals, `legal` (the phase's moves into (from, to, generator) buffers in the
reference engine's order), `effects` (one branch per move generator: its
side effects and actions), `end_rules` and the turn loop of `ludeme.engine.state.State`
specialised to the game (`LOOP` below).

This module knows no ludeme. Each supported ludeme has its emitters beside its class
in `ludeme.model.ludemes` (registered with `ludeme.engine.compiled.emit.emits`); `Source`
dispatches to them by the ludeme's class and offers them the generated module's
tables, helper kernels and move generators. A ludeme without an emitter, or an
argument an emitter does not implement, raises `Unsupported`, and the game falls back
to the reference engine (`ludeme.engine.compiled.select`).

Names in the generated code for the evaluation context: `frm` and `to` (Ludii's
`(from)` and `(to)`), `mover`, `nxt`, `prev`, `last_from`, `last_to`; the state's
arrays `who`, `what`, `count`.
"""

from __future__ import annotations

import ast
import random
import re
import textwrap
from contextlib import contextmanager
from typing import Callable

import numpy as np

from ludeme.language.syntax import Node, to_lud
from ludeme.engine.state import (A_ADD, A_FORGET, A_MOVE, A_NEXT, A_PASS, A_PENDING, A_REMEMBER,
                                 A_REMOVE, A_SCORE, A_SET_FIELD, A_SET_VAR, A_SWAP, COVERED)
from ludeme.engine.compiled.emit import (LEVEL_PAIR, LV_ADD, LV_AT, LV_NONE, LV_PAIR, LV_SUB,
                                         LV_TOPS, TAGGED, emit, lookup)
from ludeme.engine.compiled.hoist import hoist
from ludeme.engine.compiled.unsupported import Unsupported

# Roles that may name several players (Ludii's RoleType sets), as a test of a player id
# `{s}` (no teams compile).
_OWNER_SETS = {"Enemy": "0 < {s} <= NP and {s} != mover",
               "NonMover": "0 < {s} <= NP and {s} != mover",
               "All": "0 < {s} <= NP", "Each": "0 < {s} <= NP",
               "Friend": "{s} == mover", "Ally": "{s} == mover"}

# The roles naming the mover's team (`Roles.set_fn`): with teams, the players of the
# mover's team; without, the mover.
_TEAM_SETS = ("Friend", "Ally", "MoverTeam", "TeamMover")


# The pending values the kernels keep where a rule makes a value computed by arithmetic
# pending, in multiples of the sites (`Source.pending_values`).
PENDING_SPAN = 4

# What the tables of one game's kernels may hold, in numbers: a bound on the generated
# module (about 4 characters a number) and on what numba needs to compile it.
MAX_TABLE_ELEMENTS = 1_000_000

# A helper kernel's source reading `player`, its signature taking it, its comments.
_READS_PLAYER = re.compile(r"\bplayer\b")
_TAKES_PLAYER = re.compile(r"^def \w+\([^)]*\bplayer\b", re.M)
_COMMENT = re.compile(r"#.*")


# The locals that hold `(value)` of a (forEach Value ...) (`ludemes.effects`): a helper
# kernel reading one is handed it (`Source.helper`).
VALUE_LOCALS = ("value_v", "value_c")


# A kernel's read of the pending values (`(is Pending)`, `(value Pending)`, `(sites Pending)`).
_READS_PENDING = re.compile(r"\bPENDN\b|\bPENDING\b|pending_one")


def _table_text(arr: np.ndarray, dtype: str) -> str:
    """The expression of a module's table: a list literal; for a large table of integers
    or flags, its numbers in one string numpy reads (Python compiles a literal of thousands
    of numbers in a tenth of a second and more, the string in a millisecond: the same
    array, C-ordered and writable as `np.array` makes it)."""
    if arr.size < LITERAL_TABLE_MOST or not (arr.dtype == np.bool_
                                             or np.issubdtype(arr.dtype, np.integer)):
        return f"np.array({arr.tolist()!r}, dtype=np.{dtype})"
    flat = arr.ravel()
    if arr.dtype == np.bool_:
        numbers = " ".join(map(str, flat.astype(np.uint8).tolist()))
        return (f'np.fromstring("{numbers}", dtype=np.uint8, sep=" ").astype(np.bool_)'
                f".reshape({arr.shape!r})")
    numbers = " ".join(map(str, flat.tolist()))
    return f'np.fromstring("{numbers}", dtype=np.{dtype}, sep=" ").reshape({arr.shape!r})'


# The most numbers a table is written with as a list literal (`_table_text`).
LITERAL_TABLE_MOST = 256


def _as_pending_was(line: str) -> str:
    """An effect's line reading the pending values as the move was generated, kept by `step`
    before it empties them (`sc[PWAS]`: their number, then a flag per value)."""
    return (line.replace("sc[PENDN]", "sc[PWAS]").replace("sc[PENDING + ", "sc[PWAS + 1 + ")
            .replace("pending_one(sc)", "pending_was(sc)"))


def _reads_outer_site(source: str, local: str = "site") -> bool:
    """Whether a helper kernel's source reads `site` (or another loop's `local`) where only
    a loop around it binds it: in the sites its own loop over `site` walks, before its
    first assignment, or anywhere when it never binds it."""
    if not re.search(rf"\b{local}\b", source):
        return False            # (no name `local` anywhere: nothing to parse)
    fn = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef))
    if local in {a.arg for a in fn.args.args}:
        return False
    # one walk: the names `local` and the loops binding it
    names, loops = [], []
    Name, For = ast.Name, ast.For
    for n in ast.walk(fn):
        if type(n) is Name:
            if n.id == local:
                names.append(n)
        elif type(n) is For and type(n.target) is Name and n.target.id == local:
            loops.append(n)
    loads = [n.lineno for n in names if isinstance(n.ctx, ast.Load)]
    stores = [n.lineno for n in names if isinstance(n.ctx, ast.Store)]
    if not stores:
        return bool(names)
    if loads and min(loads) < min(stores):      # `ctr = site`, then its own loop binds it
        return True
    return any(any(isinstance(m, ast.Name) and m.id == local for m in ast.walk(n.iter))
               for n in loops)


def reads_level_unbound(source: str) -> bool:
    """Whether generated lines (or a helper kernel's source) read a local holding `(level)`
    (`Source.level_var`) that a loop of the kernel around them binds, without taking it as
    an argument or binding it themselves."""
    if not _LEVEL_VAR.search(source):
        return False
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:         # lines not a whole block: bound where they assign it
        return any(not re.search(rf"\b{v} = |for {v} in", source)
                   for v in set(_LEVEL_VAR.findall(source)))
    names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and _LEVEL_VAR.fullmatch(n.id)]
    bound = {n.id for n in names if isinstance(n.ctx, ast.Store)} | {
        a.arg for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) for a in f.args.args}
    return any(n.id not in bound for n in names)


_LEVEL_VAR = re.compile(r"\blvl(?:_\d+)?\b")


# Values of a `Source`'s context that change in place (`_memo` reads them each time).
_HELD_IN_PLACE = (list, dict, set, tuple)


def _holds_ludemes(lud) -> bool:
    """Whether a ludeme's arguments hold another ludeme (read without marking them read)."""
    for v in lud.__dict__.get("_fields", {}).values():
        for x in (v if isinstance(v, (list, tuple)) else (v,)):
            if isinstance(getattr(x, "node", None), Node):
                return True
    return False


class Source:
    """The generated module: tables (deduplicated) and functions."""

    def __init__(self, game, piece_states: bool = False, piece_values: bool = False):
        self.game = game
        # The kernels keep each site's piece state (`sc[STATE + s]`): the start rules set
        # some, or a rule reads or writes one (`piece_state`).
        self.piece_states = piece_states
        # Dice keep their faces as their sites' states (`ludemes.dice`): the kernels keep
        # the states of every site, those of the board only with `piece_states`.
        self.die_states = bool(getattr(game.env, "dice", None))
        self.wants_piece_states = False        # a rule asked for them (`piece_state`)
        # A rule reads or sets values (`piece_value`), or the start gives pieces values: the
        # position's key reads them (`repetition.position_key`), whether or not a rule does.
        self.piece_values = piece_values
        # A game whose pieces turn ((place ... rotation:), (move Set Rotation ...)): the
        # kernels keep each site's rotation after the states and values (`piece_rotation`),
        # and tables of directions relative to a piece are per kind and rotation (`per_kind`,
        # `kind_at`): the board's rotation states (Ludii's maximalRotationStates, as
        # `ludemes.move_set.rotation_states`), else 0.
        self.rotations = len(game.env.board.directions) if getattr(game.env, "rotated", False) \
            else 0
        if self.rotations:
            self.piece_values = True
        self.env = game.env
        self.tables: dict[tuple, str] = {}
        self.table_size = 0                    # numbers held by the tables so far
        self.table_lines: list[str] = []
        self.generators: list[tuple] = []     # gen id -> (effect lines, is_pass, consequents)
        self.generator_luds: list = []         # gen id -> the ludeme that made it
        self.variables: dict = {}              # a variable's name (None too) -> its slot
        # Tests every move pushed must pass, innermost last (`(do ... ifAfterwards:)`): each
        # gives, for (frm, to, g, x), a condition on the position the move came from.
        self.push_tests: list = []
        # The position (who, what, count, sc) the tests start from where it is not the
        # state's: a copy of it taken before the first moves of a (do ... next:) were applied
        # (the moves pushed carry their effects), or None.
        self.test_position: str | None = None
        self.siteless_pushes = 0               # moves pushed at (-1, -1), as written
        self.test_calls: set[str] = set()      # the `push_tests` conditions written
        self.any_mode = False                  # emitting "is there a move?" code
        # Emitting "which is the first move?" code (`first_move_kernel`, in any-mode too):
        # the first move pushed answers, its from and to written in `fm`.
        self.first_mode = False
        # Emitting the moves `(no Moves Next)` probes (`legal_any`): a `(no Moves Next)` met
        # inside them is false, as the reference's (and Ludii's autoFail).
        self.no_moves_busy = False
        self.helpers: list[str] = []           # extra kernels ((can Move ...) tests)
        self.helper_names: dict[str, str] = {}  # a helper's source -> its name
        # Helpers reading `(site)` of a loop around their calls: each is handed it, as its
        # first argument (`handed_site`).
        self.site_helpers: list[str] = []
        # The helpers that read a local holding `(value)` of a (forEach Value ...) around
        # them (`value_locals`): handed it, first after `(site)`, as `handed_site` does.
        self.value_helpers: dict[str, list[str]] = {}
        self.player_bound = False              # `player` set (forEach NonMover's results)
        # the local that holds `(level)` where a loop binds it ((count Stack ...), (forEach
        # Level ...), (forEach Piece) in a stacking game), else None; the loops made so far
        self.level_var: str | None = None
        self.level_loops = 0
        # `(value)` of a `(forEach Value ...)`: the value its moves are being generated for,
        # a number written into them (over fixed bounds), or the name of the local holding
        # it (over computed bounds); None elsewhere
        self.value_written: int | str | None = None
        self.generator_kinds: list[int] = []   # gen id -> the engine's code of its action
        # gen id -> the site types (from, to) of its moves, for those to or from a layer of
        # the board the game puts pieces on (`Game.layers`)
        self.generator_types: dict[int, tuple] = {}
        self.generator_levels: list[int] = []  # gen id -> its moves' levels (LV_*)
        self.generator_tagged: list[bool] = []  # gen id -> its moves' extra keeps a die's tag
        self.decision_read = False     # a rule reads (last LevelTo) or (was Pass): `note_decision`
        self.between = "btw"                   # the name `(between)` reads (x in `effects`)
        # The (then ...) of the (if ...)/(or ...) moves being emitted, outermost first: every
        # move generated inside takes them after its own, as the reference appends them.
        self.outer_thens: list = []
        # The flags of the end rules' (if ...)s being emitted whose inner rules are tried in
        # turn: a result met sets them all (`_if_end` in ludeme.model.ludemes.game).
        self.end_fired: list[str] = []
        self.in_start = False                  # emitting the start rules drawn per game
        # Emitting a move's consequents (its (then ...)), which both engines evaluate when
        # the move is applied, not while moves are generated (a chance draw may be made)
        self.in_then = False
        # The (then ...)s applied by a kernel of their own (`moves.then_after_move`: their
        # ids, and the lines calling them, which read the position as applied), those
        # written into the lines around them (ids), and how deep such a kernel is being
        # written: `moves.thens_apart` reads them.
        self.kernel_thens: set[int] = set()
        self.then_calls: set[str] = set()
        self.inline_thens: set[int] = set()
        self.then_kernel_depth = 0
        # Emitting a sowing's captures whose consequents read them as the last move
        # (`sowing._sow_consequent`, `effects._from_to_moving`)
        self.then_as_last_move = False
        self.last_move_thens: set[str] = set()     # the calls of their kernels
        self.then_bodies: dict[str, list[str]] = {}  # a then kernel's call -> its lines
        # A sowing made again as a part of an (and ...) after parts that changed what it
        # reads (what they changed): handed the position before them (`sowing`)
        self.sow_read_copy = None
        # A rule swaps the players' seats ((swap Players ...)): the order is in the key
        self.swaps_players = False
        self.emitted = 0                       # compiled forms written so far (`emit.emit`)
        self.pending = False                   # a ludeme reads or sets pending values
        self.pending_wide = False              # ... past the sites (`pending_values`)
        self.reads_pending_was = False         # an effect reads them (`_as_pending_was`)
        self.grp = False                       # (forEach Group ...) keeps its group in sc
        self.group_bound = False               # `(sites)` is the group of a (forEach Group ...)
        self.reads_all_passed = False          # a rule reads (all Passed)
        # A (max Captures) counts the removals of each move (`captures_of`): every removal
        # statement ticks `sc[NREM]` (`_counted_removals`)
        self.counts_removals = False
        # (last Between): a rule reads it (`reads_last_between`), the hops' generators note
        # the sites they jumped (`notes_between`): the kernels keep them (`sc[LBN]`, `sc[LBS]`)
        self.reads_last_between = False
        self.notes_between = False
        self.remembered: dict = {}             # a list of remembered values' name -> index
        self.remembered_order = False          # the kernels keep the order they were remembered
        # Emitting an enemy's moves while a threat is looked for (`reach_kernel`): a move
        # pushed answers whether it ends on `threat_site`, and the rules that Ludii's
        # autoFail flag decides say so (`(is Threatened)` is false).
        self.threat_probe = False
        self.reaching = False                  # pushing a move tests its `to` (see above)
        self.reach_kernels: dict[tuple, str] = {}
        # While another player's moves are emitted as theirs (`(forEach Piece <role>)`): the
        # names of the locals holding the real mover, next and previous players, which the
        # tests of `(do ... ifAfterwards:)` restore after the move's actions (as the
        # reference tests a move once that player's turn is over).
        self.real_roles: str | None = None
        # Every site counts (FlatSites.count_from = 0) in a game with counted pieces.
        self.counting = bool(getattr(game, "counting", False))
        # A rule reads (last To afterConsequence:True): every action with a site notes it
        # (`counted_actions`).
        # the notes made before each action (`counted_actions`): its destination as the
        # last one after the consequents, and among the sites the move went to
        self.reads_after = bool(getattr(game, "reads_after", False)
                                or getattr(game, "reads_last_tos", False))
        # Inside `(forEach Die ...)`: the local holding `(pips)` is bound, and every move
        # pushed carries `move_tag` as its extra (which die it uses, `ludemes.dice`).
        # A die's tag is packed with the move's own extra (`move_tag_packed`, `TAGGED`);
        # the other tags ((forEach Value ...)'s value, (do ...)'s destination) are the
        # extra itself, a move keeping one of its own refused there.
        self.pips_bound = False
        self.move_tag: str | None = None
        self.move_tag_packed = False
        self.fresh_names = 0                   # locals named so far (`fresh_name`)
        # Lines `step` runs when a pass is applied to a mover not stalemated, where the
        # reference generates the phase's moves again (a roll draws from the chance stream).
        self.pass_draws: list[str] = []
        # (effect lines, action codes) every move generated now carries before its own
        # actions (`(do <moves> next:<moves>)`: the first moves' actions), or None.
        self.effect_prefix: tuple | None = None
        # The position the moves are generated in lacks the actions of `effect_prefix` (a
        # (do <settings> next:) whose next moves read nothing they write): what scores the
        # moves on it as the reference does after the settings refuses (`ludemes.war`).
        self.prefix_unapplied = False
        # The `(max Moves)` whose moves the kernels rank (`chain_depth`), or None; emitting
        # the phases' moves unranked, as the positions a ranking searches list them
        # (`legal_unranked`).
        self.ranked = None
        self.unranked = False
        self.reads_active = False              # a rule reads who is still active
        # The local holding the reference's (to) where the moves being emitted begin, which
        # a (forEach Direction ...) turns its relative directions from: its own site inside
        # another's; None where (to) is undefined (a phase's moves, a threat's, those of a
        # (can Move ...), as the corpus asks it: in an end rule or a (do ... ifAfterwards:)'s
        # test), as the reference resets it there. The kernels' `to` may hold a site other
        # moves left there.
        self.direction_to: str | None = None
        # Forms written once and called wherever they are met again in the same context
        # (`_memo`): the kernels of (can Move ...) and the tests of (do ... ifAfterwards:),
        # which rules that test moves inside the moves they test would otherwise write
        # again at each depth, twice as many each time.
        self.memo: dict = {}
        self.lud_texts: dict = {}      # id -> (class, text, the ludeme kept alive)
        self.static_memo: dict = {}    # `once`
        self.in_expression = False     # writing a part of an expression (`_expression`)

    # What emitting a form adds to and leaves behind whatever it wrote (not its context):
    # the module's tables, kernels and generators, the counts and names of what was
    # written. Every other attribute is context a form may read, and keys `_memo`.
    _WRITTEN = frozenset((
        "tables", "table_size", "table_lines", "generators", "generator_luds", "variables",
        "test_calls", "siteless_pushes", "helpers", "helper_names", "site_helpers",
        "value_helpers", "generator_kinds", "generator_levels", "generator_tagged",
        "emitted", "reach_kernels", "fresh_names", "pass_draws", "level_loops",
        "remembered", "memo", "lud_texts", "_context", "static_memo",
        "in_expression"))

    # Dicts of the context whose keys decide their values, keyed by their keys (`_memo`):
    # a (then ...)'s kernel's call names the kernel, whose text holds the lines kept for it;
    # written out, they made the keys of a large game's memo as long as its kernels.
    _BY_KEYS = frozenset(("then_bodies",))

    def _memo(self, key: tuple, make: Callable):
        """`make()`, the first time `key` is asked in this context (every attribute but
        those `_WRITTEN`); its result again after, with what it noted for the module's
        checks (`siteless_pushes`, `test_calls`, `pass_draws`) noted again. Objects in the
        context are keyed by identity and kept alive with the entry; ludemes by their class
        and text, so that the copies a (define ...) makes of one text share a form."""
        keep: list = []
        frozen = self._frozen
        context = self.__dict__.get("_context")
        if context is None:
            # the context's plain values and objects, kept until one is set again
            held: list = []
            context = self.__dict__["_context"] = (tuple(
                (name, frozen(v, held)) for name, v in sorted(vars(self).items())
                if name not in self._WRITTEN and not isinstance(v, _HELD_IN_PLACE)), held)
        keep += context[1]
        # (lists and dicts are read each time: they change in place; those `_BY_KEYS` by
        # their keys alone)
        key = (frozen(key, keep), context[0], tuple(
            (name, frozen(tuple(v) if name in self._BY_KEYS else v, keep))
            for name, v in sorted(vars(self).items())
            if name not in self._WRITTEN and isinstance(v, _HELD_IN_PLACE)))
        hit = self.memo.get(key)
        if hit is not None:
            result, siteless, tests, draws, _ = hit
            self.siteless_pushes += siteless
            self.test_calls.update(tests)
            self.pass_draws.extend(draws)
            return result
        before = self.siteless_pushes, set(self.test_calls), len(self.pass_draws)
        result = make()
        self.memo[key] = (result, self.siteless_pushes - before[0],
                          self.test_calls - before[1], self.pass_draws[before[2]:], keep)
        return result

    def once(self, key: tuple, make: Callable):
        """`make()` the first time `key` is asked (ludemes in it by their text, as `_memo`
        keys them), its result again after: for what reads only the board, the equipment
        and the ludemes of the key (a table of each kind's steps, ...), whatever the
        context."""
        keep: list = []
        key = self._frozen(key, keep)
        hit = self.static_memo.get(key)
        if hit is None:
            hit = self.static_memo[key] = (make(), keep)
        return hit[0]

    def __setattr__(self, name, value):
        # a context's value set: its snapshot (`_memo`) taken again
        if name not in self._WRITTEN:
            self.__dict__["_context"] = None
        object.__setattr__(self, name, value)

    def _frozen(self, v, keep: list):
        """A value of the context as a key (see `_memo`), the objects it holds by identity
        (appended to `keep`), ludemes by their class and text."""
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(getattr(v, "node", None), Node) and hasattr(v, "_given"):
            text = self.lud_texts.get(id(v))
            if text is None:
                text = self.lud_texts[id(v)] = (type(v), to_lud(v.node), v)
            return ("lud", *text[:2])
        if isinstance(v, (list, tuple)):
            return (type(v).__name__, *(self._frozen(x, keep) for x in v))
        if isinstance(v, dict):
            return ("dict", *((self._frozen(k, keep), self._frozen(x, keep))
                              for k, x in v.items()))
        keep.append(v)
        return ("id", id(v))

    def ranks_moves(self, lud) -> None:
        """The kernels rank moves by the longest chain of decisions each begins
        (`chain_depth`, `legal_unranked`). The positions searched are copies that start
        with every player active and no rank given, as in a game of one or two players
        before its end; a game with chance rules is refused (its copies would roll dice,
        which no trace records)."""
        if self.game.num_players > 2:
            raise Unsupported(lud, "with more than two players (the players still active "
                                   "are not known where the moves are generated)")
        if self.game.uses_chance:
            raise Unsupported(lud, "in a game with chance rules")
        if self.ranked is None:
            self.ranked = lud

    def pending_values(self, wide: bool = False) -> None:
        """The kernels keep Ludii's pending values (`sc[PENDING + v]`, v a value from 0 to
        the last site, and their number in `sc[PENDN]`), emptied before each move. `wide`:
        a rule makes a value computed by arithmetic pending (a sum of two sites): values up
        to PENDING_SPAN times the sites are kept (past them a playout falls back to the
        reference engine, `rt.KernelFull`)."""
        self.pending = True
        self.pending_wide = self.pending_wide or wide

    def group_block(self) -> None:
        """The kernels keep the group a (forEach Group ...) visits, `(sites)` (`sc[GRPN]`
        sites in increasing order from `sc[GRP]`, `sc[GRPM + s]` whether site s is one of
        them), emptied once the groups are visited."""
        self.grp = True

    def active_players(self) -> str:
        """Where the kernels keep whether each player is still active (`sc[ACTV + p]`, a copy
        of `active` made after each turn's end rules and at its end)."""
        self.reads_active = True
        return "ACTV"

    def remembered_block(self, name) -> str:
        """Where the kernels keep the values remembered under a name (None too): how many,
        then how often each value from 0 to the last site is remembered (`rem_add`), then,
        where a rule reads them in order (`remembered_order`), the values in that order."""
        i = self.remembered.setdefault(name, len(self.remembered))
        return f"(REM + {i} * REM_STRIDE)"

    @property
    def decision_slots(self) -> tuple[str, str, str]:
        """The scalars where each decision notes the level its move reports for its
        destination, which decision it is and whether it is a pass, one after the other
        (`_note_decisions`)."""
        self.decision_read = True
        return tuple(self.variable(("decision", k)) for k in ("level to", "number", "pass"))

    def last_level_to(self) -> str:
        """`(last LevelTo)`: the level the last decision reports for its destination (0 for
        a forced pass, which notes none)."""
        level, decision, _ = self.decision_slots
        return f"({level} if {decision} == sc[NUM_DECISIONS] else 0)"

    def was_pass(self) -> str:
        """`(was Pass)`: the last decision was a pass (a forced pass notes none; none before
        the first decision)."""
        _, decision, passed = self.decision_slots
        return (f"(sc[NUM_DECISIONS] > 0 and ({passed} == 1 if {decision} == sc[NUM_DECISIONS] "
                f"else True))")

    def variable(self, name) -> str:
        """The scalar that holds a `(var ...)` (by name, or the unnamed one)."""
        i = self.variables.setdefault(name, len(self.variables))
        return f"sc[VARS + {i}]"

    def table(self, values, dtype: str = "int64") -> str:
        """A module-level numpy array holding `values` (nested lists become 2-D/3-D)."""
        arr = np.asarray(values, dtype=dtype)
        key = (dtype, arr.shape, arr.tobytes())
        name = self.tables.get(key)
        if name is None:
            self.table_size += arr.size
            if self.table_size > MAX_TABLE_ELEMENTS:
                # The corpus's largest kernels hold a few tens of thousands; numba would
                # need gigabytes to compile a module of tens of megabytes.
                raise Unsupported(None, f"a board this large (its tables would hold more than "
                                        f"{MAX_TABLE_ELEMENTS:,} numbers)")
            name = self.tables[key] = f"T{len(self.tables)}"
            self.table_lines.append(f"{name} = {_table_text(arr, dtype)}")
        return name

    def probe(self) -> "_Probe":
        """A context for evaluating, now, rules that read only the mover (see `_Probe`)."""
        return _Probe(self.game.num_players)

    def per_mover(self, f) -> list:
        """A closure that reads nothing but the mover, evaluated now for each mover (index:
        the mover, 0 included)."""
        probe = self.probe()
        per = []
        for p in range(self.game.num_players + 1):
            probe.s.mover = p
            per.append(f(probe))
        return per

    def per_kind(self, f, every_kind: bool = True) -> list:
        """`f(probe, site)` for each board site, evaluated now with a piece of each kind on
        every site in turn (index: the kind, 0, no piece, included), or, without
        `every_kind`, with the sites empty only: what a rule that reads only the piece on a
        site (its facing, as relative directions do) gives there."""
        probe = self.probe()
        n = self.env.num_board_sites
        kinds = len(self.game.components) if every_kind else 1
        if every_kind and self.rotations:
            return self._per_kind_rotated(f, probe, kinds, n)
        per = []
        for w in range(kinds):
            probe.fill(w, n)
            per.append([f(probe, s) for s in range(n)])
        return per

    def _per_kind_rotated(self, f, probe, kinds: int, n: int) -> list:
        """`per_kind` in a game whose pieces turn: per kind and rotation of the piece on the
        site (index: rotation * kinds + kind, `kind_at`), the rotations those of the
        board's states. A rotation past them turns the piece as its remainder does only
        where every kind's turns come round after the states: refused otherwise."""
        turned = [0]
        probe.s.piece_rotation = lambda site, level=-1: turned[0]
        per = []
        for r in range(self.rotations + 1):
            turned[0] = r
            for w in range(kinds):
                probe.fill(w, n)
                per.append([f(probe, s) for s in range(n)])
        if repr(per[-kinds:]) != repr(per[:kinds]):
            raise Unsupported(None, "directions relative to a piece that do not come round "
                                    "after the board's rotation states")
        return per[:-kinds]

    @property
    def kind_rows(self) -> int:
        """The rows of a table `per_kind` makes: one per kind of piece, and per rotation in
        a game whose pieces turn (`kind_at`)."""
        return len(self.game.components) * max(self.rotations, 1)

    def kind_at(self, site: str) -> str:
        """The index of the piece at a board site in the tables `per_kind` makes: its kind,
        in a game whose pieces turn with its rotation (below 0 read as 0, as the reference
        turns a piece no step for it; past the states as its remainder, `per_kind`)."""
        if not self.rotations:
            return f"what[{site}]"
        return (f"(what[{site}] + {len(self.game.components)} * "
                f"(max({self.piece_rotation(site)}, 0) % {self.rotations}))")

    def kind_slots(self, per_kind: list) -> tuple[list, str]:
        """What `per_kind` gives for each kind, once for the kinds that get the same (most
        kinds share a facing): (the distinct values, the name of a table of each kind's
        index among them), so that a table per kind holds each value once."""
        distinct: list = []
        slots = []
        for v in per_kind:
            # (compared, not written out: the kinds that face alike hold the same lists)
            i = next((i for i, d in enumerate(distinct) if d == v), len(distinct))
            if i == len(distinct):
                distinct.append(v)
            slots.append(i)
        return distinct, self.table(slots)

    def by_mover(self, f) -> str:
        """An integer closure that reads nothing but the mover, as an expression: a
        constant, or a table indexed by `mover`."""
        per = self.per_mover(f)
        return str(per[1]) if len(set(per[1:])) == 1 else f"{self.table(per)}[mover]"

    def sites_by_mover(self, f) -> tuple[list, bool]:
        """A region closure that reads nothing but the mover, listed now: (its sites, False)
        when every mover gets the same, else (the sites per mover, True)."""
        per = [list(sites) for sites in self.per_mover(f)]
        return (per[1], False) if all(x == per[1] for x in per[1:]) else (per, True)

    @staticmethod
    def padded(rows) -> tuple[np.ndarray, np.ndarray]:
        """Ragged rows as one array padded with -1, and their lengths (see `_padded`)."""
        return _padded(rows)

    @staticmethod
    def context(local: tuple = ("frm", "to", "btw")) -> str:
        """A helper kernel's first lines (see `context`)."""
        return context(local)

    # -- dispatch to the ludemes' emitters ------------------------------------------------
    # An expression is written once per text and context (`_memo`): rules that repeat one
    # (a (define ...) used in every piece's moves, in tests of those moves, ...) call it
    # where it is met again.
    # (A ludeme of literals alone is written again: it costs less than its key; so is a
    # part of an expression being written, the whole expression being keyed.)
    def int_expr(self, lud) -> str:
        return self._expression("int", lud)

    def bool_expr(self, lud) -> str:
        return self._expression("bool", lud)

    def _expression(self, kind: str, lud) -> str:
        if self.in_expression or not _holds_ludemes(lud):
            return emit(kind, self, lud)

        def make():
            self.__dict__["in_expression"] = True
            try:
                return emit(kind, self, lud)
            finally:
                self.__dict__["in_expression"] = False
        return self._memo((kind, lud), make)

    def moves(self, lud, out: list[str], ind: str) -> None:
        """Lines that append the moves of `lud` to the buffers (mf, mt, mg; k)."""
        saved, self.in_then = self.in_then, False      # generated, even inside a consequent
        inside, self.__dict__["in_expression"] = self.in_expression, False
        try:
            emit("moves", self, lud, out, ind)
        finally:
            self.in_then = saved
            self.__dict__["in_expression"] = inside

    def consequent(self, lud, lines: list[str], ind: str) -> None:
        emit("consequent", self, lud, lines, ind)

    def effect_body(self, eff, body: list[str]) -> None:
        """An effect's writes, made when the move is applied (the state is the one it was
        generated in, so they are those the reference engine records at generation)."""
        emit("effect", self, eff, body)

    def end_rule(self, lud, out: list[str], ind: str = "    ") -> None:
        emit("end", self, lud, out, ind)

    def holds(self, kind: str, lud) -> bool:
        """A property a ludeme's class declares (an emitter of this kind); False without."""
        return lookup(kind, lud) is not None and emit(kind, self, lud)

    # -- roles ---------------------------------------------------------------------
    def role_expr(self, role: str, lud) -> str:
        """A player id expression for a role word."""
        n = self.game.num_players
        if role == "Mover":
            return "mover"
        if role == "Next" and n == 2:
            return "nxt"
        if role == "Prev":
            return "prev"
        if role == "Player":            # (player) of forEach Player/NonMover, not a probe's
            # outside those loops the reference's context holds no player (UNDEFINED, -1:
            # each loop puts back the one it found)
            return "player" if self.player_bound else "-1"
        if role[:4] == "Team" and role[4:].isdigit():
            return str(int(role[4:]))           # as Ludii's Id (`Roles.id_fn`): N
        if role in ("Next", "Prev", "Mover") or "Team" in role:
            raise Unsupported(lud, f"with the role {role}")
        if self.names_several(role):
            if role in ("Enemy", "NonMover") and n == 2 and not self.env.teams:
                return "nxt"                    # the one other player
            raise Unsupported(lud, f"with the role {role}, which names several players")
        f = self.env.role_id(role, lud)
        probe = self.probe()
        ids = set()
        for p in range(1, n + 1):
            probe.s.mover = p
            ids.add(f(probe))
        if len(ids) != 1:
            raise Unsupported(lud, f"with the role {role}")
        return str(ids.pop())

    @staticmethod
    def names_several(role: str) -> bool:
        """The role names a set of players (All, which `role_expr` reads as one owner, aside):
        `owner_test` tests membership, `role_expr` has one player only for Enemy of two."""
        return (role in _OWNER_SETS and role != "All") or role in _TEAM_SETS or \
            (role[:4] == "Team" and role[4:].isdigit())

    @staticmethod
    def owner_role(role: str) -> bool:
        """`owner_test` takes the role: a set of players, or one player by a word or Pn."""
        return role in _OWNER_SETS or role in _TEAM_SETS or \
            role in ("Mover", "Next", "Prev", "Player") or \
            (role[:1] == "P" and role[1:].isdigit()) or (role[:4] == "Team" and role[4:].isdigit())

    def owner_test(self, role: str, lud, who: str) -> str:
        """A test that the player id `who` is one `role` covers now: one player's id, or
        the set a role such as Enemy names (no teams compile)."""
        teams = self.env.teams
        if role[:4] == "Team" and role[4:].isdigit():
            # Ludii's PlayersTeam: the team's players, or without teams, that player
            if teams:
                return f"(0 < {who} <= NP and TEAM[{who}] == {int(role[4:])})"
            return f"({who} == {int(role[4:])} and 0 < {who} <= NP)"
        if teams and (role in _TEAM_SETS or role == "Enemy"):
            # the players of the mover's team (the team-less if it has none), or the others
            op = "!=" if role == "Enemy" else "=="
            return f"(0 < {who} <= NP and TEAM[{who}] {op} TEAM[mover])"
        if role in _TEAM_SETS:
            return f"({who} == mover)"
        if role in _OWNER_SETS:
            return "(" + _OWNER_SETS[role].format(s=who) + ")"
        return f"{who} == {self.player_expr(role, lud)}"

    def player_expr(self, role: str, lud) -> str:
        """One player's id for a role, `(player)` of forEach Player/NonMover included."""
        return self.role_expr(role, lud)

    # -- helper kernels ---------------------------------------------------------------
    def helper(self, make) -> str:
        """A new helper kernel's name; `make(name)` gives its source (helpers may nest, and
        one source made twice is one kernel)."""
        key = self.handed_site(make("HELPER"))
        if _READS_PLAYER.search(_COMMENT.sub("", key)) and not _TAKES_PLAYER.search(key):
            # `(player)` is a local of the kernel forEach Player/NonMover loops in: a helper
            # not handed it would fail when run
            raise Unsupported(None, "(player) inside a helper kernel not given it")
        if reads_level_unbound(key):
            raise Unsupported(None, "(level) inside a helper kernel not given it")
        name = self.helper_names.get(key)
        if name is None:
            name = self.helper_names[key] = f"helper_{len(self.helpers)}"
            if _reads_outer_site(key):
                # `(site)` of a loop around the helper (forEach Site, a region's if:) is a
                # local of the kernel that loops: the helper is handed it, where it is
                # defined and wherever it is called
                self.site_helpers.append(name)
            for local in VALUE_LOCALS:
                # (not a kernel that binds it itself: a (forEach Value ...) inside it)
                if re.search(rf"\b{local}\b", key) and not re.search(
                        rf"def HELPER\([^)]*\b{local}\b", key) and \
                        _reads_outer_site(key, local):
                    self.value_helpers.setdefault(local, []).append(name)
            self.helpers.append(make(name))
        return name

    def handed_site(self, source: str) -> str:
        """`source` with the helpers that read `(site)` of a loop around them taking it,
        first, and those that read a (forEach Value ...)'s local taking it next, where they
        are defined and called (a call inside another helper makes that one read it too).
        Helpers are kept unhanded and the module is handed over once (`_generate`)."""
        for local, names in reversed(self.value_helpers.items()):
            calls = re.compile(r"\b(" + "|".join(names) + r")\(")
            source = calls.sub(rf"\1({local}, ", source)
        if not self.site_helpers:
            return source
        calls = re.compile(r"\b(" + "|".join(self.site_helpers) + r")\(")
        return calls.sub(r"\1(site, ", source)

    def reads_value_local(self, line: str, local: str) -> bool:
        """Whether a line reads a (forEach Value ...)'s local, itself or by a helper handed
        it."""
        names = self.value_helpers.get(local, ())
        return bool(re.search(rf"\b{local}\b", line) or names and re.search(
            r"\b(" + "|".join(names) + r")\(", line))

    def context_kernel(self, body: list[str]) -> str:
        """A call of a helper kernel, given the evaluation context (and `(player)` where
        forEach Player/NonMover binds it), whose lines are `body` (indent 4, returning)."""
        bound = ", player" if self.player_bound else ""

        # (site) of a loop around it, read before its own loop binds `site`: `helper`
        # hands it over (`handed_site`)
        def make(name):
            return "\n".join(["@njit(cache=True)",
                              f"def {name}(who, what, count, sc, phase, frm, to{bound}):",
                              self.context(local=("btw",)), *body, ""])
        return f"{self.helper(make)}(who, what, count, sc, phase, frm, to{bound})"

    def any_move_kernel(self, moves) -> str:
        """A call of a kernel that says whether `moves` has a move (stops at the first)."""
        return self._first_kernel(moves, "can_move", first=False)

    def first_move_kernel(self, moves, buffer: str) -> str:
        """A call of a kernel that finds the first move of `moves` (stops there): True when
        there is one, its from and to then written in `buffer` (an array of two the caller
        holds). Every move found goes through its `push`: the tests of moves pushed
        (`push_tests`) are the caller's, not the moves'."""
        return self._first_kernel(moves, "first_move", first=True, buffer=buffer)

    def _first_kernel(self, moves, prefix: str, first: bool, buffer: str = "") -> str:
        return self._memo(("first", moves, prefix, first, buffer),
                          lambda: self._new_first_kernel(moves, prefix, first, buffer))

    def _new_first_kernel(self, moves, prefix: str, first: bool, buffer: str) -> str:
        index = len(self.helpers)
        name = f"{prefix}_{index}"
        self.helpers.append("")                 # reserve the name (helpers may nest)
        # The moves asked for are the rule's own: the (then ...)s of the moves around the
        # rule are not theirs (and may ask the same again, without end).
        saved = (self.any_mode, self.first_mode, self.reaching, self.outer_thens, self.push_tests,
                 self.direction_to, self.test_position)
        self.any_mode, self.first_mode, self.reaching, self.outer_thens = True, first, False, []
        self.direction_to = None        # (to) taken as undefined (see `direction_to`)
        self.test_position = None       # the tests start from the kernel's own position
        if first:
            self.push_tests = []
        body: list[str] = []
        try:
            self.moves(moves, body, "    ")
        finally:
            (self.any_mode, self.first_mode, self.reaching, self.outer_thens,
             self.push_tests, self.direction_to, self.test_position) = saved
        args = "who, what, count, sc, phase, frm, to"
        given = ", fm" if first else ""
        raw = "\n".join(["@njit(cache=True)", f"def {name}({args}{given}):",
                         context(local=("btw",)), *body, "    return False", ""])
        # checked as the module's one pass of `handed_site` will hand it over (`_generate`);
        # kept unhanded, as every helper is, so it is handed over once
        source = self.handed_site(raw)
        if first and _READS_PLAYER.search(_COMMENT.sub("", source)):
            raise Unsupported(None, "(player) inside a helper kernel not given it")
        if reads_level_unbound(source):
            raise Unsupported(None, "(level) inside a helper kernel not given it")
        if _reads_outer_site(source):
            # `(site)` of a loop around the rule ((all Sites ... if:(can Move ...))): the
            # kernel is handed it, as the reference's context carries it
            raw = raw.replace(f"def {name}({args}{given}):",
                              f"def {name}({args}, site{given}):")
            args += ", site"
        self.helpers[index] = raw
        return f"{name}({args}{', ' + buffer if first else ''})"

    def phase_moves(self) -> list:
        """The play moves of each phase, in the phases' order."""
        return [moves for moves, _, _ in _phases(self.game.typed.rules)]

    def reach_kernel(self, moves: list, by_phase: bool) -> str:
        """The name of a kernel (who, what, count, sc, phase, threat_site) -> True when a move
        of the mover (sc[MOVER]) ends on `threat_site`: of `moves`, or, `by_phase`, of
        `moves[phase]` for the mover's phase (Ludii's canMoveTo), emitted as while a
        threat is looked for (`threat_probe`). The moves are counted, not kept."""
        # (a (no Moves Next) inside reads as false while such moves are probed: another
        # kernel)
        key = (tuple(id(m) for m in moves), by_phase, self.no_moves_busy)
        name = self.reach_kernels.get(key)
        if name is not None:
            return name
        index = len(self.helpers)
        name = self.reach_kernels[key] = f"reach_{index}"
        self.helpers.append("")                 # reserve the name (helpers may nest)
        saved = (self.any_mode, self.threat_probe, self.reaching, self.push_tests,
                 self.outer_thens, self.direction_to, self.test_position)
        self.any_mode, self.threat_probe, self.reaching, self.push_tests, self.outer_thens = \
            False, True, True, [], []
        self.direction_to = self.test_position = None
        try:
            blocks = []
            for m in moves:
                lines: list[str] = []
                self.moves(m, lines, "        " if by_phase else "    ")
                blocks.append(lines + ["        pass" if by_phase else "    pass"])
        finally:
            (self.any_mode, self.threat_probe, self.reaching, self.push_tests,
             self.outer_thens, self.direction_to, self.test_position) = saved
        body = _by_phase(blocks) if by_phase else blocks[0]
        self.helpers[index] = "\n".join([
            "@njit(cache=True)",
            f"def {name}(who, what, count, sc, phase, threat_site):",
            context(), "    k = 0", "    ph = phase[mover]", *body, "    return False", ""])
        return name

    def probed_no_moves(self) -> str:
        """`(no Moves Next)` met inside the moves a threat is looked in (`reach_kernel`): as
        `no_moves`, the next player's moves generated in their phase, but as the reference
        generates them with the threat's autoFail still on ((is Threatened ...) false there)
        and a `(no Moves Next)` inside them false."""
        saved = (self.any_mode, self.first_mode, self.threat_probe, self.reaching,
                 self.push_tests, self.outer_thens, self.direction_to, self.no_moves_busy)
        self.any_mode = self.threat_probe = self.no_moves_busy = True
        self.first_mode = self.reaching = False
        self.push_tests, self.outer_thens, self.direction_to = [], [], None
        try:
            blocks = []
            for m in self.phase_moves():
                lines: list[str] = []
                self.moves(m, lines, "        ")
                blocks.append(lines + ["        pass"])
        finally:
            (self.any_mode, self.first_mode, self.threat_probe, self.reaching,
             self.push_tests, self.outer_thens, self.direction_to, self.no_moves_busy) = saved
        found = self.helper(lambda name: "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase):", context(),
            "    site = -1", "    ph = phase[mover]", *_by_phase(blocks), "    return False",
            ""]))
        wrapper = self.helper(lambda name: "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, p):",
            "    pv, mv, nx = sc[PREV], sc[MOVER], sc[NEXT]",
            "    sc[PREV], sc[MOVER], sc[NEXT] = mv, p, p % NP + 1",
            f"    found = {found}(who, what, count, sc, phase)",
            "    sc[PREV], sc[MOVER], sc[NEXT] = pv, mv, nx",
            "    sc[STALE + p] = 0 if found else 1",
            "    return not found", ""]))
        return f"{wrapper}(who, what, count, sc, phase, sc[NEXT])"

    # -- counts -----------------------------------------------------------------------
    def count_in(self, lud, region, per_site: str, distinct: bool,
                 context_free: bool = True) -> str:
        """A sum of `per_site` over a region's sites (a set, as Ludii's count Sites reads it,
        unless `distinct`: then as listed). `per_site` reads `who`, `what`, `count` at `site`,
        and, unless `context_free`, the evaluation context (the mover, `(from)`, ...)."""
        try:
            if not context_free:
                raise Unsupported(lud, "per site reading the context")
            loop, flt = self.from_region(region, dedupe=not distinct)
        except Unsupported:
            if not (self.is_static_region(region) or lookup("for_region", region)
                    or lookup("sites", region) or lookup("static_sites", region)):
                raise
            return self._count_by_loop(region, per_site, distinct)
        body = [f"            if {flt}:" if flt else "            if True:",
                f"                total += {per_site}"]

        def make(name):
            return "\n".join(["@njit(cache=True)", f"def {name}(who, what, count, frm):",
                              "    total = 0", *loop, *body, "    return total", ""])
        return f"{self.helper(make)}(who, what, count, frm)"

    def count_all(self, per_site: str, over: str = "range(STORE)") -> str:
        """A sum of `per_site` (as in `count_in`) over every site of every container and of
        the board's layers of other site types (`Game.layers`), or the places `over`."""
        return self._count_by_loop(None, per_site, True, over)

    def _count_by_loop(self, region, per_site: str, distinct: bool,
                       over: str = "range(STORE)") -> str:
        """`count_in` over a region that reads the position: a helper kernel given the whole
        evaluation context runs the region's own loop (each site once unless `distinct`);
        without a region, over the places `over`."""
        body = [f"total += {per_site}"] if distinct else \
            ["if not counted[site]:", "    counted[site] = True", f"    total += {per_site}"]
        start = ["    total = 0", *([] if distinct else ["    counted = np.zeros(MARKS, np.bool_)"])]
        return self._loop_kernel(region, start, body, "total", over=over)

    def listed_by_loop(self, region, once: bool = False, less=None) -> str:
        """The sites of a region that reads the position, as its own loop lists them (an
        array made by a helper kernel given the whole evaluation context). `region` may be
        a list of regions, listed in turn; `once`: each board site listed once only, where
        it first comes; `less`: a region whose sites are left out, listed first, in the
        same context (as a difference reads both regions before it is taken)."""
        keep = ["if n == buf.shape[0]:", "    buf = np.concatenate((buf, buf))",
                "buf[n] = site", "n += 1"]
        start = ["    buf = np.empty(MARKS, np.int64)", "    n = 0"]
        if once:
            start.append("    listed = np.zeros(MARKS, np.bool_)")
            keep = ["if not (0 <= site < MARKS and listed[site]):",
                    "    if 0 <= site < MARKS:", "        listed[site] = True",
                    *("    " + x for x in keep)]
        if less is not None:
            # the sites left out, marked (a site past the last: in the list `past`)
            start += ["    dropped = np.zeros(MARKS, np.bool_)",
                      "    past = np.empty(0, np.int64)"]
            keep = ["if not (site < MARKS and dropped[site] or site >= MARKS and "
                    "(past == site).any()):", *("    " + x for x in keep)]
            less = (less, ["if 0 <= site < MARKS:", "    dropped[site] = True",
                           "elif site >= MARKS:",
                           "    past = np.append(past, np.int64(site))"])
        return self._loop_kernel(region, start, keep, "buf[:n]", less)

    def _loop_kernel(self, region, start: list[str], body: list[str], result: str,
                     before=None, over: str = "range(TOTAL)") -> str:
        """A call of a helper kernel, given the whole evaluation context, that runs `body` at
        each site of the region's own loop (of the places `over` when `region` is None);
        `before`: (another region, the body run at each of its sites first)."""
        saved, self.between = self.between, "btw"
        try:
            loop: list[str] = []
            if before is not None:
                self.for_region(before[0], loop, "    ", before[1])
            if region is None:
                loop += [f"    for site in {over}:", *("        " + x for x in body)]
            else:
                for part in (region if isinstance(region, list) else [region]):
                    self.for_region(part, loop, "    ", body)
        finally:
            self.between = saved
        bound = ", player" if self.player_bound else ""

        # a region around `(site)` of a loop around it (`(sites Around (site))`) reads it
        # before its own loop binds `site`: `helper` hands it over (`handed_site`)
        def make(name):
            return "\n".join(["@njit(cache=True)",
                              f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}):",
                              context(local=()), *start, *loop, f"    return {result}", ""])
        return (f"{self.helper(make)}(who, what, count, sc, phase, frm, to, "
                f"{self.between}{bound})")

    def reads_only_from(self, lud) -> bool:
        """True for a tree that reads nothing but `(from)` and the board's geometry (each
        ludeme's `from_only` emitter says; `emit.reads_params_only_from` recurses)."""
        if lud is None or isinstance(lud, (str, bool, int, float)):
            return True
        if isinstance(lud, (list, tuple)):
            return all(self.reads_only_from(x) for x in lud)
        return self.holds("from_only", lud)

    def from_region(self, lud, dedupe: bool) -> tuple[list[str], str | None]:
        """Loop lines over a region's sites (as `site`, at indent 8) that depend on `(from)`
        only, or those less the empty sites; a filter on `site` or None."""
        flt = None
        split = emit("filtered", self, lud) if lookup("filtered", lud) else None
        if split is not None:
            lud, flt = split
        if not self.reads_only_from(lud):
            raise Unsupported(lud, "as a region to count")
        n = self.env.num_board_sites
        if self.is_static_region(lud):       # the same sites whatever (from) is, or none
            sites = list(self.env.compile(lud)(self.probe()))
            if any(not 0 <= x < n for x in sites):
                raise Unsupported(lud, "off the board")
            sites = list(dict.fromkeys(sites)) if dedupe else sites
            return ["    if True:",
                    f"        for j in range({len(sites)}):",
                    f"            site = {self.table(sites) if sites else 'np.zeros(1, np.int64)'}"
                    "[j]"], flt
        t_sites, t_len = self.sites_by_from(lud, dedupe)
        return [f"    if 0 <= frm < {n}:",
                f"        for j in range({t_len}[frm]):",
                f"            site = {t_sites}[frm, j]"], flt

    def sites_by_from(self, lud, dedupe: bool = False) -> tuple[str, str]:
        """The tables (sites, their number) of a region that reads only `(from)`, per board
        site `(from)` can be, as the reference lists them (each site once if `dedupe`)."""
        n = self.env.num_board_sites
        f = self.env.compile(lud)
        probe = self.probe()
        per = []
        for frm in range(n):
            probe.from_ = frm
            sites = [x for x in f(probe)]
            if any(not 0 <= x < n for x in sites):
                raise Unsupported(lud, "off the board")
            per.append(list(dict.fromkeys(sites)) if dedupe else sites)
        t_sites, t_len = (self.table(a) for a in _padded(per))
        return t_sites, t_len

    # -- regions ------------------------------------------------------------------------
    def region_contains(self, lud, site: str) -> str:
        """A membership test of `site` in a region."""
        if lookup("contains", lud):
            return emit("contains", self, lud, site)
        return self.static_contains(lud, site)

    def static_contains(self, lud, site: str) -> str:
        """A membership test of `site` in a region listed now (once, or per mover)."""
        mask, by_player = self.static_region(lud)
        row = f"mover, {site}" if by_player else site
        return f"(0 <= {site} < {mask.shape[-1]} and {self.table(mask, 'bool_')}[{row}])"

    def fresh_name(self, prefix: str) -> str:
        """A local's name no other emitter's lines use (lines that may nest keep their own)."""
        self.fresh_names += 1
        return f"{prefix}_n{self.fresh_names}"

    def region_sites(self, lud) -> tuple[str, object]:
        """(a sequence expression to iterate, a filter or None): the filter, given the name
        of the variable holding a site, is the test on it."""
        if lookup("sites", lud):
            return emit("sites", self, lud)
        if lookup("for_region", lud) and not self.is_static_region(lud) \
                and not self.reads_only_from(lud):
            return self.listed_by_loop(lud), None
        return self.listed_sites(lud)

    def listed_sites(self, lud) -> tuple[str, None]:
        """`region_sites` of a region that reads nothing of the state but `(from)` and the
        mover: a table, its row per `(from)` or per mover."""
        if not self.is_static_region(lud) and self.reads_only_from(lud):
            t_sites, t_len = self.sites_by_from(lud)
            return (f"({t_sites}[frm, :{t_len}[frm]] if 0 <= frm < {self.env.num_board_sites}"
                    f" else {t_sites}[0, :0])"), None
        sites, by_player = self.static_sites(lud)
        if by_player:           # the mover's row of a table, as listed
            t_sites, t_len = self.row_tables(sites)
            return f"{t_sites}[mover, :{t_len}[mover]]", None
        return (self.table(sites) if sites else "range(0)"), None

    def static_sites(self, lud):
        """The sites of a region that depends on nothing (or only on the mover): (sites,
        False), or (the sites per mover, True)."""
        return emit("static_sites", self, lud)

    def static_region(self, lud):
        """A mask of a region listed now (once, or a row per mover), over every site and
        any larger number the region lists (a literal `(sites {...})` may name sites past
        the last: only a site of that number is in it)."""
        sites, by_player = self.static_sites(lud)
        mask = self.site_masks(sites if by_player else [sites])
        return (mask, True) if by_player else (mask[0], False)

    def site_masks(self, rows):
        """A mask per row of sites, over every site and any larger number a row lists."""
        rows = [[s for s in ss if s >= 0] for ss in rows]
        width = max([self.env.total_sites] + [s + 1 for ss in rows for s in ss])
        mask = np.zeros((max(1, len(rows)), width), dtype=bool)
        for p, ss in enumerate(rows):
            mask[p, ss] = True
        return mask

    def is_static_region(self, lud) -> bool:
        """True for regions that read nothing of the state (their sites can be listed now)."""
        return self.holds("static", lud)

    def for_region(self, lud, out, ind, body: list[str]) -> None:
        """A loop over a region's sites (as `site`), in the reference engine's order."""
        if self.is_static_region(lud):
            sites = list(self.env.compile(lud)(self.probe()))
            if not sites:
                return
            out.append(f"{ind}for site in {self.table(sites)}:")
            out.extend(f"{ind}    {x}" for x in body)
        elif not lookup("for_region", lud) and lookup("sites", lud):
            seq, flt = self.region_sites(lud)
            out.append(f"{ind}for site in {seq}:")
            if flt is not None:
                body = [f"if {flt('site')}:", *("    " + x for x in body)]
            out.extend(f"{ind}    {x}" for x in body)
        elif not lookup("for_region", lud) and lookup("static_sites", lud) \
                and (per_mover := self._listed_per_mover(lud)) is not None:
            t_sites, t_len = per_mover
            out.append(f"{ind}for jr in range({t_len}[mover]):")
            out.append(f"{ind}    site = {t_sites}[mover, jr]")
            out.extend(f"{ind}    {x}" for x in body)
        elif not lookup("for_region", lud) and self.reads_only_from(lud):
            self.for_region_by_from(lud, out, ind, body)
        else:
            emit("for_region", self, lud, out, ind, body)

    def for_region_by_from(self, lud, out, ind, body: list[str]) -> None:
        """A loop over a region that reads nothing but `(from)` and the board: its row of a
        table per `(from)`."""
        t_sites, t_len = self.sites_by_from(lud)
        out.append(f"{ind}if 0 <= frm < {self.env.num_board_sites}:")
        out.append(f"{ind}    for jr in range({t_len}[frm]):")
        out.append(f"{ind}        site = {t_sites}[frm, jr]")
        out.extend(f"{ind}        {x}" for x in body)

    def _listed_per_mover(self, lud):
        """The tables (sites, their number) per mover of a region listed now, one list per
        mover (`static_sites`), or None when it is not such a region."""
        try:
            sites, by_player = self.static_sites(lud)
        except Unsupported:
            return None
        return self.row_tables(sites) if by_player else None

    def row_tables(self, sites) -> tuple[str, str]:
        """The tables (sites, their number) of ragged rows of sites: a region listed per mover,
        or per site."""
        t_sites, t_len = (self.table(a) for a in _padded([list(ss) for ss in sites]))
        return t_sites, t_len

    # -- moves ------------------------------------------------------------------------
    def new_generator(self, effect_lines: list[str], is_pass: bool = False, lud=None,
                      kind: int | tuple = A_MOVE, levels: int | None = None) -> int:
        """A move generator's id; its effects and its consequents (`then`) at apply time.
        `kind`: the engine's code of its main action (A_ADD, A_REMOVE, A_MOVE, A_PASS), or
        the codes of its actions. `levels`: in a stacking game, the levels its moves report
        (an `LV_*` rule, as the reference's ludeme sets them); a ludeme's generator that
        does not say is refused there."""
        if levels is None:
            if self.game.stacking and lud is not None and not is_pass:
                raise Unsupported(lud, "in a stacking game")
            levels = LV_NONE
        packed = self.move_tag is not None and self.move_tag_packed and not is_pass
        with self.binding_level(None):      # applied after the move: no loop around
            then = self.then_lines(lud) if lud is not None else []
        if reads_level_unbound("\n".join(effect_lines)) or reads_level_unbound("\n".join(then)):
            # applied by `effects`, `consequents`: no loop binds (level) there
            raise Unsupported(lud, "reading (level) when its move is applied")
        if _reads_outer_site("\n".join(["def effect():", *("    " + x for x in effect_lines),
                                         "    pass"])):
            # `(site)` of a loop where the move was made: `effects` has no such loop
            raise Unsupported(lud, "reading (site) when its move is applied")
        if _READS_PENDING.search("\n".join(effect_lines)):
            # The reference (as Ludii) makes a move's effects when it makes the move, where the
            # pending values are those of the position; `step` empties them before `effects`,
            # keeping them as they were (`sc[PWAS]`, `pending_was`), which the effect reads.
            effect_lines = [_as_pending_was(x) for x in effect_lines]
            self.reads_pending_was = True
        if _READS_PENDING.search(self.with_helpers(effect_lines)):
            raise Unsupported(lud, "whose effect reads the pending values by a helper kernel "
                                   "(they are emptied before a move's effects are applied)")
        if self.effect_prefix and not is_pass:     # actions made before, carried first
            lines, codes = self.effect_prefix
            effect_lines = lines + effect_lines
            kind = tuple(codes) + (kind if isinstance(kind, tuple) else (kind,))
        if packed:
            # its moves' extra keeps a die's tag too (`push`): `xdie_` the tag, `x` its own
            effect_lines = ["xdie_ = x % TAGGED", "x = x // TAGGED - 1"] + effect_lines
        # (each list of the generators grows here only, once nothing can be refused: a
        # refusal caught by a caller trying another form leaves them in step)
        self.generator_levels.append(levels)
        self.generator_tagged.append(packed)
        self.generators.append((effect_lines, is_pass, then))
        self.generator_kinds.append(A_PASS if is_pass else kind)
        self.generator_luds.append(lud)
        return len(self.generators) - 1

    def push(self, out: list[str], ind: str, frm: str, to: str, g: int, x: str = "-1") -> None:
        """Append a move to the buffers, or, in any-mode, report that there is one; a move
        the `push_tests` refuse is left out."""
        if frm == "-1" and to == "-1":
            self.siteless_pushes += 1
        if self.move_tag is not None and self.move_tag_packed:
            # the die's tag and the move's own extra (`TAGGED`)
            x = self.move_tag if x == "-1" else f"({self.move_tag} + {TAGGED} * ({x} + 1))"
        elif self.move_tag is not None:
            if x not in ("-1", self.move_tag):
                raise Unsupported(self.generator_luds[g], "keeping a value of its own inside "
                                                          "(forEach Value) or (do ...)")
            x = self.move_tag
        tests = [test(frm, to, g, x) for test in self.push_tests]
        self.test_calls.update(tests)
        if tests:
            out.append(f"{ind}if {' and '.join(tests)}:")
            ind += "    "
        if self.reaching:
            # counted, so that (priority ...) and noMoveYet: see the moves made
            out.append(f"{ind}if {to} == threat_site:")
            out.append(f"{ind}    return True")
            out.append(f"{ind}k += 1")
        elif self.first_mode:
            out.append(f"{ind}fm[0], fm[1] = {frm}, {to}")
            out.append(f"{ind}return True")
        elif self.any_mode:
            out.append(f"{ind}return True")
        else:
            out.append(f"{ind}k = push(mf, mt, mg, mx, k, {frm}, {to}, {g}, {x})")

    def then_lines(self, lud, outer: list | None = None) -> list[str]:
        """A move's consequents, applied after its actions with (from)/(to) undefined: its
        own (then ...), then those of the moves that enclose it (`enclosing_then`, or the
        `outer` given, outermost first)."""
        own = lud.__dict__.get("_fields", {}).get("then")
        outer = self.outer_thens if outer is None else outer
        thens = ([own] if own is not None else []) + outer[::-1]
        if not thens:
            return []
        lines = ["frm = -1", "to = -1"]
        # the tests of the moves pushed around the move are not those of the moves its
        # consequents look for ((can Move ...)): the reference looks for them plainly
        saved, self.push_tests = self.push_tests, []
        try:
            for i, then in enumerate(thens):
                if i:   # the next player as an earlier consequent left it ((moveAgain), ...)
                    lines.append("nxt = sc[NEXT]")
                emit("then", self, then, lines)
        finally:
            self.push_tests = saved
        return lines

    @contextmanager
    def binding_level(self, var: str | None):
        """While the lines emitted read the local `var` as `(level)` (a loop around them
        binds it; None: no loop does)."""
        saved = self.level_var
        self.level_var = var
        try:
            yield
        finally:
            self.level_var = saved

    def level_loop_var(self) -> str:
        """A new local for the `(level)` of a loop over levels."""
        self.level_loops += 1
        return f"lvl_{self.level_loops}"

    @contextmanager
    def enclosing_then(self, lud):
        """While the moves inside `lud` are emitted, each generated move takes `lud`'s
        (then ...) after its own (the reference's `m.then + then`)."""
        then = lud.__dict__.get("_fields", {}).get("then")
        if then is not None:
            self.outer_thens.append(then)
        try:
            yield
        finally:
            if then is not None:
                self.outer_thens.pop()

    def holds_after(self, cond, depth: int) -> Callable:
        """A push test (see `push_tests`): `cond` holds once the move is applied to a copy of
        the position, its actions then its consequents (its own (then ...) and those of
        the moves enclosing it, less the `depth` outermost), the move stored as the last
        one, and the mover not moving again (as the reference's `(do ... ifAfterwards:)`).
        One test (the same function) for the same condition in the same context."""
        return self._memo(("after", cond, depth),
                          lambda: self._new_holds_after(cond, depth))

    def _new_holds_after(self, cond, depth: int) -> Callable:
        test = self.bool_expr(cond)

        def at_push(frm: str, to: str, g: int, x: str) -> str:
            then = self.then_lines(self.generator_luds[g], self.outer_thens[depth:])
            roles = self.real_roles

            def make(name):
                return "\n".join([
                    "@njit(cache=True)",
                    f"def {name}(who, what, count, sc, phase, frm, to, x"
                    f"{', rm, rn, rp' if roles else ''}):",
                    "    who, what, count = who.copy(), what.copy(), count.copy()",
                    "    sc, phase = sc.copy(), phase.copy()",
                    "    sc[LAST_TO_AFTER], sc[LAST_FROM_AFTER] = to, frm",
                    f"    effects(who, what, count, sc, phase, frm, to, {g}, x)",
                    *(["    sc[MOVER], sc[NEXT], sc[PREV] = rm, rn, rp"] if roles else []),
                    "    sc[LAST_FROM], sc[LAST_TO], sc[LAST_MOVER] = frm, to, sc[MOVER]",
                    *(["    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]",
                       "    last_from, last_to = frm, to", "    btw = -1"]
                      + ["    " + line for line in then] if then else []),
                    "    if sc[MOVER] == sc[NEXT]:",
                    "        sc[NEXT] = sc[PREV]",
                    context(), f"    return {test}", ""])
            state = self.test_position or "who, what, count, sc"
            return (f"{self.helper(make)}({state}, phase, {frm}, {to}, {x}"
                    f"{', ' + roles if roles else ''})")
        return at_push

    def with_helpers(self, lines: list[str]) -> str:
        """The text of lines and of every helper kernel they call, at any depth."""
        texts = ["\n".join(lines)]
        seen: set = set()
        i = 0
        while i < len(texts):
            for m in _HELPER_CALL.finditer(texts[i]):
                h = int(m.group(1))
                if h not in seen and h < len(self.helpers):
                    seen.add(h)
                    texts.append(self.helpers[h])
            i += 1
        return "\n".join(texts)

    def action_codes(self, lines: list[str]) -> tuple:
        """The engine's codes of the actions that effect lines make (those of the helper
        kernels they call included), in the order first met: the kinds a generator whose
        effect they begin declares (`new_generator`)."""
        codes: dict = {}
        for m in _CODED_ACTION.finditer(self.with_helpers(lines)):
            codes.setdefault(_ACTION_CODES[m.lastgroup], None)
        return tuple(codes)

    def piece_state(self, site: str) -> str:
        """The state of the piece at `site` (an expression to read or assign; the site must
        be one of the kernels' sites). Asking for it in a game generated without piece
        states has `generate` start again with them."""
        if not self.piece_states:
            self.wants_piece_states = True
            raise _NeedsPieceStates()
        return f"sc[STATE + {site}]"

    def piece_value(self, site: str) -> str:
        """The value of the piece at `site` (an expression to read or assign; the site must
        be one of the kernels' sites): kept after the states (`sc[STATE + TOTAL + s]`, `rt`'s
        `_vi`) in a game with piece states and without stacks, only once a rule reads or
        sets one (`piece_values`): the other games keep their states alone."""
        self.piece_state(site)              # (asks for the states, which keep the values)
        self.piece_values = True
        if self.game.stacking:
            # the top level's value, kept after the stacks' states (`rt`'s `_vtop`): read
            # only, the levels' own are set by `set_piece_value`
            return f"sc[STATE + TOTAL * (1 + 2 * DEPTH) + {site}]"
        return f"sc[STATE + TOTAL + {site}]"

    def piece_rotation(self, site: str) -> str:
        """The rotation of the piece at `site` (an expression to read or assign; the site
        must be one of the kernels' sites), kept after the values (`sc[STATE + ROT + s]`,
        `rt`'s `_ri`) in a game whose pieces turn (`rotations`). Refused elsewhere: the
        kernels keep no rotation."""
        if not self.rotations:
            raise Unsupported(None, "a piece's rotation in a game whose pieces never turn")
        self.piece_state(site)              # (asks for the states, which keep the rotations)
        return f"sc[STATE + ROT + {site}]"

    def set_piece_value(self, site: str, value: str) -> str:
        """The statement that sets the value of the piece at `site` (the top piece's, in a
        stacking game, whose levels keep theirs: `rt`'s stack writes)."""
        read = self.piece_value(site)       # (asks for the states and values)
        if self.game.stacking:
            return self.stack_write(f"stack_set_value(who, what, count, {site}, -1, {value})")
        return f"{read} = {value}"

    def set_piece_state(self, site: str, value: str) -> str:
        """The statement that sets the state of the piece at `site` (the top piece's, in a
        stacking game, whose levels keep theirs: `rt`'s stack writes)."""
        if self.game.stacking:
            self.piece_state(site)          # (asks for the states)
            return self.stack_write(f"stack_set_state(who, what, count, {site}, -1, {value})")
        return f"{self.piece_state(site)} = {value}"

    def stack_write(self, call: str) -> str:
        """A write of a stacking game's levels (`rt`'s `stack_...(who, what, count, ...)`),
        in a game with piece states its form that keeps them."""
        return self._site_write(call)

    def _site_write(self, call: str) -> str:
        """A write of the sites (`rt`'s `site_...(who, what, count, ...)`), in a game with
        piece states its form that keeps them (`..._st`, given the states)."""
        if not self.piece_states:
            return call
        name, _, rest = call.partition("(who, what, count, ")
        return f"{name}_st(who, what, count, sc[STATE:STATE + N_STATE], {rest}"

    def site_move(self, frm: str = "frm", to: str = "to") -> str:
        """The effect line that moves the piece at `frm` to `to` (in a game with hidden
        information, its flags with it: `hidden_move`)."""
        # (each kind's owner a module's table: an array made in the effect is made at every
        # move, 8% of Achi's playout)
        if self.game.who_is_index:
            # the reference's owner_of: a piece landing in a hand takes its kind's owner
            # (`INDEX_WRITES` binds the name to the write that keeps the index on the board)
            line = self._site_write(SITE_MOVE_COUNTED.replace("count, 0,", "count, HAND_FROM,")
                                    .format(owners=self.owners_table(), frm=frm, to=to))
        elif self.counting:
            line = self._site_write(SITE_MOVE_COUNTED.format(
                owners=self.owners_table(), frm=frm, to=to))
        else:
            line = self._site_write(SITE_MOVE.format(frm=frm, to=to))
        if self.game.hidden_info:
            # the origin's emptiness read after the move, as `State._move_hidden`
            line += f"; hidden_move(sc, HID, TOTAL, NP + 1, what, {frm}, {to})"
        return line

    def owners_table(self) -> str:
        """The table of each piece kind's owner (Ludii's), which a write moving pieces of a
        counted site reads: a module constant, where an array written in the kernel was
        allocated and freed at every move (a twentieth of Adzua's playout)."""
        return self.table(list(self.game.ludii_owners))

    def site_add(self, to: str, what: str, who: str, n: str) -> str:
        """The effect line that adds `n` pieces `what` of `who` at `to`."""
        return self._site_write(SITE_ADD.format(first="0" if self.counting else "HAND_FROM",
                                                to=to, what=what, who=who, n=n))

    def site_clear(self, site: str) -> str:
        """The effect line that empties a site."""
        return self._site_write(SITE_CLEAR.format(site=site))

    def site_move_n(self, owners: str, frm: str, to: str, n: str) -> str:
        """The effect line that moves `n` pieces of a counted site (`owners`: an array
        expression of each kind's owner, or empty)."""
        return self._site_write(f"site_move_n(who, what, count, {owners}, {frm}, {to}, {n})")


SITE_MOVE = "site_move(who, what, count, HAND_FROM, {frm}, {to})"
SITE_MOVE_COUNTED = "site_move_counted(who, what, count, 0, {owners}, {frm}, {to})"
SITE_ADD = "site_add(who, what, count, {first}, {to}, {what}, {who}, {n})"
SITE_CLEAR = "site_clear(who, what, count, {site})"


# The statements of effect lines by the engine's code of the action each makes
# (`Source.action_codes`), and the calls of helper kernels (`Source.with_helpers`).
_CODED_ACTION = re.compile(
    r"\b(?P<add>site_add)(?:_st)?\(|\b(?P<remove>site_clear|site_remove)(?:_st)?\("
    r"|\b(?P<move>site_move\w*|stack_move_stack)\(|\b(?P<pending>pend_add)\("
    r"|\b(?P<remember>rem_add)\(|\b(?P<forget>rem_forget|rem_clear)\("
    r"|sc\[(?P<var>VARS) \+|sc\[(?P<state>STATE) \+ [^\]]+\] = |sc\[(?P<score>SCORE) \+"
    r"|sc\[(?P<next>NEXT)\] = ")
_HELPER_CALL = re.compile(r"\b(?:helper|can_move|first_move|reach)_(\d+)\(")
_ACTION_CODES = {"add": A_ADD, "remove": A_REMOVE, "move": A_MOVE, "pending": A_PENDING,
                 "remember": A_REMEMBER, "forget": A_FORGET, "var": A_SET_VAR,
                 "state": A_SET_FIELD, "score": A_SCORE, "next": A_NEXT}


class _NeedsPieceStates(Unsupported):
    """A rule reads or writes piece states in a game generated without them (see
    `Source.piece_state`); `generate` starts again with them."""

    def __init__(self):
        super().__init__(None, "piece states")


# The statements of the generated effects and consequents that are one of Ludii's actions,
# as the reference engine's action tuples are (`ludeme.engine.actions.ACTIONS`): a piece
# moved, removed (now, or marked for the end of the turn), added or promoted (its `what`
# written; its `who` follows in the same action), a score, the next player (moveAgain), a
# variable or player's value, a piece's state, the counter, the swap of two seats. DurationActions counts them as the
# reference counts its tuples (`State.num_actions`); the tests of identical rows on both
# backends hold the two counts together, so a new kind of effect statement that is not
# listed here shows there.
_ACTION_STATEMENT = re.compile(
    r"(site_move|site_move_counted|site_move_n|site_clear|site_remove|site_add)(_st)?\("
    r"|(pend_add|rem_add|rem_forget|rem_clear)\("
    r"|(stack_move_stack|stack_move_level|stack_take|stack_insert_n|stack_set_state"
    r"|stack_set_value)(_st)?\("
    r"|stack_set_top\("
    r"|sc\[(NEXT|COUNTER|SCORE \+ [^\]]+|VARS \+ [^\]]+|PVAL \+ [^\]]+|CLEAR \+ [^\]]+"
    r"|STATE \+ [^\]]+)\] \+?= "
    r"|what\[[^\]]+\] = "
    r"|sc\[ORDER \+ i\], ")


# The effect of a generator whose decision is an action that changes nothing (Ludii's
# ActionSelect, the reference's A_SELECT): the tick alone.
NO_EFFECT_ACTION = "sc[NUM_ACTIONS] += 1"


def counted_actions(lines: list[str], after: bool = False) -> list[str]:
    """The lines, each action statement followed by a tick of the action counter; with
    `after` (a game that reads `(last To afterConsequence:True)`), each one with a site
    preceded by the note of its destination and origin (`_after_note`)."""
    out = []
    for line in lines:
        body = line.lstrip()
        ind = line[:len(line) - len(body)]
        if after and _ACTION_STATEMENT.match(body):
            note = _after_note(body)
            if note is not None:
                out.append(ind + note)
                out.append(ind + "last_to_add(sc, sc[LAST_TO_AFTER])")
        out.append(line)
        if _ACTION_STATEMENT.match(body):
            out.append(f"{ind}sc[NUM_ACTIONS] += 1")
    return out


# Of each action statement with a site: the index of its origin and destination among the
# arguments after (who, what, count) and, in the `_st` forms, the states (an action that
# moves no piece is its own origin, as `State._note_after` reads the reference's).
_WRITE_SITES = {"site_move": (1, 2), "site_move_counted": (2, 3), "site_move_n": (1, 2),
                "site_clear": (0, 0), "site_add": (1, 1), "stack_move_stack": (0, 1),
                "stack_move_level": (0, 2), "stack_take": (0, 0), "stack_insert_n": (0, 0),
                "stack_set_state": (0, 0), "stack_set_value": (0, 0), "stack_set_top": (0, 0)}
_SITE_SUBSCRIPT = re.compile(r"(?:sc\[(?:CLEAR|STATE) \+ |what\[)")


def _after_note(statement: str) -> str | None:
    """The line that records an action statement's destination and origin as the last
    ones after the consequents (Ludii's toAfterSubsequents), evaluated before the action as
    its arguments are; None for an action without a site."""
    sub = _SITE_SUBSCRIPT.match(statement)
    if sub is not None:
        args = _bracketed(statement, statement.index("["))
        # (a piece's value: `sc[STATE + TOTAL + site]`, `Source.piece_value`; its rotation:
        # `sc[STATE + ROT + site]`, `Source.piece_rotation`)
        site = args[0].removeprefix("CLEAR + ").removeprefix("STATE + ").removeprefix(
            "TOTAL + ").removeprefix("ROT + ")
        return f"sc[LAST_TO_AFTER] = sc[LAST_FROM_AFTER] = {site}"
    name = statement[:statement.find("(")]
    st = name.endswith("_st")
    sites = _WRITE_SITES.get(name.removesuffix("_st"))
    if sites is None:
        return None
    args = _bracketed(statement, len(name))[3 + st:]
    return (f"sc[LAST_TO_AFTER], sc[LAST_FROM_AFTER] = {args[sites[1]]}, "
            f"{args[sites[0]]}")


def _bracketed(text: str, start: int) -> list[str]:
    """The comma-separated parts (at the top level) of the bracket opening at `start`."""
    parts, depth, part = [], 0, ""
    for ch in text[start + 1:]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                parts.append(part.strip())
                return parts
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(part.strip())
            part = ""
            continue
        part += ch
    raise Unsupported(None, f"an action statement over several lines ({text})")


def _padded(rows) -> tuple[np.ndarray, np.ndarray]:
    """Ragged rows of sites (a list of lists, or of lists of lists) as one array padded with
    -1, and the array of the innermost lengths."""
    if any(row and isinstance(row[0], (list, tuple)) for row in rows):
        inner = [_padded([list(r) for r in row]) for row in rows]
        width = max((len(row) for row in rows), default=0) or 1
        depth = max((a.shape[1] for a, _ in inner), default=0) or 1
        out = np.full((len(rows), width, depth), -1)
        lens = np.zeros((len(rows), width), dtype=np.int64)
        for i, (a, ln) in enumerate(inner):
            out[i, :a.shape[0], :a.shape[1]] = a
            lens[i, :len(ln)] = ln
        return out, lens
    width = max((len(r) for r in rows), default=0) or 1
    out = np.full((len(rows), width), -1)
    for i, r in enumerate(rows):
        out[i, :len(r)] = list(r)
    return out, np.array([len(r) for r in rows], dtype=np.int64)


class _ProbeState:
    """The state a `_Probe` offers: the mover, the last move and a site list; a rule that
    reads anything else cannot be listed before play."""

    def __getattr__(self, name):
        raise _ProbeRead(None, f"a rule listed before play that reads the state's {name}")


class _ProbeRead(Unsupported, AttributeError):
    """Refused (a rule read what a probe lacks); still an AttributeError to `getattr` with
    a default and to `hasattr`."""


class _NoPieces(tuple):
    """A probe's sites before `fill`: none to list, and reading one site's piece is reading
    the position (refused as `_ProbeState` refuses, not an IndexError)."""

    def __getitem__(self, i):
        raise _ProbeRead(None, "a rule listed before play that reads the pieces on the sites")


class _Probe:
    """A context for rules that read only the mover (static regions, step tables)."""

    def __init__(self, num_players: int):
        from ludeme.engine.state import UNDEFINED
        self.s = _ProbeState()
        self.s.mover = 1
        self.s.what = _NoPieces()
        self.s.last_from = self.s.last_to = UNDEFINED
        self.from_ = self.to = self.site = self.player = UNDEFINED
        self.region = ()        # no group visited: (sites) is empty, as a context's

    def fill(self, what: int, n: int) -> None:
        """Every one of the `n` board sites holds a piece of kind `what` (a probe's own list,
        not a state's store)."""
        self.s.what = [what] * n


def context(local: tuple = ("frm", "to", "btw")) -> str:
    """The evaluation context a generated kernel starts from (see the module docstring):
    the players and the last move read from the state, and the `local` variables (of
    `frm`, `to`, `btw`) that a kernel not given them starts undefined."""
    lines = ["    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]",
             "    last_from, last_to = sc[LAST_FROM], sc[LAST_TO]"]
    return "\n".join(lines + [f"    {name} = -1" for name in local])


def _start_remembered(src, s0) -> list[str]:
    """The reset's lines for the values the start rules remember (a list of the kernels'
    for each name the rules read)."""
    lines = []
    for name, i in src.remembered.items():
        for v in s0.notes.get(("remembered", name), ()):
            if not 0 <= v < src.game.total_sites:
                raise Unsupported(None, "a value off the board's sites remembered by the "
                                        "start rules")
            block = f"REM + {i} * REM_STRIDE"
            if src.remembered_order:
                lines.append(f"    sc[{block} + 1 + REM_W + sc[{block}]] = {v}")
            lines += [f"    sc[{block}] += 1", f"    sc[{block} + 1 + {v}] += 1"]
    return lines


# What the compiled turn loop does not model, in the order `check_game` asks: (what
# `Unsupported` says, the test on the game). The coverage table lists them.
GAME_REFUSALS = (
    ("a game built without typed rules", lambda g: getattr(g, "typed", None) is None),
    ("counted pieces in a stacking game", lambda g: g.stacking and getattr(g, "counting", False)),
    ("pieces turned (a rotation) in a stacking game",
     lambda g: g.stacking and getattr(g.env, "rotated", False)),
    ("(automove)", lambda g: getattr(g, "automove", None) is not None),
    ("counted pieces on the board", lambda g: getattr(g, "counting", False)
     and not getattr(g, "ludii_owners", None)),
    # The kernels keep the board's layers of other site types after the containers, as the
    # reference's store (`Game.layers`), each site holding one piece: not as stacks, counts
    # or piece indices.
    ("pieces on several site types of the board, in a stacking game",
     lambda g: getattr(g, "layers", None) and g.stacking),
    ("pieces on several site types of the board, in a game that keeps their indices",
     lambda g: getattr(g, "layers", None) and g.who_is_index),
)
# Refused while generating (see `generate`).


def check_game(game) -> None:
    """Refuse (Unsupported) what the compiled turn loop does not model."""
    for what, test in GAME_REFUSALS:
        if test(game):
            raise Unsupported(None, what)


def _phases(rules) -> list[tuple]:
    """(play moves, end rules, [(role, cond, target)]) per phase, as the compiler orders them."""
    if not rules.phases:
        return [(rules.play.moves, [], [])]
    names = [ph.name for ph in rules.phases]
    out = []
    for i, ph in enumerate(rules.phases):
        nexts = []
        for nx in ph.next or []:
            if nx.phase is None:
                target = i + 1 if i + 1 < len(names) else -1
            else:
                target = names.index(nx.phase)
            if target >= 0:
                nexts.append((nx, target))
        out.append((ph.play.moves, list(ph.end.rules) if ph.end is not None else [], nexts))
    return out


def _by_phase(blocks: list[list[str]], ind: str = "    ") -> list[str]:
    """`if ph == i:` branches (blocks that are empty are left out)."""
    out = []
    for i, lines in enumerate(blocks):
        if lines:
            out.append(f"{ind}if ph == {i}:")
            out.extend(lines)
    return out


def _reads_no_position(src, actions) -> bool:
    """Whether a start rule's actions read nothing of the position: a (set Hidden ...) of
    sites and players fixed before play, to a value given (its flags, kept apart from the
    sites, are the start position's own: `_start_hidden`)."""
    lud = getattr(actions, "hidden_rule", None)
    if lud is None or not (lud.value is None or isinstance(lud.value, bool)):
        return False

    def fixed(x) -> bool:       # a number written as one (its compiled form a literal)
        return src.int_expr(x).lstrip("-").isdigit()
    to = lud.to
    if not (to[:1] == "P" and to[1:].isdigit() if isinstance(to, str) else fixed(to)):
        return False
    return fixed(lud.at) if lud.at is not None else src.is_static_region(lud.region)


def _fixed_start(game, s0, src=None):
    """The start position the kernels copy before their start rules draw: `s0`, or in a
    game whose start places pieces at random ((place Random ...), drawn by the kernels'
    `start` lines), the position of the start moves before those draws. Refused where a
    start move that writes the sites comes after one (hidden flags aside, set as the start
    position's), or one reading the position, or the start is read later."""
    if not getattr(game, "places_at_random", False):
        return s0
    if game.records_start or game.track_indexed:
        raise Unsupported(None, "start rules placing pieces at random, read after the start")
    from ludeme.engine.state import A_SET_HIDDEN, A_SET_MOVER, State
    s = State(game, 0)
    drawn = False
    for actions in game.start:
        if getattr(actions, "places_at_random", None) is not None:
            drawn = True
            continue
        if callable(actions):
            if drawn and not (src is not None and _reads_no_position(src, actions)):
                raise Unsupported(None, "a start rule read in the position after one placing "
                                        "pieces at random")
            actions = actions(s.ctx)
        for a in actions:
            if drawn and a[0] not in (A_SET_MOVER, A_SET_HIDDEN):
                raise Unsupported(None, "a start rule after one placing pieces at random")
            s.do_action(a)
    if not drawn:
        raise Unsupported(None, "start rules placing pieces at random sites of a region "
                                "drawn from the chance stream")
    return s


def generate(game) -> str:
    """The numba module of one game (raises Unsupported)."""
    check_game(game)
    s0 = game.new_initial_state(0)
    # (values: kept with the states when read or given at the start; rotations: with them
    # in a game whose pieces turn, `Source.rotations`)
    states, values = _start_data(s0)
    states = states or values or bool(getattr(game.env, "rotated", False))
    src = Source(game, piece_states=states, piece_values=values)
    try:
        module = _generate(game, s0, src)
    except Unsupported:
        # An emitter refused for want of the states may have tried another form, refused
        # for another reason: with the states the first form may do.
        if not src.wants_piece_states:
            raise
        module = None
    if src.wants_piece_states:
        module = _generate(game, s0, Source(game, piece_states=True, piece_values=values))
    module = _buffers_made_once(_unread_copies_dropped(module))
    return module.replace("INCREMENTAL = None", f"INCREMENTAL = {_journaled(module)}", 1)


# The copy of the state a part's moves read (`moves.SNAPSHOT`), as a line of a kernel.
_SNAPSHOT_LINE = re.compile(r"^( *)who_0, what_0, count_0, sc_0, phase_0 = who\.copy\(\), "
                            r"what\.copy\(\), count\.copy\(\), sc\.copy\(\), phase\.copy\(\)$",
                            re.M)


# The buffer an (append ...) hands the kernel that finds its list's first move
# (`war._append_moves`), made where the moves are listed.
_FIRST_MOVE_BUFFER = re.compile(r"^ +(fm\d+_) = np\.empty\(2, np\.int64\)\n", re.M)


def _buffers_made_once(module: str) -> str:
    """The module with each kernel's buffers for a first move (`_FIRST_MOVE_BUFFER`) made
    once, first in the kernel, not at each site its loops visit: each is read right after
    the call that fills it, so one serves them all (Reversi's listing made 60 a move, 20%
    of its playout)."""
    out = []
    for kernel in re.split(r"(?=^@njit)", module, flags=re.M):
        names = sorted(set(_FIRST_MOVE_BUFFER.findall(kernel)))
        if names:
            kernel = _FIRST_MOVE_BUFFER.sub("", kernel)
            head = re.search(r"^def .*?\):\n", kernel, re.M | re.S)
            made = "".join(f"    {name} = np.empty(2, np.int64)\n" for name in names)
            kernel = kernel[:head.end()] + made + kernel[head.end():]
        out.append(kernel)
    return "".join(out)


def _unread_copies_dropped(module: str) -> str:
    """The module with each kernel's copies of the state (`moves.SNAPSHOT`) made only of the
    arrays the kernel reads through them: a copy is an allocation, and Reversi's flips read
    only two of the five (10% of its playout)."""
    out = []
    for kernel in re.split(r"(?=^@njit)", module, flags=re.M):
        if _SNAPSHOT_LINE.search(kernel):
            rest = _SNAPSHOT_LINE.sub("", kernel)
            used = [a for a in ("who", "what", "count", "sc", "phase")
                    if re.search(rf"\b{a}_0\b", rest)]
            copy = (f"{', '.join(a + '_0' for a in used)} = "
                    f"{', '.join(a + '.copy()' for a in used)}") if used else "pass"
            kernel = _SNAPSHOT_LINE.sub(lambda m: m.group(1) + copy, kernel)
        out.append(kernel)
    return "".join(out)


def _start_data(s0) -> tuple[bool, bool]:
    """Whether the start position gives a piece a state, and a value: at any level of a
    stack (what a level is left with too), not only the tops the sites' views hold. The
    position's key reads both (`StackSites.key`, `FlatSites.key`), so the kernels keep
    them from the start even where no rule reads them: pieces of one kind and owner told
    apart by their values, moved so that their values change places (or, on stacks, take
    those their levels were left with), make positions the kernels would key as one."""
    sites = s0.sites
    states, values = any(sites.state), any(sites.value)
    stacks = getattr(sites, "stacks", None)
    if stacks is not None:
        levels = [lv[2:] for st in stacks for lv in st] + [
            (d[0], 0, d[2]) for left in sites.residue.values() for d in left]
        states = states or any(lv[0] for lv in levels)
        values = values or any(lv[2] for lv in levels)
    return states, values


def _seen_size(game) -> int:
    """The positions the kernels keep for (no Repeat ...) (`record_position`): one per turn
    in the game (Positional), one per decision of a turn (PositionalInTurn), to the
    game's limits; past as many a playout falls back to the reference engine
    (`rt.KernelFull`)."""
    if game.repetition is None:
        return 0
    if game.repetition == "Positional":
        return game.max_turns * game.num_players + 2
    return min(game.max_moves, 4 * game.total_sites + 64) + 2


def _journaled(module: str) -> bool:
    """Whether every write of the sites in the generated module is in the journal of the
    sites written (rt.JOURNAL): made by `rt`'s writes, which keep it, by the template (the
    start position, the journal read), or in place right after `journal(count, <site>)`
    of the site it writes."""
    if _BULK_WRITE.search(module):      # (no match spans lines: as line by line)
        return False
    noted = None            # the site of the journal line just before, and its writes
    for line in module.splitlines():
        if "journal(" not in line and "who[" not in line and "what[" not in line \
                and "count[" not in line:
            noted = None    # (neither a journal line nor a write: most lines, seen fast)
            continue
        m = _JOURNAL_LINE.fullmatch(line.partition("#")[0].strip())
        if m:
            noted = m.group(1)
            continue
        if not _DIRECT_WRITE.search(line):
            noted = None
        elif line.strip() not in _TEMPLATE_WRITES:
            w = _DIRECT_WRITE.match(line.strip())    # one target, the site noted
            if not w or w.group(2) != noted:
                return False
    return True


# A phase's listing of placements on the empty board sites, as `legal` writes it for a
# phase whose moves are one (move Add (to (sites Empty))) (`_adds_to_empty`): a guard (the
# mover has a piece to place) or none, the loop over the board's sites, the push.
_ADD_TO_EMPTY = re.compile(
    r"(?:        if (?P<guard>[^\n]+):\n    )?"
    r"        for to in range\(0, (?P<n>\d+)\):\n"
    r"(?P<i>(?:    )?)            if to >= 0 and what\[to\] == 0:\n"
    r"(?P=i)                k = push\(mf, mt, mg, mx, k, to, to, (?P<g>\d+), -1\)\n"
    r"        pass")


def _adds_to_empty(src, moves) -> bool:
    """A phase's moves are one placement on the empty board sites and nothing else (the
    ludeme's `adds_to_empty` form)."""
    e = lookup("adds_to_empty", moves)
    return e is not None and e.fn(src, moves)


def _fast_add(game, src, phases, play) -> tuple[list[int], str]:
    """The playout loop's placements drawn from the empty sites (`fast_count`): per phase
    the generator of its placements where its moves are `_adds_to_empty` and `legal` lists
    them as the loop over the board's sites that `_ADD_TO_EMPTY` reads (else -1), and the
    body of `fast_count`. The loop then draws the c-th empty site, as the c-th move `legal`
    would list, without listing them; none where a rule changes the moves listed after the
    phase's (no Repeat ...: `without_repeats`), a ranking ((max Moves)) or hidden
    information."""
    n_sites = game.containers[0].num_sites
    gens, body = [], []
    off = game.repetition is not None or src.ranked is not None or game.hidden_info
    for i, ((moves, _, _), lines) in enumerate(zip(phases, play)):
        m = None if off or not _adds_to_empty(src, moves) else \
            _ADD_TO_EMPTY.fullmatch("\n".join(lines))
        if m is None or int(m.group("n")) != n_sites:
            gens.append(-1)
            continue
        gens.append(int(m.group("g")))
        body += [f"    if ph == {i}:",
                 *([f"        if sc[NUM_MOVES] - sc[NUM_START_MOVES] == NP - 1:",
                    f"            return -1, -1        # the swap is offered too"]
                   if game.swap_rule else []),
                 f"        if {m.group('guard') or 'True'}:",
                 f"            sc[STALE + mover] = 0",
                 f"            return n_empty, {int(m.group('g'))}"]
    return gens, "\n".join(body) or "    pass"


def _generate(game, s0, src: Source) -> str:
    """The numba module of one game, written by `src`."""
    rules = game.typed.rules
    n = game.num_players
    phases = _phases(rules)
    play, play_any, phase_end, nexts = [], [], [], []
    for moves, ends, nxs in phases:
        lines: list[str] = []
        src.moves(moves, lines, "        ")
        play.append(lines + ["        pass"])
        src.any_mode = src.no_moves_busy = True
        lines = []
        src.moves(moves, lines, "        ")
        play_any.append(lines + ["        pass"])
        src.any_mode = src.no_moves_busy = False
        lines = ["        sc[LOSSES_DECIDED] = 0"] if ends else []
        for r in ends:
            src.end_rule(r, lines, "        ")
        phase_end.append(lines)
        lines = []
        for nx, target in nxs:
            cond = src.bool_expr(nx.cond) if nx.cond is not None else "True"
            lines += [f"            if not done:",
                      f"                nw = {src.role_expr(nx.role, nx)}",
                      f"                if (nw == {n + 1} or nw == pid) and {cond}:",
                      f"                    phase[pid] = {target}",
                      f"                    done = True"]
        nexts.append(["    " + x for x in lines])
    start = _start_lines(src, game)
    fast_gens, fast_body = _fast_add(game, src, phases, play)
    end = []
    for r in (rules.end.rules if rules.end is not None else []):
        src.end_rule(r, end, "        ")
    unranked = []
    if src.ranked is not None:
        if game.repetition is not None:
            # the positions a ranking searches would record theirs among the game's
            raise Unsupported(src.ranked, "beside (no Repeat ...)")
        src.unranked = True
        for moves, _, _ in phases:
            lines = []
            src.moves(moves, lines, "        ")
            unranked.append(lines + ["        pass"])
        src.unranked = False
    swap = ["    pass"]
    if game.swap_rule:
        # Ludii's Game.moves: the swap is offered after the phase's moves on the last
        # player's first decision; it changes no site (the seats are not the kernels'), and
        # the swapper moves again.
        # The seats are kept for the position's key, as the reference's `player_order`.
        g = src.new_generator(["i = 0", "while sc[ORDER + i] != mover:", "    i += 1",
                               "j = 0", "while sc[ORDER + j] != 1:", "    j += 1",
                               "sc[ORDER + i], sc[ORDER + j] = sc[ORDER + j], sc[ORDER + i]",
                               "sc[NEXT] = mover", "sc[REPLAYED] = 1"],
                              kind=(A_SWAP, A_NEXT))
        swap = [f"    if sc[NUM_MOVES] - sc[NUM_START_MOVES] == NP - 1:",
                f"        k = push(mf, mt, mg, mx, k, -1, -1, {g}, -1)"]
    if src.decision_read:
        _note_decisions(src)
    if src.reads_last_between or src.notes_between:
        _note_unkept_between(src)
    effects, consequents = [], []
    for g, (lines, _, then) in enumerate(src.generators):
        effects.append(f"    {'if' if g == 0 else 'elif'} g == {g}:")
        effects.extend("        " + x for x in counted_actions(lines, src.reads_after)
                       or ["pass"])
        if then:
            consequents.append(f"    if g == {g}:")
            consequents.extend("        " + x for x in counted_actions(then, src.reads_after))
    pass_gens = [g for g, (_, p, _) in enumerate(src.generators) if p]
    comps = game.components
    same = np.zeros((len(comps), len(comps)), dtype=bool)
    for w in range(len(comps)):      # as the reference: an empty pivot counts empty sites
        same[w, w] = True
    n_sites = game.containers[0].num_sites
    # Ludii checks the all-pass draw wherever end rules are evaluated: the game's, or the
    # mover's phase's (the phase it moved in: phases change after the check).
    phase_ends = [bool(p.end) for p in game.phases]
    all_pass = bool(game.requires_all_pass and (game.end or any(phase_ends)))
    if all_pass and not game.end and not all(phase_ends):
        all_pass_test = f"{src.table([int(e) for e in phase_ends])}[phase[mover]] != 0"
    else:
        all_pass_test = str(all_pass)
    step_start, step_to = _step_table(game, n_sites)
    if game.stacking:
        _refuse_direct_writes(src, start, effects, consequents)
    if game.who_is_index:
        _refuse_index_writes(src, start, effects, consequents)
    if game.large_pieces and (game.sequence_capture or any(
            "site_clear" in x for block in (start, effects, consequents) for x in block)):
        # the reference frees a large piece's anchor as it removes it (`_uncover_removed`)
        raise Unsupported(None, "a piece removed in a game with large pieces")
    if game.large_pieces and game.stacking:
        raise Unsupported(None, "large pieces in a stacking game")
    n_pending = game.total_sites * (PENDING_SPAN if src.pending_wide else 1) \
        if src.pending else 0
    if game.layers and (src.piece_states or src.die_states or getattr(game.env, "rotated", False)):
        # the states (and rotations) are kept for every container's sites (TOTAL), not the
        # layers after them; the layers' add (`LAYER_WRITES`) keeps none
        raise Unsupported(None, "pieces on several site types of the board, with piece "
                                "states, rotations or dice")
    fixed = _fixed_start(game, s0, src)
    init_who, init_what, init_count, depth = _initial_sites(game, fixed)
    n_trk, trk_init = _on_track(src, game, s0)
    module = src.handed_site(LOOP.format(
        stacking=bool(game.stacking), depth=depth,
        level_keys=[random.Random(-1 - i).getrandbits(62) * 2 + 1
                    for i in range(game.total_sites * depth)],
        stack_writes=(STACK_WRITES + ("\n" + STACK_WRITES_ST if src.piece_states else ""))
        if game.stacking else INDEX_WRITES if game.who_is_index
        else LAYER_WRITES.format(hand_to=game.total_sites) if game.layers else "",
        tables="\n".join(src.table_lines),
        n_elements=game.board.num_elements(),
        step_start=step_start, step_to=step_to,
        site_keys=[random.Random(s).getrandbits(62) * 2 + 1 for s in range(game.store_sites)],
        helpers="\n\n".join(src.helpers),
        # `no_moves` and `legal_any` inlined where they call no kernel that calls them
        # again: a call passes every array and counts its references (Amazons' (no Moves
        # Next) after each move cost 8% of its playout so)
        any_inline=', inline="always"' if not any(
            "no_moves(" in x for x in [*src.helpers, *(y for b in play_any for y in b)])
        else "",
        n_players=n,
        n_sites=n_sites,
        total=game.total_sites,
        store=game.store_sites,
        marks=max([game.total_sites] + [len(game.board.planar.elements(t))
                                         for t in ("Vertex", "Edge", "Cell")]),
        hand_from=n_sites,
        max_turns=game.max_turns,
        max_moves=game.max_moves,
        requires_all_pass=all_pass_test,
        owner=[c.owner for c in comps],
        team=[game.teams.get(p, -1) for p in range(n + 2)],
        whats_same=same.astype(int).tolist(),
        init_who=init_who, init_what=init_what, init_count=init_count,
        init_state=_initial_states(game, fixed, depth if src.piece_states else 0,
                                   src.piece_states and src.piece_values,
                                   src.piece_states and bool(src.rotations))
        if src.piece_states or src.die_states else [],
        state_keys=_state_keys(game, depth if src.piece_states else 0,
                               src.piece_states and src.piece_values,
                               src.piece_states and bool(src.rotations))
        if src.piece_states or src.die_states else [],
        clear_marked="\n".join("                " + x for x in _clear_marked(src)),
        init_phase=list(game.initial_phase),
        init_scores="\n".join([f"    sc[SCORE + {p}] = {v}" for p, v in enumerate(s0.scores)
                                if v] + _start_remembered(src, s0) + trk_init
                               + [f"    sc[COV + {x}] = 1" for x in sorted(
                                   fixed.notes.get(COVERED, ()))]
                               + _start_hidden(game, s0)) or "    pass",
        num_start_moves=s0.num_start_moves,
        init_mover=s0.mover, init_next=s0.next,
        max_buffer=max(64, 8 * game.total_sites * 8),
        play="\n".join(_by_phase(play)),
        fast_add=any(g >= 0 for g in fast_gens), fast_body=fast_body,
        ranking=(RANKING.format(context=context(), play="\n".join(_by_phase(unranked)),
                                swap="\n".join(swap)) if src.ranked is not None else "")
        + (CAPTURES if src.counts_removals else ""),
        n_removed=int(src.counts_removals),
        n_last_between=game.total_sites if src.reads_last_between or src.notes_between else 0,
        swap="\n".join(swap),
        swap_rule=bool(game.swap_rule) or src.swaps_players,
        repeat={None: 0, "Positional": 1, "PositionalInTurn": 2}[game.repetition],
        n_seen=_seen_size(game),
        n_vars=len(src.variables),
        n_visited=game.total_sites + 1 if game.requires_visited else 0,
        n_pending=n_pending,
        n_pwas=n_pending + 1 if src.reads_pending_was else 0,
        n_active=n + 1 if src.reads_active else 0,
        n_last_tos=game.total_sites + 1 if getattr(game, "reads_last_tos", False) else 0,
        n_cov=n_sites if game.large_pieces else 0,
        n_hidden=_hidden_size(game),
        n_grp=game.total_sites if src.grp else 0,
        n_rem=len(src.remembered),
        rem_w=game.total_sites if src.remembered else 0,
        rem_cap=4 * game.total_sites + 16 if src.remembered and src.remembered_order else 0,
        n_chance="MT_STATE_SIZE" if game.uses_chance else 0,
        draw_cap=DRAW_CAP if game.uses_chance else 0,
        n_trk=n_trk,
        start="\n".join(start) or "    pass",
        sequence_capture=bool(game.sequence_capture),
        play_any="\n".join(_by_phase(play_any)),
        phase_end="\n".join(_by_phase(phase_end)) or "    pass",
        game_end="\n".join(["    if not sc[OVER]:", "        sc[LOSSES_DECIDED] = 0", *end])
        if end else "    pass",
        next_phases="\n".join(_by_phase(nexts, "        ")) or "        pass",
        effects="\n".join(effects) or "    pass",
        pass_draws="\n".join("        " + x for x in src.pass_draws) or "        pass",
        consequents="\n".join(consequents) or "    pass",
        pass_gens=tuple(pass_gens) + (-1,),
        gen_kinds=[k if isinstance(k, tuple) else (k,) for k in src.generator_kinds],
        gen_types=[src.generator_types.get(g) for g in range(len(src.generator_kinds))],
        gen_levels=src.generator_levels, gen_tagged=src.generator_tagged, tagged=TAGGED,
        context=context(),
        # The decisions' history is read only by the all-pass draw.
        history=game.max_moves + game.max_turns * game.num_players + 2
        if all_pass or src.reads_all_passed else 1,
        keeps_history=all_pass or src.reads_all_passed,
        reads_all_passed=src.reads_all_passed,
    ))
    module = hoist(module)
    if src.counts_removals:
        module = _counted_removals(module)
    return _track_writes(module) if n_trk else module


# A statement that removes a piece (the engine's A_REMOVE, A_REMOVE_LEVEL, A_REMOVE_LATER),
# the name of the state it writes (`w` for a sowing's copy, `moves._STATE_WORD`) first.
_REMOVAL = re.compile(r"(\s*)(?:(?:site_clear|stack_take)(?:_st)?\((\w*)who\b"
                      r"|(\w*)sc\[CLEAR \+ [^\]]+\] \+= 1$)")


def _counted_removals(module: str) -> str:
    """The module with each removal statement of the rules followed by a tick of its state's
    removal counter (`sc[NREM]`, which `captures_of` reads); the turn's own clearing of the
    sites marked (`step`) is no rule's."""
    out = []
    in_step = False
    for line in module.split("\n"):
        out.append(line)
        if line.startswith("def "):
            in_step = line.startswith("def step(")
        m = _REMOVAL.match(line)
        if m is not None and not in_step:
            out.append(f"{m.group(1)}{m.group(2) or m.group(3) or ''}sc[NREM] += 1")
    return "\n".join(out)


# The kernel of a game whose moves a (max Captures) ranks (`ludemes.war`): how many pieces a
# move removes, its consequents included, applied to a copy of the position as the last
# move (as the reference's `applied_actions(..., as_last_move=True)`: a generated move has
# no mover of its own).
CAPTURES = '''
@njit(cache=True)
def captures_of(who, what, count, sc, phase, f, t, g, x):
    who, what, count, sc, phase = who.copy(), what.copy(), count.copy(), sc.copy(), phase.copy()
    sc[NREM] = 0
    applied(who, what, count, sc, phase, f, t, g, x, 0)
    return sc[NREM]

'''


def on_track_tables(src) -> tuple[str, str, str, int]:
    """In a game with a track that passes a site twice: Ludii's OnTrackIndices as the
    kernels keep them in `sc[TRK:]` (made once per module): the names of the helpers that
    record an action (`trk_added`, `trk_removed`, `trk_moved`, as `TrackIndices`' methods),
    the table of each site's indices per track (-1 after the last), and the slots per
    piece kind and track (TRK_L). A piece kind w's count at index i of track t is
    `sc[TRK + (t * TRK_WHATS + w) * TRK_L + i]`."""
    got = getattr(src, "_on_track", None)
    if got is not None:
        return got
    tracks = list(getattr(src.game.board, "track_info", ()))
    total = src.game.total_sites
    length = max(len(t.sites) for t in tracks)
    at = [[[i for i, x in enumerate(t.sites) if x == s] for s in range(total)] for t in tracks]
    width = max(len(ix) for per in at for ix in per) or 1
    idx = src.table([[ix + [-1] * (width - len(ix)) for ix in per] for per in at])
    n_tracks, whats = len(tracks), len(src.game.components)
    slot = f"TRK + ({{t}} * {whats} + {{w}}) * {length} + {{i}}"
    src.helpers.append("\n".join([
        "@njit(cache=True)",
        "def trk_added(sc, site, w, n):",
        f"    if w == 0 or not 0 <= site < {total}:",
        "        return",
        f"    for t in range({n_tracks}):",
        f"        i = {idx}[t, site, 0]",
        "        if i >= 0:",
        f"            sc[{slot.format(t='t', w='w', i='i')}] += n",
        "",
        "",
        "@njit(cache=True)",
        "def trk_removed(sc, site, w):",
        f"    if w == 0 or not 0 <= site < {total}:",
        "        return",
        f"    for t in range({n_tracks}):",
        f"        for j in range({width}):",
        f"            i = {idx}[t, site, j]",
        "            if i < 0:",
        "                break",
        f"            sc[{slot.format(t='t', w='w', i='i')}] -= 1",
        "",
        "",
        "@njit(cache=True)",
        "def trk_moved(sc, frm, to, w, n):",
        f"    if w == 0 or not 0 <= frm < {total}:",
        "        return",
        f"    on = 0 <= to < {total}",
        f"    for t in range({n_tracks}):",
        f"        first_to = {idx}[t, to, 0] if on else -1",
        f"        if {idx}[t, frm, 0] < 0:",
        "            if first_to >= 0:",
        f"                sc[{slot.format(t='t', w='w', i='first_to')}] += 1",
        "            continue",
        f"        for j in range({width}):",
        f"            i = {idx}[t, frm, j]",
        "            if i < 0:",
        "                break",
        f"            if sc[{slot.format(t='t', w='w', i='i')}] > 0:",
        f"                sc[{slot.format(t='t', w='w', i='i')}] -= n",
        "                dest = first_to",
        f"                for k in range({width} if on else 0):",
        f"                    d = {idx}[t, to, k]",
        "                    if d < 0:",
        "                        break",
        "                    if d > i:",
        "                        dest = d",
        "                        break",
        "                if dest >= 0:",
        f"                    sc[{slot.format(t='t', w='w', i='dest')}] += n",
        "                break",
        ""]))
    src._on_track = (idx, slot, length, width)
    return src._on_track


def _on_track(src, game, s0) -> tuple[int, list[str]]:
    """The size of `sc[TRK:]` and the lines that set it as the start left it (0 and none in
    a game without a track that passes a site twice)."""
    if not getattr(game, "track_indexed", False):
        return 0, []
    _, _, length, _ = on_track_tables(src)
    whats = len(game.components)
    lines = []
    for t, per in enumerate(s0.on_track.counts):
        for w, row in per.items():
            for i, v in enumerate(row):
                if v:
                    lines.append(f"    sc[TRK + {(t * whats + w) * length + i}] = {v}")
    return len(s0.on_track.counts) * whats * length, lines


# Each write of the sites and the record of OnTrackIndices it makes, before it (its
# arguments after who, what, count and, in the `_st` forms, the states): the reference's
# `State.do_action` of the same action.
_TRACK_RECORDS = {
    "site_move": lambda a: f"trk_moved(sc, {a[1]}, {a[2]}, what[{a[1]}], 1)",
    "site_move_counted": lambda a: f"trk_moved(sc, {a[2]}, {a[3]}, what[{a[2]}], 1)",
    "site_move_n": lambda a: f"trk_moved(sc, {a[1]}, {a[2]}, what[{a[1]}], {a[3]})",
    "site_clear": lambda a: f"trk_removed(sc, {a[0]}, what[{a[0]}])",
    "site_add": lambda a: f"trk_added(sc, {a[1]}, {a[2]}, {a[4]})",
}
_SITE_WRITE = re.compile(r"(\s*)(site_move|site_move_counted|site_move_n|site_clear|site_add)"
                         r"(_st)?\(")


# Each write of a stacking game's levels and its record in OnTrackIndices, before it (its
# arguments after who, what, count and, in the `_st` forms, the states), as the reference's
# `State._track_piece` of the same action: a piece taken from a level (Ludii's Remove with a
# level), pieces inserted at a level (Add with a level), a piece moved from a level (Move
# with levels; onto its own site, nothing). A whole stack moved and a promotion record
# nothing (`stack_move_stack`, `stack_set_top`), as the reference's.
_LEVEL_RECORDS = {
    "take": lambda a: f"trk_removed(sc, {a[0]}, stack_at(what, count, {a[0]}, {a[1]}))",
    "insert": lambda a: f"trk_added(sc, {a[0]}, {a[2]}, 1)",
    "insert_n": lambda a: f"trk_added(sc, {a[0]}, {a[2]}, {a[4]})",
    "move_level": lambda a: (f"if {a[0]} != {a[2]}: trk_moved(sc, {a[0]}, {a[2]}, "
                             f"stack_at(what, count, {a[0]}, {a[1]}), 1)"),
}
_LEVEL_WRITE = re.compile(r"(\s*)stack_(take|insert|insert_n|move_level)(_st)?\(")
# A write of the levels anywhere but at the start of its line (no record could go before it).
_LEVEL_WRITE_ANYWHERE = re.compile(r"\bstack_(take|insert|insert_n|move_level)(_st)?\(")


def _track_writes(module: str) -> str:
    """The module with each write of the sites preceded by its record in OnTrackIndices
    (in a stacking game, a piece moved onto its own site records nothing, as Ludii's)."""
    stacking = "\nSTACKING = True\n" in module
    out = []
    for line in module.split("\n"):
        lv = _LEVEL_WRITE.match(line)
        if lv is not None:
            if not line.rstrip().endswith(")"):
                raise Unsupported(None, "a write of a stack's levels over several lines, in "
                                        "a game recording pieces along its tracks")
            args = _bracketed(line, lv.end() - 1)[3 + bool(lv.group(3)):]
            out.append(lv.group(1) + _LEVEL_RECORDS[lv.group(2)](args))
        elif _LEVEL_WRITE_ANYWHERE.search(line) and not line.lstrip().startswith(
                ("from ", "def ")):
            raise Unsupported(None, "a write of a stack's levels inside an expression, in a "
                                    "game recording pieces along its tracks")
        m = _SITE_WRITE.match(line)
        if m is not None:
            if not line.rstrip().endswith(")"):
                raise Unsupported(None, "a write of the sites over several lines, in a game "
                                        "recording pieces along its tracks")
            name, st = m.group(2), bool(m.group(3))
            args = _bracketed(line, m.end() - 1)[3 + st:]
            record = _TRACK_RECORDS[name](args)
            if stacking and name == "site_move":
                record = f"if {args[1]} != {args[2]}: {record}"
            out.append(m.group(1) + record)
        out.append(line)
    return "\n".join(out)


# The kernels of a game whose moves a (max Moves) ranks (`ludemes.war`): the phase's moves
# as the reference lists them in the positions it searches (a (max Moves) there unranked:
# its deepest moves are among them), and the search, as the reference's `_chain_depth`.
RANKING = '''
@njit(cache=True, inline="always")
def legal_unranked(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, mg, mx):
{context}
    site = -1       # (site) outside the loops that bind it: undefined, as the reference
    k = 0
    ph = phase[mover]
    sc[STALE + mover] = 0
{play}
{swap}
    return k


@njit(cache=True)
def chain_depth(who, what, count, sc, phase, hist_mover, hist_pass, f, t, g, x):
    """How many more decisions the mover chains after the move (f, t, g, x), applied to a
    copy of the position as a whole decision: 0 when the turn passes or the game ends, -1
    when every chain runs into a position where the mover has no move. The decisions it
    applies are noted in the history past the position's own (which they leave as it is),
    as the all-pass draw reads them."""
    who, what, count, sc, phase = who.copy(), what.copy(), count.copy(), sc.copy(), phase.copy()
    rk = np.zeros(NP + 1, np.float64)       # before the end of a game of one or two players
    active = np.ones(NP + 1, np.int8)
    active[0] = 0
    step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, f, t, g, x)
    if sc[OVER] or sc[PREV] != sc[MOVER]:
        return 0
    mf = np.empty(MAX_BUFFER, np.int64)
    mt = np.empty(MAX_BUFFER, np.int64)
    mg = np.empty(MAX_BUFFER, np.int64)
    mx = np.empty(MAX_BUFFER, np.int64)
    k = legal_unranked(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, mg, mx)
    best = -1
    for i in range(k):
        best = max(best, chain_depth(who, what, count, sc, phase, hist_mover, hist_pass,
                                     mf[i], mt[i], mg[i], mx[i]))
    return best + 1 if best >= 0 else -1

'''

# A stacking game's writes: the flat names, bound to the stacks' writes of the same actions.
STACK_WRITES = ("from ludeme.engine.compiled.rt import (stack_add as site_add, "
                "stack_remove as site_clear,\n    stack_move as site_move, "
                "stack_move_n as site_move_n)")
# The same in a game whose pieces have a state (`rt`, "the stacks' writes ... a state").
STACK_WRITES_ST = ("from ludeme.engine.compiled.rt import (stack_add_st as site_add_st, "
                   "stack_remove_st as site_clear_st,\n    stack_move_st as site_move_st, "
                   "stack_move_n_st as site_move_n_st)")
# Levels the kernels keep per site, at least (more when the start stacks more).
MIN_DEPTH = 32
# A statement writing a site's array in place, not through the writes of `rt`.
_DIRECT_WRITE = re.compile(r"\b(who|what|count)\[([^\]]*)\]\s*[-+]?=(?!=)")
# An emitter's note of the site it writes in place next (`rt.journal`).
_JOURNAL_LINE = re.compile(r"journal\(count, ([^()]+)\)")
# The template's own writes in place: the start position (`reset`), the journal read.
_TEMPLATE_WRITES = frozenset(("who[:] = INIT_WHO", "what[:] = INIT_WHAT",
                              "count[:] = INIT_COUNT", "count[JN] = 0"))
# A write of a whole array by a method or function (not seen by `_DIRECT_WRITE`).
_BULK_WRITE = re.compile(r"\b(who|what|count)\.(fill|put|itemset|resize|sort)\(|copyto\(")


def _initial_sites(game, s0) -> tuple[list, list, list, int]:
    """The start position as the kernels' arrays (`who`, `what`, `count`, see
    `rt.stack_shape` for a stacking game's) and the levels kept per site."""
    if not game.stacking:
        return list(s0.who), list(s0.what), list(s0.count), 0
    total = game.total_sites
    stacks = [s0.sites.stack(s) for s in range(total)]
    depth = max(MIN_DEPTH, sum(len(st) for st in stacks) + 1)
    who, what = list(s0.who) + [0] * total * depth, list(s0.what) + [0] * total * depth
    count = list(s0.count) + [len(st) for st in stacks]
    for s, st in enumerate(stacks):
        for level, piece in enumerate(st):
            what[total + s * depth + level], who[total + s * depth + level] = piece[0], piece[1]
    return who, what, count, depth


# The level each rule of `emit` has its moves report for their destination, from the
# stacks before the move (`CompiledGame._levels`), as an expression of `to` and `x`.
_LEVEL_TO = {LV_ADD: "count[TOTAL + to]", LV_SUB: "count[TOTAL + to]", LV_AT: "max(x, 0)",
             LV_TOPS: "max(count[TOTAL + to] - 1, 0)",
             LV_PAIR: f"max(x % {LEVEL_PAIR} - 1, 0)"}


def _note_decisions(src) -> None:
    """Each generator's effect first notes the level its move reports for its destination,
    the decision it is and whether it is a pass (`Source.decision_slots`), before any action
    (after its extra is split from a die's tag)."""
    slot = src.decision_slots[0].removeprefix("sc[").removesuffix("]")
    for g, (lines, is_pass, then) in enumerate(src.generators):
        level = _LEVEL_TO.get(src.generator_levels[g], "0") if src.game.stacking else "0"
        at = 2 if src.generator_tagged[g] else 0
        lines.insert(at, f"note_decision(sc, {slot}, {level}, {int(is_pass)})")  # (no action)


# A board where Ludii stores a piece's index as its owner (`Game.who_is_index`): the flat
# writes, bound to those that keep the index as a board site's `who` (`rt.index_add`).
INDEX_WRITES = ("from ludeme.engine.compiled.rt import (index_add as site_add, "
                "index_move_counted as site_move_counted)")


# A board whose layers of other site types follow the containers (`Game.layers`): a piece
# added there is one piece a site, as on the board; only the hands before them (and, in a
# game that counts, the board) gather counts (`rt.site_add_in`, ...).
LAYER_WRITES = """from ludeme.engine.compiled.rt import site_add_in, site_move_in, site_move_counted_in


@njit(cache=True)
def site_add(who, what, count, hand_from, site, w, owner, k):
    site_add_in(who, what, count, hand_from, {hand_to}, site, w, owner, k)


@njit(cache=True)
def site_move(who, what, count, hand_from, frm, to):
    site_move_in(who, what, count, hand_from, {hand_to}, frm, to)


@njit(cache=True)
def site_move_counted(who, what, count, count_from, owner_of, frm, to):
    site_move_counted_in(who, what, count, count_from, {hand_to}, owner_of, frm, to)"""


def _refuse_index_writes(src, *blocks) -> None:
    """Where Ludii stores a piece's index as its owner, every write goes through
    `INDEX_WRITES`: refuse a compiled form that writes a site itself, moves several pieces
    at once, or keeps piece states (whose writes are not bound)."""
    if src.piece_states:
        raise Unsupported(None, "piece states where Ludii stores a piece's index as its owner")
    for line in [x for block in blocks for x in block] + src.helpers:
        if _DIRECT_WRITE.search(line) or "site_move_n(" in line:
            raise Unsupported(None, "a piece changed in place, or several moved at once, "
                                    "where Ludii stores a piece's index as its owner")


def _clear_marked(src) -> list[str]:
    """The removals of a site `s` marked `sc[CLEAR + s]` times at:EndOfTurn, as the
    reference's `end_of_turn_removals`: its piece; in a stacking game as many pieces as it
    was marked (at most its stack), from that level - 1 down to the bottom."""
    if not src.game.stacking:
        return ["sc[NUM_ACTIONS] += 1", src.site_clear("s")]
    return ["for lv in range(min(sc[CLEAR + s], count[TOTAL + s]) - 1, -1, -1):",
            "    sc[NUM_ACTIONS] += 1",
            "    " + src.stack_write("stack_take(who, what, count, s, lv)")]


def _note_unkept_between(src) -> None:
    """A slide's or a shot's decision keeps no sites passed (the reference's None, which
    (last Between) fails on): its effect notes -1 first."""
    for g, lud in enumerate(src.generator_luds):
        if (getattr(lud, "keyword", None), getattr(lud, "kind", None)) in (
                ("move", "Slide"), ("move", "Shoot")):
            src.generators[g][0].insert(0, "sc[LBN] = -1")


def _refuse_direct_writes(src, *blocks) -> None:
    """In a stacking game every write goes through the stacks' (`STACK_WRITES`): refuse a
    compiled form that writes a site's top-level view itself, or its piece's state."""
    dice = {str(s) for d in getattr(src.env, "dice", None) or () for s in d.sites}
    for line in [x for block in blocks for x in block] + src.helpers:
        if _DIRECT_WRITE.search(line):
            raise Unsupported(None, "a piece changed in place in a stacking game")
        if any(m.group(1) not in dice for m in _STATE_WRITE.finditer(line)):
            raise Unsupported(None, "a piece state changed in place in a stacking game")


# A statement writing a piece's state in place (`Source.piece_state` assigned). A die's
# face, its state, is written so (`dice`): its level's copy is no part of the position.
_STATE_WRITE = re.compile(r"\bsc\[STATE \+ ([^\]]*)\]\s*[-+]?=(?!=)")


def _initial_states(game, s0, depth: int, values: bool = False,
                    rotations: bool = False) -> list[int]:
    """The start's piece states as the kernels keep them: one per site, in a stacking game
    whose pieces have states (`depth`, its levels per site, not 0) then one per level and
    what each level was left with (`rt`, "the stacks' writes"); with `values`, then the
    sites' values (in a stacking game, the top levels' values, the levels keeping each its
    state and value in one word: `rt`'s `_word`); with `rotations` (a game without stacks,
    with values), then the sites' rotations."""
    if not depth:
        return list(s0.sites.state) + (list(s0.sites.value) if values else []) + (
            list(s0.sites.rotation) if rotations else [])
    total = game.total_sites
    levels, left = [0] * (total * depth), [0] * (total * depth)

    def word(state, value):
        return value * (1 << 32) + (state & 0xFFFFFFFF) if values else state
    for s in range(total):
        for i, lv in enumerate(s0.sites.stack(s)):
            levels[s * depth + i] = word(lv[2], lv[4])
        for i, data in enumerate(getattr(s0.sites, "residue", {}).get(s, ())):
            left[s * depth + i] = word(data[0], data[2])
    return list(s0.sites.state) + levels + left + (list(s0.sites.value) if values else [])


def _state_keys(game, depth: int, values: bool = False, rotations: bool = False) -> list[int]:
    """The hash keys of the states (`_initial_states`): none for what a level was left
    with, which is no part of the position (`StackSites.key`); then the values', then the
    rotations'."""
    keys = [random.Random(f"state {s}").getrandbits(62) * 2 + 1
            for s in range(game.total_sites)]
    if depth:
        # (in a stacking game the levels' words keep their values: the top values kept
        # after them add nothing to the position)
        n = game.total_sites * depth
        keys += [random.Random(f"level state {i}").getrandbits(62) * 2 + 1 for i in range(n)]
        return keys + [0] * n + ([0] * game.total_sites if values else [])
    if values:
        keys += [random.Random(f"value {s}").getrandbits(62) * 2 + 1
                 for s in range(game.total_sites)]
    if rotations:
        keys += [random.Random(f"rotation {s}").getrandbits(62) * 2 + 1
                 for s in range(game.total_sites)]
    return keys


# Values a decision (or the start rules) may draw from the chance stream before the playout
# loop records them.
DRAW_CAP = 64


def _hidden_size(game) -> int:
    """The size of the kernels' block of hidden flags (HID): a flag per datum, site and
    player (0 without hidden information)."""
    if not game.hidden_info:
        return 0
    from .rt import N_HIDDEN_DATA      # (rt imports numba: only where it is needed)
    return N_HIDDEN_DATA * game.total_sites * (game.num_players + 1)


def _start_hidden(game, s0) -> list[str]:
    """The reset lines of the start position's hidden flags (a start rule's (set Hidden
    ...))."""
    if not game.hidden_info:
        return []
    from .rt import hidden_datum
    n, total = game.num_players, game.total_sites
    lines = []
    for key, flags in sorted(s0.notes.items(), key=repr):
        if key[0] != "hidden":
            continue
        d = hidden_datum(key[1])
        lines += [f"    sc[HID + {(d * total + site) * (n + 1) + p}] = 1"
                  for site, p in sorted(flags)]
    return lines


def _start_lines(src, game) -> list[str]:
    """The start rules drawn for each new game (a `start` emitter's lines, run by `reset`
    after the fixed start position): the only place the kernels draw from the chance
    stream ((value Random) refuses elsewhere). The fixed part is the reference's start
    position, built once."""
    start = game.typed.rules.start if game.typed is not None else None
    lines: list[str] = []
    src.in_start = True
    try:
        for rule in (start.rules if start is not None else ()):
            if lookup("start", rule):
                emit("start", src, rule, lines, "    ")
            elif game.uses_chance and _draws(rule):
                # Its draws would be the reference's of seed 0, built into every game.
                raise Unsupported(rule, "drawing from the chance stream")
    finally:
        src.in_start = False
    return lines


def mentions(lud, classes: tuple) -> bool:
    """True when a ludeme or one of its arguments is of one of these classes."""
    if isinstance(lud, (list, tuple)):
        return any(mentions(x, classes) for x in lud)
    held = classes_held(lud)
    return any(issubclass(c, classes) for c in held)


def classes_held(lud) -> frozenset:
    """The classes of a ludeme and of every ludeme among its arguments, at any depth (empty
    for what is not a ludeme); kept on the ludeme, as its arguments never change once it
    is built: the rules ask it of the whole game again and again as they are written."""
    d = getattr(lud, "__dict__", None)
    if d is None or "_fields" not in d:
        return frozenset()
    held = d.get("_classes_held")
    if held is None:
        found = {type(lud)}
        for v in d["_fields"].values():
            found |= _classes_in(v)
        held = d["_classes_held"] = frozenset(found)
    return held


def _classes_in(v) -> frozenset:
    if isinstance(v, (list, tuple)):
        return frozenset().union(*(_classes_in(x) for x in v))
    return classes_held(v)


def _draws(lud) -> bool:
    """True when a ludeme or one of its arguments draws from the chance stream (its class
    says so: `draws_chance`)."""
    if isinstance(lud, (list, tuple)):
        return any(_draws(x) for x in lud)
    fields = getattr(lud, "_fields", None)
    if fields is None:
        return False
    return getattr(type(lud), "draws_chance", False) or any(_draws(v) for v in fields.values())


def _step_table(game, n_sites: int) -> tuple[list[int], list[int]]:
    """The Adjacent steps between the board's sites as (start, to) lists: site s steps to
    to[start[s]:start[s + 1]] (what `Topology.distance_rings` walks)."""
    nexts: list[list[int]] = [[] for _ in range(n_sites)]
    for a, b in game.board.default.steps("Adjacent"):
        if a < n_sites and b < n_sites:
            nexts[a].append(b)
    start = [0]
    for row in nexts:
        start.append(start[-1] + len(row))
    return start, [b for row in nexts for b in row]


LOOP = '''\
"""Generated by ludeme.engine.compiled.codegen: do not edit."""
import numpy as np
from numba import njit
from ludeme.engine.compiled.rt import (apply_result, apply_team_win, rank_by_score, timeout,
                                KernelFull, all_passed, is_line, is_line_by_level,
                                is_line_stacked, site_add,
                                site_clear, site_move, site_move_counted, site_move_n,
                                stack_at, stack_move_stack, stack_pieces, stack_pieces_of,
                                stack_insert, stack_take, stack_move_level, stack_holds,
                                stack_level_of, not_board_site, layer_place, layer_at, layer_test,
                                stack_state_at,
                                stack_move_level_st, stack_take_st, stack_insert_st,
                                stack_move_stack_st, stack_set_state_st, stack_insert_n,
                                stack_set_value_st, stack_value_at,
                                stack_insert_n_st, stack_set_top, stack_holds_kind,
                                note_decision,
                                site_add_st, site_clear_st, site_move_st,
                                site_move_counted_st, site_move_n_st,
                                mt_seed_block, rand_below, mt_seed_keys, chance_seed_keys,
                                playout_seed_of, MT_STATE_SIZE, SEED_BLOCK,
                                borrowed, keep_alive,
                                MOVER, NEXT, PREV, NUM_TURN, NUM_MOVES, NUM_DECISIONS, OVER,
                                WINNER, LAST_FROM, LAST_TO, END_TYPE, NWINNERS, NLOSERS,
                                LOSSES_DECIDED, NUM_START_MOVES, NUM_TURN_SAME, LAST_MOVER,
                                COUNTER, NUM_ACTIONS, LAST_TO_AFTER, LAST_FROM_AFTER,
                                NUM_SCALARS, WIN, LOSS, DRAW,
                                hash_one, hash_into, site_word, grown, step_distance,
                                popcount, series_figures, grown_rows, JOURNAL, JOURNAL_TAIL,
                                journal, restore, hidden_move, N_HIDDEN_DATA,
                                N_SERIES, S_PIECES, S_OCCUPIED, S_LEGAL, S_MULTI,
                                S_DISTANCE, S_SCORE)
{stack_writes}

NP = {n_players}
SCORE = NUM_SCALARS           # sc[SCORE + p]: player p's score
STALE = SCORE + NP + 1        # sc[STALE + p]: Ludii's stalemated flag of player p
ORDER = STALE + NP + 2        # sc[ORDER + p]: the seat playing as player p (the swap rule)
REPLAYED = ORDER + NP + 1     # sc[REPLAYED]: the decision being applied lets its mover go on
CLEAR = REPLAYED + 1          # sc[CLEAR + s]: site s is cleared at the end of the turn
PVAL = CLEAR + {total}        # sc[PVAL + p]: player p's value ((set Value <player> v))
VARS = PVAL + NP + 2          # sc[VARS + i]: the game's i-th variable ((set Var ...))
VISITED = VARS + {n_vars}       # sc[VISITED + visited_slot(s)]: s visited this turn
N_VISITED = {n_visited}
ALLP = VISITED + N_VISITED      # sc[ALLP]: every player's last turn was a pass (all_passed)
PENDN = ALLP + 1                # sc[PENDN]: how many values are pending ((set Pending ...))
PENDING = PENDN + 1             # sc[PENDING + v]: value v (0 to the last site) is pending
N_PENDING = {n_pending}
PWAS = PENDING + N_PENDING      # sc[PWAS], sc[PWAS + 1 + v]: the same, as before a move emptied
N_PWAS = {n_pwas}                # them, where an effect reads them (else as they are)
REM = PWAS + N_PWAS             # sc[REM + i * REM_STRIDE]: the i-th remembered list's block
N_REM = {n_rem}
REM_W = {rem_w}
REM_CAP = {rem_cap}             # sc[REM + i * REM_STRIDE + 1 + REM_W + k]: its k-th value, in order
REM_STRIDE = REM_W + 1 + REM_CAP
# The chance stream ((value Random)): its generator, as the reference's `State.rng`, and
# the values drawn by the decision being applied (`draw_int`), which the playout loop and
# `CompiledState` move to the row's record.
# sc[STATE + s]: the state of the piece at site s, in a game whose pieces have one
STATE = REM + N_REM * REM_STRIDE
N_STATE = len({init_state!r})
CHANCE = STATE + N_STATE      # sc[CHANCE:CHANCE + N_CHANCE]: the generator (MT19937)
N_CHANCE = {n_chance}
NDRAWS = CHANCE + N_CHANCE    # sc[NDRAWS]: values drawn since they were last moved out
DRAWS = NDRAWS + 1            # sc[DRAWS + i]: the i-th of them
DRAW_CAP = {draw_cap}
# Ludii's OnTrackIndices, in a game with a track that passes a site twice (`_on_track`):
# sc[TRK + (t * TRK_WHATS + w) * TRK_L + i]: the pieces of kind w recorded at index i of
# track t.
TRK = DRAWS + DRAW_CAP
N_TRK = {n_trk}
ACTV = TRK + N_TRK            # sc[ACTV + p]: player p is still active (`active`, kept here
N_ACTV = {n_active}               # after each turn where a rule reads it: (is Active ...))
LTN = ACTV + N_ACTV           # sc[LTN]: how many sites the last move went to ((sites LastTo))
LTS = LTN + 1                 # sc[LTS + i]: the i-th of them, in the order they came
N_LTS = {n_last_tos}
COV = LTS + N_LTS             # sc[COV + s]: a large piece covers board site s (Ludii's
N_COV = {n_cov}               # isEmpty: not empty, though no piece stands there)
# Hidden information ((set Hidden ...)): sc[HID + (d * TOTAL + s) * (NP + 1) + p] is 1
# where datum d (`hidden_datum`: the whole piece, What, Who, ...) of site s is hidden from
# player p.
HID = COV + N_COV
N_HID = {n_hidden}
NREM = HID + N_HID             # sc[NREM]: removals counted (a (max Captures)'s copies)
LBN = NREM + {n_removed}       # sc[LBN]: how many sites the last decision hopped over
LBS = LBN + 1                  # sc[LBS + i]: the i-th of them ((last Between); -1 in sc[LBN]
N_LBS = {n_last_between}                  # after a slide or a shot, which keep none)
GRPN = LBN + (N_LBS + 1 if N_LBS else 0)  # sc[GRPN]: the sites of the group a (forEach
GRP = GRPN + 1                # Group ...) visits; sc[GRP + i]: the i-th of them in
N_GRP = {n_grp}               # increasing order
GRPM = GRP + N_GRP            # sc[GRPM + s]: site s is one of them
# (no Repeat ...) (`record_position`): REPEAT 1 for Positional, 2 for PositionalInTurn, 0
# without; sc[SEENN] the positions recorded, sc[SEEN + i] the i-th one's key.
REPEAT = {repeat}
N_SEEN = {n_seen}
# sc[NMB]: a (no Moves ...) is being answered (`no_moves`): another met while its moves are
# generated (by the end rules of the positions a ranking of them searches) is false, as the
# reference's (Ludii's autoFail).
NMB = GRPM + N_GRP
SEENN = NMB + 1
SEEN = SEENN + (1 if N_SEEN else 0)
SC_SIZE = SEEN + N_SEEN
SWAPS = {swap_rule}            # a rule swaps the seats: they are in the position's key
N_SITES = {n_sites}
N_ELEMENTS = {n_elements}       # vertices, edges and cells of the board (BoardCoverageFull)
TOTAL = {total}
ROT = 2 * TOTAL     # sc[STATE + ROT + s]: the rotation of the piece at site s, in a game
                    # whose pieces turn (its states then keep values, then rotations)
# The sites the kernels keep: every container's (TOTAL), then the board's layers of other
# site types the game puts pieces on (`Game.layers`), as the reference's store.
STORE = {store}
# The marks a helper kernel keeps of the sites it lists (`Source.listed_by_loop`): over
# every container's site and every element of each site type (a region of another site
# type than the board's lists its elements by their own indices).
MARKS = {marks}
# A stacking game's levels (see ludeme.engine.compiled.rt, "sites (StackSites)"): DEPTH
# levels per site after the TOTAL top-level views of `who` and `what`, the heights after
# those of `count`.
STACKING = {stacking}
DEPTH = {depth}
WHO_SIZE = STORE * (1 + DEPTH)
COUNT_SIZE = STORE * (2 if STACKING else 1) + JOURNAL_TAIL
JN = COUNT_SIZE - 1        # count[JN]: the writes in the journal, count[JN - 1 - i] their sites
# Whether every write of the sites is journaled (`_journaled`): each state's figures then
# follow from the last state's and the sites written, else every site is read.
INCREMENTAL = None
# Tests set it (the kernels run as Python): each state's figures are checked against
# those read from every site.
CHECK_INCREMENTAL = False
LEVEL_KEYS = np.array({level_keys!r}, dtype=np.int64)
HAND_FROM = {hand_from}
MAX_TURNS = {max_turns}
MAX_MOVES = {max_moves}
OWNER = np.array({owner!r}, dtype=np.int64)
TEAM = np.array({team!r}, dtype=np.int64)    # player p's team ((set Team ...)), -1 for none
WHATS_SAME = np.array({whats_same!r}, dtype=np.bool_)
INIT_WHO = np.array({init_who!r}, dtype=np.int64)
INIT_WHAT = np.array({init_what!r}, dtype=np.int64)
INIT_COUNT = np.array({init_count!r} + [0] * JOURNAL_TAIL, dtype=np.int64)
INIT_STATE = np.array({init_state!r}, dtype=np.int64)
STATE_KEYS = np.array({state_keys!r}, dtype=np.int64)   # as SITE_KEYS, for the states
INIT_PHASE = np.array({init_phase!r}, dtype=np.int64)
PASS_GENS = {pass_gens!r}
GEN_KINDS = {gen_kinds!r}
# gen id -> the site types (from, to) of its moves where they are a layer's of another type
# than the board's (`Game.layers`: Ludii's Move fromType, toType), else None
GEN_TYPES = {gen_types!r}
GEN_LEVELS = {gen_levels!r}
GEN_TAGGED = {gen_tagged!r}
TAGGED = {tagged}
HISTORY = {history}
MAX_BUFFER = {max_buffer}
# Per site, a random odd multiplier: a position's key is the sum of its sites' words times
# theirs (wrapping), so two positions share a key by a 1-in-2^60 chance.
SITE_KEYS = np.array({site_keys!r}, dtype=np.int64)
# The Adjacent steps between board sites (MoveDistance): site s steps to
# STEP_TO[STEP_START[s]:STEP_START[s + 1]].
STEP_START = np.array({step_start!r}, dtype=np.int64)
STEP_TO = np.array({step_to!r}, dtype=np.int64)
{tables}


@njit(cache=True, inline="always")
def push(mf, mt, mg, mx, k, f, t, g, x):
    if k >= mf.shape[0]:
        raise KernelFull("more legal moves than the move buffer holds")
    mf[k] = f
    mt[k] = t
    mg[k] = g
    mx[k] = x
    return k + 1


@njit(cache=True)
def draw_int(sc, lo, hi):
    """`random.Random.randint(lo, hi)` on the chance stream, recorded as drawn."""
    if hi < lo:
        raise ValueError("(value Random ...): empty range")
    v = lo + rand_below(sc[CHANCE:CHANCE + N_CHANCE], hi - lo + 1)
    k = sc[NDRAWS]
    if k >= DRAW_CAP:
        raise KernelFull("more chance draws in one decision than the kernels keep")
    sc[DRAWS + k] = v
    sc[NDRAWS] = k + 1
    return v


@njit(cache=True)
def last_to_add(sc, site):
    """Note a board site the move being applied went to (once; none kept when no rule reads
    them): Ludii's SitesLastTo, as `State._note_last_tos`."""
    if N_LTS and 0 <= site < N_SITES:
        for i in range(sc[LTN]):
            if sc[LTS + i] == site:
                return
        sc[LTS + sc[LTN]] = site
        sc[LTN] += 1


@njit(cache=True)
def pend_add(sc, v):
    """Make value v pending (a set: once); a value past those kept (N_PENDING) is not."""
    if not 0 <= v < N_PENDING:
        raise KernelFull("a pending value past those the kernels keep")
    if sc[PENDING + v] == 0:
        sc[PENDING + v] = 1
        sc[PENDN] += 1


@njit(cache=True)
def rem_add(sc, base, v):
    """Remember value v once more (a multiset, and Ludii's list where its order is kept)."""
    if not 0 <= v < REM_W:
        raise KernelFull("a remembered value off the board's sites")
    if REM_CAP > 0:
        if sc[base] >= REM_CAP:
            raise KernelFull("more values remembered than the kernels keep in order")
        sc[base + 1 + REM_W + sc[base]] = v
    sc[base + 1 + v] += 1
    sc[base] += 1


@njit(cache=True)
def rem_forget(sc, base, v):
    """Forget value v once, if it is remembered (its first place in the list, as Ludii)."""
    if 0 <= v < REM_W and sc[base + 1 + v] > 0:
        if REM_CAP > 0:
            first = base + 1 + REM_W
            k = 0
            while k < sc[base] - 1 and sc[first + k] != v:
                k += 1
            sc[first + k:first + sc[base] - 1] = sc[first + k + 1:first + sc[base]].copy()
            sc[first + sc[base] - 1] = 0
        sc[base + 1 + v] -= 1
        sc[base] -= 1


@njit(cache=True)
def rem_clear(sc, base):
    sc[base:base + REM_STRIDE] = 0


@njit(cache=True)
def pending_one(sc):
    """`(value Pending)`: the pending value when exactly one is, else 0."""
    return pending_one_at(sc, PENDN)


@njit(cache=True)
def pending_was(sc):
    """`(value Pending)` read by a move's effect: as the move was generated (`sc[PWAS]`)."""
    return pending_one_at(sc, PWAS)


@njit(cache=True)
def pending_one_at(sc, base):
    """The one pending value of the block at `base` (their number, a flag per value), or 0."""
    if sc[base] == 1:
        for v in range(N_PENDING):
            if sc[base + 1 + v]:
                return v
    return 0


@njit(cache=True, inline="always")
def visited_slot(s):
    """The slot of a site in the sites visited this turn (one for every site off them,
    as the reference's set holds a pass's -1)."""
    return s if 0 <= s < TOTAL else TOTAL


@njit(cache=True{any_inline})
def legal_any(who, what, count, sc, phase):
    """True when the mover has a legal move (stops at the first)."""
{context}
    site = -1       # (site) outside the loops that bind it: undefined, as the reference
    ph = phase[mover]
{play_any}
    return False


@njit(cache=True{any_inline})
def no_moves(who, what, count, sc, phase, p):
    """`(no Moves p)`: p, moving now, would have no legal move. As Ludii's
    setMoverAndImpliedPrevAndNext, the previous player is the mover and the next one the
    player after p (of two players, the other one: not the mover, who may be moving
    again). Met while another's moves are generated, false (`NMB`)."""
    if sc[NMB]:
        return False
    pv, mv, nx = sc[PREV], sc[MOVER], sc[NEXT]
    sc[PREV] = mv
    sc[MOVER] = p
    sc[NEXT] = p % NP + 1
    sc[NMB] = 1
    found = legal_any(who, what, count, sc, phase)
    sc[NMB] = 0
    sc[PREV] = pv
    sc[MOVER] = mv
    sc[NEXT] = nx
    sc[STALE + p] = 0 if found else 1       # as State: the answer is p's stalemated flag
    return not found


{helpers}


@njit(cache=True, inline="always")
def legal(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, mg, mx):
{context}
    site = -1       # (site) outside the loops that bind it: undefined, as the reference
    k = 0
    ph = phase[mover]
    sc[STALE + mover] = 0      # the mover's moves are generated: not stalemated (as State)
{play}
{swap}
    if REPEAT:
        k = without_repeats(who, what, count, sc, phase, mf, mt, mg, mx, k)
    return k

{ranking}
@njit(cache=True, inline="always")
def effects(who, what, count, sc, phase, frm, to, g, x):
    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]
    # the last move is still the one before this one (`step` notes this one after), as
    # where the move was generated
    last_from, last_to = sc[LAST_FROM], sc[LAST_TO]
    btw = -1        # (between) where the move's generator gives none (else x)
{effects}


@njit(cache=True, inline="always")
def consequents(who, what, count, sc, phase, g):
    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]
    last_from, last_to = sc[LAST_FROM], sc[LAST_TO]
    btw = -1
{consequents}


@njit(cache=True, inline="always")
def end_rules(who, what, count, sc, rk, active, phase):
{context}
    ph = phase[mover]
{phase_end}
{game_end}


@njit(cache=True, inline="always")
def next_phases(who, what, count, sc, phase):
{context}
    for pid in range(1, NP + 1):
        ph = phase[pid]
        done = False
{next_phases}


@njit(cache=True, inline="always")
def applied(who, what, count, sc, phase, frm, to, g, x, mover):
    """The decision (frm, to) of generator g applied, its consequents after, the move noted
    as the last one, made by `mover` (a decision none of whose actions has a destination is
    its own last one after its consequents: State._note_after)."""
    sc[LAST_TO_AFTER], sc[LAST_FROM_AFTER] = to, frm
    if N_LBS:                       # none jumped but by a hop (its effect notes them)
        sc[LBN] = 0
    if N_LTS:                       # the decision's destination first (a hand's too)
        sc[LTN] = 0
        if to >= 0:
            sc[LTS] = to
            sc[LTN] = 1
    if g >= 0:
        effects(who, what, count, sc, phase, frm, to, g, x)
    sc[LAST_FROM] = frm
    sc[LAST_TO] = to
    sc[LAST_MOVER] = mover
    if g >= 0:
        consequents(who, what, count, sc, phase, g)


@njit(cache=True, inline="always")
def step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, frm, to, g, x):
    """Apply the decision (frm, to) of generator g (-1: a forced pass): the steps of
    ludeme.engine.turns.TURN, as State.apply takes them."""
    mover = sc[MOVER]
    sc[REPLAYED] = 0
    is_pass = g in PASS_GENS
    # turn: record
    if N_PWAS:                      # as the move's effects read them (see PWAS)
        sc[PWAS:PWAS + N_PWAS] = sc[PENDN:PENDING + N_PENDING]
    if N_PENDING and sc[PENDN]:     # Ludii reboots the pending values before each move
        sc[PENDN:PENDING + N_PENDING] = 0
    if is_pass and sc[STALE + mover] == 0:
        # A pass marks the mover stalemated when the phase gave no move (a forced pass).
        sc[STALE + mover] = 1 if g < 0 else 0
{pass_draws}
    if {keeps_history}:
        hist_mover[sc[NUM_DECISIONS]] = mover
        hist_pass[sc[NUM_DECISIONS]] = is_pass
    sc[NUM_MOVES] += 1
    sc[NUM_DECISIONS] += 1
    if {reads_all_passed}:          # what (all Passed) reads until the next decision
        sc[ALLP] = all_passed(hist_mover, hist_pass, sc[NUM_DECISIONS], NP,
                              sc[NUM_START_MOVES])
    if is_pass:
        sc[NUM_ACTIONS] += 1        # the pass's one action (a pass generator writes none)
    # turn: actions (`applied`: the decision's effects)
    # turn: consequents (`applied`, after the effects)
    applied(who, what, count, sc, phase, frm, to, g, x, mover)
    if N_PWAS:                      # a move's effects tried elsewhere read them as they are
        sc[PWAS:PWAS + N_PWAS] = sc[PENDN:PENDING + N_PENDING]
    # turn: end-of-turn removals
    if {sequence_capture} and sc[REPLAYED] == 0:
        # A decision that does not let its mover go on ends the sequence: every site
        # marked on the way is cleared now.
        for s in range(TOTAL):
            if sc[CLEAR + s]:
{clear_marked}
                sc[CLEAR + s] = 0
    # turn: end rules
    end_rules(who, what, count, sc, rk, active, phase)
    if N_ACTV:
        sc[ACTV:ACTV + N_ACTV] = active
    # turn: all pass
    if {requires_all_pass} and not sc[OVER] and all_passed(hist_mover, hist_pass,
                                                             sc[NUM_DECISIONS], NP,
                                                             sc[NUM_START_MOVES]):
        apply_result(sc, rk, active, NP, 0, 3)
    # turn: limits
    if not sc[OVER] and (sc[NUM_TURN] >= MAX_TURNS * NP
                         or sc[NUM_MOVES] - sc[NUM_START_MOVES] >= MAX_MOVES):
        timeout(sc, rk, active, NP, MAX_TURNS)
    # turn: phases
    if sc[OVER]:
        sc[PREV] = mover
    else:
        next_phases(who, what, count, sc, phase)
    # turn: next mover
    sc[COUNTER] += 1
    if not sc[OVER]:
        if N_VISITED:
            # The sites a turn passes through, kept while the mover moves again.
            if sc[MOVER] != sc[NEXT]:
                sc[VISITED:VISITED + N_VISITED] = 0
            else:
                sc[VISITED + visited_slot(frm)] = 1
                sc[VISITED + visited_slot(to)] = 1
        sc[PREV] = mover
        sc[MOVER] = sc[NEXT]
        if sc[PREV] == sc[MOVER]:
            sc[NUM_TURN_SAME] += 1
        else:
            sc[NUM_TURN_SAME] = 0
            sc[NUM_TURN] += 1
        nx = sc[MOVER] % NP + 1
        while not active[nx]:
            nx = nx % NP + 1
        sc[NEXT] = nx
    if N_ACTV:
        sc[ACTV:ACTV + N_ACTV] = active
    # turn: repetition
    if REPEAT:
        record_position(who, what, count, sc)


@njit(cache=True, inline="always")
def reset(who, what, count, sc, rk, active, phase, seed):
    """The position after the start rules (State after Game.new_initial_state(seed): `seed`
    seeds the chance stream)."""
    who[:] = INIT_WHO
    what[:] = INIT_WHAT
    count[:] = INIT_COUNT
    sc[:] = 0
    sc[MOVER] = {init_mover}
    sc[NEXT] = {init_next}
    sc[NUM_TURN] = 1
    sc[NUM_MOVES] = {num_start_moves}
    sc[NUM_START_MOVES] = {num_start_moves}
    sc[LAST_FROM] = -1
    sc[LAST_TO] = -1
    sc[LAST_TO_AFTER] = -1
    sc[LAST_FROM_AFTER] = -1
    sc[COUNTER] = -1
    for p in range(NP + 1):
        sc[ORDER + p] = p
    sc[PVAL:VISITED] = -1       # values and variables: -1 until set
    sc[STATE:STATE + N_STATE] = INIT_STATE
{init_scores}
    if N_CHANCE:
        key0, key1 = chance_seed_keys(seed)
        mt_seed_keys(sc[CHANCE:CHANCE + N_CHANCE], key0, key1)
    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]
{start}
    rk[:] = 0.0
    active[:] = 1
    active[0] = 0
    if N_ACTV:
        sc[ACTV:ACTV + N_ACTV] = active
    phase[:] = INIT_PHASE
    if REPEAT:
        record_position(who, what, count, sc)


@njit(cache=True, inline="always")
def legal_or_pass(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, mg, mx):
    """The legal moves into the buffers, or a forced pass (-1, -1) when there are none."""
    k = legal(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, mg, mx)
    if k == 0:
        mf[0] = -1
        mt[0] = -1
        mg[0] = -1
        mx[0] = -1
        k = 1
    return k


# A phase whose moves are only placements on the empty board sites (`_fast_add`): the
# playout loop draws the c-th empty site without listing the moves.
FAST_ADD = {fast_add}


@njit(cache=True, inline="always")
def fast_count(who, what, count, sc, phase, n_empty):
    """(k, g): the mover's k placements on the `n_empty` empty board sites, of generator g,
    where the mover's phase lists only those (its side effects on the state as `legal`'s);
    (-1, -1) where `legal` must list them."""
{context}
    ph = phase[mover]
{fast_body}
    return -1, -1


@njit(cache=True, inline="always")
def nth_empty(what, c):
    """The c-th empty board site, in increasing order (as `legal` lists them): counted
    down without a branch on each site (whether it is empty is a coin's toss)."""
    for s in range(N_SITES):
        c -= what[s] == 0
        if c < 0:
            return s
    return -1


@njit(cache=True)
def rollout(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, rng, limit,
            mf, mt, mg, mx):
    """Uniformly random moves (drawn as `random.Random.randrange` from the generator `rng`)
    until the end or `limit` moves: a search agent's rollout. The moves played."""
    played = 0
    while played < limit and not sc[OVER]:
        k = legal_or_pass(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, mg, mx)
        c = rand_below(rng, k)
        step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, mf[c], mt[c],
             mg[c], mx[c])
        played += 1
    return played


@njit(cache=True)
def walk_sites(who, what, count, sc, covered):
    """A state's figures read from every site: (empty board sites, pieces on them, the key
    of the sites and stacks, the key of the piece states, board sites newly `covered`)."""
    empty = 0
    pieces = 0
    newly = 0
    for s in range(N_SITES):
        if what[s] == 0:
            empty += 1
        elif not covered[s]:
            covered[s] = True
            newly += 1
        pieces += count[TOTAL + s] if STACKING else count[s]
    return empty, pieces, sites_hash(who, what, count), states_hash(sc), newly


@njit(cache=True)
def sites_hash(who, what, count):
    """The key of the sites and stacks (a sum over them: `playouts` keeps it up to date from
    the sites written)."""
    h = np.int64(0)
    for s in range(STORE):
        h += site_word(who[s], what[s], count[s]) * SITE_KEYS[s]
    if STACKING:        # every level of every stack
        for s in range(TOTAL):
            for i in range(TOTAL + s * DEPTH, TOTAL + s * DEPTH + count[TOTAL + s]):
                h += site_word(who[i], what[i], 0) * LEVEL_KEYS[i - TOTAL]
    return h


@njit(cache=True)
def states_hash(sc):
    """The key of the piece states (and values)."""
    h = np.int64(0)
    for s in range(N_STATE):
        h += sc[STATE + s] * STATE_KEYS[s]
    return h


@njit(cache=True)
def position_hash(who, what, count, sc, h_sites):
    """The position's key as (no Repeat ...) reads it (`repetition.position_key`): its sites'
    key `h_sites`, the piece states' and, where a rule swaps them, the seats (as the
    playouts' positional key)."""
    h = h_sites + states_hash(sc)
    if SWAPS:
        h = hash_into(h, sc[ORDER:ORDER + NP + 1])
    return h


@njit(cache=True)
def seen_position(sc, h):
    """The position of key `h` is among those recorded for (no Repeat ...)."""
    return np.any(sc[SEEN:SEEN + sc[SEENN]] == h)


@njit(cache=True)
def record_position(who, what, count, sc):
    """After a decision (or the start rules): the position recorded for (no Repeat ...), as
    `repetition.record_position`: in the game where the turn passed (Positional), in the
    turn's own record, begun again with each new turn (PositionalInTurn)."""
    if REPEAT == 1 and sc[MOVER] == sc[PREV]:
        return
    if REPEAT == 2 and sc[MOVER] != sc[PREV]:
        sc[SEENN] = 0
    h = position_hash(who, what, count, sc, sites_hash(who, what, count))
    if seen_position(sc, h):
        return
    n = sc[SEENN]
    if n >= N_SEEN:
        raise KernelFull("more positions recorded for (no Repeat) than the kernels keep")
    sc[SEEN + n] = h
    sc[SEENN] = n + 1


@njit(cache=True)
def without_repeats(who, what, count, sc, phase, mf, mt, mg, mx, k):
    """The k moves in the buffers less those (passes aside) whose position after them,
    consequents included, was recorded (`repetition.without_repeats`); how many are left.
    Each is applied to a copy of the position; the key after it is the position's changed by
    the sites it wrote (their journal, `rt.JOURNAL`) where every write is journaled."""
    if sc[SEENN] == 0:
        return k
    mover = sc[MOVER]
    h0 = sites_hash(who, what, count)
    kept = 0
    for i in range(k):
        g = mg[i]
        keep = g in PASS_GENS
        if not keep:
            w2, wt2, c2, s2, p2 = who.copy(), what.copy(), count.copy(), sc.copy(), phase.copy()
            c2[JN] = 0
            applied(w2, wt2, c2, s2, p2, mf[i], mt[i], g, mx[i], mover)
            n = c2[JN]
            if INCREMENTAL and not STACKING and n <= JOURNAL:
                h = h0
                for j in range(n):
                    s = c2[JN - 1 - j]
                    first = True
                    for j2 in range(j):
                        if c2[JN - 1 - j2] == s:
                            first = False
                    if first:
                        h += (site_word(w2[s], wt2[s], c2[s])
                              - site_word(who[s], what[s], count[s])) * SITE_KEYS[s]
            else:
                h = sites_hash(w2, wt2, c2)
            if CHECK_INCREMENTAL:
                assert h == sites_hash(w2, wt2, c2), "incremental figures"
            keep = not seen_position(sc, position_hash(w2, wt2, c2, s2, h))
        if keep:
            mf[kept], mt[kept], mg[kept], mx[kept] = mf[i], mt[i], mg[i], mx[i]
            kept += 1
    return kept


# The turn's kernels are inlined (numba IR) into the playout loop: a call passes every
# array and counts its references, which cost Tic-Tac-Toe 15% of its playout.
@njit(cache=True)
def playouts(seed_words, first, n, out_i, out_f, rk_out, draw_end):
    """Playouts first..first+n-1 of a run: integer and float columns of their rows; the
    chance outcomes of them all, returned, playout r's ending at `draw_end[r]`."""
    drawn = np.empty(64 if N_CHANCE else 1, np.int64)
    n_drawn = 0
    who = np.empty(WHO_SIZE, np.int64)
    what = np.empty(WHO_SIZE, np.int64)
    count = np.empty(COUNT_SIZE, np.int64)
    sc = np.zeros(SC_SIZE, np.int64)
    rk = np.zeros(NP + 1, np.float64)
    active = np.zeros(NP + 1, np.int8)
    phase = np.zeros(NP + 1, np.int64)
    covered = np.zeros(N_SITES, np.bool_)
    # The arrays at the last state (INCREMENTAL): a state's figures are the last one's
    # changed by the sites written since, whose last values these keep
    was_who = np.empty(WHO_SIZE if INCREMENTAL else 0, np.int64)
    was_what = np.empty(WHO_SIZE if INCREMENTAL else 0, np.int64)
    was_count = np.empty(COUNT_SIZE if INCREMENTAL else 0, np.int64)
    was_state = np.empty(N_STATE if INCREMENTAL else 0, np.int64)
    state_empty = 0
    state_pieces = 0
    h_sites = np.int64(0)
    h_state = np.int64(0)
    # a row per series (rt.SERIES_ROWS) and per key (positions, situations): the
    # figures of a playout are worked out by one call with few arrays (`series_figures`)
    series = np.empty((N_SERIES, 256), np.float64)
    keys = np.empty((2, 256), np.int64)
    sorted_f = np.empty(256, np.float64)
    sorted_i = np.empty(512, np.int64)     # the table of `repeats`: twice the keys
    queue = np.empty(N_SITES, np.int64)
    seen = np.full(N_SITES, -1, np.int64)
    stamp = 0
    mf = np.empty(MAX_BUFFER, np.int64)
    mt = np.empty(MAX_BUFFER, np.int64)
    mg = np.empty(MAX_BUFFER, np.int64)
    mx = np.empty(MAX_BUFFER, np.int64)
    hist_mover = np.empty(HISTORY, np.int64)
    hist_pass = np.empty(HISTORY, np.bool_)
    rngs = np.zeros((MT_STATE_SIZE, SEED_BLOCK), np.uint32)    # as mt_seed_block seeds them
    seeds = np.zeros(SEED_BLOCK, np.int64)
    # The working arrays, used borrowed (`rt.borrowed`: no atomic count of their
    # references in every step), kept alive by `kept` to the end (the arguments by the
    # caller; never `drawn`, whose slice is returned).
    kept = (who, what, count, sc, rk, active, phase, covered, was_who, was_what, was_count,
            was_state, queue, seen, mf, mt, mg, mx, hist_mover, hist_pass, rngs, seeds,
            series, keys, sorted_f, sorted_i)
    series, keys = borrowed(series), borrowed(keys)
    sorted_f, sorted_i = borrowed(sorted_f), borrowed(sorted_i)
    out_i, out_f, rk_out = borrowed(out_i), borrowed(out_f), borrowed(rk_out)
    draw_end, seed_words = borrowed(draw_end), borrowed(seed_words)
    who, what, count, sc = borrowed(who), borrowed(what), borrowed(count), borrowed(sc)
    rk, active, phase, covered = borrowed(rk), borrowed(active), borrowed(phase), borrowed(covered)
    was_who, was_what = borrowed(was_who), borrowed(was_what)
    was_count, was_state = borrowed(was_count), borrowed(was_state)
    queue, seen, rngs, seeds = borrowed(queue), borrowed(seen), borrowed(rngs), borrowed(seeds)
    mf, mt, mg, mx = borrowed(mf), borrowed(mt), borrowed(mg), borrowed(mx)
    hist_mover, hist_pass = borrowed(hist_mover), borrowed(hist_pass)
    for r in range(n):
        index = first + r
        b = r % SEED_BLOCK
        if b == 0:
            block = min(SEED_BLOCK, n - r)
            for j in range(block):
                seeds[j] = playout_seed_of(seed_words, index + j)
            mt_seed_block(rngs, seeds, block)
        seed = seeds[b]
        rng = rngs[:, b]
        reset(who, what, count, sc, rk, active, phase, seed)
        empty_sum = 0
        pieces_sum = 0
        uncovered = N_SITES
        covered[:] = False
        decisions = 0
        legal_sum = 0
        multi_sum = 0
        multi_count = 0
        n_dist = 0
        while True:
            if N_CHANCE:            # the chance outcomes of the start rules or the decision
                for i in range(sc[NDRAWS]):
                    drawn = grown(drawn, n_drawn)
                    drawn[n_drawn] = sc[DRAWS + i]
                    n_drawn += 1
                sc[NDRAWS] = 0
            # s0..sL: the per-state figures (ludeme.engine.figures), each state once
            if INCREMENTAL and decisions > 0 and count[JN] <= JOURNAL:
                for j in range(count[JN]):      # the sites written since the last state
                    s = count[JN - 1 - j]
                    if STACKING:        # its levels below its height
                        lo = TOTAL + s * DEPTH
                        d = count[TOTAL + s] ^ was_count[TOTAL + s]
                        for i in range(lo, lo + DEPTH):
                            d |= (who[i] ^ was_who[i]) | (what[i] ^ was_what[i])
                        if d != 0:
                            for i in range(lo, lo + was_count[TOTAL + s]):
                                h_sites -= site_word(was_who[i], was_what[i], 0) * LEVEL_KEYS[i - TOTAL]
                            for i in range(lo, lo + count[TOTAL + s]):
                                h_sites += site_word(who[i], what[i], 0) * LEVEL_KEYS[i - TOTAL]
                            was_who[lo:lo + DEPTH] = who[lo:lo + DEPTH]
                            was_what[lo:lo + DEPTH] = what[lo:lo + DEPTH]
                    d = (who[s] ^ was_who[s]) | (what[s] ^ was_what[s]) | (count[s] ^ was_count[s])
                    if STACKING:
                        d |= count[TOTAL + s] ^ was_count[TOTAL + s]
                    if d == 0:          # unchanged, or already counted
                        continue
                    h_sites += (site_word(who[s], what[s], count[s])
                                - site_word(was_who[s], was_what[s], was_count[s])) * SITE_KEYS[s]
                    if s < N_SITES:
                        if was_what[s] == 0:
                            state_empty -= 1
                        if what[s] == 0:
                            state_empty += 1
                        elif not covered[s]:
                            covered[s] = True
                            uncovered -= 1
                        if STACKING:
                            state_pieces += count[TOTAL + s] - was_count[TOTAL + s]
                        else:
                            state_pieces += count[s] - was_count[s]
                    was_who[s] = who[s]
                    was_what[s] = what[s]
                    was_count[s] = count[s]
                    if STACKING:
                        was_count[TOTAL + s] = count[TOTAL + s]
                for s in range(N_STATE):            # piece states: written in place
                    if sc[STATE + s] != was_state[s]:
                        h_state += (sc[STATE + s] - was_state[s]) * STATE_KEYS[s]
                        was_state[s] = sc[STATE + s]
            else:
                state_empty, state_pieces, h_sites, h_state, newly = walk_sites(
                    who, what, count, sc, covered)
                uncovered -= newly
                if INCREMENTAL:
                    was_who[:] = who
                    was_what[:] = what
                    was_count[:] = count
                    was_state[:] = sc[STATE:STATE + N_STATE]
            if INCREMENTAL:
                count[JN] = 0
            if CHECK_INCREMENTAL:
                assert walk_sites(who, what, count, sc, covered.copy()) == (
                    state_empty, state_pieces, h_sites, h_state, 0), "incremental figures"
            h = h_sites + h_state
            empty_sum += state_empty
            pieces_sum += state_pieces
            if decisions >= series.shape[1]:         # a longer playout than any before
                series = grown_rows(series, decisions)
                keys = grown_rows(keys, decisions)
                sorted_f = grown(sorted_f, decisions)
                sorted_i = grown(sorted_i, decisions)
            series[S_PIECES, decisions] = state_pieces
            series[S_OCCUPIED, decisions] = (N_SITES - state_empty) / N_SITES
            hi = sc[SCORE + 1]
            lo = hi
            for p in range(2, NP + 1):
                hi = max(hi, sc[SCORE + p])
                lo = min(lo, sc[SCORE + p])
            series[S_SCORE, decisions] = hi - lo
            if {swap_rule}:
                h = hash_into(h, sc[ORDER:ORDER + NP + 1])
            keys[0, decisions] = h
            h = hash_one(hash_one(hash_one(h, sc[MOVER]), sc[NEXT]), sc[PREV])
            h = hash_into(hash_one(hash_into(h, active), sc[OVER]), sc[SCORE + 1:SCORE + NP + 1])
            keys[1, decisions] = hash_one(h, sc[NUM_TURN_SAME])
            if sc[OVER]:
                break
            k, g = fast_count(who, what, count, sc, phase, state_empty) if FAST_ADD else (-1, -1)
            if k > 0:
                c = rand_below(rng, k)
                f = nth_empty(what, c)
                t = f
                x = -1
            else:
                k = legal_or_pass(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, mg, mx)
                c = rand_below(rng, k)
                f, t, g, x = mf[c], mt[c], mg[c], mx[c]
            series[S_LEGAL, decisions] = k
            decisions += 1
            legal_sum += k
            if k > 1:
                series[S_MULTI, multi_count] = k
                multi_sum += k
                multi_count += 1
            step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, f, t, g, x)
            if 0 <= f < N_SITES and 0 <= t < N_SITES and f != t:
                stamp += 1
                series[S_DISTANCE, n_dist] = step_distance(STEP_START, STEP_TO, f, t, queue, seen, stamp)
                n_dist += 1
        states = decisions + 1
        out_i[r, 0] = index
        out_i[r, 1] = seed
        out_i[r, 2] = sc[WINNER]
        out_i[r, 3] = sc[END_TYPE]
        out_i[r, 4] = sc[NUM_TURN]
        out_i[r, 5] = sc[NUM_DECISIONS]
        out_i[r, 6] = multi_count
        out_i[r, 7] = sc[NUM_ACTIONS]
        draw_end[r] = n_drawn
        out_f[r, 0] = legal_sum / decisions if decisions else 0.0
        out_f[r, 1] = multi_count / decisions if decisions else 0.0
        out_f[r, 2] = multi_sum / multi_count if multi_count else 0.0
        out_f[r, 3] = (N_SITES - uncovered) / N_SITES
        out_f[r, 4] = pieces_sum / states
        out_f[r, 5] = 1.0 - empty_sum / states / N_SITES
        out_f[r, 6] = (N_SITES - uncovered) / N_ELEMENTS
        series_figures(out_f, r, keys, series, states, decisions, multi_count, n_dist,
                       sorted_i, sorted_f)
        for p in range(NP + 1):
            rk_out[r, p] = rk[p]
    keep_alive(kept)
    return drawn[:n_drawn]
'''
