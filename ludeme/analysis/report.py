"""What `ludeme run` writes: the tidy tables, and a report a person reads.

`write_run(df, summary, out)` writes into `out`:
`playouts.parquet` and `playouts.csv` (one row per playout; a partitioned run
has written its playouts to `playouts/` already, and `df` then holds only the
columns the plots read), `summary.csv` (one row per game/ruleset/options and
matchup of agents), `run.json` (what was played: the description's absolute path, and per
configuration its ruleset, options and limits, so `ludeme view RUN_DIR --row K` can replay a
row without being told the file), `summary.md` and `report.html` (the metrics with
their intervals, how they are defined, and two plots), `lengths.png` (the
distribution of playout lengths in turns) and `outcomes.png` (each player's
share of wins, and the share with no winner, with 95% Wilson intervals). Each
plot has one panel per configuration (per ruleset with `--all-rulesets`).
"""

from __future__ import annotations

import base64
import errno
import html
import json
import math
import os
import re
import shutil
import sys
import uuid
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ludeme.errors import printable
# The output folder's checks and locks (a module of its own, light to import); the others
# import check_out_dir, note_run_start and run_lock from here as well.
from .outdir import (_locked, _read_marker, _started_marker, check_out_dir,  # noqa: F401
                     note_run_start, run_lock)
from .metrics import METRICS, SUMMARY_KEYS, constant, matchups, single_config, wilson

PANEL_COLUMNS = 3
PLOT_DPI = 110          # with panels of 5.5 x 4 inches: read at the width of report.html


def config_label(row) -> str:
    """A short name for a configuration: its ruleset, else its options, else the game,
    then the matchup of agents unless all are random.

    The game's name is dropped where the ruleset repeats it ("(Ludii 5) (Reconstructed)").
    """
    game = str(row["game"])
    if row["ruleset"]:
        name = str(row["ruleset"]).split("/", 1)[-1]
        label = name.removeprefix(game + " ") or name
    else:
        label = str(row["options"]) or game
    agents = row.get("agents", "random")
    return label if agents == "random" else f"{label}: {agents}"


def _groups(df: pd.DataFrame):
    """(label, rows) per configuration and matchup, in the order of first appearance."""
    key = single_config(df)
    if key is not None:                  # the whole table is one configuration and matchup
        yield config_label(dict(zip(SUMMARY_KEYS, key))), df
        return
    keys = [df[c] for c in SUMMARY_KEYS[:-1]] + [matchups(df).rename("agents")]
    for config, rows in df.groupby(keys, sort=False, dropna=False):
        yield config_label(dict(zip(SUMMARY_KEYS, config))), rows


# What the plots and reports read from the playout table. A partitioned run hands them
# `tally`'s counts instead of its rows (memory bounded by the distinct values, not the run).
PLOT_COLUMNS = ("game", "ruleset", "options", "players", "winner", "timeout", "turns",
                "turn_limit", "engine_version")
COUNT = "count"


def weights(rows: pd.DataFrame) -> np.ndarray:
    """How many playouts each row stands for: its `count` in a tally, else one."""
    return rows[COUNT].to_numpy() if COUNT in rows.columns else np.ones(len(rows), np.int64)


def playouts_in(df: pd.DataFrame) -> int:
    """The number of playouts of a table or of a tally."""
    return int(weights(df).sum())


