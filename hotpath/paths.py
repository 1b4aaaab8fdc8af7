"""Every path derives from the project root (the folder holding pyproject.toml)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("HOTPATH_ROOT") or Path(__file__).resolve().parents[1])
JAR = ROOT / "target" / "benchmarks.jar"
RESULTS = ROOT / "data" / "results"
#: The committed reference data set (profile "reference"); local runs go under RESULTS.
REFERENCE = ROOT / "data" / "reference"
#: Earlier reference runs, each kept by the day it started once a newer run took its place
#: (make promote), and runs judged not fit to be the reference, by theirs.
REFERENCE_RUNS = ROOT / "data" / "reference-runs"
#: The reference run the fork estimates (hotpath.measure.prior) and the A/A's rows were set on:
#: that of 2026-11-24 (AMD EPYC, 4 to 24 forks per side, unrecorded).
CALIBRATION_DAY = "2026-11-24"
#: The default `make report` as fresh clones ran it: one line per clone (time, rows decided).
DEFAULT_RUNS = ROOT / "data" / "default-runs.tsv"
CLAIMS = ROOT / "data" / "claims"
#: Per case: the allocation floor of every benchmark (<case>.csv) and the price of the floor
#: variant's moves (<case>.md).
FLOORS = ROOT / "data" / "floors"
#: Per case and benchmark: why the released code and our old model still differ, where they do.
FIDELITY_NOTES = ROOT / "data" / "fidelity" / "notes.csv"
#: The types a release's allocation site may be paired with, other than its own, and why.
SITE_EQUIVALENCES = ROOT / "data" / "fidelity" / "site-equivalences.csv"
REPORTS = ROOT / "reports"
#: A patch series' reports, one folder per series (reports/series/<name>/).
SERIES_REPORTS = REPORTS / "series"
#: The profile `make report` runs unless told otherwise: its reports are reports/<case>/.
DEFAULT_PROFILE = "quick"
#: Two builds measured against each other (make report BASELINE=a.jar CANDIDATE=b.jar): one
#: folder per run; the committed demonstrations sit under REFERENCE / "ab".
AB_RESULTS = RESULTS / "ab"
AB_REFERENCE = REFERENCE / "ab"
#: A patch series (make report BASELINE=master.jar STEPS=a.jar,b.jar): one folder per series, a
#: run of two builds per step in it; its report goes to SERIES_REPORTS / <name>.
SERIES_RESULTS = RESULTS / "series"
#: The A/A run (make aa): the reference's rows, old against old, committed beside the reference.
AA_REFERENCE = REFERENCE / "aa"
#: A/A runs kept by their day; the quiet one of 2026-11-26 (commit 11b6c85, before the timed
#: forks' CPU tail) is what the designs were calibrated on: quick's first fork lengths, the host
#: check's row, the replays and the tests on real forks.
AA_RUNS = ROOT / "data" / "aa-runs"
AA_CALIBRATION = AA_RUNS / "2026-11-26"
#: The committed run of the patches' mechanisms (make mechanisms REPLACE=mechanisms): each of a
#: patch's mechanisms alone and in combination against old, whose parts the reference's case
#: reports split their change among; a local run of it stays in RESULTS / "mechanisms".
MECHANISMS_REFERENCE = REFERENCE / "mechanisms"
#: The JDK x GC matrix of the "matrix" profile, committed: <cell>/<case>.json per cell.
MATRIX = ROOT / "data" / "matrix"


def committed(path: Path) -> bool:
    """Whether ``path`` lies in the study's committed data: data/, but for its local runs
    (data/results/, the one folder of data/ that .gitignore leaves out). By the folders rather
    than by `git ls-files`: a tree without git (an archive) is guarded alike, nothing is started
    to know it, and a run meant to join the record (a new day's A/A, a new case's reference) is
    as deliberate as one that replaces a committed run."""
    p = Path(path).resolve()
    return p.is_relative_to((ROOT / "data").resolve()) and not p.is_relative_to(RESULTS.resolve())


def calibration_run() -> Path:
    """The folder of the reference run of CALIBRATION_DAY: data/reference/ while it is the
    reference, data/reference-runs/<day>/ once a newer run took its place."""
    kept = REFERENCE_RUNS / CALIBRATION_DAY
    return kept if kept.is_dir() else REFERENCE


def reports_folder(profile: str) -> Path:
    """Where a profile's reports go: reports/ for the default run's, reports/<profile>/ for
    another's, so that rendering one run never replaces another's reports (`make report
    PROFILE=reference` beside the default run's). The committed matrix is rendered with the
    committed reference, so `make matrix` renders it there too."""
    if profile == DEFAULT_PROFILE:
        return REPORTS
    return REPORTS / ("reference" if profile == "matrix" else profile)


def results_folder(profile: str) -> Path:
    return REFERENCE if profile == "reference" else RESULTS / profile


def results_file(profile: str, case_id: str) -> Path:
    return results_folder(profile) / f"{case_id}.json"


def shard_folder(profile: str, index: int, count: int) -> Path:
    """Where one shard of a run writes its self-contained results (hotpath.measure.shards)."""
    return RESULTS / profile / "shards" / f"{index}-of-{count}"


def ab_shard_folder(name: str, index: int, count: int) -> Path:
    """Where one shard of a two-builds run writes its self-contained run folder (beside, not
    inside, data/results/ab/<name>/, which the merged run replaces whole)."""
    return RESULTS / "ab-shards" / name / f"{index}-of-{count}"


def matrix_file(profile: str, case_id: str, cell_id: str, folder: Path | None = None) -> Path:
    """One cell of a case's JDK x GC matrix; other profiles' matrices stay under results/, and
    a matrix measured into a folder of its own (make matrix OUT=) lies there."""
    folder = folder or (MATRIX if profile == "matrix" else RESULTS / profile / "matrix")
    return Path(folder) / cell_id / f"{case_id}.json"


def sidecar_of(results: Path) -> Path:
    """The provenance sidecar written beside a results file."""
    return results.with_name(results.stem + ".provenance.json")


def peaks_of(results: Path) -> Path:
    """The peak-live-heap measurements written beside a results file."""
    return results.with_name(results.stem + ".peak.json")


def memory_of(results: Path) -> Path:
    """The memory pass's raw JMH file (native bytes per op, forks of their own) beside a
    timing results file."""
    return results.with_name(results.stem + ".memory.json")


def sites_of(results: Path) -> Path:
    """The allocation-site pass's sites (hotpath.measure.sites) beside a timing results file."""
    return results.with_name(results.stem + ".sites.json")


def cpu_of(results: Path) -> Path:
    """The timed forks' CPU samples (hotpath.measure.cpu) beside a timing results file."""
    return results.with_name(results.stem + ".cpu.json")
