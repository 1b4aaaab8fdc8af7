"""The JDK x GC matrix of a case, read: which cells were measured, and every cell's pairs of old
with the write-up's variant."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from . import compare
from .. import runs
from ..errors import ResultsError
from .load import read_results
from ..runtimes import MAIN, MATRIX, PRESSURE, Cell
from ..paths import matrix_file

#: Every cell a matrix can hold, in the order reports show them.
ALL_CELLS = (*MATRIX, PRESSURE)


def profile_for(profile: str) -> str:
    """Whose matrix an overview of ``profile`` shows: the committed matrix beside the committed
    reference; a local profile's own matrix otherwise."""
    return "matrix" if profile in ("reference", "matrix") else profile


def cell_files(profile: str, case_id: str, folder: Path | None = None) -> dict[Cell, Path]:
    """The cells of a case's matrix that have results, in report order (``folder``: a matrix
    measured into a folder of its own)."""
    return {c: f for c in ALL_CELLS if (f := matrix_file(profile, case_id, c.id, folder)).is_file()}


def check(profile: str, case_id: str, folder: Path | None = None) -> None:
    """What ``read`` refuses, found without pairing (a report's check before its notebook runs):
    no cell measured, or a cell's file that is not JMH's JSON."""
    for path in _measured(profile, case_id, folder).values():
        runs.load(*runs.of_results(path)).entries()


def read(profile: str, case_id: str, candidate: str = "optimized",
         folder: Path | None = None) -> pd.DataFrame:
    """Every measured cell's pairs (old vs ``candidate``), with the cell's id and description."""
    frames = []
    for cell, path in _measured(profile, case_id, folder).items():
        pairs = compare.paired(read_results(path)).pairs
        if pairs.empty:
            continue
        mine = pairs[pairs["candidate"] == candidate]
        frames.append(mine.assign(cell=cell.id, cell_description=cell.describe(), source=str(path)))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _measured(profile: str, case_id: str, folder: Path | None) -> dict[Cell, Path]:
    files = cell_files(profile, case_id, folder)
    if not files:
        raise ResultsError(
            f"no JDK x GC matrix for case {case_id!r} under the {profile!r} profile "
            f"(looked for {matrix_file(profile, case_id, MAIN.id, folder)} and its sibling cells); "
            f"make it with: make matrix CASE={case_id} PROFILE={profile}")
    return files
