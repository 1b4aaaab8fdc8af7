"""A table written out: as HTML for report.html (cells that break where a long name can, numbers
aligned, figures kept whole), as Jira wiki markup and as GitHub Markdown; a cell nothing
measured is written "—" in all three."""

from __future__ import annotations

import functools
import html
import re

import pandas as pd


#: A Markdown link in a table cell: [text](target).
MD_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")



#: A word this long gets places to break (<wbr>), so that it cannot push its table past the
#: page: paths, JMH's include regexes; in a wide table, benchmark names too.
LONG_WORD, WIDE_LONG_WORD = 40, 20
#: Where a long word breaks: after an opening bracket, a comma, a bar or a slash, and after a dot
#: that is not inside a number (hotpath.writer.WriterBenchmark, not 0.947 or 2.16.0).
_BREAK_AFTER = re.compile(r"([(,|/]|\.(?!\d)|(?<!\d)\.)")


def _bind_units(text: str) -> str:
    """A figure keeps its unit on its line (a no-break space): a line never ends at "−20,040"
    with "B," on the next."""
    return re.sub(r"(?<=\d) (?=[KMG]?B\b)", "\u00a0", text)


def _breakable(escaped: str, long: int) -> str:
    """Escaped text with its figures bound to their units and its words over ``long`` given <wbr>."""
    return re.sub(rf"[^ \t\n]{{{long + 1},}}", lambda m: _BREAK_AFTER.sub(r"\1<wbr>", m.group()),
                  _bind_units(escaped))


def html_cell(value: object, long: int = LONG_WORD) -> str:
    """A table cell as HTML: escaped, with Markdown links made into anchors and words longer
    than ``long`` (paths, regexes) given places to break; a link's target stays whole."""
    parts = MD_LINK.split(html.escape(str(value)))
    # split() leaves text, then each link's text and target, then text again
    out = [_breakable(parts[0], long)]
    for i in range(1, len(parts), 3):
        out.append(f'<a href="{parts[i + 1]}">{_breakable(parts[i], long)}</a>'
                   f'{_breakable(parts[i + 2], long)}')
    return "".join(out)



_NUMERIC = re.compile(r"^[−+\-~0-9.,± ()%×a-z/→–—≤]*$")



def numeric_column(values) -> bool:
    """Figures align right, words left: a column of numbers (with units, ±, →) is numeric."""
    values = [str(v) for v in values]
    return bool(values) and all(_NUMERIC.match(v) and any(ch.isdigit() for ch in v) or v == "—"
                                for v in values)



#: Character widths in em of DejaVu Sans, the wide sans-serif headless Chromium falls back on
#: (other faces are narrower): what a table's narrowest layout takes, from its text.
_EM = {**dict.fromkeys(" ,.:;'|/!ijlIJ", 0.32), **dict.fromkeys("()[]-frt⁶", 0.4),
       **dict.fromkeys("=+→±−×~≤#w%", 0.85), **dict.fromkeys("mMW—", 1.0),
       **dict.fromkeys("ABCDEGHKNOQRUVXZ", 0.72)}
#: A report's column is 85 em of table type (1070 px beside the output prompt, at 12.6 px). A
#: table whose narrowest layout is wider than this breaks its names too (WIDE_LONG_WORD); if it
#: is still wider, it is set "wide": smaller type, figures that may wrap between their pieces.
#: On the reference reports the narrowest layouts came out 1 to 1.5 em wider than estimated.
WIDE_EM = 82


@functools.lru_cache(maxsize=65536)
def _em(text: str) -> float:
    # (a report's tables repeat their texts: a render measured some 45,000 of them)
    return sum(_EM.get(ch, 0.62) for ch in text)


def _widest_em(text: str, figure: bool, long: int) -> float:
    """The width of the longest piece of ``text`` that a line cannot break: a figure whole,
    a word up to its <wbr> places (words over ``long``)."""
    if figure:
        return _em(text)
    return max((_em(piece) for word in re.split(r"[ \t\n]+", _bind_units(text))
                for piece in (_BREAK_AFTER.sub("\\1\n", word).split("\n") if len(word) > long
                              else [word])),
               default=0.0)


