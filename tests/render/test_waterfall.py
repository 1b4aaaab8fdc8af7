"""Which change pays, drawn (hotpath.render.waterfall)."""

from mechanism_runs import FULL, _frame

from hotpath.analyze import mechanisms as M


def test_the_waterfall_draws_a_step_per_mechanism_and_the_interaction_legibly():
    from hotpath.render import chartcheck, waterfall

    [row] = M.decompositions(_frame(FULL))
    assert [name for name, _ in waterfall.steps(row.time)] == [
        "old", "+ trimless", "+ one-scope", "interaction", "optimized"]
    fig = waterfall.waterfall_chart(row)
    fig.canvas.draw()
    assert chartcheck.problems(fig, drawn=True) == []
    time_axis, heap_axis = fig.axes
    assert time_axis.get_xscale() == "log" and heap_axis.get_xscale() == "linear"
    # the steps end where optimized is: old's level moved by every part
    bars = [p for p in time_axis.patches]
    assert len(bars) == 3


def test_a_large_heap_change_keeps_its_byte_labels_apart():
    """Marshaller's 16 KB trim copy: 0 to 16,400 B/op on half the figure's width."""
    import dataclasses

    from hotpath.render import chartcheck, waterfall
    from hotpath.stats.decompose import decompose

    [row] = M.decompositions(_frame(FULL))
    big = {frozenset(): [16_800.0] * 4, frozenset({"trimless"}): [400.0] * 4,
           frozenset({"one-scope"}): [16_800.0] * 4, frozenset({"trimless", "one-scope"}): [400.0] * 4}
    fig = waterfall.waterfall_chart(dataclasses.replace(row, bytes=decompose(("trimless", "one-scope"), big, log=False)))
    fig.canvas.draw()
    assert chartcheck.problems(fig, drawn=True) == []
