"""The A/A run's analysis: false alarms counted, the model's prediction, the forks' structure,
and the sequential rule held to its bars on fork means resampled from the 2026-11-26 A/A run."""

import math

import numpy as np
import pandas as pd
import pytest

from hotpath.analyze import aa
from hotpath.paths import AA_CALIBRATION, AA_REFERENCE
from hotpath.measure.profiles import get_profile


def _forks(rows=8, rounds=12, cv=0.03, shared=0.0, seed=3):
    """Fork means of identical code, two sides, a round's two forks sharing ``shared`` of
    their noise (a neighbour's burst spanning both)."""
    rng = np.random.default_rng(seed)
    sd = math.sqrt(math.log(1 + cv * cv))
    records, order = [], 0
    for row in range(rows):
        for r in range(1, rounds + 1):
            common = rng.normal(0, sd) * math.sqrt(shared)
            for side in ("old-a", "old-b"):
                own = rng.normal(0, sd) * math.sqrt(1 - shared)
                records.append({"benchmark": f"hotpath.x.B{row}.m", "params": "variant=old", "side": side,
                                "round": r, "order": order, "mean": 100 * math.exp(common + own)})
                order += 1
    frame = pd.DataFrame(records)
    frame["position"] = frame["order"] / frame["order"].max()
    return frame


def test_resampled_forks_of_identical_code_keep_the_rules_bars():
    result = aa.resample(_forks(), cap=24, paths=2000)
    assert len(result) == 8
    assert (result["faster"] + result["slower"]).mean() <= 0.05
    assert result["coverage"].mean() >= 0.94


def test_rows_with_too_few_rounds_are_not_resampled():
    assert aa.resample(_forks(rows=2, rounds=aa.LEAST_ROUNDS - 1), paths=100).empty


def test_a_rounds_two_forks_moving_together_is_seen():
    together = aa.structure(_forks(rows=10, rounds=20, shared=0.8)).set_index("what")["observed"]
    apart = aa.structure(_forks(rows=10, rounds=20, shared=0.0)).set_index("what")["observed"]
    key = "a round's two forks: correlation of their residuals"
    assert float(together[key].split()[0]) > 0.6
    assert abs(float(apart[key].split()[0])) < 0.2


def test_counts_and_the_chance_of_so_many_alarms():
    table = pd.DataFrame({"case": ["a", "a", "b"], "verdict": ["same", "slower", "undecided"]})
    counts = aa.counts(table).set_index("case")
    assert counts.loc["all", "false alarms"] == 1 and counts.loc["a", "slower"] == 1
    assert counts.loc["b", "undecided"] == 1
    assert aa.chance_of_at_least([0.5, 0.5], 1) == pytest.approx(0.75)
    assert aa.chance_of_at_least([0.05] * 54, 0) == pytest.approx(1.0)
    # none alarmed: the chance of none, not of "0 or more" (every outcome)
    assert aa.odds_of([0.5, 0.5], 0) == ("none at all", pytest.approx(0.25))
    assert aa.odds_of([0.5, 0.5], 1) == ("1 or more", pytest.approx(0.75))


def test_the_rule_holds_its_bars_on_the_committed_aa_forks():
    """Real noise: per row, whole rounds of the 2026-11-26 A/A run resampled (a round's two forks
    together), centred, the rule run to the aa profile's cap: at most 5% of unchanged rows called
    faster or slower, intervals covering the truth in at least 94%."""
    run = aa.AA(AA_CALIBRATION)
    result = run.resample()
    assert len(result) >= 20, "too few rows of the A/A run have enough rounds to resample"
    alarms = result["faster"] + result["slower"]
    assert alarms.mean() <= 0.05, result.assign(alarms=alarms).sort_values("alarms").tail(5)
    assert result["coverage"].mean() >= 0.94


def test_quicks_first_look_at_three_forks_holds_the_bars_on_the_committed_aa_forks():
    """quick's design (three forks per side at its first look, a cap of 8) on the same real
    noise: its standard errors rest on fewer forks, and the calibrated boundaries pay for it."""
    quick = get_profile("quick")
    result = aa.resample(aa.AA(AA_CALIBRATION).forks, cap=quick.forks, min_forks=quick.min_forks)
    assert len(result) >= 20
    alarms = result["faster"] + result["slower"]
    assert alarms.mean() <= 0.05, result.assign(alarms=alarms).sort_values("alarms").tail(5)
    assert result["coverage"].mean() >= 0.94


