"""Where the bytes went: a run's allocation sites (``<case>.sites.json``, the site pass's file)
named, per operation, and set old against new.

A *site* is where in the code under test an allocation was asked for: the innermost frame
outside the JDK and JMH (``ByteArrayList.ensure``), the JDK frames it went through to the one
that allocated (``Arrays.copyOf``), and the allocated type: ``ByteArrayList.ensure →
Arrays.copyOf: byte[]``. Stacks that differ only below that frame are one site. Counts are exact
(every allocation of the recorded iteration) and divided by its operations; a stack that
allocates several sizes shows their mean.

What JMH's harness allocates inside the measured loop is kept apart from the code's sites: a
stack that runs through a JMH frame or allocates in the generated stub itself
(``records.is_harness``). Where an iteration runs few operations (a slow row, a loaded
host), the Blackhole's consuming path or the stub allocates a few objects in it (two ``byte[]``
and two ``String`` objects in the reference's slow rows), whatever the iteration's length: per operation they weigh the more the fewer
operations a loaded host ran (0.72 B/op at 200). ``-prof gc`` counts them with the code's, so
the reconciliation adds them back; a row whose code allocates nothing reads so, whatever the
harness did.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable
from typing import Any
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import ResultsError
from ..jmh import MethodName, params_text, side_of
from ..paths import sites_of
from ..records import SITES_FORMAT, is_harness
from .fidelity import same_bytes

#: Frames of the JDK and of JMH's harness: a site is named by the code that called into them.
LIBRARY = ("java/", "javax/", "jdk/", "sun/", "com/sun/", "org/openjdk/jmh/")
#: A site's B/op moved when it moved by this much: the heap's 8-byte alignment, as for B/op.
MOVED_BYTES = 8.0
#: A row-side's sites reconcile with -prof gc's B/op when they sum within this share of it (or
#: within MOVED_BYTES of it, for the rows that allocate next to nothing).
RECONCILE = 0.05

COLUMNS = ["benchmark", "params", "variant", "site", "type", "allocations", "bytes", "ops",
           "allocs_per_op", "bytes_per_op"]


@dataclass(frozen=True)
class Sites:
    """A run's sites: one row per row-side and site, and the raw stacks for flame graphs."""

    source: Path | None
    frame: pd.DataFrame
    stacks: pd.DataFrame
    #: What the reader must know of how they were recorded (a run's jars built again since).
    caveat: str = ""
    #: Every row-side recorded, with its operations: a side that allocated nothing has no site.
    recorded: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=["benchmark", "params", "variant", "ops", "settled",
                                             "iterations"]))
    #: JMH's own allocations inside the measured loop, per row-side, in ``frame``'s columns.
    harness: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=COLUMNS))

    @property
    def measured(self) -> bool:
        return not self.recorded.empty


EMPTY = Sites(None, pd.DataFrame(columns=COLUMNS),
              pd.DataFrame(columns=["benchmark", "params", "variant", "ops", "stack", "allocations",
                                    "bytes"]))


def _library(frame: str) -> bool:
    return frame.startswith(LIBRARY) or "/jmh_generated/" in frame




@functools.lru_cache(maxsize=1 << 16)
def short(frame: str) -> str:
    """``hotpath/encoder/ByteArrayList.ensure`` as ``ByteArrayList.ensure``; a lambda's or hidden
    class's generated suffix dropped, so that runs name it alike."""
    return MethodName.of(_generated(frame).replace("/", ".")).short


def allocated_type(frame: str) -> str:
    """The stack's last frame, ``byte[]_[i]`` or ``java.nio.HeapByteBuffer_[k]``, as a type."""
    frame = _generated(re.sub(r"_\[[a-z0-9]\]$", "", frame))
    return frame.rsplit(".", 1)[-1]


def _generated(frame: str) -> str:
    """A lambda's or hidden class's name without what the JVM numbers anew in every run
    (``Pool$$Lambda$52.0x00007f6eb8023b50.get``, ``Pool$$Lambda$52/0x0000000800c0b440``)."""
    frame = re.sub(r"\$\$Lambda(\$\d+)?", "$$Lambda", frame)
    return re.sub(r"[./]0x[0-9a-f]+", "", frame)


