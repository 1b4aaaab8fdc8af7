"""Rendered reports read back as a reviewer reads them: the Result, the Markdown tables under
their headings, and the text of every file a reader opens."""

from __future__ import annotations

import re
from pathlib import Path

#: A word of prose may be "None" ("None left in heap B/op"); a value never is.
UNWANTED = re.compile(r"\bnan\b|\bNaN\b|\bNone\b(?! [a-z])")


def result_of(summary: str) -> str:
    return re.search(r"^\*\*Result\.\*\* (.+)$", summary, re.M).group(1)


def md_tables(text: str) -> list[tuple[str, list[str], list[dict[str, str]]]]:
    """(heading, header, rows) of every Markdown table, under the last '## ' heading before it."""
    heading, found, current = "", [], None
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:]
        if not line.startswith("| "):
            current = None
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if current is None:
            current = (heading, cells, [])
            found.append(current)
        elif not set("".join(cells)) <= set("-: "):
            current[2].append(dict(zip(current[1], cells)))
    return found


def number(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def rendered(folder: Path) -> list[Path]:
    """Every text a reader opens: the reports' three formats and the overview's two."""
    return sorted(p for pattern in ("**/summary.md", "**/jira.txt", "**/report.html", "index.*")
                  for p in folder.glob(pattern))


def visible(path: Path) -> str:
    """A file's text as read: an HTML page without its styles, scripts, images and tags."""
    text = re.sub(r"data:image/\w+;base64,[A-Za-z0-9+/=]+", "", path.read_text(encoding="utf-8"))
    if path.suffix == ".html":
        text = re.sub(r"<(style|script)\b.*?</\1>", "", text, flags=re.S)
        text = re.sub(r"<[^>]+>", " | ", text)
    return text


def depth(text: str) -> int:
    deepest = level = 0
    for ch in text:
        level += (ch == "(") - (ch == ")")
        deepest = max(deepest, level)
    return deepest
