"""Indexing progress on stderr: a live bar on a terminal, a line every ten seconds otherwise.

The bar shows what is being done (files read, then chunks embedded), done of
total, the rate and the time left, redrawn several times a second. Piped or
redirected, the same facts are printed as one line when a stage starts, every
``LINE_EVERY`` seconds, and when it ends, so a log shows the run is alive and
what each stage did, however short. ``quiet`` prints nothing.
"""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from unified_search.kb.ingest import IngestProgress

#: Seconds between two progress lines when stderr is not a terminal.
LINE_EVERY = 10.0
UNITS = {"reading": "files", "embedding": "chunks"}
LABELS = {"reading": "reading files", "embedding": "embedding chunks"}


class RateColumn(ProgressColumn):
    """Items per second, averaged by rich over the last seconds."""

    def render(self, task: Task) -> Text:
        """``123 chunks/s`` once a rate is known."""
        unit = str(task.fields.get("unit", ""))
        return Text(
            f"{task.speed:,.0f} {unit}/s" if task.speed else "", style="progress.data.speed"
        )


class IndexProgress:
    """Receive ``IngestProgress`` updates and show them; remember the last one.

    Example:
        Not run here: ``console`` is the caller's Rich console.

        >>> with IndexProgress(console, quiet=False) as shown:  # doctest: +SKIP
        ...     kb.index_paths("help", ["docs/"], progress=shown)
    """

    def __init__(
        self, console: Console, *, quiet: bool = False, line_every: float = LINE_EVERY
    ) -> None:
        self.console = console
        self.quiet = quiet
        self.line_every = line_every
        self.last: IngestProgress | None = None
        self.started = time.monotonic()
        self._stage_started = self.started
        self._printed = self.started
        self._bar: Progress | None = None
        self._tasks: dict[str, TaskID] = {}
        self._ended: set[str] = set()

    def __enter__(self) -> IndexProgress:
        if not self.quiet and self.console.is_terminal:
            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                RateColumn(),
                TimeRemainingColumn(),
                console=self.console,
                transient=True,
            )
            self._bar.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()

    def __call__(self, update: IngestProgress) -> None:
        """Show ``update``."""
        starts = self.last is None or self.last.stage != update.stage
        if starts:
            self._stage_started = time.monotonic()
        self.last = update
        if self._bar is not None:
            self._show_bar(update)
        elif not self.quiet:
            self._maybe_print(update, starts)

    def _show_bar(self, update: IngestProgress) -> None:
        assert self._bar is not None
        task = self._tasks.get(update.stage)
        if task is None:
            task = self._bar.add_task(
                LABELS[update.stage], total=update.total, unit=UNITS[update.stage]
            )
            self._tasks[update.stage] = task
        self._bar.update(task, completed=update.done, total=update.total)

    def _maybe_print(self, update: IngestProgress, starts: bool) -> None:
        """A line when a stage starts (with its total), one every ``line_every`` s, one at its end."""
        now = time.monotonic()
        ends = update.done >= update.total and update.stage not in self._ended
        if ends:
            self._ended.add(update.stage)
        if not (starts or ends) and now - self._printed < self.line_every:
            return
        self._printed = now
        self.console.print(
            line(update, now - self._stage_started), highlight=False, markup=False, soft_wrap=True
        )


def line(update: IngestProgress, seconds: float) -> str:
    """``embedding chunks: 1,024/5,000 (20%), 110 chunks/s, about 36 s left``."""
    unit = UNITS[update.stage]
    share = f" ({update.done / update.total:.0%})" if update.total else ""
    text = f"{LABELS[update.stage]}: {update.done:,}/{update.total:,}{share}"
    if seconds > 0 and update.done:
        rate = update.done / seconds
        left = (update.total - update.done) / rate
        when = f"done in {seconds:,.1f} s" if left <= 0 else f"about {left:,.0f} s left"
        text += f", {rate:,.0f} {unit}/s, {when}"
    return text
