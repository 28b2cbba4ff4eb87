"""Write search records from a background thread, many searches per transaction.

A search hands its records (and the numbering of a citation scope it created)
to a ``RecordWriter`` and goes on. The writer's thread takes everything queued,
up to ``batch`` searches, and writes it in one transaction; while that commit
runs, the next searches queue up and go into the next one. So a busy service
writes few large transactions instead of one per search, and a quiet one
writes each search at once.

Durability: a search's records and references are written in one transaction
with the rest of its batch, so a crash (``kill -9``) never leaves half a
record; it loses what was queued and not yet committed, that is the searches
of the last flush (normally a few milliseconds), never more than
``max_pending`` searches, and none that waited for its commit (``await_commit``,
as the store's searches do before they answer). ``close``/``aclose`` write
everything queued first.

Back-pressure: when ``max_pending`` searches wait, ``asubmit`` waits for room
(up to its deadline) instead of dropping anything; a write that still finds no
room is refused with a ``SearchError`` that the caller reports.

Failures: a retryable failure (the database is unreachable, its disk full) keeps
the batch and retries it with exponential backoff until it is written, logging each
failure; ``problem`` (``failure``, coded) says what is wrong meanwhile, so searches
stop waiting for the store. A write that fails otherwise is retried alone; one that
fails alone is dropped, as is a batch still failing when ``close`` gives up: logged
with its request ID, counted (``dropped``), handed to ``on_drop``, its waiters told.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from tenacity import RetryCallState, Retrying, retry_if_exception, wait_exponential

from unified_search.errors import ErrorCode, SearchError

logger = logging.getLogger(__name__)

#: Fewest searches a transaction takes when more wait (a commit has a fixed cost).
MIN_BATCH = 16
#: Seconds between retries of a failing batch: doubling from this ...
RETRY_FIRST = 0.05
#: ... up to this.
RETRY_MAX = 2.0


@dataclass(eq=False)
class PendingWrite:
    """What one search leaves to store, and a future completed once it is committed.

    ``records`` are the rows to insert, built by the caller: the writer's thread is
    left with the database's own work.
    """

    request_id: str
    records: Sequence[Any]
    citations: dict[str, int] = field(default_factory=dict)
    """The numbering of a scope the search created (``ResultItem.key`` → index), if any."""
    done: Future[None] = field(default_factory=Future)
    waiter: asyncio.Future[BaseException | None] | None = field(default=None, repr=False)
    """Completed on the submitting event loop with ``done``'s outcome (see ``RecordWriter.asubmit``)."""

    def __post_init__(self) -> None:
        self.done.set_running_or_notify_cancel()  # nobody may cancel a write another search shares


BatchWriter = Callable[[Sequence[PendingWrite]], None]
DropHandler = Callable[[Sequence[PendingWrite], SearchError], None]

_STOP = object()


