"""What `ludeme run` writes: the tidy tables, and a report a person reads.

`write_run(df, summary, out)` writes into `out`:
`playouts.parquet` and `playouts.csv` (one row per playout; a partitioned run
has written its playouts to `playouts/` already, and `df` then holds only the
columns the plots read), `summary.csv` (one row per game/ruleset/options and
matchup of agents), `summary.md` and `report.html` (the metrics with
their intervals, how they are defined, and two plots), `lengths.png` (the
distribution of playout lengths in turns) and `outcomes.png` (each player's
share of wins, and the share with no winner, with 95% Wilson intervals). Each
plot has one panel per configuration (per ruleset with `--all-rulesets`).
"""

from __future__ import annotations

import base64
import contextlib
import errno
import html
import math
import os
import shutil
import sys
import uuid
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ludeme.errors import printable
from .metrics import METRICS, SUMMARY_KEYS, matchups, single_config, wilson

PANEL_COLUMNS = 5


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
        if len(col) and bool((col == col.iloc[0]).all()):
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


def _panels(count: int, height: float = 3.0) -> tuple[Figure, list]:
    """A figure with `count` panels, at most PANEL_COLUMNS to a row."""
    cols = min(PANEL_COLUMNS, count)
    rows = math.ceil(count / cols)
    fig = Figure(figsize=(max(5.0, 3.6 * cols), height * rows + 0.4), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
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
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("turns")
        ax.set_ylabel("playouts")
        ax.legend(fontsize=7)
    fig.suptitle("Playout length (turns; a moveAgain chain is one turn)", fontsize=10)
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
        ax.set_title(f"{label}\nn={playouts_in(rows)}", fontsize=9)
        ax.set_ylabel("share of playouts")
        ax.tick_params(axis="x", labelsize=7, rotation=30)
    fig.suptitle("Outcomes (95% Wilson intervals)", fontsize=10)
    return fig


# ---------------------------------------------------------------- tables

def _fmt(x) -> str:
    """A number in four significant digits; NaN spelled out."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NaN"
    if isinstance(x, (str, int, np.integer)):
        return str(x)
    return f"{x:.4g}"


def metrics_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Metric rows x configuration columns, each cell "value [low, high]"."""
    names = ["n", "playouts_per_sec", *METRICS]
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
                cells.append(f"{_fmt(value)} [{_fmt(r[name + '_ci_low'])}, "
                             f"{_fmt(r[name + '_ci_high'])}]")
            else:
                cells.append(_fmt(value))
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


def run_record(info: dict | None) -> list[str]:
    """What makes a run citable, one line each: the command, the version, the backends and
    the playouts each played, whether it was interrupted, the seeds."""
    if not info:
        return []
    played = ", ".join(f"{b}: {k} playouts" for b, k in sorted(info["played"].items()))
    return [f"command: {info['command'] or '(library call)'}",
            f"ludeme version: {info['version']}",
            f"backend: {played or 'none'}",
            f"interrupted: {'yes (the playouts that finished are kept)' if info['interrupted'] else 'no'}",
            f"seeds: run seed {info['seed']}; {SEED_RULE}"]


def summary_markdown(df: pd.DataFrame, summary: pd.DataFrame, info: dict | None = None) -> str:
    """summary.md: what was run, the metrics table, the plots and the definitions."""
    first = df.iloc[0]
    lines = [f"# {md(_title(summary))}", "",
             f"{playouts_in(df)} playouts ({md(_players(summary))}); run seed derived per playout (`seed` column), "
             f"ludeme {first['engine_version']}; turn limit {first['turn_limit']} "
             f"(1250 per player unless changed), a cut game counts as a timeout.", ""]
    lines += [f"- {md(x)}" for x in run_record(info)] + ([""] if info else [])
    for _, r in summary.iterrows():
        lines.append(f"- **{md(config_label(r))}**: game {md(r['game'])}; options: "
                     f"{md(r['options'] or '(defaults)')}")
    lines += ["", "Each cell: value [95% interval].", "", _markdown(metrics_table(summary)), "",
              "![length distribution](lengths.png)", "", "![outcomes](outcomes.png)", "",
              "## Definitions (Ludii's)", "", "| metric | definition | interval |",
              "|---|---|---|"]
    lines += [f"| {md(a)} | {b} | {c} |" for a, b, c in _definitions()]
    lines += ["", "Intervals: Wilson for shares, Student-t for means of per-playout values, "
              "percentile bootstrap (2,000 resamples) otherwise.", ""]
    return "\n".join(lines)


def _png_data(path: Path) -> str:
    """A PNG file as a data: URI, so report.html stands alone."""
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def html_head(title: str) -> str:
    """The start of a self-contained HTML report, to the <h1> with its (escaped) title."""
    title = html.escape(title)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 110em; }}
table {{ border-collapse: collapse; font-size: 0.85em; }}
td, th {{ border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }}
img {{ max-width: 100%; }}
</style></head><body>
<h1>{title}</h1>"""


def report_html(df: pd.DataFrame, summary: pd.DataFrame, plots: dict[str, Path],
                info: dict | None = None) -> str:
    """report.html: the same content as summary.md, plots embedded, one file."""
    esc = html.escape
    configs = "".join(f"<li><b>{esc(config_label(r))}</b>: game {esc(r['game'])}; options: "
                      f"{esc(r['options'] or '(defaults)')}</li>" for _, r in summary.iterrows())
    defs = "".join(f"<tr><td>{esc(a)}</td><td>{esc(b)}</td><td>{esc(c)}</td></tr>"
                   for a, b, c in _definitions())
    imgs = "".join(f'<p><img alt="{esc(k)}" src="{_png_data(p)}"></p>' for k, p in plots.items())
    record = "".join(f"<li>{esc(x)}</li>" for x in run_record(info))
    first = df.iloc[0]
    return html_head(_title(summary)) + f"""
