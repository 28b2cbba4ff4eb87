"""What a web search returns besides result items: answers, images, related questions.

Providers give these when asked (Tavily's ``answer`` and ``images``) or by
themselves (Serper's ``peopleAlsoAsk`` and ``relatedSearches``, SerpApi's
``related_questions``, Brave's ``faq``, Tavily's ``follow_up_questions``,
SearXNG's ``answers`` and ``suggestions``). The web handler merges them over
all providers and stores them, JSON-ready, under
``SearchResult.metadata["extras"]``; ``WebExtras.of(result)`` reads them back
as this typed model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from unified_search.contract.response import SearchResponse
from unified_search.escape import escape_attr, escape_text
from unified_search.types import ResultItem, SearchResult

#: Where the handler puts the extras on its ``SearchResult``.
METADATA_KEY = "extras"


class _Value(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WebAnswer(_Value):
    """A short answer to the query, written by a provider (Tavily) or lifted from a page."""

    provider: str
    text: str
    url: str | None = None
    """The page the answer was taken from, when the provider says."""


class WebImage(_Value):
    """An image about the query."""

    provider: str
    url: str
    description: str | None = None


class RelatedQuestion(_Value):
    """A question people also ask, with the provider's short answer when it gives one."""

    provider: str
    question: str
    answer: str | None = None
    url: str | None = None


class WebExtras(_Value):
    """Answers, images, related questions and related searches of one web search.

    Example:
        >>> extras = WebExtras(answers=[WebAnswer(provider="tavily", text="42")])
        >>> extras.answer
        '42'
    """

    answers: list[WebAnswer] = Field(default_factory=list)
    images: list[WebImage] = Field(default_factory=list)
    related_questions: list[RelatedQuestion] = Field(default_factory=list)
    related_searches: list[str] = Field(default_factory=list)
    """Other queries the provider suggests."""

    @property
    def answer(self) -> str | None:
        """The first answer's text (providers in the order they were asked)."""
        return self.answers[0].text if self.answers else None

    def is_empty(self) -> bool:
        """Tell whether there is nothing besides the items."""
        return not (self.answers or self.images or self.related_questions or self.related_searches)

    @classmethod
    def of(cls, result: SearchResult) -> WebExtras:
        """Read the extras a web search stored on its result (empty when it stored none)."""
        stored = result.metadata.get(METADATA_KEY)
        return cls.model_validate(stored) if isinstance(stored, dict) else cls()

    @classmethod
    def of_response(cls, response: SearchResponse) -> WebExtras:
        """The extras of every web result of ``response``, merged."""
        return cls.merge(cls.of(result) for result in response.results if result is not None)

    def xml(self) -> str:
        """A ``<web_extras>`` block for a model (escaped; empty when there is nothing)."""
        if self.is_empty():
            return ""
        lines = [
            *(_element("answer", a.text, provider=a.provider, url=a.url) for a in self.answers),
            *(
                _element("image", i.description or "", provider=i.provider, url=i.url)
                for i in self.images
            ),
            *(
                _element("related_question", q.question, provider=q.provider)
                for q in self.related_questions
            ),
            *(_element("related_search", search) for search in self.related_searches),
        ]
        return "\n".join(["<web_extras>", *lines, "</web_extras>"])

    @classmethod
    def merge(cls, parts: Iterable[WebExtras]) -> WebExtras:
        """Combine the extras of several providers, dropping repeated questions and images."""
        answers: list[WebAnswer] = []
        images: dict[str, WebImage] = {}
        questions: dict[str, RelatedQuestion] = {}
        searches: dict[str, str] = {}
        for part in parts:
            answers += part.answers
            for image in part.images:
                images.setdefault(image.url, image)
            for question in part.related_questions:
                questions.setdefault(question.question.casefold().strip(" ?"), question)
            for search in part.related_searches:
                searches.setdefault(search.casefold().strip(), search)
        return cls(
            answers=answers,
            images=list(images.values()),
            related_questions=list(questions.values()),
            related_searches=list(searches.values()),
        )


def _element(tag: str, text: str, **attrs: str | None) -> str:
    rendered = "".join(f' {k}="{escape_attr(v)}"' for k, v in attrs.items() if v)
    return f"<{tag}{rendered}>{escape_text(text)}</{tag}>"


@dataclass(frozen=True)
class ProviderAnswer:
    """One provider's parsed answer: its items, best first, and its extras."""

    items: list[ResultItem]
    extras: WebExtras = field(default_factory=WebExtras)
