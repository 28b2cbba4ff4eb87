"""LlamaIndex integration of unified-search (retrievers, postprocessors, prompts, instrumentation)."""
