"""Stage 3a: comparison -> tables (hotpath.render.markup writes them out)."""

from __future__ import annotations

import math

import pandas as pd

from .fmt import (NATIVE_NAMES, first_look, fmt_alloc_change, fmt_bytes, fmt_number, fmt_pct,
                  fmt_peak, fmt_score, fmt_stopped, fmt_time_change, fmt_verdict, label, undecided,
                  verdict_word)
from ..analyze import fidelity
from ..analyze.compare import ALLOC, BEYOND, time_per_op
from ..analyze.floors import floor_of
from ..jmh import MethodName, params_of
from .markup import to_jira, to_markdown
from .units import Scale, byte_scale, score_scale


MEASURE_UNITS = {"alloc": "heap B/op", "native": "native B/op", "direct": "direct-buffer B/op",
                 "zlib": "zlib B/op"}



def _candidates(pairs: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(pairs["candidate"]))



def written(pairs: pd.DataFrame) -> pd.DataFrame:
    """The rows of the write-up's variants: floor and upstream have tables of their own (unless
    they are all there is)."""
    mine = ~pairs["candidate"].isin(BEYOND)
    return pairs[mine] if mine.any() else pairs


def _measured(pairs: pd.DataFrame, column: str) -> bool:
    return column in pairs and pairs[column].notna().any()



def native_columns(pairs: pd.DataFrame) -> list[str]:
    """Native origins that -prof gc cannot see (direct ByteBuffers, zlib), each only where some
    row allocates there: Jira tables must stay narrow. Measured but nowhere allocated: the total,
    so that the table still says "0 native B/op" rather than nothing."""
    if not _measured(pairs, "old_native"):
        return []
    shown = [stem for stem in ("direct", "zlib")
             if (pairs[[f"old_{stem}", f"new_{stem}"]] > 0.5).any(axis=None)]
    return shown or ["native"]



#: Page faults per op worth a column: first-touched memory (hotpath's PageFaultProfiler) that
#: costs a per-op time the rule can see (a fault is 0.5 µs or more).
FAULTS_SHOWN = 1.0


def fault_column(pairs: pd.DataFrame) -> bool:
    """Whether the table shows page faults per op: where the run counted them and a side of
    some row faults at least FAULTS_SHOWN per op (a JIT's or collector's own faults, spread
    over many operations, stay out of a narrow table)."""
    if not _measured(pairs, "old_faults"):
        return False
    return bool((pairs[["old_faults", "new_faults"]] >= FAULTS_SHOWN).any(axis=None))


def wide_table(pairs: pd.DataFrame, gc: bool = False) -> pd.DataFrame:
    """One row per benchmark x params (x candidate): time, heap B/op, native B/op, and page
    faults per op where a side faults (fault_column); or, with ``gc``, GC in their place.

    The write-ups' own shape (payload, old, new, time change, old B/op, new B/op, alloc change).
    """
    many = len(_candidates(pairs)) > 1
    # Files from elsewhere mix modes and units; one score column per unit would be mostly empty.
    modes, units = pairs["mode"].nunique() > 1, pairs["unit"].nunique() > 1
    native = native_columns(pairs)
    # with the GC columns too a table no longer fits a page (writer's): gc_table is apart
    faults = not gc and fault_column(pairs)
    # One unit per column; where rows differ in unit, each row says its own.
    column_scale = None if units else _score_scale(pairs)
    alloc = _byte_scale(pairs, "alloc")
    rows = []
    for _, r in pairs.iterrows():
        row = {"benchmark": label(r)}
        if many:
            row["variant"] = r["candidate"]
        if modes:
            row["mode"] = r["mode"]
        scale = column_scale or _score_scale(pairs.loc[[r.name]])
        if units:
            row["unit"] = scale.unit
        # With one candidate its name heads its columns; with several, the variant column says.
        new = "new" if many else str(r["candidate"])
        row[r["baseline"] if units else f"{r['baseline']} {scale.unit}"] = fmt_score(
            r["old_score"], r["old_error"], scale)
        row[new if units else f"{new} {scale.unit}"] = fmt_score(r["new_score"], r["new_error"], scale)
        row["time"] = fmt_time_change(r)
        row["verdict"] = fmt_verdict(r)
        row[f"{r['baseline']} {alloc.unit}"] = fmt_bytes(r["old_alloc"], alloc)
        row[f"{new} {alloc.unit}"] = fmt_bytes(r["new_alloc"], alloc)
        row["alloc"] = fmt_alloc_change(r["old_alloc"], r["new_alloc"], r["alloc_verdict"])
        for stem in native:
            row[f"{MEASURE_UNITS[stem]} old → new"] = (f"{fmt_bytes(r[f'old_{stem}'])} → "
                                                      f"{fmt_bytes(r[f'new_{stem}'])}")
        if gc:
            row.update(_gc_cells(r))
        if faults:
            row["page faults/op old → new"] = (f"{fmt_number(r['old_faults'])} → "
                                               f"{fmt_number(r['new_faults'])}")
        rows.append(row)
    return pd.DataFrame(rows)



