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

Notebooks use the names of the package's face (``import hotpath as hp``, the names ``__all__``
lists below), never a module path under them, so that a move inside a stage changes no notebook.
The face (``hotpath.face``) is imported at the first of its names asked for, not with the package:
``import hotpath.render.warm`` costs no pandas, SciPy or Matplotlib, which a render's forkserver
then imports while the command line makes its own imports (hotpath.launch).
"""


import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .face import *  # noqa: F403 - the face's names, as a type checker sees them

# ruff: noqa: F405 - the names are the face's, imported at their first use (__getattr__)

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


def __getattr__(name: str) -> Any:
    """A name of the face, the face imported at the first one asked for. Any other name is not
    the package's: a submodule not imported yet is looked up here first, by every import of it."""
    if name not in __all__:
        raise AttributeError(f"module 'hotpath' has no attribute {name!r}")
    # (import_module, not ``from . import face``: that would look the name up here again)
    value = getattr(importlib.import_module(".face", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
