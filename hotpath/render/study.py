"""What `hotpath report` renders, side by side: each case's report and its JDK x GC matrix,
the reference's committed runs of two builds and its A/A run, and the overview over them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import matrix, overview, report, reuse, warm
from ..cases import existing_cases
from ..errors import HotpathError
from ..paths import AA_REFERENCE, AB_REFERENCE, results_file
from .written import Written


def _steps(profile: str, case_ids: list[str], folder: Path, params: dict[str, Any],
           results: Path | None, with_reference_runs: bool) -> list[list[report.Job]]:
    """The reports, grouped by what one worker does in a row (a case's report, then its matrix)."""
    matrix_profile = matrix.profile_for(profile)
    groups: list[list[report.Job]] = []
    for case_id in case_ids:
        steps: list[report.Job] = [(report.render_case, (case_id, results or results_file(profile, case_id),
                                       folder / case_id, params))]
        if results is None and matrix.cell_files(matrix_profile, case_id):
            steps.append((report.render_matrix, (case_id, matrix_profile, folder / case_id / "matrix")))
        groups.append(steps)
    if with_reference_runs:
        from ..analyze import ab as ab_run

        for run in sorted(AB_REFERENCE.glob("*/")) if AB_REFERENCE.is_dir() else []:
            if ab_run.is_run(run):
                groups.append([(report.render_ab, (run, folder / "ab" / run.name))])
        if ab_run.is_run(AA_REFERENCE):
            groups.append([(report.render_aa, (AA_REFERENCE, folder / "aa"))])
    return groups


def _with_overview_rows(groups: list[list], profile: str, case_ids: list[str], folder: Path) -> None:
    """Each case's overview row made by the worker that renders its report (else by one of its own)."""
    for case in existing_cases():
        step = (overview.case_row, (profile, case.id, folder))
        if case.id in case_ids:
            groups[case_ids.index(case.id)].append(step)
        else:
            groups.append([step])


def render(profile: str, case_ids: list[str], folder: Path, params: dict[str, Any],
           results: Path | None = None, with_reference_runs: bool = False,
           with_overview: bool = False) -> list[Written | HotpathError]:
    """Every report asked for, side by side (each a kernel's start and a notebook's run), each
    published whole or not at all, and kept as it is where its inputs have not changed
    (hotpath.render.reuse); what was written or kept and what failed, in the order asked for,
    whichever finished first. With the overview, each worker also makes its case's overview
    row, and index.html is written last, over every case with results, unless a report failed."""
    # its imports (seconds) go on while the inputs are read
    warm.start()
    groups = _steps(profile, case_ids, folder, params, results, with_reference_runs)
    inputs = reuse.Inputs.read()
    overview_kept = with_overview and report.kept(groups, inputs) and overview.kept(inputs, profile, folder)
    if with_overview and not overview_kept:
        _with_overview_rows(groups, profile, case_ids, folder)
    done: list[Written | HotpathError] = []
    rows = {}
    for steps, outcomes in zip(groups, report.render_all(groups, inputs=inputs)):
        for (step, step_args), outcome in zip(steps, outcomes):
            if isinstance(outcome, HotpathError):
                done.append(outcome)
            elif step is overview.case_row:
                rows[step_args[1]] = outcome
            else:
                done.append(Written(outcome, "/report.html", step is not report.render_matrix,
                                    kept=isinstance(outcome, reuse.Kept)))
    if overview_kept:
        done.append(Written(folder / overview.PAGES[0], kept=True))
    elif with_overview and not any(isinstance(d, HotpathError) for d in done):
        made = overview.combine([rows.get(c.id) for c in existing_cases()])
        done.append(Written(overview.write(profile, folder, made)))
        overview.keep(inputs, profile, folder)
    return done


def execute_notebooks(notebooks: list[str], out: Path,
                      params: dict[str, Any]) -> list[tuple[str, Path | HotpathError]]:
    """Notebooks (Python or Java kernel) executed with parameters into ``out``, side by side as
    the machine's cores allow (each a kernel's start and a notebook's run): each notebook's name and its
    executed copy, or why it failed. A missing notebook stops before any runs."""
    paths = [Path(n).resolve() for n in notebooks]
    for given, notebook in zip(notebooks, paths):
        if not notebook.is_file():
            raise HotpathError(f"{given}: no such notebook")
    out.mkdir(parents=True, exist_ok=True)
    groups = [[(report.execute, (nb, out / nb.name, params))] for nb in paths]
    return [(nb.name, outcome) for nb, (outcome,) in zip(paths, report.render_all(groups))]
