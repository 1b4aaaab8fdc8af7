"""How figures read: significant digits, byte counts, signed percentages, verdict words.

Every table, chart label and headline formats its numbers here, so that a figure reads the
same wherever it appears."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from .units import Scale
from ..numbertext import MINUS, three_figures as fmt_number
from ..stats import steady
from ..stats.sequential import MIN_FORKS


#: Native origins, as a reader names them.
NATIVE_NAMES = {"direct": "direct-buffer", "zlib": "zlib", "native": "native"}


def fmt_score(score: float, error: float, scale: Scale | None = None) -> str:
    """'21.3 ± 1.20' in the column's unit (``scale``, from units.score_scale)."""
    if scale is not None:
        score, error = scale(score), (error if error is None else scale(error))
    if error is None or math.isnan(error):
        return fmt_number(score)
    return f"{fmt_number(score)} ± {fmt_number(error)}"



def fmt_bytes(x: float, scale: Scale | None = None) -> str:
    """Bytes: whole bytes ('20,104'), or in the column's KB/MB (``scale``, from
    units.byte_scale) with three significant digits; a run that allocates nothing shows 0."""
    if x is None or math.isnan(x):
        return "—"
    if scale is not None and scale.divisor != 1:
        return fmt_number(scale(x))
    return f"{x:,.0f}".replace("-", MINUS)



def fmt_peak(peak_bytes: float, resolution_bytes: float) -> str:
    """A peak live heap in KB; at or below its resolution it is a bound, not a figure."""
    if peak_bytes is None or math.isnan(peak_bytes):
        return "—"
    if peak_bytes <= resolution_bytes:
        return f"≤ {(peak_bytes + resolution_bytes) / 1024:,.0f} KB"
    return f"{peak_bytes / 1024:,.0f} KB"



def fmt_pct(pct: float) -> str:
    if pct is None or math.isnan(pct):
        return "—"
    return f"{pct:+.1f}%".replace("-", MINUS)



def fmt_time_change(row: pd.Series) -> str:
    """benchstat-style: '−58.2% (2.39× faster)'; the ratio is of time per op."""
    ratio = row["ratio"]
    if math.isnan(ratio) or ratio <= 0:
        return "—"
    speedup = ratio if row["higher_is_better"] else 1 / ratio
    how = "faster" if speedup >= 1 else "slower"
    factor = speedup if speedup >= 1 else 1 / speedup
    if f"{factor:.2f}" == "1.00":
        return f"{fmt_pct(row['change_pct'])} (~)"
    return f"{fmt_pct(row['change_pct'])} ({factor:.2f}× {how})"



def verdict_word(row: pd.Series) -> str:
    """A time verdict in one word, as the compact table and the Result both say it."""
    return str(row["verdict"])


#: A B/op verdict in words, as the Result and the overview say it.
ALLOC_WORDS = {"less": "less", "more": "more", "same": "same", "→ 0 B/op": "none left",
               "unclear": "unclear"}


def fmt_ratio(ratio: float) -> str:
    """A ratio new/old as the overview and the Result print it: '0.891'."""
    return "—" if ratio is None or math.isnan(ratio) else f"{ratio:.3f}"


#: What the verdicts rest on where the pairs do not say (analyze's per-row ``estimate``).
DEFAULT_ESTIMATE = steady.describe_estimate(steady.MEAN)


def estimate_of(pairs: pd.DataFrame) -> str:
    """The figure each fork gives the verdicts, as the pairs name it row by row ('each fork's
    10th percentile of time per op over its counted iterations'), and the rows that rest on
    another, with why (the sides' GC time differs: hotpath.stats.rowfigures.row_estimate)."""
    if pairs.empty or "estimate" not in pairs:
        return DEFAULT_ESTIMATE
    # the run's own: the estimate of the rows that give no reason for theirs
    why = pairs["estimate_why"].fillna("") if "estimate_why" in pairs else pd.Series("", pairs.index)
    own = pairs.loc[why == "", "estimate"]
    main = own.iloc[0] if len(own) else pairs["estimate"].iloc[0]
    other = pairs[pairs["estimate"] != main]
    if other.empty:
        return main
    why = next((w for w in why[other.index] if w), "")
    names = ", ".join(dict.fromkeys(label(r) for _, r in other.iterrows()))
    return f"{main}; at {names}, on {why or other['estimate'].iloc[0]}"


