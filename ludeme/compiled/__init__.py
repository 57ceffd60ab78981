"""The compiled backend: a game's rules as numba kernels, the whole playout in machine code.

`compile_game(game)` generates a module specialised to the game from its typed
ludemes (`ludeme.compiled.codegen`), stores it under a name made of the hash of
its text (so numba's `cache=True` keeps the machine code across processes and
runs), imports it and warms it up. A playout there makes the same choices as the
reference engine (`ludeme.runner.play_one`: the same seeds, `random.Random(seed)`'s
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
from pathlib import Path

BACKENDS = ("auto", "reference", "compiled")

_REPORTED: set = set()


class Unsupported(Exception):
    """A ludeme (or an argument of one) with no compiled form yet."""

    def __init__(self, lud, what: str = ""):
        name = f"({lud.keyword}{' ' + lud.kind if lud.kind else ''})" if lud is not None else ""
        super().__init__(f"{name} {what}".strip())


# The per-state metric columns (`ludeme.figures.PER_STATE`) the kernels compute.
KERNEL_FIGURES = ("branching_factor", "decisions_multi", "decision_moves", "decision_factor",
                  "board_coverage", "piece_number", "board_sites_occupied")


class CompiledGame:
    """A game's generated kernels: `playouts(seed, first, n)` gives the columns of their rows."""

    def __init__(self, game, module, compile_seconds: float, digest: str):
        self.game = game
        self.module = module
        self.compile_seconds = compile_seconds
        self.digest = digest

    def new_initial_state(self) -> CompiledState:
        """The start position, to play step by step."""
        return CompiledState(self)

    def playouts(self, seed: int, first: int, n: int) -> dict:
        """Columns (numpy arrays) of playouts first..first+n-1 of a run with seed `seed`;
        `end_code` indexes `rt.END_TYPE_NAMES`."""
        import numpy as np

        from . import rt
        np_ = self.game.num_players
        # Column-major, so that each column is one contiguous array.
        out_i = np.zeros((n, 7), dtype=np.int64, order="F")
        out_f = np.zeros((n, 6), dtype=np.float64, order="F")
        ranks = np.zeros((n, np_ + 1), dtype=np.float64, order="F")
        t0 = time.perf_counter()
        self.module.playouts(rt.int_words(seed), first, n, out_i, out_f, ranks)
        seconds = time.perf_counter() - t0
        end = out_i[:, 3]
        cols = {
            "index": out_i[:, 0], "seed": out_i[:, 1], "winner": out_i[:, 2],
            "end_code": end,
            "timeout": (end == rt.END_TURN_LIMIT) | (end == rt.END_MOVE_LIMIT),
            "turns": out_i[:, 4], "moves": out_i[:, 5], "decisions_multi": out_i[:, 6],
            "branching_factor": out_f[:, 0], "decision_moves": out_f[:, 1],
            "decision_factor": out_f[:, 2], "board_coverage": out_f[:, 3],
            "piece_number": out_f[:, 4], "board_sites_occupied": out_f[:, 5],
            "ranks": ranks[:, 1:], "seconds": np.full(n, seconds / n if n else 0.0),
        }
        return cols


class CompiledMove:
    """A legal move of a `CompiledState`: (from, to) as Ludii numbers them."""

    __slots__ = ("frm", "to", "gen", "extra", "level_from", "level_to")

    def __init__(self, frm: int, to: int, gen: int, extra: int = -1):
        self.frm, self.to, self.gen, self.extra = frm, to, gen, extra
        self.level_from = self.level_to = 0

    def __repr__(self) -> str:
        return "Pass" if self.frm < 0 else f"{self.frm}-{self.to}"


