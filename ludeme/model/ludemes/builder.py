"""The builder: expanded syntax to typed ludemes, every argument checked (Ludii's compiler
front: the constructor is the grammar). A ludeme class declares its arguments (`P`,
in `base`); the builder matches the arguments written to them, tries a keyword's
classes in the registry's order and refuses, at the argument's position, whatever
fits none of them. Literals (numbers, strings, words) become ludemes in `literals`.
"""

from __future__ import annotations

from ludeme.errors import LudemeError, suggest
from ludeme.language.grammar import DEFAULT_MAX_NESTING, max_nesting
from ludeme.language.syntax import Array, Call, Named, Node, Word, to_lud
from . import literals
from .base import (CLASSES, NOT_YET, REGISTRY, _NO, ArrayOf, Bool, Dim, DirWord, EndRule, Enum,
                   GraphFn, IntFn, Item, Lit, Ludeme, Moves, Other, P, Region, RoleType, SiteType,
                   called, loaded)


def _describe(t) -> str:
    if isinstance(t, str):
        t = CLASSES.get(t, t)
        if isinstance(t, str):
            return t
        return f"({called(t)} ...)"
    if isinstance(t, Enum):
        return f"one of {t.name} ({', '.join(sorted(t.words)[:8])}...)"
    if isinstance(t, tuple):
        return " or ".join(_describe(x) for x in t)
    if isinstance(t, ArrayOf):
        return f"an array {{...}} of {_describe(t.item)}"
    if isinstance(t, type) and issubclass(t, Lit):
        return t.what
    if isinstance(t, type) and issubclass(t, Ludeme) and t.keyword:
        return f"({called(t)} ...)"
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
        if not loaded():
            raise RuntimeError("ludeme.model.ludemes.load_all() must run before building ludemes")
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
                    f"the argument '{pname}' of ({called(lud)}"
                    f" ...) is not supported yet (ludeme compiles it without using it)",
                    node.pos, path=lud.path, via=node.via)

    def build(self, node: Node, expected, path: str):
        """A value of type `expected` from `node`, or a LudemeError."""
        got = self.try_build(node, expected, path)
        if got is _NO:
            raise LudemeError(f"expected {_describe(expected)}, found {to_lud(node)[:50]!r} "
                              "(not supported yet)", node.pos, path=path, via=node.via)
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
        not_yet = NOT_YET.get(f"{head} {kind_word}")
        if not with_kind and not_yet is not None:
            if not issubclass(not_yet, category):
                return _NO
            raise LudemeError(f"({head} {kind_word} ...) is not supported yet", node.pos,
                              path=sub, via=node.via)
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
                        f"({called(cls)}) has no argument "
                        f"'{a.name}:' here (not supported yet){suggest(a.name, named_params)}; "
                        f"named arguments: "
                        f"{', '.join(n + ':' for n in named_params) or 'none'}",
                        a.pos, path=path, via=a.via)
                fields[p.attr] = self.value(p, a.value, path)
                _note_given(given, p, fields[p.attr], a)
                continue
            while True:
                if i >= len(positional):
                    raise refused or LudemeError(
                        f"unexpected argument {to_lud(a)[:40]!r} for ({called(cls)} ...) "
                        "(not supported yet); it takes "
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
                        f"argument {p.name!r} of ({called(cls)}"
                        f" ...) must be {_describe(p.type)}{' (an array {...})' if p.many else ''},"
                        f" found {to_lud(a)[:40]!r} (not supported yet)", a.pos, path=path,
                        via=a.via)
        for p in positional[i:]:
            if not p.opt:
                raise LudemeError(f"({called(cls)} ...) "
                                  f"needs its argument {p.name!r} ({_describe(p.type)})",
                                  node.pos, path=path, via=node.via)
        return fields

    def value(self, p: P, node: Node, path: str):
        got = self.try_value(p, node, path)
        if got is _NO:
            raise LudemeError(f"'{p.name}:' must be {_describe(p.type)}, found "
                              f"{to_lud(node)[:40]!r} (not supported yet)", node.pos, path=path,
                              via=node.via)
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




def _signature(cls) -> str:
    parts = []
    for p in cls.params:
        t = _describe(p.type)
        s = f"{p.name}:{t}" if p.named else t
        parts.append(f"[{s}]" if p.opt else s)
    return " ".join(parts) or "no arguments"


# The grammar at a place ----------------------------------------------------

def _flat(t) -> list:
    """The types a declared parameter type stands for, tuples and class names resolved."""
    if isinstance(t, tuple):
        return [x for part in t for x in _flat(part)]
    if isinstance(t, str):
        return [CLASSES.get(t, t)]
    return [t]


def _fits(cls, types) -> bool:
    return any(isinstance(t, type) and issubclass(cls, t) for t in types)


def _classes_for(call: Call, types) -> list:
    """The classes of a call's keyword the builder may read it as: those of its kind word
    (`(move Step ...)`), and of the types its place takes when they are known."""
    classes = REGISTRY.get(call.name) or []
    word = call.args[0].value if call.args and isinstance(call.args[0], Word) else None
    classes = [c for c in classes if c.kind == word] or [c for c in classes if c.kind is None]
    if types is not None:
        classes = [c for c in classes if _fits(c, types)] or classes
    return classes


def slot_types(chain: list[Node], child: Node) -> list | None:
    """The types the builder may take `child` as, standing where it does under `chain` (its
    ancestors, outermost first: calls, named arguments and arrays): the declared types of
    the parameters it can bind to, over the classes its ludeme can be read as there
    (themselves narrowed by the place of that ludeme, up the chain). None when unknown (at
    the root, or under a keyword the builder does not know). An `(if ...)` under `(and
    ...)` under an effect's `(apply ...)` is moves, so its arguments after the condition
    are moves; the same `(if ...)` in a step's directions takes directions."""
    if not chain:
        return None
    parent = chain[-1]
    if isinstance(parent, Named):
        call = chain[-2] if len(chain) > 1 and isinstance(chain[-2], Call) else None
        if call is None:
            return None
        classes = _classes_for(call, slot_types(chain[:-2], call))
        out = [x for c in classes for p in c.params if p.named and p.name == parent.name
               for x in _flat(p.type)]
        return out or None
    if isinstance(parent, Array):
        above = slot_types(chain[:-1], parent)
        if above is None:
            return None
        return [x for t in above for x in (_flat(t.item) if isinstance(t, ArrayOf) else [t])]
    if not isinstance(parent, Call):
        return None
    classes = _classes_for(parent, slot_types(chain[:-1], parent))
    if not classes:
        return None
    out = []
    for cls in classes:
        args = [a for a in (parent.args[1:] if cls.kind is not None else parent.args)
                if not isinstance(a, Named)]
        if not any(a is child for a in args):
            continue
        j = next(i for i, a in enumerate(args) if a is child)
        positional = [p for p in cls.params if not p.named]
        for m, p in enumerate(positional):
            # the j arguments before it bind to params before m, every required one among
            # them; the arguments after it to params after m
            needed = sum(not q.opt for q in positional[:m])
            if needed <= j <= m and len(args) - j - 1 <= len(positional) - m - 1:
                out += [x for x in _flat(p.type) if x not in out]
    return out or None
