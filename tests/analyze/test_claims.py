"""Claims as data, checked against a comparison with a known answer."""

import textwrap

import pandas as pd
import pytest

from hotpath.cases import CLAIM_FIELDS
from hotpath.analyze import claims, compare, load
from hotpath.errors import ResultsError


@pytest.fixture
def pairs(data_dir):
    frame = load.read_results(data_dir / "avgt-params-gc.json").frame
    return compare.pair(compare.by_param(frame, "size"), baseline="64").pairs


def write_claims(folder, rows):
    header = ",".join(CLAIM_FIELDS)
    (folder / "calib.csv").write_text(header + "\n" + textwrap.dedent(rows).strip() + "\n")


BENCH = "hotpath.calibration.KnownAllocationBenchmark.byteArray"


def test_claims_get_reproduced_contradicted_and_not_comparable(tmp_path, pairs):
    write_claims(tmp_path, f"""
        more,byteArray alloc grows,{BENCH},,gc.alloc.rate.norm,B/op,1024,80,1040,+1200%,
        less,byteArray alloc shrinks,{BENCH},,gc.alloc.rate.norm,B/op,1024,1040,80,-92%,
        e2e,broker TPS,,,score,ops/s,optimized,209000,217000,+3.8%,JDK 21 broker A/B
        time,byteArray time,{BENCH},,score,ns/op,1024,10,20,+100%,
    """)
    table = claims.check("calib", pairs, folder=tmp_path).set_index("claim")
    assert table.loc["byteArray alloc grows", "verdict"] == "reproduced"
    assert table.loc["byteArray alloc shrinks", "verdict"] == "contradicted"
    assert table.loc["byteArray alloc shrinks", "why"].endswith("where the write-up reports a decrease")
    assert table.loc["broker TPS", "verdict"] == "not comparable"
    assert "JDK 21" in table.loc["broker TPS", "why"]
    # two forks per side: no fork-level verdict, whatever the point estimate says
    assert table.loc["byteArray time", "verdict"] == "undecided"
    assert "too few forks" in table.loc["byteArray time", "why"]


def test_time_units_convert_for_comparison():
    assert claims._convert(1500.0, "ns/op", "us/op") == pytest.approx(1.5)
    assert claims._convert(2.0, "ops/ms", "ops/s") == pytest.approx(2000.0)


def test_within_error_claims_mean_no_change():
    row = pd.Series({"claimed_change": "within error", "old": 1.0, "new": 2.0})
    assert claims._claimed_direction(row) == "same"


def test_a_claims_file_missing_columns_is_refused(tmp_path):
    (tmp_path / "bad.csv").write_text("id,claim\nx,y\n")
    with pytest.raises(Exception, match="missing columns"):
        claims.load_claims("bad", tmp_path)


def test_gc_time_of_a_few_collections_is_not_a_direction():
    pair = pd.Series({"old_gc_time_pct": 0.0, "new_gc_time_pct": 0.4})
    claim = pd.Series({"metric": "gc.time"})
    old, new, unit, direction, point, why = claims._ours(pair, claim, None)
    assert direction is None and point is None and "too few" in why


def test_gc_claims_need_as_many_forks_as_time_verdicts():
    pair = pd.Series({"old_gc_time_pct": 10.0, "new_gc_time_pct": 30.0, "forks_old": 1, "forks_new": 1})
    claim = pd.Series({"metric": "gc.time"})
    old, new, unit, direction, point, why = claims._ours(pair, claim, None)
    assert direction is None and point == "up" and "too few forks" in why
    enough = pair.copy()
    enough["forks_old"] = enough["forks_new"] = 5
    assert claims._ours(enough, claim, None)[3] == "up"


def test_a_claimed_change_inside_the_band_is_confirmed_by_same():
    claim = pd.Series({"claimed_change": "-3%", "old": 100.0, "new": 97.0})
    assert claims._within_band(claim)
    assert not claims._within_band(pd.Series({"claimed_change": "-12%", "old": 100.0, "new": 88.0}))
    assert claims._within_band(pd.Series({"claimed_change": "−2.5%", "old": float("nan"),
                                          "new": float("nan")}))


def _slices(tmp_path, old: int, new: int):
    """A run's sites where old allocates ``old`` DirectByteBuffers per op and new ``new``."""
    import json

    from hotpath.analyze import sites as S
    from hotpath.records import SITES_FORMAT

    stack = "x/B.run;x/Store.select;java/nio/DirectByteBuffer.slice;java.nio.DirectByteBuffer_[i]"
    entries = [{"benchmark": "x.B.run", "params": {"variant": v}, "ops": 10, "jvm": "17",
                "outside": [0, 0], "stacks": [[n * 10, n * 640, stack]] if n else []}
               for v, n in (("old", old), ("optimized", new))]
    (tmp_path / "r.sites.json").write_text(json.dumps({"format": SITES_FORMAT, "entries": entries}))
    return S.read(tmp_path / "r.json")


SLICES = "sites.allocations:Store\\.select → .*: DirectByteBuffer"


