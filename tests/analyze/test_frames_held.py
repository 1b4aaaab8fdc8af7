"""A time-mechanism claim's frames held to its mechanisms measured alone
(hotpath.analyze.mechanisms.frames_held), on a run made to a known answer: old spends 259 of its
1,000 ns/op in Arrays.copyOf, the trim copy, which trimless removes (old+trimless 741 ns/op) and
one-scope does not (old+one-scope 951 ns/op, its copy kept); optimized, both, 705 ns/op."""

import json

import numpy as np
import pandas as pd
from mechanism_runs import FULL, _frame

from hotpath.analyze import cpu
from hotpath.analyze import mechanisms as M
from hotpath.records import CPU_FORMAT
from hotpath.render.sections import heldto

BENCH = "hotpath.marshaller.MarshallerMechanismsBenchmark.marshalToStream"
WORKER = "[hotpath.marshaller.MarshallerMechanismsBenchmark.marshalToStream-jmh-worker-1]"
STUB = "hotpath/marshaller/jmh_generated/MarshallerMechanismsBenchmark_marshalToStream_jmhTest.marshalToStream_avgt_jmhStub"
STACKS = [f"{WORKER};{STUB};hotpath/marshaller/MechanismMarshaller.marshal",
          f"{WORKER};{STUB};hotpath/marshaller/MechanismMarshaller.marshal;java/util/Arrays.copyOf",
          f"{WORKER};{STUB};hotpath/marshaller/MechanismMarshaller.marshal;hotpath/marshaller/Scope.enter"]
#: per variant: its time per op (as mechanism_runs' frame has it), the copy's and the scope's ns
SIDES = {"old": (1000.0, 259.0, 49.0), "old+trimless": (741.0, 0.0, 49.0),
         "old+one-scope": (951.0, 259.0, 0.0), "optimized": (705.0, 0.0, 0.0)}


def _entry(variant: str, seed: int, forks: int = 6) -> dict:
    row_ns, copy_ns, scope_ns = SIDES[variant]
    rng = np.random.default_rng(seed)
    out = []
    for k in range(forks):
        host = rng.lognormal(0, 0.02)
        samples = 2000
        ops = int(samples * 1e7 / (row_ns * host))
        copy = int(round(samples * copy_ns / row_ns * rng.normal(1, 0.02)))
        scope = int(round(samples * scope_ns / row_ns * rng.normal(1, 0.02)))
        out.append({"fork": k, "first": 5, "iterations": 40, "ops": ops, "time_ns": row_ns * host,
                    "window_ns": 2 * 10 ** 10, "samples": [[0, samples - copy - scope], [1, copy], [2, scope]]})
    stacks = [s.split(";") for s in STACKS]
    frames = sorted({f for s in stacks for f in s})
    return {"benchmark": BENCH, "params": {"size": "1024", "variant": variant}, "engine": "cpu",
            "interval_ns": 10_000_000, "jvm": "17", "frames": frames,
            "stacks": [[frames.index(f) for f in s] for s in stacks], "forks": out}


def _profiles(tmp_path) -> cpu.Profiles:
    path = tmp_path / "marshaller.cpu.json"
    path.write_text(json.dumps({"format": CPU_FORMAT, "engine": "cpu", "recorded": "made for a test",
                                "entries": [_entry(v, k) for k, v in enumerate(SIDES)]}))
    return cpu.read_file(path)


def _claims(pattern: str, mechanisms: str) -> pd.DataFrame:
    return pd.DataFrame([{"id": "mech-time-copy", "claim": "time in the trim copy", "params": "size=1024",
                          "metric": f"cpu.total:{pattern}", "mechanisms": mechanisms}])


def _held(tmp_path, pattern: str, mechanisms: str) -> M.FramesHeld:
    found = M.Found(tuple(M.decompositions(_frame(FULL))), tmp_path / "marshaller.json")
    (held,) = M.frames_held(_claims(pattern, mechanisms), found, _profiles(tmp_path))
    return held


def test_the_copys_frames_agree_with_the_mechanism_that_removes_it(tmp_path):
    held = _held(tmp_path, r"Arrays\.copyOf", "trimless")
    # the frames: 259 of the 295 ns saved; the intervention: trimless's Shapley part, about
    # (259 + 246) / 2 of them, the two orders of applying it
    assert 0.80 < held.frames.share < 0.95 and held.frames.low < 259 / 295 < held.frames.high
    assert 0.80 < held.intervention.share < 0.92
    assert held.agree is True and held.why == ""
    assert heldto.agreement(held) == "agree"


def test_frames_of_a_mechanism_the_claim_does_not_name_disagree_and_say_what_moved(tmp_path):
    """The copy's frames named as one-scope's work: the frames still explain ~88% of the saving,
    one-scope alone pays ~15%, and the copy moved without one-scope."""
    held = _held(tmp_path, r"Arrays\.copyOf", "one-scope")
    assert held.agree is False and held.intervention.high < held.frames.low
    assert held.moved == ("Arrays.copyOf",)
    assert heldto.agreement(held).startswith("disagree; moved without one-scope alone: Arrays.copyOf")


def test_a_claim_on_a_row_its_mechanisms_were_not_measured_on_says_so(tmp_path):
    found = M.Found(tuple(M.decompositions(_frame(FULL))), tmp_path / "marshaller.json")
    claims = _claims(r"Arrays\.copyOf", "trimless").assign(params="size=64")
    (held,) = M.frames_held(claims, found, _profiles(tmp_path))
    assert held.frames is None and "not measured alone" in held.why
    claims = _claims(r"Arrays\.copyOf", "shared-null")
    (held,) = M.frames_held(claims, found, _profiles(tmp_path))
    assert "not measured alone" in held.why
    assert heldto.agreement(held).startswith("not held: its mechanisms were not measured alone")


def test_frames_that_name_the_caller_are_refused_and_the_intervention_still_shown(tmp_path):
    held = _held(tmp_path, r"MechanismMarshaller\.marshal", "trimless")
    assert held.frames is None and held.agree is None and "a caller of the mechanism" in held.why
    assert 0.80 < held.intervention.share < 0.92
    assert heldto.share_text(held.frames) == "—" and heldto.share_text(held.intervention).startswith("8")


def test_a_report_of_the_run_holds_the_cases_own_claim_and_lays_it_out(tmp_path):
    """The marshaller's committed claim (the trim copy's frames, trimless) on the run's own rows and
    samples, as a report's section."""
    from pathlib import Path

    from hotpath.analyze import compare
    from hotpath.analyze.load import Run
    from hotpath.analyze.report import Analysis
    from hotpath.cases import get_case

    _profiles(tmp_path)
    frame = _frame(FULL)
    analysis = Analysis(Run(Path(tmp_path / "marshaller.json"), frame, None), compare.pair(frame),
                        get_case("marshaller"))
    (held,) = analysis.frames_held
    assert held.claim == "mech-time-copy" and held.mechanisms == ("trimless",) and held.agree is True
    section = heldto.frames_held(analysis)
    assert section.heading.startswith("The frames held to the intervention")
    assert list(section.table["agree"]) == ["agree"] and section.table.loc[0, "mechanisms"] == "trimless"
    assert section.note.endswith("Both from the same run's forks: this report's run.")
