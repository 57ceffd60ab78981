"""`ludeme play`: play in the terminal against an agent (random by default), or watch agents play.

The opponent is any `ludeme.ai.agents` spec (`--opponent uct:iterations=2000`); it
takes every seat but yours, and with `--auto` every seat. The command's options are
read by `ludeme.cli.play`, which calls `play` here.
"""

from __future__ import annotations

import random
import sys

from ludeme.engine.state import Game, Move, State


def site_name(game: Game, site: int) -> str:
    """A board label ("A1"), or `HandP[i]` for a hand site."""
    if site < 0:
        return "-"
    board = game.board
    if site < game.containers[0].num_sites:
        return board.sites[site].label
    for c in game.containers[1:]:
        if c.sites_from <= site < c.sites_from + c.num_sites:
            i = site - c.sites_from
            return f"Hand{c.owner}" + (f"[{i}]" if c.num_sites > 1 else "")
    return str(site)


def describe_move(game: Game, m: Move) -> str:
    """A short human description of a move."""
    if m.is_pass:
        return "pass"
    if m.frm == m.to:
        from ludeme.engine.state import A_ADD, A_REMOVE
        # A compiled move names its action's kind; a reference move lists its actions.
        kinds = m.kinds if hasattr(m, "kinds") else {a[0] for a in m.actions}
        if A_REMOVE in kinds:
            return f"remove {site_name(game, m.to)}"
        if A_ADD in kinds:
            return f"place {site_name(game, m.to)}"
    return f"{site_name(game, m.frm)}-{site_name(game, m.to)}"


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


def play(game: Game, human: int | None, seed: int, out=sys.stdout, inp=sys.stdin,
         max_decisions: int | None = None, opponent=None) -> State:
    """Play a game; `human` is the player typed at the prompt (None: watch the agents play).

    `opponent`: the agent (`ludeme.ai.agents`) of every other seat; None for uniform random.
    """
    from ludeme.ai.agents import RandomAgent, check_agents
    opponent = opponent or RandomAgent()
    check_agents(game, [opponent])
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    decisions = 0
    while not state.is_terminal():
        if max_decisions is not None and decisions >= max_decisions:
            print(f"stopped after {decisions} decisions", file=out)
            break
        legal = state.legal_moves()
        mover = state.current_player()
        print(f"\n{render(state)}\nplayer {mover} to move", file=out)
        if human == mover:
            for i, m in enumerate(legal, 1):
                print(f"  {i:>3}. {describe_move(game, m)}", file=out)
            choice = _ask(len(legal), out, inp)
            if choice is None:
                print("bye", file=out)
                return state
            if choice == RESIGN:
                print(f"P{state.mover} resigns", file=out)
                state.resign(state.mover)
                human = None        # the rest is random play, shown to the end
                continue
        else:
            choice = opponent.choose(state, rng)
        print(f"P{mover}: {describe_move(game, legal[choice])}", file=out)
        state.apply(legal[choice])
        decisions += 1
    print(f"\n{render(state)}", file=out)
    if state.is_terminal():
        if state.winner:
            print(f"player {state.winner} wins ({state.end_type})", file=out)
        else:
            print(f"no winner ({state.end_type})", file=out)
    return state


RESIGN = -1


def _ask(n: int, out, inp) -> int | None:
    """A move number from the prompt (1..n), RESIGN for `r`; `q` or end of input quits."""
    while True:
        print(f"your move (1-{n}, r to resign, q to quit): ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            return None
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            return None
        if text in ("r", "resign"):
            return RESIGN
        if text.isdigit() and 1 <= int(text) <= n:
            return int(text) - 1
        print(f"  please type a number from 1 to {n}", file=out)
