"""What board ludemes share: constant arithmetic, literal arrays of numbers, sizes.

Board ludemes are typed ludemes like the rules' (`ludeme.model.ludemes.base`): one
class per Ludii ludeme, registered with `@ludeme(keyword)` and built by the same
`Builder`, every argument declared with `P(...)` and read or refused. A graph
function (category `GraphFn`, Ludii's GraphFunction) builds a `PlanarGraph` with
`build(site_type)`; its sizes are integers or constant arithmetic (category `Dim`,
Ludii's DimFunction and FloatFunction), evaluated when the board is built:

    (board (rectangle (+ 4 1) 6))      a 5 x 6 board
    (board (rotate (/ 90 2) (square 3)))

Keywords shared with rule ludemes (`remove`, `add`, `union`, `+`, ...) are told
apart by the category the argument expects.
"""

from __future__ import annotations

import math

from ludeme.errors import LudemeError
from ludeme.model.ludemes.base import NOT_YET, Dim, GraphFn, Lit, LitFloat, LitInt, P, _NO, ludeme
from ludeme.language.syntax import Array, Float, Int, Node, Range
from ludeme.boards.geometry import f32

# Every ludeme here declares its concepts: none (a board's shape concepts are
# `ludeme.analysis.concepts.shape_concepts`).
CONCEPTS_REVIEWED = True

# Largest board dimension accepted (Ludii's corpus goes up to 84); beyond it a board
# would take minutes to build, so it is refused rather than left to hang.
MAX_DIM = 100

# Ludii graph ludemes this package does not build yet: "not supported yet", not "unknown".
# (mesh N) scatters points with an unseeded java.util.Random, so no two Ludii runs share a
# board; (mesh {{x y} ...}) fails in Ludii's CustomOnMesh (it evaluates the missing count).
for _keyword in ("mesh",):
    NOT_YET[_keyword] = GraphFn


# ---------------------------------------------------------------- literal arrays

class LitNum(Lit):
    """A number as written: an int stays an int."""

    what = "a number"

    @classmethod
    def read(cls, node):
        return node.value if isinstance(node, (Int, Float)) else _NO


class Point(Lit):
    """`{x y}` or `{x y z}`."""

    what = "a point {x y}"

    @classmethod
    def read(cls, node):
        if isinstance(node, Array) and len(node.items) in (2, 3) \
                and all(isinstance(v, (Int, Float)) for v in node.items):
            return tuple(float(v.value) for v in node.items)
        return _NO


class Points(Lit):
    """`{{x y} {x y} ...}`: points, or the corners of one polygon."""

    what = "points {{x y} ...}"

    @classmethod
    def read(cls, node):
        if not isinstance(node, Array):
            return _NO
        points = [Point.read(n) for n in node.items]
        return _NO if _NO in points else points


class Polygons(Lit):
    """`{{{x y} ...} ...}`: polygons (or segments) given by their corners."""

    what = "polygons {{{x y} ...} ...}"

    @classmethod
    def read(cls, node):
        if not isinstance(node, Array) or not node.items:
            return _NO
        polygons = [Points.read(n) for n in node.items]
        return _NO if _NO in polygons else polygons


class Indices(Lit):
    """`{1 2 5..8}`: whole numbers (vertex, edge or cell indices)."""

    what = "indices {1 2 ...}"

    @classmethod
    def read(cls, node):
        if not isinstance(node, Array):
            return _NO
        out: list[int] = []
        for it in node.items:
            if isinstance(it, Int):
                out.append(it.value)
            elif isinstance(it, Range) and isinstance(it.lo, Int) and isinstance(it.hi, Int):
                out.extend(range(it.lo.value, it.hi.value + 1))
            else:
                return _NO
        return out


class IndexRows(Lit):
    """`{{0 1} {1 2 3}}`: groups of indices (an edge's two vertices, a cell's corners)."""

    what = "index groups {{0 1} ...}"

    @classmethod
    def read(cls, node):
        if not isinstance(node, Array) or not node.items:
            return _NO
        rows = [Indices.read(n) for n in node.items]
        return _NO if _NO in rows else rows


# ---------------------------------------------------------------- constant arithmetic

