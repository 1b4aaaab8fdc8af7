"""A report's jira.txt through a Jira markup parser (jira2markdown), in worker processes of their
own: test_reports.py hands the files to them.

Apart from hotpath on purpose. The parser is pyparsing, and importing hotpath imports matplotlib,
whose mathtext turns pyparsing's packrat cache on for every parser in the process. jira2markdown
never asks for it and takes about 1.1 s of CPU a kilobyte with it against 0.4 s without (the
same output: its cells and spans are parsed again as new strings, so the cache only costs).
Workers forked from the test process inherited it, and faulted in copies of that process's
memory (a fifth of their time went to the kernel); workers started from this module alone (a
forkserver) have neither.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def to_markdown(path: Path) -> str:
    """One jira.txt, whole, as jira2markdown converts it."""
    from jira2markdown import convert
    from pyparsing import ParserElement

    # however the worker was started: the parser as jira2markdown runs it alone
    ParserElement.disable_memoization()
    return convert(Path(path).read_text(encoding="utf-8"))


def all_to_markdown(paths: list[Path], workers: int) -> list[str]:
    """Each file as Markdown, the files spread over ``workers`` processes."""
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(to_markdown, paths))
