"""Dice: the `(dice ...)` equipment, `(roll)`, `(forEach Die ...)` and the dice's values.

Ludii keeps dice as pieces on a container of their own, numbered after the hands
(one site per die, the die's `state` being the index of its face), and rolls
them while it generates the legal moves: `(do (roll) next:<moves>)` puts the
rolled faces in front of every legal move. Here a roll draws each face from the
state's chance stream (`State.rng`), unless the faces were fixed beforehand
(`State.force_roll`, which `ludeme crosscheck` uses to replay Ludii's outcomes).

Ludii also keeps each die's current value (its `currentDice`): the face it shows,
or 0 once a move of `(forEach Die ...)` has used it. Here the state keeps the set
of used die sites (`engine.DICE_USED` in `State.notes`): a die's current value is
0 when it was used, else its face. A roll (or a die restored after a double)
makes the die unused again.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

import re
from dataclasses import dataclass

from ludeme.engine.state import A_DICE_EQUAL, A_SET_VAR, A_UPDATE_DIE, A_USE_DIE, DICE_EQUAL, DICE_USED, Move
from ludeme.language.syntax import Int
from .base import (CLASSES, Bool, IntFn, Item, LitBool, LitInt, Moves, P, Region, RoleType,
                   called, ludeme)
from .literals import SitesLiteral
from ludeme.engine.compiled.codegen import context, counted_actions
from ludeme.engine.compiled.emit import emit, emits, no_compiled_form, part_of
from ludeme.engine.compiled.unsupported import Unsupported


@dataclass(frozen=True)
class DiceSet:
    """One dice container: its first global site and each die's face values."""

    sites_from: int
    faces: tuple[tuple[int, ...], ...]

    @property
    def sites(self) -> range:
        return range(self.sites_from, self.sites_from + len(self.faces))


@ludeme("dice")
class Dice(Item):
    """`(dice [d:<faces>] [faces:{...}] [facesByDie:{{...} ...}] [from:<first>] [num:<dice>]
    [biased:{...}] [<owner>])`: `num` dice (1 by default) of `d` faces numbered from `from`
    (6 faces from 1 by default), or with the given face values."""
    concepts = ("Dice", "BiasedDice if biased", "DiceD2 if num_faces == 2",
                "DiceD3 if num_faces == 3", "DiceD4 if num_faces == 4", "DiceD6 if num_faces == 6")

    params = (P("d", LitInt, opt=True, named=True), P("faces", LitInt, opt=True, named=True,
                                                       many=True),
              # {{1 2 3 4} {0 1}}: each inner array reads as a literal list of numbers
              P("facesByDie", Region, opt=True, named=True, many=True),
              P("from", LitInt, opt=True, named=True), P("role", RoleType, opt=True),
              P("num", LitInt, opt=True, named=True, default=1),
              P("biased", LitInt, opt=True, named=True, many=True),
              P("largeStack", LitBool, opt=True, named=True, default=False))

    is_dice = True

    @property
    def num_faces(self) -> int:
        """Faces per die as Ludii's Dice counts them: d, else the faces given (the first
        die's), else 6."""
        if self.d is not None:
            return self.d
        if self.faces:
            return len(self.faces)
        if self.facesByDie:
            return len(getattr(self.facesByDie[0], "items", None) or ())
        return 6

    def die_faces(self) -> tuple[tuple[int, ...], ...]:
        """Each die's face values, as Ludii's Dice builds them: `d:` with `faces:` or
        `facesByDie:` is the number of faces a die rolls among (the first `d` given)."""
        if self.biased:
            raise self.fail("biased dice are not supported yet")
        if self.role not in (None, "Shared"):
            raise self.fail("dice owned by one player are not supported yet")
        if self.num < 1:
            raise self.fail(f"num: must be at least 1, not {self.num}")
        if self.facesByDie:
            if len(self.facesByDie) != self.num:
                raise self.fail(f"facesByDie: gives {len(self.facesByDie)} dice, num: {self.num}")
            out = []
            for f in self.facesByDie:
                items = getattr(f, "items", None)
                if not isinstance(f, SitesLiteral) or not all(isinstance(i, Int) for i in items):
                    raise f.fail("facesByDie: takes arrays of numbers, e.g. {{1 2 3 4} {0 1}}")
                out.append(tuple(i.value for i in items))
            return self._first_faces(out)
        if self.faces:
            return self._first_faces([tuple(self.faces)] * self.num)
        d = 6 if self.d is None else self.d
        first = 1 if self.from_ is None else self.from_
        return (tuple(range(first, first + d)),) * self.num

    def _first_faces(self, dice: list) -> tuple[tuple[int, ...], ...]:
        """The faces each die rolls among: all of them, or the first `d:` (Ludii's number
        of faces of each Die, which its rolls draw below)."""
        if self.d is None:
            return tuple(dice)
        if self.d < 1 or any(self.d > len(f) for f in dice):
            raise self.fail(f"d:{self.d} must be between 1 and the number of faces given")
        return tuple(f[:self.d] for f in dice)


