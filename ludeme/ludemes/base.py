"""Typed ludemes: one class per ludeme, registered under its Ludii keyword (and kind).

A class declares its arguments as `params` (the constructor is the grammar, as in
Ludii). `build()` turns an expanded syntax node into an instance, checking every
argument, then `compile()` turns the instance into a closure over the board
tables. Closures take one argument, the evaluation context `c` (state and the
iteration variables `from_`, `to`, `site`, `player`, ...).

Categories say what a ludeme evaluates to, so one keyword can have a class per
category (`if` as moves, as a boolean or as an end rule):

    Moves   -> c -> list[Move]        Bool -> c -> bool
    IntFn   -> c -> int               Region -> c -> list[int]
    EndRule -> c -> Result | None     others compile to plain data

Board shapes are ludemes too: a `GraphFn` builds a planar graph when the board is
built (Ludii's GraphFunction), and a `Dim` is a number fixed at that time
(Ludii's DimFunction / FloatFunction), e.g. `(square (+ 4 1))`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import LudemeError, suggest
from ..grammar import DEFAULT_MAX_NESTING, max_nesting
from ..syntax import (Array, Bool as BoolNode, Call, Float, Int, Named, Node, Str, Word,
                      to_lud)


class Ludeme:
    """Base of all typed ludemes."""

    keyword: ClassVar[str] = ""
    kind: ClassVar[str | None] = None
    params: ClassVar[tuple] = ()
    category: ClassVar[type] = object

    def __init__(self, node: Node, path: str, given: dict | None = None, **fields):
        self.node = node
        self.path = path
        # Declared arguments are read through __getattr__ the first time, which
        # records the read: `unread_arguments()` then names every argument the
        # description gave that compiling never looked at (see `check_all_read`).
        self._fields = fields
        self._given = given or {}          # attr -> (param name, node) written in the source
        self._read: set[str] = set()

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("_fields", "_given", "_read"):
            raise AttributeError(name)
        fields = self.__dict__.get("_fields")
        if fields is None or name not in fields:
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")
        value = fields[name]
        self._read.add(name)
        self.__dict__[name] = value        # later reads are plain attribute reads
        return value

    def __getstate__(self):
        return self.__dict__

    def __setstate__(self, state):
        self.__dict__.update(state)

    def unread_arguments(self) -> list[tuple[str, Node]]:
        """Arguments written in the source with a non-default value that nothing read."""
        return [(pname, node) for attr, (pname, node) in self._given.items()
                if attr not in self._read]

    def refuse(self, *attrs: str, why: str = "") -> None:
        """Stop with "not supported yet" if any of these arguments was given a value."""
        for attr in attrs:
            if attr in self._given:
                pname, node = self._given[attr]
                raise LudemeError(f"the argument '{pname}' of ({self.keyword}"
                                  f"{' ' + self.kind if self.kind else ''} ...) is not "
                                  f"supported yet{': ' + why if why else ''}",
                                  node.pos, path=self.path, via=node.via)

    def fail(self, message: str) -> LudemeError:
        """A LudemeError at this ludeme's position."""
        return LudemeError(message, self.node.pos, path=self.path, via=self.node.via)

    def compile(self, env):  # pragma: no cover - every concrete class overrides
        raise self.fail(f"({self.keyword}{' ' + self.kind if self.kind else ''}) cannot be "
                        "compiled yet")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {to_lud(self.node)[:60]}>"


# Categories -------------------------------------------------------------

class Moves(Ludeme):
    """Generates moves."""


class Bool(Ludeme):
    """A condition."""


class IntFn(Ludeme):
    """An integer function."""


class Region(Ludeme):
    """A set of sites.

    A region may also offer `predicate(env)`: a closure (c, site) -> bool saying
    whether a site belongs, so that `difference`, `intersection` and `is In` can
    test membership without building the whole set (e.g. `(sites Empty)`).
    """

    def predicate(self, env):
        """None, or a closure (c, site) -> bool for membership."""
        return None


class EndRule(Ludeme):
    """An end rule: gives a result or None."""


