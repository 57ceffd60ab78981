"""Soak: runs into one `--out` that overlap or are stopped leave one run's files, whole.

Two `ludeme run`s of six partitions of playouts each (so they are written partition by
partition) into one folder at once: the second is refused at once with a user error,
and the first's files are intact. Then a third run into the same folder is stopped by
Ctrl-C: the folder holds that run's finished partitions only, and every file's count
agrees (the console, summary.md, summary.csv, the partitions, run.json's game).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pandas as pd

from conftest import ctrl_c_reaches_it
from ludeme.analysis.playouts import playout_seed

# Tic-tac-toe, written here: three in a row on a 3 x 3 board.
TTT = ('(game "Soak" (players 2) (equipment {(board (square 3)) (piece "Disc" Each)}) '
       '(rules (play (move Add (to (sites Empty)))) (end {(if (is Line 3) (result Mover Win)) '
       '(if (is Full) (result Mover Draw))})))\n')
# `ludeme run` with partitions of 500 playouts, so a run of N = 3,000 writes six of them.
N = 3_000
PART = 500
RUN = ("import sys; from ludeme.analysis import playouts; "
       f"playouts.PARTITION_SIZE = {PART}; "
       "from ludeme.cli.main import main; sys.exit(main(sys.argv[1:]))")


def _start(lud, out, n, seed):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LUDEME_MAX")}
    return subprocess.Popen([sys.executable, "-c", RUN, "run", str(lud), "-n", str(n), "--seed",
                             str(seed), "--backend", "reference", "-j", "1", "--no-progress",
                             "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=ctrl_c_reaches_it)


def _wait_for(test, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline and not test():
        time.sleep(0.1)
    assert test()


def _one_runs_files(out, seed, said=None):
    """Every file of `out` counts the same playouts, all of one run of `seed`."""
    rows = pd.read_parquet(out / "playouts")
    n = len(rows)
    assert sorted(rows["index"]) == list(range(n))         # no index twice: not a mix
    assert [playout_seed(seed, i) for i in rows["index"]] == list(rows["seed"])
    assert int(pd.read_csv(out / "summary.csv")["n"].sum()) == n
    assert f"| n | {n:,} |" in (out / "summary.md").read_text()
    assert [c["game"] for c in json.loads((out / "run.json").read_text())["configurations"]] \
        == ["Soak"]
    assert not (out / "playouts.parquet").exists() and not (out / "playouts.csv").exists()
    left = [p.name for p in out.rglob("*") if p.name.endswith(".tmp")
            or p.name.startswith(".playouts")]
    assert left == []
    if said is not None:
        assert said.startswith(f"{n} playouts in"), said
    return n


def test_overlapping_and_stopped_runs_leave_one_whole_run(tmp_path):
    lud, out = tmp_path / "soak.lud", tmp_path / "out"
    lud.write_text(TTT)
    first = _start(lud, out, N, seed=1)
    _wait_for(lambda: (out / ".running").exists() and (out / ".running").read_text().strip())
    second = _start(lud, out, N, seed=2)
    stdout, stderr = second.communicate(timeout=120)
    assert second.returncode == 2, stderr
    assert f"another ludeme run (process {first.pid}) is writing into it" in stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    stdout, stderr = first.communicate(timeout=600)
    assert first.returncode == 0, stderr
    assert _one_runs_files(out, seed=1, said=stdout) == N

    third = _start(lud, out, N, seed=3)
    staged = lambda: any(out.glob(".playouts.*/*/part-*.parquet"))   # noqa: E731
    _wait_for(staged)
    third.send_signal(signal.SIGINT)
    stdout, stderr = third.communicate(timeout=120)
    assert third.returncode == 130, stderr
    kept = int(re.search(r"kept the (\d+) playouts", stderr).group(1))
    assert 0 < kept < N and kept % PART == 0
    assert _one_runs_files(out, seed=3, said=stdout) == kept
