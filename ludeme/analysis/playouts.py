"""`ludeme run`: uniform-random playouts on all cores, as a tidy table and a report.

Each playout's seed is derived from the run's seed S and the playout's index
(`playout_seed`), and stored in its row, so a run gives the same rows whatever
the number of processes, and any playout can be replayed alone with
`ludeme.analysis.conformance.random_playout(game, seed)` (the same choices: uniform by
`random.Random(seed).randrange`). Limits are the game's (Ludii's defaults:
1250 turns per player, 10,000 decisions); a cut game is a timeout, never a draw.

Worker processes rebuild the game from its `source`, a hashable object with a
`load()` method: the `GameSource` (file, options, ruleset and limits) that
`ludeme.api.load` records, so workers build the game exactly as the parent did.
A game without one is sent to the workers pickled by value (`PickledGame`).
"""

from __future__ import annotations

import itertools
import math
import os
import random
import shutil
import signal
import tempfile
import sys
import threading
import time
import uuid
import warnings
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ludeme.version import __version__
from ludeme.engine import figures
from .game_figures import game_columns
from ludeme.api import (GameFile, GameSource, PickledGame, check_seed, compiled_of, game_source,  # noqa: F401
                        load, new_state)

DEFAULT_PLAYOUTS = 1000
DEFAULT_REPORTS = Path("reports")
TIMEOUT_END_TYPES = ("TurnLimit", "MoveLimit")


# ---------------------------------------------------------------- games and seeds

def playout_seed(seed: int, index: int) -> int:
    """The seed of playout `index` of a run with seed `seed` (63 bits, from numpy's SeedSequence)."""
    import numpy as np
    state = np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


def _seeds(seed: int, indices) -> list[int]:
    """`playout_seed(seed, i)` for each index: by the compiled runtime when a compiled game
    has loaded it already, else by numpy, whose microseconds a reference playout's
    milliseconds hide, sparing a reference run numba's import and the kernel's load."""
    if "ludeme.engine.compiled.rt" not in sys.modules:
        return [playout_seed(seed, i) for i in indices]
    from ludeme.engine.compiled.rt import int_words, playout_seed_of
    words = int_words(seed)
    return [int(playout_seed_of(words, i)) for i in indices]


# ---------------------------------------------------------------- one playout

def rank_utility(rank: float, num_players: int) -> float:
    """Ludii's `RankUtils.rankToUtil`: rank 1 gives 1, the last rank -1, ties the mean.

    A single player's rank is 1 for a win and 0 for a loss, hence `2 rank - 1`.
    """
    if num_players == 1:
        return 2.0 * rank - 1.0
    return 1.0 - (rank - 1.0) * (2.0 / (num_players - 1))


def _observer(observers: list):
    """One call that hands a state to every per-state figure that reads states."""
    if len(observers) == 1:
        return observers[0]

    def observe(state):
        for o in observers:
            o(state)
    return observe


def play_one(game, seed: int, index: int = 0, agents: list | None = None,
             kernels=None, evaluation: bool = False) -> dict:
    """Play one playout to its end; its row of the playout table.

    `agents`: one per seat (`ludeme.ai.agents`), None for uniform random; with
    random players the choices are those of `ludeme.analysis.conformance.random_playout(game,
    seed)`. Every state s0..sL goes through the per-state figures of
    `ludeme.engine.figures.PER_STATE` (the one hook for metrics read from states), and
    their rows get the number of legal moves before each decision. `kernels`: the
    compiled game whose states play it (`compiled_of`), None for the reference
    engine; the row is the same. `evaluation`: add Ludii's state-evaluation metrics
    (`ludeme.analysis.evaluation`), which read the reference engine's states.
    """
    t0 = time.perf_counter()
    rng = random.Random(seed)
    n = game.num_players
    names = [a.name for a in agents] if agents else ["random"] * n
    # Random seats draw `rng.randrange(k)` like RandomAgent.choose, without the call.
    choosers = [a.choose for a in agents] if agents and names != ["random"] * n else None
    state = kernels.new_initial_state(seed) if kernels is not None else \
        game.new_initial_state(seed)
    randrange = rng.randrange
    trackers = [cls(game, state) for cls in figures.PER_STATE]
    if evaluation:
        from .evaluation import EvaluationFigures
        trackers.append(EvaluationFigures(game, state))
    observe = _observer([t.observe for t in trackers if t.observe is not None])
    counts: list[int] = []              # legal moves before each decision
    count = counts.append
    is_terminal, legal_moves, apply = state.is_terminal, state.legal_moves, state.apply
    played = [t.played for t in trackers if getattr(t, "played", None) is not None]
    while not is_terminal():
        observe(state)
        legal = legal_moves()
        k = len(legal)
        count(k)
        if choosers is None:
            move = legal[randrange(k)]
        else:
            move = legal[choosers[state.current_player() - 1](state, rng)]
        apply(move)
        for p in played:
            p(game, move)
    observe(state)
    seconds = time.perf_counter() - t0

    row = {
        "game": game.name,
        "ruleset": game.ruleset or "",
        "options": "; ".join(game.options),
        "index": index,
        "seed": seed,
        "players": n,
        "winner": int(state.winner or 0),
        "end_type": state.end_type,
        "timeout": state.end_type in TIMEOUT_END_TYPES,
        "turns": state.num_turn,
        "moves": state.num_decisions,
        "actions": state.num_actions,
        "turn_limit": getattr(game, "max_turns", 1250) * n,
    }
    for t in trackers:
        row.update(t.row(counts))
    row.update(game_columns(game, row["board_coverage"]))
    if game.uses_chance:        # the chance outcomes of this playout, in the order drawn
        row["chance"] = " ".join(map(str, state.draws))
    for p in range(1, n + 1):
        row[f"rank_p{p}"] = float(state.ranking[p])
        row[f"utility_p{p}"] = rank_utility(float(state.ranking[p]), n)
    for p in range(1, n + 1):
        row[f"agent_p{p}"] = names[p - 1]
    row["seconds"] = seconds
    row["engine_version"] = __version__
    return row


# ---------------------------------------------------------------- many playouts

