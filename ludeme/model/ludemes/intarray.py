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

from ludeme.engine.compiled.emit import emits  # noqa: E402


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


@emits(CountValue, kind="int")
def _count_value(src, lud):
    """How many of the array's values (an `(array {...})` of integers) equal the value,
    each read once, the array first (as the reference); other arrays are refused."""
    from ludeme.engine.compiled.unsupported import Unsupported
    arr = lud.in_
    if type(arr) not in (Array, ArrayAsRegion) or arr.region is not None or not arr.values:
        raise Unsupported(lud, "of an array other than (array {<int> ...})")
    return _over_values(src, arr.values, src.int_expr(lud.of), "(1 if {a} == v else 0)",
                        " + ", value_first=False)


@emits(Array, ArrayAsRegion, kind="contains")
def _array_contains(src, lud, site):
    """A value among the array's: its region's membership, or one of its values (the value
    tested read first, then each of the array's once)."""
    if lud.region is not None:
        return src.region_contains(lud.region, site)
    return _over_values(src, lud.values, site, "{a} == v", " or ", value_first=True)
