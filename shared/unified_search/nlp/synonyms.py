"""Abbreviations of common technical terms and what they stand for.

Query expansion rewrites these (whole words) into the full term so a search also
finds pages that only spell the term out: the search-layer design's table
(``k8s`` → Kubernetes, ``Go`` → Golang, ``React`` → React.js ...) and more.
Lower-case keys match in any case; a key with capitals matches only as written,
so ``Go`` the language is expanded and "how to go" is left alone. Extend or
override the table with ``keyword.synonyms``.
"""

from __future__ import annotations

SYNONYMS: dict[str, str] = {
    "k8s": "Kubernetes",
    "js": "JavaScript",
    "ts": "TypeScript",
    "py": "Python",
    "postgres": "PostgreSQL",
    "pg": "PostgreSQL",
    "mongo": "MongoDB",
    "es": "Elasticsearch",
    "tf": "TensorFlow",
    "torch": "PyTorch",
    "vue": "Vue.js",
    "sklearn": "scikit-learn",
    "ml": "machine learning",
    "dl": "deep learning",
    "ai": "artificial intelligence",
    "llm": "large language model",
    "llms": "large language models",
    "nlp": "natural language processing",
    "cv": "computer vision",
    "rag": "retrieval-augmented generation",
    "db": "database",
    "gh": "GitHub",
    "aws": "Amazon Web Services",
    "gcp": "Google Cloud Platform",
    "ci": "continuous integration",
    "cd": "continuous delivery",
    "os": "operating system",
    "vm": "virtual machine",
    "gpu": "graphics processing unit",
    "oss": "open source software",
    "repo": "repository",
    "auth": "authentication",
    "i18n": "internationalization",
    "a11y": "accessibility",
}
"""Builtin abbreviations (lower-case keys, any case in a query) and their expansions."""

CASED_SYNONYMS: dict[str, str] = {
    "Go": "Golang",
    "React": "React.js",
}
"""Names that are also common words, expanded only when written as here."""
