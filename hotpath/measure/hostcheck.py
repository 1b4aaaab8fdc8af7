"""Whether the host runs settled code today as it ran for the 2026-11-26 A/A: one of its rows
measured again, its forks summarized as the A/A's are, before a run that needs a quiet machine.

The busy check (hotpath.machine) sees other processes on this machine; it cannot see
other tenants of the host, who slow settled code by 10-40% for seconds at a time and spread
forks apart. What they do shows in a row's fork spread and time. Old encode(STR_64) is cheap and
level within a 3 s warmup in every fork of the 2026-11-26 A/A (data/aa-runs/2026-11-26/), whose forks
of it, by their 10th percentile from 3 s on, lay at 87.0 ns/op and 0.95% apart; the forks of
the 2026-11-27 A/A, which called none of its 54 rows same, lay at 200 ns/op and 13.9% apart.
Six forks take about 40 s. A row needs forks in proportion to its fork spread squared, so at
twice the 2026-11-26 A/A's spread every row asks four times the forks its design was replayed on.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from .. import children, machine
from ..errors import HotpathError
from ..jmh import VARIANT
from ..paths import AA_CALIBRATION, JAR, ROOT
from ..records import PROBE_METRIC, SLOW_PROBE, full_speed, slow_probes
from ..stats import steady
from . import rounds
from .profiles import format_duration, parse_budget
from .profiles import PROBE_PROFILER, PROFILES, Profile

BENCHMARK = "hotpath.encoder.EncoderPayloadBenchmark.encode"
PARAMS = {"payload": "STR_64", VARIANT: "old"}
#: The A/A's own forks: its JVM arguments, iterations and estimate; 3 s of warmup, then 2 s of
#: iterations, of which each fork's figure is the A/A's estimate.
SHAPE: Profile = replace(PROFILES["aa"], name="host-check", recorded=False, warmup_iterations=3,
                         warmup_time="1 s", measurement_iterations=20,
                         measurement_time=PROFILES["aa"].iteration_time, profilers=("gc", PROBE_PROFILER),
                         fail_on_error=True)
WARMUP_S = 3.0
FORKS = 6
#: What a check takes, JVM starts included.
CHECK_S = 40.0
#: The most the row's forks may spread beyond the 2026-11-26 A/A's, and (on the A/A's kind of
#: machine: its CPU model and cores) its time, for a run that decides verdicts to start.
SPREAD, SLOWER = 2.0, 2.0
#: On the Intel Xeon C2 compiles the row one of two ways from fork to fork: 7 of 48 forks ran at
#: 128-143 ns/op, the rest at 172 or more (data/cpu-sampler/debug-quiet/, `report_modes` in
#: docs/evidence/cpu_sampler_cost.py), so one or more of six forks fall fast six days in ten. A
#: host slows a fork, it does not speed one up: fewer than half the forks, faster than the rest
#: by a gap over this many times the rest's spread, are the compiler's other mode, set aside.
MODE_GAP = 6.0


@dataclass(frozen=True)
class Row:
    """A row's forks: the mean of their figures (time per op), their CV, how many."""

    time: float
    fork_cv: float
    forks: int
    unit: str
    #: Of the counted iterations, how many the host-speed probe beside them ran SLOW_PROBE x its
    #: full speed or slower, and how many it timed (0 where the forks had no probe).
    probe_slow: int = 0
    probed: int = 0
    #: Forks in a faster mode of the compiler's than the rest (MODE_GAP), set aside, and their mean.
    fast: int = 0
    fast_time: float = 0.0


