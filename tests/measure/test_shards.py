"""A run cut into shards: row groups kept whole, balanced by cost, the same cut every time, and
the JSON a CI matrix takes."""

import json

import pytest

from hotpath.cases import get_case
from hotpath.errors import HotpathError
from hotpath.measure import forkplan, interleave, shards
from hotpath.measure.profiles import get_profile

LISTING = """Benchmarks:
hotpath.zip.ZipMarshalBenchmark.marshalZip
  param "payload" = {MAP_1600B, MAP_3K, MAP_132K, RANDOM_132K, LIST_1660K, LIST_8M}
  param "variant" = {old, buffered, unbuffered, floor, upstream}
"""
DECLARED = interleave.declared_params(LISTING)


def zip_plan():
    case = get_case("zip")
    profile = get_profile("quick")
    return forkplan.Plan(case, profile, forkplan.plan_rows(case, profile, DECLARED), DECLARED, 420.0)


def units(costs):
    return [shards.Unit("c", f"b.B.m{i}", (("n", str(i)),), cost) for i, cost in enumerate(costs)]


def test_a_shard_is_read_as_k_of_n_and_nothing_else():
    assert shards.parse("2/3") == (2, 3)
    for bad in ("3", "0/3", "4/3", "a/b", "", "1/0"):
        with pytest.raises(HotpathError, match="shard"):
            shards.parse(bad)


def test_a_row_group_keeps_every_side_its_rows_share():
    # zip's quick rows: LIST_1660K old serves buffered and unbuffered; one group, three sides
    groups = {dict(u.params)["payload"]: u for u in shards.units_of_plan(zip_plan())}
    assert groups["LIST_1660K"].rows == 2 and groups["MAP_3K"].rows == 1
    assert groups["LIST_1660K"].cost_s == pytest.approx(groups["MAP_3K"].cost_s * 3 / 2)


def test_the_cut_is_balanced_by_cost_and_holds_every_group_once():
    costs = [90, 70, 60, 50, 40, 30, 20, 10, 5]
    cut = shards.split(units(costs), 3)
    held = [u.key for s in cut for u in s.units]
    assert sorted(held) == sorted(u.key for u in units(costs)) and len(held) == len(set(held))
    loads = [s.cost_s for s in cut]
    assert max(loads) - min(loads) <= 10  # LPT: 125, 125, 125 here
    assert [s.label for s in cut] == ["1/3", "2/3", "3/3"]


def test_the_same_run_is_cut_the_same_way_whatever_order_its_groups_come_in():
    a = shards.split(units([30, 30, 20, 20, 10]), 2)
    b = shards.split(list(reversed(units([30, 30, 20, 20, 10]))), 2)
    assert [sorted(u.key for u in s.units) for s in a] == [sorted(u.key for u in s.units) for s in b]


def test_more_shards_than_row_groups_is_a_clear_error():
    with pytest.raises(HotpathError, match="cannot be cut into 4 shards"):
        shards.split(units([1, 2, 3]), 4)


def test_the_matrix_json_names_each_shard_as_make_bench_takes_it():
    cut = shards.split(units([30, 20, 10]), 2)
    matrix = json.loads(shards.dumps(cut))
    assert [e["shard"] for e in matrix["include"]] == ["1/2", "2/2"]
    assert sum(e["rows"] for e in matrix["include"]) == 3


def test_a_cases_once_only_measurements_go_to_the_shard_holding_its_first_group():
    cut = shards.split([shards.Unit("zip", "z.Z.m", (("p", "a"),), 10),
                        shards.Unit("zip", "z.Z.m", (("p", "b"),), 30)], 2)
    holders = [s.label for s in cut if s.holds_first("zip")]
    assert holders == [next(s.label for s in cut if ("z.Z.m", (("p", "a"),)) in s.keys("zip"))]


def test_a_builds_shard_keeps_its_rows_and_only_their_declared_values():
    from hotpath.measure import ab

    rows = [forkplan.Row("b.B.m", (("size", s), ("n", "1")), "patch", 24) for s in ("64", "1024", "8")]
    found = ab.Rows(rows, {"b.B.m": {"size": ["64", "1024", "8"], "n": ["1"]}}, [])
    mine = ab.in_shard(found, {("b.B.m", rows[1].key), ("b.B.m", rows[2].key)})
    assert [r.params for r in mine.rows] == [rows[1].params, rows[2].params]
    # one JMH run of the shard must not ask for another shard's size
    assert mine.declared == {"b.B.m": {"size": ["1024", "8"], "n": ["1"]}}


def test_a_shards_listing_counts_rows_cells_or_cases_as_it_was_cut():
    rows = shards.split(units([1.0, 2.0, 3.0]), 1)[0]
    cells = shards.split([shards.cell_of_case("encoder", c, 60.0) for c in ("jdk17-g1", "jdk21-g1")], 1)[0]
    whole = shards.split([shards.whole_case("zip", 60.0)], 1)[0]
    assert (shards.held(rows), shards.held(cells), shards.held(whole)) == ("3 rows", "2 cells", "1 case")
    assert shards.describe([cells]).startswith("shard 1/1: 2 cells, first looks about")
