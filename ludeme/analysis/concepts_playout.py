"""Playout concepts as Ludii's `ComputePlayoutConcepts` measures them.

Move concepts (Ludii 1.3.12's `frequencyConcepts`): every state of a playout
before a move (the start placements excepted) has its legal moves, forced passes
included; a state's share for a concept is the number of its legal moves that
carry the concept divided by the number of its legal moves; a playout's value
is the sum of those shares over its states divided by the number of states with
legal moves, and the game's value is the mean over playouts. The moves chosen
(by uniform-random play or by the agents given) only decide which states are
visited: every legal move of a state counts, whoever chooses among them.

A legal move carries the concepts of the actions it performs, consequents
included (Ludii 1.3.12's `Move.moveConcepts`: the move is applied to a copy of
the state and each action applied says its concepts, read in the state before
the move and against the concepts of the move's *moves ludeme*):

- a piece moved (a step, slide, leap, sowing, ...) gives the concepts of the
  ludeme that its kind names (StepDecision, Sow, ...), and a decision's "to
  empty", "to friend" or "to enemy" by what stood at the destination; a hop
  what it jumps over and where it lands (`ActionMove.concepts`);
- a piece removed from an occupied site is a RemoveEffect (RemoveDecision for a
  removal decision) with the capture concepts of the moves ludeme
  (`ActionRemove.concepts`); an empty site removed gives nothing;
- an added piece is an AddDecision or AddEffect, a promotion a PromotionDecision
  or PromotionEffect, a pass a PassDecision or PassEffect (the forced pass of a
  player without moves is a decision: Ludii's `Game.createPassMove`), a next
  player set to the mover a MoveAgain (`ActionSetNextPlayer`), a site state set
  a Flip when the moves ludeme flips, a count set a SetCount, a die rolled a Roll.

The moves ludeme is what Ludii's classes record on the moves they return
(`Move.setMovesLudeme`): the effect ludemes (step, slide, add, remove, sow, ...)
record themselves, an outer (priority ...) the list entry the move came from,
(max Captures/Moves/Distance) an empty list of moves (no concepts), and the
operators (forEach, or, if, do, ...) and a few effects (hop, select, pass,
shoot, vote) record nothing; a move with no moves ludeme has only the concepts
its actions carry alone (a hop decision of Ludii 1.3.12 is then no HopDecision).

To know each move's ludemes the game is compiled once more with
`ludeme.model.build.MOVE_TAGGER` set: every closure of a move-generating ludeme is
wrapped to record, for the moves it returns, the ludemes that returned them,
innermost first. Ordinary compiles and playouts never pay for this.

End concepts: the share of playouts ended by each end rule, counted with the
End-type concepts of the first end rule that holds when the last move has been
applied (the phase's rules, then the game's; the players still active, as in
Ludii's `prevContext`), and Draw for a playout no rule ended (a timeout, or a
draw by everyone passing), as Ludii's `frequencyConcepts` does.

`action_agreement` checks the actions these concepts are read from against
Ludii's: the moves of recorded traces, the actions Ludii applied (its
`applied` record) beside those applied here, each turned into concepts alike.

`add_playout_concepts` puts these and the metrics of `ludeme run` into a configuration's
`ludeme.analysis.concepts.GameConcepts` (`ludeme concepts --playouts N`).
"""

from __future__ import annotations

import random
import re
from functools import cache

from ludeme.boards.trajectories import COMPASS_INDEX
from .concepts import ConceptWalk, GameConcepts, catalog
from ludeme.engine.actions import (ACTION_TO, ACTIONS, A_ADD, A_COUNT, A_DICE_EQUAL, A_NEXT, A_PASS,
                                  A_SET_VAR, A_SWAP, A_UPDATE_DIE, A_USE_DIE,
                                  DECISION_OR_EFFECT, LUDII_MOVING, LUDII_REMOVING, LUDII_SITED,
                                  MOVE_COPIED, MOVING_ACTIONS, PLAIN, REMOVE_CAPTURES)

