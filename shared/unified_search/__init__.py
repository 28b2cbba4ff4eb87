"""unified-search: one search layer over the web, a knowledge base and databases."""
