"""Playout concepts as Ludii's `ComputePlayoutConcepts` measures them.

Move concepts (Ludii 1.3.12's `frequencyConcepts`): every state of a playout
before a move (the start placements excepted) has its legal moves, forced passes
included; a state's share for a concept is the number of its legal moves that
carry the concept divided by the number of its legal moves; a playout's value
is the sum of those shares over its states divided by the number of states with
legal moves, and the game's value is the mean over playouts. The moves chosen
(by uniform-random play or by the agents given) only decide which states are
visited: every legal move of a state counts, whoever chooses among them.

A legal move carries the concepts of its actions, consequents included
(`Move.moveConcepts`), which read the ludeme that generated the move
(`Move.movesLudeme`) and the state it is played in:

- a step, slide, leap or from-to decision is "to empty", "to friend" or "to
  enemy" by what stands at its destination, a hop by what it jumps over and
  where it lands (`ActionMove.concepts`);
- a pass is a PassDecision, the forced pass of a player without moves too
  (Ludii's `Game.createPassMove` makes it a decision): a drawn Tic-Tac-Toe has
  11 states with moves, the last two a forced pass each;
- a capture concept needs a piece removed (`ActionRemove.concepts`: only an
  occupied site): an enemy at a replacing move's destination, an enemy jumped by
  a hop, or (other captures) fewer pieces of other players once the move and its
  consequents are applied to a copy of the state;
- MoveAgain needs the consequents to give the mover the next turn
  (`ActionSetNextPlayer.concepts`), seen on the same copy.

To know each move's generating ludeme the game is compiled once more with
`ludeme.compiler.MOVE_TAGGER` set: every closure of a move-generating ludeme is
wrapped to record, for the moves it returns, the innermost ludeme that made
them. Ordinary compiles and playouts never pay for this.

End concepts: the share of playouts ended by each end rule, counted with the
End-type concepts of the first end rule that holds when the last move has been
applied (the phase's rules, then the game's; the players still active, as in
Ludii's `prevContext`), and Draw for a playout no rule ended (a timeout, or a
draw by everyone passing), as Ludii's `frequencyConcepts` does.

Deviation (said plainly): other effect concepts (sowing, rolls, promotion,
flips, ...) are counted on every move whose generating ludeme declares them,
where Ludii counts only the moves whose actions include them.
"""

from __future__ import annotations

import random
from functools import cache

from .concepts import ConceptWalk, catalog

# Decisions whose destination Ludii classifies as empty / friend / enemy.
_TO_KIND = {"StepDecision": "StepDecisionTo", "SlideDecision": "SlideDecisionTo",
            "LeapDecision": "LeapDecisionTo", "FromToDecision": "FromToDecision"}
_CAPTURES = {"ReplacementCapture", "HopCapture", "HopCaptureMoreThanOne", "CustodialCapture",
             "EncloseCapture", "InterveneCapture", "SurroundCapture", "DirectionCapture",
             "CaptureSequence", "RemoveEffect", "SowCapture", "SowRemove"}


@cache
def frequency_concepts() -> dict[str, str]:
    """{concept: its playout frequency concept} for the concepts Ludii counts per move."""
    cat = catalog()
    return {name[:-len("Frequency")]: name for name in cat
            if name.endswith("Frequency") and name[:-len("Frequency")] in cat
            and cat[name[:-len("Frequency")]].type != "End" and name != "DrawFrequency"}


def load_tagged(path, options=(), ruleset=None):
    """The game compiled with move tags: (game, tags, typed tree, walk, recording).

    `tags[id(move)] = (move, ludeme)` for every move a tagged closure returned
    while `recording[0]` is true (it is turned off while an agent searches, whose
    look-ahead would otherwise fill the table).
    """
    from .api import load
    from .compiler import MOVE_TAGGER
    from .expand import expand_file
    from .ludemes.base import Builder, Other
    tags: dict[int, tuple] = {}
    recording = [True]

    def tagger(lud, f):
        def tagged(c):
            out = f(c)
            if not recording[0]:
                return out
            if not isinstance(out, list):
                out = list(out)
            for m in out:
                if id(m) not in tags or tags[id(m)][0] is not m:
                    tags[id(m)] = (m, lud)
            return out
        return tagged

    token = MOVE_TAGGER.set(tagger)
    try:
        game = load(path, options, ruleset, backend="reference")
    finally:
        MOVE_TAGGER.reset(token)
    typed = Builder().build(expand_file(path, list(options), ruleset).game, Other, "")
    return game, tags, typed, ConceptWalk(), recording


