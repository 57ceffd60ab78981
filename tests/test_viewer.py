"""`ludeme view`: the playout page's data against the replayed states, rows of a run folder,
the play session and its server, and the command's errors (the browser tests are in
test_viewer_browser.py)."""

import json
import shutil
import threading
import urllib.error
import urllib.request

import pytest

from conftest import DESCRIPTIONS, ludii_dir
from ludeme.ai.agents import RandomAgent, UCTAgent
from ludeme.analysis.conformance import random_playout, seeded_playout
from ludeme.analysis.playouts import play_one, playout_seed
from ludeme.api import load
from ludeme.cli.main import main
from ludeme.errors import LudemeError
from ludeme.analysis.viewer import (captured_sites, game_title, pieces_per_site, playout_page,
                                      read_run_row, row_page, snapshot)
from ludeme.interfaces.webplay import PlaySession, make_server, serve

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_5 = "Adzua (Children) (Ludii 5) (Reconstructed)"
SEESAW = DESCRIPTIONS / "seesaw.lud"


def page_steps(html: str) -> dict:
    """The JSON the page embeds."""
    start = html.index('<script type="application/json" id="data">') + 42
    return json.loads(html[start:html.index("</script>", start)].replace("<\\/", "</"))


@pytest.fixture(scope="module")
def adzua():
    return load(ADZUA, ruleset=ADZUA_5, backend="reference")


@pytest.fixture(scope="module")
def seesaw():
    return load(SEESAW, backend="reference")


def test_seeded_playout_is_the_row_play_one_plays(adzua):
    for index in range(4):
        seed = playout_seed(7, index)
        row = play_one(adzua, seed, index)
        final, choices = random_playout(adzua, seed)
        assert (final.winner or 0, final.end_type, final.num_turn, final.num_decisions) == \
            (row["winner"], row["end_type"], row["turns"], row["moves"])
        agents = [UCTAgent(iterations=20), RandomAgent()]
        row = play_one(adzua, seed, index, agents)
        final, _ = seeded_playout(adzua, seed, agents)
        assert (final.winner or 0, final.num_decisions) == (row["winner"], row["moves"])


@pytest.mark.parametrize("which, seed", [("adzua", 3), ("seesaw", 2)])
def test_every_step_of_the_page_is_the_replayed_state(which, seed, request):
    game = request.getfixturevalue(which)
    html, final = playout_page(game, seed, max_decisions=40)
    data = page_steps(html)
    state, choices = random_playout(game, seed, 40)
    assert len(data["steps"]) == len(choices) + 1
    state = game.new_initial_state(seed)
    held_before = None
    for k, step in enumerate(data["steps"]):
        if k:
            move = state.legal_moves()[choices[k - 1]]
            state.apply(move)
            assert step["mv"]["p"] == move.mover and step["mv"]["t"] == move.to
        assert step["s"] == json.loads(json.dumps(snapshot(state)))
        # every site's height on the page is the state's
        shown = {site: height for site, _, _, height, _ in step["s"]["b"]}
        assert shown == {i: state.size_stack(i) for i in range(game.containers[0].num_sites)
                         if state.size_stack(i)}
        held = pieces_per_site(state)
        if k and step["mv"]["x"]:        # a capture: the site lost pieces of a player
            assert any(sum(held_before[x].values()) > sum(held[x].values())
                       or held_before[x] != held[x] for x in step["mv"]["x"])
        held_before = held
    assert data["result"] and data["title"].startswith(game.name)


@pytest.mark.parametrize("before, after, lost, origin, expected", [
    ([{1: 1}, {2: 1}, {}], [{}, {}, {1: 1}], {2}, 0, [1]),          # a jump over site 1
    ([{1: 1}, {2: 2}, {}], [{1: 1}, {2: 1}, {}], {2}, -1, [1]),     # one of a stack removed
    ([{2: 1}, {}, {}], [{}, {}, {2: 1}], set(), 0, []),             # a move: nobody lost
    ([{3: 4}, {3: 1}], [{}, {3: 2}], {3}, 0, []),                   # pieces moved off the origin
    ([{3: 4}, {3: 1}], [{}, {3: 2}], {3}, -1, [0]),                 # a removal at the site
    ([{1: 2, 2: 1}], [{1: 3}], {2}, -1, [0]),                       # a stack taken over
])
def test_captured_sites(before, after, lost, origin, expected):
    assert captured_sites(before, after, lost, origin) == expected


@pytest.mark.parametrize("path, ruleset, options, title", [
    (ADZUA, ADZUA_5, (), ADZUA_5),
    (SEESAW, None, ("Board Size/5",), "Seesaw (5)"),
    (SEESAW, "Seesaw (Base 4)", (), "Seesaw (Base 4)"),
])
def test_page_titles(path, ruleset, options, title):
    assert game_title(load(path, options, ruleset, backend="reference")) == title


