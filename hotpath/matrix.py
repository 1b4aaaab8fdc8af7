"""The JDK x GC matrix of a case: the write-up's change measured on every runtime cell.

``run`` benchmarks each cell into its own results file (one file per cell: rows of two runtimes
are never in one comparison); ``read`` pairs every cell's old with its optimized; ``table`` and
``differences`` say per benchmark what each cell found and where the verdict or the sign moved
from the main configuration's (JDK 17, G1) in the same matrix.
"""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path

import pandas as pd

from . import bench, claims, compare, fmt, forkplan, stats
from .headline import time_per_op
from .cases import Case
from .errors import ResultsError
from .load import read_results
from .paths import matrix_file
from .profiles import Profile
from .runtimes import MAIN, MATRIX, PRESSURE, Cell, available

#: Every cell a matrix can hold, in the order reports show them.
ALL_CELLS = (*MATRIX, PRESSURE)


def run(case: Case, profile: Profile, cells: list[Cell],
        budget_text: str = "") -> tuple[list[Path], dict[str, str]]:
    """Benchmark the case on each cell whose JDK is installed; the others are skipped with
    the reason. Each cell's file is replaced only by a complete run (hotpath.bench). The matrix
    asks about the write-up's change: old and the write-up's variant only."""
    profile = dataclasses.replace(profile, variants=("old", case.candidate))
    found, skipped = available(cells)
    for cell_id, why in skipped.items():
        print(f"hotpath: {case.id}: skipping cell {cell_id}: {why}", flush=True)
    written = []
    # The profile's budget is the case's: each cell gets an even share of what is left.
    budget = forkplan.parse_budget(budget_text or profile.budget) or math.inf
    started = time.monotonic()
    for i, cell in enumerate(found, 1):
        share = (budget - (time.monotonic() - started)) / (len(found) - i + 1)
        print(f"hotpath: {case.id}: cell {i} of {len(found)}: {cell.id} ({cell.describe()}), "
              f"budget {forkplan.format_duration(share)}", flush=True)
        written.append(bench.run(case, profile, out=matrix_file(profile.name, case.id, cell.id),
                                 cell=cell, budget_s=max(0.0, share)))
    return written, skipped


def profile_for(profile: str) -> str:
    """Whose matrix an overview of ``profile`` shows: the committed matrix beside the committed
    reference; a local profile's own matrix otherwise."""
    return "matrix" if profile in ("reference", "matrix") else profile


def overview_cell(profile: str, case: Case, folder: Path) -> str:
    """The overview's cell for a case: where the verdict differs, linked to the matrix report."""
    matrix_profile = profile_for(profile)
    if not cell_files(matrix_profile, case.id):
        return f"not measured (make matrix CASE={case.id})"
    text = summary(read(matrix_profile, case.id, case.candidate))
    page = folder / case.id / "matrix" / "report.html"
    return text + (f" ([matrix]({case.id}/matrix/report.html))" if page.is_file() else "")


def cell_files(profile: str, case_id: str) -> dict[Cell, Path]:
    """The cells of a case's matrix that have results, in report order."""
    return {c: f for c in ALL_CELLS if (f := matrix_file(profile, case_id, c.id)).is_file()}


def read(profile: str, case_id: str, candidate: str = "optimized") -> pd.DataFrame:
    """Every measured cell's pairs (old vs ``candidate``), with the cell's id and description."""
    files = cell_files(profile, case_id)
    if not files:
        raise ResultsError(
            f"no JDK x GC matrix for case {case_id!r} under the {profile!r} profile "
            f"(looked for {matrix_file(profile, case_id, MAIN.id)} and its sibling cells); "
            f"make it with: make matrix CASE={case_id} PROFILE={profile}")
    frames = []
    for cell, path in files.items():
        pairs = compare.pair(read_results(path).frame).pairs
        if pairs.empty:
            continue
        mine = pairs[pairs["candidate"] == candidate]
        frames.append(mine.assign(cell=cell.id, cell_description=cell.describe(), source=str(path)))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def name(r: pd.Series) -> str:
    """'StoreKey.consumeQueueKey(topicLength=8)': the class says which question of the case."""
    return f"{r['class'].removesuffix('Benchmark')}.{fmt.label(r)}"


def _sign(ratio: float) -> str:
    if math.isnan(ratio):
        return ""
    return "faster" if ratio < 1 else ("slower" if ratio > 1 else "equal")


def _said(alloc_verdict: str) -> str:
    """A B/op verdict inside a sentence: '→ 0 B/op' reads 'falls to 0 B/op'."""
    return alloc_verdict.replace("→ ", "falls to ")


#: Time verdicts that decide; "inconclusive" does not.
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
    for (benchmark, params), group in pairs.groupby(["benchmark", "params"], sort=False):
        ref = group[group["cell"] == main]
        if ref.empty:
            continue
        ref = ref.iloc[0]
        ref_ratio = time_per_op(ref)[0]
        for _, r in group[group["cell"] != main].iterrows():
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
