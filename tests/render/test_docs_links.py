"""The docs hold together: every relative link in README.md and docs/**/*.md resolves, every
generated block is in a file `make docs` writes, and every figure docs/method.md quotes is in
the evidence it links.

**Links.** A link is an inline Markdown link, `[text](target)` or `![alt](target)`, outside code
(fenced blocks and `code spans`). A target with a scheme (`https:`, `mailto:`) is not relative
and not checked. Otherwise its path, taken from the page's folder, must exist (a file or a
folder; an empty path is the page itself), and an `#anchor` on a Markdown target must be the
slug of one of its headings by GitHub's rules: the heading's text lower-cased, every character
but letters, digits, `_`, `-` and spaces dropped, spaces turned into `-`, and the n-th repeat
of a slug suffixed `-n`.

**Figures.** docs/method.md is read section by section: a section runs from one `## ` heading
to the next (its `### ` subsections included; the text before the first `## ` is one too).
Code, HTML comments, link targets and generated blocks are left out of the reading: code and
targets are not prose, and a generated block is the data itself (`test_quoted_figures_match_
the_data` holds it to them). A *figure* is a number (digits, thousands commas allowed) that has a
decimal point (0.894, 87.0), or is followed at once by `%` or `×` (37%, 4–5×), or is followed by
a space and `ns` or `µs` (40 µs); it is quoted as that text: `87.0`, `37%`, `5×`, `40 µs`. Whole
seconds, minutes and bytes are not figures here: in the method they are settings the code
defines (a 2 s scout, a 7 min 20 s budget, 8 bytes), not measurements. A
decimal right after the name of a piece of software (`JDK 17.0.15`, `CPython 3.11`) is its
version, not a figure. Every figure of a section must appear, not inside a longer number, in a
file under docs/evidence/ that the section links to, or in a generated block of that section.

**Lines.** No line of prose in docs/ runs past LONGEST characters: a table row (a line that opens
with `|`) and a fenced block are not prose; generated blocks are, and their generators wrap them.

**Glossary.** docs/glossary.md defines its terms in bold, one item each (`- **term**: ...`, a
second term in bold inside an item defined there too), in an order where no item's text, its code
spans left out, names a term defined below it (a term matches as a whole word, in the singular
or with an `s`, case aside). Every page a newcomer reads for the method (GUIDED) links the
glossary before it first names one of its terms; its title is not prose.

**Machines.** Every evidence file's `- **Machine:**` line names the CPU model its runs had, or
says it was not recorded, or that the evidence is a simulation.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from hotpath.render import docs

ROOT = Path(__file__).resolve().parents[2]
METHOD = "docs/method.md"
EVIDENCE = "docs/evidence"

FENCE = re.compile(r"^```.*?^```[^\n]*$", re.S | re.M)
CODE = re.compile(r"`(?:[^`\n]|\n(?!\n))+`")  # a code span may run over a line break, not a paragraph
COMMENT = re.compile(r"<!--.*?-->", re.S)
LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
NUMBER = r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.,])\d+(?:\.\d+)?"
FIGURE = re.compile(rf"(?P<number>{NUMBER})(?P<unit>%|×| ns\b| µs\b)?(?![\w])")
SOFTWARE = re.compile(r"(?:JDK|JMH|Java|CPython|Python|Ignite|RocketMQ|async-profiler|JUnit)\s$")


def pages(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown file under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def without_code(text: str) -> str:
    """The text with fenced blocks, code spans and HTML comments blanked (newlines kept)."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    return CODE.sub(blank, FENCE.sub(blank, COMMENT.sub(blank, text)))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text (its Markdown marks are punctuation and go too)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor GitHub gives the headings of a Markdown file, repeats numbered."""
    seen: dict[str, int] = {}
    found = set()
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    for m in HEADING.finditer(FENCE.sub(blank, COMMENT.sub(blank, path.read_text(encoding="utf-8")))):
        base = slug(m.group(2))
        n = seen.get(base, 0)
        found.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return found


def links(text: str) -> list[str]:
    """The targets of a text's inline links, outside code."""
    return [m.group("target") for m in LINK.finditer(without_code(text))]