_WORKER_GAMES: dict = {}
WORKER_GAMES_KEPT = 8         # games a worker process keeps built (the latest runs')
PARTITION_SIZE = 10_000       # playouts per parquet partition of a large run
# ... and of one compiled kernels play (from its start, or once they are compiled): a
# partition file costs the writer about 15 us a column whatever its rows (2 ms of
# Tic-Tac-Toe's 95 columns, a fifth of writing 10,000 rows), and the kernels play fast
# enough that an interrupted run, which keeps whole partitions only, loses seconds. No more
# memory: the summary takes SUMMARY_BATCH rows at once anyway.
KERNEL_PARTITION_SIZE = 50_000
SUMMARY_BATCH = 50_000        # playouts summarised and tallied at once in a large run
CHUNK_SECONDS = 0.1           # a compiled chunk in this process grows while it is quicker
MAX_CHUNK = 50_000
SCHEDULER_TIMEOUT = "10s"     # how long to try to reach a Dask scheduler
# A run on "auto" compiles a game's kernels (in another process, playing on meanwhile) when
# the reference engine's playouts left, timed after PROBE_SECONDS of them, would take longer
# than compiling takes, about COMPILE_PAYS_AFTER seconds: a short run is not slowed down.
PROBE_SECONDS = 1.0
COMPILE_PAYS_AFTER = 20.0


def seat_agents(agents: list | None, index: int, rotate: bool) -> list | None:
    """The agents of playout `index`, one per seat: as given, or turned by `index` seats."""
    if not agents or not rotate:
        return agents
    k = index % len(agents)
    return agents[k:] + agents[:k]


def _play_indices(game, seed: int, indices: list[int], agents=None, rotate=False,
                  backend: str = "reference", evaluation: bool = False) -> list[dict]:
    """The rows of the playouts with these indices, played move by move on `backend`
    (with `evaluation`, the state-evaluation metrics too, on the reference engine)."""
    kernels = None if evaluation else compiled_of(game, backend)
    return [play_one(game, s, i, seat_agents(agents, i, rotate), kernels, evaluation)
            for s, i in zip(_seeds(seed, indices), indices)]


def worker_game(source, backend: str | None = None, kernels_path: str | None = None):
    """The game of `source` in a worker process, built once per process (from the file the
    parent pickled it into, `ludeme.api.GameFile`, on this machine); with `kernels_path`, its
    kernels for `backend` loaded from that generated module and numba's cache, not
    generated again."""
    game = _WORKER_GAMES.get(source)
    if game is None:
        if threading.current_thread() is threading.main_thread():
            # Ctrl-C is the parent's to handle: it keeps what finished and stops the workers.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        while len(_WORKER_GAMES) >= WORKER_GAMES_KEPT:
            del _WORKER_GAMES[next(iter(_WORKER_GAMES))]
        game = _WORKER_GAMES[source] = source.load()
        # a worker that unpickled the game parsed nothing: the limit its build needed
        need = getattr(game, "recursion_limit", 0)      # (a game of another kind: none)
        if sys.getrecursionlimit() < need:
            sys.setrecursionlimit(need)
    if kernels_path is not None and not game.has_kernels(backend):
        from ludeme.engine.compiled import load_kernels
        game.keep_kernels(backend, load_kernels(game, kernels_path, whole=False))
    return game


def _play_in_worker(source, seed: int, indices: list[int], agents=None, rotate=False,
                    backend: str = "reference", kernels_path: str | None = None,
                    evaluation: bool = False) -> list[dict]:
    """`_play_indices` in a worker process (loky's or a Dask worker's)."""
    return _play_indices(worker_game(source, backend, kernels_path), seed, indices, agents,
                         rotate, backend, evaluation)


class ReferenceRows(list):
    """Rows the reference engine played in place of the kernels (see `kernel_table`), and
    why (`why`: the table a playout outgrew, or the position the kernels refused)."""

    def __init__(self, rows, why: str):
        super().__init__(rows)
        self.why = why


def kernel_table(game, kernels, seed: int, first: int, n: int):
    """The rows of playouts first..first+n-1, played by compiled kernels, as an Arrow table
    (or, when one of them outgrows the kernels' fixed tables or reaches a position they
    refuse at run time, the reference engine's rows of the chunk, `ReferenceRows`).

    The same columns, values and types as `play_one`'s rows (`seconds`: the chunk's
    time shared out evenly), built from the kernels' arrays without a Python object
    per row: numbers are wrapped as they are, strings repeated or taken by code."""
    import numpy as np
    import pyarrow as pa

    from ludeme.engine.compiled import rt
    from ludeme.engine.figures import per_state_columns
    from ludeme.engine.compiled.unsupported import run_refused
    try:
        got = kernels.playouts(seed, first, n)
    except rt.KernelFull as e:
        # A playout outgrew the kernels' fixed tables: the chunk on the reference engine,
        # whose rows are the same (the run counts them as the reference engine's).
        why = f"a playout outgrew the kernels' tables ({e})"
    except ValueError as e:
        # A position the kernels refuse at run time (`RUN_REFUSAL`): the chunk on the
        # reference engine, which plays it or raises its own refusal (a LudemeError).
        what = run_refused(e)
        if what is None:
            raise
        why = f"a playout reached a position the kernels refuse ({what})"
    else:
        why = None
    if why is not None:
        return ReferenceRows(_play_indices(game, seed, list(range(first, first + n))), why)
    players = game.num_players
    text = pa.large_string()          # pandas' own string type in parquet

    def repeat(value):
        # the column's buffers made at once (pa.repeat copied the string value by value,
        # a tenth of a short game's time outside the kernels)
        raw = value.encode("utf-8")
        offsets = np.arange(n + 1, dtype=np.int64) * len(raw)
        return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(raw * n))

    end_types = pa.array(rt.END_TYPE_NAMES, type=text).take(pa.array(got["end_code"]))
    cols = {
        "game": repeat(game.name), "ruleset": repeat(game.ruleset or ""),
        "options": repeat("; ".join(game.options)),
        "index": got["index"], "seed": got["seed"],
        "players": np.full(n, players, dtype=np.int64),
        "winner": got["winner"], "end_type": end_types,
        "timeout": got["timeout"],
        "turns": got["turns"], "moves": got["moves"], "actions": got["actions"],
        "turn_limit": np.full(n, getattr(game, "max_turns", 1250) * players, dtype=np.int64),
    }
    for name in per_state_columns():
        cols[name] = got[name]
    cols.update(game_columns(game, got["board_coverage"]))
    if game.uses_chance:        # the chance outcomes of each playout, as `play_one` writes them
        drawn, ends = got["drawn"].tolist(), got["draw_end"].tolist()
        cols["chance"] = pa.array([" ".join(map(str, drawn[a:b]))
                                   for a, b in zip([0] + ends[:-1], ends)], type=text)
    ranks = got["ranks"]
    for p in range(1, players + 1):
        rank = np.ascontiguousarray(ranks[:, p - 1])
        cols[f"rank_p{p}"] = rank
        cols[f"utility_p{p}"] = (2.0 * rank - 1.0 if players == 1 else
                                 1.0 - (rank - 1.0) * (2.0 / (players - 1)))
    for p in range(1, players + 1):
        cols[f"agent_p{p}"] = repeat("random")
    cols["seconds"] = got["seconds"]
    cols["engine_version"] = repeat(__version__)
    return pa.table({k: v if isinstance(v, pa.Array) else pa.array(np.ascontiguousarray(v))
                     for k, v in cols.items()})