def site_of(stack: str) -> tuple[str, str]:
    """(the site's name, the allocated type) of a stack, root first, its type last."""
    frames = stack.split(";")
    kind = allocated_type(frames[-1])
    calls = frames[:-1]
    own = max((i for i, f in enumerate(calls) if not _library(f)), default=-1)
    library = calls[own + 1:]
    parts = [short(calls[own])] if own >= 0 else ([] if library else ["JMH's stub"])
    if len(library) > 2:
        parts += [short(library[0]), "…", short(library[-1])]
    else:
        parts += [short(f) for f in library]
    return " → ".join(parts) + f": {kind}", kind


def read(results: str | Path) -> Sites:
    """The sites recorded beside a results file; EMPTY where none were."""
    path = sites_of(Path(results))
    if not path.is_file():
        return EMPTY
    return read_file(path)


def read_file(path: Path) -> Sites:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ResultsError(f"{path}: truncated or corrupt JSON ({e.msg})") from None
    if not isinstance(document, dict) or document.get("format") != SITES_FORMAT:
        raise ResultsError(f"{path}: not a file of allocation sites ({SITES_FORMAT!r})")
    raw, recorded = [], []
    for entry in document["entries"]:
        params, variant = side_of(entry)
        text = params_text(params)
        recorded.append({"benchmark": entry["benchmark"], "params": text, "variant": variant,
                         "ops": int(entry["ops"]), "settled": bool(entry.get("settled", True)),
                         "iterations": len(entry.get("iterations", [])) or 1})
        for count, size, stack in entry["stacks"]:
            raw.append({"benchmark": entry["benchmark"], "params": text, "variant": variant,
                        "ops": int(entry["ops"]), "stack": stack, "allocations": int(count),
                        "bytes": int(size)})
    every = pd.DataFrame(raw, columns=EMPTY.stacks.columns)
    harness = every["stack"].map(is_harness).astype(bool)
    stacks = every[~harness].reset_index(drop=True)
    return Sites(path, per_site(stacks), stacks, document.get("rebuilt", ""),
                 pd.DataFrame(recorded, columns=EMPTY.recorded.columns),
                 per_site(every[harness].reset_index(drop=True)))


def per_site(stacks: pd.DataFrame) -> pd.DataFrame:
    """Stacks summed into sites, per row-side, divided by the row-side's operations."""
    if stacks.empty:
        return pd.DataFrame(columns=COLUMNS)
    named = stacks.assign(**dict(zip(("site", "type"), zip(*stacks["stack"].map(site_of)))))
    keys = ["benchmark", "params", "variant", "site", "type", "ops"]
    out = named.groupby(keys, as_index=False, sort=True)[["allocations", "bytes"]].sum()
    out["allocs_per_op"] = out["allocations"] / out["ops"]
    out["bytes_per_op"] = out["bytes"] / out["ops"]
    return out[COLUMNS].reset_index(drop=True)


def side(sites: Sites, benchmark: str, params: str, variant: str) -> pd.DataFrame:
    """A row-side's sites in the code under test."""
    return _of(sites.frame, benchmark, params, variant)


def harness_side(sites: Sites, benchmark: str, params: str, variant: str) -> pd.DataFrame:
    """A row-side's allocations by JMH's harness inside the measured loop."""
    return _of(sites.harness, benchmark, params, variant)


def _of(f: pd.DataFrame, benchmark: str, params: str, variant: str) -> pd.DataFrame:
    rows = _row_sides(f).get((benchmark, params, variant))
    return f.iloc[rows] if rows is not None else f.iloc[:0]


#: The last frames' row-sides, by the frame's id (the frame kept beside them, so that its id is
#: never another's): a report asks a frame for its row-sides a thousand times.
_ROW_SIDES: dict[int, tuple[pd.DataFrame, dict]] = {}


def _row_sides(f: pd.DataFrame) -> dict:
    held = _ROW_SIDES.get(id(f))
    if held is None or held[0] is not f:
        if len(_ROW_SIDES) >= 8:
            _ROW_SIDES.pop(next(iter(_ROW_SIDES)))
        at: dict = {}
        for i, key in enumerate(zip(f["benchmark"], f["params"], f["variant"])):
            at.setdefault(key, []).append(i)
        held = _ROW_SIDES[id(f)] = (f, at)
    return held[1]


def has_side(sites: Sites, benchmark: str, params: str, variant: str) -> bool:
    r = sites.recorded
    return bool(((r["benchmark"] == benchmark) & (r["params"] == params) & (r["variant"] == variant)).any())


