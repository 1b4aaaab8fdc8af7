"""hotpath: JMH matrices to JSON, JSON to reports (HTML, Markdown, Jira) and tables.

The study's cases run through `bench`, `report`, `overview` and `profile`; any JMH JSON file
through `table` and `compare`; `hotpath <command> --help` says more of each."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

from .measure import bench
from .measure import matrix as measure_matrix
from .analyze import against, compare, load
from .render import fmt, matrix, report, tables, units
from .render import against as against_text
from .cases import CASES, existing_cases, get_case
from .errors import HotpathError
from .paths import REPORTS, results_file
from .measure.profiles import PROFILES, get_profile


def _cases(arg: str) -> list[str]:
    """'all' (or empty) means every case that exists in the tree; else a comma list."""
    if arg in ("", "all"):
        return [c.id for c in existing_cases()]
    ids = [a.strip() for a in arg.split(",") if a.strip()]
    for case_id in ids:
        case = get_case(case_id)
        if not case.exists:
            raise HotpathError(f"case {case_id!r} is not built yet (no models or notebook)")
    return ids


def plain_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Every benchmark row as measured, for files with nothing to pair."""
    rows = []
    for (benchmark, params, variant, mode), group in frame.groupby(
            ["benchmark", "params", "variant", "mode"], sort=False):
        primary = group[group["metric"] == "score"].iloc[0]
        alloc = group[group["metric"] == compare.ALLOC]
        profiled = group["metric"].str.startswith("gc.").any()
        scale = units.score_scale(primary["unit"], [primary["score"]])
        rows.append({
            "benchmark": benchmark.rpartition(".")[2] + (f"({params})" if params else ""),
            "variant": variant, "mode": mode,
            "score": fmt.fmt_score(primary["score"], primary["error"], scale),
            "unit": scale.unit,
            "B/op": fmt.fmt_bytes(alloc.iloc[0]["score"]) if not alloc.empty
            else ("0" if profiled else "—"),
        })
    table = pd.DataFrame(rows)
    return table if table["variant"].any() else table.drop(columns="variant")


def cmd_table(args: argparse.Namespace) -> int:
    run = load.read_results(args.file)
    frame = compare.by_param(run.frame, args.param) if args.param else run.frame
    comparison = compare.pair(frame, baseline=args.baseline, label=args.param or load.VARIANT)
    if comparison.pairs.empty:
        table = plain_table(frame)
    else:
        table = tables.wide_table(comparison.pairs, gc=args.gc)
    if args.format == "jira":
        print(tables.to_jira(table), end="")
    elif args.format == "md":
        print(tables.to_markdown(table), end="")
    else:
        print(table.to_string(index=False))
    if not comparison.pairs.empty and not comparison.unpaired.empty:
        for _, u in comparison.unpaired.iterrows():
            side = f" {u['variant']}" if u["variant"] else ""
            print(f"unpaired: {u['benchmark']}({u['params']}) [{u['mode']}]{side}: {u['reason']}",
                  file=sys.stderr)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """The cases' benchmarks; a sequential profile runs every case's rows as one plan in one
    time budget (bench.run_together). With --shard k/N only that shard's rows
    (hotpath.measure.shards), in its share of the budget, into its own folder."""
    from .measure import forkplan, hostcheck, shards, stamp

    profile = get_profile(args.profile)
    budget = forkplan.parse_budget(args.budget) if args.budget else forkplan.parse_budget(profile.budget)
    case_ids = _cases(args.case)
    shard = None
    if args.shard:
        k, n = shards.parse(args.shard)
        cut = run_shards(profile, case_ids, n)
        shard = cut[k - 1]
        case_ids = shard.cases
        if budget is not None and not args.budget:
            # the run's budget cut as its rows are: the shards together spend what one machine would
            budget *= shards.share(shard, cut)
        print(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
              f"{shards.held(shard)} of {', '.join(case_ids)}")
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
            print(f"hotpath: wrote {bench.run(get_case(case_id), profile, shard=shard, host_check=host)}")
        return 0
    print(f"hotpath: plan [{profile.name}]: {profile.describe()}")
    print(f"hotpath: budget {forkplan.format_duration(budget)} for {len(case_ids)} case(s), "
          f"one plan: every row's first look before any row's later forks")
    started = time.monotonic()
    for path in bench.run_together([get_case(c) for c in case_ids], profile, budget, shard=shard,
                                   host_check=host):
        print(f"hotpath: wrote {path}")
    print(f"hotpath: benchmarks took {forkplan.format_duration(time.monotonic() - started)} "
          f"of a {forkplan.format_duration(budget)} budget")
    return 0


