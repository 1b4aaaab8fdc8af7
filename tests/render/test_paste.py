"""The pastes fit where they are pasted: jira.txt within Jira's 32,767 characters, summary.md and
index.md within GitHub's 65,536, each leading with what a reviewer reads, naming at its place
whatever it leaves to report.html, and ending on the line that names the attached full report."""

from __future__ import annotations

import math
import re
import subprocess
import sys

import pandas as pd
import pytest
from markdown_it import MarkdownIt

from hotpath.analyze import compare, load
from hotpath.render import markup, paste, tables
from hotpath.render.document import Document
from reading import md_tables

#: The attachment a paste names: report.html under the report's and its run's names, or the
#: overview's index.html
LAST_MD = re.compile(r"\*\*The full (report|overview), attached:\*\* `((?:[\w.-]+-)?report|index)\.html` .*\.\n\Z")
LAST_JIRA = re.compile(r"\*The full report, attached:\* \[\^(?:[\w.-]+-)?report\.html\] .*\.\n\Z")


def big_table(rows: int, groups_of: int = 1, variant: str = "optimized") -> pd.DataFrame:
    """A sites-like table: a row's first line names it, its other lines leave that cell blank."""
    return pd.DataFrame([{"row": f"run(n={i // groups_of})" if i % groups_of == 0 else "",
                          "variant": variant, "site": f"Buffer.grow → Arrays.copyOf: byte[] #{i}",
                          "old": f"{i:,} × 1,024 B", "new": "—", "Δ B/op": f"−{i * 1024:,}"}
                         for i in range(rows)])


def blocks_of(table: pd.DataFrame, plan: list[tuple[int, int]]) -> list[paste.Block]:
    lead = paste.text_block("Result", "**Result.** Faster.", "*Result.* Faster.", paste.LEAD)
    md, jira = markup.to_markdown(table).splitlines(), markup.to_jira(table).splitlines()
    return [lead, paste.table_block("Sites", md, jira, plan, "A note.", "A note."),
            paste.text_block("Environment", "## Environment\n\n" + "x " * 3000, "h3. Environment\n" + "x " * 3000,
                             paste.EXTRA)]


def column_counts_md(text: str) -> list[tuple[int, set[int]]]:
    """Per table a CommonMark + tables parser finds: its header's cells and the cells of each of
    its rows, counted in the lines it read them from (the parser pads or cuts a row silently)."""
    lines = text.splitlines()
    out = []
    for t in MarkdownIt("commonmark").enable("table").parse(text):
        if t.type == "table_open":
            counts = [len(re.split(r"(?<!\\)\|", line.strip())) - 2 for line in lines[t.map[0]:t.map[1]]]
            out.append((counts[0], set(counts[2:])))
    return out


# -- the fitter ----------------------------------------------------------------------------------

def test_an_oversized_paste_keeps_its_lead_trims_the_least_rows_whole_and_names_them():
    table = big_table(3000, groups_of=10)
    # the first 30 groups CORE, the rest BULK: the BULK groups go first, each whole
    plan = [(paste.CORE if i < 300 else paste.BULK, i) for i in range(len(table))]
    blocks = blocks_of(table, plan)
    whole = "\n".join(b.full(jira=True) for b in blocks)
    assert paste.size(whole) > paste.JIRA_LIMIT  # without the fitter it could not be pasted
    for jira, budget in ((True, paste.JIRA_BUDGET), (False, paste.MARKDOWN_BUDGET)):
        fitted = paste.fit(blocks, jira=jira)
        text = fitted.text
        assert paste.size(text) <= budget and len(text) <= (paste.JIRA_LIMIT if jira else paste.GITHUB_LIMIT)
        assert text.startswith("**Result.** Faster." if not jira else "*Result.* Faster.")
        # the kept groups are whole: every group's ten lines, the first ones in order
        kept = re.findall(r"byte\\?\[\\?\] #(\d+)", text)
        assert len(kept) % 10 == 0 and [int(k) for k in kept] == list(range(len(kept)))
        # every CORE group kept, the BULK groups left (before the EXTRA environment) but as many
        # as the room left holds: Jira's budget has none for the environment, named where it stood
        assert 300 <= len(kept) < 3000
        assert ("x x x" in text) == (not jira)
        assert bool(re.search(r"Left for the attached report\.html: Environment", text)) == jira
        more = re.search(r"(\d+) more of its 300 rows \((\d+) of 3000 lines\) in the attached report\.html: "
                         r"run\(n=(\d+)\)", text)
        assert more and int(more[1]) * 10 == int(more[2]) == 3000 - len(kept)
        assert int(more[3]) == len(kept) // 10  # the first group it left is named first
        assert (LAST_JIRA if jira else LAST_MD).search(text)
        assert f"Sites ({300 - len(kept) // 10} of 300 rows)" in text.splitlines()[-1]
        assert ("Environment" in text.splitlines()[-1]) == jira


