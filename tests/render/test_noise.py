"""The machine, said once where it is read: the run's median fork CV, old's time against the
reference's, and what that fork CV means for the undecided rows."""

import math
import statistics

from hotpath.analyze import against, compare, load
from hotpath.cases import CASES
from hotpath.paths import REFERENCE
from hotpath.render import noise, tables


def written_cv(files) -> float:
    """The median fork CV of every case's rows of the write-up's variants."""
    cvs = [cv for f in files
           for cv in tables.written(compare.pair(load.read_results(f).frame).pairs)["fork_cv"]]
    return statistics.median(cv for cv in cvs if math.isfinite(cv))


def test_each_report_and_the_overview_name_the_reference_runs_own_fork_cv(reference_reports):
    for case_id in CASES:
        summary = (reference_reports / case_id / "summary.md").read_text(encoding="utf-8")
        assert summary.count("**The machine.**") == 1
        cv = written_cv([REFERENCE / f"{case_id}.json"])
        assert f"**The machine.** This is the reference run: median fork CV {cv:.1%}" in summary
    md = (reference_reports / "index.md").read_text(encoding="utf-8")
    cv = written_cv([REFERENCE / f"{c}.json" for c in CASES])
    assert f"**The machine.** This is the reference run: median fork CV {cv:.1%} over its" in md


def test_a_run_beside_the_reference_says_how_its_machine_differs(recorded_reports):
    files = recorded_reports.files
    machine = against.hold_files(list(files), files,
                                 {c: REFERENCE / f"{c}.json" for c in files}).machine()
    md = (recorded_reports.reports / "index.md").read_text(encoding="utf-8")
    assert (f"Median fork CV {machine.run_fork_cv:.1%} over the 54 rows this run shares with the "
            f"reference, whose forks had {machine.reference_fork_cv:.1%}; old's code took "
            f"{machine.slower:.2f}× the reference's time per op there") in md
    # the A/A's design: a cap of 24 forks per side, a first look at 4
    needs = against.needs(1.0, machine.run_fork_cv, 24, 4)
    assert f"takes about {needs:.0f} forks per side" in md
    page = (recorded_reports.reports / "index.html").read_text(encoding="utf-8")
    assert f"old&#x27;s code took {machine.slower:.2f}×" in page
    summary = (recorded_reports.reports / "writer" / "summary.md").read_text(encoding="utf-8")
    assert summary.count("**The machine.** Median fork CV") == 1


def test_a_noisy_run_calls_its_undecided_rows_noise_limited():
    noisy = noise.Noise(fork_cvs=(0.146,) * 4, caps=(8,) * 4, first_looks=(3,) * 4)
    needs = against.needs(1.0, 0.146, 8, 3)
    assert needs > 8
    assert noise.line(noisy) == (
        f"Median fork CV 14.6% over this run's 4 rows; no reference run to set it beside. At a "
        f"fork CV of 14.6%, calling an unchanged row same within ±5% takes about {needs:.0f} forks "
        f"per side, beyond the cap of 8: rows left undecided here are noise-limited, not no-change.")
    quiet = noise.Noise(fork_cvs=(0.01,), caps=(8,), first_looks=(3,))
    assert "within the cap of 8" in noise.line(quiet)
    assert noise.line(noise.Noise(fork_cvs=(math.nan,), caps=(), first_looks=())) == ""


def test_a_run_on_another_cpu_than_the_references_says_so_where_it_gives_old_s_time():
    held = against.time_rows(load.read_results(REFERENCE / "encoder.json").frame, "encoder")
    held = against.hold(held, held).rows
    mine = noise.Noise(fork_cvs=(0.1,) * 4, caps=(8,) * 4, first_looks=(3,) * 4, held=held,
                       cpus=(("Intel(R) Xeon(R) Processor",), ("AMD EPYC",)))
    assert ("(median; 1.00×–1.00×), on another CPU than the reference's (Intel(R) Xeon(R) Processor "
            "against AMD EPYC).") in noise.line(mine)
    same = noise.Noise(fork_cvs=(0.1,) * 4, caps=(8,) * 4, first_looks=(3,) * 4, held=held,
                       cpus=(("AMD EPYC",), ("AMD EPYC",)))
    assert "another CPU" not in noise.line(same)
    assert noise.combine([mine, same]).cpus == (("AMD EPYC", "Intel(R) Xeon(R) Processor"), ("AMD EPYC",))


def test_the_machine_says_around_how_many_iterations_the_host_ran_slow():
    from hotpath.render.noise import host_speed
    quiet = tuple([91.0] * 1583 + [120.0, 130.0, 125.0])
    assert host_speed(quiet) == ("The host-speed probe ran 1.1× or more slower than its full speed "
                                 "(its 10th percentile over the run) around 3 of the 1586 counted "
                                 "iterations (1.4× at their median).")
    steps = tuple([90.0] * 6 + [160.0, 180.0, 170.0, 175.0])
    assert "around 40% of the 10 counted iterations (1.9× at their median)" in host_speed(steps)
    assert "stayed within 1.1×" in host_speed((90.0, 91.0)) and host_speed(()) == ""
