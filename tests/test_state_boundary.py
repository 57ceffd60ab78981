"""Nothing outside the state module writes a position's storage.

`ludeme.engine.stores` holds what each site holds; `State.do_action` (ludeme/engine/state.py) is
the only caller of its write primitives. Readers use `State`'s read-only
top-level views (`who`, `what`, `count`) and level accessors. This test reads the
source of every other module and fails on any write to a store's lists (an item
assignment, an augmented assignment, a rebinding of the list, or a call of a
list-mutating method on it), and on any use of a store's own methods or other
lists outside `State`.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ludeme"
STORE_LISTS = {"who", "what", "count", "state", "rotation", "value", "levels"}
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
            "__setitem__", "__delitem__"}
# The store itself, and the compiled backend, whose state is its own numpy arrays
# (ludeme/engine/compiled/__init__.py CompiledState), not a `ludeme.engine.stores` store.
EXEMPT = {PACKAGE / "engine" / "stores.py"}
EXEMPT_DIRS = {PACKAGE / "engine" / "compiled"}


def store_list(node) -> str | None:
    """The store list a target expression writes (`x.who[i]`, `x.sites.what`), or None."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and node.attr in STORE_LISTS:
        return node.attr
    return None


def is_view(value) -> bool:
    """`x.sites.who` (or a tuple of them): binding the store's own view, not writing it."""
    values = value.elts if isinstance(value, ast.Tuple) else [value]
    return all(isinstance(v, ast.Attribute) and isinstance(v.value, ast.Attribute)
               and v.value.attr == "sites" and v.attr in STORE_LISTS for v in values)


def writes(tree: ast.AST):
    """(line, description) of every write to a store list in a module, in source order."""
    return sorted(_writes(tree))


def _writes(tree: ast.AST):
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign) and is_view(node.value):
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for t in targets:
            for sub in ast.walk(t) if isinstance(t, (ast.Tuple, ast.List)) else [t]:
                name = store_list(sub)
                # `obj.state = x` rebinds a context's state object, not a list: only item
                # writes count for the names that are also common attributes.
                if name and (isinstance(sub, ast.Subscript)
                             or name in {"who", "what", "count", "rotation", "levels"}):
                    yield node.lineno, f"assignment to .{name}"
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in MUTATORS and store_list(node.func.value)):
            yield node.lineno, f".{store_list(node.func.value)}.{node.func.attr}(...)"


PRIMITIVES = {"clear", "add", "remove", "move", "move_stack", "move_n", "set_count",
              "set_piece", "set_field", "copy", "key", "level", "stack", "holds", "size_stack"}


def store_reads(tree: ast.AST):
    """(line, description) of every use of a state's store (`x.sites.state`,
    `x.sites.add(...)`) in a module: outside the state itself, reads go through
    `State`'s accessors (`piece_state`, `level_data`, ...) and its top-level views."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                and node.value.attr == "sites"
                and node.attr in (STORE_LISTS | PRIMITIVES) - {"who", "what", "count"}):
            yield node.lineno, f".sites.{node.attr}"


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in EXEMPT or any(d in path.parents for d in EXEMPT_DIRS):
            continue
        yield path


@pytest.mark.parametrize("path", list(modules()), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_writes_a_store(path):
    found = list(writes(ast.parse(path.read_text(), str(path))))
    assert not found, "\n".join(f"{path.name}:{line}: {what}" for line, what in found)


@pytest.mark.parametrize("path", [p for p in modules() if p != PACKAGE / "engine" / "state.py"],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_state_class_uses_the_store(path):
    found = sorted(store_reads(ast.parse(path.read_text(), str(path))))
    assert not found, "\n".join(f"{path.name}:{line}: {what}" for line, what in found)


def test_the_check_finds_writes():
    source = ("s.who[3] = 1\ns.sites.count[2] += 4\nst.what.append(0)\nx.levels = []\n"
              "c.state[1] = 2\nc.state = other\ns.who, s.what = s.sites.who, s.sites.what\n"
              "s.who = s.sites.what[:]\n")
    assert [line for line, _ in writes(ast.parse(source))] == [1, 2, 3, 4, 5, 8]


def test_the_check_finds_store_uses():
    source = "a = st.sites.state[3]\nst.sites.add(1, 2, 3, 1)\nb = dice.sites[0]\nc = st.sites.who[2]\n"
    assert [line for line, _ in sorted(store_reads(ast.parse(source)))] == [1, 2]
