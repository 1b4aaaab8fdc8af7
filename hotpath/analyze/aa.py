"""The A/A run read: identical code on both sides, so every row called faster or slower is a
false alarm. Beside the count: what the rule's simulation predicts at the fork CVs the run
observed, what the real forks look like against the simulation's models (tails, levels, a
round's two forks moving together, drift over the run), and the rule held to its bars on fork
means resampled from the run itself."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .. import tail
from ..jmh import RowKey
from ..stats import moments, sequential, steady
from . import ab

CALLED = ("faster", "slower")
#: A row resampled from fewer rounds than this draws from too few values to say much.
LEAST_ROUNDS = 6


def case_of(benchmark: str) -> str:
    """'hotpath.store.StoreAppendBenchmark.append' -> 'store'."""
    parts = benchmark.split(".")
    return parts[1] if len(parts) > 2 else ""


def rows(run: ab.ABRun) -> pd.DataFrame:
    """One row per A/A row: its case, verdict, ratio and interval, forks and fork CV."""
    pairs = run.comparison.pairs
    if pairs.empty:
        return pd.DataFrame(columns=["case", "benchmark", "params", "verdict", "ratio", "ci_low",
                                     "ci_high", "forks", "stopped", "fork_cv", "cap"])
    design = (run.manifest.get("sequential") or {}).get("design", {})
    caps = {RowKey.of(r["benchmark"], r["params"]): r["cap"]
            for r in (run.manifest.get("sequential") or {}).get("rows", [])}
    return pd.DataFrame({
        "case": pairs["benchmark"].map(case_of),
        "benchmark": pairs["benchmark"], "params": pairs["params"], "verdict": pairs["verdict"],
        "ratio": pairs["ratio"], "ci_low": pairs["ci_low"], "ci_high": pairs["ci_high"],
        "forks": pairs[["forks_old", "forks_new"]].min(axis=1), "stopped": pairs["stopped"],
        "fork_cv": pairs["fork_cv"],
        "cap": [caps.get(RowKey.of(b, p), design.get("cap", sequential.DEFAULT_CAP))
                for b, p in zip(pairs["benchmark"], pairs["params"])],
    })


def counts(table: pd.DataFrame) -> pd.DataFrame:
    """Per case and in all: rows called faster, slower (the false alarms), same, undecided."""
    out = []
    for case, group in [*table.groupby("case", sort=False), ("all", table)]:
        v = group["verdict"].value_counts()
        out.append({"case": case, "rows": len(group), "faster": int(v.get("faster", 0)),
                    "slower": int(v.get("slower", 0)), "same": int(v.get("same", 0)),
                    "undecided": int(v.get("undecided", 0)),
                    "false alarms": int(v.get("faster", 0) + v.get("slower", 0))})
    return pd.DataFrame(out)


def predicted(table: pd.DataFrame, paths: int = 20_000, seed: int = 7,
              min_forks: int = sequential.MIN_FORKS) -> pd.DataFrame:
    """Per row, the share of identical rows the rule calls faster or slower when fork means are
    log-normal at the fork CV this row showed (the simulation's model), with its cap."""
    out = []
    for i, r in enumerate(table.itertuples()):
        cv = r.fork_cv if r.fork_cv == r.fork_cv else 0.03
        design = sequential.Design(cap=int(r.cap), min_forks=min_forks)
        s = sequential.simulate(design, sequential.lognormal(cv), 1.0, paths=paths, seed=seed + i)
        out.append({"benchmark": r.benchmark, "params": r.params, "fork_cv": cv,
                    "p_false_alarm": s["faster"] + s["slower"], "coverage": s["coverage"],
                    "mean_forks": s["mean_forks"]})
    return pd.DataFrame(out)


def chance_of_at_least(probabilities, k: int) -> float:
    """P(at least k of independent rows alarm), each with its own probability (Poisson
    binomial, by convolution)."""
    dist = np.array([1.0])
    for p in probabilities:
        dist = np.convolve(dist, [1 - p, p])
    return float(dist[k:].sum()) if k < len(dist) else 0.0


def odds_of(probabilities, alarms: int) -> tuple[str, float]:
    """The outcome worth a chance and its chance: ('none at all', P(0)) where none alarmed, since
    0 or more is every outcome; else ('k or more', P(at least k))."""
    if alarms == 0:
        return "none at all", 1 - chance_of_at_least(probabilities, 1)
    return f"{alarms} or more", chance_of_at_least(probabilities, alarms)


# -- the forks themselves ----------------------------------------------------------------------

def forks(run: ab.ABRun, estimate: str | None = None) -> pd.DataFrame:
    """Every fork of the run: row, side, round, its place in the run (0 first, 1 last) and its
    figure (column ``mean``) by ``estimate`` over its counted iterations (hotpath.stats.steady; by
    default the estimate the run's plan used), read from the round files JMH wrote (rounds/)
    without the CPU sampler's tail, as the run's sides were (hotpath.tail)."""
    manifest = run.manifest
    estimate = estimate or (manifest.get("sequential") or {}).get("estimate", steady.MEAN)
    records = []
    commands = manifest.get("interleaved_rounds", [])
    sides = manifest.get("round_sides", [])
    for order, (cmd, side) in enumerate(zip(commands, sides)):
        name = cmd.rsplit(" ", 1)[-1]
        path = run.folder / name
        m = re.search(r"round-(\d+)-", name)
        if not path.is_file() or not m:
            continue
        for entry in tail.read_round(path, scores=False):  # the counted iterations, as the verdicts'
            params = ", ".join(f"{k}={v}" for k, v in (entry.get("params") or {}).items())
            for fork in steady.entry_forks(entry, estimate):
                records.append({"benchmark": entry["benchmark"], "params": params,
                                "side": side, "round": int(m.group(1)), "order": order,
                                "mean": fork.value})
    frame = pd.DataFrame(records, columns=["benchmark", "params", "side", "round", "order", "mean"])
    if len(frame):
        frame["position"] = frame["order"] / max(1, frame["order"].max())
    return frame


def centred(frame: pd.DataFrame) -> pd.DataFrame:
    """Log fork means less their row-and-side mean: what is left is the forks' noise."""
    out = frame.copy()
    out["log"] = np.log(out["mean"])
    out["residual"] = out["log"] - out.groupby(["benchmark", "params", "side"])["log"].transform("mean")
    return out


def round_pairs(frame: pd.DataFrame) -> pd.DataFrame:
    """Per row and round, the two sides' forks side by side: their centred log fork means (a, b),
    their log fork means (log_a, log_b), whether a ran first, and a's place in the run."""
    c = centred(frame)
    sides = list(dict.fromkeys(c["side"]))
    if len(sides) != 2:
        return pd.DataFrame(columns=["benchmark", "params", "round", "a", "b", "log_a", "log_b",
                                     "a_first", "position"])
    wide = c.pivot_table(index=["benchmark", "params", "round"], columns="side",
                         values=["residual", "log", "order", "position"], aggfunc="first").dropna()
    first, second = sides
    out = pd.DataFrame({"a": wide[("residual", first)], "b": wide[("residual", second)],
                        "log_a": wide[("log", first)], "log_b": wide[("log", second)],
                        "a_first": wide[("order", first)] < wide[("order", second)],
                        "position": wide[("position", first)]}).reset_index()
    return out


def _bimodal(x: np.ndarray) -> bool:
    """Sarle's bimodality coefficient above 5/9 (the uniform's), with at least 8 values."""
    n = len(x)
    if n < 8 or x.std() == 0:
        return False
    g, k = moments.skew(x, bias=False), moments.excess_kurtosis(x, bias=False)
    return (g * g + 1) / (k + 3 * (n - 1) ** 2 / ((n - 2) * (n - 3))) > 5 / 9


def _side_and_order(pairs: pd.DataFrame, names: list[str]) -> tuple[str, str]:
    """Whether the alternation did its job: per round, the log difference of the two sides'
    forks (identical code: no side is slower) and of the round's second fork against its first
    (what alternating the order cancels), each as a mean over rounds with its 95% interval."""
    if len(names) != 2 or len(pairs) < 3:
        return "n/a", "n/a"
    d = (pairs["log_b"] - pairs["log_a"]).to_numpy()
    second_first = np.where(pairs["a_first"], d, -d)

    def shown(x: np.ndarray) -> str:
        m, half = x.mean(), 1.96 * x.std(ddof=1) / math.sqrt(len(x))
        return (f"{math.exp(m) - 1:+.2%} ({math.exp(m - half) - 1:+.2%} … "
                f"{math.exp(m + half) - 1:+.2%}) over {len(x)} rounds")
    return f"{names[1]} against {names[0]}: {shown(d)}", shown(second_first)


def structure(frame: pd.DataFrame) -> pd.DataFrame:
    """How the real forks differ from the models: tails (excess kurtosis of the pooled
    standardized residuals, share beyond 3 SD; normal: 0 and 0.27%), levels (rows whose forks
    look two-level), a round's two forks moving together (correlation of their residuals; the
    models draw them apart: 0), and drift (the residuals' slope over the run)."""
    c = centred(frame)
    c["z"] = c["residual"] / c.groupby(["benchmark", "params", "side"])["residual"].transform(
        lambda r: r.std(ddof=1) if len(r) > 1 else np.nan)
    z = c["z"].replace([np.inf, -np.inf], np.nan).dropna()
    pairs = round_pairs(frame)
    groups = [g["residual"].to_numpy() for _, g in c.groupby(["benchmark", "params", "side"])]
    two_level = sum(_bimodal(g) for g in groups)
    slope = (np.polyfit(c["position"], c["residual"], 1)[0] if len(c) > 2 else math.nan)
    corr = (float(np.corrcoef(pairs["a"], pairs["b"])[0, 1]) if len(pairs) > 2 else math.nan)
    sides, order = _side_and_order(pairs, list(dict.fromkeys(c["side"])))
    rows = [
        ("forks", f"{len(c)} fork means of {c.groupby(['benchmark', 'params']).ngroups} rows"),
        ("sides: the second side's fork against the first's in a round (mean, 95% CI)", sides),
        ("order: a round's second fork against its first (mean, 95% CI)", order),
        ("tails: excess kurtosis of standardized residuals", f"{moments.excess_kurtosis(z):.2f} (normal: 0)"),
        ("tails: share beyond 3 SD", f"{(z.abs() > 3).mean():.2%} (normal: 0.27%)"),
        ("levels: row-sides that look two-level (bimodality coefficient > 5/9, ≥ 8 forks)",
         f"{two_level} of {sum(len(g) >= 8 for g in groups)}"),
        ("a round's two forks: correlation of their residuals",
         f"{corr:.2f} over {len(pairs)} rounds (the models: 0)"),
        ("drift: residual slope from the run's first fork to its last",
         f"{(math.exp(slope) - 1) * 100:+.2f}% (log fork means pooled)"),
    ]
    return pd.DataFrame(rows, columns=["what", "observed"])


def resample(frame: pd.DataFrame, cap: int = 24, paths: int = 4_000, seed: int = 11,
             least: int = LEAST_ROUNDS, threshold: float = sequential.THRESHOLD,
             min_forks: int = sequential.MIN_FORKS) -> pd.DataFrame:
    """The rule on fork means drawn from the run's own forks: per row, rounds drawn with
    replacement (a round's two forks together, so that what moves them together stays), each
    side's residuals centred so that the truth is no change. One line per row resampled: the
    shares called faster, slower and same, and the intervals' coverage of 1. ``cap`` and
    ``min_forks`` are the design's: the run's own, or another profile's put on the same forks."""
    pairs = round_pairs(frame)
    design = sequential.Design(cap=cap, min_forks=min_forks)
    rng = np.random.default_rng(seed)
    out = []
    for (benchmark, params), group in pairs.groupby(["benchmark", "params"], sort=False):
        if len(group) < least:
            continue
        a = group["a"].to_numpy() - group["a"].mean()
        b = group["b"].to_numpy() - group["b"].mean()
        idx = rng.integers(0, len(group), size=(paths, cap))
        s = sequential.run_paths(design, a[idx], b[idx], 1.0, threshold=threshold)
        out.append({"benchmark": benchmark, "params": params, "rounds": len(group),
                    "faster": s["faster"], "slower": s["slower"], "same": s["same"],
                    "coverage": s["coverage"], "mean_forks": s["mean_forks"]})
    return pd.DataFrame(out, columns=["benchmark", "params", "rounds", "faster", "slower", "same",
                                      "coverage", "mean_forks"])


class AA:
    """The A/A run as its report reads it."""

    def __init__(self, folder: str | Path):
        self.run = ab.read(folder)
        self.table = rows(self.run)
        self.forks = forks(self.run)

    @property
    def cap(self) -> int:
        return int(((self.run.manifest.get("sequential") or {}).get("design") or {}).get("cap", sequential.DEFAULT_CAP))

    def counts(self) -> pd.DataFrame:
        return counts(self.table)

    def false_alarms(self) -> int:
        return int(self.table["verdict"].isin(CALLED).sum())

    def predicted(self) -> pd.DataFrame:
        return predicted(self.table)

    def structure(self) -> pd.DataFrame:
        return structure(self.forks)

    def resample(self) -> pd.DataFrame:
        return resample(self.forks, cap=self.cap)

    def residuals(self) -> pd.DataFrame:
        return centred(self.forks)

    def false_frames(self) -> pd.DataFrame:
        """Each row's frames tested and called changed on identical code, as a report tests them
        (hotpath.analyze.cpu.frames_called): every frame called is a false frame. No rows where
        the run's timed forks took no CPU samples."""
        from . import cpu

        profiles = cpu.read(self.run.run.source)
        if not profiles.measured:
            return cpu.frames_called(profiles, self.run.comparison.pairs.iloc[:0])
        return cpu.frames_called(profiles, self.run.comparison.pairs)
