"""Import optional dependencies with one clear error naming the extra that provides them."""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingDependencyError(ImportError):
    """An optional dependency is not installed; the message says which extra installs it.

    Example:
        >>> str(MissingDependencyError("starlette", "server", "the HTTP API"))
        'the HTTP API needs starlette: pip install "unified-search[server]"'
    """

    def __init__(self, module: str, extra: str, purpose: str) -> None:
        self.module = module
        self.extra = extra
        super().__init__(f'{purpose} needs {module}: pip install "unified-search[{extra}]"')


def require(module: str, *, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` or raise ``MissingDependencyError`` naming ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(exc.name or module, extra, purpose) from exc
