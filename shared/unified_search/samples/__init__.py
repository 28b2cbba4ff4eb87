"""Bundled sample data for demos, notebooks and benchmarks: a shop help centre and the shop database."""