def test_a_mechanism_claim_is_reproduced_only_where_its_stated_counts_are_measured(tmp_path):
    found = _slices(tmp_path, 64, 32)
    pairs = pd.DataFrame([{"benchmark": "x.B.run", "method": "run", "params": "", "baseline": "old",
                           "candidate": "optimized"}])
    write_claims(tmp_path, f"""
        as-said,buffers as stated,x.B.run,,{SLICES},allocations/op,optimized,64,32,one instead of two,
        one-off,buffers one off,x.B.run,,{SLICES},allocations/op,optimized,64,31,one instead of two,
        no-counts,buffers fewer,x.B.run,,{SLICES},allocations/op,optimized,,,fewer buffers,
        old-only,buffers from 64,x.B.run,,{SLICES},allocations/op,optimized,64,,fewer buffers,
    """)
    table = claims.check("calib", pairs, folder=tmp_path, sites=found).set_index("claim")
    ok = table.loc["buffers as stated"]
    assert ok["verdict"] == "reproduced"
    assert "counts as stated: stated 64 → 32, measured 64 → 32" in ok["why"]
    # the same direction, one allocation a call away from what the claim states
    off = table.loc["buffers one off"]
    assert (off["ours_old"], off["ours_new"]) == (64.0, 32.0)
    assert off["verdict"] == "contradicted"
    assert "counts not as stated: stated 64 → 31, measured 64 → 32" in off["why"]
    # a claim without counts says it was checked for its direction alone
    bare = table.loc["buffers fewer"]
    assert bare["verdict"] == "reproduced" and claims.DIRECTION_ONLY in bare["why"]
    # a count stated on one side is compared on that side
    assert table.loc["buffers from 64", "verdict"] == "reproduced"
    assert "stated 64 → ?" in table.loc["buffers from 64", "why"]


def test_a_stated_count_matches_within_the_tolerance_and_no_further():
    claim = pd.Series({"metric": "sites.allocations:x", "old": 32.0, "new": 0.0})
    assert claims.stated_counts(claim, 32.0 + claims.COUNT_TOLERANCE / 2, 0.0)[0] is True
    assert claims.stated_counts(claim, 31.0, 0.0)[0] is False
    assert claims.stated_counts(claim, 32.0, 0.06)[0] is False
    bytes_claim = pd.Series({"metric": "sites.bytes:x", "old": 1040.0, "new": 0.0})
    assert claims.stated_counts(bytes_claim, 1044.0, 0.0)[0] is True
    assert claims.stated_counts(bytes_claim, 1056.0, 0.0)[0] is False


CPU_ROW = pd.DataFrame([{"benchmark": "hotpath.x.CodecBenchmark.encode", "method": "encode",
                         "params": "payload=STR_1K", "baseline": "old", "candidate": "optimized"}])


def test_a_time_mechanism_is_reproduced_only_inside_the_share_it_expects(tmp_path, monkeypatch):
    from cpu_samples import BENCH, write_profiles
    from hotpath.analyze import cpu

    profiles = cpu.read_file(write_profiles(tmp_path / "x.cpu.json"))
    bench = CPU_ROW["benchmark"].iloc[0]
    write_claims(tmp_path, f"""
        inside,copy inside,{bench},payload=STR_1K,cpu.self:Arrays\\.copyOf,ns/op,optimized,,,less copying: 70–130% of the time saved,
        below,copy below,{bench},payload=STR_1K,cpu.total:Arrays\\.copyOf,ns/op,optimized,,,less copying: 10–40% of the time saved,
        caller,the caller,{bench},payload=STR_1K,cpu.total:Codec\\.encode,ns/op,optimized,,,less encoding: 50–100% of the time saved,
        anything,anything,{bench},payload=STR_1K,cpu.self:.,ns/op,optimized,,,less of all: 50–100% of the time saved,
        absent,absent,{bench},payload=STR_1K,cpu.total:Nowhere,ns/op,optimized,,,less of it: 50–100% of the time saved,
        kept,the checksum,{bench},payload=STR_1K,cpu.self:Checksum\\.update,ns/op,optimized,,,less checksumming: 20–60% of the time saved,
    """)
    table = claims.check("calib", CPU_ROW, folder=tmp_path, profiles=profiles).set_index("claim")
    assert table.loc["copy inside", "verdict"] == "reproduced"
    assert "(70%–130% expected)" in table.loc["copy inside", "why"]
    assert table.loc["copy below", "verdict"] == "contradicted"
    assert "outside the one expected" in table.loc["copy below", "why"]
    for caller in ("the caller", "anything"):
        assert table.loc[caller, "verdict"] == "not comparable"
        assert f"{claims.REFUSED}: the frames matching" in table.loc[caller, "why"]
    assert table.loc["absent", "verdict"] == "not comparable"
    assert claims.NOT_FOUND in table.loc["absent", "why"]
    # the checksum's 25 ns/op stayed: its change is not told from 0, whatever it expects
    assert table.loc["the checksum", "verdict"] == "undecided"
    assert "not told from 0" in table.loc["the checksum", "why"]
    # every time mechanism says where it was timed, refused and not found too
    assert table["why"].str.contains(claims.AT_FRAMES, regex=False).all()
    # the report's analysis hands its rows' attributions over: the same verdicts, none made again
    attributed = {(BENCH, "payload=STR_1K", "old", "optimized"): cpu.attribute(profiles, bench, "payload=STR_1K",
                                                                               "old", "optimized")}
    monkeypatch.setattr(cpu, "attribute", None)
    given = claims.check("calib", CPU_ROW, folder=tmp_path, profiles=profiles, attributed=attributed)
    pd.testing.assert_frame_equal(given.set_index("claim"), table)


