"""Watching a game in a browser: a playout replayed in Python, drawn on Ludii's board picture.

`playout_page(game, seed)` replays the seeded playout (the choices of
`ludeme.analysis.conformance.seeded_playout`: uniform random, or agents drawing from the
playout's seed, as `ludeme.analysis.playouts.play_one` plays a row), records what every board site and hand
holds after each move (`snapshot`), and writes one self-contained HTML page: the board's
SVG (`ludeme.boards.render.board_svg`), the steps as JSON, and a small script that draws
the pieces and steps through the game (buttons, slider, arrow keys, Home/End). Nothing
is fetched from the network, so the page works offline and can be sent by e-mail.

The same page, in play mode, is what `ludeme.interfaces.webplay` serves for a person to
play against an agent: it then asks the server for the legal moves and sends the chosen one.
Every board site of the SVG carries what the step shows (`data-who`, `data-what`,
`data-height`, `data-count`, and `data-from`, `data-to`, `data-captured` for the move),
which is what the browser tests read back.
"""

from __future__ import annotations

import json
import re
from html import escape

from ludeme.analysis.conformance import seeded_playout
from ludeme.boards.render import PLAYER_COLOURS, board_svg
from ludeme.errors import LudemeError, printable
from ludeme.engine.state import Game, Move, State
from ludeme.engine.notation import describe_move, move_names
from ludeme.engine.picture import piece_kinds



# ---------------------------------------------------------------- what a state shows

def pieces_per_site(state: State) -> list[dict[int, int]]:
    """Per board site, the pieces it holds per player ({who: pieces}): every level of a
    stack, or the site's count."""
    g = state.g
    out = []
    for site in range(g.containers[0].num_sites):
        held: dict[int, int] = {}
        if g.stacking:
            for level in state.stack(site):
                held[level[1]] = held.get(level[1], 0) + 1
        elif state.what[site]:
            held[state.who[site]] = state.count[site]
        out.append(held)
    return out


def player_totals(state: State, per_site: list[dict[int, int]]) -> dict[int, int]:
    """Pieces per player on the board and in the hands."""
    totals: dict[int, int] = {}
    for held in per_site:
        for who, k in held.items():
            totals[who] = totals.get(who, 0) + k
    for c, counts in zip(state.g.containers[1:], state.hand_counts()):
        totals[c.owner] = totals.get(c.owner, 0) + sum(counts)
    return totals


def snapshot(state: State) -> dict:
    """What the page shows of a state, compact: the occupied board sites
    `[site, who, what, height, count]`, the stacks taller than one (`[who, what]` bottom
    first), the hands (`[owner, [[what, count], ...]]`), the scores and who moves."""
    g = state.g
    n = g.containers[0].num_sites
    board, stacks = [], {}
    for site in range(n):
        height = state.size_stack(site)
        if not height:
            continue
        what, who = state.level_data(site)[:2]
        board.append([site, who, what, height, state.count[site]])
        if height > 1:
            stacks[str(site)] = [[lv[1], lv[0]] for lv in state.stack(site)]
    hands = [[c.owner, [[state.what[c.sites_from + i], k] for i, k in enumerate(counts)]]
             for c, counts in zip(g.containers[1:], state.hand_counts())]
    return {"b": board, "st": stacks, "h": hands, "sc": state.scores[1:],
            "m": state.current_player()}


def captured_sites(before: list[dict[int, int]], after: list[dict[int, int]],
                   lost: set[int], origin: int) -> list[int]:
    """Board sites where a player who lost pieces in the move holds fewer than before, but
    the origin of a move from one site to another: what leaves it moves, it is not taken
    (`origin` -1: none)."""
    return [site for site, (b, a) in enumerate(zip(before, after))
            if site != origin and any(a.get(who, 0) < k for who, k in b.items() if who in lost)]


