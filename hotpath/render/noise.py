"""The machine, said once where the verdicts are read: a run's median fork CV, old's time per op
against the reference's where the case has one (the same code on both: what differs is the
machine and its day), and what that fork CV means for the rows left undecided. Each report says
it for its case, the overview for the whole run (``combine``).

Without it a reader takes an undecided row for "no change", when on a noisy machine it is
"too few forks to tell"."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..analyze import against, hostspeed
from ..analyze.load import read_provenance, read_results
from ..paths import results_file
from ..records import SLOW_PROBE
from ..stats.sequential import THRESHOLD
from .tables import written

#: The cap a row without a sequential plan is judged against, as compare.pair judges it for its
#: "forks that would decide it".
FALLBACK_CAP = 24


@dataclass(frozen=True)
class Noise:
    """Per row of the write-up's variants: its fork CV, cap and first look; the rows held
    against the reference's (against.hold), if any; and whether the run is the reference."""

    fork_cvs: tuple[float, ...]
    caps: tuple[float, ...]
    first_looks: tuple[float, ...]
    held: pd.DataFrame | None = None
    reference: bool = False
    #: The CPU models the run's and the reference's provenance record, where they differ.
    cpus: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: The host-speed probe's time around every counted iteration of the run (µs;
    #: hotpath.profiler.HostSpeedProfiler), empty where the run did not record it.
    probes: tuple[float, ...] = ()

    @property
    def fork_cv(self) -> float:
        cvs = [c for c in self.fork_cvs if math.isfinite(c)]
        return statistics.median(cvs) if cvs else math.nan

    @property
    def rows(self) -> int:
        return sum(math.isfinite(c) for c in self.fork_cvs)

    def _most(self, values: tuple[float, ...], default: float) -> float:
        known = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
        return Counter(known).most_common(1)[0][0] if known else default

    @property
    def cap(self) -> float:
        return self._most(self.caps, FALLBACK_CAP)

    @property
    def first_look(self) -> float:
        return self._most(self.first_looks, math.nan)

    def machine(self) -> against.Machine | None:
        """Old's time per op against the reference's, and both fork CVs, over the rows in both."""
        if self.held is None or self.held.empty:
            return None
        return against.Held(self.held, pd.DataFrame(), pd.DataFrame(),
                            against.MACHINE_SPREAD).machine()


def of_run(frame: pd.DataFrame, pairs: pd.DataFrame, case: str, source: Path | str) -> Noise:
    """A case's run (``frame``, paired into ``pairs``), and where the case has a reference
    run other than this one, its rows held against the reference's."""
    rows = written(pairs) if not pairs.empty else pairs
    reference = results_file("reference", case) if case else None
    is_reference = bool(reference and reference.is_file()
                        and Path(source).resolve() == reference.resolve())
    held = None
    cpus: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    if reference and reference.is_file() and not is_reference and not rows.empty:
        mine = against.time_rows(frame, case, str(rows["baseline"].iloc[0]))
        mine = mine[mine["candidate"].isin(set(rows["candidate"]))]
        theirs = read_results(reference)
        held = against.hold(mine, against.time_rows(theirs.frame, case)).rows
        cpus = (against.cpus_of([read_provenance(Path(source)) if Path(source).is_file() else None]),
                against.cpus_of([theirs.provenance]))
    return Noise(tuple(_floats(rows, "fork_cv")), tuple(_floats(rows, "cap")),
                 tuple(_floats(rows, "first_look")), held, is_reference, cpus,
                 hostspeed.probes(frame))


def host_speed(probes: tuple[float, ...]) -> str:
    """'The host ran its probe 1.1× or more slower than its full speed around 12% of the counted
    iterations (1.8× at their median).' ('' where the run has no probe)"""
    found = hostspeed.slow_iterations(probes)
    if not found.iterations:
        return ""
    if not found.slow:
        return (f"The host-speed probe stayed within {SLOW_PROBE:g}× of its full speed around every "
                f"one of the {found.iterations} counted iterations.")
    share = found.slow / found.iterations
    around = f"{share:.0%} of" if share >= 0.01 else f"{found.slow} of"
    return (f"The host-speed probe ran {SLOW_PROBE:g}× or more slower than its full speed (its "
            f"10th percentile over the run) around "
            f"{around} the {found.iterations} counted iterations "
            f"({found.slow_median:.1f}× at their median).")


