"""Race-game requirements on tracks: `(firstMoveOnTrack ...)` and `(max Distance ...)`
(Ludii's rules/play/moves/nonDecision/effect/requirement)."""

from __future__ import annotations

from .base import LitStr, Moves, P, RoleType, ludeme


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


__all__ = ["FirstMoveOnTrack", "MaxDistance"]
