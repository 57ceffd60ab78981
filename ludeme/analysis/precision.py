"""Precision-driven runs (`ludeme run --until-ci WIDTH`): play in batches until the chosen
metrics' 95% intervals are narrow enough, or a cap is reached.

A run's playouts are played in batches that are prefixes of one seed sequence: playout
k has the seed it has in a run of a fixed size (`playouts.playout_seed(seed, k)`), and a
batch ends at an index (`UntilCI.next_end`) that depends only on the rows before it.
After each batch the summary of every playout so far, taken in index order, gives each
chosen metric's interval, the one summary.csv prints (`ludeme.analysis.metrics`); the
run stops at the first batch end where every interval is narrower than its target
(stopped by "width"), or at the cap (stopped by "cap"). So the same command stops at the
same playout on any number of processes and either backend, and its rows are the first
rows of a fixed run of that many playouts.

A target is a width in the metric's own unit (`0.05`: a share known to within 0.05), or
relative to the metric's value (`5%`: a DurationTurns interval narrower than 5% of the
mean). `win_shares` names every player's `win_share_pk` (a configuration checks the
players it has). The interval of one playout, or an undefined one, counts as infinitely
wide, and so does a relative one around a value of 0 that is not a point. The default
metrics are shares, so that one width means the same for each; a duration, in turns,
wants a width of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ludeme.errors import LudemeError

DEFAULT_METRICS = ("win_shares", "Drawishness", "Balance")
DEFAULT_CAP = 100_000       # playouts per configuration when -n is not given
FIRST_BATCH = 100           # the first batch, and the step batch ends are rounded up to
MAX_GROWTH = 4              # a batch end is at most this many times the playouts so far
MAX_BATCH = 50_000          # playouts per batch at most (their rows are held at once)
MARGIN = 1.1                # the projection of the playouts needed aims this much beyond


@dataclass(frozen=True)
class Target:
    """One metric's target: its interval narrower than `width` (relative: times |value|)."""

    metric: str
    width: float
    relative: bool = False

    def text(self) -> str:
        return f"{self.width * 100:g}%" if self.relative else f"{self.width:g}"

    def columns(self, players: int) -> list[str]:
        """The summary columns this target checks in a configuration of `players` players."""
        if self.metric == "win_shares":
            return [f"win_share_p{p}" for p in range(1, players + 1)]
        if self.metric.startswith("win_share_p") and int(self.metric[11:]) > players:
            return []           # a seat this configuration has not
        return [self.metric]

    def width_of(self, row, column: str) -> float:
        """The interval's width as this target measures it (inf: undefined)."""
        low, high = row.get(f"{column}_ci_low"), row.get(f"{column}_ci_high")
        if low is None or high is None or math.isnan(low) or math.isnan(high):
            return math.inf
        width = float(high) - float(low)
        if self.relative:
            value = abs(float(row[column]))
            return 0.0 if width == 0 else (width / value if value > 0 else math.inf)
        return width


def parse_width(text: str, flag: str) -> tuple[float, bool]:
    """"0.05" -> (0.05, False); "5%" -> (0.05, True); a LudemeError for anything else."""
    relative = text.strip().endswith("%")
    number = text.strip().removesuffix("%")
    try:
        width = float(number)
    except ValueError:
        width = math.nan
    if not width > 0 or math.isinf(width):
        raise LudemeError(f"{flag} {text!r}: expected a positive width, e.g. 0.05 (in the "
                          "metric's unit) or 5% (of the metric's value)")
    return (width / 100 if relative else width), relative


def metric_names() -> list[str]:
    """The metrics a target may name: every metric of the summary with an interval."""
    from .metrics import METRICS
    return ["win_shares", *METRICS]


def parse_targets(width: str, metrics: str | None) -> list[Target]:
    """`--until-ci WIDTH [--metrics M1,M2=W2,...]`: one target per metric (default
    DEFAULT_METRICS), each at WIDTH unless it names its own (`Balance=0.02`, `DurationTurns=5%`)."""
    from ludeme.errors import known_list, suggest
    default = parse_width(width, "--until-ci")
    names = metric_names()
    targets = []
    for part in (metrics.split(",") if metrics else DEFAULT_METRICS):
        name, _, own = part.strip().partition("=")
        name = name.strip()
        if name not in names and not (name.startswith("win_share_p") and name[11:].isdigit()
                                      and int(name[11:]) >= 1):
            raise LudemeError(f"--metrics: unknown metric {name!r}{suggest(name, names)}; "
                              f"known: {known_list(names)} or win_share_pK")
        w, relative = parse_width(own, f"--metrics {name}=") if own else default
        targets.append(Target(name, w, relative))
    if not targets:
        raise LudemeError("--metrics: no metric named")
    return targets