def min_width_em(table: pd.DataFrame, align: list[str], long: int = LONG_WORD) -> float:
    """The width of the table's narrowest layout in em: per column its widest unbreakable
    piece (headers, in bold, break between words), plus the cell's padding."""
    return sum(1.1 + max(1.07 * _widest_em(str(c), False, long),
                         *(_widest_em(str(v), a == "num", long) for v in table[c]))
               for c, a in zip(table.columns, align))


#: Where a figure of a wide table may wrap: after an arrow, ± or a comma, before a bracket.
_FIGURE_GAP = re.compile(r"(?<=[→±,]) | (?=\()")


def _figure_cell(value: object) -> str:
    """A figure of a wide table: whole pieces that may wrap only after →, ± or a comma, or
    before a bracket ('20,104 →' '19,248'; '+17.2%' '(1.17× faster)'; '5 faster,' '2 same')."""
    return " ".join(f'<span class="fig">{html_cell(p)}</span>' for p in _FIGURE_GAP.split(str(value)))




def html_table(table: pd.DataFrame) -> str:
    """A plain HTML table: escaped cells, links as anchors, figures right and words left; a
    table too wide for the page breaks its names, and if that is not enough is marked "wide"
    (see WIDE_EM).

    Written by hand rather than by pandas' Styler, whose random ids would make every render
    of the same JSON differ."""
    if table.empty:
        return "<p>No rows.</p>"
    table = filled(table)
    align = ["num" if numeric_column(table[c]) else "text" for c in table.columns]
    narrowest = min_width_em(table, align)
    long = LONG_WORD if narrowest <= WIDE_EM else WIDE_LONG_WORD
    wide = (narrowest if long == LONG_WORD else min_width_em(table, align, long)) > WIDE_EM

    def cell(v, a):
        return _figure_cell(v) if wide and a == "num" else html_cell(v, long)
    head = "".join(f'<th class="{a}">{html_cell(c)}</th>' for c, a in zip(table.columns, align))
    body = "".join("<tr>" + "".join(f'<td class="{a}">{cell(v, a)}</td>' for v, a in zip(row, align))
                   + "</tr>\n" for row in table.itertuples(index=False))
    return (f'<table class="hotpath{" wide" if wide else ""}"><thead><tr>{head}</tr></thead>\n'
            f'<tbody>\n{body}</tbody></table>')



#: What a cell says that the run did not measure (a row its profile left out): never nan or None.
UNMEASURED = "—"


def unmeasured(table: pd.DataFrame) -> bool:
    """Whether a cell of the table is missing (NaN or None): a row the run did not measure."""
    return bool(table.isna().to_numpy().any())


def filled(table: pd.DataFrame) -> pd.DataFrame:
    """The table with every missing cell as UNMEASURED: every format writes it so."""
    # one array of objects, masked (astype(object) then where, column by column: 3 ms a table,
    # three times a table)
    values = table.to_numpy(dtype=object, copy=True)
    values[table.isna().to_numpy()] = UNMEASURED
    return pd.DataFrame(values, index=table.index, columns=table.columns, dtype=object)


def _jira_cell(text: object) -> str:
    # Jira wiki markup gives | [ ] { } meaning inside table cells. A bar escaped as \| is still
    # taken for a cell boundary by Jira markup parsers (jira2markdown), so it goes in as its
    # character entity.
    text = re.sub(r"([\[\]{}])", r"\\\1", str(text)).replace("|", "&#124;")
    return text.replace("\n", " ") or " "



def to_jira(table: pd.DataFrame) -> str:
    table = filled(table)
    lines = ["||" + "||".join(_jira_cell(c) for c in table.columns) + "||"]
    for row in table.itertuples(index=False):
        lines.append("|" + "|".join(_jira_cell(v) for v in row) + "|")
    return "\n".join(lines) + "\n"



def _md_cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")



def to_markdown(table: pd.DataFrame) -> str:
    table = filled(table)
    align = ["---:" if numeric_column(table[c]) else "---" for c in table.columns]
    lines = ["| " + " | ".join(_md_cell(c) for c in table.columns) + " |",
             "| " + " | ".join(align) + " |"]
    for row in table.itertuples(index=False):
        lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
    return "\n".join(lines) + "\n"
