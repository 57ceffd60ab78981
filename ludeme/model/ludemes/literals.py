"""Literals standing where a ludeme is expected: `3` as an integer function, `Mover` as
a player id, `True` as a condition, `{1 2 "A1"}` as a region."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.language.syntax import Array, Bool as BoolNode, Int, Node, Str, Word
from .base import Bool, IntFn, Region, RoleType
from ludeme.engine.compiled.emit import Unsupported, always, emits, reads_params_only_from


# Ludii's named integer constants: no site (Off), the end of a track (End), undefined,
# and Infinity (Constants.INFINITY).
SITE_CONSTANTS = {"Off": -1, "End": -2, "Undefined": -1, "Infinity": 1_000_000_000}


class IntConst(IntFn):
    """An integer written as a number."""

    def compile(self, env):
        v = self.value
        return lambda c: v


class RoleId(IntFn):
    """A player written as a role word (`Mover`, `P2`, ...), evaluated to its id."""

    def compile(self, env):
        role = self.role
        if role[:1] == "P" and role[1:].isdigit() and int(role[1:]) > env.num_players:
            # Ludii's RoleType.toIntFunction: Pi is the number i, whatever the players
            # (a 4-player game may ask (is Mover P5) in a branch for more players).
            pid = int(role[1:])
            return lambda c: pid
        return env.role_id(role, self)


class BoolConst(Bool):
    """`True` or `False`."""

    def compile(self, env):
        v = self.value
        return lambda c: v


class SitesLiteral(Region):
    """`{1 5 "A1"}` or a single site number or label."""

    def compile(self, env):
        sites = []
        for item in self.items:
            if isinstance(item, Str):
                sites.append(env.site_of_label(item.value, self))
            else:
                sites.append(item.value)
        sites = tuple(sites)
        return lambda c: sites


def from_literal(node: Node, category, path: str):
    """A typed literal for `node` when it fits `category`, else None."""
    if category is IntFn or category is object:
        if isinstance(node, Int):
            return IntConst(node, path, value=node.value)
        if isinstance(node, Word) and node.value in RoleType.words:
            return RoleId(node, path, role=node.value)
        if isinstance(node, Word) and node.value in SITE_CONSTANTS:
            return IntConst(node, path, value=SITE_CONSTANTS[node.value])
    if category is Bool and isinstance(node, BoolNode):
        return BoolConst(node, path, value=node.value)
    if category is Region:
        if isinstance(node, (Int, Str)):
            return SitesLiteral(node, path, items=[node])
        if isinstance(node, Array) and all(isinstance(n, (Int, Str)) for n in node.items):
            return SitesLiteral(node, path, items=list(node.items))
    return None


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(IntConst, kind="int")
def _int_const(src, lud):
    return str(int(lud.value))


@emits(RoleId, kind="int")
def _role_id(src, lud):
    return src.role_expr(lud.role, lud)


@emits(BoolConst, kind="bool")
def _bool_const(src, lud):
    return str(bool(lud.value))


emits(IntConst, kind="from_only")(reads_params_only_from)
emits(SitesLiteral, kind="static")(always)


def fixed_int(lud, name: str, default: int) -> int:
    """The value of an integer argument the rules fix (a literal), `default` when it is not
    given; one computed while playing is refused (Unsupported)."""
    arg = getattr(lud, name)
    if arg is None:
        return default
    if type(arg) is not IntConst:
        raise Unsupported(lud, f"with a computed {name.rstrip('_')}:")
    return int(arg.value)
