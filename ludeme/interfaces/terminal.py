"""`ludeme play`: play in the terminal against an agent (random by default), or watch agents play.

The opponent is any `ludeme.ai.agents` spec (`--opponent uct:iterations=2000`); it
takes every seat but yours, and with `--auto` every seat. The command's options are
read by `ludeme.cli.play`, which calls `play` here.
"""

from __future__ import annotations

import random
import sys

from ludeme.engine.notation import move_names, site_name
from ludeme.engine.state import Game, State


def render(state: State) -> str:
    """The board as text (rows top to bottom, labels around), then hands and scores."""
    g = state.g
    sites = g.board.sites
    rows = sorted({s.row for s in sites}, reverse=True)
    cols = sorted({s.col for s in sites})
    at = {(s.row, s.col): s.index for s in sites}
    width = 2
    lines = []
    for r in rows:
        cells = []
        for c in cols:
            i = at.get((r, c))
            if i is None:
                cells.append(" " * width)
            else:
                who = state.level_data(i)[1]
                height = state.size_stack(i)
                mark = f"{who}" if height <= 1 else f"{who}^{height}"
                cells.append(f"{mark:>{width}}" if who else " " * (width - 1) + ".")
        lines.append(f"{r + 1:>3} " + " ".join(cells))
    letters = [chr(65 + c) if c < 26 else "?" for c in cols]
    lines.append("    " + " ".join(f"{ch:>{width}}" for ch in letters))
    for c, counts in zip(g.containers[1:], state.hand_counts()):
        lines.append(f"hand of P{c.owner}: {sum(counts)} piece(s)")
    if any(state.scores[1:]):
        lines.append("scores: " + ", ".join(f"P{p}={state.scores[p]}"
                                             for p in range(1, g.num_players + 1)))
    return "\n".join(lines)


HELP = """type a move's number, its name (as listed, any case), or a site: the move that
ends there, else the move that starts there, when only one does.
  moves, list   the legal moves again
  undo          take back your last move and the replies since
  r, resign     resign (the rest is played by the agents)
  q, quit       stop
  help          this text"""


def play(game: Game, human: int | None, seed: int, out=sys.stdout, inp=sys.stdin,
         max_decisions: int | None = None, opponent=None) -> State:
    """Play a game; `human` is the player typed at the prompt (None: watch the agents play).

    `opponent`: the agent (`ludeme.ai.agents`) of every other seat; None for uniform random.
    An undo replays the game from its start (same seed) without the moves taken back, so the
    position is the one played before.
    """
    from ludeme.ai.agents import RandomAgent, check_agents
    opponent = opponent or RandomAgent()
    check_agents(game, [opponent])
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    history: list[tuple[int, int]] = []        # (mover, index of the legal move chosen)
    show_moves = True
    while not state.is_terminal():
        if max_decisions is not None and len(history) >= max_decisions:
            print(f"stopped after {len(history)} decisions", file=out)
            break
        legal = state.legal_moves()
        mover = state.current_player()
        names = move_names(game, legal)
        if human == mover:
            if show_moves:
                print(f"\n{render(state)}\nplayer {mover} to move", file=out)
                _list(names, out)
            show_moves = True
            choice = _ask(game, legal, names, out, inp)
            if choice is None:
                print("bye", file=out)
                return state
            if choice == RESIGN:
                print(f"P{state.mover} resigns", file=out)
                state.resign(state.mover)
                human = None        # the rest is random play, shown to the end
                continue
            if choice == UNDO:
                mine = [i for i, (p, _) in enumerate(history) if p == human]
                if not mine:
                    print("  nothing to undo: you have not moved yet", file=out)
                    show_moves = False
                    continue
                history = history[:mine[-1]]
                state = _replay(game, seed, history)
                print(f"  took back your last move ({len(history)} decisions kept)", file=out)
                continue
        else:
            print(f"\n{render(state)}\nplayer {mover} to move", file=out)
            choice = opponent.choose(state, rng)
        print(f"P{mover}: {names[choice]}", file=out)
        state.apply(legal[choice])
        history.append((mover, choice))
    print(f"\n{render(state)}", file=out)
    if state.is_terminal():
        if state.winner:
            print(f"player {state.winner} wins ({state.end_type})", file=out)
        else:
            print(f"no winner ({state.end_type})", file=out)
    return state


def _replay(game: Game, seed: int, history: list[tuple[int, int]]) -> State:
    """The state after `history`'s choices from the start (the same seed: the same dice)."""
    state = game.new_initial_state(seed)
    for _, choice in history:
        state.apply(state.legal_moves()[choice])
    return state


def _list(names: list[str], out) -> None:
    for i, n in enumerate(names, 1):
        print(f"  {i:>3}. {n}", file=out)


RESIGN = -1
UNDO = -2


def choose(game: Game, legal: list, names: list[str], text: str) -> int | str:
    """The index of the legal move `text` names (a number from 1, a move's name in any case,
    or a site that only one move ends at, else only one starts from); else why not, as a
    message."""
    t = text.strip().lower()
    n = len(legal)
    if t.isdigit():
        return int(t) - 1 if 1 <= int(t) <= n else f"there is no move {t}: type 1 to {n}"
    lowered = [x.lower() for x in names]
    if t in lowered:
        return lowered.index(t)
    for end, what in (("to", "ends"), ("frm", "starts")):
        hits = [i for i, m in enumerate(legal) if not m.is_pass
                and site_name(game, getattr(m, end)).lower() == t]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return (f"{len(hits)} moves {what} at {text.strip()}: "
                    + ", ".join(names[i] for i in hits) + "; type one of them or its number")
    return f"{text.strip()!r} is not a legal move here (type moves to list them, help for help)"


def _ask(game: Game, legal: list, names: list[str], out, inp) -> int | None:
    """A move from the prompt (see `choose`), RESIGN, UNDO; None on quit or end of input."""
    while True:
        print(f"your move (1-{len(legal)}, a name or site; help): ", end="", file=out,
              flush=True)
        line = inp.readline()
        if not line:
            return None
        text = line.strip().lower()
        if not text:
            continue
        if text in ("q", "quit", "exit"):
            return None
        if text in ("r", "resign"):
            return RESIGN
        if text == "undo":
            return UNDO
        if text in ("help", "h", "?"):
            print(HELP, file=out)
            continue
        if text in ("moves", "list"):
            _list(names, out)
            continue
        got = choose(game, legal, names, text)
        if isinstance(got, int):
            return got
        print(f"  {got}", file=out)
