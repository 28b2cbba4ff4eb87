"""The record writer's child process: open the store, write each batch it is sent, answer.

Started by ``unified_search.records.writer_process.WriterProcess`` as
``python -m unified_search.records.writer_child FD``, FD being its end of a socket pair.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from multiprocessing.connection import Connection

from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore


def _serve(pipe: Connection) -> None:
    """Write each batch received and answer, until told to stop or the parent is gone."""
    options = pipe.recv()
    store: SearchStore | None = None
    # Opened before saying it is ready, so the first batch does not wait for it; when the
    # database is unavailable, the first batch tries again and reports why.
    with contextlib.suppress(SearchError):
        store = SearchStore(**options)
    try:
        pipe.send("ready")
        while (batch := pipe.recv()) is not None:
            answer: tuple[ErrorCode, str, bool] | None = None
            try:
                store = store or SearchStore(**options)
                store.write_rows(*batch)
            except SearchError as exc:
                answer = (exc.code, exc.message, exc.retryable)
            except Exception as exc:  # reported with the batch, as any failed write is
                answer = (ErrorCode.UNKNOWN, f"the record writer failed: {exc!r}", False)
            pipe.send(answer)
    except (EOFError, OSError):
        pass  # the parent is gone
    finally:
        if store is not None:
            store.engine.dispose()


if __name__ == "__main__":
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.SIG_IGN)
    _serve(Connection(int(sys.argv[1])))
