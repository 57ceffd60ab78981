"""Expansion: options, rulesets, defines and ranges, done on the tree as Ludii does on text.

Order (as in Ludii's expander): pick the option items (defaults, then the
ruleset's, then the caller's), substitute `<Tag>` references, collect the
`(define ...)` forms (the file's own over the standard library), expand
define uses with their arguments, then expand ranges. The game and its
metadata come out as separate trees; every node keeps its source position
and the chain of places that brought it in.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ludeme.errors import LudemeError, Pos, known_list, suggest, read_source
from .grammar import _env_limit, ensure_stack, max_nesting, parse
from .syntax import Array, Atom, Block, Call, Int, Named, Node, Omit, Param, Range, Seq, Str, Tag, Template, Word, to_lud, walk

# Bounds on the work one expansion may do, so a hostile description cannot hang the tool.
# Ludii's corpus at most: 138,250 nodes out and 294,569 steps (Kriegspiel (Chess)),
# define calls 13 deep (Throngs). Raise them with --max-expansion / $LUDEME_MAX_EXPANSION and
# $LUDEME_MAX_DEFINE_DEPTH.
DEFAULT_MAX_EXPANSION = 1_000_000    # steps (a node visited or produced): 3.4 times the corpus
DEFAULT_MAX_DEFINE_DEPTH = 64
MAX_TAG_DEPTH = 16
MAX_RANGE = 100_000

STDLIB_DIR = Path(__file__).with_name("stdlib")


# ---------------------------------------------------------------- options

@dataclass
class OptionItem:
    """One item of an option: its name, its values (one run of nodes per arg) and help."""

    name: str
    values: list[list[Node]]
    help: str | None
    priority: int          # the number of '*' after the item: the highest is the default
    pos: Pos


@dataclass
class Option:
    """`(option "Category" <Tag> args:{<a> ...} {items})`."""

    category: str
    tag: str
    args: list[str]
    items: list[OptionItem]
    pos: Pos

    @property
    def default(self) -> OptionItem:
        """The item with the most '*' (the first of those), as Ludii picks it."""
        best = max(i.priority for i in self.items)
        return next(i for i in self.items if i.priority == best)

    def item(self, name: str) -> OptionItem | None:
        """The item called `name`, if any."""
        return next((i for i in self.items if i.name == name), None)


@dataclass
class Ruleset:
    """`(ruleset "Ruleset/Name" {"Category/Item" ...})`."""

    name: str
    selections: list[str]
    default: bool
    pos: Pos

    @property
    def short_name(self) -> str:
        """The name without its `Ruleset/` prefix."""
        return self.name.split("/", 1)[1] if self.name.startswith("Ruleset/") else self.name


@dataclass
class Description:
    """A parsed .lud file before any option is chosen."""

    path: str
    text: str
    body: list[Node]            # top-level nodes other than option/rulesets
    options: list[Option]
    rulesets: list[Ruleset]

    @property
    def tags(self) -> dict[str, list[Option]]:
        """Options by their tag (two options may share a tag if their argument names differ)."""
        out: dict[str, list[Option]] = {}
        for o in self.options:
            out.setdefault(o.tag, []).append(o)
        return out

    def option_for(self, tag: str, arg: str | None) -> Option | None:
        """The option a `<tag>` or `<tag:arg>` reference names."""
        opts = self.tags.get(tag, [])
        if arg is not None:
            for o in opts:
                if arg in o.args:
                    return o
        return opts[0] if opts else None

    @property
    def game_name(self) -> str | None:
        """The string after `(game` (or `(match`), if written literally."""
        for n in self.body:
            if isinstance(n, Call) and n.name in ("game", "match") and n.args \
                    and isinstance(n.args[0], Str):
                return n.args[0].value
        return None

    def find_ruleset(self, name: str) -> Ruleset:
        """The ruleset called `name`, with or without its `Ruleset/` prefix."""
        for r in self.rulesets:
            if name in (r.name, r.short_name):
                return r
        matches = [r for r in self.rulesets if r.short_name.startswith(name)]
        if len(matches) == 1:
            return matches[0]
        names = [r.name for r in self.rulesets]
        hint = suggest(name, names)
        listing = f"; known rulesets: {known_list(names)}" if names else \
            "; this description has no rulesets"
        raise LudemeError(f"unknown ruleset {name!r}{hint}{listing}", Pos(self.path, 1, 1))

    def resolve_option(self, spec: str, pos: Pos | None = None, given: str | None = None
                       ) -> tuple[Option, OptionItem]:
        """`"Category/Item"` to its option and item. `given` names where a request that is
        not in the file came from (e.g. "--option"): its errors name it, not a place in
        the file."""
        where = f"{given} {spec!r}: " if given else ""
        at = None if given else pos
        for opt in sorted(self.options, key=lambda o: -len(o.category)):
            names = [f"{opt.category}/{i.name}" for i in opt.items]
            if spec == opt.category:
                raise LudemeError(f"{where}{spec!r} is an option, not one of its items; "
                                  f"choose one: {known_list(names)}", at or opt.pos)
            prefix = opt.category + "/"
            if spec.startswith(prefix):
                item = opt.item(spec[len(prefix):])
                if item is None:
                    raise LudemeError(
                        f"{where}unknown option item {spec!r}{suggest(spec, names)}; "
                        f"items of {opt.category!r}: {known_list(names)}",
                        at or opt.pos)
                return opt, item
        cats = [o.category for o in self.options]
        listing = f"; known options: {known_list(cats)}" if cats else \
            "; this description has no options"
        raise LudemeError(f"{where}unknown option {spec!r}{suggest(spec.split('/')[0], cats)}"
                          f"{listing}", at or (None if given else Pos(self.path, 1, 1)))


@dataclass
class Expanded:
    """A game with its options chosen and every define and range expanded."""

    description: Description
    game: Call
    metadata: Call | None
    selected: dict[str, str]            # category -> item name
    ruleset: Ruleset | None
    templates: list[Template] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The game's name."""
        a = self.game.args[0] if self.game.args else None
        return a.value if isinstance(a, Str) else self.description.game_name or "?"

    @property
    def option_specs(self) -> list[str]:
        """The selected items as `Category/Item` strings."""
        return [f"{c}/{i}" for c, i in self.selected.items()]

    def info(self) -> dict:
        """The metadata `(info {...})` entries, with `useFor` entries for this ruleset merged."""
        return metadata_info(self.metadata, self.ruleset.name if self.ruleset else None)

    def text(self, indent: int | None = 4) -> str:
        """The expanded game (and metadata) as .lud text."""
        parts = [to_lud(self.game, indent)]
        if self.metadata is not None:
            parts.append(to_lud(self.metadata, indent))
        return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------- loading

