"""Execute a case's report notebook with papermill and publish its files atomically.

The notebook runs in a staging folder beside the report folder; the report folder is
replaced only when the notebook succeeded and every expected file is there, so a failed run
never overwrites a good earlier report with a partial one. A report rendered under a key of its
inputs is not rendered again while they stay the same (hotpath.render.reuse).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import json
import os
import shutil
import tempfile
from pathlib import Path
from collections.abc import Iterator
from typing import Any, Callable

from ..cases import get_case
from ..errors import HotpathError, UnknownNameError
from ..analyze.load import READ_ONCE, read_results
from ..offline import external_references
from . import flamegraphs, kernels, pageform, reuse, warm
from ..paths import REPORTS, ROOT, SERIES_REPORTS

TEMPLATES = Path(__file__).parent / "templates"
COMPARE_NOTEBOOK = ROOT / "notebooks" / "compare.ipynb"
MATRIX_NOTEBOOK = ROOT / "notebooks" / "matrix.ipynb"
AB_NOTEBOOK = ROOT / "notebooks" / "ab.ipynb"
AA_NOTEBOOK = ROOT / "notebooks" / "aa.ipynb"
#: Report notebooks that belong to no case: any two runs, a case's matrix, two builds, the A/A.
NOTEBOOKS_OF_NO_CASE = (COMPARE_NOTEBOOK, MATRIX_NOTEBOOK, AB_NOTEBOOK, AA_NOTEBOOK)
EXPECTED = ("report.html", "jira.txt", "summary.md")
#: The report's manifest (hotpath.render.document writes it): among what it lists, the files to
#: attach beside the pastes.
MANIFEST = "report.json"
#: Sub-folders written by other commands (flame graphs, the JDK x GC matrix) that survive a
#: re-render of the case report.
KEPT = ("flames", "matrix")
#: A render as render_all runs it: a function and its arguments.
Job = tuple[Callable[..., Any], tuple[Any, ...]]
#: papermill's tag on the cell it injects, and the fixed id that cell is given (see ``settle``).
INJECTED = "injected-parameters"
_PY_TYPES: dict[str, type | tuple[type, ...]] = {"str": str, "int": int, "float": (int, float), "bool": bool, "list": list,
             "dict": dict}


def notebook_parameters(notebook: Path) -> dict[str, dict[str, Any]]:
    import papermill

    return papermill.inspect_notebook(str(notebook))


def check_parameters(notebook: Path, values: dict[str, Any]) -> dict[str, Any]:
    """Unknown names and values of the wrong type are refused before anything runs."""
    declared = notebook_parameters(notebook)
    checked = {}
    for name, value in values.items():
        if name not in declared:
            raise UnknownNameError(f"{notebook.name} has no parameter {name!r}; it takes: "
                                   f"{', '.join(declared)}")
        type_name = declared_type(declared[name])
        expected = _PY_TYPES.get(type_name)
        if isinstance(value, str) and expected not in (None, str):
            value = coerce(name, value, type_name)
        if expected and (not isinstance(value, expected)
                         or (expected is int and isinstance(value, bool))):
            raise HotpathError(f"parameter {name!r} of {notebook.name} takes a {type_name}, "
                               f"not {type(value).__name__} {value!r}")
        checked[name] = value
    return checked


def declared_type(parameter: dict[str, Any]) -> str:
    """The annotation's type, else the type of the default literal."""
    type_name = parameter.get("inferred_type_name") or "None"
    if type_name == "None":
        try:
            type_name = type(ast.literal_eval(parameter["default"])).__name__
        except (ValueError, SyntaxError):
            pass
    return type_name


def coerce(name: str, text: str, type_name: str) -> Any:
    """A command-line string to the parameter's declared type, or a one-line error."""
    try:
        if type_name == "list" or type_name.startswith(("List", "java.util.List")):
            value = json.loads(text)
            if not isinstance(value, list):
                raise ValueError(text)
            return value
        if type_name == "int":
            return int(text)
        if type_name == "float":
            return float(text)
        if type_name == "bool":
            if text.lower() in ("true", "1", "yes"):
                return True
            if text.lower() in ("false", "0", "no"):
                return False
            raise ValueError(text)
    except (ValueError, json.JSONDecodeError):
        raise HotpathError(f"parameter {name!r} takes a {type_name}, not {text!r}") from None
    return text


