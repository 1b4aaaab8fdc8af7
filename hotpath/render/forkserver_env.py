"""Imported first by a render's forkserver (hotpath.render.warm.forkserver), and nowhere else: the
environment the forkserver's imports are made in, which its forks (the zygote, the workers, the
kernels) inherit.

- A kernel's Matplotlib backend, before Matplotlib is imported: ipykernel sets it so before a
  notebook runs.
- The debugger's import quiet about frozen modules (it would warn on the render's terminal).
- nbformat's schema checks (papermill and nbconvert import them) without jsonschema's checkers of
  IRIs, which its schemas never name: with rfc3987-syntax installed (JupyterLab asks for it) they
  compile 38 grammars at import, 1.2 s of CPU before a render's first report can start.
"""

import os
import sys

#: ipykernel's default Matplotlib backend.
INLINE = "module://matplotlib_inline.backend_inline"

os.environ.setdefault("MPLBACKEND", INLINE)
os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]  # None: "not installed"
