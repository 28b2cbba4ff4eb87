"""The error boundary of the command line, in process."""

from __future__ import annotations

import click
import pytest

from unified_search.cli import app, configuration
from unified_search.errors import ErrorCode, SearchError


def failing(exc: BaseException) -> click.Command:
    @click.command(name="config")
    def command() -> None:
        raise exc

    return command


@pytest.mark.parametrize(
    ("exc", "code", "line"),
    [
        (RuntimeError("boom"), 1, "unexpected RuntimeError: boom (set UNIFIED_SEARCH_DEBUG=1"),
        (SearchError(ErrorCode.TIMEOUT, "too slow", provider="kb"), 1, "TIMEOUT [kb]: too slow"),
        (SearchError(ErrorCode.INVALID_QUERY, "empty"), 2, "INVALID_QUERY: empty"),
        (ValueError("bad\nvalue"), 2, "bad value"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ],
)
def test_errors_become_one_line_and_an_exit_code(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    exc: BaseException,
    code: int,
    line: str,
) -> None:
    monkeypatch.setattr(configuration, "show_config", failing(exc))
    assert app.run(["config"]) == code
    # (click itself ends the interrupted line with a bare newline first)
    [printed] = [text for text in capsys.readouterr().err.splitlines() if text]
    assert printed.startswith("unified-search: error: " + line)


def test_debug_mode_raises_the_unexpected_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(configuration, "show_config", failing(RuntimeError("boom")))
    monkeypatch.setenv("UNIFIED_SEARCH_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        app.run(["config"])