def faster_mode(figures: list[float]) -> int:
    """How many of the forks' figures (the fastest first once sorted) lie in a faster mode than
    the rest: fewer than half of them, below the widest gap that is over MODE_GAP times the
    spread of the forks above it; 0 where there is no such gap."""
    logs = sorted(math.log(f) for f in figures)
    candidates = [k for k in range(1, (len(logs) - 1) // 2 + 1) if len(logs) - k >= 3]
    if not candidates:
        return 0
    k = max(candidates, key=lambda i: logs[i] - logs[i - 1])
    return k if logs[k] - logs[k - 1] > MODE_GAP * statistics.stdev(logs[k:]) else 0


@dataclass(frozen=True)
class HostCheck:
    """The row today against the same row in the 2026-11-26 A/A."""

    today: Row
    aa: Row
    #: Whether this machine is of the A/A's kind: only then is its time held to SLOWER (another
    #: CPU is slower or faster for reasons of its own; its spread is still the host's).
    same_kind: bool = True

    @property
    def slower(self) -> float:
        return self.today.time / self.aa.time

    @property
    def spread(self) -> float:
        return self.today.fork_cv / self.aa.fork_cv

    @property
    def quiet(self) -> bool:
        return self.spread <= SPREAD and (self.slower <= SLOWER or not self.same_kind)

    def describe(self) -> str:
        t, a = self.today, self.aa
        kind = "" if self.same_kind else " (another CPU than the A/A's: its time is not held to it)"
        probe = (f"; the host-speed probe {SLOW_PROBE:g}x its full speed or slower beside "
                 f"{t.probe_slow} of {t.probed} iterations" if t.probed else "")
        fast = (f"; {t.fast} more in the compiler's faster mode at {t.fast_time:.1f}, set aside"
                if t.fast else "")
        return (f"old encode(STR_64) today: {t.time:.1f} {t.unit} over {t.forks} forks (each fork's "
                f"{SHAPE.estimate}{fast}), {self.slower:.2f}x the 2026-11-26 A/A's {a.time:.1f}{kind}; fork CV "
                f"{t.fork_cv:.1%} against its {a.fork_cv:.1%} ({self.spread:.1f}x){probe}")


    def record(self) -> dict:
        """What a run's provenance keeps of the check it ran before it."""
        from .passes import shown as _shown

        return {"row": f"{BENCHMARK}({', '.join(f'{k}={v}' for k, v in PARAMS.items())})",
                "command": shlex.join(command(Path("row.json"), Path(_shown(JAR)))[:-4]),
                "estimate": SHAPE.estimate,
                "today": asdict(self.today), "committed_aa": asdict(self.aa),
                "same_kind": self.same_kind, "quiet": self.quiet, "said": self.describe()}


def row_of(entries: list[dict], skip: int = 0) -> Row:
    """The row's forks in a JMH results list, each fork's figure its iterations after the
    first ``skip`` by the A/A's estimate."""
    figures, unit, probes = [], "", []
    for e in entries:
        params = {k: str(v) for k, v in (e.get("params") or {}).items()}
        if e.get("benchmark") == BENCHMARK and params == PARAMS:
            metric = e["primaryMetric"]
            unit = metric["scoreUnit"]
            figures += [steady.figure(fork[skip:], SHAPE.estimate) for fork in metric["rawData"]
                        if len(fork) > skip]
            probe = (e.get("secondaryMetrics") or {}).get(PROBE_METRIC) or {}
            probes += [float(v) for fork in probe.get("rawData") or [] for v in fork[skip:]]
    if len(figures) < 2:
        raise HotpathError(f"fewer than two forks of {BENCHMARK}({PARAMS}) to take the host check's "
                           f"figures from")
    figures = sorted(figures)
    k = faster_mode(figures)
    fast, figures = figures[:k], figures[k:]
    mean = statistics.fmean(figures)
    slow = slow_probes(probes, full_speed(probes)).slow if probes else 0
    return Row(mean, statistics.stdev(figures) / mean, len(figures), unit, slow, len(probes),
               len(fast), statistics.fmean(fast) if fast else 0.0)


def aa_row(folder: Path = AA_CALIBRATION) -> Row:
    """The row's forks in the 2026-11-26 A/A, both sides, from WARMUP_S on."""
    skip = round(WARMUP_S / PROFILES["aa"].iteration_s)
    entries = []
    for name in ("baseline.json", "candidate.json"):
        try:
            entries += json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise HotpathError(f"{folder / name}: cannot read the 2026-11-26 A/A's forks for the "
                               f"host check ({e})") from None
    return row_of(entries, skip)


def same_kind(folder: Path = AA_CALIBRATION) -> bool:
    """Whether this machine has the CPU model and cores the 2026-11-26 A/A's record names."""
    from .jar import cpu_model

    try:
        recorded = json.loads((folder / "ab.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return False
    return (recorded.get("cpu_model"), recorded.get("cores")) == (cpu_model(), os.cpu_count())


def command(target: Path, jar: Path = JAR, forks: int = FORKS, shape: Profile = SHAPE) -> list[str]:
    """JMH on the row: the A/A's JVM arguments and iterations after a 3 s warmup, -prof gc."""
    return [*shape.java(forks), "-jar", str(jar), f"^{BENCHMARK}$",
            *shape.jmh_args(forks=forks, variant_filter=False),
            *(arg for k, v in PARAMS.items() for arg in ("-p", f"{k}={v}")),
            "-rf", "json", "-rff", str(target)]


def measure(jar: Path = JAR, forks: int = FORKS, shape: Profile = SHAPE) -> HostCheck:
    """Run the row now (JMH's console output is not shown) and set it against the A/A's."""
    if not jar.is_file():
        raise HotpathError(f"{jar} is missing: build it with 'make build' (mvn package)")
    aa = aa_row()
    with tempfile.TemporaryDirectory(prefix="hotpath-hostcheck-") as tmp:
        target = Path(tmp) / "row.json"
        done = children.run(command(target, jar, forks, shape), cwd=ROOT, capture_output=True, text=True)
        if done.returncode or not target.is_file():
            output = done.stdout + done.stderr
            if rounds.LOCKED in output:
                raise HotpathError(f"the host check's JMH run failed: {rounds.no_result(output)}")
            tail = "\n".join(output.strip().splitlines()[-5:])
            raise HotpathError(f"the host check's JMH run failed (exit {done.returncode}): {tail}")
        today = row_of(json.loads(target.read_text(encoding="utf-8")))
    return HostCheck(today, aa, same_kind())


#: How often a check that waits for a quiet host runs again: a busy stretch of the host lasts
#: minutes, and each check costs 40 s of the machine.
EVERY_S = 600.0


def wait_until_quiet(wait_s: float, every_s: float = EVERY_S, check=measure, sleep=time.sleep,
                     clock=time.monotonic, log=print) -> HostCheck:
    """The check again every ``every_s`` until the host is quiet or ``wait_s`` has passed (no
    check starts that would end after it); the last check, quiet or not. An A/A wants a quiet
    hour and a half, which on a shared host comes when it comes."""
    t0 = clock()
    while True:
        found = check()
        log(f"hotpath: {time.strftime('%H:%M')}: {found.describe()}")
        if found.quiet or clock() - t0 + every_s + CHECK_S > wait_s:
            return found
        sleep(every_s)


def check(wait: str = "", every: str = "", log=print) -> HostCheck:
    """The check now, said in a line; with ``wait`` ('45m', '3h'), again every ``every`` (10m by
    default) until the host is quiet or the wait is over."""
    wait_s = parse_budget(wait, "wait")
    if not wait_s:
        found = measure()
        log(f"hotpath: {found.describe()}")
        return found
    every_s = parse_budget(every, "interval") or EVERY_S
    log(f"hotpath: waiting up to {format_duration(wait_s)} for a quiet host, a check every "
        f"{format_duration(every_s)}")
    return wait_until_quiet(wait_s, every_s, log=log)


def verdict_line(found: HostCheck) -> str:
    """What a check found, said for the run that would follow it."""
    return ("hotpath: quiet enough for a run that decides verdicts" if found.quiet else
            f"hotpath: contended: more than {SPREAD:g}x the 2026-11-26 A/A's fork spread or "
            f"{SLOWER:g}x its time; full, reference and A/A runs will not start")


def refuse_if_contended(profile: Profile, check=measure) -> HostCheck | None:
    """A run that decides verdicts does not start on a host whose forks of the row spread far
    more than the 2026-11-26 A/A's, or run far slower there (HOTPATH_ALLOW_BUSY=1 starts it)."""
    if os.environ.get(machine.OVERRIDE):
        return None
    print(f"hotpath: host check before the {profile.name} run (about 40 s): {FORKS} forks of old "
          f"encode(STR_64) as the 2026-11-26 A/A ran them", flush=True)
    found = check()
    print(f"hotpath: {found.describe()}", flush=True)
    if not found.quiet:
        raise HotpathError(
            f"the host is contended today: {found.describe()}; a {profile.name} run needs at most "
            f"{SPREAD:g}x the A/A's fork spread and {SLOWER:g}x its time (at twice the spread a row "
            f"needs four times the forks). Try at a quieter time ('make host-check' takes 40 s), or "
            f"set {machine.OVERRIDE}=1 to run anyway (the run's machine is recorded and reported).")
    return found