def move_record(game: Game, state: State, move: Move, before: list[dict[int, int]],
                totals: dict[int, int], name: str | None = None) -> dict:
    """The move just applied to `state`: its name (`name`, as `move_names` gave it among the
    legal moves; else the move's own), mover, board from/to (-1: none, or a hand) and the
    sites whose pieces disappeared (captures)."""
    n = game.containers[0].num_sites
    after = pieces_per_site(state)
    now = player_totals(state, after)
    lost = {who for who, k in totals.items() if now.get(who, 0) < k}
    frm = move.frm if 0 <= move.frm < n and move.frm != move.to else -1
    return {"n": name or describe_move(game, move), "p": move.mover, "f": frm,
            "t": move.to if 0 <= move.to < n else -1,
            "x": captured_sites(before, after, lost, move.frm if move.frm != move.to else -1)}


def result_text(state: State) -> str:
    """How the game ended, in words."""
    if not state.is_terminal():
        return "not finished"
    if state.end_type in ("TurnLimit", "MoveLimit"):
        return f"timeout ({state.end_type}): no winner"
    if state.winner:
        return f"P{state.winner} wins"
    ranks = state.ranking[1:]
    if ranks and all(r == ranks[0] for r in ranks):
        return "draw"
    return "ranking: " + ", ".join(f"P{p} {r:g}" for p, r in enumerate(ranks, 1))


# ---------------------------------------------------------------- replaying a playout

def record_steps(game: Game, choices: list[int], seed: int | None = None
                 ) -> tuple[list[dict], State]:
    """Replay `choices` from the start: per step, its snapshot and (after the first) the
    move that led to it; and the last state."""
    state = game.new_initial_state(seed)
    steps = [{"s": snapshot(state)}]
    for i in choices:
        steps.append(apply_recorded(state, state.legal_moves()[i]))
    return steps, state


def apply_recorded(state: State, move: Move) -> dict:
    """Apply `move` to `state`; the step the page shows for it."""
    before = pieces_per_site(state)
    totals = player_totals(state, before)
    legal = state.legal_moves()
    at = next((i for i, m in enumerate(legal) if m is move), None)
    name = move_names(state.g, legal)[at] if at is not None else None   # as `play` names it
    state.apply(move)
    return {"s": snapshot(state), "mv": move_record(state.g, state, move, before, totals, name)}


# ---------------------------------------------------------------- the page

def game_title(game: Game) -> str:
    """The game's name and ruleset (or options)."""
    extra = game.ruleset.split("/", 1)[-1] if game.ruleset else \
        "; ".join(o.split("/", 1)[-1] for o in game.options)
    if not extra or extra in game.name:
        return game.name
    return extra if extra.startswith(game.name) else f"{game.name} ({extra})"


def page_data(game: Game, steps: list[dict], final: State | None, caption: str,
              mode: str = "replay") -> dict:
    """Everything the page's script reads."""
    return {
        "mode": mode,
        "title": game_title(game),
        "caption": caption,
        "players": game.num_players,
        "colours": list(PLAYER_COLOURS),
        "pieces": [c.name for c in game.components],
        "kinds": piece_kinds(game),
        "scores": bool(game.uses_score),
        "steps": steps,
        "result": result_text(final) if final is not None and final.is_terminal() else "",
    }


def seat_names(agents: list | None) -> str:
    """Who played: "random", or each seat's agent."""
    return ", ".join(f"P{p} {a.name}" for p, a in enumerate(agents, 1)) if agents else "random"


def render_page(game: Game, data: dict) -> str:
    """The self-contained HTML page for `data` (`page_data`)."""
    svg = board_svg(game.board, game.board.site_type, size=560.0)
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    parts = {"TITLE": escape(data["title"]), "SVG": svg, "DATA": text, "SCRIPT": _SCRIPT}
    # one pass over the template: what is put in is never searched again
    return re.sub(r"%(TITLE|SVG|DATA|SCRIPT)%", lambda m: parts[m.group(1)], _PAGE)


