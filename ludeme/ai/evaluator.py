"""Ludii's heuristic state evaluation: the value function its AlphaBetaSearch uses when a
game's metadata names no heuristics, and the evaluation of states and moves its
Evaluation module's metrics read (`metrics.Utils.evaluateState` / `evaluateMove`).

The default heuristics (AlphaBetaSearch.initAI) are two terms, summed with their weights:

| term | weight | value for player p |
| --- | --- | --- |
| Material | 1 | p's pieces: one per (site, level) holding a piece p owns, on the board and in hands (a counted site is one piece, as Ludii's `Owned` positions are), plus the counts of neutral pieces in p's own hand |
| MobilitySimple | 0.001 | the number of legal moves when p is the mover (a forced pass counts one), else 0 |

Terms whose weight is below AlphaBetaSearch's threshold (0.001) are skipped; neither is.
Ludii adds the terms in 32-bit floats, and so does `heuristic` here.

`evaluate_state(state, p)`: in a state that is over, or where p is no longer active, p's
utility from the ranking (unranked players share the next draw rank: Ludii's
`RankUtils.agentUtilities`). Otherwise `H(p) - sum of H(o)` over the other players o still
active, minus 10,000 for each other player who has already won (AlphaBetaSearch's paranoid
score), negated when p's seat has been swapped, then `tanh`: a value in [-1, 1].
`evaluate_move(state, move)`: the evaluation, for the player who makes it, of the state
after the move. Ludii caches both by state hash; the values are the same without it.

A game's own `(ai ... (heuristics ...))` metadata replaces the default terms, as Ludii's
AlphaBetaSearch.initAI does: each term with its `weight:` (1 when not given), among

| term | value for player p |
| --- | --- |
| material | as above (every piece weighs 1; `pieceWeights:` is not supported yet) |
| mobilitySimple | as above |
| score | p's score |

A term or argument not listed (centreProximity, lineCompletionHeuristic, influence, ...)
is refused, at its place in the description, when the evaluation is asked for; the game
still loads and plays. Most of Ludii's games name their AI settings by one of Ludii's
`def_ai` defines (`(ai "Tic-Tac-Toe_ai")`), which are not among the descriptions read
here: those games get the default terms.
"""

from __future__ import annotations

import math
import struct

MATERIAL_WEIGHT = 1.0
MOBILITY_WEIGHT = struct.unpack("f", struct.pack("f", 0.001))[0]   # Ludii's 0.001f
ABS_WEIGHT_THRESHOLD = MOBILITY_WEIGHT                             # AlphaBetaSearch's
PARANOID_OPP_WIN_SCORE = 10000.0


def _f32(x: float) -> float:
    """x rounded to a 32-bit float (Ludii's heuristic arithmetic)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def material(state, player: int) -> int:
    """Ludii's Material term (every piece weighs 1): the (site, level) places holding a piece
    `player` owns, anywhere, plus the counts of neutral pieces in `player`'s hand."""
    g = state.g
    value = 0
    if g.stacking:
        for site in range(g.total_sites):
            value += sum(1 for level in state.stack(site) if level[1] == player)
    else:
        who, what = state.who, state.what
        value += sum(1 for s in range(g.total_sites) if what[s] and who[s] == player)
    for c in g.containers[1:]:
        if c.owner == player:
            for s in range(c.sites_from, c.sites_from + c.num_sites):
                if state.what[s] and state.who[s] == 0:
                    value += state.count[s]
    return value


def mobility(state, player: int) -> int:
    """Ludii's MobilitySimple: the legal moves when `player` moves, else 0."""
    return len(state.legal_moves()) if state.mover == player else 0


def score(state, player: int) -> int:
    """Ludii's Score heuristic: the player's score."""
    return state.scores[player]


TERMS = {"material": material, "mobilitySimple": mobility, "score": score}
DEFAULT_TERMS = ((material, MATERIAL_WEIGHT), (mobility, MOBILITY_WEIGHT))


