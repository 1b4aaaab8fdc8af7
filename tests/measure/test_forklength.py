"""A row's fork length from what its forks showed: the scout first, then the latest steady start,
a margin and the steady iterations that pay off."""

import dataclasses

from hotpath.stats import steady
from hotpath.measure import forklength
from hotpath.measure.profiles import get_profile

QUICK = get_profile("quick")


def fork(value=100.0, kind=steady.WARMUP, start_s=0.4, iterations=25, spread=0.02):
    first = round(start_s / 0.1) if start_s is not None else iterations // 2
    return steady.Fork(value, kind, start_s, iterations, first, spread)


def test_a_row_without_forks_runs_a_scout():
    assert forklength.choose([], [], QUICK, 1.0).iterations == QUICK.scout_iterations


def test_a_row_whose_forks_never_settled_keeps_the_scouts_length():
    scout = QUICK.scout_iterations
    choice = forklength.choose([fork(kind=steady.NO_STEADY_STATE, start_s=None, iterations=scout)],
                               [fork(iterations=scout)], QUICK, 1.0)
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
    unbounded = dataclasses.replace(QUICK, max_steady_s=None)
    choice = forklength.choose(old, new, unbounded, 1.0)
    assert choice.iterations * QUICK.iteration_s >= 3.0
    # a budgeted profile spends its time on forks first: at most its steady seconds after warmup
    bounded = forklength.choose(old, new, QUICK, 1.0)
    assert bounded.iterations * QUICK.iteration_s <= 0.4 + QUICK.margin_s + QUICK.max_steady_s + 1e-9


def test_a_late_steady_state_leaves_room_to_be_found():
    old = [fork(start_s=1.5, iterations=40)]
    choice = forklength.choose(old, [fork(start_s=0.2, iterations=40)], QUICK, 1.0)
    n = choice.iterations * QUICK.iteration_s
    assert n >= 2 * 1.5 and n <= QUICK.max_fork_s


def test_no_fork_runs_longer_than_the_profiles_most():
    late = dataclasses.replace(QUICK, max_fork_s=3.0)
    choice = forklength.choose([fork(start_s=2.0, iterations=40)], [fork()], late, 1.0)
    assert choice.iterations * late.iteration_s <= 3.0 + 1e-9


def test_one_fork_in_eight_without_a_steady_state_does_not_make_a_row_of_waves():
    old = [fork(100.0 + i, spread=0.01) for i in range(4)]
    new = [fork(50.0 + i, spread=0.01) for i in range(3)] + [fork(kind=steady.NO_STEADY_STATE, start_s=None)]
    choice = forklength.choose(old, new, QUICK, 1.0)
    assert choice.iterations < QUICK.scout_iterations and "1 of 8" in choice.why


def test_a_last_level_too_late_to_count_gets_room_in_the_next_fork():
    # a 2.5 s scout whose last level began at 1.6 s: 0.9 s of 2.5 s is too little to count
    late = dataclasses.replace(fork(kind=steady.NO_STEADY_STATE, start_s=None), last_level_s=1.6)
    roomy = dataclasses.replace(QUICK, room_for_late_levels=True)
    choice = forklength.choose([late], [fork()], roomy, 1.0)
    n = choice.iterations * QUICK.iteration_s
    assert n >= 2 * 1.6 + QUICK.margin_s - 1e-9 and n <= QUICK.max_fork_s and "room" in choice.why


def test_a_short_budget_gives_unsettled_forks_the_scouts_length_not_room():
    """quick's forks without a steady state stay as long as the longest so far: on a noisy host
    most forks find none, and room for each late level would spend the budget on length."""
    late = dataclasses.replace(fork(kind=steady.NO_STEADY_STATE, start_s=None, iterations=20),
                               last_level_s=1.6)
    choice = forklength.choose([late], [fork(iterations=20)], QUICK, 1.0)
    assert choice.iterations == QUICK.scout_iterations and "room" not in choice.why


def test_a_row_that_slowed_down_runs_the_longest_forks():
    slowed = dataclasses.replace(fork(kind=steady.NO_STEADY_STATE, start_s=None), slowed_s=1.8)
    choice = forklength.choose([slowed], [fork()], QUICK, 1.0)
    assert choice.iterations * QUICK.iteration_s == QUICK.max_fork_s and "slowed down" in choice.why


def test_a_step_the_host_could_make_does_not_lengthen_the_forks():
    """A settled fork whose steady level is a little slower than its start (a slowdown by class,
    not slowed by SLOWED_REACH) gets the forks its steady state asks for."""
    choice = forklength.choose([fork(kind=steady.SLOWDOWN, start_s=1.0)], [fork()], QUICK, 1.0)
    assert choice.iterations * QUICK.iteration_s < QUICK.max_fork_s and "steady from" in choice.why
