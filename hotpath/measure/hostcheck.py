"""Whether the host runs settled code today as it ran for the reference: one row of the
reference, measured again in its own fork shape, before a run that needs a quiet machine.

The busy check (hotpath.measure.machine) sees other processes on this machine; it cannot see
other tenants of the host, who slow settled code by 10-40% for seconds at a time and spread
forks apart. What they do shows in a row's time and fork spread: old encode(STR_64), a row whose
forks in the committed A/A were level from their second second on, ran at 90 ns/op with its forks 3% apart on the day of the committed
A/A, and at 235-242 ns/op, 16% apart, on a day whose 90-minute A/A called 0 of 54 rows same.
Six forks of it take about 40 s; a row needs forks in proportion to its fork spread squared, so
at twice the reference's spread every row asks four times the forks its cap was set for.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import HotpathError
from ..jmh import VARIANT
from ..paths import JAR, REFERENCE, ROOT, sidecar_of
from . import machine
from .profiles import PROFILES, Profile

#: The row: cheap, in the reference, and level well within the 3 s warmup in every fork of the
#: committed A/A (data/reference/aa/).
BENCHMARK = "hotpath.encoder.EncoderPayloadBenchmark.encode"
PARAMS = {"payload": "STR_64", VARIANT: "old"}
CASE = "encoder"
#: Forks of the reference's shape (3 x 1 s warmup, 2 x 1 s measured): about 40 s.
FORKS = 6
#: The most the row may be slower than in the reference (on a machine of the reference's kind:
#: its CPU model and cores), and its forks spread more, for a run that decides verdicts to start.
SLOWER, SPREAD = 2.0, 2.0


@dataclass(frozen=True)
class Row:
    """A row's time per op (the mean of its forks' means) and fork CV, over ``forks`` forks."""

    time: float
    fork_cv: float
    forks: int
    unit: str


@dataclass(frozen=True)
class HostCheck:
    """The row today against the same row in the reference."""

    today: Row
    reference: Row
    #: Whether this machine is of the reference's kind: only then is its time held to SLOWER
    #: (another CPU is slower or faster for reasons of its own; its spread is still the host's).
    same_kind: bool = True

    @property
    def slower(self) -> float:
        return self.today.time / self.reference.time

    @property
    def spread(self) -> float:
        return self.today.fork_cv / self.reference.fork_cv

    @property
    def quiet(self) -> bool:
        return self.spread <= SPREAD and (self.slower <= SLOWER or not self.same_kind)

    def describe(self) -> str:
        t, r = self.today, self.reference
        kind = "" if self.same_kind else " (another CPU than the reference's: its time is not held to it)"
        return (f"old encode(STR_64) today: {t.time:.1f} {t.unit} over {t.forks} forks, "
                f"{self.slower:.2f}x the reference's {r.time:.1f}{kind}; fork CV {t.fork_cv:.1%} "
                f"against its {r.fork_cv:.1%} ({self.spread:.1f}x)")


def row_of(entries: list[dict]) -> Row:
    """The row's figures in a JMH results list (forks' means of their measured iterations)."""
    for e in entries:
        params = {k: str(v) for k, v in (e.get("params") or {}).items()}
        if e.get("benchmark") == BENCHMARK and params == PARAMS:
            metric = e["primaryMetric"]
            means = [statistics.fmean(fork) for fork in metric["rawData"] if fork]
            if len(means) < 2:
                break
            mean = statistics.fmean(means)
            return Row(mean, statistics.stdev(means) / mean, len(means), metric["scoreUnit"])
    raise HotpathError(f"no forks of {BENCHMARK}({PARAMS}) to take the host check's figures from")


def reference_row() -> Row:
    path = REFERENCE / f"{CASE}.json"
    try:
        return row_of(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, json.JSONDecodeError) as e:
        raise HotpathError(f"{path}: cannot read the reference's row for the host check ({e})") from None


def command(target: Path, jar: Path = JAR, forks: int = FORKS,
            profile: Profile = PROFILES["reference"]) -> list[str]:
    """JMH on the row in the reference's fork shape, JVM arguments and profilers."""
    return [*profile.java(forks), "-jar", str(jar), f"^{BENCHMARK}$",
            *profile.jmh_args(forks=forks, variant_filter=False),
            *(arg for k, v in PARAMS.items() for arg in ("-p", f"{k}={v}")),
            "-rf", "json", "-rff", str(target)]


def measure(jar: Path = JAR, forks: int = FORKS, profile: Profile = PROFILES["reference"]) -> HostCheck:
    """Run the row now (JMH's console output is not shown) and set it against the reference."""
    if not jar.is_file():
        raise HotpathError(f"{jar} is missing: build it with 'make build' (mvn package)")
    reference = reference_row()
    with tempfile.TemporaryDirectory(prefix="hotpath-hostcheck-") as tmp:
        target = Path(tmp) / "row.json"
        done = subprocess.run(command(target, jar, forks, profile), cwd=ROOT, capture_output=True, text=True)
        if done.returncode or not target.is_file():
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
            raise HotpathError(f"the host check's JMH run failed (exit {done.returncode}): {tail}")
        today = row_of(json.loads(target.read_text(encoding="utf-8")))
    return HostCheck(today, reference, same_kind())


def same_kind(reference: Path = REFERENCE / f"{CASE}.json") -> bool:
    """Whether this machine has the CPU model and cores the reference's provenance records."""
    from .bench import _cpu_model

    try:
        recorded = json.loads(sidecar_of(reference).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return False
    return (recorded.get("cpu_model"), recorded.get("cores")) == (_cpu_model(), os.cpu_count())


def refuse_if_contended(profile: Profile, check=measure) -> HostCheck | None:
    """A run that decides verdicts does not start on a host that runs the row far slower or
    far noisier than the reference's did (HOTPATH_ALLOW_BUSY=1 starts it anyway)."""
    if os.environ.get(machine.OVERRIDE):
        return None
    print(f"hotpath: host check before the {profile.name} run (about 40 s): "
          f"{FORKS} forks of old encode(STR_64) in the reference's shape", flush=True)
    found = check()
    print(f"hotpath: {found.describe()}", flush=True)
    if not found.quiet:
        raise HotpathError(
            f"the host is contended today: {found.describe()}; a {profile.name} run needs at most "
            f"{SLOWER:g}x its time and {SPREAD:g}x its spread (at twice the spread a row needs four "
            f"times the forks). Try at a quieter time ('make host-check' takes 40 s), or set "
            f"{machine.OVERRIDE}=1 to run anyway (the run's machine is recorded and reported).")
    return found
