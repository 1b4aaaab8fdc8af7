"""The allocation-site pass on real forks, held to answers known without it: an operation whose
allocations are known site by site, and encoder's STR_1K, whose write-up names its copies."""

from dataclasses import replace

import pytest

from hotpath.analyze import sites as S
from hotpath.cases import CASES, Case
from hotpath.measure import memory
from hotpath.measure.profiles import PROFILES
from hotpath.paths import JAR

pytestmark = [pytest.mark.forks,
              pytest.mark.skipif(not JAR.is_file(), reason="needs target/benchmarks.jar (make build)")]

KNOWN = Case(id="calibration", writeup="-", system="-", title="known sites", question="-",
             benchmarks=r"^hotpath\.calibration\.KnownAllocationSitesBenchmark\.")
#: quick's memory pass (no forks: one JVM), its site pass included
PASS = replace(PROFILES["quick"], name="sites-test")


def _pass(case: Case, tmp_path, extra: list[str]) -> S.Sites:
    untimed = tmp_path / f"{case.id}.memory.json"
    target = tmp_path / f"{case.id}.sites.json"
    command = memory.run_memory_pass(case, PASS, JAR, untimed, untimed, [], extra, sites_partial=target)
    assert "AllocSiteProfiler:dir=sites" in command and not (tmp_path / f"{target.name}.d").exists()
    return S.read_file(target)


#: JMH's harness allocates a few objects in a recorded iteration whatever its length (its
#: Blackhole's rare WeakReference, fewer than one per doubling of the operations, and what the
#: path that keeps it allocates): a bound on their count, not on their bytes per op, which grow
#: as a loaded machine runs fewer operations (0.72 B/op at 200).
HARNESS_PER_ITERATION = 64


def _harness_is_few(found: S.Sites, *side: str) -> None:
    harness = S.harness_side(found, *side)
    assert harness["allocations"].sum() <= HARNESS_PER_ITERATION, harness.to_dict("records")
    # and the counts are C2's code's: recorded after C2 had compiled the benchmark
    assert S.unsettled(found).empty, S.unsettled(found).to_dict("records")


def test_known_allocations_give_exactly_their_sites_counts_and_bytes(tmp_path):
    found = _pass(KNOWN, tmp_path, [])
    for size in (64, 1024):
        side = ("hotpath.calibration.KnownAllocationSitesBenchmark.sites", f"size={size}", "")
        got = {r.site: (r.allocs_per_op, r.bytes_per_op) for r in S.side(found, *side).itertuples()}
        array = 16 + size  # byte[size]: a 16-byte header, 8-byte aligned
        assert got == {
            "KnownAllocationSitesBenchmark.bytes: byte[]": (1.0, array),
            "KnownAllocationSitesBenchmark.longs: long[]": (2.0, 2 * 48.0),
            "KnownAllocationSitesBenchmark.copy → Arrays.copyOf: byte[]": (1.0, array),
        }, size
        _harness_is_few(found, *side)


def test_encoder_str_1k_old_and_optimized_give_the_write_ups_copies(tmp_path):
    payload = replace(CASES["encoder"], benchmarks=r"^hotpath\.encoder\.EncoderPayloadBenchmark\.encode$")
    found = _pass(payload, tmp_path, ["-p", "payload=STR_1K", "-p", "variant=old,optimized"])
    row = ("hotpath.encoder.EncoderPayloadBenchmark.encode", "payload=STR_1K")
    old = {r.site: r for r in S.side(found, *row, "old").itertuples()}
    new = {r.site: r for r in S.side(found, *row, "optimized").itertuples()}
    # old: the list grows twice, is trimmed once, and the stream's bytes are copied out per field
    assert old["ByteArrayList.ensure → Arrays.copyOf: byte[]"].allocs_per_op == 2.0
    assert old["ByteArrayList.entireArray → Arrays.copyOf: byte[]"].allocs_per_op == 1.0
    assert old["OldMemcacheEncoder.encodeMemcache → ByteArrayOutputStream.toByteArray → Arrays.copyOf: "
               "byte[]"].allocs_per_op == 2.0
    assert not any("ByteArrayOutputStream" in s or "ensure" in s or "entireArray" in s for s in new)
    # optimized: the packet at its exact size, once; the same B/op as -prof gc's in the reference
    packet = new["ByteArrayList.<init>: byte[]"]
    assert (packet.allocs_per_op, packet.bytes_per_op) == (1.0, 1080.0)
    # every byte the code allocates, exactly; the harness's few apart
    for side, total in (("old", 6648.0), ("optimized", 2200.0)):
        assert S.total(found, *row, side) == total, S.side(found, *row, side).to_dict("records")
        _harness_is_few(found, *row, side)


def test_a_finished_two_builds_run_gets_its_sites_only_from_the_jars_it_names(tmp_path):
    from hotpath.errors import HotpathError
    from hotpath.measure import ab, passes
    import json
    with pytest.raises(HotpathError, match="not a run of two builds"):
        ab.add_pass(passes.KINDS["sites"], tmp_path)
    side = {"name": "master", "given": "gone.jar", "kind": "jar", "entries": [str(tmp_path / "gone.jar")],
            "jars": [], "results": "baseline.json"}
    (tmp_path / "ab.json").write_text(json.dumps({"kind": "ab", "profile": "ab", "selection": {"include": "x"},
                                                  "sides": {"baseline": side, "candidate": side}}))
    with pytest.raises(HotpathError, match="gone.jar is missing: build it as the run did"):
        ab.add_pass(passes.KINDS["sites"], tmp_path)
    assert not (tmp_path / "ab.sites.json").exists() and not (tmp_path / ".ab.sites.json.partial.d").exists()
