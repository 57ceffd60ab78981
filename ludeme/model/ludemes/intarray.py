"""Integer arrays (Ludii's game.functions.intArray): `(results ...)`, read by `(max ...)`
and `(min ...)`, and the players of a team, `(players TeamN ...)`, read by `(is In ...)`."""

from __future__ import annotations

from .base import CLASSES, Bool, Enum, IntFn, Ludeme, P, Region, ludeme


class IntArrayFn(Ludeme):
    """A function giving a sequence of integers."""


CLASSES["IntArrayFn"] = IntArrayFn


@ludeme("results")
class Results(IntArrayFn):
    """`(results from:<site>|<region> to:<site>|<region> <int>)`: the value of the function
    for each origin and, with (from) on it, each destination, as (from) and (to)."""
    concepts = ()

    params = (P("from", (IntFn, Region), named=True), P("to", (IntFn, Region), named=True),
              P("function", IntFn))

    def compile(self, env):
        froms, tos = (env.compile(x) for x in (self.from_, self.to))
        one_from, one_to = isinstance(self.from_, IntFn), isinstance(self.to, IntFn)
        fn = env.compile(self.function)

        def results(c):
            saved = (c.from_, c.to)
            out = []
            for frm in ((froms(c),) if one_from else froms(c)):
                c.from_ = frm
                for to in ((tos(c),) if one_to else tos(c)):
                    c.to = to
                    out.append(fn(c))
            c.from_, c.to = saved
            return out
        return results


TeamWord = Enum("PlayersTeamType", " ".join(f"Team{i}" for i in range(1, 17)))


@ludeme("players")
class PlayersTeam(IntArrayFn):
    """`(players TeamN [if:<cond>])`: the players of team N, in order, where the condition
    holds with `(player)` set to each (Ludii's PlayersTeam; without teams, player N).
    Example: `(is In (mover) (players Team1))`."""
    concepts = ()

    params = (P("team", TeamWord), P("if", Bool, opt=True, named=True))

    def compile(self, env):
        members = env.roles.team_players_fn(int(self.team[4:]))
        cond = env.compile(self.if_) if self.if_ is not None else None

        def players(c):
            found = sorted(members(c))
            if cond is None:
                return found
            saved, out = c.player, []
            for p in found:
                c.player = p
                if cond(c):
                    out.append(p)
            c.player = saved
            return out
        return players


class _ArrayMixin:
    """`(array <region>)` or `(array {<int> ...})` (Ludii's intArray.array.Array): the sites
    of the region in increasing order, or the values. Example (the highest row of a group):

        (row of:(max (array (sites Group at:(last To)))))
    """

    # {3 1 3} is the integers (duplicates and order kept), not a region of sites
    params = (P("values", IntFn, opt=True, many=True), P("region", Region, opt=True))

    def compile(self, env):
        if (self.region is None) == (not self.values):
            raise self.fail("(array ...) takes a region or an array of integers")
        if self.region is not None:
            region = env.compile(self.region)
            return lambda c: sorted(set(region(c)))
        fns = [env.compile(v) for v in self.values]
        return lambda c: [f(c) for f in fns]


@ludeme("array")
class Array(_ArrayMixin, IntArrayFn):
    __doc__ = _ArrayMixin.__doc__
    concepts = ()


@ludeme("array")
class ArrayAsRegion(_ArrayMixin, Region):
    """`(array ...)` where this project reads an int array as a region (`(size Array ...)`,
    `(forEach Value ...)`, `(is In ...)`): the same values."""
    concepts = ()


@ludeme("difference")
class ArrayDifference(IntArrayFn):
    """`(difference <int array> <int array> | <int>)`: Ludii's intArray Difference, the
    values of the first array without one occurrence of each value of the second (or of
    the one value). Example, the sizes but the largest one:

        (difference (sizes Group P1) (max (sizes Group P1)))
    """
    concepts = ()

    params = (P("source", IntArrayFn), P("subtraction", (IntArrayFn, IntFn)))

    def compile(self, env):
        source, sub = env.compile(self.source), env.compile(self.subtraction)
        if isinstance(self.subtraction, IntArrayFn):
            def without_each(c):
                # Trove's TIntArrayList.removeAll: one occurrence per value of the second
                # array (a multiset difference, as Ludii's traces of Brain Coral show)
                values = list(source(c))
                for v in sub(c):
                    if v in values:
                        values.remove(v)
                return values
            return without_each

        def without_one(c):
            values = list(source(c))
            v = sub(c)
            if v in values:
                values.remove(v)
            return values
        return without_one


