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

from dataclasses import dataclass

from ludeme.engine.state import A_DICE_EQUAL, A_SET_VAR, A_UPDATE_DIE, A_USE_DIE, DICE_EQUAL, DICE_USED, Move
from ludeme.language.syntax import Int
from .base import Bool, IntFn, Item, LitBool, LitInt, Moves, P, Region, RoleType, ludeme
from .literals import SitesLiteral
from ludeme.engine.compiled.emit import no_compiled_form


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
        raise lud.fail(f"({lud.keyword}{' ' + lud.kind if lud.kind else ''} ...) needs "
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

no_compiled_form(Dice, Roll, CountPips, Face, ForEachDie, Pips, AllDiceUsed, AllDiceEqual,
                 IsAnyDie, why="the compiled turn loop refuses games with dice")
