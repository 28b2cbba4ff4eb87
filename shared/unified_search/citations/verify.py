"""Check an answer's citations claim by claim: does the cited reference say what the sentence says?

Every sentence gets a verdict (``unified_search.contract.checks.Verdict``): a
sentence citing references is ``supported`` when one of them holds a passage
that says it, else ``unsupported``; citing an ID no reference has is
``unknown_id``; a factual sentence without a citation is ``uncited``. The support
score joins two kinds of evidence (``unified_search.citations.evidence``): the
share of the sentence's terms a passage contains and, for the passages sharing
the most, their meaning under the bundled embedding model. A cross-encoder, when
one is given, scores those passages too and its probability is averaged in.

The weights joining the evidence were fitted on answers built from two corpora
(``benchmarks/grounding.py --fit``); Chinese sentences use the lexical evidence
alone, since the bundled model reads English.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from unified_search.citations.evidence import (
    Embed,
    EmbeddingCache,
    Window,
    cosine,
    coverage,
    terms,
    windows,
)
from unified_search.citations.format import Lookup
from unified_search.citations.pages import page_at
from unified_search.citations.sentences import Sentence, split_answer
from unified_search.config.citation import CitationConfig, VerifyConfig
from unified_search.contract.checks import (
    ChecksStore,
    CitationCheck,
    CitationReport,
    SentenceCheck,
    Span,
    Verdict,
)
from unified_search.contract.events import EventBus, EventName, EventSink, SearchEvent
from unified_search.types import Reference

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_BARE_ID = re.compile(r"\bref_\d{3,}\b")
_OTHER_FORMATS = {
    r"\[\d{1,3}\]": "[N]",
    r"\[ref_\d{3,}\]": "[ref_NNN]",
    r"【\d{1,3}】": "【N】",
    r"\[\^\d{1,3}\]": "[^N]",
}
_DEFAULT = "default"

PairScorer = Callable[[list[tuple[str, str]]], Sequence[float]]
"""Scores (sentence, passage) pairs: a cross-encoder's logits (``rerank.cross_encoder``)."""

#: How the evidence is joined, fitted by logistic regression on the tuning halves of both
#: corpora (``python benchmarks/grounding.py --fit``): support = sigmoid(bias + lexical
#: weight x term coverage + embedding weight x cosine); without embeddings, the lexical pair.
BIAS, LEXICAL_WEIGHT, EMBEDDING_WEIGHT = -16.10, 20.26, 7.39
LEXICAL_ONLY_BIAS, LEXICAL_ONLY_WEIGHT = -12.40, 23.89


