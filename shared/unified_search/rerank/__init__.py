"""Rerankers: one protocol, chosen by name (``uses.rerank`` or a request's ``rerank.uses``)."""