def load_description(path: str | os.PathLike, text: str | None = None) -> Description:
    """Parse a .lud file and separate its options and rulesets from its body."""
    path = str(path)
    if text is None:
        text = read_source(path, "description")
    elif text.startswith("\ufeff"):
        text = text[1:]         # a byte-order mark is not part of the text
    try:
        nodes = parse(text, path)
    except LudemeError as e:
        e.source = text
        raise
    body, options, rulesets = [], [], []
    for node in nodes:
        if isinstance(node, Call) and node.name == "option":
            options.append(_option(node))
        elif isinstance(node, Call) and node.name == "rulesets":
            rulesets.extend(_rulesets(node))
        else:
            body.append(node)
    # Two options may share a tag; a reference goes to the first one declaring its
    # argument, as Ludii substitutes options in the order they are written.
    return Description(path, text, body, options, rulesets)


def _fail(node: Node, message: str, path: str) -> LudemeError:
    return LudemeError(message, node.pos, path=path, via=node.via)


def _option(node: Call) -> Option:
    pos_args = node.positional()
    if len(pos_args) < 3 or not isinstance(pos_args[0], Str) or not isinstance(pos_args[1], Tag) \
            or not isinstance(pos_args[-1], Array):
        raise _fail(node, 'expected (option "Category" <Tag> args:{<arg> ...} { (item ...) ... })',
                    "option")
    category, tag, items_arr = pos_args[0].value, pos_args[1].name, pos_args[-1]
    args_node = node.named("args")
    args = []
    if args_node is not None:
        if not isinstance(args_node, Array) or not all(isinstance(a, Tag) for a in args_node.items):
            raise _fail(args_node, "expected args:{ <name> ... }", f"option {category!r}")
        args = [a.name for a in args_node.items]
    items = []
    for it in items_arr.items:
        where = f"option {category!r}"
        if not (isinstance(it, Call) and it.name == "item"):
            raise _fail(it, '(item "Name" <value> ... "help") expected', where)
        if not it.args or not isinstance(it.args[0], Str):
            raise _fail(it, 'expected the item name as a string: (item "Name" <value> "help")',
                        where)
        values = [a.items for a in it.args[1:] if isinstance(a, Block)]
        rest = [a for a in it.args[1:] if not isinstance(a, Block)]
        if len(rest) > 1 or (rest and not isinstance(rest[0], Str)):
            raise _fail(rest[-1] if rest else it,
                        "expected item values in < > and at most one help string", where)
        items.append(OptionItem(it.args[0].value, values, rest[0].value if rest else None,
                                it.starred, it.pos))
    if not items:
        raise _fail(node, f"option {category!r} has no items", "option")
    return Option(category, tag, args, items, node.pos)


