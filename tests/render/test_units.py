"""Units a person writes: one readable unit per column, three significant digits."""

import contextlib
import io
import re
from pathlib import Path

import pytest

from hotpath.render import fmt, units
from hotpath.cli import main

EXTERNAL = Path(__file__).parents[1] / "data" / "external"


@pytest.mark.parametrize("unit, values, shown, first", [
    ("ms/op", [5.94e-07], "ns/op", "0.594"),
    ("s/op", [3.23e-09], "ns/op", "3.23"),
    ("ms/op", [3.23e-05, 8.31e-07], "ns/op", "32.3"),
    ("ns/op", [17550.0, 213.0], "ns/op", "17,550"),
    ("ns/op", [288_000.0, 17_400.0], "µs/op", "288"),
    ("us/op", [1500.0, 2500.0], "ms/op", "1.50"),
    ("ops/s", [11627.0, 9572.0], "kops/s", "11.6"),
    ("ops/ms", [4.2], "kops/s", "4.20"),
    ("ops/s", [0.5], "ops/s", "0.500"),
])
def test_a_column_gets_one_readable_unit(unit, values, shown, first):
    scale = units.score_scale(unit, values)
    assert scale.unit == shown
    assert fmt.fmt_number(scale(values[0])) == first


def test_bytes_move_to_kb_and_mb_only_for_large_columns():
    assert units.byte_scale([4096, 0], "/op").unit == "B/op"
    kb = units.byte_scale([20104, 19248])
    assert kb.unit == "KB" and fmt.fmt_bytes(19248, kb) == "18.8"
    mb = units.byte_scale([18_840_136, 14_307_611])
    assert mb.unit == "MB" and fmt.fmt_bytes(18_840_136, mb) == "18.0"
    assert fmt.fmt_bytes(0, mb) == "0"


@pytest.mark.parametrize("x, text", [(0.000123, "0.000123"), (0.0123, "0.0123"), (2.134, "2.13"),
                                     (21.34, "21.3"), (213.4, "213"), (17550.2, "17,550"),
                                     (-2.5, "\u22122.50")])
def test_numbers_keep_three_significant_digits_and_no_exponent(x, text):
    assert fmt.fmt_number(x) == text


@pytest.mark.parametrize("name", ["samples-baseline.json", "samples-candidate.json"])
def test_foreign_files_print_in_readable_units(name):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["table", str(EXTERNAL / name), "--format", "md"]) == 0
    text = out.getvalue()
    assert not re.search(r"\d[eE][−+-]?\d", text), text  # no 5.94e−07
    assert re.search(r"\| (ns|µs|ms|s)/op \|", text)
    for unit in re.findall(r"\| ([a-zµ]*(?:ops/s|/op)) \|", text):
        assert unit in ("ns/op", "µs/op", "ms/op", "s/op", "ops/s", "kops/s", "Mops/s", "Gops/s")


def test_two_foreign_runs_compare_in_readable_units():
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["table", str(EXTERNAL / "samples-baseline.json"), "--format", "md"]) == 0
    assert "e-0" not in out.getvalue() and "e−0" not in out.getvalue()
