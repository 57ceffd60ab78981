"""Tracks: a named sequence of sites, written as site numbers or as a start site followed
by compass steps ("1,E,N,W": from 1 go east to the edge, then north, then west),
following Ludii's Track.buildTrack. `(track ...)` items of a board become `Track`s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ludeme.boards.board import Board
from ludeme.errors import LudemeError
from ludeme.language.syntax import Node

END = -2     # Ludii's End: the site past the last one of a track


@dataclass(frozen=True)
class TrackSpec:
    """A `(track ...)` as written: name, steps (a string or site numbers), options."""

    name: str
    steps: str | tuple[int, ...]
    loop: bool
    owner: int
    directed: bool
    node: Node


@dataclass
class Track:
    """A built track: its sites in order (repeats of one site folded) and its options."""

    name: str
    sites: tuple[int, ...]
    loop: bool
    owner: int                  # 0: everyone's
    directed: bool
    bumps: tuple[int, ...] = field(default=())   # per element, how often its site repeats
    internal_loop: bool = False   # a site comes back on a track with no repeats
    node: object = field(default=None, compare=False, repr=False)  # the (track ...) written

    def check_sites(self, total: int) -> None:
        """Refuse a site past every container (`total` sites): a track may go on into a
        hand, whose sites follow the board's, but not beyond the last."""
        bad = next((s for s in self.sites if s != END and s >= total), None)
        if bad is not None:
            raise LudemeError(f"track {self.name!r}: site {bad} is not a site of this game "
                              f"(it has sites 0 to {total - 1})",
                              getattr(self.node, "pos", None), via=getattr(self.node, "via", ()))


def track_spec(track) -> TrackSpec:
    """The typed `(track "Name" "steps"|{sites} [owner] [loop:] [directed:])` (Ludii's Track)
    read into a TrackSpec."""
    steps = track.steps
    if len(steps) == 1 and isinstance(steps[0], str) and steps[0] != "End":
        spec: str | tuple[int, ...] = steps[0]
    elif steps and all(isinstance(s, int) or s == "End" for s in steps):
        spec = tuple(END if s == "End" else s for s in steps)
    else:
        raise track.fail("a track's steps are a string (\"0,E,N\") or site numbers ({0 1 2})")
    owner = track.owner
    if owner is None or owner in ("Shared", "Neutral", "All"):
        owner = 0
    elif isinstance(owner, str):
        if not (owner.startswith("P") and owner[1:].isdigit()):
            raise track.fail(f"a track's owner is a player (P1, P2, ...) or a number, "
                             f"found {owner}")
        owner = int(owner[1:])
    return TrackSpec(track.name, spec, bool(track.loop), owner, bool(track.directed), track.node)


def add_tracks(board: Board, tracks) -> None:
    """Build the typed tracks on the board: `board.track_info` holds every track in
    declaration order (names may repeat per owner), `board.tracks` the first of each name."""
    board.track_info = []
    for track in tracks or ():
        built = build_track(track_spec(track), board)
        board.track_info.append(built)
        board.tracks.setdefault(built.name, built.sites)


def build_track(spec: TrackSpec, board: Board) -> Track:
    """Ludii's Track.buildTrack on the board's default site type."""
    if isinstance(spec.steps, tuple):
        sites = list(spec.steps)
    else:
        sites = _walk(spec, board)
    elems: list[int] = []
    bumps: list[int] = []
    count = 0
    for i, s in enumerate(sites):
        if i == len(sites) - 1 or s != sites[i + 1]:
            elems.append(s)
            bumps.append(count)
            count = 0
        else:
            count += 1
    has_bump = any(bumps)
    internal = not has_bump and len(set(elems)) != len(elems)
    for s in elems:
        # Sites past the board are allowed: a track may start in a hand (Ludii's numbering
        # continues there).
        if s != END and s < 0:
            raise LudemeError(f"track {spec.name!r}: site {s} is not a site", spec.node.pos,
                              via=spec.node.via)
    return Track(spec.name, tuple(elems), spec.loop, spec.owner, spec.directed, tuple(bumps),
                 internal, spec.node)


def _walk(spec: TrackSpec, board: Board) -> list[int]:
    parts = spec.steps.split(",")
    while len(parts) > 1 and not parts[-1]:
        parts.pop()     # Ludii splits with Java's String.split, which drops trailing empties

    def bad(msg):
        return LudemeError(f"track {spec.name!r}: {msg}", spec.node.pos, via=spec.node.via)
    if not parts[0].isdigit():
        raise bad(f"the first step must be a site number, found {parts[0]!r}")
    current = int(parts[0])
    out = [current]
    n = board.num_sites
    for step in parts[1:]:
        if step.isdigit():
            current = int(step)
            out.append(current)
            continue
        if step == "End":
            out.append(END)
            continue
        if not 0 <= current < n:
            raise bad(f"the step {step!r} needs a board site to start from")
        if board.site_type not in ("Cell", "Vertex"):
            raise bad("tracks by direction on edges are not supported yet")
        direction = "".join(ch for ch in step if not ch.isdigit())
        size = int(step[len(direction):]) if len(direction) != len(step) else None
        if direction not in board.directions:
            raise bad(f"the step {step!r}: no direction {direction!r} on this board "
                      f"(it has {', '.join(board.directions)})")
        for radial in board.radials[direction][current]:
            run = radial.sites[1:] if size is None else radial.sites[1:size + 1]
            for s in run:
                current = s
                out.append(s)
    return out
