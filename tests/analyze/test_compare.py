"""Pairing and normalization on real JMH output."""

import math

import pandas as pd
import pytest

from hotpath.analyze import compare, load


@pytest.fixture
def avgt(data_dir):
    return load.read_results(data_dir / "avgt-params-gc.json").frame


def test_two_param_values_in_one_file_pair_up(avgt):
    c = compare.pair(compare.by_param(avgt, "size"), baseline="64")
    assert set(c.pairs["method"]) == {"byteArray", "nothing"}
    row = c.pairs[c.pairs["method"] == "byteArray"].iloc[0]
    assert row["alloc_delta"] == pytest.approx(960, abs=1)  # byte[1024] - byte[64]
    assert row["alloc_verdict"] == "more"
    assert c.unpaired.empty


def test_two_classes_sharing_a_method_and_params_are_named_with_their_class(avgt):
    """A full run holds WriterCompressedMapBenchmark.compressedMapFields(entries=30) and
    WriterMechanismsBenchmark's: a table that named both by method and params alone showed one
    row twice, and their graphs' files took one name."""
    frame = pd.concat([compare.relabel(avgt, "old"), compare.relabel(avgt, "new")])
    mine = frame[frame["method"] == "byteArray"]
    other = mine.assign(benchmark=mine["benchmark"].str.replace(r"\.(\w+)\.byteArray$", ".OtherBenchmark.byteArray",
                                                                regex=True), **{"class": "OtherBenchmark"})
    pairs = compare.pair(pd.concat([frame, other]), baseline="old").pairs
    own = compare.pair(frame, baseline="old").pairs["class"].iloc[0].removesuffix("Benchmark")
    assert sorted(set(pairs["method"])) == sorted({f"{own}.byteArray", "Other.byteArray", "nothing"})
    # where no other class shares them, a row keeps its method's name
    assert set(compare.pair(frame, baseline="old").pairs["method"]) == {"byteArray", "nothing"}


def test_rows_without_variant_are_reported_unpaired_with_the_reason(avgt):
    c = compare.pair(avgt)
    assert c.pairs.empty
    assert (c.unpaired["reason"].str.contains("variant")).all()
    assert len(c.unpaired) == 4


def test_a_baseline_alone_is_unpaired(avgt):
    frame = compare.relabel(avgt, "old")
    c = compare.pair(frame)
    assert c.pairs.empty and (c.unpaired["reason"] == "no candidate variant beside it").all()


def test_two_files_pair_as_baseline_and_candidate(avgt):
    frame = pd.concat([compare.relabel(avgt, "base"), compare.relabel(avgt, "cand")])
    c = compare.pair(frame, baseline="base")
    assert len(c.pairs) == 4
    assert (c.pairs["ratio"] == 1.0).all()
    assert (c.pairs["alloc_verdict"] == "same").all()


def test_gc_count_and_time_are_normalized_by_what_was_measured(avgt):
    group = avgt[(avgt["method"] == "byteArray") & (avgt["params"] == "size=64")]
    norm = compare.gc_normalized(group)
    primary = group[group["metric"] == "score"].iloc[0]
    ops = sum(0.1 / (v * 1e-9) for fork in primary["raw"] for v in fork)
    assert norm["gc_count_per_mop"] == pytest.approx(5 / ops * 1e6)
    # 19 ms of GC over 2 forks x 3 iterations x 100 ms
    assert norm["gc_time_pct"] == pytest.approx(19 / 600 * 100)


def test_a_benchmark_without_alloc_metric_but_with_gc_profiler_allocates_nothing(avgt):
    group = avgt[(avgt["method"] == "nothing") & (avgt["params"] == "size=64")]
    group = group[group["metric"] != "gc.alloc.rate.norm"]
    frame = pd.concat([compare.relabel(group, "old"), compare.relabel(group, "optimized")])
    row = compare.pair(frame).pairs.iloc[0]
    assert row["old_alloc"] == 0.0 and row["new_alloc"] == 0.0


def test_summary_inverts_throughput_ratios(data_dir):
    frame = load.read_results(data_dir / "thrpt-noalloc-gc.json").frame
    a, b = compare.relabel(frame, "old"), compare.relabel(frame, "optimized")
    score = b["metric"] == "score"
    b.loc[score, "score"] *= 2  # twice the throughput = half the time
    b.loc[score, "raw"] = b.loc[score, "raw"].map(lambda forks: [[2 * v for v in f] for f in forks])
    c = compare.pair(pd.concat([a, b]))
    assert compare.summary(c)["time_geomean"] == pytest.approx(0.5)


def test_alloc_slope_counts_the_copies_of_the_payload(data_dir):
    frame = load.read_results(data_dir / "avgt-variant-gc.json").frame
    slopes = compare.alloc_slopes(compare.pair(frame).pairs, "size").set_index("variant")
    # old allocates one byte[size] (16 + size bytes): one copy per byte; optimized none.
    assert slopes.loc["old", "copies_per_byte"] == pytest.approx(1.0, abs=0.01)
    assert slopes.loc["old", "fixed_bytes"] == pytest.approx(16, abs=2)
    assert slopes.loc["optimized", "copies_per_byte"] == pytest.approx(0.0, abs=0.01)


def test_size_of_reads_one_numeric_param():
    assert compare.size_of("size=1024, payload=X", "size") == 1024.0
    assert math.isnan(compare.size_of("payload=X", "size"))


@pytest.fixture
def variants(data_dir):
    """hotpath's own output: the 'variant' @Param (old, optimized) beside a size @Param."""
    return load.read_results(data_dir / "avgt-variant-gc.json").frame


