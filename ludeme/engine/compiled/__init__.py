"""The compiled backend: a game's rules as numba kernels, the whole playout in machine code.

`build_kernels(game)` generates a module specialised to the game from its typed
ludemes (`ludeme.engine.compiled.codegen`), stores it under a name made of the hash of
its text (so numba's `cache=True` keeps the machine code across processes and
runs), imports it and warms it up. A playout there makes the same choices as the
reference engine (`ludeme.analysis.playouts.play_one`: the same seeds, `random.Random(seed)`'s
`randrange` over the legal moves in the same order) and gives the same row; the
tests and `ludeme crosscheck --backend compiled` check it.

`select(game, backend)` picks the backend: "compiled" or "reference" forces one,
"auto" takes the compiled one when the game's ludemes all have a compiled form and
says once, on stderr, why not otherwise.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ..notation import Siblings, move_text
from .jitflag import jit_off
from .unsupported import Unsupported, run_refused

BACKENDS = ("auto", "reference", "compiled")

_REPORTED: set = set()


def _kernel_columns() -> dict[str, int]:
    """The per-state metric columns of the whole-playout kernel's float output, by index (the
    generated `playouts` writes them in this order; the series' aggregates from column 9)."""
    from ludeme.engine.figures import AGGREGATES, SERIES, series_column
    cols = {name: i for i, name in enumerate((
        "branching_factor", "decision_moves", "decision_factor", "board_coverage",
        "piece_number", "board_sites_occupied", "board_coverage_full",
        "positional_repetition", "situational_repetition"))}
    first = len(cols)
    for i, series in enumerate(SERIES):
        for j, aggregate in enumerate(AGGREGATES):
            cols.setdefault(series_column(series, aggregate), first + i * len(AGGREGATES) + j)
    return cols


KERNEL_FLOATS = _kernel_columns()
# The per-state metric columns (`ludeme.engine.figures.PER_STATE`) the kernels compute.
KERNEL_FIGURES = ("decisions_multi", *KERNEL_FLOATS)


# The most legal moves a compiled state lists at once (its buffers grow to hold them).
MAX_LISTED = 1 << 22


