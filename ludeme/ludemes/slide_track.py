"""`(move Slide "Track" ...)` and `(move Slide "AllTracks" ...)`: slides along the board's
tracks (Ludii's Slide.slideByTrack), as Surakarta's pieces travel round its corner loops.

A track's elements carry a bump count: how many times the walk goes round a loop on
leaving that element (a site written twice in a row, see `boards.mancala.build_track`).
From every place the start site has on every track chosen (a crossing site has two on one
circuit), the walk follows the track's next elements, at most one lap. Ludii's rules:

* Nothing is a destination before the walk has gone round at least one loop.
* After a loop, a site where the to condition holds is a destination that carries the
  to effect (`(apply ...)`, whose `if:` is not read there), and the walk stops.
* After a loop, any other site is a destination when the effect's `if:` holds (always
  when there is none), without the effect.
* The walk goes on while the between condition holds at the site reached (default: it is
  empty), so it may pass back over its own start site when that condition allows it.

Unlike a slide along radials, a track slide does not set `(from)` (it keeps the value the
caller set, e.g. `(forEach Piece)`'s site), does not reset `(between)` per track, and reads
neither the between range nor a trail: those are refused.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ..engine import A_MOVE, Move
from .moves import _effect_actions


def compile_track_slide(slide, env):
    """The closure of a `(move Slide "<track>"|"AllTracks" ...)` (a typed MoveSlide)."""
    from .sliding import slide_rules
    slide.refuse("dirn", why="Ludii's slide along a track reads no directions")
    b = slide.between
    if b is not None:
        b.refuse("before", "after", "apply", "range", "trail",
                 why="Ludii's slide along a track reads only the between condition")
    if slide.from_ is not None:
        slide.from_.refuse("level", "if_", why="Ludii's Slide reads only the start site")
    from_fn = env.site_fn(slide.from_)
    name = slide.track
    tracks = [t for t in getattr(env.board, "track_info", ())
              if name == "AllTracks" or t.name == name]
    go, stop, to_rule, effect, then = slide_rules(slide, env, "track")
    # Per track: (elements, next index of each element, bumps of each element).
    walks = [(t.sites, tuple(_next_index(t, k) for k in range(len(t.sites))), t.bumps)
             for t in tracks if len(t.sites) > 1]

    def slide_by_track(c):
        frm = from_fn(c)
        if frm < 0:
            return []
        saved_to, saved_between = c.to, c.between
        out = []
        for sites, nxt, bumps in walks:
            length = len(sites)
            for i in range(length):
                if sites[i] != frm:
                    continue
                index, loops, taken = i, bumps[i], 1
                while nxt[index] >= 0 and taken < length:
                    to_site = sites[nxt[index]]
                    taken += 1
                    c.to = to_site
                    if loops > 0:
                        if stop is not None and stop(c):
                            acts = _effect_actions(effect, c) if effect is not None else []
                            acts.append((A_MOVE, frm, to_site))
                            out.append(Move(frm, to_site, 0, acts, then))
                            break
                        if to_rule is None or to_rule(c):
                            out.append(Move(frm, to_site, 0, [(A_MOVE, frm, to_site)], then))
                    c.between = to_site
                    if not go(c):
                        break
                    index = nxt[index]
                    loops += bumps[index]
        c.to, c.between = saved_to, saved_between
        return out
    return slide_by_track


def _next_index(track, k: int) -> int:
    """Index of the element after element k on a track, -1 past the end of an open one."""
    if k + 1 < len(track.sites):
        return k + 1
    return 0 if track.loop else -1
