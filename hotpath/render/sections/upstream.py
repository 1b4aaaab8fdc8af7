"""The models held to the released code and to the least the operation must allocate: fidelity
(our old model beside the `upstream` variant, at the allocation sites too, and why they still
differ) and what is left on the table (each variant against the allocation floor)."""

from __future__ import annotations

import re

import pandas as pd

from .. import sites as site_render
from .. import tables
from ..paste import EXTRA
from ... import cases
from ...analyze import fidelity as fidelity_rules
from ...analyze import sites as site_analysis
from ...cases import Case
from . import Section


def fidelity(case: Case, pairs: pd.DataFrame, sites: site_analysis.Sites) -> list[Section]:
    """Our old model beside the released upstream code (the `upstream` variant)."""
    table = tables.fidelity_table(pairs)
    missing = f" {case.unchecked}" if case.unchecked else ""
    if table.empty:
        if case.upstream or missing:
            return [Section(text=f"## Fidelity\n\n*This run has no `upstream` rows: the released code "
                                 f"({case.upstream or 'none'}) was not run beside the models.*{missing}",
                            priority=EXTRA)]
        return []
    found = [Section("Fidelity: the released upstream code beside our old model", table, priority=EXTRA, note=(
        f"Upstream: `{case.upstream}` from Maven Central, run as the `upstream` "
        f"variant of the same benchmarks; every benchmark setup aborts unless its output "
        f"equals our old model's. The old model should allocate what the release "
        f"allocates (within {fidelity_rules.SAME_SHARE:.0%} or {fidelity_rules.SAME_BYTES:g} B) and take "
        f"its time within {fidelity_rules.SAME_TIME:.0%}.{missing}"))]
    at_sites = site_render.fidelity_table(pairs, sites) if sites.measured else None
    if at_sites is not None and not at_sites.empty:
        found.append(Section("Fidelity at the allocation sites", at_sites, priority=EXTRA, note=(
            "The release's sites set against our old model's, paired by what they allocate, "
            "since the two name their own methods: the same type, or one declared the same "
            "in `data/fidelity/site-equivalences.csv` with its reason, as often (within "
            f"{site_analysis.SAME_COUNT:g} a call) and as large (a mean size within "
            f"{fidelity_rules.SAME_SHARE:.0%} or {fidelity_rules.SAME_BYTES:g} B). *Site for site*: each of "
            "the model's sites is one of the release's; *by type and size*: several sites of "
            "one type and size on a side together; *as totals*: only a type's totals agree; "
            "*nothing to pair*: no site on either side. A site either has alone is where the "
            "two allocate differently; the notes below say why where they do.")))
    notes = why_they_differ(case)
    return found + ([notes] if notes else [])


def why_they_differ(case: Case) -> Section | None:
    """Why the release and our model still differ where they do (data/fidelity/notes.csv)."""
    from ...paths import FIDELITY_NOTES

    notes = cases.read_table(FIDELITY_NOTES, ["case", "benchmark", "explanation"])
    notes = notes[notes["case"] == case.id]
    rows = [{"benchmark": b.replace("hotpath.", ""), "why": e}
            for b, e in zip(notes["benchmark"], notes["explanation"])]
    if not rows:
        return None
    return Section("Where the release and our model differ, and why", pd.DataFrame(rows), priority=EXTRA)


def left_on_the_table(case: Case, pairs: pd.DataFrame) -> list[Section]:
    """How far each variant is from the least the operation must allocate, and the price of the
    floor variant's moves (data/floors/<case>.csv and .md)."""
    from ...paths import FLOORS

    floors = cases.load_floors(case.id)
    if floors.empty:
        return []
    table = tables.left_on_the_table(pairs, floors, (case.candidate, "floor"))
    if table.empty:
        return []
    found = [Section("Left on the table: each variant against the allocation floor", table, priority=EXTRA, note=(
        "The floor is the least the operation must allocate given its API (the object it "
        "returns; 0 when it writes into the caller's buffer), stated per benchmark in "
        f"`data/floors/{case.id}.csv`. Beside a non-zero floor, ×N is the variant's "
        "B/op as a multiple of it; beside a zero floor, the bytes above it. The `floor` "
        "variant is a proposal with evidence, not a claim that upstream should merge it."))]
    price = FLOORS / f"{case.id}.md"
    if price.is_file():
        text = price.read_text(encoding="utf-8")
        # the file's own title is replaced by a section heading of the report
        body = re.sub(r"\A#[^\n]*\n+", "", text).strip()
        found.append(Section(text="## The price of the floor\n\n" + body, priority=EXTRA))
    return found