def relative(target: str) -> bool:
    return not re.match(r"^[a-zA-Z][\w+.-]*:", target)


def broken_links(root: Path = ROOT) -> list[str]:
    """'docs/usage.md: method.md#profiles (no such heading)' for every relative link that does
    not resolve."""
    found = []
    for page in pages(root):
        for target in links(page.read_text(encoding="utf-8")):
            if not relative(target):
                continue
            path, _, anchor = target.partition("#")
            where = (page.parent / path).resolve() if path else page
            name = f"{page.relative_to(root).as_posix()}: {target}"
            if not where.exists():
                found.append(f"{name} (no such file)")
            elif anchor and where.suffix == ".md" and anchor not in anchors(where):
                found.append(f"{name} (no such heading)")
    return found


def sections(text: str) -> list[tuple[str, str]]:
    """(heading, text) of each `## ` section of a page, the text before the first one included."""
    parts = re.split(r"(?m)^(?=## )", text)
    return [(p.splitlines()[0] if p.startswith("## ") else "(before the first section)", p)
            for p in parts if p.strip()]


def figures(prose: str) -> list[str]:
    """The figures a piece of prose quotes, as the module's docstring defines them."""
    found = []
    for m in FIGURE.finditer(prose):
        number, unit = m.group("number"), m.group("unit") or ""
        if "." not in number and not unit:
            continue
        if "." in number and not unit and SOFTWARE.search(prose[max(0, m.start() - 20):m.start()]):
            continue
        found.append(number + unit)
    return found


def quotes(text: str, figure: str) -> bool:
    """Whether a text holds a figure, not inside a longer number."""
    return re.search(rf"(?<![\d.,]){re.escape(figure)}(?!\d|[.,]\d)", text) is not None


def unquoted_figures(root: Path = ROOT) -> list[str]:
    """'## The fork's estimate: 2.52%' for every figure of docs/method.md that neither the
    evidence its section links nor a generated block of that section holds."""
    method = root / METHOD
    evidence = (root / EVIDENCE).resolve()
    found = []
    for heading, text in sections(method.read_text(encoding="utf-8")):
        blocks = "\n".join(m.group("body") for m in docs.BLOCK.finditer(text))
        held = [blocks]
        for target in links(text):
            path = target.partition("#")[0]
            if relative(target) and path:
                file = (method.parent / path).resolve()
                if file.is_file() and file.is_relative_to(evidence):
                    held.append(file.read_text(encoding="utf-8"))
        prose = LINK.sub(lambda m: m.group("text"), without_code(docs.BLOCK.sub("", text)))
        for figure in figures(prose):
            if not any(quotes(t, figure) for t in held):
                found.append(f"{heading}: {figure}")
    return found


def test_every_relative_link_resolves():
    assert broken_links() == []


def test_every_figure_method_quotes_is_in_the_evidence_it_links():
    assert unquoted_figures() == []


def test_method_is_the_method_not_its_history():
    """At most 400 lines of its own: a generated block is the data's, not the method's."""
    text = (ROOT / METHOD).read_text(encoding="utf-8")
    assert len(docs.BLOCK.sub("", text).splitlines()) <= 400
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", without_code(text)), "a dated run belongs in docs/evidence/"


def test_every_evidence_file_is_one_that_make_docs_reads():
    """A generated block in an evidence file is checked against the data like any other."""
    for path in (ROOT / EVIDENCE).glob("*.md"):
        assert path.relative_to(ROOT).as_posix() in docs.FILES


def test_every_evidence_file_is_linked_from_the_method_or_the_index():
    linked = set()
    for page in (ROOT / METHOD, ROOT / EVIDENCE / "README.md"):
        linked |= {(page.parent / t.partition("#")[0]).resolve()
                   for t in links(page.read_text(encoding="utf-8")) if relative(t)}
    for path in (ROOT / EVIDENCE).iterdir():
        if path.name != "README.md":
            assert path.resolve() in linked, f"{path.name}: not in the evidence index"


# Each check fails where it should: a copy of the docs with one thing broken.

