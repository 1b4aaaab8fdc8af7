"""What a reader attaches to an issue: report.html holds every graph it links (nothing beside it
is needed), and the files a paste names carry the report's and its run's names, so that a second
report attached to the same issue never shadows the first's."""

from __future__ import annotations

import re
from pathlib import Path

from hotpath.cases import CASES
from hotpath.paths import REFERENCE
from hotpath.render import report
from hotpath.runs import run_id

#: What a paste names: Jira's embedded pictures (!name.png|thumbnail!) and attachment links
#: ([^name]); Markdown's pictures (![caption](name)) and its last line's `name`.
JIRA_NAMES = re.compile(r"!([^\s!|]+\.png)(?:\|[^!]*)?!|\[\^([^\]]+)\]")
MD_NAMES = re.compile(r"!\[.*?\]\(([^()\s]+)\)|attached:\*\* `([^`]+)`")


def named(paste: Path) -> set[str]:
    """Every file a paste (jira.txt, summary.md) names."""
    pattern = JIRA_NAMES if paste.name == "jira.txt" else MD_NAMES
    return {a or b for a, b in pattern.findall(paste.read_text(encoding="utf-8"))}


def report_folders(root: Path) -> list[Path]:
    return sorted(p.parent for p in root.glob("**/report.html"))


def test_every_name_a_paste_gives_is_a_file_of_its_report_and_carries_its_run(reference_reports):
    folders = report_folders(reference_reports)
    assert len(folders) >= 10  # the five cases and their matrices, two builds, the A/A
    names = {}
    for folder in folders:
        jira, md = named(folder / "jira.txt"), named(folder / "summary.md")
        # Markdown's paste names every attachment; Jira's, within its budget, may leave a
        # section whole, its chart with it, and names it where it stood
        assert jira <= md, folder
        assert jira == md or "Left for the attached" in (folder / "jira.txt").read_text(encoding="utf-8"), folder
        assert any(n.endswith("-report.html") for n in jira) and any(n.endswith(".png") for n in jira)
        missing = [n for n in md if not (folder / n).is_file()]
        assert missing == [], f"{folder.name}: named, not written: {missing}"
        assert set(report.attachments(folder)) == md
        assert (folder / next(n for n in jira if n.endswith("-report.html"))).read_bytes() \
            == (folder / "report.html").read_bytes()
        names[folder] = md
    # no two reports name one file: each attachment starts with its report's and run's names
    every = [n for found in names.values() for n in found]
    assert len(every) == len(set(every))
    encoder = reference_reports / "encoder"
    stem = f"encoder-{run_id(REFERENCE / 'encoder.json')}"
    assert names[encoder] >= {f"{stem}-report.html", f"{stem}-speed-ratio.png"}
    assert names[encoder] != names[reference_reports / "writer"]


def test_every_report_holds_the_graphs_it_links(reference_reports):
    """No link to a file beside report.html (sites/, cpu/): each flame graph link points at an
    element of the page that carries the graph; and no such folder is written."""
    with_graphs = 0
    for folder in report_folders(reference_reports):
        page = (folder / "report.html").read_text(encoding="utf-8")
        assert not re.search(r"""href=["'](?:\./)?(?:sites|cpu)/""", page), folder
        links = set(re.findall(r'href="#(flame-[^"]+)"', page))
        # (the export writes an element's attributes in its own order)
        carried = {re.search(r'\bid="([^"]+)"', tag).group(1)
                   for tag in re.findall(r'<script\b[^>]*type="application/octet-stream"[^>]*>', page)}
        assert links == carried, f"{folder.name}: linked, not carried: {sorted(links - carried)[:3]}"
        assert not (folder / "sites").exists() and not (folder / "cpu").exists()
        for paste in ("jira.txt", "summary.md"):
            text = (folder / paste).read_text(encoding="utf-8")
            assert "#flame-" not in text and ".dropped.html" not in text, (folder.name, paste)
        with_graphs += bool(links)
    # every case of the reference carries its sites' and its CPU samples' graphs
    assert with_graphs >= len(CASES)
    encoder = (reference_reports / "encoder" / "report.html").read_text(encoding="utf-8")
    # two benchmark classes have encode(payload=STR_1K): each graph's name says whose it is
    assert 'id="flame-sites-EncoderPayload-encode-payload-STR_1K-optimized-dropped"' in encoder
    assert 'id="flame-cpu-EncoderPayload-encode-payload-STR_1K-optimized-added"' in encoder
    assert 'id="flame-cpu-EncoderMechanisms-encode-payload-STR_1K-optimized-added"' in encoder


def test_the_allocation_flame_graphs_of_make_profile_are_carried_too(tmp_path, monkeypatch):
    from hotpath import paths
    from hotpath.render import document, page

    shown = []
    monkeypatch.setattr(paths, "REPORTS", tmp_path)
    monkeypatch.setattr(page, "show_html", shown.append)
    # the reference's run: its profile's reports folder (paths.reports_folder)
    graph = tmp_path / "reference" / "encoder" / "flames" / "hotpath.encoder.EncoderPayloadBenchmark.encode"
    graph.mkdir(parents=True)
    (graph / "flame-alloc-forward.html").write_text("<h1>forward</h1>")
    (graph / "flame-alloc-reverse.html").write_text("<h1>reverse</h1>")
    doc = document.Document.open("encoder", REFERENCE / "encoder.json", tmp_path / "out")
    doc.environment()  # the case's flame graphs, then its environment
    page = "".join(shown)
    assert "flames/" not in page
    for side in ("forward", "reverse"):
        anchor = f"flame-flames-hotpath-encoder-EncoderPayloadBenchmark-encode-{side}"
        assert f'href="#{anchor}"' in page and f'id="{anchor}"' in page
    pasted = "".join(doc.md + doc.jira)
    assert "EncoderPayloadBenchmark.encode" in pasted and "flames/" not in pasted and "#flame" not in pasted


def test_every_report_of_the_reference_is_within_jiras_attachment_limit(reference_reports):
    """Jira's default attachment limit is 10 MB; the reference's largest report is some 2 MB."""
    sizes = {p.parent.relative_to(reference_reports).as_posix(): p.stat().st_size
             for p in reference_reports.glob("**/report.html")}
    assert sizes and max(sizes.values()) < 10 * 1024 * 1024, sizes
