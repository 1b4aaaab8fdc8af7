"""The JDK x GC matrix of a case, said: per benchmark what each cell found, and where the verdict
or the sign moved from the main configuration's (JDK 17, G1) in the same matrix; the overview's
one line."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from ..analyze import claims, stats
from ..analyze import cpu as cpu_analysis
from ..analyze.compare import time_per_op
from ..analyze.matrix import ALL_CELLS, cell_files, profile_for, read
from ..cases import Case
from ..errors import ResultsError
from ..runtimes import MAIN, PRESSURE, Cell
from . import cpu as cpu_render
from . import fmt


def overview_cell(profile: str, case: Case, folder: Path) -> str:
    """The overview's cell for a case: where the verdict differs, linked to the matrix report."""
    matrix_profile = profile_for(profile)
    if not cell_files(matrix_profile, case.id):
        return f"not measured (make matrix CASE={case.id})"
    text = summary(read(matrix_profile, case.id, case.candidate))
    page = folder / case.id / "matrix" / "report.html"
    return text + (f" ([matrix]({case.id}/matrix/report.html))" if page.is_file() else "")


def name(r: pd.Series | Mapping[str, Any]) -> str:
    """'StoreKey.consumeQueueKey(topicLength=8)': the class says which question of the case."""
    return f"{r['class'].removesuffix('Benchmark')}.{fmt.label(r)}"


def _sign(ratio: float) -> str:
    if math.isnan(ratio):
        return ""
    return "faster" if ratio < 1 else ("slower" if ratio > 1 else "equal")


def _said(alloc_verdict: str) -> str:
    """A B/op verdict inside a sentence: '→ 0 B/op' reads 'falls to 0 B/op'."""
    return alloc_verdict.replace("→ ", "falls to ")


#: Time verdicts that decide; "undecided" does not.
DECIDED = ("faster", "slower", "same")
COLUMNS = ["benchmark", "cell", "main", "this cell", "what changed", "both decided"]


def differences(pairs: pd.DataFrame, main: str = MAIN.id) -> pd.DataFrame:
    """Per benchmark and cell: where the time verdict, or the sign of the point estimate (unless
    both verdicts are "same"), or the heap B/op verdict differs from the main cell's; "both
    decided" says whether both cells' time verdicts are decided (else a difference in time may
    be noise of the undecided side)."""
    rows = []
    if pairs.empty or main not in set(pairs["cell"]):
        return pd.DataFrame(columns=COLUMNS)
    # the rows as dicts, grouped in the order they first appear: indexing the wide frame per group
    # and cell took most of the time
    groups: dict[tuple[str, str], list[dict]] = {}
    for record in pairs.to_dict("records"):
        groups.setdefault((record["benchmark"], record["params"]), []).append(record)
    for group in groups.values():
        ref = next((r for r in group if r["cell"] == main), None)
        if ref is None:
            continue
        ref_ratio = time_per_op(ref)[0]
        for r in (r for r in group if r["cell"] != main):
            ratio = time_per_op(r)[0]
            changed = []
            if r["verdict"] != ref["verdict"]:
                changed.append(f"time verdict {ref['verdict']} → {r['verdict']}")
            # Two "same" verdicts put both intervals inside the band of no change: which side
            # of 1 each point estimate falls on there is noise, not the runtime.
            both_same = r["verdict"] == ref["verdict"] == "same"
            if _sign(ratio) != _sign(ref_ratio) and not both_same:
                changed.append(f"point estimate {_sign(ref_ratio)} → {_sign(ratio)}")
            if r["alloc_verdict"] != ref["alloc_verdict"]:
                changed.append(f"heap B/op {_said(ref['alloc_verdict'])} → {_said(r['alloc_verdict'])}"
                               f" ({fmt.fmt_bytes(r['old_alloc'])} → {fmt.fmt_bytes(r['new_alloc'])})")
            if changed:
                rows.append({"benchmark": name(r), "cell": r["cell"],
                             "main": f"{ref_ratio:.3f} {ref['verdict']}",
                             "this cell": f"{ratio:.3f} {r['verdict']}",
                             "what changed": "; ".join(changed),
                             "both decided": r["verdict"] in DECIDED and ref["verdict"] in DECIDED})
    return pd.DataFrame(rows, columns=COLUMNS)


