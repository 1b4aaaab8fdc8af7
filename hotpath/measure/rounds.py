"""A plan's rounds run: each round's JMH runs (a variant's forks of one length, cut by their
params), within the budget; the forks each run gave taken into the plan, and what a run that
gave none says of why (a failed benchmark, JMH's lock held by another run)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Callable

from ..jmh import RowKey
from ..stats import sequential
from .forkplan import Plan, Row, _forks, invocations, sides_of
from .interleave import order_of_round
from .profiles import format_duration


def run(plan: Plan, command: Callable[[str, list[str], dict[str, list[str]], Path, int | None], list[str]],
        staging: Path, jmh: Callable[[list[str]], str | None], log: Callable[[str], None] = print,
        clock: Callable[[], float] | None = None) -> list[tuple[list[str], Path]]:
    """Run the plan's rounds until every row is closed; returns each fork run's command and
    its JSON file. ``command(variant, benchmarks, params, target, iterations)`` builds one JMH
    run (``iterations``: a recorded fork's length, None for the profile's own);
    ``jmh(cmd)`` runs it and may return its console output, where a plan that tolerates
    failures finds why a benchmark gave no result. ``clock`` reads the time the budget is spent
    on (a replay of recorded forks, hotpath.measure.replay, passes the one its fake JMH moves;
    by default the machine's monotonic clock)."""
    clock = clock or time.monotonic
    started = clock()
    deadline = started + plan.budget_s
    done: list[tuple[list[str], Path]] = []
    baseline = plan.case.baseline
    variants = [baseline] + list(dict.fromkeys(r.candidate for r in plan.rows))
    n = 0
    _budget_at_start(plan, log)
    # Each round gives every chosen row one more fork per side, and a row closes at its cap,
    # so this many rounds is a bound that is never reached.
    for r in range(sum(row.cap for row in plan.rows)):
        open_rows = plan.open_rows()
        if not open_rows:
            break
        # The first round takes every row: a figure for each, whatever the budget brings to a
        # look. Later rounds take what the budget left can bring to a decision; a row left
        # out stays open for a later round (rows that decide early free the time).
        rows = open_rows if r == 0 else plan.affordable(open_rows, deadline - clock())
        if not rows:
            break
        sides = sides_of(rows, baseline)
        log(f"hotpath: {plan.case.id}: round {r + 1}: {len(rows)} open row(s), {len(sides)} fork(s), "
            f"{format_duration(deadline - clock())} of the budget left")
        jmh_runs = _jmh_runs(plan, rows, sides, order_of_round(variants, r))
        stopped = False
        for k, (variant, iterations, mine, benchmarks, params) in enumerate(jmh_runs):
            # The round was chosen to fit, but its forks may run slower than they were expected
            # to (a noisy host): a JMH run expected to end more than a fork past the budget does
            # not start, so the budget is overrun by a fork at most, give or take that noise.
            fork_s = plan.overhead_s + iterations * plan.profile.iteration_s if iterations else plan.fork_s
            asked = _asked(mine, benchmarks, params)
            if r > 0 and clock() + (len(asked) - 1) * fork_s > deadline:
                log(f"hotpath: {plan.case.id}: round {r + 1} stopped at the budget's end, "
                    f"{len(jmh_runs) - k} of its {len(jmh_runs)} JMH runs not started")
                stopped = True
                break
            n += 1
            target = staging / f"round-{r + 1:02d}-{_token(variant)}-{n:04d}.json"
            cmd = command(variant, benchmarks, params, target, iterations)
            t0 = clock()
            output = jmh(cmd)
            if _take(plan, target, variant, asked, output, clock() - t0, iterations, first=not done):
                done.append((cmd, target))
        plan.look()
        plan.choose_lengths()
        if stopped:
            break
    plan.close_all(sequential.BUDGET)
    plan.spent_s = clock() - started
    return done


def _budget_at_start(plan: Plan, log: Callable[[str], None]) -> None:
    """A plan with no budget closes every row; one too short for a first round says it will
    overrun (the first round runs whole: a figure for every row)."""
    if plan.budget_s <= 0:
        plan.close_all(sequential.BUDGET)
    elif plan.budget_s < plan.first_round_s():
        log(f"hotpath: {plan.case.id}: the budget left ({format_duration(plan.budget_s)}) is "
            f"shorter than one fork per side of every row: the first round runs whole and overruns it")


def _jmh_runs(plan: Plan, rows: list[Row], sides: list[RowKey], order: list[str]
              ) -> list[tuple[str, int | None, list[RowKey], list[str], dict[str, list[str]]]]:
    """A round's JMH runs, in its order of variants: for each variant, its forks of one length
    together, cut into JMH invocations by their params (variant, iterations, the row-sides it
    holds, its benchmarks, its params)."""
    return [(variant, iterations, mine, benchmarks, params)
            for variant in order
            for iterations, mine in _by_length(plan, rows, [s for s in sides if s.variant == variant])
            for benchmarks, params in invocations(mine, plan.declared, plan.label)]


def _take(plan: Plan, target: Path, variant: str, asked: list[RowKey], output: str | None, took: float,
          iterations: int | None, first: bool) -> bool:
    """A JMH run's forks into the plan, with what they took (the next round is planned with
    it); a side it gave no result is failed where the plan tolerates that. Whether it wrote
    its results."""
    forks = _forks(target, variant, plan.label, plan.profile.estimate) if target.is_file() else {}
    for side, summaries in forks.items():
        plan.forks.setdefault(side, []).extend(summaries)
        plan.means.setdefault(side, []).extend(f.value for f in summaries)
    if plan.tolerate_failures:
        errors = failures(output or "")
        for side in asked:
            if side not in forks:
                plan.fail(side, errors.get(side.benchmark, no_result(output or "")))
    if not target.is_file():
        return False
    for entry in json.loads(target.read_text(encoding="utf-8")):
        plan.units[entry["benchmark"]] = entry["primaryMetric"].get("scoreUnit", "")
    count = max(1, sum(len(m) for m in forks.values()))
    plan.forks_run += count
    # What a fork costs here, all overheads in.
    plan.fork_s = took / count if first else 0.7 * plan.fork_s + 0.3 * (took / count)
    if iterations:
        overhead = max(0.0, took / count - iterations * plan.profile.iteration_s)
        plan.overhead_s = overhead if first else 0.7 * plan.overhead_s + 0.3 * overhead
    return True


def _by_length(plan: Plan, rows: list[Row], sides: list[RowKey]) -> list[tuple[int | None, list[RowKey]]]:
    """A round's sides of one variant grouped by their forks' iterations: a side shared by rows
    of different lengths runs the longest (one JMH run has one iteration count)."""
    length: dict[RowKey, int | None] = {}
    for row in rows:
        for side in sides:
            if side.group == row.group and side.variant in (plan.case.baseline, row.candidate):
                n = plan.iterations(row, side.variant)
                before = length.get(side)
                length[side] = n if before is None or n is None else max(before, n)
    groups: dict[int | None, list[RowKey]] = {}
    for side in sides:
        groups.setdefault(length.get(side), []).append(side)
    return sorted(groups.items(), key=lambda item: item[0] or 0)


def _token(name: str) -> str:
    """A side's name as it can stand in a file name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "side"


def _asked(sides: list[RowKey], benchmarks: list[str], params: dict[str, list[str]]) -> list[RowKey]:
    """The sides one JMH run was asked for: its benchmarks, at the values it set."""
    return [s for s in sides if s.benchmark in benchmarks
            and all(v in params.get(k, [v]) for k, v in s.params)]


def failures(output: str) -> dict[str, str]:
    """Each benchmark that failed in a JMH run's console output (-foe false), with the first
    line of what it threw: JMH prints '# Benchmark: <name>', then '<failure>' and the trace."""
    out: dict[str, str] = {}
    benchmark = ""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# Benchmark: "):
            benchmark = line.removeprefix("# Benchmark: ").strip()
        elif "<failure>" in line and benchmark and benchmark not in out:
            thrown = next((l.strip() for l in lines[i + 1:i + 6] if l.strip()), "it threw")
            out[benchmark] = thrown[:300]
    return out


#: What JMH prints, and exits on, where another JMH run holds its machine-wide lock.
LOCKED = "Another JMH instance might be running"


#: JMH's lock file: java.io.tmpdir's, /tmp unless a JVM is told otherwise.
LOCK_FILE = Path("/tmp/jmh.lock")


def lock_held(path: Path | None = None) -> bool:
    """Whether another process holds JMH's lock now (JMH takes it with FileChannel.tryLock, a
    POSIX record lock that fcntl sees): for a run whose output was not kept to read."""
    import fcntl

    try:
        with open(path or LOCK_FILE, "a") as f:
            try:
                fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            fcntl.lockf(f, fcntl.LOCK_UN)
    except OSError:
        return False
    return False


def no_result(output: str) -> str:
    """Why a JMH run gave a benchmark no result, where no failure of its own says: another run
    holding JMH's lock, or else its output."""
    if LOCKED in output:
        return ("another JMH run holds JMH's machine-wide lock (/tmp/jmh.lock), so this one did not "
                "start: let it end (or stop it), then run again; two runs at once would time each other")
    return "JMH gave no result (its output is in the run's log)"
