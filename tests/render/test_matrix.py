"""The JDK x GC matrix: runtime cells, finding JDKs, rows that never mix runtimes, what a cell
changes against the main configuration, and the matrix report."""

import copy
import json
import shutil
from dataclasses import replace

import pandas as pd
import pytest

from hotpath import runtimes
from hotpath.measure import bench
from hotpath.analyze import compare, load
from hotpath.render import matrix, report
from hotpath.cases import Case
from hotpath.errors import UnknownNameError
from hotpath.paths import JAR, RESULTS, matrix_file
from hotpath.measure.profiles import JVM_ARGS, PROFILES
from hotpath.runtimes import Cell, MissingRuntimeError


def test_a_cell_swaps_the_collector_and_under_pressure_the_heap():
    assert Cell("25", "zgc").jvm_args(JVM_ARGS) == ("-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch", "-XX:+UseZGC")
    pressured = Cell("17", "g1", pressure=True).jvm_args(JVM_ARGS)
    assert "-Xmx1g" not in pressured and "-Xmx64m" in pressured
    assert "-XX:MaxDirectMemorySize=16m" in pressured and pressured[-1] == "-XX:+UseG1GC"


def test_cells_parse_from_their_ids_and_unknown_ones_are_refused():
    assert [c.id for c in runtimes.parse_cells("all")] == [
        "jdk17-g1", "jdk17-parallel", "jdk17-zgc", "jdk25-g1", "jdk25-parallel", "jdk25-zgc"]
    assert runtimes.parse_cells("pressure") == [runtimes.PRESSURE]
    assert runtimes.parse_cells("jdk25-parallel,jdk17-g1-pressure") == [
        Cell("25", "parallel"), Cell("17", "g1", True)]
    for bad in ("jdk21-g1", "jdk17-shenandoah", "zgc"):
        with pytest.raises(UnknownNameError):
            runtimes.parse_cells(bad)
    assert "generational" in Cell("25", "zgc").describe()
    assert "single-generation" in Cell("17", "zgc").describe()


def test_a_rows_runtime_is_read_from_what_jmh_recorded():
    assert runtimes.runtime_of("17.0.15", "-Xms1g -Xmx1g -XX:+UseG1GC") == "jdk17-g1"
    assert runtimes.runtime_of("25.0.3", "-XX:+UseG1GC -XX:+UseZGC") == "jdk25-zgc"
    assert runtimes.runtime_of("17.0.15", "") == "jdk17-default-gc"
    pressured = " ".join(Cell("17", "g1", True).jvm_args(JVM_ARGS))
    assert runtimes.runtime_of("17.0.15", pressured) == "jdk17-g1-pressure"


def _fake_jdk(root, version):
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "java").write_text("#!/bin/sh\n")
    (root / "release").write_text(f'JAVA_VERSION="{version}"\n')
    return root


def test_a_jdk_is_found_where_the_user_points_and_a_missing_one_says_how_to_point(tmp_path, monkeypatch):
    monkeypatch.setattr(runtimes, "JDK_GLOBS", (str(tmp_path / "nowhere-{n}*"),))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("HOTPATH_JDK_25", raising=False)
    with pytest.raises(MissingRuntimeError, match="HOTPATH_JDK_25=/path/to/jdk") as e:
        runtimes.java_of(Cell("25", "g1"))
    assert "JDK 25" in str(e.value) and "nowhere-25" in str(e.value)
    # a JDK of another version where the variable points is not taken for this one
    monkeypatch.setenv("HOTPATH_JDK_25", str(_fake_jdk(tmp_path / "seventeen", "17.0.15")))
    with pytest.raises(MissingRuntimeError):
        runtimes.java_of(Cell("25", "g1"))
    monkeypatch.setenv("HOTPATH_JDK_25", str(_fake_jdk(tmp_path / "jdk25", "25.0.3")))
    assert runtimes.java_of(Cell("25", "g1")) == tmp_path / "jdk25" / "bin" / "java"
    found, skipped = runtimes.available([Cell("25", "g1"), Cell("17", "g1")])
    assert Cell("25", "g1") in found


