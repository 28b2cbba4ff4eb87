"""LangChain integration of unified-search (retrievers, tools, compressors, prompts, callbacks)."""