@cache
def frequency_concepts() -> dict[str, str]:
    """{concept: its playout frequency concept} for the concepts Ludii counts per move."""
    cat = catalog()
    return {name[:-len("Frequency")]: name for name in cat
            if name.endswith("Frequency") and name[:-len("Frequency")] in cat
            and cat[name[:-len("Frequency")]].type != "End" and name != "DrawFrequency"}


def load_tagged(path, options=(), ruleset=None):
    """The game compiled with move tags: (game, tags, typed tree, walk, recording).

    `tags[id(move)] = (move, [ludeme, ...])`: the ludemes whose closures returned
    the move, innermost first, for every move returned while `recording[0]` is
    true (it is turned off while an agent searches and while a move is tried on a
    copy, whose moves would otherwise fill the table).
    """
    from ludeme.api import load
    from ludeme.model.build import MOVE_TAGGER
    from ludeme.language.expand import expand_file
    from ludeme.model.ludemes.base import Other
    from ludeme.model.ludemes.builder import Builder
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
                entry = tags.get(id(m))
                if entry is None or entry[0] is not m:
                    tags[id(m)] = (m, [lud])
                elif entry[1][-1] is not lud:
                    entry[1].append(lud)
            return out
        return tagged

    token = MOVE_TAGGER.set(tagger)
    try:
        game = load(path, options, ruleset, backend="reference")
    finally:
        MOVE_TAGGER.reset(token)
    typed = Builder().build(expand_file(path, list(options), ruleset).game, Other, "")
    return game, tags, typed, ConceptWalk(typed), recording


# How Ludii 1.3.12's moves ludemes record themselves on the moves they return
# (`setMovesLudeme`), by the ludeme's name: "self" (the ludeme), "entry" (the list entry
# the move came from: Priority), "none" (a list of moves with no concepts: the max
# filters). A ludeme not named records nothing (the operators, hop, select, pass, ...).
MOVES_LUDEME = {
    **{(k, None): "self" for k in (
        "step", "slide", "leap", "fromTo", "add", "remove", "promote", "push", "surround",
        "custodial", "intervene", "enclose", "directional", "flip", "sow", "moveAgain",
        "addScore", "roll", "append", "firstMoveOnTrack", "avoidStoredState", "claim",
        "attract", "deal", "playCard", "propose", "bet")},
    **{("move", k): "self" for k in (
        "Step", "Slide", "Leap", None, "Add", "Remove", "Promote", "Set", "Swap", "Propose",
        "Claim", "Bet")},
    **{("set", k): "self" for k in (
        "Score", "Value", "Count", "State", "Counter", "NextPlayer", "Pending", "Var",
        "RememberValue", "Rotation", "Team", "Hidden", "TrumpSuit", "Pot")},
    ("remember", "Value"): "self", ("remember", "State"): "self",
    ("forget", "Value"): "self", ("swap", "Players"): "self", ("swap", "Pieces"): "self",
    ("take", "Control"): "self", ("take", "Domino"): "self",
    ("priority", None): "entry",
    ("max", "Captures"): "none", ("max", "Moves"): "none", ("max", "Distance"): "none",
}
NO_LUDEME = object()     # Ludii's BaseMoves as a moves ludeme: no concepts


def moves_ludeme(chain):
    """The moves ludeme Ludii would record on a move returned by `chain` (innermost
    first): the outermost ludeme that records one; None when none does."""
    found = None
    for i, lud in enumerate(chain):
        rule = MOVES_LUDEME.get((type(lud).keyword, type(lud).kind))
        if rule == "self":
            found = lud
        elif rule == "none":
            found = NO_LUDEME
        elif rule == "entry" and i > 0:
            found = chain[i - 1]
    return found


# ---------------------------------------------------------------- actions as Ludii's

class Action:
    """One applied action as Ludii names it: `name` (Ludii's action class: "Move",
    "Remove", "Add", "SetNextPlayer", ...), its sites, the player it names, and whether it
    is the move's decision."""

    __slots__ = ("name", "frm", "to", "player", "decision")

    def __init__(self, name: str, frm: int = -1, to: int = -1, player: int = 0,
                 decision: bool = False):
        self.name, self.frm, self.to, self.player, self.decision = name, frm, to, player, decision

    def __repr__(self) -> str:
        return f"{self.name}({self.frm},{self.to}{',P' + str(self.player) if self.player else ''}" \
               f"{',decision' if self.decision else ''})"


