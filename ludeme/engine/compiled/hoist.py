"""Loop-invariant reads of a region's mask, taken out of the loops of a generated module.

A region that reads the position (`(sites Group at:(last To))`, ...) is written as a call
of a helper kernel that returns an array over the sites, and a test that a site belongs
to it as that call indexed by the site (`helper_2(who, ..., last_to)[to]`). Written
inside a loop (a count over another region, the flood of a group whose `if:` tests the
region, ...) the helper ran again for every site the loop visits, though nothing it reads
changed: a count over a region of a region of a group became cubic in the board's size
(Gyre, Omny). `hoist` computes such a call once, right before the outermost loop it does
not change in, into a local the loop indexes instead, for Python and numba alike.

A call is taken out of a loop only when nothing can change it there:
- the function it calls is pure: a kernel of the module that writes none of its
  arguments' items and calls only pure kernels and functions that write nothing
  (`_PURE_CALLS`, `_PURE_METHODS`);
- its arguments are names (or constants) the loop never assigns, bound before the loop
  (the function's parameters, or statements before the loop in its enclosing blocks);
- the loop writes no item of an argument and calls nothing but pure functions;
- its result is only indexed there (never kept: a kept array might be written).
The call is then made once where the loop began, its value the same as at each of the
loop's reads; a loop that ran no step has made one call more, of a kernel that writes
nothing.
"""

from __future__ import annotations

import ast
import re
from typing import Callable

# Functions of numpy and builtins the kernels call that write none of their arguments.
_PURE_CALLS = {"range", "len", "min", "max", "abs", "int", "bool", "float", "divmod",
               "np.zeros", "np.empty", "np.ones", "np.full", "np.nonzero", "np.concatenate",
               "np.append", "np.arange", "np.unique", "np.sort", "np.int64", "np.bool_",
               "np.where", "np.flatnonzero", "np.zeros_like", "np.empty_like",
               "np.array", "np.copy", "np.argsort", "np.sum", "np.any", "np.all"}
# Methods of arrays that write nothing.
_PURE_METHODS = {"any", "all", "max", "min", "sum", "copy", "nonzero", "argmax", "argmin",
                 "astype", "item"}


def _call_name(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    return None


# Calls that make a new array (a local assigned only from them is the function's own).
_NEW_ARRAYS = {"np.zeros", "np.empty", "np.ones", "np.full", "np.zeros_like",
               "np.empty_like", "np.concatenate", "np.append", "np.copy", "np.array",
               "np.arange"}


def _walk(nodes):
    for node in nodes:
        yield from ast.walk(node)


def _own_arrays(f: ast.FunctionDef) -> set[str]:
    """The locals of `f` assigned only new arrays (and never a parameter)."""
    seen: dict[str, bool] = {}
    for sub in _walk(f.body):
        if isinstance(sub, ast.Assign):
            new = isinstance(sub.value, ast.Call) and (
                _call_name(sub.value) in _NEW_ARRAYS or isinstance(sub.value.func, ast.Attribute)
                and sub.value.func.attr == "copy")
            for t in sub.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        seen[n.id] = seen.get(n.id, True) and new and isinstance(t, ast.Name)
        elif isinstance(sub, (ast.For, ast.NamedExpr, ast.AnnAssign, ast.With)):
            for n in ast.walk(getattr(sub, "target", sub)):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    seen[n.id] = False
    params = {a.arg for a in f.args.args}
    return {n for n, ok in seen.items() if ok and n not in params}


def _views(f: ast.FunctionDef) -> set[str]:
    """The locals of `f` that may share an array's items: assigned a name, an attribute or
    a slice."""
    out = {a.arg for a in f.args.args}
    for sub in _walk(f.body):
        if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and sub.value is not None:
            v = sub.value
            if isinstance(v, (ast.Name, ast.Attribute, ast.Tuple)) or isinstance(
                    v, ast.Subscript) and isinstance(v.slice, ast.Slice):
                for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target]):
                    out |= {n.id for n in ast.walk(t)
                            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return out


def _writes(nodes, own: set[str], views: set[str]) -> bool:
    """Whether `nodes` may write items of an array not of `own` (`x[i] = ...`, `x[i] += ...`,
    `x |= ...` of a name that may hold a shared array)."""
    for sub in _walk(nodes):
        if isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Store):
            base = sub.value
            while isinstance(base, ast.Subscript):
                base = base.value
            if not isinstance(base, ast.Name) or base.id not in own:
                return True
        elif isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name) \
                and sub.target.id in views and sub.target.id not in own:
            return True
    return False


def _calls_only(nodes, pure: Callable[[str], bool]) -> bool:
    """Whether every call inside `nodes` is of a pure function (`pure(name)` for the
    module's own)."""
    for sub in _walk(nodes):
        if isinstance(sub, ast.Call):
            name = _call_name(sub)
            if name in _PURE_CALLS or isinstance(sub.func, ast.Attribute) \
                    and sub.func.attr in _PURE_METHODS:
                continue
            if name is None or not pure(name):
                return False
    return True


# A call whose result is indexed (`helper_2(...)[to]`): the call's function.
_INDEXED_CALL = re.compile(r"\b(\w+)\([^()\n]*\)\[")