class Item(Ludeme):
    """A piece of equipment."""


class Other(Ludeme):
    """Structural ludemes: game, rules, phases, start rules, ..."""


class GraphFn(Ludeme):
    """A graph function: `build(site_type)` makes a board's planar graph (ludeme.boards)."""

    def build(self, site_type: str):  # pragma: no cover - every concrete class overrides
        raise self.fail(f"({self.keyword} ...) cannot build a graph yet")


class Dim(Ludeme):
    """A number fixed when the board is built: `value(real)` is an int (Ludii's DimFunction)
    or, with `real`, a float (Ludii's FloatFunction)."""

    def value(self, real: bool = False):  # pragma: no cover - every concrete class overrides
        raise self.fail(f"({self.keyword} ...) has no value yet")


for _cat in (Moves, Bool, IntFn, Region, EndRule, Item, Other, GraphFn, Dim):
    _cat.category = _cat


# Registry ---------------------------------------------------------------

REGISTRY: dict[str, list[type[Ludeme]]] = {}
CLASSES: dict[str, type[Ludeme]] = {}
PY_KEYWORDS = {"if", "in", "from", "for", "is", "not", "and", "or", "else", "with", "as",
               # names the Ludeme class itself uses
               "kind", "keyword", "params", "category", "node", "path", "fail", "compile"}


def ludeme(keyword: str, kind: str | None = None):
    """Class decorator: register a ludeme under `(keyword kind ...)`."""
    def deco(cls):
        cls.keyword = keyword
        cls.kind = kind
        REGISTRY.setdefault(keyword, []).append(cls)
        CLASSES[cls.__name__] = cls
        return cls
    return deco


CLASSES.update({c.__name__: c for c in (Moves, Bool, IntFn, Region, EndRule, Item, Other,
                                         GraphFn, Dim)})

# Ludii ludemes known by name but not built yet, by keyword: the category they would have.
# Writing one stops with "not supported yet" instead of "unknown ludeme".
NOT_YET: dict[str, type] = {}


@dataclass(frozen=True)
class P:
    """One declared argument: name, type, optional, named (`name:`), many (an array).

    A named argument's name is Ludii's (`if`, `in`, `by`); the instance attribute
    gets a trailing underscore when the name is a Python keyword or a name the
    Ludeme class uses itself (`self.if_`, `self.kind_`).
    A type may be a class, a tuple of types, or a class name (resolved late).
    """

    name: str
    type: Any
    opt: bool = False
    named: bool = False
    many: bool = False
    default: Any = None

    @property
    def attr(self) -> str:
        return self.name + "_" if self.name in PY_KEYWORDS else self.name


class Enum:
    """A closed set of bare words, e.g. Enum("SiteType", "Vertex Cell Edge")."""

    def __init__(self, name: str, words: str):
        self.name = name
        self.words = frozenset(words.split())

    def __repr__(self) -> str:
        return self.name


# Plain literal types
class Lit:
    """Marker types for literal arguments: `read(node)` is the value written, or _NO."""

    what: ClassVar[str] = "a literal"

    @classmethod
    def read(cls, node: Node):  # pragma: no cover - every marker overrides
        return _NO


class LitInt(Lit):
    what = "an integer"

    @classmethod
    def read(cls, node):
        return node.value if isinstance(node, Int) else _NO


class LitStr(Lit):
    what = "a string"

    @classmethod
    def read(cls, node):
        return node.value if isinstance(node, Str) else _NO


class LitBool(Lit):
    what = "True or False"

    @classmethod
    def read(cls, node):
        return node.value if isinstance(node, BoolNode) else _NO


class LitFloat(Lit):
    what = "a number"

    @classmethod
    def read(cls, node):
        return float(node.value) if isinstance(node, (Int, Float)) else _NO


@dataclass(frozen=True)
class ArrayOf:
    """An array `{...}` of values of one type, itself an item of a `many` argument: Ludii's
    two-dimensional arrays such as a walk `{{F F R F} {F F L F}}` (StepType[][])."""

    item: Any