def playout_page(game: Game, seed: int, agents: list | None = None, caption: str = "",
                 max_decisions: int | None = None) -> tuple[str, State]:
    """The viewer page of the seeded playout, and its last state."""
    choices = seeded_playout(game, seed, agents, max_decisions)[1]
    steps, final = record_steps(game, choices, seed)
    caption = caption or f"seed {seed}, {seat_names(agents)}"
    return render_page(game, page_data(game, steps, final, caption)), final


# ---------------------------------------------------------------- a row of `ludeme run`

def read_run_row(run_dir, index: int, ruleset: str | None = None) -> dict:
    """The row of playout `index` in a `ludeme run` folder (its `playouts.parquet`, or the
    partitions under `playouts/`); `ruleset` chooses among the folder's configurations."""
    from pathlib import Path

    import pandas as pd
    run_dir = Path(run_dir)
    table = run_dir / "playouts.parquet"
    if not table.is_file():
        table = run_dir / "playouts"
    if not table.exists():
        raise LudemeError(f"{printable(str(run_dir))} is not a `ludeme run` folder (no "
                          "playouts.parquet or playouts/ in it)")
    try:        # only the rows of that index: a large run's partitions stay on disk
        found = pd.read_parquet(table, filters=[("index", "==", index)])
        last = pd.read_parquet(table, columns=["index"])["index"].max() if found.empty else 0
    except Exception as e:      # pyarrow's errors have no common base: say what failed
        raise LudemeError(f"{printable(str(table))}: cannot read it: {e}") from None
    if found.empty:
        raise LudemeError(f"{printable(str(run_dir))}: no playout with index {index} (indices "
                          f"0 to {last})")
    rows = found
    if ruleset is not None:
        rows = rows[rows["ruleset"].str.split("/", n=1).str[-1] == ruleset.split("/", 1)[-1]]
    if rows.empty:
        configs = ", ".join(repr(r.split("/", 1)[-1]) for r in found["ruleset"])
        raise LudemeError(f"{printable(str(run_dir))}: no playout {index} in ruleset "
                          f"{ruleset!r} (played by {configs})")
    if len(rows) > 1:
        configs = ", ".join(repr(r.split("/", 1)[-1]) for r in rows["ruleset"])
        raise LudemeError(f"{printable(str(run_dir))}: playout {index} was played by several "
                          f"configurations ({configs}): choose one with --ruleset")
    return rows.iloc[0].to_dict()


def recorded_run(run_dir, row: dict) -> tuple[str, dict]:
    """The description a run folder's `run.json` says the run played (its absolute path),
    and the configuration of `row` (ruleset, options, limits); refused, saying to give the
    file, when the folder has no record or the file is no longer there."""
    from pathlib import Path
    record = Path(run_dir) / "run.json"
    where = printable(str(run_dir))
    try:
        run = json.loads(record.read_text(encoding="utf-8"))
        path = run["description"]
        configs = [c for c in run["configurations"] if c["ruleset"] == (row["ruleset"] or "")
                   and "; ".join(c["options"]) == (row["options"] or "")]
    except FileNotFoundError:
        raise LudemeError(f"{where} has no run.json (a run of an older ludeme): give --lud FILE, "
                          "the description the run played") from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise LudemeError(f"{printable(str(record))}: cannot read it ({e}): give --lud FILE, "
                          "the description the run played") from None
    if not Path(path).is_file():
        raise LudemeError(f"{where}: the run played {printable(path)}, which is no longer there: "
                          "give --lud FILE, the description the run played")
    return path, configs[0] if configs else {}


def row_agents(row: dict) -> list | None:
    """The agents that played a row, one per seat (None: all random); refused when their
    choices cannot be replayed (a time budget depends on the machine's speed)."""
    from ludeme.ai.agents import agent_from_spec
    specs = [row[f"agent_p{p}"] for p in range(1, int(row["players"]) + 1)
             if isinstance(row.get(f"agent_p{p}"), str)]
    if not specs or all(s == "random" for s in specs):
        return None
    timed = [s for s in specs if "seconds=" in s]
    if timed:
        raise LudemeError(f"playout {row['index']} was played by {timed[0]}, whose choices "
                          "depend on the machine's speed: it cannot be replayed")
    return [agent_from_spec(s) for s in specs]