def test_a_paste_that_fits_is_left_whole_and_still_names_the_attachment():
    table = big_table(20)
    blocks = blocks_of(table, [(paste.DETAIL, i) for i in range(20)])[:2]
    for jira in (True, False):
        fitted = paste.fit(blocks, jira=jira)
        assert fitted.left == ()
        assert fitted.text == "\n".join([*(b.full(jira) for b in blocks), fitted.text.splitlines()[-1] + "\n"])
        assert "has every section in full." in fitted.text.splitlines()[-1]


def test_essentials_over_the_limit_raise():
    lead = paste.text_block("Result", "**Result.** " + "word " * 7000, "*Result.* " + "word " * 7000, paste.LEAD)
    assert paste.fit([lead], jira=False).size < paste.MARKDOWN_BUDGET
    with pytest.raises(paste.PasteTooLong, match="over the 32,767 it may have"):
        paste.fit([lead], jira=True)


def test_the_same_blocks_fit_to_the_same_paste():
    plan = [(paste.BULK if i % 3 else paste.CORE, i) for i in range(2000)]
    first = paste.fit(blocks_of(big_table(2000, groups_of=4), plan), jira=True).text
    assert first == paste.fit(blocks_of(big_table(2000, groups_of=4), plan), jira=True).text


def test_the_length_counts_bytes_and_line_breaks_as_a_form_sends_them():
    assert paste.size("ab\n") == 4 and paste.size("×\n") == 4  # × is two bytes in UTF-8


# -- a report -------------------------------------------------------------------------------------

def many_benchmarks(data_dir, n: int) -> tuple[load.Run, compare.Comparison]:
    """A two-builds-like run of ``n`` benchmarks: one real pair, copied, each with its own change."""
    run = load.read_results(data_dir / "avgt-variant-gc.json")
    pairs = compare.pair(run.frame).pairs
    row = pairs.iloc[0]
    rows = []
    for i in range(n):
        r = row.copy()
        r["method"], r["params"] = f"bench{i:03d}", "size=64"
        r["benchmark"] = f"hotpath.demo.Demo.bench{i:03d}"
        r["ratio"] = 1.0 + ((i * 37) % 101 - 50) / 1000  # every change within ±5%, in no order
        r["change_pct"] = (r["ratio"] - 1) * 100
        r["alloc_verdict"] = "same"
        rows.append(r)
    big = pd.DataFrame(rows).reset_index(drop=True)
    return run, compare.Comparison(big, pairs.iloc[0:0], "old")


def test_a_two_builds_report_of_many_benchmarks_fits_and_keeps_the_largest_changes(data_dir, tmp_path):
    run, comparison = many_benchmarks(data_dir, 400)
    doc = Document("", run, tmp_path, heading="A/B: patch against master", question="Faster?",
                   comparison=comparison)
    doc.title()
    doc.lead()
    doc.table("Every row: master against patch", tables.wide_table(comparison.pairs, gc=True),
              note=doc.verdict_note())
    doc.environment()
    doc.write()
    assert paste.size("\n".join(doc.jira)) > paste.JIRA_LIMIT  # it could not be pasted whole
    sizes = {name: abs(math.log(r)) for name, r in
             zip(comparison.pairs["method"] + "(size=64)", comparison.pairs["ratio"])}
    for name, budget in (("jira.txt", paste.JIRA_BUDGET), ("summary.md", paste.MARKDOWN_BUDGET)):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert paste.size(text) <= budget
        assert (LAST_JIRA if name == "jira.txt" else LAST_MD).search(text)
        if name == "summary.md":
            glance = next(rows for h, _, rows in md_tables(text) if h == "At a glance")
            shown = [r["benchmark"] for r in glance]
        else:
            lines = text.split("h3. At a glance\n", 1)[1].splitlines()[1:]
            shown = [line.split("|")[1] for line in lines[:next(i for i, x in enumerate(lines)
                                                                 if not x.startswith("|"))]]
        assert paste.LEAD_ROWS <= len(shown) < 400
        # the main row first among equals, then the largest changes: no row left larger than one shown
        main = comparison.pairs.iloc[0]["method"] + "(size=64)"
        rest = [s for s in shown if s != main]
        left = set(sizes) - set(shown)
        assert min(sizes[s] for s in rest) >= max(sizes[s] for s in left)
        assert re.search(rf"{400 - len(shown)} more of its 400 rows in the attached {re.escape(doc.attachment)}", text)


