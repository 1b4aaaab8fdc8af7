"""A child started by hotpath.children ends with the process that started it, however that ended:
a JMH run left behind by a stopped command would take the cores from the next measurement."""

import os
import signal
import subprocess
import sys
import time

import pytest
from processes import descendants, gone

from hotpath.paths import ROOT


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_a_child_ends_with_the_process_that_started_it(stop):
    parent = subprocess.Popen([sys.executable, "-c", "from hotpath import children\n"
                               "children.run(['sleep', '120'])"], cwd=ROOT)
    try:
        deadline, child = time.monotonic() + 30, []
        while not child and time.monotonic() < deadline:
            child = sorted(descendants(parent.pid, depth=1))
            time.sleep(0.05)
        assert len(child) == 1, "the child never started"
        parent.send_signal(stop)
        parent.wait(timeout=10)
        assert gone(child[0]), f"the child outlived a parent sent {stop.name}"
    finally:
        parent.kill()


def test_a_child_of_a_plain_subprocess_carries_on():
    # the same child started without it: the fault the test above would miss if it were not there
    parent = subprocess.Popen([sys.executable, "-c", "import subprocess; subprocess.run(['sleep', '120'])"])
    try:
        deadline, child = time.monotonic() + 30, []
        while not child and time.monotonic() < deadline:
            child = sorted(descendants(parent.pid, depth=1))
            time.sleep(0.05)
        parent.send_signal(signal.SIGTERM)
        parent.wait(timeout=10)
        assert not gone(child[0], within_s=1.0)
    finally:
        parent.kill()
        for pid in child:
            os.kill(pid, signal.SIGKILL)
