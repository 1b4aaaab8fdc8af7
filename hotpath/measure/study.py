"""What the measuring commands run, from what they were given: the cases' benchmarks in one
plan and budget (or a shard of them), the JDK x GC matrix's cells, the site pass alone, two
builds, and the shards' folders joined. Each says what it does as it goes (``log``) and returns
what it wrote; rendering is the caller's."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from . import ab, added, bench, builds, cuts, forkplan, hostcheck, merge, passes, shards, stamp
from . import matrix as measure_matrix
from .. import runtimes
from ..cases import get_case
from ..errors import HotpathError
from ..paths import (AA_REFERENCE, AB_REFERENCE, JAR, MATRIX, MECHANISMS_REFERENCE, REFERENCE, RESULTS,
                     ROOT, committed, results_file, results_folder)
from .jar import benchmark_listing
from .profiles import Profile, format_duration, get_profile

Log = Callable[[str], None]

#: The committed runs a command may replace when told so by name (REPLACE=, --replace): make
#: bench PROFILE=reference, make aa, make matrix, make demos, make mechanisms; and the folder
#: each lies in.
REPLACEABLE = {"reference": REFERENCE, "aa": AA_REFERENCE, "matrix": MATRIX, "demos": AB_REFERENCE,
               "mechanisms": MECHANISMS_REFERENCE}
_WHAT = {"reference": "the reference run", "aa": "the A/A run", "matrix": "the JDK x GC matrix",
         "demos": "the runs of two builds on released code",
         "mechanisms": "the run of the patches' mechanisms"}


def refuse_overwrite(target: Path, name: str, replace: str = "", out_given: bool = False) -> None:
    """Before anything starts: a run that would write into the study's committed data
    (hotpath.paths.committed) refuses in one line, unless ``replace`` names it; a bad name, or a
    name beside a folder that is not committed, is refused too."""
    if replace and replace not in REPLACEABLE:
        raise HotpathError(f"REPLACE={replace}: not a committed run; known: {', '.join(REPLACEABLE)}")
    if not committed(target):
        if replace and out_given:
            raise HotpathError(f"REPLACE={replace} replaces the committed run, OUT= writes elsewhere "
                               f"({_shown(target)}): give one of them")
        return
    if replace == name:
        return
    where = Path(target).resolve()
    # the committed run the folder is, else the one it is a run of (demos: one folder each)
    what = next((f" ({_WHAT[n]})" for at in (where, where.parent)
                 for n, f in REPLACEABLE.items() if f.resolve() == at), "")
    raise HotpathError(f"this run would write over committed data in {_shown(target)}/{what}: "
                       f"OUT=<folder> writes it elsewhere (data/results/... or outside data/), "
                       f"REPLACE={name} replaces it")


def _shown(path: Path) -> str:
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _shard_of(text: str, cut_into: Callable[[int], list[shards.Shard]]):
    """The k-th shard of 'k/N' and the cut it belongs to; (None, None) for no shard."""
    if not text:
        return None, None
    k, n = shards.parse(text)
    cut = cut_into(n)
    return cut[k - 1], cut


def bench_cases(case_ids: list[str], profile: Profile, budget: str = "", shard_text: str = "",
                stale_only: bool = False, log: Log = print, out: Path | None = None,
                replace: str = "") -> Iterator[Path]:
    """The cases' benchmarks; a sequential profile runs every case's rows as one plan in one
    time budget (bench.run_together). A shard ('k/N') runs only its rows, in its share of the
    budget, into its own folder. ``out``: the folder for the results (default: the profile's);
    one in the committed data is refused unless ``replace`` names it ("reference"). Yields each
    results file written."""
    # the committed run a profile's cases may replace: the reference, or the mechanisms' run
    name = "mechanisms" if profile.rows == forkplan.MECHANISMS else "reference"
    if not shard_text:
        if name == "mechanisms" and replace == name and out is None:
            out = MECHANISMS_REFERENCE  # REPLACE=mechanisms: the committed run's own folder
        refuse_overwrite(out or results_folder(profile.name), name, replace, out is not None)
    elif out is not None:
        raise HotpathError("a shard writes into its own folder (data/results/<profile>/shards/): "
                           "give SHARD= or OUT=, not both")
    shard, cut = _shard_of(shard_text, lambda n: cuts.of_cases(profile, case_ids, n))
    if shard is not None:
        case_ids = shard.cases
        log(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
            f"{shards.held(shard)} of {', '.join(case_ids)}")
    budget_s = cuts.budget_of(budget, profile, shard, cut)
    if profile.rows == forkplan.MECHANISMS:
        case_ids = _with_mechanisms(case_ids, profile, log)
    if stale_only:
        folder = out or results_folder(profile.name)
        case_ids = [c for c in case_ids if stamp.stale(folder / f"{c}.json")]
        if not case_ids:
            return
    host = None
    if profile.require_quiet:
        # once for the whole command, before any case's set-up (the busy check is each case's)
        found = hostcheck.refuse_if_contended(profile)
        host = found.record() if found else None
    if not profile.interleave or budget_s is None:
        for case_id in case_ids:
            yield bench.run(get_case(case_id), profile, out=out / f"{case_id}.json" if out else None,
                            shard=shard, host_check=host)
        return
    log(f"hotpath: plan [{profile.name}]: {profile.describe()}")
    log(f"hotpath: budget {format_duration(budget_s)} for {len(case_ids)} case(s), "
        f"one plan: every row's first look before any row's later forks")
    started = time.monotonic()
    yield from bench.run_together([get_case(c) for c in case_ids], profile, budget_s, shard=shard,
                                  folder=out, host_check=host)
    log(f"hotpath: benchmarks took {format_duration(time.monotonic() - started)} "
        f"of a {format_duration(budget_s)} budget")


def matrix_cells(case_ids: list[str], profile: Profile, cells_text: str, budget: str = "",
                 shard_text: str = "", measure: bool = True, log: Log = print,
                 out: Path | None = None, replace: str = ""
                 ) -> Iterator[tuple[str, list[Path], dict[str, str]]]:
    """Each case's runtime cells benchmarked into data/matrix/<cell>/ (unless not ``measure``),
    or into ``out``/<cell>/; the committed matrix only where ``replace`` names it: yields each
    case with the files written and the cells skipped. A shard ('k/N') measures only its cells,
    into its own folder."""
    if measure and not shard_text:
        refuse_overwrite(out or measure_matrix.folder_of(profile.name), "matrix", replace,
                         out is not None)
    elif out is not None and shard_text:
        raise HotpathError("a shard writes into its own folder (data/results/<profile>/shards/): "
                           "give SHARD= or OUT=, not both")
    cells = runtimes.parse_cells(cells_text)
    shard, _ = _shard_of(shard_text, lambda n: cuts.of_matrix(profile, case_ids, cells, n))
    if shard is not None:
        case_ids = shard.cases
        log(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
            + ", ".join(u.name for u in shard.units))
    for case_id in case_ids:
        yield case_id, *(measure_matrix.run(get_case(case_id), profile, cells, budget, shard=shard,
                                            folder=out)
                         if measure else ([], {}))


def _with_mechanisms(case_ids: list[str], profile: Profile, log: Log) -> list[str]:
    """The cases whose benchmarks measure the patch's mechanisms; the others said and left out."""
    found = [c for c in case_ids if forkplan.plan_rows(get_case(c), profile, benchmark_listing(get_case(c), JAR))]
    for c in case_ids:
        if c not in found:
            log(f"hotpath: {c}: no benchmark of the jar names the patch's mechanisms as variants "
                f"(old+...): left out")
    if not found:
        raise HotpathError(f"none of {', '.join(case_ids)} has benchmarks of the patch's mechanisms")
    return found


def add_pass(name: str, case_ids: list[str], profile: Profile, builds_run: str = "") -> Iterator[Path]:
    """A pass of its own (hotpath.measure.passes.KINDS: sites, cpu) for finished runs: a run of
    two builds (its folder), or each case's finished run in the profile's folder."""
    kind = passes.kind_of(name)
    if builds_run:
        yield ab.add_pass(kind, Path(builds_run))
        return
    for case_id in case_ids:
        results = results_file(profile.name, case_id)
        if not results.is_file():
            raise HotpathError(f"{results} is missing: the {kind.what} pass adds to a finished run "
                               f"('make report CASE={case_id} PROFILE={profile.name}' makes one)")
        yield added.to_case_run(kind, get_case(case_id), profile, results)


@dataclass(frozen=True)
class TwoBuilds:
    """Two builds (named apart), what of them to measure, under which profile and name."""

    profile: Profile
    baseline: builds.Side
    candidate: builds.Side
    selection: ab.Selection
    name: str

    @classmethod
    def of(cls, baseline: str, candidate: str, baseline_name: str | None = None,
           candidate_name: str | None = None, bench_regex: str | None = None,
           params: list[str] | None = None, name: str | None = None,
           profile: str | None = None) -> "TwoBuilds":
        base = builds.parse(baseline, "baseline", baseline_name or "")
        cand = builds.parse(candidate, "candidate", candidate_name or "")
        base, cand = builds.named_apart(base, cand)
        return cls(get_profile(profile or "ab"), base, cand,
                   ab.Selection(include=bench_regex or ".", params=ab.parse_params(params or [])),
                   ab.slug(name) if name else ab.default_name(base, cand))

    def cut(self, count: int) -> list[shards.Shard]:
        """The run in ``count`` shards (the same cut wherever the same builds and names are given)."""
        return cuts.of_builds(self.profile, self.baseline, self.candidate, self.selection,
                              self.name, count)

    def measure(self, budget: str = "", shard_text: str = "", results_dir: str = "",
                log: Log = print, replace: str = "") -> Path:
        """The run into data/results/ab/<name>/ (or ``results_dir``/<name>/; in the committed
        data, such as make demos' data/reference/ab/, only where ``replace`` names it); a shard
        of it ('k/N') into data/results/ab-shards/<name>/<k>-of-<N>/, in its share of the budget."""
        if not shard_text:
            refuse_overwrite(Path(results_dir or RESULTS / "ab") / self.name, "demos", replace,
                             bool(results_dir))
        shard, cut = _shard_of(shard_text, self.cut)
        if shard is not None:
            log(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
                f"{shards.held(shard)} of {self.name}")
        return ab.run(self.baseline, self.candidate, self.selection, self.profile,
                      budget_s=cuts.budget_of(budget, self.profile, shard, cut), name=self.name,
                      out=Path(results_dir) / self.name if results_dir and shard is None else None,
                      shard=shard)


def join_shards(folders: list[Path], profile: str, out: Path | None = None,
                replace: str = "") -> list[Path]:
    """The shards' folders of one run, checked and joined: into the profile's results, or, for
    two builds, into the run's folder; into the committed data (the matrix's, by default) only
    where ``replace`` names it."""
    kinds = {merge.is_builds_shard(f) for f in folders}
    if kinds == {True}:
        refuse_overwrite(out or RESULTS / "ab", "demos", replace, out is not None)
        return [merge.merge_builds(folders, out)]
    name = "matrix" if profile == "matrix" else "reference"
    refuse_overwrite(out or (MATRIX if profile == "matrix" else RESULTS / profile), name, replace,
                     out is not None)
    if len(kinds) > 1:
        raise HotpathError("the folders mix shards of two builds with shards of a profile's "
                           "cases: not one run")
    return merge.merge(folders, profile, out)
