"""hotpath/prerequisites.py: each missing prerequisite is one line naming what was found and how
to get it; what only weakens a run is a warning; a machine that has everything passes, fast.
The machine is simulated: a PATH of fake programs, and the checks' inputs given to them."""

from __future__ import annotations

import ast
import errno
import os
import subprocess
import sys
import time
from pathlib import Path

from hotpath import prerequisites as pre

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "hotpath" / "prerequisites.py"


def _program(folder: Path, name: str, text: str = "exit 0") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{text}\n")
    path.chmod(0o755)
    return path


def _jdk(folder: Path, version: str, javac: bool = True) -> Path:
    """A JDK's layout: bin/java (which fails if started: the release file must be enough),
    bin/javac and the release file."""
    _program(folder / "bin", "java", f"touch {folder}/started; exit 1")
    if javac:
        _program(folder / "bin", "javac")
    (folder / "release").write_text(f'JAVA_VERSION="{version}"\nIMPLEMENTOR="test"\n')
    return folder / "bin"


def _texts(found):
    return [f.line() for f in found]


# -- Java -----------------------------------------------------------------------------------------

def test_java_missing_from_path_is_named(tmp_path):
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    assert _texts(pre.check_java(str(bin_))) == [
        "hotpath: needs Java 17 or newer on PATH (found none): install a JDK 17+ (Debian: "
        "openjdk-17-jdk-headless) and put its bin/ on PATH"]


def test_java_too_old_is_named_with_its_version_and_place(tmp_path):
    """No release file beside it: `java -version` says (on stderr, as every JDK does)."""
    java = _program(tmp_path / "bin", "java", """echo 'openjdk version "11.0.22" 2024-01-16' >&2""")
    (line,) = _texts(pre.check_java(str(tmp_path / "bin")))
    assert line.startswith(f"hotpath: needs Java 17 or newer on PATH (found 11 at {java}): ")
    assert "PATH" in line.split(": ", 2)[2]


def test_java_8_reads_as_8(tmp_path):
    _program(tmp_path / "bin", "java", """echo 'java version "1.8.0_402"' >&2""")
    (line,) = _texts(pre.check_java(str(tmp_path / "bin")))
    assert "(found 8 at " in line


def test_a_jdk_17_passes_by_its_release_file_without_starting_java(tmp_path):
    bin_ = _jdk(tmp_path / "jdk-17", "17.0.15")
    assert pre.check_java(str(bin_)) == []
    assert not (tmp_path / "jdk-17" / "started").exists()
    assert pre.check_java(str(_jdk(tmp_path / "jdk-25", "25"))) == []


def test_a_jre_without_javac_is_named(tmp_path):
    bin_ = _jdk(tmp_path / "jre", "17.0.15", javac=False)
    (line,) = _texts(pre.check_java(str(bin_)))
    assert "needs a JDK, not a JRE: no javac beside" in line
    # make report PROFILE=reference builds nothing: a JRE renders it
    assert pre.check_java(str(bin_), needs_compiler=False) == []


def test_java_home_that_maven_would_compile_with_is_checked_too(tmp_path):
    bin_ = _jdk(tmp_path / "jdk-17", "17.0.15")
    _jdk(tmp_path / "jdk-11", "11.0.2")
    (line,) = _texts(pre.check_java(str(bin_), java_home=str(tmp_path / "jdk-11")))
    assert line == (f"hotpath: JAVA_HOME={tmp_path / 'jdk-11'} is Java 11, and Maven compiles with "
                    f"it: point it at a JDK 17+ or unset it")
    assert pre.check_java(str(bin_), java_home=str(tmp_path / "jdk-17")) == []


def test_maven_missing_is_named(tmp_path):
    (tmp_path / "bin").mkdir()
    (line,) = _texts(pre.check_maven(str(tmp_path / "bin")))
    assert line.startswith("hotpath: needs Maven (mvn) on PATH")
    _program(tmp_path / "bin", "mvn")
    assert pre.check_maven(str(tmp_path / "bin")) == []


