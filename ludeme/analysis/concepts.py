"""`ludeme concepts`: Ludii's concepts of a game, compared, diffed and indexed.

Ludii describes every game by 809 *concepts* (`concepts.tsv`: id, name,
taxonomy, type, data type, computation type, leaf, parent), 511 known from the
rules and 298 measured in playouts.

Compile-time concepts come from the typed ludemes: each ludeme class declares
the concepts it contributes in one attribute, `concepts = (...)`, as each of
Ludii's ludeme classes does in its `concepts(Game)` method. An entry is a
concept name, optionally with a condition on the ludeme's own arguments:

    "RemoveDecision"                       always
    "StepDecisionToEmpty if to has IsEmpty" when argument `to`'s concepts hold IsEmpty
    "IsEmpty if not to.if"                  when `to` has no `if:` (Ludii's default rule)
    "DiscComponent if name == Disc"         when argument `name` is that word (A|B: either)
    "PiecesPlacedOutsideBoard if where is handSite"   when argument `where` is that ludeme
                                            (keyword, or keyword and kind: "countPieces")
    "-IsFriend if cond has IsFriend"        take a concept out of the ludeme's total
    "-to.apply"                             leave an argument's concepts out of the total
                                            (the ludeme only looks at them, as Ludii's Hop)
    "@end cond result"                      Ludii's end-rule table (`END_FAMILIES`) applied to
                                            the concepts of condition `cond` and result `result`
    "CaptureSequence if at"                 when argument `at` is given
    "@pieces if not moves"                  the concepts of every piece's moves (Ludii's
                                            ForEachPiece with no moves of its own)
    terms joined by "and"; "or" between whole conditions is written as two entries.

A ludeme's concepts are its own entries and those of every ludeme inside it;
then every boolean ancestor in the catalogue is set (a parent is set when a
child is, as in Ludii's database). The game frame adds what is not a ludeme of
this project: the mode and players, the board's shape and tiling (the board
shape is built by `ludeme.boards`), and the graphics metadata. Non-boolean
concepts (NumPlayers, NumRows, NumDirections, ...) are read off the built board
and the equipment.

Playout concepts are Ludii's metrics that `ludeme run` computes and the
move-concept frequencies and end shares of `ludeme.analysis.concepts_playout`, from
uniform-random playouts or playouts of the agents chosen (`--agents`, one per
player, as `ludeme run`), with the agents and the number of playouts stated
beside them.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ludeme.errors import LudemeError, Pos, printable, read_source

CATALOG_FILE = Path(__file__).with_name("concepts.tsv")


# ---------------------------------------------------------------- the catalogue

@dataclass(frozen=True)
class Concept:
    """One row of Ludii's concept catalogue."""

    id: int
    name: str
    taxonomy: str
    type: str
    data_type: str
    computation: str
    leaf: bool
    parent: str

    @property
    def boolean(self) -> bool:
        return self.data_type == "BooleanData"


