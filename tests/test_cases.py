"""One list of cases: the tree, hotpath/cases.py and the Makefile agree, and every case has
every file a case needs, both ways."""

import subprocess

from hotpath.render import report
from hotpath.cases import CASES
from hotpath.paths import CLAIMS, FLOORS, ROOT

#: What a case consists of, beyond its registry entry.
PARTS = {
    "model package": lambda c: ROOT / "java-src" / "main" / "java" / "hotpath" / c,
    "benchmarks": lambda c: ROOT / "java-src" / "bench" / "java" / "hotpath" / c,
    "JUnit tests": lambda c: ROOT / "java-src" / "test" / "java" / "hotpath" / c,
    "report notebook": lambda c: ROOT / "notebooks" / f"{c}.ipynb",
    "Java notebook": lambda c: ROOT / "notebooks" / "java" / f"{c}.ipynb",
    "claims": lambda c: CLAIMS / f"{c}.csv",
    "floors": lambda c: FLOORS / f"{c}.csv",
}


def test_every_registered_case_has_every_part():
    missing = [f"{c}: {part} ({path(c).relative_to(ROOT)})"
               for c in CASES for part, path in PARTS.items() if not path(c).exists()]
    assert not missing, "\n".join(missing)


def test_every_case_in_the_tree_is_registered():
    unregistered = []
    for part in ("report notebook", "Java notebook", "claims", "floors"):
        folder = PARTS[part]("x").parent
        for f in folder.glob(f"*{PARTS[part]('x').suffix}"):
            if f.stem not in CASES and f not in report.NOTEBOOKS_OF_NO_CASE:
                unregistered.append(f"{f.relative_to(ROOT)} belongs to no case in hotpath/cases.py")
    assert not unregistered, "\n".join(unregistered)


def test_the_makefile_runs_exactly_the_registered_cases():
    out = subprocess.run(["make", "-s", "--no-print-directory", "list-cases"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    assert sorted(out) == sorted(CASES)


def test_no_notebook_repeats_the_list_of_cases():
    for c in CASES:
        text = (ROOT / "notebooks" / f"{c}.ipynb").read_text(encoding="utf-8")
        assert "writer, encoder, marshaller, zip or store" not in text, c