ROLE_WORDS = ("Neutral P1 P2 P3 P4 P5 P6 P7 P8 P9 P10 P11 P12 P13 P14 P15 P16 Team1 Team2 Team3 "
              "Team4 Each Shared All Mover Next Prev NonMover Enemy Friend Ally Player "
              "MoverTeam NextTeam PrevTeam TeamMover Any")
RoleType = Enum("RoleType", ROLE_WORDS)
SiteType = Enum("SiteType", "Vertex Cell Edge")

DIRECTION_WORDS = (
    "N NNE NE ENE E ESE SE SSE S SSW SW WSW W WNW NW NNW All Angled Adjacent Axial "
    "Orthogonal Diagonal OffDiagonal SameLayer Upward Downward Rotational Base Support "
    "CW CCW In Out Forward Backward Forwards Backwards Rightward Leftward Rightwards "
    "Leftwards FR FRR FRRR FL FLL FLLL BR BRR BRRR BL BLL BLLL OppositeDirection "
    "SameDirection FRA FLA BRA BLA")
DirWord = Enum("Direction", DIRECTION_WORDS)


def _describe(t) -> str:
    if isinstance(t, str):
        t = CLASSES.get(t, t)
        if isinstance(t, str):
            return t
        return f"({t.keyword}{' ' + t.kind if t.kind else ''} ...)"
    if isinstance(t, Enum):
        return f"one of {t.name} ({', '.join(sorted(t.words)[:8])}...)"
    if isinstance(t, tuple):
        return " or ".join(_describe(x) for x in t)
    if isinstance(t, ArrayOf):
        return f"an array {{...}} of {_describe(t.item)}"
    if isinstance(t, type) and issubclass(t, Lit):
        return t.what
    if isinstance(t, type) and issubclass(t, Ludeme) and t.keyword:
        return f"({t.keyword}{' ' + t.kind if t.kind else ''} ...)"
    if isinstance(t, type) and issubclass(t, Ludeme):
        return {Moves: "moves", Bool: "a condition", IntFn: "an integer function",
                Region: "a region (sites)", EndRule: "an end rule", Item: "an item of equipment",
                Other: "a ludeme", GraphFn: "a board shape such as (square 8)",
                Dim: "constant arithmetic such as (+ 4 1)"}.get(t, t.__name__)
    return str(t)


# Builder ----------------------------------------------------------------