def test_captures_are_marked(adzua):
    # Adzua (Ludii 5) captures: some seeded playout marks one, and only where pieces went.
    marked = 0
    for seed in range(1, 6):
        data = page_steps(playout_page(adzua, seed)[0])
        for before, step in zip(data["steps"], data["steps"][1:]):
            for x in step["mv"]["x"]:
                marked += 1
                was = {s: who for s, who, *_ in before["s"]["b"]}
                now = {s: who for s, who, *_ in step["s"]["b"]}
                assert x in was and was[x] != step["mv"]["p"] and now.get(x) != was[x]
    assert marked > 0


def test_seesaw_stacks_are_in_the_page(seesaw):
    data = page_steps(playout_page(seesaw, 2, max_decisions=30)[0])
    tall = [(site, h) for st in data["steps"] for site, _, _, h, _ in st["s"]["b"] if h > 1]
    assert tall and all(str(site) in st["s"]["st"] for st in data["steps"]
                        for site, _, _, h, _ in st["s"]["b"] if h > 1)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    assert main(["run", str(ADZUA), "--ruleset", ADZUA_5, "-n", "3", "--seed", "4", "--jobs",
                 "1", "--no-progress", "--backend", "reference", "--out", str(out)]) == 0
    return out


def test_a_row_of_a_run_replays_as_recorded(run_dir, tmp_path):
    row = read_run_row(run_dir, 2)
    html, final = row_page(ADZUA, row)
    assert final.num_decisions == row["moves"] and f"seed {row['seed']}" in html
    out = tmp_path / "row.html"
    assert main(["view", str(run_dir), "--row", "2", "--lud", str(ADZUA), "--out", str(out)]) == 0
    assert page_steps(out.read_text())["steps"] == page_steps(html)["steps"]