def _cell_file(data_dir, path, cell, old_ms, new_ms, spread=0.01):
    """A JMH file as a run on ``cell`` writes it: 4 forks per side, fork means as given, spread
    by ``spread`` from fork to fork."""
    entries = json.loads((data_dir / "avgt-variant-gc.json").read_text())
    out = []
    for e in entries:
        e = copy.deepcopy(e)
        e["jdkVersion"] = {"17": "17.0.15", "25": "25.0.3"}[cell.jdk]
        e["jvmArgs"] = list(cell.jvm_args(JVM_ARGS))
        mean = old_ms if e["params"]["variant"] == "old" else new_ms
        e["primaryMetric"]["rawData"] = [[mean * f, mean * f] for f in (1 - spread, 1.0, 1 + spread, 1.0)]
        e["primaryMetric"]["score"] = mean
        e["forks"] = 4
        out.append(e)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out))
    return path


def test_rows_of_two_runtimes_are_compared_only_with_a_warning(tmp_path, data_dir):
    a = load.read_results(_cell_file(data_dir, tmp_path / "a.json", Cell("17", "g1"), 10, 5)).frame
    b = load.read_results(_cell_file(data_dir, tmp_path / "b.json", Cell("25", "zgc"), 10, 5)).frame
    assert set(a["runtime"]) == {"jdk17-g1"}
    mixed = pd.concat([a[a["variant"] == "old"], b[b["variant"] == "optimized"]])
    pairs = compare.pair(mixed).pairs
    assert all("rows mix runtimes (jdk17-g1 vs jdk25-zgc)" in w for w in pairs["warnings"])
    assert set(pairs["runtime"]) == {"jdk17-g1 vs jdk25-zgc"}


@pytest.fixture
def matrix_profile():
    """A matrix under a profile of the test's own, removed afterwards."""
    name = "pytest-matrix"
    yield name
    shutil.rmtree(RESULTS / name, ignore_errors=True)


def test_the_cells_where_the_verdict_or_sign_moves_are_called_out(data_dir, matrix_profile):
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-g1"), Cell("17", "g1"), 10, 5)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-parallel"), Cell("17", "parallel"), 10, 5)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk25-zgc"), Cell("25", "zgc"), 10, 12)
    pairs = matrix.read(matrix_profile, "writer")
    assert list(dict.fromkeys(pairs["cell"])) == ["jdk17-g1", "jdk17-parallel", "jdk25-zgc"]
    diff = matrix.differences(pairs)
    assert set(diff["cell"]) == {"jdk25-zgc"}
    assert all("faster → slower" in w for w in diff["what changed"])
    shown = matrix.table(pairs)
    assert shown[shown["cell"] == "jdk25-zgc"]["verdict"].str.endswith("⚑").all()
    assert shown["cell"].iloc[0] == "jdk17-g1 (main)"
    assert "jdk25-zgc" in matrix.summary(pairs) and "3 cells" in matrix.summary(pairs)
    glance = matrix.pivot(pairs)
    assert list(glance.columns) == ["benchmark", "jdk17-g1", "jdk17-parallel", "jdk25-zgc"]
    assert glance["jdk25-zgc"].str.endswith("⚑").all() and not glance["jdk17-g1"].str.contains("⚑").any()


def test_differences_where_a_side_is_undecided_are_kept_apart(data_dir, matrix_profile):
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-g1"), Cell("17", "g1"), 10, 5)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-parallel"), Cell("17", "parallel"), 10, 12)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk25-zgc"), Cell("25", "zgc"), 10, 11,
               spread=0.5)
    pairs = matrix.read(matrix_profile, "writer")
    assert set(pairs[pairs["cell"] == "jdk25-zgc"]["verdict"]) == {"undecided"}
    decided, undecided = matrix.decided_differences(pairs)
    assert set(decided["cell"]) == {"jdk17-parallel"} and set(undecided["cell"]) == {"jdk25-zgc"}
    text = matrix.summary(pairs)
    assert f"both decided and different from jdk17-g1 in {len(decided)} of" in text
    assert f"; {len(undecided)} more differ where a side is undecided" in text


def test_two_same_verdicts_on_either_side_of_1_are_no_difference(data_dir, matrix_profile):
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-g1"), Cell("17", "g1"), 10, 9.9)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk25-g1"), Cell("25", "g1"), 10, 10.1)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk25-zgc"), Cell("25", "zgc"), 10, 12)
    pairs = matrix.read(matrix_profile, "writer")
    assert set(pairs[pairs["cell"] != "jdk25-zgc"]["verdict"]) == {"same"}
    diff = matrix.differences(pairs)
    assert set(diff["cell"]) == {"jdk25-zgc"}  # a decided slower still counts
    assert all("same → slower" in w for w in diff["what changed"])


