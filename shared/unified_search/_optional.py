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


#: Database backends whose SQLAlchemy driver an extra of this package installs.
DRIVER_EXTRAS = {"postgresql": "postgres"}


def missing_driver(backend: str, exc: BaseException) -> str:
    """Say which database driver is missing and how to install it, in one sentence.

    Example:
        >>> missing_driver("postgresql", ModuleNotFoundError("No module named 'psycopg'", name="psycopg"))
        'no postgresql driver (psycopg is not installed): pip install "unified-search[postgres]"'
    """
    name = getattr(exc, "name", None)
    what = f"{name} is not installed" if name else str(exc).strip().splitlines()[0]
    extra = DRIVER_EXTRAS.get(backend)
    how = (
        f'pip install "unified-search[{extra}]"'
        if extra
        else f"install a SQLAlchemy driver for {backend}"
    )
    return f"no {backend} driver ({what}): {how}"