def engine_action(a: tuple, decision: bool = False, stacking: bool = False) -> Action | None:
    """The Ludii action of one engine action tuple (None: an action Ludii has no class for),
    in a stacking game or not: its class and sites from `ludeme.engine.actions.ACTIONS`."""
    kind = ACTIONS[a[0]]
    name = kind.ludii_class(a, stacking)
    if name is None:
        return None
    if name in LUDII_SITED:
        frm, to = kind.endpoints(a)
        return Action(name, frm, to, 0, decision and a[0] != A_COUNT)
    if name == "SetValueOfPlayer":
        return Action(name, player=a[1][1])
    if a[0] in (A_NEXT, A_SWAP):
        return Action(name, player=a[1], decision=decision)
    if a[0] == A_PASS or name in ("Propose", "Vote", "Bet"):
        return Action(name, decision=decision)
    return Action(name)


# Engine actions that come before a decision's own action in its list (the dice a
# (do (roll) next:...) rolls, the variables it sets): never the decision.
def _is_prefix(a: tuple) -> bool:
    return a[0] in (A_UPDATE_DIE, A_DICE_EQUAL, A_SET_VAR, A_USE_DIE)


def _decision_action(move):
    """The action a decision ludeme made its move with: a pass move's pass, else the first
    that moves a piece from the move's origin to its destination, else the first at its
    destination, else the first of the move's own actions."""
    own = [a for a in move.actions if not _is_prefix(a)] or list(move.actions)
    if move.is_pass:
        return next((a for a in own if a[0] == A_PASS), None)
    if move.frm != move.to:
        for a in own:
            if a[0] in MOVING_ACTIONS and (a[1], a[ACTION_TO[a[0]]]) == (move.frm, move.to):
                return a
    for a in own:
        if ACTION_TO[a[0]] and a[ACTION_TO[a[0]]] == move.to:
            return a
    return own[0] if own else None


def _first_appended(move) -> list:
    """The actions of the first move an (append ...) joined: its own actions up to the
    next that repeats the first (the next move joined starts as the first did)."""
    own = [a for a in move.actions if not _is_prefix(a)]
    for i in range(1, len(own)):
        if own[i] == own[0]:
            return own[:i]
    return own


def applied_actions(state, move, chain=()) -> list[Action]:
    """The actions a legal move performs, consequents included, as Ludii's
    `getMoveWithConsequences` lists them: applied to a copy of the state as `State.apply`
    applies them, its end rules left out (the pending values cleared and the move counted
    among those played first; the pieces marked on a capture sequence removed after a move
    that does not continue it).

    The decision is the action a decision ludeme made the move with (`_decision_action`;
    a pass move that no (pass) effect made is one too: Ludii's forced pass), or the
    actions of the first move an (append ...) gathered (Ludii's Append makes that move the
    decision); an effect ludeme's move has none. The piece a `copy:True` from-to move
    adds is Ludii's copy (`ActionCopy`) from the origin. `chain`: the ludemes that returned the
    move, innermost first (none: a move the engine made, a forced pass or the swap rule's,
    a decision)."""
    out = []
    for a, decision, copy in applied_engine_actions(state, move, chain):
        if copy:
            out.append(Action("Copy", move.frm, move.to, 0, True))
            continue
        act = engine_action(a, decision, state.g.stacking)
        if act is not None:
            out.append(act)
    if move.is_pass and not any(x.name == "Pass" for x in out):
        out.insert(0, Action("Pass", decision=True))
    return out


