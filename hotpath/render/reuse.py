"""A report is not rendered again while nothing it is made of has changed.

Rendering a report is a kernel starting and a notebook running, and the same inputs give
the same bytes (``report.settle``). So a report folder published under a *key*, a SHA-256 over
everything its render reads, gets a record in target/rendered/: the key, and the SHA-256 of
every file the folder received, taken from the files published. A later render under the same
key whose folder still holds exactly those files keeps the folder as it is.

The inputs are taken whole rather than traced, so that no input can be forgotten: every file
under data/ and notebooks/, the hotpath package's own files, the benchmark jar (the flame graphs'
converter) and the JDK that runs it, the Python and every installed distribution with the
Jupyter, IPython and Matplotlib configuration they read, the line a report prints of the software
that drew it (the commit, and whether the tree differs from it), the environment, the cases in
the tree and the ``make profile`` flame graphs a case report links; then the job itself: which
render, its arguments and its folder. A job whose arguments name a file outside data/ is not
reused. Any change among them renders again; hashing all of it takes a fraction of a second.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..cases import existing_cases
from ..paths import JAR, REPORTS, ROOT
from . import versions

DATA = ROOT / "data"
NOTEBOOKS = ROOT / "notebooks"
PACKAGE = Path(__file__).resolve().parents[1]
#: One record per report folder: its key and its files' SHA-256.
RECORDS = ROOT / "target" / "rendered"
#: Environment variables no render reads, by name or prefix: the shell's, make's and the
#: terminal session's own, which differ between a command typed and the same command run by
#: make, or from one login to the next. Every other variable is an input (one that no render
#: reads only costs a render when it changes, never a stale report).
UNREAD_ENV = frozenset({"_", "OLDPWD", "PWD", "SHLVL", "MFLAGS", "TERM", "COLORTERM", "COLUMNS",
                        "LINES", "LS_COLORS", "DISPLAY", "WINDOWID", "STY", "XDG_RUNTIME_DIR"})
#: (PYTEST_: pytest's own, naming the test running, set for a render the tests start.)
UNREAD_ENV_PREFIXES = ("MAKE", "SSH_", "TERM_", "XDG_SESSION_", "DBUS_SESSION_", "TMUX", "PYTEST_")
#: Files that configure the kernel and the libraries that draw a report, wherever they are read.
CONFIG_SUFFIXES = (".py", ".json", ".toml", ".yaml", ".yml", "rc", ".cfg", ".ini")


class Kept(type(Path())):  # type: ignore[misc]
    """A report folder kept as it was: the same inputs rendered it last time."""


class Inputs:
    """Everything a render reads beside its own arguments, as one digest (``read``)."""

    def __init__(self, digest: str, data: tuple[Path, ...] = (DATA,), stamps: tuple | None = None):
        self.digest = digest
        self.data = tuple(d.resolve() for d in data)
        self._fresh: dict[tuple[Path, str], bool] = {}
        #: what ``unchanged`` compares: every input file's size and change time, and the rest
        self.stamps = stamps

    @classmethod
    def read(cls, data: tuple[Path, ...] = (DATA,)) -> Inputs | None:
        """The inputs as they are now, ``data`` the folders of measured data (a job naming a
        file elsewhere is not reused); None where one cannot be read (then nothing is)."""
        h = hashlib.sha256()
        try:
            stamps = _stamps(data)  # before the hashing: a change while it reads shows later
            for root in _roots(data):
                _tree(h, root)
            java, release = _java()
            _text(h, "java", java)
            for path in _single_files(release):
                _file(h, path)
            _text(h, "software", versions.describe(), sys.version, sys.executable,
                  *sorted(f"{d.metadata['Name']}=={d.version}"
                          for d in importlib.metadata.distributions()))
            _text(h, "environment", *_environment())
            _text(h, "cases", *(c.id for c in existing_cases()))
            _text(h, "flame graphs", *_flame_graphs())
        except OSError:
            return None
        prune()
        return cls(h.hexdigest(), data, stamps)

    def unchanged(self) -> bool:
        """Whether the inputs are still what they were read as: what was rendered meanwhile
        may have read either, and is not recorded. Told by what ``read`` hashed, as the files'
        sizes and change times say (a change of content changes them): a render's end took a
        second to hash 190 MB of data again, twice."""
        try:
            return self.stamps is not None and _stamps(self.data) == self.stamps
        except OSError:
            return False

    def key(self, render: Callable, args: Iterable[Any]) -> tuple[Path, str] | None:
        """The folder a render job publishes and the key of its inputs; None for a job that is
        not reused: a render that records no key, no folder given, or an argument (a file, a
        notebook parameter) naming a path outside data/."""
        try:
            signature = inspect.signature(render)
            bound = signature.bind(*args)
        except (TypeError, ValueError):
            return None
        if ("key" not in signature.parameters or "key" in bound.arguments
                or bound.arguments.get("out_dir") is None):
            return None
        out = Path(bound.arguments.pop("out_dir")).resolve()
        try:
            job = {name: self._argument(value) for name, value in bound.arguments.items()}
        except ValueError:
            return None
        text = json.dumps([self.digest, render.__module__, render.__qualname__, str(out), job],
                          sort_keys=True, ensure_ascii=False)
        return out, hashlib.sha256(text.encode("utf-8")).hexdigest()

    def _argument(self, value: Any) -> Any:
        if isinstance(value, Path) or (isinstance(value, str) and os.sep in value):
            path = (ROOT / value).resolve()
            if not any(path.is_relative_to(d) for d in self.data):
                raise ValueError(f"{value} is not under {', '.join(map(str, self.data))}")
            return str(path)
        if isinstance(value, dict):
            return {str(k): self._argument(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self._argument(v) for v in value]
        if value is None or isinstance(value, (str, int, float, bool)):
            return value
        raise ValueError(f"{value!r} has no stable key")

    def fresh(self, out: Path, key: str, skip: Iterable[str] = ()) -> bool:
        """Whether ``out`` holds what the same inputs published into it last time, checked
        once per folder and key."""
        if (out, key) not in self._fresh:
            self._fresh[(out, key)] = fresh(out, key, files(out, skip))
        return self._fresh[(out, key)]


def files(folder: Path, skip: Iterable[str] = ()) -> dict[str, str]:
    """Every file under ``folder`` by its SHA-256, but those under the top-level sub-folders
    named in ``skip`` (other jobs' outputs); {} for a folder that is not there."""
    skipped = set(skip)
    out = {}
    for where, dirs, names in os.walk(folder, followlinks=True):
        if Path(where) == folder:
            dirs[:] = [d for d in dirs if d not in skipped]
        for name in names:
            path = Path(where) / name
            out[path.relative_to(folder).as_posix()] = sha256(path)
    return dict(sorted(out.items()))


def record_of(out: Path) -> Path:
    return RECORDS / f"{hashlib.sha256(str(out).encode('utf-8')).hexdigest()[:32]}.json"


def fresh(out: Path, key: str, now: dict[str, str]) -> bool:
    """Whether the record of ``out`` has this key and the files ``out`` holds ``now``."""
    try:
        record = json.loads(record_of(out).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (bool(now) and record.get("folder") == str(out) and record.get("key") == key
            and record.get("files") == now)


def keep(out: Path, key: str, published: dict[str, str]) -> None:
    """Record that ``out`` was published under ``key`` with these files (written whole, so a
    reader sees the old record or the new)."""
    RECORDS.mkdir(parents=True, exist_ok=True)
    record = record_of(out)
    staged = record.with_name(f".{record.name}.{os.getpid()}")
    staged.write_text(json.dumps({"folder": str(out), "key": key, "files": published}, indent=1)
                      + "\n", encoding="utf-8")
    os.replace(staged, record)


def forget(out: Path) -> None:
    record_of(out).unlink(missing_ok=True)


def prune() -> None:
    """Records of folders no longer there go (the tests' temporary ones, a report deleted)."""
    for record in RECORDS.glob("*.json"):
        try:
            if not Path(json.loads(record.read_text(encoding="utf-8"))["folder"]).exists():
                record.unlink()
        except (OSError, ValueError, KeyError, TypeError):
            record.unlink(missing_ok=True)


def sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _text(h: Any, label: str, *lines: str) -> None:
    h.update(json.dumps([label, *lines], ensure_ascii=False).encode("utf-8"))


def _file(h: Any, path: Path) -> None:
    _text(h, str(path), sha256(path) if path.is_file() else "absent")


def _tree(h: Any, root: Path) -> None:
    """Every file under ``root`` by its path and content."""
    _text(h, "tree", str(root))
    for path in _files(root):
        _text(h, Path(path).relative_to(root).as_posix(), sha256(Path(path)))


def _files(root: Path) -> Iterator[str]:
    """The files under ``root``, in one order (Python's bytecode caches aside: an import writes
    them)."""
    for where, dirs, names in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            yield os.path.join(where, name)


def _roots(data: tuple[Path, ...]) -> tuple[Path, ...]:
    """The folders every file of which is an input: the measured data, the notebooks, the package."""
    return (*data, NOTEBOOKS, PACKAGE)


def _single_files(release: Path | None) -> list[Path]:
    """The inputs that are files of their own: the jar, the JDK's release file, and what the
    kernel, IPython and Matplotlib read at their start."""
    return [JAR, *([release] if release else []), *_config_files()]


def _flame_graphs() -> list[str]:
    """The ``make profile`` flame graphs a case report links: a profile's reports lie in reports/
    (the default run's) or reports/<profile>/."""
    return sorted(p.relative_to(REPORTS).as_posix() for pattern in ("*/flames/*/", "*/*/flames/*/")
                  for p in REPORTS.glob(pattern + "flame-alloc-forward.html"))


def _stamps(data: tuple[Path, ...]) -> tuple:
    """Every input file's path, size and change time (inode and content changes alike), and
    the inputs that are not files: the software, the environment, the cases, the flame graphs,
    and the folders packages are installed into (an install or removal changes their listing)."""
    files = [(path, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
             for root in _roots(data) for path in _files(root)
             for st in [os.stat(path)]]
    java, release = _java()
    others = [(str(path), *((st.st_size, st.st_mtime_ns, st.st_ctime_ns) if (st := _stat(path)) else ()))
              for path in _single_files(release)]
    installed = [(p, st.st_mtime_ns) for p in sys.path if (st := _stat(Path(p or ".")))]
    return (tuple(files), java, tuple(others), versions.describe(), tuple(_environment()),
            tuple(c.id for c in existing_cases()), tuple(_flame_graphs()), tuple(installed))


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _environment() -> list[str]:
    """The environment, but the session's bookkeeping and the variables given on make's command
    line (``make report PROFILE=reference``): make hands those to its recipes in the
    environment too, and they reach a render as its arguments, already in its key."""
    _, _, given = os.environ.get("MAKEFLAGS", "").partition("-- ")
    made = {item.split("=", 1)[0] for item in re.split(r"(?<!\\) ", given) if "=" in item}
    return sorted(f"{k}={v}" for k, v in os.environ.items()
                  if k not in UNREAD_ENV and k not in made and not k.startswith(UNREAD_ENV_PREFIXES))


def _java() -> tuple[str, Path | None]:
    """The JDK that draws the flame graphs: where its ``java`` is, and its ``release`` file
    (its vendor, version and build)."""
    found = shutil.which("java")
    if not found:
        return "no java", None
    real = Path(os.path.realpath(found))
    return str(real), real.parents[1] / "release"


def _config_files() -> list[Path]:
    """What the kernel, IPython and Matplotlib read at their start: the kernel specs by name
    (the first found is the one started), Jupyter's config path, the IPython profile's config
    and start-up scripts, any matplotlibrc. Their other files (history, caches, runtime) change
    as they run and are not read as input."""
    from jupyter_core.paths import jupyter_config_dir, jupyter_config_path, jupyter_path

    ipython = Path(os.environ.get("IPYTHONDIR") or Path.home() / ".ipython") / "profile_default"
    folders = [*map(Path, jupyter_config_path()), Path(jupyter_config_dir()), ipython,
               ipython / "startup"]
    found = [f for d in dict.fromkeys(folders) if d.is_dir() for f in sorted(d.iterdir())
             if f.is_file() and f.name.endswith(CONFIG_SUFFIXES)]
    specs = [Path(d) / name / "kernel.json" for d in jupyter_path("kernels") for name in ("python3", "java")]
    mpl = Path(os.environ.get("MPLCONFIGDIR") or Path.home() / ".config" / "matplotlib")
    given = [Path(rc), Path(rc) / "matplotlibrc"] if (rc := os.environ.get("MATPLOTLIBRC")) else []
    # the kernel's working folder is the root's
    return [*specs, *found, ROOT / "matplotlibrc", *given, mpl / "matplotlibrc"]
