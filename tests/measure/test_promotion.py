"""A reference run promoted: the run's files into the reference's place, the reference's own kept by
its day first, its other runs' folders untouched; refused with nothing moved when the run is not
whole, not the reference profile's, from a dirty tree, not fit, or its day's folder exists; put
back when the copy fails half-way."""

import json
import math

import pytest

from hotpath.analyze import fitness
from hotpath.cases import existing_cases
from hotpath.cli import main
from hotpath.errors import HotpathError
from hotpath.measure import promotion
from hotpath.paths import ROOT

CASES = [c.id for c in existing_cases()]


def _run(folder, day, cpu="AMD EPYC", profile="reference", dirty=False, skip=()):
    """A run's folder as make bench writes it: each case's files (their text names the run) and
    its JMH rounds."""
    for case in CASES:
        for kind in ("json", "memory.json", "cpu.json"):
            if f"{case}.{kind}" not in skip:
                (folder / f"{case}.{kind}").parent.mkdir(parents=True, exist_ok=True)
                (folder / f"{case}.{kind}").write_text(f"{day} {case} {kind}")
        (folder / f"{case}.provenance.json").write_text(json.dumps(
            {"profile": profile, "started": f"{day}T10:00:00+00:00", "cpu_model": cpu, "git_dirty": dirty}))
        (folder / "rounds" / case).mkdir(parents=True)
        (folder / "rounds" / case / "round-001.json").write_text(f"{day} {case} round")
    return folder


def _tree(folder):
    return {p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def study(tmp_path):
    reference = _run(tmp_path / "reference", "2026-11-24")
    (reference / "aa").mkdir()
    (reference / "aa" / "ab.json").write_text("the A/A")
    (reference / "encoder.sites.json").write_text("2026-11-24 encoder sites")
    return reference, tmp_path / "reference-runs"


def test_the_run_takes_the_references_place_and_the_reference_is_kept_by_its_day(study, tmp_path):
    reference, runs = study
    before = _tree(reference)
    run = _run(tmp_path / "results" / "reference-next", "2026-12-01", cpu="Intel(R) Xeon(R) Processor")
    said = []
    kept = promotion.promote(run, reference, runs, log=said.append)
    assert kept == runs / "2026-11-24"
    assert _tree(kept) == {k: v for k, v in before.items() if not k.startswith("aa/")}
    after = _tree(reference)
    assert after == {**_tree(run), "aa/ab.json": "the A/A"}  # the old sites file went with its run
    assert len(after) == len(CASES) * 5 + 1
    assert said[0].endswith(f"the reference of 2026-11-24 (AMD EPYC) kept in {kept}")
    assert "the run of 2026-12-01 (Intel(R) Xeon(R) Processor) is the reference now" in said[1]


@pytest.mark.parametrize("how, says", [
    (dict(skip=("zip.memory.json",)), "zip.memory.json missing"),
    (dict(profile="full"), f"{', '.join(CASES)}: made by the 'full' profile, not the reference's"),
    (dict(dirty=True), f"{', '.join(CASES)}: made from a tree with uncommitted changes"),
])
def test_a_run_that_is_not_whole_is_refused_and_nothing_moves(study, tmp_path, how, says):
    reference, runs = study
    before = _tree(reference)
    run = _run(tmp_path / "run", "2026-12-01", **how)
    with pytest.raises(HotpathError, match=says):
        promotion.promote(run, reference, runs)
    assert _tree(reference) == before and not runs.exists()


def test_a_day_kept_already_is_refused_before_anything_moves(study, tmp_path):
    reference, runs = study
    (runs / "2026-11-24").mkdir(parents=True)
    before = _tree(reference)
    with pytest.raises(HotpathError, match="2026-11-24 exists"):
        promotion.promote(_run(tmp_path / "run", "2026-12-01"), reference, runs)
    assert _tree(reference) == before


def test_the_reference_itself_is_not_a_run_to_promote(study):
    reference, runs = study
    with pytest.raises(HotpathError, match="not a run's folder beside the reference"):
        promotion.promote(reference, reference, runs)


def test_a_copy_that_fails_half_way_puts_the_reference_back(study, tmp_path, monkeypatch):
    reference, runs = study
    before = _tree(reference)
    run = _run(tmp_path / "run", "2026-12-01")
    copy = promotion._copy
    calls = []

    def failing(paths, source, target):
        calls.append(target)
        if len(calls) == 2:  # the run's files: half of them, then the disk is full
            copy(paths[: len(paths) // 2], source, target)
            raise OSError(28, "No space left on device")
        copy(paths, source, target)

    monkeypatch.setattr(promotion, "_copy", failing)
    with pytest.raises(HotpathError, match="the reference is as it was, and kept in"):
        promotion.promote(run, reference, runs)
    assert _tree(reference) == before


def test_the_command_refuses_a_run_unfit_to_be_the_reference(study, tmp_path, monkeypatch, capsys):
    reference, runs = study
    monkeypatch.setattr(promotion, "REFERENCE", reference)
    monkeypatch.setattr(promotion, "REFERENCE_RUNS", runs)
    before = _tree(reference)
    unfit = fitness.Fitness(51, 0.068, 0.014, 42, 0.33, 0.09)
    monkeypatch.setattr(fitness, "of", lambda folder: unfit)
    run = _run(tmp_path / "run", "2026-12-01")
    assert main(["promote", str(run)]) == 2
    err = capsys.readouterr().err
    assert f"hotpath: {run}: not fit to be the reference: on the A/A's own rows (51 in both)" in err
    assert "the reference stays as it is" in err
    assert _tree(reference) == before and not runs.exists()

    monkeypatch.setattr(fitness, "of", lambda folder: fitness.Fitness(54, 0.022, 0.016, 30, math.nan, 0.09))
    assert main(["promote", str(run)]) == 0
    out = capsys.readouterr().out
    assert "fit to be the reference" in out and "then `make docs`" in out
    assert _tree(runs / "2026-11-24") == {k: v for k, v in before.items() if not k.startswith("aa/")}


def test_a_committed_run_by_another_profile_is_not_whole():
    wrong = promotion.whole(ROOT / "data" / "reference-runs" / "2026-11-30-1123")
    assert wrong == [f"{', '.join(CASES)}: made by the 'full' profile, not the reference's"]
    assert promotion.whole(ROOT / "data" / "reference") == []


def test_what_was_calibrated_on_the_2026_11_24_run_reads_it_where_it_is_kept(study, tmp_path, monkeypatch):
    from hotpath import paths

    reference, runs = study
    monkeypatch.setattr(paths, "REFERENCE", reference)
    monkeypatch.setattr(paths, "REFERENCE_RUNS", runs)
    assert paths.calibration_run() == reference
    promotion.promote(_run(tmp_path / "run", "2026-12-01"), reference, runs, log=lambda line: None)
    assert paths.calibration_run() == runs / paths.CALIBRATION_DAY
    assert (paths.calibration_run() / "encoder.json").read_text() == "2026-11-24 encoder json"
