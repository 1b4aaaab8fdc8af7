"""The stages' direction (render -> analyze -> measure) is held by import-linter's contracts in
pyproject.toml, not by care: `make test` runs `lint-imports`, and an import against the
direction breaks it, as does analyze or render using measure, or what the stages share (the
statistics below them) using a stage."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from hotpath.paths import ROOT

LINT = Path(sys.executable).with_name("lint-imports")


def _lint(tree: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(tree)}  # the copy, not the installed package
    return subprocess.run([str(LINT), "--no-cache"], cwd=tree, env=env, capture_output=True,
                          text=True, timeout=120)


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "hotpath", tmp_path / "hotpath",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_package_keeps_its_contracts(tmp_path):
    done = _lint(_copy(tmp_path))
    assert done.returncode == 0, done.stdout[-2000:]
    assert "3 kept, 0 broken" in done.stdout


def _lint_with(tmp_path, module: str, line: str):
    """import-linter over a copy of the tree whose ``module`` (under hotpath/) ends with ``line``."""
    tree = _copy(tmp_path)
    path = tree / "hotpath" / module
    path.write_text(path.read_text() + f"\n{line}\n")
    return _lint(tree)


def test_a_render_import_in_an_analyze_module_breaks_the_layers(tmp_path):
    done = _lint_with(tmp_path, "analyze/stats.py",
                      "from ..render import fmt  # against the direction")
    assert done.returncode != 0
    assert "hotpath.analyze.stats -> hotpath.render.fmt" in done.stdout


def test_a_stage_import_in_a_shared_module_is_forbidden(tmp_path):
    done = _lint_with(tmp_path, "cases.py",
                      "from .measure import profiles  # a stage in the registry")
    assert done.returncode != 0
    assert "hotpath.cases -> hotpath.measure.profiles" in done.stdout


def test_analyze_reading_measure_breaks_its_contract(tmp_path):
    done = _lint_with(tmp_path, "analyze/stats.py",
                      "from ..measure import forkplan  # the runner, in the reader")
    assert done.returncode != 0
    assert "hotpath.analyze.stats -> hotpath.measure.forkplan" in done.stdout


def test_a_stage_import_in_the_statistics_is_forbidden(tmp_path):
    done = _lint_with(tmp_path, "stats/welch.py",
                      "from ..analyze import stats  # a stage below the stages")
    assert done.returncode != 0
    assert "hotpath.stats.welch -> hotpath.analyze.stats" in done.stdout
