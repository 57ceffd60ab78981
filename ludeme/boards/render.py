"""Drawing a board as SVG: cells, lines, and every site's index and label."""

from __future__ import annotations

import math
from html import escape

from .geometry import CELL
from .measure import phase_of

PHASE_FILLS = ("#f3e6c8", "#d9b98a", "#c9d9ec", "#d6ead1", "#ecd3e3", "#e8e8e8")
# A piece's fill per owner: 0 (neutral or shared) grey, then players 1, 2, ... (the
# viewer's pages and the notebook pictures alike).
PLAYER_COLOURS = ("#9e9e9e", "#ffffff", "#222222", "#d32f2f", "#1e63c8", "#2e9d4a", "#f2c200",
                  "#8e44ad", "#e67e22")


def board_svg(board, site_type: str, size: float = 640.0, title: str = "",
              pieces=()) -> str:
    """SVG text: faces shaded by phase, edges as lines, sites numbered and labelled; and
    `pieces` drawn over their sites, each `(site, owner, kind, text, name)`: a shape per
    kind (`kind % 4`: disc, square, hexagon, triangle) in the owner's colour
    (PLAYER_COLOURS), `text` on it (a count or a height), `name` as its tooltip."""
    g = board.planar
    topo = board.topology(site_type)
    points = [(v.x, v.y) for v in g.vertices] + [(s.x, s.y) for s in topo.sites]
    if not points:
        points = [(0.0, 0.0)]
    x0 = min(p[0] for p in points)
    x1 = max(p[0] for p in points)
    y0 = min(p[1] for p in points)
    y1 = max(p[1] for p in points)
    unit = g.average_edge_length() or 1.0
    spacing = _site_spacing(topo) or unit
    span = max(x1 - x0, y1 - y0, unit)
    scale = max(min(size / span, 90.0 / spacing), 44.0 / spacing)   # 44-90px between sites
    pad = 0.6 * max(unit, spacing) * scale + 12
    head = 24 if title else 0
    width = max((x1 - x0) * scale + 2 * pad, 7.5 * len(title) + 20)
    height = (y1 - y0) * scale + 2 * pad + head
    left = (width - (x1 - x0) * scale) / 2

    def sx(x):
        return round((x - x0) * scale + left, 2)

    def sy(y):   # y grows upward on the board, downward in SVG
        return round((y1 - y) * scale + pad + head, 2)

    px = spacing * scale
    font = max(8.0, min(16.0, 0.3 * px))
    small = max(7.0, min(12.0, 0.2 * px))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>']
    if title:
        out.append(f'<text x="{width / 2:.0f}" y="18" text-anchor="middle" font-size="14">'
                   f'{escape(title, quote=False)}</text>')
    out.append('<g stroke="#7a5c33" stroke-width="1" fill="none">')
    for f in g.faces:
        pts = " ".join(f"{sx(v.x)},{sy(v.y)}" for v in f.vertices)
        phase = phase_of(f.props) if site_type == CELL else -1
        fill = PHASE_FILLS[phase % len(PHASE_FILLS)] if phase >= 0 else "#faf3e3"
        out.append(f'<polygon points="{pts}" fill="{fill}"/>')
    for e in g.edges:
        out.append(f'<line x1="{sx(e.a.x)}" y1="{sy(e.a.y)}" x2="{sx(e.b.x)}" y2="{sy(e.b.y)}"/>')
    out.append("</g>")
    radius = max(6.0, min(0.32 * px, font * 1.3))
    # The site's radius on the root and each site's centre on its group let a page draw
    # pieces over the picture (`ludeme.analysis.viewer`).
    out[0] = out[0][:-1] + f' data-site-radius="{radius:.1f}">'
    out.append('<g text-anchor="middle">')
    for s in topo.sites:
        cx, cy = sx(s.x), sy(s.y)
        out.append(f'<g class="site" data-site="{s.index}" data-label="{escape(s.label)}" '
                   f'data-x="{cx}" data-y="{cy}">')
        if site_type != CELL:
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{radius:.1f}" fill="white" stroke="#333"/>')
        out.append(f'<text x="{cx}" y="{cy + font * 0.2:.2f}" font-size="{font:.1f}" '
                   f'font-weight="bold" fill="#111">{s.index}</text>')
        out.append(f'<text x="{cx}" y="{cy + font * 0.2 + small:.2f}" font-size="{small:.1f}" '
                   f'fill="#555">{escape(s.label)}</text></g>')
    out.append("</g>")
    centres = {s.index: (sx(s.x), sy(s.y)) for s in topo.sites}
    for site, owner, kind, text, name in pieces:
        out.append(_piece(site, owner, kind, text, name, *centres[site], 0.9 * radius))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _piece(site: int, owner: int, kind: int, text: str, name: str, x: float, y: float,
           r: float) -> str:
    """One piece over its site, as the viewer's script draws it."""
    fill = PLAYER_COLOURS[owner] if 0 < owner < len(PLAYER_COLOURS) else PLAYER_COLOURS[0]
    style = f'fill="{fill}" stroke="#333" stroke-width="2"'
    if kind % 4 == 1:
        shape = (f'<rect x="{x - r * 0.85:.1f}" y="{y - r * 0.85:.1f}" width="{r * 1.7:.1f}" '
                 f'height="{r * 1.7:.1f}" rx="2" {style}/>')
    elif kind % 4 in (2, 3):
        n = 6 if kind % 4 == 2 else 3
        pts = " ".join(f"{x + r * math.cos(2 * math.pi * i / n - math.pi / 2):.1f},"
                       f"{y + r * math.sin(2 * math.pi * i / n - math.pi / 2):.1f}"
                       for i in range(n))
        shape = f'<polygon points="{pts}" {style}/>'
    else:
        shape = f'<circle cx="{x}" cy="{y}" r="{r:.1f}" {style}/>'
    label = ""
    if text:
        ink = "#fff" if fill == "#222222" else "#000"
        label = (f'<text x="{x}" y="{y + r * 0.3:.1f}" font-size="{r * 0.85:.1f}" '
                 f'text-anchor="middle" font-weight="bold" fill="{ink}">{escape(text)}</text>')
    return (f'<g class="piece" data-site="{site}" data-who="{owner}"><title>{escape(name)}'
            f"</title>{shape}{label}</g>")


