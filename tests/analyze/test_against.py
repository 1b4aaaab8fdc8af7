"""A run held against the reference, on answers known in advance: the reference against itself
contradicts nothing; a run built from the reference with some rows shifted contradicts exactly
those; the 15% widening decides rows near its edge; bad input is refused with one line."""

import hashlib
import json
import math
import re
import shutil
from pathlib import Path

import pytest

from hotpath.analyze import against
from hotpath.analyze.load import read_results
from hotpath.cli import main
from hotpath.jmh import VARIANT, params_text
from hotpath.paths import REFERENCE, sidecar_of

CASE = "writer"  # throughput rows: time per op new/old is the inverted ratio


def _key(entry: dict) -> tuple[str, str, str]:
    params = {k: str(v) for k, v in (entry.get("params") or {}).items()}
    variant = params.pop(VARIANT, "")
    return entry["benchmark"], params_text(params), variant


def build_run(folder: Path, case: str = CASE, shift: dict | None = None, drop=(),
              forks: dict | None = None) -> Path:
    """A run made from the reference's JMH file and its sidecar: ``shift`` multiplies the time
    per op of (benchmark, params, variant) by a factor (every fork alike, so the row's ratio and
    both ends of its interval move by that factor), ``drop`` leaves out (benchmark, params)
    altogether, ``forks`` keeps only the first n forks of (benchmark, params, variant). The
    sidecar is rewritten with the new file's hash, so that the run keeps the reference's
    sequential design."""
    shift, forks = shift or {}, forks or {}
    entries = json.loads((REFERENCE / f"{case}.json").read_text(encoding="utf-8"))
    kept = []
    for entry in entries:
        key = _key(entry)
        if key[:2] in drop:
            continue
        metric = entry["primaryMetric"]
        if key in shift:
            # A throughput scales the other way: time per op times f is ops/s over f.
            f = 1 / shift[key] if metric["scoreUnit"].startswith("ops/") else shift[key]
            metric["rawData"] = [[v * f for v in fork] for fork in metric["rawData"]]
            metric["score"] *= f
            metric["scoreError"] *= f
            metric["scoreConfidence"] = [c * f for c in metric["scoreConfidence"]]
        if key in forks:
            metric["rawData"] = metric["rawData"][:forks[key]]
        kept.append(entry)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{case}.json"
    path.write_text(json.dumps(kept, indent=2), encoding="utf-8")
    sidecar = json.loads(sidecar_of(REFERENCE / f"{case}.json").read_text(encoding="utf-8"))
    sidecar["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    sidecar_of(path).write_text(json.dumps(sidecar), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def reference_rows():
    """The reference's time rows of the case, as the reports give them."""
    rows = against.time_rows(read_results(REFERENCE / f"{CASE}.json").frame, CASE)
    return rows.assign(width=rows["high"] / rows["low"])


def _row_key(r) -> tuple[str, str, str]:
    return r["benchmark"], r["params"], r["candidate"]


def _hold(folder: Path, widen: float = against.MACHINE_SPREAD) -> against.Held:
    return against.hold_files([CASE], {CASE: folder / f"{CASE}.json"},
                              {CASE: REFERENCE / f"{CASE}.json"}, widen)


def _contradicting(held: against.Held) -> set:
    return {_row_key(r) for _, r in held.rows[held.rows["contradicts"]].iterrows()}


# --- the rule ---------------------------------------------------------------------------------

def test_the_issues_rows_contradict_the_reference_even_widened():
    # writer compressedMapFields(entries=30) and zip marshalZip(MAP_3K) buffered, from issue 39
    assert against.disjoint((0.452, 0.566), (0.841, 0.952))
    assert against.disjoint((0.205, 0.536), (0.080, 0.098))


def test_each_interval_is_widened_by_15_percent_each_way():
    assert against.widened(1.0, 2.0) == pytest.approx((1 / 1.15, 2.3))
    # Two points 1.32x apart overlap once each is widened by 15% (1.15^2 = 1.3225); 1.33x apart do not.
    assert not against.disjoint((1.0, 1.0), (1.32, 1.32))
    assert against.disjoint((1.0, 1.0), (1.33, 1.33))
    assert against.disjoint((1.33, 1.33), (1.0, 1.0))
    # Without the widening, 1.2x apart with tight intervals is a contradiction.
    assert against.disjoint((0.98, 1.02), (1.18, 1.22), widen=1.0)
    assert not against.disjoint((0.98, 1.02), (1.18, 1.22))


def test_a_missing_interval_contradicts_nothing():
    assert not against.disjoint((math.nan, math.nan), (5.0, 6.0))
    with pytest.raises(ValueError):
        against.hold(against.time_rows(read_results(REFERENCE / "encoder.json").frame, "encoder"),
                     against.time_rows(read_results(REFERENCE / "encoder.json").frame, "encoder"),
                     widen=0.9)


# --- the reference against itself -------------------------------------------------------------

def test_the_reference_against_itself_contradicts_nothing(capsys):
    assert main(["against-reference", "--profile", "reference"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    m = re.fullmatch(r"0 of (\d+) rows contradict the reference \(intervals widened by 15%\)", lines[-1])
    assert m, lines[-1]
    table = [line for line in lines if re.match(r"(writer|encoder|marshaller|zip|store) ", line)]
    assert len(table) == int(m.group(1)) > 100
    assert all(line.endswith(" no") for line in table)
    assert "only in the run: none" in lines and "only in the reference: none" in lines
    # Each side of a row is the reports' figure: the issue quotes the reference's.
    writer = next(line for line in table if "WriterCompressedMap.compressedMapFields(entries=30) "
                  in line and " optimized " in line)
    assert writer.count("0.934 (0.902–0.967)") == 2


def test_what_the_references_forks_need_at_the_runs_cap():
    # A ratio far from the +-5% band is decided at the first look whatever the cap.
    assert against.needs(0.5, 0.02, 8) == 4
    # a run whose first look is at three forks (quick) decides a clear change there
    assert against.needs(0.5, 0.02, 8, first_look=3) == 3
    # At the edge of the band no number of forks decides; the estimate says the most it gives.
    assert against.needs(1.05, 0.02, 8) == 1000
    # Twice the fork CV asks for about four times the forks (the same distance from the band).
    assert against.needs(1.1, 0.10, 24) >= 3 * against.needs(1.1, 0.05, 24) > 4
    # A run without a cap (a fixed number of forks) or a reference row without a CV: nothing to say.
    assert math.isnan(against.needs(0.5, 0.02, math.nan))
    assert math.isnan(against.needs(0.5, math.nan, 8))


def test_the_reference_against_itself_says_which_rows_are_within_reach(capsys):
    held = _hold(REFERENCE)
    rows = held.rows.set_index(["method", "params", "candidate"])
    # Decided at its first look: within reach of its own cap. primitiveFields, undecided at 24
    # forks per side (fork CV 14%), is not.
    assert rows.loc[("compressedMapFields", "bufferSize=16", "floor"), "reference_needs"] == 4
    assert rows.loc[("primitiveFields", "", "optimized"), "reference_needs"] > 24
    assert held.reachable_known == len(held.rows)
    assert 0 < held.within_reach < len(held.rows)
    assert main(["against-reference", "--case", CASE, "--profile", "reference"]) == 0
    out = capsys.readouterr().out
    assert f"within reach: {held.within_reach} of {len(held.rows)} rows." in " ".join(out.split())
    line = next(x for x in out.splitlines() if "PrimitiveFields.primitiveFields " in x and " optimized " in x)
    assert re.search(r" \d+ > 24 ", line), line


# --- a run built to differ --------------------------------------------------------------------

def test_a_run_built_to_differ_contradicts_exactly_the_shifted_rows(tmp_path, reference_rows, capsys):
    rows = reference_rows.dropna(subset=["low", "high"])
    optimized = rows[rows["candidate"] == "optimized"].iloc[0]
    floor = rows[rows["candidate"] == "floor"].iloc[1]
    # Far beyond the widened gap: the row's own width, 1.15 twice, and half as much again.
    faster = 1 / (optimized["width"] * against.MACHINE_SPREAD ** 2 * 1.5)
    slower = floor["width"] * against.MACHINE_SPREAD ** 2 * 1.5
    dropped = rows[rows["candidate"] == "optimized"].iloc[-1]
    assert dropped["params"] not in (optimized["params"], floor["params"])
    build_run(tmp_path, shift={_row_key(optimized): faster, _row_key(floor): slower},
              drop=[(dropped["benchmark"], dropped["params"])])

    held = _hold(tmp_path)
    assert _contradicting(held) == {_row_key(optimized), _row_key(floor)}
    shifted = held.rows.set_index(["benchmark", "params", "candidate"]).loc[_row_key(optimized)]
    assert shifted["run_ratio"] == pytest.approx(optimized["ratio"] * faster)
    assert shifted["run_high"] == pytest.approx(optimized["high"] * faster)
    # The dropped benchmark x params is only in the reference, with each of its variants.
    only = held.only_reference
    assert set(zip(only["benchmark"], only["params"])) == {(dropped["benchmark"], dropped["params"])}
    assert held.only_run.empty
    assert held.compared == len(rows) - len(only)

    assert main(["against-reference", "--case", CASE, "--run", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == (f"2 of {held.compared} rows contradict the reference "
                                    f"(intervals widened by 15%)")
    assert sum(line.endswith(" yes") for line in out.splitlines()) == 2
    assert "only in the reference, not compared (" in out
    assert "only in the run: none" in out


def test_the_widening_decides_a_row_1_2x_off_with_a_tight_interval(tmp_path, reference_rows):
    tight = reference_rows.dropna(subset=["low", "high"]).sort_values("width").iloc[0]
    assert tight["width"] < 1.2  # 1.2x off, the intervals part without the widening
    build_run(tmp_path, shift={_row_key(tight): 1.2})
    assert _contradicting(_hold(tmp_path)) == set()
    assert _contradicting(_hold(tmp_path, widen=1.0)) == {_row_key(tight)}
    assert main(["against-reference", "--case", CASE, "--run", str(tmp_path)]) == 0
    assert main(["against-reference", "--case", CASE, "--run", str(tmp_path), "--widen", "1"]) == 1


@pytest.mark.parametrize("beyond, contradicts", [(0.99, False), (1.01, True)])
def test_a_row_just_inside_or_just_beyond_the_widened_gap(tmp_path, reference_rows, beyond, contradicts):
    """Shifted by its own width times 1.15 twice, a row's widened interval just touches the
    reference's: 1% less overlaps, 1% more does not."""
    row = reference_rows.dropna(subset=["low", "high"]).iloc[3]
    build_run(tmp_path, shift={_row_key(row): row["width"] * against.MACHINE_SPREAD ** 2 * beyond})
    assert _contradicting(_hold(tmp_path)) == ({_row_key(row)} if contradicts else set())


def test_a_row_without_an_interval_is_in_both_but_not_compared(tmp_path, reference_rows, capsys):
    rows = reference_rows.dropna(subset=["low", "high"])
    row = rows[rows["candidate"] == "optimized"].iloc[0]
    benchmark, params, candidate = _row_key(row)
    # Three forks per side, one short of the first look, and shifted far: still no contradiction.
    # Old's forks are every candidate's of that benchmark x params (here optimized and floor).
    build_run(tmp_path, shift={_row_key(row): 3.0},
              forks={(benchmark, params, candidate): 3, (benchmark, params, "old"): 3})
    held = _hold(tmp_path)
    sharing = held.rows[(held.rows["benchmark"] == benchmark) & (held.rows["params"] == params)]
    assert len(sharing) == 2
    assert not sharing["compared"].any() and not sharing["contradicts"].any()
    assert held.contradicting == 0 and held.compared == len(held.rows) - 2
    assert main(["against-reference", "--case", CASE, "--run", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert sum(line.endswith(" no interval") for line in out.splitlines()) == 2
    assert "2 rows in both without an interval on a side" in out


# --- bad input --------------------------------------------------------------------------------

def _refused(capsys, args: list[str], says: str) -> None:
    assert main(["against-reference", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and says in captured.err, captured.err


def test_bad_input_is_refused_with_one_line_and_nothing_written(tmp_path, capsys):
    _refused(capsys, ["--case", "nope"], "unknown case 'nope'")
    _refused(capsys, ["--profile", "fast"], "unknown profile 'fast'")
    _refused(capsys, ["--case", CASE, "--run", str(tmp_path / "none")], "no such results file")
    _refused(capsys, ["--case", CASE, "--profile", "reference", "--reference", str(tmp_path)],
             "no such results file")
    _refused(capsys, ["--case", CASE, "--profile", "reference", "--widen", "0.5"], "--widen 0.5")

    run = build_run(tmp_path / "run")
    text = run.read_text(encoding="utf-8")
    run.write_text(text[: len(text) // 2], encoding="utf-8")
    before = {p.name: p.read_bytes() for p in run.parent.iterdir()}
    _refused(capsys, ["--case", CASE, "--run", str(run.parent)], "truncated or corrupt JSON")

    build_run(tmp_path / "sidecar")
    sidecar_of(tmp_path / "sidecar" / f"{CASE}.json").write_text("{", encoding="utf-8")
    _refused(capsys, ["--case", CASE, "--run", str(tmp_path / "sidecar")], "corrupt provenance sidecar")

    # A run of another case's file is refused by its hash, not compared.
    build_run(tmp_path / "other")
    shutil.copy(REFERENCE / "encoder.json", tmp_path / "other" / f"{CASE}.json")
    _refused(capsys, ["--case", CASE, "--run", str(tmp_path / "other")], "describes another run")

    assert {p.name: p.read_bytes() for p in run.parent.iterdir()} == before


# --- the machines -----------------------------------------------------------------------------

def test_the_machine_line_compares_olds_time_on_both(tmp_path, reference_rows):
    from hotpath.render.against import machine_line

    same = _hold(build_run(tmp_path / "same").parent)
    m = same.machine()
    assert (m.slower, m.least, m.most) == (pytest.approx(1.0), pytest.approx(1.0), pytest.approx(1.0))
    assert m.rows == reference_rows.drop_duplicates(["benchmark", "params"]).shape[0]
    assert "took 1.00x" in machine_line(same) and "slower" not in machine_line(same)
    # every old row 1.4x slower (and so every candidate too: the ratios stay the reference's)
    olds = {_key(e) for e in json.loads((REFERENCE / f"{CASE}.json").read_text(encoding="utf-8"))}
    slower = _hold(build_run(tmp_path / "slower", shift={k: 1.4 for k in olds}).parent)
    assert slower.machine().slower == pytest.approx(1.4)
    assert slower.contradicting == 0
    line = machine_line(slower)
    assert "took 1.40x" in line and "runs it slower than the reference's by more than the 15%" in line


def test_a_contradicting_row_says_which_side_the_machine_moved(tmp_path, reference_rows):
    """A candidate 3x slower than in the reference while old ran as there: the row contradicts,
    and the line under the table puts that on the candidate's path (old 1.00x, the candidate
    3.00x), not on old's."""
    from hotpath.render.against import moved_lines

    row = reference_rows.dropna(subset=["low", "high"]).iloc[0]
    held = _hold(build_run(tmp_path, shift={_row_key(row): 3.0}).parent)
    assert _contradicting(held) == {_row_key(row)}
    [moved] = held.sides_moved().itertuples()
    assert (moved.old_moved, moved.new_moved) == (pytest.approx(1.0), pytest.approx(3.0))
    lines = moved_lines(held)
    assert len(lines) == 2 and f"old ran at 1.00x the reference's time, {row['candidate']} at 3.00x" in lines[1]
    assert moved_lines(_hold(build_run(tmp_path / "same").parent)) == []


def test_a_contradicting_row_whose_side_faults_names_the_faults(tmp_path, reference_rows):
    """The same row, old faulting 23 times a call in the run (hotpath's faults.norm) where the
    reference counted under one: the line says so, and that a fault's price is the host's."""
    from hotpath.render.against import moved_lines

    row = reference_rows.dropna(subset=["low", "high"]).iloc[0]
    path = build_run(tmp_path, shift={_row_key(row): 3.0})
    entries = json.loads(path.read_text(encoding="utf-8"))
    for e in entries:
        key = _key(e)
        if key[:2] == _row_key(row)[:2] and key[2] in ("old", row["candidate"]):
            per_op = 23.0 if key[2] == "old" else 0.25
            forks = e["primaryMetric"]["rawData"]
            e["secondaryMetrics"]["faults.norm"] = {
                "score": per_op, "scoreError": 0.0, "scoreConfidence": [per_op, per_op],
                "scorePercentiles": {}, "scoreUnit": "faults/op",
                "rawData": [[per_op] * len(f) for f in forks]}
    path.write_text(json.dumps(entries), encoding="utf-8")
    sidecar = json.loads(sidecar_of(path).read_text(encoding="utf-8"))
    sidecar["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    sidecar_of(path).write_text(json.dumps(sidecar), encoding="utf-8")
    lines = moved_lines(_hold(tmp_path))
    assert len(lines) == 2
    assert (f"old faulted 23.0 times a call here and {row['candidate']} 0.2 (the reference: 0.7 and "
            "0.0), and what a page fault costs is the host's") in lines[1]
    # below a fault a call, nothing is said of faults
    assert "faulted" not in moved_lines(_hold(build_run(tmp_path / "plain", shift={_row_key(row): 3.0}).parent))[1]


def test_a_run_on_another_cpu_says_so_beside_the_machine_line(tmp_path):
    """The 15% is allowed between machines of one kind: a run whose provenance records another
    CPU model than the reference's says so; one on the reference's CPU does not."""
    from hotpath.render.against import machine_line

    same = _hold(build_run(tmp_path / "same").parent)
    assert same.cpus["run"] == same.cpus["reference"] and not same.other_kind()
    assert "another kind of machine" not in machine_line(same)
    path = build_run(tmp_path / "other")
    sidecar = json.loads(sidecar_of(path).read_text(encoding="utf-8"))
    sidecar["cpu_model"] = "Some Other CPU"
    sidecar_of(path).write_text(json.dumps(sidecar), encoding="utf-8")
    other = _hold(path.parent)
    assert other.other_kind()
    reference_cpu = ", ".join(other.cpus["reference"])
    assert (f"the run's CPU is Some Other CPU, the reference's {reference_cpu}: another kind of "
            "machine") in machine_line(other)
