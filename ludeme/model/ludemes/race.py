"""Race-game ludemes on tracks: the requirements `(firstMoveOnTrack ...)` and `(max
Distance ...)` (Ludii's rules/play/moves/nonDecision/effect/requirement) and the last
site of a track, `(trackSite EndSite ...)` (functions/ints/trackSite/position)."""

from __future__ import annotations

from .base import IntFn, LitStr, Moves, P, RoleType, ludeme
from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import Unsupported
from .sowing import _all_tracks, _player_fn


def _track_picker(env, lud):
    """A closure c -> the track Ludii's requirement ludemes use, or None: the first track
    when no name is given; with an owner, the owner's first track whose name contains
    the name; else the first track of exactly that name."""
    tracks = list(getattr(env.board, "track_info", ()))
    if not tracks:
        kind = f" {lud.kind}" if lud.kind else ""
        raise lud.fail(f"({lud.keyword}{kind} ...) needs a board with a track")
    name = lud.name
    who = env.role_id(lud.owner, lud) if lud.owner is not None else None

    def pick(c):
        owner = who(c) if who is not None else None
        for t in tracks:
            if name is None or (owner is None and t.name == name) or \
                    (owner is not None and t.owner == owner and name in t.name):
                return t
        return None
    return pick


class _TrackRequirement(Moves):
    """`(<keyword> ["Track"] [<owner>] <moves>)` on the track Ludii picks (see _track_picker).

    Ludii 1.3.12 drops the consequents of both requirements (it attaches them to a list it
    never returns): they are refused rather than silently dropped."""

    params = (P("name", LitStr, opt=True), P("owner", RoleType, opt=True), P("moves", Moves),
              P("then", "Then", opt=True))

    def compile(self, env):
        self.refuse("then", why="Ludii does not apply them")
        return self.on_track(_track_picker(env, self), env.compile(self.moves))


@ludeme("firstMoveOnTrack")
class FirstMoveOnTrack(_TrackRequirement):
    """`(firstMoveOnTrack ["Track"] [<owner>] <moves>)`: the moves generated with `(site)` on
    the first site along the track (from its start) where there are any; none when no track
    matches. Example, bearing off from the rearmost piece that can:

        (firstMoveOnTrack "Track" Mover (if (is Friend (who at:(site))) (move Remove (site))))
    """
    concepts = ()

    @staticmethod
    def on_track(pick, gen):
        def first_move_on_track(c):
            track = pick(c)
            if track is None:
                return []
            saved = c.site
            out: list = []
            for site in track.sites:
                if site < 0:
                    continue
                c.site = site
                out = gen(c)
                if out:
                    break
            c.site = saved
            return out
        return first_move_on_track


@ludeme("max", "Distance")
class MaxDistance(_TrackRequirement):
    """`(max Distance ["Track"] [<owner>] <moves>)`: the moves, when a track matches (none
    otherwise). Ludii 1.3.12 measures each move's distance along the track, then returns
    the moves unfiltered, and so does this ludeme, to play exactly as Ludii does."""
    concepts = ("MaxDistance", "CopyContext")

    @staticmethod
    def on_track(pick, gen):
        return lambda c: gen(c) if pick(c) is not None else []


@ludeme("trackSite", "EndSite")
class TrackSiteEndSite(IntFn):
    """`(trackSite EndSite [role|(player ..)] ["Track"])`: the last site of a track (Ludii's
    TrackSiteEndTrack): with a name, the first track whose name contains it (owned by the
    player when one is given); without, the first track of the player or of nobody; else
    the board's first track. Example: `(sites {(trackSite EndSite)})`."""
    concepts = ()

    params = (P("player", "PlayerFn", opt=True), P("role", RoleType, opt=True),
              P("name", LitStr, opt=True))

    def compile(self, env):
        tracks = _all_tracks(env, self)
        given = self.role is not None or self.player is not None
        pid = _player_fn(env, self, lambda c: 0)
        if not given:
            end = _end_track(tracks, self.name, 0).sites[-1]
            return lambda c: end
        last = {p: _end_track(tracks, self.name, p).sites[-1]
                for p in range(0, env.num_players + 2)}
        return lambda c: last.get(pid(c), tracks[0].sites[-1])


