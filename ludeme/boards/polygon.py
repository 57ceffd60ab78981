"""Outlines of custom board shapes: a polygon walked from side lengths, inflated a little,
and the lattice points inside it (Ludii's CustomOnHex / CustomOnTri and main.math.Polygon).

    outline = sides_outline([3, 4], hex_xy)      # a limping hexagon of sides 3 and 4
    inside = lattice_inside(outline, hex_xy, margin=3)
"""

from __future__ import annotations

import math

from .geometry import clockwise

# Row and column steps along the six sides of a hexagonal or triangular outline.
SIX_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))


def sides_outline(sides: list[int], xy) -> list[tuple[float, float]]:
    """The outline walked from side lengths (counted in sites, so each side is one step
    shorter), turning at each corner; at least five sides are walked, repeating the list.
    `xy(row, col)` places a lattice point."""
    direction, row, col = 1, 0, 0
    points = [xy(row, col)]
    for n in range(max(5, len(sides))):
        step = sides[n % len(sides)]
        step = step + 1 if step < 0 else step - 1
        direction = (direction + (-1 if step < 0 else 1) + 6) % 6
        if step > 0:
            row += step * SIX_STEPS[direction][0]
            col += step * SIX_STEPS[direction][1]
            points.append(xy(row, col))
    return points


def outline_from_sides(sides: list[int], steps) -> list[tuple[float, float]]:
    """The corners of the outline walked from (0, 0) along the side lengths (Ludii's
    Polygon.fromSides): each side turns to the next of the (row, column) `steps`, to the
    one before for a negative length, and goes that length (backwards when negative); a
    corner is (column, row)."""
    step, row, col = len(steps) - 1, 0, 0
    points = [(0.0, 0.0)]
    for n in sides:
        step = (step + (-1 if n < 0 else 1)) % len(steps)
        row += n * steps[step][0]
        col += n * steps[step][1]
        points.append((float(col), float(row)))
    return points


def inflate(points: list[tuple[float, float]], amount: float) -> list[tuple[float, float]]:
    """Push each corner outwards by about `amount`, so that lattice points on the outline
    fall inside it."""
    n = len(points)
    shifts = []
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = points[i], points[(i + 1) % n], points[(i + 2) % n]
        if clockwise(ax, ay, bx, by, cx, cy):
            vin, vout = (bx - ax, by - ay), (bx - cx, by - cy)
        else:
            vin, vout = (ax - bx, ay - by), (cx - bx, cy - by)
        vin, vout = _unit(vin, amount), _unit(vout, amount)
        shifts.append(((vin[0] + vout[0]) * 0.5, (vin[1] + vout[1]) * 0.5))
    return [(x + shifts[(i - 1) % n][0], y + shifts[(i - 1) % n][1])
            for i, (x, y) in enumerate(points)]


def _unit(v, length: float):
    mag = math.hypot(*v)
    if mag < 1e-7:
        return (v[0] * length, v[1] * length)
    return (v[0] / mag * length, v[1] / mag * length)


def contains(points: list[tuple[float, float]], x: float, y: float) -> bool:
    """Whether (x, y) lies inside the polygon (even-odd rule, as Ludii tests it)."""
    odd = False
    j = len(points) - 1
    for i, (ix, iy) in enumerate(points):
        jx, jy = points[j]
        if ((iy < y <= jy) or (jy < y <= iy)) and (ix <= x or jx <= x):
            odd ^= ix + (y - iy) / (jy - iy) * (jx - ix) < x
        j = i
    return odd


def lattice_inside(points, xy, margin: int) -> list[tuple[float, float]]:
    """The lattice points `xy(row, col)` inside the polygon, row by row from the bottom;
    rows and columns are searched over the polygon's bounds (in x and y, as Ludii does)
    widened by `margin`."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    from_col, to_col = int(min(xs)) - margin, int(max(xs)) + margin
    from_row, to_row = int(min(ys)) - margin, int(max(ys)) + margin
    return [xy(r, c) for r in range(from_row, to_row + 1) for c in range(from_col, to_col + 1)
            if contains(points, *xy(r, c))]
