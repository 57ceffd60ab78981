"""Positions recorded for `(meta (no Repeat ...))` (ludeme.model.ludemes.meta), as Ludii's
Game.apply and Trial.setLegalMoves keep them: `state.repeats` holds two frozensets, the
positions of the game and those of the current turn, shared safely between copies."""

from __future__ import annotations


def position_key(state) -> tuple:
    """What Ludii's stateHash reads: the sites of every container and the player order.

    Not the players' phases: Ludii's State hashes a phase change only when the game has the
    flag GameType.HashPhases, which no ludeme of Ludii 1.3.12 sets, so two positions that
    differ only in phase are one (in Chinese Checkers the pass that ends a hop sequence,
    phase "MultiJump" back to "Movement", repeats the position: PositionalRepetition is 1
    in every trial with three or more players, as Ludii's own trials give)."""
    return (state.sites_key(), tuple(state.player_order))


def record_position(state) -> None:
    """After a move (or the start rules): remember the position, as Ludii's Game.apply."""
    in_game, in_turn = state.repeats or (frozenset(), frozenset())
    key = position_key(state)
    if state.g.repetition == "Positional":
        if state.mover != state.prev:
            in_game = in_game | {key}
    elif state.mover == state.prev:
        in_turn = in_turn | {key}
    else:
        in_turn = frozenset((key,))
    state.repeats = (in_game, in_turn)


def without_repeats(state, moves: list) -> list:
    """The moves (passes always) whose position after them, consequents included, was not
    recorded (Ludii's Trial.setLegalMoves)."""
    in_game, in_turn = state.repeats or (frozenset(), frozenset())
    seen = in_game if state.g.repetition == "Positional" else in_turn
    if not seen:
        return moves
    return [m for m in moves if m.is_pass or key_after(state, m) not in seen]


def key_after(state, move) -> tuple:
    """The position after `move`, its consequents applied, as `position_key` gives it (on a
    copy: the state is left as it is)."""
    after = state.clone()
    after._apply_move_effects(move, True)
    return position_key(after)
