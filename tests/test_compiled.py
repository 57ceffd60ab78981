"""The compiled backend gives the reference engine's answers: same seeds, same rows, same traces."""

import os
import random
import re

import numpy as np
import pandas as pd
import pytest

from conftest import DESCRIPTIONS, NO_COMPILED_FORM, ludii_dir, refdata_dir
from ludeme.cli.main import main
from ludeme.engine import compiled
from ludeme.engine.compiled import BACKENDS, Unsupported
from ludeme.engine.compiled import rt
from ludeme.analysis.crosscheck import crosscheck_files
from ludeme.analysis.playouts import load, playout_seed, run_playouts

# (Ludii file, playouts compared per run seed): the reference configurations it compiles.
KONANE_8 = "Konane.lud:8x8 Konane (Suggested)"
COMPILED_GAMES = [("Tic-Tac-Toe.lud", 400), ("Breakthrough.lud", 60), (KONANE_8, 40)]
SLOW_COMPILED_GAMES = [("Gomoku.lud", 20), ("Konane.lud:10x10 Konane (Observed)", 20)]
# Lines of Action: hops over a counted line of pieces, groups in the end rules.
LOA_MOVER_WINS = "End rules/Simultaneous Group = Mover Win"
LOA_DRAW = "End rules/Simultaneous Group = Draw"
LOA_GAMES = [("Lines of Action.lud", 4), (f"Lines of Action.lud@{LOA_MOVER_WINS}", 4),
             (f"{DESCRIPTIONS / 'lines_of_action.lud'}", 4),
             (f"{DESCRIPTIONS / 'lines_of_action.lud'}@{LOA_DRAW}", 4),
             # Counts over regions that read the position: (sites Around ... NotEmpty), a
             # (difference ...) of it, (count Pieces ... in:) with a name.
             (f"{DESCRIPTIONS / 'lines_of_action.lud'}:Ruleset/Neighbours", 4),
             (f"{DESCRIPTIONS / 'lines_of_action.lud'}:Ruleset/Numbered Pieces", 4),
             # teams: (is Friend) of a partner, a team's win ranking both its members
             (f"{DESCRIPTIONS / 'lines_of_action.lud'}:Ruleset/Two Piece Types (Partnership)",
              4)]
# Adzua (Children), Ludii's file: hands, phases, scores, lines through a site.
ADZUA_GAMES = [(f"Adzua (Children).lud:Ruleset/Adzua (Children) (Ludii {k}) (Reconstructed)", 30)
               for k in range(1, 10)]


def bundled_configurations():
    """(file, ruleset) of every bundled description."""
    from ludeme.analysis.playouts import ruleset_names
    return [(path, ruleset) for path in sorted(DESCRIPTIONS.glob("*.lud"))
            for ruleset in ruleset_names(path)]


# What the compiled backend has no form for yet, per bundled description and ruleset.
NOT_COMPILED: dict[str, str] = {}


def ludii_game(name: str, backend: str = "auto"):
    """A Ludii game by file name (or a path), with ':ruleset' or '@option' after it if any."""
    name, _, option = name.partition("@")
    if "/" in name:
        path, _, ruleset = name.partition(":")
        return load(path, [option] if option else [], ruleset=ruleset or None, backend=backend)
    d = ludii_dir()
    if d is None:
        pytest.skip("Ludii's .lud files not found: put shared/ beside the checkout")
    file, _, ruleset = name.partition(":")
    return load(d / "games" / file, [option] if option else [], ruleset=ruleset or None,
                backend=backend)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**32 - 1, 2**32, 2**40 + 12345, 2**63 + 5])
@pytest.mark.parametrize("index", [0, 1, 999, 2**32 + 7])
def test_playout_seeds_are_numpys(seed, index):
    assert rt.playout_seed_of(rt.int_words(seed), index) == playout_seed(seed, index)


@pytest.mark.parametrize("seed", [0, 1, 2**31, 2**32 + 1, 2**62 + 12345, 2**63 - 1])
def test_choices_are_pythons_random(seed):
    mt = np.zeros(rt.MT_STATE_SIZE, dtype=np.int64)
    rt.mt_seed(mt, seed)
    r = random.Random(seed)
    bounds = [1, 2, 3, 7, 9, 64, 100, 1000, 2**31] * 100      # > 624 draws: the state refills
    assert [rt.rand_below(mt, k) for k in bounds] == [r.randrange(k) for k in bounds]


def test_seeding_a_block_is_seeding_each():
    seeds = [0, 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**62 + 12345, 2**63 - 1, 77]
    mts = np.zeros((rt.MT_STATE_SIZE, rt.SEED_BLOCK), dtype=np.uint32)    # as the kernels'
    rt.mt_seed_block(mts, np.array(seeds, dtype=np.int64), len(seeds))
    one = np.zeros(rt.MT_STATE_SIZE, dtype=np.int64)
    for b, seed in enumerate(seeds):
        rt.mt_seed(one, seed)
        assert (mts[:, b] == one).all(), seed
        r = random.Random(seed)
        column = mts[:, b]
        bounds = [3, 9, 1000, 2**31] * 200
        assert [rt.rand_below(column, k) for k in bounds] == [r.randrange(k) for k in bounds]


def test_seeding_a_full_block_in_32_bit_words():
    """A whole block (every lane of the 32-bit rows) seeds as random.seed does, the
    generators drawing from the block as it is; more seeds than the block has columns are
    refused, not written past it."""
    seeds = np.random.default_rng(5).integers(0, 2**63 - 1, rt.SEED_BLOCK, dtype=np.int64)
    mts = np.zeros((rt.MT_STATE_SIZE, rt.SEED_BLOCK), dtype=np.uint32)
    rt.mt_seed_block(mts, seeds, len(seeds))
    for b, seed in enumerate(seeds.tolist()):
        assert mts[:, b].tolist() == [*random.Random(seed).getstate()[1], rt.MT_STATE_SIZE - 2]
        r = random.Random(seed)
        bounds = [2, 7, 10**6, 2**32 - 1] * 200      # past the first 624 words: a new block
        assert [rt.rand_below(mts[:, b], k) for k in bounds] == [r.randrange(k) for k in bounds]
    with pytest.raises(ValueError, match="columns"):
        rt.mt_seed_block(np.zeros((rt.MT_STATE_SIZE, 3), dtype=np.uint32),
                         np.zeros(4, dtype=np.int64), 4)


def _same_rows(game, n, seed):
    """The rows of n playouts on both backends are the same; the reference engine's rows."""
    ref = run_playouts(game, n, seed, jobs=1, progress=False, backend="reference")
    fast = run_playouts(game, n, seed, jobs=1, progress=False, backend="compiled")
    assert ref.attrs["backend"] == "reference" and fast.attrs["backend"] == "compiled"
    pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
    return ref


@pytest.mark.parametrize("path,ruleset", bundled_configurations(),
                         ids=lambda x: x.name if hasattr(x, "name") else str(x))
def test_every_bundled_configuration_compiles_or_says_why_not(path, ruleset):
    from ludeme.engine.compiled.codegen import generate
    game = load(path, ruleset=ruleset)
    label = (ruleset or "").split("/", 1)[-1]
    why = NOT_COMPILED.get(f"{path.name}:{label}", NOT_COMPILED.get(path.name))
    if why is None:
        generate(game)
    else:
        with pytest.raises(Unsupported, match=re.escape(why)):
            generate(game)


@pytest.mark.slow
@pytest.mark.parametrize("path,ruleset", [
    (p, r) for p, r in bundled_configurations()
    if f"{p.name}:{(r or '').split('/', 1)[-1]}" not in NOT_COMPILED and p.name not in NOT_COMPILED],
    ids=lambda x: x.name if hasattr(x, "name") else str(x))
def test_every_compiled_bundled_configuration_gives_the_reference_rows(path, ruleset):
    game = load(path, ruleset=ruleset)
    for seed in (0, 5, 2**40):
        _same_rows(game, 40, seed)


@pytest.mark.parametrize("name,n", COMPILED_GAMES + LOA_GAMES + [
    (f"{DESCRIPTIONS / 'adzua_children.lud'}:Adzua (Children) (Ludii 5) (Reconstructed)", 30),
    # chance: the first colour drawn per game, recorded in the rows' chance column
    (f"{DESCRIPTIONS / 'afterleap.lud'}", 10),
    # teams of two colours: (result TeamMover Win), (is Enemy) of the other team
    (f"{DESCRIPTIONS / 'afterleap.lud'}:Ruleset/Two players", 10),
    # stacks walking and capturing, with left-over steps kept in a variable
    (f"{DESCRIPTIONS / 'seesaw.lud'}", 10)])
def test_same_seed_same_row_on_both_backends(name, n):
    game = ludii_game(name)
    for seed in (0, 7):
        _same_rows(game, n, seed)


@pytest.mark.slow
@pytest.mark.parametrize("name,n", SLOW_COMPILED_GAMES + [(g, n * 10) for g, n in
                                                          COMPILED_GAMES + LOA_GAMES]
                         + ADZUA_GAMES)
def test_same_rows_many_seeds(name, n):
    game = ludii_game(name)
    for seed in (3, 2**40):
        _same_rows(game, n, seed)


@pytest.mark.slow
def test_rows_do_not_depend_on_processes():
    game = ludii_game("Tic-Tac-Toe.lud", backend="compiled")
    one = run_playouts(game, 3000, 5, jobs=1, progress=False)
    two = run_playouts(game, 3000, 5, jobs=2, progress=False)
    pd.testing.assert_frame_equal(one.drop(columns="seconds"), two.drop(columns="seconds"))


@pytest.mark.parametrize("slug", ["tic-tac-toe", "breakthrough", "gomoku", "konane-8x8",
                                  "konane-10x10", "lines-of-action-mover-win",
                                  pytest.param("lines-of-action-draw", marks=pytest.mark.slow)]
                         + [f"adzua-children-ludii-{k}" for k in (1, 5, 10)]
                         + [pytest.param(f"adzua-children-ludii-{k}", marks=pytest.mark.slow)
                            for k in (2, 3, 4, 6, 7, 8, 9)])
def test_traces_agree_on_the_compiled_backend(slug):
    ref = refdata_dir()
    if ref is None or ludii_dir() is None:
        pytest.skip("Ludii reference data not found: put shared/ beside the checkout")
    traces = sorted(str(p) for p in (ref / "traces" / slug).glob("*.json.gz"))
    assert traces
    verdicts = crosscheck_files(traces, str(ludii_dir()), backend="compiled")
    assert [v.line() for v in verdicts if not v.ok] == []
    assert sum(v.steps for v in verdicts) > 0


@pytest.mark.parametrize("slug,lud", [
    pytest.param(slug, "lines_of_action.lud", marks=pytest.mark.slow)
    for slug in ("lines-of-action-draw", "lines-of-action-mover-win")]
    + [(f"adzua-children-ludii-{k}", "adzua_children.lud") for k in (1, 5, 10)]
    + [pytest.param(f"adzua-children-ludii-{k}", "adzua_children.lud", marks=pytest.mark.slow)
       for k in (2, 3, 4, 6, 7, 8, 9)])
def test_traces_agree_on_the_compiled_backend_with_our_description(slug, lud):
    ref = refdata_dir()
    if ref is None:
        pytest.skip("Ludii reference data not found: put shared/ beside the checkout")
    traces = sorted(str(p) for p in (ref / "traces" / slug).glob("*.json.gz"))
    verdicts = crosscheck_files(traces, lud=str(DESCRIPTIONS / lud), backend="compiled")
    assert traces and [v.line() for v in verdicts if not v.ok] == []


def test_a_game_without_a_compiled_form_falls_back_and_says_so_once(capsys, auto_takes_kernels):
    compiled._REPORTED.clear()
    game = load(NO_COMPILED_FORM)
    df = run_playouts(game, 2, 0, jobs=1, progress=False)
    again = run_playouts(game, 2, 0, jobs=1, progress=False)
    assert df.attrs["backend"] == again.attrs["backend"] == "reference"
    err = capsys.readouterr().err
    assert err.count("no compiled form") == 1 and "reference engine" in err
    with pytest.raises(Unsupported):
        run_playouts(game, 1, 0, jobs=1, progress=False, backend="compiled")


def test_auto_plays_on_the_reference_engine_when_numbas_jit_is_off(monkeypatch, capsys):
    # The kernels run as Python are slower than the reference engine: "auto" leaves them,
    # saying so once; "compiled" still runs them (and gives the same rows)
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    compiled._REPORTED.clear()
    game = ludii_game("Tic-Tac-Toe.lud")
    runs = [run_playouts(game, 3, 0, jobs=1, progress=False) for _ in range(2)]
    assert [df.attrs["backend"] for df in runs] == ["reference", "reference"]
    assert capsys.readouterr().err.count("numba's JIT is off (NUMBA_DISABLE_JIT)") == 1
    fast = run_playouts(game, 3, 0, jobs=1, progress=False, backend="compiled")
    assert fast.attrs["backend"] == "compiled"
    pd.testing.assert_frame_equal(runs[0].drop(columns="seconds"), fast.drop(columns="seconds"))
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "0")
    assert not compiled.jit_off()


def test_cli_refuses_compiled_for_an_unsupported_game(capsys, tmp_path):
    code = main(["run", str(NO_COMPILED_FORM), "-n", "1", "--jobs", "1",
                 "--backend", "compiled", "--out", str(tmp_path), "--no-progress"])
    assert code == 2
    assert "compiled backend has no form for" in capsys.readouterr().err


def test_cli_runs_the_compiled_backend(capsys, tmp_path, auto_takes_kernels):
    if ludii_dir() is None:
        pytest.skip("Ludii's .lud files not found: put shared/ beside the checkout")
    code = main(["run", str(ludii_dir() / "games" / "Tic-Tac-Toe.lud"), "-n", "50", "--jobs", "1",
                 "--out", str(tmp_path), "--no-progress"])
    assert code == 0
    assert "compiled backend, compiling" in capsys.readouterr().out
    assert len(pd.read_parquet(tmp_path / "playouts.parquet")) == 50


def test_unknown_backend_is_refused():
    assert BACKENDS == ("auto", "reference", "compiled")
    with pytest.raises(ValueError, match="backend must be one of"):
        load(DESCRIPTIONS / "adzua_children.lud", backend="fast")


def test_compiled_partitions_hold_the_reference_rows(tmp_path):
    # On the compiled backend itself: on "auto" with an empty compile cache, the 250
    # playouts end on the reference engine before the kernels are ready (the test passed
    # only where an earlier test had left them in the cache).
    game = ludii_game("Tic-Tac-Toe.lud")
    seen = []
    df = run_playouts(game, 250, 4, jobs=1, progress=False, partitions=tmp_path,
                      partition_size=100, keep_rows=False, on_partition=seen.append,
                      backend="compiled")
    assert df.empty and df.attrs["backend"] == "compiled"
    assert [len(p) for p in seen] == [100, 100, 50]
    stored = pd.read_parquet(tmp_path).sort_values("index").reset_index(drop=True)
    ref = run_playouts(game, 250, 4, jobs=1, progress=False, backend="reference")
    pd.testing.assert_frame_equal(stored.drop(columns="seconds"), ref.drop(columns="seconds"))


NUMBA_CHECK = """
import pandas as pd
from ludeme.analysis.playouts import kernel_table, load, run_playouts
from ludeme.engine import compiled
game = load({path!r}, ruleset={ruleset!r})
# With an empty cache the kernels compile in another process (the run would play on the
# reference engine meanwhile); numba's cache has them afterwards, and the next start loads
# them at once, compiled once.
job = compiled.start(game)
assert isinstance(job, compiled.Compiling), job
assert job.kernels() is not None and job.seconds > 0
job.cancel()
assert compiled.ready_mark(job.path).exists()
kernels = compiled.start(load({path!r}, ruleset={ruleset!r}))
assert isinstance(kernels, compiled.CompiledGame), kernels
# A one-row output array is typed row-major by numba: a chunk of one playout (the warm-up,
# or a run's last chunk) must not compile a second specialisation.
for first, n in ((0, 1), (1, 3), (4, 1), (5, 300)):
    assert kernel_table(game, kernels, 9, first, n).num_rows == n
assert len(kernels.module.playouts.signatures) == 1
ref = run_playouts(game, 60, 1, jobs=1, progress=False, backend="reference")
fast = run_playouts(game, 60, 1, jobs=1, progress=False, backend="compiled")
pd.testing.assert_frame_equal(ref.drop(columns="seconds"), fast.drop(columns="seconds"))
print("kernel:", type(kernels.module.playouts).__module__)
"""


