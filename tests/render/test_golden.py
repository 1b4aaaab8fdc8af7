"""Golden files: real JMH outputs in tests/data/ beside the tables hotpath prints for them.

Regenerate after an intended change with HOTPATH_UPDATE_GOLDEN=1 pytest tests/test_golden.py
and review the diff.
"""

import contextlib
import io
import os
from pathlib import Path

import pytest

from hotpath.cli import main

DATA = Path(__file__).parents[1] / "data"
# (JMH file, extra `hotpath table` arguments, golden output)
CASES = [(p.name, [], p.stem + ".table.md") for p in sorted(DATA.glob("*.json"))] + [
    ("avgt-params-gc.json", ["--param", "size", "--baseline", "64", "--gc"],
     "avgt-params-gc.by-size.table.md"),
]


@pytest.mark.parametrize("source, args, golden", CASES, ids=[c[2] for c in CASES])
def test_table_matches_golden_file(source, args, golden):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["table", str(DATA / source), "--format", "md", *args]) == 0
    path = DATA / golden
    if os.environ.get("HOTPATH_UPDATE_GOLDEN"):
        path.write_text(out.getvalue())
    assert out.getvalue() == path.read_text()