def _rulesets(node: Call) -> list[Ruleset]:
    arr = node.args[0] if len(node.args) == 1 else None
    if not isinstance(arr, Array):
        raise _fail(node, "expected (rulesets { (ruleset \"Ruleset/Name\" {...}) ... })",
                    "rulesets")
    out = []
    for r in arr.items:
        if not (isinstance(r, Call) and r.name == "ruleset" and len(r.args) >= 2
                and isinstance(r.args[0], Str) and isinstance(r.args[1], Array)):
            raise _fail(r, 'expected (ruleset "Ruleset/Name" { "Category/Item" ... })',
                        "rulesets")
        sel = []
        for s in r.args[1].items:
            if not isinstance(s, Str):
                raise _fail(s, 'expected an option as "Category/Item"', "rulesets/ruleset")
            sel.append(s.value)
        out.append(Ruleset(r.args[0].value, sel, bool(r.starred), r.pos))
    return out


# ---------------------------------------------------------------- defines

@dataclass
class Define:
    """`(define "Name" body...)`."""

    name: str
    body: list[Node]
    pos: Pos
    params: frozenset[int]
    library: bool = False     # from ludeme/stdlib: names inside resolve to the library first
    size: int = 0             # nodes in the body: the cost of one copy


def collect_defines(nodes: list[Node], defines: dict[str, Define] | None = None
                    ) -> tuple[dict[str, Define], list[Node]]:
    """Take every `(define ...)` form out of a run of nodes, wherever it stands (as Ludii does)."""
    defines = {} if defines is None else defines
    rest = []
    for node in nodes:
        if isinstance(node, Call) and node.name == "define":
            if not node.args or not isinstance(node.args[0], Str):
                raise _fail(node, 'expected (define "Name" body)', "define")
            name = node.args[0].value
            _, body = collect_defines(node.args[1:], defines)
            nodes = [n for b in body for n in walk(b)]
            params = frozenset(n.value for n in nodes if isinstance(n, Param))
            defines[name] = Define(name, body, node.pos, params, size=len(nodes))
        else:
            rest.append(_strip_defines(node, defines))
    return defines, rest


def _is_define(n: Node) -> bool:
    return isinstance(n, Call) and n.name == "define"


def _strip_defines(node: Node, defines: dict[str, Define]) -> Node:
    """`node` with nested (define ...) forms collected into `defines` and removed."""
    if isinstance(node, Call):
        if any(_is_define(a) for a in node.args) or any(isinstance(a, (Call, Seq)) for a in node.args):
            _, args = collect_defines(node.args, defines)
            return Call(node.head, args, node.pos, node.via, node.starred)
    elif isinstance(node, Seq):
        _, items = collect_defines(node.items, defines)
        return type(node)(items, node.pos, node.via)
    return node


@functools.cache
def stdlib_defines() -> dict[str, Define]:
    """The project's own standard define library (`ludeme/stdlib/*.def`)."""
    defines: dict[str, Define] = {}
    for f in sorted(STDLIB_DIR.glob("*.def")):
        found, rest = collect_defines(parse(f.read_text(encoding="utf-8"), str(f)))
        if rest:
            raise LudemeError("only (define ...) forms may stand in a library file",
                              rest[0].pos)
        for d in found.values():
            d.library = True
        defines.update(found)
    return defines


def max_expansion() -> int:
    """The expansion budget in steps ($LUDEME_MAX_EXPANSION, default 1,000,000)."""
    return _env_limit("LUDEME_MAX_EXPANSION", DEFAULT_MAX_EXPANSION)


def max_define_depth() -> int:
    """How deep define calls may nest ($LUDEME_MAX_DEFINE_DEPTH, default 64)."""
    return _env_limit("LUDEME_MAX_DEFINE_DEPTH", DEFAULT_MAX_DEFINE_DEPTH)


