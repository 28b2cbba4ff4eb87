"""Run the command line as ``python -m unified_search.cli``."""

from unified_search.cli.app import main

main()