# -- Python, make, the OS, disk -------------------------------------------------------------------

def test_python_too_old_says_how_to_name_another():
    (line,) = _texts(pre.check_python((3, 9, 2), "/usr/bin/python3", can_make_venv=True))
    assert line == ("hotpath: needs Python 3.11 or newer to make .venv (found 3.9.2 at "
                    "/usr/bin/python3): install it and name it, e.g. make report PYTHON=python3.11")


def test_python_without_venv_says_which_package():
    (line,) = _texts(pre.check_python((3, 11, 2), "/usr/bin/python3", can_make_venv=False))
    assert "cannot make a virtual environment" in line and "python3.11-venv" in line
    # once .venv is made, its interpreter is what runs: nothing more is made with it
    assert pre.check_python((3, 11, 2), "/x/.venv/bin/python", venv_made=True,
                            can_make_venv=False) == []


def test_a_newer_python_is_a_warning_not_an_error():
    (found,) = pre.check_python((3, 12, 1), "/usr/bin/python3", can_make_venv=True)
    assert found.level == "warning" and "resolved for CPython 3.11" in found.text
    assert pre.check_python((3, 11, 7), "/usr/bin/python3", can_make_venv=True) == []


def test_an_old_make_is_named_and_an_unknown_one_passes():
    (line,) = _texts(pre.check_make("3.81"))
    assert line.startswith("hotpath: needs GNU make 4.0 or newer (found 3.81)")
    assert pre.check_make("4.3") == [] and pre.check_make("") == []


def test_another_os_is_named():
    (line,) = _texts(pre.check_os("Darwin"))
    assert line.startswith("hotpath: needs Linux (found Darwin)")
    assert pre.check_os("Linux") == []


def test_low_disk_is_named_with_what_set_up_still_needs(tmp_path):
    (line,) = _texts(pre.check_disk(free=300 * 2**20, venv_made=False, m2_filled=False, root=tmp_path))
    assert line == (f"hotpath: needs about 1.5 GB free on {tmp_path} for .venv, ~/.m2, the runs "
                    f"(found 0.3 GB free): free some space")
    # made already: only the runs' room is asked for
    assert pre.check_disk(free=600 * 2**20, venv_made=True, m2_filled=True, root=tmp_path) == []
    assert pre.check_disk(free=600 * 2**20, venv_made=False, m2_filled=True, root=tmp_path) != []


# -- perf events: warnings only -------------------------------------------------------------------

def _reader(paranoid: str = "2", kallsyms: str = "ffffffff81000000 T _text"):
    return lambda path: {pre.PARANOID: paranoid, pre.KALLSYMS: kallsyms}.get(path, "")


def test_perf_events_with_the_kernel_say_nothing():
    assert pre.check_perf(lambda exclude_kernel: 0, _reader()) == []


def test_perf_events_without_the_kernel_are_a_warning_naming_the_sysctl():
    opened = lambda exclude_kernel: 0 if exclude_kernel else errno.EACCES
    (found,) = pre.check_perf(opened, _reader("2"))
    assert found.level == "warning"
    assert found.line().startswith("hotpath: warning: perf events leave out the kernel here "
                                   "(perf_event_paranoid=2, not root): CPU samples will have no kernel frames")
    assert "sysctl kernel.perf_event_paranoid=1" in found.text


def test_perf_events_refused_say_itimer_and_the_container():
    (found,) = pre.check_perf(lambda exclude_kernel: errno.EPERM, _reader("4"))
    assert found.level == "warning"
    assert "perf events are refused here (Operation not permitted; perf_event_paranoid=4, or a " \
           "container's seccomp): the CPU sampler falls back to itimer" in found.text