def test_two_runs_with_variants_keep_every_variant_apart(variants):
    c = compare.pair(pd.concat([compare.relabel(variants, "baseline"),
                                compare.relabel(variants, "candidate")]), baseline="baseline")
    assert len(c.pairs) == 4 and c.unpaired.empty  # 2 sizes x 2 variants
    assert {"size=64, variant=old", "size=64, variant=optimized"} <= set(c.pairs["params"])
    old_64 = c.pairs[c.pairs["params"] == "size=64, variant=old"].iloc[0]
    assert old_64["old_alloc"] == pytest.approx(80, abs=1)  # old's byte[64], not optimized's 0


def test_the_variant_param_itself_can_be_the_pairing_param(variants):
    c = compare.pair(compare.by_param(variants, "variant"), baseline="old")
    assert len(c.pairs) == 2 and set(c.pairs["params"]) == {"size=64", "size=4096"}


def test_pairing_on_another_param_keeps_the_variants_apart(variants):
    c = compare.pair(compare.by_param(variants, "size"), baseline="64")
    assert set(c.pairs["params"]) == {"variant=old", "variant=optimized"}


def test_two_results_for_one_benchmark_are_unpaired_not_guessed(variants):
    c = compare.pair(pd.concat([variants, variants[variants["params"] == "size=64"]]))
    assert set(c.pairs["params"]) == {"size=4096"}
    assert (c.unpaired["reason"].str.startswith("more than one result")).all()
    assert len(c.unpaired) == 2


def test_a_verdict_leaves_out_the_forks_that_ended_before_their_sides_slowdown():
    """As the plan's looks do (forkplan.Plan.figures): old's 2 s forks ran at 100 us/op, its 4 s
    fork slowed to 300 from 2.3 s; the verdict rests on the 4 s fork, counted from its slowdown
    (the slowed level is the path the row stays on), and says it left two out (with them: 0.29)."""
    import numpy as np

    from hotpath.analyze.load import tidy

    rng = np.random.default_rng(5)

    def series(n, slow_from=None):
        x = 100.0 * np.exp(rng.normal(0, 0.01, n))
        if slow_from is not None:
            x[slow_from:] *= 3.0
        return list(x)

    def entry(variant, forks):
        return {"benchmark": "hotpath.x.B.m", "mode": "avgt", "forks": len(forks),
                "warmupIterations": 0, "measurementIterations": max(len(f) for f in forks),
                "measurementTime": "100 ms", "params": {"variant": variant},
                "primaryMetric": {"score": 1.0, "scoreUnit": "us/op", "rawData": forks}}

    old = entry("old", [series(20), series(40, slow_from=23), series(20)])
    new = entry("optimized", [[v * 0.4 for v in series(20)] for _ in range(3)])
    row = compare.pair(tidy([old, new])).pairs.iloc[0]
    assert row["early_old"] == 2 and row["early_new"] == 0
    assert row["ratio"] == pytest.approx(40 / 300, rel=0.05)
    assert any("ended before the slowdown" in w for w in row["warnings"])


def _recorded(variant: str, time: float, faults: float) -> dict:
    series = [time * (1.0 + 0.01 * (k % 5)) for k in range(40)]
    return {"benchmark": "b.B.m", "mode": "avgt", "measurementTime": "100 ms",
            "warmupIterations": 0, "measurementIterations": 40, "params": {"variant": variant},
            "primaryMetric": {"score": time, "scoreUnit": "us/op", "rawData": [series] * 3},
            "secondaryMetrics": {"faults.norm": {"score": faults, "scoreUnit": "faults/op",
                                                 "rawData": [[faults] * 40] * 3}}}


def test_a_row_whose_sides_page_fault_differently_rests_on_the_mean_and_says_why():
    frame = load.tidy([_recorded("old", 200.0, 60.0), _recorded("optimized", 40.0, 0.0)])
    frame.attrs["sequential"] = {"design": {"cap": 8, "min_forks": 3}, "estimate": "p10", "rows": []}
    row = compare.pair(frame).pairs.iloc[0]
    assert row["old_faults"] == pytest.approx(60.0) and row["new_faults"] == 0.0
    assert row["estimate"] == "each fork's mean over its counted iterations"
    # 60 faults x 0.5 µs of about 204 µs (the series runs 0-4% above 200)
    assert "page faults differ by 14.7 points" in row["estimate_why"]
    calm = load.tidy([_recorded("old", 200.0, 1.0), _recorded("optimized", 40.0, 0.0)])
    calm.attrs["sequential"] = frame.attrs["sequential"]
    assert compare.pair(calm).pairs.iloc[0]["estimate_why"] == ""


def test_the_plan_and_the_analysis_take_a_rows_fork_figures_by_one_rule():
    """The sequential plan's looks (forkplan) and the report's verdict (compare) weigh the same
    forks alike: by p10 where the sides' page faults agree, by the mean where they differ, the
    forks that ended before their side's slowdown left out (hotpath.stats.rowfigures.verdict_figures)."""
    from hotpath.stats import rowfigures, steady

    for faults in (1.0, 60.0):
        old, new = _recorded("old", 200.0, faults), _recorded("optimized", 40.0, 0.0)
        frame = load.tidy([old, new])
        records = frame.to_dict("records")
        sides = [compare.SideFigures.of([r for r in records if r["variant"] == v])
                 for v in ("old", "optimized")]
        analysed = rowfigures.verdict_figures("p10", *(side.weighed(False) for side in sides))
        forks = [steady.entry_forks(e, "p10") for e in (old, new)]
        planned = rowfigures.verdict_figures("p10", *(rowfigures.SideForks.of(fs, [f.value for f in fs], "p10")
                                                  for fs in forks))
        assert analysed[2:] == planned[2:]
        assert analysed[0] == pytest.approx(planned[0]) and analysed[1] == pytest.approx(planned[1])
        assert analysed[2] == ("p10" if faults == 1.0 else steady.MEAN)
