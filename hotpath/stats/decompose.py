"""Which part of a patch pays: the change from old to optimized split among the mechanisms the
patch bundles, each measured as code of its own.

A *cell* is one variant of the code: the set of mechanisms applied to old (the empty set is old,
every mechanism is optimized), measured as fork figures (forks are the replicates, as in every
verdict). Every figure here is a linear contrast of the cells' means (of log time per op, so that
a part is a ratio; of B/op as they are, so that a part is bytes), and its interval is Welch's:
the variance of a contrast is the sum of each cell's variance of its mean times its weight
squared, with the Welch-Satterthwaite degrees of freedom. A contrast whose interval holds 0 is
*not told from 0* — never "no effect".

- ``alone``: each mechanism applied alone to old (old+m against old);
- ``taken_back``: each mechanism taken back from optimized (optimized against optimized-m),
  where the design has those cells: where mechanisms interact the two differ;
- ``interaction``: what the parts alone do not add up to (the whole change minus their sum);
- ``shapley``: in a full factorial (every combination measured), each mechanism's average
  contribution over every order of applying them: parts that add up to the whole change exactly,
  each with its interval;
- ``share_of``: some mechanisms' part as a share of the whole change, with Fieller's interval
  (a ratio of two contrasts): what the frames' share of a row's saving is held to;
- ``stepwise``: a patch series measured as a run of two builds per step (the baseline against
  the patch up to that step), each step's part its run's change less the step before's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from .shares import Share, fieller
from .welch import CONFIDENCE, t_quantile
from ..jmh import MECHANISM_TAKEN_BACK, MECHANISMS_APPLIED

#: A variant by the mechanisms applied to old.
Mechanisms = frozenset[str]


@dataclass(frozen=True)
class Part:
    """A contrast of cells' means: its estimate and interval (on the cells' scale: log time per
    op, or B/op), and the Welch-Satterthwaite degrees of freedom (inf where no cell varies)."""

    estimate: float
    low: float
    high: float
    df: float

    @property
    def told_from_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def speedup(self) -> tuple[float, float, float]:
        """On log time: the part as a speed-up factor (old time over new), its interval's ends."""
        return math.exp(-self.estimate), math.exp(-self.high), math.exp(-self.low)


@dataclass(frozen=True)
class Cell:
    """One variant's fork figures, summarized on the scale of the decomposition."""

    mean: float
    #: the variance of the mean (the values' variance over their count)
    var: float
    n: int

    @classmethod
    def of(cls, figures: Sequence[float], log: bool) -> "Cell":
        x = np.asarray(figures, dtype=float)
        if len(x) < 2:
            raise ValueError(f"{len(x)} fork(s); a part needs 2 or more a side")
        if not np.all(np.isfinite(x)) or (log and np.any(x <= 0)):
            raise ValueError(f"fork figures not all positive and finite: {list(figures)}")
        y = np.log(x) if log else x
        return cls(float(y.mean()), float(y.var(ddof=1) / len(y)), len(y))


def contrast(weights: Mapping[Mechanisms, float], cells: Mapping[Mechanisms, Cell],
             confidence: float = CONFIDENCE) -> Part:
    """Σ w·mean over the weighted cells, with Welch's interval."""
    terms = [(w, cells[key]) for key, w in weights.items() if w != 0]
    estimate = sum(w * c.mean for w, c in terms)
    var = sum(w * w * c.var for w, c in terms)
    if var <= 0:
        return Part(estimate, estimate, estimate, math.inf)
    df = var * var / sum((w * w * c.var) ** 2 / (c.n - 1) for w, c in terms)
    half = float(t_quantile((1 + confidence) / 2, df)) * math.sqrt(var)
    return Part(estimate, estimate - half, estimate + half, df)


