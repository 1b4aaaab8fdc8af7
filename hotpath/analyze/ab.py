"""Two builds' run read back (hotpath.measure.ab wrote it): each build's JMH JSON, checked against
the SHA-256 its provenance recorded, relabelled with the build's name and paired as `compare`
pairs any two runs: on benchmark, mode and params. What one build declared alone, what failed and
what differs between the builds come from the provenance, for the report to name."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..errors import ResultsError
from ..jmh import RowKey
from . import compare
from .. import runs
from .load import Record, Run, read_side

MANIFEST = runs.BUILDS.provenance
ROLES = runs.ROLES
UNPAIRED_COLUMNS = ["benchmark", "params", "mode", "variant", "reason"]


@dataclass(frozen=True)
class ABRun:
    folder: Path
    manifest: dict
    sides: dict[str, Run]  # by role
    run: Run  # both builds in one frame, each labelled with its name
    comparison: compare.Comparison

    @property
    def names(self) -> dict[str, str]:
        return {role: self.manifest["sides"][role]["name"] for role in ROLES}


def is_run(folder: Path) -> bool:
    return (Path(folder) / MANIFEST).is_file()


def read_manifest(folder: Path) -> dict:
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise ResultsError(f"{folder}: not a run of two builds (no {MANIFEST}); make one with "
                           f"make report BASELINE=master.jar CANDIDATE=patch.jar BENCH=<regex>")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ResultsError(f"{path}: corrupt provenance ({e.msg} at line {e.lineno})") from None
    if manifest.get("kind") != "ab" or set(manifest.get("sides", {})) != set(ROLES):
        raise ResultsError(f"{path}: not the provenance of a run of two builds")
    return manifest


def check(folder: str | Path) -> None:
    """What ``read`` refuses, found without pairing (a report's check before its notebook runs):
    no provenance, a results file changed since the run, or one that is not JMH's JSON."""
    _, run = _opened(Path(folder))
    for role in ROLES:
        run.entries(role)


def _opened(folder: Path) -> tuple[dict, runs.Run]:
    """The run's manifest and files, each side's results as the manifest recorded them."""
    manifest = read_manifest(folder)
    run = runs.load(folder, runs.BUILDS)
    for role in ROLES:
        if manifest["sides"][role].get("sha256") not in (None, run.sha256(role)):
            raise ResultsError(f"{run.path(run.layout.results(role))}: its SHA-256 is not the one "
                               f"{MANIFEST} recorded: the file was changed after the run")
    return manifest, run


def read(folder: str | Path) -> ABRun:
    folder = Path(folder)
    manifest, run = _opened(folder)
    sides = {role: read_side(run, role) for role in ROLES}
    names = {role: manifest["sides"][role]["name"] for role in ROLES}
    frame = pd.concat([compare.relabel(sides[r].frame, names[r]) for r in ROLES], ignore_index=True)
    frame.attrs["sequential"] = Record(manifest.get("sequential") or {})
    comparison = compare.pair(frame, baseline=names["baseline"], label="build")
    # A failed row has its own table (what it threw): not "unpaired" as well.
    gone = {RowKey.of(f["benchmark"], f["params"]) for f in manifest.get("failed", [])}
    kept = comparison.unpaired[[RowKey.of(b, p) not in gone for b, p in
                                zip(comparison.unpaired["benchmark"], comparison.unpaired["params"])]]
    unpaired = pd.concat([kept, one_sided(manifest)], ignore_index=True)
    comparison = compare.Comparison(comparison.pairs, unpaired, comparison.baseline)
    combined = Run(source=folder / MANIFEST, frame=frame, provenance=manifest)
    return ABRun(folder, manifest, sides, combined, comparison)


def one_sided(manifest: dict) -> pd.DataFrame:
    """What one build declared alone, and what failed on a side, as unpaired rows."""
    rows = [{"benchmark": o["benchmark"], "params": o["params"], "mode": "",
             "variant": o["only_in"], "reason": o["reason"]} for o in manifest.get("one_sided", [])]
    return pd.DataFrame(rows, columns=UNPAIRED_COLUMNS)


def failed(manifest: dict) -> pd.DataFrame:
    """Rows closed because a build's benchmark threw, with the first line of what it threw."""
    rows = [{"benchmark": f["benchmark"], "params": f["params"], "failed on": f.get("on", "?"),
             "error": f["error"]} for f in manifest.get("failed", [])]
    return pd.DataFrame(rows, columns=["benchmark", "params", "failed on", "error"])


def builds(manifest: dict) -> pd.DataFrame:
    """One row per build: its name, what was given, every jar with its SHA-256, its JMH."""
    rows = []
    for role in ROLES:
        s = manifest["sides"][role]
        jars = "; ".join(f"{j['path']} (sha256 {j['sha256']})" for j in s.get("jars", [])) or "(class folders only)"
        memory = s.get("memory", {})
        rows.append({"build": s["name"], "role": role, "given as": f"{s['kind']}: {s['given']}",
                     "jars": jars, "JMH": s.get("jmh_version") or s.get("jmh_version_in_jars") or "?",
                     "native B/op": "measured" if memory.get("status") == "measured"
                     else f"not measured: {memory.get('why', '?')}"})
    return pd.DataFrame(rows)


def differences(manifest: dict) -> pd.DataFrame:
    names = [manifest["sides"][r]["name"] for r in ROLES]
    rows = manifest.get("differences", [])
    return pd.DataFrame(rows, columns=["what", "benchmark", *names])


def selection_text(manifest: dict) -> str:
    """'benchmarks matching 'KnownWork', size=64,1024' or '54 given rows', as the run recorded."""
    s = manifest.get("selection", {})
    if s.get("rows"):
        return f"{len(s['rows'])} given rows"
    return (f"benchmarks matching `{s.get('include', '.')}`"
            + "".join(f", {k}={','.join(v)}" for k, v in (s.get("params") or {}).items()))
