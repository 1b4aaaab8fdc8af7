"""What a finished run gets added, each in forks of its own: any kind of evidence registered in
hotpath.measure.passes.KINDS (its allocation sites: the memory pass again, with async-profiler
recording every allocation; its CPU samples: make cpu), for a case's run or a run of two
builds alike, and its allocation flame graphs (make profile)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import passes
from .. import children, runs
from ..cases import Case
from ..errors import HotpathError
from ..jmh import RowKey, read_json
from ..offline import external_references as _external
from ..paths import JAR, ROOT, reports_folder
from .jar import benchmark_listing, run_jmh
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
        if children.run(cmd, cwd=ROOT).returncode:
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


@dataclass(frozen=True)
class Share:
    """One launcher's part of a pass added to a finished run: the row-sides it measures, what
    its benchmarks declare, its JMH runner (which raises where a failed run stops the pass),
    and the side's name where the launcher is the side (a build)."""

    launcher: passes.Launcher
    sides: list[RowKey]
    declared: dict[str, dict[str, list[str]]]
    jmh: Callable[[list[str]], object]
    side: str = ""


def add(kind: passes.Kind, profile: Profile, folder: Path, layout: runs.Layout, shares: list[Share],
        log: Path, java: str = "java", **extra: str) -> Path:
    """A finished run (its ``folder`` and ``layout``) given a pass of ``kind`` (passes.KINDS):
    each share's row-sides in forks of their own, the profiler's folders collected into the
    kind's file beside the run's files (``extra``: notes the file carries), which stay as they
    were. ``log`` is the runners' JMH log, kept only where a run failed."""
    staging = folder / f".{layout.file(kind.name)}.partial.d"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    log.parent.mkdir(parents=True, exist_ok=True)
    log.unlink(missing_ok=True)
    forks = kind.forks(profile)
    documents = []
    try:
        for i, share in enumerate(shares):
            recorded = staging / f"{i}.d"

            def output(k: int, i: int = i) -> Path:
                return staging / f"jmh-{i}-{k}.json"

            commands = passes.run(share.launcher, share.sides, share.declared,
                                  profile.java(forks, java, kind.jvm_args),
                                  kind.options(profile, java, recorded, forks), output, share.jmh)
            entries = ([e for k in range(len(commands)) for e in read_json(output(k))]
                       if kind.keeps_json else [])
            shown = "; ".join(recorded_command(cmd[:-2], recorded, kind.name) for cmd in commands)
            documents.append(kind.collect(recorded, entries, shown, share.side))
        document = documents[0] if len(documents) == 1 and not extra else runs.joined_sites(documents, **extra)
        target = runs.add(folder, layout, kind.name, runs.sites_text(document).encode())
        log.unlink(missing_ok=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def recorded_command(cmd: list[str], folder: Path, name: str) -> str:
    """A pass's command as its file keeps it: the profiler's scratch ``folder`` by the name its
    file goes by (replaced first: relative, it would no longer match), paths under the project
    root relative to it."""
    return shlex.join(cmd).replace(str(folder), name).replace(f"{ROOT}{os.sep}", "")


def to_case_run(kind: passes.Kind, case: Case, profile: Profile, results: Path, jar: Path = JAR,
                java: str = "java") -> Path:
    """The pass of ``kind`` for the row-sides a case's finished run measured (the committed
    reference, or a run from before the pass): ``<case>.<kind>.json`` beside ``results``."""
    if not jar.is_file():
        raise HotpathError(f"{jar} is missing: build it with 'make build' (mvn package)")
    finished = runs.load(*runs.of_results(results))
    sides = list(dict.fromkeys(RowKey.of_entry(e) for e in finished.entries()))
    target = finished.path(finished.layout.file(kind.name))
    log = ROOT / "target" / "jmh-logs" / f"{kind.name}-{case.id}-{profile.name}.log"
    print(f"hotpath: {case.id}: {kind.what} of {len(sides)} row-sides of {_shown(results)}, "
          f"{kind.forks(profile)} fork(s) each", flush=True)
    share = Share(passes.CaseJar(jar), sides, benchmark_listing(case, jar),
                  lambda cmd: run_jmh(cmd, case, target, log=log))
    return add(kind, profile, results.parent, finished.layout, [share], log, java)
