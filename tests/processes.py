"""What the tests of processes left running read from /proc: a process's children, whether a
process is gone."""

import os
import time
from pathlib import Path


def parent_of(p: Path) -> int | None:
    try:
        return int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError):  # a process of the machine's that ended while the others were read
        return None


def descendants(root: int, depth: int = 5) -> set[int]:
    """The processes started by ``root``, by it or by them (``depth`` generations), as /proc
    names their parents now."""
    found: set[int] = set()
    for _ in range(depth):
        found |= {int(p.name) for p in Path("/proc").iterdir()
                  if p.name.isdigit() and parent_of(p) in found | {root}}
    return found


def gone(pid: int, within_s: float = 10.0) -> bool:
    """Whether ``pid`` has ended, waiting up to ``within_s``."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False