def dice_sets(env, lud) -> list[DiceSet]:
    """The game's dice containers; a LudemeError when it has none."""
    sets = getattr(env, "dice", [])
    if not sets:
        raise lud.fail(f"({called(lud)} ...) needs "
                       "(dice ...) in the equipment")
    return sets


def face_value(state, dice: DiceSet, site: int) -> int:
    """The value shown by the die at a site."""
    faces = dice.faces[site - dice.sites_from]
    return faces[state.piece_state(site) % len(faces)]


@ludeme("roll")
class Roll(Moves):
    """`(roll)`: roll every die (each face equally likely)."""
    concepts = ("Roll",)

    params = (P("then", "Then", opt=True),)

    def compile(self, env):
        from .moves import _then
        sets = dice_sets(env, self)
        then = _then(env, self)

        def roll(c):
            s = c.s
            forced = s.force_roll
            acts = []
            drawn = []
            for dice in sets:
                for site, faces in zip(dice.sites, dice.faces):
                    face = forced[site] if forced and site in forced else \
                        s.rng.randrange(len(faces))
                    drawn.append(face)
                    acts.append((A_UPDATE_DIE, site, face))
            # Ludii's Roll compares the face indices drawn.
            acts.append((A_DICE_EQUAL, len(set(drawn)) <= 1))
            return [Move(-1, -1, 0, acts, then)]
        return roll


@ludeme("count", "Pips")
class CountPips(IntFn):
    """`(count Pips)`: the sum of the values the dice show."""
    concepts = ("SumDice",)

    params = ()

    def compile(self, env):
        sets = dice_sets(env, self)
        return lambda c: sum(face_value(c.s, d, site) for d in sets for site in d.sites)


@ludeme("face")
class Face(IntFn):
    """`(face <site>)`: the value the die at a site shows (-1 when no die is there)."""
    concepts = ()

    params = (P("site", IntFn),)

    def compile(self, env):
        sets = dice_sets(env, self)
        site = env.compile(self.site)

        def face(c):
            s = site(c)
            for d in sets:
                if s in d.sites:
                    return face_value(c.s, d, s)
            return -1
        return face


def current_values(state, dice: DiceSet) -> list[int]:
    """Ludii's currentDice of one dice container: each die's face value, 0 once used."""
    used = state.notes.get(DICE_USED, ())
    return [0 if site in used else face_value(state, dice, site) for site in dice.sites]


