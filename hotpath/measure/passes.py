"""A pass: the JMH runs that measure a set of row-sides apart from the timed forks (the memory
pass, the allocation-site pass, the next one), started by a *launcher*: a case's jar, whose
sides are its variants, or one build of two (hotpath.measure.builds.Side), which is the side.
The kinds a finished run can be given in forks of their own are registered in KINDS
(hotpath.measure.added runs any of them).

Every pass goes the same way: each variant's sides as the fewest JMH runs that hold them exactly
(forkplan.invocations), one command each, run. What a pass keeps of its runs (their JMH files,
the folder a profiler wrote) is its caller's to collect, and so is what a failed run means.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Protocol

from ..errors import UnknownNameError
from ..jmh import VARIANT, RowKey
from ..paths import ROOT
from . import cpu, forkplan, interleave, sites
from .profiles import Profile


class Launcher(Protocol):
    """What starts a pass's JMH on its benchmarks."""

    #: The @Param that names a side's variant in JMH's results; None where the launcher is
    #: itself the side (a build: its results carry no such param).
    label: ClassVar[str | None]

    def start(self, jvm: list[str]) -> list[str]:
        """The command up to JMH's own options; ``jvm``: the java and the arguments of the JVM
        that runs JMH (the benchmarks' own where they run in it, with -f 0)."""

    def variant(self, name: str) -> list[str]:
        """The options that choose one variant's sides."""


@dataclass(frozen=True)
class CaseJar:
    """The study's benchmarks jar: a case's sides are the values of its 'variant' @Param."""

    jar: Path
    label: ClassVar[str | None] = VARIANT

    def start(self, jvm: list[str]) -> list[str]:
        return [*jvm, "-jar", shown(self.jar)]

    def variant(self, name: str) -> list[str]:
        return ["-p", f"{VARIANT}={name}"] if name else []


def shown(path: Path) -> str:
    """A path as a recorded command shows it: relative to the project root, as a user types it."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def run(launcher: Launcher, sides: list[RowKey], declared: dict[str, dict[str, list[str]]],
        jvm: list[str], options: list[str], target: Callable[[int], Path],
        jmh: Callable[[list[str]], object]) -> list[list[str]]:
    """Run a pass over ``sides`` (benchmark, params, variant): per variant, the JMH runs of
    forkplan.invocations, each with the pass's ``options`` (its forks, iterations, profilers),
    writing its JSON to ``target(i)`` (the i-th run's), run by ``jmh`` (which raises where a
    failed run stops the pass). Returns the commands run, in order."""
    commands: list[list[str]] = []
    for variant in dict.fromkeys(v for _, _, v in sides):
        mine = [s for s in sides if s[2] == variant]
        for benchmarks, params in forkplan.invocations(mine, declared, launcher.label):
            cmd = [*launcher.start(jvm), interleave.include_only(benchmarks), *options,
                   *launcher.variant(variant), *forkplan.jmh_params(params),
                   "-rf", "json", "-rff", str(target(len(commands)))]
            commands.append(cmd)
            jmh(cmd)
    return commands


@dataclass(frozen=True)
class Kind:
    """A kind of evidence a finished run can be given in forks of its own: its file in a run's
    folder (``name``, a key of hotpath.runs.PASSES), its forks and JMH options under a profile,
    and how the folder its profiler wrote (with the runs' JMH entries, where it keeps them)
    becomes the file's document. A kind to come is one entry of KINDS."""

    name: str
    #: what the pass measures, as a line about it names it
    what: str
    forks: Callable[[Profile], int]
    #: the JVM arguments its forks add to the profile's where the benchmarks run in JMH's JVM
    jvm_args: tuple[str, ...]
    #: its JMH options: (profile, java, the profiler's folder, forks)
    options: Callable[[Profile, str, Path, int], list[str]]
    #: its document: (the profiler's folder, the runs' JMH entries, the commands, the side's
    #: name where a launcher is the side, else '')
    collect: Callable[[Path, list[dict], str, str], dict]
    #: whether its runs' JMH results are read (their forks tie the samples), not thrown away
    keeps_json: bool = False


#: A CPU pass of its own: forks per row-side, and each one's iterations of the profile's
#: recorded length from its start (3 s at 100 ms), whose steady segment is counted.
CPU_PASS_FORKS = 3
CPU_PASS_ITERATIONS = 30

#: The kinds a finished run can be given, by their files' names (hotpath.runs.PASSES).
KINDS: dict[str, Kind] = {
    "sites": Kind(
        "sites", "allocation sites",
        # a fork each, even where the memory pass runs without: the reference's memory pass forks
        forks=lambda profile: max(profile.memory.forks, 1), jvm_args=sites.JVM_ARGS,
        options=lambda profile, java, folder, forks: profile.sites_args(java, folder, forks),
        collect=lambda folder, entries, command, side: sites.collect(folder, command, side=side)),
    "cpu": Kind(
        "cpu", "CPU samples",
        forks=lambda profile: CPU_PASS_FORKS, jvm_args=(),
        options=lambda profile, java, folder, forks: profile.cpu_args(
            java, folder, forks, CPU_PASS_ITERATIONS, profile.cpu.interval_ns or cpu.INTERVAL_NS),
        collect=lambda folder, entries, command, side: cpu.collect(folder, entries, command, side,
                                                                  where=cpu.OWN_FORKS),
        keeps_json=True),
}


def kind_of(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownNameError(f"unknown pass {name!r}; a finished run can be given: "
                               f"{', '.join(KINDS)}") from None
