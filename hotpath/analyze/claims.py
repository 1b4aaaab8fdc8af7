"""The write-ups' claimed figures (data/claims/<case>.csv) checked against our measurements.

Verdicts: reproduced (same direction, and ours is significant or a real byte change; for a
mechanism claim that states its counts, the counts measured are the counts stated),
contradicted (ours goes the other way, or a mechanism's counts differ from those it states),
undecided (ours cannot tell), not comparable (nothing of ours measures it, or the figure is
of a different kind). A mechanism claim without counts is checked for its direction only, and
its verdict says so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from . import cpu as cpu_analysis
from . import mechanisms as mechanism_analysis
from . import sites as site_analysis
from .compare import NATIVE_PARTS
from ..errors import ResultsError
from ..numbertext import three_figures
from ..cases import PART_METRICS, load_claims, params_key
from ..paths import CLAIMS
from ..stats import sequential
from ..jmh import SECONDS, per_op, per_time


_SAME_WORDS = re.compile(r"within error|parity|~|same|unchanged|noise", re.IGNORECASE)
#: For metrics without a per-fork test, a change smaller than this is not a direction.
_MIN_MOVE = 0.05
#: Below this share of measured time, GC time is a handful of collections: no direction.
_MIN_GC_TIME_PCT = 2.0
#: What a claimed direction says, for the reader of a contradiction.
_SAID = {"same": "no change beyond its error", "up": "an increase", "down": "a decrease"}
#: What check() returns: figures as numbers (tables.claims_table formats them), the verdict
#: and why, and the keys that tie a claim to its benchmark row.
FIGURES = ["claim", "claimed_old", "claimed_new", "claimed_unit", "claimed_change",
           "ours_old", "ours_new", "ours_unit", "verdict", "why"]
KEYS = ["benchmark", "params", "variant"]


def _convert(value: float, unit_from: str, unit_to: str) -> float:
    """Time units convert between themselves (ns/op <-> us/op, ops/s <-> ops/ms)."""
    if unit_from == unit_to or math.isnan(value):
        return value
    f, t = per_op(unit_from), per_op(unit_to)
    if f and t:
        return value * SECONDS[f] / SECONDS[t]
    f, t = per_time(unit_from), per_time(unit_to)
    if f and t:
        return value / SECONDS[f] * SECONDS[t]
    return math.nan


def _claimed_direction(claim: pd.Series) -> str:
    if _SAME_WORDS.search(claim["claimed_change"]):
        return "same"
    old, new = claim["old"], claim["new"]
    if not math.isnan(old) and not math.isnan(new):
        if new == old:
            return "same"
        return "up" if new > old else "down"
    m = re.search(r"([+\-−])\s*\d", claim["claimed_change"])
    if m:
        return "up" if m.group(1) == "+" else "down"
    if re.search(r"less|fewer|no |zero|eliminat", claim["claimed_change"], re.IGNORECASE):
        return "down"
    return "unknown"


def _params(claim: pd.Series) -> str:
    """A claim's 'a=1;b=2' in the pairs' own form 'a=1, b=2'."""
    return params_key(claim["params"])


def _claimed_change(claim: pd.Series) -> float:
    """The claimed relative change (new/old - 1), from the figures or else the stated %."""
    old, new = claim["old"], claim["new"]
    if not math.isnan(old) and not math.isnan(new) and old:
        return new / old - 1
    m = re.search(r"([+\-−])\s*(\d+(?:\.\d+)?)\s*%", claim["claimed_change"])
    if m:
        return (1 if m.group(1) == "+" else -1) * float(m.group(2)) / 100
    return math.nan


def _within_band(claim: pd.Series) -> bool:
    change = _claimed_change(claim)
    return not math.isnan(change) and abs(change) < sequential.THRESHOLD


def _find_pair(pairs: pd.DataFrame, claim: pd.Series) -> pd.Series | None:
    if pairs.empty:
        return None
    params = _params(claim)
    hit = pairs[(pairs["benchmark"] == claim["benchmark"]) & (pairs["params"] == params)
                & (pairs["candidate"] == (claim["variant"] or "optimized"))]
    return None if hit.empty else hit.iloc[0]


#: A mechanism claim names the sites it counts: "sites.allocations:<regex>" (allocations per op)
#: or "sites.bytes:<regex>" (B/op), the regex matched against the site names of the report's
#: "Where the bytes went" (hotpath.analyze.sites).
SITE_METRICS = {"sites.allocations": "allocations/op", "sites.bytes": "B/op"}
#: How a mechanism claim's verdict begins: what the overview and the README count them by.
AT_SITES = "counted at the sites"
#: Counted exactly: an allocation count that moved by less than this per op did not move.
_MIN_ALLOCS = 0.01
#: A mechanism claim's stated count per op is the measured one when they differ by less than
#: this (allocations per op; the fidelity pairing's SAME_COUNT): the site pass counts every
#: allocation of its iteration, so a stated 32 is measured as 32.00, and a JMH harness
#: allocation now and then stays far below it. Stated bytes per op: within MOVED_BYTES.
COUNT_TOLERANCE = 0.05
#: How the verdict of a mechanism claim says what was checked.
COUNTS_MATCH = "counts as stated"
COUNTS_DIFFER = "counts not as stated"
DIRECTION_ONLY = "direction only: the write-up states no counts"


def _sites(pair: pd.Series, claim: pd.Series, found: site_analysis.Sites | None):
    kind, _, pattern = claim["metric"].partition(":")
    unit = SITE_METRICS[kind]
    if found is None or not found.measured:
        return math.nan, math.nan, unit, None, None, "allocation sites not measured in this run"
    sides = [(pair["benchmark"], pair["params"], v) for v in (pair["baseline"], pair["candidate"])]
    if not all(site_analysis.has_side(found, *s) for s in sides):
        return math.nan, math.nan, unit, None, None, "allocation sites not measured for this row"
    counted = [site_analysis.matching(found, *s, pattern) for s in sides]
    at = 0 if kind == "sites.allocations" else 1
    old, new = counted[0][at], counted[1][at]
    least = _MIN_ALLOCS if at == 0 else site_analysis.MOVED_BYTES
    direction = "same" if abs(new - old) < least else ("down" if new < old else "up")
    return old, new, unit, direction, direction, (
        f"{AT_SITES} matching `{pattern}`, every allocation of the recorded iteration")


#: A time-mechanism claim names the frames its mechanism's work is done in, counted one of two
#: ways (hotpath.analyze.cpu): "cpu.self:<regex>", the samples whose running frame matches (the
#: copy stubs, Arrays.copyOf, the fault handlers), or "cpu.total:<regex>", every stack through a
#: matching frame (a method nothing else in the benchmark passes through); the regex matched
#: against the frame names of the report's "Where the time went". Its claimed change states the
#: share of the row's saved time it expects them to explain: "… 35–75% of the time saved".
CPU_METRICS = {"cpu.self": "ns/op", "cpu.total": "ns/op"}
_EXPECTED = re.compile(r"(\d+(?:\.\d+)?)\s*[–-]\s*(\d+(?:\.\d+)?)\s*% of the time saved")
#: How a time-mechanism claim's verdict begins.
AT_FRAMES = "timed at the frames"
#: How one whose frames are a caller's, or ran in no sample, says so.
REFUSED = "refused"
NOT_FOUND = "not found"


def expected_share(claim: pd.Series) -> tuple[float, float]:
    """The share of the saved time a time-mechanism claim expects its frames to explain, as
    fractions (low, high), from its claimed change ('… 35–75% of the time saved')."""
    m = _EXPECTED.search(claim["claimed_change"])
    if not m or float(m.group(1)) > float(m.group(2)):
        raise ResultsError(f"claim {claim['id']!r} ({claim['metric']}): a time-mechanism claim states the "
                           "share of the time saved it expects, as 'low–high% of the time saved' in its "
                           f"claimed change; it says {claim['claimed_change']!r}")
    return float(m.group(1)) / 100, float(m.group(2)) / 100


def share_text(value: float, low: float, high: float) -> str:
    """'81% (70–93%)'; with a negative bound '12% (−4% to 30%)'."""
    def pct(x: float) -> str:
        return f"{x:.0%}".replace("-", "−")
    return (f"{pct(value)} ({pct(low)} to {pct(high)})" if low < 0
            else f"{pct(value)} ({low:.0%}–{high:.0%})")


def beyond_whole(part, what: str) -> str:
    """Why a share of the row's change lies outside 0–100%, in words; empty inside it."""
    if not math.isfinite(part.share) or 0 <= part.share <= 1:
        return ""
    if part.share > 1:
        return (": these frames' time fell by more than the row's, so other frames' time rose by "
                "the rest")
    return f": these frames' time moved against the row's, which the other frames {what} all the same"


