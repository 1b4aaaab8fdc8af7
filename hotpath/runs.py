"""A run's folder: the files one measurement leaves, one model for measure to write and analyze
to read.

A run is JMH's JSON of its timed forks, one results file per side (a case's run has one,
``<case>.json``; two builds' run two, ``baseline.json`` and ``candidate.json``), what each pass
wrote beside them (PASSES: a file per side, or one for the run), its provenance and its round
files (every timed fork's JSON as JMH wrote it). A case's run lies in its profile's folder beside
the other cases' runs, its files named after the case; two builds' run is a folder of its own
(Layout says which files are where).

Every file is kept as its bytes: what JMH wrote stays as JMH wrote it, and the SHA-256 a
provenance records is of the bytes on disk. ``load`` reads a run, ``dump`` writes one in place of
the earlier (a pass's file the run does not have is removed: an earlier pass must not join onto
its rows), ``join`` makes one run of the shards of one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .errors import ResultsError
from .jmh import parse_json, read_bytes
from .paths import cpu_of, memory_of, peaks_of, sidecar_of, sites_of

#: Two builds' sides, in the order every file and table names them.
ROLES = ("baseline", "candidate")

#: Shards' files of one kind: where each was read, and its bytes.
Files = list[tuple[Path, bytes]]


@dataclass(frozen=True)
class Pass:
    """What a pass leaves beside the results."""

    #: its file beside a results file (hotpath.paths names every file)
    beside: Callable[[Path], Path]
    #: a file per side (the memory pass: JMH's JSON of each side's forks), or one for the run
    per_side: bool
    #: the shards' files of one run as one file
    join: Callable[[Files], bytes]
    #: joined only where every shard has one (no half a pass); else from the shards that have it
    every: bool


def _entries(files: Files) -> bytes:
    """JMH's entries of several files side by side, each as JMH wrote it."""
    return (json.dumps([e for path, data in files for e in parse_json(data, path)], indent=2)
            + "\n").encode()


def _last(files: Files) -> bytes:
    """A case's peaks: measured by one shard alone (the one holding its first rows)."""
    return files[-1][1]


def _sites(files: Files) -> bytes:
    documents = []
    for path, data in files:
        try:
            documents.append(json.loads(data))
        except ValueError as e:
            raise ResultsError(f"{path}: unreadable ({e})") from None
    return sites_text(joined_sites(documents)).encode()


#: Every pass's file, by the pass's name: native B/op (the memory pass), peak live heap per call,
#: the allocation sites, the timed forks' CPU samples. A pass to come adds its own here.
PASSES: dict[str, Pass] = {
    "memory": Pass(memory_of, per_side=True, join=_entries, every=True),
    "peaks": Pass(peaks_of, per_side=False, join=_last, every=False),
    "sites": Pass(sites_of, per_side=False, join=_sites, every=True),
    "cpu": Pass(cpu_of, per_side=False, join=_sites, every=True),
}


def site_order(entry: dict[str, Any]) -> tuple[str, list[tuple[str, str]], str]:
    return entry["benchmark"], sorted(entry["params"].items()), entry.get("side", "")


def joined_sites(documents: list[dict[str, Any]], **extra: str) -> dict[str, Any]:
    """Several site passes' documents as one (a run's shards, or two builds' sides): their
    row-sides together, every pass's command kept."""
    return {**documents[0], "command": " ;; ".join(d.get("command", "") for d in documents),
            "entries": sorted((e for d in documents for e in d["entries"]), key=site_order), **extra}


def sites_text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=1) + "\n"


@dataclass(frozen=True)
class Layout:
    """Where a run's files lie in its folder."""

    #: its results files' stems, one per side
    sides: tuple[str, ...]
    #: the stem of the passes' files the run has once (not one per side)
    stem: str
    #: its provenance's file name
    provenance: str
    #: the folder of its round files, in the run's folder
    rounds: str
    #: the folder is the run's alone (two builds'): written whole and swapped in by two
    #: renames; else (a case's) each file is replaced where it lies, beside other runs' files
    own_folder: bool = False
    #: passes whose joined files end without a newline, as the merge of two builds' shards has
    #: always written its memory files
    joined_bare: tuple[str, ...] = ()
    #: the results files' names after their stems
    suffix: str = ".json"

    def results(self, side: str | None = None) -> str:
        return f"{side or self.sides[0]}{self.suffix}"

    def file(self, name: str, side: str | None = None) -> str:
        """A pass's file's name: a side's (the run's one side unless given), or the run's."""
        found = PASSES[name]
        stem = (side or self.sides[0]) if found.per_side else self.stem
        return found.beside(Path(f"{stem}{self.suffix}")).name

    def pass_files(self) -> dict[str, tuple[str, str | None]]:
        """Every pass's file the layout has: its name, and which pass and side it is."""
        return {self.file(name, side): (name, side)
                for name, found in PASSES.items()
                for side in (self.sides if found.per_side else (None,))}


