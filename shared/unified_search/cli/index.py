"""``unified-search index``: mirror files and folders into a knowledge-base collection."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from unified_search.cli.console import plain, stderr, stdout
from unified_search.cli.options import BadInput, config_option
from unified_search.cli.progress import LINE_EVERY, IndexProgress
from unified_search.cli.settings import load_config

if TYPE_CHECKING:
    from unified_search.config.search import SearchConfig
    from unified_search.kb.files import SkippedFile
    from unified_search.kb.handler import KBHandler
    from unified_search.kb.ingest import IngestReport
    from unified_search.kb.mirror import IndexOptions, IndexReport

#: Reasons a file is left out by design: what a docs folder ordinarily holds besides its
#: documents (images, binaries, empty files, hidden and linked ones). They are summed up in
#: one line and keep the exit code 0; any other reason (too large, unreadable, not UTF-8, a
#: bad line, a broken link ...) is listed and makes it 1.
PASSED_OVER = (
    "unsupported file type",
    "binary content",
    "empty file",
    "no text",
    "hidden (",
    "not a regular file",
    "link to a folder already indexed here",
    "link to a file indexed at its own place",
    "link to a folder outside the indexed folder",
    "link to a file outside the indexed folder",
)
# Chroma's rule for collection names, checked here so the error is about the flag.
_COLLECTION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]")
#: Exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


def check_collection(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Accept only names Chroma can store (3-63 letters, digits, ``.``, ``_``, ``-``)."""
    if _COLLECTION.fullmatch(value) is None:
        raise click.BadParameter(
            f"{value!r} is not a collection name (3-63 letters, digits, '.', '_' or '-', "
            "starting and ending with a letter or digit)"
        )
    return value


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--collection", required=True, callback=check_collection, help="Collection to index into."
)
@click.option(
    "--exclude", multiple=True, metavar="GLOB", help="Leave out matching files (repeatable)."
)
@click.option("--hidden", is_flag=True, help="Also read hidden files and folders (.name).")
@click.option(
    "--max-file-mb",
    type=click.IntRange(1),
    default=64,
    show_default=True,
    help="Skip larger files.",
)
@click.option(
    "--quiet", "-q", is_flag=True, help="No progress and no summary; only the files not indexed."
)
@click.option(
    "--log-every",
    type=click.FloatRange(0.1),
    default=LINE_EVERY,
    show_default=True,
    help="Seconds between progress lines when the output is not a terminal.",
)
@config_option
def index(
    paths: Sequence[str],
    collection: str,
    exclude: Sequence[str],
    hidden: bool,
    max_file_mb: int,
    quiet: bool,
    log_every: float,
    config_path: str | None,
) -> int:
    """Index files and folders so a collection mirrors them.

    Reads .md/.markdown, .txt, .rst, .html/.htm, .jsonl (one {"text", "title", "id"}
    object per line), .csv (one document per row), .pdf (pdf extra), .docx (docx extra)
    and text files without an extension; folders are read recursively. Running it again
    reads only changed files, and removes the documents of files deleted from the
    folders. Files a docs folder ordinarily holds besides documents (images, binaries,
    empty and hidden files) are passed over and counted in one line; every other file
    not indexed (too large, unreadable, not UTF-8 ...) is listed with its reason.
    Ctrl-C stops within a second or two and keeps what is stored; run the command
    again to continue.

    \b
    Example:
      unified-search index ~/.local/share/unified-search/demo/docs --collection kestrel-docs

    Exit codes: 0 everything readable indexed, 1 some files could not be read,
    2 a path does not exist or nothing is readable, 130 interrupted.
    """  # noqa: D301 - click reads \b as "keep these lines"
    from unified_search.kb.mirror import IndexOptions

    missing = [path for path in paths if not _exists(path)]
    if missing:
        raise BadInput(f"no such file or folder: {missing[0]} (nothing was indexed)")
    config = load_config(config_path)
    options = IndexOptions(
        exclude=list(exclude), hidden=hidden, max_file_bytes=max_file_mb * 1024 * 1024
    )
    started = time.perf_counter()
    with IndexProgress(stderr(), quiet=quiet, line_every=log_every) as shown:
        try:
            report = asyncio.run(_index(config, collection, paths, options, shown))
        except KeyboardInterrupt:
            stderr().print(
                interrupted(shown, collection), highlight=False, markup=False, soft_wrap=True
            )
            exit_now(INTERRUPTED)
    problems = [s for s in report.skipped if not passed_over(s.reason)]
    shown_on = stderr() if quiet else stdout()
    text = problem_lines(problems) if quiet else file_summary(report, time.perf_counter() - started)
    if text:
        shown_on.print(plain(text), highlight=False, soft_wrap=True)
    if not report.changed and not report.unchanged and not report.removed:
        raise BadInput(f"nothing to index: {len(report.skipped)} path(s) skipped, 0 files read")
    return 1 if problems else 0