class RecordWriter:
    """Queue writes and commit them in batches on one background thread.

    Args:
        write: writes a batch in one transaction (all or nothing), raising
            ``SearchError`` on failure.
        max_pending: searches queued before ``asubmit`` has to wait.
        batch: most searches per transaction.
        close_timeout: how long ``close`` keeps retrying a failing store.
        stall: seconds a write may take before ``problem`` reports the store as hanging.
        name: the thread's name, for logs and debuggers.
        on_drop: called (on the writer's thread) with the searches given up on.

    Example:
        >>> writer = RecordWriter(lambda batch: None)
        >>> write = PendingWrite("r1", [])
        >>> asyncio.run(writer.asubmit(write, wait=1.0))
        >>> writer.close(); write.done.done()
        True
    """

    def __init__(
        self,
        write: BatchWriter,
        *,
        max_pending: int = 1_000,
        batch: int = 256,
        close_timeout: float = 30.0,
        stall: float = 1.0,
        name: str = "unified-search-writer",
        on_drop: DropHandler | None = None,
    ) -> None:
        self._write = write
        self._on_drop = on_drop
        self.dropped = 0
        """Searches given up on since the writer started (each logged with its request ID)."""
        self._queue: queue.Queue[Any] = queue.Queue()
        self._max_pending = max_pending
        self._queued = 0  # searches submitted and not yet taken into a transaction
        self._unwritten = 0  # searches submitted and not yet written (or given up)
        self._carry: list[PendingWrite] = []  # taken from the queue beyond a batch (the thread's)
        self._outbox: list[PendingWrite] = []  # submitted during this event-loop iteration
        self._batch = batch
        self._name = name
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closing = threading.Event()
        self.failure: SearchError | None = None
        """The coded error of the last failed write, while writes fail (``None`` after)."""
        self._give_up_at = float("inf")  # retry a failing store forever, until closing
        self._close_timeout = close_timeout
        self._stall = stall
        self._busy_since: float | None = None
        self._finalizer: weakref.finalize[Any, RecordWriter] | None = None

    @property
    def problem(self) -> str | None:
        """Why writes are not getting through: the last batch failed, or one hangs past ``stall``.

        ``None`` while writes succeed.
        """
        since = self._busy_since
        if self.failure is None and since is not None:
            busy = time.monotonic() - since
            if busy > self._stall:
                return f"the store has not finished a write for {busy:.1f} s"
        return None if self.failure is None else str(self.failure)

    @property
    def pending(self) -> int:
        """Searches queued and not yet taken into a transaction."""
        return self._queued

    async def asubmit(self, write: PendingWrite, *, wait: float) -> None:
        """Queue ``write``; when the queue is full, wait up to ``wait`` seconds for room.

        The writes submitted during one iteration of the event loop reach the
        writer's thread together, and the thread tells the loop once per batch
        that they are written: a busy loop wakes the thread, and is woken by it,
        once per batch rather than once per search.

        Raises:
            SearchError: ``TIMEOUT`` when there was no room in time (nothing was queued),
                ``UNKNOWN`` when the writer is closed.
        """
        self._start()
        deadline = time.monotonic() + wait
        delay = 0.001
        while not self._reserve():
            if time.monotonic() >= deadline:
                raise SearchError(
                    ErrorCode.TIMEOUT,
                    f"the record store is behind: {self.pending} searches wait to be "
                    f"written and none made room within {wait:g} s",
                    provider="store",
                )
            await asyncio.sleep(delay)  # back-pressure: the search waits, nothing is dropped
            delay = min(delay * 2, 0.05)
        loop = asyncio.get_running_loop()
        write.waiter = loop.create_future()
        with self._lock:
            self._outbox.append(write)
            first = len(self._outbox) == 1
        if first:
            loop.call_soon(self._send_outbox)

    def flush(self, timeout: float) -> bool:
        """Wait until everything queued before this call is written; tell whether it was in time."""
        if self._unwritten == 0:
            return True
        self._send_outbox()
        marker = PendingWrite("flush", [])
        try:
            self._start()
            self._queue.put([marker])
            marker.done.result(timeout)
        except (TimeoutError, SearchError):
            return False
        return True

    async def await_commit(self, write: PendingWrite, *, wait: float) -> bool:
        """Wait up to ``wait`` seconds for ``write`` to be committed; tell whether it was.

        Raises:
            SearchError: the write was dropped (it failed on its own).
        """
        waiter = write.waiter
        if waiter is None or waiter.cancelled():
            waiter = asyncio.wrap_future(write.done)  # type: ignore[arg-type]
        try:
            async with asyncio.timeout(wait):
                failure = await waiter
        except TimeoutError:
            return False
        if failure is not None:
            raise failure
        return True

    def _reserve(self) -> bool:
        with self._lock:
            if self._queued >= self._max_pending:
                return False
            self._queued += 1
            self._unwritten += 1
            return True

    def _send_outbox(self) -> None:
        """Hand the writes submitted so far to the thread, as one item of its queue."""
        with self._lock:
            writes, self._outbox = self._outbox, []
        if writes:
            self._queue.put(writes)

    # -- the thread -------------------------------------------------------------------------

    def _start(self) -> None:
        if self._thread is not None:
            return
        with self._lock:
            if self._closing.is_set():
                raise SearchError(
                    ErrorCode.UNKNOWN, "the record writer is closed", provider="store"
                )
            if self._thread is None:
                thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                thread.start()
                # Write what is queued at interpreter exit too, for callers that never close.
                self._finalizer = weakref.finalize(self, self.close, self._close_timeout)
                self._thread = thread

    def _run(self) -> None:
        while True:
            batch, stop = self._take()
            if batch:
                self._flush(batch)
                _wake(batch)
                with self._lock:
                    self._unwritten -= _submitted(batch)
            if stop:
                return

    def _take(self) -> tuple[list[PendingWrite], bool]:
        """Block for some writes, then take about half of what is queued.

        Searches wait for their commit, so a writer taking every waiting search
        would leave the engine idle while it writes, and itself idle while the
        engine works. Taking half (at least ``MIN_BATCH``, at most ``batch``)
        answers some searches while the others are written: both work at once.
        """
        batch, self._carry = self._carry, []
        while len(batch) < self._batch:
            try:
                item = self._queue.get(block=not batch)
            except queue.Empty:
                break
            if item is _STOP:
                if not batch:
                    return [], True
                self._queue.put(_STOP)  # seen after the rest is written
                break
            batch.extend(item)
        size = min(self._batch, max(MIN_BATCH, len(batch) // 2))
        batch, self._carry = batch[:size], batch[size:]
        with self._lock:
            self._queued -= _submitted(batch)
        return batch, False

    def _flush(self, batch: list[PendingWrite]) -> None:
        self._busy_since = time.monotonic()
        try:
            self._with_retries(batch)
        except SearchError as exc:
            if _retryable(exc):  # closing, and the store did not come back in time
                self._drop(batch, exc)
            else:
                self._one_by_one(batch)
            return
        finally:
            self._busy_since = None
        for write in batch:
            write.done.set_result(None)

    def _with_retries(self, batch: list[PendingWrite]) -> None:
        """Write ``batch`` in one transaction, retrying while the failure is retryable."""

        def report(state: RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome else None
            self.failure = exc if isinstance(exc, SearchError) else None
            logger.error(
                "could not write %d searches (attempt %d, %d more queued), retrying: %s",
                len(batch),
                state.attempt_number,
                self.pending,
                exc,
            )

        retrying = Retrying(
            retry=retry_if_exception(_retryable),
            wait=wait_exponential(multiplier=RETRY_FIRST, max=RETRY_MAX),
            stop=lambda state: time.monotonic() > self._give_up_at,
            before_sleep=report,
            reraise=True,
        )
        for attempt in retrying:
            with attempt:
                self._write(batch)
        if self.failure is not None:
            logger.warning("the record store is back; %d searches written", len(batch))
            self.failure = None

    def _one_by_one(self, batch: list[PendingWrite]) -> None:
        """Write each search alone, so one bad write cannot keep the others out."""
        for write in batch:
            try:
                self._write([write])
            except SearchError as exc:
                self._drop([write], exc)
            else:
                write.done.set_result(None)

    def _drop(self, writes: Sequence[PendingWrite], exc: SearchError) -> None:
        """Give up on ``writes``: log each request ID, count them, tell the store and the waiters."""
        given_up = [write for write in writes if write.waiter is not None]  # not flush markers
        for write in given_up:
            logger.error("search %s dropped, its record is not stored: %s", write.request_id, exc)
        self.dropped += len(given_up)
        if self._on_drop is not None and given_up:
            self._on_drop(given_up, exc)
        for write in writes:
            write.done.set_exception(exc)

    # -- lifecycle --------------------------------------------------------------------------

    def close(self, timeout: float | None = None) -> None:
        """Write everything queued (retrying a failing store up to ``timeout`` s), then stop."""
        timeout = self._close_timeout if timeout is None else timeout
        with self._lock:
            self._closing.set()
            self._give_up_at = time.monotonic() + timeout
            thread, self._thread = self._thread, None
        if self._finalizer is not None:
            self._finalizer.detach()
        if thread is not None:
            self._send_outbox()
            self._queue.put(_STOP)
            thread.join(timeout + 5.0)
            if thread.is_alive():
                logger.error(
                    "the record writer did not finish within %g s; %d searches unwritten",
                    timeout,
                    self._unwritten,
                )

    async def aclose(self, timeout: float | None = None) -> None:
        """Async twin of ``close`` (waits in a worker thread)."""
        await asyncio.to_thread(self.close, timeout)


def _submitted(writes: Sequence[PendingWrite]) -> int:
    """How many of ``writes`` came through ``asubmit`` (the others are ``flush`` markers)."""
    return sum(1 for write in writes if write.waiter is not None)


def _wake(batch: Sequence[PendingWrite]) -> None:
    """Tell each event loop waiting for writes of ``batch`` how they went, once per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[PendingWrite]] = {}
    for write in batch:
        if write.waiter is not None:
            by_loop.setdefault(write.waiter.get_loop(), []).append(write)
    for loop, writes in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle, writes)


def _settle(writes: Sequence[PendingWrite]) -> None:
    for write in writes:
        if write.waiter is not None and not write.waiter.done():
            write.waiter.set_result(write.done.exception())


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, SearchError) and exc.retryable
