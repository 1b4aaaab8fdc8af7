"""A report's sections as values: each a function of what the report shows (its analysis,
hotpath.analyze.report: its pairs, its run, the passes beside the timing) that returns its
heading, its table or text, its notes, how the paste ranks its rows and what report.html carries
beside it; Document lays them out (``Document.add``) and hotpath.render.page plans the pastes.
A new kind of evidence is a module here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..paste import DETAIL
from ...paths import ROOT

#: How a per-row table's lines go into the paste (page.per_row_plan): the write-up's own rows
#: CORE, the Result's row first, every other variant's BULK, a row's lines together.
PER_ROW = "per row"
#: As PER_ROW, but only the Result's row CORE, the write-up's other rows DETAIL: a frame table
#: per row would crowd the environment out of jira.txt.
PER_ROW_RESULT_FIRST = "per row, the Result's first"


@dataclass(frozen=True)
class Section:
    """One block of a report: a table under its heading, a text (``table`` None, ``text``
    Markdown with its own heading if it has one), or only a chart (``figure``, nothing else)."""

    heading: str = ""
    table: pd.DataFrame | None = None
    text: str = ""
    #: The table's note: paragraphs, a list among them holding sentences the paste may leave out.
    note: str | list[Any] = ""
    #: The paste's priority (hotpath.render.paste): where the block is left out whole or kept.
    priority: int = DETAIL
    #: How the paste ranks the table's rows: PER_ROW, PER_ROW_RESULT_FIRST, each row's own
    #: (priority, rank), or None (page.row_plan: the Result's row, then the largest changes).
    rows: str | list[tuple[int, int]] | None = None
    #: Columns report.html shows and the pastes do not (links into the report itself).
    report_only: tuple[str, ...] = ()
    #: HTML report.html carries after the block (flame graphs inside the report).
    graphs: str = ""
    #: A chart after the block: its name, the Matplotlib figure and its caption.
    figure: tuple[str, Any, str] | None = None
    #: A text's Jira markup where it is not its Markdown's (a title's heading is h2. in Jira).
    jira: str = ""
    #: What the notebook shows of a text where it is not the text itself: a title without its
    #: heading; nothing for the Result, which report.html shows as its headline (``graphs``).
    shown: str | None = None
    #: How the paste names a text it leaves out, where not by its heading or first words.
    name: str = ""
    #: The Result's row (its label and variant), named by the lead's table: first in every table
    #: of the page from it on.
    main: tuple[str, str] | None = None


def relative(path: Path) -> str:
    """A file as a report names it: relative to the project root where it lies under it."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(Path(path))