def explained_text(change, part, saved: float, whose: str = "the row's", verdict: float = math.nan) -> str:
    """'−90.1 ns/op (−97.3 to −82.9); they explain 81% (70–93%) of the row's 110 ns/op saved';
    ``whose``: whose saving it is, where the samples' forks are not the verdict's; ``verdict``:
    the verdict's own saving, said beside the frames' where the two part (Attribution.parts_from)."""
    n = three_figures
    interval = (f" ({n(change.low)} to {n(change.high)})" if math.isfinite(change.low) else "")
    share = ((share_text(part.share, part.low, part.high) if math.isfinite(part.low)
              else f"{part.share:.0%} (no interval: the row's change is not told from 0)")
             if math.isfinite(part.share) else "none")
    what = "saved" if saved > 0 else "added"
    by = (f" by the mean of its counted iterations, {n(abs(verdict))} "
          f"{'saved' if verdict > 0 else 'added'} by the verdict's figures" if math.isfinite(verdict) else "")
    return (f"change {n(change.delta)} ns/op{interval}; they explain {share} of {whose} "
            f"{n(abs(saved))} ns/op {what}{by}" + beyond_whole(part, what))


#: Rows' attributions by (benchmark, params, baseline, candidate).
Attributed = Mapping[tuple[str, str, str, str], cpu_analysis.Attribution]


