"""Every cookbook notebook runs top to bottom, offline, and is committed with its outputs.

The notebooks run through ``cookbook/execute.py``, the script that saves them, in
a kernel of this interpreter (a kernel spec written for the test), so it works in
any virtualenv where the dev extra is installed. The client talks to the kernel
over loopback ZMQ only. API keys are removed before the kernel starts, so the
notebooks take their offline path: fake chat models and recorded web responses.
A guard run before the notebook (in memory only) makes any connection or DNS
lookup beyond loopback fail inside the kernel, so "offline" is checked, not
assumed. Every notebook must show at least one picture, and no output may be a
warning: both for the run here and for the outputs committed with it.
"""

from __future__ import annotations

import base64
import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

COOKBOOK = Path(__file__).resolve().parents[2] / "cookbook"
_spec = importlib.util.spec_from_file_location("cookbook_execute", COOKBOOK / "execute.py")
assert _spec is not None and _spec.loader is not None
cookbook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cookbook)

NOTEBOOKS = cookbook.NOTEBOOKS
#: Notebooks that search the web, and must say so when they replay recorded answers.
OFFLINE_LABEL = "using recorded responses"
WEB_NOTEBOOKS = {
    "01_quickstart",
    "02_langchain_rag_chain",
    "03_langchain_agent_tools",
    "06_deep_search",
    "07_scale_out",
}
#: What a warning looks like in a cell's output (Python warnings go to stderr, loggers too).
WARNING_MARKERS = ("Warning:", "WARNING", "warnings.warn", "Traceback")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
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


@pytest.fixture(scope="session")
def kernel_caches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for every kernel of the session: matplotlib's fonts, the int8 model.

    The font list is built here, in a throwaway process, so that matplotlib's
    one-time "building the font cache" message cannot appear in a notebook.
    """
    caches = tmp_path_factory.mktemp("kernel-caches")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(caches), "MPLCONFIGDIR": str(caches / "mpl")}
    subprocess.run(
        [sys.executable, "-c", "import matplotlib.font_manager"],
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return caches


@pytest.fixture
def kernel_env(
    tmp_path: Path, kernel_caches: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A kernel spec for this interpreter; the kernel's home is ``tmp_path``, its caches shared."""
    for name in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.setenv("XDG_CACHE_HOME", str(kernel_caches))
    monkeypatch.setenv("MPLCONFIGDIR", str(kernel_caches / "mpl"))
    with cookbook.kernel_home(tmp_path) as kernel:
        yield kernel


def test_the_cookbook_has_all_seven_notebooks() -> None:
    assert [path.name[:2] for path in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06", "07"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_is_committed_with_its_outputs(path: Path) -> None:
    """Readers on GitHub see what each cell printed and drew, from one run top to bottom."""
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, "a notebook without code cells"
    counts = [cell.execution_count for cell in code]
    assert counts == list(range(1, len(code) + 1)), "not saved from one run of every cell"
    _assert_clean(notebook)
    if path.stem in WEB_NOTEBOOKS:
        assert OFFLINE_LABEL in _output_text(notebook), "the committed outputs are the offline ones"
    assert notebook.metadata["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs_top_to_bottom_offline(path: Path, kernel_env: str) -> None:
    notebook = nbformat.read(path, as_version=4)
    # Raises CellExecutionError, naming the cell, on the first error.
    cookbook.execute(notebook, kernel_env, prelude=NETWORK_GUARD)
    _assert_clean(notebook)
    if path.stem in WEB_NOTEBOOKS:
        assert OFFLINE_LABEL in _output_text(notebook), "the offline mode must be announced"


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
    notebook.cells = [nbformat.v4.new_code_cell(probe)]
    cookbook.execute(notebook, kernel_env, prelude=NETWORK_GUARD)
    assert len(notebook.cells) == 1, "the prelude leaves no cell behind"
    text = _output_text(notebook)
    assert text.count("refused: network access outside loopback is blocked") == 2


def test_a_warning_in_a_cell_is_caught(kernel_env: str) -> None:
    """The check that outputs hold no warning sees one when a cell emits it."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("import warnings\nwarnings.warn('stale API')")]
    cookbook.execute(notebook, kernel_env)
    with pytest.raises(AssertionError, match="stale API"):
        _assert_clean(notebook)


def _assert_clean(notebook: nbformat.NotebookNode) -> None:
    """No error, no stderr, no warning text in any output; at least one PNG picture."""
    images = 0
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            where = f"cell {index}: {''.join(cell.source)[:60]!r}"
            assert output.output_type != "error", f"{where} raised {output.get('ename')}"
            if output.output_type == "stream":
                assert output.name == "stdout", f"{where} wrote to stderr: {output.text[:300]}"
            text = output.get("text", "") + str(output.get("data", {}).get("text/plain", ""))
            marker = next((m for m in WARNING_MARKERS if m in text), None)
            assert marker is None, f"{where} shows a warning: {text[:300]}"
            picture = output.get("data", {}).get("image/png")
            if picture:
                assert base64.b64decode(picture).startswith(PNG_SIGNATURE)
                images += 1
    assert images >= 1, "a notebook without a picture"


def _output_text(notebook: nbformat.NotebookNode) -> str:
    parts: list[str] = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text", ""))
            parts.extend(str(value) for value in output.get("data", {}).values())
    return "\n".join(parts)
