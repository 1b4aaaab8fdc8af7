"""Every report and the overview show their charts, fetch nothing and open on the verdict."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import jira_markup
import pytest
from conftest import VIEWPORT

from hotpath.cases import existing_cases
from hotpath.paths import AA_REFERENCE, AB_REFERENCE, MECHANISMS_REFERENCE

#: The reports beyond the cases that the smoke pass renders from committed runs.
BEYOND = ([f"ab/{d.name}" for d in sorted(AB_REFERENCE.glob("*/")) if (d / "ab.json").is_file()]
          + (["aa"] if (AA_REFERENCE / "ab.json").is_file() else []))
#: A case rendered from the committed reference, whose allocation sites the smoke pass does not
#: record: its "Where the bytes went" and flame graphs.
WITH_SITES = "reference/encoder"


def pages(folder: Path) -> list[Path]:
    return [folder / "index.html", *sorted(folder.glob("*/report.html"))]


def open_page(browser, page_file: Path, shots: Path):
    """(text, images, requests outside the file, headline box) of a page, and a screenshot."""
    page = browser.new_page(viewport=VIEWPORT)
    own = page_file.resolve().as_uri()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if r.url != own and not r.url.startswith("data:") else None)
    page.goto(own, wait_until="load")
    images = page.eval_on_selector_all(
        "img", "els => els.map(e => ({alt: e.alt, width: e.naturalWidth, done: e.complete}))")
    headline = page.locator(".headline").first
    box = headline.bounding_box() if headline.count() else None
    text = page.inner_text("body")
    shots.mkdir(parents=True, exist_ok=True)
    name = "index" if page_file.name == "index.html" else page_file.parent.name
    page.screenshot(path=str(shots / f"{name}.png"))
    page.close()
    return text, images, outside, box


def test_every_case_has_a_report(reports):
    rendered = {p.parent.name for p in reports.glob("*/report.html")}
    missing = {c.id for c in existing_cases()} - rendered
    assert not missing, f"no report rendered for {sorted(missing)}"


@pytest.mark.parametrize("name", ["index", *[c.id for c in existing_cases()], *BEYOND])
def test_page_shows_its_charts_fetches_nothing_and_opens_on_the_headline(browser, reports, name):
    page_file = reports / ("index.html" if name == "index" else f"{name}/report.html")
    if not page_file.is_file():
        pytest.skip(f"{page_file} not rendered")
    text, images, outside, box = open_page(browser, page_file, reports / "screenshots")
    assert images, "a report without a single chart"
    broken = [i["alt"] for i in images if not i["done"] or i["width"] == 0]
    assert not broken, f"images that do not decode: {broken}"
    assert outside == [], f"the page requests files outside itself: {outside[:3]}"
    assert "<Figure" not in text, "a chart printed as its text repr instead of its picture"
    assert "PosixPath(" not in text
    assert box is not None, "no headline on the page"
    assert box["y"] + min(box["height"], 60) < VIEWPORT["height"], \
        f"the headline starts below the first screen (y = {box['y']:.0f})"


#: Every table against the column it sits in: the report's content box (main; the overview's
#: body), narrowed by the output area that holds it. A table wider than that is cut off at the
#: page's edge or scrolls sideways inside its box; either way its last columns are out of sight.
TABLES_PAST_THE_PAGE = """() => {
  const page = document.querySelector('main') || document.body;
  const inner = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return [r.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft),
            r.right - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight)]; };
  const [left, right] = inner(page);
  return [...document.querySelectorAll('table')].flatMap((t, i) => {
    const [boxLeft, boxRight] = inner(t.parentElement);
    const r = t.getBoundingClientRect();
    const over = Math.max(r.right - Math.min(right, boxRight), Math.max(left, boxLeft) - r.left,
                          t.scrollWidth - t.clientWidth);
    return over > 1 ? [{table: i + 1, heads: t.querySelector('tr').innerText.slice(0, 60),
                        width: Math.round(r.width), over: Math.round(over)}] : [];
  });
}"""


@pytest.mark.parametrize("name", ["index", *[c.id for c in existing_cases()], *BEYOND, WITH_SITES])
def test_every_table_fits_its_page(browser, reports, name):
    page_file = reports / ("index.html" if name == "index" else f"{name}/report.html")
    if not page_file.is_file():
        pytest.skip(f"{page_file} not rendered")
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(page_file.resolve().as_uri(), wait_until="load")
    past = page.evaluate(TABLES_PAST_THE_PAGE)
    tables = page.locator("table").count()
    page.close()
    assert tables, "a page without a table"
    assert not past, f"tables wider than the page at {VIEWPORT['width']} px: {past}"


def jira_tables(text: str) -> list[tuple[int, list[int]]]:
    """(header cells, cells per row) of every Jira table: ||h||h|| then |c|c| lines."""
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("||"):
            current = (len(_cells(line, "||")), [])
            tables.append(current)
        elif line.startswith("|") and current is not None:
            current[1].append(len(_cells(line, "|")))
        else:
            current = None
    return tables


def _cells(line: str, sep: str) -> list[str]:
    # Every bar is a separator: a bar inside a cell is written as &#124;.
    return line.strip().split(sep)[1:-1]


def markdown_tables(text: str) -> list[tuple[int, list[int]]]:
    """(header cells, cells per row) of every Markdown table the Jira parser produced: a row
    the parser split or merged differently from ours shows, not only the header."""
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("|"):
            cells = len(re.split(r"(?<!\\)\|", line.strip())) - 2
            if current is None:
                current = (cells, [])
                tables.append(current)
            elif not re.fullmatch(r"\|[\s\-:|]+\|", line.strip()):
                current[1].append(cells)
        else:
            current = None
    return tables


JIRA_REPORTS = [*[c.id for c in existing_cases()], *BEYOND]


@pytest.fixture(scope="session")
def jira_parsed(reports) -> dict[str, str]:
    """Every report's jira.txt through the parser whole, the files spread over the cores: the
    parser takes about 0.4 s of CPU per kilobyte (linear in the length: a table's cells are
    parsed twice, as a row and then as markup), and the reports hold some 150 KB."""
    paths = {name: reports / name / "jira.txt" for name in JIRA_REPORTS}
    # the largest first, so that no worker is left with a long file at the end
    paths = dict(sorted(((name, p) for name, p in paths.items() if p.is_file()),
                        key=lambda item: -item[1].stat().st_size))
    return dict(zip(paths, jira_markup.all_to_markdown(list(paths.values()), os.cpu_count() or 2)))


@pytest.mark.parametrize("name", JIRA_REPORTS)
def test_jira_text_keeps_every_table_whole_through_a_jira_parser(reports, jira_parsed, name):
    path = reports / name / "jira.txt"
    if not path.is_file():
        pytest.skip(f"{path} not rendered")
    text = path.read_text(encoding="utf-8")
    ours = jira_tables(text)
    assert ours, "jira.txt without a table"
    for header, rows in ours:
        assert all(n == header for n in rows), f"a row with a different cell count: {header} vs {rows}"
    assert markdown_tables(jira_parsed[name]) == ours
    # the verdict first: the headline comes before the first table
    assert text.index("*Result.*") < text.index("||")


def _pastes(reports: Path) -> list[Path]:
    return sorted([*reports.glob("**/jira.txt"), *reports.glob("**/summary.md"), reports / "index.md"])


def test_every_paste_fits_where_it_is_pasted_and_ends_on_the_attached_report(reports):
    """Every jira.txt within Jira's 32,767 characters, every summary.md and the overview's
    index.md within GitHub's 65,536 (counted as a form sends them: UTF-8 bytes, line breaks as
    two), each ending on the line that names the attached full report."""
    from hotpath.render import paste

    found = [p for p in _pastes(reports) if p.is_file()]
    assert len(found) >= 2 * (len(existing_cases()) + len(BEYOND)) + 1
    over, unnamed = [], []
    for path in found:
        text = path.read_text(encoding="utf-8")
        limit = paste.JIRA_LIMIT if path.name == "jira.txt" else paste.GITHUB_LIMIT
        if max(len(text), paste.size(text)) > limit:
            over.append(f"{path.relative_to(reports)}: {paste.size(text):,} > {limit:,}")
        last = text.rstrip("\n").splitlines()[-1]
        if not re.match(r"\*{1,2}The full (report|overview), attached:", last):
            unnamed.append(str(path.relative_to(reports)))
    assert over == [] and unnamed == []


def test_every_summary_keeps_its_tables_columns_as_a_markdown_parser_reads_them(reports):
    """Each table a Markdown parser finds in a summary.md (or index.md), line by line: as many
    cells in every row as in its header (the parser itself pads or cuts a row silently)."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark").enable("table")
    wrong = []
    for path in [p for p in _pastes(reports) if p.is_file() and p.suffix == ".md"]:
        lines = path.read_text(encoding="utf-8").splitlines()
        for t in parser.parse("\n".join(lines)):
            if t.type == "table_open":
                counts = [len(re.split(r"(?<!\\)\|", line.strip())) - 2 for line in lines[t.map[0]:t.map[1]]]
                if len(set(counts)) != 1:
                    wrong.append(f"{path.relative_to(reports)}:{t.map[0] + 1}: {counts}")
    assert wrong == []