def _frames(pair: pd.Series, claim: pd.Series, profiles: cpu_analysis.Profiles | None,
            attributed: Attributed | None = None) -> tuple[float, float, str, str, str]:
    """(old, new, unit, verdict, why) of a time-mechanism claim: reproduced only where its frames'
    change is decided, goes the claimed way and the share it explains lies, interval and all,
    in the share the claim expects; contradicted where the change goes the other way or the
    share lies wholly outside; undecided between. The row's attribution is ``attributed``'s
    where given, else made here."""
    kind, _, pattern = claim["metric"].partition(":")
    unit, how = CPU_METRICS[kind], kind.partition(".")[2]
    low, high = expected_share(claim)
    if profiles is None or not profiles.measured:
        return math.nan, math.nan, unit, "not comparable", "CPU samples not taken in this run"
    where = f"{AT_FRAMES} matching `{pattern}` ({how}) in the CPU samples"
    try:
        key = (pair["benchmark"], pair["params"], pair["baseline"], pair["candidate"])
        a = (attributed or {}).get(key) or cpu_analysis.attribute(profiles, *key)
        m = cpu_analysis.mechanism(a, pattern, how)
    except cpu_analysis.UnspecificFrames as e:
        return math.nan, math.nan, unit, "not comparable", f"{where}: {REFUSED}: {e}"
    except ResultsError as e:
        return (math.nan, math.nan, unit, "not comparable",
                f"CPU samples not attributed for this row: {e}")
    if not m.found:
        return 0.0, 0.0, unit, "not comparable", (
            f"{where}: {NOT_FOUND}: no sample of either side ran in them")
    change, part = m.change, m.part
    said = _claimed_direction(claim)
    went = "down" if change.delta < 0 else "up"
    decided = math.isfinite(change.p) and (change.high < 0 or change.low > 0)
    expected = f"{low:.0%}–{high:.0%} expected"
    # forks sampled on their own (make cpu) ran at their own speed: their saving is theirs
    own = profiles.own_forks(pair["benchmark"], pair["params"], pair["candidate"])
    whose = "the sampled forks' (forks of their own, not the verdict's)" if own else "the row's"
    old_ns, new_ns = cpu_analysis.verdict_ns(pair)
    verdict = old_ns - new_ns if not own and a.parts_from(old_ns, new_ns) else math.nan
    text = f"{where}: {explained_text(change, part, -a.time.delta, whose, verdict)} ({expected})"
    inside = math.isfinite(part.low) and low <= part.low and part.high <= high
    outside = math.isfinite(part.low) and (part.high < low or part.low > high)
    if decided and went != said:
        return change.old, change.new, unit, "contradicted", (
            f"{text}; the frames' time went {went}, where the claim expects {_SAID[said]}")
    if decided and inside:
        return change.old, change.new, unit, "reproduced", text
    if decided and outside:
        return change.old, change.new, unit, "contradicted", (
            f"{text}; the share lies outside the one expected")
    return change.old, change.new, unit, "undecided", text + (
        "; the frames' change is not told from 0" if not decided
        else "; the share's interval reaches beyond the one expected")