@ludeme("forEach", "Die")
class ForEachDie(Moves):
    """`(forEach Die [<dice index>] [combined:<bool>] [replayDouble:<bool>] [if:<cond>] <moves>
    [(then ...)])`: the moves generated with `(pips)` set to each die's current value in turn
    (only the dice for which `if:` holds), each then marking that die used (Ludii's
    ForEachDie). `combined:True` adds the moves for the sums of two (or three) unused dice,
    using them all; `replayDouble:True` lets a double be played twice: the first move of a
    double remembers its value in Ludii's temporary variable and a later move restores the
    dice to it once. Example, a backgammon-like move of the mover's pieces:

        (forEach Die if:(!= (pips) 0) (forEach Piece (move (from) (to (trackSite Move
            steps:(pips))))))
    """
    concepts = ("Dice", "ByDieMove", "ControlFlowStatement")

    # The dice container's number is read as a literal: a positional integer function
    # would also claim the (if ...) that often comes first among the moves.
    params = (P("hand", LitInt, opt=True), P("combined", Bool, opt=True, named=True),
              P("replayDouble", Bool, opt=True, named=True), P("if", Bool, opt=True, named=True),
              P("moves", Moves), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        sets = dice_sets(env, self)
        if not 0 <= (self.hand or 0) < len(sets):
            raise self.fail(f"there is no dice container {self.hand}; the game has {len(sets)}")
        dice = sets[self.hand or 0]
        rule = env.compile(self.if_) if self.if_ is not None else (lambda c: True)
        combined = env.compile(self.combined) if self.combined is not None else None
        replay_fn = env.compile(self.replayDouble) if self.replayDouble is not None else None
        gen = env.compile(self.moves)
        then = _then(env, self)

        def with_pips(c, pips, extra, out):
            c.pips = pips
            if rule(c):
                for m in gen(c):
                    m.actions = list(m.actions) + extra
                    out.append(m)

        def for_each_die(c):
            s = c.s
            values = current_values(s, dice)
            replay = replay_fn is not None and replay_fn(c) and len(set(values)) == 1
            temp = s.var
            saved = c.pips
            out: list = []
            for i, pips in enumerate(values):
                extra = [(A_USE_DIE, dice.sites_from + i)]
                if replay:
                    extra.append((A_SET_VAR, None, pips if temp == -1 else -1))
                elif temp != -1:
                    # The second half of a double: every die shows the double's value again.
                    for d in sets:
                        if temp - 1 < len(d.faces[0]):
                            extra.extend((A_UPDATE_DIE, site, temp - 1) for site in d.sites)
                with_pips(c, pips, extra, out)
            if combined is not None and combined(c) and len(values) in (2, 3):
                first = dice.sites_from
                groups = [tuple(range(len(values)))]
                if len(values) == 3:
                    groups += [(0, 1), (0, 2), (1, 2)]
                for group in groups:
                    if not all(values[i] for i in group):
                        continue
                    with_pips(c, sum(values[i] for i in group),
                              [(A_USE_DIE, first + i) for i in group], out)
            c.pips = saved
            if then:
                for m in out:
                    m.then = tuple(m.then) + then
            return out
        return for_each_die


@ludeme("pips")
class Pips(IntFn):
    """`(pips)`: inside `(forEach Die ...)`, the value of the die being played (-1 outside)."""
    concepts = ("Dice",)

    params = ()

    def compile(self, env):
        dice_sets(env, self)
        return lambda c: c.pips


@ludeme("all", "DiceUsed")
class AllDiceUsed(Bool):
    """`(all DiceUsed)`: every die's current value is 0 (each was used, or shows 0)."""
    concepts = ("Dice",)

    params = ()

    def compile(self, env):
        sets = dice_sets(env, self)
        return lambda c: not any(v for d in sets for v in current_values(c.s, d))


@ludeme("all", "DiceEqual")
class AllDiceEqual(Bool):
    """`(all DiceEqual)`: the last roll gave every die the same face."""
    concepts = ("Dice",)

    params = ()

    def compile(self, env):
        dice_sets(env, self)
        return lambda c: bool(c.s.notes.get(DICE_EQUAL, False))


@ludeme("is", "AnyDie")
class IsAnyDie(Bool):
    """`(is AnyDie <value>)`: some die of the first dice container has this current value."""
    concepts = ("Dice",)

    params = (P("value", IntFn),)

    def compile(self, env):
        first = dice_sets(env, self)[0]
        value = env.compile(self.value)
        return lambda c: value(c) in current_values(c.s, first)


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------
#
# The kernels keep what the reference keeps: each die's face index as its site's piece state
# (`sc[STATE + site]`), and in slots of their own (`Source.variable` under keys no rule can
# name, -1 until set) whether each die was used, whether the last roll gave equal faces, the
# faces rolled while the legal moves were generated (every legal move applies them first, as
# the reference puts the roll's actions in front of each), and the faces a replay forces
# (`force_die`, which `CompiledState.force_roll` calls; -1: none).

_USED, _EQUAL, _ROLLED, _ROLL_FLAG, _FORCED = ("die used",), ("dice equal",), ("die rolled",), \
    ("dice rolled",), ("die forced",)
# A move of (forEach Die) keeps in its extra which dice it uses (its entry: a die, or a sum of
# dice, below TAG) and what it does to a double: nothing, set the temporary variable, or show
# the double again (`_DIE_KEEP`, `_DIE_RESTORE`), with the value it needs.
_TAG, _DIE_KEEP, _DIE_RESTORE = 16, 1, 2


def _kernel_dice(src, lud) -> list[DiceSet]:
    """The game's dice containers (the kernels keep their sites' states: `Source.die_states`)."""
    sets = getattr(src.env, "dice", None)
    if not sets:
        raise Unsupported(lud, "without (dice ...) in the equipment")
    return sets


def _slot(src, key, site=None) -> str:
    """The index (from VARS) of one of the dice's slots."""
    src.variable(key if site is None else key + (site,))
    return str(src.variables[key if site is None else key + (site,)])


def _dice(src, lud) -> list[tuple[int, tuple[int, ...]]]:
    """Every die of the game as (site, faces), in the containers' order."""
    return [(site, faces) for d in _kernel_dice(src, lud) for site, faces in zip(d.sites, d.faces)]


def _force_helper(src, lud) -> None:
    """`force_die(sc, site, face)`: the next rolls show this face at this die (a site of -1
    forgets every forced face), as the reference's `State.force_roll`."""
    dice = _dice(src, lud)

    def make(_name):
        lines = ["@njit(cache=True)", "def force_die(sc, site, face):"]
        for site, _ in dice:
            lines += [f"    if site == -1 or site == {site}:",
                      f"        sc[VARS + {_slot(src, _FORCED, site)}] = face"]
        return "\n".join(lines + [""])
    src.helper(make)


def _draw_helper(src, lud) -> str:
    """A kernel (sc, keep) that rolls every die: a face index drawn from the chance stream,
    or the face forced; kept in the rolled slots, or (not `keep`: the reference's roll
    while it generates a pass's moves again, which nothing shows) drawn and dropped."""
    dice = _dice(src, lud)

    def make(name):
        lines = ["@njit(cache=True)", f"def {name}(sc, keep):"]
        for site, faces in dice:
            f, r = _slot(src, _FORCED, site), _slot(src, _ROLLED, site)
            lines += [f"    if not keep:",
                      f"        rand_below(sc[CHANCE:CHANCE + N_CHANCE], {len(faces)})",
                      f"    elif sc[VARS + {f}] >= 0:",
                      f"        sc[VARS + {r}] = sc[VARS + {f}]",
                      "    else:",
                      f"        sc[VARS + {r}] = rand_below(sc[CHANCE:CHANCE + N_CHANCE], "
                      f"{len(faces)})"]
        return "\n".join(lines + [""])
    return src.helper(make)


def _show_helper(src, lud) -> str:
    """A kernel (sc) that shows the faces rolled (Ludii's actions of a roll: each die's face,
    unused again, then whether they are all equal); the actions it made."""
    dice = _dice(src, lud)

    def make(name):
        lines = ["@njit(cache=True)", f"def {name}(sc):"]
        rolled = [f"sc[VARS + {_slot(src, _ROLLED, site)}]" for site, _ in dice]
        for (site, _), r in zip(dice, rolled):
            lines += [f"    sc[STATE + {site}] = {r}",
                      f"    sc[VARS + {_slot(src, _USED, site)}] = -1"]
        same = " and ".join(f"{r} == {rolled[0]}" for r in rolled[1:]) or "True"
        lines += [f"    sc[VARS + {_slot(src, _EQUAL)}] = 1 if {same} else 0",
                  f"    return {len(dice) + 1}"]
        return "\n".join(lines + [""])
    return src.helper(make)


@emits(Roll, kind="consequent", refuses=(("then", "with (then ...) as a consequent"),))
def _roll_consequent(src, lud, lines, ind):
    """A roll made when its move is applied: each die's face drawn from the chance stream
    in turn (faces forced for the decision's own roll do not hold here: the reference
    forgets them before applying a move), shown unused, then whether all are equal; the
    actions Ludii's roll makes."""
    dice = _dice(src, lud)

    def make(name):
        lines_ = ["@njit(cache=True)", f"def {name}(sc):"]
        for i, (site, faces) in enumerate(dice):
            lines_ += [f"    f{i} = rand_below(sc[CHANCE:CHANCE + N_CHANCE], {len(faces)})",
                       f"    sc[STATE + {site}] = f{i}",
                       f"    sc[VARS + {_slot(src, _USED, site)}] = -1"]
        same = " and ".join(f"f{i} == f0" for i in range(1, len(dice))) or "True"
        lines_ += [f"    sc[VARS + {_slot(src, _EQUAL)}] = 1 if {same} else 0",
                   f"    return {len(dice) + 1}"]
        return "\n".join(lines_ + [""])
    lines.append(f"{ind}sc[NUM_ACTIONS] += {src.helper(make)}(sc)")


def rolls(lud) -> bool:
    """True when the moves before a `(do ...)`'s `next:` are a roll: `(roll)`, or `(if ...)`s
    whose branches are rolls or none (the forms `roll_then_moves` compiles)."""
    return _roll_leaves(lud.prior) is not None


def _roll_leaves(moves):
    """The rolls of `(roll)` or of `(if ...)`s (without consequents of their own) whose
    branches are such moves or none, or None for other moves."""
    from .moves import MovesIf
    if isinstance(moves, Roll):
        return [moves]
    if type(moves) is MovesIf and moves.then is None:
        parts = [_roll_leaves(moves.then_)] + \
            ([_roll_leaves(moves.else_)] if moves.else_ is not None else [])
        return None if any(p is None for p in parts) else [r for p in parts for r in p]
    return None


def _rolled_prior(src, lud):
    """The condition under which the moves before `next:` roll the dice: `(roll)`, or `(if
    <cond> <rolls> [<rolls>])` (e.g. rolling at the start of a turn only); anything else
    is refused. The rolls are alike (every die rolled): the first stands for them."""
    def cond(moves):
        if isinstance(moves, Roll):
            return "True"
        c = src.bool_expr(moves.cond)
        then = cond(moves.then_)
        other = cond(moves.else_) if moves.else_ is not None else "False"
        if other == "False":
            return c if then == "True" else f"({c} and {then})"
        return f"({c} or {other})" if then == "True" else f"({then} if {c} else {other})"
    leaves = _roll_leaves(lud.prior)
    if leaves is None:
        raise Unsupported(lud, "with next: after moves other than a roll")
    for roll in leaves[1:]:
        if roll.then is not None:
            raise Unsupported(roll, "with (then ...)")
    return leaves[0], cond(lud.prior)


def roll_then_moves(src, lud, out, ind, play=None) -> None:
    """`(do (roll) next:<moves>)` as the play of a phase: the dice are rolled from the chance
    stream while the legal moves are generated (once per position, as the reference
    generates them once), the moves are generated with the rolled faces showing, and each
    move shows them first when it is applied; with no move, a pass that shows them (Ludii
    shows the roll of a turn with nothing to play)."""
    roll, cond = _rolled_prior(src, lud)
    if lud.ifAfterwards is not None:
        raise Unsupported(lud, "with both next: and ifAfterwards:")
    if src.first_mode:      # its any-mode answer says that there is a move, not which
        raise Unsupported(lud, "where the first move is looked for")
    if src.any_mode and not src.push_tests and not src.threat_probe:
        # (no Moves Next) generates on a copy (its draws are not the position's): there is
        # always a move, the roll's pass at least.
        out.append(f"{ind}return True")
        return
    if src.reaching or src.threat_probe or src.any_mode:
        # moves only looked for: a threat's, or moves tested afterwards ((do ...
        # ifAfterwards:) around the roll) where only whether one passes is asked
        _roll_on_copy(src, lud, out, ind, roll, cond)
        return
    paths = [(i, p) for i, m in enumerate(src.phase_moves())
             if (p := _reached_if(src, m, play or lud)) is not None]
    if len(paths) != 1:
        raise Unsupported(lud, "inside other moves (only as a phase's play, or a branch of "
                               "its (if ...)s, (or ...)s and (and ...)s)")
    phases = [paths[0][0]]
    _force_helper(src, lud)
    draw, show = _draw_helper(src, lud), _show_helper(src, lud)
    flag = _slot(src, _ROLL_FLAG)
    # The reference generates the phase's moves again when a pass is applied (its
    # stalemated flag), drawing a roll that nothing shows: where the (if ...)s around the
    # roll lead to it.
    rule = cond if paths[0][1] == "True" else f"({paths[0][1]} and {cond})"

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(who, what, count, sc, phase):",
                          src.context(), f"    if {rule}:", f"        {draw}(sc, False)", ""])
    src.pass_draws.append(f"if phase[mover] == {phases[0]}:")
    src.pass_draws.append(f"    {src.helper(make)}(who, what, count, sc, phase)")
    n = len(src.helpers)
    kept = [(f"sc[STATE + {site}]", f"sc[VARS + {_slot(src, _USED, site)}]")
            for site, _ in _dice(src, lud)]
    saved = [w for pair in kept for w in pair] + [f"sc[VARS + {_slot(src, _EQUAL)}]"]
    names = [f"dsv{n}_{i}" for i in range(len(saved))]
    out.append(f"{ind}rl{n} = 1 if {cond} else 0")
    out.append(f"{ind}sc[VARS + {flag}] = rl{n}")
    out += [f"{ind}{a} = {b}" for a, b in zip(names, saved)]
    out += [f"{ind}if rl{n}:", f"{ind}    {draw}(sc, True)"]
    after = _roll_then_helper(src, roll)
    if after is not None:
        # The roll's consequents apply before the next moves are generated (the reference
        # applies the roll, consequents and all, to a copy), and again with each move
        # (its actions carry them): the position is put back once the moves are listed.
        writes_sites = after[1]
        out += [f"{ind}rsc{n} = sc.copy()"]
        if writes_sites:
            out += [f"{ind}rwho{n}, rwhat{n}, rcount{n} = who.copy(), what.copy(), count.copy()"]
    out += [f"{ind}if rl{n}:", f"{ind}    {show}(sc)"]
    if after is not None:
        out += [f"{ind}    {after[0]}(who, what, count, sc, phase)"]
    out.append(f"{ind}k{n} = k")
    first = len(src.generators)
    with src.enclosing_then(lud):
        src.moves(lud.next, out, ind)
    if after is not None:
        out += [f"{ind}sc[:] = rsc{n}"]
        if writes_sites:
            out += [f"{ind}who[:] = rwho{n}", f"{ind}what[:] = rwhat{n}",
                    f"{ind}count[:] = rcount{n}"]
    shows = f"if sc[VARS + {flag}] == 1:", f"    sc[NUM_ACTIONS] += {show}(sc)"
    if after is not None:
        shows += (f"    {after[0]}(who, what, count, sc, phase)",)
    for g in range(first, len(src.generators)):
        src.generators[g][0][:0] = shows
    g = src.new_generator(list(shows), is_pass=True, lud=lud)
    out.append(f"{ind}if k == k{n}:")
    src.push(out, ind + "    ", "-1", "-1", g)
    out += [f"{ind}{b} = {a}" for a, b in zip(names, saved)]


