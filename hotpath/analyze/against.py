"""A run held against the committed reference: which of its time rows the reference contradicts.

A row is a benchmark x params x mode, a candidate variant against old. Each side's row has the
ratio of time per op new/old and its 95% interval exactly as the reports give them (``compare.pair``
and ``compare.time_per_op``: the repeated confidence interval at the look a row of the
sequential plan stopped at, a Welch interval for a fixed number of forks). Machines of the
study's kind differ by up to ~1.35x on memory-bound rows at steady state, so each interval is
widened by 15% each way (low / 1.15, high x 1.15) before the two are set side by side: a row
contradicts the reference when even the widened intervals do not overlap. Rows of one side only
are listed, not compared; a row with no interval on a side (fewer forks than a first look) is
in both but cannot be compared.

Beside the verdicts, the machines: old's time per op in the run over the reference's, row by row
(the same code on both, so what differs is the machine and its day), and the fork CVs of each.
A run on a machine slower or noisier than the reference's says so before any verdict is read.

For each row it also says what the reference's own forks ask of the run: the forks per side
that the reference's ratio and fork CV need for a decision under the run's design (its cap).
Where that is beyond the cap, even forks as precise as the reference's would leave the row
undecided: the count of rows within reach bounds what a run of that cap can decide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from ..errors import HotpathError
from ..jmh import params_key
from ..stats import sequential
from . import compare
from . import cpu as cpu_analysis
from .load import read_results
from .spread import MACHINE_SPREAD


#: One time row of a run: what the reports' verdict table shows of it.
TIME_COLUMNS = ["case", "benchmark", "method", "params", "mode", "baseline", "candidate",
                "runtime", "ratio", "low", "high", "verdict", "forks", "fork_cv", "cap",
                "first_look", "old_time", "old_faults", "new_faults"]
KEY = ["case", "benchmark", "key_params", "mode", "candidate"]
SIDE_COLUMNS = ["ratio", "low", "high", "verdict", "forks", "runtime", "fork_cv", "cap", "old_time",
                "old_faults", "new_faults"]
ROW_COLUMNS = (["case", "benchmark", "method", "params", "mode", "baseline", "candidate"]
               + [f"run_{c}" for c in SIDE_COLUMNS] + [f"reference_{c}" for c in SIDE_COLUMNS]
               + ["reference_needs", "compared", "contradicts"])
ONLY_COLUMNS = ["case", "benchmark", "method", "params", "mode", "candidate"]


@dataclass(frozen=True)
class Held:
    """Rows in both (``rows``: each side's ratio, interval and verdict, whether the two could be
    compared and whether they contradict), and the rows of one side only."""

    rows: pd.DataFrame
    only_run: pd.DataFrame
    only_reference: pd.DataFrame
    widen: float
    #: The CPU models each side's provenance records ("run", "reference"): the 15% allows for
    #: machines of one kind, not for another CPU.
    cpus: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Each side's CPU samples by case ("run", case), where its timed forks took them.
    profiles: dict[tuple[str, str], cpu_analysis.Profiles] = field(default_factory=dict)

    def frames(self, row: pd.Series, variant: str, count: int = 3
               ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """A row-side's leading frames (self time, share of its samples) here and in the
        reference; empty where a side was not sampled."""
        here, there = (cpu_analysis.leading(self.profiles.get((side, row["case"]), cpu_analysis.EMPTY),
                                            row["benchmark"], row["params"], variant, count)
                       for side in ("run", "reference"))
        return here, there

    def other_kind(self) -> bool:
        """Whether the run's CPU is not the reference's (both recorded)."""
        return other_cpu(self.cpus.get("run", ()), self.cpus.get("reference", ()))

    @property
    def compared(self) -> int:
        return int(self.rows["compared"].sum())

    @property
    def contradicting(self) -> int:
        return int(self.rows["contradicts"].sum())

    @property
    def within_reach(self) -> int:
        """Rows whose reference forks would be decided within the run's cap."""
        return int((self.rows["reference_needs"] <= self.rows["run_cap"]).sum())

    def machine(self) -> "Machine | None":
        """Old's time per op and the fork CVs, run against reference, over the rows in both
        (each old row once, whatever candidates it was set against); None without such rows."""
        rows = self.rows.drop_duplicates(["case", "benchmark", "params", "mode"])
        speed = (rows["run_old_time"] / rows["reference_old_time"]).astype(float)
        speed = speed[speed.map(lambda x: math.isfinite(x) and x > 0)]
        if speed.empty:
            return None
        return Machine(rows=len(speed), slower=float(speed.median()), least=float(speed.min()),
                       most=float(speed.max()),
                       run_fork_cv=float(self.rows["run_fork_cv"].astype(float).median()),
                       reference_fork_cv=float(self.rows["reference_fork_cv"].astype(float).median()))

    def sides_moved(self) -> pd.DataFrame:
        """Each contradicting row's two sides on this machine against the reference's: old's
        time per op run/reference, and the candidate's (old's times the ratio of the ratios).
        The same code on both, so where one side moved far from the machine's median and the
        other did not, the machine treats the two paths differently (a path that waits on
        memory or the kernel against one that computes), and no interval of the run can agree."""
        rows = self.rows[self.rows["contradicts"]]
        old = (rows["run_old_time"] / rows["reference_old_time"]).astype(float)
        new = old * (rows["run_ratio"] / rows["reference_ratio"]).astype(float)
        return rows.assign(old_moved=old, new_moved=new)

    @property
    def reachable_known(self) -> int:
        """Rows for which that can be said: a run with a cap, a reference with a fork CV."""
        return int(self.rows["reference_needs"].notna().sum())