def _side(state, mover: int, site: int) -> str:
    """"Empty", "Friend" or "Enemy" for what stands at a site, seen by the mover."""
    if site < 0 or site >= len(state.what) or state.what[site] == 0:
        return "Empty"
    who = state.who[site]
    return "Friend" if who in (0, mover) else "Enemy"     # Ludii: no owner is never an enemy


def _hop_concepts(state, board, move, mover) -> set[str]:
    """What a hop jumps over (the first piece between) and where it lands."""
    out = set()
    radials = board.default.trajectories.radials
    if move.frm < 0 or move.frm >= len(radials):
        return out
    for rs in radials[move.frm].values():
        for r in rs:
            sites = list(r.sites[1:])
            if move.to in sites:
                between = sites[:sites.index(move.to)]
                over = [s for s in between if state.what[s] != 0]
                if over:
                    jumped = "Enemy" if _side(state, mover, over[0]) == "Enemy" else "Friend"
                    out.add(f"HopDecision{jumped}To{_side(state, mover, move.to)}")
                    if len(between) > 1:
                        out.add("HopDecisionMoreThanOne")
                        if jumped == "Enemy":
                            out.add("HopCaptureMoreThanOne")
                return out
    return out


def _applied(state, move):
    """A copy of the state with the move (and its consequents) applied."""
    after = state.clone()
    after.apply(move)
    return after


def _takes_enemy_piece(state, after, mover) -> bool:
    """Whether the move (consequents included) left fewer pieces of other players."""
    def others(s):
        return sum(1 for w, p in zip(s.what, s.who) if w and p not in (0, mover))
    return others(after) < others(state)


def _moves_again(after, mover) -> bool:
    """Whether the move's consequents gave the mover the next turn (Ludii's
    ActionSetNextPlayer to the mover, the action a (moveAgain) makes)."""
    return not after.over and after.mover == mover


def move_concepts(state, move, lud, walk, board) -> set[str]:
    """The concepts Ludii's actions would give one legal move in this state."""
    declared = walk.of(lud) if lud is not None else frozenset()
    mover = state.current_player()
    out = set()
    for decision, prefix in _TO_KIND.items():
        if decision in declared:
            out.add(decision)
            if move.frm >= 0 and move.frm < len(state.what) and state.what[move.frm]:
                out.add(prefix + _side(state, mover, move.to))
            if decision == "FromToDecision":
                on_board = state.g.containers[0].num_sites
                out.add("FromToDecisionWithinBoard" if (move.frm < on_board) == (move.to < on_board)
                        else "FromToDecisionBetweenContainers")
    if "HopDecision" in declared:
        out.add("HopDecision")
        out |= _hop_concepts(state, board, move, mover)
    if move.is_pass:
        out.add("PassDecision")
    after = None
    if "MoveAgain" in declared:     # only when the consequents do give the mover another turn
        after = _applied(state, move)
        if _moves_again(after, mover):
            out.add("MoveAgain")
    out |= {c for c in declared if c in frequency_concepts() and c not in out
            and c not in _CAPTURES and not c.endswith(("ToEmpty", "ToFriend", "ToEnemy"))
            and not c.startswith("HopDecision") and c not in ("PassDecision", "MoveAgain")}
    captures = declared & _CAPTURES
    # Replacement and hop captures are read off the state (an enemy at the destination, an
    # enemy jumped); any other capture is seen by applying the move to a copy of the state.
    if "ReplacementCapture" in captures and 0 <= move.to < len(state.what) \
            and _side(state, mover, move.to) == "Enemy":
        out |= {"ReplacementCapture", "RemoveEffect"}
    if "HopCapture" in captures and any(c.startswith("HopDecisionEnemy") for c in out):
        out |= {"HopCapture", "RemoveEffect"}
    else:
        out.discard("HopCaptureMoreThanOne")
    rest = captures - {"ReplacementCapture", "HopCapture", "HopCaptureMoreThanOne", "RemoveEffect"}
    if rest and _takes_enemy_piece(state, after or _applied(state, move), mover):
        out |= rest | {"RemoveEffect"}
    return out