def _roll_on_copy(src, lud, out, ind, roll, cond) -> None:
    """`roll_then_moves` where moves are only looked for (in any-mode, or while a threat is
    looked for): on copies of the position (the kernel's own arrays given back after), as
    the reference generates on a copy, the dice rolled and shown, the next moves looked
    for, then the roll's pass (each through the tests of the moves pushed)."""
    _force_helper(src, lud)
    draw, show = _draw_helper(src, lud), _show_helper(src, lud)
    flag = _slot(src, _ROLL_FLAG)
    n = len(src.helpers)
    arrays = ("who", "what", "count", "sc")
    out += [f"{ind}{', '.join(f'ra{a}{n}' for a in arrays)} = {', '.join(arrays)}",
            f"{ind}{', '.join(arrays)} = {', '.join(f'{a}.copy()' for a in arrays)}",
            f"{ind}rl{n} = 1 if {cond} else 0", f"{ind}sc[VARS + {flag}] = rl{n}",
            f"{ind}if rl{n}:", f"{ind}    {draw}(sc, True)", f"{ind}    {show}(sc)"]
    after = _roll_then_helper(src, roll)
    if after is not None:
        out.append(f"{ind}    {after[0]}(who, what, count, sc, phase)")
    shows = f"if sc[VARS + {flag}] == 1:", f"    sc[NUM_ACTIONS] += {show}(sc)"
    if after is not None:
        shows += (f"    {after[0]}(who, what, count, sc, phase)",)
    first = len(src.generators)
    with src.enclosing_then(lud):
        src.moves(lud.next, out, ind)
    for g in range(first, len(src.generators)):
        src.generators[g][0][:0] = shows
    src.push(out, ind, "-1", "-1", src.new_generator(list(shows), is_pass=True, lud=lud))
    out.append(f"{ind}{', '.join(arrays)} = {', '.join(f'ra{a}{n}' for a in arrays)}")


