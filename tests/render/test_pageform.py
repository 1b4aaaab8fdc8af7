"""A report page is nbconvert's page, byte for byte, though its own tables and charts skip the
exporter's BeautifulSoup pass (hotpath.render.pageform)."""

import nbformat
import pytest
from bs4 import BeautifulSoup

from hotpath.render import pageform, report


def _souped(fragment: str) -> str:
    """What nbconvert's pass writes of a fragment: BeautifulSoup's form of it."""
    return str(BeautifulSoup(fragment, features="html.parser"))


VOUCHED = [
    '<p id="headline" class="headline"><strong>Result.</strong> 11,548,787 → 3,445,229\xa0B/op</p>',
    '<table class="hotpath wide"><thead><tr><th class="num">old µs/op</th></tr></thead>\n<tbody>\n'
    '<tr><td class="text">encode(<wbr>payload=STR_64,<wbr> variant=old)</td></tr>\n</tbody></table>',
    '<table><tr><td>the model&#x27;s sites &amp; the release&#39;s: a &lt; b &gt; c &quot;q&quot;</td></tr></table>',
    '<table>\n\n  <tr>\t<td> </td><td>&nbsp;</td><td>&#32;&#32;</td><td>\n </td></tr>  </table>',
    '<div class="hotpath-flames" hidden><span title="it&#x27;s &quot;this&quot;">x</span></div>',
    '<span title="say &quot;so&quot;" class="fig">1 > 0</span>',
    '<a href="a.html?x=1&amp;y=2" rel="noopener">link</a>',
    '<img class="chart" alt="Heap B/op &amp; time" src="data:image/png;base64,iVBORw0KGgo=">',
    '<p>a<br>b<br/>c<wbr/>d</p>',
    '<table><tr><td class="text">→ ✓ ¼ &#x2192; &#8211;</td></tr></table>',
]

REFUSED = [
    '<div class="hotpath-flames" hidden><script type="application/octet-stream">a &amp; b</script></div>',
    "<p><!-- a comment --></p>",
    "<p>a &copy; b</p>",  # an entity it does not decode
    "<p>a & b</p>",  # a bare ampersand
    "<p>&#150;</p>",  # a code html.parser and BeautifulSoup read as windows-1252
    "<p><span>unclosed</p>",
    "<p>closed twice</p></p>",
    '<img class="chart" src="data:image/png;base64,AA">',  # no alt: the pass gives it one
    '<div class="jp-OutputArea-output">marked</div>',  # the pass gives it a tabindex
    '<span class="a  b">spaced</span>',
    "<pre>  kept  </pre>",
    "<P>upper</P>",
    "<span/>",
    "a < b",
    '<span title="a > b">html.parser reads this tag its own way</span>',
]


@pytest.mark.parametrize("fragment", VOUCHED)
def test_what_it_vouches_for_is_what_beautifulsoup_writes(fragment):
    assert pageform.form(fragment) == _souped(fragment)


@pytest.mark.parametrize("fragment", REFUSED)
def test_what_it_cannot_vouch_for_it_leaves_to_the_pass(fragment):
    assert pageform.form(fragment) is None


def _notebook(fragments: list[str]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell("x", outputs=[nbformat.v4.new_output(
        "display_data", data={"text/html": fragment, "text/plain": "x"})]) for fragment in fragments]
    return nb


def test_a_page_is_the_exporters_own_whatever_its_outputs():
    fragments = [*VOUCHED, *REFUSED, "text first, then <b>a tag</b>", "<p>a tag, then text</p>\n"]
    exporter = report.exporter()
    nb = _notebook(fragments)
    assert pageform.export(exporter, nb) == exporter.from_notebook_node(nb)[0]


def test_every_reference_report_is_the_page_nbconvert_makes_of_its_notebook(reference_reports):
    exporter = report.exporter()
    notebooks = sorted(reference_reports.rglob("*.ipynb"))
    assert len(notebooks) == 14
    for notebook in notebooks:
        page = (notebook.parent / "report.html").read_text(encoding="utf-8")
        assert page == exporter.from_notebook_node(nbformat.read(notebook, as_version=4))[0], notebook
