"""'Where the bytes went': a report's rows by allocation site, old against new, and the two
differential flame graphs of each row (hotpath.render.flamegraphs: inside the report).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd

from . import flamegraphs, fmt
from ..analyze import sites as S
from ..jmh import MethodName
from ..paths import JAR

#: Sites shown per row: the ones that moved, then the biggest that stayed; the rest summed.
SHOWN_MOVED = 8
SHOWN_STAYED = 3
#: The flame graphs' kind: their anchors in a report, their folder in the lab's.
FOLDER = "sites"
#: The line of a row's table that shows, apart, what JMH allocated inside the measured loop:
#: not the code's, but counted by -prof gc's B/op beside the sum.
HARNESS = "JMH's harness, not the code (Blackhole, its stub): apart from the sum"


def _count(allocs: float) -> str:
    if abs(allocs - round(allocs)) < 0.005:
        return f"{round(allocs):,}"
    return f"{allocs:,.2f}"


def cell(allocs: float, size_bytes: float) -> str:
    """'2 × 1,040 B': allocations per op times their mean size; '—' for none."""
    if allocs < 0.005 and size_bytes < 0.5:
        return "—"
    mean = size_bytes / allocs if allocs else math.nan
    return f"{_count(allocs)} × {fmt.fmt_bytes(mean)} B" if not math.isnan(mean) else f"{fmt.fmt_bytes(size_bytes)} B"


def change(delta: float, moved: bool) -> str:
    if not moved:
        return "~"
    return f"{'+' if delta > 0 else '−'}{fmt.fmt_bytes(abs(delta))}"


def slug(pair: pd.Series) -> str:
    text = f"{pair['method']}-{pair['params']}-{pair['candidate']}"
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


def row_name(pair: pd.Series) -> str:
    """A row as the per-row tables name it on its first line: its label, and its variant where
    that is not the write-up's."""
    return f"{fmt.label(pair)} {pair['candidate']}" if pair["candidate"] != "optimized" else fmt.label(pair)


def table(rows: tuple[S.RecordedRow, ...], links: dict[str, tuple[str, str]] | None = None
          ) -> pd.DataFrame:
    """One line per site of each recorded row: the row on its first line (and its flame graphs),
    the site, old's and new's allocations per op × mean size, and the change in B/op; a row's
    last line sums its sites, beside -prof gc's figure."""
    out = []
    for r in rows:
        p, d, harness = r.pair, r.sites, r.harness
        moved, stayed = d[d["moved"]], d[~d["moved"]]
        shown = pd.concat([moved.head(SHOWN_MOVED), stayed.head(SHOWN_STAYED)])
        rest = d.drop(shown.index)
        lines = [(r["site"], cell(r["old_allocs"], r["old_bytes"]), cell(r["new_allocs"], r["new_bytes"]),
                  change(r["delta"], r["moved"])) for _, r in shown.iterrows()]
        if not rest.empty:
            lines.append((f"{len(rest)} more site(s), each under {fmt.fmt_bytes(S.MOVED_BYTES)} B/op "
                          f"of change", f"{fmt.fmt_bytes(rest['old_bytes'].sum())} B",
                          f"{fmt.fmt_bytes(rest['new_bytes'].sum())} B",
                          change(rest["delta"].sum(), abs(rest["delta"].sum()) >= S.MOVED_BYTES)))
        if any(harness):
            lines.append((HARNESS, _harness_bytes(harness[0]), _harness_bytes(harness[1]), "apart"))
        old_sum, new_sum = d["old_bytes"].sum(), d["new_bytes"].sum()
        lines.append(("all sites (-prof gc's B/op)" if not d.empty else
                      "no heap allocation on either side by the code (-prof gc's B/op)",
                      f"{fmt.fmt_bytes(old_sum)} B ({_gc(p['old_alloc'])})",
                      f"{fmt.fmt_bytes(new_sum)} B ({_gc(p['new_alloc'])})",
                      change(new_sum - old_sum, abs(new_sum - old_sum) >= S.MOVED_BYTES)))
        name = row_name(p)
        graphs = (links or {}).get(slug(p))
        for i, (site, old, new, delta) in enumerate(lines):
            out.append({"row": name if i == 0 else "", "site": site, "old": old, "new": new,
                        "Δ B/op": delta,
                        "flame graphs": (f"[dropped]({graphs[0]}) · [added]({graphs[1]})"
                                         if i == 0 and graphs else "")})
    return pd.DataFrame(out, columns=["row", "site", "old", "new", "Δ B/op", "flame graphs"])


def _harness_bytes(value: float) -> str:
    """The harness's B/op, a fraction of a byte as often as not: '0.48 B', '—' for none."""
    if not value:
        return "—"
    if value < 0.01:
        return f"{value:.2g} B"
    return f"{value:,.2f} B" if value < 10 else f"{fmt.fmt_bytes(value)} B"


def _gc(value) -> str:
    return "—" if value is None or pd.isna(value) else f"{fmt.fmt_bytes(value)}"


