"""What the report shows of each configuration beside its numbers (`showcase`): the board
as `ludeme board --svg` draws it, Ludii's concepts of the rules in one line, and sample
games: the shortest and the longest playout, a draw and a timeout (where there are any),
each replayed from its row's seed as a viewer page (`ludeme.analysis.viewer`).

`SamplePicker.add` takes the rows as they pass by (a whole table, or a large run's
partitions one batch at a time) and keeps one row per role, so picking the samples of
10^6 playouts holds four rows, never the table. Ties go to the lowest index, so the
choice does not depend on the order the partitions finished in.
"""

from __future__ import annotations

import numpy as np

ROLES = ("shortest", "longest", "draw", "timeout")
MAX_SAMPLE_MOVES = 2000     # a longer game's page shows its first moves (the page grows per move)


class SamplePicker:
    """The row of each role among the rows seen so far (`rows`: role -> row dict)."""

    def __init__(self):
        self.rows: dict[str, dict] = {}

    def add(self, df) -> None:
        """Take a table of playout rows (a DataFrame with `index`, `moves`, `winner` and
        `timeout`) into the choice."""
        if df is None or len(df) == 0:
            return
        index = df["index"].to_numpy()
        moves = df["moves"].to_numpy()
        timeout = df["timeout"].to_numpy(bool)
        ended = ~timeout & (df["winner"].to_numpy() == 0)
        ranks = [c for c in df.columns if c.startswith("rank_p")]
        if ranks:           # a draw: no winner, every player on the same rank
            r = df[ranks].to_numpy(float)
            ended &= (r == r[:, :1]).all(axis=1)
        # the first index among the fewest (most) moves: no sort of the table
        fewest, most = np.flatnonzero(moves == moves.min()), np.flatnonzero(moves == moves.max())
        candidates = {
            "shortest": (fewest[np.argmin(index[fewest])], lambda a, b: (a["moves"], a["index"]) <
                         (b["moves"], b["index"])),
            "longest": (most[np.argmin(index[most])], lambda a, b: (-a["moves"], a["index"]) <
                        (-b["moves"], b["index"])),
        }
        for role, mask in (("draw", ended), ("timeout", timeout)):
            if mask.any():
                at = np.flatnonzero(mask)
                candidates[role] = (at[np.argmin(index[at])], lambda a, b: a["index"] < b["index"])
        for role, (i, better) in candidates.items():
            i = int(i)
            # compared on its moves and index first: the whole row made only when it is kept
            if role in self.rows and not better({"moves": moves[i], "index": index[i]},
                                                self.rows[role]):
                continue
            self.rows[role] = {k: _plain(v) for k, v in df.iloc[i].to_dict().items()}

    def chosen(self) -> list[tuple[list[str], dict]]:
        """(roles, row) per distinct playout chosen, in the order of ROLES."""
        out: dict[int, tuple[list[str], dict]] = {}
        for role in ROLES:
            row = self.rows.get(role)
            if row is not None:
                out.setdefault(int(row["index"]), ([], row))[0].append(role)
        return list(out.values())


def _plain(value):
    """A numpy scalar as the Python value (rows go to JSON and to `playout_page`)."""
    return value.item() if isinstance(value, np.generic) else value


def sample_pages(game, picker: SamplePicker, prefix: str,
                 max_moves: int = MAX_SAMPLE_MOVES) -> tuple[list[dict], dict[str, str]]:
    """The samples' viewer pages: (what the report says of each sample, {file name: page}).

    A sample played by agents is not replayed (an agent's search can take far longer than
    the run's rows); a game longer than `max_moves` shows its first `max_moves` moves; a
    row that does not replay as recorded gets no page. Each says so in its `note`."""
    from .viewer import playout_page
    described, pages = [], {}
    for roles, row in picker.chosen():
        moves, index = int(row["moves"]), int(row["index"])
        item = {"roles": roles, "index": index, "moves": moves, "turns": int(row["turns"]),
                "result": row_result(row), "file": None, "note": ""}
        described.append(item)
        if any(v != "random" for k, v in row.items() if k.startswith("agent_p")
               and isinstance(v, str)):
            item["note"] = f"played by agents: ludeme view RUN_DIR --row {index} replays it"
            continue
        shown = min(moves, max_moves)
        caption = (f"playout {index} of the run ({', '.join(roles)}), seed {row['seed']}"
                   + (f"; the first {shown:,} of its {moves:,} moves" if shown < moves else ""))
        page, final = playout_page(game, int(row["seed"]), None, caption, max_decisions=shown)
        replayed = (int(final.winner or 0), final.num_decisions)
        if shown == moves and replayed != (int(row["winner"]), moves):
            item["note"] = "does not replay as recorded (another version of ludeme?)"
            continue
        if shown < moves:
            item["note"] = f"the page shows its first {shown:,} moves"
        name = f"{prefix}-{roles[0]}.html"
        pages[name] = page
        item["file"] = name
    return described, pages


def row_result(row: dict) -> str:
    """How a row's game ended, in words."""
    if row["timeout"]:
        return "timeout"
    if int(row["winner"]):
        return f"P{int(row['winner'])} wins"
    ranks = {v for k, v in row.items() if k.startswith("rank_p")}
    return "draw" if len(ranks) == 1 else "no winner"


# Ludii's concept types the report's line names (the others describe code or pictures),
# each under a short heading.
CONCEPT_GROUPS = {"Properties": "properties", "Container": "board", "Component": "pieces",
                  "Start": "start", "Play": "play", "End": "end", "Meta": "meta"}


def concepts_line(path, options=(), ruleset: str | None = None) -> str:
    """The true boolean concepts of a configuration's rules (leaves of Ludii's tree), by
    type: "properties: Discrete, TwoPlayer; board: SquareTiling, ...; play: ..."."""
    from .concepts import catalog, compile_time
    cat = catalog()
    found = compile_time(path, list(options), ruleset).boolean
    by_type: dict[str, list[str]] = {t: [] for t in CONCEPT_GROUPS}
    for name in sorted(found, key=lambda c: cat[c].id):
        if cat[name].leaf and cat[name].type in by_type:
            by_type[cat[name].type].append(name)
    return "; ".join(f"{CONCEPT_GROUPS[t]}: {', '.join(names)}"
                     for t, names in by_type.items() if names)


def showcase(game, path, options, ruleset: str | None, picker: SamplePicker, label: str,
             prefix: str) -> dict:
    """What the report shows of one configuration beside its numbers: its `label`, the
    board's SVG, the concepts line (or why there is none) and the sample games
    (`sample_pages`; their pages under `pages`, named from `prefix`)."""
    try:
        concepts = concepts_line(path, options, ruleset)
    except Exception as e:  # noqa: BLE001 - the run's rows are already played: a fault in
        # the concepts costs the report its line, never the run its files
        concepts = f"(not computed: {type(e).__name__}: {e})"
    samples, pages = sample_pages(game, picker, prefix)
    return {"label": label, "board": game.board.to_svg(size=420.0), "concepts": concepts,
            "samples": samples, "pages": pages}