def _exists(path: str) -> bool:
    given = Path(path).expanduser()
    return given.exists() or given.is_symlink()


def passed_over(reason: str) -> bool:
    """Whether a file was left out by design (see :data:`PASSED_OVER`), not for a problem."""
    return reason.startswith(PASSED_OVER)


async def _index(
    config: SearchConfig,
    collection: str,
    paths: Sequence[str],
    options: IndexOptions,
    shown: IndexProgress,
) -> IndexReport:
    from unified_search.kb.handler import KBHandler

    kb = KBHandler.from_config(config)
    try:
        return await kb.aindex_paths(collection, paths, options=options, progress=shown)
    finally:
        await kb.aclose()


def exit_now(code: int) -> NoReturn:
    """End the process without waiting for the embedding call still in flight.

    What was stored is committed and the knowledge base closed by now; the call in
    flight runs in a daemon thread whose native code would abort the interpreter's
    shutdown, so the process ends here, streams flushed first.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def interrupted(shown: IndexProgress, collection: str) -> str:
    """What an interrupted run kept, and how to continue."""
    last = shown.last
    kept = (
        f"{last.stored:,} of {last.total:,} chunks stored"
        if last is not None and last.stage == "embedding"
        else "nothing new stored yet"
    )
    return (
        f"interrupted: {kept} in {collection}; run the same command again to continue "
        "(finished files are not read again)"
    )


def file_summary(report: IndexReport, seconds: float) -> str:
    """What indexing changed, one line for what was passed over, then every problem file."""
    lines = [
        f"indexed {report.collection}: {report.files} files ({report.changed} new or changed, "
        f"{report.unchanged} unchanged, {report.removed} removed), {len(report.skipped)} skipped; "
        f"{report.chunks_added} chunks embedded, {report.chunks_removed} removed in {seconds:.1f} s"
    ]
    ordinary = Counter(s.reason for s in report.skipped if passed_over(s.reason))
    if ordinary:
        groups = sorted(ordinary.items(), key=lambda group: (-group[1], group[0]))
        counts = ", ".join(f"{n} {reason}" for reason, n in groups)
        lines.append(f"passed over {ordinary.total()} file(s): {counts}")
    problems = problem_lines([s for s in report.skipped if not passed_over(s.reason)])
    return "\n".join([*lines, problems] if problems else lines)


def problem_lines(problems: Sequence[SkippedFile]) -> str:
    """``not indexed (N):`` and one line per file with its reason (empty without any)."""
    if not problems:
        return ""
    listed = sorted(problems, key=lambda skipped: skipped.path)
    return "\n".join(
        [f"not indexed ({len(problems)}):", *(f"  {s.path}: {s.reason}" for s in listed)]
    )


async def add_with_progress(
    kb: KBHandler, collection: str, documents: Sequence[Mapping[str, Any]]
) -> IngestReport:
    """Index ``documents`` into ``collection`` while a progress bar counts embedded chunks."""
    with IndexProgress(stderr()) as shown:
        return await kb.aadd_documents(collection, documents, progress=shown)


def summary(report: IngestReport, skipped: int, seconds: float) -> str:
    """One line: what changed in the collection, and how long it took."""
    return (
        f"indexed {report.collection}: {report.added} added or changed, "
        f"{report.unchanged} unchanged, {skipped} skipped "
        f"({report.chunks_added} chunks embedded, {report.chunks_removed} removed) "
        f"in {seconds:.1f} s"
    )