@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """README.md and docs/ copied; everything else they may link to, linked."""
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    for path in ROOT.iterdir():
        if path.name not in ("README.md", "docs"):
            (tmp_path / path.name).symlink_to(path)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name}: {old!r} is gone; the test needs another line to break"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_copy_is_whole(copy):
    assert broken_links(copy) == [] and unquoted_figures(copy) == []


def test_a_link_to_a_missing_file_is_found(copy):
    _edit(copy / "README.md", "](docs/usage.md)", "](docs/use.md)")
    assert broken_links(copy) == ["README.md: docs/use.md (no such file)"]


def test_a_link_to_a_missing_heading_is_found(copy):
    _edit(copy / "docs/usage.md", "(method.md#a-run-against-the-reference)", "(method.md#against-the-reference)")
    assert broken_links(copy) == ["docs/usage.md: method.md#against-the-reference (no such heading)"]


def test_a_renamed_heading_breaks_the_links_to_it(copy):
    _edit(copy / METHOD, "## Identical code: the A/A run", "## The A/A run")
    assert "docs/usage.md: method.md#identical-code-the-aa-run (no such heading)" in broken_links(copy)


def test_a_figure_the_evidence_does_not_hold_is_found(copy):
    _edit(copy / METHOD, "87.0 ns/op and 0.95% apart", "87.5 ns/op and 0.95% apart")
    assert unquoted_figures(copy) == ["## A quiet host: 87.5 ns"]


def test_a_figure_is_held_only_by_the_evidence_its_section_links(copy):
    """The fork's estimate's 2.52% is in which-fork-estimate.md; quoted in another section, which
    does not link that file, it is unquoted there."""
    _edit(copy / METHOD, "in the writer's `compressedMapFields(entries=30)`",
          "in the writer's `compressedMapFields(entries=30)` (a fork CV of 2.52%)")
    assert unquoted_figures(copy) == ["## Two passes: timing and memory: 2.52%"]


def test_a_stale_block_in_an_evidence_file_is_found(copy):
    """`docs.stale` reads the evidence files too; the blocks as the files hold them stand in for
    the data here (test_quoted_figures_match_the_data holds the two equal)."""
    made = {m.group("name"): m.group("body") for name in docs.FILES
            for m in docs.BLOCK.finditer((ROOT / name).read_text(encoding="utf-8"))}
    assert docs.stale(copy, made) == []
    page = copy / EVIDENCE / "what-the-default-run-decides.md"
    _edit(page, "| f1e6cd7 | 2026-11-25 |", "| f1e6cd7 | 2026-11-24 |")
    assert docs.stale(copy, made) == [f"{EVIDENCE}/what-the-default-run-decides.md: default-runs"]


@pytest.mark.parametrize("heading, anchor", [
    ("Memory that `-prof gc` cannot see", "memory-that--prof-gc-cannot-see"),
    ("The JDK × GC matrix", "the-jdk--gc-matrix"),
    ("The fork's estimate", "the-forks-estimate"),
    ("Identical code: the A/A run", "identical-code-the-aa-run"),
    ("Your master against your patch: two builds", "your-master-against-your-patch-two-builds"),
])
def test_slugs_follow_github(heading, anchor):
    assert slug(heading) == anchor


@pytest.mark.parametrize("prose, found", [
    ("took 37% of old's and 4–5× slower", ["37%", "5×"]),
    ("87.0 ns/op, 40 µs an op, 1,080 B and 6,648 B/op", ["87.0 ns", "40 µs"]),
    ("0.506 (0.452–0.566) in 24 forks, JDK 17.0.15 and CPython 3.11", ["0.506", "0.452", "0.566"]),
    ("MAP_3K at entries=30, round-12, OOPSLA 2017", []),
])
def test_what_counts_as_a_figure(prose, found):
    assert figures(prose) == found


# Lines, the glossary and the machines.

LONGEST = 300
GLOSSARY = "docs/glossary.md"
#: The pages a newcomer reads for the method and its use: each links the glossary before its terms.
GUIDED = ("docs/method.md", "docs/usage.md", "docs/results.md", "docs/reading-a-report.md",
          "docs/faq.md")
