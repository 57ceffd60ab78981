"""Writing the kernels costs less, and writes the same: the module's checks that read the
generated text (`_journaled`, `_reads_outer_site`) answer as the plain line-by-line and
whole-tree forms they replace, on the kernels of games of the corpus and on lines made to
catch them out."""

import ast
import re

import pytest

from ludeme.engine.compiled import codegen
from ludeme.engine.compiled.codegen import (_BULK_WRITE, _DIRECT_WRITE, _JOURNAL_LINE,
                                            _TEMPLATE_WRITES, _journaled, _reads_outer_site)
from test_compiled import ludii_game

GAMES = ["Konane.lud:8x8 Konane (Suggested)", "English Draughts.lud", "Seesaw.lud",
         "Connect Four.lud", "Fanorona.lud"]


def _journaled_by_line(module: str) -> bool:
    """`_journaled` as it was written: every check on every line."""
    noted = None
    for line in module.splitlines():
        if _BULK_WRITE.search(line):
            return False
        m = _JOURNAL_LINE.fullmatch(line.partition("#")[0].strip())
        if m:
            noted = m.group(1)
            continue
        if not _DIRECT_WRITE.search(line):
            noted = None
        elif line.strip() not in _TEMPLATE_WRITES:
            w = _DIRECT_WRITE.match(line.strip())
            if not w or w.group(2) != noted:
                return False
    return True


def _reads_outer_site_by_walks(source: str, local: str = "site") -> bool:
    """`_reads_outer_site` as it was written: a parse and three walks of the whole tree."""
    fn = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef))
    if local in {a.arg for a in fn.args.args}:
        return False
    names = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == local]
    loads = [n.lineno for n in names if isinstance(n.ctx, ast.Load)]
    stores = [n.lineno for n in names if isinstance(n.ctx, ast.Store)]
    if not stores:
        return bool(names)
    if loads and min(loads) < min(stores):
        return True
    return any(isinstance(n, ast.For) and isinstance(n.target, ast.Name)
               and n.target.id == local
               and any(isinstance(m, ast.Name) and m.id == local for m in ast.walk(n.iter))
               for n in ast.walk(fn))


@pytest.fixture(scope="module")
def modules():
    return {name: codegen.generate(ludii_game(name)) for name in GAMES}


def _functions(module: str) -> list[str]:
    """The module's functions, each as its own source."""
    return [m.group(0) for m in re.finditer(r"^def .*?(?=^\S|\Z)", module, re.M | re.S)]


def test_the_journal_check_answers_as_line_by_line(modules):
    for name, module in modules.items():
        assert _journaled(module) is _journaled_by_line(module), name
        # each function alone, and with a write left out of the journal
        for f in _functions(module):
            assert _journaled(f) is _journaled_by_line(f)
            bad = f + "\n    journal(count, ps)\n    y = 1  # count[x]\n    who[ps] = 1\n"
            assert _journaled(bad) is _journaled_by_line(bad) is False


@pytest.mark.parametrize("lines", [
    ["    journal(count, ps)", "    who[ps] = 1"],
    ["    journal(count, ps)", "", "    who[ps] = 1"],
    ["    journal(count, ps)", "    # who[ps]", "    who[ps] = 1"],
    ["    journal(count, ps)  # the site", "    what[ps] = 2", "    count[ps] -= 1"],
    ["    x = journal(count, ps)", "    who[ps] = 1"],
    ["    y = who[ps]", "    who[ps] = 1"],
    ["    a = 1", "    np.copyto(who, w)"],
    ["    who[:] = INIT_WHO", "    count[JN] = 0"]])
def test_lines_made_to_catch_the_journal_check_out(lines):
    text = "\n".join(lines)
    assert _journaled(text) is _journaled_by_line(text)


def test_reading_an_outer_site_is_found_as_by_whole_walks(modules):
    sources = [f for module in modules.values() for f in _functions(module)] + [
        "def h(a):\n    return a\n",
        "def h(a):\n    return site + a\n",
        "def h(a, site):\n    return site\n",
        "def h(a):\n    s = site\n    for site in range(3):\n        a += site\n    return a\n",
        "def h(a):\n    for site in T1[site]:\n        a += site\n    return a\n",
        "def h(a):\n    for site in range(3):\n        a += site\n    return a\n",
        "def h(a):\n    # site\n    return a\n",
        "def h(a):\n    return a.site\n"]
    for local in ("site", "value_v", "value_c"):
        for s in sources:
            assert _reads_outer_site(s, local) is _reads_outer_site_by_walks(s, local), s


def test_the_random_check_passed_is_not_run_again_until_its_parts_change(monkeypatch):
    """`check_random` runs `_same_random` once per process while it and the random module
    are the same; a check replaced (or failing) is run, and refuses."""
    import random

    from ludeme.engine import compiled
    from ludeme.engine.compiled.unsupported import Unsupported
    monkeypatch.setattr(compiled, "_random_checked", None)
    runs = []
    same = compiled._same_random

    def counted():
        runs.append(1)
        return same()
    monkeypatch.setattr(compiled, "_same_random", counted)
    compiled.check_random()
    compiled.check_random()
    assert len(runs) == 1
    monkeypatch.setattr(random.Random, "randrange", lambda self, k: 0)
    with pytest.raises(Unsupported, match="random module"):
        compiled.check_random()
    assert len(runs) == 2
    monkeypatch.undo()
    monkeypatch.setattr(compiled, "_same_random", lambda: False)
    with pytest.raises(Unsupported, match="random module"):
        compiled.check_random()


@pytest.mark.parametrize("values,dtype", [
    ([[3, -1], [2**62, -2**63]], "int64"),
    (list(range(-300, 300)), "int64"),
    ([[[i * j - k for k in range(9)] for j in range(7)] for i in range(11)], "int64"),
    ([[i % 3 == 0 for i in range(40)] for _ in range(9)], "bool_"),
    ([i % 2 == 1 for i in range(10)], "bool_"),
    ([[0] * 300 for _ in range(0)], "int64")])
def test_a_table_written_as_numbers_in_a_string_is_the_array_of_the_literal(values, dtype):
    """A large table's text (`_table_text`) makes the array the list literal made: the same
    numbers, type, shape, C order, and writable."""
    import numpy as np

    from ludeme.engine.compiled.codegen import LITERAL_TABLE_MOST, _table_text
    arr = np.asarray(values, dtype=dtype)
    text = _table_text(arr, dtype)
    assert text.startswith("np.array(") is (arr.size < LITERAL_TABLE_MOST)
    got = eval(text, {"np": np})
    literal = eval(f"np.array({arr.tolist()!r}, dtype=np.{dtype})", {"np": np})
    assert got.dtype == literal.dtype and got.shape == literal.shape
    assert np.array_equal(got, literal)
    assert got.flags["C_CONTIGUOUS"] and got.flags["WRITEABLE"]


def test_a_large_table_reads_as_the_literal_in_the_kernels(modules):
    """Kernels that index a table written as a string give what they give with it written as
    a literal (the Python the kernels run as; numba reads either global as a constant)."""
    import numpy as np

    from ludeme.engine.compiled.codegen import LITERAL_TABLE_MOST, _table_text
    strings = [line for m in modules.values() for line in m.splitlines()
               if re.match(r"T\d+ = np\.fromstring\(", line)]
    assert strings          # the corpus games' boards give some
    for line in strings:
        name, _, text = line.partition(" = ")
        arr = eval(text, {"np": np})
        assert arr.size >= LITERAL_TABLE_MOST
        assert _table_text(arr, str(arr.dtype) if arr.dtype != np.bool_ else "bool_") == text
