"""hotpath: JMH matrices to JSON, JSON to reports (HTML, Markdown, Jira) and tables.

The study's cases run through `bench`, `report`, `overview` and `profile`; any JMH JSON file
through `table` and `compare`; `hotpath <command> --help` says more of each."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple

from .measure import bench
from .measure import matrix as measure_matrix
from .analyze import against, compare, load
from .render import report, tables
from .render import against as against_text
from .render.document import headline_of
from .cases import CASES, existing_cases, get_case
from .errors import HotpathError
from .jmh import looks_like_results
from .paths import REPORTS, results_file, results_folder
from .measure.profiles import PROFILES, get_profile

# -- the commands' arguments: each declared beside its command; the shared ones once, here ------


def arg(*flags: str, **options) -> tuple[tuple[str, ...], dict]:
    return flags, options


class Group(NamedTuple):
    """Arguments shown under a heading of their own in the command's help."""

    title: str
    arguments: tuple


def case_arg(default: str = "all") -> tuple:
    return arg("--case", default=default)


def profile_arg(default: str = "quick", help: str | None = None) -> tuple:
    return arg("--profile", default=default, **({"help": help} if help else {}))


PARAMETER = arg("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
                help="override a parameter of the notebook's parameters cell")
RENDER_ONLY = arg("--render-only", action="store_true", help="render the run already measured")


def two_builds(first: tuple = (), then: tuple = ()) -> tuple:
    """What picks and names two builds' rows, as compare measures them and shards cuts them."""
    return (*first,
            arg("--bench", help="JMH's include regex: which benchmarks (default: every one)"),
            arg("-p", action="append", metavar="NAME=V1,V2",
                help="restrict a @Param to these values, as JMH's -p (repeatable)"),
            arg("--name", help="the run's name: data/results/ab/<name>/ and reports/ab/<name>/ "
                               "(default: <baseline>-vs-<candidate>)"),
            arg("--baseline-name", help="the baseline's name in the report (default: its file name)"),
            arg("--candidate-name", help="the candidate's name in the report (default: its file name)"),
            *then)


COMMANDS: list[tuple[str, str, tuple, Callable[[argparse.Namespace], int]]] = []


