"""``unified-search config``: the merged configuration, with credentials left out."""

from __future__ import annotations

import json

import click
import yaml

from unified_search.cli.console import stdout
from unified_search.cli.options import config_option, format_option
from unified_search.cli.settings import ENVIRONMENT, load_config

_HELP = """Print the merged configuration (file < environment < flags), secrets redacted.

API keys never appear: a provider's key is shown as the name of the environment
variable it is read from (api_key_env), and raw credential values are dropped.

\b
Environment variables read by the command line:
""" + "\n".join(f"  {name}: {meaning}" for name, meaning in ENVIRONMENT.items())


@click.command(name="config", help=_HELP)
@format_option(("yaml", "json"), "How to print the configuration.")
@config_option
def show_config(output: str, config_path: str | None) -> int:
    """Print the merged configuration, redacted (the help text is ``_HELP``)."""
    from unified_search.records.model import config_json

    merged = config_json(load_config(config_path))
    console = stdout()
    if output == "json":
        console.print_json(json.dumps(merged))
    else:
        console.print(yaml.safe_dump(merged, sort_keys=False), markup=False, highlight=False)
    return 0
