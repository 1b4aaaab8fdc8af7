"""The host-speed probe: what every timed fork records beside its iterations, and the command that
measures what its reading rule buys. The rule itself (the fastest of its rounds, the faster of an
iteration's two probes) is held in JUnit by what it does with any readings
(HostSpeedProfilerTest); how much a thread sharing the CPU slows a round and not the probe is a
measurement of the host, recorded in docs/evidence/what-the-host-probe-costs.md, never asserted
here: a host in one of its slow stretches can undo any such ratio for the seconds a test runs."""

import re
import subprocess

import pytest

from hotpath.measure.profiles import PROBE_PROFILER, PROFILES
from hotpath.paths import JAR

needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")


def test_every_timed_fork_of_every_profile_records_the_host_speed_probe():
    for profile in PROFILES.values():
        assert PROBE_PROFILER in profile.profilers, profile.name


@needs_jar
def test_the_evidence_command_prints_its_four_readings():
    # what the evidence page's command prints, read as it reads it; the figures are not judged
    done = subprocess.run(["java", "-cp", str(JAR), "hotpath.profiler.HostSpeedCheck", "40"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = re.fullmatch(r"round alone (\S+) beside (\S+); probe alone (\S+) beside (\S+)\s*", done.stdout)
    assert found, done.stdout
    assert all(float(v) > 0 for v in found.groups()), done.stdout
