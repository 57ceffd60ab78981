"""`ludeme compare`: which differences between rule variants are real.

Variants come from one description (`--all-rulesets`), from configurations
`FILE[::ruleset or option[::option...]]`, or from finished `ludeme run` output
folders (their `playouts.parquet` is read, nothing is replayed). New playouts
use `ludeme.analysis.playouts.run_playouts` with one run seed for every variant, so
playout i of every variant starts from the same seed (common random numbers).

Per metric of `summary.csv` (see `ludeme.analysis.metrics`) and pair of variants:

| metric kind | test (p-value) | estimate and interval | effect size |
| --- | --- | --- | --- |
| means of per-playout values | paired t over shared seeds, else Welch's t | difference of means, t interval | Hedges' g; Brunner-Munzel p and P(a > b) beside it |
| shares of playouts (Timeouts, Completion, Drawishness, win_share_pk) | Fisher's exact test | difference of shares, Newcomb's interval | Cohen's h |
| outcome counts (Outcomes: wins per player and no winner) | chi-square (permutation p-value when an expected count is under 5; Fisher's exact for 2x2) | Cramér's V, no interval | Cramér's V |
| DurationTurnsStdDev | Brown-Forsythe (Levene, median-centred) | difference, bootstrap interval | ratio of standard deviations |
| Balance, OutcomeUniformity | permutation test of the difference | difference, bootstrap interval | none |

All p-values of one comparison form one family, corrected by Holm (default)
or Benjamini-Hochberg (statsmodels' `multipletests`). A test whose data are
exactly those of another test (variants that play identically give identical
playouts on shared seeds) is one hypothesis, counted once. Verdicts: "differs"
(adjusted p below alpha), "no evidence of a difference", "plays identically"
(same group: see below; left out of the family) or "not comparable" (e.g. a
per-player metric of games with different player counts).

Variants that play identically are found by playing shared seeds in every
variant and comparing, step by step, the mover and the multiset of legal moves
`(from, to, levelFrom, levelTo)`, choosing the same sorted-key index in each,
and at the end the outcome. Variants with equal sequences on all seeds (and, with
common random numbers, equal playout rows on every seed of the run) share a
group. Run folders have no description to play, so without `--source FILE`
their groups compare the per-playout rows on shared seeds instead (said in
`groups.csv`'s `method` column).
"""

from __future__ import annotations

import hashlib
import math
import random
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ludeme.errors import LudemeError, printable
from .compare_defaults import ALPHA, CORRECTIONS, DEFAULT_IDENTITY_SEEDS, DEFAULT_PLAYOUTS
from .metrics import MEAN_METRICS as SUMMARY_MEANS
from .metrics import BOOTSTRAP_RESAMPLES, CONFIDENCE, METRICS, balance, outcome_uniformity, per_state_columns, population_std, utility_columns

RESAMPLES = 9999
RESAMPLE_SEED = 20240602

# Mean metrics whose per-playout value is not one column; the others are the summary's
# means of a column (`ludeme.analysis.metrics.MEAN_METRICS`, per-state figures included).
MEAN_METRICS = {
    "DurationTurnsNotTimeouts": lambda r: r["turns"][~r["timeout"].astype(bool)],
    "AdvantageP1": lambda r: (r["utility_p1"] + 1.0) / 2.0,
}
SHARE_METRICS = {
    "Timeouts": lambda r: r["timeout"].astype(bool),
    "Completion": lambda r: r["winner"] != 0,
    "Drawishness": lambda r: np.all(r[utility_columns(int(r["players"].iloc[0]))] == 0.0,
                                    axis=1),
}
PLAYER_STATISTICS = {"Balance": balance, "OutcomeUniformity": outcome_uniformity}
# Columns whose equality on shared seeds means two variants' playouts are the same data.
TRIAL_COLUMNS = ("seed", "players", "winner", "end_type", "timeout", "turns", "moves")


# ---------------------------------------------------------------- variants

