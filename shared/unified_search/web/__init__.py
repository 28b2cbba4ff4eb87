"""Web search: providers, URL retrieval, shared HTTP, caching."""
