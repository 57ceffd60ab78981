"""What `ludeme compare` writes: tidy tables, a Markdown report and an HTML report with forest plots.

Into `out`: `comparison.csv` (one row per pair of variants and metric),
`groups.csv` (`variant`, `group`: variants that play identically share a
group), `summary.csv` (each variant's metrics with 95% intervals, as
`ludeme run` writes it), `comparison.md`, `report.html` (self-contained) and
`forest-<metric>.svg`, one forest plot per metric.
"""

from __future__ import annotations

import html
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .compare import Comparison, fmt
from .report import check_out_dir, _markdown, _image_data, html_head, html_table, metrics_table

VERDICT_COLOURS = {"differs": "tab:red", "no evidence of a difference": "tab:gray",
                   "not comparable": "tab:olive"}


def distinct_tests(c: Comparison) -> pd.DataFrame:
    """One row per distinct test (identical data counted once), pairs within a group left out.

    `pair` names the first pair of variants with that data, with their groups.
    """
    t = c.table[c.table["verdict"] != "plays identically"].copy()
    t["pair"] = (t["variant_a"] + " [" + t["group_a"] + "] vs " + t["variant_b"] + " ["
                 + t["group_b"] + "]")
    t["pairs"] = t.groupby("test_id")["pair"].transform("size")
    return t.drop_duplicates("test_id").reset_index(drop=True)


def plot_forest(rows: pd.DataFrame, metric: str) -> Figure:
    """A forest plot: each distinct pair's estimate with its 95% interval, coloured by verdict.

    The margins are set from the labels' length, not by a layout engine: a comparison
    writes one plot per metric (about ninety), and constrained layout took a third of the
    time of each."""
    labels = [p if len(p) < 70 else p[:67] + "..." for p in rows["pair"]]
    height = 0.9 + 0.32 * max(1, len(rows))
    fig = Figure(figsize=(8.5, height))
    left = min(0.6, 0.03 + 0.0075 * max((len(p) for p in labels), default=0))
    fig.subplots_adjust(left=left, right=0.98, bottom=0.5 / height, top=1 - 0.3 / height)
    ax = fig.subplots()
    y = np.arange(len(rows))[::-1]
    colours = [VERDICT_COLOURS.get(v, "black") for v in rows["verdict"]]
    low, high, est = (rows[k].to_numpy(dtype=float) for k in ("ci_low", "ci_high", "estimate"))
    ok = np.isfinite(low) & np.isfinite(high)
    ax.hlines(y[ok], low[ok], high[ok], colors=[c for c, k in zip(colours, ok) if k],
              linewidth=2)
    ok = np.isfinite(est)
    ax.scatter(est[ok], y[ok], s=25, c=[c for c, k in zip(colours, ok) if k], zorder=3)
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_yticks(y, labels, fontsize=7)
    ax.set_ylim(-0.5, len(rows) - 0.5)
    effect = rows["effect_name"].iloc[0] if metric == "Outcomes" and len(rows) else ""
    ax.set_xlabel(f"{effect} (no interval)" if effect else "difference a - b, 95% interval")
    ax.set_title(f"{metric}: red = differs after correction", fontsize=9)
    return fig


def groups_markdown(c: Comparison) -> list[str]:
    """The groups of identical play as Markdown lines."""
    lines = ["| group | variants | found by |", "|---|---|---|"]
    for group, rows in c.groups.groupby("group", sort=False):
        method = rows["method"].iloc[0]
        compared = rows["playouts_compared"].iloc[0]
        how = (f"the same legal moves at every step on {rows['seeds'].iloc[0]} shared seeds"
               + (f", and the same playout rows on all {compared} seeds of the run"
                  if compared else "")
               if method == "legal moves" else "identical playout rows on shared seeds")
        lines.append(f"| {group} | {', '.join(rows['variant'])} | {how} |")
    return lines


def _cell(r) -> str:
    """estimate [low, high]."""
    if np.isfinite(r["ci_low"]):
        return f"{fmt(r['estimate'])} [{fmt(r['ci_low'])}, {fmt(r['ci_high'])}]"
    return fmt(r["estimate"])


def headline(c: Comparison) -> list[str]:
    """Per distinct pair of groups: the metrics that differ, in words."""
    d = distinct_tests(c)
    lines = []
    for (ga, gb), rows in d.groupby(["group_a", "group_b"], sort=False):
        differs = rows[rows["verdict"] == "differs"].drop_duplicates("metric")
        first = rows.iloc[0]
        what = ", ".join(f"{r['metric']} ({_cell(r)})" for _, r in differs.iterrows())
        lines.append(f"- **{first['variant_a']} [{ga}] vs {first['variant_b']} [{gb}]**: "
                     + (f"differ in {what}." if what else
                        "no evidence of a difference in any metric."))
    return lines


