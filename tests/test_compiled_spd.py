"""The generated kernels' work: a region's mask read in a loop it does not change in is
computed once before the loop, and the kernels still give the reference's rows."""

import test_compiled
from ludeme.engine.compiled.hoist import hoist

# A count over a region's intersection with a group whose if: reads another group: the
# kernels test each site of the board's rim against the group's mask, and each site the
# group grows into against the other group's mask.
RING_GROUP_GAME = """
(game "Ring Groups"
    (players 2)
    (equipment {
        (board (hex 3))
        (piece "Disc" Each)
    })
    (rules
        (play (move Add (to (sites Empty))))
        (end
            (if (>= (count Sites in:(intersection (sites Outer)
                        (sites Group at:(last To)
                            if:(not (is In (to) (sites Group at:(centrePoint)))))))
                    7)
                (result Mover Win)))
    )
)
"""


def test_a_groups_mask_read_in_a_loop_is_found_once(tmp_path):
    """The group masks the rule reads inside loops (the count's, the flood's) are each
    computed once before the loop, not once per site; the kernels give the reference's
    rows."""
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled.codegen import generate
    path = tmp_path / "game.lud"
    path.write_text(RING_GROUP_GAME)
    module = generate(load(path))
    inside = [line for line in module.splitlines() if "_inv_0[" in line]
    assert len(inside) == 2 and all("0 <= " in line for line in inside)
    assert module.count("_inv_0 = helper_") == 2
    test_compiled.test_new_compiled_forms_give_the_reference_rows(
        RING_GROUP_GAME, (0, 3), lambda r: (r.turns < 19).all() and (r.winner == 1).any()
        and (r.winner == 2).any(), tmp_path)


KERNELS = '''
def mask(who, at):
    member = np.zeros(9, np.bool_)
    member[at] = who[at] > 0
    return member


def writes(who, at):
    who[at] = 0
    return who


def count(who, frm):
    total = 0
    for site in range(9):
        if mask(who, frm)[site]:
            total += 1
    for site in range(9):
        if mask(who, site)[frm]:
            total += 1
    for site in range(9):
        if mask(who, frm)[site]:
            who[site] = 1
    for site in range(9):
        if writes(who, frm)[site]:
            total += 1
    return total
'''


def test_only_invariant_reads_of_pure_kernels_leave_their_loop():
    """A call leaves its loop when it calls a kernel that writes nothing, with arguments the
    loop does not change, and the loop writes nothing of the state: here the first loop's
    only."""
    out = hoist(KERNELS)
    assert out.count("_inv_") == 2
    assert "    _inv_0 = mask(who, frm)\n    for site in range(9):\n        if _inv_0[site]:" in out
    assert out.count("mask(who, frm)[site]") == 1 and "mask(who, site)[frm]" in out
    assert "writes(who, frm)[site]" in out
    np = __import__("numpy")
    ran = []
    for source in (KERNELS, out):
        space: dict = {"np": np}
        exec(source, space)
        who = np.array([0, 2, 0, 1, 0, 0, 1, 0, 0])
        ran.append((space["count"](who, 3), list(who)))
    assert ran[0] == ran[1]


# A test of moves written twice (a (define ...) used by two moves), each testing the moves
# the next player could make, themselves tested.
CORNER_WATCH_GAME = """
(define "Safe"
    (not (can Move
        (do (forEach Piece Next)
            ifAfterwards:(is In (last To) (sites Corners))))))
(game "Corner Watch"
    (players 2)
    (equipment {
        (board (square 4))
        (piece "Disc" Each (move Step Orthogonal (to if:(is Empty (to)))))
    })
    (rules
        (play
            (or
                (do (forEach Piece) ifAfterwards:"Safe")
                (do (move Add (to (sites Empty))) ifAfterwards:"Safe")))
        (end {
            (if (no Moves Next) (result Mover Win))
            (if (>= (count Pieces Mover) 6) (result Mover Win))
        })
    )
)
"""


def test_a_test_of_moves_met_twice_is_written_once(tmp_path):
    """The two copies of one test share its kernel: one (can Move ...) kernel for the
    moves listed and one for the moves looked for, not one per copy; the kernels give the
    reference's rows."""
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled.codegen import Source, _generate, generate
    path = tmp_path / "game.lud"
    path.write_text(CORNER_WATCH_GAME)
    game = load(path)
    module = generate(game)
    assert module.count("\ndef can_move_") == 2
    src = Source(game)
    _generate(game, game.new_initial_state(0), src)
    assert src.emitted < 50          # 64 when each copy was written in full
    test_compiled.test_new_compiled_forms_give_the_reference_rows(
        CORNER_WATCH_GAME, (0, 3), lambda r: (r.winner == 1).any() and (r.winner == 2).any(),
        tmp_path)


# A step in the piece's own direction, listed in play, looked for, and inside a test.
FORWARD_GAME = """
(game "Forward Only"
    (players {(player N) (player S)})
    (equipment {
        (board (square 5))
        (piece "Pawn" Each (move Step Forward (to if:(is Empty (to)))))
    })
    (rules
        (start {(place "Pawn1" (sites Bottom)) (place "Pawn2" (sites Top))})
        (play (do (forEach Piece) ifAfterwards:(can Move (forEach Piece Next))))
        (end (if (no Moves Next) (result Mover Win)))
    )
)
"""


def test_a_steps_table_of_each_kind_is_made_once(tmp_path, monkeypatch):
    """The table of each kind's steps in the piece's own direction is made once for the
    step, wherever its moves are written (listed, looked for, tested); the kernels give the
    reference's rows."""
    from ludeme.analysis.playouts import load
    from ludeme.engine.compiled.codegen import Source, generate
    path = tmp_path / "game.lud"
    path.write_text(FORWARD_GAME)
    game = load(path)
    made = []
    per_kind = Source.per_kind
    monkeypatch.setattr(Source, "per_kind", lambda self, f, every_kind=True: (
        made.append(1), per_kind(self, f, every_kind))[1])
    generate(game)
    assert len(made) == 1
    test_compiled.test_new_compiled_forms_give_the_reference_rows(
        FORWARD_GAME, (0, 3), lambda r: (r.end_type == "NaturalEnd").all()
        and (r.winner == 2).any(), tmp_path)
