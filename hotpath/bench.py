"""Run a case's JMH matrix to JSON under data/results/<profile>/, with a provenance sidecar.

A run writes beside the final file and renames on success only: a run that fails, is
interrupted or misses a benchmark leaves the previous result as it was.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from . import interleave, machine, runtimes
from .cases import Case
from .errors import HotpathError
from .load import read_json
from .paths import JAR, REPORTS, ROOT, memory_of, peaks_of, results_file, sidecar_of
from .profiles import Profile
from .runtimes import Cell
from .offline import external_references as _external


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


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
        "cpu_model": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
        if hasattr(os, "sysconf") else None,
        "os": platform.platform(),
        "jdk": _java_properties(java),
        "git_commit": commit or "unknown",
        "git_dirty": bool(changed) if commit else None,
        "git_dirty_paths": changed[:20],
    }


def listed_benchmarks(include: str, jar: Path = JAR) -> list[str]:
    """The benchmarks JMH would run for an include regex (`-l`)."""
    out = subprocess.run(["java", "-jar", str(jar), "-l", include], capture_output=True,
                         text=True)
    if out.returncode:
        raise HotpathError(f"cannot list benchmarks in {jar}: {out.stderr.strip()[:200]}")
    lines = out.stdout.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("Benchmarks:")), len(lines))
    return [l.strip() for l in lines[start + 1:] if l.strip()]


def _shown(path: Path) -> str:
    """Paths in recorded commands are relative to the project root, as a user types them."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _jmh(cmd: list[str], case: Case, out: Path) -> None:
    rc = subprocess.run(cmd, cwd=ROOT).returncode
    if rc != 0:
        raise HotpathError(f"JMH failed for case {case.id} (exit {rc}); {out} was left as it was")


def run_interleaved(case: Case, profile: Profile, jar: Path, out: Path, merged: Path,
                    extra_args: list[str], java: str = "java") -> list[str]:
    """One fork per variant per round, alternating; the rounds merged into ``merged``.

    Returns the round commands. Round files are kept under rounds/<case>/ beside ``out``.
    """
    listing = subprocess.run(["java", "-jar", str(jar), "-lp", case.benchmarks],
                             capture_output=True, text=True).stdout
    declared = interleave.variant_benchmarks(listing)
    variants = [v for v in declared if not profile.variants or v in profile.variants]
    if not variants:
        raise HotpathError(f"case {case.id} has no 'variant' @Param to interleave")
    rounds_dir = out.parent / "rounds" / case.id
    staging = rounds_dir.with_name(rounds_dir.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    commands, files = [], []
    try:
        for r, variant in interleave.round_order(variants, profile.forks):
            target = staging / f"round-{r + 1}-{variant}.json"
            cmd = [*profile.java(1, java), "-jar", _shown(jar), interleave.include_only(declared[variant]),
                   *profile.jmh_args(forks=1, variant_filter=False, java=java),
                   *extra_args, "-p", f"variant={variant}", "-rf", "json", "-rff", str(target)]
            print(f"hotpath: {case.id}: round {r + 1} of {profile.forks}, {variant}", flush=True)
            _jmh(cmd, case, out)
            read_json(target)
            files.append(target)
            commands.append(shlex.join([*cmd[:-1], _shown(rounds_dir / target.name)]))
        merged.write_text(json.dumps(interleave.merge(files), indent=2), encoding="utf-8")
        shutil.rmtree(rounds_dir, ignore_errors=True)
        os.replace(staging, rounds_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return commands


def measure_peaks(case: Case, profile: Profile, jar: Path, out: Path, final: Path) -> str:
    """Peak live heap per call (hotpath.peak.PeakHeapMain): bisection on -Xmx in child JVMs."""
    cmd = ["java", "-cp", _shown(jar), "hotpath.peak.PeakHeapMain", case.peak_calls or "",
           _shown(out), "--resolution-pct", str(profile.peak_resolution_pct)]
    print(f"hotpath: {case.id}: measuring peak live heap per call", flush=True)
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise HotpathError(f"peak-heap measurement failed for case {case.id}: {reason}")
    return shlex.join([*cmd[:5], _shown(final), *cmd[6:]])


def run(case: Case, profile: Profile, jar: Path = JAR, out: Path | None = None,
        extra_args: list[str] | None = None, cell: Cell | None = None) -> Path:
    """Run the case's benchmarks under the profile; return the results file.

    With a ``cell``, the forks run on that cell's JDK and collector (hotpath.runtimes) instead
    of the main configuration; peak live heap is measured on the main configuration only."""
    java = "java"
    if cell is not None:
        java = str(runtimes.java_of(cell))  # a missing JDK stops here, before anything runs
        profile = dataclasses.replace(profile, jvm_args=cell.jvm_args(profile.jvm_args))
    if not jar.is_file():
        raise HotpathError(f"{jar} is missing: build it with 'make build' (mvn package)")
    expected = listed_benchmarks(case.benchmarks, jar)
    if not expected:
        raise HotpathError(f"no benchmarks match {case.benchmarks!r} in {jar}")
    out = out or results_file(profile.name, case.id)
    if profile.require_quiet:
        refuse_if_busy(profile)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    memory_partial = memory_of(out).with_name(memory_of(out).name + ".partial")
    peak_partial = peaks_of(out).with_name(peaks_of(out).name + ".partial")
    cmd = timing_command(case, profile, jar, partial, extra_args, java)
    started = dt.datetime.now(dt.timezone.utc)
    # Taken before the run: the revision that ran, not whatever the tree holds hours later.
    env = environment(java)
    t0 = time.monotonic()
    meter = machine.CpuMeter.start()
    print(f"hotpath: {case.id} [{profile.name}]: {len(expected)} benchmark methods, "
          f"{profile.describe()}", flush=True)
    rounds: list[str] = []
    try:
        if profile.interleave:
            rounds = run_interleaved(case, profile, jar, out, partial, extra_args or [], java)
        else:
            _jmh(cmd, case, out)
        entries = read_json(partial)
        missing = sorted(set(expected) - {e["benchmark"] for e in entries})
        if missing:
            raise HotpathError(f"JMH produced no result for {', '.join(missing)}; "
                               f"{out} was left as it was")
        memory_cmd = run_memory_pass(case, profile, jar, memory_partial, memory_of(out), expected,
                                     extra_args, java)
        peak_cmd = (measure_peaks(case, profile, jar, peak_partial, peaks_of(out))
                    if case.peak_calls and cell is None else None)
        load = meter.read()
        provenance = {
            "case": case.id,
            "profile": profile.name,
            "profile_settings": profile.describe(),
            "started": started.isoformat(timespec="seconds"),
            "duration_s": round(time.monotonic() - t0, 1),
            "jmh_version": entries[0].get("jmhVersion", ""),
            "jvm_args": list(profile.jvm_args),
            "runtime": (cell or runtimes.MAIN).id,
            "runtime_description": (cell or runtimes.MAIN).describe(),
            "command": shlex.join([*cmd[:-1], _shown(out)]),
            "memory_command": memory_cmd,
            "peak_command": peak_cmd,
            "machine_load": load,
            "interleaved_rounds": rounds or None,
            "invoked_as": shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]),
            **env,
            "sha256": hashlib.sha256(partial.read_bytes()).hexdigest(),
        }
        os.replace(partial, out)
        if memory_cmd:
            os.replace(memory_partial, memory_of(out))
        else:  # a stale memory pass must not join onto new timing rows
            memory_of(out).unlink(missing_ok=True)
        if peak_cmd:
            os.replace(peak_partial, peaks_of(out))
        _atomic_write(sidecar_of(out), json.dumps(provenance, indent=2) + "\n")
    finally:
        partial.unlink(missing_ok=True)
        memory_partial.unlink(missing_ok=True)
        peak_partial.unlink(missing_ok=True)
    if load["others_cores"] > machine.QUIET_CORES:
        print(f"hotpath: warning: {case.id}: {machine.describe(load)}", file=sys.stderr)
    return out


