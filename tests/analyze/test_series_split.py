"""A patch series split among its steps, from each step's run of two builds (hotpath.analyze.series)."""

import json

import pytest
from series_runs import BASELINE, series

from hotpath.analyze import mechanisms as M
from hotpath.analyze import series as S
from hotpath.errors import ResultsError


def test_each_row_is_split_among_the_steps_in_time_and_bytes_and_names_the_levels():
    found = S.found(series())
    assert (found.kind, found.levels, found.source.name) == (M.STEPS, (BASELINE, "c"), "w")
    [row] = found.rows
    assert row.mechanisms == ("a", "b", "c") and row.why == "" and row.estimate == "p10"
    b = row.time.alone["b"]
    # p10 of each fork sits a little below its level: a part is a ratio of them, which that cancels
    assert b.told_from_zero and b.low <= -0.30 <= b.high
    assert not row.time.alone["a"].told_from_zero and not row.time.alone["c"].told_from_zero
    assert sum(p.estimate for p in row.time.alone.values()) == pytest.approx(row.time.total.estimate, abs=1e-12)
    assert [row.bytes.alone[m].estimate for m in "abc"] == [0.0, -1040.0, 0.0]


def test_a_row_one_step_did_not_measure_says_so():
    s = series()
    frame = s.steps[1].run.frame
    s.steps[1].run.frame = frame[frame["variant"] == BASELINE]
    [row] = S.decompositions(s)
    assert row.time is None and row.why == "not measured on both sides in the run of b"


def test_a_run_of_two_builds_is_the_last_step_of_its_series_only(tmp_path):
    (tmp_path / "1-a").mkdir()
    (tmp_path / "2-b").mkdir()
    assert S.last_step_of(tmp_path / "2-b") is None  # no manifest: a run of its own
    (tmp_path / "series.json").write_text(json.dumps({"kind": "series", "steps": [
        {"name": n, "folder": f} for n, f in (("a", "1-a"), ("b", "2-b"))]}))
    assert S.last_step_of(tmp_path / "2-b") == tmp_path.resolve()
    assert S.last_step_of(tmp_path / "1-a") is None
    (tmp_path / "series.json").write_text("{")
    with pytest.raises(ResultsError, match="series.json: corrupt"):
        S.read(tmp_path)