def gc_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """One row per benchmark x params (x candidate): collections per 10⁶ ops and their share of
    the measured time, old → new (wide_table(gc=True) without its other columns)."""
    many = len(_candidates(pairs)) > 1
    rows = []
    for _, r in pairs.iterrows():
        row = {"benchmark": label(r)}
        if many:
            row["variant"] = r["candidate"]
        rows.append({**row, **_gc_cells(r)})
    return pd.DataFrame(rows)


def _gc_cells(r: pd.Series) -> dict[str, str]:
    """A row's collections per 10⁶ ops and GC time share, old → new."""
    return {"GCs/10⁶ ops old → new": (f"{fmt_number(r['old_gc_count_per_mop'])} → "
                                      f"{fmt_number(r['new_gc_count_per_mop'])}"),
            "GC time % old → new": (f"{fmt_number(r['old_gc_time_pct'])} → "
                                    f"{fmt_number(r['new_gc_time_pct'])}")}


def _score_scale(pairs: pd.DataFrame) -> Scale:
    """One readable unit for the old and new scores of these rows (all in one JMH unit)."""
    return score_scale(pairs["unit"].iloc[0], [*pairs["old_score"], *pairs["new_score"]])


def _byte_scale(pairs: pd.DataFrame, measure: str) -> Scale:
    """B/op, KB/op or MB/op for the old and new bytes of ``measure`` in these rows."""
    return byte_scale([*pairs[f"old_{measure}"], *pairs[f"new_{measure}"]], per="/op")


def long_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """One row per benchmark x measure, like a write-up's "old | optimized | change" table."""
    rows = []
    for _, r in pairs.iterrows():
        name = label(r) + ("" if r["candidate"] == "optimized" else f" [{r['candidate']}]")
        what = "throughput" if r["higher_is_better"] else "time"
        scale = _score_scale(pairs.loc[[r.name]])
        rows.append({"benchmark": name, "measure": f"{what} ({scale.unit})",
                     "old": fmt_score(r["old_score"], r["old_error"], scale),
                     "new": fmt_score(r["new_score"], r["new_error"], scale),
                     "change": fmt_time_change(r), "verdict": fmt_verdict(r)})
        rows.append({"benchmark": name, "measure": "heap alloc (B/op)",
                     "old": fmt_bytes(r["old_alloc"]), "new": fmt_bytes(r["new_alloc"]),
                     "change": fmt_alloc_change(r["old_alloc"], r["new_alloc"],
                                                r["alloc_verdict"]),
                     "verdict": r["alloc_verdict"]})
        for stem, what in (("native", "native alloc, all (B/op)"),
                           ("direct", "native: direct buffers (B/op)"),
                           ("zlib", "native: zlib (B/op)")):
            if not math.isnan(r.get(f"old_{stem}", math.nan)):
                rows.append({"benchmark": name, "measure": what,
                             "old": fmt_bytes(r[f"old_{stem}"]), "new": fmt_bytes(r[f"new_{stem}"]),
                             "change": fmt_alloc_change(r[f"old_{stem}"], r[f"new_{stem}"],
                                                        r[f"{stem}_verdict"]),
                             "verdict": r[f"{stem}_verdict"]})
        rows.append({"benchmark": name, "measure": "GC count (per 10⁶ ops)",
                     "old": fmt_number(r["old_gc_count_per_mop"]),
                     "new": fmt_number(r["new_gc_count_per_mop"]),
                     "change": _ratio_text(r["old_gc_count_per_mop"], r["new_gc_count_per_mop"]),
                     "verdict": "no test (sum over the run)"})
        rows.append({"benchmark": name, "measure": "GC time (% of measured time)",
                     "old": fmt_number(r["old_gc_time_pct"]),
                     "new": fmt_number(r["new_gc_time_pct"]),
                     "change": _ratio_text(r["old_gc_time_pct"], r["new_gc_time_pct"]),
                     "verdict": "no test (sum over the run)"})
        if not math.isnan(r.get("old_faults", math.nan)):
            rows.append({"benchmark": name, "measure": "page faults (per op)",
                         "old": fmt_number(r["old_faults"]), "new": fmt_number(r["new_faults"]),
                         "change": _ratio_text(r["old_faults"], r["new_faults"]),
                         "verdict": "no test (first-touched memory)"})
    return pd.DataFrame(rows)



