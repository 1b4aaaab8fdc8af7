"""What a reviewer reads first: the headline sentence, generated from the comparison (never
typed by hand) in the terms of the write-ups: bytes per op old -> new, and time per op new/old
with its 95% CI and verdict. The compact table beside it is tables.compact_table."""

from __future__ import annotations

import math
from collections import Counter

import pandas as pd

from ..analyze import compare
from .fmt import MINUS, fmt_bytes, fmt_forks, label

#: Native origins, as a reader names them.
NATIVE_NAMES = {"direct": "direct-buffer", "zlib": "zlib", "native": "native"}


def _pct(x: float, digits: int = 0) -> str:
    return f"{x * 100:+.{digits}f}%".replace("-", MINUS)


def _ci(lo: float, hi: float) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return ""
    return f"95% CI {_pct(lo - 1)}…{_pct(hi - 1)}"


def time_phrase(row: pd.Series) -> str:
    """'throughput +19% (faster, p = 0.008, 95% CI +14…+24%)' or 'time per op −70% (…)'."""
    if math.isnan(row["ratio"]):
        return "no time measured"
    if row["higher_is_better"]:
        what, change, ci = "throughput", row["ratio"] - 1, _ci(row["ci_low"], row["ci_high"])
    else:
        what, change, ci = "time per op", row["ratio"] - 1, _ci(row["ci_low"], row["ci_high"])
    verdict = row["verdict"]
    if verdict in ("faster", "slower") and row.get("stopped"):
        why = f"{verdict}, decided at {fmt_forks(row)} per side"
    elif verdict in ("faster", "slower"):
        why = f"{verdict}, p = {row['p_value']:.3f}"
    elif verdict == "same":
        why = f"same within ±{row['threshold']:.0%}"
    else:
        few = [w for w in row["warnings"] if w.startswith("too few forks")]
        stopped = {"cap": f"not decided at ±{row['threshold']:.0%} in {fmt_forks(row)} (its cap)",
                   "budget": f"not decided at ±{row['threshold']:.0%} when the budget ran out "
                             f"({fmt_forks(row)})",
                   "out of reach": f"not decided at ±{row['threshold']:.0%} in {fmt_forks(row)}, "
                                   f"left there since its ratio and fork CV ask for more forks "
                                   f"than its cap"}.get(row.get("stopped") or "")
        why = "inconclusive" + (f": {few[0]}" if few else f": {stopped}" if stopped else "")
    details = ", ".join(x for x in (why, ci, unsettled_clause(row)) if x)
    return f"{what} {_pct(change, 1 if abs(change) < 0.1 else 0)} ({details})"


def unsettled_clause(row: pd.Series) -> str:
    """What a verdict rests on when some of its forks never settled: 'on 3 of 4 forks of old
    that never settled (each by its second half)'."""
    parts = []
    for side, stem in ((row.get("baseline", "old"), "old"), (row.get("candidate", ""), "new")):
        n = row.get(f"unsettled_{stem}") or 0
        if n:
            parts.append(f"{n} of {len(row.get(f'{stem}_steady') or [])} forks of {side}")
    if not parts:
        return ""
    return f"resting on {' and '.join(parts)} that never settled (each counted by its second half)"


def _bytes_phrase(old: float, new: float, verdict: str, what: str) -> str:
    if math.isnan(old) or math.isnan(new) or (old < 0.5 and new < 0.5):
        return ""
    span = f"{fmt_bytes(old)} → {fmt_bytes(new)} B/op"
    if verdict == "→ 0 B/op":
        return f"removes all {what} allocation ({span})"
    if verdict == "same":
        return f"leaves {what} allocation unchanged ({fmt_bytes(old)} B/op)"
    change = abs(new / old - 1) * 100 if old else math.inf
    amount = f"{change:.1f}%" if change < 10 else f"{change:.0f}%"
    if verdict == "less":
        return f"cuts {what} allocation by {amount} ({span})"
    if verdict == "more":
        return f"allocates {amount} more {what} ({span})" if old else f"adds {what} allocation ({span})"
    return ""