class CompiledGame:
    """A game's generated kernels: `playouts(seed, first, n)` gives the columns of their rows."""

    def __init__(self, game, module, compile_seconds: float, digest: str):
        self.game = game
        self.module = module
        self.compile_seconds = compile_seconds
        self.digest = digest
        self.path: Path | None = None      # the generated module's file
        self.warmed = False                # the whole-playout kernel is compiled
        import numpy as np
        # The move buffers a state's `legal` fills (its moves are copied out at once).
        self.buffers = [np.empty(module.MAX_BUFFER, np.int64) for _ in range(4)]
        self._pass_gens = frozenset(module.PASS_GENS) | {-1}
        self._kinds = [frozenset(k) for k in module.GEN_KINDS]
        self._types = list(module.GEN_TYPES)    # per generator: its moves' site types
        self._specs: dict[tuple, tuple] = {}   # (from, to, gen, extra) -> a move's spec

    def warm(self) -> None:
        """Compile the kernel of whole playouts now (or load it from numba's cache), once;
        the time it takes is added to `compile_seconds`, and the module marked ready
        (`ready_mark`)."""
        if not self.warmed:
            t0 = time.perf_counter()
            warm_up(self.module)
            self.warmed = True
            if self.path is not None:
                ready_mark(self.path).touch()
            self.compile_seconds += time.perf_counter() - t0

    def legal_of(self, state: "CompiledState") -> list["CompiledMove"]:
        """The legal moves of a state (not over): a forced pass when there are none."""
        while True:
            buf = self.buffers
            try:
                k = self.module.legal(state.who, state.what, state.count, state.sc,
                                      state.phase, state.hist_mover, state.hist_pass, *buf)
                break
            except self.module.KernelFull:       # (the generated module's, rt's)
                # more moves than the buffers hold (listing them changes nothing of the
                # state): listed again into buffers twice as long, up to MAX_LISTED moves
                if len(buf[0]) >= MAX_LISTED:
                    raise
                import numpy as np
                self.buffers = [np.empty(2 * len(buf[0]), np.int64) for _ in range(4)]
            except ValueError as e:
                _run_refusal(e)
        if k == 0:
            return LegalMoves([_PASS])
        specs, out = self._specs, []
        for key in zip(*(b[:k].tolist() for b in buf)):
            spec = specs.get(key)
            if spec is None:
                f, t, g, x = key
                spec = specs[key] = (f, t, g, x, g in self._pass_gens, self._kinds[g],
                                     self._types[g] if g >= 0 else None)
            out.append(spec)
        if self.module.STACKING:
            out = [spec + self._levels(state, spec) for spec in out]
        return LegalMoves(out)

    def _levels(self, state: "CompiledState", spec: tuple) -> tuple[int, int]:
        """The levels a stacking game's move reports, by its generator's rule (`codegen.LV_*`)
        on the stacks it was generated from."""
        from ludeme.engine.compiled.emit import (LEVEL_PAIR, LV_ADD, LV_AT, LV_GIVEN, LV_PAIR,
                                                 LV_SUB, LV_TOP, LV_TOPS)
        m, (f, t, g, x) = self.module, spec[:4]
        rule = m.GEN_LEVELS[g] if g >= 0 else None
        if g >= 0 and m.GEN_TAGGED[g]:      # a die's tag kept beside (`emit.TAGGED`)
            x = x // m.TAGGED - 1
        if rule == LV_TOP and 0 <= f < m.N_SITES:
            return int(state.count[m.TOTAL + f]) - 1, 0
        if rule == LV_SUB:
            return int(state.count[m.TOTAL + f]) - x, int(state.count[m.TOTAL + t])
        if rule == LV_GIVEN:
            return max(int(x), 0), 0
        if rule == LV_AT:
            return max(int(x), 0), max(int(x), 0)
        if rule == LV_PAIR:
            return max(int(x) // LEVEL_PAIR - 1, 0), max(int(x) % LEVEL_PAIR - 1, 0)
        if rule == LV_TOPS and f >= 0 and t >= 0:
            return (max(int(state.count[m.TOTAL + f]) - 1, 0),
                    max(int(state.count[m.TOTAL + t]) - 1, 0))
        if rule == LV_ADD and t >= 0:
            height = int(state.count[m.TOTAL + t])
            return height, height
        return 0, 0

    def new_initial_state(self, seed: int | None = None,
                          forced_places: dict[int, list[int]] | None = None) -> CompiledState:
        """The start position, to play step by step; `seed` seeds the chance stream (as
        `Game.new_initial_state(seed)`); `forced_places` fixes where the start's random
        placements put each piece (as the reference's: `ludeme crosscheck` replays a
        recorded start so)."""
        state = CompiledState(self, seed or 0)
        if forced_places:
            state.start_as(self.game.new_initial_state(seed, forced_places=forced_places),
                           seed or 0)
        return state

    def playouts(self, seed: int, first: int, n: int) -> dict:
        """Columns (numpy arrays) of playouts first..first+n-1 of a run with seed `seed`;
        `end_code` indexes `rt.END_TYPE_NAMES`."""
        import numpy as np

        from ludeme.engine.compiled import rt
        np_ = self.module.NP
        # Column-major, so that each column is one contiguous array; never fewer than two
        # rows, since numba types a one-row array as row-major and would compile the
        # kernel a second time for it.
        rows = max(n, 2)
        out_i = np.zeros((rows, 8), dtype=np.int64, order="F")
        out_f = np.zeros((rows, 1 + max(KERNEL_FLOATS.values())), dtype=np.float64, order="F")
        ranks = np.zeros((rows, np_ + 1), dtype=np.float64, order="F")
        draw_end = np.zeros(rows, dtype=np.int64)
        t0 = time.perf_counter()
        drawn = self.module.playouts(rt.int_words(seed), first, n, out_i, out_f, ranks,
                                     draw_end)
        out_i, out_f, ranks = out_i[:n], out_f[:n], ranks[:n]
        seconds = time.perf_counter() - t0
        end = out_i[:, 3]
        cols = {
            "index": out_i[:, 0], "seed": out_i[:, 1], "winner": out_i[:, 2],
            "end_code": end,
            "timeout": (end == rt.END_TURN_LIMIT) | (end == rt.END_MOVE_LIMIT),
            "turns": out_i[:, 4], "moves": out_i[:, 5], "decisions_multi": out_i[:, 6],
            "actions": out_i[:, 7],
            **{name: out_f[:, i] for name, i in KERNEL_FLOATS.items()},
            "ranks": ranks[:, 1:], "seconds": np.full(n, seconds / n if n else 0.0),
            # each playout's chance outcomes: drawn[draw_end[r - 1]:draw_end[r]]
            "drawn": drawn, "draw_end": draw_end[:n],
        }
        return cols


_PASS = (-1, -1, -1, -1, True, frozenset(), None)      # the forced pass's spec


def _run_refusal(e: ValueError):
    """A kernel's ValueError: a position refused at run time (`RUN_REFUSAL`) raised as the
    reference's refusal (a `LudemeError`, "... is not supported yet"), not a crash."""
    what = run_refused(e)
    if what is None:
        raise e
    from ...errors import LudemeError
    raise LudemeError(f"{what} is not supported yet") from e


class CompiledMove:
    """A legal move of a `CompiledState`: (from, to) as Ludii numbers them, and the generator
    (a branch of the generated `effects`) that applies it, with the generator's action kinds
    (`kinds`, the engine's codes A_ADD, ...). Each position has its own objects, so that
    `str(move)` names a move among its own siblings; what they hold (`spec`) is made once
    per distinct move."""

    __slots__ = ("frm", "to", "gen", "extra", "is_pass", "kinds", "named", "level_from",
                 "level_to", "site_types")

    def __init__(self, spec: tuple):
        self.frm, self.to, self.gen, self.extra, self.is_pass, self.kinds = spec[:6]
        # (from, to) site types of a move to a layer of another type than the board's (as
        # `Move.site_types`: read with `Game.site_types`), else None
        self.site_types = spec[6]
        # a stacking game's levels (`CompiledGame._levels`), else none
        self.level_from, self.level_to = spec[7:] or (0, 0)

    def __str__(self) -> str:
        """Its name among the position's legal moves, as `Move` names it."""
        return move_text(self)

    def __repr__(self) -> str:
        return f"<CompiledMove {move_text(self)} ({self.frm}-{self.to})>"


class LegalMoves(Sequence):
    """A compiled position's legal moves: a sequence whose move objects are made when first
    read (a random choice reads one), each named among the others (`str(move)`)."""

    __slots__ = ("specs", "objects", "named")

    def __init__(self, specs: list):
        self.specs = specs
        self.objects: list = [None] * len(specs)
        self.named = None

    def __len__(self) -> int:
        return len(self.specs)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.specs)))]
        m = self.objects[i]
        if m is None:
            m = self.objects[i] = CompiledMove(self.specs[i])
            m.named = self.named
        return m

    def __repr__(self) -> str:
        return repr(list(self))


