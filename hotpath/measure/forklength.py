"""How long a row's next fork runs, from what its forks so far showed.

A recorded fork (hotpath.stats.steady) is spent in two parts: its warmup, up to where its steady
segment starts, and its steady iterations, which make its figure. The first fork of each side
is a scout, long enough to see the row settle. After it, a fork runs for the latest steady
start any fork of the row showed, a margin, and as many steady iterations as pay off.

What pays off is the trade-off of Kalibera and Jones ("Rigorous Benchmarking in Reasonable
Time", ISMM 2013): a row's estimate varies between forks (by ``sigma_f``, JIT and layout
decisions made once per fork) and between iterations within one (``sigma_i``); a fork costs
its start and warmup ``c_f`` and each iteration ``c_i``. For a given time, the variance of the
row's mean is least with ``n = sqrt((c_f / c_i) * (sigma_i^2 / sigma_f^2))`` iterations per
fork. Here: rows whose forks differ much more than their iterations get short forks and more of
them; rows whose iterations wander (GC waves) get longer forks.

A row where more than a quarter of the forks showed no steady state keeps the scout's length
(or the longest fork it had): its figure is an average over its waves, and only a long fork
holds several of them. Where such a fork's last level began too late to count, the next fork
gives it room: a level that began at 1.2 s of a 2.5 s scout is found in a 2.7 s fork (old zip's
slowdown after 1.5 s, zip's buffered path settling at 1-1.5 s). A fork must leave its steady
segment room to be found: the steady state has to cover at least ``steady.MIN_STEADY_SHARE`` of
the fork to count, so a fork runs at least twice the latest steady start seen, and the margin.
A row whose forks slowed down runs the longest forks the profile allows: a slowdown can go on
(old zip runs at 95 µs/op for 2.5-3 s, then at 200-340 µs/op).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..stats import steady
from .profiles import Profile

#: The between-fork spread assumed before a row has two forks of a side: the reference's
#: median fork CV (2.3%); it only sets the second fork's length.
PRIOR_FORK_SD = 0.023
#: A row is chosen for as settled while at most this share of its forks has no steady state: one
#: fork in four that a spike run or another process on the machine kept from settling does not
#: make a row of waves (the row's figures still count that fork, by its second half).
UNSETTLED_SHARE = 0.25


@dataclass(frozen=True)
class Choice:
    """A row's next fork length and why."""

    iterations: int
    why: str


def choose(old: list[steady.Fork], new: list[steady.Fork], profile: Profile,
           overhead_s: float) -> Choice:
    """The next fork's iterations for a row whose sides have had the forks ``old`` and ``new``."""
    it = profile.iteration_s
    scout = profile.scout_iterations
    most = _most(profile)
    forks = [f for f in (*old, *new) if f.kind != steady.NOT_RECORDED]
    if not forks:
        return Choice(scout, "scout: no recorded fork yet")
    slowed = [f for f in forks if f.slowed_s is not None]
    if slowed:  # (of a row; plan.side_lengths gives a side that showed none its own)
        return Choice(most, f"{len(slowed)} of {len(forks)} forks slowed down: as long as a fork "
                      f"may run, for a slowdown can go on")
    unsettled = [f for f in forks if not f.settled]
    if len(unsettled) > UNSETTLED_SHARE * len(forks):
        longest = max(scout, *(f.iterations for f in forks))
        # a last level that began too late to count may count in a fork long enough for it
        room = max((_room(f.last_level_s, profile) for f in unsettled
                    if f.last_level_s is not None), default=0.0) if profile.room_for_late_levels else 0.0
        iterations = min(most, max(longest, math.ceil(round(room / it, 6))))
        return Choice(iterations, f"{len(unsettled)} of {len(forks)} forks without a steady "
                      f"state: as long as the longest"
                      + (", and room for the latest last level" if iterations > longest else "")
                      + ", to average their waves")
    settled = [f for f in forks if f.settled]
    latest = max(f.start_s or 0.0 for f in settled)
    warmup_s = latest + profile.margin_s
    n = optimal_iterations([f for f in old if f.settled], [f for f in new if f.settled],
                           overhead_s + warmup_s, it)
    steady_s = max(n * it, profile.min_steady_s)
    if profile.max_steady_s is not None:
        steady_s = min(steady_s, max(profile.max_steady_s, profile.min_steady_s))
    total = min(max(warmup_s + steady_s, _room(latest, profile)), most * it)
    iterations = max(steady.MIN_ITERATIONS, math.ceil(round(total / it, 6)))
    return Choice(iterations, f"steady from {latest:.1f} s at the latest, "
                  f"+{profile.margin_s:g} s, {n} steady iterations pay off"
                  + (f" ({len(unsettled)} of {len(forks)} forks without a steady state)"
                     if unsettled else ""))


def any_slowed(forks: list[steady.Fork]) -> bool:
    """Whether any of these forks slowed down (steady.slowed_at)."""
    return any(f.slowed_s is not None for f in forks)


def first(known: list[steady.Fork], profile: Profile) -> Choice | None:
    """A row's first fork where its committed forks (hotpath.measure.prior) saw what a scout
    cannot: a slowdown that began too late in the fork for a scout to find it (a steady state
    must cover half the fork). In more than a quarter of them: as long as a fork may run, the
    rule for a slowdown a row's own forks show. None: the scout."""
    latest_found = profile.scout_s * (1 - steady.MIN_STEADY_SHARE)
    late = [f for f in known if f.slowed_s is not None and f.slowed_s > latest_found]
    most = _most(profile)
    if len(late) <= UNSETTLED_SHARE * len(known) or most <= profile.scout_iterations:
        return None
    return Choice(most, f"{len(late)} of the committed run's {len(known)} forks slowed down from "
                        f"{min(f.slowed_s for f in late if f.slowed_s is not None):.1f} s, later than a {profile.scout_s:g} s "
                        f"scout could see: as long as a fork may run")


def _most(profile: Profile) -> int:
    """The iterations of the longest fork the profile allows (never shorter than its scout)."""
    return max(profile.scout_iterations, math.floor(round(profile.max_fork_s / profile.iteration_s, 6)))


def _room(start_s: float, profile: Profile) -> float:
    """The shortest fork in which a steady state from ``start_s`` on is found: it must cover
    steady.MIN_STEADY_SHARE of the fork, and the margin."""
    return start_s / (1 - steady.MIN_STEADY_SHARE) + profile.margin_s


def optimal_iterations(old: list[steady.Fork], new: list[steady.Fork], fork_cost_s: float,
                       iteration_s: float) -> int:
    """Kalibera and Jones's iterations per fork, from the row's in-fork and between-fork spread
    (pooled over its two sides, on the log scale)."""
    within = [f.spread ** 2 for f in (*old, *new) if f.window > 1 and math.isfinite(f.spread)]
    sigma_i2 = float(np.mean(within)) if within else 0.0
    per_side = [np.var(np.log([f.value for f in side]), ddof=1)
                for side in (old, new) if len(side) >= 2]
    mean_window = float(np.mean([f.window for f in (*old, *new)]))
    # the spread of fork means holds the iterations' noise too: what is left is the forks' own
    sigma_f2 = (float(np.mean(per_side)) - sigma_i2 / max(mean_window, 1.0)) if per_side else math.nan
    if not math.isfinite(sigma_f2) or sigma_f2 <= 0:
        sigma_f2 = PRIOR_FORK_SD ** 2 if not per_side else (PRIOR_FORK_SD / 4) ** 2
    if sigma_i2 <= 0:
        return 1
    return max(1, round(math.sqrt((fork_cost_s / iteration_s) * (sigma_i2 / sigma_f2))))
