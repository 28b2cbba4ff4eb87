"""Run the cookbook notebooks top to bottom and save them with their outputs.

    python cookbook/execute.py              # every notebook, in place
    python cookbook/execute.py 01 05        # the notebooks whose names start so

Each notebook runs in a fresh kernel of this interpreter (``sys.executable -m
ipykernel_launcher``, through a kernel spec written to a temporary folder), so
it works in any virtualenv with the dev extra, with the API keys of the
environment removed: the saved outputs are the offline ones (recorded web
answers, fake chat models) that anyone can reproduce. Timing metadata is not
recorded, so a re-run changes only what the notebooks themselves print.
The test suite runs the same ``execute`` function (tests/notebooks).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from unified_search.config import ENVIRONMENT_PREFIXES

COOKBOOK = Path(__file__).resolve().parent
NOTEBOOKS = sorted(COOKBOOK.glob("[0-9][0-9]_*.ipynb"))
KERNEL = "unified-search-cookbook"
#: Seconds one cell may run (the knowledge-base cells embed a few dozen documents).
CELL_TIMEOUT = 120
#: Saved in every notebook instead of the temporary kernel's name.
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


@contextmanager
def kernel_home(folder: Path) -> Iterator[str]:
    """Point Jupyter at a kernel spec for this interpreter under ``folder``; yield its name.

    The kernel's home, caches and Jupyter folders are in ``folder`` too, and the
    API keys are removed from the environment while the block runs.
    """
    spec = folder / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "unified-search cookbook", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    saved = dict(os.environ)
    for name in list(os.environ):
        if name.startswith(ENVIRONMENT_PREFIXES):
            del os.environ[name]
    os.environ.update(
        JUPYTER_PATH=str(folder / "jupyter"),
        JUPYTER_RUNTIME_DIR=str(folder / "runtime"),
        IPYTHONDIR=str(folder / "ipython"),
        PYDEVD_DISABLE_FILE_VALIDATION="1",  # the debugger's note about frozen modules
    )
    try:
        yield KERNEL
    finally:
        os.environ.clear()
        os.environ.update(saved)


def execute(
    notebook: nbformat.NotebookNode, kernel_name: str, *, prelude: str = ""
) -> nbformat.NotebookNode:
    """Run ``notebook`` in place in the cookbook folder; raise ``CellExecutionError`` on an error.

    ``prelude`` is code run first in the same kernel (the tests' network guard);
    it is not part of the notebook and leaves no cell behind.
    """
    if prelude:
        notebook.cells.insert(0, nbformat.v4.new_code_cell(prelude))
    client = NotebookClient(
        notebook,
        kernel_name=kernel_name,
        timeout=CELL_TIMEOUT,
        startup_timeout=120,
        record_timing=False,
        resources={"metadata": {"path": str(COOKBOOK)}},
    )
    try:
        client.execute()
    finally:
        if prelude:
            del notebook.cells[0]
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    return notebook


def main(prefixes: Sequence[str]) -> int:
    """Execute the chosen notebooks and write them back with their outputs."""
    chosen = [path for path in NOTEBOOKS if not prefixes or path.name.startswith(tuple(prefixes))]
    if not chosen:
        print(f"no notebook starts with {' or '.join(prefixes)}", file=sys.stderr)
        return 2
    with (
        tempfile.TemporaryDirectory(prefix="cookbook-kernel-") as folder,
        kernel_home(Path(folder)) as kernel,
    ):
        for path in chosen:
            print(f"running {path.name}", flush=True)
            notebook = execute(nbformat.read(path, as_version=4), kernel)
            nbformat.validate(notebook)
            nbformat.write(notebook, path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
