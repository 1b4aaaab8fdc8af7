"""What a finished run gets added, each in forks of its own: its allocation sites (the memory
pass again, with async-profiler recording every allocation), its CPU samples (make cpu) and
its allocation flame graphs (make profile)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from . import cpu, passes, sites
from .. import runs
from ..cases import Case
from ..errors import HotpathError
from ..jmh import RowKey, read_json
from ..offline import external_references as _external
from ..paths import JAR, ROOT, reports_folder
from .jar import benchmark_listing, run_jmh
from .memory import shown_command, sites_staging
from .passes import shown as _shown
from .profiles import Profile


def async_profiler_library(jar: Path = JAR) -> Path:
    """libasyncProfiler.so for this machine, taken from the async-profiler jar inside ours."""
    import platform as _platform
    import zipfile

    arch = {"x86_64": "linux-x64", "amd64": "linux-x64", "aarch64": "linux-arm64"}.get(
        _platform.machine().lower())
    if not arch or not sys.platform.startswith("linux"):
        raise HotpathError(f"no bundled async-profiler for {sys.platform}/{_platform.machine()}")
    target = ROOT / "target" / "async-profiler" / arch / "libasyncProfiler.so"
    if not target.is_file() or target.stat().st_mtime < jar.stat().st_mtime:
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(jar) as z:
            target.write_bytes(z.read(f"{arch}/libasyncProfiler.so"))
    return target


def flame_graphs(case: Case, profile: Profile, jar: Path = JAR) -> Path:
    """Allocation flame graphs per benchmark and variant, one fork, apart from timing runs.

    JMH's async-profiler integration writes <dir>/<benchmark-id>/flame-alloc-*.html; every fork
    would overwrite the same files, hence one fork.
    """
    if not jar.is_file():
        raise HotpathError(f"{jar} is missing: build it with 'make build' (mvn package)")
    out = reports_folder(profile.name) / case.id / "flames"
    staging = out.with_name(".flames.partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    lib = async_profiler_library(jar)
    cmd = ["java", "-jar", _shown(jar), case.benchmarks, "-f", "1",
           "-wi", str(profile.warmup_iterations), "-w", profile.warmup_time,
           "-i", str(profile.measurement_iterations), "-r", profile.measurement_time,
           "-jvmArgsAppend", " ".join(profile.jvm_args), "-foe", "true",
           "-prof", f"async:libPath={lib};event=alloc;output=flamegraph;dir={staging}"]
    try:
        if subprocess.run(cmd, cwd=ROOT).returncode:
            raise HotpathError(f"profiling run failed for case {case.id}; {out} was left as it was")
        pages = sorted(staging.rglob("*.html"))
        if not pages:
            raise HotpathError(f"async-profiler wrote no flame graph for case {case.id}")
        for page in pages:
            found = _external(page.read_text(encoding="utf-8", errors="replace"))
            if found:
                raise HotpathError(f"{page.name} would fetch from the network: {found[0][:80]}")
        (staging / "README.md").write_text(
            "Allocation flame graphs (async-profiler `alloc` event, one fork) made by\n\n"
            f"    {shlex.join(cmd).replace(str(staging), str(out.relative_to(ROOT)))}\n", encoding="utf-8")
        shutil.rmtree(out, ignore_errors=True)
        os.replace(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out


def _finished(case: Case, results: Path, jar: Path, kind: str
              ) -> tuple[runs.Run, list[RowKey], dict[str, dict[str, list[str]]], Path]:
    """What a pass added to a finished run starts from: the run, the row-sides it measured, the
    jar's benchmarks and params, and the file of ``kind`` it writes beside the results."""
    if not jar.is_file():
        raise HotpathError(f"{jar} is missing: build it with 'make build' (mvn package)")
    finished = runs.load(*runs.of_results(results))
    sides = list(dict.fromkeys(RowKey.of_entry(e) for e in finished.entries()))
    return finished, sides, benchmark_listing(case, jar), finished.path(finished.layout.file(kind))


