"""Grammar of the .lud format: text to a tree of `syntax` nodes with positions.

BNF (whitespace and `// comments` separate tokens)::

    document  ::= expr*
    expr      ::= call "*"* | array | named | range | atom | tag | block | template
    call      ::= "(" head expr* ")" | "(" NAME expr* ")" | "(" call expr* ")"
                    the second read as Ludii does, the name without its colon as the
                    head: (from: (value)) is (from (value)); the last: redundant
                    parentheses, or a head computed by a define
    head      ::= WORD | STRING | OPERATOR | PARAM | TAG
    array     ::= "{" expr* "}"
    named     ::= NAME expr                            e.g. if:(is Empty (to))
    range     ::= (INT | STRING) ".." (INT | STRING)   e.g. 1..5, "A1".."C3"
    block     ::= "<" expr* ">"                        only inside (item ...)
    atom      ::= STRING | INT | FLOAT | WORD | PARAM | "~"   (True/False are words)
    tag       ::= TAG                                  option reference
    template  ::= "[" alt ("|" alt)* "]"               reconstruction unknown: [#] [?] [a | b] [2..16]
    alt       ::= ("#" | "?" | "*" | expr)*

    NAME      ::= WORD ":"                             (not followed by another ':')
    TAG       ::= "<" WORD [":" WORD] ">"              spaces inside tolerated, as Ludii does
    PARAM     ::= "#" DIGITS                           define parameter
    WORD      ::= letters, digits, "_", and "#" DIGITS glued (`P#1`: the word P1 once substituted)
    "~"                                                an argument left out of a define call
    STRING    ::= '"' (any but '"', or '\\"')* '"'     (may span lines)
    OPERATOR  ::= "<=" | ">=" | "!=" | "=" | "<" | ">" | "+" | "-" | "*" | "/" | "%" | "^"

Inside `(item ...)` a `<X>` is a one-word block and `<name:value>` a named
argument, not an option reference; a stray `>` between item values is
skipped, as Ludii does.

How pyparsing does the work. The tokens (the upper-case rules above) are
pyparsing elements, each named with `set_name`, in `TOKENS`. Like pyparsing's
own `one_of`, they are compiled into a single `Regex` element, `LEXEME`
(leading whitespace and comments, then the first token that matches; a
catch-all `BAD` and a trailing `END` make it cover every character, which is
what `parse_all=True` guarantees for a whole-text parse). `LEXEME.scan_string`
scans the text. The lower-case rules are a recursive descent over those
tokens, one method per rule, bounded in depth (`max_nesting()`). Packrat
parsing is not switched on: the scanner never backtracks between elements.

Why not a pyparsing grammar for the lower-case rules too: the Ludii corpus is
21 MB; a pyparsing `MatchFirst` of the token elements alone scanned it at
0.25-0.4 MB/s here (a minute for the tokens only, with the whole grammar
slower still), against three times today's front-end time. One `Regex`
element with `as_match=True` scans at 1.5-4.7 MB/s.

Errors name the file, line and column and show a caret. For an unclosed
bracket the parser points at the opening that most likely lacks its closer,
read from the indentation as Python's parser does (`_likely_unclosed`).
"""

from __future__ import annotations

import bisect
import os
import re
import sys

import pyparsing as pp

from ludeme.errors import LudemeError, Pos
from .syntax import Array, Block, Bool, Call, Float, Int, Named, Node, Omit, Param, Range, Str, Tag, Template, Word

# ---------------------------------------------------------------- limits

DEFAULT_MAX_NESTING = 100   # Ludii's corpus nests 30 deep as written, 48 once expanded


def max_nesting() -> int:
    """How deep brackets may nest (`$LUDEME_MAX_NESTING`, default 100); also the later stages' bound."""
    return _env_limit("LUDEME_MAX_NESTING", DEFAULT_MAX_NESTING)


