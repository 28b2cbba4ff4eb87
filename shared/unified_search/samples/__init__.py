"""Bundled sample data: the help centre of a fictional online shop, for demos and notebooks."""
