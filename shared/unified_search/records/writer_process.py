"""Write the record store's batches in a child process, off the searches' interpreter.

On a thread of the searching process, the database driver's work for each
batch (SQLAlchemy, sqlite3 or psycopg: every statement hands the interpreter
lock to the searches and waits to get it back) took several times its own cost
and slowed the searches it competed with. A busy store therefore sends each
batch's rows to a child process that holds its own connection and interpreter,
and waits for its answer: committed, or the ``SearchError`` to report.

The child is ``python -m unified_search.records.writer_child``, talking over a socket
pair (pickled messages). It starts in the background and writes once it said it
is ready; the store writes itself meanwhile (``SearchStore._write_batch``). It
ignores SIGINT and SIGTERM, which a terminal or a service manager sends to the
whole process group: it exits when told to, or when this process dies (its
socket closes), never in the middle of a transaction. When the child dies while
writing, the store writes that batch itself at once; if the child died between
its commit and its answer, the batch's records are then written twice (their
references and citation numbering are not: both keep the first copy).
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from unified_search.errors import SearchError
from unified_search.records.rows import RecordRows

logger = logging.getLogger(__name__)

#: Seconds ``close`` waits for the child to finish its batch before killing it.
EXIT_TIMEOUT = 5.0
#: The numbering of a batch's fresh scopes: (scope, ``ResultItem.key`` → index) pairs.
Fresh = Sequence[tuple[str, Mapping[str, int]]]
#: The module the child runs (it opens a ``SearchStore`` of its own).
CHILD = "unified_search.records.writer_child"
#: This package's folder, for the child's import path.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


class WriterProcess:
    """A child process that opens the store with ``options`` and writes batches on request.

    Args:
        options: ``SearchStore`` keyword arguments (URL, table prefix, timeout, sync).
    """

    def __init__(self, options: dict[str, Any]) -> None:
        self._options = options
        self._child: subprocess.Popen[bytes] | None = None
        self._pipe: Connection | None = None
        self._ready = False
        self._broken = False  # it could not start: the store writes itself from then on

    @property
    def pid(self) -> int | None:
        """The child's process ID while it runs."""
        return None if self._child is None else self._child.pid

    @property
    def ready(self) -> bool:
        """Whether the child runs and has said it can write."""
        if not self._ready and self._pipe is not None:
            try:
                if self._pipe.poll():
                    self._ready = self._pipe.recv() == "ready"
            except (EOFError, OSError) as exc:
                self._give_up(exc)
        return self._ready

    def start(self) -> None:
        """Start the child in the background, unless it runs already or could not start."""
        if self._child is not None or self._broken:
            return
        ours, theirs = socket.socketpair()
        path = os.pathsep.join(filter(None, [_PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))
        try:
            with theirs:
                self._child = subprocess.Popen(
                    [sys.executable, "-m", CHILD, str(theirs.fileno())],
                    pass_fds=[theirs.fileno()],
                    stdin=subprocess.DEVNULL,
                    env={**os.environ, "PYTHONPATH": path},
                )
            self._pipe = Connection(ours.detach())
            self._pipe.send(self._options)
        except (OSError, ValueError) as exc:  # no interpreter to run, no fds to pass (Windows)
            ours.close()
            self._give_up(exc)

    def _give_up(self, exc: BaseException) -> None:
        """A child that cannot start would fail again: write on the store's thread instead."""
        logger.error("the record writer process could not start, writing in-process: %s", exc)
        self._broken = True
        self._reap()

    def write(self, fresh: Fresh, rows: Sequence[RecordRows]) -> bool:
        """Have the (ready) child write one batch in one transaction; tell whether it answered.

        ``False`` means the child died before answering: the batch may or may not be
        committed, and the next batch starts a new child.

        Raises:
            SearchError: the child could not write the batch (the database's error).
        """
        assert self._pipe is not None and self._ready, "write only to a ready child"
        try:
            self._pipe.send((fresh, rows))
            answer = self._pipe.recv()
        except (EOFError, OSError) as exc:
            logger.error("the record writer process stopped, writing in-process: %s", exc)
            self._reap()
            return False
        if answer is not None:
            code, message, retryable = answer
            raise SearchError(code, message, provider="store", retryable=retryable)
        return True

    def close(self) -> None:
        """Tell the child to exit once its batch is written; kill it if it does not in time."""
        if self._pipe is not None and self._child is not None:
            try:
                self._pipe.send(None)
                self._child.wait(EXIT_TIMEOUT)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._reap()

    def _reap(self) -> None:
        child, pipe = self._child, self._pipe
        self._child = self._pipe = None
        self._ready = False
        if child is not None:
            if child.poll() is None:
                child.kill()
            child.wait()
        if pipe is not None:
            pipe.close()