def fmt_decided(pairs: pd.DataFrame) -> str:
    """'3 of 4': time rows with a verdict (faster, slower or same)."""
    if pairs.empty:
        return "—"
    return f"{int((pairs['verdict'] != 'undecided').sum())} of {len(pairs)}"


def fmt_verdict(row: pd.Series) -> str:
    v = row["verdict"]
    if v in ("faster", "slower") and row.get("stopped"):
        return f"{v} (at {fmt_forks(row)})"
    if v in ("faster", "slower"):
        return f"{v} (p={row['p_value']:.3f})"
    if v == "same":
        return f"same (±{row['threshold']:.0%})"
    return "~ undecided"



def fmt_forks(row: pd.Series) -> str:
    """'4 forks' per side (the side with fewer, where old ran more for another row)."""
    n = int(min(row["forks_old"], row["forks_new"]))
    return f"{n} fork{'s' if n != 1 else ''}"


#: Why a row of the sequential plan stopped taking forks, as a reader says it.
STOPPED = {"decided": "decided", "cap": "at its cap", "budget": "budget spent", "failed": "failed",
           "out of reach": "beyond its cap"}


def stopped(row: pd.Series) -> tuple[int, str]:
    """A row's forks per side and why its plan stopped it ('' for a fixed plan)."""
    return int(min(row["forks_old"], row["forks_new"])), STOPPED.get(row.get("stopped") or "", "")


def fmt_stopped(row: pd.Series) -> str:
    """'4, decided' / '24, at its cap' / '6, budget spent'; forks alone for a fixed plan."""
    n, why = stopped(row)
    return f"{n}, {why}" if why else str(n)


def first_look(row: pd.Series) -> int:
    """The forks per side a row's first interval needs: its design's first look (a run of the
    sequential plan), else a fixed number's (stats.MIN_FORKS)."""
    n = row.get("first_look", MIN_FORKS)
    return int(n) if n == n else MIN_FORKS


def undecided(row: pd.Series, lo: float, hi: float) -> str:
    """What an undecided time row still allows, and the forks a decision would need:
    'between −1% and +9%: not decided at ±5%; about 40 forks per side would decide it (fork CV 12%)'.
    ``lo``/``hi`` bound time per op new/old."""
    band = f"±{row['threshold']:.0%}"
    if math.isnan(lo) or math.isnan(hi):
        return (f"not decided at {band}: no interval yet (fewer than {first_look(row)} forks "
                f"per side)")
    text = (f"time/op between {fmt_pct((lo - 1) * 100)} and {fmt_pct((hi - 1) * 100)}: "
            f"not decided at {band}")
    need, cv = row.get("forks_needed", 0), row.get("fork_cv", math.nan)
    if need and need >= 1000:
        return text + "; it sits on the band's edge: no number of forks decides it"
    if need and not math.isnan(cv):
        return text + f"; about {need} forks per side would decide it (fork CV {cv:.0%})"
    return text


def fmt_alloc_change(old: float, new: float, verdict: str) -> str:
    if math.isnan(old) or math.isnan(new):
        return "—"
    delta = new - old
    if verdict == "same":
        return "~ same"
    if verdict == "→ 0 B/op":
        return f"{fmt_bytes(delta)} B (→ 0 B/op)"
    pct = f", {fmt_pct(delta / old * 100)}" if old else ""
    sign = "+" if delta > 0 else ""
    return f"{sign}{fmt_bytes(delta)} B{pct}"



def label(row: pd.Series | Mapping[str, Any]) -> str:
    params = f"({row['params']})" if row["params"] else ""
    return f"{row['method']}{params}"



def warnings_by_row(pairs: pd.DataFrame, shown: int = 6) -> list[str]:
    """Each distinct warning once, with the rows it is about: 'text (all rows)' or 'text: a, b'."""
    if pairs.empty or "warnings" not in pairs:
        return []
    modes = pairs["mode"].nunique() > 1
    rows_of: dict[str, list[str]] = {}
    for _, r in pairs.iterrows():
        name = label(r) + (f" [{r['mode']}]" if modes else "")
        for w in r["warnings"]:
            rows_of.setdefault(w, []).append(name)
    out = []
    for w, names in sorted(rows_of.items()):
        if len(names) == len(pairs) and len(pairs) > 1:
            out.append(f"{w} (all rows)")
        else:
            more = f" and {len(names) - shown} more" if len(names) > shown else ""
            out.append(f"{w}: {', '.join(names[:shown])}{more}")
    return out
