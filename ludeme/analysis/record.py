"""A seeded playout written down: as a Ludii trial file (.trl, the syntax
`ludeme.analysis.trials` reads and Ludii's `Trial.saveTrialToTextFile` writes) and as a plain
list of moves by their names (`ludeme.engine.notation`).

The trial has Ludii's header (`game=`, the options, the `RNG internal state`), the start
rules' placements as mover-0 moves (`numInitialPlacementMoves` of them), then one `Move=`
line per decision with every action it performs, consequents included, in Ludii's action
syntax (classes and site types), the decision marked, then the end lines. The RNG state
written is Ludii's default, as ours draws differently: a game with dice is replayed by the
rolls each move records, as Ludii's own trials are.
"""

from __future__ import annotations

from ludeme.engine.actions import (A_ADD, A_ADD_LEVEL, A_COUNT, A_COVER, A_DICE_EQUAL, A_FLIP, A_MOVE,
                                   A_MOVE_LEVEL, A_MOVE_N, A_MOVE_STACK, A_NEXT, A_PASS,
                                   A_PLACED_FIELD, A_REMOVE, A_REMOVE_LEVEL, A_SCORE,
                                   A_SELECT, A_SET_FIELD, A_SET_SCORE, A_SET_VAR, A_SWAP, A_UPDATE_DIE, A_USE_DIE,
                                   ACTIONS)
from ludeme.engine.notation import move_names
from ludeme.engine.stores import TOP
from ludeme.errors import LudemeError

LUDII_VERSION = "1.3.12"       # the version whose trial syntax this writes (../shared's files)
_RNG_DEFAULT = "1,0,0,0,0,0,0,0"
_FIELD_CLASS = {"state": ("SetState", "state"), "value": ("SetValue", "value"),
                "rotation": ("SetRotation", "rotation")}


def site_type(game, site: int) -> str:
    """Ludii's SiteType of a site: the board's `use:` type on the board, Cell in a hand."""
    return game.board.site_type if site < game.containers[0].num_sites else "Cell"


