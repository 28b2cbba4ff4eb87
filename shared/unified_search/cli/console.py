"""The two consoles of the command line: results on stdout, progress and warnings on stderr.

Whatever the command line shows of stored or found text (queries, titles, content,
file names, error messages) goes through :func:`plain` or :func:`json_text`: it is
printed as text, never read as Rich markup, and the characters a terminal would act
on (escape sequences, bidirectional controls) are shown as escapes.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from unified_search.escape import UNSEEN, visible

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
    stderr().print(plain(f"warning: {message}"), soft_wrap=True)


def plain(
    text: str | None, limit: int | None = None, *, line: bool = False, style: str = ""
) -> Text:
    """Untrusted ``text`` as a Rich ``Text``: never markup, terminal controls shown as escapes.

    With ``line`` (or a ``limit``) it is also flattened to one line, of at most ``limit``
    characters: a table cell.
    """
    shown = visible(text or "")
    if line or limit:
        shown = " ".join(shown.split())
        if limit and len(shown) > limit:
            shown = shown[: limit - 1].rstrip() + "…"
    return Text(shown, style=style)


def json_text(value: Any) -> str:
    """``value`` as indented JSON that reads back exactly and is inert on a terminal.

    ``json`` escapes the C0 controls itself; the other characters a terminal acts on
    (C1 controls, bidirectional controls) are escaped here, as JSON allows for any.
    """
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return UNSEEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def print_json(console: Console, value: Any) -> None:
    """Print ``value`` as :func:`json_text`, unstyled and unwrapped."""
    console.print(json_text(value), markup=False, highlight=False, soft_wrap=True)


def _width(is_terminal: bool) -> int | None:
    if is_terminal or os.environ.get("COLUMNS"):
        return None
    return PIPE_WIDTH
