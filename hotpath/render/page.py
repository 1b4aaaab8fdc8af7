"""How a report's page goes out: what the notebook shows of each block (and so report.html), how
the pastes name a block or a row they leave out, and how each table's rows rank in the pastes
(hotpath.render.paste): the Result's row first, then the largest changes."""

from __future__ import annotations

import base64
import html
import math
import re
from pathlib import Path

import pandas as pd

from . import fmt, markup, paste, tables
from . import sites as site_render
from .paste import BULK, CORE, DETAIL, EXTRA, LEAD
from .sections import PER_ROW, PER_ROW_RESULT_FIRST
from .. import runs
from ..analyze import compare

#: The Result's row: its label and its variant.
Main = tuple[str, str]


def show(obj) -> None:
    try:
        from IPython.display import Markdown, display
    except ImportError:  # outside IPython: the texts are still written
        return
    display(Markdown(obj) if isinstance(obj, str) else obj)


def show_html(markup: str) -> None:
    try:
        from IPython.display import HTML, display
    except ImportError:
        return
    display(HTML(markup))


def show_png(path: Path, caption: str) -> None:
    # The PNG itself, embedded: a Figure under the Agg backend would carry only its text/plain
    # repr ("<Figure size ...>"), and an Image output has no alternative text.
    data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
    show_html(f'<img class="chart" alt="{html.escape(caption, quote=True)}" '
              f'src="data:image/png;base64,{data}">')


def stem(name: str, files: list[Path]) -> str:
    """What every file a paste names starts with, the report's ``name`` and its run's (its
    results ``files``): two reports attached to one issue never shadow each other's
    (hotpath.runs.run_id)."""
    named = re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
    return "-".join(filter(None, [named.strip("-"), runs.run_id(*files) if files else ""]))


def lines(text: str) -> list[str]:
    """A table's lines: one per row (a cell holds no line break; str.splitlines would also
    break at the separators Unicode has, which a cell may hold)."""
    return text.rstrip("\n").split("\n")


def labels(table: pd.DataFrame) -> list[str]:
    """How a paste names each row it leaves: its first cell, and its variant where it has one."""
    if table.empty:
        return []
    first = table.iloc[:, 0].astype(str).map(lambda v: markup.MD_LINK.sub(r"\1", v))
    if "variant" in table and table.columns[0] != "variant":
        return [f"{f} {v}" for f, v in zip(first, table["variant"].astype(str))]
    return list(first)


def name_of(markdown: str) -> str:
    """How the paste names a paragraph it leaves out: its heading, else its first words."""
    first = markdown.strip().splitlines()[0] if markdown.strip() else ""
    if first.startswith("#"):
        return first.lstrip("#").strip()
    words = re.sub(r"[*_`]", "", first).split()
    return " ".join(words[:8]) + (" …" if len(words) > 8 else "")


def table_block(heading: str, table: pd.DataFrame, note: str | list, unmeasured: str,
                rows: list[tuple[int, int]], item_priority: int,
                report_only: tuple[str, ...]) -> tuple[paste.Block, str]:
    """A table's block in the pastes, with its note (a list: paragraphs, a list in it holding
    sentences the paste may leave out, at ``item_priority``) and, where a cell was not measured,
    the ``unmeasured`` sentence; and the note as the notebook shows it."""
    parts = [note] if isinstance(note, str) else list(note)
    if markup.unmeasured(table):
        # every format writes such a cell as "—" (markup.filled); why, once, under the table
        parts.append(unmeasured)
    parts = [p for p in parts if p]
    cut = next((i for i, p in enumerate(parts) if isinstance(p, list)), len(parts))
    before = "\n\n".join(parts[:cut])
    items = [s for p in parts[cut:cut + 1] for s in p]
    after = "\n\n".join(p for p in parts[cut + 1:] if isinstance(p, str))
    pasted = table.drop(columns=[c for c in report_only if c in table])
    plain = pasted.map(lambda v: markup.MD_LINK.sub(r"\1 (\2)", v) if isinstance(v, str) else v)
    block = paste.table_block(
        heading, lines(markup.to_markdown(pasted)), lines(markup.to_jira(plain)), rows,
        before, md_to_jira(before), [(i, md_to_jira(i)) for i in items],
        item_priority=item_priority, note_after=(after, md_to_jira(after)), labels=labels(table))
    full = "\n\n".join([before, " ".join(items), after]).strip()
    return block, re.sub(r"\n{3,}", "\n\n", full)


