"""A report as it is written in a notebook: each section is shown in the notebook (and so in
the HTML) and collected for the two attachable texts, summary.md (GitHub) and jira.txt (Jira
wiki markup). PNG charts are written beside them, since neither GitHub Markdown nor Jira shows
embedded images; the HTML embeds them, so that it stays one self-contained file.

Every case report has the same frame: ``Document.open`` shows the title, the headline and the
compact table; the notebook adds what is particular to its case; ``finish`` adds the claims
check, the environment and the provenance, once, at the end.
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from . import chartcheck, charts, fmt, headline, markup, noise, paste, tables
from . import sites as site_render
from .paste import BULK, CORE, DETAIL, EXTRA, LEAD
from .sections import PER_ROW, PER_ROW_RESULT_FIRST, Section, evidence
from .sections import run as run_sections
from .sections import upstream, verdicts
from ..analyze import claims, compare
from ..analyze import cpu as cpu_analysis
from ..analyze import sites as site_analysis
from .. import cases, runs
from ..cases import get_case
from ..analyze.load import Run, read_peaks, read_results
from ..stats.sequential import THRESHOLD

#: Written beside the report: its headline and charts, for the overview page.
MANIFEST = "report.json"
#: The full report, for browsing; a copy named after the report and its run is the attachment.
REPORT = "report.html"


def _show(obj) -> None:
    try:
        from IPython.display import Markdown, display
    except ImportError:  # outside IPython: the texts are still written
        return
    display(Markdown(obj) if isinstance(obj, str) else obj)


def _show_html(markup: str) -> None:
    try:
        from IPython.display import HTML, display
    except ImportError:
        return
    display(HTML(markup))


def _show_png(path: Path, caption: str) -> None:
    # The PNG itself, embedded: a Figure under the Agg backend would carry only its text/plain
    # repr ("<Figure size ...>"), and an Image output has no alternative text.
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    _show_html(f'<img class="chart" alt="{html.escape(caption, quote=True)}" '
               f'src="data:image/png;base64,{data}">')


class Document:
    def __init__(self, case_id: str, run: Run, output_dir: str | Path,
                 heading: str = "", question: str = "",
                 comparison: compare.Comparison | None = None, name: str = "",
                 sources: list[str | Path] | None = None):
        """A case's report; with an empty case_id, a report titled by ``heading``. ``name``
        (by default the case's) and the run (``sources``: its results files, by default the
        run's) name the files to attach (``attachment``)."""
        self.case = get_case(case_id) if case_id else None
        files = [Path(f) for f in (sources if sources is not None else [run.source] if run else [])]
        named = re.sub(r"[^A-Za-z0-9_.-]+", "-", name or (self.case.id if self.case else ""))
        #: What every file a paste names starts with, the report's and the run's names: two
        #: reports attached to one issue never shadow each other's (hotpath.runs.run_id).
        self.stem = "-".join(filter(None, [named.strip("-"), runs.run_id(*files) if files else ""]))
        self.heading = heading
        self.question = question
        self.run = run
        self.comparison = comparison
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
        doc = cls(case_id, run, output_dir, comparison=compare.pair(run.frame))
        doc.title()
        doc.lead()
        return doc

    @property
    def pairs(self) -> pd.DataFrame:
        return self._comparison().pairs

    def _comparison(self, given: compare.Comparison | None = None) -> compare.Comparison:
        """The comparison given, else the document's; a document made without one has none."""
        found = given or self.comparison
        if found is None:
            raise ValueError("this report was made without a comparison of two sides")
        return found

    @property
    def md(self) -> list[str]:
        """Every section in Markdown, in full (summary.md is these, fitted)."""
        return [b.full(jira=False) for b in self.blocks]

    @property
    def jira(self) -> list[str]:
        """Every section in Jira wiki markup, in full (jira.txt is these, fitted)."""
        return [b.full(jira=True) for b in self.blocks]

    def _add(self, name: str, md: str, jira: str, priority: int) -> None:
        self.blocks.append(paste.text_block(name, md, jira, priority))

    @property
    def peaks(self) -> pd.DataFrame:
        return read_peaks(self.run.source)

    @property
    def floors(self) -> pd.DataFrame:
        """The case's allocation floors (data/floors/<case>.csv), for tables and charts."""
        return cases.load_floors(self.case.id) if self.case else cases.load_floors("")

    def of_class(self, name: str) -> pd.DataFrame:
        """The pairs of one benchmark class: one question of the case."""
        return self.pairs[self.pairs["class"] == name]

    def checked_claims(self) -> pd.DataFrame:
        if self.case is None or self.comparison is None or self.pairs.empty:
            return pd.DataFrame(columns=[*claims.FIGURES, *claims.KEYS])
        return claims.check(self.case.id, self.pairs, self.peaks, sites=self.sites,
                            profiles=self.profiles)

    # -- pieces -------------------------------------------------------------------------
    def title(self) -> None:
        c = self.case
        if c is None:
            self._add(self.heading, f"# {self.heading}\n\n**Question.** {self.question}\n",
                      f"h2. {self.heading}\n*Question.* {self.question}\n", LEAD)
            _show(f"**Question.** {self.question}")
            return
        head = f"{c.id}: {c.title}"
        self._add(head, f"# {head}\n\n{c.system}, {c.writeup}.\n\n**Question.** {c.question}\n",
                  f"h2. {head}\n{c.system}, {c.writeup}.\n*Question.* {c.question}\n", LEAD)
        _show(f"**{c.system}, {c.writeup}.**\n\n**Question.** {c.question}")

    def lead(self) -> None:
        """The headline sentence and one compact row per benchmark x params: the verdict first."""
        pairs = self.pairs
        c = self.case
        chosen = (c.candidate if c else "optimized", *(c.headline if c else ("", "")))
        self.result(headline.sentence(pairs, *chosen))
        if pairs.empty:
            return
        main = headline.lead(pairs, *chosen)
        self._main = (main.label, main.candidate)
        sequential = self.sequential()
        rule = (f"*faster*/*slower* need the CI beyond ±{THRESHOLD:.0%}, *same* inside it. The "
                f"CI is the sequential fork plan's repeated confidence interval (it keeps its 95% "
                f"however often the row was looked at); *forks per side* says how many each row "
                f"took and why it stopped" if sequential else
                f"*faster*/*slower* need p < 0.05 and the CI beyond ±{THRESHOLD:.0%}")
        # LEAD: its rows up to LEAD_ROWS, the main row and the largest changes first; beyond
        # them, a run of many benchmarks' least changes are the paste's DETAIL
        self.table("At a glance", tables.compact_table(pairs, self.checked_claims()),
                   note=self.glance_note(rule), priority=LEAD)
        left = (self.run.provenance or {}).get("left_out")
        if left and left.get("rows"):
            what = [f"{left['rows']} more benchmark × params × variant rows"]
            if left.get("variants"):
                what.append("the variants " + ", ".join(left["variants"]))
            if left.get("benchmarks"):
                what.append("the benchmarks " + ", ".join(left["benchmarks"]))
            self.text(f"**Left out of this run.** It measured the write-up's own rows (old against "
                      f"the write-up's variants) and left out {'; '.join(what)}. "
                      f"`{left['command']}` measures them.", priority=LEAD)

    def glance_note(self, rule: str) -> list[str | list[str]]:
        """Under the compact table: how to read it, what the verdicts rest on, the machine, then
        the undecided rows (a list: the paste may leave the last of them to report.html) and the
        forks that never settled (the Result leaves these out)."""
        pairs = self.pairs
        machine = noise.line(noise.of_run(self.run.frame, pairs, self.case.id if self.case else "",
                                          self.run.source))
        paragraphs: list[str | list[str]] = [
            f"Time per op new/old with its 95% CI over the forks (below 1: faster; throughput is "
            f"inverted); {rule}. {self.estimate_note()}{self.decided_note()}",
            f"**The machine.** {machine}" if machine else "",
            [f"Undecided: {n}." for n in tables.undecided_notes(pairs)],
            tables.unsettled_note(pairs),
            "Details, charts, the claims check and the environment follow."]
        return [p if isinstance(p, list) else p.strip() for p in paragraphs if p]

    def estimate_note(self) -> str:
        """'Verdicts rest on each fork's mean of its steady iterations. ', once per report."""
        if self._estimate_said or self.comparison is None:
            return ""
        self._estimate_said = True
        return f"Verdicts rest on {fmt.estimate_of(self.pairs)}. "

    def result(self, sentence: str) -> None:
        """The report's headline: first in every text, and what the overview shows of it."""
        self.headline = sentence
        self._add("Result", f"**Result.** {sentence}\n", f"*Result.* {_md_to_jira(sentence)}\n", LEAD)
        _show_html(f'<p id="headline" class="headline"><strong>Result.</strong> '
                   f'{markup.html_cell(sentence)}</p>')

    def measured(self, pairs: pd.DataFrame, what: str, least: int = 1) -> bool:
        """Whether this run measured a section's rows (at least ``least`` of them); if not, the
        report says so and names the command that does: the quick run leaves the sweeps out."""
        if len(pairs) >= least:
            return True
        left = (self.run.provenance or {}).get("left_out") or {}
        command = left.get("command") or (f"make report CASE={self.case.id} PROFILE=full"
                                          if self.case else "a run with these benchmarks")
        self.text(f"*{what}: not measured in this run; `{command}` measures it.*")
        return False

    def sequential(self) -> dict | None:
        """The sequential plan's record of this run, if it ran under one."""
        return (self.run.provenance or {}).get("sequential") if self.run else None

    def decided_note(self) -> str:
        """'3 of 4 time rows decided (1 stopped by the budget). '"""
        pairs = self.pairs
        if pairs.empty:
            return ""
        mine = tables.written(pairs)
        stops = Counter(s for s in mine.get("stopped", pd.Series(dtype=str)) if s and s != "decided")
        why = ", ".join(f"{n} {fmt.STOPPED[s]}" for s, n in sorted(stops.items()))
        return f"{fmt.fmt_decided(mine)} time rows decided" + (f" ({why})" if why else "") + ". "

    def finish(self, claims_note: str = "") -> None:
        """Claims check, flame graphs, environment and provenance, once, at the end; then the
        attachable texts."""
        if self.comparison is not None and not self.pairs.empty and "speed-ratio" not in self._chart_names:
            self.figure("speed-ratio", charts.ratio_chart(self.pairs, THRESHOLD),
                        "Time per op, each variant / old, with its 95% CI over fork means")
        self.where_the_bytes_went()
        self.where_the_time_went()
        if self.comparison is not None:
            self.add(run_sections.steady_state(self.pairs, self.run.frame))
        self.shards()
        if self.case is not None and self.comparison is not None:
            self.add(*upstream.fidelity(self.case, self.pairs, self.sites))
            if not self.pairs.empty:
                self.add(*upstream.left_on_the_table(self.case, self.pairs))
        if self.case is not None and self.comparison is not None:
            table = tables.claims_table(self.checked_claims())
            self.table("Claims check: the write-up's figures beside ours", table, note=claims_note or (
                "The write-up measured the upstream code on its own machine; we measure our models "
                "on ours. Absolute numbers differ; the question is whether each claimed direction "
                "reproduces."), priority=CORE)
        self.environment()
        self.write()

    def environment(self) -> None:
        """The page's last sections: a case's allocation flame graphs (`make profile`'s, where
        made), then where the numbers come from and what drew the report."""
        from ..paths import DEFAULT_PROFILE, reports_folder

        if self.case is not None:
            profile = (self.run.provenance or {}).get("profile", DEFAULT_PROFILE)
            self.add(run_sections.flame_graphs(self.case.id, profile,
                                               reports_folder(profile) / self.case.id / "flames"))
        self.add(run_sections.environment(self.run, str(_relative(self.run.source))))

    def where_the_bytes_went(self) -> None:
        """Each row's allocation sites, old against new (sections.evidence)."""
        if self.comparison is not None and not self.pairs.empty:
            self.add(evidence.where_the_bytes_went(self.pairs, self.sites, self.sites_command()))

    def where_the_time_went(self) -> None:
        """Each row's CPU time per op by frame, old against new (sections.evidence)."""
        if self.comparison is not None and not self.pairs.empty:
            self.add(evidence.where_the_time_went(self.pairs, self.profiles, self.cpu_remedy()))

    def shards(self) -> None:
        """A run cut into shards: which machine measured which rows (sections.run)."""
        self.add(run_sections.shards(self.run.provenance or {}))

    @property
    def sites(self) -> site_analysis.Sites:
        """The run's allocation sites (the site pass's ``<case>.sites.json``), read once."""
        if not hasattr(self, "_sites"):
            self._sites = site_analysis.read(self.run.source) if self.run else site_analysis.EMPTY
        return self._sites

    @property
    def profiles(self) -> cpu_analysis.Profiles:
        """The timed forks' CPU samples (``<case>.cpu.json``), read once."""
        if not hasattr(self, "_profiles"):
            self._profiles = cpu_analysis.read(self.run.source) if self.run else cpu_analysis.EMPTY
        return self._profiles

    def cpu_remedy(self) -> str:
        """What takes the CPU samples a run has not: for a case's run, make cpu in forks of their
        own; for two builds, a run made again (its timed forks now sample a tail of iterations)."""
        if self.case is None:
            return ("its timed forks took no CPU samples; the builds measured again take them (each "
                    "timed fork samples a few iterations after those it counts)")
        profile = (self.run.provenance or {}).get("profile", "quick") if self.run else "quick"
        return (f"`make cpu CASE={self.case.id} PROFILE={profile}` samples each row-side's CPU in "
                f"forks of its own")

    def sites_plan(self, table: pd.DataFrame) -> list[tuple[int, int]]:
        """A per-row table's lines (the sites', the frames') in the paste: the write-up's own
        rows' CORE (the Result's row first, then the largest change: paste.change_size), every
        other variant's (floor, upstream, the write-up's others) BULK in the table's order; a
        row's lines stay together (paste.table_block)."""
        mine = tables.written(self.pairs)
        if self._main:
            mine = mine[mine["candidate"] == self._main[1]]
        # each own row's name in the table, as the per-row tables name it, with its change
        own: dict[str, float] = {}
        for (_, r), change in zip(mine.iterrows(), paste.change_size(mine)):
            own[site_render.row_name(r)] = (math.inf if self._main and fmt.label(r) == self._main[0]
                                            else change)
        rank = {name: i for i, name in enumerate(sorted(own, key=lambda n: -own[n]))}
        label = ""
        out = []
        for i, cell in enumerate(table["row"].astype(str)):
            label = cell or label
            out.append((CORE, rank[label]) if label in rank else (BULK, len(rank) + i))
        return out

    def sites_command(self) -> str:
        p = self.run.provenance or {} if self.run else {}
        if self.case is None:
            return "a two-builds run made since the site pass (`make report BASELINE=… CANDIDATE=…`)"
        profile = p.get("profile", "quick")
        return f"`make sites CASE={self.case.id} PROFILE={profile}`"

    def text(self, markdown: str, jira: str | None = None, priority: int = DETAIL) -> None:
        """A paragraph (or a section of its own, headed ``## ...``); ``priority``: the paste's
        (hotpath.render.paste), where it is left out whole or kept."""
        jira = (jira if jira is not None else _md_to_jira(markdown))
        self.blocks.append(paste.text_block(_name_of(markdown), markdown, jira, priority))
        _show(markdown)

    def add(self, *sections: Section | None) -> None:
        """Each section laid out as the notebook shows it and the pastes carry it
        (hotpath.render.sections)."""
        for section in sections:
            if section is None:
                continue
            if section.table is None:
                self.text(section.text, priority=section.priority)
            else:
                self.table(section.heading, section.table, note=section.note, priority=section.priority,
                           rows=self._plan(section.rows, section.table), report_only=section.report_only)
            if section.graphs:
                _show_html(section.graphs)
            if section.figure is not None:
                self.figure(*section.figure)

    def _plan(self, rows: str | list[tuple[int, int]] | None, table: pd.DataFrame
              ) -> list[tuple[int, int]] | None:
        """How the paste ranks a section's table rows (Section.rows): given, or planned by name."""
        if not isinstance(rows, str):
            return rows
        if rows == PER_ROW:
            return self.sites_plan(table)
        if rows == PER_ROW_RESULT_FIRST:
            return [(DETAIL, rank) if priority == CORE and rank else (priority, rank)
                    for priority, rank in self.sites_plan(table)]
        raise ValueError(f"no paste plan named {rows!r}")

    def table(self, heading: str, table: pd.DataFrame, note: str | list = "",
              priority: int = DETAIL, rows: list[tuple[int, int]] | None = None,
              report_only: tuple[str, ...] = ()) -> None:
        """A table under its heading, with its note (a list: paragraphs, a list in it holding
        sentences the paste may leave out). ``priority``: the paste's for the table's rows;
        ``rows``: each row's (priority, rank) where they differ (by default: the Result's row
        first, then the largest changes where the rows are the report's pairs, the floor's and
        the release's rows at EXTRA; LEAD tables keep LEAD_ROWS rows at LEAD); ``report_only``:
        columns report.html shows and the pastes do not (links into the report itself)."""
        parts = [note] if isinstance(note, str) else list(note)
        if markup.unmeasured(table):
            # every format writes such a cell as "—" (markup.filled); why, once, under the table
            by = "by this profile" if (self.run.provenance or {}).get("profile") else "in this run"
            parts.append(f"{markup.UNMEASURED} not measured {by}.")
        parts = [p for p in parts if p]
        cut = next((i for i, p in enumerate(parts) if isinstance(p, list)), len(parts))
        before = "\n\n".join(parts[:cut])
        items = [s for p in parts[cut:cut + 1] for s in p]
        after = "\n\n".join(p for p in parts[cut + 1:] if isinstance(p, str))
        pasted = table.drop(columns=[c for c in report_only if c in table])
        plain = pasted.map(lambda v: markup.MD_LINK.sub(r"\1 (\2)", v) if isinstance(v, str) else v)
        self.blocks.append(paste.table_block(
            heading, _lines(markup.to_markdown(pasted)), _lines(markup.to_jira(plain)),
            rows if rows is not None else self.row_plan(table, priority),
            before, _md_to_jira(before), [(i, _md_to_jira(i)) for i in items],
            item_priority=max(priority, DETAIL), note_after=(after, _md_to_jira(after)),
            labels=_labels(table)))
        full = "\n\n".join([before, " ".join(items), after]).strip()
        _show(f"### {heading}")
        _show_html(markup.html_table(table))
        if full:
            _show(re.sub(r"\n{3,}", "\n\n", full))

    def row_plan(self, table: pd.DataFrame, priority: int) -> list[tuple[int, int]]:
        """Each row's (priority, rank) in the paste: the Result's row first, then, where the
        rows are the report's pairs, the largest change first (paste.change_size), else the
        table's order; the floor's and the release's rows at EXTRA; in a LEAD table, the rows
        beyond LEAD_ROWS at DETAIL."""
        n = len(table)
        first = str(table.columns[0]) if n else ""
        keys = [math.nan] * n
        pairs = self.pairs if self.comparison is not None else pd.DataFrame()
        variants = table["variant"].astype(str).tolist() if "variant" in table else [""] * n
        if first == "benchmark" and not pairs.empty:
            size = dict(zip(range(len(pairs)), paste.change_size(pairs)))
            labels = [fmt.label(r) for _, r in pairs.iterrows()]
            main_candidate = self._main[1] if self._main else ""
            for i, (label, variant) in enumerate(zip(table["benchmark"].astype(str), variants)):
                hits = [j for j, lab in enumerate(labels) if lab == label
                        and (not variant or pairs.iloc[j]["candidate"] == variant)]
                hits.sort(key=lambda j: pairs.iloc[j]["candidate"] != main_candidate)
                if hits:
                    keys[i] = size[hits[0]]
        if all(math.isnan(k) for k in keys):
            keys = [float(n - i) for i in range(n)]  # the table's order
        if self._main and first in ("benchmark", "row"):
            label, candidate = self._main
            for i, cell in enumerate(table[first].astype(str)):
                if cell == label and variants[i] in ("", candidate):
                    keys[i] = math.inf
        ranks = paste.ranked([k if not math.isnan(k) else -1.0 for k in keys])
        out = []
        for i in range(n):
            p = priority
            if variants[i] in compare.BEYOND:
                p = max(p, EXTRA)
            elif priority == LEAD and ranks[i] >= paste.LEAD_ROWS:
                p = DETAIL
            out.append((p, ranks[i]))
        return out

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
        self._add(f"the chart {path.name}", f"![{caption}]({path.name})\n\n*{caption}*\n",
                  f"!{path.name}|thumbnail!\n_{caption}_\n", CORE)
        _show_png(path, caption)
        _show(f"*{caption}*")

    def verdict_note(self, comparison: compare.Comparison | None = None) -> str:
        """How the verdicts were reached, what the figures are and what to be wary of
        (sections.verdicts)."""
        return verdicts.note(self._comparison(comparison), self.run, self.estimate_note())

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


def _relative(path: Path) -> Path:
    from ..paths import ROOT
    try:
        return Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return Path(path)


def _lines(text: str) -> list[str]:
    """A table's lines: one per row (a cell holds no line break; str.splitlines would also
    break at the separators Unicode has, which a cell may hold)."""
    return text.rstrip("\n").split("\n")


def _labels(table: pd.DataFrame) -> list[str]:
    """How a paste names each row it leaves: its first cell, and its variant where it has one."""
    if table.empty:
        return []
    first = table.iloc[:, 0].astype(str).map(lambda v: markup.MD_LINK.sub(r"\1", v))
    if "variant" in table and table.columns[0] != "variant":
        return [f"{f} {v}" for f, v in zip(first, table["variant"].astype(str))]
    return list(first)


def _name_of(markdown: str) -> str:
    """How the paste names a paragraph it leaves out: its heading, else its first words."""
    first = markdown.strip().splitlines()[0] if markdown.strip() else ""
    if first.startswith("#"):
        return first.lstrip("#").strip()
    words = re.sub(r"[*_`]", "", first).split()
    return " ".join(words[:8]) + (" …" if len(words) > 8 else "")


def _md_to_jira(text: str) -> str:
    """The little Markdown our notes use: **bold**, *italic*, `code`."""
    import re
    text = re.sub(r"(?<![*\w])\*(?!\*)([^*]+?)\*(?![*\w])", r"_\1_", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"*\1*", text)
    return re.sub(r"`([^`]+)`", r"{{\1}}", text)


def headline_of(report_dir: Path) -> str | None:
    """The verdict a written report leads with (its manifest's headline), or None."""
    try:
        return json.loads((report_dir / MANIFEST).read_text(encoding="utf-8")).get("headline")
    except (OSError, ValueError):
        return None
