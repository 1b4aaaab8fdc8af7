"""requirements.lock holds every dependency pyproject.toml names, at a version it allows.

`make lock` (pip-compile) writes the lock from pyproject.toml; `make setup` installs the lock
and nothing else. A dependency added to pyproject.toml without `make lock` would then be
missing from the venv, or present by chance: this check says so before anything runs.
``python -m hotpath.lock`` exits 1 with one line per problem.
"""

from __future__ import annotations

import re
import sys
import tomllib

from packaging.requirements import Requirement
from packaging.version import Version

from .paths import ROOT

LOCK = ROOT / "requirements.lock"
PYPROJECT = ROOT / "pyproject.toml"
#: The extras the lock is made with (`make lock`: --extra test).
EXTRAS = ("test",)
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)


def normalize(name: str) -> str:
    """PEP 503: runs of -, _ and . are one -, case is ignored."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock_text: str) -> dict[str, Version]:
    """Every ``name==version`` line of a pip-compile lock, by normalized name."""
    return {normalize(name): Version(version) for name, version in _PIN.findall(lock_text)}


def required(pyproject_text: str, extras: tuple[str, ...] = EXTRAS) -> list[Requirement]:
    """The project's dependencies and those of the given extras."""
    project = tomllib.loads(pyproject_text).get("project", {})
    optional = project.get("optional-dependencies", {})
    texts = list(project.get("dependencies", []))
    for extra in extras:
        texts += optional.get(extra, [])
    return [Requirement(t) for t in texts]


def problems(pyproject_text: str, lock_text: str) -> list[str]:
    """What the lock lacks: a dependency it does not pin, or pins at a version not allowed."""
    pinned = pins(lock_text)
    out = []
    for req in required(pyproject_text):
        if req.marker and not any(req.marker.evaluate({"extra": e}) for e in ("", *EXTRAS)):
            continue  # not for this platform or Python: pip-compile leaves it out too
        version = pinned.get(normalize(req.name))
        if version is None:
            out.append(f"pyproject.toml names {req.name}, which requirements.lock does not hold")
        elif not req.specifier.contains(version, prereleases=True):
            out.append(f"pyproject.toml wants {req}, requirements.lock pins {req.name}=={version}")
    return out


def main() -> int:
    found = problems(PYPROJECT.read_text(encoding="utf-8"), LOCK.read_text(encoding="utf-8"))
    for line in found:
        print(f"hotpath: {line}", file=sys.stderr)
    if found:
        print("hotpath: the lock is out of date: run `make lock`, review and commit the diff",
              file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
