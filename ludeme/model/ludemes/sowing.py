"""Sowing (mancala) ludemes: the board, tracks, `(move Select ...)`, `(sow ...)`,
`(sites Track ...)` and the `(set Count ...)` start rule.

Seeds are counts: a site holds one kind of piece (the game's seed) and how many.
The board `(mancalaBoard ...)` and the tracks are built by `ludeme.model.ludemes.graph.mancala`,
which reads the typed `track` declared here.
"""

from __future__ import annotations

import re

import numpy as np

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_ADD, A_COUNT, A_MOVE, A_SELECT, A_SET_FIELD, Move
from ludeme.engine.stores import TOP
from .base import Bool, Enum, IntFn, LitBool, LitInt, LitStr, Moves, Other, P, Region, RoleType, SiteType, check_start_sites, ludeme
from .effects import applied_actions
from ludeme.engine.compiled.codegen import NO_EFFECT_ACTION, counted_actions, on_track_tables
from ludeme.engine.compiled.emit import LV_AT, LV_TOPS, emit, emits, lookup, refuse
from ludeme.engine.compiled.unsupported import Unsupported


@ludeme("track")
class Track(Other):
    """`(track "Name" "1,E,N,W"|{sites} [loop:] [P1|owner] [directed:])`: built with the board."""
    concepts = ("Track", "TrackLoop if loop", "TrackOwned if owner")

    params = (P("name", LitStr), P("steps", (LitStr, LitInt, Enum("TrackEnd", "End")), many=True),
              P("owner", (LitInt, RoleType), opt=True),
              P("loop", LitBool, opt=True, named=True, default=False),
              P("directed", LitBool, opt=True, named=True, default=False))


def board_track(env, name: str | None, lud, owner: int | None = None):
    """The track a ludeme names (the first one when unnamed), as Ludii picks it: by name, or,
    with an owner, the owner's track whose name contains `name`."""
    tracks = list(getattr(env.board, "track_info", ()))
    if not tracks:
        raise lud.fail("this board has no track; declare one with (track ...) in the board")
    for t in tracks:
        if name is None or (owner is None and t.name == name) or \
                (owner is not None and t.owner == owner and name in t.name):
            return t
    return None


def tracks_by_owner(env, name: str | None, lud) -> dict[int, object]:
    """For each owner p (0 = no owner), the track the ludeme would use for p."""
    tracks = list(getattr(env.board, "track_info", ()))
    if not tracks:
        raise lud.fail("this board has no track; declare one with (track ...) in the board")
    out = {}
    for p in range(0, env.num_players + 1):
        out[p] = board_track(env, name, lud, p if p else None)
    return out


@ludeme("set", "Count")
class SetCount(Other):
    """`(set Count <n> to:<region>|at:<site>)`, a start rule: n of the last declared piece on
    each site (Ludii's SetCount)."""
    concepts = ("PieceCount", "PiecesPlacedOnBoard")

    params = (P("type", SiteType, opt=True), P("count", IntFn),
              P("to", Region, opt=True, named=True), P("at", IntFn, opt=True, named=True))

    def start_actions(self, env, ctx) -> list[list[tuple]]:
        """One start move per site."""
        if len(env.components) < 2:
            raise self.fail("(set Count ...) needs a piece to count")
        if (self.to is None) == (self.at is None):
            raise self.fail("(set Count ...) takes one of to:<region> or at:<site>")
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(set Count {self.type} ...) on other site types is not "
                            "supported yet")
        # Ludii's SetCount makes the game count pieces (GameType.Count, requiresCount): a
        # piece moved or added onto a site holding its kind adds to the count there.
        env.counting = True
        comp = env.components[-1]
        n = env.compile(self.count)(ctx)
        where = env.compile(self.to if self.to is not None else self.at)(ctx)
        # a site below 0 is a label no site has (Off), as (place ...) reads it
        sites = [s for s in ([where] if isinstance(where, int) else list(where)) if s >= 0]
        check_start_sites(env, self, sites, "(set Count ...)")
        # Ludii's ActionSetCount leaves the site's owner at 0
        return [[(A_ADD, s, comp.index, 0, n)] if n > 0 else [(A_COUNT, s, 0)]
                for s in sites]


