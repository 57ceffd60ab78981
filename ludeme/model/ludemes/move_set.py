"""`(move Set ...)`: Ludii's set effects as decisions (game.rules.play.moves.decision,
MoveSetType)."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.compiled.emit import emits
from ludeme.engine.state import A_NEXT, A_SET_FIELD, Move
from ludeme.engine.stores import TOP
from .base import Bool, Enum, IntFn, Moves, P, ludeme
from .moves import _then

MoveSetType = Enum("MoveSetType", "NextPlayer")


@ludeme("move", "Set")
class MoveSet(Moves):
    """`(move Set NextPlayer <player> [(then ...)])`: a decision (from = to = -1) naming who
    moves after this turn, as Ludii's SetNextPlayer (no move for an id that is not a
    player's). Example: `(or (move Add (to (sites Empty))) (move Set NextPlayer
    (player (next))))`."""
    concepts = ("SetNextPlayer",)

    params = (P("what", MoveSetType), P("player", IntFn, opt=True),
              P("then", "Then", opt=True))

    def validate(self):
        if self.what != "NextPlayer":
            raise self.fail(f"(move Set {self.what} ...) is not supported yet")
        if self.player is None:
            raise self.fail("(move Set NextPlayer ...) needs the player")

    def compile(self, env):
        who = env.compile(self.player)
        then = _then(env, self)
        n = env.num_players

        def set_next(c):
            p = who(c)
            if not 1 <= p <= n:
                return []
            return [Move(-1, -1, c.s.mover, [(A_NEXT, p)], then)]
        return set_next


@emits(MoveSet, kind="moves")
def _move_set_next_moves(src, lud, out, ind):
    """One decision (from = to = -1) where the player named is a player: it keeps that
    player's id (its extra) and names them the next mover (an action that lets the turn
    go on, as the reference's A_NEXT)."""
    g = src.new_generator(["sc[NEXT] = x", "sc[REPLAYED] = 1"], lud=lud, kind=A_NEXT)
    d = len(ind)            # a local per depth of nesting
    out.append(f"{ind}nxp_{d} = {src.int_expr(lud.player)}")
    out.append(f"{ind}if 1 <= nxp_{d} <= NP:")
    src.push(out, ind + "    ", "-1", "-1", g, f"nxp_{d}")


def rotation_states(env) -> int:
    """Ludii's Game.maximalRotationStates: the number of directions the board supports
    (here those of the board's own site type; Ludii takes the larger of its cells' and
    vertices', the same on the square and hexagonal tilings)."""
    return len(env.board.directions)


def _set_rotation(env, lud):
    """c -> the moves of Ludii's SetRotation: at the site (`(to ...)`, (from) without it),
    one per rotation given, then the previous rotation and the next (wrapping around the
    rotation states) where `previous:` and `next:` hold (both by default); each a move from
    the site to itself, setting the piece's rotation."""
    to = lud.to
    if to is not None and (to.type not in (None, env.board.site_type) or to.site is None
                           or not isinstance(to.site, IntFn) or to.level is not None
                           or getattr(to, "if_", None) is not None or to.apply is not None):
        raise lud.fail(f"(... Rotation (to ...)) takes one site of the board's own type "
                       f"here (not supported yet otherwise)")
    site = env.compile(to.site) if to is not None else (lambda c: c.from_)
    given = [env.compile(d) for d in lud.directions]
    previous = env.compile(lud.previous) if lud.previous is not None else (lambda c: True)
    following = env.compile(lud.next) if lud.next is not None else (lambda c: True)
    states = rotation_states(env)
    n = env.total_sites
    then = _then(env, lud)
    env.rotated = True              # the compiled turn loop reads no rotation
    env.tables.rotated = True       # relative directions turn with the piece's rotation

    def moves(c):
        at = site(c)
        if not 0 <= at < n:
            return []
        rotations = [d(c) for d in given]
        current = c.s.piece_rotation(at)
        if previous(c):     # Ludii's wrapping, also for a rotation set beyond the states
            rotations.append(current - 1 if current > 0 else states - 1)
        if following(c):
            rotations.append(current + 1 if current < states - 1 else 0)
        mover = c.s.mover
        return [Move(at, at, mover, [(A_SET_FIELD, "rotation", at, TOP, r)], then)
                for r in rotations]
    return moves


_ROTATION_PARAMS = (P("to", "ToSpec", opt=True), P("directions", IntFn, opt=True, many=True),
                    P("previous", Bool, opt=True, named=True),
                    P("next", Bool, opt=True, named=True), P("then", "Then", opt=True))


@ludeme("move", "Set")
class MoveSetRotation(Moves):
    """`(move Set Rotation [(to <site>)] [<int> | {<int>}] [previous:<bool>] [next:<bool>]
    [(then ...)])`: a decision turning the piece at the site ((from) by default): to each
    rotation given, and to the previous and next rotations where `previous:` and `next:`
    hold (True by default), as Ludii's SetRotation. A rotation is a step of the board's
    directions; relative directions (Forward, FR, ...) turn with it. Example:
    `(move Set Rotation {0 2 4 6} previous:False next:False)`."""
    concepts = ("PieceRotation", "RotationDecision")

    params = (P("what", Enum("MoveSetRotationType", "Rotation")),) + _ROTATION_PARAMS

    def compile(self, env):
        assert self.what == "Rotation"     # the one word this reading takes
        return _set_rotation(env, self)


@ludeme("set", "Rotation")
class SetRotation(Moves):
    """`(set Rotation [(to <site>)] [<int> | {<int>}] [previous:<bool>] [next:<bool>]
    [(then ...)])`: as `(move Set Rotation ...)`, as an effect. Example:
    `(set Rotation (to (last To)) {2} previous:False next:False)`."""
    concepts = ("PieceRotation", "SetRotation")

    params = _ROTATION_PARAMS

    def compile(self, env):
        return _set_rotation(env, self)


def _rotations_lines(src, lud, out, ind) -> tuple[str, list[str], str]:
    """Lines that read, as `_set_rotation` does before any is set, the site of a rotation
    setting (`srs_<depth>`) and the rotations it sets, in order (locals, the previous and
    next ones -1 where their condition fails): the site's local, theirs, and the indent of
    the lines inside `if 0 <= site < TOTAL:`, where every line after the first is."""
    d = len(ind)
    at = f"srs_{d}"
    to = lud.to
    site = src.int_expr(to.site) if to is not None else "frm"
    out.append(f"{ind}{at} = {site}")
    out.append(f"{ind}if 0 <= {at} < TOTAL:")
    i2 = ind + "    "
    rots = []
    for i, r in enumerate(lud.directions or ()):
        rots.append(f"srg{i}_{d}")
        out.append(f"{i2}{rots[-1]} = {src.int_expr(r)}")
    states = rotation_states(src.env)
    cur = src.piece_rotation(at)
    for name, cond, turned in (
            ("srp", lud.previous, f"({cur} - 1 if {cur} > 0 else {states - 1})"),
            ("srn", lud.next, f"({cur} + 1 if {cur} < {states - 1} else 0)")):
        rots.append(f"{name}_{d}")
        test = src.bool_expr(cond) if cond is not None else "True"
        out.append(f"{i2}{rots[-1]} = {turned} if {test} else -1")
    return at, rots, i2


@emits(MoveSetRotation, kind="moves")
def _set_rotation_moves(src, lud, out, ind):
    """A move from the site to itself per rotation (`_rotations_lines`), the rotation kept
    in its extra; applied, it sets the piece's rotation (whether or not a piece is there, as
    the reference's A_SET_FIELD)."""
    g = src.new_generator([f"{src.piece_rotation('to')} = x"], lud=lud, kind=A_SET_FIELD)
    at, rots, i2 = _rotations_lines(src, lud, out, ind)
    given = len(lud.directions or ())
    for i, r in enumerate(rots):
        if i < given:
            src.push(out, i2, at, at, g, r)
        else:
            out.append(f"{i2}if {r} >= 0:")
            src.push(out, i2 + "    ", at, at, g, r)


@emits(SetRotation, kind="consequent")
def _set_rotation_consequent(src, lud, lines, ind):
    """As a consequent the reference applies each of its moves in turn: each rotation set
    (`_rotations_lines`), the (then ...) applied after each."""
    from .moves import then_after_move
    at, rots, i2 = _rotations_lines(src, lud, lines, ind)
    given = len(lud.directions or ())
    then = then_after_move(src, lud) if lud.then is not None else []
    for i, r in enumerate(rots):
        body = [f"{src.piece_rotation(at)} = {r}", *then]
        if i < given:
            lines.extend(i2 + x for x in body)
        else:
            lines.append(f"{i2}if {r} >= 0:")
            lines.extend(i2 + "    " + x for x in body)


__all__ = ["MoveSet", "MoveSetRotation", "SetRotation", "rotation_states"]
