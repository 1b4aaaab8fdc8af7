"""Imported last by a render's forkserver (hotpath.render.warm.FORKSERVER_PRELOAD), and nowhere
else: what each of the render's workers would make for itself at its first report, made once
before they fork. The HTML exporter with its templates compiled (0.16 s), and one export of an
empty notebook, which readies what nbconvert's last pass over a page uses (BeautifulSoup's CSS
selectors take 0.13 s at their first use): 0.3 s of CPU a worker, once.
"""

import nbformat

from .report import exporter

exporter().from_notebook_node(nbformat.v4.new_notebook())
