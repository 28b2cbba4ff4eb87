"""The ``unified-search`` command line (entry point: ``unified_search.cli.app:main``)."""
