"""The runtime a benchmark's forks run on: which JDK and which collector.

A cell of the JDK x GC matrix is one (JDK, collector) pair, optionally under GC pressure. The
profiles' JVM arguments name G1; a cell swaps the collector flag (and, under pressure, the heap
flags) and points JMH at the cell's `java` with its own ``-jvm``. Nothing is downloaded: a JDK is
found where Debian and Adoptium's packages put it, or where the user says.

Shared by the stages: measure runs a cell's forks, analyze reads back the cell a row ran on
(``runtime_of``, from the JVM arguments a cell gives), render names the cells.
"""

from __future__ import annotations

import glob
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import HotpathError, UnknownNameError

#: Collector name -> the flag that selects it. ZGC is single-generation on 17 and
#: generational on 25 (the only ZGC left since JDK 24).
COLLECTORS = {"g1": "-XX:+UseG1GC", "parallel": "-XX:+UseParallelGC", "zgc": "-XX:+UseZGC"}
_ALL_GC_FLAGS = {*COLLECTORS.values(), "-XX:+UseSerialGC", "-XX:+UseShenandoahGC",
                 "-XX:+UseEpsilonGC"}
_GC_NAMES = {flag: name for name, flag in COLLECTORS.items()} | {
    "-XX:+UseSerialGC": "serial", "-XX:+UseShenandoahGC": "shenandoah", "-XX:+UseEpsilonGC": "epsilon"}

#: GC pressure: a heap small enough that young collections come every few milliseconds, and a
#: direct-memory limit small enough that direct buffers left to the Cleaner make allocateDirect
#: wait for a collection (Bits.reserveMemory calls System.gc when the limit is reached). The
#: write-ups' GC-time figures describe that work; a 1 GB heap never creates it.
PRESSURE_ARGS = ("-Xms64m", "-Xmx64m", "-XX:MaxDirectMemorySize=16m")
_HEAP_FLAG = re.compile(r"-Xm[sx]\S+|-XX:MaxDirectMemorySize=\S+")

#: Where each JDK the study uses is looked for, after HOTPATH_JDK_<n> and JAVA_HOME: Debian's
#: openjdk-<n>-jdk and Adoptium's temurin-<n>-jdk packages.
JDK_GLOBS = ("/usr/lib/jvm/java-{n}-openjdk-*", "/usr/lib/jvm/temurin-{n}-jdk-*",
             "/usr/lib/jvm/temurin-{n}-*", "/usr/lib/jvm/jdk-{n}*", "/opt/java/jdk-{n}*")
KNOWN_JDKS = ("17", "25")


class MissingRuntimeError(HotpathError):
    """A cell's JDK is not installed (or not where the user pointed)."""


@dataclass(frozen=True)
class Cell:
    jdk: str
    gc: str
    pressure: bool = False

    def __post_init__(self):
        if self.jdk not in KNOWN_JDKS:
            raise UnknownNameError(f"unknown JDK {self.jdk!r}; known: {', '.join(KNOWN_JDKS)}")
        if self.gc not in COLLECTORS:
            raise UnknownNameError(f"unknown collector {self.gc!r}; known: {', '.join(COLLECTORS)}")

    @property
    def id(self) -> str:
        return f"jdk{self.jdk}-{self.gc}" + ("-pressure" if self.pressure else "")

    @classmethod
    def parse(cls, text: str) -> "Cell":
        """'jdk25-zgc', 'jdk17-g1-pressure'."""
        m = re.fullmatch(r"jdk(\d+)-([a-z0-9]+)(-pressure)?", text.strip())
        if not m:
            raise UnknownNameError(
                f"unknown runtime cell {text!r}: write jdk<version>-<collector>[-pressure], "
                f"e.g. {', '.join(c.id for c in MATRIX[:2])}, {PRESSURE.id}")
        return cls(m.group(1), m.group(2), bool(m.group(3)))

    def jvm_args(self, base: tuple[str, ...]) -> tuple[str, ...]:
        """The profile's JVM arguments with this cell's collector (and heap, under pressure)."""
        kept = [a for a in base if a not in _ALL_GC_FLAGS
                and not (self.pressure and _HEAP_FLAG.fullmatch(a))]
        return (*(PRESSURE_ARGS if self.pressure else ()), *kept, COLLECTORS[self.gc])

    def describe(self) -> str:
        gc = {"g1": "G1", "parallel": "Parallel",
              "zgc": "ZGC (generational)" if int(self.jdk) >= 24 else "ZGC (single-generation)"}[self.gc]
        return f"JDK {self.jdk}, {gc}" + (
            f", under GC pressure ({' '.join(PRESSURE_ARGS)})" if self.pressure else "")


