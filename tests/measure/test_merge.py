"""The shards of one run joined into the usual layout, and a wrong shard refused in one line
before anything is written."""

import json

import pytest

from hotpath.errors import HotpathError
from hotpath.measure import merge

BENCH = "hotpath.encoder.EncoderPayloadBenchmark.encode"


def entry(payload, variant, score):
    return {"benchmark": BENCH, "mode": "avgt", "params": {"payload": payload, "variant": variant},
            "primaryMetric": {"score": score, "scoreUnit": "ns/op", "rawData": [[score]]}}


def shard(tmp_path, index, count, payloads, commit="a" * 40, profile="quick", machine=None):
    folder = tmp_path / f"{index}-of-{count}"
    folder.mkdir()
    entries = [entry(p, v, 100.0 if v == "old" else 50.0) for p in payloads for v in ("old", "optimized")]
    (folder / "encoder.json").write_text(json.dumps(entries))
    (folder / "encoder.memory.json").write_text(json.dumps([entry(p, "old", 1.0) for p in payloads]))
    rounds = folder / "rounds" / "encoder"
    rounds.mkdir(parents=True)
    (rounds / "round-01-old-0001.json").write_text(json.dumps(entries[:1]))
    (folder / "encoder.provenance.json").write_text(json.dumps({
        "case": "encoder", "profile": profile, "git_commit": commit, "started": "2026-11-26T04:00:00",
        "duration_s": 60.0,
        "sequential": {"budget_s": 100.0, "spent_s": 90.0, "forks_run": 8,
                       "rows": [{"benchmark": BENCH, "params": f"payload={p}", "candidate": "optimized",
                                 "verdict": "faster"} for p in payloads]},
        "shard": {"index": index, "count": count, "machine": machine or f"runner-{index}",
                  "units": [{"case": "encoder", "benchmark": BENCH, "params": {"payload": p}}
                            for p in payloads]}}))
    return folder


def test_two_shards_merge_into_one_results_file_each_row_naming_its_machine(tmp_path):
    a = shard(tmp_path, 1, 2, ["STR_64", "STR_1K"])
    b = shard(tmp_path, 2, 2, ["BYTES_8K"])
    out = tmp_path / "merged"
    written = merge.merge([b, a], "quick", out)
    assert written == [out / "encoder.json"]
    merged = json.loads((out / "encoder.json").read_text())
    assert {(e["params"]["payload"], e["params"]["variant"]) for e in merged} == {
        (p, v) for p in ("STR_64", "STR_1K", "BYTES_8K") for v in ("old", "optimized")}
    sidecar = json.loads((out / "encoder.provenance.json").read_text())
    assert sidecar["machines"] == ["runner-1", "runner-2"] and sidecar["shard_count"] == 2
    assert {r["params"]: r["machine"] for r in sidecar["sequential"]["rows"]} == {
        "payload=STR_64": "runner-1", "payload=STR_1K": "runner-1", "payload=BYTES_8K": "runner-2"}
    assert len(json.loads((out / "encoder.memory.json").read_text())) == 3
    assert len(list((out / "rounds" / "encoder").glob("shard-*"))) == 2


@pytest.mark.parametrize("make, message", [
    (lambda t: [shard(t, 1, 2, ["STR_64"]), shard(t, 2, 2, ["STR_1K"], commit="b" * 40)],
     "measured at commit bbbbbbbbbbbb, shard 1/2 at aaaaaaaaaaaa: not one run"),
    (lambda t: [shard(t, 1, 2, ["STR_64"])], "shard 2/2 is missing"),
    (lambda t: [shard(t, 1, 2, ["STR_64"]), shard(t, 2, 2, ["STR_64"])],
     "STR_64.* is in shard 1/2 and in shard 2/2: a row measured twice"),
    (lambda t: [shard(t, 1, 2, ["STR_64"]), shard(t, 2, 2, ["STR_1K"], profile="full")],
     "under profile full, not quick"),
])
def test_a_wrong_shard_gets_one_clear_line_and_nothing_is_written(tmp_path, make, message):
    out = tmp_path / "merged"
    out.mkdir()
    (out / "encoder.json").write_text("[]")  # an earlier good run
    with pytest.raises(HotpathError, match=message):
        merge.merge(make(tmp_path), "quick", out)
    assert (out / "encoder.json").read_text() == "[]"


def test_a_folder_that_is_not_a_shards_results_is_named(tmp_path):
    folder = tmp_path / "not-a-shard"
    folder.mkdir()
    with pytest.raises(HotpathError, match="no shard results in it"):
        merge.merge([folder], "quick", tmp_path / "out")


def test_a_shard_whose_case_did_not_finish_is_named(tmp_path):
    a = shard(tmp_path, 1, 2, ["STR_64"])
    b = shard(tmp_path, 2, 2, ["STR_1K"])
    sidecar = json.loads((b / "encoder.provenance.json").read_text())
    sidecar["shard"]["units"].append({"case": "store", "benchmark": "s.S.pull32", "params": {}})
    (b / "encoder.provenance.json").write_text(json.dumps(sidecar))
    with pytest.raises(HotpathError, match="shard 2/2 .* has no results for store: S.pull32"):
        merge.merge([a, b], "quick", tmp_path / "out")


# -- two builds ----------------------------------------------------------------------------------

WORK = "hotpath.calibration.KnownWorkBenchmark.work"