def case(stem: str, suffix: str = ".json") -> Layout:
    """A case's run (or any results file's): ``<stem>.json``, its passes' files and provenance
    sidecar beside it, its rounds under rounds/<stem>/."""
    return Layout((stem,), stem, sidecar_of(Path(f"{stem}{suffix}")).name, f"rounds/{stem}",
                  suffix=suffix)


def of_results(path: Path) -> tuple[Path, Layout]:
    """The folder and layout of the run a results file is of (a case's, or any JMH file's)."""
    path = Path(path)
    return path.parent, case(path.stem, path.suffix)


#: Two builds' run: each build's results and memory pass by its role, the run's sites in
#: ab.sites.json, its provenance in ab.json, its rounds under rounds/.
BUILDS = Layout(ROLES, "ab", "ab.json", "rounds", own_folder=True, joined_bare=("memory",))

#: A patch series (hotpath.measure.series): a folder of two builds' runs (BUILDS), one per step of
#: the patch (the baseline against the patch up to that step), and this manifest naming them in
#: order. Not a Layout: it holds runs, not one run's files.
SERIES_MANIFEST = "series.json"


@dataclass
class Run:
    """A run's files, as bytes (its provenance as the record it is)."""

    layout: Layout
    #: each side's JMH JSON of its timed forks
    results: dict[str, bytes]
    #: each pass's file, by its name in the folder (Layout.file)
    passes: dict[str, bytes] = field(default_factory=dict)
    provenance: dict[str, Any] | None = None
    #: the round files by name; None where the run had no rounds (a profile without a plan) or
    #: they were not read: the folder's stay as they are
    rounds: dict[str, bytes] | None = None
    #: where the run was read from (its files' paths name it in errors)
    folder: Path | None = None

    def path(self, name: str) -> Path:
        return (self.folder or Path()) / name

    def entries(self, side: str | None = None) -> list[dict[str, Any]]:
        """A side's JMH entries (the run's one side unless given)."""
        side = side or self.layout.sides[0]
        return parse_json(self.results[side], self.path(self.layout.results(side)))

    def sha256(self, side: str | None = None) -> str:
        return hashlib.sha256(self.results[side or self.layout.sides[0]]).hexdigest()

    def passed(self, name: str, side: str | None = None) -> bytes | None:
        """A pass's file, None where the run has none."""
        return self.passes.get(self.layout.file(name, side))

    def put(self, name: str, data: bytes | None, side: str | None = None) -> None:
        """Set a pass's file (None: the run has none)."""
        key = self.layout.file(name, side)
        if data is None:
            self.passes.pop(key, None)
        else:
            self.passes[key] = data


def load(folder: Path, layout: Layout, rounds: bool = False) -> Run:
    """A run as its folder holds it (its round files too, with ``rounds``); a side's missing or
    empty results file is a one-line error, and so is a corrupt provenance."""
    folder = Path(folder)
    results = {side: read_bytes(folder / layout.results(side)) for side in layout.sides}
    passes = {name: (folder / name).read_bytes() for name in layout.pass_files()
              if (folder / name).is_file()}
    path = folder / layout.provenance
    provenance = _provenance(path, layout) if path.is_file() else None
    found = None
    if rounds and (folder / layout.rounds).is_dir():
        found = {f.name: f.read_bytes() for f in sorted((folder / layout.rounds).glob("*.json"))}
    return Run(layout, results, passes, provenance, found, folder)


def _provenance(path: Path, layout: Layout) -> dict[str, Any]:
    try:
        found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return found
    except json.JSONDecodeError as e:
        what = "provenance" if layout.own_folder else "provenance sidecar"
        raise ResultsError(f"{path}: corrupt {what} ({e.msg})") from None


def _provenance_text(provenance: dict[str, Any]) -> str:
    return json.dumps(provenance, indent=2) + "\n"


