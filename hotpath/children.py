"""Child processes that end with the process that started them.

A JMH run is a JVM that starts a JVM per fork; a render's zygote and kernels are forks of forks.
Stopped by SIGTERM or SIGKILL, Python runs none of its clean-up, and a child it started would
carry on: a JMH run left behind takes the cores from the next measurement for minutes, on a host
where anything else running shows in the numbers. So each asks Linux for a signal when its
parent ends (``PR_SET_PDEATHSIG``), which is sent when the *thread* that started it ends:
``run`` starts and waits for a child in one thread, and a process that forks its own keeps the
thread that does.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import subprocess
from collections.abc import Callable
from typing import Any

_PR_SET_PDEATHSIG = 1


@functools.lru_cache(maxsize=1)
def _prctl() -> Any:
    return ctypes.CDLL(None, use_errno=True).prctl


def die_with(parent: int, sig: int = signal.SIGTERM) -> None:
    """This process is sent ``sig`` when ``parent`` (its parent now) ends, or ends now if it
    already has."""
    _prctl()(_PR_SET_PDEATHSIG, sig)
    if os.getppid() != parent:
        os._exit(1)


def ending_with_this_process(sig: int = signal.SIGTERM) -> Callable[[], None]:
    """A ``preexec_fn`` for subprocess: the child is sent ``sig`` when this process ends. The
    C library is loaded here, before the fork, so that the child between its fork and its exec
    only makes the one call."""
    _prctl()
    return functools.partial(die_with, os.getpid(), sig)


def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run``, its child sent SIGTERM if this process ends first (a JVM then runs
    its shutdown hooks: JMH's forks end with their host)."""
    return subprocess.run(cmd, preexec_fn=ending_with_this_process(), **kwargs)  # noqa: PLW1509
