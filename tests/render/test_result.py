"""The Result and the overview say what the tables say, and the Result is short.

Rendered reports are read back as a reviewer reads them (summary.md, index.md): every change the
Result and the overview state, its direction, figure and verdict word, is set against the At a
glance and details tables of the same report, for the reference run and for a run whose forks
were recorded from their start (the 2026-11-26 A/A's, as case runs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hotpath.analyze import compare, load
from hotpath.cases import CASES
from hotpath.render import headline, tables
from reading import depth, md_tables, number, result_of

#: The Result: the main row's changes, then the candidate's rows in one clause.
LEAD = re.compile(r"At (?P<label>.+?), (?P<cand>\S+) against (?P<base>\S+): (?P<changes>.+?)\. "
                  r"Over its (?P<n>\d+) rows?: time per op (?P<time>\S+)×(?:, heap (?P<heap>\S+)×)? "
                  r"\((?P<means>[^()]*)\); (?P<decided>\d+ of \d+) decided(?:: (?P<counts>[^.]*))?\.")
TIME = re.compile(r"(?P<what>throughput|time per op) (?P<pct>[+−]\d+\.\d)% \((?P<word>\w+)\)")
BYTES = re.compile(r"(?P<what>[\w-]+) (?P<old>[\d,]+) → (?P<new>[\d,]+) B/op \((?P<word>[\w ]+)\)")
UNITS = {"B": 1, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}


def glance_word(verdict: str) -> str:
    return verdict.split(" (")[0]


def details_word(verdict: str) -> str:
    """'faster (at 4 forks)' -> faster; '~ undecided' -> undecided."""
    return "undecided" if verdict.startswith("~") else verdict.split(" (")[0]


def _of(row: dict[str, str], cand: str) -> bool:
    """A table row of this candidate: by its variant column, else by a column headed with it."""
    return row["variant"] == cand if "variant" in row else any(k.startswith(f"{cand} ") for k in row)


def _bytes_problems(clause: str, glance: dict[str, str], label: str) -> list[str]:
    b = BYTES.fullmatch(clause)
    if not b:
        return [f"{label}: not a B/op change: {clause!r}"]
    column = next((k for k in glance if k.startswith(b["what"] + " ") and k.endswith("old → new")), None)
    if column is None:
        return [f"{label}: no At a glance column for {b['what']}"]
    unit = UNITS[re.search(r"(\w+)/op", column).group(1)]
    shown = [number(x) * unit for x in glance[column].split(" → ")]
    said = [number(b["old"]), number(b["new"])]
    out = [f"{label}: {b['what']} {said} in the Result, {glance[column]} {column} in the table"
           for s, g in zip(said, shown) if abs(s - g) > max(0.5, 0.006 * s)]
    direction = {"none left": said[1] < 0.5 < said[0], "less": said[1] < said[0],
                 "more": said[1] > said[0], "same": True}
    if not direction.get(b["word"], False):
        out.append(f"{label}: {clause!r} says {b['word']} of {said}")
    return out


def _details_heap(row: dict[str, str], base: str, cand: str) -> dict[str, str]:
    """A details row's heap B/op as At a glance writes it: {'heap KB/op old → new': '1.2 → 0.5'}."""
    old = next((k for k in row if re.fullmatch(rf"({re.escape(base)}|old) [KMG]?B/op", k)), None)
    new = next((k for k in row if re.fullmatch(rf"({re.escape(cand)}|new) [KMG]?B/op", k)), None)
    if old is None or new is None:
        return {}
    return {f"heap {old.split(' ', 1)[1]} old → new": f"{row[old]} → {row[new]}"}