def load_row_game(path, row: dict, max_moves: int | None = None) -> Game:
    """The game a row was played with: its description with the row's ruleset or options,
    turn limit and `max_moves` (None: the game's); refused when the description names
    another game or options."""
    from ludeme.api import load
    from ludeme.model.build import MAX_TURNS_PER_PLAYER
    players = int(row["players"])
    per_player = int(row["turn_limit"]) // players
    options = [o for o in str(row["options"] or "").split("; ") if o]
    ruleset = row["ruleset"] or None
    game = load(path, [] if ruleset else options, ruleset,
                max_turns=None if per_player == MAX_TURNS_PER_PLAYER else per_player,
                max_moves=max_moves, backend="reference")
    if game.name != row["game"] or list(game.options) != options:
        raise LudemeError(f"{printable(str(path))} gives {game.name!r} with options "
                          f"{'; '.join(game.options) or 'none'}, but the row was played on "
                          f"{row['game']!r} with options {row['options'] or 'none'}: give the "
                          "description the run played")
    return game


def row_page(path, row: dict, max_moves: int | None = None) -> tuple[str, State]:
    """The viewer page of a row of `ludeme run`, checked against what the row recorded
    (`max_moves`: the run's decision limit, None for the game's)."""
    game = load_row_game(path, row, max_moves)
    agents = row_agents(row)
    seed = int(row["seed"])
    html, final = playout_page(game, seed, agents, caption=f"playout {row['index']} of a run, "
                               f"seed {seed}, {seat_names(agents)}")
    replayed = (int(final.winner or 0), final.end_type, final.num_turn, final.num_decisions)
    recorded = (int(row["winner"]), row["end_type"], int(row["turns"]), int(row["moves"]))
    if replayed != recorded:
        raise LudemeError(
            f"playout {row['index']} does not replay as recorded (winner, end, turns, moves: "
            f"{recorded} in the row, {replayed} now; the row was made by ludeme "
            f"{row.get('engine_version', '?')}): was the run played with another version or "
            "description, or with --max-moves?")
    return html, final


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%TITLE%</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 12px; max-width: 1100px;
       color: #222; }
h1 { font-size: 1.3em; margin: 0 0 4px; }
#caption { color: #666; margin: 0 0 10px; }
#main { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
#board svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
#side { flex: 1; min-width: 260px; }
#controls button { font-size: 1.1em; min-width: 2.4em; }
#slider { width: 100%; margin: 8px 0; }
#status { font-weight: bold; margin: 6px 0; }
#result { font-weight: bold; color: #a00; margin: 6px 0; }
#moves { max-height: 320px; overflow: auto; border: 1px solid #ddd; padding: 4px; margin: 0;
         font-size: 0.9em; }
