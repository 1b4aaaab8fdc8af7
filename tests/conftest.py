import os
from pathlib import Path

import pytest

# The tests start make as a user does. Under make test's two lanes they would inherit its
# jobserver's flags, which a make they start cannot reach (it warns on stderr).
for _name in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
    os.environ.pop(_name, None)

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA
