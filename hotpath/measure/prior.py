"""What the study's committed recorded forks of a row saw that a scout cannot.

A scout is as long as a profile can afford, and a short one misses a slowdown that comes after
it: old zip's MAP_1600B runs at 55-100 µs/op for its first 2 s and at about 290 µs/op from
2.0 s on (the A/A run's recorded forks), so quick's 2 s scout sees it flat and fast, its later
forks, chosen from that, are short, and the row comes out several times too fast against the
reference, which measured 3-5 s into its forks. Warmup and waves a scout does see (its fork
does not settle, and the next one is longer); a slowdown it sees as a steady state.

The A/A run of 2026-11-26 (data/aa-runs/2026-11-26/) recorded every fork of the write-ups' rows from its
start on the study's runtime, 4 s scouts and forks up to 6 s, old on both sides. A row whose
forks there slowed down too late for a scout to find, in more than a quarter of them, starts
with the longest fork the profile allows (hotpath.measure.forklength.first). Only the length is
taken: every figure comes from the run's own forks, and after its first round a row's forks
are chosen from its own forks alone. A row the A/A lacks starts with the scout.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..stats import steady
from ..errors import HotpathError
from ..jmh import Params, RowKey
from ..paths import ROOT, calibration_run

#: A row's benchmark and params without the one that names its side (RowKey.group).
Key = tuple[str, Params]


def forks(paths: tuple[str, ...] | list[Path], label: str = "variant") -> dict[Key, list[steady.Fork]]:
    """Every recorded fork of each benchmark x params in committed results files (paths under
    the project root), whatever side ran it. A missing file gives nothing (the scouts decide);
    one that cannot be read is refused."""
    out: dict[Key, list[steady.Fork]] = {}
    for path in (ROOT / p for p in paths):
        if not path.is_file():
            continue
        try:
            for entry in json.loads(path.read_text(encoding="utf-8")):
                if not steady.recorded(entry):
                    continue
                out.setdefault(RowKey.of_entry(entry, label).group, []).extend(steady.entry_forks(entry))
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise HotpathError(f"{path}: the committed forks that set first fork lengths cannot be "
                               f"read ({type(e).__name__}: {e}); restore it with git checkout") from e
    return out


def expected(case_id: str, rows: list, design, label: str = "variant") -> dict:
    """Forks per side each row is expected to need, from the reference run they were set on
    (hotpath.paths.calibration_run: <case>.json, every row and variant, 4-24 forks per side on a
    quiet machine): its ratio and fork CV there, at the design's last boundary
    (sequential.forks_to_decide). Only an order: this machine's noise sets how many forks a row
    really takes. A row the reference lacks, or a case without one, gets none."""
    import numpy as np

    from ..stats import sequential

    path = calibration_run() / f"{case_id}.json"
    if not path.is_file():
        return {}
    try:
        means = {}
        for entry in json.loads(path.read_text(encoding="utf-8")):
            forks = [np.mean([float(v) for v in f]) for f in entry["primaryMetric"].get("rawData") or [] if f]
            means[RowKey.of_entry(entry, label)] = forks
    except (ValueError, KeyError, TypeError) as e:
        raise HotpathError(f"{path}: the reference run cannot be read ({type(e).__name__}: {e}); "
                           f"restore it with git checkout") from e
    out = {}
    for row in rows:
        old, new = (means.get(row.side(side)) for side in ("old", row.candidate))
        if not old or not new or len(old) < 2 or len(new) < 2:
            continue
        ratio = float(np.exp(np.mean(np.log(new)) - np.mean(np.log(old))))
        cv = sequential.pooled_fork_cv([[float(v)] for v in old], [[float(v)] for v in new])
        out[row] = sequential.forks_to_decide(ratio, cv, design)
    return out
