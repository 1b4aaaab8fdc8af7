"""The command line's entry point (``hotpath``, ``python -m hotpath``): a command that renders
side by side starts its forkserver (hotpath.render.warm) before the command line's own imports,
so that the two import pandas, SciPy and Matplotlib at once, on two cores, rather than one after
the other. Every other command goes straight to hotpath.cli."""

from __future__ import annotations

import sys

#: The commands that render in worker processes (hotpath.render.study).
RENDERING = ("report", "notebook")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] and args[0] in RENDERING and not {"-h", "--help"} & set(args):
        from .render import warm

        warm.start()
    from .cli import main as run

    return run(argv)
