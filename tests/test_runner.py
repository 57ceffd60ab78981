"""`ludeme run` and `run_playouts`: rows, seeds, processes, Ctrl-C, outputs (on a fake game)."""

import random

import pandas as pd
import pytest

from conftest import DESCRIPTIONS
from fake_game import FakeGame
from ludeme.analysis import playouts as runner
from ludeme.cli.common import EXIT_INTERRUPTED
from ludeme.cli.main import main
from ludeme.analysis.metrics import summarize
from ludeme.analysis.report import write_run
from ludeme.analysis.playouts import play_one, playout_seed, run_playouts


def ludii_lists(game, seed):
    """Replay a playout and keep Ludii's per-state lists, the slow and obvious way."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    nb = game.containers[0].num_sites
    states, legal_counts = [state.clone()], []
    while not state.is_terminal():
        legal = state.legal_moves()
        legal_counts.append(len(legal))
        state.apply(legal[rng.randrange(len(legal))])
        states.append(state.clone())
    multi = [k for k in legal_counts if k > 1]
    return {
        "moves": len(legal_counts),
        "branching_factor": sum(legal_counts) / len(legal_counts),
        "decisions_multi": len(multi),
        "decision_moves": len(multi) / len(legal_counts),
        "decision_factor": sum(multi) / len(multi),
        "board_coverage": sum(any(s.what[i] for s in states) for i in range(nb)) / nb,
        "piece_number": sum(sum(s.count[:nb]) for s in states) / len(states),
        "board_sites_occupied": sum(sum(1 for i in range(nb) if s.what[i]) / nb
                                    for s in states) / len(states),
        "turns": state.num_turn, "winner": state.winner,
    }


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_row_holds_ludiis_per_playout_values(seed):
    game = FakeGame(sites=5)
    row = play_one(game, seed, index=7)
    expected = ludii_lists(FakeGame(sites=5), seed)
    for key, value in expected.items():
        assert row[key] == pytest.approx(value), key
    assert row["index"] == 7 and row["seed"] == seed and row["timeout"] is False


def test_rows_follow_the_turn_counter_not_the_decisions():
    rows = [play_one(FakeGame(sites=3), s) for s in range(30)]
    # A placement on point 0 gives a second decision in the same turn.
    assert any(r["moves"] > r["turns"] for r in rows)
    assert all(r["moves"] >= r["turns"] for r in rows)


def test_the_same_choices_as_the_conformance_playout():
    testing = pytest.importorskip("ludeme.analysis.conformance")
    for seed in (5, 6):
        end, choices = testing.random_playout(FakeGame(sites=4), seed)
        row = play_one(FakeGame(sites=4), seed)
        assert (row["moves"], row["turns"], row["winner"]) == \
            (len(choices), end.num_turn, end.winner)


def test_a_cut_game_is_a_timeout_not_a_draw():
    rows = [play_one(FakeGame(sites=6, max_turns=2), s) for s in range(20)]
    cut = [r for r in rows if r["timeout"]]
    assert cut, "a turn limit of 2 per player cuts some playouts"
    for r in cut:
        assert r["end_type"] == "TurnLimit" and r["winner"] == 0 and r["turns"] == 4
        assert r["turn_limit"] == 4


def test_playout_seeds_depend_on_seed_and_index_only():
    seeds = {playout_seed(s, i) for s in range(3) for i in range(100)}
    assert len(seeds) == 300
    assert playout_seed(12, 34) == playout_seed(12, 34)
    assert all(0 <= s < 2 ** 63 for s in seeds)


def without_timing(df):
    return df.drop(columns="seconds")


def test_one_job_and_two_jobs_give_the_same_rows():
    game = FakeGame(sites=4, max_turns=6)
    one = run_playouts(game, 150, seed=9, jobs=1)
    two = run_playouts(game, 150, seed=9, jobs=2)
    assert len(one) == 150 and list(one["index"]) == list(range(150))
    pd.testing.assert_frame_equal(without_timing(one), without_timing(two))
    other = run_playouts(game, 150, seed=10, jobs=1)
    assert not without_timing(one).equals(without_timing(other))


def test_a_stored_seed_replays_its_playout():
    df = run_playouts(FakeGame(sites=5), 20, seed=3, jobs=1)
    row = df.iloc[13]
    again = play_one(FakeGame(sites=5), int(row["seed"]), 13)
    assert (again["turns"], again["moves"], again["winner"]) == \
        (row["turns"], row["moves"], row["winner"])


def test_a_game_without_a_source_is_sent_pickled():
    game = FakeGame(sites=4, max_turns=6)
    game.source = None
    one = run_playouts(game, 40, seed=4, jobs=1)
    two = run_playouts(game, 40, seed=4, jobs=2)
    pd.testing.assert_frame_equal(without_timing(one), without_timing(two))


def test_ctrl_c_keeps_the_finished_playouts():
    df = run_playouts(FakeGame(sites=4, interrupt_after=37), 100, seed=1, jobs=1)
    assert df.attrs["interrupted"] is True
    assert list(df["index"]) == list(range(37))


def test_the_progress_bar_is_quiet_off_a_terminal(capsys):
    run_playouts(FakeGame(), 30, seed=1, jobs=1)
    assert capsys.readouterr().err == ""
    run_playouts(FakeGame(), 30, seed=1, jobs=1, progress=True)
    assert "30/30" in capsys.readouterr().err


def test_outputs_are_written(tmp_path):
    df = run_playouts(FakeGame(sites=4, max_turns=5), 60, seed=2, jobs=1)
    paths = write_run(df, summarize(df), tmp_path)
    names = {p.name for p in paths}
    assert names == {"playouts.parquet", "playouts.csv", "summary.csv", "summary.md",
                     "report.html", "lengths.png", "outcomes.png"}
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "playouts.parquet"), df,
                                  check_dtype=False)
    assert len(pd.read_csv(tmp_path / "playouts.csv")) == 60
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert summary.loc[0, "n"] == 60 and "Balance_ci_high" in summary.columns
    md = (tmp_path / "summary.md").read_text()
    assert "| DurationTurns |" in md and "](lengths.png)" in md and "Drawishness" in md
    assert "data:image/png;base64," in (tmp_path / "report.html").read_text()
    assert (tmp_path / "lengths.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_interrupted_run_writes_what_finished(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(runner, "load", lambda *a, **k: FakeGame(sites=4, interrupt_after=25))
    code = main(["run", "game.lud", "-n", "80", "--jobs", "1", "--out", str(tmp_path)])
    assert code == EXIT_INTERRUPTED
    assert len(pd.read_csv(tmp_path / "playouts.csv")) == 25
    assert "kept the 25 playouts" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--ruleset", "X", "--all-rulesets"], "exclude each other"),
    (["-n", "0"], "-n must be positive"),
    (["--seed", "-1"], "--seed must be non-negative"),
])
def test_cli_refuses_bad_arguments(argv, message, capsys):
    assert main(["run", "game.lud", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("path, ruleset, options, all_rulesets, expected", [
    ("d/adzua_children.lud", "Ruleset/Adzua (Children) (Ludii 5) (Reconstructed)", [], False,
     "reports/adzua-children-ludii-5-reconstructed"),
    ("d/adzua_children.lud", None, ["Variant/Adzua (Children) (Ludii 3)"], False,
     "reports/adzua-children-ludii-3"),
    ("d/adzua_children.lud", None, [], True, "reports/adzua-children-all-rulesets"),
    ("d/Ĉu Ŝakoj.lud", None, [], False, "reports/ĉu-ŝakoj"),      # letters of any script kept
    ("Tic-Tac-Toe.lud", None, [], False, "reports/tic-tac-toe"),
])
def test_default_out_dir(path, ruleset, options, all_rulesets, expected):
    assert str(runner.default_out_dir(path, ruleset, options, all_rulesets)) == expected


# ---------------------------------------------------------------- on the real engine

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_5 = "Adzua (Children) (Ludii 5) (Reconstructed)"


def test_adzua_one_job_equals_two_jobs_whether_loaded_with_a_source_or_not():
    from ludeme.api import load as api_load
    with_source = runner.load(ADZUA, ruleset=ADZUA_5)
    one = run_playouts(with_source, 60, seed=11, jobs=1)
    two = run_playouts(with_source, 60, seed=11, jobs=2)
    pickled = run_playouts(api_load(ADZUA, ruleset=ADZUA_5), 60, seed=11, jobs=2)
    pd.testing.assert_frame_equal(without_timing(one), without_timing(two))
    pd.testing.assert_frame_equal(without_timing(one), without_timing(pickled))
    assert set(one["end_type"]) == {"NaturalEnd"} and set(one["winner"]) == {1, 2}
    assert (one["moves"] >= one["turns"]).all() and (one["board_coverage"] > 0).all()


def test_cli_run_on_adzua(tmp_path, capsys):
    # the reference engine named: with the JIT off (the default suite), `auto` says once
    # per process that it plays there, which would depend on the tests run before
    code = main(["run", str(ADZUA), "--ruleset", ADZUA_5, "-n", "40", "--seed", "2",
                 "--jobs", "1", "--backend", "reference", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""                            # no progress bar off a terminal
    assert "40 playouts" in out and "Ludii 5" in out
    df = pd.read_parquet(tmp_path / "playouts.parquet")
    assert len(df) == 40 and set(df["ruleset"]) == {"Ruleset/" + ADZUA_5}
    assert df["options"].iloc[0] == "Variant/Adzua (Children) (Ludii 5)"


@pytest.mark.parametrize("k", [1, 5, 10])
def test_the_benchmark_finds_ludiis_figures_for_each_ruleset(k, refdata):
    from ludeme.bench import reference_slug
    game = runner.load(ADZUA, ruleset=f"Adzua (Children) (Ludii {k}) (Reconstructed)")
    assert reference_slug(game, ADZUA, refdata) == f"adzua-children-ludii-{k}"


def test_the_playout_benchmark_prints_a_ratio_per_ruleset(refdata, capsys):
    from ludeme.bench import main as bench_main
    assert bench_main(["playouts", str(ADZUA), "--seconds", "0.1", "--jobs", "1"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "(Ludii " in line]
    assert len(lines) == 10
    # Each line ends with Ludii's warmed rate (speed.tsv), the ratio, the all-cores rate.
    assert all(float(line.split()[-2]) > 0 for line in lines), "\n".join(lines)


def test_the_speed_target_is_every_configuration_of_speed_md(refdata):
    from ludeme.bench import _configurations, target_configs, warmed_ludii
    configs = target_configs(refdata)
    # Every configuration Ludii's SPEED.md times, each with its own figure there.
    assert sorted(c.slug for c in configs) == sorted(warmed_ludii(refdata))
    seesaw = next(c for c in configs if c.slug == "seesaw-5")
    assert seesaw.run_args == [str(seesaw.path), "--option", "Board Size/5"]
    only = _configurations([], True, refdata, ["konane-8x8", "hex"])
    assert sorted(c.slug for c in only) == ["hex", "konane-8x8"]


def test_the_speed_target_says_when_it_has_nothing_to_time(refdata, tmp_path):
    from ludeme.bench import _configurations
    # Without the reference data (a checkout with no ../shared beside it), or with a name
    # that is no configuration, the benchmark says so instead of printing an empty table.
    with pytest.raises(SystemExit, match="no speed targets: .*configs.json"):
        _configurations([], True, tmp_path / "refdata")
    with pytest.raises(SystemExit, match="no configuration is named hexx: .*hex"):
        _configurations([], True, refdata, ["hexx"])


def test_the_end_to_end_benchmark_sizes_its_runs_and_states_the_median(refdata, capsys):
    from ludeme.bench import main as bench_main
    # (runs of about half a second of CPU, under the 10,000 playouts of a partitioned run,
    # which a second's worth of tic-tac-toe passes; at 0.2 s the start-up's noise, with the
    # other test worker beside it, can outweigh the difference between the two run sizes)
    assert bench_main(["playouts", "--targets", "--end-to-end", "--seconds", "0.5",
                       "--backend", "reference", "--only", "tic-tac-toe", "--repeat", "2"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("tic-tac-toe"))
    _, backend, n1, n2, *_ = row.split()
    assert backend == "reference" and int(n2) == 3 * int(n1) >= 60
    assert row.endswith("over 2)")          # the median of two pairs, and their range
    # The closing line: the ratio's median, or, when the machine's noise made the larger run
    # no dearer than the smaller (a busy test worker beside it), that it has no rate.
    assert ("1 configurations beside Ludii's warmed rate: median ratio" in out
            or "1 configurations without a rate: the larger run took no more CPU" in out), out


def test_the_end_to_end_benchmark_refuses_no_pair_of_runs(capsys):
    from ludeme.bench import main as bench_main
    with pytest.raises(SystemExit):
        bench_main(["playouts", "--end-to-end", "--repeat", "0"])
    assert "--repeat must be at least 1" in capsys.readouterr().err


def test_no_ludii_figure_for_a_configuration_ludii_was_not_run_on(refdata, tmp_path):
    from ludeme.bench import reference_slug
    lud = tmp_path / "adzua.lud"
    # The same game with a second option category whose non-default item Ludii never ran.
    text = ADZUA.read_text()
    lud.write_text(text + '\n(option "Extra" <Extra> args:{ <x> } { (item "A" <1> "a")* '
                   '(item "B" <2> "b") })\n')
    game = runner.load(lud, options=["Variant/Adzua (Children) (Ludii 5)", "Extra/B"])
    assert reference_slug(game, lud, refdata) is None
    game = runner.load(lud, options=["Variant/Adzua (Children) (Ludii 5)"])
    assert reference_slug(game, lud, refdata) == "adzua-children-ludii-5"


@pytest.mark.parametrize("call, error, words", [
    (lambda g: run_playouts(g, 0, 1), ValueError, "n must be a positive integer"),
    (lambda g: run_playouts(g, 2.0, 1), ValueError, "n must be a positive integer"),
    (lambda g: run_playouts(g, 2, "abc"), TypeError, "a seed must be an integer, not str"),
    (lambda g: run_playouts(g, 2, 1.5), TypeError, "a seed must be an integer, not float"),
    (lambda g: run_playouts(g, 2, -1), ValueError, "a seed must be >= 0"),
    (lambda g: runner.load(ADZUA, options="Variant/X"), TypeError, "not the string"),
    (lambda g: runner.load(ADZUA, options=[1]), TypeError, "'Category/Item' strings, not 1"),
    (lambda g: runner.load(ADZUA, max_turns=0), ValueError, "max_turns must be a positive"),
    (lambda g: runner.load(ADZUA, ruleset=5), TypeError, "ruleset must be a string"),
])
def test_the_python_api_checks_its_arguments(call, error, words):
    with pytest.raises(error, match=words):
        call(FakeGame(sites=3))


def test_ludeme_api_is_reachable_from_the_package():
    import ludeme
    assert ludeme.api.load is ludeme.load


CHECKING = """(game "Check" (players 2)
  (equipment {(board (square 4))
    (piece "King" Each (move Step (to if:(not (is Friend (who at:(to)))) (apply (remove (to))))))
    (piece "Rook" Each (move Slide (to if:(is Enemy (who at:(to))) (apply (remove (to))))))})
  (rules (start {(place "King1" 0) (place "Rook1" 1) (place "King2" 15) (place "Rook2" 14)})
    (play (do (forEach Piece) ifAfterwards:(not (is Threatened (id "King" Mover)))))
    (end (if (no Moves Next) (result Mover Win)))))
"""


def test_rules_that_look_for_threats_give_the_same_rows_in_worker_processes(tmp_path):
    """A threat search inside the moves it searches ((is Threatened ...) after each move,
    the enemy's moves tested the same way) stops at the second level (Ludii's autoFail).
    Worker processes unpickle the rules' closures by value: the flag they share must be
    the module's, or each level searches again until the recursion limit."""
    from ludeme.api import load
    path = tmp_path / "check.lud"
    path.write_text(CHECKING)
    game = load(path, backend="reference", max_turns=20)
    one = run_playouts(game, 8, seed=5, jobs=1, backend="reference")
    two = run_playouts(game, 8, seed=5, jobs=2, backend="reference")
    pd.testing.assert_frame_equal(without_timing(one), without_timing(two))
