"""The headline and the compact table are generated from the data, in the write-ups' terms."""

import dataclasses
import zipfile

import pandas as pd

import pytest

from hotpath.analyze import compare, load
from hotpath.analyze import floors as floor_analysis
from hotpath.render import headline, markup, tables
from hotpath.measure import stamp


@pytest.fixture
def pairs(data_dir):
    return compare.pair(load.read_results(data_dir / "avgt-variant-gc.json").frame).pairs


def test_headline_states_the_main_row_then_the_whole_run(pairs):
    text = headline.sentence(pairs, "optimized", pairs.iloc[1]["benchmark"], pairs.iloc[1]["params"])
    assert text == ("At copy(size=4096), optimized against old: time per op −96.7% (undecided); "
                    "heap 4,112 → 0 B/op (none left). Over its 2 rows: time per op 0.077× (geometric "
                    "means; 2 falling to 0 B/op left out); 0 of 2 decided.")


def test_time_phrase_inverts_nothing_and_names_its_verdict(pairs):
    row = pairs.iloc[0].copy()
    row["verdict"], row["p_value"], row["ci_low"], row["ci_high"] = "faster", 0.008, 0.5, 0.6
    row["higher_is_better"], row["ratio"], row["change_pct"] = True, 1.19, 19.0
    # the figure of the details table's change column, and the compact table's verdict word
    assert headline.time_phrase(row) == "throughput +19.0% (faster)"
    assert tables.wide_table(pd.DataFrame([row]))["time"].iloc[0].startswith("+19.0%")


def test_compact_table_has_one_row_per_benchmark_and_only_measured_native_columns(pairs):
    table = tables.compact_table(pairs)
    assert len(table) == len(pairs)
    assert list(table.columns) == ["benchmark", "time/op new/old", "95% CI", "verdict",
                                   "forks per side", "heap B/op old → new"]
    assert table.iloc[1]["heap B/op old → new"] == "4,112 → 0"


def test_html_tables_align_words_left_and_figures_right(pairs):
    html = markup.html_table(tables.compact_table(pairs))
    assert '<td class="text">copy(size=64)</td>' in html
    assert '<td class="num">4,112 → 0</td>' in html


def test_the_jar_stamp_ignores_a_rewrite_that_changes_no_class(tmp_path):
    def jar(path, body, when):
        with zipfile.ZipFile(path, "w") as z:
            z.writestr(zipfile.ZipInfo("A.class", date_time=when), body)
            z.writestr(zipfile.ZipInfo("META-INF/maven/x/pom.properties", date_time=when), str(when))
    stamp_file = tmp_path / "jar.stamp"
    jar(tmp_path / "a.jar", b"class A", (2020, 1, 1, 0, 0, 0))
    assert stamp.update(tmp_path / "a.jar", stamp_file)
    jar(tmp_path / "a.jar", b"class A", (2024, 5, 5, 0, 0, 0))
    assert not stamp.update(tmp_path / "a.jar", stamp_file)
    jar(tmp_path / "a.jar", b"class A, changed", (2024, 5, 5, 0, 0, 0))
    assert stamp.update(tmp_path / "a.jar", stamp_file)


def test_every_case_states_its_floors_and_reports_how_far_each_variant_is(data_dir):
    from hotpath.cases import load_floors
    from hotpath.cases import CASES
    for case in CASES.values():
        floors = load_floors(case.id)
        assert not floors.empty and floors["heap_floor"].notna().all(), case.id
    pairs = compare.pair(load.read_results(data_dir / "avgt-variant-gc.json").frame).pairs
    floors = load_floors("x", data_dir).iloc[0:0]
    assert tables.left_on_the_table(pairs, floors).empty
    import pandas as pd
    floors = pd.DataFrame([{"benchmark": pairs.iloc[1]["benchmark"], "params": pairs.iloc[1]["params"],
                            "heap_floor": 0.0, "native_floor": 0.0, "basis": "0: the caller's buffer"}])
    table = tables.left_on_the_table(pairs, floors)
    assert table.iloc[0]["old heap"] == "4,112"
    assert table.iloc[0]["optimized heap"] == "0 (at the floor)"
    assert tables._above(4112.0, 2056.0) == "4,112 (×2.0)"