def comparison_markdown(c: Comparison, plots: dict[str, Path]) -> str:
    """comparison.md."""
    d = distinct_tests(c)
    family = int(c.table["family_size"].iloc[0])
    name = {"holm": "Holm", "bh": "Benjamini-Hochberg"}[c.correction]
    games = ", ".join(dict.fromkeys(str(v.rows["game"].iloc[0]) for v in c.variants))
    lines = [f"# Comparing variants: {games}", "",
             *[f"{n}" for n in c.notes], "",
             f"{len(c.variants)} variants, {c.groups['group'].nunique()} groups of identical "
             f"play. Every metric of every pair is tested; the {family} distinct tests form one "
             f"family, corrected by {name} at level {c.alpha}. A verdict \"differs\" means the "
             f"adjusted p-value is below {c.alpha}; \"no evidence of a difference\" is not proof "
             f"that there is none (more playouts narrow the intervals).", "",
             "## Groups of variants that play identically", "", *groups_markdown(c), "",
             "Variants in one group produce the same games from the same seeds, so they are "
             "compared once: each row below stands for every pair across its two groups.", "",
             "## What differs", "", *headline(c), "",
             "## Each variant's metrics", "", "Each cell: value [95% interval].", "",
             _markdown(metrics_table(c.summary)), "", "## Every test", ""]
    for metric, rows in d.groupby("metric", sort=False):
        lines += [f"### {metric}", "", f"![{metric}]({plots[metric].name})", "",
                  "| pair | estimate [95% CI] | test | p | p adjusted | effect | verdict |",
                  "|---|---|---|---|---|---|---|"]
        for _, r in rows.iterrows():
            effect = f"{r['effect_name']} {fmt(r['effect_size'])}" if r["effect_name"] else "–"
            lines.append(f"| {r['pair']} | {_cell(r)} | {r['test']} | {fmt(r['p_value'])} | "
                         f"{fmt(r['p_adjusted'])} | {effect} | {r['verdict']} |")
        lines.append("")
    lines += ["## Methods", "", *_methods(), ""]
    return "\n".join(lines)


def _methods() -> list[str]:
    """The tests' table from `ludeme.analysis.compare`'s docstring."""
    from ludeme.analysis import compare
    return [line for line in (compare.__doc__ or "").splitlines() if line.startswith("|")]


def comparison_html(c: Comparison, plots: dict[str, Path]) -> str:
    """report.html: the Markdown report's content with the forest plots embedded."""
    esc = html.escape
    d = distinct_tests(c)
    md = comparison_markdown(c, plots).split("## Each variant's metrics")[0]
    intro = "".join(f"<p>{esc(line)}</p>" if not line.startswith(("|", "#", "-")) else ""
                    for line in md.splitlines() if line.strip())
    groups = "".join(f"<tr><td>{esc(g)}</td><td>{esc(', '.join(rows['variant']))}</td>"
                     f"<td>{esc(rows['method'].iloc[0])}</td></tr>"
                     for g, rows in c.groups.groupby("group", sort=False))
    heads = "".join(f"<li>{esc(x.removeprefix('- ').replace('**', ''))}</li>" for x in headline(c))
    sections = []
    for metric, rows in d.groupby("metric", sort=False):
        table = rows[["pair", "estimate", "ci_low", "ci_high", "test", "p_value", "p_adjusted",
                      "effect_name", "effect_size", "verdict"]]
        sections.append(f"<h3>{esc(metric)}</h3><p><img alt=\"{esc(metric)}\" "
                        f"src=\"{_image_data(plots[metric])}\"></p>"
                        + table.to_html(index=False, float_format=lambda x: f"{x:.4g}"))
    methods = "".join("<tr>" + "".join(f"<td>{esc(x.strip())}</td>"
                                       for x in line.strip("|").split("|")) + "</tr>"
                      for line in _methods()[2:])
    return html_head(md.splitlines()[0].removeprefix("# ")) + f"""
{intro}
<h2>Groups of variants that play identically</h2>
<table><tr><th>group</th><th>variants</th><th>found by</th></tr>{groups}</table>
<h2>What differs</h2><ul>{heads}</ul>
<h2>Each variant's metrics</h2><p>Each cell: value [95% interval].</p>
{html_table(metrics_table(c.summary))}
<h2>Every test (one forest plot per metric)</h2>
{''.join(sections)}
<h2>Methods</h2>
<table>{methods}</table>
</body></html>
"""


def write_comparison(c: Comparison, out: str | Path) -> list[Path]:
    """Write everything into `out`; the paths written."""
    out = check_out_dir(out)
    paths = [out / "comparison.csv", out / "groups.csv", out / "summary.csv"]
    c.table.to_csv(paths[0], index=False)
    c.groups.to_csv(paths[1], index=False)
    c.summary.to_csv(paths[2], index=False)
    plots = {}
    # SVG with its text kept as text: a comparison draws about ninety plots, and drawing
    # each tick label as glyphs into a PNG took most of the command's time; no date in
    # the file, so the same comparison writes the same bytes.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ludeme"}):
        for metric, rows in distinct_tests(c).groupby("metric", sort=False):
            plots[metric] = out / f"forest-{metric}.svg"
            plot_forest(rows, metric).savefig(plots[metric], format="svg",
                                              metadata={"Date": None})
    (out / "comparison.md").write_text(comparison_markdown(c, plots), encoding="utf-8")
    (out / "report.html").write_text(comparison_html(c, plots), encoding="utf-8")
    return [*paths, out / "comparison.md", out / "report.html", *plots.values()]