def applied_engine_actions(state, move, chain=()) -> list[tuple[tuple, bool, bool]]:
    """The engine's action tuples behind `applied_actions`, in order, each with whether it
    is the move's decision and whether it is Ludii's copy (a decision's add of a
    `copy:True` move)."""
    after = state.clone()
    after.pending.clear()
    after._replayed = False
    move.mover = state.mover
    after.num_moves += 1
    after.num_decisions += 1
    after.history.append((state.mover, move.is_pass))
    done: list = []
    after._apply_move_effects(move, True, done, True)
    if after.g.sequence_capture and not after._replayed and after.to_clear:
        done.extend(after.end_of_turn_removals())
    maker = (type(chain[0]).keyword, type(chain[0]).kind) if chain else ("move", None)
    if maker[0] == "append":
        decisions = _first_appended(move)
    elif maker[0] == "move" or (move.is_pass and maker[0] != "pass"):
        decisions = [_decision_action(move)]
    else:
        decisions = []
    copies = bool(chain) and maker in (("move", None), ("fromTo", None)) \
        and getattr(chain[0], "copy", False) is True
    return [(a, any(a is d for d in decisions),
             copies and a[0] == A_ADD and any(a is d for d in decisions)) for a in done]


def are_enemies(state, who1: int, who2: int) -> bool:
    """Ludii's `areEnemies`: two players, neither 0, not the same nor of one team."""
    if who1 == 0 or who2 == 0 or who1 == who2:
        return False
    teams = state.g.teams
    if teams:
        return teams.get(who1) != teams.get(who2)
    return True


def _to_kind(state, whoA: int, site: int) -> str:
    """"Empty", "Enemy" or "Friend": what stands at a site, seen by the piece's owner."""
    if site < 0 or site >= len(state.what) or state.what[site] == 0:
        return "Empty"
    return "Enemy" if are_enemies(state, whoA, state.who[site]) else "Friend"


def _hop_concepts(state, board, frm: int, to: int) -> set[str]:
    """What a hop from `frm` to `to` jumps over and where it lands (Ludii's ActionMove: the
    first direction whose radial reaches `to`; every piece between, on every radial of
    that direction; "more than one" whenever the landing is not adjacent)."""
    radials = board.default.trajectories.radials
    out = set()
    if not 0 <= frm < len(radials):
        return out
    whoA = state.who[frm]
    found = None
    # Ludii walks the board's absolute directions (N, NE, ...), not the relations.
    for direction in sorted((d for d in radials[frm] if d in COMPASS_INDEX), key=COMPASS_INDEX.get):
        for r in radials[frm][direction]:
            if to in r.sites[1:]:
                found = (direction, list(r.sites).index(to))
                break
        if found:
            break
    if found is None:
        return out
    direction, distance = found
    landing = _to_kind(state, whoA, to)
    for r in radials[frm][direction]:
        for site in list(r.sites)[1:distance]:
            if state.what[site] == 0:
                continue
            if are_enemies(state, whoA, state.who[site]):
                out.add(f"HopDecisionEnemyTo{landing}")
                if distance > 1:
                    out |= {"HopDecisionMoreThanOne", "HopCaptureMoreThanOne"}
            else:
                out.add(f"HopDecisionFriendTo{landing}")
                if distance > 1:
                    out.add("HopDecisionMoreThanOne")
    return out