def _end_rules(game, typed):
    """(compiled rule, typed rule) of the game's end rules and of each phase's, by phase index."""
    rules = typed.rules
    game_end = list(zip(game.end or [], rules.end.rules if rules.end is not None else []))
    phases = []
    typed_phases = rules.play.phases if hasattr(rules.play, "phases") else []
    for k, ph in enumerate(game.phases):
        tph = typed_phases[k] if k < len(typed_phases) else None
        tend = tph.end.rules if tph is not None and getattr(tph, "end", None) is not None else []
        phases.append(list(zip(ph.end or [], tend)))
    return game_end, phases


def end_concepts_of(state, game_end, phases, walk, turn=None) -> set[str]:
    """End-type concepts of the first end rule that holds in the final state (phase rules first).

    Ludii evaluates them in the state the last move left before the game ended it
    (`lastMove().apply(prevContext)`): the board after the move, with the players
    still active and the mover's next player. `turn` = (next, active) recorded
    before the last move restores those two for the evaluation (the end itself
    deactivates the players).
    """
    from .engine import UNDEFINED
    cat = catalog()
    c = state.ctx
    c.from_ = c.to = c.site = c.player = UNDEFINED
    saved = (state.next, state.active)
    if turn is not None:
        state.next, state.active = turn[0], list(turn[1])
    try:
        phase_rules = phases[state.phase[state.mover]] if phases else []
        for rules in (phase_rules, game_end):
            for compiled, typed_rule in rules:
                if any(res is not None for res in compiled(c)):
                    return {x for x in walk.of(typed_rule) if cat[x].type == "End"}
    finally:
        state.next, state.active = saved
    return set()


def playout_concepts(path, options=(), ruleset=None, playouts: int = 10, seed: int = 0,
                     agents: str | None = None) -> dict:
    """Move-concept frequencies and end-concept shares over playouts.

    `agents`: one agent spec per player as `ludeme run --agents` takes them
    (`random,uct:iterations=200`); None plays uniform-random moves. Playout i
    uses `playout_seed(seed, i)` for the agents' choices and the game's chance,
    as `ludeme run` does. The agents choose the moves; the frequencies are still
    shares of all the legal moves of each state (Ludii's definition).
    """
    from .agents import agents_from_specs, check_agents
    from .runner import playout_seed
    game, tags, typed, walk, recording = load_tagged(path, options, ruleset)
    players = agents_from_specs(agents, game.num_players) if agents else None
    check_agents(game, players)
    board = game.board
    freq_names = frequency_concepts()
    totals = {name: 0.0 for name in freq_names.values()}
    ends: dict[str, float] = {}
    game_end, phases = _end_rules(game, typed)
    for i in range(playouts):
        s = playout_seed(seed, i)
        rng = random.Random(s)
        state = game.new_initial_state(s)
        sums: dict[str, float] = {}
        turns_with_moves = 0
        turn = None
        while not state.is_terminal():
            tags.clear()
            legal = state.legal_moves()
            k = len(legal)
            if k:
                turns_with_moves += 1
                counts: dict[str, int] = {}
                for m in legal:
                    entry = tags.get(id(m))
                    lud = entry[1] if entry is not None and entry[0] is m else None
                    for concept in move_concepts(state, m, lud, walk, board):
                        counts[concept] = counts.get(concept, 0) + 1
                for concept, n in counts.items():
                    if concept in freq_names:
                        sums[freq_names[concept]] = sums.get(freq_names[concept], 0.0) + n / k
            turn = (state.next, list(state.active))
            if players is None:
                state.apply(legal[rng.randrange(k)])
            else:
                recording[0] = False
                try:
                    choice = players[state.current_player() - 1].choose(state, rng)
                finally:
                    recording[0] = True
                state.apply(legal[choice])
        for name, v in sums.items():
            totals[name] += v / turns_with_moves
        found = end_concepts_of(state, game_end, phases, walk, turn) \
            if state.end_type == "NaturalEnd" else set()
        for concept in found or {"Draw"}:
            name = f"{concept}Frequency"
            if name in catalog():
                ends[name] = ends.get(name, 0.0) + 1
    out = {name: v / playouts for name, v in totals.items() if v}
    out.update({name: v / playouts for name, v in ends.items()})
    return out
