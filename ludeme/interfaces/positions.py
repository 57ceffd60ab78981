"""Positions: a state built from pieces by site label, the mover and the phase.

A position file is plain text, one fact a line, `#` starting a comment:

    # Afterleap, the seed's example (four players)
    mover: P1
    phase: Movement            # every player; or per player: P1=Movement P2=Placement
    score: P2=1 P3=0           # optional
    Stone1: B6 E5 F5           # a piece name, then the sites it stands on
    Stone2: C6 D4 C3 D3 E1
    Stone1: Hand1*2            # a count with *k; HandN is player N's hand

`state_from_position(game, position)` gives the state, and `move_names(state)`
its legal moves as `ludeme play` prints them. `ludeme moves FILE POSITION`
prints the board and the legal moves of a position file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ludeme.engine.state import Game, State
from ludeme.errors import LudemeError, Pos, read_source


@dataclass
class Position:
    """Pieces as (piece name, site name, count, line), the mover, phases and scores."""

    pieces: list[tuple[str, str, int, int]] = field(default_factory=list)
    mover: int | None = None
    phases: dict[int, str] = field(default_factory=dict)   # player (0: everyone) -> phase
    scores: dict[int, int] = field(default_factory=dict)
    file: str = "<position>"
    lines: dict[str, int] = field(default_factory=dict)     # key -> line, for errors


def _player(word: str, pos: Pos) -> int:
    w = word.strip()
    if w[:1] in "Pp" and w[1:].isdigit():
        return int(w[1:])
    if w.isdigit():
        return int(w)
    raise LudemeError(f"expected a player such as P1, found {word!r}", pos)


def parse_position(text: str, file: str = "<position>") -> Position:
    """A Position from the text of a position file; LudemeError (file:line:col) if malformed."""
    out = Position(file=file)
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        pos = Pos(file, n, 1)
        if ":" not in line:
            raise LudemeError("expected 'key: value' (mover:, phase:, score: or a piece name)",
                              pos)
        key, value = (part.strip() for part in line.split(":", 1))
        words = value.split()
        if key == "mover":
            if len(words) != 1:
                raise LudemeError("mover: takes one player, e.g. 'mover: P2'", pos)
            out.mover = _player(words[0], pos)
            out.lines["mover"] = n
        elif key == "phase":
            if len(words) == 1 and "=" not in words[0]:
                out.phases[0] = words[0]
            else:
                for w in words:
                    who, _, name = w.partition("=")
                    if not name:
                        raise LudemeError(f"expected P<n>=<phase>, found {w!r}", pos)
                    out.phases[_player(who, pos)] = name
            out.lines["phase"] = n
        elif key == "score":
            for w in words:
                who, _, value_text = w.partition("=")
                try:
                    out.scores[_player(who, pos)] = int(value_text)
                except ValueError:
                    raise LudemeError(f"expected P<n>=<integer>, found {w!r}", pos) from None
        else:
            if not words:
                raise LudemeError(f"no sites given for {key!r}", pos)
            for w in words:
                site, _, count_text = w.partition("*")
                try:
                    count = int(count_text) if count_text else 1
                except ValueError:
                    raise LudemeError(f"expected <site>*<count>, found {w!r}", pos) from None
                if count < 1:
                    raise LudemeError(f"a count must be positive, found {w!r}", pos)
                out.pieces.append((key, site, count, n))
    return out


def read_position(path: str | Path) -> Position:
    """The Position in a file (UTF-8: a byte that is not is refused at its place)."""
    return parse_position(read_source(path, "position"), str(path))


def site_index(game: Game, name: str) -> int | None:
    """The site called `name`: a board label (any case) or HandN (player N's first hand site)."""
    upper = name.upper()
    if upper.startswith("HAND") and upper[4:].isdigit():
        owner = int(upper[4:])
        for c in game.containers[1:]:
            if c.owner == owner:
                return c.sites_from
        return None
    try:
        return game.board.index_of(upper)
    except (KeyError, ValueError):
        return None


def state_from_position(game: Game, position: Position, seed: int | None = None) -> State:
    """A state of `game` holding exactly the position: pieces, mover, phases and scores."""
    n = game.num_players
    state = game.new_initial_state(seed)
    state.clear_sites()
    names = {comp.name: comp.index for comp in game.components[1:]}
    for piece, site_name, count, line in position.pieces:
        pos = Pos(position.file, line, 1)
        what = names.get(piece)
        if what is None:
            raise LudemeError(f"no piece called {piece!r}; pieces: {', '.join(names)}", pos)
        site = site_index(game, site_name)
        if site is None:
            raise LudemeError(f"no site called {site_name!r} in {game.name}", pos)
        if state.what[site] and site < game.containers[0].num_sites:
            raise LudemeError(f"{site_name} holds two pieces", pos)
        if state.what[site] == what:        # a hand gathers its pieces
            count += state.count[site]
        state.set_site(site, what, count=count)
    if position.mover is not None:
        p = position.mover
        if not 1 <= p <= n:
            raise LudemeError(f"mover P{p}: players are P1 to P{n}",
                              Pos(position.file, position.lines["mover"], 1))
        state.mover, state.next, state.prev = p, p % n + 1, (p - 2) % n + 1
    for who, name in position.phases.items():
        if name not in game.phase_index:
            raise LudemeError(f"no phase called {name!r}; phases: {', '.join(game.phase_index)}",
                              Pos(position.file, position.lines["phase"], 1))
        for p in (range(1, n + 1) if who == 0 else [who]):
            if not 1 <= p <= n:
                raise LudemeError(f"P{p} does not exist: players are P1 to P{n}",
                                  Pos(position.file, position.lines["phase"], 1))
            state.phase[p] = game.phase_index[name]
    for p, value in position.scores.items():
        if not 1 <= p <= n:
            raise LudemeError(f"score for P{p}: players are P1 to P{n}")
        state.scores[p] = value
    return state


def ended(state: State) -> State | None:
    """The position as the game's end rules leave it when they end the game there, else
    None. A position is the board after a move by the player before its mover, so the end
    rules are evaluated as the turn evaluates them after a move: for that player, on a copy.
    """
    if state.is_terminal():
        return state
    n = state.g.num_players
    probe = state.clone()
    last = (state.mover - 2) % n + 1
    probe.mover, probe.next, probe.prev = last, last % n + 1, (last - 2) % n + 1
    probe.evaluate_end_rules()
    return probe if probe.is_terminal() else None


def move_names(state: State) -> list[str]:
    """The legal moves of a state, described as `ludeme play` describes them."""
    from .terminal import describe_move
    return [describe_move(state.g, m) for m in state.legal_moves()]


def apply_named(state: State, name: str) -> None:
    """Apply the legal move that `move_names` calls `name` (e.g. "B6-D6", "pass")."""
    names = move_names(state)
    if name not in names:
        raise LudemeError(f"{name!r} is not a legal move here; legal: {', '.join(names) or 'none'}")
    state.apply(state.legal_moves()[names.index(name)])
