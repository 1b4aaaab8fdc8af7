"""hotpath: JMH JSON -> tidy frame -> old/optimized comparison -> Jira, Markdown, charts.

The stages are modules: ``load`` (JMH JSON to a tidy DataFrame), ``compare`` (pairing and
deltas, with ``stats`` for fork-aware verdicts), ``claims`` (the write-ups' figures against
ours), ``headline``, ``tables`` and ``charts`` (with ``fmt`` for numbers); ``document`` is a
report as a notebook writes it. ``bench`` runs JMH; ``report`` runs the notebooks.
"""

from . import charts, compare, fmt, headline, stats, tables, versions
from .claims import check as check_claims
from .compare import Comparison, pair, summary
from .document import Document
from .errors import HotpathError, ResultsError
from .load import Run, read_results
from .charts import bar_chart, ratio_chart, save_png, sweep_chart
from .tables import compact_table, long_table, to_jira, to_markdown, wide_table

__all__ = [
    "Comparison", "Document", "HotpathError", "ResultsError", "Run", "bar_chart", "check_claims",
    "charts", "compact_table", "fmt", "headline", "long_table", "pair", "ratio_chart", "read_results", "save_png", "summary",
    "sweep_chart", "to_jira", "tables", "to_markdown", "versions", "wide_table",
]
