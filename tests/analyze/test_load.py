"""Loading real JMH output: every mode, with and without params and profilers, and bad files."""

import json
import math

import pytest

from hotpath.analyze import compare, load
from hotpath.errors import ResultsError


def metric(frame, method, metric_name, params=""):
    rows = frame[(frame["method"] == method) & (frame["metric"] == metric_name)
                 & (frame["params"] == params)]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def test_alloc_norm_matches_the_known_size_of_a_byte_array(data_dir):
    frame = load.read_results(data_dir / "avgt-params-gc.json").frame
    # byte[n] costs 16 + n bytes with compressed oops.
    assert metric(frame, "byteArray", "gc.alloc.rate.norm", "size=64")["score"] == pytest.approx(80, abs=0.5)
    assert metric(frame, "byteArray", "gc.alloc.rate.norm", "size=1024")["score"] == pytest.approx(1040, abs=0.5)
    assert metric(frame, "nothing", "gc.alloc.rate.norm", "size=64")["score"] < 0.5


def test_every_row_keeps_raw_values_per_fork(data_dir):
    frame = load.read_results(data_dir / "avgt-params-gc.json").frame
    primary = metric(frame, "byteArray", "score", "size=64")
    assert primary["forks_measured"] == 2
    assert [len(f) for f in primary["raw"]] == [3, 3]
    assert primary["unit"] == "ns/op" and primary["mode"] == "avgt"
    assert primary["measurement_time_s"] == pytest.approx(0.1)


def test_sample_mode_histograms_become_weighted_iteration_means(data_dir):
    frame = load.read_results(data_dir / "sample-noprof.json").frame
    primary = metric(frame, "byteArray", "score", "size=64")
    hist = primary["histogram"]
    fork0_it0 = hist[0][0]
    expected = sum(v * c for v, c in fork0_it0) / sum(c for _, c in fork0_it0)
    assert primary["raw"][0][0] == pytest.approx(expected)
    assert "p0.99" in set(frame["metric"])


def test_throughput_file_without_params_loads(data_dir):
    frame = load.read_results(data_dir / "thrpt-noalloc-gc.json").frame
    primary = metric(frame, "nothing", "score", "size=64")
    assert primary["unit"] == "ops/s"


def test_jmh_136_middle_dot_prefix_is_stripped(data_dir, tmp_path):
    entries = json.loads((data_dir / "avgt-params-gc.json").read_text())
    for e in entries:
        e["secondaryMetrics"] = {"·" + k: v for k, v in e["secondaryMetrics"].items()}
        del e["jmhVersion"]
    path = tmp_path / "old-jmh.json"
    path.write_text(json.dumps(entries))
    frame = load.read_results(path).frame
    assert "gc.alloc.rate.norm" in set(frame["metric"])
    assert not any(m.startswith("·") for m in frame["metric"])


def test_non_finite_strings_are_numbers():
    assert math.isnan(load.number("NaN"))
    assert load.number("+INF") == math.inf
    assert load.number("-INF") == -math.inf
    assert load.number(3) == 3.0
    read = load.numbers([1.5, 2, "NaN", "-INF", None])
    assert read[:2] == [1.5, 2.0] and all(type(v) is float for v in read)
    assert math.isnan(read[2]) and read[3] == -math.inf and math.isnan(read[4])


def test_params_are_kept_as_strings_and_variant_is_split_off(tmp_path, data_dir):
    entries = json.loads((data_dir / "avgt-params-gc.json").read_text())
    entries[0]["params"] = {"variant": "old", "entries": "30"}
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(entries))
    row = load.read_results(path).frame.iloc[0]
    assert row["variant"] == "old" and row["params"] == "entries=30"
    assert row["param_values"] == {"entries": "30"}