class CompiledState:
    """A position played step by step by the kernels, with `ludeme.engine.state.State`'s API
    (`legal_moves`, `apply`, `clone`, `current_player`, `is_terminal`, `returns`,
    `board_view`, `board_occupancy`, ...): what the agents, the adapters, `ludeme run
    --agents` and `ludeme crosscheck` read. The legal moves come in the reference engine's
    order, so the same choices give the same game on both backends."""

    __slots__ = ("kernels", "m", "g", "who", "what", "count", "sc", "rk", "active", "phase",
                 "hist_mover", "hist_pass", "_legal", "draws")

    def __init__(self, kernels: "CompiledGame", seed: int = 0):
        import numpy as np
        m = kernels.module
        self.kernels, self.m = kernels, m
        self.g = kernels.game
        self.who = np.zeros(m.WHO_SIZE, np.int64)
        self.what = np.zeros(m.WHO_SIZE, np.int64)
        self.count = np.zeros(m.COUNT_SIZE, np.int64)
        self.sc = np.zeros(m.SC_SIZE, np.int64)
        self.rk = np.zeros(m.NP + 1, np.float64)
        self.active = np.zeros(m.NP + 1, np.int8)
        self.phase = np.zeros(m.NP + 1, np.int64)
        self.hist_mover = np.zeros(m.HISTORY, np.int64)
        self.hist_pass = np.zeros(m.HISTORY, np.bool_)
        self._legal = None
        # The chance outcomes drawn so far, in order (`State.draws`).
        self.draws: list[int] = []
        m.reset(self.who, self.what, self.count, self.sc, self.rk, self.active, self.phase,
                seed)
        self._record_draws()

    def _record_draws(self) -> None:
        """Move the values the kernels drew since the last call to `draws`."""
        m, sc = self.m, self.sc
        k = int(sc[m.NDRAWS])
        if k:
            self.draws.extend(sc[m.DRAWS:m.DRAWS + k].tolist())
            sc[m.NDRAWS] = 0

    # -- the OpenSpiel-style API (as ludeme.engine.state.State) ----------------------------
    def current_player(self) -> int:
        """The player to move (1-based), or -1 when the game is over."""
        return -1 if self.sc[self.m.OVER] else int(self.sc[self.m.MOVER])

    def is_terminal(self) -> bool:
        return bool(self.sc[self.m.OVER])

    def returns(self) -> list[float]:
        """Per player (index 0 unused): +1 win, -1 loss, 0 draw or unfinished (State.returns)."""
        n = self.m.NP
        if not self.sc[self.m.OVER]:
            return [0.0] * (n + 1)
        rk = self.rk.tolist()
        if n == 1:
            return [0.0, 1.0 if rk[1] == 1.0 else -1.0]
        return [0.0] + [0.0 if r == 0 else 1.0 - 2.0 * (r - 1.0) / (n - 1) for r in rk[1:]]

    def legal_moves(self) -> "LegalMoves | list":
        """The legal moves in the reference engine's order; a forced pass when there are none."""
        if self._legal is None:
            self._legal = [] if self.sc[self.m.OVER] else self.kernels.legal_of(self)
            if self._legal:
                self._legal.named = Siblings(self.g, self._legal)
        return self._legal

    def legal_actions(self) -> list[int]:
        """Indices into `legal_moves()`."""
        return list(range(len(self.legal_moves())))

    def apply(self, move: CompiledMove) -> None:
        try:
            self.m.step(self.who, self.what, self.count, self.sc, self.rk, self.active,
                        self.phase, self.hist_mover, self.hist_pass, move.frm, move.to,
                        move.gen, move.extra)
        except ValueError as e:
            _run_refusal(e)
        self._legal = None
        self._record_draws()
        if hasattr(self.m, "force_die"):      # the faces forced hold for one decision
            self.m.force_die(self.sc, -1, -1)

    @property
    def force_roll(self) -> None:
        """Write-only: the faces the next rolls show (die site -> face index), as
        `State.force_roll` (`ludeme crosscheck` replays Ludii's recorded rolls so)."""
        return None

    @force_roll.setter
    def force_roll(self, faces: dict | None) -> None:
        force = getattr(self.m, "force_die", None)
        if force is None:
            if faces:
                raise ValueError("this game's kernels roll no dice")
            return
        force(self.sc, -1, -1)
        for site, face in (faces or {}).items():
            force(self.sc, site, face)
        self._legal = None

    def apply_action(self, action: int) -> None:
        """Apply the legal move with this index."""
        self.apply(self.legal_moves()[action])

    def start_as(self, ref, seed: int) -> None:
        """Take the sites (and piece states) of a reference start position, the chance
        stream seeded again as it was before the start rules drew: a start forced to a
        recorded one (`CompiledGame.new_initial_state`'s forced_places)."""
        from ludeme.engine.compiled import rt
        from ludeme.engine.compiled.codegen import _initial_states
        m, sc = self.m, self.sc
        if self.g.stacking:
            raise Unsupported(None, "a start placing pieces at random forced on stacks")
        n = m.STORE     # every site the reference's store keeps, its layers too
        self.who[:n], self.what[:n], self.count[:n] = ref.who, ref.what, ref.count
        if m.N_STATE:
            sc[m.STATE:m.STATE + m.N_STATE] = _initial_states(
                self.g, ref, 0, values=m.N_STATE >= 2 * n, rotations=m.N_STATE == 3 * n)
        if m.N_CHANCE:
            rt.mt_seed_keys(sc[m.CHANCE:m.CHANCE + m.N_CHANCE], *rt.chance_seed_keys(seed))
        sc[m.NDRAWS] = 0
        if m.REPEAT:            # the start recorded for (no Repeat ...) is this one
            sc[m.SEENN] = 0
            m.record_position(self.who, self.what, self.count, sc)
        self.draws = []
        self._legal = None

    def clone(self) -> "CompiledState":
        s = CompiledState.__new__(CompiledState)
        s.kernels, s.m, s.g = self.kernels, self.m, self.g
        s.who, s.what, s.count = self.who.copy(), self.what.copy(), self.count.copy()
        s.sc, s.rk, s.active, s.phase = (self.sc.copy(), self.rk.copy(), self.active.copy(),
                                         self.phase.copy())
        s.hist_mover, s.hist_pass = self.hist_mover.copy(), self.hist_pass.copy()
        s._legal = self._legal          # moves are immutable: the copy's are the same
        s.draws = self.draws[:]
        return s

    def random_rollout(self, rng, limit: int) -> int:
        """Play uniformly random moves until the end or `limit` moves, drawing from `rng` (a
        `random.Random`, left where the same loop in Python would leave it, or an
        `rt.KernelRandom`); the moves played."""
        from ludeme.engine.compiled import rt
        draws = rng if isinstance(rng, rt.KernelRandom) else rt.KernelRandom(rng)
        played = 0
        try:
            while True:
                moves0 = int(self.sc[self.m.NUM_MOVES])
                try:
                    played += self.m.rollout(self.who, self.what, self.count, self.sc,
                                             self.rk, self.active, self.phase,
                                             self.hist_mover, self.hist_pass, draws.mt,
                                             limit - played, *self.kernels.buffers)
                    break
                except self.m.KernelFull:
                    # A state with more moves than the buffers hold stops the rollout
                    # before its move is drawn (listing changes nothing else): listed again
                    # into longer buffers, the rollout goes on from there. Any other table
                    # outgrown (its move half played) is raised.
                    played += int(self.sc[self.m.NUM_MOVES]) - moves0
                    size = len(self.kernels.buffers[0])
                    self._legal = None
                    self.kernels.legal_of(self)
                    if len(self.kernels.buffers[0]) == size:
                        raise
                except ValueError as e:         # a position refused at run time: its refusal
                    _run_refusal(e)
        finally:
            # the caller's generator continues after every draw made, even when the
            # rollout raises
            if draws is not rng:
                draws.close()
        self._legal = None
        return int(played)

    @staticmethod
    def kernel_random(rng):
        """`rng` on the kernels' generator, for a search (`rt.KernelRandom`; close it after)."""
        from ludeme.engine.compiled import rt
        return rt.KernelRandom(rng)

    def key(self) -> tuple:
        """Everything that decides the future of the game, for equality checks between
        states of this backend (`ludeme.engine.state.State.key` is the reference engine's)."""
        return tuple(a.tobytes() for a in (self.who, self.what, self.sites_count(), self.sc,
                                           self.rk, self.active, self.phase))

    def sites_count(self):
        """`count` without its journal of writes (`rt.JOURNAL`), which is no part of the state."""
        from ludeme.engine.compiled import rt
        return self.count[:self.count.shape[0] - rt.JOURNAL_TAIL]

    # -- what the playout rows and the cross-checks read -------------------------------
    @property
    def mover(self) -> int:
        return int(self.sc[self.m.MOVER])

    @property
    def winner(self) -> int:
        return int(self.sc[self.m.WINNER])

    @property
    def ranking(self) -> list[float]:
        return [float(r) for r in self.rk]

    @property
    def player_order(self) -> list[int]:
        """Per player (index 0 unused) the seat playing it (`State.player_order`; the swap
        rule exchanges two)."""
        m = self.m
        return [int(v) for v in self.sc[m.ORDER:m.ORDER + m.NP + 1]]

    def next_draw_rank(self) -> float:
        """The rank the players not ranked yet would share as a draw (`State.next_draw_rank`)."""
        from ludeme.engine.compiled import rt
        return float(rt._next_draw_rank(self.sc, self.active, self.m.NP))

    @property
    def end_type(self) -> str | None:
        from ludeme.engine.compiled import rt
        return rt.END_TYPE_NAMES[int(self.sc[self.m.END_TYPE])]

    @property
    def num_turn(self) -> int:
        return int(self.sc[self.m.NUM_TURN])

    @property
    def num_decisions(self) -> int:
        return int(self.sc[self.m.NUM_DECISIONS])

    @property
    def num_actions(self) -> int:
        return int(self.sc[self.m.NUM_ACTIONS])

    @property
    def scores(self) -> list[int]:
        m = self.m
        return [0] + self.sc[m.SCORE + 1:m.SCORE + m.NP + 1].tolist()

    def position_key(self) -> tuple:
        """The position as Ludii's stateHash reads it (State.position_key: not the phases)."""
        m = self.m
        # (in a stacking game whose pieces have states, not what each level was left with;
        # without stacks the sites' values after their states)
        n = m.N_STATE if m.N_STATE <= m.TOTAL or not m.DEPTH else m.TOTAL * (1 + m.DEPTH)
        return tuple(a.tobytes() for a in (self.who, self.what, self.sites_count(),
                                           self.sc[m.STATE:m.STATE + n]))

    def situation_key(self, position: tuple | None = None) -> tuple:
        """The position (`position_key`, given when already known) and the players' state
        (State.situation_key)."""
        from ludeme.engine.compiled import rt
        m, sc = self.m, self.sc.tolist()
        return (self.position_key() if position is None else position, sc[rt.MOVER], sc[rt.NEXT], sc[rt.PREV],
                self.active.tobytes(), bool(sc[rt.OVER]), tuple(sc[m.SCORE + 1:m.SCORE + m.NP + 1]),
                sc[rt.NUM_TURN_SAME])

    def board_occupancy(self) -> tuple[list[int], int]:
        """The board's `what` per site and the pieces on it (State.board_occupancy)."""
        m = self.m
        n = m.N_SITES
        if m.STACKING:          # every level of every stack (Ludii's PieceNumber)
            return self.what[:n].tolist(), int(self.count[m.TOTAL:m.TOTAL + n].sum())
        return self.what[:n].tolist(), int(self.count[:n].sum())

    def stack(self, site: int) -> tuple:
        """The levels of a site, bottom first, as (what, who) pairs (a stacking game's)."""
        m = self.m
        at = m.TOTAL + site * m.DEPTH
        height = int(self.count[m.TOTAL + site])
        return tuple(zip(self.what[at:at + height].tolist(), self.who[at:at + height].tolist()))

    def _repr_svg_(self) -> str:
        """The board with this state's pieces (a notebook shows a state so)."""
        from ludeme.engine.picture import state_svg
        return state_svg(self)

    def board_view(self, player: int | None = None) -> dict:
        """As `State.board_view`: seen by `player` (1-based), a datum hidden from them reads
        HIDDEN_VALUE."""
        n, m = self.m.N_SITES, self.m
        hands = [self.count[c.sites_from:c.sites_from + c.num_sites].tolist()
                 for c in self.g.containers[1:]]
        view = {"who": self.who[:n].tolist(), "what": self.what[:n].tolist(),
                "count": self.count[:n].tolist(), "hands": hands,
                "scores": self.sc[m.SCORE + 1:m.SCORE + m.NP + 1].tolist(),
                "stacks": [self.stack(i) for i in range(n)] if m.STACKING else None}
        if player is not None and m.N_HID:
            self._mask_hidden(view, player)
        return view

    def _mask_hidden(self, view: dict, player: int) -> None:
        """Blank in `view` what is hidden from `player` (`State._mask_hidden`): the whole
        piece, or the datum named (What, Who, Count)."""
        from ludeme.engine.state import HIDDEN_VALUE
        from .rt import hidden_datum
        m, n = self.m, self.m.N_SITES
        fields = {None: ("who", "what", "count"), "What": ("what",), "Who": ("who",),
                  "Count": ("count",)}
        for data, names in fields.items():
            d = hidden_datum(data)
            for site in range(m.TOTAL):
                if not self.sc[m.HID + (d * m.TOTAL + site) * (m.NP + 1) + player]:
                    continue
                if site < n:
                    for f in names:
                        view[f][site] = HIDDEN_VALUE
                    if view["stacks"] is not None:
                        view["stacks"][site] = None
                elif "count" in names:
                    for i, c in enumerate(self.g.containers[1:]):
                        if c.sites_from <= site < c.sites_from + c.num_sites:
                            view["hands"][i][site - c.sites_from] = HIDDEN_VALUE


