"""A row's two differential flame graphs, old against new (async-profiler's converter, all of a
report's in one JVM), and how report.html carries them: inside itself.

A report is attached alone to an issue, so a graph beside it would be a dead link there. Each
graph's page is gzipped into report.html as base64 in a ``<script type="application/octet-stream">``
(a page of some 18 KB takes 7 KB so, 9.5 KB as text); its link points at that element, and a
small script of the report's own, on a click, inflates it in the browser (DecompressionStream)
and opens it from a Blob URL in a new tab. Nothing is fetched, nothing is needed beside the file.
The lab draws the same pages inline (``show``).
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import html
import os
import re
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..paths import JAR

CONVERTER = "hotpath.profiler.DiffFlameGraphs"
#: The converter's JVM: a run of a fraction of a second, so C1 alone and the serial collector;
#: C2's compiler threads would take the other core from a render's other report (0.48 s of CPU
#: for a case's 60 graphs, 0.22 s so; the same pages).
CONVERTER_JVM = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
#: The two graphs of a row, in the order its cell links them.
SIDES = ("dropped", "added")
#: What an embedded graph's element id starts with: the report's script opens the links to it.
ANCHOR = "flame-"


@dataclass(frozen=True)
class Row:
    """One row's two graphs to draw: each side's collapsed stacks and each graph's title.
    *dropped* is drawn in old's shape, coloured by what new no longer has (old against new as
    the base); *added* in new's, coloured by what it has beyond old."""

    slug: str
    old: str
    new: str
    dropped: str
    added: str


#: A row's two pages (dropped, added), by its slug.
Pages = dict[str, tuple[str, str]]


def draw(rows: list[Row], jar: Path = JAR, java: str = "java") -> tuple[Pages, str]:
    """Both graphs of every row as HTML pages; where none could be drawn, why in one line."""
    if not rows:
        return {}, ""
    if not jar.is_file():
        return {}, f"the flame graphs need {jar.name} (the converter is in it): `make build`"
    with tempfile.TemporaryDirectory(prefix="hotpath-flames-") as tmp:
        scratch = Path(tmp)
        jobs, outs = [], {}
        for i, r in enumerate(rows):
            # numbered, not named by slug: two rows' slugs may differ only where a file name cannot
            old, new = scratch / f"{i}.old.collapsed", scratch / f"{i}.new.collapsed"
            old.write_text(r.old or "none 0\n", encoding="utf-8")
            new.write_text(r.new or "none 0\n", encoding="utf-8")
            dropped, added = scratch / f"{i}.dropped.html", scratch / f"{i}.added.html"
            jobs.append(f"{new}\t{old}\t{dropped}\t{_one_line(r.dropped)}")
            jobs.append(f"{old}\t{new}\t{added}\t{_one_line(r.added)}")
            outs[r.slug] = (dropped, added)
        why = convert(jobs, scratch, jar, java)
        if why:
            return {}, why
        return {slug: (dropped.read_text(encoding="utf-8"), added.read_text(encoding="utf-8"))
                for slug, (dropped, added) in outs.items()}, ""


def _one_line(title: str) -> str:
    return re.sub(r"[\t\r\n]+", " ", title)


def convert(jobs: list[str], scratch: Path, jar: Path = JAR, java: str = "java") -> str:
    """Differential flame graphs drawn by async-profiler's converter in one JVM: each job a
    line 'base, new, out.html, title' (DiffFlameGraphs). Returns why none could be drawn, or
    nothing."""
    listing = scratch / "jobs.tsv"
    listing.write_text("\n".join(jobs) + "\n", encoding="utf-8")
    answered = _served(listing)
    if answered is not None:
        return answered
    done = subprocess.run([java, *CONVERTER_JVM, "-cp", str(jar), CONVERTER, str(listing)],
                          capture_output=True, text=True)
    if done.returncode:
        return f"the flame graphs could not be drawn: {(done.stderr.strip().splitlines() or ['no output'])[-1]}"
    return ""


#: Where the render's converter takes job files (``server``), in its kernels' environment.
SERVER = "HOTPATH_FLAME_GRAPHS"


