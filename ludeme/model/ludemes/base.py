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

from ludeme.errors import LudemeError
from ludeme.language.syntax import Bool as BoolNode, Float, Int, Node, Str, to_lud


def called(lud) -> str:
    """Ludii's keyword and kind of a ludeme or its class, as a description calls it
    (`is Loop`)."""
    return f"{lud.keyword} {lud.kind}" if lud.kind else lud.keyword


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
                raise LudemeError(f"the argument '{pname}' of ({called(self)} ...) is not "
                                  f"supported yet{': ' + why if why else ''}",
                                  node.pos, path=self.path, via=node.via)

    def fail(self, message: str) -> LudemeError:
        """A LudemeError at this ludeme's position."""
        return LudemeError(message, self.node.pos, path=self.path, via=self.node.via)

    def compile(self, env):  # pragma: no cover - every concrete class overrides
        raise self.fail(f"({called(self)}) cannot be compiled yet")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {to_lud(self.node)[:60]}>"


# Categories -------------------------------------------------------------

class Moves(Ludeme):
    """Generates moves."""


def lazy_moves(f):
    """c -> an iterator over the moves of the moves closure `f`, in its order, made one at
    a time where its ludeme knows how (its closure's `lazy`, set by a `compile_lazy` or by
    its compile; Ludii's movesIterator): a question that one move answers ((can Move ...),
    (is Threatened ...)) stops there instead of making, and testing, every move."""
    lazy = getattr(f, "lazy", None)
    return lazy if lazy is not None else (lambda c: iter(f(c)))


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


def _registry_order(cls) -> tuple:
    """Where a class stands among the classes of its keyword: the builder tries them in
    this order. Fixed by the class itself (its `precedence`, then its module, then its
    place in the module), never by the order in which modules happen to be imported."""
    return (getattr(cls, "precedence", 0), cls.__module__, _DEFINED[cls])


_DEFINED: dict[type, int] = {}
_LOADED = False


def ludeme(keyword: str, kind: str | None = None):
    """Class decorator: register a ludeme under `(keyword kind ...)`."""
    def deco(cls):
        cls.keyword = keyword
        cls.kind = kind
        _DEFINED[cls] = len(_DEFINED)   # only compared within a module: definition order
        classes = REGISTRY.setdefault(keyword, [])
        classes.append(cls)
        classes.sort(key=_registry_order)
        CLASSES[cls.__name__] = cls
        return cls
    return deco


def context_variable(keyword: str, name: str, attr: str, doc: str):
    """A registered integer ludeme that reads one variable of the context, e.g. `(from)`."""
    from operator import attrgetter
    get = attrgetter(attr)
    cls = type(name, (IntFn,), {"params": (), "__doc__": doc, "__module__": _caller_module(),
                                "compile": lambda self, env: get})
    return ludeme(keyword)(cls)


def _caller_module() -> str:
    import sys
    return sys._getframe(2).f_globals["__name__"]


def loaded() -> bool:
    """Whether every family module is imported (`ludeme.model.ludemes.load_all`)."""
    return _LOADED


def mark_loaded() -> None:
    """Called by `ludeme.model.ludemes.load_all` once every family module is imported."""
    global _LOADED
    _LOADED = True


CLASSES.update({c.__name__: c for c in (Moves, Bool, IntFn, Region, EndRule, Item, Other,
                                         GraphFn, Dim)})

# Ludii ludemes known by name but not built yet, by keyword (or "keyword Kind"): the
# category they would have. Writing one stops with "not supported yet" instead of "unknown
# ludeme" (or "not known here").
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
SITE_TYPES = ("Cell", "Vertex", "Edge")


def takes_site_type(t) -> bool:
    """Whether a declared argument type is the graph-element type (Cell, Vertex, Edge)."""
    return t is SiteType or (isinstance(t, tuple) and SiteType in t)


RelationType = Enum("RelationType", "Adjacent Diagonal All OffDiagonal Orthogonal")

