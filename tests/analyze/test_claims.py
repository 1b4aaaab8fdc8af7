"""Claims as data, checked against a comparison with a known answer."""

import textwrap

import pandas as pd
import pytest

from hotpath.cases import CLAIM_FIELDS
from hotpath.analyze import claims, compare, load


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
    assert table.loc["byteArray time", "verdict"] == "inconclusive"
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
