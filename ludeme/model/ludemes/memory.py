"""What a game remembers between moves: named variables, remembered values, pending values.

`(set Var "Name" <int>)` / `(var "Name")` (-1 until set; without a name, Ludii's single
temporary value), `(remember Value ["Name"] <int> [unique:])` (`(set RememberValue ...)`
is the older spelling), `(forget Value ["Name"] <int>|All)`, `(values Remembered ["Name"])`,
`(set Pending [<int>|<region>])`, `(is Pending)`, `(sites Pending)`; per-player values
`(set Value <player> <int>)` / `(value Player <player>)`; a piece's `(state at:)` and
`(set State at: <int>)`. Pending values last until the next move is applied.
"""

from __future__ import annotations

import math

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.repetition import key_after
from ludeme.engine.state import (A_FORGET, A_PENDING, A_REMEMBER, A_SET_FIELD, A_SET_VAR,
                                 A_STORE_STATE, STORED_STATE, Move, State)
from ludeme.engine.stores import TOP
from .base import Bool, Enum, IntFn, LitBool, LitStr, Moves, Other, P, Region, RoleType, SiteType, ludeme
from ludeme.engine.compiled.emit import Unsupported, emit, emits
from .moves import _then, then_after_move
from .intarray import IntArrayFn


def _effect(actions_fn, then):
    """A closure c -> [one move holding the actions], none when there are no actions."""
    def effect(c):
        acts = actions_fn(c)
        return [Move(-1, -1, 0, acts, then)] if acts else []
    return effect


