"""Every cookbook notebook runs top to bottom, offline, in a kernel of this interpreter.

The kernel is a subprocess started from a kernel spec written for this test
(``sys.executable -m ipykernel_launcher``), so it works in any virtualenv where
the dev extra is installed. The client talks to it over loopback ZMQ only. The
autouse ``clean_environ`` fixture has removed API keys before the kernel starts,
so the notebooks take their offline path: fake chat models and recorded web
responses. A guard cell run before the notebook (in memory only) makes any
connection or DNS lookup beyond loopback fail inside the kernel, so "offline"
is checked, not assumed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

COOKBOOK = Path(__file__).resolve().parents[2] / "cookbook"
NOTEBOOKS = sorted(COOKBOOK.glob("[0-9][0-9]_*.ipynb"))
KERNEL = "unified-search-cookbook"
#: Seconds one cell may run (the knowledge-base cells embed a few dozen documents).
CELL_TIMEOUT = 120
#: Notebooks that search the web, and must say so when they replay recorded answers.
OFFLINE_LABEL = "using recorded responses"
WEB_NOTEBOOKS = {
    "01_quickstart",
    "02_langchain_rag_chain",
    "03_langchain_agent_tools",
    "06_deep_search",
    "07_scale_out",
}
#: Run in the kernel before the first cell: only loopback connections and lookups are allowed.
NETWORK_GUARD = """
import socket as _socket

_LOCAL = {"127.0.0.1", "::1", "localhost"}
_connect, _connect_ex, _getaddrinfo = (
    _socket.socket.connect, _socket.socket.connect_ex, _socket.getaddrinfo
)


def _check(host):
    if isinstance(host, str) and host not in _LOCAL:
        raise OSError(f"network access outside loopback is blocked in this test: {host}")


def _guarded(original):
    def connect(self, address):
        if self.family in (_socket.AF_INET, _socket.AF_INET6):
            _check(address[0])
        return original(self, address)

    return connect


def _lookup(host, *args, **kwargs):
    _check(host.decode() if isinstance(host, bytes) else host)
    return _getaddrinfo(host, *args, **kwargs)


_socket.socket.connect = _guarded(_connect)
_socket.socket.connect_ex = _guarded(_connect_ex)
_socket.getaddrinfo = _lookup
"""


@pytest.fixture
def kernel_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Write a kernel spec for this interpreter; the kernel's home and caches are in ``tmp_path``."""
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "unified-search cookbook", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("MPLBACKEND", "agg")
    for name in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    return KERNEL


def test_the_cookbook_has_all_seven_notebooks() -> None:
    assert [path.name[:2] for path in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06", "07"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_is_committed_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, "a notebook without code cells"
    assert all(not cell.outputs and cell.execution_count is None for cell in code)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs_top_to_bottom_offline(path: Path, kernel_env: str) -> None:
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(NETWORK_GUARD))
    client = NotebookClient(
        notebook,
        kernel_name=kernel_env,
        timeout=CELL_TIMEOUT,
        startup_timeout=120,
        resources={"metadata": {"path": str(COOKBOOK)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    text = _output_text(notebook)
    assert "Traceback" not in text
    if path.stem in WEB_NOTEBOOKS:
        assert OFFLINE_LABEL in text, "the offline mode must be announced in the output"


def test_the_network_guard_blocks_a_public_host(kernel_env: str) -> None:
    """The guard really refuses a non-loopback address, so passing notebooks ran offline."""
    probe = (
        "import socket\n"
        "try:\n"
        "    socket.create_connection(('93.184.215.14', 80), timeout=1)\n"
        "except OSError as exc:\n"
        "    print('refused:', exc)\n"
        "try:\n"
        "    socket.getaddrinfo('example.org', 443)\n"
        "except OSError as exc:\n"
        "    print('refused:', exc)\n"
    )
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(NETWORK_GUARD), nbformat.v4.new_code_cell(probe)]
    NotebookClient(notebook, kernel_name=kernel_env, timeout=CELL_TIMEOUT).execute()
    text = _output_text(notebook)
    assert text.count("refused: network access outside loopback is blocked") == 2


def _output_text(notebook: nbformat.NotebookNode) -> str:
    parts: list[str] = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.extend(str(value) for value in output.get("data", {}).values())
    return "\n".join(parts)