CPU = re.compile(r"AMD EPYC|Intel Xeon|not recorded|a simulation")


def long_lines(root: Path = ROOT) -> list[str]:
    """'docs/usage.md:7 (924)' for every line of prose in docs/ longer than LONGEST."""
    found = []
    for path in sorted((root / "docs").rglob("*.md")):
        text = FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)),
                         path.read_text(encoding="utf-8"))
        for n, line in enumerate(text.splitlines(), start=1):
            if len(line) > LONGEST and not line.lstrip().startswith("|"):
                found.append(f"{path.relative_to(root).as_posix()}:{n} ({len(line)})")
    return found


def glossary(root: Path = ROOT) -> list[tuple[list[str], str]]:
    """(the terms an item defines, its text without code) per item of the glossary, in order."""
    text = without_code((root / GLOSSARY).read_text(encoding="utf-8"))
    items = re.split(r"(?m)^- (?=\*\*)", text)[1:]
    return [(re.findall(r"\*\*([^*]+)\*\*", item), item) for item in items]


def _names(term: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(term)}s?(?![\w-])", re.IGNORECASE)


def forward_terms(root: Path = ROOT) -> list[str]:
    """'fork CV: verdict' for every glossary item that names a term defined below it."""
    items = glossary(root)
    found = []
    for i, (terms, text) in enumerate(items):
        body = re.sub(r"\*\*[^*]+\*\*", "", text)
        for later, _ in items[i + 1:]:
            for term in later:
                if term not in terms and _names(term).search(body):
                    found.append(f"{terms[0]}: {term}")
    return found


def terms_before_the_glossary(root: Path = ROOT) -> list[str]:
    """'docs/faq.md: fork' for every guided page that names a glossary term (its first, in the
    page's order) before its first link to the glossary, or never links it."""
    terms = [t for ts, _ in glossary(root) for t in ts]
    found = []
    for name in GUIDED:
        text = without_code((root / name).read_text(encoding="utf-8"))
        text = re.sub(r"\A#[^\n]*\n", "", text)  # the title
        link = re.search(r"\]\((?:\./)?glossary\.md[#)]", text)
        end = link.start() if link else len(text)
        hits = [(m.start(), t) for t in terms for m in [_names(t).search(text[:end])] if m]
        if hits or not link:
            found.append(f"{name}: {min(hits)[1] if hits else 'no link to the glossary'}")
    return found


def machines_not_named(root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted((root / EVIDENCE).glob("*.md")):
        if path.name == "README.md":
            continue
        m = re.search(r"(?m)^- \*\*Machine:\*\*.*(?:\n  .*)*", path.read_text(encoding="utf-8"))
        if not m or not CPU.search(m.group(0)):
            found.append(path.name)
    return found


def test_no_line_of_prose_in_the_docs_is_longer_than_300_characters():
    assert long_lines() == []


def test_the_glossary_defines_each_term_before_it_is_used():
    assert len(glossary()) >= 20
    assert forward_terms() == []


def test_every_guided_page_links_the_glossary_before_its_terms():
    assert terms_before_the_glossary() == []


def test_every_evidence_file_names_its_cpu_model():
    assert machines_not_named() == []


def test_a_long_line_a_forward_term_a_late_glossary_link_and_an_unnamed_machine_are_found(copy):
    _edit(copy / "docs/usage.md", "`make help` lists the targets to run", "x" * 301 + " `make help` lists the targets to run")
    assert long_lines(copy) and long_lines(copy)[0].startswith("docs/usage.md:")
    _edit(copy / GLOSSARY, "- **case**: one write-up's change", "- **case**: one write-up's change, its verdict")
    assert forward_terms(copy) == ["case: verdict"]
    _edit(copy / "docs/faq.md", "](glossary.md)", "](method.md)")
    assert terms_before_the_glossary(copy)[0].startswith("docs/faq.md: ")
    _edit(copy / EVIDENCE / "when-a-heap-change-counts.md", "CPU model not recorded", "the study's")
    assert machines_not_named(copy) == ["when-a-heap-change-counts.md"]
