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
