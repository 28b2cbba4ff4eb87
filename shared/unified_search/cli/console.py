"""The two consoles of the command line: results on stdout, progress and warnings on stderr."""

from __future__ import annotations

import os
import sys

from rich.console import Console

#: Width used when the output is not a terminal and ``$COLUMNS`` is not set (pipes, files).
PIPE_WIDTH = 120


def stdout() -> Console:
    """The console results are printed to (no emoji codes: ``:x:`` in content stays text)."""
    return Console(file=sys.stdout, width=_width(sys.stdout.isatty()), emoji=False)


def stderr() -> Console:
    """The console of progress bars and warnings, so piped results stay clean."""
    return Console(file=sys.stderr, width=_width(sys.stderr.isatty()), emoji=False)


def warn(message: str) -> None:
    """Print one warning line on stderr."""
    stderr().print(f"warning: {message}", markup=False, highlight=False, soft_wrap=True)


def _width(is_terminal: bool) -> int | None:
    if is_terminal or os.environ.get("COLUMNS"):
        return None
    return PIPE_WIDTH
