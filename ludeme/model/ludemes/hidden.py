"""Hidden information (Ludii's effect/set/hidden and booleans/is/hidden): `(set Hidden ...)`
hides a site's piece, or some of its data, from players; `(is Hidden ...)` reads it.

The flags live in the state's notes, one set of (site, player) per datum (None: the whole
piece, Ludii's "invisible"); a piece moved takes its flags along (Ludii's ActionMove).
Only level 0 of a flat board is supported: a level, or a stacking game, is refused."""

from __future__ import annotations

# Every ludeme here declares its concepts.
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_SET_HIDDEN, Move
from .base import Bool, Enum, IntFn, LitBool, Moves, Other, P, Region, RoleType, SiteType, ludeme
from .moves import typed_sites

HiddenData = Enum("HiddenData", "What Who State Count Rotation Value")


def _who_fn(env, lud):
    """c -> the players the flags are for: the real players a role names (All, Enemy, ...),
    or the one player given, if it is a real player (Ludii's SetHidden)."""
    n = env.num_players
    if isinstance(lud.to, str):
        players = env.role_players(lud.to, lud)
        return lambda c: sorted(p for p in players(c) if 1 <= p <= n)
    who = env.compile(lud.to)
    return lambda c: [p] if 1 <= (p := who(c)) <= n else []


def _check_flat(lud, env) -> None:
    """Refuse what is not modelled: a level, and a site type other than the board's own but
    Cell, which names the hands' sites (cells in Ludii whatever the board; a board cell is
    refused where it is reached: see moves.typed_sites)."""
    lud.refuse("level", why="hidden information at a level of a stack")
    if lud.type not in (None, env.board.site_type, "Cell"):
        raise lud.fail(f"(... Hidden {lud.type} ...) on a board played on "
                       f"{env.board.site_type} sites is not supported yet")


def _refuse_stacks(lud, c):
    if c.stacking:
        raise lud.fail("hidden information in a stacking game is not supported yet")


_SET_PARAMS = (P("data", HiddenData, opt=True, many=True), P("type", SiteType, opt=True),
               P("at", IntFn, opt=True, named=True), P("region", Region, opt=True),
               P("level", IntFn, opt=True, named=True), P("value", (LitBool, Bool), opt=True),
               P("to", (RoleType, IntFn), named=True), P("then", "Then", opt=True))


def _hidden_actions(lud, env):
    """c -> the actions of a (set Hidden ...): a flag per datum, site and player."""
    _check_flat(lud, env)
    if (lud.at is None) == (lud.region is None):
        raise lud.fail("(set Hidden ...) takes at:<site> or a region")
    env.hidden_info = True
    where = typed_sites(env, lud, lud.at if lud.at is not None else lud.region, lud.type, None)
    value = True if lud.value is None else lud.value      # Ludii's default: hide
    hidden = (lambda c: value) if isinstance(value, bool) else env.compile(value)
    data = list(lud.data) if lud.data else [None]
    players = _who_fn(env, lud)

    def actions(c):
        _refuse_stacks(lud, c)
        sites = where(c)
        h = bool(hidden(c))
        who = players(c)
        return [(A_SET_HIDDEN, site, d, p, h) for d in data for site in sites if site >= 0
                for p in who]
    return actions


# Ludii's concepts of (set Hidden <data> ...), per datum hidden; the effect also names
# the SetHidden<datum> one.
_DATA_CONCEPTS = ("HidePieceType if data == What", "HidePieceOwner if data == Who",
                  "HidePieceCount if data == Count", "HidePieceValue if data == Value",
                  "HidePieceRotation if data == Rotation", "HidePieceState if data == State")
_SET_DATA_CONCEPTS = ("SetHiddenWhat if data == What", "SetHiddenWho if data == Who",
                      "SetHiddenCount if data == Count", "SetHiddenValue if data == Value",
                      "SetHiddenRotation if data == Rotation",
                      "SetHiddenState if data == State")


@ludeme("set", "Hidden")
class SetHidden(Moves):
    """`(set Hidden [<data> | {<data>}] [<type>] (at:<site> | <region>) [level:] [<bool>]
    to:<player|role> [(then ...)])`: hide (or, with False, show) the piece at the sites, or
    the data named (What, Who, State, Count, Rotation, Value), from the players (Ludii's
    SetHidden: one move, whatever it holds). Example:

        (set Hidden What at:(last To) False to:P1)
    """
    concepts = ("HiddenInformation", "InvisiblePiece if not data", "SetInvisible if not data",
                *_DATA_CONCEPTS, *_SET_DATA_CONCEPTS)

    params = _SET_PARAMS

    def compile(self, env):
        from .moves import _then
        actions = _hidden_actions(self, env)
        then = _then(env, self)
        return lambda c: [Move(-1, -1, 0, actions(c), then)]


@ludeme("set", "Hidden")
class SetHiddenStart(Other):
    """`(set Hidden ...)` as a start rule: one start move holding the flags, its sites read
    in the position it is played in. Example: `(set Hidden (sites Occupied by:P1) to:P2)`.
    Ludii's start form names no SetInvisible (SetHidden) concept, only the piece's."""
    concepts = ("HiddenInformation", "InvisiblePiece if not data", *_DATA_CONCEPTS)

    params = _SET_PARAMS

    def start_actions(self, env, ctx) -> list:
        self.refuse("then", why="consequents of a start rule")
        return [_hidden_actions(self, env)]


@ludeme("is", "Hidden")
class IsHidden(Bool):
    """`(is Hidden [<data>] [<type>] at:<site> [level:] to:<player|role>)`: the piece at the
    site (or that datum of it) is hidden from the player. Example:
    `(is Hidden at:(to) to:Mover)`."""
    concepts = ("HiddenInformation",)

    params = (P("data", HiddenData, opt=True), P("type", SiteType, opt=True),
              P("at", IntFn, named=True), P("level", IntFn, opt=True, named=True),
              P("to", (RoleType, IntFn), named=True))

    def compile(self, env):
        _check_flat(self, env)
        at = typed_sites(env, self, self.at, self.type, None)
        key = ("hidden", self.data)
        players = _who_fn(env, self)

        def is_hidden(c):
            _refuse_stacks(self, c)
            site, = at(c)
            flags = c.s.notes.get(key, ())
            who = players(c)
            return bool(who) and all((site, p) in flags for p in who)
        return is_hidden


@ludeme("sites", "Hidden")
class SitesHidden(Region):
    """`(sites Hidden [<data>] [<type>] to:<player|role>)`: the board sites whose piece (or
    that datum of it) is hidden from the player, in increasing order. Example:
    `(sites Hidden What to:Mover)`."""
    concepts = ("HiddenInformation",)

    params = (P("data", HiddenData, opt=True), P("type", SiteType, opt=True),
              P("to", (RoleType, IntFn), named=True))

    def compile(self, env):
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(sites Hidden {self.type} ...) on a board played on "
                            f"{env.board.site_type} sites is not supported yet")
        if isinstance(self.to, str) and self.to in ("All", "Each", "Enemy", "NonMover",
                                                    "Friend", "Ally", "Any", "Shared"):
            raise self.fail(f"(sites Hidden ... to:{self.to}) of several players is not "
                            "supported yet")
        key = ("hidden", self.data)
        players = _who_fn(env, self)
        n = env.num_board_sites

        def sites_hidden(c):
            _refuse_stacks(self, c)
            who = players(c)
            flags = c.s.notes.get(key, ())
            return sorted(site for site, p in flags if p in who and site < n)
        return sites_hidden


__all__ = ["HiddenData", "IsHidden", "SetHidden", "SetHiddenStart", "SitesHidden"]
