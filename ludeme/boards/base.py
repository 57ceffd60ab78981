"""Board ludemes: the registry, and reading a ludeme's arguments from the syntax tree.

Every board ludeme is one class registered under its Ludii keyword
(`class Square(GraphLudeme, keyword="square")`). Its `parse` reads the
arguments in the order Ludii's constructor declares them, through `Args`,
which turns anything unexpected into a `LudemeError` at the argument's
position; its `build(site_type)` returns a `PlanarGraph`.
"""

from __future__ import annotations

from typing import ClassVar

from ..errors import LudemeError, known_list, suggest
from ..syntax import Array, Bool, Call, Float, Int, Named, Node, Range, Word, to_lud
from .geometry import PlanarGraph

BOARD_PATH = "game/equipment/board"

# Largest board dimension accepted (Ludii's corpus goes up to 84); beyond it a board
# would take minutes to build, so it is refused rather than left to hang.
MAX_DIM = 100

# Ludii graph ludemes this package does not build yet: a clear error, not "unknown".
LUDII_ONLY = {
    "dual", "tiling", "skew", "renumber", "splitCrossings", "brick", "celtic", "quadhex",
    "mesh", "spiral", "repeat", "regular", "subdivide", "trim", "keep", "clip",
    "intersect", "hole", "makeFaces", "complete", "layers", "recoordinate", "boardless",
    "morris", "poly",
}


class Registered:
    """Base of a ludeme family: a subclass given `keyword=` is registered in its family's registry."""

    keyword: ClassVar[str] = ""
    registry: ClassVar[dict[str, type]]

    def __init_subclass__(cls, keyword: str = "", **kw):
        super().__init_subclass__(**kw)
        if keyword:
            cls.keyword = keyword
            cls.registry[keyword] = cls


class GraphLudeme(Registered):
    """A ludeme that makes a graph: a basis/shape generator or a graph operator."""

    registry: ClassVar[dict[str, type["GraphLudeme"]]] = {}

    @classmethod
    def parse(cls, args: "Args") -> "GraphLudeme":
        """Read the ludeme's arguments."""
        raise NotImplementedError

    def build(self, site_type: str) -> PlanarGraph:
        """The graph for a board whose default site type is `site_type`."""
        raise NotImplementedError


def lookup(registry: dict, node: Call, path: str, what: str):
    """The class registered for `node`'s keyword, or a LudemeError naming the known ones
    (and saying "not supported yet" for Ludii ludemes this package does not build)."""
    name = node.name
    cls = registry.get(name)
    if cls is not None:
        return cls
    if name in LUDII_ONLY:
        raise LudemeError(f"{what} ({name} ...) is not supported yet", node.pos,
                          path=f"{path}/{name}", via=node.via)
    raise LudemeError(f"unknown {what} {name!r}{suggest(name, registry)}; "
                      f"known: {known_list(registry)}", node.pos, path=path, via=node.via)


def parse_graph(node: Node, path: str = BOARD_PATH) -> GraphLudeme:
    """The graph ludeme written at `node`."""
    if not isinstance(node, Call):
        raise LudemeError(f"expected a board shape such as (square 8), found {to_lud(node)!r}",
                          node.pos, path=path, via=node.via)
    name = node.name
    cls = lookup(GraphLudeme.registry, node, path, "board ludeme")
    args = Args(node, f"{path}/{name}")
    ludeme = cls.parse(args)
    args.finish()
    return ludeme


# ---------------------------------------------------------------- arguments

_ARITH = {
    "+": lambda xs: sum(xs[1:], xs[0]),
    "-": lambda xs: xs[0] - sum(xs[1:]) if len(xs) > 1 else -xs[0],
    "*": lambda xs: _product(xs),
    "/": lambda xs: _divide(xs),
    "max": max,
    "min": min,
    "abs": lambda xs: abs(xs[0]),
    "^": lambda xs: xs[0] ** xs[1],
}


def _product(xs):
    out = xs[0]
    for x in xs[1:]:
        out *= x
    return out


def _divide(xs):
    a, b = xs
    if isinstance(a, int) and isinstance(b, int):
        return int(a / b)  # Java integer division truncates toward zero
    return a / b