class _Module:
    """The generated module's top-level functions, each parsed when first asked for."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.spans: dict[str, tuple[int, int]] = {}    # name -> its lines [start, end)
        start = name = None
        for i, line in enumerate(lines + ["<end>"]):
            if line[:1] not in ("", " ", "\t", "#"):
                if name is not None:
                    self.spans[name] = (start, i)
                m = re.match(r"def (\w+)\(", line)
                start, name = (i, m.group(1)) if m else (None, None)
        self.trees: dict[str, ast.FunctionDef | None] = {}
        self.purity: dict[str, bool] = {}

    def tree(self, name: str) -> ast.FunctionDef | None:
        """The function's tree (its lines numbered from its `def`), None if unparsed."""
        if name not in self.trees:
            a, b = self.spans[name]
            try:
                f = ast.parse("\n".join(self.lines[a:b])).body[0]
            except SyntaxError:
                f = None
            self.trees[name] = f if isinstance(f, ast.FunctionDef) else None
        return self.trees[name]

    def pure(self, name: str) -> bool:
        """Whether the module's function writes no array but its own and calls only pure
        functions (a function that calls itself, or one calling it, is taken as impure)."""
        if name not in self.spans:
            return False
        if name not in self.purity:
            self.purity[name] = False
            f = self.tree(name)
            self.purity[name] = f is not None and not _writes(
                f.body, _own_arrays(f), _views(f)) and _calls_only(f.body, self.pure)
        return self.purity[name]


def _stored(node) -> set[str]:
    """The names a statement assigns anywhere inside it."""
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            out.add(sub.id)
    return out


def hoist(module: str) -> str:
    """The module with each loop-invariant call of a pure kernel whose result a loop only
    indexes made once before that loop (see the module's docstring). Only the functions
    whose text indexes a call of another, in a loop, are parsed."""
    lines = module.split("\n")
    mod = _Module(lines)
    # (line index, column, end column, replacement), and (line index, lines inserted before)
    edits: list[tuple[int, int, int, str]] = []
    inserts: list[tuple[int, list[str]]] = []
    for name, (a, b) in mod.spans.items():
        text = "\n".join(lines[a:b])
        if not (("for " in text or "while " in text) and any(
                m.group(1) in mod.spans for m in _INDEXED_CALL.finditer(text))):
            continue
        f = mod.tree(name)
        if f is None:
            continue
        taken: set[int] = set()            # the calls already taken out (by id)
        count = [0]
        arrays = _own_arrays(f), _views(f)
        here = len(edits), len(inserts)

        def visit(block: list, bound: set[str]) -> None:
            bound = set(bound)
            for stmt in block:
                if isinstance(stmt, (ast.For, ast.While)):
                    _hoist_loop(stmt, bound, mod.pure, arrays, lines[a:b], edits, inserts,
                                taken, count)
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(stmt, field, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        extra = _stored(stmt.target) if isinstance(stmt, ast.For) \
                            and field == "body" else set()
                        visit(inner, bound | extra)
                for h in getattr(stmt, "handlers", ()):
                    visit(h.body, bound)
                if not isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.With)):
                    bound |= _stored(stmt)      # (a block's names may stay unbound)
        visit(f.body, {x.arg for x in f.args.args})
        # the function's line numbers to the module's
        edits[here[0]:] = [(i + a, c, e, t) for i, c, e, t in edits[here[0]:]]
        inserts[here[1]:] = [(i + a, new) for i, new in inserts[here[1]:]]
    if not edits:
        return module
    for i, col, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        lines[i] = lines[i][:col] + text + lines[i][end:]
    for i, new in sorted(inserts, key=lambda e: e[0], reverse=True):
        lines[i:i] = new
    return "\n".join(lines)


def _hoist_loop(loop, bound, pure, arrays, lines, edits, inserts, taken, count) -> None:
    """Take the invariant indexed calls of pure kernels out of `loop` (see `hoist`): the
    loop writes no array but the function's own (`arrays`: its own, and the names that may
    share another's items) and calls only pure functions."""
    if _writes([loop], *arrays) or not _calls_only([loop], pure):
        return
    # the names the loop assigns, or whose items it writes
    stored = _stored(loop) | {n.id for s in ast.walk(loop) if isinstance(s, ast.Subscript)
                              and isinstance(s.ctx, ast.Store) for n in ast.walk(s.value)
                              if isinstance(n, ast.Name)}
    found: dict[str, str] = {}             # a call's text -> its local
    for sub in ast.walk(loop):
        if not (isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Load)
                and isinstance(sub.value, ast.Call)):
            continue
        call = sub.value
        if id(call) in taken or not isinstance(call.func, ast.Name) \
                or not pure(call.func.id) or call.keywords \
                or call.lineno != call.end_lineno:
            continue
        args = call.args
        if not all(isinstance(a, ast.Constant) or isinstance(a, ast.Name)
                   and a.id in bound and a.id not in stored for a in args):
            continue
        i = call.lineno - 1
        text = lines[i].encode()[call.col_offset:call.end_col_offset].decode()
        local = found.get(text)
        if local is None:
            local = found[text] = f"_inv_{count[0]}"
            count[0] += 1
        taken.add(id(call))
        edits.append((i, _col(lines[i], call.col_offset), _col(lines[i], call.end_col_offset),
                      local))
    if found:
        head = lines[loop.lineno - 1]
        indent = head[:len(head) - len(head.lstrip())]
        inserts.append((loop.lineno - 1, [f"{indent}{local} = {text}"
                                          for text, local in found.items()]))


def _col(line: str, offset: int) -> int:
    """The character column of a UTF-8 byte offset in a line."""
    return len(line.encode()[:offset].decode())