def _chain_text(names: list[str]) -> str:
    """`"D30" -> "D29" -> ...`, shortened in the middle when long."""
    quoted = [f'"{n}"' for n in names]
    if len(quoted) > 12:
        quoted = quoted[:8] + [f"... ({len(quoted) - 11} more)"] + quoted[-3:]
    return " -> ".join(quoted)


class _Expander:
    """Substitutes option tags and defines through a tree, within bounded work and depth.

    `steps` counts nodes visited and produced against `budget`; `nest` is the depth of
    the node being produced (every recursion here follows it, so it bounds the stack);
    `chain` holds the define calls under way, outermost first, for error messages.
    """

    def __init__(self, desc: Description, chosen: dict[str, OptionItem],
                 defines: dict[str, Define]):
        self.desc = desc
        self.chosen = chosen  # category -> item
        self.defines = defines
        self.library = stdlib_defines()
        self._tag_in_text = re.compile(r"<\s*([A-Za-z0-9_]+)(?::([A-Za-z0-9_]+))?\s*>")
        self.budget = max_expansion()
        self.max_depth = max_define_depth()
        self.max_nest = max_nesting()
        ensure_stack(self.max_nest + self.max_depth)
        self.steps = 0
        self.nest = 0
        self.chain: list[tuple[Define, Node]] = []

    # -- bounds ----------------------------------------------------------
    def over_budget(self, n: Node) -> LudemeError:
        """The error for an expansion that grew past its budget, at the outermost define use."""
        where = self.chain[0][1] if self.chain else n
        chain = (f" while expanding define {_chain_text([d.name for d, _ in self.chain])}"
                 if self.chain else "")
        return _fail(where, f"expansion grows past its budget of {self.budget:,} steps{chain}; "
                     "if the description is meant to be this large, raise the budget with "
                     "--max-expansion N or $LUDEME_MAX_EXPANSION", "define")

    def too_deep(self, n: Node) -> LudemeError:
        """The error for a node nested deeper than the later stages handle."""
        chain = (f" (in define {_chain_text([d.name for d, _ in self.chain])})"
                 if self.chain else "")
        return LudemeError(f"the expanded description nests deeper than {self.max_nest} levels "
                           f"here{chain}; raise the limit with $LUDEME_MAX_NESTING",
                           n.pos, via=n.via[-1:])  # the use in the game, not every step

    # -- option tags ---------------------------------------------------
    def tag_value(self, tag: Tag) -> list[Node]:
        opt = self.desc.option_for(tag.name, tag.arg)
        if opt is None:
            raise _fail(tag, f"unknown option tag <{tag.name}>{suggest(tag.name, self.desc.tags)}"
                        f"; declared tags: "
                        f"{known_list('<' + t + '>' for t in self.desc.tags) or 'none'}",
                        "option tag")
        item = self.chosen[opt.category]
        index = 0
        if tag.arg is not None:
            if tag.arg not in opt.args:
                raise _fail(tag, f"option <{opt.tag}> has no argument {tag.arg!r}; its "
                            f"arguments: {known_list(opt.args) or 'none'}", "option tag")
            index = opt.args.index(tag.arg)
        if index >= len(item.values):
            if not item.values and index == 0:
                return []
            raise _fail(tag, f"item {item.name!r} of option {opt.category!r} gives no value for "
                        f"<{opt.tag}:{tag.arg}>", "option tag")
        return item.values[index]

    def sub_tags(self, nodes: list[Node], depth: int = 0) -> list[Node]:
        """Replace every `<Tag>` by the chosen item's value."""
        out = []
        for n in nodes:
            out.extend(self.sub_tags_node(n, depth))
        return out

    def sub_tags_node(self, n: Node, depth: int) -> list[Node]:
        self.steps += 1
        if self.steps > self.budget:
            raise self.over_budget(n)
        if isinstance(n, (Atom, Tag)):
            return self.sub_tags_leaf(n, depth)
        self.nest += 1
        if self.nest > self.max_nest:
            raise self.too_deep(n)
        out = self.sub_tags_inner(n, depth)
        self.nest -= 1
        return out

    def sub_tags_leaf(self, n: Node, depth: int) -> list[Node]:
        if isinstance(n, Tag):
            if depth > MAX_TAG_DEPTH:
                raise _fail(n, f"option tag <{n.name}> refers to itself", "option tag")
            value = [v.copy((n.pos,) + n.via) for v in self.tag_value(n)]
            return self.sub_tags(value, depth + 1)
        if isinstance(n, Str):
            if "<" in n.value and self._tag_in_text.search(n.value):
                return [Str(self._tag_in_text.sub(self._string_tag, n.value), n.pos, n.via)]
            return [n]
        return [n]

    def sub_tags_inner(self, n: Node, depth: int) -> list[Node]:
        if isinstance(n, Call):
            head = self.sub_tags_node(n.head, depth)
            if not head:
                raise _fail(n, "an option tag used as a ludeme name gives nothing", "option tag")
            # (<Board:type> 5) with type = "hex Diamond": the run reads as head then arguments.
            return [Call(head[0], head[1:] + self.sub_tags(n.args, depth), n.pos, n.via,
                         n.starred)]
        if isinstance(n, Array):
            return [Array(self.sub_tags(n.items, depth), n.pos, n.via)]
        if isinstance(n, Block):
            return [Block(self.sub_tags(n.items, depth), n.pos, n.via)]
        if isinstance(n, Named):
            value = self.sub_tags_node(n.value, depth)
            if len(value) != 1:
                raise _fail(n, f"'{n.name}:' needs exactly one value after option substitution",
                            "")
            return [Named(n.name, value[0], n.pos, n.via)]
        if isinstance(n, Range):
            lo, hi = self.sub_tags_node(n.lo, depth), self.sub_tags_node(n.hi, depth)
            if len(lo) != 1 or len(hi) != 1:
                raise _fail(n, "a range needs one value on each side", "")
            return [Range(lo[0], hi[0], n.pos, n.via)]
        if isinstance(n, Template):
            return [Template(n.text, [self.sub_tags(a, depth) for a in n.alternatives],
                             n.pos, n.via, n.end)]
        return [n]

    def _string_tag(self, m: re.Match) -> str:
        """A `<Tag>` written inside a string: substituted only if it names a declared option."""
        opt = self.desc.option_for(m.group(1), m.group(2))
        if opt is None:
            return m.group(0)
        index = opt.args.index(m.group(2)) if m.group(2) in opt.args else 0
        values = self.chosen[opt.category].values
        return to_lud(values[index]) if index < len(values) else ""

    # -- defines --------------------------------------------------------
    def expand(self, nodes: list[Node], depth: int = 0, in_lib: bool = False) -> list[Node]:
        """Expand every define use and range in a run of nodes.

        Inside a library define's body (`in_lib`), names resolve to the library
        first, as Ludii expands library defines on their own after the game's.
        """
        out = []
        for n in nodes:
            out.extend(self.expand_node(n, depth, in_lib))
        return out

    def lookup(self, name: str, in_lib: bool):
        if in_lib and name in self.library:
            return self.library[name]
        return self.defines.get(name)

    def expand_one(self, n: Node, depth: int, what: str, in_lib: bool = False) -> Node:
        got = self.expand_node(n, depth, in_lib)
        if len(got) != 1:
            raise _fail(n, f"{what} must expand to exactly one expression, "
                        f"got {len(got)}", "")
        return got[0]

    def expand_node(self, n: Node, depth: int, in_lib: bool = False) -> list[Node]:
        self.steps += 1
        if self.steps > self.budget:
            raise self.over_budget(n)
        if isinstance(n, Str):
            d = self.lookup(n.value, in_lib)
            if d is not None:
                return self.call_define(d, [], n, depth)
            return [n]
        if isinstance(n, Atom):
            return [n]
        if isinstance(n, Call):
            d = self.lookup(n.head.value, in_lib) if isinstance(n.head, Str) else None
            if d is not None:
                return self.call_define(d, n.args, n, depth, in_lib)
        self.nest += 1
        if self.nest > self.max_nest:
            raise self.too_deep(n)
        out = self.expand_inner(n, depth, in_lib)
        self.nest -= 1
        return out

    def expand_inner(self, n: Node, depth: int, in_lib: bool) -> list[Node]:
        """`expand_node` for the nodes that hold others (a define use excepted)."""
        if isinstance(n, Call):
            d = self.lookup(n.head.value, in_lib) if isinstance(n.head, Str) else None
            if d is not None:
                return self.call_define(d, n.args, n, depth, in_lib)
            if isinstance(n.head, Str):
                raise _fail(n.head, f"unknown define {n.head.value!r}"
                            f"{suggest(n.head.value, self.defines)}", "define")
            head = self.expand_one(n.head, depth, "a ludeme name", in_lib)
            if isinstance(head, Word) and head.value in _NAMING and n.args \
                    and isinstance(n.args[0], Str):
                # Ludii never expands the string right after game, match or instance:
                # a game may share its name with one of its defines.
                args = [n.args[0]] + self.expand(n.args[1:], depth, in_lib)
            else:
                args = self.expand(n.args, depth, in_lib)
            if not isinstance(head, (Word, Tag)) and not args:
                return [head]  # ((x)) and ("Define") used in parentheses: read the inside
            if isinstance(head, Call) and isinstance(args[-1], Call):
                # ((x ...) ... (y ...)): Ludii's Expander.handleDoubleBrackets drops the
                # outer pair of a "((" closed by "))", so the items join the enclosing form.
                return [head] + args
            return [Call(head, args, n.pos, n.via, n.starred)]
        if isinstance(n, Array):
            return [Array(self.expand(n.items, depth, in_lib), n.pos, n.via)]
        if isinstance(n, Block):
            return [Block(self.expand(n.items, depth, in_lib), n.pos, n.via)]
        if isinstance(n, Named):
            value = self.expand_node(n.value, depth, in_lib)
            if not value:
                return []  # name:#2 with #2 left out: the whole argument drops out
            if len(value) != 1:
                raise _fail(n, f"'{n.name}:' must be followed by exactly one expression", "")
            return [Named(n.name, value[0], n.pos, n.via)]
        if isinstance(n, Range):
            out = expand_range(self.expand_one(n.lo, depth, "a range bound", in_lib),
                               self.expand_one(n.hi, depth, "a range bound", in_lib), n)
            self.steps += len(out)
            return out
        if isinstance(n, Template):
            return [Template(n.text, [self.expand(a, depth, in_lib) for a in n.alternatives],
                             n.pos, n.via, n.end)]
        return [n]

    def call_define(self, d: Define, args: list[Node], use: Node, depth: int,
                    in_lib: bool = False) -> list[Node]:
        if depth >= self.max_depth:
            names = [c.name for c, _ in self.chain] + [d.name]
            itself = len(set(names)) == 1
            what = (f"define {d.name!r} keeps expanding into itself" if itself else
                    f"define calls nest too deep: {_chain_text(names)}")
            raise _fail(self.chain[0][1] if self.chain else use,
                        f"{what} (more than {self.max_depth} levels; raise the limit with "
                        "$LUDEME_MAX_DEFINE_DEPTH)", "define")
        via = (use.pos,) + use.via
        # Arguments are written at the use site: expand them there, with its names.
        args = [[a] if isinstance(a, Omit) else self.expand_node(a, depth, in_lib) for a in args]
        self.steps += d.size
        if self.steps > self.budget:
            raise self.over_budget(use)
        self.chain.append((d, use))
        body = [b.copy(via) for b in d.body]
        body = self.sub_params(body, args)
        out = self.expand(body, depth + 1, d.library)
        self.chain.pop()
        return out

    @staticmethod
    def glued_text(n: Node, m: re.Match, args: list[list[Node]]) -> str:
        """The text a parameter glued to a word (`P#1`) stands for: its argument's, a
        single word or integer (Ludii substitutes in the text; no argument, no text)."""
        k = int(m.group(1)) - 1
        if not 0 <= k < len(args) or (len(args[k]) == 1 and isinstance(args[k][0], Omit)):
            return ""
        arg = args[k]
        if len(arg) != 1 or not isinstance(arg[0], (Word, Int)) or isinstance(arg[0].value, bool):
            raise _fail(n, f"a parameter glued to a word ({n.value}) with an argument other "
                        "than a word or an integer is not supported yet", "define")
        return str(arg[0].value)

    def string_text(self, n: Node, m: re.Match, args: list[list[Node]]) -> str:
        """What `#k` inside a string stands for: as glued to a word when the define was
        given a k-th argument; else left as it is (`"color: #0000EE"` in a text)."""
        if not 1 <= int(m.group(1)) <= len(args):
            return m.group(0)
        return self.glued_text(n, m, args)

    def sub_params(self, nodes: list[Node], args: list[list[Node]]) -> list[Node]:
        out = []
        for n in nodes:
            out.extend(self.sub_param(n, args))
        return out

    def sub_param(self, n: Node, args: list[list[Node]]) -> list[Node]:
        if isinstance(n, Param):
            k = n.value - 1
            if 0 <= k < len(args) and not (len(args[k]) == 1 and isinstance(args[k][0], Omit)):
                return list(args[k])
            return []  # a parameter without an argument drops out, as in Ludii
        if isinstance(n, Word) and "#" in n.value:
            return [Word(_GLUED.sub(lambda m: self.glued_text(n, m, args), n.value), n.pos, n.via)]
        if isinstance(n, Str) and "#" in n.value:
            # Ludii expands a define's body as text: a parameter inside a string is replaced
            # too (`(remember Value "#1" ...)` names a list per argument)
            return [Str(_GLUED.sub(lambda m: self.string_text(n, m, args), n.value), n.pos,
                        n.via)]
        if isinstance(n, Call):
            head = self.sub_param(n.head, args)
            if len(head) != 1:
                raise _fail(n, "a parameter used as a ludeme name needs an argument", "define")
            return [Call(head[0], self.sub_params(n.args, args), n.pos, n.via, n.starred)]
        if isinstance(n, Array):
            return [Array(self.sub_params(n.items, args), n.pos, n.via)]
        if isinstance(n, Block):
            return [Block(self.sub_params(n.items, args), n.pos, n.via)]
        if isinstance(n, Named):
            value = self.sub_param(n.value, args)
            return [Named(n.name, value[0], n.pos, n.via)] if value else []
        if isinstance(n, Range):
            lo, hi = self.sub_param(n.lo, args), self.sub_param(n.hi, args)
            if len(lo) != 1 or len(hi) != 1:
                raise _fail(n, "a range bound is a parameter with no argument", "define")
            return [Range(lo[0], hi[0], n.pos, n.via)]
        if isinstance(n, Template):
            return [Template(n.text, [self.sub_params(a, args) for a in n.alternatives],
                             n.pos, n.via, n.end)]
        return [n]


