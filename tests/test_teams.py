"""Team games of Ludii's corpus: every member of the winning team is credited with the win,
in the rows (utility 1, rank 1) and the summary's win shares."""

import pytest

from ludeme.analysis.metrics import summarize
from ludeme.analysis.playouts import run_playouts
from ludeme.api import load

# (corpus file, its teams as its start rules set them)
TEAM_GAMES = [
    ("board/war/replacement/eliminate/all/Sig (Western Sahara).lud", [{1, 3}, {2, 4}]),
    ("board/race/reach/Zohn Ahl.lud", [{1, 2}, {3, 4}]),
    ("board/war/replacement/eliminate/all/A K'aak'il.lud", [{1, 2, 3}, {4, 5, 6}]),
]


@pytest.mark.parametrize("path, teams", TEAM_GAMES)
def test_every_member_of_the_winning_team_is_credited(ludii, path, teams):
    game = load(ludii / "corpus" / path, backend="reference")
    df = run_playouts(game, 12, seed=3, jobs=1, backend="reference")
    won = df[df["winner"] != 0]
    assert len(won) >= 6, "most playouts end with a winner"
    for _, row in won.iterrows():
        team = next(t for t in teams if row["winner"] in t)
        credited = {p for p in range(1, game.num_players + 1) if row[f"utility_p{p}"] == 1.0}
        assert credited == team, (row["winner"], credited)
    summary = summarize(df).iloc[0]
    for team in teams:
        shares = {summary[f"win_share_p{p}"] for p in team}
        assert len(shares) == 1             # the members share every win
    assert sum(summary[f"win_share_p{min(t)}"] for t in teams) == pytest.approx(
        summary["Completion"])