@contextlib.contextmanager
def server(jar: Path = JAR, java: str = "java") -> Iterator[str | None]:
    """One converter for the block, drawing every graph its processes ask for (``convert``, with
    SERVER set to the socket it yields): a render's reports drew theirs in a JVM each, thirteen
    JVM starts. None where no converter can start (no jar): each report says so as before."""
    if not jar.is_file():
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="hotpath-flames-") as folder:
        path = str(Path(folder) / "converter")
        try:
            # its input held open here: it ends when this process does, even killed
            process = subprocess.Popen([java, *CONVERTER_JVM, "-cp", str(jar), CONVERTER, "--serve", path],
                                       stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        except OSError:
            yield None
            return
        try:
            yield path
        finally:
            process.kill()
            process.wait()
            if process.stdin:
                process.stdin.close()


def _served(listing: Path) -> str | None:
    """The render's converter's answer for a job file: nothing when drawn, else why not; None
    where none answers (not started, not listening yet, gone): then a JVM of the report's own."""
    path = os.environ.get(SERVER)
    if not path:
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(path)
            connection.sendall(f"{listing}\n".encode("utf-8"))
            with connection.makefile(encoding="utf-8") as replies:
                reply = replies.readline().strip()
    except OSError:
        return None
    if reply == "ok":
        return ""
    if reply.startswith("error "):
        return f"the flame graphs could not be drawn: {reply.removeprefix('error ')}"
    return None


def anchor(kind: str, slug: str, side: str) -> str:
    """The id of an embedded graph: its kind (sites, cpu), its row and its side; ids hold no
    character a URL fragment or a CSS selector would need escaped."""
    return ANCHOR + re.sub(r"[^A-Za-z0-9_-]+", "-", f"{kind}-{slug}-{side}").strip("-")


def embedded(kind: str, pages: Pages, sides: tuple[str, str] = SIDES
             ) -> tuple[dict[str, tuple[str, str]], str]:
    """Every page carried inside the report: the links by row (Markdown targets: the fragment
    of each page's element) and the HTML that holds the pages and opens them. ``sides``: what
    a row's two pages are (a row's own flame graphs, forward and reverse, are not a diff's)."""
    links: dict[str, tuple[str, str]] = {}
    blocks: list[str] = []
    for slug, pair in pages.items():
        ids = (anchor(kind, slug, sides[0]), anchor(kind, slug, sides[1]))
        for id_, page in zip(ids, pair):
            # mtime 0: the same graph gives the same bytes, and the same run the same report
            data = base64.b64encode(gzip.compress(page.encode("utf-8"), compresslevel=9, mtime=0))
            blocks.append(f'<script type="application/octet-stream" id="{id_}" '
                          f'data-title="{html.escape(_title(page), quote=True)}">'
                          f'{data.decode("ascii")}</script>')
        links[slug] = (f"#{ids[0]}", f"#{ids[1]}")
    if not blocks:
        return {}, ""
    return links, f'<div class="hotpath-flames" hidden>{"".join(blocks)}</div>{OPENER}'


def _title(page: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", page, re.DOTALL)
    return html.unescape(found.group(1)) if found else ""


#: The report's opener: a click on a link to an embedded graph inflates it and opens it in a
#: new tab. The tab is opened at the click, before the page is inflated, as a popup blocker lets
#: only a click's own call through; where it is blocked all the same, the graph is drawn below
#: the link's table instead. Defined once however many tables carry graphs.
OPENER = """<script>
(() => {
  if (window.hotpathFlames) return;
  const pages = new Map();
  async function page(id) {
    if (!pages.has(id)) {
      const text = document.getElementById(id).textContent.trim();
      const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      const html = await new Response(stream).text();
      pages.set(id, URL.createObjectURL(new Blob([html], {type: 'text/html'})));
    }
    return pages.get(id);
  }
  function inline(link, url) {
    const table = link.closest('table') || link;
    let frame = table.nextElementSibling;
    if (!frame || !frame.classList.contains('hotpath-flame')) {
      frame = document.createElement('iframe');
      frame.className = 'hotpath-flame';
      frame.style.cssText = 'width:100%;height:480px;border:1px solid #ccc';
      table.after(frame);
    }
    frame.src = url;
    frame.scrollIntoView({block: 'nearest'});
  }
  window.hotpathFlames = {page};
  document.addEventListener('click', event => {
    const link = event.target.closest('a[href^="#flame-"]');
    if (!link || event.button !== 0) return;
    const id = link.getAttribute('href').slice(1);
    if (!document.getElementById(id)) return;
    event.preventDefault();
    const tab = window.open('', '_blank');
    page(id).then(url => {
      if (tab) tab.location.replace(url); else inline(link, url);
    }, error => {
      if (tab) tab.close();
      link.title = 'this browser cannot inflate the graph: ' + error;
      console.error('hotpath: ' + id + ': ' + error);
    });
  });
})();
</script>"""


def written(folder: Path, kind: str, pages: Pages) -> dict[str, tuple[str, str]]:
    """The pages as files under ``folder/kind/`` (the lab's: it keeps them to open again); the
    links by row, relative to ``folder``."""
    out = Path(folder) / kind
    out.mkdir(parents=True, exist_ok=True)
    links: dict[str, tuple[str, str]] = {}
    for slug, pair in pages.items():
        names = tuple(f"{slug}.{side}.html" for side in SIDES)
        for name, page in zip(names, pair):
            (out / name).write_text(page, encoding="utf-8")
        links[slug] = (f"{kind}/{names[0]}", f"{kind}/{names[1]}")
    return links


def show(pages: Pages, why: str, where: dict[str, tuple[str, str]] | None = None) -> None:
    """Each page inline in the lab (an iframe of its own, offline), under where it was written."""
    try:
        from IPython.display import HTML, display
    except ImportError:  # outside IPython: the files are written all the same
        return
    if why:
        display(HTML(f"<p><em>{html.escape(why)}</em></p>"))
    for slug, pair in pages.items():
        for i, page in enumerate(pair):
            said = (where or {}).get(slug, SIDES)[i]
            display(HTML(f'<p>{html.escape(str(said))}</p><iframe style="width:100%;'
                         f'height:320px;border:0" srcdoc="{html.escape(page, quote=True)}"></iframe>'))