@ludeme("union")
class ArrayUnion(IntArrayFn):
    """`(union <int array> <int array>)` or `(union {<int array> ...})`: Ludii's intArray
    Union, the first array as it is, then each value of the others not already in.
    Example: `(max (union (sizes Group Mover) (sizes Group Next)))`."""
    concepts = ("Union",)

    params = (P("arrays", IntArrayFn, many=True), P("more", IntArrayFn, opt=True))

    def compile(self, env):
        fns = [env.compile(a) for a in self.arrays + ([self.more] if self.more else [])]

        def union(c):
            if not fns:
                return []
            out = list(fns[0](c))
            for f in fns[1:]:
                for v in f(c):
                    if v not in out:
                        out.append(v)
            return out
        return union


@ludeme("intersection")
class ArrayIntersection(IntArrayFn):
    """`(intersection <int array> <int array>)` or `(intersection {<int array> ...})`:
    Ludii's intArray Intersection. Of two arrays, the values of the *second* that the first
    holds (the second's order, its repeats kept); of a list, the values of the first that
    every other holds. Example, the first empty site among those a piece may land on:

        (arrayValue (intersection (array (sites Empty)) (array {(mapEntry "Next" (from))}))
                    index:0)
    """
    # Ludii's Intersection sets the Union concept (not Intersection); followed so that the
    # concept reports agree with Ludii's.
    concepts = ("Union",)

    params = (P("arrays", IntArrayFn, many=True), P("more", IntArrayFn, opt=True))

    def compile(self, env):
        fns = [env.compile(a) for a in self.arrays + ([self.more] if self.more else [])]
        if self.more is not None and len(self.arrays) == 1:
            first, second = fns

            def of_two(c):
                held = set(first(c))
                return [v for v in second(c) if v in held]
            return of_two

        def of_many(c):
            if not fns:
                return []
            out = list(fns[0](c))
            for f in fns[1:]:
                held = set(f(c))
                out = [v for v in out if v in held]
            return out
        return of_many


@ludeme("arrayValue")
class ArrayValue(IntFn):
    """`(arrayValue <int array> index:<int>)`: the array's value at that index, counted
    from 0; -1 (Ludii's Off) when the index is negative or past the array's end (Ludii's
    ArrayValue). Example: `(arrayValue (array (sites Empty)) index:0)`, the lowest empty
    site."""
    concepts = ()

    params = (P("array", IntArrayFn), P("index", IntFn, named=True))

    def compile(self, env):
        array, index = env.compile(self.array), env.compile(self.index)

        def value(c):
            values = array(c)
            i = index(c)
            return values[i] if 0 <= i < len(values) else -1
        return value


@ludeme("count", "Value")
class CountValue(IntFn):
    """`(count Value <int> in:<int array>)`: how many entries of the array equal the value
    (Ludii's CountValue). Example: `(count Value 1 in:(values Remembered "Dice"))`."""
    concepts = ()

    # an int array, or remembered values (a region here, see memory.ValuesRemembered)
    params = (P("of", IntFn), P("in", (IntArrayFn, Region), named=True))

    def compile(self, env):
        value, array = env.compile(self.of), env.compile(self.in_)
        return lambda c: list(array(c)).count(value(c))


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------
#
# An int array in the kernels is a 1-D int64 numpy array, made by a helper kernel: its
# values in the reference's order, repeats kept (the kind "array").

from ludeme.engine.compiled.emit import emit, emits, lookup  # noqa: E402
from ludeme.engine.compiled.unsupported import Unsupported  # noqa: E402


@emits(PlayersTeam, kind="contains", refuses=("if_",))
def _players_team_contains(src, lud, site):
    """A value among the team's players: a test of the player id, as the team role's."""
    return src.owner_test(lud.team, lud, site)


def _over_values(src, values, value: str, term: str, join: str, value_first: bool) -> str:
    """A helper kernel's call giving the `term`s (of `a` and `v`, for each of the values as
    `a` and the value as `v`) joined by `join`; its arguments read each value once, the
    value first or last (as the reference reads them)."""
    names = [f"a{i}" for i in range(len(values))]
    args = ", ".join(["v"] + names if value_first else names + ["v"])

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}({args}):",
                          "    return " + join.join(term.format(a=a) for a in names), ""])
    given = [src.int_expr(x) for x in values]
    return f"{src.helper(make)}({', '.join([value] + given if value_first else given + [value])})"