class CitationVerifier:
    """Check answers against references; holds the models so repeated checks share them.

    Args:
        config: the ``citation`` section (its ``format`` and ``verify`` settings).
        embedding: the embedding function; ``"default"`` is the bundled model (lexical
            evidence alone when it is not installed), ``None`` turns embeddings off.
        cross_encoder: a scorer of (sentence, passage) pairs, averaged in when given.

    Example:
        >>> from unified_search import Reference
        >>> ref = Reference(id="ref_001", index=1, type="kb", source="user", weight=1.0,
        ...                 score=1.0, content="Glaciers in the Alps lost a tenth of their ice in 2022.")
        >>> report = CitationVerifier(embedding=None).check(
        ...     "Alpine glaciers lost a tenth of their ice in 2022 #ref:ref_001.", [ref])
        >>> report.sentences[0].verdict.value
        'supported'
    """

    def __init__(
        self,
        config: CitationConfig | None = None,
        *,
        embedding: Embed | str | None = _DEFAULT,
        cross_encoder: PairScorer | None = None,
    ) -> None:
        if isinstance(embedding, str) and embedding != _DEFAULT:
            raise ValueError(f"embedding must be {_DEFAULT!r}, an embedding function or None")
        self.config = config or CitationConfig()
        self._embedding = embedding
        self._cache: EmbeddingCache | None = None
        self.cross_encoder = cross_encoder
        self.warnings: list[str] = []

    @property
    def settings(self) -> VerifyConfig:
        """The ``citation.verify`` section in use."""
        return self.config.verify

    def embeddings(self) -> EmbeddingCache | None:
        """The embedding cache, loading the bundled model on first use (``None``: lexical only)."""
        if self._cache is None and self._embedding is not None and self.settings.embedding:
            embed = (
                _bundled_model(self.warnings)
                if isinstance(self._embedding, str)
                else self._embedding
            )
            if embed is None:
                self._embedding = None
            else:
                self._cache = EmbeddingCache(embed)
        return self._cache

    def check(self, text: str, references: Sequence[Reference]) -> CitationReport:
        """Check every sentence of ``text`` (up to ``verify.max_sentences``) against ``references``."""
        started = time.perf_counter()
        if not isinstance(text, str):
            raise TypeError(f"the answer must be text, not {type(text).__name__}")
        method = self._method()  # loads the model first, so a missing one is warned about
        by_id = {reference.id: reference for reference in references}
        lookup = Lookup.of(references)
        split = split_answer(text, self.config.format, lookup)
        cap = self.settings.max_sentences
        checked = [
            self._sentence(n, s, split.prose, by_id) for n, s in enumerate(split.sentences[:cap])
        ]
        total = len(split.sentences)
        limit = None
        if total > cap:
            limit = f"citation.verify.max_sentences ({cap}): {total - cap} of {total} sentences not checked"
        counts = Counter(s.verdict for s in checked)
        return CitationReport(
            sentences=checked,
            counts={verdict: counts[verdict] for verdict in Verdict if counts[verdict]},
            total=total,
            limit=limit,
            warnings=[*self.warnings, *_format_warnings(split.prose, self.config.format)],
            method=method,
            duration_ms=round((time.perf_counter() - started) * 1000, 3),
        )

    async def acheck(self, text: str, references: Sequence[Reference]) -> CitationReport:
        """Async twin of ``check`` (the work runs in a worker thread)."""
        return await asyncio.to_thread(self.check, text, references)

    def _method(self) -> str:
        parts = ["lexical"]
        if self.embeddings() is not None:
            parts.append("embedding")
        if self.cross_encoder is not None:
            parts.append("cross_encoder")
        return "+".join(parts)

    def _sentence(
        self, index: int, sentence: Sentence, prose: str, by_id: Mapping[str, Reference]
    ) -> SentenceCheck:
        base = {"index": index, "start": sentence.start, "end": sentence.end, "text": sentence.text}
        cited = list(dict.fromkeys(cid or written for cid, written in sentence.cited))
        if not cited:
            verdict = Verdict.UNCITED if sentence.claim else Verdict.NO_CLAIM
            return SentenceCheck(**base, verdict=verdict)
        claim = prose[sentence.start : sentence.end]
        checks = [self._citation(claim, cid, by_id.get(cid)) for cid in cited]
        best = max(checks, key=lambda c: c.score)
        if not all(c.known for c in checks):
            verdict = Verdict.UNKNOWN_ID
        else:
            verdict = Verdict.SUPPORTED if best.supported else Verdict.UNSUPPORTED
        return SentenceCheck(
            **base, cited=cited, verdict=verdict, score=best.score, span=best.span, citations=checks
        )

    def _citation(self, claim: str, cid: str, reference: Reference | None) -> CitationCheck:
        if reference is None:
            return CitationCheck(id=cid, known=False, reason="no reference has this ID")
        found = windows(reference.content) if reference.content.strip() else ()
        if not found:
            return CitationCheck(id=cid, known=True, reason="the reference has no text to check")
        score, window = self._support(claim, found)
        span = Span(
            reference_id=cid,
            start=window.start,
            end=window.end,
            text=window.text,
            page=page_at(reference.metadata, window.start),
        )
        supported = score >= self.settings.threshold
        return CitationCheck(
            id=cid, known=True, score=round(score, 4), supported=supported, span=span
        )

    def _support(self, claim: str, found: Sequence[Window]) -> tuple[float, Window]:
        """The support score of the claim by these windows, and the window that says it best."""
        lexical, meaning, window = self.evidence(claim, found)
        score = _fused(lexical, meaning)
        if self.cross_encoder is not None:
            logit = max(float(x) for x in self.cross_encoder([(claim, window.text)]))
            score = (score + _sigmoid(logit)) / 2
        return score, window

    def evidence(
        self, claim: str, found: Sequence[Window], *, settle: bool = True
    ) -> tuple[float, float | None, Window]:
        """The best term coverage, the best cosine (``None`` without embeddings), the best window.

        Only the ``verify.candidates`` windows with the most shared terms are embedded,
        and none when the terms alone settle the verdict (unless ``settle`` is false).
        """
        wanted = terms(claim)
        lexical = [coverage(wanted, w.terms) for w in found]
        order = sorted(range(len(found)), key=lambda i: -lexical[i])[: self.settings.candidates]
        cache = None if _CJK.search(claim) else self.embeddings()
        if cache is None or (settle and self._decided(lexical[order[0]])):
            return lexical[order[0]], None, found[order[0]]
        vectors = cache.vectors([claim, *(found[i].text for i in order)])
        meaning = {i: cosine(vectors[0], v) for i, v in zip(order, vectors[1:], strict=True)}
        best = max(order, key=lambda i: lexical[i] + meaning[i])
        return lexical[order[0]], max(meaning.values()), found[best]

    def _decided(self, lexical: float) -> bool:
        """Whether shared terms alone settle the verdict, whatever the cosine (0..1) would add.

        Then the lexical model gives the score and no passage is embedded: most verbatim
        quotes and most citations of an unrelated reference are settled this way.
        """
        threshold = self.settings.threshold
        alone = _fused(lexical, None) >= threshold
        low, high = _fused(lexical, 0.0) >= threshold, _fused(lexical, 1.0) >= threshold
        return low == high == alone


