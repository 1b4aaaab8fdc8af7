"""hotpath: JMH benchmarks measured, analyzed and rendered into reports for Jira and GitHub.

The package is its stages, each a subpackage that uses only the ones before it (an
import-linter contract in pyproject.toml holds the direction):

- ``hotpath.measure``: running JMH: profiles, the sequential fork plan and its rounds, the
  timing and memory passes, the jar stamp;
- ``hotpath.analyze``: JMH JSON to a tidy frame, pairing, the rows' verdicts, fidelity to the
  release, the write-ups' claims, the matrix's cells read back;
- ``hotpath.render``: tables, charts, the headline, the report document, papermill, the
  overview and the docs' quoted figures.

What every stage shares sits below them: the statistics (``stats``: fork estimates, Welch, the
sequential rule, steady state), what hotpath records beside JMH's figures (``records``), the
runtimes a fork runs on (``runtimes``), the machine's load (``machine``), the case registry
(``cases``), ``paths``, ``errors`` and JMH's own JSON format (``jmh``); ``cli`` is the command
line. Analyze and render read what measure wrote, never measure itself.

Notebooks use the names below (``import hotpath as hp``), never a module path under them, so
that a move inside a stage changes no notebook.
"""

from .analyze.aa import AA, chance_of_at_least, odds_of
from .analyze.ab import builds as builds_table
from .analyze.ab import differences as build_differences
from .analyze.ab import failed as failed_rows
from .analyze.ab import read as read_builds
from .analyze.ab import selection_text
from .analyze.claims import check as check_claims
from .analyze.compare import (Comparison, across_classes, alloc_slopes, by_param, pair, relabel,
                              size_of, sort_by_param, summary)
from .analyze.load import Run, read_results
from .analyze.stats import ALLOC_NOISE_BYTES
from .cases import get_case
from .errors import HotpathError, ResultsError
from .render.charts import bar_chart, noise_chart, peak_chart, ratio_chart, save_png, sweep_chart
from .render.cpu import explore as cpu_frames
from .render.document import Document
from .render.fmt import fmt_bytes, fmt_number, fmt_time_change, fmt_verdict
from .render.matrix import Matrix
from .render.sections.mechanisms import which_change_pays
from .render.sites import explore as allocation_sites
from .render.tables import (claims_table, compact_table, gc_table, long_table, peak_table, sizes_of,
                            to_jira, to_markdown, variants_table, wide_table)
from .render.versions import describe as rendered_with
from .stats.sequential import THRESHOLD

__all__ = [
    "AA", "allocation_sites", "chance_of_at_least", "cpu_frames", "noise_chart", "odds_of",
    "build_differences", "builds_table", "failed_rows", "read_builds", "selection_text",
    "ALLOC_NOISE_BYTES", "Comparison", "Document", "HotpathError", "Matrix", "ResultsError", "Run", "THRESHOLD",
    "across_classes", "alloc_slopes", "bar_chart", "by_param", "check_claims", "claims_table",
    "compact_table", "fmt_bytes", "fmt_number", "fmt_time_change", "fmt_verdict", "get_case",
    "gc_table", "long_table", "pair", "peak_chart", "peak_table", "ratio_chart", "read_results", "relabel",
    "rendered_with", "save_png", "size_of", "sizes_of", "sort_by_param", "summary", "sweep_chart",
    "to_jira", "to_markdown", "variants_table", "which_change_pays", "wide_table",
]
