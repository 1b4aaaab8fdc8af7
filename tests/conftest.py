import os
from dataclasses import replace
from pathlib import Path

import pytest

from hotpath.measure.profiles import PROFILES

# The tests start make as a user does. Under make test's two lanes they would inherit its
# jobserver's flags, which a make they start cannot reach (it warns on stderr).
for _name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
    os.environ.pop(_name, None)

DATA = Path(__file__).parent / "data"

# The forks the suite starts in its own process pretouch a heap of 256 MB, not a measurement's
# 1 GB: touching 1 GB took 0.55 s of a short fork's 1.9 s (0.85 s of CPU), and no test here
# holds a figure that the heap's size moves (what they assert is what the host cannot undo:
# a 16x change, exact bytes, shares of a fork's own samples). Set before any test module
# reads the profiles; the flags stay the profiles' own, only the size differs.
SUITE_HEAP = "256m"
for _name, _profile in list(PROFILES.items()):
    PROFILES[_name] = replace(_profile, jvm_args=tuple(
        f"{a[:4]}{SUITE_HEAP}" if a[:4] in ("-Xms", "-Xmx") else a for a in _profile.jvm_args))


@pytest.fixture
def data_dir() -> Path:
    return DATA
