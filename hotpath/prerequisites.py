"""What the machine must have before `make report` or `make test` start: each missing piece said
in one line (what is needed, what was found, how to get it), and what only weakens a run said as
a warning.

The Makefile runs this file by its path, with the interpreter that is to make .venv (PYTHON=),
or .venv's own once it is made: before .venv exists it cannot import the hotpath package (whose
__init__ needs pandas), so it uses the standard library only, and Python 3.7's syntax, so that an
old interpreter is told that it is old instead of failing on this file.

Every check is fast (no network, one `java -version` at most): the whole takes well under a
second, and a machine with what README.md's "Prerequisites" lists passes without a line.
"""

from __future__ import annotations

import argparse
import errno
import os
import platform
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Callable, List, Mapping, NamedTuple, Optional, Tuple

ROOT = Path(os.environ.get("HOTPATH_ROOT") or Path(__file__).resolve().parents[1])

JAVA = 17
PYTHON = (3, 11)
MAKE = (4, 0)
#: What set-up takes on disk, measured on the study's machine (2026-11-28, `du -sh`): .venv
#: 843 MB, ~/.m2/repository 47 MB after the build and JUnit; rounded up.
VENV_BYTES = 900 * 2**20
M2_BYTES = 100 * 2**20
#: Room for what the runs write (target/, data/results/, reports/): a margin chosen, not measured.
RUNS_BYTES = 500 * 2**20
#: Where make test's browser tests look for Chromium (the Makefile's CHROMIUM).
CHROMIUM = Path("/usr/bin/chromium")
PARANOID = Path("/proc/sys/kernel/perf_event_paranoid")
KALLSYMS = Path("/proc/kallsyms")
#: perf_event_open's number where async-profiler's bundled library runs (linux-x64, linux-arm64).
PERF_EVENT_OPEN = {"x86_64": 298, "amd64": 298, "aarch64": 241, "arm64": 241}

#: What each make goal needs: render (make report PROFILE=reference: nothing is built), report
#: (build and benchmarks), test (and the browser tests' Chromium).
GOALS = ("render", "report", "test")


class Finding(NamedTuple):
    #: "error" (the command cannot work: it does not start) or "warning" (it runs, weakened)
    level: str
    text: str

    def line(self) -> str:
        return f"hotpath: {'warning: ' if self.level == 'warning' else ''}{self.text}"


def _error(text: str) -> List[Finding]:
    return [Finding("error", text)]


def _warning(text: str) -> List[Finding]:
    return [Finding("warning", text)]


# -- the operating system -------------------------------------------------------------------------

def check_os(system: Optional[str] = None) -> List[Finding]:
    system = system or platform.system()
    if system != "Linux":
        return _error(f"needs Linux (found {system}): the runs read /proc, and async-profiler's "
                      f"library in the benchmarks jar is built for Linux only; use a Linux machine or VM")
    return []


# -- Python ---------------------------------------------------------------------------------------

def check_python(version: Tuple[int, ...] = tuple(sys.version_info[:3]),
                 executable: str = sys.executable, venv_made: bool = False,
                 can_make_venv: Optional[bool] = None) -> List[Finding]:
    """The interpreter this runs on: the one that makes .venv (or .venv's own, once made)."""
    shown = ".".join(str(v) for v in version)
    if tuple(version[:2]) < PYTHON:
        return _error(f"needs Python {PYTHON[0]}.{PYTHON[1]} or newer to make .venv (found {shown} "
                      f"at {executable}): install it and name it, e.g. make report PYTHON=python3.11")
    found: List[Finding] = []
    if not venv_made:
        if can_make_venv is None:
            can_make_venv = _has_module("venv") and _has_module("ensurepip")
        if not can_make_venv:
            return _error(f"{executable} ({shown}) cannot make a virtual environment (no venv or "
                          f"ensurepip module): Debian/Ubuntu: apt-get install python{version[0]}."
                          f"{version[1]}-venv")
    if tuple(version[:2]) > PYTHON and not venv_made:
        found += _warning(f"requirements.lock is resolved for CPython {PYTHON[0]}.{PYTHON[1]}; "
                          f"{shown} ({executable}) is untried: if set-up fails, make report "
                          f"PYTHON=python{PYTHON[0]}.{PYTHON[1]}")
    return found


def _has_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


# -- Java and Maven -------------------------------------------------------------------------------

def java_major(text: str) -> Optional[int]:
    """A JDK's major version from `java -version`'s output or a release file's JAVA_VERSION:
    '17.0.15' -> 17, '1.8.0_402' -> 8, '25' -> 25."""
    m = re.search(r'(?:version|JAVA_VERSION=)\s*"(\d+)(?:\.(\d+))?', text)
    if not m:
        return None
    major = int(m.group(1))
    return int(m.group(2) or 0) if major == 1 else major


