"""A report page exported as nbconvert exports it, without its BeautifulSoup pass over the
report's own tables and charts.

nbconvert's HTML exporter ends by parsing the whole page with BeautifulSoup (Python's
``html.parser``) to give images without one an ``alt`` and two kinds of div a ``tabindex``, and
writes the page out again in BeautifulSoup's form: attributes sorted, ``<wbr/>``, entities
decoded and only ``& < >`` escaped. A report's HTML outputs (its tables, one cell in each of some
3,000) took 2.6 s of a render's CPU in that pass, the pass changing nothing in them but their form.

So each HTML output that ``form`` can put in that form itself is set aside while the exporter
runs, a token in its place, and put back in that form after. An output ``form`` cannot vouch
for (a script, a comment, an entity it does not know, tags that do not close in order, an image
without ``alt`` or a div the pass would mark) stays in the page and goes through the pass. The
page is the same, byte for byte: tests/render/test_pageform.py holds ``form`` to BeautifulSoup
on every HTML output of the reference's reports and on made-up ones.
"""

from __future__ import annotations

import copy
import re
import secrets
from typing import Any

#: The tags a report's outputs are written with that ``form`` writes as BeautifulSoup does; of
#: them, the void ones (written ``<wbr/>``, never closed).
TAGS = frozenset("table thead tbody tfoot tr th td caption colgroup col span div p a strong em b i "
                 "code sup sub small br wbr img ul ol li h1 h2 h3 h4 h5 h6 details summary".split())
VOID = frozenset({"br", "wbr", "img", "col"})
#: Attributes whose value BeautifulSoup splits on whitespace and joins with one space (any tag's
#: and some tags' own, as its HTML builder lists them): a value not already so is not vouched for.
LISTS = frozenset({"class", "accesskey", "dropzone", "rel", "rev", "headers", "accept-charset",
                   "archive", "sizes", "sandbox", "for"})
#: Classes the exporter's pass gives a tabindex (hotpath's outputs never carry them).
MARKED = ("jp-Cell-inputWrapper", "jp-OutputArea-output")
#: The named entities ``form`` decodes; a fragment with another is not vouched for.
ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "nbsp": "\xa0"}
#: Text of these alone BeautifulSoup writes as one newline (if it holds one) or one space.
SPACES = frozenset(" \n\t\f\r")

# (a value with '<' or '>' in it is not vouched for: html.parser's reading of such tags is its own)
_TOKEN = re.compile(r"<(/?)([a-z][a-z0-9]*)((?:\s+[a-z][a-z0-9-]*(?:=\"[^\"<>]*\")?)*)\s*(/?)>|([^<]+)")
_ATTRIBUTE = re.compile(r"([a-z][a-z0-9-]*)(?:=\"([^\"<>]*)\")?")
_REFERENCE = re.compile(r"&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]*));|&")


def form(fragment: str) -> str | None:
    """``fragment`` as BeautifulSoup's pass would write it, or None where it cannot say."""
    out: list[str] = []
    open_tags: list[str] = []
    at = 0
    for match in _TOKEN.finditer(fragment):
        if match.start() != at:
            return None  # a '<' that starts no tag this knows
        at = match.end()
        closing, name, attributes, slash, text = match.groups()
        if text is not None:
            decoded = _decoded(text)
            if decoded is None:
                return None
            if SPACES.issuperset(decoded):
                decoded = "\n" if "\n" in decoded else " "
            out.append(_escaped(decoded))
        elif name not in TAGS or (slash and name not in VOID):
            return None
        elif closing:
            if attributes or slash or not open_tags or open_tags.pop() != name:
                return None
            out.append(f"</{name}>")
        else:
            tag = _start(name, attributes)
            if tag is None:
                return None
            out.append(tag)
            if name not in VOID:
                open_tags.append(name)
    if at != len(fragment) or open_tags:
        return None
    return "".join(out)


def _start(name: str, attributes: str) -> str | None:
    """A start tag in BeautifulSoup's form: attributes sorted, values decoded, escaped and
    quoted again, an attribute without a value given an empty one."""
    values: dict[str, str] = {}
    for key, value in _ATTRIBUTE.findall(attributes):
        decoded = _decoded(value)
        if key in values or decoded is None:
            return None
        if key in LISTS and " ".join(decoded.split()) != decoded:
            return None
        if key == "class" and any(marked in decoded.split() for marked in MARKED):
            return None
        values[key] = decoded
    if name == "img" and "alt" not in values:
        return None
    shown = "".join(f" {key}={_quoted(_escaped(value))}" for key, value in sorted(values.items()))
    return f"<{name}{shown}{'/' if name in VOID else ''}>"


def _decoded(text: str) -> str | None:
    """Text or an attribute's value with its character references decoded, or None where one
    is of a kind whose decoding BeautifulSoup and ``html.parser`` make their own (a bare '&', a
    name not in ENTITIES, a code in 0x80-0x9f or none)."""
    if "\r" in text or "\x00" in text:
        return None
    if "&" not in text:
        return text
    failed = False

    def one(reference: re.Match[str]) -> str:
        nonlocal failed
        decimal, hexadecimal, name = reference.groups()
        if name is not None:
            if name not in ENTITIES:
                failed = True
            return ENTITIES.get(name, "")
        if decimal is None and hexadecimal is None:
            failed = True
            return ""
        code = int(decimal) if decimal is not None else int(hexadecimal, 16)
        # (html.parser and BeautifulSoup each decode the control codes, the C1 range, the
        # surrogates and the non-characters their own way)
        if (code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF
                or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE):
            failed = True
            return ""
        return chr(code)

    decoded = _REFERENCE.sub(one, text)
    return None if failed else decoded


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _quoted(value: str) -> str:
    if '"' not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"' + value.replace('"', "&quot;") + '"'


def export(exporter: Any, notebook: Any) -> str:
    """The page ``exporter`` (nbconvert's HTML exporter) makes of ``notebook``, its HTML outputs
    that ``form`` vouches for set aside from the BeautifulSoup pass and put back in its form."""
    nb = copy.deepcopy(notebook)
    # the token is an element, so that the text around it is parted from it as from the output
    # (BeautifulSoup writes whitespace alone between two tags as one newline or space)
    name = f"hotpath-kept-{secrets.token_hex(8)}"
    kept: dict[str, str] = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            fragment = data.get("text/html")
            # an output that starts or ends with text would join the text around it
            if not isinstance(fragment, str) or not fragment.startswith("<") or not fragment.endswith(">"):
                continue
            formed = form(fragment)
            if formed is not None:
                token = f'<{name} n="{len(kept)}"></{name}>'
                kept[token] = formed
                data["text/html"] = token
    body: str = exporter.from_notebook_node(nb)[0]
    pieces = re.split(f'(<{name} n="[0-9]+"></{name}>)', body)
    if sorted(pieces[1::2]) != sorted(kept):  # each token once, as placed: else as nbconvert alone
        return str(exporter.from_notebook_node(notebook)[0])
    return "".join(kept.get(piece, piece) if i % 2 else piece for i, piece in enumerate(pieces))