def heuristic_terms(game) -> tuple:
    """(term, weight) pairs of the game's heuristics: its metadata's, else Ludii's default
    ones; terms weighing less than AlphaBetaSearch's threshold left out. A LudemeError, at
    its place, for a term or argument not supported yet."""
    from ludeme.errors import LudemeError
    from ludeme.language.syntax import Call, Float, Int, Named
    written = getattr(game, "heuristics", None)
    if not written:
        return DEFAULT_TERMS
    terms = []
    for node in written:
        name = node.name if isinstance(node, Call) else None
        if name not in TERMS:
            raise LudemeError(f"the heuristic {name or node!r} is not supported yet (supported: "
                              f"{', '.join(TERMS)})", node.pos)
        weight = 1.0
        for arg in node.args:
            if isinstance(arg, Named) and arg.name == "weight" and isinstance(arg.value,
                                                                              (Int, Float)):
                weight = _f32(float(arg.value.value))
            else:
                raise LudemeError(f"({name} ...): this argument is not supported yet (only "
                                  f"weight:)", arg.pos)
        if abs(weight) >= ABS_WEIGHT_THRESHOLD:
            terms.append((TERMS[name], weight))
    return tuple(terms)


def heuristic(state, player: int) -> float:
    """The heuristics' value of a state for a player (by default Material + 0.001
    MobilitySimple), in 32-bit floats as Ludii adds them."""
    g = state.g
    terms = g.__dict__.get("_heuristic_terms")
    if terms is None:
        terms = g.__dict__["_heuristic_terms"] = heuristic_terms(g)
    value = 0.0
    for term, weight in terms:
        if term is mobility and state.mover != player:
            continue        # 0, without generating the moves
        value = _f32(value + _f32(weight * term(state, player)))
    return value


def utilities(state) -> list[float]:
    """Ludii's `RankUtils.agentUtilities`: per player (index 0 unused) the utility of its rank,
    players not ranked yet taking the next draw rank; indexed by seat when seats were
    swapped."""
    n = state.g.num_players
    ranks = list(state.ranking)
    draw = state.next_draw_rank()
    out = [0.0]
    for p in range(1, n + 1):
        rank = ranks[p] if ranks[p] != 0.0 or n == 1 else draw
        out.append(2.0 * rank - 1.0 if n == 1 else 1.0 - (rank - 1.0) * (2.0 / (n - 1)))
    order = state.player_order
    return [0.0] + [out[order[p]] for p in range(1, n + 1)]


def evaluate_state(state, player: int) -> float:
    """Ludii's `Utils.evaluateState`: a value in [-1, 1] of the state for `player`."""
    if state.is_terminal() or not state.active[player]:
        return utilities(state)[player]
    score = heuristic(state, player)
    for opp in range(1, state.g.num_players + 1):
        if opp == player:
            continue
        if state.active[opp]:
            score = _f32(score - heuristic(state, opp))
        elif opp in state.winners:
            score = _f32(score - PARANOID_OPP_WIN_SCORE)
    if state.player_order[player] != player:
        score = -score
    return math.tanh(score)


def evaluate_all(state) -> list[float]:
    """Ludii's `allPlayerStateEvaluations`: -1.0 at index 0, then each player's evaluation."""
    return [-1.0] + [evaluate_state(state, p) for p in range(1, state.g.num_players + 1)]


def evaluate_move(state, move) -> float:
    """Ludii's `Utils.evaluateMove`: the evaluation of the state after `move` (a legal move
    of `state`) for the player making it."""
    mover = state.mover
    after = state.clone()
    after.apply(move)
    return evaluate_state(after, mover)


class HeuristicAgent:
    """One ply on the default heuristics: the legal move whose resulting state evaluates best
    for the mover (ties: the first), as Ludii's "One-Ply" heuristic agents choose."""

    name = "heuristic"
    looks_ahead = True

    def choose(self, state, rng) -> int:
        values = [evaluate_move(state, m) for m in state.legal_moves()]
        return values.index(max(values))