@dataclass
class UntilCI:
    """One configuration's batches: `first_end()`, then `next_end(rows)` after each batch
    (None: stop). `stopped_by` ("width", "cap", or None while it plays or after Ctrl-C), and
    the widest metric at the last check relative to its target."""

    targets: list[Target]
    cap: int
    played: int = 0
    ends: list = field(default_factory=list)    # the batch ends checked
    stopped_by: str | None = None
    widest: tuple[str, float, Target] | None = None     # (column, width, its target)
    summary: object = field(default=None, repr=False)

    def first_end(self) -> int:
        return min(self.cap, FIRST_BATCH)

    def next_end(self, rows) -> int | None:
        """Take the batch just played (its rows, any order: they are sorted here), and say
        where the next batch ends, or None when the run stops."""
        from .metrics import Summary
        if self.summary is None:
            self.summary = Summary()
        if len(rows):
            self.summary.add(rows.sort_values("index", kind="stable"))
        self.played += len(rows)
        self.ends.append(self.played)
        ratio = self.check()
        if ratio < 1.0:
            self.stopped_by = "width"
            return None
        if self.played >= self.cap:
            self.stopped_by = "cap"
            return None
        return self.plan(ratio)

    def check(self) -> float:
        """The largest width / target over the chosen metrics and the configuration's
        matchups (inf: an interval undefined); `widest` names it."""
        worst = (None, -1.0, None, 0.0)
        for _, row in self.summary.table().iterrows():
            for target in self.targets:
                for column in target.columns(int(row["players"])):
                    width = target.width_of(row, column)
                    ratio = width / target.width
                    if ratio > worst[3]:
                        worst = (column, width, target, ratio)
        if worst[0] is None:       # every metric a point (or no metric applies)
            self.widest = None
            return 0.0
        self.widest = worst[:3]
        return worst[3]

    def plan(self, ratio: float) -> int:
        """The next batch end: the playouts the interval's 1/sqrt(n) shrinking asks for
        (with a margin), at least one FIRST_BATCH more, at most MAX_GROWTH times the
        playouts so far, MAX_BATCH more or the cap; rounded up to FIRST_BATCH."""
        n = self.played
        want = n * ratio * ratio * MARGIN if math.isfinite(ratio) else 2 * n
        end = max(n + FIRST_BATCH, min(want, MAX_GROWTH * n, n + MAX_BATCH))
        end = math.ceil(end / FIRST_BATCH) * FIRST_BATCH
        return int(min(self.cap, end))

    def record(self, label: str, kept: int) -> dict:
        """What run.json keeps of this configuration's stop (`kept`: its playouts written;
        after Ctrl-C, more than the last check saw)."""
        column, width, target = self.widest or (None, 0.0, None)
        return {"configuration": label, "playouts": kept, "checked_at": self.played,
                "stopped_by": self.stopped_by or "interrupted", "widest": column,
                "width": None if width is None or math.isinf(width) else width,
                "target": target.text() if target else None}


def stop_text(record: dict) -> str:
    """One configuration's stop in words, for the console and the summary."""
    said = {"width": "every interval narrow enough", "cap": "the cap reached",
            "interrupted": "interrupted"}[record["stopped_by"]]
    if record["widest"] is None:
        widest = "every interval a point"
    else:
        width = record["width"]
        if width is None:
            width = "undefined"
        elif record["target"].endswith("%"):
            width = f"{width * 100:.3g}% of its value"
        else:
            width = f"{width:.3g}"
        widest = f"widest {record['widest']} {width} (target {record['target']})"
        if record.get("checked_at", record["playouts"]) != record["playouts"]:
            widest += f" at the last check, after {record['checked_at']:,} playouts"
    return f"{record['configuration']}: stopped after {record['playouts']:,} playouts, {said}; {widest}"