def timing_command(case: Case, profile: Profile, jar: Path, target: Path,
                   extra_args: list[str] | None = None, java: str = "java") -> list[str]:
    return [*profile.java(profile.forks, java), "-jar", _shown(jar), case.benchmarks,
            *profile.jmh_args(java=java),
            *(extra_args or []), "-rf", "json", "-rff", str(target)]


def memory_command(case: Case, profile: Profile, jar: Path, target: Path,
                   extra_args: list[str] | None = None, java: str = "java") -> list[str]:
    return [*profile.java(profile.memory_forks, java), "-jar", _shown(jar), case.benchmarks,
            *profile.memory_args(java), *(extra_args or []), "-rf", "json", "-rff", str(target)]


def run_memory_pass(case: Case, profile: Profile, jar: Path, partial: Path, final: Path,
                    expected: list[str], extra_args: list[str] | None = None,
                    java: str = "java") -> str | None:
    """Native bytes per op in forks of their own, after the timing pass."""
    if not profile.memory_profilers:
        return None
    cmd = memory_command(case, profile, jar, partial, extra_args, java)
    print(f"hotpath: {case.id}: memory pass ({', '.join(profile.memory_profilers)}), one fork "
          f"per benchmark, apart from the timed forks", flush=True)
    _jmh(cmd, case, final)
    missing = sorted(set(expected) - {e["benchmark"] for e in read_json(partial)})
    if missing:
        raise HotpathError(f"the memory pass produced no result for {', '.join(missing)}")
    return shlex.join([*cmd[:-1], _shown(final)])


def refuse_if_busy(profile: Profile) -> None:
    """Full and reference runs decide verdicts: they do not start on a busy machine."""
    if os.environ.get(machine.OVERRIDE):
        return
    load = machine.others_now()
    if load["others_cores"] > machine.QUIET_CORES:
        raise HotpathError(
            f"the machine is busy: other processes used {load['others_cores']:.2f} cores over "
            f"{load['wall_s']:.0f} s (load average {load['load_average_end']}); PROFILE="
            f"{profile.name} needs a quiet machine. Stop what else runs (builds, tests, other "
            f"benchmarks) and try again, or set {machine.OVERRIDE}=1 to run anyway (the run's "
            f"load is recorded and reported).")


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
    out = REPORTS / case.id / "flames"
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