@dataclass
class Variant:
    """One configuration to compare: its label, playout rows and (if known) how to build it."""

    label: str
    rows: pd.DataFrame
    source: object = None          # a ludeme.api.GameSource, or None for rows read from a folder
    origin: str = ""

    def data_key(self) -> str:
        """A digest of the playout data the tests read (equal digests: equal tests)."""
        cols = [c for c in (*TRIAL_COLUMNS, *per_state_columns()) if c in self.rows.columns]
        cols += sorted(c for c in self.rows.columns if c.startswith("utility_p"))
        frame = self.rows[cols].reset_index(drop=True)
        return hashlib.blake2b(pd.util.hash_pandas_object(frame, index=False).values.tobytes(),
                               digest_size=12).hexdigest()


def parse_spec(spec: str) -> tuple[str, tuple[str, ...], str | None]:
    """`FILE[::ruleset or option[::...]]` -> (file, options, ruleset), rulesets named as in the file."""
    from .playouts import ruleset_names
    path, *parts = spec.split("::")
    if not Path(path).is_file():
        raise LudemeError(f"{spec}: no such description file {path!r}")
    rulesets = [r for r in ruleset_names(path) if r]
    options: list[str] = []
    ruleset = None
    for part in parts:
        match = [r for r in rulesets if part in (r, r.split("/", 1)[-1])]
        if match:
            if ruleset:
                raise LudemeError(f"{spec}: two rulesets ({ruleset!r} and {match[0]!r})")
            ruleset = match[0]
        elif "/" in part:
            options.append(part)
        else:
            raise LudemeError(f"{spec}: {part!r} is neither a ruleset of {path} "
                              f"({', '.join(rulesets) or 'it has none'}) nor an option "
                              f"'Category/Item'")
    return path, tuple(options), ruleset


def configurations(inputs: list[str], all_rulesets: bool) -> list[tuple[str, tuple, str | None]]:
    """The (file, options, ruleset) of every description input."""
    from .playouts import ruleset_names
    out = []
    for spec in inputs:
        path, options, ruleset = parse_spec(spec)
        if all_rulesets and not ruleset:
            names = ruleset_names(path)
            if names == [None]:
                raise LudemeError(f"{path}: --all-rulesets, but the file has no rulesets")
            out.extend((path, options, r) for r in names)
        else:
            out.append((path, options, ruleset))
    return out


def read_run_folder(folder: Path) -> list[Variant]:
    """The variants of a finished `ludeme run` output folder, one per configuration."""
    from .metrics import CONFIG_COLUMNS, check_run_count
    from .report import config_label
    for name, reader in (("playouts.parquet", pd.read_parquet),
                         ("playouts", pd.read_parquet),       # a large run's partitions
                         ("playouts.csv", lambda p: pd.read_csv(p, keep_default_na=False))):
        if (folder / name).exists():
            try:
                df = reader(folder / name)
            except Exception as e:          # a corrupt or foreign file: the user's input
                raise LudemeError(f"{folder / name}: cannot read the playout table: "
                                  f"{printable(str(e))[:300]}") from None
            break
    else:
        raise LudemeError(f"{folder}: not a `ludeme run` output folder (no playouts.parquet, "
                          f"playouts/ or playouts.csv)")
    missing = {"seed", "turns", "winner", "utility_p1", *CONFIG_COLUMNS} - set(df.columns)
    if missing:
        raise LudemeError(f"{folder}: the playout table lacks {', '.join(sorted(missing))}")
    if df.empty:
        raise LudemeError(f"{printable(str(folder / name))}: the playout table holds no "
                          "playouts")
    df = _checked_outcomes(df, folder / name)
    check_run_count(folder, len(df))
    return [Variant(config_label(dict(zip(CONFIG_COLUMNS, key))), rows.reset_index(drop=True),
                    None, str(folder))
            for key, rows in df.groupby(list(CONFIG_COLUMNS), sort=False, dropna=False)]