def _kernel_in_worker(source, seed: int, first: int, n: int, kernels_path: str):
    """`kernel_table` in a worker process (the kernels come from numba's cache)."""
    game = worker_game(source, "compiled", kernels_path)
    kernels = compiled_of(game, "compiled")
    kernels.warm()                  # the parent's warm-up put it in numba's cache
    return kernel_table(game, kernels, seed, first, n)


def _frame(rows: list[dict], tables: list):
    """Playout rows (dicts from the reference engine, Arrow tables from the kernels, or
    both when the kernels took over) as one DataFrame sorted by index."""
    import pandas as pd
    if tables:
        import pyarrow as pa
        tables = list(tables)
        if rows:                # the reference engine's, played while the kernels compiled
            tables.append(rows_table(rows, tables[0].schema))
        tables.sort(key=lambda t: t["index"][0].as_py() if t.num_rows else -1)
        df = as_frame(pa.concat_tables(tables))
    else:
        df = pd.DataFrame.from_records(rows)
    if not df.empty and not df["index"].is_monotonic_increasing:
        df = df.sort_values("index", kind="stable").reset_index(drop=True)
    return df


def rows_table(rows: list[dict], schema):
    """Row dicts (sorted by index) as an Arrow table of the compiled backend's `schema`."""
    import pyarrow as pa
    rows = sorted(rows, key=lambda r: r["index"])
    return pa.Table.from_pylist(rows).select(schema.names).cast(schema)


def as_frame(rows):
    """Playout rows as a DataFrame: from row dicts, or from the compiled backend's Arrow
    table (its columns wrapped, not copied into one block)."""
    import pandas as pd
    if isinstance(rows, pd.DataFrame):
        return rows
    if isinstance(rows, list):
        return pd.DataFrame.from_records(rows)
    return rows.to_pandas(split_blocks=True)


