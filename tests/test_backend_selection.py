"""Commands other than `run` take --backend too, and their answers do not depend on it."""

import pandas as pd

from conftest import DESCRIPTIONS, NO_COMPILED_FORM
from ludeme.cli.main import main

ADZUA = DESCRIPTIONS / "adzua_children.lud"


def ruleset(k: int) -> str:
    return f"Ruleset/Adzua (Children) (Ludii {k}) (Reconstructed)"


def test_compare_gives_the_same_comparison_on_both_backends(tmp_path, capsys):
    tables = {}
    for backend in ("reference", "compiled"):
        out = tmp_path / backend
        assert main(["compare", f"{ADZUA}::{ruleset(1)}", f"{ADZUA}::{ruleset(10)}", "-n", "12",
                     "--jobs", "1", "--identity-seeds", "2", "--no-progress", "--backend",
                     backend, "--out", str(out)]) == 0
        tables[backend] = pd.read_csv(out / "comparison.csv")
    rates = tables["compiled"]["metric"].str.contains("playouts_per_sec")
    pd.testing.assert_frame_equal(tables["reference"][~rates], tables["compiled"][~rates])
    assert len(tables["compiled"]) > 10


def test_compare_refuses_compiled_for_a_game_it_cannot_compile(tmp_path, capsys):
    assert main(["compare", str(NO_COMPILED_FORM), str(NO_COMPILED_FORM), "-n", "2",
                 "--jobs", "1", "--backend", "compiled", "--no-progress",
                 "--out", str(tmp_path)]) == 2
    assert "compiled backend has no form for" in capsys.readouterr().err
