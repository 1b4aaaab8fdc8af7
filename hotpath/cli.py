"""hotpath: JMH matrices to JSON, JSON to reports (HTML, Markdown, Jira) and tables.

The study's cases run through `bench`, `report`, `overview` and `profile`; any JMH JSON file
through `table` and `compare`; `hotpath <command> --help` says more of each."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# What a command needs beyond these is imported in the command: `hotpath check` and `--help`
# start without pandas, SciPy and Matplotlib (2 s of imports).
from .analyze.spread import MACHINE_SPREAD
from .render.written import Written
from .cases import CASES, case_ids as _cases, existing_cases, get_case
from .commandline import PARAMETER, SELECTION, Commands, Group, arg, case_arg, out_arg, profile_arg, two_builds
from .errors import HotpathError
from .jmh import looks_like_results
from .paths import REPORTS, reports_folder, results_file, results_folder
from .measure.profiles import PROFILES, get_profile, parse_budget

command = Commands()

#: Each command that can write into the study's committed data (data/, but data/results/) takes
#: the name of the run it would replace there, or refuses before anything starts.
REPLACE = arg("--replace", metavar="NAME",
              help="replace the committed run this would write over: reference (bench "
                   "--profile reference), aa, matrix, demos (two builds into data/reference/ab/), "
                   "mechanisms (bench --profile mechanisms into data/reference/mechanisms/)")


def parser() -> argparse.ArgumentParser:
    return command.parser("hotpath", __doc__)


def _wrote(done: Path | Written) -> None:
    """'hotpath: wrote <path>' (or kept it), and a report's verdict too, so a run ends with what
    it found."""
    from .render import report

    done = done if isinstance(done, Written) else Written(done)
    print(f"hotpath: {'kept, its inputs unchanged:' if done.kept else 'wrote'} {done.path}{done.page}")
    text = report.headline_of(done.path) if done.headline else None
    if text:
        print(f"hotpath: {text}")


def _report(path: Path) -> Written:
    return Written(path, "/report.html", headline=True)


def _out(args: argparse.Namespace) -> Path | None:
    return Path(args.out) if args.out else None


# -- commands: each returns its exit status, or what it wrote (then 0) --------------------------


@command("table", "print the comparison table of any JMH JSON file",
         arg("file"),
         arg("--baseline", default="old", help="the baseline variant (default: old)"),
         arg("--param", help="pair on this @Param's values instead of 'variant'"),
         arg("--format", choices=("text", "md", "jira"), default="text"),
         arg("--gc", action="store_true", help="add GC count and GC time columns"))
def cmd_table(args: argparse.Namespace) -> int:
    from .render import tables

    table, unpaired = tables.file_table(args.file, args.baseline, args.param, args.gc)
    print(tables.as_text(table, args.format), end="")
    print("".join(f"{line}\n" for line in unpaired), end="", file=sys.stderr)
    return 0


@command("bench", "run a case's JMH matrix to data/results/<profile>/",
         case_arg(), profile_arg(),
         arg("--budget", default="",
             help="time for the whole run (45m, 1h30m, 600s): a sequential profile stops "
                  "taking forks when it is spent; default: the profile's"),
         arg("--stale-only", action="store_true",
             help="only the cases whose results are missing or older than the jar's classes"),
         arg("--shard", default="", help="k/N: only the k-th of N shards of the run (hotpath shards "
                                         "lists them), into data/results/<profile>/shards/<k>-of-<N>/"),
         out_arg("the folder for the results files (default: data/results/<profile>/; for the "
                 "reference profile data/reference/, committed: see --replace)"),
         REPLACE)
def cmd_bench(args: argparse.Namespace):
    from .measure import study

    profile = get_profile(args.profile)
    first = None
    for path in study.bench_cases(_cases(args.case), profile, args.budget, args.shard,
                                  args.stale_only, out=_out(args), replace=args.replace or ""):
        first = first or path
        yield path
    if profile.name == "reference" and first and not args.shard:
        # the host check saw 40 s before it; the run's own forks say whether the host held
        from .analyze import fitness

        folder = Path(first).parent
        print(f"hotpath: {folder}: {fitness.of(folder).said()}")


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
    """The listing goes on stderr and, with --json, the JSON into a file too (a CI job's output:
    a make run's own lines cannot get into it)."""
    from . import runtimes
    from .measure import cuts, shards

    if args.baseline or args.candidate:
        if not (args.baseline and args.candidate):
            raise HotpathError("two builds are cut into shards with both --baseline and --candidate")
        cut = _two_builds(args).cut(args.shards)
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
    from .measure.study import TwoBuilds

    return TwoBuilds.of(args.baseline, args.candidate, args.baseline_name, args.candidate_name,
                        args.bench, args.p, args.name, args.profile)


@command("merge", "join the shards' folders of one run into data/results/<profile>/ (checked: "
                  "one commit, one profile, every shard once)",
         arg("folders", nargs="+", help="the shards' folders, as each shard wrote it"),
         profile_arg(),
         out_arg("the folder to write into (default: data/results/<profile>/; for two builds "
                 "data/results/ab/<name>/)"),
         REPLACE)
def cmd_merge(args: argparse.Namespace):
    from .measure import study

    return study.join_shards([Path(f) for f in args.folders], args.profile, _out(args),
                             args.replace or "")


@command("matrix", "the JDK x GC matrix: each runtime cell, then reports/<case>/matrix/",
         case_arg(), profile_arg("matrix"),
         arg("--cells", default="all",
             help="all (both JDKs x G1, Parallel, ZGC), pressure (JDK 17, G1, a 64 MB heap), "
                  "or a comma list such as jdk17-g1,jdk25-zgc"),
         arg("--render-only", action="store_true", help="render the cells already measured"),
         arg("--budget", default="", help="time for each case's cells together (default: the profile's)"),
         arg("--shard", default="", help="k/N: only the k-th of N shards of the matrix "
                                         "(hotpath shards --cells lists them)"),
         out_arg("a folder for the cells (<folder>/<cell>/<case>.json) instead of the profile's "
                 "(for the matrix profile data/matrix/, committed: see --replace)"),
         REPLACE)
def cmd_matrix(args: argparse.Namespace):
    """A shard's cells are not reported: its report waits for the merge."""
    from .measure import study
    from .render import report

    profile = get_profile(args.profile)
    for case_id, written, skipped in study.matrix_cells(_cases(args.case), profile, args.cells,
                                                        args.budget, args.shard, not args.render_only,
                                                        out=_out(args), replace=args.replace or ""):
        yield from written
        if skipped:
            print(f"hotpath: {case_id}: skipped {len(skipped)} cell(s): {', '.join(skipped)}",
                  file=sys.stderr)
        if not args.shard:
            yield _report(report.render_matrix(case_id, profile.name,
                                               reports_folder(profile.name) / case_id / "matrix",
                                               folder=_out(args)))


@command("profile", "allocation flame graphs into the profile's reports/<case>/flames/",
         case_arg(), profile_arg())
def cmd_profile(args: argparse.Namespace):
    from .measure import added
    from .render import report

    profile = get_profile(args.profile)
    for case_id in _cases(args.case):
        yield added.flame_graphs(get_case(case_id), profile)
        # A report rendered before the flame graphs existed would still say "none yet".
        results = results_file(profile.name, case_id)
        folder = reports_folder(profile.name) / case_id
        if results.is_file() and (folder / "report.html").is_file():
            yield Written(report.render_case(case_id, results, folder), "/report.html")


@command("sites", "the allocation-site pass alone, for a finished run's row-sides: "
                  "<case>.sites.json beside its results",
         case_arg(), profile_arg(),
         arg("--ab", help="a run of two builds' folder (data/reference/ab/<name>): its sites"))
def cmd_sites(args: argparse.Namespace):
    from .measure import study

    return study.add_pass("sites", _cases(args.case), get_profile(args.profile), args.ab or "")


@command("cpu", "CPU samples alone, in forks of their own, for a finished run's row-sides: "
                "<case>.cpu.json beside its results",
         case_arg(), profile_arg(),
         arg("--ab", help="a run of two builds' folder (data/reference/ab/<name>): its CPU samples"))
def cmd_cpu(args: argparse.Namespace):
    from .measure import study

    return study.add_pass("cpu", _cases(args.case), get_profile(args.profile), args.ab or "")


def _failed(outcomes) -> int:
    """Each outcome said: what was written, or (on stderr) why not; 2 if any failed."""
    failed = 0
    for name, outcome in outcomes:
        if isinstance(outcome, HotpathError):
            print(f"hotpath: {name}{outcome}", file=sys.stderr)
            failed = 2
        else:
            _wrote(outcome)
    return failed


@command("report", "execute a case's notebook into reports/<case>/ (another profile's into "
                   "reports/<profile>/<case>/)",
         case_arg(), profile_arg(),
         arg("--results", help="a results file instead of data/results/<profile>/<case>.json"),
         out_arg("a folder to write <case>/ into instead of reports/ (reports/<profile>/ for a "
                 "profile other than quick)"),
         arg("--overview", action="store_true",
             help="also write index.html and index.md over every case with results"),
         arg(*PARAMETER[0], **{**PARAMETER[1], "help": "override a notebook parameter"}))
def cmd_report(args: argparse.Namespace) -> int:
    """Each case's report, then its JDK x GC matrix where one was measured, side by side
    (hotpath.render.study); the reference's with its committed runs of two builds and A/A.
    Reports and an overview whose inputs have not changed are kept (hotpath.render.reuse)."""
    from .render import study

    get_profile(args.profile)
    return _failed(("", done) for done in study.render(
        args.profile, _cases(args.case), _out(args) or reports_folder(args.profile), dict(args.parameter or []),
        Path(args.results) if args.results else None, with_overview=args.overview,
        with_reference_runs=args.profile == "reference" and args.case in ("", "all") and not args.results))


@command("notebook", "execute notebooks (Python or Java) with parameters",
         arg("notebook", nargs="+"), out_arg("folder for the executed copy (default: reports/notebooks/)"),
         PARAMETER)
def cmd_notebook(args: argparse.Namespace) -> int:
    from .render import study

    return _failed((f"{name}: ", outcome) for name, outcome in study.execute_notebooks(
        args.notebook, Path(args.out or REPORTS / "notebooks"), dict(args.parameter or [])))


@command("overview", "reports/index.html and index.md: one row per case",
         profile_arg(), out_arg("the reports folder to write index.html into (default: the "
                                "profile's: reports/, or reports/<profile>/)"))
def cmd_overview(args: argparse.Namespace):
    from .render import overview

    get_profile(args.profile)
    return [overview.write(args.profile, _out(args) or reports_folder(args.profile))]


@command("docs", "rewrite the figures README.md and docs/ quote from data/reference/",
         arg("--check", action="store_true", help="only say which quoted blocks are stale"))
def cmd_docs(args: argparse.Namespace):
    from .render import docs

    if not args.check:
        return docs.write()
    found = docs.stale()
    print("".join(f"hotpath: stale: {where} (make docs rewrites it)\n" for where in found), end="",
          file=sys.stderr)
    return 1 if found else 0


@command("compare", "two JMH JSON files compared, or two builds (jars or classpaths) measured "
                    "and compared, into a report",
         arg("baseline", help="the baseline: a JMH JSON file, or a build (a JMH benchmark jar, "
                              "or a classpath a:b:c), or a folder of a measured run to render again"),
         arg("candidate", nargs="?", help="the candidate: of the same kind as the baseline"),
         arg("--param", help="JSON: compare two values of this @Param within the baseline file"),
         arg("--baseline-value", help="with --param: the value that is the baseline"),
         out_arg("report folder (default: reports/compare, or reports/ab/<name> for builds)"),
         Group("two builds", two_builds(then=(
             arg("--budget", help="time for the benchmarks (20m, 1h): rows stop taking forks when "
                                  "it is spent (default: the profile's, 20 min)"),
             arg("--profile", help="fork length and caps (default: ab, the full profile's forks)"),
             arg("--shard", default="",
                 help="k/N: only the k-th of N shards of the rows (hotpath shards --baseline .. "
                      "--candidate .. lists them), into data/results/ab-shards/<name>/<k>-of-<N>/"),
             arg("--results-dir", help="folder for the run's folder (default: data/results/ab)"),
             REPLACE))))
def cmd_compare(args: argparse.Namespace):
    """The files' kind says which: two JSON files, a run of two builds' folder, or two builds."""
    from .analyze import ab as ab_run
    from .render import report

    if args.candidate is None and Path(args.baseline).is_dir() and ab_run.is_run(Path(args.baseline)):
        return [_report(report.render_ab(Path(args.baseline), _out(args)))]
    results = [looks_like_results(a) for a in (args.baseline, args.candidate) if a is not None]
    if all(results):
        return [_report(report.compare_runs(Path(args.baseline), args.candidate and Path(args.candidate),
                                            _out(args), args.param or "", args.baseline_value or ""))]
    if args.candidate is None:
        raise HotpathError(f"{args.baseline}: give a candidate build beside it (a JMH benchmark jar "
                           f"or a classpath), or two JMH JSON files")
    if any(results):
        raise HotpathError("one side is a JMH results file and the other a build: give two JSON "
                           "files to compare finished runs, or two builds to measure them")
    return measure_builds(args)


def measure_builds(args: argparse.Namespace) -> int:
    """Two builds measured, then their report; a shard's is rendered once the shards are merged."""
    from .analyze import ab as ab_run
    from .render import report

    folder = _two_builds(args).measure(args.budget or "", args.shard, args.results_dir or "",
                                       replace=args.replace or "")
    _wrote(folder)
    if args.shard:
        return 0
    _wrote(_report(report.render_ab(folder, _out(args))))
    failed = ab_run.failed(ab_run.read_manifest(folder))
    for _, f in failed.iterrows():
        print(f"hotpath: failed: {f['benchmark']}({f['params']}): {f['error']}", file=sys.stderr)
    return 1 if len(failed) else 0


@command("series", "a patch series: the baseline against the patch up to each step (a build per "
                   "commit), each step a run of two builds, and which step pays, into a report",
         arg("baseline", help="the baseline build (a JMH benchmark jar, or a classpath a:b:c), or a "
                              "series' folder to render again"),
         arg("steps", nargs="*", help="each step's build in order, each the patch up to one more commit"),
         *SELECTION,
         arg("--name", help="the series' name: data/results/series/<name>/ and reports/series/<name>/ "
                            "(default: <baseline>-series-<last step>)"),
         arg("--baseline-name", help="the baseline's name in the report (default: its file name)"),
         arg("--step-names", help="the steps' names in the report, comma-separated, one a step "
                                  "(default: each one's file name)"),
         arg("--budget", help="time for the benchmarks, split evenly among the steps (default: the "
                              "profile's, 20 min)"),
         arg("--profile", help="fork length and caps (default: ab, as two builds)"),
         arg("--results-dir", help="folder for the series' folder (default: data/results/series)"),
         out_arg("report folder (default: reports/series/<name>)"))
def cmd_series(args: argparse.Namespace) -> int:
    """Every step measured, then the series' report; a series' folder alone is rendered again."""
    from . import runs
    from .analyze import ab as ab_run
    from .analyze import series as series_run
    from .measure.series import Series
    from .render import report

    if not args.steps and (Path(args.baseline) / runs.SERIES_MANIFEST).is_file():
        _wrote(_report(report.render_series(Path(args.baseline), _out(args))))
        return 0
    folder = Series.of(args.baseline, args.steps, args.baseline_name, args.step_names, args.bench,
                       args.p, args.name, args.profile).measure(args.budget or "", args.results_dir or "")
    _wrote(folder)
    _wrote(_report(report.render_series(folder, _out(args))))
    failed = [(run.names["candidate"], f) for run in series_run.read(folder).steps
              for _, f in ab_run.failed(run.manifest).iterrows()]
    for step, f in failed:
        print(f"hotpath: failed in the run of {step}: {f['benchmark']}({f['params']}): {f['error']}",
              file=sys.stderr)
    return 1 if failed else 0


@command("aa", "the A/A run: identical code as two sides, its false alarms (data/reference/aa/, "
               "reports/aa/)",
         arg("--budget", help="time for the benchmarks (default: the aa profile's, 1h30m)"),
         arg("--case", help="only these cases' rows (comma list; default: every case)"),
         arg("--results", help="the run's folder (default: data/reference/aa, committed: see --replace)"),
         out_arg("report folder (default: reports/aa)"),
         arg("--render-only", action="store_true", help="render the run already measured"),
         REPLACE)
def cmd_aa(args: argparse.Namespace):
    from .measure import aa, study
    from .render import report

    if not args.render_only:
        study.refuse_overwrite(Path(args.results) if args.results else aa.OUT, "aa",
                               args.replace or "", bool(args.results))
        yield aa.run(parse_budget(args.budget),
                     [c.strip() for c in args.case.split(",")] if args.case else None,
                     Path(args.results) if args.results else None)
    yield _report(report.render_aa(Path(args.results) if args.results else aa.OUT, _out(args)))


@command("replay", "a profile's plan replayed on a two-sided run's recorded forks (each fork "
                   "drawn from them): what a design would decide, in seconds, before a long run "
                   "is spent on it",
         arg("folder", help="the run's folder (ab.json, baseline.json, candidate.json), "
                            "e.g. data/aa-runs/2026-11-26"),
         profile_arg("aa", "the design replayed (default: aa)"),
         arg("--set", action="append", metavar="FIELD=VALUE",
             help="change a profile field for the replay, e.g. forks=48 or "
                  "drop_out_of_reach=false (repeatable)"),
         arg("--budget", help="the budget (default: the profile's)"),
         arg("--seeds", type=int, default=3, help="replays, each with its own draws (default: 3)"),
         arg("--same-code", action="store_true",
             help="both sides are the same code (an A/A): draw each side's forks from both sides'"))
def cmd_replay(args: argparse.Namespace) -> int:
    from .measure import replay
    from .measure.profiles import with_settings

    profile = with_settings(get_profile(args.profile), args.set or [])
    for line in replay.lines(args.folder, profile, args.budget, args.seeds, args.same_code,
                             args.set or []):
        print(line, flush=True)
    return 0


@command("against-reference", "a run's time rows against the committed reference's: the rows "
                              "whose 95%% intervals, each widened by 15%%, do not overlap (exit 1 if any)",
         case_arg(), profile_arg(help="the run: data/results/<profile>/ (default: quick)"),
         arg("--run", help="a folder of <case>.json files instead of the profile's"),
         arg("--reference", help="the reference's folder (default: data/reference)"),
         arg("--widen", type=float, default=MACHINE_SPREAD,
             help="each interval's factor for the differences between machines: low/w, "
                  "high*w (default: %(default)s)"))
def cmd_against_reference(args: argparse.Namespace) -> int:
    """Every file is read before anything is printed."""
    from .analyze import against
    from .paths import REFERENCE
    from .render import against as against_text

    cases = _cases(args.case)
    run = Path(args.run) if args.run else results_folder(get_profile(args.profile).name)
    reference = Path(args.reference or REFERENCE)
    held = against.hold_folders(cases, run, reference, args.widen,
                                {c: get_case(c).baseline for c in cases})
    print(against_text.text(held, against_text.folder_of(run), against_text.folder_of(reference)), end="")
    return 1 if held.contradicting else 0


@command("host-check", "how the host runs a row of the 2026-11-26 A/A today (about 40 s): its "
                       "fork spread and time against the A/A's (exit 1 if too noisy or slow for a "
                       "run that decides verdicts)",
         arg("--wait", default="",
             help="check again until the host is quiet, for at most this long (45m, 3h); "
                  "then 'make aa' or a full run can start"),
         arg("--every", default="", help="how often a waiting check runs (default: 10m)"))
def cmd_host_check(args: argparse.Namespace) -> int:
    from .measure import hostcheck

    found = hostcheck.check(args.wait, args.every, log=lambda line: print(line, flush=True))
    print(hostcheck.verdict_line(found))
    return 0 if found.quiet else 1


@command("promote", "make a reference run in a folder of its own the reference once it is whole "
                    "and fit (the one it replaces kept in data/reference-runs/<its day>/)",
         arg("run", help="the run's folder (make bench PROFILE=reference OUT=<folder>)"))
def cmd_promote(args: argparse.Namespace) -> int:
    from .analyze import fitness
    from .measure import promotion

    if not args.run:
        raise HotpathError("RUN=<folder>: the reference run to promote (make bench PROFILE=reference OUT=<folder>)")
    run = Path(args.run)
    wrong = promotion.whole(run) if run.is_dir() else [f"{run} is not a folder"]
    if wrong:
        raise HotpathError(f"{run} cannot be the reference: " + "; ".join(wrong))
    found = fitness.of(run)
    if not found.fit:
        raise HotpathError(f"{run}: {found.said()}; the reference stays as it is")
    print(f"hotpath: {run}: {found.said()}")
    promotion.promote(run)
    print("hotpath: then `make docs`, `make report PROFILE=reference`, the tests, and one commit of "
          "data/reference/ and data/reference-runs/")
    return 0


@command("check", "validate a case and profile name", case_arg(), profile_arg())
def cmd_check(args: argparse.Namespace) -> int:
    get_profile(args.profile)
    _cases(args.case)
    return 0


@command("cases", "list the cases that exist in the tree",
         arg("--all", action="store_true", help="also the ones not built yet"))
def cmd_cases(args: argparse.Namespace) -> int:
    print("".join(f"{case.id}\n" for case in (CASES.values() if args.all else existing_cases())), end="")
    return 0


@command("precision", "per time row: fork CV, 95%% CI half-width, forks for +-3%%",
         arg("files", nargs="*", help="JMH JSON files (default: the profile's results)"),
         case_arg(), profile_arg("reference"),
         arg("--format", choices=("text", "md"), default="text"))
def cmd_precision(args: argparse.Namespace) -> int:
    import pandas as pd

    from .analyze import compare, load
    from .render import tables

    paths = [Path(f) for f in args.files] or [results_file(args.profile, c) for c in _cases(args.case)]
    rows = compare.precision(pd.concat([load.read_results(p).frame for p in paths], ignore_index=True))
    print(tables.as_text(tables.precision_table(rows), args.format), end="")
    print(compare.precision_summary(rows))
    return 0


@command("profiles", "list the benchmark profiles")
def cmd_profiles(args: argparse.Namespace) -> int:
    print("".join(f"{p.name:9} {p.describe()}: {p.purpose}\n" for p in PROFILES.values()), end="")
    return 0


@command("new-case", "write a new case that runs green from the start",
         arg("name", help="the case id: lower-case letters and digits"))
def cmd_new_case(args: argparse.Namespace) -> int:
    from . import scaffold
    from .paths import ROOT

    written = scaffold.create(ROOT, args.name)
    print(f"hotpath: case {args.name!r} written; it builds, tests and reports as it is. "
          f"Fill in, in this order:")
    print("".join(f"  {path.relative_to(ROOT)}\n" for path in written), end="")
    print(f"then: make test; make report CASE={args.name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        done = args.func(args)
        if isinstance(done, int):
            return done
        for written in done:  # what the command wrote, each said as it comes
            _wrote(written)
        return 0
    except HotpathError as e:
        print(f"hotpath: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hotpath: interrupted; earlier results and reports are untouched", file=sys.stderr)
        return 130
