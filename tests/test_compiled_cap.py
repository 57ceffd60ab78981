"""Compiled forms of captures: a sowing's capture with consequents, ...: hand-written games
give the same rows on both backends, and the rule they exercise acts."""

import pytest

from test_compiled import test_new_compiled_forms_give_the_reference_rows as _rows_agree
from test_compiled_sow import _two_rows

# A sowing whose capture (the last seed making two or three) takes the hole's seeds into
# the mover's hand, its consequents counting the mover's captures in the mover's value;
# the third capture wins.
TALLY_SOW_GAME = _two_rows("Tally Sow", 3, """\
    (play (move Select (from (sites Mover) if:(> (count at:(from)) 0))
            (then (sow if:(or (= (count at:(to)) 2) (= (count at:(to)) 3))
                       apply:(fromTo (from (to)) (to (handSite Mover)) count:(count at:(to))
                               (then (if (< (value Player Mover) 1)
                                       (set Value Mover 1)
                                       (set Value Mover (+ 1 (value Player Mover))))))))))""",
    "(if (>= (value Player Mover) 3) (result Mover Win))\n          " + """\
(if (>= (count Moves) 60)
            (byScore {(score P1 (count Cell at:(handSite P1)))
                      (score P2 (count Cell at:(handSite P2)))}))""")


@pytest.mark.parametrize("text,seeds,played", [
    # Both sides win, some games by the third capture before the move limit.
    (TALLY_SOW_GAME, (3, 4), lambda df: {1, 2} <= set(df["winner"]) and df["moves"].lt(60).any())],
    ids=["sow-capture-with-consequents"])
def test_capture_forms_give_the_reference_rows(text, seeds, played, tmp_path):
    _rows_agree(text, seeds, played, tmp_path)