def action_concepts(state, board, act: Action, ludeme_concepts: frozenset, mover: int) -> set[str]:
    """The concepts of one action, read in the state before the move (Ludii 1.3.12's
    `concepts(context, movesLudeme)` of the action's class)."""
    name, lc = act.name, ludeme_concepts
    out: set[str] = set()
    if name in LUDII_MOVING:
        frm, to = act.frm, act.to
        n = len(state.what)
        occupied = 0 <= frm < n and state.what[frm] != 0
        whoA = state.who[frm] if occupied else 0
        if "HopDecision" in lc:
            out.add("HopDecision")
            if occupied:
                out |= _hop_concepts(state, board, frm, to)
        for decision in ("StepDecision", "LeapDecision", "SlideDecision"):
            if decision in lc:
                out.add(decision)
                if occupied:
                    out.add(f"{decision}To{_to_kind(state, whoA, to)}")
        if "FromToDecision" in lc:
            on_board = state.g.containers[0].num_sites
            out.add("FromToDecisionWithinBoard" if (frm < on_board) == (to < on_board)
                    else "FromToDecisionBetweenContainers")
            if occupied:
                out.add("FromToDecision" + _to_kind(state, whoA, to))
        out |= {c for c in MOVE_COPIED if c in lc}
        if name == "Copy" and "FromToDecision" in lc:
            out.add("FromToDecision")
    elif name in LUDII_REMOVING:
        if 0 <= act.to < len(state.what) and state.what[act.to] != 0:
            out.add("RemoveDecision" if act.decision else "RemoveEffect")
            out |= {c for c in REMOVE_CAPTURES if c in lc}
            if name == "Remove":
                out |= {c for c in ("SowRemove", "PushEffect") if c in lc}
    elif name == "Add":
        out |= {c for c in ("ShootDecision", "ShootEffect", "TakeControl", "PushEffect") if c in lc}
        if not out:
            out.add("AddDecision" if act.decision else "AddEffect")
    elif name == "SetNextPlayer":
        out.add("SetNextPlayer")
        if act.player == mover:
            out.add("MoveAgain")
    elif name == "SetState":
        out.add("SetSiteState")
        if "Flip" in lc:
            out.add("Flip")
    elif name == "Swap":             # Ludii's SwapPlayers makes every swap a decision
        out.add("SwapPlayersDecision")
    elif name in DECISION_OR_EFFECT:
        out.add(DECISION_OR_EFFECT[name][0 if act.decision else 1])
    elif name in PLAIN:
        out.add(PLAIN[name])
    elif name == "Select":
        out |= {c for c in ("SwapPiecesEffect", "SwapPiecesDecision") if c in lc}
    return out


def move_concepts(state, move, chain, walk, board) -> set[str]:
    """The concepts Ludii gives one legal move in this state: those of the actions it
    performs (`Move.moveConcepts`), against the concepts of its moves ludeme."""
    lud = moves_ludeme(chain) if chain else None
    concepts = walk.of(lud) if lud is not None and lud is not NO_LUDEME else frozenset()
    mover = state.current_player()
    out: set[str] = set()
    for act in applied_actions(state, move, chain):
        out |= action_concepts(state, board, act, concepts, mover)
    return out


# ---------------------------------------------------------------- checked against Ludii

_ACTION_TEXT = re.compile(r"\[(\w+):([^\[\]]*)\]")
_FIELD = re.compile(r"(\w+)=([^,]*)")


def ludii_actions(applied: str) -> list[Action]:
    """The actions of a move as Ludii's trial records it (`toTrialFormat`: "[Move:...,
    actions=[Select:from=5,decision=true],[Move:from=5,to=6],...]")."""
    out = []
    at = applied.find("actions=")
    body = applied[at + len("actions="):] if at >= 0 else applied
    for name, fields in _ACTION_TEXT.findall(body):
        f = dict(_FIELD.findall(fields))
        to = int(f.get("to", f.get("site", -1)))
        frm = int(f.get("from", to))
        player = int(f["player"]) if f.get("player", "").lstrip("-").isdigit() else 0
        if name == "Move" and "count" in f:
            name = "MoveN"
        if name == "Remove" and f.get("applied") == "false":
            name = "RemoveNonApplied"
        out.append(Action(name, frm, to, player, f.get("decision") == "true"))
    return out