_GLUED = re.compile(r"#(\d+)")  # a parameter glued to a word: P#1
_NAMING = ("game", "match", "instance")  # Ludii's Expander.protectedSubstring
_LABEL = re.compile(r"^([A-Za-z]+)(\d+)$")


def _col_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n


def _col_letters(n: int) -> str:
    s = ""
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def expand_range(lo: Node, hi: Node, at: Node) -> list[Node]:
    """`1..5` to 1 2 3 4 5 (`5..1` counts down); `"A1".."C1"` to "A1" "B1" "C1"."""
    via = at.via
    if isinstance(lo, Int) and isinstance(hi, Int):
        if abs(hi.value - lo.value) > MAX_RANGE:
            raise _fail(at, f"bad range {lo.value}..{hi.value}: at most {MAX_RANGE} values",
                        "range")
        step = 1 if hi.value >= lo.value else -1  # 11..0 counts down, as Ludii's tracks need
        return [Int(v, at.pos, via) for v in range(lo.value, hi.value + step, step)]
    if isinstance(lo, Str) and isinstance(hi, Str):
        a, b = _LABEL.match(lo.value), _LABEL.match(hi.value)
        if a and b:
            c0, c1 = _col_number(a.group(1)), _col_number(b.group(1))
            r0, r1 = int(a.group(2)), int(b.group(2))
            if c0 <= c1 and r0 <= r1 and (c1 - c0 + 1) * (r1 - r0 + 1) <= MAX_RANGE:
                case = str.lower if a.group(1).islower() else str.upper
                return [Str(case(_col_letters(c)) + str(r), at.pos, via)
                        for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]
    raise _fail(at, f"bad range {to_lud(lo)}..{to_lud(hi)}: expected two integers (1..5) or two "
                "site labels (\"A1\"..\"C3\") in increasing order", "range")


