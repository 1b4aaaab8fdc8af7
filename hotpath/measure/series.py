"""A patch series measured: a baseline build and the patch's builds step by step, each the patch
up to one more commit (cumulative), to learn which commit pays. Each step is a run of two builds
of its own (hotpath.measure.ab, as it runs any two builds): the baseline against the patch up to
that step, in an even share of the budget. The steps' parts are made by the analysis
(hotpath.analyze.series): a step's run's change less the step before's.

Written: data/results/series/<name>/ (or another folder's <name>/) holds ``<k>-<step>/`` per step,
each a run of two builds (hotpath.runs.BUILDS), and series.json (hotpath.runs.SERIES_MANIFEST):
the baseline, the steps in order with their names and folders, the selection, the profile and
budget, the command. It is written into a staging folder and put in place only when every step
is complete: a failed or interrupted series leaves the earlier one as it was.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import ab, builds
from .builds import Side
from .profiles import Profile, format_duration, get_profile
from .. import runs
from ..errors import HotpathError
from ..paths import SERIES_RESULTS, committed

Log = Callable[[str], None]


@dataclass(frozen=True)
class Series:
    """A baseline and the patch's builds step by step (named apart), what of them to measure,
    under which profile and name."""

    profile: Profile
    baseline: Side
    steps: tuple[Side, ...]
    selection: ab.Selection
    name: str

    @classmethod
    def of(cls, baseline: str, steps: list[str], baseline_name: str | None = None,
           step_names: str | None = None, bench_regex: str | None = None,
           params: list[str] | None = None, name: str | None = None,
           profile: str | None = None) -> "Series":
        """The series as it was given; bad input raises in one line, before anything runs."""
        if not steps:
            raise HotpathError("a series needs at least one step beside its baseline: hotpath series "
                               "BASELINE STEP [STEP ...] (make report BASELINE=master.jar STEPS=a.jar,b.jar)")
        base = builds.parse(baseline, "baseline", baseline_name or "")
        given = [builds.parse(step, "step") for step in steps]
        for step in given:
            if step.entries == base.entries:
                raise HotpathError(f"step {step.given} is the baseline itself: give each step's own "
                                   f"build (the patch up to that step)")
        names = step_names_of(base, given, step_names or "")
        # each step is the candidate of its own run of two builds
        sides = tuple(dataclasses.replace(s, role="candidate", name=n) for s, n in zip(given, names))
        return cls(get_profile(profile or "ab"), base, sides,
                   ab.Selection(include=bench_regex or ".", params=ab.parse_params(params or [])),
                   ab.slug(name) if name else ab.slug(f"{base.name}-series-{names[-1]}"))

    def folders(self) -> list[str]:
        """Each step's run's folder in the series' folder: its place and its name."""
        return [f"{k}-{ab.slug(step.name)}" for k, step in enumerate(self.steps, 1)]

    def measure(self, budget: str = "", results_dir: str = "", log: Log = print,
                java: str = "java") -> Path:
        """Every step's run against the baseline into data/results/series/<name>/ (or
        ``results_dir``/<name>/), each in its share of the budget; returns the series' folder."""
        out = Path(results_dir or SERIES_RESULTS) / self.name
        if committed(out):
            raise HotpathError(f"a series writes under data/results/ or outside data/, not into the "
                               f"study's committed data ({out})")
        for step in self.steps:  # every step's rows, before any step runs
            ab.rows_for(self.baseline, step, self.selection, self.profile, java)
        total = self.profile.budget_s(budget)
        each = total / len(self.steps)
        log(f"hotpath: {self.name}: {len(self.steps)} step(s) against {self.baseline.name}, "
            f"{format_duration(each)} each")
        staging = out.with_name(f".{out.name}.partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        t0, started = time.monotonic(), dt.datetime.now(dt.timezone.utc)
        try:
            for k, (step, folder) in enumerate(zip(self.steps, self.folders()), 1):
                log(f"hotpath: {self.name}: step {k} of {len(self.steps)}: {step.name}")
                ab.run(self.baseline, step, self.selection, self.profile, budget_s=each,
                       name=f"{self.name}-{folder}", out=staging / folder, java=java, log_to=log)
            manifest = self.manifest(started, time.monotonic() - t0, total, each)
            (staging / runs.SERIES_MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n",
                                                        encoding="utf-8")
            runs.put_in_place(staging, out)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return out

    def manifest(self, started: dt.datetime, duration_s: float, total_s: float, each_s: float) -> dict:
        """series.json: the baseline, the steps in order (each with its run's folder), the
        selection, the profile and budget, the command."""
        return {
            "kind": "series",
            "name": self.name,
            "started": started.isoformat(timespec="seconds"),
            "duration_s": round(duration_s, 1),
            "profile": self.profile.name,
            "budget_s": total_s if math.isfinite(total_s) else None,
            "budget_s_per_step": each_s if math.isfinite(each_s) else None,
            "selection": self.selection.record(),
            "baseline": self.baseline.record(),
            "steps": [{**step.record(), "folder": folder}
                      for step, folder in zip(self.steps, self.folders())],
            "invoked_as": shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        }


def step_names_of(baseline: Side, steps: list[Side], given: str) -> list[str]:
    """The steps' names: ``given`` (comma-separated, one a step), else each jar's; where jars'
    names agree (every commit's benchmarks.jar), each is told by its place ('benchmarks (step 2)').
    Names must differ from each other and from the baseline's: the runs' sides go by them."""
    if given:
        names = [n.strip() for n in given.split(",")]
        if len(names) != len(steps) or not all(names):
            raise HotpathError(f"--step-names gives {len(names)} name(s) for {len(steps)} step(s): "
                               f"one name a step, comma-separated")
    else:
        names = [step.name for step in steps]
        if len(set(names)) < len(names) or baseline.name in names:
            names = [f"{n} (step {k})" for k, n in enumerate(names, 1)]
    if len(set(names)) < len(names) or baseline.name in names:
        raise HotpathError(f"the steps' names ({', '.join(names)}) must differ from each other and "
                           f"from the baseline's ({baseline.name}): give --step-names or --baseline-name")
    return names