def test_hidden_kernel_symbols_are_a_warning():
    (found,) = pre.check_perf(lambda exclude_kernel: 0, _reader(kallsyms="0000000000000000 T _text"))
    assert found.level == "warning" and "kptr_restrict" in found.text


def test_the_real_probe_answers_without_error():
    """On this machine: an errno or 0, never an exception (x86-64 and arm64 know the syscall)."""
    assert isinstance(pre.open_perf_event(True), int)


# -- Chromium, for make test ----------------------------------------------------------------------

def test_chromium_missing_without_apt_get_is_named(tmp_path):
    (tmp_path / "bin").mkdir()
    (line,) = _texts(pre.check_chromium(str(tmp_path / "bin"), tmp_path / "chromium", uid=0))
    assert line.startswith(f"hotpath: make test needs Chromium at {tmp_path / 'chromium'}")
    assert "no apt-get" in line


def test_chromium_missing_with_apt_get_is_installed_by_make_test(tmp_path):
    _program(tmp_path / "bin", "apt-get")
    assert pre.check_chromium(str(tmp_path / "bin"), tmp_path / "chromium", uid=0) == []
    (line,) = _texts(pre.check_chromium(str(tmp_path / "bin"), tmp_path / "chromium", uid=1000))
    assert "get sudo" in line  # not root, and no sudo to install it with
    _program(tmp_path / "bin", "sudo")
    (found,) = pre.check_chromium(str(tmp_path / "bin"), tmp_path / "chromium", uid=1000)
    assert found.level == "warning" and "sudo apt-get" in found.text
    _program(tmp_path, "chromium")
    assert pre.check_chromium(str(tmp_path / "bin"), tmp_path / "chromium", uid=1000) == []


# -- the whole, as the Makefile runs it -----------------------------------------------------------

def _run(*args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, float]:
    t0 = time.monotonic()
    done = subprocess.run(list(args), cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=env)
    return done, time.monotonic() - t0


def test_this_machine_passes_fast():
    """The machine the tests run on has what make test needs: nothing blocks it, in under 2 s."""
    done, took = _run(sys.executable, str(SCRIPT), "--for", "test", "--make-version", "4.3")
    assert done.returncode == 0, done.stderr
    assert "hotpath: needs" not in done.stderr
    assert took < 2.0


def test_make_names_each_missing_program_in_a_line_of_its_own(tmp_path):
    """make prerequisites on a PATH without Java and Maven: two lines, exit 2, before anything
    else runs."""
    (tmp_path / "bin").mkdir()
    env = {"PATH": str(tmp_path / "bin"), "HOME": os.environ.get("HOME", str(tmp_path))}
    done, took = _run("/usr/bin/make", "--no-print-directory", "prerequisites", env=env)
    errors = [l for l in done.stderr.splitlines() if l.startswith("hotpath: ") and "warning" not in l]
    assert done.returncode == 2, done.stderr
    assert [l.split(" (found")[0] for l in errors] == [
        "hotpath: needs Java 17 or newer on PATH",
        "hotpath: needs Maven (mvn) on PATH to build target/benchmarks.jar"]
    assert took < 5.0


def test_a_python_that_is_not_there_is_named_by_make(tmp_path):
    """PYTHON= names the interpreter that makes .venv (a tree whose .venv is not made yet:
    SETUP= names a file that is not there; where .venv is made, its own interpreter runs)."""
    done, _ = _run("/usr/bin/make", "--no-print-directory", "prerequisites", "PYTHON=python0.1",
                   "SETUP=target/not-made")
    assert done.returncode == 2
    assert "hotpath: needs Python 3.11 to make .venv (found no 'python0.1' on PATH)" in done.stderr


def test_the_script_reads_on_an_old_python():
    """An old interpreter must get to say it is old: the file is Python 3.7's syntax."""
    ast.parse(SCRIPT.read_text(encoding="utf-8"), feature_version=(3, 7))


def test_the_script_imports_the_standard_library_only():
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module and not n.level}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