def time_mechanism(case_id: str, pair: pd.Series, folder: Path = CLAIMS) -> tuple[str, str] | None:
    """The frames the case's time-mechanism claim names on ``pair``'s row, as (how, regex), or
    None where no such claim names the row."""
    for _, claim in load_claims(case_id, folder).iterrows():
        kind, _, pattern = claim["metric"].partition(":")
        if kind in CPU_METRICS and _find_pair(pd.DataFrame([pair]), claim) is not None:
            return kind.partition(".")[2], pattern
    return None


def _count(value: float) -> str:
    return f"{value:,.0f}" if abs(value - round(value)) < 0.005 else f"{value:,.2f}"


def stated_counts(claim: pd.Series, old: float, new: float) -> tuple[bool | None, str]:
    """Whether a mechanism claim's measured counts are the ones it states: (None, why) where it
    states none (its direction is all there is to check), else (match, what was compared).
    A count stated on one side only is compared on that side."""
    tolerance = COUNT_TOLERANCE if claim["metric"].startswith("sites.allocations") \
        else site_analysis.MOVED_BYTES
    stated = [(s, m) for s, m in ((claim["old"], old), (claim["new"], new)) if not math.isnan(s)]
    if not stated:
        return None, DIRECTION_ONLY
    match = all(abs(s - m) < tolerance for s, m in stated)
    said = " → ".join("?" if math.isnan(s) else _count(s) for s in (claim["old"], claim["new"]))
    measured = " → ".join(_count(m) for m in (old, new))
    within = (f"within {tolerance:g} a call" if tolerance == COUNT_TOLERANCE
              else f"within {tolerance:g} B/op")
    return match, (f"{COUNTS_MATCH if match else COUNTS_DIFFER}: stated {said}, measured "
                   f"{measured} ({within})")