def array_kernel(src, start: list[str], body: list[str]) -> str:
    """A call of a helper kernel, given the whole evaluation context, that runs `start` then
    `body` (lines at indent 4, `push(v)` written as `APPEND(v)`) and returns the values
    appended, in order."""
    lines = [*start, *body]
    grow = ["if n == buf.shape[0]:", "    buf = np.concatenate((buf, buf))"]
    out = []
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith("APPEND("):
            ind = line[:len(line) - len(stripped)]
            out += [ind + x for x in grow]
            out += [f"{ind}buf[n] = {stripped[len('APPEND('):-1]}", f"{ind}n += 1"]
        else:
            out.append(line)
    bound = ", player" if src.player_bound else ""

    def make(name):
        return "\n".join(["@njit(cache=True)",
                          f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}):",
                          src.context(local=()), "    buf = np.empty(16, np.int64)",
                          "    n = 0", *out, "    return buf[:n]", ""])
    return f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}{bound})"


def _in_kernel(src, f):
    """`f()` with `(between)` read as the kernel's own local (`btw`)."""
    saved, src.between = src.between, "btw"
    try:
        return f()
    finally:
        src.between = saved


def _walk(src, spec, var: str, ind: str) -> tuple[list[str], str]:
    """Lines walking a site or a region's sites (as the reference lists them) as `var`; the
    indent of the walk's body."""
    if isinstance(spec, IntFn):
        return [f"{ind}{var} = {src.int_expr(spec)}", f"{ind}if True:"], ind + "    "
    seq, flt = src.region_sites(spec)
    lines = [f"{ind}for {var} in {seq}:"]
    if flt is None:
        return lines, ind + "    "
    return lines + [f"{ind}    if {flt(var)}:"], ind + "        "


@emits(Results, kind="array")
def _results_array(src, lud):
    """The function's value for each origin and, with (from) on it, each destination (the
    destinations read with (from) set; (to) is left on the last destination)."""
    def lines():
        out, ind = _walk(src, lud.from_, "f_r", "    ")
        out.append(f"{ind}frm = f_r")
        inner, ind2 = _walk(src, lud.to, "t_r", ind)
        out += inner
        out += [f"{ind2}to = t_r", f"{ind2}APPEND({src.int_expr(lud.function)})"]
        return out
    return array_kernel(src, [], _in_kernel(src, lines))


def _array_array(src, lud):
    """The region's sites in increasing order, each once; or the values, in order."""
    if (lud.region is None) == (not lud.values):
        raise Unsupported(lud, "without a region or values")
    if lud.region is None:
        return array_kernel(src, [], _in_kernel(src, lambda: [
            f"    APPEND({src.int_expr(v)})" for v in lud.values]))

    def lines():
        seq, flt = src.region_sites(lud.region)
        test = f" and {flt('s_a')}" if flt is not None else ""
        return ["    marked = np.zeros(TOTAL, np.bool_)",
                f"    for s_a in {seq}:",
                f"        if 0 <= s_a < TOTAL{test}:",
                "            marked[s_a] = True",
                "        elif s_a >= TOTAL:",
                "            raise IndexError('(array ...) of a site past the last')",
                "    for s_a in range(TOTAL):",
                "        if marked[s_a]:",
                "            APPEND(s_a)"]
    return array_kernel(src, [], _in_kernel(src, lines))


emits(Array, ArrayAsRegion, kind="array")(_array_array)


def _array_helper(src, args: str, lines: list[str]) -> str:
    """The name of a helper kernel of arrays (`args`) only, whose `lines` (indent 4) return."""
    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}({args}):", *lines, ""])
    return src.helper(make)


@emits(ArrayUnion, kind="array")
def _union_array(src, lud):
    """The first array, then each value of the others not in what is kept so far."""
    parts = list(lud.arrays) + ([lud.more] if lud.more is not None else [])
    if not parts:
        return "np.zeros(0, np.int64)"
    joined = array_expr(src, parts[0])
    union = _array_helper(src, "a, b", [
        "    out = np.empty(len(a) + len(b), np.int64)",
        "    out[:len(a)] = a",
        "    n = len(a)",
        "    for v in b:",
        "        seen = False",
        "        for i in range(n):",
        "            if out[i] == v:",
        "                seen = True",
        "                break",
        "        if not seen:",
        "            out[n] = v",
        "            n += 1",
        "    return out[:n]"])
    for p in parts[1:]:
        joined = f"{union}({joined}, {array_expr(src, p)})"
    return joined


