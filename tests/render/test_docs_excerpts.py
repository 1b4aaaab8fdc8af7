"""A paste a doc shows is the paste as rendered: each excerpt block of docs/ (between
``<!-- excerpt: <path under the reference's reports> -->`` and ``<!-- end: excerpt -->``, a
fenced block) must be lines the committed reference renders, in order and whole."""

import re

import pytest

from hotpath.paths import ROOT

EXCERPT = re.compile(r"<!-- excerpt: (?P<path>\S+) -->\n```[a-z]*\n(?P<body>.*?)```\n<!-- end: excerpt -->",
                     re.DOTALL)


def excerpts():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        opened = text.count("<!-- excerpt: ")
        found = list(EXCERPT.finditer(text))
        assert len(found) == opened, f"{doc.name}: an excerpt block without its fenced body or its end"
        for m in found:
            yield doc.name, m.group("path"), m.group("body")


def test_the_docs_show_excerpts():
    assert [(doc, path) for doc, path, _ in excerpts()] == [
        ("your-patch.md", "ab/ignite-encoder/jira.txt"), ("your-patch.md", "ab/ignite-encoder/summary.md")]


@pytest.mark.parametrize("doc, path, body", list(excerpts()), ids=lambda v: str(v)[:40])
def test_each_excerpt_is_lines_of_the_paste_as_rendered(reference_reports, doc, path, body):
    rendered = (reference_reports / path).read_text(encoding="utf-8").splitlines()
    shown = body.splitlines()
    assert len(shown) >= 5, f"{doc}: the excerpt of {path} is empty or a token"
    starts = [i for i in range(len(rendered) - len(shown) + 1) if rendered[i:i + len(shown)] == shown]
    assert starts, f"{doc}: its excerpt of {path} is not {len(shown)} consecutive lines of the rendered file"