def decided_differences(pairs: pd.DataFrame, main: str = MAIN.id) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(differences where both cells decided — a runtime effect — , differences where a side is
    undecided — possibly noise), each without the "both decided" column."""
    diff = differences(pairs, main)
    both = diff["both decided"].astype(bool)
    return (diff[both].drop(columns="both decided").reset_index(drop=True),
            diff[~both].drop(columns="both decided").reset_index(drop=True))


def _flagged(pairs: pd.DataFrame, main: str) -> set[tuple[str, str]]:
    """(benchmark, cell) of every entry that differs from the main cell."""
    diff = differences(pairs, main)
    return set(zip(diff["benchmark"], diff["cell"]))


def table(pairs: pd.DataFrame, main: str = MAIN.id) -> pd.DataFrame:
    """One row per benchmark x cell: time ratio with CI and verdict, heap and native B/op."""
    if pairs.empty:
        return pd.DataFrame()
    flagged = _flagged(pairs, main)
    native = pairs["old_native"].notna().any() or pairs["new_native"].notna().any()
    rows = []
    for _, r in pairs.iterrows():
        ratio, lo, hi = time_per_op(r)
        label = name(r)
        row = {
            "benchmark": label,
            "cell": r["cell"] + (" (main)" if r["cell"] == main else ""),
            "time new/old (95% CI)": f"{ratio:.3f} ({lo:.3f}–{hi:.3f})" if not math.isnan(lo)
            else f"{ratio:.3f}",
            "verdict": r["verdict"] + (" ⚑" if (label, r["cell"]) in flagged else ""),
            "heap B/op old → new": f"{fmt.fmt_bytes(r['old_alloc'])} → {fmt.fmt_bytes(r['new_alloc'])}",
        }
        if native:
            row["native B/op old → new"] = (f"{fmt.fmt_bytes(r['old_native'])} → "
                                            f"{fmt.fmt_bytes(r['new_native'])}")
        row["GC time % old → new"] = (f"{r['old_gc_time_pct']:.1f} → {r['new_gc_time_pct']:.1f}"
                                      if not math.isnan(r["old_gc_time_pct"]) else "—")
        rows.append(row)
    return pd.DataFrame(rows)


def pivot(pairs: pd.DataFrame, main: str = MAIN.id) -> pd.DataFrame:
    """The matrix at a glance: one row per benchmark, one column per cell, each entry the time
    per op new/old and its verdict (⚑ where it differs from the main cell)."""
    if pairs.empty:
        return pd.DataFrame()
    flagged = _flagged(pairs, main)
    cells = list(dict.fromkeys(pairs["cell"]))
    rows: dict[str, dict[str, str]] = {}
    for _, r in pairs.iterrows():
        label = name(r)
        mark = " ⚑" if (label, r["cell"]) in flagged else ""
        rows.setdefault(label, {"benchmark": label})[r["cell"]] = (
            f"{time_per_op(r)[0]:.3f} {r['verdict']}{mark}")
    return pd.DataFrame(list(rows.values()), columns=["benchmark", *cells]).fillna("—")


def pressure_claims(case_id: str, pairs: pd.DataFrame) -> pd.DataFrame:
    """The write-up's GC claims checked on the GC-pressure cell, if it was measured."""
    under = pairs[pairs["cell"] == PRESSURE.id] if not pairs.empty else pairs
    if under.empty:
        return pd.DataFrame()
    checked = claims.check(case_id, under)
    return checked[checked["claim"].str.contains("GC", case=False)]


def summary(pairs: pd.DataFrame, main: str = MAIN.id) -> str:
    """One line for the overview: cells measured and where the verdict differs."""
    if pairs.empty:
        return "—"
    cells = list(dict.fromkeys(pairs["cell"]))
    counted = f"{len(cells)} cell{'s' if len(cells) > 1 else ''}"
    if main not in cells:
        return (f"{counted} ({', '.join(cells)}); the main cell {main} is not in this matrix, "
                f"so nothing is compared with it")
    decided, undecided = decided_differences(pairs, main)
    in_time = "time verdict|point estimate"
    moved = decided[decided["what changed"].str.contains(in_time)]
    open_ = undecided[undecided["what changed"].str.contains(in_time)]
    slower = pairs[pairs["verdict"] == "slower"]
    # One entry per benchmark, its cells listed: a row slower everywhere is one finding.
    cells_of: dict[str, list[str]] = {}
    for _, r in slower.iterrows():
        cells_of.setdefault(name(r), []).append(r["cell"])
    slower_text = ("slower nowhere" if slower.empty else "slower in " + "; ".join(
        f"{bench} on {', '.join(cells)}" for bench, cells in cells_of.items()))
    others = len(pairs[pairs["cell"] != main])
    text = f"{counted}; {slower_text}; "
    if moved.empty:
        text += f"no decided time verdict or sign differs from {main}"
    else:
        by_cell = moved.groupby("cell", sort=False).size()
        text += (f"both decided and different from {main} in {len(moved)} of {others} benchmark × "
                 f"cell entries (" + ", ".join(f"{cell} {n}" for cell, n in by_cell.items()) + ")")
    if not open_.empty:
        text += f"; {len(open_)} more differ where a side is undecided"
    return text


