"""The benchmarks jar and the JDK that runs it: what the jar lists (JMH's -lp, once per jar as it
is), how a JMH run is started and fails, and the environment a run records (machine, OS, JDK,
source revision)."""

from __future__ import annotations

import functools
import os
import platform
import re
import shlex
import subprocess
import sys
from pathlib import Path

from . import forkplan, interleave, rounds
from .. import children
from ..cases import Case
from ..errors import HotpathError
from ..paths import JAR, ROOT
from .passes import shown as _shown


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


@functools.lru_cache(maxsize=8)
def _java_properties(java: str) -> dict[str, str]:
    out = subprocess.run([java, "-XshowSettings:properties", "-version"], capture_output=True,
                         text=True).stderr
    props = {}
    for key in ("java.version", "java.vm.name", "java.vm.version", "java.vendor",
                "java.runtime.version"):
        m = re.search(rf"^\s*{re.escape(key)} = (.*)$", out, re.MULTILINE)
        if m:
            props[key] = m.group(1).strip()
    return props


def environment(java: str = "java") -> dict:
    """What the JMH JSON does not record: machine, OS, JDK, source revision."""
    commit = _git("rev-parse", "HEAD")
    # Results a run writes are not source changes: only the rest makes a tree dirty.
    outside_results = ("--", ".", ":!data/reference", ":!data/results", ":!data/matrix")
    changed = (_git("diff", "--name-only", "HEAD", *outside_results).splitlines()
               + _git("ls-files", "--others", "--exclude-standard", *outside_results).splitlines())
    return {
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
        if hasattr(os, "sysconf") else None,
        "os": platform.platform(),
        "jdk": _java_properties(java),
        "git_commit": commit or "unknown",
        "git_dirty": bool(changed) if commit else None,
        "git_dirty_paths": changed[:20],
    }


def _declared(jar: Path) -> dict[str, dict[str, list[str]]]:
    """Every benchmark of the jar with its @Params (JMH's -lp), listed once per jar as it is:
    a run of five cases asked JMH ten times, a JVM's start each."""
    stat = jar.stat() if jar.is_file() else None
    return _listing(str(jar), (stat.st_mtime_ns, stat.st_size) if stat else None)


@functools.lru_cache(maxsize=4)
def _listing(jar: str, version: tuple[int, int] | None) -> dict[str, dict[str, list[str]]]:
    out = subprocess.run(["java", "-jar", jar, "-lp"], capture_output=True, text=True)
    if out.returncode:
        raise HotpathError(f"cannot list benchmarks in {jar}: {out.stderr.strip()[:200]}")
    return interleave.declared_params(out.stdout)


def _included(include: str, jar: Path) -> dict[str, dict[str, list[str]]]:
    """The benchmarks JMH would run for an include regex (it finds the regex in the name)."""
    pattern = re.compile(include)
    return {name: params for name, params in _declared(jar).items() if pattern.search(name)}


def listed_benchmarks(include: str, jar: Path = JAR) -> list[str]:
    """The benchmarks JMH would run for an include regex (`-l`)."""
    return list(_included(include, jar))


def run_jmh(cmd: list[str], case: Case | forkplan.Subject, out: Path, log: Path | None = None) -> None:
    """Run JMH; with a ``log``, its console output goes there (a sequential run makes many
    short runs, and says itself what each round does)."""
    if log is None:
        rc = children.run(cmd, cwd=ROOT).returncode
    else:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as f:
            f.write(f"$ {shlex.join(cmd)}\n")
            f.flush()
            rc = children.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT).returncode
        if rc != 0:
            tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]
            print("\n".join(tail), file=sys.stderr)
    if rc != 0:
        # JMH's own line went by above; the one line that ends the run says it too
        locked = (rounds.LOCKED in log.read_text(encoding="utf-8", errors="replace")
                  if log is not None else rounds.lock_held())
        why = f": {rounds.no_result(rounds.LOCKED)}" if locked else ""
        raise HotpathError(f"JMH failed for case {case.id} (exit {rc}){why}; {out} was left as it was"
                           + (f"; its output is in {_shown(log)}" if log else ""))


def benchmark_listing(case: Case, jar: Path) -> dict[str, dict[str, list[str]]]:
    """Each of the case's benchmarks with its @Params and values (JMH's -lp)."""
    return {name: {p: list(v) for p, v in params.items()}
            for name, params in _included(case.benchmarks, jar).items()}
