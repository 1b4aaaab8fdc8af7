"""hotpath: JMH JSON -> tidy frame -> old/optimized comparison -> Jira, Markdown, charts.

The stages are modules: ``load`` (JMH JSON to a tidy DataFrame), ``compare`` (pairing and
deltas, with ``stats`` for fork-aware verdicts), ``claims`` (the write-ups' figures against
ours) and ``render`` (tables and charts). ``bench`` runs JMH; ``report`` runs the notebooks.
"""

from . import compare, render, stats
from .claims import check as check_claims
from .compare import Comparison, pair, summary
from .errors import HotpathError, ResultsError
from .load import Run, read_results
from .render import (bar_chart, long_table, save_png, sweep_chart, to_jira, to_markdown,
                     wide_table)

__all__ = [
    "Comparison", "HotpathError", "ResultsError", "Run", "bar_chart", "check_claims", "read_results",
    "long_table", "pair", "save_png", "summary", "sweep_chart", "to_jira", "to_markdown",
    "wide_table",
]