@ludeme("set", "Count")
class SetCountEffect(Moves):
    """`(set Count at:<site> <n> [(then ...)])`, an effect: the site keeps its piece, now
    `n` of them (Ludii's effect SetCount and ActionSetCount; 0 empties it here). Example:
    `(set Count at:(last To) (- (count at:(last To)) 1))`."""
    concepts = ("SetCount",)

    params = (P("type", SiteType, opt=True), P("at", IntFn, named=True), P("count", IntFn),
              P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        at, count = env.compile(self.at), env.compile(self.count)
        then = _then(env, self)

        def set_count(c):
            site = at(c)
            if site < 0:
                return []
            return [Move(site, site, 0, [(A_COUNT, site, count(c))], then)]
        return set_count


@ludeme("move", "Select")
class MoveSelect(Moves):
    """`(move Select (from <sites> [if:]) [(to <sites> [if:])] [(then ...)])`: a decision that
    only picks a site (from = to), its effect is in its consequents (e.g. a sow). Its one
    action (Ludii's ActionSelect) changes nothing but counts among the move's actions."""
    concepts = ()

    params = (P("from_", "FromSpec"), P("to", "ToSpec", opt=True),
              P("mover", RoleType, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then, typed_sites_fn
        if self.mover is not None:
            raise self.fail("(move Select ... mover:) is not supported yet")
        # Ludii 1.3.12's Select: a level given is the one the decision reports (read before
        # (from) and (to) move to the selected sites); else the top of the stack.
        level_from = env.compile(self.from_.level) if self.from_.level is not None else None
        level_to = env.compile(self.to.level) \
            if self.to is not None and self.to.level is not None else None
        if self.to is not None and self.to.apply is not None:
            raise self.to.fail("(to ... (apply ...)) in (move Select ...) is not supported yet")
        froms = typed_sites_fn(env, self.from_, lambda c: (c.from_,))
        from_cond = env.compile(self.from_.if_) if self.from_.if_ is not None else None
        tos = None if self.to is None else typed_sites_fn(env, self.to, lambda c: (c.to,))
        to_cond = None if self.to is None or self.to.if_ is None else env.compile(self.to.if_)
        then = _then(env, self)
        # Ludii selects a hand's site only by cell: of another type (the board's vertices
        # or edges), a site past the board's own is skipped (a last `to` in a hand selects
        # nothing on a board played on vertices). (from) and (to) each have their own type
        # (the board's when unsaid): a hand's cell may be selected with a vertex.
        limit = self._limit(env, self.from_)
        limit_to = limit if self.to is None else self._limit(env, self.to)

        def select(c):
            out = []
            saved = (c.from_, c.to)
            # Ludii walks a region as a set of sites in increasing order, with (from) and
            # (to) both on the site while testing it.
            stacking = c.stacking
            for frm in sorted(set(froms(c))):
                if not 0 <= frm < limit:
                    continue
                # In a stacking game Ludii's Select reports the levels it selects.
                lf = 0
                if stacking:
                    lf = level_from(c) if level_from is not None else \
                        max(c.s.size_stack(frm) - 1, 0)
                c.from_ = c.to = frm
                if from_cond is not None and not from_cond(c):
                    continue
                if tos is None:
                    out.append(Move(frm, frm, 0, [(A_SELECT, frm, frm)], then, False, lf, lf))
                    continue
                for to in sorted(set(tos(c))):
                    c.from_ = frm
                    lt = 0
                    if stacking and 0 <= to < limit_to:
                        lt = level_to(c) if level_to is not None else \
                            max(c.s.size_stack(to) - 1, 0)
                    c.to = to
                    if 0 <= to < limit_to and (to_cond is None or to_cond(c)):
                        out.append(Move(frm, to, 0, [(A_SELECT, frm, to)], then, False, lf, lt))
            c.from_, c.to = saved
            return out
        return select

    @staticmethod
    def _limit(env, spec):
        """The sites a (from) or (to) of Select may name: every container's cells for a
        Cell, else the board's sites (Ludii skips a site past its type's last)."""
        site_type = spec.type or env.board.site_type
        return env.total_sites if site_type == "Cell" else env.num_board_sites


@ludeme("sow")
class Sow(Moves):
    """`(sow [<site>] [count:] [numPerHole:] ["Track"] [owner:] [if:] [sowEffect:] [apply:]
    [includeSelf:] [origin:] [skipIf:] [backtracking:|forward:] [(then ...)])`: take the seeds
    at a site (by default the last `to`) and drop `numPerHole` on each next site of the track;
    then, while `if:` holds at the last site reached, collect the capture (`apply:`) on the sown
    position, stepping back (`backtracking:`) or on (`forward:`) along the track while that
    condition holds (Ludii's Sow).

    Example: `(sow apply:(if (= 6 (count at:(to))) (fromTo (from (to)) (to (mapEntry Mover))
    count:6)))`."""
    concepts = ("Sow", "CopyContext if apply", "SowWithEffect if apply", "SowRemove if apply has RemoveEffect", "SowCapture if apply has FromToEffect", "SowOriginFirst if not origin == False", "SowSkip if skipIf", "SowSkip if not includeSelf", "SowBacktracking if backtracking")

    params = (P("type", SiteType, opt=True), P("start", IntFn, opt=True),
              P("count", IntFn, opt=True, named=True),
              P("numPerHole", IntFn, opt=True, named=True), P("track", LitStr, opt=True),
              P("owner", IntFn, opt=True, named=True), P("if", Bool, opt=True, named=True),
              P("sowEffect", Moves, opt=True, named=True),
              P("apply", Moves, opt=True, named=True),
              P("includeSelf", LitBool, opt=True, named=True, default=True),
              P("origin", Bool, opt=True, named=True), P("skipIf", Bool, opt=True, named=True),
              P("backtracking", Bool, opt=True, named=True),
              P("forward", Bool, opt=True, named=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        if self.type not in (None, env.board.site_type):
            raise self.fail(f"(sow {self.type} ...) is not supported yet")
        if self.backtracking is not None and self.forward is not None:
            raise self.fail("(sow ...) takes backtracking: or forward:, not both")
        env.counting = True
        start_fn = env.compile(self.start) if self.start is not None else \
            (lambda c: c.s.last_to)
        count_fn = env.compile(self.count) if self.count is not None else None
        per_hole = env.compile(self.numPerHole) if self.numPerHole is not None else None
        owner_fn = env.compile(self.owner) if self.owner is not None else None
        if owner_fn is None:
            fixed, by_owner = board_track(env, self.track, self), None
        else:
            fixed, by_owner = None, tracks_by_owner(env, self.track, self)
        cond = env.compile(self.if_) if self.if_ is not None else (lambda c: True)
        effect = env.compile(self.apply) if self.apply is not None else None
        sow_effect = env.compile(self.sowEffect) if self.sowEffect is not None else None
        include_self = self.includeSelf
        origin = env.compile(self.origin) if self.origin is not None else None
        skip = env.compile(self.skipIf) if self.skipIf is not None else None
        back = env.compile(self.backtracking) if self.backtracking is not None else None
        fwd = env.compile(self.forward) if self.forward is not None else None
        then = _then(env, self)
        step_tables = {}

        def steps(track):
            # by the track itself: each owner's track may carry the same name
            t = step_tables.get(id(track))
            if t is None:
                sites = track.sites
                n = len(sites)
                nxt = [(i + 1) if i + 1 < n else (0 if track.loop else None) for i in range(n)]
                prv = [(i - 1) if i > 0 else (n - 1 if track.loop else None) for i in range(n)]
                t = step_tables[id(track)] = (sites, nxt, prv)
            return t

        def effect_actions(fn, c, out):
            # Ludii adds each capture move's actions with its consequences'
            # (getActionsWithConsequences): the move is applied as a move of its own on a
            # copy of the position, so its consequences read it as the last move.
            for m in fn(c):
                if m.then:
                    out.extend(applied_actions(c.s.clone(), m, as_last_move=True))
                else:
                    out.extend(m.actions)

        def drop(c, start, to, count, sown, actions):
            """The sow effect, then numPerHole seeds (while any are left) into `to`."""
            if sow_effect is not None:
                # Ludii adds the sow effect's own actions, without their consequences
                for m in sow_effect(c):
                    actions.extend(m.actions)
            k = per_hole(c) if per_hole is not None else 1
            keep = [(f, getattr(c.s.sites, f)[to]) for f in ("state", "rotation", "value")
                    if getattr(c.s.sites, f)[start] != getattr(c.s.sites, f)[to]]
            for _ in range(k):
                if sown < count:
                    actions.append((A_MOVE, start, to))
                    # Ludii's sowing move leaves the hole's own state, rotation and value.
                    actions.extend((A_SET_FIELD, f, to, TOP, v) for f, v in keep)
                sown += 1
            return sown

        def sow(c):
            s = c.s
            start = start_fn(c)
            count = count_fn(c) if count_fn is not None else (s.count[start] if start >= 0
                                                               else 0)
            track = fixed if owner_fn is None else by_owner.get(owner_fn(c))
            if track is None:
                return []
            sites, nxt, prv = steps(track)
            i = 0
            while i < len(sites) and sites[i] != start:
                i += 1
            # Ludii sows nothing from a site off the track: no move, unless the origin
            # (origin:) took every seed (then the move is that drop alone)
            off_track = i == len(sites)
            saved = (c.from_, c.to, c.value)
            actions = []
            sown = 0
            c.from_ = start
            if origin is not None and origin(c):
                sown = drop(c, start, start, count, sown, actions)
                c.to = start
            c.from_ = saved[0]
            if off_track and sown < count:
                c.to, c.value = saved[1], saved[2]
                return []
            index = 0
            while sown < count and index < count:
                c.value = count - index
                j = nxt[i]
                if j is None:
                    break
                c.to = sites[j]
                if skip is not None and skip(c):
                    i = j
                    continue
                if not include_self and sites[j] == start:
                    # Ludii sows into the next hole but leaves (to) on the origin
                    i = j
                    j = nxt[i]
                    if j is None:
                        break
                sown = drop(c, start, sites[j], count, sown, actions)
                i = j
                index += 1
            move = Move(start, c.to, 0, actions, then)
            if effect is not None:
                after = s.clone()
                for a in actions:
                    after.do_action(a)
                ac = after.ctx
                ac.to, ac.from_, ac.value = c.to, c.from_, c.value
                extra = []
                captures = 0
                while cond(ac):
                    ac.from_ = start
                    effect_actions(effect, ac, extra)
                    if back is None and fwd is None:
                        break
                    if back is not None:
                        j = prv[i]
                        if not back(ac) or j is None:
                            break
                        i = j
                        ac.to = sites[i]
                        if not back(ac) or sites[i] == start:
                            break
                    else:
                        j = nxt[i]
                        if not fwd(ac) or j is None:
                            break
                        i = j
                        ac.to = sites[i]
                        if not fwd(ac):
                            break
                    captures += 1
                    if captures >= len(sites):
                        break
                move.actions = actions + extra
            c.from_, c.to, c.value = saved
            return [move]
        return sow


@ludeme("sites", "Track")
class SitesTrack(Region):
    """`(sites Track [<role>|(player ..)] ["Name"] [from:] [to:])`: the sites of a track (the
    one named, else the first of the player's or of nobody's), from `from:` up to `to:`
    included, going round to the start when `to:` comes before `from:`."""
    concepts = ()

    params = (P("player", "PlayerFn", opt=True), P("role", RoleType, opt=True),
              P("name", LitStr, opt=True), P("from", IntFn, opt=True, named=True),
              P("to", IntFn, opt=True, named=True))

    def compile(self, env):
        tracks = _all_tracks(env, self)
        pid = _player_fn(env, self, lambda c: 0)
        name = self.name if self.name is not None else ""
        frm = env.compile(self.from_) if self.from_ is not None else None
        to = env.compile(self.to) if self.to is not None else None

        by_player = {p: _named_track(tracks, name, p) for p in range(0, env.num_players + 2)}

        def sites_track(c):
            t = by_player.get(pid(c))
            if t is None:
                return ()
            sites = t.sites
            if frm is None and to is None:
                return sites
            start = frm(c) if frm is not None else -1
            stop = to(c) if to is not None else -1
            if start == -1:
                i = 0
            elif start in sites:
                i = sites.index(start)
            else:
                return ()
            out = []
            for site in sites[i:]:
                out.append(site)
                if site == stop:
                    return tuple(out)
            for site in sites[:i]:
                out.append(site)
                if site == stop:
                    break
            return tuple(out)
        return sites_track


def _all_tracks(env, lud) -> list:
    tracks = list(getattr(env.board, "track_info", ()))
    if not tracks:
        raise lud.fail("this board has no track; declare one with (track ...) in the board")
    return tracks


def _named_track(tracks, name: str, player: int):
    """The track `(sites Track ...)` reads for a player: the first named exactly so, or
    whose name holds the name and that is the player's or nobody's; None when none is."""
    return next((t for t in tracks
                 if t.name == name or (name in t.name and t.owner in (player, 0))), None)


def _player_fn(env, lud, default):
    """The player a track ludeme names by role or (player ...), else `default`."""
    if lud.role is not None and lud.player is not None:
        raise lud.fail("give a role or a (player ...), not both")
    if lud.role is not None:
        return env.role_id(lud.role, lud)
    if lud.player is not None:
        return env.compile(lud.player)
    return default


def _track_per_player(env, tracks, pick) -> dict:
    """Player (0 to one past the last) -> (player, the track `pick` gives, its index)."""
    chosen = {}
    for p in range(0, env.num_players + 2):
        t = pick(p)
        if t is not None:
            chosen[p] = (p, t, next(k for k, u in enumerate(tracks) if u is t))
    return chosen


def _start_on_track(c, chosen, player, here, indexed):
    """(the player's track, the index Ludii starts from at `here`), or None: no track for the
    player, or no site on a track that passes a site twice (in a game where one does:
    `indexed`). The index is the piece's on such a track, else the site's first (the
    track's length when off it)."""
    entry = chosen.get(player)
    if entry is None:
        return None
    _, t, k = entry
    if indexed and not t.loop:
        return None if here < 0 else (t, _index_on_track(c, t, k, here, player))
    return t, (t.sites.index(here) if here in t.sites else len(t.sites))


def _index_on_track(c, t, k, here, player) -> int:
    """Ludii's index of the piece at `here` along track `t` (the `k`th) that passes a site
    twice: where the state's TrackIndices recorded the piece standing there (the track
    owner's piece in a stack); with no piece there, the site's first index; else the end."""
    s = c.s
    what = s.what[here]
    for level in range(s.size_stack(here)):
        lv = s.level_data(here, level)
        if lv[1] == player:
            what = lv[0]
            break
    if not what:
        return t.sites.index(here) if here in t.sites else len(t.sites)
    on_track = s.on_track
    for i in on_track.indices(k, here):
        if on_track.count(k, what, i) > 0:
            return i
    return len(t.sites)


@ludeme("count", "StepsOnTrack")
class CountStepsOnTrack(IntFn):
    """`(count StepsOnTrack [role|(player ..)|"Track"] <site1> <site2>)`: the steps along the
    player's track (the mover's by default) from the first site to the second, -1 when the
    second is not met (Ludii's CountStepsOnTrack). The track is the player's one whose name
    contains the name given, else the player's first, else the first of nobody's. As Ludii
    counts: from the first site's first index to the track's end, then on from the track's
    start (a line too), the first site off the track counting from the start; in a game
    where a track passes a site twice, from the index of the piece standing on the first
    site (as `(trackSite Move ...)`), to the end only. Example:

        (- (value Player Mover) (count StepsOnTrack (last From) (last To)))
    """
    concepts = ()

    params = (P("role", RoleType, opt=True), P("player", "PlayerFn", opt=True),
              P("name", LitStr, opt=True), P("site1", IntFn), P("site2", IntFn))

    def compile(self, env):
        if self.name is not None and (self.role is not None or self.player is not None):
            raise self.fail("give a role, a (player ...) or a track's name, not two of them")
        tracks = _all_tracks(env, self)
        indexed = any(t.internal_loop for t in tracks)
        pid = _player_fn(env, self, lambda c: c.s.mover)
        site1, site2 = env.compile(self.site1), env.compile(self.site2)
        name = self.name
        chosen = _track_per_player(env, tracks, lambda p: next(
            (u for u in tracks if name is not None and name in u.name and u.owner == p),
            None) or next((u for owner in (p, 0) for u in tracks if u.owner == owner), None))

        def count(c):
            got = _start_on_track(c, chosen, pid(c), site1(c), indexed)
            if got is None:
                return -1
            t, i = got
            sites, n, there = t.sites, len(t.sites), site2(c)
            if indexed and not t.loop:      # to the end only
                return sites.index(there, i) - i if there in sites[i:] else -1
            if there in sites[i:]:
                return sites.index(there, i) - i
            return n - i + sites.index(there) if there in sites[:i] else -1
        return count


@ludeme("trackSite", "Move")
class TrackSiteMove(IntFn):
    """`(trackSite Move [from:] [role|(player ..)|"Track"] steps:<int>)`: the site `steps`
    further along the player's track (wrapping on a loop; -1 past the end of a line).

    On a track that passes a site twice (in a game where some track does), the start is
    the index where Ludii recorded the piece standing at `from:` (the track owner's piece
    in a stack), read from the state's TrackIndices; with no piece there, the site's first
    index."""
    concepts = ()

    params = (P("from", IntFn, opt=True, named=True), P("role", RoleType, opt=True),
              P("player", "PlayerFn", opt=True), P("name", LitStr, opt=True),
              P("steps", IntFn, named=True))

    def compile(self, env):
        tracks = _all_tracks(env, self)
        indexed = any(t.internal_loop for t in tracks)
        pid = _player_fn(env, self, lambda c: c.s.mover)
        frm = env.compile(self.from_) if self.from_ is not None else (lambda c: c.from_)
        steps = env.compile(self.steps)
        chosen = _track_per_player(env, tracks, lambda p: _pick_track(tracks, self.name, p))

        def site(c):
            got = _start_on_track(c, chosen, pid(c), frm(c), indexed)
            if got is None:
                return -1
            t, i = got
            sites, n = t.sites, len(t.sites)
            i += max(0, steps(c))
            if i < n:
                return sites[i]
            return sites[i % n] if t.loop else -1
        return site


@ludeme("trackSite", "FirstSite")
class TrackSiteFirst(IntFn):
    """`(trackSite FirstSite [role|(player ..)] ["Track"] [from:] [if:])`: the first site of the
    track (from `from:` on, going round) where the condition holds; -1 if none."""
    concepts = ()

    params = (P("player", "PlayerFn", opt=True), P("role", RoleType, opt=True),
              P("name", LitStr, opt=True), P("from", IntFn, opt=True, named=True),
              P("if", Bool, opt=True, named=True))

    def compile(self, env):
        tracks = _all_tracks(env, self)
        pid = _player_fn(env, self, lambda c: 0)
        frm = env.compile(self.from_) if self.from_ is not None else None
        cond = env.compile(self.if_) if self.if_ is not None else None
        name = self.name

        def pick(p):
            for t in tracks:
                if name is not None:
                    if name in t.name and (p == 0 or t.owner == p):
                        return t
                elif t.owner in (p, 0):
                    return t
            return tracks[0]

        def first(c):
            t = pick(pid(c))
            sites = t.sites
            n = len(sites)
            if frm is None:
                i = 0
            else:
                f = frm(c)
                if f not in sites:
                    return -1
                i = sites.index(f)
            if cond is None:
                return sites[i]
            saved = c.to
            for j in range(i, i + n):
                c.to = sites[j % n]
                if cond(c):
                    c.to = saved
                    return sites[j % n]
            c.to = saved
            return -1
        return first


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

@emits(MoveSelect, kind="moves", refuses=("mover",))
def _select_moves(src, lud, out, ind):
    """One decision per site of the (from) region (in increasing order, as Ludii walks it
    as a set) where its condition holds, (from) and (to) both on it; with a (to ...), one
    per site of that region too (read with both on the site selected), in increasing
    order, where its condition holds with (to) on it. Its one action (Ludii's
    ActionSelect) changes nothing but is counted."""
    from .moves import typed_site
    fr, dest = lud.from_, lud.to
    if dest is not None:
        refuse(dest, "level", "apply")
    levels = LV_TOPS
    if fr.level is not None:
        # the level the decision reports for both sites (kept in its extra slot), read
        # before (from) moves to the site selected: one site, the reference's context
        if dest is not None or not (fr.site is None or isinstance(fr.site, IntFn)) \
                or not src.game.stacking:
            raise Unsupported(lud, "with (from ... level:) beside (to ...), from a region or "
                                   "in a game without stacks")
        levels = LV_AT
    env = src.env

    def limit_of(spec):
        """`MoveSelect._limit`: every container's cells for a Cell, else the board's."""
        site_type = spec.type or env.board.site_type
        return env.total_sites if site_type == "Cell" else env.num_board_sites
    # in a stacking game, the decision reports the top levels of the sites it selects
    g = src.new_generator([NO_EFFECT_ACTION], lud=lud, kind=(A_SELECT,), levels=levels)
    cond = src.bool_expr(fr.if_) if fr.if_ is not None else "True"
    cond = f"True{typed_site(src, fr, 'ff')} and {cond}"
    x = "-1"
    if fr.level is not None:
        out.append(f"{ind}slf = {src.int_expr(fr.level)}")
        x = "slf"
    out.append(f"{ind}sf, st = frm, to")
    inner = _walk_region(src, fr.site, "frm", "ff", limit_of(fr), out, ind)
    out.append(f"{inner}frm = ff")
    out.append(f"{inner}to = ff")
    out.append(f"{inner}if {cond}:")
    if dest is None:
        src.push(out, inner + "    ", "frm", "frm", g, x)
    else:
        walk = _walk_region(src, dest.site, "to", "tt", limit_of(dest), out, inner + "    ",
                            "_to")
        out.append(f"{walk}frm = ff")
        out.append(f"{walk}to = tt")
        test = src.bool_expr(dest.if_) if dest.if_ is not None else "True"
        test = f"True{typed_site(src, dest, 'tt')} and {test}"
        out.append(f"{walk}if {test}:")
        src.push(out, walk + "    ", "frm", "tt", g)
        out.append(f"{walk}to = ff")
    out.append(f"{ind}frm, to = sf, st")


def _walk_region(src, region, default: str, var: str, limit: int, out: list, ind: str,
                 tag: str = "") -> str:
    """Lines walking the sites of a region of a (from) or (to) (`default`, the site it
    names, when none) in increasing order, each once and on the board, as `var`; the
    indent of the walk's body."""
    if region is None or isinstance(region, IntFn):
        site = default if region is None else src.int_expr(region)
        out.append(f"{ind}for {var} in ({site},):")
        flt = "True"
    elif src.is_static_region(region):
        sites, by_player = src.static_sites(region)
        rows = [sorted(set(s)) for s in sites] if by_player else [sorted(set(sites))]
        t_sites, t_len = (src.table(a) for a in src.padded(rows))
        row = "mover" if by_player else "0"
        out.append(f"{ind}for j{tag} in range({t_len}[{row}]):")
        out.append(f"{ind}    {var} = {t_sites}[{row}, j{tag}]")
        flt = "True"
    elif lookup("contains", region):
        out.append(f"{ind}for {var} in range({limit}):")
        flt = src.region_contains(region, var)
    else:       # listed: marked, then walked in increasing order
        seq, test = src.region_sites(region)
        out.append(f"{ind}marked{tag} = np.zeros({limit}, np.bool_)")
        out.append(f"{ind}for {var} in {seq}:")
        out.append(f"{ind}    if 0 <= {var} < {limit}{' and ' + test(var) if test else ''}:")
        out.append(f"{ind}        marked{tag}[{var}] = True")
        out.append(f"{ind}for {var} in range({limit}):")
        flt = f"marked{tag}[{var}]"
    out.append(f"{ind}    if 0 <= {var} < {limit} and {flt}:")
    return ind + "        "


def _track_tables(src, tracks: list) -> tuple[str, str, str, str]:
    """The tracks' sites, their next and previous indices (-1 past an end), and lengths, as
    tables indexed by track then position."""
    sites = [list(t.sites) for t in tracks]
    nxt = [[i + 1 if i + 1 < len(s) else (0 if t.loop else -1) for i in range(len(s))]
           for t, s in zip(tracks, sites)]
    prv = [[i - 1 if i > 0 else (len(s) - 1 if t.loop else -1) for i in range(len(s))]
           for t, s in zip(tracks, sites)]
    t_sites, t_len = src.padded(sites)
    return (src.table(t_sites), src.table(src.padded(nxt)[0]), src.table(src.padded(prv)[0]),
            src.table(t_len))


@emits(SetCountEffect, kind="consequent", refuses=("type", ("then", "as a consequent")))
def _set_count_consequent(src, lud, lines, ind):
    """The site keeps its piece, now that many (`FlatSites.set_count`: none empties it),
    one action; on a flat board of a game that records no pieces along its tracks (the
    emptying is no removal there) and reads no (last To afterConsequence:True)."""
    if src.game.stacking:
        raise Unsupported(lud, "in a stacking game")
    if getattr(src.game, "track_indexed", False):
        raise Unsupported(lud, "on a board whose tracks pass a site twice")
    if src.reads_after:
        raise Unsupported(lud, "in a game reading (last To afterConsequence:True)")
    d = len(ind)
    lines += [f"{ind}sct_{d} = {src.int_expr(lud.at)}",
              f"{ind}if sct_{d} >= 0:",
              f"{ind}    scn_{d} = {src.int_expr(lud.count)}",
              f"{ind}    if scn_{d} <= 0:",
              f"{ind}        {src.site_clear(f'sct_{d}')}",
              f"{ind}    else:",
              f"{ind}        journal(count, sct_{d})",
              f"{ind}        count[sct_{d}] = scn_{d}",
              f"{ind}        sc[NUM_ACTIONS] += 1"]


# The local holding (value) while a sowing chooses its holes.
_SOWN_VALUE = "value_sown"
_READS_SOWN_VALUE = re.compile(rf"\b{_SOWN_VALUE}\b")


def _sowing_lines(src, lud, caller_from: str):
    """The sowing's lines at indent 4 in a kernel: (those choosing the holes on the position
    (skipIf:, numPerHole: read it, (from) is `caller_from` there), those moving the seeds
    (their actions counted), the tables of the track's sites, of its steps on and back);
    None when no player has the track."""
    if lud.backtracking is not None and lud.forward is not None:
        raise Unsupported(lud, "with backtracking: and forward:")
    env = src.env
    if lud.owner is None:
        tracks = [board_track(env, lud.track, lud)]
        track = "0"
    else:
        by_owner = tracks_by_owner(env, lud.track, lud)
        tracks = []
        for t in by_owner.values():
            if t is not None and all(t is not u for u in tracks):
                tracks.append(t)
        if not tracks:
            return None
        index = [next(k for k, u in enumerate(tracks) if u is by_owner[p])
                 if by_owner[p] is not None else -1 for p in range(env.num_players + 1)]
        o = src.int_expr(lud.owner)
        track = f"({src.table(index)}[{o}] if 0 <= {o} <= {env.num_players} else -1)"
    t_sites, t_next, t_prev, t_len = _track_tables(src, tracks)
    start = src.int_expr(lud.start) if lud.start is not None else "last_to"
    n_sow = src.int_expr(lud.count) if lud.count is not None else \
        "(count[start] if start >= 0 else 0)"
    # (value) in the holes' choice: the seeds left to sow, the hole's included (as the
    # reference sets it at each hole); at the origin, the caller's
    outer_value, helpers = src.value_written, len(src.helpers)
    src.value_written = _SOWN_VALUE
    try:
        per_hole = src.int_expr(lud.numPerHole) if lud.numPerHole is not None else "1"
        skip = src.bool_expr(lud.skipIf) if lud.skipIf is not None else "False"
    finally:
        src.value_written = outer_value
    if any(_READS_SOWN_VALUE.search(x) for x in src.helpers[helpers:]):
        raise Unsupported(lud, "with (value) read by a helper kernel")
    if lud.origin is not None and _READS_SOWN_VALUE.search(per_hole):
        raise Unsupported(lud, "with origin: and numPerHole: reading (value)")
    origin = src.bool_expr(lud.origin) if lud.origin is not None else "False"
    # With sowEffect:, each hole visited (the origin too) is noted with (from) and (to) as
    # the effect reads them there (`_sow_effect_moves`).
    visit = [] if lud.sowEffect is None else [
        "        vis_to[n_vis], vis_frm[n_vis], vis_first[n_vis] = to, frm, n_holes",
        "        n_vis += 1"]
    body = [f"    start = {start}",
            f"    n_sow = {n_sow}",
            f"    tr = {track}",
            "    if tr < 0:",
            "        return",
            f"    n_track = {t_len}[tr]",
            "    i = 0",
            f"    while i < n_track and {t_sites}[tr, i] != start:",
            "        i += 1",
            "    holes = np.empty(max(n_sow, 0) + 1, np.int64)",
            "    n_holes = 0",
            "    sown = 0",
            "    frm = start",
            f"    if {origin}:",
            *visit,
            f"        for _ in range({per_hole}):",
            "            if sown < n_sow:",
            "                holes[n_holes] = start",
            "                n_holes += 1",
            "            sown += 1",
            "        to = start",
            # off the track, Ludii sows nothing: no move unless the origin took every seed
            "    if i == n_track and sown < n_sow:",
            "        return",
            f"    frm = {caller_from}",
            "    index = 0",
            "    while sown < n_sow and index < n_sow:",
            f"        {_SOWN_VALUE} = n_sow - index",
            f"        j = {t_next}[tr, i]",
            "        if j < 0:",
            "            break",
            f"        to = {t_sites}[tr, j]",
            f"        if {skip}:",
            "            i = j",
            "            continue"]
    if not lud.includeSelf:
        # Ludii sows into the next hole but leaves (to) on the origin
        body += [f"        if {t_sites}[tr, j] == start:",
                 "            i = j",
                 f"            j = {t_next}[tr, i]",
                 "            if j < 0:",
                 "                break"]
    body += [*visit,
             f"        for _ in range({per_hole}):",
             "            if sown < n_sow:",
             f"                holes[n_holes] = {t_sites}[tr, j]",
             "                n_holes += 1",
             "            sown += 1",
             "        i = j",
             "        index += 1"]
    if visit:
        i_origin = body.index(f"    if {origin}:")
        body[i_origin:i_origin] = [
            "    vis_to = np.empty(max(n_sow, 0) + 2, np.int64)",
            "    vis_frm = np.empty(max(n_sow, 0) + 2, np.int64)",
            "    vis_first = np.empty(max(n_sow, 0) + 3, np.int64)",
            "    n_vis = 0"]
    moves = [f"        {src.site_move('start', 'holes[q]')}"]
    if src.piece_states:
        # Ludii's sowing move leaves the hole's own state: set again after each seed (one
        # more action) where the origin's differed before the sowing.
        body.append("    st0 = sc[STATE:STATE + N_STATE].copy()")
        moves += ["        hq = holes[q]",
                  "        if st0[start] != st0[hq]:",
                  f"            {src.piece_state('hq')} = st0[hq]"]
    if visit:
        moves = _sow_effect_moves(src, lud, moves)
    else:
        moves = ["    for q in range(n_holes):", *moves]
    # Its moves are actions of the decision (DurationActions), as in the generators' own
    # lines.
    return body, counted_actions(moves, src.reads_after), (t_sites, t_next, t_prev)


def _one_capture(src, lud) -> bool:
    """Whether the sowing captures once at most, by one move at most whose consequents read
    neither (last From) nor (last To): the capture's move, made and applied on the sown
    position itself, is then the reference's (applied on a copy of it, its consequents
    reading that copy with the capture as the last move)."""
    from .effects import at_most_one_move
    return lud.backtracking is None and lud.forward is None and at_most_one_move(lud.apply)


def _captures_as_last_move(lud) -> bool:
    """Whether the captures of a sowing whose consequents read the last move can read
    them so (`effects._from_to_moving`): at one hole (no backtracking: or forward:, so that
    the hole's moves are made on the sown position itself), each by a (fromTo ...) of one
    site to one site, whose consequents read no other part of the last move."""
    from ludeme.engine.compiled.codegen import mentions
    from .effects import FromTo
    from .ints import LastBetween, LastFrom, LastTo
    from .levels import LastLevelTo
    if lud.backtracking is not None or lud.forward is not None:
        return False

    def fits(x) -> bool:
        fields = x.__dict__.get("_fields", {})
        then = fields.get("then")
        if then is not None:
            if type(x) is not FromTo or not all(
                    isinstance(s.site, (IntFn, type(None))) for s in (x.from_, x.to)):
                return False
            if mentions(then, (LastBetween, LastLevelTo)) or any(
                    getattr(t, "afterConsequence", None) for t in _all(then, (LastFrom, LastTo))):
                return False
        return all(fits(v) for k, v in _children(fields) if k != "then")
    return fits(lud.apply)


def _children(fields: dict):
    """The ludemes among a ludeme's arguments (name, ludeme), conditions and numbers left
    out (the moves they look for are not applied)."""
    for k, v in fields.items():
        for x in (v if isinstance(v, (list, tuple)) else (v,)):
            if not isinstance(x, (Bool, IntFn)) and "_fields" in getattr(x, "__dict__", {}):
                yield k, x


def _all(lud, cls) -> list:
    """The ludemes of a class inside a ludeme (itself included)."""
    if isinstance(lud, (list, tuple)):
        return [y for x in lud for y in _all(x, cls)]
    fields = getattr(lud, "_fields", None)
    if fields is None:
        return []
    return ([lud] if isinstance(lud, cls) else []) + [y for v in fields.values()
                                                       for y in _all(v, cls)]


def _sow_effect_moves(src, lud, seed: list[str]) -> list[str]:
    """The seeds' moves (`seed`, at indent 8, for `holes[q]`) with the sow effect before each
    hole's: as the reference adds it, made on the position before the sowing (a copy the
    effect's lines read, `moves._on_snapshot`), with (from) and (to) as they were where the
    hole was visited, its own consequents left out (the reference adds its actions only)."""
    from .moves import SNAPSHOT, _has_then, _on_snapshot
    why = "with a sowEffect: that cannot read the position before the sowing"
    if _has_then(lud.sowEffect):
        raise Unsupported(lud, "with a sowEffect: that has consequents")
    effect: list[str] = []
    src.effect_body(lud.sowEffect, effect)
    effect = _on_snapshot(lud, effect, why)
    return ["    vis_first[n_vis] = n_holes",
            "    to_sown, frm_sown = to, frm",
            "    " + SNAPSHOT,
            "    for v in range(n_vis):",
            "        to, frm = vis_to[v], vis_frm[v]",
            *("        " + x for x in effect),
            "        for q in range(vis_first[v], vis_first[v + 1]):",
            *("    " + x for x in seed),
            "    to, frm = to_sown, frm_sown"]


@emits(Sow, kind="consequent", refuses=("type",))
def _sow_consequent(src, lud, lines, ind):
    """The sowing as the reference makes it: the holes are chosen on the position before it
    (skipIf:, numPerHole: read it), then the seeds move; the captures' conditions read the
    sown position, and their effects apply in order once every capture is chosen. Without
    captures, consequents or a sow effect, as a sowing inside another move's effect (its
    holes chosen on a copy where an (and ...) before it changed the position). A part of an
    (and ...) after parts that changed what it reads (`src.sow_read_copy`, what they
    changed: `moves._parts_in_turn`) is handed the copy of the position before them, as
    the reference makes it there: its holes are chosen on it, its seeds sown on it and on
    the position, its captures chosen and made on that sown copy and applied to the
    position (their consequents, each a kernel of its own, read the position as applied:
    refused where they read what the earlier parts changed)."""
    from .moves import _on_snapshot, _reads, _snap
    read_copy, src.sow_read_copy = src.sow_read_copy, None
    if lud.apply is None and lud.then is None and lud.sowEffect is None:
        body: list[str] = []
        _sow_effect(src, lud, body)
        lines.extend(ind + x for x in body)
        return
    made = _sowing_lines(src, lud, "-1")
    if made is None:
        return
    choose, moves, (t_sites, t_next, t_prev) = made
    body: list[str] = []
    if lud.apply is not None:
        from ludeme.engine.compiled.codegen import mentions
        from .ints import LastFrom, LastTo
        from .moves import _has_then
        as_last = _has_then(lud.apply) and mentions(lud.apply, (LastFrom, LastTo))
        if as_last and not _captures_as_last_move(lud):
            # the reference applies each capture with its consequents as the last move
            raise Unsupported(lud, "with (then ...) of a capture that reads the last move")
        cond = src.bool_expr(lud.if_) if lud.if_ is not None else "True"
        effect: list[str] = []
        src.then_as_last_move, before = as_last, set(src.last_move_thens)
        try:
            src.effect_body(lud.apply, effect)
        finally:
            src.then_as_last_move = False
        if read_copy is not None and any(_reads(src.then_bodies[c]) & read_copy
                                         for c in src.last_move_thens - before):
            raise Unsupported(lud, "with a capture whose consequents read what an earlier "
                                   "part changed (the reference reads the sown position)")
        body += ["    caught = np.empty(n_track + 2, np.int64)",
                 "    n_caught = 0",
                 "    captures = 0",
                 f"    while {cond}:",
                 "        frm = start",
                 "        caught[n_caught] = to",
                 "        n_caught += 1"]
        for word, steps in (("backtracking", t_prev), ("forward", t_next)):
            further = getattr(lud, word)
            if further is None:
                continue
            test = src.bool_expr(further)
            stop = " or to == start" if word == "backtracking" else ""
            body += [f"        j = {steps}[tr, i]",
                     f"        if not {test} or j < 0:",
                     "            break",
                     "        i = j",
                     f"        to = {t_sites}[tr, i]",
                     f"        if not ({test}){stop}:",
                     "            break",
                     "        captures += 1",
                     "        if captures >= n_track:",
                     "            break"]
        if lud.backtracking is None and lud.forward is None:
            body.append("        break")
        # The reference makes every capture's moves on the sown position, then applies them
        # (a move with consequents on a copy of the sown position, its consequents reading
        # it as the last move)
        from .moves import on_position_before
        apply = [
            "for q in range(n_caught):", "    to = caught[q]", *("    " + x for x in effect)]
        if not _one_capture(src, lud) and not as_last and read_copy is None:
            apply = on_position_before(
                lud, lud.apply, apply, "with captures that read what an earlier capture "
                "changed (the reference reads the sown position)", src)
        body += ["    frm = start", *("    " + x for x in apply)]
    then: list[str] = []
    if lud.then is not None:
        emit("then", src, lud.then, then)
    if read_copy is not None:
        if lud.sowEffect is not None:
            raise Unsupported(lud, "with a sowEffect: after a part of an (and ...) that "
                                   "changed what it reads")
        # the holes chosen, the seeds sown and the captures chosen and made on the copy
        # (`who_0`, ...: a copy of the one handed), the seeds sown on the position too
        body = _on_snapshot(lud, body, "with captures that cannot read the sown copy",
                            src.then_calls)
        choose = [f"    {_READ_COPY}", *(_snap(x) for x in choose)]
        moves = moves + [_snap(x) for x in moves]
    body += ["    frm = -1", "    to = -1", *("    " + x for x in then), "    return"]
    # Its captures' effects are actions of the decision (DurationActions) too.
    body = [src.context(), *choose, *moves, *counted_actions(body, src.reads_after)]
    read = ", who_0, what_0, count_0, sc_0, phase_0" if read_copy is not None else ""

    def make(name):
        return "\n".join(["@njit(cache=True)",
                          f"def {name}(who, what, count, sc, phase{read}):", *body, ""])
    handed = ", who, what, count, sc, phase" if read_copy is not None else ""
    lines.append(f"{ind}{src.helper(make)}(who, what, count, sc, phase{handed})")


# A sowing handed the position its holes are chosen on (`_sow_consequent`): sown on a copy.
_READ_COPY = ("who_0, what_0, count_0, sc_0, phase_0 = who_0.copy(), what_0.copy(), "
              "count_0.copy(), sc_0.copy(), phase_0.copy()")


@emits(Sow, kind="one_move", refuses=("owner",))
def _sow_one_move(src, lud):
    """A sowing on the board's one track is one move, whatever it sows (none at all from an
    empty hole), where it starts on the track or has nothing to sow; from a site off the
    track, Ludii makes none."""
    track = board_track(src.env, lud.track, lud)
    if track is None:
        return "False"
    if lud.origin is not None:
        raise Unsupported(lud, "with origin:, as one move")
    start = src.int_expr(lud.start) if lud.start is not None else "last_to"
    n_sow = src.int_expr(lud.count) if lud.count is not None else \
        f"(count[{start}] if {start} >= 0 else 0)"
    on = [0] * (max(track.sites, default=-1) + 1)
    for site in track.sites:
        if site >= 0:
            on[site] = 1
    return (f"(0 <= {start} < {len(on)} and {src.table(on)}[{start}] == 1 "
            f"or {n_sow} <= 0)")


# The state a sowing made inside another move's effect writes (`_sow_effect`), renamed from
# the state it reads.
_STATE_WORD = re.compile(r"\b(who|what|count|sc|phase)\b")


@emits(Sow, kind="effect", refuses=("type", "sowEffect",
                                    ("apply", "with captures, inside another move's effect"),
                                    ("then", "with (then ...), inside another move's effect")))
def _sow_effect(src, lud, body):
    """A sowing as a part of another move's effect (a capture of a sowing, or one of the
    parts of an (and ...)): as the reference makes it, its holes are chosen reading the
    position its move is made on (`who`, ... in its kernel; the copy the caller reads, where
    it reads one), and its seeds then move on the position itself (`wwho`, ...)."""
    made = _sowing_lines(src, lud, "frm0")
    if made is None:
        return
    choose, moves, _ = made
    moves = [_STATE_WORD.sub(r"w\1", x) for x in moves]
    bound = ", player" if src.player_bound else ""

    def make(name):
        return "\n".join(["@njit(cache=True)",
                          f"def {name}(wwho, wwhat, wcount, wsc, wphase, who, what, count, sc, "
                          f"phase, frm, to{bound}):",
                          src.context(local=("btw",)), "    frm0 = frm", *choose, *moves,
                          "    return", ""])
    body.append(f"{src.helper(make)}(who, what, count, sc, phase, who, what, count, sc, phase, "
                f"frm, to{bound})")


@emits(TrackSiteMove, kind="int")
def _track_site_move(src, lud):
    """A table per track of each site's first index along it; in a game where a track
    passes a site twice, on a line, the index Ludii recorded for the piece standing there
    (the kernels' OnTrackIndices, `on_track_tables`)."""
    env = src.env
    tracks = _all_tracks(env, lud)
    indexed = any(t.internal_loop for t in tracks)
    if lud.role is not None and lud.player is not None:
        raise Unsupported(lud, "with a role and a player")
    player = (src.role_expr(lud.role, lud) if lud.role is not None else
              src.int_expr(lud.player) if lud.player is not None else "mover")
    n = env.num_players
    chosen = []
    for p in range(0, n + 2):
        t = _pick_track(tracks, lud.name, p)
        chosen.append(-1 if t is None else next(k for k, u in enumerate(tracks) if u is t))
    total = env.total_sites
    pos = [[t.sites.index(s) if s in t.sites else len(t.sites) for s in range(total)]
           for t in tracks]
    t_sites, t_next, _, t_len = _track_tables(src, tracks)
    t_pos, t_loop = src.table(pos), src.table([int(bool(t.loop)) for t in tracks])
    t_chosen = src.table(chosen)
    here = src.int_expr(lud.from_) if lud.from_ is not None else "frm"

    start = [f"    i = {t_pos}[tr, here] if 0 <= here < {total} else n"]
    if indexed:
        # A line (not a loop) starts where Ludii recorded the piece at `here` (the
        # player's in a stack, else the top one): its first index holding that kind
        idx, slot, _, width = on_track_tables(src)
        kinds = ["    w = what[here]"]
        if src.game.stacking:
            kinds = ["    w = what[here]",
                     f"    for lv in range(count[{total} + here]):",
                     "        if stack_at(who, count, here, lv) == player:",
                     "            w = stack_at(what, count, here, lv)",
                     "            break"]
        start = [f"    if here < 0 and not {t_loop}[tr]:",
                 "        return -1",
                 f"    if {t_loop}[tr] or not 0 <= here < {total}:",
                 *("    " + x for x in start),
                 "    else:",
                 *("    " + x for x in kinds),
                 "        if w == 0:",
                 f"            i = {t_pos}[tr, here]",
                 "        else:",
                 "            k = tr",
                 "            i = n",
                 f"            for j in range({width}):",
                 f"                d = {idx}[k, here, j]",
                 f"                if d < 0:",
                 "                    break",
                 f"                if sc[{slot.format(t='k', w='w', i='d')}] > 0:",
                 "                    i = d",
                 "                    break"]
    args = "who, what, count, sc, " if indexed else ""

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}({args}player, here, steps):",
            f"    if not 0 <= player <= {n + 1}:",
            "        return -1",
            f"    tr = {t_chosen}[player]",
            "    if tr < 0:",
            "        return -1",
            f"    n = {t_len}[tr]",
            *start,
            "    i += max(0, steps)",
            "    if i < n:",
            f"        return {t_sites}[tr, i]",
            f"    return {t_sites}[tr, i % n] if {t_loop}[tr] else -1", ""])
    return f"{src.helper(make)}({args}{player}, {here}, {src.int_expr(lud.steps)})"


def _pick_track(tracks, name, p):
    """The track (trackSite Move ...) follows for player p: by name, the player's first,
    else anyone's; then the player's first track, else one of nobody's."""
    if name is not None:
        for t in tracks:
            if name in t.name and t.owner == p:
                return t
        for t in tracks:
            if name in t.name:
                return t
    for owner in (p, 0):
        for t in tracks:
            if t.owner == owner:
                return t
    return None


@emits(TrackSiteFirst, kind="int")
def _track_site_first(src, lud):
    """A helper kernel given the evaluation context walks the track (as the reference
    picks it for the player) from `from:`'s first index round, with (to) on each site,
    to the first where the condition holds."""
    env = src.env
    tracks = _all_tracks(env, lud)
    if lud.role is not None and lud.player is not None:
        raise Unsupported(lud, "with a role and a player")
    player = (src.role_expr(lud.role, lud) if lud.role is not None else
              src.int_expr(lud.player) if lud.player is not None else "0")
    n = env.num_players
    chosen = [_first_site_track(tracks, lud.name, p) for p in range(n + 2)]
    other = _first_site_track(tracks, lud.name, -1)
    total = env.total_sites
    pos = [[t.sites.index(s) if s in t.sites else len(t.sites) for s in range(total)]
           for t in tracks]
    t_sites, _, _, t_len = _track_tables(src, tracks)
    t_pos, t_chosen = src.table(pos), src.table(chosen)
    here = src.int_expr(lud.from_) if lud.from_ is not None else "0"
    saved, src.between = src.between, "btw"
    try:
        cond = src.bool_expr(lud.if_) if lud.if_ is not None else None
    finally:
        src.between = saved
    if cond is not None and re.search(r"\b(site|lvl)\b", cond):
        raise Unsupported(lud, "with a condition reading (site) or (level)")
    bound = ", player" if src.player_bound else ""
    walk = ["    return T_SITES[tr, i]"] if cond is None else [
        "    for j in range(i, i + n):",
        "        to = T_SITES[tr, j % n]",
        f"        if {cond}:",
        "            return to",
        "    return -1"]

    def make(name):
        return "\n".join([
            "@njit(cache=True)",
            f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}, tp, here):",
            src.context(local=()),
            f"    tr = {t_chosen}[tp] if 0 <= tp <= {n + 1} else {other}",
            f"    n = {t_len}[tr]",
            *(["    i = 0"] if lud.from_ is None else [
                f"    if not 0 <= here < {total}:",
                "        return -1",
                f"    i = {t_pos}[tr, here]",
                "    if i >= n:",
                "        return -1"]),
            *(x.replace("T_SITES", t_sites) for x in walk), ""])
    return (f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}{bound}, "
            f"{player}, {here})")


