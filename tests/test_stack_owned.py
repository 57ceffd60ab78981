"""Ludii's lists of owned pieces in a stacking game (`ludeme.engine.stores.OwnedStackSites`):
(site, level) locations in the order Ludii's actions write them, read by (where "Name" ...).

The expected answers follow Ludii's sources: a piece joins its kind's list at the end when
added or moved (ActionAdd, ActionMove, ActionStackMove), leaves it by its level when moved
or removed (ActionRemoveTopPiece, ActionRemoveLevel: the levels above it at that site move
down a level in every list), and a whole stack leaves by its site (ActionMove with stack).
Where takes the first site of the list holding the piece at any level (WhereSite)."""

from __future__ import annotations

import pytest

from ludeme.language.expand import expand, load_description
from ludeme.model.build import build_game


def _game(start: str, play: str, site: int, board: str = "(board (square 3))",
          extra: str = ""):
    text = (f'(game "T" (players 2) (equipment {{ {board} (piece "Disc" Each) {extra} }}) '
            f'(rules (start {{ {start} }}) (play {play}) '
            f'(end (if (= (where "Disc" P1) {site}) (result P2 Win)))))')
    return build_game(expand(load_description("t.lud", text)))


@pytest.mark.parametrize("start, play, site", [
    # placed on 5 then 1: [5 1]; the disc of 5 moves, joins at the end: [1 0]
    ('(place Stack "Disc1" 5) (place Stack "Disc1" 1)', "(move (from 5) (to 0))", 1),
    # placed on 1 then 5: [1 5] -> [5 0]
    ('(place Stack "Disc1" 1) (place Stack "Disc1" 5)', "(move (from 1) (to 0))", 5),
    # a removal drops the entry: [7 5 1] -> [7 1]
    ('(place Stack "Disc1" 7) (place Stack "Disc1" 5) (place Stack "Disc1" 1)',
     "(move Remove 5)", 7),
    # a whole stack moved: its discs leave the site's entries and join at their new levels
    ('(place Stack "Disc1" 5) (place Stack "Disc2" 5) (place Stack "Disc1" 1)',
     "(move (from 5) (to 0) stack:True)", 1),
    # so do the top levels moved together (ActionStackMove)
    ('(place Stack "Disc1" 5) (place Stack "Disc2" 5) (place Stack "Disc1" 1)',
     "(move (from 5) (to 0) count:2 stack:True)", 1),
    # 4 holds Disc1, Disc2, Disc1 (bottom first): [4/0 4/2 2/0]. Level 0 removed: the disc
    # above shifts down, [4/1 2/0]; the top piece of 4 moved to 8 leaves by its level,
    # [2/0 8/0]; a disc added on 4 joins at the end, [2/0 8/0 4/1] (without the shift
    # the old 4/2 would stay first and answer 4)
    ('(place Stack "Disc1" 4) (place Stack "Disc2" 4) (place Stack "Disc1" 4) '
     '(place Stack "Disc1" 2)',
     '(move Remove 4 level:0 (then (fromTo (from 4) (to 8) (then (add (piece "Disc1") '
     '(to 4) stack:True)))))', 2),
])
@pytest.mark.parametrize("board", ["(board (square 3))",                 # CellOnlyOwned
                                   "(board (square 3) use:Vertex)"])    # FullOwned
def test_where_in_a_stacking_game_follows_ludiis_list_of_owned_pieces(start, play, site,
                                                                     board):
    game = _game(start, play, site, board=board)
    state = game.new_initial_state(0)
    state.apply(state.legal_moves()[0])
    assert state.is_terminal() and state.winner == 2


def test_the_lists_keep_levels_shifted_by_a_removal_below():
    game = _game('(place Stack "Disc1" 4) (place Stack "Disc2" 4) (place Stack "Disc1" 4)',
                 "(move Remove 4 level:0)", 99)
    state = game.new_initial_state(0)
    disc1, disc2 = (c.index for c in game.components[1:3])
    assert state.sites.owned == {disc1: [(4, 0), (4, 2)], disc2: [(4, 1)]}
    state.apply(state.legal_moves()[0])
    assert state.sites.owned == {disc1: [(4, 1)], disc2: [(4, 0)]}
    assert [lv[0] for lv in state.stack(4)] == [disc2, disc1]


def test_a_clone_copies_the_lists():
    game = _game('(place Stack "Disc1" 5) (place Stack "Disc1" 1)', "(move (from 5) (to 0))",
                 99)
    state = game.new_initial_state(0)
    clone = state.clone()
    clone.apply(clone.legal_moves()[0])
    disc1 = game.components[1].index
    assert state.sites.owned[disc1] == [(5, 0), (1, 0)]
    assert clone.sites.owned[disc1] == [(1, 0), (0, 0)]



# -- (forEach Piece) of a stacking game that promotes walks the lists ----------------------

PROMOTING = ('(game "T" (players 2) (equipment {{ (board (square 3)) '
             '(piece "Pawn" Each (move Step Forward (to if:(is Empty (to))) stack:True '
             '(then (promote (last To) (piece "Queen") Mover)))) '
             '(piece "Queen" Each (move Step (directions {{E W}}) (to if:(is Empty (to))) '
             'stack:True)) }}) '
             '(rules (start {{ (place Stack "Pawn1" 0) (place Stack "Pawn2" 2) }}) '
             '(play (forEach Piece)) (end (if (no Moves Next) (result Mover Win)))))')


def test_a_piece_promoted_alone_on_its_site_is_still_moved_as_ludii_does():
    # ActionPromote in a stacking game drops the old piece from its owner's list only when
    # other pieces stay on its site; ForEachPiece walks the lists kind by kind and generates
    # each listed kind's moves at its (site, level), whatever stands there. So after the
    # pawn steps 0 -> 3 and becomes a queen alone there, the pawn is still listed at 3 and
    # its step north comes first (Pawn1 before Queen1), then the queen's step east.
    game = build_game(expand(load_description("t.lud", PROMOTING.format())))
    assert game.walks_stack_lists
    s = game.new_initial_state()
    assert [m.key() for m in s.legal_moves()] == [(0, 3)]
    s.apply(s.legal_moves()[0])                     # P1: 0 -> 3, promoted
    s.apply(s.legal_moves()[0])                     # P2: 2 -> 5, promoted
    assert [m.key() for m in s.legal_moves()] == [(3, 6), (3, 4)]
