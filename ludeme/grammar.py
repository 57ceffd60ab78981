"""Grammar of the .lud format: text to a tree of `syntax` nodes with positions.

BNF (whitespace and `// comments` separate tokens)::

    document  ::= expr*
    expr      ::= call "*"* | array | named | range | atom | tag | block
    call      ::= "(" head expr* ")" | "(" (call | named) ")"   the latter: redundant parentheses
    head      ::= WORD | STRING | OPERATOR | PARAM | TAG
    array     ::= "{" expr* "}"
    named     ::= NAME ":" expr                       e.g. if:(is Empty (to))
    range     ::= (INT ".." INT) | (STRING ".." STRING)  e.g. 1..5, "A1".."C3"
    block     ::= "<" expr* ">"                        only inside (item ...)
    atom      ::= STRING | INT | FLOAT | "True" | "False" | WORD | PARAM | "~" | template
    tag       ::= "<" NAME [":" NAME] ">"              option reference
    template  ::= "[" alt ("|" alt)* "]"               reconstruction unknown: [#] [?] [a | b] [2..16]
    alt       ::= ("#" | "?" | "*" | expr)*
    PARAM     ::= "#" DIGITS                           define parameter
    "~"                                                an argument left out of a define call
    STRING    ::= '"' (any but '"' or '\', or '\' any)* '"'  (may span lines)
    OPERATOR  ::= "<=" | ">=" | "!=" | "=" | "<" | ">" | "+" | "-" | "*" | "/" | "%" | "^"

Why a hand-written scanner rather than pyparsing: the Ludii corpus is 24 MB,
and a pyparsing grammar of this BNF (packrat on) measured about 50 KB/s here,
minutes for the corpus; one compiled regular expression and a recursive
descent over its tokens do the same work at several MB/s. The pyparsing
version of this grammar lives on in `ludeme.refgrammar` as an executable
specification that the tests compare this parser against.
"""

from __future__ import annotations

import bisect
import re

from .errors import LudemeError, Pos
from .syntax import (Array, Block, Bool, Call, Float, Int, Named, Node, Omit, Param, Range,
                     Str, Tag, Template, Word)

_TOKEN = re.compile(r"""
   (?P<ws>\s+)
 | (?P<comment>//[^\n]*)
 | (?P<string>"(?:\\"|[^"])*")
 | (?P<badstring>"(?:\\"|[^"])*\Z)
 | (?P<lbracket>\[)
 | (?P<rbracket>\])
 | (?P<bar>\|)
 | (?P<omit>~)
 | (?P<tag><\s*[A-Za-z0-9_]+(?::[A-Za-z0-9_]+)?\s*>(?:>(?=\s*\}))?)
 | (?P<float>[-+]?(?:\d+\.\d+|\.\d+)(?![.\d]))
 | (?P<int>[-+]?\d+)
 | (?P<range>\.\.)
 | (?P<named>[A-Za-z_][A-Za-z0-9_]*:(?=[^:]|\Z))
 | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
 | (?P<param>\#\d+)
 | (?P<hash>\#|\?)
 | (?P<lpar>\()
 | (?P<rpar>\))
 | (?P<lbrace>\{)
 | (?P<rbrace>\})
 | (?P<op><=|>=|!=|=|<|>|\+|-|\*|/|%|\^)
 | (?P<bad>.)
""", re.VERBOSE | re.DOTALL)

_OPERATORS = {"<=", ">=", "!=", "=", "<", ">", "+", "-", "*", "/", "%", "^"}

_CLOSERS = {"lpar": ")", "lbrace": "}", "block": ">"}


def _tag_text(text: str) -> str:
    """`<Board:size>` (spaces and a doubled '>' tolerated, as Ludii does) to `Board:size`."""
    return text.strip("<>").strip()


class _Tok:
    __slots__ = ("kind", "text", "offset")

    def __init__(self, kind, text, offset):
        self.kind = kind
        self.text = text
        self.offset = offset