def _reached_if(src, moves, lud):
    """The condition under which generating `moves` generates `lud` ("True" when always),
    or None where it is not among them once: `moves` itself, or a branch of (if ...)s, (or
    ...)s and (and ...)s (each part of which is generated), or the moves a (do ...
    ifAfterwards:) tests."""
    from .moves import MovesAnd, MovesIf, MovesOr
    if moves is lud:
        return "True"
    if type(moves) in (MovesOr, MovesAnd):
        found = [c for m in list(moves.moves) + list(moves.more or [])
                 if (c := _reached_if(src, m, lud)) is not None]
        return found[0] if len(found) == 1 else None
    if type(moves) is CLASSES.get("Do") and moves.ifAfterwards is not None \
            and moves.next is None:
        # its first moves, each generated, then tested (the tests of the moves pushed)
        return _reached_if(src, moves.prior, lud)
    if type(moves) is MovesIf:
        a = _reached_if(src, moves.then_, lud)
        b = _reached_if(src, moves.else_, lud) if moves.else_ is not None else None
        if (a is None) == (b is None):
            return None
        c = src.bool_expr(moves.cond)
        inner = a if a is not None else b
        here = c if a is not None else f"(not {c})"
        return here if inner == "True" else f"({here} and {inner})"
    return None


def _roll_then_helper(src, roll):
    """(the name of a kernel (who, what, count, sc, phase) applying the roll's consequents,
    with their actions counted, and whether they write the sites), or None without
    (then ...)."""
    if roll.then is None:
        return None
    lines: list[str] = []
    emit("then", src, roll.then, lines)
    body = counted_actions(lines, src.reads_after)

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(who, what, count, sc, phase):",
                          context(), "    btw = -1", *("    " + x for x in body), ""])
    return src.helper(make), any(_SITE_WRITES.search(x) for x in body)


