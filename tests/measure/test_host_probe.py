"""The host-speed probe's known answers: what it records beside the timed forks; that its work
waits for a thread sharing its CPU, and that the probe, the fastest of its rounds, reads past that
sharing to the vCPU's own speed."""

import re
import shutil
import subprocess

import pytest

from hotpath.measure.profiles import PROBE_PROFILER, PROFILES
from hotpath.paths import JAR

needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")


def test_every_timed_fork_of_every_profile_records_the_host_speed_probe():
    for profile in PROFILES.values():
        assert PROBE_PROFILER in profile.profilers, profile.name


@needs_jar
@pytest.mark.verdicts
@pytest.mark.skipif(shutil.which("taskset") is None, reason="needs taskset (util-linux)")
def test_a_thread_sharing_the_probes_cpu_slows_its_rounds_and_not_the_probe():
    # both threads pinned to one CPU: the spinning one takes about half of it in slices of
    # milliseconds; a round of 0.1 ms, run back to back, waits for it in turn, and the fastest of
    # four rounds is one that ran whole between two slices
    done = subprocess.run(["taskset", "-c", "0", "java", "-cp", str(JAR),
                           "hotpath.profiler.HostSpeedCheck", "400"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = re.fullmatch(r"round alone (\S+) beside (\S+); probe alone (\S+) beside (\S+)\s*", done.stdout)
    alone, beside, probe_alone, probe_beside = map(float, found.groups())
    assert 20 < alone < 2000, done.stdout  # a round: about 0.1 ms of work
    assert beside >= 1.4 * alone, done.stdout
    assert probe_beside <= 1.15 * probe_alone, done.stdout
