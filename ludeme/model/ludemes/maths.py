"""Arithmetic on integers beyond `+` and friends: `(abs ...)` (Ludii's functions/ints/math)."""

from __future__ import annotations

from ludeme.engine.compiled.emit import emits
from .base import IntFn, P, ludeme
from .intarray import IntArrayFn


@ludeme("abs")
class Abs(IntFn):
    """`(abs <int>)`: the absolute value. Example: `(= 1 (abs (- (to) (from))))`."""
    concepts = ("Absolute",)

    params = (P("value", IntFn),)

    def compile(self, env):
        value = env.compile(self.value)
        return lambda c: abs(value(c))


def java_int(x: float) -> int:
    """Java's (int) cast of a double: toward zero, saturated at the int range."""
    if x != x:
        return 0
    return max(-2 ** 31, min(2 ** 31 - 1, int(x)))


class _Pow(IntFn):
    """`(pow a b)` or `(^ a b)`: a to the power b, as Ludii's Pow ((int) Math.pow).
    Example: `(^ 10 (topLevel at:(site)))`."""
    concepts = ("Exponentiation",)

    params = (P("a", IntFn), P("b", IntFn))

    def compile(self, env):
        a, b = env.compile(self.a), env.compile(self.b)

        def power(c):
            x, y = a(c), b(c)
            try:
                return java_int(float(x) ** y)
            except OverflowError:
                return 2 ** 31 - 1 if x > 0 or y % 2 == 0 else -2 ** 31
            except ZeroDivisionError:   # 0 to a negative power: Java gives Infinity
                return 2 ** 31 - 1
        return power


@ludeme("pow")
class Pow(_Pow):
    __doc__ = _Pow.__doc__
    concepts = ("Exponentiation",)


@ludeme("^")
class PowAlias(_Pow):
    __doc__ = _Pow.__doc__
    concepts = ("Exponentiation",)


@emits(Abs, kind="int")
def _abs(src, lud):
    return f"abs({src.int_expr(lud.value)})"


@emits(Pow, PowAlias, kind="int")
def _pow(src, lud):
    """As `_Pow.compile`: the power as a double, cast as Java does (toward zero, saturated
    at the int range; an overflow saturates by its sign, 0 to a negative power is the
    largest int), by a helper of the two values."""
    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(x, y):",
            "    r = np.power(np.float64(x), np.float64(y))",
            "    if r != r:", "        return 0",
            "    if r >= 2147483647.0:", "        return 2147483647",
            "    if r <= -2147483648.0:", "        return -2147483648",
            "    return int(r)", ""])
    return f"{src.helper(make)}({src.int_expr(lud.a)}, {src.int_expr(lud.b)})"


def wrap_int(x: int) -> int:
    """Java's 32-bit int arithmetic: the value wrapped into the int range."""
    return (x + 2 ** 31) % 2 ** 32 - 2 ** 31


@ludeme("*")
class Product(IntFn):
    """`(* {<int> ...})` or `(* <int array>)`: the product of the values, as Ludii's Mul
    (0 for no values; 32-bit ints). Example: `(score P1 (* (sizes Group P1)))`."""
    concepts = ("Multiplication",)

    params = (P("values", IntFn, opt=True, many=True), P("array", IntArrayFn, opt=True))

    def compile(self, env):
        if (self.array is None) == (not self.values):
            raise self.fail("(* ...) takes two values, an array {...} or an int array")
        if self.array is not None:
            array = env.compile(self.array)
        else:
            fns = [env.compile(v) for v in self.values]
            array = lambda c: [f(c) for f in fns]   # noqa: E731

        def product(c):
            values = array(c)
            if not values:
                return 0
            out = 1
            for v in values:
                out = wrap_int(out * v)
            return out
        return product


@ludeme("mul")
class Mul(Product):
    """`(mul ...)`: Ludii's name for `(* ...)` (its Mul class, of which `*` is the alias)."""
    concepts = ("Multiplication",)


__all__ = ["Abs", "Mul", "Pow", "PowAlias", "Product"]