def _ratio_text(old: float, new: float) -> str:
    if math.isnan(old) or math.isnan(new):
        return "—"
    if old == new:
        return "~"
    if new == 0:
        return "→ 0"
    if old == 0:
        return "from 0"
    r = old / new
    return f"{r:.1f}× less" if r >= 1 else f"{1 / r:.1f}× more"



def compact_table(pairs: pd.DataFrame, claims: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per benchmark x params (x variant): time new/old with CI and verdict, heap and
    native B/op old -> new (native only where measured and allocated), claims reproduced."""
    # One row per benchmark x params: floor and upstream have tables of their own.
    pairs = written(pairs)
    many = pairs["candidate"].nunique() > 1
    modes = pairs["mode"].nunique() > 1
    native = native_columns(pairs)
    heap = _byte_scale(pairs, "alloc")
    rows = []
    for _, r in pairs.iterrows():
        ratio, lo, hi = time_per_op(r)
        row = {"benchmark": label(r)}
        if many:
            row["variant"] = r["candidate"]
        if modes:
            row["mode"] = r["mode"]
        row["time/op new/old"] = "—" if math.isnan(ratio) else f"{ratio:.3f}"
        row["95% CI"] = "—" if math.isnan(lo) else f"{lo:.3f}–{hi:.3f}"
        # An undecided row's sentence is long: it goes under the table (undecided_notes).
        row["verdict"] = (verdict_word(r) if r["verdict"] != "same"
                          else f"same (±{r['threshold']:.0%})")
        row["forks per side"] = fmt_stopped(r)
        row[f"heap {heap.unit} old → new"] = (f"{fmt_bytes(r['old_alloc'], heap)} → "
                                              f"{fmt_bytes(r['new_alloc'], heap)}")
        for stem in native:
            scale = _byte_scale(pairs, stem)
            row[f"{NATIVE_NAMES[stem]} {scale.unit} old → new"] = (
                f"{fmt_bytes(r[f'old_{stem}'], scale)} → {fmt_bytes(r[f'new_{stem}'], scale)}")
        if claims is not None and not claims.empty:
            row["claims"] = _claims_of(claims, r)
        rows.append(row)
    return pd.DataFrame(rows)


def undecided_notes(pairs: pd.DataFrame) -> list[str]:
    """What each undecided row of the compact table still allows, and the forks a decision
    would need: 'put(size=100): time/op between −1% and +9%: not decided at ±5%; …'."""
    pairs = written(pairs)
    many = pairs["candidate"].nunique() > 1
    notes, early, looks = [], 0, set()
    for _, r in pairs[pairs["verdict"] == "undecided"].iterrows():
        _, lo, hi = time_per_op(r)
        if math.isnan(lo) or math.isnan(hi):
            early += 1  # said once below, not row by row
            looks.add(first_look(r))
            continue
        name = label(r) + (f" [{r['candidate']}]" if many else "")
        notes.append(f"{name}: {undecided(r, lo, hi)}")
    if early:
        notes.append(f"{early} row{'s' if early > 1 else ''} with fewer than "
                     f"{'/'.join(map(str, sorted(looks)))} forks per side: no interval yet")
    return notes


def unsettled_note(pairs: pd.DataFrame, shown: int = 6) -> str:
    """The compact table's rows that rest on forks that never settled, said once under it:
    'Forks that never settled, each counted by its second half: put(size=100): 2 of 3 of old.'"""
    named = []
    for _, r in written(pairs).iterrows():
        sides = [f"{n} of {len(r.get(f'{stem}_steady') or [])} of {side}"
                 for side, stem in ((r["baseline"], "old"), (r["candidate"], "new"))
                 if (n := int(r.get(f"unsettled_{stem}") or 0))]
        if sides:
            named.append(f"{label(r)}: {' and '.join(sides)}")
    if not named:
        return ""
    more = f"; and {len(named) - shown} more rows" if len(named) > shown else ""
    return ("Forks that never settled, each counted by its second half: "
            + "; ".join(named[:shown]) + more + ".")


def _claims_of(claims: pd.DataFrame, r: pd.Series) -> str:
    mine = claims[(claims["benchmark"] == r["benchmark"]) & (claims["params"] == r["params"])
                  & (claims["variant"] == r["candidate"])]
    comparable = mine[mine["verdict"] != "not comparable"]
    if mine.empty:
        return ""
    if comparable.empty:
        return f"{len(mine)} not comparable"
    return f"{int((comparable['verdict'] == 'reproduced').sum())} of {len(comparable)} reproduced"


def _above(value: float, floor: float) -> str:
    """A variant against the floor: its B/op and '×3.2' of a non-zero floor; against a zero
    floor every byte is above it."""
    if math.isnan(value) or math.isnan(floor):
        return "—"
    if floor > 0:
        return f"{fmt_bytes(value)} (×{value / floor:.1f})"
    return "0 (at the floor)" if value < 0.5 else fmt_bytes(value)


def left_on_the_table(pairs: pd.DataFrame, floors: pd.DataFrame,
                      variants: tuple[str, ...] = ("optimized", "floor")) -> pd.DataFrame:
    """Per benchmark x params: old, the write-up's variant and the floor variant against the
    least the operation must allocate (heap and native), as multiples of that floor."""
    rows = []
    for (benchmark, params), group in pairs.groupby(["benchmark", "params"], sort=False):
        f = floor_of(floors, benchmark, params)
        if f is None:
            continue
        by = {r["candidate"]: r for _, r in group.iterrows()}
        first = group.iloc[0]
        row = {"benchmark": label(first), "heap floor B/op": fmt_bytes(f["heap_floor"]),
               "old heap": _above(first["old_alloc"], f["heap_floor"])}
        for v in variants:
            row[f"{v} heap"] = _above(by[v]["new_alloc"], f["heap_floor"]) if v in by else "—"
        if "old_native" in first and not math.isnan(first["old_native"]):
            row["native floor B/op"] = fmt_bytes(f["native_floor"])
            row["old native"] = _above(first["old_native"], f["native_floor"])
            for v in variants:
                row[f"{v} native"] = _above(by[v]["new_native"], f["native_floor"]) if v in by else "—"
        rows.append(row)
    return pd.DataFrame(rows)


def _param_value(params: str, name: str) -> str:
    return params_of(params).get(name, "")


def _facts(facts: dict) -> str:
    """What a peak measurement recorded of its payload: input bytes -> output bytes."""
    if "marshalledBytes" in facts and "zippedBytes" in facts:
        return f"{fmt_bytes(facts['marshalledBytes'])} → {fmt_bytes(facts['zippedBytes'])} B"
    return ", ".join(f"{k} {fmt_bytes(v)}" for k, v in facts.items())


def _peak_of(peaks: pd.DataFrame | None, params: str, variant: str) -> pd.Series | None:
    if peaks is None or peaks.empty:
        return None
    rows = peaks[(peaks["params"] == params) & (peaks["variant"] == variant)]
    return rows.iloc[0] if len(rows) else None


def variants_table(pairs: pd.DataFrame, param: str, peaks: pd.DataFrame | None = None,
                   measures: tuple[str, ...] = ("time", "heap")) -> pd.DataFrame:
    """The write-ups' own shape, one row per value of a @Param: each variant's time, its heap
    B/op (with the change against old) and, where measured, its peak live heap per call.
    ``measures`` picks the time columns, the heap ones (B/op and peak) or both: five variants
    of both are 17 columns, more than a page is wide."""
    rows = []
    time, heap = _score_scale(pairs), _byte_scale(pairs, "alloc")
    for params, group in pairs.groupby("params", sort=False):
        by = {r["candidate"]: r for _, r in group.iterrows()}
        first = group.iloc[0]
        baseline = first["baseline"]
        row = {param: _param_value(params, param)}
        old_peak = _peak_of(peaks, params, baseline)
        if old_peak is not None and old_peak["facts"]:
            row["input → output"] = _facts(old_peak["facts"])
        if "time" in measures:
            row[f"{baseline} {time.unit}"] = fmt_score(first["old_score"], first["old_error"], time)
            for v, r in by.items():
                row[f"{v} {time.unit}"] = fmt_score(r["new_score"], r["new_error"], time)
        if "heap" in measures:
            row[f"{baseline} {heap.unit}"] = fmt_bytes(first["old_alloc"], heap)
            for v, r in by.items():
                change = (r["new_alloc"] / r["old_alloc"] - 1) * 100 if r["old_alloc"] else math.nan
                row[f"{v} {heap.unit}"] = f"{fmt_bytes(r['new_alloc'], heap)} ({fmt_pct(change)})"
        if "heap" in measures and peaks is not None and not peaks.empty:
            for v in [baseline, *by]:
                pk = _peak_of(peaks, params, v)
                row[f"{v} peak"] = "—" if pk is None else fmt_peak(pk["peak_bytes"], pk["resolution_bytes"])
        rows.append(row)
    return pd.DataFrame(rows)


def peak_table(peaks: pd.DataFrame, param: str) -> pd.DataFrame:
    """Peak live heap per call (hotpath.peak) with its resolution and, where it is a figure
    rather than a bound, as a multiple of the input size."""
    size = peaks["facts"].map(lambda f: f.get("marshalledBytes", math.nan))
    return pd.DataFrame({
        param: peaks["params"].map(lambda p: _param_value(p, param)),
        "variant": peaks["variant"],
        "peak live heap": [fmt_peak(p, r) for p, r in zip(peaks["peak_bytes"], peaks["resolution_bytes"])],
        "± resolution": peaks["resolution_bytes"].map(lambda b: f"{b / 1024:,.0f} KB"),
        # A bound is not a figure: no ratio for a peak the search could not resolve.
        "peak / N": [fmt_number(p / n) if n and p > r else "—"
                     for p, r, n in zip(peaks["peak_bytes"], peaks["resolution_bytes"], size)],
        "output": peaks["facts"].map(lambda f: fmt_bytes(f.get("zippedBytes", math.nan)) + " B"),
    })


def sizes_of(peaks: pd.DataFrame, param: str) -> dict[str, float]:
    """@Param value -> the payload's input bytes, as the peak measurement recorded them."""
    return {_param_value(p, param): f.get("marshalledBytes", math.nan)
            for p, f in zip(peaks["params"], peaks["facts"])}


def _with_unit(value: float, unit: str) -> str:
    """A figure with its unit, a time or throughput in the unit a reader writes."""
    if value is None or math.isnan(value):
        return "—"
    if unit in ("B/op", "B"):
        return f"{fmt_bytes(value)} {unit}"
    scale = score_scale(unit, [value])
    return f"{fmt_number(scale(value))} {scale.unit}".strip()


def claims_table(checked: pd.DataFrame) -> pd.DataFrame:
    """claims.check's figures as a reader sees them: the write-up's, ours, verdict and why."""
    rows = []
    for _, c in checked.iterrows():
        ours = "—"
        if not math.isnan(c["ours_old"]) or not math.isnan(c["ours_new"]):
            change = ((c["ours_new"] / c["ours_old"] - 1) * 100 if c["ours_old"]
                      and not math.isnan(c["ours_old"]) else math.nan)
            ours = (f"{_with_unit(c['ours_old'], c['ours_unit'])} → "
                    f"{_with_unit(c['ours_new'], c['ours_unit'])} ({fmt_pct(change)})")
        rows.append({"claim": c["claim"],
                     "write-up": f"{_with_unit(c['claimed_old'], c['claimed_unit'])} → "
                                 f"{_with_unit(c['claimed_new'], c['claimed_unit'])} "
                                 f"({c['claimed_change']})",
                     "ours": ours, "verdict": c["verdict"], "why": c["why"]})
    return pd.DataFrame(rows, columns=["claim", "write-up", "ours", "verdict", "why"])


def _matches(model: float, upstream: float, same: bool | None) -> str:
    if same is None:
        return "—"
    delta = upstream - model
    sign = "+" if delta > 0 else ""
    return f"{'yes' if same else 'no'} ({sign}{fmt_bytes(delta)} B)"


def fidelity_table(pairs: pd.DataFrame) -> pd.DataFrame:
    """The released upstream code beside our old model, row by row: heap (and native) B/op,
    whether they match within 2% or 16 B, and time per op upstream/model with its CI
    (analyze.fidelity's verdicts)."""
    within = f"within {fidelity.SAME_SHARE:.0%} or {fidelity.SAME_BYTES:g} B"
    rows = []
    for r, f in fidelity.verdicts(pairs):
        row = {"benchmark": label(r),
               "heap B/op model → upstream": f"{fmt_bytes(r['old_alloc'])} → {fmt_bytes(r['new_alloc'])}",
               f"heap {within}": _matches(r["old_alloc"], r["new_alloc"], f.heap)}
        if not math.isnan(r.get("old_native", math.nan)):
            row["native B/op model → upstream"] = f"{fmt_bytes(r['old_native'])} → {fmt_bytes(r['new_native'])}"
            row[f"native {within}"] = _matches(r["old_native"], r["new_native"], f.native)
        row["time/op upstream/model"] = "—" if math.isnan(f.ratio) else f"{f.ratio:.3f}"
        row["95% CI"] = "—" if math.isnan(f.low) else f"{f.low:.3f}–{f.high:.3f}"
        row[f"time within {fidelity.SAME_TIME:.0%}"] = f.time or "—"
        row["output"] = "identical (every setup checks it)"
        rows.append(row)
    return pd.DataFrame(rows)


def plain_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Every benchmark row of a results frame as measured, for files with nothing to pair."""
    rows = []
    for (benchmark, params, variant, mode), group in frame.groupby(
            ["benchmark", "params", "variant", "mode"], sort=False):
        primary = group[group["metric"] == "score"].iloc[0]
        alloc = group[group["metric"] == ALLOC]
        profiled = group["metric"].str.startswith("gc.").any()
        scale = score_scale(primary["unit"], [primary["score"]])
        rows.append({
            "benchmark": MethodName.of(benchmark).method + (f"({params})" if params else ""),
            "variant": variant, "mode": mode,
            "score": fmt_score(primary["score"], primary["error"], scale),
            "unit": scale.unit,
            "B/op": fmt_bytes(alloc.iloc[0]["score"]) if not alloc.empty
            else ("0" if profiled else "—"),
        })
    table = pd.DataFrame(rows)
    return table if table["variant"].any() else table.drop(columns="variant")


def precision_table(rows: pd.DataFrame) -> pd.DataFrame:
    """analyze.compare.precision's rows as shown: how tight each time row is, and the forks
    it would need for ±3%."""
    return pd.DataFrame({
        "benchmark": [MethodName.of(b).stem + (f"({p})" if p else "")
                      for b, p in zip(rows["benchmark"], rows["params"])],
        "variant": rows["variant"], "forks": rows["forks"],
        "fork CV": rows["fork_cv"].map(lambda x: f"{x:.1%}"),
        "95% CI ±": rows["halfwidth"].map(lambda x: f"{x:.1%}"),
        "forks for ±3%": rows["forks_needed"],
    })


def file_table(path, baseline: str = "old", param: str | None = None,
               gc: bool = False) -> tuple[pd.DataFrame, list[str]]:
    """Any JMH JSON file as a table: its pairs, or every row as measured where nothing pairs;
    and the rows left unpaired where some pair, each with why."""
    from ..analyze import compare, load

    frame = load.read_results(path).frame
    frame = compare.by_param(frame, param) if param else frame
    comparison = compare.pair(frame, baseline=baseline, label=param or load.VARIANT)
    if comparison.pairs.empty:
        return plain_table(frame), []
    return wide_table(comparison.pairs, gc=gc), [
        f"unpaired: {u['benchmark']}({u['params']}) [{u['mode']}]"
        + (f" {u['variant']}" if u["variant"] else "") + f": {u['reason']}"
        for _, u in comparison.unpaired.iterrows()]


def as_text(table: pd.DataFrame, form: str) -> str:
    """A table in one of the forms a terminal prints: 'jira', 'md' or plain 'text'."""
    if form == "jira":
        return to_jira(table)
    return to_markdown(table) if form == "md" else table.to_string(index=False) + "\n"
