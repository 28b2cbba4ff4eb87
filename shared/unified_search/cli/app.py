"""The ``unified-search`` command: one group of commands and one error boundary.

Exit codes, one rule for every command: 0 success (a source that refuses a
question it cannot read while others answer is not a failure); 1 partial failure
(a source failed, some files could not be read); 2 bad input (unknown flag,
missing file, unknown configuration key, unreachable database URL, a question
every source refuses ...). Every error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

import click
from pydantic import ValidationError

from unified_search.errors import REFUSALS, ConfigurationError, SearchError
from unified_search.escape import visible

PROG = "unified-search"
#: Set to any value to get the traceback of an unexpected error instead of one line.
DEBUG_ENV = "UNIFIED_SEARCH_DEBUG"
#: Search error codes that mean the input was wrong rather than a source failing.
BAD_INPUT_CODES = REFUSALS


#: Each command: where it is defined (imported only when it runs) and its summary.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("demo:demo", "Index the sample help centre and shop, then ask them one question."),
    "index": (
        "index:index",
        "Index files and folders so a knowledge-base collection mirrors them.",
    ),
    "kb": ("kb:kb", "List, remove, drop, check and copy knowledge-base collections."),
    "search": (
        "search:search",
        "Search web, knowledge base and databases; print cited references.",
    ),
    "deep": (
        "search:deep",
        "Deep search: intent, sub-queries, every source, intent-aware ranking.",
    ),
    "records": ("records:records", "Show the stored searches and references of a request."),
    "cache": ("cache:cache", "Show the web cache's statistics, or empty it."),
    "config": ("configuration:show_config", "Print the merged configuration, secrets redacted."),
    "serve": ("serve:serve", "Serve the HTTP search API for front ends (server extra)."),
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command is used.

    ``unified-search --help`` and mistyped commands answer at once, without
    loading SQLAlchemy, Chroma or the embedding model.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command name, in the order of :data:`COMMANDS`."""
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import and return the command ``cmd_name`` (``None`` when there is no such command)."""
        if cmd_name not in COMMANDS:
            return None
        module_name, _, attribute = COMMANDS[cmd_name][0].partition(":")
        module = importlib.import_module(f"unified_search.cli.{module_name}")
        command: click.Command = getattr(module, attribute)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands with their summaries, without importing them."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in COMMANDS.items()])


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(package_name="unified-search", prog_name=PROG)
def cli() -> None:
    """One search over the web, a knowledge base and databases, with citable references.

    \b
    Start with:  unified-search demo
    Then:        unified-search search "how do I pair the Aurora headphones?" --collection kestrel-help
                 unified-search index ~/.local/share/unified-search/demo/docs --collection kestrel-docs

    Configuration: --config search.yml < environment variables < flags
    (see unified-search config --help). Exit codes: 0 ok, 1 partial failure, 2 bad input.
    """  # noqa: D301 - click reads \b as "keep these lines"


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` and return its exit code."""
    try:
        result = cli.main(
            args=list(argv) if argv is not None else None, prog_name=PROG, standalone_mode=False
        )
    except click.UsageError as exc:
        hint = f" (see {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        return fail(exc.format_message() + hint, exc.exit_code)
    except click.ClickException as exc:
        return fail(exc.format_message(), exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        return fail("interrupted", 130)
    except ConfigurationError as exc:
        return fail(str(exc), 2)
    except ValidationError as exc:
        return fail(validation_line(exc), 2)
    except SearchError as exc:
        return fail(str(exc), 2 if exc.code in BAD_INPUT_CODES else 1)
    except (ValueError, ImportError) as exc:
        return fail(str(exc), 2)
    except OSError as exc:
        return fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 1)
    except Exception as exc:  # a bug or a library failure: still one line, unless debugging
        if os.environ.get(DEBUG_ENV):
            raise
        return fail(f"unexpected {type(exc).__name__}: {exc} (set {DEBUG_ENV}=1 to see where)", 1)
    return result if isinstance(result, int) else 0


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())


def fail(message: str, code: int) -> int:
    """Print ``message`` as one line on stderr and return ``code``."""
    line = " ".join(visible(message).split())  # an error may quote what a client sent
    print(f"{PROG}: error: {line}", file=sys.stderr)
    return code


def validation_line(exc: ValidationError) -> str:
    """The first problem of a validation error, naming its field."""
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "input"
    return f"{field}: {first['msg']}"