def _checked_outcomes(df: pd.DataFrame, table: Path) -> pd.DataFrame:
    """`df` with integer `players` and `winner`, or a LudemeError naming the first row whose
    player count is not a positive integer or whose winner is neither 0 (no winner) nor one
    of its players: the tests count outcomes by these values."""
    players = pd.to_numeric(df["players"], errors="coerce")
    winner = pd.to_numeric(df["winner"], errors="coerce")
    bad_players = ~(players >= 1) | (players != players.round())
    bad_winner = ~((winner >= 0) & (winner <= players)) | (winner != winner.round())
    for column, bad in (("players", bad_players), ("winner", bad_winner)):
        if bad.any():
            i = int(np.flatnonzero(bad.to_numpy())[0])
            value = df[column].iloc[i]
            value = printable(repr(value) if isinstance(value, str) else str(value))[:60]
            expected = ("a positive number of players" if column == "players" else
                        f"0 (no winner) or a player from 1 to {int(players.iloc[i])}")
            raise LudemeError(f"{printable(str(table))}: playout row {i + 1}: '{column}' is "
                              f"{value}, expected {expected}")
    return df.assign(players=players.astype(int), winner=winner.astype(int))


def unique_labels(variants: list[Variant]) -> None:
    """Make labels unique: prefix the game where two differ only by it; refuse true repeats."""
    seen: dict[str, int] = {}
    for v in variants:
        seen[v.label] = seen.get(v.label, 0) + 1
    for v in variants:
        if seen[v.label] > 1:
            game = str(v.rows["game"].iloc[0])
            if not v.label.startswith(game):
                v.label = f"{game}: {v.label}"
    labels = [v.label for v in variants]
    repeats = sorted({x for x in labels if labels.count(x) > 1})
    if repeats:
        raise LudemeError(f"the same configuration is given twice: {', '.join(repeats)}")


# ---------------------------------------------------------------- identical play

def play_signature(game, seed: int) -> str:
    """A digest of one seeded playout: mover and sorted legal moves at each step, then the outcome.

    The choice at each step is an index into the sorted legal-move keys, so two
    variants that list the same moves in another order still make the same
    choices.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    digest = hashlib.blake2b(digest_size=16)
    while not state.is_terminal():
        legal = state.legal_moves()
        keyed = sorted(((m.frm, m.to, m.level_from, m.level_to), i) for i, m in enumerate(legal))
        digest.update(repr((state.mover, [k for k, _ in keyed])).encode())
        state.apply(legal[keyed[rng.randrange(len(keyed))][1]])
    digest.update(repr((state.winner, list(state.ranking), state.end_type)).encode())
    return digest.hexdigest()


def _signatures_in_worker(source, seeds: list[int]) -> list[str]:
    """`play_signature` for each seed, in a worker process."""
    from .playouts import worker_game
    game = worker_game(source)
    return [play_signature(game, s) for s in seeds]


def identity_groups(variants: list[Variant], seeds: list[int], jobs: int = 1) -> pd.DataFrame:
    """groups.csv: `variant`, `group` (G1, G2, ... in order of first member), `method`, `seeds`.

    Variants with a source are played on `seeds`; the others are compared by
    their playout rows on the seeds they share (all their seeds must be shared).
    When every variant's playouts use the same seeds (common random numbers),
    variants with the same legal moves must also have the same playout rows:
    a difference there (a rule that rarely matters) disproves identical play.
    """
    from joblib import Parallel, delayed
    keys: dict[str, tuple] = {}
    played = [v for v in variants if v.source is not None]
    # With common random numbers, playouts that differ anywhere also disprove identical play.
    crn = all(len(v.rows) and shared_seeds(v.rows, variants[0].rows) for v in variants)
    if played and seeds:
        sigs = Parallel(n_jobs=jobs)(delayed(_signatures_in_worker)(v.source, seeds)
                                     for v in played)
        for v, s in zip(played, sigs):
            keys[v.label] = ("legal moves", tuple(s), v.data_key() if crn else None)
    for v in variants:
        if v.label not in keys:     # no source, or --identity-seeds 0: compare the rows
            keys[v.label] = ("playout rows", v.data_key())
    group_of: dict[tuple, str] = {}
    rows = []
    for v in variants:
        key = keys[v.label]
        group = group_of.setdefault(key, f"G{len(group_of) + 1}")
        rows.append({"variant": v.label, "group": group, "method": key[0],
                     "seeds": len(seeds) if key[0] == "legal moves" else len(v.rows),
                     "playouts_compared": len(v.rows) if key[0] == "playout rows" or key[-1]
                     else 0})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- tests, one per metric kind

def _result(estimate, low, high, p, test, effect=np.nan, effect_name="", **extra) -> dict:
    """One test's outcome as a dict of plain floats."""
    return {"estimate": float(estimate), "ci_low": float(low), "ci_high": float(high),
            "p_value": float(p), "test": test, "effect_size": float(effect),
            "effect_name": effect_name, **extra}


