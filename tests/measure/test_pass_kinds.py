"""The kinds of evidence a finished run can be given (hotpath.measure.passes.KINDS): one entry
each, which the case runs and the runs of two builds both run (hotpath.measure.added.add)."""

from pathlib import Path

import pytest

from hotpath import runs
from hotpath.errors import UnknownNameError
from hotpath.measure import added, cpu, passes, sites
from hotpath.measure.profiles import PROFILES


@pytest.mark.parametrize("name", sorted(passes.KINDS))
def test_each_kind_writes_a_runs_pass_file_with_its_own_profiler_into_the_folder_given(name):
    kind = passes.KINDS[name]
    assert kind.name == name and name in runs.PASSES
    folder = Path("/scratch/profiler-folder")
    options = kind.options(PROFILES["reference"], "java", folder, kind.forks(PROFILES["reference"]))
    profiler = {"sites": sites.PROFILER, "cpu": cpu.PROFILER}[name]
    assert any(o.startswith(f"{profiler}:dir={folder}") for o in options), options
    assert options[options.index("-f") + 1] == str(kind.forks(PROFILES["reference"]))


def test_the_cpu_kind_samples_with_full_debug_information_and_keeps_the_forks_results():
    kind = passes.KINDS["cpu"]
    options = kind.options(PROFILES["quick"], "java", Path("/x"), 3)
    jvm = options[options.index("-jvmArgsAppend") + 1]
    assert "-XX:+DebugNonSafepoints" in jvm and kind.keeps_json and not passes.KINDS["sites"].keeps_json


def test_an_unknown_kind_is_a_clear_error_naming_the_known_ones():
    with pytest.raises(UnknownNameError, match="unknown pass 'flames'.*sites, cpu"):
        passes.kind_of("flames")


def test_a_commands_scratch_folder_and_the_projects_root_are_shown_as_a_user_types_them():
    from hotpath.paths import ROOT

    cmd = ["java", "-jar", str(ROOT / "target" / "benchmarks.jar"), "-prof", "P:dir=/tmp/s/0.d"]
    assert added.recorded_command(cmd, Path("/tmp/s/0.d"), "cpu") == \
        "java -jar target/benchmarks.jar -prof P:dir=cpu"