def plan(rows: str | list[tuple[int, int]] | None, table: pd.DataFrame, priority: int,
         pairs: pd.DataFrame, main: Main | None) -> list[tuple[int, int]]:
    """How the paste ranks a section's table rows (Section.rows): given, planned by name, or
    by default (row_plan)."""
    if rows is None:
        return row_plan(table, priority, pairs, main)
    if not isinstance(rows, str):
        return rows
    if rows == PER_ROW:
        return per_row_plan(table, pairs, main)
    if rows == PER_ROW_RESULT_FIRST:
        return [(DETAIL, rank) if priority == CORE and rank else (priority, rank)
                for priority, rank in per_row_plan(table, pairs, main)]
    raise ValueError(f"no paste plan named {rows!r}")


def per_row_plan(table: pd.DataFrame, pairs: pd.DataFrame, main: Main | None) -> list[tuple[int, int]]:
    """A per-row table's lines (the sites', the frames') in the paste: the write-up's own
    rows' CORE (the Result's row first, then the largest change: paste.change_size), every
    other variant's (floor, upstream, the write-up's others) BULK in the table's order; a
    row's lines stay together (paste.table_block)."""
    mine = tables.written(pairs)
    if main:
        mine = mine[mine["candidate"] == main[1]]
    # each own row's name in the table, as the per-row tables name it, with its change
    own: dict[str, float] = {}
    for (_, r), change in zip(mine.iterrows(), paste.change_size(mine)):
        own[site_render.row_name(r)] = (math.inf if main and fmt.label(r) == main[0] else change)
    rank = {name: i for i, name in enumerate(sorted(own, key=lambda n: -own[n]))}
    label = ""
    out = []
    for i, cell in enumerate(table["row"].astype(str)):
        label = cell or label
        out.append((CORE, rank[label]) if label in rank else (BULK, len(rank) + i))
    return out


def row_plan(table: pd.DataFrame, priority: int, pairs: pd.DataFrame,
             main: Main | None) -> list[tuple[int, int]]:
    """Each row's (priority, rank) in the paste: the Result's row first, then, where the
    rows are the report's pairs, the largest change first (paste.change_size), else the
    table's order; the floor's and the release's rows at EXTRA; in a LEAD table, the rows
    beyond LEAD_ROWS at DETAIL."""
    n = len(table)
    first = str(table.columns[0]) if n else ""
    keys = [math.nan] * n
    variants = table["variant"].astype(str).tolist() if "variant" in table else [""] * n
    if first == "benchmark" and not pairs.empty:
        size = dict(zip(range(len(pairs)), paste.change_size(pairs)))
        row_labels = [fmt.label(r) for _, r in pairs.iterrows()]
        main_candidate = main[1] if main else ""
        for i, (label, variant) in enumerate(zip(table["benchmark"].astype(str), variants)):
            hits = [j for j, lab in enumerate(row_labels) if lab == label
                    and (not variant or pairs.iloc[j]["candidate"] == variant)]
            hits.sort(key=lambda j: pairs.iloc[j]["candidate"] != main_candidate)
            if hits:
                keys[i] = size[hits[0]]
    if all(math.isnan(k) for k in keys):
        keys = [float(n - i) for i in range(n)]  # the table's order
    if main and first in ("benchmark", "row"):
        label, candidate = main
        for i, cell in enumerate(table[first].astype(str)):
            if cell == label and variants[i] in ("", candidate):
                keys[i] = math.inf
    ranks = paste.ranked([k if not math.isnan(k) else -1.0 for k in keys])
    out = []
    for i in range(n):
        p = priority
        if variants[i] in compare.BEYOND:
            p = max(p, EXTRA)
        elif priority == LEAD and ranks[i] >= paste.LEAD_ROWS:
            p = DETAIL
        out.append((p, ranks[i]))
    return out


def md_to_jira(text: str) -> str:
    """The little Markdown our notes use: **bold**, *italic*, `code`."""
    text = re.sub(r"(?<![*\w])\*(?!\*)([^*]+?)\*(?![*\w])", r"_\1_", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"*\1*", text)
    return re.sub(r"`([^`]+)`", r"{{\1}}", text)
