"""A side given as a build: a JMH benchmark jar, or a classpath that holds one's classes.

A JMH uber-jar (what a JMH module's `mvn package` writes) runs as it is; a classpath (benchmark
classes beside their libraries and JMH) runs through `org.openjdk.jmh.Main`. Either way the side
is run as `java -cp <its classpath> org.openjdk.jmh.Main ...`: JMH reads META-INF/BenchmarkList
from the first entry that holds one, and its forks inherit the classpath. For the memory pass
hotpath's profiler goes after the side's own entries (a small jar of its own, so that none of
hotpath's benchmarks or libraries can shadow the side's).

Everything here is checked before anything runs: a path that is missing, a file that is not a
jar, a jar that holds no benchmarks, a classpath whose JMH lists nothing each give one line.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ..errors import HotpathError
from ..paths import JAR, ROOT
from .interleave import declared_params
from .passes import shown as _shown

BENCHMARK_LIST = "META-INF/BenchmarkList"
JMH_MAIN = "org.openjdk.jmh.Main"
#: Where a jar built by Maven says which jmh-core it carries (shaded jars keep it).
JMH_POM = "META-INF/maven/org.openjdk.jmh/jmh-core/pom.properties"
#: What hotpath's profiler needs inside a side's forks: its classes and async-profiler's (with
#: the native library), nothing else of hotpath's jar.
PROFILER_ENTRIES = ("hotpath/profiler/", "one/profiler/", "linux-x64/", "linux-arm64/", "macos/")
PROFILER_JAR = ROOT / "target" / "hotpath-profiler.jar"


class SideError(HotpathError):
    """A side that cannot be measured: the message names it and says why, in one line."""


@dataclass(frozen=True)
class Jar:
    path: Path
    sha256: str


@dataclass(frozen=True)
class Side:
    """One build to measure: its role (baseline or candidate), its name in the report, and what
    runs it."""

    role: str
    name: str
    given: str
    entries: tuple[Path, ...]
    kind: str  # "jar": a JMH benchmark jar; "classpath": entries run with org.openjdk.jmh.Main
    jars: tuple[Jar, ...] = field(default=())
    jmh_version: str = ""

    @property
    def classpath(self) -> str:
        return os.pathsep.join(str(e) for e in self.entries)

    def java(self, java: str = "java", profiler: bool = False, jvm_args: tuple[str, ...] = ()) -> list[str]:
        """The command that starts JMH on this side: with hotpath's profiler after its own
        entries for the memory pass, with ``jvm_args`` where the benchmarks run in this JVM."""
        cp = self.classpath + (os.pathsep + str(profiler_jar()) if profiler else "")
        return [java, *jvm_args, "-cp", cp, JMH_MAIN]

    #: As a pass's launcher (hotpath.measure.passes): the build is the side, no @Param names it.
    label: ClassVar[str | None] = None

    def start(self, jvm: list[str]) -> list[str]:
        """A pass's JMH on this side, hotpath's profilers after its own entries."""
        return self.java(jvm[0], profiler=True, jvm_args=tuple(jvm[1:]))

    def variant(self, name: str) -> list[str]:
        return []

    def record(self) -> dict:
        """What the provenance says of the side: what was given, every jar and its SHA-256."""
        return {"role": self.role, "name": self.name, "given": self.given, "kind": self.kind,
                "entries": [_shown(e) for e in self.entries],
                "jars": [{"path": _shown(j.path), "sha256": j.sha256} for j in self.jars],
                "jmh_version_in_jars": self.jmh_version or None}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _jmh_version(entries: tuple[Path, ...]) -> str:
    """The jmh-core version a classpath carries, as Maven recorded it (first entry wins, as in
    the JVM); '' where no entry says (the JSON's jmhVersion says after the run)."""
    for entry in entries:
        if entry.is_dir():
            pom = entry / JMH_POM
            if pom.is_file():
                return _version_of(pom.read_text(encoding="utf-8", errors="replace"))
            continue
        m = re.fullmatch(r"jmh-core-(\d[\w.-]*)\.jar", entry.name)
        if m:
            return m.group(1)
        try:
            with zipfile.ZipFile(entry) as z:
                if JMH_POM in z.namelist():
                    return _version_of(z.read(JMH_POM).decode("utf-8", errors="replace"))
        except (OSError, zipfile.BadZipFile):
            continue
    return ""


def _version_of(properties: str) -> str:
    m = re.search(r"^version=(.+)$", properties, re.MULTILINE)
    return m.group(1).strip() if m else ""


def _holds_benchmarks(entry: Path) -> bool:
    if entry.is_dir():
        return (entry / BENCHMARK_LIST).is_file()
    with zipfile.ZipFile(entry) as z:
        return BENCHMARK_LIST in z.namelist()


def parse(text: str, role: str, name: str = "") -> Side:
    """A side as the user gave it: one jar, or a classpath (entries joined by ':'). Every
    entry must exist; every file entry must be a jar; one entry must hold JMH's benchmark list."""
    given = str(text).strip()
    if not given:
        raise SideError(f"the {role} is empty: give a JMH benchmark jar or a classpath")
    entries = tuple(Path(e).expanduser() for e in given.split(os.pathsep) if e)
    jars = []
    for entry in entries:
        if not entry.exists():
            raise SideError(f"{role} {entry}: no such file or folder")
        if entry.is_file():
            if not zipfile.is_zipfile(entry):
                raise SideError(f"{role} {entry}: not a jar (it is not a zip archive)")
            jars.append(Jar(entry.resolve(), sha256(entry)))
    if not any(_holds_benchmarks(e) for e in entries):
        what = "this jar holds no" if len(entries) == 1 else "no entry of this classpath holds"
        raise SideError(
            f"{role} {given}: not a JMH benchmark build: {what} {BENCHMARK_LIST} (the list "
            f"JMH's annotation processor writes; a JMH module's `mvn package` puts it in its jar)")
    kind = "jar" if len(entries) == 1 and entries[0].is_file() else "classpath"
    return Side(role=role, name=name or default_name(entries), given=given,
                entries=tuple(e.resolve() for e in entries), kind=kind, jars=tuple(jars),
                jmh_version=_jmh_version(entries))


def default_name(entries: tuple[Path, ...]) -> str:
    """A side's name unless given: its jar's (or first entry's) file name without '.jar'."""
    first = entries[0]
    return first.name.removesuffix(".jar") if first.name else str(first)


def named_apart(baseline: Side, candidate: Side) -> tuple[Side, Side]:
    """Two sides need two names: where the file names agree (two folders' benchmarks.jar), the
    folder tells them apart; where even that agrees (the same build twice), the role does."""
    if baseline.name != candidate.name:
        return baseline, candidate
    from dataclasses import replace

    a, b = baseline.entries[0].parent.name, candidate.entries[0].parent.name
    if a and b and a != b:
        return (replace(baseline, name=f"{a}/{baseline.name}"),
                replace(candidate, name=f"{b}/{candidate.name}"))
    return (replace(baseline, name=f"{baseline.name} (baseline)"),
            replace(candidate, name=f"{candidate.name} (candidate)"))


def listing(side: Side, include: str, java: str = "java") -> dict[str, dict[str, list[str]]]:
    """The side's benchmarks matching ``include`` with their @Params and values (JMH's -lp)."""
    try:
        done = subprocess.run([*side.java(java), "-lp", include], capture_output=True, text=True,
                              timeout=300)
    except subprocess.TimeoutExpired:
        raise SideError(f"{side.role} {side.name}: JMH did not list its benchmarks within 5 minutes") from None
    if done.returncode:
        last = next((l.strip() for l in reversed((done.stderr or done.stdout).splitlines())
                     if l.strip()), f"exit {done.returncode}")
        if f"ClassNotFoundException: {JMH_MAIN}" in done.stderr:
            raise SideError(f"{side.role} {side.name}: JMH is not on its classpath ({JMH_MAIN} not "
                            f"found): add jmh-core and its libraries, or give the benchmark uber-jar")
        raise SideError(f"{side.role} {side.name}: JMH cannot start from it: {last[:200]}")
    return declared_params(done.stdout)


def profiler_jar(source: Path = JAR) -> Path:
    """hotpath's profilers (NativeAllocProfiler with async-profiler, PageFaultProfiler), as a jar
    of their own, taken from the benchmarks jar (and made again when that jar is newer)."""
    target = PROFILER_JAR
    if not source.is_file():
        raise HotpathError(f"{source} is missing: build it with 'make build' (the memory pass's "
                           f"profiler comes from it)")
    if target.is_file() and target.stat().st_mtime >= source.stat().st_mtime:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename.startswith(PROFILER_ENTRIES):
                out.writestr(info, src.read(info.filename))
    os.replace(partial, target)
    return target