def cache_dir() -> Path:
    """Where generated modules (and numba's cache beside them) live: $LUDEME_CACHE_DIR,
    else ~/.cache/ludeme/compiled."""
    env = os.environ.get("LUDEME_CACHE_DIR")
    base = Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") \
        / "ludeme"
    return base / "compiled"


def _runtime_digest() -> str:
    """The hash of the runtime the generated code calls (numba's cache does not track it)."""
    import numba
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in ("rt.py", "codegen.py"):
        h.update((here / name).read_bytes())
    h.update(f"{numba.__version__} {sys.version}".encode())
    return h.hexdigest()


def module_file(source: str) -> tuple[Path, str]:
    """The generated module's file in the cache (written if new) and its digest: the hash of
    its text and of the runtime it calls."""
    digest = hashlib.sha256((_runtime_digest() + source).encode()).hexdigest()[:24]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game_{digest}.py"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)          # atomic: parallel workers may write the same file
    return path, digest


def import_module(path: Path):
    """The generated module at `path`, imported once per process."""
    name = f"ludeme_compiled_{path.stem.removeprefix('game_')}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return module


def ready_mark(path: Path) -> Path:
    """The file that says numba's cache holds the compiled playout kernel of the module at
    `path` (written after its warm-up), so that loading it takes a fraction of a second."""
    return path.with_suffix(".ready")