def problems(summary: str) -> list[str]:
    """Where the report's Result states what its At a glance and details tables do not."""
    m = LEAD.fullmatch(result_of(summary))
    if not m:
        return [f"the Result does not read as one: {result_of(summary)!r}"]
    label, cand = m["label"], m["cand"]
    found_tables = md_tables(summary)
    glance = [r for h, _, rows in found_tables if h == "At a glance" for r in rows
              if r.get("variant", cand) == cand]
    main = [r for r in glance if r["benchmark"] == label]
    if len(main) != 1:
        return [f"{label} {cand}: {len(main)} rows of At a glance"]
    g = main[0]
    changes = m["changes"].split("; ")
    t = TIME.fullmatch(changes[0])
    out = []
    pct = number(t["pct"]) / 100
    implied = 1 / (1 + pct) if t["what"] == "throughput" else 1 + pct
    ratio = float(g["time/op new/old"])
    # time per op falling, or throughput rising, is time per op new/old below 1
    better = pct < 0 if t["what"] == "time per op" else pct > 0
    if abs(implied - ratio) > 0.0015 or (abs(ratio - 1) > 0.0015 and better != (ratio < 1)):
        out.append(f"{label}: {changes[0]!r} in the Result, time/op new/old {ratio} At a glance")
    if t["word"] != glance_word(g["verdict"]):
        out.append(f"{label}: {t['word']} in the Result, {g['verdict']} At a glance")
    details = [r for _, header, rows in found_tables if {"benchmark", "time", "verdict"} <= set(header)
               for r in rows if r["benchmark"] == label and _of(r, cand)]
    if not details:
        out.append(f"{label}: no details row of {cand}")
    for d in details:
        if not d["time"].startswith(t["pct"] + "%"):
            out.append(f"{label}: {t['pct']}% in the Result, {d['time']} in the details")
        if details_word(d["verdict"]) != t["word"]:
            out.append(f"{label}: {t['word']} in the Result, {d['verdict']} in the details")
    for clause in changes[1:]:
        out += _bytes_problems(clause, g, label)
        if clause.startswith("heap "):
            out += [f"{p} (details)" for d in details
                    for p in _bytes_problems(clause, _details_heap(d, m["base"], cand), label)]
    n, words = int(m["n"]), [glance_word(r["verdict"]) for r in glance]
    if len(glance) != n:
        out.append(f"over its {n} rows in the Result, {len(glance)} of {cand} At a glance")
    decided = sum(w != "undecided" for w in words)
    if m["decided"] != f"{decided} of {len(glance)}":
        out.append(f"{m['decided']} decided in the Result, {decided} of {len(glance)} At a glance")
    for said in (m["counts"] or "").split(", ") if m["counts"] else []:
        count, word = said.split(" ", 1)
        if words.count(word) != int(count):
            out.append(f"{said} in the Result, {words.count(word)} {word} At a glance")
    return out


def overview_problems(folder: Path) -> list[str]:
    """Where the overview's row of a case says other than that case's report."""
    found = md_tables((folder / "index.md").read_text(encoding="utf-8"))
    results = next(rows for _, header, rows in found if "fork CV" in header)
    figures = {r["case"]: r for _, header, rows in found
               if "time per op, new/old (geomean)" in header for r in rows}
    out = []
    for row in results:
        case = re.match(r"\[?(\w+)", row["case"]).group(1)
        m = LEAD.fullmatch(result_of((folder / case / "summary.md").read_text(encoding="utf-8")))
        changes = m["changes"].split("; ")
        said = {"row": f"{m['label']}, {m['cand']} against {m['base']}", "time": changes[0],
                "allocation": "; ".join(changes[1:]) or "—", "rows decided": m["decided"]}
        out += [f"{case} {k}: {row[k]!r} on the overview, {v!r} in its report"
                for k, v in said.items() if row[k] != v]
        fig = {"time per op, new/old (geomean)": m["time"],
               "heap B/op, new/old (geomean)": m["heap"] or "—", "time rows decided": m["decided"]}
        out += [f"{case} {k}: {figures[case][k]!r} on the overview, {v!r} in its report"
                for k, v in fig.items() if figures[case][k] != v]
    return out


