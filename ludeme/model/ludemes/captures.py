"""Capture sequences and promotion: what draughts-like games add to the moves."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_FLIP, Move
from .base import IntFn, Moves, P, Region, RoleType, SiteType, ludeme
from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import RUN_REFUSAL, Unsupported
from .board_fns import first_named
from .moves import MoveHop, _hop_moves, _then


@ludeme("sites", "ToClear")
class SitesToClear(Region):
    """`(sites ToClear)`: the sites marked for removal at the end of the turn (Ludii's
    `piecesToRemove`), in increasing order. Example, a capture sequence that may not
    jump a piece twice: `(between if:(and (not (is In (between) (sites ToClear)))
    ("IsEnemyAt" (between))) (apply (remove (between) at:EndOfTurn)))`."""

    params = (P("type", SiteType, opt=True),)

    def compile(self, env):
        return lambda c: sorted(c.s.to_clear)

    def predicate(self, env):
        return lambda c, site: site in c.s.to_clear


@emits(SitesToClear, kind="contains", refuses=("type",))
def _to_clear_contains(src, lud, site):
    return f"(0 <= {site} < TOTAL and sc[CLEAR + {site}] != 0)"


@emits(SitesToClear, kind="sites", refuses=("type",))
def _to_clear_sites(src, lud):
    return "range(TOTAL)", lambda v: f"sc[CLEAR + {v}] != 0"


@emits(SitesToClear, kind="for_region", refuses=("type",))
def _to_clear_loop(src, lud, out, ind, body):
    out.append(f"{ind}for site in range(TOTAL):")
    out.append(f"{ind}    if sc[CLEAR + site] != 0:")
    out.extend(f"{ind}        {x}" for x in body)


@ludeme("promote")
class Promote(Moves):
    """`(promote [<site>] (piece "Name"|<id>|{"Name" ...}) [<role>] [(then ...)])`: the piece
    at the site (the destination by default) becomes the named piece, as Ludii's Promote:
    one move per piece named; with a role, the piece whose name contains that name owned
    by that player; the new owner is the new piece's.
    Example: `(promote (last To) (piece "DoubleCounter") Mover)`."""
    concepts = ("PromotionEffect",)

    params = (P("type", SiteType, opt=True), P("where", IntFn, opt=True),
              P("piece", "PieceRef"), P("role", RoleType, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        where = env.compile(self.where) if self.where is not None else (lambda c: c.to)
        piece = self.piece
        if piece.role is not None or piece.state is not None:
            raise piece.fail("give the owner to (promote ...), not to (piece ...)")
        components = env.components
        by_name = env.equipment.component_names()
        owner = env.role_id(self.role, self) if self.role is not None else None
        # Each piece named: a fixed name, or a component id whose name is read at run time.
        name_fns = []
        for name in piece.name:
            if isinstance(name, str):
                if not any(name in comp.name for comp in components[1:]):
                    # Ludii loads a game promoting to a piece it lacks, and fails only
                    # when the promotion happens (Promote.eval or ActionPromote.apply).
                    name_fns.append(lambda c, name=name: _no_piece_to_promote_to(piece, name))
                    continue
                name_fns.append(lambda c, name=name: name)
            else:
                idf = env.compile(name)
                name_fns.append(lambda c, idf=idf: components[idf(c)].name
                                if 0 < idf(c) < len(components) else None)

        def target(c, name):
            if name is None:
                return 0
            if owner is None:
                return by_name.get(name, 0)
            pid = owner(c)
            return next((comp.index for comp in components[1:]
                         if name in comp.name and comp.owner == pid), 0)
        then = _then(env, self)

        def promote(c):
            site = where(c)
            if site < 0:
                return []
            out = []
            occupied = c.s.what[site] > 0
            if occupied and c.stacking and c.s.size_stack(site) == 1 \
                    and components[c.s.what[site]].owner != 0 and not c.g.walks_stack_lists:
                # Ludii's ActionPromote in a stacking game forgets to drop a piece alone on
                # its site from its owner's list of pieces, and (forEach Piece) goes on
                # generating that piece's moves there: a game whose store keeps no lists
                # (of several site types) cannot follow.
                raise self.fail("(promote ...) of a piece alone on its site in a stacking "
                                "game of several site types is not supported yet (Ludii "
                                "keeps the old piece in its owner's list of pieces)")
            for name_fn in name_fns:
                what = target(c, name_fn(c))
                if what <= 0:
                    continue
                who = components[what].owner if occupied else 0
                out.append(Move(site, site, 0, [(A_FLIP, site, who, what)], then))
            return out
        return promote


def _no_piece_to_promote_to(piece, name: str):
    raise piece.fail(f"no piece called {name!r} to promote to (Ludii loads this game and "
                     "stops here too)")


@ludeme("move", "Promote")
class MovePromote(Promote):
    """`(move Promote [<site>] (piece ...) [<role>] [(then ...)])`: a decision to promote the
    piece at the site, one per piece named (Ludii's Promote as a decision).
    Example: `(move Promote (last To) (piece {"Queen" "Knight"}) Mover)`."""
    concepts = ("PromotionDecision",)


@ludeme("hop")
class Hop(MoveHop):
    """`(hop ...)`: Ludii's Hop effect, the same moves as `(move Hop ...)` where a rule
    asks whether a hop is possible, e.g. `(can Move (hop (from (last To)) ...))`."""
    concepts = ("HopEffect", "-to.apply", "HopCapture if between.apply has RemoveEffect", "ReplacementCapture if to.apply has RemoveEffect", "AdjacentDirection if not dirn")


# The Hop effect gives `(move Hop ...)`'s moves: one compiled form for both.
emits(Hop, kind="moves")(_hop_moves)


def _promotion_targets(src, lud) -> list[str]:
    """Per piece named, the expression of the component it promotes to (0: none), as
    `Promote.compile`'s `target`: by name, or the named piece of the role's player."""
    piece = lud.piece
    if piece.role is not None or piece.state is not None:
        raise Unsupported(lud, "with an owner given to (piece ...)")
    components = src.game.components
    by_name = src.env.equipment.component_names()
    out = []
    for name in piece.name:
        if not isinstance(name, str):
            out.append(_promotion_by_id(src, lud, name))
            continue
        if not any(name in comp.name for comp in components[1:]):
            raise Unsupported(lud, f"to {name!r}, a piece the game lacks")
        if lud.role is None:
            out.append(str(by_name.get(name, 0)))
            continue
        first = first_named(components, name)
        per = [first.get(p, 0) for p in range(src.game.num_players + 2)]
        pid = src.role_expr(lud.role, lud)
        out.append(f"({src.table(per)}[{pid}] if 0 <= {pid} < {len(per)} else 0)")
    return out


def _promotion_by_id(src, lud, idf) -> str:
    """The component a piece given by its id promotes to, as `Promote.compile` reads it: the
    id's component's name (none outside 1..n-1), then that name looked up as a fixed name
    is, a table by id (and by the role's player)."""
    components = src.game.components
    by_name = src.env.equipment.component_names()
    n = len(components)
    i = src.int_expr(idf)
    if lud.role is None:
        per_id = [0] + [by_name.get(comp.name, 0) for comp in components[1:]]
        return f"({src.table(per_id)}[{i}] if 0 < {i} < {n} else 0)"
    players = src.game.num_players + 2
    per = [[0] * players] + [[first_named(components, comp.name).get(p, 0)
                              for p in range(players)] for comp in components[1:]]
    pid = src.role_expr(lud.role, lud)
    return (f"({src.table(per)}[{i}, {pid}] if 0 < {i} < {n} and 0 <= {pid} < {players} "
            f"else 0)")


@emits(Promote, kind="consequent", refuses=(("type", "on other site types"),
                                            ("then", "as a consequent")))
def _promote_consequent(src, lud, lines, ind):
    """The piece at the site becomes each piece named in turn (its owner the new piece's,
    none on an empty site). In a stacking game, the top piece (none on an empty site); a
    player's piece alone on its site fails, as in the reference (`Promote.compile`), refused
    at run time as there (`RUN_REFUSAL`)."""
    where = src.int_expr(lud.where) if lud.where is not None else "to"
    lines += [f"{ind}ps = {where}", f"{ind}if ps >= 0:", f"{ind}    pw = what[ps]"]
    if src.game.stacking:
        lines += [f"{ind}    if pw > 0 and count[TOTAL + ps] == 1 and OWNER[pw] != 0:",
                  f"{ind}        raise ValueError('{RUN_REFUSAL}(promote ...) of a piece "
                  "alone on its site in a stacking game')"]
        for target in _promotion_targets(src, lud):
            lines += [f"{ind}    w = {target}", f"{ind}    if w > 0:",
                      f"{ind}        stack_set_top(who, what, count, ps, OWNER[w], w)"]
        return
    for target in _promotion_targets(src, lud):
        lines += [f"{ind}    w = {target}", f"{ind}    if w > 0:",
                  f"{ind}        journal(count, ps)",
                  f"{ind}        who[ps] = OWNER[w] if pw > 0 else 0",
                  f"{ind}        what[ps] = w"]


@emits(Promote, kind="effect", refuses=(("type", "on other site types"),
                                        ("then", "as an effect")))
def _promote_effect(src, lud, body):
    """As a consequent (`_promote_consequent`), where another move's effect makes it (an
    (apply ...)): the reference adds its action to the move's own, made on the position
    the move is made in, as the effect is applied."""
    _promote_consequent(src, lud, body, "")


# (move Promote ...) as a consequent is applied as `(promote ...)` is: the same class in
# Ludii, the same moves here.
emits(MovePromote, kind="consequent", refuses=(("type", "on other site types"),
                                               ("then", "as a consequent")))(_promote_consequent)


@emits(MovePromote, kind="moves", refuses=(("type", "on other site types"),))
def _promote_moves(src, lud, out, ind):
    """A decision per piece named: the generator is one, the new piece its extra number."""
    g = src.new_generator(["who[frm] = OWNER[x] if what[frm] > 0 else 0", "what[frm] = x"],
                          lud=lud, kind=A_FLIP)
    where = src.int_expr(lud.where) if lud.where is not None else "to"
    out.append(f"{ind}ps = {where}")
    out.append(f"{ind}if ps >= 0:")
    for target in _promotion_targets(src, lud):
        out.append(f"{ind}    w = {target}")
        out.append(f"{ind}    if w > 0:")
        src.push(out, ind + "        ", "ps", "ps", g, "w")