def test_a_row_slower_on_several_cells_is_named_once_with_its_cells(data_dir, matrix_profile):
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-g1"), Cell("17", "g1"), 10, 12)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk25-g1"), Cell("25", "g1"), 10, 12)
    pairs = matrix.read(matrix_profile, "writer")
    slower = pairs[pairs["verdict"] == "slower"]
    assert set(slower["cell"]) == {"jdk17-g1", "jdk25-g1"}
    text = matrix.summary(pairs)
    for row in {matrix.name(r) for _, r in slower.iterrows()}:
        assert text.count(row) == 1 and f"{row} on jdk17-g1, jdk25-g1" in text


def test_a_matrix_without_the_main_cell_compares_nothing_and_says_so(data_dir, matrix_profile):
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-g1-pressure"),
               Cell("17", "g1", True), 10, 5)
    pairs = matrix.read(matrix_profile, "writer")
    assert matrix.differences(pairs).empty
    assert matrix.summary(pairs).startswith("1 cell (jdk17-g1-pressure); the main cell jdk17-g1 is not")


def test_no_matrix_measured_says_how_to_make_one(matrix_profile):
    with pytest.raises(load.ResultsError, match="make matrix CASE=writer"):
        matrix.read(matrix_profile, "writer")


def test_the_matrix_report_renders_every_cell_and_its_sources(data_dir, matrix_profile, tmp_path):
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-g1"), Cell("17", "g1"), 10, 5)
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk25-g1"), Cell("25", "g1"), 10, 11)
    out = report.render_matrix("writer", matrix_profile, tmp_path / "matrix")
    page = (out / "report.html").read_text()
    summary = (out / "summary.md").read_text()
    for text in ("jdk17-g1 (main)", "jdk25-g1", "Where a cell differs from jdk17-g1", "Sources: one run per cell"):
        assert text in summary
    # cells measured without the timed forks' CPU tail say so, and how to take it
    assert "Not measured: no cell's timed forks took CPU samples" in summary
    assert "JDK 25, G1" in page
    assert len(list(out.glob("writer-matrix-*-matrix-ratio.png"))) == 1 and (out / "jira.txt").is_file()


def test_a_matrix_measured_into_a_folder_of_its_own_renders_from_there(data_dir, tmp_path):
    """make matrix OUT=<folder>: the cells lie in <folder>/<cell>/, and the report reads them
    there, not the profile's (the committed data/matrix/ for "matrix")."""
    cells = tmp_path / "cells"
    _cell_file(data_dir, matrix_file("matrix", "writer", "jdk17-g1", cells), Cell("17", "g1"), 10, 5)
    assert list(matrix.cell_files("matrix", "writer", cells)) == [Cell("17", "g1")]
    out = report.render_matrix("writer", "matrix", tmp_path / "report", folder=cells)
    summary = (out / "summary.md").read_text()
    assert "| jdk17-g1 | JDK 17, G1 |" in summary and "jdk25" not in summary
    assert f"| {cells / 'jdk17-g1' / 'writer.json'} |" in summary  # its source, named


pytestmark_jar = pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")
CALIBRATION = Case(id="calibration", writeup="-", system="-", title="known copy", question="-",
                   benchmarks=r"^hotpath\.calibration\.KnownCopyBenchmark\.")
TINY = replace(PROFILES["smoke"], measurement_iterations=1, forks=1,
               memory=replace(PROFILES["smoke"].memory, forks=1),
               profilers=("gc",), name="tiny")


@pytestmark_jar
@pytest.mark.forks
@pytest.mark.parametrize("cell", [Cell("17", "parallel"), Cell("25", "zgc")], ids=lambda c: c.id)
def test_a_cells_forks_run_on_its_jdk_and_collector_and_say_so(tmp_path, cell):
    try:
        java = runtimes.java_of(cell)
    except MissingRuntimeError as e:
        pytest.skip(str(e))
    out = bench.run(CALIBRATION, TINY, out=tmp_path / "calibration.json", extra_args=["-p", "size=64"],
                    cell=cell)
    run = load.read_results(out)
    assert set(run.frame["runtime"]) == {cell.id}
    assert run.provenance["runtime"] == cell.id
    assert run.provenance["command"].startswith(f"{java} -jar")
    assert f"-jvm {java}" in run.provenance["command"]
    assert run.provenance["jdk"]["java.version"].startswith(cell.jdk)
    assert f"-jvm {java}" in run.provenance["memory_command"]


