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

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from .compare import Comparison, fmt
from .report import check_out_dir, _markdown, _image_data, html_head, html_table, metrics_table

# matplotlib's tab:red, tab:gray and tab:olive
VERDICT_COLOURS = {"differs": "#d62728", "no evidence of a difference": "#7f7f7f",
                   "not comparable": "#bcbd22"}


def distinct_tests(c: Comparison) -> pd.DataFrame:
    """One row per distinct test (identical data counted once), pairs within a group left out.

    `pair` names the first pair of variants with that data, with their groups.
    """
    t = c.table[c.table["verdict"] != "plays identically"].copy()
    t["pair"] = (t["variant_a"] + " [" + t["group_a"] + "] vs " + t["variant_b"] + " ["
                 + t["group_b"] + "]")
    t["pairs"] = t.groupby("test_id")["pair"].transform("size")
    return t.drop_duplicates("test_id").reset_index(drop=True)


def forest_svg(rows: pd.DataFrame, metric: str) -> str:
    """A forest plot as SVG text: each distinct pair's estimate with its 95% interval,
    coloured by verdict, a line at zero, and an axis whose ticks matplotlib's locator picks.

    Written directly rather than drawn by matplotlib: a comparison writes one plot per
    metric (about ninety), and matplotlib took a tenth of a second for each, most of a
    comparison's time; the same rows give the same bytes."""
    esc = html.escape
    labels = [p if len(p) < 70 else p[:67] + "..." for p in rows["pair"]]
    low, high, est = (rows[k].to_numpy(dtype=float) for k in ("ci_low", "ci_high", "estimate"))
    colours = [VERDICT_COLOURS.get(v, "#000000") for v in rows["verdict"]]
    row_h, top, bottom, width = 24, 34, 46, 820
    left = min(480, 12 + 6.2 * max((len(p) for p in labels), default=0))
    right = width - 16
    height = top + bottom + row_h * max(1, len(rows))
    seen = np.concatenate([v[np.isfinite(v)] for v in (low, high, est)] + [np.zeros(1)])
    lo, hi = float(seen.min()), float(seen.max())
    if hi - lo < 1e-12:
        lo, hi = lo - 1.0, hi + 1.0
    ticks = [t for t in MaxNLocator(nbins=6).tick_values(lo, hi) if lo - 1e-9 <= t <= hi + 1e-9]
    pad = 0.05 * (hi - lo)
    lo, hi = lo - pad, hi + pad

    def x(v: float) -> float:
        return round(left + (v - lo) / (hi - lo) * (right - left), 2)

    def y(i: int) -> float:
        return top + row_h * i + row_h / 2

    axis_y = height - bottom
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{(left + right) / 2}" y="20" font-size="13" text-anchor="middle">'
             f'{esc(metric)}: red = differs after correction</text>',
             f'<line x1="{x(0.0)}" y1="{top - 6}" x2="{x(0.0)}" y2="{axis_y}" '
             f'stroke="black" stroke-width="1"/>',
             f'<line x1="{left}" y1="{axis_y}" x2="{right}" y2="{axis_y}" stroke="black"/>']
    for t in ticks:
        parts.append(f'<line x1="{x(t)}" y1="{axis_y}" x2="{x(t)}" y2="{axis_y + 5}" '
                     f'stroke="black"/><text x="{x(t)}" y="{axis_y + 18}" font-size="11" '
                     f'text-anchor="middle">{esc(f"{t:g}")}</text>')
    effect = rows["effect_name"].iloc[0] if metric == "Outcomes" and len(rows) else ""
    xlabel = f"{effect} (no interval)" if effect else "difference a - b, 95% interval"
    parts.append(f'<text x="{(left + right) / 2}" y="{height - 8}" font-size="12" '
                 f'text-anchor="middle">{esc(xlabel)}</text>')
    for i, (label, c) in enumerate(zip(labels, colours)):
        parts.append(f'<text x="{left - 6}" y="{y(i) + 4}" font-size="10" '
                     f'text-anchor="end">{esc(label)}</text>')
        if np.isfinite(low[i]) and np.isfinite(high[i]):
            parts.append(f'<line x1="{x(low[i])}" y1="{y(i)}" x2="{x(high[i])}" y2="{y(i)}" '
                         f'stroke="{c}" stroke-width="2.5"/>')
        if np.isfinite(est[i]):
            parts.append(f'<circle cx="{x(est[i])}" cy="{y(i)}" r="4" fill="{c}"/>')
    parts.append("</svg>\n")
    return "\n".join(parts)


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
    for metric, rows in distinct_tests(c).groupby("metric", sort=False):
        plots[metric] = out / f"forest-{metric}.svg"
        plots[metric].write_text(forest_svg(rows, metric), encoding="utf-8")
    (out / "comparison.md").write_text(comparison_markdown(c, plots), encoding="utf-8")
    (out / "report.html").write_text(comparison_html(c, plots), encoding="utf-8")
    return [*paths, out / "comparison.md", out / "report.html", *plots.values()]