def geomeans(pairs: pd.DataFrame) -> pd.DataFrame:
    """Per cell: the geometric mean of time per op new/old, and the verdict counts."""
    rows = []
    for cell, group in pairs.groupby("cell", sort=False):
        ratios = [time_per_op(r)[0] for _, r in group.iterrows()]
        counts = group["verdict"].value_counts()
        rows.append({"cell": cell, "runtime": group["cell_description"].iloc[0],
                     "time new/old (geomean)": f"{stats.geomean(ratios):.3f}",
                     "verdicts": ", ".join(f"{n} {v}" for v, n in counts.items())})
    return pd.DataFrame(rows)


TIME_COLUMNS = ["benchmark", "cell", "time per op, old → new", "Δ ns/op (95% CI)",
                "the collector's CPU per op, old → new", "the frame that changed most",
                "the mechanism's frames explain"]


def time_by_cell(case_id: str, pairs: pd.DataFrame, profiles: dict[str, cpu_analysis.Profiles]
                 ) -> pd.DataFrame:
    """Per benchmark and cell whose timed forks took CPU samples (``profiles`` by cell id): the
    row's time per op old → new from its frames, the collector's CPU per op (a concurrent
    collector's work is beside the benchmark's thread, not in its time), the decided frame whose
    time changed most, and the share of the change the case's time-mechanism claim's frames
    explain where one names the row."""
    rows = []
    for _, p in pairs.iterrows():
        found = profiles.get(p["cell"])
        if found is None or not found.measured:
            continue
        line = {"benchmark": name(p), "cell": p["cell"]}
        try:
            a = cpu_analysis.attribute(found, p["benchmark"], p["params"], p["baseline"], p["candidate"])
        except ResultsError as e:
            rows.append({**line, "time per op, old → new": f"not attributed: {e}"})
            continue
        top = a.decided("self").head(1)
        named = claims.time_mechanism(case_id, p)
        try:
            part = cpu_analysis.mechanism(a, named[1], named[0]).part if named else None
            explains = cpu_render.share(part.share, part.low, part.high) if part is not None else ""
        except cpu_analysis.UnspecificFrames:
            explains = "refused: its frames name a caller"
        rows.append({**line,
                     "time per op, old → new": f"{cpu_render.ns(a.time.old)} → {cpu_render.ns(a.time.new)}",
                     "Δ ns/op (95% CI)": cpu_render.change(a.time),
                     "the collector's CPU per op, old → new":
                         f"{cpu_render.ns(a.gc.old)} → {cpu_render.ns(a.gc.new)}",
                     "the frame that changed most":
                         (f"{top['frame'].iloc[0]} ({fmt.fmt_number(top['delta_ns'].iloc[0])} ns/op)"
                          if not top.empty else "none decided"),
                     "the mechanism's frames explain": explains})
    order = {c.id: i for i, c in enumerate(ALL_CELLS)}
    frame = pd.DataFrame(rows, columns=TIME_COLUMNS).fillna("")
    return frame.sort_values(["benchmark", "cell"], key=lambda c: c.map(order) if c.name == "cell" else c,
                             kind="stable").reset_index(drop=True)