def _first_site_track(tracks, name, p) -> int:
    """The index of the track (trackSite FirstSite ...) walks for player p: by name, any
    player's (p 0) or p's; else p's or nobody's; else the first."""
    for k, t in enumerate(tracks):
        if name is not None:
            if name in t.name and (p == 0 or t.owner == p):
                return k
        elif t.owner in (p, 0):
            return k
    return 0


def _track_listed(lud) -> bool:
    """`(sites Track ...)` of nobody's track, a fixed player's or the mover's, whole (no
    from: or to:): listed now, once or per mover (`Source.sites_by_mover`)."""
    role_ok = lud.role is None or lud.role == "Mover" or \
        (lud.role[:1] == "P" and lud.role[1:].isdigit())
    return lud.player is None and role_ok and lud.from_ is None and lud.to is None


@emits(SitesTrack, kind="static")
def _track_static(src, lud):
    return _track_listed(lud) and lud.role != "Mover"


@emits(SitesTrack, kind="static_sites")
def _track_sites(src, lud):
    if not _track_listed(lud):
        raise Unsupported(lud, "with from:, to: or a player read in play")
    return src.sites_by_mover(src.env.compile(lud))


@emits(SitesTrack, kind="contains")
def _track_contains(src, lud, site):
    """Membership in the track's sites: a table when they are listed now, else among those
    its own walk lists (a helper kernel given the evaluation context)."""
    if _track_listed(lud):
        return src.static_contains(lud, site)
    return f"({src.listed_by_loop(lud)} == {site}).any()"


