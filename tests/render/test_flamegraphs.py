"""A report's flame graphs travel inside it: each page gzipped into an element its link points
at, the same bytes for the same graph, and no file beside the report."""

import base64
import gzip
import os
import re

import pytest

from hotpath.paths import JAR
from hotpath.render import flamegraphs as F

PAGES = {"encode-payload-STR_1K-optimized": ("<h1>dropped &amp; gone</h1>" + "x" * 5000,
                                             "<h1>added</h1>" + "y" * 5000)}


def test_each_page_is_carried_gzipped_in_the_element_its_link_points_at():
    links, markup = F.embedded("sites", PAGES)
    dropped, added = links["encode-payload-STR_1K-optimized"]
    assert (dropped, added) == ("#flame-sites-encode-payload-STR_1K-optimized-dropped",
                                "#flame-sites-encode-payload-STR_1K-optimized-added")
    for link, page in zip((dropped, added), PAGES["encode-payload-STR_1K-optimized"]):
        found = re.search(rf'<script type="application/octet-stream" id="{link[1:]}" '
                          rf'data-title="([^"]*)">([A-Za-z0-9+/=]+)</script>', markup)
        assert found, link
        assert gzip.decompress(base64.b64decode(found.group(2))).decode() == page
    assert 'data-title="dropped &amp; gone"' in markup
    assert markup.count("window.hotpathFlames") >= 1 and "DecompressionStream('gzip')" in markup
    assert len(markup) < 5000, "5,000 repeated characters each should gzip to almost nothing"
    # the same graphs, the same bytes: a report rendered twice from one run does not differ
    assert F.embedded("sites", PAGES) == (links, markup)
    assert F.embedded("cpu", {}) == ({}, "")


def test_an_anchor_holds_no_character_a_fragment_would_escape():
    assert F.anchor("cpu", "encode-a=b,c_d.e", "added") == "flame-cpu-encode-a-b-c_d-e-added"


def test_the_lab_keeps_its_files(tmp_path):
    links = F.written(tmp_path, "cpu", PAGES)
    assert links == {"encode-payload-STR_1K-optimized": (
        "cpu/encode-payload-STR_1K-optimized.dropped.html", "cpu/encode-payload-STR_1K-optimized.added.html")}
    assert (tmp_path / links["encode-payload-STR_1K-optimized"][1]).read_text().startswith("<h1>added")


@pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build): the converter")
def test_both_graphs_of_a_row_are_drawn_by_one_converter_with_their_titles():
    rows = [F.Row("r", "all;a;b 10\n", "all;a;c 5\n", "what old had\tthat new dropped", "what new added"),
            F.Row("s", "", "", "nothing", "at all")]
    pages, why = F.draw(rows)
    assert why == ""
    (dropped, added), (empty_dropped, _) = pages["r"], pages["s"]
    assert "what old had that new dropped" in dropped and "what new added" in added
    assert "<canvas" in dropped and "<canvas" in empty_dropped


def test_without_the_converter_it_says_why(tmp_path):
    pages, why = F.draw([F.Row("r", "a 1\n", "a 2\n", "t", "u")], jar=tmp_path / "none.jar")
    assert pages == {} and "make build" in why


@pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")
def test_a_renders_converter_draws_the_same_pages_as_a_reports_own_and_says_why_it_could_not(
        monkeypatch, tmp_path):
    rows = [F.Row("r", "all;a;b 10\n", "all;a;c 5\n", "old", "new")]
    own, why = F.draw(rows)
    assert not why
    import time

    with F.server() as socket_path:
        assert socket_path
        monkeypatch.setenv(F.SERVER, socket_path)
        listing = tmp_path / "jobs.tsv"
        listing.write_text("/no/such.collapsed\t/no/such.collapsed\t" + str(tmp_path / "x.html") + "\tt\n")
        # Its socket's file appears when bound, a moment before it listens: wait for an answer.
        deadline = time.monotonic() + 60  # a fraction of a second on an idle machine
        while (answer := F._served(listing)) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert answer is not None, "the converter did not answer within 60 s"
        assert answer.startswith("the flame graphs could not be drawn: ")
        assert F._served(tmp_path / "absent.tsv").startswith("the flame graphs could not be drawn: ")
        served, why = F.draw(rows)
    assert not why and served == own
    # where no converter answers (gone, or never started), a JVM of the report's own draws them
    assert F._served(listing) is None
    assert F.draw(rows) == (own, "")


@pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")
def test_a_renders_converter_ends_with_the_render_even_killed():
    import subprocess
    import sys
    import time

    script = """import os, time
from pathlib import Path
from hotpath.render import flamegraphs
held = flamegraphs.server()
path = held.__enter__()
for _ in range(100):
    if Path(path).exists():
        break
    time.sleep(0.05)
jvm = [p.name for p in Path("/proc").iterdir() if p.name.isdigit()
       and "--serve" in (p / "cmdline").read_bytes().decode(errors="replace")
       and path in (p / "cmdline").read_bytes().decode(errors="replace")]
print(*jvm, flush=True)
os._exit(0)
"""
    started = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    (jvm,) = [int(pid) for pid in started.stdout.split()]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(jvm, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError("the converter outlived its render")