def _env_limit(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise LudemeError(f"${name} must be a positive integer, not {raw!r}")
    return value


def ensure_stack(nesting: int, frames_per_level: int = 8) -> None:
    """Raise Python's recursion limit so `nesting` levels of recursive stages fit.

    Python-to-Python calls do not use the C stack (3.11+), so a higher limit is safe;
    the stages themselves are bounded by `max_nesting()`.
    """
    need = nesting * frames_per_level + 500
    if sys.getrecursionlimit() < need:
        sys.setrecursionlimit(need)


# ---------------------------------------------------------------- tokens

def _token(name: str, pattern: str) -> pp.Regex:
    return pp.Regex(pattern).set_name(name)


SKIP = _token("whitespace or comment", r"(?:\s|//[^\n]*)*+")
# Runs of plain characters are taken whole (`[^"\\]+`): one step per run, not per
# character, so a string of megabytes costs no deeper a match than a short one.
STRING = _token("STRING", r'"(?:[^"\\]+|\\"|\\)*"')
BADSTRING = _token("unterminated string", r'"(?:[^"\\]+|\\"|\\)*\Z')
TAG = _token("TAG", r"<\s*[A-Za-z0-9_]+(?::[A-Za-z0-9_]+)?\s*>(?:>(?=\s*\}))?")
FLOAT = _token("FLOAT", r"[-+]?(?:\d+\.\d+|\.\d+)(?![.\d])")
INT = _token("INT", r"[-+]?\d+")
RANGE = _token('".."', r"\.\.")
NAME = _token("NAME", r"[A-Za-z_][A-Za-z0-9_]*:(?=[^:]|\Z)")
# A word may carry define parameters glued to it (`P#1`): Ludii substitutes a define's
# parameters in its text, so `P#1` with the argument 1 is the word `P1`.
WORD = _token("WORD", r"[A-Za-z_][A-Za-z0-9_]*(?:\#\d+[A-Za-z0-9_]*)*")
PARAM = _token("PARAM", r"\#\d+")
MARK = _token('"#" or "?"', r"\#|\?")
OPERATOR = _token("OPERATOR", r"<=|>=|!=|=|<|>|\+|-|\*|/|%|\^")

# Kind -> element, in the order the scanner tries them (a tag before '<', a float before
# an int, a name before a word, a parameter before '#').
TOKENS: dict[str, pp.Regex] = {
    "string": STRING,
    "badstring": BADSTRING,
    "lbracket": _token('"["', r"\["),
    "rbracket": _token('"]"', r"\]"),
    "bar": _token('"|"', r"\|"),
    "omit": _token('"~"', r"~"),
    "tag": TAG,
    "float": FLOAT,
    "int": INT,
    "range": RANGE,
    "named": NAME,
    "word": WORD,
    "param": PARAM,
    "hash": MARK,
    "lpar": _token('"("', r"\("),
    "rpar": _token('")"', r"\)"),
    "lbrace": _token('"{"', r"\{"),
    "rbrace": _token('"}"', r"\}"),
    "op": OPERATOR,
    "bad": _token("any other character", r"."),
    "end": _token("end of text", r"\Z"),
}


def _lexeme(skip: pp.Regex, tokens: dict[str, pp.Regex]) -> pp.Regex:
    """One element: `skip`, then the first of `tokens` that matches, as a named group."""
    alternatives = "|".join(f"(?P<{kind}>{el.pattern})" for kind, el in tokens.items())
    return (pp.Regex(f"{skip.pattern}(?:{alternatives})", flags=re.DOTALL, as_match=True)
            .leave_whitespace().parse_with_tabs().set_name("token"))


LEXEME = _lexeme(SKIP, TOKENS)

_CLOSER_OF = {"lpar": "rpar", "lbrace": "rbrace", "lbracket": "rbracket"}
_CLOSER_TEXT = {"lpar": ")", "lbrace": "}", "lbracket": "]", "block": ">"}


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
    for result, _, _ in LEXEME.scan_string(text):
        m = result[0]
        kind = m.lastgroup
        if kind == "end":
            break
        offset = m.start(kind)
        if kind == "badstring":
            raise LudemeError("unterminated string: no closing '\"' before the end of the file",
                              _LineIndex(text, file).pos(offset), source=text)
        if kind == "bad":
            raise LudemeError(f"unexpected character {m.group(kind)!r}",
                              _LineIndex(text, file).pos(offset), source=text)
        append(_Tok(kind, m.group(kind), offset))
    return toks


def _tag_text(text: str) -> str:
    """`<Board:size>` (spaces and a doubled '>' tolerated, as Ludii does) to `Board:size`."""
    return text.strip("<>").strip()


class _LineIndex:
    """Offset to (line, column), by bisecting the offsets of line starts."""

    def __init__(self, text: str, file: str):
        self.file = file
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        """0-based line of `offset`."""
        return bisect.bisect_right(self.starts, offset) - 1

    def pos(self, offset: int) -> Pos:
        i = bisect.bisect_right(self.starts, offset) - 1
        return Pos(self.file, i + 1, offset - self.starts[i] + 1)


# ---------------------------------------------------------------- tree

def parse(text: str, file: str = "<string>") -> list[Node]:
    """Parse a whole .lud or .def text into its top-level nodes."""
    key = (text, file, max_nesting())
    nodes = _PARSED.pop(key, None)
    if nodes is None:
        nodes = tuple(_Parser(text, file).document())
    if len(text) <= PARSED_KEPT_CHARS:      # kept as the latest, the oldest given up for it
        while len(_PARSED) >= PARSED_KEPT:
            _PARSED.pop(next(iter(_PARSED)))
        _PARSED[key] = nodes
    return list(nodes)


# The trees of the texts parsed last in this process (text, file name and nesting limit):
# a comparison's variants, a sweep's options and a suite's tests parse one file again and
# again. A node is never written once parsed (expansion copies what it changes), so the
# trees are shared; each caller gets its own list. A text longer than PARSED_KEPT_CHARS
# is not kept.
_PARSED: dict[tuple, tuple[Node, ...]] = {}
PARSED_KEPT = 32
PARSED_KEPT_CHARS = 1 << 20


class _Parser:
    """Recursive descent over the tokens, one method per lower-case rule of the BNF."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.lines = _LineIndex(text, file)
        self.toks = tokenize(text, file)
        self.i = 0
        self.depth = 0
        self.max_depth = max_nesting()
        ensure_stack(self.max_depth, 4)

    # -- helpers -------------------------------------------------------
    def error(self, message: str, offset: int) -> LudemeError:
        return LudemeError(message, self.lines.pos(offset), source=self.text)

    def pos(self, tok: _Tok) -> Pos:
        return self.lines.pos(tok.offset)

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def unclosed(self, opener: _Tok, stop: _Tok | None) -> LudemeError:
        """The error for a bracket left open: at the opening indentation blames, else `opener`."""
        blamed = _likely_unclosed(self.toks, self.i, self.lines, self.text)
        if blamed is None and stop is not None:
            return self.error(f"unexpected {stop.text!r} with no matching opening bracket: the "
                              f"innermost open bracket is {opener.text!r} at "
                              f"{self.lines.pos(opener.offset)}", stop.offset)
        where = ("before the end of the file" if stop is None else
                 f"before the {stop.text!r} at {self.lines.pos(stop.offset)}")
        if blamed is None:
            blamed = opener
        else:
            where += " (the indentation points here)"
        closer = _CLOSER_TEXT["block" if blamed.kind == "op" else blamed.kind]
        return self.error(f"'{blamed.text}' is never closed: expected '{closer}' {where}",
                          blamed.offset)

    # -- grammar -------------------------------------------------------
    def document(self) -> list[Node]:
        nodes = []
        while self.i < len(self.toks):
            tok = self.toks[self.i]
            if tok.kind in ("rpar", "rbrace"):
                raise self.error(f"unexpected '{tok.text}' with no matching opening bracket",
                                 tok.offset)
            nodes.append(self.expr(None, in_item=False))
        return nodes

    def sequence(self, opener: _Tok, closer_kind: str, in_item: bool) -> list[Node]:
        """Expressions up to the token of kind `closer_kind`, which is consumed."""
        items = []
        toks = self.toks
        while True:
            if self.i >= len(toks):
                raise self.unclosed(opener, None)
            tok = toks[self.i]
            kind = tok.kind
            if kind == closer_kind or (closer_kind == "gt" and tok.text == ">"):
                self.i += 1
                return items
            if in_item and closer_kind == "rpar" and tok.text == ">":
                self.i += 1  # a stray '>' between item values: Ludii ignores it
                continue
            if kind in ("rpar", "rbrace"):
                raise self.unclosed(opener, tok)
            items.append(self.expr(opener, in_item))

    def expr(self, opener: _Tok | None, in_item: bool) -> Node:
        tok = self.toks[self.i]
        self.i += 1
        kind = tok.kind
        if kind in ("lpar", "lbrace", "lbracket", "named") or (kind == "op" and in_item):
            self.depth += 1
            if self.depth > self.max_depth:
                raise self.error(f"brackets nest deeper than {self.max_depth} levels here "
                                 "(raise the limit with $LUDEME_MAX_NESTING)", tok.offset)
            try:
                return self.nested(tok, opener, in_item)
            finally:
                self.depth -= 1
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
        if kind in ("rpar", "rbrace"):
            raise self.error(f"unexpected '{tok.text}' with no matching opening bracket",
                             tok.offset)
        if kind == "op":
            raise self.error(f"unexpected '{tok.text}': operators only stand first in "
                             "a ludeme, as in (< a b)", tok.offset)
        if kind == "range":
            raise self.error("a range '..' needs a value on both sides, as in 1..5",
                             tok.offset)
        if kind in ("rbracket", "bar", "hash"):
            raise self.error(f"unexpected {tok.text!r} outside a template marker [ ... ]",
                             tok.offset)
        node = self.atom(tok)
        nxt = self.peek()
        if nxt is not None and nxt.kind == "range":
            return self.range(node, tok, nxt)
        return node

    def nested(self, tok: _Tok, opener: _Tok | None, in_item: bool) -> Node:
        """The rules that hold other expressions: call, array, named, block, template."""
        kind = tok.kind
        if kind == "lpar":
            return self.call(tok)
        if kind == "lbrace":
            return Array(self.sequence(tok, "rbrace", in_item), self.pos(tok))
        if kind == "lbracket":
            return self.template(tok)
        if kind == "named":
            nxt = self.peek()
            if nxt is None or nxt.kind in ("rpar", "rbrace") or (nxt.text == ">" and in_item):
                raise self.error(f"expected a value after '{tok.text}'", tok.offset)
            return Named(tok.text[:-1], self.expr(opener, in_item), self.pos(tok))
        if tok.text == "<":
            return Block(self.sequence(tok, "gt", in_item), self.pos(tok))
        raise self.error(f"unexpected '{tok.text}': operators only stand first in "
                         "a ludeme, as in (< a b)", tok.offset)

    def range(self, lo: Node, lo_tok: _Tok, dots: _Tok) -> Range:
        self.i += 1
        hi_tok = self.peek()
        if hi_tok is None or hi_tok.kind not in ("int", "string"):
            raise self.error("a range '..' needs a value on both sides, as in 1..5",
                             dots.offset)
        self.i += 1
        return Range(lo, self.atom(hi_tok), self.pos(lo_tok))

    def word(self, text: str, tok: _Tok) -> Node:
        pos = self.pos(tok)
        if text in ("True", "False"):
            return Bool(text == "True", pos)
        if text.lstrip("-").isdigit():
            return Int(int(text), pos, signed=text.startswith("-"))
        return Word(text, pos)

    def atom(self, tok: _Tok) -> Node:
        kind = tok.kind
        pos = self.pos(tok)
        if kind == "string":
            return Str(tok.text[1:-1], pos)
        if kind == "int":
            return Int(int(tok.text), pos, signed=tok.text[0] in "+-")
        if kind == "float":
            return Float(float(tok.text), pos)
        if kind == "word":
            return self.word(tok.text, tok)
        if kind == "param":
            return Param(int(tok.text[1:]), pos)
        if kind == "omit":
            return Omit("~", pos)
        raise self.error(f"unexpected {tok.text!r}", tok.offset)  # pragma: no cover

    def call(self, opener: _Tok) -> Node:
        head_tok = self.peek()
        if head_tok is None:
            raise self.unclosed(opener, None)
        if head_tok.kind == "rpar":
            raise self.error("empty '()': expected a ludeme name after '('", opener.offset)
        kind = head_tok.kind
        if kind == "named":
            # (from: (value)) or (coord:"A1"): Ludii's tokenizer ends a ludeme's name at
            # the first character no name holds, the colon, and reads the rest as its
            # arguments: (from (value)), (coord "A1").
            self.i += 1
            head = Word(head_tok.text[:-1], self.pos(head_tok))
            return Call(head, self.sequence(opener, "rpar", False), self.pos(opener))
        if kind == "lpar":
            # ((then ...)): redundant parentheses, Ludii reads the inside;
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
                raise self.unclosed(opener, None)
            tok = toks[self.i]
            if tok.kind == "rbracket":
                self.i += 1
                text = self.text[opener.offset + 1:tok.offset].strip()
                return Template(text, alternatives, self.pos(opener),
                                end=self.lines.pos(tok.offset + 1))
            if tok.kind == "bar":
                self.i += 1
                alternatives.append([])
            elif tok.kind == "hash" or tok.text == "*":
                self.i += 1
                alternatives[-1].append(Word(tok.text, self.pos(tok)))
            elif tok.kind in ("rpar", "rbrace"):
                raise self.unclosed(opener, tok)
            else:
                alternatives[-1].append(self.expr(opener, False))


# ---------------------------------------------------------------- unclosed brackets

def _likely_unclosed(toks: list[_Tok], upto: int, lines: _LineIndex, text: str) -> _Tok | None:
    """The opening bracket that the indentation says lacks its closer, if it says so clearly.

    Replays the brackets of `toks[:upto]`. An opening blames itself when a later line
    starts (not with a closer) at its line's indentation or less while it is still
    open, or when a line starting with a closer at a smaller indentation closes it.
    Files that do not follow their indentation blame many openings: then nothing is
    blamed and the caller keeps its own guess.
    """
    stack: list[tuple[_Tok, int, int]] = []      # (opener, its line, its line's indentation)
    blamed: list[_Tok] = []
    last_line = -1
    indent = 0
    for tok in toks[:upto]:
        line = lines.line(tok.offset)
        first = line != last_line
        last_line = line
        kind = tok.kind
        if first:
            start = lines.starts[line]
            indent = len(text[start:tok.offset].expandtabs(4))
            if kind not in ("rpar", "rbrace", "rbracket"):
                for entry in stack:
                    if entry[1] < line and entry[2] >= indent and entry[0] not in blamed:
                        blamed.append(entry[0])
        if kind in _CLOSER_OF:
            stack.append((tok, line, indent))
        elif kind in ("rpar", "rbrace", "rbracket"):
            if not stack or _CLOSER_OF[stack[-1][0].kind] != kind:
                break
            opener, oline, oindent = stack.pop()
            if first and oline < line and oindent > indent and opener not in blamed:
                blamed.append(opener)
    return blamed[0] if len(blamed) == 1 else None