def warm_up(module) -> None:
    """Compile the module's playout kernel now (or load it from numba's cache); a first
    playout that outgrows the kernels' tables, or reaches a position they refuse at run
    time, was compiled all the same."""
    from ludeme.engine.compiled.rt import KernelFull
    try:
        CompiledGame(None, module, 0.0, "").playouts(0, 0, 1)
    except KernelFull:
        pass
    except ValueError as e:
        if run_refused(e) is None:
            raise


def _same_random() -> bool:
    """The kernels' `rand_below` draws as this Python's `random.Random.randrange`."""
    import random

    import numpy as np

    from ludeme.engine.compiled import rt
    seeds = np.array([0, 12345, 2**40 + 7], dtype=np.int64)
    mts = np.zeros((rt.MT_STATE_SIZE, rt.SEED_BLOCK), dtype=np.uint32)   # as the kernels'
    rt.mt_seed_block(mts, seeds, len(seeds))
    for b, seed in enumerate(seeds.tolist()):
        r = random.Random(seed)
        if any(rt.rand_below(mts[:, b], k) != r.randrange(k)
               for k in (1, 2, 3, 7, 100, 1000) * 3):
            return False
    return True


def missing_form(game) -> Unsupported | None:
    """What the game lacks for a compiled form (the ludeme or argument, where it is written),
    or None when it has one: the code generator's verdict, without numba (`ludeme check
    --backend compiled`)."""
    try:
        _generate(game)
    except Unsupported as e:
        return e
    return None