def export_html(executed: Path, target: Path) -> None:
    """Code-free HTML that renders offline (no require.js, MathJax or other CDN fetches): the page
    nbconvert's exporter makes, its BeautifulSoup pass spared the report's own tables and charts
    (hotpath.render.pageform)."""
    import nbformat

    body = pageform.export(exporter(), nbformat.read(executed, as_version=4))
    found = external_references(body)
    if found:
        raise HotpathError(f"report HTML would fetch from the network: {found[0][:120]}")
    target.write_text(body, encoding="utf-8")


@functools.lru_cache(maxsize=1)
def exporter() -> Any:
    """One exporter for every report a process exports, as nbconvert's own command keeps one for
    all its notebooks: its templates are compiled once (0.16 s each time)."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="offline", extra_template_basedirs=[str(TEMPLATES)])
    exporter.exclude_input = True
    # one validation after the preprocessors, not one after each of the twelve: the same page
    exporter.optimistic_validation = True
    exporter.exclude_input_prompt = True
    exporter.exclude_output_prompt = True
    return exporter


def kernel_language(notebook: Path) -> str:
    import nbformat

    meta = nbformat.read(notebook, as_version=4).metadata
    return (meta.get("kernelspec", {}).get("language")
            or meta.get("language_info", {}).get("name") or "python")


def prepare(notebook: Path) -> None:
    """Java notebooks need our translator before papermill can inspect or parameterize them."""
    if kernel_language(notebook) == "java":
        import nbformat

        from .java_translator import register

        nb = nbformat.read(notebook, as_version=4)
        cell = next((c for c in nb.cells if "parameters" in c.metadata.get("tags", [])), None)
        register(cell.source if cell else "")


def execute(notebook: Path, executed: Path, parameters: dict[str, Any],
            renamed: dict[str, str] | None = None) -> Path:
    """Run a notebook (Python or Java kernel) with checked parameters into ``executed``, settled
    (``renamed``: as ``settle`` takes it)."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    prepare(notebook)
    params = check_parameters(notebook, parameters)
    kernel = "java" if kernel_language(notebook) == "java" else "python3"
    try:
        with kernels.started_by_us(kernel) as options:
            papermill.execute_notebook(str(notebook), str(executed), parameters=params,
                                       cwd=str(ROOT), progress_bar=False, log_output=False,
                                       request_save_on_cell_execute=False,
                                       kernel_name=kernel, **options)
    except PapermillExecutionError as e:
        raise HotpathError(f"{notebook.name} failed in cell {e.exec_count}: "
                           f"{e.ename}: {str(e.evalue).splitlines()[0][:200] if e.evalue else ''}") from None
    settle(executed, renamed)
    return executed