def action_agreement(traces, ludii_dir, index=None) -> dict:
    """The concepts of each recorded move read from Ludii's applied actions and from the
    actions applied here (both through `action_concepts`, with the same moves ludeme and
    the state before the move), compared over the playout-frequency concepts; each trace
    replayed up to its first step that does not agree.

    Returns {"moves", "agree", "wrong": Counter of the concepts that differ (+ only here,
    - only in Ludii's), "traces", "skipped"}."""
    from collections import Counter

    from .crosscheck import Locator, _board_diff, read_trace, recorded_roll
    from ludeme.errors import LudemeError
    loc = Locator(str(ludii_dir), index)
    freq = set(frequency_concepts())
    res = {"moves": 0, "agree": 0, "wrong": Counter(), "traces": 0, "skipped": 0}
    for path in traces:
        data = read_trace(path)
        lud, _, _ = loc.find(str(path), data)
        if lud is None:
            res["skipped"] += 1
            continue
        try:
            game, tags, _typed, walk, recording = load_tagged(
                lud, data.get("optionsEffective") or data.get("optionsRequested") or (),
                data.get("ruleset"))
        except (LudemeError, RecursionError):
            res["skipped"] += 1
            continue
        res["traces"] += 1
        state = game.new_initial_state()
        for step in data.get("steps", []):
            if state.is_terminal() or "applied" not in step:
                break
            if state.g.uses_chance:
                state.force_roll = recorded_roll(step["legal"])
            tags.clear()
            try:
                legal = state.legal_moves()
            except LudemeError:
                break
            chosen = step["legal"][step["chosen"]]
            cands = [m for m in legal if (m.frm, m.to) == (chosen["from"], chosen["to"])]
            recording[0] = False
            try:
                picked = None
                for m in cands:
                    trial = state.clone()
                    trial.apply(m)
                    if _board_diff(trial, step["board"]) is None:
                        picked, after = m, trial
                        break
                if picked is None:
                    break
                entry = tags.get(id(picked))
                chain = entry[1] if entry is not None and entry[0] is picked else ()
                lud_ = moves_ludeme(chain) if chain else None
                lc = walk.of(lud_) if lud_ is not None and lud_ is not NO_LUDEME else frozenset()
                mover = state.current_player()
                ludii = set().union(*(action_concepts(state, game.board, a, lc, mover)
                                      for a in ludii_actions(step["applied"]))) & freq
                ours = move_concepts(state, picked, chain, walk, game.board) & freq
            finally:
                recording[0] = True
            res["moves"] += 1
            res["agree"] += ours == ludii
            res["wrong"].update([f"+{c}" for c in ours - ludii] + [f"-{c}" for c in ludii - ours])
            state = after
    return res


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
    from ludeme.engine.state import UNDEFINED
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
    from ludeme.ai.agents import agents_from_specs, check_agents
    from .playouts import playout_seed
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
                recording[0] = False        # the moves tried on copies are not tagged
                try:
                    for m in legal:
                        entry = tags.get(id(m))
                        chain = entry[1] if entry is not None and entry[0] is m else ()
                        for concept in move_concepts(state, m, chain, walk, board):
                            counts[concept] = counts.get(concept, 0) + 1
                finally:
                    recording[0] = True
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


def add_playout_concepts(gc: GameConcepts, playouts: int, seed: int = 0, jobs=None,
                         agents: str | None = None) -> None:
    """Ludii's playout metrics (those `ludeme run` computes), move-concept frequencies and
    end-concept shares (`playout_concepts`) from `playouts` playouts, played by
    uniform-random moves or by `agents` (one spec per player, as `ludeme run --agents`)."""
    from ludeme.ai.agents import agents_from_specs
    from .metrics import METRICS, summarize
    from .playouts import load, run_playouts
    game = load(gc.file, gc.options, gc.ruleset)
    players = agents_from_specs(agents, game.num_players) if agents else None
    df = run_playouts(game, playouts, seed, jobs, agents=players, progress=False)
    row = summarize(df).iloc[0]
    gc.playout = {m: float(row[m]) for m in METRICS if m in catalog() and m in row}
    gc.playout.update(playout_concepts(gc.file, gc.options, gc.ruleset, playouts, seed, agents))
    gc.playout_agents = [a.name for a in players] if players else ["random"] * game.num_players
    gc.playout_count = len(df)
    who = ", ".join(f"P{i} {name}" for i, name in enumerate(gc.playout_agents, 1))
    gc.playout_source = (f"{len(df)} playouts ({who}), run seed {seed}; metrics as `ludeme run` "
                         f"computes them; move-concept frequencies (shares of the legal moves "
                         f"of each state, averaged over states, then playouts) and end shares "
                         f"from the same seeds on the reference engine")
