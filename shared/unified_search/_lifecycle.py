"""Context-manager support, written once for everything that holds resources."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closable:
    """Give a class with ``close`` and ``aclose`` both ``with`` and ``async with``."""

    def close(self) -> None:
        """Release resources (subclasses implement)."""
        raise NotImplementedError

    async def aclose(self) -> None:
        """Release resources without blocking the event loop (subclasses implement)."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