def tally(df: pd.DataFrame) -> pd.DataFrame:
    """The distinct rows of the plotted columns (and agents) of a table, or of tallies
    concatenated, with `count`: how many playouts each stands for. Columns whose value
    is the same in every row are compared, not hashed; the others are factorised and a
    row keyed by the mixed-radix number of its codes."""
    agents = sorted(c for c in df.columns if c.startswith("agent_p"))
    columns = [c for c in (*PLOT_COLUMNS, *agents) if c in df.columns]
    key = np.zeros(len(df), dtype=np.int64)
    for c in columns:
        col = df[c]
        if len(col) and constant(col, col.iloc[0]):
            continue
        codes, uniques = pd.factorize(col, use_na_sentinel=False)
        if (int(key.max()) + 1) * len(uniques) >= 2**62:     # renumber before it overflows
            key = np.unique(key, return_inverse=True)[1].ravel()
        key = key * len(uniques) + codes
    if len(key) and key.max() >= 4 * len(key):              # sparse keys: number them
        key = np.unique(key, return_inverse=True)[1].ravel()
    counts = np.bincount(key, weights=weights(df)).astype(np.int64)
    seen = np.flatnonzero(np.bincount(key))
    one_row = np.empty(len(counts), dtype=np.int64)
    one_row[key] = np.arange(len(key))        # a row of each key (they agree on every column)
    out = df[columns].iloc[one_row[seen]].reset_index(drop=True)
    out[COUNT] = counts[seen]
    return out


def _panels(count: int, height: float = 4.0) -> tuple[Figure, list]:
    """A figure with `count` panels, at most PANEL_COLUMNS to a row, in fonts large enough
    to read where the report shows it."""
    cols = min(PANEL_COLUMNS, count)
    rows = math.ceil(count / cols)
    width, tall = max(7.0, 5.5 * cols), height * rows + 0.6
    fig = Figure(figsize=(width, tall))
    # Margins in inches, set once: the figure's title and two lines of panel title above
    # each row, tick labels (turned in the outcome panels) and axis labels around each
    # panel. matplotlib's constrained layout measured them for each figure, half of the
    # time a ten-ruleset report took to draw.
    left, right, top, bottom, across, down = 0.8, 0.3, 1.15, 0.95, 0.9, 1.5
    panel_w = (width - left - right - across * (cols - 1)) / cols
    panel_h = (tall - top - bottom - down * (rows - 1)) / rows
    fig.subplots_adjust(left=left / width, right=1 - right / width, top=1 - top / tall,
                        bottom=bottom / tall, wspace=across / panel_w, hspace=down / panel_h)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax in axes:
        ax.tick_params(labelsize=10)
        ax.xaxis.label.set_size(11)
        ax.yaxis.label.set_size(11)
    for ax in axes[count:]:
        ax.set_visible(False)
    return fig, list(axes[:count])


# ---------------------------------------------------------------- plots

def plot_lengths(df: pd.DataFrame) -> Figure:
    """Histogram of turns per playout, timeouts drawn apart, one panel per configuration."""
    groups = list(_groups(df))
    fig, axes = _panels(len(groups))
    for ax, (label, rows) in zip(axes, groups):
        turns = rows["turns"].to_numpy()
        timeout = rows["timeout"].to_numpy(bool)
        w = weights(rows)
        bins = np.histogram_bin_edges(turns, bins=min(40, max(5, len(np.unique(turns)))))
        ax.hist([turns[~timeout], turns[timeout]], bins=bins, stacked=True,
                weights=[w[~timeout], w[timeout]],
                color=["tab:blue", "tab:red"], label=["ended", "timeout"])
        mean = float(turns @ w / w.sum())
        ax.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
        ax.set_title(label, fontsize=12)
        ax.set_xlabel("turns", fontsize=11)
        ax.set_ylabel("playouts", fontsize=11)
        ax.legend(fontsize=10)
    fig.suptitle("Playout length (turns; a moveAgain chain is one turn)", fontsize=13)
    return fig


def outcome_shares(rows: pd.DataFrame) -> list[tuple[str, float, float, float]]:
    """(name, share, low, high): each player's wins, then playouts with no winner."""
    w = weights(rows)
    n = int(w.sum())
    players = int(rows["players"].iloc[0])
    winner = rows["winner"].to_numpy()
    out = [(f"P{p} wins", *wilson(int(w[winner == p].sum()), n))
           for p in range(1, players + 1)]
    out.append(("no winner", *wilson(int(w[winner == 0].sum()), n)))
    return out


