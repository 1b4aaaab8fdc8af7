"""A run's folder (hotpath.runs): read, written and joined as its files lie, byte for byte."""

import json

import pytest

from hotpath import runs
from hotpath.errors import ResultsError

BENCH = "a.B.x"


def entries(size, score=1.0):
    return [{"benchmark": BENCH, "mode": "avgt", "params": {"size": size},
             "primaryMetric": {"score": score, "scoreUnit": "ns/op", "rawData": [[score]]}}]


def test_a_cases_files_are_named_after_it_and_its_builds_run_after_their_roles():
    zip_ = runs.case("zip")
    assert (zip_.results(), zip_.provenance, zip_.rounds) == ("zip.json", "zip.provenance.json", "rounds/zip")
    assert list(zip_.pass_files()) == ["zip.memory.json", "zip.peak.json", "zip.sites.json",
                                      "zip.cpu.json"]
    assert runs.BUILDS.provenance == "ab.json"
    assert list(runs.BUILDS.pass_files()) == ["baseline.memory.json", "candidate.memory.json",
                                              "ab.peak.json", "ab.sites.json", "ab.cpu.json"]


def test_a_written_run_reads_back_as_its_bytes_and_a_stale_pass_is_removed(tmp_path):
    jmh = b'[\n    {"benchmark": "a.B.x", "mode": "avgt", "primaryMetric": {"score": 1, "scoreUnit": "ns/op"}}\n]'
    (tmp_path / "c.sites.json").write_text("{}")  # an earlier run's sites
    (tmp_path / "c.peak.json").write_text("[]")
    run = runs.Run(runs.case("c"), {"c": jmh}, rounds={"round-01-old-0001.json": jmh},
                   provenance={"case": "c", "sha256": "x"})
    run.put("memory", b"[]")
    runs.dump(run, tmp_path)
    assert (tmp_path / "c.json").read_bytes() == jmh  # as JMH wrote it
    assert not (tmp_path / "c.sites.json").exists() and not (tmp_path / "c.peak.json").exists()
    assert (tmp_path / "c.provenance.json").read_text() == json.dumps(run.provenance, indent=2) + "\n"
    back = runs.load(tmp_path, runs.case("c"), rounds=True)
    assert (back.results, back.passes, back.provenance, back.rounds) == (
        run.results, {"c.memory.json": b"[]"}, run.provenance, run.rounds)
    assert back.entries()[0]["benchmark"] == BENCH and back.passed("sites") is None
    assert not list(tmp_path.rglob("*.partial"))


def test_a_run_without_rounds_leaves_the_earlier_rounds_and_a_missing_results_file_is_named(tmp_path):
    (tmp_path / "rounds" / "c").mkdir(parents=True)
    (tmp_path / "rounds" / "c" / "r.json").write_text("[]")
    runs.dump(runs.Run(runs.case("c"), {"c": b"[]"}), tmp_path)
    assert (tmp_path / "rounds" / "c" / "r.json").is_file()
    with pytest.raises(ResultsError, match="other.json: no such results file"):
        runs.load(tmp_path, runs.case("other"))


def test_two_builds_run_replaces_its_folder_whole(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "stale.json").write_text("[]")
    run = runs.Run(runs.BUILDS, {r: json.dumps(entries("64")).encode() for r in runs.ROLES},
                   provenance={"kind": "ab"}, rounds={})
    run.put("memory", b"[1]", "candidate")
    runs.dump(run, out)
    assert sorted(p.name for p in out.iterdir()) == ["ab.json", "baseline.json", "candidate.json",
                                                    "candidate.memory.json", "rounds"]
    assert not list(tmp_path.glob(".*"))


def test_shards_join_side_by_side_each_pass_as_it_joins(tmp_path):
    def shard(size, sites=True, peaks=None):
        run = runs.Run(runs.case("c"), {"c": json.dumps(entries(size)).encode()},
                       rounds={"round-01.json": b"[]"})
        run.put("memory", json.dumps(entries(size, 2.0)).encode())
        if sites:
            run.put("sites", runs.sites_text({"format": "f", "command": size, "entries": [
                {"benchmark": BENCH, "params": {"size": size}}]}).encode())
        run.put("peaks", peaks)
        return run

    joined = runs.join({"shard-1-of-2": shard("64", peaks=b"[7]"), "shard-2-of-2": shard("1024")})
    assert [e["params"]["size"] for e in joined.entries()] == ["64", "1024"]
    assert joined.results["c"].endswith(b"]\n")
    assert len(json.loads(joined.passed("memory"))) == 2
    assert joined.passed("peaks") == b"[7]"  # measured by the shard holding the first rows
    assert json.loads(joined.passed("sites"))["command"] == "64 ;; 1024"
    assert sorted(joined.rounds) == ["shard-1-of-2-round-01.json", "shard-2-of-2-round-01.json"]
    # a pass one shard lacks is no pass of the joined run: no half a pass
    assert runs.join({"a": shard("64"), "b": shard("1024", sites=False)}).passed("sites") is None