# ---------------------------------------------------------------- driver

def choose_items(desc: Description, options: list[str] = (), ruleset: str | None = None
                 ) -> tuple[dict[str, OptionItem], Ruleset | None]:
    """Option defaults, overridden by the ruleset's selections, then by `options`."""
    chosen = {o.category: o.default for o in desc.options}
    rs = desc.find_ruleset(ruleset) if ruleset else None
    if rs is not None:
        for spec in rs.selections:
            opt, item = desc.resolve_option(spec, rs.pos)
            chosen[opt.category] = item
    for spec in options:
        opt, item = desc.resolve_option(spec, given="--option")
        if rs is not None and any(desc.resolve_option(x, rs.pos)[0] is opt and
                                  desc.resolve_option(x, rs.pos)[1] is not item
                                  for x in rs.selections):
            picked = chosen[opt.category].name
            raise LudemeError(f"--option {spec!r} conflicts with the ruleset {rs.name!r}, "
                              f"which selects '{opt.category}/{picked}'; give one or the other")
        chosen[opt.category] = item
    return chosen, rs


def expand(desc: Description, options: list[str] = (), ruleset: str | None = None
           ) -> Expanded:
    """Expand a parsed description for the given options and ruleset."""
    try:
        chosen, rs = choose_items(desc, options, ruleset)
        ex = _Expander(desc, chosen, {})
        nodes = ex.sub_tags(desc.body)
        local, nodes = collect_defines(nodes)
        ex.defines = {**stdlib_defines(), **local}
        nodes = ex.expand(nodes)
    except LudemeError as e:
        if e.source is None and e.pos is not None and e.pos.file == desc.path:
            e.source = desc.text
        raise
    game = metadata = None
    for n in nodes:
        if isinstance(n, Call) and n.name in ("game", "match"):
            if game is not None:
                raise _fail(n, f"a second ({n.name} ...): one description holds one game",
                            n.name)
            game = n
        elif isinstance(n, Call) and n.name == "metadata":
            metadata = n
        else:
            raise LudemeError("expected (game ...), (match ...), (metadata ...), (define ...), "
                              f"(option ...) or (rulesets ...) at the top level, found "
                              f"{to_lud(n)[:40]!r}", n.pos, path="", via=n.via,
                              source=desc.text if n.pos.file == desc.path else None)
    if game is None:
        raise LudemeError("no (game ...) in this description", Pos(desc.path, 1, 1))
    templates = [t for t in walk(game) if isinstance(t, Template)]
    selected = {o.category: chosen[o.category].name for o in desc.options}
    return Expanded(desc, game, metadata, selected, rs, templates)


