"""Reconstruction: complete the unknown parts (`[#]`) of an incomplete description with
fragments of other descriptions, keep the candidates that build, end and have the expected
concepts, and rank them with their reasons.

1. **Holes.** `find_holes` reads the expanded template's tree: each `[#]` (or `[?]`, or a
   choice `[a | b]`, `[2..16]`) with its *context*, the enclosing ludeme's keyword and the
   hole's place among its arguments (`(play [#])` takes what a `(play ...)` holds, `(rules
   [#])` a whole start/play/end, `(equipment { ... [#] })` more items of an equipment list).
2. **Fragments.** `FragmentIndex` reads every description of a corpus folder (its expanded
   tree: defines resolved; descriptions that are templates themselves left out) and files
   the argument runs of each ludeme under the same contexts, each with its source game.
   A fragment's piece names are mapped to the template's (by owner, then order).
3. **Sources first.** The source games are ordered by closeness to the template: the same
   family (`family_closeness` of their classifications: board/hunt, board/race holding
   board/race/escape, ...), the expected `(recon ...)` concepts the source
   itself has (when a concept index is given: `ludeme concepts --index`), the ludemes the
   template's known part shares with the source (Jaccard). Candidates take every hole from
   one source first, then mix the best fragments of each hole; at most `tries` are tried.
4. **Kept** when the candidate builds (the builder is the type checker), ends in at least
   `min_ending` of `playouts` seeded random playouts, and has every expected concept;
   an expected concept ludeme cannot compute is reported unchecked, never counted as met.
5. **Ranked** by a plausibility score whose parts are in the table: concept similarity to
   the source games (and the nearest games of an index), the share of expected concepts
   checked and met, the ending rate, balance and decisiveness (1 - drawishness).
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ludeme.errors import LudemeError, Pos
from ludeme.language.expand import Description, Expanded, expand, load_description
from ludeme.language.grammar import parse
from ludeme.language.syntax import (Array, Bool, Call, Float, Int, Named, Node, Str, Template,
                                    Word, to_lud, walk)

DEFAULT_PLAYOUTS = 200
DEFAULT_TRIES = 60
# Up to this many tries, --tries shapes the order of the plans (fewer: mixes sooner); beyond
# it, more tries only go further along the same order (`iter_plans`)
ORDER_TRIES = 40
DEFAULT_K = 5
MIN_ENDING = 0.95
# A candidate whose random playouts last fewer rounds than this on average ends at once (an
# end rule true from the start): it ends, but it is no game.
MIN_ROUNDS = 2
CHEAP_FACTOR = 5     # candidates built and checked for concepts per candidate played
# Sources of other families are read for their concepts, and those with every expected
# concept rank with the family's, when fewer of the family's than the candidates written by
# default have them all (one such source gives at most one candidate of its own)
WIDEN_BELOW = DEFAULT_K
FIRST_PLAYOUTS = 20          # played first: a candidate that times out here is dropped early
UNKNOWN_MARKS = ("#", "?", "*")
OWNERS = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "Each", "Shared", "Neutral", "All")


# ---------------------------------------------------------------- holes

@dataclass(frozen=True)
class Context:
    """Where a hole stands: the enclosing ludeme's keyword, and the hole's place in it.

    `place` is "args" (among the ludeme's arguments, `before` and `after` of them around
    it) or "items" (among the items of a `{...}` list given to the ludeme, `known` naming
    the ludemes already listed there)."""

    keyword: str
    place: str
    before: int = 0
    after: int = 0
    known: tuple[str, ...] = ()
    # the kinds (`arg_kind`) of the arguments before and after the hole, in order
    around: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.place == "items":
            return f"({self.keyword} {{... [#]}})"
        dots = ["..."] * self.before + ["[#]"] + ["..."] * self.after
        return f"({self.keyword} {' '.join(dots)})"


@dataclass
class Hole:
    """One unknown part of the template: its mark, where it is written, its context, and
    the choices the mark itself lists (`[a | b]`, `[2..16]`), if any."""

    mark: Template
    context: Context
    choices: list[list[Node]] = field(default_factory=list)
    # the piece a start rule `(place "Name" [#])` or `(place "Name" (sites [#]))` puts on the
    # sites this hole holds ("" for any other hole)
    placing: str = ""
    # the contexts of its other uses, where a define holding it is used in more than one
    # place (`(define "Dim" [#])` in `(rectangle 1 ("Dim"))` and `(- "Dim" 1)`): its fill is
    # written once and must fit each of them
    uses: tuple[Context, ...] = ()
    # the nodes above the mark at each place it stands (outermost first), for the builder's
    # reading of what fits there (`fits_place`)
    chains: list[tuple[Node, ...]] = field(default_factory=list)

    @property
    def contexts(self) -> tuple[Context, ...]:
        """Every context the hole's fill stands in: its own first, then its other uses'."""
        return (self.context,) + self.uses

    @property
    def pos(self) -> Pos:
        return self.mark.pos

    def where(self) -> str:
        return f"{self.pos.file}:{self.pos.line}:{self.pos.col}"


def _children(node: Node) -> list[Node]:
    if isinstance(node, Call):
        return list(node.args)
    if isinstance(node, (Array,)):
        return list(node.items)
    if isinstance(node, Named):
        return [node.value]
    return []


def _context(parents: list[Node], mark: Template) -> Context | None:
    """The context of a mark from the nodes above it, innermost last."""
    calls = [p for p in parents if isinstance(p, Call)]
    if not calls:
        return None
    parent = parents[-1]
    if isinstance(parent, Named):
        return Context(f"{calls[-1].name} {parent.name}:", "args")
    if isinstance(parent, Array):
        known = tuple(sorted({i.name for i in parent.items
                              if isinstance(i, Call) and not places_neutral_only(i)}))
        return Context(calls[-1].name, "items", known=known)
    at = next(i for i, a in enumerate(parent.args) if a is mark)
    around = tuple(arg_kind(to_lud(a)) if not isinstance(a, Template) else ""
                   for i, a in enumerate(parent.args) if i != at)
    return Context(parent.name, "args", at, len(parent.args) - at - 1, around=around)


def places_neutral_only(item: Call) -> bool:
    """Whether a listed item is a `(place "Name0" ...)`: it puts the neutral player's piece
    (Ludii names a piece by its name and its owner's number, 0 for Neutral) and so stands
    for none of the players' places. A start hole beside it is filled from whole start
    lists, places included, not only from what other starts list besides their places."""
    if item.name != "place" or not item.args or not isinstance(item.args[0], Str):
        return False
    return re.fullmatch(r".*\D0", item.args[0].value) is not None


def arg_kind(text: str) -> str:
    """What an argument written `text` is, as far as its place among a ludeme's arguments
    goes: a string, a word (`P1`, `Mover`), a named argument (with its name), or a value
    (a ludeme, a number, a list)."""
    if text.startswith('"'):
        return "string"
    head = text.split(":", 1)[0]
    if ":" in text and head.isidentifier():
        return head + ":"
    if head.isidentifier() and text.isidentifier():
        return "word"
    return "value"


def arg_shape(text: str) -> str:
    """What an argument written `text` is, a little finer than `arg_kind`: a ludeme by its
    keyword (`(count`), a list, an int, a float, else its `arg_kind`."""
    kind = arg_kind(text)
    if kind != "value":
        return kind
    if text.startswith("("):
        head = text[1:].split(None, 1)[0] if text[1:].strip() else ""
        return "(" + head.split("(")[0].split(")")[0]
    if text.startswith("{"):
        return "{"
    for number, name in ((int, "int"), (float, "float")):
        try:
            number(text)
            return name
        except ValueError:
            pass
    return kind


def run_shape(run: tuple[str, ...]) -> tuple[str, ...]:
    """The shape of a run of argument texts: each one's `arg_shape`. A fill of a hole used
    in several places fits a use when a run of its shape stands there in the corpus."""
    return tuple(arg_shape(t) for t in run)


def kinds_fit(theirs: tuple[str, ...], mine: tuple[str, ...]) -> bool:
    """Whether a source's arguments around a run are of the kinds of the template's around
    its hole ("" for another hole of the template: any kind)."""
    return all(not m or arg_kind(t) == m for t, m in zip(theirs, mine))


def _choices(mark: Template) -> list[list[Node]]:
    """The choices a mark lists itself: each alternative, or each value of a single range."""
    alts = [a for a in mark.alternatives if a]
    if all(len(a) == 1 and isinstance(a[0], Word) and a[0].value in UNKNOWN_MARKS for a in alts):
        return []
    if len(alts) == 1 and len(alts[0]) > 1 and all(isinstance(n, Int) for n in alts[0]):
        return [[n] for n in alts[0]]        # [2..16], its range already expanded
    return alts


def _placing(parents: list[Node], mark: Template) -> str:
    """The piece named by the start rule `(place "Name" <mark>)` or `(place "Name" (sites
    <mark>))` the mark stands in, or ""."""
    if not any(isinstance(p, Call) and p.name == "start" for p in parents):
        return ""
    inner = mark
    chain = list(reversed(parents))
    if chain and isinstance(chain[0], Call) and chain[0].name == "sites" \
            and list(chain[0].args) == [mark]:
        inner, chain = chain[0], chain[1:]
    place = chain[0] if chain else None
    if isinstance(place, Call) and place.name == "place" and len(place.args) >= 2 \
            and isinstance(place.args[0], Str) and place.args[1] is inner:
        return place.args[0].value
    return ""


def find_holes(ex: Expanded) -> list[Hole]:
    """The template's holes in the order written, one per mark (a mark in a define used
    twice is one hole: its text is written once), with the context of each of its uses
    (`Hole.uses`, those other than the first)."""
    out: dict[Pos, Hole] = {}

    def visit(node: Node, parents: list[Node]) -> None:
        if isinstance(node, Template):
            ctx = _context(parents, node)
            hole = out.get(node.pos)
            if ctx is None:
                pass
            elif hole is None:
                out[node.pos] = Hole(node, ctx, _choices(node), _placing(parents, node),
                                     chains=[tuple(parents)])
            elif ctx not in hole.contexts:
                hole.uses += (ctx,)
                hole.chains.append(tuple(parents))
            return
        parents.append(node)
        for child in _children(node):
            visit(child, parents)
        parents.pop()
    visit(ex.game, [])
    return sorted(out.values(), key=lambda h: (h.pos.line, h.pos.col))


def fits_place(chain: tuple[Node, ...], mark: Template, nodes: list[Node]) -> bool:
    """Whether the builder reads the ludeme around a hole, with `nodes` in the hole's place,
    as one of the types its own place takes (`builder.slot_types`), for a keyword Ludii
    gives several categories: `(if <cond> [#])` among an effect's moves takes moves, not
    the directions of another game's `(if <cond> Orthogonal All)`, and `(if (or [#]) ...)`
    conditions, not another game's moves of `(or ...)`. True where the question cannot be
    put: a keyword of one category (its fragments' own keyword says what they are), another
    hole in the same ludeme, a place of unknown type."""
    from ludeme.model.ludemes import load_all
    from ludeme.model.ludemes.base import _NO, REGISTRY, loaded
    from ludeme.model.ludemes.builder import Builder, slot_types
    if not loaded():
        load_all()
    at = max((k for k, n in enumerate(chain) if isinstance(n, Call)), default=None)
    if at is None:
        return True
    call = chain[at]
    if len({c.category for c in REGISTRY.get(call.name, ())}) < 2 or any(
            isinstance(n, Template) and n is not mark for n in walk(call)):
        return True
    types = slot_types(list(chain[:at]), call)
    if types is None:
        return True
    try:
        return Builder().try_build(with_fills(call, {mark.pos: nodes}), tuple(types),
                                   "") is not _NO
    except (LudemeError, RecursionError):
        return False


def fits_every_place(hole: Hole, text: str) -> bool:
    """`fits_place` at every place the hole stands, for a fill written `text`."""
    try:
        nodes = parse(text, "<fragment>")
    except LudemeError:
        return True         # the builder says so, with its place, when it is tried
    return all(fits_place(chain, hole.mark, nodes) for chain in hole.chains)


# ---------------------------------------------------------------- fragments

@dataclass
class Source:
    """A game fragments come from."""

    path: str              # relative to the corpus folder
    name: str
    family: str            # its family_of, e.g. board/hunt
    keywords: frozenset[str]
    pieces: list[tuple[str, str]]     # (name, owner) as declared
    root: str = ""         # the corpus folder it was read from
    # (name, owner or "") of the tracks and named regions it declares
    places: list[tuple[str, str]] = field(default_factory=list)
    # those of them that are named regions
    regions: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Fragment:
    """A run of nodes that can fill a context, as text, and the games it comes from."""

    text: str
    sources: list[int]     # indices into FragmentIndex.sources


PLACES = ("track", "regions")     # declarations a fragment names by a string

# Places whose one argument is of the same type as another's: the moves legal after a roll,
# `(do (roll) next:[#])`, are moves as a game's `(play [#])` holds them, so a hole there
# takes those of games that roll no dice too (a morris game's moves for a morris board
# played after a roll).
SAME_AS = {"do next:": ("play",)}


def places_of(game: Node, kinds: tuple[str, ...] = PLACES) -> list[tuple[str, str]]:
    """(name, owner or "") of every track and named region the game declares, as
    `(track "Name" ... P1 ...)` and `(regions "Name" P1 ...)` do (of `kinds` only)."""
    out = []
    for n in walk(game):
        if isinstance(n, Call) and n.name in kinds and n.args and isinstance(n.args[0], Str):
            owner = next((a.value for a in n.args[1:] if isinstance(a, Word)
                          and a.value in OWNERS), "")
            if (n.args[0].value, owner) not in out:
                out.append((n.args[0].value, owner))
    return out


def pieces_of(game: Call) -> list[tuple[str, str]]:
    """(name, owner) of every `(piece "Name" Owner ...)` the game declares: a piece with no
    owner written is Each's (Ludii's default role for a piece), one whose owner is unknown
    (`(piece "Fox" [#])`) has "" (it matches any)."""
    out = []
    for n in walk(game):
        if not (isinstance(n, Call) and n.name == "piece" and n.args
                and isinstance(n.args[0], Str)):
            continue
        second = n.args[1] if len(n.args) > 1 else None
        if isinstance(second, Word) and second.value in OWNERS:
            owner = second.value
        elif isinstance(second, Template):
            owner = ""
        elif isinstance(second, Word):
            continue        # a word that is no owner: not a piece declaration we can read
        else:
            owner = "Each"
        if (n.args[0].value, owner) not in out:
            out.append((n.args[0].value, owner))
    return out


def keywords_of(game: Call) -> frozenset[str]:
    """The ludeme keywords a tree uses (a game's vocabulary, for similarity)."""
    return frozenset(n.name for n in walk(game) if isinstance(n, Call) and isinstance(n.head, Word))


class FragmentIndex:
    """Every argument run of every ludeme in a corpus, filed by context, as text (a run is
    parsed again only when it is used: the index of a whole corpus pickles small)."""

    def __init__(self):
        self.sources: list[Source] = []
        # keyword -> (source, argument texts); "keyword name:" -> (source, (value text,))
        self.by_call: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        # keyword -> (source, ((item keyword or "", item text), ...)) for its {...} arguments
        self.by_list: dict[str, list[tuple[int, tuple[tuple[str, str], ...]]]] = {}
        self.failures: list[tuple[str, str]] = []

    @classmethod
    def of_folders(cls, folders: list[Path], exclude: tuple[Path, ...] = ()) -> "FragmentIndex":
        """Read every .lud under the folders (default options), except under `exclude`."""
        index = cls()
        excluded = [Path(e).resolve() for e in exclude]
        for folder in folders:
            folder = Path(folder)
            for path in sorted(folder.rglob("*.lud")):
                resolved = path.resolve()
                if any(resolved == e or e in resolved.parents for e in excluded):
                    continue
                try:
                    ex = expand(load_description(path))
                except (LudemeError, RecursionError) as e:
                    index.failures.append((str(path), str(e).splitlines()[0]))
                    continue
                if ex.templates:
                    continue
                rel = path.relative_to(folder)
                index.add(ex, str(rel), family_of(ex, rel.parent.as_posix()))
                index.sources[-1].root = str(folder.resolve())
        return index

    def add(self, ex: Expanded, path: str, family: str) -> None:
        """File the argument runs of one expanded game."""
        i = len(self.sources)
        self.sources.append(Source(path, ex.name, family, keywords_of(ex.game),
                                   pieces_of(ex.game), places=places_of(ex.game),
                                   regions=places_of(ex.game, ("regions",))))
        for n in walk(ex.game):
            if isinstance(n, Call) and isinstance(n.head, Word):
                self.by_call.setdefault(n.name, []).append((i, tuple(to_lud(a) for a in n.args)))
                for a in n.args:
                    if isinstance(a, Array):
                        self.by_list.setdefault(n.name, []).append((i, tuple(
                            (x.name if isinstance(x, Call) else "", to_lud(x)) for x in a.items)))
                    elif isinstance(a, Named):
                        self.by_call.setdefault(f"{n.name} {a.name}:", []).append(
                            (i, (to_lud(a.value),)))

    def tracks(self, source: int) -> list[str]:
        """A source's tracks, as written: `(track "Track1" "0,E,N,W" P1 directed:True)`."""
        return [f"(track {' '.join(args)})" for i, args in self.by_call.get("track", ())
                if i == source]

    def named_regions(self, source: int) -> dict[str, list[str]]:
        """A source's named regions, as written, by name: `(regions "Home" P1 (sites Track
        "Track1"))` under "Home"."""
        out: dict[str, list[str]] = {}
        for i, args in self.by_call.get("regions", ()):
            if i == source and len(args) > 1 and args[0][:1] == '"':
                out.setdefault(args[0].strip('"'), []).append(f"(regions {' '.join(args)})")
        return out

    def named_maps(self, source: int) -> dict[str, list[str]]:
        """A source's named maps, as written, by name: `(map "Throw" {(pair 0 5) ...})`
        under "Throw"."""
        out: dict[str, list[str]] = {}
        for i, args in self.by_call.get("map", ()):
            if i == source and len(args) > 1 and args[0][:1] == '"':
                out.setdefault(args[0].strip('"'), []).append(f"(map {' '.join(args)})")
        return out

    def hands(self, source: int) -> list[str]:
        """A source's hands, as written: `(hand Each)`."""
        return [f"(hand {' '.join(args)})" for i, args in self.by_call.get("hand", ())
                if i == source]

    def dice(self, source: int) -> list[str]:
        """A source's dice, as written: `(dice d:2 from:0 num:4)`."""
        return [f"(dice {' '.join(args)})" for i, args in self.by_call.get("dice", ())
                if i == source]

    def player_regions(self, source: int) -> list[str]:
        """A source's unnamed regions of players, as written: `(regions P1 (sites Bottom))`."""
        return [f"(regions {' '.join(args)})" for i, args in self.by_call.get("regions", ())
                if i == source and args and args[0] in OWNERS]

    def runs(self, ctx: Context):
        """(source, texts of a run of nodes) that fit a context, in corpus order."""
        if ctx.place == "items":
            for i, items in self.by_list.get(ctx.keyword, ()):
                extra = tuple(t for name, t in items if not (name and name in ctx.known))
                if extra and len(extra) < len(items) + (0 if ctx.known else 1):
                    yield i, extra
            return
        for i, args in self.by_call.get(ctx.keyword, ()):
            m = len(args)
            if m >= ctx.before + ctx.after + 1 and kinds_fit(
                    args[:ctx.before] + args[m - ctx.after:], ctx.around):
                yield i, args[ctx.before:m - ctx.after]
        if ctx.before == ctx.after == 0:
            for keyword in SAME_AS.get(ctx.keyword, ()):
                for i, args in self.by_call.get(keyword, ()):
                    if len(args) == 1:
                        yield i, args


def piece_map(source: Source, template: list[tuple[str, str]]) -> dict[str, str]:
    """Source piece names to template piece names: the same owner first (Each matches any),
    then in order of declaration. A name the source gives the pieces of several players
    (`(piece "Marker" P1)`, `(piece "Marker" P2)`: Ludii's "Marker1" and "Marker2") maps
    each later player's piece, by its name with the player's number, to a template piece
    of its own while the template has one left (a Fox and Geese template's "Geese2")."""
    out = name_map(source.pieces, template)
    used = {out.get(n, n) for n, _ in source.pieces}
    by_name: dict[str, list[str]] = {}
    for name, owner in source.pieces:
        by_name.setdefault(name, []).append(owner)
    for name, owners in by_name.items():
        players = [o for o in owners if re.fullmatch(r"P\d+", o)]
        for owner in players[1:]:
            free = [t for t, o in template if o in (owner, "Each", "") and t not in used]
            if free:
                out[name + owner[1:]] = free[0] + owner[1:]
                used.add(free[0])
    return out


def name_map(theirs: list[tuple[str, str]], mine: list[tuple[str, str]]) -> dict[str, str]:
    """A source's declared names (pieces, tracks, regions) to the template's: the same owner
    first (Each, or no owner, matches any), then in order of declaration."""
    if not mine:
        return {}
    template = mine
    out: dict[str, str] = {}
    used: set[str] = set()
    names = dict.fromkeys(n for n, _ in theirs)
    anyone = ("Each", "")
    for name in names:
        owners = {o for n, o in theirs if n == name}
        fits = [t for t, o in template if o in owners or owners & set(anyone) or o in anyone]
        free = [t for t in fits if t not in used] or fits
        if free:
            out[name] = free[0]
            used.add(free[0])
    return {k: v for k, v in out.items() if k != v}


def place_map(source: Source, tracks: list[tuple[str, str]], regions: list[tuple[str, str]]
              ) -> dict[str, str]:
    """A source's track and region names to the template's: tracks to its tracks, named
    regions to its named regions (`name_map`), never one to the other (a region read as
    a track's name is empty). A template that declares no named region maps none: a fill
    reading one brings its source's declaration (`place_inserts`)."""
    theirs = set(source.regions)
    out = name_map([p for p in source.places if p not in theirs], tracks)
    out.update(name_map(source.regions, regions))
    return out


def rename_pieces(nodes: list[Node], mapping: dict[str, str],
                  places: dict[str, str] | None = None) -> list[Node]:
    """The nodes with piece names (and `Name1`-style names with an owner) renamed, and the
    names of tracks and regions in `places` (those by their whole name only)."""
    places = places or {}
    if not mapping and not places:
        return nodes

    def new_name(value: str) -> str:
        if value in places:
            return places[value]
        if value in mapping:
            return mapping[value]
        stem = value.rstrip("0123456789")
        if stem != value and stem in mapping:
            return mapping[stem] + value[len(stem):]
        return value

    return map_leaves(nodes, lambda n: Str(new_name(n.value), n.pos, n.via)
                      if isinstance(n, Str) else n)


def map_leaves(nodes: list[Node], leaf) -> list[Node]:
    """The nodes rebuilt with each leaf (a node that is no call, list or named argument)
    replaced by `leaf(node)`, at every depth."""
    def go(n: Node) -> Node:
        if isinstance(n, Call):
            return Call(n.head, [go(a) for a in n.args], n.pos, n.via, n.starred)
        if isinstance(n, Array):
            return Array([go(a) for a in n.items], n.pos, n.via)
        if isinstance(n, Named):
            return Named(n.name, go(n.value), n.pos, n.via)
        return leaf(n)
    return [go(n) for n in nodes]


# ---------------------------------------------------------------- expected concepts

@dataclass(frozen=True)
class Expected:
    """One `(concept "Name" value)` of the template's `(recon ...)`: a value, or bounds."""

    name: str
    value: object = None
    low: float | None = None
    high: float | None = None
    pos: Pos | None = None

    def __str__(self) -> str:
        if self.value is not None:
            return f"{self.name}={self.value}"
        return f"{self.name} in [{self.low}, {self.high}]"

    def holds(self, got) -> bool:
        """Whether a computed value (a bool, or a number) meets this expectation."""
        if isinstance(self.value, bool):
            return bool(got) == self.value
        x = float(got)
        if self.value is not None:
            return math.isclose(x, float(self.value), rel_tol=1e-6, abs_tol=1e-6)
        return (self.low is None or x >= self.low) and (self.high is None or x <= self.high)


def expected_concepts(metadata: Call | None) -> list[Expected]:
    """The `(recon {(concept "Name" value) ...})` entries of a description's metadata."""
    out = []
    if metadata is None:
        return out
    for n in walk(metadata):
        if not (isinstance(n, Call) and n.name == "concept" and n.args
                and isinstance(n.args[0], Str)):
            continue
        value = next((a.value for a in n.args[1:] if isinstance(a, (Bool, Int, Float))), None)
        low, high = n.named("minValue"), n.named("maxValue")
        out.append(Expected(n.args[0].value, value,
                            low.value if isinstance(low, (Int, Float)) else None,
                            high.value if isinstance(high, (Int, Float)) else None, n.pos))
    return out


def start_counts(game, seed: int, concepts=None, reading: str = "ludii") -> dict[str, float]:
    """Ludii's NumStartComponents (and its Board and Hand parts, and per player): the pieces
    in the containers once the start rules have run (every level of a stack, a site's
    count).

    With `reading` "ludii", as Ludii counts them given the game's compile-time `concepts`
    (its Game.startsConceptsWithoutRNG, which its reconstruction reads): the board's sites
    only when the concept of their site type (Cell, Vertex, Edge) is on, the other
    containers (hands, and the dice's own container) only when Cell is on, since Ludii reads
    their cells then alone: a game on vertices counts none of its pieces in hand.
    With "pieces", the pieces themselves: every site of the board and of the hands, the
    dice aside (a template that places its 30 pieces in hand on a vertex board of tables,
    Sugoroku's, expects 30, which Ludii's reading cannot give)."""
    state = game.new_initial_state(seed)
    g = state.g
    on = None if concepts is None or reading == "pieces" else concepts.boolean

    def size(site: int) -> int:
        if g.stacking:
            return len(state.stack(site))
        return state.count[site] if state.what[site] else 0
    board = 0
    if on is None or game.board.site_type in on:
        board = sum(size(site) for site in range(g.containers[0].num_sites))
    hand = 0
    if on is None or "Cell" in on:
        for c in g.containers[1:]:
            sites = range(c.sites_from, c.sites_from + c.num_sites)
            if reading == "pieces" and any(
                    state.what[x] and "Die" in g.components[state.what[x]].name for x in sites):
                continue        # the dice's container
            hand += sum(size(x) for x in sites)
    n = max(1, game.num_players)
    return {"NumStartComponentsBoard": board, "NumStartComponentsHand": hand,
            "NumStartComponents": board + hand, "NumStartComponentsBoardPerPlayer": board / n,
            "NumStartComponentsHandPerPlayer": hand / n,
            "NumStartComponentsPerPlayer": (board + hand) / n}


def both_readings(game, seed: int, concepts) -> dict[str, tuple[float, ...]]:
    """Each start count as Ludii reads it and as the pieces give it (`start_counts`): an
    expected count is met by either."""
    ludii = start_counts(game, seed, concepts)
    pieces = start_counts(game, seed, concepts, reading="pieces")
    return {k: tuple(dict.fromkeys((ludii[k], pieces[k]))) for k in ludii}


def check_expected(expected: list[Expected], concepts, counts: dict[str, float]
                   ) -> tuple[list[Expected], list[Expected], list[Expected]]:
    """(met, missed, unchecked): the expected concepts, against a candidate's compile-time
    concepts (`GameConcepts`) and start counts."""
    from .concepts import catalog
    cat = catalog()
    met, missed, unchecked = [], [], []
    for e in expected:
        c = cat.get(e.name)
        if e.name in counts:
            got = counts[e.name]
            if isinstance(got, tuple):      # several readings (`both_readings`): any of them
                got = next((x for x in got if e.holds(x)), got[0])
        elif c is not None and c.boolean and c.computation == "Compilation":
            got = e.name in concepts.boolean
        elif e.name in concepts.non_boolean:
            got = concepts.non_boolean[e.name]
        else:
            unchecked.append(e)
            continue
        try:
            (met if e.holds(got) else missed).append(e)
        except (TypeError, ValueError):
            unchecked.append(e)
    return met, missed, unchecked


# ---------------------------------------------------------------- generated starts

START_COUNTS = ("NumStartComponents", "NumStartComponentsBoard", "NumStartComponentsHand",
                "NumStartComponentsPerPlayer", "NumStartComponentsBoardPerPlayer",
                "NumStartComponentsHandPerPlayer")
MAX_GENERATED_STARTS = 8      # starts generated per candidate whose start misses the counts
PLAYED_STARTS = 3             # of which at most this many are played


def start_targets(expected: list[Expected], players: int, dice: int = 0
                  ) -> list[tuple[int, int]]:
    """(pieces on the board, pieces in hands) the start rules must place to meet every
    expected start count, most likely first: what the expectations fix, else everything on
    the board, then everything in hand. A count expected between bounds (`minValue:53
    maxValue:64`) is fixed at its lower bound, the fewest pieces that meet it. Ludii counts
    the `dice` in their container among the pieces in hand (the game places them before the
    start rules run). Empty when nothing fixes a count."""
    fixed: dict[str, float] = {}
    for e in expected:
        if e.name not in START_COUNTS or isinstance(e.value, bool):
            continue
        if e.value is not None:
            fixed[e.name] = float(e.value)
        elif e.low is not None and (e.high is None or math.ceil(e.low) <= e.high):
            fixed[e.name] = float(math.ceil(e.low))
    for part in ("", "Board", "Hand"):
        per = fixed.get(f"NumStartComponents{part}PerPlayer")
        if per is not None and f"NumStartComponents{part}" not in fixed:
            fixed[f"NumStartComponents{part}"] = per * players
    total, board, hand = (fixed.get(f"NumStartComponents{p}") for p in ("", "Board", "Hand"))
    if total is None and board is None and hand is None:
        return []
    if board is not None and hand is not None:
        pairs = [(board, hand)]
    elif board is not None:
        pairs = [(board, (total - board) if total is not None else 0)]
    elif hand is not None:
        pairs = [((total - hand) if total is not None else 0, hand)]
    else:
        pairs = [(total - dice, dice), (0, total)]
    out = []
    for b, h in pairs:
        if b >= 0 and h >= dice and b == int(b) and h == int(h) and (int(b), int(h)) not in out:
            out.append((int(b), int(h)))
    return [(b, h - dice) for b, h in out if all(start_total_fits((b, h), fixed, players))]


def start_total_fits(target: tuple[int, int], fixed: dict[str, float], players: int):
    """Each fixed count against a (board, hand) split."""
    b, h = target
    got = {"": b + h, "Board": b, "Hand": h}
    for part, n in got.items():
        if f"NumStartComponents{part}" in fixed:
            yield math.isclose(n, fixed[f"NumStartComponents{part}"], abs_tol=1e-6)


def splits(amount: int, owners: int) -> list[list[int]]:
    """Ways to share `amount` pieces among the players: evenly first, then (with two)
    one or two pieces for one side and the rest for the other, as hunt games start."""
    out = []
    if amount % owners == 0:
        out.append([amount // owners] * owners)
    if owners == 2:
        for few in (1, 2, 3, 4):
            for pair in ([few, amount - few], [amount - few, few]):
                if pair[0] > 0 and pair[1] > 0 and pair not in out:
                    out.append(pair)
    elif amount % owners and amount >= owners:     # as evenly as can be, the first ahead
        out.append([amount // owners + (p < amount % owners) for p in range(owners)])
    return out


def side_order(sites, player: int, players: int) -> list[int]:
    """The board's sites from a player's side inwards: the first player's side is the
    bottom, left to right, the others turned around the board at equal angles (the second of
    two at the top, right to left)."""
    angle = 2 * math.pi * player / players
    dx, dy = math.sin(angle), -math.cos(angle)
    return [s.index for s in sorted(sites, key=lambda s: (round(-(s.x * dx + s.y * dy), 6),
                                                         round(s.y * dx - s.x * dy, 6),
                                                         s.index))]


def centre_order(sites) -> list[int]:
    """The board's sites from its centre outwards."""
    cx = sum(s.x for s in sites) / len(sites)
    cy = sum(s.y for s in sites) / len(sites)
    return [s.index for s in sorted(sites, key=lambda s: ((s.x - cx) ** 2 + (s.y - cy) ** 2,
                                                         s.index))]


def generated_starts(game, expected: list[Expected], concepts=None) -> list[str]:
    """Start rules (the inside of `(start ...)`) that place exactly the pieces the expected
    start counts ask for, with the game's own pieces on its own board: each player's first
    piece on the sites of its side (or, for a side of at most four pieces facing many, on
    the centre), or in its hand; a game of shared pieces (seeds) sets equal counts on
    evenly spread sites. The likeliest first, at most MAX_GENERATED_STARTS."""
    n = max(1, game.num_players)
    # Ludii's test for a die: its name says so; they count only where hands count (Cell)
    dice = sum("Die" in c.name for c in game.components) \
        if concepts is None or "Cell" in concepts.boolean else 0
    targets = start_targets(expected, n, dice)
    if not targets:
        return []
    first: dict[int, str] = {}
    for c in game.components:
        if c.name and "Die" not in c.name and c.owner not in first:
            first[c.owner] = c.name
    owned = [first.get(p) for p in range(1, n + 1)]
    shared = next((name for o, name in sorted(first.items()) if o > n or o == 0), None)
    sites = list(game.board.sites)[:game.containers[0].num_sites]
    hands = {c.owner for c in game.containers[1:] if c.owner <= n}
    # each part the counts allow (on the board, in hand) gets its likeliest start before
    # any gets its next: an expected total alone is met on the board or in hand
    parts: list[list[str]] = []
    for board, hand in targets:
        out: list[str] = []
        parts.append(out)
        if board and hand:
            continue        # one part at a time: a start with both is rarely asked for alone
        if all(owned):
            if hand:
                if not all(p in hands for p in range(1, n + 1)):
                    continue
                for split in splits(hand, n):
                    out.append(" ".join(f'(place "{owned[p]}" (handSite P{p + 1}) count:{k})'
                                        for p, k in enumerate(split)))
                continue
            for split in splits(board, n):
                if sum(split) > len(sites):
                    continue
                for centre in ((False, True) if min(split) <= 4 < max(split) else (False,)):
                    taken: set[int] = set()
                    places = []
                    # the small side first on the centre, the large side around it
                    for p in sorted(range(n), key=lambda p: (not (centre and split[p] <= 4),
                                                             p)):
                        order = centre_order(sites) if centre and split[p] <= 4 else \
                            side_order(sites, p, n)
                        mine = [s for s in order if s not in taken][:split[p]]
                        taken.update(mine)
                        places.append((p, mine))
                    out.append(" ".join(
                        f'(place "{owned[p]}" (sites {{{" ".join(map(str, sorted(m)))}}}))'
                        for p, m in sorted(places)))
        elif shared and board:
            for per in sorted((k for k in range(1, board + 1) if board % k == 0
                               and board // k <= len(sites)),
                              key=lambda k: (board // k != len(sites), k))[:3]:
                count = board // per
                step = len(sites) / count
                chosen = sorted({sites[int(i * step)].index for i in range(count)})
                out.append(f"(set Count {per} to:(sites {{{' '.join(map(str, chosen))}}}))")
    out = [t for group in itertools.zip_longest(*parts) for t in group if t is not None]
    return ["{ " + t + " }" if " (" in t else t for t in dict.fromkeys(out)
            ][:MAX_GENERATED_STARTS]


# ---------------------------------------------------------------- the template

@dataclass
class TemplateGame:
    """An incomplete description, the configuration that has the holes, and its holes."""

    description: Description
    expanded: Expanded
    ruleset: str | None
    holes: list[Hole]
    expected: list[Expected]
    family: str

    @property
    def path(self) -> str:
        return self.description.path

    def _offset(self, pos: Pos) -> int:
        starts = _line_starts(self.description.text)
        return starts[pos.line - 1] + pos.col - 1

    def _own(self, node: Node | None) -> bool:
        """Whether a node is written in the template's own text (not in a define)."""
        return node is not None and node.pos is not None and \
            str(node.pos.file) == str(self.path)

    @cached_property
    def _equipment_items(self) -> Node | None:
        """The argument of the template's `(equipment ...)`, if any."""
        eq = next((a for a in self.expanded.game.args if isinstance(a, Call)
                   and a.name == "equipment"), None)
        return eq.args[0] if eq is not None and eq.args else None

    @cached_property
    def board_tracks_at(self) -> int | None:
        """The offset in the template's text where tracks a fill needs are written: just
        after its `(board <graph>` argument, or before the `)` of its `(mancalaBoard ...)`,
        whose tracks come last (None when its board is not written there, or it declares
        tracks itself)."""
        board = next((n for n in getattr(self._equipment_items, "items", ())
                      if isinstance(n, Call) and n.name in ("board", "mancalaBoard")), None)
        if board is None or not board.args or declares_tracks(board) or \
                any(isinstance(a, Array) for a in board.args):
            return None
        if not self._own(board):
            return self._define_tracks_at(board)
        text = self.description.text
        if board.name == "mancalaBoard":
            end = closing_paren(text, self._offset(board.pos))
            return None if end is None else end - 1
        graph = board.args[0]
        return closing_paren(text, self._offset(graph.pos)) if self._own(graph) else None

    def _define_tracks_at(self, board: Call) -> int | None:
        """For a board the template writes as a define given no argument (`("PachisiBoard")`,
        a library board whose `#1` stands among its `(board ...)`'s arguments, where Ludii's
        own games write their tracks): the offset just before that use's `)`, where tracks
        become its argument. None for any other board."""
        from ludeme.language.expand import collect_defines, stdlib_defines
        from ludeme.language.syntax import Param
        use = next((v for v in board.via if str(v.file) == str(self.path)), None)
        if use is None:
            return None
        text = self.description.text
        at = self._offset(use)
        end = closing_paren(text, at)
        name = re.fullmatch(r'\(\s*"([^"]*)"\s*', text[at:end - 1]) if end else None
        if name is None:
            return None
        define = collect_defines(list(self.description.body))[0].get(name.group(1)) or \
            stdlib_defines().get(name.group(1))
        body = define.body[0] if define is not None and len(define.body) == 1 else None
        if not (isinstance(body, Call) and body.name == board.name and any(
                isinstance(a, Param) and a.value == 1 for a in body.args)):
            return None
        return end - 1

    @cached_property
    def board_line(self) -> tuple[list[int], bool] | None:
        """The board's sites in order along its one line, and whether the line closes
        (a loop), when its sites (of its default type, by adjacency) make a single path or
        a single cycle: a path from its lower-numbered end, a cycle from site 0 towards its
        lower-numbered neighbour. None for any other board, one with an unknown part
        outside its list of tracks, one that declares tracks, or one ludeme cannot
        build."""
        graph = self._board_graph
        if graph is None or any(isinstance(n, Template) for n in walk(graph)):
            return None
        return line_of_board(to_lud(graph))

    @cached_property
    def _board_graph(self) -> Call | None:
        """The template's `(board ...)` without its list of tracks, None when it has none
        or declares tracks."""
        board = next((n for n in getattr(self._equipment_items, "items", ())
                      if isinstance(n, Call) and n.name == "board"), None)
        if board is None or declares_tracks(board):
            return None
        return Call(board.head, [a for a in board.args if not isinstance(a, Array)],
                    board.pos, board.via, board.starred)

    def board_of(self, index: "FragmentIndex", source: int) -> bool:
        """Whether the source's board is the template's own (its graph, as expanded, written
        alike: Chaupar's `("PachisiBoard" {...})` and Barjiss's `("PachisiBoard")`); False
        when the template's board has an unknown part."""
        graph = self._board_graph
        if graph is None or not graph.args or any(isinstance(n, Template)
                                                  for n in walk(graph)):
            return False
        mine = to_lud(graph.args[0])
        return any(i == source and args and args[0] == mine
                   for i, args in index.by_call.get("board", ()))

    def line_for(self, plan: "Plan") -> tuple[list[int], bool] | None:
        """`board_line` of the board as a plan fills it: a board with an unknown part
        (`(rectangle 1 ("Dim"))`, `(define "Dim" [#])`) is one line or not once filled."""
        graph = self._board_graph
        if graph is None or not any(isinstance(n, Template) for n in walk(graph)):
            return self.board_line
        fills = {}
        for hole, o in zip(self.holes, plan.options):
            try:
                fills[hole.pos] = parse(o.text, "<fragment>")
            except LudemeError:
                return None
        text = to_lud(with_fills(graph, fills))
        lines = self.__dict__.setdefault("_lines", {})
        if text not in lines:
            lines[text] = line_of_board(text)
        return lines[text]

    @cached_property
    def mancala_grid(self) -> tuple[int, int] | None:
        """`mancala_grid` of the template's `(mancalaBoard ...)`, if it has one."""
        board = next((n for n in getattr(self._equipment_items, "items", ())
                      if isinstance(n, Call) and n.name == "mancalaBoard"), None)
        return None if board is None else mancala_grid([to_lud(a) for a in board.args])

    @cached_property
    def equipment_list_at(self) -> int | None:
        """The offset in the template's text just inside its `(equipment {`, where regions
        a fill needs are written (None when its equipment is not a list written there)."""
        items = self._equipment_items
        if not isinstance(items, Array) or not self._own(items):
            return None
        at = self._offset(items.pos)
        return at + 1 if self.description.text[at:at + 1] == "{" else None

    @cached_property
    def equipment_at(self) -> int | None:
        """`equipment_list_at`, for the players' unnamed regions: None when the template
        declares players' regions itself."""
        items = self._equipment_items
        if any(declares_player_regions(n) for n in getattr(items, "items", ())):
            return None
        return self.equipment_list_at

    @cached_property
    def hands_at(self) -> int | None:
        """`equipment_list_at`, for the players' hands: None when the template declares a
        hand itself."""
        if any(declares_hands(n) for n in getattr(self._equipment_items, "items", ())):
            return None
        return self.equipment_list_at

    @cached_property
    def dice_at(self) -> int | None:
        """`equipment_list_at`, for the dice: None when the template declares dice itself."""
        if any(declares_dice(n) for n in getattr(self._equipment_items, "items", ())):
            return None
        return self.equipment_list_at

    @cached_property
    def pieces(self) -> list[tuple[str, str]]:
        """The pieces the template declares (`pieces_of`)."""
        return pieces_of(self.expanded.game)

    @cached_property
    def players(self) -> int | None:
        """The number of players the template fixes (`(players 2)`), None when unknown."""
        node = next((a for a in self.expanded.game.args if isinstance(a, Call)
                     and a.name == "players"), None)
        first = node.args[0] if node is not None and node.args else None
        return int(first.value) if isinstance(first, Int) else None

    @cached_property
    def region_names(self) -> set[str]:
        """The names of the regions the template declares."""
        return {name for name, _ in places_of(self.expanded.game, ("regions",))}


def with_fills(node: Node, fills: dict[Pos, list[Node]]) -> Node:
    """A tree with each hole's mark replaced by its fill's nodes (`fills` by the mark's
    place; a mark without a fill stays)."""
    def spread(items):
        out = []
        for a in items:
            if isinstance(a, Template) and a.pos in fills:
                out += fills[a.pos]
            else:
                out.append(with_fills(a, fills))
        return out
    if isinstance(node, Call):
        return Call(node.head, spread(node.args), node.pos, node.via, node.starred)
    if isinstance(node, Array):
        return Array(spread(node.items), node.pos, node.via)
    if isinstance(node, Named):
        value = fills.get(node.value.pos) if isinstance(node.value, Template) else None
        return Named(node.name, value[0] if value and len(value) == 1 else
                     with_fills(node.value, fills), node.pos, node.via)
    return node


def line_of_board(board: str) -> tuple[list[int], bool] | None:
    """`TemplateGame.board_line` of a board written `board`."""
    import tempfile

    from ludeme.api import load
    text = (f'(game "Board" (players 2) (equipment {{ {board} (piece "Disc" Each) }}) '
            '(rules (play (move Pass)) (end (if (is Full) (result Mover Draw)))))')
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.lud"
        path.write_text(text, encoding="utf-8")
        try:
            game = load(path, backend="reference")
        except Exception:       # a board ludeme cannot build alone: no line known
            return None
    n = game.containers[0].num_sites
    near: dict[int, set[int]] = {s: set() for s in range(n)}
    for a, b in game.board.steps("Adjacent"):
        if a != b and 0 <= a < n and 0 <= b < n:
            near[a].add(b)
            near[b].add(a)
    degrees = sorted(len(x) for x in near.values())
    if n < 3 or degrees[-1] != 2 or degrees[0] < 1 or degrees.count(1) not in (0, 2):
        return None
    ends = [s for s in range(n) if len(near[s]) == 1]
    cycle = not ends
    line, at = [ends[0] if ends else 0], None
    while True:
        here = line[-1]
        nxt = sorted(near[here] - {at})
        if not nxt or (cycle and nxt[0] == line[0]):
            break
        at = here
        line.append(nxt[0])
        if len(line) > n:
            return None
    return (line, cycle) if len(line) == n else None


def relaid_tracks(texts: list[str], line: tuple[list[int], bool]) -> list[str]:
    """A source's tracks laid along the template's one line of sites (`board_line`): each
    keeps its name, owner and directedness, and leaves the board (End) if it did; a loop
    stays one only on a closed line. A track written for another board does not walk this
    one (its site numbers, or its directions on a board of edges, where Ludii builds none),
    while the line is the only walk over every site of a board that has one."""
    sites, cycle = line
    out = []
    for text in texts:
        try:
            node = parse(text, "<track>")[0]
        except LudemeError:
            continue
        if not (isinstance(node, Call) and node.name == "track" and len(node.args) >= 2):
            continue
        steps = to_lud(node.args[1]).strip('"{} ')
        walk_text = " ".join(map(str, sites)) + (" End" if steps.endswith("End") else "")
        rest = [to_lud(a) for a in node.args[2:]
                if cycle or not (isinstance(a, Named) and a.name == "loop")]
        out.append(" ".join([f"(track {to_lud(node.args[0])} {{{walk_text}}}", *rest]) + ")")
    return out


def mancala_grid(args: list[str]) -> tuple[int, int] | None:
    """(rows, columns) of a `(mancalaBoard R C store:None ...)` written with these argument
    texts, whose sites Ludii numbers row by row from the bottom left; None for any other
    (with stores, the stores come first)."""
    if len(args) < 3 or "store:None" not in args or not all(a.isdigit() for a in args[:2]):
        return None
    return int(args[0]), int(args[1])


TRACK_START = re.compile(r'(\(track\s+"[^"]*"\s+")(\d+)((?:,[A-Za-z]+\d*)*)"')


def resized_tracks(text: str, theirs: tuple[int, int], mine: tuple[int, int]) -> str:
    """A fill's tracks written as a start site and steps (`"32,E,N1,W"`) for a mancala
    board of as many rows as the template's and another number of columns (`mancala_grid`),
    started at the same row and column of the template's (its last column for the
    source's last): the steps walk to an edge or a number of rows, so they mean the same
    there. A track whose steps count columns (`E3`), or that starts past the template's
    columns, is left as written (the builder says why it does not fit)."""
    (rows, theirs_cols), (my_rows, my_cols) = theirs, mine
    if rows != my_rows or theirs_cols == my_cols:
        return text

    def start(m: re.Match) -> str:
        row, col = divmod(int(m.group(2)), theirs_cols)
        steps = m.group(3).split(",")[1:]
        if row >= rows or any(re.fullmatch(r"[EW]\d+", st) for st in steps) or \
                not all(re.fullmatch(r"[NSEW]\d*", st) for st in steps):
            return m.group(0)
        col = my_cols - 1 if col == theirs_cols - 1 else col
        if col >= my_cols:
            return m.group(0)
        return f'{m.group(1)}{row * my_cols + col}{m.group(3)}"'
    return TRACK_START.sub(start, text)


def load_template(path: str | Path, ruleset: str | None = None, family: str = ""
                  ) -> TemplateGame:
    """The description and the configuration with unknown parts: `ruleset` if given, else
    the first ruleset (or the default options) whose expansion has any."""
    desc = load_description(path)
    tries = [ruleset] if ruleset else [None] + [r.name for r in desc.rulesets]
    ex = None
    for name in tries:
        ex = expand(desc, [], name)
        if ex.templates:
            ruleset = name
            break
    if ex is None or not ex.templates:
        raise LudemeError("no unknown part ([#], [?], [a | b]) in this description"
                          + (f" with ruleset {ruleset!r}" if ruleset else "")
                          + ": nothing to reconstruct", Pos(str(path), 1, 1))
    holes = find_holes(ex)
    return TemplateGame(desc, ex, ruleset, holes, expected_concepts(ex.metadata), family)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def closing_paren(text: str, at: int) -> int | None:
    """The offset just after the `)` that closes the `(` at `at` (strings and // comments
    skipped), or None when `at` holds no `(` or it is not closed."""
    if text[at:at + 1] != "(":
        return None
    depth, i, n = 0, at, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i = text.find('"', i + 1)
            if i < 0:
                return None
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                return None
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


TRACK_READERS = frozenset({"trackSite", "sow"})


def reads_tracks(node: Node, names: set[str]) -> bool:
    """Whether a fill reads the board's tracks: `(trackSite ...)`, `(sow ...)`, `(sites
    Track ...)`, a `track:` argument, or one of the track `names` of its source."""
    for n in walk(node):
        if isinstance(n, Call) and (n.name in TRACK_READERS or n.name == "sites" and n.args
                                    and isinstance(n.args[0], Word)
                                    and n.args[0].value == "Track"):
            return True
        if isinstance(n, Named) and n.name == "track" or isinstance(n, Str) and \
                n.value in names:
            return True
    return False


ROLE_REGIONS = frozenset({"Mover", "Next", "Prev", "Player"} | {f"P{i}" for i in range(1, 9)})


def uses_player_regions(node: Node) -> bool:
    """Whether a fill reads the players' own regions, `(sites Mover)`, `(sites P1)`, ...,
    which the game's `(regions P1 ...)` declare."""
    return any(isinstance(n, Call) and n.name == "sites" and len(n.args) == 1
               and isinstance(n.args[0], Word) and n.args[0].value in ROLE_REGIONS
               for n in walk(node))


def reads_hands(node: Node) -> bool:
    """Whether a fill reads the players' hands: `(handSite Mover)`, `(sites Hand ...)`, or
    places in them by the container's name (`(place "Stick" "Hand")`, `(place "Stick1"
    "Hand1")`: Ludii's containers "Hand1", "Hand2", ... are the players' hands)."""
    return any(isinstance(n, Call) and (
        n.name == "handSite" or n.name == "sites" and n.args and isinstance(n.args[0], Word)
        and n.args[0].value == "Hand" or n.name == "place" and any(
            isinstance(a, Str) and a.value.startswith("Hand")
            and (a.value == "Hand" or a.value[4:].isdigit()) for a in n.args[1:]))
        for n in walk(node))


# the ludemes that read the dice, which Ludii's game rolls only when its equipment has them
DICE_READERS = frozenset({"roll", "pips", "face"})
DICE_READER_KINDS = frozenset({("count", "Pips"), ("forEach", "Die"), ("all", "DiceUsed"),
                               ("all", "DiceEqual"), ("is", "AnyDie")})


def reads_dice(node: Node) -> bool:
    """Whether a fill reads the dice: `(roll)`, `(pips)`, `(face ...)`, `(count Pips)`,
    `(forEach Die ...)`, `(all DiceUsed)`, `(all DiceEqual)`, `(is AnyDie ...)`."""
    return any(isinstance(n, Call) and (
        n.name in DICE_READERS or n.args and isinstance(n.args[0], Word)
        and (n.name, n.args[0].value) in DICE_READER_KINDS) for n in walk(node))


def declares_dice(node: Node) -> bool:
    """Whether a node declares dice, `(dice ...)`."""
    return any(isinstance(n, Call) and n.name == "dice" for n in walk(node))


def declares_hands(node: Node) -> bool:
    """Whether a node declares a hand, `(hand ...)`."""
    return any(isinstance(n, Call) and n.name == "hand" for n in walk(node))


def declares_tracks(node: Node) -> bool:
    """Whether a node declares a track, `(track ...)`."""
    return any(isinstance(n, Call) and n.name == "track" for n in walk(node))


def declares_player_regions(node: Node) -> bool:
    """Whether a node declares a region of a player, named or not (`(regions P1 ...)`,
    `(regions "Home" P2 ...)`)."""
    return any(isinstance(n, Call) and n.name == "regions"
               and any(isinstance(a, Word) and a.value in OWNERS for a in n.args[:2])
               for n in walk(node))


def track_gap(game) -> str:
    """Why a game's tracks are no walks on its board, or "": two board sites that follow
    each other on a track and are not adjacent (a track brought by its site numbers from a
    board of another shape; a hand's sites and End may come between)."""
    n = game.containers[0].num_sites
    adjacent = set(game.board.steps("Adjacent"))
    for t in getattr(game.board, "track_info", ()):
        for a, b in zip(t.sites, t.sites[1:]):
            if 0 <= a < n and 0 <= b < n and a != b and (a, b) not in adjacent \
                    and (b, a) not in adjacent:
                return f"are no walks on this board: track {t.name!r} goes from {a} to {b}"
    return ""


@dataclass
class Placed:
    """What a plan's fills read of the board that the template lacks, to be written into
    it (`place_inserts`)."""

    inserts: list = field(default_factory=list)     # (template offset, text, hole)
    notes: list[str] = field(default_factory=list)  # lines of the candidate's header
    kinds: set[str] = field(default_factory=set)    # "regions", "tracks": what was brought
    # the tracks brought were written for this very board (their source's board is the
    # template's): they mean there what they meant in their game, jumps and all
    own_board: bool = False


def place_inserts(template: TemplateGame, plan: "Plan", index: "FragmentIndex") -> Placed:
    """What a plan's fills read of the board and the template lacks, brought from the
    fill's source as it declares it, so the fill means there what it meant in its game:
    the players' unnamed regions (Warra's `(from [#])` filled with `(from (sites Mover))`,
    on a board that declares none) and the named regions a fill reads (`(sites Mover
    "Home")`, with those their declarations read) into the equipment list, and the tracks
    (a race's moves along "Track1" on a board written without one, or a brought region
    made of a track's sites) after the board's graph. A source's tracks written for a
    larger board are refused by the builder at the track, those of another shape by
    `track_gap`."""
    fills = []
    for o in plan.options:
        try:
            fills.append(parse(o.text, "<fragment>"))
        except LudemeError:
            fills.append([])
    placed = Placed()
    # (hole, the sources to bring from, best first, the nodes that read the board)
    readers = [(h, fill_sources(plan, o), nodes)
               for h, (o, nodes) in enumerate(zip(plan.options, fills))]
    readers += named_region_inserts(template, plan, index, fills, placed)
    named_map_inserts(template, plan, index, fills, placed)

    line: list = []     # the board's line as the plan fills it, read once when needed

    def board_line():
        if not line:
            line.append(template.line_for(plan))
        return line[0]

    wanted = (
        ("regions", template.equipment_at, index.player_regions, declares_player_regions,
         lambda nodes, i: any(uses_player_regions(n) for n in nodes), " {} ",
         "the players' regions of {} added to the equipment"),
        ("hands", template.hands_at, index.hands, declares_hands,
         lambda nodes, i: any(reads_hands(n) for n in nodes), " {} ",
         "the hands of {} added to the equipment"),
        ("dice", template.dice_at, index.dice, declares_dice,
         lambda nodes, i: any(reads_dice(n) for n in nodes), " {} ",
         "the dice of {} added to the equipment"),
        ("tracks", template.board_tracks_at, lambda i: brought_tracks(index, i, board_line),
         declares_tracks,
         lambda nodes, i: any(reads_tracks(n, {name for name, _ in index.sources[i].places})
                              for n in nodes), " {{ {} }} ",
         "the tracks of {} added to the board"))
    for kind, at, brings, declares, reads, layout, note in wanted:
        if at is None or any(declares(n) for f in fills for n in f):
            continue
        for h, sources, nodes in readers:
            found = first_bringing(sources, brings)
            if found is None or not reads(nodes, found[0]):
                continue
            i, texts = found
            placed.inserts.append((at, layout.format(" ".join(texts)), h))
            hole = template.holes[h].pos
            along = ", laid along its one line of sites" \
                if kind == "tracks" and board_line() else ""
            placed.notes.append(note.format(index.sources[i].path) + along
                                + f": the fill of line {hole.line}:{hole.col} reads them")
            placed.kinds.add(kind)
            placed.own_board = placed.own_board or (kind == "tracks"
                                                    and template.board_of(index, i))
            break
    return placed


def fill_sources(plan: "Plan", option: "Option") -> list[int]:
    """The corpus games an option of a plan was taken from, best first (the plan's one
    source first, when it gave this option): where what its fill reads is brought from.
    The template's own choices and generated starts (negative ids) come from none."""
    return [i for i in [plan.source] * (plan.source in option.sources) + list(option.sources)
            if i is not None and i >= 0]


def first_bringing(sources: list[int], brings) -> tuple[int, list[str]] | None:
    """(source, what it brings) of the first of `sources` that brings anything
    (`brings(source)`: texts to insert), or None."""
    for i in sources:
        got = brings(i)
        if got:
            return i, got
    return None


def brought_tracks(index: "FragmentIndex", source: int, board_line) -> list[str]:
    """The tracks a fill brings from its source: as written, or laid along the board when
    it is one line of sites (`board_line()`, `relaid_tracks`)."""
    texts = index.tracks(source)
    line = board_line() if texts else None
    return relaid_tracks(texts, line) if line else texts


def named_region_inserts(template: TemplateGame, plan: "Plan", index: "FragmentIndex",
                         fills: list[list[Node]], placed: Placed) -> list:
    """The named regions the fills read (a string naming a region their source declares)
    that neither the template nor a fill declares, brought from the fill's source into
    the template's equipment list, with the regions their declarations read in turn (a
    sowing game's `(sites Mover "Inner")`, made of its "Home"): added to `placed`. Ludii
    reads a region no item declares as empty, so without its declaration the fill would
    build and mean nothing. Returns the readers of the board they add (hole, [source],
    nodes), whose tracks `place_inserts` may bring in turn."""
    at = template.equipment_list_at
    if at is None:
        return []
    have = set(template.region_names)
    have |= {name for f in fills for n in f for name, _ in places_of(n, ("regions",))}
    readers = []
    for h, (o, nodes) in enumerate(zip(plan.options, fills)):
        for i in fill_sources(plan, o):
            declared = index.named_regions(i)
            texts, names, todo = [], [], list(nodes)
            while todo:
                read = [n.value for t in todo for n in walk(t) if isinstance(n, Str)
                        and n.value in declared and n.value not in have]
                todo = []
                for name in dict.fromkeys(read):
                    have.add(name)
                    names.append(name)
                    for decl in declared[name]:
                        text = fragment_text((decl,), dict(o.mapping), dict(o.places))
                        texts.append(text)
                        todo += parse(text, "<region>")
            if not texts:
                continue
            placed.inserts.append((at, " " + " ".join(texts) + " ", h))
            hole = template.holes[h].pos
            quoted = ", ".join(f'"{n}"' for n in names)
            placed.notes.append(f"the regions {quoted} of "
                                f"{index.sources[i].path} added to the equipment: the fill "
                                f"of line {hole.line}:{hole.col} reads them")
            placed.kinds.add("named regions")
            readers.append((h, [i], [n for t in texts for n in parse(t, "<region>")]))
            break
    return readers


def map_names(node: Node) -> set[str]:
    """The names of the maps a node declares, `(map "Throw" {...})`."""
    return {n.args[0].value for n in walk(node) if isinstance(n, Call) and n.name == "map"
            and n.args and isinstance(n.args[0], Str)}


def maps_read(node: Node) -> list[str]:
    """The names of the maps a node reads by name, `(mapEntry "Throw" ...)`, in order."""
    return list(dict.fromkeys(n.args[0].value for n in walk(node) if isinstance(n, Call)
                              and n.name == "mapEntry" and len(n.args) > 1
                              and isinstance(n.args[0], Str)))


def named_map_inserts(template: TemplateGame, plan: "Plan", index: "FragmentIndex",
                      fills: list[list[Node]], placed: Placed) -> None:
    """The named maps the fills read (`(mapEntry "Throw" (count Pips))`) that neither the
    template nor a fill declares, brought from the fill's source into the template's
    equipment list: added to `placed`. Ludii's (mapEntry ...) of a map no item declares
    gives the key itself, so without the source's declaration the fill would build and
    mean another thing (a throw of one mouth up worth 1, not the source's 10)."""
    at = template.equipment_list_at
    if at is None:
        return
    have = map_names(template.expanded.game) | {
        name for f in fills for n in f for name in map_names(n)}
    for h, (o, nodes) in enumerate(zip(plan.options, fills)):
        read = [name for n in nodes for name in maps_read(n) if name not in have]
        if not read:
            continue
        for i in fill_sources(plan, o):
            declared = index.named_maps(i)
            names = [name for name in dict.fromkeys(read) if name in declared]
            if not names:
                continue
            texts = [fragment_text((d,), dict(o.mapping), dict(o.places))
                     for name in names for d in declared[name]]
            have.update(names)
            placed.inserts.append((at, " " + " ".join(texts) + " ", h))
            hole = template.holes[h].pos
            quoted = ", ".join(f'"{n}"' for n in names)
            placed.notes.append(f"the maps {quoted} of {index.sources[i].path} added to "
                                f"the equipment: the fill of line {hole.line}:{hole.col} "
                                "reads them")
            placed.kinds.add("maps")
            break


def fill_text(template: TemplateGame, fills: list[str], header: list[str] = (),
              spans: list | None = None, inserts: list = ()) -> str:
    """The template's own text with each hole's mark replaced by its fill (marks read from
    the tree: from the `[` to just after the `]`), and each of `inserts` (template offset,
    text, the hole it serves) written at its offset, under a comment header. `spans`, if
    given, receives the place of each fill and insert in the result, in order: (start, end,
    template start, template end, hole)."""
    text = template.description.text
    starts = _line_starts(text)

    def offset(p: Pos) -> int:
        return starts[p.line - 1] + p.col - 1
    marks = sorted([(offset(h.mark.pos), offset(h.mark.end), f, i) for i, (h, f) in
                    enumerate(zip(template.holes, fills))]
                   + [(at, at, t, h) for at, t, h in inserts], key=lambda m: (m[0], m[1]))
    top = "".join(f"// {line}\n" for line in header) + ("\n" if header else "")
    out, at, found = [top], 0, []
    length = len(top)
    for a, b, fill, i in marks:
        line = text[text.rfind("\n", 0, a) + 1:a]
        pad = line[:len(line) - len(line.lstrip())] + "    "
        fill = fill.replace("\n", "\n" + pad)
        out += [text[at:a], fill]
        length += a - at
        found.append((length, length + len(fill), a, b, i))
        length += len(fill)
        at = b
    out.append(text[at:])
    if spans is not None:
        spans[:] = found
    return "".join(out)


def blame(error: LudemeError, path: str, text: str, spans: list) -> tuple[int | None, int]:
    """Where in a candidate a builder's error is: (the index of the hole whose fill, or an
    insert made for it, holds its position, or a place its text came through, as a define's
    use; -1 for the template's own text; None for no place in the candidate, as the
    standard library's), and the offset in the candidate's text (-1 when None)."""
    starts = _line_starts(text)
    own = None
    for pos in (error.pos, *error.via):
        if pos is None or str(pos.file) != str(path) or pos.line > len(starts):
            continue
        at = starts[pos.line - 1] + pos.col - 1
        for a, b, _, _, h in spans:
            if a <= at < b:
                return h, at
        own = at if own is None else own
    return (None, -1) if own is None else (-1, own)


def template_offset(at: int, spans: list, header: int) -> int:
    """A candidate's offset outside its fills as the template's offset (`header`: the
    length of the comment header above the template's text)."""
    before = [(b, tb) for a, b, ta, tb, _ in spans if b <= at]
    if not before:
        return at - header
    b, tb = max(before)
    return tb + at - b


# ---------------------------------------------------------------- plans

class Option:
    """One way to fill a hole: a run of the index (or the template's own choice, source -1),
    the piece names it needs renamed, the sources it comes from and their best score. Its
    text is made when first asked for (renaming means parsing it again)."""

    def __init__(self, raw: str, mapping: tuple[tuple[str, str], ...], sources: list[int],
                 score: float, places: tuple[tuple[str, str], ...] = ()):
        self.raw = raw
        self.mapping = mapping
        self.places = places
        self.sources = sources
        self.score = score
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = fragment_text((self.raw,), dict(self.mapping), dict(self.places))
        return self._text


@dataclass
class Plan:
    """One candidate: an option per hole, and how it was formed."""

    options: list[Option]
    formed: str            # "one source" or "mix"
    source: int | None = None    # the one source game, for a plan taken from one
    notes: tuple[str, ...] = ()  # what was added to its fills, and from where


def fragment_text(run: tuple[str, ...], mapping: dict[str, str],
                  places: dict[str, str] | None = None) -> str:
    """A run of the index as the text that fills a hole: its pieces, tracks and regions
    renamed, laid out on several lines when long."""
    flat = " ".join(run)
    if not mapping and not places and len(flat) <= 70:
        return flat
    nodes = parse(flat, "<fragment>")
    if places:      # a track or region the fragment declares itself keeps its name
        own = {name for node in nodes for name, _ in places_of(node)}
        places = {k: v for k, v in places.items() if k not in own}
    nodes = rename_pieces(nodes, mapping, places)
    flat = to_lud(nodes)
    return flat if len(flat) <= 70 else to_lud(nodes, indent=4)


class ConceptCache:
    """The compile-time concepts of source files, as a concept index lists them
    (`booleanConcepts`, `nonBooleanConcepts`), kept in the cache folder under each file's
    path, size and time, this version of ludeme and the text of its concepts module (a
    file's concepts take a quarter of a second; a family's few hundred sources are read
    once, and again when the way they are computed changes)."""

    def __init__(self):
        import hashlib
        import os

        from ludeme.version import __version__

        from . import concepts
        digest = hashlib.blake2b(digest_size=8)
        digest.update(__version__.encode())
        digest.update(Path(concepts.__file__).read_bytes())
        cache = Path(os.environ.get("LUDEME_CACHE_DIR") or Path.home() / ".cache" / "ludeme")
        self.path = cache / "reconstruct" / f"source-concepts-{digest.hexdigest()}.pickle"
        self.entries: dict[str, dict | None] = self._read()
        self.added = False

    def _read(self) -> dict:
        import pickle
        try:
            with open(self.path, "rb") as f:
                got = pickle.load(f)
            return got if isinstance(got, dict) else {}
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            return {}

    def get(self, path: Path) -> dict | None:
        """A file's entry, None when ludeme cannot read its concepts."""
        from .concepts import compile_time
        try:
            st = path.stat()
        except OSError:
            return None
        key = f"{path.resolve()}\0{st.st_size}\0{st.st_mtime_ns}"
        if key not in self.entries:
            try:
                gc = compile_time(str(path))
                self.entries[key] = {"booleanConcepts": sorted(gc.boolean),
                                     "nonBooleanConcepts": dict(gc.non_boolean)}
            except Exception:       # a source ludeme cannot read: no entry
                self.entries[key] = None
            self.added = True
        return self.entries[key]

    def save(self) -> None:
        """Write the entries read (with those another process wrote meanwhile)."""
        import os
        import pickle
        if not self.added:
            return
        try:
            merged = {**self._read(), **self.entries}
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            with open(tmp, "wb") as f:
                pickle.dump(merged, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.path)
        except OSError:
            pass            # no cache: the next run reads them again


def family_concepts(template: TemplateGame, index: FragmentIndex) -> dict[str, dict]:
    """Without a concept index, the concepts of the sources of the template's own family
    (`family_closeness` 1), by path, when it expects a concept other than the start counts
    (which the start rules give, whatever the source): an answer expecting dice (Aucai,
    Halancola: `(equipment [#]) (rules [#])` and Dice, DiceD6) takes its fills first from
    the games of its family that have them. Sources not read from a folder have none.
    When fewer than WIDEN_BELOW of the family's sources have every expected concept but the
    start counts (a war template expecting dice, a track and NoOwnPiecesWin, as race games
    have them), the sources of the other families are read too: `source_scores` ranks
    those that have them all with the family's."""
    if not any(e.name not in START_COUNTS for e in template.expected):
        return {}
    cache = ConceptCache()
    out = {}
    for s in index.sources:
        if s.root and family_closeness(template.family, s.family) >= 1:
            entry = cache.get(Path(s.root) / s.path)
            if entry is not None:
                out[s.path] = entry
    if sum(has_every_expected(template.expected, e) for e in out.values()) < WIDEN_BELOW:
        for s in index.sources:
            if s.root and s.path not in out:
                entry = cache.get(Path(s.root) / s.path)
                if entry is not None:
                    out[s.path] = entry
    cache.save()
    return out


def expected_held(expected: list[Expected], entry: dict) -> int:
    """How many of the expected concepts a source's entry of a concept index holds."""
    ok = 0
    for e in expected:
        got = (e.name in entry["booleanConcepts"]) if isinstance(e.value, bool) \
            else entry["nonBooleanConcepts"].get(e.name)
        try:
            ok += got is not None and e.holds(got)
        except (TypeError, ValueError):
            pass
    return ok


def has_every_expected(expected: list[Expected], entry: dict) -> bool:
    """True when a source's entry holds every expected concept but the start counts (which
    a generated start gives, whatever the source)."""
    rest = [e for e in expected if e.name not in START_COUNTS]
    return bool(rest) and expected_held(rest, entry) == len(rest)


def source_scores(template: TemplateGame, index: FragmentIndex, concept_index=None
                  ) -> list[float]:
    """How close each source game is to the template: the same family folder (1, or 0.5 for
    the same parent folder), the ludemes the template's known part shares with it (Jaccard),
    and the share of expected concepts the source has itself, read from a concept index if
    given, else computed for the sources of its own family (`family_concepts`)."""
    known = keywords_of(template.expanded.game)
    if concept_index:
        concepts = {e["path"]: e for e in concept_index}
    else:
        concepts = family_concepts(template, index)
    fam = template.family
    # a game of another family with every expected concept is as close as the family's
    # own, when fewer than WIDEN_BELOW of the family's have them all
    widened = sum(has_every_expected(template.expected, concepts[s.path])
                  for s in index.sources if s.path in concepts
                  and family_closeness(fam, s.family) >= 1) < WIDEN_BELOW
    out = []
    for s in index.sources:
        score = closeness = family_closeness(fam, s.family)
        score += len(known & s.keywords) / max(1, len(known | s.keywords))
        entry = concepts.get(s.path)
        if entry and template.expected:
            score += expected_held(template.expected, entry) / len(template.expected)
            if widened and closeness < 1 and has_every_expected(template.expected, entry):
                score += 1 - closeness
        out.append(score)
    return out


class Options(list):
    """A hole's options, best first; `by_source`: each source's options in the order its
    text holds them (a second `(track [#])` takes a source's second track)."""

    def __init__(self, items=(), by_source: dict[int, list[Option]] | None = None):
        super().__init__(items)
        self.by_source = by_source or {}


def hole_options(template: TemplateGame, index: FragmentIndex, scores: list[float],
                 rng: random.Random, leave_out: frozenset[int] = frozenset()
                 ) -> list[Options]:
    """For each hole, the ways to fill it, best first (ties in a seeded order); no fragment
    of the sources `leave_out`."""
    mine = template.pieces
    my_tracks = places_of(template.expanded.game, ("track",))
    my_regions = places_of(template.expanded.game, ("regions",))
    maps, place_maps = {}, {}
    out = []
    for hole in template.holes:
        if hole.choices:
            own = [Option(to_lud(c), (), [OWN], 0.0) for c in hole.choices]
            # the choice a source itself makes there ((players 4) for [2..16]): a plan
            # taken from that source takes it, as the source's fragments are written for it
            by_text = {o.raw: o for o in own}
            made = {}
            for i, run in index.runs(hole.context):
                o = by_text.get(" ".join(run))
                if o is not None and i not in leave_out:
                    made.setdefault(i, [o])
            out.append(Options(own, made))
            continue
        by_text: dict[tuple, Option] = {}
        by_source: dict[int, list[Option]] = {}
        # the tracks of a board's list ((board ... { [#] })) laid along its one line
        laid = template.board_line if hole.context.keyword == "board" and \
            hole.context.place == "items" else None
        # the tracks of a mancala board's arguments, started where they start on the source's
        grid = template.mancala_grid if hole.context.keyword == "mancalaBoard" else None
        for i, run in runs_of_every_use(index, hole):
            if i in leave_out or names_absent_players(run, template.players):
                continue
            if i not in maps:
                maps[i] = tuple(sorted(piece_map(index.sources[i], mine).items()))
                place_maps[i] = tuple(sorted(place_map(index.sources[i], my_tracks,
                                                       my_regions).items()))
            raw = " ".join(run)
            if laid:
                raw = " ".join(relaid_tracks(list(run), laid))
                if not raw:
                    continue
            theirs = grid and next((mancala_grid(list(args)) for s, args in
                                    index.by_call.get("mancalaBoard", ()) if s == i), None)
            if theirs:
                raw = resized_tracks(raw, theirs, grid)
            opt = by_text.setdefault((raw, maps[i], place_maps[i]),
                                     Option(raw, maps[i], [], scores[i], place_maps[i]))
            if i not in opt.sources:
                opt.sources.append(i)
                opt.score = max(opt.score, scores[i])
            by_source.setdefault(i, []).append(opt)
        options = list(by_text.values())
        tie = {id(o): rng.random() for o in options}
        options.sort(key=lambda o: (-o.score, tie[id(o)]))
        out.append(Options(options, by_source))
    return out


def runs_of_every_use(index: FragmentIndex, hole: Hole):
    """(source, run) that fit the hole at every place its fill stands (`Hole.contexts`): the
    runs of each of its contexts whose shape (`run_shape`) some run of each other context
    has. A hole used once takes its context's runs."""
    if not hole.uses:
        yield from index.runs(hole.context)
        return
    shapes = [{run_shape(run) for _, run in index.runs(c)} for c in hole.contexts]
    before: set[tuple] = set()      # the runs of the contexts already read
    for ctx in hole.contexts:
        here = set()
        for i, run in index.runs(ctx):
            here.add((i, run))
            if (i, run) not in before and all(run_shape(run) in s for s in shapes):
                yield i, run
        before |= here


def names_absent_players(run: tuple[str, ...], players: int | None) -> bool:
    """Whether a run names a player past the template's number of players (`P3` in a
    two-player game, which no builder accepts: a four-player source's fragments)."""
    if not players:
        return False
    for text in run:
        bare = re.sub(r'"[^"]*"', "", text)
        if any(int(k) > players for k in re.findall(r"\bP(\d+)\b", bare)):
            return True
    return False


def plans(options: list[list[Option]], scores: list[float], tries: int, rng: random.Random,
          contexts: list[Context] | None = None) -> list[Plan]:
    """Up to `tries` plans of `iter_plans`, none unfit."""
    return list(itertools.islice(iter_plans(options, scores, tries, rng, contexts), tries))


def iter_plans(options: list[list[Option]], scores: list[float], limit: int,
               rng: random.Random, contexts: list[Context] | None = None,
               unfit: set[int] | None = None, fits=None):
    """Plans, made as they are asked for: every hole from one source game first (closest
    games first, up to two thirds of `limit`, or of ORDER_TRIES' budget when `limit` is
    larger; the n-th of several holes with the same context takes the source's n-th
    fragment for it, as `Options.by_source` lists them), then mixes of each hole's best
    options (best sums of ranks first); beyond ORDER_TRIES' budget, the other sources
    whole, then mixes of more options per hole. So a larger `limit` makes the same plans
    first and only goes further. No plan holds an option whose id is in `unfit` when it
    is made (the caller adds the options the builder refused as it goes: the next mixes
    take the next best options of that hole). `fits(h, option)`, if given, says whether an
    option fits hole h at all (`fits_every_place`); it is asked only of the options a plan
    is about to take, in order, so a hole's thousands of options are not all built
    beforehand."""
    unfit = unfit if unfit is not None else set()
    fits = fits or (lambda h, o: True)
    seen: set[tuple[str, ...]] = set()
    made = 0

    def fresh(chosen: list[Option]) -> bool:
        key = tuple(o.text for o in chosen)
        if key in seen or any(id(o) in unfit for o in chosen):
            return False
        seen.add(key)
        return True
    # one source for every hole (the template's own choices go with any source)
    first_of: list[dict[int, Option]] = []
    for opts in options:
        d: dict[int, Option] = {}
        for o in opts:
            for s in o.sources:
                d.setdefault(s, o)
        first_of.append(d)
    contexts = contexts or [None] * len(options)
    nth = [contexts[:h].count(c) for h, c in enumerate(contexts)]
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    # The budget that shapes the order: `limit` up to ORDER_TRIES' budget, that budget
    # beyond, so that a larger `limit` makes the same plans first and only goes further.
    shape = min(limit, CHEAP_FACTOR * ORDER_TRIES)

    def one_source(s: int) -> list[Option] | None:
        chosen = []
        for h, (opts, d, n) in enumerate(zip(options, first_of, nth)):
            in_order = getattr(opts, "by_source", {}).get(s)
            if in_order is not None and -1 not in d:
                in_order = list(itertools.islice((o for o in in_order if fits(h, o)), n + 1))
            if -1 in d:
                # the source's own choice there, else one at random
                chosen.append(in_order[0] if in_order else opts[rng.randrange(len(opts))])
            elif in_order:
                chosen.append(in_order[min(n, len(in_order) - 1)])
            elif in_order is not None:
                return None
            elif s in d:
                chosen.append(d[s])
            else:
                return None
        return chosen

    def mixes(width: int):
        """The best few fitting options of each hole, by the sum of their ranks; made
        again when an option turned out unfit. Ends when `limit` plans are made or no
        combination of these widths is left."""
        nonlocal made
        while made < limit:
            known = len(unfit)
            tops = [list(itertools.islice((o for o in opts if id(o) not in unfit
                                           and fits(h, o)), width))
                    for h, opts in enumerate(options)]
            combos = sorted(itertools.islice(itertools.product(*[range(len(t)) for t in tops]),
                                             20 * shape + 1000),
                            key=lambda ranks: (sum(ranks), ranks))
            for ranks in combos:
                chosen = [t[r] for t, r in zip(tops, ranks)]
                if fresh(chosen):
                    made += 1
                    yield Plan(chosen, "mix")
                    if made >= limit or len(unfit) != known:
                        break
            else:
                return

    read = 0        # the sources whose one-source plan was tried, best first

    def singles(quota: int):
        """The one-source plans of the sources not read yet, until `quota` plans are made."""
        nonlocal made, read
        while read < len(order) and made < quota:
            s = order[read]
            read += 1
            chosen = one_source(s)
            if chosen is not None and fresh(chosen):
                made += 1
                yield Plan(chosen, "one source", s)

    yield from singles(max(1, (2 * shape) // 3))
    width = max(2, math.ceil(shape ** (1 / max(1, len(options)))) + 1)
    yield from mixes(width)
    if made >= limit or limit <= shape:
        return
    # Beyond ORDER_TRIES' budget, once its mixes are spent: the other sources whole, then
    # mixes of ever more options per hole.
    yield from singles(limit)
    widest = max((len(opts) for opts in options), default=0)
    while made < limit and width < widest:
        width += 1
        yield from mixes(width)


OWN = -1             # a fill that is one of the template's own choices ([a | b])
GENERATED = -2       # a start generated for the expected start counts
OWN_WORDS = {OWN: "the template's own choice", GENERATED: "a start generated for the counts"}


def sources_of(plan: Plan, index: FragmentIndex) -> list[str]:
    """The games a plan's fragments come from, best source of each fragment first."""
    if plan.source is not None:
        return [index.sources[plan.source].path]
    names = []
    for o in plan.options:
        for s in o.sources[:1]:
            names.append(OWN_WORDS.get(s) or index.sources[s].path)
    return list(dict.fromkeys(names))


# ---------------------------------------------------------------- trying a candidate

@dataclass
class Tried:
    """What became of one plan: kept or why not, and its figures."""

    number: int
    plan: Plan
    text: str
    sources: list[str]
    # tracks of a source written into the template's board, for another board than this
    # (`track_gap` checks that they walk it)
    brought_tracks: bool = False
    kept: bool = False
    reason: str = ""
    playouts: int = 0
    ending: float = float("nan")
    metrics: dict = field(default_factory=dict)     # name -> (value, low, high)
    met: list[Expected] = field(default_factory=list)
    unchecked: list[Expected] = field(default_factory=list)
    concepts: object = None
    similarity: float = float("nan")
    nearest: str = ""
    score: float = float("nan")
    parts: dict = field(default_factory=dict)
    path: str = ""
    rows: object = None
    played: bool = False       # it came as far as the playouts
    missed: list[Expected] = field(default_factory=list)   # expected concepts it has not
    game: object = None        # the built game, kept only until its start is checked
    start_variant: int = 0     # which generated start it has (0: none)
    board_variant: int = 0     # which resized board it has (0: none; `with_sized_board`)
    spans: list = field(default_factory=list)   # each fill's place in `text` (fill_text)
    blamed: int | None = None  # the hole whose fill the builder refused (-1: the template's)
    error: object = None       # that refusal (a LudemeError)
    refused_at: int = -1       # its offset in `text`


# Turns a candidate's playouts may take together. From the FIRST_PLAYOUTS-th playout on, a
# candidate whose mean length so far would take its n playouts over it is dropped then (a
# war game's random playouts of a few hundred turns each take minutes to reach it), so one
# that passes that test and ends over the budget all the same is rare: the test and the
# budget are one bound. (They were two, the test at 1.5 times a budget of 100,000: war
# candidates of about 590 turns a playout passed it and were dropped after 160 to 185 of
# their 200 playouts, most of their cost spent; the test's threshold is unchanged.)
DEFAULT_TURNS = 150_000


@dataclass(frozen=True)
class Budget:
    """What one candidate may spend on its playouts: `turns` (a count, so the same command
    keeps the same candidates on any machine) and, as a safety limit only, `seconds`."""

    turns: int = DEFAULT_TURNS
    seconds: float | None = None


def play_until(game, n: int, seed: int, allowed_timeouts: int, turns: int,
               seconds: float | None = None):
    """Seeded random playouts (indices 0..n-1, as `ludeme run` seeds them), stopped early: once
    more than `allowed_timeouts` time out, when the first playout ends at once (within one
    turn), once they
    have played more than `turns` turns together (the budget, a count: the same on any
    machine) or, from the FIRST_PLAYOUTS-th on, at a mean length that would take the n
    playouts over the budget, or, as a safety limit only, after
    `seconds`; (rows, why stopped or "")."""
    import time

    from .playouts import as_frame, play_one, playout_seed
    rows, timeouts, played = [], 0, 0
    t0 = time.perf_counter()
    for i in range(n):
        rows.append(play_one(game, playout_seed(seed, i), i))
        timeouts += bool(rows[-1]["timeout"])
        played += rows[-1]["turns"]
        # two timeouts among the first few (over five times the share allowed: a quarter
        # for 95%) say the candidate will not end often enough; one that would happens to
        # start so under 3% of the time
        if timeouts > allowed_timeouts or (timeouts >= 2 and timeouts * n > 5 * allowed_timeouts
                                           * (i + 1)):
            return as_frame(rows), f"{timeouts} of the first {i + 1} playouts timed out"
        if i == 0 and not rows[0]["timeout"] and rows[0]["turns"] <= 1:
            return as_frame(rows), (f"ends at once: the first playout ends after "
                                    f"{rows[0]['turns']} turn(s)")
        # (the first playouts' mean length is no early test of ending at once: a candidate
        # kept on 200 playouts averaged under two rounds in its first 20)
        if i + 1 == FIRST_PLAYOUTS and n > FIRST_PLAYOUTS and timeouts * 5 >= FIRST_PLAYOUTS:
            return as_frame(rows), f"{timeouts} of the first {i + 1} playouts timed out"
        if played > turns and i + 1 < n:
            return as_frame(rows), (f"too long to check: {played} turns in {i + 1} playouts, "
                                    f"over the budget of {turns}")
        if i + 1 >= FIRST_PLAYOUTS and i + 1 < n and played * n > turns * (i + 1):
            return as_frame(rows), (f"too long to check: {played} turns in {i + 1} playouts, "
                                    f"{n} would take over the budget of {turns}")
        if seconds is not None and time.perf_counter() - t0 > seconds and i + 1 < n:
            return as_frame(rows), (f"safety limit: {i + 1} playouts in {seconds:g} s "
                                    "(depends on the machine)")
    return as_frame(rows), ""


def try_plan(template: TemplateGame, tried: Tried, folder: Path, playouts: int, seed: int,
             min_ending: float, budget: "Budget") -> None:
    """Write the candidate, build it, play it, check its expected concepts."""
    from ludeme.api import load
    from .concepts import compile_time
    from .metrics import summarize
    from .playouts import playout_seed
    path = folder / (f"try-{tried.number:03d}"
                     + (f"-board{tried.board_variant}" if tried.board_variant else "")
                     + (f"-start{tried.start_variant}" if tried.start_variant else "")
                     + ".lud")
    path.write_text(tried.text, encoding="utf-8")
    tried.path = str(path)
    try:
        game = load(path, (), template.ruleset, backend="reference")
    except LudemeError as e:
        tried.reason = f"does not fit: {e.message.splitlines()[0]}"
        tried.blamed, tried.refused_at = blame(e, str(path), tried.text, tried.spans)
        tried.error = e
        return
    except RecursionError:
        tried.reason = "does not fit: nests too deep"
        return
    except Exception as e:      # a fragment ludeme cannot build: not this candidate's fault
        tried.reason = f"does not build ({type(e).__name__})"
        return
    if tried.brought_tracks:
        gap = track_gap(game)
        if gap:
            tried.reason = f"does not fit: the tracks brought from another board {gap}"
            return
    # The concepts first: they need no playouts, and most misfits show there.
    try:
        concepts = compile_time(str(path), (), template.ruleset)
        counts = both_readings(game, playout_seed(seed, 0), concepts)
    except LudemeError as e:
        tried.reason = f"concepts not computed: {e.message.splitlines()[0]}"
        return
    except Exception as e:
        tried.reason = f"crashes at the start ({type(e).__name__})"
        return
    tried.concepts = concepts
    met, missed, unchecked = check_expected(template.expected, concepts, counts)
    tried.met, tried.unchecked, tried.missed = met, unchecked, missed
    if missed:
        tried.game = game
        tried.reason = "misses expected concepts: " + ", ".join(map(str, missed))
        return
    tried.played = True
    allowed = int(math.floor((1 - min_ending) * playouts + 1e-9))
    try:
        rows, stopped = play_until(game, playouts, seed, allowed, budget.turns,
                                   budget.seconds)
    except LudemeError as e:
        tried.reason = f"stops in play: {e.message.splitlines()[0]}"
        return
    except Exception as e:
        tried.reason = f"crashes in play ({type(e).__name__})"
        return
    tried.playouts = len(rows)
    tried.ending = 1 - float(rows["timeout"].mean()) if len(rows) else 0.0
    if stopped:
        tried.reason = stopped
        # a candidate its first playout shows hopeless takes no place among those played
        tried.played = len(rows) > 1
        return
    if tried.ending < min_ending:
        tried.reason = f"ends in {tried.ending:.0%} of {len(rows)} playouts"
        return
    mean_turns = float(rows["turns"].mean())
    if mean_turns < MIN_ROUNDS * game.num_players:
        tried.reason = (f"ends at once: {mean_turns:.1f} turns on average (fewer than "
                        f"{MIN_ROUNDS} rounds)")
        return
    summary = summarize(rows).iloc[0]
    for m in ("Balance", "Drawishness", "DurationTurns", "Timeouts", "AdvantageP1"):
        if m in summary:
            tried.metrics[m] = (float(summary[m]), float(summary.get(f"{m}_ci_low", math.nan)),
                                float(summary.get(f"{m}_ci_high", math.nan)))
    tried.rows = rows
    tried.kept = True


# ---------------------------------------------------------------- ranking

SCORE_WEIGHTS = {"concept_similarity": 0.4, "expected_met": 0.2, "ending": 0.2,
                 "balance": 0.1, "decisiveness": 0.1}
MIX_FACTOR = 0.9     # a candidate mixing games is less plausible than one taken from one game


class SourceConcepts:
    """The compile-time concepts of source games, computed once each."""

    def __init__(self, folders: list[Path]):
        self.folders = folders
        self.cache: dict[str, set | None] = {}

    def of(self, rel: str) -> set | None:
        from .concepts import compile_time
        if rel not in self.cache:
            self.cache[rel] = None
            for f in self.folders:
                p = Path(f) / rel
                if p.is_file():
                    try:
                        self.cache[rel] = set(compile_time(str(p)).boolean)
                    except (LudemeError, RecursionError):
                        pass
                    break
        return self.cache[rel]


def score(tried: Tried, template: TemplateGame, source_concepts: SourceConcepts,
          concept_index=None) -> None:
    """The plausibility score and its parts (each in [0, 1])."""
    from .concepts import jaccard
    mine = tried.concepts.boolean
    sims = []
    for rel in tried.sources:
        theirs = source_concepts.of(rel)
        if theirs is not None:
            sims.append((jaccard(mine, theirs), rel))
    if concept_index:
        for e in concept_index:
            sims.append((jaccard(mine, set(e["booleanConcepts"])), e["path"]))
    best = max(sims) if sims else (0.0, "")
    tried.similarity, tried.nearest = best
    n_expected = len(template.expected)
    balance = tried.metrics.get("Balance", (math.nan,))[0]
    draw = tried.metrics.get("Drawishness", (math.nan,))[0]
    parts = {"concept_similarity": best[0],
             "expected_met": len(tried.met) / n_expected if n_expected else 1.0,
             "ending": tried.ending,
             "balance": 0.5 if math.isnan(balance) else balance,
             "decisiveness": 0.5 if math.isnan(draw) else 1 - draw}
    factor = 1.0 if tried.plan.formed == "one source" else MIX_FACTOR
    tried.parts = parts
    tried.score = factor * sum(SCORE_WEIGHTS[k] * v for k, v in parts.items())


def score_formula() -> str:
    """The score in words, for the tables."""
    terms = " + ".join(f"{w:g} {k}" for k, w in SCORE_WEIGHTS.items())
    return f"score = ({terms}), times {MIX_FACTOR:g} when the fragments come from several games"


# ---------------------------------------------------------------- the whole run

@dataclass
class Reconstruction:
    """Every plan tried, the kept candidates ranked, and what they were made from."""

    template: TemplateGame
    index: FragmentIndex
    options: list[list[Option]]
    tried: list[Tried]
    kept: list[Tried]
    seed: int
    playouts: int
    min_ending: float


def family_of(ex: Expanded, folder: str = "") -> str:
    """The family a game belongs to, from its `(classification ...)`: "board/hunt" of
    "board/hunt/reconstruction/pending", "board/sow/two rows" of "board/sow/two
    rows/reconstruction/done"; else from the folder it was read from ("board/sow/two_rows",
    "reconstruction/done/board/hunt", as Ludii's corpus files them), "" for none."""
    c = ex.info().get("classification")
    if not isinstance(c, str) or not c.strip():
        c = folder.replace("reconstruction/done/", "").replace("reconstruction/pending/", "")
        c = "" if c in (".", "reconstruction") else c
    return "/".join(part.replace("_", " ") for part in c.split("/reconstruction")[0].split("/")
                    if part)


def family_closeness(mine: str, theirs: str) -> float:
    """How close two families are, 0 to 1: 1 when one holds the other (a template classified
    "board/race" and a source of "board/race/escape"), else the share of the longer one's
    folders below "board" they have in common ("board/war/replacement/checkmate/shogi" and
    ".../chess" 0.75, "board/sow/two rows" and "board/sow/four rows" 0.5, two families
    0)."""
    a = [x for x in mine.split("/") if x and x != "board"]
    b = [x for x in theirs.split("/") if x and x != "board"]
    if not a or not b:
        return 0.0
    if a[:len(b)] == b or b[:len(a)] == a:
        return 1.0
    common = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return common / max(len(a), len(b))


def no_fragment_error(template: TemplateGame, hole: Hole) -> LudemeError:
    """A hole no fragment of the corpus fits."""
    ctx = hole.context
    what = (f"no description of the corpus lists more items in a ({ctx.keyword} {{...}})"
            if ctx.place == "items" else
            f"no description of the corpus has a ({ctx.keyword} ...) with at least "
            f"{ctx.before + ctx.after + 1} argument(s)")
    if hole.uses:
        what = ("no fragment of the corpus fits every place its fill stands, "
                + ", ".join(map(str, hole.contexts)))
    return LudemeError(f"no fragment fits the hole {ctx}: {what}", hole.pos,
                       path=ctx.keyword, source=template.description.text)


def candidate_text(template: TemplateGame, plan: Plan, index: FragmentIndex, number: int,
                   seed: int, spans: list | None = None, placed: Placed | None = None
                   ) -> str:
    """The template with a plan's fills, under a header naming where each fill comes from."""
    header = [f"Candidate {number} made by `ludeme reconstruct` (seed {seed}) from "
              f"{Path(template.path).name}" + (f", ruleset {template.ruleset}"
                                               if template.ruleset else "")]
    for hole, o in zip(template.holes, plan.options):
        first = [plan.source] if plan.source in o.sources else []
        srcs = first + [s for s in o.sources if s != plan.source]
        src = ", ".join(OWN_WORDS.get(s) or index.sources[s].path for s in srcs[:3]) + (
            f" and {len(o.sources) - 3} more" if len(o.sources) > 3 else "")
        header.append(f"line {hole.pos.line}:{hole.pos.col} {hole.context}: from {src}")
    placed = placed if placed is not None else place_inserts(template, plan, index)
    return fill_text(template, [o.text for o in plan.options],
                     header + list(plan.notes) + placed.notes, spans, placed.inserts)


def new_tried(template: TemplateGame, plan: Plan, index: FragmentIndex, number: int,
              seed: int, start_variant: int = 0) -> Tried:
    """A plan's candidate, written out, before it is tried."""
    plan = with_brought_items(template, with_declared_pieces(template, plan, index), index)
    spans: list = []
    placed = place_inserts(template, plan, index)
    text = candidate_text(template, plan, index, number, seed, spans, placed)
    return Tried(number, plan, text, sources_of(plan, index), start_variant=start_variant,
                 spans=spans,
                 brought_tracks="tracks" in placed.kinds and not placed.own_board)


def with_declared_pieces(template: TemplateGame, plan: Plan, index: FragmentIndex) -> Plan:
    """A plan whose fills name the pieces that one of its fills declares, when the template
    declares none itself (its `(equipment [#])` is a hole): a mix of one game's equipment
    and another's rules moved pieces that no item declared ("no piece called 'Counter1'";
    pieces: Marker1, Marker2). The fills of other sources are renamed as fragments are to
    a template's pieces (`name_map`: by owner, then in order); the plan itself when the
    template declares pieces, or no fill does, or all come from the declaring fill's game."""
    if template.pieces:
        return plan
    declared, by = [], None
    for o in plan.options:
        try:
            nodes = parse(o.text, "<fragment>")
        except LudemeError:
            continue
        declared = [p for n in nodes for p in pieces_of(n)]
        if declared:
            by = o
            break
    if by is None:
        return plan
    options = []
    for o in plan.options:
        source = plan.source if plan.source in o.sources else (o.sources or [OWN])[0]
        if o is by or source < 0 or source in by.sources:
            options.append(o)
            continue
        mapping = tuple(sorted(piece_map(index.sources[source], declared).items()))
        options.append(o if mapping == o.mapping else
                       Option(o.raw, mapping, o.sources, o.score, o.places))
    if all(a is b for a, b in zip(options, plan.options)):
        return plan
    return Plan(options, plan.formed, plan.source)


# The equipment items a fill may read that the equipment must declare: (what they are,
# whether a node declares them, whether a fill reads them, the index's items of a source).
BROUGHT_ITEMS = (("hands", declares_hands, reads_hands, "hands"),
                 ("dice", declares_dice, reads_dice, "dice"))


def with_brought_items(template: TemplateGame, plan: Plan, index: FragmentIndex) -> Plan:
    """A plan whose equipment fill declares the hands and dice its other fills read, when
    the template's whole equipment is a hole (`(equipment [#])`, which `place_inserts` has
    no list of the template's own to add them to): brought from the reading fill's
    source, as written there. A mix of one game's equipment and another's rules placed
    pieces in hands the first game lacks ("player 1 has no hand for Marker1"). The plan
    itself when nothing is missing."""
    eq = next((h for h, hole in enumerate(template.holes) if hole.context.keyword ==
               "equipment" and hole.context.place == "args"), None)
    if eq is None:
        return plan
    equipment = plan.options[eq]
    raw = equipment.raw.rstrip()
    try:
        declared = parse(equipment.text, "<fragment>")
        fills = [parse(o.text, "<fragment>") if h != eq else []
                 for h, o in enumerate(plan.options)]
    except LudemeError:
        return plan
    if not (raw.startswith("{") and raw.endswith("}")):
        return plan
    added, notes = [], []
    for kind, declares, reads, items in BROUGHT_ITEMS:
        if any(declares(n) for n in declared):
            continue
        for h, nodes in enumerate(fills):
            if not any(reads(n) for n in nodes):
                continue
            found = first_bringing(fill_sources(plan, plan.options[h]), getattr(index, items))
            if found is None:
                continue
            added += found[1]
            hole = template.holes[h].pos
            notes.append(f"the {kind} of {index.sources[found[0]].path} added to the "
                         f"equipment: the fill of line {hole.line}:{hole.col} reads them")
            break
    if not added:
        return plan
    options = list(plan.options)
    options[eq] = Option(raw[:-1].rstrip() + " " + " ".join(added) + " }", equipment.mapping,
                         equipment.sources, equipment.score, equipment.places)
    return Plan(options, plan.formed, plan.source, plan.notes + tuple(notes))


def start_holes(template: TemplateGame) -> list[int]:
    """The holes whose fill holds the start rules: `(start [#])`, or a whole `(rules [#])`."""
    return [h for h, hole in enumerate(template.holes) if hole.context.place == "args"
            and hole.context.keyword in ("start", "rules")
            and hole.context.before == hole.context.after == 0]


# The start rules that place no piece but set what the players are (`(set Team 1 {P1 P3})`,
# which the fill's end rule may read: `(result TeamMover Win)`): kept beside a generated start
PLAYER_SETTINGS = ("Team", "Amount", "Score", "Var")


def rule_items(rules: list[Node]) -> list[Node]:
    """The rules of a start written as one list (`{(place ...) (set ...)}`) or one by one."""
    return list(rules[0].items) if len(rules) == 1 and isinstance(rules[0], Array) \
        else list(rules)


def start_settings(rules: list[Node]) -> list[Node]:
    """The start rules among `rules` (a start's items) that set the players
    (`PLAYER_SETTINGS`)."""
    return [n for n in rule_items(rules) if isinstance(n, Call) and n.name == "set" and n.args
            and to_lud(n.args[0]) in PLAYER_SETTINGS]


def replace_start(fill: str, start: str, whole_rules: bool) -> str | None:
    """A fill with its start rules replaced: the fill itself for a `(start [#])` hole, its
    `(start ...)` (added first if it has none) for a `(rules [#])` hole; the fill's own
    start rules that set the players (`start_settings`) are kept, first."""
    try:
        nodes = parse(fill, "<fragment>")
        placing = parse(start, "<start>")
    except LudemeError:
        return None if whole_rules else start
    at = next((i for i, n in enumerate(nodes) if isinstance(n, Call) and n.name == "start"),
              None) if whole_rules else None
    old = (nodes[at].args if at is not None else []) if whole_rules else nodes
    settings = start_settings(list(old))
    if settings:
        start = "{ " + " ".join(to_lud(n) for n in settings + rule_items(placing)) + " }"
    if not whole_rules:
        return start
    new = parse(f"(start {start})", "<start>")[0]
    nodes = [new] + nodes if at is None else nodes[:at] + [new] + nodes[at + 1:]
    return to_lud(nodes, indent=4)


def placing_holes(template: TemplateGame) -> list[int]:
    """The holes that hold where a start rule places a named piece (`Hole.placing`)."""
    return [h for h, hole in enumerate(template.holes) if hole.placing]


def placing_fill(template: TemplateGame, h: int, sites: list[int]) -> str:
    """A list of sites as the fill of a placing hole: `{...}` inside `(sites [#])`, else
    `(sites {...})`."""
    listed = "{" + " ".join(map(str, sorted(sites))) + "}"
    return listed if template.holes[h].context.keyword == "sites" else f"(sites {listed})"


def generated_placings(game, template: TemplateGame, holes: list[int], remaining: int,
                       taken: set[int]) -> list[dict[int, str]]:
    """Fills of the placing holes that put `remaining` pieces on the board, on sites not
    `taken` by the other start rules: each piece's share on its owner's side (the first
    player's at the bottom), or, for a share of at most four facing many, on the centre;
    shared evenly, or (two holes) one to four for one, the rest for the other, as
    `generated_starts` shares them. The likeliest first, at most MAX_GENERATED_STARTS."""
    n = max(1, game.num_players)
    owner = {c.name: c.owner for c in game.components}
    m = len(holes)
    if remaining <= 0 or m == 0:
        return []
    shares = splits(remaining, m) if m > 1 else [[remaining]]
    sites = list(game.board.sites)[:game.containers[0].num_sites]
    free = [s for s in sites if s.index not in taken]
    out: list[dict[int, str]] = []
    for share in shares:
        if sum(share) > len(free):
            continue
        for centre in ((False, True) if min(share) <= 4 < max(share) else (False,)):
            used: set[int] = set()
            fills = {}
            for i in sorted(range(m), key=lambda i: (not (centre and share[i] <= 4), i)):
                who = owner.get(template.holes[holes[i]].placing, 1)
                side = (who - 1) % n if 1 <= who <= n else 0
                order = centre_order(free) if centre and share[i] <= 4 else \
                    side_order(free, side, n)
                mine = [s for s in order if s not in used][:share[i]]
                used.update(mine)
                fills[holes[i]] = placing_fill(template, holes[i], mine)
            if fills not in out:
                out.append(fills)
    return out[:MAX_GENERATED_STARTS]


def placing_variants(template: TemplateGame, tried: Tried, index: FragmentIndex, work: Path,
                     seed: int) -> list[dict[int, str]]:
    """Fills of the placing holes for the expected start counts: the candidate is built
    once with them empty, to read what the rest of its start places (and where), and the
    pieces still wanted on the board are shared among them (`generated_placings`)."""
    from ludeme.api import load
    from .concepts import compile_time
    from .playouts import playout_seed
    holes = placing_holes(template)
    options = list(tried.plan.options)
    for h in holes:
        options[h] = Option(placing_fill(template, h, []), (), [GENERATED], 0.0)
    probe = new_tried(template, Plan(options, tried.plan.formed), index, tried.number, seed)
    path = work / f"try-{tried.number:03d}-empty.lud"
    path.write_text(probe.text, encoding="utf-8")
    try:
        game = load(path, (), template.ruleset, backend="reference")
        concepts = compile_time(str(path), (), template.ruleset)
        counts = start_counts(game, playout_seed(seed, 0), concepts)
        state = game.new_initial_state(playout_seed(seed, 0))
    except (LudemeError, RecursionError):
        return []
    except Exception:       # a fill's ludeme that cannot start: no placing to add
        return []
    dice = sum("Die" in c.name for c in game.components) if "Cell" in concepts.boolean else 0
    taken = {s for s in range(game.containers[0].num_sites) if state.what[s]}
    out = []
    for board, hand in start_targets(template.expected, max(1, game.num_players), dice):
        if hand + dice == counts["NumStartComponentsHand"] or not hand:
            out += generated_placings(game, template, holes,
                                      board - int(counts["NumStartComponentsBoard"]), taken)
    return out[:MAX_GENERATED_STARTS]


def with_generated_start(template: TemplateGame, tried: Tried, index: FragmentIndex,
                         work: Path, playouts: int, seed: int, min_ending: float,
                         budget) -> Tried:
    """A candidate that misses only the expected start counts, tried again with starts
    generated for them (`generated_starts`) in place of the start its fragment brought, or,
    when the template writes its start rules but not where they place their pieces, with
    those places generated (`placing_variants`); those that meet every expected concept go
    on to the playouts (at most PLAYED_STARTS of them), the first kept is the candidate.
    Else the first of them that was played, or the candidate itself when it missed
    something else or no generated start helps."""
    game, tried.game = tried.game, None
    missed = tried.missed
    holes = start_holes(template)
    if game is None or not missed or not (holes or placing_holes(template)) or any(
            m.name not in START_COUNTS for m in missed):
        return tried
    variants: list[dict[int, str]] = []
    sources: dict[int, list[int]] = {}
    for start in generated_starts(game, template.expected, tried.concepts) if holes else ():
        fills = {}
        for h in holes:
            whole = template.holes[h].context.keyword == "rules"
            fill = replace_start(tried.plan.options[h].text, start, whole)
            if fill is None:
                break
            fills[h] = fill
            if whole:
                sources[h] = tried.plan.options[h].sources
        else:
            variants.append(fills)
    if not holes:
        variants = placing_variants(template, tried, index, work, seed)

    def attempts():
        for g, fills in enumerate(variants, 1):
            options = list(tried.plan.options)
            for h, fill in fills.items():
                options[h] = Option(fill, (), sources.get(h, [GENERATED]), 0.0)
            plan = Plan(options, tried.plan.formed + ", start generated", tried.plan.source,
                        tried.plan.notes)
            again = new_tried(template, plan, index, tried.number, seed, g)
            again.board_variant = tried.board_variant
            try_plan(template, again, work, playouts, seed, min_ending, budget)
            yield again
    return first_kept(attempts(), PLAYED_STARTS) or tried


def first_kept(attempts, limit: int) -> Tried | None:
    """The first of the candidates `attempts` tries one by one that is kept, else the first
    of them that was played (or ended at once); none is tried after `limit` were played.
    None when none was played."""
    best, played = None, 0
    for again in attempts:
        again.game = None
        if again.kept:
            return again
        if again.played or again.reason.startswith("ends at once"):
            best = best or again
            played += 1
            if played >= limit:
                break
    return best


# ---------------------------------------------------------------- boards sized for the counts

# The expected concepts a board's size gives: the sites played on (the board's, of every
# site type the game plays on, and the other containers'), and the board's own counts.
SITE_COUNTS = ("NumPlayableSites", "NumPlayableSitesOnBoard", "NumVertices", "NumCells",
               "NumEdges")
MAX_SIZED_BOARDS = 3     # boards resized per candidate whose board misses the site counts
PLAYED_BOARDS = 2        # of which at most this many are played (each with its own starts)
MAX_DIMENSION = 30       # the largest size a board's dimension is given
SIZE_BUILDS = 24         # boards built per fill to find the sizes that meet the counts


def board_hole(template: TemplateGame) -> int | None:
    """The hole that holds the board's graph, `(board [#] ...)`, if the template has one."""
    return next((h for h, hole in enumerate(template.holes) if not hole.choices
                 and hole.context.keyword == "board" and hole.context.place == "args"
                 and hole.context.before == 0), None)


def size_slots(nodes: list[Node]) -> list[list[Int]]:
    """The dimensions of a board that can be resized, in the nodes `nodes`: its whole
    numbers written as arguments of a call, none inside a list (`cells:{1 3 5}` names
    sites, `{0 0}` is a point), nor a named argument's value, nor written with a sign
    (`(shift -1 0 ...)` moves a graph; a decimal or a string is no whole number either).
    With at most three, each is a dimension of its own (`(rectangle 5 5)` is 5 by 5); with
    more, the places of one value are one dimension, resized together (a cross of two
    rectangles, `(rectangle 3 7)` and `(rectangle 7 3)` shifted by `(/ (- 7 3) 2)`, stays a
    cross), 0 left as it is. In the order they are written."""
    def numbers(node: Node):
        if isinstance(node, Call):
            for a in node.args:
                if isinstance(a, Int):
                    if not a.signed:
                        yield a
                elif isinstance(a, (Call, Named)):
                    yield from numbers(a)
        elif isinstance(node, Named):
            yield from numbers(node.value)
    places = [n for node in nodes for n in numbers(node)]
    if len(places) <= 3:
        return [[n] for n in places]
    by_value: dict[int, list[Int]] = {}
    for n in places:
        by_value.setdefault(n.value, []).append(n)
    return [spots for value, spots in by_value.items() if value > 0]


def resized(nodes: list[Node], text: str, slots: list[list[Int]],
            values: dict[int, int]) -> str:
    """The text of `nodes` with slot k's numbers (`size_slots`) written as `values[k]`, on
    one line or on several as `text` (the text they were parsed from) is."""
    new = {id(n): values[k] for k, spots in enumerate(slots) if k in values for n in spots}
    out = map_leaves(nodes, lambda n: Int(new[id(n)], n.pos, n.via) if id(n) in new else n)
    return to_lud(out, indent=4) if "\n" in text.strip() else to_lud(out)


def board_sizes(board: str, use: str = "Cell") -> dict[str, int] | None:
    """The vertices, cells and edges of a board's graph written `board`, built alone (in a
    game of nothing else) for the site type `use` (Ludii's `(rectangle 5 5)` has five
    vertices a side when played on its vertices, five cells a side else); None when the
    builder refuses it (a size out of range, a board with no site or too large, a cell
    that no longer follows the board's edges); anything else is a bug, and is raised."""
    from ludeme.language.expand import expand as expand_description
    from ludeme.model.build import build_game
    text = (f'(game "Sized" (players 2) (equipment {{ (board {board} use:{use}) }}) '
            f'(rules (play (move Pass)) (end (if (is Full) (result P1 Win)))))')
    try:
        game = build_game(expand_description(load_description("<sized board>", text)))
    except LudemeError:
        return None
    b = game.board
    return {"Vertex": b.num_vertices, "Cell": b.num_cells, "Edge": b.num_edges}


def site_counts(sizes: dict[str, int], kinds: set[str], others: int) -> dict[str, int]:
    """The expected site counts (`SITE_COUNTS`) of a board of `sizes`, played on the site
    types `kinds`, beside containers of `others` sites (hands, dice), as `concepts` reads
    them."""
    on_board = sum(n for kind, n in sizes.items() if kind in kinds)
    return {"NumPlayableSites": on_board + others, "NumPlayableSitesOnBoard": on_board,
            "NumVertices": sizes["Vertex"], "NumCells": sizes["Cell"],
            "NumEdges": sizes["Edge"]}


def sized_boards(board: str, expected: list[Expected], kinds: set[str], others: int,
                 use: str = "Cell") -> list[str]:
    """The board's text with one or two of its dimensions (`size_slots`) resized so that
    it has every expected site count, the sizes closest to its own first, at most
    MAX_SIZED_BOARDS. Each dimension's effect is measured once (the board built with it one
    larger: a rectangle's vertices grow as its width, a square's as its side squared), the
    sizes whose predicted count meets the first expected one are built, closest first, at
    most SIZE_BUILDS of them, and those that meet them all are kept."""
    wanted = [e for e in expected if e.name in SITE_COUNTS]
    if not wanted:
        return []
    first = wanted[0]

    def counts(text: str) -> dict[str, int] | None:
        sizes = board_sizes(text, use)
        return None if sizes is None else site_counts(sizes, kinds, others)

    def miss(x: float) -> float:
        if first.holds(x):
            return 0.0
        if first.value is not None:
            return abs(x - float(first.value))
        return min(abs(x - b) for b in (first.low, first.high) if b is not None)
    base = counts(board)
    if base is None or all(e.holds(base[e.name]) for e in wanted):
        return []
    n0 = base[first.name]
    nodes = parse(board, "<board>")
    slots = size_slots(nodes)
    growth = []     # (slot, its size, the exponent of the count in it)
    for k, spots in enumerate(slots):
        v = spots[0].value
        if v == 0:      # (a shift's 0 among three numbers or fewer) no ratio to grow by
            continue
        up = counts(resized(nodes, board, slots, {k: v + 1}))
        if up is None or up[first.name] <= 0 or n0 <= 0 or up[first.name] == n0:
            continue
        growth.append((k, v, math.log(up[first.name] / n0) / math.log((v + 1) / v)))
    guesses = []
    for combo in itertools.chain(((g,) for g in growth), itertools.combinations(growth, 2)):
        for values in itertools.product(range(1, MAX_DIMENSION + 1), repeat=len(combo)):
            if any(w == v for (_, v, _), w in zip(combo, values)):
                continue
            predicted = n0 * math.prod((w / v) ** e for (_, v, e), w in zip(combo, values))
            off = miss(predicted)
            if off <= 0.2 * max(1.0, abs(predicted)):
                guesses.append((off, sum(abs(w - v) for (_, v, _), w in zip(combo, values)),
                                tuple((k, w) for (k, _, _), w in zip(combo, values))))
    guesses.sort()
    out: list[str] = []
    for _, _, sizes in guesses[:SIZE_BUILDS]:
        text = resized(nodes, board, slots, dict(sizes))
        got = counts(text)
        if got is not None and all(e.holds(got[e.name]) for e in wanted) and text not in out:
            out.append(text)
            if len(out) >= MAX_SIZED_BOARDS:
                break
    return out


def with_sized_board(template: TemplateGame, tried: Tried, index: FragmentIndex, work: Path,
                     playouts: int, seed: int, min_ending: float, budget,
                     cache: dict | None = None) -> Tried:
    """A candidate whose board (the fill of `(board [#] ...)`) misses the expected site
    counts (NumPlayableSites, ...), and nothing else but the start counts, tried again with
    the board resized for them (`sized_boards`: no corpus board may have the count asked
    for, while its family's boards have its shape), each with the starts generated for its
    own sites when the start counts are missed too (`with_generated_start`); at most
    PLAYED_BOARDS of them are played, the first kept is the candidate. Else the first of
    them that was played, or the candidate itself."""
    h = board_hole(template)
    missed = [m.name for m in tried.missed]
    if h is None or tried.game is None or not any(m in SITE_COUNTS for m in missed) or any(
            m not in SITE_COUNTS + START_COUNTS for m in missed):
        return tried
    concepts = tried.concepts
    kinds = {k for k in ("Vertex", "Cell", "Edge") if k in concepts.boolean}
    on_board = int(float(concepts.non_boolean.get("NumPlayableSitesOnBoard", 0)))
    others = int(float(concepts.non_boolean.get("NumPlayableSites", on_board))) - on_board
    option = tried.plan.options[h]
    use = tried.game.board.site_type
    key = (option.text, tuple(sorted(kinds)), others, use)
    cache = cache if cache is not None else {}
    if key not in cache:
        cache[key] = sized_boards(option.text, template.expected, kinds, others, use)
    hole = template.holes[h].pos

    def attempts():
        for b, board in enumerate(cache[key], 1):
            options = list(tried.plan.options)
            options[h] = Option(board, (), option.sources, option.score)
            note = (f"the board of line {hole.line}:{hole.col} resized for the expected site "
                    f"counts: {board}")
            plan = Plan(options, tried.plan.formed + ", board sized", tried.plan.source,
                        tried.plan.notes + (note,))
            again = new_tried(template, plan, index, tried.number, seed)
            again.board_variant = b
            try_plan(template, again, work, playouts, seed, min_ending, budget)
            yield with_generated_start(template, again, index, work, playouts, seed,
                                       min_ending, budget)
    best = first_kept(attempts(), PLAYED_BOARDS)
    if best is None:
        return tried
    tried.game = None
    return best


BLAME_LIMIT = 2        # refusals of an option's own fill after which it is left out
OWN_TEXT_LIMIT = 5     # candidates, none built, refused at one place of the template's text


class Refusals:
    """The builder's refusals at the template's own text (outside every fill): when the
    first OWN_TEXT_LIMIT candidates are all refused at one place for one reason, and none
    has built, whatever fills the holes cannot help, and the file says so at that place."""

    def __init__(self, template: TemplateGame):
        self.template = template
        self.built = False
        self.seen: dict[tuple[int, str], int] = {}

    def add(self, t: Tried) -> None:
        if not t.reason.startswith(("does not fit", "does not build")):
            self.built = True
        if self.built or t.blamed != -1 or not t.spans:
            return
        e = t.error
        first = min(t.spans)
        own = template_offset(t.refused_at, t.spans, first[0] - first[2])
        key = (own, e.message.splitlines()[0])
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] >= OWN_TEXT_LIMIT:
            text = self.template.description.text
            line = text.count("\n", 0, own) + 1
            col = own - (text.rfind("\n", 0, own) + 1) + 1
            raise LudemeError(
                f"the template's own text is refused here in {OWN_TEXT_LIMIT} candidates, "
                f"none built, whatever filled its holes: {key[1]}",
                Pos(str(self.template.path), line, col), path=e.path,
                source=text)


def reconstruct(path: str | Path, index: FragmentIndex, work: Path, *,
                ruleset: str | None = None, k: int = DEFAULT_K, tries: int = DEFAULT_TRIES,
                playouts: int = DEFAULT_PLAYOUTS, seed: int = 0, min_ending: float = MIN_ENDING,
                budget: Budget = Budget(), concept_index=None, source_folders=(),
                enough: int | None = None, time_limit: float | None = None,
                leave_out: frozenset[int] = frozenset(), log=None) -> Reconstruction:
    """Fill the template's holes with fragments of `index`, play up to `tries` candidates
    that build and have the expected concepts (of at most CHEAP_FACTOR times as many built;
    stopping once `enough` are kept, 2k by default, or when `time_limit` seconds have
    passed), keep those that build, end and have the expected concepts, and rank them. The
    candidates tried are written under `work`."""
    import time
    t0 = time.perf_counter()
    template = load_template(path, ruleset)
    template.family = family_of(template.expanded)
    rng = random.Random(seed)
    scores = source_scores(template, index, concept_index)
    options = hole_options(template, index, scores, rng, leave_out)
    for hole, opts in zip(template.holes, options):
        if not opts:
            raise no_fragment_error(template, hole)
    work.mkdir(parents=True, exist_ok=True)
    source_concepts = SourceConcepts(list(source_folders))
    tried, kept = [], []
    # Building a candidate and reading its concepts is cheap beside its playouts: up to
    # CHEAP_FACTOR times `tries` candidates are built, `tries` of them played.
    contexts = [h.context for h in template.holes]
    # An option the builder refused BLAME_LIMIT times (its fill held the error) is unfit: the
    # plans made after that leave it out, so the candidates built go to fragments that fit.
    unfit: set[int] = set()
    refused: dict[int, int] = {}
    own_text = Refusals(template)
    placed: dict[int, bool] = {}
    sized: dict = {}        # a board fill's resized texts (`with_sized_board`)

    def fits(h: int, o: Option) -> bool:
        if id(o) not in placed:
            placed[id(o)] = fits_every_place(template.holes[h], o.text)
        return placed[id(o)]
    made = iter_plans(options, scores, CHEAP_FACTOR * tries, rng, contexts, unfit, fits)
    for number, plan in enumerate(made, 1):
        t = new_tried(template, plan, index, number, seed)
        try_plan(template, t, work, playouts, seed, min_ending, budget)
        if t.blamed is not None and t.blamed >= 0:
            o = plan.options[t.blamed]
            refused[id(o)] = refused.get(id(o), 0) + 1
            if refused[id(o)] >= BLAME_LIMIT:
                unfit.add(id(o))
        own_text.add(t)
        t = with_sized_board(template, t, index, work, playouts, seed, min_ending, budget,
                             sized)
        t = with_generated_start(template, t, index, work, playouts, seed, min_ending, budget)
        names = t.sources
        if t.kept:
            score(t, template, source_concepts, concept_index)
            kept.append(t)
        tried.append(t)
        if log:
            log(f"try {number}: " + ("kept" if t.kept else t.reason) + f"  ({', '.join(names)})")
        if len(kept) >= (enough or 2 * k) or sum(x.played for x in tried) >= tries:
            break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            if log:
                log(f"stopped after {number} tries: the time limit of {time_limit:g} s")
            break
    kept.sort(key=lambda t: (-t.score, t.number))
    return Reconstruction(template, index, options, tried, kept, seed, playouts, min_ending)


# ---------------------------------------------------------------- writing

def _interval(m: dict, name: str) -> str:
    v = m.get(name)
    if v is None or math.isnan(v[0]):
        return ""
    return f"{v[0]:.3g} [{v[1]:.3g}, {v[2]:.3g}]"


def candidates_table(rec: Reconstruction, k: int):
    """One row per kept candidate, best first: its file, score and parts, and figures."""
    import pandas as pd
    rows = []
    for rank, t in enumerate(rec.kept, 1):
        row = {"rank": rank, "file": f"candidate-{rank:02d}.lud" if rank <= k else "",
               "try": t.number, "score": round(t.score, 4), "formed": t.plan.formed,
               "sources": "; ".join(t.sources)}
        row.update({k_: round(v, 4) for k_, v in t.parts.items()})
        row["nearest_game"] = t.nearest
        row["expected_concepts_met"] = "; ".join(map(str, t.met))
        row["expected_unchecked"] = "; ".join(map(str, t.unchecked))
        row["playouts"] = t.playouts
        for m in ("Balance", "Drawishness", "DurationTurns", "Timeouts", "AdvantageP1"):
            row[m] = _interval(t.metrics, m)
        rows.append(row)
    return pd.DataFrame(rows)


def tried_table(rec: Reconstruction):
    """One row per candidate tried: kept or why not, and its sources."""
    import pandas as pd
    return pd.DataFrame([{"try": t.number, "kept": t.kept, "reason": t.reason,
                          "formed": t.plan.formed, "playouts": t.playouts,
                          "ending": t.ending, "sources": "; ".join(t.sources)}
                         for t in rec.tried])


def _md_table(df) -> str:
    from .report import md
    if not len(df):
        return "(none)\n"
    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for _, r in df.iterrows():
        lines.append("| " + " | ".join(md(str(r[c])) for c in cols) + " |")
    return "\n".join(lines) + "\n"


def summary_markdown(rec: Reconstruction, k: int) -> str:
    """candidates.md: what was asked, how the candidates were made, the ranked table."""
    t = rec.template
    lines = [f"# Reconstruction of {t.expanded.name}", "",
             f"Template: `{t.path}`" + (f", ruleset {t.ruleset}" if t.ruleset else ""),
             f"Seed {rec.seed}; {len(rec.tried)} candidates tried, {len(rec.kept)} kept "
             f"(they build, end in at least {rec.min_ending:.0%} of {rec.playouts} random "
             "playouts and have every expected concept).", "", "## Holes", ""]
    for h, opts in zip(t.holes, rec.options):
        lines.append(f"- line {h.pos.line}:{h.pos.col} `{h.context}`: {len(opts)} fragments fit")
    lines += ["", "## Expected concepts", ""]
    lines += [f"- {e}" for e in t.expected] or ["- (none given in `(recon ...)`)"]
    cols = ["rank", "file", "score", "formed", "concept_similarity", "expected_met", "ending",
            "balance", "decisiveness", "Balance", "Drawishness", "DurationTurns", "sources"]
    df = candidates_table(rec, k)
    lines += ["", "## Candidates, best first", "", score_formula() + ".",
              "Metrics with 95% intervals; concept_similarity is the Jaccard similarity of the "
              "candidate's concepts to the closest of its source games (or of the index). "
              "An expected concept ludeme cannot compute is listed as unchecked in "
              "candidates.csv, never counted as met.", "",
              _md_table(df[[c for c in cols if c in df.columns]] if len(df) else df)]
    reasons = tried_table(rec)
    dropped = reasons[~reasons["kept"]] if len(reasons) else reasons
    if len(dropped):
        lines += ["## Why the others were dropped", ""]
        for reason, n in dropped["reason"].str.split(":").str[0].value_counts().items():
            lines.append(f"- {reason}: {n}")
    return "\n".join(lines) + "\n"


def write_reconstruction(rec: Reconstruction, out: Path, k: int, compare_n: int = 0,
                         samples: int = 3) -> list[Path]:
    """The top k candidates as .lud files, candidates.csv/.md, tried.csv, report.html with
    sample games of the top `samples`, and (with two or more kept and `compare_n`) the
    comparison of the top k under comparison/."""
    import html as _html

    from .report import html_head, html_table, write_csv
    from .samples import SamplePicker, sample_pages
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    top = rec.kept[:k]
    for rank, t in enumerate(top, 1):
        p = out / f"candidate-{rank:02d}.lud"
        p.write_text(f"// Rank {rank} of {len(rec.kept)}, score {t.score:.3f} "
                     f"({t.plan.formed})\n" + t.text, encoding="utf-8")
        written.append(p)
    write_csv(candidates_table(rec, k), out / "candidates.csv")
    write_csv(tried_table(rec), out / "tried.csv")
    md_text = summary_markdown(rec, k)
    (out / "candidates.md").write_text(md_text, encoding="utf-8")
    written += [out / "candidates.csv", out / "tried.csv", out / "candidates.md"]
    # sample games of the best candidates, as `ludeme run`'s report shows them
    from ludeme.api import load
    blocks = []
    for rank, t in enumerate(top[:samples], 1):
        game = load(out / f"candidate-{rank:02d}.lud", (), rec.template.ruleset,
                    backend="reference")
        picker = SamplePicker()
        picker.add(t.rows)
        described, pages = sample_pages(game, picker, f"candidate-{rank:02d}")
        (out / "games").mkdir(exist_ok=True)
        for name, page in pages.items():
            (out / "games" / name).write_text(page, encoding="utf-8")
            written.append(out / "games" / name)
        links = "".join(f'<li><a href="games/{_html.escape(s["file"])}">'
                        f'{_html.escape(" and ".join(s["roles"]))}: {s["moves"]} moves, '
                        f'{_html.escape(s["result"])}</a></li>' for s in described if s["file"])
        first = next((s["file"] for s in described if s["file"]), None)
        frame = (f'<iframe class="sample" loading="lazy" src="games/{_html.escape(first)}">'
                 "</iframe>" if first else "")
        blocks.append(f"<h2>Candidate {rank} (score {t.score:.3f})</h2>"
                      f"<p>{_html.escape('; '.join(t.sources))}</p>"
                      f'<pre>{_html.escape(t.text)}</pre><div class="samples"><ul>{links}</ul>'
                      f"{frame}</div>")
    t0 = rec.template
    df = candidates_table(rec, k)
    body = (f"<p>Template <code>{_html.escape(t0.path)}</code>; seed {rec.seed}; "
            f"{len(rec.tried)} candidates tried, {len(rec.kept)} kept. "
            f"{_html.escape(score_formula())}.</p>"
            + (html_table(df.astype(str).set_index("rank"), "rank") if len(df) else "")
            + '<p>Why candidates were dropped: <a href="tried.csv">tried.csv</a>; the '
            'comparison of the top candidates: <a href="comparison/report.html">comparison/'
            "</a>.</p>")
    page = html_head(f"Reconstruction of {rec.template.expanded.name}") + body + \
        "".join(blocks) + "</body></html>\n"
    (out / "report.html").write_text(page, encoding="utf-8")
    written.append(out / "report.html")
    if compare_n and len(top) >= 2:
        written += compare_top(rec, out, k, compare_n)
    return written


def compare_top(rec: Reconstruction, out: Path, k: int, n: int) -> list[Path]:
    """`ludeme compare` across the top k candidates: which play identically (the same legal
    moves on the same seeds), which differences in their metrics are real."""
    from ludeme.api import load
    from .compare import Variant, compare, identity_groups
    from .compare_report import write_comparison
    from .playouts import as_frame, play_one, playout_seed
    variants = []
    for rank, t in enumerate(rec.kept[:k], 1):
        game = load(out / f"candidate-{rank:02d}.lud", (), rec.template.ruleset,
                    backend="reference")
        rows = t.rows if len(t.rows) >= n else as_frame(
            [play_one(game, playout_seed(rec.seed, i), i) for i in range(n)])
        variants.append(Variant(f"candidate-{rank:02d}", rows.iloc[:n], game.source,
                                str(out / f"candidate-{rank:02d}.lud")))
    seeds = [playout_seed(rec.seed, i) for i in range(min(n, 20))]
    comparison = compare(variants, identity_groups(variants, seeds))
    return write_comparison(comparison, out / "comparison")


# ---------------------------------------------------------------- the corpus

def default_corpus() -> tuple[list[Path], tuple[Path, ...]]:
    """Ludii's descriptions beside the checkout (as the tests find them: $LUDEME_LUDII_DIR,
    $LUDEME_SHARED_DIR/ludii or ../shared/ludii): its corpus and games folders, without the
    pending reconstructions; and what is excluded."""
    import os
    env = os.environ.get("LUDEME_LUDII_DIR")
    shared = os.environ.get("LUDEME_SHARED_DIR")
    root = Path(env) if env else (Path(shared) / "ludii" if shared else
                                  Path(__file__).resolve().parents[2].parent / "shared" / "ludii")
    folders = [p for p in (root / "corpus", root / "games") if p.is_dir()]
    if not folders:
        raise LudemeError(f"no corpus of descriptions found at {root}: give --corpus DIR (a folder "
                          "of .lud files), or set $LUDEME_LUDII_DIR")
    return folders, (root / "corpus" / "reconstruction" / "pending",)


INDEX_FORMAT = 5        # raise when FragmentIndex or Source change what they hold


def cached_index(folders: list[Path], exclude: tuple[Path, ...] = ()) -> FragmentIndex:
    """`FragmentIndex.of_folders`, kept in the cache folder ($LUDEME_CACHE_DIR or
    ~/.cache/ludeme) under a digest of the files read (names, sizes, times) and this
    version of ludeme, so a second run reads it in a second."""
    import hashlib
    import os
    import pickle

    from ludeme.version import __version__
    digest = hashlib.blake2b(digest_size=12)
    digest.update(__version__.encode())
    digest.update(f"format {INDEX_FORMAT}".encode())
    for folder in folders:
        for p in sorted(Path(folder).rglob("*.lud")):
            st = p.stat()
            digest.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    for e in exclude:
        digest.update(f"-{Path(e).resolve()}".encode())
    cache = Path(os.environ.get("LUDEME_CACHE_DIR") or Path.home() / ".cache" / "ludeme")
    path = cache / "reconstruct" / f"fragments-{digest.hexdigest()}.pickle"
    if path.is_file():
        try:
            with open(path, "rb") as f:
                return pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
            pass
    index = FragmentIndex.of_folders(folders, exclude)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            pickle.dump(index, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass            # no cache: the next run reads the corpus again
    return index


# ---------------------------------------------------------------- recovery

CUTS = ("play", "end", "start")
IDENTITY_SEEDS = 10


def cut_out(path: str | Path, cut: str) -> tuple[str, str, str | None] | None:
    """A finished description with the inside of its `(rules (CUT ...))` replaced by `[#]`:
    (the template's text, the text cut out, the ruleset); None when it has no such block.
    The template is the expanded game (defines resolved), in its default ruleset."""
    desc = load_description(path)
    ruleset = next((r.name for r in desc.rulesets if r.default), None)
    ex = expand(desc, [], ruleset)
    if ex.templates:
        return None
    rules = next((a for a in ex.game.args if isinstance(a, Call) and a.name == "rules"), None)
    target = None if rules is None else next(
        (a for a in rules.args if isinstance(a, Call) and a.name == cut and a.args), None)
    if target is None:
        return None
    original = " ".join(to_lud(a) for a in target.args)
    target.args = [Template("#", [[Word("#", target.pos)]], target.pos)]
    return ex.text(), original, ruleset


def same_text(a: str, b: str) -> bool:
    """Two fragments written alike, whatever their layout."""
    try:
        return to_lud(parse(a, "<a>")) == to_lud(parse(b, "<b>"))
    except LudemeError:
        return False


@dataclass
class Recovered:
    """One finished description with a block cut out and asked for back."""

    file: str
    cut: str
    fragments: int = 0          # fragments that fit the hole
    reachable: bool = False     # the original is among them
    tried: int = 0
    kept: int = 0
    rank: int | None = None     # of the first candidate that is the original or plays as it
    how: str = ""
    why: str = ""


def recover(path: Path, cut: str, index: FragmentIndex, work: Path, k: int, **kwargs
            ) -> Recovered | None:
    """Cut a block out of a finished description, reconstruct it (its own file left out of
    the fragments), and find the best ranked candidate that is the original, or plays as it
    does (the same legal moves and outcome on the same seeds: `compare.play_signature`)."""
    from ludeme.api import load
    from .compare import play_signature
    from .playouts import playout_seed
    made = cut_out(path, cut)
    if made is None:
        return None
    text, original, ruleset = made
    work.mkdir(parents=True, exist_ok=True)
    template_path = work / "template.lud"
    template_path.write_text(text, encoding="utf-8")
    me = Path(path).resolve()
    leave_out = frozenset(i for i, s in enumerate(index.sources)
                          if s.root and Path(s.root, s.path).resolve() == me)
    result = Recovered(str(path), cut)
    try:
        rec = reconstruct(template_path, index, work / "tried", k=k, leave_out=leave_out,
                          **kwargs)
    except LudemeError as e:
        result.why = e.message.splitlines()[0]
        return result
    opts = rec.options[0] if rec.options else []
    result.fragments = len(opts)
    result.reachable = any(o.raw == original for o in opts)
    result.tried, result.kept = len(rec.tried), len(rec.kept)
    seeds = [playout_seed(rec.seed, i) for i in range(IDENTITY_SEEDS)]
    truth = None
    for rank, t in enumerate(rec.kept[:k], 1):
        if same_text(t.plan.options[0].text, original):
            result.rank, result.how = rank, "same text"
            break
        if truth is None:
            game = load(path, (), ruleset, backend="reference")
            truth = [play_signature(game, s) for s in seeds]
        cand = load(t.path, (), rec.template.ruleset, backend="reference")
        if [play_signature(cand, s) for s in seeds] == truth:
            result.rank, result.how = rank, "plays identically"
            break
    return result