def test_the_rule_holds_its_bars_on_the_committed_aa_forks_by_their_10th_percentile():
    """The adopted fork estimate on the same real noise: each fork of the 2026-11-26 A/A by the
    10th percentile of its counted iterations, quick's design and the aa profile's: the false
    alarms stay within the 5% (measured: 1.2% quick, 0.6% aa), and the forks are tighter (the fork
    CV it rests on). The intervals cover a little less than on the means (93.3% quick, 96.4% aa,
    against 96.1% and 98.1%): a 10th percentile's fork figures have heavier tails, which quick's
    three-fork first look feels most; the bar is 93% for it (docs/method.md)."""
    run = aa.AA(AA_CALIBRATION)
    low = aa.forks(run.run, "p10")
    for profile in (get_profile("quick"), get_profile("aa")):
        assert profile.estimate == "p10"
        result = aa.resample(low, cap=profile.forks, min_forks=profile.min_forks)
        assert len(result) >= 20
        alarms = result["faster"] + result["slower"]
        assert alarms.mean() <= 0.05, result.assign(alarms=alarms).sort_values("alarms").tail(5)
        assert result["coverage"].mean() >= (0.93 if profile.min_forks < 4 else 0.95)

    def median_cv(frame):
        cv = frame.groupby(["benchmark", "params", "side"])["mean"].agg(lambda x: x.std(ddof=1) / x.mean())
        return float(cv.dropna().median())
    assert median_cv(low) < 0.6 * median_cv(aa.forks(run.run, "mean"))


def test_a_side_or_an_order_that_is_slower_is_seen():
    forks = _forks(rows=10, rounds=20, cv=0.03)
    key = "sides: the second side's fork against the first's in a round (mean, 95% CI)"
    fair = aa.structure(forks).set_index("what")["observed"][key]
    slower = forks.assign(mean=forks["mean"].where(forks["side"] == "old-a", forks["mean"] * 1.10))
    unfair = aa.structure(slower).set_index("what")["observed"][key]
    def mean(text):
        return float(text.split(": ")[1].split("%")[0])
    assert abs(mean(fair)) < 1.5
    assert 8.5 < mean(unfair) < 11.5


def test_a_run_without_cpu_samples_has_no_false_frames_to_count():
    # the 2026-11-26 A/A run predates the timed forks' CPU tail
    frames = aa.AA(AA_CALIBRATION).false_frames()
    assert frames.empty and {"tested", "called", "forks"} <= set(frames.columns)


def test_at_most_5_percent_of_the_reference_aas_rows_call_a_frame_changed():
    """The reference A/A, made with the timed forks' CPU tail: every frame its rows' attribution
    calls changed is a false frame. Benjamini-Hochberg's 5% bounds, where nothing changed, the
    share of rows (the families it is applied to) that call any frame: the bar is on rows."""
    frames = aa.AA(AA_REFERENCE).false_frames()
    testing = frames[frames["tested"] > 0]
    assert len(testing) >= 40 and int(testing["tested"].sum()) >= 100, frames
    assert (testing["called"] > 0).sum() <= 0.05 * len(testing), testing[testing["called"] > 0]


def test_the_forks_read_from_the_rounds_are_the_forks_the_verdicts_counted():
    """The reference A/A's rounds carry each timed fork's CPU tail (3 iterations after the 40
    counted): the forks' structure is read without it, each fork the figure its merged side has."""
    import json

    from hotpath.analyze import ab
    from hotpath.stats import steady

    run = ab.read(AA_REFERENCE)
    estimate = run.manifest["sequential"]["estimate"]
    from_rounds = sorted(aa.forks(run, estimate)["mean"])
    merged = sorted(fork.value for name in ("baseline.json", "candidate.json")
                    for entry in json.loads((AA_REFERENCE / name).read_text(encoding="utf-8"))
                    for fork in steady.entry_forks(entry, estimate))
    assert len(from_rounds) == len(merged) == 1052
    assert from_rounds == merged