def run_shards(profile, case_ids: list[str], count: int):
    """The run of these cases under the profile, cut into ``count`` shards (the same cut on
    every machine: it depends on the tree and the jar only)."""
    from .measure import shards

    units = []
    for case_id in case_ids:
        case = get_case(case_id)
        if profile.interleave:
            units += shards.units_of_plan(bench.plan_for(case, profile, bench.JAR))
        else:
            # one JMH run per case: cut by whole cases, costed by their benchmarks
            methods = len(bench.listed_benchmarks(case.benchmarks))
            units.append(shards.whole_case(case_id, methods * profile.fork_estimate_s))
    return shards.split(units, count)


def cmd_shards(args: argparse.Namespace) -> int:
    """Print the run cut into shards as the JSON a CI matrix takes (the listing on stderr): a
    profile's cases, the JDK x GC matrix's cells (--cells) or two builds (--baseline and
    --candidate)."""
    from .measure import runtimes, shards

    if args.baseline or args.candidate:
        if not (args.baseline and args.candidate):
            raise HotpathError("two builds are cut into shards with both --baseline and --candidate")
        _, cut = builds_shards(args, args.shards)
        return _print_cut(cut, args.json)
    profile = get_profile(args.profile or "quick")
    if args.cells:
        cut = matrix_shards(profile, _cases(args.case), runtimes.parse_cells(args.cells), args.shards)
    else:
        cut = run_shards(profile, _cases(args.case), args.shards)
    return _print_cut(cut, args.json)


def _print_cut(cut, json_file: str | None) -> int:
    """The cut's listing on stderr, its JSON on stdout and, where asked, into a file (a CI
    job's output: a make run's own lines cannot get into it)."""
    from .measure import shards

    print(shards.describe(cut), file=sys.stderr)
    print(shards.dumps(cut))
    if json_file:
        Path(json_file).write_text(shards.dumps(cut) + "\n", encoding="utf-8")
    return 0


def _two_builds(args: argparse.Namespace):
    """The profile, the two builds (named apart) and the selection that the arguments give."""
    from .measure import ab, builds

    profile = get_profile(args.profile or "ab")
    baseline = builds.parse(args.baseline, "baseline", args.baseline_name or "")
    candidate = builds.parse(args.candidate, "candidate", args.candidate_name or "")
    baseline, candidate = builds.named_apart(baseline, candidate)
    selection = ab.Selection(include=args.bench or ".", params=ab.parse_params(args.p or []))
    return profile, baseline, candidate, selection


def builds_shards(args: argparse.Namespace, count: int):
    """Two builds' rows under the selection, cut into ``count`` shards (the same cut wherever
    the same jars, selection and name are given); returns the run's pieces and the cut."""
    from .measure import ab, shards

    profile, baseline, candidate, selection = _two_builds(args)
    name = ab.slug(args.name) if args.name else ab.default_name(baseline, candidate)
    _, found = ab.rows_for(baseline, candidate, selection, profile)
    cut = shards.split(shards.units_of_plan(ab.plan_of(name, baseline, found, profile)), count)
    return (baseline, candidate, selection, profile, name), cut


def cmd_merge(args: argparse.Namespace) -> int:
    """Join the shards' folders into the profile's results (or, for two builds, into the run's
    folder), after checking they are one run."""
    from .measure import merge

    folders = [Path(f) for f in args.folders]
    kinds = {merge.is_builds_shard(f) for f in folders}
    if kinds == {True}:
        print(f"hotpath: wrote {merge.merge_builds(folders, Path(args.out) if args.out else None)}")
        return 0
    if len(kinds) > 1:
        raise HotpathError("the folders mix shards of two builds with shards of a profile's "
                           "cases: not one run")
    written = merge.merge([Path(f) for f in args.folders], args.profile,
                          Path(args.out) if args.out else None)
    for path in written:
        print(f"hotpath: wrote {path}")
    return 0


def cmd_matrix(args: argparse.Namespace) -> int:
    """Each runtime cell benchmarked into data/matrix/<cell>/ (unless --render-only), then the
    matrix report. With --shard k/N only that shard's cells, into its own folder, no report."""
    from .measure import runtimes, shards

    profile = get_profile(args.profile)
    cells = runtimes.parse_cells(args.cells)
    case_ids = _cases(args.case)
    shard = None
    if args.shard:
        k, n = shards.parse(args.shard)
        shard = matrix_shards(profile, case_ids, cells, n)[k - 1]
        case_ids = shard.cases
        print(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
              + ", ".join(u.name for u in shard.units))
    for case_id in case_ids:
        if not args.render_only:
            written, skipped = measure_matrix.run(get_case(case_id), profile, cells, args.budget,
                                                  shard=shard)
            for path in written:
                print(f"hotpath: wrote {path}")
            if skipped:
                print(f"hotpath: {case_id}: skipped {len(skipped)} cell(s): {', '.join(skipped)}",
                      file=sys.stderr)
        if shard is None:
            path = report.render_matrix(case_id, profile.name)
            print(f"hotpath: wrote {path}/report.html")
            _print_headline(path)
    return 0