DIRECTION_WORDS = (
    "N NNE NE ENE E ESE SE SSE S SSW SW WSW W WNW NW NNW All Angled Adjacent Axial "
    "Orthogonal Diagonal OffDiagonal SameLayer Upward Downward Rotational Base Support "
    "CW CCW In Out Forward Backward Forwards Backwards Rightward Leftward Rightwards "
    "Leftwards FR FRR FRRR FL FLL FLLL BR BRR BRRR BL BLL BLLL OppositeDirection "
    "SameDirection FRA FLA BRA BLA "
    "U UN UNE UE USE US USW UW UNW D DN DNE DE DSE DS DSW DW DNW")
DirWord = Enum("Direction", DIRECTION_WORDS)


class _NoType:
    def __repr__(self):
        return "_NO"


_NO = _NoType()


def name_without_number(name: str) -> str:
    """A component's name without its owner's number (Ludii's getNameWithoutNumber):
    "Disc2" -> "Disc"."""
    return name.rstrip("0123456789")


def check_start_sites(env, lud, sites, what: str) -> None:
    """Refuse, at `lud`, a start rule's site beyond the game's containers (a region read
    from another board, `(sites {0 39})` on 28 sites): Ludii's start actions index their
    arrays by it and stop there."""
    bad = [x for x in sites if x >= env.total_sites]
    if bad:
        raise lud.fail(f"{what} names no site here (site {bad[0]}: the game has sites 0 to "
                       f"{env.total_sites - 1})")


def other_layer_end(env, site_type, lud=None) -> int:
    """The first site a ludeme typed `site_type` may find a piece on: 0 for the board's own
    type (or none); else the first hand site, since on the board another type names a layer
    that pieces never reach here (Ludii's cells of a board played on vertices are empty) and
    a hand's site is the same cell whatever the type. A ludeme reading a layer the game puts
    pieces on (`layer_of`) is refused here, unless it reads the layer itself."""
    if site_type in getattr(env, "layers", {}):
        what = f"({called(lud)} {site_type} ...)" \
            if lud is not None else f"a ludeme of {site_type} sites"
        raise (lud.fail if lud is not None else ValueError)(
            f"{what} on a layer of the board the game puts pieces on is not supported yet")
    return env.num_board_sites if site_type not in (None, env.board.site_type) else 0


def layer_of(env, site_type) -> tuple[int, int] | None:
    """(store index of element 0, number of elements) of the board's layer of `site_type`
    when the game puts pieces on it (`Game.layers`), else None (the board's own type, or a
    layer that stays empty)."""
    base_ = getattr(env, "layers", {}).get(site_type)
    if base_ is None:
        return None
    return base_, len(env.board.planar.elements(site_type))


def other_layer_size(env, site_type) -> int:
    """The number of elements of `site_type` on the board when it is not the board's own type
    (0 when it is, or none is given): Ludii reads an index of that type past every
    container's sites on the board's layer of that type, empty here, up to this size."""
    if site_type in (None, env.board.site_type):
        return 0
    return len(env.board.planar.elements(site_type))


def layer_bounds(env, site_type) -> tuple[int, int, int, int] | None:
    """For a site type whose layer the game puts pieces on (`layer_of`): (store index of its
    element 0, its number of elements, the first and the one past the last of the hands'
    sites that an index of that type names instead, as `layer_site` finds them); else None."""
    layer = layer_of(env, site_type)
    if layer is None:
        return None
    hands = (min((c.sites_from for c in env.containers[1:]), default=env.total_sites),
             env.total_sites) if site_type == "Cell" else (0, 0)
    return (*layer, *hands)


def layer_site(env, site_type):
    """For a site type whose layer the game puts pieces on (`layer_of`): a function from an
    element's index to its place in the store (-1 for none), as Ludii finds the container
    of a site of that type: a cell numbered as a hand's site is the hand's, any other index
    the layer's element. None for any other type (its sites are the store's own)."""
    layer = layer_of(env, site_type)
    if layer is None:
        return None
    base_, size = layer
    hands = range(min((c.sites_from for c in env.containers[1:]), default=env.total_sites),
                  env.total_sites) if site_type == "Cell" else range(0)

    def store(site: int) -> int:
        if site in hands:
            return site
        return base_ + site if 0 <= site < size else -1
    return store
