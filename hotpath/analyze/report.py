"""A report's analysis: what its sections show, computed here and only laid out by render. A
report is its run and the comparison of its two sides; beside them the run's passes (the
allocation sites, the CPU samples, the peaks), each row's frames old against new and the
write-up's claims checked against our figures. Each is computed once, when first asked for: a
report that never shows the frames never reads the samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pandas as pd

from . import claims, compare
from . import cpu as cpu_analysis
from . import mechanisms as mechanism_analysis
from . import series as series_analysis
from . import sites as site_analysis
from .load import Run, read_peaks
from ..cases import Case, load_claims


@dataclass(frozen=True)
class Analysis:
    """A report's figures: its run, the comparison of its sides (None for a report made without
    one) and, for a case's report, the case."""

    run: Run
    comparison: compare.Comparison | None = None
    case: Case | None = None

    @property
    def compared(self) -> compare.Comparison:
        """The comparison; a report made without one has none to give."""
        if self.comparison is None:
            raise ValueError("this report was made without a comparison of two sides")
        return self.comparison

    @property
    def pairs(self) -> pd.DataFrame:
        return self.compared.pairs

    @property
    def paired(self) -> pd.DataFrame:
        """The comparison's pairs, or none where the report was made without one."""
        return self.comparison.pairs if self.comparison is not None else pd.DataFrame()

    @property
    def provenance(self) -> dict:
        return (self.run.provenance or {}) if self.run else {}

    @cached_property
    def sites(self) -> site_analysis.Sites:
        """The run's allocation sites (the site pass's ``<case>.sites.json``)."""
        return site_analysis.read(self.run.source) if self.run else site_analysis.EMPTY

    @cached_property
    def profiles(self) -> cpu_analysis.Profiles:
        """The timed forks' CPU samples (``<case>.cpu.json``)."""
        return cpu_analysis.read(self.run.source) if self.run else cpu_analysis.EMPTY

    @property
    def peaks(self) -> pd.DataFrame:
        return read_peaks(self.run.source)

    @cached_property
    def recorded(self) -> tuple[site_analysis.RecordedRow, ...]:
        """Each row whose two sides the site pass recorded, with its sites old against new."""
        if self.comparison is None or not self.sites.measured:
            return ()
        return site_analysis.recorded_rows(self.pairs, self.sites)

    @cached_property
    def sampled(self) -> tuple[cpu_analysis.SampledRow, ...]:
        """Each row whose two sides were sampled, with its frames old against new."""
        if self.comparison is None or not self.profiles.measured:
            return ()
        return cpu_analysis.sampled_rows(self.pairs, self.profiles)

    @cached_property
    def mechanisms(self) -> mechanism_analysis.Found:
        """Which part of the patch pays: each row's change split among the patch's mechanisms, from
        the report's own run or the case's ``make mechanisms`` run; for the last step's run of a
        patch series (its report is the series'), among the series' steps."""
        if not self.run:
            return mechanism_analysis.Found()
        if self.case is None:
            series = series_analysis.last_step_of(self.run.source.parent)
            return series_analysis.found(series_analysis.read(series)) if series else mechanism_analysis.Found()
        return mechanism_analysis.found_for(self.run.source, self.run.frame, self.case.id)

    @cached_property
    def claims(self) -> pd.DataFrame:
        """The write-up's claimed figures beside ours, each with its verdict and why
        (hotpath.analyze.claims); none where the report is not a case's or paired nothing."""
        if self.case is None or self.comparison is None or self.pairs.empty:
            return pd.DataFrame(columns=[*claims.FIGURES, *claims.KEYS])
        # the time-mechanism claims divide the rows' attributions the frames' table shows
        attributed = {(r.pair["benchmark"], r.pair["params"], r.pair["baseline"], r.pair["candidate"]):
                      r.attribution for r in self.sampled if r.attribution is not None}
        return claims.check(self.case.id, self.pairs, self.peaks, sites=self.sites,
                            profiles=self.profiles, attributed=attributed, parts=self.mechanisms)

    @cached_property
    def frames_held(self) -> tuple[mechanism_analysis.FramesHeld, ...]:
        """Each time-mechanism claim's frames held to its mechanisms measured alone, on the run the
        mechanisms' parts come from (its own CPU samples)."""
        found = self.mechanisms
        if self.case is None or found.source is None:
            return ()
        profiles = (self.profiles if self.run and found.source == self.run.source
                    else cpu_analysis.read(found.source))
        return mechanism_analysis.frames_held(load_claims(self.case.id), found, profiles)