def expand_file(path: str | os.PathLike, options: list[str] = (), ruleset: str | None = None
                ) -> Expanded:
    """Read, parse and expand a .lud file."""
    return expand(load_description(path), options, ruleset)


# ---------------------------------------------------------------- metadata

def _plain(node: Node):
    if isinstance(node, Str):
        return node.value.replace('\\"', '"')
    if isinstance(node, Atom):
        return node.value
    return to_lud(node)


def metadata_heuristics(metadata: Call | None) -> tuple[Call, ...] | None:
    """The terms of the metadata's `(ai ... (heuristics <term or {terms}>))`, as written (the
    evaluator reads or refuses each), or None when it names none: a game whose `(ai ...)`
    is only the name of one of Ludii's `def_ai` defines ("Hex_ai") names none here, as
    those defines are not part of the descriptions read."""
    if metadata is None:
        return None
    for part in metadata.args:
        if not (isinstance(part, Call) and part.name == "ai"):
            continue
        for arg in part.args:
            found = [arg] if isinstance(arg, Call) and arg.name == "heuristics" else \
                [c for c in (arg.args if isinstance(arg, Call) else ())
                 if isinstance(c, Call) and c.name == "heuristics"]
            for h in found:
                items = [x for a in h.args for x in (a.items if isinstance(a, Array) else [a])]
                return tuple(items)
    return None


