"""The contract of a web search provider, and the helpers every provider shares.

A provider does no I/O: it turns a ``SearchRequest`` into an ``httpx.Request``
and an ``httpx.Response`` into a ``ProviderAnswer`` (items and extras). The
HTTP layer (``unified_search.http``) sends, retries and maps errors; the
handler caches, merges and truncates.

Options a provider cannot honour (a topic, a country, a date range, an
answer ...) are refused by ``check_options`` before anything is sent, with
UNSUPPORTED naming the provider and what it does accept.

Scores: a provider's own relevance score is kept when it lies in 0..1
(SearXNG's unbounded score is divided by the best one in the answer). A
provider that gives none gets the rank-based ``rank_score`` (``unified_search.contract.agent_items``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, TypedDict

import httpx

from unified_search.contract.agent_items import rank_score
from unified_search.dates import iso_date
from unified_search.errors import ErrorCode, SearchError
from unified_search.http import Rule, bad_payload, json_body
from unified_search.types import ResultItem, SearchDepth, SearchRequest, SearchType
from unified_search.urls import clean_url
from unified_search.web.extras import ProviderAnswer, RelatedQuestion

#: Request fields a provider may lack; each is refused when asked of a provider without it.
OPTIONS = (
    "country",
    "language",
    "start_date",
    "end_date",
    "include_answer",
    "include_raw_content",
    "include_images",
    "include_image_descriptions",
)
_TAGS = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class CallSettings:
    """What a provider needs beyond the request, resolved by the handler just before the call.

    Example:
        >>> CallSettings(limit=5, depth="basic", api_key="k").limit
        5
    """

    limit: int
    """Results wanted (the request's ``limit`` or ``web.max_results``)."""
    depth: SearchDepth = "basic"
    api_key: str | None = None
    base_url: str | None = None
    engine: str | None = None
    images: bool = False
    """Ask for images about the query on every search (the provider's ``images`` setting);
    a request's ``include_images`` asks too."""
    image_descriptions: bool = False
    """With images, ask for a description of each (a request's ``include_image_descriptions``
    asks too)."""
    now: datetime | None = None
    """The clock relative dates ("3 days ago") count from; ``None`` is the current time."""

    def __repr__(self) -> str:  # the key must never reach a log line
        return f"CallSettings(limit={self.limit}, depth={self.depth!r}, engine={self.engine!r})"

    def clock(self) -> datetime:
        """The reference time of this call."""
        return self.now or datetime.now(UTC)


class Provider(Protocol):
    """One web search API, sans-I/O.

    Example:
        Not run here: a sketch; the providers are in ``web.registry.PROVIDERS``.

        >>> provider = PROVIDERS["tavily"]  # doctest: +SKIP
        >>> request = provider.build_request(SearchRequest(query="rag"), CallSettings(limit=3, api_key="k"))  # doctest: +SKIP
    """

    @property
    def name(self) -> str:
        """The name used in ``web.providers`` and in item metadata."""
        ...

    @property
    def needs_key(self) -> bool:
        """Whether a missing key fails with NO_API_KEY before anything is sent."""
        ...

    @property
    def rules(self) -> Sequence[Rule]:
        """This provider's own meaning of HTTP statuses (see ``unified_search.http.errors``)."""
        ...

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Map ``request`` onto the provider's API (UNSUPPORTED for what it cannot do)."""
        ...

    def parse_response(
        self, response: httpx.Response, request: SearchRequest, settings: CallSettings
    ) -> ProviderAnswer:
        """Turn a successful answer into items, best first, and extras."""
        ...


def check_options(
    provider: str,
    request: SearchRequest,
    supported: Collection[str],
    topics: Collection[str] = ("general",),
    *,
    subject: str | None = None,
) -> None:
    """Refuse, before anything is sent, a topic or an option ``provider`` cannot honour.

    ``subject`` names what lacks it in the message (default: the provider), such
    as one engine of a meta-search API.

    Example:
        >>> check_options("x", SearchRequest(query="q", topic="news"), ())
        Traceback (most recent call last):
        ...
        unified_search.errors.SearchError: UNSUPPORTED [x]: x has no 'news' topic; valid topics: general
    """
    who = subject or provider
    if request.topic and request.topic not in topics:
        raise unsupported(
            provider, f"{who} has no {request.topic!r} topic; valid topics: {_listed(topics)}"
        )
    lacking = [name for name in OPTIONS if getattr(request, name) and name not in supported]
    if lacking:
        raise unsupported(
            provider,
            f"{who} does not support {', '.join(lacking)}; "
            f"it supports: {_listed(supported) or 'none of these options'}",
        )


def unsupported(provider: str, message: str) -> SearchError:
    """The error of a request a provider cannot serve as asked."""
    return SearchError(ErrorCode.UNSUPPORTED, message, provider=provider, retryable=False)


def plain(text: Any) -> str:
    """Return ``text`` without HTML tags or entities, whitespace collapsed; non-strings become ``""``."""
    if not isinstance(text, str):
        return ""
    return _SPACE.sub(" ", html.unescape(_TAGS.sub("", text))).strip()


def with_sites(query: str, sites: Sequence[str], exclude: Sequence[str]) -> str:
    """Add ``site:`` operators for APIs that have no domain filter.

    Example:
        >>> with_sites("rust", ["docs.rs", "rust-lang.org"], ["reddit.com"])
        'rust (site:docs.rs OR site:rust-lang.org) -site:reddit.com'
    """
    parts = [query]
    if sites:
        joined = " OR ".join(f"site:{site}" for site in sites)
        parts.append(f"({joined})" if len(sites) > 1 else joined)
    parts += [f"-site:{site}" for site in exclude]
    return " ".join(parts)


def sibling(url: str, name: str) -> str:
    """Replace the last path segment of ``url`` (``…/search`` → ``…/news``)."""
    return url.rstrip("/").rsplit("/", 1)[0] + "/" + name


def entries(
    data: Mapping[str, Any], key: str, *, provider: str, required: bool
) -> list[Mapping[str, Any]]:
    """Return the objects listed under ``key``, skipping malformed entries.

    A missing optional list is empty; a missing required list, or a value that
    is not a list, fails with PROVIDER_ERROR.
    """
    value = data.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list):
        raise bad_payload(provider, f"answer has no {key!r} list", str(data))
    return [entry for entry in value if isinstance(entry, Mapping)]


