"""A reference run made into a folder of its own (make bench PROFILE=reference OUT=<folder>) put
in data/reference/ once it is whole, and the run it replaces kept, named by the day it started, in
data/reference-runs/<day>/ (what was calibrated on it reads it there: hotpath.paths.calibration_run).
Files are copied as they are, nothing rewritten, so each keeps the commands and sums that made it;
whether the run is fit to be the reference is the caller's to ask first (hotpath.analyze.fitness)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

from ..cases import existing_cases
from ..errors import HotpathError
from ..paths import REFERENCE, REFERENCE_RUNS, sidecar_of

#: A case's files in a run's folder, beside its JMH rounds in rounds/<case>/: the first three
#: every run has, the rest as its passes made them.
NEEDED = ("json", "memory.json", "provenance.json")
MADE = ("cpu.json", "sites.json", "peak.json")


def _files(folder: Path, case_id: str) -> list[Path]:
    found = [folder / f"{case_id}.{kind}" for kind in (*NEEDED, *MADE)]
    rounds = folder / "rounds" / case_id
    return [p for p in found if p.is_file()] + ([rounds] if rounds.is_dir() else [])


def _provenance(folder: Path, case_id: str) -> dict:
    sidecar = sidecar_of(folder / f"{case_id}.json")
    try:
        return json.loads(sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise HotpathError(f"{sidecar}: a reference run's provenance cannot be read "
                           f"({type(e).__name__}: {e})") from None


def whole(folder: Path) -> list[str]:
    """What keeps the run in ``folder`` from being the reference, one line each, its cases named:
    a file missing, cases made by another profile or from a tree with uncommitted changes."""
    wrong: dict[str, list[str]] = {}
    for case in existing_cases():
        missing = [f"{case.id}.{kind}" for kind in NEEDED if not (folder / f"{case.id}.{kind}").is_file()]
        if missing:
            wrong.setdefault(f"{', '.join(missing)} missing", [])
            continue
        p = _provenance(folder, case.id)
        if p.get("profile") != "reference":
            wrong.setdefault(f"made by the {p.get('profile')!r} profile, not the reference's", []).append(case.id)
        if p.get("git_dirty") is not False:
            wrong.setdefault("made from a tree with uncommitted changes", []).append(case.id)
    return [f"{', '.join(cases)}: {why}" if cases else why for why, cases in wrong.items()]


def started(folder: Path) -> str:
    """The day (YYYY-MM-DD) the run's first case started, by its provenance."""
    days = sorted(str(_provenance(folder, c.id).get("started", ""))[:10]
                  for c in existing_cases() if sidecar_of(folder / f"{c.id}.json").is_file())
    if not days or len(days[0]) != 10:
        raise HotpathError(f"{folder}: no case's provenance says when the run started")
    return days[0]


def cpu_kind(folder: Path) -> str:
    kinds = sorted({str(_provenance(folder, c.id).get("cpu_model", "?")) for c in existing_cases()
                    if sidecar_of(folder / f"{c.id}.json").is_file()})
    return " and ".join(kinds) or "?"


def _copy(paths: list[Path], source: Path, target: Path) -> None:
    for path in paths:
        to = target / path.relative_to(source)
        to.parent.mkdir(parents=True, exist_ok=True)
        if path.is_dir():
            shutil.copytree(path, to)
        else:
            shutil.copy2(path, to)


def _remove(paths: list[Path]) -> None:
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()


def promote(run: Path, reference: Path | None = None, kept_in: Path | None = None,
            log: Callable[[str], None] = print) -> Path:
    """Put the run in ``run`` in ``reference``'s place, the reference's own files (its cases'
    and rounds/; not its other runs' folders: aa/, ab/, mechanisms/ ...) kept first in
    ``kept_in``/<the day it started>/. Refused, with nothing moved, when the run is not whole or
    that folder exists; a failure half-way puts the reference back. Returns where it was kept."""
    run, reference = Path(run).resolve(), Path(reference or REFERENCE).resolve()
    if run == reference or run.is_relative_to(reference) or not run.is_dir():
        raise HotpathError(f"{run}: not a run's folder beside the reference (make bench "
                           f"PROFILE=reference OUT=data/results/<folder> makes one)")
    wrong = whole(run)
    if wrong:
        raise HotpathError(f"{run} cannot be the reference: " + "; ".join(wrong))
    kept = Path(kept_in or REFERENCE_RUNS) / started(reference)
    if kept.exists():
        raise HotpathError(f"{kept} exists: the reference it would keep there is kept already, or "
                           f"another run of that day is; move it aside first")
    cases = [c.id for c in existing_cases()]
    old = [p for c in cases for p in _files(reference, c)]
    new = [p for c in cases for p in _files(run, c)]
    staged = kept.with_name(kept.name + ".partial")
    shutil.rmtree(staged, ignore_errors=True)
    _copy(old, reference, staged)
    staged.rename(kept)
    log(f"hotpath: the reference of {kept.name} ({cpu_kind(kept)}) kept in {kept}")
    try:
        _remove(old)
        _copy(new, run, reference)
    except OSError as e:
        _remove([p for c in cases for p in _files(reference, c)])
        _copy([p for c in cases for p in _files(kept, c)], kept, reference)
        raise HotpathError(f"the run could not be put in {reference} ({e}); the reference is as "
                           f"it was, and kept in {kept} too") from e
    log(f"hotpath: the run of {started(reference)} ({cpu_kind(reference)}) is the reference now, "
        f"in {reference}: {len(new)} files and folders from {run}")
    return kept