def command(name: str, help: str, *arguments) -> Callable:
    """Declare a command: its name, its one-line help and its arguments (``arg`` or ``Group``)."""
    def register(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
        COMMANDS.append((name, help, arguments, func))
        return func
    return register


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hotpath", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    for name, help, arguments, func in COMMANDS:
        c = sub.add_parser(name, help=help)
        for a in arguments:
            if isinstance(a, Group):
                group = c.add_argument_group(a.title)
                for flags, options in a.arguments:
                    group.add_argument(*flags, **options)
            else:
                c.add_argument(*a[0], **a[1])
        c.set_defaults(func=func)
    return p


def _cases(given: str) -> list[str]:
    """'all' (or empty) means every case that exists in the tree; else a comma list."""
    if given in ("", "all"):
        return [c.id for c in existing_cases()]
    ids = [a.strip() for a in given.split(",") if a.strip()]
    for case_id in ids:
        if not get_case(case_id).exists:
            raise HotpathError(f"case {case_id!r} is not built yet (no models or notebook)")
    return ids


def _wrote(path: Path, page: str = "", headline_too: bool = False) -> None:
    """'hotpath: wrote <path>', and the report's verdict too, so a run ends with what it found."""
    print(f"hotpath: wrote {path}{page}")
    text = headline_of(path) if headline_too else None
    if text:
        print(f"hotpath: {text}")


def _out(args: argparse.Namespace) -> Path | None:
    return Path(args.out) if args.out else None


# -- commands ------------------------------------------------------------------------------------


@command("table", "print the comparison table of any JMH JSON file",
         arg("file"),
         arg("--baseline", default="old", help="the baseline variant (default: old)"),
         arg("--param", help="pair on this @Param's values instead of 'variant'"),
         arg("--format", choices=("text", "md", "jira"), default="text"),
         arg("--gc", action="store_true", help="add GC count and GC time columns"))
def cmd_table(args: argparse.Namespace) -> int:
    table, unpaired = tables.file_table(args.file, args.baseline, args.param, args.gc)
    print(tables.as_text(table, args.format), end="")
    for line in unpaired:
        print(line, file=sys.stderr)
    return 0


SHARD_HELP = ("k/N: only the k-th of N shards of the run (hotpath shards lists them), "
              "into data/results/<profile>/shards/<k>-of-<N>/")


@command("bench", "run a case's JMH matrix to data/results/<profile>/",
         case_arg(), profile_arg(),
         arg("--budget", default="",
             help="time for the whole run (45m, 1h30m, 600s): a sequential profile stops "
                  "taking forks when it is spent; default: the profile's"),
         arg("--stale-only", action="store_true",
             help="only the cases whose results are missing or older than the jar's classes"),
         arg("--shard", default="", help=SHARD_HELP))
def cmd_bench(args: argparse.Namespace) -> int:
    """The cases' benchmarks; a sequential profile runs every case's rows as one plan in one
    time budget (bench.run_together). With --shard k/N only that shard's rows
    (hotpath.measure.shards), in its share of the budget, into its own folder."""
    from .measure import cuts, forkplan, hostcheck, shards, stamp

    profile = get_profile(args.profile)
    case_ids, shard, cut = _cases(args.case), None, None
    if args.shard:
        k, n = shards.parse(args.shard)
        cut = cuts.of_cases(profile, case_ids, n)
        shard = cut[k - 1]
        case_ids = shard.cases
        print(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
              f"{shards.held(shard)} of {', '.join(case_ids)}")
    budget = cuts.budget_of(args.budget, profile, shard, cut)
    if args.stale_only:
        case_ids = [c for c in case_ids if stamp.stale(results_file(profile.name, c))]
        if not case_ids:
            return 0
    host = None
    if profile.require_quiet:
        # once for the whole command, before any case's set-up (the busy check is each case's)
        found = hostcheck.refuse_if_contended(profile)
        host = found.record() if found else None
    if not profile.interleave or budget is None:
        for case_id in case_ids:
            _wrote(bench.run(get_case(case_id), profile, shard=shard, host_check=host))
        return 0
    print(f"hotpath: plan [{profile.name}]: {profile.describe()}")
    print(f"hotpath: budget {forkplan.format_duration(budget)} for {len(case_ids)} case(s), "
          f"one plan: every row's first look before any row's later forks")
    started = time.monotonic()
    for path in bench.run_together([get_case(c) for c in case_ids], profile, budget, shard=shard,
                                   host_check=host):
        _wrote(path)
    print(f"hotpath: benchmarks took {forkplan.format_duration(time.monotonic() - started)} "
          f"of a {forkplan.format_duration(budget)} budget")
    return 0


@command("shards", "cut a run into N shards balanced by cost: the JSON a CI matrix takes "
                   "(stdout) and each shard's rows (stderr)",
         case_arg(), profile_arg("", "the profile (default: quick; ab for two builds)"),
         arg("--shards", type=int, required=True, help="how many shards"),
         arg("--cells", default="",
             help="cut the JDK x GC matrix of these cells (all, or a comma list) instead"),
         arg("--json", help="also write the JSON into this file"),
         Group("two builds (as hotpath compare takes them)", two_builds(first=(
             arg("--baseline", help="the baseline build: a JMH benchmark jar or a classpath"),
             arg("--candidate", help="the candidate build")))))
def cmd_shards(args: argparse.Namespace) -> int:
    """Print the run cut into shards as the JSON a CI matrix takes (the listing on stderr): a
    profile's cases, the JDK x GC matrix's cells (--cells) or two builds (--baseline and
    --candidate). The listing goes on stderr and, with --json, the JSON into a file too (a CI
    job's output: a make run's own lines cannot get into it)."""
    from . import runtimes
    from .measure import cuts, shards

    if args.baseline or args.candidate:
        if not (args.baseline and args.candidate):
            raise HotpathError("two builds are cut into shards with both --baseline and --candidate")
        *_, cut = _builds_cut(args, args.shards)
    elif args.cells:
        cut = cuts.of_matrix(get_profile(args.profile or "quick"), _cases(args.case),
                             runtimes.parse_cells(args.cells), args.shards)
    else:
        cut = cuts.of_cases(get_profile(args.profile or "quick"), _cases(args.case), args.shards)
    print(shards.describe(cut), file=sys.stderr)
    print(shards.dumps(cut))
    if args.json:
        Path(args.json).write_text(shards.dumps(cut) + "\n", encoding="utf-8")
    return 0


def _two_builds(args: argparse.Namespace):
    """The profile, the two builds (named apart), the selection and the run's name that the
    arguments give."""
    from .measure import ab, builds

    profile = get_profile(args.profile or "ab")
    baseline = builds.parse(args.baseline, "baseline", args.baseline_name or "")
    candidate = builds.parse(args.candidate, "candidate", args.candidate_name or "")
    baseline, candidate = builds.named_apart(baseline, candidate)
    selection = ab.Selection(include=args.bench or ".", params=ab.parse_params(args.p or []))
    name = ab.slug(args.name) if args.name else ab.default_name(baseline, candidate)
    return profile, baseline, candidate, selection, name


def _builds_cut(args: argparse.Namespace, count: int):
    """Two builds' run as the arguments give it, and its cut into ``count`` shards."""
    from .measure import cuts

    profile, baseline, candidate, selection, name = _two_builds(args)
    return profile, baseline, candidate, selection, name, cuts.of_builds(
        profile, baseline, candidate, selection, name, count)


@command("merge", "join the shards' folders of one run into data/results/<profile>/ (checked: "
                  "one commit, one profile, every shard once)",
         arg("folders", nargs="+", help="the shards' folders, as each shard wrote it"),
         profile_arg(),
         arg("--out", help="the folder to write into (default: data/results/<profile>/; "
                           "for two builds data/results/ab/<name>/)"))
def cmd_merge(args: argparse.Namespace) -> int:
    """Join the shards' folders into the profile's results (or, for two builds, into the run's
    folder), after checking they are one run."""
    from .measure import merge

    folders = [Path(f) for f in args.folders]
    kinds = {merge.is_builds_shard(f) for f in folders}
    if kinds == {True}:
        _wrote(merge.merge_builds(folders, _out(args)))
        return 0
    if len(kinds) > 1:
        raise HotpathError("the folders mix shards of two builds with shards of a profile's "
                           "cases: not one run")
    for path in merge.merge(folders, args.profile, _out(args)):
        _wrote(path)
    return 0


@command("matrix", "the JDK x GC matrix: each runtime cell, then reports/<case>/matrix/",
         case_arg(), profile_arg("matrix"),
         arg("--cells", default="all",
             help="all (both JDKs x G1, Parallel, ZGC), pressure (JDK 17, G1, a 64 MB heap), "
                  "or a comma list such as jdk17-g1,jdk25-zgc"),
         arg("--render-only", action="store_true", help="render the cells already measured"),
         arg("--budget", default="", help="time for each case's cells together (default: the profile's)"),
         arg("--shard", default="", help="k/N: only the k-th of N shards of the matrix "
                                         "(hotpath shards --cells lists them)"))
def cmd_matrix(args: argparse.Namespace) -> int:
    """Each runtime cell benchmarked into data/matrix/<cell>/ (unless --render-only), then the
    matrix report. With --shard k/N only that shard's cells, into its own folder, no report."""
    from . import runtimes
    from .measure import cuts, shards

    profile = get_profile(args.profile)
    cells = runtimes.parse_cells(args.cells)
    case_ids = _cases(args.case)
    shard = None
    if args.shard:
        k, n = shards.parse(args.shard)
        shard = cuts.of_matrix(profile, case_ids, cells, n)[k - 1]
        case_ids = shard.cases
        print(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
              + ", ".join(u.name for u in shard.units))
    for case_id in case_ids:
        if not args.render_only:
            written, skipped = measure_matrix.run(get_case(case_id), profile, cells, args.budget,
                                                  shard=shard)
            for path in written:
                _wrote(path)
            if skipped:
                print(f"hotpath: {case_id}: skipped {len(skipped)} cell(s): {', '.join(skipped)}",
                      file=sys.stderr)
        if shard is None:
            _wrote(report.render_matrix(case_id, profile.name), "/report.html", headline_too=True)
    return 0


@command("profile", "allocation flame graphs into reports/<case>/flames/", case_arg(), profile_arg())
def cmd_profile(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    for case_id in _cases(args.case):
        _wrote(bench.flame_graphs(get_case(case_id), profile))
        # A report rendered before the flame graphs existed would still say "none yet".
        results = results_file(profile.name, case_id)
        if results.is_file() and (REPORTS / case_id / "report.html").is_file():
            _wrote(report.render_case(case_id, results), "/report.html")
    return 0


@command("sites", "the allocation-site pass alone, for a finished run's row-sides: "
                  "<case>.sites.json beside its results",
         case_arg(), profile_arg(),
         arg("--ab", help="a run of two builds' folder (data/reference/ab/<name>): its sites"))
def cmd_sites(args: argparse.Namespace) -> int:
    if args.ab:
        from .measure import ab as measure_ab
        _wrote(measure_ab.add_sites(Path(args.ab)))
        return 0
    profile = get_profile(args.profile)
    for case_id in _cases(args.case):
        results = results_file(profile.name, case_id)
        if not results.is_file():
            raise HotpathError(f"{results} is missing: the site pass adds to a finished run "
                               f"('make report CASE={case_id} PROFILE={profile.name}' makes one, "
                               f"its sites included)")
        _wrote(bench.add_sites(get_case(case_id), profile, results))
    return 0


@command("report", "execute a case's notebook into reports/<case>/",
         case_arg(), profile_arg(),
         arg("--results", help="a results file instead of data/results/<profile>/<case>.json"),
         arg("--out", help="a folder to write <case>/ into instead of reports/"),
         arg("--overview", action="store_true",
             help="also write index.html and index.md over every case with results"),
         arg(*PARAMETER[0], **{**PARAMETER[1], "help": "override a notebook parameter"}))
def cmd_report(args: argparse.Namespace) -> int:
    """Each case's report, then its JDK x GC matrix where one was measured, side by side
    (hotpath.render.study); the reference's with its committed runs of two builds and A/A."""
    from .render import study

    get_profile(args.profile)
    failed = 0
    for done in study.render(args.profile, _cases(args.case), _out(args) or REPORTS,
                             dict(args.parameter or []), Path(args.results) if args.results else None,
                             with_reference_runs=args.profile == "reference"
                             and args.case in ("", "all") and not args.results,
                             with_overview=args.overview):
        if isinstance(done, HotpathError):
            print(f"hotpath: {done}", file=sys.stderr)
            failed = 2
        else:
            _wrote(done.path, done.page, done.headline)
    return failed


@command("notebook", "execute notebooks (Python or Java) with parameters",
         arg("notebook", nargs="+"),
         arg("--out", help="folder for the executed copy (default: reports/notebooks/)"),
         PARAMETER)
def cmd_notebook(args: argparse.Namespace) -> int:
    from .render import study

    failed = 0
    for name, outcome in study.execute_notebooks(args.notebook, Path(args.out or REPORTS / "notebooks"),
                                                 dict(args.parameter or [])):
        if isinstance(outcome, HotpathError):
            print(f"hotpath: {name}: {outcome}", file=sys.stderr)
            failed = 2
        else:
            _wrote(outcome)
    return failed


@command("overview", "reports/index.html and index.md: one row per case",
         profile_arg(),
         arg("--out", help="the reports folder to write index.html into (default: reports/)"))
def cmd_overview(args: argparse.Namespace) -> int:
    from .render import overview

    get_profile(args.profile)
    _wrote(overview.write(args.profile, Path(args.out) if args.out else REPORTS))
    return 0


@command("docs", "rewrite the figures README.md and docs/ quote from data/reference/",
         arg("--check", action="store_true", help="only say which quoted blocks are stale"))
def cmd_docs(args: argparse.Namespace) -> int:
    from .render import docs

    if args.check:
        found = docs.stale()
        for where in found:
            print(f"hotpath: stale: {where} (make docs rewrites it)", file=sys.stderr)
        return 1 if found else 0
    for name in docs.write():
        _wrote(name)
    return 0


@command("compare", "two JMH JSON files compared, or two builds (jars or classpaths) measured "
                    "and compared, into a report",
         arg("baseline", help="the baseline: a JMH JSON file, or a build (a JMH benchmark jar, "
                              "or a classpath a:b:c), or a folder of a measured run to render again"),
         arg("candidate", nargs="?", help="the candidate: of the same kind as the baseline"),
         arg("--param", help="JSON: compare two values of this @Param within the baseline file"),
         arg("--baseline-value", help="with --param: the value that is the baseline"),
         arg("--out", help="report folder (default: reports/compare, or reports/ab/<name> for builds)"),
         Group("two builds", two_builds(then=(
             arg("--budget", help="time for the benchmarks (20m, 1h): rows stop taking forks when "
                                  "it is spent (default: the profile's, 20 min)"),
             arg("--profile", help="fork length and caps (default: ab, the full profile's forks)"),
             arg("--shard", default="",
                 help="k/N: only the k-th of N shards of the rows (hotpath shards --baseline .. "
                      "--candidate .. lists them), into data/results/ab-shards/<name>/<k>-of-<N>/"),
             arg("--results-dir", help="folder for the run's folder (default: data/results/ab)")))))
def cmd_compare(args: argparse.Namespace) -> int:
    """Two finished JMH runs (JSON files) compared; two builds (jars or classpaths) measured
    and compared; or a run of two builds (its folder) rendered again. The files' kind says which."""
    from .analyze import ab as ab_run

    if args.candidate is None and Path(args.baseline).is_dir() and ab_run.is_run(Path(args.baseline)):
        _wrote(report.render_ab(Path(args.baseline), _out(args)), "/report.html", headline_too=True)
        return 0
    results = [looks_like_results(a) for a in (args.baseline, args.candidate) if a is not None]
    if all(results):
        _wrote(report.compare_runs(Path(args.baseline), Path(args.candidate) if args.candidate else None,
                                   _out(args), args.param or "", args.baseline_value or ""),
               "/report.html", headline_too=True)
        return 0
    if args.candidate is None:
        raise HotpathError(f"{args.baseline}: give a candidate build beside it (a JMH benchmark jar "
                           f"or a classpath), or two JMH JSON files")
    if any(results):
        raise HotpathError("one side is a JMH results file and the other a build: give two JSON "
                           "files to compare finished runs, or two builds to measure them")
    return measure_builds(args)


def measure_builds(args: argparse.Namespace) -> int:
    """Measure two builds into data/results/ab/<name>/, then render reports/ab/<name>/; one
    shard of them (--shard) into data/results/ab-shards/<name>/<k>-of-<N>/, in its share of the
    budget, rendered only once the shards are merged."""
    from .analyze import ab as ab_run
    from .measure import ab, cuts, shards

    if args.shard:
        k, n = shards.parse(args.shard)
        profile, baseline, candidate, selection, name, cut = _builds_cut(args, n)
        shard = cut[k - 1]
        print(f"hotpath: shard {shard.label} on {shards.machine_name()}: {shards.held(shard)} of {name}")
        _wrote(ab.run(baseline, candidate, selection, profile,
                      budget_s=cuts.budget_of(args.budget, profile, shard, cut), name=name, shard=shard))
        return 0
    profile, baseline, candidate, selection, name = _two_builds(args)
    folder = ab.run(baseline, candidate, selection, profile,
                    budget_s=cuts.budget_of(args.budget, profile), name=name,
                    out=Path(args.results_dir) / name if args.results_dir else None)
    _wrote(folder)
    _wrote(report.render_ab(folder, _out(args)), "/report.html", headline_too=True)
    failed = ab_run.failed(ab_run.read_manifest(folder))
    for _, f in failed.iterrows():
        print(f"hotpath: failed: {f['benchmark']}({f['params']}): {f['error']}", file=sys.stderr)
    return 1 if len(failed) else 0


@command("aa", "the A/A run: identical code as two sides, its false alarms (data/reference/aa/, "
               "reports/aa/)",
         arg("--budget", help="time for the benchmarks (default: the aa profile's, 1h30m)"),
         arg("--case", help="only these cases' rows (comma list; default: every case)"),
         arg("--results", help="the run's folder (default: data/reference/aa)"),
         arg("--out", help="report folder (default: reports/aa)"),
         RENDER_ONLY)
def cmd_aa(args: argparse.Namespace) -> int:
    from .measure import aa, forkplan

    if not args.render_only:
        _wrote(aa.run(forkplan.parse_budget(args.budget),
                      [c.strip() for c in args.case.split(",")] if args.case else None,
                      Path(args.results) if args.results else None))
    folder = Path(args.results) if args.results else aa.OUT
    _wrote(report.render_aa(folder, _out(args)), "/report.html", headline_too=True)
    return 0


@command("replay", "a profile's plan replayed on a two-sided run's recorded forks (each fork "
                   "drawn from them): what a design would decide, in seconds, before a long run "
                   "is spent on it",
         arg("folder", help="the run's folder (ab.json, baseline.json, candidate.json), "
                            "e.g. data/reference/aa"),
         profile_arg("aa", "the design replayed (default: aa)"),
         arg("--set", action="append", metavar="FIELD=VALUE",
             help="change a profile field for the replay, e.g. forks=48 or "
                  "drop_out_of_reach=false (repeatable)"),
         arg("--budget", help="the budget (default: the profile's)"),
         arg("--seeds", type=int, default=3, help="replays, each with its own draws (default: 3)"),
         arg("--same-code", action="store_true",
             help="both sides are the same code (an A/A): draw each side's forks from both sides'"))
def cmd_replay(args: argparse.Namespace) -> int:
    from .measure import forkplan, replay
    from .measure.profiles import with_settings

    profile = with_settings(get_profile(args.profile), args.set or [])
    run = replay.load(Path(args.folder))
    budget = forkplan.parse_budget(args.budget or profile.budget)
    if budget is None:
        raise HotpathError(f"profile {profile.name!r} has no budget: give one with --budget")
    print(f"hotpath: {args.folder}: {len(run.rows)} rows, profile {profile.name}"
          + (f" with {', '.join(args.set)}" if args.set else "")
          + f", budget {forkplan.format_duration(budget)}, forks drawn from "
          + ("both sides' recorded forks (same code)" if args.same_code else "each side's own"))
    print("\n".join(replay.table(run, profile, budget, args.seeds, args.same_code)))
    return 0


@command("against-reference", "a run's time rows against the committed reference's: the rows "
                              "whose 95%% intervals, each widened by 15%%, do not overlap (exit 1 if any)",
         case_arg(), profile_arg(help="the run: data/results/<profile>/ (default: quick)"),
         arg("--run", help="a folder of <case>.json files instead of the profile's"),
         arg("--reference", help="the reference's folder (default: data/reference)"),
         arg("--widen", type=float, default=against.MACHINE_SPREAD,
             help="each interval's factor for the differences between machines: low/w, "
                  "high*w (default: %(default)s)"))
def cmd_against_reference(args: argparse.Namespace) -> int:
    """A run's time rows held against the committed reference's: the rows whose 95% intervals,
    each widened for the differences between machines, do not overlap. Exit 0 when none
    contradicts, 1 when some do; every file is read before anything is printed."""
    from .paths import REFERENCE

    profile = get_profile(args.profile)
    case_ids = _cases(args.case)
    run = Path(args.run) if args.run else results_folder(profile.name)
    reference = Path(args.reference or REFERENCE)
    held = against.hold_folders(case_ids, run, reference, args.widen,
                                {c: get_case(c).baseline for c in case_ids})
    print(against_text.text(held, against_text.folder_of(run), against_text.folder_of(reference)), end="")
    return 1 if held.contradicting else 0


@command("host-check", "how the host runs a row of the committed A/A today (about 40 s): its "
                       "fork spread and time against the A/A's (exit 1 if too noisy or slow for a "
                       "run that decides verdicts)",
         arg("--wait", default="",
             help="check again until the host is quiet, for at most this long (45m, 3h); "
                  "then 'make aa' or a full run can start"),
         arg("--every", default="", help="how often a waiting check runs (default: 10m)"))
def cmd_host_check(args: argparse.Namespace) -> int:
    from .measure import forkplan, hostcheck

    wait_s = forkplan.parse_budget(args.wait, "wait")
    if wait_s:
        every_s = forkplan.parse_budget(args.every, "interval") or hostcheck.EVERY_S
        print(f"hotpath: waiting up to {forkplan.format_duration(wait_s)} for a quiet host, a check "
              f"every {forkplan.format_duration(every_s)}", flush=True)
        found = hostcheck.wait_until_quiet(wait_s, every_s,
                                           log=lambda line: print(line, flush=True))
    else:
        found = hostcheck.measure()
        print(f"hotpath: {found.describe()}")
    print(hostcheck.verdict_line(found))
    return 0 if found.quiet else 1


@command("check", "validate a case and profile name", case_arg(), profile_arg())
def cmd_check(args: argparse.Namespace) -> int:
    get_profile(args.profile)
    _cases(args.case)
    return 0


@command("cases", "list the cases that exist in the tree",
         arg("--all", action="store_true", help="also the ones not built yet"))
def cmd_cases(args: argparse.Namespace) -> int:
    for case in (CASES.values() if args.all else existing_cases()):
        print(case.id)
    return 0


@command("precision", "per time row: fork CV, 95%% CI half-width, forks for +-3%%",
         arg("files", nargs="*", help="JMH JSON files (default: the profile's results)"),
         case_arg(), profile_arg("reference"),
         arg("--format", choices=("text", "md"), default="text"))
def cmd_precision(args: argparse.Namespace) -> int:
    import pandas as pd

    paths = [Path(f) for f in args.files] or [results_file(args.profile, c) for c in _cases(args.case)]
    rows = compare.precision(pd.concat([load.read_results(p).frame for p in paths], ignore_index=True))
    print(tables.as_text(tables.precision_table(rows), args.format), end="")
    print(compare.precision_summary(rows))
    return 0


@command("profiles", "list the benchmark profiles")
def cmd_profiles(args: argparse.Namespace) -> int:
    for p in PROFILES.values():
        print(f"{p.name:9} {p.describe()}: {p.purpose}")
    return 0


@command("new-case", "write a new case that runs green from the start",
         arg("name", help="the case id: lower-case letters and digits"))
def cmd_new_case(args: argparse.Namespace) -> int:
    from . import scaffold
    from .paths import ROOT

    written = scaffold.create(ROOT, args.name)
    print(f"hotpath: case {args.name!r} written; it builds, tests and reports as it is. "
          f"Fill in, in this order:")
    for path in written:
        print(f"  {path.relative_to(ROOT)}")
    print(f"then: make test; make report CASE={args.name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except HotpathError as e:
        print(f"hotpath: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hotpath: interrupted; earlier results and reports are untouched", file=sys.stderr)
        return 130