#: The study's main configuration: what the reference run and every profile use.
MAIN = Cell("17", "g1")
#: The matrix: both JDKs x three collectors; MAIN is its first cell.
MATRIX = tuple(Cell(j, g) for j in KNOWN_JDKS for g in COLLECTORS)
#: Where the write-ups' GC-time claims become comparable.
PRESSURE = Cell("17", "g1", pressure=True)


def parse_cells(text: str) -> list[Cell]:
    """A comma list of cell ids; 'all' or empty is the matrix, 'pressure' the pressure cell."""
    if text.strip() in ("", "all"):
        return list(MATRIX)
    return [PRESSURE if t.strip() == "pressure" else Cell.parse(t) for t in text.split(",") if t.strip()]


def _release_version(home: Path) -> str:
    """JAVA_VERSION from a JDK's release file: '17.0.15', '25.0.3'."""
    try:
        m = re.search(r'^JAVA_VERSION="([^"]+)"', (home / "release").read_text(), re.MULTILINE)
    except OSError:
        return ""
    return m.group(1) if m else ""


def _major(version: str) -> str:
    return version.split(".")[0] if version else ""


def find_jdk(major: str) -> tuple[Path | None, list[str]]:
    """The home of a JDK of this major version, and every place looked (for the message)."""
    looked: list[str] = []
    env = f"HOTPATH_JDK_{major}"
    candidates: list[tuple[str, str]] = []
    if os.environ.get(env):
        candidates.append((f"${env}", os.environ[env]))
    if os.environ.get("JAVA_HOME"):
        candidates.append(("$JAVA_HOME", os.environ["JAVA_HOME"]))
    for pattern in JDK_GLOBS:
        for home in sorted(glob.glob(pattern.format(n=major))):
            candidates.append((pattern.format(n=major), home))
        looked.append(pattern.format(n=major))
    for label, home in candidates:
        path = Path(home)
        if (path / "bin" / "java").is_file() and _major(_release_version(path)) == major:
            return path, looked
        if label.startswith("$"):
            looked.insert(0, f"{label}={home}")
    return None, looked


def java_of(cell: Cell) -> Path:
    """The `java` a cell's forks run on; a clear error naming the JDK and how to point at one."""
    home, looked = find_jdk(cell.jdk)
    if home is None:
        raise MissingRuntimeError(
            f"JDK {cell.jdk} (for cell {cell.id}) is not installed here: looked in "
            f"{', '.join(looked)}. Install it (Debian: openjdk-{cell.jdk}-jdk-headless, or "
            f"Adoptium's temurin-{cell.jdk}-jdk) or point at one with HOTPATH_JDK_{cell.jdk}=/path/to/jdk")
    return home / "bin" / "java"


def available(cells: list[Cell]) -> tuple[list[Cell], dict[str, str]]:
    """The cells whose JDK is found, and why each other one is skipped."""
    found, skipped = [], {}
    for cell in cells:
        try:
            java_of(cell)
            found.append(cell)
        except MissingRuntimeError as e:
            skipped[cell.id] = str(e)
    return found, skipped


def runtime_of(jdk_version: str, jvm_args: str) -> str:
    """A row's runtime as JMH recorded it (jdkVersion, jvmArgs): 'jdk17-g1', 'jdk25-zgc'.

    The last collector flag wins, as in the JVM; none means the JVM's own choice."""
    flags = [a for a in str(jvm_args).split() if a in _GC_NAMES]
    gc = _GC_NAMES[flags[-1]] if flags else "default-gc"
    major = _major(str(jdk_version)) or "?"
    pressure = "-pressure" if all(a in str(jvm_args).split() for a in PRESSURE_ARGS) else ""
    return f"jdk{major}-{gc}{pressure}"