def unsettled(sites: Sites) -> pd.DataFrame:
    """The row-sides recorded before C2's code of the benchmark ran (a loaded host): their
    counts may hold objects that C2's escape analysis removes."""
    r = sites.recorded
    return r[~r["settled"].astype(bool)]


def common_name(name: str, variants: tuple[str, ...]) -> str:
    """A site's name with the variants' own class prefixes taken out (``OldMemcacheEncoder`` and
    ``OptimizedMemcacheEncoder`` are one place of the operation, each variant's model of it)."""
    return _common_name(name, tuple(variants))


@functools.lru_cache(maxsize=1 << 16)
def _common_name(name: str, variants: tuple[str, ...]) -> str:
    for v in variants:
        if v:
            name = re.sub(rf"(?<![A-Za-z0-9_$]){re.escape(v[:1].upper() + v[1:])}(?=[A-Z])", "", name)
    return name


def diff(sites: Sites, benchmark: str, params: str, old: str, new: str) -> pd.DataFrame:
    """A row's sites, old against new: allocations and B/op of each, the sites that moved first
    (the biggest change first), then those that stayed (the biggest first). A site each variant
    reaches through its own model class is one site, named without the variant's prefix. Where
    ``new`` is the released code (RELEASE), its sites and the model's are paired as fidelity()
    pairs them, so that an allocation under the release's own name reads as the same one."""
    variants = (old, new)
    rows, taken = (_as_the_release(sites, benchmark, params, old, new) if new == RELEASE
                   else ([], (set(), set())))
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    for merged, variant, paired_here in zip((a, b), variants, taken):
        s = side(sites, benchmark, params, variant)
        for site, kind, allocs, size in zip(s["site"], s["type"], s["allocs_per_op"], s["bytes_per_op"]):
            if site in paired_here:
                continue
            key = common_name(site, variants)
            if key in merged:
                merged[key]["allocs"] += allocs
                merged[key]["bytes"] += size
            else:
                merged[key] = {"site": site, "type": kind, "allocs": allocs, "bytes": size}
    none = {"allocs": 0.0, "bytes": 0.0}
    for key in sorted(set(a) | set(b)):
        names = {t[key]["site"] for t in (a, b) if key in t}
        was, now = a.get(key, none), b.get(key, none)
        row = {"site": names.pop() if len(names) == 1 else key,
               "type": (a if key in a else b)[key]["type"],
               "old_allocs": float(was["allocs"]), "new_allocs": float(now["allocs"]),
               "old_bytes": float(was["bytes"]), "new_bytes": float(now["bytes"])}
        row["delta"] = row["new_bytes"] - row["old_bytes"]
        row["moved"] = abs(row["delta"]) >= MOVED_BYTES
        rows.append(row)
    table = pd.DataFrame(rows, columns=["site", "type", "old_allocs", "new_allocs", "old_bytes",
                                        "new_bytes", "delta", "moved"])
    if table.empty:
        return table
    table["size"] = [-abs(d) if m else -max(o, n) for d, m, o, n in
                     zip(table["delta"], table["moved"], table["old_bytes"], table["new_bytes"])]
    table = table.sort_values(["moved", "size", "site"], ascending=[False, True, True],
                              kind="stable")
    return table.drop(columns="size").reset_index(drop=True)


def _as_the_release(sites: Sites, benchmark: str, params: str, model: str, release: str
                    ) -> tuple[list[dict], tuple[set[str], set[str]]]:
    """diff()'s lines for the sites fidelity() pairs, the model's against the release's, and the
    sites they take on each side. A line is named by the model's sites, and the release's beside
    them where they differ ('as totals' where only a type's totals were paired)."""
    f = fidelity(sites, benchmark, params, model, release)
    rows: list[dict[str, Any]] = []
    taken: tuple[set[str], set[str]] = (set(), set())
    for r in f[f["same"].astype(bool)].itertuples():
        mine, theirs = " + ".join(r.model_sites), " + ".join(r.release_sites)
        kind = side(sites, benchmark, params, model)
        kind = kind[kind["site"].isin(r.model_sites)]
        kind_of = kind["type"].iloc[0] if not kind.empty else ""
        if common_name(mine, (model,)) == common_name(theirs, (model,)):
            name = mine
        else:
            shown = re.sub(rf": {re.escape(kind_of)}$", "", theirs) if kind_of and " + " not in theirs else theirs
            name = f"{mine} ({'as totals, ' if r.how == 'totals' else ''}the release's {shown})"
        old_bytes, new_bytes = float(r.model_bytes), float(r.release_bytes)
        row = {"site": name, "type": kind_of, "old_allocs": float(r.model_allocs),
               "new_allocs": float(r.release_allocs), "old_bytes": old_bytes,
               "new_bytes": new_bytes, "delta": new_bytes - old_bytes,
               "moved": abs(new_bytes - old_bytes) >= MOVED_BYTES}
        rows.append(row)
        taken[0].update(r.model_sites)
        taken[1].update(r.release_sites)
    return rows, taken


