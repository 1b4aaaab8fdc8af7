"""Formatting and the two attachable table syntaxes."""

import copy
import json
from pathlib import Path

import pandas as pd
import pytest

from hotpath.analyze import compare, load
from hotpath.render import fmt, markup, tables


@pytest.mark.parametrize("x, text", [
    (17550.4, "17,550"), (213.44, "213"), (21.3, "21.3"), (0.01234, "0.0123"),
    (-5.0, "−5.00"), (float("nan"), "—"),
])
def test_numbers_keep_comparable_digits(x, text):
    assert fmt.fmt_number(x) == text


def test_jira_table_has_a_double_bar_header_and_escapes_markup():
    table = pd.DataFrame({"benchmark": ["a|b[1]"], "old": ["1 ± 2"]})
    text = markup.to_jira(table)
    assert text.splitlines()[0] == "||benchmark||old||"
    assert text.splitlines()[1] == "|a&#124;b\\[1\\]|1 ± 2|"


def test_markdown_table_aligns_numbers_right_and_escapes_bars():
    table = pd.DataFrame({"benchmark": ["x|y"], "B/op": ["1,040"]})
    lines = markup.to_markdown(table).splitlines()
    assert lines[0] == "| benchmark | B/op |"
    assert lines[1] == "| --- | ---: |"
    assert lines[2] == "| x\\|y | 1,040 |"


def test_html_cells_break_long_words_at_their_joints_never_inside_a_figure():
    name = "compressedMapFields(bufferSize=65536) 20,104 B → ignite-2.16.0"
    # a name stays whole unless its table is too wide for the page
    assert markup.html_cell(name) == "compressedMapFields(bufferSize=65536) 20,104\u00a0B → ignite-2.16.0"
    assert markup.html_cell(name, markup.WIDE_LONG_WORD) == (
        "compressedMapFields(<wbr>bufferSize=65536) 20,104\u00a0B → ignite-2.16.0")
    link = markup.html_cell("[matrix](writer/matrix/report.html) in target/builds/ignite-2.16.0/benchmarks.jar")
    assert link == ('<a href="writer/matrix/report.html">matrix</a> in '
                    "target/<wbr>builds/<wbr>ignite-2.16.0/<wbr>benchmarks.<wbr>jar")


def test_a_table_too_wide_for_the_page_is_marked_and_its_figures_wrap_between_pieces():
    row = {f"variant {i} B/op old → new": "20,104 → 19,248" for i in range(12)}
    wide = markup.html_table(pd.DataFrame([{"benchmark": "copy(size=64)", **row}]))
    assert wide.startswith('<table class="hotpath wide">')
    assert '<td class="num"><span class="fig">20,104 →</span> <span class="fig">19,248</span></td>' in wide
    narrow = markup.html_table(pd.DataFrame([{"benchmark": "copy(size=64)", "heap": "20,104 → 19,248"}]))
    assert narrow.startswith('<table class="hotpath">') and '<td class="num">20,104 → 19,248</td>' in narrow


def test_a_peak_within_its_resolution_is_shown_as_a_bound():
    mb = 1024 * 1024
    assert fmt.fmt_peak(6 * mb, 2 * mb) == "6,144 KB"
    assert fmt.fmt_peak(0, 2 * mb) == "≤ 2,048 KB"
    assert fmt.fmt_peak(2 * mb, 2 * mb) == "≤ 4,096 KB"


def test_alloc_change_calls_out_a_drop_to_zero():
    assert "→ 0 B/op" in fmt.fmt_alloc_change(20480.0, 0.0, "→ 0 B/op")
    assert fmt.fmt_alloc_change(100.0, 104.0, "same") == "~ same"
    assert fmt.fmt_alloc_change(872.0, 240.0, "less") == "−632 B, −72.5%"


def _with_native(tmp_path, direct_old: float, zlib: float):
    """The calibration file with the native metrics NativeAllocProfiler would add."""
    entries = json.loads((Path(__file__).parents[1] / "data" / "avgt-variant-gc.json").read_text())
    for e in entries:
        template = e["secondaryMetrics"]["gc.alloc.rate.norm"]
        direct = direct_old if e["params"]["variant"] == "old" else 0.0
        for name, value in (("", direct + zlib), (".direct", direct), (".zlib", zlib),
                            (".other", 0.0)):
            m = copy.deepcopy(template)
            m["score"], m["rawData"] = value, [[value] * len(f) for f in template["rawData"]]
            e["secondaryMetrics"]["native.alloc.norm" + name] = m
    path = tmp_path / "native.json"
    path.write_text(json.dumps(entries))
    return compare.pair(load.read_results(path).frame).pairs