def _verdict(claim: pd.Series, said: str, old: float, new: float, direction: str | None,
             point: str | None, why: str) -> tuple[str, str]:
    """A claim's verdict and why, from our measurement's decided ``direction`` (None: not
    decided), its ``point`` estimate and what the write-up ``said``."""
    if direction is None and point is None:
        return "not comparable", why
    if direction is None:
        return "undecided", why + (f"; point estimate {'agrees' if point == said else 'disagrees'}"
                                   f" with the claim")
    if said == "unknown":
        return "not comparable", "the write-up gives no direction"
    if direction == said and claim["metric"].partition(":")[0] in SITE_METRICS:
        match, counted = stated_counts(claim, old, new)
        if match is False:
            return "contradicted", f"{why}; the direction agrees, the {counted}"
        return "reproduced", f"{why}; {counted}"
    if direction == said:
        return "reproduced", why
    if direction == "same" and _within_band(claim):
        # A claimed -2..-4% is "no change beyond ±5%" at this threshold: confirmed, not contradicted.
        return "reproduced", (f"{why}; the claimed change is itself within ±{sequential.THRESHOLD:.0%}, "
                              f"so 'same' agrees with it")
    return "contradicted", f"{why}, where the write-up reports {_SAID[said]}"


def _ours(pair: pd.Series, claim: pd.Series, peaks: pd.DataFrame | None,
          found: site_analysis.Sites | None = None, profiles: cpu_analysis.Profiles | None = None):
    """(old, new, unit, direction, significant, why) of our measurement for the claim."""
    metric = claim["metric"]
    if metric.partition(":")[0] in SITE_METRICS:
        return _sites(pair, claim, found)
    if metric == "score":
        return _time(pair, claim)
    native_sides = {m: stem for stem, m in NATIVE_PARTS.items()}
    if metric == "gc.alloc.rate.norm" or metric in native_sides:
        return _bytes(pair, metric, "alloc" if metric == "gc.alloc.rate.norm" else native_sides[metric])
    if metric in ("gc.time", "gc.count"):
        return _gc(pair, metric)
    if metric == "peak.heap":
        return _peak(pair, peaks)
    return math.nan, math.nan, "", None, None, f"metric {metric!r} not measured here"


def _time(pair: pd.Series, claim: pd.Series):
    """_ours for a time per op: the row's fork-level verdict, in the claim's unit where it converts."""
    old = _convert(pair["old_score"], pair["unit"], claim["unit"])
    new = _convert(pair["new_score"], pair["unit"], claim["unit"])
    unit = claim["unit"]
    if math.isnan(old):
        old, new, unit = pair["old_score"], pair["new_score"], pair["unit"]
    v = pair["verdict"]
    up_is_faster = pair["higher_is_better"]
    direction = {"faster": "up" if up_is_faster else "down",
                 "slower": "down" if up_is_faster else "up", "same": "same"}.get(v, "")
    point = "up" if pair["ratio"] > 1 + sequential.THRESHOLD else (
        "down" if pair["ratio"] < 1 - sequential.THRESHOLD else "same")
    why = (f"fork-level test: {v}" if v != "undecided"
           else "no fork-level verdict: " + "; ".join(pair["warnings"] or ["CI spans the threshold"]))
    return old, new, unit, direction or None, point, why


def _bytes(pair: pd.Series, metric: str, side: str):
    """_ours for heap or native bytes per op: the row's B/op verdict."""
    old, new = pair[f"old_{side}"], pair[f"new_{side}"]
    if math.isnan(old) or math.isnan(new):
        return old, new, "B/op", None, None, f"{metric} not measured in this run"
    verdict = pair[f"{side}_verdict"]
    point = "same" if verdict == "same" else ("down" if new < old else "up")
    return old, new, "B/op", None if verdict == "unclear" else point, point, f"B/op change: {verdict}"


