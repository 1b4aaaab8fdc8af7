"""What a command wrote, as the command line says it (hotpath.cli): apart from the renders that
return it, so that the command line starts without them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Written:
    """A file or report folder written (or kept: its inputs had not changed since it was); a
    report's page and whether it leads with a headline."""

    path: Path
    page: str = ""
    headline: bool = False
    kept: bool = False
