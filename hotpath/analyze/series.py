"""A patch series read back (hotpath.measure.series wrote it) and split among its steps: each
step's run of two builds is the baseline against the patch up to that step, so a step's part is
its run's change less the step before's, in time per op (a ratio: parts are speed-ups, as a
mechanism's are) and in heap B/op (bytes), each with its interval (hotpath.stats.decompose.stepwise).
Each run's fork figures are taken as its verdicts take them (hotpath.stats.rowfigures), all on one
estimate. The split is a Found of RowParts, the shape a case's mechanisms take, so the report's
"Which change pays" lays it out; its report is the last step's run's (the whole patch)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from . import ab
from .compare import SequentialRun, SideFigures
from .mechanisms import STEPS, Found, RowParts, bytes_per_fork
from .. import runs
from ..errors import ResultsError
from ..jmh import higher_is_better, ns_per_op
from ..stats import decompose, rowfigures, steady

#: Records of a row's two sides in one step's run: the baseline's, then the step's build's.
SidesRecords = tuple[list[dict], list[dict]]
BASELINE, BUILD = "baseline", "build"


@dataclass(frozen=True)
class Series:
    """A series' manifest and each step's run of two builds, in order."""

    folder: Path
    manifest: dict
    steps: tuple[ab.ABRun, ...]

    @property
    def baseline(self) -> str:
        return self.manifest["baseline"]["name"]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s["name"] for s in self.manifest["steps"])


def read_manifest(folder: Path) -> dict:
    path = Path(folder) / runs.SERIES_MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise ResultsError(f"{folder}: not a patch series (no {runs.SERIES_MANIFEST}); make one with "
                           f"make report BASELINE=master.jar STEPS=a.jar,b.jar BENCH=<regex>") from None
    except json.JSONDecodeError as e:
        raise ResultsError(f"{path}: corrupt ({e.msg} at line {e.lineno})") from None
    if manifest.get("kind") != "series" or not manifest.get("steps"):
        raise ResultsError(f"{path}: not the manifest of a patch series")
    return manifest


def read(folder: str | Path) -> Series:
    """The series and each step's run, checked: each run's sides are the baseline and its step."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    steps = tuple(ab.read(folder / s["folder"]) for s in manifest["steps"])
    for step, run in zip(manifest["steps"], steps):
        if run.names != {"baseline": manifest["baseline"]["name"], "candidate": step["name"]}:
            raise ResultsError(f"{run.folder}: its builds ({run.names['baseline']}, "
                               f"{run.names['candidate']}) are not the series' baseline and step "
                               f"{step['name']}")
    return Series(folder, manifest, steps)


def last_step_of(run_folder: Path) -> Path | None:
    """The series a run of two builds is the last step of (its report is the series'), or None."""
    folder = Path(run_folder).resolve().parent
    if not (folder / runs.SERIES_MANIFEST).is_file():
        return None
    steps = read_manifest(folder)["steps"]
    return folder if steps[-1]["folder"] == Path(run_folder).resolve().name else None


def found(series: Series) -> Found:
    """Every row the last step's run measured, split among the steps."""
    return Found(tuple(decompositions(series)), series.folder, kind=STEPS,
                 levels=(series.baseline, series.names[-1]))


def decompositions(series: Series) -> list[RowParts]:
    """Each row of the last step's run (benchmark x params x mode), in its order, split among the
    steps; a row some step's run did not measure on both sides says so."""
    by_step = [_rows(run, series.baseline, name) for run, name in zip(series.steps, series.names)]
    # the estimate the runs' plans took each fork's figure by (one profile: one estimate)
    estimate = SequentialRun.of(series.steps[-1].run.frame).estimate or steady.MEAN
    out = []
    for key in by_step[-1]:
        missing = [name for name, rows in zip(series.names, by_step) if key not in rows]
        if missing:
            out.append(RowParts(key[0], key[1], series.names, None, None, estimate, "",
                                f"not measured on both sides in the run of {', '.join(missing)}"))
        else:
            out.append(_row(key[0], key[1], series.names, [rows[key] for rows in by_step], estimate))
    return out


def _rows(run: ab.ABRun, baseline: str, build: str) -> dict[tuple[str, str, str], SidesRecords]:
    """A step's run's rows (benchmark, params, mode), each with its two sides' records."""
    groups: dict[tuple[str, str, str], dict[str, list[dict]]] = {}
    for r in run.run.frame.to_dict("records"):
        groups.setdefault((r["benchmark"], r["params"], r["mode"]), {}).setdefault(r["variant"], []).append(r)
    return {key: (sides[baseline], sides[build]) for key, sides in groups.items()
            if baseline in sides and build in sides}


def _row(benchmark: str, params: str, names: tuple[str, ...], records: list[SidesRecords],
         estimate: str) -> RowParts:
    whys, how, how_why = [], estimate, ""
    time = heap = None
    try:
        sides = [(SideFigures.of(b), SideFigures.of(s)) for b, s in records]
        unit = sides[0][0].unit
        figures, how, how_why = _figures(estimate, sides, higher_is_better(unit))
        # ns per op whatever the mode, as a mechanism's parts: a part is a ratio of times
        time = decompose.stepwise(names, [([ns_per_op(v, unit) for v in b], [ns_per_op(v, unit) for v in s])
                                          for b, s in figures])
    except (ValueError, KeyError) as e:
        whys.append(f"time: {e.args[0] if e.args else e}")
    try:
        heap = decompose.stepwise(names, [(bytes_per_fork(b), bytes_per_fork(s)) for b, s in records],
                                  log=False)
    except (ValueError, KeyError) as e:
        whys.append(f"heap B/op: {e.args[0] if e.args else e}")
    return RowParts(benchmark, params, names, time, heap, how, how_why, "; ".join(whys))


def _figures(estimate: str, sides: list[tuple[SideFigures, SideFigures]], higher: bool
             ) -> tuple[list[tuple[list[float], list[float]]], str, str]:
    """Each step's run's two sides' fork figures as its verdict takes them, every run on one
    estimate: the mean for all where any run's verdict rests on it, so that the parts are
    differences of one kind of figure."""
    weighed = [{BASELINE: b.weighed(higher), BUILD: s.weighed(higher)} for b, s in sides]
    how, why = estimate, ""
    for pair in weighed:
        _, how, why = rowfigures.family_figures(estimate, pair, BASELINE)
        if how != estimate:
            break
    taken = [rowfigures.family_figures(how, pair, BASELINE)[0] for pair in weighed]
    return [(f[BASELINE], f[BUILD]) for f in taken], how, why
