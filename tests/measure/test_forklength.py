"""A row's fork length from what its forks showed: the scout first, then the latest steady start,
a margin and the steady iterations that pay off."""

import dataclasses

from hotpath import steady
from hotpath.measure import forklength
from hotpath.measure.profiles import get_profile

QUICK = get_profile("quick")


def fork(value=100.0, kind=steady.WARMUP, start_s=0.4, iterations=25, spread=0.02):
    first = round(start_s / 0.1) if start_s is not None else iterations // 2
    return steady.Fork(value, kind, start_s, iterations, first, spread)


def test_a_row_without_forks_runs_a_scout():
    assert forklength.choose([], [], QUICK, 1.0).iterations == QUICK.scout_iterations


def test_a_row_whose_forks_never_settled_keeps_the_scouts_length():
    choice = forklength.choose([fork(kind=steady.NO_STEADY_STATE, start_s=None)], [fork()], QUICK, 1.0)
    assert choice.iterations == QUICK.scout_iterations and "steady state" in choice.why


def test_forks_that_differ_more_than_their_iterations_get_short_forks():
    old = [fork(100.0, spread=0.01), fork(110.0, spread=0.01), fork(91.0, spread=0.01)]
    new = [fork(50.0, spread=0.01), fork(56.0, spread=0.01), fork(45.0, spread=0.01)]
    choice = forklength.choose(old, new, QUICK, 1.0)
    # 0.4 s to settle, twice that to be found, and the margin: 1.1 s, not the scout's 2.5 s
    assert choice.iterations * QUICK.iteration_s < 1.5


def test_iterations_that_wander_more_than_the_forks_differ_get_long_forks():
    old = [fork(100.0, spread=0.2), fork(100.5, spread=0.2)]
    new = [fork(50.0, spread=0.2), fork(50.2, spread=0.2)]
    choice = forklength.choose(old, new, QUICK, 1.0)
    assert choice.iterations * QUICK.iteration_s >= 3.0


def test_a_late_steady_state_leaves_room_to_be_found():
    old = [fork(start_s=1.5, iterations=40)]
    choice = forklength.choose(old, [fork(start_s=0.2, iterations=40)], QUICK, 1.0)
    n = choice.iterations * QUICK.iteration_s
    assert n >= 2 * 1.5 and n <= QUICK.max_fork_s


def test_no_fork_runs_longer_than_the_profiles_most():
    late = dataclasses.replace(QUICK, max_fork_s=3.0)
    choice = forklength.choose([fork(start_s=2.0, iterations=40)], [fork()], late, 1.0)
    assert choice.iterations * late.iteration_s <= 3.0 + 1e-9