def reconcile_note(pairs: pd.DataFrame, sites: S.Sites) -> str:
    """How the sites' sums stand against -prof gc's B/op, and the row-sides that do not agree."""
    rec = S.reconcile(sites, pairs)
    rec = rec[rec["within"].notna()]
    if rec.empty:
        return ""
    ok = int(rec["within"].sum())
    text = (f"Each side's sites sum to its `-prof gc` heap B/op within {S.RECONCILE:.0%} "
            f"(or {fmt.fmt_bytes(S.MOVED_BYTES)} B) on {ok} of {len(rec)} row-sides.")
    harness = rec[rec["harness_bytes"] > 0]
    if not harness.empty:
        text += (f" On {len(harness)} of them JMH's harness allocated inside the measured loop too "
                 f"(at most {harness['harness_bytes'].max():,.2f} B/op): a few objects an "
                 "iteration, which `-prof gc` counts with the code's, shown apart and added back "
                 "here.")
    early = S.unsettled(sites).merge(rec[["benchmark", "params", "variant", "method"]],
                                     on=["benchmark", "params", "variant"])
    if not early.empty:
        text += (" Recorded before C2 had compiled the benchmark (the host was loaded; their "
                 "counts may hold objects its escape analysis removes): " + "; ".join(
                     f"{m}({pr}) {v}" for m, pr, v in zip(early["method"], early["params"], early["variant"]))
                 + ".")
    off = rec[~rec["within"].astype(bool)]
    if not off.empty:
        text += (" Not on: " + "; ".join(
            f"{m}({pr}) {v}: sites {fmt.fmt_bytes(sb)} B against {fmt.fmt_bytes(gb)} B"
            for m, pr, v, sb, gb in zip(off["method"], off["params"], off["variant"],
                                        off["sites_bytes"], off["gc_bytes"]))
            + ". The sites come from one fork's recorded iteration and the timed forks' figure "
              "from their steady state: where a JIT's escape analysis scalar-replaces an "
              "allocation in some forks and not in others, the two differ by that allocation.")
    return text


def graphs(rows: tuple[S.RecordedRow, ...], sites: S.Sites) -> list[flamegraphs.Row]:
    """Each recorded row's two differential flame graphs to draw: 'dropped' in old's shape
    (what new no longer allocates shows as a decrease), 'added' in new's."""
    out = []
    for p in (r.pair for r in rows):
        both = (p["baseline"], p["candidate"])
        old, new = (S.collapsed(sites, p["benchmark"], p["params"], v, variants=both) for v in both)
        row = fmt.label(p)
        out.append(flamegraphs.Row(
            slug(p), old, new,
            f"{row}: what {p['baseline']} allocates that {p['candidate']} dropped "
            f"(bytes per 100 ops, {p['baseline']}'s shape)",
            f"{row}: what {p['candidate']} allocates beyond {p['baseline']} "
            f"(bytes per 100 ops, {p['candidate']}'s shape)"))
    return out


def draw(rows: tuple[S.RecordedRow, ...], sites: S.Sites, jar: Path = JAR,
         java: str = "java") -> tuple[flamegraphs.Pages, str]:
    """Both differential flame graphs of every recorded row, as pages by row; where none could
    be drawn, why in one line."""
    return flamegraphs.draw(graphs(rows, sites), jar, java)


def named_row(lines: pd.DataFrame, row: str, results: str | Path, variants: tuple[str, str],
              held: str) -> tuple[str, str, str]:
    """The benchmark, method and params of ``row`` as the reports name it (``encode(payload=STR_1K)``,
    the method alone for a row without params, or ``EncoderPayload.encode(payload=STR_1K)`` where
    two benchmark classes have the method) among ``lines`` (benchmark, params and variant each),
    with both ``variants`` there; else an error that lists the rows, the variants ``held``
    (recorded, sampled) there are, or the classes to name where more than one holds both."""
    from ..errors import HotpathError

    name, _, params = row.partition("(")
    params = params[:-1] if params.endswith(")") else params
    stem, _, method = name.rpartition(".")
    names = lines["benchmark"].map(MethodName.of)
    hit = lines[(names.map(lambda n: n.method) == method) & (lines["params"] == params)
                & names.map(lambda n: not stem or stem in (n.stem, n.class_name))]
    if hit.empty:
        known = sorted({f"{n.method}({p})" if p else n.method for n, p in zip(names, lines["params"])})
        raise HotpathError(f"no row {row!r} in {results}; rows: {', '.join(known)}")
    # a method two benchmark classes share: the class whose row holds both variants
    holding = [b for b, group in hit.groupby("benchmark") if set(variants) <= set(group["variant"])]
    if len(holding) > 1:
        rows = ", ".join(f"{MethodName.of(b).stem}.{method}" + (f"({params})" if params else "")
                         for b in holding)
        raise HotpathError(f"{row}: {len(holding)} benchmark classes hold it with {' and '.join(variants)}: "
                           f"name one ({rows})")
    if not holding:
        there = set(hit["variant"])
        missing = [v for v in variants if v not in there]
        if missing:
            raise HotpathError(f"{row}: no variant {', '.join(missing)}; {held}: {', '.join(sorted(there))}")
        raise HotpathError(f"{row}: no one benchmark class holds both {' and '.join(variants)}; {held}: "
                           + "; ".join(f"{MethodName.of(b).stem}: {', '.join(sorted(g['variant']))}"
                                       for b, g in hit.groupby("benchmark")))
    return holding[0], method, params