def test_numba_compiles_the_main_jobs_kernels(tmp_path):
    """The default suite runs the generated kernels as Python (conftest.pytest_configure);
    here numba compiles one game's, the README's main job, in a process of its own with an
    empty cache: in another process first, then from numba's cache; the kernels type, give
    the reference rows, and the playout kernel compiles once for every chunk size."""
    import os
    import subprocess
    import sys
    code = NUMBA_CHECK.format(path=str(DESCRIPTIONS / "adzua_children.lud"),
                              ruleset="Adzua (Children) (Ludii 5) (Reconstructed)")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env["LUDEME_CACHE_DIR"] = str(tmp_path)
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=1200)
    assert got.returncode == 0, got.stderr[-3000:]
    assert got.stdout.split("kernel:")[-1].strip().startswith("numba"), got.stdout


def test_kernels_run_as_python_say_nothing_of_their_wrapping_arithmetic(tmp_path):
    # The kernels' integer arithmetic wraps by design (hash keys, the generators' 32-bit
    # words); run as Python, numpy warned of each wrap on the console
    import subprocess
    import sys
    game = tmp_path / "line.lud"
    game.write_text('(game "Line" (players 2) (equipment {(board (square 3)) '
                    '(piece "Disc" Each)}) (rules (play (move Add (to (sites Empty)))) '
                    '(end (if (is Line 3) (result Mover Win)))))')
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "LUDEME_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONWARNINGS", None)
    got = subprocess.run([sys.executable, "-W", "default", "-m", "ludeme", "run", str(game),
                          "-n", "3", "--jobs", "1", "--backend", "compiled", "--no-progress",
                          "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300, env=env)
    assert got.returncode == 0, got.stderr
    assert "compiled backend" in got.stdout
    assert "RuntimeWarning" not in got.stderr, got.stderr


def test_check_names_what_a_game_lacks_for_a_compiled_form_without_numba(tmp_path):
    import subprocess
    import sys
    lacking = tmp_path / "lacking.lud"
    lacking.write_text('(game "Lacking" (players 2) (equipment {(board (square 3)) '
                       '(piece "Disc" Each)}) (rules (play (move Add (to (sites Empty)))) '
                       '(end (if (all Different (sites Row 0) if:(is Occupied (site))) '
                       '(result Mover Win)))))')
    code = ("import sys\nfrom ludeme.cli.main import main\n"
            f"rc = main(['check', {str(DESCRIPTIONS / 'adzua_children.lud')!r}, "
            f"{str(lacking)!r}, '--stage', 'compile', '--backend', 'compiled'])\n"
            "print('numba imported:', 'numba' in sys.modules)\nsys.exit(rc)\n")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert got.returncode == 1, got.stderr
    out = got.stdout
    assert "adzua_children.lud: compiled form (default and 10 ruleset(s))" in out
    # The ludeme it lacks, where it is written, and its path in the game.
    assert re.search(r"lacking\.lud:1:\d+: no compiled form: the compiled backend lacks "
                     r"\(all Different\) \(in game/rules/end/if/all\)", out), out
    assert out.splitlines()[-2:] == ["1 passed, 1 failed", "numba imported: False"]


ENEMY_GAME = ('(game "Enemy" (players {n}) (equipment {{(board (square 3)) (piece "Disc" Each '
              '(move Step (to if:(is Empty (to)))))}}) (rules (start {{(place "Disc1" 0) '
              '(place "Disc2" 8) {third}}}) (play (or (forEach Piece) (move Remove '
              '(sites Occupied by:Enemy)))) (end (if (no Pieces Enemy) (result Mover Win)))))')


@pytest.mark.parametrize("n", [2, 3])
def test_a_role_naming_several_players_has_a_compiled_form(tmp_path, n):
    # (no Pieces Enemy) counts the pieces of every enemy of the mover: with two players the
    # one other player. Before, the generator stopped with "the role Enemy names several
    # players where one is expected", as if the file were at fault (Nard's default ruleset)
    from ludeme.engine.compiled import missing_form
    path = tmp_path / "enemy.lud"
    path.write_text(ENEMY_GAME.format(n=n, third='(place "Disc3" 4)' if n == 3 else ''))
    assert missing_form(load(path)) is None


@pytest.mark.slow
def test_a_role_naming_several_players_gives_the_reference_rows(tmp_path):
    path = tmp_path / "enemy.lud"
    path.write_text(ENEMY_GAME.format(n=3, third='(place "Disc3" 4)'))
    game = load(path)
    for seed in (1, 2):
        _same_rows(game, 30, seed)
    assert run_playouts(game, 30, 1, jobs=1, progress=False,
                        backend="reference")["winner"].nunique() > 1


# A small game of our own that reads the counters, limits and piece counts the kernels
# now have: (count Moves), (count Turns), (value MoveLimit), (is Even/Odd), (no Pieces)
# and (sites Occupied by:Enemy). Players step, and on odd moves may take an enemy piece instead.
COUNTERS_GAME = """
(game "Counters"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each (move Step (to if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" {0 1 2}) (place "Disc2" {13 14 15})})
    (play (if (is Even (count Moves))
              (forEach Piece)
              (or (forEach Piece) (move Remove (sites Occupied by:Enemy)))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (and (is Odd (count Turns)) (>= (count Turns) (- (value MoveLimit) 9985)))
              (result Mover Draw))})))
"""


def test_counters_and_piece_counts_give_the_reference_rows(tmp_path):
    path = tmp_path / "counters.lud"
    path.write_text(COUNTERS_GAME)
    game = load(path)
    from ludeme.engine.compiled.codegen import generate
    generate(game)                  # it has a compiled form
    for seed in (0, 3, 11):
        _same_rows(game, 40, seed)
    df = run_playouts(game, 40, 0, jobs=1, progress=False, backend="reference")
    # Both ends happen: a side without pieces, and the draw on a late odd turn.
    assert set(df["end_type"]) == {"NaturalEnd"}
    assert df["winner"].eq(0).any() and df["winner"].gt(0).any()
    assert set(df.loc[df["winner"].eq(0), "turns"] % 2) == {1}


# The (then ...) of (if ...) and (or ...) moves applies to every move made inside them,
# after the move's own, on both backends.
THENS_GAME = """
(game "Thens"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each (move Step (to if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" {0 1 2}) (place "Disc2" {13 14 15})})
    (play (if (is Even (count Turns))
              (or (forEach Piece) (move Remove (sites Occupied by:Enemy))
                  (then (if (is Odd (count Moves)) (moveAgain))))
              (forEach Piece)
              (then (if (is Even (count Moves)) (moveAgain)))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


def test_the_then_of_if_and_or_moves_gives_the_reference_rows(tmp_path):
    # (the turn's moves go on while (count Moves) is of the right parity: the game ends by
    # its own draw rule, not the move limit)
    path = tmp_path / "thens.lud"
    path.write_text(THENS_GAME)
    game = load(path)
    for seed in (1, 4, 9):
        _same_rows(game, 40, seed)
    df = run_playouts(game, 40, 1, jobs=1, progress=False, backend="reference")
    assert not df["timeout"].any() and df["moves"].gt(df["turns"]).all()


# (sites Start ...) read as a test of a site and as sites to place on;
# a piece added by name for the mover; scores set by the start rules.
STARTS_GAME = """
(game "Starts"
  (players 2)
  (equipment {(board (square 4))
               (piece "Disc" Each (move Step (to if:(and (is Empty (to))
                    (not (is In (to) (sites Start (piece (what at:(from))))))))))})
  (rules
    (start {(place "Disc1" {0 1 2}) (place "Disc2" {13 14 15}) (set Score P2 3)})
    (play (or {(forEach Piece)
               (move Add (piece "Disc" Mover) (to (sites Start (piece "Disc1"))
                    if:(is Empty (to))))}
              (then (addScore Mover 1))))
    (end {(if (>= (score Mover) 12) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""


# (id ...) by name and by role, (/ ...), (% ...), (count MovesThisTurn) and the (then ...)
# of (forEach Piece).
IDS_GAME = """
(game "Ids"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each (move Step (to if:(is Empty (to)))))
               (piece "Cross" P2)})
  (rules
    (start {(place "Disc1" {0 1 2}) (place "Disc2" {13 14 15})})
    (play (or (forEach Piece (then (if (and (= 0 (count MovesThisTurn))
                                            (= 1 (% (count Moves) 3))) (moveAgain))))
              (move Add (piece (id "Cross" P2))
                    (to (sites Empty) if:(= (id Next) (+ 1 (/ (count Moves) 1000)))))))
    (end {(if (no Moves Next) (result Mover Win))
          (if (= (what at:(last To)) (id "Cross" P2)) (result P1 Win))
          (if (>= (count Turns) (* (+ 1 (count Players)) (/ 41 4))) (result Mover Draw))})))
"""


# (move Slide) with between and to conditions and a to effect, (centrePoint), and the
# union of static regions.
SLIDES_GAME = """
(game "Slides"
  (players 2)
  (equipment {(board (square 5))
    (piece "Rook" Each (move Slide Orthogonal
       (between if:(and (is Empty (between)) (!= (between) (centrePoint))))
       (to if:(is Enemy (who at:(to)))
           (apply if:(not (is In (to) (union (sites Corners) (sites {5 19}))))
                  (remove (to))))))})
  (rules
    (start {(place "Rook1" {0 1 2 8}) (place "Rook2" {16 22 23 24})})
    (play (forEach Piece))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Turns) 80) (result Mover Draw))})))
"""


# (do ... ifAfterwards:) with its moves' own (then ...) applied in the test and its own after
# it, (count Liberties), (size Group), (if ...) as a value and as a condition, (min), (max),
# (+ {...}) and an end (if ...) with inner rules.
AFTERWARDS_GAME = """
(game "Afterwards"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (do (move Add (to (sites Empty))
                 (then (if (= 1 (% (count Moves) 4)) (moveAgain))))
              ifAfterwards:(and
                (if (is Mover P1) (> (count Liberties Orthogonal) 0)
                                  (> (count Liberties Orthogonal) 1))
                (<= (size Group at:(last To) Orthogonal) (max 3 (if (is Mover P1) 2 4))))
              (then (addScore Mover (+ {1 (if (is Even (count Moves)) 1 0) (min 2 3)})))))
    (end {(if (no Moves Next)
              {(if (> (score P1) (score P2)) (result P1 Win))
               (if (< (score P1) (score P2)) (result P2 Win))}
              (result Mover Draw))
          (if (>= (score Mover) 45) (result Mover Win))})))
"""


# (is Connected ...) by role, by region type and by regions given; the swap rule; a
# (no Moves Next) inside the moves it probes.
JOINS_GAME = """
(game "Joins"
  (players 2)
  (equipment {(board (hex Diamond 5)) (piece "Marker" Each)
              (regions P1 {(sites Side NE) (sites Side SW)})
              (regions P2 {(sites Side NW) (sites Side SE)})})
  (rules
    (meta (swap))
    (play (do (move Add (to (sites Empty))) ifAfterwards:(not (no Moves Next))))
    (end {(if (is Connected Mover) (result Mover Win))
          (if (is Connected 5 Sides) (result Mover Draw))
          (if (is Connected {(sites {0 1}) (sites {24})}) (result Mover Loss))})))
"""


# A region filtered by a condition at each (site), (sites Occupied) as the sites a move
# comes from, and (forEach Site ...) as moves with noMoveYet:.
MILLS_GAME = """
(game "Mills"
  (players 2)
  (equipment {(board (square 4)) (piece "Marker" Each)})
  (rules
    (play (if (is Prev Mover)
              (move Remove (forEach (sites Occupied by:Next)
                                    if:(not (is Line 3 Orthogonal through:(site)))))
              (or (forEach Site (sites Empty) (move Add (to (site)))
                           noMoveYet:(move Pass)
                           (then (if (is Line 3 Orthogonal) (moveAgain))))
                  (move (from (sites Occupied by:Mover)) (to (sites Empty))
                        (then (if (is Line 3 Orthogonal) (moveAgain)))))))
    (end {(if (>= (count Pieces Mover) 8) (result Mover Win))
          (if (>= (count Moves) 80) (result Mover Draw))})))
"""


# Capture sequences: hops over a range of hurdles removed at the end of the turn, (sites
# ToClear), and the (hop ...) effect asked for by (can Move ...).
SEQUENCES_GAME = """
(define "Jumped" (between (range 1 2) if:(and (not (is In (between) (sites ToClear)))
                                              (is Enemy (who at:(between)))) #1))
(define "Again" (then (if (can Move (hop (from (last To)) Orthogonal ("Jumped")
                                         (to if:(is Empty (to)))))
                          (moveAgain))))
(game "Sequences"
  (players 2)
  (equipment {(board (square 6))
    (piece "Counter" Each
      (or (move Step Orthogonal (to if:(is Empty (to))))
          (move Hop Orthogonal ("Jumped" (apply (remove (between) at:EndOfTurn)))
                (to if:(is Empty (to))) ("Again"))))})
  (rules
    (start {(place "Counter1" {0 1 2 3 4 5 7 9}) (place "Counter2" {30 31 32 33 34 35 26 28})})
    (play (if (is Prev Mover)
              (move Hop (from (last To)) Orthogonal
                    ("Jumped" (apply (remove (between) at:EndOfTurn)))
                    (to if:(is Empty (to))) ("Again"))
              (forEach Piece)))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 120) (result Mover Draw))})))
"""


# (promote ...) as a consequent and (move Promote ...) as a decision (to pieces named for the
# mover), (priority ...), (count Rows).
CROWNS_GAME = """
(game "Crowns"
  (players {(player N) (player S)})
  (equipment {(board (square 5))
    (piece "Pawn" Each
      (or (move Step Forward (to if:(is Empty (to))))
          (move Step (directions {FR FL}) (to if:(is Enemy (who at:(to))) (apply (remove (to)))))
          (then (if (is In (last To) (sites Next))
                    (promote (last To) (piece "King") Mover)))))
    (piece "King" Each
      (move Step (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (regions P1 (sites Bottom)) (regions P2 (sites Top))})
  (rules
    (start {(place "Pawn1" (sites Row 1)) (place "Pawn2" (sites Row (- (count Rows) 2)))})
    (play (or (priority {(forEach Piece "King") (forEach Piece)})
              (if (= 0 (% (count Moves) 7))
                  (move Promote (last To) (piece {"King" "Pawn"}) Mover))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# (promote ...) and (move Promote ...) to pieces given by their ids: a pawn on the far row
# becomes the mover's king (no role: the id's piece itself), and a decision may turn the
# piece last moved into the mover's piece named like the id's (with a role) or leave it.
PROMOTE_BY_ID_GAME = CROWNS_GAME.replace(
    '(piece "King") Mover)', '(piece (id "King" Mover)))').replace(
    '(piece {"King" "Pawn"}) Mover)', '(piece {(id "Pawn" P1) (what at:(last To))}) Mover)')


# (sites Direction) as a region to list: discs go on empty sites seen diagonally from the
# mover's discs (up to 3 away, before an occupied site); a disc that sees two enemies
# orthogonally (itself included, each radial's first occupied site kept) wins.
LOOKOUTS_GAME = """
(game "Lookouts"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" {0 4}) (place "Disc2" {20 24})})
    (play (move Add (to (intersection (sites Direction from:(sites Occupied by:Mover) Diagonal
                                                     stop:(is Occupied (to)) distance:3)
                                      (sites Empty)))))
    (end {(if (<= 2 (count Sites in:(forEach (sites Direction from:(last To) Orthogonal
                                                              included:True
                                                              stop:(is Occupied (to))
                                                              stopIncluded:True)
                                             if:(is Enemy (who at:(site))))))
              (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# (count Steps) by a relation, without a (step ...): kings next to each other end the game
# (Adjacent); after 20 moves, P1's king far from the centre (Orthogonal) loses.
KINGS_APART_GAME = """
(game "Kings Apart"
  (players 2)
  (equipment {(board (square 5)) (piece "King" Each (move Step (to if:(is Empty (to)))))})
  (rules
    (start {(place "King1" 0) (place "King2" 24)})
    (play (forEach Piece))
    (end {(if (= 1 (count Steps (where "King" P1) (where "King" P2))) (result Mover Win))
          (if (and (>= (count Moves) 20) (> (count Steps Orthogonal (where "King" P1) 12) 2))
              (result P2 Win))
          (if (>= (count Moves) 20) (result P1 Win))})))
"""


# (move Step) with (from <site>) and the Step effect asked for in (can Move ...): a disc that
# can take diagonally from where it landed moves again, only from there.
FOLLOW_UP_GAME = """
(game "Follow Up"
  (players 2)
  (equipment {(board (square 5))
    (piece "Disc" Each
      (move Step Orthogonal (to if:(is Empty (to)))
        (then (if (can Move (step (from (last To)) Diagonal (to if:(is Enemy (who at:(to))))))
                  (moveAgain)))))})
  (rules
    (start {(place "Disc1" {0 1 2 3 4}) (place "Disc2" {20 21 22 23 24})})
    (play (if (is Prev Mover)
              (move Step (from (last To)) Diagonal
                    (to if:(is Enemy (who at:(to))) (apply (remove (to)))))
              (forEach Piece)))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 80) (result Mover Draw))})))
"""


# (forEach Value min: max:) over numbers: a rook slides exactly 1 or 2 sites, or places a
# disc (value) sites along the row (the moves of each value in turn, lowest first).
LEAPS_OF_VALUE_GAME = """
(game "Leaps Of Value"
  (players 2)
  (equipment {(board (square 5))
    (piece "Rook" Each
      (forEach Value min:1 max:2
        (move Slide Orthogonal (between (exact (value)) if:(is Empty (between)))
              (to if:(is Enemy (who at:(to))) (apply (remove (to)))))))
    (piece "Disc" Each)})
  (rules
    (start {(place "Rook1" {0 4}) (place "Rook2" {20 24})})
    (play (or (forEach Piece)
              (forEach Value min:2 max:3
                (move Add (piece (id "Disc" Mover)) (to (+ (last To) (value)) if:(is Empty (to)))))))
    (end {(if (= 0 (count Pieces Next in:(sites Occupied by:Next component:"Rook")))
              (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


# (sites Row <n>) and (sites Column <n>) with an index read in play: no disc in the column
# of the last one, and a mover who fills the row of their disc loses.
ROW_AND_COLUMN_GAME = """
(game "Lines Apart" (players 2) (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
                        if:(not (is In (to) (sites Column (column of:(last To))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (= 0 (count Sites in:(intersection (sites Empty)
                                                 (sites Row (row of:(last To))))))
              (result Mover Loss))})))
"""


# A piece picked then its destination picked ((move Select) with (to ...)), kept off the
# far edge ahead of its move ((ahead (to) SameDirection)); the enemies in line in front of
# it are taken (approach, (directional ...) in the direction of the move), and those in
# line behind where it left (withdrawal, the opposite direction, from (last From)).
APPROACH_GAME = """
(game "Approach And Withdraw" (players 2)
  (equipment {(board (square 5) use:Vertex) (piece "Marker" Each)})
  (rules
    (start {(place "Marker1" (sites Bottom)) (place "Marker2" (sites Top))})
    (play (move Select (from (sites Occupied by:Mover))
            (to (sites Around (from)) if:(and (is Empty (to))
                                              (!= (to) (ahead (to) SameDirection))))
            (then (and {(fromTo (from (last From)) (to (last To)))
                        (directional (from (last To))
                                     (directions Vertex from:(last From) to:(last To))
                                     (to if:(is Enemy (who at:(to))) (apply (remove (to)))))
                        (directional (from (last From))
                                     (directions Vertex from:(last To) to:(last From))
                                     (to if:(is Enemy (who at:(to))) (apply (remove (to)))))}))))
    (end (if (no Pieces Next) (result Mover Win)))))
"""


# A disc added on the top row falls (a (slide) consequent) by as many sites as its column
# has empty ones below it: an exact count read when the slide begins.
FALLING_GAME = """
(game "Falling Discs" (players 2)
  (equipment {(board (rectangle 4 3)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (intersection (sites Top) (sites Empty)))
            (then (slide (from (last To)) S
                    (between (exact (count Sites in:(intersection (sites Empty)
                                      (sites Column (column of:(last To)))))))))))
    (end {(if (is Line 3 through:(last To afterConsequence:True)) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""


# `(move (from) (to))` applied at once: an enemy stepped on goes to its owner's hand (an
# effect of the destination), a disc reaching the centre goes back to its own hand after
# scoring (a consequent), as Ludii's FromTo is generated and applied.
SEND_BACK_GAME = """
(game "Send Back" (players 2)
  (equipment {(board (square 5)) (hand Each)
    (piece "Disc" Each
      (move Step Orthogonal
        (to if:(not (is Friend (who at:(to))))
            (apply (if (is Enemy (who at:(to))) (move (from (to)) (to (handSite Next))))))
        (then (if (= (last To) 12)
                  (and (addScore Mover 1) (move (from (last To)) (to (handSite Mover))))))))})
  (rules
    (start {(place "Disc1" (handSite P1) count:3) (place "Disc2" (handSite P2) count:3)})
    (play (or (forEach Piece)
              (move (from (handSite Mover)) (to (sites Empty) if:(not (= (to) 12))))))
    (end {(if (>= (score Mover) 3) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# Removals and placements of a region applied at once: a line of three clears the enemy's
# discs, then gives the enemy discs on the empty corners (a (then ...) of the removal).
REGION_RESET_GAME = """
(game "Region Reset" (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (if (is Line 3)
                      (remove (sites Occupied by:Next)
                        (then (add (piece (id "Disc" Next)) (to (sites Corners) if:(is Empty (to))))))))))
    (end {(if (is Line 4) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# A hole sown to four empties the enemy's holes around it (a removal of a region inside a
# sowing, of counted sites).
AROUND_EMPTIED_GAME = """
(game "Refill" (players 2)
  (equipment {(mancalaBoard 2 5 store:None (track "Track" "0,E,N,W" loop:True))
    (regions P1 (sites Bottom)) (regions P2 (sites Top)) (piece "Seed" Shared)})
  (rules
    (start (set Count 2 to:(sites Track)))
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow apply:(if (= 4 (count at:(to)))
                                 (remove (intersection (sites Around (to)) (sites Next))))))))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 150) (result Mover Draw))})))
"""

# A player whose row is empty passes, and two seeds go into each of its empty holes
# (a placement of a region with count:).
REFILL_GAME = AROUND_EMPTIED_GAME.replace(
    "(play (move Select (from (sites Mover) if:(> (count at:(from)) 0))",
    "(play (if (= 0 (count in:(sites Mover)))\n"
    "  (move Pass (then (add (piece \"Seed\") (to (sites Mover) if:(is Empty (to))) count:2)))\n"
    "  (move Select (from (sites Mover) if:(> (count at:(from)) 0))").replace(
    "(remove (intersection (sites Around (to)) (sites Next))))))))",
    "(remove (to))))))))").replace(
    "(end {(if (no Moves Next) (result Mover Win))\n"
    "          (if (>= (count Moves) 150) (result Mover Draw))})",
    "(end {(if (>= (count Moves) 100) (result Mover Draw))})")


# Copies of the two pieces of a shared hand placed (copy:True, (sites Hand Shared)): the
# hand never empties, and lines of either colour win.
COPIES_GAME = """
(game "Copies" (players 2)
  (equipment {(board (square 4)) (piece "Disc" P1) (piece "Disc" P2) (hand Shared size:2)})
  (rules
    (start {(place "Disc1" (handSite Shared)) (place "Disc2" (handSite Shared 1))})
    (play (move (from (sites Hand Shared)) (to (sites Empty)) copy:True))
    (end {(if (is Line 3) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""


# (no Pieces ...) of a kind, by role and by of:<player>: a side whose king is taken, or
# whose pawns are all taken, has lost.
KINGS_FALL_GAME = """
(game "Kings Fall" (players 2)
  (equipment {(board (square 4))
    (piece "King" Each (move Step (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (piece "Pawn" Each (move Step Orthogonal (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))})
  (rules
    (start {(place "King1" 0) (place "Pawn1" {1 4}) (place "King2" 15) (place "Pawn2" {11 14})})
    (play (forEach Piece))
    (end {(if (no Pieces Next "King") (result Mover Win))
          (if (no Pieces "Pawn" of:(mover)) (result Mover Loss))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# A trigger set by a consequent and read by the end rule, when (all Sites ...) finds one
# of the enemy's balls unable to step: (can Move ...) reads (site) of the loop around it.
WALLED_IN_GAME = """
(game "Walled In" (players 2)
  (equipment {(board (square 4)) (piece "Ball" P1) (piece "Ball" P2)})
  (rules
    (play (move Add (piece (mover)) (to (sites Empty))
            (then (if (not (all Sites (sites Occupied by:Next)
                              if:(can Move (step (from (site)) Orthogonal (to if:(is Empty (to)))))))
                      (trigger "Stuck" Next)))))
    (end {(if (is Triggered "Stuck" Next) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""


# (is Within ...) of a kind, in a region and at a site: the king in a corner wins, a guard
# on the centre wins.
CORNER_RUN_GAME = """
(game "Corner Run" (players 2)
  (equipment {(board (square 5))
    (piece "King" P1 (move Slide Orthogonal))
    (piece "Guard" P2 (move Slide Orthogonal))})
  (rules
    (start {(place "King1" 12) (place "Guard2" {1 3 5 9 15 19 21 23})})
    (play (forEach Piece))
    (end {(if (is Within (id "King" P1) in:(sites Corners)) (result P1 Win))
          (if (is Within (id "Guard" P2) at:12) (result P2 Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# Discs dropped from the container whose index is the mover's (its hand) onto the empty
# sites of one colour ((sites Phase 0)), then stepped: both sides win some games.
DROPS_GAME = """
(game "Drops" (players 2)
  (equipment {(board (square 4)) (hand Each)
    (piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))))})
  (rules
    (start {(place "Disc1" (handSite P1) count:3) (place "Disc2" (handSite P2) count:3)})
    (play (or (move (from (sites Occupied by:Mover container:(mover)))
                    (to (intersection (sites Empty) (sites Phase 0))))
              (forEach Piece)))
    (end {(if (is Line 3) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


# Go's capture ((enclose ...) as a consequent): groups of enemy markers without an empty
# site next to them are taken, each scoring for the mover.
SMALL_GO_GAME = """
(game "Small Go" (players 2)
  (equipment {(board (square 5)) (piece "Marker" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (enclose (from (last To)) Orthogonal
                    (between if:(is Enemy (who at:(between)))
                             (apply (and (addScore Mover 1) (remove (between)))))))))
    (end {(if (>= (score Mover) 3) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# (is Line ... if:): lines of three that do not use a corner win.
GUARDED_LINES_GAME = """
(game "Guarded Lines" (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))))
    (end {(if (is Line 3 if:(not (is In (to) (sites Corners)))) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""


# (firstMoveOnTrack ...) and (max Distance ...) on each player's track: a disc is placed,
# or the mover's rearmost disc along its track is taken back.
REARMOST_GAME = """
(game "Rearmost" (players 2)
  (equipment {(board (square 4) {(track "Track1" "0,E,N,W" P1 directed:True)
                                 (track "Track2" "15,W,S,E" P2 directed:True)})
    (piece "Disc" Each)})
  (rules
    (play (or (max Distance "Track" Mover (move Add (to (sites Empty))))
              (firstMoveOnTrack "Track" Mover
                (if (is Friend (who at:(site))) (move Remove (site))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


# (intervene ...) as a consequent: a disc stepping between two enemies takes both.
STEP_BETWEEN_GAME = """
(game "Step Between" (players 2)
  (equipment {(board (square 5))
    (piece "Disc" Each
      (move Step (to if:(is Empty (to)))
        (then (intervene (from (last To))
                (to if:(is Enemy (who at:(to))) (apply (remove (to))))))))})
  (rules
    (start {(place "Disc1" {0 1 2 3 4}) (place "Disc2" {20 21 22 23 24})})
    (play (forEach Piece))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 80) (result Mover Draw))})))
"""


# (expand ...) of parts fixed before play that the kernels list ((centrePoint), a number
# computed from numbers): the centre and the sites next to it are never played.
OFF_CENTRE_GAME = """
(game "Off Centre" (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (difference (sites Empty)
                                    (expand origin:(centrePoint) steps:(- 3 2) Orthogonal)))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# (move Remove ... count:) as a decision: a hole of the enemy's row emptied (a counted
# site empties at once, as Ludii's removal does), or a sowing.
PICK_TWO_GAME = AROUND_EMPTIED_GAME.replace(
    """(play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow apply:(if (= 4 (count at:(to)))
                                 (remove (intersection (sites Around (to)) (sites Next))))))))
    (end {(if (no Moves Next) (result Mover Win))""",
    """(play (or (move Select (from (sites Mover) if:(> (count at:(from)) 0)) (then (sow)))
              (move Remove (sites Next) count:2)))
    (end {(if (= 0 (count in:(sites Next))) (result Mover Win))""")


# (forEach Site ...) as the effect of a destination, made before the move: a disc taking
# an enemy blows up every piece around it, itself included (its move then moves nothing,
# as a move from an empty site does nothing in the reference).
BOOM_GAME = """
(game "Boom" (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each
      (move Step (to if:(is Enemy (who at:(to)))
                     (apply (forEach Site (sites Around (to))
                              (if (is Occupied (site)) (remove (site))))))))})
  (rules
    (play (or (forEach Piece) (move Add (to (sites Empty)))))
    (end {(if (>= (count Moves) 30) (result Mover Draw))})))
"""


# Placements joined with the turns they make: (append ...) of a (custodial ...) whose effect
# combines a placement with a state (allCombinations (add ... state:) (flip ...)); the
# scores count (sites State ...).
TURNCOAT_GAME = """
(game "Turncoat" (players 2)
  (equipment {(board (square 6)) (piece "Stone" Neutral (flips 1 2))})
  (rules
    (start {(place "Stone0" (sites {14 21}) state:1) (place "Stone0" (sites {15 20}) state:2)})
    (play (priority
            (forEach Site (sites Empty)
              (append
                (custodial (from (site)) Orthogonal
                  (between if:(= (state at:(between)) (next))
                    (apply (allCombinations (add (piece "Stone0" state:(mover)) (to (site)))
                                            (flip (between)))))
                  (to if:(= (state at:(to)) (mover))))
                (then (set Score Mover (count Sites in:(sites State (mover)))))))
            (move Pass)
            (then (set Score Next (count Sites in:(sites State (next)))))))
    (end (if (all Passed) (byScore)))))
"""


# A (flip ...) as a consequent with its own (then ...): a custodial capture that flips.
TURNABOUT_GAME = """
(game "Turnabout" (players 2)
  (equipment {(board (square 5)) (piece "Stone" Neutral (flips 1 2))})
  (rules
    (start {(place "Stone0" (sites Phase 0) state:1) (place "Stone0" (sites Phase 1) state:2)})
    (play (move Select (from (sites Board) if:(= (state at:(from)) (next)))
            (then (flip (last To)
                    (then (custodial (from (last To)) Orthogonal
                            (between if:(= (state at:(between)) (next)) (apply (flip (between))))
                            (to if:(= (state at:(to)) (mover)))))))))
    (end {(if (>= (count Sites in:(sites State (mover))) 18) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# Slides along a board's tracks (its loops), a proposal when no slide was made for six
# moves, and votes on it (one with a consequent): a truce decided is a draw.
RINGWAY_GAME = """
(game "Ringway" (players 2)
  (equipment {(surakartaBoard (square 5))
              (piece "Runner" Each
                (or (move Step Diagonal (to if:(is Empty (to))))
                    (move Slide "AllTracks"
                      (between if:(or (is Empty (between)) (= (between) (from))))
                      (to if:(is Enemy (who at:(to))) (apply if:(is Empty (to)) (remove (to))))
                      (then (set Counter)))))})
  (rules
    (start {(place "Runner1" (sites {0 1 2 3 4})) (place "Runner2" (sites {20 21 22 23 24}))})
    (play (if (is Proposed "Truce")
            (or (move Vote "Truce") (move Vote "Fight" (then (set Counter))))
            (if (>= (counter) 6) (move Propose "Truce" (then (vote "Truce"))) (forEach Piece))))
    (end {(if (is Decided "Truce") (result Mover Draw))
          (if (no Pieces Next) (result Mover Win))})))
"""


# (sites Track Mover from: to:) read in play: a disc goes on an empty site of the mover's
# track from the last one placed up to the mover's mark; the walks end the game early.
TRACK_WALK_GAME = """
(game "Track Walk" (players 2)
  (equipment {(board (square 4) {(track "Track1" "0,E,N,W" P1 directed:True)
                                 (track "Track2" "15,W,S,E" P2 directed:True)})
    (piece "Disc" Each) (map {(pair P1 5) (pair P2 10)})})
  (rules
    (play (move Add (to (sites Track Mover from:(last To) to:(mapEntry Mover)) if:(is Empty (to)))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# (move Add (to <region> (apply if: ...))): the effect before the placement, read with
# (from) on the destination; where its condition holds Ludii lists the move twice.
PUSH_OUT_GAME = """
(game "Push Out" (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
                        (apply if:(is Even (to))
                               (forEach Site (sites Around (from) Orthogonal)
                                 (if (is Enemy (who at:(site))) (remove (site))))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


# A literal region naming sites past the board's last (Ludii's files have them): only the
# board's sites it names count.
PAST_THE_LAST_GAME = """
(game "Past The Last" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty) if:(not (is In (to) (sites {4 9 10 11}))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""


# (can Move ...) of a step from a site in the (then ...) of the moves around it: the
# kernel that asks takes the step's moves alone, not that (then ...) (which asks again).
STUCK_SCORES_GAME = FOLLOW_UP_GAME.replace(
    "(forEach Piece)))",
    "(forEach Piece (then (if (not (can Move (move Step (from (last To)) Orthogonal "
    "(to if:(is Empty (to)))))) (addScore Mover 1))))))")


# (where ...) named by a player and by a piece, a hop whose landing captures, the unnamed
# variable and a player's value, each set by a consequent and read by the end rules.
LEAPS_GAME = """
(game "Leaps"
  (players 2)
  (equipment {(board (square 5))
    (piece "King" Each
      (move Step (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (piece "Frog" Each
      (move Hop (between if:(is Occupied (between)))
                (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))
                (then (and (set Var (+ 1 (var)))
                           (set Value Mover (+ 1 (value Player Mover)))))))})
  (rules
    (start {(place "King1" 2) (place "Frog1" {0 1 3 4})
            (place "King2" 22) (place "Frog2" {20 21 23 24})})
    (play (forEach Piece))
    (end {(if (= (where "King" Next) -1) (result Mover Win))
          (if (< (where (id "Frog" P2)) 0) (result P1 Win))
          (if (>= (value Player P2) 6) (result P1 Win))
          (if (>= (var) 10) (result Mover Draw))
          (if (>= (count Moves) 80) (result Mover Draw))})))
"""


# Discs placed on empty sites but never on a corner: the region is read at each turn.
CORNERLESS_GAME = """
(game "Cornerless"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (difference (sites Empty) (sites Corners)))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# Steps and hops forward-right and forward-left of each side's facing (draughts' men).
FORWARD_HOPS_GAME = """
(game "Forward Hops"
  (players {(player N) (player S)})
  (equipment {(board (square 6))
    (piece "Frog" Each
      (or (move Step (directions {FR FL}) (to if:(is Empty (to))))
          (move Hop (directions {FR FL})
                (between if:(is Enemy (who at:(between))) (apply (remove (between))))
                (to if:(is Empty (to))))))})
  (rules
    (start {(place "Frog1" (sites Row 0)) (place "Frog2" (sites Row 5))})
    (play (forEach Piece))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# A disc placed on an even site makes the sites around it pending: the next player may not
# place there ((sites Pending) as a region), and is blocked out when nothing is left.
MARKED_GAME = CORNERLESS_GAME.replace('"Cornerless"', '"Marked"').replace(
    "(move Add (to (difference (sites Empty) (sites Corners))))",
    "(move Add (to (difference (sites Empty) (sites Pending))) (then (if (is Even (last To)) "
    "(set Pending (sites Around (last To))))))").replace(
    "(if (no Moves Next) (result Mover Draw))",
    "(if (and (is Pending) (no Moves Next)) (result Mover Win)) "
    "(if (no Moves Next) (result Mover Draw))")

# A disc placed on a corner is removed at once: the corners stay empty, so no game fills
# the board (16 sites).
FLEETING_GAME = CORNERLESS_GAME.replace('"Cornerless"', '"Fleeting"').replace(
    "(move Add (to (difference (sites Empty) (sites Corners))))",
    "(move Add (to (sites Empty)) (then (if (is In (last To) (sites Corners)) "
    "(remove (last To)))))")

# Each disc goes next to the last one (orthogonally) while it can, else anywhere not
# around it: (sites Around <site>) listed (with a kind) and as a membership test.
AROUND_GAME = CORNERLESS_GAME.replace('"Cornerless"', '"Around"').replace(
    "(move Add (to (difference (sites Empty) (sites Corners))))",
    "(priority {(move Add (to (sites Around (last To) Empty Orthogonal))) "
    "(move Add (to (sites Empty) if:(not (is In (to) (sites Around (last To))))))})")

# A player may pass; one who passes after the other did loses ((all Passed) read by the
# rules: Ludii's automatic draw on passes is then off).
SHY_GAME = """
(game "Shy"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (or (move Add (to (sites Empty))) (move Pass)))
    (end {(if (is Line 3) (result Mover Win))
          (if (all Passed) (result Mover Loss))})))
"""

# Each disc remembers the site opposite its own and forgets its own; a player must place on
# a remembered empty site while there is one (the start rules remember the first).
ECHO_GAME = """
(game "Echo"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (start (set RememberValue 5))
    (play (priority {(move Add (to (sites (values Remembered)) if:(is Empty (to))))
                     (move Add (to (sites Empty)))}
                    (then (and (remember Value (- 15 (last To)))
                               (forget Value (last To))))))
    (end {(if (is Line 3) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# Each disc must answer the last one on one of two sites computed from it, while one of
# them is empty ((sites {<int> ...}) read in play).
PAIRS_GAME = AROUND_GAME.replace('"Around"', '"Pairs"').replace(
    "(sites Around (last To) Empty Orthogonal)",
    "(sites {(- 14 (last To)) (- 11 (last To))}) if:(is Empty (to))").replace(
    "(move Add (to (sites Empty) if:(not (is In (to) (sites Around (last To))))))",
    "(move Add (to (sites Empty) if:(not (is In (to) (sites {(- 14 (last To))})))))")

# Two discs of one's own on the top row win: an end rule counts over a fixed region (where
# (from) is not set: the region must not be read per (from)).
TOPS_GAME = CORNERLESS_GAME.replace('"Cornerless"', '"Tops"').replace(
    "(if (is Line 3) (result Mover Win))",
    "(if (>= (count Pieces Mover in:(sites Top)) 2) (result Mover Win))")

# Dice: (do (roll) next:...) rolling at the start of a turn (and after a double's second
# half), (forEach Die) with replayDouble: and combined:, hits, and a score per double
# ((all DiceEqual)) that decides the games the move limit ends.
DICE_GAME = """
(game "Dice Race"
  (players 2)
  (equipment {(board (rectangle 1 16) {(track "Track1" "0,E" directed:True P1)
                                       (track "Track2" "15,W" directed:True P2)})
    (dice num:2) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 1 2})) (place "Disc2" (sites {13 14 15}))})
    (play (do (if (or (!= (mover) (prev)) (all DiceUsed)) (roll))
            next:(forEach Die replayDouble:True combined:True if:(!= (pips) 0)
                   (forEach Piece (move (from) (to (trackSite Move steps:(pips))
                                                   if:(not (is Friend (who at:(to))))
                                                   (apply (if (is Enemy (who at:(to))) (remove (to)))))))
                   (then (if (not (all DiceUsed)) (moveAgain))))
            (then (if (all DiceEqual) (addScore Mover 1)))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 150) (byScore))})))
"""

# Three dice of 0..2 whose sum moves a piece ((count Pips)); a 2 among them with the first
# die at 0 gives another move ((is AnyDie), (face)); a sum of 0 is the roll's pass.
DICE_SUM_GAME = """
(game "Dice Sum"
  (players 2)
  (equipment {(board (rectangle 1 16) {(track "Track1" "0,E" directed:True P1)
                                       (track "Track2" "15,W" directed:True P2)})
    (dice d:3 from:0 num:3) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (sites {0 1 2})) (place "Disc2" (sites {13 14 15}))})
    (play (do (roll)
            next:(if (!= (count Pips) 0)
                   (forEach Piece (move (from) (to (trackSite Move steps:(count Pips))
                                                   if:(not (is Friend (who at:(to))))
                                                   (apply (if (is Enemy (who at:(to))) (remove (to))))))
                     (then (if (and (is AnyDie 2) (= (face 16) 0)) (moveAgain)))))))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 150) (result Mover Draw))})))
"""

# Pieces entering from the mover's hand ((forEach Piece container:(mover))) along tracks
# that start there.
DICE_ENTRY_GAME = """
(game "Dice Entry"
  (players 2)
  (equipment {(board (rectangle 1 16) {(track "Track1" "16,0,E" directed:True P1)
                                       (track "Track2" "17,15,W" directed:True P2)})
    (dice num:2) (hand Each) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" (handSite P1) count:3) (place "Disc2" (handSite P2) count:3)})
    (play (do (if (or (!= (mover) (prev)) (all DiceUsed)) (roll))
            next:(forEach Die replayDouble:True combined:True if:(!= (pips) 0)
                   (or (forEach Piece (move (from) (to (trackSite Move steps:(pips))
                                                       if:(not (is Friend (who at:(to))))
                                                       (apply (if (is Enemy (who at:(to))) (remove (to)))))))
                       (forEach Piece (move (from) (to (trackSite Move steps:(pips))
                                                       if:(is Empty (to))))
                                      container:(mover)))
                   (then (if (not (all DiceUsed)) (moveAgain))))
            (then (if (all DiceEqual) (addScore Mover 1)))))
    (end {(if (and (is Empty (handSite Next)) (no Pieces Next)) (result Mover Win))
          (if (>= (count Moves) 150) (byScore))})))
"""

# Columns of stacks: (forEach <region> if:) listed from the position as a (to ...) region,
# and lines through the stacks' levels ((is Line ... byLevel:True)).
COLUMNS_GAME = """
(game "Columns"
  (players 2)
  (equipment {(board (rectangle 1 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (forEach (sites Board) if:(< (size Stack at:(site)) 3))) stack:True))
    (end (if (is Line 3 byLevel:True) (result Mover Win)))))
"""

# A player's region named through a map of the mover ((sites (player (mapEntry (mover))))),
# listed per mover: a disc on the opponent's home row wins.
ACROSS_GAME = """
(game "Across"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)
    (regions "Home" P1 (sites Bottom)) (regions "Home" P2 (sites Top))
    (map {(pair 1 2) (pair 2 1)})})
  (rules
    (play (move Add (to (sites Empty))))
    (end (if (is In (last To) (sites (player (mapEntry (mover))))) (result Mover Win)))))
"""

# (move Shoot ...): after each slide, a neutral marker added along a line from where the
# queen stopped, until the board blocks a side.
ARROWS_GAME = """
(game "Arrows"
  (players 2)
  (equipment {(board (square 5))
    (piece "Queen" Each (move Slide (then (moveAgain))))
    (piece "Marker" Neutral)})
  (rules
    (start {(place "Queen1" {"A1" "E2"}) (place "Queen2" {"A5" "E4"})})
    (play (if (is Even (count Moves)) (forEach Piece) (move Shoot (piece "Marker0"))))
    (end (if (no Moves Next) (result Next Loss)))))
"""

# Regions that read the position, listed by their loops: an intersection whose first region
# is around a region (each centre's neighbours once, the centres left out), and the same
# region as a membership test. A side with nowhere to grow loses.
SPREAD_GAME = """
(game "Spread"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (start {(place "Disc1" coord:"A1") (place "Disc2" coord:"D4")})
    (play (move Add (to (intersection (sites Around (sites Occupied by:Mover)) (sites Empty)))))
    (end (if (no Moves Next) (result Next Loss)))))
"""

# (do <set Var> next:<moves>): a budget of two discs set at the start of each turn, read
# by the next moves and spent by a (set Var ... (then ...)) consequent.
BUDGET_GAME = """
(game "Budget"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (do (if (= 0 (count MovesThisTurn)) (set Var 2))
            next:(move Add (to (sites Empty) if:(!= (% (to) 3) (var)))
                   (then (set Var (- (var) 1) (then (if (< 0 (var)) (moveAgain))))))))
    (end (if (is Line 3) (result Mover Win)))))
"""

# The regions of the next player and of (player) in forEach NonMover, listed and tested:
# (sites Next "Home"), (sites Player "Home").
RAID_GAME = """
(game "Raid"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)
    (regions "Home" P1 (sites Bottom)) (regions "Home" P2 (sites Top))})
  (rules
    (play (or (move Add (to (sites Empty) if:(not (and (is In (to) (sites Next "Home"))
                                                       (is Odd (to))))))
              (move Remove (forEach (sites Next "Home") if:(is Mover (who at:(site)))))))
    (end (forEach NonMover if:(all Sites (sites Player "Home") if:(is Occupied (site)))
           (result Player Loss)))))
"""

# (set Score ...) as a consequent: the mover's score set, or every enemy's (a role naming
# several players) from the mover's.
TALLY_GAME = """
(game "Tally"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty))
            (then (if (is Line 3)
                    (set Score Enemy (- (score Mover) 1))
                    (set Score Mover (+ (count Pieces Mover) (last To)))))))
    (end (if (no Moves Next) (byScore)))))
"""

# End rules in one phase only: every player passing draws after a pass in the "Move" phase
# (its end rules are checked), never in the "Place" phase.
PHASED_GAME = """
(game "Phased"
  (players 2)
  (equipment {(board (square 3))
    (piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))))})
  (rules
    phases:{
      (phase "Place"
        (play (or (move Add (to (sites Empty) if:(is Even (to)))) (move Pass)))
        (nextPhase (>= (count Moves) 6) "Move"))
      (phase "Move"
        (play (or (forEach Piece) (move Pass)))
        (end (if (is Line 3) (result Mover Win))))}))
"""

# (set NextPlayer (player 1)) as a consequent: a disc on an even site gives P1 the next turn.
FAVOUR_GAME = TALLY_GAME.replace(
    """(if (is Line 3)
                    (set Score Enemy (- (score Mover) 1))
                    (set Score Mover (+ (count Pieces Mover) (last To))))""",
    "(if (is Even (last To)) (set NextPlayer (player 1)))").replace(
    "(no Moves Next) (byScore)", "(is Line 3) (result Mover Win)")

# (coord "B2"), (coord row: column:), (row of:), (column of:) and (is Full): B2 is open once
# its column's first site is taken, a line of 3 ending on the top row loses, a full board
# draws.
GRID_GAME = """
(game "Grid"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (sites Empty)
            if:(or (!= (to) (coord "B2")) (is Occupied (coord row:0 column:(column of:(to))))))))
    (end {(if (and (is Line 3) (= 3 (row of:(last To)))) (result Next Win))
          (if (is Line 4) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""

# (is Line 3 Mover): a line of any of the mover's pieces, discs and crosses mixed.
MIXED_GAME = """
(game "Mixed"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each) (piece "Cross" Each)})
  (rules
    (play (or (move Add (piece (id "Disc" Mover)) (to (sites Empty)))
              (move Add (piece (id "Cross" Mover)) (to (sites Empty)))))
    (end (if (is Line 3 Mover) (result Mover Win)))))
"""

# Hops over the next player's pieces that go on while another is possible, and (no Moves
# Next) as the end: while the mover moves again, the next player's moves read their own
# next player, the mover (Ludii's setMoverAndImpliedPrevAndNext), not themselves.
NEXT_HOPS_GAME = """
(define "Jumped" (between if:(and (not (is In (between) (sites ToClear)))
                                   (= (who at:(between)) (next))) (apply (remove (between) at:EndOfTurn))))
(define "HopOn" (move Hop (from #1) Orthogonal ("Jumped") (to if:(is Empty (to)))
                      (then (if (can Move (hop (from (last To)) Orthogonal ("Jumped")
                                               (to if:(is Empty (to)))))
                                (moveAgain)))))
(game "Next Hops"
  (players 2)
  (equipment {(board (square 5))
    (piece "Counter" Each (or (move Step Orthogonal (to if:(is Empty (to)))) ("HopOn" (from))))})
  (rules
    (start {(place "Counter1" {1 2 3 6 8}) (place "Counter2" {21 22 23 16 18})})
    (play (if (is Prev Mover)
              ("HopOn" (last To))
              (forEach Piece)))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""

# (max Moves ...): of a side's steps and hops, only those beginning the longest chain of
# hops (each hop goes on while another is possible, its captures cleared at the end of the
# turn); passes after the 24th move, so that some games end in the all-pass draw, which the
# positions searched read from the decisions' history (noting theirs past its end).
LONGEST_GAME = NEXT_HOPS_GAME.replace('"Next Hops"', '"Longest"').replace(
    "(= (who at:(between)) (next))", "(is Enemy (who at:(between)))").replace(
    '("HopOn" (last To))\n              (forEach Piece)))',
    '(max Moves ("HopOn" (last To)))\n'
    '              (or (max Moves (forEach Piece)) (if (< 24 (count Moves)) (move Pass)))))').replace(
    "(no Moves Next)", "(no Pieces Next)")

# Hops over any number of empty sites before and after the enemy jumped (a range of
# hurdles), going on in directions that follow the last move: on an even site every
# orthogonal direction but back, else straight on ((if ...), (difference ...),
# OppositeDirection, SameDirection).
FLYERS_GAME = """
(define "Taken" (between before:(count Rows) after:(count Rows)
                  if:(and (not (is In (between) (sites ToClear))) (is Enemy (who at:(between))))
                  #1))
(define "Turning" (if (is Even (last To)) (difference Orthogonal OppositeDirection) SameDirection))
(define "Fly" (move Hop (from #1) #2 ("Taken" (apply (remove (between) at:EndOfTurn)))
                (to if:(is Empty (to)))
                (then (if (can Move (hop (from (last To)) "Turning" ("Taken") (to if:(is Empty (to)))))
                          (moveAgain)))))
(game "Flyers"
  (players 2)
  (equipment {(board (square 6))
    (piece "Counter" Each (or (move Slide Orthogonal) ("Fly" (from) Orthogonal)))})
  (rules
    (start {(place "Counter1" {0 2 4 7 9 11}) (place "Counter2" {24 26 28 31 33 35})})
    (play (if (is Prev Mover) ("Fly" (last To) "Turning") (forEach Piece)))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (count Moves) 50) (result Mover Draw))})))
"""

# P1's placements move again on even sites; the (then ...) around both players' moves asks
# (no Moves Next) after them, of the next player as it is then (P1 itself after a move
# again), and scores the win: P2 has no move once the top row is full.
AGAIN_GAME = """
(game "Again"
  (players 2)
  (equipment {(board (square 4)) (piece "Disc" Each)})
  (rules
    (play (if (= (mover) 1)
              (move Add (to (difference (sites Empty) (sites Top)))
                    (then (if (is Even (last To)) (moveAgain))))
              (move Add (to (intersection (sites Empty) (sites Top))))
              (then (if (no Moves Next) (addScore Mover 1)))))
    (end {(if (> (score Mover) 0) (result Mover Win))
          (if (is Full) (result Mover Draw))})))
"""

# (expand ...) of static regions: discs never go on the centre grown by one step (16 of
# the 25 sites), lines of 3 win only ending near a corner (grown by two orthogonal steps).
RING_GAME = """
(game "Ring"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add (to (difference (sites Empty) (expand (sites Centre))))))
    (end {(if (is In (last To) (expand (sites Corners) steps:2 Orthogonal))
              (if (is Line 3) (result Mover Win)))
          (if (is Line 4) (result Next Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# (custodial ...) as a consequent: long sandwiches removed by default with a (then ...) per
# capture, short ones with a between effect; (surround ...) with except:, (or ...) as a
# consequent, (is Next ...).

SANDWICH_GAME = """
(game "Sandwich"
  (players 2)
  (equipment {(board (square 5))
    (piece "Stone" Each
      (move Slide Orthogonal
        (then (custodial (from (last To)) Orthogonal
                (between (max 2) if:(is Next (who at:(between))))
                (to if:(is Friend (who at:(to))))
                (then (addScore Mover 1))))))
    (piece "Flat" Each
      (move Step (to if:(is Empty (to)))
        (then (surround (from (last To)) Orthogonal
                (between if:(is Enemy (who at:(between))) (apply (remove (between))))
                (to if:(is Friend (who at:(to)))) except:1))))})
  (rules
    (start {(place "Stone1" {0 2 4}) (place "Flat1" {1 3})
            (place "Stone2" {20 22 24}) (place "Flat2" {21 23})})
    (play (forEach Piece))
    (end {(if (no Pieces Next) (result Mover Win))
          (if (>= (score Mover) 3) (result Mover Win))
          (if (>= (count Moves) 100) (result Mover Draw))})))
"""



# Sowing: (move Select ...) then (sow ...) with a backtracking capture into a store by
# (mapEntry ...), scores set at the end by (byScore {...}) from (count at:)/(count in:).
SOW_GAME = """
(game "Sowing"
  (players 2)
  (equipment {(mancalaBoard 2 6 (track "Track" "1,E,N,W" loop:True))
    (regions P1 (sites Bottom)) (regions P2 (sites Top))
    (map {(pair P1 FirstSite) (pair P2 LastSite)})
    (piece "Seed" Shared)})
  (rules
    (start (set Count 3 to:(sites Track)))
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow if:(and (is In (to) (sites Next)) (or (= (count at:(to)) 2) (= (count at:(to)) 3)))
                       apply:(fromTo (from (to)) (to (mapEntry (mover))) count:(count at:(to)))
                       includeSelf:False backtracking:True))))
    (end (if (no Moves Next)
           (byScore {(score P1 (+ (count at:(mapEntry P1)) (count in:(sites P1))))
                     (score P2 (+ (count at:(mapEntry P2)) (count in:(sites P2))))})))))
"""


# Sowing along each owner's track with numPerHole:, skipIf:, origin:, and a capture by
# (trackSite Move ...) that goes forward: and may give the mover another move.
SOW_OWNED_GAME = """
(game "Sowing Two"
  (players 2)
  (equipment {(mancalaBoard 2 5 store:None
                {(track "Track1" "0,E,N,W" loop:True P1) (track "Track2" "9,W,S,E" loop:True P2)})
    (regions P1 (sites Bottom)) (regions P2 (sites Top))
    (piece "Seed" Shared)})
  (rules
    (start (set Count 2 to:(sites Board)))
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 1))
            (then (sow "Track" owner:(mover)
                       numPerHole:(if (is In (to) (sites Mover)) 1 2)
                       skipIf:(>= (count at:(to)) 7)
                       origin:(= (count at:(from)) 5)
                       if:(is Occupied (trackSite Move from:(to) "Track" steps:1))
                       apply:(and (if (= (count at:(to)) 4) (moveAgain))
                                  (remove (trackSite Move from:(to) "Track" steps:1)))
                       forward:(> (count at:(to)) 2)))))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 120) (result Mover Draw))})))
"""


# (move ... count:) with (from ... if:) on counted sites (Ludii's ActionMoveN), beside a
# sow whose capture is (remove (to)); destinations listed per mover.
SOW_CARRIED_GAME = """
(game "Seeds Carried"
  (players 2)
  (equipment {(mancalaBoard 2 4 store:None (track "Track" "0,E,N,W" loop:True))
    (regions P1 (sites Bottom)) (regions P2 (sites Top))
    (piece "Seed" Shared)})
  (rules
    (start (set Count 3 to:(sites Track)))
    (play (or (move (from (sites Mover) if:(> (count at:(from)) 3))
                    (to (union (sites Bottom) (sites Top)) if:(and (is In (to) (sites Next)) (is Occupied (to))))
                    count:(- (count at:(from)) 2))
              (move Select (from (sites Mover) if:(> (count at:(from)) 0))
                (then (sow if:(= (count at:(to)) 4) apply:(remove (to)))))))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 80) (result Mover Draw))})))
"""

# Relay sowing: a sowing that ends in an occupied hole goes on from the last hole sown, read
# by (last To afterConsequence:True) (the decision's own (last To) is the hole it emptied);
# one that ends in an empty hole of the mover's row captures the hole facing it into the
# mover's hand, the capture being the last action with a site.
SOW_RELAY_GAME = """
(game "Relay"
  (players 2)
  (equipment {(mancalaBoard 2 5 store:None (track "Track" "0,E,N,W" loop:True))
    (regions P1 (sites Bottom)) (regions P2 (sites Top))
    (piece "Seed" Shared) (hand Each)})
  (rules
    (start (set Count 2 to:(sites Track)))
    (play (move Select
            (from (if (is Prev Mover) (sites {(last To afterConsequence:True)}) (sites Mover))
                  if:(> (count at:(from)) 0))
            (then (sow apply:(if (> (count at:(to)) 1) (moveAgain)
                               (if (is In (to) (sites Mover))
                                 (fromTo (from (if (is In (to) (sites Bottom)) (+ (to) 5) (- (to) 5)))
                                         (to (handSite Mover))
                                         count:(count at:(if (is In (to) (sites Bottom)) (+ (to) 5) (- (to) 5))))))))))
    (end {(if (all Sites (sites P1) if:(= 0 (count at:(site)))) (result P2 Win))
          (if (all Sites (sites P2) if:(= 0 (count at:(site)))) (result P1 Win))
          (if (>= (count Moves) 150) (result Mover Draw))})))
"""

# An (and ...) capture whose second part reads the hole the first part emptied, and one
# whose second part reads (sites Next) after the first gave the mover another move: the
# reference makes both parts on the position before either applies.
SOW_BOTH_PARTS_GAME = SOW_OWNED_GAME.replace(
    """apply:(and (if (= (count at:(to)) 4) (moveAgain))
                                  (remove (trackSite Move from:(to) "Track" steps:1)))""",
    """apply:(and (remove (trackSite Move from:(to) "Track" steps:1))
                                  (if (= (count at:(to)) 4) (moveAgain)))""")
SOW_NEXT_AFTER_AGAIN_GAME = SOW_OWNED_GAME.replace(
    """apply:(and (if (= (count at:(to)) 4) (moveAgain))
                                  (remove (trackSite Move from:(to) "Track" steps:1)))""",
    """apply:(if (= (count at:(to)) 4) (and (moveAgain)
                                  (if (is In (to) (sites Next)) (remove (to)))))""")

# After each sowing, every hole of the top row holding 3 seeds gives one to the first empty
# hole along the track from the mover's end ((trackSite FirstSite ...)) and the mover a
# point, while that row holds more than 9 seeds: (forEach Site) as a consequent, whose
# sites all read the row as it was before any gave (as the reference makes them all
# first). Points are the only way to win.
SOW_GIVE_GAME = """
(game "Gifts"
  (players 2)
  (equipment {(mancalaBoard 2 5 store:None (track "Track" "0,E,N,W" loop:True))
    (regions P1 (sites Bottom)) (regions P2 (sites Top))
    (map {(pair P1 0) (pair P2 9)})
    (piece "Seed" Shared)})
  (rules
    (start (set Count 2 to:(sites Track)))
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow (then (forEach Site (sites Top)
                     (if (and (= (count at:(site)) 3) (> (count in:(sites Top)) 9))
                       (and (fromTo (from (site))
                                    (to (trackSite FirstSite from:(mapEntry Mover) if:(is Empty (to))))
                                    count:1)
                            (addScore Mover 1)))))))))
    (end {(if (>= (score Mover) 4) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))
          (if (>= (count Moves) 150) (result Mover Draw))})))
"""

# A hole whose 4th seed a sowing drops is marked with the mover's state and is never
# chosen again: seeds sown into a marked hole leave its state (Ludii's sowing keeps the
# hole's own state, one more action per seed).
SOW_MARKED_GAME = """
(game "Marked Holes"
  (players 2)
  (equipment {(mancalaBoard 2 5 store:None (track "Track" "0,E,N,W" loop:True))
    (regions P1 (sites Bottom)) (regions P2 (sites Top))
    (piece "Seed" Shared)})
  (rules
    (start (set Count 3 to:(sites Track)))
    (play (move Select (from (sites Mover) if:(and (> (count at:(from)) 0) (= 0 (state at:(from)))))
            (then (sow apply:(if (= 4 (count at:(to))) (set State at:(to) (mover)))))))
    (end {(if (no Moves Next) (result Mover Win))
          (if (>= (count Moves) 150) (result Mover Draw))})))
"""

# A sowing then a loop in one (and ...): the loop reads the holes as they were before the
# sowing (the origin is not yet empty), and the states it writes itself as they were before
# it; (forEach Player) as an end rule, (no Moves Player).
KEEPERS_GAME = SOW_MARKED_GAME.replace(
    "(sow apply:(if (= 4 (count at:(to))) (set State at:(to) (mover))))",
    "(and (sow) (forEach Site (sites Mover) (if (and (= 0 (count at:(site))) "
    "(= 0 (state at:(site)))) (set State at:(site) (mover)))))").replace(
    "(end {(if (no Moves Next) (result Mover Win))\n"
    "          (if (>= (count Moves) 150) (result Mover Draw))})",
    "(end (forEach Player if:(no Moves Player) (result Player Loss)))")

# Stacks: pieces of every level move (forEach Piece), a step takes the whole stack it lands
# on (remove count:), a sub-stack moves (stack:True count:), pieces are pushed (move Add
# stack:); a stack topped by 4 of the mover's wins, read down to an enemy piece.
STACKS_GAME = """
(game "Stacks"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (move Step Orthogonal (to if:(not (is Friend (who at:(to))))
      (apply (remove (to) count:(size Stack at:(to)))))))})
  (rules
    (start {(place Stack "Disc1" (sites Bottom) count:2) (place Stack "Disc2" (sites Top) count:2)})
    (play (or {
      (forEach Piece)
      (move (from (sites Occupied by:Mover) if:(> (size Stack at:(from)) 1)) (to (sites Empty))
            count:(- (size Stack at:(from)) 1) stack:True)
      (move Add (to (sites Occupied by:Mover) if:(< (topLevel at:(to)) 3)) stack:True)}))
    (end {(if (>= (count Stack FromTop at:(last To)
                   if:(= (what at:(to) level:(level)) (id "Disc" Mover))
                   stop:(= (what at:(to) level:(level)) (id "Disc" Next))) 4) (result Mover Win))
          (if (= 0 (count Pieces Next)) (result Mover Draw))})))
"""

# Towers: a stack of two steps diagonally onto an enemy (stack:True, (from if:)), takes it,
# and its top piece goes back ((fromTo) and (remove) as consequents); a hop moves the
# stack and pulls each hurdle onto it ((fromTo (from) ...) as the hurdle's effect).
TOWERS_GAME = """
(game "Towers"
  (players 2)
  (equipment {(board (square 5))
    (piece "Disc" Each (or {
      (move Step (from if:(< (size Stack at:(from)) 3)) Orthogonal
        (to if:(not (is Enemy (who at:(to))))))
      (move Step (from if:(> (size Stack at:(from)) 1)) Diagonal
        (to if:(is Enemy (who at:(to))) (apply (remove (to)))) stack:True
        (then (fromTo (from (last To)) (to (last From)))))
      (move Hop Orthogonal
        (between if:(is Enemy (who at:(between))) (apply (fromTo (from) (to (between)))))
        (to if:(is Empty (to))) stack:True)}))})
  (rules
    (start {(place Stack "Disc1" (sites Bottom) count:1) (place Stack "Disc2" (sites Top) count:1)})
    (play (or (forEach Piece top:True)
              (move Add (to (sites Occupied by:Mover) if:(< (size Stack at:(to)) 2)) stack:True)))
    (end {(if (= 0 (count Pieces Next)) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""



# Piece states: set by the start rules, carried by a moving piece, gone with a captured
# one, read by (state at:), set by (set State) as a consequent and as a move.
STATES_GAME = """
(game "Marks"
  (players 2)
  (equipment {(board (square 4))
    (piece "Disc" Each (or (move Step Orthogonal (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))
                             (then (set State at:(last To) (+ 1 (state at:(last To))))))
                           (if (> (state at:(from)) 1) (set State at:(from) 0))))})
  (rules
    (start {(place "Disc1" (sites Bottom) state:1) (place "Disc2" (sites Top) state:2)})
    (play (forEach Piece))
    (end {(if (>= (state at:(last To)) 4) (result Mover Win))
          (if (>= (count Moves) 60) (result Mover Draw))})))
"""


# (is Threatened) as Ludii's: no move leaves the mover's king where an enemy move ends (the
# enemy's own moves unchecked, autoFail); mate is Ludii's Checkmate (the next player's moves
# as theirs, a king's capture made on their turn); knights leap.
THREATS_GAME = """
(game "Kings"
  (players 2)
  (equipment {(board (square 4))
    (piece "King" Each (move Step (to if:(not (is Friend (who at:(to)))) (apply (if (is Enemy (who at:(to))) (remove (to)))))))
    (piece "Rook" Each (move Slide Orthogonal (to if:(is Enemy (who at:(to))) (apply (remove (to))))))
    (piece "Knight" Each (move Leap {{F F R F} {F F L F}} (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))})
  (rules
    (start {(place "King1" coord:"B1") (place "Rook1" coord:"A1") (place "Knight1" coord:"D1")
            (place "King2" coord:"C4") (place "Rook2" coord:"D4") (place "Knight2" coord:"A4")})
    (play (do (forEach Piece) ifAfterwards:(not (is Threatened (id "King" Mover)))))
    (end {(if (and (is Threatened (id "King" Next))
               (not (can Move (do (forEach Piece Next) ifAfterwards:(not (is Threatened (id "King" Next)))))))
           (result Mover Win))
          (if (no Moves Next) (result Mover Draw))
          (if (>= (count Moves) 40) (result Mover Draw))})))
"""


# Slides forward (a direction read from the piece's facing) within a between range, a
# capture's own (then (set Counter)) and (counter) in an end rule.
PAWNS_GAME = """
(game "Pawns"
  (players 2)
  (equipment {(board (square 5))
    (piece "Pawn" Each (move Slide Forward (between (range 1 2) if:(is Empty (between)))
                         (to if:(is Enemy (who at:(to))) (apply (remove (to) (then (set Counter)))))))
    (piece "Rook" Each (move Slide Orthogonal (between (exact 2))
                         (to if:(is Enemy (who at:(to))) (apply (remove (to))))))
    (regions "Goal" P1 (sites Top)) (regions "Goal" P2 (sites Bottom))})
  (rules
    (start {(place "Pawn1" (sites Row 0)) (place "Pawn2" (sites Row 4))
            (place "Rook1" coord:"C2") (place "Rook2" coord:"C4")})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites Mover "Goal")) (result Mover Win))
          (if (>= (counter) 8) (result Mover Draw))
          (if (no Moves Next) (result Mover Loss))})))
"""

# Pawns step forward; one that lands two sites behind an enemy, as its side faces, takes
# it ((ahead ... steps:2 Forward) of the piece there); a pawn that lands with a friend
# right behind it loses ((ahead ... Backward), read per kind of piece).
AHEAD_GAME = """
(game "Ahead"
  (players {(player N) (player S)})
  (equipment {(board (square 5))
    (piece "Pawn" Each (move Step (directions {Forward FL FR}) (to if:(is Empty (to)))
      (then (if (is Enemy (who at:(ahead (last To) steps:2 Forward)))
                (remove (ahead (last To) steps:2 Forward))))))
    (regions "Goal" P1 (sites Top)) (regions "Goal" P2 (sites Bottom))})
  (rules
    (start {(place "Pawn1" (sites Row 0)) (place "Pawn2" (sites Row 4))})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites Mover "Goal")) (result Mover Win))
          (if (is Friend (who at:(ahead (last To) Backward))) (result Mover Loss))
          (if (no Moves Next) (result Mover Loss))})))
"""

# P1's men step north or north-east, P2's south or south-west ((if ...) as the directions
# of a step, the condition read when the moves are generated); a man that reaches the far
# row wins.
BRANCHES_GAME = """
(game "Branches"
  (players 2)
  (equipment {(board (square 5))
    (piece "Man" Each (move Step (if (is Mover P1) (directions {N NE}) (directions {S SW}))
                        (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (regions "Goal" P1 (sites Top)) (regions "Goal" P2 (sites Bottom))})
  (rules
    (start {(place "Man1" (sites Row 0)) (place "Man2" (sites Row 4))})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites Mover "Goal")) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# A king castles: it slides two sites east past empty ones, and its consequent slides the
# piece four sites from where the king started (its rook) one site west, beside it: a
# slide as a consequent, compiled where it makes at most one move.
CASTLE_GAME = """
(game "Castle"
  (players {(player N) (player S)})
  (equipment {(board (square 5))
    (piece "King" Each (or (move Step Orthogonal (to if:(not (is Friend (who at:(to))))
                                                    (apply (remove (to)))))
                           (move Slide E (between (exact 2) if:(is Empty (between))) (to if:True)
                             (then (slide (from (+ (last From) 4)) W (between (exact 1))
                                          (to if:True))))))
    (piece "Rook" Each (move Slide Orthogonal (to if:(is Enemy (who at:(to)))
                                                 (apply (remove (to))))))})
  (rules
    (start {(place "King1" coord:"A1") (place "Rook1" coord:"E1")
            (place "King2" coord:"A5") (place "Rook2" coord:"E5")})
    (play (forEach Piece))
    (end {(if (= (count Pieces Next) 1) (result Mover Win))
          (if (no Moves Next) (result Mover Draw))})))
"""

# Hooks go one site forward to an empty site, then one site diagonally on, turned from
# that first step ((forEach Direction (from (to)) (directions {FR FL} of:All)) inside the
# forward one's (to ... (apply ...))), taking an enemy there; men step orthogonally.
HOOKS_GAME = """
(game "Hooks"
  (players {(player N) (player S)})
  (equipment {(board (square 6))
    (piece "Hook" Each
      (forEach Direction Forward
        (to if:(is Empty (to))
          (apply (forEach Direction (from (to)) (directions {FR FL} of:All)
                   (if (not (is Friend (who at:(to))))
                     (move (from) (to (apply if:(is Enemy (who at:(to))) (remove (to)))))))))))
    (piece "Man" Each (move Step Orthogonal (to if:(is Empty (to)))))
    (regions "Goal" P1 (sites Top)) (regions "Goal" P2 (sites Bottom))})
  (rules
    (start {(place "Hook1" (sites {0 2 4})) (place "Man1" (sites {1 3 5}))
            (place "Hook2" (sites {31 33 35})) (place "Man2" (sites {30 32 34}))})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites Mover "Goal")) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# Elephants go two sites diagonally over an empty one ((between (exact 2) if:...)),
# taking an enemy there; runners go one to three empty sites forward, each taking the
# enemy just ahead of where it stops (the (then ...) of (forEach Direction ...)).
ELEPHANTS_GAME = """
(game "Elephants"
  (players {(player N) (player S)})
  (equipment {(board (square 6))
    (piece "Elephant" Each
      (forEach Direction Diagonal (between (exact 2) if:(is Empty (between)))
        (if (not (is Friend (who at:(to))))
          (move (from) (to (apply if:(is Enemy (who at:(to))) (remove (to))))))))
    (piece "Runner" Each
      (forEach Direction Forward (between (range 1 3))
        (to if:(is Empty (to)) (apply (move (from) (to))))
        (then (if (is Enemy (who at:(ahead (last To) Forward)))
                  (remove (ahead (last To) Forward))))))
    (regions "Goal" P1 (sites Top)) (regions "Goal" P2 (sites Bottom))})
  (rules
    (start {(place "Elephant1" (sites {1 4})) (place "Runner1" (sites {0 2 3 5}))
            (place "Elephant2" (sites {31 34})) (place "Runner2" (sites {30 32 33 35}))})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites Mover "Goal")) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# Cannons slide orthogonally, or hop over one piece (any number of empty sites before and
# after it) only to take an enemy: (apply if:...) of a hop's (to ...) lands it only where
# the to condition first fails and the enemy is; men only step forward, never taking.
CANNONS_GAME = """
(game "Cannons"
  (players {(player N) (player S)})
  (equipment {(board (square 6))
    (piece "Cannon" Each
      (or (move Slide Orthogonal)
          (move Hop Orthogonal (between before:6 after:6 if:(is Occupied (between)))
            (to if:(is Empty (to)) (apply if:(is Enemy (who at:(to))) (remove (to)))))))
    (piece "Man" Each (move Step Forward (to if:(is Empty (to)))))})
  (rules
    (start {(place "Cannon1" (sites {0 5})) (place "Man1" (sites Row 1))
            (place "Cannon2" (sites {30 35})) (place "Man2" (sites Row 4))})
    (play (forEach Piece))
    (end {(if (< (count Pieces Next) 6) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# Elephants go one or two empty sites forward, then on to a site one diagonal step from
# there ((sites To <moves>) of a step from (to)), taking an enemy; pawns step forward and
# take diagonally forward: the sites around the one ahead ((sites To ...) inside
# (sites Around ...)) that are diagonal to the pawn ((is Related Diagonal ...)).
REACHES_GAME = """
(game "Reaches"
  (players {(player N) (player S)})
  (equipment {(board (square 6))
    (piece "Elephant" Each
      (forEach Direction Forward (between (range 1 2))
        (to if:(is Empty (to))
          (apply (move (from)
                   (to (sites To (move Step (from (to)) Diagonal
                                   (to if:(not (is Friend (who at:(to)))))))
                       (apply if:(is Enemy (who at:(to))) (remove (to)))))))))
    (piece "Pawn" Each
      (or (move Step Forward (to if:(is Empty (to))))
          (move (from)
            (to (sites Around (sites To (move Step Forward (to if:True))) Orthogonal)
                if:(and (is Related Diagonal (from) (to)) (is Enemy (who at:(to))))
                (apply (remove (to)))))))
    (regions "Goal" P1 (sites Top)) (regions "Goal" P2 (sites Bottom))})
  (rules
    (start {(place "Elephant1" (sites {1 4})) (place "Pawn1" (sites {0 2 3 5}))
            (place "Elephant2" (sites {31 34})) (place "Pawn2" (sites {30 32 33 35}))})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites Mover "Goal")) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# Stingers step forward to an empty site, or take an adjacent enemy and then step on
# forward from there if the site is empty ((step ...) as a consequent: one move at most).
STINGERS_GAME = """
(game "Stingers"
  (players {(player N) (player S)})
  (equipment {(board (square 6))
    (piece "Stinger" Each
      (or (move Step Forward (to if:(is Empty (to))))
          (move Step Adjacent (to if:(is Enemy (who at:(to))) (apply (remove (to))))
            (then (step (from (last To)) Forward (to if:(is Empty (to))))))))
    (regions "Goal" P1 (sites Top)) (regions "Goal" P2 (sites Bottom))})
  (rules
    (start {(place "Stinger1" (sites {0 2 4})) (place "Stinger2" (sites {31 33 35}))})
    (play (forEach Piece))
    (end {(if (is In (last To) (sites Mover "Goal")) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""

# A disc goes only where none of the mover's discs is within two sites south of it nor
# anywhere west of it: (sites Direction from:(to) ...) inside a union left out of a
# region (a membership test of the region read at each site).
APART_GAME = """
(game "Apart"
  (players 2)
  (equipment {(board (square 5)) (piece "Disc" Each)})
  (rules
    (play (move Add
            (to (sites Empty)
                if:(= (count Sites in:(sites Occupied by:Mover))
                      (count Sites in:(difference (sites Occupied by:Mover component:"Disc")
                                        (union (sites Direction from:(to) N distance:2)
                                               (sites Direction from:(to) E))))))))
    (end {(if (is Line 3 Diagonal) (result Mover Win))
          (if (no Moves Next) (result Mover Loss))})))
"""


def test_a_slide_as_a_consequent_moves_the_rook_on_both_backends(tmp_path):
    from ludeme.analysis.playouts import compiled_of
    path = tmp_path / "game.lud"
    path.write_text(CASTLE_GAME)
    game = load(path)
    for state in (game.new_initial_state(1), compiled_of(game, "compiled").new_initial_state(1)):
        castle = [m for m in state.legal_moves() if (m.frm, m.to) == (0, 2)]
        assert len(castle) == 1, type(state)
        state.apply(castle[0])
        assert list(state.board_view()["what"])[:5] == [0, 0, 1, 3, 0], type(state)


@pytest.mark.parametrize("text, seeds, played", [
    # P2 starts 3 points ahead and mostly wins the race to 12.
    (STARTS_GAME, (2, 5), lambda df: df["winner"].isin([1, 2]).all()
     and df["winner"].eq(2).mean() > 0.5),
    (IDS_GAME, (1, 7), lambda df: df["winner"].eq(1).any() and df["turns"].max() <= 31),
    (SLIDES_GAME, (3, 8), lambda df: df["winner"].gt(0).any()),
    # The board fills: P1 (groups of up to 3) mostly wins on points; equal points draw.
    (AFTERWARDS_GAME, (2, 6), lambda df: {0, 1} <= set(df["winner"])
     and df["turns"].nunique() > 3),
    # Wins for both sides, and draws by (is Connected 5 Sides).
    (JOINS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Mills remove pieces: both sides reach 8 on the board in some games, others draw.
    (MILLS_GAME, (3, 5), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Sequences go on (more moves than turns) and a side is captured out in some games.
    (SEQUENCES_GAME, (3, 6), lambda df: df["moves"].gt(df["turns"] + 1).any()
     and {1, 2} <= set(df["winner"])),
    # Kings decide some games; others run to the move limit.
    (CROWNS_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # A king or the last P2 frog taken ends most games; ten hops draw a few.
    (LEAPS_GAME, (3, 7), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Captures decide some games (by score or by the last piece); most reach the limit.
    (SANDWICH_GAME, (3, 8), lambda df: {0, 1, 2} <= set(df["winner"])
     and df["score_difference_maximum"].gt(0).any()),
    # Stores fill: both sides win by score, and equal scores draw.
    (SOW_GAME, (3, 5), lambda df: {0, 1, 2} <= set(df["winner"])),
    # A capture gives another move in some games (more moves than turns).
    (SOW_OWNED_GAME, (3, 9), lambda df: df["moves"].gt(df["turns"] + 1).any()
     and {1, 2} <= set(df["winner"])),
    # Seeds run out for one side in some games; others reach the move limit.
    (SOW_CARRIED_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Relays (more moves than turns) and captures into the hands decide most games.
    (SOW_RELAY_GAME, (3, 5), lambda df: df["moves"].gt(df["turns"] + 1).any()
     and {1, 2} <= set(df["winner"])),
    (SOW_BOTH_PARTS_GAME, (3, 9), lambda df: df["moves"].gt(df["turns"] + 1).any()),
    # The hole is emptied only where it is the opponent's (read before the move again).
    (SOW_NEXT_AFTER_AGAIN_GAME, (3, 9), lambda df: df["moves"].gt(df["turns"] + 1).any()),
    (SOW_GIVE_GAME, (3, 5), lambda df: {1, 2} <= set(df["winner"])),
    # Every game ends with a side out of unmarked holes (more actions than seeds sown).
    (SOW_MARKED_GAME, (3, 5), lambda df: {1, 2} <= set(df["winner"])
     and not df["timeout"].any()),
    # Lines win; no game lasts past the 12 sites that are not corners.
    (CORNERLESS_GAME, (3, 5), lambda df: df["winner"].isin([1, 2]).any()
     and df["moves"].max() <= 12),
    # Men only go forward (five rows at most each, so no game reaches 60 moves) and hop
    # to capture in most games; the sides block each other.
    (FORWARD_HOPS_GAME, (3, 6), lambda df: df["moves"].max() <= 60
     and df["piece_number_max_decrease"].lt(0).mean() > 0.5),
    (MARKED_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Corners never hold a disc for long: the board never fills (at most 12 discs).
    (FLEETING_GAME, (3, 4), lambda df: df["piece_number_maximum"].max() <= 13
     and {1, 2} <= set(df["winner"])),
    (AROUND_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Some games fill the board and end on the passes that follow, none runs on.
    (SHY_GAME, (3, 4), lambda df: df["piece_number_maximum"].eq(9).any()
     and df["moves"].max() < 30),
    # The forced echoes hand the first player nearly every game.
    (ECHO_GAME, (3, 4), lambda df: df["winner"].eq(1).mean() > 0.8),
    (PAIRS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # The first disc's two sites are 16 (past the board: not empty, as Ludii reads it)
    # and 13.
    (PAIRS_GAME.replace("(- 14 (last To)) (- 11", "(- 15 (last To)) (- 12"), (3, 4),
     lambda df: df["winner"].gt(0).any()),
    # Both sides win by a stack; a side captured out draws (not a timeout) in some games.
    (STACKS_GAME, (3, 5), lambda df: {1, 2} <= set(df["winner"])
     and (df["winner"].eq(0) & ~df["timeout"]).any()),
    # Captures and hops (more actions than moves) in some games; every game ends blocked.
    (TOWERS_GAME, (3, 5), lambda df: df["actions"].gt(df["moves"]).any()
     and not df["timeout"].any()),
    # A piece moved four times (from state 1 or 2) wins before the move limit.
    (STATES_GAME, (3, 5), lambda df: {1, 2} <= set(df["winner"])
     and df["turns"].max() < 60),
    # Mates win some games; most end drawn (no move, or the move limit).
    (THREATS_GAME, (3, 5), lambda df: df["winner"].gt(0).any() and df["winner"].eq(0).any()),
    # Pawns reach the far row in some games; captures reset the counter, which ends others.
    (PAWNS_GAME, (3, 5), lambda df: df["winner"].gt(0).any() and df["winner"].eq(0).any()),
    # Some games are won on the top row (its two sites that are not corners), the others
    # fill the board and draw.
    (TOPS_GAME, (3, 4), lambda df: df["winner"].gt(0).any() and df["winner"].eq(0).any()),
    # Both sides win; a pawn is taken two sites ahead in some games.
    (AHEAD_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    (CASTLE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # A rook cannot slide from A4 ((from ... if:) of a slide). P2's rook is its only piece
    # that can move: stuck there, P2 has no move, which loses the game for P1, who moved
    # last; P2 wins most games (a third without the condition).
    (PAWNS_GAME.replace("(move Slide Orthogonal (between (exact 2))",
                        "(move Slide (from (from) if:(!= (from) 15)) Orthogonal "
                        "(between (exact 2))"), (3, 5),
     lambda df: {0, 1, 2} <= set(df["winner"]) and df["winner"].eq(2).mean() > 0.5),
    # Both sides reach the far row in some games, after captures in some.
    (BRANCHES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    # Doubles score: games the move limit ends are won by score; hits win others.
    (DICE_GAME, (3, 8), lambda df: (df["moves"].eq(150) & df["winner"].gt(0)).any()
     and (df["moves"].lt(150) & df["winner"].gt(0)).any()),
    # Some turns have a second move, and some games end with every enemy piece hit.
    (DICE_SUM_GAME, (3, 8), lambda df: df["moves"].gt(df["turns"]).any()
     and df["winner"].gt(0).any()),
    # Every piece starts in hand: both sides enter, hit and win on score.
    (DICE_ENTRY_GAME, (3, 8), lambda df: {1, 2} <= set(df["winner"])),
    # Lines along the levels, down a stack and across them win; full columns are never
    # played (at most 15 discs), and a full board with no line draws.
    (COLUMNS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].max() <= 15),
    # Every game is won at once by the first disc on the other side's home row (the board
    # never fills).
    (ACROSS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].max() < 16),
    # Each turn is a slide then a shot (moves twice the turns); the 21 free sites fill up
    # and a side is blocked in every game.
    (ARROWS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_maximum"].gt(6).all() and not df["timeout"].any()),
    # The board fills (16 discs) in some games; a side is walled in before in others.
    (SPREAD_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_maximum"].lt(16).any()),
    (SPREAD_GAME.replace("(to (intersection (sites Around (sites Occupied by:Mover)) "
                         "(sites Empty)))",
                         "(to (sites Empty) if:(is In (to) (sites Around (sites Occupied "
                         "by:Mover))))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"]) and df["piece_number_maximum"].lt(16).any()),
    # Two discs a turn (the last turn may end at the first), lines win for both sides.
    (BUDGET_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].ge(2 * df["turns"] - 1).all()),
    # A full home loses: both sides lose some games, none reaches the move limit.
    (RAID_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and not df["timeout"].any()),
    # Every game ends with a side out of moves, who loses (no draw, no move limit).
    (KEEPERS_GAME, (3, 4), lambda df: {1, 2} == set(df["winner"]) and not df["timeout"].any()),
    # The board always fills; scores decide, equal ones draw.
    (TALLY_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]) and df["moves"].eq(9).all()),
    # Lines win some games; passes draw the others (no move limit).
    (PHASED_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]) and not df["timeout"].any()),
    # P1 moves again after its even sites and wins nearly every game.
    (FAVOUR_GAME, (3, 4), lambda df: df["winner"].eq(1).mean() > 0.9
     and df["moves"].gt(df["turns"]).any()),
    # A side left with fewer than 12 seeds in its row loses too: some games end before any
    # side runs out of moves (at 11 moves at least).
    (KEEPERS_GAME.replace("(no Moves Player)",
                          "(or (no Moves Player) (> 12 (count in:(sites Player))))"), (3, 4),
     lambda df: {1, 2} == set(df["winner"]) and df["moves"].min() < 11),
    # Every game is won by a line, mixed or not (none fills the board).
    (MIXED_GAME, (3, 4), lambda df: {1, 2} == set(df["winner"]) and df["moves"].max() < 16),
    # Both sides win; full boards (16 discs) draw.
    (GRID_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and (df["winner"].eq(0) & df["moves"].eq(16)).any()),
    # Some turns chain hops, the end rule read between them.
    (NEXT_HOPS_GAME, (3, 4), lambda df: df["moves"].gt(df["turns"]).any()),
    # Both sides win; some turns chain hops; passes draw some games before the move limit.
    (LONGEST_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])
     and df["moves"].gt(df["turns"]).any() and (df["winner"].eq(0) & df["moves"].lt(40)).any()),
    # Some turns chain flying hops; P1 wins some games.
    (FLYERS_GAME, (3, 4), lambda df: df["winner"].eq(1).any() and df["moves"].gt(df["turns"]).any()),
    # P1 wins every game, some turns moving again.
    (AGAIN_GAME, (3, 4), lambda df: df["winner"].eq(1).all() and df["moves"].gt(df["turns"]).any()),
    # Both sides win, some games draw; none places more than 16 discs.
    (RING_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"]) and df["moves"].max() == 16),
    # Pawns crowned by id win some games; the promotions by id keep others going.
    (PROMOTE_BY_ID_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win by what their discs see; some games fill what can be seen and draw.
    (LOOKOUTS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Kings meet in some games; the others end at 20 moves, won by either side.
    (KINGS_APART_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].lt(20).any() and df["moves"].eq(20).any()),
    # Takes follow some moves (more moves than turns) and remove pieces.
    (FOLLOW_UP_GAME, (3, 4), lambda df: df["moves"].gt(df["turns"]).any()
     and df["piece_number_max_decrease"].lt(0).any()),
    # Rooks are taken in some games; discs are placed in most.
    (LEAPS_OF_VALUE_GAME, (3, 4), lambda df: df["winner"].gt(0).any()
     and df["piece_number_maximum"].gt(4).any()),
    # It compiles (the rule asked inside the (then ...) does not ask itself again); takes
    # follow some moves.
    (STUCK_SCORES_GAME, (3, 4), lambda df: df["moves"].gt(df["turns"]).any()),
    # A full row of the last disc loses, a line of three wins: both happen.
    (ROW_AND_COLUMN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["moves"].min() >= 4),
    # Both sides win, which takes captures.
    (APPROACH_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Lines are made at the bottom, so discs fall: both sides win, and a full board draws.
    (FALLING_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # The centre is never taken, so eight moves at most; both sides win, some draw.
    (PAST_THE_LAST_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])
     and df["moves"].max() <= 8),
    # Three discs back home score and win, for both sides (the consequent at work).
    (SEND_BACK_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # The same with (fromTo ...) and the score in its own (then ...).
    (SEND_BACK_GAME.replace("(and (addScore Mover 1) (move (from (last To)) (to (handSite Mover))))",
                            "(fromTo (from (last To)) (to (handSite Mover)) "
                            "(then (addScore Mover 1)))"),
     (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # The same with count: read for the one disc sent back.
    (SEND_BACK_GAME.replace("(to (handSite Next))", "(to (handSite Next)) count:(count at:(to))"),
     (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Some lines take several discs (a fall of more than one) and give corners (a rise of
    # more than one).
    (REGION_RESET_GAME, (3, 4), lambda df: df["piece_number_max_decrease"].lt(-1).any()
     and df["piece_number_max_increase"].gt(1).any()),
    # Some sowings empty more than one enemy hole's worth of seeds at once.
    (AROUND_EMPTIED_GAME, (3, 4), lambda df: df["piece_number_max_decrease"].lt(-2).any()),
    # The same, the holes picked from those of the track ((sites Track) listed) and the game
    # won when fewer than 12 seeds are left on it ((sites Track) counted): both sides win,
    # and games end sooner (fewer than 100 moves on average, about 125 without the rule).
    (AROUND_EMPTIED_GAME.replace("(from (sites Mover) if:",
                                 "(from (intersection (sites Mover) (sites Track)) if:").replace(
        "(end {(if (no Moves Next) (result Mover Win))",
        "(end {(if (> 12 (count in:(sites Track))) (result Mover Win))\n"
        "          (if (no Moves Next) (result Mover Win))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"]) and df["moves"].mean() < 100),
    # Some passes put two seeds in each of several holes.
    (REFILL_GAME, (3, 4), lambda df: df["piece_number_max_increase"].gt(2).any()),
    # Games go on past the two pieces of the hand; both sides win.
    (COPIES_GAME, (3, 4), lambda df: df["moves"].gt(3).all() and {1, 2} <= set(df["winner"])),
    # Both sides win, with pieces of both sides left.
    (KINGS_FALL_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number"].gt(2).any()),
    # Every game is won by walling a ball in before the board fills (16 balls).
    (WALLED_IN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(16).all()),
    # Both ends happen, before the move limit.
    (CORNER_RUN_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).all()),
    # All six discs enter the board in some games; both sides win.
    (DROPS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_maximum"].eq(6).any()),
    # The same, won too by a mover with no disc in hand nor on the bottom row: pieces
    # counted on a region listed per mover ((union (sites Hand Mover) ...)).
    (DROPS_GAME.replace("(end {(if (is Line 3) (result Mover Win))",
                        "(end {(if (no Pieces Mover in:(union (sites Hand Mover) (sites Bottom)))\n"
                        "              (result Mover Win))\n"
                        "          (if (is Line 3) (result Mover Win))"), (3, 4),
     lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win by three captures; some moves take several markers at once.
    (SMALL_GO_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(-1).any()),
    # Ludii's default targets (the site numbers read as players) and removal.
    (SMALL_GO_GAME.replace("""(then (enclose (from (last To)) Orthogonal
                    (between if:(is Enemy (who at:(between)))
                             (apply (and (addScore Mover 1) (remove (between)))))))))""",
                           "(then (enclose (from (last To)) Orthogonal))))"), (3, 4),
     lambda df: df["piece_number_max_decrease"].lt(-1).any()),
    # Both sides win, some games draw on a full board.
    (GUARDED_LINES_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # The same with exact: and contiguous:False.
    (GUARDED_LINES_GAME.replace("(is Line 3 if:", "(is Line 3 exact:True contiguous:False if:"),
     (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win; discs are taken back in some games.
    (REARMOST_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).any()),
    # Two enemies taken at once in some games.
    (STEP_BETWEEN_GAME, (3, 4), lambda df: df["piece_number_max_decrease"].le(-2).any()),
    # Runs of one or two on each side: three taken at once in some games.
    (STEP_BETWEEN_GAME.replace("(intervene (from (last To))",
                               "(intervene (from (last To)) (between (range 1 2))"),
     (3, 4), lambda df: df["piece_number_max_decrease"].le(-3).any()),
    # Five sites are never played: at most 20 moves; both sides win.
    (OFF_CENTRE_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() <= 20),
    # Three sites of the middle row, grown west from its right end, are never played.
    (OFF_CENTRE_GAME.replace("(expand origin:(centrePoint) steps:(- 3 2) Orthogonal)",
                             "(expand (intersection (sites Row 2) (sites Right)) steps:(+ 1 1) W)"),
     (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() <= 22),
    # Both sides empty the other's row first in some games.
    (PICK_TWO_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Some takes blow up three pieces and more.
    (BOOM_GAME, (3, 4), lambda df: df["piece_number_max_decrease"].le(-3).any()),
    # Both sides win; some placements turn several stones (four actions a move at least:
    # the placement, a turn, two scores).
    (TURNCOAT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["actions"].gt(4 * df["moves"]).any()),
    # The turns as (set State ...); a placement with a state as a decision where none turns.
    (TURNCOAT_GAME.replace("(flip (between))", "(set State at:(between) (mover))").replace(
        "(move Pass)", '(move Add (piece "Stone0" state:(mover)) (to (sites Empty)))'), (3, 4),
     lambda df: {1, 2} <= set(df["winner"]) and df["actions"].gt(4 * df["moves"]).any()),
    # Three players; a stone placed next to a stone where no turn is made ((sites Occupied
    # by:Neutral)); every player's score set in (forEach Player ...) with (player).
    (TURNCOAT_GAME.replace("(players 2)", "(players 3)").replace(
        "(between if:(= (state at:(between)) (next))",
        "(between if:(!= (state at:(between)) (mover))").replace(
        "(move Pass)", '(move Add (piece "Stone0" state:(mover)) '
        '(to (sites Around (sites Occupied by:Neutral) Empty)))').replace(
        "(then (set Score Next (count Sites in:(sites State (next)))))",
        "(then (forEach Player (set Score Player (count Sites in:(sites State (player))))))"),
     (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Both sides win; some moves flip more than the stone selected (two actions a move).
    (TURNABOUT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["actions"].gt(2 * df["moves"]).any()),
    # Captures win, truces draw.
    (RINGWAY_GAME, (3, 4), lambda df: {0, 1, 2} <= set(df["winner"])),
    # Along one named track, where every site reached counts (no loop needed).
    (RINGWAY_GAME.replace('"AllTracks"', '"Track1B"'), (3, 4),
     lambda df: {0, 1, 2} <= set(df["winner"])),
    # Every game stops, out of moves, long before the board fills.
    (TRACK_WALK_GAME, (3, 4), lambda df: df["moves"].max() < 12 and df["moves"].gt(1).any()),
    # Both sides win; some placements push out two enemies.
    (PUSH_OUT_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].le(-2).any()),
    # Both sides win; hooks take in most games (men never take).
    (HOOKS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).mean() > 0.5),
    # Both sides win, and every game takes a piece (elephants or runners).
    (ELEPHANTS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).all()),
    # Both sides win, by three takes, which only the cannons' hops make.
    (CANNONS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])),
    # Both sides win; most games take a piece.
    (REACHES_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).mean() > 0.5),
    # Both sides win; nearly every game takes a piece.
    (STINGERS_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"])
     and df["piece_number_max_decrease"].lt(0).mean() > 0.8),
    # Both sides win; no game fills the board (the rule leaves sites no one may take).
    (APART_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].max() < 25)],
    ids=["starts", "ids", "slides", "afterwards", "joins", "mills", "sequences", "crowns",
         "leaps", "sandwich", "sow", "sow-owned", "sow-carried", "sow-relay",
         "sow-both-parts", "sow-next-after-again", "sow-give", "sow-marked", "cornerless",
         "forward-hops", "marked", "fleeting", "around", "shy", "echo", "pairs", "pairs-off-board",
         "stacks", "towers", "states", "threats", "pawns", "tops", "ahead", "castle",
         "slide-from-if", "branches", "dice", "dice-sum", "dice-entry", "columns", "across",
         "arrows", "spread", "spread-tested", "budget", "player-regions",
         "sow-then-loop", "set-score",
         "all-pass-in-one-phase", "next-player",
         "player-region-counted", "line-of-a-role", "coords-and-full", "no-moves-next-again",
         "max-moves", "hops-in-last-move-directions",
         "no-moves-next-after-again", "expand-static", "promote-by-id",
         "sites-direction-listed", "count-steps-by-relation",
         "step-from-a-site", "for-each-value",
         "can-move-in-the-then-around", "row-and-column-by-index",
         "approach-and-withdrawal", "falling-by-a-count-read-in-play",
         "literal-region-past-the-last-site", "move-as-an-effect-and-a-consequent",
         "from-to-with-its-then",
         "move-as-an-effect-with-count", "region-removed-then-placed",
         "region-removed-in-a-sowing", "track-listed-and-counted", "region-placed-with-count",
         "copies-from-a-shared-hand", "no-pieces-of-a-kind",
         "trigger-and-site-in-can-move", "within-a-region-and-at-a-site",
         "occupied-in-a-container-by-index-and-phase",
         "pieces-counted-on-a-region-listed-per-mover", "enclose-as-a-consequent",
         "enclose-with-the-default-targets", "line-with-a-condition",
         "line-with-a-condition-exact-with-gaps", "first-move-on-track-and-max-distance",
         "intervene-as-a-consequent", "intervene-with-a-range",
         "expand-of-a-centre-point", "expand-of-a-fixed-region", "remove-with-count",
         "for-each-site-as-an-effect-emptying-the-origin",
         "append-custodial-flips", "append-custodial-set-state",
         "for-each-player-as-a-consequent", "flip-with-its-then",
         "slide-along-all-tracks-and-votes", "slide-along-a-named-track",
         "track-walked-from-and-to",
         "add-with-an-effect-over-a-region",
         "direction-turned-from-a-step",
         "direction-between-and-range", "hop-landing-where-it-stops",
         "sites-to-and-related-sites", "step-as-a-consequent",
         "sites-direction-tested"])
def test_new_compiled_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    path = tmp_path / "game.lud"
    path.write_text(text)
    game = load(path)
    from ludeme.engine.compiled.codegen import generate
    generate(game)                  # it has a compiled form
    # The first seed's 40 playouts show the rule at work (`played`); the other seeds'
    # fewer playouts only add paths on which both backends must agree.
    rows = [_same_rows(game, 40 if i == 0 else 15, seed) for i, seed in enumerate(seeds)]
    assert played(rows[0])


@pytest.mark.parametrize("faces,tos", [((2, 4), [3, 4, 5, 6, 7, 8, 9, 10]), ((1, 1), [3, 4, 5, 6])])
def test_forced_rolls_give_the_same_moves_on_both_backends(faces, tos, tmp_path):
    """`crosscheck --backend compiled` replays Ludii's rolls: the faces forced are those the
    moves of both backends are generated with (and after a double, the sums of two)."""
    from ludeme.api import new_state
    path = tmp_path / "game.lud"
    path.write_text(DICE_GAME)
    game = load(path)
    states = [new_state(game, 0, backend=b) for b in ("reference", "compiled")]
    assert type(states[0]) is not type(states[1])
    first = game.env.dice[0].sites_from
    for s in states:
        s.force_roll = {first: faces[0], first + 1: faces[1]}
    ref, fast = ([str(m) for m in s.legal_moves()] for s in states)
    assert ref == fast
    assert sorted({m.to for m in states[1].legal_moves()}) == tos
    for s in states:
        s.apply(s.legal_moves()[0])
    assert [str(m) for m in states[0].legal_moves()] == [str(m) for m in states[1].legal_moves()]


# The Flat's surround, as a part of an (or ...) after another capture.
_SURROUND = ("(surround (from (last To)) Orthogonal\n"
             "                (between if:(is Enemy (who at:(between))) (apply (remove (between))))\n"
             "                (to if:(is Friend (who at:(to)))) except:1)")


@pytest.mark.parametrize("first", [
    "(custodial (from (last To)) Orthogonal (between (max 1) if:(is Enemy (who at:(between))) "
    "(apply (remove (between)))) (to if:(is Friend (who at:(to)))))",
    # the same capture twice: the second finds the pieces the first removed, and removes
    # them again (an action each, as the reference counts them)
    _SURROUND])
def test_captures_after_another_part_of_an_or_read_the_position_before_it(first, tmp_path):
    """The reference finds every part's captures on the position before any of them; the
    kernels apply the parts in turn, the parts after the first reading a copy of the
    position taken before it (`ludemes.moves._parts_in_turn`): the same rows."""
    from ludeme.engine.compiled.codegen import generate
    assert f"(then {_SURROUND})" in SANDWICH_GAME
    f = tmp_path / "g.lud"
    f.write_text(SANDWICH_GAME.replace(f"(then {_SURROUND})", f"(then (or {first} {_SURROUND}))"))
    game = load(f)
    generate(game)
    rows = _same_rows(game, 40, 3)
    _same_rows(game, 15, 8)
    assert rows["piece_number_max_decrease"].lt(0).any()


@pytest.mark.parametrize("old,new,why", [
    # the copies searched start with every player active
    ("(players 2)", "(players 3)", "with more than two players")])
def test_max_moves_the_kernels_cannot_rank_as_the_reference_are_refused(old, new, why,
                                                                        tmp_path):
    _refused_with(LONGEST_GAME, old, new, why, tmp_path)


def _refused_with(text, old, new, why, tmp_path):
    """The game `text` with `old` made `new` has no compiled form, and says `why`."""
    from ludeme.engine.compiled.codegen import generate
    assert old in text
    f = tmp_path / "g.lud"
    f.write_text(text.replace(old, new))
    with pytest.raises(Unsupported, match=why):
        generate(load(f))


@pytest.mark.parametrize("old,new,why", [
    # a kernel move carries one generator: a capture's or a combination's moves as
    # decisions would need the sites captured, or two moves' effects
    ("(append\n                (custodial", "((custodial", "as moves played"),
    ("(append\n                (custodial", "(or (allCombinations (move Pass) (move Pass)) (custodial",
     "as moves played"),
    # a combination's part that may make several moves would combine each with each
    ("(flip (between))", "(add (piece \"Stone0\") (to (sites Empty)))",
     "on a region, as one move")])
def test_appended_and_combined_moves_the_kernels_cannot_carry_are_refused(old, new, why,
                                                                         tmp_path):
    _refused_with(TURNCOAT_GAME, old, new, why, tmp_path)


def test_hops_in_directions_relative_to_the_piece_and_the_last_move_are_refused(tmp_path):
    """The hop's directions are tabulated over the last move and whether a piece stands at
    the start: a facing beside them would read the piece itself."""
    from ludeme.engine.compiled.codegen import generate
    old = "(if (is Even (last To)) (difference Orthogonal OppositeDirection) SameDirection)"
    assert old in FLYERS_GAME
    f = tmp_path / "g.lud"
    f.write_text(FLYERS_GAME.replace(old, "(directions {SameDirection Forward})"))
    with pytest.raises(Unsupported, match="relative to the piece beside ones that follow"):
        generate(load(f))


@pytest.mark.parametrize("line,expected", [
    ("if count[to] > 1:", "if count_0[to] > 1:"),
    ("site_move_n(who, what, count, OWN, frm, to, count[frm])",
     "site_move_n(who, what, count, OWN, frm, to, count_0[frm])"),
    ("site_move_st(who, what, count, sc[STATE:STATE + N_STATE], 0, frm, (T1[sc[NEXT], to]))",
     "site_move_st(who, what, count, sc[STATE:STATE + N_STATE], 0, frm, (T1[sc_0[NEXT], to]))"),
    ("sc[SCORE + mover] += count[to]", "sc[SCORE + mover] += count_0[to]"),
    ("who[ps] = OWNER[what[ps]]", "who[ps] = OWNER[what_0[ps]]"),
    ("rem_add(sc, (REM + 0 * REM_STRIDE), sc[VARS + 0])",
     "rem_add(sc, (REM + 0 * REM_STRIDE), sc_0[VARS + 0])"),
    # a helper kernel called as a statement may write: refused
    ("helper_0(who, what, count, sc, phase)", None),
    ("what[count[to]] = 2", None)])
def test_a_later_part_reads_the_copy_and_writes_the_position(line, expected):
    from ludeme.model.ludemes.moves import _on_snapshot
    if expected is None:
        with pytest.raises(Unsupported, match="why"):
            _on_snapshot(None, ["    " + line], "why")
    else:
        assert _on_snapshot(None, ["    " + line], "why") == ["    " + expected]


def test_a_move_from_a_site_past_the_last_container_is_none_on_both_backends(tmp_path):
    """Ludii reads such a site as empty; the kernel must not read past its arrays."""
    f = tmp_path / "g.lud"
    f.write_text('(game "g" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
                 '(rules (play (or (move (from 30) (to (sites Empty))) '
                 '(move Add (to (sites Empty))))) (end (if (no Moves Next) (result Mover Win)))))')
    _same_rows(load(f), 20, 3)


@pytest.mark.parametrize("test", ["(is Occupied Vertex 4)", "(not (is Empty Vertex 4))"])
def test_another_site_types_layer_reads_empty_on_both_backends(test, tmp_path):
    """A disc stands on cell 4; the board's vertices hold nothing (as the reference reads
    another type): the game is played, not passed, on both backends."""
    f = tmp_path / "g.lud"
    f.write_text('(game "g" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
                 '(rules (start (place "Disc1" 4)) '
                 f'(play (if {test} (move Pass) (move Add (to (sites Empty))))) '
                 '(end {(if (is Line 3) (result Mover Win)) '
                 '(if (no Moves Next) (result Mover Draw))})))')
    game = load(f)
    assert run_playouts(game, 5, 1, jobs=1, progress=False,
                        backend="reference")["moves"].min() > 2
    _same_rows(game, 20, 3)


# (sites Occupied by:All) holds the neutral and shared owners' pieces too, on both backends:
# with a neutral stone on the board from the start, the fifth occupied site is the fourth add.
OCCUPIED_BY_ALL_GAME = """
(game "All"
  (players 2)
  (equipment {(board (square 3)) (piece "Disc" Each) (piece "Stone" Neutral)})
  (rules
    (start (place "Stone" 4))
    (play (move Add (to (sites Empty))))
    (end (if (>= (count Sites in:(sites Occupied by:All)) 5) (result Mover Win)))))
"""


def test_sites_occupied_by_all_gives_the_reference_rows(tmp_path):
    path = tmp_path / "all.lud"
    path.write_text(OCCUPIED_BY_ALL_GAME)
    df = _same_rows(load(path), 5, 0)
    assert set(df["turns"]) == {4}


def test_a_probe_refuses_to_read_the_pieces():
    """A rule listed before play that reads a site's piece is refused (the game stays on the
    reference engine), not an IndexError out of the code generator (Millieu's regions)."""
    from ludeme.engine.compiled.codegen import _Probe
    probe = _Probe(2)
    assert list(probe.s.what) == []
    with pytest.raises(Unsupported, match="reads the pieces"):
        probe.s.what[0]


def test_a_helper_reading_player_it_is_not_given_is_refused(tmp_path):
    """(player) is a local of the loop of forEach Player/NonMover: a helper kernel must be
    handed it, and one that reads it without is refused (it would fail when run)."""
    from ludeme.engine.compiled.codegen import Source
    path = tmp_path / "game.lud"
    path.write_text(RAID_GAME)
    src = Source(load(path))
    with pytest.raises(Unsupported, match="not given it"):
        src.helper(lambda name: f"def {name}(what):\n    return what[player]\n")
    assert src.helper(lambda name: f"def {name}(what, player):\n    return what[player]\n")


PAST = ('(game "Past" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
        '(rules (start (place "Disc1" 0)) (play (or (move (from 0) (to TO)) '
        '(move Add (to (sites Empty))))) (end (if (is Full) (result Mover Draw)))))')


def test_a_destination_past_every_site(tmp_path):
    """Written as a number, a destination past every container's sites is refused where it
    is written (Ludii would make the move and fail applying it); computed in play, it gives
    no move on either backend (as an origin there holds no piece), the same rows on both,
    where the kernels would have written past their arrays."""
    from ludeme.errors import LudemeError
    path = tmp_path / "past.lud"
    path.write_text(PAST.replace("TO", "9"))
    with pytest.raises(LudemeError, match=r"\(to 9\) is not a site of this game \(its sites "
                                          r"are 0 to 8\)") as e:
        load(path)
    assert (e.value.pos.line, e.value.pos.col) == (1, PAST.index("(to TO)") + 1)
    path.write_text(PAST.replace("TO", "(+ 8 (count Pieces Mover))"))     # 9 and more in play
    game = load(path)
    _same_rows(game, 10, 3)
    from ludeme.api import new_state
    for backend in ("reference", "compiled"):
        state = new_state(game, 0, backend=backend)
        assert len(state.legal_moves()) == 8      # the eight adds, no move off the board


def test_a_failure_in_a_define_library_names_the_game_it_was_checked_for(tmp_path):
    """A stage stopping inside a library's define (its .def text) says which game the
    line is about, as a directory's check lists many games."""
    from ludeme.analysis.check import _line
    from ludeme.errors import LudemeError, Pos
    game = tmp_path / "game.lud"
    game.write_text("(game)")
    in_def = LudemeError("no compiled form: it lacks (x)", Pos("/lib/race.def", 6, 27))
    assert _line(in_def, str(game), None) == (f"/lib/race.def:6:27: no compiled form: it lacks "
                                              f"(x) (checking {game})")
    in_game = LudemeError("no compiled form: it lacks (x)", Pos(str(game), 1, 2))
    assert _line(in_game, str(game), None).endswith("lacks (x)")
