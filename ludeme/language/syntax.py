"""The S-expression tree of a .lud text: every node knows where it was written.

`via` lists the places that brought a node into the expanded tree (a define
call, an option tag), innermost first, so an error inside a define body can
name both where the body was written and where it was used.
"""

from __future__ import annotations

from ludeme.errors import Pos


class Node:
    """Base of all tree nodes."""

    __slots__ = ("pos", "via")

    def __init__(self, pos: Pos, via: tuple[Pos, ...] = ()):
        self.pos = pos
        self.via = via

    def copy(self, via: tuple[Pos, ...]) -> "Node":
        """A deep copy whose `via` gains the given use sites."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({to_lud(self)!r})"

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and _key(self) == _key(other)

    def __hash__(self) -> int:
        return hash((type(self).__name__, _key(self)))


class Atom(Node):
    """A leaf holding one value."""

    __slots__ = ("value",)

    def __init__(self, value, pos: Pos, via: tuple[Pos, ...] = ()):
        super().__init__(pos, via)
        self.value = value

    def copy(self, via):
        return type(self)(self.value, self.pos, via + self.via)


class Str(Atom):
    """A string literal: the text between its quotes, escapes (`\\"`) kept as written."""

    __slots__ = ()


class Int(Atom):
    """An integer literal; `signed` when written with its sign (`-1`, `+3`)."""

    __slots__ = ("signed",)

    def __init__(self, value, pos: Pos, via: tuple[Pos, ...] = (), signed: bool = False):
        super().__init__(value, pos, via)
        self.signed = signed

    def copy(self, via):
        return Int(self.value, self.pos, via + self.via, self.signed)


class Float(Atom):
    """A floating-point literal."""

    __slots__ = ()


class Bool(Atom):
    """`True` or `False`."""

    __slots__ = ()


class Word(Atom):
    """A bare word: an enum constant such as `Orthogonal`, `Mover`, `P1`, or a ludeme keyword."""

    __slots__ = ()


class Param(Atom):
    """`#n`, a define parameter (value is n)."""

    __slots__ = ()


class Omit(Atom):
    """`~`: an argument deliberately left out of a define call (its `#n` drops out)."""

    __slots__ = ()


class Template(Node):
    """`[#]`, `[?]`, `[a | b]`, `[2..16]`: an unknown part of a reconstruction template.

    `alternatives` holds the runs of nodes between `|` (the marks `#`, `?` and
    `*` appear as words); `text` is the source between the brackets; `end` is the
    place just after the closing `]` (so a reconstruction can replace the whole mark).
    """

    __slots__ = ("text", "alternatives", "end")

    def __init__(self, text: str, alternatives: list[list[Node]], pos: Pos, via=(),
                 end: Pos | None = None):
        super().__init__(pos, via)
        self.text = text
        self.alternatives = alternatives
        self.end = end

    def copy(self, via):
        return Template(self.text, [[n.copy(via) for n in alt] for alt in self.alternatives],
                        self.pos, via + self.via, self.end)


class Tag(Node):
    """`<Tag>` or `<Tag:arg>`: a reference to the value of an option."""

    __slots__ = ("name", "arg")

    def __init__(self, name: str, arg: str | None, pos: Pos, via=()):
        super().__init__(pos, via)
        self.name = name
        self.arg = arg

    def copy(self, via):
        return Tag(self.name, self.arg, self.pos, via + self.via)


class Named(Node):
    """`name:value`, a named argument."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: Node, pos: Pos, via=()):
        super().__init__(pos, via)
        self.name = name
        self.value = value

    def copy(self, via):
        return Named(self.name, self.value.copy(via), self.pos, via + self.via)