def _release_major(home: Path) -> Optional[int]:
    try:
        return java_major((home / "release").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None


def version_of_java(java: str) -> Optional[int]:
    """The major version of a `java`: its JDK's release file where there is one (no process
    started), else what `java -version` says."""
    real = Path(os.path.realpath(java))
    major = _release_major(real.parent.parent)
    if major is not None:
        return major
    try:
        done = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return java_major(done.stderr + done.stdout)


def check_java(path: Optional[str] = None, java_home: Optional[str] = None,
               needs_compiler: bool = True) -> List[Finding]:
    """The `java` first on PATH runs JMH and every fork (nothing else picks a JVM, but the
    matrix's cells); Maven compiles with $JAVA_HOME's JDK where it is set, else with that java's."""
    java = shutil.which("java", path=path)
    if java is None:
        return _error(f"needs Java {JAVA} or newer on PATH (found none): install a JDK {JAVA}+ "
                      f"(Debian: openjdk-{JAVA}-jdk-headless) and put its bin/ on PATH")
    major = version_of_java(java)
    if major is None or major < JAVA:
        found = "a version it does not say" if major is None else str(major)
        return _error(f"needs Java {JAVA} or newer on PATH (found {found} at {java}): put a JDK "
                      f"{JAVA}+'s bin/ first on PATH, or set JAVA_HOME and PATH=$JAVA_HOME/bin:$PATH")
    if not needs_compiler:
        return []
    if java_home:
        home = Path(java_home)
        if not (home / "bin" / "javac").is_file():
            return _error(f"JAVA_HOME={java_home} holds no JDK (no bin/javac), and Maven compiles "
                          f"with it: point it at a JDK {JAVA}+ or unset it")
        major = _release_major(home) or version_of_java(str(home / "bin" / "java"))
        if major is not None and major < JAVA:
            return _error(f"JAVA_HOME={java_home} is Java {major}, and Maven compiles with it: "
                          f"point it at a JDK {JAVA}+ or unset it")
        return []
    if not (Path(os.path.realpath(java)).parent / "javac").is_file():
        return _error(f"needs a JDK, not a JRE: no javac beside {os.path.realpath(java)}, and "
                      f"Maven compiles with it (Debian: openjdk-{JAVA}-jdk-headless)")
    return []


def check_maven(path: Optional[str] = None) -> List[Finding]:
    if shutil.which("mvn", path=path) is None:
        return _error("needs Maven (mvn) on PATH to build target/benchmarks.jar (found none): "
                      "Debian/Ubuntu: apt-get install maven")
    return []


# -- make -----------------------------------------------------------------------------------------

def check_make(version: str) -> List[Finding]:
    """GNU make's version as the Makefile sees it ($(MAKE_VERSION)); make test's two lanes need
    --output-sync (4.0). Nothing said where the version is not known."""
    m = re.match(r"(\d+)\.(\d+)", version or "")
    if m and (int(m.group(1)), int(m.group(2))) < MAKE:
        return _error(f"needs GNU make {MAKE[0]}.{MAKE[1]} or newer (found {version}): "
                      f"Debian/Ubuntu: apt-get install make")
    return []


# -- disk -----------------------------------------------------------------------------------------

def check_disk(free: Optional[int] = None, venv_made: bool = False, m2_filled: bool = True,
               root: Path = ROOT) -> List[Finding]:
    """Room for what set-up still has to download and for the runs' files."""
    need = RUNS_BYTES + (0 if venv_made else VENV_BYTES) + (0 if m2_filled else M2_BYTES)
    if free is None:
        free = shutil.disk_usage(root).free
    if free < need:
        parts = ([] if venv_made else [".venv"]) + ([] if m2_filled else ["~/.m2"]) + ["the runs"]
        return _error(f"needs about {_gb(need)} free on {root} for {', '.join(parts)} (found "
                      f"{_gb(free)} free): free some space")
    return []


def _gb(n: int) -> str:
    return f"{n / 2**30:.1f} GB"


def m2_filled(home: Optional[str] = None) -> bool:
    """Whether Maven's repository already holds what the build takes (JMH's core is one of it)."""
    repo = Path(home or os.path.expanduser("~")) / ".m2" / "repository" / "org" / "openjdk" / "jmh"
    return repo.is_dir()


# -- perf events ----------------------------------------------------------------------------------

def open_perf_event(exclude_kernel: bool) -> int:
    """perf_event_open on this thread, a software CPU clock, disabled (it never counts): 0 where
    the kernel allows it, else the errno. async-profiler's `cpu` engine opens one such event per
    thread, the kernel's frames included unless excluded."""
    import ctypes

    number = PERF_EVENT_OPEN.get(platform.machine().lower())
    if number is None:
        return errno.ENOSYS
    # struct perf_event_attr, its first (64-byte) version: type, size, config, sample_period,
    # sample_type, read_format, then the flag bits (disabled: 1 << 0, exclude_kernel: 1 << 5,
    # exclude_hv: 1 << 6).
    attr = ctypes.create_string_buffer(64)
    struct.pack_into("IIQQQQQ", attr, 0, 1, 64, 0, 10_000_000, 0, 0,
                     1 | ((1 << 5) if exclude_kernel else 0) | (1 << 6))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    fd = libc.syscall(ctypes.c_long(number), attr, ctypes.c_int(0), ctypes.c_int(-1),
                      ctypes.c_int(-1), ctypes.c_ulong(0))
    if fd < 0:
        return ctypes.get_errno() or errno.EPERM
    os.close(fd)
    return 0


def _read(path: Path) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.readline().strip()
    except OSError:
        return ""


def check_perf(open_event: Callable[[bool], int] = open_perf_event,
               read: Callable[[Path], str] = _read) -> List[Finding]:
    """The CPU sampler (hotpath.profiler.CpuProfiler) runs async-profiler's `cpu` engine, perf
    events with the kernel's frames, and falls back to `itimer` where perf events are refused:
    the run goes on, its samples without kernel frames (the page faults and page zeroing a copy
    causes). async-profiler takes the kernel's frames only where /proc/kallsyms shows
    addresses. Root passes perf_event_paranoid; a container's seccomp may refuse perf events to
    root too. Never an error."""
    paranoid = read(PARANOID) or "?"
    lose = "CPU samples will have no kernel frames (page faults, page zeroing)"
    if open_event(False) == 0:
        address = read(KALLSYMS).split(" ")[0]
        if address and set(address) == {"0"}:
            return _warning(f"kernel symbols are hidden (/proc/sys/kernel/kptr_restrict): {lose}; "
                            f"sysctl kernel.kptr_restrict=0 shows them")
        return []
    if open_event(True) == 0:
        return _warning(f"perf events leave out the kernel here (perf_event_paranoid={paranoid}, "
                        f"not root): {lose}; sysctl kernel.perf_event_paranoid=1 keeps them")
    why = os.strerror(open_event(True))
    return _warning(f"perf events are refused here ({why}; perf_event_paranoid={paranoid}, or a "
                    f"container's seccomp): the CPU sampler falls back to itimer and {lose}; "
                    f"sysctl kernel.perf_event_paranoid=1, or run the container with perf events allowed")


# -- Chromium, for make test ----------------------------------------------------------------------

def check_chromium(path: Optional[str] = None, chromium: Path = CHROMIUM,
                   uid: Optional[int] = None) -> List[Finding]:
    """make test installs Debian's chromium with apt-get (as root, or through sudo) where it is
    missing."""
    if chromium.is_file():
        return []
    uid = os.geteuid() if uid is None else uid
    if shutil.which("apt-get", path=path) is None:
        return _error(f"make test needs Chromium at {chromium} for its browser tests (found none, "
                      f"and no apt-get to install Debian's): install chromium so that {chromium} runs it")
    if uid != 0 and shutil.which("sudo", path=path) is None:
        return _error(f"make test needs Chromium at {chromium} for its browser tests (found none): "
                      f"apt-get install chromium as root, or get sudo, which make test would use")
    if uid != 0:
        return _warning("make test will install Debian's chromium with sudo apt-get (sudo may ask "
                        "for a password)")
    return []


# -- all of it ------------------------------------------------------------------------------------

def check(goal: str = "report", make_version: str = "", env: Optional[Mapping[str, str]] = None,
          root: Path = ROOT) -> List[Finding]:
    """Everything ``goal`` needs, in the order a fresh machine meets it; errors first."""
    env = os.environ if env is None else env
    path = env.get("PATH", os.defpath)
    venv_made = (root / ".venv" / ".installed").is_file()
    found = check_os() + check_make(make_version) + check_python(venv_made=venv_made)
    found += check_java(path, env.get("JAVA_HOME") or None, needs_compiler=goal != "render")
    if goal != "render":
        found += check_maven(path)
    found += check_disk(venv_made=venv_made, m2_filled=goal == "render" or m2_filled(env.get("HOME")),
                        root=root)
    if goal != "render":
        found += check_perf()
    if goal == "test":
        found += check_chromium(path)
    return sorted(found, key=lambda f: f.level != "error")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="prerequisites.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--for", dest="goal", choices=GOALS, default="report",
                        help="what is about to run (default: report)")
    parser.add_argument("--make-version", default="", help="GNU make's version ($(MAKE_VERSION))")
    args = parser.parse_args(argv)
    found = check(args.goal, args.make_version)
    for f in found:
        print(f.line(), file=sys.stderr)
    return 2 if any(f.level == "error" for f in found) else 0


if __name__ == "__main__":
    sys.exit(main())