def add_sites(case: Case, profile: Profile, results: Path, jar: Path = JAR,
              java: str = "java") -> Path:
    """The allocation-site pass alone, for the row-sides a finished run measured (the committed
    reference, or a run from before the pass): the memory pass's forks with the site profiler
    only, whose one short measured iteration is thrown away. Writes ``<case>.sites.json``
    beside ``results``; the run's own files stay as they were."""
    finished, sides, declared, target = _finished(case, results, jar, "sites")
    partial = target.with_name(target.name + ".partial")
    staging = sites_staging(partial)
    shutil.rmtree(staging, ignore_errors=True)
    scratch = partial.with_name(partial.name + ".jmh.json")
    log = ROOT / "target" / "jmh-logs" / f"sites-{case.id}-{profile.name}.log"
    log.unlink(missing_ok=True)
    forks = max(profile.memory_forks, 1)  # a fork each: the reference's memory pass forks too
    print(f"hotpath: {case.id}: allocation sites of {len(sides)} row-sides of {_shown(results)}",
          flush=True)
    try:
        commands = passes.run(passes.CaseJar(jar), sides, declared,
                              profile.java(forks, java, sites.JVM_ARGS),
                              profile.sites_args(java, staging, forks), lambda i: scratch,
                              lambda cmd: run_jmh(cmd, case, target, log=log))
        shown = [shown_command(cmd[:-2] + ["-rff", "/dev/null"], Path("/dev/null"), staging)
                 for cmd in commands]
        document = sites.collect(staging, "; ".join(shown))
        runs.add(results.parent, finished.layout, "sites", runs.sites_text(document).encode())
        log.unlink(missing_ok=True)  # kept where a run failed: its error names it
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        scratch.unlink(missing_ok=True)
        partial.unlink(missing_ok=True)
    return target


#: A CPU pass of its own (``add_cpu``): forks per row-side, and each one's iterations of the
#: profile's recorded length from its start (3 s at 100 ms), whose steady segment is counted.
CPU_PASS_FORKS = 3
CPU_PASS_ITERATIONS = 30


def add_cpu(case: Case, profile: Profile, results: Path, jar: Path = JAR,
            java: str = "java") -> Path:
    """CPU samples for the row-sides a finished run measured (the committed reference, or a run
    whose timed forks took none): forks of their own with the timed forks' JVM flags and
    counters and the sampler, recorded from their start as the timed forks are; each fork's
    figure is its own. Writes ``<case>.cpu.json`` beside ``results``; the run's own files stay
    as they were."""
    finished, sides, declared, target = _finished(case, results, jar, "cpu")
    staging = target.with_name(target.name + ".partial.d")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    log = ROOT / "target" / "jmh-logs" / f"cpu-{case.id}-{profile.name}.log"
    log.unlink(missing_ok=True)
    interval = profile.cpu_interval_ns or cpu.INTERVAL_NS
    print(f"hotpath: {case.id}: CPU samples of {len(sides)} row-sides of {_shown(results)}, "
          f"{CPU_PASS_FORKS} forks each", flush=True)
    try:
        commands = passes.run(passes.CaseJar(jar), sides, declared, profile.java(CPU_PASS_FORKS, java),
                              profile.cpu_args(java, staging / "cpu", CPU_PASS_FORKS,
                                               CPU_PASS_ITERATIONS, interval),
                              lambda i: staging / f"jmh-{i}.json",
                              lambda cmd: run_jmh(cmd, case, target, log=log))
        entries = [e for i in range(len(commands)) for e in read_json(staging / f"jmh-{i}.json")]
        shown = [shlex.join(cmd[:-2]).replace(str(staging / "cpu"), "cpu") for cmd in commands]
        document = cpu.collect(staging / "cpu", entries, "; ".join(shown), where=cpu.OWN_FORKS)
        runs.add(results.parent, finished.layout, "cpu", runs.sites_text(document).encode())
        log.unlink(missing_ok=True)  # kept where a run failed: its error names it
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target