def test_wide_table_shows_only_the_native_origins_that_allocate(tmp_path):
    table = tables.wide_table(_with_native(tmp_path, 4096.0, 0.0))
    assert "direct-buffer B/op old → new" in table.columns
    assert not any(c.startswith(("zlib", "native")) for c in table.columns)
    assert table.iloc[0]["direct-buffer B/op old → new"] == "4,096 → 0"


def test_wide_table_says_zero_native_bytes_once_when_nothing_is_allocated_natively(tmp_path):
    table = tables.wide_table(_with_native(tmp_path, 0.0, 0.0))
    native = [c for c in table.columns if "native" in c or "direct" in c or "zlib" in c]
    assert native == ["native B/op old → new"]
    assert set(table[native[0]]) == {"0 → 0"}


def test_undecided_rows_say_their_interval_under_the_table_and_early_rows_once():
    reference = Path(__file__).resolve().parents[2] / "data" / "reference" / "writer.json"
    pairs = compare.pair(load.read_results(reference).frame).pairs
    table = tables.compact_table(pairs)
    assert set(table["verdict"]) <= {"faster", "slower", "undecided"} | {
        v for v in table["verdict"] if v.startswith("same (")}
    notes = tables.undecided_notes(pairs)
    undecided = table[table["verdict"] == "undecided"]
    assert len(notes) == len(undecided) > 0
    # each says how many forks would decide it, or that none would (a row on the band's edge)
    assert all("not decided at ±5%" in n and ("forks per side would decide it" in n
                                               or "on the band's edge: no number of forks decides it" in n)
               for n in notes)
    assert any("forks per side would decide it" in n for n in notes)
    early = pairs.assign(ci_low=float("nan"), ci_high=float("nan"), verdict="undecided")
    assert tables.undecided_notes(early) == [
        f"{len(tables.compact_table(early))} rows with fewer than 4 forks per side: no interval yet"]


def _with_faults(tmp_path, old_faults: float):
    """The calibration file with the faults.norm PageFaultProfiler adds: old faults, new not."""
    entries = json.loads((Path(__file__).parents[1] / "data" / "avgt-variant-gc.json").read_text())
    for e in entries:
        template = e["secondaryMetrics"]["gc.alloc.rate.norm"]
        value = old_faults if e["params"]["variant"] == "old" else 0.0
        e["secondaryMetrics"]["faults.norm"] = {**template, "score": value, "scoreUnit": "faults/op",
                                                "rawData": [[value] * len(f) for f in template["rawData"]]}
    path = tmp_path / "faults.json"
    path.write_text(json.dumps(entries))
    return compare.pair(load.read_results(path).frame).pairs


def test_page_faults_per_op_get_a_column_only_where_a_side_faults(tmp_path):
    table = tables.wide_table(_with_faults(tmp_path, 24.6))
    assert table.iloc[0]["page faults/op old → new"] == "24.6 → 0"
    long = tables.long_table(_with_faults(tmp_path, 24.6))
    assert list(long[long["measure"] == "page faults (per op)"]["old"])[:1] == ["24.6"]
    assert "page faults/op old → new" not in tables.wide_table(_with_faults(tmp_path, 0.2)).columns
    unmeasured = compare.pair(load.read_results(Path(__file__).parents[1] / "data" / "avgt-variant-gc.json").frame)
    assert "page faults/op old → new" not in tables.wide_table(unmeasured.pairs).columns
    assert "page faults (per op)" not in set(tables.long_table(unmeasured.pairs)["measure"])


def test_the_gc_table_holds_collections_alone_and_the_gc_wide_table_no_page_faults(tmp_path):
    pairs = _with_faults(tmp_path, 24.6)
    assert list(tables.gc_table(pairs).columns) == ["benchmark", "GCs/10⁶ ops old → new", "GC time % old → new"]
    assert "page faults/op old → new" not in tables.wide_table(pairs, gc=True).columns