class Args:
    """The arguments of one call, read left to right the way its Ludii constructor declares them."""

    def __init__(self, call: Call, path: str):
        self.call = call
        self.path = path
        self.items = call.positional()
        self.i = 0
        self.named_args = {a.name: a for a in call.args if isinstance(a, Named)}
        self.used: set[str] = set()

    def error(self, message: str, node: Node | None = None) -> LudemeError:
        """A LudemeError at `node` (or at the call)."""
        node = node or self.call
        return LudemeError(message, node.pos, path=self.path, via=node.via)

    def peek(self) -> Node | None:
        """The next positional argument, unread."""
        return self.items[self.i] if self.i < len(self.items) else None

    def take(self) -> Node:
        """Read the next positional argument."""
        node = self.peek()
        if node is None:
            raise self.error(f"({self.call.name} ...) needs more arguments")
        self.i += 1
        return node

    def word(self, choices, what: str = "value") -> str | None:
        """An optional enum word from `choices`."""
        node = self.peek()
        if isinstance(node, Word) and node.value in choices:
            self.i += 1
            return node.value
        if isinstance(node, Word) and node.value[:1].isupper():
            raise self.error(f"unknown {what} {node.value!r}{suggest(node.value, choices)}; "
                             f"expected one of {known_list(choices)}", node)
        return None

    def dim(self, optional: bool = False) -> int | None:
        """An integer expression (Ludii's DimFunction)."""
        node = self.peek()
        if isinstance(node, Array) or (isinstance(node, Call) and node.name == "poly"):
            raise self.error(f"({self.call.name} ...) boards given by a polygon or side lengths "
                             f"are not supported yet", node)
        if node is None or not is_number(node):
            if optional:
                return None
            raise self.error(f"({self.call.name} ...) expects a size here",
                             node if node is not None else None)
        self.i += 1
        value = number(node, self.path)
        if not isinstance(value, int):
            raise self.error("expected a whole number", node)
        if not -MAX_DIM <= value <= MAX_DIM:
            # A user's typo must not hang the tool: the corpus never goes past 84.
            raise self.error(f"board dimension {value} is out of range (at most {MAX_DIM})",
                             node)
        return value

    def number(self, optional: bool = False) -> float | None:
        """A real-valued expression (Ludii's FloatFunction)."""
        node = self.peek()
        if node is None or not is_number(node):
            if optional:
                return None
            raise self.error(f"({self.call.name} ...) expects a number here", node)
        self.i += 1
        return float(number(node, self.path))

    def graph(self) -> GraphLudeme:
        """A nested graph ludeme."""
        return parse_graph(self.take(), self.path)

    def graphs(self) -> list[GraphLudeme]:
        """Either `{g1 g2 ...}` or the rest of the positional graphs."""
        node = self.peek()
        if isinstance(node, Array):
            self.i += 1
            return [parse_graph(n, self.path) for n in node.items]
        out = []
        while isinstance(self.peek(), Call) and not is_number(self.peek()):
            out.append(self.graph())
        if not out:
            raise self.error(f"({self.call.name} ...) expects graphs")
        return out

    def named(self, key: str) -> Node | None:
        """The value of `key:`, marked as read."""
        self.used.add(key)
        arg = self.named_args.get(key)
        return arg.value if arg is not None else None

    def named_dim(self, key: str, default=None):
        """An integer `key:` argument."""
        node = self.named(key)
        if node is None:
            return default
        value = number(node, self.path)
        if not isinstance(value, int):
            raise self.error(f"{key}: expects a whole number", node)
        return value

    def named_number(self, key: str, default=None):
        """A real `key:` argument."""
        node = self.named(key)
        return default if node is None else float(number(node, self.path))

    def named_bool(self, key: str, default=None):
        """A boolean `key:` argument."""
        node = self.named(key)
        if node is None:
            return default
        if not isinstance(node, Bool):
            raise self.error(f"{key}: expects True or False", node)
        return bool(node.value)

    def named_word(self, key: str, choices, default=None):
        """An enum `key:` argument."""
        node = self.named(key)
        if node is None:
            return default
        if not isinstance(node, Word) or node.value not in choices:
            raise self.error(f"{key}: expects one of {known_list(choices)}", node)
        return node.value

    def finish(self) -> None:
        """Fail on any argument nobody read."""
        if self.i < len(self.items):
            node = self.items[self.i]
            raise self.error(f"unexpected argument {to_lud(node)!r} in ({self.call.name} ...)", node)
        for key, arg in self.named_args.items():
            if key not in self.used:
                raise self.error(f"unknown named argument {key}: in ({self.call.name} ...)", arg)


def is_number(node: Node) -> bool:
    """Whether `node` is a numeric literal or arithmetic."""
    if isinstance(node, (Int, Float)):
        return True
    return isinstance(node, Call) and node.name in _ARITH


def number(node: Node, path: str = BOARD_PATH):
    """Evaluate a numeric literal or arithmetic on literals."""
    if isinstance(node, (Int, Float)):
        return node.value
    if isinstance(node, Call) and node.name in _ARITH:
        values = [number(a, path) for a in node.args]
        if not values:
            raise LudemeError(f"({node.name}) needs arguments", node.pos, path=path, via=node.via)
        return _ARITH[node.name](values)
    raise LudemeError(f"expected a number, found {to_lud(node)!r}", node.pos, path=path,
                      via=node.via)


def int_list(node: Node, path: str = BOARD_PATH) -> list[int]:
    """`{1 2 5..8}` as a list of ints."""
    items = node.items if isinstance(node, Array) else [node]
    out: list[int] = []
    for it in items:
        if isinstance(it, Range):
            lo, hi = number(it.lo, path), number(it.hi, path)
            out.extend(range(lo, hi + 1))
        else:
            value = number(it, path)
            if not isinstance(value, int):
                raise LudemeError("expected a whole number", it.pos, path=path, via=it.via)
            out.append(value)
    return out


def number_rows(node: Node, path: str = BOARD_PATH) -> list[list[float]]:
    """`{{x y} {x y} ...}` as lists of numbers."""
    if not isinstance(node, Array):
        raise LudemeError("expected {{...} {...}}", node.pos, path=path, via=node.via)
    rows = []
    for row in node.items:
        if not isinstance(row, Array):
            raise LudemeError("expected {x y}", row.pos, path=path, via=row.via)
        rows.append([number(v, path) for v in row.items])
    return rows