@pytest.mark.parametrize("content, message", [
    (None, "no such results file"),
    ("", "empty"),
    ("[{\"benchmark\": \"a.b\", \"mode\": \"avgt\", \"primaryMetric\": {\"sco", "truncated or corrupt JSON"),
    ("{}", "expected an array"),
    ("[]", "holds no benchmark results"),
    ("[{\"benchmark\": \"a.b\"}]", "entry 0 is not a JMH result"),
])
def test_bad_files_give_one_line_errors(tmp_path, content, message):
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ResultsError, match=message) as err:
        load.read_results(path)
    assert "\n" not in str(err.value)


def test_truncated_real_file_is_refused(tmp_path, data_dir):
    text = (data_dir / "avgt-params-gc.json").read_text()
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2])
    with pytest.raises(ResultsError, match="truncated"):
        load.read_results(path)


def test_sidecar_of_another_run_is_refused(tmp_path, data_dir):
    path = tmp_path / "r.json"
    path.write_text((data_dir / "thrpt-noalloc-gc.json").read_text())
    (tmp_path / "r.provenance.json").write_text(json.dumps({"sha256": "0" * 64}))
    with pytest.raises(ResultsError, match="another run"):
        load.read_results(path)


def test_a_recorded_fork_counts_from_its_steady_segment_in_every_metric():
    """Forks recorded from their start (-wi 0): the score, heap B/op and GC figures are those
    of each fork's steady segment, the same iterations for every metric."""
    import json

    from pathlib import Path

    import numpy as np

    from hotpath.stats import steady
    from hotpath.analyze.load import read_results

    path = Path(__file__).parent.parent / "data" / "steady" / "writer-optimized.json"
    entry = json.loads(path.read_text(encoding="utf-8"))[0]
    forks = steady.entry_forks(entry)
    assert all(f.kind == steady.WARMUP and f.first > 0 for f in forks)
    frame = read_results(path).frame.set_index("metric")
    raw = entry["primaryMetric"]["rawData"]
    steady_values = [v for fork, f in zip(raw, forks) for v in fork[f.first:]]
    assert frame.loc["score", "score"] == pytest.approx(np.mean(steady_values))
    assert frame.loc["score", "series"] == raw  # the whole recording stays, for the charts
    assert [d["kind"] for d in frame.loc["score", "steady"]] == [f.kind for f in forks]
    for metric in ("gc.alloc.rate.norm", "gc.count", "gc.time"):
        assert [len(f) for f in frame.loc[metric, "raw"]] == [f.window for f in forks], metric


def test_heap_and_gc_figures_never_take_a_forks_first_iterations():
    """Known answer on committed real forks: old zip LIST_1660K in the A/A allocated 33-44 MB in
    each fork's first 100 ms and 11.55 MB/op in every iteration after; whatever class a fork gets
    (flat from 0.0 s included), its heap B/op is the 11.55 MB, and the spread the allocation
    verdict is judged against is that of the counted iterations (a few bytes, not 30 MB)."""
    import json

    from hotpath.stats import steady
    from hotpath.analyze import compare
    from hotpath.analyze.load import tidy
    from hotpath.paths import AA_CALIBRATION

    entries = [e for name in ("baseline", "candidate")
               for e in json.loads((AA_CALIBRATION / f"{name}.json").read_text(encoding="utf-8"))
               if e["benchmark"].endswith("ZipMarshalBenchmark.marshalZip")
               and e["params"]["payload"] == "LIST_1660K"]
    assert len(entries) == 2
    kinds = set()
    for entry in entries:
        norm = entry["secondaryMetrics"]["gc.alloc.rate.norm"]["rawData"]
        assert min(fork[0] for fork in norm) > 30e6  # the first iterations, as recorded
        forks = steady.entry_forks(entry)
        kinds |= {f.kind for f in forks}
        assert all(f.first >= steady.UNCOUNTED for f in forks)
        heap = tidy([entry]).set_index("metric").loc["gc.alloc.rate.norm"]
        assert heap["score"] == pytest.approx(11.55e6, rel=0.01)
        assert all(max(fork) < 11.6e6 for fork in heap["raw"])
        side = compare.SideFigures.of(tidy([entry]).to_dict("records"))
        assert side.alloc.per_op == pytest.approx(11.55e6, rel=0.01)
        assert side.alloc.spread < 0.01 * side.alloc.per_op
    assert steady.FLAT in kinds  # a fork classed flat from 0.0 s is among them