_SITE_WRITES = re.compile(r"\b(site_\w+|stack_\w+)\(")


def _value_helper(src, lud, dice: DiceSet) -> str:
    """A kernel (sc, i): the current value of die i of a dice container (0 once used)."""
    used = src.table([int(_slot(src, _USED, s)) for s in dice.sites])
    width = max(len(f) for f in dice.faces)
    faces = src.table([list(f) + [0] * (width - len(f)) for f in dice.faces])
    sites = src.table(list(dice.sites))
    sizes = src.table([len(f) for f in dice.faces])

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(sc, i):",
            f"    if sc[VARS + {used}[i]] == 1:", "        return 0",
            f"    return {faces}[i, sc[STATE + {sites}[i]] % {sizes}[i]]", ""])
    return src.helper(make)


def _die_loop_dice(src, lud):
    """(the game's dice containers, the one a (forEach Die ...) loops over), refused inside
    another (forEach Die ...)."""
    if src.pips_bound:
        raise Unsupported(lud, "inside another (forEach Die)")
    sets = _kernel_dice(src, lud)
    if not 0 <= (lud.hand or 0) < len(sets):
        raise lud.fail(f"there is no dice container {lud.hand}; the game has {len(sets)}")
    return sets, sets[lud.hand or 0]


@emits(ForEachDie, kind="moves")
def _for_each_die(src, lud, out, ind):
    """The moves for each die (its current value as `pips`) and, with `combined:`, each sum
    of unused dice; each move marks the dice it used (and keeps or shows a double, with
    `replayDouble:`) when it is applied, after its own actions (see `_use_helper`)."""
    sets, dice = _die_loop_dice(src, lud)
    n = len(dice.faces)
    groups = [(i,) for i in range(n)]
    if lud.combined is not None and n in (2, 3):
        groups += [tuple(range(n))] + ([(0, 1), (0, 2), (1, 2)] if n == 3 else [])
    if len(groups) > _TAG:
        raise Unsupported(lud, f"with more than {_TAG} dice")
    value = _value_helper(src, lud, dice)
    members, sizes = (src.table(a) for a in src.padded([list(g) for g in groups]))
    h = len(src.helpers)
    temp = src.variable(None)
    out.append(f"{ind}tp{h} = {temp}")
    out.append(f"{ind}rp{h} = False")
    if lud.replayDouble is not None:
        out.append(f"{ind}if {src.bool_expr(lud.replayDouble)}:")
        out.append(f"{ind}    rp{h} = True")
        out.append(f"{ind}    for j{h} in range(1, {n}):")
        out.append(f"{ind}        if {value}(sc, j{h}) != {value}(sc, 0):")
        out.append(f"{ind}            rp{h} = False")
    combined = src.bool_expr(lud.combined) if lud.combined is not None else "False"
    out.append(f"{ind}cb{h} = {combined}")
    out.append(f"{ind}for gi{h} in range({len(groups)}):")
    i2 = ind + "    "
    out.append(f"{i2}if gi{h} >= {n} and not cb{h}:")
    out.append(f"{i2}    break")
    out.append(f"{i2}pips = 0")
    out.append(f"{i2}zero{h} = False")
    out.append(f"{i2}for jm{h} in range({sizes}[gi{h}]):")
    out.append(f"{i2}    v{h} = {value}(sc, {members}[gi{h}, jm{h}])")
    out.append(f"{i2}    pips += v{h}")
    out.append(f"{i2}    if v{h} == 0:")
    out.append(f"{i2}        zero{h} = True")
    out.append(f"{i2}if gi{h} >= {n} and zero{h}:")
    out.append(f"{i2}    continue")
    out.append(f"{i2}md{h} = 0")
    out.append(f"{i2}vv{h} = 0")
    out.append(f"{i2}if gi{h} < {n} and rp{h}:")
    out.append(f"{i2}    md{h} = {_DIE_KEEP}")
    out.append(f"{i2}    vv{h} = pips if tp{h} == -1 else -1")
    out.append(f"{i2}elif gi{h} < {n} and tp{h} != -1:")
    out.append(f"{i2}    md{h} = {_DIE_RESTORE}")
    out.append(f"{i2}    vv{h} = tp{h}")
    out.append(f"{i2}xt{h} = gi{h} + {_TAG} * md{h} + {_TAG * 4} * (vv{h} + 1)")
    first, helpers = len(src.generators), len(src.helpers)
    saved = src.pips_bound, src.move_tag, src.move_tag_packed
    src.pips_bound, src.move_tag, src.move_tag_packed = True, f"xt{h}", True
    try:
        cond = src.bool_expr(lud.if_) if lud.if_ is not None else "True"
        out.append(f"{i2}if {cond}:")
        with src.enclosing_then(lud):
            src.moves(lud.moves, out, i2 + "    ")
        out.append(f"{i2}    pass")
    finally:
        src.pips_bound, src.move_tag, src.move_tag_packed = saved
    pips_of = None
    for g in range(first, len(src.generators)):
        effect, _, then = src.generators[g]
        if any(_PIPS.search(x) for x in then):
            raise Unsupported(lud, "with (pips) read by its moves' consequents")
        if any(_PIPS.search(x) for x in effect):
            # its effect reads (pips) when the move is applied, before the dice it uses are
            # marked: their values then are those it was made with
            if pips_of is None:
                pips_of = _pips_helper(src, value, members, sizes)
            tag = "xdie_" if src.generator_tagged[g] else "x"
            effect.insert(2 if src.generator_tagged[g] else 0,
                          f"pips = {pips_of}(sc, {tag} % {_TAG})")
        # (the die's tag: `xdie_`, split from the move's own extra by `Source.new_generator`)
        effect.append(f"sc[NUM_ACTIONS] += {_use_helper(src, lud, sets, dice, members, sizes)}"
                      "(sc, xdie_)")
    if any(_PIPS.search(x) and "pips = 0" not in x for x in src.helpers[helpers:]):
        raise Unsupported(lud, "with (pips) read by a helper kernel")


