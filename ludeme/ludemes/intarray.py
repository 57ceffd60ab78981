"""Integer arrays (Ludii's game.functions.intArray): `(results ...)`, read by `(max ...)`
and `(min ...)`."""

from __future__ import annotations

from .base import CLASSES, IntFn, Ludeme, P, Region, ludeme


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