@cache
def catalog() -> dict[str, Concept]:
    """Every concept by name, in Ludii's id order."""
    with open(CATALOG_FILE, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {r["name"]: Concept(int(r["id"]), r["name"], r["taxonomy"], r["type"],
                               r["dataType"], r["computationType"], r["leaf"] == "true",
                               r["parent"]) for r in rows}


def with_parents(names) -> set[str]:
    """The concepts and all their boolean ancestors (a non-boolean link is passed through).

    The board styles chosen in the metadata are the exception: as in Ludii's
    database they set no parent (only GraphStyle sets BoardStyle, Style, Visual).
    """
    cat = catalog()
    out = set()
    for name in names:
        while name:
            if cat[name].boolean:
                out.add(name)
            name = None if name in BOARD_STYLES else cat[name].parent
    return out


# ---------------------------------------------------------------- declarations

_TERM = re.compile(r"^(not\s+)?([\w.]+)(?:\s+(has|==|is)\s+(\S+))?$")


@cache
def parse_entry(entry: str) -> tuple[str, tuple]:
    """`"Name if cond and cond"` -> (name, ((negated, path, op, value), ...)); checked against the catalogue."""
    if entry.startswith("@end "):
        return "@end", tuple(entry.split()[1:])
    name, _, cond = entry.partition(" if ")
    name = name.strip()
    if name.startswith("-") and name[1:2].islower():     # "-to.apply": leave that argument out
        return name, ()
    if name.lstrip("-") not in catalog() and name != "@pieces":
        raise ValueError(f"concept declaration {entry!r}: unknown concept {name!r}")
    terms = []
    for text in filter(None, (t.strip() for t in cond.split(" and "))):
        m = _TERM.match(text)
        if not m:
            raise ValueError(f"concept declaration {entry!r}: cannot read condition {text!r}")
        negated, path, op, value = m.groups()
        if op == "has" and value not in catalog():
            raise ValueError(f"concept declaration {entry!r}: unknown concept {value!r}")
        terms.append((bool(negated), path, op, value))
    return name, tuple(terms)


def _argument(node, path: str):
    """The value of a (dotted) argument path of a ludeme; None where absent."""
    from ludeme.model.ludemes.base import PY_KEYWORDS
    value = node
    for part in path.split("."):
        if value is None:
            return None
        value = getattr(value, part + "_" if part in PY_KEYWORDS else part, None)
    return value


def _value_text(value) -> str | None:
    """A literal argument as text (a word, a string, a number, a literal's value)."""
    if isinstance(value, (str, int, float)):
        return str(value)
    for attr in ("value", "role"):
        if hasattr(value, attr) and isinstance(getattr(value, attr), (str, int)):
            return str(getattr(value, attr))
    return None


class ConceptWalk:
    """Concepts of a typed ludeme tree, each node's computed once."""

    def __init__(self, root=None):
        self._memo: dict[int, frozenset[str]] = {}
        # The game's typed tree: "@pieces" reads the moves of its (piece ...) items.
        self.root = root
        self._pieces: frozenset[str] | None = None
        # Registered ludemes met that declare no concepts of their own (a subclass does not
        # inherit its parent's: an effect form is not its decision form), as (keyword kind).
        self.undeclared: set[str] = set()

    def of(self, node) -> frozenset[str]:
        """The concepts of a ludeme (or a list of them, or a literal: none) and all inside it."""
        from ludeme.model.ludemes.base import Ludeme
        if isinstance(node, (list, tuple)):
            return frozenset().union(*(self.of(x) for x in node)) if node else frozenset()
        if not isinstance(node, Ludeme):
            return frozenset()
        key = id(node)
        if key not in self._memo:
            self._memo[key] = frozenset()        # a cycle (none expected) stops here
            added, removed, left_out = self.declared(node)
            inner = set()
            heads = {path.split(".")[0] for path in left_out}
            for p in type(node).params:
                if p.name not in heads:
                    inner |= self.of(getattr(node, p.attr, None))
            for path in (x for x in left_out if "." in x):
                inner |= self._without(_argument(node, path.rsplit(".", 1)[0]),
                                       path.rsplit(".", 1)[1])
            self._memo[key] = frozenset((inner | added) - removed)
        return self._memo[key]

    def _without(self, node, attr: str) -> set[str]:
        """The concepts of a ludeme leaving one of its arguments out (for "-to.apply")."""
        if node is None:
            return set()
        added, removed, _ = self.declared(node)
        inner = set()
        for p in type(node).params:
            if attr not in (p.name, p.attr):      # "if" names the attribute `if_`
                inner |= self.of(getattr(node, p.attr, None))
        return (inner | added) - removed

    def declared(self, node) -> tuple[set[str], set[str], set[str]]:
        """(concepts added, concepts taken out, arguments left out) by the node's declaration."""
        from ludeme.model.ludemes.base import SITE_TYPES, takes_site_type
        out, removed, left_out = set(), set(), set()
        cls = type(node)
        if cls.keyword and "concepts" not in vars(cls) and (
                hasattr(cls, "concepts") or not getattr(sys.modules[cls.__module__],
                                                        "CONCEPTS_REVIEWED", False)):
            # Inherited (an effect form is not its decision form) or never reviewed.
            from ludeme.model.ludemes.base import called
            self.undeclared.add(f"({called(cls)})")
        for entry in getattr(type(node), "concepts", ()):
            name, terms = parse_entry(entry)
            if name == "@end":
                out |= self.end_concepts(_argument(node, terms[0]), _argument(node, terms[1]))
            elif name.startswith("-") and name[1:2].islower():
                left_out.add(name[1:])
            elif name == "@pieces":
                if all(self._holds(node, t) for t in terms):
                    out |= self.piece_moves()
            elif all(self._holds(node, t) for t in terms):
                (removed if name.startswith("-") else out).add(name.lstrip("-"))
        for p in type(node).params:
            if p.name in left_out:
                continue
            if takes_site_type(p.type) and getattr(node, p.attr, None) in SITE_TYPES:
                out.add(getattr(node, p.attr))      # Ludii's SiteType.concepts(type)
            if _is_direction(p.type):
                value = getattr(node, p.attr, None)
                for word in value if isinstance(value, list) else [value]:
                    if word in DIRECTION_CONCEPTS:
                        out.add(DIRECTION_CONCEPTS[word])
        return out, removed, left_out

    def piece_moves(self) -> frozenset[str]:
        """The concepts of the moves of every piece of the game (Ludii's ForEachPiece
        without moves of its own reads every component's generator)."""
        from ludeme.model.ludemes.base import Ludeme
        if self._pieces is None:
            self._pieces = frozenset()       # a piece's moves that name (forEach Piece)
            found: set[str] = set()
            stack = [self.root]
            while stack:
                node = stack.pop()
                if isinstance(node, (list, tuple)):
                    stack.extend(node)
                elif isinstance(node, Ludeme):
                    generator = getattr(node, "generator", None)
                    if type(node).keyword == "piece" and generator is not None:
                        found |= self.of(generator)
                    stack.extend(getattr(node, p.attr, None) for p in type(node).params)
            self._pieces = frozenset(found)
        return self._pieces

    def end_concepts(self, cond, result) -> set[str]:
        """Ludii's `EndConcepts`: the end families a condition triggers, won or lost by whom."""
        found = self.of(cond)
        role = _value_text(_argument(result, "role")) if result is not None else None
        kind = _value_text(_argument(result, "kind")) if result is not None else None
        out = set()
        for family, triggers, excluded in END_FAMILIES:
            if family in ALL_TRIGGERS_NEEDED:
                if not triggers <= found:
                    continue
            elif not (found & triggers) or (found & excluded
                                            and not found & (triggers - {"NoPiece"})):
                continue
            out.add(f"{family}End" if family != "Checkmate" else family)
            if kind == "Draw":
                out.add(f"{family}Draw")
            elif (kind, role) in (("Win", "Mover"), ("Loss", "Next")):
                out.add(f"{family}Win")
            elif (kind, role) in (("Loss", "Mover"), ("Win", "Next")):
                out.add(f"{family}Loss")
        if (kind, role) in (("Win", "Next"), ("Loss", "Mover")):
            out.add("Misere")
        return (out & set(catalog())) | (self.of(result) if result is not None else set())

    def _holds(self, node, term) -> bool:
        negated, path, op, value = term
        arg = _argument(node, path)
        if op is None:     # given (a 0 is given; an empty list is not)
            result = not (arg is None or arg is False or arg == [] or arg == ())
        elif op == "has":
            result = value in self.of(arg)
        elif op == "is":      # "is count", with its kind "is countPieces", or a class: "is IntConst"
            kind = getattr(type(arg), "kind", None) or ""
            result = value in (getattr(type(arg), "keyword", None), type(arg).__name__,
                               f"{getattr(type(arg), 'keyword', '')}{kind}")
        elif isinstance(arg, (list, tuple)):     # a list of words: one of them is
            result = any(_value_text(x) in value.split("|") for x in arg)
        else:
            result = _value_text(arg) in value.split("|")
        return result != negated


def _is_direction(t) -> bool:
    """Whether a declared argument type accepts direction words."""
    from ludeme.model.ludemes.base import DirWord
    return t is DirWord or (isinstance(t, tuple) and DirWord in t)


# Direction words -> Ludii's direction concepts (compass names have none).
DIRECTION_CONCEPTS = {
    "All": "AllDirections", "Adjacent": "AdjacentDirection", "Orthogonal": "OrthogonalDirection",
    "Diagonal": "DiagonalDirection", "OffDiagonal": "OffDiagonalDirection",
    "Rotational": "RotationalDirection", "SameLayer": "SameLayerDirection",
    "Forward": "ForwardDirection", "Backward": "BackwardDirection",
    "Forwards": "ForwardsDirection", "Backwards": "BackwardsDirection",
    "Rightward": "RightwardDirection", "Leftward": "LeftwardDirection",
    "Rightwards": "RightwardsDirection", "Leftwards": "LeftwardsDirection",
    "FL": "ForwardLeftDirection", "FR": "ForwardRightDirection",
    "BL": "BackwardLeftDirection", "BR": "BackwardRightDirection",
    "SameDirection": "SameDirection", "OppositeDirection": "OppositeDirection",
}

# Ludii's end-rule families: (family, concepts of the condition that trigger it, concepts
# that exclude it). The family's End concept is set, and Win/Loss/Draw by the result.
END_FAMILIES = (
    ("NoMoves", {"NoMoves"}, set()),
    ("NoProgress", {"ProgressCheck"}, set()),
    ("Scoring", {"Scoring"}, set()),
    ("NoOwnPieces", {"NoPieceMover"}, set()),
    ("Fill", {"Fill"}, set()),
    ("Reach", {"Contains"}, set()),
    ("NoTargetPiece", {"NoTargetPiece"}, set()),
    ("EliminatePieces", {"NoPieceNext", "CountPiecesNextComparison", "NoPiece"},
     {"NoPieceMover"}),
    ("Checkmate", {"CanNotMove", "Threat"}, set()),
    ("Line", {"Line"}, set()),
    ("Connection", {"Connection"}, set()),
    ("Group", {"Group"}, set()),
    ("Loop", {"Loop"}, set()),
    ("Pattern", {"Pattern"}, set()),
    ("Territory", {"Territory"}, set()),
    ("PathExtent", {"PathExtent"}, set()),
)


# ---------------------------------------------------------------- the game frame

# Families whose every trigger the condition must hold (Ludii's checkmate: a threat and
# no move).
ALL_TRIGGERS_NEEDED = {"Checkmate"}

# Board shapes (built by ludeme.boards from the raw shape call): the concepts of
# the shape ludeme, by its name and (for concentric boards) its first word.
SHAPE_CONCEPTS = {
    "square": ("SquareShape", "SquareTiling", "RegularShape", "PolygonShape"),
    "rectangle": ("RectangleShape", "SquareTiling", "RegularShape", "PolygonShape"),
    "hex": ("HexShape", "HexTiling", "RegularShape", "PolygonShape"),
    "tri": ("TriangleShape", "TriangleTiling", "RegularShape", "PolygonShape"),
    "graph": ("PolygonShape",),
    "quadhex": ("QuadHexTiling", "HexShape", "PolygonShape"),
}
# Tilings whose Ludii classes (Tiling31212, Tiling4612, Tiling33336, Tiling333333_33434,
# Tiling33344) declare no shape concept.
SEMI_REGULAR_NO_SHAPE = ("T31212", "T4612", "T33336", "T333333_33434", "T33344")
CUSTOM_TILINGS = ("T3636", "T3464", "T33344", "T488")
BRICK_SHAPES = ("Square", "Rectangle", "Diamond", "Prism", "Spiral", "Limping")
# A boardless table is Ludii's square, hexagon or triangle of its tiling (Boardless).
BOARDLESS_CONCEPTS = {
    "Square": {"SquareShape", "SquareTiling", "RegularShape", "PolygonShape"},
    "Hexagonal": {"HexShape", "HexTiling", "RegularShape", "PolygonShape"},
    "Triangle": {"TriangleShape", "TriangleTiling", "RegularShape", "PolygonShape"},
}
HEX_SHAPES = {"Star": "StarShape", "Diamond": "DiamondShape", "Triangle": "TriangleShape",
              "Rectangle": "RectangleShape"}

BOARD_STYLES = {"ChessStyle", "GoStyle", "MancalaStyle", "PenAndPaperStyle", "ShibumiStyle",
                "BackgammonStyle", "JanggiStyle", "XiangqiStyle", "ShogiStyle", "TableStyle",
                "SurakartaStyle", "TaflStyle"}

# Graphics metadata: (ludeme, first word, second word) -> concept.
METADATA_CONCEPTS = {
    ("board", "Style", "Graph"): "GraphStyle", ("board", "Style", "Chess"): "ChessStyle",
    ("board", "Style", "Go"): "GoStyle", ("board", "Style", "Mancala"): "MancalaStyle",
    ("board", "Style", "PenAndPaper"): "PenAndPaperStyle",
    ("board", "Style", "Shibumi"): "ShibumiStyle", ("board", "Style", "Backgammon"): "BackgammonStyle",
    ("board", "Style", "Janggi"): "JanggiStyle", ("board", "Style", "Xiangqi"): "XiangqiStyle",
    ("board", "Style", "Shogi"): "ShogiStyle", ("board", "Style", "Table"): "TableStyle",
    ("board", "Style", "Surakarta"): "SurakartaStyle", ("board", "Style", "Tafl"): "TaflStyle",
    ("show", "Symbol", None): "Symbols", ("piece", "Style", "Stack"): "Stack",
    ("show", "Score", None): None,
}


_METADATA_LOWER = {(k[0], k[1].lower(), k[2].lower() if k[2] else None): v
                   for k, v in METADATA_CONCEPTS.items()}


def _words(call) -> list[str]:
    """The bare words among a call's arguments."""
    from ludeme.language.syntax import Word
    return [a.value for a in call.args if isinstance(a, Word)]


def _calls(node, chosen=None):
    """Every call in a syntax tree; with `chosen` (the selected "Category/Item" options and
    the ruleset), not those inside a `(useFor {...} ...)` that names none of them."""
    from ludeme.language.syntax import Array, Call, Named, Str
    if isinstance(node, Call):
        if chosen is not None and node.name == "useFor" and node.args:
            first = node.args[0]
            names = {i.value for i in (first.items if isinstance(first, Array) else [first])
                     if isinstance(i, Str)}
            if not names & chosen:
                return
        yield node
        for a in node.args:
            yield from _calls(a, chosen)
    elif isinstance(node, Array):
        for a in node.items:
            yield from _calls(a, chosen)
    elif isinstance(node, Named):
        yield from _calls(node.value, chosen)


def concentric_concepts(shape, words) -> set[str]:
    """Ludii's (concentric ...) builds a regular polygon's rings (a shape word with rings:,
    or sides:), a target (Target; with steps:, a wheel) or a wheel of cells per ring (an
    array): each with its own concepts."""
    from ludeme.language.syntax import Int, Named
    named = {a.name: a.value for a in shape.args if isinstance(a, Named)}
    wheel = {"ConcentricTiling", "CircleTiling", "CircleShape"}
    if words[:1] == ["Target"]:
        return wheel if "steps" in named else {"ConcentricTiling", "TargetShape"}
    sides = {"Triangle": 3, "Square": 4, "Hexagon": 6}.get(words[0]) if words else None
    if sides is None and isinstance(named.get("sides"), Int):
        sides = named["sides"].value
    if sides is None and "sides" not in named:
        return wheel
    out = {"ConcentricTiling", "MorrisTiling", "RegularShape", "PolygonShape"}
    return out | {3: {"TriangleShape"}, 4: {"SquareShape"}, 6: {"HexShape"}}.get(sides, set())


def shape_concepts(board_item) -> set[str]:
    """The concepts of the board's shape ludeme."""
    from ludeme.language.syntax import Array, Call, Int, Named, Word
    shape = board_item.shape.node      # the graph function as written
    while shape.name in ("rotate", "recoordinate", "layers"):   # these keep the board's shape
        # the graph is the last argument: the angle may be arithmetic, (- 90 62)
        shape = [a for a in shape.args if isinstance(a, Call)][-1]
    out = set(SHAPE_CONCEPTS.get(shape.name, ()))
    words = _words(shape)
    if shape.name == "hex" and set(words) & set(HEX_SHAPES):
        out = (out - {"HexShape"}) | {HEX_SHAPES[next(w for w in words if w in HEX_SHAPES)]}
    if shape.name == "tri" and "Star" in words:
        out = (out - {"TriangleShape"}) | {"StarShape"}     # Ludii's StarOnTri
    if shape.name in ("tri", "hex") and ("Limping" in words or shape.positional()
                                         and not isinstance(shape.positional()[0], (Int, Word))):
        # Ludii's CustomOnTri and CustomOnHex (a limping hexagon, side lengths or a polygon)
        out = {"TriangleTiling" if shape.name == "tri" else "HexTiling", "PolygonShape"}
    outlined = any(isinstance(a, Array) or isinstance(a, Call) and a.name == "poly"
                   for a in shape.args)
    if shape.name == "tiling" and words[:1] == ["T3464"] and not outlined:
        # Ludii's HexagonOn3464, or ParallelogramOn3464 given a second size
        two = len([a for a in shape.positional() if not isinstance(a, Word)]) > 1
        out = {"SemiRegularTiling", "ParallelogramShape" if two else "HexShape", "PolygonShape"}
    if shape.name == "tiling" and words[:1] and (words[0] in SEMI_REGULAR_NO_SHAPE or outlined
                                                 and words[0] in CUSTOM_TILINGS):
        # a polygon or side lengths: Ludii's CustomOn3636, CustomOn3464, CustomOn33344,
        # CustomOn488 (or the fixed boards the others build then)
        out = {"SemiRegularTiling", "PolygonShape"}
    if shape.name == "tiling" and words[:1] == ["T488"] and not outlined:
        # Ludii's SquareOrRectangleOn488
        two = len([a for a in shape.positional() if not isinstance(a, Word)]) > 1
        out = {"SemiRegularTiling", "RectangleShape" if two else "SquareShape", "RegularShape",
               "PolygonShape"}
    if shape.name == "brick":
        # Ludii's SquareOrRectangleOnBrick calls a board Square only when one size is
        # written (it compares the two as objects); the other shapes are named as written
        sized = len([a for a in shape.positional() if not isinstance(a, Word)])
        kind = next((w for w in words if w in BRICK_SHAPES), None) or "Square"
        named = "Rectangle" if kind == "Limping" or kind == "Square" and sized > 1 else kind
        out = {"BrickTiling", f"{named}Shape", "PolygonShape"}
    if shape.name == "celtic":
        # Ludii's Celtic: SquareShape only for one size written; a polygon or side
        # lengths leave it without a shape, which it reports as RectangleShape
        one = [type(a) for a in shape.positional()] == [Int]
        out = {"CelticTiling", "SquareShape" if one else "RectangleShape", "PolygonShape"}
    if shape.name == "concentric":
        out = concentric_concepts(shape, words)
    if shape.name == "square" and shape.positional() and not isinstance(
            shape.positional()[0], (Int, Word)):
        out = {"SquareTiling"}      # Ludii's CustomOnSquare (a polygon or side lengths)
    sizes = [a.value for a in shape.args if isinstance(a, Int)]
    if shape.name == "rectangle" and (len(sizes) == 1 or len(set(sizes)) == 1):
        out = (out - {"RectangleShape"}) | {"SquareShape"}     # a square given as a rectangle
    for a in shape.args:
        if isinstance(a, Named) and a.name == "diagonals":
            out = (out - {"SquareTiling"}) | {"AlquerqueTiling"}
    return out


# Ludii names a piece's image family by the folder of the image its name finds
# (`ImageUtil.getImageFullPath`: the image whose file is the name, else the longest image
# name inside it), unless the name is one the Piece ludeme declares (King, Pawn, ...) or
# one drawn without an image (marker, ball, ...).
IMAGES_FILE = Path(__file__).with_name("images.txt")
IMAGE_FOLDER_FAMILIES = (("tafl", "TaflComponent"), ("animal", "AnimalComponent"),
                         ("fairyChess", "FairyChessComponent"), ("chess", "ChessComponent"),
                         ("ploy", "PloyComponent"), ("shogi", "ShogiComponent"),
                         ("xiangqi", "XiangqiComponent"), ("stratego", "StrategoComponent"),
                         ("Janggi", "JanggiComponent"), ("hand", "HandComponent"),
                         ("checkers", "CheckersComponent"))
NAMED_COMPONENTS = {"ball", "disc", "marker", "king", "king_nocross", "knight", "queen", "bishop",
                    "bishop_nocross", "rook", "pawn"}
UNDRAWN_IMAGES = {"marker", "ball", "seed", "ring", "chocolate", "null"}


@cache
def _images() -> list[tuple[str, str]]:
    """(image name in lower case, its path) for every image, in Ludii's order."""
    lines = IMAGES_FILE.read_text(encoding="utf-8").splitlines()
    return [(p.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower(), p) for p in lines
            if p and not p.startswith("#")]


def image_family(name: str) -> str | None:
    """The component concept of a piece's image family (None: no image, or no family)."""
    low = name.lower()
    if low in NAMED_COMPONENTS:
        return None
    path = next((p for short, p in _images() if short == low), None)
    if path is None and low not in UNDRAWN_IMAGES:
        best = None
        for short, p in _images():
            if short in low and (best is None or len(short) > len(best[0])):
                best = (short, p)
        path = best[1] if best else None
    if path is None:
        return None
    return next((family for folder, family in IMAGE_FOLDER_FAMILIES if folder in path), None)


# `(stackType ...)` kinds whose metadata sets Stack (Ludii's StackType.concepts).
STACK_TYPES_DRAWN_AS_STACKS = {"backgammon", "default", "none", "reverse"}

# `(piece Families {...})`: the families of piece images the game offers (Ludii's
# PieceFamilies names only the abstract one; themed images are found by the pieces' names).
PIECE_FAMILIES = {"Abstract": "MarkerComponent"}


def metadata_concepts(metadata, chosen=None) -> set[str]:
    """Concepts of the graphics metadata (board style, symbols, piece families, ...); with
    `chosen`, only the `useFor` entries of the selected options or ruleset count."""
    from ludeme.language.syntax import Array, Str
    out = set()
    if metadata is None:
        return out
    for call in _calls(metadata, chosen):
        if call.name == "piece" and _words(call)[:1] == ["Families"]:
            for a in call.args:
                for item in a.items if isinstance(a, Array) else [a]:
                    if isinstance(item, Str) and item.value in PIECE_FAMILIES:
                        out.add(PIECE_FAMILIES[item.value])
        if call.name == "stackType":     # Ludii's PieceStackType metadata
            out.add("StackType")
            if {w.lower() for w in _words(call)} & STACK_TYPES_DRAWN_AS_STACKS:
                out.add("Stack")
        words = [w.lower() for w in _words(call)] + [None, None]   # Ludii reads them in any case
        for key in ((call.name, words[0], words[1]), (call.name, words[0], None)):
            concept = _METADATA_LOWER.get(key)
            if concept:
                out.add(concept)
    return out


def _all_nodes(node):
    """Every node of a syntax tree."""
    yield node
    for child in getattr(node, "args", None) or getattr(node, "items", None) or ():
        yield from _all_nodes(child)
    if hasattr(node, "value") and hasattr(node.value, "pos"):
        yield from _all_nodes(node.value)


def define_concepts(ex) -> set[str]:
    """Concepts named after the library defines the game uses (NineMensMorrisBoard, ...).

    Ludii records which of its known defines a description calls; here the
    expanded nodes remember the call sites they came through (`via`), and the
    description's own parse tree names the define called at each site.
    """
    calls = {ex.description.path: _calls_by_position(ex.description.path, ex.description.text)}
    used = set()
    for n in _all_nodes(ex.game):
        for pos in n.via:
            if pos.file not in calls and pos.file.endswith(".def") and Path(pos.file).is_file():
                calls[pos.file] = _calls_by_position(pos.file)   # a library define's own calls
            name = calls.get(pos.file, {}).get((pos.line, pos.col))
            if name:
                used.add(name)
    return set().union(*(LIBRARY_BOARDS.get(name, set()) for name in used))


# The library defines Ludii recognises (`Game.computeBooleanConcepts`) and what each sets;
# any other define, a game's own "NoPiece" for one, sets nothing by its name.
_TRI = {"Two": "BottomAndTop", "One": "Bottom", "Four": "Four"}
LIBRARY_BOARDS = {
    "AlquerqueBoard": {"AlquerqueBoard"}, "AlquerqueGraph": {"AlquerqueBoard"},
    **{f"Alquerque{kind}With{where}Triangle{'s' if n != 'One' else ''}":
       {"AlquerqueBoard", f"AlquerqueBoardWith{n}Triangle{'s' if n != 'One' else ''}"}
       for n, where in _TRI.items() for kind in ("Board", "Graph")},
    "AlquerqueBoardWithEightTriangles": {"AlquerqueBoard", "AlquerqueBoardWithEightTriangles"},
    "ThreeMensMorrisBoard": {"ThreeMensMorrisBoard"},
    **{f"ThreeMensMorris{kind}WithLeftAndRightTriangles":
       {"ThreeMensMorrisBoard", "ThreeMensMorrisBoardWithTwoTriangles"}
       for kind in ("Board", "Graph")},
    "NineMensMorrisBoard": {"NineMensMorrisBoard"}, "StarBoard": {"StarBoard"},
    "CrossBoard": {"CrossBoard"}, "CrossGraph": {"CrossBoard"}, "KintsBoard": {"KintsBoard"},
    "PachisiBoard": {"PachisiBoard"},
    "FortyStonesWithFourGapsBoard": {"FortyStonesWithFourGapsBoard"},
}


@cache
def _calls_by_position(path: str, text: str | None = None) -> dict:
    """{(line, col): call name} for every call in a .lud or .def file."""
    from ludeme.language.grammar import parse
    from ludeme.language.syntax import Call
    if text is None:
        text = Path(path).read_text(encoding="utf-8")
    return {(n.pos.line, n.pos.col): n.name for top in parse(text, path)
            for n in _all_nodes(top) if isinstance(n, Call)}


def mancala_concepts(board, board_item) -> set[str]:
    """What Ludii's Mancala board style adds: the board kind, its rows and stores, and the
    sowing direction of each track (its first step north or east: counter-clockwise;
    south or west: clockwise), as Ludii's `Game.setMetadata` reads them."""
    out = {"MancalaBoard"}
    if board_item is not None and type(board_item).keyword == "mancalaBoard":
        rows = _value_text(board_item.rows)
        out |= {"Sow"} | ({"MancalaStores"} if board_item.store != "None" else set())
        out |= {f"Mancala{w}Rows" for n, w in (("2", "Two"), ("3", "Three"), ("4", "Four"),
                                               ("6", "Six")) if rows == n}
    tracks = getattr(board, "track_info", ())
    if tracks:
        out.add("Track")
        for track in tracks:
            if len(track.sites) < 2:
                continue
            first, nxt = track.sites[0], track.sites[1]
            for d in ("N", "E", "S", "W"):
                try:
                    hit = nxt in board.default.trajectories.targets(first, d)
                except (KeyError, IndexError, AttributeError):
                    hit = False
                if hit:
                    out.add("SowCCW" if d in ("N", "E") else "SowCW")
    return out


def frame_concepts(game, typed, metadata, chosen=None) -> set[str]:
    """What the game frame sets: format, players, board and its site types, metadata."""
    n = game.num_players
    out = {"Discrete", "Alternating", "Players", "Board"}
    out.add({1: "Solitaire", 2: "TwoPlayer"}.get(n, "Multiplayer"))
    out.add(game.board.site_type)
    board_item = next((i for i in typed.equipment.items
                       if type(i).keyword in ("board", "mancalaBoard", "surakartaBoard")),
                      None) if typed.equipment else None
    if board_item is not None and type(board_item).keyword in ("board", "surakartaBoard"):
        out |= shape_concepts(board_item)
    boardless = next((i for i in typed.equipment.items if type(i).keyword == "boardless"),
                     None) if typed.equipment else None
    if boardless is not None:
        out |= BOARDLESS_CONCEPTS[boardless.tiling]
    styles = metadata_concepts(metadata, chosen)
    if game.board.site_type == "Vertex":
        styles.add("GraphStyle")        # a board played on its vertices is drawn as a graph
    if "MancalaStyle" in styles:
        out |= mancala_concepts(game.board, board_item)
    out.add("End")                      # Ludii sets it for every game, with or without end rules
    if len(game.phases) > 1:
        out.add("Phase")                # as Ludii: only a game of more than one phase
    if game.stacking:
        out |= {"StackState", "Stack"}
    players = typed.players.players if typed.players else []
    if any(getattr(p, "dirn", None) for p in players):
        out |= {"PieceDirection", "PlayersWithDirections"}   # as Ludii's Player
    for comp in game.components[1:]:
        family = image_family(comp.name.rstrip("0123456789"))
        if family:
            out.add(family)
    owned = {}
    for comp in game.components[1:]:
        owned.setdefault(comp.owner, set()).add(comp.name.rstrip("0123456789"))
    kinds = [owned.get(p, set()) for p in range(1, n + 1)]
    # As Ludii: asymmetric when some kind of player 1's is missing from another player's.
    if n > 1 and any(kinds[0] - k for k in kinds[1:]):
        out.add("AsymmetricPiecesType")
    return out | styles


def derived_concepts(found: set[str], metadata_styles: set[str]) -> set[str]:
    """Ludii's game-level inferences over the ludemes' concepts (`computeBooleanConcepts`,
    `setMetadata`): dice make a game stochastic with site states, large pieces give site
    states; a stacking game whose metadata does not draw stacks loses Stack."""
    out = set(found)
    if "Dice" in out:     # with their parents, as Ludii sets these before the parents
        out |= with_parents({"Stochastic", "SiteState"})
    if "LargePiece" in out:     # its state is its rotation
        out |= with_parents({"SiteState"})
    # Ludii's Game.setMetadata: a stacking game keeps Stack only when its metadata sets it
    # (a stack type drawn as stacks); StackType, its parent, stays.
    if "StackState" in out and "Stack" not in metadata_styles:
        out.discard("Stack")
    return out


# ---------------------------------------------------------------- non-boolean concepts

def _region_size(board, name: str) -> int | None:
    try:
        return len(board.region(name))
    except (KeyError, ValueError, TypeError, LudemeError):
        return None


def non_boolean(game, typed, boolean: set[str]) -> dict[str, str]:
    """NumPlayers, board sizes and directions, containers and components, as Ludii prints them.

    Playable sites on the board count every site type the game plays on (the
    Vertex, Cell and Edge concepts set).
    """
    board = game.board
    topo = board.default
    n = max(1, topo.num_sites)
    on_board = sum(count for kind, count in (("Vertex", board.num_vertices),
                                              ("Cell", board.num_cells),
                                              ("Edge", board.num_edges)) if kind in boolean)

    def avg(rel):
        return sum(len(x) for x in topo.neighbours[rel]) / n
    values = {
        "NumPlayers": game.num_players,
        "NumPlayableSitesOnBoard": on_board,
        "NumColumns": len(topo.columns), "NumRows": len(topo.rows),
        "NumDirections": avg("All"), "NumOrthogonalDirections": avg("Orthogonal"),
        "NumDiagonalDirections": avg("Diagonal"), "NumAdjacentDirections": avg("Adjacent"),
        "NumOffDiagonalDirections": avg("OffDiagonal"),
        "NumEdges": board.num_edges, "NumCells": board.num_cells, "NumVertices": board.num_vertices,
        "NumContainers": len(game.containers),
        "NumPlayableSites": on_board + sum(c.num_sites for c in game.containers[1:]),
        "NumComponentsType": len(game.components) - 1,
        # Ludii counts the dice among the components (its test for a die: the name says so)
        "NumDice": sum("Die" in c.name for c in game.components[1:]),
        "NumLayers": 0 if board.boardless else 1,   # Ludii: no layer off a board
        "NumPlayPhase": len(game.phases),
    }
    owners = [c.owner for c in game.components[1:]]
    if game.num_players:
        values["NumComponentsTypePerPlayer"] = sum(1 for o in owners if 1 <= o <= game.num_players
                                                   ) / game.num_players
    for concept, region in (("NumCorners", "Corners"), ("NumOuterSites", "Outer"),
                            ("NumInnerSites", "Inner"), ("NumPerimeterSites", "Perimeter"),
                            ("NumTopSites", "Top"), ("NumBottomSites", "Bottom"),
                            ("NumRightSites", "Right"), ("NumLeftSites", "Left"),
                            ("NumCentreSites", "Centre"), ("NumConvexCorners", "ConvexCorners"),
                            ("NumConcaveCorners", "ConcaveCorners")):
        size = _region_size(board, region)
        if size is not None:
            values[concept] = size
    return {k: _ludii_number(v) for k, v in values.items()}


def _ludii_number(v) -> str:
    """A number as Ludii's database writes it: at most two decimals, no trailing zeros."""
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(int(v))


# ---------------------------------------------------------------- one configuration

@dataclass
class GameConcepts:
    """The concepts of one configuration."""

    game: str
    file: str
    options: list[str]
    ruleset: str | None
    boolean: set[str]
    non_boolean: dict[str, str]
    playout: dict[str, float] = field(default_factory=dict)
    playout_source: str = ""
    playout_agents: list[str] = field(default_factory=list)   # one agent name per player
    playout_count: int = 0
    undeclared: set[str] = field(default_factory=set)   # ludemes whose concepts are unknown

    def to_json(self) -> dict:
        """As `../shared/refdata/concepts/<slug>.json`, plus the playout concepts and groups."""
        cat = catalog()
        names = sorted(self.boolean, key=lambda c: cat[c].id)
        out = {"game": self.game, "file": self.file, "ruleset": self.ruleset,
               "options": self.options, "booleanConcepts": names, "numTrue": len(names),
               "nonBooleanConcepts": self.non_boolean,
               "byType": {t: [c for c in names if cat[c].type == t]
                          for t in dict.fromkeys(cat[c].type for c in names)}}
        if self.undeclared:
            out["undeclaredLudemes"] = sorted(self.undeclared)
        if self.playout:
            out["playoutConcepts"] = self.playout
            out["playoutSource"] = self.playout_source
            out["playoutAgents"] = self.playout_agents
            out["playoutCount"] = self.playout_count
        return out


def compile_time(path: str, options=(), ruleset: str | None = None) -> GameConcepts:
    """The compile-time concepts of one configuration of a description."""
    from ludeme.api import load
    from ludeme.language.expand import expand_file
    from ludeme.model.ludemes.base import Other
    from ludeme.model.ludemes.builder import Builder
    ex = expand_file(path, list(options), ruleset)
    game = load(path, options, ruleset)
    typed = Builder().build(ex.game, Other, "")
    walk = ConceptWalk(typed)
    chosen = set(ex.option_specs) | ({ex.ruleset.name} if ex.ruleset else set())
    found = set(walk.of(typed)) | frame_concepts(game, typed, ex.metadata, chosen) \
        | define_concepts(ex)
    names = derived_concepts(with_parents(found), metadata_concepts(ex.metadata, chosen))
    return GameConcepts(game.name, str(path), list(game.options), game.ruleset, names,
                        non_boolean(game, typed, names), undeclared=set(walk.undeclared))


# ---------------------------------------------------------------- similarity

def jaccard(a: set, b: set) -> float:
    """|a & b| / |a | b| (1 for two empty sets)."""
    return len(a & b) / len(a | b) if a | b else 1.0


def numeric_vector(values: dict[str, str], names: list[str]) -> list[float]:
    """The non-boolean concepts in a fixed order, 0 where absent."""
    out = []
    for n in names:
        try:
            out.append(float(values.get(n, 0)))
        except ValueError:
            out.append(0.0)
    return out


def cosine_distance(u: list[float], v: list[float]) -> float:
    """scipy's cosine distance, 0 for two zero vectors."""
    from scipy.spatial.distance import cosine
    if not any(u) and not any(v):
        return 0.0
    if not any(u) or not any(v):
        return 1.0
    return float(cosine(u, v))


def nearest(target: GameConcepts, index: list[dict], k: int) -> list[dict]:
    """The k indexed games nearest to `target`: Jaccard distance on booleans, then cosine on numbers."""
    names = sorted({n for e in index for n in e["nonBooleanConcepts"]} | set(target.non_boolean))
    tv = numeric_vector(target.non_boolean, names)
    rows = []
    for e in index:
        rows.append({"name": e["name"], "path": e["path"],
                     "jaccard_distance": 1.0 - jaccard(target.boolean, set(e["booleanConcepts"])),
                     "cosine_distance": cosine_distance(
                         tv, numeric_vector(e["nonBooleanConcepts"], names))})
    rows.sort(key=lambda r: (r["jaccard_distance"], r["cosine_distance"], r["name"]))
    return rows[:k]


def build_index(folder: Path) -> tuple[list[dict], list[tuple[str, str]]]:
    """Compile-time concepts of every .lud under `folder` (default options); and the failures."""
    from .check import find_lud_files
    if not Path(folder).is_dir():
        raise LudemeError(f"--index {printable(str(folder))}: no such folder (give a folder "
                          "of .lud descriptions)")
    paths = find_lud_files([str(folder)])
    if not paths:
        raise LudemeError(f"--index {printable(str(folder))}: no .lud descriptions in it")
    entries, failures = [], []
    for path in paths:
        try:
            gc = compile_time(path)
        except LudemeError as e:
            failures.append((str(path), str(e).splitlines()[0]))
            continue
        entries.append({"name": gc.game, "path": str(Path(path).relative_to(folder)),
                        "booleanConcepts": sorted(gc.boolean),
                        "nonBooleanConcepts": gc.non_boolean})
    return entries, failures


def write_index(folder: Path, out: Path) -> tuple[list[dict], list[tuple[str, str]]]:
    """`build_index(folder)` written to `out` as JSON; its entries and failures."""
    entries, failures = build_index(folder)
    out.write_text(json.dumps({"folder": str(folder), "games": entries, "failures": failures},
                              indent=1), encoding="utf-8")
    return entries, failures


def read_index(path: Path) -> list[dict]:
    """The games of an index written by `write_index`; a LudemeError when `path` is missing,
    empty, not JSON or not such an index."""
    text = read_source(path, "concepts index")
    what = "not an index written by `ludeme concepts --index DIR --out`"
    where = printable(str(path))
    if not text.strip():
        raise LudemeError(f"{where}: {what}: the file is empty")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise LudemeError(f"{what}: not JSON ({e.msg})", Pos(str(path), e.lineno, e.colno),
                          source=text) from None
    except RecursionError:
        raise LudemeError(f"{where}: {what}: its JSON nests too deep") from None
    games = data.get("games") if isinstance(data, dict) else None
    keys = {"name", "path", "booleanConcepts", "nonBooleanConcepts"}
    if not isinstance(games, list) or not all(isinstance(g, dict) and keys <= set(g)
                                              for g in games):
        raise LudemeError(f"{where}: {what}: expected an object whose 'games' lists each "
                          "game's name, path, booleanConcepts and nonBooleanConcepts")
    return games


def diff(a: GameConcepts, b: GameConcepts) -> dict:
    """Which concepts differ between two configurations."""
    keys = sorted(set(a.non_boolean) | set(b.non_boolean))
    cat = catalog()
    return {"only_a": sorted(a.boolean - b.boolean, key=lambda c: cat[c].id),
            "only_b": sorted(b.boolean - a.boolean, key=lambda c: cat[c].id),
            "non_boolean": {k: [a.non_boolean.get(k), b.non_boolean.get(k)] for k in keys
                            if a.non_boolean.get(k) != b.non_boolean.get(k)},
            "jaccard": jaccard(a.boolean, b.boolean)}