def alloc_phrases(row: pd.Series) -> list[str]:
    """Native origins first: what -prof gc cannot see is what the write-ups remove."""
    out = []
    for stem in ("direct", "zlib"):
        if f"old_{stem}" in row:
            out.append(_bytes_phrase(row[f"old_{stem}"], row[f"new_{stem}"],
                                     row[f"{stem}_verdict"], NATIVE_NAMES[stem]))
    out.append(_bytes_phrase(row["old_alloc"], row["new_alloc"], row["alloc_verdict"], "heap"))
    return [p for p in out if p]


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def main_candidate(pairs: pd.DataFrame, preferred: str = "optimized") -> str:
    candidates = list(dict.fromkeys(pairs["candidate"]))
    return preferred if preferred in candidates else candidates[0]


def main_row(pairs: pd.DataFrame, candidate: str, benchmark: str = "", params: str = "") -> pd.Series:
    rows = pairs[pairs["candidate"] == candidate]
    if benchmark:
        hit = rows[(rows["benchmark"] == benchmark) & (rows["params"] == params)]
        if not hit.empty:
            return hit.iloc[0]
    return rows.iloc[0]


def sentence(pairs: pd.DataFrame, candidate: str = "optimized", benchmark: str = "",
             params: str = "") -> str:
    """The headline: the write-up's main measurement, then the whole run in one clause.

    e.g. "At compressedMapFields(entries=30), optimized removes all direct-buffer allocation
    (20,480 → 0 B/op) and cuts heap allocation by 12.5% (…); throughput +19% (faster, …)."
    """
    if pairs.empty:
        return "Nothing could be paired: no candidate variant beside the baseline."
    candidate = main_candidate(pairs, candidate)
    row = main_row(pairs, candidate, benchmark, params)
    allocs = alloc_phrases(row)
    first = (f"At {label(row)}, {candidate} {_join(allocs) if allocs else 'allocates as much'}; "
             f"{time_phrase(row)}.")
    mine = pairs[pairs["candidate"] == candidate]
    s, verdicts = _run_summary(mine)
    zeroed = int((mine["alloc_verdict"] == "→ 0 B/op").sum())
    second = (f"Over all {len(mine)} row{'s' if len(mine) != 1 else ''}, {candidate}/{row['baseline']}: heap B/op "
              f"{_geo(s['alloc_geomean'])}"
              + (f" ({zeroed} fall to 0)" if zeroed else "")
              + f", time per op {_geo(s['time_geomean'])} (geometric means; {verdicts}).")
    # The release beside our model is fidelity, not a result of the patch: its own table says it.
    others = [c for c in dict.fromkeys(pairs["candidate"]) if c not in (candidate, compare.UPSTREAM)]
    third = ""
    if others:
        third = " " + " ".join(_other(pairs, c) for c in others)
    return first + " " + second + third


def _geo(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:.2f}×"


def _run_summary(rows: pd.DataFrame) -> tuple[dict[str, float], str]:
    """One candidate's rows: geometric means of the ratios, and its time verdicts counted."""
    s = compare.summary(compare.Comparison(rows, pd.DataFrame(), rows["baseline"].iloc[0]))
    counts = Counter(rows["verdict"])
    verdicts = ", ".join(f"{counts[v]} {v}" for v in ("faster", "same", "inconclusive", "slower")
                         if counts[v])
    return s, verdicts


def _other(pairs: pd.DataFrame, candidate: str) -> str:
    rows = pairs[pairs["candidate"] == candidate]
    s, verdicts = _run_summary(rows)
    return (f"{candidate}/{rows['baseline'].iloc[0]}: heap {_geo(s['alloc_geomean'])}, "
            f"time {_geo(s['time_geomean'])} ({verdicts}).")
