"""The memory pass: each benchmark in a fork of its own, apart from the timed forks, counting what
a timed fork must not carry (native bytes by a malloc hook, allocation sites by a profiler
that records every allocation); its commands, and JMH's lock held while passes run two at a
time past it."""

from __future__ import annotations

import contextlib
import json
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path

from . import forkplan, interleave, passes, rounds, sites
from ..cases import Case
from ..errors import HotpathError
from ..jmh import read_json
from .jar import run_jmh
from .passes import shown as _shown
from .profiles import Profile


def memory_command(case: Case, profile: Profile, jar: Path, target: Path,
                   extra_args: list[str] | None = None, java: str = "java",
                   sites_dir: Path | None = None) -> list[str]:
    return [*profile.memory_java(java, sites_dir), "-jar", _shown(jar), case.benchmarks,
            *profile.memory_args(java, sites_dir), *(extra_args or []), "-rf", "json", "-rff", str(target)]


#: What a memory pass run beside another adds to its JMH's JVM: JMH refuses to start while
#: another JMH holds its machine-wide lock, and with this neither takes nor asks for the lock.
#: The passes beside each other count, they do not time; hotpath holds the lock for them
#: (:func:`holding_jmh_lock`), so another command's timed run still does not start beside them.
PAST_LOCK = "-Djmh.ignoreLock=true"


@contextlib.contextmanager
def holding_jmh_lock(what: str) -> Iterator[None]:
    """JMH's machine-wide lock held by this process (a POSIX lock, as JMH's FileChannel.tryLock
    takes it) while JMH runs that pass it run beside each other; refused, before anything
    starts, where another process holds it. ``what`` names what would not start."""
    import fcntl

    try:
        f = open(rounds.LOCK_FILE, "a")
    except OSError:  # another user's lock file: JMH itself could not take it either
        yield
        return
    with f:
        try:
            fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise HotpathError(f"{what} did not start: {rounds.no_result(rounds.LOCKED)}") from None
        try:
            yield
        finally:
            fcntl.lockf(f, fcntl.LOCK_UN)


def _past_lock(cmd: list[str], beside: bool) -> list[str]:
    return [cmd[0], PAST_LOCK, *cmd[1:]] if beside else cmd


def sites_staging(partial: Path) -> Path:
    """The folder the site profiler's forks write into, collected into ``partial`` after."""
    return partial.with_name(partial.name + ".d")


def run_memory_pass(case: Case, profile: Profile, jar: Path, partial: Path, final: Path,
                    expected: list[str], extra_args: list[str] | None = None,
                    java: str = "java", plan: forkplan.Plan | None = None,
                    sites_partial: Path | None = None, log: Path | None = None) -> str | None:
    """Native bytes per op in forks of their own, before the timed rounds, and in the same
    forks the allocation sites (into ``sites_partial``, where the profile records them). With
    a sequential run's ``plan``, just its sides: one run per variant and group of benchmarks.
    With a ``log``, the pass runs beside another: JMH's output goes there, and its JMH passes
    JMH's lock (:data:`PAST_LOCK`)."""
    if not profile.memory.profilers:
        return None
    staging = sites_staging(sites_partial) if sites_partial is not None and profile.memory.sites else None
    if staging is not None:
        shutil.rmtree(staging, ignore_errors=True)
    print(f"hotpath: {case.id}: memory pass ({', '.join(profile.memory.profilers)}"
          + (", allocation sites" if staging else "") + "), one fork "
          "per benchmark, apart from the timed forks"
          + (f"; JMH's output in {_shown(log)}" if log else ""), flush=True)
    try:
        command = _memory_runs(case, profile, jar, partial, final, expected, extra_args, java,
                               plan, staging, log)
        if staging is not None and sites_partial is not None:
            sites.write(staging, command, sites_partial)
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return command


def _memory_runs(case: Case, profile: Profile, jar: Path, partial: Path, final: Path,
                 expected: list[str], extra_args: list[str] | None, java: str,
                 plan: forkplan.Plan | None, staging: Path | None, log: Path | None = None) -> str:
    # A plan's own sides only: a full run's plan leaves the mechanisms' combinations out, 88 of
    # the 306 forks of the 2026-11-30 run's memory passes (18 minutes in all).
    if plan is None:
        cmd = _past_lock(memory_command(case, profile, jar, partial, extra_args, java, staging), log is not None)
        run_jmh(cmd, case, final, log)
        missing = sorted(set(expected) - {e["benchmark"] for e in read_json(partial)})
        if missing:
            raise HotpathError(f"the memory pass produced no result for {', '.join(missing)}")
        return shown_command(cmd, final, staging)
    files: list[Path] = []

    def target(i: int) -> Path:
        files.append(partial.with_name(f"{partial.name}.{i}"))
        return files[-1]

    def jmh(cmd: list[str]) -> None:
        run_jmh(cmd, case, final, log)
        read_json(files[-1])

    try:
        commands = passes.run(passes.CaseJar(jar), forkplan.sides_of(plan.rows, case.baseline),
                              plan.declared, _past_lock(profile.memory_java(java, staging), log is not None),
                              [*profile.memory_args(java, staging), *(extra_args or [])], target, jmh)
        partial.write_text(json.dumps(interleave.merge(files), indent=2), encoding="utf-8")
    finally:
        for f in files:
            f.unlink(missing_ok=True)
    return "; ".join(shown_command(cmd, final, staging) for cmd in commands)


def shown_command(cmd: list[str], final: Path, staging: Path | None) -> str:
    """The command as it can be run again: the final file, and the sites' folder by name."""
    text = shlex.join([*cmd[:-1], _shown(final)])
    return text.replace(str(staging), "sites") if staging is not None else text
