"""`python -m ludeme.engine.compiled.warm GAME_MODULE.py`: compile a generated game module's
playout kernel into numba's cache and mark it ready (`ludeme.engine.compiled.ready_mark`).

What `ludeme.engine.compiled.Compiling` runs in the background while a run plays its first
playouts on the reference engine. It needs only the module, not the game it came from.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    from ludeme.engine.compiled import check_random, import_module, ready_mark, warm_up
    if len(argv) != 1:
        print("usage: python -m ludeme.engine.compiled.warm GAME_MODULE.py", file=sys.stderr)
        return 2
    path = Path(argv[0])
    check_random()      # kernels drawing otherwise than the reference are never marked ready
    warm_up(import_module(path))
    ready_mark(path).touch()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