def plot_outcomes(df: pd.DataFrame) -> Figure:
    """Bars of outcome shares with 95% Wilson intervals, one panel per configuration."""
    groups = list(_groups(df))
    fig, axes = _panels(len(groups))
    for ax, (label, rows) in zip(axes, groups):
        shares = outcome_shares(rows)
        names = [s[0] for s in shares]
        values = np.array([s[1] for s in shares])
        err = np.array([[s[1] - s[2] for s in shares], [s[3] - s[1] for s in shares]])
        colors = ["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown",
                  "tab:pink"][:len(shares) - 1] + ["tab:gray"]
        ax.bar(names, values, yerr=err, capsize=4, color=colors)
        ax.set_ylim(0, 1)
        ax.set_title(f"{label}\nn={playouts_in(rows):,}", fontsize=12)
        ax.set_ylabel("share of playouts", fontsize=11)
        ax.tick_params(axis="x", labelsize=10, rotation=30)
    fig.suptitle("Outcomes (95% Wilson intervals)", fontsize=13)
    return fig


# ---------------------------------------------------------------- tables

def number_text(x) -> str:
    """A number for people: integers and values of 1,000 or more whole, with thousands
    separators ("13,180"); smaller ones in three significant digits, never in exponent
    form ("0.53", "0.000123"); NaN as "n/a"."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if isinstance(x, (bool, np.bool_, str)):
        return str(x)
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    x = float(x)
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if abs(x) >= 1000 or x == int(x):
        return f"{round(x):,}"
    digits = min(12, 2 - math.floor(math.log10(abs(x))))
    text = f"{x:.{digits}f}"
    if abs(float(text)) >= 1000:            # 999.96 rounds up to 1,000
        return f"{round(float(text)):,}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def with_interval(value, low, high) -> str:
    """A value and its 95% interval: "0.53 (0.51–0.55)"."""
    return f"{number_text(value)} ({number_text(low)}–{number_text(high)})"


def metrics_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Metric rows x configuration columns, each cell "value (low–high)"."""
    names = ["n", "playouts_per_sec", *(m for m in METRICS if m in summary.columns)]
    names += [c for c in summary.columns if c.startswith(("win_share_p", "agent", "AgentScore",
                                                          "AgentWins")) and "_ci_" not in c
              and c != "agents"]
    table = {}
    for _, r in summary.iterrows():
        cells = []
        for name in names:
            value = r[name]
            if name.startswith("win_share_p") and int(name[11:]) > r["players"]:
                cells.append("")        # a seat this configuration has not (a mixed run)
            elif f"{name}_ci_low" in summary.columns:
                cells.append(with_interval(value, r[name + "_ci_low"], r[name + "_ci_high"]))
            else:
                cells.append(number_text(value))
        table[config_label(r)] = cells
    return pd.DataFrame(table, index=pd.Index(names, name="metric"))


def defined(column: str) -> bool:
    """A summary column has a row in the definitions table (its name, or a pattern of it:
    `PieceNumber*`, `*Median`, `win_share_pk`)."""
    import re
    for name, _, _ in _definitions():
        pattern = re.escape(name).replace(r"\*", ".+").replace("pk", "p[0-9]+")
        if re.fullmatch(pattern, column):
            return True
    return False


def _definitions() -> list[tuple[str, str, str]]:
    """(name, definition, interval) from the table in `ludeme.analysis.metrics`' docstring."""
    from ludeme.analysis import metrics
    out = []
    for line in (metrics.__doc__ or "").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        # Every row of the table: a metric, a series' or aggregate's pattern (`PieceNumber*`,
        # `*Median`), or an extra column (n, playouts_per_sec, win_share_pk).
        if line.startswith("| ") and len(cells) == 3 and cells[0] not in ("name", "---"):
            out.append(tuple(cells))
    return out


_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_|"} | {"<": "&lt;", ">": "&gt;",
                                                                 "&": "&amp;", "\n": " ",
                                                                 "\r": " "})