def settle(executed: Path, renamed: dict[str, str] | None = None) -> None:
    """Make an executed notebook depend on its inputs only, so that rendering the same JSON
    twice gives the same bytes: papermill gives its injected-parameters cell a random id (which
    report.html carries too) and stamps the notebook and every cell with clock times and
    durations; the timestamps go, the id becomes a fixed one. ``renamed`` replaces paths, such
    as the staging folder by the report folder it becomes."""
    import nbformat

    nb = nbformat.read(executed, as_version=4)
    for meta in (nb.metadata.get("papermill", {}),
                 *(c.metadata.get("papermill", {}) for c in nb.cells)):
        for key in ("start_time", "end_time", "duration"):
            meta.pop(key, None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # the kernel's iopub/shell timestamps
        if INJECTED in cell.metadata.get("tags", []):
            cell.id = INJECTED
    text = nbformat.writes(nb)
    for old, new in (renamed or {}).items():
        text = text.replace(json.dumps(old, ensure_ascii=False)[1:-1],
                            json.dumps(new, ensure_ascii=False)[1:-1])
    executed.write_text(text + "\n", encoding="utf-8")


def render_case(case_id: str, results: Path, out_dir: Path | None = None,
                parameters: dict[str, Any] | None = None, key: str | None = None) -> Path:
    """Run notebooks/<case>.ipynb on a results file into reports/<case>/ (or out_dir). Each
    render of a report folder takes the ``key`` of its inputs to record (publish_notebook)."""
    case = get_case(case_id)
    if not case.notebook.is_file():
        raise HotpathError(f"case {case_id!r} has no report notebook yet ({case.notebook})")
    results = Path(results).resolve()
    read_results(results)  # a missing or corrupt file stops here, before anything is touched
    return publish_notebook(case.notebook, Path(out_dir or REPORTS / case.id),
                            {"case": case.id, "results": str(results), **(parameters or {})}, key)


def render_matrix(case_id: str, profile: str, out_dir: Path | None = None,
                  key: str | None = None, folder: Path | None = None) -> Path:
    """Run notebooks/matrix.ipynb on a case's matrix cells into reports/<case>/matrix/
    (``folder``: the cells of a matrix measured into a folder of its own)."""
    from ..analyze import matrix

    get_case(case_id)
    matrix.check(profile, case_id, folder)  # no cell measured: stop here, before anything is touched
    return publish_notebook(MATRIX_NOTEBOOK, Path(out_dir or REPORTS / case_id / "matrix"),
                            {"case": case_id, "profile": profile,
                             **({"folder": str(Path(folder).resolve())} if folder else {})}, key)


def render_ab(folder: Path, out_dir: Path | None = None, key: str | None = None, name: str = "") -> Path:
    """Run notebooks/ab.ipynb on a run of two builds into reports/ab/<name>/ (or out_dir);
    ``name``: the report's, which its attachments carry, where not the run folder's."""
    from ..analyze import ab

    folder = Path(folder).resolve()
    ab.check(folder)  # a missing, corrupt or edited run stops here, before anything is touched
    return publish_notebook(AB_NOTEBOOK, Path(out_dir or REPORTS / "ab" / folder.name),
                            {"folder": str(folder), **({"name": name} if name else {})}, key)


def render_series(folder: Path, out_dir: Path | None = None) -> Path:
    """A patch series' report: its last step's run of two builds (the baseline against the whole
    patch), whose "Which change pays" splits the change among the steps, into
    reports/series/<name>/ (or out_dir), its attachments named after the series."""
    from ..analyze import series

    folder = Path(folder).resolve()
    found = series.read(folder)  # every step's run checked before anything is touched
    return render_ab(found.steps[-1].folder, Path(out_dir or SERIES_REPORTS / folder.name), name=folder.name)


def render_aa(folder: Path, out_dir: Path | None = None, key: str | None = None) -> Path:
    """Run notebooks/aa.ipynb on the A/A run into reports/aa/ (or out_dir)."""
    from ..analyze import ab

    folder = Path(folder).resolve()
    ab.check(folder)
    return publish_notebook(AA_NOTEBOOK, Path(out_dir or REPORTS / "aa"), {"folder": str(folder)},
                            key)


def compare_runs(baseline: Path, candidate: Path | None, out_dir: Path | None = None,
                 param: str = "", baseline_value: str = "") -> Path:
    """Any two JMH runs (or two values of one @Param in one file) -> the same report files."""
    files = [Path(baseline).resolve()] + ([Path(candidate).resolve()] if candidate else [])
    for f in files:
        read_results(f)
    if not candidate and not param:
        raise HotpathError("give a candidate file, or a @Param and its baseline value to compare within one file")
    return publish_notebook(COMPARE_NOTEBOOK, Path(out_dir or REPORTS / "compare"), {
        "baseline": str(files[0]), "candidate": str(files[1]) if candidate else "",
        "param": param, "baseline_value": baseline_value})


def render_all(groups: list[list[Job]], workers: int | None = None,
               inputs: reuse.Inputs | None = None) -> list[list[Any]]:
    """Render groups of jobs (function, arguments) side by side in worker processes, the jobs
    of one group one after the other (a case's matrix report goes into its case's folder).
    Each job's result is its report folder or the HotpathError it raised, in the order given;
    a failed job stops the rest of its group, never the other groups. With ``inputs``, a
    report whose folder holds what the same inputs published into it last time is kept (its
    result is a ``reuse.Kept`` folder); the others render under their key, unless an input
    changed while they rendered."""
    keyed: dict[tuple[int, int], Path] = {}
    if inputs is not None:
        groups = [[_reused(inputs, render, args, keyed, (i, j)) for j, (render, args) in enumerate(steps)]
                  for i, steps in enumerate(groups)]
    # A group of kept reports needs no worker of its own.
    busy = [i for i, steps in enumerate(groups) if any(render is not _kept for render, _ in steps)]
    done = {i: _attempt(steps) for i, steps in enumerate(groups) if i not in busy}
    done.update(_render(groups, busy, workers))
    if inputs is not None and keyed and not inputs.unchanged():
        # What was published under a key its inputs no longer match is not reused. A render that
        # failed, or never started, published nothing: its folder's record still says what it holds.
        for (i, j), out in keyed.items():
            if j < len(done[i]) and not isinstance(done[i][j], Exception):
                reuse.forget(out)
    return [done[i] for i in range(len(groups))]


def _render(groups: list[list[Job]], busy: list[int], workers: int | None
            ) -> dict[int, list[Any]]:
    """The groups numbered ``busy``, side by side."""
    from concurrent.futures import ProcessPoolExecutor

    workers = min(len(busy), workers or RENDER_WORKERS)
    if not busy:
        return {}
    # Their Python kernels fork from one that has imported what every notebook imports, their
    # flame graphs are drawn by one converter, and each run they read is parsed once.
    with warm.zygote(ROOT) as zygote, flamegraphs.server() as converter, \
            tempfile.TemporaryDirectory(prefix="hotpath-runs-read-") as read_once:
        environment = {flamegraphs.SERVER: converter, READ_ONCE: read_once}
        if workers <= 1:
            return {i: _attempt(groups[i], zygote, environment) for i in busy}
        # Workers fork from the server the zygote forked from (hotpath.render.warm.forkserver),
        # which imported papermill and nbconvert once (seconds) for every worker.
        context = warm.forkserver()
        # The longest first, so that no long report starts last while the other workers idle.
        order = sorted(busy, key=lambda i: -sum(_seconds(render, args) for render, args in groups[i]))
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=warm.worker_of,
                                 initargs=(os.getpid(),)) as pool:
            attempts = pool.map(functools.partial(_attempt, zygote=zygote, environment=environment),
                                [groups[i] for i in order])
            return dict(zip(order, attempts))