def total(sites: Sites, benchmark: str, params: str, variant: str) -> float:
    """A row-side's bytes per op summed over its sites (the code's, without the harness's)."""
    return float(side(sites, benchmark, params, variant)["bytes_per_op"].sum())


def harness_total(sites: Sites, benchmark: str, params: str, variant: str) -> float:
    """A row-side's bytes per op that JMH's harness allocated inside the measured loop."""
    return float(harness_side(sites, benchmark, params, variant)["bytes_per_op"].sum())


def rows_recorded(pairs: pd.DataFrame, sites: Sites) -> list[pd.Series]:
    """The report's rows whose two sides the site pass recorded."""
    return [p for _, p in pairs.iterrows()
            if has_side(sites, p["benchmark"], p["params"], p["baseline"])
            and has_side(sites, p["benchmark"], p["params"], p["candidate"])]


@dataclass(frozen=True)
class RecordedRow:
    """A report's row whose two sides the site pass recorded: its sites old against new (diff:
    the moved first, the biggest change first) and, apart from them, what JMH's harness allocated
    inside the measured loop on each side (B/op)."""

    #: the row as the report's pairs hold it (benchmark, params, baseline, candidate, ...)
    pair: pd.Series = field(compare=False)
    sites: pd.DataFrame = field(compare=False)
    harness: tuple[float, float]


def recorded_rows(pairs: pd.DataFrame, sites: Sites) -> tuple[RecordedRow, ...]:
    """Each of the report's rows the site pass recorded, in the pairs' order, with its sites."""
    out = []
    for p in rows_recorded(pairs, sites):
        key, sides = (p["benchmark"], p["params"]), (p["baseline"], p["candidate"])
        out.append(RecordedRow(p, diff(sites, *key, *sides),
                               (harness_total(sites, *key, sides[0]), harness_total(sites, *key, sides[1]))))
    return tuple(out)


def reconcile(sites: Sites, pairs: pd.DataFrame) -> pd.DataFrame:
    """Per row-side measured by both passes: the sites' sum against -prof gc's heap B/op, which
    counts the harness's allocations too (``harness_bytes``, added to the sum it is held to)."""
    rows = []
    seen = set()
    for _, p in pairs.iterrows():
        for variant, gc in ((p["baseline"], p["old_alloc"]), (p["candidate"], p["new_alloc"])):
            key = (p["benchmark"], p["params"], variant)
            if key in seen or not has_side(sites, *key):
                continue
            seen.add(key)
            summed, harness = total(sites, *key), harness_total(sites, *key)
            gc = float(gc) if gc is not None and not pd.isna(gc) else math.nan
            if math.isnan(gc):
                within = None
            else:
                within = abs(summed + harness - gc) <= max(RECONCILE * gc, MOVED_BYTES)
            rows.append({"benchmark": p["benchmark"], "method": p["method"], "params": p["params"],
                         "variant": variant, "sites_bytes": summed, "harness_bytes": harness,
                         "gc_bytes": gc, "within": within})
    return pd.DataFrame(rows, columns=["benchmark", "method", "params", "variant", "sites_bytes",
                                       "harness_bytes", "gc_bytes", "within"])


def matching(sites: Sites, benchmark: str, params: str, variant: str, pattern: str) -> tuple[float, float]:
    """(allocations per op, B/op) of a row-side's sites whose name matches ``pattern``."""
    s = side(sites, benchmark, params, variant)
    hit = s[s["site"].str.contains(pattern, regex=True)]
    return float(hit["allocs_per_op"].sum()), float(hit["bytes_per_op"].sum())