def _generate(game) -> str:
    from ludeme.engine.figures import per_state_columns
    from .codegen import generate
    missing = [c for c in per_state_columns() if c not in KERNEL_FIGURES]
    if missing:
        raise Unsupported(None, f"the per-state metric columns {', '.join(missing)}")
    return generate(game)


def game_source_text(game) -> str:
    """The generated module of `game`. Raises `Unsupported` when a ludeme has no compiled form,
    when a per-state metric registered in `ludeme.engine.figures.PER_STATE` has no kernel
    form yet, or when this Python's random module draws differently from the kernels."""
    source = _generate(game)
    check_random()
    return source


def check_random() -> None:
    """Raise `Unsupported` when this Python's random module draws differently from the
    kernels (`_same_random`, which runs numba's seeding and drawing kernels). A check passed
    is not run again in the process (each game's kernels asked it: a few milliseconds each
    with the kernels run as Python), while the check and the random module are the same."""
    import random
    global _random_checked
    key = (_same_random, random.Random, random.Random.seed, random.Random.randrange)
    if _random_checked == key:
        return
    if not _same_random():
        raise Unsupported(None, "this Python's random module (its draws differ from the kernels')")
    _random_checked = key


# What `check_random` last passed with (the check, the random module's generator and the
# methods it compares), or None.
_random_checked = None


