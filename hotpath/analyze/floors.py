"""Each variant against the allocation floor a case states (data/floors/<case>.csv): the B/op it
allocates above the least the operation must."""

from __future__ import annotations

import math

import pandas as pd


def floor_excess(pairs: pd.DataFrame, floors: pd.DataFrame) -> pd.DataFrame:
    """Per benchmark x params with a stated floor (data/floors/<case>.csv) and per variant,
    baseline included: the B/op above the floor, heap and native together (native counts as 0
    where the run did not measure it)."""
    rows = []
    for (benchmark, params), group in pairs.groupby(["benchmark", "params"], sort=False):
        f = floor_of(floors, benchmark, params)
        if f is None:
            continue
        floor = f["heap_floor"] + (0.0 if math.isnan(f["native_floor"]) else f["native_floor"])
        first = group.iloc[0]
        sides = [(first["baseline"], first["old_alloc"], first.get("old_native", math.nan))]
        sides += [(r["candidate"], r["new_alloc"], r.get("new_native", math.nan))
                  for _, r in group.iterrows()]
        for variant, heap, native in sides:
            if math.isnan(heap):
                continue
            total = heap + (0.0 if native is None or math.isnan(native) else native)
            rows.append({"benchmark": benchmark, "params": params, "variant": variant,
                         "floor": floor, "excess": max(0.0, total - floor)})
    return pd.DataFrame(rows, columns=["benchmark", "params", "variant", "floor", "excess"])


def floor_of(floors: pd.DataFrame, benchmark: str, params: str) -> pd.Series | None:
    """The stated floor of one benchmark x params (data/floors/<case>.csv), if there is one."""
    hit = floors[(floors["benchmark"] == benchmark) & (floors["params"] == params)]
    return None if hit.empty else hit.iloc[0]


def at_floor(excess: float, floor: float) -> bool:
    """Within measurement noise of the floor: 8 bytes (one object alignment) or 1% of it."""
    return excess <= max(8.0, 0.01 * floor)
