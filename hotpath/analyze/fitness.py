"""Whether a run of every case is fit to be the reference: its forks and the host-speed probe on
the reference A/A's own rows, set against the A/A's (data/reference/aa/: identical code, the
default run's forks). A run whose host was slowed through, not at its start alone, spreads its
forks and decides few rows at any budget (docs/evidence/is-a-run-fit-to-be-the-reference.md)."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from . import aa, compare, hostspeed
from .load import read_results
from ..cases import existing_cases
from ..jmh import VARIANT, Params, RowKey, params_of
from ..paths import AA_REFERENCE

#: How far beyond the A/A's a fit run may lie, its forks' spread and its probe's slow share: the
#: host check's bar for a run to start (hotpath.measure.hostcheck.SPREAD), which at twice the
#: spread asks four times the forks of every row.
BAR = 2.0


@dataclass(frozen=True)
class Fitness:
    """A run's write-up rows that the A/A has too: their median fork CV, the run's and the A/A's,
    how many lay further apart than the A/A's, and the probe's slow share beside old's counted
    iterations there, the run's and the A/A's."""

    rows: int
    fork_cv: float
    aa_fork_cv: float
    further: int
    slow: float
    aa_slow: float

    @property
    def fit(self) -> bool:
        return (self.rows > 0 and self.fork_cv <= BAR * self.aa_fork_cv
                and not self.slow > BAR * self.aa_slow)

    def said(self) -> str:
        if not self.rows:
            return "not fit to be the reference: none of its rows is one of the A/A's"
        probe = (f"; the probe slow beside {self.slow:.0%} of old's counted iterations there, against "
                 f"{self.aa_slow:.0%}" if math.isfinite(self.slow) else "; no probe")
        return (f"{'fit' if self.fit else 'not fit'} to be the reference: on the A/A's own rows "
                f"({self.rows} in both) its forks lay a median {self.fork_cv:.1%} apart, against the "
                f"A/A's {self.aa_fork_cv:.1%}, further in {self.further}{probe} (at most {BAR:g}x the "
                f"A/A's either way)")


def _row(benchmark: str, params: str) -> tuple[str, Params]:
    """The benchmark x params as every stage matches them (RowKey), whichever side's params."""
    given = params_of(params)
    given.pop(VARIANT, None)
    return RowKey.of(benchmark, given).group


def _slow(frame: pd.DataFrame, rows: set[tuple[str, Params]]) -> float:
    kept = frame[[_row(b, p) in rows for b, p in zip(frame["benchmark"], frame["params"])]]
    found = hostspeed.slow_iterations(hostspeed.probes(kept))
    return found.slow / found.iterations if found.iterations else math.nan


def of(folder: Path, aa_folder: Path = AA_REFERENCE) -> Fitness:
    """The run in ``folder`` (its cases' results files) against the A/A in ``aa_folder``."""
    bar = aa.AA(aa_folder)
    theirs = {_row(r.benchmark, r.params): float(r.fork_cv) for r in bar.table.itertuples()}
    mine: dict[tuple[str, Params], float] = {}
    olds = []
    for case in existing_cases():
        path = Path(folder) / f"{case.id}.json"
        if not path.is_file():
            continue
        run = read_results(path)
        pairs = compare.paired(run).pairs
        for r in pairs[pairs["candidate"] == case.candidate].itertuples():
            mine[_row(r.benchmark, r.params)] = float(r.fork_cv)
        olds.append(run.frame[run.frame["variant"] == case.baseline])
    both = [(theirs[k], v) for k, v in mine.items() if k in theirs and math.isfinite(v) and math.isfinite(theirs[k])]
    if not both:
        return Fitness(0, math.nan, math.nan, 0, math.nan, math.nan)
    rows = set(theirs)
    return Fitness(len(both), statistics.median(v for _, v in both), statistics.median(a for a, _ in both),
                   sum(v > a for a, v in both), _slow(pd.concat(olds), rows) if olds else math.nan,
                   _slow(bar.run.run.frame, rows))