def test_a_matrix_cut_into_shards_names_each_cells_shard_and_machine(data_dir, matrix_profile):
    from hotpath.paths import sidecar_of

    for cell, machine in ((Cell("17", "g1"), "runner-a"), (Cell("25", "g1"), "runner-b")):
        path = _cell_file(data_dir, matrix_file(matrix_profile, "writer", cell.id), cell, 10, 5)
        sidecar_of(path).write_text(json.dumps({
            "shards": [{"shard": f"{1 if machine == 'runner-a' else 2}/2", "machine": machine,
                        "folder": "x"}], "shard_count": 2, "machines": [machine]}))
    m = matrix.Matrix("writer", matrix_profile)
    sources = m.sources().set_index("cell")
    assert sources.loc["jdk17-g1", "machine"] == "runner-a" and sources.loc["jdk25-g1", "shard"] == "2/2"
    assert m.machines() == ["runner-a", "runner-b"]


def test_an_unsharded_matrix_names_no_machine(data_dir, matrix_profile):
    _cell_file(data_dir, matrix_file(matrix_profile, "writer", "jdk17-g1"), Cell("17", "g1"), 10, 5)
    m = matrix.Matrix("writer", matrix_profile)
    assert "machine" not in m.sources() and m.machines() == []


def test_each_sampled_cell_gives_its_rows_time_its_collectors_cpu_and_the_mechanisms_share(
        tmp_path, monkeypatch):
    from cpu_samples import BENCH, write_profiles
    from hotpath.analyze import cpu as C

    found = C.read_file(write_profiles(tmp_path / "x.cpu.json"))
    row = {"benchmark": BENCH, "class": "CodecBenchmark", "method": "encode",
           "params": "payload=STR_1K", "baseline": "old", "candidate": "optimized"}
    pairs = pd.DataFrame([{**row, "cell": c} for c in ("jdk25-zgc", "jdk17-g1", "jdk17-parallel")])
    # the known answer: old spends 90 of its 200 ns/op in Arrays.copyOf, new (110 ns/op) none
    monkeypatch.setattr(matrix.claims, "time_mechanism", lambda case_id, pair: ("self", r"Arrays\.copyOf"))
    table = matrix.time_by_cell("encoder", pairs, {"jdk17-g1": found, "jdk25-zgc": found,
                                                   "jdk17-parallel": C.EMPTY})
    assert list(table["cell"]) == ["jdk17-g1", "jdk25-zgc"]  # report order; unsampled left out
    first = table.iloc[0]
    assert first["benchmark"] == "Codec.encode(payload=STR_1K)"
    old, new = (float(x.removesuffix(" ns").replace(",", ""))
                for x in first["time per op, old → new"].split(" → "))
    assert old == pytest.approx(200, rel=0.06) and new == pytest.approx(110, rel=0.06)
    assert first["Δ ns/op (95% CI)"].startswith("−")
    assert first["the frame that changed most"].startswith("Arrays.copyOf (−")
    assert first["the mechanism's frames explain"].startswith(("9", "10"))  # ~100% of 90 saved
    assert " → " in first["the collector's CPU per op, old → new"]
    monkeypatch.setattr(matrix.claims, "time_mechanism", lambda case_id, pair: None)
    assert set(matrix.time_by_cell("encoder", pairs, {"jdk17-g1": found})[
        "the mechanism's frames explain"]) == {""}


def test_a_claim_names_its_time_mechanism_on_its_own_row_only():
    from hotpath.analyze import claims

    pair = pd.Series({"benchmark": "hotpath.encoder.EncoderPayloadBenchmark.encode",
                      "params": "payload=STR_1K", "baseline": "old", "candidate": "optimized"})
    assert claims.time_mechanism("encoder", pair) == ("self", r"arraycopy|Arrays\.copyOf")
    assert claims.time_mechanism("encoder", pair.replace("payload=STR_1K", "payload=STR_64")) is None