def ludii_action(game, a: tuple, decision: bool, forced: bool = False) -> str:
    """One engine action in Ludii's trial syntax (`[Class:field=value,...]`); `forced`: a
    pass the engine made because the mover had no move (Ludii's forced pass)."""
    k = a[0]
    t = lambda s: site_type(game, s)           # noqa: E731
    if k in (A_MOVE, A_MOVE_N, A_MOVE_STACK, A_MOVE_LEVEL):
        frm, to = ACTIONS[k].endpoints(a)
        stack = k == A_MOVE_STACK or (k == A_MOVE_N and game.stacking)
        f = [f"typeFrom={t(frm)}", f"from={frm}"]
        if k == A_MOVE_LEVEL and a[2] != TOP:
            f.append(f"levelFrom={a[2]}")
        f += [f"typeTo={t(to)}", f"to={to}"]
        if k == A_MOVE_LEVEL and a[4] != TOP:
            f.append(f"levelTo={a[4]}")
        if k == A_MOVE_N:
            f.append(f"{'numLevel' if stack else 'count'}={a[3]}")
        name = "StackMove" if stack else "Move"
    elif k in (A_REMOVE, A_REMOVE_LEVEL):
        name, f = "Remove", [f"type={t(a[1])}", f"to={a[1]}"]
        if k == A_REMOVE_LEVEL and a[2] != TOP:
            f.append(f"level={a[2]}")
    elif k in (A_ADD, A_ADD_LEVEL):
        name, f = ACTIONS[k].ludii_class(a, game.stacking), [f"type={t(a[1])}", f"to={a[1]}"]
        if k == A_ADD_LEVEL and a[5] != TOP:
            f.append(f"level={a[5]}")
        f.append(f"what={a[2]}")
        if a[4] > 1:
            f.append(f"count={a[4]}")
        if game.stacking:
            f.append("stack=true")
    elif k == A_FLIP:
        name, f = "Promote", [f"type={t(a[1])}", f"to={a[1]}", f"what={a[3]}"]
    elif k == A_COUNT:
        name, f = "SetCount", [f"type={t(a[1])}", f"to={a[1]}", f"count={a[2]}"]
    elif k in (A_SET_FIELD, A_PLACED_FIELD) and a[1] in _FIELD_CLASS:
        name, field = _FIELD_CLASS[a[1]]
        f = [f"type={t(a[2])}", f"to={a[2]}"]
        if a[3] != TOP:
            f.append(f"level={a[3]}")
        f.append(f"{field}={a[4]}")
    elif k == A_PASS:
        name, f = "Pass", []
    elif k == A_SELECT:
        name, f = "Select", [f"from={a[1]}", f"to={a[2]}"]
    elif k == A_NEXT:
        name, f = "SetNextPlayer", [f"player={a[1]}"]
    elif k in (A_SCORE, A_SET_SCORE):
        name, f = "SetScore", [f"player={a[1]}", f"score={a[2]}"]
        if k == A_SCORE:
            f.append("add=true")
    elif k == A_SWAP:
        name, f = "Swap", [f"player1={a[1]}", f"player2={a[2]}"]
    elif k == A_SET_VAR and ACTIONS[k].ludii_class(a) == "Bet":
        name, f = "Bet", [f"player={a[1][1]}", f"bet={a[2]}"]
    elif k == A_SET_VAR and ACTIONS[k].ludii_class(a) == "SetPot":
        name, f = "SetPot", [f"pot={a[2]}"]
    elif k == A_SET_VAR and a[1] is None:
        name, f = "SetTemp", [f"temp={a[2]}"]
    elif k == A_SET_VAR:
        name, f = "SetVar", [f"name={a[1]}", f"value={a[2]}"]
    elif k == A_UPDATE_DIE:
        name, f = "SetStateAndUpdateDice", [f"site={a[1]}", f"state={a[2]}"]
    elif k == A_USE_DIE:
        name, f = "UseDie", [f"site={a[1]}"]
    elif k == A_DICE_EQUAL:
        name, f = "SetDiceAllEqual", [f"value={'true' if a[1] else 'false'}"]
    else:
        raise LudemeError(f"cannot write the action {ACTIONS[k].name!r} in Ludii's trial "
                          f"syntax yet")
    if decision:
        f.append("decision=true")
    if forced and k == A_PASS:
        f.append("forced=true")
    return f"[{name}:{','.join(f)}]"


def _move_line(mover: int, frm: int, to: int, actions: list[str]) -> str:
    ends = f",from={frm},to={to}" if frm >= 0 or to >= 0 else ""
    return f"Move=[Move:mover={mover}{ends},actions={','.join(actions)}]"


def _placements(game, state) -> list[str]:
    """The start position as Ludii's start rules place it: an Add per piece (per level on a
    stack, a count on a counted site), mover 0."""
    lines = []
    for site in range(game.total_sites):
        if game.stacking:
            for level, piece in enumerate(state.stack(site)):
                lines.append(_move_line(0, site, site, [
                    f"[Add:type={site_type(game, site)},to={site},level={level},"
                    f"what={piece[0]},stack=true]"]))
        elif state.what[site]:
            count = state.count[site]
            extra = f",count={count}" if count > 1 else ""
            lines.append(_move_line(0, site, site, [
                f"[Add:type={site_type(game, site)},to={site},what={state.what[site]}{extra}]"]))
    return lines