def build_kernels(game, source: str | None = None, whole: bool = True) -> CompiledGame:
    """The game's kernels, their module generated and imported; with `whole`, the kernel
    of whole playouts compiled now (or loaded from numba's cache: `CompiledGame.warm`).
    A state played step by step (`CompiledState`: agents, adapters, `crosscheck`) needs
    only the kernels of a step, which numba compiles on their first call: less than half
    of the compile time.

    Raises `Unsupported` as `game_source_text`."""
    t0 = time.perf_counter()
    if source is None:
        source = game_source_text(game)
    path, _ = module_file(source)
    generating = time.perf_counter() - t0
    compiled = load_kernels(game, path, whole)
    compiled.compile_seconds += generating
    return compiled


def load_kernels(game, path: str | Path, whole: bool = True) -> CompiledGame:
    """The kernels of the generated module at `path`, for a worker process: the parent
    generated it (and, for `whole` playouts, numba's cache holds their machine code), so
    nothing is generated or compiled again."""
    t0 = time.perf_counter()
    path = Path(path)
    compiled = CompiledGame(game, import_module(path), 0.0, path.stem.removeprefix("game_"))
    compiled.path = path
    compiled.compile_seconds = time.perf_counter() - t0
    if whole:
        compiled.warm()
    return compiled