def _end_track(tracks, name, p):
    """The track (trackSite EndSite ...) ends for player p (0: none given)."""
    for t in tracks:
        if name is not None and p == 0:
            if name in t.name:
                return t
        elif name is not None:
            if name in t.name and t.owner == p:
                return t
        elif t.owner in (p, 0):
            return t
    return tracks[0]


__all__ = ["FirstMoveOnTrack", "MaxDistance", "TrackSiteEndSite"]


@emits(TrackSiteEndSite, kind="int")
def _track_site_end(src, lud):
    """The last site of the track picked per player (a table), or the one without a
    player, as `TrackSiteEndSite.compile`."""
    tracks = _all_tracks(src.env, lud)
    if lud.role is not None and lud.player is not None:
        raise Unsupported(lud, "with a role and a player")
    if lud.role is None and lud.player is None:
        return str(_end_track(tracks, lud.name, 0).sites[-1])
    n = src.game.num_players
    player = src.role_expr(lud.role, lud) if lud.role is not None else src.int_expr(lud.player)
    last = src.table([_end_track(tracks, lud.name, p).sites[-1] for p in range(n + 2)])
    return (f"({last}[{player}] if 0 <= {player} <= {n + 1} "
            f"else {tracks[0].sites[-1]})")


def _tracks_by_player(src, lud):
    """The table of the track Ludii's requirement picks (`_track_picker`) with each player
    as the mover, its row lengths, whether there is one, and the row to read (the mover's,
    or the one row)."""
    owner = lud.owner
    if owner not in (None, "Mover") and not (owner[:1] == "P" and owner[1:].isdigit()):
        raise Unsupported(lud, f"of the track of {owner}")
    pick = _track_picker(src.env, lud)
    probe = src.probe()
    rows, found = [], []
    for p in range(src.game.num_players + 2):
        probe.s.mover = p
        t = pick(probe)
        rows.append([x for x in t.sites if x >= 0] if t is not None else [])
        found.append(t is not None)
    sites, lens = src.padded(rows)
    return (src.table(sites), src.table(lens), src.table(found, "bool_"),
            "mover" if owner == "Mover" else "0")


@emits(FirstMoveOnTrack, kind="moves", refuses=(("then", "with (then ...)"),))
def _first_move_on_track(src, lud, out, ind):
    """The moves with (site) on each site of the track in turn, from its start, until a site
    gives some (the moves of that site alone), as `FirstMoveOnTrack.on_track`. A test of an
    enclosing rule on the moves pushed would skip sites the reference stops at: refused."""
    if src.push_tests:
        raise Unsupported(lud, "inside a rule that tests each move (do ... ifAfterwards:)")
    sites, lens, _, who = _tracks_by_player(src, lud)
    mark = f"fm{len(out)}_{len(ind)}"
    body: list[str] = []
    src.moves(lud.moves, body, "    ")
    if src.any_mode:
        out.append(f"{ind}for site in {sites}[{who}, :{lens}[{who}]]:")
        out.extend(f"{ind}{x}" for x in body + ["    pass"])
        return
    out.append(f"{ind}{mark} = k")
    out.append(f"{ind}for site in {sites}[{who}, :{lens}[{who}]]:")
    out.extend(f"{ind}{x}" for x in body)
    out.append(f"{ind}    if k > {mark}:")
    out.append(f"{ind}        break")


@emits(MaxDistance, kind="moves", refuses=(("then", "with (then ...)"),))
def _max_distance(src, lud, out, ind):
    """The moves, when the requirement's track exists for the player (as `MaxDistance`,
    which Ludii 1.3.12 leaves unfiltered)."""
    _, _, found, who = _tracks_by_player(src, lud)
    out.append(f"{ind}if {found}[{who}]:")
    src.moves(lud.moves, out, ind + "    ")
    out.append(f"{ind}    pass")
