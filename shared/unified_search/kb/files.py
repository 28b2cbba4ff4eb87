"""Files and folders in, documents out: the knowledge base's directory reader.

``DirectoryReader`` walks folders (recursively by default) and reads every
common text format (see ``kb.readers``). Nothing raises for a bad file: each
file that is not read is listed in ``skipped`` with its reason (unsupported
type, binary, empty, too large, not UTF-8, past a ``kb.limits`` bound, a parser
that failed on it, a broken or looping symbolic link, a link out of the folder,
hidden), and every other file is still read. Documents are named by their path relative to the folder they were
found in, so no absolute path of this machine reaches an index or a citation.

Example:
    Not run here: ``docs/`` stands for a folder of the caller's.

    >>> reader = DirectoryReader("docs/")  # doctest: +SKIP
    >>> docs = reader.load()  # doctest: +SKIP
    >>> [(s.path, s.reason) for s in reader.skipped]  # doctest: +SKIP
    [('logo.png', 'unsupported file type .png')]
"""

from __future__ import annotations

import asyncio
import fnmatch
import hashlib
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from unified_search._optional import MissingDependencyError
from unified_search.config.kb import LimitsConfig
from unified_search.kb.bounds import encodable, failure
from unified_search.kb.chunking import Document
from unified_search.kb.readers import Parsed, Unreadable, reader_for
from unified_search.kb.titles import file_title

#: Files larger than this are skipped unless the reader is told otherwise (64 MiB).
MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class SkippedFile:
    """A file, folder or record that was not indexed, and why."""

    path: str
    """Relative to the folder it was found in (as given, for a path named explicitly)."""
    reason: str


@dataclass(frozen=True)
class SourceFile:
    """A file found under an indexed path."""

    path: Path
    """Resolved absolute path: kept on this machine, never in documents or citations."""
    name: str
    """POSIX path relative to the indexed folder (the file's name for a file given alone)."""

    def names(self) -> Iterator[str]:
        """``name``, then longer names with the folders above it, to tell apart equal names."""
        yield self.name
        parents = self.path.parent.parts[::-1][len(PurePosixPath(self.name).parts) - 1 :]
        prefix = self.name
        for part in parents:
            if part in ("/", ""):
                return
            prefix = f"{part}/{prefix}"
            yield prefix


@dataclass(frozen=True)
class ReadFile:
    """The content hash and the parsed texts of one file."""

    file: SourceFile
    digest: str
    """SHA-256 of the bytes: a re-index skips files whose digest is unchanged."""
    parsed: list[Parsed]
    file_type: str

    def documents(self, name: str | None = None) -> tuple[list[Document], list[SkippedFile]]:
        """The file's documents named after ``name`` (default ``file.name``); bad records skipped."""
        name = name or self.file.name
        docs: list[Document] = []
        skipped: list[SkippedFile] = []
        for parsed in self.parsed:
            where = f"{name}#{parsed.part}" if parsed.part else name
            if error := parsed.metadata.get("error"):
                skipped.append(SkippedFile(where, str(error)))
            elif not parsed.text.strip():
                skipped.append(SkippedFile(where, "no text"))
            else:
                meta = {**parsed.metadata, "file_type": self.file_type}
                doc = Document(
                    id=encodable(where),
                    text=encodable(parsed.text),
                    title=encodable(parsed.title),
                    source=name,
                    metadata={encodable(k): encodable(v) for k, v in meta.items()},
                )
                docs.append(doc)
        return docs, skipped


def read_file(
    file: SourceFile, max_bytes: int = MAX_FILE_BYTES, limits: LimitsConfig | None = None
) -> ReadFile:
    """Read and parse one file.

    Raises:
        Unreadable: the reason the file is skipped (a missing parser included).
    """
    return parse_file(file, file_bytes(file, max_bytes), limits)


