"""requirements.lock holds every dependency of pyproject.toml (and its test extra), pinned with
hashes: `make setup` installs the lock and nothing else."""

from hotpath import lock
from hotpath.paths import ROOT

PYPROJECT = """
[project]
name = "demo"
dependencies = ["NumPy>=1.26", "ruamel.YAML_clib<1", "jjava>=1.0a8", "pywin32; sys_platform == 'win32'"]

[project.optional-dependencies]
test = ["pytest>=8"]
docs = ["sphinx"]
"""

LOCK = """\
jjava==1.0a8 \\
    --hash=sha256:00
numpy==2.4.6 \\
    --hash=sha256:00
    # via demo (pyproject.toml)
ruamel-yaml-clib==0.2.12 \\
    --hash=sha256:00
pytest==9.2.0 \\
    --hash=sha256:00
"""


def test_the_committed_lock_holds_every_dependency_of_pyproject():
    assert lock.problems((ROOT / "pyproject.toml").read_text(), lock.LOCK.read_text()) == []


def test_every_pin_in_the_committed_lock_has_a_hash():
    lines = lock.LOCK.read_text().splitlines()
    pinned = [i for i, line in enumerate(lines) if lock._PIN.match(line)]
    assert len(pinned) == len(lock.pins("\n".join(lines))) > 50
    for i in pinned:
        assert lines[i + 1].strip().startswith("--hash=sha256:"), f"{lines[i]} has no hash"


def test_names_are_compared_as_pep_503_normalizes_them():
    assert lock.normalize("ruamel.YAML_clib") == lock.normalize("ruamel-yaml-clib") == "ruamel-yaml-clib"
    assert lock.problems(PYPROJECT, LOCK) == []


def test_a_dependency_the_lock_does_not_hold_is_named():
    found = lock.problems(PYPROJECT.replace('"pytest>=8"', '"pytest>=8", "jira2markdown"'), LOCK)
    assert found == ["pyproject.toml names jira2markdown, which requirements.lock does not hold"]
    found = lock.problems(PYPROJECT, LOCK.replace("numpy==2.4.6", "scipy==1.17.1"))
    assert found == ["pyproject.toml names NumPy, which requirements.lock does not hold"]


def test_a_pin_outside_what_pyproject_allows_is_named():
    found = lock.problems(PYPROJECT.replace("NumPy>=1.26", "NumPy>=3"), LOCK)
    assert found == ["pyproject.toml wants NumPy>=3, requirements.lock pins NumPy==2.4.6"]


def test_a_test_dependency_counts_and_other_extras_and_platforms_do_not():
    found = lock.problems(PYPROJECT, LOCK.replace("pytest==9.2.0", "pluggy==1.7.0"))
    assert found == ["pyproject.toml names pytest, which requirements.lock does not hold"]
    # sphinx (extra "docs") and pywin32 (Windows only) are not in the lock, and need not be
    assert "sphinx" not in LOCK and "pywin32" not in LOCK
