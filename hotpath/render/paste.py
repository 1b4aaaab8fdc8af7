"""The texts a reviewer pastes (jira.txt into a Jira comment, summary.md into a pull request,
index.md) fitted to where they are pasted: Jira refuses a comment over 32,767 characters, GitHub
a body over 65,536.

A report is a list of blocks (a heading and its table and note, a paragraph, a chart's line),
each made of pieces with a priority: LEAD is never left out (the title, the Result, At a
glance's first rows, the claims check, the environment's key rows), then CORE (the write-up's own
rows' sites, the charts), DETAIL (the notebook's tables), EXTRA (their floor and upstream rows,
steady state, fidelity, the floor, the rest of the environment) and BULK (the other variants'
sites). The fitter leaves pieces out, the lowest
priority first (within one, the later block first, within a block its least row first), until
the paste is within its budget: a table keeps its heading, its columns and its note and names
the rows it left in a line of its own, a block left out whole is named where it stood, and the
paste ends on a line naming the attached full report, which has everything. Where even the
LEAD pieces exceed the platform's limit, it raises.

Lengths are counted as a browser's form sends them: UTF-8 bytes, each line break as CR LF. That
is never fewer than the characters Jira or GitHub count, however they count a line break.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from ..errors import HotpathError

#: What Jira accepts in a comment or description, and GitHub in a pull request's body.
JIRA_LIMIT = 32_767
GITHUB_LIMIT = 65_536
#: What the fitter aims at: the limits less headroom for what a reviewer adds above the paste.
JIRA_BUDGET = 30_000
MARKDOWN_BUDGET = 60_000

#: Priorities, the most kept first.
LEAD, CORE, DETAIL, EXTRA, BULK = range(5)
#: At a glance's rows that are LEAD: the rest are DETAIL, the largest changes kept first.
LEAD_ROWS = 20
#: Rows named in a table's "more rows" line; beyond them, a count.
NAMED = 3


class PasteTooLong(HotpathError):
    """Even the paste's LEAD pieces exceed the platform's limit."""


def size(text: str) -> int:
    """The paste's length as a browser's form sends it: UTF-8 bytes, line breaks as CR LF."""
    return len(text.encode("utf-8")) + text.count("\n")


@dataclass(frozen=True)
class Piece:
    """A part of a block, in both formats. ``priority`` None: the block's frame (its heading,
    a table's columns, its note), kept while the block is. ``rows``: the table rows it holds;
    ``label``: how a "more rows" line names it; ``marker``: where that line goes."""

    md: str
    jira: str
    priority: int | None = None
    rank: int = 0
    rows: int = 0
    label: str = ""
    marker: bool = False


@dataclass
class Block:
    """One section of a paste: ``name`` says what it is where the paste leaves it out."""

    name: str
    pieces: list[Piece] = field(default_factory=list)

    def full(self, jira: bool) -> str:
        return "".join(p.jira if jira else p.md for p in self.pieces if not p.marker)


def text_block(name: str, md: str, jira: str, priority: int) -> Block:
    return Block(name, [Piece(md.strip() + "\n", jira.strip() + "\n", priority)])


def table_block(heading: str, md_lines: list[str], jira_lines: list[str],
                plan: list[tuple[int, int]], note_md: str = "", note_jira: str = "",
                items: list[tuple[str, str]] | None = None, item_priority: int = DETAIL,
                note_after: tuple[str, str] = ("", ""), labels: list[str] | None = None) -> Block:
    """A table's block from its rendered lines (header lines first: two in Markdown, one in
    Jira; then one per row) and each row's (priority, rank). A row whose first cell is blank
    continues the row above it (a group: kept or left whole, at its first row's priority).
    ``items``: sentences of the note the paste may leave (in order), then ``note_after``;
    ``labels``: how a "more rows" line names each row (by default its first cell)."""
    md_head, md_rows = md_lines[:2], md_lines[2:]
    jira_head, jira_rows = jira_lines[:1], jira_lines[1:]
    assert len(md_rows) == len(jira_rows) == len(plan), (len(md_rows), len(jira_rows), len(plan))
    pieces = [Piece(f"## {heading}\n\n" + "".join(f"{line}\n" for line in md_head),
                    f"h3. {heading}\n" + "".join(f"{line}\n" for line in jira_head))]
    groups: list[list[int]] = []
    for i, line in enumerate(md_rows):
        if groups and _first_cell_blank(line):
            groups[-1].append(i)
        else:
            groups.append([i])
    for g in groups:
        priority, rank = plan[g[0]]
        pieces.append(Piece("".join(md_rows[i] + "\n" for i in g),
                            "".join(jira_rows[i] + "\n" for i in g),
                            priority, rank, rows=len(g),
                            label=labels[g[0]] if labels else _first_cell(md_rows[g[0]])))
    pieces.append(Piece("", "", marker=True))
    if note_md:
        pieces.append(Piece(f"\n{note_md.strip()}\n", f"{note_jira.strip()}\n"))
    for i, (md, jira) in enumerate(items or []):
        pieces.append(Piece(f"\n{md.strip()}\n", f"{jira.strip()}\n", item_priority, i,
                            label="note"))
    if note_after[0]:
        pieces.append(Piece(f"\n{note_after[0].strip()}\n", f"{note_after[1].strip()}\n"))
    return Block(heading, pieces)


def _cells(md_line: str) -> list[str]:
    return [c.strip() for c in md_line.strip().strip("|").split(" | ")]


def _first_cell(md_line: str) -> str:
    return _cells(md_line)[0]


def _first_cell_blank(md_line: str) -> bool:
    return md_line.startswith("|  |")


def ranked(keys: list[float]) -> list[int]:
    """Each position's rank by its key, largest first (ties in their order)."""
    order = sorted(range(len(keys)), key=lambda i: (-keys[i] if not math.isnan(keys[i]) else math.inf, i))
    ranks = [0] * len(keys)
    for r, i in enumerate(order):
        ranks[i] = r
    return ranks


def change_size(pairs: pd.DataFrame) -> list[float]:
    """Each pair's size of change: |ln new/old| of its time per op or its heap B/op, whichever
    moved more (heap only where its change counts, 8 B added to both sides)."""
    out = []
    for _, r in pairs.iterrows():
        ratio = r.get("ratio", math.nan)
        time = abs(math.log(ratio)) if isinstance(ratio, float) and ratio > 0 else 0.0
        old, new = r.get("old_alloc", math.nan), r.get("new_alloc", math.nan)
        heap = 0.0
        if (r.get("alloc_verdict", "same") not in ("same", "", None)
                and not (pd.isna(old) or pd.isna(new))):
            heap = abs(math.log((float(new) + 8) / (float(old) + 8)))
        out.append(max(time if not math.isnan(time) else 0.0, heap))
    return out


# -- the fitter ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fitted:
    text: str
    size: int
    #: (block name, what of it the paste left: "" for the whole block, else "12 of 30 rows")
    left: tuple[tuple[str, str], ...]


def render(blocks: list[Block], jira: bool, left_out: set[tuple[int, int]],
           attachment: str = "report.html", what: str = "report") -> Fitted:
    """The paste without the pieces ``left_out`` ((block, piece) positions), each left-out part
    named where it stood, and the attachment's line last."""
    parts: list[str] = []
    dropped_run: list[str] = []
    left: list[tuple[str, str]] = []

    def flush():
        if dropped_run:
            names = "; ".join(dropped_run)
            parts.append(f"_Left for the attached {attachment}: {names}._\n" if jira else
                         f"*Left for the attached {attachment}: {names}.*\n")
            dropped_run.clear()

    for b, block in enumerate(blocks):
        optional = [i for i, p in enumerate(block.pieces) if p.priority is not None]
        gone = [i for i in optional if (b, i) in left_out]
        if optional and len(gone) == len(optional):
            rows = sum(1 for i in gone if block.pieces[i].rows)
            name = _jira_plain(block.name) if jira else _md_plain(block.name)
            dropped_run.append(f"{name} ({rows} rows)" if rows else name)
            left.append((block.name, ""))
            continue
        flush()
        out = []
        for i, p in enumerate(block.pieces):
            if p.marker:
                out.append(_more_line([block.pieces[j] for j in gone if block.pieces[j].rows],
                                      block.pieces, jira, attachment))
            elif (b, i) not in left_out:
                out.append(p.jira if jira else p.md)
        notes = [block.pieces[j] for j in gone if not block.pieces[j].rows]
        if notes:
            out.append(f"_{len(notes)} more note(s) in the attached {attachment}._\n" if jira else
                       f"\n*{len(notes)} more note(s) in the attached {attachment}.*\n")
        if gone:
            with_rows = [block.pieces[j] for j in gone if block.pieces[j].rows]
            total = sum(1 for q in block.pieces if q.rows)
            left.append((block.name, f"{len(with_rows)} of {total} rows" if with_rows else f"{len(notes)} notes"))
        parts.append("".join(out))
    flush()
    parts.append(_attachment_line(left, jira, attachment, what))
    text = "\n".join(parts)
    return Fitted(text, size(text), tuple(left))


def _more_line(gone: list[Piece], pieces: list[Piece], jira: bool, attachment: str) -> str:
    """'12 more of its 30 rows in the attached report.html: a, b, c and 9 more'; where rows
    come in groups (a row's sites), the groups are counted and the lines said beside them."""
    if not gone:
        return ""
    rows = sum(p.rows for p in gone)
    groups = [p for p in pieces if p.rows]
    total = sum(p.rows for p in groups)
    names = [p.label for p in sorted(gone, key=lambda p: p.rank) if p.label][:NAMED]
    more = len(gone) - len(names)
    named = ", ".join(names) + (f" and {more} more" if more > 0 else "")
    counted = (f"{rows} more of its {total} rows" if len(groups) == total else
               f"{len(gone)} more of its {len(groups)} rows ({rows} of {total} lines)")
    line = f"{counted} in the attached {attachment}" + (f": {named}" if named else "")
    line = line.replace("|", "/")
    return f"_{_jira_plain(line)}._\n" if jira else f"\n*{_md_plain(line)}.*\n"


def _md_plain(text: str) -> str:
    return text.replace("*", "\\*").replace("_", "\\_")


def _jira_plain(text: str) -> str:
    for ch in "*_{}[]":
        text = text.replace(ch, "\\" + ch)
    return text


def _attachment_line(left: list[tuple[str, str]], jira: bool, attachment: str, what: str) -> str:
    if left:
        named = "; ".join(f"{name} ({part})" if part else name for name, part in left)
        rest = f", and what this paste leaves to it: {named}"
    else:
        rest = ""
    if jira:
        return (f"*The full {what}, attached:* [^{attachment}] (one self-contained file; it opens "
                f"offline) has every section in full{_jira_plain(rest)}.\n")
    return (f"**The full {what}, attached:** `{attachment}` (one self-contained file; it opens "
            f"offline) has every section in full{_md_plain(rest)}.\n")


def fit(blocks: list[Block], jira: bool, budget: int | None = None, limit: int | None = None,
        attachment: str = "report.html", what: str = "report") -> Fitted:
    """The paste within ``budget`` (JIRA_BUDGET or MARKDOWN_BUDGET by format), leaving out the
    fewest pieces in priority order; raises PasteTooLong where what cannot be left out exceeds
    ``limit`` (the platform's)."""
    budget = budget if budget is not None else (JIRA_BUDGET if jira else MARKDOWN_BUDGET)
    limit = limit if limit is not None else (JIRA_LIMIT if jira else GITHUB_LIMIT)
    order = sorted(((p.priority, b, p.rank, i) for b, block in enumerate(blocks)
                    for i, p in enumerate(block.pieces)
                    if p.priority is not None and p.priority > LEAD),
                   key=lambda u: (-u[0], -u[1], -u[2], -u[3]))
    units = [(b, i) for _, b, _, i in order]

    def attempt(k: int) -> Fitted:
        return render(blocks, jira, set(units[:k]), attachment, what)

    whole = attempt(0)
    if whole.size <= budget:
        return whole
    least = attempt(len(units))
    if least.size > budget:
        if least.size > limit:
            raise PasteTooLong(
                f"the {'Jira' if jira else 'Markdown'} paste's essentials alone are {least.size:,} "
                f"characters, over the {limit:,} it may have: {', '.join(b.name for b in blocks[:4])}…")
        return least
    lo, hi = 0, len(units)
    found = least
    while lo < hi:
        mid = (lo + hi) // 2
        tried = attempt(mid)
        if tried.size <= budget:
            hi, found = mid, tried
        else:
            lo = mid + 1
    # What the last piece left out frees may hold smaller pieces left before it: each, the
    # most kept first, back where it fits (a piece's own length first, then the whole paste),
    # into a block the paste still shows (a table left whole is not brought back for a row)
    left_out = set(units[:hi])
    for unit in reversed(units[:hi - 1]):
        block = blocks[unit[0]]
        piece = block.pieces[unit[1]]
        shown = any(q.priority is not None and (unit[0], i) not in left_out
                    for i, q in enumerate(block.pieces))
        if not shown or size(piece.jira if jira else piece.md) > budget - found.size:
            continue
        tried = render(blocks, jira, left_out - {unit}, attachment, what)
        if tried.size <= budget:
            left_out.discard(unit)
            found = tried
    return found
