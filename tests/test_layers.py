"""The package's layers are its folders, and imports only go down (ARCHITECTURE.md).

Every import statement of every module is read, those inside functions too, and
each import of a `ludeme` module must go to a lower layer, or stay inside its own
layer without closing a cycle. The root package (`ludeme/__init__.py`) is the facade
over the layers: it may reach any of them, lazily, and no module imports it.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ludeme"

# Lowest first. A module belongs to the first prefix it starts with.
LAYERS = [
    ("base", ("ludeme.errors", "ludeme.version")),
    ("language", ("ludeme.language",)),            # text -> syntax tree -> expanded game
    ("boards", ("ludeme.boards",)),                # board geometry: graphs and tables, no ludemes
    ("engine", ("ludeme.engine",)),                # runtime: state, actions, turn loop, kernels
    ("model", ("ludeme.model",)),                  # typed ludemes and the game builder
    ("api", ("ludeme.api",)),                      # load a game, choose its backend
    ("ai", ("ludeme.ai",)),                        # agents
    ("analysis", ("ludeme.analysis",)),            # playouts, metrics, reports, concepts, checks
    ("interfaces", ("ludeme.interfaces",)),        # OpenSpiel, PettingZoo, terminal, positions
    ("cli", ("ludeme.cli", "ludeme.bench", "ludeme.__main__")),   # commands
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int | None:
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def imports_of(module: str) -> list[tuple[str, int]]:
    """(imported ludeme module, line) for every import statement in the module."""
    path = MODULES[module]
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from package import submodule` imports the submodule
            targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target
                       for a in node.names]
        else:
            continue
        for t in targets:
            if t == "ludeme" or t.startswith("ludeme."):
                while t not in MODULES and "." in t:
                    t = t.rsplit(".", 1)[0]
                if t != module:
                    out.append((t, node.lineno))
    return out


@functools.cache
def graph() -> dict[str, list[tuple[str, int]]]:
    """Every module's imports, read when a test first needs them (not at collection, which
    every test worker does)."""
    return {m: imports_of(m) for m in MODULES}


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m != "ludeme" and layer_of(m) is None] == []


def test_imports_go_down():
    bad = []
    for module, imports in graph().items():
        if module == "ludeme":
            continue      # the facade
        mine = layer_of(module)
        for target, line in imports:
            if target == "ludeme":
                bad.append(f"{module}:{line} imports the facade `ludeme`")
            elif layer_of(target) > mine:
                bad.append(f"{module}:{line} ({LAYERS[mine][0]}) imports {target} "
                           f"({LAYERS[layer_of(target)][0]})")
    assert bad == [], "\n".join(bad)


def test_no_import_cycles():
    """Tarjan's strongly connected components over the import statements."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w, _ in graph()[v]:
            if w == "ludeme":
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for m in MODULES:
        if m not in index:
            visit(m)
    assert cycles == [], "\n".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("source, expected", [
    ("from ludeme.model.build import build_game\n", ["ludeme.model.build"]),
    ("def f():\n    from ..engine import state\n", ["ludeme.engine.state"]),
])
def test_the_reader_sees_function_level_imports(tmp_path, source, expected, monkeypatch):
    """The test's own reader: a function-level import counts like any other."""
    fake = PACKAGE / "analysis" / "fake_for_layers.py"
    monkeypatch.setitem(MODULES, "ludeme.analysis.fake_for_layers", fake)
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: source)
    assert [t for t, _ in imports_of("ludeme.analysis.fake_for_layers")] == expected
