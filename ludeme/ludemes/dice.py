"""Dice: the `(dice ...)` equipment, `(roll)`, `(count Pips)` and `(face <site>)`.

Ludii keeps dice as pieces on a container of their own, numbered after the hands
(one site per die, the die's `state` being the index of its face), and rolls
them while it generates the legal moves: `(do (roll) next:<moves>)` puts the
rolled faces in front of every legal move. Here a roll draws each face from the
state's chance stream (`State.rng`), unless the faces were fixed beforehand
(`State.force_roll`, which `ludeme crosscheck` uses to replay Ludii's outcomes).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import A_SET_FIELD, Move
from ..state import TOP
from ..syntax import Int
from .base import IntFn, Item, LitBool, LitInt, Moves, P, Region, RoleType, ludeme
from .literals import SitesLiteral


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

    params = (P("d", LitInt, opt=True, named=True), P("faces", LitInt, opt=True, named=True,
                                                       many=True),
              # {{1 2 3 4} {0 1}}: each inner array reads as a literal list of numbers
              P("facesByDie", Region, opt=True, named=True, many=True),
              P("from", LitInt, opt=True, named=True), P("role", RoleType, opt=True),
              P("num", LitInt, opt=True, named=True, default=1),
              P("biased", LitInt, opt=True, named=True, many=True),
              P("largeStack", LitBool, opt=True, named=True, default=False))

    is_dice = True

    def die_faces(self) -> tuple[tuple[int, ...], ...]:
        """Each die's face values, as Ludii's Dice builds them."""
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
            return tuple(out)
        if self.faces:
            return (tuple(self.faces),) * self.num
        d = 6 if self.d is None else self.d
        first = 1 if self.from_ is None else self.from_
        return (tuple(range(first, first + d)),) * self.num


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

    params = (P("then", "Then", opt=True),)

    def compile(self, env):
        from .moves import _then
        sets = dice_sets(env, self)
        then = _then(env, self)

        def roll(c):
            s = c.s
            forced = s.force_roll
            acts = []
            for dice in sets:
                for site, faces in zip(dice.sites, dice.faces):
                    face = forced[site] if forced and site in forced else \
                        s.rng.randrange(len(faces))
                    acts.append((A_SET_FIELD, "state", site, TOP, face))
            return [Move(-1, -1, 0, acts, then)]
        return roll


@ludeme("count", "Pips")
class CountPips(IntFn):
    """`(count Pips)`: the sum of the values the dice show."""

    params = ()

    def compile(self, env):
        sets = dice_sets(env, self)
        return lambda c: sum(face_value(c.s, d, site) for d in sets for site in d.sites)


@ludeme("face")
class Face(IntFn):
    """`(face <site>)`: the value the die at a site shows (-1 when no die is there)."""

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