class Matrix:
    """A case's JDK x GC matrix as its report reads it: the cells measured, every cell's pairs
    and the run of the main cell (whose provenance frames the report)."""

    #: The main configuration every other cell is compared with.
    MAIN = MAIN

    def __init__(self, case_id: str, profile: str, folder: str = ""):
        from ..analyze.load import read_results
        from ..cases import get_case

        self.case = get_case(case_id)
        self.profile = profile
        where = Path(folder) if folder else None
        self.files = cell_files(profile, case_id, where)
        self.pairs = read(profile, case_id, self.case.candidate, where)
        main = next((c for c in self.files if c.id == MAIN.id), next(iter(self.files)))
        self.main_run = read_results(self.files[main])

    def summary(self) -> str:
        return summary(self.pairs)

    def pivot(self) -> pd.DataFrame:
        return pivot(self.pairs)

    def geomeans(self) -> pd.DataFrame:
        return geomeans(self.pairs)

    def differences(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """(both decided, a side undecided): see decided_differences."""
        return decided_differences(self.pairs)

    def table(self) -> pd.DataFrame:
        return table(self.pairs)

    def comparison(self):
        """The pairs as a comparison (for the verdict note), nothing unpaired."""
        from ..analyze.compare import Comparison

        return Comparison(self.pairs, pd.DataFrame(columns=["benchmark", "params", "mode",
                                                            "variant", "reason"]), "old")

    def chart(self, threshold: float):
        from .charts import matrix_chart

        return matrix_chart(self.pairs, threshold, name)

    def pressure_claims(self) -> pd.DataFrame:
        return pressure_claims(self.case.id, self.pairs)

    @cached_property
    def profiles(self) -> dict[str, cpu_analysis.Profiles]:
        """Each cell's CPU samples, taken in its timed forks (empty where it took none)."""
        return {cell.id: cpu_analysis.read(path) for cell, path in self.files.items()}

    def unsampled(self) -> list[str]:
        """The cells whose timed forks took no CPU samples."""
        return [cell for cell, found in self.profiles.items() if not found.measured]

    def time_by_cell(self) -> pd.DataFrame:
        return time_by_cell(self.case.id, self.pairs, self.profiles)

    def time_note(self) -> str:
        """How the per-cell frames were made, and which cells have none."""
        sampled = next((f for f in self.profiles.values() if f.measured), None)
        how = (f"{sampled.recorded}. " if sampled is not None and sampled.recorded
               else "CPU samples of the cells' timed forks. ")
        missing = self.unsampled()
        return (how + "A row's time per op is its frames' self times summed, forks as replicates, "
                "the change with a 95% interval. The collector's CPU per op is its threads' CPU "
                "beside the row's time: a concurrent collector (ZGC) works beside the benchmark's "
                "thread, so what an allocation cut saves it shows here rather than in the row's "
                "time. The frame that changed most: the largest change by self time among the frames "
                "decided (Benjamini–Hochberg at 5% across the row's frames). The mechanism's frames: "
                "the write-up's time-mechanism claim (data/claims), on the row it names, as the "
                "case report counts it."
                + (f" Cells whose forks took no samples (measured before the matrix's forks "
                   f"did): {', '.join(missing)}; `make matrix CASE={self.case.id} "
                   f"CELLS={','.join(missing)}` measures them again with them." if missing else ""))

    @cached_property
    def provenances(self) -> dict[Cell, dict]:
        """Each cell's provenance, read once for the sources and the machines."""
        from ..analyze.load import read_results

        return {cell: read_results(path).provenance or {} for cell, path in self.files.items()}

    def sources(self) -> pd.DataFrame:
        """One row per cell: the runtime, the results file, the commit and the machine's load."""
        from .. import machine
        from ..paths import ROOT

        rows = []
        for cell, path in self.files.items():
            p = self.provenances[cell]
            # a cell is a unit of a matrix cut into shards: one machine measured all of it
            shard = (p.get("shards") or [{}])[0]
            rows.append({"cell": cell.id, "runtime": cell.describe(),
                         **({"shard": str(shard.get("shard", "?")), "machine": shard.get("machine", "?")}
                            if p.get("shards") else {}),
                         "JDK": p.get("jdk", {}).get("java.runtime.version", "?"),
                         "results file": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
                         "commit": str(p.get("git_commit", "?"))[:10] + (" (dirty)" if p.get("git_dirty") else ""),
                         "started": p.get("started", "?"), "duration": f"{p.get('duration_s', '?')} s",
                         "machine load": machine.describe(p.get("machine_load")),
                         "JVM args": " ".join(p.get("jvm_args", []))})
        frame = pd.DataFrame(rows)
        if "shard" in frame:  # cells of an unsharded run among them have neither
            frame[["shard", "machine"]] = frame[["shard", "machine"]].fillna("unsharded")
        return frame

    def machines(self) -> list[str]:
        """The machines that measured the cells, where the matrix was cut into shards."""
        return sorted({s.get("machine", "?") for p in self.provenances.values()
                       for s in p.get("shards") or []})