def cpus_of(provenances: list[dict | None]) -> tuple[str, ...]:
    """The CPU models these results' provenance records, each once."""
    return tuple(sorted({str(m) for p in provenances if (m := (p or {}).get("cpu_model")) is not None}))


def other_cpu(run: tuple[str, ...], reference: tuple[str, ...]) -> bool:
    """Whether a run's CPU models are not the reference's, both being recorded."""
    return bool(run and reference) and set(run) != set(reference)


@dataclass(frozen=True)
class Machine:
    """The run's machine against the reference's on the same code: the median (and range) over
    ``rows`` of old's time per op run/reference, and the median fork CV of each."""

    rows: int
    slower: float
    least: float
    most: float
    run_fork_cv: float
    reference_fork_cv: float


def time_rows(frame: pd.DataFrame, case: str = "", baseline: str = "old") -> pd.DataFrame:
    """Every candidate-against-baseline row of a run: time per op new/old, its 95% interval and
    verdict, as the reports compute them (throughput ratios inverted to time per op)."""
    pairs = compare.pair(frame, baseline=baseline).pairs
    rows = []
    for _, r in pairs.iterrows():
        ratio, low, high = compare.time_per_op(r)
        rows.append({"case": case, "benchmark": r["benchmark"], "method": r["method"],
                     "params": r["params"], "mode": r["mode"], "baseline": r["baseline"],
                     "candidate": r["candidate"], "runtime": r["runtime"], "ratio": ratio,
                     "low": low, "high": high, "verdict": r["verdict"],
                     "forks": min(r["forks_old"], r["forks_new"]), "fork_cv": r["fork_cv"],
                     "cap": r["cap"], "first_look": r.get("first_look", sequential.MIN_FORKS),
                     "old_time": _time(r["old_score"], r["higher_is_better"]),
                     # page faults per op (NaN where the run did not count them): a path that
                     # faults pays what a fault costs on the day's host
                     "old_faults": r.get("old_faults", math.nan),
                     "new_faults": r.get("new_faults", math.nan)})
    return pd.DataFrame(rows, columns=TIME_COLUMNS)


def _time(score: float, higher_is_better: bool) -> float:
    """A score as time per op (in the row's unit or its inverse: only ratios of it are used)."""
    if not (isinstance(score, (int, float)) and math.isfinite(score) and score > 0):
        return math.nan
    return 1 / score if higher_is_better else float(score)


def widened(low: float, high: float, widen: float = MACHINE_SPREAD) -> tuple[float, float]:
    """An interval of a ratio widened multiplicatively each way."""
    return low / widen, high * widen


