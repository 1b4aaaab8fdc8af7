"""A child started by hotpath.children ends with the process that started it, however that ended:
a JMH run left behind by a stopped command would take the cores from the next measurement."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hotpath.paths import ROOT


def _children(pid: int) -> list[int]:
    found = []
    for p in Path("/proc").iterdir():
        try:
            if p.name.isdigit() and int((p / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(p.name))
        except (OSError, ValueError):  # a process of the machine's that ended while the others were read
            continue
    return found


def _gone(pid: int, within_s: float = 10.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_a_child_ends_with_the_process_that_started_it(stop):
    parent = subprocess.Popen([sys.executable, "-c", "from hotpath import children\n"
                               "children.run(['sleep', '120'])"], cwd=ROOT)
    try:
        deadline, child = time.monotonic() + 30, []
        while not child and time.monotonic() < deadline:
            child = _children(parent.pid)
            time.sleep(0.05)
        assert len(child) == 1, "the child never started"
        parent.send_signal(stop)
        parent.wait(timeout=10)
        assert _gone(child[0]), f"the child outlived a parent sent {stop.name}"
    finally:
        parent.kill()


def test_a_child_of_a_plain_subprocess_carries_on():
    # the same child started without it: the fault the test above would miss if it were not there
    parent = subprocess.Popen([sys.executable, "-c", "import subprocess; subprocess.run(['sleep', '120'])"])
    try:
        deadline, child = time.monotonic() + 30, []
        while not child and time.monotonic() < deadline:
            child = _children(parent.pid)
            time.sleep(0.05)
        parent.send_signal(signal.SIGTERM)
        parent.wait(timeout=10)
        assert not _gone(child[0], within_s=1.0)
    finally:
        parent.kill()
        for pid in child:
            os.kill(pid, signal.SIGKILL)
