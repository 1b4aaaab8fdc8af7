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