def compare_means(a, b, paired: bool) -> dict:
    """Difference of means a - b: paired t (shared seeds) or Welch's t; Hedges' g; Brunner-Munzel."""
    from statsmodels.stats.meta_analysis import effectsize_smd
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    if len(a) < 2 or len(b) < 2:
        return _result(np.nan, np.nan, np.nan, np.nan, "too few playouts")
    diff = a.mean() - b.mean()
    spread = np.ptp(a - b) if paired else max(np.ptp(a), np.ptp(b))
    extra = {"rank_p_value": np.nan, "prob_superiority": np.nan}
    if spread == 0.0:   # no variation: the difference is known exactly
        return _result(diff, diff, diff, 1.0 if diff == 0 else 0.0, "exact (no variation)",
                       0.0 if diff == 0 else np.nan, "Hedges' g", **extra)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.ttest_rel(a, b) if paired else stats.ttest_ind(a, b, equal_var=False)
        ci = res.confidence_interval(CONFIDENCE)
        g, _ = effectsize_smd(a.mean(), a.std(ddof=1), len(a), b.mean(), b.std(ddof=1), len(b))
        extra["rank_p_value"] = float(stats.brunnermunzel(a, b).pvalue)
        extra["prob_superiority"] = float(stats.mannwhitneyu(a, b).statistic / (len(a) * len(b)))
    return _result(diff, ci.low, ci.high, res.pvalue,
                   "paired t (shared seeds)" if paired else "Welch's t", g, "Hedges' g", **extra)


def compare_shares(x1: int, n1: int, x2: int, n2: int) -> dict:
    """Difference of shares x1/n1 - x2/n2: Newcomb's interval, Fisher's exact test, Cohen's h."""
    from statsmodels.stats.proportion import confint_proportions_2indep, proportion_effectsize
    if n1 == 0 or n2 == 0:
        return _result(np.nan, np.nan, np.nan, np.nan, "too few playouts")
    p1, p2 = x1 / n1, x2 / n2
    low, high = confint_proportions_2indep(x1, n1, x2, n2, method="newcomb", compare="diff",
                                           alpha=1 - CONFIDENCE)
    p = stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]]).pvalue
    return _result(p1 - p2, low, high, p, "Fisher's exact", proportion_effectsize(p1, p2),
                   "Cohen's h")


def compare_outcomes(winners_a, winners_b) -> dict:
    """Outcome counts (winner 1..P, 0 = no winner) of two variants: chi-square or Fisher; Cramér's V."""
    from scipy.stats.contingency import association
    a = pd.Series(np.asarray(winners_a)).value_counts()
    b = pd.Series(np.asarray(winners_b)).value_counts()
    table = pd.concat([a, b], axis=1).fillna(0).to_numpy(int).T
    if table.shape[1] < 2:  # one outcome only, the same in both
        return _result(0.0, np.nan, np.nan, 1.0, "exact (one outcome)", 0.0, "Cramér's V")
    v = association(table, method="cramer")
    if table.shape == (2, 2):
        p, test = stats.fisher_exact(table).pvalue, "Fisher's exact"
    elif stats.contingency.expected_freq(table).min() < 5:
        p, test = _chi2_permutation_p(winners_a, winners_b), "chi-square (permutation)"
    else:
        p, test = stats.chi2_contingency(table, correction=False).pvalue, "chi-square"
    return _result(v, np.nan, np.nan, p, test, v, "Cramér's V")