def _chunks(n: int, jobs: int, start: int = 0):
    """Playout indices start..n-1 in chunks small enough for a live progress bar and a prompt
    Ctrl-C, made as they are dispatched (a range each): a run of 10^8 playouts holds no
    list of its indices."""
    size = max(1, min(64, (n - start) // (jobs * 16)))
    return (range(i, min(n, i + size)) for i in range(start, n, size))


def cpu_jobs(jobs: int | None) -> int:
    """The number of processes: all cores for None or 0, and -k for all but k - 1 (joblib's
    rule); never more than the cores (more would only wait; the rows do not depend on it)."""
    from joblib import cpu_count
    if not jobs:
        return cpu_count()
    return min(jobs, cpu_count()) if jobs > 0 else max(1, cpu_count() + 1 + jobs)


@contextmanager
def dask_client(scheduler: str, jobs: int | None = None):
    """A Dask client: on the scheduler at ADDRESS, or on a LocalCluster of `jobs` workers ("local")."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        from ludeme.errors import LudemeError
        raise LudemeError("--scheduler needs Dask: pip install 'ludeme[dask]'") from None
    if scheduler == "local":
        with LocalCluster(n_workers=cpu_jobs(jobs), threads_per_worker=1,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            yield client
    else:
        try:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as e:
            from ludeme.errors import LudemeError
            raise LudemeError(f"cannot reach the Dask scheduler {scheduler!r}: {e}") from None
        with client:
            yield client


def _results(game, n: int, seed: int, jobs: int, agents=None, rotate=False, client=None,
             kernels=None, backend: str = "reference", start: int = 0, compiling=None,
             shipped=None, horizon: int | None = None, evaluation: bool = False,
             align: int | None = None):
    """Lists of rows as playouts start..n-1 finish: one by one in this process, by chunks (in
    any order) from loky's worker processes or from the workers of a Dask `client`, played
    move by move on `backend`; with compiled `kernels` (whole uniform-random playouts in
    machine code), Arrow tables of consecutive playouts by chunks; with kernels
    `compiling` in the background, the first ones on the reference engine and the rest on
    the kernels once they are ready (`_while_compiling`; `horizon`: the playouts the run
    may play in all, n when None). `shipped`: what local worker processes load the game
    from (`ludeme.api.GameFile`; None: `game_source`). `align`: the kernels' chunks in this
    process end at its multiples (the run's partitions), so that a partition is one chunk
    once they have grown: written and summarised as it is, not joined first."""
    if compiling is not None:
        yield from _while_compiling(game, n, seed, jobs, compiling, shipped, start,
                                    horizon or n, align)
        return
    if kernels is not None:
        if jobs == 1:
            # Chunks grow while they take under CHUNK_SECONDS: the per-chunk costs shrink,
            # and the progress bar and Ctrl-C (between chunks) stay prompt.
            first, size = start, 256
            while first < n:
                t0 = time.process_time()
                stop = min(first + size, n)
                if align:
                    stop = min(stop, (first // align + 1) * align)
                yield kernel_table(game, kernels, seed, first, stop - first)
                first = stop
                if time.process_time() - t0 < CHUNK_SECONDS:
                    size = min(2 * size, MAX_CHUNK)
            return
        size = max(1, min(5000, (n - start) // (jobs * 8) or 1))
        starts = range(start, n, size)
        from joblib import Parallel, delayed
        source, path = shipped or game_source(game), str(kernels.path)
        parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
        yield from parallel(delayed(_kernel_in_worker)(source, seed, first,
                                                       min(size, n - first), path)
                            for first in starts)
        return
    if jobs == 1 and client is None:
        for i in range(start, n):
            yield _play_indices(game, seed, [i], agents, rotate, backend, evaluation)
        return
    from joblib import Parallel, delayed, parallel_config
    if client is not None:          # workers perhaps on other machines: the game by its source
        source, path = game_source(game), None
        jobs = max(1, sum(client.nthreads().values()))
    else:
        mine = compiled_of(game, backend)
        source, path = shipped or game_source(game), mine and str(mine.path)
    chunks = _chunks(n, jobs, start)
    tasks = (delayed(_play_in_worker)(source, seed, chunk, agents, rotate, backend, path,
                                      evaluation)
             for chunk in chunks)
    if client is None:
        yield from Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")(tasks)
        return
    with parallel_config(backend="dask"):
        yield from Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)


def _while_compiling(game, n: int, seed: int, jobs: int, compiling, shipped=None,
                     start: int = 0, horizon: int | None = None, align: int | None = None):
    """Uniform-random playouts start..n-1 in index order on the reference engine until
    `compiling` (a `ludeme.engine.compiled.Compiling`, begun once it pays for the `horizon`
    playouts of the run: see COMPILE_PAYS_AFTER) has ended, then the rest on its kernels:
    the rows are the same on both, so the run starts at once and ends as if compiled
    throughout. The caller stops a compile still running when the run is done."""
    horizon = horizon or n
    from joblib import Parallel, delayed
    first: list = []        # (time, playouts finished) at the first result: start-up excluded

    def begin_if_it_pays(finished: int) -> None:
        if compiling.begun:
            return
        now = time.perf_counter()
        if not first:
            first.extend((now, finished))
            return
        elapsed, played = now - first[0], finished - first[1]
        if elapsed >= PROBE_SECONDS and played \
                and (horizon - start - finished) * elapsed / played > COMPILE_PAYS_AFTER:
            compiling.begin()
    done = start
    if jobs == 1:
        while done < n and not compiling.ready():
            yield _play_indices(game, seed, [done])
            done += 1
            begin_if_it_pays(done - start)
    else:
        source = shipped or game_source(game)
        dispatched = [start]

        def until_ready():
            for chunk in _chunks(n, jobs, start):
                if compiling.ready():
                    return
                dispatched[0] = chunk.stop
                yield chunk
        finished = 0
        for rows in Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")(
                delayed(_play_in_worker)(source, seed, chunk) for chunk in until_ready()):
            yield rows
            finished += len(rows)
            begin_if_it_pays(finished)
        done = dispatched[0]
    if done < n:
        kernels = compiled_kernels(game, compiling)
        yield from _results(game, n, seed, jobs, kernels=kernels, start=done, shipped=shipped,
                            align=align)


def compiled_kernels(game, compiling):
    """The kernels `compiling` made (waiting for it), kept as the game's on "auto"; None,
    and the reference engine, when the compile failed."""
    if not game.has_kernels("auto"):
        game.keep_kernels("auto", compiling.kernels())   # warmed: numba's cache has them
    return compiled_of(game, "auto")


_STOPS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def signals_deferred():
    """SIGINT and SIGTERM held back for the block, then acted on as they would have been:
    a step that must be done whole (a partition written and counted) is not cut in two.
    Outside the main thread, where no handler can be set, the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    before = {s: signal.getsignal(s) for s in _STOPS}
    for s in _STOPS:
        if callable(before[s]):         # ignored or default ones stay as they are
            signal.signal(s, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        for s in _STOPS:
            signal.signal(s, before[s])
        if held:
            before[held[0]](held[0], None)     # e.g. raises KeyboardInterrupt


UNIQUE_COLUMNS = ("index", "seed")     # a value per playout: no dictionary would pay


def _same_throughout(column) -> bool:
    """Every value of an Arrow column of floats is its first (NaN never is: a column of NaN
    is not found constant, which only costs it the cheaper encoding)."""
    import numpy as np
    first = None
    for chunk in column.chunks:
        if chunk.null_count:
            return False
        values = chunk.to_numpy(zero_copy_only=False)
        if len(values) == 0:
            continue
        if first is None:
            first = values[0]
        if not np.all(values == first):
            return False
    return first is not None


WRITE_BUFFER = 1 << 20     # bytes a partition's file is written in


def parquet_settings(table) -> dict:
    """`pyarrow.parquet.write_table`'s settings for a partition of the kernels' rows: the same
    columns, values and types as its defaults give (readers see no difference), in less of
    the writer's time a row. A dictionary for every column but those of a value per playout
    (hashing those in vain cost more than the rest; the files come out smaller too) and the
    float columns whose value is the same in every row (half of a game's per-state figures,
    often): those are written plain and compressed by LZ4, whose matches take a run of one
    value at memory speed, where the dictionary hashed each value (Tic-Tac-Toe's 46 such
    columns: 7 % of the writer's time a row at 50,000 rows, a fifth at 10,000, for a file a
    twentieth larger). Min/max statistics only of the unique columns, which a reader looking
    for a playout by its index (`ludeme view RUN --row K`) skips partitions by."""
    import pyarrow as pa
    names = table.schema.names
    constant = {f.name for f in table.schema
                if pa.types.is_floating(f.type) and _same_throughout(table[f.name])}
    return {"use_dictionary": [n for n in names if n not in UNIQUE_COLUMNS and n not in constant],
            "compression": {n: "lz4" if n in constant else "snappy" for n in names},
            "write_statistics": [n for n in UNIQUE_COLUMNS if n in names]}


class PartitionWriter:
    """Writes playout rows to `dir/part-<first index>.parquet`, one file per PARTITION_SIZE
    consecutive indices, as soon as each is complete: an interrupted run keeps them.
    The partitions of an earlier run in the same directory are removed first."""

    def __init__(self, directory: str | os.PathLike, n: int, size: int = PARTITION_SIZE,
                 prefix: str = "part"):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        for stale in self.dir.glob(f"{prefix}-*.parquet"):
            stale.unlink()
        self.n, self.size, self.prefix = n, size, prefix
        self.pending: dict[int, list] = {}      # per partition: row dicts and Arrow tables
        self.filled: dict[int, int] = {}        # per partition: the playouts it has
        self.written: list[Path] = []

    def _keep(self, part: int, rows, count: int) -> bool:
        """Keep `count` playouts of partition `part` (a row dict, or a table); whether it is
        complete."""
        self.pending.setdefault(part, []).append(rows)
        self.filled[part] = filled = self.filled.get(part, 0) + count
        return filled == min(self.size, self.n - part * self.size)

    def add(self, rows: list[dict]) -> list[list[dict]]:
        """Keep these rows; the partitions they complete, each written and returned."""
        done = []
        for row in rows:
            part = row["index"] // self.size
            if self._keep(part, row, 1):
                done.append(self._write(part))
        return done

    def add_table(self, table) -> list:
        """Keep a chunk of consecutive playouts given as an Arrow table (the compiled
        backend's); the partitions they complete, each written and returned as an Arrow
        table (no row objects on the way)."""
        n = table.num_rows
        if n == 0:
            return []
        first = table["index"][0].as_py()
        done = []
        offset = 0
        while offset < n:
            part = (first + offset) // self.size
            length = min(n - offset, (part + 1) * self.size - first - offset)
            complete = self._keep(part, table.slice(offset, length), length)
            offset += length
            if complete:
                done.append(self._write(part))
        return done

    def finish(self, n: int) -> list:
        """The run ended after its first `n` playouts, fewer than planned (a precision-driven
        run stopped): the partition holding the last of them is complete now; written and
        returned as `add` returns them."""
        self.n = n
        return [self._write(part) for part in sorted(self.pending)
                if self.filled[part] == min(self.size, n - part * self.size)]

    def _write(self, part: int):
        """Write one complete partition, sorted by index."""
        pending = self.pending.pop(part)
        del self.filled[part]
        path = self.dir / f"{self.prefix}-{part * self.size:09d}.parquet"
        tmp = path.with_suffix(".tmp")
        dicts = [r for r in pending if isinstance(r, dict)]
        if len(dicts) == len(pending):
            import pandas as pd
            rows = sorted(pending, key=lambda r: r["index"])
            pd.DataFrame.from_records(rows).to_parquet(tmp, index=False)
        else:                              # Arrow tables, each of consecutive playouts
            import pyarrow as pa
            import pyarrow.parquet as pq
            tables = [t for t in pending if not isinstance(t, dict)]
            if dicts:                      # the reference engine's rows, before the kernels'
                tables.append(rows_table(dicts, tables[0].schema))
            tables.sort(key=lambda t: t["index"][0].as_py())
            rows = pa.concat_tables(tables)     # the writer reads the chunks as they are
            # through a buffer: the writer's own file wrote each page's header and values
            # apart and asked the position between them (1,400 calls to the system a
            # partition of Tic-Tac-Toe, a twentieth of the write)
            with pa.output_stream(tmp, buffer_size=WRITE_BUFFER) as sink:
                pq.write_table(rows, sink, **parquet_settings(rows))
        tmp.replace(path)                  # a partition is there whole or not at all
        self.written.append(path)
        return rows


def run_playouts(game, n: int, seed: int = 0, jobs: int | None = None, *,
                 agents: list | None = None, rotate: bool = False, scheduler: str | None = None,
                 partitions: str | os.PathLike | None = None, keep_rows: bool = True,
                 partition_size: int | None = None, on_partition=None,
                 progress: bool | None = None, label: str | None = None,
                 backend: str | None = None, until=None, evaluation: bool = False):
    """Play `n` playouts of `game`; the tidy table, one row per playout, by index.

    `agents`: one per seat (`ludeme.ai.agents`; None: uniform random); `rotate`:
    playout i turns the agents by i seats, so each agent plays every seat.
    `jobs`: processes (None: all cores); `scheduler`: run on a Dask cluster
    instead (an address, or "local" for a LocalCluster of `jobs` workers). The
    rows depend on neither. `partitions`: a directory where each complete run of
    `partition_size` consecutive playouts (None: KERNEL_PARTITION_SIZE when compiled kernels
    play whole playouts, or will once compiled, else PARTITION_SIZE) is written as parquet
    at once (with
    `keep_rows=False` the table returned is empty: memory stays bounded, and
    `on_partition(rows)` sees each partition's rows: dicts, or an Arrow table from the
    compiled backend; `as_frame` makes either a DataFrame). `progress`: a progress bar
    on stderr (None: only when stderr is a terminal). Ctrl-C stops the run and
    returns the playouts already finished, with `df.attrs["interrupted"] = True`.
    `backend`: "auto", "compiled" or "reference" (None: the one the game was loaded
    with, see `ludeme.api.load`); the rows do not depend on it. On local processes
    without agents the compiled kernels play whole playouts; with agents or a
    scheduler, the compiled states play move by move (`ludeme.engine.compiled.CompiledState`).
    The compile time is in `df.attrs["compile_seconds"]`, the backend in
    `df.attrs["backend"]`. `until`: play in batches, prefixes of the same seeds, of which
    `until.first_end()` says where the first ends and `until.next_end(rows)` (the batch's
    rows, a DataFrame) where the next does, None to stop there (a precision-driven run:
    `ludeme.analysis.precision.UntilCI`); n is then the cap. `evaluation`: add Ludii's
    state-evaluation metrics (`ludeme.analysis.evaluation`; played on the reference engine,
    move by move).
    """
    import pandas as pd
    from tqdm import tqdm
    if isinstance(n, bool) or not hasattr(n, "__index__") or n < 1:
        raise ValueError(f"n must be a positive integer (the number of playouts), not {n!r}")
    n, seed = int(n), check_seed(seed)
    if agents is not None and len(agents) != game.num_players:
        raise ValueError(f"{len(agents)} agents for a game of {game.num_players} players")
    from ludeme.ai.agents import check_agents
    check_agents(game, agents)
    jobs = min(cpu_jobs(jobs), max(1, n))
    whole_playouts = agents is None and scheduler is None and not evaluation
    if evaluation:
        from ludeme.ai.evaluator import heuristic_terms
        heuristic_terms(game)           # a heuristic not supported yet stops the run now
        backend = "reference"
    compiling = None
    if whole_playouts and (backend or game.backend) == "auto" and not game.has_kernels("auto"):
        from ludeme.engine import compiled
        got = compiled.start(game)      # the kernels from numba's cache, or compiling meanwhile
        if got is None or isinstance(got, compiled.CompiledGame):
            kernels = game.keep_kernels("auto", got)
        else:
            compiling, kernels = got, None
    else:
        kernels = compiled_of(game, backend)
    whole = kernels if whole_playouts else None
    if whole is not None:
        whole.warm()                # compile the whole-playout kernel now, timed apart
    if partition_size is None:      # the kernels' size whether or not they are compiled yet
        partition_size = KERNEL_PARTITION_SIZE if whole is not None or compiling is not None \
            else PARTITION_SIZE
    writer = PartitionWriter(partitions, n, partition_size) if partitions is not None else None
    by_backend = {"reference": 0, "compiled": 0}
    full: set = set()           # why chunks went to the reference engine, said once each
    rows: list[dict] = []
    tables: list = []
    interrupted = False
    background = compiling
    start, end = 0, min(n, until.first_end()) if until is not None else n
    bar = tqdm(total=end, unit="playout", desc=label, disable=None if progress is None else
               not progress, smoothing=0.1, file=sys.stderr)
    with ExitStack() as stack:
        if compiling is not None:
            stack.callback(compiling.cancel)        # a compile the run outlived is stopped
        client = stack.enter_context(dask_client(scheduler, jobs)) if scheduler else None
        shipped = None
        if jobs > 1 and client is None:     # the game built once, read by every worker
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="ludeme-game-"))
            shipped = GameFile.write(game, folder)
        results = None
        try:
            while True:
                batch: tuple[list, list] = ([], [])     # this batch's rows and tables
                results = _results(game, end, seed, jobs, agents, rotate, client, whole,
                                   "compiled" if kernels is not None else "reference",
                                   start=start, compiling=compiling, shipped=shipped,
                                   horizon=n, evaluation=evaluation,
                                   align=writer.size if writer is not None else None)
                for chunk in results:
                    # A partition on disk is a partition counted: Ctrl-C or SIGTERM waits
                    # until both are done (else summary.csv could count one the console
                    # does not).
                    with signals_deferred():
                        if not isinstance(chunk, list):     # an Arrow table from the kernels
                            count = chunk.num_rows
                            by_backend["compiled"] += count
                            if keep_rows:
                                tables.append(chunk)
                            if until is not None:
                                batch[1].append(chunk)
                            done = writer.add_table(chunk) if writer is not None else ()
                        else:
                            count = len(chunk)
                            if isinstance(chunk, ReferenceRows) and chunk.why not in full:
                                full.add(chunk.why)
                                print(f"ludeme: {game.name}: {chunk.why}; the reference "
                                      "engine played its chunk", file=sys.stderr)
                            by_backend["compiled" if kernels is not None and not
                                       isinstance(chunk, ReferenceRows) else "reference"] \
                                += count
                            if keep_rows:
                                rows.extend(chunk)
                            if until is not None:
                                batch[0].extend(chunk)
                            done = writer.add(chunk) if writer is not None else ()
                        for part in done:
                            if on_partition is not None:
                                on_partition(part)
                    bar.update(count)
                if until is None:
                    break
                with signals_deferred():        # the stop and its last partition, whole
                    start, end = end, until.next_end(_frame(*batch))
                    if end is None and writer is not None:
                        for part in writer.finish(start):
                            if on_partition is not None:
                                on_partition(part)
                if end is None:
                    break
                bar.total = end
                bar.refresh()
                if compiling is not None and compiling.ready():   # the kernels play on
                    kernels = whole = compiled_kernels(game, compiling)
                    compiling = None
        except KeyboardInterrupt:
            interrupted = True
            if results is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")     # joblib's note that it cancelled the rest
                    results.close()
        finally:
            bar.close()
    df = _frame(rows, tables)
    df.attrs["interrupted"] = interrupted
    df.attrs["partitions"] = writer.written if writer is not None else []
    # The backend that played them ("compiled" when the kernels played any), and how many
    # each played; the time spent compiling before the first playout (none in the
    # background), and the background compile's own time.
    df.attrs["backend"] = "compiled" if by_backend["compiled"] else "reference"
    df.attrs["playouts_by_backend"] = by_backend
    df.attrs["compiled_in_background"] = background is not None and background.begun
    # A game with a compiled form whose run was too short for compiling to pay.
    df.attrs["compile_skipped"] = background is not None and not background.begun
    if background is not None:
        df.attrs["compile_seconds"] = background.load_seconds
        df.attrs["background_compile_seconds"] = background.seconds  # 0: stopped unfinished
    else:
        df.attrs["compile_seconds"] = kernels.compile_seconds if kernels is not None else 0.0
        df.attrs["background_compile_seconds"] = 0.0
    return df

# ---------------------------------------------------------------- runs written to a folder

def slug(text: str) -> str:
    """Lower-case words joined by '-' ("Adzua (Children) (Ludii 5)" -> "adzua-children-ludii-5")."""
    words = "".join(ch.lower() if ch.isalnum() else " " for ch in text).split()
    return "-".join(words)


def default_out_dir(path: str, ruleset: str | None, options: list[str], all_rulesets: bool,
                    sweep: list[str] | None = None) -> Path:
    """reports/<file>[-<ruleset or options>][-sweep-<categories> or -all-options]
    (`sweep`: the swept categories, ["*"] for every option)."""
    name = slug(Path(path).stem)
    if all_rulesets:
        return DEFAULT_REPORTS / f"{name}-all-rulesets"
    parts = [name]
    if ruleset:
        parts.append(slug(ruleset.split("/", 1)[-1]))
    parts.extend(slug(o.split("/", 1)[-1]) for o in options)
    if sweep:
        parts.append("all-options" if sweep == ["*"] else
                     "sweep-" + "-".join(slug(c) for c in sweep))
    # Drop the game's name where a ruleset or option repeats it.
    parts = [parts[0]] + [p.removeprefix(name + "-") for p in parts[1:]]
    return DEFAULT_REPORTS / "-".join(parts)


def ruleset_names(path: str) -> list[str | None]:
    """Every ruleset of a description, or [None] when it has none."""
    from ludeme.language.expand import load_description
    return [r.name for r in load_description(path).rulesets] or [None]


MAX_CONFIGURATIONS = 64      # configurations an option sweep may make in one run


def option_sweep(path: str, options=(), categories=None) -> list[tuple[str, ...]]:
    """The options of every configuration of a sweep: each combination of the items of the
    option `categories` (None: every option of the description), with the `options` given
    besides. A LudemeError for an unknown category, one that `options` fixes already, or a
    sweep of more than MAX_CONFIGURATIONS configurations (it says how many)."""
    from ludeme.errors import LudemeError, known_list, suggest
    from ludeme.language.expand import load_description
    desc = load_description(path)
    names = [o.category for o in desc.options]
    if categories is None:
        if not names:
            raise LudemeError(f"--all-options: {path} has no options")
        categories = names
    fixed = {desc.resolve_option(o, given="--option")[0].category for o in options}
    swept = []
    for category in dict.fromkeys(categories):
        option = next((o for o in desc.options if o.category == category), None)
        if option is None:
            listing = f"; its options: {known_list(names)}" if names else "; it has no options"
            raise LudemeError(f"--sweep {category!r}: {path} has no such option"
                              f"{suggest(category, names)}{listing}")
        if category in fixed:
            if len(categories) == len(names):       # --all-options: the given one stays
                continue
            raise LudemeError(f"--sweep {category!r} and --option {category}/... exclude "
                              "each other: sweep it or fix it")
        swept.append([f"{category}/{item.name}" for item in option.items])
    count = math.prod(len(items) for items in swept)
    if count > MAX_CONFIGURATIONS:
        sizes = " x ".join(str(len(items)) for items in swept)
        raise LudemeError(f"the sweep makes {count:,} configurations ({sizes} items); at most "
                          f"{MAX_CONFIGURATIONS} in one run: sweep fewer options, or fix some "
                          "with --option")
    return [(*options, *combination) for combination in itertools.product(*swept)]


@dataclass
class WrittenRun:
    """What `run_and_write` played and wrote."""

    df: object                  # the playout table (or, for a partitioned run, its tallies)
    summary: object             # the summary table, one row per configuration
    written: list[Path]         # the files written; none when no playout finished
    playouts: int               # playouts finished
    seconds: float              # wall time of the playing
    backends: set[str]          # the backends that played ("compiled", "reference")
    compile_seconds: float      # time spent compiling kernels, part of `seconds`
    interrupted: bool           # Ctrl-C stopped the run: what finished was kept
    failed: list = field(default_factory=list)   # (ruleset, the error) of rulesets that failed
    # The playouts each backend played, and the kernels compiled in the background while
    # the reference engine played: their compile time ("stopped": the run ended first).
    by_backend: dict = field(default_factory=lambda: {"reference": 0, "compiled": 0})
    background: list = field(default_factory=list)
    compile_skipped: bool = False   # a compiled form, but too short a run to compile it
    stops: list = field(default_factory=list)    # per configuration, a precision-driven
    # run's stop (`ludeme.analysis.precision.UntilCI.record`)

    def backend_line(self) -> str:
        """Which backend played how many playouts, for the console."""
        ref, fast = self.by_backend["reference"], self.by_backend["compiled"]
        waited = f", compiling {self.compile_seconds:.2f} s of it" if self.compile_seconds \
            and not self.background else ""
        if ref and fast:
            seconds = [s for s in self.background if s]
            during = f" ({max(seconds):.1f} s)" if seconds else ""
            return (f"{ref} on the reference engine while the kernels compiled{during}, "
                    f"{fast} compiled")
        if fast:
            return f"compiled backend{waited}"
        if self.background:
            return "reference backend; the kernels compiling meanwhile were not ready before the end"
        if self.compile_skipped:
            return "reference backend; too short a run to compile the kernels"
        return "reference backend"


def run_and_write(path: str, out: str | os.PathLike, rulesets=(None,), options=(), n: int =
                  DEFAULT_PLAYOUTS, seed: int = 0, jobs: int | None = None, *,
                  agents: str | None = None, rotate: bool = False, scheduler: str | None = None,
                  max_turns: int | None = None, max_moves: int | None = None,
                  progress: bool | None = None, backend: str = "auto",
                  command: str | None = None, until: list | None = None,
                  option_sets: list | None = None, evaluation: bool = False) -> WrittenRun:
    """Play `n` playouts of each ruleset of the description at `path` (None: its default),
    summarise them and write the tables, plots and report into `out` (`ludeme run`).

    `agents`: one spec per player, "A,B,..." (`ludeme.ai.agents.agents_from_specs`);
    the rest as `run_playouts`. A run of more than PARTITION_SIZE playouts per configuration
    writes them to `out/playouts/` partition by partition as they finish and summarises them
    as it goes, so memory stays bounded and Ctrl-C keeps the finished partitions; the plots
    then read the counts of the values they show (`ludeme.analysis.report.tally`), not the rows.
    Ctrl-C stops the run and writes what finished (`interrupted`); nothing when no playout did.
    `command`: the command line, recorded in the summary with the version, the backends
    (and the playouts each played), whether the run was interrupted and the seeds.
    `until`: targets (`ludeme.analysis.precision.Target`) for a precision-driven run: each
    configuration plays in batches until the targets' intervals are narrow enough, `n`
    being the cap (`ludeme.analysis.precision`); the stops are in run.json and the summary.
    `option_sets`: the options of each configuration (an option sweep, `option_sweep`),
    each played with each ruleset; None: `options` alone.
    `evaluation`: Ludii's state-evaluation metrics too (`run_playouts`).
    """
    from .outdir import run_lock
    with run_lock(out):     # a second run into `out` meanwhile is refused, before playing
        return _play_and_write(path, n, out, seed, jobs, rulesets, option_sets or [options],
                               agents, rotate, scheduler, max_turns, max_moves, progress,
                               backend, command, until, evaluation)


def _play_and_write(path, n, out, seed, jobs, rulesets, option_sets, agents, rotate, scheduler,
                    max_turns, max_moves, progress, backend, command, until,
                    evaluation=False) -> WrittenRun:
    from ludeme.errors import LudemeError
    configurations = [(r, list(o)) for r in rulesets for o in option_sets]
    several = len(configurations) > 1
    # A lone configuration is loaded before the report's modules (pandas, scipy,
    # matplotlib: seconds) are imported: a file refused while loading is said at once.
    first = None if several or not configurations else load(
        path, configurations[0][1], configurations[0][0], max_turns=max_turns,
        max_moves=max_moves, backend=backend)
    import pandas as pd

    from ludeme.ai.agents import agents_from_specs
    from ludeme.engine.compiled import Unsupported
    from .metrics import Summary
    from .precision import UntilCI
    from .report import config_label, note_run_start, playouts_in, write_run
    from .samples import SamplePicker, showcase
    out = Path(out)
    note_run_start(out)
    partitioned = n > PARTITION_SIZE
    # A large run's partitions go to a folder of its own beside the others, moved into
    # place as `out/playouts` with the run's other files (`write_run`): two runs into one
    # `out` never mix their parts, and an unfinished run leaves nothing behind.
    staging = out / f".playouts.{os.getpid()}-{uuid.uuid4().hex[:8]}" if partitioned else None
    summary = Summary()
    frames = []
    failed: list[tuple[str | None, str]] = []
    interrupted = False
    compile_seconds = 0.0
    backends: set[str] = set()
    by_backend = {"reference": 0, "compiled": 0}
    background: list[float] = []
    skipped = False
    configs: list[dict] = []
    showcases: list[dict] = []
    stops: list[dict] = []
    t0 = time.perf_counter()
    try:
        for ruleset, options in configurations:
            picker = SamplePicker()
            books = _Bookkeeper(summary, picker)
            try:
                game = first if first is not None else load(
                    path, options, ruleset, max_turns=max_turns, max_moves=max_moves,
                    backend=backend)
                first = None
                players = agents_from_specs(agents, game.num_players) if agents else None
            except LudemeError as e:
                if not several:
                    raise
                failed.append((ruleset, e))     # the others still play, and are kept
                continue
            config_name = config_label({"game": game.name, "ruleset": game.ruleset or "",
                                        "options": "; ".join(game.options)})
            label = (ruleset or game.name).split("/", 1)[-1]
            if len(option_sets) > 1:        # a sweep: each configuration its own folder
                label = f"{label} {'; '.join(game.options)}"
            parts = staging / slug(label) if partitioned else None
            tracker = UntilCI(until, n) if until else None
            try:
                result = run_playouts(
                    game, n, seed, jobs, agents=players, rotate=rotate,
                    scheduler=scheduler, partitions=parts, keep_rows=not partitioned,
                    on_partition=books.take,
                    progress=progress, label=label, until=tracker, evaluation=evaluation)
            except Unsupported as e:        # --backend compiled on a game it cannot compile
                error = LudemeError(f"{label}: the compiled backend has no form for {e} yet "
                                    "(use --backend reference or auto)")
                if not several:
                    raise error from None
                failed.append((ruleset, error))
                continue
            configs.append({"game": game.name, "ruleset": game.ruleset or "",
                            "options": list(game.options), "max_turns": max_turns,
                            "max_moves": max_moves})
            compile_seconds += result.attrs.get("compile_seconds", 0.0)
            backends.add(result.attrs.get("backend", "reference"))
            for name, count in result.attrs.get("playouts_by_backend", {}).items():
                by_backend[name] += count
            if result.attrs.get("compiled_in_background"):
                background.append(result.attrs["background_compile_seconds"])
            skipped = skipped or result.attrs.get("compile_skipped", False)
            if partitioned:
                df = books.tally()
            else:
                df = result
                summary.add(df)
                picker.add(df)
            frames.append(df)
            if tracker is not None:
                stops.append(tracker.record(config_name, playouts_in(df)))
            if result.attrs["interrupted"]:      # what finished is written, no more is played
                interrupted = True
                break
            showcases.append(showcase(game, path, options, ruleset, picker, config_name,
                                      slug(label)))
        wall = time.perf_counter() - t0
        df = pd.concat([f for f in frames if not f.empty], ignore_index=True) \
            if any(not f.empty for f in frames) else pd.DataFrame()
        if df.empty:
            return WrittenRun(df, pd.DataFrame(), [], 0, wall, backends, compile_seconds,
                              interrupted, failed, by_backend, background, skipped, stops)
        table = summary.table()
        record = run_record(path, configs, command=command, seed=seed, by_backend=by_backend,
                            interrupted=interrupted)
        if until:
            record["until_ci"] = {"targets": {t.metric: t.text() for t in until}, "cap": n,
                                  "stops": stops}
        written = write_run(df, table, out, partitioned=partitioned, staging=staging,
                            run=record, showcases=showcases)
        return WrittenRun(df, table, written, playouts_in(df), wall, backends, compile_seconds,
                          interrupted, failed, by_backend, background, skipped, stops)
    finally:
        if staging is not None and staging.exists():     # not moved into place: not kept
            shutil.rmtree(staging, ignore_errors=True)


def run_record(path, configs: list[dict], *, command: str | None = None, seed: int = 0,
               by_backend: dict | None = None, interrupted: bool = False) -> dict:
    """What `run.json` says a run played, and what makes it citable (the summary and the
    report show it: `ludeme.analysis.report.provenance`): the description (its absolute
    path, for `ludeme view RUN_DIR --row K`), per configuration its ruleset, options and
    limits (None: the game's own), the command line (None: a library call), ludeme's version
    and git commit (None where ludeme is not a git checkout), the time the run was written
    (UTC), the run's seed, the playouts each backend played and whether Ctrl-C cut it short."""
    return {"description": str(Path(path).resolve()), "engine_version": __version__,
            "commit": source_commit(), "configurations": configs, "command": command,
            "written_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "seed": seed,
            "playouts_by_backend": dict(by_backend or {}), "interrupted": interrupted}


def source_commit() -> str | None:
    """The git commit of ludeme's source, when it runs from a checkout (an editable install);
    None otherwise."""
    import subprocess
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return (out.stdout.strip() or None) if out.returncode == 0 else None


class _Bookkeeper:
    """The finished partitions of a large run, taken into the summary and counted for the
    plots SUMMARY_BATCH playouts at a time (each pass over a table has a fixed cost), and
    offered to the report's choice of sample games (`samples.SamplePicker`, None: none)."""

    def __init__(self, summary, picker=None):
        self.summary, self.tallies, self.pending, self.rows = summary, [], [], 0
        self.picker = picker

    def take(self, rows) -> None:
        self.pending.append(rows)
        self.rows += len(rows)
        if self.rows >= SUMMARY_BATCH:
            self.flush()

    def flush(self) -> None:
        import pandas as pd

        from .report import tally
        if not self.pending:
            return
        if all(isinstance(r, list) for r in self.pending):
            frame = pd.DataFrame.from_records([row for rows in self.pending for row in rows])
        elif any(isinstance(r, (list, pd.DataFrame)) for r in self.pending):
            frame = pd.concat([as_frame(r) for r in self.pending], ignore_index=True)
        else:                                # Arrow tables: joined before pandas sees them
            import pyarrow as pa
            # each column made one chunk first: pandas joined a column's chunks (a partition
            # or two each, or the kernels' small first ones) a third slower
            frame = as_frame(pa.concat_tables(self.pending).combine_chunks())
        self.pending, self.rows = [], 0
        self.summary.add(frame)
        self.tallies.append(tally(frame))
        if self.picker is not None:
            self.picker.add(frame)

    def tally(self):
        """The counts of the plotted values of every partition taken."""
        import pandas as pd

        from .report import tally
        self.flush()
        return tally(pd.concat(self.tallies, ignore_index=True)) if self.tallies \
            else pd.DataFrame()
