"""Imported last by a render's forkserver (hotpath.render.warm.FORKSERVER_PRELOAD), and nowhere
else: what each process of a render would otherwise pay for itself, settled once before they fork.

- The HTML exporter with its templates compiled (0.16 s), and one export of an empty notebook,
  which readies what nbconvert's last pass over a page uses (BeautifulSoup's CSS selectors take
  0.13 s at their first use): 0.3 s of CPU a worker, once.
- Python's cyclic garbage collector made to run less often: a report's notebook allocates
  millions of short-lived objects (pandas, Matplotlib) and spent 0.16 s of its 2.4 s of CPU in
  some 190 collections, 0.02 s in the 11 it makes when one runs every 10,000 allocations rather
  than every 700. What the imports made is frozen, so no collection scans it again. The render's
  processes live seconds: what a collection would free sooner, they free when they end.
"""

import contextlib
import gc

import nbformat

from .report import exporter
from .warm import YOUNGEST

# (an exporter that fails fails again at a report's export, which names the report)
with contextlib.suppress(Exception):
    exporter().from_notebook_node(nbformat.v4.new_notebook())

gc.freeze()
gc.set_threshold(YOUNGEST)
