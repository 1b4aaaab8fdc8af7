"""The software that drew a report, read when it is rendered.

The benchmark side (JDK, JMH, the commit that was measured) is in the results file and its
provenance sidecar; the Python side that turned them into tables and charts is the render's
own, so it is read here, from the running interpreter and the installed distributions
(requirements.lock pins them), never from the sidecar.
"""

from __future__ import annotations

import importlib.metadata
import platform
import subprocess

from ..paths import ROOT

#: The distributions whose versions a report lists: the ones that compute, draw and render it.
PACKAGES = ("numpy", "pandas", "matplotlib", "scipy", "papermill", "nbconvert", "jjava")
#: Measured inputs, named by the report's own rows: changing them does not change the code.
_INPUTS = (":!data/results", ":!data/reference", ":!data/matrix")


def python() -> str:
    return f"{platform.python_version()} ({platform.python_implementation()})"


def packages() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def hotpath() -> str:
    """hotpath's commit, and whether the tree differs from it (results aside)."""
    commit = _git("rev-parse", "HEAD")
    if not commit:
        return f"hotpath {importlib.metadata.version('hotpath')} (not a git checkout)"
    dirty = _git("status", "--porcelain", "--", ".", *_INPUTS)
    return f"hotpath {commit}" + (" (uncommitted changes)" if dirty else "")


def describe() -> str:
    """One line: 'Python 3.11.7 (CPython); numpy 2.4.6, …; hotpath <commit>'."""
    listed = ", ".join(f"{name} {v}" for name, v in packages().items())
    return f"Python {python()}; {listed}; {hotpath()}"
