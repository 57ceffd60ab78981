"""The viewer and the play page in a real headless browser (Chromium driven by selenium):
what the page shows after each step is read back from the SVG's site attributes and
compared with the state replayed in Python; a Tic-Tac-Toe game is played by clicking to
its end; report.html shows the board, the concepts, people's numbers, readable plots
and sample games whose pages step through them.

Chromium comes from the system's packages: where it is missing, a test run as root with
apt-get installs it (`chromium`, `chromium-driver`, as CI's fresh machines need), and
otherwise the tests skip, saying so.
"""

import os
import shutil
import subprocess
import threading

import pytest

from conftest import DESCRIPTIONS, ludii_dir
from ludeme.ai.agents import RandomAgent
from ludeme.analysis.conformance import random_playout
from ludeme.api import load
from ludeme.cli.main import main
from ludeme.analysis.viewer import playout_page, result_text
from ludeme.interfaces.webplay import PlaySession, make_server, serve

ADZUA = DESCRIPTIONS / "adzua_children.lud"
ADZUA_5 = "Adzua (Children) (Ludii 5) (Reconstructed)"
SEESAW = DESCRIPTIONS / "seesaw.lud"
WAIT = 10.0      # seconds a page may take to answer a click (a bound, not a timing test)


def _browser_paths():
    names = ("chromium", "chromium-browser", "google-chrome")
    browser = next((shutil.which(n) for n in names if shutil.which(n)), None)
    return browser, shutil.which("chromedriver")


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium under selenium, installed from apt where missing and allowed."""
    webdriver = pytest.importorskip("selenium.webdriver", reason=
                                    "selenium is not installed (pip install -e '.[test]')")
    binary, driver = _browser_paths()
    if binary is None or driver is None:
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            pytest.skip("Chromium and chromedriver not found, and this is not root with "
                        "apt-get to install them (apt-get install chromium chromium-driver)")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (["apt-get", "update", "-q"],
                    ["apt-get", "install", "-y", "-q", "chromium", "chromium-driver"]):
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
            if r.returncode:
                pytest.skip(f"could not install Chromium ({' '.join(cmd)}): {r.stderr[-300:]}")
        binary, driver = _browser_paths()
        if binary is None or driver is None:
            pytest.skip("apt-get installed chromium, but its binary or chromedriver is missing")
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,900"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver), options=options)
    yield d
    d.quit()


SHOWN = """
const out = {};
for (const g of document.querySelectorAll('#board svg g.site')) {
  const h = +g.getAttribute('data-height');
  if (h) out[g.getAttribute('data-site')] = [+g.getAttribute('data-who'),
      +g.getAttribute('data-what'), h, g.getAttribute('data-stack') || ''];
}
return [out, document.getElementById('step').textContent,
        [...document.querySelectorAll('g.site[data-captured]')].map(g => +g.dataset.site),
        document.getElementById('result').textContent,
        document.getElementById('hands').textContent];