@emits(ArrayIntersection, kind="array")
def _intersection_array(src, lud):
    """Of two ((intersection A B)): the values of B that A holds, B's order and repeats;
    of a list: the values of the first that every other holds."""
    keep = _array_helper(src, "a, b", [
        "    out = np.empty(len(a), np.int64)",
        "    n = 0",
        "    for v in a:",
        "        for w in b:",
        "            if w == v:",
        "                out[n] = v",
        "                n += 1",
        "                break",
        "    return out[:n]"])
    if lud.more is not None and len(lud.arrays) == 1:
        return f"{keep}({array_expr(src, lud.more)}, {array_expr(src, lud.arrays[0])})"
    parts = list(lud.arrays) + ([lud.more] if lud.more is not None else [])
    if not parts:
        return "np.zeros(0, np.int64)"
    out = array_expr(src, parts[0])
    for p in parts[1:]:
        out = f"{keep}({out}, {array_expr(src, p)})"
    return out


@emits(ArrayDifference, kind="array")
def _difference_array(src, lud):
    """The first array less one occurrence of each value of the second (or of the value)."""
    sub = array_expr(src, lud.subtraction) if isinstance(lud.subtraction, IntArrayFn) \
        else f"np.full(1, {src.int_expr(lud.subtraction)}, np.int64)"
    less = _array_helper(src, "a, b", [
        "    keep = np.ones(len(a), np.bool_)",
        "    for v in b:",
        "        for i in range(len(a)):",
        "            if keep[i] and a[i] == v:",
        "                keep[i] = False",
        "                break",
        "    return a[keep]"])
    return f"{less}({array_expr(src, lud.source)}, {sub})"


def array_expr(src, lud) -> str:
    """An int array's compiled form: a 1-D int64 array, in the reference's order."""
    return emit("array", src, lud)


def _remembered_block(src, lud):
    """The kernels' block of remembered values `lud` reads, or None when it reads others."""
    if getattr(type(lud), "remembered_values", False):     # (values Remembered ...)
        return src.remembered_block(lud.name)
    return None


def unordered_array(src, lud) -> str:
    """An int array for a reader that ignores its order (its size, sum, extremes): the array
    form, or the remembered values (whose order the kernels do not keep), increasing."""
    block = _remembered_block(src, lud)
    if block is None:
        return array_expr(src, lud)
    expand = _array_helper(src, "sc, base", [
        "    out = np.empty(sc[base], np.int64)",
        "    n = 0",
        "    for v in range(REM_W):",
        "        for _ in range(sc[base + 1 + v]):",
        "            out[n] = v",
        "            n += 1",
        "    return out[:n]"])
    return f"{expand}(sc, {block})"


def array_size(src, lud) -> str:
    """How many values an int array holds."""
    block = _remembered_block(src, lud)
    return f"sc[{block}]" if block is not None else f"len({array_expr(src, lud)})"


def array_extreme(src, lud, pick: str) -> str:
    """The array's least (`pick` "min") or greatest ("max") value; -1 when it is empty."""
    name = _array_helper(src, "a", ["    if len(a) == 0:", "        return -1",
                                    f"    return a.{pick}()"])
    return f"{name}({unordered_array(src, lud)})"


def array_sum(src, lud) -> str:
    return f"int(np.sum({unordered_array(src, lud)}))"


@emits(ArrayValue, kind="int")
def _array_value(src, lud):
    name = _array_helper(src, "a, i", ["    return a[i] if 0 <= i < len(a) else -1"])
    return f"{name}({array_expr(src, lud.array)}, {src.int_expr(lud.index)})"


@emits(CountValue, kind="int")
def _count_value(src, lud):
    """How many of the array's values equal the value: a remembered list's count of it, or
    the values of any array the kernels make (`array_expr`) compared."""
    value = src.int_expr(lud.of)
    block = _remembered_block(src, lud.in_)
    if block is not None:
        return f"(sc[{block} + 1 + {value}] if 0 <= {value} < REM_W else 0)"
    if not lookup("array", lud.in_):
        raise Unsupported(lud, "in a region")
    return f"int(np.sum({array_expr(src, lud.in_)} == {value}))"


@emits(Array, ArrayAsRegion, kind="contains")
def _array_contains(src, lud, site):
    """A value among the array's: its region's membership, or one of its values (the value
    tested read first, then each of the array's once)."""
    if lud.region is not None:
        return src.region_contains(lud.region, site)
    return _over_values(src, lud.values, site, "{a} == v", " or ", value_first=True)