def _floats(rows: pd.DataFrame, column: str) -> list[float]:
    return [float(v) for v in rows[column]] if column in rows else []


def combine(noises: list[Noise]) -> Noise:
    """The whole run's: every case's rows together."""
    held = [n.held for n in noises if n.held is not None and not n.held.empty]
    cpus = (tuple(sorted({m for n in noises for m in n.cpus[0]})),
            tuple(sorted({m for n in noises for m in n.cpus[1]})))
    return Noise(tuple(c for n in noises for c in n.fork_cvs), tuple(c for n in noises for c in n.caps),
                 tuple(c for n in noises for c in n.first_looks),
                 pd.concat(held, ignore_index=True) if held else None,
                 bool(noises) and all(n.reference for n in noises), cpus,
                 tuple(p for n in noises for p in n.probes))


def fmt_cv(cv: float) -> str:
    return "—" if not math.isfinite(cv) else f"{cv:.1%}"


def line(noise: Noise) -> str:
    """'Median fork CV 14.6% over the 4 rows this run shares with the reference, whose forks
    had 2.6%; old's code took 2.61× the reference's time per op there (…). At a fork CV of 14.6%,
    calling an unchanged row same within ±5% takes about 110 forks per side, beyond the cap of
    8: rows left undecided here are noise-limited, not no-change.' ('' without a fork CV)"""
    cv = noise.fork_cv
    if not math.isfinite(cv):
        return ""
    n = noise.rows
    rows = f"{n} row{'s' if n != 1 else ''}"
    m = noise.machine()
    if noise.reference:
        first = f"This is the reference run: median fork CV {fmt_cv(cv)} over its {rows}."
    elif m is not None and noise.held is not None:
        # the run's rows that the reference has too: the two CVs and old's times on the same rows
        cv, shared = m.run_fork_cv, len(noise.held)
        first = (f"Median fork CV {fmt_cv(cv)} over the {shared} row{'s' if shared != 1 else ''} "
                 f"this run shares with the reference, whose forks had {fmt_cv(m.reference_fork_cv)}; "
                 f"old's code took {m.slower:.2f}× the reference's time per op there (median; "
                 f"{m.least:.2f}×–{m.most:.2f}×){_other_cpu(noise)}.")
    else:
        first = f"Median fork CV {fmt_cv(cv)} over this run's {rows}; no reference run to set it beside."
    return f"{first} {_meaning(noise, cv)} {host_speed(noise.probes)}".strip()


def _other_cpu(noise: Noise) -> str:
    """', on another CPU than the reference's (…)' where both are known and differ."""
    run, reference = noise.cpus
    if not against.other_cpu(run, reference):
        return ""
    return f", on another CPU than the reference's ({', '.join(run)} against {', '.join(reference)})"


def _meaning(noise: Noise, cv: float) -> str:
    """What the fork CV means for the rows left undecided (against.needs: an unchanged row, the
    run's cap and first look)."""
    needs = against.needs(1.0, cv, noise.cap, noise.first_look)
    if not math.isfinite(needs):
        return ""
    cap = f"{noise.cap:.0f}"
    text = (f"At a fork CV of {fmt_cv(cv)}, calling an unchanged row same within "
            f"±{THRESHOLD:.0%} takes about {needs:.0f} forks per side")
    if needs > noise.cap:
        return (text + f", beyond the cap of {cap}: rows left undecided here are noise-limited, "
                f"not no-change.")
    return (text + f", within the cap of {cap}: a row left undecided sits near the band's edge or "
            f"is noisier than the median, and its note says how many forks would decide it.")