def _site_spacing(topo) -> float:
    """Median distance from a site to its nearest adjacent site."""
    gaps = []
    for s in topo.sites:
        near = [((t.x - s.x) ** 2 + (t.y - s.y) ** 2) ** 0.5
                for t in (topo.sites[i] for i in topo.neighbours["Adjacent"][s.index])]
        if near:
            gaps.append(min(near))
    gaps.sort()
    return gaps[len(gaps) // 2] if gaps else 0.0


def board_png(board, site_type: str, path: str, title: str = "", dpi: int = 120) -> None:
    """The same picture as `board_svg`, drawn with matplotlib into a PNG file."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Polygon

    g = board.planar
    topo = board.topology(site_type)
    spacing = _site_spacing(topo) or g.average_edge_length() or 1.0
    xs = [v.x for v in g.vertices] + [s.x for s in topo.sites]
    ys = [v.y for v in g.vertices] + [s.y for s in topo.sites]
    width = (max(xs) - min(xs)) / spacing + 2 if xs else 3
    height = (max(ys) - min(ys)) / spacing + 2 if ys else 3
    scale = min(0.9, 14.0 / max(width, height))
    fig, ax = plt.subplots(figsize=(max(3.0, width * scale), max(3.0, height * scale + 0.4)))
    for f in g.faces:
        phase = phase_of(f.props) if site_type == CELL else -1
        fill = PHASE_FILLS[phase % len(PHASE_FILLS)] if phase >= 0 else "#faf3e3"
        ax.add_patch(Polygon([(v.x, v.y) for v in f.vertices], closed=True, facecolor=fill,
                             edgecolor="#7a5c33", linewidth=0.8))
    for e in g.edges:
        ax.plot([e.a.x, e.b.x], [e.a.y, e.b.y], color="#7a5c33", linewidth=0.8, zorder=1)
    font = max(5.0, min(11.0, 60.0 * scale / 2))
    for s in topo.sites:
        if site_type != CELL:
            ax.add_patch(Circle((s.x, s.y), 0.32 * spacing, facecolor="white", edgecolor="#333",
                                zorder=2))
        ax.text(s.x, s.y + 0.06 * spacing, str(s.index), ha="center", va="center",
                fontsize=font, fontweight="bold", zorder=3)
        ax.text(s.x, s.y - 0.16 * spacing, s.label, ha="center", va="center",
                fontsize=font * 0.7, color="#555", zorder=3)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.margins(0.06)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    fig.savefig(path, dpi=dpi, bbox_inches="tight", facecolor="white")
    plt.close(fig)