def write_trial(game, seed: int, choices: list[int]) -> str:
    """The playout of `choices` (indices into the legal moves, from the seeded start) as a
    Ludii trial file's text; its options are the game's (a ruleset's included)."""
    from .concepts_playout import applied_engine_actions
    state = game.new_initial_state(seed)
    head = [f"game={game.name}", "START GAME OPTIONS", *game.options, "END GAME OPTIONS",
            f"RNG internal state={_RNG_DEFAULT}"]
    placed = _placements(game, state)
    moves = []
    for i in choices:
        legal = state.legal_moves()
        m = legal[i]
        forced = m.is_pass and state._stuck     # the phase gave no move: the engine's pass
        # the cells a large piece covers are part of its Add or Move, as in Ludii's actions
        acts = [ludii_action(game, a, d, forced) for a, d, _ in applied_engine_actions(state, m)
                if a[0] != A_COVER]
        if m.is_pass and not any(x.startswith("[Pass:") for x in acts):
            acts.insert(0, "[Pass:decision=true,forced=true]")
        moves.append(_move_line(state.mover, -1 if m.is_pass else m.frm,
                                -1 if m.is_pass else m.to, acts))
        state.apply(m)
    tail = [f"numInitialPlacementMoves={len(placed)}"]
    if state.is_terminal():
        tail += [f"winner={state.winner or 0}", f"endtype={state.end_type}",
                 "rankings=" + ",".join(str(float(r)) for r in [0.0, *state.ranking[1:]])]
    tail += ["SANDBOX=false", f"LUDII_VERSION={LUDII_VERSION}"]
    return "\n".join(head + placed + moves + tail) + "\n"


def write_move_list(game, seed: int, choices: list[int]) -> str:
    """The playout as numbered lines `N. P<mover>: <name>` (names unique among the legal
    moves of their step), then the result."""
    state = game.new_initial_state(seed)
    lines = [f"# {game.name}, seed {seed}"]
    for n, i in enumerate(choices, 1):
        legal = state.legal_moves()
        lines.append(f"{n}. P{state.mover}: {move_names(game, legal)[i]}")
        state.apply(legal[i])
    if state.is_terminal():
        lines.append(f"# winner {state.winner or 0} ({state.end_type})")
    else:
        lines.append(f"# stopped after {len(choices)} decisions")
    return "\n".join(lines) + "\n"


def run_row(run_dir: str, row: int) -> dict:
    """Row `row` (its `index`) of a `ludeme run` folder's playouts.csv: the game, ruleset,
    options and seed that replay it; a LudemeError when the folder has no such row or the
    row's seats were not all uniform random (their choices are not the seed's alone)."""
    import csv
    from pathlib import Path
    path = Path(run_dir) / "playouts.csv"
    if not path.is_file():
        raise LudemeError(f"{run_dir}: no playouts.csv (the table `ludeme run` writes; a "
                          f"partitioned run has none: run fewer playouts to record one)")
    try:
        with path.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.DictReader(fh))
    except (OSError, csv.Error, UnicodeDecodeError) as e:
        raise LudemeError(f"cannot read {path}: {e}") from None
    need = {"game", "ruleset", "options", "index", "seed"}
    if rows and not need <= set(rows[0]):
        raise LudemeError(f"{path}: expected the columns {', '.join(sorted(need))}")
    found = [r for r in rows if r.get("index") == str(row)]
    if not found:
        raise LudemeError(f"{path}: no playout with index {row} (it has {len(rows)} rows, "
                          f"indices 0 to {len(rows) - 1})")
    r = found[0]
    agents = sorted({v for k, v in r.items() if k.startswith("agent_p")})
    if agents and agents != ["random"]:
        raise LudemeError(f"{path}: playout {row} was played by {', '.join(agents)}, not "
                          f"uniform random seats: its moves cannot be replayed from its seed")
    try:
        seed = int(r["seed"])
    except ValueError:
        raise LudemeError(f"{path}: playout {row} has no integer seed ({r['seed']!r})") from None
    moves = r.get("moves", "")
    return {"game": r["game"], "ruleset": r["ruleset"] or None,
            "options": [o for o in r["options"].split("; ") if o], "seed": seed,
            "moves": int(moves) if moves.isdigit() else None}
