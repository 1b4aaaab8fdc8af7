"""Which change pays, as a report section (hotpath.render.sections.mechanisms)."""

from pathlib import Path

from mechanism_runs import FULL, _frame

from hotpath.analyze import compare
from hotpath.analyze.load import Run
from hotpath.analyze.report import Analysis
from hotpath.cases import get_case
from hotpath.render.paste import CORE, LEAD
from hotpath.render.sections import mechanisms as section


def _analysis(frame):
    return Analysis(Run(Path("/runs/marshaller.json"), frame, None), compare.pair(frame), get_case("marshaller"))


def test_a_run_with_mechanism_variants_gets_its_parts_a_waterfall_and_a_line_the_paste_keeps():
    line, table, chart = section.which_change_pays(_analysis(_frame(FULL)))
    assert line.priority == CORE and line.text.startswith("**Which change pays, MarshallerMechanismsBenchmark")
    # trimless alone: log time -0.30, a 1.35x speed-up; one-scope -0.05, 1.05x
    assert "trimless alone 1.3" in line.text and "one-scope alone 1.0" in line.text
    assert list(table.table["part"]) == ["trimless", "one-scope", "interaction", "the whole patch"]
    assert table.table.loc[0, "heap B/op alone"] == "−1,040"
    assert table.rows == [(CORE, k) for k in range(4)] and "From this report's run." in table.note
    name, fig, caption = chart.figure
    assert name == "which-change-pays" and "a step per mechanism" in caption and len(fig.axes) == 2


def test_a_run_without_them_has_no_section_and_a_quick_run_says_how_to_measure_them(tmp_path, monkeypatch):
    import hotpath.analyze.mechanisms as M
    from hotpath.render.sections import front

    monkeypatch.setattr(M, "results_file", lambda profile, case: tmp_path / f"{profile}-{case}.json")
    frame = _frame({"old": frozenset(), "optimized": frozenset({"trimless", "one-scope"})})
    assert section.which_change_pays(_analysis(frame)) == []
    left = {"rows": 28, "benchmarks": ["MarshallerMechanismsBenchmark"],
            "command": "make report CASE=marshaller PROFILE=full", "mechanisms": "make mechanisms CASE=marshaller"}
    run = Run(Path("/runs/marshaller.json"), frame, {"left_out": left})
    note = front.left_out(Analysis(run, compare.pair(frame), get_case("marshaller")))
    assert note.priority == LEAD and note.text.endswith(
        "`make mechanisms CASE=marshaller` splits the change among the patch's mechanisms, each measured alone.")


def test_a_run_whose_forks_split_nothing_says_why_and_draws_no_empty_chart():
    """The smoke pass runs each variant once, in no fork of its own: one figure a side."""
    import numpy as np
    from mechanism_runs import _entry

    from hotpath.analyze import load

    rng = np.random.default_rng(4)
    frame = load.tidy([_entry(v, a, rng, forks=1) for v, a in FULL.items()])
    shown = section.which_change_pays(_analysis(frame))
    assert [s.figure for s in shown] == [None, None]
    assert "not split (time: old: 1 fork(s); a part needs 2 or more a side" in shown[0].text
    assert shown[1].table.loc[0, "part"] == "(not split)"


def test_a_patch_series_is_split_among_its_steps_in_the_same_section_with_its_own_words():
    """The last step's run of two builds (its report is the series'): the steps in place of the
    mechanisms, no interaction (0 by construction), the baseline and the last step as its levels."""
    from series_runs import series

    from hotpath.analyze import series as S
    from hotpath.render import chartcheck, waterfall

    s = series()
    frame = s.steps[-1].run.frame
    analysis = Analysis(Run(Path("/runs/series/w/3-c/ab.json"), frame, None), compare.pair(frame, baseline="master"))
    vars(analysis)["mechanisms"] = found = S.found(s)  # what Analysis.mechanisms reads from the series' folder
    line, table, chart = section.which_change_pays(analysis)
    assert line.priority == CORE
    assert "of the 1.3" in line.text and "speed-up from master to c" in line.text
    assert "the steps add up to it by construction" in line.text and "do not add up" not in line.text
    assert line.text.endswith("the step that moves it most: b; heap B/op: a 0, b −1,040, c 0.")
    assert table.heading == "Which change pays: the steps of the patch, each measured against the one before"
    assert list(table.table.columns) == ["row", "part", "against the step before", "share",
                                         "heap B/op against the step before"]
    assert list(table.table["part"]) == ["a", "b", "c", "the whole patch"]
    assert 90 <= int(table.table.loc[1, "share"].split("%")[0]) <= 110  # b is (about) all of the change
    assert "by construction" in table.note and "From the patch series" in table.note
    name, fig, caption = chart.figure
    assert "master to c" in caption and "a bar per step of the patch" in caption
    fig.canvas.draw()
    assert chartcheck.problems(fig, drawn=True) == []
    assert [n for n, _ in waterfall.steps(found.rows[0].time, found.levels, interaction=False)] == [
        "master", "+ a", "+ b", "+ c", "c"]
