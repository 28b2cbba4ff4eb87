"""Default authority tables of the intent reranker: the search-layer design's.

Authority is a property of the domain a result comes from. Tier 1 (1.0) are
primary sources developers trust: code hosts, Q&A, official documentation, any
``docs.*`` site. Tier 2 (0.8) are high-quality community and reference sites
(Hacker News, dev.to, Stack Exchange, engineering blogs), and universities and
governments. Tier 3 (0.6) are quality blogs and content platforms. Everything
else scores ``rerank.intent.default_authority`` (0.4). A domain matches itself
and its subdomains (``peps.python.org`` matches ``python.org``); a key with
``*`` is a pattern matched against the whole host (``docs.*``, ``*.edu``) when no
listed domain matches. The design's lists come first; the few domains it does
not list keep the tier they had here.
"""

from __future__ import annotations

_TIER_1 = (
    # The search-layer design's tier 1.
    "github.com", "gitlab.com", "stackoverflow.com", "wikipedia.org", "arxiv.org",
    "docs.python.org", "docs.rs", "doc.rust-lang.org", "developer.mozilla.org",
    "developer.apple.com", "developer.android.com", "cloud.google.com", "docs.aws.amazon.com",
    "learn.microsoft.com", "react.dev", "vuejs.org", "nodejs.org", "go.dev", "kotlinlang.org",
    "typescriptlang.org", "swift.org", "docs.docker.com", "kubernetes.io", "rust-lang.org",
    "tc39.es", "w3.org", "ietf.org", "peps.python.org", "crates.io", "pypi.org", "npmjs.com",
    "pkg.go.dev", "nature.com",
    # Official documentation the design does not list.
    "python.org", "postgresql.org", "readthedocs.io", "readthedocs.org",
)  # fmt: skip
_TIER_2 = (
    # The search-layer design's tier 2.
    "news.ycombinator.com", "lobste.rs", "stackexchange.com", "serverfault.com",
    "superuser.com", "askubuntu.com", "reddit.com", "dev.to", "css-tricks.com",
    "smashingmagazine.com", "web.dev", "blog.cloudflare.com", "engineering.fb.com",
    "netflixtechblog.com", "aws.amazon.com", "openai.com", "anthropic.com", "huggingface.co",
    "papers.nips.cc", "aclanthology.org", "distill.pub", "ieee.org", "acm.org",
    # Reference works and news agencies the design does not list.
    "britannica.com", "baike.baidu.com", "reuters.com", "apnews.com", "bbc.com", "bbc.co.uk",
    "nytimes.com",
)  # fmt: skip
_TIER_3 = (
    # The search-layer design's tier 3.
    "medium.com", "towardsdatascience.com", "freecodecamp.org", "baeldung.com",
    "digitalocean.com", "tutorialspoint.com", "geeksforgeeks.org", "realpython.com",
    "hackernoon.com", "infoq.com", "thenewstack.io", "techcrunch.com", "arstechnica.com",
    "theverge.com", "wired.com", "36kr.com", "sspai.com", "juejin.cn", "segmentfault.com",
    "cnblogs.com", "zhihu.com",
    # Community writing the design does not list.
    "hashnode.com", "csdn.net",
)  # fmt: skip
_PATTERNS = {"docs.*": 1, "*.edu": 2, "*.gov": 2, "*.ac.*": 2, "*.github.io": 3, "blog.*": 3}

DOMAIN_TIERS: dict[str, int] = {
    **dict.fromkeys(_TIER_3, 3),
    **dict.fromkeys(_TIER_2, 2),
    **dict.fromkeys(_TIER_1, 1),
    **_PATTERNS,
}
"""Domain (or ``*`` pattern) → tier (1, 2 or 3)."""

TIER_SCORES: dict[int, float] = {1: 1.0, 2: 0.8, 3: 0.6}
"""Authority of each tier."""

INTENT_DOMAINS: dict[str, list[str]] = {
    "tutorial": ["dev.to", "freecodecamp.org", "realpython.com", "baeldung.com"],
    "resource": ["github.com"],
    "news": ["techcrunch.com", "arstechnica.com", "theverge.com"],
}
"""Domains boosted for each intent (by ``rerank.intent.domain_boost``): the design's
recommended ``--domain-boost`` for tutorials, resources and news."""
