"""A report's check before its notebook runs refuses what reading the run would, without pairing
it: a run of two builds edited after it ran or not JMH's JSON, a matrix with no cell or a
corrupt one."""

import shutil
from pathlib import Path

import pytest

from hotpath.analyze import ab, matrix
from hotpath.errors import ResultsError
from hotpath.paths import AB_REFERENCE, MATRIX

RUN = AB_REFERENCE / "rocketmq-dispatch32-again"


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return Path(shutil.copytree(RUN, tmp_path / "run"))


def test_a_run_of_two_builds_as_committed_passes_and_reads(run):
    ab.check(run)
    assert not ab.read(run).comparison.pairs.empty


def test_a_results_file_changed_after_the_run_is_refused_by_both(run):
    results = run / "candidate.json"
    results.write_bytes(results.read_bytes().replace(b'"score"', b'"score" ', 1))
    for refuse in (ab.check, ab.read):
        with pytest.raises(ResultsError, match="changed after the run"):
            refuse(run)


def test_a_folder_without_its_provenance_is_not_a_run(run):
    (run / "ab.json").unlink()
    with pytest.raises(ResultsError, match="not a run of two builds"):
        ab.check(run)


def test_a_matrix_without_cells_and_one_with_a_corrupt_cell_are_refused(tmp_path):
    with pytest.raises(ResultsError, match="no JDK x GC matrix"):
        matrix.check("matrix", "writer", tmp_path)
    cells = sorted(p for p in MATRIX.iterdir() if (p / "writer.json").is_file())
    for cell in cells:
        (tmp_path / cell.name).mkdir()
        shutil.copy(cell / "writer.json", tmp_path / cell.name / "writer.json")
    matrix.check("matrix", "writer", tmp_path)
    (tmp_path / cells[-1].name / "writer.json").write_text("[{", encoding="utf-8")
    with pytest.raises(ResultsError):
        matrix.check("matrix", "writer", tmp_path)
