"""Whether a run is fit to be the reference, read on the committed runs: the 2026-11-30 11:23 run,
whose host was slowed through, is not; the reference (2026-11-30 23:10) is, and so is the one it
replaced (2026-11-24)."""

import math

import pytest

from hotpath.analyze import fitness
from hotpath.paths import REFERENCE, REFERENCE_RUNS, ROOT

TRIED = ROOT / "data" / "reference-runs" / "2026-11-30-1123"


@pytest.fixture(scope="module")
def tried():
    return fitness.of(TRIED)


def test_a_run_the_host_slowed_through_is_not_fit(tried):
    found = tried
    assert (found.rows, found.further) == (51, 42)
    assert found.fork_cv == pytest.approx(0.068, abs=0.0005) and found.aa_fork_cv == pytest.approx(0.014, abs=0.0005)
    assert found.slow == pytest.approx(0.33, abs=0.005) and found.aa_slow == pytest.approx(0.09, abs=0.005)
    assert not found.fit and found.said().startswith("not fit to be the reference: on the A/A's own rows (51 in both)")


def test_the_reference_is_fit_by_its_forks_and_its_probe():
    found = fitness.of(REFERENCE)
    assert (found.rows, found.further) == (54, 36) and found.fit
    assert found.fork_cv == pytest.approx(0.028, abs=0.0005) and found.slow == pytest.approx(0.042, abs=0.0005)


def test_the_reference_it_replaced_is_fit_by_its_forks_though_it_had_no_probe():
    found = fitness.of(REFERENCE_RUNS / "2026-11-24")
    assert found.rows == 54 and math.isnan(found.slow) and found.fit
    assert "no probe" in found.said()


@pytest.mark.parametrize("cv, slow, fit", [(0.02, 0.1, True), (0.021, 0.1, False), (0.02, 0.19, False),
                                           (0.02, math.nan, True)])
def test_a_run_is_fit_within_twice_the_aas_spread_and_slow_share(cv, slow, fit):
    assert fitness.Fitness(10, cv, 0.01, 5, slow, 0.09).fit is fit
    assert not fitness.Fitness(0, math.nan, math.nan, 0, math.nan, math.nan).fit


def test_make_bench_says_at_a_reference_runs_end_whether_it_is_fit(monkeypatch, capsys, tried):
    from hotpath import cli
    from hotpath.measure import study

    monkeypatch.setattr(study, "bench_cases", lambda *a, **k: iter([TRIED / "writer.json"]))
    monkeypatch.setattr(fitness, "of", lambda folder: tried if folder == TRIED else None)
    assert cli.main(["bench", "--case", "writer", "--profile", "reference", "--out", str(TRIED)]) == 0
    out = capsys.readouterr().out
    assert f"{TRIED}: not fit to be the reference: on the A/A's own rows" in out
    # a shard is half a run: said once the run is joined
    assert cli.main(["bench", "--case", "writer", "--profile", "reference", "--shard", "1/2"]) == 0
    assert "fit to be the reference" not in capsys.readouterr().out
    assert fitness.Fitness(0, math.nan, math.nan, 0, math.nan, math.nan).said().endswith("none of its rows is one of the A/A's")