def md(text) -> str:
    """Text a user chose (a game's name, an option) as literal Markdown: nothing in it can
    break a table, start a heading or pass raw HTML through."""
    return printable(str(text).translate(_MD_SPECIAL))


def _markdown(table: pd.DataFrame) -> str:
    """A table as a Markdown pipe table, its index as the first column."""
    header = "| metric | " + " | ".join(md(c) for c in table.columns) + " |"
    rule = "|---" * (len(table.columns) + 1) + "|"
    body = [f"| {name} | " + " | ".join(row) + " |" for name, row in table.iterrows()]
    return "\n".join([header, rule, *body])


def _title(summary: pd.DataFrame) -> str:
    """The report's heading: the games it covers."""
    games = ", ".join(dict.fromkeys(summary["game"]))
    return f"Playouts: {games}"


def _players(summary: pd.DataFrame) -> str:
    """Who played: uniform random, or the matchups of agents."""
    lineups = list(dict.fromkeys(summary["agents"])) if "agents" in summary else ["random"]
    if lineups == ["random"]:
        return "uniform random"
    return "agents: " + "; ".join(lineups)


SEED_RULE = ("playout i's seed is numpy's SeedSequence([run seed, i]).generate_state(1, "
             "uint64)[0] >> 1 (`ludeme.analysis.playouts.playout_seed`), stored in each row")


def provenance(run: dict | None) -> list[str]:
    """What makes a run citable, one line each, from its `run.json` record
    (`ludeme.analysis.playouts.run_record`): the command, the version and commit, the time,
    the playouts each backend played, whether it was interrupted, the seeds."""
    if not run:
        return []
    # (A record written by hand, or by an older ludeme, may lack a line: it says so.)
    played = ", ".join(f"{b}: {k} playouts"
                       for b, k in sorted(run.get("playouts_by_backend", {}).items()) if k)
    commit = f", commit {run['commit']}" if run.get("commit") else ""
    cut = ("yes (the playouts that finished are kept)" if run.get("interrupted") else
           "no" if "interrupted" in run else "not recorded")
    return [f"command: {run.get('command') or '(library call)'}",
            f"ludeme version: {run.get('engine_version', 'not recorded')}{commit}",
            f"written: {run.get('written_utc', 'not recorded')}",
            f"backend: {played or 'not recorded'}",
            f"interrupted: {cut}",
            f"seeds: run seed {run.get('seed', 'not recorded')}; {SEED_RULE}",
            *until_ci_lines(run.get("until_ci"))]


def until_ci_lines(until: dict | None) -> list[str]:
    """A precision-driven run's targets and, per configuration, what stopped it."""
    from .precision import stop_text
    if not until:
        return []
    targets = ", ".join(f"{m} {w}" for m, w in until["targets"].items())
    return [f"until-ci: 95% intervals narrower than {targets}, at most {until['cap']:,} "
            "playouts per configuration, in batches that are prefixes of the seeds"] + \
        [f"until-ci: {stop_text(stop)}" for stop in until["stops"]]


def summary_markdown(df: pd.DataFrame, summary: pd.DataFrame, run: dict | None = None) -> str:
    """summary.md: what was run, the metrics table, the plots and the definitions."""
    first = df.iloc[0]
    lines = [f"# {md(_title(summary))}", "",
             f"{playouts_in(df)} playouts ({md(_players(summary))}); run seed derived per playout (`seed` column), "
             f"ludeme {first['engine_version']}; turn limit {first['turn_limit']} "
             f"(1250 per player unless changed), a cut game counts as a timeout.", ""]
    lines += [f"- {md(x)}" for x in provenance(run)] + ([""] if run else [])
    for _, r in summary.iterrows():
        lines.append(f"- **{md(config_label(r))}**: game {md(r['game'])}; options: "
                     f"{md(r['options'] or '(defaults)')}")
    lines += ["", "Each cell: value (95% interval).", "", _markdown(metrics_table(summary)), "",
              "![length distribution](lengths.png)", "", "![outcomes](outcomes.png)", "",
              "## Definitions (Ludii's)", "", "| metric | definition | interval |",
              "|---|---|---|"]
    lines += [f"| {md(a)} | {b} | {c} |" for a, b, c in _definitions()]
    lines += ["", "Intervals: Wilson for shares, Student-t for means of per-playout values, "
              "percentile bootstrap (2,000 resamples) otherwise.", ""]
    return "\n".join(lines)


