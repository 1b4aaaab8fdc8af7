"""How busy the machine was while we measured (pyperf's `system show` in spirit).

The machine's CPU time comes from /proc/stat; our own, with every child we waited for (JMH's
host JVM and its forks), from os.times(). What is left was used by other processes: on a
2-core machine, a tenth of a core of someone else's work already shows as fork-to-fork noise.
Measure records it (``CpuMeter``) and refuses a busy machine by it; the reports describe the
record (``describe``).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

#: Other processes' CPU above this (in cores) makes a run "busy".
QUIET_CORES = 0.1
#: Setting this lets a full or reference run start on a busy machine (recorded, warned about).
OVERRIDE = "HOTPATH_ALLOW_BUSY"


def _machine_busy_s() -> float:
    """CPU seconds all processes have spent (user, nice, system, irq, softirq, steal)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _ours_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@dataclass
class CpuMeter:
    """Start it before a run, read it after: the other processes' share of the machine."""
    wall0: float = 0.0
    machine0: float = 0.0
    ours0: float = 0.0
    load0: float = 0.0

    @classmethod
    def start(cls) -> "CpuMeter":
        return cls(time.monotonic(), _machine_busy_s(), _ours_s(), os.getloadavg()[0])

    def read(self) -> dict:
        wall = time.monotonic() - self.wall0
        machine = _machine_busy_s() - self.machine0
        ours = _ours_s() - self.ours0
        others = max(0.0, machine - ours) / wall if wall > 0 else float("nan")
        return {"wall_s": round(wall, 1), "machine_cpu_s": round(machine, 1),
                "ours_cpu_s": round(ours, 1), "others_cores": round(others, 3),
                "load_average_start": round(self.load0, 2),
                "load_average_end": round(os.getloadavg()[0], 2), "cores": os.cpu_count()}


def others_now(seconds: float = 3.0) -> dict:
    """Other processes' CPU over a short window in which we do nothing."""
    meter = CpuMeter.start()
    time.sleep(seconds)
    return meter.read()


def describe(load: dict | None) -> str:
    if not load:
        return "not recorded (a run before the quiet-machine guard)"
    others = load.get("others_cores", float("nan"))
    verdict = "quiet" if others <= QUIET_CORES else "busy: time figures carry other work's noise"
    return (f"{others:.2f} of {load.get('cores', '?')} cores used by other processes during the "
            f"run ({verdict}); load average {load.get('load_average_start', '?')} → "
            f"{load.get('load_average_end', '?')}")
