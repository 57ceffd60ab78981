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
    actions.hidden_rule = lud       # what it reads (`codegen._fixed_start` asks)
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


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------
# The flags are the kernels' block HID of sc: sc[HID + (d * TOTAL + s) * (NP + 1) + p] is 1
# where datum d (`rt.hidden_datum`) of site s is hidden from player p; a piece's move takes
# them along (`Source.site_move`), the start position's are set by `reset`.

from ludeme.engine.compiled.emit import effect_as_consequent, emits, refuse_stacks  # noqa: E402
from ludeme.engine.compiled.unsupported import Unsupported  # noqa: E402

# The roles naming a set of players (`Roles.set_fn`); any other names one player.
_SETS = ("All", "Each", "Any", "Shared", "Enemy", "NonMover", "Friend", "Ally", "MoverTeam",
         "TeamMover")


def _compiled_check(src, lud) -> None:
    """What the compiled forms refuse beyond the reference's own checks (`_check_flat`):
    stacks, and a game that reads (last To afterConsequence:True)."""
    refuse_stacks(src, lud)
    if lud.level is not None:
        raise Unsupported(lud, "at a level of a stack")
    env = src.env
    if lud.type not in (None, env.board.site_type, "Cell"):
        raise Unsupported(lud, f"of {lud.type} sites on a board played on "
                               f"{env.board.site_type} sites")
    if src.reads_after:
        raise Unsupported(lud, "in a game reading (last To afterConsequence:True)")


def _flag(d: int, site: str, player: str) -> str:
    return f"sc[HID + ({d} * TOTAL + {site}) * (NP + 1) + {player}]"


def _each_player(src, lud, var: str, body: list[str]) -> list[str]:
    """The lines of `body` for each real player `to:` names, as `var` (`_who_fn`)."""
    to = lud.to
    if isinstance(to, str) and (to in _SETS or (to[:4] == "Team" and to[4:].isdigit())):
        if to == "Shared":              # no real player
            return []
        test = "True" if to == "Any" else src.owner_test(to, lud, var)
        return [f"for {var} in range(1, NP + 1):", f"    if {test}:",
                *("        " + x for x in body)]
    if to == "Next":                    # the state's next player now, as `Roles.id_fn`
        one = "sc[NEXT]"
    else:
        one = src.role_expr(to, lud) if isinstance(to, str) else src.int_expr(to)
    return [f"{var} = {one}", f"if 1 <= {var} <= NP:", *("    " + x for x in body)]


@emits(SetHidden, kind="effect")
def _set_hidden_effect(src, lud, body):
    """As `_hidden_actions`: for each datum (the whole piece without one), each site of the
    region (or at:) and each real player of to:, the flag set to the value (True by default),
    one action each."""
    from ludeme.engine.compiled.rt import hidden_datum
    from .moves import _sites_of, typed_site
    _compiled_check(src, lud)
    if (lud.at is None) == (lud.region is None):
        raise Unsupported(lud, "without at:<site> or a region")
    seq, flt = _sites_of(src, lud.at if lud.at is not None else lud.region)
    tests = typed_site(src, lud, "hs_") + (f" and {flt('hs_')}" if flt else "")
    value = "True" if lud.value is None else (
        str(bool(lud.value)) if isinstance(lud.value, bool) else src.bool_expr(lud.value))
    data = [hidden_datum(d) for d in lud.data] if lud.data else [hidden_datum(None)]
    flags = [x for d in data for x in (f"{_flag(d, 'hs_', 'hp_')} = hv_",
                                       "sc[NUM_ACTIONS] += 1")]
    each = _each_player(src, lud, "hp_", flags) or ["pass"]
    body += [f"hv_ = 1 if {value} else 0", f"for hs_ in {seq}:",
             f"    if hs_ >= 0{tests}:", *("        " + x for x in each)]


emits(SetHidden, kind="consequent")(effect_as_consequent(_set_hidden_effect))


def _hidden_sites_test(src, lud):
    """`(sites Hidden [<data>] to:<player>)` as `SitesHidden.compile` reads it: a test of a
    board site (a variable's name), the datum hidden from the one real player to: names
    (a set of players is refused there)."""
    from ludeme.engine.compiled.rt import hidden_datum
    refuse_stacks(src, lud)
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, f"of {lud.type} sites on a board played on "
                               f"{src.env.board.site_type} sites")
    to = lud.to
    if isinstance(to, str) and (to in _SETS or (to[:4] == "Team" and to[4:].isdigit())):
        raise Unsupported(lud, f"to:{to}, a set of players")
    p = "sc[NEXT]" if to == "Next" else \
        src.role_expr(to, lud) if isinstance(to, str) else src.int_expr(to)
    d = hidden_datum(lud.data)
    return lambda v: f"(1 <= {p} <= NP and {_flag(d, v, p)} != 0)"


@emits(SitesHidden, kind="sites")
def _hidden_sites(src, lud):
    """The board's sites in increasing order, those hidden kept (`_hidden_sites_test`)."""
    return "range(N_SITES)", _hidden_sites_test(src, lud)


@emits(SitesHidden, kind="contains")
def _hidden_contains(src, lud, site):
    return f"(0 <= {site} < N_SITES and {_hidden_sites_test(src, lud)(site)})"


@emits(IsHidden, kind="bool")
def _is_hidden(src, lud):
    """As `IsHidden.compile`: the datum of the site hidden from every real player to: names
    (and there is one), by a helper kernel."""
    from ludeme.engine.compiled.rt import hidden_datum
    from .moves import typed_site
    _compiled_check(src, lud)
    d = hidden_datum(lud.data)
    check = typed_site(src, lud, "s")       # " and not_board_site(...)": fails on the board
    lines = [f"    {check.removeprefix(' and ')}"] if check else []
    lines += ["    n_ = 0", *("    " + x for x in _each_player(src, lud, "hp_", [
        "n_ += 1", f"if {_flag(d, 's', 'hp_')} == 0:", "    return False"]))]

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(sc, HID, s, mover, nxt, prev):",
                          "    if s < 0 or s >= TOTAL:",
                          "        return False", *lines, "    return n_ > 0", ""])
    # (handed HID: a reader of the flags, as `moves._READS` sees)
    return f"{src.helper(make)}(sc, HID, {src.int_expr(lud.at)}, mover, nxt, prev)"