def test_a_row_replays_from_the_description_the_run_recorded(run_dir, tmp_path, capsys):
    run = json.loads((run_dir / "run.json").read_text())
    assert run["description"] == str(ADZUA.resolve())
    assert [c["ruleset"] for c in run["configurations"]] == ["Ruleset/" + ADZUA_5]
    out = tmp_path / "row.html"
    assert main(["view", str(run_dir), "--row", "1", "--out", str(out)]) == 0
    assert page_steps(out.read_text())["steps"] == page_steps(row_page(ADZUA, read_run_row(
        run_dir, 1))[0])["steps"]
    # the recorded file gone, or no record: a clear error that asks for --lud
    moved = tmp_path / "moved"
    shutil.copytree(run_dir, moved)
    for edit, words in ((lambda r: r.update(description=str(tmp_path / "gone.lud")),
                         "which is no longer there: give --lud FILE"),
                        (None, "has no run.json")):
        if edit is None:
            (moved / "run.json").unlink()
        else:
            edit(run)
            (moved / "run.json").write_text(json.dumps(run))
        assert main(["view", str(moved), "--row", "1", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
    assert main(["view", str(moved), "--row", "1", "--lud", str(ADZUA), "--out", str(out)]) == 0


def test_rows_of_a_partitioned_run_of_several_rulesets(run_dir, tmp_path):
    # a large run keeps its rows in playouts/<configuration>/part-*.parquet
    import pandas as pd
    df = pd.read_parquet(run_dir / "playouts.parquet")
    for name, ruleset in (("a", "Ruleset/One"), ("b", "Ruleset/Two")):
        (tmp_path / "playouts" / name).mkdir(parents=True)
        df.assign(ruleset=ruleset).to_parquet(tmp_path / "playouts" / name / "part-0.parquet")
    assert read_run_row(tmp_path, 1, "Two")["ruleset"] == "Ruleset/Two"
    assert read_run_row(tmp_path, 1, "Ruleset/One")["seed"] == df["seed"][1]
    with pytest.raises(LudemeError, match="played by several configurations"):
        read_run_row(tmp_path, 1)
    with pytest.raises(LudemeError, match="no playout 1 in ruleset 'Three'"):
        read_run_row(tmp_path, 1, "Three")
    with pytest.raises(LudemeError, match="no playout with index 3 \\(indices 0 to 2\\)"):
        read_run_row(tmp_path, 3)


def test_a_row_that_does_not_replay_is_refused(run_dir):
    row = dict(read_run_row(run_dir, 0), moves=999)
    with pytest.raises(LudemeError, match="does not replay as recorded"):
        row_page(ADZUA, row)
    with pytest.raises(LudemeError, match="timed|speed"):
        row_page(ADZUA, dict(row, agent_p1="uct:seconds=1,c=1.41421,rollout=200",
                             agent_p2="random"))


@pytest.mark.parametrize("argv, words", [
    (["ADZUA", "--seed", "1"], "--out PAGE.html is needed"),
    (["ADZUA", "--out", "OUT"], "--seed S is needed"),
    (["ADZUA", "--seed", "-1", "--out", "OUT"], "--seed must be non-negative"),
    (["ADZUA", "--seed", "1", "--row", "2", "--out", "OUT"], "--row goes with a run folder"),
    (["ADZUA", "--seed", "1", "--port", "9", "--out", "OUT"], "--port goes with --play"),
    (["RUN", "--out", "OUT"], "--row K is needed"),
    (["RUN", "--row", "1", "--seed", "3", "--lud", "ADZUA", "--out", "OUT"],
     "--seed is read from the run folder"),
    (["RUN", "--row", "7", "--lud", "ADZUA", "--out", "OUT"], "no playout with index 7"),
    (["RUN", "--row", "1", "--lud", "SEESAW", "--out", "OUT"], "unknown ruleset"),
    (["TMP", "--row", "1", "--lud", "ADZUA", "--out", "OUT"], "is not a `ludeme run` folder"),
    (["ADZUA", "--seed", "1", "--out", "TMP"], "is a directory"),
    (["ADZUA", "--play", "--out", "OUT"], "--out does not go with --play"),
    (["ADZUA", "--play", "--as", "3"], "--as must be a player from 1 to 2"),
    (["ADZUA", "--play", "--port", "70000"], "--port must be from 0 to 65535"),
    (["ADZUA", "--play", "--opponent", "nobody"], "unknown agent"),
    (["RUN", "--play"], "--play needs a .lud description"),
])
def test_bad_input_is_a_clear_error(argv, words, run_dir, tmp_path, capsys):
    names = {"ADZUA": str(ADZUA), "SEESAW": str(SEESAW), "RUN": str(run_dir),
             "TMP": str(tmp_path), "OUT": str(tmp_path / "page.html")}
    assert main(["view", *(names.get(a, a) for a in argv)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not (tmp_path / "page.html").exists()


def tic_tac_toe():
    d = ludii_dir()
    if d is None or not (d / "games" / "Tic-Tac-Toe.lud").exists():
        pytest.skip("Ludii's Tic-Tac-Toe.lud not found: put shared/ beside the checkout")
    return load(d / "games" / "Tic-Tac-Toe.lud", backend="reference")


def test_play_session_moves_undo_and_the_end():
    session = PlaySession(tic_tac_toe(), 2, RandomAgent(), seed=5)
    assert len(session.steps) == 2 and session.legal()       # the agent opened as P1
    first = session.view()
    session.move(0)
    assert len(session.steps) == 4
    session.undo()
    assert session.view() == first
    with pytest.raises(ValueError):
        session.move(99)
    while session.legal():
        session.move(len(session.legal()) - 1)
    assert session.state.is_terminal() and session.view()["result"]
    assert session.legal() == []


def test_the_server_answers_and_stops():
    session = PlaySession(tic_tac_toe(), 1, RandomAgent())
    server = make_server(session, 0)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=serve, args=(server, 20.0), daemon=True)
    thread.start()
    try:
        page = urllib.request.urlopen(url + "/", timeout=10).read().decode()
        assert '"mode":"play"' in page and "<svg" in page
        state = json.loads(urllib.request.urlopen(url + "/state", timeout=10).read())
        assert len(state["legal"]) == 9 and state["steps"][0]["s"]["b"] == []
        after = json.loads(urllib.request.urlopen(url + "/move", b"4", timeout=10).read())
        assert len(after["steps"]) == 3 and after["steps"][1]["mv"]["t"] == 4
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(url + "/move", b"8", timeout=10)     # 7 moves left
        urllib.request.urlopen(url + "/quit", b"", timeout=10)
    finally:
        thread.join(10)
    assert not thread.is_alive()


def test_a_committed_row_played_by_uct_replays():
    # reports/examples/: a run of UCT against random, seats rotated, on the compiled backend
    run = DESCRIPTIONS.parent / "reports" / "examples" / "adzua-ludii-5-uct-vs-random"
    row = read_run_row(run, 1)
    assert row["agent_p2"].startswith("uct:")
    html, final = row_page(ADZUA, row)
    assert final.winner == row["winner"] and "P2 uct:iterations=100" in html


def test_the_play_command_serves_until_the_page_quits():
    import subprocess
    import sys
    d = ludii_dir()
    if d is None or not (d / "games" / "Tic-Tac-Toe.lud").exists():
        pytest.skip("Ludii's Tic-Tac-Toe.lud not found: put shared/ beside the checkout")
    proc = subprocess.Popen([sys.executable, "-m", "ludeme", "view", str(d / "games" /
                             "Tic-Tac-Toe.lud"), "--play", "--as", "2", "--port", "0"],
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert line.startswith("open http://127.0.0.1:"), line
        url = line.split()[1]
        state = json.loads(urllib.request.urlopen(url + "state", timeout=30).read())
        assert len(state["steps"]) == 2 and len(state["legal"]) == 8    # the agent opened
        urllib.request.urlopen(url + "quit", b"", timeout=30)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def test_names_cannot_break_the_page(tmp_path):
    lud = tmp_path / "odd.lud"
    lud.write_text('(game "A </script> %SCRIPT% <b>" (players 2) (equipment {(board (square 3)) '
                   '(piece "Disc" Each)}) (rules (play (move Add (to (sites Empty)))) '
                   '(end (if (is Line 3) (result Mover Win)))))')
    html, _ = playout_page(load(lud, backend="reference"), 1)
    # the name is in <title>, <h1> and the data, never replaced by the script
    assert html.count("</script>") == 2 and html.count("%SCRIPT%") == 3
    assert "<title>A &lt;/script&gt; %SCRIPT% &lt;b&gt;</title>" in html
    assert page_steps(html)["title"] == "A </script> %SCRIPT% <b>"