def disjoint(a: tuple[float, float], b: tuple[float, float], widen: float = MACHINE_SPREAD) -> bool:
    """Whether two intervals (low, high) of a ratio fail to overlap once each is widened; two
    that touch overlap. False where either interval is missing: nothing to contradict."""
    if not all(math.isfinite(x) for x in (*a, *b)):
        return False
    (a_low, a_high), (b_low, b_high) = widened(*a, widen), widened(*b, widen)
    return a_high < b_low or b_high < a_low


def hold(run: pd.DataFrame, reference: pd.DataFrame, widen: float = MACHINE_SPREAD) -> Held:
    """A run's time rows (``time_rows``) against the reference's, row by row on case,
    benchmark, params (in any order), mode and candidate."""
    if widen < 1:
        raise ValueError(f"an interval is widened by a factor of at least 1, not {widen}")
    run, reference = _keyed(run), _keyed(reference)
    both = run.merge(reference[KEY + SIDE_COLUMNS], on=KEY, suffixes=("", "_reference"))
    rows = []
    for _, r in both.iterrows():
        ours = (r["low"], r["high"])
        theirs = (r["low_reference"], r["high_reference"])
        compared = all(math.isfinite(x) for x in (*ours, *theirs))
        rows.append({**{c: r[c] for c in ROW_COLUMNS[:7]},
                     **{f"run_{c}": r[c] for c in SIDE_COLUMNS},
                     **{f"reference_{c}": r[f"{c}_reference"] for c in SIDE_COLUMNS},
                     "reference_needs": needs(r["ratio_reference"], r["fork_cv_reference"], r["cap"],
                                              r["first_look"]),
                     "compared": compared, "contradicts": compared and disjoint(ours, theirs, widen)})
    return Held(rows=pd.DataFrame(rows, columns=ROW_COLUMNS),
                only_run=_only(run, reference), only_reference=_only(reference, run), widen=widen)


def needs(ratio: float, fork_cv: float, cap: float,
          first_look: float = sequential.MIN_FORKS) -> float:
    """Forks per side a row of this ratio and fork CV needs for a decision under a design of
    this cap and first look (NaN where the run has no cap or the reference no fork CV)."""
    if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in (ratio, fork_cv, cap)):
        return math.nan
    first = int(first_look) if first_look == first_look else sequential.MIN_FORKS
    return float(sequential.forks_to_decide(ratio, fork_cv,
                                            sequential.Design(cap=int(cap), min_forks=first)))


def hold_files(cases: list[str], run: dict[str, Path], reference: dict[str, Path],
               widen: float = MACHINE_SPREAD, baseline: dict[str, str] | None = None) -> Held:
    """The cases' run files against their reference files. Every file is read (and any bad one
    refused) before a row is compared."""
    baseline = baseline or {}
    read = {(side, c): read_results(files[c])
            for side, files in (("run", run), ("reference", reference)) for c in cases}
    sides = {side: pd.concat([time_rows(read[(side, c)].frame, c, baseline.get(c, "old")) for c in cases],
                             ignore_index=True)
             for side in ("run", "reference")}
    cpus = {side: cpus_of([read[(side, c)].provenance for c in cases]) for side in ("run", "reference")}
    profiles = {(side, c): cpu_analysis.read(files[c])
                for side, files in (("run", run), ("reference", reference)) for c in cases}
    return replace(hold(sides["run"], sides["reference"], widen), cpus=cpus, profiles=profiles)


def hold_folders(cases: list[str], run: Path, reference: Path, widen: float = MACHINE_SPREAD,
                 baseline: dict[str, str] | None = None) -> Held:
    """hold_files over the cases' <case>.json in two folders; the factor checked first."""
    if not widen >= 1:
        raise HotpathError(f"--widen {widen:g}: an interval is widened by a factor of at least 1")
    return hold_files(cases, {c: run / f"{c}.json" for c in cases},
                      {c: reference / f"{c}.json" for c in cases}, widen, baseline)


def _keyed(rows: pd.DataFrame) -> pd.DataFrame:
    return rows.assign(key_params=rows["params"].map(params_key))


def _only(these: pd.DataFrame, others: pd.DataFrame) -> pd.DataFrame:
    marked = these.merge(others[KEY], on=KEY, how="left", indicator=True)
    return marked.loc[marked["_merge"] == "left_only", ONLY_COLUMNS].reset_index(drop=True)
