"""The shards of one run (hotpath.measure.shards), measured on machines of their own, joined into
the usual results layout: data/results/<profile>/<case>.json and its sidecars.

Before anything is written the folders are checked to be one run: every shard's results were
measured at one commit, under one profile, cut into the same number of shards; every shard is
there once, and no row group is in two of them. What fails a check is said in one line, and
nothing is written: a merge never leaves half a run where a whole one was.

The shards' runs are joined as hotpath.runs joins them: the JMH entries of a case's shards side
by side in one file, each entry as JMH wrote it; a row's two sides always come from one shard
(the cut keeps a row group's sides together), so no ratio is ever taken across machines. The
merged sidecar names each shard, its machine, and the rows it measured.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from pathlib import Path

from ..errors import HotpathError
from .. import runs
from ..paths import MATRIX, RESULTS
from . import shards


@dataclass(frozen=True)
class ShardRun:
    """One shard's folder: its index, and per case its results file and sidecar."""

    folder: Path
    index: int
    count: int
    commit: str
    profile: str
    machine: str
    #: Each results file's path in the folder without ".json" ("zip", or "jdk17-g1/zip" for a
    #: matrix cell) and its sidecar.
    cases: dict[str, dict]
    units: tuple[dict, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.index}/{self.count}"


def read_shard(folder: Path) -> ShardRun:
    """A shard's folder as its sidecars describe it."""
    if not folder.is_dir():
        raise HotpathError(f"{folder}: no such folder (a shard's results folder was expected)")
    cases: dict[str, dict] = {}
    for sidecar in sorted([*folder.glob("*.provenance.json"), *folder.glob("*/*.provenance.json")]):
        if sidecar.parent.name == "rounds" or sidecar.parent.parent.name == "rounds":
            continue
        try:
            record = json.loads(sidecar.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise HotpathError(f"{sidecar}: unreadable ({e})") from None
        if not isinstance(record, dict) or not isinstance(record.get("shard"), dict):
            raise HotpathError(f"{sidecar}: not a shard's results (no shard in its provenance)")
        results = sidecar.with_name(f"{record.get('case')}.json")
        if not results.is_file():
            raise HotpathError(f"{sidecar}: its results file {results.name} is missing")
        cases[results.relative_to(folder).with_suffix("").as_posix()] = record
    if not cases:
        raise HotpathError(f"{folder}: no shard results in it (no <case>.provenance.json)")
    first = next(iter(cases.values()))
    for case, record in cases.items():
        for field in ("git_commit", "profile"):
            if record.get(field) != first.get(field):
                raise HotpathError(f"{folder}: {case} was measured with {field} "
                                   f"{record.get(field)}, the folder's other cases with "
                                   f"{first.get(field)}")
        if (record["shard"].get("index"), record["shard"].get("count")) != \
                (first["shard"].get("index"), first["shard"].get("count")):
            raise HotpathError(f"{folder}: its cases belong to different shards")
    shard = first["shard"]
    return ShardRun(folder, int(shard["index"]), int(shard["count"]), str(first.get("git_commit")),
                    str(first.get("profile")), str(shard.get("machine", "unknown")), cases,
                    tuple(shard.get("units") or ()))


def check(runs: list[ShardRun], profile: str) -> None:
    """That the shards are one run, whole: raises HotpathError with one line naming what is wrong."""
    if not runs:
        raise HotpathError("no shard folders given")
    first = runs[0]
    for run in runs:
        if run.profile != profile:
            raise HotpathError(f"shard {run.label} ({run.folder}) was measured under profile "
                               f"{run.profile}, not {profile}")
        if run.commit != first.commit:
            raise HotpathError(f"shard {run.label} ({run.folder}) was measured at commit "
                               f"{run.commit[:12]}, shard {first.label} at {first.commit[:12]}: "
                               f"not one run")
    _every_shard_once(runs)
    owner: dict[tuple, str] = {}
    for run in runs:
        for unit in run.units:
            held = shards.Unit.of(unit)
            cell = None if unit.get("benchmark") else (unit.get("params") or {}).get("cell")
            path = f"{cell}/{unit.get('case')}" if cell else str(unit.get("case"))
            if path not in run.cases:
                raise HotpathError(f"shard {run.label} ({run.folder}) has no results for "
                                   f"{held.name}: its run of {path} did not finish")
            if held.key in owner:
                raise HotpathError(f"{held.name} is in shard {owner[held.key]} and in shard "
                                   f"{run.label}: a row measured twice")
            owner[held.key] = run.label


def _every_shard_once(runs: list) -> None:
    """One cut (the same N), each of its shards given once, none missing."""
    first = runs[0]
    for run in runs:
        if run.count != first.count:
            raise HotpathError(f"shard {run.label} ({run.folder}) is one of {run.count}, shard "
                               f"{first.label} one of {first.count}: not one cut")
    seen: dict[int, Any] = {}
    for run in runs:
        if run.index in seen:
            raise HotpathError(f"shard {run.label} is given twice: {seen[run.index].folder} and "
                               f"{run.folder}")
        seen[run.index] = run
    missing = [f"{k}/{first.count}" for k in range(1, first.count + 1) if k not in seen]
    if missing:
        raise HotpathError(f"shard {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                           f"missing: no folder given holds {'it' if len(missing) == 1 else 'them'}")


def merge(folders: list[Path], profile: str, out: Path | None = None,
          case_ids: list[str] | None = None) -> list[Path]:
    """Check the shards' folders, then write each case's merged results into ``out`` (default:
    data/results/<profile>/); returns the results files written."""
    found = sorted((read_shard(f) for f in folders), key=lambda r: r.index)
    check(found, profile)
    out = out or (MATRIX if profile == "matrix" else RESULTS / profile)
    cases = list(dict.fromkeys(c for r in found for c in r.cases))
    if case_ids:
        cases = [c for c in cases if c.rsplit("/", 1)[-1] in case_ids]
    # every case's run made before the first is written: a failed merge leaves the old results
    merged = {case: _merged_case(case, [r for r in found if case in r.cases], len(found))
              for case in cases}
    for case, run in merged.items():
        runs.dump(run, out / case.rpartition("/")[0])
    return [out / f"{case}.json" for case in cases]


def _label(shard: ShardRun | BuildsShard) -> str:
    """A shard's name in the merged run: its round files take it as a prefix."""
    return f"shard-{shard.index}-of-{shard.count}"


def _merged_case(case: str, found: list[ShardRun], count: int) -> runs.Run:
    """``case``: a results file's path in the folders without ".json" (a case, or cell/case)."""
    where, _, stem = case.rpartition("/")
    merged = runs.join({_label(r): runs.load(r.folder / where, runs.case(stem), rounds=True)
                        for r in found})
    merged.provenance = _sidecar(case, found, count, merged.sha256())
    return merged


def _sidecar(case: str, found: list[ShardRun], count: int, sha256: str) -> dict:
    """The first shard's provenance for what all share (commit, profile, JVM), the shards and
    their machines, and the plan records' rows side by side, each naming its shard."""
    base = dict(found[0].cases[case])
    base.pop("shard", None)
    joined = _joined([(shard, shard.cases[case]) for shard in found], count)
    if not base.get("sequential"):
        del joined["sequential"]  # a profile without a plan keeps its record as it was
    base.update(joined)
    for entry, shard in zip(base["shards"], found):
        entry["sha256"] = shard.cases[case].get("sha256")
    base["sha256"] = sha256
    return base


def _joined(records: list[tuple], count: int) -> dict:
    """What the shards' provenance records (each with its shard: label, machine, folder) give
    the merged one: the plan records' rows side by side, each naming its shard and machine, the
    plan's time and forks summed, every shard and machine, the run's duration."""
    rows, spent, forks, budget = [], 0.0, 0, 0.0
    for run, record in records:
        seq = record.get("sequential") or {}
        rows += [{**row, "shard": run.label, "machine": run.machine} for row in seq.get("rows", [])]
        spent += float(seq.get("spent_s") or 0)
        forks += int(seq.get("forks_run") or 0)
        budget += float(seq.get("budget_s") or 0)
    first = records[0][1].get("sequential")
    return {
        "sequential": {**first, "rows": rows, "spent_s": round(spent, 1), "forks_run": forks,
                       "budget_s": round(budget, 1)} if first else first,
        "shards": [{"shard": run.label, "machine": run.machine, "folder": run.folder.name,
                    **{k: record.get(k) for k in ("started", "duration_s", "cpu_model", "machine_load")}}
                   for run, record in records],
        "shard_count": count,
        "machines": sorted({run.machine for run, _ in records}),
        "duration_s": round(sum(float(record.get("duration_s") or 0) for _, record in records), 1),
    }


# -- two builds -------------------------------------------------------------------------------

def is_builds_shard(folder: Path) -> bool:
    """A shard of a two-builds run: a run folder with its manifest (hotpath.measure.ab)."""
    return (folder / runs.BUILDS.provenance).is_file()


@dataclass(frozen=True)
class BuildsShard:
    """One shard's run folder of two builds, as its manifest describes it."""

    folder: Path
    index: int
    count: int
    manifest: dict

    @property
    def label(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def machine(self) -> str:
        return str(self.manifest["shard"].get("machine", "unknown"))

    def jars(self) -> dict[str, list[str]]:
        """Each side's jars' SHA-256, by role: what makes two shards measure the same builds."""
        return {role: [j.get("sha256") for j in (side.get("jars") or [])]
                for role, side in (self.manifest.get("sides") or {}).items()}


def read_builds_shard(folder: Path) -> BuildsShard:
    path = folder / runs.BUILDS.provenance
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise HotpathError(f"{path}: unreadable ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != "ab" \
            or not isinstance(manifest.get("shard"), dict):
        raise HotpathError(f"{path}: not a shard of a two-builds run (no shard in its manifest)")
    for role in runs.ROLES:
        if not (folder / f"{role}.json").is_file():
            raise HotpathError(f"{folder}: its {role}.json is missing")
    shard = manifest["shard"]
    return BuildsShard(folder, int(shard["index"]), int(shard["count"]), manifest)


def check_builds(runs: list[BuildsShard]) -> None:
    """That the shards are one run of two builds, whole: one commit, the same jars on each
    side, the same name and profile, the same N, every shard once, no row in two."""
    if not runs:
        raise HotpathError("no shard folders given")
    first = runs[0]
    for run in runs:
        for field, what in (("git_commit", "commit"), ("name", "run name"), ("profile", "profile")):
            if run.manifest.get(field) != first.manifest.get(field):
                raise HotpathError(f"shard {run.label} ({run.folder}) was measured with {what} "
                                   f"{run.manifest.get(field)}, shard {first.label} with "
                                   f"{first.manifest.get(field)}: not one run")
        if run.jars() != first.jars():
            raise HotpathError(f"shard {run.label} ({run.folder}) measured other jars than shard "
                               f"{first.label} (their SHA-256 differ): not one run")
    _every_shard_once(runs)
    owner: dict[tuple, str] = {}
    for run in runs:
        for unit in run.manifest["shard"].get("units") or []:
            held = shards.Unit.of(unit)
            if held.key in owner:
                raise HotpathError(f"{held.name} is in shard {owner[held.key]} and in shard "
                                   f"{run.label}: a row measured twice")
            owner[held.key] = run.label


def merge_builds(folders: list[Path], out: Path | None = None) -> Path:
    """Check the shards' run folders, then write the merged run into ``out`` (default:
    data/results/ab/<name>/), replacing an earlier run only when it is complete."""
    from ..paths import AB_RESULTS

    found = sorted((read_builds_shard(f) for f in folders), key=lambda r: r.index)
    check_builds(found)
    first = found[0].manifest
    out = out or AB_RESULTS / str(first.get("name") or "ab")
    merged = runs.join({_label(r): runs.load(r.folder, runs.BUILDS, rounds=True) for r in found})
    manifest = {k: v for k, v in first.items() if k != "shard"}
    sides = {}
    for role in runs.ROLES:
        status = _memory_status(found, role, merged.passed("memory", role) is not None)
        if status["status"] != "measured":
            merged.put("memory", None, role)
        sides[role] = {**first["sides"][role], "sha256": merged.sha256(role), "memory": status}
    manifest["sides"] = sides
    rounds: list[str] = []
    order: list[str] = []
    failed: list[Any] = []
    differences: list[Any] = []
    for shard in found:
        for cmd in shard.manifest.get("interleaved_rounds") or []:
            head, _, last = cmd.rpartition(" ")
            rounds.append(f"{head} rounds/{_label(shard)}-{last.rsplit('/', 1)[-1]}")
        order += shard.manifest.get("round_sides") or []
        failed += shard.manifest.get("failed") or []
        differences += [d for d in shard.manifest.get("differences") or [] if d not in differences]
    manifest.update({
        "interleaved_rounds": rounds, "round_sides": order, "failed": failed,
        "differences": differences,
        **_joined([(shard, shard.manifest) for shard in found], found[0].count),
    })
    merged.provenance = manifest
    runs.dump(merged, out)
    return out


def _memory_status(found: list[BuildsShard], role: str, joined: bool) -> dict:
    """A side's memory pass in the merged run: measured where every shard measured it (and its
    files joined), else the first shard's reason why not."""
    statuses = [(shard, (shard.manifest["sides"][role].get("memory") or {})) for shard in found]
    if joined and all(m.get("status") == "measured" for _, m in statuses):
        return {"status": "measured",
                "command": "; ".join(str(m.get("command", "")) for _, m in statuses)}
    why = next((f"shard {r.label}: {m.get('why', 'not measured')}" for r, m in statuses
                if m.get("status") != "measured"), "no native B/op in the shards")
    return {"status": "not measured", "why": why}
