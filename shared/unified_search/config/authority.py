"""Default authority tables of the intent reranker.

Authority is a property of the domain a result comes from: tier 1 sites are
primary sources developers trust (code hosts, Q&A, official documentation),
tier 2 well-edited references and major outlets, tier 3 community writing.
Everything else scores ``rerank.intent.default_authority``. A domain matches
itself and its subdomains (``docs.python.org`` matches ``python.org``).
"""

from __future__ import annotations

DOMAIN_TIERS: dict[str, int] = {
    **dict.fromkeys(
        (
            "github.com",
            "gitlab.com",
            "stackoverflow.com",
            "docs.python.org",
            "python.org",
            "developer.mozilla.org",
            "kubernetes.io",
            "postgresql.org",
            "readthedocs.io",
            "readthedocs.org",
            "learn.microsoft.com",
            "docs.github.com",
            "cloud.google.com",
            "docs.aws.amazon.com",
            "pypi.org",
            "npmjs.com",
            "rust-lang.org",
            "go.dev",
            "arxiv.org",
            "w3.org",
            "ietf.org",
        ),
        1,
    ),
    **dict.fromkeys(
        (
            "wikipedia.org",
            "britannica.com",
            "nature.com",
            "acm.org",
            "ieee.org",
            "reuters.com",
            "apnews.com",
            "bbc.com",
            "bbc.co.uk",
            "nytimes.com",
            "theverge.com",
            "arstechnica.com",
            "techcrunch.com",
            "wired.com",
            "serverfault.com",
            "superuser.com",
            "stackexchange.com",
            "baike.baidu.com",
            "zhihu.com",
        ),
        2,
    ),
    **dict.fromkeys(
        (
            "medium.com",
            "dev.to",
            "freecodecamp.org",
            "geeksforgeeks.org",
            "towardsdatascience.com",
            "hashnode.com",
            "reddit.com",
            "news.ycombinator.com",
            "csdn.net",
            "juejin.cn",
            "cnblogs.com",
            "segmentfault.com",
        ),
        3,
    ),
}
"""Domain → tier (1, 2 or 3)."""

TIER_SCORES: dict[int, float] = {1: 1.0, 2: 0.8, 3: 0.6}
"""Authority of each tier."""

INTENT_DOMAINS: dict[str, list[str]] = {
    "factual": ["wikipedia.org", "britannica.com", "baike.baidu.com"],
    "status": ["github.com", "theverge.com", "arstechnica.com"],
    "comparison": ["stackoverflow.com", "reddit.com", "zhihu.com"],
    "tutorial": ["stackoverflow.com", "freecodecamp.org", "dev.to", "readthedocs.io"],
    "exploratory": ["wikipedia.org"],
    "news": ["reuters.com", "apnews.com", "bbc.com", "techcrunch.com", "theverge.com"],
    "resource": ["github.com", "readthedocs.io", "pypi.org", "npmjs.com"],
}
"""Domains boosted for each intent (by ``rerank.intent.domain_boost``)."""