#: What a differential flame graph drew: its frames per level (async-profiler's page keeps them
#: in `levels`), the names of its frames, its title and whether its canvas is there.
FLAME_DRAWN = """() => ({levels: levels.filter(l => l.length).length,
                          names: [...new Set(levels.flat().map(f => f.title))],
                          title: (document.querySelector('h1') || {}).textContent || '',
                          canvas: !!document.getElementById('canvas')})"""
#: One embedded graph inflated by the report's own opener (hotpath.render.flamegraphs.OPENER),
#: without a tab: its blob URL, whether it holds the graph's canvas, its title and its size.
INFLATED = """async id => {
  const url = await window.hotpathFlames.page(id);
  const html = await (await fetch(url)).text();
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return {url, canvas: !!doc.getElementById('canvas'), size: html.length,
          title: (doc.querySelector('h1') || {}).textContent || ''};
}"""
#: A report's links to the flame graphs it carries (hotpath.render.flamegraphs).
GRAPH_LINKS = "a[href^='#flame-']"


def _links(page) -> list[str]:
    return page.eval_on_selector_all(GRAPH_LINKS, "els => els.map(e => e.getAttribute('href'))")


class Opened:
    """A report opened alone, as a reader opens its attachment, and each of its flame graphs
    opened from it as a reader does: a click on its link, which opens it in a tab of its own.
    Collects what any of its pages said on the console or threw, and every request made."""

    def __init__(self, browser, report: Path):
        self.context = browser.new_context(viewport=VIEWPORT)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.context.on("page", self._watch)
        self.page = self.context.new_page()
        self.page.goto(report.resolve().as_uri(), wait_until="load")
        self.own = report.resolve().as_uri()

    def _watch(self, page) -> None:
        page.on("console", lambda m: self.errors.append(f"{page.url}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))

    def graph(self, link: str, shot: Path | None = None) -> dict:
        """What the graph a link opens drew (FLAME_DRAWN); with ``shot``, its screenshot there."""
        with self.context.expect_page(timeout=10_000) as opened:
            self.page.click(f"a[href='{link}']")
        tab = opened.value
        tab.wait_for_function("() => typeof levels !== 'undefined'", timeout=10_000)
        drawn = {**tab.evaluate(FLAME_DRAWN), "url": tab.url}
        if shot is not None:
            shot.parent.mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=str(shot))
        tab.close()
        return drawn

    def outside(self) -> list[str]:
        """Requests for anything but the report itself and the pages it made (blob:, about:)."""
        return [u for u in self.requests if u != self.own and not u.startswith(("blob:", "data:", "about:"))]

    def close(self) -> None:
        self.context.close()


def _with_graphs(reports: Path) -> list[Path]:
    """Every rendered report, at any depth, that links a flame graph."""
    return [p for p in sorted(reports.glob("**/report.html"))
            if 'href="#flame-' in p.read_text(encoding="utf-8")]


def test_every_report_attached_alone_opens_every_graph_it_links(browser, reports, tmp_path):
    """Each report.html copied alone into an empty folder, as a Jira attachment is opened: every
    flame graph link opens its graph, inflated from the page itself, drawn, titled, with nothing
    fetched and nothing said on the console."""
    found = _with_graphs(reports)
    if not any(p.parent == reports / WITH_SITES for p in found):
        pytest.fail(f"no flame graph linked from {reports / WITH_SITES}/report.html (make "
                    f"test-smoke-reports renders it from the committed reference)")
    for n, source in enumerate(found):
        alone = tmp_path / str(n)
        alone.mkdir()
        shutil.copyfile(source, alone / "report.html")
        opened = Opened(browser, alone / "report.html")
        try:
            links = _links(opened.page)
            assert links and len(links) % 2 == 0, source
            assert any(link.endswith("-dropped") for link in links) and any(link.endswith("-added") for link in links)
            # every graph inflated by the page's own code, as a click inflates it; the first and
            # the last of each report opened as a reader opens them, in a tab of their own, and
            # drawn (a click and a tab for each of a hundred graphs took minutes of make test)
            for link in links:
                inflated = opened.page.evaluate(INFLATED, link[1:])
                assert inflated["url"].startswith("blob:"), (source, link, inflated["url"])
                assert inflated["canvas"] and inflated["size"] > 1000, f"{source}: {link}: {inflated}"
                assert inflated["title"].startswith(_row(link, inflated["title"])), (link, inflated["title"])
            for link in {links[0], links[-1]}:
                drawn = opened.graph(link)
                assert drawn["url"].startswith("blob:"), (source, link, drawn["url"])
                assert drawn["canvas"] and drawn["levels"] >= 2, f"{source}: {link}: nothing drawn"
                assert drawn["title"].startswith(_row(link, drawn["title"])), (link, drawn["title"])
            assert opened.outside() == [], f"{source}: fetched {opened.outside()[:3]}"
            assert opened.errors == [], f"{source}: {opened.errors[:3]}"
        finally:
            opened.close()
        assert sorted(p.name for p in alone.iterdir()) == ["report.html"]


def _row(link: str, title: str) -> str:
    """The start every graph's title has: the row's label, which the link's id holds too."""
    label = title.split(":", 1)[0]
    assert re.sub(r"[^A-Za-z0-9_]+", "-", label).strip("-") in link, (link, title)
    return label


def test_every_rows_flame_graphs_draw_its_sites(browser, reports):
    folder = reports / WITH_SITES
    if not (folder / "report.html").is_file():
        pytest.fail(f"{folder}/report.html is missing (make test-smoke-reports renders it)")
    assert "Where the bytes went" in (folder / "summary.md").read_text(encoding="utf-8")
    opened = Opened(browser, folder / "report.html")
    try:
        links = [link for link in _links(opened.page) if link.startswith("#flame-sites-")]
        assert links and len(links) % 2 == 0, "no flame graph of the sites linked from the report"
        # every graph is drawn by the same converter: a few rows' open as a reader opens them
        for link in [*links[:4], *(link for link in links if "payload-STR_1K-optimized" in link)]:
            shot = (reports / "screenshots" / "flame-dropped.png"
                    if link.endswith("EncoderPayload-encode-payload-STR_1K-optimized-dropped") else None)
            drawn = opened.graph(link, shot)
            assert drawn["levels"] >= 3, f"{link}: nothing drawn"
            assert any("Benchmark." in n for n in drawn["names"]), link  # the row's own frames
        # old's graph shows the copies the write-up removed: the trim copy among them (the row of
        # EncoderPayload; EncoderMechanisms has an encode(payload=STR_1K) too)
        names = opened.graph("#flame-sites-EncoderPayload-encode-payload-STR_1K-optimized-dropped")["names"]
        assert "ByteArrayList.entireArray" in names and "ByteArrayOutputStream.toByteArray" in names
        assert opened.outside() == [] and opened.errors == []
    finally:
        opened.close()


def test_every_rows_cpu_flame_graphs_draw_its_frames(browser, reports):
    """In every rendered report with CPU samples, at any depth (make test renders WITH_SITES,
    the reference's encoder, which carries them; a render of the reference, all five)."""
    folders = [p.parent for p in _with_graphs(reports)
               if 'href="#flame-cpu-' in p.read_text(encoding="utf-8")]
    if not folders:
        pytest.fail(f"no report under {reports} has CPU flame graphs (make test-smoke-reports "
                    f"renders {WITH_SITES}, whose committed reference carries CPU samples)")
    for folder in folders:
        opened = Opened(browser, folder / "report.html")
        try:
            links = [link for link in _links(opened.page) if link.startswith("#flame-cpu-")]
            text = opened.page.inner_text("body")
            assert "Where the time went" in text and "Where the time went" in (folder / "summary.md").read_text()
            assert len(links) % 2 == 0, f"{folder.name}: a row without both its CPU flame graphs"
            for link in links[:4]:
                shot = (reports / "screenshots" / "cpu-flame-dropped.png"
                        if folder == reports / WITH_SITES and link == links[0] else None)
                drawn = opened.graph(link, shot)
                assert drawn["levels"] >= 3, f"{folder.name}/{link}: nothing drawn"
                # the benchmark thread's, from JMH's stub
                assert any("jmhStub" in n for n in drawn["names"]), f"{folder.name}/{link}"
            assert opened.outside() == [] and opened.errors == [], folder.name
        finally:
            opened.close()


def test_the_reference_splits_its_change_in_a_waterfall_that_opens(browser, reports):
    """The committed run of the mechanisms (data/reference/mechanisms/) gives the reference's
    encoder report its "Which change pays": the waterfall decodes offline, its line is in the
    page and in the paste."""
    assert (MECHANISMS_REFERENCE / "encoder.json").is_file(), \
        "no committed run of the mechanisms (make mechanisms REPLACE=mechanisms)"
    folder = reports / WITH_SITES
    if not (folder / "report.html").is_file():
        pytest.fail(f"{folder}/report.html is missing (make test-smoke-reports renders it)")
    text, images, outside, _ = open_page(browser, folder / "report.html", reports / "screenshots")
    waterfalls = [i for i in images if i["alt"].startswith("Which change pays")]
    assert len(waterfalls) == 1, [i["alt"][:60] for i in images]
    assert waterfalls[0]["done"] and waterfalls[0]["width"] > 0, "the waterfall does not decode"
    assert outside == []
    assert "data/reference/mechanisms/encoder.json" in text, "the parts' run is not named"
    for pasted in ("jira.txt", "summary.md"):
        assert "Which change pays, EncoderMechanismsBenchmark.encode(payload=STR_64):" in (folder / pasted).read_text(encoding="utf-8"), pasted