_PIPS = re.compile(r"\bpips\b")


def _pips_helper(src, value, members, sizes) -> str:
    """A kernel (sc, gi): the sum of the current values of the dice of group gi (one die,
    or those combined), as (forEach Die ...) read it for the move."""
    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(sc, gi):", "    total = 0",
                          f"    for jm in range({sizes}[gi]):",
                          f"        total += {value}(sc, {members}[gi, jm])",
                          "    return total", ""])
    return src.helper(make)


def _use_helper(src, lud, sets, dice, members, sizes) -> str:
    """A kernel (sc, x) that applies what a move of (forEach Die) adds after its own actions
    (its extra `x`, see `_TAG`): the dice it used marked used, then, for a double, the value
    kept in the temporary variable, or every die showing the double again (Ludii's
    ForEachDie); the actions it made."""
    used = src.table([int(_slot(src, _USED, s)) for s in dice.sites])
    temp = src.variable(None)

    def make(name):
        lines = ["@njit(cache=True)", f"def {name}(sc, x):",
                 f"    gi = x % {_TAG}", f"    md = (x // {_TAG}) % 4",
                 f"    vv = x // {_TAG * 4} - 1", "    n = 0",
                 f"    for jm in range({sizes}[gi]):",
                 f"        j = {members}[gi, jm]"]
        lines += [f"        sc[VARS + {used}[j]] = 1", "        n += 1",
                  f"    if md == {_DIE_KEEP}:", f"        {temp} = vv", "        n += 1",
                  f"    elif md == {_DIE_RESTORE}:"]
        for d in sets:
            lines.append(f"        if vv - 1 < {len(d.faces[0])}:")
            for site in d.sites:
                lines += [f"            sc[STATE + {site}] = vv - 1",
                          f"            sc[VARS + {_slot(src, _USED, site)}] = -1",
                          "            n += 1"]
        return "\n".join(lines + ["    return n", ""])
    return src.helper(make)