@pytest.mark.parametrize("metric, change, error", [
    ("cpu.time:x", "less: 10–20% of the time saved", "counts no frames"),
    ("cpu.self:x", "less time", "states the share of the time saved it expects"),
    ("cpu.total:x", "less: 60–20% of the time saved", "states the share of the time saved it expects"),
])
def test_a_time_mechanism_without_its_way_of_counting_or_its_share_is_an_error(tmp_path, metric, change,
                                                                               error):
    write_claims(tmp_path, f"t,time,x.B.run,,{metric},ns/op,optimized,,,{change},")
    with pytest.raises(ResultsError, match=error):
        claims.check("calib", CPU_ROW, folder=tmp_path)


def test_a_share_beyond_the_whole_change_is_said_in_words():
    from hotpath.stats import shares

    more = claims.explained_text(shares.Difference(100, 0, -120, -80, 0.01), shares.Share(1.25, 1.1, 1.4), 80)
    assert "125% (110%–140%) of the row's 80.0 ns/op saved: these frames' time fell by more" in more
    against = claims.explained_text(shares.Difference(10, 20, 5, 15, 0.01), shares.Share(-0.1, -0.2, -0.05), 100)
    assert "moved against the row's" in against
    inside = claims.explained_text(shares.Difference(100, 50, -60, -40, 0.01), shares.Share(0.5, 0.4, 0.6), 100)
    assert inside.endswith("of the row's 100 ns/op saved")


def test_a_saving_the_verdict_counts_otherwise_says_both():
    """The frames sum each fork's mean over its counted iterations; the verdict may take a low
    quantile of them: where the two part, the claim says the verdict's saving beside."""
    from hotpath.analyze import cpu
    from hotpath.stats import shares

    text = claims.explained_text(shares.Difference(100, 50, -60, -40, 0.01), shares.Share(0.5, 0.4, 0.6), 100,
                                 verdict=80)
    assert text.endswith("of the row's 100 ns/op saved by the mean of its counted iterations, "
                         "80.0 saved by the verdict's figures")
    a = cpu.Attribution(None, None, shares.Difference(1_000, 900, -120, -80, 0.01), None, None, None)
    assert a.parts_from(900, 850) and not a.parts_from(980, 880) and not a.parts_from(float("nan"), 850)
    assert cpu.verdict_ns(pd.Series({"old_score": 2.0, "new_score": 1.0, "unit": "us/op"})) == pytest.approx((2_000, 1_000))


def test_a_part_claim_is_checked_on_its_mechanism_alone_in_the_run_of_the_mechanisms(tmp_path):
    """mechanism_runs' marshaller: trimless alone takes 1,000 ns/op to 741 (a 259 ns saving);
    one-scope alone 1,000 to 951."""
    from mechanism_runs import FULL, _frame

    from hotpath.analyze import mechanisms

    bench = "hotpath.marshaller.MarshallerMechanismsBenchmark.marshalToStream"
    write_claims(tmp_path, f"""
        trim,trim copy alone,{bench},size=1024,part.time,ns/op,old+trimless,43.7,18.8,-24.9 ns,,trimless
        slower,scope alone slower,{bench},size=1024,part.time,us/op,old+one-scope,1.0,1.2,+20%,,one-scope
        away,trim copy alone at 64 B,{bench},size=64,part.time,ns/op,old+trimless,4.96,2.14,-57%,,trimless
    """)
    found = mechanisms.Found(tuple(mechanisms.decompositions(_frame(FULL))), tmp_path / "marshaller.json")
    table = claims.check("calib", pd.DataFrame(), folder=tmp_path, parts=found).set_index("claim")
    trim = table.loc["trim copy alone"]
    assert trim["verdict"] == "reproduced" and 700 < trim["ours_new"] < 780 and 950 < trim["ours_old"] < 1050
    assert "trimless alone on the whole call: −2" in trim["why"] and "−24.9 ns/op lies outside" in trim["why"]
    slower = table.loc["scope alone slower"]
    assert slower["verdict"] == "contradicted" and slower["ours_unit"] == "us/op" and slower["ours_new"] < 1
    away = table.loc["trim copy alone at 64 B"]
    assert away["verdict"] == "not comparable" and away["why"].startswith("trimless alone not measured: make mechanisms")
    assert claims.check("calib", pd.DataFrame(), folder=tmp_path)["verdict"].eq("not comparable").all()
    write_claims(tmp_path, f"both,two at once,{bench},size=1024,part.time,ns/op,old+a,1,2,+1 ns,,trimless+one-scope")
    with pytest.raises(ResultsError, match="names the one mechanism"):
        claims.check("calib", pd.DataFrame(), folder=tmp_path, parts=found)
