"""Random identifiers (citation scopes, trace nodes) read from the OS's randomness in blocks.

``uuid.uuid4`` asks the kernel for 16 bytes each time, a system call that also
lets any other thread of the process take the interpreter (the record writer),
and a search makes several. Reading 4 KiB at once gives 256 identifiers per
call, as unpredictable. A forked child (a server worker) drops what its parent
had read, so two processes never hand out the same identifiers.
"""

from __future__ import annotations

import os
import threading

_BLOCK = 4096
_SIZE = 16
_lock = threading.Lock()
_buffer = b""
_used = 0


def random_hex() -> str:
    """128 random bits as 32 hex digits (the form of ``uuid4().hex``).

    Example:
        >>> len(random_hex()), random_hex() != random_hex()
        (32, True)
    """
    global _buffer, _used
    with _lock:
        if _used + _SIZE > len(_buffer):
            _buffer, _used = os.urandom(_BLOCK), 0
        start, _used = _used, _used + _SIZE
        return _buffer[start : start + _SIZE].hex()


def _forget() -> None:
    global _buffer, _used, _lock
    _buffer, _used, _lock = b"", 0, threading.Lock()  # the parent's lock may have been held


os.register_at_fork(after_in_child=_forget)