def file_bytes(file: SourceFile, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The content of a file that is neither empty nor larger than ``max_bytes``."""
    try:
        size = file.path.stat().st_size
        if size > max_bytes:
            raise Unreadable(f"larger than {_size(max_bytes)} ({_size(size)})")
        if size == 0:
            raise Unreadable("empty file")
        return file.path.read_bytes()
    except OSError as exc:
        raise Unreadable((exc.strerror or str(exc)).lower()) from exc


def digest(data: bytes) -> str:
    """The content hash that tells a changed file from an unchanged one."""
    return hashlib.sha256(data).hexdigest()


def parse_file(file: SourceFile, data: bytes, limits: LimitsConfig | None = None) -> ReadFile:
    """Parse the ``data`` of ``file`` with the reader of its type, within ``limits``.

    Whatever a parser raises on this file's content (a bug of its own included) makes
    the file ``Unreadable`` with the error as its reason: it never reaches the files
    read beside it.
    """
    file_type, reader = reader_for(file.path.suffix, data)
    try:
        parsed = reader(data, file_title(file.path.stem), limits or LimitsConfig())
    except (Unreadable, MissingDependencyError) as exc:
        raise Unreadable(str(exc)) from exc
    except Exception as exc:  # a parser failing on hostile content: this file only
        raise Unreadable(f"its {file_type} parser failed: {failure(exc)}") from exc
    return ReadFile(file, digest(data), parsed, file_type)


def _size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / 1024 / 1024:,.0f} MB"
    return f"{size / 1024:,.0f} kB" if size >= 1024 else f"{size} bytes"


@dataclass
class Walk:
    """Which files paths hold, and what was left out of the walk."""

    files: list[SourceFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    roots: list[Path] = field(default_factory=list)
    """The resolved folders (and single files) that were walked."""
    unlisted: list[Path] = field(default_factory=list)
    """Folders that could not be listed: what is indexed under them is not known to be gone."""


def walk(
    paths: Sequence[str | Path],
    *,
    recursive: bool = True,
    exclude: Sequence[str] = (),
    hidden: bool = False,
) -> Walk:
    """Find the files under ``paths``; folders are walked without following links out of them.

    ``exclude`` holds glob patterns matched against a file's relative path and its name;
    hidden files and folders (``.git``, ``.env`` ...) are left out unless ``hidden``.
    """
    found = Walk()
    for raw in paths:
        given = Path(raw).expanduser()
        if not given.exists() and not given.is_symlink():
            found.skipped.append(SkippedFile(str(raw), "no such file or folder"))
            continue
        try:
            root = given.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            found.skipped.append(SkippedFile(str(raw), _link_problem(exc)))
            continue
        if encodable(str(root)) != str(root):
            found.skipped.append(SkippedFile(encodable(str(raw)), "its name is not UTF-8 text"))
            continue
        found.roots.append(root)
        if root.is_dir():
            _walk_folder(root, found, recursive=recursive, exclude=exclude, hidden=hidden)
        else:
            found.files.append(SourceFile(root, root.name))
    # A file under two of the paths (``docs`` and ``docs/guides``) is read once, under the first.
    unique = {str(f.path): f for f in reversed(found.files)}
    found.files = [f for f in found.files if unique[str(f.path)] is f]
    return found


def _walk_folder(
    root: Path, found: Walk, *, recursive: bool, exclude: Sequence[str], hidden: bool
) -> None:
    for folder, dirs, names in os.walk(root, onerror=lambda e: _unlistable(root, e, found)):
        here = Path(folder)
        dirs.sort()
        for name in [*dirs]:
            entry = here / name
            relative = entry.relative_to(root).as_posix()
            reason = _left_out(entry, relative, exclude, hidden) or _link_to_folder(entry, root)
            if reason or not recursive:
                dirs.remove(name)
                if reason and reason != "excluded":
                    found.skipped.append(SkippedFile(encodable(relative) + "/", reason))
        for name in sorted(names):
            entry = here / name
            relative = entry.relative_to(root).as_posix()
            reason = _left_out(entry, relative, exclude, hidden)
            if reason is None and entry.is_symlink():
                reason = _link_to_file(entry, root)
            elif reason is None and not entry.is_file():
                reason = "not a regular file (a pipe, socket or device)"
            if reason is None:
                found.files.append(SourceFile(entry, relative))
            elif reason != "excluded":
                found.skipped.append(SkippedFile(encodable(relative), reason))


def _unlistable(root: Path, error: OSError, found: Walk) -> None:
    where = Path(error.filename or root)
    found.unlisted.append(where)
    relative = where.relative_to(root).as_posix() if where != root else root.name
    found.skipped.append(SkippedFile(relative + "/", (error.strerror or str(error)).lower()))


def _left_out(entry: Path, relative: str, exclude: Sequence[str], hidden: bool) -> str | None:
    if encodable(entry.name) != entry.name:  # bytes that are not UTF-8: no index can name it
        return "its name is not UTF-8 text"
    if any(fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(entry.name, p) for p in exclude):
        return "excluded"
    if not hidden and entry.name.startswith("."):
        return "hidden (name starts with '.')"
    return None


def _link_to_folder(entry: Path, root: Path) -> str | None:
    """Why a linked folder is not walked: it loops, is broken, or lies in or out of the root."""
    if not entry.is_symlink():
        return None
    try:
        target = entry.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        return _link_problem(exc)
    if target == root or root in target.parents:
        return "link to a folder already indexed here"
    return "link to a folder outside the indexed folder"


def _link_to_file(entry: Path, root: Path) -> str | None:
    try:
        target = entry.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        return _link_problem(exc)
    if root not in target.parents:
        return "link to a file outside the indexed folder"
    return "link to a file indexed at its own place"


def _link_problem(exc: BaseException) -> str:
    if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == 40:  # ELOOP
        return "symbolic link loop"
    if isinstance(exc, FileNotFoundError):
        return "broken symbolic link"
    return (getattr(exc, "strerror", None) or str(exc)).lower()


class DirectoryReader:
    """Read files and folders into ``Document``s, every file left out reported with its reason.

    It plays the part of LangChain's ``DirectoryLoader`` and LlamaIndex's
    ``SimpleDirectoryReader``: ``load`` / ``aload`` / ``lazy_load``.

    Example:
        Not run here: ``docs/`` stands for a folder of the caller's.

        >>> reader = DirectoryReader("docs/", exclude=["drafts/*"])  # doctest: +SKIP
        >>> docs = reader.load()  # doctest: +SKIP
        >>> reader.skipped  # doctest: +SKIP
        [SkippedFile(path='logo.png', reason='unsupported file type .png')]
    """

    def __init__(
        self,
        *paths: str | Path,
        recursive: bool = True,
        exclude: Sequence[str] = (),
        hidden: bool = False,
        max_file_bytes: int = MAX_FILE_BYTES,
        limits: LimitsConfig | None = None,
    ) -> None:
        if not paths:
            raise ValueError("DirectoryReader needs at least one file or folder")
        self.paths = list(paths)
        self.recursive = recursive
        self.exclude = list(exclude)
        self.hidden = hidden
        self.max_file_bytes = max_file_bytes
        self.limits = limits or LimitsConfig()
        """Bounds on reading one file (``kb.limits``)."""
        self.skipped: list[SkippedFile] = []
        """What the last ``load`` left out, and why."""

    def walk(self) -> Walk:
        """The files under the paths, and what the walk itself left out."""
        return walk(self.paths, recursive=self.recursive, exclude=self.exclude, hidden=self.hidden)

    def lazy_load(self) -> Iterator[Document]:
        """Yield documents file by file; ``skipped`` fills as the walk goes."""
        found = self.walk()
        self.skipped = list(found.skipped)
        for file in found.files:
            yield from self._read(file)

    def load(self) -> list[Document]:
        """Every document of every readable file."""
        return list(self.lazy_load())

    async def aload(self) -> list[Document]:
        """Async twin of :meth:`load` (files are read in a worker thread)."""
        return await asyncio.to_thread(self.load)

    def _read(self, file: SourceFile) -> Iterable[Document]:
        try:
            read = read_file(file, self.max_file_bytes, self.limits)
        except Unreadable as exc:
            self.skipped.append(SkippedFile(file.name, str(exc)))
            return []
        docs, skipped = read.documents()
        self.skipped.extend(skipped)
        return docs
