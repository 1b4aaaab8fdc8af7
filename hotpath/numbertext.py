"""How the study writes a number in a sentence or a cell, in every stage: three significant
figures, never an exponent, a true minus sign."""

from __future__ import annotations

import math

MINUS = "\u2212"


def three_figures(x: float | None) -> str:
    """Three significant figures, never an exponent: 17,550 / 213 / 21.3 / 2.13 / 0.0123; '—'
    for no number."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else f"{MINUS}∞"
    a = abs(x)
    if a >= 1000:
        s = f"{x:,.0f}"
    elif a == 0:
        s = "0"
    else:
        decimals = max(0, 2 - math.floor(math.log10(a)))
        s = f"{x:,.{decimals}f}"
    return s.replace("-", MINUS)