@dataclass(frozen=True)
class Decomposition:
    """A row's change from old to optimized split among its mechanisms (see the module)."""

    mechanisms: tuple[str, ...]
    #: old's mean (of log time per op, or B/op): where the parts start from
    base: float
    total: Part
    alone: dict[str, Part]
    taken_back: dict[str, Part]
    interaction: Part
    #: None where the design is not a full factorial
    shapley: dict[str, Part] | None
    log: bool
    #: every measured variant's cell, by the mechanisms applied to old
    cells: Mapping[Mechanisms, Cell] = field(default_factory=dict)

    def weights_of(self, mechanisms: Iterable[str]) -> dict[Mechanisms, float]:
        """The cells' weights of some mechanisms' part together: their Shapley parts summed where
        every combination was measured, else their parts applied alone summed."""
        weights: dict[Mechanisms, float] = {}
        for m in mechanisms:
            if m not in self.mechanisms:
                raise ValueError(f"{m!r} is not a mechanism of this design ({', '.join(self.mechanisms)})")
            own = (shapley_weights(self.mechanisms, m) if self.shapley is not None
                   else {frozenset({m}): 1.0, frozenset(): -1.0})
            for key, w in own.items():
                weights[key] = weights.get(key, 0.0) + w
        return weights

    def share_of(self, mechanisms: Iterable[str], confidence: float = CONFIDENCE) -> Share:
        """The share of the whole change (optimized - old) that some mechanisms' part is, with
        Fieller's interval (NaN ends where the whole change is not told from 0)."""
        every = frozenset(self.mechanisms)
        return ratio(self.weights_of(mechanisms), {every: 1.0, frozenset(): -1.0}, self.cells, confidence)


def decompose(mechanisms: Sequence[str], figures: Mapping[Mechanisms, Sequence[float]], log: bool = True,
              confidence: float = CONFIDENCE) -> Decomposition:
    """The change split among ``mechanisms`` from each measured cell's fork figures (keyed by the
    mechanisms applied to old; old and optimized are required, and each mechanism alone)."""
    every = frozenset(mechanisms)
    old = frozenset[str]()
    unknown = {m for key in figures for m in key} - every
    if unknown:
        raise ValueError(f"cells name mechanisms not in the design: {', '.join(sorted(unknown))}")
    missing = [name for name, key in [("old", old), ("optimized", every)]
               + [(f"old+{m}", frozenset({m})) for m in mechanisms] if key not in figures]
    if missing:
        raise ValueError(f"a decomposition needs old, optimized and each mechanism alone; missing: "
                         f"{', '.join(missing)}")
    cells = {}
    for key, values in figures.items():
        try:
            cells[key] = Cell.of(values, log)
        except ValueError as e:
            raise ValueError(f"{variant_name(key, every)}: {e}") from None

    def part(weights: Mapping[Mechanisms, float]) -> Part:
        return contrast(weights, cells, confidence)

    alone = {m: part({frozenset({m}): 1, old: -1}) for m in mechanisms}
    taken_back = {m: part({every: 1, every - {m}: -1}) for m in mechanisms if every - {m} in cells}
    interaction = {every: 1.0, old: -1.0 + len(mechanisms)}
    for m in mechanisms:
        interaction[frozenset({m})] = interaction.get(frozenset({m}), 0.0) - 1
    full = all(frozenset(c) in cells for k in range(len(mechanisms) + 1)
               for c in combinations(mechanisms, k))
    return Decomposition(tuple(mechanisms), cells[old].mean, part({every: 1, old: -1}), alone, taken_back,
                         part(interaction), _shapley(mechanisms, cells, confidence) if full else None, log,
                         cells)


def variant_name(key: Mechanisms, every: Mechanisms) -> str:
    """A cell as the study names its variant: old, optimized, old+a+b, optimized-a."""
    if not key:
        return "old"
    if key == every:
        return "optimized"
    if len(key) == len(every) - 1:
        return MECHANISM_TAKEN_BACK + next(iter(every - key))
    return MECHANISMS_APPLIED + "+".join(sorted(key))


