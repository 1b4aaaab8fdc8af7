"""'Where the bytes went': a report's rows by allocation site, old against new, and the two
differential flame graphs of each row (async-profiler's converter, offline HTML beside the report).
"""

from __future__ import annotations

import math
import re
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

from . import fmt
from ..analyze import sites as S
from ..paths import JAR

#: Sites shown per row: the ones that moved, then the biggest that stayed; the rest summed.
SHOWN_MOVED = 8
SHOWN_STAYED = 3
#: Where the flame graphs go, under the report's folder.
FOLDER = "sites"
CONVERTER = "hotpath.profiler.DiffFlameGraphs"


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


def rows_of(pairs: pd.DataFrame, sites: S.Sites) -> list[pd.Series]:
    """The report's rows whose two sides the site pass recorded."""
    return [p for _, p in pairs.iterrows()
            if S.has_side(sites, p["benchmark"], p["params"], p["baseline"])
            and S.has_side(sites, p["benchmark"], p["params"], p["candidate"])]


def table(pairs: pd.DataFrame, sites: S.Sites, links: dict[str, tuple[str, str]] | None = None
          ) -> pd.DataFrame:
    """One line per site of each row: the row on its first line (and its flame graphs), the
    site, old's and new's allocations per op × mean size, and the change in B/op; a row's last
    line sums its sites, beside -prof gc's figure."""
    out = []
    for p in rows_of(pairs, sites):
        d = S.diff(sites, p["benchmark"], p["params"], p["baseline"], p["candidate"])
        moved, stayed = d[d["moved"]], d[~d["moved"]]
        shown = pd.concat([moved.head(SHOWN_MOVED), stayed.head(SHOWN_STAYED)])
        rest = d.drop(shown.index)
        name = f"{fmt.label(p)} {p['candidate']}" if p["candidate"] != "optimized" else fmt.label(p)
        graphs = (links or {}).get(slug(p))
        first = True
        for _, r in shown.iterrows():
            out.append({"row": name if first else "", "site": r["site"],
                        "old": cell(r["old_allocs"], r["old_bytes"]),
                        "new": cell(r["new_allocs"], r["new_bytes"]),
                        "Δ B/op": change(r["delta"], r["moved"]),
                        "flame graphs": (f"[dropped]({graphs[0]}) · [added]({graphs[1]})"
                                         if first and graphs else "")})
            first = False
        if not rest.empty:
            out.append({"row": "", "site": f"{len(rest)} more site(s), each under {fmt.fmt_bytes(S.MOVED_BYTES)} B/op of change",
                        "old": f"{fmt.fmt_bytes(rest['old_bytes'].sum())} B",
                        "new": f"{fmt.fmt_bytes(rest['new_bytes'].sum())} B",
                        "Δ B/op": change(rest["delta"].sum(), abs(rest["delta"].sum()) >= S.MOVED_BYTES),
                        "flame graphs": ""})
        old_sum = d["old_bytes"].sum()
        new_sum = d["new_bytes"].sum()
        out.append({"row": "", "site": "all sites (`-prof gc`'s B/op)",
                    "old": f"{fmt.fmt_bytes(old_sum)} B ({_gc(p['old_alloc'])})",
                    "new": f"{fmt.fmt_bytes(new_sum)} B ({_gc(p['new_alloc'])})",
                    "Δ B/op": change(new_sum - old_sum, abs(new_sum - old_sum) >= S.MOVED_BYTES),
                    "flame graphs": ""})
    return pd.DataFrame(out, columns=["row", "site", "old", "new", "Δ B/op", "flame graphs"])


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


def draw(pairs: pd.DataFrame, sites: S.Sites, out_dir: Path, jar: Path = JAR,
         java: str = "java") -> tuple[dict[str, tuple[str, str]], str]:
    """Both differential flame graphs of every row into ``out_dir/sites/``: 'dropped' in old's
    shape (what new no longer allocates shows as a decrease), 'added' in new's. Returns the
    links by row and, where none could be drawn, why in one line."""
    rows = rows_of(pairs, sites)
    if not rows:
        return {}, ""
    if not jar.is_file():
        return {}, f"the flame graphs need {jar.name} (the converter is in it): `make build`"
    folder = Path(out_dir) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    links: dict[str, tuple[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="hotpath-sites-") as tmp:
        jobs = []
        for p in rows:
            name = slug(p)
            old = Path(tmp) / f"{name}.old.collapsed"
            new = Path(tmp) / f"{name}.new.collapsed"
            both = (p["baseline"], p["candidate"])
            for file, variant in ((old, p["baseline"]), (new, p["candidate"])):
                file.write_text(S.collapsed(sites, p["benchmark"], p["params"], variant,
                                            variants=both) or "none 0\n")
            row = f"{fmt.label(p)}"
            dropped, added = folder / f"{name}.dropped.html", folder / f"{name}.added.html"
            jobs.append(f"{new}\t{old}\t{dropped}\t{row}: what {p['baseline']} allocates that "
                        f"{p['candidate']} dropped (bytes per 100 ops, {p['baseline']}'s shape)")
            jobs.append(f"{old}\t{new}\t{added}\t{row}: what {p['candidate']} allocates beyond "
                        f"{p['baseline']} (bytes per 100 ops, {p['candidate']}'s shape)")
            links[name] = (f"{FOLDER}/{dropped.name}", f"{FOLDER}/{added.name}")
        listing = Path(tmp) / "jobs.tsv"
        listing.write_text("\n".join(jobs) + "\n", encoding="utf-8")
        done = subprocess.run([java, "-cp", str(jar), CONVERTER, str(listing)],
                              capture_output=True, text=True)
        if done.returncode:
            why = (done.stderr.strip().splitlines() or ["no output"])[-1]
            return {}, f"the flame graphs could not be drawn: {why}"
    return links, ""
