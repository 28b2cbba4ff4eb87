"""Abbreviations of common technical terms and what they stand for.

Query expansion rewrites these (whole words, any case) into the full term so a
search also finds pages that only spell the term out. Extend or override the
table with ``keyword.synonyms``.
"""

from __future__ import annotations

SYNONYMS: dict[str, str] = {
    "k8s": "Kubernetes",
    "js": "JavaScript",
    "ts": "TypeScript",
    "py": "Python",
    "golang": "Go",
    "postgres": "PostgreSQL",
    "pg": "PostgreSQL",
    "mongo": "MongoDB",
    "es": "Elasticsearch",
    "tf": "TensorFlow",
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
"""Builtin abbreviations (lower-case keys) and their expansions."""