#moves li.current { background: #ffe9a8; }
#moves li { cursor: pointer; }
#legal button { margin: 2px; }
.site.legal-from circle.mark, .site.legal-to circle.mark { display: inline; }
svg .hl { pointer-events: none; }
svg .site { cursor: default; }
svg.playing .site.clickable { cursor: pointer; }
</style></head>
<body>
<h1 id="title">%TITLE%</h1>
<p id="caption"></p>
<div id="main">
<div id="board">%SVG%</div>
<div id="side">
<div id="controls">
<button id="first" title="first (Home)">&#x21E4;</button>
<button id="prev" title="previous (&#x2190;)">&#x25C0;</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="next (&#x2192;)">&#x25B6;</button>
<button id="last" title="last (End)">&#x21E5;</button>
<button id="undo" hidden>undo</button>
<button id="quit" hidden title="stop the server">stop</button>
</div>
<input id="slider" type="range" min="0" max="0" value="0">
<div id="step"></div>
<div id="lastmove"></div>
<div id="status"></div>
<div id="hands"></div>
<div id="result"></div>
<div id="legal"></div>
<ol id="moves" start="1"></ol>
</div></div>
<script type="application/json" id="data">%DATA%</script>
<script>%SCRIPT%</script>
</body></html>
"""

_SCRIPT = r"""
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const svg = document.querySelector("#board svg");
const NS = "http://www.w3.org/2000/svg";
const R = parseFloat(svg.getAttribute("data-site-radius")) || 12;
if (+svg.getAttribute("width") < 480) svg.style.width = "480px";   // small boards drawn larger
const sites = {};
for (const g of svg.querySelectorAll("g.site")) sites[g.getAttribute("data-site")] = g;
const layer = document.createElementNS(NS, "g");
layer.setAttribute("class", "hl");
svg.appendChild(layer);
let cur = 0, timer = null, legal = [], picked = null;
const $ = (id) => document.getElementById(id);

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent.appendChild(e);
  return e;
}
function shape(kind, x, y, r, fill, parent) {
  const a = {fill: fill, stroke: "#333", "stroke-width": 2};
  if (kind % 4 === 1) {
    return el("rect", Object.assign(a, {x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7,
                                      height: r * 1.7, rx: 2}), parent);
  }
  if (kind % 4 === 2 || kind % 4 === 3) {
    const n = kind % 4 === 2 ? 6 : 3, pts = [];
    for (let i = 0; i < n; i++) {
      const t = Math.PI * 2 * i / n - Math.PI / 2;
      pts.push((x + r * Math.cos(t)).toFixed(1) + "," + (y + r * Math.sin(t)).toFixed(1));
    }
    return el("polygon", Object.assign(a, {points: pts.join(" ")}), parent);
  }
  return el("circle", Object.assign(a, {cx: x, cy: y, r: r}), parent);
}
// Neutral and shared pieces (who 0, or Ludii's Shared, players + 1) are grey.
function colour(who) { return who >= 1 && who <= D.players ? D.colours[who] : D.colours[0]; }
function textColour(who) { return colour(who) === "#222222" ? "#fff" : "#000"; }
function pieceName(what) { return D.pieces[what] || ("piece " + what); }