def test_fidelity_compares_the_release_with_the_old_model_and_stays_out_of_the_compact_table(data_dir):
    frame = load.read_results(data_dir / "avgt-variant-gc.json").frame
    both = frame.copy()
    upstream = frame[frame["variant"] == "optimized"].assign(variant="upstream")
    pairs = compare.pair(pd.concat([both, upstream], ignore_index=True)).pairs
    table = tables.fidelity_table(pairs)
    assert len(table) == len(pairs[pairs["candidate"] == "upstream"])
    # 80 B/op model vs 0 upstream: more than 16 B apart
    assert table.iloc[0]["heap within 2% or 16 B"] == "no (−80 B)"
    assert tables._matches(1000.0, 1015.0, True) == "yes (+15 B)"
    assert tables._matches(10000.0, 10250.0, False) == "no (+250 B)"
    compact = tables.compact_table(pairs)
    assert len(compact) == len(pairs[pairs["candidate"] == "optimized"])
    assert "upstream" not in headline.sentence(pairs)


def test_a_report_shows_the_fidelity_table_and_the_notes_on_what_still_differs(data_dir, tmp_path):
    from hotpath.render.document import Document
    from hotpath.render.sections import upstream
    run = load.read_results(data_dir / "avgt-variant-gc.json")
    frame = run.frame
    released = frame[frame["variant"] == "optimized"].assign(variant="upstream")
    comparison = compare.pair(pd.concat([frame, released], ignore_index=True))
    doc = Document("marshaller", run, tmp_path, comparison=comparison)
    doc.add(*upstream.fidelity(doc.case, doc.pairs, doc.analysis.sites))
    text = "\n".join(doc.md)
    assert "## Fidelity: the released upstream code beside our old model" in text
    assert "## Where the release and our model differ, and why" in text
    assert "Ignite's binary format" in text


def test_floor_excess_counts_heap_and_native_and_names_the_variant_closest_to_the_floor(data_dir):
    from hotpath.render import overview
    pairs = compare.pair(load.read_results(data_dir / "avgt-variant-gc.json").frame).pairs
    row = pairs.iloc[1]
    floors = pd.DataFrame([{"benchmark": row["benchmark"], "params": row["params"],
                            "heap_floor": 16.0, "native_floor": float("nan"), "basis": "x"}])
    excess = floor_analysis.floor_excess(pairs, floors)
    by = dict(zip(excess["variant"], excess["excess"]))
    assert set(by) == {"old", "optimized"} and by["optimized"] == 0.0
    assert by["old"] == pytest.approx(4112.0 - 16.0, abs=1.0)
    assert overview._best(excess) == "optimized"
    assert overview._vs_floor(excess, "optimized") == "optimized: at it in 1 of 1"
    assert overview._vs_floor(excess, "old") == "old: at it in 0 of 1, ≤ 4,096 B/op above"
    assert overview._vs_floor(excess.iloc[0:0], "old") == "—"
    assert floor_analysis.at_floor(8.0, 0.0) and not floor_analysis.at_floor(9.0, 0.0)
    assert floor_analysis.at_floor(90.0, 10_000.0) and not floor_analysis.at_floor(101.0, 10_000.0)


@pytest.mark.parametrize("stopped", ["out of reach", "budget"])
def test_the_verdict_note_names_rows_closed_beyond_their_cap_only_where_there_were_some(
        data_dir, tmp_path, stopped):
    from hotpath.render.document import Document
    run = dataclasses.replace(load.read_results(data_dir / "avgt-variant-gc.json"), provenance={
        "sequential": {"describe": "sequential: looks from 3 to 8 forks per side",
                       "rows": [{"stopped": "decided"}, {"stopped": stopped}]}})
    doc = Document("", run, tmp_path, heading="h", comparison=compare.pair(run.frame))
    note = doc.verdict_note()
    assert "rows took forks until decided, capped" in note
    assert ("beyond their cap" in note) == (stopped == "out of reach")
