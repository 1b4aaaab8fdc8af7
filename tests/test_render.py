"""Formatting and the two attachable table syntaxes."""

import pandas as pd
import pytest

from hotpath import render


@pytest.mark.parametrize("x, text", [
    (17550.4, "17,550"), (213.44, "213.4"), (21.3, "21.30"), (0.01234, "0.0123"),
    (-5.0, "−5.00"), (float("nan"), "—"),
])
def test_numbers_keep_comparable_digits(x, text):
    assert render.fmt_number(x) == text


def test_jira_table_has_a_double_bar_header_and_escapes_markup():
    table = pd.DataFrame({"benchmark": ["a|b[1]"], "old": ["1 ± 2"]})
    text = render.to_jira(table)
    assert text.splitlines()[0] == "||benchmark||old||"
    assert text.splitlines()[1] == "|a\\|b\\[1\\]|1 ± 2|"


def test_markdown_table_aligns_numbers_right_and_escapes_bars():
    table = pd.DataFrame({"benchmark": ["x|y"], "B/op": ["1,040"]})
    lines = render.to_markdown(table).splitlines()
    assert lines[0] == "| benchmark | B/op |"
    assert lines[1] == "| --- | ---: |"
    assert lines[2] == "| x\\|y | 1,040 |"


def test_alloc_change_calls_out_a_drop_to_zero():
    assert "→ 0 B/op" in render.fmt_alloc_change(20480.0, 0.0, "→ 0 B/op")
    assert render.fmt_alloc_change(100.0, 104.0, "same") == "~ same"
    assert render.fmt_alloc_change(872.0, 240.0, "less") == "−632 B, −72.5%"