#: About how long each kind of job takes, in seconds (a render of the reference on a 2-core
#: machine, three workers at once, 2026-11-30): only their order matters, to hand out the
#: longest groups first. The A/A's one report outlasts a case's three jobs, so it starts first,
#: and the short runs of two builds fill the cores at the end, the shortest last.
SECONDS = {"render_aa": 8.5, "render_case": 5.5, "render_matrix": 2.0, "render_ab": 1.8, "case_row": 0.4}
#: A run of two builds' report takes longer the more its run holds: 1.1 s for the reference's
#: 0.3 MB one, 1.9 s for its 1.8 MB one.
AB_SECONDS, AB_SECONDS_PER_MB = 0.95, 0.55


def _seconds(render: Any, args: tuple = ()) -> float:
    """A job's rough cost (a keyed render is a partial of its function; a kept one costs nothing)."""
    if render is _kept:
        return 0.0
    name = getattr(getattr(render, "func", render), "__name__", "")
    if name == "render_ab" and args:
        return AB_SECONDS + AB_SECONDS_PER_MB * _megabytes(Path(args[0]))
    return SECONDS.get(name, 3.0)


def _megabytes(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1e6


def kept(groups: list[list[Job]], inputs: reuse.Inputs | None) -> bool:
    """Whether render_all with these inputs would keep every job of ``groups``."""
    return inputs is not None and all(_reused(inputs, render, args, {}, (0, 0))[0] is _kept
                                      for steps in groups for render, args in steps)


def _reused(inputs: reuse.Inputs, render: Any, args: tuple, keyed: dict[tuple[int, int], Path],
            at: tuple[int, int]) -> tuple[Any, tuple]:
    """A job as it runs: kept where its folder is fresh, else rendered under its key (its
    folder added to ``keyed`` at ``at``, its group and place in it)."""
    found = inputs.key(render, args)
    if found is None:
        return render, args
    out, key = found
    if inputs.fresh(out, key, KEPT):
        return _kept, (out,)
    keyed[at] = out
    return functools.partial(render, key=key), args


def _kept(out: Path) -> Path:
    return reuse.Kept(out)


#: Reports rendered at once: a kernel start waits on more than the CPU, so one more than
#: the cores keeps them busy.
RENDER_WORKERS = (os.cpu_count() or 1) + 1


def _attempt(steps: list[Job], zygote: str | None = None,
             environment: dict[str, str | None] | None = None) -> list[Any]:
    done: list[Any] = []
    with warm.using(zygote), _environment(environment or {}):
        for render, args in steps:
            try:
                done.append(render(*args))
            except HotpathError as e:
                done.append(e)
                break
    return done


@contextlib.contextmanager
def _environment(values: dict[str, str | None]) -> Iterator[None]:
    """The variables set in the block (for the kernels it starts; a None is left as it is), as
    they were after it: a render's own environment is an input of its reports (hotpath.render.reuse)."""
    given = {name: value for name, value in values.items() if value is not None}
    before = {name: os.environ.get(name) for name in given}
    os.environ.update(given)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def publish_notebook(notebook: Path, out_dir: Path, parameters: dict[str, Any],
                     key: str | None = None) -> Path:
    """Execute into a staging folder beside out_dir; swap it in only when complete. With the
    ``key`` of its inputs, record the files published (what a render under that key reuses)."""
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = out_dir.with_name(f".{out_dir.name}.staging-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    params = {**parameters, "output_dir": str(staging)}
    try:
        # The notebook as it would read had it run in the report folder: the staging folder's
        # name holds a process id, which differs on every run. (Its parameters are checked
        # before it runs.)
        executed = execute(notebook, staging / notebook.name, params, {str(staging): str(out_dir)})
        export_html(executed, staging / "report.html")
        missing = [f for f in (*EXPECTED, MANIFEST) if not (staging / f).is_file()]
        if not missing:
            missing = [f for f in attach(staging) if not (staging / f).is_file()]
        if missing or not list(staging.glob("*.png")):
            raise HotpathError(f"{notebook.name} did not write {', '.join(missing or ['a PNG chart'])}")
        # hashed as published, before folders of other jobs join them: a record never holds
        # another process's files
        published = reuse.files(staging) if key else {}
        publish(staging, out_dir)
        if key:
            reuse.keep(out_dir, key, published)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out_dir


def attachments(folder: Path) -> list[str]:
    """The files a report's pastes name, which a reader attaches beside them: report.html's
    copy under the report's and its run's names, then its charts (its manifest lists them)."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    return [manifest["attachment"], *manifest["charts"]]


def headline_of(report_dir: Path) -> str | None:
    """The verdict a written report leads with (its manifest's headline), or None."""
    try:
        return json.loads((report_dir / MANIFEST).read_text(encoding="utf-8")).get("headline")
    except (OSError, ValueError):
        return None


def attach(folder: Path) -> list[str]:
    """report.html copied under its attachment's name, beside it: report.html stays what the
    overview and a reader browsing the folder open, and the copy is what the pastes name (a
    copy rather than a link, which an upload or an archive may not follow). The attachments."""
    names = attachments(folder)
    if names[0] != "report.html":
        shutil.copyfile(folder / "report.html", folder / names[0])
    return names


def publish(staging: Path, out_dir: Path) -> None:
    """Swap the finished staging folder in; keep folders other commands wrote (flames/)."""
    old = out_dir.with_name(f".{out_dir.name}.previous-{os.getpid()}")
    if out_dir.exists():
        for keep in KEPT:
            if (out_dir / keep).exists():
                shutil.copytree(out_dir / keep, staging / keep, dirs_exist_ok=True)
        os.replace(out_dir, old)
    os.replace(staging, out_dir)
    shutil.rmtree(old, ignore_errors=True)