def matrix_shards(profile, case_ids: list[str], cells, count: int):
    """A matrix run cut by (case, cell): each cell of a case is a run of its own."""
    from .measure import runtimes, shards

    found, _ = runtimes.available(cells)
    units = []
    for case_id in case_ids:
        case = get_case(case_id)
        plan = bench.plan_for(case, measure_matrix.profile_of(case, profile), bench.JAR)
        cost = sum(u.cost_s for u in shards.units_of_plan(plan))
        units += [shards.cell_of_case(case_id, cell.id, cost) for cell in found]
    return shards.split(units, count)


def cmd_profile(args: argparse.Namespace) -> int:
    profile = get_profile(args.profile)
    for case_id in _cases(args.case):
        out = bench.flame_graphs(get_case(case_id), profile)
        print(f"hotpath: wrote {out}")
        # A report rendered before the flame graphs existed would still say "none yet".
        results = results_file(profile.name, case_id)
        if results.is_file() and (REPORTS / case_id / "report.html").is_file():
            print(f"hotpath: wrote {report.render_case(case_id, results)}/report.html")
    return 0


def cmd_sites(args: argparse.Namespace) -> int:
    if args.ab:
        from .measure import ab as measure_ab
        print(f"hotpath: wrote {measure_ab.add_sites(Path(args.ab))}")
        return 0
    profile = get_profile(args.profile)
    for case_id in _cases(args.case):
        results = results_file(profile.name, case_id)
        if not results.is_file():
            raise HotpathError(f"{results} is missing: the site pass adds to a finished run "
                               f"('make report CASE={case_id} PROFILE={profile.name}' makes one, "
                               f"its sites included)")
        print(f"hotpath: wrote {bench.add_sites(get_case(case_id), profile, results)}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """Each case's report, then its JDK x GC matrix where one was measured; the cases side by
    side (one kernel start is most of a report's time). Each report is published whole or not
    at all, and the output is printed in case order, whichever finished first. With
    ``--overview``, each worker also makes its case's overview row, and reports/index.html is
    written last, over every case with results. Reports and an overview whose inputs have not
    changed are kept as they are (hotpath.render.reuse)."""
    from .render import overview, reuse

    get_profile(args.profile)
    params = dict(args.parameter or [])
    folder = Path(args.out) if args.out else REPORTS
    matrix_profile = matrix.profile_for(args.profile)
    rendered = _cases(args.case)
    groups = []
    for case_id in rendered:
        results = Path(args.results) if args.results else results_file(args.profile, case_id)
        steps = [(report.render_case, (case_id, results, folder / case_id, params))]
        if not args.results and matrix.cell_files(matrix_profile, case_id):
            steps.append((report.render_matrix, (case_id, matrix_profile, folder / case_id / "matrix")))
        groups.append(steps)
    if args.profile == "reference" and args.case in ("", "all") and not args.results:
        # The committed runs of two builds (data/reference/ab/<name>/) render with the reference.
        from .analyze import ab as ab_run
        from .paths import AB_REFERENCE

        for run in sorted(AB_REFERENCE.glob("*/")) if AB_REFERENCE.is_dir() else []:
            if ab_run.is_run(run):
                groups.append([(report.render_ab, (run, folder / "ab" / run.name))])
        from .paths import AA_REFERENCE

        if ab_run.is_run(AA_REFERENCE):
            groups.append([(report.render_aa, (AA_REFERENCE, folder / "aa"))])
    inputs = reuse.Inputs.read()
    overview_kept = args.overview and report.kept(groups, inputs) and overview.kept(
        inputs, args.profile, folder)
    if args.overview and not overview_kept:
        for case in existing_cases():
            step = (overview.case_row, (args.profile, case.id, folder))
            if case.id in rendered:
                groups[rendered.index(case.id)].append(step)
            else:
                groups.append([step])
    failed, rows = None, {}
    for steps, outcomes in zip(groups, report.render_all(groups, inputs=inputs)):
        for (render, step_args), outcome in zip(steps, outcomes):
            if isinstance(outcome, HotpathError):
                print(f"hotpath: {outcome}", file=sys.stderr)
                failed = 2
            elif render is overview.case_row:
                rows[step_args[1]] = outcome
            else:
                done = "kept, its inputs unchanged:" if isinstance(outcome, reuse.Kept) else "wrote"
                print(f"hotpath: {done} {outcome}/report.html")
                if render in (report.render_case, report.render_ab, report.render_aa):
                    _print_headline(outcome)
    if overview_kept:
        print(f"hotpath: kept, its inputs unchanged: {folder / overview.PAGES[0]}")
    elif args.overview and not failed:
        made = overview.combine([rows.get(c.id) for c in existing_cases()])
        print(f"hotpath: wrote {overview.write(args.profile, folder, made)}")
        overview.keep(inputs, args.profile, folder)
    return failed or 0


def cmd_notebook(args: argparse.Namespace) -> int:
    """Execute notebooks (Python or Java kernel) with -p overrides into reports/notebooks/, side
    by side as the machine's cores allow (each is mostly a kernel's start)."""
    notebooks = [Path(n).resolve() for n in args.notebook]
    for given, notebook in zip(args.notebook, notebooks):
        if not notebook.is_file():
            raise HotpathError(f"{given}: no such notebook")
    out = Path(args.out or REPORTS / "notebooks")
    out.mkdir(parents=True, exist_ok=True)
    params = dict(args.parameter or [])
    groups = [[(report.execute, (nb, out / nb.name, params))] for nb in notebooks]
    failed = 0
    for notebook, (outcome,) in zip(notebooks, report.render_all(groups)):
        if isinstance(outcome, HotpathError):
            print(f"hotpath: {notebook.name}: {outcome}", file=sys.stderr)
            failed = 2
        else:
            print(f"hotpath: wrote {outcome}")
    return failed


def cmd_overview(args: argparse.Namespace) -> int:
    from .render import overview

    get_profile(args.profile)
    folder = Path(args.out) if args.out else REPORTS
    print(f"hotpath: wrote {overview.write(args.profile, folder)}")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    """The figures README.md and docs/ quote, generated from the committed data."""
    from .render import docs

    if args.check:
        found = docs.stale()
        for where in found:
            print(f"hotpath: stale: {where} (make docs rewrites it)", file=sys.stderr)
        return 1 if found else 0
    for name in docs.write():
        print(f"hotpath: wrote {name}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Two finished JMH runs (JSON files) compared; two builds (jars or classpaths) measured
    and compared; or a run of two builds (its folder) rendered again. The files' kind says which."""
    from .analyze import ab as ab_run

    if args.candidate is None and Path(args.baseline).is_dir() and ab_run.is_run(Path(args.baseline)):
        out = report.render_ab(Path(args.baseline), Path(args.out) if args.out else None)
        print(f"hotpath: wrote {out}/report.html")
        _print_headline(out)
        return 0
    if _is_results(args.baseline) and (args.candidate is None or _is_results(args.candidate)):
        out = report.compare_runs(Path(args.baseline), Path(args.candidate) if args.candidate else None,
                                  Path(args.out) if args.out else None, args.param or "",
                                  args.baseline_value or "")
        print(f"hotpath: wrote {out}/report.html")
        _print_headline(out)
        return 0
    if args.candidate is None:
        raise HotpathError(f"{args.baseline}: give a candidate build beside it (a JMH benchmark jar "
                           f"or a classpath), or two JMH JSON files")
    if _is_results(args.baseline) or _is_results(args.candidate):
        raise HotpathError("one side is a JMH results file and the other a build: give two JSON "
                           "files to compare finished runs, or two builds to measure them")
    return measure_builds(args)


def _is_results(text: str) -> bool:
    """A finished run: a .json file, or any file that starts as JSON does."""
    path = Path(text)
    if path.suffix == ".json":
        return True
    if not path.is_file():
        return False
    with path.open("rb") as f:
        return f.read(64).lstrip()[:1] in (b"[", b"{")


def measure_builds(args: argparse.Namespace) -> int:
    """Measure two builds into data/results/ab/<name>/, then render reports/ab/<name>/."""
    from .measure import ab, forkplan

    if args.shard:
        return measure_builds_shard(args)
    profile, baseline, candidate, selection = _two_builds(args)
    budget = forkplan.parse_budget(args.budget) if args.budget else None
    folder = ab.run(baseline, candidate, selection, profile, budget_s=budget, name=args.name or "",
                    out=Path(args.results_dir) / ab.slug(args.name or ab.default_name(baseline, candidate))
                    if args.results_dir else None)
    print(f"hotpath: wrote {folder}")
    out = report.render_ab(folder, Path(args.out) if args.out else None)
    print(f"hotpath: wrote {out}/report.html")
    _print_headline(out)
    from .analyze import ab as ab_run

    failed = ab_run.failed(ab_run.read_manifest(folder))
    for _, f in failed.iterrows():
        print(f"hotpath: failed: {f['benchmark']}({f['params']}): {f['error']}", file=sys.stderr)
    return 1 if len(failed) else 0


def measure_builds_shard(args: argparse.Namespace) -> int:
    """One shard of two builds into data/results/ab-shards/<name>/<k>-of-<N>/, in its share of
    the budget (unless one is given); rendered only once the shards are merged."""
    from .measure import ab, forkplan, shards

    k, n = shards.parse(args.shard)
    (baseline, candidate, selection, profile, name), cut = builds_shards(args, n)
    shard = cut[k - 1]
    budget = forkplan.parse_budget(args.budget) if args.budget else None
    if budget is None and forkplan.parse_budget(profile.budget):
        budget = forkplan.parse_budget(profile.budget) * shards.share(shard, cut)
    print(f"hotpath: shard {shard.label} on {shards.machine_name()}: "
          f"{shards.held(shard)} of {name}")
    folder = ab.run(baseline, candidate, selection, profile, budget_s=budget, name=name, shard=shard)
    print(f"hotpath: wrote {folder}")
    return 0


def cmd_aa(args: argparse.Namespace) -> int:
    """The A/A run: the reference's write-up rows, old against old as two sides, then its report."""
    from .measure import aa, forkplan

    if not args.render_only:
        budget = forkplan.parse_budget(args.budget) if args.budget else None
        folder = aa.run(budget, [c.strip() for c in args.case.split(",")] if args.case else None,
                        Path(args.results) if args.results else None)
        print(f"hotpath: wrote {folder}")
    folder = Path(args.results) if args.results else aa.OUT
    out = report.render_aa(folder, Path(args.out) if args.out else None)
    print(f"hotpath: wrote {out}/report.html")
    _print_headline(out)
    return 0


def cmd_host_check(args: argparse.Namespace) -> int:
    """A row of the committed A/A run again as the A/A ran it, against the A/A's forks of it."""
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
    print("hotpath: quiet enough for a run that decides verdicts" if found.quiet else
          f"hotpath: contended: more than {hostcheck.SPREAD:g}x the committed A/A's fork spread "
          f"or {hostcheck.SLOWER:g}x its time; full, reference and A/A runs will not start")
    return 0 if found.quiet else 1


def cmd_replay(args: argparse.Namespace) -> int:
    """A profile's plan replayed on a two-sided run's recorded forks (hotpath.measure.replay)."""
    from .measure import forkplan, replay
    from .measure.profiles import get_profile, with_settings

    profile = with_settings(get_profile(args.profile), args.set or [])
    run = replay.load(Path(args.folder))
    budget = forkplan.parse_budget(args.budget or profile.budget)
    if budget is None:
        raise HotpathError(f"profile {profile.name!r} has no budget: give one with --budget")
    print(f"hotpath: {args.folder}: {len(run.rows)} rows, profile {profile.name}"
          + (f" with {', '.join(args.set)}" if args.set else "")
          + f", budget {forkplan.format_duration(budget)}, forks drawn from "
          + ("both sides' recorded forks (same code)" if args.same_code else "each side's own"))
    print("seed  same  faster  slower  undecided  forks  spent")
    for seed in range(args.seeds):
        o = replay.replay(run, profile, budget, seed=seed, same_code=args.same_code)
        v = o.verdicts
        print(f"{seed:4d}  {v.get('same', 0):4d}  {v.get('faster', 0):6d}  {v.get('slower', 0):6d}  "
              f"{v.get('inconclusive', 0):9d}  {o.forks_run:5d}  {forkplan.format_duration(o.spent_s)}")
    if args.same_code:
        print(f"the most rows this design could call same in {forkplan.format_duration(budget)}, "
              f"at these forks' CVs and costs known in advance, beyond its cap if need be: "
              f"{replay.bound(run, profile, budget)} of {len(run.rows)}")
    return 0


def _print_headline(report_dir: Path) -> None:
    """The report's verdict on the terminal too, so a run ends with what it found."""
    import json

    from .render.document import MANIFEST

    try:
        text = json.loads((report_dir / MANIFEST).read_text(encoding="utf-8")).get("headline")
    except (OSError, ValueError):
        return
    if text:
        print(f"hotpath: {text}")


def cmd_precision(args: argparse.Namespace) -> int:
    """How tight each time row is, and how many forks it would need for the goal."""
    paths = [Path(f) for f in args.files] or [results_file(args.profile, c) for c in _cases(args.case)]
    frames = [load.read_results(path).frame for path in paths]
    rows = compare.precision(pd.concat(frames, ignore_index=True))
    shown = pd.DataFrame({
        "benchmark": [b.rsplit(".", 2)[-2].removesuffix("Benchmark") + (f"({p})" if p else "")
                      for b, p in zip(rows["benchmark"], rows["params"])],
        "variant": rows["variant"], "forks": rows["forks"],
        "fork CV": rows["fork_cv"].map(lambda x: f"{x:.1%}"),
        "95% CI ±": rows["halfwidth"].map(lambda x: f"{x:.1%}"),
        "forks for ±3%": rows["forks_needed"],
    })
    if args.format == "md":
        print(tables.to_markdown(shown), end="")
    else:
        print(shown.to_string(index=False))
    print(compare.precision_summary(rows))
    return 0


def cmd_against_reference(args: argparse.Namespace) -> int:
    """A run's time rows held against the committed reference's: the rows whose 95% intervals,
    each widened for the differences between machines, do not overlap. Exit 0 when none
    contradicts, 1 when some do; every file is read before anything is printed."""
    from .paths import REFERENCE

    profile = get_profile(args.profile)
    case_ids = _cases(args.case)
    if not args.widen >= 1:
        raise HotpathError(f"--widen {args.widen:g}: an interval is widened by a factor of at least 1")
    run = {c: Path(args.run) / f"{c}.json" if args.run else results_file(profile.name, c)
           for c in case_ids}
    reference = {c: Path(args.reference or REFERENCE) / f"{c}.json" for c in case_ids}
    held = against.hold_files(case_ids, run, reference, args.widen,
                              {c: get_case(c).baseline for c in case_ids})
    print(against_text.text(held, _folder_of(run), _folder_of(reference)), end="")
    return 1 if held.contradicting else 0


def _folder_of(files: dict[str, Path]) -> str:
    """The folder of a side's files, relative to the project where it lies inside it: 'data/reference/'."""
    from .paths import ROOT

    folder = next(iter(files.values())).parent
    try:
        text = str(folder.resolve().relative_to(ROOT.resolve()))
    except ValueError:
        text = str(folder)
    return text.rstrip("/") + "/"


def cmd_check(args: argparse.Namespace) -> int:
    get_profile(args.profile)
    _cases(args.case)
    return 0


def cmd_cases(args: argparse.Namespace) -> int:
    for case in (CASES.values() if args.all else existing_cases()):
        print(case.id)
    return 0


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


def cmd_profiles(args: argparse.Namespace) -> int:
    for p in PROFILES.values():
        print(f"{p.name:9} {p.describe()}: {p.purpose}")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hotpath", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    t = sub.add_parser("table", help="print the comparison table of any JMH JSON file")
    t.add_argument("file")
    t.add_argument("--baseline", default="old", help="the baseline variant (default: old)")
    t.add_argument("--param", help="pair on this @Param's values instead of 'variant'")
    t.add_argument("--format", choices=("text", "md", "jira"), default="text")
    t.add_argument("--gc", action="store_true", help="add GC count and GC time columns")
    t.set_defaults(func=cmd_table)

    b = sub.add_parser("bench", help="run a case's JMH matrix to data/results/<profile>/")
    b.add_argument("--case", default="all")
    b.add_argument("--profile", default="quick")
    b.add_argument("--budget", default="",
                   help="time for the whole run (45m, 1h30m, 600s): a sequential profile stops "
                        "taking forks when it is spent; default: the profile's")
    b.add_argument("--stale-only", action="store_true",
                   help="only the cases whose results are missing or older than the jar's classes")
    b.add_argument("--shard", default="",
                   help="k/N: only the k-th of N shards of the run (hotpath shards lists them), "
                        "into data/results/<profile>/shards/<k>-of-<N>/")
    b.set_defaults(func=cmd_bench)

    sh = sub.add_parser("shards", help="cut a run into N shards balanced by cost: the JSON a CI "
                                       "matrix takes (stdout) and each shard's rows (stderr)")
    sh.add_argument("--case", default="all")
    sh.add_argument("--profile", default="",
                    help="the profile (default: quick; ab for two builds)")
    sh.add_argument("--shards", type=int, required=True, help="how many shards")
    sh.add_argument("--cells", default="",
                    help="cut the JDK x GC matrix of these cells (all, or a comma list) instead")
    sh.add_argument("--json", help="also write the JSON into this file")
    sb = sh.add_argument_group("two builds (as hotpath compare takes them)")
    sb.add_argument("--baseline", help="the baseline build: a JMH benchmark jar or a classpath")
    sb.add_argument("--candidate", help="the candidate build")
    sb.add_argument("--bench", help="JMH's include regex: which benchmarks (default: every one)")
    sb.add_argument("-p", action="append", metavar="NAME=V1,V2", help="restrict a @Param, as JMH's -p")
    sb.add_argument("--name", help="the run's name (default: <baseline>-vs-<candidate>)")
    sb.add_argument("--baseline-name", help="the baseline's name in the report")
    sb.add_argument("--candidate-name", help="the candidate's name in the report")
    sh.set_defaults(func=cmd_shards)

    mg = sub.add_parser("merge", help="join the shards' folders of one run into "
                                      "data/results/<profile>/ (checked: one commit, one profile, "
                                      "every shard once)")
    mg.add_argument("folders", nargs="+", help="the shards' folders, as each shard wrote it")
    mg.add_argument("--profile", default="quick")
    mg.add_argument("--out", help="the folder to write into (default: data/results/<profile>/; "
                                  "for two builds data/results/ab/<name>/)")
    mg.set_defaults(func=cmd_merge)

    m = sub.add_parser("matrix", help="the JDK x GC matrix: each runtime cell, then reports/<case>/matrix/")
    m.add_argument("--case", default="all")
    m.add_argument("--profile", default="matrix")
    m.add_argument("--cells", default="all",
                   help="all (both JDKs x G1, Parallel, ZGC), pressure (JDK 17, G1, a 64 MB heap), "
                        "or a comma list such as jdk17-g1,jdk25-zgc")
    m.add_argument("--render-only", action="store_true", help="render the cells already measured")
    m.add_argument("--budget", default="", help="time for each case's cells together (default: the profile's)")
    m.add_argument("--shard", default="", help="k/N: only the k-th of N shards of the matrix "
                                              "(hotpath shards --cells lists them)")
    m.set_defaults(func=cmd_matrix)

    pr = sub.add_parser("profile", help="allocation flame graphs into reports/<case>/flames/")
    pr.add_argument("--case", default="all")
    pr.add_argument("--profile", default="quick")
    pr.set_defaults(func=cmd_profile)

    si = sub.add_parser("sites", help="the allocation-site pass alone, for a finished run's "
                                      "row-sides: <case>.sites.json beside its results")
    si.add_argument("--case", default="all")
    si.add_argument("--profile", default="quick")
    si.add_argument("--ab", help="a run of two builds' folder (data/reference/ab/<name>): its sites")
    si.set_defaults(func=cmd_sites)

    r = sub.add_parser("report", help="execute a case's notebook into reports/<case>/")
    r.add_argument("--case", default="all")
    r.add_argument("--profile", default="quick")
    r.add_argument("--results", help="a results file instead of data/results/<profile>/<case>.json")
    r.add_argument("--out", help="a folder to write <case>/ into instead of reports/")
    r.add_argument("--overview", action="store_true",
                   help="also write index.html and index.md over every case with results")
    r.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
                   help="override a notebook parameter")
    r.set_defaults(func=cmd_report)

    n = sub.add_parser("notebook", help="execute notebooks (Python or Java) with parameters")
    n.add_argument("notebook", nargs="+")
    n.add_argument("--out", help="folder for the executed copy (default: reports/notebooks/)")
    n.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
                   help="override a parameter of the notebook's parameters cell")
    n.set_defaults(func=cmd_notebook)

    o = sub.add_parser("overview", help="reports/index.html and index.md: one row per case")
    o.add_argument("--profile", default="quick")
    o.add_argument("--out", help="the reports folder to write index.html into (default: reports/)")
    o.set_defaults(func=cmd_overview)

    d = sub.add_parser("docs", help="rewrite the figures README.md and docs/ quote from data/reference/")
    d.add_argument("--check", action="store_true", help="only say which quoted blocks are stale")
    d.set_defaults(func=cmd_docs)

    cp = sub.add_parser("compare", help="two JMH JSON files compared, or two builds (jars or "
                                         "classpaths) measured and compared, into a report")
    cp.add_argument("baseline", help="the baseline: a JMH JSON file, or a build (a JMH benchmark jar, "
                                     "or a classpath a:b:c), or a folder of a measured run to render again")
    cp.add_argument("candidate", nargs="?", help="the candidate: of the same kind as the baseline")
    cp.add_argument("--param", help="JSON: compare two values of this @Param within the baseline file")
    cp.add_argument("--baseline-value", help="with --param: the value that is the baseline")
    cp.add_argument("--out", help="report folder (default: reports/compare, or reports/ab/<name> for builds)")
    b2 = cp.add_argument_group("two builds")
    b2.add_argument("--bench", help="JMH's include regex: which benchmarks (default: every one)")
    b2.add_argument("-p", action="append", metavar="NAME=V1,V2",
                    help="restrict a @Param to these values, as JMH's -p (repeatable)")
    b2.add_argument("--budget", help="time for the benchmarks (20m, 1h): rows stop taking forks when it "
                                     "is spent (default: the profile's, 20 min)")
    b2.add_argument("--profile", help="fork length and caps (default: ab, the full profile's forks)")
    b2.add_argument("--name", help="the run's name: data/results/ab/<name>/ and reports/ab/<name>/ "
                                   "(default: <baseline>-vs-<candidate>)")
    b2.add_argument("--shard", default="",
                    help="k/N: only the k-th of N shards of the rows (hotpath shards --baseline .. "
                         "--candidate .. lists them), into data/results/ab-shards/<name>/<k>-of-<N>/")
    b2.add_argument("--baseline-name", help="the baseline's name in the report (default: its file name)")
    b2.add_argument("--candidate-name", help="the candidate's name in the report (default: its file name)")
    b2.add_argument("--results-dir", help="folder for the run's folder (default: data/results/ab)")
    cp.set_defaults(func=cmd_compare)

    aa_ = sub.add_parser("aa", help="the A/A run: identical code as two sides, its false alarms "
                                    "(data/reference/aa/, reports/aa/)")
    aa_.add_argument("--budget", help="time for the benchmarks (default: the aa profile's, 1h30m)")
    aa_.add_argument("--case", help="only these cases' rows (comma list; default: every case)")
    aa_.add_argument("--results", help="the run's folder (default: data/reference/aa)")
    aa_.add_argument("--out", help="report folder (default: reports/aa)")
    aa_.add_argument("--render-only", action="store_true", help="render the run already measured")
    aa_.set_defaults(func=cmd_aa)

    rp = sub.add_parser("replay", help="a profile's plan replayed on a two-sided run's recorded "
                                       "forks (each fork drawn from them): what a design would "
                                       "decide, in seconds, before a long run is spent on it")
    rp.add_argument("folder", help="the run's folder (ab.json, baseline.json, candidate.json), "
                                   "e.g. data/reference/aa")
    rp.add_argument("--profile", default="aa", help="the design replayed (default: aa)")
    rp.add_argument("--set", action="append", metavar="FIELD=VALUE",
                    help="change a profile field for the replay, e.g. forks=48 or "
                         "drop_out_of_reach=false (repeatable)")
    rp.add_argument("--budget", help="the budget (default: the profile's)")
    rp.add_argument("--seeds", type=int, default=3, help="replays, each with its own draws (default: 3)")
    rp.add_argument("--same-code", action="store_true",
                    help="both sides are the same code (an A/A): draw each side's forks from both sides'")
    rp.set_defaults(func=cmd_replay)

    ar = sub.add_parser("against-reference",
                        help="a run's time rows against the committed reference's: the rows whose "
                             "95%% intervals, each widened by 15%%, do not overlap (exit 1 if any)")
    ar.add_argument("--case", default="all")
    ar.add_argument("--profile", default="quick", help="the run: data/results/<profile>/ (default: quick)")
    ar.add_argument("--run", help="a folder of <case>.json files instead of the profile's")
    ar.add_argument("--reference", help="the reference's folder (default: data/reference)")
    ar.add_argument("--widen", type=float, default=against.MACHINE_SPREAD,
                    help="each interval's factor for the differences between machines: low/w, "
                         "high*w (default: %(default)s)")
    ar.set_defaults(func=cmd_against_reference)

    hc = sub.add_parser("host-check",
                        help="how the host runs a row of the committed A/A today (about 40 s): its "
                             "fork spread and time against the A/A's (exit 1 if too noisy or slow "
                             "for a run that decides verdicts)")
    hc.add_argument("--wait", default="",
                    help="check again until the host is quiet, for at most this long (45m, 3h); "
                         "then 'make aa' or a full run can start")
    hc.add_argument("--every", default="",
                    help="how often a waiting check runs (default: 10m)")
    hc.set_defaults(func=cmd_host_check)

    c = sub.add_parser("check", help="validate a case and profile name")
    c.add_argument("--case", default="all")
    c.add_argument("--profile", default="quick")
    c.set_defaults(func=cmd_check)

    cs = sub.add_parser("cases", help="list the cases that exist in the tree")
    cs.add_argument("--all", action="store_true", help="also the ones not built yet")
    cs.set_defaults(func=cmd_cases)

    pc = sub.add_parser("precision", help="per time row: fork CV, 95%% CI half-width, forks for +-3%%")
    pc.add_argument("files", nargs="*", help="JMH JSON files (default: the profile's results)")
    pc.add_argument("--case", default="all")
    pc.add_argument("--profile", default="reference")
    pc.add_argument("--format", choices=("text", "md"), default="text")
    pc.set_defaults(func=cmd_precision)

    sub.add_parser("profiles", help="list the benchmark profiles").set_defaults(func=cmd_profiles)

    nc = sub.add_parser("new-case", help="write a new case that runs green from the start")
    nc.add_argument("name", help="the case id: lower-case letters and digits")
    nc.set_defaults(func=cmd_new_case)
    return p


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