def metadata_info(metadata: Call | None, ruleset: str | None = None) -> dict:
    """`(info {...})` as a dict; `useFor` entries go under "useFor" and override for `ruleset`."""
    info: dict = {}
    use_for: dict[str, dict] = {}
    if metadata is None:
        return info
    for part in metadata.args:
        if not (isinstance(part, Call) and part.name == "info"):
            continue
        entries = part.args[0].items if part.args and isinstance(part.args[0], Array) else part.args
        for e in entries:
            if not isinstance(e, Call):
                continue
            if e.name == "useFor" and len(e.args) >= 2:
                targets = e.args[0].items if isinstance(e.args[0], Array) else [e.args[0]]
                for t in targets:
                    for field_ in e.args[1:]:
                        if isinstance(field_, Call) and field_.args:
                            use_for.setdefault(_plain(t), {})[field_.name] = \
                                _plain(field_.args[0])
            elif e.args:
                value = _plain(e.args[0]) if len(e.args) == 1 else [_plain(a) for a in e.args]
                if e.name in info:
                    prev = info[e.name]
                    info[e.name] = (prev if isinstance(prev, list) else [prev]) + [value]
                else:
                    info[e.name] = value
    if use_for:
        info["useFor"] = use_for
    if ruleset and ruleset in use_for:
        info.update({k: v for k, v in use_for[ruleset].items()})
    return info