def collapsed(sites: Sites, benchmark: str, params: str, variant: str, per: int = 100,
              variants: tuple[str, ...] = ()) -> str:
    """A row-side's stacks as collapsed text for a flame graph: short frame names, weighed by
    bytes per ``per`` operations (the sides ran different numbers of operations). With the
    row's ``variants``, each variant's own classes are named as one (``OldCodec`` and
    ``OptimizedCodec`` as ``Codec``, an enum constant's body ``Variant$1`` as ``Variant$…``), so
    that a differential graph sets the same place of both against each other."""
    s = sites.stacks
    s = s[(s["benchmark"] == benchmark) & (s["params"] == params) & (s["variant"] == variant)]
    weights: dict[str, int] = {}
    for stack, size, ops in zip(s["stack"], s["bytes"], s["ops"]):
        frames = stack.split(";")
        name = ";".join([*(short(f) for f in frames[:-1]), allocated_type(frames[-1])])
        if variants:
            name = re.sub(r"\$\d+(?=[.;]|$)", "$…", common_name(name, variants))
        weights[name] = weights.get(name, 0) + round(size * per / ops)
    return "".join(f"{k} {v}\n" for k, v in sorted(weights.items()) if v > 0)



#: A release's site is the model's when it allocates the same type as often and as large: within
#: 0.05 allocations per op, and bytes and mean size the same by the fidelity table's B/op rule
#: (fidelity.same_bytes: within 2% or 16 B).
SAME_COUNT = 0.05
#: The variant that runs the released code beside the models.
RELEASE = "upstream"
#: The columns of data/fidelity/site-equivalences.csv: a model's type the release allocates under
#: another name, and why they are one.
EQUIVALENCE_FIELDS = ["case", "model_type", "release_type", "reason"]


def equivalences(path: Path | None = None) -> frozenset[tuple[str, str]]:
    """(model type, release type) pairs declared one in ``path`` (data/fidelity/
    site-equivalences.csv), each with its reason; a file with other columns, an empty field, an
    unknown case, a type declared equal to itself or a pair declared twice is refused."""
    import csv

    from ..cases import CASES
    from ..paths import SITE_EQUIVALENCES

    path = Path(path or SITE_EQUIVALENCES)
    if not path.is_file():
        return frozenset()
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != EQUIVALENCE_FIELDS:
            raise ResultsError(f"{path}: columns {', '.join(reader.fieldnames or [])}; expected "
                               f"exactly {', '.join(EQUIVALENCE_FIELDS)}")
        found: set[tuple[str, str, str]] = set()
        for line, row in enumerate(reader, start=2):
            if None in row or any(not (row[k] or "").strip() for k in EQUIVALENCE_FIELDS):
                raise ResultsError(f"{path}:{line}: every row needs {', '.join(EQUIVALENCE_FIELDS)}")
            if row["case"] not in CASES:
                raise ResultsError(f"{path}:{line}: unknown case {row['case']!r}")
            if row["model_type"] == row["release_type"]:
                raise ResultsError(f"{path}:{line}: {row['model_type']} declared equal to itself")
            key = (row["case"], row["model_type"].strip(), row["release_type"].strip())
            if key in found:
                raise ResultsError(f"{path}:{line}: {key[1]} → {key[2]} declared twice for {key[0]}")
            found.add(key)
    return frozenset((m, r) for _, m, r in found)


