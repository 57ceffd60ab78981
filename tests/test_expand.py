"""Expansion: defines, options, rulesets, ranges, positions and every kind of error."""

import pytest

from ludeme.errors import LudemeError
from ludeme.language.expand import expand, load_description
from ludeme.language.syntax import to_lud


def ex(text, options=(), ruleset=None):
    return expand(load_description("t.lud", text), list(options), ruleset)


def game(text, options=(), ruleset=None):
    return to_lud(ex(text, options, ruleset).game)


CASES = [
    # defines with parameters; a missing argument drops out; ~ skips one
    ('(define "S" (move Step #1 (to if:(is Empty (to))) #2)) (game "g" ("S" Orthogonal))',
     '(game "g" (move Step Orthogonal (to if:(is Empty (to)))))'),
    ('(define "S" (move Step #1 (to) #2)) (game "g" "S")', '(game "g" (move Step (to)))'),
    ('(define "S" (move Step #1 (to) #2)) (game "g" ("S" ~ (then (x))))',
     '(game "g" (move Step (to) (then (x))))'),
    ('(define "N" (a n:#1)) (game "g" ("N") ("N" 3))', '(game "g" (a) (a n:3))'),
    # defines using defines, and defines nested inside other forms
    ('(define "A" (a "B")) (define "B" (b #1)) (game "g" "A")', '(game "g" (a (b)))'),
    ('(game "g" (x (define "Z" 7)) (y "Z"))', '(game "g" (x) (y 7))'),
    # a define that yields several nodes, and a bare word
    ('(define "Two" 1 2) (game "g" {"Two" 3})', '(game "g" {1 2 3})'),
    # ranges
    ('(game "g" {1..4})', '(game "g" {1 2 3 4})'),
    ('(game "g" {3..1})', '(game "g" {3 2 1})'),
    ('(game "g" {"A1".."B2"})', '(game "g" {"A1" "A2" "B1" "B2"})'),
    ('(define "Lo" 2) (game "g" {"Lo"..4})', '(game "g" {2 3 4})'),
    # redundant parentheses
    ('(define "W" (who at:(last To))) (game "g" (= ("W") 2))',
     '(game "g" (= (who at:(last To)) 2))'),
    # "((" closed by "))": Ludii drops the outer pair, the items join the enclosing form
    ('(define "L" (f 1)) (game "g" (!= (("L") (to))))', '(game "g" (!= (f 1) (to)))'),
    ('(game "g" (x ((a) b (c))))', '(game "g" (x (a) b (c)))'),
    # the name after game, match or instance is never a define use (Ludii's protected
    # substring), though the same string is expanded everywhere else
    ('(define "g" (= 1 #1)) (game "g" ("g" 2) "g")', '(game "g" (= 1 2) (= 1))'),
    ('(define "m" 5) (match "m" (x "m"))', '(match "m" (x 5))'),
    # a parameter glued to a word is substituted in its text (P#1 with 2: P2), or drops out
    ('(define "H" (handSite P#1 0)) (game "g" ("H" 2))', '(game "g" (handSite P2 0))'),
    ('(define "H" (f A#1x#2)) (game "g" ("H" Mover 3))', '(game "g" (f AMoverx3))'),
    ('(define "H" (f P#1)) (game "g" ("H"))', '(game "g" (f P))'),
    ('(define "i" 5) (game "g" (instance "i" "i"))', '(game "g" (instance "i" 5))'),
    # Ludii expands a define's body as text: a parameter inside a string is replaced too,
    # one that has no argument given stays (a colour such as "#0000EE")
    ('(define "R" (remember Value "#1" 3)) (game "g" ("R" 2))',
     '(game "g" (remember Value "2" 3))'),
    ('(define "C" (f "x#1y#2" "#0000EE")) (game "g" ("C" Mover 7))',
     '(game "g" (f "xMovery7" "#0000EE"))'),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_expansion(text, expected):
    assert game(text) == expected


OPTIONS = '''
(game "g" (board <Board:size>) <Rules> "<Board:size> wide")
(option "Board" <Board> args:{<size>} { (item "3" <3> "small") (item "5" <5> "big")* })
(option "Rules" <Rules> args:{<r>} { (item "A" <(a)>) (item "B" <(b) (c)>) })
(rulesets { (ruleset "Ruleset/Small (Suggested)" { "Board/3" "Rules/B" }) })
'''


def test_option_defaults_are_starred_or_first():
    assert game(OPTIONS) == '(game "g" (board 5) (a) "5 wide")'


def test_option_and_ruleset_selection():
    assert game(OPTIONS, ["Board/3"]) == '(game "g" (board 3) (a) "3 wide")'
    assert game(OPTIONS, ruleset="Ruleset/Small (Suggested)") == \
        '(game "g" (board 3) (b) (c) "3 wide")'
    assert game(OPTIONS, ruleset="Small (Suggested)") == game(OPTIONS, ruleset="Small")
    # An option the ruleset also sets must agree with it: a run labelled with the ruleset
    # plays the ruleset.
    assert game(OPTIONS, ["Board/3"], ruleset="Small") == game(OPTIONS, ruleset="Small")
    with pytest.raises(LudemeError, match="'Board/5' conflicts with the ruleset 'Ruleset/Small "
                                          r"\(Suggested\)', which selects 'Board/3'"):
        game(OPTIONS, ["Board/5"], ruleset="Small")


def test_tag_as_ludeme_head():
    text = '''(game "g" (board (<B:shape> 3)))
    (option "B" <B> args:{<shape>} { (item "hex" <hex Diamond>) })'''
    assert game(text) == '(game "g" (board (hex Diamond 3)))'


ERRORS = [
    ('(game "g" ("Nope" 1))', "unknown define 'Nope'"),
    ('(define "StepTo" 1) (game "g" ("StepTwo" 1))', "did you mean 'StepTo'"),
    ('(game "g" <Missing>)', "unknown option tag <Missing>"),
    ('(define "L" ("L")) (game "g" "L")', "keeps expanding into itself"),
    ('(game "g" {1..200001})', "bad range"),
    ('(game "g" {"A1"..3})', "bad range"),
    ('(metadata)', "no (game ...)"),
    ('(game "g") (game "h")', "a second (game"),
    ('(game "g") (foo)', "at the top level"),
    ('(option "X" <X> {}) (game "g")', "has no items"),
    ('(option "X" {(item "a" <1>)}) (game "g")', "expected (option"),
    ('(define "H" (f P#1)) (game "g" ("H" (f 1)))', "glued to a word (P#1)"),
]


@pytest.mark.parametrize("text,words", ERRORS)
def test_errors(text, words):
    with pytest.raises(LudemeError) as e:
        ex(text)
    assert words in str(e.value)
    assert e.value.pos is not None and e.value.pos.file == "t.lud"


def test_unknown_option_item_and_ruleset_list_the_known_ones():
    with pytest.raises(LudemeError, match=r"unknown option item 'Board/4'.*'Board/3', 'Board/5'"):
        ex(OPTIONS, ["Board/4"])
    with pytest.raises(LudemeError, match=r"unknown option 'Size/4'.*'Board', 'Rules'"):
        ex(OPTIONS, ["Size/4"])
    with pytest.raises(LudemeError, match=r"unknown ruleset 'Big'.*Ruleset/Small \(Suggested\)"):
        ex(OPTIONS, ruleset="Big")


def test_error_in_define_body_names_body_and_use_site():
    text = '(define "D" (a\n  ("Missing")))\n(game "g"\n   "D")'
    with pytest.raises(LudemeError) as e:
        ex(text)
    err = e.value
    assert (err.pos.line, err.pos.col) == (2, 4)          # where the body was written
    assert [(p.line, p.col) for p in err.via] == [(4, 4)]  # where it was used
    assert "used at t.lud:4:4" in err.render(excerpt=False)


def test_error_in_option_item_names_item_and_tag():
    text = '(game "g"\n <V>)\n(option "V" <V> args:{<v>} {\n (item "a" <("Nope")>)})'
    with pytest.raises(LudemeError) as e:
        ex(text)
    assert (e.value.pos.line, e.value.pos.col) == (4, 14)
    assert [(p.line, p.col) for p in e.value.via] == [(2, 2)]


def test_positions_survive_expansion():
    text = '(define "D" (b\n (c)))\n(game "g" "D")'
    g = ex(text).game
    b = g.args[1]
    c = b.args[0]
    assert (b.pos.line, b.pos.col) == (1, 13) and (c.pos.line, c.pos.col) == (2, 2)
    assert [(p.line, p.col) for p in c.via] == [(3, 11)]


def test_metadata_is_separate_and_info_is_read():
    text = '''(game "g" (x))
    (metadata (info { (description "D") (id "7") (rules "R")
        (useFor "Ruleset/S" (rules "R2")) })
        (graphics {}))
    (rulesets { (ruleset "Ruleset/S" {}) })'''
    e = ex(text)
    assert to_lud(e.game) == '(game "g" (x))'
    assert e.info()["description"] == "D" and e.info()["rules"] == "R"
    assert e.info()["useFor"] == {"Ruleset/S": {"rules": "R2"}}
    assert ex(text, ruleset="S").info()["rules"] == "R2"


def test_stdlib_defines_are_available():
    # "SameTurn" is one of the standard defines that files use without declaring them.
    assert game('(game "g" (if "SameTurn" (a)))') == '(game "g" (if (is Prev Mover) (a)))'


def test_templates_are_found():
    e = ex('(game "g" (board [#]) (piece [2..16]))')
    assert [t.text for t in e.templates] == ["#", "2..16"]


def test_the_item_with_most_stars_is_the_default():
    text = '''(game "g" (board <B>))
    (option "B" <B> args:{<n>} { (item "3" <3>)* (item "4" <4>)** (item "5" <5>)* })'''
    assert game(text) == '(game "g" (board 4))'


def test_names_inside_library_defines_resolve_to_the_library():
    # The game redefines "StepToEmpty"; the library's "StepOrthogonalToEmpty" is written
    # with the library's "StepToEmpty" and keeps using it, as Ludii expands the library
    # defines after the game's own.
    text = '(define "StepToEmpty" (mine)) (game "g" "StepOrthogonalToEmpty" "StepToEmpty")'
    out = game(text)
    assert out.startswith('(game "g" (move Step Orthogonal (to if:(is Empty (to))))')
    assert out.endswith("(mine))")


# Bounds: each limit is crossed with a positioned error naming what crossed it.
def _doubling(depth):
    lines = ['(define "D0" (a))']
    lines += [f'(define "D{i}" (b ("D{i - 1}") ("D{i - 1}")))' for i in range(1, depth + 1)]
    return "\n".join(lines) + f'\n(game "X" ("D{depth}"))'


def test_the_expansion_budget_names_the_define_chain(monkeypatch):
    monkeypatch.setenv("LUDEME_MAX_EXPANSION", "5000")
    with pytest.raises(LudemeError) as e:
        ex(_doubling(20))
    assert (e.value.pos.line, e.value.pos.col) == (22, 11)
    assert 'budget of 5,000 steps while expanding define "D20" -> "D19"' in e.value.message
    monkeypatch.setenv("LUDEME_MAX_EXPANSION", "50000")
    assert to_lud(ex(_doubling(10)).game).count("(a)") == 1024


def test_define_depth_is_bounded_and_raised_by_the_environment(monkeypatch):
    chain = "\n".join(f'(define "N{i}" (n ("N{i - 1}")))' for i in range(1, 80))
    text = '(define "N0" (a))\n' + chain + '\n(game "X" ("N79"))'
    with pytest.raises(LudemeError, match='define calls nest too deep: "N79" -> "N78"'):
        ex(text)
    monkeypatch.setenv("LUDEME_MAX_DEFINE_DEPTH", "100")
    monkeypatch.setenv("LUDEME_MAX_NESTING", "120")
    assert to_lud(ex(text).game).count("(n") == 79


def test_expanded_nesting_is_bounded_at_the_crossing():
    chain = "\n".join(f'(define "N{i}" (n (n ("N{i - 1}"))))' for i in range(1, 60))
    with pytest.raises(LudemeError, match="nests deeper than 100 levels") as e:
        ex('(define "N0" (a))\n' + chain + '\n(game "X" ("N59"))')
    assert e.value.pos.line > 1 and len(e.value.via) == 1
