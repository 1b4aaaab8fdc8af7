"""A report as it is written in a notebook: each section is shown in the notebook (and so in
the HTML) and collected for the two attachable texts, summary.md (GitHub) and jira.txt (Jira
wiki markup). PNG charts are written beside them, since neither GitHub Markdown nor Jira shows
embedded images."""

from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from . import compare, render
from .cases import get_case
from .load import Run
from .stats import THRESHOLD


def _show(obj) -> None:
    try:
        from IPython.display import Markdown, display
    except ImportError:  # outside IPython: the texts are still written
        return
    display(Markdown(obj) if isinstance(obj, str) else obj)


class Document:
    def __init__(self, case_id: str, run: Run, output_dir: str | Path,
                 heading: str = "", question: str = ""):
        """A case's report; with an empty case_id, a report titled by ``heading``."""
        self.case = get_case(case_id) if case_id else None
        self.heading = heading
        self.question = question
        self.run = run
        self.out = Path(output_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.md: list[str] = []
        self.jira: list[str] = []

    # -- pieces -------------------------------------------------------------------------
    def title(self) -> None:
        c = self.case
        if c is None:
            self.md.append(f"# {self.heading}\n\n**Question.** {self.question}\n")
            self.jira.append(f"h2. {self.heading}\n*Question.* {self.question}\n")
            _show(f"**Question.** {self.question}")
            return
        head = f"{c.id}: {c.title}"
        self.md.append(f"# {head}\n\n{c.system}, {c.writeup}.\n\n**Question.** {c.question}\n")
        self.jira.append(f"h2. {head}\n{c.system}, {c.writeup}.\n*Question.* {c.question}\n")
        _show(f"**{c.system}, {c.writeup}.**\n\n**Question.** {c.question}")

    def text(self, markdown: str, jira: str | None = None) -> None:
        self.md.append(markdown.strip() + "\n")
        self.jira.append((jira if jira is not None else _md_to_jira(markdown)).strip() + "\n")
        _show(markdown)

    def table(self, heading: str, table: pd.DataFrame, note: str = "") -> None:
        self.md.append(f"## {heading}\n\n{render.to_markdown(table)}" + (f"\n{note}\n" if note else ""))
        plain = table.map(lambda v: render.MD_LINK.sub(r"\1 (\2)", v) if isinstance(v, str) else v)
        self.jira.append(f"h3. {heading}\n{render.to_jira(plain)}" + (f"{_md_to_jira(note)}\n" if note else ""))
        _show(f"### {heading}")
        html = table.map(lambda v: render.html_cell(v) if isinstance(v, str) else v)
        _show(html.style.hide(axis="index"))
        if note:
            _show(note)

    def figure(self, name: str, fig, caption: str) -> None:
        # Returns nothing: a cell ending in doc.figure(...) would print the value into the report.
        path = render.save_png(fig, self.out / f"{name}.png")
        self.md.append(f"![{caption}]({path.name})\n\n*{caption}*\n")
        self.jira.append(f"!{path.name}|thumbnail!\n_{caption}_\n")
        _show(fig)
        plt.close(fig)

    def verdict_note(self, comparison: compare.Comparison) -> str:
        s = compare.summary(comparison)
        pairs = comparison.pairs
        lines = [
            f"Time verdicts use per-fork means (the fork is the unit of replication): a "
            f"Mann-Whitney U test and a 95% bootstrap CI of the ratio new/old; *faster*/*slower* "
            f"needs p < 0.05 and the CI beyond ±{THRESHOLD:.0%}, *same* needs the CI inside "
            f"±{THRESHOLD:.0%}, anything else is *inconclusive*. B/op changes count when they "
            f"exceed the run's own spread and 8 B.",
        ]
        if not math.isnan(s["time_geomean"]):
            lines.append(f"Geometric mean of time-per-op ratios (new/old): "
                         f"**{s['time_geomean']:.3f}**; of heap B/op ratios: "
                         f"**{s['alloc_geomean']:.3f}** (pairs falling to 0 B/op left out).")
        warnings = render.warnings_by_row(pairs)
        if warnings:
            lines.append("Warnings: " + "; ".join(warnings) + ".")
        if not comparison.unpaired.empty:
            lines.append("Not paired: " + "; ".join(
                f"{u.benchmark}({u.params}) {u.variant}: {u.reason}"
                for u in comparison.unpaired.itertuples()) + ".")
        return "\n\n".join(lines)

    def flame_graphs(self) -> None:
        """Links to the allocation flame graphs of `make profile`, if they were made."""
        from .paths import REPORTS

        if self.case is None:
            return
        folder = REPORTS / self.case.id / "flames"
        pages = sorted(folder.glob("*/flame-alloc-forward.html")) if folder.is_dir() else []
        if not pages:
            self.text(f"*No allocation flame graphs yet: `make profile CASE={self.case.id}` makes "
                      f"them (async-profiler, one fork, apart from the timing runs).*")
            return
        rows = []
        for page in pages:
            name = page.parent.name.replace("hotpath.", "").replace(f"{self.case.id}.", "", 1)
            rows.append({"benchmark": name,
                         "flame graph": f"[forward](flames/{page.parent.name}/{page.name}) · "
                                        f"[reverse](flames/{page.parent.name}/flame-alloc-reverse.html)"})
        self.table("Allocation flame graphs", pd.DataFrame(rows),
                   note="async-profiler `alloc` event, one fork per benchmark, apart from timing runs; "
                        "the pages render offline.")

    def environment(self) -> None:
        """Where the numbers come from: the raw file, the command, the commit, the machine."""
        self.flame_graphs()
        p = self.run.provenance or {}
        f = self.run.frame.iloc[0]
        rows = [
            ("results file", str(_relative(self.run.source))),
            ("profile", f"{p.get('profile', '?')}: {p.get('profile_settings', '?')}"),
            *_commands(p),
            ("git commit", f"{p.get('git_commit', '?')}" + _dirty(p)),
            ("date", p.get("started", "?")),
            ("CPU", f"{p.get('cpu_model', '?')}, {p.get('cores', '?')} cores"),
            ("OS", p.get("os", "?")),
            ("JDK", f"{f['jdk']}, {f['vm']}"),
            ("JMH", str(f["jmh_version"])),
            ("JVM args", f["jvm_args"] or "(none)"),
        ]
        self.table("Environment", pd.DataFrame(rows, columns=["what", "value"]))

    def write(self) -> None:
        (self.out / "summary.md").write_text("\n".join(self.md), encoding="utf-8")
        (self.out / "jira.txt").write_text("\n".join(self.jira), encoding="utf-8")


def _commands(p: dict) -> list[tuple[str, str]]:
    """The command that ran; for an interleaved run, its rounds (one fork each), then the merge."""
    rounds = p.get("interleaved_rounds")
    if not rounds:
        return [("command", p.get("command", "unknown (no provenance sidecar)"))]
    order = [m.group(1) if (m := re.search(r"variant=(\S+)", cmd)) else "?" for cmd in rounds]
    return [
        ("rounds", f"{len(rounds)} JMH runs of one fork each, in this order: {', '.join(order)}; "
                   "every command is in the provenance sidecar"),
        ("first round", rounds[0]),
        ("merged", "hotpath.interleave.merge: the rounds' forks in one file, score and error "
                   "recomputed as JMH does"),
    ]


def _dirty(p: dict) -> str:
    if not p.get("git_dirty"):
        return ""
    paths = p.get("git_dirty_paths")
    return f" (uncommitted changes: {', '.join(paths)})" if paths else " (uncommitted changes)"


def _relative(path: Path) -> Path:
    from .paths import ROOT
    try:
        return Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return Path(path)


def _md_to_jira(text: str) -> str:
    """The little Markdown our notes use: **bold**, *italic*, `code`."""
    import re
    text = re.sub(r"(?<![*\w])\*(?!\*)([^*]+?)\*(?![*\w])", r"_\1_", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"*\1*", text)
    return re.sub(r"`([^`]+)`", r"{{\1}}", text)