<p>{playouts_in(df)} playouts ({esc(_players(summary))}), ludeme {esc(str(first['engine_version']))};
turn limit {first['turn_limit']}; a cut game counts as a timeout.
Each cell: value [95% interval].</p>
<ul>{record}</ul>
<ul>{configs}</ul>
{metrics_table(summary).to_html(escape=True)}
{imgs}
<h2>Definitions (Ludii's)</h2>
<table><tr><th>metric</th><th>definition</th><th>interval</th></tr>{defs}</table>
<p>Intervals: Wilson for shares, Student-t for means of per-playout values,
percentile bootstrap (2,000 resamples) otherwise.</p>
</body></html>
"""


# ---------------------------------------------------------------- everything

def check_out_dir(out: str | Path, make: bool = True) -> Path:
    """`out` as a directory ludeme can write into (made if missing and `make`), or a LudemeError:
    a name that is not UTF-8, a link to nowhere or in a loop, a file on the way, no permission.
    What it echoes of the name is escaped (`printable`)."""
    from ludeme.errors import LudemeError, printable
    out = Path(out)
    try:
        str(out).encode("utf-8")
    except UnicodeEncodeError:      # a name of bytes that are not UTF-8 (os.fsencode's escapes)
        shown = printable(os.fsencode(out).decode("utf-8", "backslashreplace"))
        raise LudemeError(f"--out {shown}: the name is not valid UTF-8; give a directory "
                          "whose name is UTF-8 text") from None
    for p in [out, *out.parents]:
        if p.is_symlink() and not p.exists():   # a link to nowhere, or in a loop
            what = f"--out {printable(str(out))}" + ("" if p == out else f": {printable(str(p))}")
            try:
                os.stat(p)
                why = "cannot be followed"
            except OSError as e:
                why = ("is a symbolic link in a loop" if e.errno == errno.ELOOP else
                       f"is a symbolic link to {printable(os.readlink(p))}, which does not exist")
            raise LudemeError(f"{what} {why}; give a directory (made if missing) for the "
                              "tables and reports")
        if p.exists():
            if not p.is_dir():
                what = printable(f"--out {out}" if p == out else f"--out {out}: {p}")
                raise LudemeError(f"{what} is a file, not a directory; give a directory "
                                  "(made if missing) for the tables and reports")
            if not os.access(p, os.W_OK | os.X_OK):
                raise LudemeError(printable(f"--out {out}: cannot write into {p}: "
                                            "permission denied"))
            break
    if make:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise LudemeError(printable(f"--out {out}: cannot make the directory: "
                                        f"{e.strerror}")) from None
    return out


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
              info: dict | None = None) -> list[Path]:
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
    names = (*tables, "summary.csv", "lengths.png", "outcomes.png", "summary.md", "report.html")
    paths = {name: out / name for name in names}
    if partitioned:
        paths = {"playouts": out / "playouts", **paths}
    run_id = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    temps = {name: out / f".{name}.{run_id}.tmp" for name in names}
    try:
        if not partitioned:
            df.to_parquet(temps["playouts.parquet"], index=False)
            write_csv(df, temps["playouts.csv"])
        summary.to_csv(temps["summary.csv"], index=False)
        for name, fig in (("lengths.png", plot_lengths(df)), ("outcomes.png", plot_outcomes(df))):
            fig.savefig(temps[name], dpi=80, format="png")
        temps["summary.md"].write_text(summary_markdown(df, summary, info), encoding="utf-8")
        # The report embeds the plots written above, so it reads them from their temp names.
        plots = {"length distribution": temps["lengths.png"], "outcomes": temps["outcomes.png"]}
        temps["report.html"].write_text(report_html(df, summary, plots, info), encoding="utf-8")
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
            (out / ".run").write_text(run_id, encoding="utf-8")
    except OSError as e:
        for t in temps.values():
            t.unlink(missing_ok=True)
        full = " (is the disk full?)" if e.errno == errno.ENOSPC else ""
        raise LudemeError(f"--out {out}: cannot write {e.filename or out}: {e.strerror}{full}; "
                          "the files already there were left as they were") from None
    if previous is not None and previous != _started_marker(out):
        print(f"note: another run also wrote {out} while this one ran; its files were "
              "replaced by this run's (the last to finish wins)", file=sys.stderr)
    return list(paths.values())


_MARKERS: dict[Path, str | None] = {}


def _read_marker(out: Path) -> str | None:
    try:
        return (out / ".run").read_text(encoding="utf-8")
    except OSError:
        return None


def _started_marker(out: Path) -> str | None:
    return _MARKERS.get(out.resolve())


def note_run_start(out: str | Path) -> None:
    """Remember which run's files `out` held when this run started (to notice another run)."""
    _MARKERS[Path(out).resolve()] = _read_marker(Path(out))


@contextlib.contextmanager
def _locked(path: Path):
    """An exclusive lock on `path` (POSIX flock; no lock where flock is missing)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: renames alone
        yield
        return
    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