def _fused(lexical: float, meaning: float | None) -> float:
    """Join the evidence into a support probability in 0..1."""
    if meaning is None:
        return _sigmoid(LEXICAL_ONLY_BIAS + LEXICAL_ONLY_WEIGHT * lexical)
    return _sigmoid(BIAS + LEXICAL_WEIGHT * lexical + EMBEDDING_WEIGHT * meaning)


def _sigmoid(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, value))))


def _bundled_model(warnings: list[str]) -> Embed | None:
    try:
        from unified_search.models.minilm import default_embedding

        model = default_embedding()
    except ImportError as exc:
        warnings.append(f"lexical evidence only: {exc}")
        return None
    return model


def _format_warnings(prose: str, fmt: str) -> list[str]:
    """Say what looks like a citation but is not written in ``fmt`` (it was not counted)."""
    found = []
    bare = sorted(set(_BARE_ID.findall(prose)))
    if bare:
        found.append(f"IDs written outside the citation format {fmt!r}: {', '.join(bare[:5])}")
    for pattern, shape in _OTHER_FORMATS.items():
        if re.search(pattern, prose):
            found.append(f"citations written as {shape}, not in the citation format {fmt!r}")
    return found


def verify_citations(
    text: str,
    references: Sequence[Reference],
    *,
    config: CitationConfig | None = None,
    embedding: Embed | str | None = _DEFAULT,
    cross_encoder: PairScorer | None = None,
) -> CitationReport:
    """Check every sentence of an answer against the references it cites.

    Example:
        >>> from unified_search import Reference
        >>> ref = Reference(id="ref_001", index=1, type="web", source="auto", weight=0.6,
        ...                 score=1.0, content="The Rhine is 1,230 km long.")
        >>> report = verify_citations("The Rhine is 1,230 km long #ref:ref_001. It rains.", [ref],
        ...                           embedding=None)
        >>> [s.verdict.value for s in report.sentences]
        ['supported', 'no_claim']
    """
    return _verifier(config, embedding, cross_encoder).check(text, references)


async def averify_citations(
    text: str,
    references: Sequence[Reference],
    *,
    config: CitationConfig | None = None,
    embedding: Embed | str | None = _DEFAULT,
    cross_encoder: PairScorer | None = None,
    sinks: Iterable[EventSink] = (),
    store: ChecksStore | None = None,
    request_id: str = "",
    search_id: str | None = None,
    chat_id: str | None = None,
) -> CitationReport:
    """Async twin of ``verify_citations``, which can also report and keep the check.

    ``sinks`` hear one ``citation_check`` event per sentence, then ``citations_checked``
    with the report; with a ``store`` (a ``SearchStore``) and a ``request_id`` the
    report is stored with the request's searches (``SearchStore.get_checks``).
    """
    report = await _verifier(config, embedding, cross_encoder).acheck(text, references)
    if store is not None and request_id:
        await store.asave_checks(request_id, report, chat_id=chat_id, search_id=search_id)
    bus = EventBus(sinks)
    if bus.listening:
        for event in check_events(report, request_id, search_id=search_id, chat_id=chat_id):
            await bus.emit(event)
    return report


def check_events(
    report: CitationReport,
    request_id: str = "",
    *,
    search_id: str | None = None,
    chat_id: str | None = None,
) -> list[SearchEvent]:
    """The events of a check: ``citation_check`` per sentence, then ``citations_checked``."""
    ids: dict[str, Any] = {"request_id": request_id, "search_id": search_id, "chat_id": chat_id}
    events = [SearchEvent(name=EventName.CITATION_CHECK, check=s, **ids) for s in report.sentences]
    return [*events, SearchEvent(name=EventName.CITATIONS_CHECKED, checks=report, **ids)]


_shared: dict[tuple[str, str | None], CitationVerifier] = {}


def _verifier(
    config: CitationConfig | None, embedding: Embed | str | None, cross_encoder: PairScorer | None
) -> CitationVerifier:
    """A verifier for these settings; the bundled model's is kept, so its cache lasts."""
    if cross_encoder is not None or not (embedding is None or isinstance(embedding, str)):
        return CitationVerifier(config, embedding=embedding, cross_encoder=cross_encoder)
    key = ((config or CitationConfig()).model_dump_json(), embedding)
    if key not in _shared:
        if len(_shared) >= 16:
            _shared.clear()
        _shared[key] = CitationVerifier(config, embedding=embedding)
    return _shared[key]