def _chi2_permutation_p(winners_a, winners_b) -> float:
    """The permutation p-value of the chi-square statistic of a 2 x K outcome table: the
    pooled outcomes' variant labels shuffled RESAMPLES times.

    scipy's `chi2_contingency(method=PermutationMethod(...))` computes the statistic once
    per resample in Python (two seconds a pair); here it reads a batch of resamples' counts
    at once, the batch sized so that it stays within a few megabytes for any run."""
    a, b = (np.asarray(w).astype(np.int64) for w in (winners_a, winners_b))
    kinds, pooled = np.unique(np.concatenate([a, b]), return_inverse=True)
    a, b = pooled[:len(a)], pooled[len(a):]
    totals = np.bincount(pooled, minlength=len(kinds)).astype(float)
    expected = np.outer([len(a), len(b)], totals) / len(pooled)
    one_hot = np.eye(len(kinds))

    def chi2(x, y, axis=-1):
        in_a = one_hot[x].sum(axis=-2)                  # each resample's counts of a
        observed = np.stack([in_a, totals - in_a], axis=-2)
        return ((observed - expected) ** 2 / expected).sum(axis=(-2, -1))
    batch = max(1, 4_000_000 // (8 * len(pooled) * len(kinds)))
    return float(stats.permutation_test(
        (a, b), chi2, n_resamples=RESAMPLES, vectorized=True, permutation_type="independent",
        alternative="greater", batch=batch, rng=np.random.default_rng(RESAMPLE_SEED)).pvalue)


def _on_rows(function, pool: np.ndarray, idx) -> np.ndarray | float:
    """A `ludeme.analysis.metrics` statistic `function(values, weights)` of the rows `pool[idx]`.

    `idx` holds row numbers, one resample per leading index (as scipy's resampling
    passes them); each resample becomes a row of counts over the pool.
    """
    idx = np.asarray(idx).astype(int)
    flat = idx.reshape(-1, idx.shape[-1])
    weights = np.zeros((flat.shape[0], len(pool)))
    np.add.at(weights, (np.arange(flat.shape[0])[:, None], flat), 1.0)
    out = np.asarray(function(pool, weights), dtype=float)
    return out[0] if idx.ndim == 1 else out.reshape(idx.shape[:-1])


def _resampled_difference(function, pool: np.ndarray, na: int) -> tuple[float, float, float, float]:
    """function(a) - function(b) for the first `na` rows of `pool` against the rest:
    (difference, permutation p-value, bootstrap interval low, high)."""
    ia = np.arange(na, dtype=float)
    ib = np.arange(na, len(pool), dtype=float)

    def diff(x, y, axis=-1):
        return _on_rows(function, pool, x) - _on_rows(function, pool, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = stats.permutation_test((ia, ib), diff, n_resamples=RESAMPLES, vectorized=True,
                                   permutation_type="independent", batch=500,
                                   rng=np.random.default_rng(RESAMPLE_SEED)).pvalue
        res = stats.bootstrap((ia, ib), diff, n_resamples=BOOTSTRAP_RESAMPLES,
                              vectorized=True, paired=False, confidence_level=CONFIDENCE,
                              method="percentile", batch=500,
                              rng=np.random.default_rng(RESAMPLE_SEED))
    return (float(diff(ia, ib)), float(p), float(res.confidence_interval.low),
            float(res.confidence_interval.high))


def compare_spread(a, b) -> dict:
    """DurationTurnsStdDev: Brown-Forsythe test; bootstrap interval of the difference."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    pool = np.concatenate([a, b])[:, None]
    sd_a = _on_rows(population_std, pool, np.arange(len(a)))
    sd_b = _on_rows(population_std, pool, np.arange(len(a), len(pool)))
    diff = sd_a - sd_b
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return _result(diff, diff, diff, 1.0, "exact (no variation)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = stats.levene(a, b, center="median").pvalue
    _, _, low, high = _resampled_difference(population_std, pool, len(a))
    return _result(diff, low, high, p, "Brown-Forsythe", sd_a / sd_b if sd_b > 0 else np.nan,
                   "SD ratio")


def compare_player_statistic(function, ua: np.ndarray, ub: np.ndarray) -> dict:
    """Balance or OutcomeUniformity (utilities: players x playouts): permutation test, bootstrap interval.

    The statistic reads all players of a playout together, so scipy resamples
    playout numbers (rows of both variants' utilities side by side) and the
    statistic weighs those rows.
    """
    pool = np.concatenate([ua, ub], axis=1).T           # playouts x players
    na = ua.shape[1]
    if np.ptp(ua, axis=1).max() == 0 and np.ptp(ub, axis=1).max() == 0:
        diff = (_on_rows(function, pool, np.arange(na))
                - _on_rows(function, pool, np.arange(na, len(pool))))
        return _result(diff, diff, diff, 1.0 if diff == 0 else 0.0, "exact (no variation)")
    diff, p, low, high = _resampled_difference(function, pool, na)
    return _result(diff, low, high, p, "permutation")


def shared_seeds(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """True when the two tables hold the same seeds in the same order (common random numbers)."""
    return len(a) == len(b) and bool(np.array_equal(a["seed"].to_numpy(), b["seed"].to_numpy()))


def metric_names(variants: list[Variant]) -> list[str]:
    """The metrics compared, in the summary's order, then Outcomes and the win shares."""
    players = max(int(v.rows["players"].max()) for v in variants)
    # A per-state metric whose column a table lacks (written before it existed) is left out.
    names = [m for m in METRICS if m not in SUMMARY_MEANS
             or all(SUMMARY_MEANS[m][0] in v.rows for v in variants)]
    return [*names, "Outcomes", *(f"win_share_p{p}" for p in range(1, players + 1))]


def compare_metric(metric: str, a: pd.DataFrame, b: pd.DataFrame,
                   shared: bool | None = None) -> dict:
    """The test of one metric between two variants' playout tables (`shared`: whether they
    hold the same seeds, `shared_seeds(a, b)`, given when known)."""
    pa, pb = int(a["players"].iloc[0]), int(b["players"].iloc[0])
    if metric in SUMMARY_MEANS or metric in MEAN_METRICS:
        shared = shared_seeds(a, b) if shared is None else shared
    if metric in SUMMARY_MEANS:
        column = SUMMARY_MEANS[metric][0]
        return compare_means(a[column], b[column], shared)
    if metric in MEAN_METRICS:
        paired = metric != "DurationTurnsNotTimeouts" and shared
        return compare_means(MEAN_METRICS[metric](a), MEAN_METRICS[metric](b), paired)
    if metric in SHARE_METRICS or metric.startswith("win_share_p"):
        if metric in SHARE_METRICS:
            xa, xb = SHARE_METRICS[metric](a), SHARE_METRICS[metric](b)
        else:
            p = int(metric.removeprefix("win_share_p"))
            if p > min(pa, pb):
                return _result(np.nan, np.nan, np.nan, np.nan, "not comparable")
            # as the summary counts it: ranked first outright, every member of a winning team
            xa, xb = a[f"utility_p{p}"] == 1.0, b[f"utility_p{p}"] == 1.0
        return compare_shares(int(np.sum(xa)), len(a), int(np.sum(xb)), len(b))
    if metric == "Outcomes":
        return compare_outcomes(a["winner"], b["winner"])
    if metric == "DurationTurnsStdDev":
        return compare_spread(a["turns"], b["turns"])
    if metric in PLAYER_STATISTICS:
        if pa != pb:
            return _result(np.nan, np.nan, np.nan, np.nan, "not comparable")
        cols = utility_columns(pa)
        return compare_player_statistic(PLAYER_STATISTICS[metric], a[cols].to_numpy(float).T,
                                        b[cols].to_numpy(float).T)
    raise ValueError(f"no test for metric {metric}")


# ---------------------------------------------------------------- the comparison

def reversed_result(r: dict) -> dict:
    """A test's result for the pair taken the other way round (b - a)."""
    out = dict(r)
    if r["effect_name"] != "Cramér's V":        # an unsigned association stays as it is
        out["estimate"], out["ci_low"], out["ci_high"] = -r["estimate"], -r["ci_high"], -r["ci_low"]
    if r["effect_name"] in ("Hedges' g", "Cohen's h"):
        out["effect_size"] = -r["effect_size"]
    elif r["effect_name"] == "SD ratio":
        out["effect_size"] = 1.0 / r["effect_size"] if r["effect_size"] else np.nan
    if "prob_superiority" in r:
        out["prob_superiority"] = 1.0 - r["prob_superiority"]
    return out


@dataclass
class Comparison:
    """Everything `ludeme compare` writes."""

    variants: list[Variant]
    groups: pd.DataFrame
    table: pd.DataFrame                     # comparison.csv
    summary: pd.DataFrame                   # each variant's metrics with intervals
    correction: str = "holm"
    alpha: float = ALPHA
    notes: list[str] = field(default_factory=list)


def compare(variants: list[Variant], groups: pd.DataFrame, correction: str = "holm",
            alpha: float = ALPHA) -> Comparison:
    """Test every metric for every pair, correct across the family, give each a verdict."""
    from statsmodels.stats.multitest import multipletests

    from .metrics import summarize
    if len(variants) < 2:
        raise LudemeError("compare needs at least two variants")
    group = dict(zip(groups["variant"], groups["group"]))
    keys = {v.label: v.data_key() for v in variants}
    cache: dict[tuple, dict] = {}
    shared = {(va.label, vb.label): shared_seeds(va.rows, vb.rows)   # once per pair
              for i, va in enumerate(variants) for vb in variants[i + 1:]}
    rows = []
    for metric in metric_names(variants):
        for i, va in enumerate(variants):
            for vb in variants[i + 1:]:
                # One test per unordered pair of data sets, run in a fixed orientation.
                ka, kb = keys[va.label], keys[vb.label]
                first, second = (va, vb) if ka <= kb else (vb, va)
                test_key = (metric, min(ka, kb), max(ka, kb))
                if test_key not in cache:
                    cache[test_key] = compare_metric(metric, first.rows, second.rows,
                                                     shared[va.label, vb.label])
                result = cache[test_key] if first is va else reversed_result(cache[test_key])
                rows.append({"variant_a": va.label, "variant_b": vb.label, "metric": metric,
                             "group_a": group[va.label], "group_b": group[vb.label],
                             "n_a": len(va.rows), "n_b": len(vb.rows),
                             "shared_seeds": shared[va.label, vb.label],
                             "test_id": "|".join(test_key), **result})
    table = pd.DataFrame(rows)
    same_group = table["group_a"] == table["group_b"]
    testable = ~same_group & table["p_value"].notna()
    # One hypothesis per distinct test: duplicates (identical data) are counted once.
    family = table[testable].drop_duplicates("test_id")
    table["p_adjusted"] = np.nan
    if len(family):
        _, adjusted, _, _ = multipletests(family["p_value"].to_numpy(), alpha=alpha,
                                          method=CORRECTIONS[correction])
        by_test = dict(zip(family["test_id"], adjusted))
        table.loc[testable, "p_adjusted"] = table.loc[testable, "test_id"].map(by_test)
    table["verdict"] = np.where(
        same_group, "plays identically",
        np.where(~testable, "not comparable",
                 np.where(table["p_adjusted"] < alpha, "differs",
                          "no evidence of a difference")))
    table["correction"] = correction
    table["family_size"] = len(family)
    summary = summarize(pd.concat([v.rows for v in variants], ignore_index=True))
    front = ["variant_a", "variant_b", "metric", "estimate", "ci_low", "ci_high", "p_value",
             "p_adjusted", "verdict", "test", "effect_size", "effect_name", "rank_p_value",
             "prob_superiority"]
    table = table[front + [c for c in table.columns if c not in front]]
    return Comparison(variants, groups, table, summary, correction, alpha)


# ---------------------------------------------------------------- from inputs to a comparison

def _source_for_rows(path: str, rows: pd.DataFrame):
    """The GameSource of a run folder's configuration, rebuilt from the named description."""
    from .playouts import GameSource
    first = rows.iloc[0]
    options = tuple(o for o in str(first["options"]).split("; ") if o)
    ruleset = str(first["ruleset"]) or None
    return GameSource(str(Path(path).resolve()), options, ruleset)


def gather(inputs: list[str], all_rulesets: bool = False, n: int = DEFAULT_PLAYOUTS,
           seed: int = 0, jobs: int | None = None, *, source: str | None = None,
           max_turns: int | None = None, max_moves: int | None = None,
           progress: bool | None = None, backend: str = "auto"
           ) -> tuple[list[Variant], list[str]]:
    """The variants of `inputs` (descriptions `FILE[::...]`, played now, `n` playouts each with
    run seed `seed`; or run folders, read, their description `source` when given); notes for
    the report."""
    from ludeme.engine.compiled import Unsupported
    from .report import config_label
    from .playouts import load, run_playouts
    variants: list[Variant] = []
    notes: list[str] = []
    specs = []
    for item in inputs:
        if Path(item).is_dir():
            found = read_run_folder(Path(item))
            if source:
                for v in found:
                    v.source = _source_for_rows(source, v.rows)
            variants.extend(found)
        else:
            specs.append(item)
    for path, options, ruleset in configurations(specs, all_rulesets):
        game = load(path, options, ruleset, max_turns=max_turns, max_moves=max_moves,
                    backend=backend)
        label = (ruleset or game.name).split("/", 1)[-1]
        try:
            rows = run_playouts(game, n, seed, jobs, progress=progress, label=label)
        except Unsupported as e:        # --backend compiled on a game it cannot compile
            raise LudemeError(f"{label}: the compiled backend has no form for {e} yet "
                              "(use --backend reference or auto)") from None
        if rows.attrs["interrupted"]:
            raise KeyboardInterrupt
        label = config_label({"game": game.name, "ruleset": game.ruleset or "",
                              "options": "; ".join(game.options)})
        variants.append(Variant(label, rows, game.source, path))
    if specs:
        notes.append(f"{n} uniform-random playouts per variant with run seed {seed}: "
                     f"playout i of every variant starts from the same seed (common random "
                     f"numbers), so mean metrics are compared by the paired t-test over seeds.")
    unique_labels(variants)
    return variants, notes


def compare_inputs(inputs: list[str], all_rulesets: bool = False, n: int = DEFAULT_PLAYOUTS,
                   seed: int = 0, jobs: int | None = None, *,
                   identity_seeds: int = DEFAULT_IDENTITY_SEEDS, source: str | None = None,
                   correction: str = "holm", alpha: float = ALPHA,
                   max_turns: int | None = None, max_moves: int | None = None,
                   progress: bool | None = None, backend: str = "auto") -> Comparison:
    """`ludeme compare` up to its files: gather the variants (`gather`), find those that play
    identically on `identity_seeds` seeds, test every metric (`compare`).
    `ludeme.analysis.compare_report.write_comparison` writes the result."""
    from .playouts import cpu_jobs, playout_seed
    variants, notes = gather(inputs, all_rulesets, n, seed, jobs, source=source,
                             max_turns=max_turns, max_moves=max_moves, progress=progress,
                             backend=backend)
    if len(variants) < 2:
        raise LudemeError("compare needs at least two variants: give several inputs, or a "
                          "description with --all-rulesets")
    seeds = [playout_seed(seed + 1, i) for i in range(identity_seeds)]
    groups = identity_groups(variants, seeds, jobs=min(cpu_jobs(jobs), len(variants)))
    result = compare(variants, groups, correction, alpha)
    result.notes = notes
    return result


def fmt(x) -> str:
    """A number in four significant digits; NaN as a dash."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:.4g}" if isinstance(x, float) else str(x)