@pytest.fixture
def in_a_render(tmp_path, monkeypatch):
    """A render's folder of the runs read, as hotpath.render.report sets it for its processes."""
    kept = tmp_path / "read-once"
    kept.mkdir()
    monkeypatch.setenv(load.READ_ONCE, str(kept))
    return kept


def _never(what: str):
    def called(*args, **kwargs):
        raise AssertionError(f"{what} a second time")
    return called


def test_a_render_parses_a_run_once_and_reads_it_again_from_its_folder(data_dir, tmp_path, monkeypatch, in_a_render):
    import pandas as pd

    kept = in_a_render
    results = tmp_path / "run.json"
    results.write_bytes((data_dir / "avgt-params-gc.json").read_bytes())
    first = load.read_results(results)
    assert len(list(kept.iterdir())) == 1
    with monkeypatch.context() as m:
        m.setattr(load, "read_side", _never("parsed"))
        again = load.read_results(results)
    pd.testing.assert_frame_equal(again.frame, first.frame)
    assert (again.source, again.provenance) == (first.source, first.provenance)

    # a file that changed is a run of its own: parsed, and kept beside the first
    results.write_bytes((data_dir / "avgt-params-gc-rerun.json").read_bytes())
    changed = load.read_results(results)
    assert len(list(kept.iterdir())) == 2
    assert not changed.frame["score"].reset_index(drop=True).equals(first.frame["score"].reset_index(drop=True))


def test_outside_a_render_no_run_is_kept(data_dir, tmp_path, monkeypatch):
    monkeypatch.delenv(load.READ_ONCE, raising=False)
    monkeypatch.chdir(tmp_path)
    load.read_results(data_dir / "avgt-params-gc.json")
    assert not list(tmp_path.iterdir())


def test_a_render_pairs_a_run_once_and_a_changed_run_again(data_dir, tmp_path, monkeypatch, in_a_render):
    import pandas as pd

    kept = in_a_render
    results = tmp_path / "run.json"
    results.write_bytes((data_dir / "avgt-variant-gc.json").read_bytes())
    first = compare.paired(load.read_results(results))
    assert not first.pairs.empty
    pd.testing.assert_frame_equal(first.pairs, compare.pair(load.read_results(results).frame).pairs)
    assert len(list(kept.glob("*.paired.pickle"))) == 1
    with monkeypatch.context() as m:
        m.setattr(compare, "pair", _never("paired"))
        again = compare.paired(load.read_results(results))
    pd.testing.assert_frame_equal(again.pairs, first.pairs)

    # the same run with its first benchmark twice as slow: paired anew
    entries = json.loads(results.read_text())
    metric = entries[0]["primaryMetric"]
    metric["rawData"] = [[2 * v for v in fork] for fork in metric["rawData"]]
    metric["score"] *= 2
    results.write_text(json.dumps(entries))
    changed = compare.paired(load.read_results(results))
    assert len(list(kept.glob("*.paired.pickle"))) == 2
    assert not changed.pairs.equals(first.pairs)


def test_outside_a_render_a_run_is_paired_at_each_call(data_dir, monkeypatch):
    monkeypatch.delenv(load.READ_ONCE, raising=False)
    calls = []
    real = compare.pair
    monkeypatch.setattr(compare, "pair", lambda frame: calls.append(1) or real(frame))
    run = load.read_results(data_dir / "avgt-params-gc.json")
    compare.paired(run), compare.paired(run)
    assert len(calls) == 2 and run.digest == ""
