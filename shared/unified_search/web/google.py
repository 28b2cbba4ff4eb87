"""What the APIs serving Google's results share (Serper, SerpApi's ``google`` engine).

Google filters time with ``tbs`` codes, and answers with an answer box, the
questions people also ask and related searches; each API names these keys its
own way (``answerBox`` or ``answer_box`` ...), so ``GoogleKeys`` says where
they are and ``google_extras`` reads them once for every such API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from unified_search.types import SearchRequest
from unified_search.web.extras import WebAnswer, WebExtras
from unified_search.web.provider import entries, plain, questions

#: Google's ``tbs`` codes of the request's ``time_range``.
TIME_RANGES = {"day": "qdr:d", "week": "qdr:w", "month": "qdr:m", "year": "qdr:y"}


@dataclass(frozen=True)
class GoogleKeys:
    """Where an API puts Google's answer box, related questions and related searches."""

    answer_box: str
    questions: str
    searches: str
    answer_text: tuple[str, ...] = ("answer", "snippet")
    """Keys of the answer box's text, tried in order."""


def google_dates(request: SearchRequest) -> str | None:
    """Google's ``tbs`` custom date range (``cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY``), if asked.

    Example:
        >>> from datetime import date
        >>> google_dates(SearchRequest(query="q", start_date=date(2026, 1, 5)))
        'cdr:1,cd_min:1/5/2026'
    """
    parts = [
        f"{name}:{day.month}/{day.day}/{day.year}"
        for name, day in (("cd_min", request.start_date), ("cd_max", request.end_date))
        if day is not None
    ]
    return ",".join(["cdr:1", *parts]) if parts else None


def google_extras(
    provider: str, data: Mapping[str, Any], request: SearchRequest, keys: GoogleKeys
) -> WebExtras:
    """The related questions and searches of an answer, and its answer box when asked for.

    Example:
        >>> keys = GoogleKeys("answerBox", "peopleAlsoAsk", "relatedSearches")
        >>> google_extras("serper", {"relatedSearches": [{"query": "rag"}]}, SearchRequest(query="q"), keys).related_searches
        ['rag']
    """
    related = entries(data, keys.searches, provider=provider, required=False)
    asked = entries(data, keys.questions, provider=provider, required=False)
    box = data.get(keys.answer_box)
    answer = None
    if request.include_answer and isinstance(box, Mapping):
        answer = _answer(provider, box, keys.answer_text)
    return WebExtras(
        answers=[answer] if answer else [],
        related_questions=questions(provider, asked),
        related_searches=[query for entry in related if (query := plain(entry.get("query")))],
    )


def _answer(provider: str, box: Mapping[str, Any], keys: tuple[str, ...]) -> WebAnswer | None:
    text = next(filter(None, (plain(box.get(key)) for key in keys)), "")
    link = box.get("link")
    url = link if isinstance(link, str) else None
    return WebAnswer(provider=provider, text=text, url=url) if text else None