def shapley_weights(mechanisms: Sequence[str], m: str) -> dict[Mechanisms, float]:
    """A mechanism's Shapley value over the full factorial as weights on the cells: its marginal
    change averaged over every order of applying the mechanisms."""
    k = len(mechanisms)
    weights: dict[Mechanisms, float] = {}
    others = [o for o in mechanisms if o != m]
    for size in range(k):
        w = math.factorial(size) * math.factorial(k - size - 1) / math.factorial(k)
        for chosen in combinations(others, size):
            without = frozenset(chosen)
            weights[without | {m}] = weights.get(without | {m}, 0.0) + w
            weights[without] = weights.get(without, 0.0) - w
    return weights


def _shapley(mechanisms: Sequence[str], cells: Mapping[Mechanisms, Cell], confidence: float) -> dict[str, Part]:
    return {m: contrast(shapley_weights(mechanisms, m), cells, confidence) for m in mechanisms}


def ratio(numerator: Mapping[Mechanisms, float], denominator: Mapping[Mechanisms, float],
          cells: Mapping[Mechanisms, Cell], confidence: float = CONFIDENCE) -> Share:
    """One contrast over another (a part's share of the whole change), with Fieller's interval:
    the r whose (a - r b)^2 <= t^2 Var(a - r b), the cells independent, t at the Welch-Satterthwaite
    degrees of freedom of a - r b at the estimate. Its ends are NaN where the set is unbounded
    (the denominator not told from 0)."""
    keys = [k for k in dict.fromkeys([*numerator, *denominator]) if numerator.get(k, 0) or denominator.get(k, 0)]
    w = np.array([numerator.get(k, 0.0) for k in keys])
    v = np.array([denominator.get(k, 0.0) for k in keys])
    mean = np.array([cells[k].mean for k in keys])
    var = np.array([cells[k].var for k in keys])
    a, b = float(w @ mean), float(v @ mean)
    if b == 0:
        return Share(math.nan, math.nan, math.nan)
    r = a / b
    # a - r b is a contrast: its Welch-Satterthwaite degrees of freedom are contrast's own
    df = contrast({k: wk - r * vk for k, wk, vk in zip(keys, w, v)}, cells, confidence).df
    if not math.isfinite(df):
        return Share(r, r, r)
    q = float(t_quantile((1 + confidence) / 2, df)) ** 2
    low, high = fieller(a, b, float(w * w @ var), float(v * v @ var), float(w * v @ var), q)
    return Share(r, float(low), float(high))


def stepwise(steps: Sequence[str], pairs: Sequence[tuple[Sequence[float], Sequence[float]]],
             log: bool = True, confidence: float = CONFIDENCE) -> Decomposition:
    """A patch series measured as a run of two builds per step, the baseline against the patch up
    to that step (``pairs``: each step's run's baseline figures, then its build's), as a
    decomposition whose mechanisms are the steps: a step's part (``alone``) is its run's change
    less the step before's (the first step's: its run's change). Each run's two cells are its own,
    so the variances of the runs a part takes add. The parts add up to the last run's change
    exactly: the interaction is 0 by construction, not an estimate (an exact 0, no interval)."""
    if not steps or len(steps) != len(pairs):
        raise ValueError(f"{len(steps)} step name(s) for {len(pairs)} run(s)")

    def key(k: int, side: str) -> Mechanisms:
        return frozenset({f"{k} {side}"})

    cells = {}
    for k, (name, figures) in enumerate(zip(steps, pairs)):
        for side, values in zip(("baseline", "build"), figures):
            try:
                cells[key(k, side)] = Cell.of(values, log)
            except ValueError as e:
                raise ValueError(f"{name}'s run, {'the baseline' if side == 'baseline' else name}: {e}") from None

    def change(k: int, sign: float = 1.0) -> dict[Mechanisms, float]:
        return {key(k, "build"): sign, key(k, "baseline"): -sign}

    alone = {name: contrast({**change(k), **(change(k - 1, -1.0) if k else {})}, cells, confidence)
             for k, name in enumerate(steps)}
    last = len(steps) - 1
    return Decomposition(tuple(steps), cells[key(last, "baseline")].mean,
                         contrast(change(last), cells, confidence), alone, {},
                         Part(0.0, 0.0, 0.0, math.inf), None, log)