@emits(ForEachDie, kind="consequent", refuses=(
        ("combined", "with combined: as a consequent"),
        ("replayDouble", "with replayDouble: as a consequent"),
        ("then", "with (then ...) as a consequent")))
def _for_each_die_consequent(src, lud, lines, ind):
    """Each die's current value (read before any is used) as `pips` in turn: where the
    condition holds and its moves make one (`one_move`: a ludeme that may make more is
    refused), that move's lines, then the die marked used (its action), as the reference
    lists each die's move with its UseDie and applies them in order. The moves read the
    position before any is applied (`moves.on_position_before`)."""
    from .moves import on_position_before
    sets, dice = _die_loop_dice(src, lud)
    n = len(dice.faces)
    value = _value_helper(src, lud, dice)
    used = src.table([int(_slot(src, _USED, s)) for s in dice.sites])
    h = len(src.helpers)
    loop = [f"fdv{h} = np.empty({n}, np.int64)", f"for fdi{h} in range({n}):",
            f"    fdv{h}[fdi{h}] = {value}(sc, fdi{h})",
            f"for fdi{h} in range({n}):", f"    pips = fdv{h}[fdi{h}]"]
    saved = src.pips_bound
    src.pips_bound = True
    try:
        cond = src.bool_expr(lud.if_) if lud.if_ is not None else "True"
        one = emit("one_move", src, lud.moves)
        body: list[str] = []
        src.consequent(lud.moves, body, "        ")
    finally:
        src.pips_bound = saved
    loop += [f"    if {cond} and {one}:", *body,
             f"        fdu{h} = {used}[fdi{h}]",
             f"        sc[VARS + fdu{h}] = 1"]          # (an action: `counted_actions`)
    loop = on_position_before(lud, lud.moves, loop, "whose moves read what an earlier "
                              "die's changed (the reference reads the position before any)", src)
    lines.extend(ind + x for x in loop)


@emits(Pips, kind="int")
def _pips(src, lud):
    if not src.pips_bound:
        raise Unsupported(lud, "outside (forEach Die)")
    return "pips"


@emits(CountPips, kind="int")
def _count_pips(src, lud):
    """The sum of the faces shown (used or not)."""
    terms = [f"{src.table(list(faces))}[sc[STATE + {site}] % {len(faces)}]"
             for site, faces in _dice(src, lud)]
    return f"({' + '.join(terms)})"


@emits(Face, kind="int")
def _face(src, lud):
    dice = _dice(src, lud)

    def make(name):
        lines = ["@njit(cache=True)", f"def {name}(sc, site):"]
        for site, faces in dice:
            lines += [f"    if site == {site}:",
                      f"        return {src.table(list(faces))}[sc[STATE + {site}] % {len(faces)}]"]
        return "\n".join(lines + ["    return -1", ""])
    return f"{src.helper(make)}(sc, {src.int_expr(lud.site)})"


def _values_helper(src, lud, sets, test: str) -> str:
    """A kernel (sc, v) -> True when some die's current value (of these containers) passes
    `test` (an expression of `value` and `v`)."""
    values = [_value_helper(src, lud, d) for d in sets]

    def make(name):
        lines = ["@njit(cache=True)", f"def {name}(sc, v):"]
        for d, value in zip(sets, values):
            lines += [f"    for i in range({len(d.faces)}):", f"        value = {value}(sc, i)",
                      f"        if {test}:", "            return True"]
        return "\n".join(lines + ["    return False", ""])
    return src.helper(make)


@emits(AllDiceUsed, kind="bool")
def _all_dice_used(src, lud):
    return f"(not {_values_helper(src, lud, _kernel_dice(src, lud), 'value != 0')}(sc, 0))"


@emits(AllDiceEqual, kind="bool")
def _all_dice_equal(src, lud):
    _kernel_dice(src, lud)
    return f"(sc[VARS + {_slot(src, _EQUAL)}] == 1)"


@emits(IsAnyDie, kind="bool")
def _is_any_die(src, lud):
    first = _kernel_dice(src, lud)[:1]
    return f"{_values_helper(src, lud, first, 'value == v')}(sc, {src.int_expr(lud.value)})"


no_compiled_form(Dice, why="equipment, made when the game is built")
part_of(Roll, parent="(do (roll) next:...)")