def explore(results: str | Path, row: str, old: str = "old", new: str = "optimized",
            out_dir: str | Path | None = None, graphs: bool = True) -> pd.DataFrame:
    """One row's sites for any two variants, in the lab: ``row`` as the reports name it
    (``encode(payload=STR_1K)``, or the method alone for a row without params). Returns the
    table; in a notebook, shows both differential flame graphs below it, inline and offline."""
    from ..errors import HotpathError
    from ..paths import REPORTS

    found = S.read(results)
    if not found.measured:
        raise HotpathError(f"{results}: no allocation sites beside it: `make sites` records them")
    benchmark, method, params = named_row(found.recorded, row, results, (old, new), "recorded")
    d = S.diff(found, benchmark, params, old, new)
    table = pd.DataFrame({"site": d["site"], old: [cell(a, b) for a, b in zip(d["old_allocs"], d["old_bytes"])],
                          new: [cell(a, b) for a, b in zip(d["new_allocs"], d["new_bytes"])],
                          "Δ B/op": [change(x, m) for x, m in zip(d["delta"], d["moved"])]})
    if graphs:
        pair = pd.Series({"benchmark": benchmark, "method": method, "params": params,
                          "baseline": old, "candidate": new, "old_alloc": None, "new_alloc": None})
        folder = Path(out_dir) if out_dir else REPORTS / "lab"
        pages, why = draw(S.recorded_rows(pd.DataFrame([pair]), found), found)
        written = flamegraphs.written(folder, FOLDER, pages)
        flamegraphs.show(pages, why, {k: (str(folder / a), str(folder / b)) for k, (a, b) in written.items()})
    return table


def fidelity_table(pairs: pd.DataFrame, sites: S.Sites, release: str = S.RELEASE) -> pd.DataFrame:
    """Per row with the released code: how its sites pair with our model's (site for site, by
    type and size, as totals of a type, nothing to pair, or differ) and what each pairing
    looser than a site for a site took; how many of the model's sites the release has too
    (the same type or a declared one, as often, as large); and the sites each has alone."""
    def alone(frame: pd.DataFrame, side: str) -> str:
        listed = [f"{r[side]} ({cell(r[f'{side}_allocs'], r[f'{side}_bytes'])})"
                  for _, r in frame.iterrows()]
        more = f"; {len(listed) - 3} more" if len(listed) > 3 else ""
        return "; ".join(listed[:3]) + more if listed else "none"

    out = []
    for p in S.rows_recorded(pairs[pairs["candidate"] == release], sites):
        f = S.fidelity(sites, p["benchmark"], p["params"], p["baseline"], release)
        mine = f[f["model"] != ""]
        same = mine[mine["same"].astype(bool)]
        count = lambda frame: sum(len(m) for m in frame["model_sites"])  # noqa: E731
        out.append({"row": fmt.label(p), "paired": how_paired(f),
                    "the model's sites in the release": (
                        f"{count(same)} of {count(mine)} ({fmt.fmt_bytes(same['model_bytes'].sum())} "
                        f"of {fmt.fmt_bytes(mine['model_bytes'].sum())} B/op)" if not f.empty
                        else "none on either side"),
                    "the model's alone": alone(mine[~mine["same"].astype(bool)], "model"),
                    "the release's alone": alone(f[(f["model"] == "") & (f["release"] != "")], "release")})
    return pd.DataFrame(out, columns=["row", "paired", "the model's sites in the release",
                                      "the model's alone", "the release's alone"])


def how_paired(f: pd.DataFrame) -> str:
    """A row's pairing in words: its class (S.paired), what each pairing looser than one site
    against one site took, and the declared types it relied on."""
    kind = S.paired(f)
    if kind == "nothing to pair":
        return "nothing to pair: no heap allocation on either side"
    loose, declared = [], []
    for r in f[f["same"].astype(bool)].itertuples():
        mtype = r.model_sites[0].rsplit(": ", 1)[-1]
        rtype = r.release_sites[0].rsplit(": ", 1)[-1]
        if rtype != mtype and f"{mtype} = {rtype}" not in declared:
            declared.append(f"{mtype} = {rtype}")
        if r.how in ("size", "totals"):
            n = len(r.model_sites)
            loose.append(f"{mtype}: the model's {n} site{'' if n == 1 else 's'} against the "
                         f"release's {len(r.release_sites)}")
    said = loose + ([f"declared: {', '.join(declared)}"] if declared else [])
    return kind + (f" ({'; '.join(said)})" if said else "")