def dump(run: Run, folder: Path) -> None:
    """Write ``run`` into ``folder`` in place of the earlier run there: a run with a folder of
    its own whole, swapped in by two renames; a case's file by file, each replaced whole, its
    provenance last (what it describes is in place when it is). A pass's file the run does not
    have is removed."""
    if run.layout.own_folder:
        _dump_folder(run, Path(folder))
    else:
        _dump_files(run, Path(folder))


def _write(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def _dump_files(run: Run, folder: Path) -> None:
    layout = run.layout
    folder.mkdir(parents=True, exist_ok=True)
    for side, data in run.results.items():
        _write(folder / layout.results(side), data)
    if run.rounds is not None:
        rounds = folder / layout.rounds
        staging = rounds.with_name(rounds.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for name, data in run.rounds.items():
            (staging / name).write_bytes(data)
        shutil.rmtree(rounds, ignore_errors=True)
        os.replace(staging, rounds)
    for name in layout.pass_files():
        if name in run.passes:
            _write(folder / name, run.passes[name])
        else:
            (folder / name).unlink(missing_ok=True)
    if run.provenance is not None:
        _write(folder / layout.provenance, _provenance_text(run.provenance).encode())


def _dump_folder(run: Run, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.with_name(f".{out.name}.writing")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / run.layout.rounds).mkdir(parents=True)
    try:
        for side, data in run.results.items():
            (staging / run.layout.results(side)).write_bytes(data)
        for name, data in run.passes.items():
            (staging / name).write_bytes(data)
        for name, data in (run.rounds or {}).items():
            (staging / run.layout.rounds / name).write_bytes(data)
        if run.provenance is not None:
            (staging / run.layout.provenance).write_text(_provenance_text(run.provenance),
                                                         encoding="utf-8")
        put_in_place(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def put_in_place(staging: Path, out: Path) -> None:
    """A folder written whole in ``staging`` put in place of ``out`` by two renames: the earlier
    folder stays whole until the new one is complete."""
    previous = out.with_name(f".{out.name}.previous-{os.getpid()}")
    if out.exists():
        os.replace(out, previous)
    os.replace(staging, out)
    shutil.rmtree(previous, ignore_errors=True)


def add(folder: Path, layout: Layout, name: str, data: bytes, side: str | None = None) -> Path:
    """A pass's file added to a finished run (a pass run after it): that file alone is written,
    the run's others stay as they were."""
    path = Path(folder) / layout.file(name, side)
    _write(path, data)
    return path


def join(parts: dict[str, Run]) -> Run:
    """One run of the shards of one, each by a name its round files take as a prefix: each
    side's entries side by side in one file (a row's two sides always come from one shard),
    each pass's files as the pass joins them (PASSES), every shard's round files. The
    provenance is the caller's to make: it knows what the shards were."""
    runs = list(parts.values())
    layout = runs[0].layout
    results = {side: _entries([(r.path(layout.results(side)), r.results[side]) for r in runs])
               for side in layout.sides}
    joined = Run(layout, results, rounds={
        f"{name}-{f}": data for name, r in parts.items() for f, data in (r.rounds or {}).items()})
    for file, (name, side) in layout.pass_files().items():
        found = [(r.path(file), r.passes[file]) for r in runs if file in r.passes]
        if found and (len(found) == len(runs) or not PASSES[name].every):
            data = PASSES[name].join(found)
            joined.put(name, data[:-1] if name in layout.joined_bare else data, side)
    return joined


#: Hex digits of a run's name: two runs of one issue share a name once in 4 billion pairs.
RUN_ID_DIGITS = 8


def run_id(*files: Path) -> str:
    """A run's short name, which its report's attachments carry (``encoder-0c35a983-report.html``)
    so that two reports attached to one issue never shadow each other's files: the SHA-256 of
    its results file's bytes, its first digits (of several files', the SHA-256 of theirs).

    That digest rather than the commit or the start time: a commit names the code, and every
    profile and every re-run of one commit shares it; a start time is in the provenance sidecar,
    which a JMH file given to ``hotpath compare`` may not have. The digest is there for every run,
    the provenance records it (``sha256``, which reading a run checks against the bytes), and a
    run rendered again keeps its name while any run measured again gets a new one."""
    digests = [hashlib.sha256(Path(f).read_bytes()).hexdigest() for f in files]
    joined = digests[0] if len(digests) == 1 else hashlib.sha256(" ".join(digests).encode()).hexdigest()
    return joined[:RUN_ID_DIGITS]