"""


def expected(state) -> dict:
    """Per occupied board site: who and what on top, the height, the stack when taller."""
    out = {}
    for site in range(state.g.containers[0].num_sites):
        h = state.size_stack(site)
        if h:
            what, who = state.level_data(site)[:2]
            stack = " ".join(f"{lv[1]}:{lv[0]}" for lv in state.stack(site)) if h > 1 else ""
            out[str(site)] = [who, what, h, stack]
    return out


def hands_text(state) -> str:
    """The hands and scores as the page words them."""
    g = state.g
    parts = []
    for c, counts in zip(g.containers[1:], state.hand_counts()):
        kept = [f"{k} {g.components[state.what[c.sites_from + i]].name}"
                for i, k in enumerate(counts) if k]
        if kept:
            parts.append(f"hand of P{c.owner}: " + ", ".join(kept))
    if g.uses_score:
        parts.append("scores: " + ", ".join(f"P{p} {v}" for p, v in enumerate(state.scores[1:], 1)))
    return "; ".join(parts)


def held(state) -> dict:
    """Per (site, player), the pieces there (every level of a stack); per player, in all."""
    at, total = {}, {}
    for site in range(state.g.containers[0].num_sites):
        for lv in state.stack(site):
            at[site, lv[1]] = at.get((site, lv[1]), 0) + 1
            total[lv[1]] = total.get(lv[1], 0) + 1
    for c, counts in zip(state.g.containers[1:], state.hand_counts()):
        total[c.owner] = total.get(c.owner, 0) + sum(counts)
    return at, total


def wait_for(d, condition):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(d, WAIT).until(lambda _: condition())


@pytest.mark.parametrize("path, ruleset, seed, limit", [
    (ADZUA, ADZUA_5, 3, None),
    (SEESAW, None, 2, 30),
], ids=["adzua", "seesaw"])
def test_stepping_through_a_playout_shows_each_state(browser, tmp_path, path, ruleset, seed,
                                                      limit):
    from selenium.webdriver.common.keys import Keys
    game = load(path, ruleset=ruleset, backend="reference")
    html, final = playout_page(game, seed, max_decisions=limit)
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri())
    _, choices = random_playout(game, seed, limit)
    state = game.new_initial_state(seed)
    body = browser.find_element("tag name", "body")
    captures = lost = 0
    for k in range(len(choices) + 1):
        if k:
            at, total = held(state)
            move = state.legal_moves()[choices[k - 1]]
            state.apply(move)
            at_now, total_now = held(state)
            losers = {p for p in total if total_now.get(p, 0) < total[p]}
            lost += bool(losers)
            # the controls in turn: the button, the right arrow key
            if k % 2:
                browser.find_element("id", "next").click()
            else:
                body.send_keys(Keys.ARROW_RIGHT)
        shown, step, captured, result, hands = browser.execute_script(SHOWN)
        assert step == f"move {k} of {len(choices)}"
        assert hands == hands_text(state)
        assert shown == expected(state), f"step {k}"
        # the sites marked as captures: where a player who lost pieces lost them
        assert sorted(captured) == sorted({site for (site, p), n in at.items() if p in losers
                                          and at_now.get((site, p), 0) < n
                                          and (site != move.frm or move.frm == move.to)}
                                         if k else [])
        captures += len(captured)
        assert bool(result) == (k == len(choices) and final.is_terminal())
    # Home, End and the slider reach the first and last steps
    body.send_keys(Keys.HOME)
    assert browser.execute_script(SHOWN)[0] == expected(game.new_initial_state(seed))
    body.send_keys(Keys.END)
    assert browser.execute_script(SHOWN)[0] == expected(state)
    browser.execute_script("const s = document.getElementById('slider'); s.value = 1; "
                           "s.dispatchEvent(new Event('input'));")
    assert browser.execute_script(SHOWN)[1] == f"move 1 of {len(choices)}"
    # play from the last step starts again from the first; a second press pauses
    browser.execute_script("document.getElementById('last').click(); "
                           "document.getElementById('play').click();")
    assert browser.find_element("id", "play").text == "pause"
    assert browser.execute_script(SHOWN)[1] != f"move {len(choices)} of {len(choices)}"
    browser.find_element("id", "play").click()
    assert browser.find_element("id", "play").text == "play"
    assert (captures > 0) == (lost > 0)
    if path == SEESAW:
        assert any(h > 1 for *_, h, _ in expected(state).values())


def test_playing_tic_tac_toe_by_clicking(browser, served):
    d = ludii_dir()
    if d is None or not (d / "games" / "Tic-Tac-Toe.lud").exists():
        pytest.skip("Ludii's Tic-Tac-Toe.lud not found: put shared/ beside the checkout")
    game = load(d / "games" / "Tic-Tac-Toe.lud", backend="reference")
    session = PlaySession(game, 1, RandomAgent(), seed=3)
    url, thread = served(session)
    browser.get(url)
    steps = lambda: browser.execute_script(SHOWN)[1]      # noqa: E731
    wait_for(browser, lambda: browser.find_elements("css selector", "g.site.clickable"))
    # a move, then undo: back to the empty board
    browser.find_elements("css selector", "g.site.clickable")[0].click()
    wait_for(browser, lambda: steps() == "move 2 of 2")
    browser.find_element("id", "undo").click()
    wait_for(browser, lambda: steps() == "move 0 of 0")
    assert browser.execute_script(SHOWN)[0] == {}
    clicks = 0
    while not session.state.is_terminal():
        sites = browser.find_elements("css selector", "g.site.clickable")
        assert sites and all(g.get_attribute("data-height") == "0" for g in sites)
        before = steps()
        sites[-1].click()
        clicks += 1
        wait_for(browser, lambda: steps() != before)
        assert browser.execute_script(SHOWN)[0] == expected(session.state)
    result = browser.find_element("id", "result").text
    assert clicks >= 3 and result == "Result: " + result_text(session.state)
    assert browser.find_elements("css selector", "g.site.clickable") == []
    browser.find_element("id", "quit").click()      # the page stops the server
    wait_for(browser, lambda: "stopped" in browser.find_element("id", "status").text)
    thread.join(WAIT)
    assert not thread.is_alive()


@pytest.fixture
def served():
    """Serve a play session in a thread; stop it after the test."""
    started = []

    def start(session):
        server = make_server(session, 0)
        thread = threading.Thread(target=serve, args=(server, 60.0), daemon=True)
        thread.start()
        started.append((server, thread))
        return f"http://127.0.0.1:{server.server_address[1]}/", thread
    yield start
    for server, thread in started:
        server.quit = True
        thread.join(10)


def test_moving_pieces_by_clicking_from_then_to(browser, served):
    # Adzua (Ludii 5): placements from the hand, removals, then steps from a site to another
    game = load(ADZUA, ruleset=ADZUA_5, backend="reference")
    session = PlaySession(game, 2, RandomAgent(), seed=4)
    browser.get(served(session)[0])
    steps = lambda: browser.execute_script(SHOWN)[1]      # noqa: E731
    site = lambda i: browser.find_element("css selector", f'g.site[data-site="{i}"]')  # noqa
    kinds = set()
    for _ in range(30):
        if session.state.is_terminal():
            break
        wait_for(browser, lambda: browser.find_elements("css selector", "button.legal-move"))
        before = steps()
        legal = session.legal()
        walks = [m for m in legal if m["f"] >= 0 and m["t"] >= 0]
        if walks:
            m = walks[-1]
            # the from sites are the ones offered first
            offered = {int(g.get_attribute("data-site")) for g in
                       browser.find_elements("css selector", "g.site.clickable")}
            assert m["f"] in offered
            site(m["f"]).click()
            wait_for(browser, lambda: "where it goes" in browser.find_element("id", "legal").text)
            site(m["t"]).click()
            kinds.add("step")
        elif any(m["t"] >= 0 for m in legal):
            site(next(m["t"] for m in legal if m["t"] >= 0)).click()
            kinds.add("place")
        else:
            browser.find_element("css selector", "button.legal-move").click()
            kinds.add("pass")
        wait_for(browser, lambda: steps() != before)
        assert browser.execute_script(SHOWN)[0] == expected(session.state)
    assert {"step", "place"} <= kinds


TWO_KINDS = """(game "Two Kinds" (players 2)
  (equipment {(board (square 2)) (piece "Disc" Each) (piece "Square" Each)})
  (rules (play (or (move Add (piece (id "Disc" Mover)) (to (sites Empty)))
                   (move Add (piece (id "Square" Mover)) (to (sites Empty)))))
         (end (if (is Full) (result Mover Draw)))))"""


def test_choosing_the_piece_when_two_can_go_to_one_site(browser, served, tmp_path):
    lud = tmp_path / "two.lud"
    lud.write_text(TWO_KINDS)
    session = PlaySession(load(lud, backend="reference"), 1, RandomAgent())
    browser.get(served(session)[0])
    wait_for(browser, lambda: len(browser.find_elements("css selector", "button.legal-move")) == 8)
    browser.find_element("css selector", 'g.site[data-site="2"]').click()
    buttons = lambda: [b.text for b in browser.find_elements("css selector",  # noqa: E731
                                                             "button.legal-move")]
    wait_for(browser, lambda: len(buttons()) == 2)
    assert buttons() == ["place A2 (Disc1)", "place A2 (Square1)"]
    browser.find_elements("css selector", "button.legal-move")[1].click()
    wait_for(browser, lambda: browser.execute_script(SHOWN)[1] == "move 2 of 2")
    square = session.game.component_named("Square1").index
    assert browser.execute_script(SHOWN)[0]["2"][:2] == [1, square]


REPORT = """
const top = document.querySelector('.top .board svg'), table = document.querySelector('table');
const cells = [...table.querySelectorAll('tbody td')].map(td => td.textContent);
return {
  board: top ? [top.getBoundingClientRect().top < table.getBoundingClientRect().top,
                top.querySelectorAll('g.site').length] : null,
  concepts: [...document.querySelectorAll('.concepts')].map(p => p.textContent),
  headRows: table.querySelectorAll('thead tr').length,
  rows: [...table.querySelectorAll('tbody tr')].map(tr => tr.querySelector('th').textContent),
  cells: cells,
  plots: [...document.querySelectorAll('img.plot')].map(i => [i.naturalWidth, i.clientWidth]),
  links: [...document.querySelectorAll('a.sample')].map(a => [a.href, a.textContent]),
  frames: [...document.querySelectorAll('iframe.sample')].map(f => f.src),
};
"""


def test_report_html_renders_with_its_plots(browser, tmp_path):
    import re
    out = tmp_path / "run"
    assert main(["run", str(ADZUA), "--ruleset", ADZUA_5, "-n", "20", "--seed", "1", "--jobs",
                 "1", "--no-progress", "--backend", "reference", "--out", str(out)]) == 0
    browser.get((out / "report.html").as_uri())
    got = browser.execute_script(REPORT)
    assert got["board"] is not None and got["board"][0] and got["board"][1] == 9   # on top
    assert len(got["concepts"]) == 1 and "board: " in got["concepts"][0] \
        and "SquareTiling" in got["concepts"][0]
    assert got["headRows"] == 1 and got["rows"][0] == "n"     # no empty index-name row
    number = r"-?\d[\d,]*(\.\d+)?|n/a"
    assert got["cells"][0] == "20"
    for cell in got["cells"]:
        assert re.fullmatch(rf"({number})( \(({number})–({number})\))?", cell), cell
    assert len(got["plots"]) == 2 and all(n >= 700 and w >= 600 for n, w in got["plots"])
    # the sample games: links to viewer pages that step through the game they name
    assert len(got["links"]) >= 2 and got["frames"] == [got["links"][0][0]]
    for href, text in got["links"]:
        moves = int(re.search(r"(\d+) moves", text).group(1))
        browser.get(href)
        shown = browser.execute_script(SHOWN)
        assert shown[1] == f"move 0 of {moves}"
        browser.find_element("id", "last").click()
        assert browser.execute_script(SHOWN)[3].startswith("Result: ")
    browser.get((out / "report.html").as_uri())
    shot = tmp_path / "report.png"
    assert browser.save_screenshot(str(shot))
    from PIL import Image
    with Image.open(shot) as im:
        colours = im.convert("RGB").getcolors(1 << 20)
    assert colours is not None and len(colours) > 50        # not a blank page
