"""The game's frame: game, players, equipment items, rules, start rules, phases, end rules.

These are assembled by `ludeme.model.build`; end rules compile to closures
`c -> list[Result | None]`.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import Result
from .base import Bool, DirWord, EndRule, Enum, IntFn, Item, LitBool, LitInt, LitStr, Moves, GraphFn, Other, P, Region, RoleType, SiteType, ludeme
from ludeme.engine.compiled.emit import Unsupported, emits, part_of


@ludeme("game")
class GameLudeme(Other):
    """`(game "Name" (players ...) (equipment {...}) (rules ...))`."""

    params = (P("name", LitStr), P("players", "Players", opt=True),
              P("equipment", "Equipment", opt=True), P("rules", "Rules"))


@ludeme("players")
class Players(Other):
    """`(players 2)` or `(players {(player N) (player S)})`."""

    params = (P("count", LitInt, opt=True), P("players", "Player", opt=True, many=True))

    def validate(self):
        if self.count is None and not self.players:
            raise self.fail("(players N) needs a number of players")
        n = self.count if self.count is not None else len(self.players)
        if not 1 <= n <= 16:
            raise self.fail(f"a game has 1 to 16 players, not {n}")

    @property
    def n(self) -> int:
        return self.count if self.count is not None else len(self.players)


@ludeme("player")
class Player(Other):
    """`(player N)`: a player facing a direction."""
    concepts = ("PlayersWithDirections if dirn",)

    params = (P("dirn", DirWord, opt=True), P("name", LitStr, opt=True))


@ludeme("equipment")
class Equipment(Other):
    """`(equipment {items})`."""

    params = (P("items", Item, many=True),)


@ludeme("piece")
class Piece(Item):
    """`(piece "Name" [Each|P1|...] [dirn] [moves])`: without a role, one piece per player
    (Ludii's default role is Each)."""
    concepts = ("Piece", "ForEachPiece if generator", "ControlFlowStatement if generator", "MarkerComponent if name == Marker", "DiscComponent if name == Disc", "PawnComponent if name == Pawn", "KingComponent if name == King|King_noCross|king|king_nocross", "QueenComponent if name == Queen", "KnightComponent if name == Knight", "RookComponent if name == Rook", "BishopComponent if name == Bishop|Bishop_noCross|bishop|bishop_nocross", "BallComponent if name == Ball")

    params = (P("name", LitStr), P("role", RoleType, opt=True, default="Each"),
              P("dirn", DirWord, opt=True), P("flips", "Flips", opt=True),
              P("generator", Moves, opt=True),
              P("maxState", LitInt, opt=True, named=True),
              P("maxCount", LitInt, opt=True, named=True),
              P("maxValue", LitInt, opt=True, named=True))


@ludeme("hand")
class Hand(Item):
    """`(hand Each|P1 [size:N])`: an off-board container per player."""
    concepts = ("Hand",)

    params = (P("role", RoleType), P("size", LitInt, opt=True, named=True, default=1))


@ludeme("regions")
class Regions(Item):
    """`(regions ["Name"] [P1] (sites ...) | {sites})`: a named region, maybe per player."""
    concepts = ("Region",)

    params = (P("name", LitStr, opt=True), P("role", RoleType, opt=True),
              P("region", (Region,), opt=True, many=True))


@ludeme("rules")
class Rules(Other):
    """`(rules [(meta ...)] [(start ...)] [(play ...)] [phases:{...}] (end ...))`."""

    params = (P("meta", "Meta", opt=True), P("start", "Start", opt=True),
              P("play", "Play", opt=True), P("phases", "Phase", opt=True, named=True, many=True),
              P("end", "End", opt=True))


@ludeme("meta")
class Meta(Other):
    """`(meta (swap))`, `(meta (passEnd NoEnd))` and other meta rules."""
    concepts = ("Meta",)

    params = (P("rules", Other, many=True),)


@ludeme("passEnd")
class PassEnd(Other):
    """`(passEnd NoEnd)`: a round of passes does not end the game (Ludii: NotAllPass)."""

    params = (P("kind", Enum("PassEndType", "NoEnd Draw")),)


@ludeme("swap")
class Swap(Other):
    """`(swap)`: the second player may swap sides on their first move."""
    concepts = ("SwapOption", "SwapPlayersDecision")

    params = ()


@ludeme("automove")
class Automove(Other):
    """`(automove)`: every legal move carries the moves that are then forced, as Ludii's
    Automove: after the move (and what it already carries), the mover's phase's moves
    are generated; those to a site no other of them goes to are added to the move as its
    consequents, and this repeats until none is left (Trax's forced tiles):
    `(meta (automove))`."""
    concepts = ("AutoMove",)

    params = ()


@ludeme("start")
class Start(Other):
    """`(start (place ...))` or `(start {(place ...) (set Team ...) ...})`."""
    concepts = ("Start",)

    params = (P("rules", Other, many=True),)


@ludeme("set", "Team")
class SetTeam(Other):
    """`(set Team <n> {P1 P3})`: players of a team (a start rule)."""
    concepts = ("Team",)

    params = (P("team", LitInt), P("roles", RoleType, many=True))


@ludeme("place")
class Place(Other):
    """`(place "Item" ["Container"] [<siteType>] site|region|"Hand" [count:N] [state:N]
    [rotation:N] [value:N])`; the site type, when given, is the board's own. A rotation
    (evaluated before play) turns the piece's facing right that many times, as its
    relative directions read it. The value is read once each time the rule is played, as
    Ludii's PlaceItem reads it, so `value:(value Random (range 1 4))` draws afresh in
    every game."""
    concepts = ("PiecesPlacedOutsideBoard if container", "PiecesPlacedOutsideBoard if where is handSite", "PiecesPlacedOnBoard if not container and not where is handSite", "PieceCount if not count == 1", "SiteState if state", "PieceValue if value")

    params = (P("item", LitStr), P("container", LitStr, opt=True), P("type", SiteType, opt=True),
              P("where", (Region, IntFn), opt=True),
              # {<int> <int function> ...}: sites computed before play (Coil's corners)
              P("locs", IntFn, opt=True, many=True),
              P("coord", LitStr, opt=True, named=True),
              P("count", LitInt, opt=True, named=True, default=1),
              P("counts", LitInt, opt=True, named=True, many=True),
              P("state", LitInt, opt=True, named=True),
              P("rotation", IntFn, opt=True, named=True),
              # an int function: read when the rule is played ((value Random ...) draws)
              P("value", (LitInt, IntFn), opt=True, named=True))


@ludeme("play")
class Play(Other):
    """`(play <moves>)`."""

    params = (P("moves", Moves),)


@ludeme("phase")
class Phase(Other):
    """`(phase "Name" [role] (play ...) [(end ...)] [(nextPhase ...)|{...}])`.

    Declares no concept itself: as in Ludii's `Game.computeBooleanConcepts`, the
    Phase concept belongs to games with more than one phase (`frame_concepts`)."""

    params = (P("name", LitStr), P("role", RoleType, opt=True), P("play", "Play"),
              P("end", "End", opt=True), P("next", "NextPhase", opt=True, many=True))


@ludeme("nextPhase")
class NextPhase(Other):
    """`(nextPhase [role] [condition] ["Phase"])`."""

    params = (P("role", RoleType, opt=True, default="Shared"), P("cond", Bool, opt=True),
              P("phase", LitStr, opt=True))


@ludeme("end")
class End(Other):
    """`(end <rule>)` or `(end {rules})`."""

    params = (P("rules", EndRule, many=True),)


@ludeme("result")
class ResultL(Other):
    """`(result <role> Win|Loss|Draw|Tie)`."""
    concepts = ("Draw if kind == Draw",)

    params = (P("role", RoleType), P("kind", Enum("ResultType", "Win Loss Draw Tie Abandon")))

    def compile(self, env):
        kind = self.kind_
        if self.role == "All":
            res = Result(0, kind)
            return lambda c: res
        if "Team" in self.role:
            if not env.teams:
                # Ludii loads it (its Result accepts TeamMover whatever the teams) and reads
                # the mover's team through State.getTeam, unchecked here against its source.
                raise self.fail(f"(result {self.role} ...) in a game without teams ((set Team "
                                "...) in the start rules) is not supported yet")
            team = env.team_id(self.role, self)
            return lambda c: Result(team(c), kind, team=True)
        who = env.role_id(self.role, self)
        return lambda c: Result(who(c), kind)


@ludeme("if")
class EndIf(EndRule):
    """`(if <condition> [<if> | {<if> ...}] [(result ...)])`: when the condition holds, the
    first inner rule that gives a result, else the result (Ludii's end If).
    Example: `(if (is Triggered "End" Mover) (if (no Moves Next) (result Next Loss))
    (result Mover Win))`."""
    concepts = ("@end cond result",)

    params = (P("cond", Bool), P("rules", EndRule, opt=True, many=True),
              P("result", "ResultL", opt=True))

    def compile(self, env):
        cond = env.compile(self.cond)
        res = env.compile(self.result) if self.result is not None else None
        if not self.rules:
            if res is None:
                raise self.fail("(if ...) as an end rule needs a result or inner rules")
            return lambda c: [res(c)] if cond(c) else ()
        inner = [env.compile(r) for r in self.rules]

        def eval_if(c):
            if not cond(c):
                return ()
            for r in inner:
                got = r(c)
                if got:
                    return got
            return [res(c)] if res is not None else ()
        return eval_if


@ludeme("forEach", "NonMover")
class EndForEachNonMover(EndRule):
    """`(forEach NonMover if:<cond> (result Player ...))`: each other player in turn."""
    concepts = ("@end if result",)

    params = (P("if", Bool, named=True, opt=True), P("result", "ResultL"))

    def compile(self, env):
        return _end_for_each(env, self, lambda c, p: p != c.s.mover)


@ludeme("forEach", "Player")
class EndForEachPlayer(EndRule):
    """`(forEach Player if:<cond> (result Player ...))`."""
    concepts = ("@end if result",)

    params = (P("if", Bool, named=True, opt=True), P("result", "ResultL"))

    def compile(self, env):
        return _end_for_each(env, self, lambda c, p: True)


def _end_for_each(env, lud, include):
    cond = env.compile(lud.if_) if lud.if_ is not None else (lambda c: True)
    res = env.compile(lud.result)
    n = env.num_players

    def each(c):
        out = []
        saved = c.player
        for p in range(1, n + 1):
            if not include(c, p):
                continue
            c.player = p
            if cond(c):
                out.append(res(c))
        c.player = saved
        return out
    return each


__all__ = ["IntFn"]


@ludeme("map")
class MapL(Item):
    """`(map ["Name"] {(pair k v) ...})`: a fixed table from keys to values."""

    params = (P("name", LitStr, opt=True), P("pairs", "Pair", many=True))

    def entries(self) -> list[tuple]:
        """(key, value, where an error points) for each entry written."""
        return [(p.key, p.value, p) for p in self.pairs]


@ludeme("map")
class MapInts(MapL):
    """`(map ["Name"] {<int> ...} {<int> ...})`: the i-th key to the i-th value, e.g.
    `(map {1..9} {1 2 4 8 16 32 64 128 256})` (Ludii's second Map constructor)."""

    params = (P("name", LitStr, opt=True), P("keys", IntFn, many=True),
              P("values", IntFn, many=True))

    def entries(self) -> list[tuple]:
        keys, values = self.keys, self.values
        if len(keys) != len(values):        # Ludii refuses it too
            raise self.fail(f"a map needs as many keys as values, found {len(keys)} keys "
                            f"and {len(values)} values")
        return [(k, v, self) for k, v in zip(keys, values)]


# Named board sites a map can give (Ludii's LandmarkType).
LandmarkType = Enum("LandmarkType", "CentreSite LeftSite RightSite Topsite BottomSite FirstSite "
                    "LastSite")


@ludeme("pair")
class Pair(Other):
    """`(pair <key> <value>)`: keys are integers, roles, site labels ("B1") or integer
    functions read before play ((coord "F2")); values also piece names and landmarks."""

    params = (P("key", (LitInt, RoleType, LitStr, IntFn)),
              P("value", (LitInt, RoleType, LitStr, LandmarkType, IntFn)))


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

part_of(ResultL, parent="the end rule that holds it")


@emits(EndForEachNonMover, EndForEachPlayer, kind="end")
def _for_each_player_end(src, lud, out, ind):
    """Each player in turn (but the mover, for NonMover) as `(player)`. Ludii collects the
    results of every player, then applies them; the conditions compiled read nothing that
    a result changes."""
    out.append(f"{ind}mover0 = mover")
    out.append(f"{ind}for player in range(1, NP + 1):")
    skip = "player != mover0" if type(lud) is EndForEachNonMover else "True"
    out.append(f"{ind}    if {skip}:")
    src.player_bound = True
    try:
        _end_result(src, lud.if_, lud.result, out, ind + "        ")
    finally:
        src.player_bound = False


@emits(EndIf, kind="end")
def _if_end(src, lud, out, ind):
    """The result when the condition holds; with inner rules, the first of them that gives
    a result gives the game's (each inner rule any end rule), else the (if ...)'s own
    result, if any: a flag set by every result met (`_end_result`) says one was given."""
    if not lud.rules:
        if lud.result is None:
            raise Unsupported(lud, "without a result")
        _end_result(src, lud.cond, lud.result, out, ind)
        return
    flag = f"fired_{len(src.end_fired)}"
    out.append(f"{ind}if {src.bool_expr(lud.cond)}:")
    out.append(f"{ind}    {flag} = False")
    src.end_fired.append(flag)
    try:
        for i, r in enumerate(lud.rules):
            inner = ind + "    "
            if i:
                out.append(f"{inner}if not {flag}:")
                inner += "    "
            src.end_rule(r, out, inner)
            if getattr(r, "always_results", False):
                # A rule that always gives a result (byScore) need not go by `_end_result`.
                out.extend(f"{inner}{f} = True" for f in src.end_fired)
    finally:
        src.end_fired.pop()
    if lud.result is not None:
        out.append(f"{ind}    if not {flag}:")
        _end_result(src, None, lud.result, out, ind + "        ")


def _team_expr(src, res) -> str:
    """The team a result's role names (the reference's `Roles.team_fn`; 0: none)."""
    if not src.env.teams:
        raise res.fail(f"{res.role} needs teams: (set Team ...) in the start rules")
    role = res.role
    holder = {"TeamMover": "mover", "MoverTeam": "mover", "NextTeam": "nxt",
              "PrevTeam": "prev"}.get(role)
    if holder is not None:
        return f"max(0, TEAM[{holder}])"
    if role.startswith("Team") and role[4:].isdigit():
        return str(int(role[4:]))
    raise Unsupported(res, f"for the team {role}")


def _end_result(src, cond, res, out: list[str], ind: str) -> None:
    """`(result ...)` when `cond` (None: always) holds."""
    team = "Team" in res.role and res.role != "All"
    if res.role == "All":
        who = "0"
    elif team:
        who = _team_expr(src, res)
    else:
        who = src.player_expr(res.role, res)
    kind = {"Win": "WIN", "Loss": "LOSS"}.get(res.kind_, "DRAW")     # rt's result codes
    n = src.game.num_players
    out.append(f"{ind}if {src.bool_expr(cond) if cond is not None else 'True'}:")
    out.extend(f"{ind}    {flag} = True" for flag in src.end_fired)    # see `_if_end`
    out.append(f"{ind}    rw = {who}")
    # As the reference: a team's number is read as a player's here (an inactive player of
    # that number stops the team's result), and a team's Loss or Draw ends nothing.
    out.append(f"{ind}    if rw == 0 or rw == {n + 1} or active[rw]:")
    if team:
        out.append(f"{ind}        apply_team_win(sc, rk, active, {n}, rw, TEAM)" if kind == "WIN"
                   else f"{ind}        pass")
    else:
        out.append(f"{ind}        apply_result(sc, rk, active, {n}, rw, {kind})")
    out.append(f"{ind}        mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]")