class Range(Node):
    """`lo..hi`: integers or site labels, expanded to a sequence."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: Node, hi: Node, pos: Pos, via=()):
        super().__init__(pos, via)
        self.lo = lo
        self.hi = hi

    def copy(self, via):
        return Range(self.lo.copy(via), self.hi.copy(via), self.pos, via + self.via)


class Seq(Node):
    """Base of nodes with children."""

    __slots__ = ("items",)

    def __init__(self, items: list[Node], pos: Pos, via=()):
        super().__init__(pos, via)
        self.items = items


class Array(Seq):
    """`{ a b c }`."""

    __slots__ = ()

    def copy(self, via):
        return Array([n.copy(via) for n in self.items], self.pos, via + self.via)


class Block(Seq):
    """`< a b c >`: one value of an option item (a run of nodes)."""

    __slots__ = ()

    def copy(self, via):
        return Block([n.copy(via) for n in self.items], self.pos, via + self.via)


class Call(Node):
    """`(head args...)`: a ludeme, or a define call when the head is a string.

    `starred` counts the `*` written right after the closing parenthesis
    (the default item of an option, or the default ruleset).
    """

    __slots__ = ("head", "args", "starred")

    def __init__(self, head: Node, args: list[Node], pos: Pos, via=(), starred: int = 0):
        super().__init__(pos, via)
        self.head = head
        self.args = args
        self.starred = starred

    @property
    def name(self) -> str:
        """The head as text (the ludeme keyword, operator or define name)."""
        h = self.head
        return h.value if isinstance(h, Atom) and isinstance(h.value, str) else to_lud(h)

    def copy(self, via):
        return Call(self.head.copy(via), [a.copy(via) for a in self.args],
                    self.pos, via + self.via, self.starred)

    def named(self, key: str):
        """The value of argument `key:`, or None."""
        for a in self.args:
            if isinstance(a, Named) and a.name == key:
                return a.value
        return None

    def positional(self) -> list[Node]:
        """The arguments that are not `name:value`."""
        return [a for a in self.args if not isinstance(a, Named)]


def _key(node: Node):
    if isinstance(node, Atom):
        return (node.value,)
    if isinstance(node, Tag):
        return (node.name, node.arg)
    if isinstance(node, Template):
        return (node.text,)
    if isinstance(node, Named):
        return (node.name, _key(node.value), type(node.value).__name__)
    if isinstance(node, Range):
        return (_key(node.lo), _key(node.hi))
    if isinstance(node, Seq):
        return tuple((type(n).__name__, _key(n)) for n in node.items)
    if isinstance(node, Call):
        return (_key(node.head), node.starred) + tuple((type(n).__name__, _key(n)) for n in node.args)
    return ()


def to_lud(node: Node | list[Node], indent: int | None = None) -> str:
    """Render a node (or a run of nodes) back to .lud text; pretty-printed when `indent` is given."""
    out: list[str] = []
    _render(node, out, indent, 0)
    return "".join(out)


_ESCAPE_FREE = str.maketrans({})


def _atom_text(node: Node) -> str:
    if isinstance(node, Str):
        return f'"{node.value}"'
    if isinstance(node, Bool):
        return "True" if node.value else "False"
    if isinstance(node, Param):
        return f"#{node.value}"
    if isinstance(node, Template):
        return f"[{node.text}]"
    if isinstance(node, Float):
        return repr(node.value)
    if isinstance(node, Atom):
        return str(node.value)
    if isinstance(node, Tag):
        return f"<{node.name}:{node.arg}>" if node.arg else f"<{node.name}>"
    raise TypeError(type(node))


def _is_leaf(node: Node) -> bool:
    return isinstance(node, (Atom, Tag, Template)) or (isinstance(node, Named) and _is_leaf(node.value))


def _render(node, out: list[str], indent, depth) -> None:
    if isinstance(node, list):
        for i, n in enumerate(node):
            if i:
                out.append(" ")
            _render(n, out, indent, depth)
        return
    if isinstance(node, (Atom, Tag, Template)):
        out.append(_atom_text(node))
    elif isinstance(node, Named):
        out.append(f"{node.name}:")
        _render(node.value, out, indent, depth)
    elif isinstance(node, Range):
        _render(node.lo, out, indent, depth)
        out.append("..")
        _render(node.hi, out, indent, depth)
    elif isinstance(node, (Call, Array, Block)):
        if isinstance(node, Call):
            opener, closer, kids = "(", ")", [node.head] + node.args
        elif isinstance(node, Array):
            opener, closer, kids = "{", "}", node.items
        else:
            opener, closer, kids = "<", ">", node.items
        simple = all(_is_leaf(k) for k in kids)
        out.append(opener)
        if indent is None or simple:
            _render(kids, out, indent, depth)
        else:
            pad = "\n" + " " * (indent * (depth + 1))
            for i, k in enumerate(kids):
                if i == 0 and isinstance(node, Call):
                    _render(k, out, indent, depth + 1)
                    continue
                if i == 0 and not isinstance(node, Call):
                    out.append(" ")
                elif _is_leaf(k) and i < 3 and isinstance(node, Call):
                    out.append(" ")
                else:
                    out.append(pad)
                _render(k, out, indent, depth + 1)
            if not isinstance(node, Call):
                out.append("\n" + " " * (indent * depth))
        out.append(closer)
        if isinstance(node, Call) and node.starred:
            out.append("*" * node.starred)
    else:
        raise TypeError(type(node))


def walk(node: Node):
    """Every node below and including `node`, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, Call):
            stack.extend(reversed(n.args))
            stack.append(n.head)
        elif isinstance(n, Seq):
            stack.extend(reversed(n.items))
        elif isinstance(n, Named):
            stack.append(n.value)
        elif isinstance(n, Range):
            stack.extend((n.hi, n.lo))
        elif isinstance(n, Template):
            for alt in reversed(n.alternatives):
                stack.extend(reversed(alt))