def _gc(pair: pd.Series, metric: str):
    """_ours for GC time or counts: normalized, a direction only, and none on too few forks."""
    col = "gc_time_pct" if metric == "gc.time" else "gc_count_per_mop"
    old, new = pair[f"old_{col}"], pair[f"new_{col}"]
    unit = "% of time" if metric == "gc.time" else "per 10⁶ ops"
    if math.isnan(old) or math.isnan(new):
        return old, new, unit, None, None, f"{metric} not measured in this run"
    if old == 0 and new == 0:
        return old, new, unit, None, None, "no GC in the measured iterations of either variant"
    if metric == "gc.time" and max(old, new) < _MIN_GC_TIME_PCT:
        return old, new, unit, None, None, (
            f"GC took under {_MIN_GC_TIME_PCT:g}% of measured time in both variants: "
            f"a few collections, too few to compare")
    forks = min(pair["forks_old"], pair["forks_new"])
    needed = int(pair.get("first_look", sequential.MIN_FORKS))
    if forks < needed:
        # The same guard as the time verdicts: a fork or two of GC sums decide nothing.
        move = (new - old) / old if old else (math.inf if new else 0.0)
        point = "same" if abs(move) < _MIN_MOVE else ("up" if move > 0 else "down")
        return old, new, unit, None, point, (
            f"too few forks for a verdict ({forks} per side, {needed} needed)")
    move = (new - old) / old if old else math.inf
    direction = "same" if abs(move) < _MIN_MOVE else ("up" if move > 0 else "down")
    return old, new, unit, direction, direction, (
        "normalized (the write-up's raw sum is of another run shape); direction only")


def _peak(pair: pd.Series, peaks: pd.DataFrame | None):
    """_ours for the peak live heap: the two variants' bisected peaks, apart by more than their
    resolution or the same."""
    if peaks is None or peaks.empty:
        return math.nan, math.nan, "B", None, None, "peak live heap not measured in this run"
    rows = peaks[(peaks["benchmark"] == pair["benchmark"]) & (peaks["params"] == pair["params"])]
    by_variant = {r["variant"]: r for _, r in rows.iterrows()}
    if pair["baseline"] not in by_variant or pair["candidate"] not in by_variant:
        return math.nan, math.nan, "B", None, None, "no peak measurement for this payload"
    old_row, new_row = by_variant[pair["baseline"]], by_variant[pair["candidate"]]
    old, new = float(old_row["peak_bytes"]), float(new_row["peak_bytes"])
    # Each figure's resolution covers its own bisection and the payload baseline's; the
    # baseline is shared by the variants and cancels in the difference.
    noise = (old_row["resolution_bytes"] + new_row["resolution_bytes"]) / 2
    direction = "same" if abs(new - old) <= noise else ("down" if new < old else "up")
    return old, new, "B", direction, direction, (
        f"peak live heap by -Xmx bisection (resolution ±{noise / 1024:,.0f} KB)")


def _row_of(claim: pd.Series) -> dict:
    """A claim's row of check() before ours is measured: the write-up's figures and the keys."""
    return {"claim": claim["claim"], "claimed_old": claim["old"], "claimed_new": claim["new"],
            "claimed_unit": claim["unit"], "claimed_change": claim["claimed_change"],
            "ours_old": math.nan, "ours_new": math.nan, "ours_unit": "", "verdict": "",
            "why": "", "benchmark": claim["benchmark"], "params": _params(claim),
            "variant": claim["variant"] or "optimized"}


