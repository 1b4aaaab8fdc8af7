"""The package's face: the names notebooks use (``import hotpath as hp``). ``hotpath`` itself
imports this module the first time one of them is asked for (hotpath/__init__.py), so that a
command that needs none of them, or a render's first step, does not wait for pandas, SciPy and
Matplotlib. Its names are ``hotpath.__all__``, listed there, where they are known without importing
anything (tests/test_public_face.py holds the two to each other). Importing it chooses
Matplotlib's headless backend (hotpath.render.charts): a notebook's first ``hp.`` name does,
where ``import hotpath`` alone did before."""

# ruff: noqa: F401 - the imports are the face

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