class Builder:
    """Turns expanded syntax into typed ludemes, checking every argument."""

    def __init__(self):
        self.built: list[Ludeme] = []       # every ludeme built, for `check_all_read`

    def check_all_read(self, board_site_type: str | None = None) -> None:
        """After compiling: refuse any argument the description gave that nothing read.

        This is what keeps a declared argument from being accepted and ignored:
        whatever a ludeme's compile (or the compiler assembling the game) does
        not look at stops the game with a positioned "not supported yet". A site
        type naming the board's own (`Cell` on a board of cells) means what the
        default means, as in Ludii (`type ?: board.defaultSite()`); another one is
        refused unless the ludeme read it.
        """
        for lud in self.built:
            for p in lud.params:
                if p.type is SiteType and p.attr in lud._given and p.attr not in lud._read \
                        and lud._fields.get(p.attr) == board_site_type:
                    lud._read.add(p.attr)
            for pname, node in lud.unread_arguments():
                raise LudemeError(
                    f"the argument '{pname}' of ({lud.keyword}{' ' + lud.kind if lud.kind else ''}"
                    f" ...) is not supported yet (ludeme compiles it without using it)",
                    node.pos, path=lud.path, via=node.via)

    def build(self, node: Node, expected, path: str):
        """A value of type `expected` from `node`, or a LudemeError."""
        got = self.try_build(node, expected, path)
        if got is _NO:
            raise LudemeError(f"expected {_describe(expected)}, found {to_lud(node)[:50]!r}",
                              node.pos, path=path, via=node.via)
        return got

    def try_build(self, node: Node, expected, path: str):
        """Like build, but returns _NO when `node` cannot be of type `expected`."""
        if isinstance(expected, str):
            expected = CLASSES[expected]
        if isinstance(expected, tuple):
            # One keyword may have a class per category ((if ...) as an integer or a region):
            # an alternative that refuses the arguments leaves the next one its chance.
            refused = None
            for t in expected:
                mark = len(self.built)
                try:
                    got = self.try_build(node, t, path)
                except LudemeError as e:
                    refused = refused or e
                    del self.built[mark:]   # the ludemes of a refused reading are dropped
                    continue
                if got is not _NO:
                    return got
                del self.built[mark:]   # nor those of a reading that did not fit
            if refused is not None:
                raise refused
            return _NO
        if isinstance(expected, Enum):
            if isinstance(node, Word) and node.value in expected.words:
                return node.value
            return _NO
        if isinstance(expected, type) and issubclass(expected, Lit):
            return expected.read(node)
        if isinstance(expected, ArrayOf):
            if not isinstance(node, Array):
                return _NO
            items = [self.try_build(n, expected.item, path) for n in node.items]
            return _NO if any(x is _NO for x in items) else items
        if isinstance(expected, type) and issubclass(expected, Ludeme):
            return self.build_ludeme(node, expected, path)
        raise TypeError(expected)  # pragma: no cover

    def build_ludeme(self, node: Node, category: type, path: str):
        from . import literals
        lit = literals.from_literal(node, category, path)
        if lit is not None:
            return lit
        if not isinstance(node, Call):
            return _NO
        head = node.name
        classes = REGISTRY.get(head)
        sub = f"{path}/{head}" if path else head
        if sub.count("/") >= DEFAULT_MAX_NESTING and sub.count("/") >= max_nesting():
            raise LudemeError(f"ludemes nest deeper than {max_nesting()} levels here",
                              node.pos, via=node.via)  # the expander bounds this already
        fitting = [c for c in classes or () if issubclass(c, category)]
        if not fitting and head in NOT_YET:
            if not issubclass(NOT_YET[head], category):
                return _NO
            raise LudemeError(f"({head} ...) is not supported yet", node.pos, path=sub,
                              via=node.via)
        if not classes:
            raise LudemeError(f"unknown ludeme ({head} ...){suggest(head, REGISTRY)}",
                              node.pos, path=sub, via=node.via)
        kind_word = node.args[0].value if node.args and isinstance(node.args[0], Word) else None
        if not fitting:
            return _NO
        with_kind = [c for c in fitting if c.kind is not None and c.kind == kind_word]
        if not with_kind and kind_word and any(c.kind == kind_word for c in classes):
            return _NO      # e.g. (forEach Piece) is moves: not the region (forEach ...)
        candidates = with_kind or [c for c in fitting if c.kind is None]
        if not candidates:
            kinds = sorted({c.kind for c in fitting if c.kind})
            raise LudemeError(f"({head} {kind_word or '...'}) is not known here; expected one "
                              f"of: {', '.join(f'({head} {k})' for k in kinds)}"
                              f"{suggest(kind_word or '', kinds)}",
                              node.pos, path=sub, via=node.via)
        if not with_kind and kind_word and kind_word[:1].isupper() \
                and kind_word not in RoleType.words and kind_word not in DirWord.words:
            kinds = sorted({c.kind for c in fitting if c.kind})
            if kinds:
                raise LudemeError(f"unknown ({head} {kind_word} ...){suggest(kind_word, kinds)};"
                                  f" known here: {', '.join(f'({head} {k})' for k in kinds)}",
                                  node.pos, path=sub, via=node.via)
        errors = []
        for cls in candidates:
            args = node.args[1:] if cls.kind is not None else node.args
            given: dict = {}
            mark = len(self.built)
            try:
                fields = self.bind(cls, args, node, sub + (f" {cls.kind}" if cls.kind else ""),
                                   given)
            except LudemeError as e:
                errors.append(e)
                del self.built[mark:]   # a refused reading leaves no ludemes to check
                continue
            obj = cls(node, sub, given=given, **fields)
            self.built.append(obj)
            check = getattr(obj, "validate", None)
            if check:
                check()
            return obj
        raise errors[0]

    def bind(self, cls, args: list[Node], node: Call, path: str, given: dict | None = None
             ) -> dict:
        """Match arguments to the declared params: named by name, positional in order.

        `given` receives attr -> (name, node) for each argument written with a value
        other than its default."""
        given = {} if given is None else given
        fields = {p.attr: (p.default if not p.many else ([] if p.default is None else p.default))
                  for p in cls.params}
        named_params = {p.name: p for p in cls.params if p.named}
        positional = [p for p in cls.params if not p.named]
        i = 0
        refused = None      # why an optional argument refused a value a later one may take
        for a in args:
            if isinstance(a, Named):
                p = named_params.get(a.name)
                if p is None:
                    raise LudemeError(
                        f"({cls.keyword}{' ' + cls.kind if cls.kind else ''}) has no argument "
                        f"'{a.name}:'{suggest(a.name, named_params)}; named arguments: "
                        f"{', '.join(n + ':' for n in named_params) or 'none'}",
                        a.pos, path=path, via=a.via)
                fields[p.attr] = self.value(p, a.value, path)
                _note_given(given, p, fields[p.attr], a)
                continue
            while True:
                if i >= len(positional):
                    raise refused or LudemeError(
                        f"unexpected argument {to_lud(a)[:40]!r} for ({cls.keyword}"
                        f"{' ' + cls.kind if cls.kind else ''} ...); it takes "
                        f"{_signature(cls)}", a.pos, path=path, via=a.via)
                p = positional[i]
                i += 1
                mark = len(self.built)
                try:
                    got = self.try_value(p, a, path)
                except LudemeError as e:
                    # An optional argument whose ludeme refuses this value (an (if ...)
                    # read as a region when it is moves) leaves it to the next argument.
                    if not p.opt:
                        raise
                    del self.built[mark:]
                    refused, got = refused or e, _NO
                if got is not _NO:
                    fields[p.attr] = got
                    _note_given(given, p, got, a)
                    refused = None
                    break
                if not p.opt:
                    if refused is not None:
                        raise refused
                    raise LudemeError(
                        f"argument {p.name!r} of ({cls.keyword}{' ' + cls.kind if cls.kind else ''}"
                        f" ...) must be {_describe(p.type)}{' (an array {...})' if p.many else ''},"
                        f" found {to_lud(a)[:40]!r}", a.pos, path=path, via=a.via)
        for p in positional[i:]:
            if not p.opt:
                raise LudemeError(f"({cls.keyword}{' ' + cls.kind if cls.kind else ''} ...) "
                                  f"needs its argument {p.name!r} ({_describe(p.type)})",
                                  node.pos, path=path, via=node.via)
        return fields

    def value(self, p: P, node: Node, path: str):
        got = self.try_value(p, node, path)
        if got is _NO:
            raise LudemeError(f"'{p.name}:' must be {_describe(p.type)}, found "
                              f"{to_lud(node)[:40]!r}", node.pos, path=path, via=node.via)
        return got

    def try_value(self, p: P, node: Node, path: str):
        if p.many:
            if isinstance(node, Array):
                return [self.build(n, p.type, path) for n in node.items]
            one = self.try_build(node, p.type, path)
            return [one] if one is not _NO else _NO
        return self.try_build(node, p.type, path)


def _note_given(given: dict, p: P, value, node: Node) -> None:
    default = ([] if p.default is None else p.default) if p.many else p.default
    if value != default:
        given[p.attr] = (p.name, node)


class _NoType:
    def __repr__(self):
        return "_NO"


_NO = _NoType()


def _signature(cls) -> str:
    parts = []
    for p in cls.params:
        t = _describe(p.type)
        s = f"{p.name}:{t}" if p.named else t
        parts.append(f"[{s}]" if p.opt else s)
    return " ".join(parts) or "no arguments"