def test_a_reports_paste_is_within_its_budget_where_its_whole_is_not(data_dir, tmp_path):
    run = load.read_results(data_dir / "avgt-variant-gc.json")
    doc = Document("", run, tmp_path, heading="h", question="q", comparison=compare.pair(run.frame))
    doc.title()
    doc.lead()
    doc.table("Where the bytes went", big_table(4000, groups_of=8), priority=paste.DETAIL)
    doc.text("## A long paragraph\n\n" + "words " * 8000, priority=paste.EXTRA)
    doc.write()
    assert paste.size("\n".join(doc.md)) > paste.GITHUB_LIMIT
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    jira = (tmp_path / "jira.txt").read_text(encoding="utf-8")
    assert paste.size(summary) <= paste.MARKDOWN_BUDGET and paste.size(jira) <= paste.JIRA_BUDGET
    # the lead whole, first
    assert summary.index("**Result.**") < summary.index("## At a glance") < summary.index("## Where the bytes went")
    # Markdown: every table keeps its columns in every row, as a CommonMark + tables parser reads it
    for header, rows in column_counts_md(summary):
        assert rows <= {header}, (header, rows)
    assert [h for h, _ in column_counts_md(summary)] == [len(c) for _, c, _ in md_tables(summary)]
    # Jira: through a Jira markup parser (jira2markdown, in a process of its own: see
    # tests/browser/jira_markup.py), on the paste fitted small enough to parse in a second
    small = paste.fit(doc.blocks, jira=True, budget=6000).text
    assert "more of its 500 rows" in small
    converted = subprocess.run(
        [sys.executable, "-c", "import sys; from jira2markdown import convert; "
                               "sys.stdout.write(convert(sys.stdin.read()))"],
        input=small, capture_output=True, text=True, check=True).stdout
    ours = [(len(line.split("||")) - 2) for line in small.splitlines() if line.startswith("||")]
    theirs = [(header, rows) for header, rows in column_counts_md(converted)]
    assert [h for h, _ in theirs] == ours and all(rows <= {h} for h, rows in theirs)
    assert "**The full report, attached:** [report.html](report.html)" in converted


# -- every paste the study writes -----------------------------------------------------------------

def pastes(folder) -> list:
    return sorted([*folder.glob("**/jira.txt"), *folder.glob("**/summary.md"), *folder.glob("index.md")])


def fits(path) -> list[str]:
    """What is wrong with one rendered paste: over its limit, or not ending on the attachment."""
    text = path.read_text(encoding="utf-8")
    jira = path.name == "jira.txt"
    limit = paste.JIRA_LIMIT if jira else paste.GITHUB_LIMIT
    out = []
    if len(text) > limit or paste.size(text) > limit:
        out.append(f"{path}: {len(text):,} characters ({paste.size(text):,} as a form sends them), "
                   f"over {limit:,}")
    if not (LAST_JIRA if jira else LAST_MD).search(text):
        out.append(f"{path}: does not end on the attached full report")
    return out


def test_every_paste_of_the_reference_fits_where_it_is_pasted(reference_reports):
    found = pastes(reference_reports)
    # the five cases and their matrices, the overview, the committed two builds and A/A
    assert len(found) >= 2 * 10 + 1
    assert [p for path in found for p in fits(path)] == []


def test_every_paste_of_a_recorded_run_fits_where_it_is_pasted(recorded_reports):
    assert [p for path in pastes(recorded_reports.reports) for p in fits(path)] == []


def test_the_reference_pastes_lead_with_what_a_reviewer_reads(reference_reports):
    """Every case's two pastes hold the Result, At a glance whole (past its first LEAD_ROWS rows,
    where the paste needs the room, a line names the rows it leaves), the claims check and the
    sites of the write-up's own variant's rows (in Jira's, where its budget runs out, the largest,
    the rest named); what they leave is the rest."""
    from hotpath.cases import CASES

    for case in CASES.values():
        summary = (reference_reports / case.id / "summary.md").read_text(encoding="utf-8")
        glance = next(rows for h, _, rows in md_tables(summary) if h == "At a glance")
        own = [r["benchmark"] + ("" if case.candidate == "optimized" else f" {case.candidate}")
               for r in glance if r.get("variant", case.candidate) == case.candidate]
        assert own
        for name in ("summary.md", "jira.txt"):
            text = (reference_reports / case.id / name).read_text(encoding="utf-8")
            jira = name == "jira.txt"
            head = "h3. " if jira else "## "
            assert ("*Result.*" if jira else "**Result.**") in text
            sections = {s.split("\n", 1)[0]: s for s in text.split("\n" + head)[1:]}
            kept = len([line for line in sections["At a glance"].splitlines() if line.startswith("|")]) \
                - (1 if jira else 2)
            # its first LEAD_ROWS rows are never left; a row past them may be, named in a line
            assert kept == len(glance) or (
                paste.LEAD_ROWS <= kept < len(glance)
                and f"{len(glance) - kept} more of its {len(glance)} rows" in sections["At a glance"]), \
                f"{case.id} {name}: At a glance not whole"
            assert "Claims check: the write-up's figures beside ours" in sections, (case.id, name)
            sites = sections["Where the bytes went: allocation sites, old against new"]
            firsts = {line.strip("|").split("|")[0].strip() for line in sites.splitlines()
                      if line.startswith("|")}
            # Markdown's holds every one; Jira's, where the claims check and At a glance leave too
            # little room, the largest, and names the rest in a line of their own
            missing = set(own) - firsts
            assert not missing or (jira and firsts & set(own) and " more of its " in sites), (case.id, name, missing)