class CompiledState:
    """A position played step by step by the kernels (for cross-checks against traces):
    the parts of `ludeme.engine.State`'s API that `ludeme.crosscheck.replay` reads."""

    def __init__(self, kernels: "CompiledGame"):
        import numpy as np
        m = kernels.module
        self.kernels, self.m = kernels, m
        self.g = kernels.game
        self.who = np.zeros(m.TOTAL, np.int64)
        self.what = np.zeros(m.TOTAL, np.int64)
        self.count = np.zeros(m.TOTAL, np.int64)
        self.sc = np.zeros(m.SC_SIZE, np.int64)
        self.rk = np.zeros(m.NP + 1, np.float64)
        self.active = np.zeros(m.NP + 1, np.int8)
        self.phase = np.zeros(m.NP + 1, np.int64)
        self.hist_mover = np.zeros(m.HISTORY, np.int64)
        self.hist_pass = np.zeros(m.HISTORY, np.bool_)
        m.reset(self.who, self.what, self.count, self.sc, self.rk, self.active, self.phase)

    @property
    def mover(self) -> int:
        return int(self.sc[self.m.MOVER])

    @property
    def winner(self) -> int:
        return int(self.sc[self.m.WINNER])

    @property
    def ranking(self) -> list[float]:
        return [float(r) for r in self.rk]

    def is_terminal(self) -> bool:
        return bool(self.sc[self.m.OVER])

    def legal_moves(self) -> list[CompiledMove]:
        """The legal moves in the reference engine's order; a forced pass when there are none."""
        import numpy as np
        if self.is_terminal():
            return []
        buf = [np.empty(self.m.MAX_BUFFER, np.int64) for _ in range(4)]
        k = self.m.legal(self.who, self.what, self.count, self.sc, self.phase, *buf)
        if k == 0:
            return [CompiledMove(-1, -1, -1)]
        return [CompiledMove(int(f), int(t), int(g), int(x))
                for f, t, g, x in zip(*(b[:k] for b in buf))]

    def apply(self, move: CompiledMove) -> None:
        self.m.step(self.who, self.what, self.count, self.sc, self.rk, self.active, self.phase,
                    self.hist_mover, self.hist_pass, move.frm, move.to, move.gen, move.extra)

    def clone(self) -> "CompiledState":
        s = CompiledState.__new__(CompiledState)
        s.kernels, s.m, s.g = self.kernels, self.m, self.g
        for name in ("who", "what", "count", "sc", "rk", "active", "phase", "hist_mover",
                     "hist_pass"):
            setattr(s, name, getattr(self, name).copy())
        return s

    def board_view(self) -> dict:
        n, m = self.m.N_SITES, self.m
        hands = [self.count[c.sites_from:c.sites_from + c.num_sites].tolist()
                 for c in self.g.containers[1:]]
        return {"who": self.who[:n].tolist(), "what": self.what[:n].tolist(),
                "count": self.count[:n].tolist(), "hands": hands,
                "scores": self.sc[m.SCORE + 1:m.SCORE + m.NP + 1].tolist(), "stacks": None}


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


def _import(source: str):
    digest = hashlib.sha256((_runtime_digest() + source).encode()).hexdigest()[:24]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"game_{digest}.py"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)          # atomic: parallel workers may write the same file
    name = f"ludeme_compiled_{digest}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return module, digest


def _same_random() -> bool:
    """The kernels' `rand_below` draws as this Python's `random.Random.randrange`."""
    import random

    import numpy as np

    from . import rt
    seeds = np.array([0, 12345, 2**40 + 7], dtype=np.int64)
    mts = np.zeros((rt.MT_STATE_SIZE, len(seeds)), dtype=np.int64)
    rt.mt_seed_block(mts, seeds, len(seeds))
    for b, seed in enumerate(seeds.tolist()):
        r = random.Random(seed)
        if any(rt.rand_below(mts[:, b], k) != r.randrange(k)
               for k in (1, 2, 3, 7, 100, 1000) * 3):
            return False
    return True


def compile_game(game) -> CompiledGame:
    """The game's kernels, compiled (or loaded from numba's cache) and warmed up.

    Raises `codegen.Unsupported` when a ludeme has no compiled form, or when a per-state
    metric registered in `ludeme.figures.PER_STATE` has no kernel form yet."""
    from ..figures import per_state_columns
    from .codegen import generate
    missing = [c for c in per_state_columns() if c not in KERNEL_FIGURES]
    if missing:
        raise Unsupported(None, f"the per-state metric columns {', '.join(missing)}")
    t0 = time.perf_counter()
    source = generate(game)
    if not _same_random():
        raise Unsupported(None, "this Python's random module (its draws differ from the kernels')")
    module, digest = _import(source)
    compiled = CompiledGame(game, module, 0.0, digest)
    compiled.playouts(0, 0, 1)                 # compile now (or load the cache)
    compiled.compile_seconds = time.perf_counter() - t0
    return compiled


def select(game, backend: str = "auto"):
    """The compiled game for `backend` ("auto", "compiled", "reference"), or None for the
    reference engine. "compiled" raises `Unsupported` when the game cannot be compiled."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "reference":
        return None
    try:
        try:
            return compile_game(game)
        except ImportError as e:        # numba missing or broken: the reference engine plays
            raise Unsupported(None, f"numba ({e})") from e
    except Unsupported as e:
        if backend == "compiled":
            raise
        key = (game.name, game.ruleset, tuple(game.options))
        if key not in _REPORTED:
            _REPORTED.add(key)
            label = (game.ruleset or game.name).split("/", 1)[-1]
            print(f"ludeme: {label}: no compiled form for {e} yet; using the reference engine",
                  file=sys.stderr)
        return None