def _image_data(path: Path) -> str:
    """A PNG or SVG file as a data: URI, so report.html stands alone."""
    kind = "svg+xml" if path.suffix == ".svg" else "png"
    return f"data:image/{kind};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def html_head(title: str) -> str:
    """The start of a self-contained HTML report, to the <h1> with its (escaped) title."""
    title = html.escape(title)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: system-ui, sans-serif; margin: 0 auto; padding: 1em 1.5em;
        max-width: 1200px; color: #222; line-height: 1.4; }}
h1 {{ font-size: 1.6em; margin: 0.2em 0 0.4em; }}
h2 {{ font-size: 1.25em; margin-top: 1.6em; }}
table {{ border-collapse: collapse; font-size: 0.9em; }}
td, th {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }}
td.num {{ text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }}
.scroll {{ overflow-x: auto; }}
img {{ max-width: 100%; height: auto; }}
.top {{ display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }}
.top .board svg {{ max-width: 100%; height: auto; max-height: 420px;
                   border: 1px solid #ddd; }}
.top .about {{ flex: 1; min-width: 300px; }}
.concepts {{ font-size: 0.92em; color: #333; }}
.figures {{ display: grid; gap: 1em; grid-template-columns: minmax(0, 2fr) minmax(300px, 1fr);
            align-items: start; }}
.samples ul {{ padding-left: 1.2em; }}
.samples iframe {{ width: 100%; height: 560px; border: 1px solid #ddd; }}
.figures.many {{ grid-template-columns: 1fr; }}
.figures.many .samples-all {{ display: grid; gap: 0 1.5em;
                              grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); }}
.figures.many .samples-all h2 {{ grid-column: 1 / -1; }}
@media (max-width: 900px) {{ .figures {{ grid-template-columns: 1fr; }} }}
</style></head><body>
<h1>{title}</h1>"""


def html_table(table: pd.DataFrame, first: str = "metric") -> str:
    """A table of text cells as HTML, its index the first column headed `first` (no row
    for the index's name under the header, as pandas' `to_html` writes), cells escaped,
    those that start with a number aligned right."""
    esc = html.escape
    head = "".join(f"<th>{esc(str(c))}</th>" for c in table.columns)
    body = []
    for name, row in table.iterrows():
        cells = "".join(
            f'<td class="num">{esc(str(v))}</td>' if re.match(r"-?\d", str(v))
            else f"<td>{esc(str(v))}</td>" for v in row)
        body.append(f"<tr><th>{esc(str(name))}</th>{cells}</tr>")
    return (f'<div class="scroll"><table><thead><tr><th>{esc(first)}</th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>")


def _sample_list(show: dict) -> str:
    """The sample games of one configuration: a link to each page, the first shown framed."""
    esc = html.escape
    items, frame = [], ""
    for s in show["samples"]:
        what = (f"{esc(' and '.join(s['roles']))}: playout {s['index']}, {number_text(s['moves'])} "
                f"moves, {esc(s['result'])}")
        note = f" ({esc(s['note'])})" if s["note"] else ""
        if s["file"]:
            href = esc("games/" + s["file"])
            items.append(f'<li><a class="sample" href="{href}">{what}</a>{note}</li>')
            if not frame:
                frame = (f'<iframe class="sample" loading="lazy" src="{href}" '
                         f'title="{esc(show["label"])}: {esc(" and ".join(s["roles"]))}">'
                         "</iframe>")
        else:
            items.append(f"<li>{what}{note}</li>")
    return (f'<div class="samples"><h3>{esc(show["label"])}</h3><ul>{"".join(items)}</ul>'
            f"{frame}</div>")


def report_html(df: pd.DataFrame, summary: pd.DataFrame, plots: dict[str, Path],
                showcases: list[dict] | None = None, run: dict | None = None) -> str:
    """report.html: the board and the concepts of the rules at the top, then the content of
    summary.md (plots embedded) with the sample games of each configuration beside the plots,
    or below them when several configurations make the plots wide
    (`ludeme.analysis.samples.showcase`; their pages are in games/)."""
    esc = html.escape
    showcases = showcases or []
    configs = "".join(f"<li><b>{esc(config_label(r))}</b>: game {esc(r['game'])}; options: "
                      f"{esc(r['options'] or '(defaults)')}</li>" for _, r in summary.iterrows())
    defs = "".join(f"<tr><td>{esc(a)}</td><td>{esc(b)}</td><td>{esc(c)}</td></tr>"
                   for a, b, c in _definitions())
    imgs = "".join(f'<p><img class="plot" alt="{esc(k)}" src="{_image_data(p)}"></p>'
                   for k, p in plots.items())
    boards = list(dict.fromkeys(sc["board"] for sc in showcases))[:1]   # the first configuration's
    concepts = "".join(
        f'<p class="concepts"><b>{esc(sc["label"] if len(showcases) > 1 else "Concepts")}</b> '
        f'— {esc(sc["concepts"])}</p>' for sc in showcases if sc["concepts"])
    samples = "".join(_sample_list(sc) for sc in showcases if sc["samples"])
    side = (f'<div class="samples-all"><h2>Sample games</h2>{samples}</div>' if samples else "")
    record = "".join(f"<li>{esc(x)}</li>" for x in provenance(run))
    first = df.iloc[0]
    return html_head(_title(summary)) + f"""
<div class="top">
{''.join(f'<div class="board">{b}</div>' for b in boards)}
<div class="about">
<p>{number_text(playouts_in(df))} playouts ({esc(_players(summary))}), ludeme {esc(str(first['engine_version']))};
turn limit {number_text(int(first['turn_limit']))}; a cut game counts as a timeout.</p>
<ul class="provenance">{record}</ul>
<ul>{configs}</ul>
{concepts}
</div></div>
<h2>Metrics</h2>
<p>Each cell: value (95% interval).</p>
{html_table(metrics_table(summary))}
<div class="figures{' many' if len(summary) > 1 else ''}"><div>{imgs}</div>{side}</div>
<h2>Definitions (Ludii's)</h2>
<table><tr><th>metric</th><th>definition</th><th>interval</th></tr>{defs}</table>
<p>Intervals: Wilson for shares, Student-t for means of per-playout values,
percentile bootstrap (2,000 resamples) otherwise.</p>
</body></html>
"""


# ---------------------------------------------------------------- everything

def write_csv(df: pd.DataFrame, path: Path) -> None:
    """`df.to_csv(path, index=False)` as pandas writes it (True/False, 1.0, empty NaN),
    through Arrow's writer: pandas formats each value in Python, several times slower
    than the compiled playouts that fill the table."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv
    table = pa.Table.from_pandas(df, preserve_index=False)
    columns = []
    for col in table.columns:
        if pa.types.is_floating(col.type):
            text = pc.cast(col, pa.string())
            integral = pc.match_substring_regex(text, r"^-?\d+$")
            text = pc.if_else(integral, pc.binary_join_element_wise(text, ".0", ""), text)
            col = pc.if_else(pc.is_nan(col), None, text)
        elif pa.types.is_boolean(col.type):
            col = pc.if_else(col, "True", "False")
        columns.append(col)
    pcsv.write_csv(pa.table(columns, names=table.column_names), str(path),
                   pcsv.WriteOptions(quoting_style="needed"))


def write_run(df: pd.DataFrame, summary: pd.DataFrame, out: str | Path,
              partitioned: bool = False, staging: Path | None = None,
              run: dict | None = None, showcases: list[dict] | None = None) -> list[Path]:
    """Write the tables, plots and reports into `out`; the paths written.

    `partitioned`: the playouts were written as the run went, to `staging` (moved into
    place as `out/playouts/`; None: they are in `out/playouts/` already); `df` need only
    hold the columns the plots read (PLOT_COLUMNS), or be their `tally`. What a previous
    run left in `out` that this one does not write (its playouts table or partitions) is
    removed, so `out` never holds parts of two runs.

    Every file is written beside its final name and renamed into place, all of one run's
    files under a lock on `out/.lock`, so a reader never sees half a file and two runs
    writing the same `out` at once leave one run's complete set (the one that finishes
    last: it says so). A full disk or another failure leaves `out` as it was.
    """
    from ludeme.errors import LudemeError
    out = check_out_dir(out)
    tables = () if partitioned else ("playouts.parquet", "playouts.csv")
    names = (*tables, "summary.csv", "lengths.png", "outcomes.png", "summary.md", "report.html",
             *(("run.json",) if run is not None else ()))
    paths = {name: out / name for name in names}
    if partitioned:
        paths = {"playouts": out / "playouts", **paths}
    run_id = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    temps = {name: out / f".{name}.{run_id}.tmp" for name in names}
    pages = {name: page for sc in showcases or () for name, page in sc["pages"].items()}
    games = out / f".games.{run_id}.tmp"
    if pages:
        paths["games"] = out / "games"
    try:
        if pages:
            games.mkdir()
            for name, page in pages.items():
                (games / name).write_text(page, encoding="utf-8")
        if not partitioned:
            df.to_parquet(temps["playouts.parquet"], index=False)
            write_csv(df, temps["playouts.csv"])
        summary.to_csv(temps["summary.csv"], index=False)
        if run is not None:
            temps["run.json"].write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
        for name, fig in (("lengths.png", plot_lengths(df)), ("outcomes.png", plot_outcomes(df))):
            fig.savefig(temps[name], dpi=PLOT_DPI, format="png")
        temps["summary.md"].write_text(summary_markdown(df, summary, run), encoding="utf-8")
        # The report embeds the plots written above, so it reads them from their temp names.
        plots = {"length distribution": temps["lengths.png"], "outcomes": temps["outcomes.png"]}
        temps["report.html"].write_text(report_html(df, summary, plots, showcases, run),
                                        encoding="utf-8")
        with _locked(out / ".lock"):
            previous = _read_marker(out)
            for name in names:
                os.replace(temps[name], paths[name])
            parts = out / "playouts"
            if partitioned and staging is not None:
                for unfinished in staging.rglob("*.tmp"):   # a partition cut by Ctrl-C
                    unfinished.unlink()
                if parts.is_dir():
                    shutil.rmtree(parts)
                os.replace(staging, parts)
            if partitioned:
                for stale in ("playouts.parquet", "playouts.csv"):
                    (out / stale).unlink(missing_ok=True)
            elif parts.is_dir():
                shutil.rmtree(parts)
            if run is None:
                (out / "run.json").unlink(missing_ok=True)     # not this run's
            if (out / "games").is_dir():
                shutil.rmtree(out / "games")
            if pages:
                os.replace(games, out / "games")
            (out / ".run").write_text(run_id, encoding="utf-8")
    except OSError as e:
        for t in temps.values():
            t.unlink(missing_ok=True)
        shutil.rmtree(games, ignore_errors=True)
        full = " (is the disk full?)" if e.errno == errno.ENOSPC else ""
        raise LudemeError(f"--out {out}: cannot write {e.filename or out}: {e.strerror}{full}; "
                          "the files already there were left as they were") from None
    if previous is not None and previous != _started_marker(out):
        print(f"note: another run also wrote {out} while this one ran; its files were "
              "replaced by this run's (the last to finish wins)", file=sys.stderr)
    return list(paths.values())