function show(k) {
  cur = Math.max(0, Math.min(k, D.steps.length - 1));
  const step = D.steps[cur], s = step.s, mv = step.mv;
  layer.innerHTML = "";
  for (const id in sites) {
    const g = sites[id];
    for (const a of ["who", "what", "height", "count"]) g.setAttribute("data-" + a, "0");
    for (const a of ["from", "to", "captured"]) g.removeAttribute("data-" + a);
    g.removeAttribute("data-stack");
    g.classList.remove("clickable");
  }
  for (const [site, who, what, height, count] of s.b) {
    const g = sites[site];
    if (!g) continue;
    g.setAttribute("data-who", who); g.setAttribute("data-what", what);
    g.setAttribute("data-height", height); g.setAttribute("data-count", count);
    const x = +g.getAttribute("data-x"), y = +g.getAttribute("data-y");
    const stack = s.st[site];
    if (stack) g.setAttribute("data-stack", stack.map(l => l[0] + ":" + l[1]).join(" "));
    if (height > 1) {   // the levels below peek out under the top piece
      for (let i = Math.min(height - 1, 3); i >= 1; i--) {
        const lv = stack ? stack[stack.length - 1 - i] : [who, what];
        shape(D.kinds[lv[1]] || 0, x + i * 2.5, y + i * 2.5, R * 0.9,
              colour(lv[0]), layer);
      }
    }
    const p = shape(D.kinds[what] || 0, x, y, R * 0.9, colour(who), layer);
    const t = document.createElementNS(NS, "title");
    t.textContent = pieceName(what) + (stack ? " (stack: " + stack.map(l => pieceName(l[1])).join(", ") + ")" : "");
    p.appendChild(t);
    const n = height > 1 ? height : count > 1 ? count : 0;
    if (n) {
      const tx = el("text", {x: x, y: y + R * 0.3, "font-size": R * 0.85, "text-anchor": "middle",
                             "font-weight": "bold", fill: textColour(who)}, layer);
      tx.textContent = (height > 1 ? "" : "\u00d7") + n;
    }
  }
  if (mv) {
    const mark = (site, colour, attr, dash) => {
      const g = sites[site];
      if (!g) return;
      g.setAttribute("data-" + attr, "1");
      el("circle", {cx: g.getAttribute("data-x"), cy: g.getAttribute("data-y"), r: R * 1.05,
                    fill: "none", stroke: colour, "stroke-width": 3,
                    "stroke-dasharray": dash || ""}, layer);
    };
    if (mv.f >= 0) mark(mv.f, "#1e88e5", "from", "4 3");
    if (mv.t >= 0) mark(mv.t, "#1e88e5", "to");
    for (const x of mv.x) {   // a red cross beside the site: what stood there was taken
      mark(x, "#e53935", "captured", "2 2");
      const g = sites[x], d = R * 0.28;
      const cx = +g.getAttribute("data-x") + R * 0.8, cy = +g.getAttribute("data-y") - R * 0.8;
      el("circle", {cx: cx, cy: cy, r: d * 1.6, fill: "#fff", stroke: "#e53935", "stroke-width": 2}, layer);
      el("path", {d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx + d},${cy - d}L${cx - d},${cy + d}`,
                  stroke: "#e53935", "stroke-width": 2.5}, layer);
    }
  }
  $("slider").max = D.steps.length - 1;
  $("slider").value = cur;
  $("step").textContent = "move " + cur + " of " + (D.steps.length - 1);
  $("lastmove").textContent = mv ? "P" + mv.p + ": " + mv.n +
      (mv.x.length ? " (captures at " + mv.x.map(i => sites[i] ? sites[i].getAttribute("data-label") : i).join(", ") + ")" : "") : "start";
  const last = cur === D.steps.length - 1;
  $("status").textContent = s.m > 0 ? "P" + s.m + " to move" + (D.mode === "play" && last && s.m === D.human ? " (you)" : "") : "game over";
  $("result").textContent = last && D.result ? "Result: " + D.result : "";
  let hands = s.h.filter(h => h[1].some(c => c[1] > 0)).map(h => "hand of P" + h[0] + ": " +
      h[1].filter(c => c[1] > 0).map(c => c[1] + " " + pieceName(c[0])).join(", "));
  if (D.scores) hands.push("scores: " + s.sc.map((v, i) => "P" + (i + 1) + " " + v).join(", "));
  $("hands").textContent = hands.join("; ");
  for (const li of $("moves").children) li.classList.toggle("current", +li.dataset.step === cur);
  const item = $("moves").querySelector("li.current"), list = $("moves");
  if (item) list.scrollTop = item.offsetTop - list.offsetTop - list.clientHeight / 2;
  if (D.mode === "play") showLegal(last);
}

function listMoves() {
  const ol = $("moves");
  ol.innerHTML = "";
  D.steps.forEach((st, k) => {
    if (!st.mv) return;
    const li = document.createElement("li");
    li.dataset.step = k;
    li.textContent = "P" + st.mv.p + ": " + st.mv.n;
    li.onclick = () => { stop(); show(k); };
    ol.appendChild(li);
  });
}
function stop() { if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; } }
function play() {
  if (timer) { stop(); return; }
  if (cur === D.steps.length - 1) show(0);
  $("play").textContent = "pause";
  timer = setInterval(() => { if (cur >= D.steps.length - 1) stop(); else show(cur + 1); }, 700);
}
$("first").onclick = () => { stop(); show(0); };
$("prev").onclick = () => { stop(); show(cur - 1); };
$("next").onclick = () => { stop(); show(cur + 1); };
$("last").onclick = () => { stop(); show(D.steps.length - 1); };
$("play").onclick = play;
$("slider").oninput = (e) => { stop(); show(+e.target.value); };
document.addEventListener("keydown", (e) => {
  // the slider moves itself by these keys, and a focused button takes space and Enter
  if (e.target.tagName === "INPUT" || e.target.tagName === "BUTTON" && e.key === " ") return;
  const keys = {ArrowLeft: () => show(cur - 1), ArrowRight: () => show(cur + 1),
                Home: () => show(0), End: () => show(D.steps.length - 1), " ": play};
  if (keys[e.key]) { if (e.key !== " ") stop(); keys[e.key](); e.preventDefault(); }
});

// ---- play mode: the server holds the game; the page shows it and sends moves
function showLegal(last) {
  const box = $("legal");
  box.innerHTML = "";
  svg.classList.toggle("playing", last && legal.length > 0);
  if (!last || !legal.length) return;
  const title = document.createElement("div");
  title.textContent = picked === null ? "your move: click a piece, then where it goes (or a move below)"
                                      : "now click where it goes";
  box.appendChild(title);
  const hl = (site, colour) => {
    const g = sites[site];
    if (!g) return;
    g.classList.add("clickable");
    el("circle", {cx: g.getAttribute("data-x"), cy: g.getAttribute("data-y"), r: R * 0.45,
                  fill: colour, "fill-opacity": 0.55, class: "legal-mark"}, layer);
  };
  const choices = picked === null ? legal : legal.filter(m => m.f === picked);
  for (const m of choices) {
    if (picked === null && m.f >= 0) hl(m.f, "#43a047"); else if (m.t >= 0) hl(m.t, "#fb8c00");
    const b = document.createElement("button");
    b.textContent = m.n;
    b.className = "legal-move";
    b.dataset.index = m.i;
    b.onclick = () => send("move", m.i);
    box.appendChild(b);
  }
}
function clickSite(site) {
  if (D.mode !== "play" || cur !== D.steps.length - 1 || !legal.length) return;
  if (picked === null) {
    if (legal.some(m => m.f === site)) { picked = site; show(cur); return; }
    const drops = legal.filter(m => m.f < 0 && m.t === site);
    if (drops.length === 1) send("move", drops[0].i);
    else if (drops.length > 1) { legal = drops; show(cur); }   // which piece: from the list
    return;
  }
  const to = legal.filter(m => m.f === picked && m.t === site);
  if (to.length === 1) { picked = null; send("move", to[0].i); return; }
  if (to.length > 1) {      // several moves between the same sites: choose from the list
    legal = to; picked = null; show(cur); return;
  }
  picked = legal.some(m => m.f === site) && site !== picked ? site : null;
  show(cur);
}
function load(state) {
  D.steps = state.steps; D.result = state.result; legal = state.legal; picked = null;
  listMoves(); show(D.steps.length - 1);
}
function send(what, index) {
  fetch("/" + what, {method: "POST", body: index === undefined ? "" : String(index)})
    .then(r => r.json()).then(load);
}
for (const id in sites) sites[id].addEventListener("click", () => clickSite(+id));
$("caption").textContent = D.caption;
if (D.mode === "play") {
  $("undo").hidden = false;
  $("undo").onclick = () => send("undo");
  $("quit").hidden = false;
  $("quit").onclick = () => fetch("/quit", {method: "POST"}).then(() => {
    legal = []; show(cur); $("status").textContent = "the server has stopped";
    $("undo").disabled = $("quit").disabled = true;
  });
  fetch("/state").then(r => r.json()).then(load);
} else {   // page.html#12 opens at move 12, #end at the last
  const h = location.hash.slice(1);
  listMoves(); show(h === "end" ? D.steps.length - 1 : +h || 0);
}
"""