def parse_json(response: httpx.Response, provider: str) -> dict[str, Any]:
    """Parse the JSON object a provider answered (PROVIDER_ERROR with an excerpt otherwise)."""
    return json_body(response, provider=provider)


def texts(values: Any) -> list[str]:
    """The non-empty strings of a list (anything else is ignored)."""
    if not isinstance(values, list):
        return []
    return [plain(value) for value in values if isinstance(value, str) and value.strip()]


def questions(
    provider: str, raw: Sequence[Mapping[str, Any]], *, answer: str = "snippet", url: str = "link"
) -> list[RelatedQuestion]:
    """Related questions out of ``{question, <answer>, <url>}`` entries."""
    found = []
    for entry in raw:
        question = plain(entry.get("question"))
        if question:
            link = entry.get(url)
            found.append(
                RelatedQuestion(
                    provider=provider,
                    question=question,
                    answer=plain(entry.get(answer)) or None,
                    url=link if isinstance(link, str) and link.startswith("http") else None,
                )
            )
    return found


@dataclass(frozen=True)
class Fields:
    """Where a provider puts the title, URL, snippet and publication date of a result."""

    title: str = "title"
    url: str = "url"
    content: str = "content"
    published: tuple[str, ...] = ()
    """Keys of the date, tried in order (Brave: the ISO ``page_age``, then the relative ``age``)."""


def make_item(
    provider: str,
    rank: int,
    raw: Mapping[str, Any],
    fields: Fields,
    *,
    now: datetime | None = None,
    content: str | None = None,
    score: float | None = None,
    extra: Mapping[str, Any] | None = None,
) -> ResultItem | None:
    """Build a web item from one raw result at 0-based ``rank``; ``None`` when it has no usable URL.

    A missing title falls back to the URL, a missing snippet to ``""``, a
    missing score to ``rank_score(rank)``. The publication date is stored as
    ISO 8601 (relative dates counted from ``now``); an unreadable one is left
    out and the item kept.
    """
    url = raw.get(fields.url)
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return None
    metadata: dict[str, Any] = {"provider": provider, "providers": [provider], "rank": rank + 1}
    published = next(filter(None, (iso_date(raw.get(key), now) for key in fields.published)), None)
    if published:
        metadata["published_date"] = published
    metadata.update({k: v for k, v in (extra or {}).items() if v not in (None, "", [], {})})
    return ResultItem(
        type=SearchType.WEB,
        title=plain(raw.get(fields.title)) or clean_url(url),
        url=clean_url(url),
        content=plain(raw.get(fields.content)) if content is None else plain(content),
        score=score if score is not None else rank_score(rank),
        metadata=metadata,
    )


class Details(TypedDict, total=False):
    """What one raw result gives besides its fields: its own snippet, score and metadata."""

    content: str | None
    score: float | None
    extra: Mapping[str, Any] | None


def make_items(
    provider: str,
    raw: Sequence[Mapping[str, Any]],
    fields: Fields,
    *,
    now: datetime | None = None,
    details: Callable[[Mapping[str, Any]], Details] | None = None,
) -> list[ResultItem]:
    """``make_item`` over a list, ranked in order, unusable entries dropped.

    ``details`` reads what a provider adds to each entry (see ``make_item``).

    Example:
        >>> raw = [{"url": "https://a.example", "score": 0.5}, {"title": "no url"}]
        >>> [i.score for i in make_items("x", raw, Fields(), details=lambda r: {"score": r.get("score")})]
        [0.5]
    """
    items = (
        make_item(provider, rank, entry, fields, now=now, **(details(entry) if details else {}))
        for rank, entry in enumerate(raw)
    )
    return [item for item in items if item is not None]


def bounded_score(value: Any) -> float | None:
    """Return a provider score when it is a number in 0..1, else ``None`` (rank score applies)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0.0 <= value <= 1.0 else None


def _listed(values: Collection[str]) -> str:
    return ", ".join(sorted(values))
