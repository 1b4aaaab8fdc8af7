"""Notebooks reach the package through its face (`import hotpath as hp` and the names its
__init__ re-exports), never through a module path below it: a move inside a stage then changes
no notebook."""

import re

import nbformat
import pytest

import hotpath
from hotpath.paths import ROOT

PYTHON_NOTEBOOKS = [p for p in sorted((ROOT / "notebooks").glob("*.ipynb"))
                    if nbformat.read(p, as_version=4).metadata.get("kernelspec", {}).get("language", "python") == "python"]


def _code(path) -> str:
    return "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")


def test_there_are_python_notebooks_to_check():
    assert len(PYTHON_NOTEBOOKS) >= 7


@pytest.mark.parametrize("path", PYTHON_NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_imports_only_the_face(path):
    code = _code(path)
    below = re.findall(r"^\s*(?:from hotpath\S*|import hotpath\.\S+)", code, re.MULTILINE)
    assert not below, f"{path.name} imports below the face: {below}"
    used = set(re.findall(r"\bhp\.([A-Za-z_]\w*)", code))
    assert used, f"{path.name} does not use the package"
    assert used <= set(hotpath.__all__), f"{path.name} uses names the face does not export: {sorted(used - set(hotpath.__all__))}"


def test_every_name_the_face_exports_exists():
    missing = [n for n in hotpath.__all__ if not hasattr(hotpath, n)]
    assert not missing


def test_the_face_module_exports_exactly_the_names_the_package_lists():
    import hotpath.face as face

    public = {n for n in vars(face) if not n.startswith("_") and n != "annotations"}
    assert public == set(hotpath.__all__)


def test_importing_the_package_imports_no_pandas_until_a_name_of_the_face_is_asked_for():
    import subprocess
    import sys

    code = ("import sys, hotpath, hotpath.render.warm; print('pandas' in sys.modules); "
            "hotpath.Document; print('pandas' in sys.modules)")
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert said == ["False", "True"]


def test_a_name_the_face_does_not_have_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        hotpath.no_such_name  # noqa: B018
