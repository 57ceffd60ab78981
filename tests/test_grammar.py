"""The scanner and parser: a table of snippets and what they parse to (or where they fail)."""

import pytest

from ludeme.errors import LudemeError
from ludeme.language import grammar
from ludeme.language.grammar import parse
from ludeme.language.syntax import Block, Call, Float, Int, Named, Omit, Param, Range, Str, Tag, Template, Word, to_lud

OK = [
    ("(game \"X\")", '(game "X")'),
    ("// comment\n(a b) // more", "(a b)"),
    ('(a "http://x.org // not a comment")', '(a "http://x.org // not a comment")'),
    ('(a "two\nlines")', '(a "two\nlines")'),
    ('(a "say \\"hi\\"")', '(a "say \\"hi\\"")'),
    ("(a 1 -2 +3 0.5 .5 True False)", "(a 1 -2 3 0.5 0.5 True False)"),
    ("(a {1 2} {})", "(a {1 2} {})"),
    ("(a if:(b) count:4)", "(a if:(b) count:4)"),
    ("(a if:\n  (b))", "(a if:(b))"),
    ("(< 1 2)", "(< 1 2)"),
    ("(<= (a) 2)", "(<= (a) 2)"),
    ("(!= 1 2)", "(!= 1 2)"),
    ("(* 2 3)", "(* 2 3)"),
    ("(a #1 #2)", "(a #1 #2)"),
    ('("Def" ~ x)', '("Def" ~ x)'),
    ("(a <Board:size> <Variant>)", "(a <Board:size> <Variant>)"),
    ("(a {1..5})", "(a {1..5})"),
    ('(a {"A1".."C1"})', '(a {"A1".."C1"})'),
    ("(a [#] [?] [2..16] [a | b])", "(a [#] [?] [2..16] [a | b])"),
    ("((then (b)))", "(then (b))"),
    ('(item "x" <5> "h")*', '(item "x" <5> "h")*'),
    ('(item "x" <(a) (b)> <Orthogonal> "h")**', '(item "x" <(a) (b)> <Orthogonal> "h")**'),
    ('(item "x" <(> a b)> "h")', '(item "x" <(> a b)> "h")'),
    ('(item "x" <exact:True> "h")', '(item "x" <exact:True> "h")'),
]


@pytest.mark.parametrize("text,expected", OK)
def test_parses(text, expected):
    assert to_lud(parse(text)) == expected


def test_node_kinds_and_positions():
    (call,) = parse('(a\n  b 3 "s" #1 ~ x:2 <T> 1..2 [#])', "f.lud")
    assert isinstance(call, Call) and call.name == "a"
    kinds = [type(n) for n in call.args]
    assert kinds == [Word, Int, Str, Param, Omit, Named, Tag, Range, Template]
    assert (call.args[0].pos.line, call.args[0].pos.col) == (2, 3)
    assert str(call.args[1].pos) == "f.lud:2:5"


def test_item_values_are_blocks():
    (item,) = parse('(item "n" <Orthogonal> <1 2> "help")')
    assert isinstance(item.args[1], Block) and isinstance(item.args[1].items[0], Word)
    assert [type(n) for n in item.args[2].items] == [Int, Int]


def test_float_is_float():
    (call,) = parse("(a 0.25)")
    assert isinstance(call.args[0], Float) and call.args[0].value == 0.25


BAD = [
    ("(a (b)", 1, 1, "never closed"),
    ("(a))", 1, 4, "no matching opening"),
    ("{a", 1, 1, "never closed"),
    ("(a}", 1, 3, "no matching opening"),
    ('(a "open', 1, 4, "unterminated string"),
    ("()", 1, 1, "empty"),
    ("(a if:)", 1, 4, "expected a value after 'if:'"),
    ("(a $)", 1, 4, "unexpected character"),
    ("(a 1..)", 1, 5, "range"),
    ("(a ..2)", 1, 4, "range"),
    ("(a < b)", 1, 4, "operators only stand first"),
    ("(a b]", 1, 5, "outside a template"),
    ("(a [# b", 1, 4, "never closed"),
    ("(a\n  (b\n", 2, 3, "never closed"),
]


