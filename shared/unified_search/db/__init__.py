"""Database search: a safe query DSL over SQL tables."""