def builds_shard(tmp_path, index, count, sizes, jar="c" * 64, commit="a" * 40, machine=None,
                 memory=True):
    """A shard's run folder of two builds as hotpath.measure.ab writes it."""
    folder = tmp_path / f"builds-{index}-of-{count}"
    (folder / "rounds").mkdir(parents=True)
    rounds, order = [], []
    for role, side, score in (("baseline", "master", 100.0), ("candidate", "patch", 50.0)):
        entries = [{"benchmark": WORK, "mode": "avgt", "params": {"size": s},
                    "primaryMetric": {"score": score, "scoreUnit": "ns/op", "rawData": [[score]]}}
                   for s in sizes]
        (folder / f"{role}.json").write_text(json.dumps(entries))
        if memory:
            (folder / f"{role}.memory.json").write_text(json.dumps(entries))
        name = f"round-01-{side}-000{len(rounds) + 1}.json"
        (folder / "rounds" / name).write_text(json.dumps(entries))
        rounds.append(f"java -cp {side}.jar org.openjdk.jmh.Main -f 1 -rf json -rff rounds/{name}")
        order.append(side)
    side = lambda role, n: {"role": role, "name": n, "jars": [{"path": f"{n}.jar", "sha256": jar}],
                            "memory": {"status": "measured" if memory else "not measured",
                                       "why": "" if memory else "JMH 1.21 cannot load the profiler",
                                       "command": "x"}}
    (folder / "ab.json").write_text(json.dumps({
        "kind": "ab", "name": "run", "profile": "ab", "git_commit": commit, "duration_s": 30.0,
        "sides": {"baseline": side("baseline", "master"), "candidate": side("candidate", "patch")},
        "interleaved_rounds": rounds, "round_sides": order, "failed": [], "differences": [],
        "sequential": {"design": {"min_forks": 4, "cap": 24}, "budget_s": 60.0, "spent_s": 50.0,
                       "forks_run": 2,
                       "rows": [{"benchmark": WORK, "params": f"size={s}", "candidate": "patch",
                                 "verdict": "faster"} for s in sizes]},
        "shard": {"index": index, "count": count, "machine": machine or f"runner-{index}",
                  "units": [{"case": "run", "benchmark": WORK, "params": {"size": s}} for s in sizes]}}))
    return folder


def test_two_builds_shards_merge_into_one_run_every_row_naming_its_machine(tmp_path):
    a = builds_shard(tmp_path, 1, 2, ["64", "1024"])
    b = builds_shard(tmp_path, 2, 2, ["65536"])
    out = merge.merge_builds([b, a], tmp_path / "ab" / "run")
    for role in ("baseline", "candidate"):
        sizes = [e["params"]["size"] for e in json.loads((out / f"{role}.json").read_text())]
        assert sizes == ["64", "1024", "65536"]
    manifest = json.loads((out / "ab.json").read_text())
    assert "shard" not in manifest and manifest["shard_count"] == 2
    assert manifest["machines"] == ["runner-1", "runner-2"]
    assert {r["params"]: r["machine"] for r in manifest["sequential"]["rows"]} == {
        "size=64": "runner-1", "size=1024": "runner-1", "size=65536": "runner-2"}
    # every round command names a file that is there, its shard in its name
    for cmd in manifest["interleaved_rounds"]:
        assert (out / cmd.rsplit(" ", 1)[-1]).is_file() and "rounds/shard-" in cmd
    assert manifest["round_sides"] == ["master", "patch", "master", "patch"]
    assert manifest["sides"]["baseline"]["memory"]["status"] == "measured"
    assert len(json.loads((out / "baseline.memory.json").read_text())) == 3


def test_a_builds_shard_without_native_bytes_says_why_in_the_merged_run(tmp_path):
    out = merge.merge_builds([builds_shard(tmp_path, 1, 2, ["64"]),
                              builds_shard(tmp_path, 2, 2, ["1024"], memory=False)], tmp_path / "m")
    memory = json.loads((out / "ab.json").read_text())["sides"]["candidate"]["memory"]
    assert memory["status"] == "not measured" and memory["why"].startswith("shard 2/2: JMH 1.21")
    assert not (out / "candidate.memory.json").exists()


@pytest.mark.parametrize("make, message", [
    (lambda t: [builds_shard(t, 1, 2, ["64"]), builds_shard(t, 2, 2, ["1024"], jar="d" * 64)],
     "shard 2/2 .* measured other jars than shard 1/2"),
    (lambda t: [builds_shard(t, 1, 2, ["64"]), builds_shard(t, 2, 2, ["1024"], commit="b" * 40)],
     "with commit bbbb.*: not one run"),
    (lambda t: [builds_shard(t, 2, 2, ["64"])], "shard 1/2 is missing"),
    (lambda t: [builds_shard(t, 1, 2, ["64"]), builds_shard(t, 2, 2, ["64"])],
     r"KnownWorkBenchmark.work\(size=64\) is in shard 1/2 and in shard 2/2"),
])
def test_a_wrong_builds_shard_gets_one_clear_line_and_the_earlier_run_stays(tmp_path, make, message):
    out = tmp_path / "ab" / "run"
    out.mkdir(parents=True)
    (out / "ab.json").write_text("{}")  # an earlier run
    with pytest.raises(HotpathError, match=message):
        merge.merge_builds(make(tmp_path), out)
    assert (out / "ab.json").read_text() == "{}"