def fidelity(sites: Sites, benchmark: str, params: str, model: str = "old",
             release: str = RELEASE, declared: frozenset[tuple[str, str]] | None = None
             ) -> pd.DataFrame:
    """The released code's sites set against our model's, paired by what they allocate (the two
    name their own methods), only ever a type with the same type or with one ``declared``
    equivalent (data/fidelity/site-equivalences.csv, each with its reason), from the closest
    match to the loosest: a site against a site, as often and as large (``how``: site, or
    declared where the types are a declared pair); the sites of one type and size together (the
    model may slice twice where the release slices twice through one method: size); and last
    the rest of a type together, in allocations and bytes (the release may allocate in one
    stack what the model allocates in two, whose mean size then matches neither: totals). One
    line per pairing and per site left alone."""
    declared = equivalences() if declared is None else declared

    def listed(variant: str) -> list[dict]:
        s = side(sites, benchmark, params, variant)
        return [{"site": [n], "type": t, "allocs": a, "bytes": b}
                for n, t, a, b in zip(s["site"], s["type"], s["allocs_per_op"], s["bytes_per_op"])
                if b >= 1.0]

    def alike(m: dict, r: dict) -> bool:
        return bool(abs(r["allocs"] - m["allocs"]) < SAME_COUNT
                    and same_bytes(m["bytes"], r["bytes"]) and same_bytes(_size(m), _size(r)))

    def one_type(m: dict, r: dict) -> bool:
        return m["type"] == r["type"] or (m["type"], r["type"]) in declared

    ours, theirs = listed(model), listed(release)
    pairs: list[tuple[dict, dict, str]] = []

    def match(mine: list[dict], free: list[dict], how: str) -> tuple[list[dict], list[dict]]:
        left = []
        for m in sorted(mine, key=lambda u: (-u["bytes"], u["site"])):
            hit = next((r for r in sorted(free, key=lambda u: (-u["bytes"], u["site"]))
                        if alike(m, r) and one_type(m, r)), None)
            if hit is None:
                left.append(m)
            else:
                free.remove(hit)
                single = len(m["site"]) == 1 and len(hit["site"]) == 1
                pairs.append((m, hit, how if how == "totals" or not single else
                              "site" if m["type"] == hit["type"] else "declared"))
        return left, free

    ours, theirs = match(ours, theirs, "site")
    by_size = lambda u: (u["type"], round(_size(u)))  # noqa: E731
    ours, theirs = match(_grouped(ours, by_size), _grouped(theirs, by_size), "size")
    by_type = lambda u: u["type"]  # noqa: E731
    ours, theirs = match(_grouped(ours, by_type), _grouped(theirs, by_type), "totals")
    return _fidelity_frame(pairs, ours, theirs)


def _size(u: dict) -> float:
    """A site's (or sites') mean allocation size."""
    return u["bytes"] / u["allocs"] if u["allocs"] else 0.0


def _grouped(units: list[dict], key: Callable[[dict], Any]) -> list[dict]:
    """Sites taken together by ``key``: their names, allocations and bytes summed."""
    groups: dict = {}
    for u in units:
        g = groups.setdefault(key(u), {"site": [], "type": u["type"], "allocs": 0.0, "bytes": 0.0})
        g["site"] += u["site"]
        g["allocs"] += u["allocs"]
        g["bytes"] += u["bytes"]
    return list(groups.values())


def _fidelity_frame(pairs: list[tuple[dict, dict, str]], ours: list[dict], theirs: list[dict]) -> pd.DataFrame:
    """fidelity's lines: the pairings, then the model's and the release's sites left alone."""
    rows = [{"model": " + ".join(m["site"]), "model_allocs": m["allocs"], "model_bytes": m["bytes"],
             "release": " + ".join(r["site"]), "release_allocs": r["allocs"], "release_bytes": r["bytes"],
             "same": True, "how": how, "model_sites": tuple(m["site"]),
             "release_sites": tuple(r["site"])} for m, r, how in pairs]
    rows += [{"model": " + ".join(m["site"]), "model_allocs": m["allocs"], "model_bytes": m["bytes"],
              "release": "", "release_allocs": 0.0, "release_bytes": 0.0, "same": False, "how": "",
              "model_sites": tuple(m["site"]), "release_sites": ()} for m in ours]
    rows += [{"model": "", "model_allocs": 0.0, "model_bytes": 0.0, "release": " + ".join(r["site"]),
              "release_allocs": r["allocs"], "release_bytes": r["bytes"], "same": False, "how": "",
              "model_sites": (), "release_sites": tuple(r["site"])} for r in theirs]
    frame = pd.DataFrame(rows, columns=FIDELITY_COLUMNS)
    return frame.sort_values(["same", "model_bytes", "release_bytes"], ascending=[False, False, False],
                             kind="stable").reset_index(drop=True)


FIDELITY_COLUMNS = ["model", "model_allocs", "model_bytes", "release", "release_allocs",
                    "release_bytes", "same", "how", "model_sites", "release_sites"]
#: What a row's pairing as a whole says, from the closest to the loosest (paired()).
PAIRED = ("site for site", "by type and size", "as totals", "nothing to pair", "differ")


def paired(frame: pd.DataFrame) -> str:
    """One of PAIRED for a row's fidelity(): nothing to pair where neither side has a site;
    differ where a site is left alone; else the loosest pairing it took."""
    if frame.empty:
        return "nothing to pair"
    if not frame["same"].astype(bool).all():
        return "differ"
    how = set(frame["how"])
    return "as totals" if "totals" in how else "by type and size" if "size" in how else "site for site"
