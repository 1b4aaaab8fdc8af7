"""A report as it is written in a notebook: each section is shown in the notebook (and so in
the HTML) and collected for the two attachable texts, summary.md (GitHub) and jira.txt (Jira
wiki markup). PNG charts are written beside them, since neither GitHub Markdown nor Jira shows
embedded images; the HTML embeds them, so that it stays one self-contained file.

The document is the page: its blocks as they come (``add``, ``table``, ``text``, ``figure``)
and the texts fitted from them (``write``). What a block says is a section (hotpath.render.sections)
of the report's analysis (hotpath.analyze.report). Every case report has the same frame:
``Document.open`` shows the title, the Result and the compact table (sections.front); the notebook
adds what is particular to its case; ``finish`` the closing sections (sections.closing), once.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from . import chartcheck, charts, fmt, markup, page, paste
from .page import md_to_jira
from .paste import CORE, DETAIL
from .sections import Section, closing, evidence, front, verdicts
from .sections import run as run_sections
from ..analyze import compare
from .. import cases
from ..analyze.load import Run, read_results
from ..analyze.report import Analysis

#: Written beside the report: its headline and charts, for the overview page.
MANIFEST = "report.json"
#: The full report, for browsing; a copy named after the report and its run is the attachment.
REPORT = "report.html"


class Document:
    def __init__(self, case_id: str, run: Run, output_dir: str | Path,
                 heading: str = "", question: str = "",
                 comparison: compare.Comparison | None = None, name: str = "",
                 sources: list[str | Path] | None = None):
        """A case's report; with an empty case_id, a report titled by ``heading``. ``name``
        (by default the case's) and the run (``sources``: its results files, by default the
        run's) name the files to attach (``attachment``)."""
        self.case = cases.get_case(case_id) if case_id else None
        files = [Path(f) for f in (sources if sources is not None else [run.source] if run else [])]
        #: What every file a paste names starts with (page.stem).
        self.stem = page.stem(name or (self.case.id if self.case else ""), files)
        self.heading, self.question = heading, question
        self.run, self.comparison = run, comparison
        #: What the sections show, computed before they are laid out.
        self.analysis = Analysis(run, comparison, self.case)
        self.out = Path(output_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        #: The sections as the pastes (summary.md, jira.txt) hold them, each with its priority
        #: there (hotpath.render.paste): the fitter leaves the least of them for report.html.
        self.blocks: list[paste.Block] = []
        #: The Result's main row (its label and variant): first in every table it is in.
        self._main: tuple[str, str] | None = None
        self.headline = ""
        #: The charts' files, in order, each under the report's and its run's names (``named``).
        self.charts: list[str] = []
        self._chart_names: set[str] = set()
        #: Per chart, what a reader could not read in it (chartcheck); empty when all is legible.
        self.chart_problems: dict[str, list[str]] = {}
        #: What the verdicts rest on is said once, under the first table whose note names it.
        self._estimate_said = False

    @classmethod
    def open(cls, case_id: str, results: str | Path, output_dir: str | Path) -> "Document":
        """Read a case's results, pair old with every other variant, and open the report
        with its title, headline and compact table."""
        run = read_results(results)
        doc = cls(case_id, run, output_dir, comparison=compare.paired(run))
        doc.title()
        doc.lead()
        return doc

    @property
    def pairs(self) -> pd.DataFrame:
        return self.analysis.pairs

    @property
    def md(self) -> list[str]:
        """Every section in Markdown, in full (summary.md is these, fitted)."""
        return [b.full(jira=False) for b in self.blocks]

    @property
    def jira(self) -> list[str]:
        """Every section in Jira wiki markup, in full (jira.txt is these, fitted)."""
        return [b.full(jira=True) for b in self.blocks]

    @property
    def peaks(self) -> pd.DataFrame:
        return self.analysis.peaks

    @property
    def floors(self) -> pd.DataFrame:
        """The case's allocation floors (data/floors/<case>.csv), for tables and charts."""
        return cases.load_floors(self.case.id) if self.case else cases.load_floors("")

    def of_class(self, name: str) -> pd.DataFrame:
        """The pairs of one benchmark class: one question of the case."""
        return self.pairs[self.pairs["class"] == name]

    def title(self) -> None:
        """The case's title and question, or the report's ``heading`` and ``question``."""
        self.add(front.title(self.analysis, self.heading, self.question))

    def lead(self) -> None:
        """The Result, then one compact row per benchmark x params: the verdict first."""
        self.result(front.sentence(self.analysis))
        self.add(*front.lead(self.analysis, self.estimate_note() if not self.pairs.empty else ""))

    def result(self, sentence: str) -> None:
        """The report's headline: first in every text, and what the overview shows of it."""
        self.headline = sentence
        self.add(front.result(sentence))

    def estimate_note(self) -> str:
        """'Verdicts rest on each fork's mean of its steady iterations. ', once per report."""
        if self._estimate_said or self.comparison is None:
            return ""
        self._estimate_said = True
        return f"Verdicts rest on {fmt.estimate_of(self.pairs)}. "

    def verdict_note(self, comparison: compare.Comparison | None = None) -> str:
        """How the verdicts were reached, what the figures are and what to be wary of
        (sections.verdicts)."""
        return verdicts.note(comparison or self.analysis.compared, self.run, self.estimate_note())

    def measured(self, pairs: pd.DataFrame, what: str, least: int = 1) -> bool:
        """Whether this run measured a section's rows (at least ``least`` of them); if not, the
        report says so and names the command that does: the quick run leaves the sweeps out."""
        if len(pairs) < least:
            self.add(front.not_measured(self.analysis, what))
        return len(pairs) >= least

    def finish(self, claims_note: str = "") -> None:
        """The closing sections (sections.closing: the evidence beside the timing, the claims
        check, the environment and provenance), once, at the end; then the attachable texts."""
        if self.comparison is not None and not self.pairs.empty and "speed-ratio" not in self._chart_names:
            self.add(closing.speed_ratio(self.pairs))
        for section in closing.sections(self.analysis, claims_note):
            self.add(section)
        self.write()

    # The sections the notebooks add by name, as the analysis gives them (hotpath.render.sections).
    def where_the_bytes_went(self) -> None:
        self.add(evidence.where_the_bytes_went(self.analysis))

    def where_the_time_went(self) -> None:
        self.add(evidence.where_the_time_went(self.analysis))

    def shards(self) -> None:
        self.add(run_sections.shards(self.run))

    def environment(self) -> None:
        self.add(*closing.environment(self.analysis))

    def text(self, markdown: str, jira: str | None = None, priority: int = DETAIL) -> None:
        """A paragraph (or a section of its own, headed ``## ...``); ``priority``: the paste's
        (hotpath.render.paste), where it is left out whole or kept."""
        self.add(Section(text=markdown, jira=jira or "", priority=priority))

    def add(self, *sections: Section | None) -> None:
        """Each section laid out as the notebook shows it and the pastes carry it
        (hotpath.render.sections)."""
        for section in sections:
            if section is None:
                continue
            self._main = section.main or self._main
            if section.table is not None:
                self.table(section.heading, section.table, note=section.note, priority=section.priority,
                           rows=section.rows, report_only=section.report_only)
            elif section.text:
                self.blocks.append(paste.text_block(
                    section.name or page.name_of(section.text), section.text,
                    section.jira or md_to_jira(section.text), section.priority))
                shown = section.text if section.shown is None else section.shown
                if shown:
                    page.show(shown)
            if section.graphs:
                page.show_html(section.graphs)
            if section.figure is not None:
                self.figure(*section.figure)

    def table(self, heading: str, table: pd.DataFrame, note: str | list = "",
              priority: int = DETAIL, rows: str | list[tuple[int, int]] | None = None,
              report_only: tuple[str, ...] = ()) -> None:
        """A table under its heading, with its note (a list: paragraphs, a list in it holding
        sentences the paste may leave out). ``priority``: the paste's for the table's rows;
        ``rows``: each row's (priority, rank) where they differ, or a plan's name (page.plan; by
        default page.row_plan: the Result's row first, then the largest changes where the rows
        are the report's pairs, the floor's and the release's rows at EXTRA; LEAD tables keep
        LEAD_ROWS rows at LEAD); ``report_only``: columns report.html shows and the pastes do
        not (links into the report itself)."""
        by = "by this profile" if self.analysis.provenance.get("profile") else "in this run"
        planned = page.plan(rows, table, priority, self.analysis.paired, self._main)
        block, shown = page.table_block(heading, table, note, f"{markup.UNMEASURED} not measured {by}.",
                                        planned, max(priority, DETAIL), report_only)
        self.blocks.append(block)
        page.show(f"### {heading}")
        page.show_html(markup.html_table(table))
        if shown:
            page.show(shown)

    def figure(self, name: str, fig, caption: str) -> None:
        """The chart as a PNG beside the texts, with its caption; the caption ends on what the
        chart's floor marks are, as the chart drew them (charts.floor_note)."""
        # Returns nothing: a cell ending in doc.figure(...) would print the value into the report.
        note = charts.floor_note(fig)
        caption = f"{caption}; {note}" if note else caption
        path = charts.save_png(fig, self.out / self.named(f"{name}.png"))
        self._chart_names.add(name)
        found = chartcheck.problems(fig, drawn=True)  # the save drew it: no second draw
        if found:
            self.chart_problems[path.name] = found
            print(f"hotpath: {path.name}: " + "; ".join(found), file=sys.stderr)
        plt.close(fig)
        self.charts.append(path.name)
        self.blocks.append(paste.text_block(f"the chart {path.name}", f"![{caption}]({path.name})\n\n*{caption}*\n",
                                            f"!{path.name}|thumbnail!\n_{caption}_\n", CORE))
        page.show_png(path, caption)
        page.show(f"*{caption}*")

    def named(self, file: str) -> str:
        """A file to attach, under the report's and its run's names (``stem``)."""
        return f"{self.stem}-{file}" if self.stem else file

    @property
    def attachment(self) -> str:
        """The name report.html is attached under (hotpath.render.report writes that copy)."""
        return self.named(REPORT)

    def write(self) -> None:
        """report.html's two pastes, each fitted to where it is pasted (hotpath.render.paste):
        summary.md within MARKDOWN_BUDGET, jira.txt within JIRA_BUDGET, ending on the line that
        names the attached full report; and the manifest for the overview and for the copy of
        report.html under its attachment's name."""
        for name, jira in (("summary.md", False), ("jira.txt", True)):
            fitted = paste.fit(self.blocks, jira=jira, attachment=self.attachment)
            (self.out / name).write_text(fitted.text, encoding="utf-8")
        manifest = {"case": self.case.id if self.case else "", "headline": self.headline,
                    "attachment": self.attachment, "charts": self.charts,
                    "chart_problems": self.chart_problems}
        (self.out / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n",
                                         encoding="utf-8")
