"""A report's front: its title and question, and under the Result the compact table of every
row, the verdict first, with how to read it and what the run left out."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from .. import fmt, headline, markup, noise, tables
from ..page import md_to_jira
from ..paste import LEAD
from ...analyze.report import Analysis
from ...stats.sequential import THRESHOLD
from . import Section


def title(analysis: Analysis, heading: str = "", question: str = "") -> Section:
    """A case's title, its system and write-up and its question; for a report that is not a
    case's, its ``heading`` and ``question``."""
    c = analysis.case
    if c is None:
        return Section(text=f"# {heading}\n\n**Question.** {question}\n", name=heading, priority=LEAD,
                       jira=f"h2. {heading}\n*Question.* {question}\n", shown=f"**Question.** {question}")
    head = f"{c.id}: {c.title}"
    return Section(text=f"# {head}\n\n{c.system}, {c.writeup}.\n\n**Question.** {c.question}\n", name=head,
                   jira=f"h2. {head}\n{c.system}, {c.writeup}.\n*Question.* {c.question}\n", priority=LEAD,
                   shown=f"**{c.system}, {c.writeup}.**\n\n**Question.** {c.question}")


def result(sentence: str) -> Section:
    """The report's headline, first in every text; the notebook shows it as the page's headline."""
    shown = f'<p id="headline" class="headline"><strong>Result.</strong> {markup.html_cell(sentence)}</p>'
    return Section(text=f"**Result.** {sentence}\n", jira=f"*Result.* {md_to_jira(sentence)}\n", name="Result",
                   priority=LEAD, shown="", graphs=shown)


def _chosen(analysis: Analysis) -> tuple[str, str, str]:
    """The variant the Result speaks of and the row it leads with (a case's own, else none)."""
    c = analysis.case
    return (c.candidate if c else "optimized", *(c.headline if c else ("", "")))


def sentence(analysis: Analysis) -> str:
    """The Result: the report's headline sentence (hotpath.render.headline)."""
    return headline.sentence(analysis.pairs, *_chosen(analysis))


def lead(analysis: Analysis, estimate_note: str) -> list[Section | None]:
    """Under the Result, one compact row per benchmark x params, the verdict first, with its
    note (glance_note; ``estimate_note``: what the verdicts rest on, where the report says it
    here), then what the run left out; nothing where the report paired nothing."""
    pairs = analysis.pairs
    if pairs.empty:
        return []
    main = headline.lead(pairs, *_chosen(analysis))
    rule = (f"*faster*/*slower* need the CI beyond ±{THRESHOLD:.0%}, *same* inside it. The "
            f"CI is the sequential fork plan's repeated confidence interval (it keeps its 95% "
            f"however often the row was looked at); *forks per side* says how many each row "
            f"took and why it stopped" if analysis.provenance.get("sequential") else
            f"*faster*/*slower* need p < 0.05 and the CI beyond ±{THRESHOLD:.0%}")
    # LEAD: its rows up to LEAD_ROWS, the main row and the largest changes first; beyond
    # them, a run of many benchmarks' least changes are the paste's DETAIL
    return [Section("At a glance", tables.compact_table(pairs, analysis.claims), priority=LEAD,
                    note=glance_note(analysis, rule, estimate_note), main=(main.label, main.candidate)),
            left_out(analysis)]


def glance_note(analysis: Analysis, rule: str, estimate_note: str) -> list[str | list[str]]:
    """Under the compact table: how to read it, what the verdicts rest on, the machine, then
    the undecided rows (a list: the paste may leave the last of them to report.html) and the
    forks that never settled (the Result leaves these out)."""
    pairs, run = analysis.pairs, analysis.run
    machine = noise.line(noise.of_run(run.frame, pairs, analysis.case.id if analysis.case else "",
                                      run.source))
    paragraphs: list[str | list[str]] = [
        f"Time per op new/old with its 95% CI over the forks (below 1: faster; throughput is "
        f"inverted); {rule}. {estimate_note}{decided_note(pairs)}",
        f"**The machine.** {machine}" if machine else "",
        [f"Undecided: {n}." for n in tables.undecided_notes(pairs)],
        tables.unsettled_note(pairs),
        "Details, charts, the claims check and the environment follow."]
    return [p if isinstance(p, list) else p.strip() for p in paragraphs if p]


def decided_note(pairs: pd.DataFrame) -> str:
    """'3 of 4 time rows decided (1 stopped by the budget). '"""
    if pairs.empty:
        return ""
    mine = tables.written(pairs)
    stops = Counter(s for s in mine.get("stopped", pd.Series(dtype=str)) if s and s != "decided")
    why = ", ".join(f"{n} {fmt.STOPPED[s]}" for s, n in sorted(stops.items()))
    return f"{fmt.fmt_decided(mine)} time rows decided" + (f" ({why})" if why else "") + ". "


def left_out(analysis: Analysis) -> Section | None:
    """The rows a run left out (a quick run measures the write-up's own) and what measures them."""
    left = analysis.provenance.get("left_out")
    if not (left and left.get("rows")):
        return None
    what = [f"{left['rows']} more benchmark × params × variant rows"]
    if left.get("variants"):
        what.append("the variants " + ", ".join(left["variants"]))
    if left.get("benchmarks"):
        what.append("the benchmarks " + ", ".join(left["benchmarks"]))
    return Section(text=f"**Left out of this run.** It measured the write-up's own rows (old against "
                        f"the write-up's variants) and left out {'; '.join(what)}. "
                        f"`{left['command']}` measures them"
                        + (f"; `{left['mechanisms']}` splits the change among the patch's mechanisms, "
                           "each measured alone." if left.get("mechanisms") else "."), priority=LEAD)



def not_measured(analysis: Analysis, what: str) -> Section:
    """That this run did not measure a section's rows (the quick run leaves the sweeps out), and
    the command that does."""
    command = (analysis.provenance.get("left_out") or {}).get("command") or (
        f"make report CASE={analysis.case.id} PROFILE=full" if analysis.case else "a run with these benchmarks")
    return Section(text=f"*{what}: not measured in this run; `{command}` measures it.*")
