"""Where the bytes went and where the time went: each row's allocation sites and its CPU time by
frame, old against new, with their differential flame graphs carried inside report.html; where a
run has not measured them, the command that does."""

from __future__ import annotations

from .. import cpu as cpu_render
from .. import flamegraphs
from .. import sites as site_render
from ..paste import CORE
from ...analyze.report import Analysis
from . import PER_ROW, PER_ROW_RESULT_FIRST, Section

#: The per-row tables' column of flame graph links: report.html draws them, a paste cannot.
GRAPHS = ("flame graphs",)


def where_the_bytes_went(analysis: Analysis) -> Section | None:
    """Each row's allocation sites, old against new, and its two differential flame graphs; or,
    for a run without the site pass, the command that measures it (none for a report that
    paired nothing)."""
    if analysis.comparison is None or analysis.pairs.empty:
        return None
    pairs, sites, command = analysis.pairs, analysis.sites, sites_command(analysis)
    heading = "Where the bytes went: allocation sites, old against new"
    if not sites.measured:
        return Section(text=f"## {heading}\n\n*Not measured in this run: {command} "
                            f"records every allocation of each row-side in forks of its own.*", priority=CORE)
    pages, why = site_render.draw(analysis.recorded, sites)
    links, graphs = flamegraphs.embedded(site_render.FOLDER, pages)
    table = site_render.table(analysis.recorded, links)
    if table.empty:
        return Section(text=f"## {heading}\n\n*The site pass recorded none of this report's rows: "
                            f"{command} records them.*", priority=CORE)
    note = ("Every heap allocation of one recorded iteration per row-side (async-profiler's "
            "`alloc` event at interval 1, in the memory pass's forks, never in a timed one"
            + ("; of the iterations recorded once the JIT had gone idle, the one whose code "
               "allocated least" if (sites.recorded["iterations"] > 1).any() else "")
            + "), divided by its operations. A site is the innermost frame outside the JDK and JMH, "
            "the JDK frames it went through and the allocated type; a cell is allocations per "
            "op × their mean size. Moved sites first, the biggest change first. "
            + (f"Recorded after the run: {sites.caveat}. " if sites.caveat else "")
            + site_render.reconcile_note(pairs, sites)
            + (" Flame graphs per row, inside the full report (a click opens one, offline): "
               "*dropped* is drawn in old's shape, coloured by what the new side no longer "
               "allocates; *added* in the new side's shape." if links
               else f" Flame graphs: {why}." if why else ""))
    return Section(heading, table, note=note, rows=PER_ROW, report_only=GRAPHS, graphs=graphs)


def where_the_time_went(analysis: Analysis) -> Section | None:
    """Each row's time per op by frame, old against new, with intervals, the collector's and the
    compiler's CPU apart, and its two differential CPU flame graphs; or, for a run without CPU
    samples, that it has none and what takes them (none for a report that paired nothing)."""
    if analysis.comparison is None or analysis.pairs.empty:
        return None
    heading = "Where the time went: CPU time per op by frame, old against new"
    profiles = analysis.profiles
    if not profiles.measured:
        return Section(text=f"## {heading}\n\n*Not measured in this run: {cpu_remedy(analysis)}.*",
                       priority=CORE)
    rows = analysis.sampled
    pages, why = cpu_render.draw(rows)
    links, graphs = flamegraphs.embedded(cpu_render.FOLDER, pages)
    table = cpu_render.table(rows, links)
    if table.empty:
        return Section(text=f"## {heading}\n\n*The timed forks sampled none of this report's rows.*",
                       priority=CORE)
    note = cpu_render.note(rows, profiles, bool(links)) + (f" Flame graphs: {why}." if why else "")
    return Section(heading, table, note=note, rows=PER_ROW_RESULT_FIRST, report_only=GRAPHS, graphs=graphs)


def cpu_remedy(analysis: Analysis) -> str:
    """What takes the CPU samples a run has not: for a case's run, make cpu in forks of their
    own; for two builds, a run made again (its timed forks now sample a tail of iterations)."""
    if analysis.case is None:
        return ("its timed forks took no CPU samples; the builds measured again take them (each "
                "timed fork samples a few iterations after those it counts)")
    profile = analysis.provenance.get("profile", "quick")
    return (f"`make cpu CASE={analysis.case.id} PROFILE={profile}` samples each row-side's CPU in "
            f"forks of its own")


def sites_command(analysis: Analysis) -> str:
    """What records the allocation sites a run has not."""
    if analysis.case is None:
        return "a two-builds run made since the site pass (`make report BASELINE=… CANDIDATE=…`)"
    return f"`make sites CASE={analysis.case.id} PROFILE={analysis.provenance.get('profile', 'quick')}`"