NUM = (LitNum, Dim)         # an operand: a number or more arithmetic
INT = (LitInt, Dim)         # Ludii's DimFunction argument
REAL = (LitFloat, Dim)      # Ludii's FloatFunction argument


def number(x, real: bool, lud, what: str = "a whole number"):
    """The value of a literal or a `Dim`: a float when `real`, else an int (or a LudemeError
    at `lud`)."""
    if isinstance(x, Dim):
        return x.value(real)
    if real:
        return float(x)
    if not isinstance(x, int):
        raise lud.fail(f"expected {what}, found {x}")
    return x


class Arith(Dim):
    """Arithmetic on constants: `(op a b)` or, where Ludii allows it, `(op {a b c})`."""

    def operands(self, real: bool) -> list:
        a = self.a if isinstance(self.a, list) else [self.a]
        b = getattr(self, "b", None)
        values = [number(x, real, self) for x in a + ([b] if b is not None else [])]
        if not values:
            raise self.fail(f"({self.keyword} ...) needs numbers")
        return values


class _Listed(Arith):
    """`(op a b)` or `(op {a b c ...})`."""

    params = (P("a", NUM, many=True), P("b", NUM, opt=True))


@ludeme("+")
class DimAdd(_Listed):
    """Sum: `(board (rectangle (+ 4 1) 6))` has 30 cells."""

    def value(self, real=False):
        return sum(self.operands(real))


@ludeme("*")
class DimMul(_Listed):
    """Product: `(board (square (* 2 3)))` has 36 cells."""

    def value(self, real=False):
        return math.prod(self.operands(real))


@ludeme("max")
class DimMax(_Listed):
    """Largest: `(board (square (max 3 4)))` has 16 cells."""

    def value(self, real=False):
        return max(self.operands(real))


@ludeme("min")
class DimMin(_Listed):
    """Smallest: `(board (square (min 3 4)))` has 9 cells."""

    def value(self, real=False):
        return min(self.operands(real))


class _Pair(Arith):
    params = (P("a", NUM), P("b", NUM))


@ludeme("-")
class DimSub(_Pair):
    """Difference: `(board (hex (- 5 1)))` has 37 cells."""

    def value(self, real=False):
        a, b = self.operands(real)
        return a - b


@ludeme("/")
class DimDiv(_Pair):
    """Quotient, truncated toward zero on integers as in Java: `(board (square (/ 9 2)))`
    has 16 cells."""

    def value(self, real=False):
        a, b = self.operands(real)
        if b == 0:
            raise self.fail("division by zero")
        return a / b if real else int(a / b)


@ludeme("^")
class DimPow(_Pair):
    """Power: `(board (square (^ 2 2)))` has 16 cells."""

    def value(self, real=False):
        a, b = self.operands(real)
        return float(a) ** b if real else int(math.pow(a, b))


@ludeme("abs")
class DimAbs(Arith):
    """Absolute value: `(board (square (abs -3)))` has 9 cells."""

    params = (P("a", NUM),)

    def value(self, real=False):
        return abs(self.operands(real)[0])


# ---------------------------------------------------------------- reading sizes

def argument_node(lud, attr: str) -> Node:
    """Where an argument was written (the ludeme itself when it took its default)."""
    given = lud._given.get(attr)
    return given[1] if given else lud.node


def size(lud, attr: str, low: int = -MAX_DIM) -> int | None:
    """An integer argument (a literal or constant arithmetic), None when not given, refused
    at its position when it is out of range."""
    x = getattr(lud, attr)
    if x is None:
        return None
    value = number(x, False, lud)
    if not low <= value <= MAX_DIM:
        # A user's typo must not hang the tool: the corpus never goes past 84.
        node = argument_node(lud, attr)
        raise LudemeError(f"board dimension {value} is out of range ({low} to {MAX_DIM})",
                          node.pos, path=lud.path, via=node.via)
    return value


def real(lud, attr: str, default: float | None = None) -> float | None:
    """A real argument (a literal or constant arithmetic), `default` when not given.

    Ludii's FloatFunction gives a Java float, widened to a double where the graph uses
    it: (shift -1.99 ...) moves by -1.99000000954, and such rounding decides whether two
    vertices lie within Merge's 0.01 of each other."""
    x = getattr(lud, attr)
    return default if x is None else f32(number(x, True, lud))