@emits(SitesTrack, kind="for_region")
def _track_loop(src, lud, out, ind, body):
    """`SitesTrack.compile`'s walk: the player's track (a table per player), from the first
    index of from: (its start when from: is -1 or absent; nothing when the site is not on
    it) round the track once, up to to: included."""
    tracks = _all_tracks(src.env, lud)
    name = lud.name if lud.name is not None else ""
    n_ids = src.game.num_players + 2

    picked = [_named_track(tracks, name, p) for p in range(n_ids)]
    rows = [list(t.sites) if t is not None else [] for t in picked]
    first = np.full((n_ids, src.env.total_sites), -1, dtype=np.int64)
    for p, row in enumerate(rows):
        for i, site in reversed(list(enumerate(row))):
            if 0 <= site < src.env.total_sites:
                first[p, site] = i
    sites, lens = src.padded(rows)
    TS, TL, TF = src.table(sites), src.table(lens), src.table(first)
    if lud.role is not None:
        who = src.player_expr(lud.role, lud)
    elif lud.player is not None:
        who = src.int_expr(lud.player)
    else:
        who = "0"
    d = len(ind)
    start = src.int_expr(lud.from_) if lud.from_ is not None else "-1"
    stop = src.int_expr(lud.to) if lud.to is not None else "-1"
    out += [f"{ind}tp_{d} = {who}",
            f"{ind}if 0 <= tp_{d} < {n_ids}:",
            f"{ind}    st_{d}, sp_{d}, n_{d} = {start}, {stop}, {TL}[tp_{d}]",
            f"{ind}    i0_{d} = 0 if st_{d} == -1 else ({TF}[tp_{d}, st_{d}] "
            f"if 0 <= st_{d} < TOTAL else -1)",
            f"{ind}    if i0_{d} >= 0:",
            f"{ind}        for jj_{d} in range(n_{d}):",
            f"{ind}            if jj_{d} > 0 and {TS}[tp_{d}, (i0_{d} + jj_{d} - 1) % n_{d}] "
            f"== sp_{d}:",
            f"{ind}                break",
            f"{ind}            site = {TS}[tp_{d}, (i0_{d} + jj_{d}) % n_{d}]",
            *(f"{ind}            {x}" for x in body)]