@pytest.mark.parametrize("text,line,col,words", BAD)
def test_syntax_errors(text, line, col, words):
    with pytest.raises(LudemeError) as e:
        parse(text, "bad.lud")
    assert (e.value.pos.line, e.value.pos.col) == (line, col)
    assert words in e.value.message
    rendered = e.value.render()
    assert rendered.startswith(f"bad.lud:{line}:{col}: ")
    assert "^" in rendered


# An unclosed bracket: the indentation says which opening lacks its closer.
UNCLOSED = [
    # a sibling line at the same indentation while (board is still open
    ("(game \"X\"\n    (equipment {\n        (board (square 3)\n        (piece \"Disc\")\n"
     "    })\n)\n", 3, 9),
    # the last ')' sits under (game, so the (rules line is the one left open
    ("(game \"X\"\n    (rules\n        (play (a))\n        (end (b)\n)\n", 4, 9),
    # a file that ignores its indentation: the innermost opening, as before
    ("(a\n(b\n(c\n", 3, 1),
]


@pytest.mark.parametrize("text,line,col", UNCLOSED)
def test_unclosed_bracket_is_found_by_indentation(text, line, col):
    with pytest.raises(LudemeError, match="is never closed") as e:
        parse(text, "bad.lud")
    assert (e.value.pos.line, e.value.pos.col) == (line, col)


def test_nesting_is_bounded_where_the_limit_is_crossed(monkeypatch):
    deep = "(a " * 150 + ")" * 150
    with pytest.raises(LudemeError, match="nest deeper than 100 levels") as e:
        parse(deep, "deep.lud")
    assert (e.value.pos.line, e.value.pos.col) == (1, 301)
    monkeypatch.setenv("LUDEME_MAX_NESTING", "200")
    assert to_lud(parse(deep)).count("(") == 150


TOKENS = [
    ("STRING", '"a \\"b\\" c"'), ("TAG", "<Board:size>"), ("TAG", "< Variant >"),
    ("FLOAT", "-0.5"), ("INT", "+12"), ("NAME", "if:"), ("WORD", "Orthogonal"),
    ("PARAM", "#12"), ("OPERATOR", "<="),
]


@pytest.mark.parametrize("name,text", TOKENS)
def test_each_token_element_reads_its_token(name, text):
    element = getattr(grammar, name)
    assert element.name == name
    assert element.parse_string(text, parse_all=True)[0] == text


def test_the_scanner_covers_every_character():
    kinds = [t.kind for t in grammar.tokenize('(a 1..2 // c\n "s" {#1 ~} [#|?]) \t')]
    assert kinds == ["lpar", "word", "int", "range", "int", "string", "lbrace", "param", "omit",
                     "rbrace", "lbracket", "hash", "bar", "hash", "rbracket", "rpar"]


def test_a_string_of_megabytes_is_scanned_in_bounded_memory():
    """A 10 MB string literal took 1.4 GB to scan (a regex step per character); runs of
    plain characters are now one step each."""
    import tracemalloc
    text = '(game "' + "a" * 10_000_000 + '\\"b" (players 2))'
    tracemalloc.start()
    try:
        nodes = parse(text, "big.lud")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert nodes[0].args[0].value.endswith('a\\"b')   # the escape kept, as before
    assert peak < 200_000_000, peak


def test_a_text_parsed_again_shares_its_tree_not_its_list():
    """The trees of recent texts are kept (`grammar._PARSED`): the same nodes again, in a
    list of the caller's own; a text in error is refused every time, with its position."""
    text = '(game "Kept" (players 2))'
    a, b = parse(text, "kept.lud"), parse(text, "kept.lud")
    assert a == b and a is not b and a[0] is b[0]
    a.append(a[0])
    assert len(parse(text, "kept.lud")) == 1
    assert parse(text, "other.lud")[0].pos.file == "other.lud"
    for _ in range(2):
        with pytest.raises(LudemeError) as e:
            parse('(game "Bad" (players 2)', "bad.lud")
        assert e.value.pos.file == "bad.lud"