# -- the Result against the tables, report by report -----------------------------------------

@pytest.mark.parametrize("case_id", list(CASES))
def test_the_reference_results_state_what_their_tables_give(reference_reports, case_id):
    summary = (reference_reports / case_id / "summary.md").read_text(encoding="utf-8")
    assert problems(summary) == []


@pytest.mark.parametrize("case_id", list(CASES))
def test_a_recorded_runs_results_state_what_their_tables_give(recorded_reports, case_id):
    summary = (recorded_reports.reports / case_id / "summary.md").read_text(encoding="utf-8")
    assert problems(summary) == []


def test_the_check_finds_a_result_its_tables_contradict(reference_reports):
    summary = (reference_reports / "writer" / "summary.md").read_text(encoding="utf-8")
    result = result_of(summary)
    for wrong in (result.replace("+7.1%", "+9.0%"), result.replace("(undecided)", "(faster)", 1),
                  result.replace("19,253", "18,000"), result.replace("2 of 11", "3 of 11")):
        assert wrong != result and problems(summary.replace(result, wrong)), wrong


@pytest.mark.parametrize("which", ["reference", "recorded"])
def test_the_overview_says_of_each_case_what_its_report_says(reference_reports, recorded_reports,
                                                             which):
    folder = reference_reports if which == "reference" else recorded_reports.reports
    assert overview_problems(folder) == []
    md = (folder / "index.md").read_text(encoding="utf-8")
    # one table row per case, no paragraph per case
    results = next(rows for _, header, rows in md_tables(md) if "fork CV" in header)
    assert [re.match(r"\[?(\w+)", r["case"]).group(1) for r in results] == list(CASES)
    assert not re.search(r"^- \*\*\w+\*\*: At ", md, re.M)


# -- short, without qualifiers, which the notes keep -------------------------------------------

def all_results(*folders: Path) -> list[tuple[Path, str]]:
    return [(p, result_of(p.read_text(encoding="utf-8")))
            for folder in folders for p in sorted(folder.glob("**/summary.md"))]


def test_every_result_reads_in_ten_seconds(reference_reports, recorded_reports, quick_like_zip):
    found = all_results(reference_reports, recorded_reports.reports, quick_like_zip)
    assert len(found) >= 2 * len(CASES) + 1
    for path, result in found:
        assert len(result.split()) <= 60, (path, len(result.split()), result)
        assert depth(result) <= 1, (path, result)
    for path, result in found:
        if path.parent.name in CASES:
            assert not re.search(r"\bforks?\b|CI|p = |settled", result), (path, result)


def test_the_notes_under_the_table_keep_what_the_result_leaves_out(recorded_reports):
    summary = (recorded_reports.reports / "writer" / "summary.md").read_text(encoding="utf-8")
    section = summary.split("## At a glance", 1)[1].split("\n## ", 1)[0]
    assert "Forks that never settled, each counted by its second half: " in section
    assert "budget spent" in section and "95% CI" in section and "Undecided: " in section


def test_the_result_of_a_decided_row_names_its_verdict_and_nothing_of_how(data_dir):
    pairs = compare.pair(load.read_results(data_dir / "avgt-variant-gc.json").frame).pairs.copy()
    pairs.loc[1, ["verdict", "stopped", "p_value", "unsettled_old"]] = ["faster", "decided", 0.008, 2]
    pairs.at[1, "old_steady"] = [{}, {}, {}]
    text = headline.sentence(pairs, "optimized", pairs.iloc[1]["benchmark"], pairs.iloc[1]["params"])
    assert text.startswith("At copy(size=4096), optimized against old: time per op −96.7% (faster); "
                           "heap 4,112 → 0 B/op (none left). Over its 2 rows: ")
    assert "1 of 2 decided: 1 faster." in text and depth(text) == 1
    assert tables.unsettled_note(pairs) == ("Forks that never settled, each counted by its second "
                                            "half: copy(size=4096): 2 of 3 of old.")
