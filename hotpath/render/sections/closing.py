"""A case report's closing sections, after what its notebook shows: the evidence beside the
timing (allocation sites, CPU frames, steady state, shards), the release and the floor, the
write-up's claims checked, and last the environment and provenance."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd

from .. import charts, tables
from ..paste import LEAD
from ...analyze.report import Analysis
from ...paths import DEFAULT_PROFILE, reports_folder
from ...stats.sequential import THRESHOLD
from . import Section, evidence, heldto, mechanisms, relative, run, upstream

#: Under the claims check, unless a notebook says otherwise.
CLAIMS_NOTE = ("The write-up measured the upstream code on its own machine; we measure our models "
               "on ours. Absolute numbers differ; the question is whether each claimed direction "
               "reproduces.")


def speed_ratio(pairs: pd.DataFrame) -> Section:
    """Every row's time per op, each variant against old, as a chart."""
    return Section(figure=("speed-ratio", charts.ratio_chart(pairs, THRESHOLD),
                           "Time per op, each variant / old, with its 95% CI over fork means"))


def sections(analysis: Analysis, claims_note: str = "") -> Iterator[Section | None]:
    """Each closing section in turn, made when the page reaches it: each is laid out, and its
    chart drawn, before the next is made."""
    yield evidence.where_the_bytes_went(analysis)
    yield evidence.where_the_time_went(analysis)
    yield from mechanisms.which_change_pays(analysis)
    yield heldto.frames_held(analysis)
    if analysis.comparison is not None:
        yield run.steady_state(analysis.pairs, analysis.run.frame)
    yield run.shards(analysis.run)
    case = analysis.case
    if case is not None and analysis.comparison is not None:
        yield from upstream.fidelity(case, analysis.pairs, analysis.sites)
        if not analysis.pairs.empty:
            yield from upstream.left_on_the_table(case, analysis.pairs)
        # the study's answer to the write-up: a paste keeps it whole, before any row's sites
        yield Section("Claims check: the write-up's figures beside ours", tables.claims_table(analysis.claims),
                      note=claims_note or CLAIMS_NOTE, priority=LEAD)
    yield from environment(analysis)


def environment(analysis: Analysis) -> list[Section]:
    """The page's last sections: a case's allocation flame graphs (`make profile`'s, where
    made), then where the numbers come from and what drew the report."""
    found = []
    if analysis.case is not None:
        profile = analysis.provenance.get("profile", DEFAULT_PROFILE)
        found.append(run.flame_graphs(analysis.case.id, profile,
                                      reports_folder(profile) / analysis.case.id / "flames"))
    found.append(run.environment(analysis.run, relative(analysis.run.source)))
    return found
