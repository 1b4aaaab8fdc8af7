"""What a reviewer reads first: the Result, generated from the comparison (never typed by hand),
short enough to read in ten seconds: the write-up's main row, what changed and by how much, each
with its verdict word, then the whole run in one clause.

Every figure in it is formatted by the function that formats it in the tables (the details
table's change, the compact table's verdict word and native columns, B/op old → new), so that
the Result cannot state what its tables contradict. The qualifiers (forks, intervals, why a row
is undecided, forks that never settled) are in the tables and the notes under them."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ..analyze import compare
from .fmt import (ALLOC_WORDS, NATIVE_NAMES, fmt_bytes, fmt_decided, fmt_pct, fmt_ratio, label,
                  verdict_word)
from .tables import native_columns, written


@dataclass(frozen=True)
class Lead:
    """The write-up's main row as the Result and the overview's row of its case say it."""

    label: str
    candidate: str
    baseline: str
    time: str
    alloc: tuple[str, ...]

    def changes(self) -> str:
        return "; ".join([self.time, *self.alloc])


def time_phrase(row: pd.Series) -> str:
    """'throughput +11.8% (faster)' or 'time per op −70.3% (undecided)': the details table's
    change (fmt_time_change) and the compact table's verdict word."""
    if math.isnan(row["ratio"]):
        return "no time measured"
    what = "throughput" if row["higher_is_better"] else "time per op"
    return f"{what} {fmt_pct(row['change_pct'])} ({verdict_word(row)})"


def bytes_phrase(old: float, new: float, verdict: str, what: str) -> str:
    """'heap 20,104 → 19,248 B/op (less)'; '' where neither side was measured or allocated."""
    if math.isnan(old) or math.isnan(new) or (old < 0.5 and new < 0.5):
        return ""
    return f"{what} {fmt_bytes(old)} → {fmt_bytes(new)} B/op ({ALLOC_WORDS.get(verdict, verdict)})"


def alloc_phrases(row: pd.Series, native: list[str]) -> list[str]:
    """The native origins the compact table shows (``native``), where they changed (what
    -prof gc cannot see is what the write-ups remove), then the heap."""
    out = [bytes_phrase(row[f"old_{stem}"], row[f"new_{stem}"], row[f"{stem}_verdict"],
                        NATIVE_NAMES[stem])
           for stem in native if row[f"{stem}_verdict"] != "same"]
    out.append(bytes_phrase(row["old_alloc"], row["new_alloc"], row["alloc_verdict"], "heap"))
    return [p for p in out if p]


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


def lead(pairs: pd.DataFrame, candidate: str = "optimized", benchmark: str = "",
         params: str = "") -> Lead:
    """The main row (the case's headline row, else the candidate's first) of non-empty pairs."""
    candidate = main_candidate(pairs, candidate)
    row = main_row(pairs, candidate, benchmark, params)
    # the native origins the compact table has columns for, so that both show the same ones
    native = native_columns(written(pairs))
    return Lead(label(row), candidate, str(row["baseline"]), time_phrase(row),
                tuple(alloc_phrases(row, native)))


def run_clause(rows: pd.DataFrame) -> str:
    """One candidate's rows: 'Over its 9 rows: time per op 0.891×, heap 0.876× (geometric
    means); 7 of 9 decided: 5 faster, 2 same.' (the overview's geomeans and rows decided)."""
    s = compare.summary(compare.Comparison(rows, pd.DataFrame(), rows["baseline"].iloc[0]))
    heap = "" if math.isnan(s["alloc_geomean"]) else f", heap {fmt_ratio(s['alloc_geomean'])}×"
    zeroed = int((rows["alloc_verdict"] == "→ 0 B/op").sum())
    means = "geometric means" + (f"; {zeroed} falling to 0 B/op left out" if zeroed else "")
    counts = rows["verdict"].value_counts()
    decided = ", ".join(f"{counts[v]} {v}" for v in ("faster", "slower", "same") if v in counts)
    n = len(rows)
    return (f"Over its {n} row{'s' if n != 1 else ''}: time per op "
            f"{fmt_ratio(s['time_geomean'])}×{heap} ({means}); {fmt_decided(rows)} decided"
            + (f": {decided}." if decided else "."))


def sentence(pairs: pd.DataFrame, candidate: str = "optimized", benchmark: str = "",
             params: str = "") -> str:
    """The Result: the write-up's main row, then the candidate's rows in one clause, e.g.
    "At compressedMapFields(entries=30), optimized against old: throughput +11.8% (faster);
    direct-buffer 20,480 → 0 B/op (none left); heap 20,104 → 19,248 B/op (less). Over its 9
    rows: …". The floor and the release have tables of their own."""
    if pairs.empty:
        return "Nothing could be paired: no candidate variant beside the baseline."
    main = lead(pairs, candidate, benchmark, params)
    mine = pairs[pairs["candidate"] == main.candidate]
    return (f"At {main.label}, {main.candidate} against {main.baseline}: {main.changes()}. "
            f"{run_clause(mine)}")