class Compiling:
    """A game's kernels to compile in another process (`python -m ludeme.engine.compiled.warm`)
    while a run plays on: `begin()` starts it (a run does when the playouts left would take
    longer on the reference engine than compiling does), `ready()` says whether it has
    ended, `kernels()` loads them from numba's cache (None, said on stderr, when the
    compile failed), `cancel()` stops it. `seconds`: how long it took, for the record."""

    def __init__(self, game, path: Path):
        self.game, self.path = game, path       # the generated module, in the cache
        self.proc = None
        self.log = None
        self.t0 = 0.0
        self.seconds = 0.0          # the compile's time, once it has ended
        self.load_seconds = 0.0     # the time this process took to load its kernels

    @property
    def begun(self) -> bool:
        return self.proc is not None

    def begin(self) -> None:
        import subprocess
        import tempfile
        if self.proc is None:
            self.log = tempfile.TemporaryFile()
            self.t0 = time.perf_counter()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "ludeme.engine.compiled.warm", str(self.path)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log)

    def ready(self) -> bool:
        return self.proc is not None and self.proc.poll() is not None

    def kernels(self) -> CompiledGame | None:
        """The kernels, once the compile has ended (begins it, and waits for it)."""
        self.begin()
        code = self.proc.wait()
        self.seconds = time.perf_counter() - self.t0
        if code == 0 and ready_mark(self.path).exists():
            kernels = load_kernels(self.game, self.path)
            self.load_seconds = kernels.compile_seconds
            return kernels
        self.log.seek(0)
        lines = self.log.read().decode("utf-8", "replace").strip().splitlines()
        print(f"ludeme: compiling the kernels failed ({lines[-1] if lines else f'exit {code}'}); "
              "the reference engine plays on", file=sys.stderr)
        return None

    def cancel(self) -> None:
        """Stop the compile if it still runs (the run ended first)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except Exception:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def _fall_back(game, e: Exception) -> None:
    """Say once per game, on stderr, that the reference engine plays it and why."""
    _say_once(game, "form", f"no compiled form for {e} yet")


def _say_once(game, kind: str, why: str) -> None:
    """Say once per game and kind of reason, on stderr, that the reference engine plays it."""
    key = (game.name, game.ruleset, tuple(game.options), kind)
    if key not in _REPORTED:
        _REPORTED.add(key)
        label = (game.ruleset or game.name).split("/", 1)[-1]
        print(f"ludeme: {label}: {why}; using the reference engine", file=sys.stderr)


def _unsupported_or_missing_numba(fn, *args):
    try:
        return fn(*args)
    except ImportError as e:            # numba missing or broken: the reference engine plays
        raise Unsupported(None, f"numba ({e})") from e


def turn_jit_off() -> None:
    """Run the generated kernels as Python from now on, in this process and the workers it
    starts (NUMBA_DISABLE_JIT; numba's configuration read again if numba is loaded). The
    code run is the code numba would compile; `crosscheck --no-jit` checks it so."""
    os.environ["NUMBA_DISABLE_JIT"] = "1"
    from . import rt
    rt.wraps_quietly()
    if "numba" in sys.modules:
        from numba.core import config
        config.reload_config()


def _auto_skips_kernels(game) -> bool:
    """On "auto", the reference engine plays when numba's JIT is off (`jit_off`); said once."""
    if not jit_off():
        return False
    _say_once(game, "jit", "numba's JIT is off (NUMBA_DISABLE_JIT)")
    return True


def select(game, backend: str = "auto"):
    """The compiled game for `backend` ("auto", "compiled", "reference"), or None for the
    reference engine. "compiled" raises `Unsupported` when the game cannot be compiled."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "reference":
        return None
    if backend == "auto" and _auto_skips_kernels(game):
        return None
    try:
        return _unsupported_or_missing_numba(build_kernels, game, None, False)
    except Unsupported as e:
        if backend == "compiled":
            raise
        _fall_back(game, e)
        return None


def start(game):
    """For a run on "auto" that must not wait: the kernels at once when numba's cache has
    them, else a `Compiling` (the compile in another process, the run playing on the
    reference engine meanwhile), or None when the game has no compiled form (said once) or
    numba's JIT is off (`jit_off`)."""
    if _auto_skips_kernels(game):
        return None
    try:
        # The check of the random streams runs numba kernels of its own (a second and more
        # on an empty cache): the compiling process makes it (`warm`), so a short run, which
        # never begins the compile, does not wait for it.
        source = _unsupported_or_missing_numba(_generate, game)
        path, _ = module_file(source)
        if ready_mark(path).exists():
            _unsupported_or_missing_numba(check_random)
            return load_kernels(game, path)
    except Unsupported as e:
        _fall_back(game, e)
        return None
    return Compiling(game, path)