@ludeme("set", "Var")
class SetVar(Moves):
    """`(set Var ["Name"] [<int>])`: set a named variable (-1 when no value is given)."""
    concepts = ("SetVar",)

    params = (P("name", LitStr, opt=True), P("value", IntFn, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        value = env.compile(self.value) if self.value is not None else (lambda c: -1)
        name = self.name
        return _effect(lambda c: [(A_SET_VAR, name, value(c))], _then(env, self))


@ludeme("var")
class Var(IntFn):
    """`(var ["Name"])`: a variable's value, -1 until it is set."""
    concepts = ()

    params = (P("name", LitStr, opt=True),)

    def compile(self, env):
        key = ("var", self.name)
        return lambda c: c.s.notes.get(key, -1)


class _Remember(Moves):
    params = (P("name", LitStr, opt=True), P("value", IntFn),
              P("unique", Bool, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        value = env.compile(self.value)
        unique = env.compile(self.unique) if self.unique is not None else (lambda c: False)
        key, name = ("remembered", self.name), self.name

        def actions(c):
            v = value(c)
            if unique(c) and v in c.s.notes.get(key, ()):
                return []
            return [(A_REMEMBER, name, v)]
        return _effect(actions, _then(env, self))


@ludeme("remember", "Value")
class RememberValue(_Remember):
    """`(remember Value ["Name"] <int> [unique:<cond>])`: add a value to the remembered ones
    (once only with unique:True)."""
    concepts = ("Variable", "RememberValues")


@ludeme("set", "RememberValue")
class SetRememberValue(_Remember):
    """`(set RememberValue ["Name"] <int> [unique:<cond>])`: as (remember Value ...)."""
    concepts = ("Variable", "RememberValues")


@ludeme("remember", "State")
class RememberState(Moves):
    """`(remember State [(then ...)])`: store the position as it is when this effect applies
    (Ludii's RememberState: the state's hash, here `repetition.position_key`), the one
    (avoidStoredState ...) keeps moves from returning to. Example:
    `(move Pass (then (remember State)))`."""
    concepts = ()

    params = (P("then", "Then", opt=True),)

    def compile(self, env):
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, [(A_STORE_STATE,)], then)]


@ludeme("avoidStoredState")
class AvoidStoredState(Moves):
    """`(avoidStoredState <moves> [(then ...)])`: the moves after which (their consequents
    applied) the position is not the one (remember State) stored last (Ludii's
    AvoidStoredState; with none stored, every move). Example:
    `(avoidStoredState (forEach Piece))`."""
    concepts = ("CopyContext", "PositionalSuperko")

    params = (P("moves", Moves), P("then", "Then", opt=True))

    def compile(self, env):
        self.refuse("then", why="Ludii keeps it on the list of moves, not on each move")
        gen = env.compile(self.moves)

        def avoid(c):
            stored = c.s.notes.get(STORED_STATE)
            moves = gen(c)
            if stored is None:
                return moves
            return [m for m in moves if key_after(c.s, m) != stored]
        return avoid


@ludeme("forget", "Value")
class ForgetValue(Moves):
    """`(forget Value ["Name"] <int>|All)`: forget one remembered value, or all of them (with
    no name, those of every name too, as Ludii's ForgetValueAll)."""
    concepts = ("Variable", "ForgetValues")

    params = (P("name", LitStr, opt=True), P("all", Enum("ForgetValueAllType", "All"), opt=True),
              P("value", IntFn, opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        if (self.all is None) == (self.value is None):
            raise self.fail("(forget Value ...) takes a value or All")
        name = self.name
        then = _then(env, self)
        if self.value is not None:
            value = env.compile(self.value)
            return _effect(lambda c: [(A_FORGET, name, value(c))], then)
        if name is not None:
            key = ("remembered", name)
            return _effect(lambda c: [(A_FORGET, name, None)] if c.s.notes.get(key) else [],
                           then)

        # Ludii's ForgetValueAll with no name forgets the named lists too; with nothing
        # remembered it makes no move (so its consequents do not run).
        def forget_all(c):
            return [(A_FORGET, k[1], None) for k, kept in c.s.notes.items()
                    if kept and k[0] == "remembered"]
        return _effect(forget_all, then)


class _RememberedMixin:
    """`(values Remembered ["Name"])`: the remembered values in the order they were
    remembered; a value remembered twice is there twice, as in Ludii (a
    `(forEach Value ...)` over them iterates it twice)."""

    params = (P("name", LitStr, opt=True),)
    remembered_values = True        # the compiled forms read the kernels' block of them

    def compile(self, env):
        key = ("remembered", self.name)
        return lambda c: c.s.notes.get(key, ())


@ludeme("values", "Remembered")
class ValuesRemembered(_RememberedMixin, Region):
    """`(values Remembered ["Name"])` where a region is read: the values as sites."""
    concepts = ()


@ludeme("values", "Remembered")
class ValuesRememberedArray(_RememberedMixin, IntArrayFn):
    """`(values Remembered ["Name"])` as the int array Ludii's Values is, where an int array
    is read: `(union (results ...) (values Remembered "S7"))` (Throngs)."""
    concepts = ()


@ludeme("set", "Pending")
class SetPending(Moves):
    """`(set Pending [<int>|<region>])`: values (1 by default) pending until the next move."""
    concepts = ("Variable", "SetPending")

    params = (P("value", IntFn, opt=True), P("region", Region, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        if self.value is not None and self.region is not None:
            raise self.fail("(set Pending ...) takes a value or a region, not both")
        if self.region is not None:
            region = env.compile(self.region)
            acts = lambda c: [(A_PENDING, s) for s in region(c)]  # noqa: E731
        else:
            value = env.compile(self.value) if self.value is not None else (lambda c: -1)
            acts = lambda c: [(A_PENDING, 1 if (v := value(c)) == -1 else v)]  # noqa: E731
        return _effect(acts, _then(env, self))


@ludeme("is", "Pending")
class IsPending(Bool):
    """`(is Pending)`: some value is pending."""
    concepts = ()

    params = ()

    def compile(self, env):
        return lambda c: bool(c.s.pending)


@ludeme("sites", "Pending")
class SitesPending(Region):
    """`(sites Pending)`: the pending values, as sites."""
    concepts = ()

    params = ()

    def compile(self, env):
        return lambda c: tuple(sorted(c.s.pending))


@ludeme("set", "RememberValue")
class StartRememberValue(Other):
    """`(set RememberValue ["Name"] <int>|<region> [unique:])` as a start rule: remember each
    value (each site of a region) before the first move."""
    concepts = ("Variable", "RememberValues")

    params = (P("name", LitStr, opt=True), P("value", (IntFn, Region)),
              P("unique", LitBool, opt=True, named=True, default=False))

    def start_actions(self, env, ctx) -> list[list[tuple]]:
        """One start move per value remembered."""
        got = env.compile(self.value)(ctx)
        values = [got] if isinstance(got, int) else list(got)
        if self.unique:
            values = list(dict.fromkeys(values))
        return [[(A_REMEMBER, self.name, v)] for v in values]


@ludeme("set", "Value")
class SetPlayerValue(Moves):
    """`(set Value <player> <int>)`: a player's value (undefined, -1, until set), read by
    (value Player ..)."""
    concepts = ("PlayerValue",)

    params = (P("who", (RoleType, IntFn)), P("value", IntFn), P("then", "Then", opt=True))

    def compile(self, env):
        who = env.player_fn(self.who, self)
        value = env.compile(self.value)
        return _effect(lambda c: [(A_SET_VAR, ("player", who(c)), value(c))], _then(env, self))


@ludeme("value", "Player")
class ValuePlayer(IntFn):
    """`(value Player <player>)`: the player's value, -1 (Undefined) until set (Ludii 1.3.12
    fills the players' values with Undefined)."""
    concepts = ("PlayerValue",)

    params = (P("who", (RoleType, IntFn)),)

    def compile(self, env):
        who = env.player_fn(self.who, self)
        return lambda c: c.s.notes.get(("var", ("player", who(c))), -1)



class _PieceFieldAt(IntFn):
    """`(<field> [<type>] at:<site> [level:])`: a field of the piece at a site, read by
    `State.piece_<field>` (0 off the board; the top piece without a level)."""
    params = (P("type", SiteType, opt=True), P("at", IntFn, named=True),
              P("level", IntFn, opt=True, named=True))

    field = ""
    levels_only_in_stacks = False   # Ludii reads level: only in a stacking game

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"({self.keyword} {self.type} ...) is not supported yet")
        at = env.compile(self.at)
        level = env.compile(self.level) if self.level is not None else None
        n = env.total_sites
        read = getattr(State, f"piece_{self.field}")
        stacks_only = self.levels_only_in_stacks

        def field(c):
            s = at(c)
            if not 0 <= s < n:
                return 0
            lv = TOP if level is None or (stacks_only and not c.s.g.stacking) else level(c)
            return read(c.s, s, lv)
        return field


@ludeme("state")
class StateAt(_PieceFieldAt):
    """`(state at:<site> [level:])`: the state of the piece at a site (0 off the board)."""
    concepts = ("PieceState",)
    field = "state"


@ludeme("rotation")
class RotationAt(_PieceFieldAt):
    """`(rotation [<type>] at:<site> [level:])`: the rotation of the piece at a site (Ludii's
    Rotation: 0 off the board; the level read only in a stacking game, the top without it).
    Ludii marks it with a Rotation concept its catalogue of 1.3 does not list: none here."""
    concepts = ()
    field = "rotation"
    levels_only_in_stacks = True


@ludeme("set", "State")
class SetState(Moves):
    """`(set State at:<site> [level:] <int>)`: set the state of the piece at a site."""
    concepts = ("SiteState", "SetSiteState")
    field = "state"         # the piece's field it sets

    params = (P("type", SiteType, opt=True), P("at", IntFn, named=True),
              P("level", IntFn, opt=True, named=True), P("value", IntFn),
              P("then", "Then", opt=True))

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(set {self.kind} {self.type} ...) is not supported yet")
        at = env.compile(self.at)
        level = env.compile(self.level) if self.level is not None else (lambda c: TOP)
        value = env.compile(self.value)
        n = env.total_sites
        field = self.field

        def actions(c):
            s = at(c)
            if not 0 <= s < n:
                return []
            return [(A_SET_FIELD, field, s, level(c), value(c))]
        return _effect(actions, _then(env, self))


@ludeme("value", "Pending")
class ValuePending(IntFn):
    """`(value Pending)`: the pending value when there is exactly one, else 0."""
    concepts = ()

    params = ()

    def compile(self, env):
        def value(c):
            p = c.s.pending
            return next(iter(p)) if len(p) == 1 else 0
        return value


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(Var, kind="int")
def _var(src, lud):
    return src.variable(lud.name)


@emits(ValuePlayer, kind="int")
def _value_player(src, lud):
    p = _player_expr(src, lud)
    return f"(sc[PVAL + {p}] if 0 <= {p} <= NP + 1 else -1)"


def _player_expr(src, lud) -> str:
    return src.player_expr(lud.who, lud) if isinstance(lud.who, str) else src.int_expr(lud.who)


def _set_var_lines(src, lud, lines, ind):
    value = src.int_expr(lud.value) if lud.value is not None else "-1"
    lines.append(f"{ind}{src.variable(lud.name)} = {value}")


def _set_player_value_lines(src, lud, lines, ind):
    p = _player_expr(src, lud)
    lines.append(f"{ind}pv = {p}")
    lines.append(f"{ind}if 0 <= pv <= NP + 1:")
    lines.append(f"{ind}    sc[PVAL + pv] = {src.int_expr(lud.value)}")


@emits(SetVar, kind="consequent")
def _set_var_consequent(src, lud, lines, ind):
    """The variable set, then its own (then ...), read after it as the reference applies a
    consequent's consequents (`moves.then_after_move`: a kernel of its own, which a part of
    an (and ...) made on the position before it leaves reading the position as applied)."""
    _set_var_lines(src, lud, lines, ind)
    if lud.then is not None:
        lines.extend(ind + x for x in then_after_move(src, lud))


_AS_PART = (("then", "with (then ...) as a part of another move"),)
emits(SetVar, kind="effect", refuses=_AS_PART)(lambda src, lud, body: _set_var_lines(src, lud, body, ""))
emits(SetVar, kind="one_move")(lambda src, lud: "True")     # one setting, always
emits(SetPlayerValue, kind="consequent", refuses=_AS_PART)(_set_player_value_lines)
emits(SetPlayerValue, kind="effect", refuses=_AS_PART)(
    lambda src, lud, body: _set_player_value_lines(src, lud, body, ""))


@emits(SetPending, kind="consequent", refuses=_AS_PART)
def _set_pending_lines(src, lud, lines, ind):
    """Each value (a region's sites, or the value: 1 when none or -1) made pending. A value
    computed by arithmetic may pass the last site: the kernels keep more values then."""
    from .ints import _arith_classes
    src.pending_values(wide=isinstance(lud.value, tuple(_arith_classes())))
    if lud.region is not None:
        src.for_region(lud.region, lines, ind, ["pend_add(sc, site)"])
        return
    value = src.int_expr(lud.value) if lud.value is not None else "-1"
    lines.append(f"{ind}pv = {value}")
    lines.append(f"{ind}pend_add(sc, 1 if pv == -1 else pv)")


emits(SetPending, kind="effect", refuses=_AS_PART)(
    lambda src, lud, body: _set_pending_lines(src, lud, body, ""))


@emits(IsPending, kind="bool")
def _is_pending(src, lud):
    src.pending_values()
    return "(sc[PENDN] > 0)"


@emits(ValuePending, kind="int")
def _value_pending(src, lud):
    src.pending_values()
    return "pending_one(sc)"


@emits(SitesPending, kind="contains")
def _pending_contains(src, lud, site):
    src.pending_values()
    return f"(0 <= {site} < N_PENDING and sc[PENDING + {site}] != 0)"


@emits(SitesPending, kind="sites")
def _pending_sites(src, lud):
    """The pending values in increasing order, as the reference lists them."""
    src.pending_values()
    return "range(N_PENDING)", lambda v: f"sc[PENDING + {v}] != 0"


def _most_written(lud) -> int:
    """The most an integer function can be from the numbers written in it, what it reads
    counted as 0: a sum or a product of them, the larger branch of an (if ...), below the
    divisor of a (% ...) by a number."""
    from .literals import IntConst
    if type(lud) is IntConst:
        return lud.value
    word = getattr(lud, "keyword", None) if isinstance(lud, IntFn) else None
    if word == "if":
        return max(_most_written(lud.then_),
                   _most_written(lud.else_) if lud.else_ is not None else -1)
    if word in ("+", "*", "mul") and "values" in lud._fields:     # of a list of values
        parts = [_most_written(v) for v in lud.values or ()]
        return sum(parts) if word == "+" else math.prod(parts)
    if word in ("+", "-", "*", "mul", "/", "%"):
        a = _most_written(lud.a)
        if lud.b is None:
            return a
        b = _most_written(lud.b)
        if word == "%" and type(lud.b) is IntConst and lud.b.value > 0:
            return min(max(a, 0), lud.b.value - 1)
        return {"+": a + b, "*": a * b, "mul": a * b}.get(word, a)
    return 0


def _remember_lines(src, lud, lines, ind, after=()):
    """The value remembered once more, unless unique: holds and it already is; `after`:
    lines applied after that move (its (then ...), as a consequent)."""
    block = src.remembered_block(lud.name)
    if _most_written(lud.value) >= src.game.total_sites:
        # the kernels keep values of the board's sites only (`rt.KernelFull` past them)
        raise Unsupported(lud, "with a value worked out from a number past the board's "
                               "sites")
    lines.append(f"{ind}rv = {src.int_expr(lud.value)}")
    if lud.unique is not None:
        lines.append(f"{ind}if not ({src.bool_expr(lud.unique)} and 0 <= rv < REM_W "
                     f"and sc[{block} + 1 + rv] > 0):")
        ind += "    "
    lines.append(f"{ind}rem_add(sc, {block}, rv)")
    lines.extend(ind + x for x in after)


@emits(RememberValue, SetRememberValue, kind="consequent")
def _remember_consequent(src, lud, lines, ind):
    """`_remember_lines`, its (then ...) after the move, where one is made (as an effect
    too: the reference nests a move with consequents, which run right after its actions)."""
    after = then_after_move(src, lud) if lud.then is not None else ()
    _remember_lines(src, lud, lines, ind, after)


emits(RememberValue, SetRememberValue, kind="effect")(
    lambda src, lud, body: _remember_consequent(src, lud, body, ""))


def _forget_lines(src, lud, lines, ind):
    """One value forgotten (an action even when it was not remembered), or all of a name's
    (an action only when some were), or, with no name, of every name that has some."""
    if lud.value is not None:
        lines.append(f"{ind}rem_forget(sc, {src.remembered_block(lud.name)}, "
                     f"{src.int_expr(lud.value)})")
    elif lud.name is not None:
        block = src.remembered_block(lud.name)
        lines.append(f"{ind}if sc[{block}] > 0:")
        lines.append(f"{ind}    rem_clear(sc, {block})")
    else:
        src.remembered_block(None)
        lines.append(f"{ind}for rk in range(N_REM):")
        lines.append(f"{ind}    if sc[REM + rk * REM_STRIDE] > 0:")
        lines.append(f"{ind}        rem_clear(sc, REM + rk * REM_STRIDE)")


emits(ForgetValue, kind="consequent", refuses=_AS_PART)(_forget_lines)
emits(ForgetValue, kind="effect", refuses=_AS_PART)(
    lambda src, lud, body: _forget_lines(src, lud, body, ""))


@emits(RememberValue, SetRememberValue, kind="one_move")
def _remember_one_move(src, lud):
    """A value remembered is one move; with unique:, none where it holds and the value
    already is remembered (`_Remember.compile`)."""
    if lud.unique is None:
        return "True"
    block, v = src.remembered_block(lud.name), src.int_expr(lud.value)
    return (f"(not ({src.bool_expr(lud.unique)} and 0 <= {v} < REM_W "
            f"and sc[{block} + 1 + {v}] > 0))")


@emits(ForgetValue, kind="one_move", refuses=_AS_PART)
def _forget_one_move(src, lud):
    """One value forgotten is one move; all of a name's, one where some are remembered;
    with no name, one where some of any name are (`ForgetValue.compile`)."""
    if lud.value is not None:
        return "True"
    if lud.name is not None:
        return f"(sc[{src.remembered_block(lud.name)}] > 0)"
    src.remembered_block(None)
    return "(sc[REM:REM + N_REM * REM_STRIDE:REM_STRIDE] > 0).any()"
@emits(ValuesRemembered, kind="contains")
def _remembered_contains(src, lud, site):
    """Whether a value is remembered (the list's order and repeats do not matter here)."""
    block = src.remembered_block(lud.name)
    return f"(0 <= {site} < REM_W and sc[{block} + 1 + {site}] > 0)"


@emits(ValuesRemembered, ValuesRememberedArray, kind="array")
def _remembered_array(src, lud):
    """The values in the order they were remembered, repeats kept: the kernels keep that
    order too where a rule reads it (`Source.remembered_order`)."""
    block = src.remembered_block(lud.name)
    src.remembered_order = True
    first = f"{block} + 1 + REM_W"
    return f"sc[{first}:{first} + sc[{block}]].copy()"


def remembered_sites(src, lud):
    """`(sites (values Remembered ...))` (Ludii's int array made a set): the values from 0 to
    the last site remembered, in increasing order, each once (a sequence and a filter)."""
    block = src.remembered_block(lud.name)
    return "range(REM_W)", lambda v: f"sc[{block} + 1 + {v}] > 0"


# A piece's state: `sc[STATE + s]` in the kernels (`Source.piece_state`). Its `type:` is
# the board's own or the game was refused when built.
@emits(StateAt, kind="int")
def _state_at(src, lud):
    """With level:, in a stacking game, the state of the piece at that level (0 for none;
    the top's for -1)."""
    at = src.int_expr(lud.at)
    if lud.level is not None:
        _levels_of_stacks(src, lud)
        src.piece_state(at)             # (asks for the states)
        return (f"(stack_state_at(sc[STATE:STATE + N_STATE], what, count, {at}, "
                f"{src.int_expr(lud.level)}) if 0 <= {at} < TOTAL else 0)")
    return f"({src.piece_state(at)} if 0 <= {at} < TOTAL else 0)"


@emits(RotationAt, kind="int")
def _rotation_at(src, lud):
    """0 off the sites, and in a game whose pieces never turn (`Source.rotations`: none is
    given a rotation). Its level: is read only in a stacking game, where rotations are
    refused."""
    at = src.int_expr(lud.at)
    if not src.rotations:
        return "0"
    return f"({src.piece_rotation(at)} if 0 <= {at} < TOTAL else 0)"


def _levels_of_stacks(src, lud) -> None:
    """Refuse level: outside a stacking game (Ludii reads a flat game's site otherwise)."""
    if not src.game.stacking:
        raise Unsupported(lud, "with level: in a game without stacks")


def _set_state_lines(src, lud, lines, ind):
    """As the reference's A_SET_FIELD: the state is set whether or not the site holds a
    piece; nothing (no action) off the sites. With level:, in a stacking game, the piece's
    at that level (none past the stack; the top's for -1)."""
    lines.append(f"{ind}sst = {src.int_expr(lud.at)}")
    lines.append(f"{ind}if 0 <= sst < TOTAL:")
    value = src.int_expr(lud.value)
    if lud.level is None:
        lines.append(f"{ind}    {_set_field(src, lud, 'sst', value)}")
        return
    _levels_of_stacks(src, lud)
    src.piece_state("sst")              # (asks for the states)
    lines.append(f"{ind}    " + src.stack_write(
        f"stack_set_state(who, what, count, sst, {src.int_expr(lud.level)}, {value})"))


def _set_field(src, lud, site: str, value: str) -> str:
    """The statement setting the field `lud` sets (its state, or its value: `(set Value
    at:...)`) of the piece at a site."""
    if lud.field == "value":
        if lud.level is not None:
            raise Unsupported(lud, "with level:")
        return src.set_piece_value(site, value)
    return src.set_piece_state(site, value)


@emits(SetState, kind="moves", refuses=("level",))
def _set_state_moves(src, lud, out, ind):
    """A move with no site (-1, -1) when the site is one of the sites: its site and value,
    read where the move is generated, kept in its extra slot (value * TOTAL + site)."""
    g = src.new_generator(["sst = x % TOTAL", _set_field(src, lud, "sst", "x // TOTAL")],
                          lud=lud, kind=A_SET_FIELD)
    out.append(f"{ind}sst = {src.int_expr(lud.at)}")
    out.append(f"{ind}if 0 <= sst < TOTAL:")
    src.push(out, ind + "    ", "-1", "-1", g, f"{src.int_expr(lud.value)} * TOTAL + sst")


@emits(SetState, kind="one_move")
def _set_state_one_move(src, lud):
    """`SetState.compile`'s one action, where the site is one of the sites."""
    return f"(0 <= {src.int_expr(lud.at)} < TOTAL)"


emits(SetState, kind="consequent", refuses=_AS_PART)(_set_state_lines)
emits(SetState, kind="effect", refuses=_AS_PART)(
    lambda src, lud, body: _set_state_lines(src, lud, body, ""))


def register_set_field(cls) -> None:
    """The compiled forms of SetState for a subclass setting another field (`_set_field`)."""
    emits(cls, kind="moves", refuses=("level",))(_set_state_moves)
    emits(cls, kind="one_move")(_set_state_one_move)
    emits(cls, kind="consequent", refuses=_AS_PART)(_set_state_lines)
    emits(cls, kind="effect", refuses=_AS_PART)(
        lambda src, lud, body: _set_state_lines(src, lud, body, ""))