def tokenize(text: str, file: str = "<string>") -> list[_Tok]:
    """Split .lud text into tokens (comments and whitespace dropped)."""
    toks: list[_Tok] = []
    append = toks.append
    lines = _LineIndex(text, file)
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "ws" or kind == "comment":
            continue
        if kind == "badstring":
            raise LudemeError("unterminated string: no closing '\"' before the end of the file",
                              lines.pos(m.start()), source=text)
        if kind == "bad":
            raise LudemeError(f"unexpected character {m.group()!r}", lines.pos(m.start()),
                              source=text)
        append(_Tok(kind, m.group(), m.start()))
    return toks


class _LineIndex:
    """Offset to (line, column), by bisecting the offsets of line starts."""

    def __init__(self, text: str, file: str):
        self.file = file
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos(self, offset: int) -> Pos:
        i = bisect.bisect_right(self.starts, offset) - 1
        return Pos(self.file, i + 1, offset - self.starts[i] + 1)


def parse(text: str, file: str = "<string>") -> list[Node]:
    """Parse a whole .lud or .def text into its top-level nodes."""
    return _Parser(text, file).document()


class _Parser:
    def __init__(self, text: str, file: str):
        self.text = text
        self.lines = _LineIndex(text, file)
        self.toks = tokenize(text, file)
        self.i = 0

    # -- helpers -------------------------------------------------------
    def error(self, message: str, offset: int) -> LudemeError:
        return LudemeError(message, self.lines.pos(offset), source=self.text)

    def pos(self, tok: _Tok) -> Pos:
        return self.lines.pos(tok.offset)

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    # -- grammar -------------------------------------------------------
    def document(self) -> list[Node]:
        nodes = []
        while self.i < len(self.toks):
            nodes.append(self.expr(None, in_item=False))
        return nodes

    def sequence(self, opener: _Tok, closer_kind: str, in_item: bool) -> list[Node]:
        """Expressions up to the token of kind `closer_kind`, which is consumed."""
        items = []
        toks = self.toks
        while True:
            if self.i >= len(toks):
                what = _CLOSERS["block" if opener.kind == "op" else opener.kind]
                raise self.error(f"'{opener.text}' is never closed: expected '{what}' "
                                 "before the end of the file", opener.offset)
            tok = toks[self.i]
            if tok.kind == closer_kind or (closer_kind == "gt" and tok.text == ">"):
                self.i += 1
                return items
            if in_item and closer_kind == "rpar" and tok.text == ">":
                self.i += 1  # a stray '>' between item values: Ludii ignores it
                continue
            items.append(self.expr(opener, in_item))

    def expr(self, opener: _Tok | None, in_item: bool) -> Node:
        tok = self.toks[self.i]
        self.i += 1
        kind = tok.kind
        if kind == "lpar":
            return self.call(tok)
        if kind == "lbrace":
            return Array(self.sequence(tok, "rbrace", in_item), self.pos(tok))
        if kind == "named":
            nxt = self.peek()
            if nxt is None or nxt.kind in ("rpar", "rbrace") or (nxt.text == ">" and in_item):
                raise self.error(f"expected a value after '{tok.text}'", tok.offset)
            return Named(tok.text[:-1], self.expr(opener, in_item), self.pos(tok))
        if kind == "tag":
            if in_item and opener is not None and opener.text == "(":
                # <X> directly inside (item ...) is a one-word value, not a reference;
                # <name:value> there is a named argument, as in <exact:True>.
                name, _, value = _tag_text(tok.text).partition(":")
                node = self.word(name, tok)
                if value:
                    node = Named(name, self.word(value, tok), self.pos(tok))
                return Block([node], self.pos(tok))
            name, _, arg = _tag_text(tok.text).partition(":")
            return Tag(name, arg or None, self.pos(tok))
        if kind == "op" and tok.text == "<" and in_item:
            return Block(self.sequence(tok, "gt", in_item), self.pos(tok))
        if kind in ("rpar", "rbrace"):
            raise self.error(f"unexpected '{tok.text}' with no matching opening bracket",
                             tok.offset)
        if kind == "op":
            raise self.error(f"unexpected '{tok.text}': operators only stand first in "
                             "a ludeme, as in (< a b)", tok.offset)
        if kind == "range":
            raise self.error("a range '..' needs a value on both sides, as in 1..5",
                             tok.offset)
        if kind == "lbracket":
            return self.template(tok)
        if kind in ("rbracket", "bar", "hash"):
            raise self.error(f"unexpected {tok.text!r} outside a template marker [ ... ]",
                             tok.offset)
        node = self.atom(tok)
        nxt = self.peek()
        if nxt is not None and nxt.kind == "range":
            self.i += 1
            hi_tok = self.peek()
            if hi_tok is None or hi_tok.kind not in ("int", "string"):
                raise self.error("a range '..' needs a value on both sides, as in 1..5",
                                 nxt.offset)
            self.i += 1
            return Range(node, self.atom(hi_tok), self.pos(tok))
        return node

    def word(self, text: str, tok: _Tok) -> Node:
        pos = self.pos(tok)
        if text in ("True", "False"):
            return Bool(text == "True", pos)
        if text.lstrip("-").isdigit():
            return Int(int(text), pos)
        return Word(text, pos)

    def atom(self, tok: _Tok) -> Node:
        kind = tok.kind
        pos = self.pos(tok)
        if kind == "string":
            return Str(tok.text[1:-1], pos)
        if kind == "int":
            return Int(int(tok.text), pos)
        if kind == "float":
            return Float(float(tok.text), pos)
        if kind == "word":
            return self.word(tok.text, tok)
        if kind == "param":
            return Param(int(tok.text[1:]), pos)
        if kind == "omit":
            return Omit("~", pos)
        raise self.error(f"unexpected {tok.text!r}", tok.offset)  # pragma: no cover

    def call(self, opener: _Tok) -> Call:
        head_tok = self.peek()
        if head_tok is None:
            raise self.error("'(' is never closed: expected ')' before the end of the file",
                             opener.offset)
        if head_tok.kind == "rpar":
            raise self.error("empty '()': expected a ludeme name after '('", opener.offset)
        kind = head_tok.kind
        if kind in ("lpar", "named"):
            # ((then ...)) or (coord:"A1"): redundant parentheses, Ludii reads the inside;
            # (("Define") x): a head computed by a define, resolved after expansion.
            inner = self.expr(opener, False)
            args = self.sequence(opener, "rpar", False)
            return Call(inner, args, self.pos(opener)) if args else inner
        self.i += 1
        if kind in ("word", "string", "param"):
            head = self.atom(head_tok)
        elif kind == "op":
            head = Word(head_tok.text, self.pos(head_tok))
        elif kind == "tag":
            name, _, arg = _tag_text(head_tok.text).partition(":")
            head = Tag(name, arg or None, self.pos(head_tok))
        else:
            raise self.error(f"expected a ludeme name after '(', found {head_tok.text!r}",
                             head_tok.offset)
        in_item = kind == "word" and head_tok.text == "item"
        args = self.sequence(opener, "rpar", in_item)
        starred = 0
        while self.i < len(self.toks) and self.toks[self.i].text == "*":
            self.i += 1
            starred += 1
        return Call(head, args, self.pos(opener), starred=starred)

    def template(self, opener: _Tok) -> Template:
        """`[ alt | alt ... ]` where `#`, `?` and `*` stand for unknown parts."""
        alternatives: list[list[Node]] = [[]]
        toks = self.toks
        while True:
            if self.i >= len(toks):
                raise self.error("'[' is never closed: expected ']' before the end of the file",
                                 opener.offset)
            tok = toks[self.i]
            if tok.kind == "rbracket":
                self.i += 1
                text = self.text[opener.offset + 1:tok.offset].strip()
                return Template(text, alternatives, self.pos(opener))
            if tok.kind == "bar":
                self.i += 1
                alternatives.append([])
            elif tok.kind == "hash" or tok.text == "*":
                self.i += 1
                alternatives[-1].append(Word(tok.text, self.pos(tok)))
            else:
                alternatives[-1].append(self.expr(opener, False))
