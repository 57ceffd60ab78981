"""Ludii's eleven aggregates of a trial's list (MultiMetricFramework, 1.3.12's quirks), worked
out by hand, and the six multi-metric series read from playouts."""

import pytest

from ludeme.engine.figures import AGGREGATES, aggregate_name, aggregates, series_columns

A = ("Average", "Median", "Maximum", "Minimum", "Variance", "ChangeAverage", "ChangeSign",
     "ChangeLineBestFit", "ChangeNumTimes", "MaxIncrease", "MaxDecrease")


@pytest.mark.parametrize("values, expected", [
    ([], (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
    ([5.0], (5, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0)),                 # median 0 when len <= 1
    ([-2.0], (-2, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0)),              # max and min start at 0
    ([1, 3], (2, 3, 3, 0, 1, 2, 1, 2, 1, 2, 0)),                # ChangeNumTimes only at len 2
    ([3.0, 3.0], (3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0)),
    # steps +2, -3, +4: mean 2, upper median 3, population variance 10/4, slope 3/5
    ([1.0, 3.0, 0.0, 4.0], (2, 3, 4, 0, 2.5, 1, 1 / 3, 0.6, 0, 4, -3)),
    ([4.0, 2.0, 1.0], (7 / 3, 2, 4, 0, 14 / 9, -1.5, -1, -1.5, 0, 0, -2)),
])
def test_aggregates_of_a_known_list(values, expected):
    got = aggregates(values)
    assert tuple(got) == AGGREGATES == A
    assert all(type(v) is float for v in got.values())      # one dtype per column
    for name, want in zip(A, expected):
        assert got[name] == pytest.approx(want), name


def test_names_are_ludiis_concepts():
    assert aggregate_name("PieceNumber", "Median") == "PieceNumberMedian"
    assert aggregate_name("BranchingFactor", "ChangeNumTimes") == "BranchingFactorChangeNumTimesn"
    assert aggregate_name("BranchingFactor", "MaxDecrease") == "BranchingFactorChangeMaxDecrease"
    names = {m for m, _ in series_columns().values()}
    assert len(names) == 6 * 11 - 4        # four Averages were there before


def test_series_are_those_of_every_state(ludii):
    """A playout's aggregates equal those of its lists gathered the obvious way."""
    import random

    from ludeme.analysis.playouts import load, play_one
    game = load(ludii / "games" / "Tic-Tac-Toe.lud", backend="reference")
    for seed in range(3):
        row = play_one(game, seed)
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        pieces, legal = [], []
        while True:
            pieces.append(state.board_occupancy()[1])
            if state.is_terminal():
                break
            moves = state.legal_moves()
            legal.append(len(moves))
            state.apply(moves[rng.randrange(len(moves))])
        for name, v in aggregates(pieces).items():
            if name != "Average":
                assert row[f"piece_number_{name[0].lower()}" + "".join(
                    "_" + c.lower() if c.isupper() else c for c in name[1:])] == pytest.approx(v)
        assert row["branching_factor_median"] == aggregates(legal)["Median"]
        assert row["move_distance_average"] == 0.0          # placements only


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_tic_tac_toe_repeats_a_position_exactly_when_drawn(ludii, backend):
    """A draw fills the board, then both players pass: the position repeats, the situation
    (the mover) does not. A win never repeats."""
    from ludeme.analysis.playouts import load, run_playouts
    game = load(ludii / "games" / "Tic-Tac-Toe.lud", backend=backend)
    df = run_playouts(game, 60, seed=1, jobs=1, progress=False, backend=backend)
    assert (df["positional_repetition"] == (df["winner"] == 0)).all()
    assert 0 < df["positional_repetition"].sum() < 60
    assert (df["situational_repetition"] == 0).all()


def test_every_summary_column_has_a_definition():
    """The definitions table the summary writes covers every column it has: Ludii's
    metrics, the aggregates of each series, n, the rate and the win shares."""
    from test_metrics import WIN1, WIN2, table

    from ludeme.analysis.metrics import SUMMARY_KEYS, summarize
    from ludeme.analysis.report import defined
    s = summarize(table([WIN1, WIN2, WIN1]))
    columns = [c for c in s.columns if c not in (*SUMMARY_KEYS, "players")
               and not c.endswith(("_ci_low", "_ci_high"))]
    assert "PieceNumberMedian" in columns and "win_share_p2" in columns
    assert [c for c in columns if not defined(c)] == []
    assert not defined("NoSuchMetric")


def test_board_coverage_full_divides_by_every_element(ludii):
    """Tic-Tac-Toe's 9 cells, 16 vertices and 24 edges: Full is Default x 9 / 49."""
    from ludeme.analysis.playouts import load, play_one
    game = load(ludii / "games" / "Tic-Tac-Toe.lud", backend="reference")
    assert game.board.num_elements() == 49
    for seed in range(3):
        row = play_one(game, seed)
        assert row["board_coverage_full"] == pytest.approx(row["board_coverage"] * 9 / 49)


def test_a_run_records_what_makes_it_citable(ludii, tmp_path):
    from ludeme.analysis.playouts import run_and_write
    r = run_and_write(str(ludii / "games" / "Tic-Tac-Toe.lud"), tmp_path / "out", n=4, seed=5,
                      jobs=1, progress=False, backend="reference", command="ludeme run ttt -n 4")
    text = (tmp_path / "out" / "summary.md").read_text()
    for line in ("- command: ludeme run ttt -n 4", "- backend: reference: 4 playouts",
                 "- interrupted: no", "- seeds: run seed 5; playout i's seed is"):
        assert line in text, line
    assert "- ludeme version: " in text and not r.interrupted
    assert "ludeme run ttt -n 4" in (tmp_path / "out" / "report.html").read_text()


def test_a_two_player_configuration_shows_no_row_for_players_it_has_not():
    """A run mixing 2- and 3-player rulesets: the 2-player one's win_share_p3 cell is
    empty, not NaN."""
    from test_metrics import WIN1, WIN2, table

    import pandas as pd
    from ludeme.analysis.metrics import summarize
    from ludeme.analysis.report import metrics_table
    three = table([(1, "NaturalEnd", 1.0, 2.0, 3.0), (3, "NaturalEnd", 3.0, 2.0, 1.0)],
                  players=3)
    three["ruleset"] = "Three"
    t = metrics_table(summarize(pd.concat([table([WIN1, WIN2]), three], ignore_index=True)))
    two, other = t.columns
    assert t.loc["win_share_p3", two] == "" and t.loc["win_share_p3", other].startswith("0.5")
    assert not any("NaN" in cell for cell in t[two])


def test_every_member_of_the_winning_team_gets_its_win():
    """Four players in two teams (1 and 3, 2 and 4): a team win ranks both members first;
    `winner` names one of them, the win shares count both."""
    from test_metrics import table

    from ludeme.analysis.metrics import summarize
    team13 = (1, "NaturalEnd", 1.0, 3.5, 1.0, 3.5)
    team24 = (2, "NaturalEnd", 3.5, 1.0, 3.5, 1.0)
    s = summarize(table([team13, team13, team24, team13], players=4)).iloc[0]
    assert [s[f"win_share_p{p}"] for p in (1, 2, 3, 4)] == [0.75, 0.25, 0.75, 0.25]


def test_a_share_whose_trials_all_agree_has_wilsons_interval():
    from ludeme.analysis.metrics import mean_t, wilson
    from ludeme.engine.figures import SHARE
    assert mean_t([1.0] * 200, SHARE) == wilson(200, 200)
    assert mean_t([0.0] * 50, SHARE) == wilson(0, 50)
    assert mean_t([0.5] * 50, SHARE) == (0.5, 0.5, 0.5)     # not a share of trials
    assert mean_t([1.0] * 50) == (1.0, 1.0, 1.0)            # not a share at all


def test_a_run_of_a_two_player_and_a_partnership_ruleset(tmp_path):
    """A real run of two rulesets of Lines of Action, the standard one (2 players) and the
    partnership one (4 players, teams 1 and 3 against 2 and 4): the 2-player row has no
    figures for players 3 and 4 in the summary, and each win credits both members of the
    winning team, so teammates' win shares are equal and the teams' add up to the games won."""
    import pandas as pd
    from conftest import DESCRIPTIONS
    from ludeme.analysis.playouts import run_and_write
    two, team = "Ruleset/Lines of Action", "Ruleset/Two Piece Types (Partnership)"
    run_and_write(str(DESCRIPTIONS / "lines_of_action.lud"), tmp_path / "out",
                  rulesets=(two, team), n=6, seed=2, jobs=1, progress=False,
                  backend="reference")
    s = pd.read_csv(tmp_path / "out" / "summary.csv").set_index("ruleset")
    assert s.loc[two, "players"] == 2 and s.loc[team, "players"] == 4
    assert s.loc[[two], ["win_share_p3", "win_share_p4"]].isna().all().all()
    shares = s.loc[team, [f"win_share_p{p}" for p in (1, 2, 3, 4)]].tolist()
    assert shares[0] == shares[2] and shares[1] == shares[3]
    assert shares[0] + shares[1] == pytest.approx(s.loc[team, "Completion"])
    assert s.loc[team, "Completion"] > 0
    assert "NaN" not in (tmp_path / "out" / "summary.md").read_text()
