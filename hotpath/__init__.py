"""hotpath: JMH JSON -> tidy frame -> old/optimized comparison -> Jira, Markdown, charts.

The stages are modules: ``load`` (JMH JSON to a tidy DataFrame), ``compare`` (pairing and
deltas, with ``stats`` for fork-aware verdicts), ``claims`` (the write-ups' figures against
ours) and ``render`` (tables and charts). ``bench`` runs JMH; ``report`` runs the notebooks.
"""

from . import compare, headline, render, stats
from .claims import check as check_claims
from .compare import Comparison, pair, summary
from .document import Document
from .errors import HotpathError, ResultsError
from .load import Run, read_results
from .render import (bar_chart, long_table, ratio_chart, save_png, sweep_chart, to_jira,
                     to_markdown, wide_table)

__all__ = [
    "Comparison", "Document", "HotpathError", "ResultsError", "Run", "bar_chart", "check_claims",
    "headline", "long_table", "pair", "ratio_chart", "read_results", "save_png", "summary",
    "sweep_chart", "to_jira", "to_markdown", "wide_table",
]