def _part_row(claim: pd.Series, found: mechanism_analysis.Found | None) -> dict:
    """A part claim's row: what its mechanism applied alone to old changes in time per op, on the
    row of the run of the mechanisms (make mechanisms) with the claim's benchmark and params."""
    row = {**_row_of(claim), "ours_unit": claim["unit"], "verdict": "not comparable"}
    mechanism = claim["mechanisms"]
    if not mechanism or "+" in mechanism:
        raise ResultsError(f"claim {claim['id']!r}: a part claim names the one mechanism it states the "
                           f"effect of in its mechanisms column; it names {mechanism!r}")
    split = next((r for r in (found.rows if found else ()) if r.benchmark == claim["benchmark"]
                  and r.params == _params(claim)), None)
    if split is None or split.time_ns is None or mechanism not in split.mechanisms:
        row["why"] = (f"{mechanism} alone not measured: make mechanisms measures it" if split is None
                      else f"{mechanism} alone not split on this row ({split.why or 'not a mechanism of it'})")
        return row
    part, cells = split.time_ns.alone[mechanism], split.time_ns.cells
    ns = {"old": cells[frozenset()].mean, "alone": cells[frozenset({mechanism})].mean}
    row["ours_old"], row["ours_new"] = (_convert(ns[k], "ns/op", claim["unit"]) for k in ("old", "alone"))
    claimed = _convert(claim["new"] - claim["old"], claim["unit"], "ns/op")
    within = "inside" if part.low <= claimed <= part.high else "outside"
    why = (f"{mechanism} alone on the whole call: {_signed_ns(part.estimate)} "
           f"({_signed_ns(part.low)} to {_signed_ns(part.high)}) ns/op, 95% over forks; the write-up's "
           f"{_signed_ns(claimed)} ns/op lies {within}")
    said = _claimed_direction(claim)
    direction = ("down" if part.high < 0 else "up") if part.told_from_zero else None
    point = "down" if part.estimate < 0 else "up"
    row["verdict"], row["why"] = _verdict(claim, said, ns["old"], ns["alone"], direction, point,
                                          why if direction else why + "; the part is not told from 0")
    if claim["note"]:
        row["why"] += f" ({claim['note']})"
    return row


def _signed_ns(value: float) -> str:
    return ("+" if value > 0 else "") + three_figures(value)


def check(case_id: str, pairs: pd.DataFrame, peaks: pd.DataFrame | None = None,
          folder: Path = CLAIMS, sites: site_analysis.Sites | None = None,
          profiles: cpu_analysis.Profiles | None = None, attributed: Attributed | None = None,
          parts: mechanism_analysis.Found | None = None) -> pd.DataFrame:
    """One row per claimed figure: the write-up's, ours, a verdict and why; mechanism claims
    are counted at the run's allocation sites (``sites``), time-mechanism claims timed at the
    frames of its timed forks' CPU samples (``profiles``; ``attributed``: the rows' attributions
    already made from them, as the report's analysis has them), part claims on the mechanisms
    measured alone (``parts``)."""
    rows = []
    for _, claim in load_claims(case_id, folder).iterrows():
        kind = claim["metric"].partition(":")[0]
        if kind in PART_METRICS:
            rows.append(_part_row(claim, parts))
            continue
        if kind.startswith("cpu.") and kind not in CPU_METRICS:
            raise ResultsError(f"claim {claim['id']!r}: {kind!r} counts no frames; a time-mechanism "
                               f"claim is {' or '.join(repr(k + ':<regex>') for k in CPU_METRICS)}")
        if kind in CPU_METRICS:
            expected_share(claim)  # a claim without its share is an error before any run is read
        said = _claimed_direction(claim)
        row = _row_of(claim)
        pair = _find_pair(pairs, claim) if claim["benchmark"] else None
        if pair is None:
            row["verdict"] = "not comparable"
            row["why"] = claim["note"] or ("no benchmark of ours measures this" if not
                                           claim["benchmark"] else "not in this run")
            rows.append(row)
            continue
        if claim["metric"].partition(":")[0] in CPU_METRICS:
            row["ours_old"], row["ours_new"], row["ours_unit"], row["verdict"], row["why"] = \
                _frames(pair, claim, profiles, attributed)
            if claim["note"]:
                row["why"] += f" ({claim['note']})"
            rows.append(row)
            continue
        old, new, unit, direction, point, why = _ours(pair, claim, peaks, sites, profiles)
        row["ours_old"], row["ours_new"], row["ours_unit"] = old, new, unit
        row["verdict"], row["why"] = _verdict(claim, said, old, new, direction, point, why)
        if claim["note"]:
            row["why"] += f" ({claim['note']})"
        rows.append(row)
    return pd.DataFrame(rows, columns=[*FIGURES, *KEYS])
