"""Charts a reviewer reads at their saved size: chartcheck finds text over text, text cut at
the edge and legend entries with nothing visible; every chart of the reference reports has none."""

import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from hotpath.render import chartcheck, charts  # noqa: E402


def test_overlapping_texts_are_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.text(0.5, 0.5, "20,104")
    ax.text(0.52, 0.5, "19,248")
    assert any("overlap" in p for p in chartcheck.problems(fig))


def test_text_beyond_the_edge_is_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_title("a title far too long for a figure four inches wide, cut at both of its edges")
    assert any("leaves the figure" in p for p in chartcheck.problems(fig))


def test_a_series_drawn_over_by_an_equal_one_is_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2, 3], [4, 5, 6], "o-", label="old")
    ax.plot([1, 2, 3], [4, 5, 6], "o-", label="upstream")
    ax.legend()
    assert any("'old' is hidden under 'upstream'" in p for p in chartcheck.problems(fig))


def test_a_legend_entry_with_nothing_drawn_is_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2], [1, 2], label="drawn")
    ax.plot([], [], "--", label="allocation floor")
    ax.legend()
    assert chartcheck.problems(fig) == ["legend entry 'allocation floor' has nothing drawn"]


def test_equal_series_stay_visible_and_say_so():
    rows = pd.DataFrame({
        "params": ["messages=1", "messages=32", "messages=1", "messages=32"],
        "benchmark": ["b.pull"] * 4, "baseline": ["old"] * 4,
        "candidate": ["optimized", "optimized", "upstream", "upstream"],
        "old_alloc": [1000.0, 2000.0, 1000.0, 2000.0], "new_alloc": [500.0, 900.0, 1000.0, 2000.0],
        "unit": ["ns/op"] * 4})
    fig = charts.sweep_chart(rows, "messages", "alloc")
    assert chartcheck.problems(fig) == []
    labels = fig.legends[0].get_texts()
    assert "upstream (= old here)" in [t.get_text() for t in labels]


def test_ratio_axes_read_as_plain_multipliers():
    ticks = charts.ratio_ticks(0.04, 2.3)
    assert 1.0 in ticks and all(t in charts.NICE_RATIOS for t in ticks)
    assert [charts._ratio_label(t) for t in ticks][:2] == ["0.05×", "0.1×"]


def test_every_reference_chart_is_legible(reference_reports):
    manifests = sorted(reference_reports.glob("**/report.json"))
    assert len(manifests) >= 5
    found = {}
    for m in manifests:
        made = json.loads(m.read_text(encoding="utf-8"))
        assert made["charts"], m
        for chart in made["charts"]:
            assert (m.parent / chart).is_file()
        found.update({f"{m.parent.name}/{k}": v for k, v in made["chart_problems"].items()})
    assert found == {}


def _heap_rows(floor: float):
    pairs = pd.DataFrame({
        "benchmark": ["b.write"] * 2, "method": ["write"] * 2, "params": ["size=64", "size=1024"],
        "baseline": ["old"] * 2, "candidate": ["optimized"] * 2, "unit": ["ns/op"] * 2,
        "old_alloc": [4096.0, 40960.0], "new_alloc": [1024.0, 2048.0]})
    floors = pd.DataFrame({"benchmark": ["b.write"] * 2, "params": ["size=64", "size=1024"],
                           "heap_floor": [floor] * 2, "native_floor": [0.0] * 2})
    return pairs, floors


def test_a_caption_names_the_floor_marks_its_chart_drew():
    pairs, zero = _heap_rows(0.0)
    _, some = _heap_rows(512.0)
    # A zero floor is a black bar at the left edge, never a dashed line.
    assert charts.floor_note(charts.bar_chart(pairs, "alloc", floors=zero)) == (
        "black bar at the left edge: an allocation floor of 0")
    assert charts.floor_note(charts.bar_chart(pairs, "alloc", floors=some)) == "dashed: the allocation floor"
    assert charts.floor_note(charts.bar_chart(pairs, "alloc")) == ""
    # A sweep draws a floor above 0 as a dashed line, and a zero floor not at all.
    assert charts.floor_note(charts.sweep_chart(pairs, "size", "alloc", floors=some)) == (
        "dashed: the allocation floor")
    assert charts.floor_note(charts.sweep_chart(pairs, "size", "alloc", floors=zero)) == ""
    plt.close("all")


def test_reference_captions_say_what_the_charts_drew(reference_reports):
    # writer's floors are all 0: its heap chart draws them as black bars, and says so.
    summary = (reference_reports / "writer" / "summary.md").read_text(encoding="utf-8")
    caption = next(line for line in summary.splitlines() if line.startswith("*Heap B/op"))
    assert "black bar at the left edge" in caption and "dashed" not in caption
    # The notebooks leave the floor marks to the charts (Document.figure adds them).
    from hotpath.paths import ROOT
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        source = "".join("".join(c["source"]) for c in json.loads(notebook.read_text())["cells"])
        assert "dashed:" not in source and "black bar" not in source, notebook.name
